//! The `mpbridge` command needs no MPI library: its crate graph holds the
//! Ensemble language but neither MPI's bindings nor a layer over them, and
//! the installed binary loads no MPI library. The Ensemble loader, which is
//! an MPI program, is the contrast that shows both checks can see MPI.

use std::path::Path;
use std::process::Command;
use tests::mpirun::{stage, stdout_of, workspace_root};

/// Crates that would bring MPI into a program.
const MPI_CRATES: [&str; 5] = ["mpi-sys", "shim-core", "shim-pvm", "ensemble", "mpc-rts"];

/// The package names in `cargo tree -p PACKAGE` (every edge kind).
fn crate_graph(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut tree = Command::new(cargo);
    tree.current_dir(workspace_root()).args([
        "tree",
        "--offline",
        "--prefix",
        "none",
        // What the crate links, not what its own tests use.
        "--edges",
        "normal",
        "-p",
        package,
    ]);
    stdout_of(&mut tree, &format!("cargo tree -p {package}"))
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The shared libraries `ldd` says `exe` loads.
fn loaded_libraries(exe: &Path) -> Vec<String> {
    let mut ldd = Command::new("ldd");
    ldd.arg(exe);
    stdout_of(&mut ldd, &format!("ldd {}", exe.display()))
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

fn is_mpi_library(name: &str) -> bool {
    name.starts_with("libmpi") || name.starts_with("libopen-") || name.starts_with("libmpbridge")
}

#[test]
fn the_command_crate_graph_has_the_language_and_no_mpi() {
    let graph = crate_graph("mpbridge-cli");
    assert!(
        graph.iter().any(|c| c == "ensemble-lang"),
        "mpbridge-cli does not use ensemble-lang: {graph:?}"
    );
    let mpi: Vec<&String> = graph
        .iter()
        .filter(|c| MPI_CRATES.contains(&c.as_str()))
        .collect();
    assert!(mpi.is_empty(), "mpbridge-cli depends on {mpi:?}");
    // The language places compositions with the MPI-free mapping crate
    // and uses nothing else.
    let lang = crate_graph("ensemble-lang");
    assert_eq!(
        lang,
        ["ensemble-lang", "mpc-map"],
        "the language crate depends on more"
    );
    assert_eq!(
        crate_graph("mpc-map"),
        ["mpc-map"],
        "the mapping crate depends on more"
    );
}

#[test]
fn the_runtime_reaches_mpi_through_shim_core_only() {
    let graph = crate_graph("ensemble");
    assert!(graph.iter().any(|c| c == "shim-core"), "{graph:?}");
    // Direct dependencies only: mpi-sys comes in below shim-core.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(workspace_root())
        .args([
            "tree",
            "--offline",
            "--prefix",
            "none",
            "--depth",
            "1",
            "-p",
            "ensemble",
        ])
        .output()
        .expect("run cargo tree");
    let direct = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && direct.contains("shim-core"),
        "{direct}"
    );
    assert!(
        !direct.contains("mpi-sys"),
        "ensemble uses mpi-sys directly:\n{direct}"
    );
}

#[test]
fn the_installed_command_loads_no_mpi_library() {
    let libs = loaded_libraries(&stage().join("bin/mpbridge"));
    assert!(
        libs.iter().any(|l| l.starts_with("libc.so")),
        "ldd lists no C library: {libs:?}"
    );
    let mpi: Vec<&String> = libs.iter().filter(|l| is_mpi_library(l)).collect();
    assert!(mpi.is_empty(), "bin/mpbridge loads {mpi:?}");
    // The loader is an MPI program: the same check finds MPI there.
    let loader = loaded_libraries(&stage().join("bin/mpbridge-ens-loader"));
    assert!(
        loader.iter().any(|l| l.starts_with("libmpi")),
        "bin/mpbridge-ens-loader loads no MPI library: {loader:?}"
    );
}
