//! The array-wide and patch operations of the GA Fortran API (`ga_zero`,
//! `ga_fill`, `ga_randomize`, `ga_scale`, `ga_copy`, `ga_add`, `ga_ddot`, `ga_dgemm`,
//! `ga_transpose`, `ga_symmetrize`, the `*_patch` routines (with
//! `ga_matmul_patch`), `ga_print`, `ga_print_distribution`), over
//! [`crate::ops`]. Conventions as in
//! [`crate::fapi`]: 1-based column-major patches, checked in the caller's
//! terms before the work starts, reversed to the core's C order. All of
//! them are collective.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::{self, ElemType, GaError};
use crate::fapi::{entry, fail, fail_core, fpatch, int, to_f, Arr};
use crate::fapi_ptr as ptr;
use crate::fapi_typed::Kind;
use crate::ma_fortran::{FInt, FLog};
use crate::ops;
use crate::ops::elem::Num;
use std::ffi::{c_char, c_void};
use std::io::Write as _;

/// Ends the job with an operation's error.
pub(crate) fn done(call: &str, r: Result<(), GaError>) {
    r.unwrap_or_else(|e| fail_core(call, e))
}

/// A transpose flag: `'T'`/`'t'` (or `'C'`/`'c'`) transposes, `'N'`/`'n'`
/// does not.
pub(crate) fn trans_arg(call: &str, p: *const c_char, len: usize) -> bool {
    let s = ptr::fstring(p, len.max(1));
    match s.bytes().next() {
        Some(b'T' | b't' | b'C' | b'c') => true,
        Some(b'N' | b'n') => false,
        _ => fail(call, format!("transpose flag '{s}' is not 'N' or 'T'")),
    }
}

/// Requires the arrays to have the same element type.
pub(crate) fn same_type(call: &str, a: &Arr, b: &Arr) {
    if a.ty != b.ty {
        fail(
            call,
            format!(
                "g_a '{}' holds {:?} but g_b '{}' holds {:?}",
                a.name(),
                a.ty,
                b.name(),
                b.ty
            ),
        );
    }
}

/// Requires the arrays to have the same shape.
pub(crate) fn same_shape(call: &str, a: &Arr, b: &Arr) {
    if a.dims != b.dims {
        let fa: Vec<i64> = a.dims.iter().rev().copied().collect();
        let fb: Vec<i64> = b.dims.iter().rev().copied().collect();
        fail(
            call,
            format!(
                "g_a '{}' is {fa:?} but g_b '{}' is {fb:?}: shapes differ",
                a.name(),
                b.name()
            ),
        );
    }
}

/// `subroutine ga_zero(g_a)`: every element = 0.
#[no_mangle]
pub extern "C" fn ga_zero_(g_a: *const FInt) {
    const C: &str = "ga_zero";
    entry(C, || {
        let a = Arr::get(C, g_a);
        done(C, ops::zero(C, a.h))
    })
}

/// `subroutine ga_fill(g_a, val)`: every element = `val` (of the array's
/// type).
#[no_mangle]
pub extern "C" fn ga_fill_(g_a: *const FInt, val: *const c_void) {
    const C: &str = "ga_fill";
    entry(C, || {
        let a = Arr::get(C, g_a);
        done(C, ops::fill(C, a.h, a.value(C, val)))
    })
}

/// `subroutine ga_scale(g_a, val)`: every element ×= `val`.
#[no_mangle]
pub extern "C" fn ga_scale_(g_a: *const FInt, val: *const c_void) {
    const C: &str = "ga_scale";
    entry(C, || {
        let a = Arr::get(C, g_a);
        done(C, ops::scale(C, a.h, a.value(C, val)))
    })
}

/// `subroutine ga_randomize(g_a, val)`: every element = `val` times a draw
/// of the C library's `rand()` over `RAND_MAX` (the program's sequence,
/// seeded by `srand`), each process over its own elements as GA walks them.
#[no_mangle]
pub extern "C" fn ga_randomize_(g_a: *const FInt, val: *const c_void) {
    randomize("ga_randomize", g_a, val)
}

/// `subroutine nga_randomize(g_a, val)`: as `ga_randomize`.
#[no_mangle]
pub extern "C" fn nga_randomize_(g_a: *const FInt, val: *const c_void) {
    randomize("nga_randomize", g_a, val)
}

