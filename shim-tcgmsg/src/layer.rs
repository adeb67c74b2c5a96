//! The TCGMSG state of one process and its message engine.
//!
//! # Wire format
//! Every message starts with a 16-byte header on MPI tag [`TAG_HEAD`] of
//! the layer's own communicator: the TCGMSG type (flag bits included) and
//! the length in bytes, both little-endian 64-bit. A payload of at most
//! [`INLINE_MAX`] bytes follows in the same MPI message; a longer one is
//! the next message on [`TAG_BODY`] from the same sender, sent from and
//! received into user memory. MPI's non-overtaking rule on one
//! communicator keeps both streams in order, so each header finds its body.
//!
//! # Matching
//! One persistent receive from any source on `TAG_HEAD` stands whenever
//! the layer waits. An arrival goes, in this order, to the oldest pending
//! asynchronous receive it matches (type equal, node equal or −1), to the
//! synchronous receive being served, or to the queue of unexpected
//! messages, which later receives search first (in arrival order). Types
//! never become MPI tags.

use crate::ffi::{self, Arrival, Req, Standing};
use crate::ptr::UserBuf;
use shim_core::backoff::Backoff;
use shim_core::mpi::Comm;
use shim_core::Membership;
use std::collections::VecDeque;

/// MPI tag of header messages.
pub const TAG_HEAD: i32 = 7;
/// MPI tag of separately sent payloads.
pub const TAG_BODY: i32 = 8;
/// Header size.
pub const HEAD: usize = 16;
/// Longest payload carried inside the header message: header and payload
/// stay within 4 KiB, under the eager limit of MPI's shared-memory paths.
pub const INLINE_MAX: usize = 4096 - HEAD;
/// Payloads up to this size go out with a blocking eager send from the stack.
const SMALL_MAX: usize = 512;

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

impl From<ffi::MpiError> for TcgError {
    fn from(e: ffi::MpiError) -> TcgError {
        TcgError::new(e.0, -1)
    }
}

pub type TcgResult<T> = Result<T, TcgError>;

/// A message that arrived before anyone asked for it.
struct Queued {
    source: i32,
    ty: i64,
    data: Vec<u8>,
}

/// A posted asynchronous receive.
struct AsyncRecv {
    ty: i64,
    node: Option<i32>,
    buf: UserBuf,
    done: bool,
}

/// An asynchronous send still in flight (its payload in user memory).
struct AsyncSend {
    node: i32,
    req: Req,
}

/// The synchronous receive being served.
struct Want<'a> {
    ty: i64,
    node: Option<i32>,
    buf: &'a mut [u8],
    /// (length, source) once delivered.
    got: Option<(usize, i32)>,
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
    pub comm: Comm,
    pub me: i32,
    pub nodes: i32,
    pub debug: bool,
    pub stats: Stats,
    head: Standing,
    /// Where small messages are assembled (header and payload).
    small: Box<[u8]>,
    queue: VecDeque<Queued>,
    arecvs: Vec<AsyncRecv>,
    asends: Vec<AsyncSend>,
    membership: Option<Membership>,
}

fn encode(ty: i64, len: usize, out: &mut [u8]) {
    out[0..8].copy_from_slice(&ty.to_le_bytes());
    out[8..16].copy_from_slice(&(len as u64).to_le_bytes());
}

