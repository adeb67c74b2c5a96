//! The per-context queue of arrived messages and the matching rules.
//!
//! Messages are kept in arrival order; a receive takes the first one that
//! matches, so two messages from one sender are never reordered and a
//! wildcard receive sees the earliest arrival first.

use crate::procid::ProcId;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Messages waiting in all queues of this process together (changed only
/// when a message is queued or taken, which the fast paths never do).
static QUEUED: AtomicUsize = AtomicUsize::new(0);

/// Whether any queue of this process may hold a message: a receive that
/// finds none need not look its own queue up.
#[inline]
pub fn any_queued() -> bool {
    QUEUED.load(Ordering::Relaxed) != 0
}

/// One arrived message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Sender.
    pub source: ProcId,
    /// User tag.
    pub tag: i32,
    /// Layer encoding.
    pub encoding: u32,
    /// Payload.
    pub data: Vec<u8>,
}

/// What a receive asks for: `None` fields are wildcards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Match {
    /// Wanted sender.
    pub source: Option<ProcId>,
    /// Wanted tag.
    pub tag: Option<i32>,
    /// Wanted encoding bits, as (mask, value): a layer that keeps its own
    /// sub-contexts in the encoding word matches them here. Mask 0 accepts all.
    pub encoding: (u32, u32),
}

impl Match {
    /// A pattern on sender and tag only.
    pub fn new(source: Option<ProcId>, tag: Option<i32>) -> Match {
        Match {
            source,
            tag,
            encoding: (0, 0),
        }
    }

    /// Whether a message from `source` with `tag` and `encoding` fits.
    pub fn accepts(&self, source: ProcId, tag: i32, encoding: u32) -> bool {
        self.source.is_none_or(|s| s == source)
            && self.tag.is_none_or(|t| t == tag)
            && encoding & self.encoding.0 == self.encoding.1
    }
}

/// Arrived, not yet received messages of one context.
#[derive(Debug, Default)]
pub struct MatchQueue {
    items: VecDeque<Message>,
}

impl MatchQueue {
    /// Appends an arrival.
    pub fn push(&mut self, m: Message) {
        QUEUED.fetch_add(1, Ordering::Relaxed);
        self.items.push_back(m);
    }

    /// The first message that matches, left in the queue.
    pub fn peek(&self, want: &Match) -> Option<&Message> {
        self.items
            .iter()
            .find(|m| want.accepts(m.source, m.tag, m.encoding))
    }

    /// Removes and returns the first message that matches.
    pub fn take(&mut self, want: &Match) -> Option<Message> {
        let i = self
            .items
            .iter()
            .position(|m| want.accepts(m.source, m.tag, m.encoding))?;
        self.remove(i)
    }

    /// Removes and returns the first message for which `pred` holds.
    pub fn take_where(&mut self, mut pred: impl FnMut(&Message) -> bool) -> Option<Message> {
        let i = self.items.iter().position(&mut pred)?;
        self.remove(i)
    }

    fn remove(&mut self, i: usize) -> Option<Message> {
        let m = self.items.remove(i)?;
        QUEUED.fetch_sub(1, Ordering::Relaxed);
        Some(m)
    }

    /// Number of waiting messages.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is waiting.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl Drop for MatchQueue {
    fn drop(&mut self) {
        QUEUED.fetch_sub(self.items.len(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(src: u32, tag: i32, byte: u8) -> Message {
        Message {
            source: ProcId::new(0, src).unwrap(),
            tag,
            encoding: 0,
            data: vec![byte],
        }
    }

    #[test]
    fn wildcards_take_earliest_and_keep_pair_order() {
        let mut q = MatchQueue::default();
        q.push(msg(1, 5, 1));
        q.push(msg(2, 6, 2));
        q.push(msg(1, 5, 3));
        q.push(msg(1, 7, 4));
        assert!(any_queued(), "a queue holding messages is never missed");
        let any = Match::default();
        assert_eq!(q.peek(&any).unwrap().data, vec![1]);
        let from2 = Match::new(Some(ProcId::new(0, 2).unwrap()), None);
        assert_eq!(q.take(&from2).unwrap().data, vec![2]);
        let tag7 = Match::new(None, Some(7));
        assert_eq!(q.take(&tag7).unwrap().data, vec![4]);
        let tag5 = Match::new(Some(ProcId::new(0, 1).unwrap()), Some(5));
        assert_eq!(q.take(&tag5).unwrap().data, vec![1]);
        assert_eq!(q.take(&tag5).unwrap().data, vec![3]);
        assert!(q.take(&tag5).is_none());
        assert!(q.is_empty());
    }

    #[test]
    fn take_where_uses_predicate() {
        let mut q = MatchQueue::default();
        q.push(msg(1, 10, 1));
        q.push(msg(1, 20, 2));
        let m = q.take_where(|m| m.tag > 15).unwrap();
        assert_eq!(m.data, vec![2]);
        assert_eq!(q.len(), 1);
    }
}
