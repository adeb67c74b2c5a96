//! Processor groups (`GA_Pgroup_*`): named subsets of the compute ranks
//! with their own collectives, and the default group that `GA_Nodeid`,
//! `GA_Nnodes`, `GA_Sync`, `GA_Brdcst` and the `GA_*gop` reductions of the
//! C and Fortran APIs refer to.
//!
//! Handles follow GA 5.8: the world group is −1 (also the first default),
//! the mirror group 0, and groups made by the program are numbered from 2
//! in the order they are made (`GA_Pgroup_split` into k groups takes k
//! consecutive numbers, each process getting its own group's). A group
//! lists its members as compute ranks in ascending order, as GA sorts the
//! list given to `GA_Pgroup_create`; each member holds an MPI
//! communicator of the group, split from its parent's.
//!
//! An array lives on the group it is created on: the default group, or
//! the group named by `NGA_Create_config`/`GA_Set_pgroup` (see
//! [`on_group`]); its members alone create, use and destroy it.

use super::types::{GaError, GaResult};
use super::{gops, nnodes, nodeid};
use shim_core::collective::{Group, ReduceOp};
use shim_core::idhash::IdMap;
use shim_core::mpi::Comm as MpiComm;
use shim_core::mpi::Root;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// GA's handle of the world group.
pub const WORLD: i32 = -1;
/// GA's handle of the mirror group.
pub const MIRROR: i32 = 0;
/// First handle GA gives a group the program makes.
const FIRST: i32 = 2;

struct PGroup {
    /// Compute ranks, ascending.
    members: Vec<i32>,
    /// The group's communicator (members only).
    comm: MpiComm,
}

struct Table {
    /// Keyed by handle with the core's integer hasher: every group
    /// collective looks its group up, and SipHash cost more than the rest
    /// of a short reduction's own work.
    groups: IdMap<i32, PGroup>,
    next: i32,
    default: i32,
}

impl Table {
    /// Records group `h` (see [`GENERATION`]).
    fn insert(&mut self, h: i32, g: PGroup) -> Option<PGroup> {
        GENERATION.fetch_add(1, Ordering::Release);
        self.groups.insert(h, g)
    }

    /// Forgets group `h` (see [`GENERATION`]).
    fn remove(&mut self, h: i32) -> Option<PGroup> {
        GENERATION.fetch_add(1, Ordering::Release);
        self.groups.remove(&h)
    }
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);

/// Counts the changes of the table's groups (bumped under its lock as a
/// group enters or leaves it): a lookup remembered in [`LAST`] holds only
/// while the count is the one it was made at.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The last group this thread's collectives looked up: the change
    /// count then, its handle and its communicator. A loop of collectives
    /// on one group then skips the table's lock and map.
    static LAST: Cell<Option<(u64, i32, MpiComm)>> = const { Cell::new(None) };
}

fn with_table<R>(f: impl FnOnce(&mut Table) -> R) -> R {
    let mut g = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    let t = g.get_or_insert_with(|| Table {
        groups: IdMap::default(),
        next: FIRST,
        default: WORLD,
    });
    f(t)
}

/// Members and communicator of group `h` as this process sees it.
pub(crate) fn group(call: &'static str, h: i32) -> GaResult<(Vec<i32>, MpiComm)> {
    if h == WORLD {
        return Ok(((0..nnodes()).collect(), comm_of(call, h)?));
    }
    with_group(call, h, |g| (g.members.clone(), g.comm))
}

/// The communicator of group `h` alone (no copy of the member list, for
/// the collectives). Inlined: its usual way out is a remembered lookup.
#[inline]
fn comm_of(call: &'static str, h: i32) -> GaResult<MpiComm> {
    if h == WORLD {
        return shim_core::roles::compute_comm().map_err(|e| GaError::new(call, e.to_string()));
    }
    // The count is read before the lookup: a change after it makes the
    // remembered lookup stale at once.
    let generation = GENERATION.load(Ordering::Acquire);
    if let Some((seen, last, comm)) = LAST.get() {
        if seen == generation && last == h {
            return Ok(comm);
        }
    }
    look_up_comm(call, h, generation)
}

/// [`comm_of`] through the table, remembered in [`LAST`] as found at
/// change count `generation` (kept out of line: a loop of collectives on
/// one group finds it remembered).
#[cold]
#[inline(never)]
fn look_up_comm(call: &'static str, h: i32, generation: u64) -> GaResult<MpiComm> {
    let comm = with_group(call, h, |g| g.comm)?;
    LAST.set(Some((generation, h, comm)));
    Ok(comm)
}

