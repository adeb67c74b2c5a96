//! Property checks of the HPF run-time on every process: random shapes
//! (extents 0, 1 and sizes no process count divides), distributions
//! (collapsed, BLOCK, CYCLIC, CYCLIC(k), GEN_BLOCK with random sizes, arrays
//! held at a fixed coordinate of a grid dimension they are not spread over),
//! overlap widths and grids of 1 to 3 dimensions, also gather and scatter
//! through index arrays; every distributed result is compared with a serial
//! reference each process computes itself (integers exactly, reals within
//! the bound the documented reduction order gives). Usage: `hpf_props
//! SEED TRIALS`. Prints "hpf_props rank R: P passed, F failed".

use hpf_rts::reduce_dim::{LogicalOp, NumOp};
use hpf_rts::{DArray, Dad, DimSpec, Dist, Element, Gemm, ProcGrid, Section, Subscript};
use std::sync::Arc;
use tests::{check, check_eq};

/// Deterministic pseudo-random numbers (the same on every process).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn hash(seed: u64, i: u64) -> u64 {
    Rng(seed ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d)).next()
}

/// What the checks need of an element type.
trait Probe: Element + Gemm {
    /// A value from a hash: few distinct values, so ties happen.
    fn from_hash(h: u64) -> Self;
    /// A value near 1 (for PRODUCT of reals; any small integer otherwise).
    fn near_one(h: u64) -> Self;
    fn to_f64(self) -> f64;
    const EPS: f64;
    fn exact() -> bool {
        Self::EPS == 0.0
    }
}

/// Implements [`Probe`] for `$t`: `from_hash` and `near_one` map the hash
/// `h` by the expressions given, `EPS` is `$eps`.
macro_rules! probe {
    ($t:ty, eps $eps:expr, |$h:ident| from_hash $fh:expr, near_one $no:expr) => {
        impl Probe for $t {
            fn from_hash($h: u64) -> Self {
                $fh
            }
            fn near_one($h: u64) -> Self {
                $no
            }
            #[allow(clippy::unnecessary_cast)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            const EPS: f64 = $eps;
        }
    };
}

probe!(i32, eps 0.0, |h| from_hash (h % 101) as i32 - 50, near_one (h % 7) as i32 - 3);
probe!(i64, eps 0.0, |h| from_hash (h % 1_000_003) as i64 - 500_000, near_one (h % 5) as i64 - 2);
probe!(f64, eps f64::EPSILON,
    |h| from_hash ((h % 4001) as f64 - 2000.0) / 64.0, near_one 0.75 + (h % 1001) as f64 / 2000.0);
probe!(f32, eps f32::EPSILON as f64,
    |h| from_hash ((h % 4001) as f32 - 2000.0) / 64.0, near_one 0.75 + (h % 1001) as f32 / 2000.0);

/// Whether a distributed sum-like result is within the rounding bound of
/// the reference: two orders of at most n + P additions each.
fn close<T: Probe>(got: T, want: T, terms: usize, nprocs: usize, magnitude: f64) -> bool {
    if T::exact() {
        return got == want;
    }
    let bound = 2.0 * (terms + nprocs + 1) as f64 * T::EPS * magnitude;
    (got.to_f64() - want.to_f64()).abs() <= bound
}

/// Column-major subscripts (0-based offsets) of linear position `pos`.
fn unlinear(shape: &[usize], mut pos: usize) -> Vec<usize> {
    shape
        .iter()
        .map(|&n| {
            let i = pos % n;
            pos /= n;
            i
        })
        .collect()
}

fn linear(shape: &[usize], g: &[usize]) -> usize {
    shape
        .iter()
        .zip(g)
        .rev()
        .fold(0, |acc, (&n, &i)| acc * n + i)
}

/// The indexed array of a gather/scatter trial: a random grid, rank `low`
/// or `low + 1`, extents 1 to `most`, lower bounds -2 to 2, a random DAD
/// (overlap areas allowed).
fn random_indexed<'a>(
    rng: &mut Rng,
    grids: &'a [Arc<ProcGrid>],
    low: usize,
    most: u64,
) -> (&'a Arc<ProcGrid>, Vec<usize>, Vec<i64>, Dad) {
    let grid = pick_grid(rng, grids);
    let rank = low + rng.below(2) as usize;
    let shape: Vec<usize> = (0..rank).map(|_| 1 + rng.below(most) as usize).collect();
    let lbs: Vec<i64> = (0..rank).map(|_| rng.below(5) as i64 - 2).collect();
    let ad = random_dad(rng, grid, &shape, &lbs, true);
    (grid, shape, lbs, ad)
}

/// A random shape of index arrays (rank 1 or 2, extents below `most`)
/// and per position (column-major) a random cell of an array of `size`
/// cells, repeats allowed.
fn random_picks(rng: &mut Rng, most: u64, size: usize) -> (Vec<usize>, Vec<usize>) {
    let vshape: Vec<usize> = (0..1 + rng.below(2) as usize)
        .map(|_| rng.below(most) as usize)
        .collect();
    let m: usize = vshape.iter().product();
    let picks = (0..m).map(|_| rng.below(size as u64) as usize).collect();
    (vshape, picks)
}

/// Column-major linear position of subscripts `s` of an array of shape
/// `shape` with lower bounds `lbs`.
fn position(shape: &[usize], lbs: &[i64], s: &[i64]) -> usize {
    let g: Vec<usize> = s.iter().zip(lbs).map(|(&x, &l)| (x - l) as usize).collect();
    linear(shape, &g)
}

/// `n` elements split into `p` random block sizes (zeros allowed).
fn random_sizes(rng: &mut Rng, n: usize, p: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = (1..p).map(|_| rng.below(n as u64 + 1) as usize).collect();
    cuts.sort_unstable();
    cuts.push(n);
    let mut prev = 0;
    cuts.iter()
        .map(|&c| {
            let s = c - prev;
            prev = c;
            s
        })
        .collect()
}

fn random_dad(
    rng: &mut Rng,
    grid: &Arc<ProcGrid>,
    shape: &[usize],
    lbs: &[i64],
    overlap: bool,
) -> Dad {
    let gdims = grid.dims().len();
    let mut free: Vec<usize> = (0..gdims).collect();
    let specs: Vec<DimSpec> = shape
        .iter()
        .zip(lbs)
        .map(|(&n, &lb)| {
            let pick = rng.below(7);
            let dist = match pick {
                0 => Dist::Collapsed,
                1 | 2 => Dist::Block,
                3 => Dist::Cyclic,
                4 => Dist::BlockCyclic(1 + rng.below(4) as usize),
                // GEN_BLOCK (pick 5), or aligned to a template (pick 6):
                // made once the grid dimension is.
                _ => Dist::gen_block(&[]),
            };
            if dist == Dist::Collapsed || free.is_empty() {
                let w = if overlap { rng.below(3) as usize } else { 0 };
                return DimSpec::new(lb, n, Dist::Collapsed, 0)
                    .with_overlap(w, rng.below(w as u64 + 1) as usize);
            }
            let pd = free.remove(rng.below(free.len() as u64) as usize);
            let spec = match dist {
                _ if pick == 6 => random_aligned(rng, grid, lb, n, pd).0,
                Dist::GenBlock(_) => DimSpec::new(
                    lb,
                    n,
                    Dist::gen_block(&random_sizes(rng, n, grid.dims()[pd])),
                    pd,
                ),
                other => DimSpec::new(lb, n, other, pd),
            };
            let contiguous = spec.dist.contiguous();
            if contiguous && overlap {
                spec.with_overlap(rng.below(4) as usize, rng.below(3) as usize)
            } else {
                spec
            }
        })
        .collect();
    // Half the grid dimensions left free are fixed at a random coordinate
    // (a fixed template position): only that slice of the grid holds the
    // array.
    let mut at = Vec::new();
    for g in free {
        if rng.below(2) == 0 {
            at.push((g, rng.below(grid.dims()[g] as u64) as usize));
        }
    }
    Dad::new_at(grid, &specs, &at).expect("random DAD")
}

/// A dimension `lb : lb+n-1` aligned `A(i) WITH T(s*i + o)` to a random
/// template dimension on grid dimension `pd`: BLOCK, GEN_BLOCK, CYCLIC or
/// CYCLIC(k), stride -3 to 3 (0 included), a random template lower bound
/// and room on either side. Returns the spec and the template's DAD.
fn random_aligned(
    rng: &mut Rng,
    grid: &Arc<ProcGrid>,
    lb: i64,
    n: usize,
    pd: usize,
) -> (DimSpec, Dad, hpf_rts::Align) {
    let stride = rng.below(7) as i64 - 3;
    let span = stride.unsigned_abs() as usize * n.saturating_sub(1) + 1;
    let nt = span + rng.below(12) as usize;
    let tlb = rng.below(5) as i64 - 2;
    // The template cell (0-based) of the lowest-placed element.
    let low = rng.below((nt - span) as u64 + 1) as i64;
    // T(stride*lb + offset) is the first element's cell.
    let first = if stride < 0 {
        low + span as i64 - 1
    } else {
        low
    };
    let offset = tlb + first - stride * lb;
    let p = grid.dims()[pd];
    let tdist = match rng.below(4) {
        0 => Dist::Block,
        1 => Dist::gen_block(&random_sizes(rng, nt, p)),
        2 => Dist::Cyclic,
        _ => Dist::BlockCyclic(1 + rng.below(5) as usize),
    };
    let align = hpf_rts::Align {
        template_lb: tlb,
        template_extent: nt,
        template_dist: tdist.clone(),
        stride,
        offset,
    };
    let spec = DimSpec::aligned(grid, lb, n, pd, align.clone()).expect("aligned spec");
    let td = Dad::new(grid, &[DimSpec::new(tlb, nt, tdist, pd)]).expect("template");
    (spec, td, align)
}

