//! The layer's edge to MPI: the point-to-point and reduction calls TCGMSG
//! makes on its own communicator. With `ptr`, the only module of the crate
//! that uses `unsafe`.
//!
//! Buffers given to non-blocking operations are either owned by the
//! request object ([`Standing`]), borrowed for a call that does not return
//! before MPI is done with them ([`send_waiting`], [`recv_waiting`]), or a
//! [`UserBuf`] whose creator promised, under TCGMSG's rules for
//! asynchronous calls, that it stays valid until `WAITCOM`.

use crate::ptr::UserBuf;
use mpi_sys as sys;
use shim_core::mpi::{error_string, Comm};
use std::os::raw::{c_int, c_void};

/// An MPI failure, with the call's name and MPI's text.
#[derive(Debug, Clone)]
pub struct MpiError(pub String);

fn check(rc: c_int, call: &str) -> Result<(), MpiError> {
    // MPI_SUCCESS is 0 in every MPI (the standard fixes it).
    if rc == 0 {
        Ok(())
    } else {
        Err(MpiError(format!("{call} failed: {}", error_string(rc))))
    }
}

fn count(len: usize) -> Result<c_int, MpiError> {
    c_int::try_from(len).map_err(|_| MpiError(format!("{len} elements exceed one MPI call")))
}

fn byte() -> sys::MPI_Datatype {
    // SAFETY: reading a handle constant exported by mpi-sys's C shim.
    unsafe { sys::RSMPI_UINT8_T }
}

fn empty_status() -> sys::MPI_Status {
    sys::MPI_Status {
        MPI_SOURCE: 0,
        MPI_TAG: 0,
        MPI_ERROR: 0,
        _cancelled: 0,
        _ucount: 0,
    }
}

/// Source rank and byte count of a completed receive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub source: i32,
    pub bytes: usize,
}

fn arrival(st: &sys::MPI_Status) -> Result<Arrival, MpiError> {
    let mut n: c_int = 0;
    // SAFETY: `st` was filled by MPI for a completed byte receive.
    check(
        unsafe { sys::MPI_Get_count(st, byte(), &mut n) },
        "MPI_Get_count",
    )?;
    Ok(Arrival {
        source: st.MPI_SOURCE,
        bytes: n.max(0) as usize,
    })
}

/// `MPI_ANY_SOURCE`.
pub fn any_source() -> i32 {
    // SAFETY: reading a constant exported by mpi-sys's C shim.
    unsafe { sys::RSMPI_ANY_SOURCE }
}

/// An MPI request handle.
pub struct Req(sys::MPI_Request);

// SAFETY: a request handle is an opaque identifier; the layer serialises
// its MPI calls behind its state lock.
unsafe impl Send for Req {}

impl Req {
    fn null() -> Req {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        Req(unsafe { sys::RSMPI_REQUEST_NULL })
    }

    fn is_null(&self) -> bool {
        // SAFETY: as above.
        self.0 == unsafe { sys::RSMPI_REQUEST_NULL }
    }

    /// Tests for completion (a completed or null request counts as done).
    pub fn test(&mut self) -> Result<Option<Arrival>, MpiError> {
        if self.is_null() {
            return Ok(Some(Arrival {
                source: -1,
                bytes: 0,
            }));
        }
        let mut flag: c_int = 0;
        let mut st = empty_status();
        // SAFETY: the request is active; flag and status are valid out-pointers.
        check(
            unsafe { sys::MPI_Test(&mut self.0, &mut flag, &mut st) },
            "MPI_Test",
        )?;
        if flag == 0 {
            return Ok(None);
        }
        arrival(&st).map(Some)
    }

    /// Blocks until the request completes (used only when giving up).
    fn wait(&mut self) {
        if self.is_null() || shim_core::mpi::is_finalized() {
            return;
        }
        // SAFETY: the request is active; MPI_Wait completes it.
        unsafe { sys::MPI_Wait(&mut self.0, sys::RSMPI_STATUS_IGNORE) };
    }
}

impl Drop for Req {
    fn drop(&mut self) {
        // A request is never dropped active while its buffer may go away.
        self.wait();
    }
}

