//! The Express state of one process: its context on the shared core, the
//! node numbering (with or without a host process), the cached
//! communicators of node lists, pending asynchronous operations, message
//! handlers and processor grids.
//!
//! The state starts on the first Express call of the process. That start is
//! collective over every process of the job (the core creates the layer's
//! context on all of them), so every process, host included, must make an
//! Express call; `exparam` is the usual first one.
//!
//! What never changes after the start (the context and the node
//! numbering) is also kept in a [`Directory`] outside the state's lock,
//! for the message path.

use crate::error::{ExError, ExResult, EXBADLIST, EXBADNODE, EXNOTMEMBER, EXSYSERR};
use crate::grid::Grid;
use crate::handler::Handler;
use crate::msg::Pending;
use shim_core::collective::Group;
use shim_core::mpi::{self, Comm};
use shim_core::{Context, Membership, Message, ProcId};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Wildcard for a source node or a message type in receives.
pub const DONTCARE: i32 = -1;
/// `nnodes` value meaning "every node" (the list is then ignored).
pub const ALLNODES: i32 = 0;
/// A node that does not exist: sends to it and receives from it do nothing
/// (grid shifts past a non-periodic edge give it).
pub const EXNONODE: i32 = -100;
/// `host` field of `exparam` when the job has no host process.
pub const EXNOHOST: i32 = -1;

/// The core context name of the layer.
const CONTEXT_NAME: &str = "express";

/// The node environment `exparam` fills in (C `struct nodenv`).
#[repr(C)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NodeEnv {
    /// This node's number (the host's: `nprocs`).
    pub procnum: i32,
    /// Number of nodes (the host not counted).
    pub nprocs: i32,
    /// The host's node number, or [`EXNOHOST`].
    pub host: i32,
    /// The process's mpbridge task id (the core id other layers report).
    pub taskid: i32,
}

/// This process's node environment (starts the layer: collective).
pub fn param(call: &str) -> ExResult<NodeEnv> {
    crate::msg::pump(call)?;
    with(call, |x| {
        Ok(NodeEnv {
            procnum: x.me,
            nprocs: x.nprocs(),
            host: x.host(),
            taskid: x.my_id.raw() as i32,
        })
    })
}

/// One process's Express state.
pub struct Express {
    /// The layer's context and node numbering (never change once started).
    dir: &'static Directory,
    /// This process's node number (`nprocs` on the host).
    pub me: i32,
    /// This process's core id.
    pub my_id: ProcId,
    /// The communicator of the nodes (`None` on the host).
    pub nodes: Option<Comm>,
    /// Collectives over every node (`None` on the host).
    every: Option<Group>,
    /// Communicators of node lists, by sorted list.
    lists: HashMap<Vec<i32>, Group>,
    /// Asynchronous operations by message id.
    pub pending: BTreeMap<i32, Pending>,
    /// Next message id.
    pub next_id: i32,
    /// Message handlers, in registration order.
    pub handlers: Vec<Handler>,
    /// Messages taken from the core that no receive could take whole (a
    /// blocking receive's message longer than its buffer); older than
    /// anything still in the core's queue, so every match looks here first.
    pub held: VecDeque<Message>,
    /// Grids by id (`None` once freed).
    pub grids: Vec<Grid>,
    _membership: Membership,
}

static STATE: Mutex<Option<Express>> = Mutex::new(None);

/// What never changes once the layer has started: its context and the
/// numbering of nodes. Kept apart from the state so that sends and
/// receives find their peers without taking the state's lock.
#[derive(Debug)]
pub struct Directory {
    /// The layer's context on the core.
    pub ctx: Context,
    /// Core ids by world rank.
    ids: Vec<ProcId>,
    /// Whether world rank 0 is a host process (not a node).
    has_host: bool,
    /// Number of nodes.
    nprocs: i32,
}

static DIRECTORY: OnceLock<Directory> = OnceLock::new();

/// The layer's directory, starting the layer first if needed.
pub fn directory(call: &str) -> ExResult<&'static Directory> {
    if let Some(d) = DIRECTORY.get() {
        return Ok(d);
    }
    with(call, |x| Ok(x.dir))
}

