//! shim-core: the one MPI backend every mpbridge layer shares.
//!
//! - [`lifecycle`]: MPI start/stop shared by all layers ([`join`], [`leave`]).
//! - [`Context`]: one private communicator per layer or library; messages
//!   carry an envelope (context, source id, user tag, encoding, length) and
//!   are matched in the backend's own queues, never by MPI tag.
//! - [`ProcId`]: one id per process, the same from every viewpoint, for the
//!   static world and for spawned processes ([`spawn`]); links between
//!   processes of different spawns are set up on first use.
//! - [`backoff`]: how blocked calls wait without starving other ranks.
//! - [`topology`]: Cartesian grids.
//! - `shm`: same-node channels (shared-memory rings with futex wake-ups)
//!   under the envelope path, and same-node reductions; `MPBRIDGE_SHM=0`
//!   turns them off.
//! - [`mpi`]: the MPI edge every layer uses (communicators, blocking and
//!   non-blocking point-to-point calls, standing receives, chunked
//!   transfers, spawn, ports, topology); with [`collective`] (collectives
//!   over a communicator or a list of processes) and [`onesided`] (a shared
//!   counter in an MPI window) the only place in mpbridge that calls MPI;
//!   `node_reductions` takes a communicator's reductions off MPI when all
//!   its members share a node.
//! - [`ffi_guard`]: the panic boundary for exported C and Fortran functions.
//! - [`cstr`]: C string arguments as bytes or text, for every layer's C ABI.
//! - [`ptr`]: checked pointer arguments (arrays, buffers, values passed by
//!   address), for every layer's C and Fortran ABI.
//! - [`log`]: decision logs on stderr when `MPBRIDGE_LOG` asks for them.
//! - [`trace`]: per-process event files when `MPBRIDGE_TRACE` names a directory.
//! - [`exit_status`]: a first-launch process's exit status for `mpbridge run`.
//! - [`liveness`]: whether a process on another node still runs (lock files
//!   in the launcher's shared job directory).

pub mod api;
pub mod backoff;
pub mod capi;
pub mod collective;
pub(crate) mod control;
pub mod cstr;
pub(crate) mod engine;
pub mod envelope;
pub(crate) mod error;
pub mod exit_status;
pub mod ffi_guard;
pub mod idhash;
pub mod lifecycle;
pub mod liveness;
pub mod log;
pub mod mpi;
pub(crate) mod node_reductions;
pub mod onesided;
pub mod procid;
pub mod ptr;
pub(crate) mod queue;
pub mod roles;
pub(crate) mod shm;
pub mod spawn;
pub mod topology;
pub mod trace;

pub use api::{
    disconnect, my_id, parent, poll, spawn, spawn_with, world_ids, world_rank, Context, Fitted,
    Lazy,
};
pub use engine::{context_id, Payload, Received};
pub use error::{CoreError, CoreResult};
pub use lifecycle::{join, leave, Membership};
pub use procid::ProcId;
pub use queue::{Match, Message};

/// The lock type of the layers' state: waiters yield their core, and release
/// is a plain store (see `lifecycle` for why that matters after MPI sends).
pub type Lock<T> = spin::mutex::Mutex<T, spin::relax::Yield>;
