//! The C entry points of task and machine queries (`pvm_tasks`,
//! `pvm_archcode`, `pvm_mstat`...), of the virtual-machine controls that a
//! fixed MPI job can only answer (`pvm_addhosts`, `pvm_halt`...), and of
//! trace masks.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry, text_arg, OwnedArray};
use crate::consts::{err, opt, tid as tidbits, tmask};
use crate::messages::LINUX64_DSIG;
use crate::ptr;
use crate::state::with_task;
use crate::task::Task;
use crate::{PvmError, PvmResult};
use shim_core::Lock;
use std::ffi::{c_char, c_int, c_void, CString};
use std::time::Duration;

/// The architecture name of every host of the machine.
const ARCH: &str = "LINUX64";
/// `TEV_MASK_LENGTH` of `pvmtev.h`: bytes of a trace mask.
const TMASK_LEN: usize = crate::tev::MASK_LEN;

// ---------------------------------------------------------------------------
// Tasks and the machine

/// One task, as `pvm_tasks` reports it.
#[repr(C)]
pub struct PvmTaskInfo {
    ti_tid: c_int,
    ti_ptid: c_int,
    ti_host: c_int,
    ti_flag: c_int,
    ti_a_out: *mut c_char,
    ti_pid: c_int,
}

// SAFETY: `ti_a_out` points into a string owned by the same table, which
// is only used under its lock.
unsafe impl Send for PvmTaskInfo {}

/// A task this one knows of.
struct Known {
    tid: i32,
    ptid: i32,
    host: i32,
    aout: String,
    pid: i32,
}

/// `ti_flag` of a task connected to the system (what libpvm reports for
/// a running task).
const TASK_FLAG: i32 = 4;

fn host_dtid(index: usize) -> i32 {
    ((index as i32) + 1) << 18
}

/// The tasks this one knows of: the ranks of the first program of the
/// launch (others are idle until a spawn claims them), itself, its parent
/// and its siblings. Tasks whose host is unknown here are reported on the
/// first host.
fn known_tasks(t: &Task) -> Vec<Known> {
    let host_of = |name: &str| t.machine.dtid_of_name(name).unwrap_or(host_dtid(0));
    let sibs = t.siblings.clone().unwrap_or_default();
    let parent = t.parent.unwrap_or(0);
    let me = t.me;
    let first_app = t.world.iter().map(|f| f.appnum).min().unwrap_or(0);
    let ptid_of = |tid: i32| {
        if tid == me || (parent != 0 && sibs.contains(&tid)) {
            parent
        } else {
            0
        }
    };
    let mut out: Vec<Known> = Vec::new();
    for (f, &tid) in t.world.iter().zip(&t.world_tids) {
        let related = tid == me || tid == parent || sibs.contains(&tid);
        if f.appnum != first_app && !related {
            continue;
        }
        let ptid = ptid_of(tid);
        out.push(Known {
            tid,
            ptid,
            host: host_of(&f.host),
            aout: if ptid != 0 {
                f.program.clone()
            } else {
                String::new()
            },
            pid: if tid == me {
                std::process::id() as i32
            } else {
                0
            },
        });
    }
    let my_host = host_of(&shim_core::mpi::processor_name());
    let mut extra = vec![me, parent];
    extra.extend(&sibs);
    for tid in extra {
        if tid <= 0 || out.iter().any(|k| k.tid == tid) {
            continue;
        }
        let ptid = ptid_of(tid);
        out.push(Known {
            tid,
            ptid,
            host: if tid == me {
                my_host
            } else {
                t.machine.host_of(tid)
            },
            aout: if ptid != 0 {
                crate::task::own_program()
            } else {
                String::new()
            },
            pid: if tid == me {
                std::process::id() as i32
            } else {
                0
            },
        });
    }
    out
}

/// Whether `where_` names a host of the machine (a bare host part).
fn is_host_of(t: &Task, where_: i32) -> bool {
    where_ > 0 && where_ & !tidbits::HOST == 0 && t.machine.by_dtid(where_).is_some()
}

