//! The dispatcher: the job's last process. It learns every computing
//! process's host, keeps who is free, serves network creation requests in
//! arrival order with the selection scheme of `mpc_map::select`, answers
//! estimates and status queries, takes benchmark results (`HMPI_Recon`),
//! ends the program with `MPC_Abort` when the queue of creation requests
//! can never move, and tells free processes when the program is over.
//!
//! Nothing is served until every computing process has reported and each
//! non-host process has offered itself once, so the first mapping does not
//! depend on who started first.

use crate::runtime::abort;
use crate::wire::{Reply, Request, TAG_HIRE, TAG_REPLY, TAG_REQUEST};
use mpc_map::deadlock::{deadlock, next_servable, ProcState, Request as Ask};
use mpc_map::select::{estimate, select, Load, Slot};
use mpc_map::vpm::Host;
use mpc_map::{Machine, NetType};
use shim_core::log::tracing::{debug, warn};
use shim_core::{Context, Match, Membership, ProcId};
use std::collections::VecDeque;

struct Proc {
    state: ProcState,
    host: usize,
    /// Volume of the node it runs (for the load of its host).
    weight: f64,
    /// Offered with "tell me when a network is made without me".
    once: bool,
    rate: Option<f64>,
}

enum Job {
    Create(usize, NetType, bool),
    Estimate(usize, NetType),
    Status(usize),
    Speeds(usize),
}

struct Dispatcher {
    ctx: Context,
    ids: Vec<ProcId>,
    procs: Vec<Proc>,
    hellos: Vec<Option<(String, u32)>>,
    vpm: Option<String>,
    machine: Option<Machine>,
    queue: VecDeque<Job>,
    next_net: u32,
}

/// Serves the job until every computing process has ended, then leaves the
/// core and ends this process.
pub(crate) fn serve(ctx: Context, ids: Vec<ProcId>, membership: Membership) -> ! {
    let n = ids.len() - 1;
    let mut d = Dispatcher {
        ctx,
        ids,
        procs: (0..n)
            .map(|_| Proc {
                state: ProcState::Starting,
                host: 0,
                weight: 0.0,
                once: false,
                rate: None,
            })
            .collect(),
        hellos: vec![None; n],
        vpm: None,
        machine: None,
        queue: VecDeque::new(),
        next_net: 1,
    };
    while d.procs.iter().any(|p| p.state != ProcState::Finished) {
        let m = match crate::runtime::patient_recv(d.ctx, Match::new(None, Some(TAG_REQUEST))) {
            Ok(m) => m,
            Err(e) => abort(1, &format!("dispatcher: receive failed: {e}")),
        };
        let Some(who) = d.ids.iter().position(|&i| i == m.source).filter(|&w| w < n) else {
            continue;
        };
        match Request::decode(&m.data) {
            Ok(req) => d.handle(who, req),
            Err(e) => abort(
                1,
                &format!("dispatcher: bad request from process {who}: {e}"),
            ),
        }
        d.serve_queue();
        d.check_deadlock();
        d.maybe_done();
    }
    let _ = shim_core::leave(membership);
    std::process::exit(0)
}

impl Dispatcher {
    fn send(&self, who: usize, tag: i32, r: &Reply) {
        if let Err(e) = self.ctx.send(self.ids[who], tag, 0, &r.encode()) {
            abort(1, &format!("dispatcher: cannot answer process {who}: {e}"));
        }
    }

    fn handle(&mut self, who: usize, req: Request) {
        match req {
            Request::Hello { host, cpus, vpm } => {
                self.hellos[who] = Some((host, cpus));
                if who == 0 {
                    self.vpm = Some(vpm);
                    self.procs[0].state = ProcState::Running;
                }
                if self.hellos.iter().all(Option::is_some) && self.vpm.is_some() {
                    self.build_machine();
                }
            }
            Request::Offer { once } => {
                let p = &mut self.procs[who];
                p.state = ProcState::Free;
                p.once = once;
                p.weight = 0.0;
            }
            Request::Create { ty, collective } => {
                self.procs[who].state = ProcState::Waiting;
                self.queue.push_back(Job::Create(who, ty, collective));
            }
            Request::Left => {
                let p = &mut self.procs[who];
                if p.state == ProcState::Running {
                    p.state = ProcState::Idle;
                    p.weight = 0.0;
                }
            }
            Request::Estimate(t) => self.queue.push_back(Job::Estimate(who, t)),
            Request::Status => self.queue.push_back(Job::Status(who)),
            Request::Speeds => self.queue.push_back(Job::Speeds(who)),
            Request::Recon { rate } => {
                self.procs[who].rate = Some(rate);
                self.apply_recon();
                self.send(who, TAG_REPLY, &Reply::Ack);
            }
            Request::Finalize => {
                let p = &mut self.procs[who];
                p.state = ProcState::Finished;
                p.weight = 0.0;
            }
        }
    }

