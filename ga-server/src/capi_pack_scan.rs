//! The GA C ABI's pack, unpack, scans, enumeration and element selection
//! (`ga.h`): `GA_Pack`, `GA_Unpack`, `GA_Scan_add`, `GA_Scan_copy`,
//! `GA_Patch_enum` with their `int64_t` forms, and `NGA_Select_elem` /
//! `NGA_Select_elem64`, over [`crate::ops::pack_scan`]. Each is collective
//! and returns nothing; a bad argument (handle, range, shape, type,
//! operator, NULL pointer) ends the job through `GA_Error` naming the call.

use crate::capi::{run, scalar, twins};
use crate::capi_ghosts::put_ints;
use crate::capi_ptr::{self as ptr, CIndex};
use crate::core::{GaError, Handle};
use crate::ops::pack_scan::{self as ps, Direction, Scan, Select};
use std::ffi::{c_char, c_int, c_void};

fn resolve(g: c_int) -> Handle {
    crate::capi::resolve_handle(g)
}

#[allow(clippy::too_many_arguments)]
fn moved<I: CIndex>(
    call: &'static str,
    dir: Direction,
    src: c_int,
    dst: c_int,
    mask: c_int,
    lo: I,
    hi: I,
    icount: *mut I,
) {
    run(call, || {
        let (s, d, m) = (resolve(src), resolve(dst), resolve(mask));
        let n = ps::pack(call, dir, s, d, m, lo.to_i64(), hi.to_i64())?;
        put_ints(call, "icount", icount, &[n])
    })
}

twins! {
    /// Copies the elements of the 1-D `g_src` in `lo..hi` whose `g_mask`
    /// element is not zero to the start of `g_dest`, in order, and stores
    /// their number in `*icount`. Returns nothing; a bad argument (or too
    /// small a `g_dest`) ends the job through `GA_Error`.
    fn GA_Pack / GA_Pack64 (src: c_int, dst: c_int, mask: c_int, lo: IxVal, hi: IxVal, icount: IxOut)
        = moved[Direction::Pack][];
}

twins! {
    /// Spreads the elements at the start of `g_src`, in order, over the
    /// elements of `g_dest` in `lo..hi` whose `g_mask` element is not zero
    /// (the others keep their value); stores their number in `*icount`.
    /// Returns nothing; a bad argument ends the job through `GA_Error`.
    fn GA_Unpack / GA_Unpack64 (src: c_int, dst: c_int, mask: c_int, lo: IxVal, hi: IxVal, icount: IxOut)
        = moved[Direction::Unpack][];
}

/// A scan: `copy` for `GA_Scan_copy` (`excl` unused), else `GA_Scan_add`.
#[allow(clippy::too_many_arguments)]
fn scan<I: CIndex>(
    call: &'static str,
    copy: bool,
    a: c_int,
    b: c_int,
    sbit: c_int,
    lo: I,
    hi: I,
    excl: c_int,
) {
    let kind = if copy {
        Scan::Copy
    } else {
        Scan::Add {
            exclusive: excl != 0,
        }
    };
    let (a, b, s) = (resolve(a), resolve(b), resolve(sbit));
    run(call, || {
        ps::scan(call, kind, a, b, s, lo.to_i64(), hi.to_i64())
    })
}

twins! {
    /// `g_b[i]` = the sum of `g_a` from the last set bit of `g_sbit` at or
    /// before `i` in `lo..hi` up to `i` (up to the element before `i` when
    /// `excl` is not 0); elements before the first set bit are left alone.
    /// Returns nothing; a bad argument ends the job through `GA_Error`.
    fn GA_Scan_add / GA_Scan_add64 (a: c_int, b: c_int, sbit: c_int, lo: IxVal, hi: IxVal, excl: c_int)
        = scan[false][];
}

twins! {
    /// `g_b[i]` = `g_a` at the last set bit of `g_sbit` at or before `i` in
    /// `lo..hi` (zero before the first). Returns nothing; a bad argument
    /// ends the job through `GA_Error`.
    fn GA_Scan_copy / GA_Scan_copy64 (a: c_int, b: c_int, sbit: c_int, lo: IxVal, hi: IxVal)
        = scan[true][0];
}

fn patch_enum<I: CIndex>(call: &'static str, g: c_int, lo: I, hi: I, start: CVal, inc: CVal) {
    run(call, || {
        let h = resolve(g);
        let s = scalar(call, "start", start, h)?;
        let d = scalar(call, "inc", inc, h)?;
        ps::patch_enum(call, h, lo.to_i64(), hi.to_i64(), s, d)
    })
}

type CVal = *const c_void;
type CText = *const c_char;
type CValOut = *mut c_void;

twins! {
    /// `g_a[i]` = `*start + (i - lo) * *inc` for `i` in `lo..hi` (both of
    /// the array's type). Returns nothing; a bad argument ends the job
    /// through `GA_Error`.
    fn GA_Patch_enum / GA_Patch_enum64 (g: c_int, lo: IxVal, hi: IxVal, start: CVal, inc: CVal)
        = patch_enum;
}

fn select_elem<I: CIndex>(call: &'static str, g: c_int, op: CText, val: CValOut, index: *mut I) {
    run(call, || {
        let h = resolve(g);
        let text = ptr::c_str(op).ok_or_else(|| GaError::new(call, "op is NULL"))?;
        let (v, at) = ps::select_elem(call, h, Select::parse(call, &text)?)?;
        let out = ptr::bytes_mut(val, v.len()).ok_or_else(|| GaError::new(call, "val is NULL"))?;
        out.copy_from_slice(&v);
        put_ints(call, "index", index, &at)
    })
}

twins! {
    /// Stores in `*val` the largest (`op` "max") or smallest ("min")
    /// element of `g_a` and in `index[ndim]` its subscript (the first in
    /// row-major order among equals; complex values by magnitude). Returns
    /// nothing; a bad argument ends the job through `GA_Error`.
    fn NGA_Select_elem / NGA_Select_elem64 (g: c_int, op: CText, val: CValOut, index: IxOut)
        = select_elem;
}
