//! Communication schedules (the inspector/executor split of Adlib): a
//! schedule lists, for every peer, which local buffer offsets this process
//! sends and where the elements it receives go. It is planned once from the
//! DADs alone (every process computes its own sends and receives with the
//! same ownership functions, so no planning messages travel), cached under
//! its DADs and parameters, and executed as point-to-point messages
//! between the pairs that exchange something (the core's
//! `Group::exchange_sparse`), the process's own part as direct copies of
//! runs of consecutive elements (packing and unpacking also copy runs).
//!
//! Planning intersects, per pair of processes and per dimension, the
//! indices the source owns with those the destination needs, and takes the
//! product over dimensions: the cost is O(P * sum of extents) per process,
//! not O(elements).
//!
//! The kinds: remap (copy between two DADs of one shape, also TRANSPOSE
//! and SPREAD), section copy (between array sections, see
//! [`crate::section`]), circular and end-off shift along one dimension,
//! and the overlap (halo) update.

use crate::dad::Dad;
use crate::element::Element;
use crate::error::{HpfError, HpfResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a schedule is for; the cache key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PlanKey {
    Remap {
        grid: u32,
        src: crate::dad::Layout,
        dst: crate::dad::Layout,
        from: Vec<Option<usize>>,
    },
    Shift {
        grid: u32,
        dad: crate::dad::Layout,
        dim: usize,
        shift: i64,
        wrap: bool,
    },
    Section {
        grid: u32,
        src: crate::dad::Layout,
        dst: crate::dad::Layout,
        src_axes: Vec<crate::section::Axis>,
        dst_axes: Vec<crate::section::Axis>,
    },
    Reshape {
        grid: u32,
        src: crate::dad::Layout,
        dst: crate::dad::Layout,
    },
    Halo {
        grid: u32,
        dad: crate::dad::Layout,
        wlo: Vec<usize>,
        whi: Vec<usize>,
        periodic: Vec<bool>,
    },
}

impl PlanKey {
    /// The operation the schedule serves, for logs.
    fn kind(&self) -> &'static str {
        match self {
            PlanKey::Remap { .. } => "remap",
            PlanKey::Shift { .. } => "shift",
            PlanKey::Section { .. } => "section copy",
            PlanKey::Reshape { .. } => "reshape",
            PlanKey::Halo { .. } => "halo",
        }
    }
}

static CACHE: Mutex<Option<HashMap<PlanKey, Arc<Schedule>>>> = Mutex::new(None);

pub(crate) fn cached(key: PlanKey, build: impl FnOnce() -> Schedule) -> Arc<Schedule> {
    let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    c.get_or_insert_with(HashMap::new)
        .entry(key)
        .or_insert_with_key(|k| {
            let s = build();
            shim_core::log::tracing::debug!(
                target: "hpf",
                "planned a {} schedule: {} elements to {} peers, {} from {} peers",
                k.kind(),
                s.send.len(),
                s.send_counts.iter().filter(|&&c| c > 0).count(),
                s.recv.len(),
                s.recv_counts.iter().filter(|&&c| c > 0).count()
            );
            Arc::new(s)
        })
        .clone()
}

/// Number of schedules in the cache (each planned once).
pub fn cache_len() -> usize {
    CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, |c| c.len())
}

/// Drops every cached schedule.
pub fn clear_cache() {
    *CACHE.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// A planned exchange.
#[derive(Debug, Default)]
pub struct Schedule {
    send: Vec<usize>,
    send_counts: Vec<usize>,
    recv: Vec<usize>,
    recv_counts: Vec<usize>,
    /// The same as runs of consecutive offsets, ready to execute.
    runs: Runs,
}

/// A schedule's element lists as runs of consecutive local offsets: per
/// peer `(offset, length)` runs to pack and to unpack (this process's
/// own part left out), and the own part as `(source, destination,
/// length)` runs copied directly.
#[derive(Debug, Default)]
struct Runs {
    send: Vec<Vec<(usize, usize)>>,
    recv: Vec<Vec<(usize, usize)>>,
    local: Vec<(usize, usize, usize)>,
}

/// `offs` cut into consecutive parts of `counts` elements.
fn split<'a>(offs: &'a [usize], counts: &[usize]) -> Vec<&'a [usize]> {
    let mut at = 0;
    counts
        .iter()
        .map(|&c| {
            let part = &offs[at..at + c];
            at += c;
            part
        })
        .collect()
}

