//! Calls of Debian's `ga.h` that a user notices one by one
//! (`ga/ga_misc_calls.c`): `GA_Gop` on every type it reduces,
//! `GA_Randomize`/`NGA_Randomize` (values drawn from the C library's
//! `rand()` in the order GA walks a process's memory, so the same as
//! Debian's for the same distribution), `GA_Print_file` (what it writes to
//! the file), `GA_Deallocate` and a second `GA_Allocate` of the handle
//! (of `GA_Create_handle` and of `NGA_Create_irreg`, whose handle no
//! other array takes meanwhile), `GA_Register_stack_memory`,
//! `NGA_Set_tiled_irreg_proc_grid` (round trip, process grid, blocks
//! holding given elements), `GA_Overlay` (an array sharing its parent's
//! memory; block-cyclic and restricted arrays over a plain parent and a
//! plain one over a block-cyclic parent, where the parent's printed
//! contents show where each process's blocks lie; one too large) and
//! `GA_Getmem`/`GA_Assemble_duplicate`/`GA_Freemem`.
//!
//! Ours runs the whole program on 1, 2 and 4 compute ranks and on 4 with
//! every operation through the server (`MPBRIDGE_GA_REMOTE=1`), checking
//! itself. Then both run with the argument `debian`, which leaves out what
//! Debian's GA 5.8 gets wrong (a refused `GA_Overlay`, and destroying
//! `GA_Getmem` memory, abort its job), on 2 and 4 ranks (on 1 rank
//! Debian's GA corrupts its heap at `GA_Terminate` after
//! `GA_Assemble_duplicate`): the output must be identical.

use tests::ga_compare::model_then_debian_subset;

#[test]
fn misc_calls_match_debian_ga() {
    model_then_debian_subset(
        "ga/ga_misc_calls.c",
        "ga_misc_calls",
        (280, 280),
        &[2, 4],
        &[],
    );
}
