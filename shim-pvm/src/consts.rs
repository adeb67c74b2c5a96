//! The constants of PVM 3.4.6 (`pvm3.h`), with the values C and Fortran
//! programs see. Names drop the `Pvm` prefix and are grouped by the call
//! that takes them: `PvmBadParam` is [`err::BAD_PARAM`], `PvmTaskHost` is
//! [`spawn::TASK_HOST`], `PVM_DOUBLE` is [`dt::DOUBLE`].

/// The PVM release this layer reproduces (`PVM_VER`, returned by `pvm_version`).
pub const VERSION: &str = "3.4.6";
/// `PVM_MAJOR_VERSION`.
pub const MAJOR_VERSION: i32 = 3;
/// `PVM_MINOR_VERSION`.
pub const MINOR_VERSION: i32 = 4;
/// `PVM_PATCH_VERSION`.
pub const PATCH_VERSION: i32 = 6;

/// Error codes: a failing call returns one of these (all negative except
/// [`OK`](err::OK)) and stores it in `pvm_errno`.
///
/// The PVM 3.3 names `PvmNoEntry`/`PvmDupEntry` are not repeated here: C
/// defines them as [`NOT_FOUND`](err::NOT_FOUND) and
/// [`DENIED`](err::DENIED), Fortran as -32 and -33.
pub mod err {
    /// `PvmOk`: success.
    pub const OK: i32 = 0;
    /// `PvmBadParam`: an argument is invalid.
    pub const BAD_PARAM: i32 = -2;
    /// `PvmMismatch`.
    pub const MISMATCH: i32 = -3;
    /// `PvmOverflow`: a value does not fit.
    pub const OVERFLOW: i32 = -4;
    /// `PvmNoData`: read past the end of a message.
    pub const NO_DATA: i32 = -5;
    /// `PvmNoHost`.
    pub const NO_HOST: i32 = -6;
    /// `PvmNoFile`: executable not found.
    pub const NO_FILE: i32 = -7;
    /// `PvmDenied`.
    pub const DENIED: i32 = -8;
    /// `PvmNoMem`.
    pub const NO_MEM: i32 = -10;
    /// `PvmBadMsg`: a message cannot be decoded.
    pub const BAD_MSG: i32 = -12;
    /// `PvmSysErr`: the runtime cannot be reached.
    pub const SYS_ERR: i32 = -14;
    /// `PvmNoBuf`: no active buffer.
    pub const NO_BUF: i32 = -15;
    /// `PvmNoSuchBuf`: unknown buffer id.
    pub const NO_SUCH_BUF: i32 = -16;
    /// `PvmNullGroup`.
    pub const NULL_GROUP: i32 = -17;
    /// `PvmDupGroup`: already a member.
    pub const DUP_GROUP: i32 = -18;
    /// `PvmNoGroup`.
    pub const NO_GROUP: i32 = -19;
    /// `PvmNotInGroup`.
    pub const NOT_IN_GROUP: i32 = -20;
    /// `PvmNoInst`.
    pub const NO_INST: i32 = -21;
    /// `PvmHostFail`.
    pub const HOST_FAIL: i32 = -22;
    /// `PvmNoParent`.
    pub const NO_PARENT: i32 = -23;
    /// `PvmNotImpl`.
    pub const NOT_IMPL: i32 = -24;
    /// `PvmDSysErr`.
    pub const DSYS_ERR: i32 = -25;
    /// `PvmBadVersion`.
    pub const BAD_VERSION: i32 = -26;
    /// `PvmOutOfRes`.
    pub const OUT_OF_RES: i32 = -27;
    /// `PvmDupHost`.
    pub const DUP_HOST: i32 = -28;
    /// `PvmCantStart`.
    pub const CANT_START: i32 = -29;
    /// `PvmAlready`.
    pub const ALREADY: i32 = -30;
    /// `PvmNoTask`.
    pub const NO_TASK: i32 = -31;
    /// `PvmNotFound`.
    pub const NOT_FOUND: i32 = -32;
    /// `PvmExists`.
    pub const EXISTS: i32 = -33;
    /// `PvmHostrNMstr`.
    pub const HOSTR_NMSTR: i32 = -34;
    /// `PvmParentNotSet`.
    pub const PARENT_NOT_SET: i32 = -35;
    /// `PvmIPLoopback`.
    pub const IP_LOOPBACK: i32 = -36;
}

