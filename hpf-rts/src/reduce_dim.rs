//! The reductions with DIM and MASK: SUM, PRODUCT, MAXVAL, MINVAL, MAXLOC
//! and MINLOC of the elements where MASK is true, over the whole array or
//! along one dimension; COUNT, ALL and ANY along one dimension.
//!
//! MASK is a LOGICAL array stored as `i32` (non-zero true) with the same
//! DAD as ARRAY (aligned); an element whose mask is false counts as the
//! operation's identity (so an all-false line gives 0, 1, `-HUGE`, `HUGE`).
//!
//! Along DIM: the natural result DAD is ARRAY's with dimension DIM taken
//! out (no overlap, the same fixed grid coordinates); the grid dimension
//! DIM was spread over then holds replicas of the result. Each process folds its owned elements of each
//! result cell in increasing local index along DIM, from the identity;
//! then the processes of each line along DIM's grid dimension gather
//! their partial results (one `MPI_Allgatherv` on the line's
//! communicator) and fold them in coordinate order, from the identity. A
//! result DAD other than the natural one gets the result by a remap
//! (cached schedule). Whole-array reductions with MASK follow the order of
//! [`crate::reduce`].

use crate::dad::{Dad, DimSpec};
use crate::element::Element;
use crate::error::{HpfError, HpfResult};
use crate::reduce::{check_len, gather, local_fold, max_of, min_of};
use crate::schedule;

/// The numeric reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumOp {
    /// SUM.
    Sum,
    /// PRODUCT.
    Product,
    /// MAXVAL.
    Maxval,
    /// MINVAL.
    Minval,
}

impl NumOp {
    /// The C API's code (`HPF_OP_SUM` 1 .. `HPF_OP_MINVAL` 4).
    pub fn from_code(c: i32) -> Option<NumOp> {
        match c {
            1 => Some(NumOp::Sum),
            2 => Some(NumOp::Product),
            3 => Some(NumOp::Maxval),
            4 => Some(NumOp::Minval),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            NumOp::Sum => "hpf_sum",
            NumOp::Product => "hpf_product",
            NumOp::Maxval => "hpf_maxval",
            NumOp::Minval => "hpf_minval",
        }
    }

    /// Refuses a type the operation does not take (SUM and PRODUCT of
    /// LOGICAL, MAXVAL and MINVAL of COMPLEX or LOGICAL).
    fn supports<T: Element>(self) -> HpfResult<()> {
        match self {
            NumOp::Sum | NumOp::Product => crate::element::require_numeric::<T>(self.name()),
            NumOp::Maxval | NumOp::Minval => crate::element::require_ordered::<T>(self.name()),
        }
    }

    fn identity<T: Element>(self) -> T {
        match self {
            NumOp::Sum => T::zero(),
            NumOp::Product => T::one(),
            NumOp::Maxval => T::neg_huge(),
            NumOp::Minval => T::huge(),
        }
    }

    fn apply<T: Element>(self, a: T, b: T) -> T {
        match self {
            NumOp::Sum => a.plus(b),
            NumOp::Product => a.times(b),
            NumOp::Maxval => max_of(a, b),
            NumOp::Minval => min_of(a, b),
        }
    }
}

/// The logical reductions along a dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicalOp {
    /// COUNT: the number of true elements.
    Count,
    /// ALL: 1 if every element is true (also for none), else 0.
    All,
    /// ANY: 1 if some element is true, else 0.
    Any,
}

impl LogicalOp {
    /// The C API's code (`HPF_OP_COUNT` 5, `HPF_OP_ALL` 6, `HPF_OP_ANY` 7).
    pub fn from_code(c: i32) -> Option<LogicalOp> {
        match c {
            5 => Some(LogicalOp::Count),
            6 => Some(LogicalOp::All),
            7 => Some(LogicalOp::Any),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            LogicalOp::Count => "hpf_count",
            LogicalOp::All => "hpf_all",
            LogicalOp::Any => "hpf_any",
        }
    }
}

fn check_mask(call: &str, dad: &Dad, mask: Option<&[i32]>) -> HpfResult<()> {
    match mask {
        Some(m) => check_len(call, dad, m, "MASK"),
        None => Ok(()),
    }
}

