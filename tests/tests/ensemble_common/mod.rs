//! Shared by the Ensemble tests: the Get-Maximum components built once per
//! test program with the installed Makefile (mpicc and pkg-config, as a
//! user builds them), and `mpbridge ensemble run` with a hard timeout.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use tests::mpirun::{mpi_env, run_with_timeout, stage, workspace_root, Run};

/// The directory holding `terminal`, `relay`, `terminal_mpi`, `server_mpi`
/// and a host map sending every published host name to this machine: the
/// installed `share/mpbridge/ensemble` copied and built with its Makefile,
/// pkg-config finding the installed `mpbridge.pc`.
pub fn components() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let stage = stage();
        let share = stage.join("share/mpbridge/ensemble");
        // One directory per test program, so programs running at the same
        // time never build into each other's directory.
        let program = std::env::current_exe()
            .ok()
            .and_then(|e| e.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .map(|s| s.split('-').next().unwrap_or_default().to_string())
            .unwrap_or_else(|| "ensemble".to_string());
        let dir = workspace_root()
            .join("target/test-programs/ensemble")
            .join(program);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the components directory");
        let entries = std::fs::read_dir(&share)
            .unwrap_or_else(|e| panic!("{} (run `make stage`): {e}", share.display()));
        for entry in entries {
            let path = entry.expect("read the installed examples").path();
            if path.is_file() {
                let name = path.file_name().expect("file name");
                std::fs::copy(&path, dir.join(name)).expect("copy an installed example");
            }
        }
        let out = Command::new("make")
            .arg("-C")
            .arg(&dir)
            .arg("CFLAGS=-std=c11 -Wall -Wextra -Werror -O1")
            .env("PKG_CONFIG_PATH", stage.join("lib/pkgconfig"))
            .output()
            .expect("run make");
        assert!(
            out.status.success(),
            "building the components with the installed Makefile failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for name in ["terminal", "relay", "terminal_mpi", "server_mpi"] {
            assert!(dir.join(name).is_file(), "make built no {name}");
        }
        std::fs::write(
            dir.join("hosts"),
            "# every published host is this machine\n* localhost\n",
        )
        .expect("write the host map");
        dir
    })
}

/// `examples/ensemble/compositions/<name>`.
pub fn example(name: &str) -> PathBuf {
    workspace_root()
        .join("examples/ensemble/compositions")
        .join(name)
}

/// `tests/programs/ensemble/<name>`.
pub fn program(name: &str) -> PathBuf {
    workspace_root().join("tests/programs/ensemble").join(name)
}

/// The installed `mpbridge`.
pub fn mpbridge() -> PathBuf {
    stage().join("bin/mpbridge")
}

/// `mpbridge ensemble SUBCOMMAND SCRIPT ARGS...` with a hard timeout.
pub fn ensemble(sub: &str, script: &Path, args: &[&str], timeout: Duration) -> Run {
    ensemble_env(sub, script, args, &[], timeout)
}

/// [`ensemble`] with extra environment variables for the launch.
pub fn ensemble_env(
    sub: &str,
    script: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    timeout: Duration,
) -> Run {
    let mut cmd = Command::new(mpbridge());
    cmd.arg("ensemble").arg(sub).arg(script).args(args);
    cmd.envs(env.iter().copied());
    mpi_env(&mut cmd);
    run_with_timeout(cmd, timeout)
}

/// `mpbridge ensemble run SCRIPT --path DIR ARGS...`: the components
/// found in `dir`.
pub fn run_from(dir: &Path, script: &Path, args: &[&str], timeout: Duration) -> Run {
    let d = dir.display().to_string();
    let mut all = vec!["--path", d.as_str()];
    all.extend_from_slice(args);
    ensemble("run", script, &all, timeout)
}

/// `mpbridge ensemble run SCRIPT` with the built components and the host
/// map, plus `args`.
pub fn run_script(script: &Path, args: &[&str], timeout: Duration) -> Run {
    let dir = components();
    let hosts = dir.join("hosts").display().to_string();
    let mut all = vec!["--hostmap", hosts.as_str()];
    all.extend_from_slice(args);
    run_from(dir, script, &all, timeout)
}

/// The largest value the script gives a terminal (`T`), computed from the
/// script itself.
pub fn largest_parameter(script: &Path, params: &BTreeMap<String, i64>) -> i64 {
    let app = ensemble_lang::parse_file(script, params)
        .unwrap_or_else(|d| panic!("{} does not parse: {d:?}", script.display()));
    app.processes
        .iter()
        .filter(|p| p.component == "T")
        .map(|p| {
            p.params
                .first()
                .and_then(|v| v.parse::<i64>().ok())
                .unwrap_or_else(|| panic!("{} has no integer parameter", p.label()))
        })
        .max()
        .expect("the script has terminals")
}

/// Number of processes of component `c` in the script.
pub fn count(script: &Path, params: &BTreeMap<String, i64>, c: &str) -> usize {
    let app = ensemble_lang::parse_file(script, params)
        .unwrap_or_else(|d| panic!("{} does not parse: {d:?}", script.display()));
    app.processes.iter().filter(|p| p.component == c).count()
}

/// The values following `prefix` on the lines that start with it.
pub fn values_after<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(str::trim)
        .collect()
}

/// Everything a run printed, for assertion messages.
pub fn dump(r: &Run) -> String {
    format!(
        "exit {:?}, timed out {}, {:.1}s\n--- stdout\n{}\n--- stderr\n{}",
        r.code,
        r.timed_out,
        r.elapsed.as_secs_f64(),
        r.stdout,
        r.stderr
    )
}

/// Asserts that `r` printed "The maximum is `truth`" exactly `lines` times
/// (once per terminal) and no other maximum.
pub fn maxima_ok(r: &Run, lines: usize, truth: impl std::fmt::Display) {
    let truth = truth.to_string();
    let printed = values_after(&r.stdout, "The maximum is ");
    assert_eq!(printed.len(), lines, "{}", dump(r));
    assert!(printed.iter().all(|p| *p == truth), "{}", dump(r));
}

/// Asserts that `r` exited with 1 and its standard error says every one of
/// `needles`.
pub fn refused(r: &Run, needles: &[&str]) {
    assert_eq!(r.code, Some(1), "{}", dump(r));
    for n in needles {
        assert!(r.stderr.contains(n), "no {n:?}\n{}", dump(r));
    }
}
