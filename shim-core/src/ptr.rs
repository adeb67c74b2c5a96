//! Every raw-pointer conversion of the crate's C API, and the checked
//! conversions every layer's C and Fortran ABI shares: a NULL, misaligned
//! or impossibly large argument gives `None` (or is skipped for an optional
//! out-parameter), so each layer reports it with its own error code.
//!
//! The functions take pointers straight from C and Fortran entry points,
//! where the memory contract is the caller's (as for [`crate::cstr`]); so
//! they are not `unsafe fn`, like each layer's private pointer conversions.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::{c_char, c_void, CStr};

/// Whether `n` elements of `T` at `p` can be a real array: non-NULL,
/// aligned for `T`, and no more than `isize::MAX` bytes.
fn usable<T>(p: *const T, n: usize) -> bool {
    !p.is_null()
        && p.is_aligned()
        && n.checked_mul(std::mem::size_of::<T>())
            .is_some_and(|b| b <= isize::MAX as usize)
}

/// `n` readable elements of `T` at `p`; NULL is allowed only with `n` 0.
pub fn slice<'a, T>(p: *const T, n: usize) -> Option<&'a [T]> {
    if n == 0 {
        return Some(&[]);
    }
    if !usable(p, n) {
        return None;
    }
    // SAFETY: non-NULL, aligned and of a size that can exist; the calling
    // ABI's contract gives `n` initialised elements that stay valid and
    // unmodified for the call.
    Some(unsafe { std::slice::from_raw_parts(p, n) })
}

/// `n` writable elements of `T` at `p`; NULL is allowed only with `n` 0.
pub fn slice_mut<'a, T>(p: *mut T, n: usize) -> Option<&'a mut [T]> {
    if n == 0 {
        return Some(&mut []);
    }
    if !usable(p as *const T, n) {
        return None;
    }
    // SAFETY: non-NULL, aligned and of a size that can exist; the calling
    // ABI's contract gives `n` writable elements, not aliased elsewhere,
    // valid for the call.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// A read-only byte buffer argument; NULL is allowed only with length 0.
pub fn bytes<'a>(p: *const c_void, len: usize) -> Option<&'a [u8]> {
    slice(p as *const u8, len)
}

/// A writable byte buffer argument; NULL is allowed only with length 0.
pub fn bytes_mut<'a>(p: *mut c_void, len: usize) -> Option<&'a mut [u8]> {
    slice_mut(p as *mut u8, len)
}

/// Reads an argument passed by address; `None` for NULL or misaligned.
pub fn get<T: Copy>(p: *const T) -> Option<T> {
    slice(p, 1).map(|s| s[0])
}

/// Writes an argument passed by address; `false` for NULL or misaligned.
pub fn set<T>(p: *mut T, v: T) -> bool {
    slice_mut(p, 1).map(|s| s[0] = v).is_some()
}

/// Writes an optional out-parameter (NULL means the caller does not want it).
pub fn put<T>(p: *mut T, v: T) {
    set(p, v);
}

/// A user buffer that an asynchronous call keeps until it completes (an
/// Express `exreceive`, a TCGMSG asynchronous `SND`/`RCV` until `WAITCOM`).
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
    /// otherwise accessed) until the operation completes: the legacy
    /// API's contract for asynchronous calls. NULL is allowed only with
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
        // SAFETY: non-NULL with `len` bytes that stay valid until the
        // operation completes (the promise of `UserBuf::new`).
        unsafe { std::slice::from_raw_parts(self.addr as *const u8, self.len) }
    }

    /// The buffer as a writable slice, for delivering a message into it.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: non-NULL with `len` bytes that stay valid and unaliased
        // until the operation completes (the promise of `UserBuf::new`);
        // the layer delivers at most one message into it.
        unsafe { std::slice::from_raw_parts_mut(self.addr as *mut u8, self.len) }
    }
}

/// A pointer to a static NUL-terminated text.
pub fn static_text(s: &'static CStr) -> *const c_char {
    s.as_ptr()
}

/// The bytes of a slice of reduction numbers, to be read and written in
/// place (native byte order).
pub fn elems_as_bytes_mut<T: crate::collective::Element>(x: &mut [T]) -> &mut [u8] {
    let n = std::mem::size_of_val(x);
    // SAFETY: `Element` is sealed to i32, i64, f32 and f64, which have no
    // padding and for which every byte pattern is a valid value; the bytes
    // cover exactly the borrowed slice, which stays borrowed mutably.
    unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut u8, n) }
}
