//! Matrix multiplication of array patches on OpenBLAS (`cblas_?gemm` from
//! Debian's libopenblas). Indices are the C API's: 0-based, row-major, so
//! `C = alpha·op(A)·op(B) + beta·C` with C an m×n patch whose rows are
//! dimension 0. (The Fortran API, column-major, reaches the same routine
//! with the operands swapped: its `dgemm(ta,tb,m,n,k,A,B,C)` is this one's
//! `(tb,ta,n,m,k,B,A,C)`.)
//!
//! The crate's FFI edge to BLAS: [`local_gemm`] is its one call into C
//! (`cblas-gemm`'s `unsafe` entry), the only `unsafe` of this file.

use super::elem::{decode, encode, scalar, Num, C32, C64};
use super::patch::{check_patch, get_rect, own_parts, put_rect, relabel};
use crate::core::{self, fmt_patch, ElemType, GaError, GaResult, Handle};
use cblas_gemm::{Dims, Scalar, CONJ_TRANS, NO_TRANS, ROW_MAJOR, TRANS};
use std::ffi::c_int;

/// One local product `c = alpha·op(a)·op(b) + beta·c` (row-major).
struct Local<'a, T> {
    ta: c_int,
    tb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    a: &'a [T],
    lda: c_int,
    b: &'a [T],
    ldb: c_int,
    c: &'a mut [T],
    ldc: c_int,
}

/// Element types with a BLAS gemm, each with the CBLAS element of the
/// same layout.
trait Gemm: Num {
    type Blas: Scalar;
    /// The value as the CBLAS element.
    fn blas(self) -> Self::Blas;
}

/// Checks the buffer sizes a row-major gemm reads and writes.
fn sizes_ok<T>(l: &Local<'_, T>) -> bool {
    let rows_a = if l.ta == NO_TRANS { l.m } else { l.k } as usize;
    let rows_b = if l.tb == NO_TRANS { l.k } else { l.n } as usize;
    l.a.len() >= rows_a * l.lda as usize
        && l.b.len() >= rows_b * l.ldb as usize
        && l.c.len() >= l.m as usize * l.ldc as usize
}

impl Gemm for f32 {
    type Blas = f32;
    fn blas(self) -> f32 {
        self
    }
}

impl Gemm for f64 {
    type Blas = f64;
    fn blas(self) -> f64 {
        self
    }
}

/// `C32` is `repr(C) {float re, im}`: the layout of `[f32; 2]`.
impl Gemm for C32 {
    type Blas = [f32; 2];
    fn blas(self) -> [f32; 2] {
        [self.re, self.im]
    }
}

/// `C64` is `repr(C) {double re, im}`: the layout of `[f64; 2]`.
impl Gemm for C64 {
    type Blas = [f64; 2];
    fn blas(self) -> [f64; 2] {
        [self.re, self.im]
    }
}

/// Runs one local product on BLAS.
fn local_gemm<T: Gemm>(alpha: T, beta: T, l: Local<'_, T>) {
    assert!(sizes_ok(&l), "gemm buffers too small");
    assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<T::Blas>());
    let d = Dims {
        order: ROW_MAJOR,
        ta: l.ta,
        tb: l.tb,
        m: l.m,
        n: l.n,
        k: l.k,
        lda: l.lda,
        ldb: l.ldb,
        ldc: l.ldc,
    };
    let (a, b) = (
        l.a.as_ptr() as *const T::Blas,
        l.b.as_ptr() as *const T::Blas,
    );
    // SAFETY: the buffers hold the rows and leading dimensions given
    // (checked just above) and live for the call; `T` and `T::Blas` have
    // the same layout (see the impls above); `c` is a distinct borrow.
    unsafe {
        T::Blas::gemm(
            &d,
            alpha.blas(),
            a,
            b,
            beta.blas(),
            l.c.as_mut_ptr() as *mut T::Blas,
        )
    }
}

