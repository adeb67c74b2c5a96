//! Keeping a one-machine Open MPI job off the network.
//!
//! By default Open MPI 4.1's TCP transport (the `tcp` BTL) opens a listening
//! socket on every interface in every process, spawned ones included, and
//! its `*_if_include` parameters only choose the addresses it advertises, not
//! where it listens. On one machine no process needs TCP: the ranks, the
//! `ga-server` and the tasks `pvm_spawn` starts (`MPI_Comm_spawn`) all talk
//! through shared memory when the UCX messaging layer carries MPI with only
//! its shared-memory transports. The TCP BTL alone cannot be dropped:
//! without it the shared-memory BTL cannot reach spawned processes. Where
//! Open MPI has no UCX component, the fallback keeps MPI's TCP traffic on
//! the loopback interface (its listeners still bind every interface).
//! The launcher's own listeners (`mpiexec`'s out-of-band channel) bind
//! every interface too; `PRELOAD_FILE`, preloaded into `mpiexec` alone,
//! moves them to loopback.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Variables that choose MPI's transports. If the user set any of them,
/// the choice is theirs and none of ours is added.
pub const CHOICE_VARS: &[&str] = &[
    "OMPI_MCA_pml",
    "OMPI_MCA_btl",
    "OMPI_MCA_pml_ucx_tls",
    "OMPI_MCA_pml_ucx_devices",
    "OMPI_MCA_btl_tcp_if_include",
    "OMPI_MCA_btl_tcp_if_exclude",
    "OMPI_MCA_oob_tcp_if_include",
    "OMPI_MCA_oob_tcp_if_exclude",
    "UCX_TLS",
];

/// The preload library (in mpbridge's library directory).
pub const PRELOAD_FILE: &str = "libmpbridge_loopback.so";

/// How a one-machine job is kept off the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalNet {
    /// MPI over UCX shared memory only: no process listens on TCP for MPI.
    SharedMemoryOnly,
    /// No UCX in this Open MPI: MPI's TCP traffic stays on loopback.
    LoopbackTraffic,
}

impl LocalNet {
    /// The variables that select it, in a stable order.
    pub fn env(self) -> Vec<(&'static str, OsString)> {
        let v = |s: &str| OsString::from(s);
        match self {
            LocalNet::SharedMemoryOnly => vec![
                ("OMPI_MCA_pml", v("ucx")),
                // Open MPI takes UCX only over the fast fabrics it lists
                // unless told that any transport and device will do.
                ("OMPI_MCA_pml_ucx_tls", v("any")),
                ("OMPI_MCA_pml_ucx_devices", v("any")),
                ("UCX_TLS", v("self,sm")),
                ("OMPI_MCA_btl", v("self,vader")),
                ("OMPI_MCA_oob_tcp_if_include", v("lo")),
            ],
            LocalNet::LoopbackTraffic => vec![
                ("OMPI_MCA_btl_tcp_if_include", v("lo")),
                ("OMPI_MCA_oob_tcp_if_include", v("lo")),
            ],
        }
    }
}

/// What to do for a job, given whether it runs on this machine only,
/// whether the MPI is Open MPI, whether the user chose transports
/// (`user_set` says whether a variable is set) and whether Open MPI has a
/// UCX component (asked only when needed).
pub fn choose(
    one_machine: bool,
    open_mpi: bool,
    user_set: impl Fn(&str) -> bool,
    has_ucx: impl FnOnce() -> bool,
) -> Option<LocalNet> {
    if !one_machine || !open_mpi || CHOICE_VARS.iter().any(|v| user_set(v)) {
        return None;
    }
    Some(if has_ucx() {
        LocalNet::SharedMemoryOnly
    } else {
        LocalNet::LoopbackTraffic
    })
}

/// `ompi_info` of this `mpiexec`: beside it (links resolved), else on PATH.
fn ompi_info(mpiexec: &Path) -> PathBuf {
    std::fs::canonicalize(mpiexec)
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("ompi_info")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("ompi_info"))
}

/// Whether `ompi_info --parsable` lists a component `mca:pml:ucx`.
pub fn lists_ucx(parsable: &str) -> bool {
    parsable.lines().any(|l| l.starts_with("mca:pml:ucx:"))
}

