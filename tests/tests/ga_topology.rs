//! GA's process-grid queries through the C API (`ga/ga_topology.c`:
//! `GA_Get_proc_grid`, `NGA_Proc_topology`, `GA_Get_proc_index` and the
//! `NGA_` spellings) and the Fortran one (`ga_fortran/topology.F90`:
//! `ga_get_proc_grid`, `ga_proc_topology`, `nga_proc_topology`,
//! `ga_get_proc_index` and the `nga_` spellings) on regular arrays and on
//! ScaLAPACK-style block-cyclic ones. Each program checks the grid against
//! the distribution on every rank; it runs on 1, 2 and 4 compute ranks
//! beside a `ga-server` and once on 4 with every operation through the
//! server (`MPBRIDGE_GA_REMOTE=1`), and Debian's GA 5.8 runs the same
//! source on the same rank counts: both must print the same grids and
//! places (Fortran order for the grid and the topology in C too, C order
//! for `GA_Get_proc_index`, a process past the grid wrapping around it).

use tests::bad_calls;
use tests::ga_compare::{assert_bad_calls, same_as_debian_with};

#[test]
fn c_process_grid_queries_match_debian_ga() {
    same_as_debian_with(
        "ga/ga_topology.c",
        "ga_topology",
        |np| 50 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

#[test]
fn fortran_process_grid_queries_match_debian_ga() {
    same_as_debian_with(
        "ga_fortran/topology.F90",
        "topology",
        |np| 35 * np,
        &[1, 2, 4],
        4,
        &[],
    );
}

/// Each bad call ends the job on 2 ranks with a message naming the call;
/// the program never gets past it.
#[test]
fn bad_arguments_end_the_job_naming_the_call() {
    assert_bad_calls(
        "ga/ga_topology.c",
        &[],
        bad_calls![
            "index" => GA_Get_proc_index says "no ScaLAPACK-style",
            "cyclic" => NGA_Proc_topology says "without a process grid",
            "negative" => NGA_Proc_topology says "negative",
        ],
    );
}
