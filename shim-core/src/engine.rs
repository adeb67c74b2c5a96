//! The per-process state of the backend and its progress engine: contexts
//! and their queues, links to processes of other spawns, standing receives,
//! outstanding sends, and the send/receive paths every layer uses.

use crate::backoff::Backoff;
use crate::control::{Body as CtlBody, Ctl, Route as CtlRoute};
use crate::envelope::{
    Body, Header, HEADER_LEN, INLINE_MAX, RING_HEAD_LEN, TAG_ENVELOPE, TAG_PAYLOAD,
};
use crate::error::{CoreError, CoreResult};
use crate::idhash::{IdMap, IdSet};
use crate::mpi::{self, Comm, ListenerSet, Matched, OwnedSend, Port, Status};
use crate::procid::ProcId;
use crate::queue::{Match, MatchQueue, Message};
use crate::shm::mem::copy;
use crate::shm::{Channels, Push, Record};

/// Context id of the backend's own control traffic.
pub const CONTROL_CONTEXT: &str = "mpbridge.control";

/// Payloads up to this size go out with a blocking eager send from the
/// stack (well under every MPI's eager limit).
const SMALL_MAX: usize = 256;

/// How often a wait on a same-node peer checks that the peer still runs.
pub(crate) const PEER_CHECK: std::time::Duration = std::time::Duration::from_millis(100);

/// How long a process that must deliver its queued records (to end, or to
/// disconnect) waits for a receiver to read them before it says so (it
/// waits on while the receiver runs).
const BACKLOG_NOTICE: std::time::Duration = std::time::Duration::from_secs(10);

/// Size of a standing receive's buffer.
const LISTEN_CAP: usize = HEADER_LEN + INLINE_MAX;

/// The id of a context name: the same in every process, whatever the order
/// of creation (32-bit FNV-1a, top bit cleared so it is positive as `i32`).
pub const fn context_id(name: &str) -> u32 {
    let bytes = name.as_bytes();
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h & 0x7fff_ffff
}

/// Id of the control context, computed once at compile time (it is compared
/// with every arriving message's context).
const CONTROL_ID: u32 = context_id(CONTROL_CONTEXT);

/// One context: a private duplicate of the world communicator and the queue
/// of its arrived messages.
pub(crate) struct ContextState {
    pub name: String,
    pub comm: Comm,
    /// Index of its standing receive.
    pub listener: usize,
    pub queue: MatchQueue,
}

/// A link to processes started by another spawn (an intercommunicator).
pub(crate) struct Link {
    pub comm: Comm,
    pub peers: Vec<ProcId>,
    /// Index of its standing receive.
    pub listener: usize,
}

/// How to reach a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// Rank in this process's world (over each context's own communicator).
    World(i32),
    /// Link index and rank in the link's remote group.
    Link(usize, i32),
}

/// A message waiting for a link to its destination.
pub(crate) struct Outgoing {
    pub context: u32,
    pub tag: i32,
    pub encoding: u32,
    pub data: Vec<u8>,
}

/// Where a receive wants its payload.
pub(crate) enum Sink<'a> {
    /// Into the caller's buffer.
    Buf(&'a mut [u8]),
    /// Into a new vector.
    Vec(Vec<u8>),
    /// Into the caller's buffer when the payload fits it; a longer payload
    /// whole into the vector (nothing is cut off).
    Fit(&'a mut [u8], Vec<u8>),
}

/// A receive being served by the progress engine.
pub(crate) struct Want<'a, 'b> {
    pub context: u32,
    pub pattern: Match,
    /// Where the awaited message goes (the receive's own, borrowed for
    /// the wait: nothing is moved in and out per step).
    pub sink: &'a mut Sink<'b>,
    /// Set when a message was delivered: (source, tag, encoding, full length).
    pub got: Option<(ProcId, i32, u32, usize)>,
    /// Separately sent payloads of at least this many bytes are left in
    /// MPI (matched, not received) for a `Sink::Vec`: see `matched`.
    pub lazy_min: usize,
    /// The payload left in MPI, when one was.
    pub matched: Option<Matched>,
}

/// How a blocked receive sleeps.
pub(crate) enum Idle {
    /// Something arrived meanwhile: do not sleep.
    Ready,
    /// Sleep on the doorbell; same-node senders wake it at once. With
    /// `true` nothing can come but through a ring, so the sleep needs no
    /// time limit but the peer check's.
    Doorbell(crate::shm::Sleeper, bool),
    /// No channels: sleep the policy's step.
    Plain,
}

/// What a receive got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Received {
    /// Sender.
    pub source: ProcId,
    /// User tag.
    pub tag: i32,
    /// Layer encoding.
    pub encoding: u32,
    /// Full message length (may exceed the buffer: see `CoreError::Truncated`).
    pub len: usize,
}

/// The state of the backend in one process.
pub(crate) struct Engine {
    pub me: ProcId,
    pub world_rank: i32,
    pub world_ids: Vec<ProcId>,
    pub parent: Option<ProcId>,
    pub contexts: IdMap<u32, ContextState>,
    /// Every standing receive (contexts' and links').
    pub listeners: ListenerSet,
    /// Arrivals on links for contexts this process has not created yet.
    pub orphans: IdMap<u32, MatchQueue>,
    pub links: Vec<Option<Link>>,
    pub routes: IdMap<ProcId, Route>,
    pub pending_sends: Vec<OwnedSend>,
    pub waiting_for_link: IdMap<ProcId, Vec<Outgoing>>,
    pub unreachable: IdSet<ProcId>,
    /// Ports this process offered (it is the lower id of the pair).
    pub offers: IdMap<ProcId, Port>,
    /// Peers this process asked for a link and has not heard from yet.
    pub asked: IdSet<ProcId>,
    /// Registry (only in the root process): where the search for a free batch
    /// starts, and the path to each live batch's spawner.
    pub next_batch: u16,
    pub batch_paths: IdMap<u16, Vec<ProcId>>,
    pub next_request: u32,
    pub granted: IdMap<u32, u16>,
    pub ctl_inbox: Vec<Vec<u8>>,
    /// Same-node channels (`None` when off or unavailable).
    pub shm: Option<Channels>,
    /// What is left before the next full poll while waiting on rings, in
    /// spinning ring polls (see [`RING_FULL_EVERY`]).
    pub ring_polls_to_full: u32,
    /// The context a receive last found to exist (contexts are only
    /// removed when the engine ends): with nothing queued anywhere a
    /// receive on it need not look it up.
    pub recv_context: Option<u32>,
    /// The context of the last send and its communicator.
    pub last_send: Option<(u32, Comm)>,
    /// Where each peer met so far runs: (node key, process id).
    pub peer_procs: IdMap<ProcId, (u64, u32)>,
}

/// A wait that only a ring can serve runs a full poll (MPI's progress,
/// control messages, new slots) after this many of its spinning ring
/// polls. A full poll costs as much as dozens of ring polls, and a record
/// that arrives during one waits for it to end, so a spinning wait runs
/// few of them.
const RING_FULL_EVERY: u32 = 1024;

