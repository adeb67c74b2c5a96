//! Distribution arithmetic: block grids, which process holds each block,
//! and the parts of a patch.

use super::types::{fmt_patch, Distribution, GaError, GaResult};
use crate::ptr::MAX_DIM;

/// How an array is cut into blocks: `starts[d]` are the 0-based first
/// indices of the blocks along dimension d; block (b0, b1, ...) has the
/// index b0·n1·n2… + b1·n2… + … (row-major over the grid). `deal` says
/// which process holds each block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub dims: Vec<i64>,
    pub starts: Vec<Vec<i64>>,
    pub deal: Deal,
}

/// Which process of the array's group holds block k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// Process k (at most one block per process).
    OnePerProcess,
    /// Process k mod nproc.
    RoundRobin(i64),
    /// The process at the block's coordinates modulo this process grid,
    /// numbered in C order.
    ProcGrid(Vec<i64>),
}

/// Most blocks a block-cyclic array may have (each is a tile with its own
/// bookkeeping in every process).
pub const MAX_BLOCKS: i64 = 1 << 16;

/// The prime factors of `n` (with repeats), smallest first.
fn prime_factors(mut n: i64) -> Vec<i64> {
    let mut f = Vec::new();
    let mut p = 2;
    while p <= n / p {
        while n % p == 0 {
            f.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        f.push(n);
    }
    f
}

/// `a / b` rounded up, for `a >= 0` and `b >= 1`, without forming `a + b`.
fn div_up(a: i64, b: i64) -> i64 {
    if a == 0 {
        0
    } else {
        (a - 1) / b + 1
    }
}

/// How many processes GA 5.8 puts along each axis of an array of `units`
/// pieces per axis: the prime factors of `nproc`, largest first, go one by
/// one to the axis they divide with the smallest remainder relative to its
/// length (an axis that a factor would leave with less than one piece a
/// process ranks last); ties go to the first axis looked at, and the axis
/// looked at first moves on by one with each factor.
fn processes_per_axis(units: &[i64], nproc: i64) -> Vec<i64> {
    let n = units.len();
    let mut along = vec![1i64; n];
    let mut first = 0usize;
    for f in prime_factors(nproc.max(1)).into_iter().rev() {
        let misfit = |a: usize| -> f64 {
            let procs = f * along[a];
            if units[a] < procs {
                1.1
            } else {
                (units[a] % procs) as f64 / units[a] as f64
            }
        };
        let mut best = first;
        let mut best_misfit = misfit(first);
        for k in 1..n {
            let a = (first + k) % n;
            let m = misfit(a);
            if m < best_misfit {
                best = a;
                best_misfit = m;
            }
        }
        along[best] *= f;
        first = (first + 1) % n;
    }
    along
}

/// Block starts along one axis of `extent` elements cut for `procs`
/// processes, each of which gets `per` pieces of `piece` elements (or one
/// fewer once the pieces run short): the first `full` processes get `per`,
/// the others `per - 1`, until the axis is used up (so an axis may end
/// with fewer blocks than processes).
fn axis_starts(extent: i64, procs: i64, per: i64, piece: i64) -> Vec<i64> {
    let pieces = div_up(extent, piece);
    let full = pieces.saturating_sub((per - 1).saturating_mul(procs));
    let mut starts = Vec::new();
    let mut at = 0i64;
    let mut p = 0i64;
    while p < procs && at < extent {
        starts.push(at);
        let count = if p >= full { per - 1 } else { per };
        at = at.saturating_add(count.saturating_mul(piece));
        p += 1;
    }
    if starts.is_empty() {
        starts.push(0);
    }
    starts
}

/// Checks that a per-dimension `block` list has one entry per dimension.
fn check_block_len(call: &'static str, block: &[i64], n: usize) -> GaResult<()> {
    if block.len() != n {
        return Err(GaError::new(
            call,
            format!(
                "block has {} entries for a {n}-dimensional array",
                block.len()
            ),
        ));
    }
    Ok(())
}

/// The block starts of an irregular distribution: `block[d]` blocks along
/// dimension d starting at the 0-based offsets in `map` (dimension 0's
/// first), checked.
fn irregular_starts(
    call: &'static str,
    dims: &[i64],
    block: &[i64],
    map: &[i64],
) -> GaResult<Vec<Vec<i64>>> {
    let n = dims.len();
    check_block_len(call, block, n)?;
    let total = block.iter().try_fold(0i64, |t, &b| t.checked_add(b));
    if block.iter().any(|&b| b < 1) || total != Some(map.len() as i64) {
        return Err(GaError::new(
            call,
            format!(
                "block {block:?} needs {} map entries, got {}",
                total.map_or("too many".to_string(), |t| t.to_string()),
                map.len()
            ),
        ));
    }
    let mut out = Vec::new();
    let mut k = 0usize;
    for d in 0..n {
        let s: Vec<i64> = map[k..k + block[d] as usize].to_vec();
        k += block[d] as usize;
        let ok = s[0] == 0
            && s.windows(2).all(|w| w[0] < w[1])
            && s.last().is_some_and(|&l| l < dims[d]);
        if !ok {
            return Err(GaError::new(
                call,
                format!(
                    "map of dimension {d} {s:?} must start at 0 and increase strictly below {}",
                    dims[d]
                ),
            ));
        }
        out.push(s);
    }
    Ok(out)
}

/// Blocks dealt over the process grid `g` (C order), which must have `n`
/// positive entries holding exactly `nproc` processes.
fn proc_grid_deal(call: &'static str, n: usize, nproc: i64, g: &[i64]) -> GaResult<Deal> {
    if g.len() != n || g.iter().any(|&x| x < 1) {
        return Err(GaError::new(
            call,
            format!("process grid {g:?} needs {n} positive entries"),
        ));
    }
    let prod = g.iter().try_fold(1i64, |p, &x| p.checked_mul(x));
    if prod != Some(nproc) {
        return Err(GaError::new(
            call,
            format!("process grid {g:?} does not hold exactly {nproc} processes"),
        ));
    }
    Ok(Deal::ProcGrid(g.to_vec()))
}

impl Grid {
    /// The grid for `dist` of an array of `dims` over `nproc` ranks.
    pub fn new(
        call: &'static str,
        dims: &[i64],
        nproc: i64,
        dist: &Distribution,
    ) -> GaResult<Grid> {
        let n = dims.len();
        let mut deal = Deal::OnePerProcess;
        let starts = match dist {
            Distribution::Default => Grid::regular(dims, nproc, &vec![0; n]),
            Distribution::Chunk(c) => {
                if c.len() != n {
                    return Err(GaError::new(
                        call,
                        format!("chunk has {} entries for a {n}-dimensional array", c.len()),
                    ));
                }
                Grid::regular(dims, nproc, c)
            }
            Distribution::Irregular { block, map } => {
                let starts = irregular_starts(call, dims, block, map)?;
                let prod = block.iter().try_fold(1i64, |p, &b| p.checked_mul(b));
                if prod.is_none_or(|p| p > nproc) {
                    return Err(GaError::new(
                        call,
                        format!(
                            "block {block:?} makes {} blocks for {nproc} processes",
                            prod.map_or("too many".to_string(), |p| p.to_string())
                        ),
                    ));
                }
                starts
            }
            Distribution::TiledIrregular { block, map, grid } => {
                let starts = irregular_starts(call, dims, block, map)?;
                let total = block.iter().try_fold(1i64, |p, &b| p.checked_mul(b));
                if total.is_none_or(|t| t > MAX_BLOCKS) {
                    return Err(GaError::new(
                        call,
                        format!("block {block:?} makes more than {MAX_BLOCKS} tiles"),
                    ));
                }
                deal = proc_grid_deal(call, n, nproc, grid)?;
                starts
            }
            Distribution::BlockCyclic { block, grid } => {
                let (starts, d) = Grid::cyclic(call, dims, nproc, block, grid.as_deref())?;
                deal = d;
                starts
            }
        };
        Ok(Grid {
            dims: dims.to_vec(),
            starts,
            deal,
        })
    }

    /// Block starts and the deal of a block-cyclic distribution, checked.
    fn cyclic(
        call: &'static str,
        dims: &[i64],
        nproc: i64,
        block: &[i64],
        grid: Option<&[i64]>,
    ) -> GaResult<(Vec<Vec<i64>>, Deal)> {
        let n = dims.len();
        check_block_len(call, block, n)?;
        if let Some(d) = (0..n).find(|&d| block[d] < 1) {
            return Err(GaError::new(
                call,
                format!("block size {} in dimension {d} must be positive", block[d]),
            ));
        }
        let counts: Vec<i64> = (0..n).map(|d| (dims[d] - 1) / block[d] + 1).collect();
        let total = counts.iter().try_fold(1i64, |p, &c| p.checked_mul(c));
        if total.is_none_or(|t| t > MAX_BLOCKS) {
            return Err(GaError::new(
                call,
                format!(
                    "blocks of {block:?} cut the array {dims:?} into more than {MAX_BLOCKS} blocks"
                ),
            ));
        }
        let deal = match grid {
            None => Deal::RoundRobin(nproc.max(1)),
            Some(g) => proc_grid_deal(call, n, nproc, g)?,
        };
        let starts = (0..n)
            .map(|d| (0..counts[d]).map(|b| b * block[d]).collect())
            .collect();
        Ok((starts, deal))
    }

    /// Whether blocks are dealt out cyclically (a process may hold several).
    pub fn is_cyclic(&self) -> bool {
        self.deal != Deal::OnePerProcess
    }

    /// The process (rank in the array's group) holding block `b`.
    pub fn process_of_block(&self, b: i64) -> i64 {
        match &self.deal {
            Deal::OnePerProcess => b,
            Deal::RoundRobin(np) => b % np,
            Deal::ProcGrid(pg) => {
                let mut rest = b;
                let mut coord = [0i64; MAX_DIM];
                for d in (0..self.ndim()).rev() {
                    let nb = self.starts[d].len() as i64;
                    coord[d] = rest % nb;
                    rest /= nb;
                }
                (0..self.ndim()).fold(0, |p, d| p * pg[d] + coord[d] % pg[d])
            }
        }
    }

    /// The blocks process `p` holds, in increasing block order.
    pub fn blocks_of_process(&self, p: i64) -> Vec<i64> {
        match &self.deal {
            Deal::OnePerProcess => {
                if p >= 0 && p < self.total_blocks() {
                    vec![p]
                } else {
                    vec![]
                }
            }
            _ => (0..self.total_blocks())
                .filter(|&b| self.process_of_block(b) == p)
                .collect(),
        }
    }

    /// The block of process `p` when each process holds at most one
    /// (`None` for block-cyclic arrays and for processes holding none).
    pub fn own_block(&self, p: i64) -> Option<([i64; MAX_DIM], [i64; MAX_DIM])> {
        if self.is_cyclic() {
            return None;
        }
        self.block_of(p)
    }

    /// GA 5.8's regular distribution for `nproc` processes with the
    /// chunk hints `chunk` (C order; 0 or less: no minimum). GA reasons in
    /// Fortran order, so axis `a` below is C dimension `n - 1 - a`. A
    /// positive hint is the smallest block along its axis: the axis is
    /// counted in hint-sized pieces when the processes are spread. As in
    /// GA, a zero hint for the first axis (C's last dimension) drops the
    /// hints from the spreading, though a hint above 1 still sets the
    /// piece the blocks are made of.
    fn regular(dims: &[i64], nproc: i64, chunk: &[i64]) -> Vec<Vec<i64>> {
        let n = dims.len();
        let extent: Vec<i64> = (0..n).map(|a| dims[n - 1 - a].max(1)).collect();
        let hint: Vec<i64> = (0..n).map(|a| chunk[n - 1 - a]).collect();
        let hints_spread = hint[0] != 0;
        let units: Vec<i64> = (0..n)
            .map(|a| {
                let unit = if hints_spread && hint[a] >= 1 {
                    hint[a].min(extent[a])
                } else {
                    1
                };
                div_up(extent[a], unit).max(1)
            })
            .collect();
        let along = processes_per_axis(&units, nproc);
        let mut starts: Vec<Vec<i64>> = (0..n)
            .map(|a| {
                let per = div_up(units[a], along[a]);
                let piece = if hint[a] > 1 {
                    hint[a].min(extent[a])
                } else {
                    1
                };
                axis_starts(extent[a], along[a], per, piece)
            })
            .collect();
        starts.reverse();
        starts
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.dims.len()
    }

    /// Blocks along each dimension.
    pub fn nblocks(&self) -> Vec<i64> {
        self.starts.iter().map(|s| s.len() as i64).collect()
    }

    /// Number of blocks (= ranks that own data).
    pub fn total_blocks(&self) -> i64 {
        self.starts.iter().map(|s| s.len() as i64).product()
    }

    fn block_hi(&self, d: usize, b: usize) -> i64 {
        self.starts[d]
            .get(b + 1)
            .map(|&s| s - 1)
            .unwrap_or(self.dims[d] - 1)
    }

    /// Block number `p` (for arrays with one block per process, process
    /// p's block): lo, hi (inclusive); `None` if there is no such block.
    pub fn block_of(&self, p: i64) -> Option<([i64; MAX_DIM], [i64; MAX_DIM])> {
        if p < 0 || p >= self.total_blocks() {
            return None;
        }
        let mut lo = [0; MAX_DIM];
        let mut hi = [0; MAX_DIM];
        let mut rest = p;
        for d in (0..self.ndim()).rev() {
            let nb = self.starts[d].len() as i64;
            let b = (rest % nb) as usize;
            rest /= nb;
            lo[d] = self.starts[d][b];
            hi[d] = self.block_hi(d, b);
        }
        Some((lo, hi))
    }

    /// Block index along d holding index i.
    fn block_index(&self, d: usize, i: i64) -> usize {
        self.starts[d]
            .partition_point(|&s| s <= i)
            .saturating_sub(1)
    }

    /// Block holding element `subs` (checked by the caller); for arrays
    /// with one block per process, its owner.
    pub fn owner(&self, subs: &[i64]) -> i64 {
        let mut p = 0i64;
        for d in 0..self.ndim() {
            p = p * self.starts[d].len() as i64 + self.block_index(d, subs[d]) as i64;
        }
        p
    }

    /// Checks that `lo..=hi` is a non-empty patch inside the array.
    pub fn check_patch(
        &self,
        call: &'static str,
        name: &str,
        lo: &[i64],
        hi: &[i64],
    ) -> GaResult<()> {
        let n = self.ndim();
        if lo.len() < n || hi.len() < n {
            return Err(GaError::new(
                call,
                format!("lo/hi need {n} entries for g_a '{name}'"),
            ));
        }
        let inside = (0..n).all(|d| 0 <= lo[d] && lo[d] <= hi[d] && hi[d] < self.dims[d]);
        if !inside {
            let zeros = vec![0; n];
            let top: Vec<i64> = self.dims.iter().map(|x| x - 1).collect();
            return Err(GaError::new(
                call,
                format!(
                    "patch {} outside g_a '{}' {}",
                    fmt_patch(&lo[..n], &hi[..n]),
                    name,
                    fmt_patch(&zeros, &top)
                ),
            ));
        }
        Ok(())
    }

    /// Calls `f(block, plo, phi)` for each block's part of the (checked)
    /// patch ([`Grid::process_of_block`] names its owner).
    pub fn parts<E>(
        &self,
        lo: &[i64],
        hi: &[i64],
        mut f: impl FnMut(i64, &[i64; MAX_DIM], &[i64; MAX_DIM]) -> Result<(), E>,
    ) -> Result<(), E> {
        let n = self.ndim();
        let mut bl = [0usize; MAX_DIM];
        let mut bh = [0usize; MAX_DIM];
        for d in 0..n {
            bl[d] = self.block_index(d, lo[d]);
            bh[d] = self.block_index(d, hi[d]);
        }
        let mut b = bl;
        loop {
            let mut plo = [0i64; MAX_DIM];
            let mut phi = [0i64; MAX_DIM];
            let mut owner = 0i64;
            for d in 0..n {
                owner = owner * self.starts[d].len() as i64 + b[d] as i64;
                plo[d] = lo[d].max(self.starts[d][b[d]]);
                phi[d] = hi[d].min(self.block_hi(d, b[d]));
            }
            f(owner, &plo, &phi)?;
            let mut d = n;
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                b[d] += 1;
                if b[d] <= bh[d] {
                    break;
                }
                b[d] = bl[d];
            }
        }
    }
}

