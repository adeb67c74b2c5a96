//! The environment `mpbridge run` gives to `mpiexec` (and through it to every
//! rank): our library directory first on `LD_LIBRARY_PATH`, and the switches
//! Open MPI needs to run as root and to start more processes than cores
//! (ranks plus those PVM programs spawn later), and on one machine the
//! transports that keep MPI off the network (`local_net`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use crate::launcher::Flavour;
use crate::local_net::LocalNet;

/// What the environment depends on.
#[derive(Debug, Clone)]
pub struct EnvInputs<'a> {
    pub flavour: Flavour,
    pub is_root: bool,
    pub libdir: Option<&'a Path>,
    pub current_ld_library_path: Option<&'a OsStr>,
    /// How a one-machine job is kept off the network (`None`: as MPI likes).
    pub local_net: Option<LocalNet>,
    /// The library that keeps Open MPI's launcher listening on loopback
    /// (`local_net::PRELOAD_FILE` in the library directory), if present.
    pub loopback_preload: Option<&'a Path>,
    pub current_ld_preload: Option<&'a OsStr>,
}

/// [`launch_env`] for a job started from this process: its own
/// `LD_LIBRARY_PATH` and `LD_PRELOAD`, whether it runs as root, and the
/// loopback preload library of `libdir` when that is installed.
pub fn launch_env_here(
    flavour: Flavour,
    libdir: Option<&Path>,
    local_net: Option<LocalNet>,
) -> Vec<(&'static str, OsString)> {
    let current_ld = std::env::var_os("LD_LIBRARY_PATH");
    let current_preload = std::env::var_os("LD_PRELOAD");
    let preload = libdir
        .map(|d| d.join(crate::local_net::PRELOAD_FILE))
        .filter(|p| p.is_file());
    launch_env(&EnvInputs {
        flavour,
        is_root: crate::host::is_root(),
        libdir,
        current_ld_library_path: current_ld.as_deref(),
        local_net,
        loopback_preload: preload.as_deref(),
        current_ld_preload: current_preload.as_deref(),
    })
}

/// Variables to set in mpiexec's environment, in a stable order.
pub fn launch_env(inputs: &EnvInputs<'_>) -> Vec<(&'static str, OsString)> {
    let mut env = Vec::new();
    if let Some(dir) = inputs.libdir {
        env.push((
            "LD_LIBRARY_PATH",
            prepend_dir(dir, inputs.current_ld_library_path),
        ));
    }
    if inputs.flavour == Flavour::OpenMpi {
        if inputs.is_root {
            env.push(("OMPI_ALLOW_RUN_AS_ROOT", OsString::from("1")));
            env.push(("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", OsString::from("1")));
        }
        // Processes started later by pvm_spawn (MPI_Comm_spawn) need slots
        // too, and how many a program spawns is not known here: allow
        // more processes than cores whatever the initial count.
        env.push(("OMPI_MCA_rmaps_base_oversubscribe", OsString::from("1")));
        if let Some(net) = inputs.local_net {
            env.extend(net.env());
            if let Some(lib) = inputs.loopback_preload {
                // mpiexec only: the library drops itself from LD_PRELOAD
                // before mpiexec starts anything.
                let mut v = lib.as_os_str().to_os_string();
                if let Some(cur) = inputs.current_ld_preload.filter(|c| !c.is_empty()) {
                    v.push(":");
                    v.push(cur);
                }
                env.push(("LD_PRELOAD", v));
            }
        }
    }
    env
}

/// `dir` followed by the entries of `current`, without repeating `dir` and
/// without empty entries (an empty entry would mean "the current directory").
pub fn prepend_dir(dir: &Path, current: Option<&OsStr>) -> OsString {
    let dir_bytes = dir.as_os_str().as_bytes();
    let mut out: Vec<u8> = dir_bytes.to_vec();
    if let Some(current) = current {
        for entry in current.as_bytes().split(|&b| b == b':') {
            if entry.is_empty() || entry == dir_bytes {
                continue;
            }
            out.push(b':');
            out.extend_from_slice(entry);
        }
    }
    OsString::from_vec(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(flavour: Flavour, is_root: bool) -> EnvInputs<'static> {
        EnvInputs {
            flavour,
            is_root,
            libdir: Some(Path::new("/opt/mpb/lib")),
            current_ld_library_path: None,
            local_net: None,
            loopback_preload: None,
            current_ld_preload: None,
        }
    }

    fn names(env: &[(&'static str, OsString)]) -> Vec<&'static str> {
        env.iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn prepend_to_nothing() {
        assert_eq!(
            prepend_dir(Path::new("/a/lib"), None),
            OsString::from("/a/lib")
        );
        assert_eq!(
            prepend_dir(Path::new("/a/lib"), Some(OsStr::new(""))),
            OsString::from("/a/lib")
        );
    }

    #[test]
    fn prepend_keeps_others_and_drops_duplicates() {
        assert_eq!(
            prepend_dir(Path::new("/a/lib"), Some(OsStr::new("/x:/a/lib::/y:"))),
            OsString::from("/a/lib:/x:/y")
        );
    }

    #[test]
    fn open_mpi_as_root_and_oversubscribed() {
        let env = launch_env(&inputs(Flavour::OpenMpi, true));
        assert_eq!(
            names(&env),
            vec![
                "LD_LIBRARY_PATH",
                "OMPI_ALLOW_RUN_AS_ROOT",
                "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
                "OMPI_MCA_rmaps_base_oversubscribe"
            ]
        );
        assert_eq!(env[0].1, OsString::from("/opt/mpb/lib"));
        assert!(env[1..].iter().all(|(_, v)| v == "1"));
    }

    #[test]
    fn open_mpi_allows_spawning_beyond_the_cores() {
        let env = launch_env(&inputs(Flavour::OpenMpi, false));
        assert_eq!(
            names(&env),
            vec!["LD_LIBRARY_PATH", "OMPI_MCA_rmaps_base_oversubscribe"]
        );
    }

    #[test]
    fn one_machine_open_mpi_keeps_off_the_network() {
        let mut i = inputs(Flavour::OpenMpi, false);
        i.local_net = Some(LocalNet::SharedMemoryOnly);
        let lib = Path::new("/opt/mpb/lib/libmpbridge_loopback.so");
        i.loopback_preload = Some(lib);
        i.current_ld_preload = Some(OsStr::new("/x/liby.so"));
        let env = launch_env(&i);
        let n = names(&env);
        assert!(
            n.contains(&"OMPI_MCA_pml") && n.contains(&"UCX_TLS"),
            "{n:?}"
        );
        let preload = env.iter().find(|(k, _)| *k == "LD_PRELOAD").map(|(_, v)| v);
        assert_eq!(
            preload,
            Some(&OsString::from(
                "/opt/mpb/lib/libmpbridge_loopback.so:/x/liby.so"
            ))
        );
        // Only Open MPI understands these.
        let mut m = inputs(Flavour::Mpich, false);
        m.local_net = Some(LocalNet::SharedMemoryOnly);
        assert_eq!(names(&launch_env(&m)), vec!["LD_LIBRARY_PATH"]);
    }

    #[test]
    fn mpich_needs_nothing_special() {
        let env = launch_env(&inputs(Flavour::Mpich, true));
        assert_eq!(names(&env), vec!["LD_LIBRARY_PATH"]);
    }

    #[test]
    fn no_libdir_no_library_path() {
        let mut i = inputs(Flavour::Unknown, false);
        i.libdir = None;
        assert!(launch_env(&i).is_empty());
    }
}
