//! The helpers of GA's Fortran ScaLAPACK interface that Debian's `libga`
//! exports: the copies between a 2-D global array and this process's
//! part of a ScaLAPACK block-cyclic matrix (`ga_to_sl`, `ga_from_sl`,
//! their `2` forms on the eigensolvers' grid and the `2cpl` forms that
//! keep a complex matrix as two double precision arrays), the local
//! complex/double copies `ga_cpydbl2cpl` and `ga_cpycpl2dbl`, and
//! `ga_zeroul` / `ga_symul` on square double precision arrays; with GA's
//! grid set-up calls `slinit`, `slinit2`, `slexit` and `slexit2`. And
//! the Hermitian eigensolvers `ga_pzheevd` and `ga_pzheevr`, on matrices
//! kept as GA keeps them there: a pair of double precision arrays, real
//! and imaginary parts.
//!
//! # The Hermitian eigensolvers
//! An order-`n` Hermitian `H = R + iI` (its lower triangle read, as GA's
//! `uplo = 'L'`) is solved as the real symmetric `[[R, -I], [I, R]]` of
//! order 2n by the ScaLAPACK eigensolver of `ga_diag_std` (`PDSYEVD`):
//! every eigenvalue of `H` appears twice there, and each eigenvector
//! `(u; v)` gives the eigenvector `u + iv` of `H`. Going up the
//! eigenvalues, a vector is kept when it is not (to within a half) in
//! the complex span of those kept, which leaves `n` orthonormal
//! eigenvectors. They are the eigenvectors ScaLAPACK's `PZHEEVD` finds up
//! to a complex phase factor each (and to the basis of a repeated
//! eigenvalue's space).
//!
//! # The grids
//! As in GA, `slinit` lays the processes out row by row on the grid
//! GA's `FindGrid` picks for all of them (at most twice as many columns
//! as the square root, the divisor nearest that, rows <= columns), and
//! `slinit2(n)` does so for the processes GA gives an order-`n`
//! eigenproblem (`slgetmxproc`: a power of two from 8, at most all).
//! `ga_to_sl`/`ga_from_sl` use the first grid and `ga_to_sl2`,
//! `ga_from_sl2` and the `2cpl` forms the second. Where GA reads grids a
//! program never set up (and divides by zero), these take the grid
//! `slinit` or `slinit2(dim1)` would make; a process outside the second
//! grid holds nothing.
//!
//! Block `(row, col)` of `nbr`×`nbc` elements goes to grid row
//! `mod(row, nbr·nprow)/nbr` and column `mod(col, nbc·npcol)/nbc` (1-based
//! `row`, `col` as GA computes it) and is stored after the blocks before
//! it in that process's local matrix `s_a(lda, *)`. Integer arguments
//! other than `g_a` are `INTEGER*4`, as in Debian's build (ScaLAPACK's
//! integers), except in `ga_cpydbl2cpl`/`ga_cpycpl2dbl` (`INTEGER`).
//! Every routine but the two local copies ends the job, naming itself,
//! on a bad argument.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::{self, Distribution, ElemType, GaResult};
use crate::fapi::{entry, fail, fail_core, patch_2d_io, Arr};
use crate::fapi_ptr as ptr;
use crate::linalg;
use crate::ma_fortran::FInt;
use crate::ops::elem::{decode, encode};
use std::ffi::{c_char, c_void};
use std::sync::Mutex;

/// ScaLAPACK's (and Debian's `INTGR4`) integer.
type Int4 = i32;

/// A process grid and this process's place on it (None: not on it).
#[derive(Clone, Copy)]
struct Grid {
    nprow: i64,
    npcol: i64,
    myrow: i64,
    mycol: i64,
}

/// GA's `FindGrid`: rows and columns for `n` processes.
fn find_grid(n: i64) -> (i64, i64) {
    let start = 2 * ((n as f64).sqrt() as i64);
    let npcol = (1..=start.max(1)).rev().find(|i| n % i == 0).unwrap_or(1);
    let nprow = n / npcol;
    if nprow > npcol {
        (npcol, nprow)
    } else {
        (nprow, npcol)
    }
}

