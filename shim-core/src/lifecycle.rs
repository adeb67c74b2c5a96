//! MPI start and stop shared by every layer: MPI is initialised only if
//! nobody did, and finalised only if this library initialised it, after the
//! last layer left. Holds the process-wide engine behind one lock, and
//! runs the one thread that works on it beside the program's own: the
//! thread that moves ring backlogs while the program is elsewhere.

use crate::backoff::Policy;
use crate::engine::{Engine, Route};
use crate::error::{CoreError, CoreResult};
use crate::mpi::{self, Comm, Root, ThreadLevel};
use crate::procid::ProcId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

struct Life {
    layers: Vec<String>,
    we_initialized: bool,
    thread_level: Option<ThreadLevel>,
}

static LIFE: Mutex<Life> = Mutex::new(Life {
    layers: Vec::new(),
    we_initialized: false,
    thread_level: None,
});

/// The waiting policy; its own lock, as waits happen while `LIFE` is held.
/// Read at the start of every wait, so its release is a plain store too.
static POLICY: spin::mutex::Mutex<Option<Policy>, spin::relax::Yield> =
    spin::mutex::Mutex::new(None);

/// The engine's lock. Its release is a plain store: a lock whose release is
/// an atomic exchange (a full barrier) stalls right after a shared-memory
/// MPI send until the line the peer is polling has left this core, which
/// cost a third of a small message's latency. Waiters yield their core.
type EngineLock = crate::Lock<Option<Engine>>;

static ENGINE: EngineLock = EngineLock::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves consistent-enough state for
    // reporting errors; never propagate the poison as a second panic.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on the engine; `NotInitialized` when no layer joined.
pub(crate) fn with_engine<R>(f: impl FnOnce(&mut Engine) -> CoreResult<R>) -> CoreResult<R> {
    let mut g = ENGINE.lock();
    match g.as_mut() {
        Some(e) => f(e),
        None => Err(CoreError::NotInitialized),
    }
}

/// Whether a thread moves this process's ring backlogs (changed only with
/// the engine's lock held).
static FLUSHER_RUNNING: AtomicBool = AtomicBool::new(false);

/// Makes sure a thread moves records queued for full rings into them
/// (called with the engine's lock held, when a record was queued). The
/// records move even while this process's own thread sits in a plain MPI
/// call (a barrier, a reduction) that the receiver waits in too.
pub(crate) fn start_backlog_flusher() {
    if FLUSHER_RUNNING.swap(true, Ordering::Relaxed) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("mpbridge-backlog".into())
        .spawn(backlog_flusher);
    if spawned.is_err() {
        // Without the thread the records still move at this process's
        // next call into the library.
        FLUSHER_RUNNING.store(false, Ordering::Relaxed);
    }
}

/// The body of the backlog thread: moves records with growing pauses
/// (touching no MPI) and ends when no backlog is left.
fn backlog_flusher() {
    const FIRST: Duration = Duration::from_micros(20);
    const LONGEST: Duration = Duration::from_millis(2);
    /// Marks the thread gone if it ends by a panic, so the next backlog
    /// starts another (a normal end marks it under the engine's lock).
    struct Running;
    impl Drop for Running {
        fn drop(&mut self) {
            if std::thread::panicking() {
                FLUSHER_RUNNING.store(false, Ordering::Relaxed);
            }
        }
    }
    let _running = Running;
    let mut pause = FIRST;
    loop {
        std::thread::sleep(pause);
        let mut g = ENGINE.lock();
        let Some(e) = g.as_mut() else {
            FLUSHER_RUNNING.store(false, Ordering::Relaxed);
            return;
        };
        let (moved, left) = e.flush_backlogs_once();
        if !left {
            FLUSHER_RUNNING.store(false, Ordering::Relaxed);
            return;
        }
        pause = if moved > 0 {
            FIRST
        } else {
            (pause * 2).min(LONGEST)
        };
    }
}

/// The waiting policy in force.
pub fn wait_policy() -> Policy {
    POLICY.lock().unwrap_or_default()
}

/// Whether a waiting policy was set explicitly.
pub(crate) fn wait_policy_set() -> bool {
    POLICY.lock().is_some()
}

/// Changes the waiting policy (for tuning and tests).
pub fn set_wait_policy(p: Policy) {
    *POLICY.lock() = Some(p);
}

/// Proof that a layer joined; give it back with [`leave`].
#[derive(Debug)]
pub struct Membership {
    layer: String,
}

impl Membership {
    /// The layer's name.
    pub fn layer(&self) -> &str {
        &self.layer
    }
}

