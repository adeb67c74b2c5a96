//! ARMCI's processor groups (`ga/armci_groups.c`): the world and default
//! groups, a group of the even ranks, a child group of it, a group made
//! from a changed default, `ARMCI_Malloc_group` memory reached by absolute
//! rank with put, accumulate and get, and the `armci_msg_group_*`
//! collectives. The program checks itself on every rank and rank 0 prints
//! a line per step; on 1, 2 and 4 compute ranks beside a `ga-server`, and
//! on 3 with every operation through the server (`MPBRIDGE_GA_REMOTE=1`),
//! the lines must be the ones Debian's ARMCI (ARMCI-MPI) prints for the
//! same source.

use tests::ga_compare::armci_like_debian;

const SRC: &str = "ga/armci_groups.c";
const NAME: &str = "armci_groups";

#[test]
fn armci_groups_match_debian_armci() {
    armci_like_debian(SRC, NAME, (20, 20), 7);
}
