//! The TCGMSG state of one process and its messages, on the core.
//!
//! TCGMSG's messages are envelopes of the core in the layer's own context
//! (`"tcgmsg"`), so they take the core's same-node channels and its MPI
//! path like every other layer's. A TCGMSG type (a C `long`) travels whole:
//! its low 32 bits as the envelope's user tag, its high 32 bits in the
//! encoding word, matched exactly. Types never become MPI tags.
//!
//! # Matching
//! An arrival goes, in this order, to the oldest pending asynchronous
//! receive it matches (type equal, node equal or −1), to the synchronous
//! receive being served, or stays queued in the core, in arrival order,
//! for later receives. Pending asynchronous receives are served whenever
//! the layer is entered and while it waits.
//!
//! # Two parts
//! [`Nodes`] holds what never changes after `PBEGIN` (the context, the
//! node ids) and the per-message counters; it is shared without a lock, so
//! a synchronous `SND`, and an `RCV` while no asynchronous receive is
//! pending, take no lock of the layer's: they go straight to the core.
//! [`Tcg`] holds the pending asynchronous receives, behind the layer's lock.

use crate::ptr::UserBuf;
use shim_core::backoff::Backoff;
use shim_core::mpi::Comm;
use shim_core::{Context, CoreError, Match, Membership, Message, ProcId};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A TCGMSG failure: what `Error` prints, and its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TcgError {
    pub msg: String,
    pub code: i64,
}

impl TcgError {
    pub fn new(msg: impl Into<String>, code: i64) -> TcgError {
        TcgError {
            msg: msg.into(),
            code,
        }
    }
}

impl From<shim_core::CoreError> for TcgError {
    fn from(e: shim_core::CoreError) -> TcgError {
        TcgError::new(e.to_string(), -1)
    }
}

pub type TcgResult<T> = Result<T, TcgError>;

/// A posted asynchronous receive.
struct AsyncRecv {
    ty: i64,
    node: Option<i32>,
    buf: UserBuf,
    done: bool,
}

/// Communication counts for `STATS`.
#[derive(Default, Debug, Clone, Copy)]
pub struct Stats {
    pub sent: u64,
    pub sent_bytes: u64,
    pub received: u64,
    pub received_bytes: u64,
}

/// A message counter for `STATS`. A plain load and store, not an atomic
/// add: the count is statistics, and the layer is not used from several
/// threads at once (TCGMSG is not thread-safe), so no lock prefix is paid
/// per message.
#[derive(Default)]
struct Counter(AtomicU64);

impl Counter {
    #[inline]
    fn add(&self, n: u64) {
        let c = &self.0;
        c.store(c.load(Ordering::Relaxed).wrapping_add(n), Ordering::Relaxed);
    }

    fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// What the layer fixes at `PBEGIN`, and its per-message counters and
/// flags: everything a synchronous message needs, without a lock.
pub struct Nodes {
    /// The context's communicator over the compute ranks (collectives).
    pub comm: Comm,
    pub me: i32,
    pub nodes: i32,
    ctx: Context,
    /// The core's id of every node.
    ids: Vec<ProcId>,
    /// `SETDBG`: a line on stderr per message.
    debug: AtomicBool,
    /// Whether an asynchronous receive is pending (kept by [`Tcg`]): then
    /// every arrival is offered to those first, under the layer's lock.
    pending: AtomicBool,
    /// Between `PBEGIN` and `PEND`.
    live: AtomicBool,
    sent: Counter,
    sent_bytes: Counter,
    received: Counter,
    received_bytes: Counter,
}

/// The layer's state behind its lock: the pending asynchronous receives.
pub struct Tcg {
    pub n: &'static Nodes,
    /// The asynchronous receives still pending, oldest first.
    arecvs: Vec<AsyncRecv>,
    membership: Option<Membership>,
}

/// The envelope pattern of type `ty` from `node` (any node for `None`).
fn pattern(ty: i64, node: Option<ProcId>) -> Match {
    Match {
        source: node,
        tag: Some(ty as i32),
        encoding: (u32::MAX, (ty >> 32) as u32),
    }
}

/// A failure of the core in `call` (which names the other node).
#[cold]
#[inline(never)]
fn core_failed(call: &str, node: Option<i32>, e: CoreError) -> TcgError {
    match node {
        Some(n) => TcgError::new(format!("{call} node {n}: {e}"), -1),
        None => TcgError::new(format!("{call}: {e}"), -1),
    }
}

#[cold]
#[inline(never)]
fn too_long(call: &str, ty: i64, source: i32, len: usize, cap: usize) -> TcgError {
    TcgError::new(
        format!(
            "{call}: message of type {ty} from node {source} has {len} bytes, \
             more than the receive buffer of {cap} bytes"
        ),
        len as i64,
    )
}

impl Nodes {
    /// Finds the layer's context and nodes (collective over the compute
    /// ranks: the context is created on first use).
    pub fn start() -> TcgResult<Nodes> {
        let e = |x: CoreError| TcgError::new(format!("PBEGIN: {x}"), -1);
        let ctx = Context::create("tcgmsg").map_err(e)?;
        let comm = ctx.comm().map_err(e)?;
        let ids = shim_core::world_ids().map_err(e)?;
        let me = shim_core::world_rank().map_err(e)?;
        Ok(Nodes {
            comm,
            me,
            nodes: ids.len() as i32,
            ctx,
            ids,
            debug: AtomicBool::new(false),
            pending: AtomicBool::new(false),
            live: AtomicBool::new(true),
            sent: Counter::default(),
            sent_bytes: Counter::default(),
            received: Counter::default(),
            received_bytes: Counter::default(),
        })
    }

    /// Whether the layer runs (between `PBEGIN` and `PEND`).
    #[inline]
    pub fn live(&self) -> bool {
        self.live.load(Ordering::Relaxed)
    }

    /// Whether an asynchronous receive is pending.
    #[inline]
    pub fn pending(&self) -> bool {
        self.pending.load(Ordering::Acquire)
    }

    /// `SETDBG`.
    pub fn set_debug(&self, on: bool) {
        self.debug.store(on, Ordering::Relaxed);
    }

    /// The counts for `STATS`.
    pub fn stats(&self) -> Stats {
        Stats {
            sent: self.sent.get(),
            sent_bytes: self.sent_bytes.get(),
            received: self.received.get(),
            received_bytes: self.received_bytes.get(),
        }
    }

    fn count_received(&self, len: usize) {
        self.received.add(1);
        self.received_bytes.add(len as u64);
    }

    /// Checks a node number argument.
    #[inline]
    pub fn node(&self, call: &str, what: &str, node: i64) -> TcgResult<i32> {
        if node < 0 || node >= i64::from(self.nodes) {
            return Err(self.not_a_node(call, what, node));
        }
        Ok(node as i32)
    }

    #[cold]
    #[inline(never)]
    fn not_a_node(&self, call: &str, what: &str, node: i64) -> TcgError {
        TcgError::new(
            format!(
                "{call}: {what} {node} is not a node (0..{})",
                self.nodes - 1
            ),
            node,
        )
    }

    /// Checks a node selector (−1 is any node).
    #[inline]
    pub fn selector(&self, call: &str, node: i64) -> TcgResult<Option<i32>> {
        if node == -1 {
            Ok(None)
        } else {
            self.node(call, "node", node).map(Some)
        }
    }

    /// The node number of `id` (−1 for a process that is no node). Nodes
    /// are mostly numbered like their world ranks, so that guess is
    /// tried first.
    fn node_of(&self, id: ProcId) -> i32 {
        let guess = id.rank() as usize;
        if self.ids.get(guess) == Some(&id) {
            return guess as i32;
        }
        self.ids
            .iter()
            .position(|i| *i == id)
            .map_or(-1, |n| n as i32)
    }

    /// The envelope pattern of type `ty` from `node` (any for `None`).
    #[inline]
    fn pattern(&self, ty: i64, node: Option<i32>) -> Match {
        pattern(ty, node.map(|n| self.ids[n as usize]))
    }

