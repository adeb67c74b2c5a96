//! cblas-gemm: the FFI edge to the system BLAS (Debian's OpenBLAS) for the
//! one routine family mpbridge uses, `cblas_?gemm`, and a typed entry
//! ([`Scalar::gemm`]) so that the GA and HPF run-times declare nothing of
//! their own. Complex elements are `[re, im]` pairs, the layout CBLAS
//! expects.

use std::ffi::{c_int, c_void};

/// CBLAS storage order: rows contiguous.
pub const ROW_MAJOR: c_int = 101;
/// CBLAS storage order: columns contiguous.
pub const COL_MAJOR: c_int = 102;
/// CBLAS operand as stored.
pub const NO_TRANS: c_int = 111;
/// CBLAS operand transposed.
pub const TRANS: c_int = 112;
/// CBLAS operand transposed and conjugated.
pub const CONJ_TRANS: c_int = 113;

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
    fn cblas_cgemm(
        order: c_int,
        ta: c_int,
        tb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        lda: c_int,
        b: *const c_void,
        ldb: c_int,
        beta: *const c_void,
        c: *mut c_void,
        ldc: c_int,
    );
    fn cblas_zgemm(
        order: c_int,
        ta: c_int,
        tb: c_int,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        lda: c_int,
        b: *const c_void,
        ldb: c_int,
        beta: *const c_void,
        c: *mut c_void,
        ldc: c_int,
    );
}

/// The integer arguments of one `C = alpha·op(A)·op(B) + beta·C`, in CBLAS
/// terms: storage order, the two operand codes, C's `m`×`n`, the inner
/// dimension `k`, and the three leading dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub order: c_int,
    pub ta: c_int,
    pub tb: c_int,
    pub m: c_int,
    pub n: c_int,
    pub k: c_int,
    pub lda: c_int,
    pub ldb: c_int,
    pub ldc: c_int,
}

/// Element types with a CBLAS gemm: `f32`, `f64`, `[f32; 2]` and
/// `[f64; 2]` (complex as `[re, im]`).
pub trait Scalar: Copy {
    /// Runs the gemm of this element type.
    ///
    /// # Safety
    /// `a`, `b` and `c` must cover the operands that `d` describes (rows or
    /// columns by the storage order, each with its leading dimension), stay
    /// valid for the call, and `c` must be writable and not overlap `a` or
    /// `b`.
    unsafe fn gemm(d: &Dims, alpha: Self, a: *const Self, b: *const Self, beta: Self, c: *mut Self);
}

macro_rules! real_gemm {
    ($t:ty, $f:ident) => {
        impl Scalar for $t {
            unsafe fn gemm(d: &Dims, alpha: $t, a: *const $t, b: *const $t, beta: $t, c: *mut $t) {
                // SAFETY: FFI call; the caller's contract (see the trait)
                // gives operands that cover `d` for the call.
                unsafe {
                    $f(
                        d.order, d.ta, d.tb, d.m, d.n, d.k, alpha, a, d.lda, b, d.ldb, beta, c,
                        d.ldc,
                    )
                }
            }
        }
    };
}

macro_rules! complex_gemm {
    ($t:ty, $f:ident) => {
        impl Scalar for $t {
            unsafe fn gemm(d: &Dims, alpha: $t, a: *const $t, b: *const $t, beta: $t, c: *mut $t) {
                // SAFETY: FFI call; the caller's contract (see the trait)
                // gives operands that cover `d` for the call; `[re, im]` is
                // the complex layout CBLAS reads, and `alpha` and `beta`
                // live on this frame for the call.
                unsafe {
                    $f(
                        d.order,
                        d.ta,
                        d.tb,
                        d.m,
                        d.n,
                        d.k,
                        &alpha as *const $t as *const c_void,
                        a as *const c_void,
                        d.lda,
                        b as *const c_void,
                        d.ldb,
                        &beta as *const $t as *const c_void,
                        c as *mut c_void,
                        d.ldc,
                    )
                }
            }
        }
    };
}