fn masked(mask: Option<&[i32]>, off: usize) -> bool {
    mask.is_none_or(|m| m[off] != 0)
}

/// `op(ARRAY, MASK=mask)` over the whole array (mask `None`: all true).
pub fn reduce_masked<T: Element>(
    op: NumOp,
    dad: &Dad,
    buf: &[T],
    mask: Option<&[i32]>,
) -> HpfResult<T> {
    let call = op.name();
    op.supports::<T>()?;
    check_len(call, dad, buf, "ARRAY")?;
    check_mask(call, dad, mask)?;
    let id = op.identity::<T>();
    let part = local_fold(dad, id, |a, _, off| {
        if masked(mask, off) {
            op.apply(a, buf[off])
        } else {
            a
        }
    });
    let mut b = Vec::new();
    part.put(&mut b);
    Ok(gather(call, dad, &b)?
        .iter()
        .fold(id, |a, p| op.apply(a, T::get(p))))
}

/// The natural DAD of a reduction of an array with DAD `dad` along `dim`
/// (0-based): the other dimensions, distributed as in `dad`, no overlap,
/// at `dad`'s fixed grid coordinates.
pub fn reduced_dad(dad: &Dad, dim: usize) -> HpfResult<Dad> {
    let specs: Vec<DimSpec> = dad
        .dims()
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != dim)
        .map(|(_, d)| DimSpec::new(d.spec.lb, d.spec.extent, d.spec.dist.clone(), d.spec.pdim))
        .collect();
    if specs.is_empty() {
        // Reducing a rank-1 array along its only dimension gives a scalar:
        // callers use the whole-array reductions.
        return Err(HpfError::bad_arg(
            "reduction with DIM",
            "a rank-1 array reduces to a scalar (use the call without DIM)",
        ));
    }
    Dad::new_at(dad.grid(), &specs, &dad.fixed_at())
}

