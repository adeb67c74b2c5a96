//! A PVM task: enrolment on the backend, its tid, parent and siblings, the
//! pool of pre-launched ranks that `pvm_spawn` claims, and the system
//! messages tasks exchange (claims, sibling lists, kill requests).
//!
//! Tids are the backend's process ids, which follow PVM's layout (`t40001`
//! is rank 0 of the processes `mpiexec` started).

use crate::consts::err;
use crate::msgstate::MsgState;
use crate::{PvmError, PvmResult};
use shim_core::log::tracing::debug;
use shim_core::{Context, Match, Membership, ProcId};
use std::time::Duration;

/// System message tags (on the layer's own system context).
pub mod sys_tag {
    /// A pre-launched rank is claimed: parent, context, siblings.
    pub const CLAIM: i32 = 1;
    /// A pre-launched rank is not needed: it leaves quietly.
    pub const RELEASE: i32 = 2;
    /// A dynamically spawned task's context and siblings.
    pub const SIBLINGS: i32 = 3;
    /// `pvm_kill`.
    pub const KILL: i32 = 4;
    /// Ask a task to tell the sender when it exits (`pvm_notify`).
    pub const NOTIFY_ME: i32 = 5;
    /// A watched task exited: (tag, context, tid) for the watcher.
    pub const EXITED: i32 = 6;
    /// Tags from here on belong to the group service (`groups`).
    pub const GROUP_FIRST: i32 = 100;
}

/// Bytes each rank contributes to the enrolment exchange.
const FACT_LEN: usize = 128;

/// What every rank of the static world learns about every other at enrolment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankFacts {
    /// Which program of an MPMD launch it runs.
    pub appnum: i32,
    /// File name of its executable.
    pub program: String,
    /// Host it runs on.
    pub host: String,
}

impl RankFacts {
    fn encode(&self) -> [u8; FACT_LEN] {
        let mut b = [0u8; FACT_LEN];
        b[..4].copy_from_slice(&self.appnum.to_le_bytes());
        let put = |b: &mut [u8], s: &str| {
            let n = s.len().min(b.len() - 1);
            b[..n].copy_from_slice(&s.as_bytes()[..n]);
        };
        put(&mut b[4..64], &self.program);
        put(&mut b[64..], &self.host);
        b
    }

    fn decode(b: &[u8]) -> RankFacts {
        let text = |b: &[u8]| {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8_lossy(&b[..end]).into_owned()
        };
        RankFacts {
            appnum: i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            program: text(&b[4..64]),
            host: text(&b[64..FACT_LEN]),
        }
    }
}

/// The file name part of a path.
pub fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// How this task came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Started by the launcher, not spawned.
    Launched,
    /// Started by `MPI_Comm_spawn` on behalf of `pvm_spawn`.
    Spawned,
    /// Pre-launched and claimed by a `pvm_spawn`.
    Claimed,
}

/// One enrolled task.
pub struct Task {
    membership: Option<Membership>,
    /// Own tid.
    pub me: i32,
    /// User messages.
    pub user: Context,
    /// System messages of the layer.
    pub sys: Context,
    /// Group operations' data (bcast, reduce, scatter, gather), apart from
    /// user messages.
    pub groups: Context,
    /// Group membership and barrier state (see `groups`).
    pub group_state: crate::groups::GroupState,
    /// Parent tid, if spawned or claimed.
    pub parent: Option<i32>,
    /// Sibling tids, once known.
    pub siblings: Option<Vec<i32>>,
    /// How the task started.
    pub origin: Origin,
    /// Facts of the static world, by rank.
    pub world: Vec<RankFacts>,
    /// The static world's tids, by rank.
    pub world_tids: Vec<i32>,
    /// Pre-launched ranks nobody claimed yet (kept by the first process).
    pub pool: Vec<i32>,
    /// The virtual machine's hosts and where tasks run (see `hosts`).
    pub machine: crate::hosts::Machine,
    /// Messages, buffers and options.
    pub msg: MsgState,
    /// Tasks to tell when this one exits: (watcher, tag, context).
    pub watchers: Vec<(i32, i32, i32)>,
    /// Exits this task waits to hear of (`pvm_notify`), until a notice is
    /// queued: from the task's own goodbye, or from its process found gone.
    pub watching: Vec<Watch>,
    /// When the watched tasks' processes were last looked at.
    pub last_liveness_check: std::time::Instant,
    /// Tasks this one has heard ended (their exit notices came).
    pub ended: std::collections::BTreeSet<i32>,
    /// When system messages were last looked at.
    pub last_system_check: std::time::Instant,
    /// Calls of the periodic system check left before it reads the clock.
    pub system_check_skips: u32,
    /// Payloads at least this large, delivered straight to a waiting
    /// receive, stay in MPI until read (`usize::MAX`: never; see
    /// [`lazy_threshold`]).
    pub lazy_min: usize,
}