/// Message encodings for `pvm_initsend` / `pvm_mkbuf`.
pub mod enc {
    /// `PvmDataDefault`: portable (XDR).
    pub const DEFAULT: i32 = 0;
    /// `PvmDataRaw`: native bytes.
    pub const RAW: i32 = 1;
    /// `PvmDataInPlace`: data stays in user memory until the send.
    pub const IN_PLACE: i32 = 2;
    /// `PvmDataTrace`: trace records.
    pub const TRACE: i32 = 4;
}

/// `pvm_spawn` flags (bits, OR-ed together).
pub mod spawn {
    /// The architecture every host of the job reports (`pvm_config`), the
    /// only one `PvmTaskArch` accepts.
    pub const ARCH: &str = "LINUX64";
    /// `PvmTaskDefault`: any host.
    pub const TASK_DEFAULT: i32 = 0;
    /// `PvmTaskHost`: `where` names a host.
    pub const TASK_HOST: i32 = 1;
    /// `PvmTaskArch`: `where` names an architecture.
    pub const TASK_ARCH: i32 = 2;
    /// `PvmTaskDebug`: start under a debugger.
    pub const TASK_DEBUG: i32 = 4;
    /// `PvmTaskTrace`: the task writes trace events.
    pub const TASK_TRACE: i32 = 8;
    /// `PvmMppFront`: start on an MPP's front end.
    pub const MPP_FRONT: i32 = 16;
    /// `PvmHostCompl`: any host except `where`.
    pub const HOST_COMPL: i32 = 32;
    /// `PvmNoSpawnParent`: the children get no parent.
    pub const NO_SPAWN_PARENT: i32 = 64;
}

/// `pvm_notify` events, and the flag that cancels a request.
pub mod notify {
    /// `PvmTaskExit`.
    pub const TASK_EXIT: i32 = 1;
    /// `PvmHostDelete`.
    pub const HOST_DELETE: i32 = 2;
    /// `PvmHostAdd`.
    pub const HOST_ADD: i32 = 3;
    /// `PvmRouteAdd`.
    pub const ROUTE_ADD: i32 = 4;
    /// `PvmRouteDelete`.
    pub const ROUTE_DELETE: i32 = 5;
    /// `PvmNotifyCancel`: OR-ed with an event to withdraw a request.
    pub const CANCEL: i32 = 256;
}

/// `pvm_setopt` / `pvm_getopt` options, and the values some of them take.
pub mod opt {
    /// `PvmRoute` (values [`DONT_ROUTE`], [`ALLOW_DIRECT`], [`ROUTE_DIRECT`]).
    pub const ROUTE: i32 = 1;
    /// `PvmDebugMask`.
    pub const DEBUG_MASK: i32 = 2;
    /// `PvmAutoErr`: 0 quiet, 1 print (default), 2 print and exit, 3 print and abort.
    pub const AUTO_ERR: i32 = 3;
    /// `PvmOutputTid`.
    pub const OUTPUT_TID: i32 = 4;
    /// `PvmOutputCode`.
    pub const OUTPUT_CODE: i32 = 5;
    /// `PvmTraceTid`.
    pub const TRACE_TID: i32 = 6;
    /// `PvmTraceCode`.
    pub const TRACE_CODE: i32 = 7;
    /// `PvmTraceBuffer`.
    pub const TRACE_BUFFER: i32 = 8;
    /// `PvmTraceOptions` (values [`TRACE_FULL`], [`TRACE_TIME`], [`TRACE_COUNT`]).
    pub const TRACE_OPTIONS: i32 = 9;
    /// `PvmFragSize`.
    pub const FRAG_SIZE: i32 = 10;
    /// `PvmResvTids`: allow reserved tags and tids.
    pub const RESV_TIDS: i32 = 11;
    /// `PvmSelfOutputTid`.
    pub const SELF_OUTPUT_TID: i32 = 12;
    /// `PvmSelfOutputCode`.
    pub const SELF_OUTPUT_CODE: i32 = 13;
    /// `PvmSelfTraceTid`.
    pub const SELF_TRACE_TID: i32 = 14;
    /// `PvmSelfTraceCode`.
    pub const SELF_TRACE_CODE: i32 = 15;
    /// `PvmSelfTraceBuffer`.
    pub const SELF_TRACE_BUFFER: i32 = 16;
    /// `PvmSelfTraceOptions`.
    pub const SELF_TRACE_OPTIONS: i32 = 17;
    /// `PvmShowTids`.
    pub const SHOW_TIDS: i32 = 18;
    /// `PvmPollType` (values [`POLL_CONSTANT`], [`POLL_SLEEP`]).
    pub const POLL_TYPE: i32 = 19;
    /// `PvmPollTime`.
    pub const POLL_TIME: i32 = 20;
    /// `PvmOutputContext`.
    pub const OUTPUT_CONTEXT: i32 = 21;
    /// `PvmTraceContext`.
    pub const TRACE_CONTEXT: i32 = 22;
    /// `PvmSelfOutputContext`.
    pub const SELF_OUTPUT_CONTEXT: i32 = 23;
    /// `PvmSelfTraceContext`.
    pub const SELF_TRACE_CONTEXT: i32 = 24;
    /// `PvmNoReset`.
    pub const NO_RESET: i32 = 25;

