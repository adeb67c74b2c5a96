//! Which process is a compute rank and which a `ga-server`, which node each
//! runs on, and the communicators GA uses: the compute ranks' own
//! communicator and a private duplicate of `MPI_COMM_WORLD` for the traffic
//! between clients and servers.
//!
//! The roles are agreed in one collective step over `MPI_COMM_WORLD`: the
//! servers take it when they start, the compute ranks at their first use of
//! GA or NXTVAL.

use crate::sys::{self, Comm};
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// The process layout of the job.
#[derive(Debug)]
pub struct Procs {
    /// This process's rank in `MPI_COMM_WORLD`.
    pub world_rank: i32,
    /// Node index of each world rank.
    pub node: Vec<u32>,
    /// Process id of each world rank.
    pub pid: Vec<i32>,
    /// World rank of compute rank i.
    pub compute: Vec<i32>,
    /// World ranks of the servers.
    pub servers: Vec<i32>,
    /// Host name of each node.
    pub hosts: Vec<String>,
    /// The compute ranks' communicator (world for a server: unused).
    pub compute_comm: Comm,
    /// Private duplicate of the world for client/server traffic.
    pub ga_comm: Comm,
    /// Whether this library started MPI.
    pub we_initialized: bool,
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
        self.hosts.len()
    }
}

static PROCS: OnceLock<Procs> = OnceLock::new();
static SETUP: Mutex<()> = Mutex::new(());

/// The layout, if this process already took part in the role step.
pub fn get() -> Option<&'static Procs> {
    PROCS.get()
}

const REC: usize = 16 + 64;

/// Takes part in the role step (collective over `MPI_COMM_WORLD`), once.
pub fn setup(server: bool) -> Result<&'static Procs, String> {
    let _g = SETUP.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = PROCS.get() {
        return Ok(p);
    }
    if shim_core::mpi::is_finalized() {
        return Err("MPI has already been finalised in this process".into());
    }
    let mut we_initialized = false;
    if !shim_core::mpi::is_initialized() {
        shim_core::mpi::init_thread_multiple().map_err(|e| e.to_string())?;
        we_initialized = true;
    }
    let world = sys::world();
    let world_rank = world.rank();
    let host = shim_core::mpi::processor_name();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    host.hash(&mut h);
    let mut rec = [0u8; REC];
    rec[0] = server as u8;
    rec[4..8].copy_from_slice(&sys::getpid().to_le_bytes());
    rec[8..16].copy_from_slice(&h.finish().to_le_bytes());
    let hb = host.as_bytes();
    let n = hb.len().min(63);
    rec[16..16 + n].copy_from_slice(&hb[..n]);
    let all = world.allgather(&rec)?;
    let size = all.len() / REC;
    let mut is_server = Vec::with_capacity(size);
    let mut node = Vec::with_capacity(size);
    let mut pid = Vec::with_capacity(size);
    let mut hashes: Vec<u64> = Vec::new();
    let mut hosts = Vec::new();
    for r in 0..size {
        let x = &all[r * REC..(r + 1) * REC];
        is_server.push(x[0] != 0);
        pid.push(i32::from_le_bytes([x[4], x[5], x[6], x[7]]));
        let hh = u64::from_le_bytes(x[8..16].try_into().unwrap_or_default());
        let idx = match hashes.iter().position(|&v| v == hh) {
            Some(i) => i,
            None => {
                hashes.push(hh);
                let name = &x[16..];
                let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
                hosts.push(String::from_utf8_lossy(&name[..end]).into_owned());
                hashes.len() - 1
            }
        };
        node.push(idx as u32);
    }
    let compute: Vec<i32> = (0..size as i32)
        .filter(|&r| !is_server[r as usize])
        .collect();
    let servers: Vec<i32> = (0..size as i32)
        .filter(|&r| is_server[r as usize])
        .collect();
    let split = world.split(server as i32, world_rank)?;
    split.errors_return();
    let ga_comm = world.dup()?;
    ga_comm.errors_return();
    let p = Procs {
        world_rank,
        node,
        pid,
        compute,
        servers,
        hosts,
        compute_comm: split,
        ga_comm,
        we_initialized,
    };
    let _ = PROCS.set(p);
    PROCS
        .get()
        .ok_or_else(|| "internal: layout not stored".to_string())
}
