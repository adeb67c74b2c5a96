//! The pack, unpack, scan, enumeration and selection routines of the GA
//! Fortran API, in their `ga_` and `nga_` spellings (the two take the same
//! arguments): `pack`, `unpack`, `scan_add`, `scan_copy`, `patch_enum` and
//! `nga_select_elem`, over [`crate::ops::pack_scan`]. Ranges are 1-based,
//! as Fortran indexes: `lo` and `hi` of the 1-D arrays, the start of the
//! packed array at element 1, the subscript `index(ndim)` of the selected
//! element in Fortran order. All are collective subroutines; a bad
//! argument ends the job as `ga_error` does, naming the routine.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::GaError;
use crate::fapi::{entry, fail, fail_core, int, ints_mut, out, to_f, Arr};
use crate::fapi_elementwise::routines;
use crate::fapi_ptr as ptr;
use crate::ma_fortran::FInt;
use crate::ops::pack_scan::{self as ps, Direction, Scan, Select};
use std::ffi::{c_char, c_void};

/// The result of an operation, or the end of the job with its error.
fn done<R>(call: &str, r: Result<R, GaError>) -> R {
    r.unwrap_or_else(|e| fail_core(call, e))
}

/// The 1-based range `lo..hi` in the core's 0-based terms.
fn range(call: &str, lo: *const FInt, hi: *const FInt) -> (i64, i64) {
    (int(call, lo) - 1, int(call, hi) - 1)
}

#[allow(clippy::too_many_arguments)]
fn moved(
    c: &'static str,
    dir: Direction,
    g_src: *const FInt,
    g_dst: *const FInt,
    g_mask: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    icount: *mut FInt,
) {
    let (l, h) = range(c, lo, hi);
    let (s, d, m) = (Arr::get(c, g_src), Arr::get(c, g_dst), Arr::get(c, g_mask));
    out(c, icount, done(c, ps::pack(c, dir, s.h, d.h, m.h, l, h)))
}

routines!(
    "`subroutine ga_pack(g_src, g_dst, g_mask, lo, hi, icount)`: the elements of `g_src(lo:hi)` \
     whose mask is not zero go, in order, to `g_dst(1:icount)`."
    [ga_pack_, nga_pack_]
    (g_src: *const FInt, g_dst: *const FInt, g_mask: *const FInt, lo: *const FInt, hi: *const FInt, icount: *mut FInt)
    |c| moved(c, Direction::Pack, g_src, g_dst, g_mask, lo, hi, icount)
);
routines!(
    "`subroutine ga_unpack(g_src, g_dst, g_mask, lo, hi, icount)`: `g_src(1:icount)` goes, in \
     order, to the elements of `g_dst(lo:hi)` whose mask is not zero."
    [ga_unpack_, nga_unpack_]
    (g_src: *const FInt, g_dst: *const FInt, g_mask: *const FInt, lo: *const FInt, hi: *const FInt, icount: *mut FInt)
    |c| moved(c, Direction::Unpack, g_src, g_dst, g_mask, lo, hi, icount)
);

/// A scan over `lo..hi`: `scan_add` with `excl`, `scan_copy` without.
fn scan(
    c: &'static str,
    g: [*const FInt; 3],
    lo: *const FInt,
    hi: *const FInt,
    excl: Option<*const FInt>,
) {
    let (l, h) = range(c, lo, hi);
    let [a, b, s] = g.map(|x| Arr::get(c, x).h);
    let kind = match excl {
        Some(e) => Scan::Add {
            exclusive: int(c, e) != 0,
        },
        None => Scan::Copy,
    };
    done(c, ps::scan(c, kind, a, b, s, l, h))
}

routines!(
    "`subroutine ga_scan_add(g_a, g_b, g_sbit, lo, hi, excl)`: segmented sums of `g_a(lo:hi)`, \
     a segment starting at each set bit (exclusive sums when `excl` is not 0)."
    [ga_scan_add_, nga_scan_add_]
    (g_a: *const FInt, g_b: *const FInt, g_sbit: *const FInt, lo: *const FInt, hi: *const FInt, excl: *const FInt)
    |c| scan(c, [g_a, g_b, g_sbit], lo, hi, Some(excl))
);
routines!(
    "`subroutine ga_scan_copy(g_a, g_b, g_sbit, lo, hi)`: each element of `g_b(lo:hi)` = `g_a` \
     at the last set bit at or before it."
    [ga_scan_copy_, nga_scan_copy_]
    (g_a: *const FInt, g_b: *const FInt, g_sbit: *const FInt, lo: *const FInt, hi: *const FInt)
    |c| scan(c, [g_a, g_b, g_sbit], lo, hi, None)
);
routines!(
    "`subroutine ga_patch_enum(g_a, lo, hi, start, inc)`: `g_a(i) = start + (i - lo) * inc` \
     (`start` and `inc` of the array's type)."
    [ga_patch_enum_, nga_patch_enum_]
    (g_a: *const FInt, lo: *const FInt, hi: *const FInt, start: *const c_void, inc: *const c_void)
    |c| {
        let (l, h) = range(c, lo, hi);
        let a = Arr::get(c, g_a);
        done(c, ps::patch_enum(c, a.h, l, h, a.value(c, start), a.value(c, inc)))
    }
);

/// `subroutine nga_select_elem(g_a, op, val, index)`: `val` = the largest
/// (`op` 'max') or smallest ('min') element of `g_a`, `index(ndim)` its
/// subscript (among equals, the first in Fortran's column-major order).
#[no_mangle]
pub extern "C" fn nga_select_elem_(
    g_a: *const FInt,
    op: *const c_char,
    val: *mut c_void,
    index: *mut FInt,
    oplen: usize,
) {
    const C: &str = "nga_select_elem";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let sel = done(C, Select::parse(C, &ptr::fstring(op, oplen)));
        let (v, at) = done(C, ps::select_elem(C, a.h, sel));
        let dst = ptr::slice_mut(val as *mut u8, v.len())
            .unwrap_or_else(|| fail(C, "val is missing (NULL)"));
        dst.copy_from_slice(&v);
        ints_mut(C, index, at.len()).copy_from_slice(&to_f(&at));
    })
}
