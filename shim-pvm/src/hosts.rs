//! The virtual machine's hosts: which hosts it has, their names, speeds and
//! host ids, where tasks run, hosts taken out with `pvm_delhosts` and put
//! back with `pvm_addhosts`, default placement of spawned tasks, and the
//! `pvm_notify(PvmHostDelete)` requests waiting for a host to go.
//!
//! The machine is the launcher's allocation. `mpbridge run --cluster`
//! passes the cluster's hosts and speeds in `MPBRIDGE_PVM_HOSTS`
//! (`name:speed,name:speed,...`, hostfile order); without it the machine is
//! the hosts the job's ranks run on, in rank order, at PVM's default speed
//! (1000). The n-th host (from 1) has the host id `n << 18`, as PVM numbers
//! hosts; a deleted host keeps its number, so adding it back gives it the
//! same id again.
//!
//! Each task keeps its own view of the machine. Under a launcher that
//! gives the job a shared directory (`MPBRIDGE_JOB_DIR`, see shim-core's
//! `liveness`), `pvm_addhosts` and `pvm_delhosts` append what they changed
//! to the machine's log there (`pvm-hosts`, lines `add NAME TID` and
//! `del NAME TID`), and every task applies the others' lines when it looks
//! at the machine (`pvm_config`) or serves its system messages: so a host
//! one task deletes leaves every task's `pvm_config`, and the
//! `PvmHostDelete` and `PvmHostAdd` requests of every task are answered,
//! as under PVM's daemons. Without the directory the change stays the
//! caller's own. A host that fails leaves every task's machine through the
//! launcher's down-hosts file.

use crate::consts::err;
use std::collections::BTreeMap;

/// The variable that carries the cluster's hosts to every task.
pub const HOSTS_ENV: &str = "MPBRIDGE_PVM_HOSTS";
/// The variable that names the launcher's down-hosts file: the names of
/// the cluster's hosts that went down, one a line (see the launcher's
/// host watch).
pub const DOWN_FILE_ENV: &str = "MPBRIDGE_HOSTS_DOWN";
/// How often the down-hosts file is looked at.
const DOWN_CHECK: std::time::Duration = std::time::Duration::from_millis(100);
/// PVM's speed of a host nobody gave one.
pub const DEFAULT_SPEED: i32 = 1000;

/// One host of the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Host {
    /// Its name, as `pvm_config` reports it and `pvm_spawn` takes it.
    pub name: String,
    /// Its relative speed (`hi_speed`).
    pub speed: i32,
    /// Its host id (`hi_tid`, what `pvm_tidtohost` returns for its tasks).
    pub dtid: i32,
    /// Whether it is in the machine now (not deleted, not failed).
    pub present: bool,
}

/// A `pvm_notify(PvmHostDelete)` request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostWatch {
    dtid: i32,
    tag: i32,
    ctx: i32,
}

/// A `pvm_notify(PvmHostAdd)` request: the notice's tag and context, and
/// how many notices are still to come (-1: no end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AddWatch {
    tag: i32,
    ctx: i32,
    left: i32,
}

/// One change of the machine, as another task logged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Added(String),
    Deleted(String),
}

/// The machine as this task sees it.
#[derive(Clone, Debug, Default)]
pub struct Machine {
    hosts: Vec<Host>,
    /// The host (index into `hosts`) of each task whose host is known.
    placed: BTreeMap<i32, usize>,
    /// The host the next task placed by default goes to.
    next: usize,
    watches: Vec<HostWatch>,
    /// The launcher's down-hosts file, if it keeps one.
    down_file: Option<std::path::PathBuf>,
    /// Its length when last read (it only grows).
    down_len: u64,
    /// When it was last looked at.
    down_checked: Option<std::time::Instant>,
    add_watches: Vec<AddWatch>,
    /// The machine's log shared by the job's tasks, if there is one.
    log_file: Option<std::path::PathBuf>,
    /// How much of it was read.
    log_read: u64,
}

