//! Processor groups in C (`ga/ga_pgroups.c`) and Fortran
//! (`ga_fortran/pgroups.F90`): creation from an unsorted list, splits into
//! consecutive groups and by color, self and duplicate groups, ranks,
//! sizes, absolute ids, group sync, broadcast and reductions, and the
//! default group behind `GA_Nodeid`, `GA_Nnodes`, `GA_Sync`, `GA_Brdcst`
//! and the `GA_*gop` reductions. On 1 to 4 compute ranks beside a
//! `ga-server` (and on 3 through the server path) each program passes its
//! own checks and prints, per rank, the same handles, ranks and results as
//! Debian's GA 5.8 running the same source. Arrays made on groups are
//! tested below in C (`ga/ga_group_arrays.c`) and Fortran
//! (`ga_fortran/group_arrays.F90`).

use tests::ga_compare::{assert_tally, build, run, same_as_debian, same_as_debian_with, Ga};

tests::twin_tests! {
    same_as_debian(.., &[1, 2, 3, 4], 3);
    c_processor_groups_match_debian_ga("ga/ga_pgroups.c", 14)
    fortran_processor_groups_match_debian_ga("ga_fortran/pgroups.F90", 8)
}

/// Arrays on processor groups (`ga/ga_group_arrays.c`): the two halves
/// of the world make, fill, read, copy, scale, count into and destroy
/// arrays of their own at the same time, by `NGA_Create_config`,
/// `GA_Set_pgroup` with `GA_Allocate`, a default group and
/// `GA_Duplicate`, and a world array works afterwards. On 1 to 4 compute
/// ranks (4 through the server path too) the program passes its checks
/// and prints the same blocks, owners, sums and counts as Debian's GA.
///
/// Debian's GA runs with Open MPI's `pt2pt` one-sided component: with the
/// default `rdma` one, two groups that create arrays at once on 4 ranks
/// make `MPI_Win_allocate` fail ("invalid window") in Open MPI 4.1.
#[test]
fn c_arrays_on_groups_match_debian_ga() {
    same_as_debian_on_pt2pt("ga/ga_group_arrays.c", "ga_group_arrays", 19);
}

/// [`same_as_debian_with`] on 1 to 4 ranks (4 through the server path),
/// at least `per_rank` checks a rank, Debian's GA on Open MPI's `pt2pt`
/// one-sided component.
fn same_as_debian_on_pt2pt(source: &str, name: &str, per_rank: u32) {
    let pt2pt = [("OMPI_MCA_osc", "pt2pt")];
    same_as_debian_with(source, name, |np| per_rank * np, &[1, 2, 3, 4], 4, &pt2pt);
}

/// Arrays on processor groups from Fortran (`ga_fortran/group_arrays.F90`):
/// `nga_create_config` and `ga_set_pgroup` on each half of the world, the
/// `nga_` names of the whole-array routines on them, and a world array
/// with ghost cells from `ga_set_ghosts` whose frame `nga_nbget_ghost_dir`
/// fills on one side. On 1 to 4 ranks (4 through the server path too) it
/// prints what Debian's GA prints (run with Open MPI's `pt2pt` one-sided
/// component, as above).
#[test]
fn fortran_arrays_on_groups_match_debian_ga() {
    same_as_debian_on_pt2pt("ga_fortran/group_arrays.F90", "group_arrays", 15);
}

/// Arrays on groups that straddle others: after each half of the world
/// made arrays of its own, odd and even ranks make one by `GA_Set_pgroup`
/// while the halves' arrays still exist. Each group sees only its own
/// values, and every check passes on 3 and 4 ranks. Debian's GA cannot run
/// this: ARMCI-MPI's fence asserts (`gmr_flush`: "grp_proc >= 0 &&
/// grp_me >= 0") in `GA_Allocate` on 3 or more ranks.
#[test]
fn c_arrays_on_crossing_groups_keep_apart() {
    const NAME: &str = "ga_group_arrays";
    let ours = build("ga/ga_group_arrays.c", Ga::Ours);
    for np in [3u32, 4] {
        let r = run(&ours, Ga::Ours, np, &["crossing"], &[]);
        assert_tally(&r, NAME, &format!("{NAME} crossing on {np} ranks"), 19 * np);
    }
}
