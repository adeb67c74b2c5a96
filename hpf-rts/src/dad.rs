//! The distributed array descriptor (DAD): per dimension the global bounds,
//! the distribution, the grid dimension it is spread over, the overlap
//! widths and the local layout; and the ownership functions (global index
//! to owner and local index, local to global, local extents).
//!
//! Ownership rules, with `i = g - lb` (0-based offset of global subscript
//! `g`), `N` the extent, `P` the processes along the grid dimension and
//! `c` a process's coordinate on it:
//! * Collapsed: every process holds the whole dimension; local = `i`.
//! * BLOCK: `b = ceil(N/P)`; owner `i / b`, local `i mod b`; process `c`
//!   holds `min(b, max(0, N - c*b))` elements (trailing processes may hold
//!   none).
//! * CYCLIC = CYCLIC(1).
//! * CYCLIC(k): owner `(i / k) mod P`, local `(i / (k*P))*k + i mod k`;
//!   counts are ScaLAPACK's `NUMROC(N, k, c, 0, P)`.
//! * GEN_BLOCK(s): process `c` holds the `s[c]` consecutive elements from
//!   `S(c) = s[0] + ... + s[c-1]` on (the sizes add up to `N`, zeros
//!   allowed); owner of `i` is the `c` with `S(c) <= i < S(c+1)`, local
//!   `i - S(c)`.
//! * Owner pattern ([`OwnerPattern`], made by an alignment): the owners of
//!   one period, repeated; each process keeps its elements in increasing
//!   order.
//!
//! Local storage is column-major (first dimension fastest) over the
//! allocated box, which is the owned elements plus `olo` cells below and
//! `ohi` above in each dimension; overlap is allowed on BLOCK, GEN_BLOCK,
//! collapsed and one-run pattern dimensions only (those where each process
//! owns one consecutive run).
//!
//! A grid dimension no array dimension is spread over replicates the array
//! along it, unless the DAD fixes a coordinate on it (an alignment with a
//! fixed position on a template dimension, `ALIGN A(i) WITH T(i, 3)`):
//! then only the processes at that coordinate hold the array and the
//! others hold nothing (no elements, no overlap, an empty local buffer).

use crate::error::{HpfError, HpfResult};
use crate::grid::ProcGrid;
use crate::pattern::OwnerPattern;
use std::sync::Arc;

/// Distribution of one dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dist {
    /// Not distributed: every process holds the whole dimension.
    Collapsed,
    /// BLOCK.
    Block,
    /// CYCLIC (= CYCLIC(1)).
    Cyclic,
    /// CYCLIC(k), k >= 1.
    BlockCyclic(usize),
    /// GEN_BLOCK: one block per process along the grid dimension, of the
    /// given sizes (one per process, in coordinate order, summing to the
    /// extent).
    GenBlock(Arc<[usize]>),
    /// An owner table over a period ([`OwnerPattern`]), made for one
    /// extent and one number of processes: what an alignment to a
    /// template leaves when no distribution above describes it.
    Pattern(Arc<OwnerPattern>),
}

impl Dist {
    /// GEN_BLOCK with the sizes `sizes`.
    pub fn gen_block(sizes: &[usize]) -> Dist {
        Dist::GenBlock(sizes.into())
    }

    /// Whether each process owns one consecutive run of the dimension
    /// (so an overlap area can continue it).
    pub fn contiguous(&self) -> bool {
        match self {
            Dist::Collapsed | Dist::Block | Dist::GenBlock(_) => true,
            Dist::Pattern(p) => p.one_run(),
            Dist::Cyclic | Dist::BlockCyclic(_) => false,
        }
    }
}

/// What the user says about one dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DimSpec {
    /// Global lower bound (Fortran lower bound).
    pub lb: i64,
    /// Number of elements.
    pub extent: usize,
    /// Distribution.
    pub dist: Dist,
    /// Grid dimension (0-based) for distributed dimensions; ignored when
    /// collapsed.
    pub pdim: usize,
    /// Overlap width below the owned elements.
    pub olo: usize,
    /// Overlap width above the owned elements.
    pub ohi: usize,
    /// The alignment to a template dimension this dimension's
    /// distribution was derived from ([`DimSpec::aligned`]); None when
    /// distributed directly.
    pub align: Option<crate::align::Align>,
}