/// `f` of group `h`, or the error that this process is not in it.
fn with_group<R>(call: &'static str, h: i32, f: impl FnOnce(&PGroup) -> R) -> GaResult<R> {
    with_table(|t| {
        t.groups.get(&h).map(f).ok_or_else(|| {
            GaError::new(
                call,
                format!(
                    "process {} is not in processor group {h} (or it does not exist)",
                    nodeid()
                ),
            )
        })
    })
}

/// Makes the mirror group: the compute ranks of this process's node, on a
/// communicator split from the compute ranks' by node (collective over
/// them; done by `GA_Initialize`). An array made on it has one copy per
/// node, in that node's `ga-server` segment, dealt over the node's ranks.
pub(crate) fn make_mirror(call: &'static str) -> GaResult<()> {
    let nodes = super::compute_nodes();
    let me = nodeid();
    let mine = nodes.get(me as usize).copied().unwrap_or(0);
    let members: Vec<i32> = (0..nodes.len() as i32)
        .filter(|&r| nodes[r as usize] == mine)
        .collect();
    let world = shim_core::roles::compute_comm().map_err(core_err(call))?;
    let comm = split(call, world, Some(mine), me)?
        .ok_or_else(|| GaError::new(call, "no communicator for this node's ranks"))?;
    let old = with_table(|t| t.insert(MIRROR, PGroup { members, comm }));
    if let Some(g) = old {
        g.comm.free().map_err(core_err(call))?;
    }
    Ok(())
}

/// This process's rank in `members`.
fn rank_in(call: &'static str, h: i32, members: &[i32]) -> GaResult<i32> {
    let me = nodeid();
    members
        .iter()
        .position(|&m| m == me)
        .map(|r| r as i32)
        .ok_or_else(|| GaError::new(call, format!("process {me} is not in processor group {h}")))
}

fn core_err(call: &'static str) -> impl Fn(shim_core::CoreError) -> GaError {
    move |e| GaError::new(call, e.to_string())
}

/// The group's own communicator for processes in `members` (split from
/// `parent`, collective over it); `None` for the others.
fn split(
    call: &'static str,
    parent: MpiComm,
    color: Option<i32>,
    key: i32,
) -> GaResult<Option<MpiComm>> {
    parent.split(color, key).map_err(core_err(call))
}

/// `GA_Pgroup_create`: a group of `list` (ranks in the default group),
/// collective over the default group. Returns the new handle.
pub fn create(call: &'static str, list: &[i64]) -> GaResult<i32> {
    create_in(call, default_group(), list)
}

/// A group of `list` (ranks in group `def`), collective over `def`
/// (ARMCI_Group_create_child's parent). Returns the new handle.
pub fn create_in(call: &'static str, def: i32, list: &[i64]) -> GaResult<i32> {
    let (dmembers, dcomm) = group(call, def)?;
    let my = rank_in(call, def, &dmembers)?;
    if list.is_empty() {
        return Err(GaError::new(call, "the list of processes is empty"));
    }
    let mut abs = Vec::with_capacity(list.len());
    for &r in list {
        if r < 0 || r as usize >= dmembers.len() {
            return Err(GaError::new(
                call,
                format!(
                    "process {r} is not in the default group of {} processes",
                    dmembers.len()
                ),
            ));
        }
        abs.push(dmembers[r as usize]);
    }
    abs.sort_unstable();
    if abs.windows(2).any(|w| w[0] == w[1]) {
        return Err(GaError::new(
            call,
            format!("the list {list:?} names a process twice"),
        ));
    }
    let mine = abs.contains(&nodeid());
    let comm = split(call, dcomm, mine.then_some(0), my)?;
    Ok(register(abs, comm, 1, 0))
}

/// Takes `count` consecutive handles; `mine` (0-based among them) is this
/// process's group, recorded with `members` and `comm` when it has one.
fn register(members: Vec<i32>, comm: Option<MpiComm>, count: i32, mine: i32) -> i32 {
    with_table(|t| {
        let h = t.next + mine;
        t.next += count;
        if let Some(c) = comm {
            t.insert(h, PGroup { members, comm: c });
        }
        h
    })
}

