//! Start and stop of the run-time on the shared core, and the calls every
//! process uses to talk to the dispatcher. The host is world rank 0; the
//! dispatcher is the job's last rank, which serves requests inside
//! `MPC_Init` and never returns to the program; the ranks before it are
//! the computing processes.

use crate::error::{MpcError, MpcResult, MPC_ERR_NOTINIT, MPC_ERR_SYSTEM};
use crate::wire::{Reply, Request, TAG_HIRE, TAG_REPLY, TAG_REQUEST};
use shim_core::collective::Group;
use shim_core::{Context, Match, Membership, ProcId};
use std::sync::{Mutex, MutexGuard};

/// The core context name of the run-time.
pub(crate) const CONTEXT_NAME: &str = "mpc-rts";
/// Environment variable naming the virtual parallel machine file.
pub const VPM_ENV: &str = "MPBRIDGE_VPM";

/// A computing process's view of the run-time.
pub struct Runtime {
    membership: Membership,
    pub(crate) ctx: Context,
    pub(crate) ids: Vec<ProcId>,
    /// This process's world rank.
    pub rank: usize,
    /// The dispatcher's world rank.
    pub dispatcher: usize,
    /// The computing processes (every rank but the dispatcher).
    pub(crate) computing: Group,
}

static RUNTIME: Mutex<Option<Runtime>> = Mutex::new(None);