/// Element strides (C order) of a box of extents `count` (last stride 1).
/// Bytes of a whole array of `dims` with `elem`-byte elements, checked:
/// the count must fit in the address space (`isize::MAX` bytes). The error
/// names `call`, the array, its extents and the byte count that does not fit.
pub fn array_bytes(call: &'static str, name: &str, dims: &[i64], elem: usize) -> GaResult<usize> {
    let exact = dims.iter().try_fold(elem as u128, |acc, &d| {
        u128::try_from(d).ok().and_then(|d| acc.checked_mul(d))
    });
    match exact.and_then(|b| usize::try_from(b).ok()) {
        Some(b) if b <= isize::MAX as usize => Ok(b),
        _ => {
            let shown: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
            let bytes = match exact {
                Some(b) => format!("{b} bytes"),
                None => "more than 2^128 bytes".to_string(),
            };
            Err(GaError::new(
                call,
                format!(
                    "array '{name}' of {} elements of {elem} bytes needs {bytes}, \
                     more than the {} bytes a process can address",
                    shown.join(" x "),
                    isize::MAX
                ),
            ))
        }
    }
}

pub fn strides_of(count: &[usize]) -> [usize; MAX_DIM] {
    let mut s = [0usize; MAX_DIM];
    let n = count.len();
    if n == 0 {
        return s;
    }
    s[n - 1] = 1;
    for d in (0..n - 1).rev() {
        s[d] = s[d + 1] * count[d + 1];
    }
    s
}

