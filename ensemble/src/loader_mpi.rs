//! The MPI loader: one MPMD launch of every process of an `environment MPI;`
//! composition. Process N of the script (1-based) is rank N-1 of
//! `MPI_COMM_WORLD`; its envelope (contexts as group names, roots, ports,
//! topology arguments) goes on its command line in the form described in
//! [`crate::envargs`], followed by its application parameters.

use crate::envargs::{EnvSpec, PortBinding, RootBinding};
use crate::launch::LaunchUnit;
use crate::model::Application;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The envelope of process `p`, or what is missing from the annotation.
pub fn envelope(app: &Application, p: usize) -> Result<EnvSpec, String> {
    let empty = Default::default();
    let mpi = app.mpi.as_ref().unwrap_or(&empty);
    let groups: BTreeSet<&String> = mpi.contexts.iter().map(|(_, _, g)| g).collect();
    let proc_ = &app.processes[p];
    let label = proc_.label();
    let contexts: Vec<(String, String)> = mpi
        .contexts
        .iter()
        .filter(|(q, _, _)| *q == p)
        .map(|(_, c, g)| (c.clone(), g.clone()))
        .collect();
    let group_of = |q: usize, ctx: &str| {
        mpi.contexts
            .iter()
            .find(|(x, c, _)| *x == q && c == ctx)
            .map(|(_, _, g)| g.clone())
    };
    let in_group = |q: usize, g: &str| mpi.contexts.iter().any(|(x, _, gg)| *x == q && gg == g);
    let mut roots = Vec::new();
    for (_, name, ctx, root) in mpi.roots.iter().filter(|r| r.0 == p) {
        let g = group_of(p, ctx).ok_or_else(|| {
            format!(
                "{label}: root {name} is in context {ctx}, which {label} does not bind to a group"
            )
        })?;
        if !in_group(*root, &g) {
            return Err(format!(
                "{label}: root {name} is {}, which is not in group {g} (context {ctx})",
                app.processes[*root].label()
            ));
        }
        roots.push(RootBinding {
            name: name.clone(),
            context: ctx.clone(),
            id: *root as i32,
        });
    }
    let mut ports = Vec::new();
    for (ty, index, peer, tag) in app.bindings(p) {
        let ctx = mpi
            .port_contexts
            .iter()
            .find(|(q, t, _)| *q == p && *t == ty)
            .map(|(_, _, c)| c.clone())
            .ok_or_else(|| {
                format!("{label}: port type {ty} has no context (add `{label}.{ty} in CONTEXT;` under Ports)")
            })?;
        let g = group_of(p, &ctx).ok_or_else(|| {
            format!("{label}: port {ty}[{index}] is in context {ctx}, which {label} does not bind to a group")
        })?;
        if !in_group(peer, &g) {
            return Err(format!(
                "{label}: port {ty}[{index}] is connected to {}, which is not in group {g} (context {ctx})",
                app.processes[peer].label()
            ));
        }
        ports.push(PortBinding {
            port_type: ty,
            index,
            context: ctx,
            peer: peer as i32,
            tag,
        });
    }
    let args = mpi
        .topology_args
        .iter()
        .filter(|(q, _, _)| *q == p)
        .map(|(_, n, v)| (n.clone(), v.clone()))
        .collect();
    Ok(EnvSpec {
        id: p as i32,
        name: label,
        groups: groups.into_iter().cloned().collect(),
        contexts,
        roots,
        ports,
        args,
    })
}

/// What to start: `exes[p]` is process p's executable, `hosts[p]` its host
/// (already mapped to a real machine; `None` for anywhere). Rank i runs
/// process i+1.
pub fn plan(
    app: &Application,
    exes: &[PathBuf],
    hosts: &[Option<String>],
) -> Result<Vec<LaunchUnit>, Vec<String>> {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    for (p, proc_) in app.processes.iter().enumerate() {
        match envelope(app, p) {
            Ok(env) => {
                let mut args = env.to_args();
                args.extend(proc_.params.iter().cloned());
                units.push(LaunchUnit {
                    exe: exes[p].clone(),
                    args,
                    host: hosts.get(p).cloned().flatten(),
                });
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(units)
    } else {
        Err(errors)
    }
}
