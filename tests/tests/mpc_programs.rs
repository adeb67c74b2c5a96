//! The mpC-style run-time from C (`tests/programs/mpc/mpc_nets.c`, built
//! against the installed `mpc.h` and `-lmpbridge`) on 4 processes: host,
//! two free processes and the dispatcher. Networks and subnetworks with
//! their descriptors, HeteroMPI-style groups (with a virtual machine file
//! that gives this machine 2 processors, so the automatic group size is
//! known), and a deadlock the dispatcher ends with `MPC_Abort`.

use std::path::PathBuf;
use std::time::Duration;
use tests::mpirun::{mpiexec_env, workspace_root, Run};
use tests::native::build;
use tests::tally;

const LIMIT: Duration = Duration::from_secs(120);

fn program() -> PathBuf {
    build("mpc/mpc_nets.c", &["mpbridge"])
}

/// Ranks 0 to `ranks - 1` (the program's; the dispatcher is the last rank
/// and never returns to it) each passed their checks.
fn tallies_pass(r: &Run, ranks: usize) {
    r.assert_ok("mpc_nets");
    tally::ranks_ok(r, "mpc_nets", ranks);
    assert!(
        !r.stdout.contains("mpc_nets rank 3:"),
        "the dispatcher returned to the program:\n{}",
        r.stdout
    );
}

/// A machine file naming this host with 2 processors.
fn two_cpu_machine() -> PathBuf {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").expect("hostname");
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("target/test-programs");
    let file = dir.join("mpc-two-cpus.vpm");
    std::fs::write(
        &file,
        format!("host {} speed 1 scalability 2 slots 4\n", host.trim()),
    )
    .expect("write machine file");
    file
}

#[test]
fn networks_subnetworks_and_descriptors() {
    let r = mpiexec_env(4, &program(), &["mpc"], &[], LIMIT);
    tallies_pass(&r, 3);
}

#[test]
fn mpc_debug_logs_show_the_start_and_each_network_placement_with_the_rank() {
    let r = mpiexec_env(
        4,
        &program(),
        &["mpc"],
        &[("MPBRIDGE_LOG", "mpc=debug")],
        LIMIT,
    );
    tallies_pass(&r, 3);
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("[rank ") && l.contains(" mpc: "))
        .collect();
    for rank in 0..4 {
        let who = format!("[rank {rank} t");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&who) && l.contains("MPC run-time started")),
            "rank {rank} logs its start:\n{}",
            r.stderr
        );
    }
    // The dispatcher (rank 3) says where each network went.
    assert!(
        lines.iter().any(|l| l.starts_with("[rank 3 t")
            && l.contains("network ")
            && l.contains("on hosts")),
        "the dispatcher logs a placement:\n{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains(" core: "),
        "core lines are filtered out:\n{}",
        r.stderr
    );
}

#[test]
fn heterompi_groups_fixed_and_automatic_size() {
    let vpm = two_cpu_machine();
    let vpm = vpm.to_str().expect("utf-8 path");
    let r = mpiexec_env(4, &program(), &["hmpi"], &[("MPBRIDGE_VPM", vpm)], LIMIT);
    tallies_pass(&r, 3);
    // The automatic group holds the host and exactly one free process.
    let members: u32 = (0..3)
        .map(|k| {
            let head = format!("mpc_nets member rank {k}: ");
            let line = r
                .stdout
                .lines()
                .find(|l| l.starts_with(&head))
                .expect("member line");
            line[head.len()..].trim().parse::<u32>().expect("0 or 1")
        })
        .sum();
    assert_eq!(members, 2, "{}", r.stdout);
    r.assert_stdout_has("mpc_nets member rank 0: 1");
}

#[test]
fn a_request_that_can_never_be_served_ends_the_job_with_a_message() {
    let r = mpiexec_env(4, &program(), &["deadlock"], &[], Duration::from_secs(60));
    assert!(!r.timed_out, "the deadlock hung:\n{}", r.stderr);
    assert_ne!(r.code, Some(0), "the job ended well:\n{}", r.stdout);
    assert!(
        r.stderr.contains("MPC_Abort(1)") && r.stderr.contains("deadlock"),
        "no deadlock message:\n{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("process 0 needs 2 free processes")
            && r.stderr.contains("process 1 needs 2 free processes")
            && r.stderr.contains("1 free"),
        "the message does not say who waits for what:\n{}",
        r.stderr
    );
}

#[test]
fn a_bad_machine_file_is_reported() {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("mpc-bad.vpm");
    std::fs::write(&file, "host a speed fast\n").expect("write");
    let r = mpiexec_env(
        4,
        &program(),
        &["mpc"],
        &[("MPBRIDGE_VPM", file.to_str().expect("utf-8"))],
        Duration::from_secs(60),
    );
    assert!(!r.timed_out && r.code != Some(0), "{}", r.stderr);
    r.assert_stderr_has("line 1")
        .assert_stderr_has("speed 'fast'");
}

#[test]
fn processes_waiting_in_mpi_sleep_instead_of_spinning() {
    // The host comes 1.2 s late to a barrier; the two members waiting in
    // it must use under half the share of a processor a spinning process
    // gets (each measures that share first; without the naps a waiting
    // process takes about all of it).
    let r = mpiexec_env(4, &program(), &["patience"], &[], LIMIT);
    tallies_pass(&r, 3);
}
