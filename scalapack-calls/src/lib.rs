//! scalapack-calls: the FFI edge to Debian's ScaLAPACK (`libscalapack-openmpi`,
//! which holds BLACS and PBLAS too) and the reference LAPACK (`liblapack`)
//! for the dense linear algebra of GA (`GA_Lu_solve`, `GA_Llt_solve`,
//! `GA_Spd_invert`, `GA_Diag*` and their sequential forms), with entries
//! that take owned, size-checked matrices so that the GA layer declares
//! nothing of its own and holds no `unsafe` for them.
//!
//! Everything here is double precision and column-major, as Fortran
//! stores it. A distributed matrix is a [`Matrix`]: this process's part of
//! a ScaLAPACK block-cyclic matrix (square `nb`×`nb` blocks dealt from
//! process (0, 0) of a [`Grid`]), whose buffer always matches its
//! descriptor. Routines return LAPACK's `INFO` (0, or a positive index
//! the routine explains); an illegal argument (`INFO < 0`) is reported as
//! [`Illegal`].

use std::ffi::{c_char, c_int, c_void};

/// Fortran's hidden length of a `CHARACTER` argument (gfortran: `size_t`).
type FLen = usize;

// One declaration a line: the routines' argument lists, as the
// libraries define them (hidden CHARACTER lengths last).
#[rustfmt::skip]
#[link(name = "scalapack-openmpi")]
extern "C" {
    fn Csys2blacs_handle(comm: *mut c_void) -> c_int;
    fn Cfree_blacs_system_handle(handle: c_int);
    fn Cblacs_gridinit(ctxt: *mut c_int, order: *const c_char, nprow: c_int, npcol: c_int);
    fn Cblacs_gridinfo(ctxt: c_int, nprow: *mut c_int, npcol: *mut c_int, myrow: *mut c_int, mycol: *mut c_int);
    fn Cblacs_gridexit(ctxt: c_int);
    fn numroc_(n: *const c_int, nb: *const c_int, iproc: *const c_int, isrcproc: *const c_int, nprocs: *const c_int) -> c_int;
    fn descinit_(desc: *mut c_int, m: *const c_int, n: *const c_int, mb: *const c_int, nb: *const c_int, irsrc: *const c_int, icsrc: *const c_int, ictxt: *const c_int, lld: *const c_int, info: *mut c_int);
    fn pdgetrf_(m: *const c_int, n: *const c_int, a: *mut f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, ipiv: *mut c_int, info: *mut c_int);
    fn pdgetrs_(trans: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, ipiv: *const c_int, b: *mut f64, ib: *const c_int, jb: *const c_int, descb: *const c_int, info: *mut c_int, ltrans: FLen);
    fn pdpotrf_(uplo: *const c_char, n: *const c_int, a: *mut f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, info: *mut c_int, luplo: FLen);
    fn pdpotrs_(uplo: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, b: *mut f64, ib: *const c_int, jb: *const c_int, descb: *const c_int, info: *mut c_int, luplo: FLen);
    fn pdpotri_(uplo: *const c_char, n: *const c_int, a: *mut f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, info: *mut c_int, luplo: FLen);
    fn pdsygst_(ibtype: *const c_int, uplo: *const c_char, n: *const c_int, a: *mut f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, b: *const f64, ib: *const c_int, jb: *const c_int, descb: *const c_int, scale: *mut f64, info: *mut c_int, luplo: FLen);
    fn pdsyevd_(jobz: *const c_char, uplo: *const c_char, n: *const c_int, a: *mut f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, w: *mut f64, z: *mut f64, iz: *const c_int, jz: *const c_int, descz: *const c_int, work: *mut f64, lwork: *const c_int, iwork: *mut c_int, liwork: *const c_int, info: *mut c_int, ljobz: FLen, luplo: FLen);
    fn pdtrsm_(side: *const c_char, uplo: *const c_char, transa: *const c_char, diag: *const c_char, m: *const c_int, n: *const c_int, alpha: *const f64, a: *const f64, ia: *const c_int, ja: *const c_int, desca: *const c_int, b: *mut f64, ib: *const c_int, jb: *const c_int, descb: *const c_int, lside: FLen, luplo: FLen, ltransa: FLen, ldiag: FLen);
}

