//! The shipped library, `libmpbridge.so`. It holds no logic: it links every
//! layer once, so all C and Fortran entry points share one backend, and
//! re-exports them. The drop-in names (`libpvm3.so.3`, `libtcgmsg.so`, ...)
//! are installed as links to this one file.

pub use ensemble::capi::*;
pub use ga_server::capi::*;
pub use ga_server::capi_ops::*;
pub use ga_server::ma::*;
pub use hpf_rts::capi::*;
pub use hpf_rts::fapi::*;
pub use mpc_rts::capi::*;
pub use mpc_rts::capi_hmpi::*;
pub use shim_core::capi::*;
pub use shim_express::capi::*;
pub use shim_express::fapi::*;
pub use shim_pvm::capi::*;
pub use shim_pvm::capi_env::*;
pub use shim_pvm::capi_groups::*;
pub use shim_pvm::capi_handlers::*;
pub use shim_pvm::capi_machine::*;
pub use shim_pvm::capi_mbox::*;
pub use shim_pvm::capi_messages::*;
pub use shim_pvm::capi_packf::*;
pub use shim_pvm::capi_signals::*;
pub use shim_pvm::fapi::*;
pub use shim_tcgmsg::capi::*;
pub use shim_tcgmsg::fapi::*;

// NXTVAL of TCGMSG on the ga-server counter: tcg_nxtval, NXTVAL_, nxtval_.
pub use ga_server::nxtval::*;

// Global Arrays for Fortran: ga_*/nga_* and MA (with its base arrays).
pub use ga_server::fapi::*;
pub use ga_server::fapi_ops::*;
pub use ga_server::ma_fortran::*;

/// The C glue of `csrc/` (`pvm_packf` and friends). A shared library only
/// takes the members of a static archive that something references, so the
/// glue's entry points are referenced here.
mod cglue {
    use std::ffi::{c_char, c_int, c_void};

    extern "C" {
        fn pvm_packf(fmt: *const c_char, ...) -> c_int;
        fn pvm_unpackf(fmt: *const c_char, ...) -> c_int;
        fn pvm_vpackf(fmt: *const c_char, ap: *mut c_void) -> c_int;
        fn pvm_vunpackf(fmt: *const c_char, ap: *mut c_void) -> c_int;
    }

    #[used]
    static VARIADIC: [unsafe extern "C" fn(*const c_char, ...) -> c_int; 2] =
        [pvm_packf, pvm_unpackf];
    #[used]
    static WITH_LIST: [unsafe extern "C" fn(*const c_char, *mut c_void) -> c_int; 2] =
        [pvm_vpackf, pvm_vunpackf];
}
