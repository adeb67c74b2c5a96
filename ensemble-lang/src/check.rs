//! The checks run before anything starts: the published loader had none.
//! Each finding is a [`Diagnostic`] with the script's line and column.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::hosts::HostMap;
use crate::model::{Application, Environment, MpiAnnotation, Span};

fn is_executable(p: &Path) -> bool {
    match std::fs::metadata(p) {
        Ok(m) => m.is_file() && m.permissions().mode() & 0o111 != 0,
        Err(_) => false,
    }
}

/// The executable of a component: absolute path, relative to the script's
/// directory, or found on PATH (bare names only). An absolute path that
/// does not exist here (a published script names the authors' machines)
/// falls back to its file name in the script's directory or on PATH;
/// `check` warns when it does. `None` if the component has no location or
/// no executable file is found.
pub fn resolve_location(app: &Application, component: &str) -> Option<PathBuf> {
    let loc = app.locations.get(component)?;
    if loc.path.is_empty() {
        return None;
    }
    let path = Path::new(&loc.path);
    if path.is_absolute() {
        if is_executable(path) {
            return Some(path.to_path_buf());
        }
        let base = path.file_name()?;
        return find_bare(app, Path::new(base));
    }
    if loc.path.contains('/') {
        let rel = app.script_dir().join(path);
        return is_executable(&rel).then(|| std::fs::canonicalize(&rel).unwrap_or(rel));
    }
    find_bare(app, path)
}

/// A bare file name: in the script's directory, then on PATH.
fn find_bare(app: &Application, name: &Path) -> Option<PathBuf> {
    let rel = app.script_dir().join(name);
    if is_executable(&rel) {
        return Some(std::fs::canonicalize(&rel).unwrap_or(rel));
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|d| d.join(name))
        .find(|c| is_executable(c))
}

/// `1..3, 5` for [1, 2, 3, 5].
fn ranges(v: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}..{}", v[i], v[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

