//! The PVM Fortran API (`libfpvm3`, gfortran conventions): Fortran programs
//! built with `mpifort` against the installed `fpvm3.h` and libraries and
//! run under `mpiexec`; Debian's example Fortran sources rebuilt the same
//! way; and the exported symbol set compared with Debian's `libfpvm3.a`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{lines_where, mpi_env, run_with_timeout, stage, workspace_root, Run};
use tests::tally::expect_output;

const LIMIT: Duration = Duration::from_secs(90);

/// Where the programs of this file are built.
fn out_dir() -> PathBuf {
    let d = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&d).expect("create target/test-programs");
    d
}

/// How a Fortran source is compiled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// This project's own programs, which pass arrays of several types to
    /// `pvmfpack` as legacy PVM codes do: `-fallow-argument-mismatch`
    /// (gfortran >= 10 rejects them without it).
    Mismatched,
    /// Code written for the compilers of its day, which kept local variables
    /// in static storage set to zero: also `-fno-automatic
    /// -finit-local-zero`, so a local the code never initialises (frsg's
    /// `PSum`) starts at 0 on every machine, not with stack garbage.
    Legacy,
}

/// Compiles Fortran `sources` into `exe` with `mpifort` against the
/// installed tree, in `dialect`.
fn fortran(sources: &[&Path], exe: &Path, include: &Path, dialect: Dialect) -> PathBuf {
    let mut cmd = Command::new("mpifort");
    cmd.arg("-O1").arg(format!("-I{}", include.display()));
    cmd.args(["-fallow-argument-mismatch", "-w"]);
    if dialect == Dialect::Legacy {
        cmd.args(["-fno-automatic", "-finit-local-zero"]);
    }
    cmd.args(sources);
    tests::native::link_to_stage(&mut cmd, exe, &["fpvm3", "gpvm3", "pvm3"]);
    tests::mpirun::output_ok(&mut cmd, &format!("compiling {sources:?}"));
    exe.to_path_buf()
}

/// One of this project's test programs, built with mismatched arguments
/// allowed.
fn legacy_program(source: &str) -> PathBuf {
    let src = workspace_root().join("tests/programs").join(source);
    let stem = Path::new(source).file_stem().expect("file name");
    fortran(
        &[&src],
        &out_dir().join(stem),
        &stage().join("include"),
        Dialect::Mismatched,
    )
}

/// `mpiexec -n N prog args` with `dir` first on `PATH` (spawn by name
/// finds the children there).
fn mpiexec_with_path(n: u32, prog: &Path, args: &[&str], dir: &Path) -> Run {
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "PATH", "-n", &n.to_string()])
        .arg(prog)
        .args(args)
        .env(
            "PATH",
            format!(
                "{}:{}",
                dir.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        );
    mpi_env(&mut cmd);
    run_with_timeout(cmd, LIMIT)
}

/// Every line `<who>...: N passed, M failed`: asserts there are `lines` of
/// them, all with M = 0 and N >= `min_passed`.
fn tallies(r: &Run, who: &str, lines: usize, min_passed: usize) {
    let all = format!("--- stdout\n{}\n--- stderr\n{}", r.stdout, r.stderr);
    assert!(!r.timed_out, "{who} hung:\n{all}");
    let found = lines_where(&r.stdout, |l| l.starts_with(who) && l.ends_with(" failed"));
    assert_eq!(found.len(), lines, "{who}: tally lines\n{all}");
    for l in found {
        let words: Vec<&str> = l.split_whitespace().collect();
        let n = words.len();
        let passed: usize = words[n - 4].parse().expect("passed count");
        let failed: usize = words[n - 2].parse().expect("failed count");
        assert_eq!(failed, 0, "{who}: {l}\n{all}");
        assert!(passed >= min_passed, "{who}: too few checks in {l}\n{all}");
    }
    assert_eq!(r.code, Some(0), "{who}: exit status\n{all}");
}