/// `GA_Pgroup_split`: `grp` cut into `num` groups of consecutive ranks, all
/// but the last of ⌈size/num⌉ (collective over `grp`). Returns this
/// process's group; `num` 0 returns `grp` itself.
pub fn split_even(call: &'static str, grp: i32, num: i64) -> GaResult<i32> {
    if num < 0 {
        return Err(GaError::new(
            call,
            format!("number of groups {num} is negative"),
        ));
    }
    if num == 0 {
        return Ok(grp);
    }
    let (members, comm) = group(call, grp)?;
    let n = members.len() as i64;
    let size = (n + num - 1) / num;
    let ngroups = (n + size - 1) / size;
    let my = rank_in(call, grp, &members)? as i64;
    let idx = my / size;
    let lo = (idx * size) as usize;
    let hi = (((idx + 1) * size).min(n)) as usize;
    let sub = members[lo..hi].to_vec();
    let c = split(call, comm, Some(idx as i32), my as i32)?;
    Ok(register(sub, c, ngroups as i32, idx as i32))
}

/// `GA_Pgroup_split_irreg`: the processes of `grp` with the same `color`
/// form a group (collective over `grp`). Returns this process's group.
pub fn split_color(call: &'static str, grp: i32, color: i64) -> GaResult<i32> {
    if color < 0 {
        return Err(GaError::new(call, format!("color {color} is negative")));
    }
    let (members, comm) = group(call, grp)?;
    let my = rank_in(call, grp, &members)?;
    let all = comm
        .allgather(&color.to_le_bytes())
        .map_err(GaError::backend(call))?;
    let sub: Vec<i32> = all
        .chunks_exact(8)
        .enumerate()
        .filter(|(_, c)| i64::from_le_bytes((*c).try_into().unwrap_or_default()) == color)
        .map(|(i, _)| members[i])
        .collect();
    let c = split(call, comm, Some(color.min(i32::MAX as i64) as i32), my)?;
    Ok(register(sub, c, 1, 0))
}

/// `GA_Pgroup_self`: a group of this process alone (not collective).
pub fn self_group() -> i32 {
    register(vec![nodeid()], Some(MpiComm::self_comm()), 1, 0)
}

/// `GA_Pgroup_duplicate`: a new group of the same members (collective
/// over `grp`).
pub fn duplicate(call: &'static str, grp: i32) -> GaResult<i32> {
    let (members, comm) = group(call, grp)?;
    let c = comm.dup().map_err(core_err(call))?;
    Ok(register(members, Some(c), 1, 0))
}

/// `GA_Pgroup_destroy`: forgets a group made by the program (collective
/// over it). The world and mirror groups cannot be destroyed.
pub fn destroy(call: &'static str, grp: i32) -> GaResult<()> {
    if grp == WORLD || grp == MIRROR {
        return Err(GaError::new(
            call,
            format!("group {grp} cannot be destroyed"),
        ));
    }
    let g = with_table(|t| {
        if t.default == grp {
            t.default = WORLD;
        }
        t.remove(grp)
    });
    match g {
        Some(g) => {
            g.comm.barrier().map_err(GaError::backend(call))?;
            if g.comm != MpiComm::self_comm() {
                g.comm.free().map_err(core_err(call))?;
            }
            Ok(())
        }
        None => Err(GaError::new(
            call,
            format!("processor group {grp} does not exist here"),
        )),
    }
}

/// `GA_Pgroup_set_default`.
pub fn set_default(call: &'static str, grp: i32) -> GaResult<()> {
    group(call, grp)?;
    with_table(|t| t.default = grp);
    Ok(())
}

/// `GA_Pgroup_get_default`.
pub fn default_group() -> i32 {
    with_table(|t| t.default)
}

/// The group named for the creation under way (by [`on_group`]).
static CREATION: Mutex<Option<i32>> = Mutex::new(None);

/// Runs `f` (an array creation) with arrays made on group `grp` instead of
/// the default group.
pub fn on_group<R>(grp: i32, f: impl FnOnce() -> R) -> R {
    let old = CREATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .replace(grp);
    let r = f();
    *CREATION.lock().unwrap_or_else(|e| e.into_inner()) = old;
    r
}

/// The processes (ranks in the creation group) that hold the blocks of the
/// array made now, from `GA_Set_restricted` (None: every member).
static RESTRICTED: Mutex<Option<Vec<i64>>> = Mutex::new(None);

/// Runs `f` (an array creation) with the array's blocks on the listed
/// processes only (the i-th listed process holds block i).
pub fn on_restricted<R>(list: Option<Vec<i64>>, f: impl FnOnce() -> R) -> R {
    let old = std::mem::replace(
        &mut *RESTRICTED.lock().unwrap_or_else(|e| e.into_inner()),
        list,
    );
    let r = f();
    *RESTRICTED.lock().unwrap_or_else(|e| e.into_inner()) = old;
    r
}

