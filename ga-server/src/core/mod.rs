//! The GA client core: everything the GA C, Fortran and Rust APIs share.
//!
//! Index convention: 0-based, C order (dimension 0 slowest, the last one
//! contiguous), `hi` inclusive, `ld` = ndim−1 leading dimensions in elements
//! of the user's buffer (`ld[i]` is the extent of dimension i+1 of the
//! buffer). Byte slices are sized by the caller.

pub(crate) mod client;
pub(crate) mod dist;
mod ghosts;
mod gops;
mod inflight;
pub(crate) mod kernels;
pub(crate) mod pgroups;
mod strided;
mod types;

pub use ghosts::{
    access_ghosts, create_ghosts, get_ghost_block, get_ghost_dir, ghost_widths, periodic,
    periodic_len, update_ghost_dir, update_ghosts, Periodic,
};
pub use gops::Num as GopNum;
pub use strided::{strided, strided_len, Strided};
pub use types::{codes, fmt_patch, Distribution, ElemType, GaError, GaResult, Handle};

/// One owner's part of a patch: compute rank, lo, hi.
pub type Region = (i32, Vec<i64>, Vec<i64>);

/// A process's own block: pointer into the shared segment, lo, hi, ld.
pub type LocalBlock = (*mut u8, Vec<i64>, Vec<i64>, Vec<i64>);

use crate::protocol;
use shim_core::mpi::{Comm, Root};

static NB_NEXT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1);

pub(crate) fn next_nb() -> i64 {
    NB_NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Runs `f(client, i, subs[i], elem)` for each element of a scatter/gather.
fn elementwise(
    call: &'static str,
    g: Handle,
    bytes: usize,
    subs: &[Vec<i64>],
    mut f: impl FnMut(&mut client::Client, usize, &[i64], usize) -> GaResult<()>,
) -> GaResult<()> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let e = a.elem;
        let n = a.grid.ndim();
        if bytes < subs.len() * e {
            return Err(GaError::new(
                call,
                format!(
                    "{} values need {} bytes, the buffer holds {bytes}",
                    subs.len(),
                    subs.len() * e
                ),
            ));
        }
        for (i, s) in subs.iter().enumerate() {
            if s.len() < n {
                return Err(GaError::new(
                    call,
                    format!("subscript {i} has {} entries, {n} needed", s.len()),
                ));
            }
            f(c, i, &s[..n], e)?;
        }
        Ok(())
    })
}

/// Starts GA (idempotent; collective over the compute ranks).
pub fn initialize() -> GaResult<()> {
    client::connect("GA_Initialize")?;
    client::with("GA_Initialize", |c| {
        if let Some(n) = c.server.iter().position(|&s| s < 0) {
            if c.node_of.iter().any(|&x| x as usize == n) {
                return Err(GaError::new(
                    "GA_Initialize",
                    format!(
                        "no ga-server runs on node {}: launch one per node, e.g. \
                         `mpiexec -n N app : -n 1 ga-server` or `mpbridge run --ga-servers -n N app`",
                        n
                    ),
                ));
            }
        }
        c.ga_active = true;
        Ok(())
    })?;
    pgroups::make_mirror("GA_Initialize")
}

/// Ends GA: destroys every array and tells the servers (collective).
pub fn terminate() -> GaResult<()> {
    let r = client::with("GA_Terminate", |c| {
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        c.comm.barrier().map_err(GaError::backend("GA_Terminate"))?;
        for i in 0..c.arrays.len() {
            if c.arrays[i].is_some() {
                c.destroy("GA_Terminate", i as i32 - 1000, false)?;
            }
        }
        c.ga_active = false;
        Ok(())
    });
    client::leave();
    r
}

/// Whether GA is initialised.
pub fn initialized() -> bool {
    client::is_active()
}

/// This process's rank among the compute ranks.
pub fn nodeid() -> i32 {
    client::with("GA_Nodeid", |c| Ok(c.me)).unwrap_or(0)
}

/// Number of compute ranks.
pub fn nnodes() -> i32 {
    client::with("GA_Nnodes", |c| Ok(c.nproc)).unwrap_or(1)
}

/// The node (host) of each compute rank, numbered 0.. in the order the
/// nodes first appear among the compute ranks.
pub fn compute_nodes() -> Vec<i32> {
    client::with("GA_Cluster_nnodes", |c| {
        let mut seen: Vec<u32> = Vec::new();
        Ok(c.node_of
            .iter()
            .map(|n| match seen.iter().position(|s| s == n) {
                Some(i) => i as i32,
                None => {
                    seen.push(*n);
                    seen.len() as i32 - 1
                }
            })
            .collect())
    })
    .unwrap_or_else(|_| vec![0])
}

