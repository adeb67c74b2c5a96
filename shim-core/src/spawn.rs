//! Starting processes (`MPI_Comm_spawn`) and giving each child its own
//! link to the parent, so every child can later disconnect on its own;
//! batch numbers, granted by the registry and returned by the spawner once
//! every process of the batch has disconnected, so they are reused; where
//! a spawn goes (`host`); and the word a spawning layer hands its children
//! before their first call returns (`note`).

use crate::backoff::Backoff;
use crate::control::{Body as CtlBody, NO_BATCH};
use crate::engine::Engine;
use crate::error::{CoreError, CoreResult};
use crate::lifecycle::child_hello;
use crate::mpi::{self, Root};
use crate::procid::{ProcId, MAX_BATCH};

/// The outcome for one requested process.
pub type SpawnSlot = Result<ProcId, String>;

/// How to start processes, beyond what and how many.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpawnOptions {
    /// Start them on this host (a name MPI knows, e.g. a rank's processor
    /// name); `None`: wherever MPI places them.
    pub host: Option<String>,
    /// A word the children can read with [`spawn_note`] as soon as the
    /// backend has started in them (a layer's inherited setting).
    pub note: u32,
}

/// The note this process's spawner passed (see [`SpawnOptions::note`]);
/// `None` in a process that was not spawned.
static NOTE: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// Records the note a spawned process received from its parent.
pub(crate) fn set_note(note: u32) {
    let _ = NOTE.set(note);
}

/// The note from this process's spawner, once the backend has started;
/// `None` if it was not spawned.
pub fn spawn_note() -> Option<u32> {
    NOTE.get().copied()
}

/// Batches this process spawned whose processes may still run, with their
/// ids; a batch leaves the list (and its number goes back to the registry)
/// once this process has no link left to any of them.
static SPAWNED: crate::Lock<Vec<(u16, Vec<ProcId>)>> = crate::Lock::new(Vec::new());

impl Engine {
    /// The registry picks a batch number for a spawner reached along `path`:
    /// the first free one from where the last search stopped, so a number
    /// comes back only after the others were used (as PVM reuses tids).
    /// [`NO_BATCH`] when every number belongs to live processes.
    pub(crate) fn grant_batch(&mut self, path: Vec<ProcId>) -> u16 {
        let span = MAX_BATCH as u32;
        let start = (self.next_batch.clamp(1, MAX_BATCH) - 1) as u32;
        for k in 0..span {
            let b = ((start + k) % span + 1) as u16;
            if let std::collections::hash_map::Entry::Vacant(slot) = self.batch_paths.entry(b) {
                slot.insert(path);
                self.next_batch = if b == MAX_BATCH { 1 } else { b + 1 };
                return b;
            }
        }
        NO_BATCH
    }

    /// A fresh batch number from the registry; an error at once when none
    /// is free. Batches whose processes are all gone are returned first.
    fn alloc_batch(&mut self) -> CoreResult<u16> {
        self.release_finished_batches()?;
        let request = self.next_request;
        self.next_request = self.next_request.wrapping_add(1);
        self.send_to_root(CtlBody::AllocBatch { request })?;
        let mut backoff = Backoff::new();
        // The registry always answers; the deadline only guards against a
        // registry that stopped making progress.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            match self.granted.remove(&request) {
                Some(NO_BATCH) => {
                    return Err(CoreError::Spawn(format!(
                        "all {MAX_BATCH} spawn numbers belong to running processes"
                    )))
                }
                Some(b) => return Ok(b),
                None => {}
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

    /// Gives the registry back the numbers of batches this process spawned
    /// whose processes have all disconnected.
    pub(crate) fn release_finished_batches(&mut self) -> CoreResult<()> {
        let done: Vec<u16> = {
            let mut spawned = SPAWNED.lock();
            let mut done = Vec::new();
            spawned.retain(|(b, ids)| {
                let live = ids.iter().any(|id| self.routes.contains_key(id));
                if !live {
                    done.push(*b);
                }
                live
            });
            done
        };
        for batch in done {
            self.send_to_root(CtlBody::BatchDone { batch })?;
        }
        Ok(())
    }

    /// Reserves a batch number without starting processes (for tools and
    /// tests of the registry); [`Engine::release_batch`] gives it back.
    pub(crate) fn reserve_batch(&mut self) -> CoreResult<u16> {
        self.alloc_batch()
    }

    /// Gives back a number from [`Engine::reserve_batch`].
    pub(crate) fn release_batch(&mut self, batch: u16) -> CoreResult<()> {
        if batch == 0 || batch > MAX_BATCH {
            return Err(CoreError::InvalidArgument(format!("no batch {batch}")));
        }
        self.send_to_root(CtlBody::BatchDone { batch })
    }

    /// Starts `count` copies of `command`; one slot per requested process.
    pub fn spawn(
        &mut self,
        command: &str,
        args: &[String],
        count: i32,
        options: &SpawnOptions,
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
        let mut info: Vec<(&str, &str)> = Vec::new();
        if let Some(h) = &options.host {
            info.push(("host", h));
        }
        let (inter, errcodes) = match mpi::spawn(&path.to_string_lossy(), args, count, &info) {
            Ok(r) => r,
            Err(e) => {
                // Nothing started: the number goes straight back.
                self.send_to_root(CtlBody::BatchDone { batch })?;
                return Err(e);
            }
        };
        let started = inter.remote_size()?;
        let mut hello = child_hello(batch, self.me, options.note);
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
            // An earlier process with this id (a finished batch whose number
            // came back) is forgotten.
            self.unreachable.remove(&id);
            self.add_link(comms[next], vec![id])?;
            next += 1;
            slots.push(Ok(id));
        }
        let ids: Vec<ProcId> = slots
            .iter()
            .filter_map(|s| s.as_ref().ok().copied())
            .collect();
        if ids.is_empty() {
            self.send_to_root(CtlBody::BatchDone { batch })?;
        } else {
            SPAWNED.lock().push((batch, ids));
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
