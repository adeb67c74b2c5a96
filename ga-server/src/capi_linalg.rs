//! The GA C ABI's linear algebra (`ga.h`): `GA_Lu_solve`, `GA_Llt_solve`,
//! `GA_Solve`, `GA_Spd_invert` and the eigensolvers `GA_Diag`,
//! `GA_Diag_std`, `GA_Diag_reuse`, `GA_Diag_seq` and `GA_Diag_std_seq`,
//! over [`crate::linalg`]. As in GA, these calls see the arrays as the
//! Fortran API does (element `(i, j)` is C's `[j][i]`; see the module).
//! Each is collective; a bad argument (handle, shape, type, NULL `eval`)
//! or a singular matrix where GA stops ends the job through `GA_Error`
//! naming the call.

use crate::capi::{resolve_handle, run};
use crate::capi_ptr as ptr;
use crate::core::{GaError, GaResult};
use crate::linalg;
use std::ffi::{c_char, c_int, c_void};

/// `eval` as the `n` doubles the eigensolvers fill, `n` the order of
/// `g_a`.
fn evals<'a>(call: &'static str, g_a: c_int, eval: *mut c_void) -> GaResult<&'a mut [f64]> {
    let n = linalg::eval_len(call, resolve_handle(g_a))?;
    ptr::typed_mut(eval.cast::<f64>(), n)
        .ok_or_else(|| GaError::new(call, format!("eval is NULL (it must hold {n} doubles)")))
}

/// Solves `op(A)·X = B` by LU factorisation (ScaLAPACK), `op(A)` being
/// `A` or, for `tran` `'t'`/`'T'`, `Aᵀ`; `B` (order × right-hand sides in
/// the Fortran view) is overwritten by `X`, `A` is left alone. Returns
/// nothing; a singular `A` ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Lu_solve(tran: c_char, g_a: c_int, g_b: c_int) {
    const CALL: &str = "GA_Lu_solve";
    let t = matches!(tran as u8, b't' | b'T');
    run(CALL, || {
        linalg::lu_solve(CALL, t, resolve_handle(g_a), resolve_handle(g_b))
    })
}

/// Solves `A·X = B` by Cholesky for a symmetric positive definite `A`
/// (left alone); `B` is overwritten by `X`. Returns 0 on success, or the
/// order of the leading minor of `A` that is not positive definite (`B`
/// unchanged).
#[no_mangle]
pub extern "C" fn GA_Llt_solve(g_a: c_int, g_b: c_int) -> c_int {
    const CALL: &str = "GA_Llt_solve";
    run(CALL, || {
        linalg::llt_solve(CALL, resolve_handle(g_a), resolve_handle(g_b))
    }) as c_int
}

/// Solves `A·X = B`: by Cholesky, or by LU when `A` is not positive
/// definite. Returns 0 when Cholesky solved it, else the order of the
/// leading minor that stopped Cholesky (LU gave `X` then).
#[no_mangle]
pub extern "C" fn GA_Solve(g_a: c_int, g_b: c_int) -> c_int {
    const CALL: &str = "GA_Solve";
    run(CALL, || {
        linalg::solve(CALL, resolve_handle(g_a), resolve_handle(g_b))
    }) as c_int
}

/// Replaces the symmetric positive definite `A` by its inverse. Returns
/// 0 on success; `i > 0` when the leading minor of order `i` is not
/// positive definite; `-i` when the Cholesky factor's `(i,i)` is zero (in
/// both cases `A` is unchanged).
#[no_mangle]
pub extern "C" fn GA_Spd_invert(g_a: c_int) -> c_int {
    const CALL: &str = "GA_Spd_invert";
    run(CALL, || linalg::spd_invert(CALL, resolve_handle(g_a))) as c_int
}

/// Runs an eigensolver of `linalg` on the handles, `eval` the order of
/// the first.
fn eigen<const K: usize>(
    call: &'static str,
    solver: linalg::Eigensolver<K>,
    g: [c_int; K],
    eval: *mut c_void,
) {
    run(call, || {
        let ev = evals(call, g[0], eval)?;
        solver(call, g.map(resolve_handle), ev)
    })
}

/// The generalised symmetric eigenproblem `A·x = λ·S·x` (ScaLAPACK):
/// `eval` (`n` doubles, on every process) gets the eigenvalues in
/// ascending order and `V` the eigenvectors as columns (Fortran view),
/// with `VᵀSV = I`. Returns nothing; an `S` that is not positive
/// definite ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Diag(g_a: c_int, g_s: c_int, g_v: c_int, eval: *mut c_void) {
    eigen("GA_Diag", linalg::diag, [g_a, g_s, g_v], eval)
}

/// `GA_Diag` for repeated calls with the same `S`. Every call computes
/// what `GA_Diag` computes: nothing is kept between calls, so `reuse`
/// (0 first, > 0 reuse, < 0 release in GA) changes no result. Returns
/// nothing.
#[no_mangle]
pub extern "C" fn GA_Diag_reuse(
    reuse: c_int,
    g_a: c_int,
    g_s: c_int,
    g_v: c_int,
    eval: *mut c_void,
) {
    let _ = reuse;
    eigen("GA_Diag_reuse", linalg::diag, [g_a, g_s, g_v], eval)
}

/// `GA_Diag` computed on one process by the serial LAPACK (`DSYGV`).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Diag_seq(g_a: c_int, g_s: c_int, g_v: c_int, eval: *mut c_void) {
    eigen("GA_Diag_seq", linalg::diag_seq, [g_a, g_s, g_v], eval)
}

/// The standard symmetric eigenproblem (ScaLAPACK): eigenvalues ascending
/// into `eval` (on every process), orthonormal eigenvectors as the
/// columns of `V`; `A` is left alone. Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Diag_std(g_a: c_int, g_v: c_int, eval: *mut c_void) {
    eigen("GA_Diag_std", linalg::diag_std, [g_a, g_v], eval)
}

/// `GA_Diag_std` computed on one process by the serial LAPACK (`DSYEV`).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Diag_std_seq(g_a: c_int, g_v: c_int, eval: *mut c_void) {
    eigen("GA_Diag_std_seq", linalg::diag_std_seq, [g_a, g_v], eval)
}
