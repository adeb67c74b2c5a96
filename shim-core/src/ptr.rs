//! Every raw-pointer conversion of the crate's C API, each checked for NULL.

use std::ffi::{c_char, c_void, CStr};

/// A read-only byte buffer argument; NULL is allowed only with length 0.
pub fn bytes<'a>(p: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; the C API contract requires `len` readable bytes that
    // stay valid and unmodified for the call.
    Some(unsafe { std::slice::from_raw_parts(p as *const u8, len) })
}

/// A writable byte buffer argument; NULL is allowed only with length 0.
pub fn bytes_mut<'a>(p: *mut c_void, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; the C API contract requires `len` writable bytes,
    // not aliased elsewhere, valid for the call.
    Some(unsafe { std::slice::from_raw_parts_mut(p as *mut u8, len) })
}

/// Writes an optional out-parameter (NULL means the caller does not want it).
pub fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-NULL; the C API contract requires a valid, aligned,
        // writable pointer when one is given.
        unsafe { p.write(v) };
    }
}

/// A pointer to a static NUL-terminated text.
pub fn static_text(s: &'static CStr) -> *const c_char {
    s.as_ptr()
}
