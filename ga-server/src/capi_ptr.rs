//! Every raw-pointer conversion of the GA C ABI (and of the MA C basics):
//! each checks for NULL and for size overflow before it builds a slice.
//! No other module of the C API dereferences a pointer.

use std::ffi::{c_int, c_void};

/// Largest byte count a slice may have.
const MAX_BYTES: usize = isize::MAX as usize;

/// An index type of the C API: `int` for the classic entry points,
/// `int64_t` for their `*64` variants. Values are handled as i64 inside.
pub trait CIndex: Copy {
    /// The value as i64 (always exact).
    fn to_i64(self) -> i64;
    /// `v` as this type, or `None` when it does not fit.
    fn from_i64(v: i64) -> Option<Self>;
}

impl CIndex for c_int {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(v: i64) -> Option<Self> {
        c_int::try_from(v).ok()
    }
}

impl CIndex for i64 {
    fn to_i64(self) -> i64 {
        self
    }
    fn from_i64(v: i64) -> Option<Self> {
        Some(v)
    }
}

/// Why `put_ints` wrote nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutError {
    /// The destination is NULL.
    Null,
    /// This value does not fit the destination's index type.
    TooLarge(i64),
}

/// `n` indices read from `p` as i64; `None` for NULL (with `n > 0`).
pub fn ints<I: CIndex>(p: *const I, n: usize) -> Option<Vec<i64>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<I>())? > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; GA's API requires the array to hold `n` indices
    // (ndim subscripts, ndim-1 leading dimensions, ...).
    let s = unsafe { std::slice::from_raw_parts(p, n) };
    Some(s.iter().map(|&v| v.to_i64()).collect())
}

/// Reads `out.len()` indices from `p` into `out`; false for NULL (with a
/// non-empty `out`).
pub fn ints_into<I: CIndex>(p: *const I, out: &mut [i64]) -> bool {
    if out.is_empty() {
        return true;
    }
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; GA's API requires the array to hold this many
    // indices (ndim subscripts or ndim-1 leading dimensions); out.len() <= 7.
    let s = unsafe { std::slice::from_raw_parts(p, out.len()) };
    for (o, v) in out.iter_mut().zip(s) {
        *o = v.to_i64();
    }
    true
}

/// `n` indices read from `p`, or `None` when `p` is NULL.
pub fn ints_opt<I: CIndex>(p: *const I, n: usize) -> Option<Vec<i64>> {
    if p.is_null() {
        None
    } else {
        ints(p, n)
    }
}

/// Writes `vals` to the index array at `p`. Nothing is written when `p`
/// is NULL or when a value does not fit the index type (an `int` entry
/// point asked about an array with larger extents).
pub fn put_ints<I: CIndex>(p: *mut I, vals: &[i64]) -> Result<(), PutError> {
    if vals.is_empty() {
        return Ok(());
    }
    let mut conv = Vec::with_capacity(vals.len());
    for &v in vals {
        conv.push(I::from_i64(v).ok_or(PutError::TooLarge(v))?);
    }
    if p.is_null() {
        return Err(PutError::Null);
    }
    // SAFETY: non-NULL; GA's API requires room for these values (ndim
    // entries, or 2*ndim per owner for NGA_Locate_region).
    let s = unsafe { std::slice::from_raw_parts_mut(p, vals.len()) };
    s.copy_from_slice(&conv);
    Ok(())
}

/// Writes one value through an out-parameter; false for NULL.
pub fn put_one<T>(p: *mut T, v: T) -> bool {
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; the caller passes a pointer to one writable T.
    unsafe { p.write(v) };
    true
}

/// Reads one value through a pointer; `None` for NULL.
pub fn read_one<T: Copy>(p: *const T) -> Option<T> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL; the caller passes a pointer to one readable T.
    Some(unsafe { p.read() })
}

/// `len` bytes at `p`; `None` for NULL (with `len > 0`).
pub fn bytes<'a>(p: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || len > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; GA's API requires the user's buffer to span the
    // patch as its leading dimensions describe, which is `len` bytes.
    Some(unsafe { std::slice::from_raw_parts(p as *const u8, len) })
}

