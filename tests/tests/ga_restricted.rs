//! Restricted arrays (`GA_Set_restricted`, `GA_Set_restricted_range`)
//! through the C API (`ga/ga_restricted.c`) and the Fortran one
//! (`ga_fortran/restricted.F90`): the data lives on the listed
//! processes only, in list order, NGA_Distribution and NGA_Locate say so,
//! and every rank still reads, writes and accumulates the whole array.
//! Each program checks its results against its own model; each runs on 1, 2
//! and 4 compute ranks beside a `ga-server` and once on 4 with every
//! operation through the server (`MPBRIDGE_GA_REMOTE=1`), and Debian's GA
//! 5.8 runs the same source on the same rank counts: both must print the
//! same. Restricted arrays with ghost cells (`ga/ga_restricted_ghosts.c`)
//! are compared the same way.

use tests::ga_compare::{build, run, same_as_debian_with, Ga};

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

/// Restricted arrays with ghost cells (`ga/ga_restricted_ghosts.c`): the
/// restricted list names every process, reversed or rotated; each frame
/// holds the periodic image after `NGA_Update_ghost_dir` (one side) and
/// `GA_Update_ghosts` (all, corners included), as with Debian's GA.
#[test]
fn c_restricted_arrays_with_ghosts_match_debian_ga() {
    // Per array: allocate, has-ghosts, update_ghost_dir, and two frame
    // checks of two checks each, on every rank.
    same_as_debian_with(
        "ga/ga_restricted_ghosts.c",
        "ga_restricted_ghosts",
        |np| 14 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

/// A list that leaves a process out cannot have ghost cells: Debian's GA
/// 5.8 ends the job in `GA_Allocate` ("Could not allocate update
/// information for ghost cells"); ours refuses the array with a message
/// that says why, and `GA_Allocate` returns 0 on every rank.
#[test]
fn ghost_cells_on_a_partial_restricted_list_are_refused_with_a_message() {
    let ours = build("ga/ga_restricted_ghosts.c", Ga::Ours);
    let r = run(&ours, Ga::Ours, 3, &["partial"], &[]);
    r.assert_ok("the partial list");
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("'partial' is restricted to 2 of 3 processes")
            && all.contains("ghost cells need every process"),
        "no message saying why\n{all}"
    );
    assert_eq!(
        r.stdout.matches("partial allocate returned 0").count(),
        3,
        "{all}"
    );
}
