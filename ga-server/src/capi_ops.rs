//! The GA C ABI's array operations (`ga.h`): zero, fill, scale, copy, add,
//! dot products, patch operations, transpose, symmetrize, matrix
//! multiplication, printing. Each is collective; arguments are checked
//! and a bad one ends the job through `GA_Error` naming the call.

use crate::capi_ptr as ptr;
use crate::core::{GaError, GaResult, Handle};
use crate::ops;
use crate::ops::elem::{Num, C32, C64};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};

fn run<R>(call: &'static str, f: impl FnOnce() -> GaResult<R>) -> R {
    let r = guard(call, Err(GaError::new(call, "internal error")), f);
    match r {
        Ok(v) => v,
        Err(e) => crate::core::abort(&e.to_string(), 0),
    }
}

fn resolve(g: c_int) -> Handle {
    crate::capi::resolve_handle(g)
}

/// One element of `g`'s type at `p` (alpha, beta, value).
fn scalar<'a>(call: &'static str, what: &str, p: *const c_void, g: Handle) -> GaResult<&'a [u8]> {
    let (ty, _) = ops::patch::inquire(call, g)?;
    ptr::bytes(p, ty.size()).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
}

/// lo/hi of a patch of `g`.
fn patch(
    call: &'static str,
    g: Handle,
    lo: *const c_int,
    hi: *const c_int,
) -> GaResult<(Vec<i64>, Vec<i64>)> {
    let (_, d) = ops::patch::inquire(call, g)?;
    let l = ptr::ints(lo, d.len()).ok_or_else(|| GaError::new(call, "lo is NULL"))?;
    let h = ptr::ints(hi, d.len()).ok_or_else(|| GaError::new(call, "hi is NULL"))?;
    Ok((l, h))
}

fn trans_flag(call: &'static str, t: c_char) -> GaResult<bool> {
    match t as u8 {
        b'n' | b'N' => Ok(false),
        b't' | b'T' | b'c' | b'C' => Ok(true),
        other => Err(GaError::new(
            call,
            format!("transpose flag must be 'n' or 't', not {:?}", other as char),
        )),
    }
}

/// Sets every element to zero (collective); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Zero(g: c_int) {
    run("GA_Zero", || ops::zero("GA_Zero", resolve(g)))
}

/// Same as `GA_Zero`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Zero(g: c_int) {
    run("NGA_Zero", || ops::zero("NGA_Zero", resolve(g)))
}

/// Sets every element to `*value` (of the array's type); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Fill(g: c_int, value: *const c_void) {
    const CALL: &str = "GA_Fill";
    run(CALL, || {
        let h = resolve(g);
        ops::fill(CALL, h, scalar(CALL, "value", value, h)?)
    })
}

/// Same as `GA_Fill`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Fill(g: c_int, value: *const c_void) {
    GA_Fill(g, value)
}

/// Multiplies every element by `*alpha`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Scale(g: c_int, alpha: *const c_void) {
    const CALL: &str = "GA_Scale";
    run(CALL, || {
        let h = resolve(g);
        ops::scale(CALL, h, scalar(CALL, "alpha", alpha, h)?)
    })
}

/// Copies array `a` into array `b` (same type and shape); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Copy(a: c_int, b: c_int) {
    run("GA_Copy", || ops::copy("GA_Copy", resolve(a), resolve(b)))
}

/// `c = alpha·a + beta·b` (same shape); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Add(alpha: *const c_void, a: c_int, beta: *const c_void, b: c_int, c: c_int) {
    const CALL: &str = "GA_Add";
    run(CALL, || {
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        ops::add(
            CALL,
            scalar(CALL, "alpha", alpha, a)?,
            a,
            scalar(CALL, "beta", beta, a)?,
            b,
            c,
        )
    })
}

/// The dot product of two arrays of type `want`, as that type.
fn dot_as<T: Num>(
    call: &'static str,
    a: c_int,
    b: c_int,
    want: &[crate::core::ElemType],
) -> GaResult<T> {
    let (a, b) = (resolve(a), resolve(b));
    let (ty, _) = ops::patch::inquire(call, a)?;
    if !want.contains(&ty) {
        return Err(ops::elem::unsupported(call, ty));
    }
    Ok(T::load(&ops::dot(call, a, b)?))
}

use crate::core::ElemType as Et;

/// Returns the element-wise dot product of two double arrays.
#[no_mangle]
pub extern "C" fn GA_Ddot(a: c_int, b: c_int) -> c_double {
    run("GA_Ddot", || dot_as::<f64>("GA_Ddot", a, b, &[Et::Double]))
}

/// Returns the element-wise dot product of two int arrays.
#[no_mangle]
pub extern "C" fn GA_Idot(a: c_int, b: c_int) -> c_int {
    run("GA_Idot", || dot_as::<i32>("GA_Idot", a, b, &[Et::Int]))
}

