//! The `ga-server` data server: one per node. It owns the arrays' memory in
//! POSIX shared-memory segments that the compute ranks of its node map, and
//! serves the operations other nodes' ranks (or every rank, with
//! `MPBRIDGE_GA_REMOTE=1`) send it. It checks every request and answers a bad
//! one with an error text; it waits for requests with a backoff that ends in
//! sleeps, so an idle server takes no core. Its MPI traffic goes through
//! shim-core's API: standing receives (`ListenerSet`) for requests and
//! goodbyes, matched probes for data that follows a request, chunked
//! receives for large accumulates.

use crate::cleanup;
use crate::core::kernels;
use crate::core::{dist, ElemType};
use crate::protocol::*;
use crate::ptr::{self, MAX_DIM};
use crate::shm::{self, NodeLayout, Owner, SHM_DIR};
use crate::sys::{self, CreateError, Mapping};
use shim_core::mpi::{self, Comm, ListenerSet};
use shim_core::CoreError;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

struct SArray {
    ty: ElemType,
    ndim: usize,
    layout: NodeLayout,
    /// The node segment (an overlay array shares its parent's).
    map: Arc<Mapping>,
    /// The segment's name (the clients unlink it once mapped); empty for
    /// an overlay array, which owns no segment.
    seg_name: String,
}

struct Server {
    comm: Comm,
    pid: i32,
    owner: Owner,
    host: String,
    ctl: Mapping,
    ctl_name: String,
    arrays: HashMap<u32, SArray>,
    byes: HashSet<i32>,
    scratch: Vec<u8>,
    /// The two chunk buffers of a large accumulate.
    acc_bufs: [Vec<u8>; 2],
    reply: Vec<u8>,
    ncompute: usize,
    /// Node index of each rank of `comm` (a duplicate of the world).
    node_of: Vec<u32>,
    my_node: u32,
    counts: crate::server_stats::RequestCounts,
}

/// A check failed: the text goes back to the client.
type Check<T> = Result<T, String>;

/// Marker for the server in lock words (owners use their compute rank).
const SERVER_LOCKER: u32 = u32::MAX - 1;

/// Creates a segment of `kind` (`ctl`, `a<serial>`) under a fresh name of
/// `owner` after checking `/dev/shm` has room, and records it for removal
/// on a fatal signal; returns the name and mapping. The message says what to
/// do when there is no room.
pub fn create_segment(
    owner: &Owner,
    kind: &str,
    len: usize,
    what: &str,
    host: &str,
) -> Result<(String, Mapping), String> {
    let full = |free: u64| {
        format!(
            "/dev/shm on {host} is full: {what} needs {len} bytes there but {free} are free; \
             remove stale files in {SHM_DIR} or enlarge it (e.g. docker run --shm-size=...)"
        )
    };
    let free = sys::free_bytes(SHM_DIR)?;
    if free < len as u64 {
        return Err(full(free));
    }
    // Recorded before it exists: a signal between creation and recording
    // must not leave it behind (unlinking a name not made yet is harmless).
    let mut recorded = Vec::new();
    let made = shm::create_fresh(
        || {
            let n = owner.segment_name(kind);
            cleanup::register(&n);
            recorded.push(n.clone());
            n
        },
        len,
    );
    for n in &recorded {
        if made.as_ref().map_or(true, |(name, _)| name != n) {
            cleanup::unregister(n);
        }
    }
    made.map_err(|e| match e {
        CreateError::NoSpace(_) => full(sys::free_bytes(SHM_DIR).unwrap_or(0)),
        CreateError::Exists(t) | CreateError::Other(t) => {
            format!("cannot create shared memory for {what} on {host}: {t}")
        }
    })
}

/// The text of an MPI failure (it ends the server).
fn mpi_text(e: CoreError) -> String {
    e.to_string()
}

/// Sends a reply header and, as its own message, the data after it
/// (without copying the data).
fn send_head_data(head: &[u8], data: &[u8], dest: i32, comm: Comm) -> Result<(), String> {
    mpi::send_blocking(head, dest, TAG_REP, comm).map_err(mpi_text)?;
    mpi::send_blocking(data, dest, TAG_RDATA, comm).map_err(mpi_text)
}

