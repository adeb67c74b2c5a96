//! The PVM 3.4 C ABI (`pvm3.h`). Every function returns what PVM documents:
//! a value >= 0 (often `PvmOk`, 0) on success, or a negative PVM error code,
//! which also goes to `pvm_errno` and, with `PvmAutoErr` set (the default),
//! to stderr as libpvm prints it. No panic crosses into C: a panic becomes
//! `PvmSysErr`.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, counts, entry, OwnedArray};
use crate::consts::{dt, err};
pub use crate::errors::pvm_errno;
use crate::errors::{perror_line, ERROR_SLOTS};
use crate::ops::Wait;
use crate::pack::{datatype_size, Encoding, MsgBuf};
use crate::ptr;
use crate::state::{blocking, finish, finish_quiet, leave, with_task, with_task_lazy};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int, c_long, c_short, c_uint, c_ulong, c_ushort, c_void};

/// Number of entries of `pvm_errlist` (C global `pvm_nerr`).
#[no_mangle]
pub static pvm_nerr: c_int = ERROR_SLOTS as c_int;

/// A table of C string pointers that C code may read from any thread.
#[repr(transparent)]
pub struct TextTable([*const c_char; ERROR_SLOTS]);

// SAFETY: the pointers refer to immutable static NUL-terminated texts.
unsafe impl Sync for TextTable {}

/// PVM's error texts by `-code` (C global `pvm_errlist`).
#[no_mangle]
pub static pvm_errlist: TextTable = TextTable(crate::errors::ERRLIST_C);

/// Enrols the caller if needed; returns its tid, or PvmSysErr when the MPI
/// backend cannot start.
#[no_mangle]
pub extern "C" fn pvm_mytid() -> c_int {
    entry("pvm_mytid", || with_task(|t| Ok(t.me)))
}

/// The parent's tid, or PvmNoParent (not printed, as in libpvm).
#[no_mangle]
pub extern "C" fn pvm_parent() -> c_int {
    guard("pvm_parent", err::SYS_ERR, || {
        finish_quiet(with_task(|t| t.parent.ok_or(PvmError(err::NO_PARENT))))
    })
}

/// Stores a pointer to the sibling tids (library-owned) in `*tids` and
/// returns their number, waiting for the list if this task was just
/// spawned. Returns the count or PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_siblings(tids: *mut *mut c_int) -> c_int {
    static SIBS: shim_core::Lock<Vec<c_int>> = shim_core::Lock::new(Vec::new());
    entry("pvm_siblings", || {
        let list = with_task(|t| t.siblings())?;
        let mut keep = SIBS.lock();
        *keep = list;
        ptr::put_ptr(tids, keep.as_mut_ptr());
        Ok(keep.len() as c_int)
    })
}

/// Leaves PVM; the process continues (its later exit status no longer
/// concerns the job). Returns PvmOk, or PvmSysErr if not enrolled.
#[no_mangle]
pub extern "C" fn pvm_exit() -> c_int {
    entry("pvm_exit", || {
        crate::tev::exited();
        if leave() {
            ptr::detach_exit_status();
            Ok(0)
        } else {
            Err(PvmError(err::SYS_ERR))
        }
    })
}

fn args_of(argv: *mut *mut c_char) -> Vec<String> {
    let mut out = Vec::new();
    if argv.is_null() {
        return out;
    }
    let mut i = 0usize;
    loop {
        let items = ptr::items(argv as *const *mut c_char, i + 1, 1).unwrap_or(&[]);
        let Some(&p) = items.get(i) else { break };
        match ptr::c_str(p) {
            Some(s) => out.push(String::from_utf8_lossy(s).into_owned()),
            None => break,
        }
        i += 1;
    }
    out
}

