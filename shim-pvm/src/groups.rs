//! PVM groups (libgpvm3): membership kept by the group service in the first
//! process, collective operations directly between members.
//!
//! # The service
//! The first process (tid `t40001`, [`ProcId::root`]) keeps every group:
//! its members by instance number, whether it is frozen, and the barrier
//! and freeze calls in progress. Other tasks ask it with system messages
//! (tags from [`sys_tag::GROUP_FIRST`](crate::task::sys_tag::GROUP_FIRST))
//! and wait for its answer; the first process answers its own calls
//! directly. It answers whenever it is inside a PVM call that waits (every
//! such call looks at system messages), so — like PVM's `pvmgs` when it is
//! busy — a first process that computes for a long time outside PVM delays
//! the group calls of the others until its next PVM call.
//!
//! When the first process leaves PVM after groups were used, it keeps
//! answering until every other task of the job has left PVM (tasks say
//! goodbye when they leave), so late group calls of the others still get an
//! answer. A task that leaves PVM also leaves all its groups.
//!
//! # Collectives
//! `pvm_bcast` sends the active send buffer with the user's context, like
//! `pvm_mcast`. `pvm_reduce`, `pvm_scatter` and `pvm_gather` move raw
//! bytes between members on the task's own group context, so they never
//! match a user receive and leave the active send and receive buffers
//! alone. Members of a frozen group keep its member list and use it for the
//! collectives without asking the service again (as PVM caches static
//! groups); like PVM, they are not told when a frozen group later breaks up.
//!
//! # Differences from PVM worth knowing
//! - `pvm_freezegroup` completes when every current member has called it and
//!   the group has at least the largest size any caller asked for; callers
//!   passing different sizes are not an error.
//! - A barrier's count of -1 means the group size when the first caller
//!   arrives; later callers passing -1 join that barrier.

use crate::consts::err;
use crate::ops::{InPlaceMemory, Outcome};
use crate::task::{from_core, id_of, tid_of, Task};
use crate::{PvmError, PvmResult};
use shim_core::{CoreError, Match, Message, ProcId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

/// System message tags of the group service.
pub mod tag {
    /// Join a group; answer: the instance.
    pub const JOIN: i32 = 100;
    /// Leave a group.
    pub const LEAVE: i32 = 101;
    /// Size of a group.
    pub const GSIZE: i32 = 102;
    /// Instance of a tid (argument: the tid).
    pub const GETINST: i32 = 103;
    /// Tid of an instance (argument: the instance).
    pub const GETTID: i32 = 104;
    /// Arrive at a barrier (argument: the count); answered on release.
    pub const BARRIER: i32 = 105;
    /// Freeze a group (argument: the size); answered once frozen, with the
    /// member table.
    pub const FREEZE: i32 = 106;
    /// The member table: frozen flag, then tids by instance (-1 = free).
    pub const TABLE: i32 = 107;
    /// The sender leaves PVM: it leaves every group (no answer).
    pub const GOODBYE: i32 = 108;
    /// An answer of the service.
    pub const REPLY: i32 = 109;
}

/// Encoding word of the service's messages, so a wait can take exactly
/// them off the system context.
const GROUP_ENC: u32 = 0x4750_5301;

/// A free instance slot.
const NO_TID: i32 = -1;

/// How long a group wait blocks before looking at system messages again.
const SLICE: Duration = Duration::from_millis(20);

/// The same, in the first process while it waits for members' data: it must
/// answer the others' service requests meanwhile.
const ROOT_SLICE: Duration = Duration::from_millis(2);

// ---------------------------------------------------------------------------
// Wire format: little-endian words.

fn request_body(seq: u32, arg: i32, name: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(8 + name.len());
    v.extend_from_slice(&seq.to_le_bytes());
    v.extend_from_slice(&arg.to_le_bytes());
    v.extend_from_slice(name);
    v
}

fn parse_request(b: &[u8]) -> Option<(u32, i32, &[u8])> {
    if b.len() < 8 {
        return None;
    }
    let seq = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let arg = i32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    Some((seq, arg, &b[8..]))
}

fn reply_body(seq: u32, code: i32, extra: &[i32]) -> Vec<u8> {
    let mut v = Vec::with_capacity(8 + 4 * extra.len());
    v.extend_from_slice(&seq.to_le_bytes());
    v.extend_from_slice(&code.to_le_bytes());
    for x in extra {
        v.extend_from_slice(&x.to_le_bytes());
    }
    v
}

fn parse_reply(b: &[u8]) -> Option<(u32, Answer)> {
    if b.len() < 8 || !b.len().is_multiple_of(4) {
        return None;
    }
    let word = |i: usize| [b[i], b[i + 1], b[i + 2], b[i + 3]];
    let seq = u32::from_le_bytes(word(0));
    let code = i32::from_le_bytes(word(4));
    let extra = (8..b.len())
        .step_by(4)
        .map(|i| i32::from_le_bytes(word(i)))
        .collect();
    Some((seq, Answer { code, extra }))
}

// ---------------------------------------------------------------------------
// The service (first process only).

/// The service's answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Result: a value >= 0 or a PVM error code.
    pub code: i32,
    /// Further words (the member table for FREEZE and TABLE).
    pub extra: Vec<i32>,
}

