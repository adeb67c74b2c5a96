//! shim-pvm: PVM 3.4 on the mpbridge backend.
//!
//! - [`consts`]: every constant of `pvm3.h` with its exact value.
//! - [`errors`]: error codes, their texts, and PVM's error reporting.
//! - [`pack`]: message buffers and packing (XDR, raw, in place).
//! - [`task`], [`ops`], [`msgstate`]: an enrolled task and its operations,
//!   exit notices included (from goodbyes and from processes found gone).
//! - [`groups`]: dynamic groups, kept by the first process.
//! - [`mbox`]: the mailbox.
//! - [`state`]: the process's task and PVM's error reporting.
//! - [`capi`]: the C ABI of `pvm3.h`; [`capi_groups`]: that of `libgpvm3`.
//! - [`capi_extra`]: the rest of it (headers, recvf, handlers, tasks,
//!   machine control, mailbox entry points).
//! - [`fapi`]: the Fortran routines of `libfpvm3`.
//! - [`rust_api`]: the safe Rust API (Ensemble's loader uses it).
//! - `ptr`: the pointer conversions of the C and Fortran ABIs.

pub mod capi;
pub mod capi_extra;
pub mod capi_groups;
pub mod consts;
pub mod errors;
pub mod fapi;
pub mod groups;
pub mod mbox;
pub mod msgstate;
pub mod ops;
pub mod pack;
mod ptr;
pub mod rust_api;
pub mod state;
pub mod task;
pub mod tev;

/// A PVM error: the negative code `pvm3.h` defines (e.g. `PvmBadParam` = -2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PvmError(pub i32);

/// Result of a PVM operation.
pub type PvmResult<T> = Result<T, PvmError>;
