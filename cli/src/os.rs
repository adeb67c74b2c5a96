//! The command's edge to the operating system: the one call of `mpbridge`
//! that needs `unsafe` (a hook that runs in a child between fork and exec).

/// Makes the command's process (mpiexec) end when `mpbridge run` does, so
/// killing the launcher still ends the job it waits for.
pub fn end_with_launcher(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes one async-signal-safe system call.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
}
