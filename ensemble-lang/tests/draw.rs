//! Drawing: the DOT source shows every process with its ports and every
//! channel with its tag, and Graphviz turns it into an SVG.

mod common;

use std::collections::BTreeMap;

use common::*;

#[test]
fn dot_source_has_processes_ports_and_tagged_channels() {
    let app = ensemble_lang::parse_file(&published_dir().join("getmax-star.ens"), &BTreeMap::new())
        .unwrap();
    let dot = ensemble_lang::to_dot(&app);
    assert!(dot.starts_with("graph \"Get-Maximum-Star\""));
    let nodes = dot.lines().filter(|l| l.contains("[label=\"{")).count();
    assert_eq!(nodes, 13);
    let edges: Vec<&str> = dot.lines().filter(|l| l.contains(" -- ")).collect();
    assert_eq!(edges.len(), 12);
    // R[5] (process 13, node p12) shows its four C ports and no P port.
    let r5 = dot
        .lines()
        .find(|l| l.trim_start().starts_with("p12 "))
        .unwrap();
    assert!(
        r5.contains("R[5]") && r5.contains("<C_4> C[4]") && !r5.contains("P[1]"),
        "{r5}"
    );
    // The channel R[4].P[1] <-> R[5].C[4] is the 12th: tag 12.
    assert!(
        edges.contains(&"  p11:\"P_1\" -- p12:\"C_4\" [label=\"12\"];"),
        "{edges:?}"
    );
}

#[test]
fn large_nodes_show_counts() {
    let src = "Application Big\nPCG\nComponents\nH[1] #ports = C:20;\nL[1..20] #ports = S:1;\nConnections\nL[i].S[1] <-> H[1].C[i] for i in 1..20;\nParallel System\nenvironment PVM3;\n";
    let app = parse_ok(src, std::path::Path::new("big.ens"));
    let dot = ensemble_lang::to_dot(&app);
    assert!(dot.contains("p0 [label=\"{H[1]|{C:20}}\"];"), "{dot}");
    assert!(dot.contains("p1:\"S_1\" -- p0 [label=\"1\"];"), "{dot}");
}

#[test]
fn svg_through_graphviz() {
    let app = ensemble_lang::parse_file(&examples_dir().join("getmax-tree4.ens"), &BTreeMap::new())
        .unwrap();
    let out = scratch_dir("draw").join("tree4.svg");
    ensemble_lang::draw_svg(&app, &out).unwrap();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("<svg"));
    for label in ["T[8]", "R[3]", "C[4]"] {
        assert!(svg.contains(label), "{label} missing from the drawing");
    }
    // An unwritable destination is a clear error, not a panic.
    let err =
        ensemble_lang::draw_svg(&app, std::path::Path::new("/nonexistent-dir/x.svg")).unwrap_err();
    assert!(err.contains("dot"), "{err}");
}

#[test]
fn mpi_groups_are_drawn_with_their_members() {
    let app = ensemble_lang::parse_file(
        &examples_dir().join("getmax-mpi-servers.ens"),
        &BTreeMap::new(),
    )
    .unwrap();
    let dot = ensemble_lang::to_dot(&app);
    for g in ["TG1", "TG2", "TG3", "Servers"] {
        assert!(
            dot.contains(&format!("style=dashed, label=\"{g}\"]")),
            "{g}: {dot}"
        );
    }
    // One dashed edge per context binding: 3 + 6 terminal/server groups + 3 servers.
    let dashed = dot.lines().filter(|l| l.contains(" -- g")).count();
    assert_eq!(dashed, 12);
    // T[3] (process 3) joins TG2 through LocalGroup.
    assert!(
        dot.contains("p2 -- g1 [style=dashed, label=\"LocalGroup\"];"),
        "{dot}"
    );
    let out = scratch_dir("draw").join("servers.svg");
    ensemble_lang::draw_svg(&app, &out).unwrap();
    assert!(std::fs::read_to_string(&out).unwrap().contains("Servers"));
}