/// The machine's log in the job directory.
const LOG_NAME: &str = "pvm-hosts";

/// The changes in log `text` made by tasks other than `me`.
fn parse_log(text: &str, me: i32) -> Vec<Change> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let (what, name, by) = (w.next()?, w.next()?, w.next()?.parse::<i32>().ok()?);
            if by == me {
                return None;
            }
            match what {
                "add" => Some(Change::Added(name.to_string())),
                "del" => Some(Change::Deleted(name.to_string())),
                _ => None,
            }
        })
        .collect()
}

/// The host id of the host at `index` (from 0).
pub fn dtid_of_index(index: usize) -> i32 {
    ((index as i32) + 1) << 18
}

/// Reads a host list `name:speed,name,...` (a missing speed is PVM's
/// default). Names must be non-empty and speeds positive whole numbers;
/// a name given twice counts once.
pub fn parse_list(text: &str) -> Result<Vec<(String, i32)>, String> {
    let mut out: Vec<(String, i32)> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, speed) = match item.split_once(':') {
            Some((n, s)) => {
                let speed = s
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|&v| v > 0)
                    .ok_or_else(|| format!("speed '{s}' of host '{n}' is not a positive number"))?;
                (n.trim(), speed)
            }
            None => (item, DEFAULT_SPEED),
        };
        if name.is_empty() {
            return Err(format!("a host without a name in '{text}'"));
        }
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), speed));
        }
    }
    if out.is_empty() {
        return Err("no hosts".to_string());
    }
    Ok(out)
}

impl Machine {
    /// The machine from a host list (see [`parse_list`]) or, without one,
    /// from the hosts of the static world's ranks (`world_hosts`, by rank).
    /// Every world rank's tid is placed on its host; hosts the ranks run on
    /// that the list lacks are added after it.
    pub fn new(list: Option<&str>, world_hosts: &[String], world_tids: &[i32]) -> Machine {
        let mut m = Machine::default();
        if let Some(Ok(hosts)) = list.map(parse_list) {
            for (name, speed) in hosts {
                m.push(&name, speed);
            }
        } else if let Some(Err(e)) = list.map(parse_list) {
            eprintln!("mpbridge: {HOSTS_ENV} ignored: {e}");
        }
        for (host, &tid) in world_hosts.iter().zip(world_tids) {
            let i = m.index_or_push(host);
            m.placed.insert(tid, i);
        }
        m
    }

