//! The process world TCGMSG counts: the compute ranks only. Data-server
//! ranks (`ga-server`) are never TCGMSG nodes.

use shim_core::log::tracing::debug;
use shim_core::mpi::{self, Comm};
use shim_core::roles;

/// (node number, number of nodes) without any collective call: from the
/// role layout once the backend made it, else from `MPI_COMM_WORLD` (a
/// program asking before `PBEGIN`), else a single process.
pub fn position() -> (i64, i64) {
    if let Ok(l) = roles::layout() {
        if let Some(r) = l.compute_rank_of(l.world_rank) {
            return (i64::from(r), l.compute.len() as i64);
        }
    }
    if mpi::is_initialized() && !mpi::is_finalized() {
        let w = Comm::world();
        if let (Ok(r), Ok(n)) = (w.rank(), w.size()) {
            debug!(target: "tcgmsg", "node numbers from MPI_COMM_WORLD (no role layout yet)");
            return (i64::from(r), i64::from(n));
        }
    }
    debug!(target: "tcgmsg", "MPI not running: counted as node 0 of 1");
    (0, 1)
}
