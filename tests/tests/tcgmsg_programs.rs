//! The TCGMSG layer: the project's C and Fortran programs
//! (`tests/programs/tcgmsg/`), built against the installed `tcgmsg.h`,
//! `sndrcv.h`, `tcgmsg.fh` and `-ltcgmsg`, run under `mpiexec` on 1 to 4
//! ranks with a hard timeout.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{
    ga_server, mpi_env, mpiexec, mpiexec_beside_server, mpiexec_env, one_line_has,
    run_with_timeout, workspace_root, Run,
};
use tests::native::{build, build_with, INTEGER_8};
use tests::tally;

const LIMIT: Duration = Duration::from_secs(90);

/// Asserts one `NAME node K: P passed, 0 failed` line per node, and that
/// `PEND` never returned.
fn tallies_ok(r: &Run, name: &str, nodes: usize) {
    tally::tallies_ok(r, name, nodes);
    assert!(
        !r.stdout.contains("not reached"),
        "PEND returned:\n{}",
        r.stdout
    );
}

/// Builds a Fortran program with 8-byte `INTEGER` (as Debian's GA and
/// TCGMSG are built).
fn fortran_program(file: &str) -> PathBuf {
    build_with(&format!("tcgmsg/{file}"), &["tcgmsg"], INTEGER_8)
}

fn c_program(name: &str) -> PathBuf {
    build(&format!("tcgmsg/{name}.c"), &["tcgmsg", "m"])
}

/// A scratch directory of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let d = workspace_root().join("target/test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create scratch directory");
    d
}

#[test]
fn basic_semantics_on_one_to_four_nodes() {
    let exe = c_program("tcg_basic");
    for n in 1..=4 {
        let dir = scratch(&format!("tcg_basic_{n}"));
        let r = mpiexec(n, &exe, &[dir.to_str().expect("utf-8 path")], LIMIT);
        r.assert_ok("tcg_basic");
        tallies_ok(&r, "tcg_basic", n as usize);
        for k in 0..n {
            r.assert_stdout_has(&format!("hello from node {k} of {n}"));
        }
    }
}

#[test]
fn stress_random_pairs_and_lengths() {
    let exe = c_program("tcg_stress");
    for (n, steps) in [(2, "600"), (3, "600"), (4, "800")] {
        let r = mpiexec(n, &exe, &[steps], LIMIT);
        r.assert_ok("tcg_stress");
        tallies_ok(&r, "tcg_stress", n as usize);
    }
}

#[test]
fn global_sums_are_right_and_the_same_on_every_node() {
    let exe = c_program("tcg_sums");
    for n in 1..=4 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        r.assert_ok("tcg_sums");
        tallies_ok(&r, "tcg_sums", n as usize);
    }
}

/// On one node the global sums go through the core's shared region, and
/// through MPI with the channels off (`MPBRIDGE_SHM=0`); both give the
/// same checked results.
#[test]
fn global_sums_take_the_same_node_path_unless_the_channels_are_off() {
    let exe = c_program("tcg_sums");
    let region = "go through a shared region";
    for (shm, used) in [("1", true), ("0", false)] {
        let env = [("MPBRIDGE_LOG", "core=debug"), ("MPBRIDGE_SHM", shm)];
        let r = mpiexec_env(3, &exe, &["300"], &env, LIMIT);
        r.assert_ok("tcg_sums");
        tallies_ok(&r, "tcg_sums", 3);
        let lines = r.stderr.lines().filter(|l| l.contains(region)).count();
        assert_eq!(
            lines,
            if used { 3 } else { 0 },
            "MPBRIDGE_SHM={shm}: one line per node saying the region is used, or none\n{}",
            r.stderr
        );
    }
}

#[test]
fn pbegin_after_the_program_started_mpi() {
    let exe = build("tcgmsg/tcg_user_init.c", &["tcgmsg"]);
    tally::passes_on(&exe, &[1, 3], "tcg_user_init", LIMIT, tallies_ok);
}

/// Runs `tcg_errors MODE` on `n` nodes; the job must end non-zero (not by
/// the timeout) and print `line` (on stdout and stderr, as TCGMSG does).
fn fails_with(n: u32, mode: &str, line: &str, status: i32) {
    let exe = c_program("tcg_errors");
    let r = mpiexec(n, &exe, &[mode], LIMIT);
    assert!(!r.timed_out, "{mode}: hung\n{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.code,
        Some(status),
        "{mode}: exit status\n{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(
        r.stdout.contains(line) && r.stderr.contains(line),
        "{mode}: expected {line:?}\n--- stdout\n{}\n--- stderr\n{}",
        r.stdout,
        r.stderr
    );
    assert!(!r.stdout.contains("not reached"), "{}", r.stdout);
}

#[test]
fn error_prints_the_node_and_ends_the_job() {
    fails_with(3, "error", "1: deliberate failure 42 (0x2a).", 42);
    fails_with(1, "error", "0: deliberate failure 42 (0x2a).", 42);
    fails_with(2, "parerr", "1: User detected error in FORTRAN 7 (0x7).", 7);
}

#[test]
fn too_long_message_is_an_error_not_a_truncation() {
    fails_with(
        2,
        "toolong",
        "1: rcv: message of type 5 from node 0 has 100 bytes, more than the receive buffer of 10 bytes",
        100,
    );
}

#[test]
fn second_pbegin_bad_node_and_bad_operation_are_errors() {
    fails_with(2, "twice", "TCGMSG initialized already???", 255);
    fails_with(
        2,
        "badnode",
        "0: SND: destination node 2 is not a node (0..1)",
        2,
    );
    fails_with(2, "badop", "IGOP: unknown operation 'sum'", 1);
}

