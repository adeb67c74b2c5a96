//! The rest of PVM's C API (`pvm3.h`): message headers (`pvm_getminfo`,
//! `pvm_setminfo`), messages inside messages (`pvm_pkmesg`...), the custom
//! matcher of the receive calls (`pvm_recvf`), message handlers
//! (`pvm_addmhf`), task and machine queries (`pvm_tasks`, `pvm_archcode`,
//! `pvm_mstat`...), the virtual-machine controls that a fixed MPI job can
//! only answer (`pvm_addhosts`, `pvm_halt`...), `pvm_export`, signals,
//! trace masks, the mailbox entry points (served by [`crate::mbox`]) and
//! the internal entry the C glue of `pvm_packf`/`pvm_unpackf` calls.
//!
//! Callbacks: a matcher installed with `pvm_recvf` and a message handler
//! installed with `pvm_addmhf` may call PVM functions (`pvm_getminfo`,
//! `pvm_setrbuf`, `pvm_upkint`...). The task lives behind one non-reentrant
//! lock, so callbacks are never called while it is held: the receive calls
//! take the path of [`hooked_receive`] whenever a matcher or a handler is
//! installed, which alternates between short locked steps (collect
//! arrivals, take the chosen message) and unlocked calls of the callbacks.
//!
//! Every exported function is a panic boundary and reports failures as
//! libpvm does (`pvm_errno`, and a line on stderr as `PvmAutoErr` says).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::consts::{ctx as sysctx, dt, err, opt, tid as tidbits, tmask};
use crate::msgstate::Buf;
use crate::ops::{Outcome, Wait};
use crate::pack::{Encoding, MsgBuf};
use crate::ptr;
use crate::state::{blocking, finish, finish_quiet, with_task};
use crate::task::{from_core, tid_of, Task};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use shim_core::{CoreError, Lock, Match};
use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A matching function for `pvm_recvf`: `f(bufid, tid, tag)`.
pub type Matcher = extern "C" fn(c_int, c_int, c_int) -> c_int;
/// A message handler for `pvm_addmhf`: `f(bufid)`.
pub type HandlerFn = extern "C" fn(c_int) -> c_int;

/// Data signature PVM 3.4.6 reports for LINUX64 (`hi_dsig`,
/// `pvm_archcode("LINUX64")`, `pvmminfo.enc` of a raw message).
pub const LINUX64_DSIG: i32 = 0x0040_8c41;
/// `pvmminfo.enc` of an XDR (`PvmDataDefault`) message.
pub const ENC_XDR: i32 = 0x1000_0000;
/// `pvmminfo.enc` of a `PvmDataInPlace` message.
pub const ENC_INPLACE: i32 = 0x2000_0000;
/// The architecture name of every host of the machine.
const ARCH: &str = "LINUX64";
/// How long a receive with callbacks waits for arrivals between looks at
/// system messages.
const SLICE: Duration = Duration::from_millis(20);
/// `TEV_MASK_LENGTH` of `pvmtev.h`: bytes of a trace mask.
const TMASK_LEN: usize = crate::tev::MASK_LEN;

fn bad() -> PvmError {
    PvmError(err::BAD_PARAM)
}

/// Runs an entry point: panic boundary, PVM's error reporting, then any
/// message handlers whose messages arrived during the call.
fn entry(name: &str, f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    let r = guard(name, err::SYS_ERR, || finish(name, f()));
    dispatch_handlers();
    r
}

/// Like [`entry`], but the codes in `quiet` only set `pvm_errno` (libpvm
/// does not print them for these calls).
fn entry_quiet(name: &str, quiet: &[i32], f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    let r = guard(name, err::SYS_ERR, || match f() {
        Err(PvmError(c)) if quiet.contains(&c) => finish_quiet(Err(PvmError(c))),
        r => finish(name, r),
    });
    dispatch_handlers();
    r
}

fn text_arg(p: *const c_char) -> Option<String> {
    ptr::c_str(p).map(|s| String::from_utf8_lossy(s).into_owned())
}

// ---------------------------------------------------------------------------
// Message headers (pvm_getminfo / pvm_setminfo)

/// Header fields a buffer carries beyond what the buffer table keeps: the
/// wait id and a destination set with `pvm_setminfo` (or carried by a
/// message unpacked with `pvm_upkmesg` or read from the mailbox).
#[derive(Clone, Copy, Debug, Default)]
struct Extra {
    wid: i32,
    dst: Option<i32>,
}

static EXTRA: Lock<BTreeMap<i32, Extra>> = Lock::new(BTreeMap::new());

/// Records extra header fields for buffer `id`, forgetting those of
/// buffers that no longer exist.
fn set_extra(t: &Task, id: i32, x: Extra) {
    let mut g = EXTRA.lock();
    g.retain(|k, _| t.msg.get(*k).is_ok());
    g.insert(id, x);
}

/// `pvmminfo.enc` for an encoding.
pub fn enc_code(e: Encoding) -> i32 {
    match e {
        Encoding::Default => ENC_XDR,
        Encoding::InPlace => ENC_INPLACE,
        Encoding::Raw => LINUX64_DSIG,
    }
}

/// The encoding of a `pvmminfo.enc` value (anything else than XDR or in
/// place is a native data signature: raw).
pub fn enc_of_code(code: i32) -> Encoding {
    match code {
        ENC_XDR => Encoding::Default,
        ENC_INPLACE => Encoding::InPlace,
        _ => Encoding::Raw,
    }
}

/// The header of a buffer as `struct pvmminfo` lists it:
/// `[len, ctx, tag, wid, enc, crc, src, dst]`.
pub fn minfo(t: &Task, id: i32) -> PvmResult<[i32; 8]> {
    let b = t.msg.get(id)?;
    let x = EXTRA.lock().get(&id).copied().unwrap_or_default();
    // Buffers made here (the send buffer, `pvm_mkbuf`) have no receiver;
    // arrived messages were addressed to this task.
    let local = id == t.msg.sbuf
        || (b.src == t.me && b.tag == 0 && id != t.msg.rbuf && !t.msg.queued.contains(&id));
    let dst = if local { 0 } else { t.me };
    Ok([
        b.msg.byte_len() as i32,
        b.ctx,
        b.tag,
        x.wid,
        enc_code(b.msg.encoding()),
        0,
        b.src,
        x.dst.unwrap_or(dst),
    ])
}