/// GA's `slgetmxproc`: how many of `nnodes` processes GA uses for an
/// eigenproblem of order `n`.
fn max_procs(n: i64, nnodes: i64) -> i64 {
    let fact = 7108.0f64 * 7108.0 / 1024.0;
    let least = ((n * n) as f64 / fact).max(8.0);
    let i = (0..=19)
        .rev()
        .find(|&i| (least / 2f64.powi(i)).round() >= 1.0)
        .unwrap_or(4);
    nnodes.min(1 << i)
}

/// This process on the row-major grid of the first `procs` processes.
fn grid_of(procs: i64) -> Option<Grid> {
    let me = i64::from(core::nodeid());
    let (nprow, npcol) = find_grid(procs);
    (me < procs).then_some(Grid {
        nprow,
        npcol,
        myrow: me / npcol,
        mycol: me % npcol,
    })
}

/// The order `slinit2` was last given (None: not set up).
static SECOND: Mutex<Option<i64>> = Mutex::new(None);

fn first_grid() -> Option<Grid> {
    grid_of(i64::from(core::nnodes()))
}

fn second_grid(dim1: i64) -> Option<Grid> {
    let n = SECOND
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or(dim1);
    grid_of(max_procs(n, i64::from(core::nnodes())))
}

/// `subroutine slinit()`: sets up the first grid (all processes); here
/// it only synchronises, the grid being fixed by the process count.
#[no_mangle]
pub extern "C" fn slinit_() {
    entry("slinit", || crate::fapi::ga_sync_())
}

/// `subroutine slinit2(n)` (`n` `INTEGER*4`): sets up the grid of the
/// processes GA uses for an order-`n` eigenproblem.
#[no_mangle]
pub extern "C" fn slinit2_(n: *const Int4) {
    const C: &str = "slinit2";
    entry(C, || {
        let n = ptr::read(n).unwrap_or_else(|| fail(C, "n is missing (NULL)"));
        *SECOND.lock().unwrap_or_else(|e| e.into_inner()) = Some(i64::from(n));
        crate::fapi::ga_sync_()
    })
}

/// `subroutine slexit()`: ends the first grid (synchronises).
#[no_mangle]
pub extern "C" fn slexit_() {
    entry("slexit", || crate::fapi::ga_sync_())
}

/// `subroutine slexit2()`: ends the second grid.
#[no_mangle]
pub extern "C" fn slexit2_() {
    entry("slexit2", || {
        *SECOND.lock().unwrap_or_else(|e| e.into_inner()) = None;
        crate::fapi::ga_sync_()
    })
}

/// The `INTEGER*4` arguments of the copies, read.
struct SlArgs {
    dim1: i64,
    dim2: i64,
    nbr: i64,
    nbc: i64,
    lda: i64,
    np: i64,
    nq: i64,
}

fn sl_args(call: &str, p: [*const Int4; 7]) -> SlArgs {
    let v = p.map(|x| {
        i64::from(ptr::read(x).unwrap_or_else(|| fail(call, "an INTEGER*4 argument is missing")))
    });
    let a = SlArgs {
        dim1: v[0],
        dim2: v[1],
        nbr: v[2],
        nbc: v[3],
        lda: v[4],
        np: v[5],
        nq: v[6],
    };
    if a.nbr < 1 || a.nbc < 1 {
        fail(
            call,
            format!("block sizes {} x {} are not positive", a.nbr, a.nbc),
        );
    }
    if a.lda < a.np.max(1) {
        fail(
            call,
            format!("lda {} is less than the {} local rows", a.lda, a.np),
        );
    }
    a
}

/// Calls `each(row, rowl, col, coll, offset)` for every block of the
/// `dim1`×`dim2` matrix this process holds on `grid`, `offset` being the
/// block's first element in the local matrix; `checked` ends the job (as
/// GA does) when a block falls outside the `np`×`nq` local matrix.
fn for_my_blocks(
    call: &str,
    a: &SlArgs,
    grid: Option<Grid>,
    checked: bool,
    mut each: impl FnMut([i64; 4], i64),
) {
    let Some(g) = grid else { return };
    let (trow, tcol) = (a.nbr * g.nprow, a.nbc * g.npcol);
    let mut cbase = 1;
    for col in (1..=a.dim2).step_by(a.nbc as usize) {
        if (col % tcol) / a.nbc != g.mycol {
            continue;
        }
        let mut rbase = 1;
        for row in (1..=a.dim1).step_by(a.nbr as usize) {
            if (row % trow) / a.nbr != g.myrow {
                continue;
            }
            if checked && (rbase > a.np || cbase > a.nq) {
                fail(call, "rows/cols error: a block lies outside np x nq");
            }
            let rowl = (row + a.nbr - 1).min(a.dim1);
            let coll = (col + a.nbc - 1).min(a.dim2);
            each([row, rowl, col, coll], (rbase - 1) + (cbase - 1) * a.lda);
            rbase += a.nbr;
        }
        cbase += a.nbc;
    }
}