struct Checker<'a> {
    app: &'a Application,
    out: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, span: Span, msg: String) {
        self.out
            .push(Diagnostic::error(&self.app.source, span, msg));
    }

    /// An error that also points at an earlier place (`label` says what
    /// is there).
    fn error_also_at(&mut self, span: Span, msg: String, earlier: Span, label: &str) {
        self.out
            .push(Diagnostic::error(&self.app.source, span, msg).with_related(earlier, label));
    }

    fn warning(&mut self, span: Span, msg: String) {
        self.out
            .push(Diagnostic::warning(&self.app.source, span, msg));
    }

    fn label(&self, p: usize) -> String {
        self.app
            .processes
            .get(p)
            .map_or_else(|| format!("process #{}", p + 1), |x| x.label())
    }

    fn types_of(&self, p: usize) -> String {
        let v: Vec<String> = self.app.processes[p]
            .ports
            .iter()
            .map(|g| format!("{}:{}", g.port_type, g.count))
            .collect();
        if v.is_empty() {
            "no ports".into()
        } else {
            v.join(", ")
        }
    }

    /// Port types and indices, shared use of a port, compatibility, tags,
    /// unconnected ports.
    fn ports(&mut self) {
        let app = self.app;
        let mut used: HashMap<(usize, &str, u32), Span> = HashMap::new();
        let mut tags: BTreeMap<i32, Span> = BTreeMap::new();
        for (ci, c) in app.channels.iter().enumerate() {
            let spans = app
                .info
                .endpoint_spans
                .get(ci)
                .copied()
                .unwrap_or((c.span, c.span));
            let mut ends_ok = true;
            for (e, sp) in [(&c.a, spans.0), (&c.b, spans.1)] {
                let Some(proc_) = app.processes.get(e.process) else {
                    self.error(
                        sp,
                        format!(
                            "channel names process #{} which does not exist",
                            e.process + 1
                        ),
                    );
                    ends_ok = false;
                    continue;
                };
                let label = proc_.label();
                if !proc_.ports.iter().any(|g| g.port_type == e.port_type) {
                    let msg = format!(
                        "unknown port type {} for {label} (it has {})",
                        e.port_type,
                        self.types_of(e.process)
                    );
                    self.error(sp, msg);
                    ends_ok = false;
                    continue;
                }
                let n = proc_.port_count(&e.port_type);
                if e.port < 1 || e.port > n {
                    self.error(
                        sp,
                        format!(
                            "port index {} outside {label}.{}[1..{n}]",
                            e.port, e.port_type
                        ),
                    );
                    ends_ok = false;
                    continue;
                }
                let key = (e.process, e.port_type.as_str(), e.port);
                if let Some(&first) = used.get(&key) {
                    if c.a == c.b {
                        let msg = format!(
                            "channel joins port {label}.{}[{}] to itself",
                            e.port_type, e.port
                        );
                        self.error(sp, msg);
                    } else {
                        let msg = format!(
                            "port {label}.{}[{}] is used by two channels (also at {}:{})",
                            e.port_type, e.port, first.line, first.col
                        );
                        self.error_also_at(sp, msg, first, "first used here");
                    }
                } else {
                    used.insert(key, sp);
                }
            }
            if ends_ok && !app.compatible(&c.a.port_type, &c.b.port_type) {
                let msg = format!(
                    "channel joins incompatible port types: {}.{} and {}.{} (no Compatibility declaration allows {} with {})",
                    self.label(c.a.process),
                    c.a.port_type,
                    self.label(c.b.process),
                    c.b.port_type,
                    c.a.port_type,
                    c.b.port_type
                );
                self.error(c.span, msg);
            }
            if c.tag < 1 {
                self.error(c.span, format!("tag {} is not positive", c.tag));
            } else if let Some(&first) = tags.get(&c.tag) {
                let msg = format!(
                    "tag {} is used by two channels (also at {}:{})",
                    c.tag, first.line, first.col
                );
                self.error_also_at(c.span, msg, first, "first used here");
            } else {
                tags.insert(c.tag, c.span);
            }
        }
        // Compatibility declarations naming types no process has.
        let all_types: BTreeSet<&str> = app
            .processes
            .iter()
            .flat_map(|p| p.ports.iter().map(|g| g.port_type.as_str()))
            .collect();
        for r in &app.info.compat {
            for t in &r.types {
                if !all_types.contains(t.as_str()) {
                    self.warning(
                        r.span,
                        format!("port type {t} in a Compatibility declaration is not a port type of any process"),
                    );
                }
            }
        }
        for (pi, p) in app.processes.iter().enumerate() {
            for g in &p.ports {
                let free: Vec<u32> = (1..=g.count)
                    .filter(|k| !used.contains_key(&(pi, g.port_type.as_str(), *k)))
                    .collect();
                if free.is_empty() {
                    continue;
                }
                let msg = if free.len() == 1 {
                    format!(
                        "port {}.{}[{}] is not connected",
                        p.label(),
                        g.port_type,
                        free[0]
                    )
                } else {
                    format!(
                        "ports {}.{}[{}] are not connected",
                        p.label(),
                        g.port_type,
                        ranges(&free)
                    )
                };
                self.warning(p.span, msg);
            }
        }
    }

    /// Every component has an executable that exists.
    fn locations(&mut self) {
        let app = self.app;
        let mut first: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, p) in app.processes.iter().enumerate() {
            first.entry(p.component.as_str()).or_insert(i);
        }
        for (comp, &p) in &first {
            match app.locations.get(*comp) {
                None => {
                    let span = app.processes[p].span;
                    let n = app
                        .processes
                        .iter()
                        .filter(|x| x.component == *comp)
                        .count();
                    self.error(
                        span,
                        format!(
                            "process {} has no location: component {comp} ({n} process{}) has no `{comp}: \"path\";` under Location",
                            app.processes[p].label(),
                            if n == 1 { "" } else { "es" }
                        ),
                    );
                }
                Some(loc) => {
                    let found = resolve_location(app, comp);
                    if let Some(f) = &found {
                        if Path::new(&loc.path).is_absolute() && f != Path::new(&loc.path) {
                            self.warning(
                                loc.span,
                                format!(
                                    "{} does not exist here; component {comp} uses {}",
                                    loc.path,
                                    f.display()
                                ),
                            );
                        }
                    }
                    if found.is_none() {
                        let msg = if Path::new(&loc.path).is_absolute() {
                            format!(
                                "executable of component {comp} is missing: {} is not an executable file, and {} is neither in {} nor on PATH",
                                loc.path,
                                Path::new(&loc.path).file_name().map_or(String::new(), |b| b.to_string_lossy().into_owned()),
                                app.script_dir().display()
                            )
                        } else if loc.path.contains('/') {
                            format!(
                                "executable of component {comp} is missing: {} is not an executable file",
                                app.script_dir().join(&loc.path).display()
                            )
                        } else {
                            format!(
                                "executable of component {comp} is missing: \"{}\" is neither in {} nor on PATH",
                                loc.path,
                                app.script_dir().display()
                            )
                        };
                        self.error(loc.span, msg);
                    }
                }
            }
        }
        for (comp, loc) in &app.locations {
            if !first.contains_key(comp.as_str()) {
                self.warning(
                    loc.span,
                    format!("location given for unknown component {comp} (no process of it is declared)"),
                );
            }
        }
    }

    fn hosts(&mut self, hosts: &HostMap) {
        // One message per allocation statement and unknown host.
        let mut unknown: BTreeMap<(Span, &str), Vec<String>> = BTreeMap::new();
        for (p, pl) in &self.app.allocation {
            if hosts.resolve(&pl.host).is_none() {
                unknown
                    .entry((pl.span, pl.host.as_str()))
                    .or_default()
                    .push(self.label(*p));
            }
        }
        for ((span, host), procs) in unknown {
            self.error(
                span,
                format!(
                    "allocation to unknown host {host} (of {}); map it to a real host in a host map, e.g. `{host} localhost`",
                    procs.join(", ")
                ),
            );
        }
    }

    fn mpi(&mut self) {
        let app = self.app;
        if app.environment != Environment::Mpi {
            return;
        }
        let empty = MpiAnnotation::default();
        let mpi = app.mpi.as_ref().unwrap_or(&empty);
        let info = &app.info;
        let at = |v: &[Span], i: usize| v.get(i).copied().unwrap_or(info.environment_span);
        // Contexts: one group per (process, context).
        let mut group: HashMap<(usize, &str), &str> = HashMap::new();
        for (i, (p, ctx, g)) in mpi.contexts.iter().enumerate() {
            if let Some(old) = group.insert((*p, ctx.as_str()), g.as_str()) {
                let msg = format!(
                    "context {ctx} of {} is bound twice (to {old} and to {g})",
                    self.label(*p)
                );
                self.error(at(&info.context_spans, i), msg);
            }
        }
        let in_group = |p: usize, g: &str| mpi.contexts.iter().any(|(q, _, h)| *q == p && h == g);
        // Roots.
        let mut root_names = BTreeSet::new();
        for (i, (p, root, ctx, target)) in mpi.roots.iter().enumerate() {
            let sp = at(&info.root_spans, i);
            if !root_names.insert((*p, root.as_str())) {
                let msg = format!("root {root} of {} is bound twice", self.label(*p));
                self.error(sp, msg);
                continue;
            }
            match group.get(&(*p, ctx.as_str())) {
                None => {
                    let msg = format!(
                        "root {root} of {} is in context {ctx}, which is not bound for it under Contexts",
                        self.label(*p)
                    );
                    self.error(sp, msg);
                }
                Some(g) => {
                    if !in_group(*target, g) {
                        let msg = format!(
                            "root {root} of {} is {}, which is not in group {g} (context {ctx})",
                            self.label(*p),
                            self.label(*target)
                        );
                        self.error(sp, msg);
                    }
                }
            }
        }
        // Port contexts.
        let mut port_ctx: HashMap<(usize, &str), &str> = HashMap::new();
        for (i, (p, t, ctx)) in mpi.port_contexts.iter().enumerate() {
            let sp = at(&info.port_context_spans, i);
            let label = self.label(*p);
            if app
                .processes
                .get(*p)
                .is_some_and(|x| x.ports.iter().all(|g| &g.port_type != t))
            {
                let msg = format!(
                    "{label} has no port type {t} (it has {})",
                    self.types_of(*p)
                );
                self.error(sp, msg);
            }
            if !group.contains_key(&(*p, ctx.as_str())) {
                self.error(
                    sp,
                    format!("port type {t} of {label} is put in context {ctx}, which is not bound for it under Contexts"),
                );
            }
            if port_ctx.insert((*p, t.as_str()), ctx.as_str()).is_some() {
                self.error(
                    sp,
                    format!("port type {t} of {label} is given a context twice"),
                );
            }
        }
        // Every connected port type has a context; both ends share a group.
        let mut reported = BTreeSet::new();
        for (ci, c) in app.channels.iter().enumerate() {
            let spans = info
                .endpoint_spans
                .get(ci)
                .copied()
                .unwrap_or((c.span, c.span));
            let mut groups = Vec::new();
            for (e, sp) in [(&c.a, spans.0), (&c.b, spans.1)] {
                match port_ctx.get(&(e.process, e.port_type.as_str())) {
                    None => {
                        if reported.insert((e.process, e.port_type.clone())) {
                            let label = self.label(e.process);
                            self.error(
                                sp,
                                format!(
                                    "port type {} of {label} has no context (add `{label}.{} in CONTEXT;` under Ports)",
                                    e.port_type, e.port_type
                                ),
                            );
                        }
                    }
                    Some(ctx) => {
                        if let Some(g) = group.get(&(e.process, *ctx)) {
                            groups.push((*g, e, *ctx));
                        }
                    }
                }
            }
            if let [(ga, ea, ca), (gb, eb, cb)] = groups.as_slice() {
                if ga != gb {
                    let msg = format!(
                        "channel joins {}.{} (context {ca}, group {ga}) and {}.{} (context {cb}, group {gb}): both ends must be in one group",
                        self.label(ea.process),
                        ea.port_type,
                        self.label(eb.process),
                        eb.port_type
                    );
                    self.error(c.span, msg);
                }
            }
        }
        // Arguments: one value per name and process.
        let mut args = BTreeSet::new();
        for (i, (p, name, _)) in mpi.topology_args.iter().enumerate() {
            if !args.insert((*p, name.as_str())) {
                let msg = format!("argument {name} of {} is given twice", self.label(*p));
                self.error(at(&info.arg_spans, i), msg);
            }
        }
    }
}

/// Every check of "checks before anything starts"; errors and warnings,
/// in script order.
pub fn check(app: &Application, hosts: &HostMap) -> Vec<Diagnostic> {
    let mut c = Checker {
        app,
        out: Vec::new(),
    };
    c.ports();
    c.locations();
    c.hosts(hosts);
    c.mpi();
    let mut out = c.out;
    out.sort_by_key(|d| (d.span, d.severity));
    out
}
