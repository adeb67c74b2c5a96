//! The Express layer: the project's C and Fortran programs
//! (`tests/programs/express/`), built against the installed `express.h`,
//! `express.fh` and `-lexpress`, run under `mpiexec` with a hard timeout.
//! Each program checks exact values itself and prints one tally per
//! process; the golden programs also print one "call NAME: ok" line per
//! call and process.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use tests::mpirun::{
    mpi_env, mpiexec, mpiexec_env, one_line_has, run_with_timeout, stage, workspace_root, Run,
};
use tests::native::{build, build_with, F77_STYLE};
use tests::tally;

const LIMIT: Duration = Duration::from_secs(120);

/// A C program, built once per test binary.
fn c_program(name: &'static str) -> PathBuf {
    static BUILT: OnceLock<std::sync::Mutex<Vec<(String, PathBuf)>>> = OnceLock::new();
    let m = BUILT.get_or_init(Default::default);
    let mut v = m.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = v.iter().find(|(n, _)| n == name) {
        return p.clone();
    }
    let p = build(&format!("express/{name}.c"), &["express"]);
    v.push((name.to_string(), p.clone()));
    p
}

/// A Fortran program, built as the compilers of its day did.
fn fortran_program(name: &str) -> PathBuf {
    build_with(&format!("express/{name}.f"), &["express"], F77_STYLE)
}

/// Asserts one "NAME WHO: P passed, 0 failed" line per process.
fn tallies_ok(r: &Run, name: &str, procs: usize) {
    tally::tallies_all_checked(r, &format!("{name} "), procs)
}

/// Asserts that every node reported every call in `calls` as ok.
fn calls_ok(r: &Run, name: &str, nodes: u32, calls: &[&str]) {
    for k in 0..nodes {
        for c in calls {
            let line = format!("{name} node {k} call {c}: ok");
            assert!(
                r.stdout.lines().any(|l| l == line),
                "missing `{line}`\n--- stdout\n{}\n--- stderr\n{}",
                r.stdout,
                r.stderr
            );
        }
    }
}

const C_CALLS: &[&str] = &[
    "exparam",
    "constants",
    "exread/exwrite",
    "extest",
    "exsend/exreceive/exmsgtest/exmsgwait",
    "exchange",
    "exvread/exvwrite",
    "exsync",
    "exbroadcast",
    "excombine",
    "exconcat",
    "exhandle",
    "exgrid",
];

const C_COLLECTIVES: &[&str] = &[
    "exparam",
    "constants",
    "exsync",
    "exbroadcast",
    "excombine",
    "exconcat",
];

const F_CALLS: &[&str] = &[
    "KXPARA",
    "KXREAD/KXWRIT",
    "KXTEST",
    "KXSEND/KXRECV/KXMTST/KXWAIT",
    "KXCHAN",
    "KXVREA/KXVWRI",
    "KXSYNC",
    "KXBROD",
    "KXCOMB",
    "KXCONC",
    "KXHAND",
    "KXGRID",
];

const F_COLLECTIVES: &[&str] = &["KXPARA", "KXSYNC", "KXBROD", "KXCOMB", "KXCONC"];

#[test]
fn c_golden_every_call_on_one_two_four_nodes() {
    let exe = c_program("ex_calls");
    for (n, r) in tally::passes_on(&exe, &[1, 2, 4], "ex_calls", LIMIT, tallies_ok) {
        calls_ok(&r, "ex_calls", n, C_CALLS);
    }
}

/// The collectives of program `name` on 8 nodes: every tally clean and
/// the `calls` each made.
fn collectives_on_eight(exe: &Path, name: &str, calls: &[&str]) {
    let r = mpiexec(8, exe, &["collectives"], LIMIT);
    r.assert_ok(&format!("{name} collectives"));
    tallies_ok(&r, name, 8);
    calls_ok(&r, name, 8, calls);
}

#[test]
fn c_golden_collectives_on_eight_nodes() {
    collectives_on_eight(&c_program("ex_calls"), "ex_calls", C_COLLECTIVES);
}

#[test]
fn fortran_golden_every_call_on_one_two_four_nodes() {
    let exe = fortran_program("ex_callsf");
    for (n, r) in tally::passes_on(&exe, &[1, 2, 4], "ex_callsf", LIMIT, tallies_ok) {
        calls_ok(&r, "ex_callsf", n, F_CALLS);
    }
    collectives_on_eight(&exe, "ex_callsf", F_COLLECTIVES);
}

#[test]
fn bad_input_gets_error_codes_not_crashes_or_hangs() {
    tally::passes_on(
        &c_program("ex_errors"),
        &[1, 2, 4],
        "ex_errors",
        LIMIT,
        tallies_ok,
    );
}

fn checksum(r: &Run, prefix: &str) -> String {
    r.stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| l.rsplit(' ').next())
        .unwrap_or_else(|| panic!("no checksum line:\n{}\n{}", r.stdout, r.stderr))
        .to_string()
}