/// A partial result of a DIM reduction: what travels between the
/// processes of a line.
trait Acc: Copy {
    /// Bytes of one value.
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

impl<T: Element> Acc for T {
    const SIZE: usize = std::mem::size_of::<T>();
    fn put(self, out: &mut Vec<u8>) {
        Element::put(self, out)
    }
    fn get(b: &[u8]) -> Self {
        Element::get(b)
    }
}

/// The best value of a line so far and its 0-based position along DIM
/// (`u64::MAX`: none yet).
#[derive(Clone, Copy, Debug)]
struct Loc<T> {
    v: T,
    pos: u64,
}

impl<T: Element> Acc for Loc<T> {
    const SIZE: usize = std::mem::size_of::<T>() + 8;
    fn put(self, out: &mut Vec<u8>) {
        self.v.put(out);
        out.extend_from_slice(&self.pos.to_ne_bytes());
    }
    fn get(b: &[u8]) -> Self {
        let n = std::mem::size_of::<T>();
        let mut p = [0u8; 8];
        p.copy_from_slice(&b[n..n + 8]);
        Loc {
            v: T::get(b),
            pos: u64::from_ne_bytes(p),
        }
    }
}

/// Checks DIM and the result DAD of a reduction along `dim`; returns the
/// natural result DAD.
fn check_dim<R>(call: &str, dad: &Dad, dim: usize, res_dad: &Dad, res: &[R]) -> HpfResult<Dad> {
    if dim >= dad.rank() {
        return Err(HpfError::bad_arg(
            call,
            format!("DIM {} of a rank-{} array", dim + 1, dad.rank()),
        ));
    }
    check_len(call, res_dad, res, "the result")?;
    let nat = reduced_dad(dad, dim)?;
    if res_dad.grid().id() != dad.grid().id() || res_dad.shape() != nat.shape() {
        return Err(HpfError::mismatch(
            call,
            format!(
                "the result has shape {:?}, the reduction along DIM {} gives {:?}",
                res_dad.shape(),
                dim + 1,
                nat.shape()
            ),
        ));
    }
    Ok(nat)
}

/// Writes the natural-DAD result `full` into `res` (DAD `res_dad`),
/// remapping when the DADs differ.
fn store<R: Element>(nat: &Dad, full: &[R], res_dad: &Dad, res: &mut [R]) -> HpfResult<()> {
    if res_dad == nat {
        res.copy_from_slice(full);
        Ok(())
    } else {
        schedule::remap(nat, res_dad)?.execute(res_dad, full, res)
    }
}

/// The DIM fold over the natural result DAD `nat`: `step(acc, off, i)`
/// adds the element at local offset `off` of ARRAY, whose 0-based global
/// index along DIM is `i`, to a partial result; partial results of the
/// line are combined with `combine` in coordinate order.
fn fold_dim<A: Acc>(
    call: &str,
    dad: &Dad,
    dim: usize,
    nat: &Dad,
    identity: A,
    step: impl Fn(A, usize, usize) -> A,
    combine: impl Fn(A, A) -> A,
) -> HpfResult<Vec<A>> {
    let grid = dad.grid();
    let me = grid.rank();
    // Partial results over this process's owned cells of the result.
    let mut part = vec![identity; nat.local_len()];
    let nstrides = nat.strides_of(me);
    let astrides = dad.strides_of(me);
    let counts = dad.counts_of(me);
    let dd = &dad.dims()[dim];
    let dc = dd.coord(grid.my_coords());
    if !counts.contains(&0) {
        let rank = dad.rank();
        let mut l = vec![0usize; rank];
        loop {
            let mut aoff = 0;
            let mut roff = 0;
            let mut j = 0;
            for k in 0..rank {
                let d = &dad.dims()[k];
                aoff += (d.spec.olo + l[k]) * astrides[k];
                if k != dim {
                    roff += l[k] * nstrides[j];
                    j += 1;
                }
            }
            part[roff] = step(part[roff], aoff, dd.global(dc, l[dim]));
            let mut k = 0;
            loop {
                if k == rank {
                    break;
                }
                // Walk DIM fastest, so each result cell is folded in
                // increasing index along DIM.
                let kk = if k == 0 {
                    dim
                } else if k <= dim {
                    k - 1
                } else {
                    k
                };
                l[kk] += 1;
                if l[kk] < counts[kk] {
                    break;
                }
                l[kk] = 0;
                k += 1;
            }
            if k == rank {
                break;
            }
        }
    }
    // Combine along the line of DIM's grid dimension.
    let d = &dad.dims()[dim];
    let line = d.distributed() && grid.dims()[d.spec.pdim] > 1;
    let full = if line {
        let mut bytes = Vec::with_capacity(part.len() * A::SIZE);
        for &x in &part {
            x.put(&mut bytes);
        }
        let (all, lens) = grid
            .with_line(d.spec.pdim, |g| g.allgatherv(&bytes))?
            .map_err(|e| HpfError::core(call, e))?;
        let size = A::SIZE;
        let mut out = vec![identity; part.len()];
        let mut at = 0;
        for len in lens {
            if len != part.len() * size {
                return Err(HpfError::new(
                    crate::error::HPF_ESYSTEM,
                    format!("{call}: processes of a line disagree on the partial results"),
                ));
            }
            for (i, o) in out.iter_mut().enumerate() {
                *o = combine(*o, A::get(&all[at + i * size..]));
            }
            at += len;
        }
        out
    } else {
        part.iter().map(|&x| combine(identity, x)).collect()
    };
    Ok(full)
}

/// `res = op(ARRAY, DIM=dim, MASK=mask)` (dim 0-based; mask `None`: all
/// true) into a result with DAD `res_dad` (the array's shape without DIM,
/// same grid, any distribution).
pub fn reduce_dim<T: Element>(
    op: NumOp,
    dad: &Dad,
    buf: &[T],
    mask: Option<&[i32]>,
    dim: usize,
    res_dad: &Dad,
    res: &mut [T],
) -> HpfResult<()> {
    let call = op.name();
    op.supports::<T>()?;
    check_len(call, dad, buf, "ARRAY")?;
    check_mask(call, dad, mask)?;
    let nat = check_dim(call, dad, dim, res_dad, res)?;
    let full = fold_dim(
        call,
        dad,
        dim,
        &nat,
        op.identity::<T>(),
        |a, off, _| {
            if masked(mask, off) {
                op.apply(a, buf[off])
            } else {
                a
            }
        },
        |a, b| op.apply(a, b),
    )?;
    store(&nat, &full, res_dad, res)
}

/// `res = op(MASK, DIM=dim)` for COUNT, ALL and ANY of a LOGICAL array
/// stored as `i32` (non-zero true); the result is `i32` (counts, or 1/0).
pub fn logical_dim(
    op: LogicalOp,
    dad: &Dad,
    mask: &[i32],
    dim: usize,
    res_dad: &Dad,
    res: &mut [i32],
) -> HpfResult<()> {
    let call = op.name();
    check_len(call, dad, mask, "MASK")?;
    let nat = check_dim(call, dad, dim, res_dad, res)?;
    let t = |off: usize| i32::from(mask[off] != 0);
    let full = match op {
        LogicalOp::Count => fold_dim(
            call,
            dad,
            dim,
            &nat,
            0i32,
            |a, off, _| a.wrapping_add(t(off)),
            |a, b| a.wrapping_add(b),
        ),
        LogicalOp::All => fold_dim(
            call,
            dad,
            dim,
            &nat,
            1i32,
            |a, off, _| a & t(off),
            |a, b| a & b,
        ),
        LogicalOp::Any => fold_dim(
            call,
            dad,
            dim,
            &nat,
            0i32,
            |a, off, _| a | t(off),
            |a, b| a | b,
        ),
    }?;
    store(&nat, &full, res_dad, res)
}

/// `res = MAXLOC(ARRAY, DIM=dim, MASK=mask)` (`max`) or MINLOC (dim
/// 0-based): per result cell the 1-based position along DIM of the first
/// extreme among the elements where MASK is true, 0 if there is none; an
/// `i64` result.
#[allow(clippy::too_many_arguments)]
pub fn locate_dim<T: Element>(
    max: bool,
    dad: &Dad,
    buf: &[T],
    mask: Option<&[i32]>,
    dim: usize,
    res_dad: &Dad,
    res: &mut [i64],
) -> HpfResult<()> {
    let call = if max { "hpf_maxloc" } else { "hpf_minloc" };
    crate::element::require_ordered::<T>(call)?;
    check_len(call, dad, buf, "ARRAY")?;
    check_mask(call, dad, mask)?;
    let nat = check_dim(call, dad, dim, res_dad, res)?;
    let better = |x: Loc<T>, best: Loc<T>| -> bool {
        if x.pos == u64::MAX {
            return false;
        }
        if best.pos == u64::MAX {
            return true;
        }
        let strict = if max { x.v > best.v } else { x.v < best.v };
        strict || (x.v == best.v && x.pos < best.pos)
    };
    let none = Loc {
        v: T::zero(),
        pos: u64::MAX,
    };
    let full = fold_dim(
        call,
        dad,
        dim,
        &nat,
        none,
        |a, off, i| {
            let x = Loc {
                v: buf[off],
                pos: i as u64,
            };
            if masked(mask, off) && better(x, a) {
                x
            } else {
                a
            }
        },
        |a, b| if better(b, a) { b } else { a },
    )?;
    let pos: Vec<i64> = full
        .iter()
        .map(|l| {
            if l.pos == u64::MAX {
                0
            } else {
                l.pos as i64 + 1
            }
        })
        .collect();
    store(&nat, &pos, res_dad, res)
}

/// `MAXLOC(ARRAY, MASK=mask)` (`max`) or MINLOC over the whole array:
/// 1-based positions of the first extreme in array element order among
/// the elements where MASK is true; zeros if there is none.
pub fn locate_masked<T: Element>(
    max: bool,
    dad: &Dad,
    buf: &[T],
    mask: Option<&[i32]>,
) -> HpfResult<Vec<i64>> {
    let call = if max { "hpf_maxloc" } else { "hpf_minloc" };
    check_mask(call, dad, mask)?;
    crate::reduce::locate_where(call, dad, buf, max, |off| masked(mask, off))
}
