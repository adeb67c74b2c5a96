//! Ensemble: components with open ports, composed by a process
//! communication graph script, checked, drawn and launched on the PVM layer
//! or directly on MPI.

pub mod model;