/// An answer and who gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The requester.
    pub to: i32,
    /// Its request number.
    pub seq: u32,
    /// The answer.
    pub answer: Answer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Dynamic,
    Frozen,
    /// A member left a frozen group: no more barriers or collectives.
    Dead,
}

#[derive(Debug)]
struct Pending {
    /// Barrier count, or the size a freeze waits for.
    count: i32,
    /// Callers waiting for the release: (tid, request number).
    waiters: Vec<(i32, u32)>,
}

#[derive(Debug)]
struct Group {
    /// Tids by instance; `NO_TID` marks a free instance.
    tids: Vec<i32>,
    phase: Phase,
    barrier: Option<Pending>,
    freeze: Option<Pending>,
}

impl Group {
    fn new() -> Group {
        Group {
            tids: Vec::new(),
            phase: Phase::Dynamic,
            barrier: None,
            freeze: None,
        }
    }

    fn size(&self) -> i32 {
        self.tids.iter().filter(|&&t| t != NO_TID).count() as i32
    }

    fn inst_of(&self, tid: i32) -> Option<usize> {
        self.tids.iter().position(|&t| t == tid)
    }

    /// The member table as sent: frozen flag, then tids by instance.
    fn table(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(1 + self.tids.len());
        v.push(i32::from(self.phase == Phase::Frozen));
        v.extend_from_slice(&self.tids);
        v
    }
}

/// The group service's state.
#[derive(Debug, Default)]
pub struct Service {
    groups: BTreeMap<Vec<u8>, Group>,
    /// Whether any task used groups (then the first process waits for the
    /// others before it leaves).
    used: bool,
    /// Tasks that sent requests.
    seen: BTreeSet<i32>,
    /// Tasks that said goodbye.
    gone: BTreeSet<i32>,
}

fn answer(to: i32, seq: u32, code: i32) -> Delivery {
    Delivery {
        to,
        seq,
        answer: Answer {
            code,
            extra: Vec::new(),
        },
    }
}

impl Service {
    /// Handles request `op` of task `from`; returns the answers to send now
    /// (none while a barrier or freeze waits for more callers).
    pub fn handle(&mut self, from: i32, op: i32, seq: u32, arg: i32, name: &[u8]) -> Vec<Delivery> {
        if op == tag::GOODBYE {
            return self.goodbye(from);
        }
        self.used = true;
        self.seen.insert(from);
        if name.is_empty() {
            return vec![answer(from, seq, err::NULL_GROUP)];
        }
        match op {
            tag::JOIN => vec![answer(from, seq, self.join(name, from))],
            tag::LEAVE => {
                let mut out = Vec::new();
                let code = self.leave(name, from, &mut out);
                out.insert(0, answer(from, seq, code));
                out
            }
            tag::GSIZE => {
                let code = self.groups.get(name).map_or(err::NO_GROUP, Group::size);
                vec![answer(from, seq, code)]
            }
            tag::GETINST => {
                let code = match self.groups.get(name) {
                    None => err::NO_GROUP,
                    Some(g) => g.inst_of(arg).map_or(err::NOT_IN_GROUP, |i| i as i32),
                };
                vec![answer(from, seq, code)]
            }
            tag::GETTID => {
                let code = match self.groups.get(name) {
                    None => err::NO_GROUP,
                    Some(g) => usize::try_from(arg)
                        .ok()
                        .and_then(|i| g.tids.get(i).copied())
                        .filter(|&t| t != NO_TID)
                        .unwrap_or(err::NO_INST),
                };
                vec![answer(from, seq, code)]
            }
            tag::TABLE => match self.groups.get(name) {
                Some(g) if g.phase != Phase::Dead => vec![Delivery {
                    to: from,
                    seq,
                    answer: Answer {
                        code: 0,
                        extra: g.table(),
                    },
                }],
                _ => vec![answer(from, seq, err::NO_GROUP)],
            },
            tag::BARRIER => self.barrier(name, from, seq, arg),
            tag::FREEZE => self.freeze(name, from, seq, arg),
            _ => vec![answer(from, seq, err::BAD_PARAM)],
        }
    }

    fn join(&mut self, name: &[u8], tid: i32) -> i32 {
        let g = self.groups.entry(name.to_vec()).or_insert_with(Group::new);
        if g.phase != Phase::Dynamic {
            return err::NOT_IN_GROUP;
        }
        if g.inst_of(tid).is_some() {
            return err::DUP_GROUP;
        }
        match g.tids.iter().position(|&t| t == NO_TID) {
            Some(i) => {
                g.tids[i] = tid;
                i as i32
            }
            None => {
                g.tids.push(tid);
                g.tids.len() as i32 - 1
            }
        }
    }