/// Where Open MPI installed below `prefix` (the directory holding `bin/`)
/// may keep its components: upstream's `lib/openmpi`, and Debian's
/// multiarch `lib/<triplet>/openmpi/lib/openmpi3`.
fn component_dirs(prefix: &Path) -> Vec<PathBuf> {
    let mut libs = vec![prefix.join("lib"), prefix.join("lib64")];
    if let Ok(rd) = std::fs::read_dir(prefix.join("lib")) {
        libs.extend(
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with("-linux-gnu")),
        );
    }
    let mut out = Vec::new();
    for lib in libs {
        for sub in ["openmpi", "openmpi/lib/openmpi3", "openmpi/lib/openmpi"] {
            out.push(lib.join(sub));
        }
    }
    out
}

/// Whether a component directory was found, and whether it has the UCX
/// messaging component: `None` when no directory with `mca_pml_*.so` is
/// there (components built in, or an unusual layout).
pub fn ucx_component(dirs: &[PathBuf]) -> Option<bool> {
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        let names: Vec<String> = rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        if names.iter().any(|n| n.starts_with("mca_pml_")) {
            return Some(names.iter().any(|n| n == "mca_pml_ucx.so"));
        }
    }
    None
}

/// Whether the Open MPI of `mpiexec` has its UCX messaging component: its
/// component files tell at once; `ompi_info` (a quarter of a second) only
/// when they cannot be found.
pub fn open_mpi_has_ucx(mpiexec: &Path) -> bool {
    let prefix = std::fs::canonicalize(mpiexec)
        .ok()
        .and_then(|p| p.parent()?.parent().map(Path::to_path_buf));
    if let Some(found) = prefix.and_then(|p| ucx_component(&component_dirs(&p))) {
        return found;
    }
    Command::new(ompi_info(mpiexec))
        .arg("--parsable")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| lists_ucx(&String::from_utf8_lossy(&o.stdout)))
}

/// The warning for [`LocalNet::LoopbackTraffic`].
pub const NO_UCX_WARNING: &str = "this Open MPI has no UCX component: MPI's TCP \
     traffic is kept on loopback, but its listening sockets stay open on every interface";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_machine_open_mpi_gets_shared_memory_only() {
        let c = choose(true, true, |_| false, || true);
        assert_eq!(c, Some(LocalNet::SharedMemoryOnly));
        let env = c.unwrap().env();
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(get("OMPI_MCA_pml"), Some("ucx".into()));
        assert_eq!(get("UCX_TLS"), Some("self,sm".into()));
        assert_eq!(get("OMPI_MCA_btl"), Some("self,vader".into()));
        assert_eq!(
            choose(true, true, |_| false, || false),
            Some(LocalNet::LoopbackTraffic)
        );
    }

    #[test]
    fn several_machines_other_mpis_and_user_choices_are_left_alone() {
        let never = || -> bool { panic!("ompi_info asked needlessly") };
        assert_eq!(choose(false, true, |_| false, never), None);
        assert_eq!(choose(true, false, |_| false, never), None);
        assert_eq!(choose(true, true, |v| v == "OMPI_MCA_btl", never), None);
        assert_eq!(choose(true, true, |v| v == "UCX_TLS", never), None);
    }

    #[test]
    fn ucx_is_found_among_the_component_files() {
        let root = std::env::temp_dir().join(format!("mpb-local-net-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let comp = root.join("lib/x86_64-linux-gnu/openmpi/lib/openmpi3");
        std::fs::create_dir_all(&comp).unwrap();
        let dirs = component_dirs(&root);
        assert_eq!(ucx_component(&dirs), None);
        std::fs::write(comp.join("mca_pml_ob1.so"), b"").unwrap();
        assert_eq!(ucx_component(&dirs), Some(false));
        std::fs::write(comp.join("mca_pml_ucx.so"), b"").unwrap();
        assert_eq!(ucx_component(&dirs), Some(true));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn ucx_is_found_in_ompi_info_output() {
        assert!(lists_ucx(
            "mca:btl:tcp:version:\"mca:2.1.0\"\nmca:pml:ucx:version:\"mca:2.1.0\"\n"
        ));
        assert!(!lists_ucx(
            "mca:pml:ob1:version:\"mca:2.1.0\"\nmca:osc:ucx:x\n"
        ));
    }
}