/// The distribution and grid dimension of each dimension of `d`.
fn layout(d: &Dad) -> Vec<(Dist, usize)> {
    d.dims()
        .iter()
        .map(|d| (d.spec.dist.clone(), d.spec.pdim))
        .collect()
}

/// The result of `f`, gathered whole, given `mask` one time in two at
/// random (`None` otherwise), and whether it was; `what` names `f` in a
/// failure.
fn maybe_masked<U: Element>(
    rng: &mut Rng,
    mask: &DArray<i32>,
    what: &str,
    f: impl FnOnce(Option<&DArray<i32>>) -> hpf_rts::error::HpfResult<DArray<U>>,
) -> (bool, Vec<U>) {
    let use_mask = rng.below(2) == 0;
    let got = f(use_mask.then_some(mask)).expect(what);
    (use_mask, got.to_global().expect("gather"))
}

/// One of the test's processor grids, at random.
fn pick_grid<'a>(rng: &mut Rng, grids: &'a [Arc<ProcGrid>]) -> &'a Arc<ProcGrid> {
    &grids[rng.below(grids.len() as u64) as usize]
}

/// `rank` random extents: 0 and 1 each one time in `odds`, otherwise 2
/// and up, below `2 + most` (`most.1` for rank 3, `most.0` else).
fn random_extents(rng: &mut Rng, rank: usize, odds: u64, most: (u64, u64)) -> Vec<usize> {
    (0..rank)
        .map(|_| match rng.below(odds) {
            0 => 0,
            1 => 1,
            _ => 2 + rng.below(if rank == 3 { most.1 } else { most.0 }) as usize,
        })
        .collect()
}

