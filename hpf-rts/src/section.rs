//! Array sections as views of distributed arrays: one subscript per
//! dimension, either a triplet `lo:hi:stride` or a scalar; the arithmetic
//! of which section elements a process owns; and the section copy
//! `dst(dsec) = src(ssec)` between any two DADs on one grid, planned once
//! per pair of DADs and sections like every other schedule.
//!
//! Fortran's rules, which this module keeps:
//! * A triplet selects `lo, lo+stride, lo+2*stride, ...` as long as the
//!   subscript does not pass `hi`; it has `max(0, (hi - lo + stride) /
//!   stride)` elements. The stride is any non-zero integer, negative ones
//!   walk downwards.
//! * An empty triplet's bounds are not checked; a non-empty one's first and
//!   last subscripts must lie inside the dimension.
//! * A scalar subscript selects one index and drops the dimension from the
//!   section's shape (`A(3, 1:n)` is rank 1).
//! * Two sections conform when their shapes (the triplet extents, in
//!   dimension order) are equal; section element `t` of one is section
//!   element `t` of the other.
//!
//! Planning visits, per pair of processes and per triplet, the triplet's
//! elements once: O(P * sum of section extents) per process.

use crate::dad::{Dad, DimMap};
use crate::error::{HpfError, HpfResult};
use crate::schedule::{self, DimPairs, PlanKey, Schedule};
use std::sync::Arc;

/// One subscript of a section, in global (Fortran) subscripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subscript {
    /// `lo:hi:stride`.
    Triplet {
        /// First subscript.
        lo: i64,
        /// Bound the subscripts do not pass.
        hi: i64,
        /// Step, non-zero.
        stride: i64,
    },
    /// One index; the dimension leaves the section's shape.
    Scalar(i64),
}

impl Subscript {
    /// `lo:hi:stride`.
    pub fn triplet(lo: i64, hi: i64, stride: i64) -> Subscript {
        Subscript::Triplet { lo, hi, stride }
    }
}

/// A subscript resolved against its dimension: the 0-based offset of the
/// first element, the step between elements, how many there are, and
/// whether the dimension is part of the section's shape (a triplet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Axis {
    /// Offset (subscript minus lower bound) of element 0.
    pub first: usize,
    /// Offset step from one element to the next.
    pub step: i64,
    /// Number of elements.
    pub count: usize,
    /// A triplet (true) or a scalar subscript (false).
    pub kept: bool,
}

impl Axis {
    /// Offset of section element `t` along this axis.
    pub fn offset(&self, t: usize) -> usize {
        (self.first as i64 + t as i64 * self.step) as usize
    }

    /// The elements of this axis coordinate `c` owns along dimension `d`:
    /// `(t, local index)` in increasing `t`.
    pub fn owned(&self, d: &DimMap, c: usize) -> Vec<(usize, usize)> {
        (0..self.count)
            .filter_map(|t| d.owns(c, self.offset(t)).map(|l| (t, l)))
            .collect()
    }
}

/// Number of subscripts `lo:hi:stride` selects (Fortran's rule).
pub fn triplet_count(lo: i64, hi: i64, stride: i64) -> usize {
    if stride == 0 {
        return 0;
    }
    let n = (hi as i128 - lo as i128 + stride as i128) / stride as i128;
    usize::try_from(n.max(0)).unwrap_or(usize::MAX)
}

/// An array section: one subscript per dimension of the array it views.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Section(pub Vec<Subscript>);

impl Section {
    /// The section of every element of an array with DAD `dad`.
    pub fn whole(dad: &Dad) -> Section {
        Section(
            dad.dims()
                .iter()
                .map(|d| {
                    let lb = d.spec.lb;
                    Subscript::triplet(lb, lb + d.spec.extent as i64 - 1, 1)
                })
                .collect(),
        )
    }

