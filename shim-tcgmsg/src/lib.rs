//! shim-tcgmsg: TCGMSG on MPI.
//!
//! - [`api`]: the safe Rust API (`pbegin`, `snd`, `rcv`, `brdcst`, `dgop`, ...).
//! - [`capi`]: the C ABI, `tcg_*` (`tcgmsg.h`), `NAME_` (`sndrcv.h`) and `Error`.
//! - [`fapi`]: the Fortran ABI (`snd_`, `pbeginf_`, ...; `INTEGER` is 8 bytes).
//! - [`world`]: the processes TCGMSG counts (compute ranks only).
//!
//! `NXTVAL` is not here: the `ga-server` crate serves the shared counter.
//!
//! # How messages travel
//! TCGMSG starts through `shim_core::join`, so MPI is started only if nobody
//! did, and it shares the process's one backend with the other layers. Its
//! world is the compute ranks (`shim_core::roles::compute_comm`); data
//! servers are not nodes. Its messages keep to the envelope model of the
//! core with a context of the layer's own: a duplicate of the compute
//! communicator, a small header (type, length) on a fixed MPI tag, the
//! payload inline or as a second message sent from and received into user
//! memory, and matching by type and node in the layer's own queue (see
//! [`layer`]). User types (1..32767 plus the flag bits `MSGDBL`, `MSGINT`,
//! `MSGCHR`) never become MPI tags.
//!
//! Why not a core context: every TCGMSG receive names its type and every
//! node is a static compute rank, so the layer needs neither the core's
//! routes and links to spawned processes nor its general pattern
//! matching. One persistent MPI receive, tested in a loop, and a queue are
//! enough, and they keep the path of a small message to a few hundred
//! nanoseconds over MPI's own: the core's generic path costs about 1.5
//! times raw MPI for 8 bytes, TCGMSG's target is 1.2.
//!
//! Waiting (receives, `WAITCOM`, large sends) polls with the core's
//! [`shim_core::backoff`] policy: spin briefly, then yield, then sleep, so
//! oversubscribed ranks do not starve each other. Collectives (`BRDCST`,
//! `DGOP`, `IGOP`, `SYNCH`, `PFCOPY`) are MPI collectives on the same
//! communicator.
//!
//! # Errors
//! As in TCGMSG, every failure (a bad node number, a message longer than
//! the receive buffer, a second `PBEGIN`, an unknown `DGOP` operation...)
//! prints `<node>: <message> <code> (<hex>).` on standard output and
//! standard error and ends the whole job with a non-zero status.

pub mod api;
pub mod capi;
pub mod fapi;
mod ffi;
pub mod layer;
mod ptr;
pub mod world;

pub use api::{
    brdcst, dgop, igop, mtime, nnodes, nodeid, on_pend, pbegin, pend, probe, rcv, ready, snd,
    synch, time, waitcom,
};
pub use ffi::Op;
pub use layer::{TcgError, TcgResult};

/// Type flag: the message holds doubles (`msgtypesc.h`).
pub const MSGDBL: i64 = 65536;
/// Type flag: the message holds integers.
pub const MSGINT: i64 = 131072;
/// Type flag: the message holds characters.
pub const MSGCHR: i64 = 262144;