// One declaration a line: the routines' argument lists, as the
// libraries define them (hidden CHARACTER lengths last).
#[rustfmt::skip]
#[link(name = "lapack")]
extern "C" {
    fn dgetrf_(m: *const c_int, n: *const c_int, a: *mut f64, lda: *const c_int, ipiv: *mut c_int, info: *mut c_int);
    fn dgetrs_(trans: *const c_char, n: *const c_int, nrhs: *const c_int, a: *const f64, lda: *const c_int, ipiv: *const c_int, b: *mut f64, ldb: *const c_int, info: *mut c_int, ltrans: FLen);
    fn dsyev_(jobz: *const c_char, uplo: *const c_char, n: *const c_int, a: *mut f64, lda: *const c_int, w: *mut f64, work: *mut f64, lwork: *const c_int, info: *mut c_int, ljobz: FLen, luplo: FLen);
    fn dsygv_(itype: *const c_int, jobz: *const c_char, uplo: *const c_char, n: *const c_int, a: *mut f64, lda: *const c_int, b: *mut f64, ldb: *const c_int, w: *mut f64, work: *mut f64, lwork: *const c_int, info: *mut c_int, ljobz: FLen, luplo: FLen);
}

/// A routine rejected its argument number `.0` (LAPACK's `INFO = -i`), or
/// a size does not fit a Fortran `INTEGER` (`.0 == 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Illegal(pub i32);

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == 0 {
            write!(f, "a size does not fit a 32-bit INTEGER")
        } else {
            write!(f, "argument {} is illegal", self.0)
        }
    }
}

impl std::error::Error for Illegal {}

/// `INFO` as a result: `Ok(0)` or `Ok(i > 0)`, or the illegal argument.
fn checked(info: c_int) -> Result<i32, Illegal> {
    if info < 0 {
        Err(Illegal(-info))
    } else {
        Ok(info)
    }
}

fn fint(v: usize) -> Result<c_int, Illegal> {
    c_int::try_from(v).map_err(|_| Illegal(0))
}

/// A triangle of a symmetric matrix, as LAPACK's `UPLO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uplo {
    Lower,
    Upper,
}

impl Uplo {
    fn code(self) -> c_char {
        (if self == Uplo::Lower { b'L' } else { b'U' }) as c_char
    }
}

/// The Fortran character of `c`.
fn ch(c: u8) -> c_char {
    c as c_char
}

/// ScaLAPACK's `NUMROC`: how many of `n` rows (or columns), dealt in
/// blocks of `nb` over `nprocs` processes from process 0, process `iproc`
/// holds (0 for sizes beyond a Fortran `INTEGER`).
pub fn numroc(n: usize, nb: usize, iproc: usize, nprocs: usize) -> usize {
    let (Ok(n), Ok(nb), Ok(ip), Ok(np)) = (fint(n), fint(nb), fint(iproc), fint(nprocs)) else {
        return 0;
    };
    if nb < 1 || np < 1 {
        return 0;
    }
    // SAFETY: NUMROC reads five INTEGERs, all locals here.
    let k = unsafe { numroc_(&n, &nb, &ip, &0, &np) };
    k.max(0) as usize
}

/// A BLACS process grid over an MPI communicator, row-major; released
/// when dropped (collectively, like its creation).
#[derive(Debug)]
pub struct Grid {
    ctxt: c_int,
    handle: c_int,
    pub nprow: usize,
    pub npcol: usize,
    pub myrow: usize,
    pub mycol: usize,
}