    /// The section's shape: the triplets' element counts in order.
    pub fn shape(&self) -> Vec<usize> {
        self.0
            .iter()
            .filter_map(|s| match *s {
                Subscript::Triplet { lo, hi, stride } => Some(triplet_count(lo, hi, stride)),
                Subscript::Scalar(_) => None,
            })
            .collect()
    }

    /// The subscripts resolved against `dad`, checked: one per dimension,
    /// non-zero strides, subscripts inside the bounds.
    pub fn axes(&self, call: &str, dad: &Dad) -> HpfResult<Vec<Axis>> {
        if self.0.len() != dad.rank() {
            return Err(HpfError::bad_arg(
                call,
                format!(
                    "a section of a rank-{} array needs {} subscripts, not {}",
                    dad.rank(),
                    dad.rank(),
                    self.0.len()
                ),
            ));
        }
        let mut out = Vec::with_capacity(self.0.len());
        for (k, (s, d)) in self.0.iter().zip(dad.dims()).enumerate() {
            let (lb, n) = (d.spec.lb, d.spec.extent as i64);
            let inside = |x: i64| x >= lb && x - lb < n;
            let outside = |x: i64| {
                HpfError::bad_arg(
                    call,
                    format!(
                        "dimension {}: subscript {x} is outside {lb}:{}",
                        k + 1,
                        lb + n - 1
                    ),
                )
            };
            let axis = match *s {
                Subscript::Scalar(x) => {
                    if !inside(x) {
                        return Err(outside(x));
                    }
                    Axis {
                        first: (x - lb) as usize,
                        step: 0,
                        count: 1,
                        kept: false,
                    }
                }
                Subscript::Triplet { lo, hi, stride } => {
                    if stride == 0 {
                        return Err(HpfError::bad_arg(
                            call,
                            format!("dimension {}: a triplet's stride is not 0", k + 1),
                        ));
                    }
                    let count = triplet_count(lo, hi, stride);
                    if count > 0 {
                        let last = lo as i128 + (count as i128 - 1) * stride as i128;
                        if !inside(lo) {
                            return Err(outside(lo));
                        }
                        if last < lb as i128 || last - lb as i128 >= n as i128 {
                            return Err(outside(last as i64));
                        }
                    }
                    Axis {
                        first: if count > 0 { (lo - lb) as usize } else { 0 },
                        step: stride,
                        count,
                        kept: true,
                    }
                }
            };
            out.push(axis);
        }
        Ok(out)
    }
}

/// The schedule of `dst(dsec) = src(ssec)` for arrays with DADs `src` and
/// `dst` on one grid and conforming sections. Only the section's owned
/// cells of the destination are written.
pub fn copy_plan(src: &Dad, ssec: &Section, dst: &Dad, dsec: &Section) -> HpfResult<Arc<Schedule>> {
    const CALL: &str = "hpf_copy_section";
    if src.grid().id() != dst.grid().id() {
        return Err(HpfError::mismatch(
            CALL,
            "the arrays are on different processor grids",
        ));
    }
    let sa = ssec.axes(CALL, src)?;
    let da = dsec.axes(CALL, dst)?;
    let (ss, ds) = (ssec.shape(), dsec.shape());
    if ss != ds {
        return Err(HpfError::mismatch(
            CALL,
            format!("the sections have shapes {ss:?} and {ds:?}"),
        ));
    }
    let key = PlanKey::Section {
        grid: src.grid().id(),
        src: src.layout(),
        dst: dst.layout(),
        src_axes: sa.clone(),
        dst_axes: da.clone(),
    };
    let grid = dst.grid();
    Ok(schedule::cached(key, || {
        schedule::plan_lists(grid, false, |s, q| {
            if !src.serves(s, q) {
                return None;
            }
            let (bs, ks, st_s) = fixed_part(src, &sa, s)?;
            let (bd, kd, st_d) = fixed_part(dst, &da, q)?;
            let cs = grid.coords_of(s);
            let cq = grid.coords_of(q);
            let lists: Vec<DimPairs> = ks
                .iter()
                .zip(&kd)
                .map(|(&a, &b)| {
                    let (dsa, dda) = (&src.dims()[a], &dst.dims()[b]);
                    let (axs, axd) = (&sa[a], &da[b]);
                    let (c1, c2) = (dsa.coord(cs), dda.coord(cq));
                    (0..axs.count)
                        .filter_map(|t| {
                            let ls = dsa.owns(c1, axs.offset(t))?;
                            let ld = dda.owns(c2, axd.offset(t))?;
                            Some((
                                (dsa.spec.olo + ls) * st_s[a],
                                (dda.spec.olo + ld) * st_d[b],
                                true,
                            ))
                        })
                        .collect()
                })
                .collect();
            Some((bs, bd, lists))
        })
    }))
}