    /// The machine of this process: `MPBRIDGE_PVM_HOSTS` if set, else the
    /// world's hosts.
    pub fn from_env(world_hosts: &[String], world_tids: &[i32]) -> Machine {
        let list = std::env::var(HOSTS_ENV)
            .ok()
            .filter(|v| !v.trim().is_empty());
        let mut m = Machine::new(list.as_deref(), world_hosts, world_tids);
        m.down_file = std::env::var_os(DOWN_FILE_ENV)
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from);
        m.log_file = shim_core::liveness::job_dir().map(|d| d.join(LOG_NAME));
        m
    }

    /// Appends `change`, made by task `me`, to the machine's log (nothing
    /// without one). One write of one line, so lines of different tasks
    /// never mix.
    pub fn log(&self, change: &Change, me: i32) {
        use std::io::Write;
        let Some(file) = &self.log_file else {
            return;
        };
        let line = match change {
            Change::Added(n) => format!("add {n} {me}\n"),
            Change::Deleted(n) => format!("del {n} {me}\n"),
        };
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            eprintln!(
                "mpbridge: cannot tell the other tasks of a machine change ({}): {e}",
                file.display()
            );
        }
    }

    /// The changes other tasks than `me` logged since the last call (whole
    /// lines only).
    pub fn logged_changes(&mut self, me: i32) -> Vec<Change> {
        let Some(file) = &self.log_file else {
            return Vec::new();
        };
        let len = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        if len <= self.log_read {
            return Vec::new();
        }
        let Ok(bytes) = std::fs::read(file) else {
            return Vec::new();
        };
        let Some(start) = usize::try_from(self.log_read)
            .ok()
            .filter(|&s| s <= bytes.len())
        else {
            return Vec::new();
        };
        let fresh = &bytes[start..];
        let whole = fresh.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        self.log_read += whole as u64;
        parse_log(&String::from_utf8_lossy(&fresh[..whole]), me)
    }

    /// Host ids of hosts in the machine that the launcher's down-hosts
    /// file names and that were not reported before (looked at no more
    /// often than every 100 ms; nothing without a file).
    pub fn newly_down(&mut self) -> Vec<i32> {
        let Some(file) = &self.down_file else {
            return Vec::new();
        };
        if self.down_checked.is_some_and(|t| t.elapsed() < DOWN_CHECK) {
            return Vec::new();
        }
        self.down_checked = Some(std::time::Instant::now());
        let len = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        if len == self.down_len {
            return Vec::new();
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            return Vec::new();
        };
        self.down_len = text.len() as u64;
        let names: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        self.hosts
            .iter()
            .filter(|h| h.present && names.contains(&h.name.as_str()))
            .map(|h| h.dtid)
            .collect()
    }

    /// The host id of the host task `tid` is known to run on.
    pub fn placed_on(&self, tid: i32) -> Option<i32> {
        self.placed.get(&tid).map(|&i| self.hosts[i].dtid)
    }

    fn push(&mut self, name: &str, speed: i32) -> usize {
        self.hosts.push(Host {
            name: name.to_string(),
            speed,
            dtid: dtid_of_index(self.hosts.len()),
            present: true,
        });
        self.hosts.len() - 1
    }

    fn index_or_push(&mut self, name: &str) -> usize {
        match self.hosts.iter().position(|h| h.name == name) {
            Some(i) => i,
            None => self.push(name, DEFAULT_SPEED),
        }
    }

    /// The hosts in the machine now, in host-id order.
    pub fn present(&self) -> Vec<Host> {
        self.hosts.iter().filter(|h| h.present).cloned().collect()
    }

    /// Names of the hosts in the machine now.
    pub fn names(&self) -> Vec<String> {
        self.hosts
            .iter()
            .filter(|h| h.present)
            .map(|h| h.name.clone())
            .collect()
    }

    /// The host in the machine named `name`.
    pub fn by_name(&self, name: &str) -> Option<&Host> {
        self.hosts.iter().find(|h| h.present && h.name == name)
    }

    /// The host in the machine with host id `dtid`.
    pub fn by_dtid(&self, dtid: i32) -> Option<&Host> {
        self.hosts.iter().find(|h| h.present && h.dtid == dtid)
    }

    /// The host id of host `name` (in the machine or not), if known.
    pub fn dtid_of_name(&self, name: &str) -> Option<i32> {
        self.hosts.iter().find(|h| h.name == name).map(|h| h.dtid)
    }

    /// Notes that task `tid` runs on host `name`.
    pub fn place(&mut self, tid: i32, name: &str) {
        let i = self.index_or_push(name);
        self.placed.insert(tid, i);
    }

    /// The host id of the host task `tid` runs on; for a task whose host
    /// is not known here, the host part of the tid (what libpvm computes).
    pub fn host_of(&self, tid: i32) -> i32 {
        match self.placed.get(&tid) {
            Some(&i) => self.hosts[i].dtid,
            None => tid & crate::consts::tid::HOST,
        }
    }

    /// The tasks known to run on host `name`.
    pub fn tasks_on(&self, name: &str) -> Vec<i32> {
        let Some(i) = self.hosts.iter().position(|h| h.name == name) else {
            return Vec::new();
        };
        self.placed
            .iter()
            .filter(|(_, &h)| h == i)
            .map(|(&t, _)| t)
            .collect()
    }

    /// Where `ntask` tasks placed by default go: round-robin over the hosts
    /// in the machine, as pvmd places them, continuing where the previous
    /// spawn stopped. One `(host, count)` per host used; `None` for the
    /// host when the machine has a single host (the launcher decides).
    pub fn spread(&mut self, ntask: i32) -> Vec<(Option<String>, i32)> {
        let names = self.names();
        if names.len() < 2 || ntask < 1 {
            return vec![(None, ntask)];
        }
        let n = names.len();
        let first = self.next % n;
        let mut counts: Vec<i32> = vec![0; n];
        for k in 0..ntask as usize {
            counts[(first + k) % n] += 1;
        }
        self.next = (first + ntask as usize) % n;
        // In the order the tasks were dealt out.
        (0..n)
            .map(|k| (first + k) % n)
            .filter(|&i| counts[i] > 0)
            .map(|i| (Some(names[i].clone()), counts[i]))
            .collect()
    }

    /// `pvm_addhosts` for one host: its host id when it comes back into
    /// the machine; PvmDupHost when it is in the machine; PvmCantStart for
    /// a host outside the launcher's allocation (no daemon can be started
    /// there).
    pub fn add(&mut self, name: &str) -> i32 {
        match self.hosts.iter_mut().find(|h| h.name == name) {
            Some(h) if h.present => err::DUP_HOST,
            Some(h) => {
                h.present = true;
                h.dtid
            }
            None => err::CANT_START,
        }
    }

    /// `pvm_delhosts` for one host: takes it out of the machine and returns
    /// PvmOk and the tasks known to run there (PVM kills them);
    /// PvmNoHost for a host not in the machine; PvmNotImpl for `master`,
    /// the host of the job's first task, which the machine cannot lose.
    pub fn delete(&mut self, name: &str, master: &str) -> (i32, Vec<i32>) {
        if name == master && self.by_name(name).is_some() {
            return (err::NOT_IMPL, Vec::new());
        }
        let tasks = self.tasks_on(name);
        match self.hosts.iter_mut().find(|h| h.present && h.name == name) {
            Some(h) => {
                h.present = false;
                (err::OK, tasks)
            }
            None => (err::NO_HOST, Vec::new()),
        }
    }

    /// Takes host id `dtid` out of the machine (it failed or was deleted)
    /// and returns the `(tag, context)` of every `PvmHostDelete` request
    /// for it, which are answered now and dropped.
    pub fn host_gone(&mut self, dtid: i32) -> Vec<(i32, i32)> {
        for h in self.hosts.iter_mut().filter(|h| h.dtid == dtid) {
            h.present = false;
        }
        let mut due = Vec::new();
        self.watches.retain(|w| {
            if w.dtid == dtid {
                due.push((w.tag, w.ctx));
                false
            } else {
                true
            }
        });
        due
    }

    /// `pvm_notify(PvmHostDelete)` for host id `dtid`: `Some((tag, ctx))`
    /// when the notice is due at once (the host is not in the machine, or
    /// the request is a cancel, whose notice PVM still delivers), else the
    /// request waits for the host to go.
    pub fn watch(&mut self, dtid: i32, tag: i32, ctx: i32, cancel: bool) -> Option<(i32, i32)> {
        let w = HostWatch { dtid, tag, ctx };
        if cancel {
            self.watches.retain(|x| *x != w);
            return Some((tag, ctx));
        }
        if self.by_dtid(dtid).is_none() {
            return Some((tag, ctx));
        }
        self.watches.push(w);
        None
    }

    /// `pvm_notify(PvmHostAdd)`: `count` notices with `tag` in context
    /// `ctx` (-1: no end); 0 ends the requests with that tag and context.
    pub fn watch_adds(&mut self, tag: i32, ctx: i32, count: i32) {
        self.add_watches.retain(|w| !(w.tag == tag && w.ctx == ctx));
        if count != 0 {
            self.add_watches.push(AddWatch {
                tag,
                ctx,
                left: count,
            });
        }
    }

    /// A host came into the machine: the `(tag, context)` of every
    /// `PvmHostAdd` request, each counting one notice down (a request
    /// whose count runs out is dropped).
    pub fn host_came(&mut self) -> Vec<(i32, i32)> {
        let due = self.add_watches.iter().map(|w| (w.tag, w.ctx)).collect();
        for w in &mut self.add_watches {
            if w.left > 0 {
                w.left -= 1;
            }
        }
        self.add_watches.retain(|w| w.left != 0);
        due
    }

    /// The host ids some `PvmHostDelete` request waits for.
    #[cfg(test)]
    fn watched_hosts(&self) -> Vec<i32> {
        let mut v: Vec<i32> = self.watches.iter().map(|w| w.dtid).collect();
        v.dedup();
        v
    }
}