    /// `SND` of `data` to `node`; an asynchronous send (`owned`) hands
    /// the core a copy, so it returns at once and `WAITCOM` has nothing to
    /// wait for. A message to this node itself is then offered to the
    /// pending asynchronous receives by the caller.
    #[inline]
    pub fn snd(&self, ty: i64, data: &[u8], node: i32, owned: bool) -> TcgResult<()> {
        if self.debug.load(Ordering::Relaxed) {
            self.trace("snd", ty, data.len(), node, owned);
        }
        self.sent.add(1);
        self.sent_bytes.add(data.len() as u64);
        let dest = self.ids[node as usize];
        let (tag, enc) = (ty as i32, (ty >> 32) as u32);
        let r = if owned {
            self.ctx.send_owned(dest, tag, enc, data.to_vec())
        } else {
            self.ctx.send(dest, tag, enc, data)
        };
        match r {
            Ok(()) => Ok(()),
            Err(e) => Err(core_failed("SND: to", Some(node), e)),
        }
    }

    /// `RCV` of type `ty` from `node` (any for `None`) into `buf` when no
    /// asynchronous receive is pending (nothing posted earlier can claim
    /// the message): the core's own receive, straight into `buf`. Returns
    /// (length, sender).
    #[inline]
    pub fn rcv(&self, ty: i64, buf: &mut [u8], node: Option<i32>) -> TcgResult<(usize, i32)> {
        let r = match self
            .ctx
            .recv_into_truncating(self.pattern(ty, node), buf, None)
        {
            Ok(r) => r,
            Err(e) => return Err(core_failed("RCV: from", node, e)),
        };
        let src = node.unwrap_or_else(|| self.node_of(r.source));
        self.received_whole(ty, r.len, src, buf.len())
    }

    /// Counts a received message of `len` bytes from `src`; one longer
    /// than the buffer (`cap`) is an error.
    #[inline]
    fn received_whole(&self, ty: i64, len: usize, src: i32, cap: usize) -> TcgResult<(usize, i32)> {
        if len > cap {
            return Err(too_long("rcv", ty, src, len, cap));
        }
        self.count_received(len);
        if self.debug.load(Ordering::Relaxed) {
            self.trace("rcv", ty, len, src, false);
        }
        Ok((len, src))
    }

    /// The `SETDBG` line of one message.
    #[cold]
    #[inline(never)]
    fn trace(&self, what: &str, ty: i64, len: usize, node: i32, asynchronous: bool) {
        let (dir, mode) = match (what, asynchronous) {
            ("snd", true) => ("to", " async"),
            ("snd", false) => ("to", " sync"),
            _ => ("from", ""),
        };
        eprintln!("{}: {what} type {ty} len {len} {dir} {node}{mode}", self.me);
    }
}

impl Tcg {
    /// The locked state of a layer started on `n`, with its membership
    /// of the backend.
    pub fn new(n: &'static Nodes, membership: Membership) -> Tcg {
        Tcg {
            n,
            arecvs: Vec::new(),
            membership: Some(membership),
        }
    }

    /// Stops the layer; gives back its membership of the backend.
    pub fn stop(mut self) -> Option<Membership> {
        self.n.live.store(false, Ordering::Relaxed);
        let pending = self.arecvs.iter().filter(|a| !a.done).count();
        if pending > 0 {
            eprintln!(
                "{}: PEND: {pending} asynchronous receives were never matched",
                self.n.me
            );
        }
        self.arecvs.clear();
        self.n.pending.store(false, Ordering::Release);
        self.membership.take()
    }

    /// Keeps only the pending asynchronous receives and tells [`Nodes`]
    /// whether any is left.
    fn forget_done(&mut self) {
        self.arecvs.retain(|a| !a.done);
        self.n
            .pending
            .store(!self.arecvs.is_empty(), Ordering::Release);
    }

    /// Gives arrived messages to the pending asynchronous receives: each
    /// arrival, earliest first, to the oldest receive it matches. Returns
    /// whether any completed.
    fn serve_async(&mut self) -> TcgResult<bool> {
        let mut any = false;
        while !self.arecvs.is_empty() {
            let mut who = None;
            let next = self.n.ctx.take_where(|m| {
                who = self.claimant(m);
                who.is_some()
            })?;
            let (Some(m), Some(i)) = (next, who) else {
                break;
            };
            self.complete(i, &m)?;
            self.forget_done();
            any = true;
        }
        Ok(any)
    }

