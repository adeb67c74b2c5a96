//! The HPF run-time under `mpiexec` on 1 to 4 processes: the Rust property
//! checks (`hpf_props`: random shapes and distributions against serial
//! references) and the C and Fortran 77 programs of `tests/programs/hpf/`,
//! built against the installed `hpf_rts.h` / `hpf_rts.fh` and
//! `-lmpbridge`. Each program checks its results itself and prints one
//! tally per process.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tests::mpirun::{mpiexec, Run};
use tests::native::{build, build_with, F77_STYLE};
use tests::tally;

const LIMIT: Duration = Duration::from_secs(180);

fn all_passed(r: &Run, who: &str, ranks: u32) {
    r.assert_ok(who);
    tally::ranks_ok(r, who, ranks as usize);
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
    let exe = build("hpf/hpf_jacobi.c", &["mpbridge", "m"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_jacobi", n);
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
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_pdgemm", n);
    }
}

#[test]
fn intrinsics_from_c_equal_the_serial_results() {
    let exe = build("hpf/hpf_intrinsics.c", &["mpbridge"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_intrinsics", n);
    }
}

#[test]
fn reshape_pack_unpack_from_c_equal_the_serial_results() {
    let exe = build("hpf/hpf_unstructured.c", &["mpbridge"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_unstructured", n);
    }
}

#[test]
fn gen_block_from_c_equals_the_serial_results() {
    let exe = build("hpf/hpf_genblock.c", &["mpbridge", "m"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_genblock", n);
    }
}

#[test]
fn complex_and_logical_types_from_c_equal_the_serial_results() {
    let exe = build("hpf/hpf_types.c", &["mpbridge", "m"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_types", n);
    }
}

#[test]
fn gather_and_scatter_through_index_arrays_from_c_equal_the_serial_results() {
    let exe = build("hpf/hpf_indexed.c", &["mpbridge"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_indexed", n);
    }
}

#[test]
fn alignment_to_a_template_from_c_places_elements_with_their_cells() {
    let exe = build("hpf/hpf_align.c", &["mpbridge"]);
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_align", n);
    }
}

/// A Fortran 77 node program, built as the compilers of its day did
/// (locals static and zeroed; untyped calls to the run-time).
fn fortran77(name: &str) -> PathBuf {
    build_with(&format!("hpf/{name}.f"), &["mpbridge"], F77_STYLE)
}

#[test]
fn jacobi_in_fortran_77_equals_the_serial_run() {
    let exe = fortran77("hpf_jacobi_f77");
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_jacobi_f77", n);
    }
}

#[test]
fn sections_and_unstructured_in_fortran_77_equal_the_serial_results() {
    let exe = fortran77("hpf_unstructured_f77");
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_unstructured_f77", n);
    }
}

#[test]
fn gather_and_scatter_in_fortran_77_equal_the_serial_results() {
    let exe = fortran77("hpf_indexed_f77");
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_indexed_f77", n);
    }
}

#[test]
fn complex_and_logical_types_in_fortran_77_equal_the_serial_intrinsics() {
    let exe = fortran77("hpf_types_f77");
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_types_f77", n);
    }
}

#[test]
fn alignment_to_a_template_in_fortran_77_places_elements_with_their_cells() {
    let exe = fortran77("hpf_align_f77");
    for n in 1..=4u32 {
        let r = mpiexec(n, &exe, &[], LIMIT);
        all_passed(&r, "hpf_align_f77", n);
    }
}