fn trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>], nprocs: usize) {
    let grid = pick_grid(rng, grids);
    let rank = 1 + rng.below(3) as usize;
    let shape: Vec<usize> = random_extents(rng, rank, 6, (15, 6));
    let lbs: Vec<i64> = (0..rank).map(|_| rng.below(7) as i64 - 3).collect();
    let dad = random_dad(rng, grid, &shape, &lbs, true);
    let n: usize = shape.iter().product();
    let what = format!(
        "{:?} shape {shape:?} lbs {lbs:?} grid {:?} dad {:?}",
        T::KIND,
        grid.dims(),
        dad.dims()
            .iter()
            .map(|d| (d.spec.dist.clone(), d.spec.pdim, d.spec.olo, d.spec.ohi))
            .collect::<Vec<_>>()
    );
    if std::env::var_os("HPF_PROPS_TRACE").is_some() {
        eprintln!("rank {}: trial {what}", grid.rank());
    }
    let value = |sub: &[i64]| -> (usize, Vec<usize>) {
        let g: Vec<usize> = sub
            .iter()
            .zip(&lbs)
            .map(|(&s, &lb)| (s - lb) as usize)
            .collect();
        (linear(&shape, &g), g)
    };
    let reference: Vec<T> = (0..n).map(|p| T::from_hash(hash(seed, p as u64))).collect();
    let a = DArray::<T>::from_fn(&dad, |sub| reference[value(sub).0]);

    check_eq!(a.to_global().expect("gather"), reference, "gather {what}");

    // SUM, PRODUCT, MAXVAL, MINVAL.
    let magnitude: f64 = reference.iter().map(|x| x.to_f64().abs()).sum();
    let want = reference.iter().fold(T::zero(), |s, &x| s.plus(x));
    let got = a.sum().expect("sum");
    check!(
        close(got, want, n, nprocs, magnitude),
        "SUM {got:?} vs {want:?}: {what}"
    );
    let pref: Vec<T> = (0..n)
        .map(|p| T::near_one(hash(seed ^ 0xabc, p as u64)))
        .collect();
    let pa = DArray::<T>::from_fn(&dad, |sub| pref[value(sub).0]);
    let want = pref.iter().fold(T::one(), |s, &x| s.times(x));
    let got = pa.product().expect("product");
    check!(
        close(got, want, n, nprocs, want.to_f64().abs()),
        "PRODUCT {got:?} vs {want:?}: {what}"
    );
    let want = reference
        .iter()
        .fold(T::neg_huge(), |m, &x| if x > m { x } else { m });
    check_eq!(a.maxval().expect("maxval"), want, "MAXVAL {what}");
    let want = reference
        .iter()
        .fold(T::huge(), |m, &x| if x < m { x } else { m });
    check_eq!(a.minval().expect("minval"), want, "MINVAL {what}");

    // COUNT, ALL, ANY.
    let cut = T::from_hash(hash(seed, 999_999));
    let want = reference.iter().filter(|&&x| x > cut).count() as i64;
    check_eq!(a.count(|x| x > cut).expect("count"), want, "COUNT {what}");
    check_eq!(
        a.all(|x| x > cut).expect("all"),
        reference.iter().all(|&x| x > cut),
        "ALL {what}"
    );
    check_eq!(
        a.any(|x| x > cut).expect("any"),
        reference.iter().any(|&x| x > cut),
        "ANY {what}"
    );

    // The reductions with MASK (whole array) and with DIM (and MASK).
    let mref: Vec<i32> = (0..n)
        .map(|p| i32::from(!hash(seed ^ 0x3a5c, p as u64).is_multiple_of(3)))
        .collect();
    let mask = DArray::<i32>::from_fn(&dad, |sub| mref[value(sub).0]);
    let ops = [NumOp::Sum, NumOp::Product, NumOp::Maxval, NumOp::Minval];
    let fold = |op: NumOp, acc: T, x: T| match op {
        NumOp::Sum => acc.plus(x),
        NumOp::Product => acc.times(x),
        NumOp::Maxval => {
            if x > acc {
                x
            } else {
                acc
            }
        }
        NumOp::Minval => {
            if x < acc {
                x
            } else {
                acc
            }
        }
    };
    let identity = |op: NumOp| match op {
        NumOp::Sum => T::zero(),
        NumOp::Product => T::one(),
        NumOp::Maxval => T::neg_huge(),
        NumOp::Minval => T::huge(),
    };
    for op in ops {
        let (src, vals) = if op == NumOp::Product {
            (&pa, &pref)
        } else {
            (&a, &reference)
        };
        let want = (0..n)
            .filter(|&p| mref[p] != 0)
            .fold(identity(op), |acc, p| fold(op, acc, vals[p]));
        let mag: f64 = if op == NumOp::Product {
            want.to_f64().abs()
        } else {
            vals.iter().map(|x| x.to_f64().abs()).sum()
        };
        let got = src
            .reduce_masked(op, Some(&mask))
            .expect("masked reduction");
        check!(
            close(got, want, n, nprocs, mag),
            "{op:?} with MASK {got:?} vs {want:?}: {what}"
        );
    }
    if rank >= 2 {
        let rdim = rng.below(rank as u64) as usize;
        let mut rshape = shape.clone();
        rshape.remove(rdim);
        let mut rlbs = lbs.clone();
        rlbs.remove(rdim);
        let rn: usize = rshape.iter().product();
        let rdad = if rng.below(2) == 0 {
            hpf_rts::reduce_dim::reduced_dad(&dad, rdim).expect("natural DAD")
        } else {
            random_dad(rng, grid, &rshape, &rlbs, true)
        };
        // The reference line of result cell `q` along DIM.
        let line = |q: usize| -> Vec<usize> {
            let mut g = unlinear(&rshape, q);
            g.insert(rdim, 0);
            (0..shape[rdim])
                .map(|i| {
                    g[rdim] = i;
                    linear(&shape, &g)
                })
                .collect()
        };
        for op in ops {
            let (src, vals) = if op == NumOp::Product {
                (&pa, &pref)
            } else {
                (&a, &reference)
            };
            let (use_mask, got) = maybe_masked(rng, &mask, "reduction with DIM", |m| {
                src.reduce_dim(op, rdim, m, &rdad)
            });
            let mut bad = 0;
            for (q, &g) in got.iter().enumerate().take(rn) {
                let ps = line(q);
                let want = ps
                    .iter()
                    .filter(|&&p| !use_mask || mref[p] != 0)
                    .fold(identity(op), |acc, &p| fold(op, acc, vals[p]));
                let mag: f64 = if op == NumOp::Product {
                    want.to_f64().abs()
                } else {
                    ps.iter().map(|&p| vals[p].to_f64().abs()).sum()
                };
                if !close(g, want, ps.len(), nprocs, mag) {
                    bad += 1;
                }
            }
            check_eq!(
                bad,
                0,
                "{op:?} DIM {} mask {use_mask} to {:?}: {what}",
                rdim + 1,
                layout(&rdad)
            );
        }
        for op in [LogicalOp::Count, LogicalOp::All, LogicalOp::Any] {
            let got = mask
                .logical_dim(op, rdim, &rdad)
                .expect("logical reduction with DIM")
                .to_global()
                .expect("gather");
            let want: Vec<i32> = (0..rn)
                .map(|q| {
                    let t = line(q).iter().filter(|&&p| mref[p] != 0).count();
                    match op {
                        LogicalOp::Count => t as i32,
                        LogicalOp::All => i32::from(t == shape[rdim]),
                        LogicalOp::Any => i32::from(t > 0),
                    }
                })
                .collect();
            check_eq!(got, want, "{op:?} DIM {}: {what}", rdim + 1);
        }
        for max in [true, false] {
            let (use_mask, got) = maybe_masked(rng, &mask, "loc with DIM", |m| {
                a.loc_dim(max, rdim, m, &rdad)
            });
            let want: Vec<i64> = (0..rn)
                .map(|q| {
                    let mut best: Option<(usize, T)> = None;
                    for (i, &p) in line(q).iter().enumerate() {
                        if use_mask && mref[p] == 0 {
                            continue;
                        }
                        let x = reference[p];
                        let wins = match best {
                            None => true,
                            Some((_, b)) => {
                                if max {
                                    x > b
                                } else {
                                    x < b
                                }
                            }
                        };
                        if wins {
                            best = Some((i, x));
                        }
                    }
                    best.map_or(0, |(i, _)| i as i64 + 1)
                })
                .collect();
            check_eq!(
                got,
                want,
                "{} DIM {} mask {use_mask}: {what}",
                if max { "MAXLOC" } else { "MINLOC" },
                rdim + 1
            );
        }
    }

    // MAXLOC, MINLOC: 1-based positions of the first extreme.
    let first = |better: &dyn Fn(T, T) -> bool| -> Vec<i64> {
        let mut best: Option<usize> = None;
        for (p, &x) in reference.iter().enumerate() {
            if !matches!(best, Some(b) if !better(x, reference[b])) {
                best = Some(p);
            }
        }
        match best {
            Some(p) => unlinear(&shape, p).iter().map(|&i| i as i64 + 1).collect(),
            None => vec![0; rank],
        }
    };
    check_eq!(
        a.maxloc().expect("maxloc"),
        first(&|x, b| x > b),
        "MAXLOC {what}"
    );
    check_eq!(
        a.minloc().expect("minloc"),
        first(&|x, b| x < b),
        "MINLOC {what}"
    );

    // MAXLOC/MINLOC with MASK: the first extreme among the true elements.
    for max in [true, false] {
        let mut best: Option<usize> = None;
        for (p, &x) in reference.iter().enumerate() {
            if mref[p] == 0 {
                continue;
            }
            let wins = match best {
                None => true,
                Some(b) => {
                    if max {
                        x > reference[b]
                    } else {
                        x < reference[b]
                    }
                }
            };
            if wins {
                best = Some(p);
            }
        }
        let want: Vec<i64> = match best {
            Some(p) => unlinear(&shape, p).iter().map(|&i| i as i64 + 1).collect(),
            None => vec![0; rank],
        };
        check_eq!(
            a.loc_masked(max, Some(&mask)).expect("loc with mask"),
            want,
            "{} with MASK {what}",
            if max { "MAXLOC" } else { "MINLOC" }
        );
    }

    // DOT_PRODUCT on rank-1 arrays.
    if rank == 1 {
        let bref: Vec<T> = (0..n)
            .map(|p| T::from_hash(hash(seed ^ 0x5eed, p as u64)))
            .collect();
        let b = DArray::<T>::from_fn(&dad, |sub| bref[value(sub).0]);
        let want = reference
            .iter()
            .zip(&bref)
            .fold(T::zero(), |s, (&x, &y)| s.plus(x.times(y)));
        let mag: f64 = reference
            .iter()
            .zip(&bref)
            .map(|(x, y)| (x.to_f64() * y.to_f64()).abs())
            .sum();
        let got = a.dot_product(&b).expect("dot");
        check!(
            close(got, want, n, nprocs, mag),
            "DOT_PRODUCT {got:?} vs {want:?}: {what}"
        );
    }

    // CSHIFT along a random dimension.
    let dim = rng.below(rank as u64) as usize;
    let shift = rng.below(4 * shape[dim] as u64 + 1) as i64 - 2 * shape[dim] as i64;
    if std::env::var_os("HPF_PROPS_TRACE").is_some() {
        let s = hpf_rts::schedule::cshift(&dad, dim, shift).expect("plan");
        eprintln!(
            "rank {}: cshift {shift} dim {dim}: send {:?} recv {:?}",
            grid.rank(),
            s.send_counts(),
            s.recv_counts()
        );
    }
    let shifted = a.cshift(shift, dim).expect("cshift");
    // EOSHIFT along the same dimension with a boundary value.
    let boundary = T::from_hash(hash(seed, 4242));
    let eo = a.eoshift(shift, boundary, dim).expect("eoshift");
    // The serial shift of the reference along `dim`: wrapping around
    // (CSHIFT) or `boundary` where it runs off the ends (EOSHIFT).
    let serial_shift = |wrap: bool| -> Vec<T> {
        let m = shape[dim] as i64;
        (0..n)
            .map(|p| {
                let mut g = unlinear(&shape, p);
                let mut j = g[dim] as i64 + shift;
                if wrap {
                    j = j.rem_euclid(m);
                } else if j < 0 || j >= m {
                    return boundary;
                }
                g[dim] = j as usize;
                reference[linear(&shape, &g)]
            })
            .collect()
    };
    for (name, got, wrap) in [("CSHIFT", shifted, true), ("EOSHIFT", eo, false)] {
        check_eq!(
            got.to_global().expect("gather"),
            serial_shift(wrap),
            "{name} shift {shift} dim {} {what}",
            dim + 1
        );
    }

    // SPREAD along a random new dimension (rank 1 and 2 sources).
    if rank < 3 {
        let sdim = rng.below(rank as u64 + 1) as usize;
        let copies = rng.below(4) as usize;
        let mut rshape = shape.clone();
        rshape.insert(sdim, copies);
        let mut rlbs = lbs.clone();
        rlbs.insert(sdim, 1);
        let rdad = random_dad(rng, grid, &rshape, &rlbs, true);
        let sp = a.spread(sdim, &rdad).expect("spread");
        let rn: usize = rshape.iter().product();
        let want: Vec<T> = (0..rn)
            .map(|p| {
                let mut g = unlinear(&rshape, p);
                g.remove(sdim);
                reference[linear(&shape, &g)]
            })
            .collect();
        check_eq!(
            sp.to_global().expect("gather"),
            want,
            "SPREAD dim {} ncopies {copies} to {:?}: {what}",
            sdim + 1,
            layout(&rdad)
        );
    }

    // TRANSPOSE of rank-2 arrays to a random DAD.
    if rank == 2 {
        let tshape = vec![shape[1], shape[0]];
        let tdad = random_dad(rng, grid, &tshape, &[lbs[1], lbs[0]], true);
        let t = a.transpose(&tdad).expect("transpose");
        let want: Vec<T> = (0..n)
            .map(|p| {
                let g = unlinear(&tshape, p);
                reference[linear(&shape, &[g[1], g[0]])]
            })
            .collect();
        check_eq!(
            t.to_global().expect("gather"),
            want,
            "TRANSPOSE to {:?}: {what}",
            layout(&tdad)
        );
    }

    // COPY to a random other DAD and back.
    let other = random_dad(rng, grid, &shape, &lbs, false);
    if std::env::var_os("HPF_PROPS_TRACE").is_some() {
        let s = hpf_rts::schedule::remap(&dad, &other).expect("plan");
        eprintln!(
            "rank {}: remap to {:?}: send {:?} recv {:?}",
            grid.rank(),
            layout(&other),
            s.send_counts(),
            s.recv_counts()
        );
    }
    let b = a
        .remap(&other)
        .unwrap_or_else(|e| panic!("remap {e} to {:?} from {what}", other.dims()));
    check_eq!(
        b.to_global().expect("gather"),
        reference,
        "remap to {:?}: {what}",
        other
            .dims()
            .iter()
            .map(|d| d.spec.dist.clone())
            .collect::<Vec<_>>()
    );
    let mut back = DArray::<T>::new(&dad);
    back.copy_from(&b).expect("copy back");
    check_eq!(
        back.to_global().expect("gather"),
        reference,
        "remap back {what}"
    );

    // Overlap update: every overlap cell holds its owner's value (wrapped
    // where periodic) or keeps the sentinel past a non-periodic end.
    let periodic: Vec<bool> = (0..rank).map(|_| rng.below(2) == 1).collect();
    let sentinel = T::huge();
    let mut h = a.clone();
    for x in h.local_mut().iter_mut() {
        *x = sentinel;
    }
    h.copy_from(&a).expect("fill owned cells");
    if std::env::var_os("HPF_PROPS_TRACE").is_some() {
        let wlo: Vec<usize> = dad.dims().iter().map(|d| d.spec.olo).collect();
        let whi: Vec<usize> = dad.dims().iter().map(|d| d.spec.ohi).collect();
        let s = hpf_rts::schedule::halo(&dad, &wlo, &whi, &periodic).expect("plan");
        eprintln!(
            "rank {}: halo {periodic:?}: send {:?} recv {:?}",
            grid.rank(),
            s.send_counts(),
            s.recv_counts()
        );
    }
    let cached = hpf_rts::schedule::cache_len();
    h.shift_overlap(&periodic).expect("shift overlap");
    let after_first = hpf_rts::schedule::cache_len();
    h.shift_overlap(&periodic).expect("shift overlap again");
    check!(
        after_first <= cached + 1 && hpf_rts::schedule::cache_len() == after_first,
        "halo schedule planned once: {what}"
    );
    let me = grid.rank();
    let counts = dad.counts_of(me);
    let alloc = dad.alloc_of(me);
    let strides = dad.strides_of(me);
    let cells: usize = alloc.iter().product();
    let mut bad = 0;
    for off in 0..cells {
        let pos = unlinear(&alloc, off);
        let mut g = Vec::with_capacity(rank);
        let mut outside = counts.contains(&0);
        for k in 0..rank {
            let d = &dad.dims()[k];
            let c = d.coord(grid.my_coords());
            let l = pos[k] as i64 - d.spec.olo as i64;
            let mut i = if l >= 0 && l < counts[k] as i64 {
                d.global(c, l as usize) as i64
            } else {
                d.global(c, 0) as i64 + l
            };
            if i < 0 || i >= shape[k] as i64 {
                if periodic[k] && shape[k] > 0 {
                    i = i.rem_euclid(shape[k] as i64);
                } else {
                    outside = true;
                }
            }
            g.push(i.max(0) as usize);
        }
        let at: usize = pos.iter().zip(&strides).map(|(p, s)| p * s).sum();
        let want = if outside {
            sentinel
        } else {
            reference[linear(&shape, &g)]
        };
        if h.local()[at] != want {
            bad += 1;
        }
    }
    check_eq!(bad, 0, "overlap cells wrong (periodic {periodic:?}) {what}");
}