    /// Removes `tid` from group `name`; answers to release go to `out`.
    fn leave(&mut self, name: &[u8], tid: i32, out: &mut Vec<Delivery>) -> i32 {
        let Some(g) = self.groups.get_mut(name) else {
            return err::NO_GROUP;
        };
        let Some(inst) = g.inst_of(tid) else {
            return err::NOT_IN_GROUP;
        };
        g.tids[inst] = NO_TID;
        while g.tids.last() == Some(&NO_TID) {
            g.tids.pop();
        }
        for p in [&mut g.barrier, &mut g.freeze].into_iter().flatten() {
            p.waiters.retain(|&(t, _)| t != tid);
        }
        if g.phase == Phase::Frozen {
            // A frozen group that loses a member is broken: waiting
            // barriers fail, and so will later ones.
            g.phase = Phase::Dead;
            if let Some(b) = g.barrier.take() {
                out.extend(b.waiters.iter().map(|&(t, s)| answer(t, s, err::NO_GROUP)));
            }
        }
        if g.size() == 0 {
            let g = self.groups.remove(name);
            for p in g.into_iter().flat_map(|g| [g.barrier, g.freeze]).flatten() {
                out.extend(p.waiters.iter().map(|&(t, s)| answer(t, s, err::NO_GROUP)));
            }
        } else {
            self.try_freeze(name, out);
        }
        0
    }

    fn barrier(&mut self, name: &[u8], tid: i32, seq: u32, count: i32) -> Vec<Delivery> {
        let Some(g) = self.groups.get_mut(name) else {
            return vec![answer(tid, seq, err::NO_GROUP)];
        };
        if g.phase == Phase::Dead {
            return vec![answer(tid, seq, err::NO_GROUP)];
        }
        if g.inst_of(tid).is_none() {
            return vec![answer(tid, seq, err::NOT_IN_GROUP)];
        }
        if count < 1 && count != -1 {
            return vec![answer(tid, seq, err::BAD_PARAM)];
        }
        let size = g.size();
        let b = g.barrier.get_or_insert_with(|| Pending {
            count: if count == -1 { size } else { count },
            waiters: Vec::new(),
        });
        if count != -1 && count != b.count {
            return vec![answer(tid, seq, err::MISMATCH)];
        }
        b.waiters.push((tid, seq));
        if (b.waiters.len() as i32) < b.count {
            return Vec::new();
        }
        let b = g.barrier.take().map(|b| b.waiters).unwrap_or_default();
        b.into_iter().map(|(t, s)| answer(t, s, 0)).collect()
    }

    fn freeze(&mut self, name: &[u8], tid: i32, seq: u32, size: i32) -> Vec<Delivery> {
        let Some(g) = self.groups.get_mut(name) else {
            return vec![answer(tid, seq, err::NO_GROUP)];
        };
        if g.phase != Phase::Dynamic {
            return vec![answer(tid, seq, err::DUP_GROUP)];
        }
        if g.inst_of(tid).is_none() {
            return vec![answer(tid, seq, err::NOT_IN_GROUP)];
        }
        if size < 1 && size != -1 {
            return vec![answer(tid, seq, err::BAD_PARAM)];
        }
        let want = if size == -1 { g.size() } else { size };
        let f = g.freeze.get_or_insert_with(|| Pending {
            count: want,
            waiters: Vec::new(),
        });
        f.count = f.count.max(want);
        f.waiters.retain(|&(t, _)| t != tid);
        f.waiters.push((tid, seq));
        let mut out = Vec::new();
        self.try_freeze(name, &mut out);
        out
    }

    /// Completes a pending freeze once every member called it and the group
    /// is big enough.
    fn try_freeze(&mut self, name: &[u8], out: &mut Vec<Delivery>) {
        let Some(g) = self.groups.get_mut(name) else {
            return;
        };
        let Some(f) = &g.freeze else { return };
        let all_called = g
            .tids
            .iter()
            .filter(|&&t| t != NO_TID)
            .all(|t| f.waiters.iter().any(|(w, _)| w == t));
        if !all_called || g.size() < f.count {
            return;
        }
        let waiters = g.freeze.take().map(|f| f.waiters).unwrap_or_default();
        g.phase = Phase::Frozen;
        let table = g.table();
        out.extend(waiters.into_iter().map(|(t, s)| Delivery {
            to: t,
            seq: s,
            answer: Answer {
                code: 0,
                extra: table.clone(),
            },
        }));
    }

    /// Task `tid` leaves PVM: it leaves every group.
    pub fn goodbye(&mut self, tid: i32) -> Vec<Delivery> {
        self.gone.insert(tid);
        let names: Vec<Vec<u8>> = self
            .groups
            .iter()
            .filter(|(_, g)| {
                g.inst_of(tid).is_some()
                    || [&g.barrier, &g.freeze]
                        .into_iter()
                        .flatten()
                        .any(|p| p.waiters.iter().any(|&(t, _)| t == tid))
            })
            .map(|(n, _)| n.clone())
            .collect();
        let mut out = Vec::new();
        for n in names {
            self.leave(&n, tid, &mut out);
        }
        out.retain(|d| d.to != tid);
        out
    }

