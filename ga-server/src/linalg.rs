//! GA's dense linear algebra on ScaLAPACK (Debian's `libscalapack-openmpi`)
//! and, for the `_seq` forms, the serial LAPACK: LU and Cholesky solves,
//! the inverse of a symmetric positive definite matrix, and the standard
//! and generalised symmetric eigenproblems.
//!
//! **Orientation.** GA's C calls hand their handles to the Fortran
//! routines, so both APIs work on the matrix as Fortran sees it: element
//! `(i, j)` of an array is C's `[j][i]`, and a right-hand side `B` is
//! `n`×`nrhs` in Fortran (`{nrhs, n}` in C). Every routine here takes
//! handles and works in that view.
//!
//! **The block-cyclic copy.** Each call makes a BLACS grid of the
//! processes of the arrays' group (`nprow`×`npcol`, as square as the
//! count allows), deals the matrices over it in square blocks, fetches
//! each process's blocks from the arrays with GA gets (whatever the
//! arrays' own distribution), runs ScaLAPACK, and puts the results back
//! block by block. The arrays themselves are left alone unless the call
//! writes them, also when they are block-cyclic.
//!
//! Every routine is collective over the group of its arrays and double
//! precision only, as GA's are. Return codes are GA's (see each one).

use crate::core::{self, pgroups, ElemType, GaError, GaResult, Handle};
use crate::ops::elem::{decode, encode};
use crate::ops::patch::{get_rect, put_rect};
use crate::sys::blacs_grid;
pub use scalapack_calls::Uplo;
use scalapack_calls::{self as sl, Grid, Matrix};

const F64: usize = 8;

/// A 2-D double precision array in Fortran's view.
#[derive(Clone, Copy, Debug)]
struct Operand {
    h: Handle,
    rows: usize,
    cols: usize,
}

fn operand(call: &'static str, g: Handle, what: &str) -> GaResult<Operand> {
    let (ty, dims) = core::inquire(g)
        .map_err(|_| GaError::new(call, format!("{what}: invalid array handle {g}")))?;
    if dims.len() != 2 || ty != ElemType::Double {
        return Err(GaError::new(
            call,
            format!(
                "{what} '{}' must be a 2-D double precision array",
                core::name(g).unwrap_or_default()
            ),
        ));
    }
    Ok(Operand {
        h: g,
        rows: dims[1] as usize,
        cols: dims[0] as usize,
    })
}

/// The order of a square operand, or an error naming it.
fn square(call: &'static str, g: Handle, what: &str) -> GaResult<(Operand, usize)> {
    let a = operand(call, g, what)?;
    if a.rows != a.cols {
        return Err(GaError::new(
            call,
            format!("{what} must be a square matrix, not {}x{}", a.rows, a.cols),
        ));
    }
    Ok((a, a.rows))
}

/// Square operands of one order (that of the first).
fn square_operands<const K: usize>(
    call: &'static str,
    args: [(Handle, &str); K],
) -> GaResult<[Operand; K]> {
    let mut out = [Operand {
        h: 0,
        rows: 0,
        cols: 0,
    }; K];
    for (k, (g, what)) in args.into_iter().enumerate() {
        let (x, _) = square(call, g, what)?;
        if k > 0 {
            same_order(call, what, &x, out[0].rows)?;
        }
        out[k] = x;
    }
    Ok(out)
}

fn same_order(call: &'static str, what: &str, x: &Operand, n: usize) -> GaResult<()> {
    if x.rows != n {
        return Err(GaError::new(
            call,
            format!(
                "dims of the matrix and {what} do not match: {} rows against order {n}",
                x.rows
            ),
        ));
    }
    Ok(())
}

/// The processor group every operand lives on, its size and this
/// process's rank in it.
fn common_group(call: &'static str, ops: &[&Operand]) -> GaResult<(i32, usize, usize)> {
    let mut found: Option<(i32, i32, i32)> = None;
    for x in ops {
        let g = core::array_group(x.h).map_err(|e| GaError::new(call, e.message))?;
        match found {
            None => found = Some(g),
            Some(f) if f.0 != g.0 => {
                return Err(GaError::new(
                    call,
                    "the arrays live on different processor groups",
                ))
            }
            _ => {}
        }
    }
    let (grp, rank, size) = found.expect("at least one operand");
    Ok((grp, size as usize, rank as usize))
}