fn lock() -> MutexGuard<'static, Option<Runtime>> {
    RUNTIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` with the started run-time.
pub fn with<R>(call: &str, f: impl FnOnce(&Runtime) -> MpcResult<R>) -> MpcResult<R> {
    let g = lock();
    let rt = g.as_ref().ok_or_else(|| {
        MpcError::new(MPC_ERR_NOTINIT, format!("{call}: MPC_Init was not called"))
    })?;
    f(rt)
}

/// Whether the run-time is started in this process.
pub fn started() -> bool {
    lock().is_some()
}

/// The processors of this process's host (its CPU quota counts).
fn cpus() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// Starts the run-time (collective over the job). On the dispatcher's rank
/// this serves the job and then ends the process; elsewhere it returns.
pub fn init() -> MpcResult<()> {
    let call = "MPC_Init";
    if started() {
        return Ok(());
    }
    let mpi_first = shim_core::mpi::is_initialized();
    crate::patience::start(mpi_first);
    let membership = match shim_core::join(CONTEXT_NAME) {
        Ok(m) => m,
        Err(e) => {
            crate::patience::stop();
            return Err(MpcError::core(call, e));
        }
    };
    let ctx = Context::create(CONTEXT_NAME).map_err(|e| MpcError::core(call, e))?;
    let ids = shim_core::world_ids().map_err(|e| MpcError::core(call, e))?;
    let rank = shim_core::world_rank().map_err(|e| MpcError::core(call, e))? as usize;
    let n = ids.len();
    if n < 2 {
        let _ = shim_core::leave(membership);
        crate::patience::stop();
        return Err(MpcError::new(
            MPC_ERR_SYSTEM,
            format!("{call}: the job has {n} process; it needs at least 2 (the last one is the dispatcher)"),
        ));
    }
    let dispatcher = n - 1;
    shim_core::log::tracing::debug!(
        target: "mpc",
        "MPC run-time started: {} computing processes, dispatcher rank {dispatcher}{}; \
         idle waits nap {} us{}",
        n - 1,
        if rank == dispatcher { " (this process)" } else { "" },
        crate::patience::nap_us(),
        if mpi_first { " (MPI started first: Open MPI keeps spinning)" } else { "" }
    );
    if rank == dispatcher {
        crate::dispatcher::serve(ctx, ids, membership);
    }
    let base = ctx.comm().map_err(|e| MpcError::core(call, e))?;
    let ranks: Vec<i32> = (0..dispatcher as i32).collect();
    let computing = Group::create(base, &ranks).map_err(|e| MpcError::core(call, e))?;
    let rt = Runtime {
        membership,
        ctx,
        ids,
        rank,
        dispatcher,
        computing,
    };
    let vpm = if rank == 0 {
        read_vpm().map_err(|e| MpcError::arg(call, e))?
    } else {
        String::new()
    };
    rt.notify(
        call,
        &Request::Hello {
            host: shim_core::mpi::processor_name(),
            cpus: cpus(),
            vpm,
        },
    )?;
    *lock() = Some(rt);
    Ok(())
}

/// The text of the file `MPBRIDGE_VPM` names, or "" when unset.
fn read_vpm() -> Result<String, String> {
    match std::env::var_os(VPM_ENV).filter(|v| !v.is_empty()) {
        None => Ok(String::new()),
        Some(p) => std::fs::read_to_string(&p)
            .map_err(|e| format!("{VPM_ENV}={}: {e}", p.to_string_lossy())),
    }
}

/// Tells the dispatcher this process has ended and stops the run-time.
pub fn finalize() -> MpcResult<()> {
    let rt = lock().take();
    let Some(rt) = rt else {
        return Ok(());
    };
    rt.notify("MPC_Finalize", &Request::Finalize)?;
    let Runtime {
        membership,
        computing,
        ..
    } = rt;
    drop(computing);
    let left = shim_core::leave(membership).map_err(|e| MpcError::core("MPC_Finalize", e));
    crate::patience::stop();
    shim_core::log::tracing::debug!(target: "mpc", "MPC run-time stopped");
    left
}

/// Receives the first message matching `m`, polling and sleeping (0.1 ms
/// growing to 2 ms) between polls instead of spinning: processes waiting
/// for the dispatcher, and the dispatcher itself, then take next to no
/// CPU from the processes that compute beside them on a host.
pub(crate) fn patient_recv(ctx: Context, m: Match) -> shim_core::CoreResult<shim_core::Message> {
    let mut nap = std::time::Duration::from_micros(100);
    loop {
        match ctx.recv(m, Some(std::time::Duration::ZERO)) {
            Err(shim_core::CoreError::Timeout) => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(std::time::Duration::from_millis(2));
            }
            other => return other,
        }
    }
}

/// Ends the whole job with `code` after printing `message`.
pub fn abort(code: i32, message: &str) -> ! {
    eprintln!("mpbridge mpc: MPC_Abort({code}): {message}");
    shim_core::mpi::abort(shim_core::mpi::Comm::world(), code)
}

impl Runtime {
    fn dispatcher_id(&self) -> ProcId {
        self.ids[self.dispatcher]
    }

    /// Sends `req` to the dispatcher without waiting for an answer.
    pub(crate) fn notify(&self, call: &str, req: &Request) -> MpcResult<()> {
        self.ctx
            .send(self.dispatcher_id(), TAG_REQUEST, 0, &req.encode())
            .map_err(|e| MpcError::core(call, e))
    }

    fn wait(&self, call: &str, tag: i32) -> MpcResult<Reply> {
        let m = patient_recv(self.ctx, Match::new(Some(self.dispatcher_id()), Some(tag)))
            .map_err(|e| MpcError::core(call, e))?;
        Reply::decode(&m.data)
            .map_err(|e| MpcError::new(MPC_ERR_SYSTEM, format!("{call}: dispatcher: {e}")))
    }

    /// Sends `req` and waits for the dispatcher's answer.
    pub(crate) fn ask(&self, call: &str, req: &Request) -> MpcResult<Reply> {
        self.notify(call, req)?;
        self.wait(call, TAG_REPLY)
    }

    /// Waits for word from the dispatcher to a free process.
    pub(crate) fn wait_hire(&self, call: &str) -> MpcResult<Reply> {
        self.wait(call, TAG_HIRE)
    }

    /// The run-time's communicator over the whole world (dispatcher too).
    pub(crate) fn world(&self, call: &str) -> MpcResult<shim_core::mpi::Comm> {
        self.ctx.comm().map_err(|e| MpcError::core(call, e))
    }

    /// Number of computing processes.
    pub fn computing_count(&self) -> usize {
        self.dispatcher
    }

    /// Whether this process is the host.
    pub fn is_host(&self) -> bool {
        self.rank == 0
    }
}
