//! The custom matcher of the receive calls (`pvm_recvf`) and message
//! handlers (`pvm_addmhf`).
//!
//! A matcher and a handler may call PVM functions (`pvm_getminfo`,
//! `pvm_setrbuf`, `pvm_upkint`...). The task lives behind one non-reentrant
//! lock, so callbacks are never called while it is held: the receive calls
//! take the path of [`hooked_receive`] whenever a matcher or a handler is
//! installed, which alternates between short locked steps (collect
//! arrivals, take the chosen message) and unlocked calls of the callbacks.

use crate::consts::{ctx as sysctx, err};
use crate::ops::{Outcome, Wait};
use crate::state::{blocking, with_task};
use crate::task::{from_core, tid_of, Task};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use shim_core::{CoreError, Lock, Match};
use std::cell::Cell;
use std::collections::VecDeque;
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A matching function for `pvm_recvf`: `f(bufid, tid, tag)`.
pub type Matcher = extern "C" fn(c_int, c_int, c_int) -> c_int;
/// A message handler for `pvm_addmhf`: `f(bufid)`.
pub type HandlerFn = extern "C" fn(c_int) -> c_int;
/// How long a receive with callbacks waits for arrivals between looks at
/// system messages.
const SLICE: Duration = Duration::from_millis(20);

// ---------------------------------------------------------------------------
// The custom matcher (pvm_recvf) and message handlers (pvm_addmhf)

pub(crate) static MATCHER: Lock<Option<Matcher>> = Lock::new(None);

#[derive(Clone, Copy)]
pub(crate) struct Handler {
    pub(crate) src: i32,
    pub(crate) tag: i32,
    pub(crate) ctx: i32,
    pub(crate) f: HandlerFn,
}

/// Handlers by id (`None`: a free id).
pub(crate) static HANDLERS: Lock<Vec<Option<Handler>>> = Lock::new(Vec::new());
/// Whether any handler is installed (checked without a lock on hot paths).
pub(crate) static HAVE_HANDLERS: AtomicBool = AtomicBool::new(false);
/// Messages taken for a handler, waiting to be handed to it outside the
/// task lock.
static PENDING: Lock<VecDeque<(i32, HandlerFn)>> = Lock::new(VecDeque::new());
/// Whether a matcher is installed, or messages wait for their handler
/// (checked without a lock on the receive calls' path).
pub(crate) static MATCHER_ON: AtomicBool = AtomicBool::new(false);
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
        return Err(PvmError(err::BAD_PARAM));
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
#[inline]
pub fn hooked_receive(tid: i32, tag: i32, wait: Wait, probe: bool) -> Option<PvmResult<i32>> {
    if !callbacks_active() {
        return None;
    }
    Some(hooked_receive_now(tid, tag, wait, probe))
}

/// [`hooked_receive`] once a matcher, handlers or pending signals exist.
#[cold]
#[inline(never)]
fn hooked_receive_now(tid: i32, tag: i32, wait: Wait, probe: bool) -> PvmResult<i32> {
    receive_with(matcher(), tid, tag, wait, probe)
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

pub(crate) fn is_default(f: Matcher) -> bool {
    f as usize == default_matcher as Matcher as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_matcher_is_recognised() {
        assert!(is_default(default_matcher));
        extern "C" fn other(_: c_int, _: c_int, _: c_int) -> c_int {
            0
        }
        assert!(!is_default(other));
    }
}
