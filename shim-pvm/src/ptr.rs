//! Every raw-pointer conversion of the PVM C and Fortran ABI, each checked
//! for NULL and size overflow before use.

use std::ffi::{c_char, c_int};

/// A C string argument as bytes; `None` for NULL.
pub use shim_core::cstr::bytes as c_str;

/// Elements spanned by `nitem` items every `stride`-th element.
fn span(nitem: usize, stride: usize) -> Option<usize> {
    if nitem == 0 {
        return Some(0);
    }
    (nitem - 1).checked_mul(stride)?.checked_add(1)
}

/// The elements `nitem` strided items read from `p`.
pub fn items<'a, T>(p: *const T, nitem: usize, stride: usize) -> Option<&'a [T]> {
    let n = span(nitem, stride)?;
    if n == 0 {
        return Some(&[]);
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<T>())? > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; PVM's API requires `p` to hold the strided items.
    Some(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The elements `nitem` strided items are written to at `p`.
pub fn items_mut<'a, T>(p: *mut T, nitem: usize, stride: usize) -> Option<&'a mut [T]> {
    let n = span(nitem, stride)?;
    if n == 0 {
        return Some(&mut []);
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<T>())? > isize::MAX as usize {
        return None;
    }
    // SAFETY: non-NULL; PVM's API requires `p` to have room for the strided items.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// Packed native bytes of `nitem` items of `size` bytes every `stride`-th
/// item from address `addr` (an in-place buffer read at send time).
pub fn read_strided(addr: usize, size: usize, nitem: usize, stride: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size * nitem);
    let Some(all) = span(nitem, stride).and_then(|n| n.checked_mul(size)) else {
        return out;
    };
    if addr == 0 || all == 0 {
        return out;
    }
    // SAFETY: the address was recorded from a user pointer when packing in
    // place; PVM's contract is that the memory stays valid until the send.
    let mem = unsafe { std::slice::from_raw_parts(addr as *const u8, all) };
    for i in 0..nitem {
        out.extend_from_slice(&mem[i * stride * size..i * stride * size + size]);
    }
    out
}

/// `len` bytes of the caller's memory at `addr`, where they lie (an
/// in-place buffer's contiguous region, sent straight from there).
pub fn region<'a>(addr: usize, len: usize) -> &'a [u8] {
    if addr == 0 || len == 0 || len > isize::MAX as usize {
        return &[];
    }
    // SAFETY: the address and length were recorded from a user pointer
    // when packing in place (checked then by `items`); PVM's contract is
    // that the memory stays valid and unchanged until the send returns,
    // and the view is used only during the send.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len) }
}

/// The caller's memory for in-place send buffers: gathered by copy, or
/// viewed where it lies.
pub const IN_PLACE: crate::ops::InPlaceMemory<'static> = crate::ops::InPlaceMemory {
    gather: &read_strided,
    view: &region,
};

/// Writes an optional int out-parameter (NULL = not wanted).
pub fn put(p: *mut c_int, v: c_int) {
    if !p.is_null() {
        // SAFETY: non-NULL; the caller passes a valid int pointer.
        unsafe { p.write(v) };
    }
}

/// Writes `bytes` and a NUL to a caller's char buffer (PVM's `upkstr` has
/// no bound; the caller must have room).
pub fn put_c_string(p: *mut c_char, bytes: &[u8]) -> bool {
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; PVM's contract is that the buffer holds the string.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len());
        *p.add(bytes.len()) = 0;
    }
    true
}

/// Writes a pointer out-parameter.
pub fn put_ptr<T>(p: *mut *mut T, v: *mut T) {
    if !p.is_null() {
        // SAFETY: non-NULL; the caller passes a valid pointer-to-pointer.
        unsafe { p.write(v) };
    }
}

/// Reads a `struct timeval` argument as a duration; `None` for NULL.
pub fn timeval(p: *const libc::timeval) -> Option<Option<std::time::Duration>> {
    if p.is_null() {
        return Some(None);
    }
    // SAFETY: non-NULL; the caller passes a valid timeval.
    let tv = unsafe { p.read() };
    if tv.tv_sec < 0 || tv.tv_usec < 0 {
        return None;
    }
    let d = std::time::Duration::from_secs(tv.tv_sec as u64)
        + std::time::Duration::from_micros(tv.tv_usec as u64);
    Some(Some(d))
}

