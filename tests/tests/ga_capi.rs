//! The Global Arrays C API (`ga.h`, `macdecls.h`, `ga-mpi.h`): the
//! project's own C programs, built against the installed headers and
//! `-lga`, run under `mpiexec` on 1 to 4 compute ranks beside one
//! `ga-server` data server, with a hard timeout.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;
use tests::mpirun::{mpi_env, run_with_timeout, stage, Run};

/// Builds a program once per test binary: tests running side by side must
/// not rewrite an executable another test is starting.
fn build(source: &str, libs: &[&str]) -> PathBuf {
    static BUILT: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    built
        .get_or_insert_with(HashMap::new)
        .entry(source.to_string())
        .or_insert_with(|| tests::native::build(source, libs))
        .clone()
}

/// `mpiexec -n np prog args : -n 1 ga-server`.
fn ga_run(np: u32, exe: &Path, args: &[&str]) -> Run {
    ga_run_env(np, exe, args, &[])
}

/// `ga_run` with environment variables set for every rank.
fn ga_run_env(np: u32, exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let server = stage().join("bin/ga-server");
    assert!(server.is_file(), "{} is not installed", server.display());
    let mut cmd = Command::new("mpiexec");
    for (k, v) in env {
        cmd.env(k, v).arg("-x").arg(k);
    }
    cmd.arg("-n")
        .arg(np.to_string())
        .arg(exe)
        .args(args)
        .arg(":")
        .arg("-n")
        .arg("1")
        .arg(&server);
    mpi_env(&mut cmd);
    run_with_timeout(cmd, Duration::from_secs(120))
}

/// The program's tally line says every check passed, and at least `min`
/// checks ran.
fn tally_ok(r: &Run, name: &str, np: u32, min: u32) {
    tests::ga_compare::assert_tally(r, name, &format!("{name} on {np} ranks"), min);
}

#[test]
fn put_get_acc_read_inc_scatter_locks_on_1_to_4_ranks() {
    let exe = build("ga/ga_basic.c", &["ga"]);
    for np in 1..=4 {
        let r = ga_run(np, &exe, &[]);
        tally_ok(&r, "ga_basic", np, 60);
    }
}