/// A `pvm_notify(PvmTaskExit)` this task is waiting to be told about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// The watched task.
    pub tid: i32,
    /// The notice's message tag.
    pub tag: i32,
    /// The notice's context (the caller's at notify time).
    pub ctx: i32,
}

/// How often the processes of watched tasks are looked at: a task that
/// ended without saying goodbye (killed, crashed, `exit` without
/// `pvm_exit`) is reported within about this long.
const LIVENESS_CHECK: Duration = Duration::from_millis(100);

/// Payloads of at least this many bytes delivered straight to a waiting
/// `pvm_recv`/`pvm_trecv`/`pvm_nrecv` stay in MPI until the buffer is read.
pub const LAZY_MIN: usize = 64 * 1024;

/// The lazy receive threshold: never by default (every payload is received
/// within the receive call, and a buffer keeps its body however it is
/// read, as in PVM); [`LAZY_MIN`] when the environment sets
/// `MPBRIDGE_PVM_LAZY_RECV=1`, which saves a copy of large messages at the
/// price described in the README.
pub fn lazy_threshold() -> usize {
    match std::env::var("MPBRIDGE_PVM_LAZY_RECV") {
        Ok(v) if v.trim() == "1" => LAZY_MIN,
        _ => usize::MAX,
    }
}

fn core_err(e: shim_core::CoreError) -> PvmError {
    match e {
        shim_core::CoreError::InvalidArgument(_) => PvmError(err::BAD_PARAM),
        shim_core::CoreError::UnknownPeer(_) => PvmError(err::NO_TASK),
        _ => PvmError(err::SYS_ERR),
    }
}

/// Maps a backend error to a PVM code.
pub fn from_core(e: shim_core::CoreError) -> PvmError {
    core_err(e)
}

/// The tid of a backend process id.
pub fn tid_of(id: ProcId) -> i32 {
    id.raw() as i32
}

/// The backend process id of a tid that names a task.
pub fn id_of(tid: i32) -> Option<ProcId> {
    u32::try_from(tid).ok().and_then(ProcId::from_raw)
}

fn ids_bytes(tids: &[i32]) -> Vec<u8> {
    tids.iter().flat_map(|t| t.to_le_bytes()).collect()
}

