//! PVM on a real cluster on this machine: three hosts of different speeds
//! (the mpC paper's 1150, 331, 1662) made by `scripts/cluster.sh up`, jobs
//! started by `mpbridge run --cluster`.
//! - `pvm_hosts`: pvm_config lists the cluster's hosts with their names and
//!   speeds; PvmTaskHost spawns land on the named host (its hostname and
//!   pvm_tidtohost say so); default spawns are dealt over the hosts;
//!   pvm_addhosts/pvm_delhosts and PvmHostDelete notices.
//! - `pvm_remote_events`: deaths of tasks on other hosts reach the
//!   master's PvmTaskExit notices; pvm_delhosts and pvm_addhosts reach a
//!   task on another host (its pvm_config, PvmHostDelete, PvmHostAdd).
//! - Debian's prebuilt `master1`/`slave1` and `gexample`, unchanged, with
//!   their spawned tasks on every host.
//! - The published Ensemble composition `getmax-full.ens` with its
//!   allocation section (four hosts of its authors) mapped onto the
//!   cluster's hosts by `--hostmap`: every process runs where the map puts
//!   it.
//!
//! The cluster is taken down at the end, also when a check fails; skipped,
//! with the reason printed, where the machine cannot have one.

mod ensemble_common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use tests::cluster::{cluster_up, Watch, HOSTS, LIMIT};
use tests::mpirun::{lines_where, mpi_env, run_with_timeout, stage, Run};
use tests::native::build;
use tests::tally::tallies_ok;

const SPEEDS: [u32; HOSTS] = [1150, 331, 1662];

/// `mpbridge run --cluster -n 1 PROG ARGS`, with `input` on its stdin.
fn run_on_cluster(prog: &Path, args: &[&str], input: Option<&str>) -> Run {
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.args(["run", "--cluster", "-n", "1"])
        .arg(prog)
        .args(args);
    // Debian's examples spawn their partners by name.
    cmd.env(
        "PATH",
        format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default()),
    );
    mpi_env(&mut cmd);
    let file = input.map(|text| {
        let f = std::env::temp_dir().join(format!("cluster-pvm-input-{}", std::process::id()));
        std::fs::write(&f, text).expect("write input");
        cmd.stdin(std::fs::File::open(&f).expect("input"));
        f
    });
    let r = run_with_timeout(cmd, LIMIT);
    if let Some(f) = file {
        let _ = std::fs::remove_file(f);
    }
    r
}

/// The hosts the processes named `comm` ran on.
fn hosts_of(seen: &std::collections::BTreeMap<u32, tests::cluster::Seen>) -> BTreeSet<String> {
    seen.values().map(|s| s.host.clone()).collect()
}

fn all_hosts() -> BTreeSet<String> {
    (1..=HOSTS).map(|i| format!("host{i}")).collect()
}

fn pvm_machine_on_the_cluster() {
    let exe = build("cluster/pvm_hosts.c", &["pvm3"]);
    let want: Vec<String> = SPEEDS
        .iter()
        .enumerate()
        .map(|(i, s)| format!("host{}:{s}", i + 1))
        .collect();
    let r = run_on_cluster(&exe, &[&want.join(",")], None);
    r.assert_ok("pvm_hosts on the cluster");
    tallies_ok(&r, "pvm_hosts", 1);
}

/// Debian's `master1` reads the machine with pvm_config and spawns
/// 3 x nhost `slave1` tasks, which exchange messages among themselves;
/// here they run on all three hosts.
fn master1_spreads_its_slaves() {
    let watch = Watch::start("slave1");
    let r = run_on_cluster(Path::new("/usr/bin/master1"), &[], None);
    let seen = watch.finish();
    r.assert_ok("master1 on the cluster");
    r.assert_stdout_has("SUCCESSFUL");
    let got = lines_where(&r.stdout, |l| l.starts_with("I got"));
    assert!(!got.is_empty(), "slave answers:\n{}", r.stdout);
    for l in got {
        let nums: Vec<&str> = l.split([' ', ')']).filter(|w| w.contains('.')).collect();
        assert!(nums.len() == 2 && nums[0] == nums[1], "wrong result: {l}");
    }
    assert_eq!(seen.len(), 3 * HOSTS, "3 x nhost slaves: {seen:?}");
    assert_eq!(
        hosts_of(&seen),
        all_hosts(),
        "slaves on every host: {seen:?}"
    );
}

