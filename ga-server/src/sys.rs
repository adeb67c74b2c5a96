//! The FFI edge of the crate: every call into MPI and into the C library
//! (shared memory, signals, file-system statistics) goes through here, so the
//! rest of the crate is safe code. Buffers handed to MPI are borrowed for the
//! whole call, and every call here is blocking or completes its request
//! before returning (except [`RecvSlot`], which owns its buffer).

use mpi_sys as mpi;
use std::ffi::{c_int, c_void, CString};

/// An MPI communicator handle (copied freely; the owner frees it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comm(pub mpi::MPI_Comm);

// SAFETY: an MPI communicator handle is an opaque identifier usable from any
// thread; the crate initialises MPI with MPI_THREAD_MULTIPLE or serialises.
unsafe impl Send for Comm {}
// SAFETY: as above; the handle is never dereferenced on the Rust side.
unsafe impl Sync for Comm {}

fn check(rc: c_int, call: &'static str) -> Result<(), String> {
    if rc == 0 {
        Ok(())
    } else {
        Err(format!(
            "{call} failed: {}",
            shim_core::mpi::error_string(rc)
        ))
    }
}

fn count(len: usize) -> Result<c_int, String> {
    c_int::try_from(len).map_err(|_| format!("transfer of {len} bytes exceeds 2 GiB"))
}

impl Comm {
    /// Rank in the communicator.
    pub fn rank(self) -> i32 {
        let mut r: c_int = -1;
        // SAFETY: valid communicator and out-pointer.
        unsafe { mpi::MPI_Comm_rank(self.0, &mut r) };
        r
    }

    /// Size of the communicator.
    pub fn size(self) -> i32 {
        let mut r: c_int = 0;
        // SAFETY: valid communicator and out-pointer.
        unsafe { mpi::MPI_Comm_size(self.0, &mut r) };
        r
    }

    /// Blocking send of bytes.
    pub fn send(self, buf: &[u8], dest: i32, tag: i32) -> Result<(), String> {
        let n = count(buf.len())?;
        // SAFETY: `buf` is valid for n bytes during the blocking call.
        check(
            unsafe {
                mpi::MPI_Send(
                    buf.as_ptr() as *const c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    dest,
                    tag,
                    self.0,
                )
            },
            "MPI_Send",
        )
    }

    /// Sends two buffers as two messages (header, then data) without copying.
    pub fn send2(
        self,
        a: &[u8],
        b: &[u8],
        dest: i32,
        tag_a: i32,
        tag_b: i32,
    ) -> Result<(), String> {
        self.send(a, dest, tag_a)?;
        self.send(b, dest, tag_b)
    }

    /// Blocking receive of at most `buf.len()` bytes; returns (source, bytes).
    pub fn recv(self, buf: &mut [u8], source: i32, tag: i32) -> Result<(i32, usize), String> {
        let n = count(buf.len())?;
        let mut st = empty_status();
        // SAFETY: `buf` is valid for n bytes during the blocking call.
        check(
            unsafe {
                mpi::MPI_Recv(
                    buf.as_mut_ptr() as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    source,
                    tag,
                    self.0,
                    &mut st,
                )
            },
            "MPI_Recv",
        )?;
        Ok((st.MPI_SOURCE, status_count(&st)))
    }

    /// Sends `buf` as consecutive messages of `chunk` bytes (the last one
    /// shorter) with `tag`, all started at once so the receiver finds the
    /// next one waiting; returns when every one completed.
    pub fn send_chunks(self, buf: &[u8], chunk: usize, dest: i32, tag: i32) -> Result<(), String> {
        if chunk == 0 {
            return Err("internal: chunks of 0 bytes".into());
        }
        // SAFETY: reading a handle constant.
        let null = unsafe { mpi::RSMPI_REQUEST_NULL };
        // Checked before any send starts (each chunk is at most this long).
        count(chunk)?;
        let mut reqs = vec![null; buf.len().div_ceil(chunk)];
        let nreqs = count(reqs.len())?;
        let mut err = Ok(());
        for (c, req) in buf.chunks(chunk).zip(reqs.iter_mut()) {
            let n = c.len() as c_int;
            // SAFETY: `buf` stays borrowed until every request completed
            // in the MPI_Waitall below, which runs on every path.
            err = check(
                unsafe {
                    mpi::MPI_Isend(
                        c.as_ptr() as *const c_void,
                        n,
                        mpi::RSMPI_UINT8_T,
                        dest,
                        tag,
                        self.0,
                        req,
                    )
                },
                "MPI_Isend",
            );
            if err.is_err() {
                break;
            }
        }
        // SAFETY: every entry is an active request or MPI_REQUEST_NULL.
        let rc = unsafe { mpi::MPI_Waitall(nreqs, reqs.as_mut_ptr(), mpi::RSMPI_STATUSES_IGNORE) };
        err?;
        check(rc, "MPI_Waitall")
    }

