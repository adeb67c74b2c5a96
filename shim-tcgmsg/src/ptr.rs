//! Every raw-pointer conversion of the C and Fortran ABI. A NULL pointer
//! where TCGMSG needs memory gives `None`, which the callers report as an
//! error naming the call and argument.

use std::ffi::{c_char, c_void};

/// A user buffer an asynchronous call keeps until it completes.
pub use shim_core::ptr::UserBuf;

/// Buffers, arrays and values passed by reference, NULL-checked.
pub use shim_core::ptr::{bytes, bytes_mut, get, put, slice, slice_mut};

/// A NUL-terminated C string argument (bytes, not necessarily UTF-8).
pub use shim_core::cstr::bytes as c_bytes;

/// A Fortran `CHARACTER` argument of hidden length `len`.
pub fn f_chars<'a>(p: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    bytes(p as *const c_void, len)
}