impl DimSpec {
    /// A dimension `lb : lb+extent-1` with distribution `dist` on grid
    /// dimension `pdim` and no overlap.
    pub fn new(lb: i64, extent: usize, dist: Dist, pdim: usize) -> DimSpec {
        DimSpec {
            lb,
            extent,
            dist,
            pdim,
            olo: 0,
            ohi: 0,
            align: None,
        }
    }

    /// The same with overlap widths `olo` and `ohi`.
    pub fn with_overlap(self, olo: usize, ohi: usize) -> DimSpec {
        DimSpec { olo, ohi, ..self }
    }
}

/// ScaLAPACK's `NUMROC`: how many of `n` elements, dealt in blocks of `nb`
/// round-robin over `nprocs` processes starting at `isrcproc`, process
/// `iproc` holds.
pub fn numroc(n: usize, nb: usize, iproc: usize, isrcproc: usize, nprocs: usize) -> usize {
    let mydist = (nprocs + iproc - isrcproc) % nprocs;
    let nblocks = n / nb;
    let mut num = (nblocks / nprocs) * nb;
    let extra = nblocks % nprocs;
    if mydist < extra {
        num += nb;
    } else if mydist == extra {
        num += n % nb;
    }
    num
}

/// One dimension of a DAD: the user's spec and what follows from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DimMap {
    /// The spec.
    pub spec: DimSpec,
    /// Processes along the grid dimension (1 when collapsed).
    pub nprocs: usize,
    /// Block length: `ceil(N/P)` for BLOCK, k for CYCLIC(k), N when
    /// collapsed, the largest size for GEN_BLOCK, the shortest run for an
    /// owner pattern.
    pub block: usize,
    /// GEN_BLOCK only: the first offset of each process's block, and the
    /// extent last (`P + 1` entries); empty otherwise.
    starts: Vec<usize>,
}

impl DimMap {
    fn new(spec: DimSpec, grid: &ProcGrid) -> DimMap {
        let nprocs = match &spec.dist {
            Dist::Collapsed => 1,
            _ => grid.dims()[spec.pdim],
        };
        DimMap::of(spec, nprocs)
    }

    /// The dimension `spec` spread over `nprocs` processes (ignored when
    /// collapsed; GEN_BLOCK takes the number of its sizes).
    pub fn of(spec: DimSpec, nprocs: usize) -> DimMap {
        let mut starts = Vec::new();
        let (nprocs, block) = match &spec.dist {
            Dist::Collapsed => (1, spec.extent.max(1)),
            Dist::Block => {
                let p = nprocs.max(1);
                (p, spec.extent.div_ceil(p).max(1))
            }
            Dist::Cyclic => (nprocs.max(1), 1),
            Dist::BlockCyclic(k) => (nprocs.max(1), *k),
            Dist::GenBlock(sizes) => {
                let mut acc = 0usize;
                starts.push(0);
                for &s in sizes.iter() {
                    acc = acc.saturating_add(s);
                    starts.push(acc);
                }
                let big = sizes.iter().copied().max().unwrap_or(0);
                (sizes.len().max(1), big.max(1))
            }
            Dist::Pattern(p) => (p.nprocs(), p.min_run()),
        };
        DimMap {
            spec,
            nprocs,
            block,
            starts,
        }
    }

    /// GEN_BLOCK: the coordinate whose block holds offset `i` (the last
    /// with a start at or below `i`, so empty blocks are skipped).
    fn gen_owner(&self, i: usize) -> usize {
        self.starts.partition_point(|&s| s <= i).saturating_sub(1)
    }

    /// The end (exclusive) of the run of consecutive offsets from `i` on
    /// that one process holds with consecutive local indices.
    pub fn block_end(&self, i: usize) -> usize {
        let n = self.spec.extent;
        match &self.spec.dist {
            Dist::Collapsed => n,
            Dist::GenBlock(_) => self.starts[self.gen_owner(i) + 1].min(n),
            Dist::Pattern(p) => p.run_end(i),
            _ => ((i / self.block + 1) * self.block).min(n),
        }
    }

    /// The smallest non-empty block (the shortest run of consecutive
    /// offsets one process holds, the last partial block aside).
    pub fn min_block(&self) -> usize {
        match &self.spec.dist {
            Dist::GenBlock(sizes) => sizes.iter().copied().filter(|&s| s > 0).min().unwrap_or(1),
            _ => self.block,
        }
    }

