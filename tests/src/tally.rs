//! Reading the tallies the test programs print: each process of a test
//! program counts its own checks and ends with one line `... P passed, F
//! failed`. A run is good when every process printed its line and failed
//! no check (a process with nothing to check, such as a relay, may pass
//! none; callers that expect checks everywhere say so).

use crate::mpirun::{lines_where, mpiexec, Run};
use std::path::Path;
use std::time::Duration;

/// Asserts that `r` printed exactly `procs` tally lines starting with
/// `prefix`, each with no check failed; returns them.
pub fn tallies_ok<'a>(r: &'a Run, prefix: &str, procs: usize) -> Vec<&'a str> {
    let lines = lines_where(&r.stdout, |l| {
        l.starts_with(prefix) && l.contains(" passed, ")
    });
    assert_eq!(
        lines.len(),
        procs,
        "{prefix}: one tally per process\n--- stdout\n{}\n--- stderr\n{}",
        r.stdout,
        r.stderr
    );
    for l in &lines {
        assert!(
            l.ends_with(" 0 failed"),
            "{l}\n--- stdout\n{}\n--- stderr\n{}",
            r.stdout,
            r.stderr
        );
    }
    lines
}

/// [`tallies_ok`], and every process passed at least one check.
pub fn tallies_all_checked(r: &Run, prefix: &str, procs: usize) {
    for l in tallies_ok(r, prefix, procs) {
        assert_good(l, r);
    }
}

/// Asserts that each rank `k` in `0..ranks` printed a tally line starting
/// with `"{who} rank {k}: "`, with at least one check passed and none
/// failed.
pub fn ranks_ok(r: &Run, who: &str, ranks: usize) {
    for k in 0..ranks {
        let prefix = format!("{who} rank {k}: ");
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no tally of {who} rank {k}:\n{}\n{}", r.stdout, r.stderr));
        assert_good(line, r);
    }
}

fn assert_good(line: &str, r: &Run) {
    assert!(
        line.ends_with(" 0 failed") && !line.contains(": 0 passed"),
        "{line}\n--- stdout\n{}\n--- stderr\n{}",
        r.stdout,
        r.stderr
    );
}

/// Asserts that `r` did not hang, printed exactly `procs` tally lines
/// starting with `prefix`, none with a failure, and no `FAILED` on
/// standard error; `what` heads the report. Returns the tallies.
pub fn tallies_clean<'a>(r: &'a Run, prefix: &str, procs: usize, what: &str) -> Vec<&'a str> {
    let rep = r.report(what);
    assert!(!r.timed_out, "{rep}");
    let tallies = lines_where(&r.stdout, |l| {
        l.starts_with(prefix) && l.contains(" passed, ")
    });
    assert_eq!(tallies.len(), procs, "one tally per process\n{rep}");
    for t in &tallies {
        assert!(t.ends_with(" 0 failed"), "{t}\n{rep}");
    }
    assert!(!r.stderr.contains("FAILED"), "{rep}");
    tallies
}

/// [`tallies_clean`], and the job exited with 0.
pub fn job_passed<'a>(r: &'a Run, prefix: &str, procs: usize, what: &str) -> Vec<&'a str> {
    let tallies = tallies_clean(r, prefix, procs, what);
    assert_eq!(r.code, Some(0), "{}", r.report(what));
    tallies
}

/// The number of checks a tally line `...: P passed, F failed` says passed
/// (0 when the line does not say).
pub fn passed(line: &str) -> usize {
    line.split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Runs `exe` (no arguments) on each number of ranks in `sizes` within
/// `limit`: every run exits with 0, and `tallies(run, name, ranks)` checks
/// its tallies (such as [`tallies_ok`]). Returns each size with its run.
pub fn passes_on(
    exe: &Path,
    sizes: &[u32],
    name: &str,
    limit: Duration,
    tallies: fn(&Run, &str, usize),
) -> Vec<(u32, Run)> {
    sizes
        .iter()
        .map(|&n| {
            let r = mpiexec(n, exe, &[], limit);
            r.assert_ok(&format!("{name} on {n}"));
            tallies(&r, name, n as usize);
            (n, r)
        })
        .collect()
}

/// The answers master1 (the PVM example, in C or Fortran) prints: `count`
/// lines `I got X from N (expected Y)`, each with X equal to Y.
pub fn master1_answers_right(r: &Run, count: usize) {
    let got = lines_where(&r.stdout, |l| l.trim_start().starts_with("I got"));
    assert_eq!(got.len(), count, "{}", r.report("master1's answers"));
    for l in got {
        let nums: Vec<&str> = l
            .split([' ', '(', ')'])
            .filter(|w| w.contains('.'))
            .collect();
        assert_eq!(nums.len(), 2, "master1: {l}");
        assert_eq!(nums[0], nums[1], "master1: wrong result in {l}");
    }
}

/// A PVM program's run ended in time, printed `needle` exactly `times`
/// times on its standard output and no PVM error on its standard error.
pub fn expect_output(r: &Run, what: &str, needle: &str, times: usize) {
    assert!(!r.timed_out, "{}", r.report(&format!("{what} hung")));
    let n = r.stdout.matches(needle).count();
    assert_eq!(
        n,
        times,
        "{}",
        r.report(&format!("{what}: expected {times} x {needle:?}"))
    );
    r.assert_stderr_lacks("libpvm [", &format!("{what}: PVM reported an error"));
}
