//! Expansion: a parsed [`Script`] and the parameter values in force give
//! the explicit [`Application`]: ranges and rules unrolled, expressions
//! evaluated, processes and ports resolved, tags assigned.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::model::*;

/// Most iterations one rule or range may make, and most processes a
/// composition may have: a typo such as `1..1000000000` must give an
/// error, not exhaust the machine.
pub const MAX_EXPANSION: i64 = 100_000;
pub const MAX_PROCESSES: usize = 100_000;
/// Most work (rule cases, indices and ports, summed over the script) one
/// expansion may do.
pub const MAX_WORK: i64 = 1_000_000;

type EResult<T> = Result<T, (Span, String)>;

/// Parameter values and the index variables of the rule being unrolled.
#[derive(Clone, Debug)]
struct Env {
    params: BTreeMap<String, i64>,
    vars: Vec<(String, i64)>,
    /// Work left (see [`MAX_WORK`]).
    work: Cell<i64>,
}

impl Default for Env {
    fn default() -> Self {
        Env {
            params: BTreeMap::new(),
            vars: Vec::new(),
            work: Cell::new(MAX_WORK),
        }
    }
}

impl Env {
    /// Takes `n` units of work, or says the script expands to too much.
    fn spend(&self, n: i64, span: Span) -> EResult<()> {
        let left = self.work.get().saturating_sub(n.max(0));
        self.work.set(left);
        if left < 0 {
            Err((
                span,
                format!("the composition expands to more than {MAX_WORK} processes, ports, channels and rule cases together"),
            ))
        } else {
            Ok(())
        }
    }

    fn get(&self, name: &str) -> Option<i64> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|v| v.1)
            .or_else(|| self.params.get(name).copied())
    }
}

fn eval(e: &Expr, env: &Env) -> EResult<i64> {
    let overflow = |sp: Span| (sp, "arithmetic overflow".to_string());
    match e {
        Expr::Int(n, _) => Ok(*n),
        Expr::Name(n, sp) => env.get(n).ok_or_else(|| {
            (
                *sp,
                format!(
                    "unknown name `{n}` (declare it with `Parameters {n} = ...;` or bind it with `for {n} in ...`)"
                ),
            )
        }),
        Expr::Unary(op, a, sp) => {
            let a = eval(a, env)?;
            match *op {
                "-" => a.checked_neg().ok_or_else(|| overflow(*sp)),
                _ => Ok((a == 0) as i64),
            }
        }
        Expr::Binary(op, a, b, sp) => {
            let x = eval(a, env)?;
            let y = eval(b, env)?;
            let r = match *op {
                "+" => x.checked_add(y),
                "-" => x.checked_sub(y),
                "*" => x.checked_mul(y),
                "/" | "%" if y == 0 => {
                    return Err((*sp, format!("`{op}` by zero")));
                }
                "/" => x.checked_div_euclid(y),
                "%" => x.checked_rem_euclid(y),
                "==" => Some((x == y) as i64),
                "!=" => Some((x != y) as i64),
                "<" => Some((x < y) as i64),
                "<=" => Some((x <= y) as i64),
                ">" => Some((x > y) as i64),
                ">=" => Some((x >= y) as i64),
                "&&" => Some((x != 0 && y != 0) as i64),
                "||" => Some((x != 0 || y != 0) as i64),
                _ => None,
            };
            r.ok_or_else(|| overflow(*sp))
        }
        Expr::Call(f, args, sp) => {
            let vals = args
                .iter()
                .map(|a| eval(a, env))
                .collect::<EResult<Vec<i64>>>()?;
            match (f.as_str(), vals.as_slice()) {
                ("min", [_, ..]) => Ok(*vals.iter().min().unwrap_or(&0)),
                ("max", [_, ..]) => Ok(*vals.iter().max().unwrap_or(&0)),
                ("abs", [a]) => a.checked_abs().ok_or_else(|| overflow(*sp)),
                ("min" | "max", _) => Err((*sp, format!("`{f}` needs at least one argument"))),
                ("abs", _) => Err((*sp, "`abs` takes one argument".into())),
                _ => Err((
                    *sp,
                    format!("unknown function `{f}` (known: min, max, abs)"),
                )),
            }
        }
    }
}

