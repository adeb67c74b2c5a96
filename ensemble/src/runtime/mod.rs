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

use std::fmt;

/// Why a component's interface or envelope could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError(pub String);

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuntimeError {}