/// Runs of consecutive offsets of `offs`.
fn runs_of(offs: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &o in offs {
        match out.last_mut() {
            Some((start, len)) if *start + *len == o => *len += 1,
            _ => out.push((o, 1)),
        }
    }
    out
}

impl Runs {
    fn of(s: &Schedule, me: usize) -> Runs {
        let sends = split(&s.send, &s.send_counts);
        let recvs = split(&s.recv, &s.recv_counts);
        let mut local: Vec<(usize, usize, usize)> = Vec::new();
        for (&a, &b) in sends[me].iter().zip(recvs[me]) {
            match local.last_mut() {
                Some((x, y, len)) if *x + *len == a && *y + *len == b => *len += 1,
                _ => local.push((a, b, 1)),
            }
        }
        let peers = |parts: &[&[usize]]| -> Vec<Vec<(usize, usize)>> {
            parts
                .iter()
                .enumerate()
                .map(|(q, p)| if q == me { Vec::new() } else { runs_of(p) })
                .collect()
        };
        Runs {
            send: peers(&sends),
            recv: peers(&recvs),
            local,
        }
    }
}

/// (source position, destination position, destination position is an
/// owned cell) triples of one dimension for one pair of processes.
pub(crate) type DimPairs = Vec<(usize, usize, bool)>;

/// Plans the transfer from `src` to `dst` buffers. `pairs(k, s, q)` lists
/// dimension `k`'s positions grid rank `s` sends to grid rank `q`, where
/// destination dimension `k` takes its index from source dimension
/// `from[k]` (`None`: from no source dimension, the source position is
/// ignored); with `ghosts_only`, cells owned in every dimension are
/// skipped.
fn plan(
    src: &Dad,
    dst: &Dad,
    ghosts_only: bool,
    from: &[Option<usize>],
    pairs: impl Fn(usize, usize, usize) -> DimPairs,
) -> Schedule {
    plan_lists(dst.grid(), ghosts_only, |s, q| {
        if !src.serves(s, q) || !dst.holds(q) {
            return None;
        }
        let (ss, sq) = (src.strides_of(s), dst.strides_of(q));
        let lists = (0..dst.rank())
            .map(|k| {
                let st = from[k].map_or(0, |d| ss[d]);
                pairs(k, s, q)
                    .into_iter()
                    .map(|(a, b, own)| (a * st, b * sq[k], own))
                    .collect()
            })
            .collect();
        Some((0, 0, lists))
    })
}

/// The planner every schedule goes through. `lists(s, q)` says what grid
/// rank `s` sends to grid rank `q`: base offsets in the source and the
/// destination buffer and, per axis, `(source offset, destination
/// offset, owned)` terms; the elements are every combination of one term
/// per axis (first axis fastest), at the base plus the sum of the chosen
/// terms. `None` or an empty axis: nothing. With `ghosts_only`, elements
/// whose terms are all owned are skipped.
pub(crate) fn plan_lists(
    grid: &crate::grid::ProcGrid,
    ghosts_only: bool,
    lists: impl Fn(usize, usize) -> Option<(usize, usize, Vec<DimPairs>)>,
) -> Schedule {
    let me = grid.rank();
    let n = grid.size();
    let mut s = Schedule {
        send_counts: vec![0; n],
        recv_counts: vec![0; n],
        ..Schedule::default()
    };
    let one = |sender: usize, to: usize, out: &mut Vec<usize>, mine_is_src: bool| -> usize {
        let Some((bs, bd, lists)) = lists(sender, to) else {
            return 0;
        };
        if lists.iter().any(|l| l.is_empty()) {
            return 0;
        }
        let before = out.len();
        let mut at = vec![0usize; lists.len()];
        loop {
            let interior = lists.iter().zip(&at).all(|(l, &a)| l[a].2);
            if !(ghosts_only && interior) {
                let terms = lists.iter().zip(&at);
                let off = if mine_is_src {
                    bs + terms.map(|(l, &a)| l[a].0).sum::<usize>()
                } else {
                    bd + terms.map(|(l, &a)| l[a].1).sum::<usize>()
                };
                out.push(off);
            }
            let mut k = 0;
            loop {
                if k == lists.len() {
                    return out.len() - before;
                }
                at[k] += 1;
                if at[k] < lists[k].len() {
                    break;
                }
                at[k] = 0;
                k += 1;
            }
        }
    };
    for q in 0..n {
        s.send_counts[q] = one(me, q, &mut s.send, true);
    }
    for p in 0..n {
        s.recv_counts[p] = one(p, me, &mut s.recv, false);
    }
    s.runs = Runs::of(&s, me);
    s
}