fn bytes_ids(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Body of a CLAIM or SIBLINGS message: parent, context, siblings.
pub fn family_body(parent: i32, context: i32, siblings: &[i32]) -> Vec<u8> {
    let mut v = Vec::with_capacity(8 + 4 * siblings.len());
    v.extend_from_slice(&parent.to_le_bytes());
    v.extend_from_slice(&context.to_le_bytes());
    v.extend_from_slice(&ids_bytes(siblings));
    v
}

fn parse_family(b: &[u8]) -> Option<(i32, i32, Vec<i32>)> {
    if b.len() < 8 || !b.len().is_multiple_of(4) {
        return None;
    }
    let p = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let c = i32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    Some((p, c, bytes_ids(&b[8..])))
}

/// The base name of this process's program file. Linux names a file
/// replaced since the process started "NAME (deleted)" (a program rebuilt
/// or copied over while its job runs); the task still runs NAME, and
/// `pvm_spawn` claims and `pvm_tasks` reports it under that name.
pub(crate) fn own_program() -> String {
    let name = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    program_of_exe_name(&name).to_string()
}

/// The program name in the file name Linux reports for a process's
/// executable (without the mark of a file replaced since it started).
fn program_of_exe_name(name: &str) -> &str {
    name.strip_suffix(" (deleted)").unwrap_or(name)
}

impl Task {
    /// Enrols this process: joins the backend and exchanges the facts of the
    /// static world (collective over it). A pre-launched rank of a later
    /// MPMD program waits here until a `pvm_spawn` claims it; if nobody does,
    /// it leaves and the process ends quietly.
    pub fn enroll() -> PvmResult<Task> {
        let membership = shim_core::join("pvm").map_err(core_err)?;
        let user = Context::create("pvm").map_err(core_err)?;
        let sys = Context::create("pvm.sys").map_err(core_err)?;
        let groups = Context::create("pvm.groups").map_err(core_err)?;
        let me = tid_of(shim_core::my_id().map_err(core_err)?);
        let world_tids: Vec<i32> = shim_core::world_ids()
            .map_err(core_err)?
            .into_iter()
            .map(tid_of)
            .collect();
        let parent = shim_core::parent().map_err(core_err)?.map(tid_of);
        let mine = RankFacts {
            appnum: shim_core::mpi::appnum(),
            program: own_program(),
            host: shim_core::mpi::processor_name(),
        };
        let all = shim_core::roles::compute_comm()
            .map_err(core_err)?
            .allgather(&mine.encode())
            .map_err(core_err)?;
        let world: Vec<RankFacts> = all.chunks_exact(FACT_LEN).map(RankFacts::decode).collect();
        let world_hosts: Vec<String> = world.iter().map(|f| f.host.clone()).collect();
        let machine = crate::hosts::Machine::from_env(&world_hosts, &world_tids);
        let mut task = Task {
            membership: Some(membership),
            me,
            user,
            sys,
            groups,
            group_state: Default::default(),
            parent,
            siblings: None,
            origin: Origin::Launched,
            world,
            world_tids,
            pool: Vec::new(),
            machine,
            msg: MsgState::new(me),
            watchers: Vec::new(),
            watching: Vec::new(),
            last_liveness_check: std::time::Instant::now(),
            ended: Default::default(),
            last_system_check: std::time::Instant::now(),
            system_check_skips: 0,
            lazy_min: lazy_threshold(),
        };
        // A process that ends without pvm_exit still leaves PVM first.
        shim_core::lifecycle::before_finalize(crate::state::leave_at_exit);
        if let Some(p) = parent {
            debug!(target: "pvm", parent = %format_args!("t{p:x}"), "enrolled: spawned by pvm_spawn");
            task.origin = Origin::Spawned;
            // A spawned task starts in its parent's context at spawn time,
            // which came with the spawn itself: it holds before this task's
            // first PVM call returns.
            if let Some(ctx) = shim_core::spawn::spawn_note().and_then(|n| i32::try_from(n).ok()) {
                if (0..crate::consts::ctx::SYSCTX_DG).contains(&ctx) {
                    task.msg.context = ctx;
                }
            }
            return Ok(task);
        }
        let first_app = task.world.iter().map(|f| f.appnum).min().unwrap_or(0);
        if mine.appnum == first_app {
            task.siblings = Some(
                task.world
                    .iter()
                    .zip(&task.world_tids)
                    .filter(|(f, _)| f.appnum == first_app)
                    .map(|(_, t)| *t)
                    .collect(),
            );
            debug!(
                target: "pvm",
                tasks = task.siblings.as_ref().map_or(0, Vec::len),
                "enrolled: started by the launcher"
            );
            if me == task.world_tids[0] {
                task.pool = task
                    .world
                    .iter()
                    .zip(&task.world_tids)
                    .filter(|(f, _)| f.appnum != first_app)
                    .map(|(_, t)| *t)
                    .collect();
            }
            return Ok(task);
        }
        task.wait_for_claim()?;
        Ok(task)
    }

    /// A pre-launched rank waits for its claim (or release).
    fn wait_for_claim(&mut self) -> PvmResult<()> {
        let root = id_of(self.world_tids[0]).ok_or(PvmError(err::SYS_ERR))?;
        loop {
            let m = self
                .sys
                .recv(Match::new(Some(root), None), None)
                .map_err(core_err)?;
            match m.tag {
                sys_tag::CLAIM => {
                    let (p, c, sibs) = parse_family(&m.data).ok_or(PvmError(err::BAD_MSG))?;
                    self.parent = Some(p);
                    self.msg.context = c;
                    self.siblings = Some(sibs);
                    self.origin = Origin::Claimed;
                    debug!(target: "pvm", parent = %format_args!("t{p:x}"), "enrolled: pre-launched task claimed by pvm_spawn");
                    return Ok(());
                }
                sys_tag::RELEASE => {
                    debug!(target: "pvm", "pre-launched task not claimed by any pvm_spawn: leaving");
                    self.leave();
                    std::process::exit(0);
                }
                _ => {}
            }
        }
    }

    /// The sibling list, waiting for it if this task was just spawned.
    pub fn siblings(&mut self) -> PvmResult<Vec<i32>> {
        while self.siblings.is_none() {
            let parent = self.parent.and_then(id_of).ok_or(PvmError(err::SYS_ERR))?;
            let m = self
                .sys
                .recv(Match::new(Some(parent), Some(sys_tag::SIBLINGS)), None)
                .map_err(core_err)?;
            // The context came with the spawn; the task may have changed it since.
            let (_, _, sibs) = parse_family(&m.data).ok_or(PvmError(err::BAD_MSG))?;
            self.siblings = Some(sibs);
        }
        Ok(self.siblings.clone().unwrap_or_default())
    }

    /// Names of the virtual machine's hosts, in host-id order.
    pub fn hosts(&self) -> Vec<String> {
        self.machine.names()
    }

    /// Handles pending system messages: kill requests, notify requests and
    /// exit notices; then looks for watched tasks that ended without a
    /// goodbye. Returns `true` if this task was killed.
    pub fn serve_system(&mut self) -> PvmResult<bool> {
        loop {
            let m = match self.sys.recv(Match::new(None, None), Some(Duration::ZERO)) {
                Ok(m) => m,
                Err(shim_core::CoreError::Timeout) => {
                    self.check_watched();
                    return Ok(false);
                }
                Err(e) => return Err(core_err(e)),
            };
            let from = tid_of(m.source);
            match m.tag {
                sys_tag::KILL => {
                    debug!(target: "pvm", by = %format_args!("t{from:x}"), "killed by pvm_kill");
                    return Ok(true);
                }
                sys_tag::NOTIFY_ME if m.data.len() == 8 => {
                    let w = bytes_ids(&m.data);
                    self.watchers.push((from, w[0], w[1]));
                }
                sys_tag::EXITED if m.data.len() == 8 => {
                    let w = bytes_ids(&m.data);
                    self.exit_heard(Watch {
                        tid: from,
                        tag: w[0],
                        ctx: w[1],
                    });
                }
                sys_tag::SIBLINGS => {
                    if let Some((_, _, sibs)) = parse_family(&m.data) {
                        self.siblings = Some(sibs);
                    }
                }
                t if (crate::mbox::tag::FIRST..=crate::mbox::tag::LAST).contains(&t) => {
                    crate::mbox::on_system(self, from, t, &m.data)?
                }
                t if t >= sys_tag::GROUP_FIRST => crate::groups::on_system(self, from, t, &m.data)?,
                _ => {}
            }
        }
    }

    /// Queues the exit notice of `w` if this task still waits for it (a
    /// goodbye that comes after the process was found gone is dropped, so
    /// each notify gives one notice).
    fn exit_heard(&mut self, w: Watch) {
        self.ended.insert(w.tid);
        if let Some(i) = self.watching.iter().position(|x| *x == w) {
            self.watching.remove(i);
            self.msg.notify_arrived(w.tag, w.ctx, w.tid);
        }
    }

    /// Whether task `tid` is known to have ended: it said goodbye to this
    /// task, or its process is gone.
    pub fn is_gone(&self, tid: i32) -> bool {
        self.ended.contains(&tid)
            || id_of(tid).is_some_and(|id| shim_core::api::peer_gone(id).unwrap_or(false))
    }

    /// Queues the exit notices of watched tasks whose processes are gone
    /// (looked at no more often than `LIVENESS_CHECK`).
    fn check_watched(&mut self) {
        self.check_hosts_down();
        if self.watching.is_empty() || self.last_liveness_check.elapsed() < LIVENESS_CHECK {
            return;
        }
        self.last_liveness_check = std::time::Instant::now();
        let mut gone: Vec<i32> = Vec::new();
        for w in &self.watching {
            if !gone.contains(&w.tid) && self.is_gone(w.tid) {
                gone.push(w.tid);
            }
        }
        if gone.is_empty() {
            return;
        }
        debug!(
            target: "pvm",
            gone = ?gone.iter().map(|t| format!("t{t:x}")).collect::<Vec<_>>(),
            "watched tasks ended without pvm_exit: their exit notices are queued"
        );
        for t in &gone {
            self.ended.insert(*t);
            if let Some(id) = id_of(*t) {
                let _ = shim_core::api::forget_gone(id);
            }
        }
        for w in std::mem::take(&mut self.watching) {
            if gone.contains(&w.tid) {
                self.msg.notify_arrived(w.tag, w.ctx, w.tid);
            } else {
                self.watching.push(w);
            }
        }
    }

    /// Tells watchers this task exits, releases unclaimed pre-launched
    /// ranks, and leaves the backend.
    pub fn leave(&mut self) {
        let _ = self.serve_system();
        // Before the pool is released and the backend left: the first
        // process keeps serving group requests here until every other task
        // has left PVM.
        crate::groups::leave_all(self);
        debug!(
            target: "pvm",
            watchers = self.watchers.len(),
            released = self.pool.len(),
            "leaving PVM: exit notices to the watchers, unclaimed pre-launched tasks released"
        );
        for (w, tag, c) in std::mem::take(&mut self.watchers) {
            if let Some(id) = id_of(w) {
                let body = ids_bytes(&[tag, c]);
                let _ = self.sys.send(id, sys_tag::EXITED, 0, &body);
            }
        }
        for t in std::mem::take(&mut self.pool) {
            if let Some(id) = id_of(t) {
                let _ = self.sys.send(id, sys_tag::RELEASE, 0, &[]);
            }
        }
        if let Some(m) = self.membership.take() {
            let _ = shim_core::leave(m);
        }
    }

    /// The pvmd-style tid that exit notices come from (host part, top bit).
    pub fn daemon_tid(tid: i32) -> i32 {
        (0x8000_0000u32 | (tid as u32 & 0x3ffc_0000)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::program_of_exe_name;

    #[test]
    fn a_replaced_program_file_keeps_its_program_name() {
        assert_eq!(program_of_exe_name("spare (deleted)"), "spare");
        assert_eq!(program_of_exe_name("spare"), "spare");
        assert_eq!(
            program_of_exe_name("my (deleted) prog"),
            "my (deleted) prog"
        );
    }
}
