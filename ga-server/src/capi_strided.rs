//! The strided transfers of the GA C ABI: `NGA_Strided_put`, `_get` and
//! `_acc` and their `int64_t` forms. They move every `skip[d]`-th element
//! of the patch `lo..=hi` (0-based, C order, starting at `lo`); the user's
//! buffer holds the selected elements densely, its leading dimensions `ld`
//! (ndim−1 entries) counting selected elements. A NULL `ld` means a buffer
//! shaped exactly like the selection.
//!
//! Errors end the job through `GA_Error` with a message naming the call:
//! an invalid handle, a patch outside the array, a skip below 1, an `ld`
//! smaller than the selection, a NULL `lo`, `hi`, `skip`, buffer or alpha,
//! or an accumulate on a type GA cannot add. No panic crosses into C.

use crate::capi::resolve_handle;
use crate::capi_ptr::{self as ptr, CIndex};
use crate::core::{self, GaError, GaResult, Strided};
use shim_core::ffi_guard::guard;
use std::ffi::{c_int, c_void};

fn run(call: &'static str, f: impl FnOnce() -> GaResult<()>) {
    let r = guard(call, Err(GaError::new(call, "internal error")), f);
    if let Err(e) = r {
        core::abort(&e.to_string(), 0)
    }
}

fn ints<I: CIndex>(call: &'static str, what: &str, p: *const I, n: usize) -> GaResult<Vec<i64>> {
    ptr::ints(p, n).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
}

#[allow(clippy::too_many_arguments)]
fn strided<I: CIndex>(
    call: &'static str,
    kind: Strided,
    g: c_int,
    lo: *const I,
    hi: *const I,
    skip: *const I,
    buf: *mut c_void,
    ld: *const I,
    alpha: *const c_void,
) {
    run(call, || {
        let h = resolve_handle(g);
        let (ty, dims) = core::inquire(h)
            .map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?;
        let n = dims.len();
        let lo = ints(call, "lo", lo, n)?;
        let hi = ints(call, "hi", hi, n)?;
        let skip = ints(call, "skip", skip, n)?;
        let ld = if ld.is_null() {
            // Dense: the selection's own shape.
            (1..n)
                .map(|d| {
                    if skip[d] >= 1 && hi[d] >= lo[d] {
                        (hi[d] - lo[d]) / skip[d] + 1
                    } else {
                        1
                    }
                })
                .collect()
        } else {
            ints(call, "ld", ld, n.saturating_sub(1))?
        };
        let len = core::strided_len(call, h, &lo, &hi, &skip, &ld)?;
        let null = || GaError::new(call, "the buffer is NULL");
        match kind {
            Strided::Get => {
                let b = ptr::bytes_mut(buf, len).ok_or_else(null)?;
                core::strided(call, kind, h, &lo, &hi, &skip, &[], Some(b), &ld, &[])
            }
            Strided::Put => {
                let b = ptr::bytes(buf, len).ok_or_else(null)?;
                core::strided(call, kind, h, &lo, &hi, &skip, b, None, &ld, &[])
            }
            Strided::Acc => {
                let b = ptr::bytes(buf, len).ok_or_else(null)?;
                let a = ptr::bytes(alpha, ty.size())
                    .ok_or_else(|| GaError::new(call, "alpha is NULL"))?;
                core::strided(call, kind, h, &lo, &hi, &skip, b, None, &ld, a)
            }
        }
    })
}

/// Copies the buffer into every `skip[d]`-th element of the patch
/// `lo..=hi` of `g`; returns nothing, and ends the job through `GA_Error`
/// on bad input (see the module header).
#[no_mangle]
pub extern "C" fn NGA_Strided_put(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    skip: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
) {
    let b = buf as *mut c_void;
    strided(
        "NGA_Strided_put",
        Strided::Put,
        g,
        lo,
        hi,
        skip,
        b,
        ld,
        std::ptr::null(),
    )
}

/// `NGA_Strided_put` with 64-bit indices; returns nothing, fails alike.
#[no_mangle]
pub extern "C" fn NGA_Strided_put64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    skip: *const i64,
    buf: *const c_void,
    ld: *const i64,
) {
    let b = buf as *mut c_void;
    strided(
        "NGA_Strided_put64",
        Strided::Put,
        g,
        lo,
        hi,
        skip,
        b,
        ld,
        std::ptr::null(),
    )
}

/// Copies every `skip[d]`-th element of the patch `lo..=hi` of `g` into the
/// buffer; returns nothing, and ends the job through `GA_Error` on bad input.
#[no_mangle]
pub extern "C" fn NGA_Strided_get(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    skip: *const c_int,
    buf: *mut c_void,
    ld: *const c_int,
) {
    strided(
        "NGA_Strided_get",
        Strided::Get,
        g,
        lo,
        hi,
        skip,
        buf,
        ld,
        std::ptr::null(),
    )
}

/// `NGA_Strided_get` with 64-bit indices; returns nothing, fails alike.
#[no_mangle]
pub extern "C" fn NGA_Strided_get64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    skip: *const i64,
    buf: *mut c_void,
    ld: *const i64,
) {
    strided(
        "NGA_Strided_get64",
        Strided::Get,
        g,
        lo,
        hi,
        skip,
        buf,
        ld,
        std::ptr::null(),
    )
}

/// Adds `alpha·buf` to every `skip[d]`-th element of the patch `lo..=hi` of
/// `g`, atomically per owner; returns nothing, and ends the job through
/// `GA_Error` on bad input (including a type GA cannot accumulate).
#[no_mangle]
pub extern "C" fn NGA_Strided_acc(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    skip: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    alpha: *const c_void,
) {
    let b = buf as *mut c_void;
    strided(
        "NGA_Strided_acc",
        Strided::Acc,
        g,
        lo,
        hi,
        skip,
        b,
        ld,
        alpha,
    )
}

/// `NGA_Strided_acc` with 64-bit indices; returns nothing, fails alike.
#[no_mangle]
pub extern "C" fn NGA_Strided_acc64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    skip: *const i64,
    buf: *const c_void,
    ld: *const i64,
    alpha: *const c_void,
) {
    let b = buf as *mut c_void;
    strided(
        "NGA_Strided_acc64",
        Strided::Acc,
        g,
        lo,
        hi,
        skip,
        b,
        ld,
        alpha,
    )
}