/// One array seen through a random section of a given shape: the array's
/// shape and lower bounds, the section, and per section dimension the
/// parent dimension, first offset and step (for the serial model).
struct Viewed {
    shape: Vec<usize>,
    lbs: Vec<i64>,
    section: Section,
    /// Per parent dimension: `Some((first offset, step))` for a triplet,
    /// `Err(offset)` for a scalar subscript.
    axes: Vec<Result<(usize, i64), usize>>,
}

impl Viewed {
    /// Column-major linear position in the parent of section element
    /// `t` (section subscripts, 0-based).
    fn parent_pos(&self, t: &[usize]) -> usize {
        let mut kept = t.iter();
        let g: Vec<usize> = self
            .axes
            .iter()
            .map(|a| match *a {
                Ok((first, step)) => {
                    (first as i64 + *kept.next().expect("section rank") as i64 * step) as usize
                }
                Err(off) => off,
            })
            .collect();
        linear(&self.shape, &g)
    }
}

/// A random array with `scalars` scalar subscripts among the triplets of
/// a section of shape `counts` (strides of either sign, bounds past the
/// last element where Fortran allows it).
fn viewed(rng: &mut Rng, counts: &[usize], scalars: usize) -> Viewed {
    let rank = counts.len() + scalars;
    let mut is_scalar = vec![false; rank];
    let mut placed = 0;
    while placed < scalars {
        let k = rng.below(rank as u64) as usize;
        if !is_scalar[k] {
            is_scalar[k] = true;
            placed += 1;
        }
    }
    let mut next = counts.iter();
    let (mut shape, mut lbs, mut subs, mut axes) = (vec![], vec![], vec![], vec![]);
    for &sc in &is_scalar {
        let lb = rng.below(7) as i64 - 3;
        lbs.push(lb);
        if sc {
            let n = 1 + rng.below(5) as usize;
            let off = rng.below(n as u64) as usize;
            shape.push(n);
            subs.push(Subscript::Scalar(lb + off as i64));
            axes.push(Err(off));
            continue;
        }
        let c = *next.next().expect("count");
        let mag = 1 + rng.below(3) as i64;
        let step = if rng.below(3) == 0 { -mag } else { mag };
        let slack = rng.below(4) as usize;
        let span = if c == 0 {
            0
        } else {
            (c - 1) * mag as usize + 1
        };
        let n = span + slack;
        shape.push(n);
        if c == 0 {
            // An empty triplet; its bounds need not lie in the array.
            let lo = lb + rng.below(n as u64 + 2) as i64;
            let hi = if step > 0 {
                lo - 1 - rng.below(2) as i64
            } else {
                lo + 1
            };
            subs.push(Subscript::triplet(lo, hi, step));
            axes.push(Ok((0, step)));
            continue;
        }
        let o0 = rng.below(slack as u64 + 1) as usize;
        let first = if step > 0 { o0 } else { n - 1 - o0 };
        let lo = lb + first as i64;
        let past = rng.below(mag as u64) as i64;
        let hi = lo + (c as i64 - 1) * step + if step > 0 { past } else { -past };
        subs.push(Subscript::triplet(lo, hi, step));
        axes.push(Ok((first, step)));
    }
    Viewed {
        shape,
        lbs,
        section: Section(subs),
        axes,
    }
}

/// `B(dsec) = A(ssec)` between random arrays, sections and DADs, and the
/// section of A as an array of its own, against the serial model.
fn section_trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>], nprocs: usize) {
    let grid = pick_grid(rng, grids);
    let srank = 1 + rng.below(3) as usize;
    let counts: Vec<usize> = random_extents(rng, srank, 7, (9, 4));
    let mut scalars = || rng.below((3 - srank) as u64 + 1) as usize;
    let (sa, sb) = (scalars(), scalars());
    let va = viewed(rng, &counts, sa);
    let vb = viewed(rng, &counts, sb);
    let ad = random_dad(rng, grid, &va.shape, &va.lbs, true);
    let bd = random_dad(rng, grid, &vb.shape, &vb.lbs, true);
    let what = format!(
        "{:?} section {counts:?} grid {:?}: A {:?} {:?} {:?} B {:?} {:?} {:?}",
        T::KIND,
        grid.dims(),
        va.shape,
        va.section,
        layout(&ad),
        vb.shape,
        vb.section,
        layout(&bd)
    );
    let pos = |v: &Viewed, lbs: &[i64], sub: &[i64]| {
        let g: Vec<usize> = sub
            .iter()
            .zip(lbs)
            .map(|(&s, &l)| (s - l) as usize)
            .collect();
        linear(&v.shape, &g)
    };
    let na: usize = va.shape.iter().product();
    let nb: usize = vb.shape.iter().product();
    let aref: Vec<T> = (0..na)
        .map(|p| T::from_hash(hash(seed, p as u64)))
        .collect();
    let mut bref: Vec<T> = (0..nb)
        .map(|p| T::from_hash(hash(seed ^ 0x5ec, p as u64)))
        .collect();
    let a = DArray::<T>::from_fn(&ad, |s| aref[pos(&va, &va.lbs, s)]);
    let mut b = DArray::<T>::from_fn(&bd, |s| bref[pos(&vb, &vb.lbs, s)]);
    b.assign_section(&vb.section, &a, &va.section)
        .unwrap_or_else(|e| panic!("section copy: {e}: {what}"));
    let total: usize = counts.iter().product();
    let mut picked = Vec::with_capacity(total);
    for t in 0..total {
        let ts = unlinear(&counts, t);
        let x = aref[va.parent_pos(&ts)];
        bref[vb.parent_pos(&ts)] = x;
        picked.push(x);
    }
    check_eq!(
        b.to_global().expect("gather"),
        bref,
        "B(dsec) = A(ssec): {what}"
    );

    // The section as an array of its own, and an intrinsic on it.
    let lbs1 = vec![1i64; srank];
    let sd = random_dad(rng, grid, &counts, &lbs1, false);
    let s = a.section(&va.section, &sd).expect("section");
    check_eq!(s.to_global().expect("gather"), picked, "A(ssec): {what}");
    let want = picked.iter().fold(T::zero(), |acc, &x| acc.plus(x));
    let mag: f64 = picked.iter().map(|x| x.to_f64().abs()).sum();
    let got = s.sum().expect("sum");
    check!(
        close(got, want, total, nprocs, mag),
        "SUM(A(ssec)) {got:?} vs {want:?}: {what}"
    );
}