/// The compute ranks' communicator (for `GA_MPI_Comm`); `MPI_COMM_WORLD`
/// before GA is initialised.
pub fn compute_comm() -> Comm {
    client::with("GA_MPI_Comm", |c| Ok(c.comm)).unwrap_or_else(|_| Comm::world())
}

/// `GA_Error`: prints `"<rank>: msg code"` and aborts the job.
pub fn abort(msg: &str, code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    eprintln!("{}: {} {}", nodeid(), msg, code);
    let _ = std::io::stderr().flush();
    shim_core::mpi::abort(Comm::world(), if code == 0 { 1 } else { code })
}

/// The world ranks holding the blocks of an array made on `members`:
/// every member, or those the restricted `list` names (by group rank).
fn restricted_holders(
    call: &'static str,
    members: &[i32],
    list: Option<Vec<i64>>,
) -> GaResult<Vec<i32>> {
    let Some(list) = list else {
        return Ok(members.to_vec());
    };
    let mut seen = vec![false; members.len()];
    let mut h = Vec::with_capacity(list.len());
    for &p in &list {
        if p < 0 || p as usize >= members.len() || seen[p as usize] {
            return Err(GaError::new(
                call,
                format!(
                    "restricted list {list:?}: entries must be distinct processes 0..{}",
                    members.len()
                ),
            ));
        }
        seen[p as usize] = true;
        h.push(members[p as usize]);
    }
    Ok(h)
}

/// Where an array made now lives: the group [`pgroups::creation_group`]
/// names (looked up before the client is taken: the world group's lookup
/// asks the client).
pub(crate) fn placement(call: &'static str) -> GaResult<client::Placement> {
    let pgroup = pgroups::creation_group();
    let (members, comm) = pgroups::group(call, pgroup)?;
    let holders = restricted_holders(call, &members, pgroups::creation_restricted())?;
    Ok(client::Placement {
        pgroup,
        members,
        holders,
        comm,
    })
}

/// Creates an array for `call` (collective over the group it is made on).
pub fn create(
    call: &'static str,
    ty: ElemType,
    dims: &[i64],
    name: &str,
    dist: &Distribution,
) -> GaResult<Handle> {
    let place = placement(call)?;
    client::with(call, |c| c.create(call, ty, dims, name, dist, &place))
}

/// Checks that an array of `dims` elements of `ty` has a byte size this
/// process can address; the error names `call`, the array and the sizes.
pub fn check_size(call: &'static str, ty: ElemType, dims: &[i64], name: &str) -> GaResult<()> {
    dist::array_bytes(call, name, dims, ty.size()).map(|_| ())
}

/// Creates an array with the type, shape and distribution of `g` (collective).
pub fn duplicate(g: Handle, name: &str) -> GaResult<Handle> {
    const CALL: &str = "GA_Duplicate";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        let (ty, dims, dist, w) = (a.ty, a.grid.dims.clone(), a.dist.clone(), a.width);
        let place = a.placement();
        c.create_on(CALL, ty, &dims, name, &dist, &w, &place, None)
    })
}

/// `GA_Overlay`: makes an array of type `ty`, `dims` and `dist` (ghost
/// widths `width`) named `name` on the processes of `parent`, each block lying where that
/// process's block of `parent` lies (collective). `Ok(None)` when some
/// block does not fit in its parent block (GA's FALSE).
pub fn overlay(
    call: &'static str,
    parent: Handle,
    (ty, dims, dist): (ElemType, &[i64], &Distribution),
    width: &[i64],
    name: &str,
) -> GaResult<Option<Handle>> {
    let restricted = pgroups::creation_restricted();
    client::with(call, |c| {
        // On the parent's group: every member, or the restricted list.
        let mut place = c.array(call, parent)?.placement();
        place.holders = restricted_holders(call, &place.members, restricted)?;
        if !c.overlay_fits(call, ty, dims, dist, width, parent, &place.holders)? {
            return Ok(None);
        }
        c.create_on(call, ty, dims, name, dist, width, &place, Some(parent))
            .map(Some)
    })
}

/// How `g` is distributed (as it was asked for when it was made).
pub fn distribution_of(g: Handle) -> GaResult<Distribution> {
    const CALL: &str = "GA_Assemble_duplicate";
    client::with(CALL, |c| Ok(c.array(CALL, g)?.dist.clone()))
}

/// Destroys an array (collective).
pub fn destroy(g: Handle) -> GaResult<()> {
    client::with("GA_Destroy", |c| c.destroy("GA_Destroy", g, true))
}

