//! GA's per-process memory figures: `GA_Inquire_memory` (bytes of global
//! array data this process holds) and the limit `GA_Set_memory_limit`
//! records, from which `GA_Memory_avail` is counted.
//!
//! The limit is reported, not enforced: arrays live in the data servers'
//! shared memory, and creation does not check it.

use crate::core;
use std::sync::Mutex;

/// The limit set by `GA_Set_memory_limit`, in bytes (None: not limited).
static LIMIT: Mutex<Option<usize>> = Mutex::new(None);

/// Bytes of the blocks of every live array this process owns.
pub fn in_use() -> usize {
    let mut bytes = 0usize;
    for g in -1000..-1000 + 32768 {
        if !core::valid(g) {
            continue;
        }
        let (Ok((ty, _)), Ok(elems)) = (core::inquire(g), core::local_elements(g)) else {
            continue;
        };
        bytes = bytes.saturating_add(elems.saturating_mul(ty.size()));
    }
    bytes
}

/// Records a limit of `bytes` for this process.
pub fn set_limit(bytes: usize) {
    *LIMIT.lock().unwrap_or_else(|e| e.into_inner()) = Some(bytes);
}

/// The recorded limit.
pub fn limit() -> Option<usize> {
    *LIMIT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Bytes left under the limit (None: not limited).
pub fn avail() -> Option<usize> {
    limit().map(|l| l.saturating_sub(in_use()))
}
