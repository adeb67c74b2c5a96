//! TCGMSG's NXTVAL shared loop counter, on the `ga-server`'s shared memory.
//!
//! `NXTVAL(mproc)` with mproc > 0 returns the next value of the counter
//! (0, 1, 2, ...); every participant then calls `NXTVAL(-mproc)`, a barrier
//! of the compute ranks that resets the counter. The counter lives in the
//! control segment of the server on the last compute rank's node: ranks of
//! that node add to it atomically in the mapped memory, others ask that
//! server. Without any server in the job the counter is shim-core's
//! `onesided::SharedCounter` on the last compute rank (a 64-bit word in an
//! MPI window updated with `MPI_Fetch_and_op`, as GA's own TCGMSG does over
//! ARMCI); with one compute rank and no server,
//! TCGMSG's sequential contract applies (mproc = 1 counts, mproc = −1
//! resets, any other value is an error).

use crate::core::{client, GaError, GaResult};
use std::ffi::c_long;
use std::sync::atomic::{AtomicI64, Ordering};

const CALL: &str = "NXTVAL";

static SEQUENTIAL: AtomicI64 = AtomicI64::new(0);

/// Connects to the servers (collective over every process of the job: the
/// first call of every compute rank takes part). TCGMSG's `PBEGIN` may call
/// it so the first `NXTVAL` does not pay for it.
pub fn install() -> GaResult<()> {
    client::connect(CALL)
}

/// Tells the servers this process is done with NXTVAL and GA (TCGMSG's
/// `PEND`). Afterwards NXTVAL fails.
pub fn finish() {
    client::leave();
}

/// The next counter value (mproc > 0), or the closing barrier and reset
/// (mproc < 0); see the module documentation.
pub fn nxtval(mproc: i64) -> GaResult<i64> {
    client::connect(CALL)?;
    client::with(CALL, |c| {
        let has_server = c.server.iter().any(|&s| s >= 0);
        if let Some(w) = c.counter.as_ref() {
            let e = GaError::backend(CALL);
            if mproc > 0 {
                return w.fetch_add(1).map_err(e);
            }
            if mproc < 0 {
                c.comm.barrier().map_err(e)?;
                if c.me == 0 {
                    // Nobody adds between the barriers: read, then subtract.
                    let v = w.fetch_add(0).map_err(e)?;
                    w.fetch_add(-v).map_err(e)?;
                }
                c.comm.barrier().map_err(e)?;
            }
            return Ok(0);
        }
        if !has_server {
            return match mproc {
                1 => Ok(SEQUENTIAL.fetch_add(1, Ordering::Relaxed)),
                -1 => {
                    SEQUENTIAL.store(0, Ordering::Relaxed);
                    Ok(0)
                }
                _ => Err(GaError::new(
                    CALL,
                    format!("sequential version with silly mproc {mproc}"),
                )),
            };
        }
        if mproc > 0 {
            return c.counter_add(CALL, 1);
        }
        if mproc < 0 {
            c.comm.barrier().map_err(GaError::backend(CALL))?;
            if c.me == 0 {
                c.counter_set(CALL, 0)?;
            }
            c.comm.barrier().map_err(GaError::backend(CALL))?;
        }
        Ok(0)
    })
}

#[allow(clippy::unnecessary_cast)]
fn to_i64(x: c_long) -> i64 {
    x as i64
}

fn nxtval_or_abort(mproc: i64) -> i64 {
    match nxtval(mproc) {
        Ok(v) => v,
        Err(e) => crate::core::abort(&e.to_string(), 1),
    }
}

/// `long tcg_nxtval(long mproc)`: returns the next counter value for
/// mproc > 0, 0 after the barrier and reset for mproc < 0. Errors end the job.
#[no_mangle]
pub extern "C" fn tcg_nxtval(mproc: c_long) -> c_long {
    shim_core::ffi_guard::guard("tcg_nxtval", -1, || {
        nxtval_or_abort(to_i64(mproc)) as c_long
    })
}

/// `long NXTVAL_(long *mproc)`: as [`tcg_nxtval`] with the argument by
/// reference; returns the counter value.
#[no_mangle]
pub extern "C" fn NXTVAL_(mproc: *const c_long) -> c_long {
    shim_core::ffi_guard::guard("NXTVAL_", -1, || match crate::ptr::read_long(mproc) {
        Some(m) => nxtval_or_abort(to_i64(m)) as c_long,
        None => crate::core::abort("NXTVAL_: mproc is a null pointer", 1),
    })
}

/// Fortran `INTEGER FUNCTION NXTVAL(MPROC)` (INTEGER is 8 bytes): returns
/// the counter value.
#[no_mangle]
pub extern "C" fn nxtval_(mproc: *const i64) -> i64 {
    shim_core::ffi_guard::guard("nxtval", -1, || match crate::ptr::read_i64(mproc) {
        Some(m) => nxtval_or_abort(m),
        None => crate::core::abort("nxtval: mproc is a null pointer", 1),
    })
}
