//! One single-producer, single-consumer ring of records inside a region.
//!
//! A record is an 8-byte word followed by its body, padded to a whole
//! cache line (64 bytes), so a small message is one line for the consumer
//! to fetch and never straddles two. The
//! word holds the body length (low half) and a stamp (high half) made from
//! the ring's lap number at the record's position, so a slot the producer
//! has not written in this lap never looks ready and nothing has
//! to be cleared after reading. A record never wraps around the end: when
//! it does not fit, a skip record fills the rest of the lap. The consumer
//! publishes how far it has read in a shared `head` counter, which the
//! producer reads only when the ring looks full. Before writing a
//! record the producer clears the word where the next record will start,
//! so old bytes of an earlier lap are never taken for a record.

use super::mem::{Region, RingMem};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Length value of a skip record.
const SKIP: u32 = u32::MAX;

/// Where a ring lives in its region.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingAt {
    /// Offset of the shared `head` counter (its own cache line).
    pub head: usize,
    /// Offset of the data area.
    pub data: usize,
    /// Size of the data area (a power of two).
    pub cap: usize,
}

impl RingAt {
    /// The largest body one record can hold.
    pub fn max_body(&self) -> usize {
        self.cap / 2 - 16
    }

    /// The stamp of records written at `pos`: odd (never the zero of
    /// fresh memory) and different from the previous lap's.
    #[inline]
    fn stamp(&self, pos: u64) -> u32 {
        (((pos >> self.cap.trailing_zeros()) as u32) << 1) | 1
    }

    /// Offset of `pos` in the data area.
    #[inline]
    fn offset(&self, pos: u64) -> usize {
        (pos & (self.cap as u64 - 1)) as usize
    }
}

/// Records start on cache-line boundaries.
const LINE: usize = 64;

/// Bytes a record with an `n`-byte body takes in the ring.
fn padded(n: usize) -> u64 {
    (8 + n).div_ceil(LINE) as u64 * LINE as u64
}

/// The producer's side: its own write position and its last view of the
/// consumer's.
#[derive(Debug)]
pub(crate) struct Producer {
    pub at: RingAt,
    mem: RingMem,
    tail: u64,
    head_seen: u64,
}

impl Producer {
    /// A producer for a ring of `region` nobody has written yet.
    pub fn new(region: &Arc<Region>, at: RingAt) -> Producer {
        Producer {
            at,
            mem: RingMem::new(region, at.head, at.data, at.cap),
            tail: 0,
            head_seen: 0,
        }
    }

    /// Writes one record whose body is `head` then `body`; `false` when
    /// the ring has no room now (nothing written).
    #[inline(always)]
    pub fn try_push<const H: usize>(&mut self, head: &[u8; H], body: &[u8]) -> bool {
        let n = head.len() + body.len();
        debug_assert!(n <= self.at.max_body());
        let need = padded(n);
        let cap = self.at.cap as u64;
        let off = self.at.offset(self.tail) as u64;
        let skip = if off + need > cap { cap - off } else { 0 };
        // Room for the record and for clearing the word after it.
        let room = skip + need + 8;
        if self.tail + room - self.head_seen > cap {
            self.head_seen = self.mem.head().load(Ordering::Acquire);
            if self.tail + room - self.head_seen > cap {
                return false;
            }
        }
        if skip > 0 {
            // The next lap starts with this record: clear its word before
            // the consumer is sent there.
            self.mem.word(0).store(0, Ordering::Relaxed);
            let word = (self.at.stamp(self.tail) as u64) << 32 | SKIP as u64;
            self.mem.word(off as usize).store(word, Ordering::Release);
            self.tail += skip;
        }
        let off = self.at.offset(self.tail);
        // The word after this record still holds bytes of the last lap,
        // which could look like a ready record: clear it before the
        // record is published, so the consumer only ever finds a
        // published word or zero. It is cleared first of all: the
        // consumer polls the record's first line, and with this store
        // (to another line) between the record's bytes and its word the
        // polls took the line back before the word was written, one more
        // transfer of the line. A message of 33 to 64 bytes took 0.41 to
        // 0.69 us one way that way, and 0.26 to 0.53 us cleared first.
        let next = self.at.offset(self.tail + need);
        self.mem.word(next).store(0, Ordering::Relaxed);
        self.mem.write_two(off + 8, head, body);
        let word = (self.at.stamp(self.tail) as u64) << 32 | n as u64;
        self.mem.word(off).store(word, Ordering::Release);
        self.tail += need;
        true
    }
}

