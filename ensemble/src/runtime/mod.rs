//! Component runtimes: what a component calls to learn its ports.
//!
//! - [`pvm`]: the interface a PVM component receives from the loader
//!   (`Interface[type].port[p]`, `MakePorts`, `SetInterface`).
//! - [`mpi`]: the virtual envelope of an MPI component (contexts, roots,
//!   multiports, topology arguments; `SetEnvArgs`).
//!
//! The C functions of `ensemble.h` are thin wrappers over these
//! (see [`crate::capi`]).

pub mod mpi;
pub mod pvm;
