//! The printer: script text from a parsed [`Script`] (rules, ranges and
//! parameters kept as written) or from an expanded [`Application`] (one
//! line per process and channel). What either prints parses back to the
//! same syntax tree or model, apart from source positions: comments and
//! layout are not kept.

use std::fmt::Write;

use crate::ast::*;
use crate::model::{Application, Environment};

/// Binding strength of the binary operators, as the parser groups them
/// (all left-associative); unary operators and operands bind tighter.
fn level(op: &str) -> u8 {
    match op {
        "||" => 0,
        "&&" => 1,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 2,
        "+" | "-" => 3,
        _ => 4,
    }
}

const UNARY_LEVEL: u8 = 5;

/// An integer as an expression that evaluates to it (the lexer reads
/// only non-negative literals, and `i64::MIN` has no literal at all).
fn int_text(n: i64) -> String {
    if n == i64::MIN {
        format!("({} - 1)", i64::MIN + 1)
    } else {
        n.to_string()
    }
}

/// `e` as text; wrapped in parentheses when it binds looser than `min`.
fn expr_at(e: &Expr, min: u8, out: &mut String) {
    match e {
        Expr::Int(n, _) if *n < 0 => {
            // Only a hand-built tree holds a negative literal.
            let _ = write!(out, "({})", int_text(*n));
        }
        Expr::Int(n, _) => {
            let _ = write!(out, "{n}");
        }
        Expr::Name(n, _) => out.push_str(n),
        Expr::Unary(op, a, _) => {
            out.push_str(op);
            if matches!(**a, Expr::Unary(..)) {
                // `- -x`, never `--x`.
                out.push(' ');
            }
            expr_at(a, UNARY_LEVEL, out);
        }
        Expr::Binary(op, a, b, _) => {
            let l = level(op);
            let wrap = l < min;
            if wrap {
                out.push('(');
            }
            expr_at(a, l, out);
            let _ = write!(out, " {op} ");
            expr_at(b, l + 1, out);
            if wrap {
                out.push(')');
            }
        }
        Expr::Call(f, args, _) => {
            out.push_str(f);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr_at(a, 0, out);
            }
            out.push(')');
        }
    }
}

/// An expression as script text, with only the parentheses it needs.
pub fn expr(e: &Expr) -> String {
    let mut s = String::new();
    expr_at(e, 0, &mut s);
    s
}

/// A string literal: `"..."` with `"` and `\` escaped.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A host name as written after `at`: bare when it reads back as the same
/// name (`node-1.lan`), otherwise as a string.
pub fn host(h: &str) -> String {
    let segments: Vec<&str> = h.split(['.', '-']).collect();
    let bare = segments.iter().enumerate().all(|(i, seg)| {
        let mut chars = seg.chars();
        match chars.next() {
            None => false,
            Some(c) if c.is_ascii_digit() => {
                // Read back as an integer: no leading zero, no overflow.
                seg.chars().all(|c| c.is_ascii_digit())
                    && (seg.len() == 1 || !seg.starts_with('0'))
                    && seg.len() <= 18
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                chars.all(|c| c.is_ascii_alphanumeric() || c == '_') && (i == 0 || *seg != "for")
            }
            Some(_) => false,
        }
    });
    if bare {
        h.to_string()
    } else {
        string(h)
    }
}

fn value(v: &Value) -> String {
    match v {
        Value::Int(e) => expr(e),
        Value::Str(s, _) => string(s),
    }
}

/// A value from the model: an integer when the text is one as the
/// expansion writes it, otherwise a string.
fn value_text(v: &str) -> String {
    match v.parse::<i64>() {
        Ok(n) if n.to_string() == v => int_text(n),
        _ => string(v),
    }
}

fn proc_ref(r: &ProcRef) -> String {
    match &r.index {
        IndexSet::One(i) => format!("{}[{}]", r.component, expr(i)),
        IndexSet::Range(lo, hi) => format!("{}[{}..{}]", r.component, expr(lo), expr(hi)),
    }
}

fn proc_list(v: &[ProcRef]) -> String {
    v.iter().map(proc_ref).collect::<Vec<_>>().join(", ")
}

/// ` for i in lo..hi, ... if cond`, or nothing.
fn rule(r: &Option<ForClause>) -> String {
    let Some(fc) = r else {
        return String::new();
    };
    let vars: Vec<String> = fc
        .vars
        .iter()
        .map(|(v, lo, hi, _)| format!("{v} in {}..{}", expr(lo), expr(hi)))
        .collect();
    let mut s = format!(" for {}", vars.join(", "));
    if let Some(c) = &fc.cond {
        let _ = write!(s, " if {}", expr(c));
    }
    s
}

