//! The rest of PVM's C API (`pvm_packf`, getminfo, pkmesg, `pvm_tasks`,
//! machine control, export, `pvm_recvf`, message handlers, the mailbox,
//! signals): C programs built against the installed `pvm3.h` and
//! `-lpvm3`, run under `mpiexec` with a hard timeout. Each rank prints
//! `N passed, M failed`; every rank's tally must show no failure.

use std::time::Duration;
use tests::mpirun::{mpiexec, Run};
use tests::native::build;

/// Every rank printed a tally, and none failed.
fn all_ranks_pass(r: &Run, ranks: usize, what: &str) {
    let tallies: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(" passed, "))
        .collect();
    let report = format!(
        "{what}: exit {:?}, timed out {}\n--- stdout\n{}\n--- stderr\n{}",
        r.code, r.timed_out, r.stdout, r.stderr
    );
    assert!(!r.timed_out, "{report}");
    assert_eq!(tallies.len(), ranks, "one tally per rank\n{report}");
    for t in &tallies {
        assert!(t.ends_with(" 0 failed"), "{t}\n{report}");
        let passed: usize = t
            .split(": ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(passed > 0, "no check ran: {t}\n{report}");
    }
    assert!(!r.stderr.contains("FAILED"), "{report}");
    assert_eq!(r.code, Some(0), "{report}");
}

#[test]
fn packf_minfo_pkmesg_tasks_and_machine_on_two_ranks() {
    let exe = build("pvm_extra.c", &["pvm3"]);
    let r = mpiexec(2, &exe, &[], Duration::from_secs(90));
    all_ranks_pass(&r, 2, "pvm_extra");
    // PvmAutoErr is 0 in the program: no error line may appear.
    assert!(!r.stderr.contains("libpvm ["), "{}", r.stderr);
}

#[test]
fn recvf_handlers_mailbox_and_signals_on_three_ranks() {
    let exe = build("pvm_extra_hooks.c", &["pvm3"]);
    let r = mpiexec(3, &exe, &[], Duration::from_secs(120));
    all_ranks_pass(&r, 3, "pvm_extra_hooks");
}