fn randomize(call: &'static str, g_a: *const FInt, val: *const c_void) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let v = a.value(call, val);
        done(call, ops::randomize(call, a.h, v, crate::capi_ptr::c_rand))
    })
}

/// `subroutine ga_copy(g_a, g_b)`: g_b = g_a (same type and shape).
#[no_mangle]
pub extern "C" fn ga_copy_(g_a: *const FInt, g_b: *const FInt) {
    const C: &str = "ga_copy";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let b = Arr::get(C, g_b);
        same_type(C, &a, &b);
        same_shape(C, &a, &b);
        done(C, ops::copy(C, a.h, b.h))
    })
}

/// `subroutine ga_add(alpha, g_a, beta, g_b, g_c)`: g_c = alpha·g_a +
/// beta·g_b.
#[no_mangle]
pub extern "C" fn ga_add_(
    alpha: *const c_void,
    g_a: *const FInt,
    beta: *const c_void,
    g_b: *const FInt,
    g_c: *const FInt,
) {
    const C: &str = "ga_add";
    entry(C, || {
        let (a, b, c) = (Arr::get(C, g_a), Arr::get(C, g_b), Arr::get(C, g_c));
        same_type(C, &a, &b);
        same_type(C, &a, &c);
        same_shape(C, &a, &b);
        same_shape(C, &a, &c);
        let (al, be) = (a.value(C, alpha), a.value(C, beta));
        done(C, ops::add(C, al, a.h, be, b.h, c.h))
    })
}

/// `double precision ga_ddot(g_a, g_b)`: Σ g_a·g_b over two double
/// precision arrays of one shape.
#[no_mangle]
pub extern "C" fn ga_ddot_(g_a: *const FInt, g_b: *const FInt) -> f64 {
    const C: &str = "ga_ddot";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let b = Arr::get(C, g_b);
        if a.ty != ElemType::Double || b.ty != ElemType::Double {
            fail(
                C,
                format!(
                    "g_a '{}' and g_b '{}' must be double precision",
                    a.name(),
                    b.name()
                ),
            );
        }
        same_shape(C, &a, &b);
        ops::ddot(C, a.h, b.h).unwrap_or_else(|e| fail_core(C, e))
    })
}

/// `subroutine ga_dgemm(transa, transb, m, n, k, alpha, g_a, g_b, beta,
/// g_c)`: C(1:m,1:n) = alpha·op(A)·op(B) + beta·C(1:m,1:n), op(A) m×k and
/// op(B) k×n from the arrays' top-left corners; `transa`/`transb` `'N'` or
/// `'T'`. Done by the C-order kernel on the swapped product
/// (Cᵀ = op(B)ᵀ·op(A)ᵀ), as GA's C binding does the other way round.
#[no_mangle]
pub extern "C" fn ga_dgemm_(
    transa: *const c_char,
    transb: *const c_char,
    m: *const FInt,
    n: *const FInt,
    k: *const FInt,
    alpha: *const c_void,
    g_a: *const FInt,
    g_b: *const FInt,
    beta: *const c_void,
    g_c: *const FInt,
    lta: usize,
    ltb: usize,
) {
    const C: &str = "ga_dgemm";
    let args = GemmArgs {
        trans: (transa, lta, transb, ltb),
        mnk: (m, n, k),
        scalars: (alpha, beta),
        arrays: (g_a, g_b, g_c),
    };
    entry(C, || gemm_common(C, Kind::Dbl, args))
}

/// The arguments of `ga_dgemm` and its typed twins, as passed.
pub(crate) struct GemmArgs {
    pub trans: (*const c_char, usize, *const c_char, usize),
    pub mnk: (*const FInt, *const FInt, *const FInt),
    pub scalars: (*const c_void, *const c_void),
    pub arrays: (*const FInt, *const FInt, *const FInt),
}