fn endpoint(e: &EndpointRef) -> String {
    format!(
        "{}[{}].{}[{}]",
        e.component,
        expr(&e.index),
        e.port_type,
        expr(&e.port)
    )
}

fn compat_line(types: &[String], class: bool) -> String {
    if class {
        format!("{};", types.join(", "))
    } else {
        format!("{};", types.join(" <-> "))
    }
}

/// `script` as script text that parses back to the same syntax tree
/// (apart from positions). Sections come in the canonical order:
/// parameters, PCG, Parallel System, Sequential System.
pub fn script(s: &Script) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!("Application {}", s.name));
    if !s.params.is_empty() {
        line("Parameters".into());
        for (name, e, _) in &s.params {
            line(format!("{name} = {};", expr(e)));
        }
    }
    line("PCG".into());
    if !s.components.is_empty() {
        line("Components".into());
        for d in &s.components {
            let mut t = proc_list(&d.procs);
            if !d.ports.is_empty() {
                let groups: Vec<String> = d
                    .ports
                    .iter()
                    .map(|(ty, n, _)| format!("{ty}:{}", expr(n)))
                    .collect();
                let _ = write!(t, " #ports = {}", groups.join(", "));
            }
            line(format!("{t}{};", rule(&d.rule)));
        }
    }
    if !s.compat.is_empty() {
        line("Compatibility".into());
        for d in &s.compat {
            line(compat_line(&d.types, d.class));
        }
    }
    if !s.connections.is_empty() {
        line("Connections".into());
        for d in &s.connections {
            let tag = d
                .tag
                .as_ref()
                .map_or(String::new(), |t| format!(" tag {}", expr(t)));
            line(format!(
                "{} <-> {}{tag}{};",
                endpoint(&d.a),
                endpoint(&d.b),
                rule(&d.rule)
            ));
        }
    }
    line("Parallel System".into());
    if let Some(env) = &s.environment {
        line(format!("environment {};", env.name));
    }
    let annotated = s.request_id.is_some()
        || !s.contexts.is_empty()
        || !s.roots.is_empty()
        || !s.port_contexts.is_empty()
        || !s.arguments.is_empty()
        || !s.weights.is_empty();
    match &s.annotation {
        Some((word, _)) => line(format!("{word} annotation")),
        None if annotated => line("annotation".into()),
        None => {}
    }
    if s.request_id.is_some() {
        line("RequestID : default;".into());
    }
    if !s.contexts.is_empty() {
        line("Contexts".into());
        for d in &s.contexts {
            let group = match &d.group.index {
                None => d.group.name.clone(),
                Some(i) => format!("{}[{}]", d.group.name, expr(i)),
            };
            line(format!(
                "{}.{} = {group}{};",
                proc_list(&d.procs),
                d.context,
                rule(&d.rule)
            ));
        }
    }
    if !s.roots.is_empty() {
        line("Roots".into());
        for d in &s.roots {
            line(format!(
                "{}.{} = {} in {}{};",
                proc_list(&d.procs),
                d.root,
                proc_ref(&d.target),
                d.context,
                rule(&d.rule)
            ));
        }
    }
    if !s.port_contexts.is_empty() {
        line("Ports".into());
        for d in &s.port_contexts {
            line(format!(
                "{}.{} in {}{};",
                proc_list(&d.procs),
                d.port_type,
                d.context,
                rule(&d.rule)
            ));
        }
    }
    if !s.arguments.is_empty() {
        line("Arguments".into());
        for d in &s.arguments {
            line(format!(
                "{}.{} = {}{};",
                proc_list(&d.procs),
                d.name,
                value(&d.value),
                rule(&d.rule)
            ));
        }
    }
    if !s.weights.is_empty() {
        line("Weights".into());
        for d in &s.weights {
            line(format!(
                "{}: {}{};",
                proc_list(&d.procs),
                expr(&d.weight),
                rule(&d.rule)
            ));
        }
    }
    if !s.allocation.is_empty() {
        line("allocation".into());
        for d in &s.allocation {
            line(format!(
                "{} at {}{};",
                proc_list(&d.procs),
                host(&d.host),
                rule(&d.rule)
            ));
        }
    }
    line("Sequential System".into());
    if !s.locations.is_empty() {
        line("Location".into());
        for d in &s.locations {
            line(format!("{}: {};", d.component, string(&d.path)));
        }
    }
    if !s.proc_params.is_empty() {
        line("Parameters".into());
        for d in &s.proc_params {
            let vals: Vec<String> = d.values.iter().map(value).collect();
            line(format!(
                "{}: {}{};",
                proc_list(&d.procs),
                vals.join(", "),
                rule(&d.rule)
            ));
        }
    }
    out
}