impl crate::task::Task {
    /// The host of the job's first task, which `pvm_delhosts` keeps.
    fn master_host(&self) -> String {
        self.world
            .first()
            .map(|f| f.host.clone())
            .unwrap_or_default()
    }

    /// `pvm_addhosts` for host `name` (see [`Machine::add`]): a host put
    /// back is logged for the other tasks, and this task's `PvmHostAdd`
    /// requests are answered.
    pub fn add_host(&mut self, name: &str) -> i32 {
        self.sync_machine();
        let code = self.machine.add(name);
        if code > 0 {
            self.machine.log(&Change::Added(name.to_string()), self.me);
            self.host_added(code);
        }
        code
    }

    /// Host `dtid` came into the machine: queues the notices of the
    /// `PvmHostAdd` requests (body: the count of new hosts, 1, and its id).
    fn host_added(&mut self, dtid: i32) {
        for (tag, ctx) in self.machine.host_came() {
            self.msg
                .notify_ints(tag, ctx, crate::task::Task::daemon_tid(dtid), &[1, dtid]);
        }
    }

    /// Applies the machine changes other tasks logged: a deleted host
    /// leaves the machine (its `PvmHostDelete` notices come), an added one
    /// comes back (its `PvmHostAdd` notices come).
    pub fn sync_machine(&mut self) {
        for change in self.machine.logged_changes(self.me) {
            match change {
                Change::Deleted(name) => {
                    if let Some(d) = self.machine.by_name(&name).map(|h| h.dtid) {
                        self.host_gone(d);
                    }
                }
                Change::Added(name) => {
                    if self.machine.by_name(&name).is_none() {
                        let d = self.machine.add(&name);
                        if d > 0 {
                            self.host_added(d);
                        }
                    }
                }
            }
        }
    }