    /// Blocking receive of at most `len` bytes straight into the mapped
    /// segment `m` at byte `byte_off` (a put's destination); returns the
    /// bytes received. Errors if the range is not inside the mapping.
    pub fn recv_into(
        self,
        m: &Mapping,
        byte_off: usize,
        len: usize,
        source: i32,
        tag: i32,
    ) -> Result<usize, String> {
        if byte_off.checked_add(len).is_none_or(|e| e > m.len()) {
            return Err(format!(
                "internal: bytes {byte_off}+{len} beyond the segment"
            ));
        }
        let n = count(len)?;
        let mut st = empty_status();
        // SAFETY: the range lies inside the mapping (checked above), which
        // stays mapped while `m` is borrowed, for the whole blocking call.
        // Other writers of the same bytes at the same time are the user's
        // race, as GA leaves concurrent puts to one element undefined.
        check(
            unsafe {
                mpi::MPI_Recv(
                    m.ptr().add(byte_off) as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    source,
                    tag,
                    self.0,
                    &mut st,
                )
            },
            "MPI_Recv",
        )?;
        Ok(status_count(&st))
    }

    /// Waits for the next message from `source` with `tag` without receiving
    /// it; returns its size in bytes.
    pub fn probe(self, source: i32, tag: i32) -> Result<usize, String> {
        let mut st = empty_status();
        // SAFETY: valid communicator and out-pointer.
        check(
            unsafe { mpi::MPI_Probe(source, tag, self.0, &mut st) },
            "MPI_Probe",
        )?;
        Ok(status_count(&st))
    }

