//! Collectives over a whole communicator ([`Group::of`], e.g. GA's
//! reductions over the compute ranks) or over a subset of one, for layers
//! whose operations name a list of processes (Express node lists): a
//! communicator made by the listed members only, an all-gather of
//! contributions of different lengths, a personalised all-to-all, and
//! element-wise reductions of the predefined numeric types (over raw bytes
//! with an [`Elem`], or over Rust numbers of an [`Element`] type; on a
//! communicator whose members all share a node these go through
//! `node_reductions` instead of `MPI_Allreduce`). A second
//! file of the MPI edge beside `mpi` (kept apart so the point-to-point
//! engine's file stays untouched): like `mpi`, every MPI call here checks
//! its return code and reports the call's name.

use crate::error::CoreError;
use crate::mpi::{self, check, Comm, Transfer};
use mpi_sys as sys;
use std::cell::{Cell, RefCell};
use std::os::raw::{c_int, c_void};

/// MPI tag `MPI_Comm_create_group` uses to keep group creations apart.
const CREATE_GROUP_TAG: c_int = 0x4558;

/// MPI tag of [`Group::bcast_sized`] messages.
const SIZED_BCAST_TAG: c_int = 0x4842;

/// Bytes of the length that leads each slot of [`Group::allgatherv`].
const LEN_HEADER: usize = 8;

/// Largest waste per member that a padded slot may cost before
/// [`Group::allgatherv`] goes back to exchanging lengths first.
const SLOT_SLACK: usize = 4096;

/// Largest gather scratch a group keeps for its next gather.
const SCRATCH_KEPT: usize = 1 << 20;

/// The slot size of the next gather after one of `lens` (adding up to
/// `total`): the longest contribution, unless padding every member to it
/// would waste more than [`SLOT_SLACK`] bytes each or overflow MPI's count.
fn next_slot(lens: &[usize], total: usize) -> usize {
    let longest = lens.iter().copied().max().unwrap_or(0);
    let padded = (LEN_HEADER + longest).saturating_mul(lens.len());
    let fits = padded <= c_int::MAX as usize;
    if fits && longest.saturating_mul(lens.len()) <= total + SLOT_SLACK * lens.len() {
        longest
    } else {
        0
    }
}

/// Completes every request of `reqs` (statuses ignored).
fn wait_all(reqs: &mut [sys::MPI_Request]) -> Result<(), CoreError> {
    // SAFETY: `reqs` holds valid (or null) requests, each started by this
    // process; statuses are not asked for.
    let rc = unsafe {
        sys::MPI_Waitall(
            reqs.len() as c_int,
            reqs.as_mut_ptr(),
            sys::RSMPI_STATUSES_IGNORE,
        )
    };
    check(rc, "MPI_Waitall")
}

fn count(n: usize, what: &str) -> Result<c_int, CoreError> {
    c_int::try_from(n).map_err(|_| CoreError::InvalidArgument(format!("{what} too long for MPI")))
}

/// Element type of a reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// 32-bit signed integer.
    I32,
    /// 64-bit signed integer.
    I64,
    /// 32-bit float.
    F32,
    /// 64-bit float.
    F64,
}

impl Elem {
    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            Elem::I32 | Elem::F32 => 4,
            Elem::I64 | Elem::F64 => 8,
        }
    }

    fn raw(self) -> sys::MPI_Datatype {
        // SAFETY: reading handle constants exported by mpi-sys's C shim.
        unsafe {
            match self {
                Elem::I32 => sys::RSMPI_INT32_T,
                Elem::I64 => sys::RSMPI_INT64_T,
                Elem::F32 => sys::RSMPI_FLOAT,
                Elem::F64 => sys::RSMPI_DOUBLE,
            }
        }
    }
}

mod sealed {
    /// Plain numbers: no padding, every byte initialised.
    pub trait Plain {}
    impl Plain for i32 {}
    impl Plain for i64 {}
    impl Plain for f32 {}
    impl Plain for f64 {}
}