/// Reports tasks: `where` 0 = every task, a host id (as in `pvm_config`)
/// = the tasks on that host, a tid = that task (none if unknown). Stores
/// the count in `*ntask` and a library-owned array (valid until the next
/// call) in `*taskp`. Tasks known here: the ranks of the launch's first
/// program, this task, its parent and its siblings. Returns PvmOk,
/// PvmNoHost (a `where` that is neither), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_tasks(
    where_: c_int,
    ntask: *mut c_int,
    taskp: *mut *mut PvmTaskInfo,
) -> c_int {
    static TABLE: OwnedArray<PvmTaskInfo, Vec<CString>> = OwnedArray::new();
    entry("pvm_tasks", || {
        let list = with_task(|t| {
            let all = known_tasks(t);
            if where_ == 0 {
                Ok(all)
            } else if tidbits::is_task(where_) {
                Ok(all.into_iter().filter(|k| k.tid == where_).collect())
            } else if is_host_of(t, where_) {
                Ok(all.into_iter().filter(|k| k.host == where_).collect())
            } else {
                Err(PvmError(err::NO_HOST))
            }
        })?;
        let names: Vec<CString> = list
            .iter()
            .map(|k| CString::new(k.aout.as_str()).unwrap_or_default())
            .collect();
        let infos = list
            .iter()
            .zip(&names)
            .map(|(k, n)| PvmTaskInfo {
                ti_tid: k.tid,
                ti_ptid: k.ptid,
                ti_host: k.host,
                ti_flag: TASK_FLAG,
                ti_a_out: n.as_ptr() as *mut c_char,
                ti_pid: k.pid,
            })
            .collect();
        TABLE.publish(names, infos, ntask, taskp);
        Ok(0)
    })
}

/// The data signature of architecture `arch` in the machine: "LINUX64"
/// (every host) gives 0x408c41, as PVM 3.4.6 reports it. Returns the code,
/// PvmBadParam (NULL), PvmNotFound (no host of that architecture).
#[no_mangle]
pub extern "C" fn pvm_archcode(arch: *mut c_char) -> c_int {
    entry("pvm_archcode", || {
        let a = ptr::c_str(arch).ok_or_else(bad)?;
        with_task(|_| Ok(()))?;
        if a == ARCH.as_bytes() {
            Ok(LINUX64_DSIG)
        } else {
            Err(PvmError(err::NOT_FOUND))
        }
    })
}

/// The first word of a hostfile-style line ("name opt=value ...").
fn host_word(p: *const c_char) -> Option<String> {
    let s = text_arg(p)?;
    Some(s.split_whitespace().next().unwrap_or("").to_string())
}

/// Whether `name` is a host of the machine (as `pvm_config` names them).
fn in_machine(t: &Task, name: &str) -> bool {
    !name.is_empty() && t.hosts().iter().any(|h| h == name)
}

/// Per-host results of `pvm_addhosts`/`pvm_delhosts`.
fn per_host(
    hosts: *mut *mut c_char,
    nhost: c_int,
    infos: *mut c_int,
    mut code: impl FnMut(&mut Task, &str) -> i32,
) -> PvmResult<i32> {
    if nhost < 1 {
        return Err(bad());
    }
    let names = ptr::items(hosts as *const *mut c_char, nhost as usize, 1).ok_or_else(bad)?;
    let codes: Vec<i32> = with_task(|t| {
        Ok(names
            .iter()
            .map(|&p| match host_word(p) {
                Some(n) if !n.is_empty() => code(t, &n),
                _ => err::BAD_PARAM,
            })
            .collect())
    })?;
    if let Some(out) = ptr::items_mut(infos, nhost as usize, 1) {
        out.copy_from_slice(&codes);
    }
    Ok(codes.iter().filter(|&&c| c >= 0).count() as i32)
}

/// Puts hosts of the launcher's allocation back into the machine (see
/// `hosts`): each `infos[i]` is the host id of a host that came back,
/// PvmDupHost for a host already in the machine, PvmCantStart for a host
/// outside the allocation, PvmBadParam for an empty name. Every task of
/// the job sees a host come back (when the launcher gives the job a shared
/// directory), and `PvmHostAdd` requests are answered. Returns the
/// number added, PvmBadParam (nhost < 1 or NULL hosts).
#[no_mangle]
pub extern "C" fn pvm_addhosts(hosts: *mut *mut c_char, nhost: c_int, infos: *mut c_int) -> c_int {
    entry("pvm_addhosts", || {
        per_host(hosts, nhost, infos, |t, n| t.add_host(n))
    })
}