/// Unlinks a segment name this server made and forgets it.
fn remove_segment(name: &str) {
    sys::shm_unlink(name);
    cleanup::unregister(name);
}

/// Runs the server until every compute rank left; returns the exit code.
pub fn run() -> i32 {
    cleanup::install();
    let gone = shm::remove_stale();
    if !gone.is_empty() {
        eprintln!(
            "ga-server: removed {} shared-memory segment(s) left by dead jobs: {}",
            gone.len(),
            gone.join(" ")
        );
    }
    let pid = sys::getpid();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "this node".into());
    let owner = Owner::me().unwrap_or(Owner {
        uid: sys::geteuid(),
        pid,
        start: 0,
    });
    let ctl = create_segment(&owner, "ctl", CTL_LEN, "the GA control segment", &host);
    let ctl_name = ctl.as_ref().map(|(n, _)| n.clone()).unwrap_or_default();
    let procs = match crate::procs::setup(true) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("ga-server: cannot join the job: {e}");
            remove_segment(&ctl_name);
            return 1;
        }
    };
    // MPI's start-up may have set handlers of its own.
    cleanup::install();
    let ctl = match ctl {
        Ok((_, m)) => m,
        Err(e) => {
            eprintln!("ga-server: {e}");
            mpi::abort(Comm::world(), 1);
        }
    };
    let mut s = Server {
        comm: procs.ga_comm,
        pid,
        owner,
        host,
        ctl,
        ctl_name: ctl_name.clone(),
        arrays: HashMap::new(),
        byes: HashSet::new(),
        scratch: Vec::new(),
        acc_bufs: [Vec::new(), Vec::new()],
        reply: vec![0u8; REP_LEN + EAGER],
        ncompute: procs.compute.len(),
        node_of: procs.node.clone(),
        my_node: procs.my_node(),
        counts: Default::default(),
    };
    let code = match s.serve() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ga-server: {e}");
            1
        }
    };
    if crate::server_stats::wanted(
        std::env::var(crate::server_stats::STATS_ENV)
            .ok()
            .as_deref(),
    ) {
        // One write for the whole line, so that the launcher's output
        // forwarding cannot splice another server's line into it.
        let line = format!("{}\n", s.counts.report(&s.host));
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
    }
    for (_, a) in s.arrays.drain() {
        remove_segment(&a.seg_name);
    }
    remove_segment(&ctl_name);
    if code != 0 {
        mpi::abort(Comm::world(), code);
    }
    if !shim_core::mpi::is_finalized() {
        let _ = shim_core::mpi::finalize();
    }
    code
}

/// The waiting policy of an idle server: spin briefly, yield for a little
/// while, then sleep with growing intervals.
pub(crate) fn idle_policy() -> shim_core::backoff::Policy {
    shim_core::backoff::Policy {
        spin: Duration::from_micros(30),
        yield_until: Duration::from_millis(2),
        first_sleep: Duration::from_micros(20),
        max_sleep: Duration::from_millis(2),
    }
}

impl Server {
    fn serve(&mut self) -> Result<(), String> {
        // Requests, and the goodbye every compute rank sends when it
        // finalises MPI, also one that never used GA (shim_core::roles).
        let mut listen = ListenerSet::default();
        listen
            .add(self.comm, TAG_REQ, REQ_LEN + EAGER)
            .map_err(mpi_text)?;
        listen
            .add(self.comm, shim_core::roles::TAG_GOODBYE, 1)
            .map_err(mpi_text)?;
        let mut wait = shim_core::backoff::Backoff::with_policy(idle_policy());
        while self.byes.len() < self.ncompute {
            let handled = listen
                .poll(|_, st, data| {
                    Ok(if st.tag == TAG_REQ {
                        self.handle(st.source, data)
                    } else {
                        self.byes.insert(st.source);
                        Ok(())
                    })
                })
                .map_err(mpi_text)?;
            match handled {
                Some(r) => {
                    r?;
                    wait.reset();
                }
                None => wait.pause(),
            }
        }
        Ok(())
    }

