//! A blocked receive's view of the one ring that can bring its message,
//! read without the engine, and of where its sender runs: a sender notes
//! in the ring's slot the CPU it last wrote from, so a waiter can tell
//! whether spinning would keep its sender off the core.

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
    /// This process's inbox, which holds the ring's slot.
    inbox: Arc<Region>,
    /// Where in it the sender notes the CPU it last wrote from.
    sent_from: usize,
}

impl Watch {
    pub(super) fn new(ring: RingWatch, inbox: Arc<Region>, sent_from: usize) -> Watch {
        Watch {
            ring,
            inbox,
            sent_from,
        }
    }
}

impl Turns for Watch {
    #[inline]
    fn ready(&self) -> bool {
        self.ring.ready()
    }

    /// Whether the sender last wrote to the ring from the CPU this
    /// process runs on now; `false` when either is not known.
    fn sender_here(&self) -> bool {
        let Some(cpu) = current_cpu() else {
            return false;
        };
        self.inbox.u32_at(self.sent_from).load(Ordering::Relaxed) == cpu
    }
}