/// What a ring-head take or a poll of a single (yielding or sleeping)
/// step counts against [`RING_FULL_EVERY`]: a full poll every 64th.
const RING_STEP_COST: u32 = 16;

/// Ring record payloads up to this size are read out to the stack.
const SMALL_RECORD: usize = 256;

fn payload_of(bytes: &[u8]) -> &[u8] {
    &bytes[HEADER_LEN..]
}

/// What a ring push to `dest` means for the send: done (a queued record
/// gets the backlog thread going), an error for a receiver that ended, or
/// `None` when no ring leads to `dest`.
#[inline(always)]
fn pushed(p: Push, dest: ProcId) -> Option<CoreResult<()>> {
    match p {
        Push::Sent => Some(Ok(())),
        Push::Queued => {
            crate::lifecycle::start_backlog_flusher();
            Some(Ok(()))
        }
        Push::Gone => Some(Err(CoreError::UnknownPeer(dest))),
        Push::NoRing => None,
    }
}

/// Copies the inline `payload` of a ring record (header `h`) into `sink`
/// when it is the message a receive of `pattern` in `context` awaits (the
/// common case of a blocking receive) and returns what was delivered;
/// `None`, with nothing done, for anything else.
#[inline(always)]
fn deliver_in_place<S: Take + ?Sized>(
    context: u32,
    pattern: &Match,
    sink: &mut S,
    h: &Header,
    payload: &[u8],
) -> Option<(ProcId, i32, u32, usize)> {
    if h.body != Body::Inline
        || h.context == CONTROL_ID
        || h.context != context
        || !pattern.accepts(h.source, h.tag, h.encoding)
    {
        return None;
    }
    sink.take(payload);
    Some((h.source, h.tag, h.encoding, payload.len()))
}

/// Where [`deliver_in_place`] puts a payload: a receive's [`Sink`], or a
/// plain buffer (a sink whose kind is known where it is used).
pub(crate) trait Take {
    /// Takes `payload` in.
    fn take(&mut self, payload: &[u8]);
}

impl Take for Sink<'_> {
    #[inline(always)]
    fn take(&mut self, payload: &[u8]) {
        let len = payload.len();
        match self {
            Sink::Buf(buf) => buf.take(payload),
            Sink::Fit(buf, _) if len <= buf.len() => {
                copy(&mut buf[..len], payload);
            }
            Sink::Vec(v) | Sink::Fit(_, v) => {
                v.clear();
                v.extend_from_slice(payload);
            }
        }
    }
}

/// A buffer that truncates keeps what fits.
impl Take for [u8] {
    #[inline(always)]
    fn take(&mut self, payload: &[u8]) {
        let n = payload.len().min(self.len());
        copy(&mut self[..n], &payload[..n]);
    }
}

impl Engine {
    /// Creates the context `name` (collective over the world on first use).
    pub fn create_context(&mut self, name: &str) -> CoreResult<u32> {
        if name.is_empty() || name.len() > 256 {
            return Err(CoreError::InvalidArgument(
                "context name must have 1 to 256 bytes".into(),
            ));
        }
        let id = context_id(name);
        if let Some(c) = self.contexts.get(&id) {
            if c.name == name {
                return Ok(id);
            }
            return Err(CoreError::InvalidArgument(format!(
                "context name '{name}' collides with '{}'",
                c.name
            )));
        }
        // Every rank must create the same context at this point.
        let world = crate::roles::compute_comm()?;
        let (max, min) = world.allreduce_max_min_u32(&[id])?;
        if max[0] != id || min[0] != id {
            return Err(CoreError::Inconsistent(format!(
                "ranks created contexts in different orders (here '{name}')"
            )));
        }
        let comm = world.dup()?;
        let listener = self.listeners.add(comm, TAG_ENVELOPE, LISTEN_CAP)?;
        let queue = self.orphans.remove(&id).unwrap_or_default();
        self.contexts.insert(
            id,
            ContextState {
                name: name.to_string(),
                comm,
                listener,
                queue,
            },
        );
        Ok(id)
    }

    pub fn context(&mut self, id: u32) -> CoreResult<&mut ContextState> {
        self.contexts
            .get_mut(&id)
            .ok_or(CoreError::UnknownContext(id))
    }

    /// Registers a link whose remote group is `peers` and listens on it.
    pub fn add_link(&mut self, comm: Comm, peers: Vec<ProcId>) -> CoreResult<usize> {
        let listener = self.listeners.add(comm, TAG_ENVELOPE, LISTEN_CAP)?;
        let idx = self.links.len();
        for (r, p) in peers.iter().enumerate() {
            self.routes.insert(*p, Route::Link(idx, r as i32));
            self.asked.remove(p);
            self.offers.remove(p);
        }
        self.links.push(Some(Link {
            comm,
            peers: peers.clone(),
            listener,
        }));
        tracing::debug!(target: "core", peers = ?peers, "connection set up: MPI link");
        if let [peer] = peers[..] {
            self.open_link_channel(comm, peer)?;
        }
        for p in peers {
            if let Some(queued) = self.waiting_for_link.remove(&p) {
                for o in queued {
                    self.send_now(o.context, p, o.tag, o.encoding, Payload::Owned(o.data))?;
                }
            }
        }
        Ok(idx)
    }

    /// Sends `data` as [`send`](Self::send) does a borrowed payload. The
    /// common case, a payload that fits one ring record on the context of
    /// the last send, goes into the ring here, inlined into the caller;
    /// everything else (and a peer without a ring) goes to `send`.
    #[inline(always)]
    pub fn send_bytes(
        &mut self,
        context: u32,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        data: &[u8],
    ) -> CoreResult<()> {
        if let (Some((id, _)), Some(ch)) = (self.last_send, self.shm.as_mut()) {
            if id == context && RING_HEAD_LEN + data.len() <= ch.max_body() {
                let head = Header::ring_inline(context, tag, encoding);
                if let Some(r) = pushed(ch.push(dest, &head, data), dest) {
                    return r;
                }
            }
        }
        self.send(context, dest, tag, encoding, Payload::Borrowed(data))
    }