fn check_same_grid(call: &str, a: &Dad, b: &Dad) -> HpfResult<()> {
    if a.grid().id() != b.grid().id() {
        return Err(HpfError::mismatch(
            call,
            "the arrays are on different processor grids",
        ));
    }
    if a.shape() != b.shape() {
        return Err(HpfError::mismatch(
            call,
            format!("shapes {:?} and {:?} differ", a.shape(), b.shape()),
        ));
    }
    Ok(())
}

/// The schedule copying an array with DAD `src` into one with DAD `dst`
/// (same grid, same shape).
pub fn remap(src: &Dad, dst: &Dad) -> HpfResult<Arc<Schedule>> {
    check_same_grid("hpf_copy", src, dst)?;
    let from: Vec<Option<usize>> = (0..dst.rank()).map(Some).collect();
    Ok(mapping(src, dst, &from))
}

/// The schedule of `R = TRANSPOSE(A)` for a rank-2 `A` with DAD `src` and
/// `R` with DAD `dst` (same grid, shape reversed).
pub fn transpose(src: &Dad, dst: &Dad) -> HpfResult<Arc<Schedule>> {
    const CALL: &str = "hpf_transpose";
    if src.rank() != 2 || dst.rank() != 2 {
        return Err(HpfError::bad_arg(
            CALL,
            format!(
                "TRANSPOSE needs rank-2 arrays, not ranks {} and {}",
                src.rank(),
                dst.rank()
            ),
        ));
    }
    let (a, r) = (src.shape(), dst.shape());
    if src.grid().id() != dst.grid().id() {
        return Err(HpfError::mismatch(
            CALL,
            "the arrays are on different processor grids",
        ));
    }
    if r != [a[1], a[0]] {
        return Err(HpfError::mismatch(
            CALL,
            format!(
                "the result has shape {r:?}, TRANSPOSE of {a:?} needs {:?}",
                [a[1], a[0]]
            ),
        ));
    }
    Ok(mapping(src, dst, &[Some(1), Some(0)]))
}

/// The schedule of `R = SPREAD(A, dim, ncopies)` (dim 0-based): `R` has
/// one dimension more than `A`, of extent `ncopies` at `dim`, and
/// `R(..., j, ...) = A(...)` for every `j`.
pub fn spread(src: &Dad, dst: &Dad, dim: usize) -> HpfResult<Arc<Schedule>> {
    const CALL: &str = "hpf_spread";
    if src.grid().id() != dst.grid().id() {
        return Err(HpfError::mismatch(
            CALL,
            "the arrays are on different processor grids",
        ));
    }
    if dim > src.rank() || dst.rank() != src.rank() + 1 {
        return Err(HpfError::bad_arg(
            CALL,
            format!(
                "DIM {} of SPREAD from rank {} to rank {} (DIM is 1 to {}, the result has one dimension more)",
                dim + 1,
                src.rank(),
                dst.rank(),
                src.rank() + 1
            ),
        ));
    }
    let from: Vec<Option<usize>> = (0..dst.rank())
        .map(|k| match k.cmp(&dim) {
            std::cmp::Ordering::Less => Some(k),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(k - 1),
        })
        .collect();
    let (a, r) = (src.shape(), dst.shape());
    for (k, f) in from.iter().enumerate() {
        if let Some(d) = f {
            if a[*d] != r[k] {
                return Err(HpfError::mismatch(
                    CALL,
                    format!("the result has shape {r:?}, SPREAD of {a:?} along DIM {} needs extent {} in dimension {}", dim + 1, a[*d], k + 1),
                ));
            }
        }
    }
    Ok(mapping(src, dst, &from))
}

