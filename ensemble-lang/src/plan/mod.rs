//! Launch planning: what both loaders start, as one MPMD `mpiexec` line
//! with one application context per process (consecutive identical ones
//! merged into `-n K`). [`mpi`] plans an `environment MPI;` composition,
//! [`pvm`] one for the PVM loader; [`weighted`] chooses hosts for a
//! composition without an allocation from its weights and a virtual
//! machine file.

use std::path::PathBuf;

pub mod mpi;
pub mod pvm;
pub mod weighted;

/// One process to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchUnit {
    /// Executable.
    pub exe: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Host to start it on (`None`: wherever mpiexec puts it).
    pub host: Option<String>,
}

/// The `mpiexec` arguments (after any global options) that start `units`
/// in order: rank `i` of `MPI_COMM_WORLD` runs `units[i]`.
pub fn mpmd_args(units: &[LaunchUnit]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let u = &units[i];
        let mut n = 1;
        while i + n < units.len() && units[i + n] == *u {
            n += 1;
        }
        if !out.is_empty() {
            out.push(":".to_string());
        }
        out.push("-n".to_string());
        out.push(n.to_string());
        if let Some(h) = &u.host {
            out.push("-host".to_string());
            out.push(h.clone());
        }
        out.push(u.exe.to_string_lossy().into_owned());
        out.extend(u.args.iter().cloned());
        i += n;
    }
    out
}

/// Whether `host` names this machine (no `-host` option needed for it).
pub fn is_local_host(host: &str) -> bool {
    if host == "localhost" || host == "127.0.0.1" {
        return true;
    }
    let me = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    !me.is_empty() && (host == me || me.split('.').next() == Some(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(exe: &str, args: &[&str], host: Option<&str>) -> LaunchUnit {
        LaunchUnit {
            exe: exe.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            host: host.map(str::to_string),
        }
    }

    #[test]
    fn identical_neighbours_merge_and_order_is_kept() {
        let u = vec![
            unit("/b/loader", &["x"], None),
            unit("/b/t", &[], None),
            unit("/b/t", &[], None),
            unit("/b/r", &["1"], Some("zeus")),
            unit("/b/t", &[], None),
        ];
        assert_eq!(
            mpmd_args(&u).join(" "),
            "-n 1 /b/loader x : -n 2 /b/t : -n 1 -host zeus /b/r 1 : -n 1 /b/t"
        );
    }

    #[test]
    fn localhost_is_local() {
        assert!(is_local_host("localhost"));
        assert!(!is_local_host("orion.example.invalid"));
    }
}
