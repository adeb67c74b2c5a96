//! The PVM 3.4 Fortran ABI (`libfpvm3`), as gfortran calls it.
//!
//! # Conventions
//! - Symbol: the lower-case routine name plus `_` (`pvmfmytid_`). Every
//!   argument is passed by reference (`INTEGER` = `*mut c_int`).
//! - Each `CHARACTER` argument adds a hidden length, a `usize` (gfortran >=
//!   8 passes `size_t`) by value after all other arguments, in order.
//! - Every routine is a subroutine: its result goes to its last `INTEGER`
//!   argument (`info`, `bufid`, `tid`, ...): a value >= 0 on success, or a
//!   negative PVM code (`PvmBadParam` -2, `PvmNoBuf` -15, ...).
//! - Input strings lose their trailing blanks (and stop at a NUL). A name
//!   longer than libfpvm3 allows (task, host: 256 characters; group: 31)
//!   gives `PvmBadParam`. A `where` starting with `*` means any host.
//!   Output strings are blank-padded (or cut) to their Fortran length.
//! - Data type codes (`pvmfpack`, `pvmfunpack`, `pvmfpsend`, `pvmfprecv`,
//!   `pvmfreduce`, `pvmfscatter`, `pvmfgather`): STRING 0, BYTE1 1,
//!   INTEGER2 2, INTEGER4 3, REAL4 4, COMPLEX8 5, REAL8 6, COMPLEX16 7,
//!   INTEGER8 8 (an 8-byte integer, packed as a C `long`; the default XDR
//!   encoding carries 32 bits of it, as PVM's does). They equal the C
//!   `PVM_STR` ... `PVM_LONG` codes, so they pass through unchanged.
//! - The data arguments (`xp`, `buf`, `data`, `result`) are untyped: a
//!   program that passes arrays of several types to one routine needs
//!   gfortran's `-fallow-argument-mismatch` (gfortran >= 10), as with
//!   libfpvm3. For STRING, `pvmfpack`/`pvmfunpack` move `nitem` raw
//!   characters; the hidden length of a `CHARACTER` actual argument is not
//!   read (the routine has no declared `CHARACTER` argument), as in libfpvm3.
//!
//! Each routine calls the C entry point of one of the `capi*` files, so a
//! failure sets `pvm_errno` and is reported as `PvmAutoErr` says, exactly
//! as from C. A failure found here (a name too long, an unknown data type)
//! is handled like the C counterpart's failures: printed under the Fortran routine's name (`pvmfpack(): Bad
//! parameter`), or only stored in `pvm_errno` for the group calls libgpvm3
//! keeps quiet. No panic crosses into Fortran: each routine runs behind
//! [`shim_core::ffi_guard::guard`], and a panic stores `PvmSysErr`.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi::{self, PvmHostInfo};
use crate::capi_entry::bad;
use crate::capi_groups::{self as groups, ReduceFn};
use crate::capi_handlers as handlers;
use crate::capi_machine::{self as machine, PvmTaskInfo};
use crate::capi_mbox::{self as mbox, PvmMboxInfo};
use crate::capi_signals as signals;
use crate::consts::err;
use crate::handlers::HandlerFn;
use crate::ptr;
use crate::state::{finish, finish_quiet};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use shim_core::Lock;
use std::ffi::{c_char, c_int, c_long, c_short, c_void, CString};

/// Longest task or host name libfpvm accepts.
const MAX_NAME: usize = 256;
/// Longest group name libfpvm accepts.
const MAX_GROUP: usize = 31;

/// Fortran data type codes of `pvmfpack` / `pvmfunpack`.
mod ftype {
    pub const STRING: i32 = 0;
    pub const BYTE1: i32 = 1;
    pub const INTEGER2: i32 = 2;
    pub const INTEGER4: i32 = 3;
    pub const REAL4: i32 = 4;
    pub const COMPLEX8: i32 = 5;
    pub const REAL8: i32 = 6;
    pub const COMPLEX16: i32 = 7;
    pub const INTEGER8: i32 = 8;
}

/// Runs routine `name` behind the panic boundary and stores its result in
/// `out`: the value a C entry point returned (already reported by it), or
/// a failure found here, reported under `name`.
fn call(name: &str, out: *mut c_int, f: impl FnOnce() -> PvmResult<c_int>) {
    let v = guard(name, err::SYS_ERR, || match f() {
        Ok(v) => v,
        Err(e) => finish(name, Err(e)),
    });
    ptr::put(out, v);
}

/// Like [`call`], for routines whose C counterpart only sets `pvm_errno`
/// (group membership, barrier, broadcast): a failure found here is not
/// printed either.
fn call_quiet(name: &str, out: *mut c_int, f: impl FnOnce() -> PvmResult<c_int>) {
    let v = guard(name, err::SYS_ERR, || match f() {
        Ok(v) => v,
        Err(e) => finish_quiet(Err(e)),
    });
    ptr::put(out, v);
}

/// An `INTEGER` input argument.
fn arg(p: *const c_int) -> PvmResult<c_int> {
    ptr::items(p, 1, 1)
        .and_then(|s| s.first().copied())
        .ok_or_else(bad)
}

/// A `CHARACTER` argument's bytes (its full Fortran length).
fn fchars<'a>(p: *const c_char, len: usize) -> PvmResult<&'a [u8]> {
    ptr::items(p as *const u8, len, 1).ok_or_else(bad)
}

/// An input string as C sees it: cut at a NUL, trailing blanks removed;
/// longer than `max` gives `PvmBadParam`.
fn in_str(p: *const c_char, len: usize, max: usize) -> PvmResult<CString> {
    let s = fchars(p, len)?;
    let s = s.split(|&b| b == 0).next().unwrap_or(&[]);
    let end = s.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    if end > max {
        return Err(bad());
    }
    CString::new(&s[..end]).map_err(|_| bad())
}

/// Writes `text` to a `CHARACTER` output argument, blank-padded or cut
/// to its Fortran length.
fn out_str(p: *mut c_char, len: usize, text: &[u8]) {
    if let Some(dst) = ptr::items_mut(p as *mut u8, len, 1) {
        let n = text.len().min(dst.len());
        dst[..n].copy_from_slice(&text[..n]);
        dst[n..].fill(b' ');
    }
}

fn c_ptr(s: &CString) -> *mut c_char {
    s.as_ptr() as *mut c_char
}

// ---- FFI edge: the only `unsafe` of this module ------------------------

extern "C" {
    /// The C runtime's standard output stream.
    static stdout: *mut libc::FILE;
}

/// The C `stdout` stream (what `pvmfcatchout` passes to `pvm_catchout`).
fn c_stdout() -> *mut c_void {
    // SAFETY: `stdout` is a pointer-sized global the C runtime initialises
    // before `main`; reading its value does not touch the stream.
    unsafe { stdout as *mut c_void }
}

// ---- Tasks --------------------------------------------------------------

/// `pvmfmytid(tid)`: stores this task's tid (enrolling it first), or
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfmytid_(tid: *mut c_int) {
    call("pvmfmytid", tid, || Ok(capi::pvm_mytid()));
}

/// `pvmfparent(tid)`: stores the parent's tid, or PvmNoParent (not
/// printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfparent_(tid: *mut c_int) {
    call("pvmfparent", tid, || Ok(capi::pvm_parent()));
}

