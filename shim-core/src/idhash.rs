//! A fast hasher for the backend's small integer keys (context ids, process
//! ids), which are looked up on every message. Keys come from the backend
//! itself, not from an adversary, so a keyed hash buys nothing here.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplicative hashing of integer keys.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by small integers.
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;
/// A set of small integers.
pub type IdSet<K> = HashSet<K, BuildHasherDefault<IdHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_keys_stay_distinct() {
        let mut m: IdMap<u32, u32> = IdMap::default();
        for k in 0..10_000u32 {
            m.insert(k.wrapping_mul(0x40000) | 1, k);
        }
        assert_eq!(m.len(), 10_000);
        for k in 0..10_000u32 {
            assert_eq!(m[&(k.wrapping_mul(0x40000) | 1)], k);
        }
    }
}