/// Rust number types that reductions work on, each with its element type
/// (implemented for `i32`, `i64`, `f32` and `f64` only).
pub trait Element: Copy + sealed::Plain {
    /// The element type of `Self`.
    const ELEM: Elem;
}

impl Element for i32 {
    const ELEM: Elem = Elem::I32;
}
impl Element for i64 {
    const ELEM: Elem = Elem::I64;
}
impl Element for f32 {
    const ELEM: Elem = Elem::F32;
}
impl Element for f64 {
    const ELEM: Elem = Elem::F64;
}

/// Operation of a reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Prod,
    Max,
    Min,
    /// Logical and (non-zero is true; the result is 1 or 0).
    LAnd,
    /// Logical or (non-zero is true; the result is 1 or 0).
    LOr,
    /// Bitwise and (integers).
    BAnd,
    /// Bitwise or (integers).
    BOr,
}

impl ReduceOp {
    fn raw(self) -> sys::MPI_Op {
        // SAFETY: reading handle constants exported by mpi-sys's C shim.
        unsafe {
            match self {
                ReduceOp::Sum => sys::RSMPI_SUM,
                ReduceOp::Prod => sys::RSMPI_PROD,
                ReduceOp::Max => sys::RSMPI_MAX,
                ReduceOp::Min => sys::RSMPI_MIN,
                ReduceOp::LAnd => sys::RSMPI_LAND,
                ReduceOp::LOr => sys::RSMPI_LOR,
                ReduceOp::BAnd => sys::RSMPI_BAND,
                ReduceOp::BOr => sys::RSMPI_BOR,
            }
        }
    }
}

/// A communicator for collectives: either borrowed from a [`Comm`] or made
/// for a subset of one (then freed when dropped).
#[derive(Debug)]
pub struct Group {
    raw: sys::MPI_Comm,
    owned: bool,
    /// Bytes of each contribution that travel in the fixed slots of the
    /// next [`allgatherv`](Group::allgatherv); the same on every member.
    gather_slot: Cell<usize>,
    /// The gather's send block and slots, kept from one gather to the next
    /// (up to [`SCRATCH_KEPT`] bytes) so a repeated gather allocates nothing.
    gather_scratch: RefCell<Vec<u8>>,
}

// SAFETY: an MPI communicator handle is an opaque identifier that MPI
// (initialised with thread support) lets any thread use.
unsafe impl Send for Group {}

impl Group {
    /// Collectives over all of `comm` (which stays the caller's).
    pub fn of(comm: Comm) -> Group {
        Group {
            raw: comm.raw(),
            owned: false,
            gather_slot: Cell::new(0),
            gather_scratch: RefCell::new(Vec::new()),
        }
    }

    /// A communicator of the ranks `ranks` of `base`, in that order,
    /// made with `MPI_Comm_create_group`: only the listed processes take
    /// part, so a process outside the list never waits for it. The caller
    /// must be in the list.
    pub fn create(base: Comm, ranks: &[i32]) -> Result<Group, CoreError> {
        let n = count(ranks.len(), "rank list")?;
        // SAFETY: reading handle constants exported by mpi-sys's C shim.
        let mut whole = unsafe { sys::RSMPI_GROUP_NULL };
        let mut part = whole;
        // SAFETY: valid communicator and out-pointer.
        check(
            unsafe { sys::MPI_Comm_group(base.raw(), &mut whole) },
            "MPI_Comm_group",
        )?;
        // SAFETY: `ranks` holds n ints; `whole` is a valid group.
        let rc = unsafe { sys::MPI_Group_incl(whole, n, ranks.as_ptr(), &mut part) };
        // SAFETY: `whole` was created above and is freed once.
        unsafe { sys::MPI_Group_free(&mut whole) };
        check(rc, "MPI_Group_incl")?;
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut out = unsafe { sys::RSMPI_COMM_NULL };
        // SAFETY: valid communicator, group and out-pointer.
        let rc =
            unsafe { sys::MPI_Comm_create_group(base.raw(), part, CREATE_GROUP_TAG, &mut out) };
        // SAFETY: `part` was created above and is freed once.
        unsafe { sys::MPI_Group_free(&mut part) };
        check(rc, "MPI_Comm_create_group")?;
        // SAFETY: valid communicator; the errhandler constant comes from mpi-sys.
        check(
            unsafe { sys::MPI_Comm_set_errhandler(out, sys::RSMPI_ERRORS_RETURN) },
            "MPI_Comm_set_errhandler",
        )?;
        Ok(Group {
            raw: out,
            owned: true,
            gather_slot: Cell::new(0),
            gather_scratch: RefCell::new(Vec::new()),
        })
    }

