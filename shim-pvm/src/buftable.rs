//! The table of a task's message buffers by id: one slot per id and a list
//! of free ids threaded through the free slots, so making, finding and
//! freeing a buffer is an index into a vector, with no hashing. The
//! buffers themselves lie packed in a second vector that the slots point
//! into, so giving a buffer a new id (`pvm_initsend`) moves no buffer.
//!
//! Ids are numbered as libpvm 3.4 numbers its message buffers: the id freed
//! last is the next one handed out; when none is free the table grows by a
//! block (8 slots first, then sizes growing like Fibonacci numbers: 13, 21,
//! 34, ...) whose new ids are handed out highest first; 0 is never an id.

use crate::consts::err;

#[derive(Clone, Copy)]
enum Slot {
    /// An id in use: where its buffer is in `BufTable::values`.
    Used(u32),
    /// A free id; holds the next free id (0 ends the list).
    Free(i32),
}

/// Buffers by id.
pub struct BufTable<T> {
    slots: Vec<Slot>,
    /// The buffers, each with its id, in no particular order.
    values: Vec<(i32, T)>,
    /// First free id (0: none free).
    free: i32,
    /// Size of the table after its next growth.
    next_len: usize,
}

/// Size of the first block (ids 1 to 7; slot 0 is never used).
const FIRST_LEN: usize = 8;
/// Size after the second growth.
const SECOND_LEN: usize = 13;
/// The table never grows past this many slots, so ids stay positive.
const MAX_LEN: usize = i32::MAX as usize;

impl<T> Default for BufTable<T> {
    fn default() -> Self {
        BufTable {
            slots: Vec::new(),
            values: Vec::new(),
            free: 0,
            next_len: FIRST_LEN,
        }
    }
}

impl<T> BufTable<T> {
    /// Takes a free id for a buffer filed later with [`fill`](Self::fill);
    /// until then the id names no buffer. `PvmNoMem` (negative) if every
    /// id is in use.
    #[inline]
    pub fn reserve(&mut self) -> i32 {
        if self.free == 0 {
            self.grow();
        }
        let id = self.free;
        if let Some(Slot::Free(next)) = self.slots.get(id as usize) {
            self.free = *next;
            // Off the free list, naming nothing until filled.
            self.slots[id as usize] = Slot::Free(0);
            return id;
        }
        err::NO_MEM
    }

    /// Files `value` under `id`, taken with [`reserve`](Self::reserve).
    pub fn fill(&mut self, id: i32, value: T) {
        let Some(slot) = usize::try_from(id).ok().and_then(|i| self.slots.get_mut(i)) else {
            return;
        };
        match *slot {
            Slot::Used(at) => self.values[at as usize].1 = value,
            Slot::Free(_) => {
                *slot = Slot::Used(self.values.len() as u32);
                self.values.push((id, value));
            }
        }
    }

    /// Files `value` under a new id and returns the id (`PvmNoMem` if
    /// every id is in use; `value` is then dropped).
    #[inline]
    pub fn insert(&mut self, value: T) -> i32 {
        let id = self.reserve();
        self.fill(id, value);
        id
    }

    /// Gives the value of `old` a new id, then frees `old` (so the new id
    /// differs from the old one, as `pvm_initsend` gives); `None` if `old`
    /// names nothing. The value stays where it is.
    #[inline]
    pub fn renumber(&mut self, old: i32) -> Option<i32> {
        let at = self.place(old)?;
        let id = self.reserve();
        if id < 0 {
            return None;
        }
        self.slots[id as usize] = Slot::Used(at as u32);
        self.values[at].0 = id;
        self.slots[old as usize] = Slot::Free(self.free);
        self.free = old;
        Some(id)
    }

    /// Where the value of `id` is in `values`.
    #[inline]
    fn place(&self, id: i32) -> Option<usize> {
        match self.slots.get(usize::try_from(id).ok()?) {
            Some(Slot::Used(at)) => Some(*at as usize),
            _ => None,
        }
    }

    /// The value of `id`.
    #[inline]
    pub fn get(&self, id: i32) -> Option<&T> {
        let at = self.place(id)?;
        self.values.get(at).map(|(_, v)| v)
    }

    /// The value of `id`, to change.
    #[inline]
    pub fn get_mut(&mut self, id: i32) -> Option<&mut T> {
        let at = self.place(id)?;
        self.values.get_mut(at).map(|(_, v)| v)
    }

