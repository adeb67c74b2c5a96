//! Pointer conversions over mapped shared memory: views of a mapping as
//! bytes and atomics. Every function checks that the range it touches lies
//! inside the mapping, so callers stay in safe code. The crate's other
//! pointer modules are the ABI edges (`capi_ptr`: C arguments, `fapi_ptr`:
//! Fortran arguments) and the C-library edge (`sys`).
//!
//! Also the buffers of MPI transfers that outlive the call starting them:
//! caller memory lent to a non-blocking call ([`UserBuf`], made at the C
//! entry, which holds the caller's promise that the memory stays valid
//! until the handle completed; [`send_user`], [`recv_user`]) and buffers a
//! transfer owns ([`OwnedTransfer`]). With these the request code needs no
//! `unsafe`.

use crate::sys::Mapping;
use shim_core::mpi::{Comm, InFlight};
use shim_core::CoreError;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU32};

/// Up to this many dimensions.
pub const MAX_DIM: usize = 7;

/// Calls `f(a, b)` with the element offsets of every row (all dimensions but
/// the last) of a patch of `count` elements in two layouts with strides `sa`
/// and `sb` (elements; the last dimension has stride 1 in both).
pub fn rows(count: &[usize], sa: &[usize], sb: &[usize], mut f: impl FnMut(usize, usize)) {
    let n = count.len();
    if n == 0 || count.contains(&0) {
        return;
    }
    let mut idx = [0usize; MAX_DIM];
    loop {
        let (mut a, mut b) = (0usize, 0usize);
        for d in 0..n - 1 {
            a += idx[d] * sa[d];
            b += idx[d] * sb[d];
        }
        f(a, b);
        let mut d = n - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < count[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// One past the last byte a patch touches (0 for an empty patch;
/// `usize::MAX`, beyond any buffer, if the count does not fit).
pub fn extent(off: usize, strides: &[usize], count: &[usize], elem: usize) -> usize {
    if count.is_empty() || count.contains(&0) {
        return 0;
    }
    let last = (0..count.len()).try_fold(off, |last, d| {
        (count[d] - 1)
            .checked_mul(*strides.get(d)?)
            .and_then(|x| last.checked_add(x))
    });
    last.and_then(|l| l.checked_add(1))
        .and_then(|l| l.checked_mul(elem))
        .unwrap_or(usize::MAX)
}

fn check(
    m: &Mapping,
    off: usize,
    strides: &[usize],
    count: &[usize],
    elem: usize,
) -> Result<(), String> {
    let end = extent(off, strides, count, elem);
    if end > m.len() {
        return Err(format!(
            "internal: patch ends at byte {end} beyond a {}-byte segment",
            m.len()
        ));
    }
    Ok(())
}

fn check_slice(
    len: usize,
    off: usize,
    strides: &[usize],
    count: &[usize],
    elem: usize,
) -> Result<(), String> {
    let end = extent(off, strides, count, elem);
    if end > len {
        return Err(format!(
            "the buffer holds {len} bytes but the patch needs {end}"
        ));
    }
    Ok(())
}

/// Copies a patch from `src` (element offset `soff`, strides `sstr`) into the
/// segment at element offset `off` with strides `str_`.
#[allow(clippy::too_many_arguments)]
pub fn copy_in(
    m: &Mapping,
    off: usize,
    str_: &[usize],
    src: &[u8],
    soff: usize,
    sstr: &[usize],
    count: &[usize],
    elem: usize,
) -> Result<(), String> {
    check(m, off, str_, count, elem)?;
    check_slice(src.len(), soff, sstr, count, elem)?;
    let row = count.last().copied().unwrap_or(0) * elem;
    let base = m.ptr();
    rows(count, str_, sstr, |a, b| {
        let d = (off + a) * elem;
        let s = (soff + b) * elem;
        // SAFETY: both ranges were checked above to lie inside the mapping
        // and the slice; shared memory and a user buffer never overlap.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr().add(s), base.add(d), row) };
    });
    Ok(())
}

/// Copies a patch out of the segment into `dst`.
#[allow(clippy::too_many_arguments)]
pub fn copy_out(
    m: &Mapping,
    off: usize,
    str_: &[usize],
    dst: &mut [u8],
    doff: usize,
    dstr: &[usize],
    count: &[usize],
    elem: usize,
) -> Result<(), String> {
    check(m, off, str_, count, elem)?;
    check_slice(dst.len(), doff, dstr, count, elem)?;
    let row = count.last().copied().unwrap_or(0) * elem;
    let base = m.ptr();
    let out = dst.as_mut_ptr();
    rows(count, str_, dstr, |a, b| {
        let s = (off + a) * elem;
        let d = (doff + b) * elem;
        // SAFETY: both ranges were checked above.
        unsafe { std::ptr::copy_nonoverlapping(base.add(s), out.add(d), row) };
    });
    Ok(())
}

/// Copies a patch from one place of the segment (element offset `src`,
/// strides `sstr`) to another (`dst`, `dstr`): a ghost frame filled from
/// a block of the same node.
#[allow(clippy::too_many_arguments)]
pub fn copy_between(
    m: &Mapping,
    src: usize,
    sstr: &[usize],
    dst: usize,
    dstr: &[usize],
    count: &[usize],
    elem: usize,
) -> Result<(), String> {
    check(m, src, sstr, count, elem)?;
    check(m, dst, dstr, count, elem)?;
    let row = count.last().copied().unwrap_or(0) * elem;
    let base = m.ptr();
    rows(count, sstr, dstr, |a, b| {
        // SAFETY: both ranges were checked above to lie inside the mapping;
        // `copy` allows them to overlap.
        unsafe { std::ptr::copy(base.add((src + a) * elem), base.add((dst + b) * elem), row) };
    });
    Ok(())
}

/// Runs `f(shm_row, src_row)` on every row of a patch of the segment, with the
/// segment row as a mutable byte slice (the caller holds the owner's lock).
#[allow(clippy::too_many_arguments)]
pub fn update_rows(
    m: &Mapping,
    off: usize,
    str_: &[usize],
    src: &[u8],
    soff: usize,
    sstr: &[usize],
    count: &[usize],
    elem: usize,
    mut f: impl FnMut(&mut [u8], &[u8]),
) -> Result<(), String> {
    check(m, off, str_, count, elem)?;
    check_slice(src.len(), soff, sstr, count, elem)?;
    let row = count.last().copied().unwrap_or(0) * elem;
    let base = m.ptr();
    rows(count, str_, sstr, |a, b| {
        let d = (off + a) * elem;
        let s = (soff + b) * elem;
        // SAFETY: the range was checked above; the caller holds the lock
        // that makes this process the only writer of the row meanwhile.
        let dst = unsafe { std::slice::from_raw_parts_mut(base.add(d), row) };
        f(dst, &src[s..s + row]);
    });
    Ok(())
}

/// Runs `f(shm_piece, data_piece)` on the part of a patch of the segment
/// that bytes `start..start + data.len()` of the patch's packed (row-major,
/// contiguous) form cover, with `data` holding those bytes: the pieces of the
/// rows that range meets. `start` and `data.len()` are multiples of `elem`.
/// The caller holds the owner's lock.
#[allow(clippy::too_many_arguments)]
pub fn update_range(
    m: &Mapping,
    off: usize,
    str_: &[usize],
    count: &[usize],
    elem: usize,
    start: usize,
    data: &[u8],
    mut f: impl FnMut(&mut [u8], &[u8]),
) -> Result<(), String> {
    check(m, off, str_, count, elem)?;
    let total = count.iter().product::<usize>() * elem;
    let end = start.saturating_add(data.len());
    if end > total || !start.is_multiple_of(elem.max(1)) || !end.is_multiple_of(elem.max(1)) {
        return Err(format!(
            "internal: bytes {start}..{end} of a {total}-byte patch"
        ));
    }
    let row = count.last().copied().unwrap_or(0) * elem;
    if row == 0 || data.is_empty() {
        return Ok(());
    }
    let base = m.ptr();
    let n = count.len();
    let pstr = crate::core::dist::strides_of(count);
    let first = start / row;
    let last = (end - 1) / row;
    let mut r = 0usize;
    rows(count, str_, &pstr[..n], |a, b| {
        let rb = b * elem;
        if (first..=last).contains(&r) {
            let lo = start.max(rb);
            let hi = end.min(rb + row);
            let d = (off + a) * elem + (lo - rb);
            // SAFETY: the patch was checked above to lie inside the mapping
            // and lo..hi lies inside this row; the caller holds the lock that
            // makes this process the only writer of the row meanwhile.
            let dst = unsafe { std::slice::from_raw_parts_mut(base.add(d), hi - lo) };
            f(dst, &data[lo - start..hi - start]);
        }
        r += 1;
    });
    Ok(())
}

/// A computation that can be compiled a second time for a wider instruction
/// set: `run` should be `#[inline(always)]` so its body becomes part of the
/// copy [`run_avx2`] makes.
pub trait Kernel {
    fn run(self);
}

/// Runs `k` as code compiled for AVX2 when the CPU has it, otherwise as
/// plain x86-64 (or whatever the target is) code.
pub fn run_avx2<K: Kernel>(k: K) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn with_avx2<K: Kernel>(k: K) {
            k.run()
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), which is
            // all `with_avx2` requires beyond what any caller guarantees.
            unsafe { with_avx2(k) };
            return;
        }
    }
    k.run()
}

