//! The local block products of MATMUL on the system BLAS (through
//! `cblas-gemm`). Column-major, no transposition,
//! `C += A * B`.
//!
//! The crate's FFI edge to BLAS: the one call into C (`cblas-gemm`'s
//! `unsafe` entry) is this file's only `unsafe`.

use crate::error::{HpfError, HpfResult};
use cblas_gemm::{Dims, Scalar, COL_MAJOR, NO_TRANS};
use std::ffi::c_int;

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

/// `C += A * B` in single or double precision.
pub fn gemm<T: Scalar + From<u8>>(s: GemmShape, a: &[T], b: &[T], c: &mut [T]) -> HpfResult<()> {
    let [m, n, k, lda, ldb, ldc] = s.check(a.len(), b.len(), c.len())?;
    if m == 0 || n == 0 || k == 0 {
        return Ok(());
    }
    let d = Dims {
        order: COL_MAJOR,
        ta: NO_TRANS,
        tb: NO_TRANS,
        m,
        n,
        k,
        lda,
        ldb,
        ldc,
    };
    let one = T::from(1);
    // SAFETY: `check` proved that each slice covers its operand with the
    // given leading dimension; the slices stay borrowed for the call and
    // `c` is not aliased by `a` or `b` (distinct borrows).
    unsafe { T::gemm(&d, one, a.as_ptr(), b.as_ptr(), one, c.as_mut_ptr()) };
    Ok(())
}
