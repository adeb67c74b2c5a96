//! A blocked receive's view of the one ring that can bring its message,
//! read without the engine, and of where its sender last waited: each
//! process publishes in its inbox the CPU it runs on while it waits, so a
//! waiter can tell whether spinning would keep its sender off the core.

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
    /// This process's inbox.
    own: Arc<Region>,
}

impl Watch {
    pub(super) fn new(ring: RingWatch, sender: Option<Arc<Region>>, own: Arc<Region>) -> Watch {
        Watch { ring, sender, own }
    }
}

impl Turns for Watch {
    #[inline]
    fn ready(&self) -> bool {
        self.ring.ready()
    }

    /// Publishes the CPU this process runs on now, and tells whether the
    /// sender last waited on the same one; `false` when either is not
    /// known.
    fn sender_here(&self) -> bool {
        let Some(cpu) = current_cpu() else {
            return false;
        };
        let mine = self.own.u32_at(OFF_RUNS_ON);
        if mine.load(Ordering::Relaxed) != cpu {
            mine.store(cpu, Ordering::Relaxed);
        }
        self.sender
            .as_ref()
            .is_some_and(|s| s.u32_at(OFF_RUNS_ON).load(Ordering::Relaxed) == cpu)
    }
}
