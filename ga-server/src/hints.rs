//! The calls by which a GA program tells GA how to keep its arrays, which
//! this implementation needs no word about, in C (`ga.h`) and Fortran
//! (`ga_*_`/`nga_*_`) from one definition each:
//! - `GA_Set_irreg_flag(g_a, flag)`: GA notes whether an array's
//!   distribution is irregular; here the distribution itself says so, and
//!   the flag is accepted and changes nothing.
//! - `GA_Set_memory_dev(g_a, device)`: GA 5.8 leaves the meaning of the
//!   device name to the implementation. Here every array lives in the
//!   `ga-server`'s shared-memory segment of its owner's node, whatever the
//!   name; the call is accepted and changes nothing.
//! - `NGA_Alloc_gatscat_buf(nelems)`, `NGA_Free_gatscat_buf()`: GA
//!   preallocates buffers for gather and scatter; these need none here,
//!   so both return at once.
//! - `GA_List_nodeid(list, nprocs)`: `list[i]` = i, the process ids GA
//!   numbers its compute processes by (as GA without a process list).
//!
//! None of them returns a value or fails, except on a NULL `list` with
//! `nprocs` > 0, which ends the job through `GA_Error` naming the call.

use crate::core;
use crate::fapi_ptr;
use crate::ma_fortran::{FInt, FLog};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int};

/// `list[i]` = i for each of its `n` elements; a NULL list (with n > 0)
/// ends the job.
fn number<T: From<i32>>(call: &'static str, list: Option<&mut [T]>, n: usize) {
    match list {
        Some(l) => l
            .iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = T::from(i as i32)),
        None => core::abort(&format!("{call}: list is NULL with nprocs = {n}"), 0),
    }
}

/// Defines each call that changes nothing, with the arguments given
/// (ignored).
macro_rules! accepted {
    ($($name:ident($($a:ident: $t:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: returns at once; see the module documentation.")]
        #[no_mangle]
        pub extern "C" fn $name($($a: $t),*) {
            $(let _ = $a;)*
        }
    )*};
}

accepted! {
    GA_Set_irreg_flag(g_a: c_int, flag: c_int);
    NGA_Set_irreg_flag(g_a: c_int, flag: c_int);
    ga_set_irreg_flag_(g_a: *const FInt, flag: *const FLog);
    nga_set_irreg_flag_(g_a: *const FInt, flag: *const FLog);
    GA_Set_memory_dev(g_a: c_int, device: *mut c_char);
    NGA_Set_memory_dev(g_a: c_int, device: *mut c_char);
    ga_set_memory_dev_(g_a: *const FInt, device: *const c_char, len: usize);
    nga_set_memory_dev_(g_a: *const FInt, device: *const c_char, len: usize);
    NGA_Alloc_gatscat_buf(nelems: c_int);
    NGA_Free_gatscat_buf();
    nga_alloc_gatscat_buf_(nelems: *const FInt);
    nga_free_gatscat_buf_();
}

/// `GA_List_nodeid(list, nprocs)`: `list[i]` = i for i < `nprocs`.
#[no_mangle]
pub extern "C" fn GA_List_nodeid(list: *mut c_int, nprocs: c_int) {
    const CALL: &str = "GA_List_nodeid";
    guard(CALL, (), || {
        let n = usize::try_from(nprocs).unwrap_or(0);
        number(CALL, crate::capi_ptr::typed_mut(list, n), n)
    })
}

/// As `GA_List_nodeid`.
#[no_mangle]
pub extern "C" fn NGA_List_nodeid(list: *mut c_int, nprocs: c_int) {
    GA_List_nodeid(list, nprocs)
}

/// Fortran `ga_list_nodeid(list, nprocs)`: `list(i+1)` = i.
#[no_mangle]
pub extern "C" fn ga_list_nodeid_(list: *mut FInt, nprocs: *const FInt) {
    const CALL: &str = "ga_list_nodeid";
    guard(CALL, (), || {
        let n = usize::try_from(fapi_ptr::read(nprocs).unwrap_or(0)).unwrap_or(0);
        number(CALL, fapi_ptr::slice_mut(list, n), n)
    })
}

/// As `ga_list_nodeid`.
#[no_mangle]
pub extern "C" fn nga_list_nodeid_(list: *mut FInt, nprocs: *const FInt) {
    ga_list_nodeid_(list, nprocs)
}