    fn send_reply(
        &mut self,
        dest: i32,
        status: i32,
        value: i64,
        body: &[u8],
    ) -> Result<(), String> {
        let n = body.len().min(EAGER);
        Rep {
            status,
            value,
            len: body.len() as u64,
        }
        .encode(&mut self.reply);
        self.reply[REP_LEN..REP_LEN + n].copy_from_slice(&body[..n]);
        mpi::send_blocking(&self.reply[..REP_LEN + n], dest, TAG_REP, self.comm).map_err(mpi_text)
    }

    fn handle(&mut self, src: i32, msg: &[u8]) -> Result<(), String> {
        let remote = usize::try_from(src)
            .ok()
            .and_then(|r| self.node_of.get(r))
            .is_some_and(|&n| n != self.my_node);
        self.counts.count(remote);
        let Some(req) = Req::decode(msg) else {
            return self.send_reply(src, 1, 0, b"request shorter than a header");
        };
        let inline = &msg[REQ_LEN..];
        // Large puts and accumulates are received where they go (see
        // `put_big`, `acc_big`).
        if req.len as usize > EAGER {
            let r = match Op::from_u8(req.op) {
                Some(Op::Put) => Some(self.put_big(src, &req)?),
                Some(Op::Acc) => Some(self.acc_big(src, &req)?),
                _ => None,
            };
            if let Some(r) = r {
                return match r {
                    Ok(()) => self.send_reply(src, 0, 0, &[]),
                    Err(e) => self.send_reply(src, 1, 0, e.as_bytes()),
                };
            }
        }
        // A payload beyond the eager size follows as its own message: take it
        // now, so even a rejected request leaves nothing behind.
        let mut big = None;
        if req.len as usize > EAGER && Op::from_u8(req.op) == Some(Op::Create) {
            big = Some(self.take_data(src)?);
        }
        let payload: &[u8] = big.as_deref().unwrap_or(inline);
        let r = match Op::from_u8(req.op) {
            Some(Op::Hello) => {
                let name = self.ctl_name.clone();
                return self.send_reply(src, 0, self.pid as i64, name.as_bytes());
            }
            Some(Op::Bye) => {
                self.byes.insert(src);
                return Ok(());
            }
            Some(Op::Create) => {
                let r = self.create(&req, payload);
                if let Some(v) = big {
                    self.scratch = v;
                }
                return match r {
                    Ok(name) => self.send_reply(src, 0, 0, name.as_bytes()),
                    Err(e) => self.send_reply(src, 1, 0, e.as_bytes()),
                };
            }
            Some(Op::Destroy) => {
                if let Some(a) = self.arrays.remove(&req.array) {
                    if !a.seg_name.is_empty() {
                        remove_segment(&a.seg_name);
                    }
                }
                Ok(0)
            }
            Some(Op::Put) => self.put(&req, payload).map(|_| 0),
            Some(Op::Acc) => self.acc(&req, payload).map(|_| 0),
            Some(Op::Get) => {
                let r = self.get(src, &req);
                if let Some(v) = big.take() {
                    self.scratch = v;
                }
                return match r {
                    Ok(()) => Ok(()),
                    Err(e) => self.send_reply(src, 1, 0, e.as_bytes()),
                };
            }
            Some(Op::ReadInc) => self.read_inc(&req),
            Some(Op::Rmw) => self.rmw(&req),
            Some(Op::NxtVal) => ptr::atomic_i64(&self.ctl, CTL_NXTVAL)
                .map(|a| a.fetch_add(req.aux, Ordering::AcqRel)),
            Some(Op::NxtReset) => ptr::atomic_i64(&self.ctl, CTL_NXTVAL).map(|a| {
                a.store(req.aux, Ordering::Release);
                0
            }),
            Some(Op::MutexTry) => self.mutex_word(req.aux).and_then(|o| {
                let w = ptr::atomic_u32(&self.ctl, o)?;
                let me = req.owner as u32 + 1;
                Ok(
                    w.compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
                        .is_ok() as i64,
                )
            }),
            Some(Op::MutexUnlock) => self.mutex_word(req.aux).and_then(|o| {
                let w = ptr::atomic_u32(&self.ctl, o)?;
                let me = req.owner as u32 + 1;
                w.compare_exchange(me, 0, Ordering::Release, Ordering::Relaxed)
                    .map(|_| 0)
                    .map_err(|_| {
                        format!("mutex {} is not locked by process {}", req.aux, req.owner)
                    })
            }),
            Some(Op::MutexInit) => {
                if req.aux < 0 || req.aux as usize > MAX_MUTEXES {
                    Err(format!(
                        "{} mutexes requested, at most {MAX_MUTEXES}",
                        req.aux
                    ))
                } else {
                    for i in 0..MAX_MUTEXES {
                        ptr::atomic_u32(&self.ctl, CTL_MUTEX + 4 * i)?.store(0, Ordering::Release);
                    }
                    Ok(0)
                }
            }
            None => Err(format!("unknown request {}", req.op)),
        };
        if let Some(v) = big {
            self.scratch = v;
        }
        match r {
            Ok(v) => self.send_reply(src, 0, v, &[]),
            Err(e) => self.send_reply(src, 1, 0, e.as_bytes()),
        }
    }

