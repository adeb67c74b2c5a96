//! The FFI edge to MPI: every point-to-point, lifecycle and topology call
//! into the MPI C library goes through this module (collectives are in
//! `collective`, the one-sided counter in `onesided`); with those two,
//! `ptr` and `shm::mem` (the operating system's edge) it is one of the
//! crate's modules with `unsafe`. Everything here returns `Result` with the
//! MPI call's name, so callers never see raw return codes. Layers reach MPI
//! only through this API (no other crate declares a request, communicator
//! wrapper or error check of its own).
//!
//! Buffers handed to non-blocking MPI operations are either owned by the
//! request object (`OwnedSend`, `ListenerSet`) or borrowed only for the
//! duration of a call that does not return before the operation completed
//! (`send_borrowed`, `recv_borrowed`, `send_chunked`, `recv_chunked`,
//! `Matched::recv`), so no safe caller can free a buffer that MPI still
//! uses.

use crate::error::CoreError;
use mpi_sys as sys;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

extern "C" {
    static mpbridge_mpi_root: c_int;
    static mpbridge_mpi_max_port_name: c_int;
    static mpbridge_mpi_max_error_string: c_int;
    static mpbridge_mpi_success: c_int;
    static mpbridge_mpi_appnum: c_int;
    static mpbridge_mpi_in_place: *const c_void;
}

/// The C type of an MPI communicator handle (`MPI_Comm`), for layers whose
/// C functions hand a communicator to their users (see [`Comm::raw`]).
pub type RawComm = sys::MPI_Comm;

/// An MPI communicator handle.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Comm(sys::MPI_Comm);

// SAFETY: an MPI communicator handle is an opaque identifier; MPI allows it to
// be used from any thread, and the crate serialises MPI calls with its lock.
unsafe impl Send for Comm {}
// SAFETY: as above; the handle is never dereferenced on the Rust side.
unsafe impl Sync for Comm {}

/// What one completed receive tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Rank of the sender in the communicator (remote group for intercommunicators).
    pub source: i32,
    /// MPI tag of the message.
    pub tag: i32,
    /// Number of bytes received.
    pub count: usize,
}

/// MPI thread support levels, in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ThreadLevel {
    Single,
    Funneled,
    Serialized,
    Multiple,
}

pub(crate) fn check(rc: c_int, call: &'static str) -> Result<(), CoreError> {
    // SAFETY: reading a constant defined in the C constants file.
    let success = unsafe { mpbridge_mpi_success };
    if rc == success {
        Ok(())
    } else {
        Err(CoreError::Mpi {
            call,
            code: rc,
            text: error_string(rc),
        })
    }
}

/// MPI's own text for an error code.
pub fn error_string(code: i32) -> String {
    // SAFETY: reading a constant defined in the C constants file.
    let max = unsafe { mpbridge_mpi_max_error_string } as usize;
    let mut buf = vec![0 as c_char; max + 1];
    let mut len: c_int = 0;
    // SAFETY: buf holds MPI_MAX_ERROR_STRING characters as the standard requires.
    let rc = unsafe { sys::MPI_Error_string(code, buf.as_mut_ptr(), &mut len) };
    if rc != 0 {
        return format!("MPI error {code}");
    }
    let bytes: Vec<u8> = buf[..len.max(0) as usize]
        .iter()
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whether `MPI_Init` (or `MPI_Init_thread`) has been called in this process.
pub fn is_initialized() -> bool {
    let mut flag: c_int = 0;
    // SAFETY: MPI_Initialized may be called at any time, even before MPI_Init.
    unsafe { sys::MPI_Initialized(&mut flag) };
    flag != 0
}

/// Whether `MPI_Finalize` has completed in this process.
pub fn is_finalized() -> bool {
    let mut flag: c_int = 0;
    // SAFETY: MPI_Finalized may be called at any time.
    unsafe { sys::MPI_Finalized(&mut flag) };
    flag != 0
}

fn level_from_raw(raw: c_int) -> ThreadLevel {
    // SAFETY: reading constants exported by mpi-sys's C shim.
    let (single, funneled, serialized) = unsafe {
        (
            sys::RSMPI_THREAD_SINGLE,
            sys::RSMPI_THREAD_FUNNELED,
            sys::RSMPI_THREAD_SERIALIZED,
        )
    };
    if raw == single {
        ThreadLevel::Single
    } else if raw == funneled {
        ThreadLevel::Funneled
    } else if raw == serialized {
        ThreadLevel::Serialized
    } else {
        ThreadLevel::Multiple
    }
}

/// Initialises MPI asking for `MPI_THREAD_MULTIPLE`; returns the level granted.
pub fn init_thread_multiple() -> Result<ThreadLevel, CoreError> {
    let mut provided: c_int = 0;
    // SAFETY: NULL argc/argv is allowed by MPI-2 and later; the caller checked
    // that MPI is not initialised yet.
    let rc = unsafe {
        sys::MPI_Init_thread(
            ptr::null_mut(),
            ptr::null_mut(),
            sys::RSMPI_THREAD_MULTIPLE,
            &mut provided,
        )
    };
    check(rc, "MPI_Init_thread")?;
    Ok(level_from_raw(provided))
}

/// The thread level MPI runs with (for a process whose user initialised MPI).
pub fn query_thread() -> Result<ThreadLevel, CoreError> {
    let mut provided: c_int = 0;
    // SAFETY: MPI is initialised (checked by the caller); out-pointer is valid.
    check(
        unsafe { sys::MPI_Query_thread(&mut provided) },
        "MPI_Query_thread",
    )?;
    Ok(level_from_raw(provided))
}

/// Finalises MPI.
pub fn finalize() -> Result<(), CoreError> {
    // SAFETY: called once, by the lifecycle module, when it initialised MPI.
    check(unsafe { sys::MPI_Finalize() }, "MPI_Finalize")
}

/// Ends every process of the job (or of `comm`'s group) with `code`.
pub fn abort(comm: Comm, code: i32) -> ! {
    // SAFETY: MPI_Abort may be called with any valid communicator.
    unsafe { sys::MPI_Abort(comm.0, code) };
    std::process::abort()
}

/// Which program of an MPMD launch (`mpiexec -n 1 a : -n 4 b`) this
/// process runs: 0 for the first, 1 for the next...; 0 when MPI does not say.
pub fn appnum() -> i32 {
    let mut value: *mut c_int = ptr::null_mut();
    let mut flag: c_int = 0;
    // SAFETY: MPI stores a pointer to its own int attribute into `value`;
    // the key constant comes from the C constants file.
    let rc = unsafe {
        sys::MPI_Comm_get_attr(
            sys::RSMPI_COMM_WORLD,
            mpbridge_mpi_appnum,
            &mut value as *mut *mut c_int as *mut c_void,
            &mut flag,
        )
    };
    if rc != 0 || flag == 0 || value.is_null() {
        return 0;
    }
    // SAFETY: with flag set, `value` points to MPI's attribute value.
    unsafe { *value }
}

/// Registers `f` to run when the process exits normally (C `atexit`).
pub fn at_exit(f: extern "C" fn()) -> bool {
    // SAFETY: registering a plain function with the C runtime.
    unsafe { libc::atexit(f) == 0 }
}

extern "C" {
    /// glibc's `on_exit`: like `atexit`, and the handler gets the status.
    fn on_exit(f: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
}

/// Registers `f` to run with the exit status when the process exits
/// normally (glibc's `on_exit`).
pub fn at_exit_with_status(f: extern "C" fn(c_int, *mut c_void)) -> bool {
    // SAFETY: registering a plain function with the C runtime; the argument
    // is never read.
    unsafe { on_exit(f, ptr::null_mut()) == 0 }
}

/// Whether the job runs in Open MPI's recovery mode (it survives the death
/// of a process), as the launcher tells every process through its
/// environment.
pub fn recovery_mode() -> bool {
    std::env::var("OMPI_MCA_orte_enable_recovery").is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on" | "enabled"
        )
    })
}

