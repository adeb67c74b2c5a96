//! ARMCI's processor groups (`ARMCI_Group_*`, `ARMCI_Absolute_id`,
//! `ARMCI_Malloc_group`/`ARMCI_Free_group`, `ARMCI_Uses_shm_grp`) and the
//! group forms of the `armci_msg_*` collectives, on GA's processor groups.
//!
//! An `ARMCI_Group` is the struct Debian's `armci.h` declares. Each one
//! made here stands for one GA processor group: `comm` is that group's MPI
//! communicator (as is `noncoll_pgroup_comm`), `rank` and `size` this
//! process's rank in it and its size, `grp_to_abs[r]` the compute rank of
//! group rank r and `abs_to_grp[p]` the group rank of compute rank p (-1
//! outside). Those two lists belong to the library until
//! `ARMCI_Group_free`; the library knows its groups by them, so a copy of
//! the struct names the same group. A process left out of a new group gets
//! `rank` -1, `size` 0, `comm` `MPI_COMM_NULL` and no lists (and
//! `ARMCI_Group_rank` returns 1 for it), as with Debian's ARMCI-MPI;
//! memory and collectives on such a group end the job.
//!
//! Creation is collective over the parent (the default group for
//! `ARMCI_Group_create`), with the members named by their rank in the
//! parent; `ARMCI_Malloc_group` and `ARMCI_Free_group` are collective over
//! the group, `ptr_arr` indexed by group rank, and the memory is reached
//! by every ARMCI call with the owners' compute ranks, as ARMCI does (the
//! root of `armci_msg_group_bcast_scope` too).
//! Return codes: the `int` calls return 0 (`ARMCI_Absolute_id`: the
//! compute rank; `ARMCI_Uses_shm_grp`: 1; `ARMCI_Group_rank`: 1 outside
//! the group). Bad input ends the job through
//! `ARMCI_Error` naming the call.

use crate::armci;
use crate::capi_armci::{dst_bytes, fail, len_of, null, run, status};
use crate::capi_ptr as ptr;
use crate::core::{self, pgroups, GaError, GaResult};
use shim_core::mpi::Comm;
use std::collections::HashMap;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};
use std::sync::Mutex;

/// Debian's `ARMCI_Group`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ArmciGroup {
    pub comm: shim_core::mpi::RawComm,
    pub noncoll_pgroup_comm: shim_core::mpi::RawComm,
    pub grp_to_abs: *mut c_int,
    pub abs_to_grp: *mut c_int,
    pub rank: c_int,
    pub size: c_int,
}

/// One group handed out: its GA group and the lists its structs point at.
struct Known {
    ga: i32,
    to_abs: Box<[c_int]>,
    to_grp: Box<[c_int]>,
}

#[derive(Default)]
struct Groups {
    /// By the address of `grp_to_abs`.
    known: HashMap<usize, Known>,
    /// The key of the default group (None: the world group).
    default: Option<usize>,
}

static GROUPS: Mutex<Option<Groups>> = Mutex::new(None);

fn with_groups<R>(f: impl FnOnce(&mut Groups) -> R) -> R {
    let mut g = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(Groups::default))
}

/// Records GA group `ga` (of which this process is a member) and fills
/// `out` for it; an existing record of `ga` is reused.
fn describe(call: &'static str, ga: i32, out: *mut ArmciGroup) -> GaResult<()> {
    let (members, comm) = pgroups::group(call, ga)?;
    let rank = pgroups::group_nodeid(call, ga)?;
    let np = core::nnodes() as usize;
    let (to_abs, to_grp) = with_groups(|t| {
        if !t.known.values().any(|k| k.ga == ga) {
            let to_abs: Box<[c_int]> = members.iter().copied().collect();
            let mut to_grp = vec![-1; np].into_boxed_slice();
            for (r, &p) in members.iter().enumerate() {
                to_grp[p as usize] = r as c_int;
            }
            t.known
                .insert(to_abs.as_ptr() as usize, Known { ga, to_abs, to_grp });
        }
        t.known
            .values_mut()
            .find(|k| k.ga == ga)
            .map(|k| (k.to_abs.as_mut_ptr(), k.to_grp.as_mut_ptr()))
    })
    .ok_or_else(|| GaError::new(call, "the group's lists are gone"))?;
    let g = ArmciGroup {
        comm: comm.raw(),
        noncoll_pgroup_comm: comm.raw(),
        grp_to_abs: to_abs,
        abs_to_grp: to_grp,
        rank,
        size: members.len() as c_int,
    };
    store(call, out, g)
}