    /// Matches the next data message of `src` (sent right after its
    /// request, so it is on its way).
    fn match_data(&self, src: i32) -> Result<mpi::Matched, String> {
        mpi::mprobe(src, TAG_DATA, self.comm, || {}).map_err(mpi_text)
    }

    /// Receives the next data message of `src` into the scratch buffer
    /// (taken out of `self`; give it back with `self.scratch = v`).
    fn take_data(&mut self, src: i32) -> Result<Vec<u8>, String> {
        let m = self.match_data(src)?;
        self.take_matched(m)
    }

    /// Receives a matched data message into the scratch buffer (as
    /// [`take_data`](Self::take_data)).
    fn take_matched(&mut self, m: mpi::Matched) -> Result<Vec<u8>, String> {
        let mut v = std::mem::take(&mut self.scratch);
        v.clear();
        match m.recv_append(&mut v, || {}) {
            Ok(_) => Ok(v),
            Err(e) => {
                self.scratch = v;
                Err(mpi_text(e))
            }
        }
    }

    /// A put whose data follows as its own message. A contiguous patch is
    /// received straight into the segment, once the request was checked;
    /// otherwise through the scratch buffer. A rejected request's data is
    /// received and dropped. The outer `Err` is an MPI failure.
    fn put_big(&mut self, src: i32, req: &Req) -> Result<Check<()>, String> {
        let len = req.len as usize;
        let comm = self.comm;
        let direct = self.place(req, true).and_then(|(a, p)| {
            if p.bytes != len {
                return Err(format!("{len} data bytes for a patch of {} bytes", p.bytes));
            }
            Ok(dist::contiguous(&p.count[..p.n], &p.bstr[..p.n]).then_some((a, p.off * p.elem)))
        });
        match direct {
            Ok(Some((a, byte_off))) => {
                // The data must be exactly the patch: anything else is
                // drained and refused instead of touching the segment.
                let m = mpi::mprobe(src, TAG_DATA, comm, || {}).map_err(mpi_text)?;
                let sent = m.len();
                if sent != len {
                    let v = self.take_matched(m)?;
                    self.scratch = v;
                    return Ok(Err(format!("{sent} data bytes for a patch of {len} bytes")));
                }
                ptr::with_bytes_mut(&a.map, byte_off, len, |dst| m.recv(dst, || {}))?
                    .map_err(mpi_text)?;
                Ok(Ok(()))
            }
            Ok(None) => {
                let v = self.take_data(src)?;
                let r = self.put(req, &v);
                self.scratch = v;
                Ok(r)
            }
            Err(e) => {
                let v = self.take_data(src)?;
                self.scratch = v;
                Ok(Err(e))
            }
        }
    }

