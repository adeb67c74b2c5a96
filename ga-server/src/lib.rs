//! Global Arrays on MPI.
//!
//! - [`core`]: the GA client runtime every GA API (C, Fortran, Rust) is built
//!   on: array creation and distribution, one-sided put/get/acc, read-increment,
//!   scatter/gather, mutexes and collectives over the compute ranks.
//! - [`server`]: the `ga-server` data server, one per node, which owns the
//!   arrays' memory in POSIX shared memory and serves the other nodes;
//!   [`server_stats`]: its request counters.
//! - [`nxtval`]: TCGMSG's shared loop counter on the server's shared memory.
//! - [`linalg`]: the dense linear algebra (LU and Cholesky solves, the SPD
//!   inverse, the symmetric eigensolvers) on ScaLAPACK through a
//!   block-cyclic copy, and on the serial LAPACK for the `_seq` forms.
//! - [`mirror`]: mirrored arrays (one copy per node) and their merges.
//! - [`armci`]: ARMCI (`armci.h`), GA's one-sided layer, on the GA client:
//!   `ARMCI_Malloc` memory is a GA array of bytes in the servers' segments;
//!   `capi_armci` is its C ABI, and `capi_parmci` gives every call its
//!   `PARMCI_` profiling name (through `forward`'s `same_as!`, which also
//!   makes GA's `nga_` Fortran names).
//!
//! MPI is reached only through shim-core's API (its `mpi`, `collective` and
//! `onesided` modules): this crate declares no MPI request, communicator
//! wrapper or error check of its own. `sys` is the crate's edge to the C
//! library (shared memory, signals).

// Index loops over several per-dimension arrays at once read best as such.
#![allow(clippy::needless_range_loop)]

mod armci;
pub mod capi;
mod capi_alloc;
mod capi_armci;
mod capi_armci_groups;
mod capi_armci_msg;
mod capi_cyclic;
mod capi_elementwise;
pub(crate) mod capi_ghosts;
mod capi_linalg;
mod capi_mirror;
pub mod capi_ops;
mod capi_pack_scan;
mod capi_parmci;
mod capi_pgroups;
mod capi_properties;
mod capi_ptr;
mod capi_strided;
mod capi_topology;
mod cleanup;
pub mod core;
mod drand;
mod forward;
mod hints;
pub mod linalg;
pub mod ma;
mod ma_space;
pub mod mirror;
pub mod nxtval;
pub mod ops;
mod procs;
pub mod properties;
pub mod protocol;
mod ptr;
pub mod server;
pub mod server_stats;
mod shm;
mod sys;

// The Fortran API (`ga_*`/`nga_*`, gfortran conventions) and MA for Fortran.
pub mod fapi;
mod fapi_aliases;
mod fapi_bins;
mod fapi_cyclic;
mod fapi_elementwise;
mod fapi_ghosts;
mod fapi_linalg;
mod fapi_mirror;
pub mod fapi_ops;
mod fapi_pack_scan;
mod fapi_pgroups;
mod fapi_properties;
mod fapi_ptr;
mod fapi_queries;
mod fapi_scalapack;
mod fapi_strided;
mod fapi_topology;
mod fapi_typed;
pub mod ma_fortran;
