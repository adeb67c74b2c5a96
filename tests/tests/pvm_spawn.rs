//! `pvm_spawn` as PVM defines it: children start in their parent's
//! context; `where` with PvmTaskHost/PvmTaskArch places them or gives
//! PvmNoHost; what cannot run is PvmNoFile and does not end the job. C programs built against the installed `pvm3.h` and run under
//! `mpiexec` with a hard timeout.

use tests::mpirun::Run;
use tests::native::run_program;
use tests::tally::job_passed;

/// Every parent printed a tally with no failure, and the job ended well.
fn parents_pass(r: &Run, parents: usize, what: &str) {
    job_passed(r, "", parents, what);
}

/// A child's first `pvm_getcontext()` is the context its parent spawned it
/// in, and its first send matches only there: 8 children from one parent,
/// 4 under each of two new contexts, all alive beside the parent (more
/// processes than cores). Two spawn calls only: Open MPI 4.1 now and then
/// hangs in a spawn's PMIx exchange (child in `PMIx_Init`, parent in
/// connect/accept) when a job spawns again while earlier children leave,
/// or from several processes at once; runs of 4 and 8 spawn calls hung in
/// clean-clone test runs.
#[test]
fn children_start_in_the_parents_context() {
    let r = run_program("pvm_context_spawn.c", &["pvm3"], 1, &["1", "4"], 120);
    parents_pass(&r, 1, "one parent");
}

/// PvmTaskHost places the task on a host of the job ("." = this one) and
/// an unknown host is PvmNoHost in every slot; PvmTaskArch likewise; a
/// `where` without either flag is ignored, as in PVM.
#[test]
fn where_and_host_flags_place_or_refuse() {
    let r = run_program("pvm_spawn_where.c", &["pvm3"], 2, &[], 90);
    parents_pass(&r, 1, "pvm_spawn_where");
    // PvmAutoErr is 0 around the refused spawns: nothing is printed.
    r.assert_stderr_lacks("libpvm [", "on stderr");
}

/// A file of random bytes, a script with a missing interpreter and a
/// missing file are PvmNoFile; /bin/false gets tids and exit notices; the
/// job is not aborted and a child still starts afterwards.
#[test]
fn unrunnable_programs_are_no_file_and_a_failing_one_does_not_end_the_job() {
    let r = run_program("pvm_spawn_fail.c", &["pvm3"], 1, &[], 90);
    parents_pass(&r, 1, "pvm_spawn_fail");
    r.assert_stderr_lacks("aborted", "on stderr");
    r.assert_stderr_lacks("libpvm [", "on stderr");
}
