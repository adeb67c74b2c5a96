//! The linear algebra of the GA Fortran API: `ga_lu_solve` (and its
//! `_alt` and `_seq` forms), `ga_llt_solve`, `ga_solve`,
//! `ga_spd_invert` (each `nga_` spelling too), the Cholesky pieces
//! `ga_cholesky`, `ga_llt_f`, `ga_llt_s` and `ga_llt_i`, and the
//! eigensolvers `ga_diag`, `ga_diag_std`, `ga_diag_reuse`, `ga_diag_seq`
//! and `ga_diag_std_seq`, over [`crate::linalg`], which works in this
//! API's (column-major) view. All are collective; a bad argument ends the
//! job as `ga_error` does, naming the routine.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_ptr::typed_mut;
use crate::core::{GaError, Handle};
use crate::fapi::{entry, fail, fail_core, int, resolve};
use crate::fapi_ptr as ptr;
use crate::linalg::{self, Uplo};
use crate::ma_fortran::FInt;
use std::ffi::c_char;

fn done<R>(call: &str, r: Result<R, GaError>) -> R {
    r.unwrap_or_else(|e| fail_core(call, e))
}

fn handle(call: &str, p: *const FInt) -> Handle {
    resolve(call, int(call, p))
}

/// A `CHARACTER` flag's first letter, upper case.
fn letter(call: &str, p: *const c_char, len: usize) -> u8 {
    ptr::fstring(p, len.max(1))
        .bytes()
        .next()
        .map(|c| c.to_ascii_uppercase())
        .unwrap_or_else(|| fail(call, "a CHARACTER argument is empty"))
}

fn trans(call: &str, p: *const c_char, len: usize) -> bool {
    match letter(call, p, len) {
        b'N' => false,
        b'T' | b'C' => true,
        c => fail(call, format!("trans '{}' is not 'N' or 'T'", c as char)),
    }
}

fn uplo(call: &str, p: *const c_char, len: usize) -> Uplo {
    match letter(call, p, len) {
        b'L' => Uplo::Lower,
        b'U' => Uplo::Upper,
        c => fail(call, format!("uplo '{}' is not 'L' or 'U'", c as char)),
    }
}

/// GA keeps internal state under `hsA` values other than -1; only the
/// public value -1 is taken.
fn public_hsa(call: &str, hsa: *const FInt) {
    let v = int(call, hsa);
    if v != -1 {
        fail(
            call,
            format!("hsA is {v}: only -1 is accepted (GA reserves other values for itself)"),
        );
    }
}

/// `eval(n)`, `n` the order of `g_a`.
fn evals<'a>(call: &'static str, g_a: Handle, eval: *mut f64) -> &'a mut [f64] {
    let n = done(call, linalg::eval_len(call, g_a));
    typed_mut(eval, n).unwrap_or_else(|| fail(call, "eval is missing (NULL)"))
}

/// The one shape of this API's routines: inside `call`'s entry, reads
/// the routine's flag (`flag`, first, as GA reads it), then the handles
/// `g`, and runs `op` on them; a bad argument or a failure of `op` ends
/// the job naming `call`.
fn read_and_run<F, const K: usize, R>(
    call: &'static str,
    flag: impl FnOnce() -> F,
    g: [*const FInt; K],
    op: impl FnOnce(F, [Handle; K]) -> Result<R, GaError>,
) -> R {
    entry(call, || {
        let f = flag();
        let h = g.map(|p| handle(call, p));
        done(call, op(f, h))
    })
}

/// The `uplo` flag of a routine on a Cholesky factor, and its `hsA`,
/// which must be -1.
fn factor_uplo(call: &str, u: *const c_char, lu: usize, hsa: *const FInt) -> Uplo {
    let ul = uplo(call, u, lu);
    public_hsa(call, hsa);
    ul
}

/// `ga_lu_solve(trans, g_a, g_b)`: `B ← op(A)⁻¹·B` by LU (ScaLAPACK).
#[no_mangle]
pub extern "C" fn ga_lu_solve_(t: *const c_char, g_a: *const FInt, g_b: *const FInt, lt: usize) {
    const C: &str = "ga_lu_solve";
    read_and_run(
        C,
        || trans(C, t, lt),
        [g_a, g_b],
        |tr, [a, b]| linalg::lu_solve(C, tr, a, b),
    )
}

/// `ga_lu_solve_alt(tran, g_a, g_b)`: as `ga_lu_solve` with an INTEGER
/// flag (0: `A`, otherwise `Aᵀ`).
#[no_mangle]
pub extern "C" fn ga_lu_solve_alt_(t: *const FInt, g_a: *const FInt, g_b: *const FInt) {
    const C: &str = "ga_lu_solve_alt";
    read_and_run(
        C,
        || int(C, t) != 0,
        [g_a, g_b],
        |tr, [a, b]| linalg::lu_solve(C, tr, a, b),
    )
}

