//! How the C entry points of `capi_*` run: the panic boundary, PVM's error
//! reporting (`pvm_errno`, and a line on stderr as `PvmAutoErr` says), then
//! the message handlers whose messages arrived during the call; and the
//! library-owned arrays some entries hand back.

use crate::consts::err;
use crate::handlers::dispatch_handlers;
use crate::ptr;
use crate::state::{finish, finish_quiet};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int};

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
pub(crate) fn entry(name: &str, f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    let r = guard(name, err::SYS_ERR, || finish(name, f()));
    dispatch_handlers();
    r
}

/// Like [`entry`], but the codes in `quiet` only set `pvm_errno` (libpvm
/// does not print them for these calls).
pub(crate) fn entry_quiet(name: &str, quiet: &[i32], f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    let r = guard(name, err::SYS_ERR, || match f() {
        Err(PvmError(c)) if quiet.contains(&c) => finish_quiet(Err(PvmError(c))),
        r => finish(name, r),
    });
    dispatch_handlers();
    r
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
