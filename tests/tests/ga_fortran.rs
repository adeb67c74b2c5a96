//! The Global Arrays Fortran API: the project's Fortran programs
//! (`tests/programs/ga_fortran/`) built with `mpifort -fdefault-integer-8`
//! (and `-fno-aggressive-loop-optimizations`, for loops over the MA base
//! arrays) against the installed `global.fh`/`mafdecls.fh` and `-lga`, run under
//! `mpiexec` with 1 to 4 compute ranks beside one `ga-server`. Each
//! program checks its results against serial Fortran arrays and prints
//! `<name>: N checks passed, 0 failed` on rank 0; a failed check ends
//! the job through `ga_error`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;
use tests::mpirun::{mpiexec_beside_server, stage, workspace_root, Run};

const LIMIT: Duration = Duration::from_secs(120);

/// Programs are compiled once per test binary, one at a time.
static BUILD: Mutex<()> = Mutex::new(());

/// Compiles `tests/programs/ga_fortran/<name>.f90` (or `.F`) into
/// `target/test-programs/ga_fortran/<name>`.
fn program(name: &str) -> PathBuf {
    let _one = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let dir = workspace_root().join("tests/programs/ga_fortran");
    let src = ["f90", "F"]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no source for {name} in {}", dir.display()));
    let out = workspace_root().join("target/test-programs/ga_fortran");
    std::fs::create_dir_all(&out).expect("create target/test-programs/ga_fortran");
    let exe = out.join(name);
    // Another test may be running the program: build beside it and rename
    // into place (the running program keeps its old file).
    let tmp = out.join(format!(".{name}.{}", std::process::id()));
    let mut cmd = Command::new("mpifort");
    cmd.args([
        "-O2",
        "-fdefault-integer-8",
        "-fallow-argument-mismatch",
        "-w",
    ])
    // The MA base arrays are declared with 2 elements and indexed far
    // beyond: without this gfortran bounds loops over them by the
    // declared size (GA codes such as NWChem build with it too).
    .arg("-fno-aggressive-loop-optimizations")
    .arg(format!("-I{}", stage().join("include").display()))
    .arg(format!("-I{}", dir.display()))
    .arg(&src);
    tests::native::link_to_stage(&mut cmd, &tmp, &["ga"]);
    tests::mpirun::output_ok(&mut cmd, &format!("compiling {}", src.display()));
    std::fs::rename(&tmp, &exe).expect("move the program into place");
    exe
}

/// The data server: the installed one, else the workspace build.
fn server() -> PathBuf {
    let installed = stage().join("bin/ga-server");
    if installed.is_file() {
        return installed;
    }
    let built = workspace_root().join("target/release/ga-server");
    assert!(
        built.is_file(),
        "no ga-server at {} or {}",
        installed.display(),
        built.display()
    );
    built
}

/// `mpiexec -n <n> exe args : -n 1 ga-server` with a hard timeout.
fn run(exe: &Path, n: u32, args: &[&str]) -> Run {
    run_env(exe, n, args, &[])
}

/// As [`run`] with extra environment variables for every rank.
fn run_env(exe: &Path, n: u32, args: &[&str], env: &[(&str, &str)]) -> Run {
    mpiexec_beside_server(&server(), n, exe, args, env, LIMIT)
}

/// Runs program `name` on each rank count and checks its summary line.
fn passes(name: &str, ranks: &[u32]) {
    checked_output(name, ranks);
}

/// As [`passes`]; returns the last run's standard output.
fn checked_output(name: &str, ranks: &[u32]) -> String {
    let exe = program(name);
    let mut last = String::new();
    for &n in ranks {
        let what = format!("{name} on {n} compute rank(s)");
        let r = run(&exe, n, &[]);
        r.assert_ok(&what);
        let line = r.stdout_line(&format!("{name}: "), &what);
        assert!(
            line.ends_with(" checks passed, 0 failed") && !line.contains(": 0 checks"),
            "{what}: {line}\n{}",
            r.stdout
        );
        assert!(!r.stdout.contains("FAILED"), "{what}:\n{}", r.stdout);
        last = r.stdout;
    }
    last
}

#[test]
fn ga_fortran_basic() {
    passes("basic", &[1, 2, 4]);
}

/// drand, the ga_cluster_* queries, the memory limit and figures,
/// ga_print_stats and the GA/MA access index types, as GA's own test
/// programs use them.
#[test]
fn ga_fortran_test_helpers_cluster_and_memory_queries() {
    let out = checked_output("misc", &[1, 2, 4]);
    // Every rank ran every check (4 ranks, the last run).
    assert!(out.contains("misc: 104 checks passed, 0 failed"), "{out}");
}

#[test]
fn ga_fortran_access_into_ma_base_arrays() {
    passes("access", &[1, 3]);
}

#[test]
fn ga_fortran_irregular_distributions() {
    passes("irreg", &[1, 3, 4]);
}

#[test]
fn ga_fortran_read_inc_counter_and_atomic_acc() {
    passes("counter", &[2, 4]);
}

