//! Reading C strings passed to any layer's C ABI: the one place in mpbridge
//! that turns a `const char *` into Rust bytes or text. Every function
//! checks for NULL; the string must be NUL-terminated and stay valid for the
//! call, as every legacy API requires of its callers.
//!
//! The functions take pointers straight from C entry points, where that
//! contract is the C caller's; so they are not `unsafe fn`, like each
//! layer's private pointer conversions.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::{c_char, CStr};

/// The bytes of a C string (without the NUL, not necessarily UTF-8);
/// `None` for NULL.
pub fn bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the calling API's contract requires a
    // NUL-terminated string that stays valid for the call.
    Some(unsafe { CStr::from_ptr(p) }.to_bytes())
}

/// A C string as UTF-8 text; `None` for NULL or invalid UTF-8.
pub fn text<'a>(p: *const c_char) -> Option<&'a str> {
    bytes(p).and_then(|b| std::str::from_utf8(b).ok())
}

/// A C string as owned text, invalid UTF-8 replaced; `None` for NULL.
pub fn lossy(p: *const c_char) -> Option<String> {
    bytes(p).map(|b| String::from_utf8_lossy(b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_and_strings() {
        assert_eq!(bytes(std::ptr::null()), None);
        assert_eq!(text(std::ptr::null()), None);
        assert_eq!(lossy(std::ptr::null()), None);
        assert_eq!(bytes(c"abc".as_ptr()), Some(&b"abc"[..]));
        assert_eq!(text(c"abc".as_ptr()), Some("abc"));
        assert_eq!(text(c"".as_ptr()), Some(""));
        let bad = c"a\xffb";
        assert_eq!(bytes(bad.as_ptr()), Some(&b"a\xffb"[..]));
        assert_eq!(text(bad.as_ptr()), None);
        assert_eq!(lossy(bad.as_ptr()).as_deref(), Some("a\u{fffd}b"));
    }
}
