//! The GA C ABI's element-wise and diagonal arithmetic (`ga.h`):
//! `GA_Abs_value`, `GA_Add_constant`, `GA_Recip`, `GA_Elem_*`,
//! `GA_Median`, `GA_Scale_rows`/`cols`, the diagonal calls, `GA_Norm1`,
//! `GA_Norm_infinity`, `GA_Step_max` and `GA_Step_bound_info`, with their
//! `int` and `int64_t` patch forms, over [`crate::ops::elementwise`]. Each
//! is collective and returns nothing; a bad argument (handle, patch,
//! shape, type, NULL pointer, zero divisor) ends the job through
//! `GA_Error` naming the call.

use crate::capi::{bounds, one_patch, run, scalar, scalar_patch, twins, Buf, CBuf};
use crate::capi_ptr::{self as ptr, CIndex};
use crate::core::{GaError, GaResult, Handle};
use crate::ops::elementwise::{self as ew, Binary};
use std::ffi::{c_double, c_int, c_void};

fn resolve(g: c_int) -> Handle {
    crate::capi::resolve_handle(g)
}

/// Writes a double result; NULL is an error of the call.
fn put_double(call: &'static str, what: &str, p: *mut c_double, v: f64) -> GaResult<()> {
    if ptr::put_one(p, v) {
        Ok(())
    } else {
        Err(GaError::new(call, format!("{what} is NULL")))
    }
}