/// The most square `nprow`×`npcol` grid of `np` processes (`nprow ≤
/// npcol`).
fn grid_shape(np: usize) -> (usize, usize) {
    let mut r = (np as f64).sqrt() as usize;
    while r > 1 && !np.is_multiple_of(r) {
        r -= 1;
    }
    let r = r.max(1);
    (r, np / r)
}

/// Block size: about two blocks per process along the longer grid side,
/// at most 64 (ScaLAPACK's usual), at least 1.
fn block_size(n: usize, nprow: usize, npcol: usize) -> usize {
    let per = nprow.max(npcol) * 2;
    n.div_ceil(per).clamp(1, 64)
}

/// A BLACS grid over a group and the block size of one call.
struct Dist {
    grid: Grid,
    grp: i32,
    nb: usize,
}

fn sl_err(call: &'static str, what: &'static str) -> impl Fn(sl::Illegal) -> GaError {
    move |e| GaError::new(call, format!("ScaLAPACK {what}: {e}"))
}

/// Completes outstanding operations on the operands, then makes the grid
/// of their group for matrices of order `n`.
fn dist(call: &'static str, ops: &[&Operand], n: usize) -> GaResult<Dist> {
    let (grp, np, _) = common_group(call, ops)?;
    core::sync_array(ops[0].h).map_err(|e| GaError::new(call, e.message))?;
    let (nprow, npcol) = grid_shape(np);
    let comm = pgroups::raw_comm(call, grp)?;
    let grid = blacs_grid(comm, nprow, npcol).map_err(sl_err(call, "grid"))?;
    Ok(Dist {
        grid,
        grp,
        nb: block_size(n, nprow, npcol),
    })
}

impl Dist {
    /// A zero `m`×`n` matrix on the grid.
    fn matrix(&self, call: &'static str, m: usize, n: usize) -> GaResult<Matrix> {
        let l = self
            .grid
            .layout(m, n, self.nb)
            .map_err(sl_err(call, "descriptor"))?;
        Ok(Matrix::zeros(l))
    }

    /// Calls `f(local row, global row, rows, local col, global col, cols)`
    /// for each block of `m` this process holds.
    fn blocks(&self, m: &Matrix, mut f: impl FnMut(usize, usize, usize, usize, usize, usize)) {
        let l = &m.layout;
        let g = &self.grid;
        let nb = self.nb;
        for lc in (0..l.cols).step_by(nb) {
            let gc = ((lc / nb) * g.npcol + g.mycol) * nb;
            let w = nb.min(l.n - gc);
            for lr in (0..l.rows).step_by(nb) {
                let gr = ((lr / nb) * g.nprow + g.myrow) * nb;
                let h = nb.min(l.m - gr);
                f(lr, gr, h, lc, gc, w);
            }
        }
    }

    /// The operand's values into this process's blocks of `m`.
    fn load(&self, call: &'static str, x: &Operand, m: &mut Matrix) -> GaResult<()> {
        let mut fetched = Vec::new();
        self.blocks(m, |lr, gr, h, lc, gc, w| {
            fetched.push((lr, gr, h, lc, gc, w))
        });
        let lld = m.layout.lld();
        for (lr, gr, h, lc, gc, w) in fetched {
            // Fortran rows gr.., columns gc.. are C's [gc.., gr..]; C's
            // row-major patch is the Fortran block column by column.
            let lo = [gc as i64, gr as i64];
            let hi = [(gc + w - 1) as i64, (gr + h - 1) as i64];
            let vals: Vec<f64> = decode(&get_rect(call, x.h, F64, &lo, &hi)?);
            let data = m.data_mut();
            for c in 0..w {
                let at = (lc + c) * lld + lr;
                data[at..at + h].copy_from_slice(&vals[c * h..(c + 1) * h]);
            }
        }
        Ok(())
    }