    /// Whether the dimension is spread over a grid dimension.
    pub fn distributed(&self) -> bool {
        self.spec.dist != Dist::Collapsed
    }

    /// The coordinate along this dimension's grid dimension in `coords`
    /// (0 when collapsed).
    pub fn coord(&self, coords: &[usize]) -> usize {
        if self.distributed() {
            coords[self.spec.pdim]
        } else {
            0
        }
    }

    /// Owning coordinate of offset `i` (0 when collapsed: everyone).
    pub fn owner(&self, i: usize) -> usize {
        match self.spec.dist {
            Dist::Collapsed => 0,
            Dist::Block => i / self.block,
            Dist::GenBlock(_) => self.gen_owner(i),
            Dist::Pattern(ref p) => p.owner(i),
            Dist::Cyclic | Dist::BlockCyclic(_) => (i / self.block) % self.nprocs,
        }
    }

    /// Local index of offset `i` on its owner.
    pub fn local(&self, i: usize) -> usize {
        match self.spec.dist {
            Dist::Collapsed => i,
            Dist::Block => i % self.block,
            Dist::GenBlock(_) => i - self.starts[self.gen_owner(i)],
            Dist::Pattern(ref p) => p.local(i),
            Dist::Cyclic | Dist::BlockCyclic(_) => {
                let k = self.block;
                (i / (k * self.nprocs)) * k + i % k
            }
        }
    }

    /// Offset of local index `l` on coordinate `c`.
    pub fn global(&self, c: usize, l: usize) -> usize {
        match self.spec.dist {
            Dist::Collapsed => l,
            Dist::Block => c * self.block + l,
            Dist::GenBlock(_) => self.starts[c] + l,
            Dist::Pattern(ref p) => p.global(c, l),
            Dist::Cyclic | Dist::BlockCyclic(_) => {
                let k = self.block;
                ((l / k) * self.nprocs + c) * k + l % k
            }
        }
    }

    /// Elements coordinate `c` owns.
    pub fn count(&self, c: usize) -> usize {
        let n = self.spec.extent;
        match self.spec.dist {
            Dist::Collapsed => n,
            Dist::Block => self.block.min(n.saturating_sub(c * self.block)),
            Dist::GenBlock(_) => self.starts[c + 1] - self.starts[c],
            Dist::Pattern(ref p) => p.count(c),
            Dist::Cyclic | Dist::BlockCyclic(_) => numroc(n, self.block, c, 0, self.nprocs),
        }
    }

    /// Local index of offset `i` if coordinate `c` owns it.
    pub fn owns(&self, c: usize, i: usize) -> Option<usize> {
        (!self.distributed() || self.owner(i) == c).then(|| self.local(i))
    }

    /// Allocated extent on coordinate `c` (owned plus overlap).
    pub fn alloc(&self, c: usize) -> usize {
        self.spec.olo + self.count(c) + self.spec.ohi
    }
}

/// A distributed array descriptor.
#[derive(Clone, Debug)]
pub struct Dad {
    grid: Arc<ProcGrid>,
    dims: Vec<DimMap>,
    /// Per grid dimension: the one coordinate whose processes hold the
    /// array (None: spread over it or replicated along it).
    fixed: Vec<Option<usize>>,
}

/// What decides a DAD's layout on its grid: the dimensions and the fixed
/// coordinates (a schedule cache key).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Layout {
    dims: Vec<DimMap>,
    fixed: Vec<Option<usize>>,
}

impl PartialEq for Dad {
    fn eq(&self, o: &Dad) -> bool {
        self.grid.id() == o.grid.id() && self.dims == o.dims && self.fixed == o.fixed
    }
}

impl Eq for Dad {}

