//! Mirrored arrays (`GA_Pgroup_get_mirror`, arrays made on the mirror
//! group with `NGA_Create_config`, `GA_Is_mirrored`, `NGA_Merge_distr_patch`
//! and its `int64_t` form, `GA_Merge_mirrored`, `NGA_Merge_mirrored`)
//! through the C API (`ga/ga_mirror.c`) and the Fortran one
//! (`ga_fortran/mirror.F90`: `nga_create_config`, `ga_is_mirrored`,
//! `nga_merge_distr_patch`, `ga_merge_mirrored`, `nga_merge_mirrored`).
//! Each program checks every value
//! on every rank against its model (a merge adds the copies of all nodes:
//! here one node, so one copy, and accumulates by every rank add up). It
//! runs on 1, 2 and 4 compute ranks beside a `ga-server`, and on 4 ranks
//! with every operation through the server (`MPBRIDGE_GA_REMOTE=1`),
//! which must print what the shared-memory path prints.
//!
//! Debian's GA 5.8 cannot run it, so it is not compared: on 1 rank its
//! `GA_Is_mirrored` says 0 for arrays made on the mirror group, and on 2
//! and 4 ranks its `NGA_Merge_distr_patch` ends the job with "Invalid
//! patch index on mirrored GA" (ARMCI-MPI).

use tests::ga_compare::ours_everywhere;

#[test]
fn c_mirrored_arrays_merge_their_copies() {
    ours_everywhere("ga/ga_mirror.c", "ga_mirror", 11, &[]);
}

#[test]
fn fortran_mirrored_arrays_merge_their_copies() {
    ours_everywhere("ga_fortran/mirror.F90", "mirror", 13, &[]);
}