/// For the array with DAD `dad` seen through `axes` on grid rank `r`: the
/// buffer offset its scalar subscripts contribute, its kept dimensions in
/// order, and its memory strides; `None` if `r` does not hold the array
/// or does not own the scalar subscripts.
fn fixed_part(dad: &Dad, axes: &[Axis], r: usize) -> Option<(usize, Vec<usize>, Vec<usize>)> {
    if !dad.holds(r) {
        return None;
    }
    let strides = dad.strides_of(r);
    let c = dad.grid().coords_of(r);
    let mut base = 0;
    let mut kept = Vec::new();
    for (k, (ax, d)) in axes.iter().zip(dad.dims()).enumerate() {
        if ax.kept {
            kept.push(k);
        } else {
            let l = d.owns(d.coord(c), ax.first)?;
            base += (d.spec.olo + l) * strides[k];
        }
    }
    Some((base, kept, strides))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dad::{numroc, DimSpec, Dist};
    use proptest::prelude::*;

    /// The subscripts a triplet selects, by walking it.
    fn walk(lo: i64, hi: i64, stride: i64) -> Vec<i64> {
        let mut out = Vec::new();
        let mut x = lo;
        while (stride > 0 && x <= hi) || (stride < 0 && x >= hi) {
            out.push(x);
            x += stride;
        }
        out
    }

    #[test]
    fn triplet_count_matches_walking_the_triplet() {
        for lo in -6..8 {
            for hi in -6..8 {
                for stride in [-4, -3, -2, -1, 1, 2, 3, 5] {
                    assert_eq!(
                        triplet_count(lo, hi, stride),
                        walk(lo, hi, stride).len(),
                        "{lo}:{hi}:{stride}"
                    );
                }
            }
        }
        assert_eq!(triplet_count(1, 10, 0), 0);
        assert_eq!(triplet_count(i64::MIN, i64::MAX, 1), usize::MAX);
    }

    /// Owner and local index of offset `i` from the definitions alone:
    /// deal the elements out and count.
    fn naive_owner(d: &DimMap, i: usize) -> (usize, usize) {
        let n = d.spec.extent;
        let p = d.nprocs;
        let owner_of = |j: usize| match d.spec.dist {
            Dist::Collapsed => 0,
            Dist::Block => j / n.div_ceil(p).max(1),
            Dist::Cyclic => j % p,
            Dist::BlockCyclic(k) => (j / k) % p,
            Dist::GenBlock(ref sizes) => {
                // Walk the blocks until the one holding j.
                let mut end = 0;
                sizes
                    .iter()
                    .position(|&s| {
                        end += s;
                        j < end
                    })
                    .unwrap_or(p)
            }
            Dist::Pattern(ref t) => t.owner(j),
        };
        let c = owner_of(i);
        let local = (0..i).filter(|&j| owner_of(j) == c).count();
        (c, local)
    }

    /// A dimension (extent, processes, distribution, lower bound) and a
    /// triplet inside it: its ends lie within the bounds, so every
    /// subscript it walks does too.
    fn dim_and_triplet() -> impl Strategy<Value = (usize, usize, Dist, i64, i64, i64, i64)> {
        let dist = prop_oneof![
            Just(Dist::Collapsed),
            Just(Dist::Block),
            Just(Dist::Cyclic),
            (1usize..=5).prop_map(Dist::BlockCyclic),
            // GEN_BLOCK: the sizes are chosen below, once n and p are.
            Just(Dist::gen_block(&[])),
            // An owner pattern: its table is chosen below too.
            Just(Dist::Pattern(std::sync::Arc::new(
                crate::pattern::OwnerPattern::new(0, 1, vec![0]).expect("a pattern")
            ))),
        ];
        (0usize..30, 1usize..=6, dist, -4i64..=4, -4i64..=4)
            .prop_flat_map(|(n, p, dist, lb, stride)| {
                let stride = if stride == 0 { 1 } else { stride };
                let ends = if n == 0 {
                    lb..lb + 1
                } else {
                    lb..lb + n as i64
                };
                (Just((n, p, dist, lb, stride)), ends.clone(), ends)
            })
            .prop_map(|((n, p, dist, lb, stride), lo, hi)| {
                // An empty dimension takes only the empty triplet.
                let (lo, hi) = if n == 0 {
                    (lb, lb - stride.signum())
                } else {
                    (lo, hi)
                };
                let dist = match dist {
                    Dist::GenBlock(_) => {
                        // Uneven sizes with empty blocks, the rest last.
                        let mut left = n;
                        let mut sizes: Vec<usize> = (0..p)
                            .map(|c| {
                                let s = ((c * 7 + lo.unsigned_abs() as usize) % 5).min(left);
                                left -= s;
                                s
                            })
                            .collect();
                        sizes[p - 1] += left;
                        Dist::gen_block(&sizes)
                    }
                    Dist::Pattern(_) => {
                        // A period of 1 to 7 offsets, owners scattered.
                        let period = 1 + (lo.unsigned_abs() as usize + n) % 7;
                        let table = (0..period).map(|r| (r * 5 + n) % p).collect();
                        let t = crate::pattern::OwnerPattern::new(n, p, table).expect("a pattern");
                        Dist::Pattern(std::sync::Arc::new(t))
                    }
                    other => other,
                };
                (n, p, dist, lb, stride, lo, hi)
            })
    }

    proptest! {
        /// The owned section elements of every coordinate are exactly
        /// those the naive model assigns it, with the same local indices,
        /// and together they cover the section once.
        #[test]
        fn owned_section_elements_match_the_naive_model(
            (n, p, dist, lb, stride, lo, hi) in dim_and_triplet()
        ) {
            let d = DimMap::of(DimSpec::new(lb, n, dist.clone(), 0), p);
            let subs = walk(lo, hi, stride);
            prop_assert!(subs.iter().all(|&x| x >= lb && x < lb + n as i64));
            let ax = Axis {
                first: subs.first().map_or(0, |&x| (x - lb) as usize),
                step: stride,
                count: subs.len(),
                kept: true,
            };
            let procs = if dist == Dist::Collapsed { 1 } else { p };
            let mut covered = vec![0usize; subs.len()];
            for c in 0..procs {
                let want: Vec<(usize, usize)> = subs
                    .iter()
                    .enumerate()
                    .filter_map(|(t, &x)| {
                        let (o, l) = naive_owner(&d, (x - lb) as usize);
                        (o == c).then_some((t, l))
                    })
                    .collect();
                let got = ax.owned(&d, c);
                prop_assert_eq!(&got, &want, "coordinate {}", c);
                for (t, l) in got {
                    covered[t] += 1;
                    prop_assert!(l < d.count(c));
                }
            }
            prop_assert!(covered.iter().all(|&k| k == 1));
            if matches!(dist, Dist::BlockCyclic(_) | Dist::Cyclic) {
                let owned: usize = (0..procs).map(|c| d.count(c)).sum();
                prop_assert_eq!(owned, n);
                prop_assert_eq!(d.count(0), numroc(n, d.block, 0, 0, p));
            }
        }
    }
}