    /// An accumulate whose data follows in chunks of `ACC_CHUNK` bytes: each
    /// is added up (under the owner's lock, taken per chunk) while the next
    /// one arrives. A rejected request's chunks are received and dropped.
    /// The outer `Err` is an MPI failure.
    fn acc_big(&mut self, src: i32, req: &Req) -> Result<Check<()>, String> {
        let len = req.len as usize;
        let comm = self.comm;
        let [mut b0, mut b1] = std::mem::take(&mut self.acc_bufs);
        b0.resize(ACC_CHUNK, 0);
        b1.resize(ACC_CHUNK, 0);
        let target = self.place(req, true).and_then(|(a, p)| {
            if p.bytes != len {
                return Err(format!("{len} data bytes for a patch of {} bytes", p.bytes));
            }
            let ty = add_type(a, req)?;
            kernels::check_acc(ty)?;
            let w = ptr::atomic_u32(&a.map, p.lock_off)?;
            Ok((a, p, w, ty))
        });
        let mut err = target.as_ref().err().cloned();
        let alpha = req.alpha;
        let r = mpi::recv_chunked(
            [&mut b0, &mut b1],
            len,
            ACC_CHUNK,
            src,
            TAG_DATA,
            comm,
            |off, data| {
                let Ok((a, p, w, ty)) = &target else {
                    return;
                };
                if err.is_some() {
                    return;
                }
                let ty = *ty;
                shm::lock(w, SERVER_LOCKER);
                let r = ptr::update_range(
                    &a.map,
                    p.off,
                    &p.bstr[..p.n],
                    &p.count[..p.n],
                    p.elem,
                    off,
                    data,
                    |d, s| {
                        if let Err(e) = kernels::acc(ty, d, s, &alpha) {
                            err = Some(e);
                        }
                    },
                );
                shm::unlock(w);
                if let Err(e) = r {
                    err = Some(e);
                }
            },
        );
        self.acc_bufs = [b0, b1];
        r.map_err(mpi_text)?;
        Ok(err.map_or(Ok(()), Err))
    }

    fn mutex_word(&self, m: i64) -> Check<usize> {
        if m < 0 || m as usize >= MAX_MUTEXES {
            return Err(format!("mutex {m} does not exist"));
        }
        Ok(CTL_MUTEX + 4 * m as usize)
    }

    /// Makes an array's node segment; returns its name.
    fn create(&mut self, req: &Req, payload: &[u8]) -> Check<String> {
        let layout = NodeLayout::decode(payload).ok_or("malformed array layout")?;
        let ty = req.elem_type().ok_or("unknown element type")?;
        layout.validate(req.ndim as usize, ty.size())?;
        if self.arrays.contains_key(&req.array) {
            return Err(format!("array id {} exists already", req.array));
        }
        // An overlay (aux: its parent's id + 1) lies in its parent's segment.
        let (seg_name, map) = if req.aux > 0 {
            let parent = u32::try_from(req.aux - 1)
                .ok()
                .and_then(|id| self.arrays.get(&id))
                .ok_or_else(|| format!("no parent array {} for '{}'", req.aux - 1, layout.name))?;
            if parent.layout.total != layout.total {
                return Err(format!(
                    "'{}' does not lie in the segment of its parent '{}'",
                    layout.name, parent.layout.name
                ));
            }
            (String::new(), parent.map.clone())
        } else {
            let what = format!("array '{}'", layout.name);
            let kind = format!("a{}", req.array);
            let (n, m) =
                create_segment(&self.owner, &kind, layout.total as usize, &what, &self.host)?;
            (n, Arc::new(m))
        };
        self.arrays.insert(
            req.array,
            SArray {
                ty,
                ndim: req.ndim as usize,
                layout,
                map,
                seg_name: seg_name.clone(),
            },
        );
        Ok(seg_name)
    }
}

/// The type an accumulate adds as: the array's, or for an array of bytes
/// (ARMCI memory) the request's, whose elements each row must hold whole.
fn add_type(a: &SArray, req: &Req) -> Check<ElemType> {
    if a.ty != ElemType::Char {
        return Ok(a.ty);
    }
    let ty = req.elem_type().ok_or("unknown element type")?;
    let n = (req.ndim as usize).clamp(1, MAX_DIM);
    let row = req.hi[n - 1] - req.lo[n - 1] + 1;
    if row % ty.size() as i64 != 0 {
        return Err(format!(
            "rows of {row} bytes of g_a '{}' do not hold whole elements of {ty:?}",
            a.layout.name
        ));
    }
    Ok(ty)
}

/// Where a checked patch lies in a segment.
struct Place {
    /// Element offset of the patch start from the segment start / elem.
    off: usize,
    bstr: [usize; MAX_DIM],
    count: [usize; MAX_DIM],
    n: usize,
    elem: usize,
    lock_off: usize,
    bytes: usize,
}

