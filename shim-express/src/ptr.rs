//! Every raw-pointer conversion of the Express C and Fortran ABI. A NULL
//! pointer where memory is needed gives `None`, which the callers report
//! with the call's and argument's name.

use std::ffi::c_int;

/// A user buffer an asynchronous call keeps until it completes.
pub use shim_core::ptr::UserBuf;

/// An `int` an asynchronous receive writes when it completes.
#[derive(Clone, Copy, Debug)]
pub struct OutInt(usize);

impl OutInt {
    /// Records `p`.
    ///
    /// # Safety
    /// `p` must stay valid for writing until the receive completes.
    pub unsafe fn new(p: *mut c_int) -> Option<OutInt> {
        (!p.is_null()).then_some(OutInt(p as usize))
    }

    /// Stores `v`.
    pub fn set(self, v: i32) {
        // SAFETY: non-NULL and valid until completion (promise of `new`).
        unsafe { *(self.0 as *mut c_int) = v }
    }
}

/// Buffers, values passed by address and arrays, NULL-checked.
pub use shim_core::ptr::{bytes, bytes_mut, get, set};

/// An array of `n` ints.
pub fn ints<'a>(p: *const c_int, n: usize) -> Option<&'a [i32]> {
    shim_core::ptr::slice(p, n)
}

/// A writable array of `n` ints.
pub fn ints_mut<'a>(p: *mut c_int, n: usize) -> Option<&'a mut [i32]> {
    shim_core::ptr::slice_mut(p, n)
}