/// Starts `ntask` copies of `task` with `argv`; fills `tids` (successes
/// first, error codes after) and returns the number started, or PvmBadParam
/// / PvmSysErr. With `PvmTaskHost`, `where` names a host of the job (as
/// `pvm_config` lists them, or "." for this one) and the tasks start there;
/// with `PvmTaskArch`, an architecture. A host or architecture the job does
/// not have fills every slot with PvmNoHost (and returns 0); a program that
/// cannot be run, PvmNoFile; no spawn number or no room, PvmOutOfRes.
#[no_mangle]
pub extern "C" fn pvm_spawn(
    task: *mut c_char,
    argv: *mut *mut c_char,
    flag: c_int,
    r#where: *mut c_char,
    ntask: c_int,
    tids: *mut c_int,
) -> c_int {
    entry("pvm_spawn", || {
        let task = ptr::c_str(task).ok_or_else(bad)?;
        let task = String::from_utf8_lossy(task).into_owned();
        if ntask < 1 {
            return Err(bad());
        }
        let place = ptr::c_str(r#where).map(|w| String::from_utf8_lossy(w).into_owned());
        let slots = with_task(|t| match t.spawn_place(flag, place.as_deref()) {
            Ok(host) => t.spawn(&task, &args_of(argv), ntask, host.as_deref()),
            Err(e) => Ok(vec![e.0; ntask as usize]),
        })?;
        if let Some(out) = ptr::items_mut(tids, ntask as usize, 1) {
            out.copy_from_slice(&slots[..ntask as usize]);
        }
        Ok(slots.iter().filter(|&&t| t > 0).count() as c_int)
    })
}

/// Ends task `tid`. Returns PvmOk, PvmBadParam, PvmNoTask, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_kill(tid: c_int) -> c_int {
    entry("pvm_kill", || with_task(|t| t.kill(tid)).map(|_| 0))
}

/// PvmOk if `tid` is a running task, else PvmNoTask.
#[no_mangle]
pub extern "C" fn pvm_pstat(tid: c_int) -> c_int {
    entry("pvm_pstat", || {
        with_task(|t| {
            let known = tid == t.me
                || (crate::task::id_of(tid)
                    .is_some_and(|id| shim_core::api::is_linked(id).unwrap_or(false))
                    && !t.is_gone(tid));
            if known {
                Ok(0)
            } else {
                Err(PvmError(err::NO_TASK))
            }
        })
    })
}

/// The host id (as `pvm_config` lists it) of the host task `tid` runs on;
/// for a tid whose host is not known here, its host part (no validation,
/// as in libpvm).
#[no_mangle]
pub extern "C" fn pvm_tidtohost(tid: c_int) -> c_int {
    entry("pvm_tidtohost", || {
        Ok(with_task(|t| Ok(t.machine.host_of(tid))).unwrap_or(tid & crate::consts::tid::HOST))
    })
}

/// One host of the virtual machine, as `pvm_config` reports it.
#[repr(C)]
pub struct PvmHostInfo {
    hi_tid: c_int,
    hi_name: *mut c_char,
    hi_arch: *mut c_char,
    hi_speed: c_int,
    hi_dsig: c_int,
}

// SAFETY: the name pointers refer to strings owned by the same table (or
// static), which is only used under its lock.
unsafe impl Send for PvmHostInfo {}

/// Reports the virtual machine's hosts (see `hosts`: the cluster's hosts
/// and speeds when the launcher gave them, else the hosts the job runs
/// on): `*nhost`, `*narch` (1) and a library-owned array in `*hostp`.
/// Returns PvmOk or PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_config(
    nhost: *mut c_int,
    narch: *mut c_int,
    hostp: *mut *mut PvmHostInfo,
) -> c_int {
    static TABLE: OwnedArray<PvmHostInfo, Vec<std::ffi::CString>> = OwnedArray::new();
    static ARCH: &std::ffi::CStr = c"LINUX64";
    entry("pvm_config", || {
        let hosts = with_task(|t| {
            t.sync_machine();
            Ok(t.machine.present())
        })?;
        let names: Vec<std::ffi::CString> = hosts
            .iter()
            .map(|h| std::ffi::CString::new(h.name.as_str()).unwrap_or_default())
            .collect();
        let infos = names
            .iter()
            .zip(&hosts)
            .map(|(n, h)| PvmHostInfo {
                hi_tid: h.dtid,
                hi_name: n.as_ptr() as *mut c_char,
                hi_arch: ARCH.as_ptr() as *mut c_char,
                hi_speed: h.speed,
                hi_dsig: crate::messages::LINUX64_DSIG,
            })
            .collect();
        TABLE.publish(names, infos, nhost, hostp);
        ptr::put(narch, 1);
        Ok(0)
    })
}

