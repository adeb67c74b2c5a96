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

use crate::ptr::UserBuf;
use shim_core::backoff::Backoff;
use shim_core::mpi::Comm;
use shim_core::{Context, CoreError, Match, Membership, Message, ProcId};

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

/// The layer's state in one process.
pub struct Tcg {
    /// The context's communicator over the compute ranks (collectives).
    pub comm: Comm,
    pub me: i32,
    pub nodes: i32,
    pub debug: bool,
    pub stats: Stats,
    ctx: Context,
    /// The core's id of every node.
    ids: Vec<ProcId>,
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

fn too_long(call: &str, ty: i64, source: i32, len: usize, cap: usize) -> TcgError {
    TcgError::new(
        format!(
            "{call}: message of type {ty} from node {source} has {len} bytes, \
             more than the receive buffer of {cap} bytes"
        ),
        len as i64,
    )
}

impl Tcg {
    /// Starts the layer on the compute ranks (collective).
    pub fn start(membership: Membership) -> TcgResult<Tcg> {
        let e = |x: CoreError| TcgError::new(format!("PBEGIN: {x}"), -1);
        let ctx = Context::create("tcgmsg").map_err(e)?;
        let comm = ctx.comm().map_err(e)?;
        let ids = shim_core::world_ids().map_err(e)?;
        let me = shim_core::world_rank().map_err(e)?;
        Ok(Tcg {
            comm,
            me,
            nodes: ids.len() as i32,
            debug: false,
            stats: Stats::default(),
            ctx,
            ids,
            arecvs: Vec::new(),
            membership: Some(membership),
        })
    }

    /// Stops the layer; gives back its membership of the backend.
    pub fn stop(mut self) -> Option<Membership> {
        let pending = self.arecvs.iter().filter(|a| !a.done).count();
        if pending > 0 {
            eprintln!(
                "{}: PEND: {pending} asynchronous receives were never matched",
                self.me
            );
        }
        self.arecvs.clear();
        self.membership.take()
    }

    /// Checks a node number argument.
    pub fn node(&self, call: &str, what: &str, node: i64) -> TcgResult<i32> {
        if node < 0 || node >= i64::from(self.nodes) {
            return Err(TcgError::new(
                format!(
                    "{call}: {what} {node} is not a node (0..{})",
                    self.nodes - 1
                ),
                node,
            ));
        }
        Ok(node as i32)
    }

    /// Checks a node selector (−1 is any node).
    pub fn selector(&self, call: &str, node: i64) -> TcgResult<Option<i32>> {
        if node == -1 {
            Ok(None)
        } else {
            self.node(call, "node", node).map(Some)
        }
    }

    fn node_of(&self, id: ProcId) -> i32 {
        self.ids
            .iter()
            .position(|i| *i == id)
            .map_or(-1, |n| n as i32)
    }

    /// `SND` of `data` to `node`; an asynchronous send (`user` given) hands
    /// the core a copy, so it returns at once and `WAITCOM` has nothing to
    /// wait for.
    pub fn snd(&mut self, ty: i64, data: &[u8], node: i32, user: Option<UserBuf>) -> TcgResult<()> {
        if self.debug {
            eprintln!(
                "{}: snd type {ty} len {} to {node} {}",
                self.me,
                data.len(),
                if user.is_some() { "async" } else { "sync" }
            );
        }
        self.stats.sent += 1;
        self.stats.sent_bytes += data.len() as u64;
        let dest = self.ids[node as usize];
        let (tag, enc) = (ty as i32, (ty >> 32) as u32);
        let r = match user {
            Some(_) => self.ctx.send_owned(dest, tag, enc, data.to_vec()),
            None => self.ctx.send(dest, tag, enc, data),
        };
        r.map_err(|e| TcgError::new(format!("SND: to node {node}: {e}"), -1))?;
        if node == self.me {
            self.serve_async()?;
        }
        Ok(())
    }

    /// Gives arrived messages to the pending asynchronous receives, oldest
    /// receive first.
    fn serve_async(&mut self) -> TcgResult<bool> {
        let mut any = false;
        for i in 0..self.arecvs.len() {
            if self.arecvs[i].done {
                continue;
            }
            let (ty, node) = (self.arecvs[i].ty, self.arecvs[i].node);
            let from = node.map(|n| self.ids[n as usize]);
            let want = pattern(ty, from);
            let Some(m) = self
                .ctx
                .take_where(|m| want.accepts(m.source, m.tag, m.encoding))?
            else {
                continue;
            };
            let src = self.node_of(m.source);
            let a = &mut self.arecvs[i];
            if m.data.len() > a.buf.len() {
                return Err(too_long("rcv", ty, src, m.data.len(), a.buf.len()));
            }
            a.buf.as_mut_slice()[..m.data.len()].copy_from_slice(&m.data);
            a.done = true;
            self.stats.received += 1;
            self.stats.received_bytes += m.data.len() as u64;
            any = true;
        }
        Ok(any)
    }

    /// `RCV` of type `ty` from `node` (any for `None`) into `buf`; returns
    /// (length, sender).
    pub fn rcv(&mut self, ty: i64, buf: &mut [u8], node: Option<i32>) -> TcgResult<(usize, i32)> {
        let from = node.map(|n| self.ids[n as usize]);
        let want = pattern(ty, from);
        let (len, src) = if self.arecvs.iter().all(|a| a.done) {
            // Nothing posted earlier can claim the message: the core's own
            // receive, straight into `buf`.
            let r = self
                .ctx
                .recv_into_truncating(want, buf, None)
                .map_err(|e| TcgError::new(format!("RCV: {e}"), -1))?;
            (r.len, self.node_of(r.source))
        } else {
            let m = self.rcv_after_async(&want)?;
            let src = self.node_of(m.source);
            let n = m.data.len().min(buf.len());
            buf[..n].copy_from_slice(&m.data[..n]);
            (m.data.len(), src)
        };
        if len > buf.len() {
            return Err(too_long("rcv", ty, src, len, buf.len()));
        }
        self.stats.received += 1;
        self.stats.received_bytes += len as u64;
        if self.debug {
            eprintln!("{}: rcv type {ty} len {len} from {src}", self.me);
        }
        Ok((len, src))
    }

    /// A synchronous receive while asynchronous ones are pending: those
    /// are served first from every arrival.
    fn rcv_after_async(&mut self, want: &Match) -> TcgResult<Message> {
        let mut backoff = Backoff::new();
        loop {
            let served = self.serve_async()?;
            if let Some(m) = self
                .ctx
                .take_where(|m| want.accepts(m.source, m.tag, m.encoding))?
            {
                return Ok(m);
            }
            if served {
                backoff.reset();
            }
            backoff.pause();
        }
    }

    /// Asynchronous `RCV` into `buf`, completed by `WAITCOM` (at once when
    /// a matching message is already there).
    pub fn rcv_async(&mut self, ty: i64, buf: UserBuf, node: Option<i32>) -> TcgResult<()> {
        self.arecvs.retain(|a| !a.done);
        self.arecvs.push(AsyncRecv {
            ty,
            node,
            buf,
            done: false,
        });
        self.serve_async()?;
        Ok(())
    }

    /// `PROBE`: whether a message of type `ty` from `node` is waiting.
    pub fn probe(&mut self, ty: i64, node: Option<i32>) -> TcgResult<bool> {
        self.serve_async()?;
        let from = node.map(|n| self.ids[n as usize]);
        Ok(self.ctx.probe(pattern(ty, from))?.is_some())
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
        self.arecvs.retain(|a| !a.done);
        Ok(())
    }
}
