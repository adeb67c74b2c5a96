//! MA's bookkeeping of space, shared by the C (`ma.rs`) and Fortran
//! (`ma_fortran.rs`) interfaces: one segment whose low end is the heap and
//! whose high end is the stack, with the partition `MA_init` set between
//! them, laid out block by block as GA's MA lays out its own segment.
//!
//! The data of a block lives in its own allocation; this module only keeps
//! the offsets and lengths MA's segment would have, so that
//! `MA_inquire_stack`, `MA_inquire_heap` and `MA_inquire_avail` answer with
//! the figures GA's MA gives for the same calls.
//!
//! # Layout (facts of GA's MA, 64-bit Linux)
//! * A block is: a 80-byte descriptor, a gap, a 4-byte guard, the data, a
//!   4-byte guard, a gap. The first gap puts the data on a multiple of the
//!   element size, the second makes the block a multiple of 8 bytes.
//! * `MA_init(type, stack, heap)` makes each region `n * size + 88 +
//!   (size - 1) + 7` bytes rounded up to 8 (512 KiB for a negative size).
//! * The heap grows up from the segment start, the stack down from its
//!   end; either may cross the partition as long as they do not meet.
//! * A freed heap block that is not the top one goes on a free list
//!   (address order, neighbours merged); allocations take the first free
//!   block big enough, splitting off what is left when that is at least
//!   96 bytes. Freeing the top block lowers the heap to the next block in
//!   use and drops the free blocks above it.
//! * `inquire_avail` counts the gap between heap and stack;
//!   `inquire_heap` the larger of the gap up to the partition and the
//!   biggest free block below it; `inquire_stack` the gap from the
//!   partition to the stack (0 once the stack has crossed it).
//!
//! Element addresses are taken as multiples of the element size from a
//! 16-byte aligned segment start, which is how GA's MA places every type
//! of at most 16 bytes.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// The process's one MA segment (None until `MA_init`/`ma_init`).
static SEGMENT: Mutex<Option<Space>> = Mutex::new(None);

/// Runs `f` on the process's MA segment.
pub fn with_segment<R>(f: impl FnOnce(&mut Option<Space>) -> R) -> R {
    let mut g = SEGMENT.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut g)
}

/// Whether MA has been initialized (from C or Fortran).
pub fn initialized() -> bool {
    with_segment(|s| s.is_some())
}

/// For unit tests that start MA: one at a time, each on a fresh segment.
#[cfg(test)]
pub fn test_segment() -> std::sync::MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    let g = ONE.lock().unwrap_or_else(|e| e.into_inner());
    with_segment(|s| *s = None);
    g
}

/// Starts the segment; false if it was already started or `None` (sizes
/// beyond memory) is given.
pub fn start(space: Option<Space>) -> bool {
    with_segment(|s| match (s.is_some(), space) {
        (false, Some(new)) => {
            *s = Some(new);
            true
        }
        _ => false,
    })
}

/// Bytes of a block's descriptor.
const DESCRIPTOR: i64 = 80;
/// Bytes of each of a block's two guards.
const GUARD: i64 = 4;
/// Descriptor and guards.
const FIXED: i64 = DESCRIPTOR + 2 * GUARD;
/// Every block is a multiple of this.
const ALIGN: i64 = 8;
/// Smallest remainder worth splitting off a free block.
const MIN_SPLIT: i64 = (ALIGN + FIXED + ALIGN - 1) / ALIGN * ALIGN;
/// Region size for a negative request in `MA_init`.
const DEFAULT_REGION: i64 = 524288;

/// Where a block lives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Region {
    Stack,
    Heap,
}

impl Region {
    /// The stack for a block pushed on it, else the heap.
    pub fn of(on_stack: bool) -> Region {
        if on_stack {
            Region::Stack
        } else {
            Region::Heap
        }
    }
}