/// What makes an array again as it is now (`GA_Deallocate` of an array
/// that `NGA_Create` and its kin made keeps it for `GA_Allocate`).
#[derive(Clone, Debug)]
pub struct Description {
    /// (type, dimensions in C order, name): what `NGA_Create` takes.
    pub shape: (ElemType, Vec<i64>, String),
    /// Distribution as it was asked for.
    pub dist: Distribution,
    /// Ghost widths per dimension.
    pub width: Vec<i64>,
    /// The processor group the array lives on.
    pub pgroup: i32,
    /// The group ranks holding blocks 0, 1, ..., when they are not every
    /// member in order (`GA_Set_restricted`).
    pub restricted: Option<Vec<i64>>,
}

/// The description of the live array `g`.
pub fn describe(call: &'static str, g: Handle) -> GaResult<Description> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let restricted = (a.holders != a.members).then(|| {
            a.holders
                .iter()
                .map(|h| a.members.iter().position(|m| m == h).unwrap_or(0) as i64)
                .collect()
        });
        Ok(Description {
            shape: (a.ty, a.grid.dims.clone(), a.name.clone()),
            dist: a.dist.clone(),
            width: a.width[..a.grid.ndim()].to_vec(),
            pgroup: a.pgroup,
            restricted,
        })
    })
}

/// Destroys the array `g` (collective) but keeps its handle from other
/// arrays until [`take_handle`] gives it to a new one: GA's deallocated
/// arrays keep their handles.
pub fn destroy_keeping_handle(call: &'static str, g: Handle) -> GaResult<()> {
    client::with(call, |c| {
        let i = c.index(call, g)?;
        c.destroy(call, g, true)?;
        c.held.push(i);
        Ok(())
    })
}

/// Moves the array just made as `made` to the kept handle `g`, which it
/// answers to from now on; returns `g` (or `made` when `g` is not kept).
pub fn take_handle(made: Handle, g: Handle) -> Handle {
    client::with("GA_Allocate", |c| {
        let (Ok(from), to) = (
            c.index("GA_Allocate", made),
            g.wrapping_add(client::GA_OFFSET),
        ) else {
            return Ok(made);
        };
        let Some(k) = c.held.iter().position(|&s| to >= 0 && s == to as usize) else {
            return Ok(made);
        };
        c.held.swap_remove(k);
        c.arrays.swap(from, to as usize);
        Ok(g)
    })
    .unwrap_or(made)
}

/// Whether `g` names a live array.
pub fn valid(g: Handle) -> bool {
    client::with("GA_Valid_handle", |c| {
        Ok(c.index("GA_Valid_handle", g).is_ok())
    })
    .unwrap_or(false)
}

/// Type and dimensions of `g`.
pub fn inquire(g: Handle) -> GaResult<(ElemType, Vec<i64>)> {
    const CALL: &str = "NGA_Inquire";
    client::with(CALL, |c| {
        c.array(CALL, g).map(|a| (a.ty, a.grid.dims.clone()))
    })
}

/// Name of `g`.
pub fn name(g: Handle) -> GaResult<String> {
    const CALL: &str = "GA_Inquire_name";
    client::with(CALL, |c| c.array(CALL, g).map(|a| a.name.clone()))
}

/// The processor group `g` lives on, this process's rank in it and its
/// size.
pub fn array_group(g: Handle) -> GaResult<(i32, i32, i32)> {
    const CALL: &str = "GA_Get_pgroup";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        Ok((a.pgroup, a.grank, a.members.len() as i32))
    })
}

/// This process's rank in the group of `g` (block owners count in it).
pub fn array_rank(g: Handle) -> GaResult<i32> {
    array_group(g).map(|(_, r, _)| r)
}

/// Number of processes in the group of `g`.
pub fn array_nprocs(g: Handle) -> GaResult<i32> {
    array_group(g).map(|(_, _, n)| n)
}

/// Completes every operation, then a barrier of the group `g` lives on.
pub fn sync_array(g: Handle) -> GaResult<()> {
    const CALL: &str = "GA_Sync";
    client::with(CALL, |c| {
        let comm = c.array(CALL, g)?.gcomm;
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        comm.barrier().map_err(GaError::backend(CALL))?;
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        Ok(())
    })
}

/// Sums `x` element-wise over the group `g` lives on.
pub fn sum_on_array<T: GopNum>(call: &'static str, g: Handle, x: &mut [T]) -> GaResult<()> {
    let comm = client::with(call, |c| Ok(c.array(call, g)?.gcomm))?;
    shim_core::collective::Group::of(comm)
        .allreduce_elems(x, shim_core::collective::ReduceOp::Sum)
        .map_err(GaError::backend(call))
}