/// A double precision 2-D array argument, checked.
fn dbl_2d(call: &str, g_a: *const FInt) -> Arr {
    let a = Arr::get(call, g_a);
    if a.ndim() != 2 || a.ftype() != i64::from(crate::core::codes::F_DBL) {
        fail(
            call,
            format!("'{}' is not a 2-D double precision array", a.name()),
        );
    }
    a
}

/// The real copies: `ga_to_sl` (`put` false) and `ga_from_sl`.
fn real_copy(
    call: &'static str,
    second: bool,
    put: bool,
    g_a: *const FInt,
    dims: [*const Int4; 7],
    s_a: *mut f64,
) {
    entry(call, || {
        dbl_2d(call, g_a);
        let a = sl_args(call, dims);
        let grid = if second {
            second_grid(a.dim1)
        } else {
            first_grid()
        };
        for_my_blocks(call, &a, grid, !second, |f, off| {
            let at = s_a.wrapping_add(off as usize);
            patch_2d_io(call, g_a, f, at as *mut c_void, a.lda, put);
        });
    })
}

/// Defines a copy with GA's arguments (`INTEGER*4` but for `g_a`; `s_a`
/// of elements `$elem`), doing `$work($args..., g_a, dims, s_a)`.
macro_rules! sl_copy {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $work:ident($($arg:expr),*)) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(
            g_a: *const FInt,
            dim1: *const Int4,
            dim2: *const Int4,
            nbr: *const Int4,
            nbc: *const Int4,
            s_a: *mut $elem,
            lda: *const Int4,
            np: *const Int4,
            nq: *const Int4,
        ) {
            $work($($arg,)* g_a, [dim1, dim2, nbr, nbc, lda, np, nq], s_a)
        }
    };
}

sl_copy!(
    /// `subroutine ga_to_sl(g_a, dim1, dim2, nbr, nbc, s_a, lda, np, nq)`:
    /// this process's blocks of the double precision `g_a` into `s_a`.
    ga_to_sl_,
    f64,
    real_copy("ga_to_SL", false, false)
);
sl_copy!(
    /// `subroutine ga_from_sl(g_a, dim1, dim2, nbr, nbc, s_a, lda, np,
    /// nq)`: this process's blocks from `s_a` into `g_a`.
    ga_from_sl_,
    f64,
    real_copy("ga_from_SL", false, true)
);
sl_copy!(
    /// `subroutine ga_to_sl2(...)`: `ga_to_sl` on the second grid.
    ga_to_sl2_,
    f64,
    real_copy("ga_to_SL2", true, false)
);
sl_copy!(
    /// `subroutine ga_from_sl2(...)`: `ga_from_sl` on the second grid.
    ga_from_sl2_,
    f64,
    real_copy("ga_from_SL2", true, true)
);

/// One complex element as Fortran's `COMPLEX*16` stores it.
type Dcpl = [f64; 2];