/// Starts sending the bytes of `buf` (user memory, valid until the request
/// completes by the caller's promise when `buf` was made).
pub fn isend_user(buf: UserBuf, dest: i32, tag: i32, comm: Comm) -> Result<Req, MpiError> {
    let n = count(buf.len())?;
    let mut req = Req::null();
    // SAFETY: `buf` is valid for `n` bytes until the request completes (the
    // promise made when the `UserBuf` was created); the request is completed
    // (WAITCOM, or Req's drop) before the layer forgets it.
    check(
        unsafe {
            sys::MPI_Isend(
                buf.addr() as *const c_void,
                n,
                byte(),
                dest,
                tag,
                comm.raw(),
                &mut req.0,
            )
        },
        "MPI_Isend",
    )?;
    Ok(req)
}

/// Blocking send of a small message (MPI completes it once buffered).
pub fn send_now(buf: &[u8], dest: i32, tag: i32, comm: Comm) -> Result<(), MpiError> {
    let n = count(buf.len())?;
    // SAFETY: `buf` is valid for `n` bytes for the whole blocking call.
    check(
        unsafe {
            sys::MPI_Send(
                buf.as_ptr() as *const c_void,
                n,
                byte(),
                dest,
                tag,
                comm.raw(),
            )
        },
        "MPI_Send",
    )
}

/// Sends `buf` without copying, calling `idle` between completion tests;
/// returns once `buf` may be reused.
pub fn send_waiting(
    buf: &[u8],
    dest: i32,
    tag: i32,
    comm: Comm,
    mut idle: impl FnMut() -> Result<(), String>,
) -> Result<(), String> {
    let n = count(buf.len()).map_err(|e| e.0)?;
    let mut req = Req::null();
    // SAFETY: `buf` stays borrowed until this function returns; the request
    // completes before that on every path (the loop, or Req's drop).
    check(
        unsafe {
            sys::MPI_Isend(
                buf.as_ptr() as *const c_void,
                n,
                byte(),
                dest,
                tag,
                comm.raw(),
                &mut req.0,
            )
        },
        "MPI_Isend",
    )
    .map_err(|e| e.0)?;
    loop {
        if req.test().map_err(|e| e.0)?.is_some() {
            return Ok(());
        }
        idle()?;
    }
}

/// Receives one message from `source` on `tag` straight into `buf`,
/// calling `idle` between completion tests; returns its byte count.
pub fn recv_waiting(
    buf: &mut [u8],
    source: i32,
    tag: i32,
    comm: Comm,
    mut idle: impl FnMut(),
) -> Result<usize, MpiError> {
    let n = count(buf.len())?;
    let mut req = Req::null();
    // SAFETY: `buf` stays borrowed until this function returns; the request
    // completes before that on every path (the loop, or Req's drop).
    check(
        unsafe {
            sys::MPI_Irecv(
                buf.as_mut_ptr() as *mut c_void,
                n,
                byte(),
                source,
                tag,
                comm.raw(),
                &mut req.0,
            )
        },
        "MPI_Irecv",
    )?;
    loop {
        if let Some(a) = req.test()? {
            return Ok(a.bytes);
        }
        idle();
    }
}

/// The layer's standing receive: a persistent receive from any source on
/// one tag into a buffer it owns, restarted after each arrival.
pub struct Standing {
    req: Req,
    buf: Box<[u8]>,
    active: bool,
}

impl Standing {
    /// Sets up (does not start) a receive of up to `cap` bytes on `tag`.
    pub fn new(cap: usize, tag: i32, comm: Comm) -> Result<Standing, MpiError> {
        let mut buf = vec![0u8; cap].into_boxed_slice();
        let n = count(cap)?;
        let mut req = Req::null();
        // SAFETY: the buffer is heap memory owned by the returned object,
        // which cancels and completes the request before freeing it (Drop).
        check(
            unsafe {
                sys::MPI_Recv_init(
                    buf.as_mut_ptr() as *mut c_void,
                    n,
                    byte(),
                    any_source(),
                    tag,
                    comm.raw(),
                    &mut req.0,
                )
            },
            "MPI_Recv_init",
        )?;
        Ok(Standing {
            req,
            buf,
            active: false,
        })
    }

    /// Tests for an arrival, starting the receive first if it is not running.
    /// On arrival the message is in [`bytes`](Self::bytes) until the next call.
    pub fn poll(&mut self) -> Result<Option<Arrival>, MpiError> {
        self.rearm()?;
        let mut flag: c_int = 0;
        let mut st = empty_status();
        // SAFETY: the persistent request is active; out-pointers are valid.
        check(
            unsafe { sys::MPI_Test(&mut self.req.0, &mut flag, &mut st) },
            "MPI_Test",
        )?;
        if flag == 0 {
            return Ok(None);
        }
        self.active = false;
        arrival(&st).map(Some)
    }

