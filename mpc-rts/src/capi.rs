//! The C API of `mpc.h`: start and stop, the dispatcher's calls
//! (`MPC_Net_create`, `MPC_Offer`, `MPC_Net_free`, subnetworks) and the
//! region descriptor's queries (communicator, coordinates, the type's
//! topological data). Networks are integer handles (`MPC_Net`, 0 = none).
//!
//! Every function returns `MPC_OK` (0), a positive status it documents, or
//! a negative `MPC_ERR_*` code; the calling thread's last error message is
//! kept for `MPC_Error_message`. A panic inside becomes `MPC_ERR_INTERNAL`.

use crate::error::*;
use crate::handles::{self, run, run_ok};
use crate::net::{self, Offered};
use crate::{ptr, runtime};
use mpc_map::nettype::Link;
use mpc_map::NetType;
use shim_core::mpi::RawComm;
use std::ffi::{c_char, c_int};

/// A network type as C programs describe it (`MPC_Nettype` in `mpc.h`).
#[repr(C)]
pub struct MpcNettype {
    pub kind: c_int,
    pub ndims: c_int,
    pub dims: *const c_int,
    pub power: *const f64,
    pub nlinks: c_int,
    pub link_from: *const c_int,
    pub link_to: *const c_int,
    pub link_len: *const f64,
    pub parent: c_int,
}

fn count(call: &str, what: &str, n: c_int) -> MpcResult<usize> {
    usize::try_from(n).map_err(|_| MpcError::arg(call, format!("{what} {n} is negative")))
}

fn null(call: &str, what: &str) -> MpcError {
    MpcError::arg(call, format!("{what} is NULL or misaligned"))
}

/// Reads a C network type.
pub(crate) fn nettype(call: &str, t: *const MpcNettype) -> MpcResult<NetType> {
    let t = ptr::get(t).ok_or_else(|| null(call, "type"))?;
    let nd = count(call, "ndims", t.ndims)?;
    let dims = ptr::slice(t.dims, nd).ok_or_else(|| null(call, "dims"))?;
    let dims = dims
        .iter()
        .map(|&d| count(call, "extent", d))
        .collect::<MpcResult<Vec<_>>>()?;
    let n = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .unwrap_or(usize::MAX);
    if n > 1 << 20 {
        return Err(MpcError::arg(
            call,
            "the network has more than 1048576 nodes",
        ));
    }
    let power = if t.power.is_null() {
        Vec::new()
    } else {
        ptr::slice(t.power, n)
            .ok_or_else(|| null(call, "power"))?
            .to_vec()
    };
    let nl = count(call, "nlinks", t.nlinks)?;
    let from = ptr::slice(t.link_from, nl).ok_or_else(|| null(call, "link_from"))?;
    let to = ptr::slice(t.link_to, nl).ok_or_else(|| null(call, "link_to"))?;
    let len = ptr::slice(t.link_len, nl).ok_or_else(|| null(call, "link_len"))?;
    let mut links = Vec::with_capacity(nl);
    for i in 0..nl {
        links.push(Link {
            from: count(call, "link_from", from[i])?,
            to: count(call, "link_to", to[i])?,
            len: len[i],
        });
    }
    let parent = count(call, "parent", t.parent)?;
    NetType::new(t.kind, dims, power, links, parent).map_err(|e| MpcError::arg(call, e))
}

fn node(call: &str, ty: &NetType, i: c_int) -> MpcResult<usize> {
    usize::try_from(i)
        .ok()
        .filter(|&i| i < ty.node_count())
        .ok_or_else(|| MpcError::arg(call, format!("node {i} is outside 0..{}", ty.node_count())))
}

/// Starts the run-time (collective over the job; `argc`/`argv` may be
/// NULL and are not changed). The job's last process becomes the
/// dispatcher and never returns from this call. Returns `MPC_OK`,
/// `MPC_ERR_SYSTEM` (MPI failed, or the job has fewer than 2 processes) or
/// `MPC_ERR_ARG` (the file `MPBRIDGE_VPM` names cannot be read).
#[no_mangle]
pub extern "C" fn MPC_Init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) -> c_int {
    run_ok("MPC_Init", runtime::init)
}

