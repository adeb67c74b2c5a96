//! Processor groups in C (`ga/ga_pgroups.c`) and Fortran
//! (`ga_fortran/pgroups.F90`): creation from an unsorted list, splits into
//! consecutive groups and by color, self and duplicate groups, ranks,
//! sizes, absolute ids, group sync, broadcast and reductions, and the
//! default group behind `GA_Nodeid`, `GA_Nnodes`, `GA_Sync`, `GA_Brdcst`
//! and the `GA_*gop` reductions. On 1 to 4 compute ranks beside a
//! `ga-server` (and on 3 through the server path) each program passes its
//! own checks and prints, per rank, the same handles, ranks and results as
//! Debian's GA 5.8 running the same source.

use tests::ga_compare::{build, run, same_as_debian, Ga};

#[test]
fn c_processor_groups_match_debian_ga() {
    same_as_debian("ga/ga_pgroups.c", "ga_pgroups", 14, &[1, 2, 3, 4], 3);
}

#[test]
fn fortran_processor_groups_match_debian_ga() {
    same_as_debian("ga_fortran/pgroups.F90", "pgroups", 8, &[1, 2, 3, 4], 3);
}

/// Arrays live on all compute ranks here: creating one on a group (by
/// `NGA_Create_config` or under a default group) returns 0 with a message
/// instead of waiting for the ranks outside the group, and the world
/// group still makes arrays afterwards.
#[test]
fn an_array_on_a_group_is_refused_without_hanging() {
    let exe = build("ga/ga_pgroups.c", Ga::Ours);
    let r = run(&exe, Ga::Ours, 2, &["group-array"], &[]);
    r.assert_ok("ga_pgroups group-array");
    for me in 0..2 {
        let line = format!("rank {me}: group arrays 0 0, world array made");
        assert!(r.stdout.contains(&line), "no '{line}' in\n{}", r.stdout);
    }
    assert!(
        r.stderr
            .contains("NGA_Create_config: arrays on processor groups are not supported")
            && r.stderr
                .contains("arrays on processor groups are not supported: the default group is"),
        "{}",
        r.stderr
    );
}