/// The segment's offsets (bytes from its start).
#[derive(Debug)]
pub struct Space {
    partition: i64,
    heap_top: i64,
    stack_bottom: i64,
    /// Heap blocks in use: offset → length.
    heap_used: BTreeMap<i64, i64>,
    /// Free heap blocks below the heap top, in address order.
    heap_free: Vec<(i64, i64)>,
    /// Stack blocks, bottom (highest address) first: (offset, length).
    stack: Vec<(i64, i64)>,
}

fn round_up(v: i64, unit: i64) -> i64 {
    (v + unit - 1) / unit * unit
}

/// Length of a block of `nelem` elements of `size` bytes starting at
/// `at`, or None if it cannot be represented.
fn block_after(at: i64, nelem: i64, size: i64) -> Option<i64> {
    let data = nelem.checked_mul(size)?;
    let gap1 = (-(at + DESCRIPTOR + GUARD)).rem_euclid(size);
    let client = at + DESCRIPTOR + gap1 + GUARD;
    let gap2 = (at - client - data - GUARD).rem_euclid(ALIGN);
    client.checked_add(data)?.checked_add(GUARD + gap2 - at)
}

/// Start and length of a block of `nelem` elements of `size` bytes that
/// ends at `end`, or None if it cannot be represented.
fn block_before(end: i64, nelem: i64, size: i64) -> Option<(i64, i64)> {
    let data = nelem.checked_mul(size)?;
    let gap2 = (end - GUARD - data).rem_euclid(size);
    let client = end.checked_sub(gap2 + GUARD)?.checked_sub(data)?;
    let gap1 = (client - GUARD - DESCRIPTOR).rem_euclid(ALIGN);
    let len = end - client + GUARD + gap1 + DESCRIPTOR;
    Some((end - len, len))
}

/// The smaller of two gaps as GA's MA compares them, as unsigned numbers:
/// a negative gap (a region grown past the partition) counts as huge.
fn unsigned_min(a: i64, b: i64) -> i64 {
    match (a < 0, b < 0) {
        (true, _) => b,
        (_, true) => a,
        _ => a.min(b),
    }
}

/// How many elements of `size` bytes one block in `len` bytes from `at`
/// can hold.
fn elements_in(at: i64, len: i64, size: i64) -> i64 {
    if len <= FIXED {
        return 0;
    }
    let mut n = (len - FIXED) / size;
    while n > 0 {
        match block_after(at, n, size) {
            Some(b) if b <= len => break,
            _ => n -= 1,
        }
    }
    n
}

impl Space {
    /// The segment `MA_init(type of size bytes, stack, heap)` makes.
    pub fn new(size: usize, stack: i64, heap: i64) -> Option<Space> {
        let size = i64::try_from(size).ok()?;
        let region = |n: i64| -> Option<i64> {
            if n < 0 {
                return Some(DEFAULT_REGION);
            }
            let bytes = n
                .checked_mul(size)?
                .checked_add(FIXED + size - 1 + ALIGN - 1)?;
            Some(round_up(bytes, ALIGN))
        };
        let heap_bytes = region(heap)?;
        let stack_bytes = region(stack)?;
        Some(Space {
            partition: heap_bytes,
            heap_top: 0,
            stack_bottom: heap_bytes.checked_add(stack_bytes)?,
            heap_used: BTreeMap::new(),
            heap_free: Vec::new(),
            stack: Vec::new(),
        })
    }