/// Ends the process at once with `status`, after flushing C's streams
/// (no exit handlers run).
pub fn exit_immediately(status: i32) -> ! {
    // SAFETY: flushing every C stream, then ending the process.
    unsafe {
        libc::fflush(ptr::null_mut());
        libc::_exit(status)
    }
}

/// Wall-clock time in seconds from MPI's clock.
pub fn wtime() -> f64 {
    // SAFETY: MPI_Wtime has no preconditions beyond initialisation.
    unsafe { sys::MPI_Wtime() }
}

impl Comm {
    /// Wraps the communicator of a `collective::Group`.
    pub(crate) fn from_group(raw: sys::MPI_Comm) -> Comm {
        Comm(raw)
    }

    /// `MPI_COMM_WORLD`.
    pub fn world() -> Comm {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        Comm(unsafe { sys::RSMPI_COMM_WORLD })
    }

    /// `MPI_COMM_SELF`.
    pub fn self_comm() -> Comm {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        Comm(unsafe { sys::RSMPI_COMM_SELF })
    }

    /// `MPI_COMM_NULL`.
    pub fn null() -> Comm {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        Comm(unsafe { sys::RSMPI_COMM_NULL })
    }

    /// Whether this is `MPI_COMM_NULL`.
    pub fn is_null(self) -> bool {
        self == Comm::null()
    }

    /// The raw handle, for layers that hand a communicator to their users
    /// (e.g. `GA_MPI_Comm`).
    pub fn raw(self) -> RawComm {
        self.0
    }

    /// The Fortran handle of the communicator (`MPI_Comm_c2f`), for
    /// Fortran APIs that hand one to their users (e.g. `ga_mpi_comm`).
    pub fn fortran_handle(self) -> i64 {
        // SAFETY: converting a valid communicator handle; no memory is touched.
        i64::from(unsafe { sys::RSMPI_Comm_c2f(self.0) })
    }

    /// This process's rank in the communicator (local group).
    pub fn rank(self) -> Result<i32, CoreError> {
        self.number(sys::MPI_Comm_rank, "MPI_Comm_rank")
    }

    /// Size of the local group.
    pub fn size(self) -> Result<i32, CoreError> {
        self.number(sys::MPI_Comm_size, "MPI_Comm_size")
    }

    /// Size of the remote group of an intercommunicator.
    pub fn remote_size(self) -> Result<i32, CoreError> {
        self.number(sys::MPI_Comm_remote_size, "MPI_Comm_remote_size")
    }

    /// The number MPI query `query` (named `call`) gives for the
    /// communicator.
    fn number(
        self,
        query: unsafe extern "C" fn(sys::MPI_Comm, *mut c_int) -> c_int,
        call: &'static str,
    ) -> Result<i32, CoreError> {
        let mut n: c_int = 0;
        // SAFETY: `query` is an MPI query of a valid communicator that
        // writes one int to the out-pointer.
        check(unsafe { query(self.0, &mut n) }, call)?;
        Ok(n)
    }

    /// A private duplicate (collective over the communicator).
    pub fn dup(self) -> Result<Comm, CoreError> {
        let mut out = Comm::null();
        // SAFETY: valid communicator and out-pointer.
        check(
            unsafe { sys::MPI_Comm_dup(self.0, &mut out.0) },
            "MPI_Comm_dup",
        )?;
        out.errors_return()?;
        Ok(out)
    }

    /// Makes MPI report errors on this communicator as return codes instead
    /// of aborting, so the layers can turn them into their own error codes.
    pub fn errors_return(self) -> Result<(), CoreError> {
        // SAFETY: valid communicator; the errhandler constant comes from mpi-sys.
        check(
            unsafe { sys::MPI_Comm_set_errhandler(self.0, sys::RSMPI_ERRORS_RETURN) },
            "MPI_Comm_set_errhandler",
        )
    }

    /// Splits the communicator (collective); `None` color gives no communicator.
    pub fn split(self, color: Option<i32>, key: i32) -> Result<Option<Comm>, CoreError> {
        // SAFETY: reading a constant exported by mpi-sys's C shim.
        let c = color.unwrap_or(unsafe { sys::RSMPI_UNDEFINED });
        let mut out = Comm::null();
        // SAFETY: valid communicator and out-pointer.
        check(
            unsafe { sys::MPI_Comm_split(self.0, c, key, &mut out.0) },
            "MPI_Comm_split",
        )?;
        out.made()
    }

    /// A communicator MPI just made, set to return errors; `None` for
    /// `MPI_COMM_NULL` (none made).
    fn made(self) -> Result<Option<Comm>, CoreError> {
        if self.is_null() {
            return Ok(None);
        }
        self.errors_return()?;
        Ok(Some(self))
    }

    /// Frees the communicator (no-op after MPI was finalised).
    pub fn free(mut self) -> Result<(), CoreError> {
        if self.is_null() || is_finalized() {
            return Ok(());
        }
        // SAFETY: the communicator is valid and owned by the caller, who gives it up.
        check(unsafe { sys::MPI_Comm_free(&mut self.0) }, "MPI_Comm_free")
    }

    /// Disconnects a communicator that links separately started processes
    /// (collective over both groups).
    pub fn disconnect(mut self) -> Result<(), CoreError> {
        if self.is_null() || is_finalized() {
            return Ok(());
        }
        // SAFETY: the communicator is valid and owned by the caller, who gives it up.
        check(
            unsafe { sys::MPI_Comm_disconnect(&mut self.0) },
            "MPI_Comm_disconnect",
        )
    }

    /// The intercommunicator to the parent if this process was spawned.
    pub fn parent() -> Result<Option<Comm>, CoreError> {
        let mut out = Comm::null();
        // SAFETY: valid out-pointer.
        check(
            unsafe { sys::MPI_Comm_get_parent(&mut out.0) },
            "MPI_Comm_get_parent",
        )?;
        out.made()
    }

    /// Broadcasts bytes (collective). For intercommunicators, `root` follows
    /// MPI's rules: the sending side passes [`Root::Sender`], the receiving
    /// side the sender's rank.
    pub fn bcast(self, buf: &mut [u8], root: Root) -> Result<(), CoreError> {
        let root = match root {
            // SAFETY: reading a constant defined in the C constants file.
            Root::Sender => unsafe { mpbridge_mpi_root },
            Root::Rank(r) => r,
        };
        let count = c_int::try_from(buf.len())
            .map_err(|_| CoreError::InvalidArgument("broadcast too long".into()))?;
        // SAFETY: buf is valid for `count` bytes for the whole (blocking) call.
        check(
            unsafe {
                sys::MPI_Bcast(
                    buf.as_mut_ptr() as *mut c_void,
                    count,
                    sys::RSMPI_UINT8_T,
                    root,
                    self.0,
                )
            },
            "MPI_Bcast",
        )
    }

