//! Processor groups in the GA C ABI: `GA_Pgroup_*` and `NGA_Pgroup_*`
//! (create, split, split by color, self, duplicate, destroy, default
//! group, rank and size, absolute ids, sync, broadcast and the typed
//! reductions), `GA_Get_pgroup`, `GA_Get_pgroup_size` and
//! `GA_MPI_Comm_pgroup`.
//!
//! Handles and semantics are GA 5.8's (see `core::pgroups`): the world
//! group is −1, the mirror group 0, made groups count from 2, and a group
//! lists its members in ascending order of their ranks. Ranks passed in
//! (`list`, `root`, `pid`) count in the default group (for create) or in
//! the group named.
//!
//! Arrays live on a group: `NGA_Create*_config` name it, `GA_Set_pgroup`
//! puts a handle from `GA_Create_handle` on it, and otherwise the default
//! group holds a new array. Only its members create, use and destroy it;
//! process ids in its distribution queries count in the group, and
//! `GA_Get_pgroup` answers its group.
//!
//! Return codes: the creating calls return the new group's handle,
//! `GA_Pgroup_destroy` returns 1; the queries return the rank, size or
//! handle asked for. Bad arguments (a group this process is not in, a rank
//! outside the group, a NULL buffer, an unknown op) end the job through
//! `GA_Error` with a message naming the call. No panic crosses into C.

use crate::capi::{complex_sum, op_bytes, resolve_handle, run, typed};
use crate::capi_ptr as ptr;
use crate::core::{self, pgroups, GaError};
use crate::ops::elem::{C32, C64};
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};

/// Makes a group of the `count` ranks (in the default group) of `list`
/// (collective over the default group); returns its handle.
#[no_mangle]
pub extern "C" fn GA_Pgroup_create(list: *const c_int, count: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_create";
    run(CALL, || {
        if count < 1 {
            return Err(GaError::new(
                CALL,
                format!("count {count} must be at least 1"),
            ));
        }
        let l =
            ptr::ints(list, count as usize).ok_or_else(|| GaError::new(CALL, "list is NULL"))?;
        pgroups::create(CALL, &l)
    })
}

/// As `GA_Pgroup_create`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_create(list: *const c_int, count: c_int) -> c_int {
    GA_Pgroup_create(list, count)
}

/// Splits `grp` into `num_group` groups of consecutive ranks (collective
/// over `grp`); returns the handle of this process's group.
#[no_mangle]
pub extern "C" fn GA_Pgroup_split(grp: c_int, num_group: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_split";
    run(CALL, || {
        pgroups::split_even(CALL, grp, i64::from(num_group))
    })
}

/// As `GA_Pgroup_split`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_split(grp: c_int, num_group: c_int) -> c_int {
    GA_Pgroup_split(grp, num_group)
}

/// Groups the processes of `grp` by `color` (collective over `grp`);
/// returns the handle of this process's group.
#[no_mangle]
pub extern "C" fn GA_Pgroup_split_irreg(grp: c_int, color: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_split_irreg";
    run(CALL, || pgroups::split_color(CALL, grp, i64::from(color)))
}

/// As `GA_Pgroup_split_irreg`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_split_irreg(grp: c_int, color: c_int) -> c_int {
    GA_Pgroup_split_irreg(grp, color)
}

/// A group of this process alone (not collective); returns its handle.
#[no_mangle]
pub extern "C" fn GA_Pgroup_self() -> c_int {
    run("GA_Pgroup_self", || Ok(pgroups::self_group()))
}

/// As `GA_Pgroup_self`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_self() -> c_int {
    GA_Pgroup_self()
}

/// A new group with the members of `grp` (collective over `grp`); returns
/// its handle.
#[no_mangle]
pub extern "C" fn GA_Pgroup_duplicate(grp: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_duplicate";
    run(CALL, || pgroups::duplicate(CALL, grp))
}

/// As `GA_Pgroup_duplicate`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_duplicate(grp: c_int) -> c_int {
    GA_Pgroup_duplicate(grp)
}