#[test]
fn basic_api_on_one_three_and_four_ranks() {
    // Only INTEGER data goes through the untyped arguments, so the program
    // compiles without -fallow-argument-mismatch.
    let exe = tests::native::build("pvmf_basic.f90", &["fpvm3", "pvm3"]);
    for n in [1u32, 4] {
        let r = tests::mpirun::mpiexec(n, &exe, &[&n.to_string()], LIMIT);
        tallies(&r, "pvmf_basic rank", n as usize, 90);
    }
    let r = tests::mpirun::mpiexec(3, &exe, &["3"], LIMIT);
    tallies(&r, "pvmf_basic rank", 3, 90);
    // pvmfperror prints the message and the last error's text.
    assert_eq!(
        r.stderr
            .matches("fortran perror check: Bad parameter")
            .count(),
        3,
        "{}",
        r.stderr
    );
    // With PvmAutoErr 1, errors are printed: one found by the C layer, one
    // by the Fortran layer (under the Fortran routine's name).
    r.assert_stderr_has("pvm_send(): Bad parameter");
    r.assert_stderr_has("pvmfpack(): Bad parameter");
}

/// Runs the Fortran test program `src` on `np` ranks: every process
/// prints a tally starting with `prefix`, with at least `checks` checks and
/// none failed, and PvmAutoErr being 0 around its expected failures, no
/// error line is printed.
fn quiet_run(src: &str, np: u32, prefix: &str, checks: usize) {
    let exe = legacy_program(src);
    let r = tests::mpirun::mpiexec(np, &exe, &[], LIMIT);
    tallies(&r, prefix, np as usize, checks);
    assert!(!r.stderr.contains("libpvm ["), "{}", r.stderr);
}

#[test]
fn pack_and_unpack_every_data_type() {
    quiet_run("pvmf_pack.f90", 2, "pvmf_pack rank", 110);
}

#[test]
fn group_routines_on_four_ranks() {
    quiet_run("pvmf_groups.f90", 4, "pvmf_groups inst", 35);
}

#[test]
fn mailbox_handlers_signals_tasks_and_hosts_on_two_ranks() {
    quiet_run("pvmf_extra.f90", 2, "pvmf_extra rank", 50);
}

#[test]
fn spawn_a_fortran_program_by_name() {
    tests::native::build("pvmf_child.f", &["fpvm3", "pvm3"]);
    let exe = tests::native::build("pvmf_spawn.f90", &["fpvm3", "pvm3"]);
    let r = mpiexec_with_path(1, &exe, &[], &out_dir());
    tallies(&r, "pvmf_spawn parent", 1, 38);
    tallies(&r, "pvmf_child", 3, 8);
}

