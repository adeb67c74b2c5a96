//! The `nga_` names that GA 5.8's Fortran library gives routines which
//! behave exactly as their `ga_` names do (same arguments, same result):
//! each forwards to the `ga_` routine, which documents it. Also
//! `ga_matmul_mirrored`, GA's `ga_matmul_patch` for mirrored arrays:
//! `ga_matmul_patch` already multiplies mirrored matrices copy by copy
//! (each node's copy of C from its node's copies of A and B).

use crate::fapi::*;
use crate::fapi_ops::*;
use crate::fapi_pgroups::*;
use crate::forward::same_as;
use crate::ma_fortran::{FInt, FLog};
use std::ffi::{c_char, c_void};

same_as! {
    nga_add_ => ga_add_(alpha: *const c_void, g_a: *const FInt, beta: *const c_void, g_b: *const FInt, g_c: *const FInt);
    nga_brdcst_ => ga_brdcst_(_msgtype: *const FInt, buf: *mut c_void, lenbuf: *const FInt, originator: *const FInt);
    nga_compare_distr_ => ga_compare_distr_(g_a: *const FInt, g_b: *const FInt) -> FLog;
    nga_copy_ => ga_copy_(g_a: *const FInt, g_b: *const FInt);
    nga_create_mutexes_ => ga_create_mutexes_(number: *const FInt) -> FLog;
    nga_ddot_ => ga_ddot_(g_a: *const FInt, g_b: *const FInt) -> f64;
    nga_destroy_mutexes_ => ga_destroy_mutexes_() -> FLog;
    nga_dgop_ => ga_dgop_(_msgtype: *const FInt, x: *mut f64, n: *const FInt, op: *const c_char, oplen: usize);
    nga_error_ => ga_error_(msg: *const c_char, code: *const FInt, msglen: usize);
    nga_fence_ => ga_fence_();
    nga_fill_ => ga_fill_(g_a: *const FInt, val: *const c_void);
    nga_get_pgroup_ => ga_get_pgroup_(g_a: *const FInt) -> FInt;
    nga_get_pgroup_size_ => ga_get_pgroup_size_(g: *const FInt) -> FInt;
    nga_igop_ => ga_igop_(_msgtype: *const FInt, x: *mut FInt, n: *const FInt, op: *const c_char, oplen: usize);
    nga_init_fence_ => ga_init_fence_();
    nga_initialize_ => ga_initialize_();
    nga_initialize_ltd_ => ga_initialize_ltd_(limit: *const FInt);
    nga_initialized_ => ga_initialized_() -> FLog;
    nga_inquire_name_ => ga_inquire_name_(g_a: *const FInt, name: *mut c_char, namelen: usize);
    nga_lock_ => ga_lock_(mutex: *const FInt);
    nga_pgroup_dgop_ => ga_pgroup_dgop_(g: *const FInt, _msgtype: *const FInt, x: *mut f64, n: *const FInt, op: *const c_char, oplen: usize);
    nga_pgroup_igop_ => ga_pgroup_igop_(g: *const FInt, _msgtype: *const FInt, x: *mut FInt, n: *const FInt, op: *const c_char, oplen: usize);
    nga_pgroup_sgop_ => ga_pgroup_sgop_(g: *const FInt, _msgtype: *const FInt, x: *mut f32, n: *const FInt, op: *const c_char, oplen: usize);
    nga_print_ => ga_print_(g_a: *const FInt);
    nga_print_distribution_ => ga_print_distribution_(g_a: *const FInt);
    nga_scale_ => ga_scale_(g_a: *const FInt, val: *const c_void);
    nga_sgop_ => ga_sgop_(_msgtype: *const FInt, x: *mut f32, n: *const FInt, op: *const c_char, oplen: usize);
    nga_set_restricted_ => ga_set_restricted_(g_a: *const FInt, list: *const FInt, nproc: *const FInt);
    nga_set_restricted_range_ => ga_set_restricted_range_(g_a: *const FInt, lo_proc: *const FInt, hi_proc: *const FInt);
    nga_summarize_ => ga_summarize_(verbose: *const FLog);
    nga_symmetrize_ => ga_symmetrize_(g_a: *const FInt);
    nga_sync_ => ga_sync_();
    nga_terminate_ => ga_terminate_();
    nga_transpose_ => ga_transpose_(g_a: *const FInt, g_b: *const FInt);
    nga_unlock_ => ga_unlock_(mutex: *const FInt);
    nga_uses_ma_ => ga_uses_ma_() -> FLog;
    nga_valid_handle_ => ga_valid_handle_(g_a: *const FInt) -> FLog;
    nga_wtime_ => ga_wtime_() -> f64;
    nga_zero_ => ga_zero_(g_a: *const FInt);
    ga_matmul_mirrored_ => ga_matmul_patch_(transa: *const c_char, transb: *const c_char, alpha: *const c_void, beta: *const c_void, g_a: *const FInt, ailo: *const FInt, aihi: *const FInt, ajlo: *const FInt, ajhi: *const FInt, g_b: *const FInt, bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt, bjhi: *const FInt, g_c: *const FInt, cilo: *const FInt, cihi: *const FInt, cjlo: *const FInt, cjhi: *const FInt, lta: usize, ltb: usize);
}