/// The complex copies: `g_a(1)` holds the real parts, `g_a(2)` the
/// imaginary ones; `s_a` is `COMPLEX*16`.
fn complex_copy(
    call: &'static str,
    put: bool,
    g_a: *const FInt,
    dims: [*const Int4; 7],
    s_a: *mut Dcpl,
) {
    entry(call, || {
        let pair = crate::fapi::ints(call, g_a, 2);
        let (re, im) = (&pair[0] as *const FInt, &pair[1] as *const FInt);
        dbl_2d(call, re);
        dbl_2d(call, im);
        let a = sl_args(call, dims);
        let mut parts = [vec![0.0f64; 0], vec![0.0f64; 0]];
        for_my_blocks(call, &a, second_grid(a.dim1), true, |f, off| {
            let (rows, cols) = (f[1] - f[0] + 1, f[3] - f[2] + 1);
            let len = (a.nbr * a.nbc) as usize;
            for p in parts.iter_mut() {
                p.resize(len, 0.0);
            }
            let local = ptr::slice_mut(s_a, (off + (cols - 1) * a.lda + rows) as usize)
                .unwrap_or_else(|| fail(call, "s_a is missing (NULL)"));
            let at = |r: i64, c: i64| (off + r + c * a.lda) as usize;
            let tmp = |r: i64, c: i64| (r + c * a.nbr) as usize;
            if !put {
                for (g, p) in [re, im].into_iter().zip(parts.iter_mut()) {
                    patch_2d_io(call, g, f, p.as_mut_ptr() as *mut c_void, a.nbr, false);
                }
            }
            for c in 0..cols {
                for r in 0..rows {
                    if put {
                        parts[0][tmp(r, c)] = local[at(r, c)][0];
                        parts[1][tmp(r, c)] = local[at(r, c)][1];
                    } else {
                        local[at(r, c)] = [parts[0][tmp(r, c)], parts[1][tmp(r, c)]];
                    }
                }
            }
            if put {
                for (g, p) in [re, im].into_iter().zip(parts.iter_mut()) {
                    patch_2d_io(call, g, f, p.as_mut_ptr() as *mut c_void, a.nbr, true);
                }
            }
        });
    })
}

sl_copy!(
    /// `subroutine ga_to_sl2cpl(g_a, dim1, dim2, nbr, nbc, s_a, lda, np,
    /// nq)`: the complex matrix `g_a(1) + i·g_a(2)` into the `COMPLEX*16`
    /// local matrix `s_a`, on the second grid.
    ga_to_sl2cpl_,
    Dcpl,
    complex_copy("gatoSLcpl", false)
);
sl_copy!(
    /// `subroutine ga_from_sl2cpl(...)`: `s_a`'s real parts into `g_a(1)`
    /// and imaginary parts into `g_a(2)`.
    ga_from_sl2cpl_,
    Dcpl,
    complex_copy("ga_from_SL2cpl", true)
);

/// The integer arguments of the local copies, read (missing ones as 0).
fn ints8(p: [*const FInt; 6]) -> [i64; 6] {
    p.map(|x| ptr::read(x).unwrap_or(0))
}

/// The local copies between `s_a(lda_s, *)` (`COMPLEX*16`, from
/// `(rbase, cbase)`) and `a1`, `a2` (`lda_a`), `rows`×`cols` elements.
fn local_copy(s_a: *mut Dcpl, a1: *mut f64, a2: *mut f64, n: [i64; 6], to_complex: bool) {
    let [lda_s, rbase, cbase, lda_a, rows, cols] = n;
    if rows < 1 || cols < 1 {
        return;
    }
    let s_len = (cbase - 1 + cols - 1) * lda_s + rbase - 1 + rows;
    let a_len = (cols - 1) * lda_a + rows;
    let (Some(s), Some(x), Some(y)) = (
        ptr::slice_mut(s_a, s_len.max(0) as usize),
        ptr::slice_mut(a1, a_len as usize),
        ptr::slice_mut(a2, a_len as usize),
    ) else {
        return;
    };
    for c in 0..cols {
        for r in 0..rows {
            let si = ((cbase - 1 + c) * lda_s + rbase - 1 + r) as usize;
            let ai = (c * lda_a + r) as usize;
            if to_complex {
                s[si] = [x[ai], y[ai]];
            } else {
                x[ai] = s[si][0];
                y[ai] = s[si][1];
            }
        }
    }
}

/// Defines one of the two local copies (same arguments).
macro_rules! local_copies {
    ($(#[$doc:meta])* $name:ident, $call:literal, $to_complex:expr) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(
            s_a: *mut Dcpl,
            lda_s: *const FInt,
            rbase: *const FInt,
            cbase: *const FInt,
            a1: *mut f64,
            a2: *mut f64,
            lda_a: *const FInt,
            rows: *const FInt,
            cols: *const FInt,
        ) {
            let n = ints8([lda_s, rbase, cbase, lda_a, rows, cols]);
            entry($call, || local_copy(s_a, a1, a2, n, $to_complex))
        }
    };
}

