//! Compute ranks and server ranks. A job may hold data-server processes
//! (`mpiexec -n 4 app : -n 1 ga-server`) beside the user's ranks. Servers
//! are invisible to the legacy APIs: every layer's world is the compute
//! communicator, `MPI_COMM_WORLD` without the servers.
//!
//! The split is collective over `MPI_COMM_WORLD`: a compute rank makes it at
//! its first join of the backend, a server in [`enter_as_server`]. Each
//! process also learns which node every rank runs on, so a client can find
//! the server of its own node.

use crate::error::{CoreError, CoreResult};
use crate::mpi::{self, Comm};
use std::sync::{Mutex, OnceLock};

/// What a process of the job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Runs the user's program.
    Compute,
    /// A data server (`ga-server`).
    Server,
}

/// Who is who in `MPI_COMM_WORLD`.
#[derive(Clone, Debug)]
pub struct Layout {
    /// This process's rank in `MPI_COMM_WORLD`.
    pub world_rank: i32,
    /// Size of `MPI_COMM_WORLD`.
    pub world_size: i32,
    /// Role of every world rank.
    pub roles: Vec<Role>,
    /// Node index of every world rank (0, 1, ... in order of first
    /// appearance; ranks on one host share an index).
    pub node: Vec<u32>,
    /// World rank of compute rank `i`.
    pub compute: Vec<i32>,
    /// World ranks of the servers, in rank order.
    pub servers: Vec<i32>,
}

impl Layout {
    /// The first server on `node`.
    pub fn server_of_node(&self, node: u32) -> Option<i32> {
        self.servers
            .iter()
            .copied()
            .find(|&s| self.node[s as usize] == node)
    }

    /// This process's role.
    pub fn my_role(&self) -> Role {
        self.roles[self.world_rank as usize]
    }

    /// This process's node index.
    pub fn my_node(&self) -> u32 {
        self.node[self.world_rank as usize]
    }

    /// Compute rank of world rank `w`, if it is a compute rank.
    pub fn compute_rank_of(&self, w: i32) -> Option<i32> {
        self.compute.iter().position(|&c| c == w).map(|i| i as i32)
    }

    /// Number of nodes in the job.
    pub fn nodes(&self) -> u32 {
        self.node.iter().copied().max().map_or(0, |m| m + 1)
    }
}

struct Split {
    layout: &'static Layout,
    compute: Option<Comm>,
    link: Comm,
}

static SPLIT: OnceLock<Split> = OnceLock::new();
/// Serialises the collective split (OnceLock cannot run fallible code).
static SPLITTING: Mutex<()> = Mutex::new(());

/// FNV-1a over the host name, to compare nodes.
fn node_key() -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in mpi::processor_name().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn establish(role: Role) -> CoreResult<&'static Split> {
    if let Some(s) = SPLIT.get() {
        if s.layout.my_role() != role {
            return Err(CoreError::Inconsistent(format!(
                "this process is already a {:?} rank",
                s.layout.my_role()
            )));
        }
        return Ok(s);
    }
    let _g = SPLITTING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = SPLIT.get() {
        return Ok(s);
    }
    if !mpi::is_initialized() || mpi::is_finalized() {
        return Err(CoreError::NotInitialized);
    }
    let world = Comm::world();
    let world_rank = world.rank()?;
    let world_size = world.size()?;
    let mut mine = [0u8; 12];
    mine[..4].copy_from_slice(&u32::from(role == Role::Server).to_le_bytes());
    mine[4..].copy_from_slice(&node_key().to_le_bytes());
    let all = world.allgather(&mine)?;
    let mut roles = Vec::with_capacity(world_size as usize);
    let mut keys: Vec<u64> = Vec::new();
    let mut node = Vec::with_capacity(world_size as usize);
    for rec in all.chunks_exact(12) {
        let is_server = u32::from_le_bytes([rec[0], rec[1], rec[2], rec[3]]) != 0;
        roles.push(if is_server {
            Role::Server
        } else {
            Role::Compute
        });
        let mut k = [0u8; 8];
        k.copy_from_slice(&rec[4..]);
        let key = u64::from_le_bytes(k);
        let idx = match keys.iter().position(|&x| x == key) {
            Some(i) => i,
            None => {
                keys.push(key);
                keys.len() - 1
            }
        };
        node.push(idx as u32);
    }
    let compute: Vec<i32> = (0..world_size)
        .filter(|&r| roles[r as usize] == Role::Compute)
        .collect();
    let servers: Vec<i32> = (0..world_size)
        .filter(|&r| roles[r as usize] == Role::Server)
        .collect();
    if compute.is_empty() {
        return Err(CoreError::Inconsistent(
            "the job has only server ranks and no program to serve".into(),
        ));
    }
    // Made here, by everyone at once, so a client's first talk to a server
    // needs no collective call.
    let link = world.dup()?;
    let comm = if servers.is_empty() {
        Some(world.dup()?)
    } else {
        world.split((role == Role::Compute).then_some(0), world_rank)?
    };
    let layout = Box::leak(Box::new(Layout {
        world_rank,
        world_size,
        roles,
        node,
        compute,
        servers,
    }));
    let split = Split {
        layout,
        compute: comm,
        link,
    };
    let _ = SPLIT.set(split);
    SPLIT
        .get()
        .ok_or_else(|| CoreError::Inconsistent("role split lost".into()))
}

/// Makes this process a server rank: initialises MPI if nobody did and takes
/// part in the split (collective over `MPI_COMM_WORLD` with every compute
/// rank's first join). A server finalises MPI itself when it is done.
pub fn enter_as_server() -> CoreResult<&'static Layout> {
    if !mpi::is_initialized() {
        mpi::init_thread_multiple()?;
    }
    establish(Role::Server).map(|s| s.layout)
}

/// The compute ranks' communicator (a private duplicate). The first call
/// makes the split and is collective over `MPI_COMM_WORLD`; MPI must be
/// initialised (layers call it when they join the backend).
pub fn compute_comm() -> CoreResult<Comm> {
    establish(Role::Compute)?
        .compute
        .ok_or_else(|| CoreError::Inconsistent("a server rank has no compute communicator".into()))
}

/// The job's layout, once the split is made.
pub fn layout() -> CoreResult<&'static Layout> {
    SPLIT
        .get()
        .map(|s| s.layout)
        .ok_or(CoreError::NotInitialized)
}

/// `MPI_COMM_WORLD`, for talking to servers.
pub fn world_comm() -> Comm {
    Comm::world()
}

/// A private duplicate of `MPI_COMM_WORLD` for traffic between compute
/// ranks and servers (made during the split, so using it is never
/// collective). Available once the split is made.
pub fn link_comm() -> CoreResult<Comm> {
    SPLIT.get().map(|s| s.link).ok_or(CoreError::NotInitialized)
}