    /// The group's communicator, for callers who hand it to users calling
    /// MPI themselves; it stays the group's (freed when the group is dropped).
    pub fn comm(&self) -> Comm {
        Comm::from_group(self.raw)
    }

    /// This process's rank in the group.
    pub fn rank(&self) -> Result<i32, CoreError> {
        self.comm().rank()
    }

    /// Number of processes in the group.
    pub fn size(&self) -> Result<i32, CoreError> {
        self.comm().size()
    }

    /// Barrier over the group.
    pub fn barrier(&self) -> Result<(), CoreError> {
        // SAFETY: valid communicator.
        check(unsafe { sys::MPI_Barrier(self.raw) }, "MPI_Barrier")
    }

    /// Broadcasts `buf` from group rank `root` (every member passes a
    /// buffer of the same length).
    pub fn bcast(&self, buf: &mut [u8], root: i32) -> Result<(), CoreError> {
        let n = count(buf.len(), "broadcast")?;
        // SAFETY: buf is valid for n bytes for the whole blocking call.
        check(
            unsafe {
                sys::MPI_Bcast(
                    buf.as_mut_ptr() as *mut c_void,
                    n,
                    sys::RSMPI_UINT8_T,
                    root,
                    self.raw,
                )
            },
            "MPI_Bcast",
        )
    }

    /// Broadcasts from group rank `root` bytes whose length only the root
    /// knows: `buf` holds them on the root; on every other member they land
    /// in `buf` when they fit, else its first `buf.len()` bytes are kept.
    /// Returns the broadcast's length on every member.
    ///
    /// The bytes travel down a binomial tree of point-to-point messages on
    /// the group's communicator (tag [`SIZED_BCAST_TAG`], used by nothing
    /// else), each matched by `MPI_Mprobe` before it is received: a message
    /// carries its own length, so no step announces it first. A member
    /// forwards the whole broadcast, also when its own buffer was short.
    pub fn bcast_sized(&self, buf: &mut [u8], root: i32) -> Result<usize, CoreError> {
        let size = self.size()?;
        let me = self.rank()?;
        if root < 0 || root >= size {
            return Err(CoreError::InvalidArgument(format!(
                "broadcast root {root} is not a rank of a group of {size}"
            )));
        }
        // Ranks relative to the root; the parent of relative rank v is v
        // less its lowest set bit, its children are v plus each smaller
        // power of two (while inside the group).
        let rel = (me - root + size) % size;
        let mut mask: c_int = 1;
        let mut spill = Vec::new();
        let mut len = buf.len();
        while mask < size {
            if rel & mask != 0 {
                let parent = (rel - mask + root) % size;
                len = self.recv_sized(parent, buf, &mut spill)?;
                break;
            }
            mask <<= 1;
        }
        let data: &[u8] = if len <= buf.len() {
            &buf[..len]
        } else {
            &spill
        };
        let n = count(data.len(), "broadcast")?;
        let mut reqs: Vec<sys::MPI_Request> = Vec::new();
        let mut first_error: Result<(), CoreError> = Ok(());
        mask >>= 1;
        while mask > 0 && first_error.is_ok() {
            if rel + mask < size {
                let child = (rel + mask + root) % size;
                // `data` is borrowed until the wait below completes every
                // posted request.
                first_error = self.post_send(data, n, child, SIZED_BCAST_TAG, &mut reqs);
            }
            mask >>= 1;
        }
        let waited = wait_all(&mut reqs);
        first_error?;
        waited?;
        Ok(len)
    }

