//! Ensemble compositions on the MPI loader: the same terminal executable in
//! the all-terminals (SPMD) and terminal-servers (MPMD) compositions, a
//! 64-process parametric ring on 2 cores, and a binding the loader refuses.

mod ensemble_common;

use ensemble_common::*;
use std::collections::BTreeMap;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn six_terminals_in_one_group_terminal_one_the_root() {
    let script = example("getmax-mpi-all.ens");
    let truth = largest_parameter(&script, &BTreeMap::new()).to_string();
    let r = run_script(&script, &[], LIMIT);
    r.assert_ok("all terminals");
    let printed = values_after(&r.stdout, "The maximum is ");
    assert_eq!(printed.len(), 6, "{}", dump(&r));
    assert!(printed.iter().all(|p| *p == truth), "{}", dump(&r));
}

#[test]
fn terminal_groups_served_by_a_ring_of_servers() {
    let script = example("getmax-mpi-servers.ens");
    let truth = largest_parameter(&script, &BTreeMap::new()).to_string();
    let r = run_script(&script, &[], LIMIT);
    r.assert_ok("terminal servers");
    let printed = values_after(&r.stdout, "The maximum is ");
    assert_eq!(printed.len(), 6, "{}", dump(&r));
    assert!(printed.iter().all(|p| *p == truth), "{}", dump(&r));
    let servers: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Server "))
        .collect();
    assert_eq!(servers.len(), 3, "{}", dump(&r));
    assert!(
        servers
            .iter()
            .all(|l| l.ends_with(&format!("the maximum is {truth}"))),
        "{}",
        dump(&r)
    );
}

#[test]
fn sixty_four_process_ring_on_two_cores() {
    let script = example("ring64.ens");
    let params = BTreeMap::new();
    let total = count(&script, &params, "T") + count(&script, &params, "S");
    assert_eq!(total, 64, "the default size is 64 processes");
    let truth = largest_parameter(&script, &params).to_string();
    let r = run_script(&script, &[], Duration::from_secs(240));
    r.assert_ok("ring of 64");
    let printed = values_after(&r.stdout, "The maximum is ");
    assert_eq!(printed.len(), 32, "{}", dump(&r));
    assert!(printed.iter().all(|p| *p == truth), "{}", dump(&r));
    let servers = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Server ") && l.ends_with(&format!("is {truth}")))
        .count();
    assert_eq!(servers, 32, "{}", dump(&r));
}

#[test]
fn a_root_outside_its_group_is_refused_before_launch() {
    let r = run_script(&program("mpi-bad-root.ens"), &[], LIMIT);
    assert_eq!(r.code, Some(1), "{}", dump(&r));
    assert!(
        r.stderr.contains("T[2]") && r.stderr.contains("not in group"),
        "{}",
        dump(&r)
    );
    assert!(
        !r.stdout.contains("The maximum"),
        "nothing ran\n{}",
        dump(&r)
    );
}

#[test]
fn the_launch_line_carries_each_envelope() {
    let dir = components();
    let r = ensemble(
        "run",
        &example("getmax-mpi-servers.ens"),
        &["--path", &dir.display().to_string(), "--dry-run"],
        LIMIT,
    );
    r.assert_ok("dry run");
    let line = r.stdout.trim();
    assert_eq!(line.matches("-ens:begin").count(), 9, "{line}");
    assert_eq!(
        line.matches(" : ").count(),
        8,
        "one context per process\n{line}"
    );
    assert!(line.contains("-ens:groups Servers,TG1,TG2,TG3"), "{line}");
    assert!(line.contains("-ens:arg RingSize=3"), "{line}");
}
