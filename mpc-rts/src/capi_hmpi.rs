//! The HeteroMPI-style C API of `mpc.h` (`HMPI_*`), on the same
//! dispatcher and handles as the `MPC_*` calls. A performance model is a C
//! function that fills the relative volume of each of `nprocs` processes
//! and the bytes between each pair; groups are network handles
//! (`HMPI_Group`, 0 = none).
//!
//! `HMPI_Group_create` and `HMPI_Group_auto_create` are called by the host,
//! which becomes node 0 of the group, and by every free process, which
//! returns either as a member or, when the group was made without it,
//! with handle 0. Return codes are those of `MPC_*` (`HMPI_SUCCESS` is
//! `MPC_OK`).

use crate::capi::{wait_for_hire, MPC_Finalize, MPC_Init};
use crate::error::*;
use crate::handles::{self, run, run_ok};
use crate::net;
use crate::{hmpi, ptr, runtime};
use mpc_map::nettype::Link;
use mpc_map::NetType;
use shim_core::mpi::RawComm;
use std::ffi::{c_char, c_int, c_void};

/// Fills `power[nprocs]` (pre-set to 1) and `links[nprocs*nprocs]` (bytes
/// from i to j at `i*nprocs+j`, pre-set to 0); returns 0 to accept the
/// count.
pub type ShapeFn = Option<extern "C" fn(*const c_void, c_int, c_int, *mut f64, *mut f64) -> c_int>;
/// A benchmark: `(input, nparams, output)`.
pub type BenchFn = Option<extern "C" fn(*const c_void, c_int, *mut c_void)>;

/// A performance model (`HMPI_Model` in `mpc.h`).
#[repr(C)]
pub struct HmpiModel {
    pub shape: ShapeFn,
    pub nprocs: c_int,
}

fn null(call: &str, what: &str) -> MpcError {
    MpcError::arg(call, format!("{what} is NULL or misaligned"))
}

/// The network type the model gives for `n` processes; `None` when the
/// model refuses `n`.
fn shape(
    call: &str,
    m: &HmpiModel,
    params: *const c_void,
    np: c_int,
    n: usize,
) -> MpcResult<Option<NetType>> {
    let f = m.shape.ok_or_else(|| null(call, "model->shape"))?;
    if n == 0 || n > 4096 {
        return Err(MpcError::arg(call, format!("{n} processes")));
    }
    let mut power = vec![1.0f64; n];
    let mut links = vec![0.0f64; n * n];
    let ok = f(
        params,
        np,
        n as c_int,
        power.as_mut_ptr(),
        links.as_mut_ptr(),
    );
    if ok != 0 {
        return Ok(None);
    }
    let links = links
        .iter()
        .enumerate()
        .filter(|(_, &l)| l != 0.0)
        .map(|(k, &len)| Link {
            from: k / n,
            to: k % n,
            len,
        })
        .collect();
    NetType::line(0, power, links)
        .map(Some)
        .map_err(|e| MpcError::arg(call, format!("the model's answer for {n} processes: {e}")))
}

fn model<'a>(call: &str, m: *const HmpiModel) -> MpcResult<&'a HmpiModel> {
    ptr::get(m).ok_or_else(|| null(call, "model"))
}

fn fixed(call: &str, m: &HmpiModel, params: *const c_void, np: c_int) -> MpcResult<NetType> {
    let n = usize::try_from(m.nprocs)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| MpcError::arg(call, format!("model->nprocs {} is not >= 1", m.nprocs)))?;
    shape(call, m, params, np, n)?
        .ok_or_else(|| MpcError::arg(call, format!("the model refuses {n} processes")))
}

/// Starts the run-time (`MPC_Init`). Same return codes.
#[no_mangle]
pub extern "C" fn HMPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    MPC_Init(argc, argv)
}

/// Stops the run-time (`MPC_Finalize`); `exitcode` is not used. Same
/// return codes.
#[no_mangle]
pub extern "C" fn HMPI_Finalize(_exitcode: c_int) -> c_int {
    MPC_Finalize()
}

/// Runs `f(input, nparams, output)` on every computing process at once
/// (collective over them) and makes the measured rates the host speeds
/// the dispatcher maps with. Returns `MPC_OK`, `MPC_ERR_ARG` (NULL `f`),
/// `MPC_ERR_NOTINIT`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn HMPI_Recon(
    f: BenchFn,
    input: *const c_void,
    nparams: c_int,
    output: *mut c_void,
) -> c_int {
    let call = "HMPI_Recon";
    run_ok(call, || {
        let f = f.ok_or_else(|| null(call, "f"))?;
        hmpi::recon(|| f(input, nparams, output))
    })
}

