//! Ensemble compositions on the MPI loader: the same terminal executable in
//! the all-terminals (SPMD) and terminal-servers (MPMD) compositions, a
//! 64-process parametric ring on 2 cores, and a binding the loader refuses.

mod ensemble_common;

use ensemble_common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use tests::mpirun::{lines_where, Run};

const LIMIT: Duration = Duration::from_secs(120);

/// Runs the example composition `name` and checks that its six terminals
/// each print the largest of the script's parameters; returns the run and
/// that largest value.
fn six_terminals_print_the_maximum(name: &str) -> (tests::mpirun::Run, String) {
    let script = example(name);
    let truth = largest_parameter(&script, &BTreeMap::new()).to_string();
    let r = run_script(&script, &[], LIMIT);
    r.assert_ok(name);
    maxima_ok(&r, 6, &truth);
    (r, truth)
}

#[test]
fn six_terminals_in_one_group_terminal_one_the_root() {
    six_terminals_print_the_maximum("getmax-mpi-all.ens");
}

#[test]
fn ensemble_debug_logs_show_each_component_set_up_with_its_contexts() {
    let script = example("getmax-mpi-all.ens");
    let dir = components();
    let (d, hosts) = (
        dir.display().to_string(),
        dir.join("hosts").display().to_string(),
    );
    let r = ensemble_env(
        "run",
        &script,
        &["--path", &d, "--hostmap", &hosts],
        &[("MPBRIDGE_LOG", "ensemble=debug")],
        LIMIT,
    );
    r.assert_ok("getmax-mpi-all.ens with MPBRIDGE_LOG=ensemble=debug");
    let set_up = lines_where(&r.stderr, |l| {
        l.starts_with("[rank ") && l.contains(" ensemble: component ") && l.contains(" set up")
    });
    assert_eq!(set_up.len(), 6, "one line per component:\n{}", dump(&r));
    for rank in 0..6 {
        let tag = format!("[rank {rank}] ");
        assert!(
            set_up.iter().any(|l| l.starts_with(&tag)),
            "rank {rank} logs its set-up:\n{}",
            dump(&r)
        );
    }
}

#[test]
fn terminal_groups_served_by_a_ring_of_servers() {
    let (r, truth) = six_terminals_print_the_maximum("getmax-mpi-servers.ens");
    let servers = lines_where(&r.stdout, |l| l.starts_with("Server "));
    assert_eq!(servers.len(), 3, "{}", dump(&r));
    let answer = format!("the maximum is {truth}");
    assert!(servers.iter().all(|l| l.ends_with(&answer)), "{}", dump(&r));
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
    maxima_ok(&r, 32, &truth);
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
    refused(&r, &["T[2]", "not in group"]);
    r.assert_stdout_lacks("The maximum", "nothing ran");
}

#[test]
fn the_launch_line_carries_each_envelope() {
    let r = run_from(
        components(),
        &example("getmax-mpi-servers.ens"),
        &["--dry-run"],
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

/// The terminal-servers composition with weights (servers 4, terminals 1)
/// and no allocation, written beside the components, and a virtual
/// machine file in the form `mpbridge recon` writes.
fn weighted_servers(machine: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = components();
    let src = std::fs::read_to_string(example("getmax-mpi-servers.ens")).expect("read the example");
    let src = src.replace(
        "Arguments\nS[1..3].RingSize = 3;",
        "Arguments\nS[1..3].RingSize = 3;\nWeights\nS[1..3]: 4; T[1..6]: 1;",
    );
    assert!(src.contains("Weights"), "the example changed: {src}");
    // One script per machine: the tests that use them run side by side.
    let script = dir.join(format!("getmax-weighted-{}.ens", machine.len()));
    std::fs::write(&script, src).expect("write the weighted script");
    let vpm = dir.join(format!("weighted-{}.vpm", machine.len()));
    std::fs::write(&vpm, machine).expect("write the machine file");
    (script, vpm)
}

/// `ensemble run --dry-run` of `script` with the installed components on
/// the machine file `vpm`.
fn dry_run_on(script: &Path, vpm: &Path) -> Run {
    let v = vpm.display().to_string();
    run_from(components(), script, &["--machine", &v, "--dry-run"], LIMIT)
}

#[test]
fn weights_place_the_servers_on_the_fast_host() {
    let (script, vpm) = weighted_servers(
        "# mpbridge virtual parallel machine\n\
         host host1 speed 1.0000 scalability 1 slots 3\n\
         host host2 speed 4.0000 scalability 1 slots 6\nrate 1.0e0\n",
    );
    let r = dry_run_on(&script, &vpm);
    r.assert_ok("weighted dry run");
    let placed = |label: &str| {
        r.stdout
            .lines()
            .find(|l| l.starts_with("#") && l.contains(&format!(" {label} ")))
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or_else(|| panic!("no placement line for {label}\n{}", dump(&r)))
            .to_string()
    };
    // Heaviest first: the three servers fill the fast host's time, the
    // first three terminals go to the slow host, the rest to the fast one.
    for s in ["S[1]", "S[2]", "S[3]", "T[4]", "T[5]", "T[6]"] {
        assert_eq!(placed(s), "host2", "{s}\n{}", dump(&r));
    }
    for t in ["T[1]", "T[2]", "T[3]"] {
        assert_eq!(placed(t), "host1", "{t}\n{}", dump(&r));
    }
    assert!(r.stdout.contains("estimated 3.7500 s"), "{}", dump(&r));
    // The launch line starts each process on its host, in process order
    // (T[1..6], then S[1..3]).
    let line = r.stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = line.split_whitespace().collect();
    let hosts: Vec<&str> = words
        .windows(2)
        .filter(|w| w[0] == "-host")
        .map(|w| w[1])
        .collect();
    let mut want = vec!["host1"; 3];
    want.extend(["host2"; 6]);
    assert_eq!(hosts, want, "{line}");
}

#[test]
fn without_a_machine_or_with_too_few_slots() {
    let (script, vpm) = weighted_servers("host host1 slots 4\nhost host2 slots 4\n");
    let r = run_from(components(), &script, &["--dry-run"], LIMIT);
    r.assert_ok("dry run without a machine");
    assert!(
        !r.stdout.contains("# placed") && !r.stdout.contains("-host"),
        "{}",
        dump(&r)
    );
    refused(&dry_run_on(&script, &vpm), &["9 processes", "8 slots"]);
}

#[test]
fn a_composition_placed_by_weight_runs() {
    let (script, vpm) = weighted_servers("host localhost speed 2 slots 9\n");
    let truth = largest_parameter(&script, &BTreeMap::new()).to_string();
    let v = vpm.display().to_string();
    let r = run_script(&script, &["--machine", &v], LIMIT);
    r.assert_ok("weighted servers");
    assert!(r.stderr.contains("# placed by weight"), "{}", dump(&r));
    maxima_ok(&r, 6, &truth);
}