    /// Element-wise maximum and minimum of `values` over the communicator.
    pub fn allreduce_max_min_u32(self, values: &[u32]) -> Result<(Vec<u32>, Vec<u32>), CoreError> {
        let n = c_int::try_from(values.len())
            .map_err(|_| CoreError::InvalidArgument("reduction too long".into()))?;
        let reduce = |op: sys::MPI_Op| -> Result<Vec<u32>, CoreError> {
            let mut out = vec![0u32; values.len()];
            let to = out.as_mut_ptr() as *mut c_void;
            // SAFETY: both buffers hold `n` u32 values for the whole blocking call.
            let rc = unsafe {
                sys::MPI_Allreduce(send_addr(values), to, n, sys::RSMPI_UINT32_T, op, self.0)
            };
            check(rc, "MPI_Allreduce")?;
            Ok(out)
        };
        // SAFETY: reading operation constants exported by mpi-sys's C shim.
        let (max, min) = unsafe { (sys::RSMPI_MAX, sys::RSMPI_MIN) };
        Ok((reduce(max)?, reduce(min)?))
    }

    /// Gathers `mine` (the same length on every rank) from every rank, in
    /// rank order (collective).
    pub fn allgather(self, mine: &[u8]) -> Result<Vec<u8>, CoreError> {
        let n = c_len(mine.len())?;
        let size = self.size()? as usize;
        let mut all = vec![0u8; mine.len() * size];
        // SAFETY: `mine` holds n bytes and `all` n bytes per rank, both valid
        // for the whole blocking call.
        check(
            unsafe {
                sys::MPI_Allgather(
                    send_addr(mine),
                    n,
                    sys::RSMPI_UINT8_T,
                    all.as_mut_ptr() as *mut c_void,
                    n,
                    sys::RSMPI_UINT8_T,
                    self.0,
                )
            },
            "MPI_Allgather",
        )?;
        Ok(all)
    }

    /// Sends `out` to rank `peer` (of the remote group, on an
    /// intercommunicator) and receives as many bytes from it into `inp`
    /// (both sides call it; MPI tag `tag`).
    pub fn sendrecv(
        self,
        out: &[u8],
        inp: &mut [u8],
        peer: i32,
        tag: i32,
    ) -> Result<(), CoreError> {
        let n = c_len(out.len())?;
        let m = c_len(inp.len())?;
        // SAFETY: both buffers are valid for their lengths for the whole
        // blocking call.
        check(
            unsafe {
                sys::MPI_Sendrecv(
                    send_addr(out),
                    n,
                    sys::RSMPI_UINT8_T,
                    peer,
                    tag,
                    inp.as_mut_ptr() as *mut c_void,
                    m,
                    sys::RSMPI_UINT8_T,
                    peer,
                    tag,
                    self.0,
                    sys::RSMPI_STATUS_IGNORE,
                )
            },
            "MPI_Sendrecv",
        )
    }

    /// Blocking barrier.
    pub fn barrier(self) -> Result<(), CoreError> {
        // SAFETY: valid communicator.
        check(unsafe { sys::MPI_Barrier(self.0) }, "MPI_Barrier")
    }

    /// World ranks of `ranks` of this communicator's local group.
    pub fn translate_to(self, other: Comm, ranks: &[i32]) -> Result<Vec<i32>, CoreError> {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut g1 = unsafe { sys::RSMPI_GROUP_NULL };
        let mut g2 = g1;
        // SAFETY: valid communicators and out-pointers.
        check(
            unsafe { sys::MPI_Comm_group(self.0, &mut g1) },
            "MPI_Comm_group",
        )?;
        // SAFETY: as above.
        check(
            unsafe { sys::MPI_Comm_group(other.0, &mut g2) },
            "MPI_Comm_group",
        )?;
        let mut out = vec![0 as c_int; ranks.len()];
        // SAFETY: `ranks` and `out` hold ranks.len() ints; groups are valid.
        let rc = unsafe {
            sys::MPI_Group_translate_ranks(
                g1,
                ranks.len() as c_int,
                ranks.as_ptr(),
                g2,
                out.as_mut_ptr(),
            )
        };
        // SAFETY: both groups were created above and are freed once.
        unsafe {
            sys::MPI_Group_free(&mut g1);
            sys::MPI_Group_free(&mut g2);
        }
        check(rc, "MPI_Group_translate_ranks")?;
        Ok(out)
    }
}

/// Root argument of a collective on an intercommunicator.
#[derive(Clone, Copy, Debug)]
pub enum Root {
    /// This process is the sender (`MPI_ROOT`).
    Sender,
    /// The sender's rank (in the remote group for intercommunicators).
    Rank(i32),
}

/// An MPI request handle.
struct RawRequest(sys::MPI_Request);

// SAFETY: a request handle is an opaque identifier usable from any thread;
// the crate serialises MPI calls.
unsafe impl Send for RawRequest {}

impl RawRequest {
    fn null() -> RawRequest {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        RawRequest(unsafe { sys::RSMPI_REQUEST_NULL })
    }

    fn is_null(&self) -> bool {
        // SAFETY: as above.
        self.0 == unsafe { sys::RSMPI_REQUEST_NULL }
    }

