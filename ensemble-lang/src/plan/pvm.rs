//! The plan of the PVM loader: one MPMD launch whose rank 0 is the loader
//! (`mpbridge-ens-loader`, a PVM task) and whose other ranks pre-launch
//! every process of the composition, in script order, on its host, for the
//! loader's `pvm_spawn` to claim.

use super::LaunchUnit;
use crate::model::Application;
use std::path::PathBuf;

/// What to start: the loader first (rank 0), then every process of the
/// composition in order, each with its parameters and host.
pub fn plan(
    loader: LaunchUnit,
    app: &Application,
    exes: &[PathBuf],
    hosts: &[Option<String>],
) -> Vec<LaunchUnit> {
    let mut units = vec![loader];
    for (p, proc_) in app.processes.iter().enumerate() {
        units.push(LaunchUnit {
            exe: exes[p].clone(),
            args: proc_.params.clone(),
            host: hosts.get(p).cloned().flatten(),
        });
    }
    units
}
