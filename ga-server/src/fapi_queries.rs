//! The GA Fortran API's remaining inquiries and small services: handle
//! checks (`ga_check_handle`, `ga_verify_handle`), the debug flag, the
//! dimension count, blocks per dimension, how many processes own a patch,
//! the number of blocks a patch meets, the masked and message syncs,
//! printing a patch, the proc-grid flag, the version and timer, the
//! ghost-update set-up calls, and the names GA 5.8 gives routines that do
//! what another does (`ga_matmul`, `nga_matmul_patch_alt`,
//! `ga_copy_patch_dp`, `ga_ddot_patch_dp`, `ga_get_array_name`). Each
//! behaves as its C counterpart in [`crate::capi`], in Fortran terms
//! (1-based patches, Fortran dimension order).

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::capi;
use crate::core;
use crate::fapi::{
    entry, fail, fail_core, flog, ga_inquire_name_, ga_valid_handle_, ga_wtime_, int, ints,
    ints_mut, out, region_common, Arr, TRUE,
};
use crate::fapi_ops::{done, ga_copy_patch_, ga_ddot_patch_, ga_matmul_patch_, nga_matmul_patch_};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::{FInt, FLog};
use crate::ops;
use std::ffi::{c_char, c_void};

/// An `INTEGER` argument (by reference).
type In = *const FInt;

/// Defines `$new` as `$old` with the same arguments and result.
macro_rules! synonym {
    ($($new:ident => $old:ident ($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {$(
        #[doc = concat!("As `", stringify!($old), "`.")]
        #[no_mangle]
        pub extern "C" fn $new($($a: $t),*) $(-> $r)? {
            $old($($a),*)
        }
    )*};
}
pub(crate) use synonym;

/// `subroutine ga_check_handle(g_a, string)`: returns if `g_a` names an
/// array; otherwise ends the job with `string` (the caller's context) in
/// the message.
#[no_mangle]
pub extern "C" fn ga_check_handle_(g_a: *const FInt, string: *const c_char, len: usize) {
    const C: &str = "ga_check_handle";
    entry(C, || {
        if ga_valid_handle_(g_a) != TRUE {
            let g = ptr::read(g_a).unwrap_or_default();
            fail(
                C,
                format!("{}: invalid array handle {g}", ptr::fstring(string, len)),
            );
        }
    })
}

/// `integer ga_verify_handle(g_a)`: 1 if `g_a` names an array, else 0.
#[no_mangle]
pub extern "C" fn ga_verify_handle_(g_a: *const FInt) -> FInt {
    FInt::from(ga_valid_handle_(g_a) == TRUE)
}

/// `logical ga_get_debug()`: the flag `ga_set_debug` set (`.false.` at
/// first).
#[no_mangle]
pub extern "C" fn ga_get_debug_() -> FLog {
    flog(capi::GA_Get_debug() != 0)
}

/// `subroutine ga_set_debug(flag)`: sets the debug flag (it changes no
/// behaviour here).
#[no_mangle]
pub extern "C" fn ga_set_debug_(flag: *const FLog) {
    entry("ga_set_debug", || {
        let f = ptr::read(flag).unwrap_or_else(|| fail("ga_set_debug", "flag is missing (NULL)"));
        capi::GA_Set_debug((f != 0).into())
    })
}

/// `integer ga_get_dimension(g_a)`: the number of dimensions.
#[no_mangle]
pub extern "C" fn ga_get_dimension_(g_a: *const FInt) -> FInt {
    entry("ga_get_dimension", || {
        Arr::get("ga_get_dimension", g_a).ndim() as FInt
    })
}

/// `subroutine ga_nblock(g_a, nblock)`: `nblock(d)` = the number of blocks
/// the distribution cuts Fortran dimension d into.
#[no_mangle]
pub extern "C" fn ga_nblock_(g_a: *const FInt, nblock: *mut FInt) {
    const C: &str = "ga_nblock";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (blocks, _) = core::block_grid(a.h).unwrap_or_else(|e| fail_core(C, e));
        let o = ints_mut(C, nblock, a.ndim());
        for (o, b) in o.iter_mut().zip(blocks.iter().rev()) {
            *o = *b;
        }
    })
}

/// `np` = how many processes own part of the Fortran patch `corners`
/// gives for the array; `.false.` (and 0) if it is not inside the array.
fn owners(
    call: &'static str,
    g_a: *const FInt,
    np: *mut FInt,
    corners: impl FnOnce(&Arr) -> (Vec<i64>, Vec<i64>),
) -> FLog {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let (lo, hi) = corners(&a);
        let n = region_common(call, &a, &lo, &hi).map(|r| r.len() as i64);
        out(call, np, n.unwrap_or(0));
        flog(n.is_some())
    })
}

