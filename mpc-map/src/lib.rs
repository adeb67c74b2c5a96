//! mpc-map: the parts of the mpC-style run-time that need no MPI, so they
//! can be tested alone and used by tools (`mpbridge recon`, Ensemble
//! placement) that never start MPI.
//!
//! - [`nettype`]: network types as data (coordinates, parent, relative
//!   performances, link lengths) and their six topological functions.
//! - [`vpm`]: the virtual parallel machine: hosts with relative speed,
//!   scalability and slots, links with latency and bandwidth, and its text
//!   file.
//! - [`select`]: the dispatcher's greedy selection of processes for a new
//!   network, and the time estimate of a mapping.
//! - [`deadlock`]: the watch over queued creation requests.

pub mod deadlock;
pub mod nettype;
pub mod select;
pub mod vpm;

pub use nettype::NetType;
pub use select::{estimate, machine_slots, select, select_all, Placement, Slot};
pub use vpm::{Host, Machine};