impl Grid {
    /// Makes an `nprow`×`npcol` grid of the first `nprow·npcol` ranks of
    /// `comm`. Collective over `comm`.
    ///
    /// # Safety
    /// `comm` must be a valid `MPI_Comm` of the Open MPI that Debian's
    /// ScaLAPACK links, every member must call this with the same shape,
    /// and `nprow·npcol` must not exceed its size.
    pub unsafe fn new(comm: *mut c_void, nprow: usize, npcol: usize) -> Result<Grid, Illegal> {
        let (pr, pc) = (fint(nprow)?, fint(npcol)?);
        let order = [b'R' as c_char, 0];
        let (mut r, mut c, mut myr, mut myc) = (0, 0, 0, 0);
        // SAFETY: the caller vouches for `comm`; BLACS copies it. The
        // order string is NUL-terminated and the outputs live here.
        let (handle, ctxt) = unsafe {
            let handle = Csys2blacs_handle(comm);
            let mut ctxt = handle;
            Cblacs_gridinit(&mut ctxt, order.as_ptr(), pr, pc);
            Cblacs_gridinfo(ctxt, &mut r, &mut c, &mut myr, &mut myc);
            (handle, ctxt)
        };
        if myr < 0 || myc < 0 {
            return Err(Illegal(0));
        }
        Ok(Grid {
            ctxt,
            handle,
            nprow: r as usize,
            npcol: c as usize,
            myrow: myr as usize,
            mycol: myc as usize,
        })
    }

    /// The layout of an `m`×`n` matrix in `nb`×`nb` blocks on this grid.
    pub fn layout(&self, m: usize, n: usize, nb: usize) -> Result<Layout, Illegal> {
        let rows = numroc(m, nb, self.myrow, self.nprow);
        let cols = numroc(n, nb, self.mycol, self.npcol);
        let lld = rows.max(1);
        let mut desc = [0 as c_int; 9];
        let mut info = 0;
        let (fm, fn_, fnb, flld) = (fint(m)?, fint(n)?, fint(nb)?, fint(lld)?);
        // SAFETY: `desc` has the 9 entries DESCINIT fills; every input is
        // a local that outlives the call.
        unsafe {
            descinit_(
                desc.as_mut_ptr(),
                &fm,
                &fn_,
                &fnb,
                &fnb,
                &0,
                &0,
                &self.ctxt,
                &flld,
                &mut info,
            )
        };
        checked(info)?;
        Ok(Layout {
            desc,
            m,
            n,
            nb,
            rows,
            cols,
        })
    }
}

impl Drop for Grid {
    fn drop(&mut self) {
        // SAFETY: the context and the system handle were made by `new`
        // and are released once, here.
        unsafe {
            Cblacs_gridexit(self.ctxt);
            Cfree_blacs_system_handle(self.handle);
        }
    }
}

/// A ScaLAPACK descriptor with this process's share of the matrix.
#[derive(Clone, Debug)]
pub struct Layout {
    desc: [c_int; 9],
    /// Global rows and columns.
    pub m: usize,
    pub n: usize,
    /// Block size (rows and columns).
    pub nb: usize,
    /// Rows and columns this process holds (its leading dimension is
    /// `rows.max(1)`).
    pub rows: usize,
    pub cols: usize,
}

impl Layout {
    /// The leading dimension of the local buffer.
    pub fn lld(&self) -> usize {
        self.rows.max(1)
    }
}

/// This process's part of a distributed matrix: `data` is column-major
/// with leading dimension `layout.lld()` and exactly `lld·cols` long.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub layout: Layout,
    data: Vec<f64>,
}

impl Matrix {
    /// A zero matrix of `layout`.
    pub fn zeros(layout: Layout) -> Matrix {
        let len = layout.lld() * layout.cols;
        Matrix {
            layout,
            data: vec![0.0; len],
        }
    }

    /// The local buffer (column-major, leading dimension `layout.lld()`).
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// The local buffer, writable; its length cannot change.
    pub fn data_mut(&mut self) -> &mut [f64] {
        &mut self.data
    }

    fn desc(&self) -> *const c_int {
        self.layout.desc.as_ptr()
    }
}