    /// This process's blocks of `m` into the operand (collective: every
    /// process has read what it needed first, and the puts are complete
    /// on return).
    fn store(&self, call: &'static str, m: &Matrix, x: &Operand) -> GaResult<()> {
        core::sync_array(x.h).map_err(|e| GaError::new(call, e.message))?;
        let mut parts = Vec::new();
        self.blocks(m, |lr, gr, h, lc, gc, w| parts.push((lr, gr, h, lc, gc, w)));
        let lld = m.layout.lld();
        let data = m.data();
        for (lr, gr, h, lc, gc, w) in parts {
            let mut vals = Vec::with_capacity(h * w);
            for c in 0..w {
                let at = (lc + c) * lld + lr;
                vals.extend_from_slice(&data[at..at + h]);
            }
            let lo = [gc as i64, gr as i64];
            let hi = [(gc + w - 1) as i64, (gr + h - 1) as i64];
            put_rect(call, x.h, &lo, &hi, &encode(&vals))?;
        }
        core::sync_array(x.h).map_err(|e| GaError::new(call, e.message))
    }

    /// Applies `f(global row, global col, value)` to each local element.
    fn map(&self, m: &mut Matrix, f: impl Fn(usize, usize, f64) -> f64) {
        let mut spots = Vec::new();
        self.blocks(m, |lr, gr, h, lc, gc, w| spots.push((lr, gr, h, lc, gc, w)));
        let lld = m.layout.lld();
        let data = m.data_mut();
        for (lr, gr, h, lc, gc, w) in spots {
            for c in 0..w {
                for r in 0..h {
                    let at = (lc + c) * lld + lr + r;
                    data[at] = f(gr + r, gc + c, data[at]);
                }
            }
        }
    }

    /// The largest of the processes' `info` (ScaLAPACK's may be known on
    /// part of the grid only).
    fn agree(&self, call: &'static str, info: i32) -> GaResult<i32> {
        let mut v = [i64::from(info)];
        pgroups::gop(call, self.grp, &mut v, "max", true)?;
        Ok(v[0] as i32)
    }
}

/// LU factors of `a`'s copy on the grid, or an error if it is singular.
fn lu_factors(call: &'static str, d: &Dist, a: &Operand, n: usize) -> GaResult<(Matrix, Vec<i32>)> {
    let mut la = d.matrix(call, n, n)?;
    d.load(call, a, &mut la)?;
    let (info, ipiv) = sl::pdgetrf(&mut la).map_err(sl_err(call, "PDGETRF"))?;
    let info = d.agree(call, info)?;
    if info > 0 {
        return Err(GaError::new(
            call,
            format!("g_a is singular: U({info},{info}) of its LU factorisation is zero"),
        ));
    }
    Ok((la, ipiv))
}

/// `GA_Lu_solve`/`ga_lu_solve`: `B ← op(A)⁻¹·B` by LU with partial
/// pivoting; `A` is left alone. A singular `A` is an error, as in GA.
pub fn lu_solve(call: &'static str, transpose: bool, g_a: Handle, g_b: Handle) -> GaResult<()> {
    let (a, n) = square(call, g_a, "g_a")?;
    let b = operand(call, g_b, "g_b")?;
    same_order(call, "g_b", &b, n)?;
    let d = dist(call, &[&a, &b], n)?;
    let (la, ipiv) = lu_factors(call, &d, &a, n)?;
    let mut lb = d.matrix(call, n, b.cols)?;
    d.load(call, &b, &mut lb)?;
    sl::pdgetrs(transpose, &la, &ipiv, &mut lb).map_err(sl_err(call, "PDGETRS"))?;
    d.store(call, &lb, &b)
}

/// Cholesky factor (`uplo` triangle) of `a`'s copy, or the order of the
/// leading minor that is not positive definite.
fn llt_factor(
    call: &'static str,
    d: &Dist,
    uplo: Uplo,
    a: &Operand,
    n: usize,
) -> GaResult<Result<Matrix, i32>> {
    let mut la = d.matrix(call, n, n)?;
    d.load(call, a, &mut la)?;
    let info = sl::pdpotrf(uplo, &mut la).map_err(sl_err(call, "PDPOTRF"))?;
    let info = d.agree(call, info)?;
    Ok(if info > 0 { Err(info) } else { Ok(la) })
}

