//! The syntax tree of a script, before expansion: ranges, rules and
//! parameters are still as written.

use crate::model::Span;

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

/// A compatibility declaration: every pair of the listed types (the
/// same type with itself included) may be joined when `class` is true;
/// only the two given types when it is false (`A <-> B;`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompatDecl {
    pub types: Vec<String>,
    pub class: bool,
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
    pub compat: Vec<CompatDecl>,
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
