//! ARMCI's non-blocking transfers (`ARMCI_Nb*` with `ARMCI_Wait`,
//! `ARMCI_Test`, `ARMCI_WaitProc`, `ARMCI_WaitAll`, aggregate and implicit
//! handles, many handles outstanding): a C program checks the data after
//! completion on 1, 2 and 4 compute ranks beside a `ga-server` and on 3
//! with every transfer through the server (`MPBRIDGE_GA_REMOTE=1`), and
//! prints the digests Debian's ARMCI prints for the same source. Through
//! the server a transfer is still in flight when its call returns
//! (`ARMCI_Test` says so) and completes later. Bad handles end the job
//! with ARMCI's error.

use tests::ga_compare::{assert_armci_error, assert_tally, build, run, step_lines, Ga};

const SRC: &str = "ga/armci_nb.c";
const NAME: &str = "armci_nb";

/// The "in flight X of Y" figures the program prints on stderr.
fn in_flight(err: &str) -> (u32, u32) {
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("armci_nb: in flight "))
        .unwrap_or_else(|| panic!("no in-flight line in:\n{err}"));
    let w: Vec<u32> = line
        .split(' ')
        .filter_map(|x| x.trim_end_matches(',').parse().ok())
        .collect();
    (w[0], w[1])
}

#[test]
fn nonblocking_transfers_match_debian_armci() {
    let ours = build(SRC, Ga::Ours);
    let theirs = build(SRC, Ga::Debian);
    for (np, remote) in [(1, "0"), (2, "0"), (4, "0"), (3, "1")] {
        let what = format!("{NAME} on {np} ranks (MPBRIDGE_GA_REMOTE={remote})");
        let want = run(&theirs, Ga::Debian, np, &[], &[]);
        assert_tally(
            &want,
            NAME,
            &format!("{what} with Debian's ARMCI"),
            450 * np,
        );
        let got = run(&ours, Ga::Ours, np, &[], &[("MPBRIDGE_GA_REMOTE", remote)]);
        assert_tally(&got, NAME, &what, 450 * np);
        assert_eq!(
            step_lines(&got.stdout, NAME),
            step_lines(&want.stdout, NAME),
            "{what} differs from Debian's ARMCI"
        );
    }
}

/// Large gets through the server return at once: `ARMCI_Test` right after
/// the calls finds some still in flight, and later ones complete with
/// the right data (checked by the program).
#[test]
fn transfers_through_the_server_are_in_flight_after_the_call() {
    let ours = build(SRC, Ga::Ours);
    for np in [1, 2] {
        let r = run(&ours, Ga::Ours, np, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
        assert_tally(
            &r,
            NAME,
            &format!("{NAME} through the server on {np}"),
            450 * np,
        );
        let (pending, of) = in_flight(&r.stderr);
        assert_eq!(of, 8 * np, "{}", r.stderr);
        assert!(
            pending > 0,
            "every large get was complete when its call returned ({pending} of {of} in flight)"
        );
    }
}

/// `ARMCI_Wait` or `ARMCI_Test` with a handle that is NULL or was never
/// set up ends the job (no hang, no crash) with ARMCI's error naming the
/// call; the call never returns.
#[test]
fn bad_handles_end_the_job_with_armci_error() {
    let ours = build(SRC, Ga::Ours);
    for (arg, call, what) in [
        ("nullwait", "ARMCI_Wait", "bad handle: NULL"),
        ("badwait", "ARMCI_Wait", "bad handle (target 12345"),
        ("badtest", "ARMCI_Test", "bad handle (target 12345"),
    ] {
        assert_armci_error(&ours, arg, call, what);
    }
}