/// Whether a handler is registered or a posted receive waits: only then
/// must calls look for work of theirs before their own.
static BUSY: AtomicBool = AtomicBool::new(false);

/// Whether handlers or posted receives may have work.
pub fn busy() -> bool {
    BUSY.load(Ordering::Acquire)
}

fn lock() -> MutexGuard<'static, Option<Express>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on the state, starting the layer first if needed.
pub fn with<R>(call: &str, f: impl FnOnce(&mut Express) -> ExResult<R>) -> ExResult<R> {
    let mut g = lock();
    if g.is_none() {
        *g = Some(Express::start().map_err(|e| ExError::core(call, e))?);
    }
    f(g.as_mut().expect("started above"))
}

impl Express {
    fn start() -> shim_core::CoreResult<Express> {
        let membership = shim_core::join("express")?;
        let ctx = Context::create(CONTEXT_NAME)?;
        let ids = shim_core::world_ids()?;
        let rank = shim_core::world_rank()?;
        let my_id = shim_core::my_id()?;
        let world = ctx.comm()?;
        // The host is world rank 0 when it is the only process of the first
        // application of an MPMD launch (`-n 1 host : -n N node`).
        let (apps, _) = Group::of(world).allgatherv(&mpi::appnum().to_le_bytes())?;
        let apps: Vec<i32> = apps
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let has_host = apps.len() >= 2 && apps.iter().filter(|&&a| a == apps[0]).count() == 1;
        let off = has_host as i32;
        let nprocs = ids.len() as i32 - off;
        let is_host = has_host && rank == 0;
        let nodes = world.split((!is_host).then_some(0), rank)?;
        shim_core::log::tracing::debug!(
            target: "express",
            node = if is_host { nprocs } else { rank - off },
            nprocs,
            host = has_host,
            is_host,
            "Express started (collective over the job; world rank 0 is the host when it alone runs the first program of an MPMD launch)"
        );
        let dir = DIRECTORY.get_or_init(|| Directory {
            ctx,
            ids,
            has_host,
            nprocs,
        });
        Ok(Express {
            dir,
            me: if is_host { nprocs } else { rank - off },
            my_id,
            nodes,
            every: nodes.map(Group::of),
            lists: HashMap::new(),
            pending: BTreeMap::new(),
            next_id: 1,
            handlers: Vec::new(),
            grids: Vec::new(),
            held: VecDeque::new(),
            _membership: membership,
        })
    }

    /// Records whether handlers or posted receives exist (see [`busy`]).
    pub fn refresh_busy(&self) {
        let busy = !self.handlers.is_empty()
            || !self.held.is_empty()
            || self.pending.values().any(|p| matches!(p, Pending::Recv(_)));
        BUSY.store(busy, Ordering::Release);
    }

    /// The host's node number, or [`EXNOHOST`].
    pub fn host(&self) -> i32 {
        if self.dir.has_host {
            self.nprocs()
        } else {
            EXNOHOST
        }
    }

    /// Whether this process is the host.
    pub fn is_host(&self) -> bool {
        self.dir.has_host && self.me == self.nprocs()
    }

