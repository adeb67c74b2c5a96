//! Patient waiting inside MPI for the processes of an mpC program.
//!
//! The dispatcher puts several processes on one host, and a host's speed
//! is what its processes share. A process that waits inside a blocking MPI
//! call (a communicator's creation for a new network, a barrier, a
//! collective the program calls itself) normally spins, taking the
//! processor from the processes that compute beside it; on a host whose
//! processor time is limited (a slow workstation, or a CPU quota of
//! `mpbridge cluster up --speeds`) every round of such a call then waits
//! for the next slice of the host's time, and creating the galaxy
//! experiment's network took over a second.
//!
//! So, from `MPC_Init` to `MPC_Finalize`, waiting processes sleep instead:
//! before MPI starts, `MPC_Init` asks Open MPI to yield the processor when
//! a wait finds nothing to do (`OMPI_MCA_mpi_yield_when_idle=1`, unless the
//! environment says otherwise), and this library's `sched_yield` sleeps
//! [`DEFAULT_NAP_US`] microseconds instead of yielding while the run-time
//! is started. Outside that time, and with `MPBRIDGE_MPC_NAP_US=0`, it is
//! the plain system call. If the program started MPI itself before
//! `MPC_Init`, Open MPI keeps spinning (the variable is read when MPI
//! starts).
//!
//! An FFI edge: the file replaces the C library's `sched_yield` and, when
//! it does not sleep, makes the system call itself (its one `unsafe`).

use std::sync::atomic::{AtomicU64, Ordering};

/// Environment variable: microseconds a waiting process sleeps each time
/// MPI finds nothing to do (0: yield only).
pub const NAP_ENV: &str = "MPBRIDGE_MPC_NAP_US";
/// The nap without [`NAP_ENV`].
pub const DEFAULT_NAP_US: u64 = 100;
/// Open MPI's setting for yielding when idle.
const YIELD_ENV: &str = "OMPI_MCA_mpi_yield_when_idle";

/// Microseconds to sleep in `sched_yield`; 0 when patience is off.
static NAP_US: AtomicU64 = AtomicU64::new(0);

/// The nap `NAP_ENV`'s value asks for (the default when unset or not a
/// number).
fn nap_from(value: Option<&str>) -> u64 {
    value
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(DEFAULT_NAP_US, |v| v.min(100_000))
}

/// Turns patience on; `mpi_started`: whether MPI is running already (then
/// Open MPI's setting cannot change any more).
pub(crate) fn start(mpi_started: bool) {
    let nap = nap_from(std::env::var(NAP_ENV).ok().as_deref());
    if nap == 0 {
        return;
    }
    if !mpi_started && std::env::var_os(YIELD_ENV).is_none() {
        // Read by MPI_Init, which has not run yet; no other thread of the
        // run-time exists before it.
        std::env::set_var(YIELD_ENV, "1");
    }
    NAP_US.store(nap, Ordering::Relaxed);
}

/// The nap in force, in microseconds (0: patience is off).
pub(crate) fn nap_us() -> u64 {
    NAP_US.load(Ordering::Relaxed)
}

/// Turns patience off (the run-time has stopped).
pub(crate) fn stop() {
    NAP_US.store(0, Ordering::Relaxed);
}

/// `sched_yield(2)` for the whole process: while the run-time is started,
/// a nap of the configured length; otherwise the system call itself.
/// Returns 0 (the system call's result otherwise: 0, or -1 with errno).
#[no_mangle]
pub extern "C" fn sched_yield() -> libc::c_int {
    let nap = NAP_US.load(Ordering::Relaxed);
    if nap > 0 {
        std::thread::sleep(std::time::Duration::from_micros(nap));
        return 0;
    }
    // SAFETY: sched_yield takes no arguments and touches no memory.
    unsafe { libc::syscall(libc::SYS_sched_yield) as libc::c_int }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nap_setting_is_read_with_a_default_and_a_bound() {
        assert_eq!(nap_from(None), DEFAULT_NAP_US);
        assert_eq!(nap_from(Some("x")), DEFAULT_NAP_US);
        assert_eq!(nap_from(Some(" 0 ")), 0);
        assert_eq!(nap_from(Some("250")), 250);
        assert_eq!(nap_from(Some("99999999")), 100_000);
    }

    #[test]
    fn sched_yield_sleeps_only_while_patient() {
        let time = |n: u32| {
            let t = std::time::Instant::now();
            for _ in 0..n {
                assert_eq!(sched_yield(), 0);
            }
            t.elapsed()
        };
        NAP_US.store(2000, Ordering::Relaxed);
        let patient = time(5);
        stop();
        let plain = time(5);
        assert!(
            patient >= std::time::Duration::from_millis(10),
            "{patient:?}"
        );
        assert!(plain < patient, "{plain:?} vs {patient:?}");
    }
}