/// RESHAPE, PACK (with and without VECTOR) and UNPACK between random
/// arrays, masks and DADs against the serial model.
fn unstructured_trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    let grid = pick_grid(rng, grids);
    let shape_of = |rng: &mut Rng| -> Vec<usize> {
        let rank = 1 + rng.below(3) as usize;
        random_extents(rng, rank, 6, (12, 5))
    };
    let shape = shape_of(rng);
    let n: usize = shape.iter().product();
    let lbs: Vec<i64> = shape.iter().map(|_| rng.below(5) as i64 - 2).collect();
    let ad = random_dad(rng, grid, &shape, &lbs, true);
    let aref: Vec<T> = (0..n).map(|p| T::from_hash(hash(seed, p as u64))).collect();
    let pos = |lb: &[i64], shp: &[usize], sub: &[i64]| {
        let g: Vec<usize> = sub
            .iter()
            .zip(lb)
            .map(|(&s, &l)| (s - l) as usize)
            .collect();
        linear(shp, &g)
    };
    let a = DArray::<T>::from_fn(&ad, |s| aref[pos(&lbs, &shape, s)]);
    let what = format!("{:?} shape {shape:?} grid {:?}", T::KIND, grid.dims());

    // RESHAPE into a shape of at most n elements.
    let mut rshape = shape_of(rng);
    if rshape.iter().product::<usize>() > n {
        rshape = vec![n - rng.below(n.min(3) as u64 + 1) as usize];
    }
    let ones = vec![1i64; rshape.len()];
    let rd = random_dad(rng, grid, &rshape, &ones, true);
    let r = a.reshape(&rd).expect("reshape");
    let rn: usize = rshape.iter().product();
    check_eq!(
        r.to_global().expect("gather"),
        aref[..rn].to_vec(),
        "RESHAPE to {rshape:?}: {what}"
    );

    // PACK with a mask on another DAD.
    let mref: Vec<i32> = (0..n)
        .map(|p| i32::from(hash(seed ^ 0x9a, p as u64).is_multiple_of(3)))
        .collect();
    let md = random_dad(rng, grid, &shape, &lbs, false);
    let mask = DArray::<i32>::from_fn(&md, |s| mref[pos(&lbs, &shape, s)]);
    let packed: Vec<T> = (0..n).filter(|&p| mref[p] != 0).map(|p| aref[p]).collect();
    let count = packed.len();
    let pd = random_dad(rng, grid, &[count], &[1], false);
    let p = a.pack(&mask, None, &pd).expect("pack");
    check_eq!(p.to_global().expect("gather"), packed, "PACK: {what}");
    let extra = rng.below(4) as usize;
    let vd = random_dad(rng, grid, &[count + extra], &[1], false);
    let vref: Vec<T> = (0..count + extra)
        .map(|q| T::from_hash(hash(seed ^ 0x51, q as u64)))
        .collect();
    let vector = DArray::<T>::from_fn(&vd, |s| vref[(s[0] - 1) as usize]);
    let mut want = packed.clone();
    want.extend_from_slice(&vref[count..]);
    let p = a.pack(&mask, Some(&vector), &vd).expect("pack with VECTOR");
    check_eq!(
        p.to_global().expect("gather"),
        want,
        "PACK with VECTOR: {what}"
    );
    if extra > 0 {
        let e = a.pack(&mask, None, &vd).unwrap_err();
        check!(
            e.code == hpf_rts::error::HPF_EMISMATCH,
            "PACK without VECTOR into a longer result refused: {e}"
        );
    }

    // UNPACK into a FIELD on yet another DAD.
    let fd = random_dad(rng, grid, &shape, &lbs, true);
    let fref: Vec<T> = (0..n)
        .map(|q| T::from_hash(hash(seed ^ 0xf1, q as u64)))
        .collect();
    let field = DArray::<T>::from_fn(&fd, |s| fref[pos(&lbs, &shape, s)]);
    let u = vector.unpack(&mask, &field).expect("unpack");
    let mut next = 0;
    let want: Vec<T> = (0..n)
        .map(|q| {
            if mref[q] != 0 {
                next += 1;
                vref[next - 1]
            } else {
                fref[q]
            }
        })
        .collect();
    check_eq!(u.to_global().expect("gather"), want, "UNPACK: {what}");
}

/// Gather and scatter through index arrays: `R = A(V)` with random
/// subscripts (repeats allowed) and `A(V) = B` with distinct ones, A, V, R
/// and B on random DADs; each schedule executed twice (the second time on
/// new values) against the serial result; a subscript out of bounds on one
/// process refused on all.
fn index_trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    use hpf_rts::IndexSchedule;
    let grid = pick_grid(rng, grids);
    let n = 1 + rng.below(20) as usize;
    let alb = rng.below(5) as i64 - 2;
    let ad = random_dad(rng, grid, &[n], &[alb], true);
    let aref: Vec<T> = (0..n).map(|p| T::from_hash(hash(seed, p as u64))).collect();
    let a = DArray::<T>::from_fn(&ad, |s| aref[(s[0] - alb) as usize]);
    let vshape: Vec<usize> = (0..1 + rng.below(2) as usize)
        .map(|_| rng.below(6) as usize)
        .collect();
    let m: usize = vshape.iter().product();
    let ones = vec![1i64; vshape.len()];
    let vref: Vec<i64> = (0..m).map(|_| alb + rng.below(n as u64) as i64).collect();
    let vd = random_dad(rng, grid, &vshape, &ones, false);
    let v = DArray::<i64>::from_fn(&vd, |s| vref[linear(&vshape, &sub0(s))]);
    let rd = random_dad(rng, grid, &vshape, &ones, true);
    let what = format!("{:?} A({n}) V{vshape:?} grid {:?}", T::KIND, grid.dims());

    let plan = IndexSchedule::gather(&ad, &vd, v.local(), &rd).expect("gather plan");
    let mut r = DArray::<T>::new(&rd);
    plan.execute(a.local(), r.local_mut()).expect("gather");
    let want: Vec<T> = vref.iter().map(|&g| aref[(g - alb) as usize]).collect();
    check_eq!(r.to_global().expect("gather"), want, "R = A(V): {what}");
    // The same schedule on new values of A.
    let aref2: Vec<T> = (0..n)
        .map(|p| T::from_hash(hash(seed ^ 0x77, p as u64)))
        .collect();
    let a2 = DArray::<T>::from_fn(&ad, |s| aref2[(s[0] - alb) as usize]);
    plan.execute(a2.local(), r.local_mut())
        .expect("gather again");
    let want: Vec<T> = vref.iter().map(|&g| aref2[(g - alb) as usize]).collect();
    check_eq!(
        r.to_global().expect("gather"),
        want,
        "R = A(V) executed again: {what}"
    );

    // Scatter with distinct subscripts: a random selection of A's.
    let mut perm: Vec<i64> = (0..n as i64).map(|i| alb + i).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let k = rng.below(n as u64 + 1) as usize;
    let sref: Vec<i64> = perm[..k].to_vec();
    let sd = random_dad(rng, grid, &[k], &[1], false);
    let sv = DArray::<i64>::from_fn(&sd, |s| sref[(s[0] - 1) as usize]);
    let bd = random_dad(rng, grid, &[k], &[1], true);
    let bref: Vec<T> = (0..k)
        .map(|q| T::from_hash(hash(seed ^ 0x3c, q as u64)))
        .collect();
    let b = DArray::<T>::from_fn(&bd, |s| bref[(s[0] - 1) as usize]);
    let mut target = DArray::<T>::from_fn(&ad, |s| aref[(s[0] - alb) as usize]);
    target.scatter_indexed(&sv, &b).expect("scatter");
    let mut want = aref.clone();
    for (q, &g) in sref.iter().enumerate() {
        want[(g - alb) as usize] = bref[q];
    }
    check_eq!(
        target.to_global().expect("gather"),
        want,
        "A(V) = B: {what}"
    );

    // One subscript out of bounds (known to one process only): every
    // process gets the error, none hangs.
    if m > 0 {
        let bad = DArray::<i64>::from_fn(&vd, |s| {
            if linear(&vshape, &sub0(s)) == m - 1 {
                alb + n as i64
            } else {
                alb
            }
        });
        let e = IndexSchedule::gather(&ad, &vd, bad.local(), &rd).unwrap_err();
        check!(
            e.code == hpf_rts::error::HPF_EBADARG,
            "subscript past A's end refused: {e}"
        );
    }
}