#[test]
fn ga_fortran_ndim_fixed_form() {
    let out = checked_output("ndim", &[1, 2, 4]);
    // ga_print shows the 2-D array in Fortran terms, once (rank 0).
    assert_eq!(
        out.matches("global array: ndim[1:13,1:11]").count(),
        1,
        "ga_print output:\n{out}"
    );
    // ga_print_distribution (last run: 4 ranks) in Fortran terms: the
    // dimensions in Fortran order and 1-based sections, one per rank.
    assert!(out.contains("Array Dimensions:13x11"), "{out}");
    let sections: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("owns array section: ["))
        .collect();
    assert_eq!(sections.len(), 4, "{out}");
    assert!(
        sections.iter().any(|l| l.contains("13,")) && sections.iter().all(|l| !l.contains("[0:")),
        "sections not 1-based:\n{out}"
    );
}

#[test]
fn ga_fortran_array_and_patch_operations() {
    passes("ops", &[1, 3]);
}

#[test]
fn ga_fortran_locks() {
    passes("locks", &[3, 4]);
}

/// The same programs with every operation forced through the data
/// server, as if each owner were on another node.
#[test]
fn ga_fortran_through_the_server() {
    for name in ["basic", "access", "counter"] {
        let exe = program(name);
        let what = format!("{name} with MPBRIDGE_GA_REMOTE=1 on 2 compute ranks");
        let r = run_env(&exe, 2, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
        r.assert_ok(&what);
        assert!(
            r.stdout.contains(&format!("{name}: ")) && r.stdout.contains(" passed, 0 failed"),
            "{what}:\n{}",
            r.stdout
        );
    }
}

/// Bad input ends the job (non-zero exit) with a message naming the call
/// and what was wrong, in the program's own 1-based terms.
#[test]
fn ga_fortran_bad_input_aborts_with_the_call_and_patch() {
    let exe = program("errors");
    let cases: [(&str, u32, &[&str]); 5] = [
        (
            "patch",
            2,
            &["nga_put", "patch [1:10,3:20] outside g_a 'A' [1:10,1:10]"],
        ),
        ("ld", 1, &["ga_get", "ld(1) = 5", "[1:8,1:2]"]),
        ("handle", 1, &["ga_get", "invalid array handle"]),
        (
            "access",
            2,
            &["ga_access", "not inside this process's block"],
        ),
        ("type", 1, &["nga_read_inc", "not integers"]),
    ];
    for (case, n, expect) in cases {
        let r = run(&exe, n, &[case]);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            !r.timed_out && r.code != Some(0),
            "{case}: the job should fail: exit {:?}\n{all}",
            r.code
        );
        assert!(
            !all.contains("the bad call returned"),
            "{case}: the call returned\n{all}"
        );
        for e in expect {
            assert!(all.contains(e), "{case}: no '{e}' in the output\n{all}");
        }
    }
}

/// The defined text symbols of a library or archive, by `nm`.
fn defined_symbols(path: &Path, dynamic: bool) -> BTreeSet<String> {
    tests::native::defined_symbols(path, dynamic, true)
}

/// Every routine `global.fh`, `ga-mpi.fh` and `mafdecls.fh` declare is
/// exported under its gfortran name, and every GA/MA Fortran name we
/// export is a real one: Debian's GA 5.8 (`libga-openmpi.a`) defines it.
#[test]
fn ga_fortran_names_match_the_headers_and_debian_ga() {
    let ours = defined_symbols(&stage().join("lib/libmpbridge.so"), true);
    let fortran: BTreeSet<String> = ours
        .iter()
        .filter(|s| {
            (s.starts_with("ga_") || s.starts_with("nga_") || s.starts_with("ma_"))
                && s.ends_with('_')
        })
        .cloned()
        .collect();
    assert!(fortran.len() > 100, "too few Fortran names: {fortran:?}");
    for header in ["global.fh", "ga-mpi.fh", "mafdecls.fh"] {
        let text = std::fs::read_to_string(stage().join("include").join(header))
            .unwrap_or_else(|e| panic!("{header}: {e}"));
        let declared: Vec<String> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("external "))
            .flat_map(|names| names.split(','))
            .map(|n| format!("{}_", n.trim().to_lowercase()))
            .collect();
        assert!(!declared.is_empty(), "{header} declares no routine");
        for name in &declared {
            assert!(
                fortran.contains(name),
                "{header} declares {name}, which libmpbridge does not export"
            );
        }
    }
    let debian = Path::new("/usr/lib/x86_64-linux-gnu/libga-openmpi.a");
    assert!(
        debian.is_file(),
        "Debian's GA is not installed (libglobalarrays-dev)"
    );
    let real = defined_symbols(debian, false);
    let unknown: Vec<&String> = fortran.iter().filter(|s| !real.contains(*s)).collect();
    assert!(
        unknown.is_empty(),
        "not GA Fortran routine names: {unknown:?}"
    );
}