/// Debian's example Fortran sources (`pvm-examples`), extracted and built
/// against our `fpvm3.h` and libraries (they `include '../include/fpvm3.h'`).
/// Debian's prebuilt Fortran binaries link its own libfpvm3 statically, so
/// only a rebuild exercises our Fortran entry points. Each name is
/// `("examples/spmd.f", "fspmd")` or `("gexamples/frsg.f", "frsg")`.
fn debian_examples(names: &[(&str, &str)]) -> PathBuf {
    let root = out_dir().join("debian-fortran");
    let include = root.join("include");
    let bin = root.join("bin");
    // Tests run side by side: set the shared directories up once.
    static SETUP: std::sync::Once = std::sync::Once::new();
    SETUP.call_once(|| {
        std::fs::create_dir_all(&include).expect("create include dir");
        std::fs::copy(stage().join("include/fpvm3.h"), include.join("fpvm3.h"))
            .expect("copy fpvm3.h");
        std::fs::create_dir_all(&bin).expect("create bin dir");
    });
    for (member, exe) in names {
        let dir = member.split('/').next().expect("tarball directory");
        let tarball = PathBuf::from(format!("/usr/share/doc/pvm-examples/{dir}.tar.gz"));
        assert!(
            tarball.is_file(),
            "{} missing: apt-get install pvm-examples",
            tarball.display()
        );
        let st = Command::new("tar")
            .arg("xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&root)
            .arg(member)
            .status()
            .expect("tar");
        assert!(st.success(), "extracting {member}");
        fortran(
            &[&root.join(member)],
            &bin.join(exe),
            &include,
            Dialect::Legacy,
        );
    }
    bin
}

/// Builds Debian's example `programs` and runs the first one on `n`
/// ranks, with the others on its `PATH` for it to spawn.
fn run_debian(n: u32, programs: &[(&str, &str)]) -> Run {
    let bin = debian_examples(programs);
    mpiexec_with_path(n, &bin.join(programs[0].1), &[], &bin)
}

/// The run ended in time, printed each of `needles` on its standard
/// output and no PVM error on its standard error.
fn ran_clean(r: &Run, needles: &[&str]) {
    assert!(!r.timed_out, "{}", r.report("timed out"));
    for n in needles {
        r.assert_stdout_has(n);
    }
    r.assert_stderr_lacks("libpvm [", "a PVM error");
}

#[test]
fn debian_fspmd_rebuilt_against_our_fortran_api() {
    let r = run_debian(4, &[("examples/spmd.f", "fspmd")]);
    expect_output(&r, "fspmd", "token ring done", 1);
}

#[test]
fn debian_fmaster1_rebuilt_spawns_fslave1() {
    let r = run_debian(
        1,
        &[
            ("examples/master1.f", "fmaster1"),
            ("examples/slave1.f", "fslave1"),
        ],
    );
    expect_output(&r, "fmaster1", "SUCCESSFUL", 1);
    // " I got     200.0000000 from   0 (expected     200.0000000 )"
    tests::tally::master1_answers_right(&r, 3);
}

#[test]
fn debian_hitc_rebuilt_farms_out_work() {
    let r = run_debian(
        1,
        &[
            ("examples/hitc.f", "fhitc"),
            ("examples/hitc_slave.f", "hitc_slave"),
        ],
    );
    ran_clean(&r, &["Program Finished", "received no-more-work flag"]);
}

#[test]
fn debian_fgexample_rebuilt_reduces_over_a_group() {
    let bin = debian_examples(&[("examples/gexample.f", "fgexample")]);
    // Four ranks started together, and one rank that spawns its partner.
    for n in [4u32, 1] {
        let r = mpiexec_with_path(n, &bin.join("fgexample"), &[], &bin);
        ran_clean(
            &r,
            &[
                "The 1-Norm is         5050",
                "The product of column 1 is   9.33262154439441",
            ],
        );
    }
}

#[test]
fn debian_frsg_rebuilt_reduces_scatters_and_gathers() {
    let bin = debian_examples(&[("gexamples/frsg.f", "frsg")]);
    // frsg asks for the number of tasks and the row length on stdin, then
    // spawns the other tasks (frsg, found on PATH).
    let r = tests::mpirun::mpiexec_one_reading(&bin.join("frsg"), "3\n5\n", &bin, &[], LIMIT);
    ran_clean(
        &r,
        &[
            "INPUT values: nprocs =            3",
            "Test OK: Sum of Squares of first           15  integers is         1240",
            "Test Ok: Received (   5.0000",
        ],
    );
    assert!(!r.stdout.contains("ERROR"), "{}", r.report("frsg"));
}

fn defined_symbols(file: &Path, dynamic: bool) -> BTreeSet<String> {
    tests::native::defined_symbols(file, dynamic, true)
}

#[test]
fn exports_the_fortran_symbols_of_debian_libfpvm3() {
    let debian = Path::new("/usr/lib/x86_64-linux-gnu/libfpvm3.a");
    assert!(
        debian.is_file(),
        "{} missing: apt-get install pvm-dev",
        debian.display()
    );
    let want: BTreeSet<String> = defined_symbols(debian, false)
        .into_iter()
        .filter(|s| s.ends_with('_'))
        .collect();
    assert!(want.len() > 60, "Debian's symbol list: {want:?}");
    let have = defined_symbols(&stage().join("lib/libmpbridge.so"), true);
    let missing: Vec<&String> = want.iter().filter(|s| !have.contains(*s)).collect();
    assert!(missing.is_empty(), "not exported: {missing:?}");
}