/// Takes hosts out of the machine of every task of the job (when the
/// launcher gives it a shared directory; else of the caller's), ending the
/// tasks known to run there and answering `PvmHostDelete` requests for
/// them: each `infos[i]` is
/// PvmOk, PvmNoHost for a host not in the machine, PvmNotImpl for the
/// host of the job's first task (the machine cannot lose it), PvmBadParam
/// for an empty name. Returns the number deleted, PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_delhosts(hosts: *mut *mut c_char, nhost: c_int, infos: *mut c_int) -> c_int {
    entry("pvm_delhosts", || {
        per_host(hosts, nhost, infos, |t, n| t.delete_host(n))
    })
}

/// Status of host `host`: PvmOk for a host of the machine, else PvmNoHost;
/// PvmBadParam for NULL.
#[no_mangle]
pub extern "C" fn pvm_mstat(host: *mut c_char) -> c_int {
    entry("pvm_mstat", || {
        let name = text_arg(host).ok_or_else(bad)?;
        with_task(|t| {
            if in_machine(t, &name) {
                Ok(0)
            } else {
                Err(PvmError(err::NO_HOST))
            }
        })
    })
}

/// Shuts the virtual machine down: asks every task this one knows of
/// (see `pvm_tasks`) to end, as `pvm_kill` does (each ends at its next
/// PVM call), then leaves PVM; the calling process goes on, and later PVM
/// calls fail with PvmSysErr as they do in a task whose pvmd is gone.
/// Returns PvmOk, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_halt() -> c_int {
    entry("pvm_halt", || {
        with_task(|t| {
            let me = t.me;
            for k in known_tasks(t) {
                if k.tid != me {
                    let _ = t.kill(k.tid);
                }
            }
            Ok(())
        })?;
        if crate::state::leave() {
            ptr::detach_exit_status();
        }
        Ok(0)
    })
}

/// The machine is running (it is the MPI job): PvmDupHost, "a pvmd is
/// already running".
#[no_mangle]
pub extern "C" fn pvm_start_pvmd(_argc: c_int, _argv: *mut *mut c_char, _block: c_int) -> c_int {
    entry("pvm_start_pvmd", || Err(PvmError(err::DUP_HOST)))
}

/// Time of day on host `host` (a host id of `pvm_config`) and its
/// difference to the local clock (NULL outs allowed). The hosts of an MPI
/// job are taken as synchronised: the delta is 0. Returns PvmOk,
/// PvmNoHost.
#[no_mangle]
pub extern "C" fn pvm_hostsync(
    host: c_int,
    clk: *mut libc::timeval,
    delta: *mut libc::timeval,
) -> c_int {
    entry("pvm_hostsync", || {
        if !with_task(|t| Ok(is_host_of(t, host)))? {
            return Err(PvmError(err::NO_HOST));
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        ptr::put_timeval(clk, now);
        ptr::put_timeval(delta, Duration::ZERO);
        Ok(0)
    })
}

/// One descriptor, library-owned, that is always readable: a program that
/// `select()`s on it then calls `pvm_nrecv`/`pvm_probe` keeps working
/// (it polls; messages travel through MPI, not through descriptors).
/// Stores the array in `*fds`; returns 1, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_getfds(fds: *mut *mut c_int) -> c_int {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::os::unix::net::UnixStream;
    struct Ready {
        _ends: (UnixStream, UnixStream),
        fds: [c_int; 1],
    }
    static READY: Lock<Option<Ready>> = Lock::new(None);
    entry("pvm_getfds", || {
        with_task(|_| Ok(()))?;
        let mut g = READY.lock();
        if g.is_none() {
            let (mut a, b) = UnixStream::pair().map_err(|_| PvmError(err::SYS_ERR))?;
            a.write_all(b"!").map_err(|_| PvmError(err::SYS_ERR))?;
            let fd = b.as_raw_fd();
            *g = Some(Ready {
                _ends: (a, b),
                fds: [fd],
            });
        }
        if let Some(r) = g.as_mut() {
            ptr::put_ptr(fds, r.fds.as_mut_ptr());
        }
        Ok(1)
    })
}