/// Returns the element-wise dot product of two long arrays.
#[no_mangle]
pub extern "C" fn GA_Ldot(a: c_int, b: c_int) -> c_long {
    run("GA_Ldot", || {
        dot_as::<i64>("GA_Ldot", a, b, &[Et::Long, Et::LongLong])
    })
}

/// Returns the element-wise dot product of two long long arrays.
#[no_mangle]
pub extern "C" fn GA_Lldot(a: c_int, b: c_int) -> c_longlong {
    run("GA_Lldot", || {
        dot_as::<i64>("GA_Lldot", a, b, &[Et::Long, Et::LongLong])
    })
}

/// Returns the element-wise dot product of two float arrays.
#[no_mangle]
pub extern "C" fn GA_Fdot(a: c_int, b: c_int) -> c_float {
    run("GA_Fdot", || dot_as::<f32>("GA_Fdot", a, b, &[Et::Float]))
}

/// Returns the element-wise dot product (no conjugation) of two double complex arrays.
#[no_mangle]
pub extern "C" fn GA_Zdot(a: c_int, b: c_int) -> C64 {
    run("GA_Zdot", || {
        dot_as::<C64>("GA_Zdot", a, b, &[Et::DComplex])
    })
}

/// Returns the element-wise dot product (no conjugation) of two single complex arrays.
#[no_mangle]
pub extern "C" fn GA_Cdot(a: c_int, b: c_int) -> C32 {
    run("GA_Cdot", || {
        dot_as::<C32>("GA_Cdot", a, b, &[Et::SComplex])
    })
}

/// The patch dot product of two arrays of type `want`, as that type.
#[allow(clippy::too_many_arguments)]
fn dot_patch_as<T: Num>(
    call: &'static str,
    want: &[Et],
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> GaResult<T> {
    let (a, b) = (resolve(a), resolve(b));
    let (ty, _) = ops::patch::inquire(call, a)?;
    if !want.contains(&ty) {
        return Err(ops::elem::unsupported(call, ty));
    }
    let (al, ah) = patch(call, a, alo, ahi)?;
    let (bl, bh) = patch(call, b, blo, bhi)?;
    let v = ops::dot_patch(
        call,
        a,
        trans_flag(call, ta)?,
        &al,
        &ah,
        b,
        trans_flag(call, tb)?,
        &bl,
        &bh,
    )?;
    Ok(T::load(&v))
}

/// Returns the element-wise dot product of two double patches (`t_a`,
/// `t_b`: 'n' or 't' to transpose a patch).
#[no_mangle]
pub extern "C" fn NGA_Ddot_patch(
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> c_double {
    const CALL: &str = "NGA_Ddot_patch";
    run(CALL, || {
        dot_patch_as::<f64>(CALL, &[Et::Double], a, ta, alo, ahi, b, tb, blo, bhi)
    })
}

/// Returns the element-wise dot product of two int patches.
#[no_mangle]
pub extern "C" fn NGA_Idot_patch(
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> c_int {
    const CALL: &str = "NGA_Idot_patch";
    run(CALL, || {
        dot_patch_as::<i32>(CALL, &[Et::Int], a, ta, alo, ahi, b, tb, blo, bhi)
    })
}

/// Returns the element-wise dot product of two long patches.
#[no_mangle]
pub extern "C" fn NGA_Ldot_patch(
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> c_long {
    const CALL: &str = "NGA_Ldot_patch";
    run(CALL, || {
        dot_patch_as::<i64>(
            CALL,
            &[Et::Long, Et::LongLong],
            a,
            ta,
            alo,
            ahi,
            b,
            tb,
            blo,
            bhi,
        )
    })
}

/// Returns the element-wise dot product of two float patches.
#[no_mangle]
pub extern "C" fn NGA_Fdot_patch(
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> c_float {
    const CALL: &str = "NGA_Fdot_patch";
    run(CALL, || {
        dot_patch_as::<f32>(CALL, &[Et::Float], a, ta, alo, ahi, b, tb, blo, bhi)
    })
}

/// Returns the element-wise dot product of two double complex patches.
#[no_mangle]
pub extern "C" fn NGA_Zdot_patch(
    a: c_int,
    ta: c_char,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    tb: c_char,
    blo: *const c_int,
    bhi: *const c_int,
) -> C64 {
    const CALL: &str = "NGA_Zdot_patch";
    run(CALL, || {
        dot_patch_as::<C64>(CALL, &[Et::DComplex], a, ta, alo, ahi, b, tb, blo, bhi)
    })
}

/// Copies patch alo..ahi of `a` into patch blo..bhi of `b` (same number of
/// elements; `trans` 't' transposes); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Copy_patch(
    trans: c_char,
    a: c_int,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    blo: *const c_int,
    bhi: *const c_int,
) {
    const CALL: &str = "NGA_Copy_patch";
    run(CALL, || {
        let (a, b) = (resolve(a), resolve(b));
        let (al, ah) = patch(CALL, a, alo, ahi)?;
        let (bl, bh) = patch(CALL, b, blo, bhi)?;
        ops::copy_patch(CALL, trans_flag(CALL, trans)?, a, &al, &ah, b, &bl, &bh)
    })
}

/// `c[clo..chi] = alpha·a[alo..ahi] + beta·b[blo..bhi]`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Add_patch(
    alpha: *const c_void,
    a: c_int,
    alo: *const c_int,
    ahi: *const c_int,
    beta: *const c_void,
    b: c_int,
    blo: *const c_int,
    bhi: *const c_int,
    c: c_int,
    clo: *const c_int,
    chi: *const c_int,
) {
    const CALL: &str = "NGA_Add_patch";
    run(CALL, || {
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        let (al, ah) = patch(CALL, a, alo, ahi)?;
        let (bl, bh) = patch(CALL, b, blo, bhi)?;
        let (cl, ch) = patch(CALL, c, clo, chi)?;
        let alpha = scalar(CALL, "alpha", alpha, a)?;
        let beta = scalar(CALL, "beta", beta, a)?;
        ops::add_patch(CALL, alpha, a, &al, &ah, beta, b, &bl, &bh, c, &cl, &ch)
    })
}

/// Multiplies the patch lo..hi by `*alpha`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scale_patch(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    alpha: *const c_void,
) {
    const CALL: &str = "NGA_Scale_patch";
    run(CALL, || {
        let h = resolve(g);
        let (l, u) = patch(CALL, h, lo, hi)?;
        ops::scale_patch(CALL, h, &l, &u, scalar(CALL, "alpha", alpha, h)?)
    })
}

/// Sets the patch lo..hi to `*value`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Fill_patch(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    value: *const c_void,
) {
    const CALL: &str = "NGA_Fill_patch";
    run(CALL, || {
        let h = resolve(g);
        let (l, u) = patch(CALL, h, lo, hi)?;
        ops::fill_patch(CALL, h, &l, &u, scalar(CALL, "value", value, h)?)
    })
}

/// Sets the patch lo..hi to zero; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Zero_patch(g: c_int, lo: *const c_int, hi: *const c_int) {
    const CALL: &str = "NGA_Zero_patch";
    run(CALL, || {
        let h = resolve(g);
        let (l, u) = patch(CALL, h, lo, hi)?;
        ops::zero_patch(CALL, h, &l, &u)
    })
}