real_gemm!(f32, cblas_sgemm);
real_gemm!(f64, cblas_dgemm);
complex_gemm!([f32; 2], cblas_cgemm);
complex_gemm!([f64; 2], cblas_zgemm);

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(order: c_int, ta: c_int, tb: c_int, m: c_int, n: c_int, k: c_int) -> Dims {
        let rows = order == ROW_MAJOR;
        let ld = |r: c_int, c: c_int| if rows { c } else { r };
        let (ar, ac) = if ta == NO_TRANS { (m, k) } else { (k, m) };
        let (br, bc) = if tb == NO_TRANS { (k, n) } else { (n, k) };
        Dims {
            order,
            ta,
            tb,
            m,
            n,
            k,
            lda: ld(ar, ac),
            ldb: ld(br, bc),
            ldc: ld(m, n),
        }
    }

    #[test]
    fn real_products_in_both_orders() {
        // A = [1 2; 3 4], B = [5 6; 7 8]: A·B = [19 22; 43 50].
        let a_rows = [1.0f64, 2.0, 3.0, 4.0];
        let b_rows = [5.0f64, 6.0, 7.0, 8.0];
        let mut c = [1.0f64; 4];
        let d = dims(ROW_MAJOR, NO_TRANS, NO_TRANS, 2, 2, 2);
        // SAFETY: 2×2 operands, leading dimension 2.
        unsafe {
            f64::gemm(
                &d,
                1.0,
                a_rows.as_ptr(),
                b_rows.as_ptr(),
                2.0,
                c.as_mut_ptr(),
            )
        };
        assert_eq!(c, [21.0, 24.0, 45.0, 52.0]);

        // The same operands read column-major are Aᵀ and Bᵀ: Aᵀ·Bᵀ = (B·A)ᵀ.
        let mut c = [0.0f32; 4];
        let (a, b) = (a_rows.map(|x| x as f32), b_rows.map(|x| x as f32));
        let d = dims(COL_MAJOR, NO_TRANS, NO_TRANS, 2, 2, 2);
        // SAFETY: as above.
        unsafe { f32::gemm(&d, 1.0, a.as_ptr(), b.as_ptr(), 0.0, c.as_mut_ptr()) };
        // B·A = [23 34; 31 46]; its transpose stored column-major is B·A by rows.
        assert_eq!(c, [23.0, 34.0, 31.0, 46.0]);
    }

    #[test]
    fn transposed_and_conjugated_complex_operands() {
        // 1×1 products: (1+2i)ᴴ·(3+4i) = (1-2i)(3+4i) = 11-2i.
        let a = [[1.0f32, 2.0]];
        let b = [[3.0f32, 4.0]];
        let mut c = [[0.0f32; 2]];
        let d = dims(ROW_MAJOR, CONJ_TRANS, NO_TRANS, 1, 1, 1);
        // SAFETY: 1×1 operands.
        unsafe {
            <[f32; 2]>::gemm(
                &d,
                [1.0, 0.0],
                a.as_ptr(),
                b.as_ptr(),
                [0.0, 0.0],
                c.as_mut_ptr(),
            )
        };
        assert_eq!(c, [[11.0, -2.0]]);

        // alpha = i, beta = 1, c = 1: i·(1+2i)(3+4i) + 1 = i(-5+10i) + 1 = -9-5i.
        let a = [[1.0f64, 2.0]];
        let b = [[3.0f64, 4.0]];
        let mut c = [[1.0f64, 0.0]];
        let d = dims(COL_MAJOR, TRANS, NO_TRANS, 1, 1, 1);
        // SAFETY: 1×1 operands.
        unsafe {
            <[f64; 2]>::gemm(
                &d,
                [0.0, 1.0],
                a.as_ptr(),
                b.as_ptr(),
                [1.0, 0.0],
                c.as_mut_ptr(),
            )
        };
        assert_eq!(c, [[-9.0, -5.0]]);
    }
}