/// Calls `f` once per binding of the rule's variables (once with no
/// rule), in order, skipping bindings whose `if` condition is false.
fn for_each(
    rule: &Option<ForClause>,
    env: &mut Env,
    f: &mut dyn FnMut(&Env) -> EResult<()>,
) -> EResult<()> {
    match rule {
        None => f(env),
        Some(fc) => {
            let mut budget = MAX_EXPANSION;
            unroll(fc, 0, env, &mut budget, f)
        }
    }
}

fn unroll(
    fc: &ForClause,
    k: usize,
    env: &mut Env,
    budget: &mut i64,
    f: &mut dyn FnMut(&Env) -> EResult<()>,
) -> EResult<()> {
    if k == fc.vars.len() {
        if let Some(c) = &fc.cond {
            if eval(c, env)? == 0 {
                return Ok(());
            }
        }
        return f(env);
    }
    let (name, lo, hi, sp) = &fc.vars[k];
    let lo = eval(lo, env)?;
    let hi = eval(hi, env)?;
    let mut i = lo;
    while i <= hi {
        env.spend(1, *sp)?;
        *budget -= 1;
        if *budget < 0 {
            return Err((
                *sp,
                format!("rule unrolls to more than {MAX_EXPANSION} cases"),
            ));
        }
        env.vars.push((name.clone(), i));
        let r = unroll(fc, k + 1, env, budget, f);
        env.vars.pop();
        r?;
        i += 1;
    }
    Ok(())
}

/// The indices a `[i]` or `[lo..hi]` denotes.
fn indices(set: &IndexSet, env: &Env) -> EResult<Vec<i64>> {
    match set {
        IndexSet::One(e) => Ok(vec![eval(e, env)?]),
        IndexSet::Range(lo, hi) => {
            let a = eval(lo, env)?;
            let b = eval(hi, env)?;
            if b >= a && (b - a) >= MAX_EXPANSION {
                return Err((
                    lo.span(),
                    format!("range {a}..{b} has more than {MAX_EXPANSION} indices"),
                ));
            }
            env.spend(b.saturating_sub(a).saturating_add(1), lo.span())?;
            Ok((a..=b).collect())
        }
    }
}

struct Expander<'a> {
    file: &'a Path,
    app: Application,
    by_name: HashMap<(String, i64), usize>,
    errors: Vec<Diagnostic>,
}

impl Expander<'_> {
    fn error(&mut self, (span, msg): (Span, String)) {
        self.errors.push(Diagnostic::error(self.file, span, msg));
    }

    /// An error about something done twice, pointing at the first time too.
    fn error_twice(&mut self, span: Span, msg: String, first: Span) {
        self.errors
            .push(Diagnostic::error(self.file, span, msg).with_related(first, "first here"));
    }

    /// The process a reference names, or an error saying why none.
    fn lookup(&self, component: &str, index: i64, span: Span) -> EResult<usize> {
        if let Some(&p) = self.by_name.get(&(component.to_string(), index)) {
            return Ok(p);
        }
        if self.app.info.component_spans.contains_key(component) {
            let mut ids: Vec<i64> = self
                .app
                .processes
                .iter()
                .filter(|p| p.component == component)
                .map(|p| p.index)
                .collect();
            ids.sort_unstable();
            Err((
                span,
                format!(
                    "no process {component}[{index}]: component {component} has {}",
                    describe_indices(&ids)
                ),
            ))
        } else {
            Err((
                span,
                format!(
                    "unknown component `{component}` (not declared under Components/Processes)"
                ),
            ))
        }
    }

    fn procs(&self, refs: &[ProcRef], env: &Env) -> EResult<Vec<usize>> {
        let mut out = Vec::new();
        for r in refs {
            for i in indices(&r.index, env)? {
                out.push(self.lookup(&r.component, i, r.span)?);
            }
        }
        Ok(out)
    }
}

/// `indices 1..8` or `indices 1, 3, 5`.
fn describe_indices(ids: &[i64]) -> String {
    if ids.is_empty() {
        return "no processes".into();
    }
    let contiguous = ids.windows(2).all(|w| w[1] == w[0] + 1);
    if contiguous && ids.len() > 1 {
        format!("indices {}..{}", ids[0], ids[ids.len() - 1])
    } else {
        let v: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
        format!("indices {}", v.join(", "))
    }
}

fn value_text(v: &Value, env: &Env) -> EResult<String> {
    match v {
        Value::Int(e) => Ok(eval(e, env)?.to_string()),
        Value::Str(s, _) => Ok(s.clone()),
    }
}