    /// Sends a message. Borrowed payloads are sent without copying and the
    /// call returns when the buffer may be reused; owned payloads return at once.
    #[inline(never)]
    pub fn send(
        &mut self,
        context: u32,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        payload: Payload<'_>,
    ) -> CoreResult<()> {
        // A sender mostly sends on one context: its communicator is kept.
        let comm = match self.last_send {
            Some((id, comm)) if id == context => comm,
            _ => {
                let Some(ctx) = self.contexts.get(&context) else {
                    return Err(CoreError::UnknownContext(context));
                };
                self.last_send = Some((context, ctx.comm));
                ctx.comm
            }
        };
        // A peer on this node with a ring: a payload that fits goes in one
        // record (one lookup, no route); a larger one follows through MPI.
        if let Some(ch) = self.shm.as_mut() {
            let bytes = payload.as_slice();
            if RING_HEAD_LEN + bytes.len() <= ch.max_body() {
                let head = Header::ring_inline(context, tag, encoding);
                if let Some(r) = pushed(ch.push(dest, &head, bytes), dest) {
                    return r;
                }
            } else if ch.has(dest) {
                return self.send_ring(context, Some(comm), None, dest, tag, encoding, payload);
            }
        }
        if let Some(route) = self.routes.get(&dest).copied() {
            return self.send_on(context, Some(comm), route, dest, tag, encoding, payload);
        }
        if dest == self.me {
            let data = payload.into_vec();
            self.context(context)?.queue.push(Message {
                source: dest,
                tag,
                encoding,
                data,
            });
            return Ok(());
        }
        if dest.batch() == self.me.batch() || self.unreachable.contains(&dest) {
            return Err(CoreError::UnknownPeer(dest));
        }
        self.waiting_for_link
            .entry(dest)
            .or_default()
            .push(Outgoing {
                context,
                tag,
                encoding,
                data: payload.into_vec(),
            });
        self.request_link(dest)
    }

    /// Sends over an existing route.
    fn send_now(
        &mut self,
        context: u32,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        payload: Payload<'_>,
    ) -> CoreResult<()> {
        let Some(route) = self.routes.get(&dest).copied() else {
            return Err(CoreError::UnknownPeer(dest));
        };
        self.send_on(context, None, route, dest, tag, encoding, payload)
    }

    /// Sends over `route`; `context_comm` is the context's communicator if
    /// the caller has it (a route in the world uses it).
    #[allow(clippy::too_many_arguments)]
    fn send_on(
        &mut self,
        context: u32,
        context_comm: Option<Comm>,
        route: Route,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        payload: Payload<'_>,
    ) -> CoreResult<()> {
        if self.shm.as_ref().is_some_and(|c| c.has(dest)) {
            return self.send_ring(
                context,
                context_comm,
                Some(route),
                dest,
                tag,
                encoding,
                payload,
            );
        }
        let (comm, rank) = self.mpi_route(context, context_comm, route, dest)?;
        let bytes = payload.as_slice();
        let mut header = Header {
            context,
            source: self.me,
            tag,
            encoding,
            len: bytes.len() as u64,
            body: Body::Inline,
        };
        if bytes.len() <= SMALL_MAX {
            let mut msg = [0u8; HEADER_LEN + SMALL_MAX];
            header.write(&mut msg);
            msg[HEADER_LEN..HEADER_LEN + bytes.len()].copy_from_slice(bytes);
            return mpi::send_small(&msg[..HEADER_LEN + bytes.len()], rank, TAG_ENVELOPE, comm);
        }
        if bytes.len() <= INLINE_MAX {
            let msg = header.with_inline(bytes);
            self.start_send(msg, rank, TAG_ENVELOPE, comm)?;
            return Ok(());
        }
        header.body = Body::Separate;
        let mut h = vec![0u8; HEADER_LEN];
        header.write(&mut h);
        self.start_send(h, rank, TAG_ENVELOPE, comm)?;
        self.send_payload(payload, rank, comm)
    }

    /// The communicator and rank a payload to or from `peer` travels on
    /// in `context` (`context_comm` when the caller has it).
    fn mpi_route(
        &mut self,
        context: u32,
        context_comm: Option<Comm>,
        route: Route,
        peer: ProcId,
    ) -> CoreResult<(Comm, i32)> {
        match route {
            Route::World(r) => match context_comm {
                Some(c) => Ok((c, r)),
                None => Ok((self.context(context)?.comm, r)),
            },
            Route::Link(i, r) => match &self.links[i] {
                Some(l) => Ok((l.comm, r)),
                None => Err(CoreError::UnknownPeer(peer)),
            },
        }
    }

    /// Sends through the same-node channel to `dest`: the envelope, with
    /// the payload when it fits, goes into the ring; a larger payload
    /// follows through MPI (received in ring order by the peer). `route`
    /// is looked up here when the caller has not.
    #[allow(clippy::too_many_arguments)]
    fn send_ring(
        &mut self,
        context: u32,
        context_comm: Option<Comm>,
        route: Option<Route>,
        dest: ProcId,
        tag: i32,
        encoding: u32,
        payload: Payload<'_>,
    ) -> CoreResult<()> {
        let bytes = payload.as_slice();
        let max = self.shm.as_ref().map_or(0, |c| c.max_body());
        // The ring takes any payload it has room for: one copy in, one
        // out, where MPI would switch to its rendezvous protocol.
        if RING_HEAD_LEN + bytes.len() <= max {
            let h = Header::ring_inline(context, tag, encoding);
            return self.push_ring(dest, &h, bytes);
        }
        let (h, len) = Header::ring_separate(context, tag, encoding, bytes.len());
        self.push_ring(dest, &h, &len)?;
        let route = match route {
            Some(r) => r,
            None => self
                .routes
                .get(&dest)
                .copied()
                .ok_or(CoreError::UnknownPeer(dest))?,
        };
        let (comm, rank) = self.mpi_route(context, context_comm, route, dest)?;
        self.send_payload(payload, rank, comm)
    }

    /// Writes one record to `dest`'s ring (queued behind a backlog when
    /// the ring is full); fails once `dest` is gone.
    fn push_ring(
        &mut self,
        dest: ProcId,
        head: &[u8; RING_HEAD_LEN],
        body: &[u8],
    ) -> CoreResult<()> {
        let Some(ch) = self.shm.as_mut() else {
            return Err(CoreError::UnknownPeer(dest));
        };
        pushed(ch.push(dest, head, body), dest).unwrap_or(Err(CoreError::UnknownPeer(dest)))
    }

    /// Moves ring backlogs once, as far as the rings have room (for the
    /// backlog thread: no MPI). Returns the records moved and whether any
    /// still wait.
    pub(crate) fn flush_backlogs_once(&mut self) -> (usize, bool) {
        match self.shm.as_mut() {
            Some(ch) => {
                let moved = ch.flush();
                (moved, ch.backlogged())
            }
            None => (0, false),
        }
    }

    /// Waits until this process's backlogs to `peers` (every peer when
    /// `None`) are in their rings, or their receivers ended. Prints one
    /// line when a receiver has read nothing for [`BACKLOG_NOTICE`].
    fn flush_backlogs(&mut self, peers: Option<&[ProcId]>) -> CoreResult<()> {
        let mut backoff = Backoff::new();
        let mut stalled = std::time::Instant::now();
        let mut told = false;
        loop {
            let Some(ch) = self.shm.as_mut() else {
                return Ok(());
            };
            let waiting = match peers {
                Some(ps) => ps.iter().any(|p| ch.backlog_for(*p)),
                None => ch.backlogged(),
            };
            if !waiting {
                return Ok(());
            }
            if self.progress(None)? > 0 {
                backoff.reset();
                stalled = std::time::Instant::now();
            } else if !told && stalled.elapsed() > BACKLOG_NOTICE {
                told = true;
                eprintln!(
                    "mpbridge: process {} waits for a receiver on this node to read the messages it sent ({} s without progress)",
                    self.me,
                    BACKLOG_NOTICE.as_secs()
                );
            }
            backoff.pause();
        }
    }

