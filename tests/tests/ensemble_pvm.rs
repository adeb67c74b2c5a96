//! Ensemble compositions on the PVM loader: the published Get-Maximum
//! scripts unchanged (their hosts mapped to this machine), the project's
//! own compositions, a failing component, and 64 processes on 2 cores.
//! Each run has a hard timeout.

mod ensemble_common;

use ensemble_common::*;
use std::collections::BTreeMap;
use std::time::Duration;
use tests::mpirun::Run;

const LIMIT: Duration = Duration::from_secs(120);

/// (process number, component, tid) of every `Spawn process` line.
fn spawned(out: &str) -> Vec<(usize, String, u32)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("Spawn process ")?;
            let (n, rest) = rest.split_once(" (")?;
            let (c, tid) = rest.split_once(") tid= t")?;
            Some((
                n.parse().ok()?,
                c.to_string(),
                u32::from_str_radix(tid.trim(), 16).ok()?,
            ))
        })
        .collect()
}

/// Every terminal prints the largest terminal tid, and the loader printed
/// one spawn line per process, numbered in order.
fn assert_max_tid(r: &Run, processes: usize, terminals: usize) {
    r.assert_ok("mpbridge ensemble run");
    let s = spawned(&r.stdout);
    assert_eq!(s.len(), processes, "spawn lines\n{}", dump(r));
    assert!(
        s.iter().enumerate().all(|(i, (n, _, _))| *n == i + 1),
        "processes numbered 1..{processes}\n{}",
        dump(r)
    );
    let truth = s
        .iter()
        .filter(|(_, c, _)| c == "T")
        .map(|(_, _, t)| *t)
        .max()
        .expect("terminals");
    let printed = values_after(&r.stdout, "The maximum tid is ");
    assert_eq!(printed.len(), terminals, "{}", dump(r));
    for p in printed {
        assert_eq!(
            u32::from_str_radix(p, 16).ok(),
            Some(truth),
            "terminal printed {p}, true maximum {truth:x}\n{}",
            dump(r)
        );
    }
}

/// Runs the published composition `file` and checks what
/// [`assert_max_tid`] checks.
fn published_finds_the_maximum(file: &str, processes: usize, terminals: usize) {
    let r = run_script(&example(&format!("published/{file}")), &[], LIMIT);
    assert_max_tid(&r, processes, terminals);
}

#[test]
fn published_all_to_all_relays_with_allocation() {
    published_finds_the_maximum("getmax-full.ens", 12, 8);
}

#[test]
fn published_star_of_relays() {
    published_finds_the_maximum("getmax-star.ens", 13, 8);
}

#[test]
fn published_tree_of_relays() {
    published_finds_the_maximum("getmax-tree.ens", 15, 8);
}

#[test]
fn tree_where_relay_three_has_four_clients() {
    let script = example("getmax-tree4.ens");
    let app = ensemble_lang::parse_file(&script, &BTreeMap::new()).expect("parses");
    let r3 = app.find("R", 3).expect("R[3]");
    assert_eq!(app.processes[r3].port_count("C"), 4);
    let r = run_script(&script, &[], LIMIT);
    assert_max_tid(&r, 12, 8);
}

#[test]
fn five_terminals_three_relays_with_parameters() {
    let script = example("getmax-five.ens");
    let truth = largest_parameter(&script, &BTreeMap::new());
    assert_eq!(truth, 999, "the composition's terminals hold 999 at most");
    let r = run_script(&script, &[], LIMIT);
    r.assert_ok("getmax-five");
    maxima_ok(&r, 5, truth);
}

#[test]
fn a_failing_component_fails_the_run_without_hanging() {
    let r = run_script(&program("wrong-port.ens"), &[], LIMIT);
    assert!(!r.timed_out, "hung\n{}", dump(&r));
    assert_ne!(r.code, Some(0), "{}", dump(&r));
    assert!(
        r.stderr.contains("port(s) of type Q") && r.stderr.contains("T[1]"),
        "says which component and why\n{}",
        dump(&r)
    );
}

#[test]
fn published_hosts_need_a_host_map() {
    let r = run_from(
        components(),
        &example("published/getmax-full.ens"),
        &[],
        LIMIT,
    );
    refused(&r, &["orion"]);
    r.assert_stdout_lacks("Spawn process", "nothing starts");
}

#[test]
fn sixty_four_processes_on_the_pvm_loader() {
    let script = program("star-pvm.ens");
    let params = BTreeMap::from([("N".to_string(), 63)]);
    let truth = largest_parameter(&script, &params);
    let r = run_script(&script, &["-D", "N=63"], Duration::from_secs(240));
    r.assert_ok("64-process star");
    assert_eq!(spawned(&r.stdout).len(), 64, "{}", dump(&r));
    maxima_ok(&r, 63, truth);
}

/// The Rust terminal (`examples/ensemble/terminal.rs`, built by cargo as
/// the `terminal_rs` example) takes the C terminal's place in an unchanged
/// script, next to C relays.
#[test]
fn rust_terminals_with_c_relays() {
    let rust_terminal = tests::mpirun::cargo_example("terminal_rs");
    let dir = tests::mpirun::workspace_root().join("target/test-programs/ensemble-rust");
    std::fs::create_dir_all(&dir).expect("create directory");
    std::fs::copy(&rust_terminal, dir.join("terminal")).expect("copy the Rust terminal");
    std::fs::copy(components().join("relay"), dir.join("relay")).expect("copy the relay");
    let script = example("getmax-five.ens");
    let truth = largest_parameter(&script, &BTreeMap::new()).to_string();
    let r = run_from(&dir, &script, &[], LIMIT);
    r.assert_ok("Rust terminals");
    maxima_ok(&r, 5, &truth);
}

/// With `--spawn` the loader starts alone and every component is started
/// by `pvm_spawn` through `MPI_Comm_spawn`: same protocol, same result.
#[test]
fn published_star_with_dynamically_spawned_components() {
    let r = run_script(
        &example("published/getmax-star.ens"),
        &["--spawn"],
        Duration::from_secs(180),
    );
    assert_max_tid(&r, 13, 8);
}