/// Expands `script` (read from `file`) with the command-line parameter
/// values `cli`, which override the script's `Parameters` defaults.
pub fn expand(
    script: &Script,
    file: &Path,
    cli: &BTreeMap<String, i64>,
) -> Result<Application, Vec<Diagnostic>> {
    let mut x = Expander {
        file,
        app: Application {
            name: script.name.clone(),
            source: file.to_path_buf(),
            ..Application::default()
        },
        by_name: HashMap::new(),
        errors: Vec::new(),
    };

    // Parameters: defaults in order, each may use the earlier ones.
    let mut env = Env::default();
    let mut seen = BTreeMap::new();
    for (name, e, sp) in &script.params {
        if let Some(first) = seen.insert(name.clone(), *sp) {
            let msg = format!(
                "parameter {name} is defined twice (first at {}:{})",
                first.line, first.col
            );
            x.error_twice(*sp, msg, first);
            continue;
        }
        let v = match cli.get(name) {
            Some(v) => *v,
            None => match eval(e, &env) {
                Ok(v) => v,
                Err(err) => {
                    x.error(err);
                    continue;
                }
            },
        };
        env.params.insert(name.clone(), v);
    }
    for name in cli.keys() {
        if !seen.contains_key(name) {
            let declared: Vec<&str> = seen.keys().map(String::as_str).collect();
            x.error((
                script.name_span,
                format!(
                    "parameter {name} is given on the command line but the script does not declare it (it declares: {})",
                    if declared.is_empty() { "none".to_string() } else { declared.join(", ") }
                ),
            ));
        }
    }
    x.app.info.params = env.params.clone();

    // Environment.
    match &script.environment {
        None => x.error((
            script.name_span,
            "no `environment PVM3;` or `environment MPI;` in the Parallel System part".into(),
        )),
        Some(d) => {
            x.app.info.environment_span = d.span;
            match d.name.to_ascii_uppercase().as_str() {
                "PVM3" | "PVM" => x.app.environment = Environment::Pvm3,
                "MPI" => x.app.environment = Environment::Mpi,
                _ => x.error((
                    d.span,
                    format!("unknown environment `{}` (expected PVM3 or MPI)", d.name),
                )),
            }
        }
    }
    if let Some((kind, sp)) = &script.annotation {
        let want = if kind == "MPI" {
            Environment::Mpi
        } else {
            Environment::Pvm3
        };
        if script.environment.is_some() && want != x.app.environment {
            x.error((
                *sp,
                format!(
                    "`{kind} annotation` does not match `environment {}`",
                    script.environment.as_ref().map_or("", |d| d.name.as_str())
                ),
            ));
        }
    }

    // Processes.
    for d in &script.components {
        let mut err = None;
        let mut new: Vec<Process> = Vec::new();
        let r = for_each(&d.rule, &mut env, &mut |env| {
            let mut ports: Vec<PortGroup> = Vec::new();
            for (t, n, sp) in &d.ports {
                let n = eval(n, env)?;
                if !(0..=MAX_EXPANSION).contains(&n) {
                    return Err((
                        *sp,
                        format!("port count {n} of type {t} is not between 0 and {MAX_EXPANSION}"),
                    ));
                }
                if ports.iter().any(|g| &g.port_type == t) {
                    return Err((*sp, format!("port type {t} is given twice")));
                }
                ports.push(PortGroup {
                    port_type: t.clone(),
                    count: n as u32,
                });
            }
            let total: i64 = ports.iter().map(|g| g.count as i64).sum();
            for r in &d.procs {
                for i in indices(&r.index, env)? {
                    env.spend(total, r.span)?;
                    new.push(Process {
                        component: r.component.clone(),
                        index: i,
                        ports: ports.clone(),
                        params: Vec::new(),
                        span: r.span,
                    });
                }
            }
            if new.len() > MAX_PROCESSES {
                return Err((d.span, format!("more than {MAX_PROCESSES} processes")));
            }
            Ok(())
        });
        if let Err(e) = r {
            err = Some(e);
        }
        if let Some(e) = err {
            x.error(e);
            continue;
        }
        for p in new {
            x.app
                .info
                .component_spans
                .entry(p.component.clone())
                .or_insert(p.span);
            let key = (p.component.clone(), p.index);
            if let Some(&first) = x.by_name.get(&key) {
                let f = x.app.processes[first].span;
                let msg = format!(
                    "process {} is declared twice (first at {}:{})",
                    p.label(),
                    f.line,
                    f.col
                );
                x.error_twice(p.span, msg, f);
                continue;
            }
            if x.app.processes.len() >= MAX_PROCESSES {
                x.error((d.span, format!("more than {MAX_PROCESSES} processes")));
                break;
            }
            x.by_name.insert(key, x.app.processes.len());
            x.app.processes.push(p);
        }
    }

    // Compatibility declarations.
    x.app.info.compat.extend(script.compat.iter().cloned());

    // Channels (tags: explicit ones first, then default numbering).
    let mut chans: Vec<(Channel, Option<i32>, (Span, Span))> = Vec::new();
    for d in &script.connections {
        let mut out = Vec::new();
        let xr = &x;
        let r = for_each(&d.rule, &mut env, &mut |env| {
            let end = |e: &EndpointRef| -> EResult<Endpoint> {
                let i = eval(&e.index, env)?;
                let p = xr.lookup(&e.component, i, e.span)?;
                let port = eval(&e.port, env)?;
                if port < 0 || port > u32::MAX as i64 {
                    let n = xr.app.processes[p].port_count(&e.port_type);
                    return Err((
                        e.port_span,
                        format!(
                            "port index {port} outside {}.{}[1..{n}]",
                            xr.app.processes[p].label(),
                            e.port_type
                        ),
                    ));
                }
                Ok(Endpoint {
                    process: p,
                    port_type: e.port_type.clone(),
                    port: port as u32,
                })
            };
            env.spend(1, d.span)?;
            let a = end(&d.a)?;
            let b = end(&d.b)?;
            let tag = match &d.tag {
                None => None,
                Some(t) => {
                    let v = eval(t, env)?;
                    if v < 1 || v > i32::MAX as i64 {
                        return Err((
                            t.span(),
                            format!("tag {v} is not a positive 32-bit integer"),
                        ));
                    }
                    Some(v as i32)
                }
            };
            out.push((
                Channel {
                    a,
                    b,
                    tag: 0,
                    span: d.span,
                },
                tag,
                (d.a.port_span, d.b.port_span),
            ));
            if out.len() as i64 > MAX_EXPANSION {
                return Err((d.span, "too many channels".into()));
            }
            Ok(())
        });
        match r {
            Ok(()) => chans.extend(out),
            Err(e) => x.error(e),
        }
    }
    let used: BTreeSet<i32> = chans.iter().filter_map(|c| c.1).collect();
    let mut next = 1i32;
    for (mut c, tag, spans) in chans {
        c.tag = match tag {
            Some(t) => t,
            None => {
                while used.contains(&next) {
                    next = next.saturating_add(1);
                }
                let t = next;
                next = next.saturating_add(1);
                t
            }
        };
        x.app.channels.push(c);
        x.app.info.endpoint_spans.push(spans);
    }

    // Allocation.
    let mut placed: Vec<(usize, Placement, Span)> = Vec::new();
    for d in &script.allocation {
        let xr = &x;
        let r = for_each(&d.rule, &mut env, &mut |env| {
            for p in xr.procs(&d.procs, env)? {
                placed.push((
                    p,
                    Placement {
                        host: d.host.clone(),
                        span: d.host_span,
                    },
                    d.procs[0].span,
                ));
            }
            Ok(())
        });
        if let Err(e) = r {
            x.error(e);
        }
    }
    for (p, pl, sp) in placed {
        if let Some(first) = x.app.allocation.get(&p) {
            let msg = format!(
                "process {} is allocated twice (first at {}:{})",
                x.app.processes[p].label(),
                first.span.line,
                first.span.col
            );
            let first = first.span;
            x.error_twice(sp, msg, first);
        } else {
            x.app.allocation.insert(p, pl);
        }
    }

    // Weights (either annotation): a later line for a process replaces
    // an earlier one.
    let mut weighed: Vec<(usize, Weight)> = Vec::new();
    for d in &script.weights {
        let xr = &x;
        let r = for_each(&d.rule, &mut env, &mut |env| {
            let v = eval(&d.weight, env)?;
            if v < 1 {
                return Err((
                    d.weight.span(),
                    format!("weight {v}: a weight is a whole number of at least 1"),
                ));
            }
            for p in xr.procs(&d.procs, env)? {
                weighed.push((
                    p,
                    Weight {
                        value: v as u64,
                        span: d.span,
                    },
                ));
            }
            Ok(())
        });
        if let Err(e) = r {
            x.error(e);
        }
    }
    x.app.weights.extend(weighed);

    // MPI annotation.
    let has_mpi_text = !(script.contexts.is_empty()
        && script.roots.is_empty()
        && script.port_contexts.is_empty()
        && script.arguments.is_empty());
    if has_mpi_text && x.app.environment != Environment::Mpi {
        let sp = script
            .contexts
            .first()
            .map(|d| d.span)
            .or(script.roots.first().map(|d| d.span))
            .or(script.port_contexts.first().map(|d| d.span))
            .or(script.arguments.first().map(|d| d.span))
            .unwrap_or_default();
        x.error((
            sp,
            "Contexts, Roots, Ports and Arguments belong to the MPI annotation and need `environment MPI;`".into(),
        ));
    }
    if x.app.environment == Environment::Mpi {
        let mut mpi = MpiAnnotation::default();
        let mut info = ScriptInfo::default();
        let mut errs = Vec::new();
        // Runs `f` for every binding of a declaration's `for` rule; the
        // errors are reported once every declaration was expanded.
        let mut each = |rule: &Option<ForClause>, f: &mut dyn FnMut(&Env) -> EResult<()>| {
            if let Err(e) = for_each(rule, &mut env, f) {
                errs.push(e);
            }
        };
        for d in &script.contexts {
            each(&d.rule, &mut |env| {
                let group = match &d.group.index {
                    None => d.group.name.clone(),
                    Some(e) => format!("{}[{}]", d.group.name, eval(e, env)?),
                };
                for p in x.procs(&d.procs, env)? {
                    mpi.contexts.push((p, d.context.clone(), group.clone()));
                    info.context_spans.push(d.span);
                }
                Ok(())
            });
        }
        for d in &script.roots {
            each(&d.rule, &mut |env| {
                let t = eval(
                    match &d.target.index {
                        IndexSet::One(e) | IndexSet::Range(e, _) => e,
                    },
                    env,
                )?;
                let target = x.lookup(&d.target.component, t, d.target.span)?;
                for p in x.procs(&d.procs, env)? {
                    mpi.roots
                        .push((p, d.root.clone(), d.context.clone(), target));
                    info.root_spans.push(d.span);
                }
                Ok(())
            });
        }
        for d in &script.port_contexts {
            each(&d.rule, &mut |env| {
                for p in x.procs(&d.procs, env)? {
                    mpi.port_contexts
                        .push((p, d.port_type.clone(), d.context.clone()));
                    info.port_context_spans.push(d.span);
                }
                Ok(())
            });
        }
        for d in &script.arguments {
            each(&d.rule, &mut |env| {
                let v = value_text(&d.value, env)?;
                for p in x.procs(&d.procs, env)? {
                    mpi.topology_args.push((p, d.name.clone(), v.clone()));
                    info.arg_spans.push(d.span);
                }
                Ok(())
            });
        }
        for e in errs {
            x.error(e);
        }
        x.app.info.context_spans = info.context_spans;
        x.app.info.root_spans = info.root_spans;
        x.app.info.port_context_spans = info.port_context_spans;
        x.app.info.arg_spans = info.arg_spans;
        x.app.mpi = Some(mpi);
    }

    // Locations.
    for d in &script.locations {
        if let Some(first) = x.app.locations.get(&d.component) {
            let msg = format!(
                "component {} has two locations (first at {}:{})",
                d.component, first.span.line, first.span.col
            );
            x.error((d.span, msg));
            continue;
        }
        x.app.locations.insert(
            d.component.clone(),
            Location {
                path: d.path.clone(),
                span: d.span,
            },
        );
    }

    // Per-process parameters (a later line replaces an earlier one).
    let mut given: Vec<(usize, Vec<String>)> = Vec::new();
    for d in &script.proc_params {
        let xr = &x;
        let r = for_each(&d.rule, &mut env, &mut |env| {
            let vals = d
                .values
                .iter()
                .map(|v| value_text(v, env))
                .collect::<EResult<Vec<String>>>()?;
            for p in xr.procs(&d.procs, env)? {
                given.push((p, vals.clone()));
            }
            Ok(())
        });
        if let Err(e) = r {
            x.error(e);
        }
    }
    for (p, vals) in given {
        x.app.processes[p].params = vals;
    }

    if x.errors.is_empty() {
        Ok(x.app)
    } else {
        Err(x.errors)
    }
}