/// Gather and scatter through a tuple of index arrays, one per dimension
/// of a rank-2 or rank-3 `A` (random shape, lower bounds and DAD):
/// `R(s) = A(V1(s), .., Vn(s))` with random subscripts (repeats allowed),
/// each `Vk` on a DAD of its own and R on another, and `A(V1(s), ..,
/// Vn(s)) = B(s)` with distinct subscript tuples, and SUM_SCATTER through
/// the gather's tuples (repeats adding up), against the serial results
/// (reals within the bound of `close`); a wrong number of index arrays
/// refused.
fn tuple_trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    use hpf_rts::IndexSchedule;
    let (grid, shape, lbs, ad) = random_indexed(rng, grids, 2, 6);
    let (rank, size) = (shape.len(), ad.global_len());
    let aref: Vec<T> = (0..size)
        .map(|p| T::from_hash(hash(seed, p as u64)))
        .collect();
    let at = |s: &[i64]| position(&shape, &lbs, s);
    let a = DArray::<T>::from_fn(&ad, |s| aref[at(s)]);
    // Per position of V, a random element of A (its subscripts per dimension).
    let (vshape, picks) = random_picks(rng, 5, size);
    let m = picks.len();
    let ones = vec![1i64; vshape.len()];
    let subs_of = |p: usize| -> Vec<i64> {
        unlinear(&shape, p)
            .iter()
            .zip(&lbs)
            .map(|(&i, &l)| i as i64 + l)
            .collect()
    };
    let vs: Vec<DArray<i64>> = (0..rank)
        .map(|k| {
            let vd = random_dad(rng, grid, &vshape, &ones, false);
            DArray::<i64>::from_fn(&vd, |s| subs_of(picks[linear(&vshape, &sub0(s))])[k])
        })
        .collect();
    let vrefs: Vec<&DArray<i64>> = vs.iter().collect();
    let rd = random_dad(rng, grid, &vshape, &ones, true);
    let what = format!(
        "{:?} A{shape:?} lb {lbs:?} V{vshape:?} grid {:?}",
        T::KIND,
        grid.dims()
    );
    let r = a.gather_indexed_tuple(&vrefs, &rd).expect("tuple gather");
    let want: Vec<T> = picks.iter().map(|&p| aref[p]).collect();
    check_eq!(
        r.to_global().expect("gather"),
        want,
        "R = A(V1, ..): {what}"
    );

    // Scatter with distinct tuples: a random selection of A's elements.
    let mut perm: Vec<usize> = (0..size).collect();
    for i in (1..size).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let k = rng.below(size as u64 + 1) as usize;
    let chosen = &perm[..k];
    let svs: Vec<DArray<i64>> = (0..rank)
        .map(|d| {
            let sd = random_dad(rng, grid, &[k], &[1], false);
            DArray::<i64>::from_fn(&sd, |s| subs_of(chosen[(s[0] - 1) as usize])[d])
        })
        .collect();
    let srefs: Vec<&DArray<i64>> = svs.iter().collect();
    let bd = random_dad(rng, grid, &[k], &[1], true);
    let bref: Vec<T> = (0..k)
        .map(|q| T::from_hash(hash(seed ^ 0x5a, q as u64)))
        .collect();
    let b = DArray::<T>::from_fn(&bd, |s| bref[(s[0] - 1) as usize]);
    let mut target = DArray::<T>::from_fn(&ad, |s| aref[at(s)]);
    target
        .scatter_indexed_tuple(&srefs, &b)
        .expect("tuple scatter");
    let mut want = aref.clone();
    for (q, &p) in chosen.iter().enumerate() {
        want[p] = bref[q];
    }
    check_eq!(
        target.to_global().expect("gather"),
        want,
        "A(V1, ..) = B: {what}"
    );

    // SUM_SCATTER through the gather's tuples (repeats add up): B of V's
    // shape on another random DAD added into A.
    let bd = random_dad(rng, grid, &vshape, &ones, true);
    let bref: Vec<T> = (0..m)
        .map(|q| T::from_hash(hash(seed ^ 0x6b, q as u64)))
        .collect();
    let b = DArray::<T>::from_fn(&bd, |s| bref[linear(&vshape, &sub0(s))]);
    let mut acc = DArray::<T>::from_fn(&ad, |s| aref[at(s)]);
    acc.sum_scatter_indexed_tuple(&vrefs, &b)
        .expect("sum scatter");
    let mut want = aref.clone();
    let mut magnitude: Vec<f64> = aref.iter().map(|x| x.to_f64().abs()).collect();
    let mut terms = vec![1usize; size];
    for (q, &p) in picks.iter().enumerate() {
        want[p] = want[p].plus(bref[q]);
        magnitude[p] += bref[q].to_f64().abs();
        terms[p] += 1;
    }
    let got = acc.to_global().expect("gather");
    let nprocs = grid.size();
    let bad = (0..size)
        .filter(|&p| !close(got[p], want[p], terms[p], nprocs, magnitude[p]))
        .count();
    check!(bad == 0, "SUM_SCATTER: {bad} cells wrong: {what}");

    // One index array too few.
    let e = IndexSchedule::gather_tuple(&ad, &[(vs[0].dad(), vs[0].local())], &rd).unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EBADARG,
        "one index array for a rank-{rank} array refused: {e}"
    );
}

/// Integers as `i64` and back (wrapping), for the serial model of the
/// integer combining scatters: wrapping `+`, `*` and the bit operations
/// commute with truncation to 32 bits.
trait Wide: Copy {
    fn wide(self) -> i64;
    fn narrow(x: i64) -> Self;
}

impl Wide for i32 {
    fn wide(self) -> i64 {
        self as i64
    }
    fn narrow(x: i64) -> Self {
        x as i32
    }
}

impl Wide for i64 {
    fn wide(self) -> i64 {
        self
    }
    fn narrow(x: i64) -> Self {
        x
    }
}

/// The serial model of an integer combining scatter step.
fn int_step<T: Wide>(op: hpf_rts::ScatterOp, a: T, b: T) -> T {
    use hpf_rts::ScatterOp::*;
    let (x, y) = (a.wide(), b.wide());
    T::narrow(match op {
        Sum => x.wrapping_add(y),
        Product => x.wrapping_mul(y),
        Maxval => x.max(y),
        Minval => x.min(y),
        Iall => x & y,
        Iany => x | y,
        _ => x ^ y,
    })
}

/// Runs a combining scatter twice, from `a` (values by `make_a`, A rank 1
/// or 2 on a random DAD) through random subscript tuples with repeats (V
/// of rank 1 or 2, each index array on its own random DAD), B (values by
/// `make_b`) and a random MASK or none on another random DAD: first by
/// `whole` (the `DArray` call), then by `planned` on a schedule planned
/// once; each time against the serial model, `step` folded over the
/// unmasked values in order.
#[allow(clippy::too_many_arguments)]
fn combine_case<T: Element + PartialEq, B: Element>(
    rng: &mut Rng,
    seed: u64,
    grids: &[Arc<ProcGrid>],
    op: hpf_rts::ScatterOp,
    make_a: fn(u64) -> T,
    make_b: fn(u64) -> B,
    step: impl Fn(T, B) -> T,
    whole: impl Fn(
        &mut DArray<T>,
        &[&DArray<i64>],
        &DArray<B>,
        Option<&DArray<i32>>,
    ) -> hpf_rts::HpfResult<()>,
    planned: impl Fn(&hpf_rts::IndexSchedule, &[B], Option<&[i32]>, &mut [T]) -> hpf_rts::HpfResult<()>,
) {
    let (grid, shape, lbs, ad) = random_indexed(rng, grids, 1, 5);
    let (rank, size) = (shape.len(), ad.global_len());
    let aref: Vec<T> = (0..size).map(|p| make_a(hash(seed, p as u64))).collect();
    let at = |s: &[i64]| position(&shape, &lbs, s);
    // Few cells, so subscripts repeat.
    let (vshape, picks) = random_picks(rng, 6, size);
    let m = picks.len();
    let ones = vec![1i64; vshape.len()];
    let vs: Vec<DArray<i64>> = (0..rank)
        .map(|k| {
            let vd = random_dad(rng, grid, &vshape, &ones, false);
            DArray::<i64>::from_fn(&vd, |s| {
                let p = picks[linear(&vshape, &sub0(s))];
                unlinear(&shape, p)[k] as i64 + lbs[k]
            })
        })
        .collect();
    let vrefs: Vec<&DArray<i64>> = vs.iter().collect();
    let bd = random_dad(rng, grid, &vshape, &ones, true);
    let bref: Vec<B> = (0..m)
        .map(|q| make_b(hash(seed ^ 0x77, q as u64)))
        .collect();
    let b = DArray::<B>::from_fn(&bd, |s| bref[linear(&vshape, &sub0(s))]);
    let mref: Option<Vec<i32>> = (rng.below(2) == 0).then(|| {
        (0..m)
            .map(|q| i32::from(!hash(seed ^ 0x99, q as u64).is_multiple_of(3)))
            .collect()
    });
    let mask = mref
        .as_ref()
        .map(|mr| DArray::<i32>::from_fn(&bd, |s| mr[linear(&vshape, &sub0(s))]));
    let what = format!(
        "{} {:?} A{shape:?} lb {lbs:?} V{vshape:?} grid {:?} mask {}",
        op.name(),
        T::KIND,
        grid.dims(),
        mref.is_some()
    );
    // COPY_SCATTER keeps, of the values sent to a cell, the one from the
    // highest grid rank holding B, the last in its local order: the
    // largest (owner, offset) of B's element.
    let order = |q: usize| -> (usize, usize) {
        let s: Vec<i64> = unlinear(&vshape, q).iter().map(|&i| i as i64 + 1).collect();
        bd.owner_of(&s).expect("owner of B's element")
    };
    let fold = |from: &[T]| -> Vec<T> {
        let mut want = from.to_vec();
        let mut last: Vec<Option<(usize, usize)>> = vec![None; want.len()];
        for (q, &p) in picks.iter().enumerate() {
            if mref.as_ref().is_none_or(|mr| mr[q] != 0) {
                if op == hpf_rts::ScatterOp::Copy {
                    let key = order(q);
                    if last[p].is_some_and(|l| l > key) {
                        continue;
                    }
                    last[p] = Some(key);
                }
                want[p] = step(want[p], bref[q]);
            }
        }
        want
    };
    let mut a = DArray::<T>::from_fn(&ad, |s| aref[at(s)]);
    whole(&mut a, &vrefs, &b, mask.as_ref()).expect("combining scatter");
    let want = fold(&aref);
    check!(
        a.to_global().expect("gather") == want,
        "{what}: the cells of A against the serial model"
    );
    let vpairs: Vec<(&Dad, &[i64])> = vs.iter().map(|x| (x.dad(), x.local())).collect();
    let s = hpf_rts::IndexSchedule::scatter_tuple(&bd, &vpairs, &ad).expect("plan");
    planned(
        &s,
        b.local(),
        mask.as_ref().map(|x| x.local()),
        a.local_mut(),
    )
    .expect("planned run");
    check!(
        a.to_global().expect("gather") == fold(&want),
        "{what}: a second run on the planned schedule"
    );
    // Errors: a gather schedule, a MASK on another DAD.
    let g = hpf_rts::IndexSchedule::gather_tuple(&ad, &vpairs, &bd).expect("gather plan");
    let mut r = vec![B::zero(); bd.local_len()];
    let e = g.execute_op(hpf_rts::ScatterOp::Sum, b.local(), None, &mut r);
    check!(
        e.is_err_and(|e| e.code == hpf_rts::error::HPF_EBADARG),
        "{what}: a gather schedule refused"
    );
    if m > 0 {
        let other = random_dad(rng, grid, &vshape, &ones, false);
        if other != bd {
            let wrong = DArray::<i32>::from_fn(&other, |_| 1);
            let e = whole(&mut a, &vrefs, &b, Some(&wrong));
            check!(
                e.is_err_and(|e| e.code == hpf_rts::error::HPF_EMISMATCH),
                "{what}: a MASK on another DAD refused"
            );
        }
    }
}

