//! GA's array properties (`GA_Set_property` "read_only" and "read_cache",
//! `GA_Unset_property`), user element types (`NGA_Register_type`,
//! `NGA_Deregister_type`, and arrays of a registered type: create,
//! inquire, put, get, access, copy, zero, gather, scatter, a type
//! deregistered while its array lives) and field access (`NGA_Get_field`,
//! `NGA_Put_field` and their non-blocking forms) through the C API
//! (`ga/ga_props.c`) and the Fortran one (`ga_fortran/props.F90`): type
//! codes and deregistration results as GA numbers them, data read back
//! unchanged under each property, and the real or imaginary parts of
//! double complex matrices and vectors read and written alone. Each program
//! checks every result against its own serial model; it runs on 1, 2 and
//! 4 compute ranks beside a `ga-server` and once on 4 with every operation
//! through the server (`MPBRIDGE_GA_REMOTE=1`), and Debian's GA 5.8 runs
//! the same source on the same rank counts: both must print the same.
//!
//! Debian's GA 5.8 steps `ld + 1` items from one row of a field buffer to
//! the next (found by running these programs against it); ours steps
//! `ld`, as GA documents, so the multi-row field patches run against ours
//! only (the C program's argument `ours`), with what Debian's GA refuses
//! or gets wrong on arrays of a registered type: `GA_Fill` ("type not
//! supported"), `NGA_Copy_patch` of 12-byte elements ("GA datatype cannot
//! be aligned") and, on 1 process, `GA_Zero` (its memory is corrupted:
//! `GA_Destroy` then fails in `MPI_Win_unlock_all`).

use tests::bad_calls;
use tests::ga_compare::{assert_bad_calls, ours_with_args, same_as_debian};

tests::twin_tests! {
    same_as_debian(.., &[1, 2, 4], 4);
    c_properties_types_and_fields_match_debian_ga("ga/ga_props.c", 12)
    fortran_properties_types_and_fields_match_debian_ga("ga_fortran/props.F90", 13)
}

/// Field patches of several rows with a leading dimension larger than the
/// patch: the items land `ld` apart and the gaps stay untouched. Arrays
/// of a registered type fill with one element's bytes, zero patches and
/// copy patches (the program checks them).
#[test]
fn field_patches_of_several_rows_follow_ld_and_user_types_fill() {
    for r in ours_with_args("ga/ga_props.c", "ga_props", &["ours"], |np| 29 * np) {
        assert!(
            r.stdout
                .contains("field real [1:3,1:3]: 11 12 13 21 22 23 31 32 33"),
            "{}",
            r.stdout
        );
    }
}

/// Each bad call ends the job on 2 ranks with a message naming the call;
/// the program never gets past it.
#[test]
fn bad_arguments_end_the_job_naming_the_call() {
    assert_bad_calls(
        "ga/ga_props.c",
        &[],
        bad_calls![
            "property" => GA_Set_property says "'write_only'",
            "twice" => GA_Set_property says "already has property",
            "field" => NGA_Get_field says "not inside the 16-byte elements",
            "ld" => NGA_Put_field says "ld[0] = 1",
            "size" => NGA_Register_type says "0 bytes",
            "arith" => GA_Scale says "not defined for arrays of type registered",
        ],
    );
}
