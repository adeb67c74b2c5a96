//! Jobs across the hosts of a real cluster on this machine: three hosts made
//! by `scripts/cluster.sh up` (each its own hostname, network namespace on a
//! bridge, /dev/shm), Open MPI starting its daemons there through the
//! cluster's rsh agent and talking TCP over the bridge. Plain MPI, the
//! core's ordering stress with the same-node channels on, and TCGMSG with
//! NXTVAL and the GA C API (through `mpbridge run --cluster`, one
//! `ga-server` per host: one-sided calls, mirrored arrays with a copy per
//! host, ghost cells) each run across the hosts.
//! The cluster is taken down at the end, also when a check fails.
//! Skipped, with the reason printed, where the machine cannot have one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use tests::cluster::{
    cluster_dir, cluster_up, mpiexec_across, this_hostname, Seen, Watch, HOSTS, LIMIT,
};
use tests::mpirun::{mpi_env, run_with_timeout, stage, workspace_root, Run};
use tests::native::build;
use tests::tally::tallies_ok;

/// Each rank of an MPI job reports a different host of the cluster (none
/// of them this machine's own name), and a token passes around all of
/// them over TCP.
fn mpi_ranks_run_on_different_hosts() {
    let exe = build("cluster/mpi_hello.c", &[]);
    // MPI's own TCP transport (ob1 and the TCP BTL) between hosts.
    let r = mpiexec_across(
        HOSTS as u32,
        &exe,
        &[],
        &[],
        &["--mca", "pml", "ob1", "--mca", "btl", "self,vader,tcp"],
    );
    r.assert_ok("mpi_hello across hosts");
    let hosts: BTreeSet<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("rank ")?.split(" on ").nth(1))
        .collect();
    let want: BTreeSet<String> = (1..=HOSTS).map(|i| format!("host{i}")).collect();
    let want: BTreeSet<&str> = want.iter().map(String::as_str).collect();
    assert_eq!(hosts, want, "one rank per host:\n{}", r.stdout);
    assert!(
        !hosts.contains(this_hostname().as_str()),
        "a rank ran on this machine's own host name:\n{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!(
            "ring token {0}, expected {0}: ok",
            (1..=HOSTS).sum::<usize>()
        )),
        "{}",
        r.stdout
    );
}

/// The core's ordering stress on 4 ranks over 3 hosts with the same-node
/// channels on: host1 holds two ranks (that pair may use shared memory),
/// every other pair crosses hosts through MPI.
fn core_order_across_hosts() {
    let watch = Watch::start("core_order");
    let r = mpiexec_across(
        4,
        Path::new(env!("CARGO_BIN_EXE_core_order")),
        &["120"],
        &[("MPBRIDGE_SHM", "1")],
        &[],
    );
    let seen = watch.finish();
    r.assert_ok("core_order across hosts");
    let tallies = r.stdout.lines().filter(|l| l.contains(" passed, ")).count();
    assert_eq!(tallies, 4, "one tally per rank:\n{}", r.stdout);
    assert!(
        r.stdout
            .lines()
            .filter(|l| l.contains(" passed, "))
            .all(|l| l.ends_with(" 0 failed")),
        "{}",
        r.stdout
    );
    r.assert_stderr_lacks("same-node channels off", "the channels must stay on");
    // Where the ranks ran, and whose inboxes they mapped: the two ranks of
    // host1 each other's, the lone ranks of host2 and host3 nobody's.
    let mut by_host: BTreeMap<&str, Vec<(u32, &Seen)>> = BTreeMap::new();
    for (pid, s) in &seen {
        by_host.entry(s.host.as_str()).or_default().push((*pid, s));
    }
    let counts: Vec<(&str, usize)> = by_host.iter().map(|(h, v)| (*h, v.len())).collect();
    assert_eq!(
        counts,
        [("host1", 2), ("host2", 1), ("host3", 1)],
        "ranks per host: {seen:?}"
    );
    let pair: Vec<u32> = by_host["host1"].iter().map(|(p, _)| *p).collect();
    for (pid, s) in &by_host["host1"] {
        let other = if *pid == pair[0] { pair[1] } else { pair[0] };
        assert_eq!(
            s.inboxes_of,
            BTreeSet::from([other]),
            "rank {pid} on host1 talks to its host mate through shared memory: {seen:?}"
        );
    }
    for h in ["host2", "host3"] {
        let (pid, s) = by_host[h][0];
        assert!(
            s.inboxes_of.is_empty(),
            "rank {pid} on {h} mapped another host's inbox: {seen:?}"
        );
    }
}