/// A layer joins the backend; the first one starts MPI (if nobody did) and
/// the engine. Every process of the world must join (collective).
pub fn join(layer: &str) -> CoreResult<Membership> {
    let mut life = lock(&LIFE);
    let mut eng = ENGINE.lock();
    if eng.is_none() {
        if mpi::is_finalized() {
            return Err(CoreError::Finalized);
        }
        let level = if mpi::is_initialized() {
            mpi::query_thread()?
        } else {
            let l = mpi::init_thread_multiple()?;
            life.we_initialized = true;
            // A program that ends without leaving (no pvm_exit, no
            // mpb_finalize) must still finalise the MPI we started, or the
            // launcher treats its exit as a crash and ends the job.
            mpi::at_exit(finalize_at_exit);
            l
        };
        life.thread_level = Some(level);
        let e = start_engine()?;
        crate::exit_status::watch_exit(e.parent.is_none().then_some(e.world_rank));
        *eng = Some(e);
    }
    life.layers.push(layer.to_string());
    Ok(Membership {
        layer: layer.to_string(),
    })
}

/// A layer leaves; after the last one the engine stops and MPI is finalised
/// if this library initialised it.
pub fn leave(m: Membership) -> CoreResult<()> {
    let mut life = lock(&LIFE);
    if let Some(i) = life.layers.iter().position(|l| *l == m.layer) {
        life.layers.remove(i);
    }
    if !life.layers.is_empty() {
        return Ok(());
    }
    drop(life);
    tracing::debug!(target: "core", "last layer left: stopping the engine");
    run_finalize_hooks();
    crate::trace::finish();
    let mut life = lock(&LIFE);
    let mut eng = ENGINE.lock();
    let mut peers = Vec::new();
    if let Some(mut e) = eng.take() {
        // Batches whose processes are all gone go back to the registry.
        let _ = e.release_finished_batches();
        peers = e.world_peer_pids();
        e.shutdown()?;
    }
    if life.we_initialized && !mpi::is_finalized() {
        life.we_initialized = false;
        tracing::debug!(target: "core", "finalizing MPI");
        finalize_unless_orphaned(peers)?;
    }
    Ok(())
}

/// Finalises MPI, unless a process of this one's own MPI job on this node
/// (`peers`: their process ids) died: then
/// `MPI_Finalize` would wait for it for good (Open MPI synchronises the
/// whole job in it), so the process goes on without it. Only in a job
/// that survives deaths (Open MPI's recovery mode, which tolerates such an
/// exit); its traffic is complete by then. A peer that dies while this
/// process is already in `MPI_Finalize` is caught by a watch that ends the
/// process (with the exit status it was ending with, else 0) when its
/// finalize has not ended [`FINALIZE_GRACE`] after a look found the peer
/// gone (a peer that exited after finalizing looks the same): code after
/// `pvm_exit` does not run then.
fn finalize_unless_orphaned(peers: Vec<u32>) -> CoreResult<()> {
    // Without recovery mode a death has ended the job already, and a
    // process that skips any part of MPI_Finalize would count as a crash.
    if !mpi::recovery_mode() || peers.is_empty() {
        return mpi::finalize();
    }
    let any_dead = |peers: &[u32]| peers.iter().any(|pid| !crate::shm::pid_alive(*pid));
    if any_dead(&peers) {
        tracing::info!(target: "core", "a job member on this node died: MPI_Finalize skipped");
        return Ok(());
    }
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watching = done.clone();
    let watch = std::thread::Builder::new()
        .name("mpb-finalize-watch".into())
        .spawn(move || {
            while !watching.load(std::sync::atomic::Ordering::Acquire) {
                std::thread::sleep(FINALIZE_WATCH);
                if watching.load(std::sync::atomic::Ordering::Acquire) {
                    return;
                }
                if any_dead(&peers) {
                    // A peer that finished MPI_Finalize and exited looks
                    // like one that died: this process's own finalize,
                    // past the job's common step, ends promptly then, and
                    // only one waiting for the dead peer is cut short.
                    let until = std::time::Instant::now() + FINALIZE_GRACE;
                    while std::time::Instant::now() < until {
                        if watching.load(std::sync::atomic::Ordering::Acquire) {
                            return;
                        }
                        std::thread::sleep(FINALIZE_WATCH / 10);
                    }
                    mpi::exit_immediately(crate::exit_status::recorded().unwrap_or(0));
                }
            }
        });
    let r = mpi::finalize();
    done.store(true, std::sync::atomic::Ordering::Release);
    if let Ok(w) = watch {
        let _ = w.join();
    }
    r
}

/// How often a process in `MPI_Finalize` looks for dead peers.
const FINALIZE_WATCH: std::time::Duration = std::time::Duration::from_millis(200);

/// How long a process in `MPI_Finalize` that found a peer gone lets its
/// own finalize end before it leaves without it.
const FINALIZE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Work that must happen while MPI still runs, right before it is
/// finalised (a client telling its data server it is done).
static BEFORE_FINALIZE: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// Registers `f` to run once before MPI is finalised: by the last
/// [`leave`], at process exit, or by a layer that finalises MPI itself
/// through [`run_finalize_hooks`].
pub fn before_finalize(f: fn()) {
    let mut hooks = lock(&BEFORE_FINALIZE);
    if !hooks.contains(&f) {
        hooks.push(f);
    }
}

/// Runs (and forgets) the hooks of [`before_finalize`], the last
/// registered first (as `atexit`). Layers whose API finalises MPI on the
/// user's behalf (TCGMSG's `PEND`) call it first.
pub fn run_finalize_hooks() {
    let hooks = std::mem::take(&mut *lock(&BEFORE_FINALIZE));
    for f in hooks.into_iter().rev() {
        f();
    }
}