#[test]
fn jacobi_on_a_grid_equals_the_serial_run_in_c_and_fortran() {
    let c = c_program("ex_jacobi");
    let f = fortran_program("ex_jacobif");
    let mut sums = Vec::new();
    for n in [1, 2, 4] {
        let r = mpiexec(n, &c, &[], LIMIT);
        r.assert_ok("ex_jacobi");
        tallies_ok(&r, "ex_jacobi", n as usize);
        sums.push(checksum(&r, "ex_jacobi grid"));
        let r = mpiexec(n, &f, &[], LIMIT);
        r.assert_ok("ex_jacobif");
        tallies_ok(&r, "ex_jacobif", n as usize);
        let fs: f64 = checksum(&r, "ex_jacobif grid").parse().expect("number");
        let cs: f64 = sums.last().expect("C sum").parse().expect("number");
        assert_eq!(fs.to_bits(), cs.to_bits(), "Fortran and C plates differ");
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
}

/// `mpiexec -n 1 exe : -n nodes exe args`.
fn host_and_nodes(exe: &Path, nodes: u32, args: &[&str]) -> Run {
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-n", "1"])
        .arg(exe)
        .args(args)
        .arg(":")
        .args(["-n", &nodes.to_string()])
        .arg(exe)
        .args(args);
    mpi_env(&mut cmd);
    run_with_timeout(cmd, LIMIT)
}

#[test]
fn host_node_farm_with_dontcare_receives() {
    let exe = c_program("ex_farm");
    for nodes in [1, 4] {
        let r = host_and_nodes(&exe, nodes, &["60"]);
        r.assert_ok("ex_farm");
        tallies_ok(&r, "ex_farm", nodes as usize + 1);
        assert!(
            r.stdout
                .contains(&format!("ex_farm host: 60 tasks over {nodes} nodes")),
            "{}",
            r.stdout
        );
        r.assert_stdout_has("ex_farm nodes did 60 tasks");
    }
}

#[test]
fn handler_fires_while_blocked_in_exread_on_another_type() {
    tally::passes_on(
        &c_program("ex_handler"),
        &[2, 4],
        "ex_handler",
        LIMIT,
        tallies_ok,
    );
}

#[test]
fn safe_rust_api_on_one_two_four_nodes() {
    let exe = Path::new(env!("CARGO_BIN_EXE_express_rust"));
    for n in [1, 2, 4] {
        let r = mpiexec(n, exe, &[], LIMIT);
        r.assert_ok("express_rust");
        tallies_ok(&r, "express_rust", n as usize);
    }
}

#[test]
fn headers_compile_in_c_cxx_and_both_fortran_forms() {
    let dir = workspace_root().join("target/test-programs/express_headers");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let inc = format!("-I{}", stage().join("include").display());
    let c = dir.join("twice.c");
    std::fs::write(
        &c,
        "#include <express.h>\n#include <express.h>\n\
         int main(void){struct nodenv e; return exparam(&e) == DONTCARE;}\n",
    )
    .expect("write");
    for (compiler, lang) in [("cc", "c"), ("c++", "c++")] {
        let st = Command::new(compiler)
            .args(["-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", lang])
            .arg(&inc)
            .arg(&c)
            .status()
            .expect("compiler");
        assert!(st.success(), "{compiler} rejects express.h");
    }
    let body = "      INCLUDE 'express.fh'\n      INTEGER ENV(4)\n      \
                IF (KXPARA(ENV) .NE. EXOK) STOP 1\n      END\n";
    for name in ["fixed.f", "free.f90"] {
        let f = dir.join(name);
        let src = format!("      PROGRAM T\n{body}");
        std::fs::write(&f, src).expect("write");
        let st = Command::new("gfortran")
            .args(["-fsyntax-only", "-Wall", "-Werror"])
            .arg(&inc)
            .arg(&f)
            .status()
            .expect("gfortran");
        assert!(st.success(), "gfortran rejects express.fh in {name}");
    }
}

#[test]
fn express_debug_logs_show_start_handlers_and_failed_calls_with_the_rank() {
    let exe = c_program("ex_calls");
    let r = mpiexec_env(2, &exe, &[], &[("MPBRIDGE_LOG", "express=debug")], LIMIT);
    r.assert_ok("ex_calls with MPBRIDGE_LOG=express=debug");
    tallies_ok(&r, "ex_calls", 2);
    for rank in 0..2 {
        let lines = r.log_lines(rank, "express");
        let has = |text: &str| lines.iter().any(|l| l.contains(text));
        assert!(
            has("Express started") && has("nprocs=2"),
            "rank {rank} logs its start:\n{}",
            r.stderr
        );
        assert!(
            has("exhandle: handler registered") && has("exhandle: handler removed"),
            "rank {rank} logs its handlers:\n{}",
            r.stderr
        );
        // ex_calls checks that exparam(NULL) gives EXNULLBUF (-4).
        assert!(
            one_line_has(&lines, &["call failed: exparam", "code=-4"]),
            "rank {rank} logs its failed calls:\n{}",
            r.stderr
        );
    }
    r.assert_stderr_lacks(" core: ", "core lines are filtered out");
}