/// Copies `pvmminfo` fields from a caller's struct (8 ints).
fn read_minfo(info: *const c_void) -> PvmResult<[i32; 8]> {
    let s = ptr::items(info as *const c_int, 8, 1).ok_or_else(bad)?;
    let mut a = [0; 8];
    a.copy_from_slice(s);
    Ok(a)
}

/// Header information of a message (`struct pvmminfo`: len ctx tag wid enc
/// crc src dst); `enc` is 0x10000000 for XDR, 0x20000000 for in place and
/// the data signature for raw. Works on queued (probed) messages, received
/// ones and send buffers. Returns PvmOk, PvmBadParam (bufid <= 0 or NULL
/// info), PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_getminfo(bufid: c_int, info: *mut c_void) -> c_int {
    entry("pvm_getminfo", || {
        if bufid <= 0 {
            return Err(bad());
        }
        let h = with_task(|t| minfo(t, bufid))?;
        let out = ptr::items_mut(info as *mut c_int, 8, 1).ok_or_else(bad)?;
        out.copy_from_slice(&h);
        Ok(0)
    })
}

/// Sets the ctx, tag, wid, src and dst of a message's header (len, enc and
/// crc are kept); `pvm_getminfo` reports them, `pvm_bufinfo` reports the
/// new tag and source, and a queued (probed) message is then matched by
/// the receive calls with its new source, tag and context. The wait id
/// does not travel with a sent message under MPI. Returns PvmOk,
/// PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setminfo(bufid: c_int, info: *mut c_void) -> c_int {
    entry("pvm_setminfo", || {
        if bufid <= 0 {
            return Err(bad());
        }
        let h = read_minfo(info)?;
        with_task(|t| {
            let b = t.msg.get_mut(bufid)?;
            b.ctx = h[1];
            b.tag = h[2];
            b.src = h[6];
            set_extra(
                t,
                bufid,
                Extra {
                    wid: h[3],
                    dst: Some(h[7]),
                },
            );
            Ok(0)
        })
    })
}

/// The wait id of a message (PVM 3.3). Returns it, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_getmwid(bufid: c_int) -> c_int {
    entry("pvm_getmwid", || {
        if bufid <= 0 {
            return Err(bad());
        }
        with_task(|t| minfo(t, bufid).map(|h| h[3]))
    })
}

/// Sets the wait id of a message (PVM 3.3). Returns PvmOk, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setmwid(bufid: c_int, waitid: c_int) -> c_int {
    entry("pvm_setmwid", || {
        if bufid <= 0 {
            return Err(bad());
        }
        with_task(|t| {
            t.msg.get(bufid)?;
            let mut x = EXTRA.lock().get(&bufid).copied().unwrap_or_default();
            x.wid = waitid;
            set_extra(t, bufid, x);
            Ok(0)
        })
    })
}

// ---------------------------------------------------------------------------
// Messages inside messages (pvm_pkmesg / pvm_pkmesgbody / pvm_upkmesg)

fn read_in_place(addr: usize, size: usize, nitem: usize, stride: usize) -> Vec<u8> {
    ptr::read_strided(addr, size, nitem, stride)
}

/// The header and the bytes of buffer `id` (in-place data read now).
fn header_and_body(t: &Task, id: i32) -> PvmResult<([i32; 8], Vec<u8>, Encoding)> {
    let mut h = minfo(t, id)?;
    let b = t.msg.get(id)?;
    b.msg.whole()?;
    let body = b.msg.wire(&read_in_place).into_owned();
    h[0] = body.len() as i32;
    Ok((h, body, b.msg.encoding()))
}

/// Checks the message to pack and the active send buffer.
fn pack_source(t: &Task, bufid: i32) -> PvmResult<([i32; 8], Vec<u8>, Encoding)> {
    if bufid <= 0 {
        return Err(bad());
    }
    let parts = header_and_body(t, bufid)?;
    if t.msg.sbuf == 0 {
        return Err(PvmError(err::NO_BUF));
    }
    if t.msg.sbuf == bufid {
        return Err(bad());
    }
    Ok(parts)
}

/// Packs message `bufid` (header and body) into the active send buffer;
/// `pvm_upkmesg` gets it back whole. Returns PvmOk, PvmBadParam (bufid <= 0
/// or the send buffer itself), PvmNoSuchBuf, PvmNoBuf.
#[no_mangle]
pub extern "C" fn pvm_pkmesg(bufid: c_int) -> c_int {
    entry("pvm_pkmesg", || {
        with_task(|t| {
            let (h, body, _) = pack_source(t, bufid)?;
            let out = t.msg.sbuf_mut()?;
            out.pk_int(&h, 8, 1)?;
            out.pk_byte(&body, body.len(), 1)?;
            Ok(0)
        })
    })
}

/// Appends the body of message `bufid` to the active send buffer (the two
/// encodings must agree: XDR with XDR, raw or in place with raw or in
/// place). Returns PvmOk, PvmBadParam, PvmNoSuchBuf, PvmNoBuf,
/// PvmMismatch.
#[no_mangle]
pub extern "C" fn pvm_pkmesgbody(bufid: c_int) -> c_int {
    entry("pvm_pkmesgbody", || {
        with_task(|t| {
            let (_, body, enc) = pack_source(t, bufid)?;
            let out = t.msg.sbuf_mut()?;
            let xdr = |e: Encoding| e == Encoding::Default;
            if xdr(enc) != xdr(out.encoding()) {
                return Err(PvmError(err::MISMATCH));
            }
            out.pk_byte(&body, body.len(), 1)?;
            Ok(0)
        })
    })
}

/// Unpacks a message packed with `pvm_pkmesg` from the active receive
/// buffer into a new buffer with the original header. Returns the new
/// buffer id, PvmNoBuf, PvmNoData, PvmBadMsg.
#[no_mangle]
pub extern "C" fn pvm_upkmesg() -> c_int {
    entry("pvm_upkmesg", || {
        with_task(|t| {
            let rb = t.msg.rbuf_mut()?;
            let mut h = [0i32; 8];
            rb.upk_int(&mut h, 8, 1)?;
            let len = usize::try_from(h[0]).map_err(|_| PvmError(err::BAD_MSG))?;
            let mut body = vec![0u8; len];
            rb.upk_byte(&mut body, len, 1)?;
            let id = t.msg.add(Buf {
                msg: MsgBuf::received(enc_of_code(h[4]), body),
                tag: h[2],
                src: h[6],
                ctx: h[1],
            });
            set_extra(
                t,
                id,
                Extra {
                    wid: h[3],
                    dst: Some(h[7]),
                },
            );
            Ok(id)
        })
    })
}

