//! The rest of ARMCI's `message.h` on the GA client: point-to-point
//! messages among the compute ranks (`armci_msg_snd`, `armci_msg_rcv`,
//! `armci_msg_rcvany`), the selection of one contributor's data
//! (`armci_msg_sel*`), the reductions `armci_msg_reduce*`, the binary tree
//! of `armci_msg_bintree`, the cluster calls (`armci_msg_clus_*`,
//! `armci_grp_clus_brdcst`, `armci_exchange_address*`: the whole job is
//! one cluster here), and `ARMCI_Init_thread_comm`.
//!
//! Return codes: `armci_msg_rcvany` returns the sender's rank,
//! `ARMCI_Init_thread_comm` returns 0; the rest return nothing. Bad input
//! ends the job through `ARMCI_Error` naming the call: a process out of
//! range, a negative tag or length, a NULL buffer with a non-zero length,
//! a message longer than the receive buffer, an unknown type or op, a
//! communicator other than the whole job's. No panic crosses into C.

use crate::capi_armci::{
    armci_msg_bcast, armci_msg_dgop, armci_msg_fgop, armci_msg_gop_scope, armci_msg_igop,
    armci_msg_lgop, armci_msg_llgop, dst_bytes, fail, len_of, null, run, ARMCI_Init_thread,
};
use crate::capi_armci_groups::ARMCI_Group_rank;
use crate::capi_armci_groups::{armci_msg_group_bcast_scope, armci_msg_group_llgop, ArmciGroup};
use crate::capi_ptr as ptr;
use crate::core::{self, GaError};
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};

/// Sends `len` bytes at `buffer` with tag `tag` to process `to`; returns
/// once the buffer may be reused.
#[no_mangle]
pub extern "C" fn armci_msg_snd(tag: c_int, buffer: *mut c_void, len: c_int, to: c_int) {
    const CALL: &str = "armci_msg_snd";
    run(CALL, || {
        let n = len_of(CALL, len)?;
        let b = ptr::bytes(buffer, n).ok_or_else(|| null(CALL, "the buffer"))?;
        core::msg_send(CALL, tag, b, to)
    })
}

/// Receives a message with `tag` from `from` (any process if None) into
/// `buflen` bytes at `buffer`; stores its length at `msglen` unless NULL.
fn receive(
    call: &'static str,
    tag: c_int,
    buffer: *mut c_void,
    buflen: c_int,
    msglen: *mut c_int,
    from: Option<c_int>,
) -> c_int {
    run(call, || {
        let n = len_of(call, buflen)?;
        let b = dst_bytes(call, buffer, n)?;
        let (len, sender) = core::msg_recv(call, tag, b, from)?;
        if !msglen.is_null() {
            ptr::put_one(msglen, len as c_int);
        }
        Ok(sender)
    })
}

/// Receives the next message with `tag` from process `from` into `buflen`
/// bytes at `buffer`; its length goes to `*msglen` (if not NULL).
#[no_mangle]
pub extern "C" fn armci_msg_rcv(
    tag: c_int,
    buffer: *mut c_void,
    buflen: c_int,
    msglen: *mut c_int,
    from: c_int,
) {
    receive("armci_msg_rcv", tag, buffer, buflen, msglen, Some(from));
}

/// As `armci_msg_rcv` from any process; returns the sender's rank.
#[no_mangle]
pub extern "C" fn armci_msg_rcvany(
    tag: c_int,
    buffer: *mut c_void,
    buflen: c_int,
    msglen: *mut c_int,
) -> c_int {
    receive("armci_msg_rcvany", tag, buffer, buflen, msglen, None)
}

/// This process's place in the binary tree of all processes rooted at 0
/// (every scope is all of them here): `*root` 0, `*up` the parent
/// ((me-1)/2, -1 at the root), `*left`/`*right` the children 2me+1 and
/// 2me+2 (-1 past the last process). Returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_bintree(
    scope: c_int,
    root: *mut c_int,
    up: *mut c_int,
    left: *mut c_int,
    right: *mut c_int,
) {
    let _ = scope;
    let me = core::nodeid();
    let np = core::nnodes();
    let child = |c: c_int| if c < np { c } else { -1 };
    let out = [
        (root, 0),
        (up, if me == 0 { -1 } else { (me - 1) / 2 }),
        (left, child(2 * me + 1)),
        (right, child(2 * me + 2)),
    ];
    for (p, v) in out {
        if !ptr::put_one(p, v) {
            fail("armci_msg_bintree: an output argument is NULL", 1);
        }
    }
}

