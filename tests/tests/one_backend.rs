//! One backend per process: a C program that uses PVM, TCGMSG, Express and
//! Global Arrays at once, linked with the four drop-in names, runs beside
//! one `ga-server` under `mpiexec`; no message crosses from one API to
//! another. With `MPBRIDGE_LOG`, each layer logs its start under its own
//! name.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use tests::mpirun::{ga_server, lines_where, mpiexec_beside_server, stage, Run};
use tests::native::build;
use tests::tally;

/// The libraries from the installed tree that `exe` loads, as real files.
fn installed_libraries(exe: &Path) -> Vec<PathBuf> {
    let lib_dir = stage()
        .join("lib")
        .canonicalize()
        .expect("installed lib dir");
    let out = Command::new("ldd").arg(exe).output().expect("run ldd");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut libs: Vec<PathBuf> = text
        .lines()
        .filter_map(|l| l.split("=>").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter_map(|p| Path::new(p).canonicalize().ok())
        .filter(|p| p.starts_with(&lib_dir))
        .collect();
    libs.sort();
    libs.dedup();
    libs
}

/// The test program, built once: tests run in parallel and must not
/// rewrite an executable another one is starting.
fn program() -> &'static PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        build(
            "one_backend/one_backend.c",
            &["pvm3", "tcgmsg", "express", "ga"],
        )
    })
}

/// Runs the program on `n` compute ranks beside one data server, with
/// `env` on the compute ranks, and checks every rank's tally.
fn run_one_backend_env(n: u32, ending: &str, env: &[(&str, &str)]) -> Run {
    let exe = program();
    let libs = installed_libraries(exe);
    assert_eq!(
        libs.len(),
        1,
        "-lpvm3 -ltcgmsg -lexpress -lga must all be the one library: {libs:?}"
    );

    let r = mpiexec_beside_server(
        &ga_server(),
        n,
        exe,
        &[ending],
        env,
        Duration::from_secs(120),
    );
    assert!(!r.timed_out, "hung:\n{}\n{}", r.stdout, r.stderr);
    tally::ranks_ok(&r, "one_backend", n as usize);
    assert_eq!(
        r.stdout.matches("one_backend rank ").count(),
        n as usize,
        "one tally per compute rank, none from the server:\n{}",
        r.stdout
    );
    r.assert_stderr_lacks("FAILED", "on stderr");
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    r
}

fn run_one_backend(n: u32, ending: &str) {
    run_one_backend_env(n, ending, &[]);
}

/// Each layer logs its own decisions under its own name, and a layer left
/// out of `MPBRIDGE_LOG` stays quiet.
#[test]
fn each_layer_logs_its_start_when_asked() {
    let r = run_one_backend_env(
        2,
        "mpi",
        &[("MPBRIDGE_LOG", "tcgmsg=debug,express=debug,ga=debug")],
    );
    for (layer, what) in [
        ("tcgmsg", "PBEGIN: TCGMSG started"),
        ("express", "Express started"),
        ("ga", "GA client connected"),
    ] {
        let lines = lines_where(&r.stderr, |l| {
            l.contains(&format!(" {layer}: ")) && l.contains(what)
        });
        assert_eq!(lines.len(), 2, "one '{what}' per rank:\n{}", r.stderr);
        assert!(lines.iter().all(|l| l.starts_with("[rank ")), "{lines:?}");
    }
    r.assert_stderr_lacks(" core: ", "layers left out stay quiet")
        .assert_stderr_lacks(" pvm: ", "layers left out stay quiet");
}

/// A program that owns MPI: `MPI_Init` first, `MPI_Finalize` last.
#[test]
fn pvm_tcgmsg_and_ga_in_one_process_on_two_ranks() {
    run_one_backend(2, "mpi");
}

#[test]
fn pvm_tcgmsg_and_ga_in_one_process_on_three_ranks() {
    run_one_backend(3, "mpi");
}

/// A TCGMSG program: `tcg_pbegin` starts MPI and `tcg_pend` ends the process.
#[test]
fn pvm_tcgmsg_and_ga_in_a_tcgmsg_program_ending_with_pend() {
    run_one_backend(2, "pend");
}
