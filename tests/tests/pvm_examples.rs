//! Debian's prebuilt PVM example programs (package `pvm-examples`), run
//! unchanged with mpbridge's libraries first on `LD_LIBRARY_PATH`, launched
//! by plain `mpiexec` and by `mpbridge run`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{lines_where, mpi_env, mpiexec_one_reading, run_with_timeout, stage, Run};
use tests::tally::expect_output;

const LIMIT: Duration = Duration::from_secs(60);

fn example(name: &str) -> PathBuf {
    let p = Path::new("/usr/bin").join(name);
    assert!(
        p.is_file(),
        "{} missing: apt-get install pvm-examples",
        p.display()
    );
    p
}

/// `mpiexec` of one or more programs (an MPMD line), each `(ranks, name)`,
/// with our library directory first and the examples on `PATH` (spawn by
/// name finds `slave1`, `hello_other`, ...).
fn mpmd(apps: &[(u32, &str, &[&str])]) -> Run {
    let lib = stage().join("lib");
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "LD_LIBRARY_PATH", "-x", "PATH"]);
    for (k, (n, name, args)) in apps.iter().enumerate() {
        if k > 0 {
            cmd.arg(":");
        }
        cmd.arg("-n")
            .arg(n.to_string())
            .arg(example(name))
            .args(*args);
    }
    cmd.env("LD_LIBRARY_PATH", &lib).env(
        "PATH",
        format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default()),
    );
    mpi_env(&mut cmd);
    run_with_timeout(cmd, LIMIT)
}

/// `mpiexec -n N /usr/bin/<name>`.
fn mpiexec(n: u32, name: &str) -> Run {
    mpmd(&[(n, name, &[])])
}

/// `mpbridge run -n N /usr/bin/<name>`.
fn mpbridge_run(n: u32, name: &str, args: &[&str]) -> Run {
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.args(["run", "-n", &n.to_string()])
        .arg(example(name))
        .args(args);
    run_with_timeout(cmd, LIMIT)
}

/// `mpiexec -n N /usr/bin/<name>`, after checking it loads our libraries.
fn ours_under_mpiexec(n: u32, name: &str) -> Run {
    uses_our_library(name);
    mpiexec(n, name)
}

fn uses_our_library(name: &str) {
    let lib = stage().join("lib");
    let out = Command::new("ldd")
        .arg(example(name))
        .env("LD_LIBRARY_PATH", &lib)
        .output()
        .expect("ldd");
    let text = String::from_utf8_lossy(&out.stdout);
    // Every PVM library the binary loads (libpvm3, or libgpvm3 for the group
    // examples, which pulls in libpvm3) must be ours.
    let pvm: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("libgpvm3.so.3") || l.contains("libpvm3.so.3"))
        .collect();
    assert!(
        !pvm.is_empty() && pvm.iter().all(|l| l.contains(&lib.display().to_string())),
        "{name} must load our libraries:\n{text}"
    );
}

#[test]
fn spmd_token_ring_on_four_ranks() {
    let r = ours_under_mpiexec(4, "spmd");
    expect_output(&r, "spmd under mpiexec", "token ring done", 1);
    // spmd ends with exit(1) after pvm_exit: that must not abort the job.
    assert_eq!(r.code, Some(0), "exit status after pvm_exit:\n{}", r.stderr);
    let r = mpbridge_run(4, "spmd", &[]);
    expect_output(&r, "spmd under mpbridge run", "token ring done", 1);
}

#[test]
fn fortran_spmd_token_ring_on_four_ranks() {
    let r = mpiexec(4, "fspmd");
    expect_output(&r, "fspmd", "token ring done", 1);
}

#[test]
fn hello_spawns_hello_other() {
    let r = mpiexec(1, "hello.pvm");
    expect_output(&r, "hello.pvm", "hello, world from", 1);
    // The reply's source (bufinfo) is the tid pvm_spawn returned.
    let me = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("i'm t"))
        .expect("own tid line");
    let from = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("from t"))
        .expect("reply line");
    let child = from.split(':').next().unwrap();
    assert_ne!(child, me, "the reply comes from the child");
    assert!(
        u32::from_str_radix(child, 16).is_ok_and(|t| t > 0x40000),
        "child tid {child}"
    );
}

fn master_slave_ok(r: &Run, what: &str) {
    expect_output(r, what, "SUCCESSFUL", 1);
    let got = lines_where(&r.stdout, |l| l.starts_with("I got"));
    assert_eq!(got.len(), 3, "{what}: three slave answers\n{}", r.stdout);
    for l in got {
        // "I got 200.000000 from 0; (expecting 200.000000)"
        let nums: Vec<&str> = l.split([' ', ')']).filter(|w| w.contains('.')).collect();
        assert_eq!(nums.len(), 2, "{what}: {l}");
        assert_eq!(nums[0], nums[1], "{what}: wrong result in {l}");
    }
}

