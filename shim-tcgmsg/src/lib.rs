//! shim-tcgmsg: TCGMSG on MPI.
//!
//! - [`api`]: the safe Rust API (`pbegin`, `snd`, `rcv`, `brdcst`, `dgop`, ...).
//! - [`capi`]: the C ABI, `tcg_*` (`tcgmsg.h`), the `NAME_` functions of
//!   `sndrcv.h` that take strings, and `Error`.
//! - [`fapi`]: the Fortran routines that take `CHARACTER` arguments
//!   (`INTEGER` is 8 bytes).
//! - [`by_reference`]: every other `NAME_` function and its Fortran twin
//!   (`SND_` and `snd_`, ...), one definition each.
//! - [`world`]: the processes TCGMSG counts (compute ranks only).
//!
//! `NXTVAL` is not here: the `ga-server` crate serves the shared counter.
//!
//! # How messages travel
//! TCGMSG starts through `shim_core::join`, so MPI is started only if nobody
//! did, and it shares the process's one backend with the other layers. Its
//! world is the compute ranks (the core's world); data servers are not
//! nodes. Its messages are envelopes of the core in the layer's own
//! context (see [`layer`]): between processes of one node they go through
//! the core's shared-memory channels, elsewhere through MPI, and they are
//! matched by type and node in the core's queues. User types (a C `long`,
//! flag bits `MSGDBL`, `MSGINT`, `MSGCHR` included) never become MPI tags.
//!
//! Waiting (receives, `WAITCOM`) follows the core's policy: spin briefly,
//! then yield, then sleep, woken at once by a same-node sender.
//! Collectives (`BRDCST`, `DGOP`, `IGOP`, `SYNCH`, `PFCOPY`) are MPI
//! collectives on the context's communicator, through the core.
//!
//! # Errors
//! As in TCGMSG, every failure (a bad node number, a message longer than
//! the receive buffer, a second `PBEGIN`, an unknown `DGOP` operation...)
//! prints `<node>: <message> <code> (<hex>).` on standard output and
//! standard error and ends the whole job with a non-zero status.

pub mod api;
pub mod by_reference;
pub mod capi;
pub mod fapi;
pub mod layer;
mod os;
mod ptr;
pub mod world;

pub use api::{
    brdcst, dgop, igop, mtime, nnodes, nodeid, on_pend, pbegin, pend, probe, rcv, ready, snd,
    synch, time, waitcom,
};
pub use layer::{TcgError, TcgResult};
pub use shim_core::collective::{Group, ReduceOp as Op};

/// Type flag: the message holds doubles (`msgtypesc.h`).
pub const MSGDBL: i64 = 65536;
/// Type flag: the message holds integers.
pub const MSGINT: i64 = 131072;
/// Type flag: the message holds characters.
pub const MSGCHR: i64 = 262144;
