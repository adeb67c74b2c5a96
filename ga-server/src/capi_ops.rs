//! The GA C ABI's array operations (`ga.h`): zero, fill, scale, copy, add,
//! dot products, patch operations, transpose, symmetrize, matrix
//! multiplication, printing. Each is collective; arguments are checked
//! and a bad one ends the job through `GA_Error` naming the call.

use crate::capi::{bounds, one_patch, run, scalar, scalar_patch, twins, CBuf};
use crate::capi_ptr::CIndex;
use crate::core::{GaError, GaResult, Handle};
use crate::ops;
use crate::ops::elem::{Num, C32, C64};
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};

fn resolve(g: c_int) -> Handle {
    crate::capi::resolve_handle(g)
}

/// Runs `op` on array `g` and the element of its type at `value` (named
/// `what` in messages), as a call whose only arguments they are.
fn with_scalar(
    call: &'static str,
    g: c_int,
    what: &str,
    value: *const c_void,
    op: impl FnOnce(&'static str, Handle, &[u8]) -> GaResult<()>,
) {
    run(call, || {
        let h = resolve(g);
        op(call, h, scalar(call, what, value, h)?)
    })
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
    with_scalar("GA_Fill", g, "value", value, ops::fill)
}

/// Same as `GA_Fill`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Fill(g: c_int, value: *const c_void) {
    GA_Fill(g, value)
}

/// Sets each element this process holds to `*value · r / RAND_MAX` for
/// successive draws `r` of the C library's `rand()` (so values lie in
/// [0, *value] and follow the program's own `srand` seed), walking the
/// process's memory as GA does (collective). `value` is of the array's
/// type: int, long, long long, float or double. Returns nothing; another
/// type, a bad handle or a NULL `value` ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Randomize(g: c_int, value: *const c_void) {
    with_scalar("GA_Randomize", g, "value", value, |call, h, v| {
        ops::randomize(call, h, v, crate::capi_ptr::c_rand)
    })
}

/// Same as `GA_Randomize`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Randomize(g: c_int, value: *const c_void) {
    GA_Randomize(g, value)
}

/// Multiplies every element by `*alpha`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Scale(g: c_int, alpha: *const c_void) {
    with_scalar("GA_Scale", g, "alpha", alpha, ops::scale)
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
fn dot_patch_as<T: Num, I: CIndex>(
    call: &'static str,
    want: &[Et],
    a: c_int,
    ta: c_char,
    alo: *const I,
    ahi: *const I,
    b: c_int,
    tb: c_char,
    blo: *const I,
    bhi: *const I,
) -> T {
    run(call, || {
        let (a, b) = (resolve(a), resolve(b));
        let (ty, _) = ops::patch::inquire(call, a)?;
        if !want.contains(&ty) {
            return Err(ops::elem::unsupported(call, ty));
        }
        let (al, ah) = bounds(call, a, alo, ahi)?;
        let (bl, bh) = bounds(call, b, blo, bhi)?;
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
    })
}

/// Defines the `int` and `int64_t` entry points of one patch dot product.
macro_rules! dot_patch_calls {
    ($(#[$doc:meta])* $name:ident, $name64:ident, $ret:ty, $t:ty, $want:expr) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(
            a: c_int,
            ta: c_char,
            alo: *const c_int,
            ahi: *const c_int,
            b: c_int,
            tb: c_char,
            blo: *const c_int,
            bhi: *const c_int,
        ) -> $ret {
            dot_patch_as::<$t, c_int>(stringify!($name), $want, a, ta, alo, ahi, b, tb, blo, bhi)
        }

        /// The same with 64-bit patch bounds; returns the dot product, and
        /// bad arguments end the job through `GA_Error` as there.
        #[no_mangle]
        pub extern "C" fn $name64(
            a: c_int,
            ta: c_char,
            alo: *const i64,
            ahi: *const i64,
            b: c_int,
            tb: c_char,
            blo: *const i64,
            bhi: *const i64,
        ) -> $ret {
            dot_patch_as::<$t, i64>(stringify!($name64), $want, a, ta, alo, ahi, b, tb, blo, bhi)
        }
    };
}