    /// Whether task `tid` said goodbye.
    pub fn is_gone(&self, tid: i32) -> bool {
        self.gone.contains(&tid)
    }
}

// ---------------------------------------------------------------------------
// One task's side.

/// A group's members as the service reported them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Whether the group is frozen (then the table may be kept).
    pub frozen: bool,
    /// Tids by instance; -1 marks a free instance.
    pub tids: Vec<i32>,
}

impl Table {
    fn from_words(w: &[i32]) -> Table {
        Table {
            frozen: w.first().is_some_and(|&f| f != 0),
            tids: w.get(1..).unwrap_or(&[]).to_vec(),
        }
    }

    fn inst_of(&self, tid: i32) -> Option<usize> {
        self.tids.iter().position(|&t| t == tid)
    }

    /// The tid of instance `inst`, if it is taken.
    fn tid_of(&self, inst: i32) -> Option<i32> {
        usize::try_from(inst)
            .ok()
            .and_then(|i| self.tids.get(i).copied())
            .filter(|&t| t != NO_TID)
    }
}

/// Group state of one task (and, in the first process, of the service).
#[derive(Debug, Default)]
pub struct GroupState {
    /// Number of the last request sent.
    seq: u32,
    /// Answers that arrived and were not yet taken: (request number, answer).
    answers: Vec<(u32, Answer)>,
    /// Whether this task asked the service anything.
    used: bool,
    /// Member tables of frozen groups.
    cache: HashMap<Vec<u8>, Table>,
    /// The service (used in the first process only).
    service: Service,
}

/// The tid of the process that runs the service.
pub fn service_tid() -> i32 {
    tid_of(ProcId::root())
}

fn is_service(task: &Task) -> bool {
    task.me == service_tid()
}

fn group_messages() -> Match {
    let mut m = Match::new(None, None);
    m.encoding = (u32::MAX, GROUP_ENC);
    m
}

/// Hands the service's answers to their requesters (own ones are filed).
fn deliver(task: &mut Task, out: Vec<Delivery>) {
    for d in out {
        if d.to == task.me {
            task.group_state.answers.push((d.seq, d.answer));
        } else if let Some(id) = id_of(d.to) {
            let body = reply_body(d.seq, d.answer.code, &d.answer.extra);
            // A requester that is gone needs no answer.
            let _ = task.sys.send(id, tag::REPLY, GROUP_ENC, &body);
        }
    }
}

/// Handles a system message of the group service (tags from
/// `sys_tag::GROUP_FIRST`): requests in the first process, answers in
/// every task.
pub fn on_system(task: &mut Task, from: i32, tag: i32, body: &[u8]) -> PvmResult<()> {
    if tag == tag::REPLY {
        if let Some((seq, a)) = parse_reply(body) {
            task.group_state.answers.push((seq, a));
        }
        return Ok(());
    }
    if !(tag::JOIN..=tag::GOODBYE).contains(&tag) || !is_service(task) {
        return Ok(());
    }
    if let Some((seq, arg, name)) = parse_request(body) {
        let out = task.group_state.service.handle(from, tag, seq, arg, name);
        deliver(task, out);
    }
    Ok(())
}

fn dispatch(task: &mut Task, m: Message) -> PvmResult<()> {
    on_system(task, tid_of(m.source), m.tag, &m.data)
}

/// Sends a request to the service (or handles it here in the first
/// process) and waits for the answer, serving system messages meanwhile.
fn ask(task: &mut Task, op: i32, arg: i32, name: &[u8]) -> PvmResult<Outcome<Answer>> {
    task.group_state.seq = task.group_state.seq.wrapping_add(1);
    let seq = task.group_state.seq;
    task.group_state.used = true;
    if is_service(task) {
        let me = task.me;
        let out = task.group_state.service.handle(me, op, seq, arg, name);
        deliver(task, out);
    } else {
        let body = request_body(seq, arg, name);
        match task.sys.send(ProcId::root(), op, GROUP_ENC, &body) {
            Ok(()) => {}
            Err(CoreError::UnknownPeer(_)) => return Err(PvmError(err::SYS_ERR)),
            Err(e) => return Err(from_core(e)),
        }
    }
    loop {
        // System messages first, even when the answer is already here: the
        // service answers the others' requests during each of its own calls
        // (a task polling `pvm_gettid` in the first process must not starve
        // the tasks it waits for).
        if task.serve_system()? {
            return Ok(Outcome::Killed);
        }
        let st = &mut task.group_state;
        if let Some(i) = st.answers.iter().position(|(s, _)| *s == seq) {
            let (_, a) = st.answers.swap_remove(i);
            // Answers to requests given up on (a killed wait) are stale.
            st.answers.retain(|(s, _)| s.wrapping_sub(seq) as i32 > 0);
            return Ok(Outcome::Done(a));
        }
        match task.sys.recv(group_messages(), Some(SLICE)) {
            Ok(m) => dispatch(task, m)?,
            Err(CoreError::Timeout) => {}
            Err(e) => return Err(from_core(e)),
        }
    }
}

