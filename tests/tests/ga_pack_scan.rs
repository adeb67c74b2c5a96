//! GA's pack, unpack, segmented scans, enumeration and element selection:
//! `GA_Pack`, `GA_Unpack`, `GA_Scan_add` (inclusive and exclusive),
//! `GA_Scan_copy`, `GA_Patch_enum` (`int` and `int64_t` forms) and
//! `NGA_Select_elem`/`NGA_Select_elem64` through the C API
//! (`ga/ga_pack_scan.c`: int, long and double vectors, whole ranges and
//! parts), and the same routines through the Fortran one
//! (`ga_fortran/pack_scan.F90`, both spellings). Each program checks every
//! result against its own serial model; it runs on 1, 2 and 4 compute
//! ranks beside a `ga-server` and once on 4 with every operation through
//! the server (`MPBRIDGE_GA_REMOTE=1`), and Debian's GA 5.8 runs the same
//! source on the same rank counts: both must print the same.
//!
//! Where an extreme occurs more than once, `NGA_Select_elem` gives the
//! first in row-major order (Fortran: column-major); GA 5.8 gives one that
//! depends on how the array is spread over the processes, so those cases
//! (the C program's argument `ties`) run against ours only.

use tests::bad_calls;
use tests::ga_compare::{assert_bad_calls, ours_with_args, same_as_debian};

tests::twin_tests! {
    same_as_debian(.., &[1, 2, 4], 4);
    c_pack_scan_enum_and_select_match_debian_ga("ga/ga_pack_scan.c", 105)
    fortran_pack_scan_enum_and_select_match_debian_ga("ga_fortran/pack_scan.F90", 101)
}

/// With an extreme twice in a matrix, every rank count gives the first.
#[test]
fn select_elem_gives_the_first_of_equal_extremes() {
    let runs = ours_with_args("ga/ga_pack_scan.c", "ga_pack_scan", &["ties"], |np| {
        (105 + 18) * np
    });
    let mut outputs = Vec::new();
    for r in &runs {
        assert!(
            r.stdout.contains("select int max ties: 50 at (1,2)"),
            "{}",
            r.stdout
        );
        // Everything but the tally line, whose count grows with the ranks.
        outputs.push(
            r.stdout
                .lines()
                .filter(|l| !l.starts_with("ga_pack_scan: "))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]), "{outputs:?}");
}

/// Each bad call ends the job on 2 ranks, promptly, with a message naming
/// the call; the program never gets past it.
#[test]
fn bad_arguments_end_the_job_naming_the_call() {
    assert_bad_calls(
        "ga/ga_pack_scan.c",
        &[],
        bad_calls![
            "dims" => GA_Scan_add says "1-D",
            "range" => GA_Scan_copy says "outside",
            "small" => GA_Pack says "holds only 3",
            "type" => GA_Unpack says "differ in type",
            "op" => NGA_Select_elem says "avg",
            "null" => GA_Patch_enum says "start is NULL",
        ],
    );
}
