//! The core's C API (`mpbridge.h`). Every function goes through the panic
//! boundary and returns `MPB_OK` (0) or a negative `MPB_E*` code; the codes
//! each function can return are listed in `mpbridge.h` and below.

use crate::api::{my_id, world_ids, Context};
use crate::error::CoreError;
use crate::ffi_guard::guard;
use crate::lifecycle::{join, leave, Membership};
use crate::procid::ProcId;
use crate::ptr;
use crate::queue::Match;
use crate::trace;
use crate::Received;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Mutex;
use std::time::Duration;

pub const MPB_OK: c_int = 0;
pub const MPB_EINVAL: c_int = -1;
pub const MPB_ETRUNC: c_int = -2;
pub const MPB_ETIMEOUT: c_int = -3;
pub const MPB_ENOTINIT: c_int = -4;
pub const MPB_EMPI: c_int = -5;
pub const MPB_EPANIC: c_int = -6;
pub const MPB_ENOPEER: c_int = -7;
pub const MPB_ENOCTX: c_int = -8;

static MEMBER: Mutex<Option<Membership>> = Mutex::new(None);

fn code(e: &CoreError) -> c_int {
    match e {
        CoreError::NotInitialized | CoreError::Finalized => MPB_ENOTINIT,
        CoreError::InvalidArgument(_) | CoreError::Inconsistent(_) => MPB_EINVAL,
        CoreError::Truncated { .. } => MPB_ETRUNC,
        CoreError::Timeout => MPB_ETIMEOUT,
        CoreError::Mpi { .. } | CoreError::Spawn(_) => MPB_EMPI,
        CoreError::UnknownPeer(_) | CoreError::PeerEnded(_) => MPB_ENOPEER,
        CoreError::UnknownContext(_) => MPB_ENOCTX,
    }
}

fn report(call: &str, e: &CoreError) -> c_int {
    if !matches!(e, CoreError::Timeout | CoreError::Truncated { .. }) {
        eprintln!("mpbridge: {call}: {e}");
    }
    code(e)
}

fn peer(raw: c_int) -> Option<Option<ProcId>> {
    if raw == -1 {
        return Some(None);
    }
    u32::try_from(raw).ok().and_then(ProcId::from_raw).map(Some)
}

fn pattern(src: c_int, tag: c_int) -> Option<Match> {
    if tag < -1 {
        return None;
    }
    Some(Match::new(peer(src)?, (tag != -1).then_some(tag)))
}

fn context(ctx: c_int) -> Result<Context, CoreError> {
    // Checked by the call that uses it (one lock per call, not two).
    let id = u32::try_from(ctx).map_err(|_| CoreError::UnknownContext(ctx as u32))?;
    Ok(Context::by_id(id))
}

/// Joins the backend. Returns MPB_OK, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_init() -> c_int {
    guard("mpb_init", MPB_EPANIC, || {
        let mut m = MEMBER.lock().unwrap_or_else(|e| e.into_inner());
        if m.is_some() {
            return MPB_OK;
        }
        match join("core-c") {
            Ok(x) => {
                *m = Some(x);
                MPB_OK
            }
            Err(e) => report("mpb_init", &e),
        }
    })
}

/// Leaves the backend. Returns MPB_OK, MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_finalize() -> c_int {
    guard("mpb_finalize", MPB_EPANIC, || {
        let mut m = MEMBER.lock().unwrap_or_else(|e| e.into_inner());
        match m.take() {
            None => MPB_ENOTINIT,
            Some(x) => match leave(x) {
                Ok(()) => MPB_OK,
                Err(e) => report("mpb_finalize", &e),
            },
        }
    })
}

/// This process's id, or MPB_ENOTINIT.
#[no_mangle]
pub extern "C" fn mpb_myid() -> c_int {
    guard("mpb_myid", MPB_EPANIC, || match my_id() {
        Ok(id) => id.raw() as c_int,
        Err(e) => code(&e),
    })
}