#[test]
fn master1_spawns_its_slaves() {
    let r = mpiexec(1, "master1");
    master_slave_ok(&r, "master1 with dynamic spawn");
}

#[test]
fn master1_claims_prelaunched_slaves() {
    let r = mpmd(&[(1, "master1", &[]), (3, "slave1", &[])]);
    master_slave_ok(&r, "master1 : slave1 (MPMD)");
}

#[test]
fn fortran_master1_spawns_its_slaves() {
    let r = mpiexec(1, "fmaster1");
    expect_output(&r, "fmaster1", "SUCCESSFUL", 1);
    tests::tally::master1_answers_right(&r, 3);
}

#[test]
fn timing_kills_a_slave_blocked_in_recv() {
    let r = mpiexec(1, "timing");
    expect_output(&r, "timing", "done", 1);
    assert!(r.stdout.contains("RTT Avg uSec"), "{}", r.stdout);
    assert_eq!(
        r.code,
        Some(0),
        "job must end cleanly after the kill:\n{}",
        r.stderr
    );
}

/// `mpiexec -n N /usr/bin/<name> args...`.
fn mpiexec_args(n: u32, name: &str, args: &[&str]) -> Run {
    mpmd(&[(n, name, args)])
}

#[test]
fn gexample_reduces_over_a_frozen_group() {
    let r = ours_under_mpiexec(4, "gexample");
    expect_output(&r, "gexample", "Using 4 processors", 1);
    expect_output(&r, "gexample", "The 1-Norm is 5050", 1);
    // 100! from the reduce with the program's own function (PVM_DOUBLE).
    expect_output(&r, "gexample", "The product of column 1 is 9.33262e+157", 1);
    assert!(!r.stdout.contains("Barrier failed"), "{}", r.stdout);
}

/// fgexample said it runs on `tasks` tasks ("using N processors").
fn fgexample_uses(r: &Run, tasks: &str) {
    let words: Vec<&str> = r.stdout.split_whitespace().collect();
    assert!(
        words
            .windows(3)
            .any(|w| w == ["using", tasks, "processors"]),
        "{}",
        r.report(&format!("fgexample: not on {tasks} tasks"))
    );
}

#[test]
fn fortran_gexample_reduces_over_a_frozen_group() {
    let r = mpiexec(4, "fgexample");
    fgexample_uses(&r, "4");
    let norm = lines_where(&r.stdout, |l| l.contains("The 1-Norm is"));
    assert_eq!(norm.len(), 1, "fgexample: one norm line\n{}", r.stdout);
    assert_eq!(
        norm[0].split_whitespace().last(),
        Some("5050"),
        "fgexample: {}",
        norm[0]
    );
    expect_output(&r, "fgexample", "9.3326215443944", 1);
}

fn bwtest(name: &str) {
    let r = mpiexec(2, name);
    // Both sides validate the 100000 doubles that went there and back.
    expect_output(&r, name, "100000 doubles received correctly", 2);
    expect_output(&r, name, "Data size: 800000", 1);
}

#[test]
fn bwtest_default_packing() {
    bwtest("dbwtest");
}

#[test]
fn bwtest_in_place_packing() {
    bwtest("ibwtest");
}

#[test]
fn bwtest_raw_packing() {
    bwtest("rbwtest");
}

#[test]
fn bwtest_psend_precv() {
    bwtest("pbwtest");
}

#[test]
fn tst_joins_and_leaves_two_groups() {
    let r = ours_under_mpiexec(1, "tst");
    expect_output(&r, "tst", "joined prognosis 0, negative 0", 1);
    expect_output(&r, "tst", "left prognosis 0, negative 0", 1);
}

fn many_groups(name: &str, ranks: u32) {
    let r = mpiexec(ranks, name);
    assert!(!r.timed_out, "{name} hung:\n{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr.matches("joined group31\n").count(),
        ranks as usize,
        "{name}: every task joins 32 groups\n{}",
        r.stderr
    );
    r.assert_stderr_lacks(
        "I'm not myself",
        &format!("{name}: getinst/gettid disagree"),
    );
    r.assert_stderr_lacks("libpvm [", &format!("{name}: PVM reported an error"));
}

#[test]
fn tjf_group_instances_are_consistent() {
    many_groups("tjf", 1);
    many_groups("tjf", 2);
}

#[test]
fn tjl_group_instances_are_consistent() {
    many_groups("tjl", 1);
    many_groups("tjl", 3);
}

#[test]
fn joinleave_reuses_the_instance_a_thousand_times() {
    let r = mpiexec_args(1, "joinleave", &["1000"]);
    expect_output(&r, "joinleave", "Joined 1000 times", 1);
    r.assert_stderr_lacks("JoinLeave", "joinleave: a join or leave failed");
    // joinleave never calls pvm_exit: MPI is still finalised at exit, so
    // the launcher sees a clean end.
    assert_eq!(
        r.code,
        Some(0),
        "joinleave's job must end cleanly:\n{}",
        r.stderr
    );
}