/// The block process `proc_` (a rank in the array's group) owns (lo, hi),
/// `None` if it owns nothing. For a block-cyclic array `proc_` numbers a
/// block instead, as in GA.
pub fn distribution(g: Handle, proc_: i32) -> GaResult<Option<(Vec<i64>, Vec<i64>)>> {
    const CALL: &str = "NGA_Distribution";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        let (count, what) = if a.grid.is_cyclic() {
            // Calls that walk the processes (printing, comparing
            // distributions) may ask past the last block: nothing there.
            if proc_ >= 0 && proc_ as i64 >= a.grid.total_blocks() {
                return Ok(None);
            }
            (a.grid.total_blocks(), "block")
        } else {
            (a.nprocs(), "process")
        };
        if proc_ < 0 || proc_ as i64 >= count {
            return Err(GaError::new(
                CALL,
                format!("{what} {proc_} out of range 0..{count}"),
            ));
        }
        let n = a.grid.ndim();
        let p = if a.grid.is_cyclic() {
            proc_ as i64
        } else {
            a.holder_index(proc_ as i64)
        };
        Ok(a.grid
            .block_of(p)
            .map(|(lo, hi)| (lo[..n].to_vec(), hi[..n].to_vec())))
    })
}

/// The compute rank owning element `subs`.
pub fn locate(g: Handle, subs: &[i64]) -> GaResult<i32> {
    const CALL: &str = "NGA_Locate";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        a.grid.check_patch(CALL, &a.name, subs, subs)?;
        Ok(a.group_rank(a.grid.owner(subs)) as i32)
    })
}

/// The owners of the patch `lo..=hi` with the part each owns.
pub fn locate_region(g: Handle, lo: &[i64], hi: &[i64]) -> GaResult<Vec<Region>> {
    const CALL: &str = "NGA_Locate_region";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        a.grid.check_patch(CALL, &a.name, lo, hi)?;
        let n = a.grid.ndim();
        let mut v = Vec::new();
        a.grid.parts(lo, hi, |o, l, h| -> GaResult<()> {
            v.push((a.group_rank(o) as i32, l[..n].to_vec(), h[..n].to_vec()));
            Ok(())
        })?;
        Ok(v)
    })
}

/// Whether `g` is block-cyclic, and whether it has a process grid
/// (ScaLAPACK-style or tiled).
pub fn cyclic_kind(g: Handle) -> GaResult<(bool, bool)> {
    const CALL: &str = "GA_Get_block_info";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        Ok((
            a.grid.is_cyclic(),
            matches!(a.grid.deal, dist::Deal::ProcGrid(_)),
        ))
    })
}

/// The (lo, hi) of every part of `lo..=hi` held by this process, for any
/// distribution (block-cyclic arrays give one part per block).
pub fn own_parts(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
) -> GaResult<Vec<(Vec<i64>, Vec<i64>)>> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let n = a.grid.ndim();
        let mut v = Vec::new();
        for b in a.grid.blocks_of_process(a.hproc) {
            if let Some((blo, bhi)) = a.grid.block_of(b) {
                let l: Vec<i64> = (0..n).map(|d| blo[d].max(lo[d])).collect();
                let h: Vec<i64> = (0..n).map(|d| bhi[d].min(hi[d])).collect();
                if (0..n).all(|d| l[d] <= h[d]) {
                    v.push((l, h));
                }
            }
        }
        Ok(v)
    })
}

/// Elements of `g` held by this process.
pub fn local_elements(g: Handle) -> GaResult<usize> {
    const CALL: &str = "GA_Inquire_memory";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        let n = a.grid.ndim();
        Ok(a.grid
            .blocks_of_process(a.hproc)
            .into_iter()
            .filter_map(|b| a.grid.block_of(b))
            .map(|(lo, hi)| {
                (0..n)
                    .map(|d| (hi[d] - lo[d] + 1) as usize)
                    .product::<usize>()
            })
            .sum())
    })
}