/// Asks the pvmd to do a debugging operation; there is no pvmd: no
/// results. Stores 0 in `*nres`; returns PvmOk, PvmBadParam (narg < 1).
#[no_mangle]
pub extern "C" fn pvm_tickle(
    narg: c_int,
    _argp: *mut c_int,
    nres: *mut c_int,
    _resp: *mut c_int,
) -> c_int {
    entry("pvm_tickle", || {
        if narg < 1 {
            return Err(bad());
        }
        with_task(|_| Ok(()))?;
        ptr::put(nres, 0);
        Ok(0)
    })
}

/// The tasks that asked not to be killed by a reset (`PvmNoReset`): this
/// task, if it set the option (other tasks' options are not visible).
/// Stores a library-owned array in `*tids` and its length in `*ntids`;
/// returns PvmOk.
#[no_mangle]
pub extern "C" fn pvm_getnoresets(tids: *mut *mut c_int, ntids: *mut c_int) -> c_int {
    static LIST: Lock<Vec<c_int>> = Lock::new(Vec::new());
    entry("pvm_getnoresets", || {
        let mine = with_task(|t| Ok((t.me, t.msg.getopt(opt::NO_RESET).unwrap_or(0))))?;
        let mut g = LIST.lock();
        g.clear();
        if mine.1 != 0 {
            g.push(mine.0);
        }
        ptr::put_ptr(tids, g.as_mut_ptr());
        ptr::put(ntids, g.len() as c_int);
        Ok(0)
    })
}

/// Registering as the machine's hoster is not possible: hosts are those
/// the MPI launcher started. Returns PvmNotImpl.
#[no_mangle]
pub extern "C" fn pvm_reg_hoster() -> c_int {
    entry("pvm_reg_hoster", || Err(PvmError(err::NOT_IMPL)))
}

/// Registering as the task starter is not possible: tasks are started by
/// MPI. Returns PvmNotImpl.
#[no_mangle]
pub extern "C" fn pvm_reg_tasker() -> c_int {
    entry("pvm_reg_tasker", || Err(PvmError(err::NOT_IMPL)))
}

/// Registering as resource manager is not possible: MPI places tasks.
/// Returns PvmNotImpl (`*hip` untouched).
#[no_mangle]
pub extern "C" fn pvm_reg_rm(_hip: *mut *mut c_void) -> c_int {
    entry("pvm_reg_rm", || Err(PvmError(err::NOT_IMPL)))
}

/// Events are not sent to a tracer task: a traced run writes them to the
/// files of `MPBRIDGE_TRACE` (see `pvm_settmask`). Returns PvmNotImpl.
#[no_mangle]
pub extern "C" fn pvm_reg_tracer(
    _tctx: c_int,
    _ttag: c_int,
    _octx: c_int,
    _otag: c_int,
    _tmask: *mut c_char,
    _tbuf: c_int,
    _topt: c_int,
) -> c_int {
    entry("pvm_reg_tracer", || Err(PvmError(err::NOT_IMPL)))
}

fn mask_slot(who: c_int) -> PvmResult<usize> {
    match who {
        tmask::SELF => Ok(0),
        tmask::CHILD => Ok(1),
        _ => Err(bad()),
    }
}

/// Copies the trace mask of `who` (PvmTaskSelf, PvmTaskChild) into
/// `mask` (`TEV_MASK_LENGTH` bytes): every event selected when the process
/// traces (`MPBRIDGE_TRACE`) and the mask was not set, none otherwise.
/// Returns PvmOk, PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_gettmask(who: c_int, mask: *mut c_char) -> c_int {
    entry("pvm_gettmask", || {
        let slot = mask_slot(who)?;
        let out = ptr::items_mut(mask as *mut u8, TMASK_LEN, 1).ok_or_else(bad)?;
        out.copy_from_slice(&crate::tev::get(slot));
        Ok(0)
    })
}

/// Sets the trace mask of `who` (PvmTaskSelf, PvmTaskChild) from `mask`:
/// with `MPBRIDGE_TRACE` set, the task's mask selects which of its events
/// (PVM's `TEV_*` numbers) are written to its trace file. Returns PvmOk,
/// PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_settmask(who: c_int, mask: *mut c_char) -> c_int {
    entry("pvm_settmask", || {
        let slot = mask_slot(who)?;
        let inp = ptr::items(mask as *const u8, TMASK_LEN, 1).ok_or_else(bad)?;
        crate::tev::set(slot, inp);
        Ok(0)
    })
}