/// A message as the mailbox stores it: header words, then the body.
pub(crate) fn message_blob(t: &Task, id: i32) -> PvmResult<Vec<u8>> {
    let (h, body, _) = header_and_body(t, id)?;
    let mut v = Vec::with_capacity(32 + body.len());
    for w in h {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v.extend_from_slice(&body);
    Ok(v)
}

/// The header and body of a stored message.
pub(crate) fn parse_blob(blob: &[u8]) -> PvmResult<([i32; 8], &[u8])> {
    if blob.len() < 32 {
        return Err(PvmError(err::BAD_MSG));
    }
    let mut h = [0i32; 8];
    for (i, w) in h.iter_mut().enumerate() {
        let mut b = [0u8; 4];
        b.copy_from_slice(&blob[i * 4..i * 4 + 4]);
        *w = i32::from_le_bytes(b);
    }
    Ok((h, &blob[32..]))
}

/// A stored message as a new buffer of this task.
pub(crate) fn buffer_from_blob(t: &mut Task, blob: &[u8]) -> PvmResult<i32> {
    let (h, body) = parse_blob(blob)?;
    let id = t.msg.add(Buf {
        msg: MsgBuf::received(enc_of_code(h[4]), body.to_vec()),
        tag: h[2],
        src: h[6],
        ctx: h[1],
    });
    set_extra(
        t,
        id,
        Extra {
            wid: h[3],
            dst: Some(h[7]),
        },
    );
    Ok(id)
}

// ---------------------------------------------------------------------------
// The custom matcher (pvm_recvf) and message handlers (pvm_addmhf)

static MATCHER: Lock<Option<Matcher>> = Lock::new(None);

#[derive(Clone, Copy)]
struct Handler {
    src: i32,
    tag: i32,
    ctx: i32,
    f: HandlerFn,
}

/// Handlers by id (`None`: a free id).
static HANDLERS: Lock<Vec<Option<Handler>>> = Lock::new(Vec::new());
/// Whether any handler is installed (checked without a lock on hot paths).
static HAVE_HANDLERS: AtomicBool = AtomicBool::new(false);
/// Messages taken for a handler, waiting to be handed to it outside the
/// task lock.
static PENDING: Lock<VecDeque<(i32, HandlerFn)>> = Lock::new(VecDeque::new());
/// Whether a matcher is installed, or messages wait for their handler
/// (checked without a lock on the receive calls' path).
static MATCHER_ON: AtomicBool = AtomicBool::new(false);
static PENDING_ON: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Set while handlers run, so a PVM call made by a handler does not
    /// start dispatching again.
    static DISPATCHING: Cell<bool> = const { Cell::new(false) };
}

/// The matcher installed with `pvm_recvf`, if any (`None`: PVM's default
/// matching by tid, tag and context).
pub fn matcher() -> Option<Matcher> {
    *MATCHER.lock()
}

/// Whether a receive must take [`hooked_receive`]'s path.
fn callbacks_active() -> bool {
    MATCHER_ON.load(Ordering::Acquire)
        || HAVE_HANDLERS.load(Ordering::Acquire)
        || PENDING_ON.load(Ordering::Acquire)
}

/// The handler for an arrived message, if one matches its src, tag and
/// context (system contexts never go to handlers).
fn handler_for(t: &Task, id: i32) -> Option<HandlerFn> {
    let b = t.msg.get(id).ok()?;
    if b.ctx >= sysctx::SYSCTX_DG {
        return None;
    }
    let hs = HANDLERS.lock();
    hs.iter().flatten().find_map(|h| {
        let fits = (h.src == -1 || h.src == b.src)
            && (h.tag == -1 || h.tag == b.tag)
            && (h.ctx == -1 || h.ctx == b.ctx);
        fits.then_some(h.f)
    })
}

/// Files an arrived message under a buffer id: queued, or set aside for
/// its handler.
fn enqueue_arrival(t: &mut Task, m: shim_core::Message) {
    let id = t.msg.enqueue(tid_of(m.source), m.tag, m.encoding, m.data);
    if HAVE_HANDLERS.load(Ordering::Acquire) {
        if let Some(f) = handler_for(t, id) {
            t.msg.unqueue(id);
            PENDING.lock().push_back((id, f));
            PENDING_ON.store(true, Ordering::Release);
        }
    }
}

/// Moves every message that arrived for the user context (any PVM
/// context) from the backend into the task's queue, in arrival order, each
/// with a buffer id; messages for a handler are set aside for it.
pub fn pull_arrivals(t: &mut Task) -> PvmResult<()> {
    while let Some(m) = t.user.take_where(|_| true).map_err(from_core)? {
        enqueue_arrival(t, m);
    }
    Ok(())
}

/// Waits up to `slice` for one more arrival.
fn wait_arrival(t: &mut Task, slice: Duration) -> PvmResult<Outcome<()>> {
    match t.user.recv(Match::new(None, None), Some(slice)) {
        Ok(m) => enqueue_arrival(t, m),
        Err(CoreError::Timeout) => {}
        Err(e) => return Err(from_core(e)),
    }
    Ok(Outcome::Done(()))
}

/// Calls the handlers of the messages set aside for them. Each handler
/// runs with its message as the receive buffer; afterwards the message is
/// freed (unless the handler did) and the caller's send and receive
/// buffers are restored.
fn run_pending() {
    if DISPATCHING.with(|d| d.replace(true)) {
        return;
    }
    loop {
        let next = {
            let mut q = PENDING.lock();
            let n = q.pop_front();
            PENDING_ON.store(!q.is_empty(), Ordering::Release);
            n
        };
        let Some((mid, f)) = next else { break };
        let saved = with_task(|t| {
            t.msg.get(mid)?;
            let s = (t.msg.sbuf, t.msg.rbuf);
            t.msg.setrbuf(mid)?;
            Ok(s)
        });
        let Ok((sb, rb)) = saved else { continue };
        f(mid);
        let _ = with_task(|t| {
            if t.msg.get(mid).is_ok() {
                let _ = t.msg.freebuf(mid);
            }
            t.msg.sbuf = if sb > 0 && t.msg.get(sb).is_ok() {
                sb
            } else {
                0
            };
            t.msg.rbuf = if rb > 0 && t.msg.get(rb).is_ok() {
                rb
            } else {
                0
            };
            Ok(())
        });
    }
    DISPATCHING.with(|d| d.set(false));
}

