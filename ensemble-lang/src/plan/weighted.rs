//! Placement by weight: a composition whose script has no allocation but
//! gives its processes weights (`Weights` in its annotation) is placed on
//! a virtual parallel machine (the file `mpbridge recon` writes) by the
//! selection scheme of the mpC dispatcher (`mpc_map::select_all`): the
//! heaviest process first, each onto the free slot of the host that would
//! finish its work soonest. A process the script gives no weight weighs 1.
//! Equal inputs give equal placements.

use crate::model::Application;
use mpc_map::{machine_slots, select_all, Machine, NetType};

/// Where each process goes and what the scheme expects.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedPlacement {
    /// The host name (as the machine file writes it) of every process, in
    /// process order.
    pub hosts: Vec<String>,
    /// The weight each process was placed with.
    pub weights: Vec<u64>,
    /// Estimated seconds of the slowest host's share (the machine's
    /// `rate` turns weights into seconds).
    pub time: f64,
}

/// Whether the script asks to be placed by weight: it gives weights and
/// allocates no process itself.
pub fn wants_placement(app: &Application) -> bool {
    !app.weights.is_empty() && app.allocation.is_empty()
}

/// Places every process of `app` on `machine` by weight. Fails when the
/// machine has fewer slots than the composition has processes.
pub fn place(app: &Application, machine: &Machine) -> Result<WeightedPlacement, String> {
    let n = app.processes.len();
    if n == 0 {
        return Ok(WeightedPlacement {
            hosts: Vec::new(),
            weights: Vec::new(),
            time: 0.0,
        });
    }
    let weights: Vec<u64> = (0..n)
        .map(|p| app.weights.get(&p).map_or(1, |w| w.value))
        .collect();
    let powers = weights.iter().map(|&w| w as f64).collect();
    let net = NetType::line(0, powers, Vec::new())?;
    let slots = machine_slots(machine);
    let p = select_all(machine, &net, &slots, &[]).map_err(|e| {
        format!(
            "cannot place {n} processes on the virtual machine's {} slots ({e}); \
             give hosts more slots in the machine file",
            slots.len()
        )
    })?;
    Ok(WeightedPlacement {
        hosts: p
            .hosts
            .iter()
            .map(|&h| machine.hosts[h].name.clone())
            .collect(),
        weights,
        time: p.time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::path::Path;

    fn app(src: &str) -> Application {
        crate::parse_str(src, Path::new("w.ens"), &BTreeMap::new()).expect("parses")
    }

    fn script(weights: &str) -> String {
        format!(
            "Application W\nComponents\nW[1..6] #ports = P:0;\n\
             Parallel System\nenvironment MPI;\nMPI annotation\n{weights}\n\
             Sequential System\nLocation\nW: \"w\";\n"
        )
    }

    fn count(p: &WeightedPlacement, host: &str) -> usize {
        p.hosts.iter().filter(|h| *h == host).count()
    }

    #[test]
    fn equal_hosts_and_weights_go_round_robin_by_slot() {
        let a = app(&script("Weights\nW[1..6]: 5;"));
        assert!(wants_placement(&a));
        let m = Machine::parse("host a slots 3\nhost b slots 3\nhost c slots 3\n").unwrap();
        let p = place(&a, &m).unwrap();
        assert_eq!(p.hosts, ["a", "b", "c", "a", "b", "c"]);
        assert_eq!(p.weights, vec![5; 6]);
    }

    #[test]
    fn a_host_twice_as_fast_gets_twice_the_weight() {
        let a = app(&script("Weights\nW[1..6]: 7;"));
        let m = Machine::parse("host slow speed 1 slots 6\nhost fast speed 2 slots 6\n").unwrap();
        let p = place(&a, &m).unwrap();
        assert_eq!(
            (count(&p, "fast"), count(&p, "slow")),
            (4, 2),
            "{:?}",
            p.hosts
        );
    }

    #[test]
    fn heavy_processes_go_to_fast_hosts_wherever_they_are_declared() {
        // The galaxy groups' work (size squared / 100) in an order with the
        // big groups first, and the experiment's relative speeds.
        let a = app(&script(
            "Weights\nW[1..2]: 3600; W[3]: 100; W[4..5]: 1; W[6]: 3600;",
        ));
        let m = Machine::parse(
            "host h1 speed 3.474 slots 3\nhost h2 speed 1 slots 3\nhost h3 speed 5.021 slots 3\n",
        )
        .unwrap();
        let p = place(&a, &m).unwrap();
        let big: Vec<&str> = [0, 1, 5].iter().map(|&i| p.hosts[i].as_str()).collect();
        assert!(
            !big.contains(&"h2"),
            "a big group on the slow host: {:?}",
            p.hosts
        );
        assert_eq!(
            big.iter().filter(|h| **h == "h3").count(),
            2,
            "{:?}",
            p.hosts
        );
        // The same input gives the same placement.
        for _ in 0..3 {
            assert_eq!(place(&a, &m).unwrap(), p);
        }
    }

    #[test]
    fn unweighted_processes_weigh_one_and_later_lines_win() {
        let a = app(&script("Weights\nW[1..6]: 2; W[2]: 9;"));
        let m = Machine::parse("host a slots 6\n").unwrap();
        let p = place(&a, &m).unwrap();
        assert_eq!(p.weights, vec![2, 9, 2, 2, 2, 2]);
        let a = app(&script("Weights\nW[3]: 4;"));
        assert_eq!(place(&a, &m).unwrap().weights, vec![1, 1, 4, 1, 1, 1]);
    }

    #[test]
    fn too_few_slots_are_refused_with_the_counts() {
        let a = app(&script("Weights\nW[1..6]: 1;"));
        let m = Machine::parse("host a slots 2\nhost b slots 3\n").unwrap();
        let e = place(&a, &m).unwrap_err();
        assert!(e.contains("6 processes") && e.contains("5 slots"), "{e}");
    }

    #[test]
    fn an_allocation_keeps_its_hosts() {
        let src = script("Weights\nW[1..6]: 1;").replace(
            "MPI annotation",
            "Allocation\nW[1..6] at localhost;\nMPI annotation",
        );
        assert!(!wants_placement(&app(&src)));
        assert!(!wants_placement(&app(&script(""))));
    }

    #[test]
    fn a_weight_below_one_is_an_error_at_its_line() {
        let src = script("Weights\nW[1..6]: 3 - 3;");
        let e = crate::parse_str(&src, Path::new("w.ens"), &BTreeMap::new()).unwrap_err();
        assert!(
            e.iter()
                .any(|d| d.message.contains("weight 0") && d.span.line == 8),
            "{e:?}"
        );
    }
}
