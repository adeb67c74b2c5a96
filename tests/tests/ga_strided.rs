//! `NGA_Strided_put/get/acc` (C, `int` and `int64_t` forms) and
//! `nga_strided_*` (Fortran) with a skip in every dimension, on 1 to 4
//! compute ranks beside a `ga-server` and once through the server path
//! (`MPBRIDGE_GA_REMOTE=1`). Each program checks itself against a serial
//! model and prints a digest of its arrays; the digests must be the ones
//! Debian's GA 5.8 prints running the same source.

use tests::ga_compare::{assert_tally, build, run, through_server, Ga};

/// Runs `source` built against Debian's GA and ours. On 1 to 3 compute
/// ranks the two print the same; on 4, Debian's GA 5.8 is wrong for the
/// 3-D array: its offset into the user's buffer for an owner whose block
/// starts past `lo` in the slowest dimension multiplies by one leading
/// dimension instead of their product (`gai_ComputePatchIndexWithSkip`),
/// so its own checks fail there. On 4 ranks only the lines of the 1-D and
/// 2-D arrays, which Debian's GA gets right, are compared, and ours must
/// still pass its serial checks.
fn same_as_debian(source: &str, name: &str, min: u32) {
    let ours = build(source, Ga::Ours);
    let theirs = build(source, Ga::Debian);
    for np in [1, 2, 3] {
        let want = run(&theirs, Ga::Debian, np, &[], &[]);
        assert_tally(
            &want,
            name,
            &format!("{name} with Debian's GA on {np} ranks"),
            min,
        );
        let got = run(&ours, Ga::Ours, np, &[], &[]);
        assert_tally(&got, name, &format!("{name} on {np} ranks"), min);
        assert_eq!(
            got.stdout, want.stdout,
            "{name} on {np} ranks differs from Debian's GA"
        );
    }
    let want = run(&theirs, Ga::Debian, 4, &[], &[]);
    let got = run(&ours, Ga::Ours, 4, &[], &[]);
    assert_tally(&got, name, &format!("{name} on 4 ranks"), min);
    let low_dim = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("1d ") || l.starts_with("2d "))
            .map(str::to_string)
            .collect()
    };
    assert!(!low_dim(&want.stdout).is_empty(), "{}", want.stdout);
    assert_eq!(
        low_dim(&got.stdout),
        low_dim(&want.stdout),
        "{name} on 4 ranks differs from Debian's GA"
    );
    let want = run(&theirs, Ga::Debian, 3, &[], &[]);
    let got = through_server(&ours, name, 3, min);
    assert_eq!(
        got.stdout, want.stdout,
        "{name} through the server differs from Debian's GA"
    );
}

#[test]
fn c_strided_transfers_match_debian_ga() {
    same_as_debian("ga/ga_strided.c", "ga_strided", 11);
}

#[test]
fn fortran_strided_transfers_match_debian_ga() {
    same_as_debian("ga_fortran/strided.F90", "strided", 9);
}

/// A skip below 1 ends the job with GA's error, naming the call.
#[test]
fn a_skip_of_zero_is_refused() {
    let ours = build("ga/ga_strided.c", Ga::Ours);
    let r = run(&ours, Ga::Ours, 2, &["badskip"], &[]);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        !r.timed_out && r.code != Some(0),
        "the job should fail:\n{all}"
    );
    assert!(!all.contains("the bad call returned"), "{all}");
    assert!(
        all.contains("NGA_Strided_get") && all.contains("invalid skip 0 in dimension 1"),
        "{all}"
    );
}