    /// Tests for completion; on completion the handle becomes null.
    fn test(&mut self) -> Result<Option<Status>, CoreError> {
        if self.is_null() {
            return Ok(None);
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
        Ok(Some(status_of(&st)?))
    }

    /// Waits for completion of an active request with `MPI_Wait`; the
    /// handle becomes null.
    fn wait_status(&mut self) -> Result<Status, CoreError> {
        let mut st = empty_status();
        // SAFETY: the request is active; the status is a valid out-pointer.
        check(unsafe { sys::MPI_Wait(&mut self.0, &mut st) }, "MPI_Wait")?;
        status_of(&st)
    }

    /// Waits for completion without polling anything else.
    fn wait(&mut self) {
        if self.is_null() || is_finalized() {
            return;
        }
        // SAFETY: the request is active; MPI_Wait completes it.
        unsafe { sys::MPI_Wait(&mut self.0, sys::RSMPI_STATUS_IGNORE) };
    }
}

/// `MPI_IN_PLACE` of the MPI linked against, for a collective's send
/// buffer.
pub(crate) fn in_place() -> *const c_void {
    // SAFETY: a constant the C side initialises before any code runs.
    unsafe { mpbridge_mpi_in_place }
}

/// The address to give a collective for a send buffer. An empty Rust
/// slice of bytes points at address 1, which is Open MPI's `MPI_IN_PLACE`:
/// a process with nothing to send would have its call taken as in place.
/// An empty buffer gets the address of a real (unused) word instead.
pub(crate) fn send_addr<T>(s: &[T]) -> *const c_void {
    static NOTHING: u64 = 0;
    if s.is_empty() {
        &NOTHING as *const u64 as *const c_void
    } else {
        s.as_ptr() as *const c_void
    }
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

fn status_of(st: &sys::MPI_Status) -> Result<Status, CoreError> {
    let mut count: c_int = 0;
    // SAFETY: `st` is a status filled by MPI; the datatype constant comes from mpi-sys.
    check(
        unsafe { sys::MPI_Get_count(st, sys::RSMPI_UINT8_T, &mut count) },
        "MPI_Get_count",
    )?;
    Ok(Status {
        source: st.MPI_SOURCE,
        tag: st.MPI_TAG,
        count: count.max(0) as usize,
    })
}

/// The buffer of a nonblocking byte transfer, and which way it goes.
#[derive(Clone, Copy)]
pub(crate) enum Transfer {
    /// `MPI_Isend` of the bytes at the pointer.
    Send(*const c_void),
    /// `MPI_Irecv` into the bytes at the pointer.
    Recv(*mut c_void),
}

impl Transfer {
    /// Starts the transfer of `count` bytes with rank `peer`, MPI tag
    /// `tag` on `comm`; its request goes to `req`.
    ///
    /// # Safety
    /// The buffer holds `count` bytes that stay allocated until the request
    /// completed: unchanged while they are sent, not read while received.
    pub(crate) unsafe fn start(
        self,
        count: c_int,
        peer: i32,
        tag: i32,
        comm: Comm,
        req: &mut sys::MPI_Request,
    ) -> Result<(), CoreError> {
        // SAFETY: the buffer as the caller promises; `req` is an out-pointer.
        let (rc, call) = unsafe {
            match self {
                Transfer::Send(buf) => (
                    sys::MPI_Isend(buf, count, sys::RSMPI_UINT8_T, peer, tag, comm.0, req),
                    "MPI_Isend",
                ),
                Transfer::Recv(buf) => (
                    sys::MPI_Irecv(buf, count, sys::RSMPI_UINT8_T, peer, tag, comm.0, req),
                    "MPI_Irecv",
                ),
            }
        };
        check(rc, call)
    }
}

fn c_len(len: usize) -> Result<c_int, CoreError> {
    c_int::try_from(len).map_err(|_| {
        CoreError::InvalidArgument(format!(
            "message of {len} bytes exceeds one MPI transfer (2 GiB)"
        ))
    })
}

/// A send whose buffer is owned by the request until MPI is done with it.
pub struct OwnedSend {
    req: RawRequest,
    buf: Vec<u8>,
}

impl OwnedSend {
    /// Starts `MPI_Isend` of `buf` to `dest` with MPI tag `tag`.
    pub fn start(buf: Vec<u8>, dest: i32, tag: i32, comm: Comm) -> Result<OwnedSend, CoreError> {
        let count = c_len(buf.len())?;
        let mut req = RawRequest::null();
        // SAFETY: the heap buffer of `buf` is moved into the returned object and
        // kept (or leaked) until the request completes.
        unsafe { Transfer::Send(buf.as_ptr().cast()).start(count, dest, tag, comm, &mut req.0) }?;
        Ok(OwnedSend { req, buf })
    }

    /// Whether the send has completed (the buffer is then released on drop).
    pub fn test(&mut self) -> Result<bool, CoreError> {
        if self.req.is_null() {
            return Ok(true);
        }
        Ok(self.req.test()?.is_some())
    }
}

impl Drop for OwnedSend {
    fn drop(&mut self) {
        if self.req.is_null() {
            return;
        }
        // The peer may be gone; MPI may still read the buffer later, so it is
        // leaked rather than freed, and the request is released.
        let buf = std::mem::take(&mut self.buf);
        std::mem::forget(buf);
        if !is_finalized() {
            // SAFETY: releasing an active send request is allowed; the buffer
            // it reads from was leaked above and stays valid.
            unsafe { sys::MPI_Request_free(&mut self.req.0) };
        }
    }
}

/// A nonblocking byte transfer on memory its starter keeps valid until it
/// completed: [`InFlight::test`] returned `Some`, or the value was dropped
/// (a dropped send is waited for, a dropped receive cancelled first).
pub struct InFlight {
    req: RawRequest,
    recv: bool,
    /// The byte count once complete.
    done: Option<usize>,
}

impl InFlight {
    /// Starts `MPI_Isend` (`recv` false) of the `len` bytes at `buf` to
    /// `peer`, or `MPI_Irecv` (`recv` true) of at most `len` bytes into them
    /// from `peer`, with MPI tag `tag`.
    ///
    /// # Safety
    /// The bytes stay allocated until the transfer completed, unchanged
    /// while they are sent, neither read nor written by anyone else while
    /// they are received.
    pub unsafe fn begin(
        recv: bool,
        buf: *mut u8,
        len: usize,
        peer: i32,
        tag: i32,
        comm: Comm,
    ) -> Result<Self, CoreError> {
        let t = if recv {
            Transfer::Recv(buf.cast())
        } else {
            Transfer::Send(buf.cast_const().cast())
        };
        let count = c_len(len)?;
        let mut req = RawRequest::null();
        // SAFETY: the caller's promise above: the buffer holds `len` bytes
        // and stays valid until the request completed.
        unsafe { t.start(count, peer, tag, comm, &mut req.0) }?;
        Ok(InFlight {
            req,
            recv,
            done: None,
        })
    }

    /// One pass of MPI's progress: the byte count once the transfer
    /// completed (then and on every later call), `None` while it runs.
    pub fn test(&mut self) -> Result<Option<usize>, CoreError> {
        if self.done.is_none() {
            if let Some(st) = self.req.test()? {
                self.done = Some(st.count);
            }
        }
        Ok(self.done)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.req.is_null() || is_finalized() {
            return;
        }
        if self.recv {
            // SAFETY: the request is an active receive; cancelling it is
            // allowed, and the wait below completes it either way.
            unsafe { sys::MPI_Cancel(&mut self.req.0) };
        }
        self.req.wait();
    }
}

/// The standing receives of a process: one per communicator it listens on,
/// each with its own buffer, all tested together with one `MPI_Testany`
/// (one pass of MPI's progress engine however many there are).
#[derive(Default)]
pub struct ListenerSet {
    reqs: Vec<sys::MPI_Request>,
    slots: Vec<Option<Slot>>,
    /// Listeners whose message was handled and that are not posted again
    /// yet: re-posting waits for the next poll, so it is not on the path
    /// between a message's arrival and the caller getting it.
    repost: Vec<usize>,
}

struct Slot {
    buf: Box<[u8]>,
    comm: Comm,
    tag: i32,
}

// SAFETY: the request handles are opaque identifiers usable from any thread;
// the crate serialises MPI calls with its lock.
unsafe impl Send for ListenerSet {}

impl ListenerSet {
    /// Starts listening on `comm` for MPI tag `tag` from any source with room
    /// for `cap` bytes; returns the listener's index.
    pub fn add(&mut self, comm: Comm, tag: i32, cap: usize) -> Result<usize, CoreError> {
        let slot = Slot {
            buf: vec![0u8; cap].into_boxed_slice(),
            comm,
            tag,
        };
        let idx = match self.slots.iter().position(|s| s.is_none()) {
            Some(i) => i,
            None => {
                self.slots.push(None);
                self.reqs.push(RawRequest::null().0);
                self.slots.len() - 1
            }
        };
        self.slots[idx] = Some(slot);
        self.init(idx)?;
        self.post(idx)?;
        Ok(idx)
    }

    /// Creates listener `idx`'s persistent receive (`MPI_Recv_init`).
    fn init(&mut self, idx: usize) -> Result<(), CoreError> {
        let Some(slot) = self.slots[idx].as_mut() else {
            return Ok(());
        };
        let count = c_len(slot.buf.len())?;
        // SAFETY: the boxed buffer is owned by the slot and outlives the
        // persistent request: `remove` and `Drop` complete and free the
        // request before freeing the buffer.
        check(
            unsafe {
                sys::MPI_Recv_init(
                    slot.buf.as_mut_ptr() as *mut c_void,
                    count,
                    sys::RSMPI_UINT8_T,
                    sys::RSMPI_ANY_SOURCE,
                    slot.tag,
                    slot.comm.0,
                    &mut self.reqs[idx],
                )
            },
            "MPI_Recv_init",
        )
    }

    /// (Re)starts listener `idx`'s persistent receive.
    fn post(&mut self, idx: usize) -> Result<(), CoreError> {
        if self.slots[idx].is_none() {
            return Ok(());
        }
        // SAFETY: reqs[idx] is the inactive persistent request made by `init`.
        check(unsafe { sys::MPI_Start(&mut self.reqs[idx]) }, "MPI_Start")
    }

    /// The communicator of listener `idx`.
    pub fn comm(&self, idx: usize) -> Option<Comm> {
        self.slots.get(idx).and_then(|s| s.as_ref()).map(|s| s.comm)
    }

    /// If any listener received a message, hands its communicator, the
    /// status and the bytes to `f` and re-posts that listener.
    pub fn poll<R>(
        &mut self,
        f: impl FnOnce(Comm, Status, &[u8]) -> Result<R, CoreError>,
    ) -> Result<Option<R>, CoreError> {
        while let Some(idx) = self.repost.pop() {
            self.post(idx)?;
        }
        if self.reqs.is_empty() {
            return Ok(None);
        }
        let mut index: c_int = 0;
        let mut flag: c_int = 0;
        let mut st = empty_status();
        // SAFETY: reqs holds reqs.len() request handles (active or null).
        check(
            unsafe {
                sys::MPI_Testany(
                    self.reqs.len() as c_int,
                    self.reqs.as_mut_ptr(),
                    &mut index,
                    &mut flag,
                    &mut st,
                )
            },
            "MPI_Testany",
        )?;
        if flag == 0 || index < 0 || index as usize >= self.slots.len() {
            return Ok(None);
        }
        let status = status_of(&st)?;
        self.complete(index as usize, status, f)
    }

    /// Like [`poll`](Self::poll) for listener `idx` alone, with `MPI_Test`,
    /// which looks at the request again after running MPI's progress engine
    /// (so an arrival is seen in the same call).
    pub fn poll_one<R>(
        &mut self,
        idx: usize,
        f: impl FnOnce(Comm, Status, &[u8]) -> Result<R, CoreError>,
    ) -> Result<Option<R>, CoreError> {
        while let Some(i) = self.repost.pop() {
            self.post(i)?;
        }
        if idx >= self.reqs.len() {
            return Ok(None);
        }
        let mut req = RawRequest(self.reqs[idx]);
        let done = req.test();
        self.reqs[idx] = req.0;
        let Some(status) = done? else {
            return Ok(None);
        };
        self.complete(idx, status, f)
    }

    /// Hands a completed listener's message to `f`; the listener is posted
    /// again at the next poll.
    fn complete<R>(
        &mut self,
        idx: usize,
        status: Status,
        f: impl FnOnce(Comm, Status, &[u8]) -> Result<R, CoreError>,
    ) -> Result<Option<R>, CoreError> {
        let Some(slot) = self.slots[idx].as_ref() else {
            return Ok(None);
        };
        let n = status.count.min(slot.buf.len());
        let r = f(slot.comm, status, &slot.buf[..n]);
        self.repost.push(idx);
        r.map(Some)
    }

    /// Stops listener `idx` (before its communicator is released).
    pub fn remove(&mut self, idx: usize) {
        // A listener waiting to be re-started is inactive: nothing to cancel.
        let active = !self.repost.contains(&idx);
        self.repost.retain(|&i| i != idx);
        if idx < self.reqs.len() {
            let mut r = RawRequest(self.reqs[idx]);
            if !r.is_null() && !is_finalized() {
                // SAFETY: cancelling and completing an active persistent
                // request, then freeing it, ends MPI's use of the slot's buffer.
                unsafe {
                    if active {
                        sys::MPI_Cancel(&mut r.0);
                        sys::MPI_Wait(&mut r.0, sys::RSMPI_STATUS_IGNORE);
                    }
                    sys::MPI_Request_free(&mut r.0);
                }
            }
            self.reqs[idx] = r.0;
            if is_finalized() {
                if let Some(slot) = self.slots[idx].take() {
                    std::mem::forget(slot.buf);
                }
            } else {
                self.slots[idx] = None;
            }
        }
    }
}

impl Drop for ListenerSet {
    fn drop(&mut self) {
        for idx in 0..self.reqs.len() {
            self.remove(idx);
        }
    }
}

/// Completes a request on unwind so a borrowed buffer is never freed while
/// MPI still uses it.
struct WaitOnDrop<'a>(&'a mut RawRequest);

impl Drop for WaitOnDrop<'_> {
    fn drop(&mut self) {
        self.0.wait();
    }
}