/// `ga_dgemm` on 2-D arrays of `kind`'s type.
pub(crate) fn gemm_common(call: &'static str, kind: Kind, args: GemmArgs) {
    let (transa, lta, transb, ltb) = args.trans;
    let (m, n, k) = args.mnk;
    let (alpha, beta) = args.scalars;
    let (g_a, g_b, g_c) = args.arrays;

    let ta = trans_arg(call, transa, lta);
    let tb = trans_arg(call, transb, ltb);
    let (m, n, k) = (int(call, m), int(call, n), int(call, k));
    let (a, b, c) = (
        Arr::get(call, g_a),
        Arr::get(call, g_b),
        Arr::get(call, g_c),
    );
    kind.require(call, &[&a, &b, &c]);
    for x in [&a, &b, &c] {
        if x.ndim() != 2 {
            fail(call, format!("g '{}' must be a 2-D array", x.name()));
        }
    }
    // Fortran shapes: op(A) is m×k, op(B) k×n, C m×n.
    let fd = |x: &Arr| (x.dims[1], x.dims[0]);
    let need = |x: &Arr, what: &str, r: i64, c: i64| {
        let (d1, d2) = fd(x);
        if r > d1 || c > d2 {
            fail(
                call,
                format!(
                    "{what} needs a {r}x{c} corner but g '{}' is {d1}x{d2}",
                    x.name()
                ),
            );
        }
    };
    if m < 1 || n < 1 || k < 1 {
        fail(
            call,
            format!("m={m}, n={n}, k={k}: each must be at least 1"),
        );
    }
    if ta {
        need(&a, "op(A) = A**T", k, m)
    } else {
        need(&a, "op(A) = A", m, k)
    }
    if tb {
        need(&b, "op(B) = B**T", n, k)
    } else {
        need(&b, "op(B) = B", k, n)
    }
    need(&c, "C", m, n);
    let (al, be) = (a.value(call, alpha), a.value(call, beta));
    let code = |t: bool| if t { b'T' } else { b'N' };
    done(
        call,
        ops::gemm(call, code(tb), code(ta), n, m, k, al, b.h, a.h, be, c.h),
    )
}

/// `subroutine ga_transpose(g_a, g_b)`: g_b = g_aᵀ (2-D arrays).
#[no_mangle]
pub extern "C" fn ga_transpose_(g_a: *const FInt, g_b: *const FInt) {
    const C: &str = "ga_transpose";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let b = Arr::get(C, g_b);
        same_type(C, &a, &b);
        done(C, ops::transpose(C, a.h, b.h))
    })
}

/// `subroutine ga_symmetrize(g_a)`: g_a = (g_a + g_aᵀ)/2 (square 2-D).
#[no_mangle]
pub extern "C" fn ga_symmetrize_(g_a: *const FInt) {
    const C: &str = "ga_symmetrize";
    entry(C, || {
        let a = Arr::get(C, g_a);
        done(C, ops::symmetrize(C, a.h))
    })
}

/// `subroutine ga_print(g_a)`: process 0 prints the array.
#[no_mangle]
pub extern "C" fn ga_print_(g_a: *const FInt) {
    const C: &str = "ga_print";
    entry(C, || {
        let a = Arr::get(C, g_a);
        done(C, ops::print(C, a.h))
    })
}

/// `subroutine ga_print_distribution(g_a)`: process 0 prints which
/// process owns which block, in Fortran terms (1-based, dimensions in
/// Fortran order; `[0:-1,...]` for a process that owns nothing).
#[no_mangle]
pub extern "C" fn ga_print_distribution_(g_a: *const FInt) {
    const C: &str = "ga_print_distribution";
    entry(C, || {
        let a = Arr::get(C, g_a);
        core::sync_array(a.h).unwrap_or_else(|e| fail_core(C, e));
        if core::array_rank(a.h).unwrap_or_else(|e| fail_core(C, e)) == 0 {
            let fd: Vec<String> = a.dims.iter().rev().map(|d| d.to_string()).collect();
            let mut text = format!(
                "Array Handle={} Name:'{}' Data Type:{}\nArray Dimensions:{}\n",
                a.h,
                a.name(),
                ops::elem::type_name(a.ty),
                fd.join("x")
            );
            for p in 0..core::array_nprocs(a.h).unwrap_or_else(|e| fail_core(C, e)) {
                let (lo, hi) = match core::distribution(a.h, p).unwrap_or_else(|e| fail_core(C, e))
                {
                    Some((lo, hi)) => (to_f(&lo), to_f(&hi)),
                    None => (vec![0; a.ndim()], vec![-1; a.ndim()]),
                };
                text.push_str(&format!(
                    "Process={p}\t owns array section: {} \n",
                    fpatch(&lo, &hi)
                ));
            }
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        }
        core::sync_array(a.h).unwrap_or_else(|e| fail_core(C, e));
    })
}

