//! The crate's edge to the C library: POSIX shared-memory segments (create,
//! open, map, unlink), `malloc`/`free` (ARMCI_Malloc_local), file-system
//! statistics, process and user ids, and
//! fatal-signal handling, so the rest of the crate is safe code. MPI is not
//! called here: every MPI call goes through shim-core's API (`mpi`,
//! `collective`, `onesided`).

use std::ffi::{c_int, c_void, CString};

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

/// `malloc(len)` (at least one byte): the address, or 0 when out of memory.
pub fn c_malloc(len: usize) -> usize {
    // SAFETY: malloc has no preconditions; the result is checked by callers.
    unsafe { libc::malloc(len.max(1)) as usize }
}

/// `free` of an address from [`c_malloc`] that was not freed yet.
pub fn c_free(addr: usize) {
    // SAFETY: callers pass only addresses c_malloc returned and that they
    // have not freed (ARMCI keeps the list of them).
    unsafe { libc::free(addr as *mut c_void) }
}

/// A BLACS grid of `nprow`×`npcol` over the group communicator `comm`
/// for GA's linear algebra (ScaLAPACK calls MPI itself, on its own copy
/// of the communicator). Collective over `comm`.
pub fn blacs_grid(
    comm: shim_core::mpi::RawComm,
    nprow: usize,
    npcol: usize,
) -> Result<scalapack_calls::Grid, scalapack_calls::Illegal> {
    // SAFETY: `comm` is a live communicator of a GA processor group,
    // which shim-core keeps until the group is destroyed (not during a
    // collective call on it); every member asks for the same shape, which
    // the caller takes from the group's size.
    unsafe { scalapack_calls::Grid::new(comm.0.cast::<c_void>(), nprow, npcol) }
}