impl Server {
    fn place(&self, req: &Req, want_ty: bool) -> Check<(&SArray, Place)> {
        let a = self.arrays.get(&req.array).ok_or_else(|| {
            format!(
                "no array with id {} on the server of {} (destroyed?)",
                req.array, self.host
            )
        })?;
        let n = a.ndim;
        if req.ndim as usize != n {
            return Err(format!(
                "request for {} dimensions on {n}-dimensional g_a '{}'",
                req.ndim, a.layout.name
            ));
        }
        // An array of bytes (ARMCI memory) takes accumulates of any type.
        let bytes_any = a.ty == ElemType::Char && req.op == Op::Acc as u8;
        if want_ty && req.elem_type() != Some(a.ty) && !bytes_any {
            return Err(format!(
                "element type {:?} does not match g_a '{}' of type {:?}",
                req.elem_type(),
                a.layout.name,
                a.ty
            ));
        }
        let b = a
            .layout
            .blocks
            .iter()
            .find(|b| b.owner == req.owner)
            .ok_or_else(|| {
                format!(
                    "process {} owns no block of g_a '{}' on this node",
                    req.owner, a.layout.name
                )
            })?;
        let inside =
            (0..n).all(|d| b.lo[d] <= req.lo[d] && req.lo[d] <= req.hi[d] && req.hi[d] <= b.hi[d]);
        if !inside {
            return Err(format!(
                "patch {} outside the block {} of process {} of g_a '{}'",
                crate::core::fmt_patch(&req.lo[..n], &req.hi[..n]),
                crate::core::fmt_patch(&b.lo[..n], &b.hi[..n]),
                req.owner,
                a.layout.name
            ));
        }
        let elem = a.ty.size();
        let mut bc = [0usize; MAX_DIM];
        let mut count = [0usize; MAX_DIM];
        for d in 0..n {
            bc[d] = (b.hi[d] - b.lo[d] + 1) as usize;
            count[d] = (req.hi[d] - req.lo[d] + 1) as usize;
        }
        let bstr = dist::strides_of(&bc[..n]);
        let mut off = b.off as usize / elem;
        for d in 0..n {
            off += (req.lo[d] - b.lo[d]) as usize * bstr[d];
        }
        // Inside a block that `NodeLayout::validate` checked, so it fits.
        let bytes = shm::block_bytes(&req.lo, &req.hi, n, elem)
            .ok_or_else(|| format!("patch of g_a '{}' too large", a.layout.name))?;
        Ok((
            a,
            Place {
                off,
                bstr,
                count,
                n,
                elem,
                lock_off: b.lock_off as usize,
                bytes,
            },
        ))
    }

    /// The placement of a put or accumulate whose payload must fill the
    /// patch exactly, with the dense strides of that payload.
    fn place_payload(
        &self,
        req: &Req,
        payload: &[u8],
    ) -> Check<(&SArray, Place, [usize; MAX_DIM])> {
        let (a, p) = self.place(req, true)?;
        if payload.len() != p.bytes || req.len as usize != p.bytes {
            return Err(format!(
                "{} data bytes for a patch of {} bytes",
                payload.len(),
                p.bytes
            ));
        }
        let pstr = dist::strides_of(&p.count[..p.n]);
        Ok((a, p, pstr))
    }

    fn put(&self, req: &Req, payload: &[u8]) -> Check<()> {
        let (a, p, pstr) = self.place_payload(req, payload)?;
        ptr::copy_in(
            &a.map,
            p.off,
            &p.bstr[..p.n],
            payload,
            0,
            &pstr[..p.n],
            &p.count[..p.n],
            p.elem,
        )
    }

    fn acc(&self, req: &Req, payload: &[u8]) -> Check<()> {
        let (a, p, pstr) = self.place_payload(req, payload)?;
        let ty = add_type(a, req)?;
        let alpha = req.alpha;
        let w = ptr::atomic_u32(&a.map, p.lock_off)?;
        let mut err = None;
        shm::lock(w, SERVER_LOCKER);
        let r = ptr::update_rows(
            &a.map,
            p.off,
            &p.bstr[..p.n],
            payload,
            0,
            &pstr[..p.n],
            &p.count[..p.n],
            p.elem,
            |d, s| {
                if let Err(e) = kernels::acc(ty, d, s, &alpha) {
                    err = Some(e);
                }
            },
        );
        shm::unlock(w);
        r?;
        err.map_or(Ok(()), Err)
    }