    /// Whether a peer still runs, as far as this process can tell: a peer
    /// on this node is looked up by its process id (whatever path its
    /// messages take); one on another node by its file in the job
    /// directory (see `liveness`), and counts as running without one.
    pub fn peer_alive(&self, peer: ProcId) -> bool {
        match self.peer_procs.get(&peer) {
            Some(&(node, pid)) if node == crate::shm::host_key() => crate::shm::pid_alive(pid),
            Some(&(node, pid)) => !crate::liveness::ended_elsewhere(node, pid),
            None => true,
        }
    }

    /// Process ids of the other processes of this one's own MPI world that
    /// run on this node.
    pub fn world_peer_pids(&self) -> Vec<u32> {
        let here = crate::shm::host_key();
        self.world_ids
            .iter()
            .filter(|id| **id != self.me)
            .filter_map(|id| self.peer_procs.get(id))
            .filter(|(node, _)| *node == here)
            .map(|(_, pid)| *pid)
            .collect()
    }

    /// Gets ready for a blocked receive of `pattern` to sleep (see [`Idle`]).
    pub fn prepare_idle(&self, pattern: &Match) -> Idle {
        let Some(ch) = self.shm.as_ref() else {
            return Idle::Plain;
        };
        match ch.prepare_sleep() {
            None => Idle::Ready,
            Some(s) => {
                let rings_only = self.rings_only(pattern);
                Idle::Doorbell(s, rings_only)
            }
        }
    }

    /// A watch on the one ring that can bring `pattern`'s message (a named
    /// sender's, when only a ring can bring it; see
    /// [`rings_only`](Self::rings_only)).
    pub(crate) fn ring_watch(&mut self, pattern: &Match) -> Option<crate::shm::Watch> {
        let src = pattern.source?;
        if !self.rings_only(pattern) {
            return None;
        }
        self.shm.as_mut()?.watch_from(src)
    }

    /// Whether a wait for `pattern` need only poll the rings: they alone
    /// can bring the message and no send of this process waits for MPI or
    /// for room in a ring.
    fn rings_only(&self, pattern: &Match) -> bool {
        self.rings_cover(pattern)
            && self.pending_sends.is_empty()
            && !self.shm.as_ref().is_some_and(|c| c.backlogged())
    }

    /// Whether every message for `pattern` can only come through a ring, so
    /// a poll of the rings alone sees it.
    pub fn rings_cover(&self, pattern: &Match) -> bool {
        let Some(ch) = self.shm.as_ref() else {
            return false;
        };
        match pattern.source {
            Some(s) => ch.has(s),
            None => ch.peers() == self.routes.len(),
        }
    }

    /// Sends a separately travelling payload through MPI: an owned one is
    /// handed over at once, a borrowed one is sent in place while this
    /// process keeps serving its own arrivals.
    fn send_payload(&mut self, payload: Payload<'_>, rank: i32, comm: Comm) -> CoreResult<()> {
        match payload {
            Payload::Owned(v) => self.start_send(v, rank, TAG_PAYLOAD, comm),
            Payload::Borrowed(b) => {
                let mut backoff = Backoff::new();
                mpi::send_borrowed(b, rank, TAG_PAYLOAD, comm, || {
                    if self.progress(None)? > 0 {
                        backoff.reset();
                    }
                    backoff.pause();
                    Ok(())
                })
            }
        }
    }

    fn start_send(&mut self, buf: Vec<u8>, rank: i32, tag: i32, comm: Comm) -> CoreResult<()> {
        let mut s = OwnedSend::start(buf, rank, tag, comm)?;
        if !s.test()? {
            self.pending_sends.push(s);
        }
        Ok(())
    }

    /// The message a receive of `pattern` in `context` awaits, taken
    /// straight from the head of a ring into `sink` when it is there,
    /// inline, and no queued message of the context matches first: a
    /// blocking receive whose message is waiting costs one lookup and a
    /// copy. `None` changes nothing; the caller then takes the full path,
    /// which also runs in place of every 64th of these (see
    /// [`RING_STEP_COST`]), so MPI traffic and control messages are still
    /// served.
    pub fn take_ring_head(
        &mut self,
        context: u32,
        pattern: &Match,
        sink: &mut Sink<'_>,
    ) -> Option<Received> {
        self.take_ring_head_with(context, pattern, sink)
    }

    /// [`take_ring_head`](Self::take_ring_head) into a plain buffer that
    /// keeps what fits (a blocking receive's first look): with the kind of
    /// sink known, the copy is made without asking it.
    pub fn take_ring_head_into(
        &mut self,
        context: u32,
        pattern: &Match,
        buf: &mut [u8],
    ) -> Option<Received> {
        self.take_ring_head_with(context, pattern, buf)
    }

    /// The body of [`take_ring_head`](Self::take_ring_head), inlined into
    /// it and into [`take_ring_head_into`](Self::take_ring_head_into).
    #[inline(always)]
    fn take_ring_head_with<S: Take + ?Sized>(
        &mut self,
        context: u32,
        pattern: &Match,
        sink: &mut S,
    ) -> Option<Received> {
        if self.ring_polls_to_full < RING_STEP_COST {
            // The wait this leads to starts with its full poll.
            self.ring_polls_to_full = 0;
            return None;
        }
        let r = self.ring_head(context, pattern, sink)?;
        self.ring_polls_to_full -= RING_STEP_COST;
        Some(r)
    }

    /// [`take_ring_head`](Self::take_ring_head) without its count of
    /// polls (for a burst of polls, which keeps its own). Inlined into
    /// both: it is most of a receive whose message is there.
    #[inline(always)]
    fn ring_head<S: Take + ?Sized>(
        &mut self,
        context: u32,
        pattern: &Match,
        sink: &mut S,
    ) -> Option<Received> {
        let ch = self.shm.as_mut()?;
        let rec = match pattern.source {
            Some(p) => ch.next_from(p)?,
            None => ch.next()?,
        };
        // A queued message that matches goes first; with nothing queued
        // anywhere only the context's existence is checked (once).
        if self.recv_context != Some(context) || crate::queue::any_queued() {
            if self.contexts.get(&context)?.queue.peek(pattern).is_some() {
                return None;
            }
            self.recv_context = Some(context);
        }
        let (header, payload) = Header::read_ring(rec.peer, ch.bytes(rec.off, rec.len)).ok()?;
        let (source, tag, encoding, len) =
            deliver_in_place(context, pattern, sink, &header, payload)?;
        ch.pop(rec);
        Some(Received {
            source,
            tag,
            encoding,
            len,
        })
    }