/// Defines a call on one array, its patch form and the patch form's
/// `int64_t` twin; `$op(call, handle, lo, hi)` does the work.
macro_rules! one_array_calls {
    ($(#[$doc:meta])* $name:ident, $patch:ident, $patch64:ident, $whole:path, $op:path) => {
        $(#[$doc])*
        /// Returns nothing; a bad handle ends the job through `GA_Error`.
        #[no_mangle]
        pub extern "C" fn $name(g: c_int) {
            run(stringify!($name), || $whole(stringify!($name), resolve(g)))
        }

        twins! {
            /// The same on the patch `lo..hi`; returns nothing, and a bad
            /// handle or patch ends the job through `GA_Error`.
            fn $patch / $patch64 (g: c_int, lo: Ix, hi: Ix) = one_patch[$op][];
        }
    };
}

one_array_calls!(
    /// Replaces every element by its absolute value (a complex element by
    /// its magnitude).
    GA_Abs_value, GA_Abs_value_patch, GA_Abs_value_patch64, ew::abs_value, ew::abs_value_patch
);
one_array_calls!(
    /// Replaces every element by its reciprocal (integers truncate); a
    /// zero element ends the job through `GA_Error`.
    GA_Recip, GA_Recip_patch, GA_Recip_patch64, ew::recip, ew::recip_patch
);

/// Adds `*alpha` (of the array's type) to every element; returns nothing.
/// A bad handle or a NULL `alpha` ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Add_constant(g: c_int, alpha: *const c_void) {
    const CALL: &str = "GA_Add_constant";
    run(CALL, || {
        let h = resolve(g);
        ew::add_constant(CALL, h, scalar(CALL, "alpha", alpha, h)?)
    })
}

twins! {
    /// Adds `*alpha` to every element of the patch `lo..hi`; returns nothing.
    /// A bad handle, patch or NULL `alpha` ends the job through `GA_Error`.
    fn GA_Add_constant_patch / GA_Add_constant_patch64 (g: c_int, lo: Ix, hi: Ix, alpha: CBuf)
        = scalar_patch["alpha", ew::add_constant_patch][];
}

#[allow(clippy::too_many_arguments)]
fn elem_patch<I: CIndex>(
    call: &'static str,
    op: Binary,
    a: c_int,
    alo: *const I,
    ahi: *const I,
    b: c_int,
    blo: *const I,
    bhi: *const I,
    c: c_int,
    clo: *const I,
    chi: *const I,
) {
    run(call, || {
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        let (al, ah) = bounds(call, a, alo, ahi)?;
        let (bl, bh) = bounds(call, b, blo, bhi)?;
        let (cl, ch) = bounds(call, c, clo, chi)?;
        ew::elem_patch(call, op, (a, &al, &ah), (b, &bl, &bh), (c, &cl, &ch))
    })
}

/// Defines an element-wise operation of two arrays (`c = a op b`), its
/// patch form and the patch form's `int64_t` twin.
macro_rules! elem_calls {
    ($(#[$doc:meta])* $name:ident, $patch:ident, $patch64:ident, $op:expr) => {
        $(#[$doc])*
        /// Arrays of one type and shape; returns nothing, and anything
        /// else ends the job through `GA_Error`.
        #[no_mangle]
        pub extern "C" fn $name(a: c_int, b: c_int, c: c_int) {
            run(stringify!($name), || {
                ew::elem(stringify!($name), $op, resolve(a), resolve(b), resolve(c))
            })
        }

        twins! {
            /// The same on patches of one shape; returns nothing, and bad
            /// handles, patches or shapes end the job through `GA_Error`.
            fn $patch / $patch64
                (a: c_int, alo: Ix, ahi: Ix, b: c_int, blo: Ix, bhi: Ix, c: c_int, clo: Ix, chi: Ix)
                = elem_patch[$op][];
        }
    };
}

elem_calls!(
    /// `c = a·b` element by element.
    GA_Elem_multiply, GA_Elem_multiply_patch, GA_Elem_multiply_patch64, Binary::Multiply
);
elem_calls!(
    /// `c = a/b` element by element (integers truncate); a zero element
    /// of `b` ends the job through `GA_Error`.
    GA_Elem_divide, GA_Elem_divide_patch, GA_Elem_divide_patch64, Binary::Divide
);
elem_calls!(
    /// `c = max(a, b)` element by element (complex values by magnitude).
    GA_Elem_maximum, GA_Elem_maximum_patch, GA_Elem_maximum_patch64, Binary::Maximum
);
elem_calls!(
    /// `c = min(a, b)` element by element (complex values by magnitude).
    GA_Elem_minimum, GA_Elem_minimum_patch, GA_Elem_minimum_patch64, Binary::Minimum
);

/// `m = median(a, b, c)` element by element (complex values by
/// magnitude); arrays of one type and shape. Returns nothing; anything
/// else ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Median(a: c_int, b: c_int, c: c_int, m: c_int) {
    const CALL: &str = "GA_Median";
    run(CALL, || {
        ew::median(CALL, resolve(a), resolve(b), resolve(c), resolve(m))
    })
}

#[allow(clippy::too_many_arguments)]
fn median_patch<I: CIndex>(
    call: &'static str,
    a: c_int,
    alo: *const I,
    ahi: *const I,
    b: c_int,
    blo: *const I,
    bhi: *const I,
    c: c_int,
    clo: *const I,
    chi: *const I,
    m: c_int,
    mlo: *const I,
    mhi: *const I,
) {
    run(call, || {
        let (a, b, c, m) = (resolve(a), resolve(b), resolve(c), resolve(m));
        let (al, ah) = bounds(call, a, alo, ahi)?;
        let (bl, bh) = bounds(call, b, blo, bhi)?;
        let (cl, ch) = bounds(call, c, clo, chi)?;
        let (ml, mh) = bounds(call, m, mlo, mhi)?;
        ew::median_patch(
            call,
            (a, &al, &ah),
            (b, &bl, &bh),
            (c, &cl, &ch),
            (m, &ml, &mh),
        )
    })
}

twins! {
    /// `GA_Median` on patches of one shape; returns nothing, and bad handles,
    /// patches or shapes end the job through `GA_Error`.
    fn GA_Median_patch / GA_Median_patch64 (a: c_int, alo: Ix, ahi: Ix, b: c_int, blo: Ix,
        bhi: Ix, c: c_int, clo: Ix, chi: Ix, m: c_int, mlo: Ix, mhi: Ix) = median_patch;
}

/// Defines a call of a matrix and a vector of its type.
macro_rules! matrix_vector_call {
    ($(#[$doc:meta])* $name:ident, |$call:ident, $a:ident, $v:ident| $body:expr) => {
        $(#[$doc])*
        /// Returns nothing; a bad handle, a matrix that is not 2-D, or a
        /// vector that is not 1-D of the matrix's type and of the right
        /// length ends the job through `GA_Error`.
        #[no_mangle]
        pub extern "C" fn $name(g_a: c_int, g_v: c_int) {
            let $call: &'static str = stringify!($name);
            run($call, || {
                let ($a, $v) = (resolve(g_a), resolve(g_v));
                $body
            })
        }
    };
}

matrix_vector_call!(
    /// Multiplies row `i` of the 2-D array `g_a` by `v[i]` (`g_v` has one
    /// element per row).
    GA_Scale_rows, |call, a, v| ew::scale_lines(call, a, v, true)
);
matrix_vector_call!(
    /// Multiplies column `j` of the 2-D array `g_a` by `v[j]` (`g_v` has
    /// one element per column).
    GA_Scale_cols, |call, a, v| ew::scale_lines(call, a, v, false)
);
matrix_vector_call!(
    /// Sets `a[k][k] = v[k]` along the diagonal of the 2-D array `g_a`.
    GA_Set_diagonal, |call, a, v| ew::set_diagonal(call, a, v)
);
matrix_vector_call!(
    /// Adds `v[k]` to `a[k][k]` along the diagonal of the 2-D array `g_a`.
    GA_Add_diagonal, |call, a, v| ew::add_diagonal(call, a, v)
);
matrix_vector_call!(
    /// Copies the diagonal of the 2-D array `g_a` into `v` (`v[k] =
    /// a[k][k]`; elements past the diagonal's length are left alone).
    GA_Get_diag, |call, a, v| ew::get_diag(call, a, v)
);

/// Adds `*c` (of the array's type) to every diagonal element of a 2-D
/// array; returns nothing. A bad handle, a non-2-D array or a NULL `c`
/// ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Shift_diagonal(g: c_int, c: *const c_void) {
    const CALL: &str = "GA_Shift_diagonal";
    run(CALL, || {
        let h = resolve(g);
        ew::shift_diagonal(CALL, h, scalar(CALL, "c", c, h)?)
    })
}

/// Sets every diagonal element of a 2-D array to zero; returns nothing.
/// A bad handle or a non-2-D array ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Zero_diagonal(g: c_int) {
    const CALL: &str = "GA_Zero_diagonal";
    run(CALL, || ew::zero_diagonal(CALL, resolve(g)))
}

/// Stores in `*nm` the sum of the magnitudes of all elements (GA 5.8's
/// entry-wise 1-norm, for any shape); returns nothing. A bad handle,
/// an array without arithmetic or a NULL `nm` ends the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Norm1(g: c_int, nm: *mut c_double) {
    const CALL: &str = "GA_Norm1";
    run(CALL, || {
        let v = ew::norm1(CALL, resolve(g))?;
        put_double(CALL, "nm", nm, v)
    })
}

/// Stores in `*nm` the largest magnitude of an element (GA 5.8's
/// entry-wise infinity norm); returns nothing, and fails as `GA_Norm1`.
#[no_mangle]
pub extern "C" fn GA_Norm_infinity(g: c_int, nm: *mut c_double) {
    const CALL: &str = "GA_Norm_infinity";
    run(CALL, || {
        let v = ew::norm_infinity(CALL, resolve(g))?;
        put_double(CALL, "nm", nm, v)
    })
}

/// Stores in `*step` (a `double`) the largest `s` with `a + s·b >= 0`
/// element-wise, 1e307 when no element of `b` is negative; returns
/// nothing. Arrays of one real type and shape; a negative element of `a`,
/// a NULL `step` or a bad handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Step_max(a: c_int, b: c_int, step: *mut c_void) {
    const CALL: &str = "GA_Step_max";
    run(CALL, || {
        let s = ew::step_max(CALL, resolve(a), resolve(b))?;
        put_double(CALL, "step", step as *mut c_double, s)
    })
}