#[test]
fn llog_sends_each_nodes_output_to_its_log_file() {
    let exe = c_program("tcg_llog");
    let dir = scratch("tcg_llog");
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-n", "2"]).arg(&exe).current_dir(&dir);
    mpi_env(&mut cmd);
    let r = run_with_timeout(cmd, LIMIT);
    r.assert_ok("tcg_llog");
    for k in 0..2 {
        assert!(r.stdout.contains(&format!("before llog from node {k}")));
        assert!(!r.stdout.contains(&format!("logged stdout from node {k}")));
        let log = std::fs::read_to_string(dir.join(format!("log.{k:03}")))
            .unwrap_or_else(|e| panic!("log.{k:03}: {e}"));
        assert!(
            log.contains(&format!("logged stdout from node {k}")),
            "{log}"
        );
        assert!(
            log.contains(&format!("logged stderr from node {k}")),
            "{log}"
        );
    }
}

#[test]
fn fortran_ring_gops_and_broadcast() {
    let exe = fortran_program("tcgf_basic.f90");
    tally::passes_on(&exe, &[1, 2, 4], "tcgf_basic", LIMIT, tallies_ok);
}

/// The headers in fixed form, asynchronous messages with `waitcom`,
/// `probe`, and `pfcopy` with a blank-padded file name.
#[test]
fn fortran_fixed_form_async_probe_and_pfcopy() {
    let exe = fortran_program("tcgf_fixed.f");
    for n in [1, 3] {
        let dir = scratch(&format!("tcgf_fixed_{n}"));
        let r = mpiexec(n, &exe, &[dir.to_str().expect("utf-8 path")], LIMIT);
        r.assert_ok("tcgf_fixed");
        tallies_ok(&r, "tcgf_fixed", n as usize);
    }
}

/// Compute ranks beside a `ga-server` rank: the server is not a TCGMSG
/// node, NXTVAL hands out every value once, and PEND ends the whole job
/// with status 0.
#[test]
fn beside_a_data_server_rank() {
    let exe = c_program("tcg_server");
    let server = ga_server();
    for n in [1, 3] {
        let r = mpiexec_beside_server(&server, n, &exe, &[], &[], LIMIT);
        r.assert_ok("tcg_server");
        tallies_ok(&r, "tcg_server", n as usize);
        r.assert_stdout_has(&format!("tcg_server node 0 of {n}:"));
    }
}

/// NXTVAL with no `ga-server` in the job, as under GA's own TCGMSG: one
/// process counts sequentially, several share a counter kept in an MPI
/// window; every value is handed out once per loop, and the reset works.
#[test]
fn nxtval_without_a_data_server() {
    let exe = c_program("tcg_server");
    tally::passes_on(&exe, &[1, 4], "tcg_server", LIMIT, tallies_ok);
}

/// A TCGMSG program that never uses NXTVAL or GA, launched beside a
/// `ga-server`: the server is not a node, and the job still ends (every
/// compute rank says goodbye to the servers when it finalises MPI).
#[test]
fn a_program_that_never_uses_the_server_ends_beside_one() {
    let exe = c_program("tcg_basic");
    let n = 2;
    let dir = scratch("tcg_basic_beside_server");
    let dir = dir.to_str().expect("UTF-8 path");
    let r = mpiexec_beside_server(&ga_server(), n as u32, &exe, &[dir], &[], LIMIT);
    r.assert_ok("tcg_basic beside a ga-server");
    tallies_ok(&r, "tcg_basic", n);
    r.assert_stdout_has(&format!("hello from node 1 of {n}"));
}

#[test]
fn tcgmsg_debug_logs_show_start_end_and_errors_with_the_rank() {
    let exe = c_program("tcg_stress");
    let r = mpiexec_env(2, &exe, &["50"], &[("MPBRIDGE_LOG", "tcgmsg=debug")], LIMIT);
    r.assert_ok("tcg_stress with MPBRIDGE_LOG=tcgmsg=debug");
    tallies_ok(&r, "tcg_stress", 2);
    for rank in 0..2 {
        let lines = r.log_lines(rank, "tcgmsg");
        assert!(
            one_line_has(&lines, &["PBEGIN: TCGMSG started", "nodes=2"]),
            "rank {rank} logs its start:\n{}",
            r.stderr
        );
        assert!(
            one_line_has(&lines, &["PEND: leaving TCGMSG"]),
            "rank {rank} logs its end:\n{}",
            r.stderr
        );
    }
    r.assert_stderr_lacks(" core: ", "core lines are filtered out");

    // Unset, nothing is logged.
    let quiet = mpiexec(2, &exe, &["50"], LIMIT);
    quiet.assert_ok("tcg_stress");
    assert!(!quiet.stderr.contains("[rank "), "{}", quiet.stderr);

    // Error: the node that calls it logs the decision to end the job.
    let errors = c_program("tcg_errors");
    let r = mpiexec_env(
        3,
        &errors,
        &["error"],
        &[("MPBRIDGE_LOG", "tcgmsg=warn")],
        LIMIT,
    );
    assert!(!r.timed_out, "hung:\n{}", r.stderr);
    let ending: Vec<&str> = r
        .log_lines(1, "tcgmsg")
        .into_iter()
        .filter(|l| l.contains("Error: deliberate failure; ending the whole job"))
        .collect();
    assert_eq!(ending.len(), 1, "{}", r.stderr);
    assert!(ending[0].contains("code=42"), "{}", ending[0]);
    assert!(
        !r.stderr.contains("PBEGIN: TCGMSG started"),
        "debug lines are filtered out at warn:\n{}",
        r.stderr
    );
}