/// Is `(i, j)` strictly on the other side of the diagonal from `uplo`?
fn outside(uplo: Uplo, i: usize, j: usize) -> bool {
    match uplo {
        Uplo::Lower => i < j,
        Uplo::Upper => i > j,
    }
}

/// `ga_cholesky`/`ga_llt_f`: `A ← L` (or `U`), the Cholesky factor in the
/// `uplo` triangle with the other one zeroed. Returns 0, or the order of
/// the leading minor that is not positive definite (`A` is then left
/// alone).
pub fn cholesky(call: &'static str, uplo: Uplo, g_a: Handle) -> GaResult<i64> {
    let (a, n) = square(call, g_a, "g_a")?;
    let d = dist(call, &[&a], n)?;
    match llt_factor(call, &d, uplo, &a, n)? {
        Err(info) => Ok(i64::from(info)),
        Ok(mut la) => {
            d.map(&mut la, |i, j, v| if outside(uplo, i, j) { 0.0 } else { v });
            d.store(call, &la, &a)?;
            Ok(0)
        }
    }
}

/// `ga_llt_s`: `B ← A⁻¹·B` where `A` already holds the Cholesky factor
/// in its `uplo` triangle (as [`cholesky`] leaves it).
pub fn llt_solve_factored(
    call: &'static str,
    uplo: Uplo,
    g_a: Handle,
    g_b: Handle,
) -> GaResult<()> {
    let (a, n) = square(call, g_a, "g_a")?;
    let b = operand(call, g_b, "g_b")?;
    same_order(call, "g_b", &b, n)?;
    let d = dist(call, &[&a, &b], n)?;
    let mut la = d.matrix(call, n, n)?;
    d.load(call, &a, &mut la)?;
    let mut lb = d.matrix(call, n, b.cols)?;
    d.load(call, &b, &mut lb)?;
    sl::pdpotrs(uplo, &la, &mut lb).map_err(sl_err(call, "PDPOTRS"))?;
    d.store(call, &lb, &b)
}

/// The inverse from a factor in `la`'s `uplo` triangle, written to `a` as
/// a full symmetric matrix; returns `PDPOTRI`'s `INFO` (`i > 0`: the
/// factor's `(i,i)` is zero, and `a` is left alone).
fn invert_into(
    call: &'static str,
    d: &Dist,
    uplo: Uplo,
    mut la: Matrix,
    a: &Operand,
) -> GaResult<i32> {
    let info = sl::pdpotri(uplo, &mut la).map_err(sl_err(call, "PDPOTRI"))?;
    let info = d.agree(call, info)?;
    if info > 0 {
        return Ok(info);
    }
    // The inverse is in the `uplo` triangle: the other one mirrors it.
    // Write the triangle with its off-diagonal doubled and zeros across,
    // then (A + Aᵀ)/2 gives the symmetric matrix exactly.
    d.map(&mut la, |i, j, v| {
        if outside(uplo, i, j) {
            0.0
        } else if i != j {
            2.0 * v
        } else {
            v
        }
    });
    d.store(call, &la, a)?;
    crate::ops::symmetrize(call, a.h)?;
    Ok(0)
}

/// `ga_llt_i`: `A ← A⁻¹` where `A` holds the Cholesky factor of a matrix
/// in its `uplo` triangle; the result is the full symmetric inverse of
/// that matrix. Returns 0, or `i` when the factor's `(i,i)` is zero.
pub fn llt_invert_factored(call: &'static str, uplo: Uplo, g_a: Handle) -> GaResult<i64> {
    let (a, n) = square(call, g_a, "g_a")?;
    let d = dist(call, &[&a], n)?;
    let mut la = d.matrix(call, n, n)?;
    d.load(call, &a, &mut la)?;
    invert_into(call, &d, uplo, la, &a).map(i64::from)
}