/// The CBLAS code of a GA transpose character.
fn trans_code(call: &'static str, which: &str, t: u8) -> GaResult<c_int> {
    match t {
        b'n' | b'N' => Ok(NO_TRANS),
        b't' | b'T' => Ok(TRANS),
        b'c' | b'C' => Ok(CONJ_TRANS),
        _ => Err(GaError::new(
            call,
            format!("{which} must be 'n', 't' or 'c', not {:?}", t as char),
        )),
    }
}

fn blas_int(call: &'static str, v: i64) -> GaResult<c_int> {
    c_int::try_from(v).map_err(|_| GaError::new(call, format!("dimension {v} too large for BLAS")))
}

/// `C = alpha·op(A)·op(B) + beta·C` on 2-D patches (collective). `alpha`
/// and `beta` are one element of the arrays' type.
#[allow(clippy::too_many_arguments)]
pub fn matmul_patch(
    call: &'static str,
    ta: u8,
    tb: u8,
    alpha: &[u8],
    beta: &[u8],
    a: Handle,
    alo: &[i64],
    ahi: &[i64],
    b: Handle,
    blo: &[i64],
    bhi: &[i64],
    c: Handle,
    clo: &[i64],
    chi: &[i64],
) -> GaResult<()> {
    let (tya, _) = check_patch(call, a, alo, ahi)?;
    let (tyb, _) = check_patch(call, b, blo, bhi)?;
    let (tyc, _) = check_patch(call, c, clo, chi)?;
    if alo.len() != 2 || blo.len() != 2 || clo.len() != 2 {
        return Err(GaError::new(call, "matrix multiplication needs 2-D arrays"));
    }
    if tya != tyb || tya != tyc {
        return Err(GaError::new(
            call,
            "the three arrays must have the same type",
        ));
    }
    let cta = trans_code(call, "transa", ta)?;
    let ctb = trans_code(call, "transb", tb)?;
    let (ar, ac) = (ahi[0] - alo[0] + 1, ahi[1] - alo[1] + 1);
    let (br, bc) = (bhi[0] - blo[0] + 1, bhi[1] - blo[1] + 1);
    let (m, k) = if cta == NO_TRANS { (ar, ac) } else { (ac, ar) };
    let (k2, n) = if ctb == NO_TRANS { (br, bc) } else { (bc, br) };
    let (cm, cn) = (chi[0] - clo[0] + 1, chi[1] - clo[1] + 1);
    if k != k2 || m != cm || n != cn {
        return Err(GaError::new(
            call,
            format!(
                "patch shapes do not multiply: op(A {}) is {m}x{k}, op(B {}) is {k2}x{n}, C {} is {cm}x{cn}",
                fmt_patch(alo, ahi),
                fmt_patch(blo, bhi),
                fmt_patch(clo, chi)
            ),
        ));
    }
    let geo = Geometry {
        cta,
        ctb,
        k,
        alo,
        ahi,
        blo,
        bhi,
        clo,
        chi,
    };
    match tyc {
        ElemType::Float => product::<f32>(call, &geo, alpha, beta, (a, b, c)),
        ElemType::Double => product::<f64>(call, &geo, alpha, beta, (a, b, c)),
        ElemType::SComplex => product::<C32>(call, &geo, alpha, beta, (a, b, c)),
        ElemType::DComplex => product::<C64>(call, &geo, alpha, beta, (a, b, c)),
        other => Err(super::elem::unsupported(call, other)),
    }
}

struct Geometry<'a> {
    cta: c_int,
    ctb: c_int,
    k: i64,
    alo: &'a [i64],
    ahi: &'a [i64],
    blo: &'a [i64],
    bhi: &'a [i64],
    clo: &'a [i64],
    chi: &'a [i64],
}

/// The slab `first..=last` (counted from `lo[dim]`) along dimension `dim`
/// of the 2-D patch `lo..=hi` of `g`, over the whole patch in the other
/// dimension.
fn slab(
    call: &'static str,
    g: Handle,
    size: usize,
    (lo, hi): (&[i64], &[i64]),
    dim: usize,
    (first, last): (i64, i64),
) -> GaResult<Vec<u8>> {
    let (mut l, mut h) = ([lo[0], lo[1]], [hi[0], hi[1]]);
    l[dim] = lo[dim] + first;
    h[dim] = lo[dim] + last;
    get_rect(call, g, size, &l, &h)
}

