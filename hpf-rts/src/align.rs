//! Alignment of an array dimension to a template dimension, HPF's
//! `ALIGN A(i) WITH T(stride*i + offset)`: element `A(i)` lives on the
//! process that owns template cell `T(stride*i + offset)`, so arrays
//! aligned to one template keep their corresponding elements together.
//!
//! The run-time needs only ownership, so an aligned dimension is turned
//! into a distribution of the array's own index space when the DAD is
//! made, the simplest that fits: a collapsed template gives a collapsed
//! dimension; when the owners never go back to a lower coordinate along
//! the array (a BLOCK or GEN_BLOCK template with a positive stride, any
//! template with stride 0, one process) it is GEN_BLOCK with the run
//! lengths; stride 1 onto a CYCLIC(k) template from the first cell of a
//! process-0 block is CYCLIC(k) itself; anything else (CYCLIC(k) templates
//! with other strides or offsets, negative strides) is an owner pattern
//! ([`OwnerPattern`]) whose period is `k*P / gcd(|stride|, k*P)` for a
//! CYCLIC(k) template and the extent for a BLOCK one. The alignment
//! itself stays in the spec (`DimSpec::align`) for inquiry.
//!
//! A template dimension no array dimension is aligned with either
//! replicates the array along its grid dimension (HPF's `*`) or, fixed at
//! a position (`ALIGN A(i) WITH T(i, 3)`: align with the template section
//! `T(:, 3)` of [`template_at`]), puts it on the processes whose
//! coordinate there owns that position only: the DAD keeps that
//! coordinate ([`Dad::fixed`]) and the other processes hold nothing.

use crate::dad::{Dad, DimSpec, Dist};
use crate::error::{HpfError, HpfResult};
use crate::grid::ProcGrid;
use crate::pattern::OwnerPattern;
use std::sync::Arc;

/// `ALIGN A(i) WITH T(stride*i + offset)` for one dimension, with the
/// template dimension's bounds and distribution.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Align {
    /// Template lower bound.
    pub template_lb: i64,
    /// Template extent.
    pub template_extent: usize,
    /// Template distribution (any).
    pub template_dist: Dist,
    /// Stride of the alignment: negative strides run the array down the
    /// template, 0 puts the whole dimension on one template cell.
    pub stride: i64,
    /// Offset of the alignment.
    pub offset: i64,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl DimSpec {
    /// A dimension `lb : lb+extent-1` aligned as `align` says to a
    /// template dimension spread over grid dimension `pdim` of `grid`.
    /// Every element's template cell must lie inside the template.
    /// Returns `HPF_EBADARG` for a template cell out of bounds, a bad
    /// template (GEN_BLOCK sizes, CYCLIC(0)) or a bad grid dimension.
    pub fn aligned(
        grid: &Arc<ProcGrid>,
        lb: i64,
        extent: usize,
        pdim: usize,
        align: Align,
    ) -> HpfResult<DimSpec> {
        const CALL: &str = "hpf_dad_align";
        let bad = |what: String| HpfError::bad_arg(CALL, what);
        let t = Dad::new(
            grid,
            &[DimSpec::new(
                align.template_lb,
                align.template_extent,
                align.template_dist.clone(),
                pdim,
            )],
        )
        .map_err(|e| bad(format!("template: {}", e.message)))?;
        let tm = &t.dims()[0];
        let nt = align.template_extent as i128;
        let s = align.stride as i128;
        // 0-based template cells of the first and the last element.
        let first = s * lb as i128 + align.offset as i128 - align.template_lb as i128;
        let last = first + s * (extent as i128 - 1);
        if extent > 0 && (first.min(last) < 0 || first.max(last) >= nt) {
            return Err(bad(format!(
                "T({}*i + {}) for i in {lb}:{} leaves the template {}:{}",
                align.stride,
                align.offset,
                lb + extent as i64 - 1,
                align.template_lb,
                align.template_lb + nt as i64 - 1
            )));
        }
        let p = tm.nprocs;
        let dist = if !tm.distributed() {
            Dist::Collapsed
        } else if extent == 0 {
            Dist::gen_block(&vec![0; p])
        } else {
            // The template's own period, if it repeats inside its extent.
            let tperiod = match &align.template_dist {
                Dist::Cyclic | Dist::BlockCyclic(_) => Some(tm.block * p),
                Dist::Pattern(pat) => Some(pat.period()),
                _ => None,
            }
            .filter(|&l| (l as i128) < nt);
            let su = align.stride.unsigned_abs() as usize;
            let period = match tperiod {
                _ if su == 0 => 1,
                Some(l) => l / gcd(su, l),
                None => extent,
            }
            .min(extent);
            let owner: Vec<usize> = (0..period as i128)
                .map(|r| tm.owner((first + s * r) as usize))
                .collect();
            let rising = if period < extent {
                owner.iter().all(|&c| c == owner[0])
            } else {
                owner.windows(2).all(|w| w[0] <= w[1])
            };
            let k = tm.block;
            if rising {
                let mut sizes = vec![0; p];
                let (full, rest) = (extent / period, extent % period);
                for (r, &c) in owner.iter().enumerate() {
                    sizes[c] += full + usize::from(r < rest);
                }
                Dist::gen_block(&sizes)
            } else if matches!(align.template_dist, Dist::Cyclic | Dist::BlockCyclic(_))
                && s == 1
                && first % (k * p) as i128 == 0
            {
                align.template_dist.clone()
            } else {
                let pat = OwnerPattern::new(extent, p, owner)
                    .ok_or_else(|| bad("no owner pattern for the alignment".into()))?;
                Dist::Pattern(Arc::new(pat))
            }
        };
        let mut spec = DimSpec::new(lb, extent, dist, pdim);
        spec.align = Some(align);
        Ok(spec)
    }
}

