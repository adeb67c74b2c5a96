//! The project's own PVM programs (C), built against the installed
//! `pvm3.h` and `-lpvm3`, run under `mpiexec` with a hard timeout.

use std::time::Duration;
use tests::mpirun::{lines_where, mpiexec, Run};
use tests::native::{build, run_program};
use tests::tally::tallies_ok;

/// `run` ended in time and every one of its `procs` processes printed a
/// clean tally.
fn in_time_and_clean(r: &Run, procs: usize) {
    assert!(!r.timed_out, "{}", r.report("hung"));
    tallies_ok(r, "", procs);
}

#[test]
fn message_semantics_on_three_ranks() {
    let r = run_program("pvm_semantics.c", &["pvm3"], 3, &[], 90);
    in_time_and_clean(&r, 3);
    r.assert_stderr_lacks("FAILED", "on stderr");
    // The one deliberate failure with PvmAutoErr on, in libpvm's format.
    let errors = lines_where(&r.stderr, |l| l.starts_with("libpvm [t"));
    let line = errors.first().copied().unwrap_or("");
    assert!(
        line.ends_with("]: pvm_send(): Bad parameter"),
        "auto-error line: {line:?}\n{}",
        r.stderr
    );
    assert_eq!(
        r.stderr.matches("libpvm [").count(),
        1,
        "only the deliberate error is printed:\n{}",
        r.stderr
    );
    assert_eq!(r.code, Some(0));
}

/// The safe Rust API's example (`shim-pvm/examples/pvm_ring.rs`), built by
/// cargo next to this test's own binary.
#[test]
fn rust_api_token_ring_on_four_ranks() {
    let ring = tests::mpirun::cargo_example("pvm_ring");
    let r = mpiexec(4, &ring, &[], Duration::from_secs(60));
    r.assert_ok("pvm_ring");
    r.assert_stdout_has("pvm_ring: 1 passed, 0 failed");
}

/// A parent is told when its children exit, including one killed while
/// blocked in a receive, and the job still ends cleanly.
#[test]
fn exit_notices_for_a_finished_and_a_killed_child() {
    let r = run_program("pvm_notify.c", &["pvm3"], 1, &[], 90);
    in_time_and_clean(&r, 1);
    r.assert_stderr_lacks("was not killed", "on stderr");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Large messages delivered straight to a waiting receive, read every way
/// a program can (whole, in pieces, strided, XDR, after `pvm_bufinfo`,
/// forwarded, freed unread, by `pvm_trecv`/`pvm_nrecv`, interleaved with
/// small ones from two senders), values checked.
#[test]
fn large_messages_read_every_way_on_three_ranks() {
    let exe = build("pvm_large.c", &["pvm3"]);
    for lazy in ["0", "1"] {
        let r = mpiexec_lazy(3, &exe, lazy, Duration::from_secs(120));
        let what = format!("pvm_large, MPBRIDGE_PVM_LAZY_RECV={lazy}");
        in_time_and_clean(&r, 3);
        assert!(!r.stderr.contains("FAILED"), "{what}: {}", r.stderr);
        assert!(!r.stderr.contains("libpvm ["), "{what}: {}", r.stderr);
        assert_eq!(r.code, Some(0), "{what}: {}", r.stderr);
    }
}

/// `mpiexec -n n exe` with `MPBRIDGE_PVM_LAZY_RECV` set to `lazy` on every rank.
fn mpiexec_lazy(n: u32, exe: &std::path::Path, lazy: &str, limit: Duration) -> Run {
    tests::mpirun::mpiexec_env(n, exe, &[], &[("MPBRIDGE_PVM_LAZY_RECV", lazy)], limit)
}

/// A task ending without `pvm_exit` while a large message it received is
/// still unread does not leave its sender blocked in `pvm_send`.
#[test]
fn unread_large_message_at_exit_releases_its_sender() {
    let exe = build("pvm_large_exit.c", &["pvm3"]);
    let r = mpiexec_lazy(2, &exe, "1", Duration::from_secs(60));
    in_time_and_clean(&r, 2);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// A sender that sends far more than a same-node channel holds to a busy
/// sibling returns at once from every `pvm_send`, ends, and still every
/// message arrives in order when the sibling reads them.
#[test]
fn sends_to_a_busy_receiver_return_and_arrive_after_the_sender_ends() {
    let r = run_program("pvm_flood_exit.c", &["pvm3"], 2, &[], 60);
    in_time_and_clean(&r, 2);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}
