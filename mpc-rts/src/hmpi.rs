//! HeteroMPI-style operations on the same dispatcher: refreshing host
//! speeds with a benchmark, predicting a network's time, and choosing the
//! number of processes as well as their mapping.

use crate::error::{MpcError, MpcResult, MPC_ERR_ARG, MPC_ERR_SYSTEM};
use crate::net::{self, Net};
use crate::runtime;
use crate::wire::{Reply, Request};
use mpc_map::NetType;

fn unexpected<T>(call: &str, r: Reply) -> MpcResult<T> {
    match r {
        Reply::Refused(why) => Err(MpcError::new(
            crate::error::MPC_ERR_MAP,
            format!("{call}: {why}"),
        )),
        other => Err(MpcError::new(
            MPC_ERR_SYSTEM,
            format!("{call}: unexpected answer {other:?}"),
        )),
    }
}

/// Runs `bench` on every computing process at once (collective over
/// them), and gives the dispatcher each one's rate (runs per second); the
/// dispatcher turns them into host speeds, the slowest host 1.
pub fn recon(bench: impl FnOnce()) -> MpcResult<()> {
    let call = "HMPI_Recon";
    runtime::with(call, |rt| {
        rt.computing
            .barrier()
            .map_err(|e| MpcError::core(call, e))?;
        let t0 = shim_core::mpi::wtime();
        bench();
        let dt = (shim_core::mpi::wtime() - t0).max(1e-9);
        match rt.ask(call, &Request::Recon { rate: 1.0 / dt })? {
            Reply::Ack => {}
            other => return unexpected(call, other),
        }
        rt.computing.barrier().map_err(|e| MpcError::core(call, e))
    })
}

/// The dispatcher's estimate (seconds when the volumes are in benchmark
/// runs) for a network of type `ty` parented by this process, with the
/// processes free now.
pub fn timeof(ty: &NetType) -> MpcResult<f64> {
    let call = "HMPI_Timeof";
    runtime::with(call, |rt| {
        match rt.ask(call, &Request::Estimate(ty.clone()))? {
            Reply::Estimate { time, .. } => Ok(time),
            other => unexpected(call, other),
        }
    })
}

/// The speed of every computing process's host. Unlike [`status`] this
/// does not wait for processes between networks: a member of a network
/// asks it while another member, just out of an earlier network, may be
/// waiting for the asker in a collective call.
pub fn speeds(call: &str) -> MpcResult<Vec<f64>> {
    runtime::with(call, |rt| match rt.ask(call, &Request::Speeds)? {
        Reply::Status { speeds, .. } => Ok(speeds),
        other => unexpected(call, other),
    })
}

/// Processes free now and the speed of every computing process's host.
pub fn status() -> MpcResult<(usize, Vec<f64>)> {
    let call = "HMPI_Get_processors_info";
    runtime::with(call, |rt| match rt.ask(call, &Request::Status)? {
        Reply::Status { free, speeds } => Ok((free, speeds)),
        other => unexpected(call, other),
    })
}

/// Makes the network of `shape(n)` for the number `n` of processes (1 up
/// to this one plus the free ones) whose estimated time is least; ties
/// go to fewer processes. `shape` may refuse a count with `None`.
pub fn auto_create(mut shape: impl FnMut(usize) -> Option<NetType>) -> MpcResult<Net> {
    let call = "HMPI_Group_auto_create";
    let (free, _) = status()?;
    let mut best: Option<(f64, NetType)> = None;
    for n in 1..=free + 1 {
        let Some(ty) = shape(n) else {
            continue;
        };
        let t = timeof(&ty)?;
        if best.as_ref().is_none_or(|(bt, _)| t < *bt * (1.0 - 1e-9)) {
            best = Some((t, ty));
        }
    }
    let (_, ty) = best.ok_or_else(|| {
        MpcError::new(
            MPC_ERR_ARG,
            format!(
                "{call}: the model accepts no process count from 1 to {}",
                free + 1
            ),
        )
    })?;
    net::create(ty, true)
}