/// The estimated time of the model's group (`model->nprocs` processes,
/// the caller as node 0) on the processes free now, in seconds when the
/// volumes count runs of the `HMPI_Recon` benchmark. A negative value is
/// an `MPC_ERR_*` code.
#[no_mangle]
pub extern "C" fn HMPI_Timeof(m: *const HmpiModel, params: *const c_void, nparams: c_int) -> f64 {
    let call = "HMPI_Timeof";
    let mut t = 0.0;
    let rc = run_ok(call, || {
        let ty = fixed(call, model(call, m)?, params, nparams)?;
        t = hmpi::timeof(&ty)?;
        Ok(())
    });
    if rc == MPC_OK {
        t
    } else {
        f64::from(rc)
    }
}

fn create(
    call: &str,
    gid: *mut c_int,
    make: impl FnOnce() -> MpcResult<net::Net>,
) -> MpcResult<c_int> {
    ptr::write(gid, 0).ok_or_else(|| null(call, "gid"))?;
    let host = runtime::with(call, |rt| Ok(rt.is_host()))?;
    if host {
        ptr::write(gid, handles::insert(make()?));
        return Ok(MPC_OK);
    }
    // Not chosen: `MPC_OK` with `*gid` left 0.
    wait_for_hire(true, gid, MPC_OK)
}

/// Makes the group of `model->nprocs` processes the dispatcher expects to
/// run the model fastest. Host: returns `MPC_OK` with the group in `*gid`.
/// Free process: `MPC_OK` with the group, or with `*gid` 0 when not
/// chosen; `MPC_DONE` when the host has ended. Errors: `MPC_ERR_ARG`,
/// `MPC_ERR_MAP`, `MPC_ERR_NOTINIT`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn HMPI_Group_create(
    gid: *mut c_int,
    m: *const HmpiModel,
    params: *const c_void,
    nparams: c_int,
) -> c_int {
    let call = "HMPI_Group_create";
    run(call, || {
        create(call, gid, || {
            net::create(fixed(call, model(call, m)?, params, nparams)?, true)
        })
    })
}

/// As `HMPI_Group_create`, also choosing the number of processes: every
/// count from 1 to the free processes plus one that the model accepts is
/// estimated, and the fastest (the fewest processes on a tie) is made.
#[no_mangle]
pub extern "C" fn HMPI_Group_auto_create(
    gid: *mut c_int,
    m: *const HmpiModel,
    params: *const c_void,
    nparams: c_int,
) -> c_int {
    let call = "HMPI_Group_auto_create";
    run(call, || {
        create(call, gid, || {
            let md = model(call, m)?;
            let mut err = None;
            let net = hmpi::auto_create(|n| match shape(call, md, params, nparams, n) {
                Ok(t) => t,
                Err(e) => {
                    err.get_or_insert(e);
                    None
                }
            });
            match (net, err) {
                (Ok(n), _) => Ok(n),
                (Err(_), Some(e)) => Err(e),
                (Err(e), None) => Err(e),
            }
        })
    })
}

/// Frees group `*gid` (collective over its members) and sets it to 0; a
/// 0 handle (not chosen) is left alone. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn HMPI_Group_free(gid: *mut c_int) -> c_int {
    let call = "HMPI_Group_free";
    run_ok(call, || {
        let h = ptr::read(gid).ok_or_else(|| null(call, "gid"))?;
        if h == 0 {
            return Ok(());
        }
        let n = handles::remove(call, h)?;
        ptr::write(gid, 0);
        net::free(n, call)
    })
}

/// 1 on the host, 0 elsewhere, or `MPC_ERR_NOTINIT`.
#[no_mangle]
pub extern "C" fn HMPI_Is_host() -> c_int {
    crate::capi::MPC_Is_host()
}

/// 1 if the caller is neither the host nor a member of a group it holds,
/// 0 otherwise, or `MPC_ERR_NOTINIT`.
#[no_mangle]
pub extern "C" fn HMPI_Is_free() -> c_int {
    let call = "HMPI_Is_free";
    run(call, || {
        let host = runtime::with(call, |rt| Ok(rt.is_host()))?;
        Ok(c_int::from(!host && !handles::member_of_any()))
    })
}

/// 1 if the caller is a member of `*gid`, else 0 (also for NULL or 0).
#[no_mangle]
pub extern "C" fn HMPI_Is_member(gid: *const c_int) -> c_int {
    ptr::read(gid).map_or(0, |h| crate::capi::MPC_Is_member(h))
}