/// Block `b` of a block-cyclic array `g`, which this process must hold:
/// pointer to its first element, lo, hi and leading dimensions.
pub fn access_block(call: &'static str, g: Handle, b: i64) -> GaResult<LocalBlock> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        if !a.grid.is_cyclic() {
            return Err(GaError::new(
                call,
                format!("'{}' is not block-cyclic (use NGA_Access)", a.name),
            ));
        }
        let total = a.grid.total_blocks();
        if b < 0 || b >= total {
            return Err(GaError::new(
                call,
                format!("block {b} of '{}' out of range 0..{total}", a.name),
            ));
        }
        let holder = a.grid.process_of_block(b);
        if holder != a.hproc {
            return Err(GaError::new(
                call,
                format!(
                    "block {b} of '{}' is held by process {holder}, not by process {}",
                    a.name, a.grank
                ),
            ));
        }
        let n = a.grid.ndim();
        let (lo, hi) = a
            .grid
            .block_of(b)
            .ok_or_else(|| GaError::new(call, format!("no block {b}")))?;
        let p = crate::ptr::address(&a.seg, a.off[b as usize]);
        let ld: Vec<i64> = (1..n).map(|d| hi[d] - lo[d] + 1).collect();
        Ok((p, lo[..n].to_vec(), hi[..n].to_vec(), ld))
    })
}

/// Block number of the block at grid coordinates `coords` of a
/// block-cyclic array with a process grid.
pub fn block_at(call: &'static str, g: Handle, coords: &[i64]) -> GaResult<i64> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        if !matches!(a.grid.deal, dist::Deal::ProcGrid(_)) {
            return Err(GaError::new(
                call,
                format!(
                    "'{}' has no process grid (GA_Set_block_cyclic_proc_grid or GA_Set_tiled_proc_grid)",
                    a.name
                ),
            ));
        }
        let nb = a.grid.nblocks();
        let mut b = 0i64;
        for d in 0..nb.len() {
            if coords.len() <= d || coords[d] < 0 || coords[d] >= nb[d] {
                return Err(GaError::new(
                    call,
                    format!("block index {coords:?} outside the block grid {nb:?}"),
                ));
            }
            b = b * nb[d] + coords[d];
        }
        Ok(b)
    })
}

/// The tiles process `p` holds of a block-cyclic array, end to end: the
/// address of the first and the number of elements (null and 0 if none).
/// Only this process's own segment is addressable.
pub fn access_block_segment(call: &'static str, g: Handle, p: i32) -> GaResult<(*mut u8, usize)> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        if !a.grid.is_cyclic() {
            return Err(GaError::new(
                call,
                format!("'{}' is not block-cyclic (use NGA_Access)", a.name),
            ));
        }
        if p != a.grank {
            return Err(GaError::new(
                call,
                format!(
                    "process {} can access only its own segment, not that of process {p}",
                    a.grank
                ),
            ));
        }
        let n = a.grid.ndim();
        let mine = a.grid.blocks_of_process(a.hproc);
        let Some(&first) = mine.first() else {
            return Ok((std::ptr::null_mut(), 0));
        };
        let len = mine
            .iter()
            .filter_map(|&b| a.grid.block_of(b))
            .map(|(lo, hi)| {
                (0..n)
                    .map(|d| (hi[d] - lo[d] + 1) as usize)
                    .product::<usize>()
            })
            .sum();
        Ok((crate::ptr::address(&a.seg, a.off[first as usize]), len))
    })
}

/// The process grid of `g` in C order and whether it is a ScaLAPACK-style
/// or tiled one: blocks per dimension for a regular array, the grid given
/// for a proc-grid array, zeros for a block-cyclic array dealt round-robin
/// (which has no grid, as in GA).
pub fn proc_grid(g: Handle) -> GaResult<(Vec<i64>, bool)> {
    const CALL: &str = "GA_Get_proc_grid";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        Ok(match &a.grid.deal {
            dist::Deal::OnePerProcess => (a.grid.nblocks(), false),
            dist::Deal::RoundRobin(_) => (vec![0; a.grid.ndim()], false),
            dist::Deal::ProcGrid(pg) => (pg.clone(), true),
        })
    })
}

/// Process `p`'s place in the process grid of `g`, in Fortran order (the
/// first coordinate varies fastest, 0-based), and whether the grid is a
/// ScaLAPACK-style or tiled one. As in GA a process past the grid wraps
/// around it; an array without a grid, or a negative `p`, is an error.
pub fn proc_coords(call: &'static str, g: Handle, p: i64) -> GaResult<(Vec<i64>, bool)> {
    let (grid, pgrid) = proc_grid(g)?;
    if grid.iter().any(|&n| n <= 0) {
        return Err(GaError::new(
            call,
            "a block-cyclic array without a process grid has no process topology",
        ));
    }
    if p < 0 {
        return Err(GaError::new(call, format!("process {p} is negative")));
    }
    let mut rest = p;
    let coords = grid
        .iter()
        .rev()
        .map(|&n| {
            let c = rest % n;
            rest /= n;
            c
        })
        .collect();
    Ok((coords, pgrid))
}