/// Frees every network handle, tells the dispatcher this process has
/// ended and stops the run-time. Returns `MPC_OK` or `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Finalize() -> c_int {
    run_ok("MPC_Finalize", || {
        handles::clear();
        runtime::finalize()
    })
}

/// Ends the whole job with exit code `code`; never returns.
#[no_mangle]
pub extern "C" fn MPC_Abort(code: c_int) -> c_int {
    runtime::abort(code, "called by the program")
}

/// 1 on the host process (world rank 0), 0 elsewhere, or
/// `MPC_ERR_NOTINIT`.
#[no_mangle]
pub extern "C" fn MPC_Is_host() -> c_int {
    run("MPC_Is_host", || {
        runtime::with("MPC_Is_host", |rt| Ok(c_int::from(rt.is_host())))
    })
}

/// Number of computing processes (the job's processes but the
/// dispatcher), or `MPC_ERR_NOTINIT`.
#[no_mangle]
pub extern "C" fn MPC_Processes() -> c_int {
    run("MPC_Processes", || {
        runtime::with("MPC_Processes", |rt| Ok(rt.computing_count() as c_int))
    })
}

/// Asks the dispatcher for a network of `*type` with the caller as its
/// parent node; waits until the processes are hired. Returns `MPC_OK` with
/// the handle in `*net`; `MPC_ERR_ARG` (bad type or NULL), `MPC_ERR_MAP`
/// (cannot be mapped), `MPC_ERR_NOTINIT`, `MPC_ERR_SYSTEM`. When no request
/// can ever be served the dispatcher ends the job with `MPC_Abort`.
#[no_mangle]
pub extern "C" fn MPC_Net_create(ty: *const MpcNettype, net: *mut c_int) -> c_int {
    let call = "MPC_Net_create";
    run_ok(call, || {
        let t = nettype(call, ty)?;
        ptr::slice_mut(net, 1).ok_or_else(|| null(call, "net"))?;
        let h = handles::insert(net::create(t, false)?);
        ptr::write(net, h).ok_or_else(|| null(call, "net"))
    })
}

fn offer(call: &str, once: bool, net: *mut c_int) -> MpcResult<c_int> {
    ptr::write(net, 0).ok_or_else(|| null(call, "net"))?;
    wait_for_hire(once, net, MPC_NOT_HIRED)
}

/// A free process offers itself (`once`: for one network only). Hired: the
/// network's handle goes to `*out` and the result is `MPC_OK`; not hired:
/// `not_hired`; the program over: `MPC_DONE`.
pub(crate) fn wait_for_hire(once: bool, out: *mut c_int, not_hired: c_int) -> MpcResult<c_int> {
    match net::offer(once)? {
        Offered::Hired(n) => {
            ptr::write(out, handles::insert(n));
            Ok(MPC_OK)
        }
        Offered::NotHired => Ok(not_hired),
        Offered::Done => Ok(MPC_DONE),
    }
}

/// A free process waits to be hired. Returns `MPC_OK` with the network
/// in `*net` (run the code of its kind, then `MPC_Net_free`), `MPC_DONE`
/// when the program is over (`*net` is 0), or `MPC_ERR_ROLE` on the host,
/// `MPC_ERR_ARG`, `MPC_ERR_NOTINIT`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Offer(net: *mut c_int) -> c_int {
    run("MPC_Offer", || offer("MPC_Offer", false, net))
}

/// As `MPC_Offer`, but also returns `MPC_NOT_HIRED` (`*net` 0) when the
/// next network is made without this process.
#[no_mangle]
pub extern "C" fn MPC_Offer_once(net: *mut c_int) -> c_int {
    run("MPC_Offer_once", || offer("MPC_Offer_once", true, net))
}

fn free_handle(call: &str, net: *mut c_int) -> MpcResult<()> {
    let h = ptr::read(net).ok_or_else(|| null(call, "net"))?;
    let n = handles::remove(call, h)?;
    ptr::write(net, 0);
    net::free(n, call)
}

/// Frees network `*net` (collective over its members) and sets `*net` to
/// 0; a hired process is free again once it calls `MPC_Offer`. Returns
/// `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Net_free(net: *mut c_int) -> c_int {
    run_ok("MPC_Net_free", || free_handle("MPC_Net_free", net))
}

