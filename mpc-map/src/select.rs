//! The dispatcher's selection scheme: which free processes a new network
//! hires. Greedy, as the mpC papers outline it:
//!
//! 1. the parent node stays on the creating process;
//! 2. the other nodes go in decreasing order of relative performance (ties:
//!    lower linear number first);
//! 3. each goes to a free process on the host whose estimated finishing
//!    time after taking it is the least. A host of speed `s` and
//!    scalability `c` that holds processes of volumes `w` finishes after
//!    `max(max(w) / s, sum(w) / (s * c))` (one process never runs faster
//!    than `s`; together they share `c` processors). Ties go to the host
//!    whose links to the nodes placed already cost least, then to the host
//!    holding fewer processes, then to the host listed first; inside a host
//!    the free process with the lowest number is taken.
//!
//! Equal inputs give equal mappings: nothing here depends on anything but
//! the arguments.

use crate::nettype::NetType;
use crate::vpm::Machine;

/// A process: its number (world rank) and the index of its host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub proc: usize,
    pub host: usize,
}

/// What runs on a host already: processes and their volumes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Load {
    pub count: u32,
    pub total: f64,
    pub max: f64,
}

impl Load {
    fn add(&mut self, w: f64) {
        self.count += 1;
        self.total += w;
        self.max = self.max.max(w);
    }

    /// Seconds the host needs for this load.
    fn time(&self, m: &Machine, host: usize) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let h = &m.hosts[host];
        let alone = self.max / h.speed;
        let shared = self.total / (h.speed * f64::from(h.scalability.max(1)));
        alone.max(shared) / m.rate
    }
}

/// A network's mapping: the process and host of each node by linear
/// number, and the estimated time.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub procs: Vec<usize>,
    pub hosts: Vec<usize>,
    pub time: f64,
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300)
}

/// Maps `t` onto the machine: the parent node on `parent`, every other
/// node on one of the `free` processes. `busy` is the load each host
/// carries already (indexed by host; missing hosts carry none).
pub fn select(
    m: &Machine,
    t: &NetType,
    parent: Slot,
    free: &[Slot],
    busy: &[Load],
) -> Result<Placement, String> {
    if parent.host >= m.hosts.len() {
        return Err(format!(
            "the parent's host {} is not in the machine",
            parent.host
        ));
    }
    greedy(m, t, Some(parent), free, busy)
}

/// Maps every node of `t`, the parent included, onto the `free`
/// processes by the same scheme (for a job placed before it starts, such
/// as an Ensemble composition, where no node is running yet).
pub fn select_all(
    m: &Machine,
    t: &NetType,
    free: &[Slot],
    busy: &[Load],
) -> Result<Placement, String> {
    greedy(m, t, None, free, busy)
}

/// The processes of the machine's slots: host by host in file order,
/// `slots` of each, numbered from 0.
pub fn machine_slots(m: &Machine) -> Vec<Slot> {
    let mut out = Vec::new();
    for (host, h) in m.hosts.iter().enumerate() {
        for _ in 0..h.slots {
            out.push(Slot {
                proc: out.len(),
                host,
            });
        }
    }
    out
}

fn greedy(
    m: &Machine,
    t: &NetType,
    parent: Option<Slot>,
    free: &[Slot],
    busy: &[Load],
) -> Result<Placement, String> {
    let n = t.node_count();
    let nh = m.hosts.len();
    if let Some(s) = free.iter().find(|s| s.host >= nh) {
        return Err(format!(
            "process {} is on host {}, not in the machine",
            s.proc, s.host
        ));
    }
    let need = n - usize::from(parent.is_some());
    if free.len() < need {
        let what = if parent.is_some() {
            "a network of"
        } else {
            "placing"
        };
        return Err(format!(
            "{what} {n} nodes needs {need} free processes, {} are free",
            free.len()
        ));
    }
    let mut load: Vec<Load> = (0..nh)
        .map(|h| busy.get(h).copied().unwrap_or_default())
        .collect();
    let mut pool: Vec<Vec<usize>> = vec![Vec::new(); nh];
    for s in free {
        pool[s.host].push(s.proc);
    }
    for p in &mut pool {
        p.sort_unstable();
        p.reverse(); // pop() takes the lowest number
    }
    let mut procs = vec![usize::MAX; n];
    let mut hosts = vec![usize::MAX; n];
    let root = parent.map(|p| {
        let root = t.parent();
        procs[root] = p.proc;
        hosts[root] = p.host;
        load[p.host].add(t.powers()[root]);
        root
    });

    let mut order: Vec<usize> = (0..n).filter(|&v| Some(v) != root).collect();
    order.sort_by(|&a, &b| t.powers()[b].total_cmp(&t.powers()[a]).then(a.cmp(&b)));
    for v in order {
        let w = t.powers()[v];
        let mut best: Option<(usize, f64, f64)> = None;
        for (h, p) in pool.iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            let mut after = load[h];
            after.add(w);
            let time = after.time(m, h);
            let comm = comm_cost(m, t, &hosts, v, h);
            let better = match best {
                None => true,
                Some((bh, bt, bc)) => {
                    if !same(time, bt) {
                        time < bt
                    } else if !same(comm, bc) {
                        comm < bc
                    } else {
                        load[h].count < load[bh].count
                    }
                }
            };
            if better {
                best = Some((h, time, comm));
            }
        }
        let (h, _, _) = best.expect("enough free processes were checked above");
        procs[v] = pool[h].pop().expect("host has a free process");
        hosts[v] = h;
        load[h].add(w);
    }
    let time = estimate(m, t, &hosts, busy);
    Ok(Placement { procs, hosts, time })
}