/// One combining scatter (random op and a type it takes) by
/// [`combine_case`]; also a type the op does not take refused.
fn combine_trial(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    use hpf_rts::{Logical, ScatterOp, ScatterOp::*};
    let op = ScatterOp::from_code(1 + rng.below(12) as i32).expect("op");
    let int32 = |h: u64| (h % 9) as i32 - 4;
    let int64 = |h: u64| (h % 2001) as i64 - 1000;
    let logical = |h: u64| Logical::of(h.is_multiple_of(3));
    let real = |h: u64| ((h % 41) as f64 - 20.0) / 8.0;
    macro_rules! by_op {
        ($t:ty, $make:expr, $step:expr) => {
            combine_case::<$t, $t>(
                rng,
                seed,
                grids,
                op,
                $make,
                $make,
                $step,
                |a, v, b, m| a.combine_scatter_indexed_tuple(op, v, b, m),
                |s, b, m, a| s.execute_op(op, b, m, a),
            )
        };
    }
    match op {
        Sum | Product | Iall | Iany | Iparity | Maxval | Minval if rng.below(2) == 0 => {
            by_op!(i32, int32, |a, b| int_step(op, a, b))
        }
        Maxval | Minval if rng.below(2) == 0 => by_op!(f64, real, |a: f64, b: f64| {
            if (op == Maxval) == (b > a) {
                b
            } else {
                a
            }
        }),
        Sum | Product | Iall | Iany | Iparity | Maxval | Minval => {
            by_op!(i64, int64, |a, b| int_step(op, a, b))
        }
        All | Any | Parity => by_op!(Logical, logical, |a: Logical, b: Logical| {
            let (x, y) = (a.is_true(), b.is_true());
            Logical::of(match op {
                All => x && y,
                Any => x || y,
                _ => x != y,
            })
        }),
        Copy if rng.below(2) == 0 => by_op!(f64, real, |_, b| b),
        Copy => by_op!(Logical, logical, |_, b| b),
        Count => combine_case::<i64, Logical>(
            rng,
            seed,
            grids,
            op,
            int64,
            logical,
            |a, b| a + i64::from(b.is_true()),
            |a, v, b, m| a.count_scatter_indexed_tuple(v, b, m),
            |s, b, m, a| s.execute_count(b, m, a),
        ),
    }
    // A type the op does not take.
    let grid = &grids[0];
    let d = Dad::new(grid, &[DimSpec::new(1, 3, Dist::Block, 0)]).expect("dad");
    let v = DArray::<i64>::from_fn(&d, |s| s[0]);
    let s = hpf_rts::IndexSchedule::scatter(&d, v.dad(), v.local(), &d).expect("plan");
    let mut c = vec![hpf_rts::Complex16::default(); d.local_len()];
    let src = c.clone();
    let refused = match op {
        Count => s.execute_count(&vec![Logical::of(true); d.local_len()], None, &mut c),
        _ => s.execute_op(op, &src, None, &mut c),
    };
    let complex_ok = matches!(op, Sum | Product | Copy);
    check!(
        refused.is_ok() == complex_ok,
        "{} of COMPLEX*16: {refused:?}",
        op.name()
    );
}

/// Alignment to a template: `ALIGN A(i) WITH T(s*i + o)` on a random
/// BLOCK, GEN_BLOCK, CYCLIC or CYCLIC(k) template dimension (stride -3 to
/// 3, 0 included; random bounds and offset inside the template), the
/// other dimension of a rank-2 A random: every element of A lives on the
/// process that owns its template cell, each process holds its elements
/// in increasing subscript order, and A works as any array (a remap to
/// BLOCK, SUM and a CSHIFT against the serial model, exact for integers;
/// an overlap area where each process owns one run). A template cell
/// outside the template, a GEN_BLOCK template whose sizes do not add up
/// and an overlap area where a process owns more than one run are refused.
fn align_trial(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    use hpf_rts::Align;
    let grid = &grids[1 + rng.below(2) as usize]; // 2-D or 3-D
    let n = rng.below(25) as usize;
    let lb = rng.below(5) as i64 - 2;
    let (spec, td, align) = random_aligned(rng, grid, lb, n, 0);
    let what = format!(
        "A({lb}:) n {n} WITH T({}*i + {}), T {}: n {} {:?} -> {:?}",
        align.stride,
        align.offset,
        align.template_lb,
        align.template_extent,
        align.template_dist,
        spec.dist
    );
    let other = 1 + rng.below(4) as usize;
    let w = if spec.dist.contiguous() {
        rng.below(2) as usize
    } else {
        0
    };
    let ad = Dad::new(
        grid,
        &[
            spec.clone().with_overlap(w, w),
            DimSpec::new(1, other, Dist::Block, 1),
        ],
    )
    .expect("aligned DAD");
    let mut together = true;
    for i in 0..n as i64 {
        let (ra, _) = ad.owner_of(&[lb + i, 1]).expect("owner of A(i)");
        let (rt, _) = td
            .owner_of(&[align.stride * (lb + i) + align.offset])
            .expect("owner of T");
        together &= grid.coords_of(ra)[0] == grid.coords_of(rt)[0];
    }
    check!(together, "A(i) lives with T(s*i + o): {what}");
    // Each coordinate's elements, in local order, rise.
    let d0 = &ad.dims()[0];
    let rising = (0..grid.dims()[0])
        .all(|c| (1..d0.count(c)).all(|l| d0.global(c, l - 1) < d0.global(c, l)));
    let owned: usize = (0..grid.dims()[0]).map(|c| d0.count(c)).sum();
    check!(rising && owned == n, "local order and counts: {what}");
    let aref: Vec<i64> = (0..n * other)
        .map(|q| i64::from_hash(hash(seed, q as u64)))
        .collect();
    let a = DArray::<i64>::from_fn(&ad, |s| {
        aref[(s[0] - lb) as usize + n * (s[1] - 1) as usize]
    });
    let bd = Dad::new(
        grid,
        &[
            DimSpec::new(lb, n, Dist::Block, 0),
            DimSpec::new(1, other, Dist::Collapsed, 0),
        ],
    )
    .expect("block");
    let b = a.remap(&bd).expect("remap");
    check_eq!(
        b.to_global().expect("gather"),
        aref,
        "aligned -> BLOCK: {what}"
    );
    let want = aref.iter().fold(0i64, |x, &y| x.wrapping_add(y));
    check_eq!(a.sum().expect("sum"), want, "SUM of aligned A: {what}");
    if n > 0 {
        let shift = rng.below(2 * n as u64 + 1) as i64 - n as i64;
        let c = a.cshift(shift, 0).expect("cshift");
        let want: Vec<i64> = (0..n * other)
            .map(|q| {
                let (i, j) = (q % n, q / n);
                aref[(i as i64 + shift).rem_euclid(n as i64) as usize + n * j]
            })
            .collect();
        check_eq!(
            c.to_global().expect("gather"),
            want,
            "CSHIFT {shift}: {what}"
        );
    }

    let bad = |a: Align| {
        DimSpec::aligned(grid, lb, n, 0, a)
            .map(|_| ())
            .unwrap_err()
            .code
    };
    if n > 0 {
        let e = bad(Align {
            offset: align.offset + align.template_extent as i64,
            ..align.clone()
        });
        check!(
            e == hpf_rts::error::HPF_EBADARG,
            "cell past the template refused: {what}"
        );
        let e = bad(Align {
            offset: align.offset - align.template_extent as i64,
            ..align.clone()
        });
        check!(
            e == hpf_rts::error::HPF_EBADARG,
            "cell before the template refused: {what}"
        );
    }
    let e = bad(Align {
        template_dist: Dist::gen_block(&vec![align.template_extent + 1; grid.dims()[0]]),
        ..align.clone()
    });
    check!(
        e == hpf_rts::error::HPF_EBADARG,
        "GEN_BLOCK template of the wrong sizes refused: {what}"
    );
    if !spec.dist.contiguous() {
        let e = Dad::new(grid, &[spec.with_overlap(1, 0)]).unwrap_err();
        check!(
            e.code == hpf_rts::error::HPF_EBADARG,
            "overlap where a process owns several runs refused: {what}"
        );
    }
}

