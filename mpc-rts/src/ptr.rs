//! Every raw-pointer conversion of the run-time's C API. A NULL or
//! misaligned pointer where memory is needed gives `None`, which callers
//! report naming the call and the argument. Also the communicator handle
//! the C API hands out by address ([`HeldComm`]).

use shim_core::mpi::RawComm;
use std::ffi::c_char;

/// An MPI communicator handle at an address that stays put while the
/// value lives, for a C function that hands out a pointer to it
/// (`HMPI_Get_comm`).
pub struct HeldComm(Box<RawComm>);

// SAFETY: the boxed communicator is an opaque MPI handle, usable from any
// thread (MPI runs with thread support); it is never dereferenced here.
unsafe impl Send for HeldComm {}

impl HeldComm {
    /// Keeps `c`.
    pub fn new(c: RawComm) -> HeldComm {
        HeldComm(Box::new(c))
    }

    /// The handle.
    pub fn get(&self) -> RawComm {
        *self.0
    }

    /// Where the handle is, valid while the value lives.
    pub fn as_ptr(&self) -> *const RawComm {
        &*self.0
    }
}

/// `n` readable or writable elements at `p`; NULL is fine only for `n` 0.
pub use shim_core::ptr::{slice, slice_mut};

/// The value at `p`.
pub fn read<T: Copy>(p: *const T) -> Option<T> {
    slice(p, 1).map(|s| s[0])
}

/// A reference to the value at `p`.
pub fn get<'a, T>(p: *const T) -> Option<&'a T> {
    slice(p, 1).map(|s| &s[0])
}

/// Stores `v` at `p`.
pub fn write<T>(p: *mut T, v: T) -> Option<()> {
    slice_mut(p, 1).map(|s| s[0] = v)
}

/// Copies `s` into `buf` of `len` bytes, truncated and NUL-terminated.
pub fn write_cstr(buf: *mut c_char, len: usize, s: &str) -> Option<()> {
    let out = slice_mut(buf as *mut u8, len)?;
    let n = s.len().min(len.checked_sub(1)?);
    out[..n].copy_from_slice(&s.as_bytes()[..n]);
    out[n] = 0;
    Some(())
}
