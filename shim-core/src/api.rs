//! The Rust API the layers build on: process ids, contexts, send, receive,
//! probe, spawn and disconnect.

use crate::backoff::{cores_shared, take_turns, Backoff, Phase, TURNS_SPAN};
use crate::engine::{Idle, Payload, Received, Sink, Want, PEER_CHECK};
use crate::error::{CoreError, CoreResult};
use crate::lifecycle::with_engine;
use crate::mpi::{Comm, Matched};
use crate::procid::ProcId;
use crate::queue::{Match, Message};
use crate::spawn::{SpawnOptions, SpawnSlot};
use std::time::{Duration, Instant};

/// Polls per lock acquisition while a receive spins.
const SPIN_BURST: u32 = 256;

/// This process's id.
pub fn my_id() -> CoreResult<ProcId> {
    with_engine(|e| Ok(e.me))
}

/// Ids of this process's static world, by rank.
pub fn world_ids() -> CoreResult<Vec<ProcId>> {
    with_engine(|e| Ok(e.world_ids.clone()))
}

/// This process's rank in its static world.
pub fn world_rank() -> CoreResult<i32> {
    with_engine(|e| Ok(e.world_rank))
}

/// The process that spawned this one, if any.
pub fn parent() -> CoreResult<Option<ProcId>> {
    with_engine(|e| Ok(e.parent))
}

/// Whether `id` can currently be reached without setting up a link.
pub fn is_linked(id: ProcId) -> CoreResult<bool> {
    with_engine(|e| Ok(id == e.me || e.routes.contains_key(&id)))
}

/// Whether peer `id` is known to have ended: its process is gone (killed,
/// crashed, or ended without leaving). A peer on another node is seen
/// gone only through the launcher's job directory (see [`crate::liveness`]);
/// one not met yet is never reported gone.
pub fn peer_gone(id: ProcId) -> CoreResult<bool> {
    with_engine(|e| Ok(id != e.me && !e.peer_alive(id)))
}

/// Forgets the link to `id` if every process at its other end has ended
/// (see [`peer_gone`]), so the spawn batch it came from can be reused; a
/// link with a live process is kept.
pub fn forget_gone(id: ProcId) -> CoreResult<()> {
    with_engine(|e| e.forget_link(id))
}

/// Makes progress on everything once (for layers' non-blocking calls).
pub fn poll() -> CoreResult<usize> {
    with_engine(|e| e.progress(None))
}

/// Starts `count` processes running `command args`. Each slot holds the new
/// process's id or why it did not start.
pub fn spawn(command: &str, args: &[String], count: i32) -> CoreResult<Vec<SpawnSlot>> {
    spawn_with(command, args, count, &SpawnOptions::default())
}

/// [`spawn`] with options: where the processes go, and the note they can
/// read with [`crate::spawn::spawn_note`].
pub fn spawn_with(
    command: &str,
    args: &[String],
    count: i32,
    options: &SpawnOptions,
) -> CoreResult<Vec<SpawnSlot>> {
    with_engine(|e| e.spawn(command, args, count, options))
}

/// Reserves a spawn (batch) number from the registry without starting
/// processes, as a spawn does; an error at once when all are in use. For
/// tools and tests of the registry; give it back with [`release_batch`].
pub fn reserve_batch() -> CoreResult<u16> {
    with_engine(|e| e.reserve_batch())
}

/// Returns a number from [`reserve_batch`] to the registry.
pub fn release_batch(batch: u16) -> CoreResult<()> {
    with_engine(|e| e.release_batch(batch))
}

/// Disconnects the link to a process of another spawn.
pub fn disconnect(peer: ProcId) -> CoreResult<()> {
    with_engine(|e| e.disconnect(peer))
}

/// A context: the private channel of one layer (or library inside a layer).
/// Messages of one context never match receives of another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    id: u32,
}

impl Context {
    /// Creates the context `name`, or finds it if this process created it
    /// before. Creation is collective over the world: every rank must create
    /// the same contexts in the same order.
    pub fn create(name: &str) -> CoreResult<Context> {
        with_engine(|e| e.create_context(name)).map(|id| Context { id })
    }

    /// A handle for context `id` without looking it up; using it for an id
    /// no context has gives `CoreError::UnknownContext`.
    pub fn by_id(id: u32) -> Context {
        Context { id }
    }