/// `subroutine ga_summarize(verbose)`: process 0 lists every array.
#[no_mangle]
pub extern "C" fn ga_summarize_(verbose: *const FLog) {
    const C: &str = "ga_summarize";
    entry(C, || {
        let v = ptr::read(verbose).unwrap_or(0) != 0;
        done(C, ops::summarize(C, v))
    })
}

// ---------------------------------------------------------------------------
// Patch operations

/// A 2-D patch argument list, checked; C order.
pub(crate) fn p2(
    call: &str,
    a: &Arr,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
) -> (Vec<i64>, Vec<i64>) {
    a.patch_2d(call, ilo, ihi, jlo, jhi)
}

/// Requires two patches to hold the same number of elements.
pub(crate) fn same_count(call: &str, alo: &[i64], ahi: &[i64], blo: &[i64], bhi: &[i64]) {
    let n = |lo: &[i64], hi: &[i64]| lo.iter().zip(hi).map(|(l, h)| h - l + 1).product::<i64>();
    let (na, nb) = (n(alo, ahi), n(blo, bhi));
    if na != nb {
        fail(
            call,
            format!(
                "patches {} and {} hold {na} and {nb} elements",
                fpatch(&to_f(alo), &to_f(ahi)),
                fpatch(&to_f(blo), &to_f(bhi))
            ),
        );
    }
}

/// `subroutine ga_zero_patch(g_a, ilo, ihi, jlo, jhi)`: the patch = 0.
#[no_mangle]
pub extern "C" fn ga_zero_patch_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
) {
    const C: &str = "ga_zero_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = p2(C, &a, ilo, ihi, jlo, jhi);
        done(C, ops::zero_patch(C, a.h, &lo, &hi))
    })
}

/// `subroutine nga_zero_patch(g_a, lo, hi)`: the patch = 0.
#[no_mangle]
pub extern "C" fn nga_zero_patch_(g_a: *const FInt, lo: *const FInt, hi: *const FInt) {
    const C: &str = "nga_zero_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_n(C, lo, hi);
        done(C, ops::zero_patch(C, a.h, &lo, &hi))
    })
}

/// `subroutine ga_fill_patch(g_a, ilo, ihi, jlo, jhi, val)`: the patch =
/// `val`.
#[no_mangle]
pub extern "C" fn ga_fill_patch_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    val: *const c_void,
) {
    const C: &str = "ga_fill_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = p2(C, &a, ilo, ihi, jlo, jhi);
        done(C, ops::fill_patch(C, a.h, &lo, &hi, a.value(C, val)))
    })
}

/// `subroutine nga_fill_patch(g_a, lo, hi, val)`: the patch = `val`.
#[no_mangle]
pub extern "C" fn nga_fill_patch_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    val: *const c_void,
) {
    const C: &str = "nga_fill_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_n(C, lo, hi);
        done(C, ops::fill_patch(C, a.h, &lo, &hi, a.value(C, val)))
    })
}

/// `subroutine ga_scale_patch(g_a, ilo, ihi, jlo, jhi, alpha)`: the patch
/// ×= alpha.
#[no_mangle]
pub extern "C" fn ga_scale_patch_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    alpha: *const c_void,
) {
    const C: &str = "ga_scale_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = p2(C, &a, ilo, ihi, jlo, jhi);
        done(C, ops::scale_patch(C, a.h, &lo, &hi, a.value(C, alpha)))
    })
}

/// `subroutine nga_scale_patch(g_a, lo, hi, alpha)`: the patch ×= alpha.
#[no_mangle]
pub extern "C" fn nga_scale_patch_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    alpha: *const c_void,
) {
    const C: &str = "nga_scale_patch";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_n(C, lo, hi);
        done(C, ops::scale_patch(C, a.h, &lo, &hi, a.value(C, alpha)))
    })
}

/// `subroutine ga_copy_patch(trans, g_a, ailo, aihi, ajlo, ajhi, g_b,
/// bilo, bihi, bjlo, bjhi)`: copies A's patch (transposed for `'T'`) into
/// B's; both hold the same number of elements.
#[no_mangle]
pub extern "C" fn ga_copy_patch_(
    trans: *const c_char,
    g_a: *const FInt,
    ailo: *const FInt,
    aihi: *const FInt,
    ajlo: *const FInt,
    ajhi: *const FInt,
    g_b: *const FInt,
    bilo: *const FInt,
    bihi: *const FInt,
    bjlo: *const FInt,
    bjhi: *const FInt,
    ltrans: usize,
) {
    const C: &str = "ga_copy_patch";
    entry(C, || {
        let t = trans_arg(C, trans, ltrans);
        let (a, b) = (Arr::get(C, g_a), Arr::get(C, g_b));
        same_type(C, &a, &b);
        let (alo, ahi) = p2(C, &a, ailo, aihi, ajlo, ajhi);
        let (blo, bhi) = p2(C, &b, bilo, bihi, bjlo, bjhi);
        same_count(C, &alo, &ahi, &blo, &bhi);
        done(C, ops::copy_patch(C, t, a.h, &alo, &ahi, b.h, &blo, &bhi))
    })
}

