//! The element-wise and diagonal arithmetic of the GA Fortran API, in
//! their `ga_` and `nga_` spellings (the two take the same arguments):
//! `abs_value`, `add_constant`, `recip`, `elem_multiply`/`divide`/
//! `maximum`/`minimum`, `median` (each with its `_patch` form on `lo(n)`,
//! `hi(n)` patches), the step divisions `elem_step_divide_patch` and
//! `elem_stepb_divide_patch`, `scale_rows`/`cols`, the diagonal routines,
//! `norm1`, `norm_infinity`, `step_max` and `step_bound_info`, over
//! [`crate::ops::elementwise`]. Conventions as in [`crate::fapi`]:
//! 1-based column-major patches checked in the caller's terms and turned
//! into the core's C order, so Fortran's rows are the core's columns. All
//! are collective subroutines; a bad argument ends the job as `ga_error`
//! does, naming the routine.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::GaError;
use crate::fapi::{entry, fail, fail_core, Arr};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::FInt;
use crate::ops::elementwise::{self as ew, Binary};
use std::ffi::c_void;

/// The result of an operation, or the end of the job with its error.
fn done<R>(call: &str, r: Result<R, GaError>) -> R {
    r.unwrap_or_else(|e| fail_core(call, e))
}

/// Writes a `DOUBLE PRECISION` output argument.
fn out_double(call: &str, p: *mut f64, v: f64) {
    if !ptr::write(p, v) {
        fail(call, "a DOUBLE PRECISION output argument is missing (NULL)");
    }
}

/// Defines one routine under each of `names` (the `ga_` and `nga_`
/// spellings), all with the same arguments and body; `$c` is the
/// routine's name for messages.
macro_rules! routines {
    ($doc:literal [$($name:ident),+] $params:tt |$c:ident| $body:expr) => {
        $(
            #[doc = $doc]
            #[no_mangle]
            pub extern "C" fn $name $params {
                let $c: &'static str = stringify!($name).trim_end_matches('_');
                entry($c, || $body)
            }
        )+
    };
}
pub(crate) use routines;

/// A `lo(n)`, `hi(n)` patch of `g` in C order, checked.
fn patch(
    call: &str,
    g: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
) -> (Arr, Vec<i64>, Vec<i64>) {
    let a = Arr::get(call, g);
    let (l, h) = a.patch_n(call, lo, hi);
    (a, l, h)
}

routines!(
    "`subroutine ga_abs_value(g_a)`: every element = its absolute value."
    [ga_abs_value_, nga_abs_value_] (g_a: *const FInt)
    |c| done(c, ew::abs_value(c, Arr::get(c, g_a).h))
);
routines!(
    "`subroutine ga_abs_value_patch(g_a, lo, hi)`: the patch's elements = their absolute values."
    [ga_abs_value_patch_, nga_abs_value_patch_] (g_a: *const FInt, lo: *const FInt, hi: *const FInt)
    |c| {
        let (a, l, h) = patch(c, g_a, lo, hi);
        done(c, ew::abs_value_patch(c, a.h, &l, &h))
    }
);
routines!(
    "`subroutine ga_add_constant(g_a, alpha)`: every element += alpha (of the array's type)."
    [ga_add_constant_, nga_add_constant_] (g_a: *const FInt, alpha: *const c_void)
    |c| {
        let a = Arr::get(c, g_a);
        done(c, ew::add_constant(c, a.h, a.value(c, alpha)))
    }
);
routines!(
    "`subroutine ga_add_constant_patch(g_a, lo, hi, alpha)`: the patch's elements += alpha."
    [ga_add_constant_patch_, nga_add_constant_patch_]
    (g_a: *const FInt, lo: *const FInt, hi: *const FInt, alpha: *const c_void)
    |c| {
        let (a, l, h) = patch(c, g_a, lo, hi);
        done(c, ew::add_constant_patch(c, a.h, &l, &h, a.value(c, alpha)))
    }
);
routines!(
    "`subroutine ga_recip(g_a)`: every element = 1/element; a zero element is an error."
    [ga_recip_] (g_a: *const FInt)
    |c| done(c, ew::recip(c, Arr::get(c, g_a).h))
);
routines!(
    "`subroutine ga_recip_patch(g_a, lo, hi)`: the patch's elements = 1/element."
    [ga_recip_patch_, nga_recip_patch_] (g_a: *const FInt, lo: *const FInt, hi: *const FInt)
    |c| {
        let (a, l, h) = patch(c, g_a, lo, hi);
        done(c, ew::recip_patch(c, a.h, &l, &h))
    }
);