/// Seconds of the links between node `v` on host `h` and the nodes placed
/// already.
fn comm_cost(m: &Machine, t: &NetType, hosts: &[usize], v: usize, h: usize) -> f64 {
    t.links()
        .iter()
        .filter_map(|l| {
            let other = if l.from == v {
                l.to
            } else if l.to == v {
                l.from
            } else {
                return None;
            };
            let oh = *hosts.get(other)?;
            (oh != usize::MAX && other != v).then(|| m.transfer_time(h, oh, l.len))
        })
        .sum()
}

/// Estimated seconds of network `t` with its nodes on `hosts`: the slowest
/// host's computation plus the time of every link between hosts.
pub fn estimate(m: &Machine, t: &NetType, hosts: &[usize], busy: &[Load]) -> f64 {
    let mut load: Vec<Load> = (0..m.hosts.len())
        .map(|h| busy.get(h).copied().unwrap_or_default())
        .collect();
    for (v, &h) in hosts.iter().enumerate() {
        if let Some(l) = load.get_mut(h) {
            l.add(t.powers()[v]);
        }
    }
    let comp = (0..load.len())
        .map(|h| load[h].time(m, h))
        .fold(0.0, f64::max);
    let comm: f64 = t
        .links()
        .iter()
        .map(|l| m.transfer_time(hosts[l.from], hosts[l.to], l.len))
        .sum();
    comp + comm
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nettype::Link;
    use crate::vpm::Host;

    fn machine(speeds: &[f64], scal: u32) -> Machine {
        let mut m = Machine::uniform(speeds.len());
        for (h, &s) in m.hosts.iter_mut().zip(speeds) {
            h.speed = s;
            h.scalability = scal;
        }
        m
    }

    /// `per_host` free processes on each host, numbered host-major after
    /// the parent (process 0 on host 0).
    fn free(hosts: usize, per_host: usize) -> Vec<Slot> {
        let mut v = Vec::new();
        for h in 0..hosts {
            for k in 0..per_host {
                let proc = 1 + h * per_host + k;
                v.push(Slot { proc, host: h });
            }
        }
        v
    }

    fn count(p: &Placement, h: usize) -> usize {
        p.hosts.iter().filter(|&&x| x == h).count()
    }

    #[test]
    fn equal_hosts_and_weights_go_round_robin_by_slot() {
        for scal in [1, 2] {
            let m = machine(&[1.0; 3], scal);
            let t = NetType::line(0, vec![1.0; 7], vec![]).unwrap();
            let p = select(&m, &t, Slot { proc: 0, host: 0 }, &free(3, 3), &[]).unwrap();
            // Node 0 is the parent on host 0; then host 1, 2, 0, 1, 2, 0.
            assert_eq!(p.hosts, vec![0, 1, 2, 0, 1, 2, 0], "scalability {scal}");
            // Inside a host, the lowest free process first.
            assert_eq!(p.procs, vec![0, 4, 7, 1, 5, 8, 2]);
        }
    }

    #[test]
    fn a_host_twice_as_fast_gets_twice_the_work() {
        let m = machine(&[1.0, 2.0], 1);
        for n in [3, 6, 9, 12] {
            let t = NetType::line(0, vec![1.0; n], vec![]).unwrap();
            let p = select(&m, &t, Slot { proc: 0, host: 0 }, &free(2, 12), &[]).unwrap();
            assert_eq!(count(&p, 1), 2 * count(&p, 0), "{n} nodes: {:?}", p.hosts);
        }
        // And with unequal volumes, the fast host gets twice the volume.
        let t = NetType::line(0, vec![2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0], vec![]).unwrap();
        let p = select(&m, &t, Slot { proc: 0, host: 0 }, &free(2, 8), &[]).unwrap();
        let vol = |h| -> f64 {
            (0..7)
                .filter(|&v| p.hosts[v] == h)
                .map(|v| t.powers()[v])
                .sum()
        };
        assert_eq!(vol(1), 2.0 * vol(0), "{:?}", p.hosts);
    }

    #[test]
    fn big_volumes_go_to_fast_hosts() {
        // The galaxy experiment's hosts and a group order that puts the big
        // groups last.
        let m = machine(&[1150.0, 331.0, 1662.0], 1);
        let vols = [10.0, 10.0, 10.0, 100.0, 100.0, 100.0, 600.0, 600.0, 600.0];
        let t = NetType::line(0, vols.to_vec(), vec![]).unwrap();
        let p = select(&m, &t, Slot { proc: 0, host: 0 }, &free(3, 3), &[]).unwrap();
        for v in 6..9 {
            assert_ne!(
                p.hosts[v], 1,
                "a 600-body group on the slow host: {:?}",
                p.hosts
            );
        }
        // Better than everything on the fastest host.
        let all_fast = vols.iter().sum::<f64>() / 1662.0;
        assert!(p.time < all_fast, "{} vs {all_fast}", p.time);
    }

    #[test]
    fn the_same_input_gives_the_same_mapping() {
        let mut m = machine(&[1.0, 1.5, 1.5, 3.0], 2);
        m.hosts[2].slots = 4;
        let links = (0..8)
            .map(|i| Link {
                from: i,
                to: (i + 1) % 8,
                len: 1e6 * (i as f64 + 1.0),
            })
            .collect();
        let t = NetType::new(
            3,
            vec![2, 4],
            (0..8).map(|i| 1.0 + (i % 3) as f64).collect(),
            links,
            2,
        )
        .unwrap();
        let f = free(4, 3);
        let a = select(&m, &t, Slot { proc: 0, host: 1 }, &f, &[]).unwrap();
        for _ in 0..5 {
            assert_eq!(
                select(&m, &t, Slot { proc: 0, host: 1 }, &f, &[]).unwrap(),
                a
            );
        }
        assert_eq!(a.procs[2], 0, "the parent stays on the creator");
        let mut seen = a.procs.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8, "every node gets its own process");
    }

    #[test]
    fn links_break_ties_toward_the_neighbour() {
        // Two equal hosts; node 1 is linked heavily to the parent.
        let mut m = machine(&[1.0, 1.0], 4);
        m.hosts.push(Host {
            name: "x".into(),
            speed: 1.0,
            scalability: 4,
            slots: 4,
        });
        let t = NetType::line(
            0,
            vec![1.0, 1.0],
            vec![Link {
                from: 0,
                to: 1,
                len: 1e9,
            }],
        )
        .unwrap();
        let p = select(&m, &t, Slot { proc: 0, host: 1 }, &free(3, 2), &[]).unwrap();
        assert_eq!(p.hosts[1], 1);
        assert!(p.time < 1.5);
    }

    #[test]
    fn too_few_free_processes_is_refused() {
        let m = machine(&[1.0], 1);
        let t = NetType::line(0, vec![1.0; 4], vec![]).unwrap();
        let e = select(&m, &t, Slot { proc: 0, host: 0 }, &free(1, 2), &[]).unwrap_err();
        assert!(e.contains("needs 3 free processes, 2 are free"), "{e}");
    }

    #[test]
    fn busy_hosts_are_avoided() {
        let m = machine(&[1.0, 1.0], 1);
        let t = NetType::line(0, vec![1.0, 1.0], vec![]).unwrap();
        let busy = [
            Load::default(),
            Load {
                count: 2,
                total: 2.0,
                max: 1.0,
            },
        ];
        let p = select(&m, &t, Slot { proc: 0, host: 0 }, &free(2, 2), &busy).unwrap();
        assert_eq!(p.hosts, vec![0, 0]);
    }

    #[test]
    fn without_a_parent_every_node_is_placed_by_the_scheme() {
        // Equal hosts, equal weights: round-robin by slot from the first host.
        let mut m = machine(&[1.0; 3], 1);
        for h in &mut m.hosts {
            h.slots = 3;
        }
        let t = NetType::line(0, vec![1.0; 7], vec![]).unwrap();
        let p = select_all(&m, &t, &machine_slots(&m), &[]).unwrap();
        assert_eq!(p.hosts, vec![0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(p.procs, vec![0, 3, 6, 1, 4, 7, 2]);
        // The heaviest node goes first, to the fastest host, wherever it
        // is in the list.
        let m = machine(&[1.0, 3.0], 1);
        let mut m2 = m.clone();
        for h in &mut m2.hosts {
            h.slots = 4;
        }
        let t = NetType::line(0, vec![1.0, 1.0, 6.0], vec![]).unwrap();
        let p = select_all(&m2, &t, &machine_slots(&m2), &[]).unwrap();
        assert_eq!(p.hosts[2], 1, "{:?}", p.hosts);
        // Slots bound the placement.
        let e = select_all(&m, &t, &machine_slots(&m), &[]).unwrap_err();
        assert!(
            e.contains("placing 3 nodes needs 3 free processes, 2 are free"),
            "{e}"
        );
    }
}
