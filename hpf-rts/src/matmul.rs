//! MATMUL of two rank-2 distributed arrays on a processor grid, by SUMMA
//! (van de Geijn and Watts): the inner dimension is cut into panels; for
//! each panel the processes owning that panel of A broadcast it along
//! their grid rows, those owning the panel of B broadcast it along their
//! grid columns, and every process adds the product of the two panels to
//! its block of C with the system BLAS (OpenBLAS `cblas_?gemm` for reals,
//! a plain loop for integers).
//!
//! Layout: C's DAD decides. A's rows must follow C's rows and B's columns
//! C's columns (same distribution on the same grid dimension); A's
//! columns must be collapsed or spread over C's column grid dimension, B's
//! rows collapsed or spread over C's row grid dimension. Operands in any
//! other layout (or with panels narrower than [`MIN_PANEL`]) are first
//! remapped (cached schedules) to that layout with CYCLIC([`PANEL`]) on
//! the inner dimension. Operands at fixed grid coordinates (an alignment
//! to a fixed template position) are remapped the same way; a C at fixed
//! coordinates is computed in its layout on every line and then copied
//! to its holders.
//!
//! Order of the sums (reals): each element of C is the sum over panels in
//! increasing inner index, each panel's part summed by the BLAS; the
//! result is the same on every process holding a copy.

use crate::blas::{self, GemmShape};
use crate::dad::{Dad, DimMap, DimSpec, Dist};
use crate::element::{Complex16, Complex8, Element, Logical};
use crate::error::{HpfError, HpfResult};
use crate::grid::ProcGrid;
use crate::reduce::check_len;
use crate::{ptr, schedule};

/// Panel width (inner-dimension block) of operands MATMUL remaps.
pub const PANEL: usize = 128;
/// Narrowest panel of operands taken as they are.
pub const MIN_PANEL: usize = 16;

/// Element types MATMUL multiplies: a local `C += A * B` kernel.
pub trait Gemm: Element {
    /// `C += A * B` on column-major operands.
    fn gemm(s: GemmShape, a: &[Self], b: &[Self], c: &mut [Self]) -> HpfResult<()>;
    /// The bytes of `s` (to broadcast panels in place).
    fn bytes(s: &mut [Self]) -> &mut [u8];
}

fn loop_gemm<T: Element>(s: GemmShape, a: &[T], b: &[T], c: &mut [T]) -> HpfResult<()> {
    s.check(a.len(), b.len(), c.len())?;
    for j in 0..s.n {
        for p in 0..s.k {
            let bpj = b[p + j * s.ldb];
            let col = &a[p * s.lda..p * s.lda + s.m];
            let out = &mut c[j * s.ldc..j * s.ldc + s.m];
            for (o, &x) in out.iter_mut().zip(col) {
                *o = o.plus(x.times(bpj));
            }
        }
    }
    Ok(())
}

impl Gemm for i32 {
    fn gemm(s: GemmShape, a: &[i32], b: &[i32], c: &mut [i32]) -> HpfResult<()> {
        loop_gemm(s, a, b, c)
    }
    fn bytes(s: &mut [i32]) -> &mut [u8] {
        ptr::bytes_mut(s)
    }
}

impl Gemm for i64 {
    fn gemm(s: GemmShape, a: &[i64], b: &[i64], c: &mut [i64]) -> HpfResult<()> {
        loop_gemm(s, a, b, c)
    }
    fn bytes(s: &mut [i64]) -> &mut [u8] {
        ptr::bytes_mut(s)
    }
}

impl Gemm for f32 {
    fn gemm(s: GemmShape, a: &[f32], b: &[f32], c: &mut [f32]) -> HpfResult<()> {
        blas::gemm(s, a, b, c)
    }
    fn bytes(s: &mut [f32]) -> &mut [u8] {
        ptr::bytes_mut(s)
    }
}

impl Gemm for f64 {
    fn gemm(s: GemmShape, a: &[f64], b: &[f64], c: &mut [f64]) -> HpfResult<()> {
        blas::gemm(s, a, b, c)
    }
    fn bytes(s: &mut [f64]) -> &mut [u8] {
        ptr::bytes_mut(s)
    }
}

macro_rules! loop_gemm_for {
    ($($t:ty),*) => {
        $(
            impl Gemm for $t {
                fn gemm(s: GemmShape, a: &[$t], b: &[$t], c: &mut [$t]) -> HpfResult<()> {
                    loop_gemm(s, a, b, c)
                }
                fn bytes(s: &mut [$t]) -> &mut [u8] {
                    ptr::bytes_mut(s)
                }
            }
        )*
    };
}

// Complex products by the loop (plus and times of the type); LOGICAL's
// plus and times are .OR. and .AND., Fortran's logical MATMUL.
loop_gemm_for!(Complex8, Complex16, Logical);