/// Runs the message handlers of messages that arrived so far: call it
/// after a PVM call, with the task lock released. Cheap when no handler is
/// installed.
#[inline]
pub fn dispatch_handlers() {
    if !HAVE_HANDLERS.load(Ordering::Acquire) && !PENDING_ON.load(Ordering::Acquire) {
        return;
    }
    dispatch_now();
}

/// [`dispatch_handlers`] once handlers or pending signals exist.
#[cold]
fn dispatch_now() {
    if DISPATCHING.with(|d| d.get()) {
        return;
    }
    let _ = with_task(pull_arrivals);
    run_pending();
}

fn check_pattern(tid: i32, tag: i32) -> PvmResult<()> {
    if tag < -1 || (tid != -1 && !crate::consts::tid::is_task(tid)) {
        return Err(bad());
    }
    Ok(())
}

/// Picks a queued message: with a matcher, the first one it ranks 1, else
/// the highest ranked above 1 (a negative rank aborts with that code);
/// without one, PVM's default matching.
fn choose(m: Option<Matcher>, tid: i32, tag: i32) -> PvmResult<Option<i32>> {
    let Some(f) = m else {
        let src = (tid != -1).then_some(tid);
        let tag = (tag != -1).then_some(tag);
        return with_task(|t| Ok(t.msg.find_queued(src, tag)));
    };
    let ids: Vec<i32> = with_task(|t| {
        Ok(t.msg
            .queued
            .iter()
            .copied()
            .filter(|id| t.msg.get(*id).is_ok_and(|b| b.ctx < sysctx::SYSCTX_DG))
            .collect())
    })?;
    let mut best: Option<(c_int, i32)> = None;
    for id in ids {
        let rank = f(id, tid, tag);
        if rank < 0 {
            return Err(PvmError(rank));
        }
        if rank == 1 {
            return Ok(Some(id));
        }
        if rank > 1 && best.is_none_or(|(b, _)| rank > b) {
            best = Some((rank, id));
        }
    }
    Ok(best.map(|(_, id)| id))
}

fn receive_with(m: Option<Matcher>, tid: i32, tag: i32, wait: Wait, probe: bool) -> PvmResult<i32> {
    check_pattern(tid, tag)?;
    if !probe {
        with_task(|t| {
            t.msg.drop_rbuf();
            Ok(())
        })?;
    }
    let deadline = match wait {
        Wait::For(d) => Some(Instant::now() + d),
        _ => None,
    };
    loop {
        blocking(|t| {
            if t.serve_system()? {
                return Ok(Outcome::Killed);
            }
            pull_arrivals(t)?;
            Ok(Outcome::Done(()))
        })?;
        run_pending();
        if let Some(id) = choose(m, tid, tag)? {
            let taken = with_task(|t| {
                if !t.msg.queued.contains(&id) {
                    return Ok(None);
                }
                if !probe {
                    t.msg.unqueue(id);
                    t.msg.rbuf = id;
                }
                Ok(Some(id))
            })?;
            match taken {
                Some(id) => return Ok(id),
                None => continue,
            }
        }
        let slice = match (wait, deadline) {
            (Wait::Poll, _) => return Ok(0),
            (_, Some(d)) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(0);
                }
                left.min(SLICE)
            }
            _ => SLICE,
        };
        blocking(|t| wait_arrival(t, slice))?;
    }
}

/// The receive calls' path when a `pvm_recvf` matcher or a message
/// handler is installed; `None` otherwise (the ordinary path applies).
/// `probe` leaves the message queued (`pvm_probe`); otherwise the receive
/// buffer is freed first and the message becomes the new one. Returns the
/// buffer id or 0 (nothing, for `Wait::Poll` / a timeout), or the matcher's
/// negative code, PvmBadParam.
///
/// Must be called without the task lock held (it takes and releases it
/// around every callback).
pub fn hooked_receive(tid: i32, tag: i32, wait: Wait, probe: bool) -> Option<PvmResult<i32>> {
    if !callbacks_active() {
        return None;
    }
    Some(receive_with(matcher(), tid, tag, wait, probe))
}

/// PVM's default matching as a matcher function (what `pvm_recvf` returns
/// while no other matcher is installed): the current context, and the tid
/// and tag unless -1.
pub extern "C" fn default_matcher(mid: c_int, tid: c_int, tag: c_int) -> c_int {
    guard("pvm_recvf", 0, || {
        with_task(|t| {
            let b = t.msg.get(mid)?;
            let fits = b.ctx == t.msg.context
                && (tid == -1 || tid == b.src)
                && (tag == -1 || tag == b.tag);
            Ok(fits as c_int)
        })
        .unwrap_or(0)
    })
}

fn is_default(f: Matcher) -> bool {
    f as usize == default_matcher as Matcher as usize
}

/// Installs `new` as the matching function of `pvm_recv`, `pvm_nrecv`,
/// `pvm_trecv` and `pvm_probe` (NULL, or the function this call returned
/// earlier for the default, restores PVM's matching). The matcher gets
/// `(bufid, tid, tag)` for each queued message in arrival order (`tid` and
/// `tag` as the receive call was given them) and returns < 0 (the call
/// fails with that code), 0 (skip), 1 (take it now) or > 1 (a rank: the
/// highest is taken after all were seen). Returns the previous matcher: a
/// pointer to the default one when none was installed.
#[no_mangle]
pub extern "C" fn pvm_recvf(new: Option<Matcher>) -> Option<Matcher> {
    guard("pvm_recvf", None, || {
        let new = new.filter(|f| !is_default(*f));
        let mut g = MATCHER.lock();
        let old = std::mem::replace(&mut *g, new);
        MATCHER_ON.store(g.is_some(), Ordering::Release);
        Some(old.unwrap_or(default_matcher))
    })
}

