//! ARMCI (`armci.h`, `message.h`) on the GA client: a C program in the
//! style of ARMCI's own tests (contiguous, 2-D and 3-D strided and vector
//! put/get/accumulate, non-blocking forms, values, a fetch-and-add ticket
//! counter over all ranks, swaps, mutex-protected increments) runs on 1, 2
//! and 4 compute ranks beside a `ga-server` and once with every operation
//! through the server (`MPBRIDGE_GA_REMOTE=1`). It checks itself against a
//! serial model and prints a digest per step; the digests must be the
//! ones Debian's ARMCI (ARMCI-MPI 0.3.1) prints for the same source.
//! Bad calls end the job with ARMCI's error, naming the call.

use tests::ga_compare::{assert_armci_error, assert_tally, build, run, same_as_debian, Ga};

const SRC: &str = "ga/armci_ops.c";
const NAME: &str = "armci_ops";

/// The step lines (everything but the tally) of a run's output.
fn steps(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.starts_with(NAME)).collect()
}

#[test]
fn armci_calls_match_debian_armci() {
    let ours = build(SRC, Ga::Ours);
    let theirs = build(SRC, Ga::Debian);
    for np in [2, 4] {
        let want = run(&theirs, Ga::Debian, np, &[], &[]);
        assert_tally(
            &want,
            NAME,
            &format!("{NAME} with Debian's ARMCI on {np} ranks"),
            300,
        );
        let got = run(&ours, Ga::Ours, np, &[], &[]);
        assert_tally(&got, NAME, &format!("{NAME} on {np} ranks"), 300);
        assert_eq!(
            steps(&got.stdout),
            steps(&want.stdout),
            "{NAME} on {np} ranks differs from Debian's ARMCI"
        );
    }
    // On one rank Debian's ARMCI-MPI fails in ARMCI_Create_mutexes
    // (MPI_Win_create: "invalid window") and ends the job: the steps before
    // the mutexes are compared, and ours must pass every check.
    let want = run(&theirs, Ga::Debian, 1, &[], &[]);
    let got = run(&ours, Ga::Ours, 1, &[], &[]);
    assert_tally(&got, NAME, &format!("{NAME} on 1 rank"), 150);
    let before = |out: &str| -> Vec<String> {
        out.lines()
            .take_while(|l| !l.starts_with("mutex"))
            .map(str::to_string)
            .collect()
    };
    let w = before(&want.stdout);
    assert!(
        w.len() >= 10,
        "Debian's ARMCI on 1 rank printed:\n{}",
        want.stdout
    );
    assert_eq!(
        before(&got.stdout),
        w,
        "{NAME} on 1 rank differs from Debian's ARMCI"
    );
    // Every operation through the data server.
    let want = run(&theirs, Ga::Debian, 3, &[], &[]);
    assert_tally(
        &want,
        NAME,
        &format!("{NAME} with Debian's ARMCI on 3 ranks"),
        300,
    );
    let got = run(&ours, Ga::Ours, 3, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
    assert_tally(
        &got,
        NAME,
        &format!("{NAME} through the server on 3 ranks"),
        300,
    );
    assert_eq!(
        steps(&got.stdout),
        steps(&want.stdout),
        "{NAME} through the server differs from Debian's ARMCI"
    );
}

/// Each bad call ends the job (no hang, no crash) with ARMCI's error text
/// naming the call and what was wrong; the call never returns.
#[test]
fn bad_calls_end_the_job_with_a_message() {
    let ours = build(SRC, Ga::Ours);
    for (arg, call, what) in [
        ("badproc", "ARMCI_Put", "process 2 out of range 0..2"),
        (
            "badaddr",
            "ARMCI_Put",
            "not inside memory that process 0 got from ARMCI_Malloc",
        ),
        ("badlevels", "ARMCI_PutS", "stride_levels = 9"),
        ("nullsrc", "ARMCI_Put", "the source is NULL"),
        ("badtype", "ARMCI_Acc", "unknown accumulate type 17"),
    ] {
        assert_armci_error(&ours, arg, call, what);
    }
}

/// `armci_msg_finalize` after `GA_Terminate` (the end of GA's own test
/// programs, such as `perf2.c`) finalises the MPI the program started,
/// and the job ends cleanly.
#[test]
fn armci_msg_finalize_ends_mpi_after_ga_terminate() {
    let exe = build("ga/armci_msg_end.c", Ga::Ours);
    for np in [1, 2] {
        let r = run(&exe, Ga::Ours, np, &[], &[]);
        r.assert_ok(&format!("armci_msg_end on {np} ranks"));
        assert!(
            r.stdout.contains(&format!("ranks {np}, MPI finalized 1")),
            "{}{}",
            r.stdout,
            r.stderr
        );
    }
}

/// The profiling interface (`ga/armci_profiling.c`): the program defines
/// its own `ARMCI_Put`/`Get`/`Acc`/`Rmw`, as a profiling tool does, counts
/// the calls and hands them on to the `PARMCI_` names (each rank checks
/// its counts); it also calls many `PARMCI_` names directly. On 2 and 3
/// ranks, and on 2 through the server (`MPBRIDGE_GA_REMOTE=1`), it prints
/// what Debian's ARMCI prints for the same source: the digests, the summed
/// counters and the tally.
#[test]
fn a_profiling_tool_sees_the_armci_calls_and_parmci_does_the_work() {
    same_as_debian("ga/armci_profiling.c", "armci_profiling", 40, &[2, 3], 2);
}
