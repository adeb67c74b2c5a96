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

use crate::capi::{ints, resolve_handle, twins, Buf, CBuf};
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

#[allow(clippy::too_many_arguments)]
fn strided<I: CIndex>(
    call: &'static str,
    kind: Strided,
    g: c_int,
    lo: *const I,
    hi: *const I,
    skip: *const I,
    buf: *const c_void,
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
                let b = ptr::bytes_mut(buf.cast_mut(), len).ok_or_else(null)?;
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

twins! {
    /// Copies the buffer into every `skip[d]`-th element of the patch
    /// `lo..=hi` of `g`; returns nothing, and ends the job through `GA_Error`
    /// on bad input (see the module header).
    fn NGA_Strided_put / NGA_Strided_put64
        (g: c_int, lo: Ix, hi: Ix, skip: Ix, buf: CBuf, ld: Ix)
        = strided[Strided::Put][std::ptr::null()];
}

twins! {
    /// Copies every `skip[d]`-th element of the patch `lo..=hi` of `g` into the
    /// buffer; returns nothing, and ends the job through `GA_Error` on bad input.
    fn NGA_Strided_get / NGA_Strided_get64
        (g: c_int, lo: Ix, hi: Ix, skip: Ix, buf: Buf, ld: Ix)
        = strided[Strided::Get][std::ptr::null()];
}

twins! {
    /// Adds `alpha·buf` to every `skip[d]`-th element of the patch `lo..=hi` of
    /// `g`, atomically per owner; returns nothing, and ends the job through
    /// `GA_Error` on bad input (including a type GA cannot accumulate).
    fn NGA_Strided_acc / NGA_Strided_acc64
        (g: c_int, lo: Ix, hi: Ix, skip: Ix, buf: CBuf, ld: Ix, alpha: CBuf)
        = strided[Strided::Acc][];
}
