//! The shipped library, `libmpbridge.so`. It holds no logic: it links every
//! layer once, so all C and Fortran entry points share one backend, and
//! re-exports them. The drop-in names (`libpvm3.so.3`, `libtcgmsg.so`, ...)
//! are installed as links to this one file.

pub use shim_core::capi::*;
pub use shim_pvm::capi::*;
