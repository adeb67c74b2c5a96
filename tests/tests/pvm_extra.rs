//! The rest of PVM's C API (`pvm_packf`, getminfo, pkmesg, `pvm_tasks`,
//! machine control, export, `pvm_recvf`, message handlers, the mailbox,
//! signals): C programs built against the installed `pvm3.h` and
//! `-lpvm3`, run under `mpiexec` with a hard timeout. Each rank prints
//! `N passed, M failed`; every rank's tally must show no failure.

use tests::mpirun::Run;
use tests::native::run_program;
use tests::tally::{job_passed, passed};

/// Every rank printed a tally, ran checks, and none failed. Returns the
/// run for more checks.
fn all_ranks_pass<'a>(r: &'a Run, ranks: usize, what: &str) -> &'a Run {
    for t in job_passed(r, "", ranks, what) {
        assert!(passed(t) > 0, "no check ran: {t}\n{}", r.report(what));
    }
    r
}

#[test]
fn packf_minfo_pkmesg_tasks_and_machine_on_two_ranks() {
    let r = run_program("pvm_extra.c", &["pvm3"], 2, &[], 90);
    // PvmAutoErr is 0 in the program: no error line may appear.
    all_ranks_pass(&r, 2, "pvm_extra").assert_stderr_lacks("libpvm [", "on stderr");
}

#[test]
fn recvf_handlers_mailbox_and_signals_on_three_ranks() {
    let r = run_program("pvm_extra_hooks.c", &["pvm3"], 3, &[], 120);
    all_ranks_pass(&r, 3, "pvm_extra_hooks");
}
