//! Alignment of an array dimension to a template dimension, HPF's
//! `ALIGN A(i) WITH T(stride*i + offset)`: element `A(i)` lives on the
//! process that owns template cell `T(stride*i + offset)`, so arrays
//! aligned to one template keep their corresponding elements together.
//!
//! The run-time needs only ownership, so an aligned dimension is turned
//! into an ordinary distribution of the array's own index space when the
//! DAD is made: for a BLOCK or GEN_BLOCK template with a positive stride,
//! each process's template cells hold one consecutive run of `A`'s
//! elements (runs in coordinate order), which is exactly GEN_BLOCK with
//! those run lengths; a collapsed template gives a collapsed dimension.
//! The alignment itself stays in the spec (`DimSpec::align`) for
//! inquiry. CYCLIC templates (where the aligned elements of a process no
//! longer form a block-cyclic pattern of `A`) and strides below 1 are
//! refused.

use crate::dad::{Dad, DimSpec, Dist};
use crate::error::{HpfError, HpfResult};
use crate::grid::ProcGrid;

/// `ALIGN A(i) WITH T(stride*i + offset)` for one dimension, with the
/// template dimension's bounds and distribution.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Align {
    /// Template lower bound.
    pub template_lb: i64,
    /// Template extent.
    pub template_extent: usize,
    /// Template distribution: BLOCK, GEN_BLOCK or collapsed.
    pub template_dist: Dist,
    /// Stride of the alignment (>= 1).
    pub stride: i64,
    /// Offset of the alignment.
    pub offset: i64,
}

impl DimSpec {
    /// A dimension `lb : lb+extent-1` aligned as `align` says to a
    /// template dimension spread over grid dimension `pdim` of `grid`.
    /// Every element's template cell must lie inside the template.
    /// Returns `HPF_EBADARG` for a stride below 1, a CYCLIC template, a
    /// template cell out of bounds or a bad grid dimension.
    pub fn aligned(
        grid: &ProcGrid,
        lb: i64,
        extent: usize,
        pdim: usize,
        align: Align,
    ) -> HpfResult<DimSpec> {
        const CALL: &str = "hpf_dad_align";
        let bad = |what: String| HpfError::bad_arg(CALL, what);
        if align.stride < 1 {
            return Err(bad(format!(
                "alignment stride {} is not positive",
                align.stride
            )));
        }
        let nt = align.template_extent as i128;
        // 0-based template cell of 0-based element i0.
        let first =
            align.stride as i128 * lb as i128 + align.offset as i128 - align.template_lb as i128;
        let last = first + align.stride as i128 * (extent as i128 - 1);
        if extent > 0 && (first < 0 || last >= nt) {
            return Err(bad(format!(
                "T({}*i + {}) for i in {lb}:{} leaves the template {}:{}",
                align.stride,
                align.offset,
                lb + extent as i64 - 1,
                align.template_lb,
                align.template_lb + nt as i64 - 1
            )));
        }
        // Elements whose template cell lies below template offset x.
        let below = |x: i128| -> usize {
            if extent == 0 || x <= first {
                0
            } else {
                let s = align.stride as i128;
                ((x - first + s - 1) / s).min(extent as i128) as usize
            }
        };
        let starts: Vec<usize> = match &align.template_dist {
            Dist::Collapsed => {
                let mut spec = DimSpec::new(lb, extent, Dist::Collapsed, 0);
                spec.align = Some(align);
                return Ok(spec);
            }
            Dist::Block => {
                let p = *grid
                    .dims()
                    .get(pdim)
                    .ok_or_else(|| bad(format!("the grid has no dimension {pdim}")))?;
                let b = align.template_extent.div_ceil(p).max(1);
                (0..=p).map(|c| (c * b).min(align.template_extent)).collect()
            }
            Dist::GenBlock(sizes) => {
                if sizes.iter().try_fold(0usize, |a, &x| a.checked_add(x))
                    != Some(align.template_extent)
                {
                    return Err(bad(format!(
                        "template GEN_BLOCK sizes {sizes:?} do not add up to its extent {}",
                        align.template_extent
                    )));
                }
                let mut acc = 0usize;
                let mut v = vec![0];
                for &x in sizes.iter() {
                    acc = acc.saturating_add(x);
                    v.push(acc);
                }
                v
            }
            other => {
                return Err(bad(format!(
                    "alignment to a {other:?} template is not implemented (BLOCK, GEN_BLOCK or collapsed)"
                )))
            }
        };
        let sizes: Vec<usize> = starts
            .windows(2)
            .map(|w| below(w[1] as i128) - below(w[0] as i128))
            .collect();
        let mut spec = DimSpec::new(lb, extent, Dist::gen_block(&sizes), pdim);
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

/// The DAD of an array aligned to the template `t` (a DAD whose
/// dimensions are the template's): each dimension as its [`AlignedDim`]
/// says, on `t`'s grid. Template dimensions no array dimension is aligned
/// with replicate the array along their grid dimensions. Returns
/// `HPF_EBADARG` for a template dimension out of range or used twice, and
/// the errors of [`DimSpec::aligned`] and [`Dad::new`].
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
                let tm = t.dims().get(k).ok_or_else(|| {
                    bad(format!(
                        "the template has no dimension {} (rank {})",
                        k + 1,
                        t.rank()
                    ))
                })?;
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
    Dad::new(t.grid(), &specs)
}