/// Destroys a group made by the program (collective over it); returns 1.
#[no_mangle]
pub extern "C" fn GA_Pgroup_destroy(grp: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_destroy";
    run(CALL, || pgroups::destroy(CALL, grp).map(|_| 1))
}

/// As `GA_Pgroup_destroy`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_destroy(grp: c_int) -> c_int {
    GA_Pgroup_destroy(grp)
}

/// Makes `grp` the default group; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_set_default(grp: c_int) {
    const CALL: &str = "GA_Pgroup_set_default";
    run(CALL, || pgroups::set_default(CALL, grp))
}

/// As `GA_Pgroup_set_default`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_set_default(grp: c_int) {
    GA_Pgroup_set_default(grp)
}

/// Returns the default group's handle (−1, the world, at first).
#[no_mangle]
pub extern "C" fn GA_Pgroup_get_default() -> c_int {
    pgroups::default_group()
}

/// As `GA_Pgroup_get_default`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_get_default() -> c_int {
    GA_Pgroup_get_default()
}

/// Returns the world group's handle, −1.
#[no_mangle]
pub extern "C" fn GA_Pgroup_get_world() -> c_int {
    pgroups::WORLD
}

/// As `GA_Pgroup_get_world`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_get_world() -> c_int {
    GA_Pgroup_get_world()
}

/// Returns the mirror group's handle, 0.
#[no_mangle]
pub extern "C" fn GA_Pgroup_get_mirror() -> c_int {
    pgroups::MIRROR
}

/// As `GA_Pgroup_get_mirror`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_get_mirror() -> c_int {
    GA_Pgroup_get_mirror()
}

/// Returns this process's rank in `grp`.
#[no_mangle]
pub extern "C" fn GA_Pgroup_nodeid(grp: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_nodeid";
    run(CALL, || pgroups::group_nodeid(CALL, grp))
}

/// As `GA_Pgroup_nodeid`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_nodeid(grp: c_int) -> c_int {
    GA_Pgroup_nodeid(grp)
}

/// Returns the number of processes in `grp`.
#[no_mangle]
pub extern "C" fn GA_Pgroup_nnodes(grp: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_nnodes";
    run(CALL, || pgroups::group_nnodes(CALL, grp))
}

/// As `GA_Pgroup_nnodes`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_nnodes(grp: c_int) -> c_int {
    GA_Pgroup_nnodes(grp)
}

/// Returns the world rank of rank `pid` of `grp`.
#[no_mangle]
pub extern "C" fn GA_Pgroup_absolute_id(grp: c_int, pid: c_int) -> c_int {
    const CALL: &str = "GA_Pgroup_absolute_id";
    run(CALL, || pgroups::absolute_id(CALL, grp, i64::from(pid)))
}

/// As `GA_Pgroup_absolute_id`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_absolute_id(grp: c_int, pid: c_int) -> c_int {
    GA_Pgroup_absolute_id(grp, pid)
}

/// Completes this process's operations, then a barrier of `grp`; returns
/// nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_sync(grp: c_int) {
    const CALL: &str = "GA_Pgroup_sync";
    run(CALL, || pgroups::sync(CALL, grp))
}

/// As `GA_Pgroup_sync`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_sync(grp: c_int) {
    GA_Pgroup_sync(grp)
}

/// Broadcasts `len` bytes from group rank `root` to `grp`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_brdcst(grp: c_int, buf: *mut c_void, len: c_int, root: c_int) {
    const CALL: &str = "GA_Pgroup_brdcst";
    run(CALL, || {
        if len < 0 {
            return Err(GaError::new(CALL, format!("length {len} is negative")));
        }
        let b =
            ptr::bytes_mut(buf, len as usize).ok_or_else(|| GaError::new(CALL, "buf is NULL"))?;
        pgroups::brdcst(CALL, grp, b, i64::from(root))
    })
}

/// Element-wise reduction of `n` doubles over `grp` with a TCGMSG op;
/// returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_dgop(grp: c_int, x: *mut c_double, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_dgop";
    run(CALL, || {
        pgroups::gop(CALL, grp, typed(CALL, x, n)?, op_bytes(CALL, op)?, false)
    })
}