/// `pvmfexit(info)`: leaves PVM; stores PvmOk, or PvmSysErr if not
/// enrolled.
#[no_mangle]
pub extern "C" fn pvmfexit_(info: *mut c_int) {
    call("pvmfexit", info, || Ok(capi::pvm_exit()));
}

/// `pvmfkill(tid, info)`: ends task `tid`; stores PvmOk, PvmBadParam,
/// PvmNoTask, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfkill_(tid: *mut c_int, info: *mut c_int) {
    call("pvmfkill", info, || Ok(capi::pvm_kill(arg(tid)?)));
}

/// `pvmfsendsig(tid, signum, info)`: sends signal `signum` to task `tid`
/// (see `pvm_sendsig`); stores PvmOk, or PvmBadParam (not a task tid, an
/// invalid signal), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfsendsig_(tid: *mut c_int, signum: *mut c_int, info: *mut c_int) {
    call("pvmfsendsig", info, || {
        Ok(signals::pvm_sendsig(arg(tid)?, arg(signum)?))
    });
}

/// `pvmfpstat(tid, status)`: stores PvmOk if `tid` runs, else PvmNoTask,
/// PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfpstat_(tid: *mut c_int, status: *mut c_int) {
    call("pvmfpstat", status, || Ok(capi::pvm_pstat(arg(tid)?)));
}

/// `pvmfspawn(task, flag, where, ntask, tids, numt)`: starts `ntask`
/// copies of `task` (no arguments) and fills `tids` (started tasks first,
/// error codes after). `where` starting with `*` (or blank) means any
/// host. Stores in `numt` the number started, or PvmBadParam (`task`
/// blank or longer than 256, `where` longer than 256, `ntask` < 1),
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfspawn_(
    task: *mut c_char,
    flag: *mut c_int,
    r#where: *mut c_char,
    ntask: *mut c_int,
    tids: *mut c_int,
    numt: *mut c_int,
    task_len: usize,
    where_len: usize,
) {
    call("pvmfspawn", numt, || {
        let name = in_str(task, task_len, MAX_NAME)?;
        let anywhere = fchars(r#where, where_len)?.first() == Some(&b'*');
        let place = if anywhere {
            None
        } else {
            Some(in_str(r#where, where_len, MAX_NAME)?).filter(|w| !w.is_empty())
        };
        let place_ptr = place.as_ref().map_or(std::ptr::null_mut(), c_ptr);
        Ok(capi::pvm_spawn(
            c_ptr(&name),
            std::ptr::null_mut(),
            arg(flag)?,
            place_ptr,
            arg(ntask)?,
            tids,
        ))
    });
}

/// The sibling list, read once (PVM keeps it as a snapshot).
static SIBLINGS: Lock<Option<Vec<c_int>>> = Lock::new(None);

/// `pvmfsiblings(ntids, index, sibling)`: stores in `ntids` the number of
/// tasks started together with this one (or a negative code, PvmSysErr);
/// for `index` in `0..ntids` stores that sibling's tid in `sibling`, for
/// `index` = -1 leaves `sibling` unchanged, otherwise stores PvmNoTask.
#[no_mangle]
pub extern "C" fn pvmfsiblings_(ntids: *mut c_int, index: *mut c_int, sibling: *mut c_int) {
    guard("pvmfsiblings", (), || {
        let mut cache = SIBLINGS.lock();
        if cache.is_none() {
            let mut list: *mut c_int = std::ptr::null_mut();
            let n = capi::pvm_siblings(&mut list);
            if n < 0 {
                drop(cache);
                ptr::put(ntids, n);
                if arg(index).is_ok_and(|i| i != -1) {
                    ptr::put(sibling, n);
                }
                return;
            }
            let tids = ptr::items(list, n as usize, 1).unwrap_or(&[]).to_vec();
            *cache = Some(tids);
        }
        let tids = cache.as_deref().unwrap_or(&[]);
        ptr::put(ntids, tids.len() as c_int);
        match arg(index) {
            Ok(-1) => {}
            Ok(i) => {
                let tid = usize::try_from(i)
                    .ok()
                    .and_then(|i| tids.get(i).copied())
                    .unwrap_or(err::NO_TASK);
                ptr::put(sibling, tid);
            }
            Err(_) => {}
        }
    });
}

/// `pvmfnotify(what, msgtag, cnt, tids, info)`: asks for a message with
/// tag `msgtag` when an event happens; stores PvmOk, PvmBadParam,
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfnotify_(
    what: *mut c_int,
    msgtag: *mut c_int,
    cnt: *mut c_int,
    tids: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfnotify", info, || {
        Ok(capi::pvm_notify(arg(what)?, arg(msgtag)?, arg(cnt)?, tids))
    });
}

/// `pvmfcatchout(onoff, info)`: children's output to this task's
/// standard output (non-zero) or not (0); stores PvmOk.
#[no_mangle]
pub extern "C" fn pvmfcatchout_(onoff: *mut c_int, info: *mut c_int) {
    call("pvmfcatchout", info, || {
        let out = if arg(onoff)? != 0 {
            c_stdout()
        } else {
            std::ptr::null_mut()
        };
        Ok(capi::pvm_catchout(out))
    });
}

/// `pvmfsleep(secs)`: sleeps `secs` seconds; stores nothing.
#[no_mangle]
pub extern "C" fn pvmfsleep_(secs: *mut c_int) {
    guard("pvmfsleep", (), || {
        if let Ok(s) = arg(secs) {
            capi::pvmsleep(s);
        }
    });
}

// ---- Virtual machine ----------------------------------------------------

/// `struct pvmhostinfo` as `pvm3.h` lays it out (what `pvm_config`
/// returns an array of).
#[repr(C)]
struct HostView {
    hi_tid: c_int,
    hi_name: *const c_char,
    hi_arch: *const c_char,
    hi_speed: c_int,
    #[allow(dead_code)] // part of the layout; Fortran does not report it
    hi_dsig: c_int,
}

const _: () = assert!(std::mem::size_of::<HostView>() == std::mem::size_of::<PvmHostInfo>());

/// One host of a `pvmfconfig` cycle, copied out of `pvm_config`'s table.
struct HostRow {
    dtid: c_int,
    name: Vec<u8>,
    arch: Vec<u8>,
    speed: c_int,
}

/// A `pvmfconfig` cycle in progress: the configuration read at its start
/// and the next host to report.
struct ConfigCycle {
    hosts: Vec<HostRow>,
    narch: c_int,
    next: usize,
}

static CONFIG: Lock<Option<ConfigCycle>> = Lock::new(None);

fn read_config() -> Result<ConfigCycle, c_int> {
    let (mut nhost, mut narch) = (0, 0);
    let mut table: *mut PvmHostInfo = std::ptr::null_mut();
    let rc = capi::pvm_config(&mut nhost, &mut narch, &mut table);
    if rc < 0 {
        return Err(rc);
    }
    let view = table as *const HostView;
    let rows = ptr::items(view, nhost.max(0) as usize, 1).unwrap_or(&[]);
    let text = |p: *const c_char| ptr::c_str(p).unwrap_or(&[]).to_vec();
    let hosts = rows
        .iter()
        .map(|h| HostRow {
            dtid: h.hi_tid,
            name: text(h.hi_name),
            arch: text(h.hi_arch),
            speed: h.hi_speed,
        })
        .collect();
    Ok(ConfigCycle {
        hosts,
        narch,
        next: 0,
    })
}

/// `pvmfconfig(nhost, narch, dtid, name, arch, speed, info)`: reports one
/// host per call, cycling through the virtual machine (the configuration
/// is read at the start of each cycle; `nhost` = -1 on input restarts the
/// cycle). Stores the host's daemon tid, name, architecture and speed and
/// 1 in `info` (as libfpvm3 does; its man page says 0), or PvmSysErr.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvmfconfig_(
    nhost: *mut c_int,
    narch: *mut c_int,
    dtid: *mut c_int,
    name: *mut c_char,
    arch: *mut c_char,
    speed: *mut c_int,
    info: *mut c_int,
    name_len: usize,
    arch_len: usize,
) {
    guard("pvmfconfig", (), || {
        let mut cycle = CONFIG.lock();
        if cycle.is_some() && arg(nhost) == Ok(-1) {
            *cycle = None;
        }
        if cycle.is_none() {
            match read_config() {
                Ok(c) => *cycle = Some(c),
                Err(code) => {
                    ptr::put(info, code);
                    return;
                }
            }
        }
        let Some(c) = cycle.as_mut() else { return };
        if let Some(h) = c.hosts.get(c.next) {
            ptr::put(nhost, c.hosts.len() as c_int);
            ptr::put(narch, c.narch);
            ptr::put(dtid, h.dtid);
            out_str(name, name_len, &h.name);
            out_str(arch, arch_len, &h.arch);
            ptr::put(speed, h.speed);
            ptr::put(info, 1);
            c.next += 1;
        } else {
            ptr::put(nhost, 0);
            ptr::put(info, 0);
        }
        if c.next >= c.hosts.len() {
            *cycle = None;
        }
    });
}