    /// The machine from the file and the processes' hosts: hosts named in
    /// the file keep their data; others get speed 1 and the processors
    /// their processes reported.
    fn build_machine(&mut self) {
        let text = self.vpm.clone().unwrap_or_default();
        let mut m = if text.trim().is_empty() {
            Machine {
                hosts: Vec::new(),
                links: Vec::new(),
                rate: 1.0,
            }
        } else {
            Machine::parse(&text).unwrap_or_else(|e| {
                abort(
                    1,
                    &format!("virtual machine file ({}): {e}", crate::runtime::VPM_ENV),
                )
            })
        };
        for (i, h) in self.hellos.iter().enumerate() {
            let (name, cpus) = h.clone().expect("every hello arrived");
            let idx = m.host_index(&name).unwrap_or_else(|| {
                m.hosts.push(Host {
                    name,
                    speed: 1.0,
                    scalability: cpus,
                    slots: 1,
                });
                m.hosts.len() - 1
            });
            self.procs[i].host = idx;
        }
        debug!(
            target: "mpc",
            "virtual machine: {} hosts ({}), {} computing processes",
            m.hosts.len(),
            if text.trim().is_empty() { "from the processes' hosts" } else { "from the machine file" },
            self.procs.len()
        );
        self.machine = Some(m);
    }

    /// Host speeds from the benchmark, once every process has reported:
    /// a process that ran with `k` others on a host of `c` processors
    /// measured `speed * min(1, c / k)`.
    fn apply_recon(&mut self) {
        let Some(m) = self.machine.as_mut() else {
            return;
        };
        if self.procs.iter().any(|p| p.rate.is_none()) {
            return;
        }
        for (h, host) in m.hosts.iter_mut().enumerate() {
            let rates: Vec<f64> = self
                .procs
                .iter()
                .filter(|p| p.host == h)
                .filter_map(|p| p.rate)
                .collect();
            if rates.is_empty() {
                continue;
            }
            let k = rates.len() as f64;
            let mean = rates.iter().sum::<f64>() / k;
            host.speed = mean * (k / f64::from(host.scalability.max(1))).max(1.0);
        }
        m.rate = 1.0;
        m.normalise();
        let speeds: Vec<String> = m
            .hosts
            .iter()
            .map(|h| format!("{}={:.3}", h.name, h.speed))
            .collect();
        debug!(target: "mpc", "recon: host speeds {}", speeds.join(" "));
        for p in &mut self.procs {
            p.rate = None;
        }
    }

    fn ready(&self) -> bool {
        self.machine.is_some() && !self.procs.iter().any(|p| p.state == ProcState::Starting)
    }

    /// Whether every process between networks has offered itself (or
    /// ended): collective creations and queries wait for that.
    fn settled(&self) -> bool {
        !self.procs.iter().any(|p| p.state == ProcState::Idle)
    }

