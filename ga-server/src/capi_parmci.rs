//! ARMCI's profiling interface: every call of Debian's `armci.h` also has
//! a `PARMCI_` name that does what the `ARMCI_` call does. A profiling
//! tool defines its own `ARMCI_Put` (and so on) in the program, counts or
//! times the call and passes it on to `PARMCI_Put`; a program that calls
//! `PARMCI_` names directly gets the operation itself. Return codes and
//! errors are the `ARMCI_` call's (documented there).

use crate::capi_armci::*;
use crate::capi_armci_groups::{ARMCI_Malloc_group_memdev, ArmciGroup};
use crate::capi_armci_msg::ARMCI_Init_thread_comm;
use crate::forward::same_as;
use shim_core::mpi::RawComm;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_void};

/// A pointer to strides or counts.
type Ints = *const c_int;
/// A pointer to ARMCI memory, a local buffer or a scale factor.
type Mem = *mut c_void;

same_as! {
    PARMCI_Init => ARMCI_Init() -> c_int;
    PARMCI_Init_args => ARMCI_Init_args(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int;
    PARMCI_Init_thread => ARMCI_Init_thread(requested: c_int) -> c_int;
    PARMCI_Init_thread_comm => ARMCI_Init_thread_comm(requested: c_int, comm: RawComm) -> c_int;
    PARMCI_Initialized => ARMCI_Initialized() -> c_int;
    PARMCI_Finalize => ARMCI_Finalize() -> c_int;
    PARMCI_Malloc => ARMCI_Malloc(ptrs: *mut Mem, size: c_long) -> c_int;
    PARMCI_Free => ARMCI_Free(p: Mem) -> c_int;
    PARMCI_Malloc_local => ARMCI_Malloc_local(size: c_long) -> Mem;
    PARMCI_Free_local => ARMCI_Free_local(p: Mem) -> c_int;
    PARMCI_Malloc_memdev => ARMCI_Malloc_memdev(ptrs: *mut Mem, size: c_long, device: *const c_char) -> c_int;
    PARMCI_Malloc_group_memdev => ARMCI_Malloc_group_memdev(ptrs: *mut Mem, size: c_long, group: *mut ArmciGroup, device: *const c_char) -> c_int;
    PARMCI_Free_memdev => ARMCI_Free_memdev(p: Mem) -> c_int;
    PARMCI_Barrier => ARMCI_Barrier();
    PARMCI_Fence => ARMCI_Fence(proc_: c_int);
    PARMCI_AllFence => ARMCI_AllFence();
    PARMCI_Access_begin => ARMCI_Access_begin(p: Mem);
    PARMCI_Access_end => ARMCI_Access_end(p: Mem);
    PARMCI_Put => ARMCI_Put(src: Mem, dst: Mem, bytes: c_int, proc_: c_int) -> c_int;
    PARMCI_Get => ARMCI_Get(src: Mem, dst: Mem, bytes: c_int, proc_: c_int) -> c_int;
    PARMCI_Acc => ARMCI_Acc(datatype: c_int, scale: Mem, src: Mem, dst: Mem, bytes: c_int, proc_: c_int) -> c_int;
    PARMCI_PutS => ARMCI_PutS(src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int) -> c_int;
    PARMCI_GetS => ARMCI_GetS(src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int) -> c_int;
    PARMCI_AccS => ARMCI_AccS(datatype: c_int, scale: Mem, src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int) -> c_int;
    PARMCI_Put_flag => ARMCI_Put_flag(src: Mem, dst: Mem, bytes: c_int, flag: *mut c_int, value: c_int, proc_: c_int) -> c_int;
    PARMCI_PutS_flag => ARMCI_PutS_flag(src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, flag: *mut c_int, value: c_int, proc_: c_int) -> c_int;
    PARMCI_PutV => ARMCI_PutV(iov: *mut ArmciGiov, len: c_int, proc_: c_int) -> c_int;
    PARMCI_GetV => ARMCI_GetV(iov: *mut ArmciGiov, len: c_int, proc_: c_int) -> c_int;
    PARMCI_AccV => ARMCI_AccV(datatype: c_int, scale: Mem, iov: *mut ArmciGiov, len: c_int, proc_: c_int) -> c_int;
    PARMCI_Wait => ARMCI_Wait(hdl: *mut ArmciHdl) -> c_int;
    PARMCI_Test => ARMCI_Test(hdl: *mut ArmciHdl) -> c_int;
    PARMCI_WaitProc => ARMCI_WaitProc(proc_: c_int) -> c_int;
    PARMCI_WaitAll => ARMCI_WaitAll() -> c_int;
    PARMCI_NbPut => ARMCI_NbPut(src: Mem, dst: Mem, bytes: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbGet => ARMCI_NbGet(src: Mem, dst: Mem, bytes: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbAcc => ARMCI_NbAcc(datatype: c_int, scale: Mem, src: Mem, dst: Mem, bytes: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbPutS => ARMCI_NbPutS(src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbGetS => ARMCI_NbGetS(src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbAccS => ARMCI_NbAccS(datatype: c_int, scale: Mem, src: Mem, src_stride: Ints, dst: Mem, dst_stride: Ints, count: Ints, levels: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbPutV => ARMCI_NbPutV(iov: *mut ArmciGiov, len: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbGetV => ARMCI_NbGetV(iov: *mut ArmciGiov, len: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbAccV => ARMCI_NbAccV(datatype: c_int, scale: Mem, iov: *mut ArmciGiov, len: c_int, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_PutValueInt => ARMCI_PutValueInt(src: c_int, dst: Mem, proc_: c_int) -> c_int;
    PARMCI_PutValueLong => ARMCI_PutValueLong(src: c_long, dst: Mem, proc_: c_int) -> c_int;
    PARMCI_PutValueFloat => ARMCI_PutValueFloat(src: c_float, dst: Mem, proc_: c_int) -> c_int;
    PARMCI_PutValueDouble => ARMCI_PutValueDouble(src: c_double, dst: Mem, proc_: c_int) -> c_int;
    PARMCI_NbPutValueInt => ARMCI_NbPutValueInt(src: c_int, dst: Mem, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbPutValueLong => ARMCI_NbPutValueLong(src: c_long, dst: Mem, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbPutValueFloat => ARMCI_NbPutValueFloat(src: c_float, dst: Mem, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_NbPutValueDouble => ARMCI_NbPutValueDouble(src: c_double, dst: Mem, proc_: c_int, hdl: *mut ArmciHdl) -> c_int;
    PARMCI_GetValueInt => ARMCI_GetValueInt(src: Mem, proc_: c_int) -> c_int;
    PARMCI_GetValueLong => ARMCI_GetValueLong(src: Mem, proc_: c_int) -> c_long;
    PARMCI_GetValueFloat => ARMCI_GetValueFloat(src: Mem, proc_: c_int) -> c_float;
    PARMCI_GetValueDouble => ARMCI_GetValueDouble(src: Mem, proc_: c_int) -> c_double;
    PARMCI_Create_mutexes => ARMCI_Create_mutexes(count: c_int) -> c_int;
    PARMCI_Destroy_mutexes => ARMCI_Destroy_mutexes() -> c_int;
    PARMCI_Lock => ARMCI_Lock(mutex: c_int, proc_: c_int);
    PARMCI_Unlock => ARMCI_Unlock(mutex: c_int, proc_: c_int);
    PARMCI_Rmw => ARMCI_Rmw(op: c_int, ploc: Mem, prem: Mem, value: c_int, proc_: c_int) -> c_int;
}