/// `len` writable bytes at `p`; `None` for NULL (with `len > 0`).
pub fn bytes_mut<'a>(p: *mut c_void, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if p.is_null() || len > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; GA's API requires the user's buffer to have room
    // for the patch as its leading dimensions describe (`len` bytes).
    Some(unsafe { std::slice::from_raw_parts_mut(p as *mut u8, len) })
}

/// A C string argument (lossy UTF-8); `None` for NULL.
pub use shim_core::cstr::lossy as c_str;

/// `n` subscript arrays of `ndim` indices each, from an array of `n`
/// pointers (`int *subs[]` of NGA_Scatter/NGA_Gather, `int64_t *subs[]`
/// of their `*64` variants); `None` if any is NULL.
pub fn subs_array<I: CIndex>(p: *const *const I, n: usize, ndim: usize) -> Option<Vec<Vec<i64>>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<usize>())? > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; GA's API requires an array of `n` pointers.
    let ptrs = unsafe { std::slice::from_raw_parts(p, n) };
    ptrs.iter().map(|&q| ints(q, ndim)).collect()
}

/// `n` subscripts of `ndim` indices each stored one after another
/// (`NGA_Scatter_flat` and friends).
pub fn subs_flat<I: CIndex>(p: *const I, n: usize, ndim: usize) -> Option<Vec<Vec<i64>>> {
    let all = ints(p, n.checked_mul(ndim)?)?;
    if ndim == 0 {
        return Some(vec![Vec::new(); n]);
    }
    Some(all.chunks(ndim).map(|c| c.to_vec()).collect())
}

/// The address `offset` bytes past `base` (inside a block the core mapped).
pub fn offset_ptr(base: *mut u8, offset: usize) -> *mut c_void {
    base.wrapping_add(offset) as *mut c_void
}

/// Writes a pointer to `*(void **)p` (NGA_Access's `void *ptr` argument).
pub fn put_ptr(p: *mut c_void, v: *mut c_void) -> bool {
    put_one(p as *mut *mut c_void, v)
}

