//! The core's multi-rank programs under `mpiexec`, each with a hard timeout.

use std::path::Path;
use std::time::Duration;
use tests::mpirun::{mpiexec, Run};

const LIMIT: Duration = Duration::from_secs(120);

fn run(n: u32, prog: &str, args: &[&str]) -> Run {
    mpiexec(n, Path::new(prog), args, LIMIT)
}

/// Every rank printed its tally with no failure.
fn all_passed(r: &Run, ranks: usize, what: &str) {
    r.assert_ok(what);
    let tallies: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(" passed, "))
        .collect();
    assert_eq!(
        tallies.len(),
        ranks,
        "{what}: one tally per process\n{}",
        r.stdout
    );
    assert!(
        tallies.iter().all(|l| l.ends_with(" 0 failed")),
        "{what}:\n{}",
        r.stdout
    );
}

#[test]
fn semantics_on_two_to_four_ranks() {
    for n in 2..=4 {
        let r = run(n, env!("CARGO_BIN_EXE_core_semantics"), &[]);
        all_passed(&r, n as usize, &format!("core_semantics on {n} ranks"));
    }
}

#[test]
fn ring_on_one_to_four_ranks() {
    for n in 1..=4 {
        let r = run(n, env!("CARGO_BIN_EXE_core_ring"), &["200"]);
        all_passed(&r, n as usize, &format!("core_ring on {n} ranks"));
    }
}

fn hop_us(r: &Run) -> f64 {
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("ring:"))
        .expect("ring line");
    line.split("hop_us=")
        .nth(1)
        .and_then(|v| v.trim().parse().ok())
        .expect("hop time")
}

/// With more ranks than cores, waiting ranks must give their core away:
/// a 4-rank ring on 2 cores stays within 10x of the 2-rank hop time.
#[test]
fn four_ranks_on_two_cores_do_not_starve() {
    let r2 = run(2, env!("CARGO_BIN_EXE_core_ring"), &["20000"]);
    r2.assert_ok("2-rank ring");
    let r4 = run(4, env!("CARGO_BIN_EXE_core_ring"), &["5000"]);
    r4.assert_ok("4-rank ring");
    let (h2, h4) = (hop_us(&r2), hop_us(&r4));
    println!(
        "hop time: 2 ranks {h2:.3} us, 4 ranks {h4:.3} us, ratio {:.2}",
        h4 / h2
    );
    assert!(
        h4 <= 10.0 * h2,
        "4-rank hop {h4:.3} us exceeds 10x the 2-rank hop {h2:.3} us"
    );
}

#[test]
fn cartesian_grid_on_four_ranks() {
    let r = run(4, env!("CARGO_BIN_EXE_core_cart"), &[]);
    all_passed(&r, 4, "core_cart");
}

#[test]
fn spawned_batches_reach_each_other() {
    let r = run(1, env!("CARGO_BIN_EXE_core_spawn"), &[]);
    all_passed(&r, 4, "core_spawn (1 parent, 3 children)");
    assert!(r.stdout.contains("parent t40001 spawned"), "{}", r.stdout);
}

#[test]
fn started_without_a_launcher_spawns_too() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_core_spawn"));
    tests::mpirun::mpi_env(&mut cmd);
    let r = tests::mpirun::run_with_timeout(cmd, LIMIT);
    r.assert_ok("core_spawn as an MPI singleton");
    // Children's own lines may be lost when the singleton's private launcher
    // exits first; their results travel in their reports, which the parent checks.
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "core_spawn parent: 15 passed, 0 failed"),
        "parent saw every child succeed:\n{}",
        r.stdout
    );
}

/// Spawn numbers come back when their processes are gone: 5000 numbers in
/// one job (more than a task id holds), an immediate refusal when all are
/// in use, and real spawns that reuse the two numbers left free.
#[test]
fn spawn_numbers_are_reused_and_refused_at_once_when_all_are_in_use() {
    let r = run(2, env!("CARGO_BIN_EXE_core_spawn_reuse"), &[]);
    r.assert_ok("core_spawn_reuse");
    let tally = |who: &str| {
        r.stdout
            .lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("no tally from {who}:\n{}", r.stdout))
            .to_string()
    };
    let spawner = tally("core_spawn_reuse spawner:");
    assert!(spawner.ends_with(" 0 failed"), "{spawner}\n{}", r.stderr);
    assert!(tally("core_spawn_reuse registry:").ends_with(" 0 failed"));
    // 5000 ranges and releases, plus the rest: every check ran.
    let passed: usize = spawner
        .split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 10_000, "{spawner}");
    assert!(r.elapsed < Duration::from_secs(60), "took {:?}", r.elapsed);
}

#[test]
fn spawning_a_missing_program_is_an_error_not_a_crash() {
    let r = run(1, env!("CARGO_BIN_EXE_core_spawn_fail"), &[]);
    all_passed(&r, 1, "core_spawn_fail");
    assert!(r.stdout.contains("no executable"), "{}", r.stdout);
}

#[test]
fn a_dying_rank_ends_the_job() {
    let r = run(2, env!("CARGO_BIN_EXE_core_die"), &[]);
    assert!(
        !r.timed_out,
        "the job hung after a rank died:\n{}\n{}",
        r.stdout, r.stderr
    );
    assert_ne!(r.code, Some(0), "the job must fail");
    assert!(
        !r.stdout.contains("rank 0 receive returned"),
        "rank 0 must not carry on as if nothing happened:\n{}",
        r.stdout
    );
    assert!(r.elapsed < Duration::from_secs(60), "took {:?}", r.elapsed);
}

/// `mpiexec -n N prog : -n 1 server`: the server rank is not part of the
/// compute ranks' world, and their messages flow as without it.
#[test]
fn server_ranks_are_hidden_from_the_world() {
    let prog = env!("CARGO_BIN_EXE_core_roles");
    for n in 1..=3u32 {
        let ns = n.to_string();
        let mut cmd = std::process::Command::new("mpiexec");
        tests::mpirun::mpi_env(&mut cmd);
        cmd.args(["-n", &ns, prog, ":", "-n", "1", prog, "server"]);
        let r = tests::mpirun::run_with_timeout(cmd, LIMIT);
        all_passed(
            &r,
            n as usize + 1,
            &format!("core_roles with {n} compute ranks"),
        );
    }
}
