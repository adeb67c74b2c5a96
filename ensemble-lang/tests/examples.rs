//! The project's own compositions under examples/ensemble/compositions:
//! the five-terminal and four-relay-tree PVM compositions, the 64-process
//! parametric ring and the two MPI variants. Each parses, has the structure
//! it describes, and passes every check once its executables exist.

mod common;

use std::collections::BTreeMap;

use common::*;
use ensemble_lang::model::{Application, Environment};
use ensemble_lang::{check, HostMap};

fn assert_clean(app: &Application) {
    let d = check(app, &HostMap::local());
    assert!(d.is_empty(), "{}", render(&d));
}

#[test]
fn five_terminals_three_relays_with_values() {
    let app = staged(
        &examples_dir().join("getmax-five.ens"),
        &["terminal", "relay"],
        &BTreeMap::new(),
    );
    assert_eq!(app.processes.len(), 8);
    assert_eq!(app.channels.len(), 8);
    let values: Vec<i64> = app
        .processes
        .iter()
        .filter(|p| p.component == "T")
        .map(|p| p.params[0].parse().unwrap())
        .collect();
    assert_eq!(values, vec![17, 999, 5, 311, 42]);
    assert_eq!(values.iter().max(), Some(&999));
    assert!(app
        .processes
        .iter()
        .filter(|p| p.component == "R")
        .all(|p| p.params.is_empty()));
    assert_eq!(
        labelled_bindings(&app, "R", 3),
        vec![
            ("C".into(), 1, "T[5]".into(), 5),
            ("P".into(), 1, "R[1]".into(), 7),
            ("P".into(), 2, "R[2]".into(), 8),
        ]
    );
    assert_clean(&app);
}

#[test]
fn tree_where_relay_three_has_four_clients() {
    let app = staged(
        &examples_dir().join("getmax-tree4.ens"),
        &["terminal", "relay"],
        &BTreeMap::new(),
    );
    assert_eq!(app.processes.len(), 12);
    assert_eq!(app.channels.len(), 11);
    let r3 = &app.processes[app.find("R", 3).unwrap()];
    assert_eq!(r3.port_count("C"), 4);
    assert_eq!(r3.port_count("P"), 0);
    let peers: Vec<String> = labelled_bindings(&app, "R", 3)
        .into_iter()
        .map(|b| b.2)
        .collect();
    assert_eq!(peers, vec!["R[1]", "R[2]", "R[4]", "T[8]"]);
    assert_clean(&app);
}

#[test]
fn ring_of_64_processes_from_a_few_lines() {
    let path = examples_dir().join("ring64.ens");
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    assert!(lines < 50, "{lines} lines");
    let app = staged(&path, &["terminal_mpi", "server_mpi"], &BTreeMap::new());
    assert_eq!(app.environment, Environment::Mpi);
    assert_eq!(app.processes.len(), 64);
    assert_eq!(app.channels.len(), 32);
    // The ring closes: S[32].Out goes to S[1].In.
    assert_eq!(
        labelled_bindings(&app, "S", 32),
        vec![
            ("Out".into(), 1, "S[1]".into(), 32),
            ("In".into(), 1, "S[31]".into(), 31)
        ]
    );
    let mpi = app.mpi.as_ref().unwrap();
    let s5 = app.find("S", 5).unwrap();
    let t5 = app.find("T", 5).unwrap();
    assert!(mpi
        .contexts
        .contains(&(s5, "TerminalGroup".into(), "TG[5]".into())));
    assert!(mpi
        .contexts
        .contains(&(t5, "LocalGroup".into(), "TG[5]".into())));
    assert!(mpi
        .roots
        .contains(&(t5, "CalcRoot".into(), "LocalGroup".into(), s5)));
    assert!(mpi
        .topology_args
        .contains(&(s5, "RingSize".into(), "32".into())));
    assert_eq!(app.processes[t5].params, vec!["185".to_string()]);
    assert_clean(&app);
}

