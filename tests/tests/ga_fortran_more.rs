//! The last of Debian's Fortran GA and MA routines, each group in a
//! fixed-form program that Debian's GA 5.8 runs too, on 1, 2 and 4
//! compute ranks (ours beside a `ga-server`) and on 4 with every
//! operation through the server (`MPBRIDGE_GA_REMOTE=1`); both must pass
//! their own checks and print the same:
//! - `ga_fortran/ma_more.F`: MA's inquiries that check the other region
//!   or ignore the partition (the figures of GA's MA, also once the stack
//!   has grown past the partition), `ma_free_heap_piece`,
//!   `ma_set_numalign`/`ma_get_numalign`, the memory handle iterator GA
//!   leaves unimplemented, `ma_set_sizes`; and `ma_trace`, whose lines
//!   must be Debian's;
//! - `ga_fortran/fapi_more.F`: `ga_elem_step_divide_patch` and
//!   `ga_elem_stepb_divide_patch` (both spellings, double precision and
//!   integer), `nga_nbput_notify`/`nga_nbwait_notify`,
//!   `ga_register_proclist`, and the bins (`ga_bin_index`,
//!   `ga_bin_sorter`, `ga_create_bin_range`, compared on one rank only:
//!   Debian's GA ends the job in them on more);
//! - `ga_fortran/scalapack_io.F`: `ga_to_sl`/`ga_from_sl` and their `2`
//!   and `2cpl` forms after `slinit`/`slinit2`, `ga_cpydbl2cpl`,
//!   `ga_cpycpl2dbl`, `ga_zeroul`, `ga_symul`;
//! - `ga_fortran/hermitian.F`: `ga_pzheevd` and `ga_pzheevr`;
//! - `ga_fortran/fapi_last.F`: `ga_randomize`/`nga_randomize` (each rank
//!   seeds the C library's `rand()`, so the values are Debian's),
//!   `ga_set_tiled_irreg_proc_grid` and its `nga_` spelling,
//!   `ga_deallocate`/`nga_deallocate` (of arrays of `ga_create_handle`
//!   and of `nga_create`) and `ga_overlay`/`nga_overlay` (a block-cyclic
//!   array too).
//!
//! (`ga_matmul_mirrored` is checked in `ga_fortran/mirror.F90`, which
//! Debian's GA cannot run.)

use tests::ga_compare::{assert_tally, build, run, same_as_debian_with, Ga};

#[test]
fn fortran_ma_inquiries_pieces_and_alignment_match_debian_ga() {
    same_as_debian_with(
        "ga_fortran/ma_more.F",
        "ma_more",
        |np| 25 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

/// `ma_trace(1)` prints a line for each push, pop, allocation, piece and
/// free, as Debian's MA does; `ma_trace(0)` stops them.
#[test]
fn fortran_ma_trace_prints_debians_lines() {
    let lines = |ga: Ga| -> Vec<String> {
        let exe = build("ga_fortran/ma_more.F", ga);
        let r = run(&exe, ga, 1, &["trace"], &[]);
        assert_tally(&r, "ma_more", &format!("ma_more trace with {ga:?} GA"), 8);
        r.stdout
            .lines()
            .filter(|l| l.starts_with("MA: "))
            .map(str::to_string)
            .collect()
    };
    let want = lines(Ga::Debian);
    assert_eq!(want.len(), 5, "Debian's trace: {want:?}");
    assert_eq!(lines(Ga::Ours), want);
}

/// The bins run on one rank (where Debian's GA can run them) and, with
/// the argument `bins`, on ours on 2 and 4 ranks and through the server.
#[test]
fn fortran_step_divides_notify_proclist_and_bins_match_debian_ga() {
    let min = |np: u32| if np == 1 { 29 } else { 21 * np };
    same_as_debian_with(
        "ga_fortran/fapi_more.F",
        "fapi_more",
        min,
        &[1, 2, 4],
        4,
        &[],
    );
    let ours = build("ga_fortran/fapi_more.F", Ga::Ours);
    for (np, remote) in [(2, "0"), (4, "0"), (4, "1")] {
        let r = run(
            &ours,
            Ga::Ours,
            np,
            &["bins"],
            &[("MPBRIDGE_GA_REMOTE", remote)],
        );
        let what = format!("fapi_more with bins on {np} ranks (remote {remote})");
        assert_tally(&r, "fapi_more", &what, 29 * np);
    }
}

#[test]
fn fortran_scalapack_copies_and_triangles_match_debian_ga() {
    same_as_debian_with(
        "ga_fortran/scalapack_io.F",
        "scalapack_io",
        |np| 22 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

#[test]
fn fortran_randomize_tiled_irregular_deallocate_and_overlay_match_debian_ga() {
    same_as_debian_with(
        "ga_fortran/fapi_last.F",
        "fapi_last",
        |np| 29 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

/// `ga_pzheevd` and `ga_pzheevr` check their eigenpairs against the
/// matrix; the eigenvalues (and GA's note of how many `ga_pzheevr`
/// computed) are Debian's. Fortran's output is unbuffered in both runs
/// so that GA's note, written by the library, keeps its place.
#[test]
fn fortran_hermitian_eigensolvers_match_debian_ga() {
    let ours = build("ga_fortran/hermitian.F", Ga::Ours);
    let theirs = build("ga_fortran/hermitian.F", Ga::Debian);
    let env = [("GFORTRAN_UNBUFFERED_PRECONNECTED", "y")];
    for (np, remote) in [(1, "0"), (2, "0"), (4, "0"), (4, "1")] {
        let want = run(&theirs, Ga::Debian, np, &[], &env);
        let what = format!("hermitian with Debian's GA on {np} ranks");
        assert_tally(&want, "hermitian", &what, 14 * np);
        let mut env_ours = env.to_vec();
        env_ours.push(("MPBRIDGE_GA_REMOTE", remote));
        let got = run(&ours, Ga::Ours, np, &[], &env_ours);
        let what = format!("hermitian on {np} ranks (remote {remote})");
        assert_tally(&got, "hermitian", &what, 14 * np);
        assert_eq!(got.stdout, want.stdout, "{what} differs from Debian's GA");
    }
}
