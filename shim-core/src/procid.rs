//! Process ids: one number per process, the same from every viewpoint.
//!
//! A process is identified by its batch (0 for the processes `mpiexec`
//! started, then one number per spawn) and its rank in that batch's
//! `MPI_COMM_WORLD`. The packed value follows PVM's task-id layout, so
//! layers can use it directly: bits 29..18 hold `batch + 1`, bits 17..0 hold
//! `rank + 1`. The first process is therefore `0x40001` (`t40001`).

use std::fmt;

/// Bits for the rank part.
const RANK_BITS: u32 = 18;
/// Largest batch number (12 bits for `batch + 1`).
pub const MAX_BATCH: u16 = 0xffe;
/// Largest rank in one batch.
pub const MAX_RANK: u32 = (1 << RANK_BITS) - 2;

/// The id of one process.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(u32);

impl ProcId {
    /// The id of `rank` in `batch`, or `None` when either is out of range.
    pub fn new(batch: u16, rank: u32) -> Option<ProcId> {
        if batch > MAX_BATCH || rank > MAX_RANK {
            return None;
        }
        Some(ProcId(((batch as u32 + 1) << RANK_BITS) | (rank + 1)))
    }

    /// Decodes a packed id; `None` when it cannot be a process id.
    pub fn from_raw(raw: u32) -> Option<ProcId> {
        let batch = raw >> RANK_BITS;
        let rank = raw & ((1 << RANK_BITS) - 1);
        if raw & 0xc000_0000 != 0 || batch == 0 || rank == 0 {
            return None;
        }
        Some(ProcId(raw))
    }

    /// The packed value (positive as an `i32`).
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The batch this process belongs to.
    pub fn batch(self) -> u16 {
        ((self.0 >> RANK_BITS) - 1) as u16
    }

    /// The rank in the batch's `MPI_COMM_WORLD`.
    pub fn rank(self) -> u32 {
        (self.0 & ((1 << RANK_BITS) - 1)) - 1
    }

    /// The process that keeps the batch registry: rank 0 of batch 0.
    pub fn root() -> ProcId {
        ProcId(((1) << RANK_BITS) | 1)
    }
}

impl fmt::Display for ProcId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{:x}", self.0)
    }
}

impl fmt::Debug for ProcId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{:x}(b{} r{})", self.0, self.batch(), self.rank())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_process_prints_like_pvm() {
        let id = ProcId::new(0, 0).unwrap();
        assert_eq!(id.to_string(), "t40001");
        assert_eq!(id, ProcId::root());
    }

    #[test]
    fn round_trips_and_rejects_out_of_range() {
        for (b, r) in [(0u16, 0u32), (1, 5), (MAX_BATCH, MAX_RANK), (7, 1000)] {
            let id = ProcId::new(b, r).unwrap();
            assert_eq!((id.batch(), id.rank()), (b, r));
            assert_eq!(ProcId::from_raw(id.raw()), Some(id));
            assert!((id.raw() as i32) > 0);
        }
        assert_eq!(ProcId::new(MAX_BATCH + 1, 0), None);
        assert_eq!(ProcId::new(0, MAX_RANK + 1), None);
        assert_eq!(ProcId::from_raw(0), None);
        assert_eq!(ProcId::from_raw(0x40000), None);
        assert_eq!(ProcId::from_raw(0x3ffff), None);
        assert_eq!(ProcId::from_raw(0x8004_0001), None);
    }
}