/// Asks the service for one value (>= 0 or an error code).
fn ask_value(task: &mut Task, op: i32, arg: i32, name: &[u8]) -> PvmResult<Outcome<i32>> {
    Ok(match ask(task, op, arg, name)? {
        Outcome::Killed => Outcome::Killed,
        Outcome::Done(a) if a.code < 0 => return Err(PvmError(a.code)),
        Outcome::Done(a) => Outcome::Done(a.code),
    })
}

fn check_name(name: &[u8]) -> PvmResult<()> {
    if name.is_empty() {
        Err(PvmError(err::NULL_GROUP))
    } else {
        Ok(())
    }
}

/// `pvm_joingroup`: the lowest free instance.
pub fn join(task: &mut Task, name: &[u8]) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    // A group one can join is not frozen: a kept table is from an earlier
    // group of that name.
    task.group_state.cache.remove(name);
    ask_value(task, tag::JOIN, 0, name)
}

/// `pvm_lvgroup`.
pub fn leave(task: &mut Task, name: &[u8]) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    task.group_state.cache.remove(name);
    ask_value(task, tag::LEAVE, 0, name)
}

/// `pvm_gsize`: the current number of members.
pub fn gsize(task: &mut Task, name: &[u8]) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    ask_value(task, tag::GSIZE, 0, name)
}

/// `pvm_getinst`: the instance of `tid`.
pub fn getinst(task: &mut Task, name: &[u8], tid: i32) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    if !crate::consts::tid::is_task(tid) {
        return Err(PvmError(err::BAD_PARAM));
    }
    ask_value(task, tag::GETINST, tid, name)
}

/// `pvm_gettid`: the tid of instance `inst`.
pub fn gettid(task: &mut Task, name: &[u8], inst: i32) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    if inst < 0 {
        return Err(PvmError(err::NO_INST));
    }
    ask_value(task, tag::GETTID, inst, name)
}

/// `pvm_barrier`: waits until `count` members (-1: all) arrived.
pub fn barrier(task: &mut Task, name: &[u8], count: i32) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    if count < 1 && count != -1 {
        return Err(PvmError(err::BAD_PARAM));
    }
    let r = ask_value(task, tag::BARRIER, count, name);
    if matches!(r, Err(PvmError(err::NO_GROUP))) {
        // The group broke up (or is gone): its kept table is stale.
        task.group_state.cache.remove(name);
    }
    r.map(|o| match o {
        Outcome::Done(_) => Outcome::Done(0),
        k => k,
    })
}

/// `pvm_freezegroup`: waits until every member called it and the group has
/// `size` members (-1: its current size); the group is then static.
pub fn freeze(task: &mut Task, name: &[u8], size: i32) -> PvmResult<Outcome<i32>> {
    check_name(name)?;
    if size < 1 && size != -1 {
        return Err(PvmError(err::BAD_PARAM));
    }
    match ask(task, tag::FREEZE, size, name)? {
        Outcome::Killed => Ok(Outcome::Killed),
        Outcome::Done(a) if a.code < 0 => Err(PvmError(a.code)),
        Outcome::Done(a) => {
            let t = Table::from_words(&a.extra);
            task.group_state.cache.insert(name.to_vec(), t);
            Ok(Outcome::Done(0))
        }
    }
}

/// The members of `name`: kept ones for a frozen group, else the service's.
pub fn members(task: &mut Task, name: &[u8]) -> PvmResult<Outcome<Table>> {
    check_name(name)?;
    if let Some(t) = task.group_state.cache.get(name) {
        return Ok(Outcome::Done(t.clone()));
    }
    match ask(task, tag::TABLE, 0, name)? {
        Outcome::Killed => Ok(Outcome::Killed),
        Outcome::Done(a) if a.code < 0 => Err(PvmError(a.code)),
        Outcome::Done(a) => {
            let t = Table::from_words(&a.extra);
            if t.frozen {
                task.group_state.cache.insert(name.to_vec(), t.clone());
            }
            Ok(Outcome::Done(t))
        }
    }
}

/// `pvm_bcast`: the active send buffer to every member but the caller,
/// with the user's context (the caller need not be a member).
pub fn bcast(
    task: &mut Task,
    name: &[u8],
    msgtag: i32,
    mem: InPlaceMemory<'_>,
) -> PvmResult<Outcome<()>> {
    check_name(name)?;
    if msgtag < 0 {
        return Err(PvmError(err::BAD_PARAM));
    }
    let table = match members(task, name)? {
        Outcome::Killed => return Ok(Outcome::Killed),
        Outcome::Done(t) => t,
    };
    let me = task.me;
    let others: Vec<i32> = table
        .tids
        .iter()
        .copied()
        .filter(|&t| t != NO_TID && t != me)
        .collect();
    if others.is_empty() {
        // The caller is the only member.
        return Err(PvmError(err::NO_INST));
    }
    task.mcast(&others, msgtag, mem)?;
    Ok(Outcome::Done(()))
}