#[test]
fn ring_size_from_the_command_line() {
    let app = staged(
        &examples_dir().join("ring64.ens"),
        &["terminal_mpi", "server_mpi"],
        &params(&[("N", 4)]),
    );
    assert_eq!(app.processes.len(), 8);
    assert_eq!(app.channels.len(), 4);
    assert_eq!(app.info.params["N"], 4);
    let s1 = app.find("S", 1).unwrap();
    assert!(app
        .mpi
        .as_ref()
        .unwrap()
        .topology_args
        .contains(&(s1, "RingSize".into(), "4".into())));
    assert_eq!(labelled_bindings(&app, "S", 4)[0].2, "S[1]");
    assert_clean(&app);
}

#[test]
fn mpi_all_terminals_one_group() {
    let app = staged(
        &examples_dir().join("getmax-mpi-all.ens"),
        &["terminal_mpi"],
        &BTreeMap::new(),
    );
    assert_eq!(app.processes.len(), 6);
    assert!(app.channels.is_empty());
    let mpi = app.mpi.as_ref().unwrap();
    let t1 = app.find("T", 1).unwrap();
    assert_eq!(mpi.contexts.len(), 6);
    assert!(mpi
        .contexts
        .iter()
        .all(|(_, c, g)| c == "LocalGroup" && g == "TermG"));
    assert_eq!(mpi.roots.len(), 6);
    assert!(mpi
        .roots
        .iter()
        .all(|(_, r, c, root)| r == "CalcRoot" && c == "LocalGroup" && *root == t1));
    assert_eq!(app.locations["T"].path, "terminal_mpi");
    assert_clean(&app);
}

#[test]
fn mpi_servers_in_a_ring_with_terminal_groups() {
    let app = staged(
        &examples_dir().join("getmax-mpi-servers.ens"),
        &["terminal_mpi", "server_mpi"],
        &BTreeMap::new(),
    );
    assert_eq!(app.processes.len(), 9);
    assert_eq!(app.channels.len(), 3);
    let mpi = app.mpi.as_ref().unwrap();
    let group_of = |c: &str, i: i64, ctx: &str| {
        let p = app.find(c, i).unwrap();
        mpi.contexts
            .iter()
            .find(|(q, k, _)| *q == p && k == ctx)
            .map(|x| x.2.clone())
            .unwrap()
    };
    assert_eq!(group_of("S", 1, "TerminalGroup"), "TG1");
    assert_eq!(group_of("T", 1, "LocalGroup"), "TG1");
    assert_eq!(group_of("T", 3, "LocalGroup"), "TG2");
    assert_eq!(group_of("T", 6, "LocalGroup"), "TG3");
    assert_eq!(group_of("S", 2, "ServerGroup"), "Servers");
    let s2 = app.find("S", 2).unwrap();
    let t3 = app.find("T", 3).unwrap();
    assert!(mpi
        .roots
        .contains(&(t3, "CalcRoot".into(), "LocalGroup".into(), s2)));
    assert!(mpi
        .port_contexts
        .contains(&(s2, "Out".into(), "ServerGroup".into())));
    assert_eq!(
        labelled_bindings(&app, "S", 1),
        vec![
            ("Out".into(), 1, "S[2]".into(), 1),
            ("In".into(), 1, "S[3]".into(), 3)
        ]
    );
    assert_eq!(app.processes[t3].params, vec!["5".to_string()]);
    assert_clean(&app);
}

#[test]
fn the_same_terminal_executable_serves_both_mpi_variants() {
    let a = ensemble_lang::parse_file(&examples_dir().join("getmax-mpi-all.ens"), &BTreeMap::new())
        .unwrap();
    let b = ensemble_lang::parse_file(
        &examples_dir().join("getmax-mpi-servers.ens"),
        &BTreeMap::new(),
    )
    .unwrap();
    assert_eq!(a.locations["T"].path, b.locations["T"].path);
}