/// `mpbridge run --cluster --ga-servers`: compute ranks and one data server
/// per host; NXTVAL hands out every value once across the hosts, and a
/// ring among the compute ranks works. Then the same program without a
/// server (NXTVAL on an MPI window on the last node, over UCX).
fn tcgmsg_nxtval_across_hosts() {
    let exe = build("tcgmsg/tcg_server.c", &["tcgmsg", "m"]);
    let mpbridge = stage().join("bin/mpbridge");
    assert!(mpbridge.is_file(), "{} is missing", mpbridge.display());

    // What --cluster adds: the cluster's hostfile and rsh agent, one
    // server per host.
    let mut cmd = Command::new(&mpbridge);
    cmd.args(["run", "--dry-run", "--cluster", "--ga-servers", "-n", "3"])
        .arg(&exe);
    let dry = run_with_timeout(cmd, LIMIT);
    dry.assert_ok("mpbridge run --cluster --dry-run");
    let line = dry.stdout.lines().last().unwrap_or("");
    let hostfile = cluster_dir().join("hostfile");
    assert!(
        line.contains(&format!("--hostfile {}", hostfile.display()))
            && line.contains("plm_rsh_agent")
            && line.contains("--map-by node")
            && line.ends_with(&format!(
                " -n {HOSTS} {}",
                stage().join("bin/ga-server").display()
            ))
            // The servers get the forwarded variables too.
            && line.contains(": -x ") && line.contains(" -x MPBRIDGE_PVM_HOSTS="),
        "{line}"
    );

    let watch = Watch::start("ga-server");
    let mut cmd = Command::new(&mpbridge);
    cmd.args(["run", "--cluster", "--ga-servers", "-n", "3"])
        .arg(&exe);
    mpi_env(&mut cmd);
    let r = run_with_timeout(cmd, LIMIT);
    let servers = watch.finish();
    r.assert_ok("tcg_server with a ga-server per host");
    tallies_ok(&r, "tcg_server", 3);
    let hosts: Vec<&str> = servers.values().map(|s| s.host.as_str()).collect();
    assert_eq!(hosts.len(), HOSTS, "servers: {servers:?}");
    assert_eq!(
        hosts.iter().collect::<BTreeSet<_>>().len(),
        HOSTS,
        "one server per host: {servers:?}"
    );

    // Without a server the counter is a word in an MPI window. Open MPI
    // 4.1 has no one-sided component for ob1 over TCP in a
    // MPI_THREAD_MULTIPLE process (pt2pt refuses the thread level, rdma
    // needs an RDMA network), so this run uses UCX's TCP transport over
    // the same bridge.
    let r = mpiexec_across(
        3,
        &exe,
        &[],
        &[],
        &[
            "--mca",
            "pml",
            "ucx",
            "--mca",
            "pml_ucx_tls",
            "any",
            "--mca",
            "pml_ucx_devices",
            "any",
            "--mca",
            "osc",
            "ucx",
        ],
    );
    r.assert_ok("tcg_server across hosts without a server");
    tallies_ok(&r, "tcg_server", 3);
}