/// Whether two dimensions are distributed alike (same owners and local
/// indices for every global offset).
fn same_owners(x: &DimMap, y: &DimMap) -> bool {
    x.spec.extent == y.spec.extent
        && x.spec.dist == y.spec.dist
        && (!x.distributed() || x.spec.pdim == y.spec.pdim)
}

/// Whether an inner dimension may be used as it is with C's grid
/// dimension `g` (None: C's dimension is collapsed).
fn inner_fits(d: &DimMap, g: Option<usize>) -> bool {
    if !d.distributed() {
        return true;
    }
    Some(d.spec.pdim) == g && d.min_block() >= MIN_PANEL.min(d.spec.extent)
}

/// The inner-dimension spec of a remapped operand for C's grid dimension
/// `g`.
fn inner_spec(lb: i64, k: usize, g: Option<usize>) -> DimSpec {
    match g {
        Some(pd) => DimSpec::new(lb, k, Dist::BlockCyclic(PANEL), pd),
        None => DimSpec::new(lb, k, Dist::Collapsed, 0),
    }
}

/// An operand in the layout SUMMA needs: borrowed when it already is,
/// else remapped.
enum Operand<'a, T> {
    Borrowed(&'a Dad, &'a [T]),
    Owned(Dad, Vec<T>),
}

impl<T> Operand<'_, T> {
    fn dad(&self) -> &Dad {
        match self {
            Operand::Borrowed(d, _) => d,
            Operand::Owned(d, _) => d,
        }
    }
    fn data(&self) -> &[T] {
        match self {
            Operand::Borrowed(_, b) => b,
            Operand::Owned(_, b) => b,
        }
    }
}

fn prepare<'a, T: Element>(
    dad: &'a Dad,
    buf: &'a [T],
    fits: bool,
    specs: [DimSpec; 2],
) -> HpfResult<Operand<'a, T>> {
    if fits {
        return Ok(Operand::Borrowed(dad, buf));
    }
    let to = Dad::new(dad.grid(), &specs)?;
    let mut out = vec![T::zero(); to.local_len()];
    schedule::remap(dad, &to)?.execute(&to, buf, &mut out)?;
    Ok(Operand::Owned(to, out))
}

/// Makes `panel` a `rows` × `cols` panel of zeros whose inner index
/// starts at global index `kk` of `d` (A's columns or B's rows); unless
/// it is empty (no rows of A or columns of B here), the process holding
/// index `kk` on `d`'s grid line (every process, for a collapsed `d`)
/// fills it by `fill(panel, local index of kk)` and, when `d` is spread
/// over more than one process, broadcasts it along that line. This
/// process is at grid coordinates `my`.
fn load_panel<T: Gemm>(
    grid: &ProcGrid,
    d: &DimMap,
    kk: usize,
    my: &[usize],
    panel: &mut Vec<T>,
    (rows, cols): (usize, usize),
    fill: impl FnOnce(&mut [T], usize),
) -> HpfResult<()> {
    panel.clear();
    panel.resize(rows * cols, T::zero());
    if panel.is_empty() {
        return Ok(());
    }
    let owner = if d.distributed() { d.owner(kk) } else { 0 };
    if !d.distributed() || d.coord(my) == owner {
        fill(panel, d.local(kk));
    }
    if d.distributed() && grid.dims()[d.spec.pdim] > 1 {
        grid.with_line(d.spec.pdim, |g| g.bcast(T::bytes(panel), owner as i32))?
            .map_err(|e| HpfError::core("hpf_matmul", e))?;
    }
    Ok(())
}