    /// The group's size, once both count lists have one entry per member.
    fn counts_per_member(
        &self,
        what: &str,
        send_counts: &[usize],
        recv_counts: &[usize],
    ) -> Result<usize, CoreError> {
        let size = self.size()? as usize;
        if send_counts.len() != size || recv_counts.len() != size {
            return Err(CoreError::InvalidArgument(format!(
                "{what} needs {size} send and receive counts, got {} and {}",
                send_counts.len(),
                recv_counts.len()
            )));
        }
        Ok(size)
    }

    /// Starts sending the first `n` bytes of `data` to group rank `to` and
    /// adds the request to `reqs`; the caller keeps `data` untouched until
    /// it has waited for every request of `reqs`.
    fn post_send(
        &self,
        data: &[u8],
        n: c_int,
        to: c_int,
        tag: c_int,
        reqs: &mut Vec<sys::MPI_Request>,
    ) -> Result<(), CoreError> {
        debug_assert!(n as usize <= data.len());
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut req = unsafe { sys::RSMPI_REQUEST_NULL };
        // SAFETY: `data` holds `n` bytes and, by the caller's promise, stays
        // unchanged until the request completes.
        let started = unsafe {
            Transfer::Send(mpi::send_addr(data)).start(n, to, tag, self.comm(), &mut req)
        };
        reqs.push(req);
        started
    }

    /// Receives one [`bcast_sized`](Self::bcast_sized) message from group
    /// rank `from`: into `buf` when it fits, else whole into `spill` with
    /// its first `buf.len()` bytes copied to `buf`. Returns its length.
    fn recv_sized(
        &self,
        from: c_int,
        buf: &mut [u8],
        spill: &mut Vec<u8>,
    ) -> Result<usize, CoreError> {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut msg = unsafe { sys::RSMPI_MESSAGE_NULL };
        // SAFETY: an all-zero status is a plain value MPI overwrites.
        let mut st: sys::MPI_Status = unsafe { std::mem::zeroed() };
        // SAFETY: valid communicator and out-pointers.
        check(
            unsafe { sys::MPI_Mprobe(from, SIZED_BCAST_TAG, self.raw, &mut msg, &mut st) },
            "MPI_Mprobe",
        )?;
        let mut n: c_int = 0;
        // SAFETY: `st` was filled by MPI_Mprobe; valid out-pointer.
        check(
            unsafe { sys::MPI_Get_count(&st, sys::RSMPI_UINT8_T, &mut n) },
            "MPI_Get_count",
        )?;
        let len = usize::try_from(n)
            .map_err(|_| CoreError::InvalidArgument("a broadcast has no byte count".into()))?;
        let into: &mut [u8] = if len <= buf.len() {
            &mut buf[..len]
        } else {
            spill.resize(len, 0);
            &mut spill[..]
        };
        // SAFETY: `into` holds `len` bytes for the whole blocking call;
        // MPI_Mrecv consumes the matched message.
        check(
            unsafe {
                sys::MPI_Mrecv(
                    into.as_mut_ptr() as *mut c_void,
                    n,
                    sys::RSMPI_UINT8_T,
                    &mut msg,
                    sys::RSMPI_STATUS_IGNORE,
                )
            },
            "MPI_Mrecv",
        )?;
        if len > buf.len() {
            let k = buf.len();
            buf.copy_from_slice(&spill[..k]);
        }
        Ok(len)
    }