local_copies!(
    /// `subroutine ga_cpydbl2cpl(s_a, lda_s, rbase, cbase, a1, a2, lda_a,
    /// rowl, coll)`: `s_a(rbase+r, cbase+c) = dcmplx(a1(r+1,c+1),
    /// a2(r+1,c+1))` for the `rowl`×`coll` elements (a local copy).
    ga_cpydbl2cpl_,
    "ga_cpydbl2cpl",
    true
);
local_copies!(
    /// `subroutine ga_cpycpl2dbl(s_a, lda_s, rbase, cbase, a1, a2, lda_a,
    /// lrow, lcol)`: the real and imaginary parts of `s_a`'s `lrow`×`lcol`
    /// elements from `(rbase, cbase)` into `a1` and `a2` (a local copy).
    ga_cpycpl2dbl_,
    "ga_cpycpl2dbl",
    false
);

/// `uplo` of `ga_zeroul`/`ga_symul`: `'L'` or `'U'` exactly (as GA
/// compares it); the order of the square double precision `g_a`.
fn square(call: &str, g_a: *const FInt, uplo: *const c_char, len: usize) -> (bool, i64) {
    let a = dbl_2d(call, g_a);
    if a.dims[0] != a.dims[1] {
        fail(call, format!("'{}' is not a square matrix", a.name()));
    }
    let lower = match ptr::fstring(uplo, len.max(1)).chars().next() {
        Some('L') => true,
        Some('U') => false,
        _ => fail(call, "uplo must be L or U"),
    };
    (lower, a.dims[0])
}

/// Column `i` (1-based) of the order-`n` `g_a`, from or into `col`.
fn column(call: &str, g_a: *const FInt, n: i64, i: i64, col: &mut [f64], put: bool) {
    patch_2d_io(
        call,
        g_a,
        [1, n, i, i],
        col.as_mut_ptr() as *mut c_void,
        n,
        put,
    );
}

/// Zeroes the strict upper (`'L'`) or lower (`'U'`) triangle of the
/// square double precision `g_a`, each process taking every `np`-th
/// column; `double` also doubles the other triangle (collective).
fn keep_triangle(call: &str, g_a: *const FInt, uplo: *const c_char, len: usize, double: bool) {
    let (lower, n) = square(call, g_a, uplo, len);
    let (me, np) = (i64::from(core::nodeid()), i64::from(core::nnodes()));
    crate::fapi::ga_sync_();
    let mut col = vec![0.0; n as usize];
    for i in (me + 1..=n).step_by(np as usize) {
        column(call, g_a, n, i, &mut col, false);
        for (j, x) in col.iter_mut().enumerate() {
            let j = j as i64 + 1;
            if (lower && j < i) || (!lower && j > i) {
                *x = 0.0;
            } else if double && j != i {
                *x *= 2.0;
            }
        }
        column(call, g_a, n, i, &mut col, true);
    }
    crate::fapi::ga_sync_();
}

/// `subroutine ga_zeroul(uplo, g_a)`: on a square double precision
/// array, `'L'` zeroes the part above the diagonal, `'U'` the part below
/// (collective).
#[no_mangle]
pub extern "C" fn ga_zeroul_(uplo: *const c_char, g_a: *const FInt, len: usize) {
    entry("ga_zeroUL", || {
        keep_triangle("ga_zeroUL", g_a, uplo, len, false)
    })
}

/// `subroutine ga_symul(uplo, g_a)`: makes the square double precision
/// array symmetric from its lower (`'L'`) or upper (`'U'`) triangle and
/// diagonal (collective).
#[no_mangle]
pub extern "C" fn ga_symul_(uplo: *const c_char, g_a: *const FInt, len: usize) {
    entry("ga_symUL", || {
        keep_triangle("ga_symUL", g_a, uplo, len, true);
        crate::fapi_ops::ga_symmetrize_(g_a);
    })
}

