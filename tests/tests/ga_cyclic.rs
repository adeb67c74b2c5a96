//! Block-cyclic arrays (`GA_Set_block_cyclic`,
//! `GA_Set_block_cyclic_proc_grid`, `GA_Set_tiled_proc_grid`) through the
//! C API (`ga/ga_cyclic.c`) and the Fortran one (`ga_fortran/cyclic.F90`),
//! on 1 to 4 compute ranks beside a `ga-server` and once with every
//! operation through the server (`MPBRIDGE_GA_REMOTE=1`).
//!
//! The program checks put, get, accumulate, read-increment, access block
//! by block and whole-array operations against a serial model on every
//! rank, and prints the layout (block grid, `NGA_Distribution` of each
//! block, `NGA_Locate`, `NGA_Locate_region`) and per-rank records. Debian's
//! GA 5.8 (on ARMCI-MPI) prints the same layout on 1 to 4 ranks, and runs
//! the whole program right on 4 ranks, where the whole output must match.
//! On 1 to 3 ranks its `NGA_Access_block_grid` of a tiled array returns
//! another block than the one asked for (its own checks fail, and on one
//! rank it then hangs), so there only its layout lines are compared and
//! ours must still pass every check.

use tests::ga_compare::{assert_tally, build, run, through_server, Ga};

/// The lines of a run that describe the layout (not the records, the
/// tally or the results of operations).
fn layout_lines(out: &str) -> Vec<&str> {
    let v: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("rank ") && !l.contains(" passed, ") && !l.contains(" ddot "))
        .collect();
    assert!(v.len() > 36, "too few layout lines:\n{out}");
    v
}

#[test]
fn c_block_cyclic_arrays_match_debian_ga() {
    same_as_debian("ga/ga_cyclic.c", "ga_cyclic", 29, 8);
}

#[test]
fn fortran_block_cyclic_arrays_match_debian_ga() {
    same_as_debian("ga_fortran/cyclic.F90", "cyclic", 19, 10);
}

/// Runs `source` (tally line `name`) as described above; a full run makes
/// at least `full_checks` checks per rank, a layout run `layout_checks`.
fn same_as_debian(source: &str, name: &str, full_checks: u32, layout_checks: u32) {
    let ours = build(source, Ga::Ours);
    let theirs = build(source, Ga::Debian);
    for np in [1, 2, 3, 4] {
        let want = run(&theirs, Ga::Debian, np, &["layout"], &[]);
        assert_tally(
            &want,
            name,
            &format!("the layout with Debian's GA on {np} ranks"),
            layout_checks * np,
        );
        let got = run(&ours, Ga::Ours, np, &["layout"], &[]);
        assert_tally(
            &got,
            name,
            &format!("the layout on {np} ranks"),
            layout_checks * np,
        );
        assert_eq!(
            got.stdout, want.stdout,
            "the layout on {np} ranks differs from Debian's GA"
        );
        let full = run(&ours, Ga::Ours, np, &[], &[]);
        assert_tally(
            &full,
            name,
            &format!("{name} on {np} ranks"),
            full_checks * np,
        );
        assert_eq!(
            layout_lines(&full.stdout),
            layout_lines(&got.stdout),
            "the full run on {np} ranks prints another layout"
        );
        if np == 4 {
            let want = run(&theirs, Ga::Debian, np, &[], &[]);
            assert_tally(
                &want,
                name,
                &format!("{name} with Debian's GA on 4 ranks"),
                full_checks * np,
            );
            assert_eq!(
                full.stdout, want.stdout,
                "{name} on 4 ranks differs from Debian's GA"
            );
        }
    }
    let local = run(&ours, Ga::Ours, 3, &[], &[]);
    let remote = through_server(&ours, name, 3, full_checks * 3);
    assert_eq!(
        remote.stdout, local.stdout,
        "{name} through the server differs from the shared-memory path"
    );
}
