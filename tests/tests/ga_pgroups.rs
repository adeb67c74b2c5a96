//! Processor groups in C (`ga/ga_pgroups.c`) and Fortran
//! (`ga_fortran/pgroups.F90`): creation from an unsorted list, splits into
//! consecutive groups and by color, self and duplicate groups, ranks,
//! sizes, absolute ids, group sync, broadcast and reductions, and the
//! default group behind `GA_Nodeid`, `GA_Nnodes`, `GA_Sync`, `GA_Brdcst`
//! and the `GA_*gop` reductions. On 1 to 4 compute ranks beside a
//! `ga-server` (and on 3 through the server path) each program passes its
//! own checks and prints, per rank, the same handles, ranks and results as
//! Debian's GA 5.8 running the same source.

use tests::ga_compare::same_as_debian;

#[test]
fn c_processor_groups_match_debian_ga() {
    same_as_debian("ga/ga_pgroups.c", "ga_pgroups", 14, &[1, 2, 3, 4], 3);
}

#[test]
fn fortran_processor_groups_match_debian_ga() {
    same_as_debian("ga_fortran/pgroups.F90", "pgroups", 6, &[1, 2, 3, 4], 3);
}
