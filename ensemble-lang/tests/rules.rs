//! Parametric topologies written as rules: each composition has the
//! expected processes and channels, every port is connected exactly once,
//! and the size follows the command-line parameters.

mod common;

use std::path::Path;

use common::*;
use ensemble_lang::model::Application;
use ensemble_lang::{check, HostMap};

fn build(body: &str, defaults: &str, cli: &[(&str, i64)]) -> Application {
    let src = format!(
        "Application Rules\nParameters\n{defaults}\nPCG\nComponents\n{body}\nParallel System\nenvironment PVM3;\nSequential System\nLocation\nR: \"/bin/true\"; B: \"/bin/true\"; M: \"/bin/true\"; K: \"/bin/true\";\n"
    );
    let app = ensemble_lang::parse_str(&src, Path::new("rules.ens"), &params(cli))
        .unwrap_or_else(|d| panic!("{}\n{src}", render(&d)));
    // Every port connected once, no other finding (the warning for the
    // locations of components this composition does not use aside).
    let d: Vec<_> = check(&app, &HostMap::local())
        .into_iter()
        .filter(|d| !d.message.contains("location given for unknown component"))
        .collect();
    assert!(d.is_empty(), "{}\n{src}", render(&d));
    app
}

fn peers(app: &Application, c: &str, i: i64) -> Vec<String> {
    app.bindings(app.find(c, i).unwrap())
        .into_iter()
        .map(|b| format!("{}[{}]={}", b.0, b.1, app.processes[b.2].label()))
        .collect()
}

const RING: &str = "R[1..N] #ports = Left:1, Right:1;\nConnections\nR[i].Right[1] <-> R[i % N + 1].Left[1] for i in 1..N;";
const TREE: &str = "B[i] #ports = Child: (2*i <= N) + (2*i+1 <= N), Parent: (i > 1) for i in 1..N;\nConnections\nB[i / 2].Child[i % 2 + 1] <-> B[i].Parent[1] for i in 2..N;";
const MESH: &str = "M[r*Cols + c] #ports = East: (c < Cols-1), West: (c > 0), South: (r < Rows-1), North: (r > 0)\n    for r in 0..Rows-1, c in 0..Cols-1;\nConnections\nM[r*Cols + c].East[1] <-> M[r*Cols + c + 1].West[1] for r in 0..Rows-1, c in 0..Cols-2;\nM[r*Cols + c].South[1] <-> M[(r+1)*Cols + c].North[1] for r in 0..Rows-2, c in 0..Cols-1;";
const FULL: &str = "K[1..N] #ports = P: N-1;\nConnections\nK[i].P[j - 1] <-> K[j].P[i] for i in 1..N, j in i+1..N;";

#[test]
fn ring() {
    let app = build(RING, "N = 8;", &[]);
    assert_eq!((app.processes.len(), app.channels.len()), (8, 8));
    assert_eq!(peers(&app, "R", 8), vec!["Left[1]=R[7]", "Right[1]=R[1]"]);
    let app = build(RING, "N = 8;", &[("N", 64)]);
    assert_eq!((app.processes.len(), app.channels.len()), (64, 64));
}

#[test]
fn binary_tree() {
    let app = build(TREE, "N = 10;", &[]);
    assert_eq!((app.processes.len(), app.channels.len()), (10, 9));
    assert_eq!(peers(&app, "B", 1), vec!["Child[1]=B[2]", "Child[2]=B[3]"]);
    assert_eq!(
        peers(&app, "B", 5),
        vec!["Child[1]=B[10]", "Parent[1]=B[2]"]
    );
    assert_eq!(peers(&app, "B", 7), vec!["Parent[1]=B[3]"]);
}

#[test]
fn mesh() {
    let app = build(MESH, "Rows = 3, Cols = 4;", &[]);
    assert_eq!(app.processes.len(), 12);
    assert_eq!(app.channels.len(), 3 * 3 + 2 * 4);
    // M[5] is row 1, column 1: four neighbours.
    assert_eq!(
        peers(&app, "M", 5),
        vec![
            "East[1]=M[6]",
            "West[1]=M[4]",
            "South[1]=M[9]",
            "North[1]=M[1]"
        ]
    );
    let app = build(MESH, "Rows = 3, Cols = 4;", &[("Rows", 8), ("Cols", 8)]);
    assert_eq!((app.processes.len(), app.channels.len()), (64, 112));
}

#[test]
fn full_graph() {
    let app = build(FULL, "N = 5;", &[]);
    assert_eq!((app.processes.len(), app.channels.len()), (5, 10));
    assert_eq!(
        peers(&app, "K", 3),
        vec!["P[1]=K[1]", "P[2]=K[2]", "P[3]=K[4]", "P[4]=K[5]"]
    );
}

#[test]
fn rule_with_a_condition() {
    // Only the even workers join the hub; the odd ones stay unconnected.
    let src = "Application Hub\nParameters N = 6;\nPCG\nComponents\nH[0] #ports = C: N / 2;\nW[1..N] #ports = S:1;\nConnections\nW[i].S[1] <-> H[0].C[i / 2] for i in 1..N if i % 2 == 0;\nParallel System\nenvironment PVM3;\n";
    let app = parse_ok(src, Path::new("hub.ens"));
    assert_eq!(app.processes.len(), 7);
    assert_eq!(app.channels.len(), 3);
    assert_eq!(
        peers(&app, "H", 0),
        vec!["C[1]=W[2]", "C[2]=W[4]", "C[3]=W[6]"]
    );
    let d = check(&app, &HostMap::local());
    let unconnected: Vec<_> = d
        .iter()
        .filter(|d| d.message.contains("not connected"))
        .collect();
    assert_eq!(unconnected.len(), 3, "{}", render(&d));
}

#[test]
fn defines_from_the_command_line() {
    assert_eq!(
        ensemble_lang::parse_define("N=64"),
        Ok(("N".to_string(), 64))
    );
    assert_eq!(
        ensemble_lang::parse_define(" Rows = -3 "),
        Ok(("Rows".to_string(), -3))
    );
    assert!(ensemble_lang::parse_define("N").is_err());
    assert!(ensemble_lang::parse_define("1N=3").is_err());
    assert!(ensemble_lang::parse_define("N=x")
        .unwrap_err()
        .contains("not an integer"));
}