    fn free_slots(&self) -> Vec<Slot> {
        self.procs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.state == ProcState::Free)
            .map(|(proc, p)| Slot { proc, host: p.host })
            .collect()
    }

    /// The load of every host from busy processes other than `parent`; a
    /// process whose volume is unknown counts with `default` (the mean of
    /// the new network's volumes).
    fn busy_load(&self, parent: usize, default: f64) -> Vec<Load> {
        let m = self.machine.as_ref().expect("ready");
        let mut load = vec![Load::default(); m.hosts.len()];
        for (i, p) in self.procs.iter().enumerate() {
            if i == parent || !matches!(p.state, ProcState::Running | ProcState::Waiting) {
                continue;
            }
            let w = if p.weight > 0.0 { p.weight } else { default };
            let l = &mut load[p.host];
            l.count += 1;
            l.total += w;
            l.max = l.max.max(w);
        }
        load
    }

    fn plan(&self, who: usize, t: &NetType) -> Result<mpc_map::Placement, String> {
        let m = self.machine.as_ref().expect("ready");
        let mean = t.powers().iter().sum::<f64>() / t.node_count() as f64;
        let busy = self.busy_load(who, mean);
        let parent = Slot {
            proc: who,
            host: self.procs[who].host,
        };
        select(m, t, parent, &self.free_slots(), &busy)
    }

    fn serve_queue(&mut self) {
        if !self.ready() {
            return;
        }
        // Queries first: they wait only for processes between networks
        // (speeds do not change, so a query for them does not wait).
        let mut rest = VecDeque::new();
        while let Some(job) = self.queue.pop_front() {
            if !self.settled() && !matches!(job, Job::Create(_, _, false) | Job::Speeds(_)) {
                rest.push_back(job);
                continue;
            }
            match job {
                Job::Estimate(who, t) => {
                    let r = match self.plan(who, &t) {
                        Ok(p) => {
                            let m = self.machine.as_ref().expect("ready");
                            let busy = self.busy_load(who, 0.0);
                            Reply::Estimate {
                                time: estimate(m, &t, &p.hosts, &busy),
                                procs: p.procs,
                            }
                        }
                        Err(e) => Reply::Refused(e),
                    };
                    self.send(who, TAG_REPLY, &r);
                }
                Job::Status(who) | Job::Speeds(who) => {
                    let m = self.machine.as_ref().expect("ready");
                    let speeds = self.procs.iter().map(|p| m.hosts[p.host].speed).collect();
                    let free = self.free_slots().len();
                    self.send(who, TAG_REPLY, &Reply::Status { free, speeds });
                }
                create => rest.push_back(create),
            }
        }
        self.queue = rest;
        loop {
            let settled = self.settled();
            let asks: Vec<Ask> = self
                .asks()
                .into_iter()
                .zip(&self.queue)
                .map(|(mut a, j)| {
                    if matches!(j, Job::Create(_, _, true)) && !settled {
                        a.needs = usize::MAX; // not yet
                    }
                    a
                })
                .collect();
            let free = self.free_slots().len();
            let Some(i) = next_servable(&asks, free) else {
                break;
            };
            let Some(Job::Create(who, t, _)) = self.queue.remove(i) else {
                unreachable!("only creation requests stay queued");
            };
            self.grant(who, t);
        }
    }

    fn asks(&self) -> Vec<Ask> {
        self.queue
            .iter()
            .map(|j| match j {
                Job::Create(who, t, _) => Ask {
                    who: *who,
                    needs: t.node_count() - 1,
                },
                Job::Estimate(who, _) | Job::Status(who) | Job::Speeds(who) => Ask {
                    who: *who,
                    needs: usize::MAX,
                },
            })
            .collect()
    }

    fn grant(&mut self, who: usize, t: NetType) {
        let p = match self.plan(who, &t) {
            Ok(p) => p,
            Err(e) => {
                warn!(target: "mpc", "network of {} nodes for process {who} refused: {e}", t.node_count());
                self.procs[who].state = ProcState::Running;
                self.send(who, TAG_REPLY, &Reply::Refused(e));
                return;
            }
        };
        let net = self.next_net;
        self.next_net += 1;
        if let Some(m) = self.machine.as_ref() {
            let hosts: Vec<&str> = p
                .procs
                .iter()
                .map(|&q| m.hosts[self.procs[q].host].name.as_str())
                .collect();
            debug!(
                target: "mpc",
                "network {net} for process {who}: processes {:?} on hosts {:?}",
                p.procs,
                hosts
            );
        }
        for (node, &proc) in p.procs.iter().enumerate() {
            let pr = &mut self.procs[proc];
            pr.weight = t.powers()[node];
            pr.state = ProcState::Running;
            pr.once = false;
            if proc != who {
                let hire = Reply::Hire {
                    net,
                    procs: p.procs.clone(),
                    ty: t.clone(),
                };
                self.send(proc, TAG_HIRE, &hire);
            }
        }
        self.send(
            who,
            TAG_REPLY,
            &Reply::Granted {
                net,
                procs: p.procs,
            },
        );
        for i in 0..self.procs.len() {
            if self.procs[i].state == ProcState::Free && self.procs[i].once {
                self.procs[i].state = ProcState::Idle;
                self.procs[i].once = false;
                self.send(i, TAG_HIRE, &Reply::NotHired);
            }
        }
    }

    fn check_deadlock(&self) {
        if !self.ready() {
            return;
        }
        let states: Vec<ProcState> = self.procs.iter().map(|p| p.state).collect();
        if let Some(msg) = deadlock(&states, &self.asks()) {
            warn!(target: "mpc", "dispatcher ends the job: {msg}");
            abort(1, &format!("dispatcher: {msg}"));
        }
    }

    /// After the host has ended and nobody works any more, free processes
    /// are told the program is over.
    fn maybe_done(&mut self) {
        if self.procs[0].state != ProcState::Finished {
            return;
        }
        if self.procs.iter().any(|p| {
            matches!(
                p.state,
                ProcState::Starting | ProcState::Running | ProcState::Waiting
            )
        }) {
            return;
        }
        for i in 0..self.procs.len() {
            if self.procs[i].state == ProcState::Free {
                self.procs[i].state = ProcState::Idle;
                self.send(i, TAG_HIRE, &Reply::Done);
            }
        }
    }
}
