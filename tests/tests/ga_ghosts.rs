//! Ghost cells and periodic transfers, in C (`ga/ga_ghosts.c`) and Fortran
//! (`ga_fortran/ghosts.F90`): creation with ghosts, updates with corners,
//! `NGA_Update_ghost_dir` on every side with and without corners, access
//! to the framed block, writes through it, `NGA_Get_ghost_block` and
//! `NGA_Periodic_get/put/acc` across the array's edges. Each program
//! checks itself against the periodic image of a serial model and prints
//! per-rank digests; on 1 to 4 compute ranks beside a `ga-server`, and on
//! 3 through the server path, they print exactly what Debian's GA 5.8
//! prints for the same source. (The programs choose their blocking
//! explicitly: Debian's default blocking differs from ours for some
//! shapes, e.g. a 12x10 array on 2 ranks and 8x9x10 on 3 or 4.)

use tests::ga_compare::{assert_tally, build, run, same_as_debian, Ga};

tests::twin_tests! {
    same_as_debian(.., &[1, 2, 3, 4], 3);
    c_ghosts_and_periodic_transfers_match_debian_ga("ga/ga_ghosts.c", 52)
    fortran_ghosts_and_periodic_transfers_match_debian_ga("ga_fortran/ghosts.F90", 39)
}

/// `NGA_NbGet_ghost_dir` and its 64-bit form (`ga/ga_ghost_dir.c`): for
/// each side and corner direction every rank blanks its frame, fetches the
/// part the mask names and checks every frame cell against the periodic
/// image (the rest must stay blank). On 1 to 4 compute ranks, and on 4
/// through the server path. Debian's GA cannot run it: its C wrapper adds
/// 1 to each mask entry and rejects a valid mask ("invalid mask entry").
#[test]
fn c_nbget_ghost_dir_fills_one_direction_of_the_frame() {
    const NAME: &str = "ga_ghost_dir";
    let exe = build("ga/ga_ghost_dir.c", Ga::Ours);
    for np in 1..=4u32 {
        let r = run(&exe, Ga::Ours, np, &[], &[]);
        assert_tally(&r, NAME, &format!("{NAME} on {np} ranks"), 24 * np);
    }
    let r = run(&exe, Ga::Ours, 4, &[], &[("MPBRIDGE_GA_REMOTE", "1")]);
    assert_tally(
        &r,
        NAME,
        &format!("{NAME} through the server on 4 ranks"),
        96,
    );
}