/// Installs `func` as the handler of arriving messages whose source, tag
/// and context match (`src`, `tag`, `ctx` may be -1 = any). The handler is
/// called with the message's buffer id as the receive buffer, during a
/// later PVM call (receive calls included), and the message does not reach
/// the receive calls. Returns the handler id (>= 0), PvmExists (an
/// installed handler overlaps, wildcards included), PvmBadParam (NULL).
#[no_mangle]
pub extern "C" fn pvm_addmhf(src: c_int, tag: c_int, ctx: c_int, func: Option<HandlerFn>) -> c_int {
    entry("pvm_addmhf", || {
        let f = func.ok_or_else(bad)?;
        let mut hs = HANDLERS.lock();
        let overlaps = |a: i32, b: i32| a == -1 || b == -1 || a == b;
        if hs
            .iter()
            .flatten()
            .any(|h| overlaps(h.src, src) && overlaps(h.tag, tag) && overlaps(h.ctx, ctx))
        {
            return Err(PvmError(err::EXISTS));
        }
        let h = Handler { src, tag, ctx, f };
        let id = match hs.iter().position(Option::is_none) {
            Some(i) => {
                hs[i] = Some(h);
                i
            }
            None => {
                hs.push(Some(h));
                hs.len() - 1
            }
        };
        HAVE_HANDLERS.store(true, Ordering::Release);
        Ok(id as c_int)
    })
}

/// Removes handler `mhid`. Returns PvmOk, PvmBadParam (negative),
/// PvmNotFound.
#[no_mangle]
pub extern "C" fn pvm_delmhf(mhid: c_int) -> c_int {
    entry("pvm_delmhf", || {
        let i = usize::try_from(mhid).map_err(|_| bad())?;
        let mut hs = HANDLERS.lock();
        match hs.get_mut(i) {
            Some(slot @ Some(_)) => {
                *slot = None;
                let any = hs.iter().any(Option::is_some);
                HAVE_HANDLERS.store(any, Ordering::Release);
                Ok(0)
            }
            _ => Err(PvmError(err::NOT_FOUND)),
        }
    })
}

/// Prints the installed message handlers to stdout, headed by `who`,
/// `msg` and `tid` (libpvm's debugging aid). Returns 0.
#[no_mangle]
pub extern "C" fn pvmdisplaymhfinfo(who: *const c_char, msg: *const c_char, tid: c_int) -> c_int {
    guard("pvmdisplaymhfinfo", 0, || {
        let who = text_arg(who).unwrap_or_default();
        let msg = text_arg(msg).unwrap_or_default();
        let hs = HANDLERS.lock();
        let mut out = format!("{who} [t{tid:x}]: {msg}\n");
        let n = hs.iter().flatten().count();
        out.push_str(&format!("  {n} message handler(s)\n"));
        for (i, h) in hs.iter().enumerate() {
            if let Some(h) = h {
                out.push_str(&format!(
                    "  mhid {i}: src {} tag {} ctx {}\n",
                    show_tid(h.src),
                    h.tag,
                    h.ctx
                ));
            }
        }
        print!("{out}");
        0
    })
}

fn show_tid(t: i32) -> String {
    if t == -1 {
        "-1".into()
    } else {
        format!("t{t:x}")
    }
}

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

fn own_program() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