/// The schedule of a copy where destination dimension `k` takes its index
/// from source dimension `from[k]` (None: every index of that dimension
/// gets the same source element). Shapes and grids are checked by the
/// callers.
fn mapping(src: &Dad, dst: &Dad, from: &[Option<usize>]) -> Arc<Schedule> {
    let key = PlanKey::Remap {
        grid: src.grid().id(),
        src: src.layout(),
        dst: dst.layout(),
        from: from.to_vec(),
    };
    cached(key, || {
        plan(src, dst, false, from, |k, s, q| {
            let dd = &dst.dims()[k];
            let cq = dd.coord(dst.grid().coords_of(q));
            match from[k] {
                Some(sk) => {
                    let ds = &src.dims()[sk];
                    let cs = ds.coord(src.grid().coords_of(s));
                    (0..dd.count(cq))
                        .filter_map(|l| {
                            let i = dd.global(cq, l);
                            ds.owns(cs, i)
                                .map(|ls| (ds.spec.olo + ls, dd.spec.olo + l, true))
                        })
                        .collect()
                }
                None => (0..dd.count(cq))
                    .map(|l| (0, dd.spec.olo + l, true))
                    .collect(),
            }
        })
    })
}

/// The schedule of `R = CSHIFT(A, shift, dim)` (dim 0-based) for arrays
/// with DAD `dad`: `R(i) = A(lb + mod(i - lb + shift, n))` along `dim`.
pub fn cshift(dad: &Dad, dim: usize, shift: i64) -> HpfResult<Arc<Schedule>> {
    shift_plan("hpf_cshift", dad, dim, shift, true)
}

/// The schedule of the moved part of `R = EOSHIFT(A, shift, dim)` (dim
/// 0-based): `R(i) = A(i + shift)` along `dim` where `i + shift` lies in
/// the array; the other cells of `R` are not written (the caller fills
/// them with the boundary value).
pub fn eoshift(dad: &Dad, dim: usize, shift: i64) -> HpfResult<Arc<Schedule>> {
    shift_plan("hpf_eoshift", dad, dim, shift, false)
}

fn shift_plan(
    call: &str,
    dad: &Dad,
    dim: usize,
    shift: i64,
    wrap: bool,
) -> HpfResult<Arc<Schedule>> {
    if dim >= dad.rank() {
        return Err(HpfError::bad_arg(
            call,
            format!("DIM {} of a rank-{} array", dim + 1, dad.rank()),
        ));
    }
    let n = dad.dims()[dim].spec.extent as i64;
    let shift = if wrap {
        if n == 0 {
            0
        } else {
            shift.rem_euclid(n)
        }
    } else {
        shift.clamp(-n, n)
    };
    let key = PlanKey::Shift {
        grid: dad.grid().id(),
        dad: dad.layout(),
        dim,
        shift,
        wrap,
    };
    let from: Vec<Option<usize>> = (0..dad.rank()).map(Some).collect();
    Ok(cached(key, || {
        plan(dad, dad, false, &from, |k, s, q| {
            let d = &dad.dims()[k];
            let cs = d.coord(dad.grid().coords_of(s));
            let cq = d.coord(dad.grid().coords_of(q));
            (0..d.count(cq))
                .filter_map(|l| {
                    let mut i = d.global(cq, l);
                    if k == dim {
                        let j = i as i64 + shift;
                        if wrap {
                            i = (j % n) as usize;
                        } else if (0..n).contains(&j) {
                            i = j as usize;
                        } else {
                            return None;
                        }
                    }
                    d.owns(cs, i)
                        .map(|ls| (d.spec.olo + ls, d.spec.olo + l, true))
                })
                .collect()
        })
    }))
}