/// `PDGETRF`: LU factorisation with partial pivoting of the square matrix
/// `a` in place; returns `INFO` (`i > 0`: `U(i,i)` is exactly zero) and
/// the pivots for [`pdgetrs`].
pub fn pdgetrf(a: &mut Matrix) -> Result<(i32, Vec<c_int>), Illegal> {
    let n = fint(a.layout.n)?;
    let mut ipiv = vec![0 as c_int; a.layout.rows + a.layout.nb];
    let mut info = 0;
    // SAFETY: `a`'s buffer matches its descriptor (see `Matrix`); IPIV
    // holds LOCr(M)+MB entries as PDGETRF requires.
    unsafe {
        pdgetrf_(
            &n,
            &n,
            a.data.as_mut_ptr(),
            &1,
            &1,
            a.desc(),
            ipiv.as_mut_ptr(),
            &mut info,
        )
    };
    Ok((checked(info)?, ipiv))
}

/// `PDGETRS`: solves `op(A)·X = B` with the factors of [`pdgetrf`];
/// `transpose` selects `Aᵀ`. `b` is overwritten by `X`.
pub fn pdgetrs(transpose: bool, a: &Matrix, ipiv: &[c_int], b: &mut Matrix) -> Result<(), Illegal> {
    if ipiv.len() < a.layout.rows + a.layout.nb {
        return Err(Illegal(8));
    }
    let (n, nrhs) = (fint(a.layout.n)?, fint(b.layout.n)?);
    let t = ch(if transpose { b'T' } else { b'N' });
    let mut info = 0;
    let (pa, da, pb, db) = (a.data.as_ptr(), a.desc(), b.data.as_mut_ptr(), b.desc());
    let ip = ipiv.as_ptr();
    // SAFETY: both buffers match their descriptors; the pivots have the
    // length PDGETRF gave them (checked above).
    unsafe {
        pdgetrs_(
            &t, &n, &nrhs, pa, &1, &1, da, ip, pb, &1, &1, db, &mut info, 1,
        )
    };
    checked(info).map(|_| ())
}

/// A ScaLAPACK routine of `(UPLO, N, A, IA, JA, DESCA, INFO)`.
type OnTriangle = unsafe extern "C" fn(
    *const c_char,
    *const c_int,
    *mut f64,
    *const c_int,
    *const c_int,
    *const c_int,
    *mut c_int,
    FLen,
);

/// Runs `f` on the `uplo` triangle of the whole of `a`; returns `INFO`.
fn on_triangle(f: OnTriangle, uplo: Uplo, a: &mut Matrix) -> Result<i32, Illegal> {
    let n = fint(a.layout.n)?;
    let mut info = 0;
    let (p, d) = (a.data.as_mut_ptr(), a.layout.desc.as_ptr());
    // SAFETY: `f` is PDPOTRF or PDPOTRI, which take these arguments; the
    // buffer matches its descriptor.
    unsafe { f(&uplo.code(), &n, p, &1, &1, d, &mut info, 1) };
    checked(info)
}

/// `PDPOTRF`: Cholesky factorisation of the symmetric matrix `a` (the
/// `uplo` triangle is read and overwritten by the factor); `INFO = i > 0`
/// says the leading minor of order `i` is not positive definite.
pub fn pdpotrf(uplo: Uplo, a: &mut Matrix) -> Result<i32, Illegal> {
    on_triangle(pdpotrf_, uplo, a)
}

/// `PDPOTRS`: solves `A·X = B` with the Cholesky factor of [`pdpotrf`].
pub fn pdpotrs(uplo: Uplo, a: &Matrix, b: &mut Matrix) -> Result<(), Illegal> {
    let (n, nrhs) = (fint(a.layout.n)?, fint(b.layout.n)?);
    let mut info = 0;
    let (pa, da, pb, db) = (a.data.as_ptr(), a.desc(), b.data.as_mut_ptr(), b.desc());
    // SAFETY: both buffers match their descriptors.
    unsafe {
        pdpotrs_(
            &uplo.code(),
            &n,
            &nrhs,
            pa,
            &1,
            &1,
            da,
            pb,
            &1,
            &1,
            db,
            &mut info,
            1,
        )
    };
    checked(info).map(|_| ())
}

