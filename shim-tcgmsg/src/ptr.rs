//! Every raw-pointer conversion of the C and Fortran ABI. A NULL pointer
//! where TCGMSG needs memory gives `None`, which the callers report as an
//! error naming the call and argument.

use std::ffi::{c_char, c_void};

/// A user buffer that an asynchronous `SND`/`RCV` keeps until `WAITCOM`.
#[derive(Clone, Copy, Debug)]
pub struct UserBuf {
    addr: usize,
    len: usize,
}

impl UserBuf {
    /// Records `len` bytes at `p`.
    ///
    /// # Safety
    /// The memory must stay valid (and, for a receive, writable and not
    /// otherwise accessed) until the operation is completed by `WAITCOM`:
    /// TCGMSG's contract for asynchronous calls. NULL is allowed only with
    /// `len` 0.
    pub unsafe fn new(p: *mut c_void, len: usize) -> Option<UserBuf> {
        if (p.is_null() && len > 0) || len > isize::MAX as usize {
            return None;
        }
        Some(UserBuf {
            addr: p as usize,
            len,
        })
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Start address.
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// The buffer as a read-only slice, for sending from it.
    pub fn as_slice(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: non-NULL with `len` bytes that stay valid until WAITCOM
        // (the promise of `UserBuf::new`).
        unsafe { std::slice::from_raw_parts(self.addr as *const u8, self.len) }
    }

    /// The buffer as a writable slice, for delivering a message into it.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: non-NULL with `len` bytes that stay valid and unaliased
        // until WAITCOM (the promise of `UserBuf::new`); the layer delivers
        // at most one message into it.
        unsafe { std::slice::from_raw_parts_mut(self.addr as *mut u8, self.len) }
    }
}

/// A read-only byte buffer argument; NULL only with length 0.
pub fn bytes<'a>(p: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; the caller's contract gives `len` readable bytes
    // that stay valid for the call.
    Some(unsafe { std::slice::from_raw_parts(p as *const u8, len) })
}

/// A writable byte buffer argument; NULL only with length 0.
pub fn bytes_mut<'a>(p: *mut c_void, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; the caller's contract gives `len` writable,
    // unaliased bytes valid for the call.
    Some(unsafe { std::slice::from_raw_parts_mut(p as *mut u8, len) })
}

/// An array of `n` elements of `T`, writable; NULL only with `n` 0.
pub fn slice_mut<'a, T>(p: *mut T, n: usize) -> Option<&'a mut [T]> {
    if n == 0 {
        return Some(&mut []);
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<T>())? > isize::MAX as usize {
        return None;
    }
    if !p.is_aligned() {
        return None;
    }
    // SAFETY: non-NULL and aligned; the caller's contract gives `n`
    // writable, unaliased elements valid for the call.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// Reads an integer argument passed by reference.
pub fn get<T: Copy>(p: *const T) -> Option<T> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the caller's contract gives a valid, aligned value.
    Some(unsafe { p.read() })
}

/// Writes an out-argument (NULL: the caller does not want it).
pub fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-NULL; the caller's contract gives a valid, aligned,
        // writable location.
        unsafe { p.write(v) };
    }
}

/// A NUL-terminated C string argument (bytes, not necessarily UTF-8).
pub use shim_core::cstr::bytes as c_bytes;

/// A Fortran `CHARACTER` argument of hidden length `len`.
pub fn f_chars<'a>(p: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    bytes(p as *const c_void, len)
}