/// As `GA_Pgroup_dgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_dgop(grp: c_int, x: *mut c_double, n: c_int, op: *const c_char) {
    GA_Pgroup_dgop(grp, x, n, op)
}

/// Element-wise reduction of `n` floats over `grp`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_fgop(grp: c_int, x: *mut c_float, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_fgop";
    run(CALL, || {
        pgroups::gop(CALL, grp, typed(CALL, x, n)?, op_bytes(CALL, op)?, false)
    })
}

/// As `GA_Pgroup_fgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_fgop(grp: c_int, x: *mut c_float, n: c_int, op: *const c_char) {
    GA_Pgroup_fgop(grp, x, n, op)
}

/// Element-wise reduction of `n` ints over `grp`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_igop(grp: c_int, x: *mut c_int, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_igop";
    run(CALL, || {
        pgroups::gop(CALL, grp, typed(CALL, x, n)?, op_bytes(CALL, op)?, true)
    })
}

/// As `GA_Pgroup_igop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_igop(grp: c_int, x: *mut c_int, n: c_int, op: *const c_char) {
    GA_Pgroup_igop(grp, x, n, op)
}

/// Element-wise reduction of `n` longs over `grp`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_lgop(grp: c_int, x: *mut c_long, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_lgop";
    run(CALL, || {
        pgroups::gop(CALL, grp, typed(CALL, x, n)?, op_bytes(CALL, op)?, true)
    })
}

/// As `GA_Pgroup_lgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_lgop(grp: c_int, x: *mut c_long, n: c_int, op: *const c_char) {
    GA_Pgroup_lgop(grp, x, n, op)
}

/// Element-wise reduction of `n` long longs over `grp`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_llgop(grp: c_int, x: *mut c_longlong, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_llgop";
    run(CALL, || {
        pgroups::gop(CALL, grp, typed(CALL, x, n)?, op_bytes(CALL, op)?, true)
    })
}

/// As `GA_Pgroup_llgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_llgop(grp: c_int, x: *mut c_longlong, n: c_int, op: *const c_char) {
    GA_Pgroup_llgop(grp, x, n, op)
}

/// Element-wise sum of `n` double complex values over `grp` (`op` must be
/// "+"); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_zgop(grp: c_int, x: *mut C64, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_zgop";
    run(CALL, || {
        complex_sum(CALL, x, n, op, true, |f| {
            pgroups::gop(CALL, grp, f, "+", false)
        })
    })
}

/// As `GA_Pgroup_zgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_zgop(grp: c_int, x: *mut C64, n: c_int, op: *const c_char) {
    GA_Pgroup_zgop(grp, x, n, op)
}

/// `GA_Pgroup_zgop` for single complex values; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Pgroup_cgop(grp: c_int, x: *mut C32, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Pgroup_cgop";
    run(CALL, || {
        complex_sum(CALL, x, n, op, true, |f| {
            pgroups::gop(CALL, grp, f, "+", false)
        })
    })
}

/// As `GA_Pgroup_cgop`.
#[no_mangle]
pub extern "C" fn NGA_Pgroup_cgop(grp: c_int, x: *mut C32, n: c_int, op: *const c_char) {
    GA_Pgroup_cgop(grp, x, n, op)
}

/// Returns the group array `g` lives on: −1, the world (every array lives
/// on all compute ranks). An invalid handle ends the job.
#[no_mangle]
pub extern "C" fn GA_Get_pgroup(g: c_int) -> c_int {
    const CALL: &str = "GA_Get_pgroup";
    run(CALL, || {
        core::array_group(resolve_handle(g))
            .map(|(grp, _, _)| grp)
            .map_err(|_| GaError::new(CALL, format!("invalid array handle {g}")))
    })
}

/// As `GA_Get_pgroup`.
#[no_mangle]
pub extern "C" fn NGA_Get_pgroup(g: c_int) -> c_int {
    GA_Get_pgroup(g)
}

