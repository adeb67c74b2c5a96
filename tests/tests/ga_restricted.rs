//! Restricted arrays (`GA_Set_restricted`, `GA_Set_restricted_range`)
//! through the C API (`ga/ga_restricted.c`) and the Fortran one
//! (`ga_fortran/restricted.F90`): the data lives on the listed
//! processes only, in list order, NGA_Distribution and NGA_Locate say so,
//! and every rank still reads, writes and accumulates the whole array.
//! Each program checks its results against its own model; each runs on 1, 2
//! and 4 compute ranks beside a `ga-server` and once on 4 with every
//! operation through the server (`MPBRIDGE_GA_REMOTE=1`), and Debian's GA
//! 5.8 runs the same source on the same rank counts: both must print the
//! same.

use tests::ga_compare::same_as_debian_with;

#[test]
fn c_restricted_arrays_match_debian_ga() {
    // Per array: 1 allocate, 1 holders, 4 locates, 2 whole-array checks
    // on every rank.
    same_as_debian_with(
        "ga/ga_restricted.c",
        "ga_restricted",
        |np| 2 * 8 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

#[test]
fn fortran_restricted_arrays_match_debian_ga() {
    // ma_init, then per array: allocate, holders, read back, accumulate,
    // destroy on every rank.
    same_as_debian_with(
        "ga_fortran/restricted.F90",
        "restricted",
        |np| 11 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}