    /// Finds an existing context by id.
    pub fn from_id(id: u32) -> CoreResult<Context> {
        with_engine(|e| e.context(id).map(|_| Context { id }))
    }

    /// The context's id (the same in every process).
    pub fn id(self) -> u32 {
        self.id
    }

    /// The context's private communicator over the static world, for
    /// collectives.
    pub fn comm(self) -> CoreResult<Comm> {
        with_engine(|e| Ok(e.context(self.id)?.comm))
    }

    /// Sends `data` to `dest`; returns when `data` may be reused.
    #[inline]
    pub fn send(self, dest: ProcId, tag: i32, encoding: u32, data: &[u8]) -> CoreResult<()> {
        with_engine(|e| e.send_bytes(self.id, dest, tag, encoding, data))
    }

    /// Sends `data`, handing the buffer over; returns at once.
    pub fn send_owned(
        self,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        data: Vec<u8>,
    ) -> CoreResult<()> {
        with_engine(|e| e.send(self.id, dest, tag, encoding, Payload::Owned(data)))
    }

    /// Receives the first message matching `pattern` as an owned message.
    /// `timeout`: `None` waits for ever, `Some(0)` polls once.
    pub fn recv(self, pattern: Match, timeout: Option<Duration>) -> CoreResult<Message> {
        self.recv_reusing(pattern, timeout, Vec::new())
    }

    /// Like [`recv`](Self::recv), receiving into `storage` (its contents are
    /// dropped, its capacity reused), so a caller that recycles buffers does
    /// not allocate and fault in fresh memory for every large message.
    pub fn recv_reusing(
        self,
        pattern: Match,
        timeout: Option<Duration>,
        storage: Vec<u8>,
    ) -> CoreResult<Message> {
        self.recv_lazy(pattern, timeout, storage, usize::MAX)
            .map(|(m, _)| m)
    }

    /// Like [`recv_reusing`](Self::recv_reusing), but a message delivered
    /// straight to this receive with a separately sent payload of at least
    /// `lazy_min` bytes leaves that payload in MPI: the message comes with
    /// empty data and a [`Lazy`] to fetch it from (queued messages always
    /// come whole). The payload is matched already, so later messages from
    /// the same sender cannot take its place.
    pub fn recv_lazy(
        self,
        pattern: Match,
        timeout: Option<Duration>,
        storage: Vec<u8>,
        lazy_min: usize,
    ) -> CoreResult<(Message, Option<Lazy>)> {
        let mut sink = Sink::Vec(storage);
        let (got, matched) = match self.ring_now(&pattern, &mut sink)? {
            Some(r) => (Got::Direct(r), None),
            None => self.wait_for(pattern, &mut sink, timeout, lazy_min)?,
        };
        let data = match sink {
            Sink::Vec(v) | Sink::Fit(_, v) => v,
            Sink::Buf(_) => Vec::new(),
        };
        let r = got.received();
        let data = match got {
            Got::Queued(m) => m.data,
            Got::Direct(_) => data,
        };
        let lazy = matched.map(|m| Lazy {
            len: r.len,
            matched: Some(m),
        });
        Ok((
            Message {
                source: r.source,
                tag: r.tag,
                encoding: r.encoding,
                data,
            },
            lazy,
        ))
    }

    /// Receives the first message matching `pattern` into `buf`. A longer
    /// message is consumed, its first `buf.len()` bytes kept, and
    /// `CoreError::Truncated` returned with its length.
    #[inline]
    pub fn recv_into(
        self,
        pattern: Match,
        buf: &mut [u8],
        timeout: Option<Duration>,
    ) -> CoreResult<Received> {
        let r = self.recv_into_truncating(pattern, buf, timeout)?;
        if r.len > buf.len() {
            return Err(CoreError::Truncated { len: r.len });
        }
        Ok(r)
    }