/// Whether a patch of `count` elements laid out with `strides` is one
/// contiguous run.
pub fn contiguous(count: &[usize], strides: &[usize]) -> bool {
    let n = count.len();
    let first = match count.iter().position(|&c| c > 1) {
        Some(f) => f,
        None => return true,
    };
    (first + 1..n).all(|d| strides[d - 1] == count[d] * strides[d])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn default_grid_is_debian_ga_5_8s() {
        let g = Grid::new("t", &[10, 10], 4, &Distribution::Default).unwrap();
        assert_eq!(g.nblocks(), vec![2, 2]);
        assert_eq!(
            g.block_of(3),
            Some((
                {
                    let mut a = [0; MAX_DIM];
                    a[0] = 5;
                    a[1] = 5;
                    a
                },
                {
                    let mut a = [0; MAX_DIM];
                    a[0] = 9;
                    a[1] = 9;
                    a
                }
            ))
        );
        // Debian's GA 5.8 gives these (tests/programs/ga/ga_distribution.c
        // compares many more shapes with it).
        let g = Grid::new("t", &[7], 3, &Distribution::Default).unwrap();
        assert_eq!(g.starts, vec![vec![0, 3, 5]]);
        assert_eq!(g.owner(&[5]), 2);
        let g = Grid::new("t", &[3], 4, &Distribution::Default).unwrap();
        assert_eq!(g.starts, vec![vec![0, 1, 2]]);
        let g = Grid::new("t", &[2, 100], 4, &Distribution::Default).unwrap();
        assert_eq!(g.starts, vec![vec![0, 1], vec![0, 50]]);
        let g = Grid::new("t", &[12, 10], 2, &Distribution::Default).unwrap();
        assert_eq!(g.starts, vec![vec![0], vec![0, 5]]);
    }

    #[test]
    fn chunk_hints_as_debian_ga_5_8_reads_them() {
        // A hint is counted in pieces: 10 pieces of 10 on 4 processes.
        let c = Distribution::Chunk(vec![10]);
        let g = Grid::new("t", &[100], 4, &c).unwrap();
        assert_eq!(g.starts, vec![vec![0, 30, 60, 80]]);
        // A zero hint for the last dimension leaves the spreading to the
        // extents; the other hint still sets the piece size (9 + 3).
        let c = Distribution::Chunk(vec![3, 0]);
        let g = Grid::new("t", &[12, 10], 3, &c).unwrap();
        assert_eq!(g.starts, vec![vec![0, 9], vec![0]]);
        let c = Distribution::Chunk(vec![5, -1]);
        let g = Grid::new("t", &[12, 10], 3, &c).unwrap();
        assert_eq!(g.starts, vec![vec![0, 5, 10], vec![0]]);
    }

    #[test]
    fn extents_up_to_i64_max_split_without_overflow() {
        let g = Grid::new("t", &[i64::MAX], 4, &Distribution::Default).unwrap();
        assert_eq!(g.nblocks(), vec![4]);
        assert_eq!(g.starts[0][1], i64::MAX / 4 + 1);
        // Three pieces (the last of one element) on 4 processes.
        let c = Distribution::Chunk(vec![i64::MAX / 2]);
        let g = Grid::new("t", &[i64::MAX], 4, &c).unwrap();
        assert_eq!(g.nblocks(), vec![3]);
        assert_eq!(g.starts[0][2], i64::MAX - 1);
        assert!(array_bytes("NGA_Create64", "x", &[i64::MAX], 1).is_ok());
        let e = array_bytes("NGA_Create64", "x", &[i64::MAX], 2).unwrap_err();
        assert!(
            e.message.contains("needs 18446744073709551614 bytes"),
            "{e}"
        );
        let huge = Distribution::Irregular {
            block: vec![i64::MAX, i64::MAX],
            map: vec![0],
        };
        assert!(Grid::new("t", &[5, 9], 4, &huge).is_err());
    }

    #[test]
    fn chunk_limits_blocks() {
        let g = Grid::new("t", &[10, 10], 4, &Distribution::Chunk(vec![10, -1])).unwrap();
        assert_eq!(g.nblocks(), vec![1, 4]);
    }

    #[test]
    fn irregular_checks_map() {
        let d = Distribution::Irregular {
            block: vec![2, 2],
            map: vec![0, 3, 0, 7],
        };
        let g = Grid::new("t", &[5, 9], 4, &d).unwrap();
        assert_eq!(g.owner(&[4, 8]), 3);
        assert_eq!(g.owner(&[2, 7]), 1);
        let bad = Distribution::Irregular {
            block: vec![2, 2],
            map: vec![0, 3, 4, 7],
        };
        assert!(Grid::new("t", &[5, 9], 4, &bad).is_err());
        let many = Distribution::Irregular {
            block: vec![3, 2],
            map: vec![0, 1, 2, 0, 7],
        };
        assert!(Grid::new("t", &[5, 9], 4, &many).is_err());
    }

    #[test]
    fn parts_cover_patch_once() {
        let g = Grid::new("t", &[10, 10], 4, &Distribution::Default).unwrap();
        let mut seen = vec![0; 100];
        g.parts(&[3, 2], &[7, 8], |o, lo, hi| -> Result<(), ()> {
            for i in lo[0]..=hi[0] {
                for j in lo[1]..=hi[1] {
                    assert_eq!(g.owner(&[i, j]), o);
                    seen[(i * 10 + j) as usize] += 1;
                }
            }
            Ok(())
        })
        .unwrap();
        let n: i32 = seen.iter().sum();
        assert_eq!(n, 5 * 7);
        assert!(seen.iter().all(|&c| c <= 1));
    }

    #[test]
    fn block_cyclic_deals_blocks_round_robin_or_by_grid() {
        let rr = Distribution::BlockCyclic {
            block: vec![2, 2],
            grid: None,
        };
        let g = Grid::new("t", &[7, 5], 4, &rr).unwrap();
        assert_eq!(g.nblocks(), vec![4, 3]);
        assert_eq!(g.owner(&[6, 4]), 11);
        assert_eq!(g.process_of_block(11), 3);
        assert_eq!(g.blocks_of_process(1), vec![1, 5, 9]);
        assert!(g.own_block(1).is_none());
        let pg = Distribution::BlockCyclic {
            block: vec![2, 2],
            grid: Some(vec![2, 2]),
        };
        let g = Grid::new("t", &[7, 5], 4, &pg).unwrap();
        // Block (0, 1) is at grid (0, 1): process 1; block (1, 0): process 2.
        assert_eq!(g.process_of_block(1), 1);
        assert_eq!(g.process_of_block(3), 2);
        assert_eq!(g.blocks_of_process(3), vec![4, 10]);
        let bad = Distribution::BlockCyclic {
            block: vec![2, 2],
            grid: Some(vec![3, 1]),
        };
        assert!(Grid::new("t", &[7, 5], 4, &bad).is_err());
        let zero = Distribution::BlockCyclic {
            block: vec![0, 2],
            grid: None,
        };
        assert!(Grid::new("t", &[7, 5], 4, &zero).is_err());
    }

    #[test]
    fn contiguity() {
        assert!(contiguous(&[1, 5], &[100, 1]));
        assert!(contiguous(&[3, 5], &[5, 1]));
        assert!(!contiguous(&[3, 5], &[6, 1]));
        assert!(contiguous(&[1, 1, 4], &[9, 9, 1]));
    }

    /// An array's shape, rank count and chunk minimums, and a patch inside
    /// it, with up to three dimensions.
    fn grid_and_patch() -> impl Strategy<Value = (Vec<i64>, i64, Vec<i64>, Vec<i64>, Vec<i64>)> {
        (1usize..=3)
            .prop_flat_map(|n| {
                (
                    proptest::collection::vec(1i64..=9, n),
                    1i64..=6,
                    proptest::collection::vec(0i64..=4, n),
                )
            })
            .prop_flat_map(|(dims, nproc, chunk)| {
                let corners: Vec<_> = dims.iter().map(|&d| (0..d, 0..d)).collect();
                (Just(dims), Just(nproc), Just(chunk), corners)
            })
            .prop_map(|(dims, nproc, chunk, corners)| {
                let lo = corners.iter().map(|&(a, b)| a.min(b)).collect();
                let hi = corners.iter().map(|&(a, b)| a.max(b)).collect();
                (dims, nproc, chunk, lo, hi)
            })
    }

    /// Every element of `lo..=hi`, in C order.
    fn elements(lo: &[i64], hi: &[i64]) -> Vec<Vec<i64>> {
        let mut out = vec![vec![]];
        for d in 0..lo.len() {
            out = out
                .into_iter()
                .flat_map(|e| {
                    (lo[d]..=hi[d]).map(move |i| {
                        let mut e = e.clone();
                        e.push(i);
                        e
                    })
                })
                .collect();
        }
        out
    }

    proptest! {
        /// Against a model that asks the owner of every single element:
        /// `parts` cuts a patch into pieces that cover each element once,
        /// each inside the block of the owner it names, and that owner is
        /// the element's owner.
        #[test]
        fn parts_of_a_patch_match_the_owner_of_each_element(
            (dims, nproc, chunk, lo, hi) in grid_and_patch(),
            chunked in proptest::bool::ANY,
        ) {
            let dist = if chunked { Distribution::Chunk(chunk) } else { Distribution::Default };
            let g = Grid::new("t", &dims, nproc, &dist).unwrap();
            prop_assert!(g.total_blocks() <= nproc);
            g.check_patch("t", "a", &lo, &hi).unwrap();
            let n = dims.len();
            let mut seen = std::collections::HashMap::new();
            g.parts(&lo, &hi, |owner, plo, phi| -> Result<(), TestCaseError> {
                let (blo, bhi) = g.block_of(owner).expect("a part's owner has a block");
                for d in 0..n {
                    prop_assert!(blo[d] <= plo[d] && plo[d] <= phi[d] && phi[d] <= bhi[d]);
                }
                for e in elements(&plo[..n], &phi[..n]) {
                    prop_assert_eq!(g.owner(&e), owner);
                    *seen.entry(e).or_insert(0) += 1;
                }
                Ok(())
            })?;
            let all = elements(&lo, &hi);
            prop_assert_eq!(seen.len(), all.len());
            for e in all {
                prop_assert_eq!(seen.get(&e).copied(), Some(1), "element {:?}", e);
            }
        }
    }
}