/// Tests a started receive until it completes, calling `idle` between
/// tests; returns its byte count. On an error return the request is still
/// completed before its buffer is released.
fn complete_recv(req: &mut RawRequest, mut idle: impl FnMut()) -> Result<usize, CoreError> {
    let guard = WaitOnDrop(req);
    loop {
        if let Some(st) = guard.0.test()? {
            return Ok(st.count);
        }
        idle();
    }
}

/// Receives at most `len` bytes into the spare capacity of `v` (after its
/// contents) with `recv`, without zero-filling first; keeps what arrived.
fn recv_into_spare(
    v: &mut Vec<u8>,
    len: usize,
    recv: impl FnOnce(&mut [u8]) -> Result<usize, CoreError>,
) -> Result<usize, CoreError> {
    v.reserve(len);
    let start = v.len();
    let spare = &mut v.spare_capacity_mut()[..len];
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`; MPI only writes
    // into the buffer, which is borrowed for the whole receive.
    let buf = unsafe { std::slice::from_raw_parts_mut(spare.as_mut_ptr() as *mut u8, len) };
    let got = recv(buf)?.min(len);
    // SAFETY: MPI wrote `got` bytes right after the vector's contents.
    unsafe { v.set_len(start + got) };
    Ok(got)
}

/// Sends a small message with blocking `MPI_Send`, which MPI completes as
/// soon as the bytes are buffered (eager protocol) and serves on its fastest
/// path. Only for messages well below MPI's eager limit (for any size, see
/// [`send_blocking`]).
#[inline]
pub fn send_small(buf: &[u8], dest: i32, tag: i32, comm: Comm) -> Result<(), CoreError> {
    send_blocking(buf, dest, tag, comm)
}

/// Sends `buf` with blocking `MPI_Send`: returns once `buf` may be reused.
/// A large message may wait in the call until the receiver posts its
/// receive, so a caller that must keep serving others while it sends uses
/// [`send_borrowed`] instead.
pub fn send_blocking(buf: &[u8], dest: i32, tag: i32, comm: Comm) -> Result<(), CoreError> {
    let count = c_len(buf.len())?;
    // SAFETY: `buf` is valid for `count` bytes for the whole blocking call.
    check(
        unsafe {
            sys::MPI_Send(
                buf.as_ptr() as *const c_void,
                count,
                sys::RSMPI_UINT8_T,
                dest,
                tag,
                comm.0,
            )
        },
        "MPI_Send",
    )
}

/// Sends `buf` as consecutive messages of `chunk` bytes (the last one
/// shorter; none for an empty `buf`) to `dest` with MPI tag `tag`, all
/// started at once so the receiver finds the next one already on its way
/// (the other end is [`recv_chunked`]). Returns when every one completed.
pub fn send_chunked(
    buf: &[u8],
    chunk: usize,
    dest: i32,
    tag: i32,
    comm: Comm,
) -> Result<(), CoreError> {
    if chunk == 0 {
        return Err(CoreError::InvalidArgument("chunks of 0 bytes".into()));
    }
    // Checked before any send starts: every chunk is at most this long.
    c_len(chunk)?;
    let mut reqs: Vec<sys::MPI_Request> = vec![RawRequest::null().0; buf.len().div_ceil(chunk)];
    let nreqs = c_len(reqs.len())?;
    let mut started = Ok(());
    for (piece, req) in buf.chunks(chunk).zip(reqs.iter_mut()) {
        let (at, n) = (piece.as_ptr().cast(), piece.len() as c_int);
        // SAFETY: `buf` stays borrowed until every request completed in
        // the MPI_Waitall below, which runs on every path.
        started = unsafe { Transfer::Send(at).start(n, dest, tag, comm, req) };
        if started.is_err() {
            break;
        }
    }
    // SAFETY: every entry is an active request or MPI_REQUEST_NULL.
    let rc = unsafe { sys::MPI_Waitall(nreqs, reqs.as_mut_ptr(), sys::RSMPI_STATUSES_IGNORE) };
    started?;
    check(rc, "MPI_Waitall")
}

/// Receives `total` bytes that `source` sends with [`send_chunked`] in
/// messages of `chunk` bytes with MPI tag `tag`, alternating between the
/// two buffers of `bufs` (each at least `chunk` bytes): the receive of
/// chunk k+1 is posted before `f(offset, bytes)` runs on chunk k, so
/// handling one chunk overlaps the arrival of the next. A chunk of another
/// size than expected is an error, returned after every posted receive
/// completed.
pub fn recv_chunked(
    bufs: [&mut [u8]; 2],
    total: usize,
    chunk: usize,
    source: i32,
    tag: i32,
    comm: Comm,
    mut f: impl FnMut(usize, &[u8]),
) -> Result<(), CoreError> {
    if chunk == 0 || bufs.iter().any(|b| b.len() < chunk) {
        return Err(CoreError::InvalidArgument(
            "receive buffers smaller than a chunk".into(),
        ));
    }
    let count = c_len(chunk)?;
    let nchunks = total.div_ceil(chunk);
    let ptrs = [bufs[0].as_mut_ptr(), bufs[1].as_mut_ptr()];
    // Completed on every path before the buffers are released (guards).
    let mut reqs = [RawRequest::null(), RawRequest::null()];
    let [r0, r1] = &mut reqs;
    let mut guards = [WaitOnDrop(r0), WaitOnDrop(r1)];
    let post = |k: usize, req: &mut RawRequest| -> Result<(), CoreError> {
        // SAFETY: buffer k % 2 holds `chunk` bytes and stays mutably
        // borrowed (through `bufs`) until this function returns; it is
        // not read before its request completed, and every request
        // completes before the function returns (the guards).
        unsafe { Transfer::Recv(ptrs[k % 2].cast()).start(count, source, tag, comm, &mut req.0) }
    };
    for (k, guard) in guards.iter_mut().enumerate().take(nchunks) {
        post(k, &mut *guard.0)?;
    }
    for k in 0..nchunks {
        let req = &mut *guards[k % 2].0;
        let st = req.wait_status()?;
        let want = chunk.min(total - k * chunk);
        if st.count != want {
            return Err(CoreError::InvalidArgument(format!(
                "chunk {k} of a {total}-byte transfer holds {} bytes, {want} expected",
                st.count
            )));
        }
        // SAFETY: the receive into this buffer completed above and no other
        // is posted on it until `f` returned.
        let data = unsafe { std::slice::from_raw_parts(ptrs[k % 2], want) };
        f(k * chunk, data);
        if k + 2 < nchunks {
            post(k + 2, req)?;
        }
    }
    Ok(())
}

/// Sends `buf` without copying; calls `idle` between completion tests (the
/// caller polls incoming traffic there so two processes sending large
/// messages to each other both progress). Returns once `buf` may be reused.
pub fn send_borrowed(
    buf: &[u8],
    dest: i32,
    tag: i32,
    comm: Comm,
    mut idle: impl FnMut() -> Result<(), CoreError>,
) -> Result<(), CoreError> {
    let count = c_len(buf.len())?;
    let mut req = RawRequest::null();
    // SAFETY: `buf` stays borrowed until this function returns, and the
    // request is completed before that on every path (guard below).
    unsafe { Transfer::Send(buf.as_ptr().cast()).start(count, dest, tag, comm, &mut req.0) }?;
    let guard = WaitOnDrop(&mut req);
    loop {
        if guard.0.test()?.is_some() {
            return Ok(());
        }
        idle()?;
    }
}

/// Receives one message from `source` with MPI tag `tag` straight into `buf`;
/// calls `idle` between completion tests. Returns the byte count.
pub fn recv_borrowed(
    buf: &mut [u8],
    source: i32,
    tag: i32,
    comm: Comm,
    idle: impl FnMut(),
) -> Result<usize, CoreError> {
    let count = c_len(buf.len())?;
    let mut req = RawRequest::null();
    // SAFETY: `buf` stays borrowed until this function returns, and the
    // request is completed before that on every path (guard below).
    unsafe { Transfer::Recv(buf.as_mut_ptr().cast()).start(count, source, tag, comm, &mut req.0) }?;
    complete_recv(&mut req, idle)
}

/// Receives one message from `source` with MPI tag `tag` of at most `len`
/// bytes into the spare capacity of `v` (after its current contents),
/// without zero-filling first; calls `idle` between completion tests.
pub fn recv_append(
    v: &mut Vec<u8>,
    len: usize,
    source: i32,
    tag: i32,
    comm: Comm,
    idle: impl FnMut(),
) -> Result<usize, CoreError> {
    recv_into_spare(v, len, |buf| recv_borrowed(buf, source, tag, comm, idle))
}

/// A message matched with `MPI_Improbe` and not received yet: it left MPI's
/// matching queue, so no later receive can take it; its bytes are fetched
/// with [`Matched::recv`]. Dropped unreceived, it is received and discarded.
pub struct Matched {
    msg: sys::MPI_Message,
    len: usize,
    source: i32,
}

// SAFETY: a message handle is an opaque identifier usable from any thread;
// the crate serialises MPI calls.
unsafe impl Send for Matched {}

impl std::fmt::Debug for Matched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matched").field("len", &self.len).finish()
    }
}

/// Matches the next message from `source` with MPI tag `tag` (it must be on
/// its way: the caller knows it was sent), calling `idle` between tries.
pub fn mprobe(
    source: i32,
    tag: i32,
    comm: Comm,
    mut idle: impl FnMut(),
) -> Result<Matched, CoreError> {
    loop {
        let mut flag: c_int = 0;
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut msg = unsafe { sys::RSMPI_MESSAGE_NULL };
        let mut st = empty_status();
        // SAFETY: flag, message and status are valid out-pointers.
        check(
            unsafe { sys::MPI_Improbe(source, tag, comm.0, &mut flag, &mut msg, &mut st) },
            "MPI_Improbe",
        )?;
        if flag != 0 {
            let st = status_of(&st)?;
            return Ok(Matched {
                msg,
                len: st.count,
                source: st.source,
            });
        }
        idle();
    }
}

/// The source rank that matches a message from any sender (for [`mprobe`]).
pub fn any_source() -> i32 {
    // SAFETY: reading a constant exported by mpi-sys's C shim.
    unsafe { sys::RSMPI_ANY_SOURCE }
}

impl Matched {
    /// Rank of the sender in the communicator.
    pub fn source(&self) -> i32 {
        self.source
    }

    /// Length of the message in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the message is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Receives the message into `buf` (at most `buf.len()` bytes are
    /// kept), calling `idle` between completion tests. Returns the count.
    pub fn recv(mut self, buf: &mut [u8], idle: impl FnMut()) -> Result<usize, CoreError> {
        let count = c_len(buf.len())?;
        let mut req = RawRequest::null();
        // SAFETY: `buf` stays borrowed until this function returns and the
        // request is completed before that on every path (guard below);
        // MPI_Imrecv consumes the message handle (it becomes null).
        check(
            unsafe {
                sys::MPI_Imrecv(
                    buf.as_mut_ptr() as *mut c_void,
                    count,
                    sys::RSMPI_UINT8_T,
                    &mut self.msg,
                    &mut req.0,
                )
            },
            "MPI_Imrecv",
        )?;
        complete_recv(&mut req, idle)
    }

    /// Receives the message into the spare capacity of `v` (after its
    /// contents), without zero-filling first. Returns the count.
    pub fn recv_append(self, v: &mut Vec<u8>, idle: impl FnMut()) -> Result<usize, CoreError> {
        let len = self.len;
        recv_into_spare(v, len, |buf| self.recv(buf, idle))
    }

    fn is_null(&self) -> bool {
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        self.msg.0 == unsafe { sys::RSMPI_MESSAGE_NULL }.0
    }
}

impl Drop for Matched {
    fn drop(&mut self) {
        if self.is_null() || is_finalized() {
            return;
        }
        // Received and thrown away, so the sender's transfer completes.
        let mut scratch = vec![0u8; self.len];
        let count = c_int::try_from(self.len).unwrap_or(0);
        // SAFETY: `scratch` holds `len` bytes for the whole blocking call;
        // MPI_Mrecv consumes the message handle.
        unsafe {
            sys::MPI_Mrecv(
                scratch.as_mut_ptr() as *mut c_void,
                count,
                sys::RSMPI_UINT8_T,
                &mut self.msg,
                sys::RSMPI_STATUS_IGNORE,
            )
        };
    }
}

/// Starts `count` copies of `command` with `args` (collective over
/// `MPI_COMM_SELF`), with `info` as the spawn's info keys (e.g. `host`).
/// Returns the intercommunicator (`MPI_COMM_NULL` for a program started as
/// not using MPI) and one MPI error code per requested process (0 for
/// started ones).
pub fn spawn(
    command: &str,
    args: &[String],
    count: i32,
    info: &[(&str, &str)],
) -> Result<(Comm, Vec<i32>), CoreError> {
    let cmd = CString::new(command)
        .map_err(|_| CoreError::InvalidArgument("command contains a NUL byte".into()))?;
    let cargs: Vec<CString> = args
        .iter()
        .map(|a| CString::new(a.as_str()))
        .collect::<Result<_, _>>()
        .map_err(|_| CoreError::InvalidArgument("argument contains a NUL byte".into()))?;
    let mut argv: Vec<*mut c_char> = cargs.iter().map(|c| c.as_ptr() as *mut c_char).collect();
    argv.push(ptr::null_mut());
    let mut errcodes = vec![0 as c_int; count.max(0) as usize];
    let mut inter = Comm::null();
    Comm::self_comm().errors_return()?;
    let keys: Vec<(CString, CString)> = info
        .iter()
        .map(|(k, v)| Ok((CString::new(*k)?, CString::new(*v)?)))
        .collect::<Result<_, std::ffi::NulError>>()
        .map_err(|_| CoreError::InvalidArgument("spawn info contains a NUL byte".into()))?;
    // SAFETY: reading the MPI library's constant for "no info object".
    let mut handle = unsafe { sys::RSMPI_INFO_NULL };
    if !keys.is_empty() {
        // SAFETY: `handle` is a valid out-pointer for the new info object.
        check(
            unsafe { sys::MPI_Info_create(&mut handle) },
            "MPI_Info_create",
        )?;
        for (k, v) in &keys {
            // SAFETY: the info object was just created; key and value are
            // NUL-terminated strings MPI copies.
            let rc = unsafe { sys::MPI_Info_set(handle, k.as_ptr(), v.as_ptr()) };
            if let Err(e) = check(rc, "MPI_Info_set") {
                // SAFETY: the handle was created above and is freed once.
                unsafe { sys::MPI_Info_free(&mut handle) };
                return Err(e);
            }
        }
    }
    // SAFETY: command and argv are NUL-terminated C strings that live across
    // the blocking call; MPI does not keep them; errcodes has `count` slots;
    // the info handle is null or valid.
    let rc = unsafe {
        sys::MPI_Comm_spawn(
            cmd.as_ptr(),
            argv.as_mut_ptr(),
            count,
            handle,
            0,
            sys::RSMPI_COMM_SELF,
            &mut inter.0,
            errcodes.as_mut_ptr(),
        )
    };
    if !keys.is_empty() {
        // SAFETY: the handle was created above and is freed once.
        unsafe { sys::MPI_Info_free(&mut handle) };
    }
    if rc != 0 {
        return Err(CoreError::Spawn(format!(
            "MPI_Comm_spawn of '{command}' failed: {}",
            error_string(rc)
        )));
    }
    // A program started as not using MPI (info "ompi_non_mpi") gives no
    // intercommunicator.
    if !inter.is_null() {
        inter.errors_return()?;
    }
    Ok((inter, errcodes))
}

/// A port opened with `MPI_Open_port`, closed on drop.
pub struct Port {
    name: CString,
}

impl Port {
    /// Opens a new port.
    pub fn open() -> Result<Port, CoreError> {
        // SAFETY: reading a constant defined in the C constants file.
        let max = unsafe { mpbridge_mpi_max_port_name } as usize;
        let mut buf = vec![0 as c_char; max + 1];
        // SAFETY: buf holds MPI_MAX_PORT_NAME characters as the standard requires.
        check(
            unsafe { sys::MPI_Open_port(sys::RSMPI_INFO_NULL, buf.as_mut_ptr()) },
            "MPI_Open_port",
        )?;
        // SAFETY: MPI wrote a NUL-terminated string into buf.
        let name = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_owned();
        Ok(Port { name })
    }

    /// The port's name, to be passed to the connecting process.
    pub fn name(&self) -> String {
        self.name.to_string_lossy().into_owned()
    }

    /// Waits for one connection (collective over `MPI_COMM_SELF`).
    pub fn accept(&self) -> Result<Comm, CoreError> {
        let mut out = Comm::null();
        // SAFETY: the port name is a valid C string; out-pointer is valid.
        check(
            unsafe {
                sys::MPI_Comm_accept(
                    self.name.as_ptr(),
                    sys::RSMPI_INFO_NULL,
                    0,
                    sys::RSMPI_COMM_SELF,
                    &mut out.0,
                )
            },
            "MPI_Comm_accept",
        )?;
        out.errors_return()?;
        Ok(out)
    }
}

impl Drop for Port {
    fn drop(&mut self) {
        if !is_finalized() {
            // SAFETY: the port was opened by MPI_Open_port and is closed once.
            unsafe { sys::MPI_Close_port(self.name.as_ptr()) };
        }
    }
}

/// Connects to a port opened by another process (collective over `MPI_COMM_SELF`).
pub fn connect(port: &str) -> Result<Comm, CoreError> {
    let name = CString::new(port)
        .map_err(|_| CoreError::InvalidArgument("port name contains a NUL byte".into()))?;
    let mut out = Comm::null();
    // SAFETY: the port name is a valid C string; out-pointer is valid.
    check(
        unsafe {
            sys::MPI_Comm_connect(
                name.as_ptr(),
                sys::RSMPI_INFO_NULL,
                0,
                sys::RSMPI_COMM_SELF,
                &mut out.0,
            )
        },
        "MPI_Comm_connect",
    )?;
    out.errors_return()?;
    Ok(out)
}

/// `MPI_Dims_create`: a balanced grid of `nnodes` over `dims.len()` dimensions;
/// non-zero entries of `dims` are kept.
pub fn dims_create(nnodes: i32, dims: &mut [i32]) -> Result<(), CoreError> {
    // SAFETY: dims holds dims.len() ints.
    check(
        unsafe { sys::MPI_Dims_create(nnodes, dims.len() as c_int, dims.as_mut_ptr()) },
        "MPI_Dims_create",
    )
}

/// `MPI_Cart_create` over `base`; `None` for processes outside the grid.
pub fn cart_create(
    base: Comm,
    dims: &[i32],
    periods: &[bool],
    reorder: bool,
) -> Result<Option<Comm>, CoreError> {
    let per: Vec<c_int> = periods.iter().map(|&p| p as c_int).collect();
    let mut out = Comm::null();
    // SAFETY: dims and per hold dims.len() ints (checked equal by the caller).
    check(
        unsafe {
            sys::MPI_Cart_create(
                base.0,
                dims.len() as c_int,
                dims.as_ptr(),
                per.as_ptr(),
                reorder as c_int,
                &mut out.0,
            )
        },
        "MPI_Cart_create",
    )?;
    if out.is_null() {
        return Ok(None);
    }
    out.errors_return()?;
    Ok(Some(out))
}

/// `MPI_Cart_coords`.
pub fn cart_coords(comm: Comm, rank: i32, ndims: usize) -> Result<Vec<i32>, CoreError> {
    let mut c = vec![0 as c_int; ndims];
    // SAFETY: c holds ndims ints.
    check(
        unsafe { sys::MPI_Cart_coords(comm.0, rank, ndims as c_int, c.as_mut_ptr()) },
        "MPI_Cart_coords",
    )?;
    Ok(c)
}

/// `MPI_Cart_rank`.
pub fn cart_rank(comm: Comm, coords: &[i32]) -> Result<i32, CoreError> {
    let mut r: c_int = 0;
    // SAFETY: coords holds one int per grid dimension (checked by the caller).
    check(
        unsafe { sys::MPI_Cart_rank(comm.0, coords.as_ptr(), &mut r) },
        "MPI_Cart_rank",
    )?;
    Ok(r)
}

/// `MPI_Cart_shift`; `None` stands for `MPI_PROC_NULL`.
pub fn cart_shift(
    comm: Comm,
    dim: i32,
    disp: i32,
) -> Result<(Option<i32>, Option<i32>), CoreError> {
    let (mut s, mut d) = (0 as c_int, 0 as c_int);
    // SAFETY: valid communicator and out-pointers.
    check(
        unsafe { sys::MPI_Cart_shift(comm.0, dim, disp, &mut s, &mut d) },
        "MPI_Cart_shift",
    )?;
    // SAFETY: reading a constant exported by mpi-sys's C shim.
    let null = unsafe { sys::RSMPI_PROC_NULL };
    let f = |x: c_int| if x == null { None } else { Some(x) };
    Ok((f(s), f(d)))
}

/// `MPI_Cart_sub`.
pub fn cart_sub(comm: Comm, remain: &[bool]) -> Result<Comm, CoreError> {
    let rem: Vec<c_int> = remain.iter().map(|&r| r as c_int).collect();
    let mut out = Comm::null();
    // SAFETY: rem holds one int per grid dimension (checked by the caller).
    check(
        unsafe { sys::MPI_Cart_sub(comm.0, rem.as_ptr(), &mut out.0) },
        "MPI_Cart_sub",
    )?;
    out.errors_return()?;
    Ok(out)
}

/// The name of the processor (host) this process runs on.
pub fn processor_name() -> String {
    // SAFETY: reading a constant exported by mpi-sys's C shim.
    let max = unsafe { sys::RSMPI_MAX_PROCESSOR_NAME } as usize;
    let mut buf = vec![0 as c_char; max + 1];
    let mut len: c_int = 0;
    // SAFETY: buf holds MPI_MAX_PROCESSOR_NAME characters.
    let rc = unsafe { sys::MPI_Get_processor_name(buf.as_mut_ptr(), &mut len) };
    if rc != 0 {
        return String::from("unknown");
    }
    let bytes: Vec<u8> = buf[..len.max(0) as usize]
        .iter()
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod send_addr_tests {
    use super::send_addr;

    #[test]
    fn an_empty_send_buffer_is_never_taken_for_in_place() {
        // Open MPI's MPI_IN_PLACE is address 1, where empty byte slices point.
        let empty: Vec<u8> = Vec::new();
        assert_eq!(empty.as_ptr() as usize, 1);
        assert_ne!(send_addr(&empty) as usize, 1);
        let full = [7u8; 3];
        assert_eq!(send_addr(&full), full.as_ptr() as *const _);
    }
}