    /// Gathers every member's `mine` (any length) onto every member, in
    /// group rank order: the concatenation and each member's length.
    ///
    /// Each member's contribution travels with its length in one
    /// `MPI_Allgather` of fixed slots, as long as it fits the slot size the
    /// group remembers from its previous gather; only the part of a longer
    /// contribution past the slot follows in an `MPI_Allgatherv`. So a
    /// repeated gather of similar sizes costs one collective, not a length
    /// exchange plus the data. Every member computes the same next slot
    /// size from the same lengths, so the slots agree without a message.
    pub fn allgatherv(&self, mine: &[u8]) -> Result<(Vec<u8>, Vec<usize>), CoreError> {
        let g = self.gather(mine)?;
        let mut all = Vec::with_capacity(g.total);
        g.pieces(|p| {
            all.extend_from_slice(p);
            true
        });
        Ok((all, self.gathered(g)))
    }

    /// [`allgatherv`](Self::allgatherv) into `out`: the first `out.len()`
    /// bytes of the concatenation land there (the rest is dropped). Returns
    /// the concatenation's whole length and each member's length. Nothing
    /// is allocated for the result, and a repeated gather of similar sizes
    /// allocates nothing at all beyond the lengths.
    pub fn allgatherv_into(
        &self,
        mine: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, Vec<usize>), CoreError> {
        let g = self.gather(mine)?;
        let mut at = 0;
        g.pieces(|p| {
            let k = p.len().min(out.len() - at);
            out[at..at + k].copy_from_slice(&p[..k]);
            at += k;
            at < out.len()
        });
        let total = g.total;
        Ok((total, self.gathered(g)))
    }

    /// The collective part of [`allgatherv`](Self::allgatherv): the slots
    /// (in the group's scratch) and the tails past them.
    fn gather(&self, mine: &[u8]) -> Result<Gathered, CoreError> {
        let size = self.size()? as usize;
        let slot = self.gather_slot.get();
        let width = LEN_HEADER + slot;
        let n = count(width, "gather slot")?;
        count(width * (size + 1), "gathered slots")?;
        let mut scratch = self.gather_scratch.take();
        // Bytes past a short contribution's end are whatever the scratch
        // held before: they travel but are never read.
        scratch.resize(width * (size + 1), 0);
        let (block, slots) = scratch.split_at_mut(width);
        block[..LEN_HEADER].copy_from_slice(&(mine.len() as u64).to_le_bytes());
        let head = mine.len().min(slot);
        block[LEN_HEADER..LEN_HEADER + head].copy_from_slice(&mine[..head]);
        // SAFETY: `block` holds n bytes and `slots` n bytes per member,
        // distinct and both valid for the blocking call.
        let rc = unsafe {
            sys::MPI_Allgather(
                block.as_ptr() as *const c_void,
                n,
                sys::RSMPI_UINT8_T,
                slots.as_mut_ptr() as *mut c_void,
                n,
                sys::RSMPI_UINT8_T,
                self.raw,
            )
        };
        check(rc, "MPI_Allgather")?;
        let mut lens = Vec::with_capacity(size);
        for s in slots.chunks(width) {
            let mut len = [0u8; LEN_HEADER];
            len.copy_from_slice(&s[..LEN_HEADER]);
            lens.push(usize::try_from(u64::from_le_bytes(len)).map_err(|_| {
                CoreError::InvalidArgument("a gathered length does not fit memory".into())
            })?);
        }
        let total = lens
            .iter()
            .try_fold(0usize, |a, &l| a.checked_add(l))
            .ok_or_else(|| CoreError::InvalidArgument("gathered lengths overflow".into()))?;
        let mut g = Gathered {
            scratch,
            slot,
            lens,
            total,
            tails: None,
        };
        if g.lens.iter().any(|&l| l > slot) {
            let tails: Vec<usize> = g.lens.iter().map(|&l| l.saturating_sub(slot)).collect();
            g.tails = Some(self.allgatherv_known(&mine[head..], &tails)?);
        }
        Ok(g)
    }

    /// Ends a gather: remembers the next slot size, keeps the scratch and
    /// returns the lengths.
    fn gathered(&self, g: Gathered) -> Vec<usize> {
        self.gather_slot.set(next_slot(&g.lens, g.total));
        if g.scratch.capacity() <= SCRATCH_KEPT {
            self.gather_scratch.replace(g.scratch);
        }
        g.lens
    }