/// A reduction of `n` elements of `type` with `op` over all processes;
/// ARMCI promises the result at process 0, and every process gets it here
/// (Debian's ARMCI-MPI stops with "unimplemented"). Returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_reduce(x: *mut c_void, n: c_int, op: *const c_char, ty: c_int) {
    armci_msg_gop_scope(0, x, n, op, ty)
}

/// `armci_msg_reduce` (every scope is all processes here).
#[no_mangle]
pub extern "C" fn armci_msg_reduce_scope(
    scope: c_int,
    x: *mut c_void,
    n: c_int,
    op: *const c_char,
    ty: c_int,
) {
    armci_msg_gop_scope(scope, x, n, op, ty)
}

/// The leading value of `type` in `bytes`, for comparing (None: `type`
/// unknown or `bytes` too short).
fn key(bytes: &[u8], ty: c_int) -> Option<f64> {
    fn head<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
        b.get(..N)?.try_into().ok()
    }
    Some(match ty {
        0 => c_int::from_ne_bytes(head(bytes)?) as f64,
        1 => c_long::from_ne_bytes(head(bytes)?) as f64,
        2 => c_longlong::from_ne_bytes(head(bytes)?) as f64,
        3 => c_float::from_ne_bytes(head(bytes)?) as f64,
        4 => c_double::from_ne_bytes(head(bytes)?),
        _ => return None,
    })
}

/// Copies to every process the `n` bytes at `x` of the contributing
/// process whose leading value (of `type`) is the largest (`op` "max") or
/// smallest ("min"); ties go to the lowest rank; with no contributor `x`
/// is left as it is. Collective; returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_sel_scope(
    scope: c_int,
    x: *mut c_void,
    n: c_int,
    op: *const c_char,
    ty: c_int,
    contribute: c_int,
) {
    const CALL: &str = "armci_msg_sel_scope";
    let _ = scope;
    run(CALL, || {
        let len = len_of(CALL, n)?;
        let data = dst_bytes(CALL, x, len)?;
        let o = ptr::c_str(op).ok_or_else(|| GaError::new(CALL, "op is NULL"))?;
        let max = match o.get(..3) {
            Some("max") => true,
            Some("min") => false,
            _ => return Err(GaError::new(CALL, format!("op {o:?} is not min or max"))),
        };
        key(data, ty).ok_or_else(|| {
            GaError::new(
                CALL,
                format!("type {ty} unknown (ARMCI_INT .. ARMCI_DOUBLE are 0..4) or {len} bytes too few for it"),
            )
        })?;
        let mut mine = vec![u8::from(contribute != 0)];
        mine.extend_from_slice(data);
        let all = core::msg_allgather(CALL, &mine)?;
        let mut best: Option<(f64, &[u8])> = None;
        for entry in all.chunks_exact(len + 1).filter(|e| e[0] == 1) {
            let k = key(&entry[1..], ty).unwrap_or(0.0);
            if best.is_none_or(|(b, _)| if max { k > b } else { k < b }) {
                best = Some((k, &entry[1..]));
            }
        }
        if let Some((_, chosen)) = best {
            data.copy_from_slice(chosen);
        }
        Ok(())
    })
}

/// `armci_msg_sel_scope` over all processes.
#[no_mangle]
pub extern "C" fn armci_msg_sel(
    x: *mut c_void,
    n: c_int,
    op: *const c_char,
    ty: c_int,
    contribute: c_int,
) {
    armci_msg_sel_scope(0, x, n, op, ty, contribute)
}

/// Broadcasts `len` bytes from the cluster's first process (process 0:
/// the job is one cluster). Collective; returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_clus_brdcst(buf: *mut c_void, len: c_int) {
    armci_msg_bcast(buf, len, 0)
}