    /// Like [`recv_into`](Self::recv_into), but a longer message is not an
    /// error: its first `buf.len()` bytes are kept and `len` tells its full
    /// length (PVM's `pvm_precv` semantics).
    #[inline]
    pub fn recv_into_truncating(
        self,
        pattern: Match,
        buf: &mut [u8],
        timeout: Option<Duration>,
    ) -> CoreResult<Received> {
        let cap = buf.len();
        if let Some(r) = self.recv_ring_now(&pattern, buf)? {
            return Ok(r);
        }
        let mut sink = Sink::Buf(buf);
        let (got, _) = self.wait_for(pattern, &mut sink, timeout, usize::MAX)?;
        if let (Got::Queued(m), Sink::Buf(b)) = (&got, &mut sink) {
            let n = m.data.len().min(cap);
            b[..n].copy_from_slice(&m.data[..n]);
        }
        Ok(got.received())
    }

    /// The message already at the head of its sender's ring, when it is
    /// the one `pattern` asks for, into `buf` as
    /// [`recv_into_truncating`](Self::recv_into_truncating) takes it
    /// (`None`: nothing taken, the caller receives as usual). For an
    /// entry point that keeps this case apart from the wait.
    #[inline(always)]
    pub fn recv_ring_now(self, pattern: &Match, buf: &mut [u8]) -> CoreResult<Option<Received>> {
        with_engine(|e| Ok(e.take_ring_head_into(self.id, pattern, buf)))
    }

    /// Receives the first message matching `pattern` into `buf` when it
    /// fits (the payload goes straight there, as with
    /// [`recv_into`](Self::recv_into)); a longer message is returned whole
    /// instead, so a caller can keep it for a larger receive and nothing is
    /// cut off. Waits for ever.
    pub fn recv_fit(self, pattern: Match, buf: &mut [u8]) -> CoreResult<Fitted> {
        let cap = buf.len();
        let mut sink = Sink::Fit(buf, Vec::new());
        let got = match self.ring_now(&pattern, &mut sink)? {
            Some(r) => Got::Direct(r),
            None => self.wait_for(pattern, &mut sink, None, usize::MAX)?.0,
        };
        match (got, sink) {
            (Got::Queued(m), Sink::Fit(b, _)) if m.data.len() <= cap => {
                b[..m.data.len()].copy_from_slice(&m.data);
                Ok(Fitted::Into(Received {
                    source: m.source,
                    tag: m.tag,
                    encoding: m.encoding,
                    len: m.data.len(),
                }))
            }
            (Got::Queued(m), _) => Ok(Fitted::Whole(m)),
            (Got::Direct(r), _) if r.len <= cap => Ok(Fitted::Into(r)),
            (Got::Direct(r), Sink::Fit(_, data)) => Ok(Fitted::Whole(Message {
                source: r.source,
                tag: r.tag,
                encoding: r.encoding,
                data,
            })),
            (Got::Direct(_), _) => Err(CoreError::InvalidArgument(
                "a receive lost its buffer".into(),
            )),
        }
    }

    /// Whether a matching message is waiting (after polling once); it stays queued.
    pub fn probe(self, pattern: Match) -> CoreResult<Option<Received>> {
        with_engine(|e| {
            e.progress(None)?;
            Ok(e.context(self.id)?.queue.peek(&pattern).map(|m| Received {
                source: m.source,
                tag: m.tag,
                encoding: m.encoding,
                len: m.data.len(),
            }))
        })
    }

    /// Takes the first queued message for which `pred` holds, after polling
    /// once (for layers with their own matching rules, e.g. PVM's `recvf`).
    pub fn take_where(self, pred: impl FnMut(&Message) -> bool) -> CoreResult<Option<Message>> {
        with_engine(|e| {
            e.progress(None)?;
            Ok(e.context(self.id)?.queue.take_where(pred))
        })
    }

    /// The message already at the head of its sender's ring, when it is
    /// the one `pattern` asks for, straight into `sink`: what most
    /// receives find, taken before any of a wait's bookkeeping.
    fn ring_now(self, pattern: &Match, sink: &mut Sink<'_>) -> CoreResult<Option<Received>> {
        with_engine(|e| Ok(e.take_ring_head(self.id, pattern, sink)))
    }

