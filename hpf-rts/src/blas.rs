//! The FFI edge to the system BLAS (Debian's OpenBLAS, `cblas_?gemm`):
//! the local block products of MATMUL. Column-major, no transposition,
//! `C += A * B`.

use crate::error::{HpfError, HpfResult};
use std::ffi::c_int;

const COL_MAJOR: c_int = 102;
const NO_TRANS: c_int = 111;

#[link(name = "openblas")]
extern "C" {
    fn cblas_sgemm(
        order: c_int,
        ta: c_int,
        tb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: f32,
        a: *const f32,
        lda: c_int,
        b: *const f32,
        ldb: c_int,
        beta: f32,
        c: *mut f32,
        ldc: c_int,
    );
    fn cblas_dgemm(
        order: c_int,
        ta: c_int,
        tb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: f64,
        a: *const f64,
        lda: c_int,
        b: *const f64,
        ldb: c_int,
        beta: f64,
        c: *mut f64,
        ldc: c_int,
    );
}

/// Shape of one local product `C(m×n) += A(m×k) * B(k×n)`, each operand
/// column-major with its leading dimension.
#[derive(Clone, Copy, Debug)]
pub struct GemmShape {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// Leading dimension of A.
    pub lda: usize,
    /// Leading dimension of B.
    pub ldb: usize,
    /// Leading dimension of C.
    pub ldc: usize,
}

impl GemmShape {
    /// Elements an operand of `rows`×`cols` with leading dimension `ld`
    /// spans (0 when empty).
    fn span(rows: usize, cols: usize, ld: usize) -> usize {
        if rows == 0 || cols == 0 {
            0
        } else {
            ld * (cols - 1) + rows
        }
    }

    /// Checks that the buffers cover the operands, the leading dimensions
    /// are valid and every size fits the BLAS integer.
    pub fn check(&self, a: usize, b: usize, c: usize) -> HpfResult<[c_int; 6]> {
        const CALL: &str = "hpf_matmul (local product)";
        let ok = self.lda >= self.m.max(1)
            && self.ldb >= self.k.max(1)
            && self.ldc >= self.m.max(1)
            && Self::span(self.m, self.k, self.lda) <= a
            && Self::span(self.k, self.n, self.ldb) <= b
            && Self::span(self.m, self.n, self.ldc) <= c;
        if !ok {
            return Err(HpfError::new(
                crate::error::HPF_EINTERNAL,
                format!("{CALL}: operands do not cover {self:?}"),
            ));
        }
        let v = [self.m, self.n, self.k, self.lda, self.ldb, self.ldc];
        let mut out = [0 as c_int; 6];
        for (o, x) in out.iter_mut().zip(v) {
            *o = c_int::try_from(x).map_err(|_| {
                HpfError::bad_arg(CALL, format!("local size {x} exceeds the BLAS integer"))
            })?;
        }
        Ok(out)
    }
}

/// `C += A * B` in single precision.
pub fn sgemm(s: GemmShape, a: &[f32], b: &[f32], c: &mut [f32]) -> HpfResult<()> {
    let [m, n, k, lda, ldb, ldc] = s.check(a.len(), b.len(), c.len())?;
    if m == 0 || n == 0 || k == 0 {
        return Ok(());
    }
    // SAFETY: `check` proved that each slice covers its operand with the
    // given leading dimension; the slices stay borrowed for the call and
    // `c` is not aliased by `a` or `b` (distinct borrows).
    unsafe {
        cblas_sgemm(
            COL_MAJOR,
            NO_TRANS,
            NO_TRANS,
            m,
            n,
            k,
            1.0,
            a.as_ptr(),
            lda,
            b.as_ptr(),
            ldb,
            1.0,
            c.as_mut_ptr(),
            ldc,
        )
    }
    Ok(())
}

/// `C += A * B` in double precision.
pub fn dgemm(s: GemmShape, a: &[f64], b: &[f64], c: &mut [f64]) -> HpfResult<()> {
    let [m, n, k, lda, ldb, ldc] = s.check(a.len(), b.len(), c.len())?;
    if m == 0 || n == 0 || k == 0 {
        return Ok(());
    }
    // SAFETY: as in `sgemm`.
    unsafe {
        cblas_dgemm(
            COL_MAJOR,
            NO_TRANS,
            NO_TRANS,
            m,
            n,
            k,
            1.0,
            a.as_ptr(),
            lda,
            b.as_ptr(),
            ldb,
            1.0,
            c.as_mut_ptr(),
            ldc,
        )
    }
    Ok(())
}