/// `PDPOTRI`: the inverse from the Cholesky factor of [`pdpotrf`], in the
/// `uplo` triangle; `INFO = i > 0` says the factor's `(i,i)` is zero.
pub fn pdpotri(uplo: Uplo, a: &mut Matrix) -> Result<i32, Illegal> {
    on_triangle(pdpotri_, uplo, a)
}

/// `PDSYGST` (type 1, lower): `a ← L⁻¹·A·L⁻ᵀ` with `l` the lower
/// Cholesky factor from [`pdpotrf`]; returns the scale of the
/// eigenvalues.
pub fn pdsygst_lower(a: &mut Matrix, l: &Matrix) -> Result<f64, Illegal> {
    let n = fint(a.layout.n)?;
    let mut scale = 1.0;
    let mut info = 0;
    let (pa, da, pl, dl) = (a.data.as_mut_ptr(), a.desc(), l.data.as_ptr(), l.desc());
    let u = Uplo::Lower.code();
    // SAFETY: both buffers match their descriptors; the scale lives here.
    unsafe {
        pdsygst_(
            &1, &u, &n, pa, &1, &1, da, pl, &1, &1, dl, &mut scale, &mut info, 1,
        )
    };
    checked(info).map(|_| scale)
}

/// `PDSYEVD` on the lower triangle of `a` (destroyed): the eigenvalues in
/// ascending order into `w` (length `n`) and the orthonormal eigenvectors
/// as the columns of `z`. `INFO = i > 0`: the routine failed to converge.
pub fn pdsyevd(a: &mut Matrix, w: &mut [f64], z: &mut Matrix) -> Result<i32, Illegal> {
    if w.len() < a.layout.n {
        return Err(Illegal(8));
    }
    let n = fint(a.layout.n)?;
    let (jobz, uplo) = (ch(b'V'), Uplo::Lower.code());
    let mut info = 0;
    let mut call = |work: &mut [f64], lwork: c_int, iwork: &mut [c_int], liwork: c_int| {
        // SAFETY: the matrices match their descriptors, `w` holds n
        // values (checked above), and the work arrays hold at least what
        // is announced in `lwork`/`liwork` (1 for the size query).
        unsafe {
            pdsyevd_(
                &jobz,
                &uplo,
                &n,
                a.data.as_mut_ptr(),
                &1,
                &1,
                a.layout.desc.as_ptr(),
                w.as_mut_ptr(),
                z.data.as_mut_ptr(),
                &1,
                &1,
                z.layout.desc.as_ptr(),
                work.as_mut_ptr(),
                &lwork,
                iwork.as_mut_ptr(),
                &liwork,
                &mut info,
                1,
                1,
            )
        };
        checked(info)
    };
    let (mut w0, mut i0) = ([0.0f64; 1], [0 as c_int; 1]);
    call(&mut w0, -1, &mut i0, -1)?;
    // Some margin over the query's answer, which ScaLAPACK versions have
    // been known to give too small.
    let lwork = (w0[0] as usize).max(1) * 2 + 1024;
    let liwork = (i0[0].max(1) as usize) * 2 + 64;
    let mut work = vec![0.0; lwork];
    let mut iwork = vec![0 as c_int; liwork];
    call(&mut work, fint(lwork)?, &mut iwork, fint(liwork)?)
}

/// `PDTRSM` for `B ← L⁻ᵀ·B` with `l` lower triangular (non-unit).
pub fn pdtrsm_lower_transposed(l: &Matrix, b: &mut Matrix) -> Result<(), Illegal> {
    let (m, n) = (fint(b.layout.m)?, fint(b.layout.n)?);
    // SAFETY: both buffers match their descriptors; PBLAS checks the
    // shapes against them.
    unsafe {
        pdtrsm_(
            &ch(b'L'),
            &ch(b'L'),
            &ch(b'T'),
            &ch(b'N'),
            &m,
            &n,
            &1.0,
            l.data.as_ptr(),
            &1,
            &1,
            l.desc(),
            b.data.as_mut_ptr(),
            &1,
            &1,
            b.desc(),
            1,
            1,
            1,
            1,
        )
    };
    Ok(())
}