/// The schedule filling the overlap cells `wlo`/`whi` deep in each
/// dimension (at most the DAD's widths) from their owners; a periodic
/// dimension wraps around, a non-periodic one leaves the cells past the
/// array's ends unchanged. Corners come from the diagonal owners directly.
pub fn halo(
    dad: &Dad,
    wlo: &[usize],
    whi: &[usize],
    periodic: &[bool],
) -> HpfResult<Arc<Schedule>> {
    const CALL: &str = "hpf_shift_overlap";
    let r = dad.rank();
    if wlo.len() != r || whi.len() != r || periodic.len() != r {
        return Err(HpfError::bad_arg(
            CALL,
            format!("widths and periodic flags need one entry per dimension ({r})"),
        ));
    }
    for (k, d) in dad.dims().iter().enumerate() {
        if wlo[k] > d.spec.olo || whi[k] > d.spec.ohi {
            return Err(HpfError::bad_arg(
                CALL,
                format!(
                    "dimension {}: widths {}/{} exceed the overlap area {}/{}",
                    k + 1,
                    wlo[k],
                    whi[k],
                    d.spec.olo,
                    d.spec.ohi
                ),
            ));
        }
    }
    let key = PlanKey::Halo {
        grid: dad.grid().id(),
        dad: dad.layout(),
        wlo: wlo.to_vec(),
        whi: whi.to_vec(),
        periodic: periodic.to_vec(),
    };
    let from: Vec<Option<usize>> = (0..dad.rank()).map(Some).collect();
    Ok(cached(key, || {
        plan(dad, dad, true, &from, |k, s, q| {
            let d = &dad.dims()[k];
            let n = d.spec.extent as i64;
            let cs = d.coord(dad.grid().coords_of(s));
            let cq = d.coord(dad.grid().coords_of(q));
            let count = d.count(cq);
            if count == 0 {
                return Vec::new();
            }
            let olo = d.spec.olo;
            let start = d.global(cq, 0) as i64;
            (olo - wlo[k]..olo + count + whi[k])
                .filter_map(|p| {
                    let interior = p >= olo && p < olo + count;
                    // Owned cells follow the distribution; overlap cells
                    // (BLOCK or collapsed only) continue the owned run.
                    let mut i = if interior {
                        d.global(cq, p - olo) as i64
                    } else {
                        start + p as i64 - olo as i64
                    };
                    if i < 0 || i >= n {
                        if !periodic[k] {
                            return None;
                        }
                        i = i.rem_euclid(n);
                    }
                    d.owns(cs, i as usize).map(|ls| (olo + ls, p, interior))
                })
                .collect()
        })
    }))
}

impl Schedule {
    /// A schedule from explicit lists: per grid rank in order, the local
    /// source offsets this process sends it (`send`, `send_counts`) and
    /// the local destination offsets of what it receives from it
    /// (`recv`, `recv_counts`); `me` is this process's grid rank.
    pub(crate) fn from_lists(
        send: Vec<usize>,
        send_counts: Vec<usize>,
        recv: Vec<usize>,
        recv_counts: Vec<usize>,
        me: usize,
    ) -> Schedule {
        let mut s = Schedule {
            send,
            send_counts,
            recv,
            recv_counts,
            runs: Runs::default(),
        };
        s.runs = Runs::of(&s, me);
        s
    }

    /// Elements this process sends to each grid rank.
    pub fn send_counts(&self) -> &[usize] {
        &self.send_counts
    }

    /// Elements this process receives from each grid rank.
    pub fn recv_counts(&self) -> &[usize] {
        &self.recv_counts
    }

    /// Moves the planned elements of `src` into `dst` (collective over the
    /// grid). `src` and `dst` are local buffers of the planned DADs.
    pub fn execute<T: Element>(&self, dad_grid: &Dad, src: &[T], dst: &mut [T]) -> HpfResult<()> {
        // The own part first, as a hand-written shift does: the processes
        // then meet at the exchange with their copies done.
        for &(a, b, len) in &self.runs.local {
            dst[b..b + len].copy_from_slice(&src[a..a + len]);
        }
        let got = self.exchange(dad_grid, src)?;
        self.unpack(&got, dst)
    }