/// `pvmftidtohost(tid, dtid)`: stores the daemon tid of the host `tid`
/// runs on (its host part; no validation, as in libpvm).
#[no_mangle]
pub extern "C" fn pvmftidtohost_(tid: *mut c_int, dtid: *mut c_int) {
    call("pvmftidtohost", dtid, || Ok(capi::pvm_tidtohost(arg(tid)?)));
}

/// `struct pvmtaskinfo` as `pvm3.h` lays it out (what `pvm_tasks`
/// returns an array of).
#[repr(C)]
struct TaskView {
    ti_tid: c_int,
    ti_ptid: c_int,
    ti_host: c_int,
    ti_flag: c_int,
    ti_a_out: *const c_char,
    #[allow(dead_code)] // part of the layout; Fortran does not report it
    ti_pid: c_int,
}

const _: () = assert!(std::mem::size_of::<TaskView>() == std::mem::size_of::<PvmTaskInfo>());

/// One task of a `pvmftasks` cycle, copied out of `pvm_tasks`'s table.
struct TaskRow {
    tid: c_int,
    ptid: c_int,
    dtid: c_int,
    flag: c_int,
    aout: Vec<u8>,
}

/// A `pvmftasks` cycle in progress: the tasks read at its start and the
/// next one to report.
struct TaskCycle {
    tasks: Vec<TaskRow>,
    next: usize,
}

static TASKS: Lock<Option<TaskCycle>> = Lock::new(None);

fn read_tasks(which: c_int) -> Result<TaskCycle, c_int> {
    let mut ntask = 0;
    let mut table: *mut PvmTaskInfo = std::ptr::null_mut();
    let rc = machine::pvm_tasks(which, &mut ntask, &mut table);
    if rc < 0 {
        return Err(rc);
    }
    let view = table as *const TaskView;
    let rows = ptr::items(view, ntask.max(0) as usize, 1).unwrap_or(&[]);
    let tasks = rows
        .iter()
        .map(|t| TaskRow {
            tid: t.ti_tid,
            ptid: t.ti_ptid,
            dtid: t.ti_host,
            flag: t.ti_flag,
            aout: ptr::c_str(t.ti_a_out).unwrap_or(&[]).to_vec(),
        })
        .collect();
    Ok(TaskCycle { tasks, next: 0 })
}

/// `pvmftasks(where, ntask, tid, ptid, dtid, flag, aout, info)`: reports
/// one task per call, cycling through the tasks `pvm_tasks(where)` lists
/// (`where` 0: all, a host's daemon tid: that host's, a tid: that task;
/// read at the start of each cycle; `ntask` = -1 on input restarts the
/// cycle). Stores the number of tasks of the cycle in `ntask`, the task's
/// tid, parent tid, daemon tid, status flag and program name (blank for a
/// task not spawned) and 1 in `info` (as libfpvm3 does; its man page says
/// 0); with no task to report, 0 in `ntask` and `info`; or PvmNoHost,
/// PvmSysErr in `info`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvmftasks_(
    r#where: *mut c_int,
    ntask: *mut c_int,
    tid: *mut c_int,
    ptid: *mut c_int,
    dtid: *mut c_int,
    flag: *mut c_int,
    aout: *mut c_char,
    info: *mut c_int,
    aout_len: usize,
) {
    guard("pvmftasks", (), || {
        let mut cycle = TASKS.lock();
        if cycle.is_some() && arg(ntask) == Ok(-1) {
            *cycle = None;
        }
        if cycle.is_none() {
            let which = match arg(r#where) {
                Ok(w) => w,
                Err(e) => {
                    drop(cycle);
                    ptr::put(info, finish("pvmftasks", Err(e)));
                    return;
                }
            };
            match read_tasks(which) {
                Ok(c) => *cycle = Some(c),
                Err(code) => {
                    ptr::put(info, code);
                    return;
                }
            }
        }
        let Some(c) = cycle.as_mut() else { return };
        if let Some(t) = c.tasks.get(c.next) {
            ptr::put(ntask, c.tasks.len() as c_int);
            ptr::put(tid, t.tid);
            ptr::put(ptid, t.ptid);
            ptr::put(dtid, t.dtid);
            ptr::put(flag, t.flag);
            out_str(aout, aout_len, &t.aout);
            ptr::put(info, 1);
            c.next += 1;
        } else {
            ptr::put(ntask, 0);
            ptr::put(info, 0);
        }
        if c.next >= c.tasks.len() {
            *cycle = None;
        }
    });
}

/// Calls `pvm_addhosts` or `pvm_delhosts` with the single host `name`:
/// the host's own code, or the call's failure.
fn one_host(
    f: extern "C" fn(*mut *mut c_char, c_int, *mut c_int) -> c_int,
    name: &CString,
) -> c_int {
    let mut names = [c_ptr(name)];
    let mut code = 0;
    let n = f(names.as_mut_ptr(), 1, &mut code);
    if n < 0 {
        n
    } else {
        code
    }
}

/// `pvmfaddhost(host, info)`: asks to add one host (a hostfile-style
/// line). Stores the host's code as libfpvm3 does: its daemon tid if
/// added; here, the machine being the MPI job, PvmDupHost for a host
/// already in it and PvmCantStart for any other; or PvmBadParam (blank or
/// longer than 256), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfaddhost_(host: *mut c_char, info: *mut c_int, host_len: usize) {
    call("pvmfaddhost", info, || {
        let h = in_str(host, host_len, MAX_NAME)?;
        Ok(one_host(machine::pvm_addhosts, &h))
    });
}