    /// `MPI_Allgatherv` of contributions whose lengths every member knows
    /// (`lens`, in group rank order; `mine` must be this member's).
    fn allgatherv_known(&self, mine: &[u8], lens: &[usize]) -> Result<Vec<u8>, CoreError> {
        let my_len = count(mine.len(), "contribution")?;
        let mut counts: Vec<c_int> = Vec::with_capacity(lens.len());
        let mut displs: Vec<c_int> = Vec::with_capacity(lens.len());
        let mut total: usize = 0;
        for &l in lens {
            displs.push(count(total, "concatenation")?);
            counts.push(count(l, "contribution")?);
            total += l;
        }
        count(total, "concatenation")?;
        // At least one byte, so an empty result never shares its dangling
        // address with an empty contribution (MPI refuses aliased buffers).
        let mut all = vec![0u8; total.max(1)];
        // SAFETY: `mine` holds my_len bytes; `all` holds the sum of `counts`
        // bytes at the offsets `displs`; all valid for the blocking call.
        check(
            unsafe {
                sys::MPI_Allgatherv(
                    crate::mpi::send_addr(mine),
                    my_len,
                    sys::RSMPI_UINT8_T,
                    all.as_mut_ptr() as *mut c_void,
                    counts.as_ptr(),
                    displs.as_ptr(),
                    sys::RSMPI_UINT8_T,
                    self.raw,
                )
            },
            "MPI_Allgatherv",
        )?;
        all.truncate(total);
        Ok(all)
    }

    /// Reduces `buf` (elements of `elem`, native byte order) element-wise
    /// with `op` over the group; every member gets the result in `buf`.
    pub fn allreduce(&self, buf: &mut [u8], elem: Elem, op: ReduceOp) -> Result<(), CoreError> {
        if !buf.len().is_multiple_of(elem.size()) {
            return Err(CoreError::InvalidArgument(format!(
                "{} bytes are not whole {elem:?} elements",
                buf.len()
            )));
        }
        if crate::node_reductions::allreduce(self, buf, elem, op)? {
            return Ok(());
        }
        // SAFETY: `buf` holds a whole number of `elem` elements (checked
        // above), valid for the blocking call.
        unsafe {
            self.reduce_in_place(
                buf.as_mut_ptr() as *mut c_void,
                buf.len() / elem.size(),
                elem,
                op,
            )
        }
    }
}

impl Group {
    /// Personalised all-to-all exchange of bytes (`MPI_Alltoallv`): member
    /// `i` gets the `send_counts[i]` bytes that follow those of the members
    /// before it in `send`; the result holds `recv_counts[j]` bytes from
    /// each member `j`, in group rank order. Both count lists have one
    /// entry per member and must agree pairwise with the senders' lists
    /// (the caller plans them, so no counts travel).
    pub fn alltoallv(
        &self,
        send: &[u8],
        send_counts: &[usize],
        recv_counts: &[usize],
    ) -> Result<Vec<u8>, CoreError> {
        let size = self.counts_per_member("alltoallv", send_counts, recv_counts)?;
        let layout =
            |counts: &[usize], what: &str| -> Result<(Vec<c_int>, Vec<c_int>, usize), CoreError> {
                let mut c = Vec::with_capacity(size);
                let mut d = Vec::with_capacity(size);
                let mut total = 0usize;
                for &n in counts {
                    d.push(count(total, what)?);
                    c.push(count(n, what)?);
                    total += n;
                }
                count(total, what)?;
                Ok((c, d, total))
            };
        let (sc, sd, stotal) = layout(send_counts, "all-to-all send")?;
        let (rc, rd, rtotal) = layout(recv_counts, "all-to-all receive")?;
        if stotal != send.len() {
            return Err(CoreError::InvalidArgument(format!(
                "alltoallv send counts add up to {stotal} bytes, the buffer has {}",
                send.len()
            )));
        }
        // At least one byte, as in `allgatherv`.
        let mut recv = vec![0u8; rtotal.max(1)];
        // SAFETY: `send` holds the sum of `sc` bytes at offsets `sd`, and
        // `recv` the sum of `rc` bytes at offsets `rd` (both checked or
        // sized above); all stay valid for the blocking call.
        check(
            unsafe {
                sys::MPI_Alltoallv(
                    crate::mpi::send_addr(send),
                    sc.as_ptr(),
                    sd.as_ptr(),
                    sys::RSMPI_UINT8_T,
                    recv.as_mut_ptr() as *mut c_void,
                    rc.as_ptr(),
                    rd.as_ptr(),
                    sys::RSMPI_UINT8_T,
                    self.raw,
                )
            },
            "MPI_Alltoallv",
        )?;
        recv.truncate(rtotal);
        Ok(recv)
    }
}

