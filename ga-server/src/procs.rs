//! Which process is a compute rank and which a `ga-server`, which node each
//! runs on (from `shim_core::roles`), and the communicators GA uses: the
//! compute ranks' communicator and a private duplicate of `MPI_COMM_WORLD`
//! for the traffic between clients and servers.
//!
//! The duplicate is shim-core's link communicator, made by every process
//! during the role split, so a compute rank's first use of GA or NXTVAL
//! is not collective. Both are shim-core communicators (made with MPI
//! errors returned as codes).

use shim_core::mpi::Comm;
use std::sync::{Mutex, OnceLock};

/// The process layout of the job.
#[derive(Debug)]
pub struct Procs {
    /// This process's rank in `MPI_COMM_WORLD`.
    pub world_rank: i32,
    /// Node index of each world rank.
    pub node: Vec<u32>,
    /// World rank of compute rank i.
    pub compute: Vec<i32>,
    /// World ranks of the servers.
    pub servers: Vec<i32>,
    /// The compute ranks' communicator (unused on a server).
    pub compute_comm: Comm,
    /// Private duplicate of the world for client/server traffic.
    pub ga_comm: Comm,
}

impl Procs {
    /// World rank of the server on `node`.
    pub fn server_of_node(&self, node: u32) -> Option<i32> {
        self.servers
            .iter()
            .copied()
            .find(|&s| self.node[s as usize] == node)
    }

    /// This process's node.
    pub fn my_node(&self) -> u32 {
        self.node[self.world_rank as usize]
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.node
            .iter()
            .copied()
            .max()
            .map_or(0, |m| m as usize + 1)
    }
}

static PROCS: OnceLock<Procs> = OnceLock::new();
static SETUP: Mutex<()> = Mutex::new(());

/// Takes part in the role split and the duplicate of the world (collective
/// over `MPI_COMM_WORLD`), once. A compute rank joins the shared backend
/// (which starts MPI if nobody did and finalises it at exit).
pub fn setup(server: bool) -> Result<&'static Procs, String> {
    let _g = SETUP.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = PROCS.get() {
        return Ok(p);
    }
    let (layout, compute_comm) = if server {
        let l = shim_core::roles::enter_as_server().map_err(|e| e.to_string())?;
        (l, Comm::world())
    } else {
        // Membership lasts for the process: GA never leaves the backend
        // itself; shim-core finalises the MPI it started at exit.
        let m = shim_core::join("ga").map_err(|e| e.to_string())?;
        std::mem::forget(m);
        let c = shim_core::roles::compute_comm().map_err(|e| e.to_string())?;
        let l = shim_core::roles::layout().map_err(|e| e.to_string())?;
        (l, c)
    };
    let ga_comm = shim_core::roles::link_comm().map_err(|e| e.to_string())?;
    let p = Procs {
        world_rank: layout.world_rank,
        node: layout.node.clone(),
        compute: layout.compute.clone(),
        servers: layout.servers.clone(),
        compute_comm,
        ga_comm,
    };
    let _ = PROCS.set(p);
    PROCS
        .get()
        .ok_or_else(|| "internal: layout not stored".to_string())
}