/// Writes `g` to the caller's `ARMCI_Group`.
fn store(call: &'static str, out: *mut ArmciGroup, g: ArmciGroup) -> GaResult<()> {
    if ptr::put_one(out, g) {
        Ok(())
    } else {
        Err(GaError::new(call, "the group argument is NULL"))
    }
}

/// The struct of a group this process is not in.
fn outside() -> ArmciGroup {
    ArmciGroup {
        comm: Comm::null().raw(),
        noncoll_pgroup_comm: Comm::null().raw(),
        grp_to_abs: std::ptr::null_mut(),
        abs_to_grp: std::ptr::null_mut(),
        rank: -1,
        size: 0,
    }
}

/// Fills `out` for a group this process is not in.
fn outsider(call: &'static str, out: *mut ArmciGroup) -> GaResult<()> {
    store(call, out, outside())
}

/// The GA group an `ARMCI_Group` stands for.
fn ga_of(call: &'static str, group: *const ArmciGroup) -> GaResult<i32> {
    let g = ptr::read_one(group).ok_or_else(|| GaError::new(call, "the group is NULL"))?;
    if g.grp_to_abs.is_null() {
        return Err(GaError::new(
            call,
            "this process is not a member of the group",
        ));
    }
    with_groups(|t| t.known.get(&(g.grp_to_abs as usize)).map(|k| k.ga)).ok_or_else(|| {
        GaError::new(
            call,
            "not a group made by ARMCI_Group_create or ARMCI_Group_get_world (or it was freed)",
        )
    })
}

/// The GA group of ARMCI's default group.
fn default_ga() -> i32 {
    with_groups(|t| {
        t.default
            .and_then(|k| t.known.get(&k))
            .map_or(pgroups::WORLD, |k| k.ga)
    })
}

/// Makes the group of `list` (ranks in GA group `parent`), collective over
/// `parent`.
fn create(
    call: &'static str,
    parent: i32,
    n: c_int,
    list: *const c_int,
    out: *mut ArmciGroup,
) -> GaResult<()> {
    armci::check_proc(call, 0)?;
    let k = len_of(call, n)?;
    let ranks: Vec<i64> = ptr::typed(list, k)
        .ok_or_else(|| null(call, "pid_list"))?
        .iter()
        .map(|&r| i64::from(r))
        .collect();
    let h = pgroups::create_in(call, parent, &ranks)?;
    if pgroups::group(call, h).is_ok() {
        describe(call, h, out)
    } else {
        outsider(call, out)
    }
}

/// Collective over ARMCI's default group: the group of the `n` processes
/// `pid_list` names (ranks in the default group) into `*group_out`.
#[no_mangle]
pub extern "C" fn ARMCI_Group_create(n: c_int, pid_list: *const c_int, group_out: *mut ArmciGroup) {
    const CALL: &str = "ARMCI_Group_create";
    run(CALL, || create(CALL, default_ga(), n, pid_list, group_out))
}

/// Collective over `parent`: the group of the `n` processes `pid_list`
/// names (ranks in `parent`) into `*group_out`.
#[no_mangle]
pub extern "C" fn ARMCI_Group_create_child(
    n: c_int,
    pid_list: *const c_int,
    group_out: *mut ArmciGroup,
    parent: *const ArmciGroup,
) {
    const CALL: &str = "ARMCI_Group_create_child";
    run(CALL, || {
        let p = ga_of(CALL, parent)?;
        create(CALL, p, n, pid_list, group_out)
    })
}

/// Collective over the group's members: frees it (a process outside it
/// has nothing to free). The world group is never freed.
#[no_mangle]
pub extern "C" fn ARMCI_Group_free(group: *mut ArmciGroup) {
    const CALL: &str = "ARMCI_Group_free";
    run(CALL, || {
        let outside = ptr::read_one(group).is_some_and(|g| g.grp_to_abs.is_null());
        if outside {
            return Ok(());
        }
        let h = ga_of(CALL, group)?;
        if h == pgroups::WORLD {
            return Ok(());
        }
        with_groups(|t| {
            t.known.retain(|_, k| k.ga != h);
            if t.default.is_some_and(|k| !t.known.contains_key(&k)) {
                t.default = None;
            }
        });
        pgroups::destroy(CALL, h)
    })
}