impl Group {
    /// Reduces doubles element-wise over the group (see
    /// [`allreduce_elems`](Self::allreduce_elems)).
    pub fn allreduce_f64(&self, x: &mut [f64], op: ReduceOp) -> Result<(), CoreError> {
        self.allreduce_elems(x, op)
    }

    /// Reduces 64-bit integers element-wise over the group (see
    /// [`allreduce_elems`](Self::allreduce_elems)).
    pub fn allreduce_i64(&self, x: &mut [i64], op: ReduceOp) -> Result<(), CoreError> {
        self.allreduce_elems(x, op)
    }

    /// Reduces numbers element-wise with `op` over the group, in chunks so
    /// that any length fits MPI's count; every member gets the result in `x`.
    pub fn allreduce_elems<T: Element>(&self, x: &mut [T], op: ReduceOp) -> Result<(), CoreError> {
        debug_assert_eq!(std::mem::size_of::<T>(), T::ELEM.size());
        if crate::node_reductions::allreduce(self, crate::ptr::elems_as_bytes_mut(x), T::ELEM, op)?
        {
            return Ok(());
        }
        for chunk in x.chunks_mut(1 << 24) {
            // SAFETY: `chunk` holds `chunk.len()` elements of `T::ELEM`,
            // the element type of `T` (the trait pairs them), valid for the
            // whole blocking call.
            unsafe {
                self.reduce_in_place(chunk.as_mut_ptr() as *mut c_void, chunk.len(), T::ELEM, op)
            }?;
        }
        Ok(())
    }

    /// Whether `ok` holds on every member (every member gets the answer).
    pub(crate) fn all_agree(&self, ok: bool) -> Result<bool, CoreError> {
        let mut flag = [ok as i32];
        // SAFETY: `flag` holds one i32, valid for the blocking call.
        unsafe {
            self.reduce_in_place(
                flag.as_mut_ptr() as *mut c_void,
                1,
                Elem::I32,
                ReduceOp::Min,
            )
        }?;
        Ok(flag[0] != 0)
    }

    /// `MPI_Allreduce` of the `n` elements of `elem` at `buf`, in place
    /// (no copy of the contribution on this side: MPI reads it from `buf`
    /// and writes the result over it).
    ///
    /// # Safety
    /// `buf` must hold `n` elements of `elem`, valid for the call.
    unsafe fn reduce_in_place(
        &self,
        buf: *mut c_void,
        n: usize,
        elem: Elem,
        op: ReduceOp,
    ) -> Result<(), CoreError> {
        let n = count(n, "reduction")?;
        // An empty buffer may sit at address 1, Open MPI's MPI_IN_PLACE,
        // which MPI refuses as a receive buffer: it gets the address of a
        // real (unused) word instead (`send_addr`'s).
        let buf = if n == 0 {
            mpi::send_addr::<u8>(&[]).cast_mut()
        } else {
            buf
        };
        // SAFETY: the caller's promise on `buf`; a valid communicator.
        check(
            unsafe { sys::MPI_Allreduce(mpi::in_place(), buf, n, elem.raw(), op.raw(), self.raw) },
            "MPI_Allreduce",
        )
    }
}

