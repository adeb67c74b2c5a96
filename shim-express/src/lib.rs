//! shim-express: ParaSoft Express on MPI, Express-compatible as specified
//! in `cbindings/include/express.h` (no public Express manual exists; the
//! header is the project's specification and the tests freeze it).
//!
//! - [`capi`]: the C ABI (`exread`, `exwrite`, `excombine`, `exgridinit`...).
//! - [`fapi`]: the Fortran ABI (`KXREAD`, `KXWRIT`, ... as `kxread_`).
//! - `twins`: what a C entry and its Fortran twin share once their
//!   arguments are read; `predefined`: the predefined combine functions
//!   (one table for both ABIs); `ptr`: the raw-pointer conversions.
//! - [`rust_api`]: the safe Rust API.
//! - [`msg`]: point-to-point messages and message ids.
//! - [`coll`]: collectives over all nodes or node lists.
//! - [`grid`]: processor grids.
//! - [`handler`]: message handlers and when they run.
//! - [`layer`]: the process's state, node numbering, host detection.
//!
//! # How it maps onto MPI
//! Messages use the shared core (`shim_core::Context` named `express`):
//! the Express type is the envelope's user tag, never an MPI tag, so every
//! `int` is a type. Matching by source and type happens in the core's
//! queue in arrival order (pairwise FIFO). Collectives run on MPI
//! communicators: the nodes' own (split from the context's communicator)
//! and one per distinct node list (`MPI_Comm_create_group`, cached).
//! Grids are MPI Cartesian communicators over the nodes.

pub mod capi;
pub mod coll;
pub mod error;
pub mod fapi;
pub mod grid;
pub mod handler;
pub mod layer;
pub mod msg;
mod predefined;
mod ptr;
pub mod rust_api;
mod twins;

pub use error::{ExError, ExResult};
pub use layer::{ALLNODES, DONTCARE, EXNOHOST, EXNONODE};
