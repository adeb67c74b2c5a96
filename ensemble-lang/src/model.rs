//! The explicit model of a composition, after parsing and expansion: what
//! the checks, the drawing and the loaders work on. Every process is one
//! concrete instance (index ranges and parametric rules are already
//! expanded), and every channel joins two concrete ports.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// A place in a script: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

/// The target environment named by `environment ...;`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Environment {
    #[default]
    Pvm3,
    Mpi,
}

/// How many ports of one type a process has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortGroup {
    /// Port type name (`S`, `C`, `P`, `Out`...).
    pub port_type: String,
    /// Number of ports of this type (ports are numbered 1..=count).
    pub count: u32,
}

/// One process of the composition.
#[derive(Clone, Debug, PartialEq)]
pub struct Process {
    /// Component (process family) name, e.g. `T`; also the key of
    /// `Application::locations`.
    pub component: String,
    /// The index written in the script, e.g. 3 for `T[3]`.
    pub index: i64,
    /// Port types in declaration order, with counts (a count may be 0).
    pub ports: Vec<PortGroup>,
    /// Per-process parameters, passed to the component as arguments after
    /// the loader's own ones (e.g. the value a terminal holds).
    pub params: Vec<String>,
    /// Where the process was declared.
    pub span: Span,
}

impl Process {
    /// `T[3]`.
    pub fn label(&self) -> String {
        format!("{}[{}]", self.component, self.index)
    }

    /// Number of ports of `port_type` (0 if it has none).
    pub fn port_count(&self, port_type: &str) -> u32 {
        self.ports
            .iter()
            .find(|g| g.port_type == port_type)
            .map_or(0, |g| g.count)
    }
}

/// One end of a channel: port `port` (1-based) of type `port_type` of
/// process `process` (an index into `Application::processes`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Endpoint {
    pub process: usize,
    pub port_type: String,
    pub port: u32,
}

/// A bidirectional channel between two ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    pub a: Endpoint,
    pub b: Endpoint,
    /// The message tag both directions use (PVM `RequestID` annotation;
    /// the MPI tag of the port binding). Positive and unique per channel.
    pub tag: i32,
    pub span: Span,
}

/// An executable for a component (`Location` / `SEQUENTIAL COMPONENTS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// As written: an absolute path, a path relative to the script's
    /// directory, or a bare name looked up on `PATH`.
    pub path: String,
    pub span: Span,
}

/// A host named in the allocation section, for one process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub host: String,
    pub span: Span,
}

/// A process's relative work from the annotation's `Weights`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    /// At least 1.
    pub value: u64,
    pub span: Span,
}

/// The MPI annotation: each process's virtual envelope bindings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MpiAnnotation {
    /// (process, context name, group name): processes that bind a context
    /// to the same group name form one communicator.
    pub contexts: Vec<(usize, String, String)>,
    /// (process, root name, context name, root process).
    pub roots: Vec<(usize, String, String, usize)>,
    /// Which context each multiport type lives in, per process:
    /// (process, port type, context name). Ports themselves come from
    /// the PCG channels (peer process and tag).
    pub port_contexts: Vec<(usize, String, String)>,
    /// (process, name, value): topology arguments such as `RingSize`.
    pub topology_args: Vec<(usize, String, String)>,
}

/// A whole composition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Application {
    /// From the `Application NAME` line.
    pub name: String,
    /// The script file (for messages and to resolve relative locations).
    pub source: PathBuf,
    /// Every process; the loader's "process N" is `processes[N-1]`.
    pub processes: Vec<Process>,
    pub channels: Vec<Channel>,
    pub environment: Environment,
    /// Component name to executable.
    pub locations: BTreeMap<String, Location>,
    /// Process index to host, for the processes the allocation names.
    pub allocation: BTreeMap<usize, Placement>,
    /// Process index to its weight, for the processes `Weights` names
    /// (placement on a virtual machine; the others weigh 1).
    pub weights: BTreeMap<usize, Weight>,
    /// Present when `environment MPI;`.
    pub mpi: Option<MpiAnnotation>,
    /// What the script said beyond the launch model: port-type
    /// compatibility and the places of things, for the checks.
    pub info: ScriptInfo,
}