dot_patch_calls!(
    /// Returns the element-wise dot product of two double patches (`t_a`,
    /// `t_b`: 'n' or 't' to transpose a patch); a bad handle, patch or
    /// type ends the job through `GA_Error`.
    NGA_Ddot_patch, NGA_Ddot_patch64, c_double, f64, &[Et::Double]
);
dot_patch_calls!(
    /// Returns the element-wise dot product of two int patches; bad
    /// arguments end the job through `GA_Error`.
    NGA_Idot_patch, NGA_Idot_patch64, c_int, i32, &[Et::Int]
);
dot_patch_calls!(
    /// Returns the element-wise dot product of two long patches; bad
    /// arguments end the job through `GA_Error`.
    NGA_Ldot_patch, NGA_Ldot_patch64, c_long, i64, &[Et::Long, Et::LongLong]
);
dot_patch_calls!(
    /// Returns the element-wise dot product of two long long patches; bad
    /// arguments end the job through `GA_Error`.
    NGA_Lldot_patch, NGA_Lldot_patch64, c_longlong, i64, &[Et::Long, Et::LongLong]
);
dot_patch_calls!(
    /// Returns the element-wise dot product of two float patches; bad
    /// arguments end the job through `GA_Error`.
    NGA_Fdot_patch, NGA_Fdot_patch64, c_float, f32, &[Et::Float]
);
dot_patch_calls!(
    /// Returns the element-wise dot product (no conjugation) of two double
    /// complex patches; bad arguments end the job through `GA_Error`.
    NGA_Zdot_patch, NGA_Zdot_patch64, C64, C64, &[Et::DComplex]
);
dot_patch_calls!(
    /// Returns the element-wise dot product (no conjugation) of two single
    /// complex patches; bad arguments end the job through `GA_Error`.
    NGA_Cdot_patch, NGA_Cdot_patch64, C32, C32, &[Et::SComplex]
);

#[allow(clippy::too_many_arguments)]
fn copy_patch<I: CIndex>(
    call: &'static str,
    trans: c_char,
    a: c_int,
    alo: *const I,
    ahi: *const I,
    b: c_int,
    blo: *const I,
    bhi: *const I,
) {
    run(call, || {
        let (a, b) = (resolve(a), resolve(b));
        let (al, ah) = bounds(call, a, alo, ahi)?;
        let (bl, bh) = bounds(call, b, blo, bhi)?;
        ops::copy_patch(call, trans_flag(call, trans)?, a, &al, &ah, b, &bl, &bh)
    })
}

/// Copies patch alo..ahi of `a` into patch blo..bhi of `b` (same number of
/// elements; `trans` 't' transposes); returns nothing. Patches of
/// different sizes or outside the arrays end the job through `GA_Error`.
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
    copy_patch("NGA_Copy_patch", trans, a, alo, ahi, b, blo, bhi)
}

/// `NGA_Copy_patch` with 64-bit patch bounds; returns nothing, and fails as `NGA_Copy_patch` does.
#[no_mangle]
pub extern "C" fn NGA_Copy_patch64(
    trans: c_char,
    a: c_int,
    alo: *const i64,
    ahi: *const i64,
    b: c_int,
    blo: *const i64,
    bhi: *const i64,
) {
    copy_patch("NGA_Copy_patch64", trans, a, alo, ahi, b, blo, bhi)
}

#[allow(clippy::too_many_arguments)]
fn add_patch<I: CIndex>(
    call: &'static str,
    alpha: *const c_void,
    a: c_int,
    alo: *const I,
    ahi: *const I,
    beta: *const c_void,
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
        let alpha = scalar(call, "alpha", alpha, a)?;
        let beta = scalar(call, "beta", beta, a)?;
        ops::add_patch(call, alpha, a, &al, &ah, beta, b, &bl, &bh, c, &cl, &ch)
    })
}