/// `GA_Llt_solve`: `B ← A⁻¹·B` by Cholesky for a symmetric positive
/// definite `A` (left alone). Returns 0, or the order of the leading minor
/// of `A` that is not positive definite (`B` is then left alone).
pub fn llt_solve(call: &'static str, g_a: Handle, g_b: Handle) -> GaResult<i64> {
    let (a, n) = square(call, g_a, "g_a")?;
    let b = operand(call, g_b, "g_b")?;
    same_order(call, "g_b", &b, n)?;
    let d = dist(call, &[&a, &b], n)?;
    let la = match llt_factor(call, &d, Uplo::Lower, &a, n)? {
        Err(info) => return Ok(i64::from(info)),
        Ok(la) => la,
    };
    let mut lb = d.matrix(call, n, b.cols)?;
    d.load(call, &b, &mut lb)?;
    sl::pdpotrs(Uplo::Lower, &la, &mut lb).map_err(sl_err(call, "PDPOTRS"))?;
    d.store(call, &lb, &b)?;
    Ok(0)
}

/// `GA_Spd_invert`: `A ← A⁻¹` for a symmetric positive definite `A`.
/// Returns 0; the order of the leading minor that is not positive
/// definite; or minus the index of a zero on the factor's diagonal. `A`
/// is left alone unless 0 is returned.
pub fn spd_invert(call: &'static str, g_a: Handle) -> GaResult<i64> {
    let (a, n) = square(call, g_a, "g_a")?;
    let d = dist(call, &[&a], n)?;
    let la = match llt_factor(call, &d, Uplo::Lower, &a, n)? {
        Err(info) => return Ok(i64::from(info)),
        Ok(la) => la,
    };
    invert_into(call, &d, Uplo::Lower, la, &a).map(|i| -i64::from(i))
}

/// `GA_Solve`: Cholesky first; if `A` is not positive definite, LU.
/// Returns 0 when Cholesky solved it, else the order of the leading minor
/// that stopped Cholesky (LU solved it then; a singular `A` is an error).
pub fn solve(call: &'static str, g_a: Handle, g_b: Handle) -> GaResult<i64> {
    let r = llt_solve(call, g_a, g_b)?;
    if r != 0 {
        lu_solve(call, false, g_a, g_b)?;
    }
    Ok(r)
}

/// Hands the eigenvalues to every process of the group from its rank 0.
fn share(call: &'static str, grp: i32, w: &mut [f64]) -> GaResult<()> {
    let mut bytes = encode(w);
    pgroups::brdcst(call, grp, &mut bytes, 0)?;
    w.copy_from_slice(&decode::<f64>(&bytes));
    Ok(())
}

/// How many eigenvalues the eigensolvers write for `g_a`: its order.
pub fn eval_len(call: &'static str, g_a: Handle) -> GaResult<usize> {
    square(call, g_a, "g_a").map(|(_, n)| n)
}