/// Asks to be told about events: `PvmTaskExit` sends one message with tag
/// `msgtag` per task in `tids` when it exits (at once for tasks that are
/// gone); `PvmHostDelete` one per host id in `tids` when that host leaves
/// the machine (deleted, or found down; at once for a host not in it);
/// `PvmHostAdd` `cnt` messages (-1: no end; 0 ends the requests with this
/// tag), one each time a host comes into the machine, with the count of
/// new hosts and their ids; routes never change under MPI. Returns PvmOk, or
/// PvmBadParam for a negative tag, an unknown event, a count below 1 for
/// `PvmTaskExit`/`PvmHostDelete`/`PvmRouteDelete`, a tid that names no
/// task, or a missing tid array.
#[no_mangle]
pub extern "C" fn pvm_notify(what: c_int, msgtag: c_int, cnt: c_int, tids: *mut c_int) -> c_int {
    entry("pvm_notify", || {
        let kind = what & !crate::consts::notify::CANCEL;
        let takes_tids = matches!(
            kind,
            crate::consts::notify::TASK_EXIT
                | crate::consts::notify::HOST_DELETE
                | crate::consts::notify::ROUTE_DELETE
        );
        let list = match cnt {
            c if c > 0 && takes_tids => ptr::items(tids, c as usize, 1).ok_or_else(bad)?.to_vec(),
            _ => Vec::new(),
        };
        crate::ops::check_notify(what, msgtag, cnt, &list)?;
        with_task(|t| t.notify_counted(what, msgtag, cnt, &list)).map(|_| 0)
    })
}

/// Output of spawned tasks already reaches the launcher's terminal under
/// MPI; accepted for compatibility. Returns PvmOk.
#[no_mangle]
pub extern "C" fn pvm_catchout(_ff: *mut c_void) -> c_int {
    0
}

/// Frees the send buffer and makes a new one with `encoding`. Returns its
/// id, PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_initsend(encoding: c_int) -> c_int {
    entry("pvm_initsend", || with_task(|t| t.msg.initsend(encoding)))
}

/// Makes a buffer. Returns its id, PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_mkbuf(encoding: c_int) -> c_int {
    entry("pvm_mkbuf", || with_task(|t| t.msg.mkbuf(encoding)))
}

/// Frees a buffer. Returns PvmOk, PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_freebuf(bufid: c_int) -> c_int {
    entry("pvm_freebuf", || {
        with_task(|t| t.msg.freebuf(bufid)).map(|_| 0)
    })
}

/// The active send buffer (0 if none).
#[no_mangle]
pub extern "C" fn pvm_getsbuf() -> c_int {
    entry("pvm_getsbuf", || with_task(|t| Ok(t.msg.sbuf)))
}

/// The active receive buffer (0 if none).
#[no_mangle]
pub extern "C" fn pvm_getrbuf() -> c_int {
    entry("pvm_getrbuf", || with_task(|t| Ok(t.msg.rbuf)))
}

/// Makes `bufid` the send buffer. Returns the previous one, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setsbuf(bufid: c_int) -> c_int {
    entry("pvm_setsbuf", || with_task(|t| t.msg.setsbuf(bufid)))
}

/// Makes `bufid` the receive buffer. Returns the previous one,
/// PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setrbuf(bufid: c_int) -> c_int {
    entry("pvm_setrbuf", || with_task(|t| t.msg.setrbuf(bufid)))
}

/// Length, tag and source of a buffer (NULL outs allowed). Returns PvmOk,
/// PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_bufinfo(
    bufid: c_int,
    bytes: *mut c_int,
    msgtag: *mut c_int,
    tid: *mut c_int,
) -> c_int {
    entry("pvm_bufinfo", || {
        let (b, tag, src) = with_task_lazy(|t| t.msg.info(bufid))?;
        ptr::put(bytes, b);
        ptr::put(msgtag, tag);
        ptr::put(tid, src);
        Ok(0)
    })
}

/// Packs into the active send buffer: in place (address kept) for an
/// in-place buffer, copied otherwise.
fn pack<T>(
    p: *const T,
    nitem: c_int,
    stride: c_int,
    f: impl FnOnce(&mut MsgBuf, &[T], usize, usize) -> PvmResult<()>,
) -> PvmResult<i32> {
    let (n, s) = counts(nitem, stride)?;
    with_task(|t| {
        let buf = t.msg.sbuf_mut()?;
        if buf.encoding() == Encoding::InPlace {
            ptr::items(p, n, s).ok_or_else(bad)?;
            buf.pk_inplace(p as usize, std::mem::size_of::<T>(), n, s)?;
        } else {
            f(buf, ptr::items(p, n, s).ok_or_else(bad)?, n, s)?;
        }
        Ok(0)
    })
}

