//! The three published Get-Maximum compositions parse unchanged and give
//! the processes, ports, channels and bindings the scripts describe.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ensemble_lang::model::{Application, Environment};

mod common;

use common::{labelled_bindings, proc_of};

fn shared(name: &str) -> PathBuf {
    common::published_dir().join(name)
}

fn load(name: &str) -> Application {
    let path = shared(name);
    match ensemble_lang::parse_file(&path, &BTreeMap::new()) {
        Ok(app) => app,
        Err(d) => panic!("{name}: {}", d[0]),
    }
}

#[test]
fn full_graph_composition() {
    let app = load("getmax-full.ens");
    assert_eq!(app.name, "Get Maximum");
    assert_eq!(app.environment, Environment::Pvm3);
    assert_eq!(app.processes.len(), 12);
    assert_eq!(app.channels.len(), 14);
    let labels: Vec<String> = app.processes.iter().map(|p| p.label()).collect();
    assert_eq!(
        &labels[..9],
        &["T[1]", "T[2]", "T[3]", "T[4]", "T[5]", "T[6]", "T[7]", "T[8]", "R[1]"]
    );
    let r2 = &app.processes[proc_of(&app, "R", 2)];
    assert_eq!(r2.port_count("C"), 2);
    assert_eq!(r2.port_count("P"), 3);
    // Tags are 1..14 in channel order.
    let tags: Vec<i32> = app.channels.iter().map(|c| c.tag).collect();
    assert_eq!(tags, (1..=14).collect::<Vec<_>>());
    assert_eq!(
        labelled_bindings(&app, "R", 1),
        vec![
            ("C".into(), 1, "T[1]".into(), 1),
            ("C".into(), 2, "T[2]".into(), 2),
            ("C".into(), 3, "T[3]".into(), 3),
            ("P".into(), 1, "R[3]".into(), 9),
            ("P".into(), 2, "R[4]".into(), 10),
            ("P".into(), 3, "R[2]".into(), 11),
        ]
    );
    assert_eq!(
        labelled_bindings(&app, "T", 8),
        vec![("S".into(), 1, "R[4]".into(), 8)]
    );
    // Allocation: every process has a host, named as published.
    assert_eq!(app.allocation.len(), 12);
    assert_eq!(app.allocation[&proc_of(&app, "R", 2)].host, "zeus");
    assert_eq!(app.allocation[&proc_of(&app, "T", 8)].host, "adonis");
    assert_eq!(
        app.locations["R"].path,
        "/home/users/easy_spawn/bcast/relay"
    );
    assert_eq!(app.locations["T"].span.line, 42);
}

#[test]
fn star_composition() {
    let app = load("getmax-star.ens");
    assert_eq!(app.name, "Get-Maximum-Star");
    assert_eq!(app.processes.len(), 13);
    assert_eq!(app.channels.len(), 12);
    assert!(app.allocation.is_empty());
    let r5 = &app.processes[proc_of(&app, "R", 5)];
    assert_eq!(r5.port_count("C"), 4);
    assert_eq!(r5.port_count("P"), 0);
    assert_eq!(
        labelled_bindings(&app, "R", 5),
        vec![
            ("C".into(), 1, "R[1]".into(), 9),
            ("C".into(), 2, "R[2]".into(), 10),
            ("C".into(), 3, "R[3]".into(), 11),
            ("C".into(), 4, "R[4]".into(), 12),
        ]
    );
    assert_eq!(app.locations["T"].path, "terminal");
}

#[test]
fn tree_composition() {
    let app = load("getmax-tree.ens");
    assert_eq!(app.name, "Get-Maximum-Tree");
    assert_eq!(app.processes.len(), 15);
    assert_eq!(app.channels.len(), 14);
    // R[7] is the root: two children, no parent.
    assert_eq!(
        labelled_bindings(&app, "R", 7),
        vec![
            ("C".into(), 1, "R[5]".into(), 13),
            ("C".into(), 2, "R[6]".into(), 14)
        ]
    );
    assert_eq!(
        labelled_bindings(&app, "R", 6),
        vec![
            ("C".into(), 1, "R[3]".into(), 11),
            ("C".into(), 2, "R[4]".into(), 12),
            ("P".into(), 1, "R[7]".into(), 14),
        ]
    );
    // The relays are declared in the order R1, R2, R3, R5, R6, R4, R7.
    let order: Vec<i64> = app.processes[8..].iter().map(|p| p.index).collect();
    assert_eq!(order, vec![1, 2, 3, 5, 6, 4, 7]);
}

/// The published scripts pass every check once their host names are
/// mapped and their executables can be found: the full composition's
/// absolute paths (the authors' machines) fall back to the file names,
/// with a warning saying so.
#[test]
fn published_scripts_check_clean_with_a_host_map_and_executables() {
    let dir = common::scratch_dir("published");
    common::fake_executable(&dir, "terminal");
    common::fake_executable(&dir, "relay");
    let hosts = ensemble_lang::HostMap::parse(
        "orion localhost\nzeus localhost\niamini = localhost\nadonis localhost\n",
        Path::new("hosts"),
    )
    .unwrap();
    for name in ["getmax-full.ens", "getmax-star.ens", "getmax-tree.ens"] {
        let dst = dir.join(name);
        std::fs::copy(shared(name), &dst).unwrap();
        let app = ensemble_lang::parse_file(&dst, &BTreeMap::new()).unwrap();
        let d = ensemble_lang::check(&app, &hosts);
        assert!(
            !ensemble_lang::diag::has_errors(&d),
            "{name}: {}",
            common::render(&d)
        );
        if name == "getmax-full.ens" {
            assert_eq!(d.len(), 2, "{}", common::render(&d));
            assert!(d[0]
                .message
                .contains("/home/users/easy_spawn/bcast/relay does not exist here"));
            assert_eq!(
                ensemble_lang::resolve_location(&app, "R"),
                Some(std::fs::canonicalize(dir.join("relay")).unwrap())
            );
        } else {
            assert!(d.is_empty(), "{name}: {}", common::render(&d));
        }
        // Without the host map the full composition's hosts are unknown.
        let d = ensemble_lang::check(&app, &ensemble_lang::HostMap::local());
        assert_eq!(
            d.iter()
                .filter(|x| x.message.contains("unknown host"))
                .count(),
            if name == "getmax-full.ens" { 4 } else { 0 }
        );
    }
}

/// The later paper's words (`Processes`, `Channels`, `PARALLEL SYSTEM`,
/// `SEQUENTIAL COMPONENTS`) give the same model as the first paper's.
#[test]
fn both_spellings_of_the_section_names() {
    let first = std::fs::read_to_string(shared("getmax-tree.ens")).unwrap();
    let later = first
        .replace("Components\n", "Processes\n")
        .replace("Connections\n", "Channels\n")
        .replace("Parallel System", "PARALLEL SYSTEM")
        .replace("Sequential System", "SEQUENTIAL COMPONENTS");
    assert_ne!(first, later);
    let a = ensemble_lang::parse_str(&first, Path::new("a.ens"), &BTreeMap::new()).unwrap();
    let b = ensemble_lang::parse_str(&later, Path::new("a.ens"), &BTreeMap::new()).unwrap();
    assert_eq!(a.processes, b.processes);
    assert_eq!(a.channels, b.channels);
    assert_eq!(a.locations, b.locations);
}