    /// `PvmDontRoute` (value of [`ROUTE`]).
    pub const DONT_ROUTE: i32 = 1;
    /// `PvmAllowDirect` (value of [`ROUTE`]).
    pub const ALLOW_DIRECT: i32 = 2;
    /// `PvmRouteDirect` (value of [`ROUTE`]).
    pub const ROUTE_DIRECT: i32 = 3;

    /// `PvmTraceFull` (value of [`TRACE_OPTIONS`]).
    pub const TRACE_FULL: i32 = 1;
    /// `PvmTraceTime` (value of [`TRACE_OPTIONS`]).
    pub const TRACE_TIME: i32 = 2;
    /// `PvmTraceCount` (value of [`TRACE_OPTIONS`]).
    pub const TRACE_COUNT: i32 = 3;

    /// `PvmPollConstant` (value of [`POLL_TYPE`]).
    pub const POLL_CONSTANT: i32 = 1;
    /// `PvmPollSleep` (value of [`POLL_TYPE`]).
    pub const POLL_SLEEP: i32 = 2;
}

/// `pvm_gettmask` / `pvm_settmask` targets.
pub mod tmask {
    /// `PvmTaskSelf`: the calling task.
    pub const SELF: i32 = 0;
    /// `PvmTaskChild`: its future children.
    pub const CHILD: i32 = 1;
}

/// Data types of `pvm_psend`, `pvm_precv`, `pvm_reduce`, `pvm_scatter`,
/// `pvm_gather` (Fortran: STRING, BYTE1, INTEGER2, INTEGER4, REAL4,
/// COMPLEX8, REAL8, COMPLEX16, INTEGER8 = 0..8).
pub mod dt {
    /// `PVM_STR`.
    pub const STR: i32 = 0;
    /// `PVM_BYTE`.
    pub const BYTE: i32 = 1;
    /// `PVM_SHORT`.
    pub const SHORT: i32 = 2;
    /// `PVM_INT`.
    pub const INT: i32 = 3;
    /// `PVM_FLOAT`.
    pub const FLOAT: i32 = 4;
    /// `PVM_CPLX`: a pair of `float`.
    pub const CPLX: i32 = 5;
    /// `PVM_DOUBLE`.
    pub const DOUBLE: i32 = 6;
    /// `PVM_DCPLX`: a pair of `double`.
    pub const DCPLX: i32 = 7;
    /// `PVM_LONG`.
    pub const LONG: i32 = 8;
    /// `PVM_USHORT`.
    pub const USHORT: i32 = 9;
    /// `PVM_UINT`.
    pub const UINT: i32 = 10;
    /// `PVM_ULONG`.
    pub const ULONG: i32 = 11;
}

/// Mailbox flags of `pvm_putinfo` / `pvm_recvinfo` / `pvm_delinfo`.
pub mod mbox {
    /// `PvmMboxDefault`.
    pub const DEFAULT: i32 = 0;
    /// `PvmMboxPersistent`: the entry outlives its owner.
    pub const PERSISTENT: i32 = 1;
    /// `PvmMboxMultiInstance`: a name may hold several entries.
    pub const MULTI_INSTANCE: i32 = 2;
    /// `PvmMboxOverWritable`.
    pub const OVER_WRITABLE: i32 = 4;
    /// `PvmMboxFirstAvail`: first free index at or above the one given.
    pub const FIRST_AVAIL: i32 = 8;
    /// `PvmMboxReadAndDelete`.
    pub const READ_AND_DELETE: i32 = 16;
    /// `PvmMboxWaitForInfo`: `pvm_recvinfo` waits until the entry exists.
    pub const WAIT_FOR_INFO: i32 = 32;
    /// `PvmMboxMaxFlag`: flag bits above this carry an entry index.
    pub const MAX_FLAG: i32 = 512;
    /// `PvmMboxDirectIndexShift`: where an index sits in the flags.
    pub const DIRECT_INDEX_SHIFT: i32 = 10;
    /// `PvmMboxMaxDirectIndex`: indices in the flags must be below this.
    pub const MAX_DIRECT_INDEX: i32 = 1 << (31 - DIRECT_INDEX_SHIFT);
}