/// `ga_lu_solve_seq(trans, g_a, g_b)`: `ga_lu_solve` by the serial
/// LAPACK on one process.
#[no_mangle]
pub extern "C" fn ga_lu_solve_seq_(
    t: *const c_char,
    g_a: *const FInt,
    g_b: *const FInt,
    lt: usize,
) {
    const C: &str = "ga_lu_solve_seq";
    read_and_run(
        C,
        || trans(C, t, lt),
        [g_a, g_b],
        |tr, [a, b]| linalg::lu_solve_seq(C, tr, a, b),
    )
}

/// `ga_llt_solve(g_a, g_b)`: `B ← A⁻¹·B` by Cholesky; returns 0, or the
/// order of the leading minor that is not positive definite.
#[no_mangle]
pub extern "C" fn ga_llt_solve_(g_a: *const FInt, g_b: *const FInt) -> FInt {
    const C: &str = "ga_llt_solve";
    read_and_run(
        C,
        || (),
        [g_a, g_b],
        |(), [a, b]| linalg::llt_solve(C, a, b),
    )
}

/// `ga_solve(g_a, g_b)`: Cholesky, else LU; returns 0 when Cholesky
/// solved it, else the order of the minor that stopped it.
#[no_mangle]
pub extern "C" fn ga_solve_(g_a: *const FInt, g_b: *const FInt) -> FInt {
    const C: &str = "ga_solve";
    read_and_run(C, || (), [g_a, g_b], |(), [a, b]| linalg::solve(C, a, b))
}

/// `ga_spd_invert(g_a)`: `A ← A⁻¹`; returns 0, `i > 0` (leading minor not
/// positive definite) or `-i` (zero on the factor's diagonal).
#[no_mangle]
pub extern "C" fn ga_spd_invert_(g_a: *const FInt) -> FInt {
    const C: &str = "ga_spd_invert";
    read_and_run(C, || (), [g_a], |(), [a]| linalg::spd_invert(C, a))
}

/// Defines the `nga_` spellings of routines over handles that return an
/// INTEGER: each does what its `ga_` routine does.
macro_rules! nga_spellings {
    ($($nga:ident = $ga:ident($($g:ident),+);)+) => {
        $(
            #[doc = concat!("As `", stringify!($ga), "`.")]
            #[no_mangle]
            pub extern "C" fn $nga($($g: *const FInt),+) -> FInt {
                $ga($($g),+)
            }
        )+
    };
}

nga_spellings! {
    nga_llt_solve_ = ga_llt_solve_(g_a, g_b);
    nga_solve_ = ga_solve_(g_a, g_b);
    nga_spd_invert_ = ga_spd_invert_(g_a);
}

/// `ga_cholesky(uplo, g_a)`: `A ←` its Cholesky factor in the `uplo`
/// triangle, the other zeroed; returns 0 or the order of the leading
/// minor that is not positive definite (`A` then unchanged).
#[no_mangle]
pub extern "C" fn ga_cholesky_(u: *const c_char, g_a: *const FInt, lu: usize) -> FInt {
    const C: &str = "ga_cholesky";
    read_and_run(
        C,
        || uplo(C, u, lu),
        [g_a],
        |ul, [a]| linalg::cholesky(C, ul, a),
    )
}

/// `ga_llt_f(uplo, g_a, hsA)` with `hsA = -1`: as `ga_cholesky`.
#[no_mangle]
pub extern "C" fn ga_llt_f_(
    u: *const c_char,
    g_a: *const FInt,
    hsa: *const FInt,
    lu: usize,
) -> FInt {
    const C: &str = "ga_llt_f";
    read_and_run(
        C,
        || factor_uplo(C, u, lu, hsa),
        [g_a],
        |ul, [a]| linalg::cholesky(C, ul, a),
    )
}

/// `ga_llt_s(uplo, g_a, g_b, hsA)` with `hsA = -1`: `B ← A⁻¹·B` where
/// `g_a` holds the Cholesky factor in its `uplo` triangle.
#[no_mangle]
pub extern "C" fn ga_llt_s_(
    u: *const c_char,
    g_a: *const FInt,
    g_b: *const FInt,
    hsa: *const FInt,
    lu: usize,
) {
    const C: &str = "ga_llt_s";
    read_and_run(
        C,
        || factor_uplo(C, u, lu, hsa),
        [g_a, g_b],
        |ul, [a, b]| linalg::llt_solve_factored(C, ul, a, b),
    )
}

/// `ga_llt_i(uplo, g_a, hsA)` with `hsA = -1`: `A ←` the inverse of the
/// matrix whose Cholesky factor `g_a` holds (full and symmetric); returns
/// 0, or `i` when the factor's `(i,i)` is zero.
#[no_mangle]
pub extern "C" fn ga_llt_i_(
    u: *const c_char,
    g_a: *const FInt,
    hsa: *const FInt,
    lu: usize,
) -> FInt {
    const C: &str = "ga_llt_i";
    read_and_run(
        C,
        || factor_uplo(C, u, lu, hsa),
        [g_a],
        |ul, [a]| linalg::llt_invert_factored(C, ul, a),
    )
}