/// An eigensolver here: the call's name, the handles (`A`, `V` or `A`,
/// `S`, `V`) and room for the eigenvalues.
pub type Eigensolver<const K: usize> = fn(&'static str, [Handle; K], &mut [f64]) -> GaResult<()>;

/// The square operands of an eigensolver (all of the first one's order)
/// and that order, which `eval` must have room for.
fn eigen_operands<const K: usize>(
    call: &'static str,
    g: [Handle; K],
    names: [&str; K],
    eval: &[f64],
) -> GaResult<([Operand; K], usize)> {
    let ops = square_operands(call, std::array::from_fn(|k| (g[k], names[k])))?;
    let n = ops[0].rows;
    eval_room(call, eval, n)?;
    Ok((ops, n))
}

fn eval_room(call: &'static str, eval: &[f64], n: usize) -> GaResult<()> {
    if eval.len() < n {
        return Err(GaError::new(
            call,
            format!("eval holds {} values, not {n}", eval.len()),
        ));
    }
    Ok(())
}

/// `PDSYEVD` on the symmetric `la` (its lower triangle): eigenvalues into
/// `w`, the orthonormal eigenvectors returned.
fn eigenvectors(call: &'static str, d: &Dist, mut la: Matrix, w: &mut [f64]) -> GaResult<Matrix> {
    let n = la.layout.n;
    let mut z = d.matrix(call, n, n)?;
    let info = sl::pdsyevd(&mut la, w, &mut z).map_err(sl_err(call, "PDSYEVD"))?;
    if d.agree(call, info)? > 0 {
        return Err(GaError::new(
            call,
            "the eigensolver (PDSYEVD) did not converge",
        ));
    }
    Ok(z)
}

/// `GA_Diag_std`: the eigenvalues of the symmetric `A` in ascending order
/// into `eval` (on every process) and the orthonormal eigenvectors as the
/// columns of `V`; `A` is left alone.
pub fn diag_std(call: &'static str, g: [Handle; 2], eval: &mut [f64]) -> GaResult<()> {
    let ([a, v], n) = eigen_operands(call, g, ["g_a", "g_v"], eval)?;
    let d = dist(call, &[&a, &v], n)?;
    let mut la = d.matrix(call, n, n)?;
    d.load(call, &a, &mut la)?;
    let z = eigenvectors(call, &d, la, &mut eval[..n])?;
    d.store(call, &z, &v)?;
    share(call, d.grp, &mut eval[..n])
}

/// `GA_Diag`: the generalised problem `A·x = λ·S·x` for symmetric `A`
/// and symmetric positive definite `S` (both left alone): eigenvalues
/// ascending into `eval`, eigenvectors as the columns of `V`, normalised
/// so that `VᵀSV = I`. An `S` that is not positive definite is an error.
pub fn diag(call: &'static str, g: [Handle; 3], eval: &mut [f64]) -> GaResult<()> {
    let ([a, s, v], n) = eigen_operands(call, g, ["g_a", "g_s", "g_v"], eval)?;
    let d = dist(call, &[&a, &s, &v], n)?;
    let l = match llt_factor(call, &d, Uplo::Lower, &s, n)? {
        Err(info) => {
            return Err(GaError::new(
                call,
                format!("g_s is not positive definite (leading minor of order {info})"),
            ))
        }
        Ok(l) => l,
    };
    let mut la = d.matrix(call, n, n)?;
    d.load(call, &a, &mut la)?;
    let scale = sl::pdsygst_lower(&mut la, &l).map_err(sl_err(call, "PDSYGST"))?;
    let mut z = eigenvectors(call, &d, la, &mut eval[..n])?;
    sl::pdtrsm_lower_transposed(&l, &mut z).map_err(sl_err(call, "PDTRSM"))?;
    for w in eval[..n].iter_mut() {
        *w *= scale;
    }
    d.store(call, &z, &v)?;
    share(call, d.grp, &mut eval[..n])
}

/// Zeroes the columns `m+1..` (Fortran view) of `g_v` (collective).
pub fn zero_columns_from(call: &'static str, g_v: Handle, m: usize) -> GaResult<()> {
    let v = operand(call, g_v, "g_v")?;
    if m >= v.cols {
        return Ok(());
    }
    // Fortran columns m.. are C rows m..
    let lo = [m as i64, 0];
    let hi = [v.cols as i64 - 1, v.rows as i64 - 1];
    crate::ops::basic::zero_patch(call, g_v, &lo, &hi)
}

/// Runs `work` on rank 0 of the operands' group with the whole matrices
/// (column-major, Fortran's view) and hands its status to everyone:
/// `Ok(())` on every process, or the error rank 0 met.
fn on_rank0(
    call: &'static str,
    ops: &[&Operand],
    eval: Option<&mut [f64]>,
    work: impl FnOnce(&mut Vec<Vec<f64>>, &mut [f64]) -> GaResult<Result<Vec<usize>, String>>,
) -> GaResult<()> {
    let (grp, _, me) = common_group(call, ops)?;
    core::sync_array(ops[0].h).map_err(|e| GaError::new(call, e.message))?;
    let mut scratch = Vec::new();
    let eval = match eval {
        Some(e) => e,
        None => &mut scratch[..],
    };
    // Status word, then the eigenvalues.
    let mut status = vec![0.0f64; 1 + eval.len()];
    let mut message = String::new();
    if me == 0 {
        let mut whole = Vec::new();
        for x in ops {
            let hi = [x.cols as i64 - 1, x.rows as i64 - 1];
            whole.push(decode::<f64>(&get_rect(call, x.h, F64, &[0, 0], &hi)?));
        }
        match work(&mut whole, &mut status[1..])? {
            Ok(outputs) => {
                for i in outputs {
                    let x = ops[i];
                    let hi = [x.cols as i64 - 1, x.rows as i64 - 1];
                    put_rect(call, x.h, &[0, 0], &hi, &encode(&whole[i]))?;
                }
            }
            Err(m) => {
                status[0] = 1.0;
                message = m;
            }
        }
    }
    let mut bytes = encode(&status);
    pgroups::brdcst(call, grp, &mut bytes, 0)?;
    let status = decode::<f64>(&bytes);
    eval.copy_from_slice(&status[1..]);
    core::sync_array(ops[0].h).map_err(|e| GaError::new(call, e.message))?;
    if status[0] != 0.0 {
        if me != 0 {
            message = "rank 0 of the group could not finish the computation".into();
        }
        return Err(GaError::new(call, message));
    }
    Ok(())
}

/// `ga_lu_solve_seq`: [`lu_solve`] by the serial LAPACK on one process.
pub fn lu_solve_seq(call: &'static str, transpose: bool, g_a: Handle, g_b: Handle) -> GaResult<()> {
    let (a, n) = square(call, g_a, "g_a")?;
    let b = operand(call, g_b, "g_b")?;
    same_order(call, "g_b", &b, n)?;
    on_rank0(call, &[&a, &b], None, |m, _| {
        let (ma, mb) = m.split_at_mut(1);
        let info = sl::dgesv_dense(transpose, n, &mut ma[0], &mut mb[0])
            .map_err(|e| GaError::new(call, format!("LAPACK DGETRF/DGETRS: {e}")))?;
        Ok(if info > 0 {
            Err(format!(
                "g_a is singular: U({info},{info}) of its LU factorisation is zero"
            ))
        } else {
            Ok(vec![1])
        })
    })
}

/// `GA_Diag_std_seq`: [`diag_std`] by the serial LAPACK (`DSYEV`) on one
/// process.
pub fn diag_std_seq(call: &'static str, g: [Handle; 2], eval: &mut [f64]) -> GaResult<()> {
    let ([a, v], n) = eigen_operands(call, g, ["g_a", "g_v"], eval)?;
    on_rank0(call, &[&a, &v], Some(&mut eval[..n]), |m, w| {
        let mut z = m[0].clone();
        let info = sl::dsyev_dense(n, &mut z, w)
            .map_err(|e| GaError::new(call, format!("LAPACK DSYEV: {e}")))?;
        if info > 0 {
            return Ok(Err("the eigensolver (DSYEV) did not converge".into()));
        }
        m[1] = z;
        Ok(Ok(vec![1]))
    })
}

/// `GA_Diag_seq`: [`diag`] by the serial LAPACK (`DSYGV`) on one process.
pub fn diag_seq(call: &'static str, g: [Handle; 3], eval: &mut [f64]) -> GaResult<()> {
    let ([a, s, v], n) = eigen_operands(call, g, ["g_a", "g_s", "g_v"], eval)?;
    on_rank0(call, &[&a, &s, &v], Some(&mut eval[..n]), |m, w| {
        let mut z = m[0].clone();
        let mut f = m[1].clone();
        let info = sl::dsygv_dense(n, &mut z, &mut f, w)
            .map_err(|e| GaError::new(call, format!("LAPACK DSYGV: {e}")))?;
        if info > n as i32 {
            return Ok(Err(format!(
                "g_s is not positive definite (leading minor of order {})",
                info - n as i32
            )));
        }
        if info > 0 {
            return Ok(Err("the eigensolver (DSYGV) did not converge".into()));
        }
        m[2] = z;
        Ok(Ok(vec![2]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_as_square_as_the_count_allows() {
        assert_eq!(grid_shape(1), (1, 1));
        assert_eq!(grid_shape(2), (1, 2));
        assert_eq!(grid_shape(3), (1, 3));
        assert_eq!(grid_shape(4), (2, 2));
        assert_eq!(grid_shape(6), (2, 3));
        assert_eq!(grid_shape(12), (3, 4));
    }

    #[test]
    fn blocks_give_each_process_some_rows() {
        assert_eq!(block_size(40, 2, 2), 10);
        assert_eq!(block_size(1, 1, 1), 1);
        assert_eq!(block_size(10_000, 2, 2), 64);
        assert_eq!(block_size(7, 1, 3), 2);
    }
}