    /// Receives `total` bytes that `source` sends as consecutive messages of
    /// `chunk` bytes (the last one shorter) with `tag`, alternating between
    /// the two buffers of `bufs` (each at least `chunk` bytes): the receive
    /// of chunk k+1 is posted before `f(offset, bytes)` runs on chunk k.
    /// A chunk of another size than expected is an error (after every
    /// posted receive completed).
    pub fn recv_chunks(
        self,
        bufs: [&mut [u8]; 2],
        total: usize,
        chunk: usize,
        source: i32,
        tag: i32,
        mut f: impl FnMut(usize, &[u8]),
    ) -> Result<(), String> {
        if chunk == 0 || bufs.iter().any(|b| b.len() < chunk) {
            return Err("internal: receive buffers smaller than a chunk".into());
        }
        let nchunks = total.div_ceil(chunk);
        let ptrs = [bufs[0].as_mut_ptr(), bufs[1].as_mut_ptr()];
        let c = count(chunk)?;
        // SAFETY: reading a handle constant.
        let null = unsafe { mpi::RSMPI_REQUEST_NULL };
        let mut reqs = [null, null];
        let post = |k: usize, req: &mut mpi::MPI_Request| -> Result<(), String> {
            // SAFETY: buffer k % 2 holds `chunk` bytes and stays mutably
            // borrowed (through `bufs`) until this function returns; it is
            // not read before the request completed, and every request
            // completes before the function returns (see `finish`).
            check(
                unsafe {
                    mpi::MPI_Irecv(
                        ptrs[k % 2] as *mut c_void,
                        c,
                        mpi::RSMPI_UINT8_T,
                        source,
                        tag,
                        self.0,
                        req,
                    )
                },
                "MPI_Irecv",
            )
        };
        let finish = |reqs: &mut [mpi::MPI_Request; 2]| {
            for r in reqs.iter_mut() {
                if *r != null {
                    // SAFETY: completes an active request, ending MPI's use
                    // of its buffer.
                    unsafe { mpi::MPI_Wait(r, mpi::RSMPI_STATUS_IGNORE) };
                }
            }
        };
        for k in 0..nchunks.min(2) {
            if let Err(e) = post(k, &mut reqs[k]) {
                finish(&mut reqs);
                return Err(e);
            }
        }
        for k in 0..nchunks {
            let mut st = empty_status();
            // SAFETY: an active request and a valid status out-pointer.
            let rc = unsafe { mpi::MPI_Wait(&mut reqs[k % 2], &mut st) };
            if let Err(e) = check(rc, "MPI_Wait") {
                finish(&mut reqs);
                return Err(e);
            }
            let want = chunk.min(total - k * chunk);
            let got = status_count(&st);
            if got != want {
                finish(&mut reqs);
                return Err(format!(
                    "chunk {k} of a {total}-byte transfer holds {got} bytes, {want} expected"
                ));
            }
            // SAFETY: the request on this buffer completed above and no
            // other is posted on it until `f` returned.
            let data = unsafe { std::slice::from_raw_parts(ptrs[k % 2], got) };
            f(k * chunk, data);
            if k + 2 < nchunks {
                if let Err(e) = post(k + 2, &mut reqs[k % 2]) {
                    finish(&mut reqs);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Receives into `buf`, testing for completion and calling `idle`
    /// between tests (so the waiter can back off); returns the byte count.
    pub fn recv_polling(
        self,
        buf: &mut [u8],
        source: i32,
        tag: i32,
        mut idle: impl FnMut(),
    ) -> Result<usize, String> {
        let n = count(buf.len())?;
        // SAFETY: reading a constant exported by mpi-sys's C shim.
        let mut req = unsafe { mpi::RSMPI_REQUEST_NULL };
        // SAFETY: `buf` stays borrowed until the request completes below;
        // the loop does not exit before completion except on an MPI error,
        // after which the request is waited for.
        check(
            unsafe {
                mpi::MPI_Irecv(
                    buf.as_mut_ptr() as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    source,
                    tag,
                    self.0,
                    &mut req,
                )
            },
            "MPI_Irecv",
        )?;
        loop {
            let mut flag: c_int = 0;
            let mut st = empty_status();
            // SAFETY: active request, valid out-pointers.
            let rc = unsafe { mpi::MPI_Test(&mut req, &mut flag, &mut st) };
            if rc != 0 {
                // SAFETY: completes the request so `buf` is no longer used.
                unsafe { mpi::MPI_Wait(&mut req, mpi::RSMPI_STATUS_IGNORE) };
                return Err(format!(
                    "MPI_Test failed: {}",
                    shim_core::mpi::error_string(rc)
                ));
            }
            if flag != 0 {
                return Ok(status_count(&st));
            }
            idle();
        }
    }

    /// Barrier.
    pub fn barrier(self) -> Result<(), String> {
        // SAFETY: valid communicator.
        check(unsafe { mpi::MPI_Barrier(self.0) }, "MPI_Barrier")
    }

    /// Broadcast of bytes from `root`.
    pub fn bcast(self, buf: &mut [u8], root: i32) -> Result<(), String> {
        let n = count(buf.len())?;
        // SAFETY: `buf` is valid for n bytes during the blocking call.
        check(
            unsafe {
                mpi::MPI_Bcast(
                    buf.as_mut_ptr() as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    root,
                    self.0,
                )
            },
            "MPI_Bcast",
        )
    }

    /// All-gather of equal-sized byte records.
    pub fn allgather(self, mine: &[u8]) -> Result<Vec<u8>, String> {
        let n = count(mine.len())?;
        let mut all = vec![0u8; mine.len() * self.size().max(0) as usize];
        // SAFETY: buffers are valid for the sizes given during the blocking call.
        check(
            unsafe {
                mpi::MPI_Allgather(
                    mine.as_ptr() as *const c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    all.as_mut_ptr() as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    self.0,
                )
            },
            "MPI_Allgather",
        )?;
        Ok(all)
    }

    /// In-place all-reduce of `x` (element kind `kind`, operation `op`).
    pub fn allreduce<T: Reducible>(self, x: &mut [T], op: ReduceOp) -> Result<(), String> {
        let n = count(x.len())?;
        let mut out = x.to_vec();
        // SAFETY: both buffers hold n elements of the datatype T maps to, for
        // the whole blocking call.
        check(
            unsafe {
                mpi::MPI_Allreduce(
                    x.as_ptr() as *const c_void,
                    out.as_mut_ptr() as *mut c_void,
                    n,
                    T::datatype(),
                    op.raw(),
                    self.0,
                )
            },
            "MPI_Allreduce",
        )?;
        x.copy_from_slice(&out);
        Ok(())
    }

    /// Makes MPI errors on this communicator return codes.
    pub fn errors_return(self) {
        // SAFETY: valid communicator; constant handler.
        unsafe { mpi::MPI_Comm_set_errhandler(self.0, mpi::RSMPI_ERRORS_RETURN) };
    }
}

/// A 64-bit counter in an MPI window that one rank of a communicator
/// holds: TCGMSG's NXTVAL when no ga-server runs, as GA's own TCGMSG keeps
/// it with one-sided MPI. The window stays in a shared passive-target epoch
/// from creation on; it is never freed (freeing is collective, and ranks
/// leave at different times), MPI releases it at finalize.
pub struct CounterWin {
    win: mpi::MPI_Win,
    owner: i32,
}

// SAFETY: the window handle is an opaque identifier; every use goes through
// the client's mutex, and MPI runs with MPI_THREAD_MULTIPLE or serialised.
unsafe impl Send for CounterWin {}

impl CounterWin {
    /// Collective over `comm`: the counter lives on `owner` and starts at 0.
    pub fn create(comm: Comm, owner: i32) -> Result<CounterWin, String> {
        let mine = comm.rank() == owner;
        let mut base: *mut i64 = std::ptr::null_mut();
        // SAFETY: a null handle value is overwritten by the call.
        let mut win: mpi::MPI_Win = unsafe { std::mem::zeroed() };
        // SAFETY: valid communicator; base and win are out-pointers that
        // live through the call; the owner asks for one aligned i64.
        check(
            unsafe {
                mpi::MPI_Win_allocate(
                    if mine { 8 } else { 0 },
                    8,
                    mpi::RSMPI_INFO_NULL,
                    comm.0,
                    &mut base as *mut *mut i64 as *mut c_void,
                    &mut win,
                )
            },
            "MPI_Win_allocate",
        )?;
        // SAFETY: `win` was just created on this communicator.
        check(
            unsafe { mpi::MPI_Win_lock_all(mpi::MPI_MODE_NOCHECK as c_int, win) },
            "MPI_Win_lock_all",
        )?;
        if mine && !base.is_null() {
            // SAFETY: MPI gave the owner 8 bytes aligned for i64 at `base`;
            // nobody accesses the counter before the barrier below.
            unsafe { base.write(0) };
            // SAFETY: valid window inside its access epoch.
            check(unsafe { mpi::MPI_Win_sync(win) }, "MPI_Win_sync")?;
        }
        comm.barrier()?;
        Ok(CounterWin { win, owner })
    }

    /// Adds `inc` atomically and returns the value before the addition.
    pub fn fetch_add(&self, inc: i64) -> Result<i64, String> {
        let mut old: i64 = 0;
        // SAFETY: both buffers hold one i64 for the call; the window is in
        // its passive-target epoch; the flush completes the operation.
        check(
            unsafe {
                mpi::MPI_Fetch_and_op(
                    &inc as *const i64 as *const c_void,
                    &mut old as *mut i64 as *mut c_void,
                    mpi::RSMPI_INT64_T,
                    self.owner,
                    0,
                    mpi::RSMPI_SUM,
                    self.win,
                )
            },
            "MPI_Fetch_and_op",
        )?;
        // SAFETY: valid window and target rank.
        check(
            unsafe { mpi::MPI_Win_flush(self.owner, self.win) },
            "MPI_Win_flush",
        )?;
        Ok(old)
    }

    /// Ends this process's access epoch (it takes no further part).
    pub fn close(&mut self) {
        // SAFETY: valid window in the epoch opened at creation; errors are
        // of no use to a leaving process.
        unsafe { mpi::MPI_Win_unlock_all(self.win) };
    }
}

/// `MPI_COMM_WORLD`.
pub fn world() -> Comm {
    // SAFETY: reading a handle constant exported by mpi-sys's C shim.
    Comm(unsafe { mpi::RSMPI_COMM_WORLD })
}

fn empty_status() -> mpi::MPI_Status {
    mpi::MPI_Status {
        MPI_SOURCE: 0,
        MPI_TAG: 0,
        MPI_ERROR: 0,
        _cancelled: 0,
        _ucount: 0,
    }
}

fn status_count(st: &mpi::MPI_Status) -> usize {
    let mut c: c_int = 0;
    // SAFETY: a status filled by MPI and a valid out-pointer.
    unsafe { mpi::MPI_Get_count(st, mpi::RSMPI_UINT8_T, &mut c) };
    c.max(0) as usize
}

/// A standing receive the server polls: owns its buffer while active.
pub struct RecvSlot {
    req: mpi::MPI_Request,
    buf: Box<[u8]>,
    comm: Comm,
    tag: i32,
}

impl RecvSlot {
    /// Posts a receive from any source with `tag` into an owned buffer.
    pub fn new(comm: Comm, tag: i32, cap: usize) -> Result<RecvSlot, String> {
        let mut s = RecvSlot {
            // SAFETY: reading a handle constant.
            req: unsafe { mpi::RSMPI_REQUEST_NULL },
            buf: vec![0u8; cap].into_boxed_slice(),
            comm,
            tag,
        };
        s.post()?;
        Ok(s)
    }

    fn post(&mut self) -> Result<(), String> {
        let n = count(self.buf.len())?;
        // SAFETY: the buffer is owned by the slot and outlives the request
        // (Drop cancels and completes it before the buffer is freed).
        check(
            unsafe {
                mpi::MPI_Irecv(
                    self.buf.as_mut_ptr() as *mut c_void,
                    n,
                    mpi::RSMPI_UINT8_T,
                    mpi::RSMPI_ANY_SOURCE,
                    self.tag,
                    self.comm.0,
                    &mut self.req,
                )
            },
            "MPI_Irecv",
        )
    }

    /// If a message arrived: its source and bytes (valid until `repost`).
    pub fn test(&mut self) -> Result<Option<(i32, usize)>, String> {
        let mut flag: c_int = 0;
        let mut st = empty_status();
        // SAFETY: active request, valid out-pointers.
        check(
            unsafe { mpi::MPI_Test(&mut self.req, &mut flag, &mut st) },
            "MPI_Test",
        )?;
        if flag == 0 {
            return Ok(None);
        }
        Ok(Some((st.MPI_SOURCE, status_count(&st))))
    }

    /// The received bytes.
    pub fn data(&self, len: usize) -> &[u8] {
        &self.buf[..len.min(self.buf.len())]
    }

    /// Posts the receive again after the message was handled.
    pub fn repost(&mut self) -> Result<(), String> {
        self.post()
    }
}

impl Drop for RecvSlot {
    fn drop(&mut self) {
        // SAFETY: reading a handle constant.
        let null = unsafe { mpi::RSMPI_REQUEST_NULL };
        if self.req != null && !shim_core::mpi::is_finalized() {
            // SAFETY: cancelling and completing the active request ends MPI's
            // use of the buffer before it is freed.
            unsafe {
                mpi::MPI_Cancel(&mut self.req);
                mpi::MPI_Wait(&mut self.req, mpi::RSMPI_STATUS_IGNORE);
            }
        }
    }
}

/// Element types MPI reductions are done on.
pub trait Reducible: Copy {
    /// The MPI datatype.
    fn datatype() -> mpi::MPI_Datatype;
}

impl Reducible for f64 {
    fn datatype() -> mpi::MPI_Datatype {
        // SAFETY: reading a handle constant.
        unsafe { mpi::RSMPI_DOUBLE }
    }
}
impl Reducible for f32 {
    fn datatype() -> mpi::MPI_Datatype {
        // SAFETY: reading a handle constant.
        unsafe { mpi::RSMPI_FLOAT }
    }
}
impl Reducible for i32 {
    fn datatype() -> mpi::MPI_Datatype {
        // SAFETY: reading a handle constant.
        unsafe { mpi::RSMPI_INT32_T }
    }
}
impl Reducible for i64 {
    fn datatype() -> mpi::MPI_Datatype {
        // SAFETY: reading a handle constant.
        unsafe { mpi::RSMPI_INT64_T }
    }
}

/// MPI reduction operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Prod,
    Max,
    Min,
    Bor,
    Band,
    Lor,
    Land,
}

impl ReduceOp {
    fn raw(self) -> mpi::MPI_Op {
        // SAFETY: reading handle constants.
        unsafe {
            match self {
                ReduceOp::Sum => mpi::RSMPI_SUM,
                ReduceOp::Prod => mpi::RSMPI_PROD,
                ReduceOp::Max => mpi::RSMPI_MAX,
                ReduceOp::Min => mpi::RSMPI_MIN,
                ReduceOp::Bor => mpi::RSMPI_BOR,
                ReduceOp::Band => mpi::RSMPI_BAND,
                ReduceOp::Lor => mpi::RSMPI_LOR,
                ReduceOp::Land => mpi::RSMPI_LAND,
            }
        }
    }
}

/// Aborts the job through `MPI_COMM_WORLD`.
pub fn abort_world(code: i32) -> ! {
    shim_core::mpi::abort(shim_core::mpi::Comm::world(), code)
}

// ---------------------------------------------------------------- C library

fn errno_text() -> String {
    std::io::Error::last_os_error().to_string()
}

fn shm_cname(name: &str) -> Result<CString, String> {
    CString::new(name).map_err(|_| format!("bad shared-memory name {name:?}"))
}

/// A mapped shared-memory segment (unmapped on drop).
#[derive(Debug)]
pub struct Mapping {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the mapping is plain shared memory; concurrent access goes through
// atomics and locks living in it.
unsafe impl Send for Mapping {}
// SAFETY: as above.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Base address.
    pub fn ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mapping is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: the range was mapped by `mmap` here and is unmapped once.
            unsafe { libc::munmap(self.ptr as *mut c_void, self.len) };
        }
    }
}

/// Free bytes on the file system holding `path`.
pub fn free_bytes(path: &str) -> Result<u64, String> {
    let c = shm_cname(path)?;
    // SAFETY: statvfs is plain old data, zero is a valid initial value.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: valid C string and out-pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return Err(format!("statvfs({path}): {}", errno_text()));
    }
    Ok(st.f_bavail as u64 * st.f_frsize as u64)
}

