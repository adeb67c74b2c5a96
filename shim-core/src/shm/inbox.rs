//! The layout of a process's inbox: one shared-memory region per process
//! holding a doorbell (a futex word its senders bump to wake it) and a
//! table of slots, each an incoming ring that one sender on the node claims.
//!
//! ```text
//! 0     magic, slot count, ring size
//! 64    doorbell (futex word)
//! 128   number of the owner's threads about to sleep
//! 192   slots in use so far (high-water mark)
//! 196   set once the owner reads no more (it is leaving)
//! 256   slot table: per slot a state word and the sender's id, then the
//!       ring's head counter on a line of its own, then on a third line
//!       the CPU the sender last wrote to the ring from, plus one (0: not
//!       known)
//! ...   ring data areas, one per slot
//! ```

use super::mem::Region;
use super::ring::RingAt;
use std::sync::atomic::Ordering;

const MAGIC: u64 = u64::from_le_bytes(*b"MPBINBX1");
const OFF_MAGIC: usize = 0;
const OFF_SLOTS: usize = 8;
const OFF_CAP: usize = 12;
pub(crate) const OFF_DOORBELL: usize = 64;
pub(crate) const OFF_WAITING: usize = 128;
const OFF_HIGH: usize = 192;
pub(crate) const OFF_LEFT: usize = 196;
const TABLE: usize = 256;
const SLOT_STRIDE: usize = 192;

/// Slot states.
pub(crate) const FREE: u32 = 0;
const CLAIMING: u32 = 1;
pub(crate) const OPEN: u32 = 2;
pub(crate) const CLOSED: u32 = 3;

/// Size of each ring's data area (a power of two).
pub(crate) const RING_CAP: usize = 16 * 1024;

/// The geometry of an inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub slots: usize,
    pub cap: usize,
}

impl Layout {
    fn data_start(&self) -> usize {
        (TABLE + self.slots * SLOT_STRIDE).div_ceil(4096) * 4096
    }

    /// Bytes of the whole region.
    pub fn len(&self) -> usize {
        self.data_start() + self.slots * self.cap
    }

    fn state(slot: usize) -> usize {
        TABLE + slot * SLOT_STRIDE
    }

    fn owner(slot: usize) -> usize {
        TABLE + slot * SLOT_STRIDE + 4
    }

    /// Where the sender of slot `slot` notes the CPU it last wrote from.
    pub fn sent_from(slot: usize) -> usize {
        TABLE + slot * SLOT_STRIDE + 128
    }

    /// Where slot `slot`'s ring lives.
    pub fn ring(&self, slot: usize) -> RingAt {
        RingAt {
            head: TABLE + slot * SLOT_STRIDE + 64,
            data: self.data_start() + slot * self.cap,
            cap: self.cap,
        }
    }

    /// Writes the header of a new inbox.
    pub fn init(&self, r: &Region) {
        r.u32_at(OFF_SLOTS)
            .store(self.slots as u32, Ordering::Relaxed);
        r.u32_at(OFF_CAP).store(self.cap as u32, Ordering::Relaxed);
        r.u64_at(OFF_MAGIC).store(MAGIC, Ordering::Release);
    }

    /// Whether `r` is an inbox of this geometry.
    pub fn matches(&self, r: &Region) -> bool {
        r.len() >= self.len()
            && r.u64_at(OFF_MAGIC).load(Ordering::Acquire) == MAGIC
            && r.u32_at(OFF_SLOTS).load(Ordering::Relaxed) as usize == self.slots
            && r.u32_at(OFF_CAP).load(Ordering::Relaxed) as usize == self.cap
    }

    /// Claims a free slot of the inbox `r` for sender `owner`.
    pub fn claim(&self, r: &Region, owner: u32) -> Option<usize> {
        for slot in 0..self.slots {
            let st = r.u32_at(Self::state(slot));
            if st
                .compare_exchange(FREE, CLAIMING, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                r.u32_at(Self::owner(slot)).store(owner, Ordering::Relaxed);
                r.u32_at(OFF_HIGH)
                    .fetch_max(slot as u32 + 1, Ordering::AcqRel);
                st.store(OPEN, Ordering::Release);
                return Some(slot);
            }
        }
        None
    }

    /// The sender gives its slot up; the records it wrote stay readable.
    pub fn close(&self, r: &Region, slot: usize) {
        r.u32_at(Self::state(slot)).store(CLOSED, Ordering::Release);
    }

    /// The owner makes a drained, closed slot free for another sender.
    pub fn recycle(&self, r: &Region, slot: usize) {
        let at = self.ring(slot);
        r.write(at.data, &vec![0u8; at.cap]);
        r.u64_at(at.head).store(0, Ordering::Relaxed);
        r.u32_at(Self::owner(slot)).store(0, Ordering::Relaxed);
        r.u32_at(Self::state(slot)).store(FREE, Ordering::Release);
    }

    /// A slot's state and sender.
    pub fn slot(&self, r: &Region, slot: usize) -> (u32, u32) {
        let st = r.u32_at(Self::state(slot)).load(Ordering::Acquire);
        (st, r.u32_at(Self::owner(slot)).load(Ordering::Relaxed))
    }

    /// Slots claimed so far (upper bound of the slots to look at).
    pub fn high(&self, r: &Region) -> usize {
        (r.u32_at(OFF_HIGH).load(Ordering::Acquire) as usize).min(self.slots)
    }
}