/// A dense column-major `n`×`n` matrix for the serial LAPACK routines.
fn square_ok(a: &[f64], n: usize) -> Result<c_int, Illegal> {
    if a.len() < n * n {
        return Err(Illegal(0));
    }
    fint(n)
}

/// `DGETRF` + `DGETRS`: solves `op(A)·X = B` for the dense column-major
/// `n`×`n` matrix `a` (overwritten by its factors) and `n`×`nrhs` `b`
/// (overwritten by `X`). Returns `INFO` of the factorisation (`i > 0`:
/// `U(i,i)` is zero; `b` is then untouched).
pub fn dgesv_dense(
    transpose: bool,
    n: usize,
    a: &mut [f64],
    b: &mut [f64],
) -> Result<i32, Illegal> {
    let fn_ = square_ok(a, n)?;
    let nrhs = b.len().checked_div(n).unwrap_or(0);
    let fr = fint(nrhs)?;
    let lda = fint(n.max(1))?;
    let mut ipiv = vec![0 as c_int; n.max(1)];
    let mut info = 0;
    // SAFETY: `a` holds n·n values (checked), IPIV n entries.
    unsafe {
        dgetrf_(
            &fn_,
            &fn_,
            a.as_mut_ptr(),
            &lda,
            ipiv.as_mut_ptr(),
            &mut info,
        )
    };
    let info = checked(info)?;
    if info > 0 {
        return Ok(info);
    }
    let t = ch(if transpose { b'T' } else { b'N' });
    let mut info2 = 0;
    // SAFETY: `b` holds n·nrhs values (nrhs is its length over n), the
    // factors and pivots come from DGETRF above.
    unsafe {
        dgetrs_(
            &t,
            &fn_,
            &fr,
            a.as_ptr(),
            &lda,
            ipiv.as_ptr(),
            b.as_mut_ptr(),
            &lda,
            &mut info2,
            1,
        )
    };
    checked(info2)
}

/// Leading dimension, WORK and its length for the serial eigensolvers of
/// order `n` (at least the `3n − 1` they need, with room for blocking).
fn eigen_work(n: usize) -> Result<(c_int, Vec<f64>, c_int), Illegal> {
    let lwork = (3 * n).max(1) + 64 * n;
    Ok((fint(n.max(1))?, vec![0.0; lwork], fint(lwork)?))
}

/// `DSYEV` (`JOBZ='V'`, lower): eigenvalues ascending into `w`, the
/// orthonormal eigenvectors over `a` (dense column-major `n`×`n`).
/// `INFO = i > 0`: no convergence.
pub fn dsyev_dense(n: usize, a: &mut [f64], w: &mut [f64]) -> Result<i32, Illegal> {
    let fn_ = square_ok(a, n)?;
    if w.len() < n {
        return Err(Illegal(6));
    }
    let (lda, mut work, fl) = eigen_work(n)?;
    let (v, l, mut info) = (ch(b'V'), Uplo::Lower.code(), 0);
    let (pa, pw, pk) = (a.as_mut_ptr(), w.as_mut_ptr(), work.as_mut_ptr());
    // SAFETY: `a` holds n·n values, `w` n, WORK `fl` (see `eigen_work`).
    unsafe { dsyev_(&v, &l, &fn_, pa, &lda, pw, pk, &fl, &mut info, 1, 1) };
    checked(info)
}

