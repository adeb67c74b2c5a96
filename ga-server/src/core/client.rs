//! The client side: connection to the servers, the array table, and every
//! data operation. Same-node data is read and written straight in the mapped
//! segments; other nodes' data (or all data with `MPBRIDGE_GA_REMOTE=1`)
//! goes through the owner node's server, with requests and replies sent by
//! shim-core's MPI API on the link communicator.

use super::dist::{self, Grid};
use super::inflight::{InFlightSet, Payload, Pending};
use super::kernels;
use super::types::{fmt_patch, Distribution, ElemType, GaError, GaResult, Handle};
use crate::procs;
use crate::protocol::*;
use crate::ptr::{self, UserBuf, MAX_DIM};
use crate::shm::{self, BlockEntry, Bounds, NodeLayout};
use crate::sys::{self, Mapping};
use shim_core::mpi::{self, Comm};
use shim_core::onesided::SharedCounter;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// First handle (GA numbers handles from index − 1000).
pub(crate) const GA_OFFSET: i32 = 1000;

pub(crate) struct Array {
    pub serial: u32,
    pub ty: ElemType,
    pub elem: usize,
    pub name: String,
    pub grid: Grid,
    pub dist: Distribution,
    /// This node's segment (shared with the parent of an overlay array).
    pub seg: Arc<Mapping>,
    /// Per block (for one block per process: per rank in the group): byte
    /// offset of the block and of its lock word in its node's segment;
    /// block lo and block strides.
    pub off: Vec<usize>,
    pub lock_off: Vec<usize>,
    pub blo: Vec<[i64; MAX_DIM]>,
    pub bstr: Vec<[usize; MAX_DIM]>,
    /// Ghost cells per side along each dimension (0: none). Each block is
    /// stored with its ghost frame around it: `blo` and `bstr` describe the
    /// framed block, and the server sees the framed block shifted by the
    /// widths (so its indices stay non-negative).
    pub width: [i64; MAX_DIM],
    /// The processor group the array lives on (−1: the world): its handle,
    /// its members as compute ranks in group order, its communicator and
    /// this process's rank in it. Block owners count in the group.
    pub pgroup: i32,
    pub members: Vec<i32>,
    pub gcomm: Comm,
    pub grank: i32,
    /// The compute ranks that hold the blocks, in block order (all the
    /// members unless `GA_Set_restricted` named fewer), and this process's
    /// place among them (−1: it holds no block).
    pub holders: Vec<i32>,
    pub hproc: i64,
}

/// Where a new array lives: a processor group's handle, members (compute
/// ranks in group order) and communicator, and the members that hold its
/// blocks (compute ranks in block order; the members themselves unless
/// the array is restricted).
#[derive(Clone)]
pub(crate) struct Placement {
    pub pgroup: i32,
    pub members: Vec<i32>,
    pub holders: Vec<i32>,
    pub comm: Comm,
}

/// The memory an overlay array borrows from its parent: the parent's id,
/// node segment, and per block (= holder) the byte offsets of its block
/// and lock word.
struct Overlay {
    serial: u32,
    seg: Arc<Mapping>,
    off: Vec<usize>,
    lock_off: Vec<usize>,
}

impl Overlay {
    /// The node layout of an overlay's blocks `owners` (block number and
    /// framed bounds): each at its parent block's place in the parent's
    /// segment.
    fn layout(
        &self,
        dims: &[i64],
        name: &str,
        owners: &[(i32, Option<Bounds>)],
    ) -> Result<NodeLayout, String> {
        let mut d = [0i64; MAX_DIM];
        d[..dims.len()].copy_from_slice(dims);
        let blocks = owners
            .iter()
            .filter_map(|&(b, bounds)| {
                bounds.map(|(lo, hi)| BlockEntry {
                    owner: b,
                    off: self.off[b as usize] as u64,
                    lock_off: self.lock_off[b as usize] as u64,
                    lo,
                    hi,
                })
            })
            .collect();
        Ok(NodeLayout {
            total: self.seg.len() as u64,
            dims: d,
            name: name.to_string(),
            blocks,
        })
    }
}

impl Array {
    /// The compute rank holding block `block`.
    pub fn compute_rank(&self, block: i64) -> usize {
        self.holders[self.grid.process_of_block(block) as usize] as usize
    }

    /// The group rank of block process `p` (the `i`-th holder); block
    /// numbers of block-cyclic arrays pass unchanged.
    pub fn group_rank(&self, p: i64) -> i64 {
        if self.grid.is_cyclic() {
            return p;
        }
        let Some(&r) = self.holders.get(p as usize) else {
            return p;
        };
        self.members
            .iter()
            .position(|&m| m == r)
            .map_or(p, |i| i as i64)
    }

    /// The block process of group rank `proc_` (−1: it holds no block).
    pub fn holder_index(&self, proc_: i64) -> i64 {
        let Some(&r) = self.members.get(proc_ as usize) else {
            return -1;
        };
        self.holders
            .iter()
            .position(|&h| h == r)
            .map_or(-1, |i| i as i64)
    }

    /// Number of processes in the array's group.
    pub fn nprocs(&self) -> i64 {
        self.members.len() as i64
    }

    /// Where the array lives (for an array made on the same processes).
    pub fn placement(&self) -> Placement {
        Placement {
            pgroup: self.pgroup,
            members: self.members.clone(),
            holders: self.holders.clone(),
            comm: self.gcomm,
        }
    }
}

/// Request/reply plumbing to the servers.
pub(crate) struct Link {
    pub ga: Comm,
    pub buf: Vec<u8>,
    pub rbuf: Vec<u8>,
    /// Requests of non-blocking calls still in flight.
    pub inflight: InFlightSet,
}

pub(crate) struct Client {
    pub me: i32,
    pub nproc: i32,
    pub comm: Comm,
    pub my_node: u32,
    /// Node of each compute rank.
    pub node_of: Vec<u32>,
    /// Server world rank of each node (−1: none).
    pub server: Vec<i32>,
    pub server_pid: Vec<i32>,
    pub ctl: Option<Mapping>,
    pub remote: bool,
    pub arrays: Vec<Option<Array>>,
    /// Free slots of `arrays` whose handles deallocated arrays keep.
    pub held: Vec<usize>,
    pub next_serial: u32,
    pub nmutex: i32,
    pub ga_active: bool,
    pub left: bool,
    pub link: Link,
    /// NXTVAL's counter when no ga-server runs in the job (several ranks).
    pub counter: Option<SharedCounter>,
}

pub(crate) static CLIENT: Mutex<Option<Client>> = Mutex::new(None);