    /// The oldest pending asynchronous receive that takes `m`.
    fn claimant(&self, m: &Message) -> Option<usize> {
        self.arecvs.iter().position(|a| {
            !a.done
                && self
                    .n
                    .pattern(a.ty, a.node)
                    .accepts(m.source, m.tag, m.encoding)
        })
    }

    /// Completes asynchronous receive `i` with `m` (the caller then
    /// forgets the completed receives).
    fn complete(&mut self, i: usize, m: &Message) -> TcgResult<()> {
        let n = self.n;
        let a = &mut self.arecvs[i];
        if m.data.len() > a.buf.len() {
            let src = n.node_of(m.source);
            return Err(too_long("rcv", a.ty, src, m.data.len(), a.buf.len()));
        }
        a.buf.as_mut_slice()[..m.data.len()].copy_from_slice(&m.data);
        a.done = true;
        n.count_received(m.data.len());
        Ok(())
    }

    /// `RCV` of type `ty` from `node` (any for `None`) into `buf`; returns
    /// (length, sender). Asynchronous receives posted earlier are served
    /// first.
    pub fn rcv(&mut self, ty: i64, buf: &mut [u8], node: Option<i32>) -> TcgResult<(usize, i32)> {
        if self.arecvs.is_empty() {
            return self.n.rcv(ty, buf, node);
        }
        let m = self.rcv_after_async(&self.n.pattern(ty, node))?;
        let src = self.n.node_of(m.source);
        let k = m.data.len().min(buf.len());
        buf[..k].copy_from_slice(&m.data[..k]);
        self.n.received_whole(ty, m.data.len(), src, buf.len())
    }

    /// A synchronous receive while asynchronous ones are pending: each
    /// arrival, earliest first, goes to the oldest pending asynchronous
    /// receive it matches, else to this receive if it matches (one step
    /// takes one message, so a message that arrives while the step runs
    /// cannot pass one that an asynchronous receive takes).
    fn rcv_after_async(&mut self, want: &Match) -> TcgResult<Message> {
        let mut backoff = Backoff::new();
        loop {
            let mut who = None;
            let next = self.n.ctx.take_where(|m| {
                who = self.claimant(m);
                who.is_some() || want.accepts(m.source, m.tag, m.encoding)
            })?;
            let Some(m) = next else {
                backoff.pause();
                continue;
            };
            let Some(i) = who else {
                return Ok(m);
            };
            self.complete(i, &m)?;
            self.forget_done();
            backoff.reset();
        }
    }

    /// Offers what arrived to the pending asynchronous receives, if any
    /// (after a message to this node itself).
    pub fn serve_pending(&mut self) -> TcgResult<()> {
        self.serve_async().map(|_| ())
    }

    /// Asynchronous `RCV` into `buf`, completed by `WAITCOM` (at once when
    /// a matching message is already there).
    pub fn rcv_async(&mut self, ty: i64, buf: UserBuf, node: Option<i32>) -> TcgResult<()> {
        self.arecvs.push(AsyncRecv {
            ty,
            node,
            buf,
            done: false,
        });
        self.n.pending.store(true, Ordering::Release);
        self.serve_async()?;
        Ok(())
    }

    /// `PROBE`: whether a message of type `ty` from `node` is waiting.
    pub fn probe(&mut self, ty: i64, node: Option<i32>) -> TcgResult<bool> {
        self.serve_async()?;
        Ok(self.n.ctx.probe(self.n.pattern(ty, node))?.is_some())
    }

    /// `WAITCOM`: completes the asynchronous receives with `node` (`None`:
    /// all of them); asynchronous sends are complete already.
    pub fn waitcom(&mut self, node: Option<i32>) -> TcgResult<()> {
        let pending = |t: &Tcg| {
            t.arecvs
                .iter()
                .any(|a| !a.done && (node.is_none() || a.node.is_none() || a.node == node))
        };
        let mut backoff = Backoff::new();
        while pending(self) {
            if self.serve_async()? {
                backoff.reset();
            } else {
                backoff.pause();
            }
        }
        self.forget_done();
        Ok(())
    }
}