/// Why [`shm_create`] failed.
#[derive(Debug, PartialEq, Eq)]
pub enum CreateError {
    /// The name exists already (someone else's segment, or a collision).
    Exists(String),
    /// The file system is full.
    NoSpace(String),
    /// Anything else; the text says what.
    Other(String),
}

/// Creates (exclusively, mode 0600) a segment of `len` bytes with every
/// page backed now, and maps it. An existing name is never opened.
pub fn shm_create(name: &str, len: usize) -> Result<Mapping, CreateError> {
    let c = shm_cname(name).map_err(CreateError::Other)?;
    let off_len = libc::off_t::try_from(len).map_err(|_| {
        CreateError::Other(format!("{len} bytes for {name} exceed the file size limit"))
    })?;
    // SAFETY: valid C string.
    let fd = unsafe {
        libc::shm_open(
            c.as_ptr(),
            libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
            0o600,
        )
    };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        let text = format!("shm_open({name}): {e}");
        return Err(if e.raw_os_error() == Some(libc::EEXIST) {
            CreateError::Exists(text)
        } else {
            CreateError::Other(text)
        });
    }
    let fail = |what: &str, e: i32| {
        // SAFETY: fd is open; the name was created above.
        unsafe {
            libc::close(fd);
            libc::shm_unlink(c.as_ptr());
        }
        let text = format!(
            "{what}({name}, {len} bytes): {}",
            std::io::Error::from_raw_os_error(e)
        );
        if e == libc::ENOSPC {
            CreateError::NoSpace(text)
        } else {
            CreateError::Other(text)
        }
    };
    // SAFETY: fd is an open shared-memory object.
    if unsafe { libc::ftruncate(fd, off_len) } != 0 {
        let e = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        return Err(fail("ftruncate", e));
    }
    // SAFETY: as above; reserves every block so later stores cannot SIGBUS.
    let rc = unsafe { libc::posix_fallocate(fd, 0, off_len) };
    if rc != 0 {
        return Err(fail("posix_fallocate", rc));
    }
    let m = map_fd(fd, len);
    // SAFETY: the mapping (if any) keeps the object alive; fd is closed once.
    unsafe { libc::close(fd) };
    match m {
        Ok(m) => Ok(m),
        Err(e) => {
            // SAFETY: valid C string.
            unsafe { libc::shm_unlink(c.as_ptr()) };
            Err(CreateError::Other(e))
        }
    }
}