/// The tasks this one knows of: the ranks of the first program of the
/// launch (others are idle until a spawn claims them), itself, its parent
/// and its siblings. Tasks whose host is unknown here are reported on the
/// first host.
fn known_tasks(t: &Task) -> Vec<Known> {
    let hosts = t.hosts();
    let host_of = |name: &str| {
        hosts
            .iter()
            .position(|h| h == name)
            .map(host_dtid)
            .unwrap_or(host_dtid(0))
    };
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
            host: if tid == me { my_host } else { host_dtid(0) },
            aout: if ptid != 0 {
                own_program()
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
    where_ > 0 && where_ & !tidbits::HOST == 0 && ((where_ >> 18) as usize) <= t.hosts().len()
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
    struct Table {
        _names: Vec<CString>,
        infos: Vec<PvmTaskInfo>,
    }
    static TABLE: Lock<Option<Table>> = Lock::new(None);
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
        let mut g = TABLE.lock();
        let table = g.insert(Table {
            _names: names,
            infos,
        });
        ptr::put(ntask, table.infos.len() as c_int);
        ptr::put_ptr(taskp, table.infos.as_mut_ptr());
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
    code: impl Fn(&Task, &str) -> i32,
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

/// The machine is the set of hosts the MPI launcher started the job on,
/// so no host can be added: each `infos[i]` is PvmDupHost for a host
/// already in the machine, PvmCantStart for any other (PvmBadParam for an
/// empty name). Returns the number added (0), PvmBadParam (nhost < 1 or
/// NULL hosts).
#[no_mangle]
pub extern "C" fn pvm_addhosts(hosts: *mut *mut c_char, nhost: c_int, infos: *mut c_int) -> c_int {
    entry("pvm_addhosts", || {
        per_host(hosts, nhost, infos, |t, n| {
            if in_machine(t, n) {
                err::DUP_HOST
            } else {
                err::CANT_START
            }
        })
    })
}

/// The launcher's hosts cannot be removed from a running MPI job: each
/// `infos[i]` is PvmNotImpl for a host of the machine, PvmNoHost for any
/// other. Returns the number deleted (0), PvmBadParam.
#[no_mangle]
pub extern "C" fn pvm_delhosts(hosts: *mut *mut c_char, nhost: c_int, infos: *mut c_int) -> c_int {
    entry("pvm_delhosts", || {
        per_host(hosts, nhost, infos, |t, n| {
            if in_machine(t, n) {
                err::NOT_IMPL
            } else {
                err::NO_HOST
            }
        })
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

// ---------------------------------------------------------------------------
// Signals

/// Sends signal `signum` to task `tid`. SIGTERM and SIGKILL to another
/// task end it as `pvm_kill` does; other signals reach another task at its
/// next PVM call, where they are raised in its process; the calling task's
/// own signals are raised at once. Signal 0 only checks the arguments. A
/// tid nobody has is not an error. Returns PvmOk, PvmBadParam (not a task
/// tid, or an invalid signal).
#[no_mangle]
pub extern "C" fn pvm_sendsig(tid: c_int, signum: c_int) -> c_int {
    entry("pvm_sendsig", || {
        if !tidbits::is_task(tid) || !(0..65).contains(&signum) {
            return Err(bad());
        }
        let me = with_task(|t| Ok(t.me))?;
        if signum == 0 {
            return Ok(0);
        }
        if tid == me {
            return if ffi::raise_signal(signum) {
                Ok(0)
            } else {
                Err(bad())
            };
        }
        with_task(|t| {
            let r = if signum == libc::SIGTERM || signum == libc::SIGKILL {
                t.kill(tid)
            } else {
                crate::mbox::send_signal(t, tid, signum)
            };
            match r {
                Ok(()) | Err(PvmError(err::NO_TASK)) => Ok(0),
                Err(e) => Err(e),
            }
        })
    })
}

/// Raises a signal another task sent with `pvm_sendsig`.
pub(crate) fn deliver_signal(signum: i32) {
    if (1..65).contains(&signum) {
        ffi::raise_signal(signum);
    }
}

// ---------------------------------------------------------------------------
// PVM_EXPORT

const EXPORT_VAR: &str = "PVM_EXPORT";

/// `list` with `name` appended unless present (colon-separated).
pub fn export_list_add(list: &str, name: &str) -> String {
    if name.is_empty() || list.split(':').any(|n| n == name) {
        return list.to_string();
    }
    if list.is_empty() {
        name.to_string()
    } else {
        format!("{list}:{name}")
    }
}

/// `list` without `name` (colon-separated).
pub fn export_list_remove(list: &str, name: &str) -> String {
    if name.is_empty() {
        return list.to_string();
    }
    list.split(':')
        .filter(|n| !n.is_empty() && *n != name)
        .collect::<Vec<_>>()
        .join(":")
}

/// Adds `name` to the colon-separated list in the environment variable
/// `PVM_EXPORT` (the variables spawned tasks inherit), unless it is there.
/// Returns PvmOk (PvmBadParam for NULL).
#[no_mangle]
pub extern "C" fn pvm_export(name: *mut c_char) -> c_int {
    entry("pvm_export", || {
        let name = text_arg(name).ok_or_else(bad)?;
        let cur = std::env::var(EXPORT_VAR).ok();
        let new = export_list_add(cur.as_deref().unwrap_or(""), &name);
        if cur.as_deref() != Some(new.as_str()) {
            std::env::set_var(EXPORT_VAR, new);
        }
        Ok(0)
    })
}

/// Removes `name` from `PVM_EXPORT` (not an error if absent). Returns
/// PvmOk (PvmBadParam for NULL).
#[no_mangle]
pub extern "C" fn pvm_unexport(name: *mut c_char) -> c_int {
    entry("pvm_unexport", || {
        let name = text_arg(name).ok_or_else(bad)?;
        if let Ok(cur) = std::env::var(EXPORT_VAR) {
            let new = export_list_remove(&cur, &name);
            if new != cur {
                std::env::set_var(EXPORT_VAR, new);
            }
        }
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Utilities

fn static_text(
    cell: &'static std::sync::OnceLock<CString>,
    make: impl FnOnce() -> String,
) -> *mut c_char {
    cell.get_or_init(|| CString::new(make()).unwrap_or_default())
        .as_ptr() as *mut c_char
}

/// The remote shell PVM would start slave pvmds with: `$PVM_RSH`, else
/// "/usr/bin/ssh" (unused under MPI). Static string.
#[no_mangle]
pub extern "C" fn pvmgetrsh() -> *mut c_char {
    static RSH: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    static_text(&RSH, || {
        std::env::var("PVM_RSH").unwrap_or_else(|_| "/usr/bin/ssh".into())
    })
}

/// The directory for PVM's temporary files: `$PVM_TMP`, else `$TMPDIR`,
/// else "/tmp". Static string.
#[no_mangle]
pub extern "C" fn pvmgettmp() -> *mut c_char {
    static TMP: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    static_text(&TMP, || {
        std::env::var("PVM_TMP")
            .or_else(|_| std::env::var("TMPDIR"))
            .unwrap_or_else(|_| "/tmp".into())
    })
}

/// A fresh temporary file name (in `pvmgettmp()`), written to `buf` (which
/// must hold `PVMTMPNAMLEN` bytes) or, for NULL, to a static buffer.
/// Returns the buffer.
#[no_mangle]
pub extern "C" fn pvmtmpnam(buf: *mut c_char) -> *mut c_char {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    static OWN: Lock<[u8; 128]> = Lock::new([0; 128]);
    guard("pvmtmpnam", std::ptr::null_mut(), || {
        let dir = ptr::c_str(pvmgettmp())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_else(|| "/tmp".into());
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut name = format!("{dir}/pvmtmp{}.{n}", std::process::id()).into_bytes();
        name.truncate(127);
        if buf.is_null() {
            let mut g = OWN.lock();
            g[..name.len()].copy_from_slice(&name);
            g[name.len()] = 0;
            g.as_mut_ptr() as *mut c_char
        } else {
            ptr::put_c_string(buf, &name);
            buf
        }
    })
}

/// libpvm's debugging mask (C global `pvmdebmask`; some programs set it).
/// Nothing reads it here.
#[no_mangle]
pub static mut pvmdebmask: c_int = 0;

// ---------------------------------------------------------------------------
// Mailbox

/// Codes `pvm_putinfo` and friends return without printing them.
const MBOX_QUIET: [i32; 3] = [err::DENIED, err::EXISTS, err::NOT_FOUND];

fn class_name(name: *mut c_char) -> PvmResult<String> {
    match text_arg(name) {
        Some(n) if !n.is_empty() => Ok(n),
        _ => Err(bad()),
    }
}

/// Stores message `bufid` in the mailbox under `name` (flags:
/// PvmMboxDefault, PvmMboxPersistent, PvmMboxMultiInstance,
/// PvmMboxOverWritable, PvmMboxDirectIndex(i)). Entries are deleted when
/// their owner leaves PVM unless persistent. Returns the entry's index,
/// PvmBadParam, PvmNoSuchBuf, PvmDenied (locked by another task; not
/// printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_putinfo(name: *mut c_char, bufid: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_putinfo", &MBOX_QUIET, || {
        let name = class_name(name)?;
        if bufid <= 0 {
            return Err(bad());
        }
        blocking(|t| {
            let blob = message_blob(t, bufid)?;
            crate::mbox::put(t, &name, -1, flags, blob)
        })
    })
}

/// Gets a copy of mailbox entry `name`/`index` as a new message, which
/// becomes the receive buffer (the old one is freed). Flags:
/// PvmMboxFirstAvail (the first entry at `index` or above),
/// PvmMboxReadAndDelete (delete it too), PvmMboxWaitForInfo (wait until it
/// exists). Returns the buffer id, PvmBadParam, PvmNotFound (not printed),
/// PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_recvinfo(name: *mut c_char, index: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_recvinfo", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if index < 0 {
            return Err(bad());
        }
        blocking(|t| {
            t.msg.drop_rbuf();
            let got = crate::mbox::get(t, &name, index, flags)?;
            let Outcome::Done((_, blob)) = got else {
                return Ok(Outcome::Killed);
            };
            let id = buffer_from_blob(t, &blob)?;
            t.msg.rbuf = id;
            Ok(Outcome::Done(id))
        })
    })
}

/// Deletes mailbox entry `name`/`index`. Returns the deleted index (PvmOk
/// for index 0), PvmBadParam, PvmNotFound, PvmDenied (neither printed),
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_delinfo(name: *mut c_char, index: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_delinfo", &MBOX_QUIET, || {
        let name = class_name(name)?;
        if index < 0 {
            return Err(bad());
        }
        blocking(|t| crate::mbox::delete(t, &name, index, flags))
    })
}

