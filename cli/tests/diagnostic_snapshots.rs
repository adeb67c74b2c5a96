//! What `mpbridge ensemble check` prints for broken scripts, compared with
//! the expected text beside each script (`tests/diagnostics/NAME.ens` and
//! `NAME.stderr`): the editor line, the script's lines with a caret under
//! the place, and the related places. Set UPDATE_SNAPSHOTS=1 to rewrite
//! the expected files after a deliberate change, then review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics")
}

/// Runs `mpbridge ensemble check NAME.ens` in the snapshot directory (so
/// the file name in the messages is short) and compares its stderr.
fn check_snapshot(name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mpbridge"))
        .current_dir(dir())
        .env_remove("NO_COLOR")
        .args(["ensemble", "check", &format!("{name}.ens")])
        .output()
        .expect("run mpbridge");
    assert_eq!(out.status.code(), Some(1), "{name}: a broken script fails");
    let got = String::from_utf8(out.stderr).expect("stderr is text");
    let expected_file = dir().join(format!("{name}.stderr"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&expected_file, &got).expect("write snapshot");
    }
    let expected = std::fs::read_to_string(&expected_file)
        .unwrap_or_else(|e| panic!("{}: {e}", expected_file.display()));
    assert_eq!(
        got,
        expected,
        "{name}: output differs from {}",
        expected_file.display()
    );
    got
}

#[test]
fn a_port_used_twice_shows_both_channels() {
    let text = check_snapshot("two-channels");
    // The warning about the port left unconnected comes first, then the
    // error, each headed by its editor line.
    let heads: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("two-channels.ens:"))
        .collect();
    assert_eq!(
        heads,
        [
            "two-channels.ens:5:1: warning: port R[1].C[2] is not connected",
            "two-channels.ens:8:20: error: port R[1].C[1] is used by two channels (also at 7:20)"
        ]
    );
    assert!(text.contains("first used here"), "{text}");
    // No colour when stderr is not a terminal.
    assert!(!text.contains('\x1b'), "{text}");
}

#[test]
fn a_syntax_error_points_at_the_token() {
    let text = check_snapshot("syntax");
    assert!(text.starts_with("syntax.ens:8:1: error:"), "{text}");
    assert!(text.contains("^"), "{text}");
}

#[test]
fn an_unknown_process_is_underlined() {
    let text = check_snapshot("unknown-process");
    assert!(
        text.starts_with("unknown-process.ens:8:1: error:"),
        "{text}"
    );
    assert!(text.contains("T[3]"), "{text}");
}

#[test]
fn a_process_declared_twice_shows_the_first_declaration() {
    let text = check_snapshot("declared-twice");
    assert!(text.starts_with("declared-twice.ens:5:1: error:"), "{text}");
    assert!(text.contains("first here"), "{text}");
}