/// Writes a `struct timeval`.
pub fn put_timeval(p: *mut libc::timeval, d: std::time::Duration) -> bool {
    if p.is_null() {
        return false;
    }
    let tv = libc::timeval {
        tv_sec: d.as_secs() as libc::time_t,
        tv_usec: d.subsec_micros() as libc::suseconds_t,
    };
    // SAFETY: non-NULL; the caller passes a valid timeval.
    unsafe { p.write(tv) };
    true
}

/// Reads the C global `pvm_errno`.
pub fn errno() -> c_int {
    // SAFETY: a plain int global; see `set_errno`.
    unsafe { std::ptr::addr_of!(crate::errors::pvm_errno).read() }
}

/// Sets the C global `pvm_errno`.
pub fn set_errno(code: c_int) {
    // SAFETY: a plain int global, written from the (serialised) PVM calls;
    // C programs read it between calls.
    unsafe { *std::ptr::addr_of_mut!(crate::errors::pvm_errno) = code };
}

/// Raises `signum` in this process; false if the signal is invalid.
pub fn raise_signal(signum: i32) -> bool {
    // SAFETY: raise() has no memory preconditions; an invalid signal
    // number only makes it fail.
    unsafe { libc::raise(signum) == 0 }
}

extern "C" fn exit_zero() {
    // Other layers may still be joined (GA never leaves): finish them and
    // the MPI this library started, or the launcher sees a crash.
    shim_core::lifecycle::finish_process();
    shim_core::exit_status::record(0);
    // SAFETY: flushing every C stream, then ending the process at once.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(0);
    }
}

/// After `pvm_exit` the process is no longer part of the parallel job: its
/// exit status must not make the MPI launcher abort the tasks still
/// running (PVM programs often `exit(1)` after `pvm_exit`), so the process
/// ends with status 0 when it exits.
pub fn detach_exit_status() {
    // SAFETY: registering a handler with the C runtime.
    unsafe { libc::atexit(exit_zero) };
}

/// Plain numeric data: no padding, and every byte pattern is a valid value,
/// so a slice of it can be seen as its bytes (in native order).
pub trait Plain: Copy {}

macro_rules! plain {
    ($($t:ty),*) => { $(impl Plain for $t {})* };
}
plain!(u8, i16, u16, i32, u32, i64, u64, f32, f64);
// A pair of plain values has no padding between or after its elements.
impl<T: Plain> Plain for [T; 2] {}

/// The native bytes of a slice of plain values.
pub fn bytes_of<T: Plain>(s: &[T]) -> &[u8] {
    // SAFETY: `Plain` types have no padding bytes; the byte view covers
    // exactly the slice's memory and lives as long as the borrow.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const u8, std::mem::size_of_val(s)) }
}

/// The native bytes of a slice of plain values, writable.
pub fn bytes_of_mut<T: Plain>(s: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `bytes_of`; any bytes written form valid `Plain` values.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut u8, std::mem::size_of_val(s)) }
}

/// Size of a transparent huge page (x86-64 and most Linux systems).
pub const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the 2 MiB-aligned part of `v`'s allocation with
/// huge pages: from the next page fault on, and with `convert` also the
/// pages already in use. Large message buffers on huge pages copy faster and
/// cost MPI's single-copy transfer far less page pinning. Advice only: the
/// contents stay, and a kernel without huge pages leaves the memory as it is.
pub fn prefer_huge_pages(v: &mut Vec<u8>, convert: bool) {
    let start = v.as_mut_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = start.saturating_add(v.capacity()) / HUGE_PAGE * HUGE_PAGE;
    if v.capacity() == 0 || end <= first {
        return;
    }
    let (addr, len) = (first as *mut std::ffi::c_void, end - first);
    // SAFETY: [first, end) lies inside the allocation `v` owns (its
    // capacity), which nothing else uses during the call; this advice keeps
    // the memory's contents, so no value changes. A failure only means the
    // advice was not taken.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::madvise(addr, len, libc::MADV_HUGEPAGE)
    };
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if convert {
        // SAFETY: as above; collapsing moves pages into huge pages with
        // their contents.
        unsafe { libc::madvise(addr, len, libc::MADV_COLLAPSE) };
    }
    let _ = (addr, len, convert);
}

/// An empty buffer with room for at least `bytes`, laid out for huge pages
/// (see [`prefer_huge_pages`]).
pub fn huge_storage(bytes: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes.saturating_add(HUGE_PAGE));
    prefer_huge_pages(&mut v, false);
    v
}
