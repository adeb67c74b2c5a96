//! Whether a process on another node still runs. A process on this node
//! is looked up by its process id; one elsewhere cannot be. So when the
//! launcher gives the job a directory every node sees
//! (`MPBRIDGE_JOB_DIR`), each process, as it joins, creates a file there
//! named by its node and process id and holds a write lock on it for the
//! rest of its life. The kernel drops the lock when the process ends,
//! however it ends (killed, crashed, exited), so a peer elsewhere that
//! finds the file unlocked knows the process is gone. Without the
//! directory, or for a process whose file is not there, a peer on another
//! node counts as running, as before.
//!
//! The lock calls make this file an edge to the C library: its `unsafe`
//! is in `lock` alone, which calls `fcntl` on a zeroed `flock`.

use std::path::{Path, PathBuf};

/// The variable naming the job's shared directory (set by `mpbridge run
/// --cluster` and `mpbridge ensemble run --cluster`).
pub const JOB_DIR_ENV: &str = "MPBRIDGE_JOB_DIR";

/// The job's shared directory, if the launcher gave one that exists.
pub fn job_dir() -> Option<PathBuf> {
    std::env::var_os(JOB_DIR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|d| d.is_dir())
}

/// The file that shows process `pid` of node `node` runs.
fn life_file(dir: &Path, node: u64, pid: u32) -> PathBuf {
    dir.join(format!("alive-{node:016x}-{pid}"))
}

/// The open, locked file of this process (kept open for its whole life).
static HELD: std::sync::OnceLock<std::fs::File> = std::sync::OnceLock::new();

/// Creates and locks this process's file in the job directory, once; does
/// nothing without the directory. Must run before this process's node and
/// process id are given to any peer.
pub(crate) fn register() {
    if HELD.get().is_some() {
        return;
    }
    let Some(dir) = job_dir() else {
        return;
    };
    let path = life_file(&dir, crate::shm::host_key(), std::process::id());
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(target: "core", "cannot create {}: {e}", path.display());
            return;
        }
    };
    match lock(&file, libc::F_SETLK) {
        Ok(_) => {
            let _ = HELD.set(file);
        }
        Err(e) => {
            tracing::warn!(target: "core", "cannot lock {}: {e}", path.display());
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Whether process `pid` of node `node` (not this node) is known to have
/// ended: its file in the job directory is there and nobody holds its
/// lock.
pub(crate) fn ended_elsewhere(node: u64, pid: u32) -> bool {
    let Some(dir) = job_dir() else {
        return false;
    };
    unlocked(&life_file(&dir, node, pid))
}

/// Whether `path` exists and no process holds a lock on it.
fn unlocked(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    matches!(lock(&file, libc::F_GETLK), Ok(false))
}

/// A write lock over the whole of `file`: with `F_SETLK` takes it
/// (`Ok(true)`); with `F_GETLK` asks whether another process holds one
/// (`Ok(true)` when it does).
fn lock(file: &std::fs::File, cmd: libc::c_int) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: an all-zero `flock` is a valid value of this plain C struct.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = libc::F_WRLCK as libc::c_short;
    fl.l_whence = libc::SEEK_SET as libc::c_short;
    // SAFETY: `file` is an open descriptor and `fl` a valid, writable
    // `flock` for the duration of the call.
    let rc = unsafe { libc::fcntl(file.as_raw_fd(), cmd, &mut fl) };
    if rc == -1 {
        return Err(std::io::Error::last_os_error());
    }
    if cmd == libc::F_GETLK {
        return Ok(fl.l_type != libc::F_UNLCK as libc::c_short);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// The variable that makes [`holder`] hold a lock (only in the child
    /// process the other test starts).
    const HOLD: &str = "MPB_LIVENESS_TEST_HOLD";

    /// In a child process: locks the file `HOLD` names, says so by making
    /// a second file, and sleeps until killed.
    #[test]
    fn holder() {
        let Some(path) = std::env::var_os(HOLD) else {
            return;
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        assert!(lock(&file, libc::F_SETLK).unwrap());
        let mut ready = PathBuf::from(&path);
        ready.set_extension("ready");
        std::fs::write(ready, "").unwrap();
        std::thread::sleep(Duration::from_secs(60));
    }

    #[test]
    fn a_file_is_unlocked_once_its_holder_is_killed() {
        let dir = std::env::temp_dir().join(format!("mpb-liveness-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = life_file(&dir, 7, 4242);
        // No file: nothing is known, so nothing is reported gone.
        assert!(!unlocked(&path));
        std::fs::write(&path, "").unwrap();
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["liveness::tests::holder", "--exact", "--nocapture"])
            .env(HOLD, &path)
            .spawn()
            .unwrap();
        let ready = path.with_extension("ready");
        let until = Instant::now() + Duration::from_secs(20);
        while !ready.exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        let held = !unlocked(&path);
        child.kill().unwrap();
        child.wait().unwrap();
        let after = unlocked(&path);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(held, "the holder's lock is seen while it runs");
        assert!(after, "the lock is gone with the holder");
    }
}