    /// `pvm_notify(PvmHostAdd)`: `count` notices (-1: no end; 0 or a
    /// cancel: the requests with this tag end).
    pub fn watch_host_adds(&mut self, cancel: bool, tag: i32, count: i32) {
        let ctx = self.msg.context;
        self.machine
            .watch_adds(tag, ctx, if cancel { 0 } else { count });
    }

    /// `pvm_delhosts` for host `name`: takes it out of the machine, asks
    /// the tasks known to run there (other than this one) to end, and
    /// answers the `PvmHostDelete` requests for it. Returns PvmOk,
    /// PvmNoHost, or PvmNotImpl for the first task's host.
    pub fn delete_host(&mut self, name: &str) -> i32 {
        self.sync_machine();
        let master = self.master_host();
        let dtid = self.machine.dtid_of_name(name);
        let (code, tasks) = self.machine.delete(name, &master);
        if code != err::OK {
            return code;
        }
        self.machine
            .log(&Change::Deleted(name.to_string()), self.me);
        for t in tasks {
            if t != self.me && !self.is_gone(t) {
                let _ = self.kill(t);
            }
        }
        if let Some(dtid) = dtid {
            self.host_gone(dtid);
        }
        code
    }

    /// Host `dtid` left the machine: queues the notices of the
    /// `PvmHostDelete` requests for it.
    pub fn host_gone(&mut self, dtid: i32) {
        for (tag, ctx) in self.machine.host_gone(dtid) {
            self.msg.notify_arrived(tag, ctx, dtid);
        }
    }