/// `*rank` = this process's rank in the group; returns 0 (1, with `*rank`
/// -1, outside the group).
#[no_mangle]
pub extern "C" fn ARMCI_Group_rank(group: *mut ArmciGroup, rank: *mut c_int) -> c_int {
    const CALL: &str = "ARMCI_Group_rank";
    run(CALL, || {
        let g = ptr::read_one(group).ok_or_else(|| GaError::new(CALL, "the group is NULL"))?;
        if !ptr::put_one(rank, g.rank) {
            return Err(GaError::new(CALL, "rank is NULL"));
        }
        Ok(c_int::from(g.rank < 0))
    })
}

/// `*size` = the number of processes in the group.
#[no_mangle]
pub extern "C" fn ARMCI_Group_size(group: *mut ArmciGroup, size: *mut c_int) {
    const CALL: &str = "ARMCI_Group_size";
    run(CALL, || {
        let g = ptr::read_one(group).ok_or_else(|| GaError::new(CALL, "the group is NULL"))?;
        if !ptr::put_one(size, g.size) {
            return Err(GaError::new(CALL, "size is NULL"));
        }
        Ok(())
    })
}

/// Makes `group` ARMCI's default group (the parent of
/// `ARMCI_Group_create`).
#[no_mangle]
pub extern "C" fn ARMCI_Group_set_default(group: *mut ArmciGroup) {
    const CALL: &str = "ARMCI_Group_set_default";
    run(CALL, || {
        let h = ga_of(CALL, group)?;
        with_groups(|t| {
            t.default = t.known.iter().find(|(_, k)| k.ga == h).map(|(&k, _)| k);
        });
        Ok(())
    })
}

/// `*group_out` = ARMCI's default group (the world group at first).
#[no_mangle]
pub extern "C" fn ARMCI_Group_get_default(group_out: *mut ArmciGroup) {
    const CALL: &str = "ARMCI_Group_get_default";
    run(CALL, || {
        armci::check_proc(CALL, 0)?;
        describe(CALL, default_ga(), group_out)
    })
}

/// `*group_out` = the group of every compute rank.
#[no_mangle]
pub extern "C" fn ARMCI_Group_get_world(group_out: *mut ArmciGroup) {
    const CALL: &str = "ARMCI_Group_get_world";
    run(CALL, || {
        armci::check_proc(CALL, 0)?;
        describe(CALL, pgroups::WORLD, group_out)
    })
}

/// Returns the compute rank of rank `group_rank` of the group.
#[no_mangle]
pub extern "C" fn ARMCI_Absolute_id(group: *mut ArmciGroup, group_rank: c_int) -> c_int {
    const CALL: &str = "ARMCI_Absolute_id";
    run(CALL, || {
        let h = ga_of(CALL, group)?;
        pgroups::absolute_id(CALL, h, i64::from(group_rank))
    })
}

/// Collective over the group: every member asks for `bytes` bytes;
/// `ptr_arr[r]` receives group rank r's address (NULL where r asked for
/// 0). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Malloc_group(
    ptr_arr: *mut *mut c_void,
    bytes: c_long,
    group: *mut ArmciGroup,
) -> c_int {
    status("ARMCI_Malloc_group", |call| {
        if ptr_arr.is_null() {
            return Err(GaError::new(call, "ptr_arr is NULL"));
        }
        let h = ga_of(call, group)?;
        let base = armci::malloc_on(call, bytes, h)?;
        let (members, _) = pgroups::group(call, h)?;
        let mine: Vec<usize> = members.iter().map(|&p| base[p as usize]).collect();
        ptr::put_addrs(ptr_arr, &mine);
        Ok(())
    })
}

/// `ARMCI_Malloc_group` on a memory device (`device` is not consulted,
/// as for `ARMCI_Malloc_memdev`). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Malloc_group_memdev(
    ptr_arr: *mut *mut c_void,
    bytes: c_long,
    group: *mut ArmciGroup,
    device: *const c_char,
) -> c_int {
    let _ = device;
    ARMCI_Malloc_group(ptr_arr, bytes, group)
}

/// Collective over the group: frees the `ARMCI_Malloc_group` memory whose
/// address on this process is `p`. Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Free_group(p: *mut c_void, group: *mut ArmciGroup) -> c_int {
    status("ARMCI_Free_group", |call| {
        let h = ga_of(call, group)?;
        armci::free_on(call, ptr::addr(p), h)
    })
}

/// 1: memory of a group's processes on this node is shared memory.
#[no_mangle]
pub extern "C" fn ARMCI_Uses_shm_grp(group: *mut ArmciGroup) -> c_int {
    let _ = group;
    1
}

/// A barrier of the group's members (collective over them).
#[no_mangle]
pub extern "C" fn armci_msg_group_barrier(group: *mut ArmciGroup) {
    const CALL: &str = "armci_msg_group_barrier";
    run(CALL, || pgroups::sync(CALL, ga_of(CALL, group)?))
}