impl Dad {
    /// A DAD on `grid` with one spec per array dimension.
    pub fn new(grid: &Arc<ProcGrid>, specs: &[DimSpec]) -> HpfResult<Dad> {
        const CALL: &str = "hpf_dad_create";
        if specs.is_empty() {
            return Err(HpfError::bad_arg(
                CALL,
                "an array has at least one dimension",
            ));
        }
        let mut used = vec![false; grid.dims().len()];
        for (d, s) in specs.iter().enumerate() {
            let dim = d + 1;
            if s.extent > i64::MAX as usize / 2 {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!("dimension {dim}: extent {} too large", s.extent),
                ));
            }
            if s.dist == Dist::Collapsed {
                continue;
            }
            if let Dist::BlockCyclic(0) = s.dist {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!("dimension {dim}: CYCLIC(k) needs k >= 1"),
                ));
            }
            if s.pdim >= used.len() {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!(
                        "dimension {dim}: the grid has no dimension {} (it has {})",
                        s.pdim,
                        used.len()
                    ),
                ));
            }
            if used[s.pdim] {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!("dimension {dim}: grid dimension {} is already used", s.pdim),
                ));
            }
            used[s.pdim] = true;
            if let Dist::GenBlock(sizes) = &s.dist {
                let p = grid.dims()[s.pdim];
                if sizes.len() != p {
                    return Err(HpfError::bad_arg(
                        CALL,
                        format!(
                            "dimension {dim}: GEN_BLOCK has {} sizes for the {p} processes of grid dimension {}",
                            sizes.len(),
                            s.pdim
                        ),
                    ));
                }
                let total = sizes.iter().try_fold(0usize, |a, &x| a.checked_add(x));
                if total != Some(s.extent) {
                    return Err(HpfError::bad_arg(
                        CALL,
                        format!(
                            "dimension {dim}: GEN_BLOCK sizes {:?} do not add up to the extent {}",
                            sizes, s.extent
                        ),
                    ));
                }
            }
            if let Dist::Pattern(pat) = &s.dist {
                let p = grid.dims()[s.pdim];
                if pat.nprocs() != p || pat.extent() != s.extent {
                    return Err(HpfError::bad_arg(
                        CALL,
                        format!(
                            "dimension {dim}: an owner pattern for {} elements on {} processes used for {} on {p}",
                            pat.extent(),
                            pat.nprocs(),
                            s.extent
                        ),
                    ));
                }
            }
            if !s.dist.contiguous() && (s.olo > 0 || s.ohi > 0) {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!(
                        "dimension {dim}: overlap needs a distribution where each process owns one consecutive run (BLOCK, GEN_BLOCK, collapsed)"
                    ),
                ));
            }
        }
        let dims: Vec<DimMap> = specs.iter().map(|s| DimMap::new(s.clone(), grid)).collect();
        let dad = Dad {
            grid: grid.clone(),
            dims,
            fixed: vec![None; grid.dims().len()],
        };
        // Every process's allocation must be addressable.
        let mut total: usize = 1;
        for d in &dad.dims {
            total = total
                .checked_mul(d.alloc(d.coord(grid.my_coords())))
                .filter(|&t| t <= isize::MAX as usize / 8)
                .ok_or_else(|| HpfError::bad_arg(CALL, "local allocation too large"))?;
        }
        Ok(dad)
    }

    /// A DAD as [`Dad::new`] makes it, held only by the processes at
    /// coordinate `c` of grid dimension `g` for every `(g, c)` of `at`
    /// (grid dimensions no array dimension is spread over; the others
    /// hold nothing). Returns `HPF_EBADARG` for a grid dimension out of
    /// range, spread over, or named twice, or a coordinate out of range.
    pub fn new_at(
        grid: &Arc<ProcGrid>,
        specs: &[DimSpec],
        at: &[(usize, usize)],
    ) -> HpfResult<Dad> {
        const CALL: &str = "hpf_dad_create";
        let mut dad = Dad::new(grid, specs)?;
        for &(g, c) in at {
            let bad = |what: String| HpfError::bad_arg(CALL, format!("fixed position: {what}"));
            let Some(&p) = grid.dims().get(g) else {
                return Err(bad(format!(
                    "the grid has no dimension {g} (it has {})",
                    grid.dims().len()
                )));
            };
            if dad.spread_over(g) {
                return Err(bad(format!(
                    "grid dimension {g} has an array dimension spread over it"
                )));
            }
            if c >= p {
                return Err(bad(format!(
                    "coordinate {c} on grid dimension {g} of {p} processes"
                )));
            }
            if dad.fixed[g].replace(c).is_some() {
                return Err(bad(format!("grid dimension {g} is fixed twice")));
            }
        }
        Ok(dad)
    }

    /// Per grid dimension, the one coordinate whose processes hold the
    /// array (None: spread over it or replicated along it).
    pub fn fixed(&self) -> &[Option<usize>] {
        &self.fixed
    }

    /// The fixed coordinates as `(grid dimension, coordinate)` pairs, as
    /// [`Dad::new_at`] takes them.
    pub fn fixed_at(&self) -> Vec<(usize, usize)> {
        self.fixed
            .iter()
            .enumerate()
            .filter_map(|(g, f)| f.map(|c| (g, c)))
            .collect()
    }

    /// The layout (dimensions and fixed coordinates), for cache keys.
    pub(crate) fn layout(&self) -> Layout {
        Layout {
            dims: self.dims.clone(),
            fixed: self.fixed.clone(),
        }
    }

    /// Whether an array dimension is spread over grid dimension `g`.
    fn spread_over(&self, g: usize) -> bool {
        self.dims
            .iter()
            .any(|d| d.distributed() && d.spec.pdim == g)
    }

    /// Whether grid rank `r` holds (a copy of) the array: it sits at
    /// every fixed coordinate.
    pub fn holds(&self, r: usize) -> bool {
        let c = self.grid.coords_of(r);
        self.fixed
            .iter()
            .zip(c)
            .all(|(f, &x)| f.is_none_or(|f| f == x))
    }

    /// The grid.
    pub fn grid(&self) -> &Arc<ProcGrid> {
        &self.grid
    }

    /// Array rank.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The dimensions.
    pub fn dims(&self) -> &[DimMap] {
        &self.dims
    }

    /// Global extents.
    pub fn shape(&self) -> Vec<usize> {
        self.dims.iter().map(|d| d.spec.extent).collect()
    }

    /// Total number of elements.
    pub fn global_len(&self) -> usize {
        self.dims.iter().map(|d| d.spec.extent).product()
    }

    /// Owned elements per dimension on grid rank `r`.
    /// (zeros where `r` does not hold the array).
    pub fn counts_of(&self, r: usize) -> Vec<usize> {
        let c = self.grid.coords_of(r);
        let held = self.holds(r);
        self.dims
            .iter()
            .map(|d| if held { d.count(d.coord(c)) } else { 0 })
            .collect()
    }

    /// Allocated extents per dimension on grid rank `r` (zeros where `r`
    /// does not hold the array).
    pub fn alloc_of(&self, r: usize) -> Vec<usize> {
        let c = self.grid.coords_of(r);
        let held = self.holds(r);
        self.dims
            .iter()
            .map(|d| if held { d.alloc(d.coord(c)) } else { 0 })
            .collect()
    }

    /// Memory strides (in elements) of the local buffer on grid rank `r`:
    /// column-major over the allocated box.
    pub fn strides_of(&self, r: usize) -> Vec<usize> {
        let mut s = Vec::with_capacity(self.dims.len());
        let mut acc = 1;
        for a in self.alloc_of(r) {
            s.push(acc);
            acc *= a;
        }
        s
    }

    /// Elements of the local buffer on grid rank `r`, overlap included.
    pub fn local_len_of(&self, r: usize) -> usize {
        self.alloc_of(r).iter().product()
    }

    /// Elements of this process's local buffer, overlap included.
    pub fn local_len(&self) -> usize {
        self.local_len_of(self.grid.rank())
    }

    /// Whether grid rank `r` holds the copy of the array that reductions
    /// count: it holds the array and its coordinate is 0 on every grid
    /// dimension the array is replicated along.
    pub fn is_primary(&self, r: usize) -> bool {
        let c = self.grid.coords_of(r);
        self.holds(r)
            && (0..c.len()).all(|g| c[g] == 0 || self.fixed[g].is_some() || self.spread_over(g))
    }

    /// Whether grid rank `s` may serve grid rank `q` as the source of
    /// elements: `s` holds the array and they agree on every grid
    /// dimension the array is replicated along (each replica serves its
    /// own line; along a fixed dimension the one holder serves everyone).
    pub fn serves(&self, s: usize, q: usize) -> bool {
        let (cs, cq) = (self.grid.coords_of(s), self.grid.coords_of(q));
        self.holds(s)
            && (0..cs.len())
                .all(|g| cs[g] == cq[g] || self.fixed[g].is_some() || self.spread_over(g))
    }

    /// Owner (grid rank among the replicas in this process's line) and
    /// local buffer offset of the element at global subscripts `gidx`.
    pub fn owner_of(&self, gidx: &[i64]) -> HpfResult<(usize, usize)> {
        const CALL: &str = "hpf_dad_owner";
        if gidx.len() != self.dims.len() {
            return Err(HpfError::bad_arg(
                CALL,
                format!(
                    "{} subscripts for a rank-{} array",
                    gidx.len(),
                    self.dims.len()
                ),
            ));
        }
        let mut coords = self.grid.my_coords().to_vec();
        let mut locals = Vec::with_capacity(self.dims.len());
        for (k, (d, &g)) in self.dims.iter().zip(gidx).enumerate() {
            let i = g - d.spec.lb;
            if i < 0 || i as usize >= d.spec.extent {
                return Err(HpfError::bad_arg(
                    CALL,
                    format!(
                        "subscript {g} of dimension {} is outside {}:{}",
                        k + 1,
                        d.spec.lb,
                        d.spec.lb + d.spec.extent as i64 - 1
                    ),
                ));
            }
            let i = i as usize;
            if d.distributed() {
                coords[d.spec.pdim] = d.owner(i);
            }
            locals.push(d.local(i));
        }
        for (x, f) in coords.iter_mut().zip(&self.fixed) {
            *x = f.unwrap_or(*x);
        }
        let r = self.grid.rank_of(&coords);
        let strides = self.strides_of(r);
        let off = self
            .dims
            .iter()
            .zip(&locals)
            .zip(&strides)
            .map(|((d, &l), &s)| (d.spec.olo + l) * s)
            .sum();
        Ok((r, off))
    }

    /// Local buffer offset on grid rank `r` of the element at global
    /// offsets `g` (0-based per dimension), if `r` owns it.
    pub fn offset_on(&self, r: usize, g: &[usize]) -> Option<usize> {
        if !self.holds(r) {
            return None;
        }
        let c = self.grid.coords_of(r);
        let strides = self.strides_of(r);
        let mut off = 0;
        for ((d, &i), &st) in self.dims.iter().zip(g).zip(&strides) {
            off += (d.spec.olo + d.owns(d.coord(c), i)?) * st;
        }
        Some(off)
    }

    /// Global subscript of local index `l` (0-based, overlap not counted)
    /// of dimension `dim` (0-based) on this process.
    pub fn local_to_global(&self, dim: usize, l: usize) -> HpfResult<i64> {
        const CALL: &str = "hpf_dad_local_to_global";
        let d = self
            .dims
            .get(dim)
            .ok_or_else(|| HpfError::bad_arg(CALL, format!("no dimension {}", dim + 1)))?;
        let c = d.coord(self.grid.my_coords());
        let owned = if self.holds(self.grid.rank()) {
            d.count(c)
        } else {
            0
        };
        if l >= owned {
            return Err(HpfError::bad_arg(
                CALL,
                format!(
                    "local index {l} of dimension {}: this process owns {owned}",
                    dim + 1
                ),
            ));
        }
        Ok(d.spec.lb + d.global(c, l) as i64)
    }

    /// Calls `f(global offsets, local buffer offset)` for every element grid
    /// rank `r` owns, in local column-major order.
    pub fn for_each_owned(&self, r: usize, mut f: impl FnMut(&[usize], usize)) {
        let c = self.grid.coords_of(r);
        let mut g: Vec<usize> = vec![0; self.dims.len()];
        self.walk_owned(r, 0, |l, off, _| {
            for ((gk, d), &lk) in g.iter_mut().zip(&self.dims).zip(l) {
                *gk = d.global(d.coord(c), lk);
            }
            f(&g, off);
        });
    }

    /// Calls `f(local index, local buffer offset, local counts)` for the
    /// elements grid rank `r` owns whose local index is 0 in dimensions
    /// `..from` (all of them for `from` 0), in local column-major order.
    fn walk_owned(&self, r: usize, from: usize, mut f: impl FnMut(&[usize], usize, &[usize])) {
        let counts = self.counts_of(r);
        if counts.contains(&0) {
            return;
        }
        let strides = self.strides_of(r);
        let mut l = vec![0usize; self.dims.len()];
        loop {
            let off: usize = self
                .dims
                .iter()
                .zip(&l)
                .zip(&strides)
                .map(|((d, &lk), &s)| (d.spec.olo + lk) * s)
                .sum();
            f(&l, off, &counts);
            if !next_local(&mut l, &counts, from) {
                return;
            }
        }
    }

    /// The ScaLAPACK array descriptor (`DESC(9)`: DTYPE=1, CTXT, M, N, MB,
    /// NB, RSRC=0, CSRC=0, LLD) of this rank-2 DAD for a BLACS context
    /// `ictxt` whose process grid is this DAD's 2-D grid in row-major
    /// order (`Cblacs_gridinit(&ictxt, "Row", P, Q)` over the same
    /// processes). Array dimension 1 must lie on grid dimension 0 and
    /// dimension 2 on grid dimension 1 (BLOCK is CYCLIC(ceil(N/P)); a
    /// collapsed dimension needs a grid dimension of size 1), without
    /// overlap. The local buffer is then ScaLAPACK's local array.
    pub fn scalapack_desc(&self, ictxt: i32) -> HpfResult<[i32; 9]> {
        const CALL: &str = "hpf_dad_scalapack_desc";
        if self.rank() != 2 || self.grid.dims().len() != 2 {
            return Err(HpfError::bad_arg(
                CALL,
                format!(
                    "a ScaLAPACK descriptor needs a rank-2 array on a 2-D grid, not rank {} on {} grid dimensions",
                    self.rank(),
                    self.grid.dims().len()
                ),
            ));
        }
        if self.fixed.iter().any(Option::is_some) {
            return Err(HpfError::bad_arg(
                CALL,
                "the array sits at a fixed grid coordinate, which a ScaLAPACK descriptor cannot describe",
            ));
        }
        let mut blocks = [0i32; 2];
        for (k, d) in self.dims.iter().enumerate() {
            let bad =
                |what: String| HpfError::bad_arg(CALL, format!("dimension {}: {what}", k + 1));
            if d.spec.olo > 0 || d.spec.ohi > 0 {
                return Err(bad("has an overlap area".into()));
            }
            if d.distributed() && d.spec.pdim != k {
                return Err(bad(format!(
                    "lies on grid dimension {}, ScaLAPACK needs {k}",
                    d.spec.pdim
                )));
            }
            if let Dist::GenBlock(_) | Dist::Pattern(_) = d.spec.dist {
                return Err(bad(format!(
                    "is {}, which a ScaLAPACK descriptor cannot describe",
                    if matches!(d.spec.dist, Dist::GenBlock(_)) {
                        "GEN_BLOCK"
                    } else {
                        "an owner pattern"
                    }
                )));
            }
            if !d.distributed() && self.grid.dims()[k] != 1 {
                return Err(bad(format!(
                    "is collapsed over {} processes (a replica ScaLAPACK cannot describe)",
                    self.grid.dims()[k]
                )));
            }
            blocks[k] = i32::try_from(d.block).map_err(|_| bad("block too large".into()))?;
        }
        let big = |x: usize| {
            i32::try_from(x)
                .map_err(|_| HpfError::bad_arg(CALL, format!("{x} exceeds a Fortran INTEGER")))
        };
        let lld = big(self.alloc_of(self.grid.rank())[0].max(1))?;
        Ok([
            1,
            ictxt,
            big(self.dims[0].spec.extent)?,
            big(self.dims[1].spec.extent)?,
            blocks[0],
            blocks[1],
            0,
            0,
            lld,
        ])
    }

    /// Calls `f(offset, length)` for every run of owned elements of grid
    /// rank `r` that is contiguous in the local buffer (one run per owned
    /// line of the first dimension), in local column-major order.
    pub fn for_each_owned_run(&self, r: usize, mut f: impl FnMut(usize, usize)) {
        self.walk_owned(r, 1, |_, off, counts| f(off, counts[0]));
    }

    /// Column-major linear position (0-based) of global offsets `g`.
    pub fn linear(&self, g: &[usize]) -> usize {
        let mut pos = 0;
        for (d, &i) in self.dims.iter().zip(g).rev() {
            pos = pos * d.spec.extent + i;
        }
        pos
    }
}

