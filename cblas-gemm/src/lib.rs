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

/// Declares the `cblas_?gemm` routines, which differ only in how they take
/// the scalars (by value for real types, by address for complex ones) and
/// the element type of the operands.
macro_rules! declare_gemm {
    ($($f:ident($scalar:ty, $elem:ty);)*) => {
        #[link(name = "openblas")]
        extern "C" {
            $(
                fn $f(
                    order: c_int,
                    ta: c_int,
                    tb: c_int,
                    m: c_int,
                    n: c_int,
                    k: c_int,
                    alpha: $scalar,
                    a: *const $elem,
                    lda: c_int,
                    b: *const $elem,
                    ldb: c_int,
                    beta: $scalar,
                    c: *mut $elem,
                    ldc: c_int,
                );
            )*
        }
    };
}

declare_gemm! {
    cblas_sgemm(f32, f32);
    cblas_dgemm(f64, f64);
    cblas_cgemm(*const c_void, c_void);
    cblas_zgemm(*const c_void, c_void);
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

/// Implements [`Scalar`] for `$t` on `$f`, whose operands are `$elem` and
/// whose scalars are `$scalar` of a reference `$x` to `alpha` or `beta`.
macro_rules! impl_gemm {
    ($t:ty, $f:ident, $elem:ty, |$x:ident| $scalar:expr) => {
        impl Scalar for $t {
            unsafe fn gemm(d: &Dims, alpha: $t, a: *const $t, b: *const $t, beta: $t, c: *mut $t) {
                let (alpha, beta) = (&alpha, &beta);
                // SAFETY: FFI call; the caller's contract (see the trait)
                // gives operands that cover `d` for the call; `[re, im]`
                // is the complex layout CBLAS reads, and `alpha` and `beta`
                // live on this frame for the call.
                unsafe {
                    $f(
                        d.order,
                        d.ta,
                        d.tb,
                        d.m,
                        d.n,
                        d.k,
                        {
                            let $x = alpha;
                            $scalar
                        },
                        a.cast::<$elem>(),
                        d.lda,
                        b.cast::<$elem>(),
                        d.ldb,
                        {
                            let $x = beta;
                            $scalar
                        },
                        c.cast::<$elem>(),
                        d.ldc,
                    )
                }
            }
        }
    };
}

impl_gemm!(f32, cblas_sgemm, f32, |x| *x);
impl_gemm!(f64, cblas_dgemm, f64, |x| *x);
impl_gemm!([f32; 2], cblas_cgemm, c_void, |x| (x as *const [f32; 2])
    .cast::<c_void>());
impl_gemm!([f64; 2], cblas_zgemm, c_void, |x| (x as *const [f64; 2])
    .cast::<c_void>());

#[cfg(test)]
mod tests {
    use super::*;

    /// `c = alpha·op(a)·op(b) + beta·c` on operands of `m`×`k` and `k`×`n`
    /// (before `op`), stored densely in `order`.
    #[allow(clippy::too_many_arguments)]
    fn product<T: Scalar>(
        order: c_int,
        (ta, tb): (c_int, c_int),
        (m, n, k): (c_int, c_int, c_int),
        alpha: T,
        a: &[T],
        b: &[T],
        beta: T,
        c: &mut [T],
    ) {
        let rows = order == ROW_MAJOR;
        let ld = |r: c_int, c: c_int| if rows { c } else { r };
        let (ar, ac) = if ta == NO_TRANS { (m, k) } else { (k, m) };
        let (br, bc) = if tb == NO_TRANS { (k, n) } else { (n, k) };
        let d = Dims {
            order,
            ta,
            tb,
            m,
            n,
            k,
            lda: ld(ar, ac),
            ldb: ld(br, bc),
            ldc: ld(m, n),
        };
        assert!(a.len() >= (m * k) as usize && b.len() >= (k * n) as usize);
        assert!(c.len() >= (m * n) as usize);
        // SAFETY: dense operands of the sizes just checked, distinct borrows.
        unsafe { T::gemm(&d, alpha, a.as_ptr(), b.as_ptr(), beta, c.as_mut_ptr()) }
    }

    const PLAIN: (c_int, c_int) = (NO_TRANS, NO_TRANS);

    #[test]
    fn real_products_in_both_orders() {
        // A = [1 2; 3 4], B = [5 6; 7 8]: A·B = [19 22; 43 50].
        let a = [1.0f64, 2.0, 3.0, 4.0];
        let b = [5.0f64, 6.0, 7.0, 8.0];
        let mut c = [1.0f64; 4];
        product(ROW_MAJOR, PLAIN, (2, 2, 2), 1.0, &a, &b, 2.0, &mut c);
        assert_eq!(c, [21.0, 24.0, 45.0, 52.0]);

        // The same operands read column-major are Aᵀ and Bᵀ: Aᵀ·Bᵀ = (B·A)ᵀ,
        // and B·A = [23 34; 31 46] stored by columns reads as B·A by rows.
        let (a, b) = (a.map(|x| x as f32), b.map(|x| x as f32));
        let mut c = [0.0f32; 4];
        product(COL_MAJOR, PLAIN, (2, 2, 2), 1.0, &a, &b, 0.0, &mut c);
        assert_eq!(c, [23.0, 34.0, 31.0, 46.0]);
    }

    #[test]
    fn transposed_and_conjugated_complex_operands() {
        // (1+2i)ᴴ·(3+4i) = (1-2i)(3+4i) = 11-2i.
        let mut c = [[0.0f32; 2]];
        let t = (CONJ_TRANS, NO_TRANS);
        product(
            ROW_MAJOR,
            t,
            (1, 1, 1),
            [1.0, 0.0],
            &[[1.0, 2.0]],
            &[[3.0, 4.0]],
            [0.0, 0.0],
            &mut c,
        );
        assert_eq!(c, [[11.0, -2.0]]);

        // alpha = i, beta = 1, c = 1: i·(1+2i)(3+4i) + 1 = i(-5+10i) + 1 = -9-5i.
        let mut c = [[1.0f64, 0.0]];
        let t = (TRANS, NO_TRANS);
        product(
            COL_MAJOR,
            t,
            (1, 1, 1),
            [0.0, 1.0],
            &[[1.0, 2.0]],
            &[[3.0, 4.0]],
            [1.0, 0.0],
            &mut c,
        );
        assert_eq!(c, [[-9.0, -5.0]]);
    }
}