/// Leaves every layer still joined and finalises MPI if this library
/// started it (run at process exit).
extern "C" fn finalize_at_exit() {
    finish_process();
}

/// The process is done with every layer: runs the hooks of
/// [`before_finalize`], leaves every layer still joined and finalises MPI
/// if this library started it. For exits that skip the normal exit
/// handlers (PVM's exit after `pvm_exit`, TCGMSG's `PEND`).
pub fn finish_process() {
    let _ = std::panic::catch_unwind(|| {
        if !mpi::is_finalized() {
            run_finalize_hooks();
        }
        crate::trace::finish();
        let mut life = lock(&LIFE);
        life.layers.clear();
        let mut peers = Vec::new();
        if let Some(mut e) = ENGINE.lock().take() {
            peers = e.world_peer_pids();
            let _ = e.shutdown();
        }
        if life.we_initialized && !mpi::is_finalized() {
            life.we_initialized = false;
            let _ = finalize_unless_orphaned(peers);
        }
    });
}

/// Names of the layers currently joined.
pub fn layers() -> Vec<String> {
    lock(&LIFE).layers.clone()
}

/// Whether this library (not the user) initialised MPI.
pub fn we_initialized_mpi() -> bool {
    lock(&LIFE).we_initialized
}

/// The MPI thread level granted (or found), once a layer joined.
pub fn thread_level() -> Option<ThreadLevel> {
    lock(&LIFE).thread_level
}

/// What a spawned process learns from its parent first.
const HELLO_LEN: usize = 12;

fn start_engine() -> CoreResult<Engine> {
    let world = crate::roles::compute_comm()?;
    let rank = world.rank()?;
    let size = world.size()?;
    let mut links = Vec::new();
    let mut parent = None;
    let mut batch = 0u16;
    if let Some(pc) = Comm::parent()? {
        let mut hello = [0u8; HELLO_LEN];
        pc.bcast(&mut hello, Root::Rank(0))?;
        batch = u16::from_le_bytes([hello[0], hello[1]]);
        let pid = u32::from_le_bytes([hello[4], hello[5], hello[6], hello[7]]);
        let pid = ProcId::from_raw(pid)
            .ok_or_else(|| CoreError::Inconsistent("parent sent a bad id".into()))?;
        crate::spawn::set_note(u32::from_le_bytes([
            hello[8], hello[9], hello[10], hello[11],
        ]));
        let mut mine = None;
        for k in 0..size {
            let c = pc.split((k == rank).then_some(0), 0)?;
            if k == rank {
                mine = c;
            }
        }
        pc.disconnect()?;
        let mine = mine.ok_or_else(|| CoreError::Inconsistent("no link to parent".into()))?;
        links.push((mine, pid));
        parent = Some(pid);
    }
    let id_of = |r: i32| {
        ProcId::new(batch, r as u32)
            .ok_or_else(|| CoreError::InvalidArgument(format!("rank {r} out of id range")))
    };
    let world_ids: Vec<ProcId> = (0..size).map(id_of).collect::<CoreResult<_>>()?;
    let me = world_ids[rank as usize];
    crate::log::init(me, rank);
    crate::trace::init(me, rank);
    tracing::debug!(target: "core", size, parent = ?parent, "joined MPI");
    let mut routes = crate::idhash::IdMap::default();
    for (r, id) in world_ids.iter().enumerate() {
        if *id != me {
            routes.insert(*id, Route::World(r as i32));
        }
    }
    let mut e = Engine {
        me,
        world_rank: rank,
        world_ids,
        parent,
        contexts: Default::default(),
        listeners: Default::default(),
        orphans: Default::default(),
        links: Vec::new(),
        routes,
        pending_sends: Vec::new(),
        waiting_for_link: Default::default(),
        unreachable: Default::default(),
        offers: Default::default(),
        asked: Default::default(),
        next_batch: 1,
        batch_paths: Default::default(),
        next_request: 0,
        granted: Default::default(),
        ctl_inbox: Vec::new(),
        shm: None,
        ring_polls_to_full: 0,
        recv_context: None,
        last_send: None,
        peer_procs: Default::default(),
    };
    // Before this process's node and pid reach any peer.
    crate::liveness::register();
    e.open_world_channels(world)?;
    e.create_context(crate::engine::CONTROL_CONTEXT)?;
    for (comm, pid) in links {
        e.add_link(comm, vec![pid])?;
    }
    Ok(e)
}

/// Encodes what the parent tells its new children: their batch, the
/// parent's id and the spawning layer's note.
pub(crate) fn child_hello(batch: u16, parent: ProcId, note: u32) -> [u8; HELLO_LEN] {
    let mut h = [0u8; HELLO_LEN];
    h[0..2].copy_from_slice(&batch.to_le_bytes());
    h[4..8].copy_from_slice(&parent.raw().to_le_bytes());
    h[8..12].copy_from_slice(&note.to_le_bytes());
    h
}