    /// Takes the first queued message of `context` matching `pattern`.
    pub fn take_queued(&mut self, context: u32, pattern: &Match) -> CoreResult<Option<Message>> {
        if self.recv_context == Some(context) && !crate::queue::any_queued() {
            return Ok(None);
        }
        let m = self.context(context)?.queue.take(pattern);
        self.recv_context = Some(context);
        Ok(m)
    }

    /// Polls everything once: outstanding sends, every standing receive
    /// (messages go to their context's queue, or straight to `want`), and
    /// control messages. Returns the number of events handled.
    pub fn progress(&mut self, want: Option<&mut Want<'_, '_>>) -> CoreResult<usize> {
        let mut events = 0;
        if let Some(ch) = self.shm.as_mut().filter(|c| c.backlogged()) {
            events += ch.flush();
        }
        let mut i = 0;
        while i < self.pending_sends.len() {
            if self.pending_sends[i].test()? {
                self.pending_sends.swap_remove(i);
                events += 1;
            } else {
                i += 1;
            }
        }
        let mut want = want;
        events += self.drain_rings(want.as_deref_mut(), None)?;
        if want.as_ref().is_some_and(|w| w.got.is_some()) {
            return Ok(events);
        }
        let mut listeners = std::mem::take(&mut self.listeners);
        let r = self.drain(&mut listeners, want);
        self.listeners = listeners;
        events += r?;
        if let Some(ch) = self.shm.as_mut() {
            ch.maintain();
        }
        while !self.ctl_inbox.is_empty() {
            let inbox = std::mem::take(&mut self.ctl_inbox);
            for bytes in inbox {
                events += 1;
                match Ctl::decode(&bytes) {
                    Ok(ctl) => self.handle_control(ctl)?,
                    Err(e) => eprintln!("mpbridge: dropped a control message: {e}"),
                }
            }
        }
        Ok(events)
    }

    /// Polls up to `polls` times, stopping as soon as anything happened
    /// (events are returned) or `want` was served.
    ///
    /// Most polls look only at the awaited context's own standing receive
    /// (the fastest way to see a message arrive), or, when only a ring can
    /// bring it, at the rings; every `FULL_EVERY`-th poll (on rings see
    /// [`RING_FULL_EVERY`]), and the first (not on rings), serve
    /// everything else too.
    pub fn progress_burst(&mut self, want: &mut Want<'_, '_>, polls: u32) -> CoreResult<usize> {
        const FULL_EVERY: u32 = 16;
        // When only a ring can bring the message, polls look at the rings
        // (unless a send of this process waits for MPI or for room in a ring).
        let rings_only = self.rings_only(&want.pattern);
        // Otherwise they look at one standing receive: a named sender of
        // another spawn writes on its link, everyone else on the
        // context's own communicator.
        let own = if rings_only {
            None
        } else {
            let linked = want.pattern.source.and_then(|s| match self.routes.get(&s) {
                Some(Route::Link(i, _)) => self.links[*i].as_ref().map(|l| l.listener),
                _ => None,
            });
            Some(match linked {
                Some(l) => l,
                None => self.context(want.context)?.listener,
            })
        };
        // A wildcard sender may be behind any link: then every poll is full.
        let any_linked = want.pattern.source.is_none() && self.links.iter().any(Option::is_some);
        let full_every = if rings_only {
            RING_FULL_EVERY
        } else if any_linked {
            1
        } else {
            FULL_EVERY
        };
        // What one poll counts against `full_every`: on rings a poll of a
        // single step counts as a ring-head take does.
        let cost = if rings_only && polls <= 1 {
            RING_STEP_COST
        } else {
            1
        };
        // Counts down to the next full poll (no division per poll). On
        // rings the count goes on across calls, so a wait made of many
        // short bursts still serves MPI (pending sends, links) regularly;
        // elsewhere every burst starts with a full poll.
        let mut until_full = if rings_only {
            self.ring_polls_to_full.min(full_every - cost)
        } else {
            0
        };
        let r = self.burst(want, polls, own, (full_every, cost), &mut until_full);
        self.ring_polls_to_full = if rings_only {
            until_full
        } else {
            // This burst began with a full poll: ring-head takes may go on.
            RING_FULL_EVERY - RING_STEP_COST
        };
        r
    }

    /// The polls of [`progress_burst`](Self::progress_burst): `own` is the
    /// standing receive to poll between full polls, `None` for the rings;
    /// a full poll comes when `until_full` has less than one poll's cost
    /// left, and `until_full` starts again from `full_every`.
    fn burst(
        &mut self,
        want: &mut Want<'_, '_>,
        polls: u32,
        own: Option<usize>,
        (full_every, cost): (u32, u32),
        until_full: &mut u32,
    ) -> CoreResult<usize> {
        for _ in 0..polls.max(1) {
            let full = *until_full < cost;
            *until_full = if full {
                full_every - cost
            } else {
                *until_full - cost
            };
            let n = if full {
                self.progress(Some(&mut *want))?
            } else if let Some(own) = own {
                let mut set = std::mem::take(&mut self.listeners);
                let r = set.poll_one(own, |comm, st, bytes| {
                    self.arrive(comm, st, bytes, Some(&mut *want))
                });
                self.listeners = set;
                usize::from(r?.is_some())
            } else {
                let from = want.pattern.source;
                // Waiting on one peer, most polls find its ring empty: look
                // at the record word alone before taking the full path.
                let quiet = match (from, self.shm.as_mut()) {
                    (Some(p), Some(ch)) => !ch.ready_from(p),
                    _ => false,
                };
                if quiet {
                    // A pause between polls of the empty ring: the sender
                    // writes the next record on the very line polled, and
                    // each poll asks its core for that line.
                    std::hint::spin_loop();
                    0
                } else if let Some(r) = self.ring_head(want.context, &want.pattern, want.sink) {
                    want.got = Some((r.source, r.tag, r.encoding, r.len));
                    1
                } else {
                    self.drain_rings(Some(&mut *want), from)?
                }
            };
            if n > 0 || want.got.is_some() {
                return Ok(n.max(1));
            }
        }
        Ok(0)
    }

    /// Handles the messages waiting on the standing receives.
    fn drain(
        &mut self,
        set: &mut ListenerSet,
        mut want: Option<&mut Want<'_, '_>>,
    ) -> CoreResult<usize> {
        let mut n = 0;
        // Bounded, so the caller gets control back under a flood; a served
        // receive returns at once (the rest is drained by the next poll).
        for _ in 0..64 {
            let got =
                set.poll(|comm, st, bytes| self.arrive(comm, st, bytes, want.as_deref_mut()))?;
            match got {
                Some(()) => n += 1,
                None => break,
            }
            if want.as_ref().is_some_and(|w| w.got.is_some()) {
                break;
            }
        }
        Ok(n)
    }

