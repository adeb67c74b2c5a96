//! The process world TCGMSG counts: the compute ranks only. Data-server
//! ranks (`ga-server`) are never TCGMSG nodes.

use shim_core::mpi::Comm;
use shim_core::CoreResult;

/// The communicator of the compute ranks (collective on first use). The
/// layer duplicates it for its own traffic.
pub fn comm() -> CoreResult<Comm> {
    shim_core::roles::compute_comm()
}