fn decode(b: &[u8]) -> (i64, usize) {
    let mut t = [0u8; 8];
    let mut l = [0u8; 8];
    t.copy_from_slice(&b[0..8]);
    l.copy_from_slice(&b[8..16]);
    (i64::from_le_bytes(t), u64::from_le_bytes(l) as usize)
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

fn matches(ty: i64, node: Option<i32>, mty: i64, source: i32) -> bool {
    ty == mty && node.is_none_or(|n| n == source)
}

/// Receives the separately sent payload of a header from `source`.
fn recv_body(buf: &mut [u8], source: i32, comm: Comm) -> TcgResult<()> {
    let mut b = transfer_backoff(buf.len());
    let n = ffi::recv_waiting(buf, source, TAG_BODY, comm, || b.pause())?;
    if n != buf.len() {
        return Err(TcgError::new(
            format!(
                "rcv: node {source} sent {n} payload bytes, its header announced {}",
                buf.len()
            ),
            n as i64,
        ));
    }
    Ok(())
}

/// The wait of a payload transfer already under way: the other side is
/// copying, so yielding the core can only slow it down. Spin for as long
/// as the copy may take at 1 GB/s (at least the normal spin budget), then
/// back off as usual.
fn transfer_backoff(len: usize) -> Backoff {
    let mut p = shim_core::lifecycle::wait_policy();
    let copy = std::time::Duration::from_nanos(len as u64);
    if copy > p.spin {
        p.yield_until += copy - p.spin;
        p.spin = copy;
    }
    Backoff::with_policy(p)
}

/// Polls of the standing receive between pauses while a receive waits
/// (a blocking MPI receive polls as tightly).
const SPIN_BURST: u32 = 64;

impl Tcg {
    /// Starts the layer on the compute ranks (collective over them).
    pub fn start(membership: Membership, world: Comm) -> TcgResult<Tcg> {
        let e = |x: shim_core::CoreError| TcgError::new(format!("PBEGIN: {x}"), -1);
        let comm = world.dup().map_err(e)?;
        let me = comm.rank().map_err(e)?;
        let nodes = comm.size().map_err(e)?;
        let head = Standing::new(HEAD + INLINE_MAX, TAG_HEAD, comm)?;
        Ok(Tcg {
            comm,
            me,
            nodes,
            debug: false,
            stats: Stats::default(),
            head,
            small: vec![0u8; HEAD + SMALL_MAX].into_boxed_slice(),
            queue: VecDeque::new(),
            arecvs: Vec::new(),
            asends: Vec::new(),
            membership: Some(membership),
        })
    }

    /// Releases the layer's MPI resources; gives back the backend membership.
    pub fn stop(mut self) -> Option<Membership> {
        // Asynchronous sends complete (their receivers may still want
        // them); receives nobody will satisfy are dropped.
        let mut backoff = Backoff::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !self.asends.is_empty() && std::time::Instant::now() < deadline {
            match self.poll(None) {
                Ok(true) => backoff.reset(),
                Ok(false) => backoff.pause(),
                Err(_) => break,
            }
        }
        if !self.asends.is_empty() {
            let nodes: Vec<i32> = self.asends.iter().map(|s| s.node).collect();
            eprintln!(
                "{}: PEND: asynchronous sends to nodes {nodes:?} were never received",
                self.me
            );
            // The process is ending: leave them to MPI rather than wait forever.
            std::mem::forget(std::mem::take(&mut self.asends));
        }
        self.arecvs.clear();
        let Tcg {
            comm,
            head,
            membership,
            ..
        } = self;
        head.close();
        let _ = comm.free();
        membership
    }

    /// Checks a node number given to `call`.
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

    /// Node selector of a receive or probe: −1 is any node.
    pub fn selector(&self, call: &str, node: i64) -> TcgResult<Option<i32>> {
        if node == -1 {
            Ok(None)
        } else {
            self.node(call, "node", node).map(Some)
        }
    }

    // ---- sending ---------------------------------------------------------

    /// `SND`: sends `data` to `node`. Synchronous sends return when `data`
    /// may be reused; asynchronous ones (`user` given) leave a large
    /// payload in flight until `WAITCOM`.
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
        if node == self.me {
            return self.arrive_local(ty, data);
        }
        let comm = self.comm;
        if data.len() <= SMALL_MAX {
            let msg = &mut self.small[..HEAD + data.len()];
            encode(ty, data.len(), msg);
            msg[HEAD..].copy_from_slice(data);
            ffi::send_now(msg, node, TAG_HEAD, comm)?;
            return Ok(());
        }
        if data.len() <= INLINE_MAX {
            let mut msg = vec![0u8; HEAD + data.len()];
            encode(ty, data.len(), &mut msg);
            msg[HEAD..].copy_from_slice(data);
            return self.send_serving(&msg, node, TAG_HEAD);
        }
        let mut head = [0u8; HEAD];
        encode(ty, data.len(), &mut head);
        ffi::send_now(&head, node, TAG_HEAD, comm)?;
        match user {
            Some(buf) => {
                let req = ffi::isend_user(buf, node, TAG_BODY, comm)?;
                self.asends.push(AsyncSend { node, req });
                Ok(())
            }
            None => self.send_serving(data, node, TAG_BODY),
        }
    }

    /// Sends `bytes` from the caller's memory, serving arrivals meanwhile
    /// so two nodes sending to each other both progress.
    fn send_serving(&mut self, bytes: &[u8], node: i32, tag: i32) -> TcgResult<()> {
        let comm = self.comm;
        let mut backoff = transfer_backoff(bytes.len());
        let r = ffi::send_waiting(bytes, node, tag, comm, || {
            match self.poll(None) {
                Ok(true) => backoff.reset(),
                Ok(false) => backoff.pause(),
                Err(e) => return Err(e.msg),
            }
            Ok(())
        });
        r.map_err(|m| TcgError::new(m, -1))
    }

    /// A message to this process itself.
    fn arrive_local(&mut self, ty: i64, data: &[u8]) -> TcgResult<()> {
        let me = self.me;
        self.stats.received += 1;
        self.stats.received_bytes += data.len() as u64;
        if let Some(ar) = self
            .arecvs
            .iter_mut()
            .find(|a| !a.done && matches(a.ty, a.node, ty, me))
        {
            if data.len() > ar.buf.len() {
                return Err(too_long("rcv", ty, me, data.len(), ar.buf.len()));
            }
            ar.buf.as_mut_slice()[..data.len()].copy_from_slice(data);
            ar.done = true;
            return Ok(());
        }
        self.queue.push_back(Queued {
            source: me,
            ty,
            data: data.to_vec(),
        });
        Ok(())
    }

    // ---- receiving -------------------------------------------------------

    /// Tests the standing receive once and hands an arrival on. Returns
    /// whether something arrived.
    fn poll(&mut self, want: Option<&mut Want<'_>>) -> TcgResult<bool> {
        let mut i = 0;
        while i < self.asends.len() {
            if self.asends[i].req.test()?.is_some() {
                self.asends.swap_remove(i);
            } else {
                i += 1;
            }
        }
        match self.head.poll()? {
            Some(a) => {
                // The receive is started again lazily, at the next poll: in
                // a ping-pong that keeps MPI_Start off the reply's path.
                self.arrive(a, want)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Hands the header message just received on to whoever wants it.
    fn arrive(&mut self, a: Arrival, want: Option<&mut Want<'_>>) -> TcgResult<()> {
        let Tcg {
            comm,
            head,
            queue,
            arecvs,
            stats,
            ..
        } = self;
        let bytes = head.bytes();
        if a.bytes < HEAD {
            return Err(TcgError::new(
                format!(
                    "rcv: malformed message of {} bytes from node {}",
                    a.bytes, a.source
                ),
                a.bytes as i64,
            ));
        }
        let (ty, len) = decode(bytes);
        let inline = len <= INLINE_MAX;
        if (inline && a.bytes != HEAD + len) || (!inline && a.bytes != HEAD) {
            return Err(TcgError::new(
                format!(
                    "rcv: malformed message from node {} (header says {len} bytes, {} arrived)",
                    a.source, a.bytes
                ),
                len as i64,
            ));
        }
        let src = a.source;
        stats.received += 1;
        stats.received_bytes += len as u64;
        let payload = &bytes[HEAD..a.bytes];
        if let Some(ar) = arecvs
            .iter_mut()
            .find(|x| !x.done && matches(x.ty, x.node, ty, src))
        {
            if len > ar.buf.len() {
                return Err(too_long("rcv", ty, src, len, ar.buf.len()));
            }
            let dst = &mut ar.buf.as_mut_slice()[..len];
            if inline {
                dst.copy_from_slice(payload);
            } else {
                recv_body(dst, src, *comm)?;
            }
            ar.done = true;
            return Ok(());
        }
        if let Some(w) = want {
            if w.got.is_none() && matches(w.ty, w.node, ty, src) {
                if len > w.buf.len() {
                    return Err(too_long("rcv", ty, src, len, w.buf.len()));
                }
                let dst = &mut w.buf[..len];
                if inline {
                    dst.copy_from_slice(payload);
                } else {
                    recv_body(dst, src, *comm)?;
                }
                w.got = Some((len, src));
                return Ok(());
            }
        }
        let data = if inline {
            payload.to_vec()
        } else {
            let mut v = vec![0u8; len];
            recv_body(&mut v, src, *comm)?;
            v
        };
        queue.push_back(Queued {
            source: src,
            ty,
            data,
        });
        Ok(())
    }

    /// Takes the first queued message matching (type, node).
    fn take_queued(&mut self, ty: i64, node: Option<i32>) -> Option<Queued> {
        let i = self
            .queue
            .iter()
            .position(|m| matches(ty, node, m.ty, m.source))?;
        self.queue.remove(i)
    }

    /// Synchronous `RCV`: waits for a message of type `ty` from `node`
    /// (`None`: any) into `buf`. Returns (length, source).
    pub fn rcv(&mut self, ty: i64, buf: &mut [u8], node: Option<i32>) -> TcgResult<(usize, i32)> {
        if let Some(m) = self.take_queued(ty, node) {
            if m.data.len() > buf.len() {
                return Err(too_long("rcv", ty, m.source, m.data.len(), buf.len()));
            }
            buf[..m.data.len()].copy_from_slice(&m.data);
            return Ok(self.received(ty, m.data.len(), m.source));
        }
        let mut want = Want {
            ty,
            node,
            buf,
            got: None,
        };
        // A first tight burst before any waiting bookkeeping (clock reads).
        for _ in 0..SPIN_BURST {
            if let Some(a) = self.head.poll()? {
                self.arrive(a, Some(&mut want))?;
                if let Some((len, src)) = want.got {
                    return Ok(self.received(ty, len, src));
                }
            }
        }
        let mut backoff = Backoff::new();
        loop {
            if self.poll(Some(&mut want))? {
                if let Some((len, src)) = want.got {
                    return Ok(self.received(ty, len, src));
                }
                backoff.reset();
                continue;
            }
            if backoff.spinning() {
                // Tight polling of the standing receive alone.
                for _ in 0..SPIN_BURST {
                    if let Some(a) = self.head.poll()? {
                        self.arrive(a, Some(&mut want))?;
                        if let Some((len, src)) = want.got {
                            return Ok(self.received(ty, len, src));
                        }
                        backoff.reset();
                    }
                }
            }
            backoff.pause();
        }
    }

    fn received(&self, ty: i64, len: usize, src: i32) -> (usize, i32) {
        if self.debug {
            eprintln!("{}: rcv type {ty} len {len} from {src}", self.me);
        }
        (len, src)
    }

    /// Asynchronous `RCV`: takes a queued match at once, or records the
    /// receive for arrivals to fill; `WAITCOM` completes it.
    pub fn rcv_async(&mut self, ty: i64, mut buf: UserBuf, node: Option<i32>) -> TcgResult<()> {
        // A queued message never matches a pending receive (it would have
        // gone there), so the first queued match belongs to this one.
        if let Some(m) = self.take_queued(ty, node) {
            if m.data.len() > buf.len() {
                return Err(too_long("rcv", ty, m.source, m.data.len(), buf.len()));
            }
            buf.as_mut_slice()[..m.data.len()].copy_from_slice(&m.data);
            return Ok(());
        }
        self.arecvs.push(AsyncRecv {
            ty,
            node,
            buf,
            done: false,
        });
        Ok(())
    }

    /// `PROBE`: whether a message of type `ty` from `node` is waiting.
    pub fn probe(&mut self, ty: i64, node: Option<i32>) -> TcgResult<bool> {
        // Drain what has arrived, then look.
        for _ in 0..1024 {
            if !self.poll(None)? {
                break;
            }
        }
        Ok(self.queue.iter().any(|m| matches(ty, node, m.ty, m.source)))
    }

    /// `WAITCOM`: completes the asynchronous sends and receives with `node`
    /// (`None`: all of them).
    pub fn waitcom(&mut self, node: Option<i32>) -> TcgResult<()> {
        let pending = |t: &Tcg| {
            t.arecvs
                .iter()
                .any(|a| !a.done && (node.is_none() || a.node.is_none() || a.node == node))
                || t.asends.iter().any(|s| node.is_none_or(|n| n == s.node))
        };
        let mut backoff = Backoff::new();
        while pending(self) {
            if self.poll(None)? {
                backoff.reset();
            } else {
                backoff.pause();
            }
        }
        self.arecvs.retain(|a| !a.done);
        Ok(())
    }
}
