//! The typed spellings and the remaining small routines of the GA Fortran
//! API (`ga_fortran/typed.F90` with `typed_pass.inc`): for integer, real,
//! double precision, complex and double complex arrays the `ga_X*` and
//! `nga_X*` fill, scale, add, dot and gemm routines, the reductions by type
//! code and of complex values, and the inquiries (`ga_check_handle`,
//! `ga_verify_handle`, the debug flag, `ga_nblock`, `ga_locate_nnodes`,
//! `ga_version`, `ga_timer`, `ga_print_patch`, ...). The program checks
//! every result against its own serial model on every rank.
//!
//! It runs on 1, 2 and 4 compute ranks beside a `ga-server` and on 4 with
//! every operation through the server (`MPBRIDGE_GA_REMOTE=1`), which must
//! print what the shared-memory path prints. Debian's GA 5.8 runs the same
//! source with the argument `debian` on 1, 2 and 4 ranks, and ours must
//! print the same (dots, reductions, the version, the printed patches).
//! That argument leaves out what Debian's GA gets wrong, found by running
//! this program against it:
//! - `ga_iscal`, `ga_iscale` and `ga_iscal_patch`: GA 5.8's type test for
//!   them (`type != C_INT || type != C_LONG || ...`) is always true, so
//!   Debian's GA ends the job with " wrong type " for every array; ours
//!   scales 8-byte integer arrays, as the names say;
//! - `ga_copy_patch_dp` of a 3x4 patch into another 3x4 patch leaves
//!   other values there than the source patch's (and so
//!   `ga_ddot_patch_dp` over the copy differs from the model);
//! - `ga_print_patch` of rows 2:4, columns 1:3 prints the column headers
//!   and then ends the job with "cannot locate region: q [2:1 ,2:3 ]".
//!
//! Where Debian's GA is right the two print the same: the dots, the
//! reductions, the version and `nga_print_patch` in both layouts.

use tests::bad_calls;
use tests::ga_compare::{bad_calls_end_the_job, build, model_then_debian_subset, Ga};

const SOURCE: &str = "ga_fortran/typed.F90";
const NAME: &str = "typed";

/// Checks per rank of a full run, and of a run with `debian` (which
/// leaves out 2 scaling checks of the integer pass and the 2 checks of
/// the `_dp` routines).
const FULL: u32 = 114;
const DEBIAN: u32 = FULL - 4;

#[test]
fn typed_spellings_match_their_model_and_debian_ga() {
    model_then_debian_subset(SOURCE, NAME, (FULL, DEBIAN), &[1, 2, 4], &[]);
}

/// A typed routine given an array of another type ends the job, naming
/// the routine and both types; so does a complex reduction with an
/// operation other than a sum.
#[test]
fn a_typed_routine_refuses_another_type() {
    // The program's argument is the name of the routine it calls badly.
    let cases = bad_calls![
        "ga_dscal" => ga_dscal says "not double precision",
        "nga_zadd_patch" => nga_zadd_patch says "not double complex",
        "ga_sdot" => ga_sdot says "not real",
        "ga_zgop" => ga_zgop says "only summed",
        "ga_gop" => ga_gop says "is not MT_F_INT",
    ];
    bad_calls_end_the_job(&build("ga_fortran/typed_errors.f90", Ga::Ours), &[], cases);
}