/// A port-type compatibility declaration (`Compatibility` section).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompatRule {
    /// The port types named.
    pub types: Vec<String>,
    /// `A, B, C;`: every pair of these types, each type with itself
    /// included. `A <-> B;` (false): exactly that pair.
    pub class: bool,
    pub span: Span,
}

/// Script facts the checks and messages use; every vector may be shorter
/// than the thing it describes (a model built by hand has none), and
/// users fall back to the nearest span they have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptInfo {
    /// Parameter values in force (`Parameters` defaults with command-line
    /// overrides applied).
    pub params: BTreeMap<String, i64>,
    /// Compatibility declarations; none means every type is compatible
    /// with every type.
    pub compat: Vec<CompatRule>,
    /// Per channel, where its two ports are written (the port type).
    pub endpoint_spans: Vec<(Span, Span)>,
    /// Where each component was first declared.
    pub component_spans: BTreeMap<String, Span>,
    /// Where each entry of the MPI annotation vectors was written,
    /// parallel to `MpiAnnotation::{contexts, roots, port_contexts,
    /// topology_args}`.
    pub context_spans: Vec<Span>,
    pub root_spans: Vec<Span>,
    pub port_context_spans: Vec<Span>,
    pub arg_spans: Vec<Span>,
    /// Where `environment ...;` was written.
    pub environment_span: Span,
}

impl Application {
    /// True if a channel may join a port of type `a` to one of type `b`
    /// under the script's compatibility declarations.
    pub fn compatible(&self, a: &str, b: &str) -> bool {
        if self.info.compat.is_empty() {
            return true;
        }
        self.info.compat.iter().any(|r| {
            if r.class {
                r.types.iter().any(|t| t == a) && r.types.iter().any(|t| t == b)
            } else {
                r.types.len() == 2
                    && ((r.types[0] == a && r.types[1] == b)
                        || (r.types[0] == b && r.types[1] == a))
            }
        })
    }

    /// The directory the script is in (relative locations start there).
    pub fn script_dir(&self) -> PathBuf {
        match self.source.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// Index of process `component[index]`.
    pub fn find(&self, component: &str, index: i64) -> Option<usize> {
        self.processes
            .iter()
            .position(|p| p.component == component && p.index == index)
    }

    /// The bindings of process `p`: for each of its connected ports
    /// (type, port number, peer process, tag), sorted by type order of
    /// declaration then port number.
    pub fn bindings(&self, p: usize) -> Vec<(String, u32, usize, i32)> {
        let mut out = Vec::new();
        for c in &self.channels {
            if c.a.process == p {
                out.push((c.a.port_type.clone(), c.a.port, c.b.process, c.tag));
            }
            if c.b.process == p && c.a != c.b {
                out.push((c.b.port_type.clone(), c.b.port, c.a.process, c.tag));
            }
        }
        let order = |t: &str| {
            self.processes[p]
                .ports
                .iter()
                .position(|g| g.port_type == t)
                .unwrap_or(usize::MAX)
        };
        out.sort_by_key(|x| (order(&x.0), x.1));
        out
    }
}

impl Application {
    /// The model with every source position set to the default and no
    /// source file, to compare models read from different texts (such as
    /// a script and its printed form).
    pub fn without_places(&self) -> Application {
        let mut a = self.clone();
        a.source = PathBuf::new();
        for p in &mut a.processes {
            p.span = Span::default();
        }
        for c in &mut a.channels {
            c.span = Span::default();
        }
        for l in a.locations.values_mut() {
            l.span = Span::default();
        }
        for pl in a.allocation.values_mut() {
            pl.span = Span::default();
        }
        for w in a.weights.values_mut() {
            w.span = Span::default();
        }
        let info = &mut a.info;
        for r in &mut info.compat {
            r.span = Span::default();
        }
        for s in &mut info.endpoint_spans {
            *s = (Span::default(), Span::default());
        }
        for s in info.component_spans.values_mut() {
            *s = Span::default();
        }
        for v in [
            &mut info.context_spans,
            &mut info.root_spans,
            &mut info.port_context_spans,
            &mut info.arg_spans,
        ] {
            v.iter_mut().for_each(|s| *s = Span::default());
        }
        info.environment_span = Span::default();
        a
    }
}