/// The same checks with every operation forced through the data server,
/// as if each owner were on another node.
#[test]
fn the_c_api_through_the_data_server_path() {
    let basic = build("ga/ga_basic.c", &["ga"]);
    let ops = build("ga/ga_ops.c", &["ga"]);
    for np in [2, 4] {
        let r = ga_run_env(np, &basic, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
        tally_ok(&r, "ga_basic", np, 60);
        let r = ga_run_env(np, &ops, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
        tally_ok(&r, "ga_ops", np, 25);
    }
}

#[test]
fn array_and_patch_operations_match_a_serial_reference() {
    let exe = build("ga/ga_ops.c", &["ga"]);
    for np in [1, 2, 3, 4] {
        let r = ga_run(np, &exe, &[]);
        tally_ok(&r, "ga_ops", np, 25);
    }
}

#[test]
fn testc_flow_symmetrize_transpose_and_accumulate_into_one_row() {
    let exe = build("ga/ga_testc.c", &["ga"]);
    for np in [2, 4] {
        let r = ga_run(np, &exe, &[]);
        tally_ok(&r, "ga_testc", np, 5);
    }
}

#[test]
fn print_shows_arrays_as_ga_does() {
    let exe = build("ga/ga_print.c", &["ga"]);
    let r = ga_run(2, &exe, &[]);
    r.assert_ok("ga_print");
    let out = &r.stdout;
    // The int array (C 3x4) shown in Fortran order: 4 rows, 3 columns.
    let ints = "\n global array: ints[1:4,1:3],  handle: ";
    for piece in [
        ints,
        "\n           1        2        3  \n       -------- -------- --------\n   1          0       10       20\n   2          1       11       21\n   3          2       12       22\n   4          3       13       23\n",
        "\n global array: dbls[1:3,1:2],  handle: ",
        "\n            1           2  \n       ----------- -----------\n   1       0.00000     1.00000\n   2       0.50000     1.50000\n   3       1.00000     2.00000\n",
        "\n global array: longs[1:3],  handle: ",
        "   1          1\n   2          2\n   3          3\n",
    ] {
        r.assert_stdout_has(piece);
    }
    // The distribution, in C terms, one line per compute rank.
    assert!(
        out.contains("Name:'dbls' Data Type:double\nArray Dimensions:2x3\n"),
        "{out}"
    );
    let owners: Vec<&str> = out.lines().filter(|l| l.starts_with("Process=")).collect();
    assert_eq!(owners.len(), 2, "{out}");
    assert!(
        owners[0].starts_with("Process=0\t owns array section: [0:"),
        "{out}"
    );
    assert!(out.contains(" Summary of allocated global arrays"), "{out}");
    assert!(out.contains("double precision dbls(3,2)"), "{out}");
    assert!(
        out.contains("  array 2 => long longs(3),  handle: "),
        "{out}"
    );
    assert!(out.contains("    (3:3) -> 1 \n"), "{out}");
    // The program's own printf output stays in order around the library's.
    let before = out.find("before print").expect("before");
    let after = out.find("after print").expect("after");
    assert!(
        before < out.find(ints).unwrap_or(0) && out.find(ints).unwrap_or(0) < after,
        "{out}"
    );
    // Printed once, by process 0.
    assert_eq!(out.matches(" global array: ints").count(), 1, "{out}");
}

#[test]
fn bad_input_ends_the_job_naming_the_call() {
    let exe = build("ga/ga_bad.c", &["ga"]);
    let cases: [(&str, &[&str]); 16] = [
        ("bounds", &["NGA_Put", "[0:9,3:20]", "'A'"]),
        ("bounds64", &["NGA_Put64", "[0:9,3:20]", "'A'"]),
        ("get64", &["NGA_Get64", "[-1:1,0:1]"]),
        ("check", &["GA_Check_handle", "in the solver"]),
        ("cluster", &["GA_Cluster_procid", "loc=99"]),
        ("zgop", &["GA_Zgop", "\"max\""]),
        ("handle", &["NGA_Get", "invalid array handle"]),
        ("type", &["NGA_Read_inc", "'A'"]),
        ("gemm", &["GA_Dgemm", "[0:9,0:9]"]),
        ("copy", &["NGA_Copy_patch", "[0:2,0:2]", "[0:3,0:3]"]),
        ("ld", &["NGA_Get", "ld[0]=4"]),
        ("ldhuge", &["NGA_Get64: patch [0:1,0:1,0:1] too large"]),
        ("error", &["user says stop", "42"]),
        (
            "cyclicghost",
            &[
                "'cyc' is block-cyclic: ghost cells are not available",
                "GA_Allocate gave 0",
                "GA_Fill",
            ],
        ),
        (
            "huge64",
            &[
                "NGA_Create64: array 'huge' of 2147483648 x 2147483648 elements of 8 bytes needs 36893488147419103232 bytes",
                "9223372036854775807",
            ],
        ),
        (
            "hugeint",
            &[
                "NGA_Create: array 'cube' of 2147483647 x 2147483647 x 2147483647 elements of 8 bytes needs 79228162403583873202826248184 bytes",
            ],
        ),
    ];
    for (case, words) in cases {
        let r = ga_run(2, &exe, &[case]);
        assert!(!r.timed_out, "{case}: hung\n{}\n{}", r.stdout, r.stderr);
        assert!(
            r.code.is_some_and(|c| c != 0),
            "{case}: exit {:?}\n{}\n{}",
            r.code,
            r.stdout,
            r.stderr
        );
        assert!(!r.stdout.contains("did not stop"), "{case}: {}", r.stdout);
        let all = format!("{}{}", r.stdout, r.stderr);
        for w in words {
            assert!(all.contains(w), "{case}: no {w:?} in\n{all}");
        }
        assert!(!all.contains("internal"), "{case}: {all}");
        assert!(!all.contains("gave handle"), "{case}: {all}");
    }
}

/// Every `int64_t` entry point, on 1 and 4 compute ranks, checked against
/// its `int` twin and a serial reference; then what the patch printing
/// calls printed, as Debian's GA lays it out.
#[test]
fn the_64_bit_index_calls_match_the_int_calls_on_1_and_4_ranks() {
    let exe = build("ga/ga_api64.c", &["ga"]);
    for np in [1, 4] {
        let r = ga_run(np, &exe, &[]);
        tally_ok(&r, "ga_api64", np, if np == 1 { 130 } else { 600 });
        let out = &r.stdout;
        for piece in [
            "== NGA_Print_patch64 pretty\n\n global array: pp[3:4,2:3],  handle: ",
            " \n\n           2        3  \n       -------- --------\n   3         12       22\n   4         13       23\n== NGA_Print_patch dense\n",
            " \npp(3,2) = 12\npp(4,2) = 13\npp(3,3) = 22\npp(4,3) = 23\n== GA_Print_patch pretty\n\n global array: pp[1:8,4:5],  handle: ",
            " \n\n           4        5  \n       -------- --------\n   1         30       40\n   2         31       41\n",
            "   8         37       47\n== end of patches\n",
        ] {
            r.assert_stdout_has(piece);
        }
        // Printed once, by process 0.
        assert_eq!(out.matches(" global array: pp[").count(), 3, "{out}");
    }
    let r = ga_run_env(4, &exe, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
    tally_ok(&r, "ga_api64", 4, 600);
}

/// Bytes free in the shared-memory file system the arrays live in.
fn shm_available() -> u64 {
    let out = Command::new("df")
        .args(["--output=avail", "-B1", "/dev/shm"])
        .output()
        .expect("df");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .nth(1)
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0)
}

/// An array with 2^31 + 16 elements: NGA_Inquire64 reports its extent, the
/// int NGA_Inquire ends the job through GA_Error instead of truncating it.
#[test]
fn int_calls_refuse_extents_beyond_int_max() {
    // The 2 GiB array is created (and zeroed) in /dev/shm.
    assert!(
        shm_available() >= 4 << 30,
        "this test needs 4 GiB free in /dev/shm for a 2 GiB array"
    );
    let exe = build("ga/ga_bad.c", &["ga"]);
    let r = ga_run(2, &exe, &["big"]);
    assert!(!r.timed_out, "hung\n{}\n{}", r.stdout, r.stderr);
    assert!(r.code.is_some_and(|c| c != 0), "exit {:?}", r.code);
    r.assert_stdout_has("ga_bad: NGA_Inquire64 ok");
    assert!(!r.stdout.contains("did not stop"), "{}", r.stdout);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("NGA_Inquire: dims value 2147483664 does not fit in an int"),
        "{all}"
    );
}

/// `tests/programs/<source>` linked with Debian's GA 5.8 (`libga-openmpi.a`
/// on ARMCI-MPI) instead of ours, to show what GA itself does.
fn build_with_debian_ga(source: &str) -> PathBuf {
    tests::ga_compare::build(source, tests::ga_compare::Ga::Debian)
}

/// MA keeps a stack and a heap of their own, as GA's MA does: the figures
/// `MA_inquire_stack/heap/avail` give after every step (pushes, chops,
/// heap blocks freed below others and reused, merged free blocks, a full
/// stack, a stack grown over the partition) are the ones Debian's GA
/// prints for the same program, on 1, 2 and 4 compute ranks.
#[test]
fn ma_stack_and_heap_figures_match_debian_ga() {
    let ours = build("ga/ma_space.c", &["ga"]);
    let theirs = build_with_debian_ga("ga/ma_space.c");
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-n", "1"]).arg(&theirs);
    mpi_env(&mut cmd);
    let expected = run_with_timeout(cmd, Duration::from_secs(120));
    expected.assert_ok("ma_space with Debian's GA");
    let want = &expected.stdout;
    // The figures themselves: the stack's own 400000 doubles (+1 for the
    // rounding of MA's overhead), a heap untouched by a full stack.
    assert!(
        want.contains("init                   dbl 400001/400001/800014 "),
        "{want}"
    );
    assert!(
        want.contains("stack full             dbl 0/320028/79939 "),
        "{want}"
    );
    for np in [1, 2, 4] {
        let r = ga_run(np, &ours, &[]);
        r.assert_ok(&format!("ma_space on {np} ranks"));
        assert_eq!(
            r.stdout, *want,
            "ma_space on {np} ranks differs from Debian's GA"
        );
    }
}

/// Array queries and flags (`ga/ga_flags.c`): `GA_Get_dimension`,
/// `GA_Is_mirrored`, `GA_Uses_proc_grid` and the debug flag, with their
/// `NGA_` names, print what Debian's GA prints on 1 and 2 ranks (and on 2
/// through the server path).
#[test]
fn array_queries_and_flags_match_debian_ga() {
    tests::ga_compare::same_as_debian("ga/ga_flags.c", "ga_flags", 10, &[1, 2], 2);
}