    fn get(&mut self, src: i32, req: &Req) -> Check<()> {
        let mut out = std::mem::take(&mut self.reply);
        let mut v = std::mem::take(&mut self.scratch);
        let r = self.get_with(src, req, &mut out, &mut v);
        self.reply = out;
        self.scratch = v;
        r
    }

    fn get_with(&self, src: i32, req: &Req, out: &mut [u8], v: &mut Vec<u8>) -> Check<()> {
        let (a, p) = self.place(req, false)?;
        let pstr = dist::strides_of(&p.count[..p.n]);
        let comm = self.comm;
        if p.bytes <= EAGER {
            Rep {
                status: 0,
                value: 0,
                len: p.bytes as u64,
            }
            .encode(out);
            return ptr::copy_out(
                &a.map,
                p.off,
                &p.bstr[..p.n],
                &mut out[REP_LEN..REP_LEN + p.bytes],
                0,
                &pstr[..p.n],
                &p.count[..p.n],
                p.elem,
            )
            .and_then(|_| {
                mpi::send_blocking(&out[..REP_LEN + p.bytes], src, TAG_REP, comm).map_err(mpi_text)
            });
        }
        let mut head = [0u8; REP_LEN];
        Rep {
            status: 0,
            value: 0,
            len: p.bytes as u64,
        }
        .encode(&mut head);
        if dist::contiguous(&p.count[..p.n], &p.bstr[..p.n]) {
            let data = ptr::bytes(&a.map, p.off * p.elem, p.bytes)?;
            return send_head_data(&head, data, src, comm);
        }
        v.resize(p.bytes, 0);
        ptr::copy_out(
            &a.map,
            p.off,
            &p.bstr[..p.n],
            v,
            0,
            &pstr[..p.n],
            &p.count[..p.n],
            p.elem,
        )
        .and_then(|_| send_head_data(&head, v, src, comm))
    }

    /// [`Op::Rmw`]: fetch-and-add or swap on an int or long word of an
    /// array of bytes.
    fn rmw(&self, req: &Req) -> Check<i64> {
        let (a, p) = self.place(req, false)?;
        if a.ty != ElemType::Char {
            return Err(format!(
                "read-modify-write on g_a '{}' of type {:?}: only arrays of bytes",
                a.layout.name, a.ty
            ));
        }
        let off = p.off * p.elem;
        let swap = req.alpha[0] == 1;
        match req.elem_type() {
            Some(ElemType::Int) if p.bytes == 4 => {
                let w = ptr::atomic_i32(&a.map, off)?;
                let v = req.aux as i32;
                Ok(if swap {
                    w.swap(v, Ordering::AcqRel)
                } else {
                    w.fetch_add(v, Ordering::AcqRel)
                } as i64)
            }
            Some(ElemType::Long) if p.bytes == 8 => {
                let w = ptr::atomic_i64(&a.map, off)?;
                Ok(if swap {
                    w.swap(req.aux, Ordering::AcqRel)
                } else {
                    w.fetch_add(req.aux, Ordering::AcqRel)
                })
            }
            t => Err(format!(
                "read-modify-write of {t:?} on {} bytes: int on 4 or long on 8 needed",
                p.bytes
            )),
        }
    }

    fn read_inc(&self, req: &Req) -> Check<i64> {
        let (a, p) = self.place(req, false)?;
        if p.bytes != p.elem {
            return Err("read-increment needs a single element".into());
        }
        match a.ty {
            ElemType::Int => Ok(ptr::atomic_i32(&a.map, p.off * p.elem)?
                .fetch_add(req.aux as i32, Ordering::AcqRel)
                as i64),
            ElemType::Long | ElemType::LongLong => {
                Ok(ptr::atomic_i64(&a.map, p.off * p.elem)?.fetch_add(req.aux, Ordering::AcqRel))
            }
            t => Err(format!(
                "read-increment on g_a '{}' of type {t:?}: only integer arrays",
                a.layout.name
            )),
        }
    }
}
