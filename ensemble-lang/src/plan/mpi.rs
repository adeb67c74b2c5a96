//! The plan of the MPI loader: one MPMD launch of every process of an
//! `environment MPI;` composition. Process N of the script (1-based) is rank N-1 of
//! `MPI_COMM_WORLD`; its envelope (contexts as group names, roots, ports,
//! topology arguments) goes on its command line in the form described in
//! [`crate::envargs`], followed by its application parameters.

use super::LaunchUnit;
use crate::envargs::{EnvSpec, PortBinding, RootBinding};
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::path::Path;

    fn servers() -> Application {
        let src = include_str!("../../../examples/ensemble/compositions/getmax-mpi-servers.ens");
        crate::parse_str(src, Path::new("servers.ens"), &BTreeMap::new()).expect("parses")
    }

    #[test]
    fn server_envelope_binds_contexts_roots_ring_ports_and_ring_size() {
        let app = servers();
        let s2 = app.find("S", 2).unwrap();
        let (s1, s3) = (app.find("S", 1).unwrap(), app.find("S", 3).unwrap());
        let e = envelope(&app, s2).unwrap();
        assert_eq!(e.id, s2 as i32);
        assert_eq!(e.name, "S[2]");
        assert_eq!(e.groups, vec!["Servers", "TG1", "TG2", "TG3"]);
        assert_eq!(e.group_of("TerminalGroup"), Some("TG2"));
        assert_eq!(e.group_of("ServerGroup"), Some("Servers"));
        assert_eq!(e.roots.len(), 1);
        assert_eq!(e.roots[0].id, s2 as i32);
        let out = e.ports.iter().find(|p| p.port_type == "Out").unwrap();
        let inp = e.ports.iter().find(|p| p.port_type == "In").unwrap();
        assert_eq!((out.peer, inp.peer), (s3 as i32, s1 as i32));
        assert_eq!(out.context, "ServerGroup");
        assert_ne!(out.tag, inp.tag, "each channel has its own tag");
        assert_eq!(e.args, vec![("RingSize".to_string(), "3".to_string())]);
    }

    #[test]
    fn terminal_root_is_its_server() {
        let app = servers();
        let t3 = app.find("T", 3).unwrap();
        let e = envelope(&app, t3).unwrap();
        assert_eq!(e.group_of("LocalGroup"), Some("TG2"));
        assert_eq!(e.roots[0].id, app.find("S", 2).unwrap() as i32);
        assert!(e.ports.is_empty());
    }

    #[test]
    fn plan_puts_envelope_before_parameters_in_process_order() {
        let app = servers();
        let exes: Vec<PathBuf> = app
            .processes
            .iter()
            .map(|p| PathBuf::from(format!("/bin/{}", p.component)))
            .collect();
        let units = plan(&app, &exes, &[]).unwrap();
        assert_eq!(units.len(), app.processes.len());
        for (u, p) in units.iter().zip(&app.processes) {
            assert_eq!(u.exe, PathBuf::from(format!("/bin/{}", p.component)));
            let end = u
                .args
                .iter()
                .position(|a| a == crate::envargs::END)
                .unwrap();
            assert_eq!(u.args[0], crate::envargs::BEGIN);
            assert_eq!(&u.args[end + 1..], p.params.as_slice());
        }
    }

    #[test]
    fn a_port_without_context_is_refused() {
        let mut app = servers();
        let s1 = app.find("S", 1).unwrap();
        app.mpi
            .as_mut()
            .unwrap()
            .port_contexts
            .retain(|(p, t, _)| !(*p == s1 && t == "Out"));
        let e = envelope(&app, s1).unwrap_err();
        assert!(e.contains("S[1]") && e.contains("Out"), "{e}");
    }
}