/// Makes the subnetwork of the members of `net` that pass `inside` != 0
/// (collective over `net`'s members); the others get a handle they are
/// no member of. Returns `MPC_OK`, `MPC_ERR_HANDLE` (not a member of
/// `net`), `MPC_ERR_ARG` (nobody inside, NULL `sub`), `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Subnet_create(net: c_int, inside: c_int, sub: *mut c_int) -> c_int {
    let call = "MPC_Subnet_create";
    run_ok(call, || {
        ptr::slice_mut(sub, 1).ok_or_else(|| null(call, "sub"))?;
        let s = handles::with(call, net, |h| net::subnet(&h.net, inside != 0))?;
        ptr::write(sub, handles::insert(s)).ok_or_else(|| null(call, "sub"))
    })
}

/// Frees subnetwork `*sub` (collective over its members) and sets it to 0.
/// Returns `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Subnet_free(sub: *mut c_int) -> c_int {
    run_ok("MPC_Subnet_free", || free_handle("MPC_Subnet_free", sub))
}

/// 1 if the caller is a member of `net`, 0 if not (also for 0 or an
/// unknown handle).
#[no_mangle]
pub extern "C" fn MPC_Is_member(net: c_int) -> c_int {
    run("MPC_Is_member", || {
        Ok(
            handles::with("MPC_Is_member", net, |h| Ok(c_int::from(h.net.is_member())))
                .unwrap_or(0),
        )
    })
}

fn query<T>(
    call: &str,
    net: c_int,
    out: *mut T,
    f: impl FnOnce(&net::Net) -> MpcResult<T>,
) -> c_int {
    run_ok(call, || {
        let v = handles::with(call, net, |h| f(&h.net))?;
        ptr::write(out, v).ok_or_else(|| null(call, "the result pointer"))
    })
}

/// The network type's number (`kind` of its `MPC_Nettype`) in `*kind`.
/// Returns `MPC_OK`, `MPC_ERR_HANDLE` or `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_kind(net: c_int, kind: *mut c_int) -> c_int {
    query("MPC_Net_kind", net, kind, |n| Ok(n.ty.kind))
}

/// Number of nodes in `*size`. Returns `MPC_OK`, `MPC_ERR_HANDLE`,
/// `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_size(net: c_int, size: *mut c_int) -> c_int {
    query(
        "MPC_Net_size",
        net,
        size,
        |n| Ok(n.ty.node_count() as c_int),
    )
}

/// Number of coordinates in `*ndims`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_ndims(net: c_int, ndims: *mut c_int) -> c_int {
    query("MPC_Net_ndims", net, ndims, |n| {
        Ok(n.ty.dims().len() as c_int)
    })
}

/// The caller's node (linear number) in `*node`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE` (also when not a member), `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_rank(net: c_int, node: *mut c_int) -> c_int {
    query("MPC_Net_rank", net, node, |n| {
        n.me.map(|m| m as c_int).ok_or_else(|| {
            MpcError::new(MPC_ERR_HANDLE, "MPC_Net_rank: not a member of the network")
        })
    })
}

/// The parent node's linear number in `*node`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_parent(net: c_int, node: *mut c_int) -> c_int {
    query("MPC_Net_parent", net, node, |n| Ok(n.ty.parent() as c_int))
}

/// The coordinates of node `node` into `coords` (ndims entries). Returns
/// `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG` (node out of range, NULL).
#[no_mangle]
pub extern "C" fn MPC_Net_coords(net: c_int, node: c_int, coords: *mut c_int) -> c_int {
    let call = "MPC_Net_coords";
    run_ok(call, || {
        let c = handles::with(call, net, |h| {
            let i = self::node(call, &h.net.ty, node)?;
            Ok(h.net.ty.coords(i).unwrap_or_default())
        })?;
        let out = ptr::slice_mut(coords, c.len()).ok_or_else(|| null(call, "coords"))?;
        for (o, v) in out.iter_mut().zip(c) {
            *o = v as c_int;
        }
        Ok(())
    })
}