    fn wait_for(
        self,
        pattern: Match,
        sink: &mut Sink<'_>,
        timeout: Option<Duration>,
        lazy_min: usize,
    ) -> CoreResult<(Got, Option<Matched>)> {
        // The clock is first read after a step that found nothing, so a
        // message that is already there costs no clock read.
        let mut deadline: Option<Instant> = None;
        let mut backoff = Backoff::new();
        let mut checked: Option<Instant> = None;
        let mut gone = false;
        // Every caller has just looked at the ring head (`ring_now`), so
        // the first step goes straight to the queue and the polls.
        let mut ring_looked = true;
        // A process that shares its core hands it over before anything
        // else when only its sender's ring can bring the message: the
        // process beside it is likely the one it has just sent to.
        if timeout.is_none() && cores_shared() {
            let first = with_engine(|e| match e.take_queued(self.id, &pattern)? {
                Some(m) => Ok(Err(m)),
                None => Ok(Ok(e.ring_watch(&pattern))),
            })?;
            match first {
                Err(m) => return Ok((Got::Queued(m), None)),
                Ok(Some(w)) => {
                    take_turns(TURNS_SPAN, &w);
                    ring_looked = false;
                }
                Ok(None) => {}
            }
        }
        loop {
            // While spinning, poll in tight bursts like a blocking MPI
            // receive does; once yielding or sleeping, poll once per pause.
            let spinning = backoff.spinning();
            let burst = if spinning { SPIN_BURST } else { 1 };
            let step = with_engine(|e| {
                if !std::mem::take(&mut ring_looked) {
                    if let Some(r) = e.take_ring_head(self.id, &pattern, sink) {
                        return Ok(Some((Got::Direct(r), None)));
                    }
                }
                if let Some(m) = e.take_queued(self.id, &pattern)? {
                    return Ok(Some((Got::Queued(m), None)));
                }
                let mut want = Want {
                    context: self.id,
                    pattern,
                    sink: &mut *sink,
                    got: None,
                    lazy_min,
                    matched: None,
                };
                let events = e.progress_burst(&mut want, burst)?;
                if let Some((source, tag, encoding, len)) = want.got {
                    return Ok(Some((
                        Got::Direct(Received {
                            source,
                            tag,
                            encoding,
                            len,
                        }),
                        want.matched.take(),
                    )));
                }
                if events == 0 {
                    return Err(CoreError::Timeout);
                }
                if let Some(m) = e.take_queued(self.id, &pattern)? {
                    return Ok(Some((Got::Queued(m), None)));
                }
                Ok(None)
            });
            let quiet = match step {
                Ok(Some(g)) => return Ok(g),
                Ok(None) => {
                    backoff.reset();
                    false
                }
                Err(CoreError::Timeout) => true,
                Err(e) => return Err(e),
            };
            if let Some(src) = pattern.source {
                // The named sender ended: nothing more can come from it
                // once a step after its end found nothing at all (what it
                // sent before is all taken in first).
                if gone && quiet {
                    return Err(CoreError::UnknownPeer(src));
                }
                if !gone && !spinning {
                    let now = Instant::now();
                    if checked.is_none() {
                        checked = recently_alive(src);
                    }
                    if checked.is_none_or(|t| now.duration_since(t) >= PEER_CHECK) {
                        checked = Some(now);
                        gone = !with_engine(|e| Ok(e.peer_alive(src)))?;
                        if gone {
                            continue;
                        }
                        seen_alive(src, now);
                    }
                }
            }
            if let Some(t) = timeout {
                if t.is_zero() {
                    return Err(CoreError::Timeout);
                }
                let now = Instant::now();
                if now >= *deadline.get_or_insert(now + t) {
                    return Err(CoreError::Timeout);
                }
            }
            if !spinning && backoff.phase() == Phase::Yield {
                // Between yields, a wait that one ring serves polls that
                // ring's word alone (up to its deadline, if it has one).
                let span = deadline.map_or(TURNS_SPAN, |d| {
                    d.saturating_duration_since(Instant::now()).min(TURNS_SPAN)
                });
                if let Ok(Some(w)) = with_engine(|e| Ok(e.ring_watch(&pattern))) {
                    backoff.start();
                    take_turns(span, &w);
                    continue;
                }
            }
            backoff.pause_with(|step| idle(&pattern, step));
        }
    }
}

/// The named sender a wait last found running, and when. Looking a peer
/// up reads `/proc` (several system calls, more than a whole hop of a
/// small message when processes outnumber cores), so the next waits on
/// the same peer take this as their last check instead of looking it up
/// at once: a peer that ends is still noticed within `PEER_CHECK` of the
/// last look-up.
static LAST_ALIVE: std::sync::Mutex<Option<(ProcId, Instant)>> = std::sync::Mutex::new(None);

