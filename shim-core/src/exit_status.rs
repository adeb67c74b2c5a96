//! Leaves the exit status of a process of the first launch where the
//! launcher reads it. Under Open MPI's recovery mode, which keeps a job
//! running when one of its processes dies (PVM's fault model), `mpiexec`
//! exits with 0 however its processes ended; `mpbridge run` then sets
//! `MPBRIDGE_STATUS_DIR`, and each process of the first launch writes its
//! status into the file named after its rank there. A process that leaves
//! no file ended on a signal.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The variable naming the directory (set by `mpbridge run`).
pub const STATUS_DIR_ENV: &str = "MPBRIDGE_STATUS_DIR";

/// Where this process writes its status, once it is known to be asked.
static STATUS_FILE: OnceLock<PathBuf> = OnceLock::new();

/// The status this process is ending with, once an exit began.
static ENDING_WITH: OnceLock<i32> = OnceLock::new();

/// Arranges for the exit status to be kept when the process exits, and
/// written for world rank `rank` (a process of the first launch) when the
/// launcher asked for it.
pub(crate) fn watch_exit(rank: Option<i32>) {
    if let (Some(rank), Some(dir)) = (rank, std::env::var_os(STATUS_DIR_ENV)) {
        let _ = STATUS_FILE.set(PathBuf::from(dir).join(rank.to_string()));
    }
    crate::mpi::at_exit_with_status(write_at_exit);
}

extern "C" fn write_at_exit(status: std::ffi::c_int, _: *mut std::ffi::c_void) {
    record(status);
}

/// Writes `status` as this process's exit status (for exits that bypass
/// the C exit handlers and end with a status of their own choosing).
pub fn record(status: i32) {
    let _ = ENDING_WITH.set(status);
    let _ = std::panic::catch_unwind(|| {
        if let Some(path) = STATUS_FILE.get() {
            let _ = std::fs::write(path, format!("{status}\n"));
        }
    });
}

/// The status recorded by [`record`], if an exit began.
pub fn recorded() -> Option<i32> {
    ENDING_WITH.get().copied()
}
