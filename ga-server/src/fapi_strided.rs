//! The strided transfers of the GA Fortran API: `nga_strided_put`,
//! `nga_strided_get` and `nga_strided_acc` (gfortran conventions, `INTEGER`
//! of 8 bytes, 1-based column-major indices). Each moves every `skip(d)`-th
//! element of the patch `lo:hi`, starting at `lo`; the buffer holds the
//! selection densely with leading dimensions `ld(1:ndim-1)` counting
//! selected elements.
//!
//! Bad input (invalid handle, patch outside the array, skip below 1, `ld`
//! too small, a type that cannot accumulate) ends the job as `ga_error`
//! does, with a message naming the routine.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::{self, Strided};
use crate::fapi::{entry, fail, fail_core, ints, Arr};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::FInt;
use std::ffi::c_void;

#[allow(clippy::too_many_arguments)]
fn strided(
    call: &'static str,
    kind: Strided,
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    skip: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    alpha: *const c_void,
) {
    let a = Arr::get(call, g_a);
    let n = a.ndim();
    let (lo, hi) = a.patch_n(call, lo, hi);
    let skip: Vec<i64> = ints(call, skip, n).iter().rev().copied().collect();
    let ld: Vec<i64> = ints(call, ld, n.saturating_sub(1))
        .iter()
        .rev()
        .copied()
        .collect();
    let len =
        core::strided_len(call, a.h, &lo, &hi, &skip, &ld).unwrap_or_else(|e| fail_core(call, e));
    let r = match kind {
        Strided::Get => {
            let b = ptr::slice_mut(buf as *mut u8, len)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            core::strided(call, kind, a.h, &lo, &hi, &skip, &[], Some(b), &ld, &[])
        }
        Strided::Put => {
            let b = ptr::slice(buf as *const u8, len)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            core::strided(call, kind, a.h, &lo, &hi, &skip, b, None, &ld, &[])
        }
        Strided::Acc => {
            let b = ptr::slice(buf as *const u8, len)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            let al = a.value(call, alpha);
            core::strided(call, kind, a.h, &lo, &hi, &skip, b, None, &ld, al)
        }
    };
    r.unwrap_or_else(|e| fail_core(call, e))
}

/// `subroutine nga_strided_put(g_a, lo, hi, skip, buf, ld)`: copies `buf`
/// into every `skip(d)`-th element of the patch `lo:hi`.
#[no_mangle]
pub extern "C" fn nga_strided_put_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    skip: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
) {
    entry("nga_strided_put", || {
        let b = buf as *mut c_void;
        strided(
            "nga_strided_put",
            Strided::Put,
            g_a,
            lo,
            hi,
            skip,
            b,
            ld,
            std::ptr::null(),
        )
    })
}

/// `subroutine nga_strided_get(g_a, lo, hi, skip, buf, ld)`: copies every
/// `skip(d)`-th element of the patch `lo:hi` into `buf`.
#[no_mangle]
pub extern "C" fn nga_strided_get_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    skip: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
) {
    entry("nga_strided_get", || {
        strided(
            "nga_strided_get",
            Strided::Get,
            g_a,
            lo,
            hi,
            skip,
            buf,
            ld,
            std::ptr::null(),
        )
    })
}

/// `subroutine nga_strided_acc(g_a, lo, hi, skip, buf, ld, alpha)`: adds
/// `alpha*buf` to every `skip(d)`-th element of the patch, atomically.
#[no_mangle]
pub extern "C" fn nga_strided_acc_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    skip: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    alpha: *const c_void,
) {
    entry("nga_strided_acc", || {
        let b = buf as *mut c_void;
        strided(
            "nga_strided_acc",
            Strided::Acc,
            g_a,
            lo,
            hi,
            skip,
            b,
            ld,
            alpha,
        )
    })
}
