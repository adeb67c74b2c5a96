//! PVM groups (libgpvm3) as a C program sees them: programs built with
//! mpicc against the installed `pvm3.h`, `-lpvm3 -lgpvm3`, run under
//! mpiexec. See `tests/programs/pvm_groups*.c` for what each checks.

use std::time::Duration;
use tests::mpirun::{mpiexec, Run};
use tests::native::build;
use tests::tally;

const LIMIT: Duration = Duration::from_secs(90);

/// One "N passed, M failed" line per task, all with 0 failed, and no hang.
fn all_passed(r: &Run, procs: usize, what: &str) {
    assert!(
        !r.timed_out,
        "{what} hung:\n--- stdout\n{}\n--- stderr\n{}",
        r.stdout, r.stderr
    );
    tally::tallies_ok(r, "", procs);
}

/// Group membership calls, barrier, freeze and bcast only set pvm_errno
/// (as libgpvm3 does); reduce, scatter and gather report their errors.
fn quiet_calls_stay_quiet(r: &Run, what: &str) {
    for f in [
        "pvm_joingroup()",
        "pvm_lvgroup()",
        "pvm_gsize()",
        "pvm_getinst()",
        "pvm_gettid()",
        "pvm_barrier()",
        "pvm_freezegroup()",
        "pvm_bcast()",
    ] {
        r.assert_stderr_lacks(f, &format!("{what}: {f} must not print its error"));
    }
}

#[test]
fn group_semantics_on_four_ranks() {
    let exe = build("pvm_groups.c", &["pvm3", "gpvm3"]);
    let r = mpiexec(4, &exe, &[], LIMIT);
    all_passed(&r, 4, "pvm_groups");
    quiet_calls_stay_quiet(&r, "pvm_groups");
    for line in [
        "pvm_reduce(): Bad parameter",
        "pvm_reduce(): No such instance",
        "pvm_reduce(): No such group",
        "pvm_scatter(): Bad parameter",
        "pvm_gather(): Bad parameter",
    ] {
        assert!(
            r.stderr.contains(line),
            "pvm_groups: expected {line:?} on stderr\n{}",
            r.stderr
        );
    }
}

#[test]
fn leaving_pvm_leaves_groups_and_the_service_outlives_its_task() {
    let exe = build("pvm_groups_exit.c", &["pvm3", "gpvm3"]);
    for n in [3, 4] {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, n as usize, "pvm_groups_exit");
        quiet_calls_stay_quiet(&r, "pvm_groups_exit");
        r.assert_stderr_lacks("libpvm [", "pvm_groups_exit: no PVM error expected");
    }
}