#[test]
fn gs_spawns_copies_that_poll_the_group_size() {
    let r = mpiexec_args(1, "gs.pvm", &["3"]);
    assert!(!r.timed_out, "gs.pvm hung:\n{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr.matches(" enrolled").count(),
        3,
        "gs.pvm: itself and two spawned copies\n{}",
        r.stderr
    );
    assert!(!r.stderr.contains("libpvm ["), "gs.pvm:\n{}", r.stderr);
    assert_eq!(r.code, Some(0), "gs.pvm:\n{}", r.stderr);
}

#[test]
fn gexample_alone_spawns_its_group() {
    // Started alone, gexample asks for the dimension and the number of
    // tasks on stdin and spawns the others.
    let input = std::env::temp_dir().join(format!("gexample-input-{}", std::process::id()));
    std::fs::write(&input, "100 4\n").expect("write gexample input");
    let lib = stage().join("lib");
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "LD_LIBRARY_PATH", "-x", "PATH", "-n", "1"])
        .arg(example("gexample"))
        .env("LD_LIBRARY_PATH", &lib)
        .env(
            "PATH",
            format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .stdin(std::fs::File::open(&input).expect("gexample input"));
    mpi_env(&mut cmd);
    let r = run_with_timeout(cmd, LIMIT);
    let _ = std::fs::remove_file(&input);
    expect_output(&r, "gexample (spawning)", "Using 4 processors", 1);
    expect_output(&r, "gexample (spawning)", "The 1-Norm is 5050", 1);
    expect_output(&r, "gexample (spawning)", "9.33262e+157", 1);
}

#[test]
fn fortran_gexample_alone_spawns_its_group() {
    // One host: fgexample runs 2 tasks (it spawns one copy of itself).
    let r = mpiexec(1, "fgexample");
    fgexample_uses(&r, "2");
    expect_output(&r, "fgexample (spawning)", "5050", 1);
    expect_output(&r, "fgexample (spawning)", "9.3326215443944", 1);
}

/// Every acceptance example also runs under `mpbridge run`, which sets up
/// the environment (our libraries first, Open MPI as root, more ranks than
/// cores) by itself.
#[test]
fn every_example_under_mpbridge_run() {
    let cases: &[(u32, &str, &[&str], &str)] = &[
        (4, "fspmd", &[], "token ring done"),
        (4, "gexample", &[], "The 1-Norm is 5050"),
        (4, "fgexample", &[], "5050"),
        (2, "dbwtest", &[], "100000 doubles received correctly"),
        (2, "ibwtest", &[], "100000 doubles received correctly"),
        (2, "rbwtest", &[], "100000 doubles received correctly"),
        (2, "pbwtest", &[], "100000 doubles received correctly"),
        (1, "tst", &[], "left prognosis 0, negative 0"),
        (1, "tjf", &[], ""),
        (1, "tjl", &[], ""),
        (1, "joinleave", &["1000"], "Joined 1000 times"),
        (1, "hello.pvm", &[], "hello, world from"),
        (1, "master1", &[], "SUCCESSFUL"),
        (1, "fmaster1", &[], "SUCCESSFUL"),
        (1, "timing", &[], "done"),
    ];
    for &(n, name, args, needle) in cases {
        let r = mpbridge_run(n, name, args);
        assert!(
            !r.timed_out,
            "{name} hung under mpbridge run:\n{}\n{}",
            r.stdout, r.stderr
        );
        r.assert_stdout_has(needle);
        r.assert_stderr_lacks(
            "I'm not myself",
            &format!("{name}: getinst/gettid disagree"),
        );
        r.assert_stderr_lacks("libpvm [", &format!("{name} reported a PVM error"));
        assert_eq!(
            r.code,
            Some(0),
            "{name}'s job must end cleanly:\n{}",
            r.stderr
        );
    }
}

/// Debian's trsg (C): reduce with PvmSum and a user function, scatter and
/// gather over 3 tasks it spawns itself; task count and row length on stdin.
#[test]
fn trsg_reduce_scatter_gather_with_its_own_tasks() {
    let lib = stage().join("lib");
    let exports = [("LD_LIBRARY_PATH", lib.as_path())];
    let r = mpiexec_one_reading(
        &example("trsg"),
        "3\n5\n",
        Path::new("/usr/bin"),
        &exports,
        LIMIT,
    );
    expect_output(
        &r,
        "trsg",
        "Test OK: Sum of Squares of first 15 integers is 1240",
        1,
    );
    r.assert_stdout_has("Test Ok: Received (5.000000, 1.000000)");
    assert!(!r.stdout.contains("ERROR"), "{}", r.stdout);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}
