//! Every raw-pointer conversion of the HPF run-time's C API. A NULL or
//! misaligned pointer where memory is needed gives `None`, which the
//! callers report with the call's and argument's name.

use std::ffi::c_void;

/// A readable array of `n` elements of `T`; NULL only with `n` 0.
pub fn slice<'a, T>(p: *const c_void, n: usize) -> Option<&'a [T]> {
    shim_core::ptr::slice(p as *const T, n)
}

/// A writable array of `n` elements of `T`; NULL only with `n` 0.
pub fn slice_mut<'a, T>(p: *mut c_void, n: usize) -> Option<&'a mut [T]> {
    shim_core::ptr::slice_mut(p as *mut T, n)
}

/// Copies `n` elements of `T` from `p`.
pub fn read<T: Copy>(p: *const T, n: usize) -> Option<Vec<T>> {
    slice::<T>(p as *const c_void, n).map(|s| s.to_vec())
}

/// Stores `v` at `p`.
pub fn write<T>(p: *mut T, v: T) -> Option<()> {
    slice_mut::<T>(p as *mut c_void, 1).map(|s| s[0] = v)
}

/// Stores `vals` at `p`.
pub fn write_all<T: Copy>(p: *mut T, vals: &[T]) -> Option<()> {
    slice_mut::<T>(p as *mut c_void, vals.len()).map(|s| s.copy_from_slice(vals))
}

/// Copies the C string `s` into `buf` of `len` bytes, truncated and
/// NUL-terminated; `None` if `buf` is NULL or `len` < 1.
pub fn write_cstr(buf: *mut std::ffi::c_char, len: usize, s: &str) -> Option<()> {
    if len == 0 {
        return None;
    }
    let out = slice_mut::<u8>(buf as *mut c_void, len)?;
    let n = s.len().min(len - 1);
    out[..n].copy_from_slice(&s.as_bytes()[..n]);
    out[n] = 0;
    Some(())
}

/// Element types whose values are plain bytes: no padding, every bit
/// pattern valid (sealed: only the run-time's own element types).
pub trait PlainBytes: Copy + crate::element::Element {}
impl PlainBytes for i32 {}
impl PlainBytes for i64 {}
impl PlainBytes for f32 {}
impl PlainBytes for f64 {}
// Two floats with `repr(C)`: no padding, any bit pattern is a value.
impl PlainBytes for crate::element::Complex8 {}
impl PlainBytes for crate::element::Complex16 {}
// `repr(transparent)` over i32.
impl PlainBytes for crate::element::Logical {}

/// The bytes of `s`.
pub fn bytes<T: PlainBytes>(s: &[T]) -> &[u8] {
    let n = std::mem::size_of_val(s);
    // SAFETY: as in `bytes_mut`, read-only.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const u8, n) }
}

/// The bytes of `s`, writable (for sending and receiving element arrays
/// without copying).
pub fn bytes_mut<T: PlainBytes>(s: &mut [T]) -> &mut [u8] {
    let n = std::mem::size_of_val(s);
    // SAFETY: `T` is one of the plain numeric types above (no padding, any
    // byte pattern is a valid value); the byte view covers exactly the
    // slice and borrows it mutably for its lifetime.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut u8, n) }
}

/// Whether `na` elements of `T` at `a` and `nb` at `b` share memory.
pub fn ranges_overlap<T>(a: *const c_void, na: usize, b: *const c_void, nb: usize) -> bool {
    let size = std::mem::size_of::<T>();
    let (a, b) = (a as usize, b as usize);
    na > 0 && nb > 0 && a < b.saturating_add(nb * size) && b < a.saturating_add(na * size)
}

/// Stores `s` into the Fortran CHARACTER variable at `buf` of `len` bytes,
/// blank-padded or truncated; `None` if `buf` is NULL.
pub fn write_fstring(buf: *mut std::ffi::c_char, len: usize, s: &str) -> Option<()> {
    let out = slice_mut::<u8>(buf as *mut c_void, len)?;
    let n = s.len().min(len);
    out[..n].copy_from_slice(&s.as_bytes()[..n]);
    out[n..].fill(b' ');
    Some(())
}
