//! The GA client core, the `ga-server` and NXTVAL under `mpiexec`: 1 to 4
//! compute ranks beside one server, each job with a hard timeout.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{mpiexec_beside_server, stage, Run};

const LIMIT: Duration = Duration::from_secs(120);

/// The `ga-server` binary of the same build profile as the test programs,
/// built on demand.
fn server_bin() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_ga_core"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let bin = dir.join("ga-server");
    if !bin.exists() {
        let mut c = Command::new(env!("CARGO"));
        c.args(["build", "-p", "ga-server", "--bins"]);
        if dir.ends_with("release") {
            c.arg("--release");
        }
        let st = c.status().expect("cargo build -p ga-server");
        assert!(st.success(), "building ga-server failed");
    }
    bin
}

/// Runs `ga_core MODE` on `n` compute ranks plus one server.
fn run(n: u32, mode: &str, remote: bool) -> Run {
    run_env(n, mode, remote, &[])
}

/// [`run`] with `env` set on every rank.
fn run_env(n: u32, mode: &str, remote: bool, env: &[(&str, &str)]) -> Run {
    let mut env = env.to_vec();
    if remote {
        env.push(("MPBRIDGE_GA_REMOTE", "1"));
    }
    let prog = Path::new(env!("CARGO_BIN_EXE_ga_core"));
    mpiexec_beside_server(&server_bin(), n, prog, &[mode], &env, LIMIT)
}

fn segments() -> Vec<String> {
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("mpbga-"))
                .collect()
        })
        .unwrap_or_default()
}

fn passed(r: &Run, mode: &str, what: &str) {
    r.assert_ok(what);
    r.assert_stdout_has(&format!("ga_core {mode} OK"));
}

/// `mode` passes on each of `ranks`, every operation through the data
/// server when `remote`.
fn passes_on(mode: &str, ranks: &[u32], remote: bool) {
    let path = if remote { ", remote path," } else { "" };
    for &n in ranks {
        let r = run(n, mode, remote);
        passed(&r, mode, &format!("ga_core {mode}{path} on {n} ranks"));
    }
}

#[test]
fn put_get_acc_read_inc_nxtval_locks_on_one_to_four_ranks() {
    passes_on("all", &[1, 2, 3, 4], false);
}

#[test]
fn traced_ga_operations_are_recorded_and_merged() {
    let dir = std::env::temp_dir().join(format!("mpbridge-ga-trace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.display().to_string();
    let r = run_env(2, "all", false, &[("MPBRIDGE_TRACE", &d)]);
    passed(&r, "all", "ga_core all with MPBRIDGE_TRACE");
    // Each compute rank records its GA calls; the server records none.
    let mut with_calls = 0;
    for f in std::fs::read_dir(&dir).unwrap().flatten() {
        let text = tests::trace_text::lines(&f.path());
        let calls: Vec<&str> = text.lines().filter(|l| l.contains(" call ga ")).collect();
        if calls.is_empty() {
            continue;
        }
        with_calls += 1;
        for op in ["op=NGA_Put", "op=NGA_Get", "op=NGA_Acc"] {
            assert!(
                calls.iter().any(|l| l.ends_with(op)),
                "{}: no {op}:\n{text}",
                f.path().display()
            );
        }
    }
    assert_eq!(with_calls, 2, "one file per compute rank with GA calls");
    // The merged trace shows them as events of the `ga` category.
    let json = dir.join("app.json");
    let mut merge = Command::new(stage().join("bin/mpbridge"));
    merge.arg("trace").arg(&dir).arg("-o").arg(&json);
    tests::mpirun::output_ok(&mut merge, "mpbridge trace");
    let merged = std::fs::read_to_string(&json).unwrap();
    assert!(
        merged.contains("\"name\":\"NGA_Put\",\"cat\":\"ga\""),
        "{merged}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn remote_path_gives_the_same_values() {
    passes_on("all", &[1, 3, 4], true);
}

#[test]
fn bad_patch_raises_ga_error_and_ends_the_job() {
    let r = run(2, "bad", false);
    assert!(!r.timed_out, "bad request hung\n{}", r.stderr);
    assert_ne!(r.code, Some(0), "job with a bad put ended with 0");
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("NGA_Put: patch [0:9,3:20] outside g_a 'A' [0:9,0:9]"),
        "message names the call and the patch:\n{all}"
    );
}

#[test]
fn idle_server_takes_no_core() {
    let r = run(2, "idle", false);
    passed(&r, "idle", "idle server");
}

#[test]
fn killed_server_ends_the_job_and_leaves_no_segment() {
    let r = run(2, "kill", false);
    assert!(!r.timed_out, "job hung after its server died\n{}", r.stderr);
    assert_ne!(r.code, Some(0));
    let all = format!("{}{}", r.stdout, r.stderr);
    let pid: String = all
        .lines()
        .find_map(|l| l.strip_prefix("killing ga-server "))
        .expect("the program says which server it kills")
        .trim()
        .to_string();
    assert!(
        all.contains("exited on signal 9") || all.contains("Killed"),
        "the launcher says the server was killed:\n{all}"
    );
    let left: Vec<String> = segments()
        .into_iter()
        .filter(|s| s.starts_with(&format!("mpbga-{pid}-")))
        .collect();
    assert!(left.is_empty(), "segments left behind: {left:?}");
}

#[test]
fn large_transfers_and_bad_large_requests_through_the_server() {
    passes_on("big", &[1, 2, 3], true);
}

#[test]
fn large_transfers_on_the_same_node() {
    passes_on("big", &[2], false);
}