/// Size of the static world, or MPB_ENOTINIT.
#[no_mangle]
pub extern "C" fn mpb_nprocs() -> c_int {
    guard("mpb_nprocs", MPB_EPANIC, || match world_ids() {
        Ok(ids) => ids.len() as c_int,
        Err(e) => code(&e),
    })
}

/// Id of world rank `rank`. Returns the id, MPB_EINVAL, MPB_ENOTINIT.
#[no_mangle]
pub extern "C" fn mpb_world_id(rank: c_int) -> c_int {
    guard("mpb_world_id", MPB_EPANIC, || match world_ids() {
        Ok(ids) => match usize::try_from(rank).ok().and_then(|r| ids.get(r)) {
            Some(id) => id.raw() as c_int,
            None => MPB_EINVAL,
        },
        Err(e) => code(&e),
    })
}

/// Creates or finds a context. Returns its handle (>= 0), MPB_EINVAL,
/// MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_context(name: *const c_char) -> c_int {
    guard("mpb_context", MPB_EPANIC, || {
        let Some(name) = crate::cstr::text(name) else {
            return MPB_EINVAL;
        };
        match Context::create(name) {
            Ok(c) => c.id() as c_int,
            Err(e) => report("mpb_context", &e),
        }
    })
}

/// Sends a message. Returns MPB_OK, MPB_EINVAL, MPB_ENOCTX, MPB_ENOPEER,
/// MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_send(
    ctx: c_int,
    dest: c_int,
    tag: c_int,
    buf: *const c_void,
    len: usize,
) -> c_int {
    guard("mpb_send", MPB_EPANIC, || {
        let (Some(Some(dest)), true, Some(data)) = (peer(dest), tag >= 0, ptr::bytes(buf, len))
        else {
            return MPB_EINVAL;
        };
        match context(ctx).and_then(|c| c.send(dest, tag, 0, data)) {
            Ok(()) => {
                if trace::on() {
                    trace::record(
                        "core",
                        trace::Event::Send {
                            to: dest,
                            tag,
                            bytes: len,
                        },
                    );
                }
                MPB_OK
            }
            Err(e) => report("mpb_send", &e),
        }
    })
}

/// Out-parameters of a receive: source, tag, length.
type RecvOut = (*mut c_int, *mut c_int, *mut usize);

/// A receive: the message already at the head of its sender's ring (what
/// most receives find) is taken here, inlined into the entry point, and
/// anything else waits in [`recv_wait`].
#[inline(always)]
fn recv_common(
    call: &str,
    ctx: c_int,
    pat: Option<Match>,
    buf: Option<&mut [u8]>,
    timeout: Option<Duration>,
    out: RecvOut,
) -> c_int {
    let (Some(pat), Some(b)) = (pat, buf) else {
        return MPB_EINVAL;
    };
    let c = match context(ctx) {
        Ok(c) => c,
        Err(e) => return report(call, &e),
    };
    match c.recv_ring_now(&pat, b) {
        Ok(Some(r)) => received(b.len(), r, out),
        Ok(None) => recv_wait(call, c, pat, b, timeout, out),
        Err(e) => report(call, &e),
    }
}

/// [`recv_common`] of a message not found at once.
#[inline(never)]
fn recv_wait(
    call: &str,
    c: Context,
    pat: Match,
    b: &mut [u8],
    timeout: Option<Duration>,
    out: RecvOut,
) -> c_int {
    let cap = b.len();
    match c.recv_into_truncating(pat, b, timeout) {
        Ok(r) => received(cap, r, out),
        Err(e) => report(call, &e),
    }
}