/// Runs `f` on the connected client.
pub(crate) fn with<R>(
    call: &'static str,
    f: impl FnOnce(&mut Client) -> GaResult<R>,
) -> GaResult<R> {
    let mut g = CLIENT.lock().unwrap_or_else(|e| e.into_inner());
    match g.as_mut() {
        Some(c) if !c.left => {
            if shim_core::trace::on() {
                shim_core::trace::record("ga", shim_core::trace::Event::Call { op: call });
            }
            f(c)
        }
        Some(_) => Err(GaError::new(call, "GA has been terminated in this process")),
        None => Err(GaError::new(
            call,
            "GA is not initialised (call GA_Initialize first)",
        )),
    }
}

fn err(call: &'static str) -> impl Fn(String) -> GaError {
    move |m| GaError::new(call, m)
}

/// Connects this compute rank (collective over all processes, once).
pub(crate) fn connect(call: &'static str) -> GaResult<()> {
    let mut g = CLIENT.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_some() {
        return Ok(());
    }
    let p = procs::setup(false).map_err(err(call))?;
    let comm = p.compute_comm;
    let me = comm.rank().map_err(GaError::backend(call))?;
    let nproc = comm.size().map_err(GaError::backend(call))?;
    let node_of: Vec<u32> = p.compute.iter().map(|&w| p.node[w as usize]).collect();
    let server: Vec<i32> = (0..p.nodes() as u32)
        .map(|n| p.server_of_node(n).unwrap_or(-1))
        .collect();
    let my_node = p.my_node();
    let mut link = Link {
        ga: p.ga_comm,
        buf: vec![0u8; REQ_LEN + EAGER],
        rbuf: vec![0u8; REP_LEN + EAGER],
        inflight: InFlightSet::default(),
    };
    // Only this node's server is asked: it names the control segment here.
    let mut server_pid = vec![-1; server.len()];
    let mut ctl = None;
    let mut ctl_seg = String::new();
    let mut problem = String::new();
    let mine = server[my_node as usize];
    if mine >= 0 {
        match link.rpc(call, mine, &Req::new(Op::Hello), &[]) {
            Ok(rep) => {
                server_pid[my_node as usize] = rep.value as i32;
                ctl_seg = link.reply_text(&rep);
                match sys::shm_open_map(&ctl_seg, CTL_LEN) {
                    Ok(m) => ctl = Some(m),
                    Err(e) => problem = e,
                }
            }
            Err(e) => problem = e.message,
        }
    }
    comm.barrier().map_err(GaError::backend(call))?;
    let leader = node_of.iter().position(|&n| n == my_node) == Some(me as usize);
    if leader && !ctl_seg.is_empty() {
        sys::shm_unlink(&ctl_seg);
    }
    if !problem.is_empty() {
        return Err(GaError::new(
            call,
            format!("cannot map the ga-server's control segment: {problem}"),
        ));
    }
    let remote = std::env::var("MPBRIDGE_GA_REMOTE").is_ok_and(|v| v == "1");
    // Without any server, NXTVAL keeps its counter in an MPI window on the
    // last compute rank (made here because making it is collective).
    let counter = if nproc > 1 && server.iter().all(|&s| s < 0) {
        Some(SharedCounter::create(comm, nproc - 1).map_err(GaError::backend(call))?)
    } else {
        None
    };
    shim_core::log::tracing::debug!(
        target: "ga",
        rank = me,
        nproc,
        node = my_node,
        servers = ?server,
        remote,
        own_counter = counter.is_some(),
        "GA client connected"
    );
    *g = Some(Client {
        me,
        nproc,
        comm,
        my_node,
        node_of,
        server,
        server_pid,
        ctl,
        remote,
        arrays: Vec::new(),
        held: Vec::new(),
        next_serial: 1,
        nmutex: 0,
        ga_active: false,
        left: false,
        link,
        counter,
    });
    drop(g);
    shim_core::mpi::at_exit(leave_at_exit);
    // A layer that finalises MPI for the user (TCGMSG's PEND) runs this first.
    shim_core::lifecycle::before_finalize(leave);
    Ok(())
}

extern "C" fn leave_at_exit() {
    let _ = std::panic::catch_unwind(leave);
}

/// Tells every server this rank is done (once); servers exit when every
/// compute rank has left.
pub(crate) fn leave() {
    let mut g = CLIENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = g.as_mut() {
        if !c.left && !shim_core::mpi::is_finalized() {
            let _ = c.link.inflight.wait(|_| true);
            c.left = true;
            c.arrays.clear();
            if let Some(w) = c.counter.as_mut() {
                w.close();
            }
            let mut h = [0u8; REQ_LEN];
            Req::new(Op::Bye).encode(&mut h);
            for &s in c.server.iter().filter(|&&s| s >= 0) {
                let _ = mpi::send_blocking(&h, s, TAG_REQ, c.link.ga);
            }
        }
    }
}

impl Link {
    /// Sends a request (payload inline or as a second message) and waits for
    /// the reply header; error replies become `GaError`s of `call`. The
    /// requests in flight to `server` finish first.
    pub fn rpc(
        &mut self,
        call: &'static str,
        server: i32,
        req: &Req,
        payload: &[u8],
    ) -> GaResult<Rep> {
        self.inflight.wait_server(server)?;
        let e = err(call);
        let be = GaError::backend(call);
        let ga = self.ga;
        req.encode(&mut self.buf);
        if payload.len() <= EAGER {
            self.buf[REQ_LEN..REQ_LEN + payload.len()].copy_from_slice(payload);
            mpi::send_blocking(&self.buf[..REQ_LEN + payload.len()], server, TAG_REQ, ga)
                .map_err(be)?;
        } else if req.op == Op::Acc as u8 {
            // In chunks: the server adds up each while the next arrives.
            mpi::send_blocking(&self.buf[..REQ_LEN], server, TAG_REQ, ga).map_err(be)?;
            mpi::send_chunked(payload, ACC_CHUNK, server, TAG_DATA, ga).map_err(be)?;
        } else {
            // The header, then the data as its own message, without a copy.
            mpi::send_blocking(&self.buf[..REQ_LEN], server, TAG_REQ, ga).map_err(be)?;
            mpi::send_blocking(payload, server, TAG_DATA, ga).map_err(be)?;
        }
        let mut wait = shim_core::backoff::Backoff::new();
        let got =
            mpi::recv_borrowed(&mut self.rbuf, server, TAG_REP, ga, || wait.pause()).map_err(be)?;
        let rep = Rep::decode(&self.rbuf[..got])
            .ok_or_else(|| e("short reply from the ga-server".into()))?;
        if rep.status != 0 {
            let n = (rep.len as usize).min(got - REP_LEN);
            let why = String::from_utf8_lossy(&self.rbuf[REP_LEN..REP_LEN + n]).into_owned();
            shim_core::log::tracing::warn!(
                target: "ga",
                "{call}: ga-server at rank {server} refused request {}: {why}",
                req.op
            );
            return Err(e(why));
        }
        Ok(rep)
    }

