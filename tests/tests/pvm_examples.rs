//! Debian's prebuilt PVM example programs (package `pvm-examples`), run
//! unchanged with mpbridge's libraries first on `LD_LIBRARY_PATH`, launched
//! by plain `mpiexec` and by `mpbridge run`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{mpi_env, run_with_timeout, stage, Run};

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
fn mpmd(apps: &[(u32, &str)]) -> Run {
    let lib = stage().join("lib");
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "LD_LIBRARY_PATH", "-x", "PATH"]);
    for (k, (n, name)) in apps.iter().enumerate() {
        if k > 0 {
            cmd.arg(":");
        }
        cmd.arg("-n").arg(n.to_string()).arg(example(name));
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
    mpmd(&[(n, name)])
}

/// `mpbridge run -n N /usr/bin/<name>`.
fn mpbridge_run(n: u32, name: &str, args: &[&str]) -> Run {
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.args(["run", "-n", &n.to_string()])
        .arg(example(name))
        .args(args);
    run_with_timeout(cmd, LIMIT)
}

fn uses_our_library(name: &str) {
    let lib = stage().join("lib");
    let out = Command::new("ldd")
        .arg(example(name))
        .env("LD_LIBRARY_PATH", &lib)
        .output()
        .expect("ldd");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("libpvm3.so.3"))
        .unwrap_or("");
    assert!(
        line.contains(&lib.display().to_string()),
        "{name} must load our libpvm3.so.3:\n{text}"
    );
}

fn expect_output(r: &Run, what: &str, needle: &str, times: usize) {
    assert!(!r.timed_out, "{what} hung:\n{}\n{}", r.stdout, r.stderr);
    let n = r.stdout.matches(needle).count();
    assert_eq!(
        n, times,
        "{what}: expected {times} x {needle:?}\n--- stdout\n{}\n--- stderr\n{}",
        r.stdout, r.stderr
    );
    assert!(
        !r.stderr.contains("libpvm ["),
        "{what}: PVM reported an error:\n{}",
        r.stderr
    );
}

#[test]
fn spmd_token_ring_on_four_ranks() {
    uses_our_library("spmd");
    let r = mpiexec(4, "spmd");
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
    let got: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("I got"))
        .collect();
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
    let r = mpmd(&[(1, "master1"), (3, "slave1")]);
    master_slave_ok(&r, "master1 : slave1 (MPMD)");
}

#[test]
fn fortran_master1_spawns_its_slaves() {
    let r = mpiexec(1, "fmaster1");
    expect_output(&r, "fmaster1", "SUCCESSFUL", 1);
    let got: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("I got"))
        .collect();
    assert_eq!(got.len(), 3, "fmaster1: three answers\n{}", r.stdout);
    for l in got {
        let nums: Vec<&str> = l
            .split([' ', ')', '('])
            .filter(|w| w.contains('.'))
            .collect();
        assert_eq!(nums.len(), 2, "fmaster1: {l}");
        assert_eq!(nums[0], nums[1], "fmaster1: wrong result in {l}");
    }
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