/// `g_c = g_a op g_b` on whole arrays.
fn elem(call: &'static str, op: Binary, a: *const FInt, b: *const FInt, c: *const FInt) {
    let (a, b, c2) = (Arr::get(call, a), Arr::get(call, b), Arr::get(call, c));
    done(call, ew::elem(call, op, a.h, b.h, c2.h))
}

/// `g_c = g_a op g_b` on patches.
fn elem_patch(
    call: &'static str,
    op: Binary,
    a: [*const FInt; 3],
    b: [*const FInt; 3],
    c: [*const FInt; 3],
) {
    let (pa, al, ah) = patch(call, a[0], a[1], a[2]);
    let (pb, bl, bh) = patch(call, b[0], b[1], b[2]);
    let (pc, cl, ch) = patch(call, c[0], c[1], c[2]);
    done(
        call,
        ew::elem_patch(
            call,
            op,
            (pa.h, &al, &ah),
            (pb.h, &bl, &bh),
            (pc.h, &cl, &ch),
        ),
    )
}

/// Defines the patch routine of one element-wise operation, in both
/// spellings.
macro_rules! elem_patch_routines {
    ($doc:literal [$($patch:ident),+] $op:expr) => {
        routines!(
            $doc [$($patch),+]
            (
                g_a: *const FInt, alo: *const FInt, ahi: *const FInt,
                g_b: *const FInt, blo: *const FInt, bhi: *const FInt,
                g_c: *const FInt, clo: *const FInt, chi: *const FInt
            )
            |c| elem_patch(c, $op, [g_a, alo, ahi], [g_b, blo, bhi], [g_c, clo, chi])
        );
    };
}

/// Defines the whole-array and patch routines of one element-wise
/// operation, in both spellings.
macro_rules! elem_routines {
    ($doc:literal $patch_doc:literal [$($name:ident),+] [$($patch:ident),+] $op:expr) => {
        routines!(
            $doc [$($name),+] (g_a: *const FInt, g_b: *const FInt, g_c: *const FInt)
            |c| elem(c, $op, g_a, g_b, g_c)
        );
        elem_patch_routines!($patch_doc [$($patch),+] $op);
    };
}

elem_routines!(
    "`subroutine ga_elem_multiply(g_a, g_b, g_c)`: g_c = g_a·g_b element by element."
    "`subroutine ga_elem_multiply_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`."
    [ga_elem_multiply_, nga_elem_multiply_]
    [ga_elem_multiply_patch_, nga_elem_multiply_patch_]
    Binary::Multiply
);
elem_routines!(
    "`subroutine ga_elem_divide(g_a, g_b, g_c)`: g_c = g_a/g_b element by element; a zero divisor is an error."
    "`subroutine ga_elem_divide_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`."
    [ga_elem_divide_, nga_elem_divide_]
    [ga_elem_divide_patch_, nga_elem_divide_patch_]
    Binary::Divide
);
elem_routines!(
    "`subroutine ga_elem_maximum(g_a, g_b, g_c)`: g_c = max(g_a, g_b) element by element."
    "`subroutine ga_elem_maximum_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`."
    [ga_elem_maximum_, nga_elem_maximum_]
    [ga_elem_maximum_patch_, nga_elem_maximum_patch_]
    Binary::Maximum
);
elem_routines!(
    "`subroutine ga_elem_minimum(g_a, g_b, g_c)`: g_c = min(g_a, g_b) element by element."
    "`subroutine ga_elem_minimum_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`."
    [ga_elem_minimum_, nga_elem_minimum_]
    [ga_elem_minimum_patch_, nga_elem_minimum_patch_]
    Binary::Minimum
);

elem_patch_routines!(
    "`subroutine ga_elem_step_divide_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`: c = a/b, but 1e307 (the type's largest value for integers, 1e37 for real) where b = 0, and where a = 0 that value if b >= 0, else 0; complex arrays are refused."
    [ga_elem_step_divide_patch_, nga_elem_step_divide_patch_]
    Binary::StepDivide
);
elem_patch_routines!(
    "`subroutine ga_elem_stepb_divide_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi)`: as `ga_elem_step_divide_patch`, except that where a = 0 it gives 0 if b > 0, else the infinity."
    [ga_elem_stepb_divide_patch_, nga_elem_stepb_divide_patch_]
    Binary::StepbDivide
);

