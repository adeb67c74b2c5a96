//! Process ids as bytes: how the core test programs send each other a
//! directory of ids (4 little-endian bytes each).

use shim_core::ProcId;

/// `ids` as 4 little-endian bytes each.
pub fn to_bytes(ids: &[ProcId]) -> Vec<u8> {
    ids.iter().flat_map(|i| i.raw().to_le_bytes()).collect()
}

/// The ids in `b` (as [`to_bytes`] writes them); panics on a value that
/// is no process id.
pub fn from_bytes(b: &[u8]) -> Vec<ProcId> {
    b.chunks(4)
        .map(|c| ProcId::from_raw(u32::from_le_bytes(c.try_into().unwrap())).expect("id"))
        .collect()
}