/// `pvmfdelhost(host, info)`: asks to remove one host. Stores the host's
/// code: PvmNotImpl for a host of the machine (an MPI job keeps its
/// hosts), PvmNoHost for any other; or PvmBadParam (blank or longer than
/// 256), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfdelhost_(host: *mut c_char, info: *mut c_int, host_len: usize) {
    call("pvmfdelhost", info, || {
        let h = in_str(host, host_len, MAX_NAME)?;
        Ok(one_host(machine::pvm_delhosts, &h))
    });
}

/// `pvmfhalt(info)`: ends every task this one knows of and leaves PVM (see
/// `pvm_halt`); stores PvmOk, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfhalt_(info: *mut c_int) {
    call("pvmfhalt", info, || Ok(machine::pvm_halt()));
}

/// `pvmfmstat(host, mstat)`: stores PvmOk if `host` is a host of the
/// machine, else PvmNoHost; PvmBadParam (longer than 256), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfmstat_(host: *mut c_char, mstat: *mut c_int, host_len: usize) {
    call("pvmfmstat", mstat, || {
        let h = in_str(host, host_len, MAX_NAME)?;
        Ok(machine::pvm_mstat(c_ptr(&h)))
    });
}

/// `pvmfarchcode(arch, cod)`: stores the data signature of architecture
/// `arch` (LINUX64: 4230209), or PvmNotFound (no host of that
/// architecture), PvmBadParam (longer than 256), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfarchcode_(arch: *mut c_char, cod: *mut c_int, arch_len: usize) {
    call("pvmfarchcode", cod, || {
        let a = in_str(arch, arch_len, MAX_NAME)?;
        Ok(machine::pvm_archcode(c_ptr(&a)))
    });
}

/// `pvmfstartpvmd(args, block, info)`: passes the blank-separated words
/// of `args` to `pvm_start_pvmd`; stores PvmDupHost (the machine, the MPI
/// job, is already running), or PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfstartpvmd_(
    args: *mut c_char,
    block: *mut c_int,
    info: *mut c_int,
    args_len: usize,
) {
    call("pvmfstartpvmd", info, || {
        let text = in_str(args, args_len, usize::MAX)?;
        let words: Vec<CString> = text
            .as_bytes()
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|w| !w.is_empty())
            .map(|w| CString::new(w).map_err(|_| bad()))
            .collect::<PvmResult<_>>()?;
        let mut argv: Vec<*mut c_char> = words.iter().map(c_ptr).collect();
        argv.push(std::ptr::null_mut());
        Ok(machine::pvm_start_pvmd(
            words.len() as c_int,
            argv.as_mut_ptr(),
            arg(block)?,
        ))
    });
}

/// `pvmfhostsync(host, clksec, clkusec, deltasec, deltausec, info)`:
/// samples the clock of host `host` (a daemon tid, as `pvmfconfig`
/// reports); stores its time of day in `clksec`/`clkusec`, its difference
/// to the local clock in `deltasec`/`deltausec` (0: the hosts of an MPI
/// job count as synchronised) and PvmOk in `info`, or PvmNoHost,
/// PvmSysErr (the other arguments unchanged).
#[no_mangle]
pub extern "C" fn pvmfhostsync_(
    host: *mut c_int,
    clksec: *mut c_int,
    clkusec: *mut c_int,
    deltasec: *mut c_int,
    deltausec: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfhostsync", info, || {
        let zero = libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        };
        let (mut clk, mut delta) = (zero, zero);
        let rc = machine::pvm_hostsync(arg(host)?, &mut clk, &mut delta);
        if rc >= 0 {
            ptr::put(clksec, clk.tv_sec as c_int);
            ptr::put(clkusec, clk.tv_usec as c_int);
            ptr::put(deltasec, delta.tv_sec as c_int);
            ptr::put(deltausec, delta.tv_usec as c_int);
        }
        Ok(rc)
    });
}

// ---- Buffers ------------------------------------------------------------

/// `pvmfinitsend(encoding, bufid)`: clears the send buffer and makes a new
/// one (PVMDEFAULT 0, PVMRAW 1, PVMINPLACE 2); stores its id, or
/// PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmfinitsend_(encoding: *mut c_int, bufid: *mut c_int) {
    call("pvmfinitsend", bufid, || {
        Ok(capi::pvm_initsend(arg(encoding)?))
    });
}

/// `pvmfmkbuf(encoding, bufid)`: makes a buffer; stores its id, or
/// PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmfmkbuf_(encoding: *mut c_int, bufid: *mut c_int) {
    call("pvmfmkbuf", bufid, || Ok(capi::pvm_mkbuf(arg(encoding)?)));
}

/// `pvmffreebuf(bufid, info)`: frees a buffer; stores PvmOk, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvmffreebuf_(bufid: *mut c_int, info: *mut c_int) {
    call("pvmffreebuf", info, || Ok(capi::pvm_freebuf(arg(bufid)?)));
}

/// `pvmfgetsbuf(bufid)`: stores the active send buffer (0 if none).
#[no_mangle]
pub extern "C" fn pvmfgetsbuf_(bufid: *mut c_int) {
    call("pvmfgetsbuf", bufid, || Ok(capi::pvm_getsbuf()));
}

/// `pvmfgetrbuf(bufid)`: stores the active receive buffer (0 if none).
#[no_mangle]
pub extern "C" fn pvmfgetrbuf_(bufid: *mut c_int) {
    call("pvmfgetrbuf", bufid, || Ok(capi::pvm_getrbuf()));
}

/// `pvmfsetsbuf(bufid, oldbuf)`: makes `bufid` the send buffer; stores the
/// previous one, or PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvmfsetsbuf_(bufid: *mut c_int, oldbuf: *mut c_int) {
    call("pvmfsetsbuf", oldbuf, || Ok(capi::pvm_setsbuf(arg(bufid)?)));
}

/// `pvmfsetrbuf(bufid, oldbuf)`: makes `bufid` the receive buffer; stores
/// the previous one, or PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvmfsetrbuf_(bufid: *mut c_int, oldbuf: *mut c_int) {
    call("pvmfsetrbuf", oldbuf, || Ok(capi::pvm_setrbuf(arg(bufid)?)));
}

/// `pvmfbufinfo(bufid, bytes, msgtag, tid, info)`: stores a buffer's
/// length, tag and source, and PvmOk in `info`, or PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvmfbufinfo_(
    bufid: *mut c_int,
    bytes: *mut c_int,
    msgtag: *mut c_int,
    tid: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfbufinfo", info, || {
        Ok(capi::pvm_bufinfo(arg(bufid)?, bytes, msgtag, tid))
    });
}

