//! shim-pvm: PVM 3.4 on the mpbridge backend.
//!
//! Two tiers. The domain modules know PVM's semantics and nothing of C or
//! Fortran calling conventions; the ABI files on top turn C and Fortran
//! arguments into domain calls. A domain module never names an ABI module
//! (`tests/layering.rs` checks it).
//!
//! Domain:
//! - [`consts`]: every constant of `pvm3.h` with its exact value.
//! - [`errors`]: error codes, their texts, PVM's error lines, and the C
//!   global `pvm_errno`.
//! - [`pack`]: message buffers and packing (XDR, raw, in place).
//! - [`task`], [`ops`], [`msgstate`]: an enrolled task and its operations,
//!   exit notices included (from goodbyes and from processes found gone).
//! - `messages`: message headers (`pvmminfo`) and whole messages as bytes.
//! - `handlers`: the receive calls' custom matcher and message handlers.
//! - `signals`: signals that other tasks sent.
//! - [`groups`]: dynamic groups, kept by the first process.
//! - [`mbox`]: the mailbox.
//! - [`hosts`]: the virtual machine's hosts (config, placement, host
//!   deletion and its notices).
//! - [`state`]: the process's task and PVM's error reporting.
//! - [`rust_api`]: the safe Rust API (Ensemble's loader uses it).
//! - `ptr`: the pointer conversions of the C and Fortran ABIs and the few
//!   libc calls; the crate's only `unsafe` outside the exported functions.
//!
//! C ABI (`pvm3.h`, `libgpvm3`), one file an area, all run through
//! `capi_entry` (panic boundary, error reporting, handler dispatch):
//! - [`capi`]: tasks, buffers, packing, sending and receiving, options.
//! - [`capi_messages`]: message headers and messages inside messages.
//! - [`capi_handlers`]: `pvm_recvf` and message handlers.
//! - [`capi_machine`]: task and host queries, machine control, trace masks.
//! - [`capi_signals`]: signals between tasks (`pvm_sendsig`).
//! - [`capi_env`]: `pvm_export` and libpvm's environment helpers.
//! - [`capi_mbox`]: the mailbox.
//! - [`capi_packf`]: the per-item entry of the C glue of `pvm_packf`.
//! - [`capi_groups`]: dynamic groups (`libgpvm3`).
//!
//! Fortran ABI: [`fapi`], the routines of `libfpvm3` over the C entry points.

pub(crate) mod buftable;
pub mod capi;
pub(crate) mod capi_entry;
pub mod capi_env;
pub mod capi_groups;
pub mod capi_handlers;
pub mod capi_machine;
pub mod capi_mbox;
pub mod capi_messages;
pub mod capi_packf;
pub mod capi_signals;
pub mod consts;
pub(crate) mod errors;
pub mod fapi;
pub(crate) mod groups;
pub(crate) mod handlers;
pub(crate) mod hosts;
pub(crate) mod mbox;
pub(crate) mod messages;
pub(crate) mod msgstate;
pub(crate) mod ops;
pub(crate) mod pack;
pub(crate) mod ptr;
pub mod rust_api;
pub(crate) mod signals;
pub(crate) mod state;
pub(crate) mod task;
pub(crate) mod tev;

/// A PVM error: the negative code `pvm3.h` defines (e.g. `PvmBadParam` = -2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PvmError(pub i32);

/// Result of a PVM operation.
pub type PvmResult<T> = Result<T, PvmError>;
