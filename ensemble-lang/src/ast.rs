//! The syntax tree of a script, before expansion: ranges, rules and
//! parameters are still as written.

use crate::model::{CompatRule, Span};

/// An integer expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Int(i64, Span),
    /// A parameter or a rule's index variable.
    Name(String, Span),
    Unary(&'static str, Box<Expr>, Span),
    Binary(&'static str, Box<Expr>, Box<Expr>, Span),
    /// `min(a, b, ...)`, `max(...)`, `abs(a)`.
    Call(String, Vec<Expr>, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(_, s)
            | Expr::Name(_, s)
            | Expr::Unary(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Call(_, _, s) => *s,
        }
    }
}

/// `[i]` or `[lo..hi]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexSet {
    One(Expr),
    Range(Expr, Expr),
}

/// `NAME[index]` or `NAME[lo..hi]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcRef {
    pub component: String,
    pub index: IndexSet,
    pub span: Span,
}

/// `for i in lo..hi, j in lo..hi if cond`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ForClause {
    pub vars: Vec<(String, Expr, Expr, Span)>,
    pub cond: Option<Expr>,
}

/// A value given to a process: an integer expression or a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(Expr),
    Str(String, Span),
}

/// `P[i], Q[j] #ports = A:n, B:m [for ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentDecl {
    pub procs: Vec<ProcRef>,
    pub ports: Vec<(String, Expr, Span)>,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `A[i].X[p]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointRef {
    pub component: String,
    pub index: Expr,
    pub port_type: String,
    pub port: Expr,
    pub span: Span,
    pub port_span: Span,
}

/// `A[i].X[p] <-> B[j].Y[q] [tag t] [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionDecl {
    pub a: EndpointRef,
    pub b: EndpointRef,
    pub tag: Option<Expr>,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `P[i], ... at HOST [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocDecl {
    pub procs: Vec<ProcRef>,
    pub host: String,
    pub host_span: Span,
    pub rule: Option<ForClause>,
}

/// A group name, `TG1` or `TG[k]` (expands to `TG[3]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupName {
    pub name: String,
    pub index: Option<Expr>,
    pub span: Span,
}

/// `P[i].Context = Group [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextDecl {
    pub procs: Vec<ProcRef>,
    pub context: String,
    pub group: GroupName,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `P[i].Root = Q[j] in Context [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootDecl {
    pub procs: Vec<ProcRef>,
    pub root: String,
    pub target: ProcRef,
    pub context: String,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `P[i].PortType in Context [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortContextDecl {
    pub procs: Vec<ProcRef>,
    pub port_type: String,
    pub context: String,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `P[i].Name = value [for ...];`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentDecl {
    pub procs: Vec<ProcRef>,
    pub name: String,
    pub value: Value,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `P[i]: weight [for ...];` (relative work of a process, for placement
/// on a virtual machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightDecl {
    pub procs: Vec<ProcRef>,
    pub weight: Expr,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// `NAME: "path";`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationDecl {
    pub component: String,
    pub path: String,
    pub span: Span,
}

/// `P[i]: v1, v2 [for ...];` (per-process parameters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcParamDecl {
    pub procs: Vec<ProcRef>,
    pub values: Vec<Value>,
    pub rule: Option<ForClause>,
    pub span: Span,
}

/// The environment named by `environment NAME;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvDecl {
    pub name: String,
    pub span: Span,
}

/// A whole script as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    pub name: String,
    pub name_span: Span,
    /// `Parameters N = 8;` definitions (defaults).
    pub params: Vec<(String, Expr, Span)>,
    pub components: Vec<ComponentDecl>,
    /// The `Compatibility` declarations, as written.
    pub compat: Vec<CompatRule>,
    pub connections: Vec<ConnectionDecl>,
    pub environment: Option<EnvDecl>,
    /// Which annotation heading was used (`PVM3`, `MPI`), where.
    pub annotation: Option<(String, Span)>,
    /// Where `RequestID : default;` was given.
    pub request_id: Option<Span>,
    pub allocation: Vec<AllocDecl>,
    pub contexts: Vec<ContextDecl>,
    pub roots: Vec<RootDecl>,
    pub port_contexts: Vec<PortContextDecl>,
    pub arguments: Vec<ArgumentDecl>,
    pub weights: Vec<WeightDecl>,
    pub locations: Vec<LocationDecl>,
    pub proc_params: Vec<ProcParamDecl>,
}

/// Setting every source position to the default, to compare trees that
/// came from different texts (such as a script and its printed form).
pub trait ClearSpans {
    fn clear_spans(&mut self);
}

impl ClearSpans for Span {
    fn clear_spans(&mut self) {
        *self = Span::default();
    }
}

impl<T: ClearSpans> ClearSpans for Option<T> {
    fn clear_spans(&mut self) {
        if let Some(x) = self {
            x.clear_spans();
        }
    }
}

impl<T: ClearSpans> ClearSpans for Vec<T> {
    fn clear_spans(&mut self) {
        self.iter_mut().for_each(ClearSpans::clear_spans);
    }
}

impl ClearSpans for Expr {
    fn clear_spans(&mut self) {
        match self {
            Expr::Int(_, s) | Expr::Name(_, s) => s.clear_spans(),
            Expr::Unary(_, a, s) => {
                a.clear_spans();
                s.clear_spans();
            }
            Expr::Binary(_, a, b, s) => {
                a.clear_spans();
                b.clear_spans();
                s.clear_spans();
            }
            Expr::Call(_, args, s) => {
                args.clear_spans();
                s.clear_spans();
            }
        }
    }
}

impl ClearSpans for IndexSet {
    fn clear_spans(&mut self) {
        match self {
            IndexSet::One(e) => e.clear_spans(),
            IndexSet::Range(a, b) => {
                a.clear_spans();
                b.clear_spans();
            }
        }
    }
}

impl ClearSpans for ProcRef {
    fn clear_spans(&mut self) {
        self.index.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for ForClause {
    fn clear_spans(&mut self) {
        for (_, lo, hi, s) in &mut self.vars {
            lo.clear_spans();
            hi.clear_spans();
            s.clear_spans();
        }
        self.cond.clear_spans();
    }
}

impl ClearSpans for Value {
    fn clear_spans(&mut self) {
        match self {
            Value::Int(e) => e.clear_spans(),
            Value::Str(_, s) => s.clear_spans(),
        }
    }
}

impl ClearSpans for (String, Expr, Span) {
    fn clear_spans(&mut self) {
        self.1.clear_spans();
        self.2.clear_spans();
    }
}

impl ClearSpans for ComponentDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.ports.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for EndpointRef {
    fn clear_spans(&mut self) {
        self.index.clear_spans();
        self.port.clear_spans();
        self.span.clear_spans();
        self.port_span.clear_spans();
    }
}

impl ClearSpans for ConnectionDecl {
    fn clear_spans(&mut self) {
        self.a.clear_spans();
        self.b.clear_spans();
        self.tag.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for CompatRule {
    fn clear_spans(&mut self) {
        self.span.clear_spans();
    }
}

impl ClearSpans for AllocDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.host_span.clear_spans();
        self.rule.clear_spans();
    }
}

impl ClearSpans for GroupName {
    fn clear_spans(&mut self) {
        self.index.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for ContextDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.group.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for RootDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.target.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for PortContextDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for ArgumentDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.value.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for WeightDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.weight.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for LocationDecl {
    fn clear_spans(&mut self) {
        self.span.clear_spans();
    }
}

impl ClearSpans for ProcParamDecl {
    fn clear_spans(&mut self) {
        self.procs.clear_spans();
        self.values.clear_spans();
        self.rule.clear_spans();
        self.span.clear_spans();
    }
}

impl ClearSpans for EnvDecl {
    fn clear_spans(&mut self) {
        self.span.clear_spans();
    }
}

impl ClearSpans for Script {
    fn clear_spans(&mut self) {
        self.name_span.clear_spans();
        self.params.clear_spans();
        self.components.clear_spans();
        self.compat.clear_spans();
        self.connections.clear_spans();
        self.environment.clear_spans();
        if let Some((_, s)) = &mut self.annotation {
            s.clear_spans();
        }
        self.request_id.clear_spans();
        self.allocation.clear_spans();
        self.contexts.clear_spans();
        self.roots.clear_spans();
        self.port_contexts.clear_spans();
        self.arguments.clear_spans();
        self.weights.clear_spans();
        self.locations.clear_spans();
        self.proc_params.clear_spans();
    }
}