/// `pvmfpack(what, xp, nitem, stride, info)`: packs `nitem` items of type
/// `what`, every `stride`-th, from `xp` into the send buffer. STRING packs
/// `nitem` characters as raw bytes (not a C string); `xp` is untyped, so
/// the hidden length a `CHARACTER` actual argument adds is not read (as in
/// libfpvm3): `nitem` alone says how many characters go. Stores PvmOk, or
/// PvmBadParam (unknown `what`, `nitem` < 0, `stride` < 1), PvmNoBuf,
/// PvmOverflow.
#[no_mangle]
pub extern "C" fn pvmfpack_(
    what: *mut c_int,
    xp: *mut c_void,
    nitem: *mut c_int,
    stride: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfpack", info, || {
        let (what, n, s) = (arg(what)?, arg(nitem)?, arg(stride)?);
        Ok(match what {
            ftype::STRING | ftype::BYTE1 => capi::pvm_pkbyte(xp as *mut c_char, n, s),
            ftype::INTEGER2 => capi::pvm_pkshort(xp as *mut c_short, n, s),
            ftype::INTEGER4 => capi::pvm_pkint(xp as *mut c_int, n, s),
            ftype::REAL4 => capi::pvm_pkfloat(xp as *mut f32, n, s),
            ftype::COMPLEX8 => capi::pvm_pkcplx(xp as *mut f32, n, s),
            ftype::REAL8 => capi::pvm_pkdouble(xp as *mut f64, n, s),
            ftype::COMPLEX16 => capi::pvm_pkdcplx(xp as *mut f64, n, s),
            ftype::INTEGER8 => capi::pvm_pklong(xp as *mut c_long, n, s),
            _ => return Err(bad()),
        })
    });
}

/// `pvmfunpack(what, xp, nitem, stride, info)`: unpacks `nitem` items of
/// type `what` into every `stride`-th element of `xp` from the receive
/// buffer (STRING: `nitem` raw characters; the hidden length is not
/// read). Stores PvmOk, or PvmBadParam, PvmNoBuf, PvmNoData.
#[no_mangle]
pub extern "C" fn pvmfunpack_(
    what: *mut c_int,
    xp: *mut c_void,
    nitem: *mut c_int,
    stride: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfunpack", info, || {
        let (what, n, s) = (arg(what)?, arg(nitem)?, arg(stride)?);
        Ok(match what {
            ftype::STRING | ftype::BYTE1 => capi::pvm_upkbyte(xp as *mut c_char, n, s),
            ftype::INTEGER2 => capi::pvm_upkshort(xp as *mut c_short, n, s),
            ftype::INTEGER4 => capi::pvm_upkint(xp as *mut c_int, n, s),
            ftype::REAL4 => capi::pvm_upkfloat(xp as *mut f32, n, s),
            ftype::COMPLEX8 => capi::pvm_upkcplx(xp as *mut f32, n, s),
            ftype::REAL8 => capi::pvm_upkdouble(xp as *mut f64, n, s),
            ftype::COMPLEX16 => capi::pvm_upkdcplx(xp as *mut f64, n, s),
            ftype::INTEGER8 => capi::pvm_upklong(xp as *mut c_long, n, s),
            _ => return Err(bad()),
        })
    });
}

// ---- Messages -----------------------------------------------------------

/// `pvmfsend(tid, msgtag, info)`: sends the send buffer; stores PvmOk, or
/// PvmBadParam (bad tid, `msgtag` < 0), PvmNoBuf, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfsend_(tid: *mut c_int, msgtag: *mut c_int, info: *mut c_int) {
    call("pvmfsend", info, || {
        Ok(capi::pvm_send(arg(tid)?, arg(msgtag)?))
    });
}

/// `pvmfmcast(ntask, tids, msgtag, info)`: sends the send buffer to the
/// `ntask` tasks in `tids`; stores PvmOk, or PvmBadParam, PvmNoBuf,
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfmcast_(
    ntask: *mut c_int,
    tids: *mut c_int,
    msgtag: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfmcast", info, || {
        Ok(capi::pvm_mcast(tids, arg(ntask)?, arg(msgtag)?))
    });
}

/// `pvmfrecv(tid, msgtag, bufid)`: waits for a message (-1 = any); stores
/// its buffer id, or PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfrecv_(tid: *mut c_int, msgtag: *mut c_int, bufid: *mut c_int) {
    call("pvmfrecv", bufid, || {
        Ok(capi::pvm_recv(arg(tid)?, arg(msgtag)?))
    });
}

/// `pvmfnrecv(tid, msgtag, bufid)`: takes a message if one is there;
/// stores its buffer id, 0 (none), or PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfnrecv_(tid: *mut c_int, msgtag: *mut c_int, bufid: *mut c_int) {
    call("pvmfnrecv", bufid, || {
        Ok(capi::pvm_nrecv(arg(tid)?, arg(msgtag)?))
    });
}

/// `pvmftrecv(tid, msgtag, sec, usec, bufid)`: waits up to `sec` seconds
/// plus `usec` microseconds (`sec` = -1: without limit); stores the buffer
/// id, 0 (timed out), or PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmftrecv_(
    tid: *mut c_int,
    msgtag: *mut c_int,
    sec: *mut c_int,
    usec: *mut c_int,
    bufid: *mut c_int,
) {
    call("pvmftrecv", bufid, || {
        let (tid, tag, sec) = (arg(tid)?, arg(msgtag)?, arg(sec)?);
        if sec == -1 {
            return Ok(capi::pvm_trecv(tid, tag, std::ptr::null_mut()));
        }
        let mut tv = libc::timeval {
            tv_sec: sec as libc::time_t,
            tv_usec: arg(usec)? as libc::suseconds_t,
        };
        Ok(capi::pvm_trecv(tid, tag, &mut tv))
    });
}

/// `pvmfprobe(tid, msgtag, bufid)`: whether a matching message arrived;
/// stores its buffer id (it stays queued), 0, or PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfprobe_(tid: *mut c_int, msgtag: *mut c_int, bufid: *mut c_int) {
    call("pvmfprobe", bufid, || {
        Ok(capi::pvm_probe(arg(tid)?, arg(msgtag)?))
    });
}

/// `pvmfpsend(tid, msgtag, buf, len, datatype, info)`: sends `len` items
/// of `datatype` straight from `buf`; stores PvmOk, or PvmBadParam,
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfpsend_(
    tid: *mut c_int,
    msgtag: *mut c_int,
    buf: *mut c_void,
    len: *mut c_int,
    datatype: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfpsend", info, || {
        Ok(capi::pvm_psend(
            arg(tid)?,
            arg(msgtag)?,
            buf,
            arg(len)?,
            arg(datatype)?,
        ))
    });
}

/// `pvmfprecv(tid, msgtag, buf, len, datatype, atid, atag, alen, info)`:
/// receives a message straight into `buf` (up to `len` items) and stores
/// its source, tag and length in bytes; stores PvmOk in `info`, or
/// PvmBadParam, PvmNotImpl (STRING), PvmSysErr.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvmfprecv_(
    tid: *mut c_int,
    msgtag: *mut c_int,
    buf: *mut c_void,
    len: *mut c_int,
    datatype: *mut c_int,
    atid: *mut c_int,
    atag: *mut c_int,
    alen: *mut c_int,
    info: *mut c_int,
) {
    call("pvmfprecv", info, || {
        Ok(capi::pvm_precv(
            arg(tid)?,
            arg(msgtag)?,
            buf,
            arg(len)?,
            arg(datatype)?,
            atid,
            atag,
            alen,
        ))
    });
}

// ---- Message handlers ---------------------------------------------------
//
// `pvm_addmhf` calls a handler as `f(bufid)` with the id by value; a
// Fortran handler (`integer function f(mid)` or `subroutine f(mid)`) takes
// it by reference. Each Fortran handler therefore sits in a slot whose
// trampoline is what the C layer installs.

/// A Fortran message handler: `f(mid)`, `mid` by reference.
type FortranHandler = extern "C" fn(*mut c_int) -> c_int;

