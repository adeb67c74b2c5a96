//! The core's multi-rank programs under `mpiexec`, each with a hard timeout.

use std::path::Path;
use std::time::Duration;
use tests::mpirun::{mpiexec, Run};
use tests::tally;

const LIMIT: Duration = Duration::from_secs(120);

fn run(n: u32, prog: &str, args: &[&str]) -> Run {
    mpiexec(n, Path::new(prog), args, LIMIT)
}

/// Every rank printed its tally with no failure, and the job ended well.
/// Returns the run for more checks.
fn all_passed<'a>(r: &'a Run, ranks: usize, what: &str) -> &'a Run {
    r.assert_ok(what);
    tally::tallies_ok(r, "", ranks);
    r
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

/// With more ranks than cores, waiting ranks must give their core away: a
/// 4-rank ring on 2 cores (bench/core_ring.c, which times an 8-byte token
/// with mpb_send/mpb_recv and with MPI_Send/MPI_Recv in the same job)
/// stays within 3x of MPI's own time per hop. A waiter that kept its core
/// would make it tens of times slower.
#[test]
fn four_ranks_on_two_cores_do_not_starve() {
    let exe = tests::native::build("../../bench/core_ring.c", &["mpbridge"]);
    let r = run(
        4,
        exe.to_str().expect("path"),
        &["--rounds", "5", "--laps", "5000"],
    );
    r.assert_ok("core_ring on 4 ranks");
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("ring4"))
        .unwrap_or_else(|| panic!("no ring4 line:\n{}", r.stdout));
    let field = |name: &str| -> f64 {
        let mut it = line.split_whitespace();
        it.find(|w| *w == name)
            .and_then(|_| it.next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {line:?}"))
    };
    let (ours, mpi) = (field("ours"), field("mpi"));
    println!("4 ranks on 2 cores: {ours:.3} us per hop, MPI {mpi:.3} us");
    assert!(
        ours <= 3.0 * mpi,
        "4-rank hop {ours:.3} us exceeds 3x MPI's {mpi:.3} us"
    );
}

/// Processes that share cores and wait long for a message stop taking
/// turns on their cores and sleep: on 4 ranks, the three that wait 1.5 s
/// for rank 0 each use a small share of a CPU over the wait
/// (bench/core_idle.c measures it with getrusage).
#[test]
fn long_waits_on_shared_cores_sleep() {
    let exe = tests::native::build("../../bench/core_idle.c", &["mpbridge"]);
    let r = run(4, exe.to_str().expect("path"), &["--seconds", "1.5"]);
    r.assert_ok("core_idle on 4 ranks");
    let shares: Vec<f64> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("# core idle:"))
        .map(|l| {
            let share = l
                .rsplit("share ")
                .next()
                .and_then(|v| v.trim().parse().ok());
            share.unwrap_or_else(|| panic!("no share in {l:?}"))
        })
        .collect();
    assert_eq!(shares.len(), 3, "one line per waiting rank:\n{}", r.stdout);
    for s in &shares {
        assert!(
            *s < 0.1,
            "a waiting rank used {s:.3} of a CPU:\n{}",
            r.stdout
        );
    }
}

#[test]
fn cartesian_grid_on_four_ranks() {
    let r = run(4, env!("CARGO_BIN_EXE_core_cart"), &[]);
    all_passed(&r, 4, "core_cart");
}

#[test]
fn spawned_batches_reach_each_other() {
    let r = run(1, env!("CARGO_BIN_EXE_core_spawn"), &[]);
    all_passed(&r, 4, "core_spawn (1 parent, 3 children)")
        .assert_stdout_has("parent t40001 spawned");
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
    assert!(tests::tally::passed(&spawner) > 10_000, "{spawner}");
    assert!(r.elapsed < Duration::from_secs(60), "took {:?}", r.elapsed);
}