fn map_fd(fd: c_int, len: usize) -> Result<Mapping, String> {
    // SAFETY: mapping `len` bytes of an open object of at least that size.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(format!("mmap of {len} bytes: {}", errno_text()));
    }
    Ok(Mapping {
        ptr: p as *mut u8,
        len,
    })
}

/// Opens and maps an existing segment of at least `len` bytes owned by
/// this user (`len` of them).
pub fn shm_open_map(name: &str, len: usize) -> Result<Mapping, String> {
    let c = shm_cname(name)?;
    // SAFETY: valid C string.
    let fd = unsafe { libc::shm_open(c.as_ptr(), libc::O_RDWR, 0) };
    if fd < 0 {
        return Err(format!("shm_open({name}): {}", errno_text()));
    }
    // SAFETY: stat is plain old data; fd is open.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fd is open, out-pointer valid.
    let ok = unsafe { libc::fstat(fd, &mut st) } == 0;
    if !ok || (st.st_size as usize) < len {
        // SAFETY: fd is open.
        unsafe { libc::close(fd) };
        return Err(format!(
            "shared-memory segment {name} is smaller than {len} bytes"
        ));
    }
    // The server runs as this user: a segment of anyone else is not ours.
    if st.st_uid != geteuid() {
        // SAFETY: fd is open.
        unsafe { libc::close(fd) };
        return Err(format!(
            "shared-memory segment {name} belongs to user {}, not to this job's user {}",
            st.st_uid,
            geteuid()
        ));
    }
    let m = map_fd(fd, len);
    // SAFETY: fd is closed once; the mapping keeps the object alive.
    unsafe { libc::close(fd) };
    m
}