/// `b = transpose(a)` for 2-D arrays; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Transpose(a: c_int, b: c_int) {
    run("GA_Transpose", || {
        ops::transpose("GA_Transpose", resolve(a), resolve(b))
    })
}

/// `a = (a + transpose(a)) / 2` for a square 2-D array; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Symmetrize(g: c_int) {
    run("GA_Symmetrize", || {
        ops::symmetrize("GA_Symmetrize", resolve(g))
    })
}

/// `C = alpha·op(A)·op(B) + beta·C` with op(A) m×k, op(B) k×n, C m×n,
/// row-major (`ta`, `tb`: 'n' or 't'); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Dgemm(
    ta: c_char,
    tb: c_char,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: c_double,
    a: c_int,
    b: c_int,
    beta: c_double,
    c: c_int,
) {
    const CALL: &str = "GA_Dgemm";
    run(CALL, || {
        let (al, be) = (alpha.to_ne_bytes(), beta.to_ne_bytes());
        ops::gemm(
            CALL,
            ta as u8,
            tb as u8,
            m as i64,
            n as i64,
            k as i64,
            &al,
            resolve(a),
            resolve(b),
            &be,
            resolve(c),
        )
    })
}

/// `GA_Dgemm` for float arrays; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Sgemm(
    ta: c_char,
    tb: c_char,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: c_float,
    a: c_int,
    b: c_int,
    beta: c_float,
    c: c_int,
) {
    const CALL: &str = "GA_Sgemm";
    run(CALL, || {
        let (al, be) = (alpha.to_ne_bytes(), beta.to_ne_bytes());
        ops::gemm(
            CALL,
            ta as u8,
            tb as u8,
            m as i64,
            n as i64,
            k as i64,
            &al,
            resolve(a),
            resolve(b),
            &be,
            resolve(c),
        )
    })
}