fn atomic_at<T>(m: &Mapping, byte_off: usize) -> Result<*mut u8, String> {
    let size = std::mem::size_of::<T>();
    if byte_off + size > m.len() || !(m.ptr() as usize + byte_off).is_multiple_of(size) {
        return Err(format!("internal: misplaced atomic at byte {byte_off}"));
    }
    // SAFETY: in bounds, checked above.
    Ok(unsafe { m.ptr().add(byte_off) })
}

/// The 32-bit word at `byte_off` as an atomic.
pub fn atomic_u32(m: &Mapping, byte_off: usize) -> Result<&AtomicU32, String> {
    let p = atomic_at::<u32>(m, byte_off)?;
    // SAFETY: aligned, in bounds, and valid as long as the mapping; all
    // processes access the word atomically.
    Ok(unsafe { AtomicU32::from_ptr(p as *mut u32) })
}

/// The 32-bit integer at `byte_off` as an atomic.
pub fn atomic_i32(m: &Mapping, byte_off: usize) -> Result<&AtomicI32, String> {
    let p = atomic_at::<i32>(m, byte_off)?;
    // SAFETY: as for `atomic_u32`.
    Ok(unsafe { AtomicI32::from_ptr(p as *mut i32) })
}

/// The 64-bit integer at `byte_off` as an atomic.
pub fn atomic_i64(m: &Mapping, byte_off: usize) -> Result<&AtomicI64, String> {
    let p = atomic_at::<i64>(m, byte_off)?;
    // SAFETY: as for `atomic_u32`.
    Ok(unsafe { AtomicI64::from_ptr(p as *mut i64) })
}