#[test]
fn spawning_a_missing_program_is_an_error_not_a_crash() {
    let r = run(1, env!("CARGO_BIN_EXE_core_spawn_fail"), &[]);
    all_passed(&r, 1, "core_spawn_fail").assert_stdout_has("no executable");
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
    // Rank 0 is either ended with the job or told that its peer is gone;
    // it never receives anything.
    assert!(
        !r.stdout.contains("rank 0 receive returned Ok"),
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

/// Pairwise order and content under random sizes across every size
/// threshold, random tags and random receive patterns, every process
/// sending to every other at once.
#[test]
fn order_holds_on_two_four_and_eight_ranks() {
    for (n, per_pair) in [(2, "400"), (4, "150"), (8, "40")] {
        let r = run(n, env!("CARGO_BIN_EXE_core_order"), &[per_pair]);
        all_passed(&r, n as usize, &format!("core_order on {n} ranks"));
    }
}

/// The same among a parent and the three children it spawned (the
/// parent's links and the children's own world).
#[test]
fn order_holds_with_spawned_tasks() {
    let r = run(1, env!("CARGO_BIN_EXE_core_order"), &["150", "spawn", "3"]);
    all_passed(&r, 4, "core_order with 3 spawned children");
}

/// A same-node peer killed with SIGKILL in the middle of a stream: the
/// receiver gets the stream's first messages in order, then an error
/// naming the peer within 10 s. A stream the receiver's ring holds (200
/// messages, read as they come) arrives whole; of a longer one (500
/// messages, read only once the sender is gone) what the ring holds
/// (255) arrives. Open MPI is told to keep the job alive when a process
/// dies.
#[test]
fn a_killed_peer_is_an_error_within_ten_seconds() {
    for (count, when) in [("200", "now"), ("500", "late")] {
        let r = tests::mpirun::mpiexec_env(
            2,
            Path::new(env!("CARGO_BIN_EXE_core_kill")),
            &[count, when],
            &[
                ("MPBRIDGE_SHM", "1"),
                ("OMPI_MCA_orte_enable_recovery", "1"),
                ("OMPI_MCA_orte_abort_on_non_zero_status", "0"),
            ],
            Duration::from_secs(60),
        );
        assert!(!r.timed_out, "{}\n{}", r.stdout, r.stderr);
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with("core_kill rank 0:") && l.ends_with(" 0 failed")),
            "{count} messages, read {when}: rank 0 was told in time:\n{}\n{}",
            r.stdout,
            r.stderr
        );
    }
}

/// With `/dev/shm` too small for the channels (a 256 KiB tmpfs in a
/// private mount namespace), every process says so in one line and the
/// messages go through MPI.
#[test]
fn a_full_dev_shm_falls_back_to_mpi_with_one_warning() {
    let probe = std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "true"])
        .output();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) {
        println!(
            "SKIPPED a_full_dev_shm_falls_back_to_mpi_with_one_warning: no private mount namespace here ({})",
            probe.map_or_else(
                |e| e.to_string(),
                |o| String::from_utf8_lossy(&o.stderr).trim().to_string()
            )
        );
        return;
    }
    let mut cmd = std::process::Command::new("unshare");
    cmd.args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(
            "mount -t tmpfs -o size=256k tmpfs /dev/shm && \
             exec mpiexec -x MPBRIDGE_SHM=1 -n 3 \"$0\" 60",
        )
        .arg(env!("CARGO_BIN_EXE_core_order"))
        // Open MPI's own shared memory goes elsewhere, so only ours is short.
        .env("OMPI_MCA_btl_vader_backing_directory", std::env::temp_dir());
    tests::mpirun::mpi_env(&mut cmd);
    let r = tests::mpirun::run_with_timeout(cmd, LIMIT);
    all_passed(&r, 3, "core_order with a full /dev/shm");
    // Counted in the whole text: the launcher may interleave the lines
    // of several processes.
    let warnings = r.stderr.matches("mpbridge: same-node channels off").count();
    assert_eq!(warnings, 3, "one warning per process:\n{}", r.stderr);
    assert!(r.stderr.contains("No space left"), "{}", r.stderr);
}
