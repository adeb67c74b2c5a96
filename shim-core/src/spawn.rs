//! Starting processes (`MPI_Comm_spawn`) and giving each child its own
//! link to the parent, so every child can later disconnect on its own.

use crate::backoff::Backoff;
use crate::control::Body as CtlBody;
use crate::engine::Engine;
use crate::error::{CoreError, CoreResult};
use crate::lifecycle::child_hello;
use crate::mpi::{self, Root};
use crate::procid::ProcId;

/// The outcome for one requested process.
pub type SpawnSlot = Result<ProcId, String>;

impl Engine {
    /// A fresh batch number from the registry.
    fn alloc_batch(&mut self) -> CoreResult<u16> {
        let request = self.next_request;
        self.next_request += 1;
        self.send_to_root(CtlBody::AllocBatch { request })?;
        let mut backoff = Backoff::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            if let Some(b) = self.granted.remove(&request) {
                return Ok(b);
            }
            if std::time::Instant::now() > deadline {
                return Err(CoreError::Spawn(
                    "the registry (rank 0 of the first batch) did not answer within 120 s".into(),
                ));
            }
            if self.progress(None)? > 0 {
                backoff.reset();
            }
            backoff.pause();
        }
    }

    /// Starts `count` copies of `command`; one slot per requested process.
    pub fn spawn(
        &mut self,
        command: &str,
        args: &[String],
        count: i32,
    ) -> CoreResult<Vec<SpawnSlot>> {
        if count < 1 || count as u32 > crate::procid::MAX_RANK {
            return Err(CoreError::InvalidArgument(format!(
                "cannot start {count} processes"
            )));
        }
        // MPI implementations handle a missing executable badly (some abort
        // the caller, some hang), so it is found here first.
        let Some(path) = find_executable(command) else {
            let why = format!("no executable '{command}' (searched PATH)");
            return Ok((0..count).map(|_| Err(why.clone())).collect());
        };
        let batch = self.alloc_batch()?;
        let (inter, errcodes) = mpi::spawn(&path.to_string_lossy(), args, count)?;
        let started = inter.remote_size()?;
        let mut hello = child_hello(batch, self.me);
        inter.bcast(&mut hello, Root::Sender)?;
        let mut comms = Vec::with_capacity(started as usize);
        for _ in 0..started {
            let c = inter
                .split(Some(0), 0)?
                .ok_or_else(|| CoreError::Spawn("no link to a child".into()))?;
            comms.push(c);
        }
        inter.disconnect()?;
        let mut slots = Vec::with_capacity(count as usize);
        let mut next = 0usize;
        for (k, code) in errcodes.iter().enumerate() {
            if *code != 0 || next >= comms.len() {
                slots.push(Err(mpi::error_string(*code)));
                continue;
            }
            let id = ProcId::new(batch, k as u32)
                .ok_or_else(|| CoreError::Spawn("child id out of range".into()))?;
            self.add_link(comms[next], vec![id])?;
            next += 1;
            slots.push(Ok(id));
        }
        Ok(slots)
    }
}

/// Resolves `command` like a shell: a name with a `/` is taken as a path,
/// other names are searched on `PATH`. Only executable regular files count.
pub fn find_executable(command: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let ok = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if command.is_empty() {
        return None;
    }
    if command.contains('/') {
        let p = std::path::PathBuf::from(command);
        return ok(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(command))
        .find(|p| ok(p))
}

#[cfg(test)]
mod tests {
    use super::find_executable;

    #[test]
    fn finds_programs_like_a_shell() {
        assert!(find_executable("sh").is_some(), "sh is on PATH");
        assert!(find_executable("/bin/sh").is_some());
        assert!(find_executable("/nonexistent/prog").is_none());
        assert!(find_executable("no-such-program-anywhere-xyz").is_none());
        let plain = std::env::temp_dir().join(format!("mpbridge-plain-{}", std::process::id()));
        std::fs::write(&plain, "not a program").unwrap();
        let found = find_executable(plain.to_str().unwrap());
        std::fs::remove_file(&plain).unwrap();
        assert!(found.is_none(), "a file without execute permission");
        assert!(find_executable("/tmp").is_none(), "a directory");
        assert!(find_executable("").is_none());
    }
}
