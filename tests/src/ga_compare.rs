//! Running one GA test program twice: built against our installed GA
//! (`-lga`, beside a `ga-server`) and against Debian's GA 5.8
//! (`libga-openmpi.a` on ARMCI-MPI, plain `mpiexec`), so a test can compare
//! what the two print for the same source. C sources are built with
//! `mpicc`, Fortran ones (`.F90`, preprocessed) with `mpifort
//! -fdefault-integer-8`, as Debian builds GA's Fortran interface.

use crate::mpirun::{ga_server, mpiexec_beside_server, mpiexec_env, output_ok, stage, Run};
use crate::native::{link_to_stage, program_paths};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const DEBIAN_LIB: &str = "/usr/lib/x86_64-linux-gnu";

/// Which GA a program is linked with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ga {
    Ours,
    Debian,
}

fn is_fortran(source: &str) -> bool {
    source.ends_with(".F90") || source.ends_with(".f90") || source.ends_with(".F")
}

/// Compiles `tests/programs/<source>` against `ga`; returns the executable.
pub fn build(source: &str, ga: Ga) -> PathBuf {
    build_linked(source, ga, &[])
}

/// [`build`], also linking `libs` (e.g. `lapack` for a program that
/// computes a serial reference; Debian's build links it already).
pub fn build_linked(source: &str, ga: Ga, libs: &[&str]) -> PathBuf {
    let (src, dir, stem) = program_paths(source, "target/test-programs/ga_compare");
    let suffix = if ga == Ga::Ours { "ours" } else { "debian" };
    let exe = dir.join(format!("{stem}-{suffix}"));
    static N: AtomicUsize = AtomicUsize::new(0);
    let tmp = dir.join(format!(
        ".{stem}-{suffix}.{}.{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let fortran = is_fortran(source);
    let mut cmd = Command::new(if fortran { "mpifort" } else { "mpicc" });
    if fortran {
        cmd.args([
            "-cpp",
            "-O1",
            "-fdefault-integer-8",
            "-fallow-argument-mismatch",
            "-w",
        ]);
        cmd.arg("-fno-aggressive-loop-optimizations");
    } else {
        cmd.args(["-Wall", "-Wextra", "-Werror", "-std=c11", "-O1"]);
    }
    if let Some(d) = src.parent() {
        cmd.arg(format!("-I{}", d.display()));
    }
    let lib = Path::new(DEBIAN_LIB);
    match ga {
        Ga::Ours => {
            cmd.arg(format!("-I{}", stage().join("include").display()))
                .arg(&src);
            let mut all = vec!["ga"];
            all.extend_from_slice(libs);
            link_to_stage(&mut cmd, &tmp, &all);
        }
        Ga::Debian => {
            let ga = lib.join("libga-openmpi.a");
            assert!(
                ga.is_file(),
                "Debian's GA is not installed (libglobalarrays-dev)"
            );
            cmd.arg("-I/usr/include")
                .arg(&src)
                .arg("-o")
                .arg(&tmp)
                .arg(&ga)
                .arg(lib.join("libarmci-openmpi.a"))
                .args([
                    "-lscalapack-openmpi",
                    "-llapack",
                    "-lblas",
                    "-lgfortran",
                    "-lm",
                ]);
        }
    }
    output_ok(&mut cmd, &format!("building {source} against {ga:?} GA"));
    std::fs::rename(&tmp, &exe).expect("move the program into place");
    exe
}

/// Runs a program built by [`build`] on `np` compute ranks: ours beside one
/// `ga-server`, Debian's alone. `env` is set for every rank.
pub fn run(exe: &Path, ga: Ga, np: u32, args: &[&str], env: &[(&str, &str)]) -> Run {
    let limit = Duration::from_secs(120);
    match ga {
        Ga::Ours => mpiexec_beside_server(&ga_server(), np, exe, args, env, limit),
        Ga::Debian => mpiexec_env(np, exe, args, env, limit),
    }
}

/// The program's tally line (`NAME: N passed, 0 failed` from C programs,
/// `NAME: N checks passed, 0 failed` from Fortran ones) shows no failure
/// and at least `min` checks.
pub fn assert_tally(r: &Run, name: &str, what: &str, min: u32) {
    r.assert_ok(what);
    let line = r.stdout_line(&format!("{name}: "), what);
    assert!(line.ends_with(", 0 failed"), "{what}: {line}\n{}", r.stderr);
    let n: u32 = line[name.len() + 2..]
        .split(' ')
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    assert!(n >= min, "{what}: only {n} checks ran ({line})");
}

/// Runs ours (`exe`) on `np` compute ranks with every operation through
/// the data server (`MPBRIDGE_GA_REMOTE=1`), asserts its tally (at least
/// `min` checks) and returns the run.
pub fn through_server(exe: &Path, name: &str, np: u32, min: u32) -> Run {
    let r = run(exe, Ga::Ours, np, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
    let what = format!("{name} through the server on {np} ranks");
    assert_tally(&r, name, &what, min);
    r
}

/// Runs `source` against Debian's GA and ours on each of `ranks` compute
/// ranks, then ours once more on `remote` ranks with every operation
/// through the data server (`MPBRIDGE_GA_REMOTE=1`): both pass their own
/// checks (at least `min`) and print the same standard output.
pub fn same_as_debian(source: &str, name: &str, min: u32, ranks: &[u32], remote: u32) {
    same_as_debian_with(source, name, |_| min, ranks, remote, &[]);
}

/// [`same_as_debian`] with the least number of checks as a function of
/// the rank count, and `debian_env` for Debian's runs only (for example
/// an Open MPI component that Debian's GA needs).
pub fn same_as_debian_with(
    source: &str,
    name: &str,
    min: impl Fn(u32) -> u32,
    ranks: &[u32],
    remote: u32,
    debian_env: &[(&str, &str)],
) {
    let ours = build(source, Ga::Ours);
    let theirs = build(source, Ga::Debian);
    for &np in ranks {
        let want = run(&theirs, Ga::Debian, np, &[], debian_env);
        assert_tally(
            &want,
            name,
            &format!("{name} with Debian's GA on {np} ranks"),
            min(np),
        );
        let got = run(&ours, Ga::Ours, np, &[], &[]);
        assert_tally(&got, name, &format!("{name} on {np} ranks"), min(np));
        assert_eq!(
            got.stdout, want.stdout,
            "{name} on {np} ranks differs from Debian's GA"
        );
    }
    let want = run(&theirs, Ga::Debian, remote, &[], debian_env);
    let got = through_server(&ours, name, remote, min(remote));
    assert_eq!(
        got.stdout, want.stdout,
        "{name} through the server on {remote} ranks differs from Debian's GA"
    );
}

/// The step lines of a run's output: every line but the tally line
/// (`NAME: ...`).
pub fn step_lines<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    out.lines().filter(|l| !l.starts_with(name)).collect()
}

/// Builds `source` against ours (also linking `libs`) and runs it on 1, 2
/// and 4 compute ranks (at least `full` checks a rank), then on 4 ranks
/// with every operation through the server (`MPBRIDGE_GA_REMOTE=1`),
/// which must print what the shared-memory path prints. Returns the
/// program.
pub fn ours_everywhere(source: &str, name: &str, full: u32, libs: &[&str]) -> PathBuf {
    let ours = build_linked(source, Ga::Ours, libs);
    let mut on_four = None;
    for np in [1, 2, 4] {
        let r = run(&ours, Ga::Ours, np, &[], &[]);
        assert_tally(&r, name, &format!("{name} on {np} ranks"), full * np);
        if np == 4 {
            on_four = Some(r);
        }
    }
    let local = on_four.expect("the run on 4 ranks");
    let remote = through_server(&ours, name, 4, full * 4);
    assert_eq!(
        remote.stdout, local.stdout,
        "{name} through the server differs from the shared-memory path"
    );
    ours
}

/// Runs `source` with the argument `debian` (which leaves out what
/// Debian's GA gets wrong) against Debian's GA and as `ours` on each of
/// `ranks`: both pass (at least `subset` checks a rank) and print the
/// same.
pub fn same_as_debian_subset(ours: &Path, source: &str, name: &str, subset: u32, ranks: &[u32]) {
    let theirs = build(source, Ga::Debian);
    for &np in ranks {
        let want = run(&theirs, Ga::Debian, np, &["debian"], &[]);
        let what = format!("{name} with Debian's GA on {np} ranks");
        assert_tally(&want, name, &what, subset * np);
        let got = run(ours, Ga::Ours, np, &["debian"], &[]);
        let what = format!("{name} (Debian's subset) on {np} ranks");
        assert_tally(&got, name, &what, subset * np);
        assert_eq!(
            got.stdout, want.stdout,
            "{name} on {np} ranks differs from Debian's GA"
        );
    }
}

/// One bad call a test program makes on request: the program's argument
/// that asks for it, the call its error message must name, and a phrase
/// the message must hold. Tables of them are written with [`bad_calls!`].
#[derive(Clone, Copy, Debug)]
pub struct BadCall {
    pub arg: &'static str,
    pub call: &'static str,
    pub says: &'static str,
}

/// A table of [`BadCall`]s, one `"arg" => Call_name says "phrase"` a row.
#[macro_export]
macro_rules! bad_calls {
    ($($arg:literal => $call:ident says $says:literal),* $(,)?) => {
        &[$($crate::ga_compare::BadCall {
            arg: $arg,
            call: stringify!($call),
            says: $says,
        }),*]
    };
}

/// Runs ours (`exe`) on 2 compute ranks once per case, with `lead` and
/// the case's argument as the arguments: each run must end the job
/// promptly with an error whose output names the case's call and says
/// its phrase, and must not print "returned" (what the programs print
/// after a bad call that came back).
pub fn bad_calls_end_the_job(exe: &Path, lead: &[&str], cases: &[BadCall]) {
    for &BadCall { arg, call, says } in cases {
        let mut args = lead.to_vec();
        args.push(arg);
        let r = run(exe, Ga::Ours, 2, &args, &[]);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            !r.timed_out && r.code != Some(0),
            "bad {arg}: the job did not end with an error\n{all}"
        );
        assert!(
            all.contains(call) && all.contains(says),
            "bad {arg}: no message naming {call} ({says})\n{all}"
        );
        assert!(
            !r.stdout.contains("returned"),
            "bad {arg}: the call returned\n{all}"
        );
    }
}

/// [`bad_calls_end_the_job`] for `source` built against ours (also
/// linking `libs`), with `bad` before each case's argument.
pub fn assert_bad_calls(source: &str, libs: &[&str], cases: &[BadCall]) {
    let ours = build_linked(source, Ga::Ours, libs);
    bad_calls_end_the_job(&ours, &["bad"], cases);
}

/// For a program that checks itself against its own model: runs it on
/// ours (also linking `libs`) everywhere ([`ours_everywhere`], at least
/// `full` checks a rank), then Debian's subset against Debian's GA on each
/// of `debian_ranks` ([`same_as_debian_subset`], at least `subset` checks
/// a rank).
pub fn model_then_debian_subset(
    source: &str,
    name: &str,
    (full, subset): (u32, u32),
    debian_ranks: &[u32],
    libs: &[&str],
) {
    let ours = ours_everywhere(source, name, full, libs);
    same_as_debian_subset(&ours, source, name, subset, debian_ranks);
}

/// Runs ours (`source`, tally line `name`) with the arguments `args` on
/// 1, 2 and 4 compute ranks; each run passes its checks (at least
/// `min(np)` on `np` ranks). Returns the runs, fewest ranks first.
pub fn ours_with_args(
    source: &str,
    name: &str,
    args: &[&str],
    min: impl Fn(u32) -> u32,
) -> Vec<Run> {
    let ours = build(source, Ga::Ours);
    let mut runs = Vec::new();
    for np in [1, 2, 4] {
        let r = run(&ours, Ga::Ours, np, args, &[]);
        let what = format!("{name} {} on {np} ranks", args.join(" "));
        assert_tally(&r, name, &what, min(np));
        runs.push(r);
    }
    runs
}

/// The name a test program's tally line starts with: its file name
/// without the folder and the ending (`ga_fortran/props.F90`: `props`).
pub fn tally_name(source: &str) -> &str {
    let file = source.rsplit('/').next().unwrap_or(source);
    file.split('.').next().unwrap_or(file)
}

/// A test for a C program and one for its Fortran twin. Each calls
/// `check` with its program's source, tally name ([`tally_name`]) and
/// least check count (or counts), then the arguments the two share:
///
/// ```ignore
/// tests::twin_tests! {
///     same_as_debian(.., &[1, 2, 4], 4);
///     c_test("ga/a.c", 12)
///     fortran_test("ga_fortran/a.F90", 13)
/// }
/// ```
#[macro_export]
macro_rules! twin_tests {
    (@call $check:ident, $source:literal, $min:expr, (.. $(, $shared:expr)*)) => {
        $check($source, $crate::ga_compare::tally_name($source), $min $(, $shared)*)
    };
    ($check:ident $shared:tt; $($test:ident($source:literal, $min:expr))+) => {
        $(
            #[test]
            fn $test() {
                $crate::twin_tests!(@call $check, $source, $min, $shared);
            }
        )+
    };
}

/// Builds ARMCI program `source` against Debian and against ours and runs
/// both on 1, 2 and 4 compute ranks, and on 3 (ours with every operation
/// through the server, `MPBRIDGE_GA_REMOTE=1`): both tallies hold (at
/// least `min_theirs` and `min_ours` checks a rank) and ours prints
/// Debian's `steps` lines. Returns ours.
pub fn armci_like_debian(
    source: &str,
    name: &str,
    (min_theirs, min_ours): (u32, u32),
    steps: usize,
) -> PathBuf {
    let (ours, theirs) = (build(source, Ga::Ours), build(source, Ga::Debian));
    for (np, remote) in [(1, "0"), (2, "0"), (4, "0"), (3, "1")] {
        let want = run(&theirs, Ga::Debian, np, &[], &[]);
        let what = format!("{name} with Debian's ARMCI on {np} ranks");
        assert_tally(&want, name, &what, min_theirs * np);
        let got = run(&ours, Ga::Ours, np, &[], &[("MPBRIDGE_GA_REMOTE", remote)]);
        let what = format!("{name} on {np} ranks (remote {remote})");
        assert_tally(&got, name, &what, min_ours * np);
        assert_eq!(
            step_lines(&got.stdout, name),
            step_lines(&want.stdout, name),
            "{name} on {np} ranks differs from Debian's ARMCI"
        );
        assert_eq!(step_lines(&got.stdout, name).len(), steps, "{}", got.stdout);
    }
    ours
}

/// Runs ours (`exe`, an ARMCI program) with argument `arg` on 2 compute
/// ranks, on shared memory and with every operation through the server:
/// each run ends (no hang, no crash) with ARMCI's error naming `call` and
/// `what`, and the bad call never returns (the program prints "bad call
/// returned" after it).
pub fn assert_armci_error(exe: &Path, arg: &str, call: &str, what: &str) {
    for remote in ["0", "1"] {
        let r = run(exe, Ga::Ours, 2, &[arg], &[("MPBRIDGE_GA_REMOTE", remote)]);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(r.code != Some(0), "{arg}: the job did not fail\n{all}");
        assert!(!r.timed_out, "{arg}: the job hung\n{all}");
        assert!(
            all.contains("ARMCI Error") && all.contains(call) && all.contains(what),
            "{arg}: no message naming {call} and '{what}'\n{all}"
        );
        assert!(
            !all.contains("bad call returned"),
            "{arg}: the call returned\n{all}"
        );
    }
}