/// `subroutine nga_copy_patch(trans, g_a, alo, ahi, g_b, blo, bhi)`: as
/// `ga_copy_patch` for any number of dimensions.
#[no_mangle]
pub extern "C" fn nga_copy_patch_(
    trans: *const c_char,
    g_a: *const FInt,
    alo: *const FInt,
    ahi: *const FInt,
    g_b: *const FInt,
    blo: *const FInt,
    bhi: *const FInt,
    ltrans: usize,
) {
    const C: &str = "nga_copy_patch";
    entry(C, || {
        let t = trans_arg(C, trans, ltrans);
        let (a, b) = (Arr::get(C, g_a), Arr::get(C, g_b));
        same_type(C, &a, &b);
        let (alo, ahi) = a.patch_n(C, alo, ahi);
        let (blo, bhi) = b.patch_n(C, blo, bhi);
        same_count(C, &alo, &ahi, &blo, &bhi);
        done(C, ops::copy_patch(C, t, a.h, &alo, &ahi, b.h, &blo, &bhi))
    })
}

/// The dot product of two patches whose arrays hold `kind`'s type, as `T`.
pub(crate) fn dot_patch_common<T: Num>(
    call: &'static str,
    kind: Kind,
    a: &Arr,
    ta: bool,
    (alo, ahi): (Vec<i64>, Vec<i64>),
    b: &Arr,
    tb: bool,
    (blo, bhi): (Vec<i64>, Vec<i64>),
) -> T {
    kind.require(call, &[a, b]);
    same_count(call, &alo, &ahi, &blo, &bhi);
    let v = ops::dot_patch(call, a.h, ta, &alo, &ahi, b.h, tb, &blo, &bhi)
        .unwrap_or_else(|e| fail_core(call, e));
    kind.result(call, &v)
}

#[no_mangle]
pub extern "C" fn ga_ddot_patch_(
    g_a: *const FInt,
    ta: *const c_char,
    ailo: *const FInt,
    aihi: *const FInt,
    ajlo: *const FInt,
    ajhi: *const FInt,
    g_b: *const FInt,
    tb: *const c_char,
    bilo: *const FInt,
    bihi: *const FInt,
    bjlo: *const FInt,
    bjhi: *const FInt,
    lta: usize,
    ltb: usize,
) -> f64 {
    const C: &str = "ga_ddot_patch";
    entry(C, || {
        let (a, b) = (Arr::get(C, g_a), Arr::get(C, g_b));
        let (ta, tb) = (trans_arg(C, ta, lta), trans_arg(C, tb, ltb));
        let pa = p2(C, &a, ailo, aihi, ajlo, ajhi);
        let pb = p2(C, &b, bilo, bihi, bjlo, bjhi);
        dot_patch_common::<f64>(C, Kind::Dbl, &a, ta, pa, &b, tb, pb)
    })
}

/// `double precision nga_ddot_patch(g_a, ta, alo, ahi, g_b, tb, blo,
/// bhi)`: as `ga_ddot_patch` for any number of dimensions.
#[no_mangle]
pub extern "C" fn nga_ddot_patch_(
    g_a: *const FInt,
    ta: *const c_char,
    alo: *const FInt,
    ahi: *const FInt,
    g_b: *const FInt,
    tb: *const c_char,
    blo: *const FInt,
    bhi: *const FInt,
    lta: usize,
    ltb: usize,
) -> f64 {
    const C: &str = "nga_ddot_patch";
    entry(C, || {
        let (a, b) = (Arr::get(C, g_a), Arr::get(C, g_b));
        let (ta, tb) = (trans_arg(C, ta, lta), trans_arg(C, tb, ltb));
        let pa = a.patch_n(C, alo, ahi);
        let pb = b.patch_n(C, blo, bhi);
        dot_patch_common::<f64>(C, Kind::Dbl, &a, ta, pa, &b, tb, pb)
    })
}