/// 0-based offsets of 1-based subscripts.
fn sub0(s: &[i64]) -> Vec<usize> {
    s.iter().map(|&x| (x - 1) as usize).collect()
}

/// MATMUL of random m×k and k×n arrays with random DADs (C's too) against
/// the serial triple loop; reals within `2 (k + 2) eps sum|a||b|`.
fn matmul_trial<T: Probe>(rng: &mut Rng, seed: u64, grids: &[Arc<ProcGrid>]) {
    let grid = pick_grid(rng, grids);
    let mut dim = || match rng.below(8) {
        0 => 0,
        1 => 1,
        2 => 40 + rng.below(60) as usize,
        _ => 2 + rng.below(20) as usize,
    };
    let (m, k, n) = (dim(), dim(), dim());
    let ad = random_dad(rng, grid, &[m, k], &[1, 1], true);
    let bd = random_dad(rng, grid, &[k, n], &[0, 1], true);
    let cd = random_dad(rng, grid, &[m, n], &[1, -1], true);
    let what = format!(
        "{:?} {m}x{k} * {k}x{n} grid {:?}: A {:?} B {:?} C {:?}",
        T::KIND,
        grid.dims(),
        layout(&ad),
        layout(&bd),
        layout(&cd)
    );
    let ar: Vec<T> = (0..m * k)
        .map(|p| T::from_hash(hash(seed, p as u64)))
        .collect();
    let br: Vec<T> = (0..k * n)
        .map(|p| T::from_hash(hash(seed ^ 0x77, p as u64)))
        .collect();
    let a = DArray::<T>::from_fn(&ad, |s| ar[(s[0] - 1) as usize + m * (s[1] - 1) as usize]);
    let b = DArray::<T>::from_fn(&bd, |s| br[s[0] as usize + k * (s[1] - 1) as usize]);
    let mut c = DArray::<T>::new(&cd);
    c.matmul_from(&a, &b).expect("matmul");
    let got = c.to_global().expect("gather");
    let mut bad = 0;
    for j in 0..n {
        for i in 0..m {
            let mut want = T::zero();
            let mut mag = 0.0;
            for p in 0..k {
                let (x, y) = (ar[i + m * p], br[p + k * j]);
                want = want.plus(x.times(y));
                mag += (x.to_f64() * y.to_f64()).abs();
            }
            if !close(got[i + m * j], want, k, 1, mag) {
                bad += 1;
            }
        }
    }
    check_eq!(bad, 0, "MATMUL elements off: {what}");
}

/// Runs `trial::<T>(rng, seed * mul + t, args..)` for each trial `t` in
/// `0..count`, T the `t % 4`-th of the four element types listed.
macro_rules! typed_trials {
    ($count:expr, $seed:ident * $mul:literal;
     $trial:ident::<$a:ty, $b:ty, $c:ty, $d:ty>($rng:expr $(, $arg:expr)*)) => {
        for t in 0..$count {
            let s = $seed.wrapping_mul($mul).wrapping_add(t as u64);
            match t % 4 {
                0 => $trial::<$a>($rng, s $(, $arg)*),
                1 => $trial::<$b>($rng, s $(, $arg)*),
                2 => $trial::<$c>($rng, s $(, $arg)*),
                _ => $trial::<$d>($rng, s $(, $arg)*),
            }
        }
    };
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let trials: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    hpf_rts::init().expect("hpf init");
    let nprocs = hpf_rts::nprocs().expect("nprocs") as usize;
    let grids: Vec<Arc<ProcGrid>> = (1..=3)
        .map(|r| ProcGrid::new(&vec![0; r]).expect("grid"))
        .collect();
    let me = grids[0].rank();
    let mut rng = Rng(seed);
    typed_trials!(trials, seed * 1000; trial::<i32, f64, i64, f32>(&mut rng, &grids, nprocs));
    typed_trials!(trials / 2, seed * 7777; matmul_trial::<f64, i32, f32, i64>(&mut rng, &grids));
    typed_trials!(trials, seed * 4242; section_trial::<i32, f64, i64, f32>(&mut rng, &grids, nprocs));
    typed_trials!(trials / 2, seed * 5151; unstructured_trial::<f64, i32, f32, i64>(&mut rng, &grids));
    typed_trials!(trials / 2, seed * 9191; index_trial::<f64, i32, f32, i64>(&mut rng, &grids));
    typed_trials!(trials / 2, seed * 6161; tuple_trial::<f64, i32, f32, i64>(&mut rng, &grids));

    for t in 0..trials {
        combine_trial(
            &mut rng,
            seed.wrapping_mul(2727).wrapping_add(t as u64),
            &grids,
        );
    }
    for t in 0..trials / 2 {
        align_trial(
            &mut rng,
            seed.wrapping_mul(3131).wrapping_add(t as u64),
            &grids,
        );
    }

    // The round trip BLOCK -> CYCLIC(3) -> BLOCK returns the original.
    let g = &grids[0];
    let n = 3 * nprocs * 2 + 1;
    let block = Dad::new(g, &[DimSpec::new(1, n, Dist::Block, 0)]).expect("block");
    let cyc = Dad::new(g, &[DimSpec::new(1, n, Dist::BlockCyclic(3), 0)]).expect("cyclic(3)");
    let a = DArray::<f64>::from_fn(&block, |s| s[0] as f64 * 1.5);
    let c = a.remap(&cyc).expect("to cyclic(3)");
    let mut seen_local = true;
    cyc.for_each_owned(me, |gi, off| {
        seen_local &= c.local()[off] == (gi[0] + 1) as f64 * 1.5
    });
    check!(
        seen_local,
        "CYCLIC(3) local elements hold their global values"
    );
    let back = c.remap(&block).expect("to block");
    check_eq!(back.local(), a.local(), "BLOCK -> CYCLIC(3) -> BLOCK");

    // Bad input gets a code and a message, not a crash.
    let e = Dad::new(g, &[DimSpec::new(1, 5, Dist::Cyclic, 0).with_overlap(1, 0)]).unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EBADARG && e.message.contains("overlap"),
        "overlap on CYCLIC refused: {e}"
    );
    let e = Dad::new(g, &[DimSpec::new(1, 5, Dist::Block, 4)]).unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EBADARG && e.message.contains("grid has no dimension 4"),
        "bad grid dimension: {e}"
    );
    let other = Dad::new(g, &[DimSpec::new(1, n + 1, Dist::Block, 0)]).expect("other");
    let e = a.remap(&other).unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EMISMATCH,
        "remap between shapes refused: {e}"
    );

    // Bad sections get a code and a message.
    let whole = Section::whole(&block);
    let n1 = n as i64;
    let e = a
        .section(&Section(vec![Subscript::triplet(1, n1, 0)]), &block)
        .unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EBADARG && e.message.contains("stride"),
        "zero stride refused: {e}"
    );
    let e = a
        .section(&Section(vec![Subscript::triplet(0, n1 - 1, 1)]), &block)
        .unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EBADARG && e.message.contains("outside"),
        "subscript 0 of 1:n refused: {e}"
    );
    let mut b2 = DArray::<f64>::new(&block);
    let e = b2
        .assign_section(&whole, &a, &Section(vec![Subscript::triplet(1, n1, 2)]))
        .unwrap_err();
    check!(
        e.code == hpf_rts::error::HPF_EMISMATCH,
        "non-conforming sections refused: {e}"
    );
    // A reversed copy: B(n:1:-1) = A(1:n).
    b2.assign_section(&Section(vec![Subscript::triplet(n1, 1, -1)]), &a, &whole)
        .expect("reverse");
    let got = b2.to_global().expect("gather");
    let want: Vec<f64> = (1..=n).rev().map(|i| i as f64 * 1.5).collect();
    check_eq!(got, want, "B(n:1:-1) = A(1:n)");

    drop(grids);
    let who = format!("hpf_props rank {me}");
    hpf_rts::finalize().expect("finalize");
    tests::check::finish(&who);
}
