//! PVM's fault model under `mpbridge run`. Under PVM a task may die
//! (killed, crashed, `exit` without `pvm_exit`) and the others go on and
//! are told. Open MPI ends the whole job when one process dies, unless its
//! recovery mode is on; so for a PVM program `mpbridge run` turns that mode
//! on. In that mode `mpiexec` exits with 0 however the processes ended, so
//! each process of the first launch leaves its exit status in a directory
//! (`MPBRIDGE_STATUS_DIR`, see shim-core's `exit_status`), and the job's
//! status is taken from there: the status of the lowest rank that failed,
//! 0 when none did.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The variable that names the status directory (shim-core reads it).
pub const STATUS_DIR_ENV: &str = "MPBRIDGE_STATUS_DIR";

/// Open MPI's switch that keeps a job running when a process dies.
pub const RECOVERY_ENV: &str = "OMPI_MCA_orte_enable_recovery";

/// Library names whose presence in a program means it calls PVM.
const PVM_LIBRARIES: [&[u8]; 3] = [b"libpvm3.so", b"libfpvm3.so", b"libgpvm3.so"];

/// Whether the program at `path` is linked against a PVM library.
pub fn is_pvm_program(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    PVM_LIBRARIES
        .iter()
        .any(|lib| bytes.windows(lib.len()).any(|w| w == *lib))
}

/// The variables a PVM job gets: recovery on, and where statuses go.
pub fn env(status_dir: &Path) -> Vec<(&'static str, OsString)> {
    vec![
        (RECOVERY_ENV, OsString::from("1")),
        (STATUS_DIR_ENV, status_dir.as_os_str().to_os_string()),
    ]
}

/// A fresh private directory for the statuses of one job.
pub fn make_status_dir() -> std::io::Result<PathBuf> {
    let base = std::env::temp_dir();
    for n in 0..100u32 {
        let dir = base.join(format!("mpbridge-status-{}-{n}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free status directory name"))
}

/// How a rank of the first launch ended, as its file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Status(i32),
    /// It left no status: it ended on a signal (or never started).
    Unknown,
}

/// Reads how ranks `0..ranks` ended.
pub fn read_statuses(dir: &Path, ranks: u32) -> Vec<Ended> {
    (0..ranks)
        .map(|r| {
            std::fs::read_to_string(dir.join(r.to_string()))
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .map_or(Ended::Unknown, Ended::Status)
        })
        .collect()
}

/// The job's exit status: `mpiexec`'s own when it failed, else the status
/// of the lowest rank that failed (1 for one that ended on a signal), else
/// 0. Also a line for each rank that failed.
pub fn job_status(mpiexec_status: i32, ended: &[Ended]) -> (u8, Vec<String>) {
    let mut lines = Vec::new();
    let mut status: Option<u8> = None;
    for (rank, e) in ended.iter().enumerate() {
        let code = match e {
            Ended::Status(0) => continue,
            Ended::Status(s) => {
                lines.push(format!("rank {rank} exited with status {s}"));
                (*s & 0xff) as u8
            }
            Ended::Unknown => {
                lines.push(format!(
                    "rank {rank} left no exit status (it ended on a signal)"
                ));
                1
            }
        };
        status.get_or_insert(code.max(1));
    }
    if mpiexec_status != 0 {
        return ((mpiexec_status & 0xff).max(1) as u8, lines);
    }
    (status.unwrap_or(0), lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_failed_rank_decides() {
        let e = [
            Ended::Status(0),
            Ended::Unknown,
            Ended::Status(3),
            Ended::Status(0),
        ];
        let (code, lines) = job_status(0, &e);
        assert_eq!(code, 1);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("rank 1"), "{lines:?}");
        let (code, _) = job_status(0, &[Ended::Status(0), Ended::Status(3)]);
        assert_eq!(code, 3);
    }

    #[test]
    fn all_zero_is_zero_and_mpiexec_failure_wins() {
        assert_eq!(job_status(0, &[Ended::Status(0); 3]).0, 0);
        assert_eq!(job_status(2, &[Ended::Status(0); 3]).0, 2);
        // A status that is a multiple of 256 still reads as a failure.
        assert_eq!(job_status(0, &[Ended::Status(256)]).0, 1);
    }

    #[test]
    fn statuses_are_read_from_rank_files() {
        let dir = make_status_dir().expect("status dir");
        std::fs::write(dir.join("0"), "0\n").unwrap();
        std::fs::write(dir.join("2"), "7\n").unwrap();
        let got = read_statuses(&dir, 3);
        assert_eq!(got, [Ended::Status(0), Ended::Unknown, Ended::Status(7)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pvm_programs_are_told_by_their_libraries() {
        let dir = make_status_dir().expect("dir");
        let pvm = dir.join("pvm");
        let plain = dir.join("plain");
        std::fs::write(&pvm, b"\x7fELF....libpvm3.so.3\0...").unwrap();
        std::fs::write(&plain, b"\x7fELF....libmpi.so.40\0...").unwrap();
        assert!(is_pvm_program(&pvm));
        assert!(!is_pvm_program(&plain));
        assert!(!is_pvm_program(&dir.join("missing")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