/// `c[clo..chi] = alpha·a[alo..ahi] + beta·b[blo..bhi]`; returns nothing.
/// Bad handles or patches end the job through `GA_Error`.
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
    add_patch(
        "NGA_Add_patch",
        alpha,
        a,
        alo,
        ahi,
        beta,
        b,
        blo,
        bhi,
        c,
        clo,
        chi,
    )
}

/// `NGA_Add_patch` with 64-bit patch bounds; returns nothing, and fails as `NGA_Add_patch` does.
#[no_mangle]
pub extern "C" fn NGA_Add_patch64(
    alpha: *const c_void,
    a: c_int,
    alo: *const i64,
    ahi: *const i64,
    beta: *const c_void,
    b: c_int,
    blo: *const i64,
    bhi: *const i64,
    c: c_int,
    clo: *const i64,
    chi: *const i64,
) {
    add_patch(
        "NGA_Add_patch64",
        alpha,
        a,
        alo,
        ahi,
        beta,
        b,
        blo,
        bhi,
        c,
        clo,
        chi,
    )
}

twins! {
    /// Multiplies the patch lo..hi by `*alpha`; returns nothing. A bad handle
    /// or patch ends the job through `GA_Error`.
    fn NGA_Scale_patch / NGA_Scale_patch64 (g: c_int, lo: Ix, hi: Ix, alpha: CBuf)
        = scalar_patch["alpha", ops::scale_patch][];
}

twins! {
    /// Sets the patch lo..hi to `*value`; returns nothing. A bad handle or
    /// patch ends the job through `GA_Error`.
    fn NGA_Fill_patch / NGA_Fill_patch64 (g: c_int, lo: Ix, hi: Ix, value: CBuf)
        = scalar_patch["value", ops::fill_patch][];
}