    /// The node numbering.
    pub fn dir(&self) -> &'static Directory {
        self.dir
    }

    /// The layer's context on the core.
    pub fn ctx(&self) -> Context {
        self.dir.ctx
    }

    /// Number of nodes.
    pub fn nprocs(&self) -> i32 {
        self.dir.nprocs
    }

    /// The core id of node `node` (see [`Directory::id_of`]).
    pub fn id_of(&self, call: &str, what: &str, node: i32) -> ExResult<Option<ProcId>> {
        self.dir.id_of(call, what, node)
    }

    /// The node number of core id `id` (see [`Directory::node_of`]).
    pub fn node_of(&self, id: ProcId) -> i32 {
        self.dir.node_of(id)
    }

    /// Checks a node list: [`Members::All`] for `ALLNODES` or a list of
    /// every node, else the list sorted.
    pub fn members(&self, call: &str, nnodes: i32, list: Option<&[i32]>) -> ExResult<Members> {
        if nnodes < 0 {
            return Err(ExError::new(
                EXBADLIST,
                format!("{call}: nnodes {nnodes} is negative"),
            ));
        }
        if nnodes == ALLNODES {
            return Ok(Members::All);
        }
        let Some(list) = list else {
            return Err(ExError::new(
                EXBADLIST,
                format!("{call}: nodelist is NULL with nnodes {nnodes}"),
            ));
        };
        let mut v = list.to_vec();
        v.sort_unstable();
        for w in v.windows(2) {
            if w[0] == w[1] {
                return Err(ExError::new(
                    EXBADLIST,
                    format!("{call}: node {} is listed twice", w[0]),
                ));
            }
        }
        if let Some(&bad) = v.iter().find(|&&n| n < 0 || n >= self.nprocs()) {
            return Err(ExError::new(
                EXBADLIST,
                format!(
                    "{call}: node {bad} in the node list is not a node (0..{})",
                    self.nprocs() - 1
                ),
            ));
        }
        if v.len() as i32 == self.nprocs() {
            return Ok(Members::All);
        }
        Ok(Members::List(v))
    }

    /// The communicator of the node list `members` (cached per distinct
    /// list); the caller must be a member.
    pub fn group(&mut self, call: &str, members: &Members) -> ExResult<&Group> {
        let members = match (members, &self.every) {
            (Members::All, Some(every)) => return Ok(every),
            (Members::All, None) => &[][..],
            (Members::List(v), _) => &v[..],
        };
        let Some(nodes) = self.nodes else {
            return Err(ExError::new(
                EXNOTMEMBER,
                format!("{call}: the host is not a node and takes no part in node collectives"),
            ));
        };
        if members.binary_search(&self.me).is_err() {
            return Err(ExError::new(
                EXNOTMEMBER,
                format!("{call}: node {} is not in the node list", self.me),
            ));
        }
        if !self.lists.contains_key(members) {
            shim_core::log::tracing::debug!(
                target: "express",
                ?members,
                "{call}: a communicator for a new node list"
            );
            let g = Group::create(nodes, members).map_err(|e| ExError::core(call, e))?;
            self.lists.insert(members.to_vec(), g);
        }
        self.lists
            .get(members)
            .ok_or_else(|| ExError::new(EXSYSERR, format!("{call}: node list lost")))
    }
}

/// The participants of a node collective, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Members {
    /// Every node (`ALLNODES`, or a list of all of them).
    All,
    /// Some nodes, sorted (node order).
    List(Vec<i32>),
}

impl Members {
    /// The position of `node` among the participants in node order (its
    /// rank in their communicator), if it is one; `nprocs` is the number
    /// of nodes.
    pub fn rank_of(&self, node: i32, nprocs: i32) -> Option<i32> {
        match self {
            Members::All => (0..nprocs).contains(&node).then_some(node),
            Members::List(v) => v.binary_search(&node).ok().map(|i| i as i32),
        }
    }
}

impl Directory {
    /// The core id of node `node` (the host included); `None` for
    /// [`EXNONODE`].
    pub fn id_of(&self, call: &str, what: &str, node: i32) -> ExResult<Option<ProcId>> {
        if node == EXNONODE {
            return Ok(None);
        }
        let off = self.has_host as i32;
        let rank = if node >= 0 && node < self.nprocs {
            node + off
        } else if self.has_host && node == self.nprocs {
            0
        } else {
            return Err(ExError::new(
                EXBADNODE,
                format!(
                    "{call}: {what} {node} is not a node (nodes are 0..{}{})",
                    self.nprocs - 1,
                    if self.has_host {
                        ", the host is nprocs"
                    } else {
                        ""
                    }
                ),
            ));
        };
        Ok(Some(self.ids[rank as usize]))
    }

    /// The node number of core id `id` (the host's is `nprocs`).
    pub fn node_of(&self, id: ProcId) -> i32 {
        match self.ids.iter().position(|&p| p == id) {
            Some(0) if self.has_host => self.nprocs,
            Some(r) => r as i32 - self.has_host as i32,
            None => EXNONODE,
        }
    }
}