/// Unpacks from the active receive buffer. The first unpack of a buffer
/// whose large payload is still in MPI receives it straight into the
/// caller's items when it takes the whole body as one plain copy.
fn unpack<T>(
    p: *mut T,
    nitem: c_int,
    stride: c_int,
    f: impl FnOnce(&mut MsgBuf, &mut [T], usize, usize) -> PvmResult<()>,
) -> PvmResult<i32> {
    let (n, s) = counts(nitem, stride)?;
    with_task_lazy(|t| {
        if t.msg.lazy_pending() {
            let size = std::mem::size_of::<T>();
            if s == 1 {
                let bytes = n.checked_mul(size).ok_or_else(bad)?;
                let out = ptr::items_mut(p as *mut u8, bytes, 1).ok_or_else(bad)?;
                if t.msg.unpack_lazy(out, size == 1)? {
                    return Ok(0);
                }
            }
            t.msg.materialize()?;
        }
        let buf = t.msg.rbuf_mut()?;
        f(buf, ptr::items_mut(p, n, s).ok_or_else(bad)?, n, s)?;
        Ok(0)
    })
}

macro_rules! pack_pair {
    ($pk:ident, $upk:ident, $c:ty, $rust:ty, $mpk:ident, $mupk:ident) => {
        /// Packs `nitem` items every `stride`-th into the send buffer.
        /// Returns PvmOk, PvmBadParam, PvmNoBuf, PvmOverflow (XDR long).
        #[no_mangle]
        pub extern "C" fn $pk(p: *mut $c, nitem: c_int, stride: c_int) -> c_int {
            entry(stringify!($pk), || {
                pack(p as *const $rust, nitem, stride, |b, d, n, s| {
                    b.$mpk(d, n, s)
                })
            })
        }

        /// Unpacks `nitem` items into every `stride`-th slot from the
        /// receive buffer. Returns PvmOk, PvmBadParam, PvmNoBuf, PvmNoData.
        #[no_mangle]
        pub extern "C" fn $upk(p: *mut $c, nitem: c_int, stride: c_int) -> c_int {
            entry(stringify!($upk), || {
                unpack(p as *mut $rust, nitem, stride, |b, d, n, s| {
                    b.$mupk(d, n, s)
                })
            })
        }
    };
}

pack_pair!(pvm_pkbyte, pvm_upkbyte, c_char, u8, pk_byte, upk_byte);
pack_pair!(pvm_pkshort, pvm_upkshort, c_short, i16, pk_short, upk_short);
pack_pair!(
    pvm_pkushort,
    pvm_upkushort,
    c_ushort,
    u16,
    pk_ushort,
    upk_ushort
);
pack_pair!(pvm_pkint, pvm_upkint, c_int, i32, pk_int, upk_int);
pack_pair!(pvm_pkuint, pvm_upkuint, c_uint, u32, pk_uint, upk_uint);
pack_pair!(pvm_pklong, pvm_upklong, c_long, i64, pk_long, upk_long);
pack_pair!(pvm_pkulong, pvm_upkulong, c_ulong, u64, pk_ulong, upk_ulong);
pack_pair!(pvm_pkfloat, pvm_upkfloat, f32, f32, pk_float, upk_float);
pack_pair!(pvm_pkdouble, pvm_upkdouble, f64, f64, pk_double, upk_double);
pack_pair!(pvm_pkcplx, pvm_upkcplx, f32, [f32; 2], pk_cplx, upk_cplx);
pack_pair!(
    pvm_pkdcplx,
    pvm_upkdcplx,
    f64,
    [f64; 2],
    pk_dcplx,
    upk_dcplx
);

/// Packs a C string. Returns PvmOk, PvmBadParam, PvmNoBuf, PvmNotImpl (in
/// place).
#[no_mangle]
pub extern "C" fn pvm_pkstr(s: *mut c_char) -> c_int {
    entry("pvm_pkstr", || {
        let s = ptr::c_str(s).ok_or_else(bad)?;
        with_task(|t| t.msg.sbuf_mut()?.pk_str(s)).map(|_| 0)
    })
}

/// Unpacks a string into `s` (which must have room). Returns PvmOk,
/// PvmBadParam, PvmNoBuf, PvmNoData.
#[no_mangle]
pub extern "C" fn pvm_upkstr(s: *mut c_char) -> c_int {
    entry("pvm_upkstr", || {
        if s.is_null() {
            return Err(bad());
        }
        let text = with_task(|t| t.msg.rbuf_mut()?.upk_str())?;
        ptr::put_c_string(s, &text);
        Ok(0)
    })
}

