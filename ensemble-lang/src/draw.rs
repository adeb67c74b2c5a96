//! Drawing the process communication graph: processes as nodes showing
//! their ports by type, channels as edges labelled with their tags, and on
//! MPI the symbolic groups as dashed nodes joined to their members.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::model::Application;

/// Above this many ports a node shows counts per type, not every port.
const MAX_DRAWN_PORTS: u32 = 16;

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Escapes text inside a Graphviz record label.
fn record_text(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "{}|<>\"\\ ".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn port_id(t: &str, k: u32) -> String {
    format!("{t}_{k}")
}

/// Graphviz source of the process communication graph.
pub fn to_dot(app: &Application) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "graph \"{}\" {{", quote(&app.name));
    let _ = writeln!(s, "  label=\"{}\";", quote(&app.name));
    let _ = writeln!(s, "  node [shape=record, fontname=\"Helvetica\"];");
    let _ = writeln!(s, "  edge [fontname=\"Helvetica\", fontsize=10];");
    for (i, p) in app.processes.iter().enumerate() {
        let total: u32 = p.ports.iter().map(|g| g.count).sum();
        let mut fields = Vec::new();
        for g in &p.ports {
            if total <= MAX_DRAWN_PORTS {
                for k in 1..=g.count {
                    fields.push(format!(
                        "<{}> {}",
                        port_id(&g.port_type, k),
                        record_text(&format!("{}[{k}]", g.port_type))
                    ));
                }
            } else {
                fields.push(record_text(&format!("{}:{}", g.port_type, g.count)));
            }
        }
        let title = record_text(&p.label());
        let label = if fields.is_empty() {
            title
        } else {
            format!("{{{title}|{{{}}}}}", fields.join("|"))
        };
        let _ = writeln!(s, "  p{i} [label=\"{}\"];", quote(&label));
    }
    for c in &app.channels {
        let end = |e: &crate::model::Endpoint| {
            let drawn = app.processes.get(e.process).is_some_and(|p| {
                p.ports.iter().map(|g| g.count).sum::<u32>() <= MAX_DRAWN_PORTS
                    && e.port >= 1
                    && e.port <= p.port_count(&e.port_type)
            });
            if drawn {
                format!("p{}:\"{}\"", e.process, port_id(&e.port_type, e.port))
            } else {
                format!("p{}", e.process)
            }
        };
        let _ = writeln!(s, "  {} -- {} [label=\"{}\"];", end(&c.a), end(&c.b), c.tag);
    }
    // MPI: each symbolic group is a dashed ellipse joined to its members
    // by dashed edges labelled with the member's context name.
    if let Some(mpi) = &app.mpi {
        let mut groups: Vec<&str> = Vec::new();
        for (_, _, g) in &mpi.contexts {
            if !groups.contains(&g.as_str()) {
                groups.push(g);
            }
        }
        for (k, g) in groups.iter().enumerate() {
            let _ = writeln!(
                s,
                "  g{k} [shape=ellipse, style=dashed, label=\"{}\"];",
                quote(g)
            );
        }
        for (p, ctx, g) in &mpi.contexts {
            let k = groups.iter().position(|x| x == g).unwrap_or(0);
            let _ = writeln!(
                s,
                "  p{p} -- g{k} [style=dashed, label=\"{}\"];",
                quote(ctx)
            );
        }
    }
    s.push_str("}\n");
    s
}

/// Renders the graph to an SVG file at `out` through Graphviz `dot -Tsvg`.
pub fn draw_svg(app: &Application, out: &Path) -> Result<(), String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .arg("-o")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run Graphviz `dot` (is graphviz installed?): {e}"))?;
    let src = to_dot(app);
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(src.as_bytes())
            .map_err(|e| format!("cannot send the graph to `dot`: {e}"))?;
    }
    let res = child
        .wait_with_output()
        .map_err(|e| format!("`dot` failed: {e}"))?;
    if res.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`dot -Tsvg -o {}` failed ({}): {}",
            out.display(),
            res.status,
            String::from_utf8_lossy(&res.stderr).trim()
        ))
    }
}