/// `DSYGV` (type 1, `JOBZ='V'`, lower): `A·x = λ·B·x` with `B` positive
/// definite; eigenvalues ascending into `w`, eigenvectors (`XᵀBX = I`)
/// over `a`, `b` overwritten by its Cholesky factor. `INFO` as LAPACK's:
/// `n < i ≤ 2n` says `B`'s leading minor of order `i − n` is not
/// positive definite.
pub fn dsygv_dense(n: usize, a: &mut [f64], b: &mut [f64], w: &mut [f64]) -> Result<i32, Illegal> {
    let fn_ = square_ok(a, n)?;
    square_ok(b, n)?;
    if w.len() < n {
        return Err(Illegal(9));
    }
    let (lda, mut work, fl) = eigen_work(n)?;
    let (v, l, mut info) = (ch(b'V'), Uplo::Lower.code(), 0);
    let (pa, pb, pw, pk) = (
        a.as_mut_ptr(),
        b.as_mut_ptr(),
        w.as_mut_ptr(),
        work.as_mut_ptr(),
    );
    // SAFETY: `a` and `b` hold n·n values, `w` n, WORK `fl` (see
    // `eigen_work`).
    unsafe {
        dsygv_(
            &1, &v, &l, &fn_, pa, &lda, pb, &lda, pw, pk, &fl, &mut info, 1, 1,
        )
    };
    checked(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numroc_deals_blocks_round_robin() {
        // 10 rows in blocks of 3 over 2 processes: blocks 0,2 (3+3) and
        // 1,3 (3+1).
        assert_eq!(numroc(10, 3, 0, 2), 6);
        assert_eq!(numroc(10, 3, 1, 2), 4);
        assert_eq!(numroc(7, 2, 0, 3), 3);
        assert_eq!(numroc(7, 2, 1, 3), 2);
        assert_eq!(numroc(7, 2, 2, 3), 2);
        assert_eq!(numroc(4, 8, 1, 2), 0);
    }

    #[test]
    fn serial_solve_and_eigenvalues() {
        // A = [4 1; 2 3] column-major; A·x = [1; 2] gives x = [0.1, 0.6].
        let mut a = [4.0, 2.0, 1.0, 3.0];
        let mut b = [1.0, 2.0];
        assert_eq!(dgesv_dense(false, 2, &mut a, &mut b), Ok(0));
        assert!((b[0] - 0.1).abs() < 1e-14 && (b[1] - 0.6).abs() < 1e-14);
        // Aᵀ·x = [1; 2]: [4 2; 1 3]x = [1; 2] gives x = [-0.1, 0.7].
        let mut a = [4.0, 2.0, 1.0, 3.0];
        let mut b = [1.0, 2.0];
        assert_eq!(dgesv_dense(true, 2, &mut a, &mut b), Ok(0));
        assert!((b[0] + 0.1).abs() < 1e-14 && (b[1] - 0.7).abs() < 1e-14);
        // A singular matrix is reported, not solved.
        let mut a = [1.0, 2.0, 2.0, 4.0];
        assert_eq!(dgesv_dense(false, 2, &mut a, &mut [1.0, 1.0]), Ok(2));

        // [2 1; 1 2] has eigenvalues 1 and 3.
        let mut a = [2.0, 1.0, 1.0, 2.0];
        let mut w = [0.0; 2];
        assert_eq!(dsyev_dense(2, &mut a, &mut w), Ok(0));
        assert!((w[0] - 1.0).abs() < 1e-14 && (w[1] - 3.0).abs() < 1e-14);
        // With B = 2·I they halve.
        let mut a = [2.0, 1.0, 1.0, 2.0];
        let mut b = [2.0, 0.0, 0.0, 2.0];
        assert_eq!(dsygv_dense(2, &mut a, &mut b, &mut w), Ok(0));
        assert!((w[0] - 0.5).abs() < 1e-14 && (w[1] - 1.5).abs() < 1e-14);
        // An indefinite B is reported as LAPACK does (n + order).
        let mut a = [2.0, 1.0, 1.0, 2.0];
        let mut b = [-1.0, 0.0, 0.0, 1.0];
        assert_eq!(dsygv_dense(2, &mut a, &mut b, &mut w), Ok(3));
    }
}