/// Sends the active send buffer. Returns PvmOk, PvmBadParam, PvmNoBuf,
/// PvmSysErr; a tid nobody has is not an error (the message is dropped).
#[no_mangle]
pub extern "C" fn pvm_send(tid: c_int, msgtag: c_int) -> c_int {
    entry("pvm_send", || {
        with_task(|t| t.send(tid, msgtag, ptr::IN_PLACE)).map(|_| 0)
    })
}

/// Sends the active send buffer to every listed task once, never to the
/// caller. Returns PvmOk, PvmBadParam, PvmNoBuf, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_mcast(tids: *mut c_int, ntask: c_int, msgtag: c_int) -> c_int {
    entry("pvm_mcast", || {
        if ntask < 0 {
            return Err(bad());
        }
        let list = ptr::items(tids, ntask as usize, 1)
            .ok_or_else(bad)?
            .to_vec();
        with_task(|t| t.mcast(&list, msgtag, ptr::IN_PLACE)).map(|_| 0)
    })
}

/// Waits for a message (tid and tag -1 = any). Returns its buffer id,
/// PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_recv(tid: c_int, msgtag: c_int) -> c_int {
    entry("pvm_recv", || {
        if let Some(r) = crate::handlers::hooked_receive(tid, msgtag, Wait::Forever, false) {
            return r;
        }
        blocking(|t| t.receive(tid, msgtag, Wait::Forever))
    })
}

/// Receives a message if one is there. Returns its buffer id, 0 (none),
/// PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_nrecv(tid: c_int, msgtag: c_int) -> c_int {
    entry("pvm_nrecv", || {
        if let Some(r) = crate::handlers::hooked_receive(tid, msgtag, Wait::Poll, false) {
            return r;
        }
        blocking(|t| t.receive(tid, msgtag, Wait::Poll))
    })
}

/// Waits up to `tmout` (NULL: forever) for a message. Returns its buffer
/// id, 0 (timed out), PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_trecv(tid: c_int, msgtag: c_int, tmout: *mut libc::timeval) -> c_int {
    entry("pvm_trecv", || {
        let wait = match ptr::timeval(tmout).ok_or_else(bad)? {
            None => Wait::Forever,
            Some(d) if d.is_zero() => Wait::Poll,
            Some(d) => Wait::For(d),
        };
        if let Some(r) = crate::handlers::hooked_receive(tid, msgtag, wait, false) {
            return r;
        }
        blocking(|t| t.receive(tid, msgtag, wait))
    })
}

/// Whether a matching message arrived: its buffer id (it stays queued), or
/// 0. Returns PvmBadParam, PvmSysErr on failure.
#[no_mangle]
pub extern "C" fn pvm_probe(tid: c_int, msgtag: c_int) -> c_int {
    entry("pvm_probe", || {
        if let Some(r) = crate::handlers::hooked_receive(tid, msgtag, Wait::Poll, true) {
            return r;
        }
        blocking(|t| t.probe(tid, msgtag))
    })
}

/// Sends `len` items of type `datatype` straight from `buf`. Returns PvmOk,
/// PvmBadParam, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_psend(
    tid: c_int,
    msgtag: c_int,
    buf: *mut c_void,
    len: c_int,
    datatype: c_int,
) -> c_int {
    entry("pvm_psend", || {
        let size = datatype_size(datatype).ok_or_else(bad)?;
        if len < 0 {
            return Err(bad());
        }
        let n = (len as usize).checked_mul(size).ok_or_else(bad)?;
        let bytes = ptr::items(buf as *const u8, n, 1).ok_or_else(bad)?;
        with_task(|t| t.psend(tid, msgtag, bytes)).map(|_| 0)
    })
}