/// The order-`n` Hermitian matrix of the pair `g` (lower triangle read)
/// as the column-major real symmetric matrix of order 2n.
fn embedding(call: &str, g: [*const FInt; 2], n: i64) -> Vec<f64> {
    let n = n as usize;
    let mut parts = [vec![0.0; n * n], vec![0.0; n * n]];
    for (p, part) in g.into_iter().zip(parts.iter_mut()) {
        patch_2d_io(
            call,
            p,
            [1, n as i64, 1, n as i64],
            part.as_mut_ptr() as *mut c_void,
            n as i64,
            false,
        );
    }
    let h = |i: usize, j: usize| -> (f64, f64) {
        if i >= j {
            (parts[0][i + j * n], parts[1][i + j * n])
        } else {
            (parts[0][j + i * n], -parts[1][j + i * n])
        }
    };
    let m = 2 * n;
    let mut big = vec![0.0; m * m];
    for j in 0..n {
        for i in 0..n {
            let (re, im) = h(i, j);
            big[i + j * m] = re;
            big[(i + n) + (j + n) * m] = re;
            big[(i + n) + j * m] = im;
            big[i + (j + n) * m] = -im;
        }
    }
    big
}

/// The eigenpairs of the order-2n symmetric `big` by ScaLAPACK (through
/// two scratch arrays): eigenvalues ascending and the eigenvectors,
/// column-major.
fn real_eigen(call: &'static str, big: &[f64], m: usize) -> GaResult<(Vec<f64>, Vec<f64>)> {
    let dims = [m as i64, m as i64];
    let a = core::create(
        call,
        ElemType::Double,
        &dims,
        "pzheev A",
        &Distribution::Default,
    )?;
    let v = core::create(
        call,
        ElemType::Double,
        &dims,
        "pzheev V",
        &Distribution::Default,
    )?;
    let (lo, hi, ld) = ([0, 0], [m as i64 - 1, m as i64 - 1], [m as i64]);
    // Symmetric: the C-order view holds the same matrix.
    if core::nodeid() == 0 {
        core::put(a, &lo, &hi, &encode(big), &ld)?;
    }
    core::sync_array(a)?;
    let mut w = vec![0.0; m];
    let solved = linalg::diag_std(call, [a, v], &mut w);
    let mut bytes = vec![0u8; m * m * 8];
    let got = solved.and_then(|_| core::get(v, &lo, &hi, &mut bytes, &ld));
    let freed = [a, v]
        .into_iter()
        .map(core::destroy)
        .collect::<GaResult<Vec<()>>>();
    got?;
    freed?;
    // The C-order rows are the Fortran view's columns.
    Ok((w, decode(&bytes)))
}

/// From the 2n eigenpairs of the embedding, the `n` of the Hermitian
/// matrix: eigenvalues and eigenvectors (real parts, imaginary parts,
/// column-major), ascending.
fn hermitian_pairs(
    call: &str,
    n: usize,
    w: &[f64],
    vecs: &[f64],
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let m = 2 * n;
    let mut kept: Vec<Vec<(f64, f64)>> = Vec::with_capacity(n);
    let mut vals = Vec::with_capacity(n);
    for k in 0..m {
        if kept.len() == n {
            break;
        }
        let col = &vecs[k * m..(k + 1) * m];
        let mut z: Vec<(f64, f64)> = (0..n).map(|i| (col[i], col[i + n])).collect();
        for q in &kept {
            // Subtract the projection <q, z> q.
            let (mut pr, mut pi) = (0.0, 0.0);
            for (a, b) in q.iter().zip(&z) {
                pr += a.0 * b.0 + a.1 * b.1;
                pi += a.0 * b.1 - a.1 * b.0;
            }
            for (b, a) in z.iter_mut().zip(q) {
                b.0 -= pr * a.0 - pi * a.1;
                b.1 -= pr * a.1 + pi * a.0;
            }
        }
        let norm = z.iter().map(|c| c.0 * c.0 + c.1 * c.1).sum::<f64>().sqrt();
        if norm > 0.5 {
            kept.push(z.into_iter().map(|c| (c.0 / norm, c.1 / norm)).collect());
            vals.push(w[k]);
        }
    }
    if kept.len() < n {
        fail(
            call,
            "the eigenvectors of a repeated eigenvalue could not be separated",
        );
    }
    let re = kept.iter().flat_map(|z| z.iter().map(|c| c.0)).collect();
    let im = kept.iter().flat_map(|z| z.iter().map(|c| c.1)).collect();
    (vals, re, im)
}

