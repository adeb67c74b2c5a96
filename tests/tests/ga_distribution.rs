//! GA's default block distribution (`ga/ga_distribution.c`): arrays of 1
//! to 4 dimensions, extents smaller than the rank count, primes, flat and
//! long shapes, with and without chunk hints (including -1, 0 and hints
//! past the extent), made through `NGA_Create`, `NGA_Create64` and
//! `GA_Set_chunk`/`GA_Allocate`. The same source runs against Debian's GA
//! 5.8 and ours on 1, 2, 3 and 4 compute ranks, and ours once more on 3
//! with every operation through the server (`MPBRIDGE_GA_REMOTE=1`): the
//! process grids and every process's `NGA_Distribution` must be
//! identical, and each side checks that the blocks cover the array once
//! and that `NGA_Locate` names their owners.

use tests::ga_compare::same_as_debian_with;

#[test]
fn default_distribution_matches_debian_ga() {
    same_as_debian_with(
        "ga/ga_distribution.c",
        "ga_distribution",
        |np| 790 * np,
        &[1, 2, 3, 4],
        3,
        &[],
    );
}