    /// The data inline in the last reply `rep`, as text (a segment name).
    pub fn reply_text(&self, rep: &Rep) -> String {
        let n = (rep.len as usize).min(self.rbuf.len() - REP_LEN);
        String::from_utf8_lossy(&self.rbuf[REP_LEN..REP_LEN + n]).into_owned()
    }

    /// Receives get data that follows a reply (or is inline in it) into
    /// `dst` (exactly `rep.len` bytes).
    pub fn take_data(
        &mut self,
        call: &'static str,
        server: i32,
        rep: &Rep,
        dst: &mut [u8],
    ) -> GaResult<()> {
        let len = rep.len as usize;
        if len != dst.len() {
            return Err(GaError::new(
                call,
                format!("server sent {len} bytes, {} expected", dst.len()),
            ));
        }
        if len <= EAGER {
            dst.copy_from_slice(&self.rbuf[REP_LEN..REP_LEN + len]);
            return Ok(());
        }
        let mut wait = shim_core::backoff::Backoff::new();
        mpi::recv_borrowed(dst, server, TAG_RDATA, self.ga, || wait.pause())
            .map_err(GaError::backend(call))?;
        Ok(())
    }
}

/// Packs a strided patch of `src` into a contiguous vector.
fn pack(src: &[u8], soff: usize, sstr: &[usize], count: &[usize], elem: usize) -> Vec<u8> {
    let n = count.len();
    let total: usize = count.iter().product::<usize>() * elem;
    let mut v = Vec::with_capacity(total);
    let row = count[n - 1] * elem;
    let cstr = dist::strides_of(count);
    ptr::rows(count, sstr, &cstr[..n], |a, _| {
        let s = (soff + a) * elem;
        v.extend_from_slice(&src[s..s + row]);
    });
    v
}

/// Unpacks a contiguous patch into a strided layout of `dst`.
fn unpack(data: &[u8], dst: &mut [u8], doff: usize, dstr: &[usize], count: &[usize], elem: usize) {
    let n = count.len();
    let row = count[n - 1] * elem;
    let cstr = dist::strides_of(count);
    ptr::rows(count, dstr, &cstr[..n], |a, b| {
        let d = (doff + a) * elem;
        let s = b * elem;
        dst[d..d + row].copy_from_slice(&data[s..s + row]);
    });
}

/// The request for owner `owner`'s part `plo..=phi` (`bytes` long) of
/// `a`; an accumulate adds as `add_ty`, scaled by `alpha`.
#[allow(clippy::too_many_arguments)]
fn part_request(
    a: &Array,
    kind: Kind,
    add_ty: ElemType,
    alpha: &[u8],
    owner: i64,
    plo: &[i64],
    phi: &[i64],
    bytes: usize,
) -> Req {
    let op = match kind {
        Kind::Put => Op::Put,
        Kind::Get => Op::Get,
        Kind::Acc => Op::Acc,
    };
    let ty = if kind == Kind::Acc { add_ty } else { a.ty };
    let mut req = region_request(a, op, ty, owner, plo, phi);
    if kind == Kind::Acc {
        let k = add_ty.size().min(32).min(alpha.len());
        req.alpha[..k].copy_from_slice(&alpha[..k]);
    }
    req.len = bytes as u64;
    req
}

/// A request `op` on elements `lo..=hi` (of type `ty`) of owner `owner`'s
/// block of `a`, in the server's framed indices.
fn region_request(a: &Array, op: Op, ty: ElemType, owner: i64, lo: &[i64], hi: &[i64]) -> Req {
    let mut req = Req::new(op);
    req.set_type(ty);
    let n = a.grid.ndim();
    req.ndim = n as u8;
    req.array = a.serial;
    req.owner = owner as i32;
    for d in 0..n {
        req.lo[d] = lo[d] + a.width[d];
        req.hi[d] = hi[d] + a.width[d];
    }
    req
}

/// What a patch operation does with each owner's part.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Put,
    Get,
    Acc,
}

impl Client {
    pub fn index(&self, call: &'static str, g: Handle) -> GaResult<usize> {
        let i = g.wrapping_add(GA_OFFSET);
        if i >= 0 && (i as usize) < self.arrays.len() && self.arrays[i as usize].is_some() {
            Ok(i as usize)
        } else {
            Err(GaError::new(call, format!("invalid array handle {g}")))
        }
    }