/// The Hermitian eigenproblem of the pair `g_a` into the pair `g_b` and
/// `eval`: all eigenpairs, or with `mout` the lowest `mout` (others'
/// columns zero); returns how many.
fn hermitian(
    call: &'static str,
    g_a: *const FInt,
    g_b: *const FInt,
    eval: *mut f64,
    mout: Option<i64>,
) -> i64 {
    let pa = crate::fapi::ints(call, g_a, 2);
    let pb = crate::fapi::ints(call, g_b, 2);
    let a: [*const FInt; 2] = [&pa[0], &pa[1]];
    let b: [*const FInt; 2] = [&pb[0], &pb[1]];
    let n = dbl_2d(call, a[0]).dims[0];
    for p in [a[0], a[1], b[0], b[1]] {
        let x = dbl_2d(call, p);
        if x.dims != [n, n] {
            fail(
                call,
                format!("'{}' is not a square matrix of order {n}", x.name()),
            );
        }
    }
    let nu = n as usize;
    let big = embedding(call, a, n);
    let (w, vecs) = real_eigen(call, &big, 2 * nu).unwrap_or_else(|e| fail_core(call, e));
    let (vals, mut re, mut im) = hermitian_pairs(call, nu, &w, &vecs);
    let m = match mout {
        Some(k) if (1..=n).contains(&k) => k as usize,
        _ => nu,
    };
    for x in re[m * nu..].iter_mut().chain(im[m * nu..].iter_mut()) {
        *x = 0.0;
    }
    let out = ptr::slice_mut(eval, m).unwrap_or_else(|| fail(call, "eval is missing (NULL)"));
    out.copy_from_slice(&vals[..m]);
    if core::nodeid() == 0 {
        for (p, part) in b.into_iter().zip([&mut re, &mut im]) {
            patch_2d_io(
                call,
                p,
                [1, n, 1, n],
                part.as_mut_ptr() as *mut c_void,
                n,
                true,
            );
        }
    }
    crate::fapi::ga_sync_();
    m as i64
}

/// `subroutine ga_pzheevd(g_a, g_b, eval, nb)`: the eigenvalues
/// (ascending, into `eval(n)`) and orthonormal eigenvectors (columns of
/// `g_b(1) + i·g_b(2)`) of the Hermitian `g_a(1) + i·g_a(2)` (its lower
/// triangle); `nb` (GA's block size) changes no result. Collective.
#[no_mangle]
pub extern "C" fn ga_pzheevd_(g_a: *const FInt, g_b: *const FInt, eval: *mut f64, nb: *const FInt) {
    const C: &str = "ga_pzheevd";
    entry(C, || {
        crate::fapi::int(C, nb);
        hermitian(C, g_a, g_b, eval, None);
    })
}

/// `subroutine ga_pzheevr(g_a, g_b, eval, nb, mout)`: as `ga_pzheevd` for
/// the `mout` lowest eigenpairs (all when `mout` is not in 1..n): the
/// other columns of `g_b` are zero; `mout` returns how many were found.
/// Rank 0 prints GA's note when that is not all of them.
#[no_mangle]
pub extern "C" fn ga_pzheevr_(
    g_a: *const FInt,
    g_b: *const FInt,
    eval: *mut f64,
    nb: *const FInt,
    mout: *mut FInt,
) {
    const C: &str = "ga_pzheevr";
    entry(C, || {
        crate::fapi::int(C, nb);
        let want = crate::fapi::int(C, mout);
        let m = hermitian(C, g_a, g_b, eval, Some(want));
        let n = dbl_2d(C, g_a).dims[0];
        if m != n && core::nodeid() == 0 {
            // GA's own note, in its list-directed layout.
            println!("  computed eval {m:>21}  out of {n:>12}");
        }
        crate::fapi::out(C, mout, m);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_as_ga_finds_them() {
        assert_eq!(find_grid(1), (1, 1));
        assert_eq!(find_grid(2), (1, 2));
        assert_eq!(find_grid(4), (1, 4));
        assert_eq!(find_grid(6), (2, 3));
        assert_eq!(find_grid(8), (2, 4));
        assert_eq!(max_procs(10, 4), 4);
        assert_eq!(max_procs(100_000, 1 << 20), 1 << 18);
        // nint(8 / 16) is 1, so a small problem gets 16 (as GA computes it).
        assert_eq!(max_procs(100, 1 << 20), 16);
    }
}