    /// Handles the records waiting in this process's rings (from `from`
    /// alone, when given), at most 64, stopping once `want` is served.
    fn drain_rings(
        &mut self,
        mut want: Option<&mut Want<'_, '_>>,
        from: Option<ProcId>,
    ) -> CoreResult<usize> {
        let mut n = 0;
        while n < 64 {
            let Some(ch) = self.shm.as_mut() else {
                break;
            };
            let rec = match from {
                Some(p) => ch.next_from(p),
                None => ch.next(),
            };
            let Some(rec) = rec else {
                break;
            };
            n += 1;
            self.arrive_ring(rec, want.as_deref_mut())?;
            if want.as_ref().is_some_and(|w| w.got.is_some()) {
                break;
            }
        }
        Ok(n)
    }

    /// One record arrived through a ring. The awaited message, inline,
    /// goes from the ring straight into the waiting buffer. Any other
    /// small one is copied out and released before anything else
    /// happens; a larger one is handled where it lies (straight into a
    /// waiting receive's buffer) and released after. Handling an arrival
    /// never polls the rings, so the record cannot be seen twice.
    fn arrive_ring(&mut self, rec: Record, mut want: Option<&mut Want<'_, '_>>) -> CoreResult<()> {
        let Some(ch) = self.shm.as_mut() else {
            return Ok(());
        };
        // The header is read once, where the record lies.
        let (header, payload) = match Header::read_ring(rec.peer, ch.bytes(rec.off, rec.len)) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("mpbridge: dropped a same-node message: {e}");
                ch.pop(rec);
                return Ok(());
            }
        };
        if let Some(w) = want.as_deref_mut().filter(|w| w.got.is_none()) {
            let got = deliver_in_place(w.context, &w.pattern, w.sink, &header, payload);
            if got.is_some() {
                w.got = got;
                ch.pop(rec);
                return Ok(());
            }
        }
        if payload.len() <= SMALL_RECORD {
            let mut small = [0u8; SMALL_RECORD];
            let small = &mut small[..payload.len()];
            small.copy_from_slice(payload);
            ch.pop(rec);
            return self.arrive_record(header, small, want);
        }
        let inbox = ch.inbox();
        let payload = &inbox.bytes(rec.off, rec.len)[RING_HEAD_LEN..];
        let r = self.arrive_record(header, payload, want);
        if let Some(ch) = self.shm.as_mut() {
            ch.pop(rec);
        }
        r
    }

    /// Files the envelope and inline payload of one ring record.
    fn arrive_record(
        &mut self,
        header: Header,
        payload: &[u8],
        want: Option<&mut Want<'_, '_>>,
    ) -> CoreResult<()> {
        // Only a payload that follows through MPI needs the route.
        let route = match header.body {
            Body::Separate => self.routes.get(&header.source).copied(),
            Body::Inline => None,
        };
        let from = match route {
            Some(route) => Some(self.mpi_route(header.context, None, route, header.source)?),
            None => None,
        };
        self.arrive_header(header, from, payload, want)
    }

    /// One header message arrived.
    fn arrive(
        &mut self,
        comm: Comm,
        st: Status,
        bytes: &[u8],
        want: Option<&mut Want<'_, '_>>,
    ) -> CoreResult<()> {
        let header = match Header::read(bytes) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("mpbridge: dropped a message from rank {}: {e}", st.source);
                return Ok(());
            }
        };
        self.arrive_header(header, Some((comm, st.source)), payload_of(bytes), want)
    }

    /// Files an arrived envelope: control traffic to the control inbox, a
    /// match straight into `want`, anything else into its context's queue.
    /// `from` is where a separately sent payload comes from; `payload` is
    /// the inline one (empty otherwise).
    fn arrive_header(
        &mut self,
        header: Header,
        from: Option<(Comm, i32)>,
        payload: &[u8],
        want: Option<&mut Want<'_, '_>>,
    ) -> CoreResult<()> {
        if header.context == CONTROL_ID {
            if header.body == Body::Inline {
                self.ctl_inbox.push(payload.to_vec());
            }
            return Ok(());
        }
        let len = header.len as usize;
        if let Some(w) = want {
            if w.got.is_none()
                && w.context == header.context
                && w.pattern
                    .accepts(header.source, header.tag, header.encoding)
            {
                self.deliver(w, &header, from, payload)?;
                return Ok(());
            }
        }
        let data = match header.body {
            Body::Inline => payload.to_vec(),
            Body::Separate => {
                let (comm, rank) = payload_from(&header, from)?;
                let mut v = Vec::new();
                recv_payload_append(&mut v, len, rank, comm)?;
                v
            }
        };
        let msg = Message {
            source: header.source,
            tag: header.tag,
            encoding: header.encoding,
            data,
        };
        match self.contexts.get_mut(&header.context) {
            Some(c) => c.queue.push(msg),
            None => self.orphans.entry(header.context).or_default().push(msg),
        }
        Ok(())
    }

    /// Puts a matching arrival straight into the waiting receive.
    fn deliver(
        &mut self,
        w: &mut Want<'_, '_>,
        header: &Header,
        from: Option<(Comm, i32)>,
        payload: &[u8],
    ) -> CoreResult<()> {
        let len = header.len as usize;
        let from = || payload_from(header, from);
        match (&mut *w.sink, header.body) {
            (Sink::Buf(buf), Body::Inline) => {
                let n = len.min(buf.len());
                copy(&mut buf[..n], &payload[..n]);
            }
            (Sink::Buf(buf), Body::Separate) if len <= buf.len() => {
                let (comm, rank) = from()?;
                recv_payload(&mut buf[..len], rank, comm)?;
            }
            (Sink::Buf(buf), Body::Separate) => {
                let (comm, rank) = from()?;
                let mut v = vec![0u8; len];
                recv_payload(&mut v, rank, comm)?;
                let n = buf.len();
                buf.copy_from_slice(&v[..n]);
            }
            (Sink::Vec(v), Body::Inline) => {
                v.clear();
                v.extend_from_slice(payload);
            }
            (Sink::Vec(v), Body::Separate) if len >= w.lazy_min => {
                let (comm, rank) = from()?;
                v.clear();
                let mut backoff = Backoff::new();
                w.matched = Some(mpi::mprobe(rank, TAG_PAYLOAD, comm, || backoff.pause())?);
            }
            (Sink::Vec(v), Body::Separate) => {
                let (comm, rank) = from()?;
                v.clear();
                recv_payload_append(v, len, rank, comm)?;
            }
            (Sink::Fit(buf, _), Body::Inline) if len <= buf.len() => {
                copy(&mut buf[..len], &payload[..len]);
            }
            (Sink::Fit(buf, _), Body::Separate) if len <= buf.len() => {
                let (comm, rank) = from()?;
                recv_payload(&mut buf[..len], rank, comm)?;
            }
            (Sink::Fit(_, v), Body::Inline) => {
                v.clear();
                v.extend_from_slice(payload);
            }
            (Sink::Fit(_, v), Body::Separate) => {
                let (comm, rank) = from()?;
                v.clear();
                recv_payload_append(v, len, rank, comm)?;
            }
        }
        w.got = Some((header.source, header.tag, header.encoding, len));
        Ok(())
    }

    /// Sends a control message to a neighbour (a process with a route).
    pub fn send_control(&mut self, to: ProcId, ctl: &Ctl) -> CoreResult<()> {
        let bytes = ctl.encode();
        let id = CONTROL_ID;
        if to == self.me {
            self.ctl_inbox.push(bytes);
            return Ok(());
        }
        self.send_now(id, to, 0, 0, Payload::Owned(bytes))
    }

    /// Cancels standing receives and releases communicators (process exit).
    pub fn shutdown(&mut self) -> CoreResult<()> {
        // Records waiting for room in a ring are delivered first (a large
        // payload's MPI send completes only after its envelope is read).
        self.flush_backlogs(None)?;
        // Give outstanding sends a moment to complete; the rest are released.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let mut backoff = Backoff::new();
        while (!self.pending_sends.is_empty() || !self.waiting_for_link.is_empty())
            && std::time::Instant::now() < deadline
        {
            self.progress(None)?;
            backoff.pause();
        }
        self.pending_sends.clear();
        // Senders waiting to write here give up from now on.
        if let Some(ch) = self.shm.as_mut() {
            ch.leave();
            ch.close_all();
        }
        let peers: Vec<ProcId> = self
            .links
            .iter()
            .flatten()
            .flat_map(|l| l.peers.clone())
            .collect();
        for p in peers {
            self.disconnect(p)?;
        }
        self.last_send = None;
        for (_, c) in self.contexts.drain() {
            self.listeners.remove(c.listener);
            c.comm.free()?;
        }
        Ok(())
    }
}