fn product<T: Gemm>(
    call: &'static str,
    g: &Geometry<'_>,
    alpha: &[u8],
    beta: &[u8],
    (a, b, c): (Handle, Handle, Handle),
) -> GaResult<()> {
    let al: T = scalar(call, "alpha", alpha)?;
    let be: T = scalar(call, "beta", beta)?;
    let (alo, ahi, blo, bhi, clo) = (g.alo, g.ahi, g.blo, g.bhi, g.clo);
    core::sync_array(c).map_err(|e| relabel(call, e))?;
    let mut staged = Vec::new();
    for (rlo, rhi) in own_parts(call, c, clo, g.chi)? {
        let (i0, i1) = (rlo[0] - clo[0], rhi[0] - clo[0]);
        let (j0, j1) = (rlo[1] - clo[1], rhi[1] - clo[1]);
        let (mi, nj, k) = (i1 - i0 + 1, j1 - j0 + 1, g.k);
        // Rows i0..=i1 of op(A): rows of A, or its columns when transposed.
        let (adim, lda) = if g.cta == NO_TRANS { (0, k) } else { (1, mi) };
        let va = slab(call, a, T::SIZE, (alo, ahi), adim, (i0, i1))?;
        // Columns j0..=j1 of op(B): columns of B, or its rows when transposed.
        let (bdim, ldb) = if g.ctb == NO_TRANS { (1, nj) } else { (0, k) };
        let vb = slab(call, b, T::SIZE, (blo, bhi), bdim, (j0, j1))?;
        let va: Vec<T> = decode(&va);
        let vb: Vec<T> = decode(&vb);
        let mut vc: Vec<T> = if be == T::default() {
            vec![T::default(); (mi * nj) as usize]
        } else {
            decode(&get_rect(call, c, T::SIZE, &rlo, &rhi)?)
        };
        local_gemm(
            al,
            be,
            Local {
                ta: g.cta,
                tb: g.ctb,
                m: blas_int(call, mi)?,
                n: blas_int(call, nj)?,
                k: blas_int(call, k)?,
                a: &va,
                lda: blas_int(call, lda)?,
                b: &vb,
                ldb: blas_int(call, ldb)?,
                c: &mut vc,
                ldc: blas_int(call, nj)?,
            },
        );
        staged.push((encode(&vc), rlo, rhi));
    }
    // Everyone has read A, B and C before anyone writes C.
    core::sync_array(c).map_err(|e| relabel(call, e))?;
    for (buf, rlo, rhi) in staged {
        put_rect(call, c, &rlo, &rhi, &buf)?;
    }
    core::sync_array(c).map_err(|e| relabel(call, e))
}

/// GA_Dgemm and its siblings: `C[0:m-1,0:n-1] = alpha·op(A)·op(B) +
/// beta·C` where op(A) is m×k and op(B) is k×n, taken from the top-left
/// corners of the arrays (row-major C indexing).
#[allow(clippy::too_many_arguments)]
pub fn gemm(
    call: &'static str,
    ta: u8,
    tb: u8,
    m: i64,
    n: i64,
    k: i64,
    alpha: &[u8],
    a: Handle,
    b: Handle,
    beta: &[u8],
    c: Handle,
) -> GaResult<()> {
    if m < 1 || n < 1 || k < 1 {
        return Err(GaError::new(
            call,
            format!("m={m}, n={n}, k={k}: each must be at least 1"),
        ));
    }
    let cta = trans_code(call, "ta", ta)?;
    let ctb = trans_code(call, "tb", tb)?;
    let ahi = if cta == NO_TRANS {
        [m - 1, k - 1]
    } else {
        [k - 1, m - 1]
    };
    let bhi = if ctb == NO_TRANS {
        [k - 1, n - 1]
    } else {
        [n - 1, k - 1]
    };
    matmul_patch(
        call,
        ta,
        tb,
        alpha,
        beta,
        a,
        &[0, 0],
        &ahi,
        b,
        &[0, 0],
        &bhi,
        c,
        &[0, 0],
        &[m - 1, n - 1],
    )
}