/// The restricted list of the creation under way (by [`on_restricted`]).
pub fn creation_restricted() -> Option<Vec<i64>> {
    RESTRICTED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The group a new array is made on: the one [`on_group`] names, else the
/// default group.
pub fn creation_group() -> i32 {
    CREATION
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or_else(default_group)
}

/// `GA_Pgroup_nodeid`: this process's rank in `grp`.
pub fn group_nodeid(call: &'static str, grp: i32) -> GaResult<i32> {
    let (m, _) = group(call, grp)?;
    rank_in(call, grp, &m)
}

/// `GA_Pgroup_nnodes`: the size of `grp`.
pub fn group_nnodes(call: &'static str, grp: i32) -> GaResult<i32> {
    Ok(group(call, grp)?.0.len() as i32)
}

/// `GA_Pgroup_absolute_id`: the world (compute) rank of rank `pid` of `grp`.
pub fn absolute_id(call: &'static str, grp: i32, pid: i64) -> GaResult<i32> {
    let (m, _) = group(call, grp)?;
    usize::try_from(pid)
        .ok()
        .and_then(|p| m.get(p).copied())
        .ok_or_else(|| {
            GaError::new(
                call,
                format!("rank {pid} is not in group {grp} of {} processes", m.len()),
            )
        })
}

/// `GA_Pgroup_sync`: completes this process's operations, then a barrier
/// of the group.
pub fn sync(call: &'static str, grp: i32) -> GaResult<()> {
    if grp == WORLD {
        return super::sync();
    }
    let comm = comm_of(call, grp)?;
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    comm.barrier().map_err(GaError::backend(call))
}

/// `GA_Pgroup_brdcst`: `buf` from group rank `root` to the group.
pub fn brdcst(call: &'static str, grp: i32, buf: &mut [u8], root: i64) -> GaResult<()> {
    let (m, comm) = group(call, grp)?;
    if root < 0 || root as usize >= m.len() {
        return Err(GaError::new(
            call,
            format!("root {root} is not in group {grp} of {} processes", m.len()),
        ));
    }
    comm.bcast(buf, Root::Rank(root as i32))
        .map_err(GaError::backend(call))
}

/// `GA_Pgroup_*gop`: element-wise reduction over `grp` with a TCGMSG op
/// (text or the bytes of a C string).
pub fn gop<T: gops::Num>(
    call: &'static str,
    grp: i32,
    x: &mut [T],
    op: &(impl AsRef<[u8]> + ?Sized),
    integer: bool,
) -> GaResult<()> {
    let (r, abs): (ReduceOp, bool) = gops::op_of(call, op.as_ref(), integer)?;
    let comm = comm_of(call, grp)?;
    if abs {
        for v in x.iter_mut() {
            *v = v.abs();
        }
    }
    Group::of(comm)
        .allreduce_elems(x, r)
        .map_err(GaError::backend(call))
}

// The program's view: the default group.

/// `GA_Nodeid`: rank in the default group.
pub fn app_nodeid() -> i32 {
    let d = default_group();
    if d == WORLD {
        return nodeid();
    }
    group_nodeid("GA_Nodeid", d).unwrap_or_else(|_| nodeid())
}

/// `GA_Nnodes`: size of the default group.
pub fn app_nnodes() -> i32 {
    let d = default_group();
    if d == WORLD {
        return nnodes();
    }
    group_nnodes("GA_Nnodes", d).unwrap_or_else(|_| nnodes())
}

/// `GA_Sync` over the default group.
pub fn app_sync() -> GaResult<()> {
    sync("GA_Sync", default_group())
}

/// `GA_Brdcst` over the default group (root counted in it).
pub fn app_brdcst(buf: &mut [u8], root: i32) -> GaResult<()> {
    let d = default_group();
    if d == WORLD {
        return super::brdcst(buf, root);
    }
    brdcst("GA_Brdcst", d, buf, i64::from(root))
}

/// A `GA_*gop` reduction over the default group.
pub fn app_gop<T: gops::Num>(
    call: &'static str,
    x: &mut [T],
    op: &(impl AsRef<[u8]> + ?Sized),
    integer: bool,
) -> GaResult<()> {
    gop(call, default_group(), x, op, integer)
}

/// `GA_MPI_Comm_pgroup`: the raw communicator of `grp`.
pub fn raw_comm(call: &'static str, grp: i32) -> GaResult<shim_core::mpi::RawComm> {
    Ok(group(call, grp)?.1.raw())
}

/// The Fortran handle of group `grp`'s communicator.
pub fn fortran_comm(call: &'static str, grp: i32) -> GaResult<i64> {
    Ok(group(call, grp)?.1.fortran_handle())
}