/// Where the separately sent payload of `header` comes from.
fn payload_from(header: &Header, from: Option<(Comm, i32)>) -> CoreResult<(Comm, i32)> {
    from.ok_or(CoreError::UnknownPeer(header.source))
}

/// Receives a separately sent payload from `rank`, polling nothing else (the
/// sender posts it right after the header).
fn recv_payload(buf: &mut [u8], rank: i32, comm: Comm) -> CoreResult<usize> {
    let mut backoff = Backoff::new();
    mpi::recv_borrowed(buf, rank, TAG_PAYLOAD, comm, || backoff.pause())
}

/// Like [`recv_payload`], appending to `v` without zero-filling it first.
fn recv_payload_append(v: &mut Vec<u8>, len: usize, rank: i32, comm: Comm) -> CoreResult<usize> {
    let mut backoff = Backoff::new();
    mpi::recv_append(v, len, rank, TAG_PAYLOAD, comm, || backoff.pause())
}

/// A payload to send: borrowed (sent in place) or owned (handed to MPI).
pub enum Payload<'a> {
    /// The caller's bytes; the send returns when they may be reused.
    Borrowed(&'a [u8]),
    /// Bytes the backend takes over; the send returns at once.
    Owned(Vec<u8>),
}

impl Payload<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Payload::Borrowed(b) => b,
            Payload::Owned(v) => v,
        }
    }

    fn into_vec(self) -> Vec<u8> {
        match self {
            Payload::Borrowed(b) => b.to_vec(),
            Payload::Owned(v) => v,
        }
    }
}

/// Handles control messages: routing through the registry, batch numbers,
/// and the connect/accept handshake.
impl Engine {
    fn handle_control(&mut self, ctl: Ctl) -> CoreResult<()> {
        match ctl.route {
            CtlRoute::Direct => self.on_control(ctl.body, Vec::new()),
            CtlRoute::ToRoot { mut trail } => {
                if self.me == ProcId::root() {
                    self.at_root(ctl.body, trail)
                } else {
                    trail.push(self.me);
                    let up = self.up()?;
                    self.send_control(
                        up,
                        &Ctl {
                            route: CtlRoute::ToRoot { trail },
                            body: ctl.body,
                        },
                    )
                }
            }
            CtlRoute::Along {
                mut path,
                mut trail,
            } => {
                if path.first() == Some(&self.me) {
                    path.remove(0);
                }
                match path.first().copied() {
                    None => {
                        trail.reverse();
                        self.on_control(ctl.body, trail)
                    }
                    Some(next) => {
                        trail.push(self.me);
                        self.send_control(
                            next,
                            &Ctl {
                                route: CtlRoute::Along { path, trail },
                                body: ctl.body,
                            },
                        )
                    }
                }
            }
        }
    }

    /// The neighbour towards the registry.
    fn up(&self) -> CoreResult<ProcId> {
        if self.me.batch() == 0 {
            Ok(ProcId::root())
        } else {
            self.parent.ok_or_else(|| {
                CoreError::Inconsistent("a spawned process has no parent link".into())
            })
        }
    }

    /// Sends a control body towards the registry (or handles it, in the registry).
    pub fn send_to_root(&mut self, body: CtlBody) -> CoreResult<()> {
        if self.me == ProcId::root() {
            return self.at_root(body, vec![self.me]);
        }
        let up = self.up()?;
        self.send_control(
            up,
            &Ctl {
                route: CtlRoute::ToRoot {
                    trail: vec![self.me],
                },
                body,
            },
        )
    }

    /// Sends a control body along `path` (next hop first).
    fn along(&mut self, path: Vec<ProcId>, body: CtlBody) -> CoreResult<()> {
        match path.first().copied() {
            None => self.on_control(body, Vec::new()),
            Some(next) => self.send_control(
                next,
                &Ctl {
                    route: CtlRoute::Along {
                        path,
                        trail: vec![self.me],
                    },
                    body,
                },
            ),
        }
    }

    /// The registry's path to a process (next hop first), if it knows one.
    fn path_to(&self, target: ProcId) -> Option<Vec<ProcId>> {
        if target == self.me {
            return Some(Vec::new());
        }
        if target.batch() == 0 {
            return Some(vec![target]);
        }
        let mut p = self.batch_paths.get(&target.batch())?.clone();
        p.push(target);
        Some(p)
    }

    /// The registry handles a message that came up `trail` (origin first).
    fn at_root(&mut self, body: CtlBody, trail: Vec<ProcId>) -> CoreResult<()> {
        let mut back = trail.clone();
        back.reverse();
        if back.first() == Some(&self.me) {
            back.remove(0);
        }
        match body {
            CtlBody::AllocBatch { request } => {
                let batch = self.grant_batch(back.clone());
                self.along(back, CtlBody::BatchGranted { request, batch })
            }
            CtlBody::BatchDone { batch } => {
                self.batch_paths.remove(&batch);
                Ok(())
            }
            CtlBody::Hello { to, .. }
            | CtlBody::Offer { to, .. }
            | CtlBody::Go { to, .. }
            | CtlBody::Decline { to, .. } => match self.path_to(to) {
                Some(path) if path.is_empty() => self.on_control(body, back),
                Some(path) => {
                    let mut t = trail;
                    t.push(self.me);
                    let next = path[0];
                    self.send_control(
                        next,
                        &Ctl {
                            route: CtlRoute::Along { path, trail: t },
                            body,
                        },
                    )
                }
                None => self.along(back, CtlBody::Unreachable { to }),
            },
            other => {
                eprintln!("mpbridge: registry ignored an unexpected {other:?}");
                Ok(())
            }
        }
    }