    /// Like [`execute`](Self::execute), but each element moved is combined
    /// into its destination cell (`dst = f(dst, value)`) instead of
    /// stored, so a cell named more than once gets every value; with
    /// `keep` (flags on the source's layout, non-zero keep) the elements
    /// whose flag is 0 are left out. The values for one cell arrive in a
    /// fixed order: per sending grid rank in rank order (this process's
    /// own part at its rank), each in the sender's local order.
    pub fn execute_combine<T: Element>(
        &self,
        dad_grid: &Dad,
        src: &[T],
        keep: Option<&[i32]>,
        dst: &mut [T],
        f: impl Fn(T, T) -> T,
    ) -> HpfResult<()> {
        let got = self.exchange(dad_grid, src)?;
        let kept = keep.map(|k| self.exchange(dad_grid, k)).transpose()?;
        let flag = |at: usize| -> HpfResult<bool> {
            match &kept {
                None => Ok(true),
                Some(b) => Ok(i32::get(b.get(at * 4..at * 4 + 4).ok_or_else(disagree)?) != 0),
            }
        };
        let size = T::KIND.size();
        let me = dad_grid.grid().rank();
        let mut at = 0;
        for (q, runs) in self.runs.recv.iter().enumerate() {
            if q == me {
                for &(a, b, len) in &self.runs.local {
                    for k in 0..len {
                        if keep.is_none_or(|m| m[a + k] != 0) {
                            dst[b + k] = f(dst[b + k], src[a + k]);
                        }
                    }
                }
                continue;
            }
            for &(o, len) in runs {
                for cell in &mut dst[o..o + len] {
                    let from = got.get(at * size..(at + 1) * size).ok_or_else(disagree)?;
                    if flag(at)? {
                        *cell = f(*cell, T::get(from));
                    }
                    at += 1;
                }
            }
        }
        Ok(())
    }

    /// Like [`execute`](Self::execute) with one buffer as source and
    /// destination (the overlap update: sources are owned cells, targets
    /// overlap cells).
    pub fn execute_in_place<T: Element>(&self, dad: &Dad, buf: &mut [T]) -> HpfResult<()> {
        let got = self.exchange(dad, buf)?;
        for &(a, b, len) in &self.runs.local {
            buf.copy_within(a..a + len, b);
        }
        self.unpack(&got, buf)
    }

    /// Packs the runs of every peer, exchanges them with the peers that
    /// send or receive something (point-to-point through the core's
    /// `Group::exchange_sparse`; this process's own part is copied
    /// directly, not sent) and returns what arrived.
    fn exchange<T: Element>(&self, dad: &Dad, src: &[T]) -> HpfResult<Vec<u8>> {
        let size = T::KIND.size();
        let me = dad.grid().rank();
        let wire = |counts: &[usize]| -> Vec<usize> {
            counts
                .iter()
                .enumerate()
                .map(|(q, &c)| if q == me { 0 } else { c * size })
                .collect()
        };
        let sc = wire(&self.send_counts);
        let rc = wire(&self.recv_counts);
        // What goes out, peer after peer: borrowed from `src` when it lies
        // there in one piece (a shift or a one-neighbour halo), else packed.
        let whole = self.send_span();
        let mut packed = Vec::new();
        let out: &[u8] = match whole {
            Some((from, to)) => T::as_bytes(&src[from..to]),
            None => {
                packed.reserve(sc.iter().sum());
                for runs in &self.runs.send {
                    for &(o, len) in runs {
                        packed.extend_from_slice(T::as_bytes(&src[o..o + len]));
                    }
                }
                &packed
            }
        };
        dad.grid()
            .group()
            .exchange_sparse(out, &sc, &rc)
            .map_err(|e| HpfError::core("schedule execute", e))
    }

    /// The range of source offsets the runs sent to the peers cover when,
    /// taken in peer order, each starts where the one before ended (so the
    /// message bytes are that range of the buffer as it is).
    fn send_span(&self) -> Option<(usize, usize)> {
        let mut runs = self.runs.send.iter().flatten();
        let &(start, len) = runs.next()?;
        let mut end = start + len;
        for &(o, len) in runs {
            if o != end {
                return None;
            }
            end += len;
        }
        Some((start, end))
    }

    fn unpack<T: Element>(&self, got: &[u8], dst: &mut [T]) -> HpfResult<()> {
        let size = T::KIND.size();
        let mut at = 0;
        for runs in &self.runs.recv {
            for &(o, len) in runs {
                let bytes = len * size;
                let from = got.get(at..at + bytes).ok_or_else(disagree)?;
                T::as_bytes_mut(&mut dst[o..o + len]).copy_from_slice(from);
                at += bytes;
            }
        }
        Ok(())
    }
}

fn disagree() -> HpfError {
    HpfError::new(
        crate::error::HPF_ESYSTEM,
        "schedule execute: processes disagree on the exchange",
    )
}