    /// Reserves a block of `nelem` elements of `size` bytes; returns its
    /// offset (its name here), or the bytes it would take when it does
    /// not fit.
    pub fn reserve(&mut self, region: Region, nelem: i64, size: usize) -> Result<i64, i64> {
        let size = size as i64;
        match region {
            Region::Stack => {
                let (start, len) = block_before(self.stack_bottom, nelem, size).ok_or(i64::MAX)?;
                if self.stack_bottom - self.heap_top < len {
                    return Err(len);
                }
                self.stack_bottom = start;
                self.stack.push((start, len));
                Ok(start)
            }
            Region::Heap => {
                for i in 0..self.heap_free.len() {
                    let (at, have) = self.heap_free[i];
                    let Some(need) = block_after(at, nelem, size) else {
                        continue;
                    };
                    if need <= have {
                        self.heap_free.remove(i);
                        let mut len = have;
                        if have - need >= MIN_SPLIT {
                            self.heap_free.insert(i, (at + need, have - need));
                            len = need;
                        }
                        self.heap_used.insert(at, len);
                        return Ok(at);
                    }
                }
                let need = block_after(self.heap_top, nelem, size).ok_or(i64::MAX)?;
                if need > self.stack_bottom - self.heap_top {
                    return Err(need);
                }
                let at = self.heap_top;
                self.heap_used.insert(at, need);
                self.heap_top += need;
                Ok(at)
            }
        }
    }

    /// Frees the heap block at `at`; false if there is none.
    pub fn free_heap(&mut self, at: i64) -> bool {
        let Some(len) = self.heap_used.remove(&at) else {
            return false;
        };
        match self.heap_used.iter().next_back().map(|(&o, &l)| (o, l)) {
            Some((top, top_len)) => {
                self.heap_top = top + top_len;
                self.heap_free.retain(|&(o, _)| o <= top);
                if at < top {
                    let pos = self.heap_free.partition_point(|&(o, _)| o < at);
                    self.heap_free.insert(pos, (at, len));
                    let mut merged: Vec<(i64, i64)> = Vec::with_capacity(self.heap_free.len());
                    for &(o, l) in &self.heap_free {
                        match merged.last_mut() {
                            Some(last) if last.0 + last.1 == o => last.1 += l,
                            _ => merged.push((o, l)),
                        }
                    }
                    self.heap_free = merged;
                }
            }
            None => {
                self.heap_top = 0;
                self.heap_free.clear();
            }
        }
        true
    }

    /// Pops stack blocks down to and including the one at `at`; false
    /// (nothing popped) if no stack block starts there.
    pub fn pop_to(&mut self, at: i64) -> bool {
        let Some(pos) = self.stack.iter().position(|&(o, _)| o == at) else {
            return false;
        };
        let (o, l) = self.stack[pos];
        self.stack.truncate(pos);
        self.stack_bottom = o + l;
        true
    }

    /// Elements of `size` bytes one block between heap and stack can hold.
    pub fn avail(&self, size: usize) -> i64 {
        let gap = self.stack_bottom - self.heap_top;
        if gap > 0 {
            elements_in(self.heap_top, gap, size as i64)
        } else {
            0
        }
    }

    /// Elements of `size` bytes one heap block can hold, honouring the
    /// partition.
    pub fn heap(&self, size: usize) -> i64 {
        self.heap_below(self.partition, self.partition, size)
    }

    /// [`Space::heap`] that also keeps out of a stack grown past the
    /// partition (`MA_inquire_heap_check_stack`).
    pub fn heap_check_stack(&self, size: usize) -> i64 {
        let gap = unsigned_min(
            self.partition - self.heap_top,
            self.stack_bottom - self.heap_top,
        );
        self.heap_below(self.heap_top + gap, self.partition, size)
    }

    /// Elements of `size` bytes one heap block can hold, the partition
    /// ignored: the gap up to the stack or a free block
    /// (`MA_inquire_heap_no_partition`).
    pub fn heap_no_partition(&self, size: usize) -> i64 {
        self.heap_below(self.stack_bottom, self.stack_bottom, size)
    }

    /// Elements of `size` bytes one stack block can hold, honouring the
    /// partition and keeping out of a heap grown past it
    /// (`MA_inquire_stack_check_heap`).
    pub fn stack_check_heap(&self, size: usize) -> i64 {
        let gap = unsigned_min(
            self.stack_bottom - self.partition,
            self.stack_bottom - self.heap_top,
        );
        if gap > 0 {
            elements_in(self.partition, gap, size as i64)
        } else {
            0
        }
    }