#[allow(clippy::too_many_arguments)]
fn step_max_patch<I: CIndex>(
    call: &'static str,
    a: c_int,
    alo: *const I,
    ahi: *const I,
    b: c_int,
    blo: *const I,
    bhi: *const I,
    step: *mut c_void,
) {
    run(call, || {
        let (a, b) = (resolve(a), resolve(b));
        let (al, ah) = bounds(call, a, alo, ahi)?;
        let (bl, bh) = bounds(call, b, blo, bhi)?;
        let s = ew::step_max_patch(call, (a, &al, &ah), (b, &bl, &bh))?;
        put_double(call, "step", step as *mut c_double, s)
    })
}

twins! {
    /// `GA_Step_max` on patches of one shape; returns nothing, and fails as
    /// `GA_Step_max` does (and for bad patches).
    fn GA_Step_max_patch / GA_Step_max_patch64
        (a: c_int, alo: Ix, ahi: Ix, b: c_int, blo: Ix, bhi: Ix, step: Buf) = step_max_patch;
}

/// Writes the three results of the step-bound calls (doubles).
fn put_bounds(
    call: &'static str,
    r: (f64, f64, f64),
    boundmin: *mut c_void,
    wolfemin: *mut c_void,
    boundmax: *mut c_void,
) -> GaResult<()> {
    put_double(call, "boundmin", boundmin as *mut c_double, r.0)?;
    put_double(call, "wolfemin", wolfemin as *mut c_double, r.1)?;
    put_double(call, "boundmax", boundmax as *mut c_double, r.2)
}