/// One dimension of an array aligned to a template DAD: its bounds, the
/// template dimension (0-based) it is aligned with and how (None: not
/// aligned, so the dimension is collapsed), and its overlap widths.
#[derive(Clone, Debug)]
pub struct AlignedDim {
    /// Lower bound.
    pub lb: i64,
    /// Extent.
    pub extent: usize,
    /// `Some((tdim, stride, offset))`: `A(i)` WITH `T(.., stride*i +
    /// offset, ..)` at template dimension `tdim`.
    pub with: Option<(usize, i64, i64)>,
    /// Overlap below.
    pub olo: usize,
    /// Overlap above.
    pub ohi: usize,
}

/// The template dimension `k` (0-based) of `t`, or `HPF_EBADARG` from
/// `bad` naming it.
fn template_dim(
    t: &Dad,
    k: usize,
    bad: impl Fn(String) -> HpfError,
) -> HpfResult<&crate::dad::DimMap> {
    t.dims().get(k).ok_or_else(|| {
        bad(format!(
            "the template has no dimension {} (rank {})",
            k + 1,
            t.rank()
        ))
    })
}

/// The DAD of an array aligned to the template `t` (a DAD whose
/// dimensions are the template's): each dimension as its [`AlignedDim`]
/// says, on `t`'s grid. Template dimensions no array dimension is aligned
/// with replicate the array along their grid dimensions; the array keeps
/// `t`'s fixed grid coordinates (a template section of [`template_at`]).
/// Returns `HPF_EBADARG` for a template dimension out of range or used
/// twice, and the errors of [`DimSpec::aligned`] and [`Dad::new`].
pub fn aligned_dad(t: &Dad, dims: &[AlignedDim]) -> HpfResult<Dad> {
    const CALL: &str = "hpf_dad_align";
    let mut used = vec![false; t.rank()];
    let mut specs = Vec::with_capacity(dims.len());
    for (d, a) in dims.iter().enumerate() {
        let spec = match a.with {
            None => DimSpec::new(a.lb, a.extent, Dist::Collapsed, 0),
            Some((k, stride, offset)) => {
                let bad =
                    |what: String| HpfError::bad_arg(CALL, format!("dimension {}: {what}", d + 1));
                let tm = template_dim(t, k, bad)?;
                if std::mem::replace(&mut used[k], true) {
                    return Err(bad(format!("template dimension {} is already used", k + 1)));
                }
                let align = Align {
                    template_lb: tm.spec.lb,
                    template_extent: tm.spec.extent,
                    template_dist: tm.spec.dist.clone(),
                    stride,
                    offset,
                };
                DimSpec::aligned(t.grid(), a.lb, a.extent, tm.spec.pdim, align)?
            }
        };
        specs.push(spec.with_overlap(a.olo, a.ohi));
    }
    Dad::new_at(t.grid(), &specs, &t.fixed_at())
}

/// The section of template `t` at a fixed position on some of its
/// dimensions: for each `(tdim, position)` of `at` (tdim 0-based, position
/// a template subscript) the dimension is dropped and the section is held
/// only by the processes whose coordinate on its grid dimension owns
/// `position` (a collapsed dimension: by every process); the other
/// dimensions keep their order, bounds and distribution. An array aligned
/// to the section ([`aligned_dad`]) is HPF's `ALIGN A(i) WITH T(i, 3)`:
/// it lives on those processes only. Returns `HPF_EBADARG` for a template
/// dimension out of range or named twice, a position outside the
/// template, or no dimension left.
pub fn template_at(t: &Dad, at: &[(usize, i64)]) -> HpfResult<Dad> {
    const CALL: &str = "hpf_dad_template_at";
    let mut fixed = t.fixed_at();
    let mut dropped = vec![false; t.rank()];
    for &(k, pos) in at {
        let bad = |what: String| HpfError::bad_arg(CALL, format!("position {pos}: {what}"));
        let tm = template_dim(t, k, bad)?;
        if std::mem::replace(&mut dropped[k], true) {
            return Err(bad(format!("template dimension {} is named twice", k + 1)));
        }
        let i = pos - tm.spec.lb;
        if i < 0 || i as usize >= tm.spec.extent {
            return Err(bad(format!(
                "outside template dimension {} ({}:{})",
                k + 1,
                tm.spec.lb,
                tm.spec.lb + tm.spec.extent as i64 - 1
            )));
        }
        if tm.distributed() {
            fixed.push((tm.spec.pdim, tm.owner(i as usize)));
        }
    }
    let specs: Vec<DimSpec> = t
        .dims()
        .iter()
        .zip(&dropped)
        .filter(|&(_, &gone)| !gone)
        .map(|(m, _)| m.spec.clone())
        .collect();
    if specs.is_empty() {
        return Err(HpfError::bad_arg(
            CALL,
            "every template dimension is fixed (align with stride 0 instead)",
        ));
    }
    Dad::new_at(t.grid(), &specs, &fixed)
}