/// `C = MATMUL(A, B)` for rank-2 arrays on one grid: A is m×k, B k×n, C
/// m×n; only C's owned cells are written (collective over the grid).
pub fn matmul<T: Gemm>(
    a_dad: &Dad,
    a: &[T],
    b_dad: &Dad,
    b: &[T],
    c_dad: &Dad,
    c: &mut [T],
) -> HpfResult<()> {
    const CALL: &str = "hpf_matmul";
    for (d, what) in [
        (a_dad, "MATRIX_A"),
        (b_dad, "MATRIX_B"),
        (c_dad, "the result"),
    ] {
        if d.rank() != 2 {
            return Err(HpfError::bad_arg(
                CALL,
                format!("{what} has rank {}, MATMUL here needs rank 2", d.rank()),
            ));
        }
        if d.grid().id() != c_dad.grid().id() {
            return Err(HpfError::mismatch(
                CALL,
                "the operands are on different processor grids",
            ));
        }
    }
    check_len(CALL, a_dad, a, "MATRIX_A")?;
    check_len(CALL, b_dad, b, "MATRIX_B")?;
    check_len(CALL, c_dad, c, "the result")?;
    let (sa, sb, sc) = (a_dad.shape(), b_dad.shape(), c_dad.shape());
    if sa[1] != sb[0] || sc[0] != sa[0] || sc[1] != sb[1] {
        return Err(HpfError::mismatch(
            CALL,
            format!("shapes {sa:?} x {sb:?} do not give {sc:?}"),
        ));
    }
    if !c_dad.fixed_at().is_empty() {
        // C sits at fixed grid coordinates: multiply into C's layout held
        // by every line, then copy to C's holders.
        let specs: Vec<DimSpec> = c_dad.dims().iter().map(|d| d.spec.clone()).collect();
        let whole = Dad::new(c_dad.grid(), &specs)?;
        let mut tmp = vec![T::zero(); whole.local_len()];
        matmul(a_dad, a, b_dad, b, &whole, &mut tmp)?;
        return schedule::remap(&whole, c_dad)?.execute(c_dad, &tmp, c);
    }
    let (m, k, n) = (sa[0], sa[1], sb[1]);
    let grid = c_dad.grid().clone();
    let me = grid.rank();
    let my = grid.my_coords().to_vec();
    let (cr, cc) = (&c_dad.dims()[0], &c_dad.dims()[1]);
    let gr = cr.distributed().then_some(cr.spec.pdim);
    let gc = cc.distributed().then_some(cc.spec.pdim);
    let row_spec = |lb: i64| DimSpec::new(lb, m, cr.spec.dist.clone(), cr.spec.pdim);
    let col_spec = |lb: i64| DimSpec::new(lb, n, cc.spec.dist.clone(), cc.spec.pdim);

    let (ad, bd) = (a_dad.dims(), b_dad.dims());
    // Operands at fixed grid coordinates are remapped to every line.
    let a_fits = same_owners(&ad[0], cr) && inner_fits(&ad[1], gc) && a_dad.fixed_at().is_empty();
    let b_fits = same_owners(&bd[1], cc) && inner_fits(&bd[0], gr) && b_dad.fixed_at().is_empty();
    let aop = prepare(
        a_dad,
        a,
        a_fits,
        [row_spec(ad[0].spec.lb), inner_spec(ad[1].spec.lb, k, gc)],
    )?;
    let bop = prepare(
        b_dad,
        b,
        b_fits,
        [inner_spec(bd[0].spec.lb, k, gr), col_spec(bd[1].spec.lb)],
    )?;

    // C's owned cells start at zero.
    let c_strides = c_dad.strides_of(me);
    let mloc = cr.count(cr.coord(&my));
    let nloc = cc.count(cc.coord(&my));
    let c_base = cr.spec.olo * c_strides[0] + cc.spec.olo * c_strides[1];
    let ldc = c_strides[1];
    c_dad.for_each_owned(me, |_, off| c[off] = T::zero());
    if m == 0 || n == 0 || k == 0 {
        return Ok(());
    }

    let (a_dad, b_dad) = (aop.dad(), bop.dad());
    let (a, b) = (aop.data(), bop.data());
    let (ai, bi) = (&a_dad.dims()[1], &b_dad.dims()[0]);
    let (a0, b1) = (&a_dad.dims()[0], &b_dad.dims()[1]);
    let (sa, sb) = (a_dad.strides_of(me), b_dad.strides_of(me));
    let mut apanel: Vec<T> = Vec::new();
    let mut bpanel: Vec<T> = Vec::new();
    let mut kk = 0;
    while kk < k {
        // The panel: up to the next block boundary of either operand.
        let next = |d: &DimMap| d.block_end(kk);
        let end = next(ai).min(next(bi)).min(k);
        let w = end - kk;

        // A's panel: mloc × w, broadcast along the row line from the
        // owner of the panel's columns.
        load_panel(&grid, ai, kk, &my, &mut apanel, (mloc, w), |p, l0| {
            for j in 0..w {
                let col = (ai.spec.olo + l0 + j) * sa[1] + a0.spec.olo * sa[0];
                p[j * mloc..(j + 1) * mloc].copy_from_slice(&a[col..col + mloc]);
            }
        })?;

        // B's panel: w × nloc, broadcast along the column line.
        load_panel(&grid, bi, kk, &my, &mut bpanel, (w, nloc), |p, l0| {
            for j in 0..nloc {
                let at = (b1.spec.olo + j) * sb[1] + (bi.spec.olo + l0) * sb[0];
                p[j * w..(j + 1) * w].copy_from_slice(&b[at..at + w]);
            }
        })?;

        if mloc > 0 && nloc > 0 {
            let shape = GemmShape {
                m: mloc,
                n: nloc,
                k: w,
                lda: mloc,
                ldb: w,
                ldc,
            };
            T::gemm(shape, &apanel, &bpanel, &mut c[c_base..])?;
        }
        kk = end;
    }
    Ok(())
}
