//! The HPF run-time under `mpiexec` on 1 to 4 processes: the Rust property
//! checks (`hpf_props`: random shapes and distributions against serial
//! references) and the C and Fortran 77 programs of `tests/programs/hpf/`,
//! built against the installed `hpf_rts.h` / `hpf_rts.fh` and
//! `-lmpbridge`. Each program checks its results itself and prints one
//! tally per process.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tests::mpirun::{mpiexec, mpiexec_env, Run};
use tests::native::{build, build_with, F77_STYLE};
use tests::tally;

const LIMIT: Duration = Duration::from_secs(180);

fn all_passed(r: &Run, who: &str, ranks: u32) {
    r.assert_ok(who);
    tally::ranks_ok(r, who, ranks as usize);
}

/// Runs the built program `exe` on 1 to 4 processes; every process of
/// every run must report all its checks passed under the name `who`.
fn on_one_to_four(exe: &Path, who: &str) {
    for n in 1..=4u32 {
        let r = mpiexec(n, exe, &[], LIMIT);
        all_passed(&r, who, n);
    }
}

#[test]
fn properties_hold_on_one_to_four_processes() {
    for n in 1..=4u32 {
        for seed in ["7", "11"] {
            let r = mpiexec(
                n,
                Path::new(env!("CARGO_BIN_EXE_hpf_props")),
                &[seed, "40"],
                LIMIT,
            );
            all_passed(&r, "hpf_props", n);
        }
    }
}

#[test]
fn jacobi_in_c_equals_the_serial_run() {
    on_one_to_four(&build("hpf/hpf_jacobi.c", &["mpbridge", "m"]), "hpf_jacobi");
}

#[test]
fn hpf_debug_logs_show_each_schedule_planned_once_per_process() {
    let exe = build("hpf/hpf_jacobi.c", &["mpbridge", "m"]);
    let r = mpiexec_env(2, &exe, &[], &[("MPBRIDGE_LOG", "hpf=debug")], LIMIT);
    all_passed(&r, "hpf_jacobi", 2);
    for rank in 0..2 {
        let who = format!("[rank {rank} t");
        let planned: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with(&who) && l.contains(" hpf: planned a "))
            .collect();
        // Every sweep updates the overlap; its schedule is planned once.
        let halos = planned
            .iter()
            .filter(|l| l.contains("planned a halo schedule"))
            .count();
        assert_eq!(
            halos, 1,
            "rank {rank}: one halo plan for every sweep:\n{}",
            r.stderr
        );
        assert!(
            planned
                .iter()
                .any(|l| l.contains("planned a remap schedule")),
            "rank {rank} logs its remaps:\n{}",
            r.stderr
        );
    }
}

#[test]
fn numroc_equals_scalapack() {
    let lib = "/usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so";
    assert!(
        Path::new(lib).is_file(),
        "{lib} missing: apt-get install libscalapack-openmpi-dev"
    );
    let exe = build("hpf/hpf_numroc.c", &["mpbridge", "scalapack-openmpi"]);
    let r = mpiexec(1, &exe, &[], LIMIT);
    all_passed(&r, "hpf_numroc", 1);
}

#[test]
fn matmul_equals_dgemm_and_pdgemm_takes_our_descriptors() {
    let exe = build(
        "hpf/hpf_pdgemm.c",
        &["mpbridge", "scalapack-openmpi", "openblas", "m"],
    );
    on_one_to_four(&exe, "hpf_pdgemm");
}

#[test]
fn intrinsics_from_c_equal_the_serial_results() {
    on_one_to_four(
        &build("hpf/hpf_intrinsics.c", &["mpbridge"]),
        "hpf_intrinsics",
    );
}

#[test]
fn reshape_pack_unpack_from_c_equal_the_serial_results() {
    on_one_to_four(
        &build("hpf/hpf_unstructured.c", &["mpbridge"]),
        "hpf_unstructured",
    );
}

#[test]
fn gen_block_from_c_equals_the_serial_results() {
    on_one_to_four(
        &build("hpf/hpf_genblock.c", &["mpbridge", "m"]),
        "hpf_genblock",
    );
}

#[test]
fn complex_and_logical_types_from_c_equal_the_serial_results() {
    on_one_to_four(&build("hpf/hpf_types.c", &["mpbridge", "m"]), "hpf_types");
}

#[test]
fn gather_and_scatter_through_index_arrays_from_c_equal_the_serial_results() {
    on_one_to_four(&build("hpf/hpf_indexed.c", &["mpbridge"]), "hpf_indexed");
}

#[test]
fn alignment_to_a_template_from_c_places_elements_with_their_cells() {
    on_one_to_four(&build("hpf/hpf_align.c", &["mpbridge"]), "hpf_align");
}

/// [`on_one_to_four`] for the C program `hpf/{name}.c`, linked with the
/// library alone, which reports under its own name.
fn on_one_to_four_c(name: &str) {
    on_one_to_four(&build(&format!("hpf/{name}.c"), &["mpbridge"]), name);
}

#[test]
fn fixed_template_positions_from_c_hold_the_array_on_one_slice_of_the_grid() {
    on_one_to_four_c("hpf_align_fixed");
}

#[test]
fn copy_scatter_from_c_keeps_the_documented_value() {
    on_one_to_four_c("hpf_copy_scatter");
}

#[test]
fn combining_scatters_from_c_equal_the_serial_fold() {
    on_one_to_four(
        &build("hpf/hpf_scatter_ops.c", &["mpbridge"]),
        "hpf_scatter_ops",
    );
}

/// A Fortran 77 node program, built as the compilers of its day did
/// (locals static and zeroed; untyped calls to the run-time).
fn fortran77(name: &str) -> PathBuf {
    build_with(&format!("hpf/{name}.f"), &["mpbridge"], F77_STYLE)
}

/// [`on_one_to_four`] for the Fortran 77 program `hpf/{name}.f`, which
/// reports under its own name.
fn on_one_to_four_f77(name: &str) {
    on_one_to_four(&fortran77(name), name);
}

#[test]
fn jacobi_in_fortran_77_equals_the_serial_run() {
    on_one_to_four_f77("hpf_jacobi_f77");
}

#[test]
fn sections_and_unstructured_in_fortran_77_equal_the_serial_results() {
    on_one_to_four_f77("hpf_unstructured_f77");
}

#[test]
fn gather_and_scatter_in_fortran_77_equal_the_serial_results() {
    on_one_to_four_f77("hpf_indexed_f77");
}

#[test]
fn complex_and_logical_types_in_fortran_77_equal_the_serial_intrinsics() {
    on_one_to_four_f77("hpf_types_f77");
}

#[test]
fn alignment_to_a_template_in_fortran_77_places_elements_with_their_cells() {
    on_one_to_four_f77("hpf_align_f77");
}

#[test]
fn fixed_template_position_and_copy_scatter_in_fortran_77_equal_the_serial_results() {
    on_one_to_four_f77("hpf_align_fixed_f77");
}

#[test]
fn combining_scatters_in_fortran_77_equal_the_serial_fold() {
    on_one_to_four_f77("hpf_scatter_ops_f77");
}
