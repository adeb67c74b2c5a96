//! Ensemble: components with open ports, composed by a process
//! communication graph script, checked, drawn and launched on the PVM layer
//! or directly on MPI.

pub mod capi;
pub mod envargs;
pub mod launch;
pub mod loader_mpi;
pub mod loader_pvm;
pub mod model;
mod ptr;
pub mod runtime;