routines!(
    "`subroutine ga_median(g_a, g_b, g_c, g_m)`: g_m = the median of g_a, g_b, g_c element by element."
    [ga_median_, nga_median_]
    (g_a: *const FInt, g_b: *const FInt, g_c: *const FInt, g_m: *const FInt)
    |c| {
        let [a, b, x, m] = [g_a, g_b, g_c, g_m].map(|p| Arr::get(c, p).h);
        done(c, ew::median(c, a, b, x, m))
    }
);
routines!(
    "`subroutine ga_median_patch(g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi)`."
    [ga_median_patch_, nga_median_patch_]
    (
        g_a: *const FInt, alo: *const FInt, ahi: *const FInt,
        g_b: *const FInt, blo: *const FInt, bhi: *const FInt,
        g_c: *const FInt, clo: *const FInt, chi: *const FInt,
        g_m: *const FInt, mlo: *const FInt, mhi: *const FInt
    )
    |c| {
        let (a, al, ah) = patch(c, g_a, alo, ahi);
        let (b, bl, bh) = patch(c, g_b, blo, bhi);
        let (x, xl, xh) = patch(c, g_c, clo, chi);
        let (m, ml, mh) = patch(c, g_m, mlo, mhi);
        done(
            c,
            ew::median_patch(c, (a.h, &al, &ah), (b.h, &bl, &bh), (x.h, &xl, &xh), (m.h, &ml, &mh)),
        )
    }
);

routines!(
    "`subroutine ga_scale_rows(g_a, g_v)`: row i of the 2-D g_a ×= v(i) (g_v has one element per row)."
    [ga_scale_rows_, nga_scale_rows_] (g_a: *const FInt, g_v: *const FInt)
    // Fortran's rows are the core's columns.
    |c| done(c, ew::scale_lines(c, Arr::get(c, g_a).h, Arr::get(c, g_v).h, false))
);
routines!(
    "`subroutine ga_scale_cols(g_a, g_v)`: column j of the 2-D g_a ×= v(j) (g_v has one element per column)."
    [ga_scale_cols_, nga_scale_cols_] (g_a: *const FInt, g_v: *const FInt)
    |c| done(c, ew::scale_lines(c, Arr::get(c, g_a).h, Arr::get(c, g_v).h, true))
);
routines!(
    "`subroutine ga_set_diagonal(g_a, g_v)`: a(k,k) = v(k)."
    [ga_set_diagonal_, nga_set_diagonal_] (g_a: *const FInt, g_v: *const FInt)
    |c| done(c, ew::set_diagonal(c, Arr::get(c, g_a).h, Arr::get(c, g_v).h))
);
routines!(
    "`subroutine ga_add_diagonal(g_a, g_v)`: a(k,k) += v(k)."
    [ga_add_diagonal_, nga_add_diagonal_] (g_a: *const FInt, g_v: *const FInt)
    |c| done(c, ew::add_diagonal(c, Arr::get(c, g_a).h, Arr::get(c, g_v).h))
);
routines!(
    "`subroutine ga_get_diag(g_a, g_v)`: v(k) = a(k,k)."
    [ga_get_diag_, nga_get_diag_] (g_a: *const FInt, g_v: *const FInt)
    |c| done(c, ew::get_diag(c, Arr::get(c, g_a).h, Arr::get(c, g_v).h))
);
routines!(
    "`subroutine ga_shift_diagonal(g_a, c)`: a(k,k) += c (of the array's type)."
    [ga_shift_diagonal_, nga_shift_diagonal_] (g_a: *const FInt, val: *const c_void)
    |c| {
        let a = Arr::get(c, g_a);
        done(c, ew::shift_diagonal(c, a.h, a.value(c, val)))
    }
);
routines!(
    "`subroutine ga_zero_diagonal(g_a)`: a(k,k) = 0."
    [ga_zero_diagonal_, nga_zero_diagonal_] (g_a: *const FInt)
    |c| done(c, ew::zero_diagonal(c, Arr::get(c, g_a).h))
);
routines!(
    "`subroutine ga_norm1(g_a, nm)`: nm = the sum of the magnitudes of all elements."
    [ga_norm1_, nga_norm1_] (g_a: *const FInt, nm: *mut f64)
    |c| out_double(c, nm, done(c, ew::norm1(c, Arr::get(c, g_a).h)))
);
routines!(
    "`subroutine ga_norm_infinity(g_a, nm)`: nm = the largest magnitude of an element."
    [ga_norm_infinity_, nga_norm_infinity_] (g_a: *const FInt, nm: *mut f64)
    |c| out_double(c, nm, done(c, ew::norm_infinity(c, Arr::get(c, g_a).h)))
);
routines!(
    "`subroutine ga_step_max(g_a, g_b, step)`: step = the largest s with g_a + s·g_b >= 0 (1e307 if unbounded)."
    [ga_step_max_, nga_step_max_] (g_a: *const FInt, g_b: *const FInt, step: *mut f64)
    |c| {
        let s = done(c, ew::step_max(c, Arr::get(c, g_a).h, Arr::get(c, g_b).h));
        out_double(c, step, s)
    }
);
routines!(
    "`subroutine ga_step_max_patch(g_a, alo, ahi, g_b, blo, bhi, step)`."
    [ga_step_max_patch_, nga_step_max_patch_]
    (
        g_a: *const FInt, alo: *const FInt, ahi: *const FInt,
        g_b: *const FInt, blo: *const FInt, bhi: *const FInt,
        step: *mut f64
    )
    |c| {
        let (a, al, ah) = patch(c, g_a, alo, ahi);
        let (b, bl, bh) = patch(c, g_b, blo, bhi);
        let s = done(c, ew::step_max_patch(c, (a.h, &al, &ah), (b.h, &bl, &bh)));
        out_double(c, step, s)
    }
);