    /// Whether `id` names a value.
    #[inline]
    pub fn contains(&self, id: i32) -> bool {
        self.place(id).is_some()
    }

    /// Takes the value of `id` out and frees the id (it is the next one
    /// handed out).
    pub fn remove(&mut self, id: i32) -> Option<T> {
        let at = self.place(id)?;
        let (_, v) = self.values.swap_remove(at);
        if let Some((moved, _)) = self.values.get(at) {
            // The last value took the hole: point its id at it.
            self.slots[*moved as usize] = Slot::Used(at as u32);
        }
        self.slots[id as usize] = Slot::Free(self.free);
        self.free = id;
        Some(v)
    }

    /// Adds the next block of free ids, highest first on the list.
    fn grow(&mut self) {
        let old = self.slots.len();
        let new = self.next_len.min(MAX_LEN);
        self.next_len = if old == 0 {
            SECOND_LEN
        } else {
            self.next_len.saturating_add(old)
        };
        if new <= old {
            return;
        }
        self.slots.reserve_exact(new - old);
        if old == 0 {
            // Slot 0 stays off the free list: 0 is not an id.
            self.slots.push(Slot::Free(0));
        }
        for id in self.slots.len()..new {
            self.slots.push(Slot::Free(self.free));
            self.free = id as i32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_highest_first_from_each_block_and_are_never_zero() {
        let mut t = BufTable::default();
        let ids: Vec<i32> = (0..12).map(|i| t.insert(i)).collect();
        assert_eq!(ids, [7, 6, 5, 4, 3, 2, 1, 12, 11, 10, 9, 8]);
        let more: Vec<i32> = (0..9).map(|i| t.insert(i)).collect();
        assert_eq!(more, [20, 19, 18, 17, 16, 15, 14, 13, 33]);
    }

    #[test]
    fn the_id_freed_last_is_handed_out_first() {
        let mut t = BufTable::default();
        let ids: Vec<i32> = (0..5).map(|i| t.insert(i * 10)).collect();
        assert_eq!(t.remove(ids[1]), Some(10));
        assert_eq!(t.remove(ids[3]), Some(30));
        assert_eq!(t.remove(ids[3]), None);
        assert_eq!(t.get(ids[1]), None);
        assert_eq!(t.insert(7), ids[3]);
        assert_eq!(t.insert(8), ids[1]);
        assert_eq!(t.get(ids[1]), Some(&8));
        assert_eq!(t.get(ids[4]), Some(&40));
    }

    #[test]
    fn renumber_moves_a_value_to_another_id_and_alternates_between_two() {
        let mut t = BufTable::default();
        let a = t.insert("x");
        let b = t.renumber(a).unwrap();
        assert_ne!(a, b);
        assert_eq!(t.get(a), None);
        assert_eq!(t.get(b), Some(&"x"));
        assert_eq!(t.renumber(b), Some(a));
        assert_eq!(t.renumber(b), None);
    }

    #[test]
    fn removing_and_renumbering_keep_every_other_id_on_its_value() {
        let mut t = BufTable::default();
        let ids: Vec<i32> = (0..6).map(|i| t.insert(i * 10)).collect();
        assert_eq!(t.remove(ids[0]), Some(0));
        let moved = t.renumber(ids[2]).unwrap();
        // The id freed last comes back first.
        assert_eq!(moved, ids[0]);
        assert_eq!(t.remove(ids[4]), Some(40));
        assert_eq!(t.get(moved), Some(&20));
        for (k, id) in ids.iter().enumerate().skip(1) {
            let want = match k {
                2 | 4 => None,
                _ => Some(k as i32 * 10),
            };
            assert_eq!(t.get(*id).copied(), want);
        }
        *t.get_mut(ids[5]).unwrap() += 1;
        assert_eq!(t.get(ids[5]), Some(&51));
    }

    #[test]
    fn bad_ids_name_nothing() {
        let mut t = BufTable::default();
        t.insert(1);
        for id in [0, -1, i32::MIN, 8, i32::MAX] {
            assert!(!t.contains(id));
            assert_eq!(t.get_mut(id), None);
            assert_eq!(t.remove(id), None);
        }
        assert_eq!(t.renumber(0), None);
    }
}