/// One gather's result: the slots, each member's length and the parts of
/// the contributions past the slot.
struct Gathered {
    /// The send block (first slot width bytes), then one slot per member.
    scratch: Vec<u8>,
    slot: usize,
    lens: Vec<usize>,
    total: usize,
    /// The parts past the slot, concatenated in member order, when any.
    tails: Option<Vec<u8>>,
}

impl Gathered {
    fn slots(&self) -> &[u8] {
        &self.scratch[LEN_HEADER + self.slot..]
    }

    /// Hands `f` the concatenation piece by piece, in member order, while
    /// it returns true.
    fn pieces(&self, mut f: impl FnMut(&[u8]) -> bool) {
        let width = LEN_HEADER + self.slot;
        let mut at = 0;
        for (s, &len) in self.slots().chunks(width).zip(&self.lens) {
            let head = len.min(self.slot);
            if head > 0 && !f(&s[LEN_HEADER..LEN_HEADER + head]) {
                return;
            }
            if let Some(t) = &self.tails {
                let tail = len - head;
                if tail > 0 && !f(&t[at..at + tail]) {
                    return;
                }
                at += tail;
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if self.owned && !mpi::is_finalized() {
            // SAFETY: the communicator was made by `create` and is freed once.
            unsafe { sys::MPI_Comm_free(&mut self.raw) };
        }
    }
}

/// MPI tag of [`Group::exchange_sparse`] messages.
const SPARSE_EXCHANGE_TAG: c_int = 0x4859;

impl Group {
    /// The personalised exchange of [`alltoallv`](Self::alltoallv) with
    /// point-to-point messages between the pairs that exchange something
    /// only (nonblocking receives and sends, then one wait for all): for
    /// neighbour patterns such as halo updates, where most pairs exchange
    /// nothing. Both count lists have one entry per member and must agree
    /// pairwise with the peers' lists; successive calls on one group
    /// match in order.
    pub fn exchange_sparse(
        &self,
        send: &[u8],
        send_counts: &[usize],
        recv_counts: &[usize],
    ) -> Result<Vec<u8>, CoreError> {
        let size = self.counts_per_member("exchange_sparse", send_counts, recv_counts)?;
        let stotal: usize = send_counts.iter().sum();
        if stotal != send.len() {
            return Err(CoreError::InvalidArgument(format!(
                "exchange_sparse send counts add up to {stotal} bytes, the buffer has {}",
                send.len()
            )));
        }
        for &c in send_counts.iter().chain(recv_counts) {
            count(c, "exchange_sparse message")?;
        }
        let rtotal: usize = recv_counts.iter().sum();
        let mut recv = vec![0u8; rtotal];
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let null = unsafe { sys::RSMPI_REQUEST_NULL };
        let mut reqs: Vec<sys::MPI_Request> = Vec::with_capacity(2 * size);
        let mut first_error: Result<(), CoreError> = Ok(());
        let mut at = 0;
        for (peer, &n) in recv_counts.iter().enumerate() {
            if n > 0 && first_error.is_ok() {
                let mut req = null;
                let (to, count) = (recv[at..].as_mut_ptr().cast(), n as c_int);
                // SAFETY: `recv[at..at + n]` stays allocated and untouched
                // until the wait below completes every posted request.
                first_error = unsafe {
                    Transfer::Recv(to).start(
                        count,
                        peer as c_int,
                        SPARSE_EXCHANGE_TAG,
                        self.comm(),
                        &mut req,
                    )
                };
                reqs.push(req);
            }
            at += n;
        }
        let mut at = 0;
        for (peer, &n) in send_counts.iter().enumerate() {
            if n > 0 && first_error.is_ok() {
                // `send` is borrowed for the whole call and the wait below
                // completes every posted request.
                first_error = self.post_send(
                    &send[at..at + n],
                    n as c_int,
                    peer as c_int,
                    SPARSE_EXCHANGE_TAG,
                    &mut reqs,
                );
            }
            at += n;
        }
        let waited = wait_all(&mut reqs);
        first_error?;
        waited?;
        Ok(recv)
    }
}