/// Removes a segment's name (the memory lives on while mapped).
pub fn shm_unlink(name: &str) -> bool {
    match shm_cname(name) {
        // SAFETY: valid C string.
        Ok(c) => unsafe { libc::shm_unlink(c.as_ptr()) == 0 },
        Err(_) => false,
    }
}

/// This process's id.
pub fn getpid() -> i32 {
    std::process::id() as i32
}

/// The effective user id of this process.
pub fn geteuid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Runs `handler` on SIGTERM, SIGINT and SIGHUP, once: the disposition goes
/// back to the default as the handler starts, so [`reraise`] (or a second
/// signal) then ends the process as the signal would have.
pub fn on_fatal_signals(handler: extern "C" fn(c_int)) {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: sigaction is plain old data, zero is a valid initial value.
        let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
        sa.sa_sigaction = handler as usize;
        sa.sa_flags = libc::SA_RESETHAND;
        // SAFETY: sa is initialised; the handler only makes
        // async-signal-safe calls (see `cleanup`); no old action is wanted.
        unsafe {
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Removes the file at `path`, a NUL-terminated byte string; safe to call
/// from a signal handler (unlink is async-signal-safe). Does nothing if
/// `path` has no NUL.
pub fn unlink_in_handler(path: &[u8]) {
    if path.contains(&0) {
        // SAFETY: NUL-terminated bytes, checked above.
        unsafe { libc::unlink(path.as_ptr() as *const libc::c_char) };
    }
}

/// Raises `sig` again in this process (from a handler installed by
/// [`on_fatal_signals`], whose disposition is the default by now).
pub fn reraise(sig: c_int) {
    // SAFETY: raise is async-signal-safe.
    unsafe { libc::raise(sig) };
}
