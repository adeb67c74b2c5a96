//! The element-wise and diagonal arithmetic of GA (`GA_Abs_value`,
//! `GA_Add_constant`, `GA_Recip`, `GA_Elem_*`, `GA_Median`,
//! `GA_Scale_rows`/`cols`, the diagonal calls, `GA_Norm1`,
//! `GA_Norm_infinity`, `GA_Step_max`, `GA_Step_bound_info`) through the C
//! API (`ga/ga_elementwise.c`: int, double and double complex arrays,
//! `int` and `int64_t` patch forms) and the Fortran one
//! (`ga_fortran/elementwise.F90`: both spellings). Each program checks
//! every result against its own serial model; it runs on 1, 2 and 4
//! compute ranks beside a `ga-server`, and on 4 ranks with every
//! operation through the server (`MPBRIDGE_GA_REMOTE=1`), which must print
//! what the shared-memory path prints.
//!
//! Debian's GA 5.8 runs the same sources on 4 ranks with the argument
//! `debian`, and both GAs must print the same output. That argument leaves
//! out what Debian's GA gets wrong, found by running these programs
//! against it:
//! - double complex `GA_Elem_multiply` with the result array one of the
//!   inputs, and `GA_Elem_multiply_patch`: the real part of the product is
//!   stored before the imaginary part is computed from it;
//! - double complex `GA_Scale_rows`/`GA_Scale_cols`: real and imaginary
//!   parts are scaled separately (`(re·re', im·im')`), not multiplied;
//! - `GA_Zero_diagonal` on non-square matrices (4x7, 7x4) zeroes elements
//!   off the diagonal;
//! - `GA_Step_max_patch` and `GA_Step_bound_info_patch` (and their
//!   `int64_t`/Fortran forms) on a patch of a vector return 0 where the
//!   whole-vector calls give the right step.
//!
//! Where GA 5.8 is right and its manual is vague, ours does what it does:
//! `GA_Norm1` is the sum and `GA_Norm_infinity` the largest of the
//! elements' magnitudes (also for matrices); complex values are ordered by
//! magnitude; a zero divisor or reciprocal ends the job; an element the
//! search direction leaves alone meets its bound at step 1e307.

use tests::bad_calls;
use tests::ga_compare::{assert_bad_calls, model_then_debian_subset};

// A full run makes at least the first count of checks per rank, a run
// with `debian` at least the second.
tests::twin_tests! {
    model_then_debian_subset(.., &[4], &[]);
    c_elementwise_arithmetic_matches_its_model_and_debian_ga("ga/ga_elementwise.c", (106, 97))
    fortran_elementwise_arithmetic_matches_its_model_and_debian_ga("ga_fortran/elementwise.F90", (73, 71))
}

/// Each bad call ends the job on 2 ranks, promptly, with a message naming
/// the call; the program never gets past it.
#[test]
fn bad_arguments_end_the_job_naming_the_call() {
    assert_bad_calls(
        "ga/ga_elementwise.c",
        &[],
        bad_calls![
            "divide" => GA_Elem_divide says "zero divisor",
            "recip" => GA_Recip says "zero value",
            "rows" => GA_Scale_rows says "2-D",
            "diagonal" => GA_Set_diagonal says "2-D",
            "shape" => GA_Elem_multiply says "shape",
            "type" => GA_Elem_maximum says "types",
            "length" => GA_Scale_cols says "columns",
            "bounds" => GA_Step_bound_info says "outside its bounds",
            "negative" => GA_Step_max says "negative element",
        ],
    );
}