/// `logical ga_locate_nnodes(g_a, ilo, ihi, jlo, jhi, np)`: `np` = the
/// number of processes owning part of the patch of a 2-D array; `.false.`
/// if the patch is not inside the array.
#[no_mangle]
pub extern "C" fn ga_locate_nnodes_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    np: *mut FInt,
) -> FLog {
    const C: &str = "ga_locate_nnodes";
    owners(C, g_a, np, |a| {
        if a.ndim() != 2 {
            fail(
                C,
                format!("g_a '{}' is not 2-D; use nga_locate_nnodes", a.name()),
            );
        }
        let ends = |p: *const FInt, q: *const FInt| vec![int(C, p), int(C, q)];
        (ends(ilo, jlo), ends(ihi, jhi))
    })
}

/// `logical nga_locate_nnodes(g_a, lo, hi, np)`: as `ga_locate_nnodes`
/// for an array of any dimension.
#[no_mangle]
pub extern "C" fn nga_locate_nnodes_(g_a: In, lo: In, hi: In, np: *mut FInt) -> FLog {
    const C: &str = "nga_locate_nnodes";
    owners(C, g_a, np, |a| {
        let n = a.ndim();
        (ints(C, lo, n).to_vec(), ints(C, hi, n).to_vec())
    })
}

/// `integer nga_locate_num_blocks(g_a, lo, hi)`: the number of blocks the
/// patch meets.
#[no_mangle]
pub extern "C" fn nga_locate_num_blocks_(g_a: In, lo: In, hi: In) -> FInt {
    const C: &str = "nga_locate_num_blocks";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_n(C, lo, hi);
        core::locate_region(a.h, &lo, &hi)
            .unwrap_or_else(|e| fail_core(C, e))
            .len() as FInt
    })
}

/// `subroutine ga_mask_sync(first, last)`: `ga_sync` (the masks choose
/// among GA's internal barriers; both halves are always done here).
#[no_mangle]
pub extern "C" fn ga_mask_sync_(_first: *const FInt, _last: *const FInt) {
    entry("ga_mask_sync", || {
        core::sync().unwrap_or_else(|e| fail_core("ga_mask_sync", e))
    })
}

/// `subroutine ga_msg_sync()`: a barrier of the compute ranks.
#[no_mangle]
pub extern "C" fn ga_msg_sync_() {
    entry("ga_msg_sync", || {
        core::sync().unwrap_or_else(|e| fail_core("ga_msg_sync", e))
    })
}

/// Process 0 prints the patch `patch` reads and checks (collective);
/// `pretty` as in `ga_print_patch`.
fn print_patch(
    call: &'static str,
    g_a: *const FInt,
    pretty: *const FInt,
    patch: impl FnOnce(&Arr) -> (Vec<i64>, Vec<i64>),
) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let (lo, hi) = patch(&a);
        let p = int(call, pretty) != 0;
        done(call, ops::print::print_patch(call, a.h, &lo, &hi, p))
    })
}

/// `subroutine ga_print_patch(g_a, ilo, ihi, jlo, jhi, pretty)`: process 0
/// prints the 2-D patch; `pretty` 1 prints labelled columns as `ga_print`
/// does, 0 one `name(i,j) = value` line per element.
#[no_mangle]
pub extern "C" fn ga_print_patch_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    pretty: *const FInt,
) {
    const C: &str = "ga_print_patch";
    print_patch(C, g_a, pretty, |a| a.patch_2d(C, ilo, ihi, jlo, jhi))
}

/// `subroutine nga_print_patch(g_a, lo, hi, pretty)`: as `ga_print_patch`
/// for an array of any dimension.
#[no_mangle]
pub extern "C" fn nga_print_patch_(g_a: In, lo: In, hi: In, pretty: In) {
    const C: &str = "nga_print_patch";
    print_patch(C, g_a, pretty, |a| a.patch_n(C, lo, hi))
}

/// `logical ga_uses_proc_grid(g_a)`: `.false.`, as `GA_Uses_proc_grid`
/// answers; an invalid handle ends the job.
#[no_mangle]
pub extern "C" fn ga_uses_proc_grid_(g_a: *const FInt) -> FLog {
    entry("ga_uses_proc_grid", || {
        Arr::get("ga_uses_proc_grid", g_a);
        flog(false)
    })
}