/// The result of a receive into a buffer of `cap` bytes that got `r`.
#[inline(always)]
fn received(cap: usize, r: Received, out: RecvOut) -> c_int {
    if r.len > cap {
        ptr::put(out.2, r.len);
        return MPB_ETRUNC;
    }
    if trace::on() {
        let (from, tag, bytes) = (r.source, r.tag, r.len);
        trace::record("core", trace::Event::Recv { from, tag, bytes });
    }
    ptr::put(out.0, r.source.raw() as c_int);
    ptr::put(out.1, r.tag);
    ptr::put(out.2, r.len);
    MPB_OK
}

/// Blocking receive. Returns MPB_OK, MPB_ETRUNC, MPB_EINVAL, MPB_ENOCTX,
/// MPB_ENOPEER (the named sender ended), MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_recv(
    ctx: c_int,
    src: c_int,
    tag: c_int,
    buf: *mut c_void,
    cap: usize,
    out_src: *mut c_int,
    out_tag: *mut c_int,
    out_len: *mut usize,
) -> c_int {
    guard("mpb_recv", MPB_EPANIC, || {
        let (pat, b) = (pattern(src, tag), ptr::bytes_mut(buf, cap));
        recv_common("mpb_recv", ctx, pat, b, None, (out_src, out_tag, out_len))
    })
}

/// Receive with a timeout in seconds. Returns MPB_OK, MPB_ETIMEOUT,
/// MPB_ETRUNC, MPB_EINVAL, MPB_ENOCTX, MPB_ENOPEER, MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_trecv(
    ctx: c_int,
    src: c_int,
    tag: c_int,
    buf: *mut c_void,
    cap: usize,
    timeout_s: f64,
    out_src: *mut c_int,
    out_tag: *mut c_int,
    out_len: *mut usize,
) -> c_int {
    guard("mpb_trecv", MPB_EPANIC, || {
        if !(timeout_s >= 0.0 && timeout_s.is_finite()) {
            return MPB_EINVAL;
        }
        let t = Some(Duration::from_secs_f64(timeout_s));
        let (pat, b) = (pattern(src, tag), ptr::bytes_mut(buf, cap));
        recv_common("mpb_trecv", ctx, pat, b, t, (out_src, out_tag, out_len))
    })
}

/// Non-blocking probe. Returns 1 (found), 0 (nothing), MPB_EINVAL,
/// MPB_ENOCTX, MPB_ENOTINIT, MPB_EMPI.
#[no_mangle]
pub extern "C" fn mpb_probe(
    ctx: c_int,
    src: c_int,
    tag: c_int,
    out_src: *mut c_int,
    out_tag: *mut c_int,
    out_len: *mut usize,
) -> c_int {
    guard("mpb_probe", MPB_EPANIC, || {
        let Some(pat) = pattern(src, tag) else {
            return MPB_EINVAL;
        };
        match context(ctx).and_then(|c| c.probe(pat)) {
            Ok(Some(r)) => {
                ptr::put(out_src, r.source.raw() as c_int);
                ptr::put(out_tag, r.tag);
                ptr::put(out_len, r.len);
                1
            }
            Ok(None) => 0,
            Err(e) => report("mpb_probe", &e),
        }
    })
}

/// Text for an MPB_* code; never NULL.
#[no_mangle]
pub extern "C" fn mpb_strerror(code: c_int) -> *const c_char {
    let s: &'static std::ffi::CStr = match code {
        MPB_OK => c"success",
        MPB_EINVAL => c"invalid argument",
        MPB_ETRUNC => c"message truncated",
        MPB_ETIMEOUT => c"timed out",
        MPB_ENOTINIT => c"mpbridge is not initialised",
        MPB_EMPI => c"MPI error",
        MPB_EPANIC => c"internal error",
        MPB_ENOPEER => c"no such process",
        MPB_ENOCTX => c"no such context",
        _ => c"unknown error code",
    };
    ptr::static_text(s)
}

/// The library version; never NULL.
#[no_mangle]
pub extern "C" fn mpb_version() -> *const c_char {
    ptr::static_text(c"0.1.0")
}