/// Blocks per dimension and the block sizes of a block-cyclic `g`.
pub fn block_info(call: &'static str, g: Handle) -> GaResult<(Vec<i64>, Vec<i64>)> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let block = match &a.dist {
            Distribution::BlockCyclic { block, .. } => block.clone(),
            _ => {
                return Err(GaError::new(
                    call,
                    format!("'{}' is not block-cyclic", a.name),
                ))
            }
        };
        Ok((a.grid.nblocks(), block))
    })
}

/// Blocks per dimension and the concatenated block starts of `g`.
pub fn block_grid(g: Handle) -> GaResult<(Vec<i64>, Vec<i64>)> {
    const CALL: &str = "GA_Get_block_info";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        Ok((a.grid.nblocks(), a.grid.starts.concat()))
    })
}

/// Copies `buf` into the patch `lo..=hi`.
pub fn put(g: Handle, lo: &[i64], hi: &[i64], buf: &[u8], ld: &[i64]) -> GaResult<()> {
    client::with("NGA_Put", |c| c.put(g, lo, hi, buf, ld, "NGA_Put"))
}

/// Copies the patch `lo..=hi` into `buf`.
pub fn get(g: Handle, lo: &[i64], hi: &[i64], buf: &mut [u8], ld: &[i64]) -> GaResult<()> {
    client::with("NGA_Get", |c| c.get(g, lo, hi, buf, ld, "NGA_Get"))
}

/// Atomically adds `alpha·buf` to the patch `lo..=hi`.
pub fn acc(
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: &[u8],
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    client::with("NGA_Acc", |c| c.acc(g, lo, hi, buf, ld, alpha, "NGA_Acc"))
}

/// Atomically adds `inc` to element `subs`; returns its old value.
pub fn read_inc(g: Handle, subs: &[i64], inc: i64) -> GaResult<i64> {
    client::with("NGA_Read_inc", |c| c.read_inc(g, subs, inc))
}

/// Stores `vals[i]` at element `subs[i]`.
pub fn scatter(g: Handle, vals: &[u8], subs: &[Vec<i64>]) -> GaResult<()> {
    elementwise("NGA_Scatter", g, vals.len(), subs, |c, i, s, e| {
        c.put(g, s, s, &vals[i * e..(i + 1) * e], &[1; 6], "NGA_Scatter")
    })
}

/// Loads element `subs[i]` into `vals[i]`.
pub fn gather(g: Handle, vals: &mut [u8], subs: &[Vec<i64>]) -> GaResult<()> {
    let n = vals.len();
    elementwise("NGA_Gather", g, n, subs, |c, i, s, e| {
        c.get(
            g,
            s,
            s,
            &mut vals[i * e..(i + 1) * e],
            &[1; 6],
            "NGA_Gather",
        )
    })
}

/// Atomically adds `alpha·vals[i]` to element `subs[i]`.
pub fn scatter_acc(g: Handle, vals: &[u8], subs: &[Vec<i64>], alpha: &[u8]) -> GaResult<()> {
    elementwise("NGA_Scatter_acc", g, vals.len(), subs, |c, i, s, e| {
        c.acc(
            g,
            s,
            s,
            &vals[i * e..(i + 1) * e],
            &[1; 6],
            alpha,
            "NGA_Scatter_acc",
        )
    })
}

/// A non-blocking operation's handle (the C `ga_nbhdl_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NbHandle(pub i64);

/// Non-blocking put; `buf` may be reused as soon as this returns.
pub fn nb_put(g: Handle, lo: &[i64], hi: &[i64], buf: &[u8], ld: &[i64]) -> GaResult<i64> {
    put(g, lo, hi, buf, ld)?;
    Ok(next_nb())
}

/// Non-blocking get into `buf`; it completes before this returns.
pub fn nb_get(g: Handle, lo: &[i64], hi: &[i64], buf: &mut [u8], ld: &[i64]) -> GaResult<i64> {
    get(g, lo, hi, buf, ld)?;
    Ok(next_nb())
}