/// One mailbox name and its entries (`struct pvmmboxinfo`).
#[repr(C)]
pub struct PvmMboxInfo {
    mi_name: *mut c_char,
    mi_nentries: c_int,
    mi_indices: *mut c_int,
    mi_owners: *mut c_int,
    mi_flags: *mut c_int,
}

// SAFETY: the pointers refer to vectors and strings owned by the same
// table, which is only used under its lock.
unsafe impl Send for PvmMboxInfo {}

/// Lists the mailbox names matching `pattern` ('*' matches any run of
/// characters; NULL or "" matches every name) with their entries' indices,
/// owners (0 once a persistent entry's owner left) and flags. Stores the
/// count in `*nclasses` and a library-owned array (valid until the next
/// call) in `*classes`. Returns PvmOk, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_getmboxinfo(
    pattern: *mut c_char,
    nclasses: *mut c_int,
    classes: *mut *mut PvmMboxInfo,
) -> c_int {
    struct Table {
        _names: Vec<CString>,
        _cols: Vec<[Vec<c_int>; 3]>,
        infos: Vec<PvmMboxInfo>,
    }
    static TABLE: Lock<Option<Table>> = Lock::new(None);
    entry("pvm_getmboxinfo", || {
        let pattern = text_arg(pattern).unwrap_or_default();
        let list = blocking(|t| crate::mbox::names(t, &pattern))?;
        let names: Vec<CString> = list
            .iter()
            .map(|c| CString::new(c.name.as_str()).unwrap_or_default())
            .collect();
        let mut cols: Vec<[Vec<c_int>; 3]> = list
            .iter()
            .map(|c| {
                [
                    c.entries.iter().map(|e| e.0).collect(),
                    c.entries.iter().map(|e| e.1).collect(),
                    c.entries.iter().map(|e| e.2).collect(),
                ]
            })
            .collect();
        let infos = names
            .iter()
            .zip(cols.iter_mut())
            .map(|(n, [ix, ow, fl])| PvmMboxInfo {
                mi_name: n.as_ptr() as *mut c_char,
                mi_nentries: ix.len() as c_int,
                mi_indices: ix.as_mut_ptr(),
                mi_owners: ow.as_mut_ptr(),
                mi_flags: fl.as_mut_ptr(),
            })
            .collect();
        let mut g = TABLE.lock();
        let table = g.insert(Table {
            _names: names,
            _cols: cols,
            infos,
        });
        ptr::put(nclasses, table.infos.len() as c_int);
        ptr::put_ptr(classes, table.infos.as_mut_ptr());
        Ok(0)
    })
}

/// PVM 3.3: stores the int `data` under `name` at index `req` (-1: the
/// first free index). Returns the index, PvmBadParam, PvmDupEntry
/// (= PvmDenied: the index is taken; not printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_insert(name: *mut c_char, req: c_int, data: c_int) -> c_int {
    entry_quiet("pvm_insert", &[err::DENIED], || {
        let name = class_name(name)?;
        if req < -1 {
            return Err(bad());
        }
        let mut m = MsgBuf::new(Encoding::Default);
        m.pk_int(&[data], 1, 1)?;
        let body = m.wire(&read_in_place);
        blocking(|t| {
            let mut blob = Vec::with_capacity(36);
            let h = [body.len() as i32, 0, 0, 0, ENC_XDR, 0, t.me, 0];
            for w in h {
                blob.extend_from_slice(&w.to_le_bytes());
            }
            blob.extend_from_slice(&body);
            let flags = crate::consts::mbox::MULTI_INSTANCE | crate::consts::mbox::PERSISTENT;
            crate::mbox::put(t, &name, req, flags, blob)
        })
    })
}

/// PVM 3.3: the int stored under `name` at index `req` (-1: the first
/// entry) into `*datap`. Returns the index, PvmBadParam, PvmNoEntry
/// (= PvmNotFound; not printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_lookup(name: *mut c_char, req: c_int, datap: *mut c_int) -> c_int {
    entry_quiet("pvm_lookup", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if req < -1 {
            return Err(bad());
        }
        let (index, flags) = if req == -1 {
            (0, crate::consts::mbox::FIRST_AVAIL)
        } else {
            (req, 0)
        };
        let (found, blob) = blocking(|t| crate::mbox::get(t, &name, index, flags))?;
        let (h, body) = parse_blob(&blob)?;
        let mut m = MsgBuf::received(enc_of_code(h[4]), body.to_vec());
        let mut v = [0i32];
        m.upk_int(&mut v, 1, 1)?;
        ptr::put(datap, v[0]);
        Ok(found)
    })
}

