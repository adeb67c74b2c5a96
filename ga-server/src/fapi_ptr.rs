//! Every raw-pointer conversion of the GA Fortran API and the Fortran MA:
//! arguments passed by reference, user buffers, `CHARACTER` arguments with
//! their hidden lengths, the addresses of the MA base arrays, and the
//! memory MA hands out. Each conversion checks for NULL and size overflow.

use std::ffi::{c_char, c_void, CStr};

/// Reads one argument passed by reference; `None` for NULL.
pub fn read<T: Copy>(p: *const T) -> Option<T> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; Fortran passes every argument as a valid reference.
    Some(unsafe { p.read_unaligned() })
}

/// Writes one output argument; `false` for NULL.
pub fn write<T: Copy>(p: *mut T, v: T) -> bool {
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; Fortran passes every output argument as a valid reference.
    unsafe { p.write_unaligned(v) };
    true
}

/// Input and output array arguments: `None` for NULL (unless empty),
/// misaligned, or a size that cannot exist.
pub use shim_core::ptr::{slice, slice_mut};

/// A `CHARACTER` argument as text: its full Fortran length, cut at a NUL,
/// trailing blanks removed.
pub fn fstring(p: *const c_char, len: usize) -> String {
    let Some(s) = slice(p as *const u8, len) else {
        return String::new();
    };
    let s = s.split(|&b| b == 0).next().unwrap_or(&[]);
    let end = s.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    String::from_utf8_lossy(&s[..end]).into_owned()
}

/// Writes `text` to a `CHARACTER` output argument, blank-padded or cut to
/// its Fortran length.
pub fn put_fstring(p: *mut c_char, len: usize, text: &str) {
    if let Some(out) = slice_mut(p as *mut u8, len) {
        let b = text.as_bytes();
        let n = b.len().min(len);
        out[..n].copy_from_slice(&b[..n]);
        out[n..].fill(b' ');
    }
}

extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// The address the running program uses for the global data symbol
/// `name`: the executable's own copy when it defines one (a Fortran
/// `COMMON` block), else the library's; 0 if there is none.
pub fn global_address(name: &CStr) -> usize {
    // SAFETY: RTLD_DEFAULT (a NULL handle) searches the global scope in
    // load order; `name` is NUL-terminated.
    unsafe { dlsym(std::ptr::null_mut(), name.as_ptr()) as usize }
}

/// A zeroed allocation of `size` bytes (at least 1) aligned to `align`
/// (a power of two); NULL when the system has no memory.
pub fn alloc_zeroed(size: usize, align: usize) -> *mut u8 {
    match std::alloc::Layout::from_size_align(size.max(1), align) {
        // SAFETY: the layout has a non-zero size.
        Ok(l) => unsafe { std::alloc::alloc_zeroed(l) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Frees what [`alloc_zeroed`] returned for the same `size` and `align`.
pub fn free(p: *mut u8, size: usize, align: usize) {
    if p.is_null() {
        return;
    }
    if let Ok(l) = std::alloc::Layout::from_size_align(size.max(1), align) {
        // SAFETY: `p` came from `alloc_zeroed` with this same layout, and
        // the MA registry frees each block once.
        unsafe { std::alloc::dealloc(p, l) };
    }
}

/// Starts a non-blocking get into the user's buffer of `len` bytes at
/// `buf` (which Fortran keeps alive until the matching wait).
pub fn nb_get(
    g: crate::core::Handle,
    lo: &[i64],
    hi: &[i64],
    buf: *mut u8,
    len: usize,
    ld: &[i64],
) -> crate::core::GaResult<i64> {
    // SAFETY: GA's contract for nga_nbget: the buffer stays valid and
    // untouched until nga_nbwait (or a true nga_nbtest) on the handle, which
    // is later than the get's end (before `nb_get` returns); `len` is the
    // span the patch and ld need, checked by the caller.
    let b = unsafe { crate::ptr::user_slice_mut(buf, len) };
    crate::core::nb_get(g, lo, hi, b, ld)
}
