//! The `ga-server` data server.

/// Runs the server loop until the compute ranks terminate; returns the
/// process exit code.
pub fn run() -> i32 {
    eprintln!("ga-server: not yet available");
    1
}