/// The word of a ring where its consumer's next record will appear, read
/// without the consumer (see [`Consumer::watch`]).
#[derive(Debug)]
pub(crate) struct RingWatch {
    mem: RingMem,
    off: usize,
    stamp: u32,
}

impl RingWatch {
    /// Whether a record (or a skip) was published there.
    #[inline(always)]
    pub fn ready(&self) -> bool {
        let word = self.mem.word(self.off).load(Ordering::Acquire);
        (word >> 32) as u32 == self.stamp
    }
}

/// The consumer's side: its read position (published in `head`).
#[derive(Debug)]
pub(crate) struct Consumer {
    pub at: RingAt,
    mem: RingMem,
    head: u64,
}

impl Consumer {
    /// A consumer for a ring of `region` nobody has written yet.
    pub fn new(region: &Arc<Region>, at: RingAt) -> Consumer {
        Consumer {
            at,
            mem: RingMem::new(region, at.head, at.data, at.cap),
            head: 0,
        }
    }

    /// The offset and length of the next record's body, if one is ready
    /// (skip records are passed over).
    #[inline(always)]
    pub fn peek(&mut self) -> Option<(usize, usize)> {
        let cap = self.at.cap as u64;
        loop {
            let off = self.at.offset(self.head);
            let word = self.mem.word(off).load(Ordering::Acquire);
            if (word >> 32) as u32 != self.at.stamp(self.head) {
                return None;
            }
            let len = word as u32;
            if len == SKIP {
                self.head += cap - off as u64;
                self.mem.head().store(self.head, Ordering::Release);
                continue;
            }
            return Some((self.at.data + off + 8, len as usize));
        }
    }

    /// Releases the record `peek` returned, of body length `len`.
    #[inline(always)]
    pub fn pop(&mut self, len: usize) {
        self.head += padded(len);
        self.mem.head().store(self.head, Ordering::Release);
    }

    /// A view of the word where the next record will appear.
    pub fn watch(&self) -> RingWatch {
        RingWatch {
            mem: self.mem.clone(),
            off: self.at.offset(self.head),
            stamp: self.at.stamp(self.head),
        }
    }

    /// Whether a record is ready, without moving.
    #[inline]
    pub fn ready(&self) -> bool {
        let off = self.at.offset(self.head);
        let word = self.mem.word(off).load(Ordering::Acquire);
        (word >> 32) as u32 == self.at.stamp(self.head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_keep_order_across_many_laps() {
        let r = Arc::new(Region::create(64 + 256).expect("region"));
        let at = RingAt {
            head: 0,
            data: 64,
            cap: 256,
        };
        let mut p = Producer::new(&r, at);
        let mut c = Consumer::new(&r, at);
        let mut next_in = 0u32;
        let mut next_out = 0u32;
        for round in 0..2000u32 {
            // Varying sizes force skips at every position.
            let len = (round % 13) as usize * 7 % 100;
            // Bodies full of small numbers look like record words of later
            // laps (stamp 2, 3, ...) to a consumer that reads stale bytes.
            let body: Vec<u8> = (0..len).map(|i| (next_in as usize + i) as u8 % 4).collect();
            let tag = next_in.to_le_bytes();
            while !p.try_push(&tag, &body) {
                let (o, n) = c.peek().expect("a full ring has a record");
                let got = r.bytes(o, n);
                assert_eq!(u32::from_le_bytes(got[..4].try_into().unwrap()), next_out);
                let k = next_out as usize;
                assert!(got[4..]
                    .iter()
                    .enumerate()
                    .all(|(i, b)| *b == (k + i) as u8 % 4));
                c.pop(n);
                next_out += 1;
            }
            next_in += 1;
        }
        while let Some((o, n)) = c.peek() {
            let got = r.bytes(o, n);
            assert_eq!(u32::from_le_bytes(got[..4].try_into().unwrap()), next_out);
            c.pop(n);
            next_out += 1;
        }
        assert_eq!(next_out, next_in, "every record came out once, in order");
        assert!(!c.ready());
    }
}