/// `subroutine ga_version(major, minor, patch)`: the GA version this
/// library stands in for, 5.8.0.
#[no_mangle]
pub extern "C" fn ga_version_(major: *mut FInt, minor: *mut FInt, patch: *mut FInt) {
    const C: &str = "ga_version";
    entry(C, || {
        out(C, major, 5);
        out(C, minor, 8);
        out(C, patch, 0);
    })
}

/// `double precision ga_timer()`: seconds since an arbitrary moment, as
/// `ga_wtime`.
#[no_mangle]
pub extern "C" fn ga_timer_() -> f64 {
    ga_wtime_()
}

/// `logical ga_set_ghost_info(g_a)`, `ga_set_update4_info`,
/// `ga_set_update5_info`: GA precomputes its update schedules here; every
/// update method here needs none, so these check the handle and return
/// `.true.`.
macro_rules! ghost_setup {
    ($($name:ident),*) => {$(
        #[doc = concat!("`", stringify!($name), "`: see `ghost_setup!`.")]
        #[no_mangle]
        pub extern "C" fn $name(g_a: *const FInt) -> FLog {
            let call = stringify!($name);
            entry(call, || Arr::get(call.trim_end_matches('_'), g_a).h);
            TRUE
        }
    )*};
}

ghost_setup!(
    ga_set_ghost_info_,
    nga_set_ghost_info_,
    ga_set_update4_info_,
    nga_set_update4_info_,
    ga_set_update5_info_,
    nga_set_update5_info_
);

synonym! {
    nga_check_handle_ => ga_check_handle_(g_a: *const FInt, string: *const c_char, len: usize);
    nga_verify_handle_ => ga_verify_handle_(g_a: *const FInt) -> FInt;
    nga_get_debug_ => ga_get_debug_() -> FLog;
    nga_set_debug_ => ga_set_debug_(flag: *const FLog);
    nga_get_dimension_ => ga_get_dimension_(g_a: *const FInt) -> FInt;
    nga_nblock_ => ga_nblock_(g_a: *const FInt, nblock: *mut FInt);
    nga_mask_sync_ => ga_mask_sync_(first: *const FInt, last: *const FInt);
    nga_msg_sync_ => ga_msg_sync_();
    nga_uses_proc_grid_ => ga_uses_proc_grid_(g_a: *const FInt) -> FLog;
    nga_version_ => ga_version_(major: *mut FInt, minor: *mut FInt, patch: *mut FInt);
    nga_timer_ => ga_timer_() -> f64;
    ga_get_array_name_ => ga_inquire_name_(g_a: *const FInt, name: *mut c_char, namelen: usize);
    nga_get_array_name_ => ga_inquire_name_(g_a: *const FInt, name: *mut c_char, namelen: usize);
    ga_matmul_ => ga_matmul_patch_(transa: *const c_char, transb: *const c_char,
        alpha: *const c_void, beta: *const c_void, g_a: *const FInt, ailo: *const FInt,
        aihi: *const FInt, ajlo: *const FInt, ajhi: *const FInt, g_b: *const FInt,
        bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt, bjhi: *const FInt,
        g_c: *const FInt, cilo: *const FInt, cihi: *const FInt, cjlo: *const FInt,
        cjhi: *const FInt, lta: usize, ltb: usize);
    nga_matmul_patch_alt_ => nga_matmul_patch_(transa: *const c_char, transb: *const c_char,
        alpha: *const c_void, beta: *const c_void, g_a: *const FInt, alo: *const FInt,
        ahi: *const FInt, g_b: *const FInt, blo: *const FInt, bhi: *const FInt,
        g_c: *const FInt, clo: *const FInt, chi: *const FInt, lta: usize, ltb: usize);
    ga_copy_patch_dp_ => ga_copy_patch_(trans: *const c_char, g_a: *const FInt,
        ailo: *const FInt, aihi: *const FInt, ajlo: *const FInt, ajhi: *const FInt,
        g_b: *const FInt, bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt,
        bjhi: *const FInt, ltrans: usize);
    ga_ddot_patch_dp_ => ga_ddot_patch_(g_a: *const FInt, ta: *const c_char, ailo: *const FInt,
        aihi: *const FInt, ajlo: *const FInt, ajhi: *const FInt, g_b: *const FInt,
        tb: *const c_char, bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt,
        bjhi: *const FInt, lta: usize, ltb: usize) -> f64;
}
