//! The C entry point of signals between tasks (`pvm_sendsig`).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry};
use crate::consts::{err, tid as tidbits};
use crate::ptr;
use crate::state::with_task;
use crate::PvmError;
use std::ffi::c_int;

// ---------------------------------------------------------------------------
// Signals

/// Sends signal `signum` to task `tid`. SIGTERM and SIGKILL to another
/// task end it as `pvm_kill` does; other signals reach another task at its
/// next PVM call, where they are raised in its process; the calling task's
/// own signals are raised at once. Signal 0 only checks the arguments. A
/// tid nobody has is not an error. Returns PvmOk, PvmBadParam (not a task
/// tid, or an invalid signal).
#[no_mangle]
pub extern "C" fn pvm_sendsig(tid: c_int, signum: c_int) -> c_int {
    entry("pvm_sendsig", || {
        if !tidbits::is_task(tid) || !(0..65).contains(&signum) {
            return Err(bad());
        }
        let me = with_task(|t| Ok(t.me))?;
        if signum == 0 {
            return Ok(0);
        }
        if tid == me {
            return if ptr::raise_signal(signum) {
                Ok(0)
            } else {
                Err(bad())
            };
        }
        with_task(|t| {
            let r = if signum == libc::SIGTERM || signum == libc::SIGKILL {
                t.kill(tid)
            } else {
                crate::mbox::send_signal(t, tid, signum)
            };
            match r {
                Ok(()) | Err(PvmError(err::NO_TASK)) => Ok(0),
                Err(e) => Err(e),
            }
        })
    })
}