/// For the line `xx + s·vv` in the box `xxll <= x <= xxuu`, stores (as
/// doubles) the smallest step at which an element meets its bound in
/// `*boundmin` and `*wolfemin`, and the largest in `*boundmax`; returns
/// nothing. Arrays of one real type and shape; anything else, or a NULL
/// result pointer, ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Step_bound_info(
    xx: c_int,
    vv: c_int,
    xxll: c_int,
    xxuu: c_int,
    boundmin: *mut c_void,
    wolfemin: *mut c_void,
    boundmax: *mut c_void,
) {
    const CALL: &str = "GA_Step_bound_info";
    run(CALL, || {
        let r = ew::step_bound_info(CALL, resolve(xx), resolve(vv), resolve(xxll), resolve(xxuu))?;
        put_bounds(CALL, r, boundmin, wolfemin, boundmax)
    })
}

#[allow(clippy::too_many_arguments)]
fn step_bound_info_patch<I: CIndex>(
    call: &'static str,
    xx: (c_int, *const I, *const I),
    vv: (c_int, *const I, *const I),
    ll: (c_int, *const I, *const I),
    uu: (c_int, *const I, *const I),
    boundmin: *mut c_void,
    wolfemin: *mut c_void,
    boundmax: *mut c_void,
) {
    run(call, || {
        let mut args = Vec::new();
        for (g, lo, hi) in [xx, vv, ll, uu] {
            let h = resolve(g);
            let (l, u) = bounds(call, h, lo, hi)?;
            args.push((h, l, u));
        }
        let p = |k: usize| (args[k].0, &args[k].1[..], &args[k].2[..]);
        let r = ew::step_bound_info_patch(call, p(0), p(1), p(2), p(3))?;
        put_bounds(call, r, boundmin, wolfemin, boundmax)
    })
}

/// `GA_Step_bound_info` on patches of one shape; returns nothing, and
/// fails as `GA_Step_bound_info` does (and for bad patches).
#[no_mangle]
pub extern "C" fn GA_Step_bound_info_patch(
    xx: c_int,
    xxlo: *const c_int,
    xxhi: *const c_int,
    vv: c_int,
    vvlo: *const c_int,
    vvhi: *const c_int,
    xxll: c_int,
    xxlllo: *const c_int,
    xxllhi: *const c_int,
    xxuu: c_int,
    xxuulo: *const c_int,
    xxuuhi: *const c_int,
    boundmin: *mut c_void,
    wolfemin: *mut c_void,
    boundmax: *mut c_void,
) {
    step_bound_info_patch(
        "GA_Step_bound_info_patch",
        (xx, xxlo, xxhi),
        (vv, vvlo, vvhi),
        (xxll, xxlllo, xxllhi),
        (xxuu, xxuulo, xxuuhi),
        boundmin,
        wolfemin,
        boundmax,
    )
}

/// `GA_Step_bound_info_patch` with 64-bit bounds (Debian's `ga.h` passes
/// this one's `g_xxuu` as `int64_t`); returns nothing, and fails as the
/// `int` form does, and for a `g_xxuu` outside the handles' range.
#[no_mangle]
pub extern "C" fn GA_Step_bound_info_patch64(
    xx: c_int,
    xxlo: *const i64,
    xxhi: *const i64,
    vv: c_int,
    vvlo: *const i64,
    vvhi: *const i64,
    xxll: c_int,
    xxlllo: *const i64,
    xxllhi: *const i64,
    xxuu: i64,
    xxuulo: *const i64,
    xxuuhi: *const i64,
    boundmin: *mut c_void,
    wolfemin: *mut c_void,
    boundmax: *mut c_void,
) {
    const CALL: &str = "GA_Step_bound_info_patch64";
    let uu = run(CALL, || {
        c_int::try_from(xxuu)
            .map_err(|_| GaError::new(CALL, format!("invalid array handle {xxuu}")))
    });
    step_bound_info_patch(
        CALL,
        (xx, xxlo, xxhi),
        (vv, vvlo, vvhi),
        (xxll, xxlllo, xxllhi),
        (uu, xxuulo, xxuuhi),
        boundmin,
        wolfemin,
        boundmax,
    )
}
