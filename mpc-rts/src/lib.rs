//! mpc-rts: the mpC-style run-time support system on the shared core, with
//! HeteroMPI-style groups on top. The mapping itself (network types, the
//! virtual machine, the selection scheme, the deadlock check) is the
//! MPI-free crate `mpc-map`.
//!
//! - [`runtime`]: start and stop; the host (world rank 0), the dispatcher
//!   (the last rank) and the computing processes; requests to the
//!   dispatcher.
//! - [`dispatcher`]: the dispatcher's service loop.
//! - [`wire`]: the messages between processes and the dispatcher.
//! - [`net`]: networks, subnetworks and region descriptors.
//! - [`patience`]: waiting processes sleep instead of spinning in MPI.
//! - [`hmpi`]: benchmark-driven speeds, time estimates, automatic group size.
//! - [`capi`] and [`capi_hmpi`]: the C API of `mpc.h`; [`handles`] holds
//!   its network handles.

pub mod capi;
pub mod capi_hmpi;
mod dispatcher;
pub mod error;
pub mod handles;
pub mod hmpi;
pub mod net;
pub mod patience;
mod ptr;
pub mod runtime;
pub mod wire;

pub use error::{MpcError, MpcResult};
pub use mpc_map::NetType;
pub use net::{Net, Offered};
