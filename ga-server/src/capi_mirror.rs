//! The GA C ABI's mirrored arrays (`ga.h`): `GA_Merge_mirrored`,
//! `NGA_Merge_mirrored` and `NGA_Merge_distr_patch` (with its `int64_t`
//! form), over [`crate::mirror`]. Arrays are made mirrored by creating
//! them on the mirror group (`GA_Pgroup_get_mirror()`, 0), e.g. with
//! `NGA_Create_config`. Each call is collective over every compute rank;
//! a bad argument ends the job through `GA_Error` naming the call.

use crate::capi::{resolve_handle, run};
use crate::capi_ptr::{self as ptr, CIndex};
use crate::core::{self, GaError, GaResult};
use crate::mirror;
use std::ffi::c_int;

/// Adds up the copies of the mirrored `g_a` (one per node) and leaves the
/// sum in every copy; an array that is not mirrored is left alone.
/// Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Merge_mirrored(g_a: c_int) {
    const CALL: &str = "GA_Merge_mirrored";
    run(CALL, || mirror::merge(CALL, resolve_handle(g_a)))
}

/// As `GA_Merge_mirrored`.
#[no_mangle]
pub extern "C" fn NGA_Merge_mirrored(g_a: c_int) {
    const CALL: &str = "NGA_Merge_mirrored";
    run(CALL, || mirror::merge(CALL, resolve_handle(g_a)))
}

/// `lo`/`hi` of `ndim` entries each of `g`, or an error naming them.
fn bounds<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
) -> GaResult<(Vec<i64>, Vec<i64>)> {
    let (_, dims) = core::inquire(resolve_handle(g))
        .map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?;
    let n = dims.len();
    match (ptr::ints(lo, n), ptr::ints(hi, n)) {
        (Some(l), Some(h)) => Ok((l, h)),
        _ => Err(GaError::new(call, "a patch bound array is NULL")),
    }
}

fn merge_patch<I: CIndex>(
    call: &'static str,
    g_a: c_int,
    (alo, ahi): (*const I, *const I),
    g_b: c_int,
    (blo, bhi): (*const I, *const I),
) -> GaResult<()> {
    let (al, ah) = bounds(call, g_a, alo, ahi)?;
    let (bl, bh) = bounds(call, g_b, blo, bhi)?;
    mirror::merge_distr_patch(
        call,
        resolve_handle(g_a),
        (&al, &ah),
        resolve_handle(g_b),
        (&bl, &bh),
    )
}

/// Defines `NGA_Merge_distr_patch` with bounds of type `$ix`.
macro_rules! merge_distr_patch {
    ($(#[$doc:meta])* $name:ident, $ix:ty) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(g_a: c_int, alo: *const $ix, ahi: *const $ix, g_b: c_int, blo: *const $ix, bhi: *const $ix) {
            let call: &'static str = stringify!($name);
            run(call, || merge_patch(call, g_a, (alo, ahi), g_b, (blo, bhi)))
        }
    };
}

merge_distr_patch!(
    /// The patch `blo..bhi` of the ordinary array `g_b` becomes the sum
    /// over all copies of the patch `alo..ahi` of the mirrored `g_a` (same
    /// type and shape). Returns nothing.
    NGA_Merge_distr_patch,
    c_int
);
merge_distr_patch!(
    /// `NGA_Merge_distr_patch` with `int64_t` bounds. Returns nothing.
    NGA_Merge_distr_patch64,
    i64
);