/// How many Fortran handlers can be installed at once.
const HANDLER_SLOTS: usize = 16;

/// A slot: the Fortran handler and the handler id `pvm_addmhf` gave it
/// (-1 while being installed).
static FHANDLERS: Lock<[Option<(FortranHandler, c_int)>; HANDLER_SLOTS]> =
    Lock::new([None; HANDLER_SLOTS]);

/// Calls slot `N`'s Fortran handler with `mid` by reference.
extern "C" fn trampoline<const N: usize>(mid: c_int) -> c_int {
    let f = FHANDLERS.lock()[N].map(|(f, _)| f);
    match f {
        Some(f) => {
            let mut m = mid;
            f(&mut m)
        }
        None => 0,
    }
}

const TRAMPOLINES: [HandlerFn; HANDLER_SLOTS] = [
    trampoline::<0>,
    trampoline::<1>,
    trampoline::<2>,
    trampoline::<3>,
    trampoline::<4>,
    trampoline::<5>,
    trampoline::<6>,
    trampoline::<7>,
    trampoline::<8>,
    trampoline::<9>,
    trampoline::<10>,
    trampoline::<11>,
    trampoline::<12>,
    trampoline::<13>,
    trampoline::<14>,
    trampoline::<15>,
];

/// `pvmfaddmhf(src, tag, ctx, mid, func, info)`: installs the `external`
/// `func` (`integer function func(mid)` or `subroutine func(mid)`, given
/// the message's buffer id, which is the receive buffer while it runs) as
/// the handler of arriving messages matching `src`, `tag` and `ctx` (-1:
/// any); it runs during a later PVM call. `mid` is neither read nor
/// written (as in libfpvm3). Stores the handler id in `info`, or
/// PvmExists (an installed handler overlaps), PvmBadParam, PvmOutOfRes
/// (16 Fortran handlers installed already), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfaddmhf_(
    src: *mut c_int,
    tag: *mut c_int,
    ctx: *mut c_int,
    _mid: *mut c_int,
    func: Option<FortranHandler>,
    info: *mut c_int,
) {
    call("pvmfaddmhf", info, || {
        let (src, tag, ctx) = (arg(src)?, arg(tag)?, arg(ctx)?);
        let Some(f) = func else {
            return Ok(handlers::pvm_addmhf(src, tag, ctx, None));
        };
        let slot = {
            let mut slots = FHANDLERS.lock();
            let i = slots
                .iter()
                .position(Option::is_none)
                .ok_or(PvmError(err::OUT_OF_RES))?;
            slots[i] = Some((f, -1));
            i
        };
        let id = handlers::pvm_addmhf(src, tag, ctx, Some(TRAMPOLINES[slot]));
        let mut slots = FHANDLERS.lock();
        if id < 0 {
            slots[slot] = None;
        } else {
            // A slot still naming this id lost its handler to a C
            // `pvm_delmhf`: the id was free again.
            for s in slots.iter_mut() {
                if matches!(s, Some((_, m)) if *m == id) {
                    *s = None;
                }
            }
            slots[slot] = Some((f, id));
        }
        Ok(id)
    });
}

/// `pvmfdelmhf(mhid, info)`: removes handler `mhid`; stores PvmOk, or
/// PvmBadParam (negative), PvmNotFound, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfdelmhf_(mhid: *mut c_int, info: *mut c_int) {
    call("pvmfdelmhf", info, || {
        let id = arg(mhid)?;
        let rc = handlers::pvm_delmhf(id);
        if rc >= 0 {
            for s in FHANDLERS.lock().iter_mut() {
                if matches!(s, Some((_, m)) if *m == id) {
                    *s = None;
                }
            }
        }
        Ok(rc)
    });
}

// ---- Options, errors, contexts ------------------------------------------

/// `pvmfgetopt(what, val)`: stores the option's value, or PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmfgetopt_(what: *mut c_int, val: *mut c_int) {
    call("pvmfgetopt", val, || Ok(capi::pvm_getopt(arg(what)?)));
}

/// `pvmfsetopt(what, val, oldval)`: sets an option; stores its previous
/// value, or PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmfsetopt_(what: *mut c_int, val: *mut c_int, oldval: *mut c_int) {
    call("pvmfsetopt", oldval, || {
        Ok(capi::pvm_setopt(arg(what)?, arg(val)?))
    });
}

/// `pvmfperror(msg, info)`: prints `msg` (trailing blanks removed) and the
/// text of the last error to stderr; stores PvmOk.
#[no_mangle]
pub extern "C" fn pvmfperror_(msg: *mut c_char, info: *mut c_int, msg_len: usize) {
    call("pvmfperror", info, || {
        let text = in_str(msg, msg_len, usize::MAX)?;
        Ok(capi::pvm_perror(c_ptr(&text)))
    });
}

/// `pvmfnewcontext(ctx)`: stores a new context id, or PvmOutOfRes.
#[no_mangle]
pub extern "C" fn pvmfnewcontext_(ctx: *mut c_int) {
    call("pvmfnewcontext", ctx, || Ok(capi::pvm_newcontext()));
}

/// `pvmfsetcontext(new, old)`: makes `new` the current context; stores the
/// previous one, or PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmfsetcontext_(new: *mut c_int, old: *mut c_int) {
    call("pvmfsetcontext", old, || {
        Ok(capi::pvm_setcontext(arg(new)?))
    });
}

/// `pvmfgetcontext(ctx)`: stores the current context.
#[no_mangle]
pub extern "C" fn pvmfgetcontext_(ctx: *mut c_int) {
    call("pvmfgetcontext", ctx, || Ok(capi::pvm_getcontext()));
}

/// `pvmffreecontext(ctx, info)`: releases a context; stores PvmOk, or
/// PvmBadParam.
#[no_mangle]
pub extern "C" fn pvmffreecontext_(ctx: *mut c_int, info: *mut c_int) {
    call("pvmffreecontext", info, || {
        Ok(capi::pvm_freecontext(arg(ctx)?))
    });
}

// ---- Mailbox --------------------------------------------------------------
//
// A class name longer than 256 characters gives PvmBadParam; a blank one is
// "" for C, which gives PvmBadParam too.

/// `pvmfputinfo(name, bufid, flags, index)`: stores message `bufid` in the
/// mailbox under `name` (flags: PVMMBOXDEFAULT, PVMMBOXPERSISTENT,
/// PVMMBOXMULTIINSTANCE, PVMMBOXOVERWRITABLE, added); stores the entry's
/// index in `index`, or PvmBadParam, PvmNoSuchBuf, PvmExists, PvmDenied,
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfputinfo_(
    name: *mut c_char,
    bufid: *mut c_int,
    flags: *mut c_int,
    index: *mut c_int,
    name_len: usize,
) {
    call("pvmfputinfo", index, || {
        let n = in_str(name, name_len, MAX_NAME)?;
        Ok(mbox::pvm_putinfo(c_ptr(&n), arg(bufid)?, arg(flags)?))
    });
}

