//! Global Arrays on MPI.
//!
//! - [`core`]: the GA client runtime every GA API (C, Fortran, Rust) is built
//!   on: array creation and distribution, one-sided put/get/acc, read-increment,
//!   scatter/gather, mutexes and collectives over the compute ranks.
//! - [`server`]: the `ga-server` data server, one per node, which owns the
//!   arrays' memory in POSIX shared memory and serves the other nodes.
//! - [`nxtval`]: TCGMSG's shared loop counter on the server's shared memory.

pub mod capi;
pub mod capi_ops;
mod capi_ptr;
pub mod core;
pub mod ma;
pub mod nxtval;
pub mod ops;
pub mod server;
