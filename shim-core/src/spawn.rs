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
        self.to_root(CtlBody::AllocBatch { request })?;
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
    pub fn spawn(&mut self, command: &str, args: &[String], count: i32) -> CoreResult<Vec<SpawnSlot>> {
        if count < 1 || count as u32 > crate::procid::MAX_RANK {
            return Err(CoreError::InvalidArgument(format!(
                "cannot start {count} processes"
            )));
        }
        let batch = self.alloc_batch()?;
        let (inter, errcodes) = mpi::spawn(command, args, count)?;
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