/// The group's communicator (rank = node), valid until the group is
/// freed; NULL for a non-member or a bad handle.
#[no_mangle]
pub extern "C" fn HMPI_Get_comm(gid: *const c_int) -> *const RawComm {
    let call = "HMPI_Get_comm";
    shim_core::ffi_guard::guard(call, std::ptr::null(), || {
        let Some(h) = ptr::read(gid) else {
            return std::ptr::null();
        };
        handles::with(call, h, |held| {
            Ok(if held.net.is_member() {
                held.comm.as_ptr()
            } else {
                std::ptr::null()
            })
        })
        .unwrap_or(std::ptr::null())
    })
}

/// The caller's rank in group `*gid`. Returns `MPC_OK`, `MPC_ERR_HANDLE`
/// (also for a non-member), `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn HMPI_Group_rank(gid: *const c_int, rank: *mut c_int) -> c_int {
    match ptr::read(gid) {
        Some(h) => crate::capi::MPC_Net_rank(h, rank),
        None => MPC_ERR_ARG,
    }
}

/// The number of processes of group `*gid`. Returns `MPC_OK`,
/// `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn HMPI_Group_size(gid: *const c_int, size: *mut c_int) -> c_int {
    match ptr::read(gid) {
        Some(h) => crate::capi::MPC_Net_size(h, size),
        None => MPC_ERR_ARG,
    }
}

/// The number of computing processes in `*n`. Returns `MPC_OK`,
/// `MPC_ERR_ARG`, `MPC_ERR_NOTINIT`.
#[no_mangle]
pub extern "C" fn HMPI_Get_number_of_processors(n: *mut c_int) -> c_int {
    let call = "HMPI_Get_number_of_processors";
    run_ok(call, || {
        let c = runtime::with(call, |rt| Ok(rt.computing_count() as c_int))?;
        ptr::write(n, c).ok_or_else(|| null(call, "n"))
    })
}

/// The relative speed of each computing process's host, by world rank,
/// into `speeds` (`HMPI_Get_number_of_processors` entries; the slowest
/// host is 1). Returns `MPC_OK`, `MPC_ERR_ARG`, `MPC_ERR_NOTINIT`,
/// `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn HMPI_Get_processors_info(speeds: *mut f64) -> c_int {
    let call = "HMPI_Get_processors_info";
    run_ok(call, || {
        let s = hmpi::speeds(call)?;
        ptr::slice_mut(speeds, s.len())
            .ok_or_else(|| null(call, "speeds"))?
            .copy_from_slice(&s);
        Ok(())
    })
}

/// The host speed of each member of group `*gid`, by rank, into `perfs`
/// (group size entries). Returns `MPC_OK`, `MPC_ERR_HANDLE`,
/// `MPC_ERR_ARG`, `MPC_ERR_SYSTEM`.
#[no_mangle]
pub extern "C" fn HMPI_Group_performances(gid: *const c_int, perfs: *mut f64) -> c_int {
    let call = "HMPI_Group_performances";
    run_ok(call, || {
        let h = ptr::read(gid).ok_or_else(|| null(call, "gid"))?;
        let procs = handles::with(call, h, |held| Ok(held.net.procs.clone()))?;
        let s = hmpi::speeds(call)?;
        let out = ptr::slice_mut(perfs, procs.len()).ok_or_else(|| null(call, "perfs"))?;
        for (o, p) in out.iter_mut().zip(procs) {
            *o = s.get(p).copied().unwrap_or(1.0);
        }
        Ok(())
    })
}

/// The group's coordinate extents: `*ndims` and up to `maxdims` of them
/// in `dims`. Returns `MPC_OK`, `MPC_ERR_HANDLE`, `MPC_ERR_ARG`.
#[no_mangle]
pub extern "C" fn HMPI_Group_topology(
    gid: *const c_int,
    maxdims: c_int,
    ndims: *mut c_int,
    dims: *mut c_int,
) -> c_int {
    let call = "HMPI_Group_topology";
    run_ok(call, || {
        let h = ptr::read(gid).ok_or_else(|| null(call, "gid"))?;
        let d = handles::with(call, h, |held| Ok(held.net.ty.dims().to_vec()))?;
        ptr::write(ndims, d.len() as c_int).ok_or_else(|| null(call, "ndims"))?;
        let k = d.len().min(usize::try_from(maxdims).unwrap_or(0));
        let out = ptr::slice_mut(dims, k).ok_or_else(|| null(call, "dims"))?;
        for (o, v) in out.iter_mut().zip(d) {
            *o = v as c_int;
        }
        Ok(())
    })
}