/// Address of byte `byte_off` of the mapping (for `NGA_Access`).
pub fn address(m: &Mapping, byte_off: usize) -> *mut u8 {
    m.ptr().wrapping_add(byte_off.min(m.len()))
}

/// A byte slice view of `len` bytes at `ptr` handed in by a C caller.
///
/// # Safety
/// `ptr` must be valid for writes of `len` bytes for the slice's lifetime.
pub unsafe fn user_slice_mut<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 || ptr.is_null() {
        return &mut [];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// Caller memory a non-blocking call goes on using after it returned,
/// made at the C entry, whose caller promises (the API's contract) that it
/// stays valid until the handle completed: unchanged while it is sent,
/// untouched while it is received.
pub use shim_core::ptr::UserBuf;

/// Sends the bytes of `buf` to `peer` with `tag` in messages of at most
/// `chunk` bytes, pushing each transfer onto `out` as it starts.
pub fn send_user(
    buf: UserBuf,
    chunk: usize,
    (peer, tag, comm): (i32, i32, Comm),
    out: &mut Vec<InFlight>,
) -> Result<(), CoreError> {
    let mut off = 0;
    while off < buf.len() {
        let n = chunk.min(buf.len() - off);
        // SAFETY: `buf`'s promise keeps its bytes valid and unchanged until
        // the operation completed, which is after these transfers did;
        // bytes `off..off + n` lie inside it.
        let s =
            unsafe { InFlight::begin(false, (buf.addr() + off) as *mut u8, n, peer, tag, comm) }?;
        out.push(s);
        off += n;
    }
    Ok(())
}

/// Receives at most `buf.len()` bytes from `peer` with `tag` into `buf`.
pub fn recv_user(buf: UserBuf, (peer, tag, comm): (i32, i32, Comm)) -> Result<InFlight, CoreError> {
    // SAFETY: `buf`'s promise keeps its bytes valid, and untouched by
    // anyone else, until the operation completed, which is after this
    // transfer did.
    unsafe { InFlight::begin(true, buf.addr() as *mut u8, buf.len(), peer, tag, comm) }
}

/// A transfer of a buffer it owns: the buffer is freed only after the
/// transfer completed (a send waited for, a receive cancelled, on drop),
/// and is handed back only then.
pub struct OwnedTransfer {
    // Field order: the transfer ends before the buffer is dropped.
    tr: InFlight,
    buf: Vec<u8>,
}

impl OwnedTransfer {
    /// Sends all of `buf` to `peer` with `tag`.
    pub fn send(buf: Vec<u8>, (peer, tag, comm): (i32, i32, Comm)) -> Result<Self, CoreError> {
        Self::begin(false, buf, (peer, tag, comm))
    }

    /// Receives at most `buf.len()` bytes from `peer` with `tag` into `buf`.
    pub fn recv(buf: Vec<u8>, (peer, tag, comm): (i32, i32, Comm)) -> Result<Self, CoreError> {
        Self::begin(true, buf, (peer, tag, comm))
    }

    fn begin(
        recv: bool,
        mut buf: Vec<u8>,
        (peer, tag, comm): (i32, i32, Comm),
    ) -> Result<Self, CoreError> {
        // SAFETY: the buffer moves into the value with the transfer and is
        // neither touched nor freed before the transfer ended (field order,
        // `into_buf`); moving a `Vec` leaves its heap bytes in place.
        let tr = unsafe { InFlight::begin(recv, buf.as_mut_ptr(), buf.len(), peer, tag, comm) }?;
        Ok(OwnedTransfer { tr, buf })
    }

    /// One pass of MPI's progress: the byte count once the transfer
    /// completed, `None` while it runs.
    pub fn test(&mut self) -> Result<Option<usize>, CoreError> {
        self.tr.test()
    }

    /// The buffer, after the transfer ended (completed; or, if it had not,
    /// waited for or cancelled first).
    pub fn into_buf(self) -> Vec<u8> {
        let OwnedTransfer { tr, buf } = self;
        drop(tr);
        buf
    }
}

/// `len` bytes of the mapping at `byte_off` as a slice (for sending).
pub fn bytes(m: &Mapping, byte_off: usize, len: usize) -> Result<&[u8], String> {
    if byte_off.checked_add(len).is_none_or(|e| e > m.len()) {
        return Err(format!(
            "internal: bytes {byte_off}+{len} beyond the segment"
        ));
    }
    // SAFETY: in bounds (checked); the memory stays mapped while `m` lives.
    Ok(unsafe { std::slice::from_raw_parts(m.ptr().add(byte_off), len) })
}

/// Runs `f` on bytes `byte_off..byte_off + len` of the segment as a
/// writable slice (a receive straight into an array's memory).
pub fn with_bytes_mut<R>(
    m: &Mapping,
    byte_off: usize,
    len: usize,
    f: impl FnOnce(&mut [u8]) -> R,
) -> Result<R, String> {
    if byte_off.checked_add(len).is_none_or(|e| e > m.len()) {
        return Err(format!(
            "internal: bytes {byte_off}+{len} beyond the segment"
        ));
    }
    // SAFETY: in bounds (checked); the memory stays mapped while `m` is
    // borrowed, for the whole call of `f`. Other writers of the same bytes
    // at the same time are the user's race, as GA leaves concurrent puts
    // to one element undefined.
    let bytes = unsafe { std::slice::from_raw_parts_mut(m.ptr().add(byte_off), len) };
    Ok(f(bytes))
}

/// Reads a C `long` argument passed by reference; `None` for null.
pub fn read_long(p: *const std::ffi::c_long) -> Option<std::ffi::c_long> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null argument of a C caller points to a readable long.
    Some(unsafe { p.read_unaligned() })
}

/// Reads a Fortran INTEGER*8 argument; `None` for null.
pub fn read_i64(p: *const i64) -> Option<i64> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null argument of a Fortran caller points to an INTEGER*8.
    Some(unsafe { p.read_unaligned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_that_do_not_fit_are_beyond_any_buffer() {
        assert_eq!(extent(0, &[10, 1], &[2, 3], 8), (10 + 2 + 1) * 8);
        assert_eq!(extent(0, &[1], &[0], 8), 0);
        assert_eq!(extent(0, &[1 << 62, 1], &[5, 1], 8), usize::MAX);
        assert_eq!(extent(usize::MAX - 1, &[1], &[2], 1), usize::MAX);
    }
}