/// Message contexts.
pub mod ctx {
    /// `PvmBaseContext`: the context every task starts in.
    pub const BASE: i32 = 0;
    /// First system context: task control (TC) messages.
    pub const SYSCTX_TC: i32 = 0x7ffff;
    /// System context of task-to-daemon (TM) messages.
    pub const SYSCTX_TM: i32 = 0x7fffe;
    /// System context of static group formation.
    pub const SYSCTX_SG: i32 = 0x7fffd;
    /// System context of dynamic groups (join, barrier, bcast, reduce, ...).
    pub const SYSCTX_DG: i32 = 0x7fffc;
    /// Lowest reserved system context (`SYSCTX_RS9`): user contexts stay below it.
    pub const SYSCTX_LAST: i32 = 0x7fff6;
}

/// Task id layout: `S G HHHHHHHHHHHH LLLLLLLLLLLLLLLLLL` (bit 31 down to 0).
/// The first task on the first host is `0x40001`, printed `t40001`.
pub mod tid {
    /// Bit 31: the id of a daemon (negative as an `i32`), 0x8000_0000.
    pub const PVMD: i32 = 0x8000_0000_u32 as i32;
    /// Bit 30: a multicast address.
    pub const GID: i32 = 0x4000_0000;
    /// Bits 29..18: the host, numbered from 1 (`pvm_tidtohost` keeps these).
    pub const HOST: i32 = 0x3ffc_0000;
    /// Bits 17..0: the task on its host.
    pub const LOCAL: i32 = 0x3ffff;

    /// True when `tid` names a task: neither daemon nor multicast bit set,
    /// and a non-zero local part. Sends accept only such ids.
    pub fn is_task(tid: i32) -> bool {
        tid & (PVMD | GID) == 0 && tid & LOCAL != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tid_layout() {
        assert_eq!(tid::PVMD, i32::MIN);
        assert_eq!(tid::PVMD as u32, 0x8000_0000);
        // the four fields cover the word without overlapping
        assert_eq!(tid::PVMD & tid::GID, 0);
        assert_eq!(tid::GID & tid::HOST, 0);
        assert_eq!(tid::HOST & tid::LOCAL, 0);
        assert_eq!(tid::PVMD | tid::GID | tid::HOST | tid::LOCAL, -1);
    }

    #[test]
    fn is_task() {
        assert!(tid::is_task(0x40001));
        assert!(tid::is_task(0x80005));
        assert!(tid::is_task(tid::LOCAL));
        assert!(!tid::is_task(0));
        assert!(!tid::is_task(-1));
        assert!(!tid::is_task(0x40000)); // a host id
        assert!(!tid::is_task(tid::PVMD | 0x40000)); // a daemon
        assert!(!tid::is_task(tid::PVMD | 0x40001));
        assert!(!tid::is_task(tid::GID | 1)); // multicast
    }

    #[test]
    fn values_match_the_c_header() {
        assert_eq!(err::BAD_PARAM, -2);
        assert_eq!(err::IP_LOOPBACK, -36);
        assert_eq!(enc::TRACE, 4);
        assert_eq!(spawn::NO_SPAWN_PARENT, 64);
        assert_eq!(notify::CANCEL, 256);
        assert_eq!(opt::NO_RESET, 25);
        assert_eq!(dt::ULONG, 11);
        assert_eq!(mbox::MAX_DIRECT_INDEX, 2_097_152);
        assert_eq!(1 << (mbox::DIRECT_INDEX_SHIFT - 1), mbox::MAX_FLAG);
        assert_eq!(ctx::SYSCTX_DG, 0x7fffc);
        assert_eq!(
            VERSION,
            format!("{MAJOR_VERSION}.{MINOR_VERSION}.{PATCH_VERSION}")
        );
    }
}