/// Writes the three results of the step-bound routines.
fn out_bounds(call: &str, r: (f64, f64, f64), p: [*mut f64; 3]) {
    out_double(call, p[0], r.0);
    out_double(call, p[1], r.1);
    out_double(call, p[2], r.2);
}

routines!(
    "`subroutine ga_step_bound_info(g_xx, g_vv, g_xxll, g_xxuu, boundmin, wolfemin, boundmax)`: the smallest (boundmin = wolfemin) and largest step at which xx + s·vv meets a bound."
    [ga_step_bound_info_, nga_step_bound_info_]
    (
        g_xx: *const FInt, g_vv: *const FInt, g_xxll: *const FInt, g_xxuu: *const FInt,
        boundmin: *mut f64, wolfemin: *mut f64, boundmax: *mut f64
    )
    |c| {
        let [x, v, l, u] = [g_xx, g_vv, g_xxll, g_xxuu].map(|p| Arr::get(c, p).h);
        let r = done(c, ew::step_bound_info(c, x, v, l, u));
        out_bounds(c, r, [boundmin, wolfemin, boundmax])
    }
);
routines!(
    "`subroutine ga_step_bound_info_patch(g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll, xxlllo, xxllhi, g_xxuu, xxuulo, xxuuhi, boundmin, wolfemin, boundmax)`."
    [ga_step_bound_info_patch_, nga_step_bound_info_patch_]
    (
        g_xx: *const FInt, xxlo: *const FInt, xxhi: *const FInt,
        g_vv: *const FInt, vvlo: *const FInt, vvhi: *const FInt,
        g_xxll: *const FInt, xxlllo: *const FInt, xxllhi: *const FInt,
        g_xxuu: *const FInt, xxuulo: *const FInt, xxuuhi: *const FInt,
        boundmin: *mut f64, wolfemin: *mut f64, boundmax: *mut f64
    )
    |c| {
        let (x, xl, xh) = patch(c, g_xx, xxlo, xxhi);
        let (v, vl, vh) = patch(c, g_vv, vvlo, vvhi);
        let (l, ll, lh) = patch(c, g_xxll, xxlllo, xxllhi);
        let (u, ul, uh) = patch(c, g_xxuu, xxuulo, xxuuhi);
        let r = done(
            c,
            ew::step_bound_info_patch(c, (x.h, &xl, &xh), (v.h, &vl, &vh), (l.h, &ll, &lh), (u.h, &ul, &uh)),
        );
        out_bounds(c, r, [boundmin, wolfemin, boundmax])
    }
);