/// Broadcasts `len` bytes from `root` (its absolute rank) to the group's
/// members (every scope is the whole group here); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_group_bcast_scope(
    scope: c_int,
    buf: *mut c_void,
    len: c_int,
    root: c_int,
    group: *mut ArmciGroup,
) {
    const CALL: &str = "armci_msg_group_bcast_scope";
    let _ = scope;
    run(CALL, || {
        let h = ga_of(CALL, group)?;
        let n = len_of(CALL, len)?;
        let (members, _) = pgroups::group(CALL, h)?;
        let r = members.iter().position(|&p| p == root).ok_or_else(|| {
            GaError::new(CALL, format!("root {root} is not a member of the group"))
        })?;
        pgroups::brdcst(CALL, h, dst_bytes(CALL, buf, n)?, r as i64)
    })
}

fn group_gop<T: core::GopNum>(
    call: &'static str,
    x: *mut T,
    n: c_int,
    op: *const c_char,
    group: *mut ArmciGroup,
    integer: bool,
) {
    run(call, || {
        let h = ga_of(call, group)?;
        let k = len_of(call, n)?;
        let v = ptr::typed_mut(x, k).ok_or_else(|| null(call, "the data"))?;
        let o = ptr::c_str(op).ok_or_else(|| GaError::new(call, "op is NULL"))?;
        pgroups::gop(call, h, v, &o, integer)
    })
}

/// Generates the group reductions of `n` elements of a C type (collective
/// over the group; `op` as for `armci_msg_igop`); they return nothing.
macro_rules! group_gops {
    ($($name:ident($t:ty, $int:expr)),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "`: element-wise reduction over the group's members.")]
        #[no_mangle]
        pub extern "C" fn $name(x: *mut $t, n: c_int, op: *const c_char, group: *mut ArmciGroup) {
            group_gop(stringify!($name), x, n, op, group, $int)
        }
    )*};
}

group_gops! {
    armci_msg_group_igop(c_int, true),
    armci_msg_group_lgop(c_long, true),
    armci_msg_group_llgop(c_longlong, true),
    armci_msg_group_fgop(c_float, false),
    armci_msg_group_dgop(c_double, false),
}

/// A reduction over the group's members (every scope is the whole group
/// here) of `n` elements of `type` (ARMCI_INT .. ARMCI_DOUBLE: 0..4);
/// returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_group_gop_scope(
    scope: c_int,
    x: *mut c_void,
    n: c_int,
    op: *const c_char,
    ty: c_int,
    group: *mut ArmciGroup,
) {
    let _ = scope;
    match ty {
        0 => armci_msg_group_igop(x.cast(), n, op, group),
        1 => armci_msg_group_lgop(x.cast(), n, op, group),
        2 => armci_msg_group_llgop(x.cast(), n, op, group),
        3 => armci_msg_group_fgop(x.cast(), n, op, group),
        4 => armci_msg_group_dgop(x.cast(), n, op, group),
        _ => fail(
            &format!(
                "armci_msg_group_gop_scope: unknown type {ty} (ARMCI_INT .. ARMCI_DOUBLE are 0..4)"
            ),
            1,
        ),
    }
}

/// The ARMCI group of each GA processor group asked for through
/// `ga_get_armci_group_`: (GA group, address of its leaked struct).
static GA_GROUP_STRUCTS: Mutex<Vec<(i32, usize)>> = Mutex::new(Vec::new());

/// `ARMCI_Group *ga_get_armci_group_(int grp_id)`: GA's hook (a C call
/// despite its Fortran-like name) giving the ARMCI group that stands for
/// GA processor group `grp_id`, for the `armci_msg_group_*` collectives.
/// The struct stays valid as long as the library; a process outside the
/// group gets one with `rank` -1. An unknown group ends the job.
#[no_mangle]
pub extern "C" fn ga_get_armci_group_(grp_id: c_int) -> *mut ArmciGroup {
    const CALL: &str = "ga_get_armci_group";
    run(CALL, || {
        let mut slots = GA_GROUP_STRUCTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, at)) = slots.iter().find(|(g, _)| *g == grp_id) {
            return Ok(at as *mut ArmciGroup);
        }
        let (members, _) = pgroups::group(CALL, grp_id)?;
        let mut g = outside();
        if members.contains(&core::nodeid()) {
            describe(CALL, grp_id, &mut g)?;
        }
        let at = Box::into_raw(Box::new(g));
        slots.push((grp_id, at as usize));
        Ok(at)
    })
}
