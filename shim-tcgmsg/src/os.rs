//! The layer's edge to the operating system: C standard I/O, the nice
//! value and redirecting the standard streams (`LLOG`). With `ptr`, the
//! only modules of the crate with `unsafe`; MPI is the core's.

use std::os::raw::c_int;

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
