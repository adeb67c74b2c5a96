//! A blocked receive's view of the one ring that can bring its message,
//! read without the engine, and of where the processes of the node run:
//! each process publishes in its inbox the CPU it last waited on and,
//! while it waits on one sender, that sender's process id. A waiter can
//! then tell whether spinning would keep its sender, or another process
//! with work to do, off the core.

use super::inbox::OFF_RUNS_ON;
use super::mem::{current_cpu, Region};
use super::ring::RingWatch;
use crate::backoff::Turns;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// What a waiter looks at between its turns (see
/// [`Channels::watch_from`](super::Channels::watch_from)).
#[derive(Debug)]
pub(crate) struct Watch {
    ring: RingWatch,
    /// The sender's inbox, when this process has a ring into it.
    sender: Option<Arc<Region>>,
    sender_pid: u32,
    /// This process's inbox.
    own: Arc<Region>,
    own_pid: u32,
    /// The inboxes of the other processes of the node this one writes to.
    mates: Arc<[Arc<Region>]>,
}

/// The published word: the CPU plus one in the low half (0: not known),
/// the awaited sender's process id in the high half (0: not waiting on
/// one sender).
fn word(cpu: u32, awaited: u32) -> u64 {
    (awaited as u64) << 32 | cpu as u64
}

impl Watch {
    pub(super) fn new(
        ring: RingWatch,
        sender: Option<(Arc<Region>, u32)>,
        (own, own_pid): (Arc<Region>, u32),
        mates: Arc<[Arc<Region>]>,
    ) -> Watch {
        let (sender, sender_pid) = match sender {
            Some((r, pid)) => (Some(r), pid),
            None => (None, 0),
        };
        Watch {
            ring,
            sender,
            sender_pid,
            own,
            own_pid,
            mates,
        }
    }

    /// Publishes that this process waits for its sender on the CPU it
    /// runs on now, and returns that CPU (plus one).
    fn publish(&self) -> Option<u32> {
        let cpu = current_cpu()?;
        let w = word(cpu, self.sender_pid);
        let mine = self.own.u64_at(OFF_RUNS_ON);
        if mine.load(Ordering::Relaxed) != w {
            mine.store(w, Ordering::Relaxed);
        }
        Some(cpu)
    }
}

impl Turns for Watch {
    #[inline]
    fn ready(&self) -> bool {
        self.ring.ready()
    }

    /// Whether the sender last ran on this process's CPU (then it can
    /// only run once this process gives the core away); `false` when
    /// either is not known.
    fn sender_here(&self) -> bool {
        let Some(cpu) = self.publish() else {
            return false;
        };
        self.sender
            .as_ref()
            .is_some_and(|s| s.u64_at(OFF_RUNS_ON).load(Ordering::Relaxed) as u32 == cpu)
    }

    /// Whether another process of the node last ran on this CPU and does
    /// not just wait for this one: it may have work to do. One that never
    /// published a CPU is not seen (the scheduler still preempts for it).
    fn core_wanted(&self) -> bool {
        let Some(cpu) = current_cpu() else {
            return true;
        };
        self.mates.iter().any(|m| {
            let w = m.u64_at(OFF_RUNS_ON).load(Ordering::Relaxed);
            w as u32 == cpu && (w >> 32) as u32 != self.own_pid
        })
    }
}

impl Drop for Watch {
    /// The wait is over (or pauses for a full step): this process runs,
    /// on the CPU it last published.
    fn drop(&mut self) {
        let mine = self.own.u64_at(OFF_RUNS_ON);
        let w = mine.load(Ordering::Relaxed);
        if w >> 32 != 0 {
            mine.store(w & u32::MAX as u64, Ordering::Relaxed);
        }
    }
}
