//! Host failure on a real cluster on this machine (three hosts made by
//! `scripts/cluster.sh up`): a host drops off the network in the middle of
//! a job (`cluster.sh unplug`), which Open MPI does not notice by itself.
//! - A PVM master that asked for `pvm_notify(PvmHostDelete)` and
//!   `PvmTaskExit` gets both notices and finishes; `mpbridge run` says which
//!   host went down and ends the job after its grace time.
//! - A GA job whose third `ga-server` host goes ends within 30 s with a
//!   message that names the host.
//! - An Ensemble composition started by `mpbridge ensemble run --cluster`
//!   (two processes that sleep, on host1 and host3 by its allocation
//!   section and `--hostmap`) ends within 30 s of host3 going, with a
//!   message that names the host.
//!
//! The cluster is made afresh for each case and taken down at the end, also
//! when a check fails; skipped, with the reason printed, where the machine
//! cannot have one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tests::cluster::{cluster_host_of, cluster_up, processes_named, script, HOSTS, LIMIT};
use tests::mpirun::{mpi_env, run_with_timeout, stage, Run};
use tests::native::build;

/// Starts `mpbridge run --cluster ARGS` in a thread.
fn start_job(args: Vec<String>) -> std::thread::JoinHandle<Run> {
    std::thread::spawn(move || {
        let mut cmd = Command::new(stage().join("bin/mpbridge"));
        cmd.args(["run", "--cluster"]).args(&args);
        mpi_env(&mut cmd);
        run_with_timeout(cmd, LIMIT)
    })
}

/// Waits (40 s at most) until `count` processes named `comm` run on the
/// hosts in `on` (each at least one).
fn wait_for_processes(comm: &str, on: &[&str]) {
    let until = Instant::now() + Duration::from_secs(40);
    loop {
        let hosts: Vec<String> = processes_named(comm)
            .into_iter()
            .filter_map(cluster_host_of)
            .collect();
        if on.iter().all(|h| hosts.iter().any(|x| x == h)) {
            return;
        }
        assert!(
            Instant::now() < until,
            "no {comm} on every host of {on:?} (seen on {hosts:?})"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A fresh path for a program's "ready" file (in /tmp, which every host
/// of the cluster shares).
fn marker(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("cluster-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Waits (40 s at most) for the program to create `file`.
fn wait_for_file(file: &Path) {
    let until = Instant::now() + Duration::from_secs(40);
    while !file.exists() {
        assert!(Instant::now() < until, "{} never came", file.display());
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_file(file);
}

/// Takes `host`'s network link down; returns when.
fn unplug(host: &str) -> Instant {
    let mut unplug = Command::new("bash");
    unplug.arg(script()).args(["unplug", host]);
    tests::mpirun::stdout_of(&mut unplug, &format!("cluster.sh unplug {host}"));
    Instant::now()
}

fn pvm_master_hears_that_its_host_went() {
    let exe: PathBuf = build("cluster/pvm_host_down.c", &["pvm3"]);
    let ready = marker("pvm");
    let job = start_job(vec![
        "-n".into(),
        "1".into(),
        exe.display().to_string(),
        "host3".into(),
        ready.display().to_string(),
    ]);
    wait_for_processes("pvm_host_down", &["host1", "host3"]);
    // The master has its child on host3 and asked for its notices.
    wait_for_file(&ready);
    let at = unplug("host3");
    let r = job.join().expect("job thread");
    let took = at.elapsed();
    assert!(!r.timed_out, "the job hung:\n{}\n{}", r.stdout, r.stderr);
    r.assert_stdout_has("pvm_host_down: ready");
    let tally = r
        .stdout
        .lines()
        .find(|l| l.starts_with("pvm_host_down: ") && l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no tally:\n{}\n{}", r.stdout, r.stderr));
    assert!(tally.ends_with(" 0 failed"), "{tally}\n{}", r.stderr);
    assert!(
        r.stderr
            .contains("mpbridge run: host host3 is down (its network link is down)"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.code,
        Some(1),
        "a job ended for a lost host fails:\n{}",
        r.stderr
    );
    assert!(
        took < Duration::from_secs(30),
        "ended {took:?} after the host went"
    );
}

fn ga_job_ends_when_a_server_host_goes() {
    let exe = build("cluster/ga_steady.c", &["ga"]);
    let ready = marker("ga");
    let job = start_job(vec![
        "--ga-servers".into(),
        "-n".into(),
        "3".into(),
        exe.display().to_string(),
        "120".into(),
        ready.display().to_string(),
    ]);
    wait_for_processes("ga_steady", &["host1", "host2", "host3"]);
    wait_for_processes("ga-server", &["host1", "host2", "host3"]);
    // Every rank has read the others' blocks through their servers.
    wait_for_file(&ready);
    let at = unplug("host3");
    let r = job.join().expect("job thread");
    let took = at.elapsed();
    assert!(!r.timed_out, "the GA job hung:\n{}\n{}", r.stdout, r.stderr);
    assert!(
        took < Duration::from_secs(30),
        "ended {took:?} after the host went"
    );
    r.assert_stdout_has("ga_steady: running");
    assert!(
        r.stderr
            .contains("mpbridge run: host host3 is down (its network link is down)")
            && r.stderr.contains("ending the job: host host3 is down"),
        "{}",
        r.stderr
    );
    assert_ne!(r.code, Some(0), "{}", r.stderr);
}

fn ensemble_job_ends_when_a_host_goes() {
    let script =
        tests::mpirun::workspace_root().join("tests/programs/ensemble/sleepers-two-hosts.ens");
    let map = marker("hostmap");
    std::fs::write(&map, "first host1\nsecond host3\n").expect("write the host map");
    let map_arg = map.display().to_string();
    let job = std::thread::spawn(move || {
        let mut cmd = Command::new(stage().join("bin/mpbridge"));
        cmd.args(["ensemble", "run", "--cluster", "--hostmap", &map_arg])
            .arg(script);
        mpi_env(&mut cmd);
        run_with_timeout(cmd, LIMIT)
    });
    wait_for_processes("sleep", &["host1", "host3"]);
    let at = unplug("host3");
    let r = job.join().expect("job thread");
    let took = at.elapsed();
    let _ = std::fs::remove_file(&map);
    assert!(
        !r.timed_out,
        "the Ensemble job hung:\n{}\n{}",
        r.stdout, r.stderr
    );
    assert!(
        took < Duration::from_secs(30),
        "ended {took:?} after the host went"
    );
    assert!(
        r.stderr
            .contains("mpbridge ensemble run: host host3 is down (its network link is down)")
            && r.stderr
                .contains("mpbridge ensemble run: ending the job: host host3 is down"),
        "{}",
        r.stderr
    );
    assert_ne!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn jobs_notice_a_host_that_goes_down() {
    let Some(cluster) = cluster_up("cluster_faults", HOSTS, &[]) else {
        return;
    };
    pvm_master_hears_that_its_host_went();
    drop(cluster);
    let Some(cluster) = cluster_up("cluster_faults", HOSTS, &[]) else {
        return;
    };
    ga_job_ends_when_a_server_host_goes();
    drop(cluster);
    let Some(_cluster) = cluster_up("cluster_faults", HOSTS, &[]) else {
        return;
    };
    ensemble_job_ends_when_a_host_goes();
}