    /// A control message reached its destination; `back` leads to its origin.
    fn on_control(&mut self, body: CtlBody, back: Vec<ProcId>) -> CoreResult<()> {
        match body {
            CtlBody::BatchGranted { request, batch } => {
                self.granted.insert(request, batch);
                Ok(())
            }
            CtlBody::Hello { from, .. } => {
                if self.routes.contains_key(&from)
                    || self.offers.contains_key(&from)
                    || from < self.me
                {
                    return Ok(());
                }
                self.offer(from, back)
            }
            CtlBody::Offer { from, port, .. } => {
                if self.routes.contains_key(&from) {
                    return self.along(
                        back,
                        CtlBody::Decline {
                            from: self.me,
                            to: from,
                        },
                    );
                }
                self.along(
                    back,
                    CtlBody::Go {
                        from: self.me,
                        to: from,
                    },
                )?;
                tracing::debug!(target: "core", peer = %from, "connecting to the peer's port");
                let comm = mpi::connect(&port)?;
                self.add_link(comm, vec![from])?;
                Ok(())
            }
            CtlBody::Go { from, .. } => match self.offers.remove(&from) {
                Some(port) => {
                    tracing::debug!(target: "core", peer = %from, "accepting the peer on our port");
                    let comm = port.accept()?;
                    drop(port);
                    self.add_link(comm, vec![from])?;
                    Ok(())
                }
                None => Ok(()),
            },
            CtlBody::Decline { from, .. } => {
                self.offers.remove(&from);
                Ok(())
            }
            CtlBody::Unreachable { to } => {
                tracing::info!(target: "core", peer = %to, "the registry knows no path to the peer");
                self.waiting_for_link.remove(&to);
                self.asked.remove(&to);
                self.unreachable.insert(to);
                Ok(())
            }
            CtlBody::Bye { from } => self.drop_link(from),
            CtlBody::AllocBatch { .. } | CtlBody::BatchDone { .. } => Ok(()),
        }
    }

    /// Opens a port for `peer` and sends it along `back` (or through the registry).
    fn offer(&mut self, peer: ProcId, back: Vec<ProcId>) -> CoreResult<()> {
        let port = Port::open()?;
        let name = port.name();
        self.offers.insert(peer, port);
        let body = CtlBody::Offer {
            from: self.me,
            to: peer,
            port: name,
        };
        if back.is_empty() {
            self.send_to_root(body)
        } else {
            self.along(back, body)
        }
    }

    /// Starts setting up a direct link to `peer` (answered during progress).
    pub fn request_link(&mut self, peer: ProcId) -> CoreResult<()> {
        if self.routes.contains_key(&peer)
            || self.asked.contains(&peer)
            || self.offers.contains_key(&peer)
        {
            return Ok(());
        }
        if self.me < peer {
            self.offer(peer, Vec::new())
        } else {
            self.asked.insert(peer);
            self.send_to_root(CtlBody::Hello {
                from: self.me,
                to: peer,
            })
        }
    }

    /// Disconnects the link to `peer` (telling it first).
    pub fn disconnect(&mut self, peer: ProcId) -> CoreResult<()> {
        let Some(Route::Link(idx, _)) = self.routes.get(&peer).copied() else {
            return Err(CoreError::UnknownPeer(peer));
        };
        tracing::debug!(target: "core", %peer, "disconnecting the link");
        let bye = Ctl {
            route: CtlRoute::Direct,
            body: CtlBody::Bye { from: self.me },
        };
        let peers = self.links[idx]
            .as_ref()
            .map(|l| l.peers.clone())
            .unwrap_or_default();
        if !peers.iter().any(|p| self.peer_alive(*p)) {
            // Nobody is left at the other end to say goodbye to or to
            // disconnect with.
            return self.forget_link(peer);
        }
        for p in peers {
            if self.peer_alive(p) {
                self.send_control(p, &bye)?;
            }
        }
        self.drop_link(peer)
    }

    /// Forgets the link that reaches `peer` when every process at its other
    /// end has ended: routes, rings and listener go, and the communicator
    /// is freed locally (a disconnect would wait for the dead). Returns
    /// without change while any of them still runs.
    pub fn forget_link(&mut self, peer: ProcId) -> CoreResult<()> {
        let Some(Route::Link(idx, _)) = self.routes.get(&peer).copied() else {
            return Ok(());
        };
        let Some(peers) = self.links[idx].as_ref().map(|l| l.peers.clone()) else {
            return Ok(());
        };
        if peers.iter().any(|p| self.peer_alive(*p)) {
            return Ok(());
        }
        let Some(link) = self.detach_link(idx) else {
            return Ok(());
        };
        tracing::debug!(target: "core", %peer, "link closed by the peer");
        for p in &link.peers {
            // Sends waiting for a link to the dead never go.
            self.waiting_for_link.remove(p);
        }
        link.comm.free()
    }

    /// Takes link `idx` out of use: its peers lose their routes and rings
    /// and are not reconnected to (a process of another spawn that left or
    /// died), and its standing receive goes. The caller releases the
    /// communicator.
    fn detach_link(&mut self, idx: usize) -> Option<Link> {
        let link = self.links[idx].take()?;
        for p in &link.peers {
            if let Some(ch) = self.shm.as_mut() {
                ch.disconnect(*p);
            }
            self.routes.remove(p);
            self.unreachable.insert(*p);
        }
        self.listeners.remove(link.listener);
        Some(link)
    }

    /// Releases the link that reaches `peer` (collective with the other side).
    fn drop_link(&mut self, peer: ProcId) -> CoreResult<()> {
        let Some(Route::Link(idx, _)) = self.routes.get(&peer).copied() else {
            return Ok(());
        };
        // Records still waiting for room in the peers' rings go first.
        let peers = self.links[idx]
            .as_ref()
            .map(|l| l.peers.clone())
            .unwrap_or_default();
        self.flush_backlogs(Some(&peers))?;
        let Some(link) = self.detach_link(idx) else {
            return Ok(());
        };
        // Sends still queued on this link would block the disconnect.
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
        while !self.pending_sends.is_empty() && std::time::Instant::now() < deadline {
            let mut i = 0;
            while i < self.pending_sends.len() {
                if self.pending_sends[i].test()? {
                    self.pending_sends.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            std::thread::yield_now();
        }
        link.comm.disconnect()
    }
}