// ---------------------------------------------------------------------------
// Data collectives on the group context.

/// Encoding word of collective data: the user's context, so collectives
/// in different contexts never mix.
fn data_word(task: &Task) -> u32 {
    task.msg.context as u32
}

fn send_data(task: &mut Task, to: i32, msgtag: i32, bytes: &[u8]) -> PvmResult<()> {
    let Some(id) = id_of(to) else {
        return Err(PvmError(err::NO_INST));
    };
    match task.groups.send(id, msgtag, data_word(task), bytes) {
        Ok(()) => Ok(()),
        Err(CoreError::UnknownPeer(_)) => Err(PvmError(err::NO_TASK)),
        Err(e) => Err(from_core(e)),
    }
}

fn recv_data(task: &mut Task, from: i32, msgtag: i32) -> PvmResult<Outcome<Vec<u8>>> {
    let Some(id) = id_of(from) else {
        return Err(PvmError(err::NO_INST));
    };
    let mut pattern = Match::new(Some(id), Some(msgtag));
    pattern.encoding = (u32::MAX, data_word(task));
    let slice = if is_service(task) { ROOT_SLICE } else { SLICE };
    loop {
        if task.serve_system()? {
            return Ok(Outcome::Killed);
        }
        match task.groups.recv(pattern, Some(slice)) {
            Ok(m) => return Ok(Outcome::Done(m.data)),
            Err(CoreError::Timeout) => {}
            Err(e) => return Err(from_core(e)),
        }
    }
}

/// Checks a collective's tag and finds the caller's and the root's place.
/// Returns (table, own instance, root tid).
fn collective_setup(
    task: &mut Task,
    name: &[u8],
    msgtag: i32,
    rootinst: i32,
) -> PvmResult<Outcome<(Table, usize, i32)>> {
    if msgtag < 0 {
        return Err(PvmError(err::BAD_PARAM));
    }
    let table = match members(task, name)? {
        Outcome::Killed => return Ok(Outcome::Killed),
        Outcome::Done(t) => t,
    };
    let mine = table.inst_of(task.me).ok_or(PvmError(err::NO_INST))?;
    let root = table.tid_of(rootinst).ok_or(PvmError(err::NO_INST))?;
    Ok(Outcome::Done((table, mine, root)))
}

