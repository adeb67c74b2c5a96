//! The MPI component runtime: the virtual envelope of a process (named
//! contexts, roots inside contexts, multiports, topology arguments) made
//! real from the arguments the MPI loader put on its command line.
//!
//! [`Envelope::from_args`] is collective over `MPI_COMM_WORLD`: every
//! process splits it once per group of the composition (see
//! [`ensemble_lang::envargs`]).

use ensemble_lang::envargs::{EnvArgsError, EnvSpec};
use shim_core::mpi::Comm;

pub use super::RuntimeError;

impl From<EnvArgsError> for RuntimeError {
    fn from(e: EnvArgsError) -> Self {
        RuntimeError(format!("SetEnvArgs: {e}"))
    }
}

/// A context: a communicator made for one group name.
#[derive(Clone, Debug)]
pub struct Context {
    pub name: String,
    pub group: String,
    pub comm: Comm,
    /// Process ids of the members, by rank.
    ids: Vec<i32>,
}

impl Context {
    /// Rank of process `id` in this context.
    pub fn rank_of(&self, id: i32) -> Option<i32> {
        self.ids.iter().position(|&x| x == id).map(|r| r as i32)
    }

    /// Number of members.
    pub fn size(&self) -> usize {
        self.ids.len()
    }
}

/// A root of a collective: its rank in the context's communicator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Root {
    pub rank: i32,
    pub comm: Comm,
}

/// A bound port: peer rank and tag in the context's communicator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortAddr {
    pub rank: i32,
    pub tag: i32,
    pub comm: Comm,
}

/// One process's envelope with its communicators.
#[derive(Debug)]
pub struct Envelope {
    spec: EnvSpec,
    contexts: Vec<Context>,
}

fn mpi(what: &str, e: shim_core::CoreError) -> RuntimeError {
    RuntimeError(format!("SetEnvArgs: {what}: {e}"))
}

impl Envelope {
    /// Reads the envelope from `args` (a whole argv), builds the
    /// communicators (collective over `MPI_COMM_WORLD`), and returns the
    /// arguments that remain for the application. MPI must be initialised.
    pub fn from_args(args: &[String]) -> Result<(Envelope, Vec<String>), RuntimeError> {
        if !shim_core::mpi::is_initialized() {
            return Err(RuntimeError(
                "SetEnvArgs: MPI is not initialised; call MPI_Init first".into(),
            ));
        }
        let (spec, rest) = EnvSpec::extract(args)?.ok_or_else(|| {
            RuntimeError(
                "SetEnvArgs: no envelope on the command line; start the component with \
                 `mpbridge ensemble run SCRIPT`"
                    .into(),
            )
        })?;
        let world = Comm::world();
        if let Ok(rank) = world.rank() {
            shim_core::log::init_without_id(rank);
        }
        let mut contexts = Vec::new();
        for g in &spec.groups {
            let member = spec.contexts.iter().any(|(_, cg)| cg == g);
            let comm = world
                .split(member.then_some(0), spec.id)
                .map_err(|e| mpi(&format!("splitting group {g}"), e))?;
            let Some(comm) = comm else { continue };
            let all = comm
                .allgather(&spec.id.to_le_bytes())
                .map_err(|e| mpi(&format!("ids of group {g}"), e))?;
            let ids: Vec<i32> = all
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            for (c, _) in spec.contexts.iter().filter(|(_, cg)| cg == g) {
                contexts.push(Context {
                    name: c.clone(),
                    group: g.clone(),
                    comm,
                    ids: ids.clone(),
                });
            }
        }
        let env = Envelope { spec, contexts };
        env.validate()?;
        shim_core::log::tracing::debug!(
            target: "ensemble",
            "component {} (id {}) set up: contexts {:?}",
            env.spec.name,
            env.spec.id,
            env.contexts
                .iter()
                .map(|c| format!("{} in {} of {}", c.name, c.group, c.ids.len()))
                .collect::<Vec<_>>()
        );
        Ok((env, rest))
    }

    /// Every root and port names a member of its context.
    fn validate(&self) -> Result<(), RuntimeError> {
        let me = &self.spec.name;
        let context = |name: &str| {
            self.context(name)
                .ok_or_else(|| RuntimeError(format!("SetEnvArgs: {me}: no context {name}")))
        };
        for r in &self.spec.roots {
            let c = context(&r.context)?;
            if c.rank_of(r.id).is_none() {
                return Err(RuntimeError(format!(
                    "SetEnvArgs: {me}: root {} is process {}, not a member of group {} (context {})",
                    r.name, r.id, c.group, c.name
                )));
            }
        }
        for p in &self.spec.ports {
            let c = context(&p.context)?;
            if c.rank_of(p.peer).is_none() {
                return Err(RuntimeError(format!(
                    "SetEnvArgs: {me}: port {}[{}] peer is process {}, not a member of group {} (context {})",
                    p.port_type, p.index, p.peer, c.group, c.name
                )));
            }
        }
        Ok(())
    }

    /// This process's label in the script (e.g. `S[2]`).
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// This process's id (its rank in `MPI_COMM_WORLD`).
    pub fn id(&self) -> i32 {
        self.spec.id
    }

    /// Context `name`.
    pub fn context(&self, name: &str) -> Option<&Context> {
        self.contexts.iter().find(|c| c.name == name)
    }

    /// The communicator of context `name`.
    pub fn comm(&self, name: &str) -> Option<Comm> {
        self.context(name).map(|c| c.comm)
    }

    /// Root `root` of context `ctx`.
    pub fn root(&self, root: &str, ctx: &str) -> Option<Root> {
        let r = self
            .spec
            .roots
            .iter()
            .find(|r| r.name == root && r.context == ctx)?;
        let c = self.context(ctx)?;
        Some(Root {
            rank: c.rank_of(r.id)?,
            comm: c.comm,
        })
    }

    /// Port `index` (1-based) of multiport `ty` in context `ctx`.
    pub fn port(&self, ty: &str, index: u32, ctx: &str) -> Option<PortAddr> {
        let p = self
            .spec
            .ports
            .iter()
            .find(|p| p.port_type == ty && p.index == index && p.context == ctx)?;
        let c = self.context(ctx)?;
        Some(PortAddr {
            rank: c.rank_of(p.peer)?,
            tag: p.tag,
            comm: c.comm,
        })
    }

    /// Number of bound ports of multiport `ty` (the highest index bound).
    pub fn port_count(&self, ty: &str) -> u32 {
        self.spec
            .ports
            .iter()
            .filter(|p| p.port_type == ty)
            .map(|p| p.index)
            .max()
            .unwrap_or(0)
    }

    /// Topology argument `name`.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.spec
            .args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}