/// `pvmfrecvinfo(name, index, flags, bufid)`: copies mailbox entry
/// `name`/`index` into a new message, which becomes the receive buffer
/// (flags: PVMMBOXFIRSTAVAIL, PVMMBOXREADANDDELETE, PVMMBOXWAITFORINFO,
/// added); stores its buffer id in `bufid`, or PvmBadParam, PvmNotFound,
/// PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfrecvinfo_(
    name: *mut c_char,
    index: *mut c_int,
    flags: *mut c_int,
    bufid: *mut c_int,
    name_len: usize,
) {
    call("pvmfrecvinfo", bufid, || {
        let n = in_str(name, name_len, MAX_NAME)?;
        Ok(mbox::pvm_recvinfo(c_ptr(&n), arg(index)?, arg(flags)?))
    });
}

/// `pvmfdelinfo(name, index, flags, info)`: deletes mailbox entry
/// `name`/`index`; stores PvmOk (or the deleted index), or PvmBadParam,
/// PvmNotFound, PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfdelinfo_(
    name: *mut c_char,
    index: *mut c_int,
    flags: *mut c_int,
    info: *mut c_int,
    name_len: usize,
) {
    call("pvmfdelinfo", info, || {
        let n = in_str(name, name_len, MAX_NAME)?;
        Ok(mbox::pvm_delinfo(c_ptr(&n), arg(index)?, arg(flags)?))
    });
}

/// `struct pvmmboxinfo` as `pvm3.h` lays it out (what `pvm_getmboxinfo`
/// returns an array of).
#[repr(C)]
struct MboxView {
    mi_name: *const c_char,
    mi_nentries: c_int,
    mi_indices: *const c_int,
    mi_owners: *const c_int,
    mi_flags: *const c_int,
}

const _: () = assert!(std::mem::size_of::<MboxView>() == std::mem::size_of::<PvmMboxInfo>());

/// One class of a `pvmfgetmboxinfo` cycle: its name and, per entry, the
/// index, owner and flags.
struct MboxRow {
    name: Vec<u8>,
    indices: Vec<c_int>,
    owners: Vec<c_int>,
    flags: Vec<c_int>,
}

/// A `pvmfgetmboxinfo` cycle in progress.
struct MboxCycle {
    classes: Vec<MboxRow>,
    next: usize,
}

static MBOXES: Lock<Option<MboxCycle>> = Lock::new(None);

fn read_mboxes(pattern: &CString) -> Result<MboxCycle, c_int> {
    let mut n = 0;
    let mut table: *mut PvmMboxInfo = std::ptr::null_mut();
    let rc = mbox::pvm_getmboxinfo(c_ptr(pattern), &mut n, &mut table);
    if rc < 0 {
        return Err(rc);
    }
    let view = table as *const MboxView;
    let rows = ptr::items(view, n.max(0) as usize, 1).unwrap_or(&[]);
    let col =
        |p: *const c_int, k: c_int| ptr::items(p, k.max(0) as usize, 1).unwrap_or(&[]).to_vec();
    let classes = rows
        .iter()
        .map(|m| MboxRow {
            name: ptr::c_str(m.mi_name).unwrap_or(&[]).to_vec(),
            indices: col(m.mi_indices, m.mi_nentries),
            owners: col(m.mi_owners, m.mi_nentries),
            flags: col(m.mi_flags, m.mi_nentries),
        })
        .collect();
    Ok(MboxCycle { classes, next: 0 })
}

/// Copies `v` to the first `v.len()` elements of an `INTEGER` array.
fn out_ints(p: *mut c_int, v: &[c_int]) {
    if v.is_empty() {
        return;
    }
    if let Some(dst) = ptr::items_mut(p, v.len(), 1) {
        dst.copy_from_slice(v);
    }
}

/// `pvmfgetmboxinfo(pattern, name, nclasses, nentries, index, owner,
/// flags, info)`: reports one mailbox class per call, cycling through the
/// classes whose names match `pattern` (`*` matches any run of
/// characters; blank matches every name; the list is read at the start of
/// each cycle, and `nclasses` = -1 on input restarts it). Stores the
/// class's name in `name`, the number of classes in `nclasses`, its
/// number of entries in `nentries`, each entry's index, owner tid (0 once
/// a persistent entry's owner left) and flags in the first `nentries`
/// elements of the arrays `index`, `owner` and `flags`, and PvmOk in
/// `info`; or, when no class matches, 0 in `nclasses` and PvmNotFound in
/// `info` (not printed); or PvmBadParam (`pattern` longer than 256),
/// PvmSysErr.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvmfgetmboxinfo_(
    pattern: *mut c_char,
    name: *mut c_char,
    nclasses: *mut c_int,
    nentries: *mut c_int,
    index: *mut c_int,
    owner: *mut c_int,
    flags: *mut c_int,
    info: *mut c_int,
    pattern_len: usize,
    name_len: usize,
) {
    guard("pvmfgetmboxinfo", (), || {
        let mut cycle = MBOXES.lock();
        if cycle.is_some() && arg(nclasses) == Ok(-1) {
            *cycle = None;
        }
        if cycle.is_none() {
            let pat = match in_str(pattern, pattern_len, MAX_NAME) {
                Ok(p) => p,
                Err(e) => {
                    drop(cycle);
                    ptr::put(info, finish("pvmfgetmboxinfo", Err(e)));
                    return;
                }
            };
            match read_mboxes(&pat) {
                Ok(c) => *cycle = Some(c),
                Err(code) => {
                    ptr::put(info, code);
                    return;
                }
            }
        }
        let Some(c) = cycle.as_mut() else { return };
        if let Some(m) = c.classes.get(c.next) {
            out_str(name, name_len, &m.name);
            ptr::put(nclasses, c.classes.len() as c_int);
            ptr::put(nentries, m.indices.len() as c_int);
            out_ints(index, &m.indices);
            out_ints(owner, &m.owners);
            out_ints(flags, &m.flags);
            ptr::put(info, 0);
            c.next += 1;
        } else {
            ptr::put(nclasses, 0);
            ptr::put(info, finish_quiet(Err(PvmError(err::NOT_FOUND))));
        }
        if c.next >= c.classes.len() {
            *cycle = None;
        }
    });
}

// ---- Groups (libgpvm3) ---------------------------------------------------
//
// A group name longer than 31 characters gives PvmBadParam; a blank one is
// "" for C, which gives PvmNullGroup.

/// `pvmfjoingroup(group, inum)`: joins `group`; stores the instance
/// number, or PvmNullGroup, PvmBadParam, PvmDupGroup, PvmNotInGroup
/// (frozen group), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfjoingroup_(group: *mut c_char, inum: *mut c_int, group_len: usize) {
    call_quiet("pvmfjoingroup", inum, || {
        let g = in_str(group, group_len, MAX_GROUP)?;
        Ok(groups::pvm_joingroup(c_ptr(&g)))
    });
}

/// `pvmflvgroup(group, info)`: leaves `group`; stores PvmOk, or
/// PvmNullGroup, PvmBadParam, PvmNoGroup, PvmNotInGroup, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmflvgroup_(group: *mut c_char, info: *mut c_int, group_len: usize) {
    call_quiet("pvmflvgroup", info, || {
        let g = in_str(group, group_len, MAX_GROUP)?;
        Ok(groups::pvm_lvgroup(c_ptr(&g)))
    });
}

/// `pvmfgsize(group, size)`: stores the number of members, or
/// PvmNullGroup, PvmBadParam, PvmNoGroup, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvmfgsize_(group: *mut c_char, size: *mut c_int, group_len: usize) {
    call_quiet("pvmfgsize", size, || {
        let g = in_str(group, group_len, MAX_GROUP)?;
        Ok(groups::pvm_gsize(c_ptr(&g)))
    });
}