/// `GA_Dgemm` for double complex arrays; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Zgemm(
    ta: c_char,
    tb: c_char,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: C64,
    a: c_int,
    b: c_int,
    beta: C64,
    c: c_int,
) {
    const CALL: &str = "GA_Zgemm";
    run(CALL, || {
        let (al, be) = (ops::elem::encode(&[alpha]), ops::elem::encode(&[beta]));
        ops::gemm(
            CALL,
            ta as u8,
            tb as u8,
            m as i64,
            n as i64,
            k as i64,
            &al,
            resolve(a),
            resolve(b),
            &be,
            resolve(c),
        )
    })
}

/// `GA_Dgemm` for single complex arrays; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Cgemm(
    ta: c_char,
    tb: c_char,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: C32,
    a: c_int,
    b: c_int,
    beta: C32,
    c: c_int,
) {
    const CALL: &str = "GA_Cgemm";
    run(CALL, || {
        let (al, be) = (ops::elem::encode(&[alpha]), ops::elem::encode(&[beta]));
        ops::gemm(
            CALL,
            ta as u8,
            tb as u8,
            m as i64,
            n as i64,
            k as i64,
            &al,
            resolve(a),
            resolve(b),
            &be,
            resolve(c),
        )
    })
}

/// `C[clo..chi] = alpha·op(A[alo..ahi])·op(B[blo..bhi]) + beta·C[clo..chi]`
/// on 2-D patches (`alpha`, `beta` of the arrays' type); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Matmul_patch(
    transa: c_char,
    transb: c_char,
    alpha: *const c_void,
    beta: *const c_void,
    a: c_int,
    alo: *const c_int,
    ahi: *const c_int,
    b: c_int,
    blo: *const c_int,
    bhi: *const c_int,
    c: c_int,
    clo: *const c_int,
    chi: *const c_int,
) {
    const CALL: &str = "NGA_Matmul_patch";
    run(CALL, || {
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        let (al, ah) = patch(CALL, a, alo, ahi)?;
        let (bl, bh) = patch(CALL, b, blo, bhi)?;
        let (cl, ch) = patch(CALL, c, clo, chi)?;
        let alpha = scalar(CALL, "alpha", alpha, c)?;
        let beta = scalar(CALL, "beta", beta, c)?;
        ops::matmul_patch(
            CALL,
            transa as u8,
            transb as u8,
            alpha,
            beta,
            a,
            &al,
            &ah,
            b,
            &bl,
            &bh,
            c,
            &cl,
            &ch,
        )
    })
}

/// `NGA_Matmul_patch` with 2-D patches given as row (i) and column (j)
/// ranges; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Matmul_patch(
    transa: c_char,
    transb: c_char,
    alpha: *const c_void,
    beta: *const c_void,
    a: c_int,
    ailo: c_int,
    aihi: c_int,
    ajlo: c_int,
    ajhi: c_int,
    b: c_int,
    bilo: c_int,
    bihi: c_int,
    bjlo: c_int,
    bjhi: c_int,
    c: c_int,
    cilo: c_int,
    cihi: c_int,
    cjlo: c_int,
    cjhi: c_int,
) {
    const CALL: &str = "GA_Matmul_patch";
    run(CALL, || {
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        let alpha = scalar(CALL, "alpha", alpha, c)?;
        let beta = scalar(CALL, "beta", beta, c)?;
        let v = |x: c_int| x as i64;
        ops::matmul_patch(
            CALL,
            transa as u8,
            transb as u8,
            alpha,
            beta,
            a,
            &[v(ailo), v(ajlo)],
            &[v(aihi), v(ajhi)],
            b,
            &[v(bilo), v(bjlo)],
            &[v(bihi), v(bjhi)],
            c,
            &[v(cilo), v(cjlo)],
            &[v(cihi), v(cjhi)],
        )
    })
}

/// Process 0 prints the array as GA does (Fortran order, 1-based);
/// collective; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Print(g: c_int) {
    run("GA_Print", || ops::print("GA_Print", resolve(g)))
}

/// Same as `GA_Print`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Print(g: c_int) {
    run("NGA_Print", || ops::print("NGA_Print", resolve(g)))
}

/// Process 0 prints which process owns which block; collective; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Print_distribution(g: c_int) {
    run("GA_Print_distribution", || {
        ops::print_distribution("GA_Print_distribution", resolve(g))
    })
}

/// Same as `GA_Print_distribution`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Print_distribution(g: c_int) {
    run("NGA_Print_distribution", || {
        ops::print_distribution("NGA_Print_distribution", resolve(g))
    })
}

/// Process 0 lists the live arrays (with their blocks when `verbose`);
/// returns nothing.
#[no_mangle]
pub extern "C" fn GA_Summarize(verbose: c_int) {
    run("GA_Summarize", || {
        ops::summarize("GA_Summarize", verbose != 0)
    })
}

/// Prints nothing (no operation statistics are kept); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Print_stats() {}