    /// Starts the receive again if it is not running (once the last
    /// arrival's bytes are no longer needed).
    pub fn rearm(&mut self) -> Result<(), MpiError> {
        if !self.active {
            // SAFETY: an inactive persistent request may be started; its
            // buffer is owned by `self`.
            check(unsafe { sys::MPI_Start(&mut self.req.0) }, "MPI_Start")?;
            self.active = true;
        }
        Ok(())
    }

    /// The buffer the last arrival was received into.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Cancels the receive (if running) and frees the request.
    pub fn close(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if self.req.is_null() || shim_core::mpi::is_finalized() {
            return;
        }
        if self.active {
            // SAFETY: cancelling an active request, then completing it, is
            // how MPI releases a receive that will not be matched.
            unsafe {
                sys::MPI_Cancel(&mut self.req.0);
                sys::MPI_Wait(&mut self.req.0, sys::RSMPI_STATUS_IGNORE);
            }
            self.active = false;
        }
        // SAFETY: the persistent request is inactive; freeing it is allowed.
        unsafe { sys::MPI_Request_free(&mut self.req.0) };
        self.req = Req::null();
    }
}

impl Drop for Standing {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Reduction operations of `DGOP`/`IGOP` that MPI performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Sum,
    Prod,
    Max,
    Min,
    Land,
    Lor,
    Band,
    Bor,
}

fn mpi_op(op: Op) -> sys::MPI_Op {
    // SAFETY: reading handle constants exported by mpi-sys's C shim.
    unsafe {
        match op {
            Op::Sum => sys::RSMPI_SUM,
            Op::Prod => sys::RSMPI_PROD,
            Op::Max => sys::RSMPI_MAX,
            Op::Min => sys::RSMPI_MIN,
            Op::Land => sys::RSMPI_LAND,
            Op::Lor => sys::RSMPI_LOR,
            Op::Band => sys::RSMPI_BAND,
            Op::Bor => sys::RSMPI_BOR,
        }
    }
}

/// Element types the global operations reduce.
pub trait Reducible: Copy {
    /// The MPI datatype of one element.
    fn datatype() -> sys::MPI_Datatype;
}

impl Reducible for f64 {
    fn datatype() -> sys::MPI_Datatype {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        unsafe { sys::RSMPI_DOUBLE }
    }
}

impl Reducible for i64 {
    fn datatype() -> sys::MPI_Datatype {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        unsafe { sys::RSMPI_INT64_T }
    }
}

/// Element-wise reduction of `x` over `comm`, result in `x` on every rank
/// (in chunks of 2^24 elements, so any length fits MPI's int count).
pub fn allreduce<T: Reducible>(x: &mut [T], op: Op, comm: Comm) -> Result<(), MpiError> {
    let ty = T::datatype();
    for chunk in x.chunks_mut(1 << 24) {
        let send = chunk.to_vec();
        let n = count(chunk.len())?;
        // SAFETY: both buffers hold `n` elements of T's datatype for the
        // whole blocking call.
        check(
            unsafe {
                sys::MPI_Allreduce(
                    send.as_ptr() as *const c_void,
                    chunk.as_mut_ptr() as *mut c_void,
                    n,
                    ty,
                    mpi_op(op),
                    comm.raw(),
                )
            },
            "MPI_Allreduce",
        )?;
    }
    Ok(())
}

/// Flushes every C output stream (before the process ends abruptly).
pub fn flush_c_stdio() {
    // SAFETY: fflush(NULL) flushes every C output stream; no pointer is read.
    unsafe { libc::fflush(std::ptr::null_mut()) };
}

/// Changes the process's nice value by `inc`; returns the new value or -1.
pub fn nice(inc: i64) -> i64 {
    let inc = inc.clamp(-40, 40) as c_int;
    // SAFETY: nice() has no memory-safety preconditions.
    i64::from(unsafe { libc::nice(inc) })
}

/// Sends this process's standard output and error to `path` (appending),
/// so every later write by C, Fortran or Rust code lands there.
pub fn redirect_stdio(path: &str) -> Result<(), String> {
    use std::io::Write;
    flush_c_stdio();
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {path}: {e}"))?;
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    for target in [1, 2] {
        // SAFETY: `fd` is an open descriptor for the call; dup2 replaces
        // the standard descriptor atomically.
        if unsafe { libc::dup2(fd, target) } < 0 {
            return Err(format!(
                "cannot redirect descriptor {target} to {path}: {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}