/// Fortran group routines of one shape, `pvmfNAME(group, in, out)`: the
/// group name and one `INTEGER` in, the C call's result stored in `out`
/// (quiet failures, as libgpvm3's).
macro_rules! group_int_routines {
    ($($(#[$doc:meta])* $fname:ident $name:literal ($input:ident, $out:ident) => $c:ident;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $fname(
            group: *mut c_char,
            $input: *mut c_int,
            $out: *mut c_int,
            group_len: usize,
        ) {
            call_quiet($name, $out, || {
                let g = in_str(group, group_len, MAX_GROUP)?;
                Ok(groups::$c(c_ptr(&g), arg($input)?))
            });
        }
    )*};
}

group_int_routines! {
    /// `pvmfgetinst(group, tid, inum)`: stores the instance number of task
    /// `tid` in `group`, or PvmNullGroup, PvmBadParam, PvmNoGroup,
    /// PvmNotInGroup, PvmSysErr.
    pvmfgetinst_ "pvmfgetinst" (tid, inum) => pvm_getinst;
    /// `pvmfgettid(group, inum, tid)`: stores the tid of instance `inum`, or
    /// PvmNullGroup, PvmBadParam, PvmNoGroup, PvmNoInst, PvmSysErr.
    pvmfgettid_ "pvmfgettid" (inum, tid) => pvm_gettid;
    /// `pvmfbarrier(group, count, info)`: waits until `count` members (-1:
    /// all) arrive; stores PvmOk, or PvmNullGroup, PvmBadParam, PvmMismatch,
    /// PvmNoGroup, PvmNotInGroup, PvmSysErr.
    pvmfbarrier_ "pvmfbarrier" (count, info) => pvm_barrier;
    /// `pvmfbcast(group, msgtag, info)`: sends the send buffer to every other
    /// member; stores PvmOk, or PvmNullGroup, PvmBadParam, PvmNoGroup,
    /// PvmNoInst, PvmNoBuf, PvmSysErr.
    pvmfbcast_ "pvmfbcast" (msgtag, info) => pvm_bcast;
    /// `pvmffreezegroup(group, size, info)`: makes `group` static at `size`
    /// members (-1: its size now); stores PvmOk, or PvmNullGroup, PvmBadParam,
    /// PvmDupGroup, PvmNoGroup, PvmNotInGroup, PvmSysErr.
    pvmffreezegroup_ "pvmffreezegroup" (size, info) => pvm_freezegroup;
}

/// `pvmfreduce(func, data, count, datatype, msgtag, group, rootginst,
/// info)`: reduces `count` items of `data` over `group` with `func` (an
/// `external` such as PvmSum, PvmMax, PvmMin, PvmProduct, or the caller's
/// `subroutine f(datatype, x, y, num, info)`); the result lands in the
/// root's `data`. Stores PvmOk, or PvmBadParam, PvmNullGroup, PvmNoGroup,
/// PvmNoInst, PvmMismatch, PvmSysErr.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvmfreduce_(
    func: Option<ReduceFn>,
    data: *mut c_void,
    count: *mut c_int,
    datatype: *mut c_int,
    msgtag: *mut c_int,
    group: *mut c_char,
    rootginst: *mut c_int,
    info: *mut c_int,
    group_len: usize,
) {
    call("pvmfreduce", info, || {
        let g = in_str(group, group_len, MAX_GROUP)?;
        Ok(groups::pvm_reduce(
            func,
            data,
            arg(count)?,
            arg(datatype)?,
            arg(msgtag)?,
            c_ptr(&g),
            arg(rootginst)?,
        ))
    });
}

/// The Fortran scatter and gather, one shape: `pvmfNAME(result, data,
/// count, datatype, msgtag, group, rootginst, info)`.
macro_rules! scatter_gather_routines {
    ($($(#[$doc:meta])* $fname:ident $name:literal => $c:ident;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $fname(
            result: *mut c_void,
            data: *mut c_void,
            count: *mut c_int,
            datatype: *mut c_int,
            msgtag: *mut c_int,
            group: *mut c_char,
            rootginst: *mut c_int,
            info: *mut c_int,
            group_len: usize,
        ) {
            call($name, info, || {
                let g = in_str(group, group_len, MAX_GROUP)?;
                Ok(groups::$c(
                    result,
                    data,
                    arg(count)?,
                    arg(datatype)?,
                    arg(msgtag)?,
                    c_ptr(&g),
                    arg(rootginst)?,
                ))
            });
        }
    )*};
}

scatter_gather_routines! {
    /// `pvmfscatter(result, data, count, datatype, msgtag, group, rootginst,
    /// info)`: member `i` gets `count` items of the root's `data` from offset
    /// `i*count` in `result`. Stores PvmOk, or PvmBadParam, PvmNullGroup,
    /// PvmNoGroup, PvmNoInst, PvmSysErr.
    pvmfscatter_ "pvmfscatter" => pvm_scatter;
    /// `pvmfgather(result, data, count, datatype, msgtag, group, rootginst,
    /// info)`: the root stores member `i`'s `count` items of `data` in its
    /// `result` at offset `i*count`. Stores PvmOk, or PvmBadParam,
    /// PvmNullGroup, PvmNoGroup, PvmNoInst, PvmSysErr.
    pvmfgather_ "pvmfgather" => pvm_gather;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_strings_are_trimmed_and_bounded() {
        let s = b"slave1    ";
        let c = in_str(s.as_ptr() as *const c_char, s.len(), MAX_NAME).unwrap();
        assert_eq!(c.as_bytes(), b"slave1");
        let blank = b"   ";
        let c = in_str(blank.as_ptr() as *const c_char, 3, MAX_NAME).unwrap();
        assert_eq!(c.as_bytes(), b"");
        let nul = b"ab\0cd  ";
        let c = in_str(nul.as_ptr() as *const c_char, nul.len(), MAX_NAME).unwrap();
        assert_eq!(c.as_bytes(), b"ab");
        let long = [b'g'; 32];
        assert_eq!(
            in_str(long.as_ptr() as *const c_char, 32, MAX_GROUP),
            Err(bad())
        );
        let mut padded = long.to_vec();
        padded.extend_from_slice(b"       ");
        let c = in_str(padded.as_ptr() as *const c_char, padded.len(), 32).unwrap();
        assert_eq!(c.as_bytes().len(), 32);
    }

    #[test]
    fn output_strings_are_padded_or_cut() {
        let mut buf = [b'x'; 8];
        out_str(buf.as_mut_ptr() as *mut c_char, 8, b"LINUX");
        assert_eq!(&buf, b"LINUX   ");
        let mut short = [b'x'; 3];
        out_str(short.as_mut_ptr() as *mut c_char, 3, b"LINUX64");
        assert_eq!(&short, b"LIN");
    }

    #[test]
    fn host_view_matches_the_c_struct() {
        assert_eq!(
            std::mem::align_of::<HostView>(),
            std::mem::align_of::<PvmHostInfo>()
        );
        assert_eq!(
            std::mem::align_of::<TaskView>(),
            std::mem::align_of::<PvmTaskInfo>()
        );
        assert_eq!(
            std::mem::align_of::<MboxView>(),
            std::mem::align_of::<PvmMboxInfo>()
        );
    }
}