/// A mutable byte view of typed C data (for GA_Dgop and friends).
pub fn typed_mut<'a, T>(p: *mut T, n: usize) -> Option<&'a mut [T]> {
    if n == 0 {
        return Some(&mut []);
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<T>())? > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; GA's API requires `n` elements of T at `p`.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// A read-only view of `n` elements of typed C data; `None` for NULL
/// (with `n > 0`).
pub fn typed<'a, T>(p: *const T, n: usize) -> Option<&'a [T]> {
    if n == 0 {
        return Some(&[]);
    }
    if p.is_null() || n.checked_mul(std::mem::size_of::<T>())? > MAX_BYTES {
        return None;
    }
    // SAFETY: non-NULL; the API requires `n` elements of T at `p`
    // (ARMCI's I/O vectors and their pointer lists).
    Some(unsafe { std::slice::from_raw_parts(p, n) })
}

/// Writes `vals` as pointers to the array of `vals.len()` pointers at `p`
/// (ARMCI_Malloc's `void *ptrs[]`); false for NULL.
pub fn put_addrs(p: *mut *mut c_void, vals: &[usize]) -> bool {
    if vals.is_empty() {
        return true;
    }
    if p.is_null() {
        return false;
    }
    // SAFETY: non-NULL; ARMCI_Malloc requires room for one pointer per
    // process.
    let s = unsafe { std::slice::from_raw_parts_mut(p, vals.len()) };
    for (o, &v) in s.iter_mut().zip(vals) {
        *o = v as *mut c_void;
    }
    true
}

/// The address as a byte count (MA's index arithmetic).
pub fn addr<T>(p: *const T) -> usize {
    p as usize
}

/// Starts a non-blocking get into the user's buffer of `len` bytes at
/// `buf`; the core writes it until the operation completes.
pub fn nb_get_into(
    g: crate::core::Handle,
    lo: &[i64],
    hi: &[i64],
    buf: *mut c_void,
    len: usize,
    ld: &[i64],
) -> crate::core::GaResult<i64> {
    if len > 0 && buf.is_null() {
        return Err(crate::core::GaError::new("NGA_NbGet", "the buffer is NULL"));
    }
    // SAFETY: GA's contract for NGA_NbGet: the buffer holds `len` bytes (the
    // patch as `ld` describes it) and stays valid and untouched until
    // NGA_NbWait or a successful NGA_NbTest on the handle, which is later
    // than the get's end (before `nb_get` returns).
    let b = unsafe { crate::ptr::user_slice_mut(buf as *mut u8, len) };
    crate::core::nb_get(g, lo, hi, b, ld)
}

/// Flushes every C stdio stream, so what the C program printed comes out
/// before what the library prints next.
pub fn flush_c_stdio() {
    // SAFETY: fflush(NULL) flushes all open output streams; no pointer is
    // dereferenced on our side.
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
}

/// The C library's next `rand()` value (the program's own sequence, as
/// GA's `GA_Randomize` draws it).
pub fn c_rand() -> c_int {
    // SAFETY: rand() takes no arguments and touches only libc's state.
    unsafe { libc::rand() }
}

/// Writes `text` to the C stream `file` (a `FILE *` from the program) and
/// flushes it; `Err` when `file` is NULL or the stream reports an error.
pub fn write_c_file(file: *mut c_void, text: &str) -> Result<(), String> {
    if file.is_null() {
        return Err("file is NULL".into());
    }
    let f = file.cast::<libc::FILE>();
    flush_c_stdio();
    // SAFETY: `f` is the program's open stream (checked non-NULL); fwrite
    // reads exactly text.len() bytes from the string's buffer.
    let wrote = unsafe { libc::fwrite(text.as_ptr().cast::<c_void>(), 1, text.len(), f) };
    // SAFETY: as above; fflush only flushes that stream.
    let flushed = unsafe { libc::fflush(f) };
    if wrote != text.len() || flushed != 0 {
        return Err(format!(
            "writing to the file failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_is_refused_and_empty_is_fine() {
        assert!(ints(std::ptr::null::<c_int>(), 2).is_none());
        assert_eq!(ints(std::ptr::null::<i64>(), 0), Some(vec![]));
        assert!(bytes(std::ptr::null(), 8).is_none());
        assert!(c_str(std::ptr::null()).is_none());
        let v = [3, 4, 5];
        assert_eq!(ints(v.as_ptr(), 3), Some(vec![3, 4, 5]));
        let flat = subs_flat(v.as_ptr(), 1, 3).unwrap();
        assert_eq!(flat, vec![vec![3, 4, 5]]);
        let ptrs = [v.as_ptr(), v[1..].as_ptr()];
        let s = subs_array(ptrs.as_ptr(), 2, 2).unwrap();
        assert_eq!(s, vec![vec![3, 4], vec![4, 5]]);
        let w: [i64; 2] = [1 << 40, -7];
        assert_eq!(ints(w.as_ptr(), 2), Some(vec![1 << 40, -7]));
        let wp = [w.as_ptr()];
        assert_eq!(
            subs_flat(w.as_ptr(), 2, 1).unwrap(),
            vec![vec![1 << 40], vec![-7]]
        );
        assert_eq!(
            subs_array(wp.as_ptr(), 1, 2).unwrap(),
            vec![vec![1 << 40, -7]]
        );
    }

    #[test]
    fn int_outputs_refuse_values_that_do_not_fit() {
        let mut small: [c_int; 2] = [0, 0];
        assert_eq!(
            put_ints(small.as_mut_ptr(), &[5, 1 << 33]),
            Err(PutError::TooLarge(1 << 33))
        );
        assert_eq!(small, [0, 0], "nothing written");
        assert_eq!(put_ints(small.as_mut_ptr(), &[5, -6]), Ok(()));
        assert_eq!(small, [5, -6]);
        let mut wide: [i64; 2] = [0, 0];
        assert_eq!(put_ints(wide.as_mut_ptr(), &[5, 1 << 33]), Ok(()));
        assert_eq!(wide, [5, 1 << 33]);
        assert_eq!(
            put_ints(std::ptr::null_mut::<i64>(), &[1]),
            Err(PutError::Null)
        );
    }
}