/// The expanded `app` as an explicit script: no rules, one declaration
/// per run of like processes (`T[1..8] #ports = S:1;`), one line per
/// channel. Parsed again (without command-line parameters) it gives the
/// same model apart from source positions.
pub fn application(app: &Application) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    let label = |p: usize| {
        let pr = &app.processes[p];
        format!("{}[{}]", pr.component, int_text(pr.index))
    };
    line(format!("Application {}", app.name));
    if !app.info.params.is_empty() {
        line("Parameters".into());
        for (name, v) in &app.info.params {
            line(format!("{name} = {};", int_text(*v)));
        }
    }
    line("PCG".into());
    line("Components".into());
    let mut i = 0;
    while i < app.processes.len() {
        let first = &app.processes[i];
        // A run of processes of one component with consecutive indices and
        // the same ports.
        let mut end = i + 1;
        while end < app.processes.len() {
            let p = &app.processes[end];
            let prev = &app.processes[end - 1];
            if p.component != first.component
                || prev.index.checked_add(1) != Some(p.index)
                || p.ports != first.ports
            {
                break;
            }
            end += 1;
        }
        let last = &app.processes[end - 1];
        let mut t = if end - i == 1 {
            label(i)
        } else {
            format!(
                "{}[{}..{}]",
                first.component,
                int_text(first.index),
                int_text(last.index)
            )
        };
        if !first.ports.is_empty() {
            let groups: Vec<String> = first
                .ports
                .iter()
                .map(|g| format!("{}:{}", g.port_type, g.count))
                .collect();
            let _ = write!(t, " #ports = {}", groups.join(", "));
        }
        line(format!("{t};"));
        i = end;
    }
    if !app.info.compat.is_empty() {
        line("Compatibility".into());
        for r in &app.info.compat {
            line(compat_line(&r.types, r.class));
        }
    }
    if !app.channels.is_empty() {
        line("Connections".into());
        // Default numbering gives 1, 2, 3...; other tags are written out.
        let numbered = app
            .channels
            .iter()
            .enumerate()
            .all(|(k, c)| c.tag as i64 == k as i64 + 1);
        for c in &app.channels {
            let tag = if numbered {
                String::new()
            } else {
                format!(" tag {}", c.tag)
            };
            line(format!(
                "{}.{}[{}] <-> {}.{}[{}]{tag};",
                label(c.a.process),
                c.a.port_type,
                c.a.port,
                label(c.b.process),
                c.b.port_type,
                c.b.port
            ));
        }
    }
    line("Parallel System".into());
    match app.environment {
        Environment::Pvm3 => {
            line("environment PVM3;".into());
            line("PVM3 annotation".into());
            line("RequestID : default;".into());
        }
        Environment::Mpi => {
            line("environment MPI;".into());
            line("MPI annotation".into());
            line("RequestID : default;".into());
        }
    }
    if let Some(mpi) = &app.mpi {
        if !mpi.contexts.is_empty() {
            line("Contexts".into());
            for (p, ctx, group) in &mpi.contexts {
                line(format!("{}.{ctx} = {group};", label(*p)));
            }
        }
        if !mpi.roots.is_empty() {
            line("Roots".into());
            for (p, root, ctx, target) in &mpi.roots {
                line(format!(
                    "{}.{root} = {} in {ctx};",
                    label(*p),
                    label(*target)
                ));
            }
        }
        if !mpi.port_contexts.is_empty() {
            line("Ports".into());
            for (p, ty, ctx) in &mpi.port_contexts {
                line(format!("{}.{ty} in {ctx};", label(*p)));
            }
        }
        if !mpi.topology_args.is_empty() {
            line("Arguments".into());
            for (p, name, v) in &mpi.topology_args {
                line(format!("{}.{name} = {};", label(*p), value_text(v)));
            }
        }
    }
    if !app.weights.is_empty() {
        line("Weights".into());
        for (p, w) in &app.weights {
            line(format!("{}: {};", label(*p), w.value));
        }
    }
    if !app.allocation.is_empty() {
        line("allocation".into());
        for (p, place) in &app.allocation {
            line(format!("{} at {};", label(*p), host(&place.host)));
        }
    }
    line("Sequential System".into());
    if !app.locations.is_empty() {
        line("Location".into());
        for (c, loc) in &app.locations {
            line(format!("{c}: {};", string(&loc.path)));
        }
    }
    let with_params: Vec<usize> = (0..app.processes.len())
        .filter(|&p| !app.processes[p].params.is_empty())
        .collect();
    if !with_params.is_empty() {
        line("Parameters".into());
        for p in with_params {
            let vals: Vec<String> = app.processes[p]
                .params
                .iter()
                .map(|v| value_text(v))
                .collect();
            line(format!("{}: {};", label(p), vals.join(", ")));
        }
    }
    out
}