    /// Hosts the launcher found down leave the machine: their
    /// `PvmHostDelete` notices are queued, and the tasks known to run
    /// there count as ended (their `PvmTaskExit` notices too).
    pub fn check_hosts_down(&mut self) {
        self.sync_machine();
        for dtid in self.machine.newly_down() {
            self.host_gone(dtid);
            let lost: Vec<crate::task::Watch> = self
                .watching
                .iter()
                .copied()
                .filter(|w| self.machine.placed_on(w.tid) == Some(dtid))
                .collect();
            for w in lost {
                self.ended.insert(w.tid);
                self.watching.retain(|x| *x != w);
                self.msg.notify_arrived(w.tag, w.ctx, w.tid);
            }
        }
    }

    /// `pvm_notify(PvmHostDelete)` (or its cancel) for the host ids in
    /// `dtids`: each notice carries the host id; it comes at once for a
    /// host not in the machine and for a cancel.
    pub fn watch_hosts(&mut self, cancel: bool, tag: i32, dtids: &[i32]) {
        let ctx = self.msg.context;
        for &d in dtids {
            if let Some((tag, ctx)) = self.machine.watch(d, tag, ctx, cancel) {
                self.msg.notify_arrived(tag, ctx, d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Machine {
        Machine::new(
            Some("host1:1150,host2:331,host3:1662"),
            &["host1".to_string()],
            &[0x40001],
        )
    }

    #[test]
    fn a_list_gives_names_speeds_and_ids_in_order() {
        let m = three();
        let got: Vec<(String, i32, i32)> = m
            .present()
            .into_iter()
            .map(|h| (h.name, h.speed, h.dtid))
            .collect();
        assert_eq!(
            got,
            [
                ("host1".to_string(), 1150, 0x40000),
                ("host2".to_string(), 331, 0x80000),
                ("host3".to_string(), 1662, 0xc0000)
            ]
        );
        assert_eq!(m.host_of(0x40001), 0x40000);
    }

    #[test]
    fn bad_lists_are_refused_with_a_reason() {
        assert!(parse_list("a:0").unwrap_err().contains("speed"));
        assert!(parse_list("a:x").is_err());
        assert!(parse_list(":5").is_err());
        assert!(parse_list(" , ").is_err());
        assert_eq!(
            parse_list("a,b:7,a:9").unwrap(),
            [("a".to_string(), DEFAULT_SPEED), ("b".to_string(), 7)]
        );
    }

    #[test]
    fn without_a_list_the_world_hosts_make_the_machine() {
        let m = Machine::new(
            None,
            &["n1".into(), "n1".into(), "n2".into()],
            &[0x40001, 0x40002, 0x40003],
        );
        assert_eq!(m.names(), ["n1", "n2"]);
        assert_eq!(m.host_of(0x40003), 0x80000);
        assert_eq!(m.tasks_on("n1"), [0x40001, 0x40002]);
        // A task nobody placed: the host part of its tid.
        assert_eq!(m.host_of(0x1c0005), 0x1c0000);
    }

    #[test]
    fn spawns_are_dealt_round_robin_across_spawns() {
        let mut m = three();
        assert_eq!(
            m.spread(4),
            [
                (Some("host1".into()), 2),
                (Some("host2".into()), 1),
                (Some("host3".into()), 1)
            ]
        );
        // The next spawn starts after the last host used (host1).
        assert_eq!(
            m.spread(2),
            [(Some("host2".into()), 1), (Some("host3".into()), 1)]
        );
        let mut one = Machine::new(None, &["n1".into()], &[0x40001]);
        assert_eq!(one.spread(3), [(None, 3)]);
    }

    #[test]
    fn deleting_and_adding_back_keep_the_host_id() {
        let mut m = three();
        m.place(0x80001, "host2");
        assert_eq!(m.delete("host2", "host1"), (err::OK, vec![0x80001]));
        assert_eq!(m.names(), ["host1", "host3"]);
        assert_eq!(m.delete("host2", "host1").0, err::NO_HOST);
        assert_eq!(m.delete("nowhere", "host1").0, err::NO_HOST);
        assert_eq!(m.delete("host1", "host1").0, err::NOT_IMPL);
        assert_eq!(m.add("host2"), 0x80000);
        assert_eq!(m.add("host2"), err::DUP_HOST);
        assert_eq!(m.add("elsewhere"), err::CANT_START);
        assert_eq!(m.names(), ["host1", "host2", "host3"]);
    }

    #[test]
    fn the_down_hosts_file_reports_each_host_once() {
        let file = std::env::temp_dir().join(format!("mpb-down-{}", std::process::id()));
        std::fs::write(&file, "").unwrap();
        let mut m = three();
        m.down_file = Some(file.clone());
        assert!(m.newly_down().is_empty());
        std::fs::write(&file, "host3\n").unwrap();
        m.down_checked = None;
        assert_eq!(m.newly_down(), [0xc0000]);
        m.host_gone(0xc0000);
        std::fs::write(&file, "host3\nhost2\n").unwrap();
        m.down_checked = None;
        assert_eq!(m.newly_down(), [0x80000]);
        m.down_checked = None;
        assert!(m.newly_down().is_empty());
        let _ = std::fs::remove_file(&file);
    }

    #[test]
    fn logged_changes_of_other_tasks_are_read_once_and_whole() {
        let file = std::env::temp_dir().join(format!("mpb-hostlog-{}", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let mut me = three();
        me.log_file = Some(file.clone());
        let mut other = three();
        other.log_file = Some(file.clone());
        me.log(&Change::Deleted("host2".into()), 0x40001);
        other.log(&Change::Added("host2".into()), 0x80001);
        // A line still being written is left for the next read.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"del host3 0x"))
            .unwrap();
        assert_eq!(me.logged_changes(0x40001), [Change::Added("host2".into())]);
        assert!(me.logged_changes(0x40001).is_empty());
        assert_eq!(
            other.logged_changes(0x80001),
            [Change::Deleted("host2".into())]
        );
        let _ = std::fs::remove_file(&file);
        // Without a log nothing is written or read.
        let mut alone = three();
        alone.log(&Change::Deleted("host3".into()), 1);
        assert!(alone.logged_changes(1).is_empty());
    }

    #[test]
    fn host_add_requests_count_down() {
        let mut m = three();
        m.watch_adds(4, 0, 2);
        m.watch_adds(5, 0, -1);
        assert_eq!(m.host_came(), [(4, 0), (5, 0)]);
        assert_eq!(m.host_came(), [(4, 0), (5, 0)]);
        assert_eq!(m.host_came(), [(5, 0)]);
        m.watch_adds(5, 0, 0);
        assert!(m.host_came().is_empty());
    }

    #[test]
    fn host_delete_requests_are_answered_once() {
        let mut m = three();
        assert_eq!(m.watch(0x80000, 7, 0, false), None);
        assert_eq!(m.watch(0x80000, 8, 3, false), None);
        // A host not in the machine: the notice is due at once.
        assert_eq!(m.watch(0x400000, 9, 0, false), Some((9, 0)));
        assert_eq!(m.watched_hosts(), [0x80000]);
        assert_eq!(m.host_gone(0x80000), [(7, 0), (8, 3)]);
        assert!(m.host_gone(0x80000).is_empty());
        assert!(m.by_dtid(0x80000).is_none());
        // Cancelling still delivers, and removes the request.
        assert_eq!(m.watch(0xc0000, 5, 0, false), None);
        assert_eq!(m.watch(0xc0000, 5, 0, true), Some((5, 0)));
        assert!(m.host_gone(0xc0000).is_empty());
    }
}