/// The GA C API (`ga_basic`: put/get/acc on regular and irregular
/// distributions, read-increment, scatter/gather, non-blocking calls,
/// locks, collectives) with one compute rank and one `ga-server` on each
/// host, so every other owner's data goes through another host's server;
/// each server's request counters show requests from other hosts.
fn ga_across_hosts() {
    let exe = build("ga/ga_basic.c", &["ga"]);
    let mpbridge = stage().join("bin/mpbridge");
    let watch = Watch::start("ga-server");
    let mut cmd = Command::new(&mpbridge);
    cmd.args(["run", "--cluster", "--ga-servers", "-n", "3"])
        .arg(&exe)
        .env("MPBRIDGE_GA_SERVER_STATS", "1");
    mpi_env(&mut cmd);
    let r = run_with_timeout(cmd, LIMIT);
    let servers = watch.finish();
    r.assert_ok("ga_basic with a ga-server per host");
    // Every server did work for the other hosts' ranks: its counters say so.
    let mut remote_by_host: BTreeMap<String, u64> = BTreeMap::new();
    // Each report starts with "ga-server on "; reports are taken apart at
    // that text rather than at line ends, which output forwarding may move.
    for l in r.stderr.split("ga-server on ").skip(1) {
        let rest = l.lines().next().unwrap_or("");
        if !rest.contains(" requests, ") {
            continue;
        }
        let (host, counts) = rest.split_once(": ").unwrap_or((rest, ""));
        let remote = counts
            .split(", ")
            .find_map(|c| c.strip_suffix(" from other hosts"))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("counter line: {l}"));
        remote_by_host.insert(host.to_string(), remote);
    }
    assert_eq!(
        remote_by_host.keys().cloned().collect::<BTreeSet<_>>(),
        (1..=HOSTS)
            .map(|i| format!("host{i}"))
            .collect::<BTreeSet<_>>(),
        "one counter line per server:\n{}",
        r.stderr
    );
    assert!(
        remote_by_host.values().all(|&n| n > 0),
        "every server served other hosts: {remote_by_host:?}"
    );
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("ga_basic: "))
        .unwrap_or_else(|| panic!("no tally:\n{}\n{}", r.stdout, r.stderr));
    let passed: u32 = line
        .trim_start_matches("ga_basic: ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        line.ends_with(", 0 failed") && passed >= 60,
        "{line}\n{}",
        r.stderr
    );
    let hosts: BTreeSet<&str> = servers.values().map(|s| s.host.as_str()).collect();
    assert_eq!(
        (servers.len(), hosts.len()),
        (HOSTS, HOSTS),
        "one server per host: {servers:?}"
    );
}

/// Runs a GA test program (`ga/NAME.c`) with one compute rank and one
/// `ga-server` on each host; its own checks against its model must all
/// pass. Returns the job's run for further checks.
fn ga_program_across_hosts(name: &str) -> Run {
    let exe = build(&format!("ga/{name}.c"), &["ga"]);
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.args(["run", "--cluster", "--ga-servers", "-n", "3"])
        .arg(&exe);
    mpi_env(&mut cmd);
    let r = run_with_timeout(cmd, LIMIT);
    r.assert_ok(&format!("{name} with a ga-server per host"));
    tallies_ok(&r, name, 1);
    r
}

/// Mirrored arrays keep one copy per node: across three hosts
/// `GA_Cluster_nnodes` is 3 and a merge adds three copies (the model
/// value 1.0 of the first element becomes 3.0). Ghost cells and periodic
/// transfers across hosts match the program's serial model.
fn ga_mirrors_and_ghosts_across_hosts() {
    let r = ga_program_across_hosts("ga_mirror");
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("merged into D: 3.0 ")),
        "a merge of the three hosts' copies:\n{}",
        r.stdout
    );
    ga_program_across_hosts("ga_ghosts");
}

#[test]
fn jobs_across_three_hosts() {
    let Some(_cluster) = cluster_up("cluster_hosts", HOSTS, &[]) else {
        return;
    };
    mpi_ranks_run_on_different_hosts();
    core_order_across_hosts();
    tcgmsg_nxtval_across_hosts();
    ga_across_hosts();
    ga_mirrors_and_ghosts_across_hosts();
}

/// `mpbridge run --cluster` without a cluster, or with a hostfile of its
/// own, refuses with a message that says what to do, and starts nothing.
#[test]
fn run_cluster_refuses_without_a_cluster_or_with_a_hostfile() {
    let mpbridge = stage().join("bin/mpbridge");
    let empty = workspace_root().join("target/test-scratch/no-cluster");
    let _ = std::fs::remove_dir_all(&empty);
    let mut cmd = Command::new(&mpbridge);
    cmd.args(["run", "--cluster", "-n", "1", "/bin/true"])
        .env("MPBRIDGE_CLUSTER_DIR", &empty);
    let r = run_with_timeout(cmd, LIMIT);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("no cluster is up") && r.stderr.contains("cluster.sh up"),
        "{}",
        r.stderr
    );

    let mut cmd = Command::new(&mpbridge);
    cmd.args([
        "run",
        "--cluster",
        "--hostfile",
        "/etc/hostname",
        "/bin/true",
    ]);
    let r = run_with_timeout(cmd, LIMIT);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("drop --hostfile"), "{}", r.stderr);
}
