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
        // MPI implementations handle a missing or unrunnable executable
        // badly (Open MPI aborts the whole job), so it is checked here first.
        let Some(path) = find_executable(command) else {
            let why = format!("no executable '{command}' (searched PATH)");
            tracing::info!(target: "core", "spawn refused: {why}");
            return Ok((0..count).map(|_| Err(why.clone())).collect());
        };
        let kind = match program_kind(&path) {
            Ok(k) => k,
            Err(why) => return Ok((0..count).map(|_| Err(why.clone())).collect()),
        };
        let batch = self.alloc_batch()?;
        let mut info: Vec<(&str, &str)> = Vec::new();
        if let Some(h) = &options.host {
            info.push(("host", h));
        }
        if kind == ProgramKind::Plain {
            info.push(("ompi_non_mpi", "true"));
        }
        let mut program = path.to_string_lossy().into_owned();
        let mut argv = args.to_vec();
        if kind == ProgramKind::Plain {
            // Open MPI ends the whole job when a spawned process exits with
            // a non-zero status; PVM only reports that a task exited. A
            // plain program runs under a shell that always exits with 0.
            argv = [PLAIN_WRAPPER.to_string(), program]
                .into_iter()
                .chain(argv)
                .collect();
            argv.insert(0, "-c".into());
            program = "/bin/sh".into();
        }
        tracing::debug!(
            target: "core",
            program = %path.display(),
            count,
            batch,
            plain = (kind == ProgramKind::Plain),
            "spawning"
        );
        let (inter, errcodes) = match mpi::spawn(&program, &argv, count, &info) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(target: "core", "MPI_Comm_spawn failed: {e}");
                // Nothing started: the number goes straight back.
                self.send_to_root(CtlBody::BatchDone { batch })?;
                return Err(e);
            }
        };
        if kind == ProgramKind::Plain {
            return self.started_plain(batch, &errcodes);
        }
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

impl Engine {
    /// A program that never joins MPI was started: its processes get ids
    /// (one per started slot) but no link, so they count as gone at once
    /// (messages to them are dropped, an exit watch answers immediately)
    /// and the batch number goes straight back to the registry.
    fn started_plain(&mut self, batch: u16, errcodes: &[i32]) -> CoreResult<Vec<SpawnSlot>> {
        let mut slots = Vec::with_capacity(errcodes.len());
        for (k, code) in errcodes.iter().enumerate() {
            if *code != 0 {
                slots.push(Err(mpi::error_string(*code)));
                continue;
            }
            let id = ProcId::new(batch, k as u32)
                .ok_or_else(|| CoreError::Spawn("child id out of range".into()))?;
            self.routes.remove(&id);
            self.unreachable.insert(id);
            slots.push(Ok(id));
        }
        self.send_to_root(CtlBody::BatchDone { batch })?;
        Ok(slots)
    }
}

/// What a program file is, as far as starting it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramKind {
    /// It uses MPI (it names an MPI or mpbridge library), or it is a script
    /// that may start one: it joins the spawner's MPI job.
    Mpi,
    /// A dynamically linked program of this machine that names no MPI or
    /// mpbridge library: it runs, but never joins MPI.
    Plain,
}

/// The shell command that runs a plain program (`$0`, with its arguments)
/// and exits with 0 whatever the program's status.
const PLAIN_WRAPPER: &str = "\"$0\" \"$@\"; exit 0";

/// Libraries whose name in a program means it joins MPI.
const MPI_LIBRARIES: [&[u8]; 9] = [
    b"libmpi",
    b"libmpbridge",
    b"libpvm3",
    b"libgpvm3",
    b"libfpvm3",
    b"libtcgmsg",
    b"libexpress",
    b"libga.so",
    b"libpvm_shim",
];

/// Whether `path` can be executed here and whether it joins MPI. An ELF
/// file must be for this machine (class, byte order and machine as this
/// process's own executable); a `#!` script must name an interpreter that
/// exists and is executable; anything else cannot be executed. The error
/// says why.
pub fn program_kind(path: &std::path::Path) -> Result<ProgramKind, String> {
    use std::io::Read;
    let shown = path.display();
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| format!("cannot read '{shown}': {e}"))?;
    let head = &head[..n];
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let interp = text.split_whitespace().next().unwrap_or("");
        let runnable = !interp.is_empty()
            && find_executable(interp).is_some_and(|p| p == std::path::Path::new(interp));
        if !runnable {
            return Err(format!(
                "'{shown}' names an interpreter that cannot be run: '{interp}'"
            ));
        }
        return Ok(ProgramKind::Mpi);
    }
    if !head.starts_with(b"\x7fELF") || head.len() < 20 {
        return Err(format!("'{shown}' is neither a program nor a script"));
    }
    let mut own = [0u8; 20];
    let own_ok = std::fs::File::open("/proc/self/exe")
        .and_then(|mut f| f.read_exact(&mut own))
        .is_ok();
    // Class (byte 4), byte order (5) and machine (18..20).
    let same_machine = |a: &[u8], b: &[u8]| a[4] == b[4] && a[5] == b[5] && a[18..20] == b[18..20];
    if own_ok && !same_machine(head, &own) {
        return Err(format!("'{shown}' is a program for another machine"));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    let names_mpi = MPI_LIBRARIES
        .iter()
        .any(|lib| bytes.windows(lib.len()).any(|w| w == *lib));
    // A program with no dynamic loader named is static: assumed to use MPI.
    let dynamic = bytes.windows(6).any(|w| w == b"ld-lin" || w == b"ld.so.");
    Ok(if names_mpi || !dynamic {
        ProgramKind::Mpi
    } else {
        ProgramKind::Plain
    })
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

    #[test]
    fn tells_programs_scripts_and_junk_apart() {
        use super::{program_kind, ProgramKind};
        let dir = std::env::temp_dir();
        let file = |name: &str, body: &[u8]| {
            let p = dir.join(format!("mpbridge-kind-{name}-{}", std::process::id()));
            std::fs::write(&p, body).unwrap();
            p
        };
        let junk = file("junk", &[0x13, 0x99, 0x00, 0x42, 0x7f, 0x45]);
        let bad = file("bad", b"#!/nonexistent/interpreter\necho hi\n");
        let good = file("good", b"#!/bin/sh\necho hi\n");
        let empty = file("empty", b"");
        assert!(program_kind(&junk).is_err());
        assert!(program_kind(&bad)
            .unwrap_err()
            .contains("/nonexistent/interpreter"));
        assert_eq!(program_kind(&good), Ok(ProgramKind::Mpi));
        assert!(program_kind(&empty).is_err());
        assert_eq!(
            program_kind(std::path::Path::new("/bin/false")),
            Ok(ProgramKind::Plain)
        );
        let me = std::env::current_exe().unwrap();
        assert!(program_kind(&me).is_ok());
        for p in [junk, bad, good, empty] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