/// Debian's `gexample` started alone spawns the rest of its group
/// (the number it reads), which spreads over the hosts, and reduces.
fn gexample_on_every_host() {
    let watch = Watch::start("gexample");
    let r = run_on_cluster(Path::new("/usr/bin/gexample"), &[], Some("100 5\n"));
    let seen = watch.finish();
    r.assert_ok("gexample on the cluster");
    for needle in ["Using 5 processors", "The 1-Norm is 5050", "9.33262e+157"] {
        r.assert_stdout_has(needle);
    }
    assert_eq!(
        hosts_of(&seen),
        all_hosts(),
        "members on every host: {seen:?}"
    );
}

/// How many of the watched processes ran on each host.
fn per_host(seen: &BTreeMap<u32, tests::cluster::Seen>) -> BTreeMap<String, usize> {
    let mut n = BTreeMap::new();
    for s in seen.values() {
        *n.entry(s.host.clone()).or_insert(0) += 1;
    }
    n
}

/// `getmax-full.ens` places R[1], T[1..3] at orion, R[2], T[4..5] at zeus,
/// R[3], T[6..7] at iamini and R[4], T[8] at adonis; the map sends orion
/// and adonis to host1, zeus to host2, iamini to host3.
fn ensemble_allocation_on_the_hosts() {
    let dir = ensemble_common::components();
    let map = dir.join("cluster-hosts");
    std::fs::write(
        &map,
        "orion host1\nzeus host2\niamini host3\nadonis host1\n",
    )
    .expect("write the host map");
    let relays = Watch::start("relay");
    let terminals = Watch::start("terminal");
    let r = ensemble_common::ensemble(
        "run",
        &ensemble_common::example("published/getmax-full.ens"),
        &[
            "--cluster",
            "--path",
            &dir.display().to_string(),
            "--hostmap",
            &map.display().to_string(),
        ],
        LIMIT,
    );
    let relays = relays.finish();
    let terminals = terminals.finish();
    r.assert_ok("getmax-full.ens on the cluster");
    let got = ensemble_common::values_after(&r.stdout, "The maximum tid is ");
    assert_eq!(got.len(), 8, "{}\n{}", r.stdout, r.stderr);
    assert!(got.iter().all(|g| *g == got[0]), "{}", r.stdout);
    let want = |pairs: &[(&str, usize)]| -> BTreeMap<String, usize> {
        pairs.iter().map(|(h, n)| (h.to_string(), *n)).collect()
    };
    assert_eq!(
        per_host(&relays),
        want(&[("host1", 2), ("host2", 1), ("host3", 1)]),
        "relays: {relays:?}"
    );
    assert_eq!(
        per_host(&terminals),
        want(&[("host1", 4), ("host2", 2), ("host3", 2)]),
        "terminals: {terminals:?}"
    );
}

/// Events that cross hosts (`pvm_remote_events`): children on two other
/// hosts killed without pvm_exit are reported to the master's
/// pvm_notify(PvmTaskExit) within 3 s; a host the master deletes leaves
/// the pvm_config of a task on another host, whose PvmHostDelete notice
/// comes; adding it back gives the master's and that task's PvmHostAdd
/// notices.
fn pvm_events_across_hosts() {
    let exe = build("cluster/pvm_remote_events.c", &["pvm3"]);
    let r = run_on_cluster(&exe, &[], None);
    r.assert_ok("pvm_remote_events on the cluster");
    r.assert_stdout_has("pvm_remote_events: remote exits heard");
    tallies_ok(&r, "pvm_remote_events", 1);
}

#[test]
fn pvm_across_three_hosts_of_different_speeds() {
    let speeds = SPEEDS.map(|s| s.to_string()).join(",");
    let Some(_cluster) = cluster_up("cluster_pvm", HOSTS, &["--speeds", &speeds]) else {
        return;
    };
    pvm_machine_on_the_cluster();
    pvm_events_across_hosts();
    master1_spreads_its_slaves();
    gexample_on_every_host();
    ensemble_allocation_on_the_hosts();
}
