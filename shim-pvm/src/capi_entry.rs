//! How the C entry points of `capi_*` run: the panic boundary, PVM's error
//! reporting (`pvm_errno`, and a line on stderr as `PvmAutoErr` says), then
//! the message handlers whose messages arrived during the call; and the
//! library-owned arrays some entries hand back.

use crate::consts::err;
use crate::handlers::dispatch_handlers;
use crate::ptr;
use crate::state::{finish, finish_quiet};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::{guard, report_panic};
use std::any::Any;
use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};

pub(crate) fn bad() -> PvmError {
    PvmError(err::BAD_PARAM)
}

/// The item count and stride of a packing call: `nitem` >= 0, `stride` >= 1.
pub(crate) fn counts(nitem: c_int, stride: c_int) -> PvmResult<(usize, usize)> {
    if nitem < 0 || stride < 1 {
        return Err(bad());
    }
    Ok((nitem as usize, stride as usize))
}

/// Runs an entry point: panic boundary, PVM's error reporting, then any
/// message handlers whose messages arrived during the call.
///
/// The success path is a `catch_unwind` around `f` and one check of the
/// handler flags; reporting an error or a panic is kept out of line.
#[inline(always)]
pub(crate) fn entry(name: &str, f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    let r = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => report(name, e),
        Err(p) => panicked(name, p),
    };
    dispatch_handlers();
    r
}

/// Like [`entry`], but the codes in `quiet` only set `pvm_errno` (libpvm
/// does not print them for these calls).
pub(crate) fn entry_quiet(name: &str, quiet: &[i32], f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    entry(name, || match f() {
        Err(PvmError(c)) if quiet.contains(&c) => Ok(finish_quiet(Err(PvmError(c)))),
        r => r,
    })
}

/// A failed entry: sets `pvm_errno` and reports as `PvmAutoErr` says,
/// inside the panic boundary (printing can panic).
#[cold]
#[inline(never)]
fn report(name: &str, e: PvmError) -> c_int {
    guard(name, err::SYS_ERR, || finish(name, Err(e)))
}

/// An entry that panicked: the panic is reported as the panic boundary
/// reports it (with the entry's name) and becomes PvmSysErr.
#[cold]
#[inline(never)]
fn panicked(name: &str, p: Box<dyn Any + Send>) -> c_int {
    report_panic(name, p);
    err::SYS_ERR
}

pub(crate) fn text_arg(p: *const c_char) -> Option<String> {
    shim_core::cstr::lossy(p)
}

/// An array of C records the library owns and hands out, with what the
/// records' pointers refer to (`K`): both live until the next call of the
/// same entry replaces them.
pub(crate) struct OwnedArray<T, K>(shim_core::Lock<Option<(K, Vec<T>)>>);

impl<T, K> OwnedArray<T, K> {
    pub(crate) const fn new() -> Self {
        OwnedArray(shim_core::Lock::new(None))
    }

    /// Replaces the array with `records` (pointing into `keep`), and stores
    /// its length in `*count` and its address in `*out`.
    pub(crate) fn publish(&self, keep: K, records: Vec<T>, count: *mut c_int, out: *mut *mut T) {
        let mut g = self.0.lock();
        let (_, records) = g.insert((keep, records));
        ptr::put(count, records.len() as c_int);
        ptr::put_ptr(out, records.as_mut_ptr());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::resume_unwind;

    #[test]
    fn a_panic_in_an_entry_becomes_sys_err() {
        // resume_unwind unwinds without the panic hook, so nothing to silence.
        let r = entry("pvm_probe", || resume_unwind(Box::new("boom")));
        assert_eq!(r, err::SYS_ERR);
    }

    #[test]
    fn results_and_quiet_codes_come_back() {
        assert_eq!(entry("pvm_probe", || Ok(7)), 7);
        let quiet = entry_quiet("pvm_probe", &[err::NOT_FOUND], || {
            Err(PvmError(err::NOT_FOUND))
        });
        assert_eq!(quiet, err::NOT_FOUND);
        assert_eq!(entry("pvm_probe", || Err(bad())), err::BAD_PARAM);
    }
}