/// `pvm_reduce`: members send `mine()` (`len` bytes) to the root instance,
/// which folds each other member's data into its own with `combine`, in
/// instance order. Does not wait on members other than the root.
pub fn reduce(
    task: &mut Task,
    name: &[u8],
    msgtag: i32,
    rootinst: i32,
    len: usize,
    mine: &dyn Fn() -> Vec<u8>,
    combine: &mut dyn FnMut(&[u8]) -> PvmResult<()>,
) -> PvmResult<Outcome<()>> {
    let (table, _, root) = match collective_setup(task, name, msgtag, rootinst)? {
        Outcome::Killed => return Ok(Outcome::Killed),
        Outcome::Done(s) => s,
    };
    let me = task.me;
    if me != root {
        send_data(task, root, msgtag, &mine())?;
        return Ok(Outcome::Done(()));
    }
    let mut first_error: Option<PvmError> = None;
    for &t in table.tids.iter().filter(|&&t| t != NO_TID && t != me) {
        let data = match recv_data(task, t, msgtag)? {
            Outcome::Killed => return Ok(Outcome::Killed),
            Outcome::Done(d) => d,
        };
        if first_error.is_some() {
            continue;
        }
        if data.len() != len {
            first_error = Some(PvmError(err::MISMATCH));
        } else if let Err(e) = combine(&data) {
            first_error = Some(e);
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(Outcome::Done(())),
    }
}

fn no_holes(table: &Table) -> PvmResult<()> {
    if table.tids.contains(&NO_TID) {
        // Scatter and gather need instances 0..size-1.
        Err(PvmError(err::NO_INST))
    } else {
        Ok(())
    }
}

/// `pvm_scatter`: the root sends `part(i)` to instance `i` (its own part it
/// hands to `keep` directly); every other member hands what it receives to
/// `keep`.
pub fn scatter(
    task: &mut Task,
    name: &[u8],
    msgtag: i32,
    rootinst: i32,
    part: &dyn Fn(usize) -> PvmResult<Vec<u8>>,
    keep: &mut dyn FnMut(&[u8]),
) -> PvmResult<Outcome<()>> {
    let (table, mine, root) = match collective_setup(task, name, msgtag, rootinst)? {
        Outcome::Killed => return Ok(Outcome::Killed),
        Outcome::Done(s) => s,
    };
    if task.me != root {
        return Ok(match recv_data(task, root, msgtag)? {
            Outcome::Killed => Outcome::Killed,
            Outcome::Done(d) => {
                keep(&d);
                Outcome::Done(())
            }
        });
    }
    no_holes(&table)?;
    for (i, &t) in table.tids.iter().enumerate() {
        let bytes = part(i)?;
        if i == mine {
            keep(&bytes);
        } else {
            send_data(task, t, msgtag, &bytes)?;
        }
    }
    Ok(Outcome::Done(()))
}

/// `pvm_gather`: every member sends `mine()` to the root, which places
/// instance `i`'s data with `place(i, bytes)` (its own included). Does not
/// wait on members other than the root.
pub fn gather(
    task: &mut Task,
    name: &[u8],
    msgtag: i32,
    rootinst: i32,
    mine: &dyn Fn() -> Vec<u8>,
    place: &mut dyn FnMut(usize, &[u8]) -> PvmResult<()>,
) -> PvmResult<Outcome<()>> {
    let (table, me_inst, root) = match collective_setup(task, name, msgtag, rootinst)? {
        Outcome::Killed => return Ok(Outcome::Killed),
        Outcome::Done(s) => s,
    };
    if task.me != root {
        send_data(task, root, msgtag, &mine())?;
        return Ok(Outcome::Done(()));
    }
    no_holes(&table)?;
    let mut first_error: Option<PvmError> = None;
    for (i, &t) in table.tids.iter().enumerate() {
        let data = if i == me_inst {
            mine()
        } else {
            match recv_data(task, t, msgtag)? {
                Outcome::Killed => return Ok(Outcome::Killed),
                Outcome::Done(d) => d,
            }
        };
        if first_error.is_none() {
            if let Err(e) = place(i, &data) {
                first_error = Some(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(Outcome::Done(())),
    }
}

// ---------------------------------------------------------------------------
// Leaving PVM.

/// The task leaves PVM: it leaves all its groups. Call it when a task
/// leaves (`pvm_exit`, a kill), before it leaves the backend.
///
/// In the first process, which runs the service, this also waits — still
/// answering requests — until every other task that may use groups has
/// left too (if any task used groups at all): the static world's tasks
/// except unclaimed pre-launched ranks, and every task that asked the
/// service something.
pub fn leave_all(task: &mut Task) {
    task.group_state.cache.clear();
    if is_service(task) {
        let me = task.me;
        let out = task.group_state.service.goodbye(me);
        deliver(task, out);
        linger(task);
        return;
    }
    let in_world = id_of(task.me).is_some_and(|id| id.batch() == 0);
    // Tasks of the static world always say goodbye (the service may be
    // waiting for them); spawned ones only if they used groups.
    if task.group_state.used || (in_world && task.siblings.is_some()) {
        task.group_state.seq = task.group_state.seq.wrapping_add(1);
        let body = request_body(task.group_state.seq, 0, b"");
        let _ = task
            .sys
            .send(ProcId::root(), tag::GOODBYE, GROUP_ENC, &body);
    }
}

/// The service waits for the other tasks to leave PVM.
fn linger(task: &mut Task) {
    if !task.group_state.service.used {
        return;
    }
    let me = task.me;
    let expected: BTreeSet<i32> = task
        .world_tids
        .iter()
        .copied()
        .filter(|t| *t != me && !task.pool.contains(t))
        .chain(task.group_state.service.seen.iter().copied())
        .filter(|t| *t != me)
        .collect();
    loop {
        let svc = &task.group_state.service;
        // A task whose process ended without a goodbye is gone too.
        if expected.iter().all(|&t| svc.is_gone(t) || task.is_gone(t)) {
            return;
        }
        // A kill changes nothing here: the task is leaving anyway.
        let _ = task.serve_system();
        match task.sys.recv(group_messages(), Some(SLICE)) {
            Ok(m) => {
                let _ = dispatch(task, m);
            }
            Err(CoreError::Timeout) => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: i32 = 0x40001;
    const B: i32 = 0x40002;
    const C: i32 = 0x40003;

    fn one(out: Vec<Delivery>) -> i32 {
        assert_eq!(out.len(), 1, "{out:?}");
        out[0].answer.code
    }

    #[test]
    fn wire_round_trip() {
        let b = request_body(7, -1, b"grp");
        assert_eq!(parse_request(&b), Some((7, -1, &b"grp"[..])));
        let r = reply_body(9, -20, &[1, 2, -1]);
        let (seq, a) = parse_reply(&r).unwrap();
        assert_eq!(seq, 9);
        assert_eq!(a.code, -20);
        assert_eq!(a.extra, vec![1, 2, -1]);
        assert!(parse_reply(&r[..5]).is_none());
    }

    #[test]
    fn join_takes_the_lowest_free_instance() {
        let mut s = Service::default();
        assert_eq!(one(s.handle(A, tag::JOIN, 1, 0, b"g")), 0);
        assert_eq!(one(s.handle(B, tag::JOIN, 1, 0, b"g")), 1);
        assert_eq!(one(s.handle(C, tag::JOIN, 1, 0, b"g")), 2);
        assert_eq!(one(s.handle(A, tag::JOIN, 2, 0, b"g")), err::DUP_GROUP);
        assert_eq!(one(s.handle(B, tag::LEAVE, 2, 0, b"g")), 0);
        assert_eq!(one(s.handle(B, tag::LEAVE, 3, 0, b"g")), err::NOT_IN_GROUP);
        assert_eq!(one(s.handle(A, tag::GETTID, 3, 1, b"g")), err::NO_INST);
        assert_eq!(one(s.handle(A, tag::GSIZE, 3, 0, b"g")), 2);
        assert_eq!(one(s.handle(B, tag::JOIN, 4, 0, b"g")), 1);
        assert_eq!(one(s.handle(A, tag::GETINST, 4, C, b"g")), 2);
        assert_eq!(one(s.handle(A, tag::GETTID, 4, 2, b"g")), C);
        assert_eq!(one(s.handle(A, tag::GETTID, 4, 3, b"g")), err::NO_INST);
        assert_eq!(one(s.handle(A, tag::GSIZE, 4, 0, b"x")), err::NO_GROUP);
        assert_eq!(one(s.handle(A, tag::LEAVE, 4, 0, b"x")), err::NO_GROUP);
        assert_eq!(one(s.handle(A, tag::JOIN, 4, 0, b"")), err::NULL_GROUP);
    }

    #[test]
    fn group_disappears_with_its_last_member() {
        let mut s = Service::default();
        one(s.handle(A, tag::JOIN, 1, 0, b"g"));
        one(s.handle(A, tag::LEAVE, 2, 0, b"g"));
        assert_eq!(one(s.handle(A, tag::GSIZE, 3, 0, b"g")), err::NO_GROUP);
    }

    #[test]
    fn barrier_releases_everyone_and_resets() {
        let mut s = Service::default();
        for t in [A, B, C] {
            one(s.handle(t, tag::JOIN, 1, 0, b"g"));
        }
        for round in 0..2 {
            assert!(s.handle(A, tag::BARRIER, 10 + round, -1, b"g").is_empty());
            assert!(s.handle(B, tag::BARRIER, 10 + round, 3, b"g").is_empty());
            assert_eq!(one(s.handle(C, tag::BARRIER, 9, 2, b"g")), err::MISMATCH);
            let out = s.handle(C, tag::BARRIER, 10 + round, -1, b"g");
            assert_eq!(out.len(), 3);
            assert!(out
                .iter()
                .all(|d| d.answer.code == 0 && d.seq == 10 + round));
        }
        assert_eq!(
            one(s.handle(0x40004, tag::BARRIER, 1, 1, b"g")),
            err::NOT_IN_GROUP
        );
        assert_eq!(one(s.handle(A, tag::BARRIER, 1, 0, b"g")), err::BAD_PARAM);
    }

    #[test]
    fn freeze_waits_for_every_member() {
        let mut s = Service::default();
        one(s.handle(A, tag::JOIN, 1, 0, b"g"));
        one(s.handle(B, tag::JOIN, 1, 0, b"g"));
        assert!(s.handle(A, tag::FREEZE, 2, 3, b"g").is_empty());
        assert!(s.handle(B, tag::FREEZE, 2, 2, b"g").is_empty());
        one(s.handle(C, tag::JOIN, 1, 0, b"g"));
        let out = s.handle(C, tag::FREEZE, 2, -1, b"g");
        assert_eq!(out.len(), 3);
        let t = Table::from_words(&out[0].answer.extra);
        assert!(t.frozen);
        assert_eq!(t.tids, vec![A, B, C]);
        assert_eq!(
            one(s.handle(0x40004, tag::JOIN, 3, 0, b"g")),
            err::NOT_IN_GROUP
        );
        assert_eq!(one(s.handle(A, tag::FREEZE, 3, -1, b"g")), err::DUP_GROUP);
        // A member leaving breaks the frozen group: a waiting barrier fails.
        assert!(s.handle(A, tag::BARRIER, 4, -1, b"g").is_empty());
        let out = s.handle(B, tag::LEAVE, 4, 0, b"g");
        assert_eq!(out.len(), 2);
        assert!(out
            .iter()
            .any(|d| d.to == A && d.answer.code == err::NO_GROUP));
        assert_eq!(one(s.handle(C, tag::BARRIER, 5, -1, b"g")), err::NO_GROUP);
        assert_eq!(one(s.handle(C, tag::TABLE, 5, 0, b"g")), err::NO_GROUP);
    }

    #[test]
    fn goodbye_leaves_every_group() {
        let mut s = Service::default();
        one(s.handle(A, tag::JOIN, 1, 0, b"g"));
        one(s.handle(B, tag::JOIN, 1, 0, b"g"));
        one(s.handle(B, tag::JOIN, 1, 0, b"h"));
        assert!(s.handle(B, tag::GOODBYE, 2, 0, b"").is_empty());
        assert!(s.is_gone(B));
        assert_eq!(one(s.handle(A, tag::GSIZE, 3, 0, b"g")), 1);
        assert_eq!(one(s.handle(A, tag::GSIZE, 3, 0, b"h")), err::NO_GROUP);
    }
}