/// Steps the local index `l` (within `counts`) to the next element in
/// column-major order, moving only dimensions `from..` (the ones before
/// stay put); false once past the last.
fn next_local(l: &mut [usize], counts: &[usize], from: usize) -> bool {
    for (lk, &ck) in l.iter_mut().zip(counts).skip(from) {
        *lk += 1;
        if *lk < ck {
            return true;
        }
        *lk = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NUMROC from its definition: deal blocks round-robin and count.
    fn dealt(n: usize, nb: usize, iproc: usize, src: usize, p: usize) -> usize {
        (0..n).filter(|i| ((i / nb) + src) % p == iproc).count()
    }

    #[test]
    fn numroc_matches_dealing_blocks() {
        for n in 0..40 {
            for nb in 1..6 {
                for p in 1..5 {
                    for src in 0..p {
                        for iproc in 0..p {
                            assert_eq!(
                                numroc(n, nb, iproc, src, p),
                                dealt(n, nb, iproc, src, p),
                                "n={n} nb={nb} p={p} src={src} iproc={iproc}"
                            );
                        }
                    }
                }
            }
        }
    }

    fn map(extent: usize, dist: Dist, nprocs: usize) -> DimMap {
        DimMap::of(DimSpec::new(1, extent, dist, 0), nprocs)
    }

    #[test]
    fn ownership_round_trips_and_counts_add_up() {
        for n in 0..30 {
            for p in 1..6 {
                for dist in [
                    Dist::Block,
                    Dist::Cyclic,
                    Dist::BlockCyclic(2),
                    Dist::BlockCyclic(3),
                    Dist::Collapsed,
                    Dist::gen_block(&uneven(n, p)),
                ] {
                    let m = map(n, dist.clone(), p);
                    let procs = if dist == Dist::Collapsed { 1 } else { p };
                    let mut seen = vec![0usize; procs];
                    for i in 0..n {
                        let c = m.owner(i);
                        let l = m.local(i);
                        assert!(c < procs);
                        assert!(l < m.count(c), "{dist:?} n={n} p={p} i={i}");
                        assert_eq!(m.global(c, l), i);
                        seen[c] += 1;
                    }
                    for (c, &s) in seen.iter().enumerate() {
                        assert_eq!(m.count(c), s, "{dist:?} n={n} p={p} c={c}");
                    }
                }
            }
        }
    }

    /// `n` split over `p` processes unevenly, with empty blocks (the
    /// first process gets little, some get nothing, the last the rest).
    fn uneven(n: usize, p: usize) -> Vec<usize> {
        let mut left = n;
        let mut sizes: Vec<usize> = (0..p)
            .map(|c| {
                let s = if c % 2 == 1 {
                    0
                } else {
                    ((c + 1) * 2).min(left)
                };
                left -= s;
                s
            })
            .collect();
        sizes[p - 1] += left;
        sizes
    }

    #[test]
    fn gen_block_owns_consecutive_runs_of_the_given_sizes() {
        let m = map(10, Dist::gen_block(&[3, 0, 5, 2]), 4);
        assert_eq!((0..4).map(|c| m.count(c)).collect::<Vec<_>>(), [3, 0, 5, 2]);
        let owners: Vec<usize> = (0..10).map(|i| m.owner(i)).collect();
        assert_eq!(owners, [0, 0, 0, 2, 2, 2, 2, 2, 3, 3]);
        assert_eq!(m.local(4), 1);
        assert_eq!(m.global(3, 1), 9);
        assert_eq!(m.block_end(3), 8);
        assert_eq!(m.block_end(8), 10);
        assert_eq!(m.min_block(), 2);
    }

    #[test]
    fn block_follows_the_ceiling_rule() {
        let m = map(10, Dist::Block, 4);
        assert_eq!((0..4).map(|c| m.count(c)).collect::<Vec<_>>(), [3, 3, 3, 1]);
        let m = map(5, Dist::Block, 4);
        assert_eq!((0..4).map(|c| m.count(c)).collect::<Vec<_>>(), [2, 2, 1, 0]);
        let m = map(10, Dist::BlockCyclic(3), 2);
        assert_eq!((0..2).map(|c| m.count(c)).collect::<Vec<_>>(), [6, 4]);
        assert_eq!(m.owner(6), 0);
        assert_eq!(m.local(6), 3);
    }
}