/// `subroutine ga_add_patch(alpha, g_a, ailo, aihi, ajlo, ajhi, beta, g_b,
/// bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo, cjhi)`: C's patch =
/// alpha·A's patch + beta·B's patch.
#[no_mangle]
pub extern "C" fn ga_add_patch_(
    alpha: *const c_void,
    g_a: *const FInt,
    ailo: *const FInt,
    aihi: *const FInt,
    ajlo: *const FInt,
    ajhi: *const FInt,
    beta: *const c_void,
    g_b: *const FInt,
    bilo: *const FInt,
    bihi: *const FInt,
    bjlo: *const FInt,
    bjhi: *const FInt,
    g_c: *const FInt,
    cilo: *const FInt,
    cihi: *const FInt,
    cjlo: *const FInt,
    cjhi: *const FInt,
) {
    const C: &str = "ga_add_patch";
    entry(C, || {
        let (a, b, c) = (Arr::get(C, g_a), Arr::get(C, g_b), Arr::get(C, g_c));
        same_type(C, &a, &b);
        same_type(C, &a, &c);
        let (alo, ahi) = p2(C, &a, ailo, aihi, ajlo, ajhi);
        let (blo, bhi) = p2(C, &b, bilo, bihi, bjlo, bjhi);
        let (clo, chi) = p2(C, &c, cilo, cihi, cjlo, cjhi);
        same_count(C, &alo, &ahi, &clo, &chi);
        same_count(C, &blo, &bhi, &clo, &chi);
        let (al, be) = (a.value(C, alpha), a.value(C, beta));
        done(
            C,
            ops::add_patch(C, al, a.h, &alo, &ahi, be, b.h, &blo, &bhi, c.h, &clo, &chi),
        )
    })
}

/// `subroutine nga_add_patch(alpha, g_a, alo, ahi, beta, g_b, blo, bhi,
/// g_c, clo, chi)`: as `ga_add_patch` for any number of dimensions.
#[no_mangle]
pub extern "C" fn nga_add_patch_(
    alpha: *const c_void,
    g_a: *const FInt,
    alo: *const FInt,
    ahi: *const FInt,
    beta: *const c_void,
    g_b: *const FInt,
    blo: *const FInt,
    bhi: *const FInt,
    g_c: *const FInt,
    clo: *const FInt,
    chi: *const FInt,
) {
    const C: &str = "nga_add_patch";
    entry(C, || {
        let (a, b, c) = (Arr::get(C, g_a), Arr::get(C, g_b), Arr::get(C, g_c));
        same_type(C, &a, &b);
        same_type(C, &a, &c);
        let (alo, ahi) = a.patch_n(C, alo, ahi);
        let (blo, bhi) = b.patch_n(C, blo, bhi);
        let (clo, chi) = c.patch_n(C, clo, chi);
        same_count(C, &alo, &ahi, &clo, &chi);
        same_count(C, &blo, &bhi, &clo, &chi);
        let (al, be) = (a.value(C, alpha), a.value(C, beta));
        done(
            C,
            ops::add_patch(C, al, a.h, &alo, &ahi, be, b.h, &blo, &bhi, c.h, &clo, &chi),
        )
    })
}

fn matmul_common(
    call: &'static str,
    (ta, tb): (bool, bool),
    (alpha, beta): (*const c_void, *const c_void),
    (a, alo, ahi): (&Arr, Vec<i64>, Vec<i64>),
    (b, blo, bhi): (&Arr, Vec<i64>, Vec<i64>),
    (c, clo, chi): (&Arr, Vec<i64>, Vec<i64>),
) {
    same_type(call, a, b);
    same_type(call, a, c);
    // Fortran shapes (rows × columns) of op(A), op(B) and C.
    let shape = |lo: &[i64], hi: &[i64], t: bool| {
        let (r, c) = (hi[1] - lo[1] + 1, hi[0] - lo[0] + 1);
        if t {
            (c, r)
        } else {
            (r, c)
        }
    };
    let (m, k) = shape(&alo, &ahi, ta);
    let (k2, n) = shape(&blo, &bhi, tb);
    let (cm, cn) = shape(&clo, &chi, false);
    if k != k2 || m != cm || n != cn {
        fail(
            call,
            format!(
                "patch shapes do not multiply: op(A {}) is {m}x{k}, op(B {}) is {k2}x{n}, C {} is {cm}x{cn}",
                fpatch(&to_f(&alo), &to_f(&ahi)),
                fpatch(&to_f(&blo), &to_f(&bhi)),
                fpatch(&to_f(&clo), &to_f(&chi))
            ),
        );
    }
    let code = |t: bool| if t { b'T' } else { b'N' };
    let (al, be) = (a.value(call, alpha), a.value(call, beta));
    // Cᵀ = op(B)ᵀ·op(A)ᵀ in the core's C order.
    done(
        call,
        ops::matmul_patch(
            call,
            code(tb),
            code(ta),
            al,
            be,
            b.h,
            &blo,
            &bhi,
            a.h,
            &alo,
            &ahi,
            c.h,
            &clo,
            &chi,
        ),
    )
}

