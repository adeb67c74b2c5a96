//! GA's linear algebra (`GA_Lu_solve`, `GA_Llt_solve`, `GA_Solve`,
//! `GA_Spd_invert`, `GA_Diag`, `GA_Diag_std`, `GA_Diag_reuse`,
//! `GA_Diag_seq`, `GA_Diag_std_seq`) through the C API
//! (`ga/ga_linalg.c`) and the Fortran one (`ga_fortran/linalg.F90`, with
//! `ga_cholesky`, `ga_llt_f`/`_s`/`_i` and `ga_lu_solve_seq` besides).
//! Each program checks every result on every rank against the serial
//! LAPACK run on the same matrices (order 37, three right-hand sides;
//! the tolerances are in the programs' headers: 1e-9 relative for
//! solutions, inverses and eigenvalues, eigenvectors equal up to sign
//! within 1e-8). It runs on 1, 2 and 4 compute ranks beside a
//! `ga-server` (ScaLAPACK grids 1x1, 1x2 and 2x2 with partial blocks),
//! and on 4 ranks with every operation through the server
//! (`MPBRIDGE_GA_REMOTE=1`), which must print what the shared-memory path
//! prints.
//!
//! Debian's GA 5.8 runs the same sources with the argument `debian` on 1,
//! 2 and 4 ranks, and both GAs must print the same output. That argument
//! leaves out what Debian's GA cannot do, found by running the programs
//! against it:
//! - `GA_Lu_solve('t', ...)` (and Fortran `ga_lu_solve_alt` with a
//!   non-zero flag) ends the job in `pdgetrs`: GA passes ScaLAPACK the
//!   flag `'y'`, which it rejects; ours solves with `Aᵀ` (Fortran
//!   `ga_lu_solve('T', ...)` works in both);
//! - `GA_Diag`, `GA_Diag_std` and `GA_Diag_reuse` end the job with
//!   "peigs not interfaced" (Debian builds GA without PEIGS); ours run on
//!   ScaLAPACK.

use tests::bad_calls;
use tests::ga_compare::{assert_bad_calls, model_then_debian_subset};

// A full run makes at least the first count of checks per rank, a run
// with `debian` at least the second.
tests::twin_tests! {
    model_then_debian_subset(.., &[1, 2, 4], LAPACK);
    c_linear_algebra_matches_lapack_and_debian_ga("ga/ga_linalg.c", (47, 27))
    fortran_linear_algebra_matches_lapack_and_debian_ga("ga_fortran/linalg.F90", (74, 43))
}

/// The serial reference's libraries.
const LAPACK: &[&str] = &["lapack", "m"];

/// Each bad call ends the job on 2 ranks, promptly, with a message naming
/// the call; the program never gets past it.
#[test]
fn bad_arguments_end_the_job_naming_the_call() {
    assert_bad_calls(
        "ga/ga_linalg.c",
        LAPACK,
        bad_calls![
            "singular" => GA_Lu_solve says "singular",
            "type" => GA_Llt_solve says "double precision",
            "square" => GA_Spd_invert says "square",
            "rhs" => GA_Solve says "do not match",
            "eval" => GA_Diag_std says "eval is NULL",
            "metric" => GA_Diag says "not positive definite",
        ],
    );
}