/// PVM 3.3: deletes the entry of `name` at index `req`. Returns the index,
/// PvmBadParam, PvmNoEntry (not printed), PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_delete(name: *mut c_char, req: c_int) -> c_int {
    entry_quiet("pvm_delete", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if req < 0 {
            return Err(bad());
        }
        blocking(|t| crate::mbox::delete(t, &name, req, 0))
    })
}

// ---------------------------------------------------------------------------
// pvm_packf / pvm_unpackf support for the C glue

/// Direction codes of [`mpbridge_pvm_fmt_item`].
const FMT_PACK_ADDR: c_int = 0;
const FMT_PACK_VALUE: c_int = 1;
const FMT_UNPACK: c_int = 2;

fn counts(nitem: c_int, stride: c_int) -> PvmResult<(usize, usize)> {
    if nitem < 0 || stride < 1 {
        return Err(bad());
    }
    Ok((nitem as usize, stride as usize))
}

fn fmt_item(dir: c_int, what: c_int, p: *mut c_void, nitem: c_int, stride: c_int) -> PvmResult<()> {
    macro_rules! go {
        ($t:ty, $pk:ident, $upk:ident) => {{
            let (n, s) = counts(nitem, stride)?;
            let p = p as *mut $t;
            with_task(|t| {
                if dir == FMT_UNPACK {
                    let out = ptr::items_mut(p, n, s).ok_or_else(bad)?;
                    return t.msg.rbuf_mut()?.$upk(out, n, s);
                }
                let data = ptr::items(p as *const $t, n, s).ok_or_else(bad)?;
                let b = t.msg.sbuf_mut()?;
                if dir == FMT_PACK_ADDR && b.encoding() == Encoding::InPlace {
                    b.pk_inplace(p as usize, std::mem::size_of::<$t>(), n, s)
                } else {
                    b.$pk(data, n, s)
                }
            })
        }};
    }
    match what {
        dt::STR => {
            if dir == FMT_UNPACK {
                if p.is_null() {
                    return Err(bad());
                }
                let s = with_task(|t| t.msg.rbuf_mut()?.upk_str())?;
                ptr::put_c_string(p as *mut c_char, &s);
                Ok(())
            } else {
                let s = ptr::c_str(p as *const c_char).ok_or_else(bad)?;
                with_task(|t| t.msg.sbuf_mut()?.pk_str(s))
            }
        }
        dt::BYTE => go!(u8, pk_byte, upk_byte),
        dt::SHORT => go!(i16, pk_short, upk_short),
        dt::USHORT => go!(u16, pk_ushort, upk_ushort),
        dt::INT => go!(i32, pk_int, upk_int),
        dt::UINT => go!(u32, pk_uint, upk_uint),
        dt::LONG => go!(i64, pk_long, upk_long),
        dt::ULONG => go!(u64, pk_ulong, upk_ulong),
        dt::FLOAT => go!(f32, pk_float, upk_float),
        dt::DOUBLE => go!(f64, pk_double, upk_double),
        dt::CPLX => go!([f32; 2], pk_cplx, upk_cplx),
        dt::DCPLX => go!([f64; 2], pk_dcplx, upk_dcplx),
        _ => Err(bad()),
    }
}

/// Internal entry of the C glue behind `pvm_packf`/`pvm_unpackf` (not part
/// of PVM's API): packs or unpacks one item of a format. `dir` 0 packs
/// from the address `p` (kept in place for a `PvmDataInPlace` buffer), 1
/// packs a copy of the value at `p`, 2 unpacks into `p`; `what` is a
/// `PVM_*` datatype (PVM_STR: a C string). Returns PvmOk or a negative
/// code, without reporting it (the caller reports once, as the call the
/// program made).
#[no_mangle]
pub extern "C" fn mpbridge_pvm_fmt_item(
    dir: c_int,
    what: c_int,
    p: *mut c_void,
    nitem: c_int,
    stride: c_int,
) -> c_int {
    guard("pvm_packf", err::SYS_ERR, || {
        if ![FMT_PACK_ADDR, FMT_PACK_VALUE, FMT_UNPACK].contains(&dir) {
            return err::BAD_PARAM;
        }
        match fmt_item(dir, what, p, nitem, stride) {
            Ok(()) => 0,
            Err(PvmError(c)) => c,
        }
    })
}

// ---------------------------------------------------------------------------
// FFI edge: the only unsafe code of this module.

mod ffi {
    /// Raises `signum` in this process; false if the signal is invalid.
    pub fn raise_signal(signum: i32) -> bool {
        // SAFETY: raise() has no memory preconditions; an invalid signal
        // number only makes it fail.
        unsafe { libc::raise(signum) == 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_lists() {
        assert_eq!(export_list_add("", "A"), "A");
        assert_eq!(export_list_add("A", "B"), "A:B");
        assert_eq!(export_list_add("A:B", "A"), "A:B");
        assert_eq!(export_list_add("A:B", ""), "A:B");
        assert_eq!(export_list_remove("A:B", "A"), "B");
        assert_eq!(export_list_remove("A:B:C", "B"), "A:C");
        assert_eq!(export_list_remove("B", "B"), "");
        assert_eq!(export_list_remove("A:B", "Z"), "A:B");
    }

    #[test]
    fn encodings_round_trip() {
        for e in [Encoding::Default, Encoding::Raw, Encoding::InPlace] {
            assert_eq!(enc_of_code(enc_code(e)), e);
        }
        assert_eq!(enc_code(Encoding::Default), 0x1000_0000);
    }

    #[test]
    fn blob_header() {
        let mut v = Vec::new();
        for w in [4, 1, 2, 3, ENC_XDR, 0, 7, 8] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&[0, 0, 0, 5]);
        let (h, body) = parse_blob(&v).expect("parse");
        assert_eq!(h, [4, 1, 2, 3, ENC_XDR, 0, 7, 8]);
        assert_eq!(body, &[0, 0, 0, 5]);
        assert!(parse_blob(&v[..10]).is_err());
    }

    #[test]
    fn default_matcher_is_recognised() {
        assert!(is_default(default_matcher));
        extern "C" fn other(_: c_int, _: c_int, _: c_int) -> c_int {
            0
        }
        assert!(!is_default(other));
    }
}
