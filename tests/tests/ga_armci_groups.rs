//! ARMCI's processor groups (`ga/armci_groups.c`): the world and default
//! groups, a group of the even ranks, a child group of it, a group made
//! from a changed default, `ARMCI_Malloc_group` memory reached by absolute
//! rank with put, accumulate and get, and the `armci_msg_group_*`
//! collectives. The program checks itself on every rank and rank 0 prints
//! a line per step; on 1, 2 and 4 compute ranks beside a `ga-server`, and
//! on 3 with every operation through the server (`MPBRIDGE_GA_REMOTE=1`),
//! the lines must be the ones Debian's ARMCI (ARMCI-MPI) prints for the
//! same source.

use tests::ga_compare::{assert_tally, build, run, step_lines, Ga};

const SRC: &str = "ga/armci_groups.c";
const NAME: &str = "armci_groups";

#[test]
fn armci_groups_match_debian_armci() {
    let (ours, theirs) = (build(SRC, Ga::Ours), build(SRC, Ga::Debian));
    for (np, remote) in [(1, "0"), (2, "0"), (4, "0"), (3, "1")] {
        let want = run(&theirs, Ga::Debian, np, &[], &[]);
        assert_tally(
            &want,
            NAME,
            &format!("{NAME} with Debian's ARMCI on {np} ranks"),
            20 * np,
        );
        let got = run(&ours, Ga::Ours, np, &[], &[("MPBRIDGE_GA_REMOTE", remote)]);
        assert_tally(
            &got,
            NAME,
            &format!("{NAME} on {np} ranks (remote {remote})"),
            20 * np,
        );
        assert_eq!(
            step_lines(&got.stdout, NAME),
            step_lines(&want.stdout, NAME),
            "{NAME} on {np} ranks differs from Debian's ARMCI"
        );
        assert_eq!(step_lines(&got.stdout, NAME).len(), 7, "{}", got.stdout);
    }
}