/// Receives a message straight into `buf` (up to `len` items, the rest
/// dropped); `*atid`, `*atag`, `*alen` (bytes) tell what came. Returns
/// PvmOk, PvmBadParam, PvmNotImpl (PVM_STR), PvmSysErr.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pvm_precv(
    tid: c_int,
    msgtag: c_int,
    buf: *mut c_void,
    len: c_int,
    datatype: c_int,
    atid: *mut c_int,
    atag: *mut c_int,
    alen: *mut c_int,
) -> c_int {
    entry("pvm_precv", || {
        if datatype == dt::STR {
            return Err(PvmError(err::NOT_IMPL));
        }
        let size = datatype_size(datatype).ok_or_else(bad)?;
        if len < 0 {
            return Err(bad());
        }
        let n = (len as usize).checked_mul(size).ok_or_else(bad)?;
        let out = ptr::items_mut(buf as *mut u8, n, 1).ok_or_else(bad)?;
        let (src, tag, full) = blocking(|t| t.precv(tid, msgtag, out))?;
        ptr::put(atid, src);
        ptr::put(atag, tag);
        ptr::put(alen, full as c_int);
        Ok(0)
    })
}

/// Sets an option; returns its previous value, or PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_setopt(what: c_int, val: c_int) -> c_int {
    entry("pvm_setopt", || with_task(|t| t.msg.setopt(what, val)))
}

/// An option's value, or PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_getopt(what: c_int) -> c_int {
    entry("pvm_getopt", || with_task(|t| t.msg.getopt(what)))
}

/// Prints `msg` and the text of `pvm_errno` to stderr. Returns PvmOk.
#[no_mangle]
pub extern "C" fn pvm_perror(msg: *mut c_char) -> c_int {
    guard("pvm_perror", err::SYS_ERR, || {
        let text = ptr::c_str(msg)
            .map(|m| String::from_utf8_lossy(m).into_owned())
            .unwrap_or_default();
        let code = crate::ptr::errno();
        let tid = with_task(|t| Ok(t.me)).ok();
        eprintln!("{}", perror_line(tid, &text, code));
        0
    })
}

/// The PVM version string, "3.4.6".
#[no_mangle]
pub extern "C" fn pvm_version() -> *mut c_char {
    c"3.4.6".as_ptr() as *mut c_char
}

/// The current context.
#[no_mangle]
pub extern "C" fn pvm_getcontext() -> c_int {
    entry("pvm_getcontext", || with_task(|t| Ok(t.msg.context)))
}

/// Makes `ctx` current; returns the previous one, or PvmBadParam (negative
/// or one of PVM's system contexts).
#[no_mangle]
pub extern "C" fn pvm_setcontext(ctx: c_int) -> c_int {
    entry("pvm_setcontext", || {
        if !(0..crate::consts::ctx::SYSCTX_DG).contains(&ctx) {
            return Err(bad());
        }
        with_task(|t| Ok(std::mem::replace(&mut t.msg.context, ctx)))
    })
}

/// A new context id: this task's local part and a counter, so ids made by
/// different tasks of one batch differ. Returns the id, or PvmOutOfRes
/// after 31 contexts.
#[no_mangle]
pub extern "C" fn pvm_newcontext() -> c_int {
    entry("pvm_newcontext", || {
        with_task(|t| {
            let n = t.msg.next_context;
            if n > 31 {
                return Err(PvmError(err::OUT_OF_RES));
            }
            t.msg.next_context += 1;
            Ok(((t.me & 0x3fff) << 5) | n)
        })
    })
}

/// Releases a context. Returns PvmOk, PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_freecontext(ctx: c_int) -> c_int {
    entry(
        "pvm_freecontext",
        || if ctx < 0 { Err(bad()) } else { Ok(0) },
    )
}

/// Sleeps `secs` seconds. Returns 0.
#[no_mangle]
pub extern "C" fn pvmsleep(secs: c_int) -> c_int {
    std::thread::sleep(std::time::Duration::from_secs(secs.max(0) as u64));
    0
}

/// Wall-clock time into `*tm`. Returns 0, or -1 for NULL.
#[no_mangle]
pub extern "C" fn pvmgetclock(tm: *mut libc::timeval) -> c_int {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    if ptr::put_timeval(tm, now) {
        0
    } else {
        -1
    }
}

/// libpvm's error hook: sets `pvm_errno`, reports as `PvmAutoErr` says,
/// and returns `code`.
#[no_mangle]
pub extern "C" fn lpvmerr(f: *const c_char, code: c_int) -> c_int {
    let name = ptr::c_str(f)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_default();
    guard("lpvmerr", code, || finish(&name, Err(PvmError(code))))
}

/// The text of `pvm_errno` (static).
#[no_mangle]
pub extern "C" fn pvm_strerror() -> *const c_char {
    crate::errors::error_text_c(crate::ptr::errno())
}