    /// Shrinks the heap block at `at` to `nelem` elements of `size` bytes
    /// (`MA_free_heap_piece`): the freed end becomes a free block when it
    /// is big enough to be one. False if no heap block starts at `at`.
    pub fn shrink_heap(&mut self, at: i64, nelem: i64, size: usize) -> bool {
        let Some(&len) = self.heap_used.get(&at) else {
            return false;
        };
        let Some(need) = block_after(at, nelem, size as i64) else {
            return false;
        };
        if len - need >= MIN_SPLIT {
            self.heap_used.insert(at, need);
            self.heap_used.insert(at + need, len - need);
            self.free_heap(at + need);
        }
        true
    }

    /// The heap figure with the gap from the heap top up to `gap_end`
    /// and the free blocks cut at `frag_end`.
    fn heap_below(&self, gap_end: i64, frag_end: i64, size: usize) -> i64 {
        let size = size as i64;
        let gap = gap_end - self.heap_top;
        let in_gap = if gap > 0 {
            elements_in(self.heap_top, gap, size)
        } else {
            0
        };
        let least = in_gap.saturating_mul(size).saturating_add(FIXED);
        let mut in_free = 0;
        for &(at, len) in &self.heap_free {
            if at >= frag_end {
                continue;
            }
            let len = if at + len >= frag_end {
                frag_end - at
            } else {
                len
            };
            if len >= least {
                in_free = in_free.max(elements_in(at, len, size));
            }
        }
        in_gap.max(in_free)
    }

    /// Elements of `size` bytes one stack block can hold, honouring the
    /// partition.
    pub fn stack(&self, size: usize) -> i64 {
        let gap = self.stack_bottom - self.partition;
        if gap > 0 {
            elements_in(self.partition, gap, size as i64)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figures GA 5.8's MA gives for the same calls.
    #[test]
    fn figures_of_ga_ma() {
        let mut s = Space::new(8, 400000, 400000).unwrap();
        assert_eq!(
            (s.stack(8), s.heap(8), s.avail(8)),
            (400001, 400001, 800014)
        );
        assert_eq!(
            (s.stack(4), s.heap(4), s.avail(4)),
            (800004, 800004, 1600030)
        );
        let s1 = s.reserve(Region::Stack, 1000, 8).unwrap();
        assert_eq!(
            (s.stack(8), s.heap(8), s.avail(8)),
            (398989, 400001, 799002)
        );
        let s2 = s.reserve(Region::Stack, 333, 4).unwrap();
        assert_eq!((s.stack(4), s.avail(4)), (797624, 1597650));
        let h1 = s.reserve(Region::Heap, 5000, 8).unwrap();
        assert_eq!(s.heap(8), 394989);
        let _h2 = s.reserve(Region::Heap, 7, 8).unwrap();
        assert_eq!((s.heap(8), s.avail(8)), (394970, 793793));
        assert!(s.free_heap(h1));
        assert_eq!((s.heap(8), s.avail(8)), (394970, 793793));
        let h3 = s.reserve(Region::Heap, 100, 8).unwrap();
        assert_eq!(h3, h1);
        assert!(s.pop_to(s2));
        assert_eq!(s.stack(8), 398989);
        assert!(s.pop_to(s1));
        assert_eq!(
            (s.stack(8), s.heap(8), s.avail(8)),
            (400001, 394970, 794983)
        );
        let full = s.reserve(Region::Stack, 400001, 8).unwrap();
        assert_eq!((s.stack(8), s.heap(8), s.avail(8)), (0, 394970, 394970));
        assert!(s.pop_to(full));
        assert!(!s.pop_to(full));
        assert!(!s.free_heap(12345));
    }

    #[test]
    fn too_big_is_refused() {
        let mut s = Space::new(8, 10, 10).unwrap();
        assert!(s.reserve(Region::Stack, 1 << 62, 8).is_err());
        assert!(s.reserve(Region::Heap, 1 << 62, 8).is_err());
        assert!(s.reserve(Region::Heap, 40, 8).is_err());
        assert!(Space::new(8, 1 << 62, 1).is_none());
    }
}
