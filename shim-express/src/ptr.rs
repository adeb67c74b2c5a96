//! Every raw-pointer conversion of the Express C and Fortran ABI. A NULL
//! pointer where memory is needed gives `None`, which the callers report
//! with the call's and argument's name.

use std::ffi::{c_int, c_void};

/// A user buffer an asynchronous receive keeps until it completes.
#[derive(Clone, Copy, Debug)]
pub struct UserBuf {
    addr: usize,
    len: usize,
}

impl UserBuf {
    /// Records `len` bytes at `p`.
    ///
    /// # Safety
    /// The memory must stay valid, writable and otherwise unused until the
    /// receive completes (Express's contract for `exreceive`). NULL is
    /// allowed only with `len` 0.
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

    /// The buffer as a writable slice, for delivering a message into it.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: non-NULL with `len` bytes that stay valid and unaliased
        // until the receive completes (the promise of `UserBuf::new`); one
        // message at most is delivered into it.
        unsafe { std::slice::from_raw_parts_mut(self.addr as *mut u8, self.len) }
    }
}

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
    // SAFETY: non-NULL; the caller's contract gives `len` writable bytes,
    // not otherwise accessed during the call.
    Some(unsafe { std::slice::from_raw_parts_mut(p as *mut u8, len) })
}

/// Reads an `int` argument passed by address.
pub fn get(p: *const c_int) -> Option<i32> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the caller passes the address of an int.
    Some(unsafe { *p })
}

/// Writes an `int` passed by address; false when it is NULL.
pub fn set(p: *mut c_int, v: i32) -> bool {
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; the caller passes the address of a writable int.
    unsafe { *p = v };
    true
}

/// An array of `n` ints.
pub fn ints<'a>(p: *const c_int, n: usize) -> Option<&'a [i32]> {
    if n == 0 {
        return Some(&[]);
    }
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the caller's contract gives `n` readable ints.
    Some(unsafe { std::slice::from_raw_parts(p, n) })
}

/// A writable array of `n` ints.
pub fn ints_mut<'a>(p: *mut c_int, n: usize) -> Option<&'a mut [i32]> {
    if n == 0 {
        return Some(&mut []);
    }
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the caller's contract gives `n` writable ints.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}