/// Returns the number of processes in group `grp` (the world for −1).
#[no_mangle]
pub extern "C" fn GA_Get_pgroup_size(grp: c_int) -> c_int {
    const CALL: &str = "GA_Get_pgroup_size";
    run(CALL, || pgroups::group_nnodes(CALL, grp))
}

/// As `GA_Get_pgroup_size`.
#[no_mangle]
pub extern "C" fn NGA_Get_pgroup_size(grp: c_int) -> c_int {
    GA_Get_pgroup_size(grp)
}

/// Returns the MPI communicator of group `grp` (this process must be in it).
#[no_mangle]
pub extern "C" fn GA_MPI_Comm_pgroup(grp: c_int) -> shim_core::mpi::RawComm {
    const CALL: &str = "GA_MPI_Comm_pgroup";
    run(CALL, || pgroups::raw_comm(CALL, grp))
}

/// `NGA_Create` on processor group `p_handle` (collective over its
/// members). Returns the handle, or 0 (with a message) when the array is
/// not made.
#[no_mangle]
pub extern "C" fn NGA_Create_config(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    chunk: *const c_int,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi::NGA_Create(ty, ndim, dims, name, chunk)
    })
}

/// `NGA_Create_config` with 64-bit dimensions; returns the handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Create_config64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    name: *const c_char,
    chunk: *const i64,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi::NGA_Create64(ty, ndim, dims, name, chunk)
    })
}

/// `NGA_Create_irreg` on group `p_handle` ; returns the handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Create_irreg_config(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    block: *const c_int,
    map: *const c_int,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi::NGA_Create_irreg(ty, ndim, dims, name, block, map)
    })
}

/// `NGA_Create_irreg_config` with 64-bit arguments; returns the handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Create_irreg_config64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    name: *const c_char,
    block: *const i64,
    map: *const i64,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi::NGA_Create_irreg64(ty, ndim, dims, name, block, map)
    })
}

/// `NGA_Create_ghosts` on group `p_handle` ; returns the handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Create_ghosts_config(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    width: *const c_int,
    name: *const c_char,
    chunk: *const c_int,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi_ghosts::NGA_Create_ghosts(ty, ndim, dims, width, name, chunk)
    })
}

/// `NGA_Create_ghosts_config` with 64-bit arguments; returns the handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Create_ghosts_config64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    width: *const i64,
    name: *const c_char,
    chunk: *const i64,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi_ghosts::NGA_Create_ghosts64(ty, ndim, dims, width, name, chunk)
    })
}

/// `NGA_Create_ghosts_irreg` on group `p_handle` ; returns the handle
/// or 0.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn NGA_Create_ghosts_irreg_config(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    width: *const c_int,
    name: *const c_char,
    nblock: *const c_int,
    map: *const c_int,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi_ghosts::NGA_Create_ghosts_irreg(ty, ndim, dims, width, name, nblock, map)
    })
}

/// `NGA_Create_ghosts_irreg_config` with 64-bit arguments; returns the
/// handle or 0.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn NGA_Create_ghosts_irreg_config64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    width: *const i64,
    name: *const c_char,
    nblock: *const i64,
    map: *const i64,
    p_handle: c_int,
) -> c_int {
    pgroups::on_group(p_handle, || {
        crate::capi_ghosts::NGA_Create_ghosts_irreg64(ty, ndim, dims, width, name, nblock, map)
    })
}

/// Puts a handle from `GA_Create_handle` on processor group `p_handle`:
/// `GA_Allocate` then makes the array on the group's members only. Returns
/// nothing; a handle not awaiting `GA_Allocate` or a group this process is
/// not in ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Set_pgroup(g: c_int, p_handle: c_int) {
    const CALL: &str = "GA_Set_pgroup";
    run(CALL, || crate::capi::set_pending_pgroup(CALL, g, p_handle))
}

/// As `GA_Set_pgroup`.
#[no_mangle]
pub extern "C" fn NGA_Set_pgroup(g: c_int, p_handle: c_int) {
    GA_Set_pgroup(g, p_handle)
}