/// The linear number of the node at `coords` (ndims entries) in `*node`.
/// Returns `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG` (outside the net).
#[no_mangle]
pub extern "C" fn MPC_Net_linear(net: c_int, coords: *const c_int, node: *mut c_int) -> c_int {
    let call = "MPC_Net_linear";
    query(call, net, node, |n| {
        let c = ptr::slice(coords, n.ty.dims().len()).ok_or_else(|| null(call, "coords"))?;
        let c: Option<Vec<usize>> = c.iter().map(|&x| usize::try_from(x).ok()).collect();
        c.and_then(|c| n.ty.linear(&c))
            .map(|l| l as c_int)
            .ok_or_else(|| MpcError::arg(call, "coordinates outside the network"))
    })
}

/// The relative performance of node `node` in `*power`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_power(net: c_int, node: c_int, power: *mut f64) -> c_int {
    let call = "MPC_Net_power";
    query(call, net, power, |n| {
        Ok(n.ty.powers()[self::node(call, &n.ty, node)?])
    })
}

/// Bytes node `from` sends to node `to` in `*len`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_link(net: c_int, from: c_int, to: c_int, len: *mut f64) -> c_int {
    let call = "MPC_Net_link";
    query(call, net, len, |n| {
        Ok(n.ty.link_length(node(call, &n.ty, from)?, node(call, &n.ty, to)?))
    })
}

/// The world rank (`MPI_COMM_WORLD`) of the process of node `node` in
/// `*rank`. Returns `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_proc(net: c_int, node: c_int, rank: *mut c_int) -> c_int {
    let call = "MPC_Net_proc";
    query(call, net, rank, |n| {
        Ok(n.procs[self::node(call, &n.ty, node)?] as c_int)
    })
}

/// The members' communicator in `*comm` (rank = linear node number;
/// `MPI_COMM_NULL` for a non-member); valid until the network is freed.
/// Returns `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn MPC_Net_comm(net: c_int, comm: *mut RawComm) -> c_int {
    let call = "MPC_Net_comm";
    run_ok(call, || {
        let c = handles::with(call, net, |h| Ok(h.comm.get()))?;
        ptr::write(comm, c).ok_or_else(|| null(call, "comm"))
    })
}

/// Barrier over the members of `net`. Returns `MPC_OK`, `MPC_ERR_HANDLE`
/// (also for a non-member), `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Barrier(net: c_int) -> c_int {
    let call = "MPC_Barrier";
    run_ok(call, || {
        handles::with(call, net, |h| {
            let g = h.net.group().ok_or_else(|| {
                MpcError::new(
                    MPC_ERR_HANDLE,
                    format!("{call}: not a member of network {net}"),
                )
            })?;
            g.barrier().map_err(|e| MpcError::core(call, e))
        })
    })
}

/// Barrier over every computing process. Returns `MPC_OK`,
/// `MPC_ERR_NOTINIT`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn MPC_Global_barrier() -> c_int {
    let call = "MPC_Global_barrier";
    run_ok(call, || {
        runtime::with(call, |rt| {
            rt.computing.barrier().map_err(|e| MpcError::core(call, e))
        })
    })
}

/// Wall-clock seconds (`MPI_Wtime`).
#[no_mangle]
pub extern "C" fn MPC_Wtime() -> f64 {
    shim_core::mpi::wtime()
}

/// Copies the calling thread's last error message into `buf` (`len`
/// bytes, NUL-terminated, truncated). Returns `MPC_OK` or `MPC_ERR_ARG`
/// (NULL `buf`, `len` < 1).
#[no_mangle]
pub extern "C" fn MPC_Error_message(buf: *mut c_char, len: c_int) -> c_int {
    let call = "MPC_Error_message";
    guard_msg(call, || {
        let n = count(call, "len", len)?;
        ptr::write_cstr(buf, n, &handles::last_error()).ok_or_else(|| null(call, "buf"))
    })
}

fn guard_msg(call: &str, f: impl FnOnce() -> MpcResult<()>) -> c_int {
    shim_core::ffi_guard::guard(call, MPC_ERR_INTERNAL, || match f() {
        Ok(()) => MPC_OK,
        Err(e) => e.code,
    })
}
