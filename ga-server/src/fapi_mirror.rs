//! Mirrored arrays in the GA Fortran API: `ga_is_mirrored`,
//! `ga_merge_mirrored` (each with its `nga_` spelling) and
//! `nga_merge_distr_patch(g_a, alo, ahi, g_b, blo, bhi)`, over
//! [`crate::mirror`]. Arrays are mirrored when made on the group
//! `ga_pgroup_get_mirror()` (0). The merges are collective over every
//! compute rank; a bad argument ends the job as `ga_error` does.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::GaError;
use crate::fapi::{entry, fail_core, int, resolve, Arr};
use crate::ma_fortran::FInt;
use crate::mirror;

fn done<R>(call: &str, r: Result<R, GaError>) -> R {
    r.unwrap_or_else(|e| fail_core(call, e))
}

/// `ga_is_mirrored(g_a)`: 1 if `g_a` was made on the mirror group, else 0.
#[no_mangle]
pub extern "C" fn ga_is_mirrored_(g_a: *const FInt) -> FInt {
    const C: &str = "ga_is_mirrored";
    entry(C, || {
        let h = resolve(C, int(C, g_a));
        FInt::from(done(C, mirror::is_mirrored(C, h)))
    })
}

/// As `ga_is_mirrored`.
#[no_mangle]
pub extern "C" fn nga_is_mirrored_(g_a: *const FInt) -> FInt {
    ga_is_mirrored_(g_a)
}

/// `ga_merge_mirrored(g_a)`: every copy becomes the sum of all copies.
#[no_mangle]
pub extern "C" fn ga_merge_mirrored_(g_a: *const FInt) {
    const C: &str = "ga_merge_mirrored";
    entry(C, || {
        let h = resolve(C, int(C, g_a));
        done(C, mirror::merge(C, h))
    })
}

/// As `ga_merge_mirrored`.
#[no_mangle]
pub extern "C" fn nga_merge_mirrored_(g_a: *const FInt) {
    ga_merge_mirrored_(g_a)
}

/// `nga_merge_distr_patch(g_a, alo, ahi, g_b, blo, bhi)`: the patch of the
/// ordinary `g_b` becomes the sum over all copies of the patch of the
/// mirrored `g_a` (1-based bounds, same shape).
#[no_mangle]
#[rustfmt::skip]
pub extern "C" fn nga_merge_distr_patch_(g_a: *const FInt, alo: *const FInt, ahi: *const FInt, g_b: *const FInt, blo: *const FInt, bhi: *const FInt) {
    const C: &str = "nga_merge_distr_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let b = Arr::get(C, g_b);
        let (al, ah) = a.patch_n(C, alo, ahi);
        let (bl, bh) = b.patch_n(C, blo, bhi);
        done(
            C,
            mirror::merge_distr_patch(C, a.h, (&al, &ah), b.h, (&bl, &bh)),
        )
    })
}
