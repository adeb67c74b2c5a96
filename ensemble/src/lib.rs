//! The Ensemble runtime: what runs a composition that the language crate
//! (`ensemble_lang`) has read, checked and planned.
//!
//! - [`loader_pvm`]: the PVM loader (the `mpbridge-ens-loader` program), a
//!   PVM task that spawns the components and sends them their interfaces.
//! - [`runtime`]: what a component calls to learn its ports, on PVM
//!   ([`runtime::pvm`]) or on MPI ([`runtime::mpi`]).
//! - [`capi`]: the C ABI of `ensemble.h` over those runtimes.
//!
//! MPI is reached only through shim-core and PVM only through the PVM
//! layer's Rust API (`shim_pvm::rust_api`).

pub mod capi;
pub mod loader_pvm;
mod ptr;
pub mod runtime;