twins! {
    /// Sets the patch lo..hi to zero; returns nothing. A bad handle or patch
    /// ends the job through `GA_Error`.
    fn NGA_Zero_patch / NGA_Zero_patch64 (g: c_int, lo: Ix, hi: Ix)
        = one_patch[ops::zero_patch][];
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

#[allow(clippy::too_many_arguments)]
fn gemm(
    call: &'static str,
    ta: c_char,
    tb: c_char,
    m: i64,
    n: i64,
    k: i64,
    alpha: &[u8],
    a: c_int,
    b: c_int,
    beta: &[u8],
    c: c_int,
) {
    run(call, || {
        ops::gemm(
            call,
            ta as u8,
            tb as u8,
            m,
            n,
            k,
            alpha,
            resolve(a),
            resolve(b),
            beta,
            resolve(c),
        )
    })
}

/// Defines the `int` and `int64_t` entry points of one typed gemm; the
/// scalars are encoded as the arrays' element bytes.
macro_rules! gemm_calls {
    ($(#[$doc:meta])* $name:ident, $name64:ident, $t:ty) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(
            ta: c_char,
            tb: c_char,
            m: c_int,
            n: c_int,
            k: c_int,
            alpha: $t,
            a: c_int,
            b: c_int,
            beta: $t,
            c: c_int,
        ) {
            let (al, be) = (ops::elem::encode(&[alpha]), ops::elem::encode(&[beta]));
            gemm(stringify!($name), ta, tb, m.into(), n.into(), k.into(), &al, a, b, &be, c)
        }

        /// The same with 64-bit m, n and k; returns nothing, and shapes
        /// that do not match end the job through `GA_Error` as there.
        #[no_mangle]
        pub extern "C" fn $name64(
            ta: c_char,
            tb: c_char,
            m: i64,
            n: i64,
            k: i64,
            alpha: $t,
            a: c_int,
            b: c_int,
            beta: $t,
            c: c_int,
        ) {
            let (al, be) = (ops::elem::encode(&[alpha]), ops::elem::encode(&[beta]));
            gemm(stringify!($name64), ta, tb, m, n, k, &al, a, b, &be, c)
        }
    };
}

gemm_calls!(
    /// `C = alpha·op(A)·op(B) + beta·C` with op(A) m×k, op(B) k×n, C m×n,
    /// row-major (`ta`, `tb`: 'n' or 't'); returns nothing. Shapes that
    /// do not match end the job through `GA_Error`.
    GA_Dgemm, GA_Dgemm64, c_double
);
gemm_calls!(
    /// `GA_Dgemm` for float arrays; returns nothing.
    GA_Sgemm, GA_Sgemm64, c_float
);
gemm_calls!(
    /// `GA_Dgemm` for double complex arrays; returns nothing.
    GA_Zgemm, GA_Zgemm64, C64
);
gemm_calls!(
    /// `GA_Dgemm` for single complex arrays; returns nothing.
    GA_Cgemm, GA_Cgemm64, C32
);

/// The 2-D matrix-multiply patches, already read: a, b and c with their
/// lo/hi.
type Patches2 = [(c_int, Vec<i64>, Vec<i64>); 3];

fn matmul(
    call: &'static str,
    transa: c_char,
    transb: c_char,
    alpha: *const c_void,
    beta: *const c_void,
    read: impl FnOnce() -> GaResult<Patches2>,
) {
    run(call, || {
        let [(a, al, ah), (b, bl, bh), (c, cl, ch)] = read()?;
        let (a, b, c) = (resolve(a), resolve(b), resolve(c));
        let alpha = scalar(call, "alpha", alpha, c)?;
        let beta = scalar(call, "beta", beta, c)?;
        ops::matmul_patch(
            call,
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

/// The three patches of NGA_Matmul_patch(64), read as the arrays' ranks say.
#[allow(clippy::too_many_arguments)]
fn matmul_patches<I: CIndex>(
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
) -> GaResult<Patches2> {
    let (al, ah) = bounds(call, resolve(a), alo, ahi)?;
    let (bl, bh) = bounds(call, resolve(b), blo, bhi)?;
    let (cl, ch) = bounds(call, resolve(c), clo, chi)?;
    Ok([(a, al, ah), (b, bl, bh), (c, cl, ch)])
}

/// `C[clo..chi] = alpha·op(A[alo..ahi])·op(B[blo..bhi]) + beta·C[clo..chi]`
/// on 2-D patches (`alpha`, `beta` of the arrays' type); returns nothing.
/// Patches that do not match end the job through `GA_Error`.
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
    matmul(CALL, transa, transb, alpha, beta, || {
        matmul_patches(CALL, a, alo, ahi, b, blo, bhi, c, clo, chi)
    })
}

/// `NGA_Matmul_patch` with 64-bit patch bounds; returns nothing, and fails as `NGA_Matmul_patch` does.
#[no_mangle]
pub extern "C" fn NGA_Matmul_patch64(
    transa: c_char,
    transb: c_char,
    alpha: *const c_void,
    beta: *const c_void,
    a: c_int,
    alo: *const i64,
    ahi: *const i64,
    b: c_int,
    blo: *const i64,
    bhi: *const i64,
    c: c_int,
    clo: *const i64,
    chi: *const i64,
) {
    const CALL: &str = "NGA_Matmul_patch64";
    matmul(CALL, transa, transb, alpha, beta, || {
        matmul_patches(CALL, a, alo, ahi, b, blo, bhi, c, clo, chi)
    })
}

/// One 2-D patch given as row range `ilo..=ihi` and column range `jlo..=jhi`.
fn rows_cols(g: c_int, ilo: i64, ihi: i64, jlo: i64, jhi: i64) -> (c_int, Vec<i64>, Vec<i64>) {
    (g, vec![ilo, jlo], vec![ihi, jhi])
}

/// `NGA_Matmul_patch` with 2-D patches given as row (i) and column (j)
/// ranges; returns nothing. Patches that do not match end the job
/// through `GA_Error`.
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
    let v = i64::from;
    matmul("GA_Matmul_patch", transa, transb, alpha, beta, || {
        Ok([
            rows_cols(a, v(ailo), v(aihi), v(ajlo), v(ajhi)),
            rows_cols(b, v(bilo), v(bihi), v(bjlo), v(bjhi)),
            rows_cols(c, v(cilo), v(cihi), v(cjlo), v(cjhi)),
        ])
    })
}

/// `GA_Matmul_patch` with 64-bit row and column ranges; returns nothing, and fails as `GA_Matmul_patch` does.
#[no_mangle]
pub extern "C" fn GA_Matmul_patch64(
    transa: c_char,
    transb: c_char,
    alpha: *const c_void,
    beta: *const c_void,
    a: c_int,
    ailo: i64,
    aihi: i64,
    ajlo: i64,
    ajhi: i64,
    b: c_int,
    bilo: i64,
    bihi: i64,
    bjlo: i64,
    bjhi: i64,
    c: c_int,
    cilo: i64,
    cihi: i64,
    cjlo: i64,
    cjhi: i64,
) {
    matmul("GA_Matmul_patch64", transa, transb, alpha, beta, || {
        Ok([
            rows_cols(a, ailo, aihi, ajlo, ajhi),
            rows_cols(b, bilo, bihi, bjlo, bjhi),
            rows_cols(c, cilo, cihi, cjlo, cjhi),
        ])
    })
}

fn print_patch<I: CIndex>(call: &'static str, g: c_int, lo: *const I, hi: *const I, pretty: c_int) {
    run(call, || {
        let h = resolve(g);
        let (l, u) = bounds(call, h, lo, hi)?;
        ops::print_patch(call, h, &l, &u, pretty != 0)
    })
}

twins! {
    /// Process 0 prints the patch lo..hi as GA does (collective): with
    /// `pretty` as `GA_Print` lays out a whole array (Fortran order, 1-based,
    /// rows and columns labelled with the array's own indices), without it
    /// one `name(i,j) = value` line per element. Returns nothing; a bad
    /// handle or patch ends the job through `GA_Error`.
    fn NGA_Print_patch / NGA_Print_patch64 (g: c_int, lo: Ix, hi: Ix, pretty: c_int) = print_patch;
}

/// `NGA_Print_patch` of the 2-D patch rows `ilo..=ihi`, columns
/// `jlo..=jhi` (0-based C indices); returns nothing. A bad handle or
/// patch, or an array that is not 2-D, ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Print_patch(
    g: c_int,
    ilo: c_int,
    ihi: c_int,
    jlo: c_int,
    jhi: c_int,
    pretty: c_int,
) {
    const CALL: &str = "GA_Print_patch";
    run(CALL, || {
        let h = resolve(g);
        let (_, d) = ops::patch::inquire(CALL, h)?;
        if d.len() != 2 {
            return Err(GaError::new(
                CALL,
                format!(
                    "g_a '{}' has {} dimensions, not 2",
                    ops::patch::name(h),
                    d.len()
                ),
            ));
        }
        let (lo, hi) = ([ilo, jlo].map(i64::from), [ihi, jhi].map(i64::from));
        ops::print_patch(CALL, h, &lo, &hi, pretty != 0)
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

/// `GA_Print` to the C stream `file` (a `FILE *` open for writing on
/// process 0, which writes; collective). Returns nothing; a bad handle, a
/// NULL `file` on process 0 or a failed write ends the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Print_file(file: *mut c_void, g: c_int) {
    const CALL: &str = "GA_Print_file";
    run(CALL, || {
        ops::print_to(CALL, resolve(g), |text| {
            crate::capi_ptr::write_c_file(file, text).map_err(|m| GaError::new(CALL, m))
        })
    })
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