/// When `peer` was last found running by a wait, if it was the last
/// peer looked up.
fn recently_alive(peer: ProcId) -> Option<Instant> {
    let last = *LAST_ALIVE.lock().unwrap_or_else(|p| p.into_inner());
    last.filter(|(p, _)| *p == peer).map(|(_, t)| t)
}

/// Notes that `peer` was found running at `when`.
fn seen_alive(peer: ProcId, when: Instant) {
    *LAST_ALIVE.lock().unwrap_or_else(|p| p.into_inner()) = Some((peer, when));
}

/// Sleeps one step of a blocked receive of `pattern`: on the doorbell of
/// this process's inbox when it has one (a same-node sender wakes it at
/// once), else for `step`.
fn idle(pattern: &Match, step: Duration) {
    match with_engine(|e| Ok(e.prepare_idle(pattern))) {
        Ok(Idle::Ready) => {}
        Ok(Idle::Doorbell(s, true)) => s.sleep(PEER_CHECK),
        Ok(Idle::Doorbell(s, false)) => s.sleep(step),
        Ok(Idle::Plain) | Err(_) => std::thread::sleep(step),
    }
}

enum Got {
    Queued(Message),
    Direct(Received),
}

/// What [`Context::recv_fit`] got.
#[derive(Debug)]
pub enum Fitted {
    /// The message fit: its payload is in the buffer.
    Into(Received),
    /// The message was longer than the buffer: here whole, the buffer untouched.
    Whole(Message),
}

impl Got {
    fn received(&self) -> Received {
        match self {
            Got::Queued(m) => Received {
                source: m.source,
                tag: m.tag,
                encoding: m.encoding,
                len: m.data.len(),
            },
            Got::Direct(r) => *r,
        }
    }
}

/// A payload left in MPI by [`Context::recv_lazy`]. Fetch it with
/// [`recv_into`](Lazy::recv_into) or [`recv_append`](Lazy::recv_append);
/// dropped unfetched, it is received and discarded (so its sender's
/// transfer completes).
#[derive(Debug)]
pub struct Lazy {
    len: usize,
    matched: Option<Matched>,
}

impl Lazy {
    /// Length of the payload in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the payload is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Receives the payload into `buf`, which must hold exactly
    /// [`len`](Lazy::len) bytes.
    pub fn recv_into(mut self, buf: &mut [u8]) -> CoreResult<()> {
        if buf.len() != self.len {
            return Err(CoreError::InvalidArgument(format!(
                "a payload of {} bytes does not fit {} bytes",
                self.len,
                buf.len()
            )));
        }
        self.fetch(|m, idle| m.recv(buf, idle))
    }

    /// Receives the payload after the contents of `v`.
    pub fn recv_append(mut self, v: &mut Vec<u8>) -> CoreResult<()> {
        self.fetch(|m, idle| m.recv_append(v, idle))
    }

    /// Takes the payload out of MPI with `receive`, which pauses with
    /// `idle` between polls as every wait does.
    fn fetch(
        &mut self,
        receive: impl FnOnce(Matched, &mut dyn FnMut()) -> CoreResult<usize>,
    ) -> CoreResult<()> {
        let Some(m) = self.matched.take() else {
            return Err(CoreError::InvalidArgument("payload already fetched".into()));
        };
        with_engine(|_| {
            let mut backoff = Backoff::new();
            receive(m, &mut || backoff.pause())
        })
        .map(|_| ())
    }
}

impl Drop for Lazy {
    fn drop(&mut self) {
        if let Some(m) = self.matched.take() {
            let mut scratch = Vec::new();
            // Without a backend (after it was left) the message handle's
            // own drop receives it, if MPI is still running.
            let _ = with_engine(|_| {
                let mut backoff = Backoff::new();
                m.recv_append(&mut scratch, || backoff.pause())
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_found_running_is_remembered_for_the_next_wait_on_it() {
        let (a, b) = (ProcId::new(0, 1).unwrap(), ProcId::new(0, 2).unwrap());
        let t = Instant::now();
        seen_alive(a, t);
        assert_eq!(recently_alive(a), Some(t));
        assert_eq!(recently_alive(b), None, "another peer is looked up");
        seen_alive(b, t);
        assert_eq!(recently_alive(a), None, "only the last peer is kept");
    }
}