/// `subroutine ga_matmul_patch(transa, transb, alpha, beta, g_a, ailo,
/// aihi, ajlo, ajhi, g_b, bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo,
/// cjhi)`: C's patch = alpha·op(A's patch)·op(B's patch) + beta·C's patch
/// (`alpha`, `beta` of the arrays' type; op transposes for `'T'`).
#[no_mangle]
pub extern "C" fn ga_matmul_patch_(
    transa: *const c_char,
    transb: *const c_char,
    alpha: *const c_void,
    beta: *const c_void,
    g_a: *const FInt,
    ailo: *const FInt,
    aihi: *const FInt,
    ajlo: *const FInt,
    ajhi: *const FInt,
    g_b: *const FInt,
    bilo: *const FInt,
    bihi: *const FInt,
    bjlo: *const FInt,
    bjhi: *const FInt,
    g_c: *const FInt,
    cilo: *const FInt,
    cihi: *const FInt,
    cjlo: *const FInt,
    cjhi: *const FInt,
    lta: usize,
    ltb: usize,
) {
    const C: &str = "ga_matmul_patch";
    entry(C, || {
        let t = (trans_arg(C, transa, lta), trans_arg(C, transb, ltb));
        let (a, b, c) = (Arr::get(C, g_a), Arr::get(C, g_b), Arr::get(C, g_c));
        for x in [&a, &b, &c] {
            if x.ndim() != 2 {
                fail(C, format!("g '{}' is not a 2-D array", x.name()));
            }
        }
        let (alo, ahi) = p2(C, &a, ailo, aihi, ajlo, ajhi);
        let (blo, bhi) = p2(C, &b, bilo, bihi, bjlo, bjhi);
        let (clo, chi) = p2(C, &c, cilo, cihi, cjlo, cjhi);
        matmul_common(
            C,
            t,
            (alpha, beta),
            (&a, alo, ahi),
            (&b, blo, bhi),
            (&c, clo, chi),
        )
    })
}

/// `subroutine nga_matmul_patch(transa, transb, alpha, beta, g_a, alo,
/// ahi, g_b, blo, bhi, g_c, clo, chi)`: as `ga_matmul_patch` with
/// `lo`/`hi` lists (2-D arrays).
#[no_mangle]
pub extern "C" fn nga_matmul_patch_(
    transa: *const c_char,
    transb: *const c_char,
    alpha: *const c_void,
    beta: *const c_void,
    g_a: *const FInt,
    alo: *const FInt,
    ahi: *const FInt,
    g_b: *const FInt,
    blo: *const FInt,
    bhi: *const FInt,
    g_c: *const FInt,
    clo: *const FInt,
    chi: *const FInt,
    lta: usize,
    ltb: usize,
) {
    const C: &str = "nga_matmul_patch";
    entry(C, || {
        let t = (trans_arg(C, transa, lta), trans_arg(C, transb, ltb));
        let (a, b, c) = (Arr::get(C, g_a), Arr::get(C, g_b), Arr::get(C, g_c));
        for x in [&a, &b, &c] {
            if x.ndim() != 2 {
                fail(C, format!("g '{}' is not a 2-D array", x.name()));
            }
        }
        let pa = a.patch_n(C, alo, ahi);
        let pb = b.patch_n(C, blo, bhi);
        let pc = c.patch_n(C, clo, chi);
        matmul_common(
            C,
            t,
            (alpha, beta),
            (&a, pa.0, pa.1),
            (&b, pb.0, pb.1),
            (&c, pc.0, pc.1),
        )
    })
}