/// Non-blocking accumulate; `buf` may be reused as soon as this returns.
pub fn nb_acc(
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: &[u8],
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<i64> {
    acc(g, lo, hi, buf, ld, alpha)?;
    Ok(next_nb())
}

/// Waits for a non-blocking operation (local completion).
pub fn nb_wait(h: i64) -> GaResult<()> {
    let _ = h;
    Ok(())
}

/// Whether a non-blocking operation completed.
pub fn nb_test(h: i64) -> GaResult<bool> {
    let _ = h;
    Ok(true)
}

/// This process's own block of `g`: pointer into the shared segment, its
/// lo/hi and leading dimensions (elements); `None` if it owns nothing.
pub fn access(g: Handle) -> GaResult<Option<LocalBlock>> {
    const CALL: &str = "NGA_Access";
    client::with(CALL, |c| {
        let a = c.array(CALL, g)?;
        if a.grid.is_cyclic() {
            return Err(GaError::new(
                CALL,
                format!(
                    "'{}' is block-cyclic: use NGA_Access_block, NGA_Access_block_grid \
                     or NGA_Access_block_segment",
                    a.name
                ),
            ));
        }
        let me = a.hproc;
        let n = a.grid.ndim();
        Ok(a.grid.block_of(me).map(|(lo, hi)| {
            // The first element of the block proper (inside any ghost frame).
            let o = me as usize;
            let skip: usize = (0..n).map(|d| a.width[d] as usize * a.bstr[o][d]).sum();
            let p = crate::ptr::address(&a.seg, a.off[o] + skip * a.elem);
            let ld: Vec<i64> = (1..n).map(|d| hi[d] - lo[d] + 1 + 2 * a.width[d]).collect();
            (p, lo[..n].to_vec(), hi[..n].to_vec(), ld)
        }))
    })
}

/// Ends an access without changes.
pub fn release(g: Handle) {
    let _ = g;
}

/// Ends an access after changing the block.
pub fn release_update(g: Handle) {
    let _ = g;
}

/// Completes every operation, then a barrier of the compute ranks.
pub fn sync() -> GaResult<()> {
    client::with("GA_Sync", |c| {
        c.link.inflight.wait(|_| true)?;
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        c.comm.barrier().map_err(GaError::backend("GA_Sync"))?;
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        Ok(())
    })
}

/// Waits until this process's operations since `init_fence` completed remotely.
pub fn fence() -> GaResult<()> {
    // Every blocking operation completes at the target before its call
    // returns; non-blocking ARMCI transfers finish here.
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    client::with("GA_Fence", |c| c.link.inflight.wait(|_| true))
}

/// Starts tracking operations for [`fence`].
pub fn init_fence() {}

/// Creates `n` mutexes (collective).
pub fn create_mutexes(n: i32) -> GaResult<()> {
    const CALL: &str = "GA_Create_mutexes";
    client::with(CALL, |c| {
        if n < 0 || n as usize > protocol::MAX_MUTEXES {
            return Err(GaError::new(
                CALL,
                format!(
                    "{n} mutexes requested, 0 to {} allowed",
                    protocol::MAX_MUTEXES
                ),
            ));
        }
        if c.nmutex > 0 {
            return Err(GaError::new(
                CALL,
                "mutexes exist already (destroy them first)",
            ));
        }
        c.comm.barrier().map_err(GaError::backend(CALL))?;
        if c.me == 0 {
            c.mutex_op(CALL, protocol::Op::MutexInit, n as i64)?;
        }
        c.comm.barrier().map_err(GaError::backend(CALL))?;
        c.nmutex = n;
        Ok(())
    })
}

/// Destroys the mutexes (collective).
pub fn destroy_mutexes() -> GaResult<()> {
    const CALL: &str = "GA_Destroy_mutexes";
    client::with(CALL, |c| {
        if c.nmutex == 0 {
            return Err(GaError::new(CALL, "no mutexes exist"));
        }
        c.comm.barrier().map_err(GaError::backend(CALL))?;
        c.nmutex = 0;
        Ok(())
    })
}

/// Locks mutex `m`.
pub fn lock(m: i32) -> GaResult<()> {
    const CALL: &str = "GA_Lock";
    let mut wait = shim_core::backoff::Backoff::new();
    loop {
        let got = client::with(CALL, |c| {
            if m < 0 || m >= c.nmutex {
                return Err(GaError::new(
                    CALL,
                    format!("mutex {m} does not exist ({} created)", c.nmutex),
                ));
            }
            c.mutex_op(CALL, protocol::Op::MutexTry, m as i64)
        })?;
        if got == 1 {
            return Ok(());
        }
        wait.pause();
    }
}

/// Unlocks mutex `m`.
pub fn unlock(m: i32) -> GaResult<()> {
    const CALL: &str = "GA_Unlock";
    client::with(CALL, |c| {
        if m < 0 || m >= c.nmutex {
            return Err(GaError::new(
                CALL,
                format!("mutex {m} does not exist ({} created)", c.nmutex),
            ));
        }
        c.mutex_op(CALL, protocol::Op::MutexUnlock, m as i64)
            .map(|_| ())
    })
}

/// Broadcasts `buf` from compute rank `root` (collective).
pub fn brdcst(buf: &mut [u8], root: i32) -> GaResult<()> {
    const CALL: &str = "GA_Brdcst";
    client::with(CALL, |c| {
        if root < 0 || root >= c.nproc {
            return Err(GaError::new(
                CALL,
                format!("root {root} out of range 0..{}", c.nproc),
            ));
        }
        c.comm
            .bcast(buf, Root::Rank(root))
            .map_err(|e| GaError::new(CALL, e.to_string()))
    })
}

/// Sends `buf` with message tag `tag` to compute rank `to`; returns once
/// `buf` may be reused (point to point, for `armci_msg_snd`).
pub fn msg_send(call: &'static str, tag: i32, buf: &[u8], to: i32) -> GaResult<()> {
    client::with(call, |c| {
        if to < 0 || to >= c.nproc {
            return Err(GaError::new(
                call,
                format!("process {to} out of range 0..{}", c.nproc),
            ));
        }
        if tag < 0 {
            return Err(GaError::new(call, format!("tag {tag} is negative")));
        }
        shim_core::mpi::send_blocking(buf, to, tag, c.comm)
            .map_err(|e| GaError::new(call, e.to_string()))
    })
}

/// Receives the next message with tag `tag` from compute rank `from` (from
/// any rank if None) into `buf`; returns its length and sender. A message
/// longer than `buf` is an error (it is taken and dropped).
pub fn msg_recv(
    call: &'static str,
    tag: i32,
    buf: &mut [u8],
    from: Option<i32>,
) -> GaResult<(usize, i32)> {
    client::with(call, |c| {
        let source = match from {
            Some(f) if f < 0 || f >= c.nproc => {
                return Err(GaError::new(
                    call,
                    format!("process {f} out of range 0..{}", c.nproc),
                ))
            }
            Some(f) => f,
            None => shim_core::mpi::any_source(),
        };
        if tag < 0 {
            return Err(GaError::new(call, format!("tag {tag} is negative")));
        }
        let be = |e: shim_core::CoreError| GaError::new(call, e.to_string());
        let m = shim_core::mpi::mprobe(source, tag, c.comm, || {}).map_err(be)?;
        let (len, sender) = (m.len(), m.source());
        if len > buf.len() {
            return Err(GaError::new(
                call,
                format!(
                    "a message of {len} bytes from process {sender} does not fit the buffer of {}",
                    buf.len()
                ),
            ));
        }
        m.recv(buf, || {}).map_err(be)?;
        Ok((len, sender))
    })
}

/// Every compute rank's `mine` (all of one length), in rank order
/// (collective).
pub fn msg_allgather(call: &'static str, mine: &[u8]) -> GaResult<Vec<u8>> {
    client::with(call, |c| {
        c.comm
            .allgather(mine)
            .map_err(|e| GaError::new(call, e.to_string()))
    })
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_f64(x: &mut [f64], op: &str) -> GaResult<()> {
    gops::reduce("GA_Dgop", x, op, false)
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_f32(x: &mut [f32], op: &str) -> GaResult<()> {
    gops::reduce("GA_Sgop", x, op, false)
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_i32(x: &mut [i32], op: &str) -> GaResult<()> {
    gops::reduce("GA_Igop", x, op, true)
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_i64(x: &mut [i64], op: &str) -> GaResult<()> {
    gops::reduce("GA_Lgop", x, op, true)
}

/// Wall-clock seconds.
pub fn wtime() -> f64 {
    shim_core::mpi::wtime()
}

/// Process ids of the `ga-server`s (for tests that watch or stop them).
#[doc(hidden)]
pub fn server_pids() -> Vec<i32> {
    client::with("server_pids", |c| {
        Ok(c.server_pid.iter().copied().filter(|&p| p > 0).collect())
    })
    .unwrap_or_default()
}

/// The id `g` has on the servers (for tests that send hand-made requests).
#[doc(hidden)]
pub fn server_array_id(g: Handle) -> GaResult<u32> {
    client::with("server_array_id", |c| {
        Ok(c.array("server_array_id", g)?.serial)
    })
}

/// Sends a hand-made request with `payload` to the `ga-server` of this
/// process's node, the way the client sends its own, and returns the reply
/// header; an error reply becomes `Err` (for tests of the server's checks).
#[doc(hidden)]
pub fn raw_request(req: &protocol::Req, payload: &[u8]) -> GaResult<protocol::Rep> {
    const CALL: &str = "raw_request";
    client::with(CALL, |c| {
        let s = c.server[c.my_node as usize];
        if s < 0 {
            return Err(GaError::new(CALL, "no ga-server on this node"));
        }
        c.link.rpc(CALL, s, req, payload)
    })
}