    pub fn array(&self, call: &'static str, g: Handle) -> GaResult<&Array> {
        let i = self.index(call, g)?;
        self.arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(call, format!("invalid array handle {g}")))
    }

    /// Whether compute rank `rank` shares this process's node (and the
    /// shared-memory path is on).
    fn is_local(&self, rank: usize) -> bool {
        !self.remote && self.node_of[rank] == self.my_node
    }

    /// The server of compute rank `rank`'s node.
    fn server_of(&self, call: &'static str, rank: usize) -> GaResult<i32> {
        let s = self.server[self.node_of[rank] as usize];
        if s < 0 {
            return Err(GaError::new(call, "no ga-server serves the owner's node"));
        }
        Ok(s)
    }

    /// Creates an array (collective over the members of `place`).
    pub fn create(
        &mut self,
        call: &'static str,
        ty: ElemType,
        dims: &[i64],
        name: &str,
        dist: &Distribution,
        place: &Placement,
    ) -> GaResult<Handle> {
        self.create_on(call, ty, dims, name, dist, &[], place, None)
    }

    /// Where an overlay array's blocks lie in array `parent`'s memory,
    /// and whether they fit there. As in GA, each process's blocks (the
    /// tiles of a block-cyclic grid, in block order) lie end to end from
    /// the start of the parent's memory on that process (its block, or
    /// its tiles end to end); they fit when their bytes (with ghost widths
    /// `w`, elements of `elem` bytes) do not exceed the parent's there, and
    /// never on a process that holds none of the parent. Per block of
    /// `grid` (dealt over `holders`): byte offset and lock word.
    fn overlay_room(
        &self,
        call: &'static str,
        parent: Handle,
        grid: &Grid,
        w: &[i64; MAX_DIM],
        elem: usize,
        holders: &[i32],
    ) -> GaResult<(Overlay, bool)> {
        let p = self.array(call, parent)?;
        let framed_bytes = |g: &Grid, width: &[i64; MAX_DIM], e: usize, b: i64| -> u128 {
            g.block_of(b).map_or(0, |(lo, hi)| {
                (0..g.ndim())
                    .map(|d| (hi[d] - lo[d] + 1 + 2 * width[d]) as u128)
                    .product::<u128>()
                    * e as u128
            })
        };
        let nblocks = |g: &Grid, nproc: usize| {
            if g.is_cyclic() {
                g.total_blocks()
            } else {
                nproc as i64
            }
        };
        // The parent's memory per process: start, lock word, bytes.
        let mut room: Vec<Option<(usize, usize, u128)>> = vec![None; p.holders.len()];
        for b in 0..nblocks(&p.grid, p.holders.len()) {
            let q = p.grid.process_of_block(b) as usize;
            let bytes = framed_bytes(&p.grid, &p.width, p.elem, b);
            match &mut room[q] {
                Some(r) => r.2 += bytes,
                r => *r = Some((p.off[b as usize], p.lock_off[b as usize], bytes)),
            }
        }
        let n = nblocks(grid, holders.len()) as usize;
        let (mut off, mut lock_off) = (vec![0usize; n], vec![0usize; n]);
        let mut used = vec![0u128; holders.len()];
        let mut fits = true;
        for b in 0..n {
            let q = grid.process_of_block(b as i64) as usize;
            let mine = p.holders.iter().position(|&h| h == holders[q]);
            let Some((start, lock, bytes)) = mine.and_then(|i| room[i]) else {
                fits = false;
                continue;
            };
            // Element offsets from the segment start must be whole.
            fits &= start % elem.max(1) == 0;
            off[b] = start + used[q] as usize;
            lock_off[b] = lock;
            used[q] += framed_bytes(grid, w, elem, b as i64);
            fits &= used[q] <= bytes;
        }
        Ok((
            Overlay {
                serial: p.serial,
                seg: p.seg.clone(),
                off,
                lock_off,
            },
            fits,
        ))
    }

    /// Whether an array of `dims` and `dist` (ghost widths `width`) made on
    /// the processes `holders` fits in `parent`'s memory on every process
    /// (`GA_Overlay` returns 0 when it does not).
    #[allow(clippy::too_many_arguments)]
    pub fn overlay_fits(
        &self,
        call: &'static str,
        ty: ElemType,
        dims: &[i64],
        dist: &Distribution,
        width: &[i64],
        parent: Handle,
        holders: &[i32],
    ) -> GaResult<bool> {
        let grid = Grid::new(call, dims, holders.len() as i64, dist)?;
        let mut w = [0i64; MAX_DIM];
        for d in 0..dims.len().min(width.len()) {
            w[d] = width[d].max(0);
        }
        Ok(self
            .overlay_room(call, parent, &grid, &w, ty.size(), holders)?
            .1)
    }

    /// [`Client::create`] with `width[d]` ghost cells on each side of every
    /// block along dimension d (missing entries: 0) and, when `over` names
    /// an array, with the blocks in its memory: each process's block starts
    /// where its block of `over` starts, in the same node segment
    /// (`GA_Overlay`; [`Client::overlay_fits`] tells whether they fit).
    #[allow(clippy::too_many_arguments)]
    pub fn create_on(
        &mut self,
        call: &'static str,
        ty: ElemType,
        dims: &[i64],
        name: &str,
        dist: &Distribution,
        width: &[i64],
        place: &Placement,
        over: Option<Handle>,
    ) -> GaResult<Handle> {
        let members = &place.members;
        let grank = members.iter().position(|&m| m == self.me).ok_or_else(|| {
            GaError::new(
                call,
                format!(
                    "process {} is not in processor group {} that '{name}' is made on",
                    self.me, place.pgroup
                ),
            )
        })? as i32;
        let gcomm = place.comm;
        let n = dims.len();
        if n == 0 || n > MAX_DIM {
            return Err(GaError::new(
                call,
                format!("{n} dimensions for '{name}': 1 to {MAX_DIM} are supported"),
            ));
        }
        if let Some(d) = dims.iter().position(|&x| x < 1) {
            return Err(GaError::new(
                call,
                format!("dims[{d}] = {} of '{name}' must be positive", dims[d]),
            ));
        }
        let elem = ty.size();
        dist::array_bytes(call, name, dims, elem)?;
        let holders = &place.holders;
        let np = members.len();
        let grid = Grid::new(call, dims, holders.len() as i64, dist)?;
        // The servers know arrays by a job-wide id: the group's first
        // member numbers its own creations, and its rank keeps groups apart.
        let mut mine = self.next_serial.to_le_bytes();
        self.next_serial += 1;
        gcomm
            .bcast(&mut mine, mpi::Root::Rank(0))
            .map_err(GaError::backend(call))?;
        let serial = u32::from_le_bytes(mine)
            .checked_mul(self.nproc as u32)
            .and_then(|v| v.checked_add(members[0] as u32))
            .ok_or_else(|| GaError::new(call, "too many arrays made in this job"))?;
        let mut w = [0i64; MAX_DIM];
        for d in 0..n.min(width.len()) {
            if width[d] < 0 {
                return Err(GaError::new(
                    call,
                    format!(
                        "ghost width {} in dimension {d} of '{name}' is negative",
                        width[d]
                    ),
                ));
            }
            w[d] = width[d];
        }
        // A restricted list naming every member (in any order) gives each
        // one a framed block, as GA does; GA 5.8 fails to allocate the
        // ghost update of a list that leaves members out, so those are
        // refused here.
        let every_member =
            holders.len() == members.len() && members.iter().all(|m| holders.contains(m));
        if !every_member && w[..n].iter().any(|&x| x > 0) {
            return Err(GaError::new(
                call,
                format!(
                    "'{name}' is restricted to {} of {} processes: ghost cells need every process in the restricted list",
                    holders.len(),
                    members.len()
                ),
            ));
        }
        if grid.is_cyclic() && w[..n].iter().any(|&x| x > 0) {
            return Err(GaError::new(
                call,
                format!("'{name}' is block-cyclic: ghost cells are not available on such arrays"),
            ));
        }
        let overlay = match over {
            Some(parent) => {
                let (o, fits) = self.overlay_room(call, parent, &grid, &w, elem, holders)?;
                if !fits {
                    return Err(GaError::new(
                        call,
                        format!(
                            "'{name}' does not fit in the memory of its parent on every process"
                        ),
                    ));
                }
                Some(o)
            }
            None => None,
        };
        // Framed blocks in the server's shifted indices: lo..=hi + 2w.
        let nblocks = if grid.is_cyclic() {
            grid.total_blocks() as usize
        } else {
            holders.len()
        };
        let blocks: Vec<Option<Bounds>> = (0..nblocks)
            .map(|p| {
                grid.block_of(p as i64).map(|(lo, mut hi)| {
                    for d in 0..n {
                        hi[d] += 2 * w[d];
                    }
                    (lo, hi)
                })
            })
            .collect();
        let mut off = vec![0usize; nblocks];
        let mut lock_off = vec![0usize; nblocks];
        let mut blo = vec![[0i64; MAX_DIM]; nblocks];
        let mut bstr = vec![[0usize; MAX_DIM]; nblocks];
        let mut my_layout = None;
        for node in 0..self.server.len() as u32 {
            // The group's first member on the node asks its server.
            let Some(leader) = (0..np).find(|&p| self.node_of[members[p] as usize] == node) else {
                continue;
            };
            let leader = leader as i32;
            // Blocks are entered by number (for one block per process, the
            // process's rank in the group).
            let owners: Vec<(i32, Option<Bounds>)> = (0..nblocks)
                .filter(|&b| {
                    let p = grid.process_of_block(b as i64) as usize;
                    self.node_of[holders[p] as usize] == node
                })
                .map(|b| (b as i32, blocks[b]))
                .collect();
            // A process's tiles of a block-cyclic array lie end to end (its
            // segment, as NGA_Access_block_segment shows it); owners ranked
            // by process keep them together.
            let mut owners = owners;
            let layout = if let Some(o) = &overlay {
                o.layout(dims, name, &owners)
            } else if grid.is_cyclic() {
                owners.sort_by_key(|&(b, _)| (grid.process_of_block(b as i64), b));
                let firsts: Vec<bool> = (0..owners.len())
                    .map(|i| {
                        i == 0
                            || grid.process_of_block(owners[i].0 as i64)
                                != grid.process_of_block(owners[i - 1].0 as i64)
                    })
                    .collect();
                NodeLayout::build_aligned(dims, name, elem, &owners, |i| firsts[i])
            } else {
                NodeLayout::build(dims, name, elem, &owners)
            }
            .map_err(|m| GaError::new(call, m))?;
            for b in &layout.blocks {
                let p = b.owner as usize;
                off[p] = b.off as usize;
                blo[p] = b.lo;
                for d in 0..n {
                    blo[p][d] -= w[d];
                }
                let bc: Vec<usize> = (0..n).map(|d| (b.hi[d] - b.lo[d] + 1) as usize).collect();
                bstr[p] = dist::strides_of(&bc);
            }
            for (i, (p, _)) in owners.iter().enumerate() {
                lock_off[*p as usize] = match &overlay {
                    Some(o) => o.lock_off[*p as usize],
                    None => 64 * (i + 1),
                };
            }
            if node == self.my_node {
                my_layout = Some((layout, leader));
            }
        }
        let (layout, leader) =
            my_layout.ok_or_else(|| GaError::new(call, "internal: no layout for this node"))?;
        let my_server = self.server[self.my_node as usize];
        let mut status = [0u8; 256];
        if leader == grank {
            let mut req = Req::new(Op::Create);
            req.set_type(ty);
            req.ndim = n as u8;
            req.array = serial;
            // An overlay names its parent, whose segment it shares.
            req.aux = overlay.as_ref().map_or(0, |o| i64::from(o.serial) + 1);
            let payload = layout.encode();
            req.len = payload.len() as u64;
            // status: 0 and the segment's name, or 1 and the error.
            let (code, text) = match self.link.rpc(call, my_server, &req, &payload) {
                Ok(rep) => (0, self.link.reply_text(&rep)),
                Err(e) => (1, e.message),
            };
            let m = text.as_bytes();
            let k = m.len().min(254);
            status[0] = code;
            status[1..1 + k].copy_from_slice(&m[..k]);
        }
        let all = gcomm.allgather(&status).map_err(GaError::backend(call))?;
        if let Some(bad) = all.chunks(256).find(|s| s[0] != 0) {
            let end = bad[1..].iter().position(|&b| b == 0).unwrap_or(255);
            let msg = String::from_utf8_lossy(&bad[1..1 + end]).into_owned();
            if leader == grank && status[0] == 0 {
                let mut req = Req::new(Op::Destroy);
                req.array = serial;
                let _ = self.link.rpc(call, my_server, &req, &[]);
            }
            return Err(GaError::new(call, msg));
        }
        let from_leader = &all[leader as usize * 256..(leader as usize + 1) * 256];
        let end = from_leader[1..].iter().position(|&b| b == 0).unwrap_or(255);
        let seg_name = String::from_utf8_lossy(&from_leader[1..1 + end]).into_owned();
        let seg = match &overlay {
            Some(o) => Ok(o.seg.clone()),
            None => sys::shm_open_map(&seg_name, layout.total as usize).map(Arc::new),
        };
        let ok = [seg.is_ok() as u8];
        let oks = gcomm.allgather(&ok).map_err(GaError::backend(call))?;
        if leader == grank && overlay.is_none() {
            sys::shm_unlink(&seg_name);
        }
        let seg = match seg {
            Ok(s) if oks.iter().all(|&b| b == 1) => s,
            other => {
                if leader == grank {
                    let mut req = Req::new(Op::Destroy);
                    req.array = serial;
                    let _ = self.link.rpc(call, my_server, &req, &[]);
                }
                let why = other
                    .err()
                    .unwrap_or_else(|| "another process could not map its segment".into());
                return Err(GaError::new(
                    call,
                    format!("cannot map the segment of '{name}': {why}"),
                ));
            }
        };
        let a = Array {
            serial,
            ty,
            elem,
            name: name.to_string(),
            grid,
            dist: dist.clone(),
            seg,
            off,
            lock_off,
            blo,
            bstr,
            width: w,
            pgroup: place.pgroup,
            members: members.clone(),
            gcomm,
            grank,
            holders: holders.clone(),
            hproc: holders
                .iter()
                .position(|&h| h == self.me)
                .map_or(-1, |i| i as i64),
        };
        let free = |(i, x): (usize, &Option<Array>)| x.is_none() && !self.held.contains(&i);
        let slot = match self.arrays.iter().enumerate().position(free) {
            Some(i) => {
                self.arrays[i] = Some(a);
                i
            }
            None => {
                self.arrays.push(Some(a));
                self.arrays.len() - 1
            }
        };
        Ok(slot as i32 - GA_OFFSET)
    }

    /// Destroys an array (collective over its group; `barrier` false when
    /// the caller has synchronised already, as `GA_Terminate` has).
    pub fn destroy(&mut self, call: &'static str, g: Handle, barrier: bool) -> GaResult<()> {
        let i = self.index(call, g)?;
        std::sync::atomic::fence(Ordering::SeqCst);
        let Some(a) = self.arrays[i].as_ref() else {
            return Err(GaError::new(call, format!("invalid array handle {g}")));
        };
        if barrier {
            a.gcomm.barrier().map_err(GaError::backend(call))?;
        }
        // The group's first member on this node asks the server.
        let leader = a
            .members
            .iter()
            .position(|&m| self.node_of[m as usize] == self.my_node)
            == Some(a.grank as usize);
        let serial = a.serial;
        self.arrays[i] = None;
        if leader {
            let mut req = Req::new(Op::Destroy);
            req.array = serial;
            let s = self.server[self.my_node as usize];
            self.link.rpc(call, s, &req, &[])?;
        }
        Ok(())
    }

    /// Checks a patch and the user buffer; returns the user strides.
    fn check_user(
        a: &Array,
        call: &'static str,
        lo: &[i64],
        hi: &[i64],
        buf_len: usize,
        ld: &[i64],
    ) -> GaResult<[usize; MAX_DIM]> {
        a.grid.check_patch(call, &a.name, lo, hi)?;
        let n = a.grid.ndim();
        if ld.len() + 1 < n {
            return Err(GaError::new(
                call,
                format!("ld needs {} entries, got {}", n - 1, ld.len()),
            ));
        }
        let mut s = [0usize; MAX_DIM];
        s[n - 1] = 1;
        for d in (0..n - 1).rev() {
            let ext = hi[d + 1] - lo[d + 1] + 1;
            if ld[d] < ext {
                return Err(GaError::new(
                    call,
                    format!(
                        "ld[{d}] = {} is smaller than the patch's extent {ext} in dimension {}",
                        ld[d],
                        d + 1
                    ),
                ));
            }
            s[d] = s[d + 1].checked_mul(ld[d] as usize).ok_or_else(|| {
                GaError::new(
                    call,
                    format!(
                        "ld {:?} describes a buffer larger than memory",
                        &ld[..n - 1]
                    ),
                )
            })?;
        }
        let mut count = [0usize; MAX_DIM];
        for d in 0..n {
            count[d] = (hi[d] - lo[d] + 1) as usize;
        }
        let need = ptr::extent(0, &s[..n], &count[..n], a.elem);
        if buf_len < need {
            return Err(GaError::new(
                call,
                format!(
                    "buffer of {buf_len} bytes is too small for patch {} of g_a '{}' ({need} bytes)",
                    fmt_patch(&lo[..n], &hi[..n]),
                    a.name
                ),
            ));
        }
        Ok(s)
    }

    /// Put, get or acc on a patch: splits it by owner and serves each part
    /// locally or through the owner's server.
    #[allow(clippy::too_many_arguments)]
    fn patch_op(
        &mut self,
        call: &'static str,
        kind: Kind,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        src: &[u8],
        mut dst: Option<&mut [u8]>,
        ld: &[i64],
        alpha: &[u8],
        acc_ty: Option<ElemType>,
    ) -> GaResult<()> {
        let i = self.index(call, g)?;
        let len = dst.as_ref().map(|d| d.len()).unwrap_or(src.len());
        let me = self.me as u32;
        let (arrays, link) = (&self.arrays, &mut self.link);
        let a = arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
        let ustr = Self::check_user(a, call, lo, hi, len, ld)?;
        let add_ty = Self::add_type(a, call, kind, alpha, acc_ty)?;
        let n = a.grid.ndim();
        let elem = a.elem;
        let remote = self.remote;
        let my_node = self.my_node;
        let node_of = &self.node_of;
        let server = &self.server;
        a.grid.parts(lo, hi, |owner, plo, phi| -> GaResult<()> {
            let o = owner as usize;
            let node = node_of[a.compute_rank(owner)];
            let mut count = [0usize; MAX_DIM];
            let mut uoff = 0usize;
            for d in 0..n {
                count[d] = (phi[d] - plo[d] + 1) as usize;
                uoff += (plo[d] - lo[d]) as usize * ustr[d];
            }
            let count = &count[..n];
            if !remote && node == my_node {
                let bstr = &a.bstr[o][..n];
                let mut boff = a.off[o] / elem;
                for d in 0..n {
                    boff += (plo[d] - a.blo[o][d]) as usize * bstr[d];
                }
                let e = err(call);
                return match kind {
                    Kind::Put => {
                        ptr::copy_in(&a.seg, boff, bstr, src, uoff, &ustr[..n], count, elem)
                            .map_err(e)
                    }
                    Kind::Get => {
                        let d = dst.as_deref_mut().unwrap_or(&mut []);
                        ptr::copy_out(&a.seg, boff, bstr, d, uoff, &ustr[..n], count, elem)
                            .map_err(e)
                    }
                    Kind::Acc => {
                        let w = ptr::atomic_u32(&a.seg, a.lock_off[o]).map_err(&e)?;
                        let mut bad = None;
                        shm::lock(w, me);
                        let r = ptr::update_rows(
                            &a.seg,
                            boff,
                            bstr,
                            src,
                            uoff,
                            &ustr[..n],
                            count,
                            elem,
                            |d, s| {
                                if let Err(x) = kernels::acc(add_ty, d, s, alpha) {
                                    bad = Some(x);
                                }
                            },
                        );
                        shm::unlock(w);
                        r.map_err(&e)?;
                        bad.map_or(Ok(()), |x| Err(e(x)))
                    }
                };
            }
            let s = server[node as usize];
            if s < 0 {
                return Err(GaError::new(call, "no ga-server serves the owner's node"));
            }
            let bytes = count.iter().product::<usize>() * elem;
            let req = part_request(a, kind, add_ty, alpha, owner, plo, phi, bytes);
            let contig = dist::contiguous(count, &ustr[..n]);
            match kind {
                Kind::Put | Kind::Acc => {
                    if contig {
                        link.rpc(call, s, &req, &src[uoff * elem..uoff * elem + bytes])?;
                    } else {
                        let v = pack(src, uoff, &ustr[..n], count, elem);
                        link.rpc(call, s, &req, &v)?;
                    }
                    Ok(())
                }
                Kind::Get => {
                    let d = dst.as_deref_mut().unwrap_or(&mut []);
                    let rep = link.rpc(call, s, &req, &[])?;
                    if contig {
                        link.take_data(call, s, &rep, &mut d[uoff * elem..uoff * elem + bytes])
                    } else {
                        let mut v = vec![0u8; bytes];
                        link.take_data(call, s, &rep, &mut v)?;
                        unpack(&v, d, uoff, &ustr[..n], count, elem);
                        Ok(())
                    }
                }
            }
        })
    }

    /// The type an accumulate into `a` adds as: the array's, or for an
    /// array of bytes (ARMCI memory) the one the caller names; `alpha`
    /// must hold one element of it.
    fn add_type(
        a: &Array,
        call: &'static str,
        kind: Kind,
        alpha: &[u8],
        acc_ty: Option<ElemType>,
    ) -> GaResult<ElemType> {
        let add_ty = match acc_ty {
            Some(t) if a.ty == ElemType::Char => t,
            Some(t) if t != a.ty => {
                return Err(GaError::new(
                    call,
                    format!("g_a '{}' of type {:?} cannot add as {t:?}", a.name, a.ty),
                ))
            }
            _ => a.ty,
        };
        if kind == Kind::Acc && alpha.len() < add_ty.size() {
            return Err(GaError::new(
                call,
                format!(
                    "alpha holds {} bytes, {} needed",
                    alpha.len(),
                    add_ty.size()
                ),
            ));
        }
        Ok(add_ty)
    }

    pub fn put(
        &mut self,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        buf: &[u8],
        ld: &[i64],
        call: &'static str,
    ) -> GaResult<()> {
        self.patch_op(call, Kind::Put, g, lo, hi, buf, None, ld, &[], None)
    }

    pub fn get(
        &mut self,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        buf: &mut [u8],
        ld: &[i64],
        call: &'static str,
    ) -> GaResult<()> {
        self.patch_op(call, Kind::Get, g, lo, hi, &[], Some(buf), ld, &[], None)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn acc(
        &mut self,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        buf: &[u8],
        ld: &[i64],
        alpha: &[u8],
        call: &'static str,
    ) -> GaResult<()> {
        self.patch_op(call, Kind::Acc, g, lo, hi, buf, None, ld, alpha, None)
    }

    /// Accumulate into an array of bytes (ARMCI memory), adding as `ty`;
    /// every row of the patch must hold whole elements of `ty`.
    #[allow(clippy::too_many_arguments)]
    pub fn acc_as(
        &mut self,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        buf: &[u8],
        alpha: &[u8],
        ty: ElemType,
        call: &'static str,
    ) -> GaResult<()> {
        let n = lo.len();
        if n == 0 || !((hi[n - 1] - lo[n - 1] + 1) as usize).is_multiple_of(ty.size()) {
            return Err(GaError::new(
                call,
                format!("the bytes to add are not whole elements of {ty:?}"),
            ));
        }
        let ld: Vec<i64> = (1..n).map(|d| hi[d] - lo[d] + 1).collect();
        self.patch_op(call, Kind::Acc, g, lo, hi, buf, None, &ld, alpha, Some(ty))
    }

    /// Starts a put, get or accumulate `kind` (scaled by `alpha`, adding as
    /// `acc_ty` when given, as [`acc_as`](Self::acc_as)) of patch
    /// `lo..=hi` of `g` with the caller's contiguous bytes `local` (lent
    /// until the handle completes), for a non-blocking call whose handle has key `key`, on
    /// compute rank `target`'s memory. A patch of one owner on another node (on any,
    /// with `MPBRIDGE_GA_REMOTE=1`) goes to its server and stays in flight
    /// (see [`InFlightSet`]); any other completes before this returns.
    pub fn start_patch(
        &mut self,
        call: &'static str,
        (kind, alpha, acc_ty): (Kind, &[u8], Option<ElemType>),
        (g, lo, hi): (Handle, &[i64], &[i64]),
        mut local: UserBuf,
        (key, target): (usize, i32),
    ) -> GaResult<()> {
        let len = local.len();
        let n = lo.len();
        let ld: Vec<i64> = (1..n).map(|d| hi[d] - lo[d] + 1).collect();
        let out = {
            let a = self.array(call, g)?;
            let ustr = Self::check_user(a, call, lo, hi, len, &ld)?;
            let add_ty = Self::add_type(a, call, kind, alpha, acc_ty)?;
            let mut parts = Vec::new();
            a.grid.parts(lo, hi, |o, plo, phi| -> GaResult<()> {
                parts.push((o, *plo, *phi));
                Ok(())
            })?;
            match parts.as_slice() {
                [(o, plo, phi)] => {
                    let rank = a.compute_rank(*o);
                    let count: Vec<usize> =
                        (0..n).map(|d| (phi[d] - plo[d] + 1) as usize).collect();
                    let bytes = count.iter().product::<usize>() * a.elem;
                    (!self.is_local(rank) && bytes == len && dist::contiguous(&count, &ustr[..n]))
                        .then(|| {
                            let req = part_request(a, kind, add_ty, alpha, *o, plo, phi, bytes);
                            (req, rank)
                        })
                }
                _ => None,
            }
        };
        let Some((req, rank)) = out else {
            // Here, or in several parts: done before returning.
            return match kind {
                Kind::Get => {
                    let b = local.as_mut_slice();
                    self.patch_op(call, kind, g, lo, hi, &[], Some(b), &ld, &[], None)
                }
                _ => {
                    let b = local.as_slice();
                    self.patch_op(call, kind, g, lo, hi, b, None, &ld, alpha, acc_ty)
                }
            };
        };
        let s = self.server_of(call, rank)?;
        let payload = match kind {
            Kind::Get => Payload::Recv(local),
            Kind::Put => Payload::Send(local, len.max(1)),
            Kind::Acc => Payload::Send(local, ACC_CHUNK),
        };
        let p = Pending::start(call, self.link.ga, s, (key, target), &req, payload)?;
        self.link.inflight.push(p);
        Ok(())
    }

    /// An atomic read-modify-write on the word at `subs` of an array of
    /// bytes (ARMCI memory): `ty` is `Int` or `Long`; it adds `value` or,
    /// with `swap`, stores it. Returns the old value.
    pub fn rmw_bytes(
        &mut self,
        call: &'static str,
        g: Handle,
        subs: &[i64],
        ty: ElemType,
        swap: bool,
        value: i64,
    ) -> GaResult<i64> {
        let i = self.index(call, g)?;
        let a = self.arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
        let n = a.grid.ndim();
        let mut last = subs.to_vec();
        last[n - 1] += ty.size() as i64 - 1;
        a.grid.check_patch(call, &a.name, subs, &last)?;
        if a.ty != ElemType::Char || !matches!(ty, ElemType::Int | ElemType::Long) {
            return Err(GaError::new(
                call,
                format!(
                    "read-modify-write as {ty:?} on g_a '{}' of type {:?}",
                    a.name, a.ty
                ),
            ));
        }
        let owner = a.grid.owner(subs);
        if a.grid.owner(&last) != owner {
            return Err(GaError::new(call, "the word spans two processes' memory"));
        }
        let o = owner as usize;
        let rank = a.compute_rank(owner);
        if self.is_local(rank) {
            let mut boff = a.off[o];
            for d in 0..n {
                boff += (subs[d] - a.blo[o][d]) as usize * a.bstr[o][d];
            }
            let e = err(call);
            return if ty == ElemType::Int {
                let w = ptr::atomic_i32(&a.seg, boff).map_err(e)?;
                Ok(if swap {
                    w.swap(value as i32, Ordering::AcqRel)
                } else {
                    w.fetch_add(value as i32, Ordering::AcqRel)
                } as i64)
            } else {
                let w = ptr::atomic_i64(&a.seg, boff).map_err(e)?;
                Ok(if swap {
                    w.swap(value, Ordering::AcqRel)
                } else {
                    w.fetch_add(value, Ordering::AcqRel)
                })
            };
        }
        let s = self.server_of(call, rank)?;
        let mut req = region_request(a, Op::Rmw, ty, owner, subs, &last);
        req.alpha[0] = swap as u8;
        req.aux = value;
        Ok(self.link.rpc(call, s, &req, &[])?.value)
    }

    pub fn read_inc(&mut self, g: Handle, subs: &[i64], inc: i64) -> GaResult<i64> {
        const CALL: &str = "NGA_Read_inc";
        let i = self.index(CALL, g)?;
        let a = self.arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(CALL, "invalid array handle"))?;
        a.grid.check_patch(CALL, &a.name, subs, subs)?;
        if !a.ty.is_integer_counter() {
            return Err(GaError::new(
                CALL,
                format!(
                    "g_a '{}' has type {:?}; read-increment needs int or long elements",
                    a.name, a.ty
                ),
            ));
        }
        let n = a.grid.ndim();
        let owner = a.grid.owner(subs);
        let o = owner as usize;
        let rank = a.compute_rank(owner);
        if self.is_local(rank) {
            let mut boff = a.off[o] / a.elem;
            for d in 0..n {
                boff += (subs[d] - a.blo[o][d]) as usize * a.bstr[o][d];
            }
            let e = err(CALL);
            return if a.ty == ElemType::Int {
                Ok(ptr::atomic_i32(&a.seg, boff * 4)
                    .map_err(e)?
                    .fetch_add(inc as i32, Ordering::AcqRel) as i64)
            } else {
                Ok(ptr::atomic_i64(&a.seg, boff * 8)
                    .map_err(e)?
                    .fetch_add(inc, Ordering::AcqRel))
            };
        }
        let s = self.server_of(CALL, rank)?;
        let mut req = region_request(a, Op::ReadInc, a.ty, owner, subs, subs);
        req.aux = inc;
        Ok(self.link.rpc(CALL, s, &req, &[])?.value)
    }

    /// Node holding the NXTVAL counter: the last compute rank's (as TCGMSG).
    pub fn nxtval_node(&self) -> u32 {
        self.node_of[self.nproc as usize - 1]
    }

    /// Adds `inc` to the shared NXTVAL counter; returns the old value.
    pub fn counter_add(&mut self, call: &'static str, inc: i64) -> GaResult<i64> {
        let node = self.nxtval_node();
        if !self.remote && node == self.my_node {
            if let Some(ctl) = &self.ctl {
                let c = ptr::atomic_i64(ctl, CTL_NXTVAL).map_err(err(call))?;
                return Ok(c.fetch_add(inc, Ordering::AcqRel));
            }
        }
        let s = self.server[node as usize];
        if s < 0 {
            return Err(GaError::new(call, "no ga-server serves the counter's node"));
        }
        let mut req = Req::new(Op::NxtVal);
        req.aux = inc;
        Ok(self.link.rpc(call, s, &req, &[])?.value)
    }

    /// Sets the shared NXTVAL counter.
    pub fn counter_set(&mut self, call: &'static str, v: i64) -> GaResult<()> {
        let node = self.nxtval_node();
        if !self.remote && node == self.my_node {
            if let Some(ctl) = &self.ctl {
                ptr::atomic_i64(ctl, CTL_NXTVAL)
                    .map_err(err(call))?
                    .store(v, Ordering::Release);
                return Ok(());
            }
        }
        let s = self.server[node as usize];
        if s < 0 {
            return Err(GaError::new(call, "no ga-server serves the counter's node"));
        }
        let mut req = Req::new(Op::NxtReset);
        req.aux = v;
        self.link.rpc(call, s, &req, &[]).map(|_| ())
    }

    /// Node of the mutexes: compute rank 0's.
    fn mutex_home(&self, call: &'static str) -> GaResult<(bool, i32)> {
        let node = self.node_of[0];
        let s = self.server[node as usize];
        if s < 0 {
            return Err(GaError::new(call, "no ga-server serves the mutexes' node"));
        }
        Ok((
            !self.remote && node == self.my_node && self.ctl.is_some(),
            s,
        ))
    }

    pub fn mutex_op(&mut self, call: &'static str, op: Op, m: i64) -> GaResult<i64> {
        let (local, s) = self.mutex_home(call)?;
        let me = self.me as u32 + 1;
        if local {
            let ctl = self
                .ctl
                .as_ref()
                .ok_or_else(|| GaError::new(call, "no control segment"))?;
            let e = err(call);
            return match op {
                Op::MutexTry => {
                    let w = ptr::atomic_u32(ctl, CTL_MUTEX + 4 * m as usize).map_err(e)?;
                    Ok(
                        w.compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
                            .is_ok() as i64,
                    )
                }
                Op::MutexUnlock => {
                    let w = ptr::atomic_u32(ctl, CTL_MUTEX + 4 * m as usize).map_err(&e)?;
                    w.compare_exchange(me, 0, Ordering::Release, Ordering::Relaxed)
                        .map(|_| 0)
                        .map_err(|_| e(format!("mutex {m} is not locked by process {}", self.me)))
                }
                _ => {
                    for i in 0..MAX_MUTEXES {
                        ptr::atomic_u32(ctl, CTL_MUTEX + 4 * i)
                            .map_err(&e)?
                            .store(0, Ordering::Release);
                    }
                    Ok(0)
                }
            };
        }
        let mut req = Req::new(op);
        req.owner = self.me;
        req.aux = m;
        Ok(self.link.rpc(call, s, &req, &[])?.value)
    }
}

/// Whether this process is connected and has not left.
pub(crate) fn is_active() -> bool {
    let g = CLIENT.lock().unwrap_or_else(|e| e.into_inner());
    g.as_ref().is_some_and(|c| c.ga_active && !c.left)
}
