//! `mpbridge ensemble check` and `draw` on the published compositions, as
//! a user runs them.

mod ensemble_common;

use ensemble_common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn check_passes_with_the_components_found_and_hosts_mapped() {
    let dir = components();
    let d = dir.display().to_string();
    let hosts = dir.join("hosts").display().to_string();
    let script = example("published/getmax-full.ens");
    let r = ensemble(
        "check",
        &script,
        &["--path", &d, "--hostmap", &hosts],
        LIMIT,
    );
    r.assert_ok("check");
    assert!(
        r.stdout.contains("12 processes, 14 channels"),
        "{}",
        dump(&r)
    );
}

#[test]
fn check_fails_on_the_authors_missing_executables_with_their_lines() {
    let dir = components();
    let hosts = dir.join("hosts").display().to_string();
    let script = example("published/getmax-full.ens");
    let r = ensemble("check", &script, &["--hostmap", &hosts], LIMIT);
    refused(&r, &["getmax-full.ens:41:", "/home/users/easy_spawn"]);
}

#[test]
fn draw_writes_an_svg_of_the_process_graph() {
    let out = components().join("getmax-star.svg");
    let _ = std::fs::remove_file(&out);
    let o = out.display().to_string();
    let r = ensemble(
        "draw",
        &example("published/getmax-star.ens"),
        &["-o", &o],
        LIMIT,
    );
    r.assert_ok("draw");
    let svg = std::fs::read_to_string(&out).expect("the SVG was written");
    assert!(svg.contains("<svg"), "{svg}");
    assert!(svg.contains("R[5]") && svg.contains("T[8]"), "{svg}");
}
