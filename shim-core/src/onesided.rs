//! One-sided MPI: a shared 64-bit counter that one rank of a communicator
//! holds in an MPI window and every rank adds to atomically
//! (`MPI_Fetch_and_op`), without the holder taking part. Layers use it for
//! a job-wide "next task" counter when no server process keeps one (GA's
//! TCGMSG NXTVAL without a `ga-server`). A file of the MPI edge beside
//! `mpi` and `collective`: every MPI call here checks its return code and
//! reports the call's name.

use crate::error::CoreError;
use crate::mpi::{check, Comm};
use mpi_sys as sys;
use std::os::raw::{c_int, c_void};

/// A 64-bit counter on rank `owner` of a communicator, starting at 0.
///
/// The window stays in a shared passive-target epoch from creation on. It
/// is never freed: freeing is collective, and processes leave at different
/// times; MPI releases it at finalize. [`close`](Self::close) ends this
/// process's access epoch when it takes no further part.
pub struct SharedCounter {
    win: sys::MPI_Win,
    owner: i32,
    open: bool,
}

// SAFETY: the window handle is an opaque identifier that MPI (initialised
// with thread support) lets any thread use; the counter's owner serialises
// its use (`&mut` for `close`, and layers keep it behind their lock).
unsafe impl Send for SharedCounter {}

impl SharedCounter {
    /// Makes the counter on rank `owner` of `comm` (collective over `comm`);
    /// it reads 0 on every rank once this returns.
    pub fn create(comm: Comm, owner: i32) -> Result<SharedCounter, CoreError> {
        let size = comm.size()?;
        if owner < 0 || owner >= size {
            return Err(CoreError::InvalidArgument(format!(
                "counter owner {owner} outside a communicator of {size}"
            )));
        }
        let mine = comm.rank()? == owner;
        let mut base: *mut i64 = std::ptr::null_mut();
        // SAFETY: reading a handle constant exported by mpi-sys's C shim.
        let mut win = unsafe { sys::RSMPI_WIN_NULL };
        // SAFETY: valid communicator; `base` and `win` are out-pointers that
        // live through the call; the owner asks for one i64, aligned for it.
        check(
            unsafe {
                sys::MPI_Win_allocate(
                    if mine { 8 } else { 0 },
                    8,
                    sys::RSMPI_INFO_NULL,
                    comm.raw(),
                    &mut base as *mut *mut i64 as *mut c_void,
                    &mut win,
                )
            },
            "MPI_Win_allocate",
        )?;
        // SAFETY: `win` was just created on this communicator.
        check(
            unsafe { sys::MPI_Win_lock_all(sys::MPI_MODE_NOCHECK as c_int, win) },
            "MPI_Win_lock_all",
        )?;
        if mine && !base.is_null() {
            // SAFETY: MPI gave the owner 8 bytes aligned for i64 at `base`;
            // nobody accesses the counter before the barrier below.
            unsafe { base.write(0) };
            // SAFETY: a valid window inside its access epoch.
            check(unsafe { sys::MPI_Win_sync(win) }, "MPI_Win_sync")?;
        }
        comm.barrier()?;
        Ok(SharedCounter {
            win,
            owner,
            open: true,
        })
    }

    /// Adds `inc` atomically; returns the value before the addition.
    pub fn fetch_add(&self, inc: i64) -> Result<i64, CoreError> {
        if !self.open {
            return Err(CoreError::InvalidArgument(
                "the shared counter was closed in this process".into(),
            ));
        }
        let mut old: i64 = 0;
        // SAFETY: both buffers hold one i64 for the call; the window is in
        // its passive-target epoch; the flush below completes the operation.
        check(
            unsafe {
                sys::MPI_Fetch_and_op(
                    &inc as *const i64 as *const c_void,
                    &mut old as *mut i64 as *mut c_void,
                    sys::RSMPI_INT64_T,
                    self.owner,
                    0,
                    sys::RSMPI_SUM,
                    self.win,
                )
            },
            "MPI_Fetch_and_op",
        )?;
        // SAFETY: a valid window and target rank.
        check(
            unsafe { sys::MPI_Win_flush(self.owner, self.win) },
            "MPI_Win_flush",
        )?;
        Ok(old)
    }

    /// Ends this process's access epoch: it takes no further part (later
    /// additions from this process are errors). Once only; errors are of no
    /// use to a leaving process.
    pub fn close(&mut self) {
        if !self.open || crate::mpi::is_finalized() {
            return;
        }
        self.open = false;
        // SAFETY: a valid window in the epoch opened at creation, closed once.
        unsafe { sys::MPI_Win_unlock_all(self.win) };
    }
}