/// Runs an eigensolver of `linalg` on the handles `g`, `eval(n)` of the
/// first one's order.
fn eigen<const K: usize>(
    call: &'static str,
    solver: linalg::Eigensolver<K>,
    g: [*const FInt; K],
    eval: *mut f64,
) {
    read_and_run(
        call,
        || (),
        g,
        |(), h| solver(call, h, evals(call, h[0], eval)),
    )
}

/// `ga_diag(g_a, g_s, g_v, eval)`: `A·x = λ·S·x` on ScaLAPACK.
#[no_mangle]
pub extern "C" fn ga_diag_(g_a: *const FInt, g_s: *const FInt, g_v: *const FInt, eval: *mut f64) {
    eigen("ga_diag", linalg::diag, [g_a, g_s, g_v], eval)
}

/// `ga_diag_reuse(reuse, g_a, g_s, g_v, eval)`: as `ga_diag`; nothing is
/// kept between calls, so `reuse` changes no result.
#[no_mangle]
pub extern "C" fn ga_diag_reuse_(
    reuse: *const FInt,
    g_a: *const FInt,
    g_s: *const FInt,
    g_v: *const FInt,
    eval: *mut f64,
) {
    const C: &str = "ga_diag_reuse";
    entry(C, || int(C, reuse));
    eigen(C, linalg::diag, [g_a, g_s, g_v], eval)
}

/// `ga_diag_seq(g_a, g_s, g_v, eval)`: `ga_diag` by LAPACK's `DSYGV` on
/// one process.
#[no_mangle]
pub extern "C" fn ga_diag_seq_(
    g_a: *const FInt,
    g_s: *const FInt,
    g_v: *const FInt,
    eval: *mut f64,
) {
    eigen("ga_diag_seq", linalg::diag_seq, [g_a, g_s, g_v], eval)
}

/// `ga_diag_std(g_a, g_v, eval)`: the standard problem on ScaLAPACK.
#[no_mangle]
pub extern "C" fn ga_diag_std_(g_a: *const FInt, g_v: *const FInt, eval: *mut f64) {
    eigen("ga_diag_std", linalg::diag_std, [g_a, g_v], eval)
}

/// `ga_diag_std_seq(g_a, g_v, eval)`: `ga_diag_std` by LAPACK's `DSYEV`
/// on one process.
#[no_mangle]
pub extern "C" fn ga_diag_std_seq_(g_a: *const FInt, g_v: *const FInt, eval: *mut f64) {
    eigen("ga_diag_std_seq", linalg::diag_std_seq, [g_a, g_v], eval)
}

/// Defines GA's direct ScaLAPACK eigensolver entries for the standard
/// problem, `(g_a, g_b, eval, nb)`: all eigenpairs, vectors into `g_b`.
/// `nb` (GA's block size) does not change the results: the block size is
/// the one [`crate::linalg`] chooses.
macro_rules! standard_eigensolvers {
    ($($name:ident),+) => {
        $(
            #[doc = concat!("`", stringify!($name), "(g_a, g_b, eval, nb)`: as `ga_diag_std`.")]
            #[no_mangle]
            pub extern "C" fn $name(g_a: *const FInt, g_b: *const FInt, eval: *mut f64, nb: *const FInt) {
                let c: &'static str = stringify!($name).trim_end_matches('_');
                entry(c, || int(c, nb));
                eigen(c, linalg::diag_std, [g_a, g_b], eval)
            }
        )+
    };
}

standard_eigensolvers!(ga_pdsyev_, ga_pdsyevd_, ga_pdsyevx_);

/// `ga_pdsyevr(g_a, g_b, eval, nb, mout)`: the `mout` lowest eigenpairs
/// (all when `mout` is not in 1..n): eigenvalues in `eval(1:mout)`,
/// vectors in the first `mout` columns of `g_b`, its other columns zero;
/// `mout` returns how many were computed.
#[no_mangle]
pub extern "C" fn ga_pdsyevr_(
    g_a: *const FInt,
    g_b: *const FInt,
    eval: *mut f64,
    nb: *const FInt,
    mout: *mut FInt,
) {
    const C: &str = "ga_pdsyevr";
    entry(C, || {
        int(C, nb);
        let (a, v) = (handle(C, g_a), handle(C, g_b));
        let n = done(C, linalg::eval_len(C, a));
        let want = int(C, mout);
        let m = if want >= 1 && (want as usize) <= n {
            want as usize
        } else {
            n
        };
        let mut all = vec![0.0; n];
        done(C, linalg::diag_std(C, [a, v], &mut all));
        done(C, linalg::zero_columns_from(C, v, m));
        typed_mut(eval, m)
            .unwrap_or_else(|| fail(C, "eval is missing (NULL)"))
            .copy_from_slice(&all[..m]);
        crate::fapi::out(C, mout, m as i64);
    })
}

/// `ga_pdsygv(g_a, g_s, g_b, eval)`: as `ga_diag(g_a, g_s, g_b, eval)`.
#[no_mangle]
pub extern "C" fn ga_pdsygv_(g_a: *const FInt, g_s: *const FInt, g_b: *const FInt, eval: *mut f64) {
    eigen("ga_pdsygv", linalg::diag, [g_a, g_s, g_b], eval)
}