/// Generates the cluster reductions: the job is one cluster, so each is
/// the reduction of all processes. Collective; they return nothing.
macro_rules! cluster_gops {
    ($($name:ident($t:ty) = $all:ident;)*) => {$(
        #[doc = concat!("`", stringify!($all), "` (the job is one cluster).")]
        #[no_mangle]
        pub extern "C" fn $name(x: *mut $t, n: c_int, op: *const c_char) {
            $all(x, n, op)
        }
    )*};
}

cluster_gops! {
    armci_msg_clus_igop(c_int) = armci_msg_igop;
    armci_msg_clus_lgop(c_long) = armci_msg_lgop;
    armci_msg_clus_llgop(c_longlong) = armci_msg_llgop;
    armci_msg_clus_fgop(c_float) = armci_msg_fgop;
    armci_msg_clus_dgop(c_double) = armci_msg_dgop;
}

/// Broadcasts `len` bytes from `grp_master` (named by its absolute rank)
/// to the members of `group`, which is one cluster here
/// (`grp_clus_nproc` is not needed). Collective; returns nothing.
#[no_mangle]
pub extern "C" fn armci_grp_clus_brdcst(
    buf: *mut c_void,
    len: c_int,
    grp_master: c_int,
    grp_clus_nproc: c_int,
    group: *mut ArmciGroup,
) {
    let _ = grp_clus_nproc;
    armci_msg_group_bcast_scope(0, buf, len, grp_master, group)
}

/// Fills `ptrs[0..n]` with every rank's own entry `ptrs[me]`: each rank's
/// address is summed with the zeros of the others by `sum`.
fn exchange(
    call: &'static str,
    ptrs: *mut *mut c_void,
    n: c_int,
    me: c_int,
    sum: impl FnOnce(&mut [i64]),
) {
    run(call, || {
        let k = len_of(call, n)?;
        let p = ptr::typed_mut(ptrs, k).ok_or_else(|| null(call, "the address array"))?;
        let own = usize::try_from(me).ok().filter(|&m| m < k).ok_or_else(|| {
            GaError::new(call, format!("the array of {k} has no entry for rank {me}"))
        })?;
        let mut v = vec![0i64; k];
        v[own] = p[own] as usize as i64;
        sum(&mut v);
        for (d, s) in p.iter_mut().zip(v) {
            *d = s as usize as *mut c_void;
        }
        Ok(())
    })
}

/// Exchanges addresses: each process sets `ptr_ar[me]`; afterwards
/// `ptr_ar[r]` holds process r's (n: the number of processes).
/// Collective; returns nothing.
#[no_mangle]
pub extern "C" fn armci_exchange_address(ptr_ar: *mut *mut c_void, n: c_int) {
    exchange("armci_exchange_address", ptr_ar, n, core::nodeid(), |v| {
        armci_msg_llgop(v.as_mut_ptr(), v.len() as c_int, c"+".as_ptr())
    })
}

/// As `armci_exchange_address` among the members of `group`, indexed by
/// group rank. Collective over the group; returns nothing.
#[no_mangle]
pub extern "C" fn armci_exchange_address_grp(
    ptr_arr: *mut *mut c_void,
    n: c_int,
    group: *mut ArmciGroup,
) {
    let mut rank: c_int = -1;
    ARMCI_Group_rank(group, &mut rank);
    exchange("armci_exchange_address_grp", ptr_arr, n, rank, |v| {
        armci_msg_group_llgop(v.as_mut_ptr(), v.len() as c_int, c"+".as_ptr(), group)
    })
}

/// `ARMCI_Init_thread` on `comm`, which must span the whole job
/// (`MPI_COMM_WORLD` or the compute ranks' communicator, as `GA_MPI_Comm`
/// gives). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Init_thread_comm(requested: c_int, comm: shim_core::mpi::RawComm) -> c_int {
    let whole = [
        shim_core::mpi::Comm::world().raw(),
        core::compute_comm().raw(),
    ];
    if !whole.contains(&comm) {
        fail(
            "ARMCI_Init_thread_comm: only a communicator of the whole job (MPI_COMM_WORLD) is supported",
            1,
        );
    }
    ARMCI_Init_thread(requested)
}
