//! The parser: tokens to a [`Script`]. The grammar is in the crate's
//! README. Section headings are recognised in either published spelling
//! and in any letter case; a heading word followed by `[`, `.`, `:` or
//! `=` is read as a name instead.

use crate::ast::*;
use crate::lexer::{Tok, Token};
use crate::model::{CompatRule, Span};

/// A syntax error: where, and what was expected.
pub type SyntaxError = (Span, String);

type PResult<T> = Result<T, SyntaxError>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Top,
    Pcg,
    Parallel,
    Sequential,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    None,
    TopParams,
    Components,
    Compat,
    Connections,
    Annotation,
    Contexts,
    Roots,
    Ports,
    Arguments,
    Weights,
    Allocation,
    Location,
    ProcParams,
}

/// Deepest expression nesting, and most operators in one expression,
/// accepted (keeps hostile input from exhausting the stack).
const MAX_DEPTH: u32 = 64;
const MAX_OPS: u32 = 256;

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    part: Part,
    section: Section,
    depth: u32,
    /// Operators in the current top-level expression.
    ops: u32,
}

fn text_len(t: &Tok) -> u32 {
    match t {
        Tok::Ident(s) => s.chars().count() as u32,
        Tok::Int(n) => n.to_string().len() as u32,
        Tok::Sym(s) => s.len() as u32,
        _ => 0,
    }
}

/// Parses a whole script.
pub fn parse(toks: &[Token]) -> PResult<Script> {
    let mut p = Parser {
        toks,
        pos: 0,
        part: Part::Top,
        section: Section::None,
        depth: 0,
        ops: 0,
    };
    p.script()
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn is_kw(&self, n: usize, word: &str) -> bool {
        matches!(self.peek_at(n), Tok::Ident(x) if x.eq_ignore_ascii_case(word))
    }

    fn err<T>(&self, expected: &str) -> PResult<T> {
        Err((
            self.span(),
            format!("expected {expected}, found {}", self.peek().describe()),
        ))
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &str, context: &str) -> PResult<Span> {
        if self.is_sym(s) {
            Ok(self.bump().span)
        } else {
            self.err(&format!("`{s}` {context}"))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            _ => self.err(what),
        }
    }

    fn end_statement(&mut self, what: &str) -> PResult<()> {
        if self.eat_sym(";") {
            Ok(())
        } else {
            self.err(&format!("`;` to end the {what}"))
        }
    }

    /// If the current token starts a section heading, consumes it and
    /// switches section.
    fn heading(&mut self, script: &mut Script) -> PResult<bool> {
        let word = match self.peek() {
            Tok::Ident(w) => w.to_ascii_lowercase(),
            _ => return Ok(false),
        };
        if matches!(self.peek_at(1), Tok::Sym("[" | "." | ":" | "=")) {
            return Ok(false);
        }
        let in_annotation = matches!(
            self.section,
            Section::Annotation
                | Section::Contexts
                | Section::Roots
                | Section::Ports
                | Section::Arguments
                | Section::Weights
        );
        if script.name.is_empty() && word != "application" && word != "parameters" {
            return self.err("`Application NAME` to start the script");
        }
        let (n, part, section) = match word.as_str() {
            "application" => {
                self.bump();
                match self.peek().clone() {
                    Tok::Raw(name) if !name.is_empty() => {
                        let sp = self.bump().span;
                        script.name = name;
                        script.name_span = sp;
                        return Ok(true);
                    }
                    _ => return self.err("the application's name after `Application`"),
                }
            }
            "parameters" if self.part == Part::Sequential => (1, self.part, Section::ProcParams),
            "parameters" => (1, self.part, Section::TopParams),
            "pcg" => (1, Part::Pcg, Section::None),
            "components" | "processes" if self.part != Part::Sequential => {
                (1, Part::Pcg, Section::Components)
            }
            "compatibility" | "compatible" => (1, Part::Pcg, Section::Compat),
            "connections" | "channels" => (1, Part::Pcg, Section::Connections),
            "parallel" if self.is_kw(1, "system") => (2, Part::Parallel, Section::None),
            "sequential" if self.is_kw(1, "system") || self.is_kw(1, "components") => {
                (2, Part::Sequential, Section::None)
            }
            "pvm3" | "pvm" | "mpi" if self.is_kw(1, "annotation") => {
                script.annotation = Some((word.to_ascii_uppercase(), self.span()));
                (2, Part::Parallel, Section::Annotation)
            }
            "annotation" => (1, Part::Parallel, Section::Annotation),
            "pvm3" | "pvm" | "mpi" if self.is_kw(1, "allocation") => {
                (2, Part::Parallel, Section::Allocation)
            }
            "allocation" => (1, Part::Parallel, Section::Allocation),
            "contexts" if in_annotation => (1, Part::Parallel, Section::Contexts),
            "roots" if in_annotation => (1, Part::Parallel, Section::Roots),
            "ports" if in_annotation => (1, Part::Parallel, Section::Ports),
            "arguments" if in_annotation => (1, Part::Parallel, Section::Arguments),
            "weights" if in_annotation => (1, Part::Parallel, Section::Weights),
            "location" | "locations" => (1, Part::Sequential, Section::Location),
            _ => return Ok(false),
        };
        for _ in 0..n {
            self.bump();
        }
        self.part = part;
        self.section = section;
        Ok(true)
    }

    fn script(&mut self) -> PResult<Script> {
        let mut s = Script::default();
        loop {
            if matches!(self.peek(), Tok::Eof) {
                break;
            }
            if self.eat_sym(";") {
                continue;
            }
            if self.heading(&mut s)? {
                continue;
            }
            if s.name.is_empty() && self.section != Section::TopParams {
                return self.err("`Application NAME` to start the script");
            }
            if self.is_kw(0, "environment") && !matches!(self.peek_at(1), Tok::Sym("[" | ".")) {
                self.bump();
                let (name, span) = self.ident("an environment name (`PVM3` or `MPI`)")?;
                self.end_statement("`environment` statement")?;
                s.environment = Some(EnvDecl { name, span });
                continue;
            }
            match self.section {
                Section::None => {
                    let expected = match self.part {
                        Part::Top => "`Parameters` or `PCG`",
                        Part::Pcg => "`Components` or `Connections`",
                        Part::Parallel => {
                            "`environment`, `PVM3 annotation`, `MPI annotation` or an allocation"
                        }
                        Part::Sequential => "`Location` or `Parameters`",
                    };
                    return self.err(expected);
                }
                Section::TopParams => self.top_params(&mut s)?,
                Section::Components => {
                    let d = self.component_decl()?;
                    s.components.push(d);
                }
                Section::Compat => {
                    let d = self.compat_decl()?;
                    s.compat.push(d);
                }
                Section::Connections => {
                    let d = self.connection()?;
                    s.connections.push(d);
                }
                Section::Annotation => {
                    if self.is_kw(0, "requestid") {
                        let sp = self.bump().span;
                        if !self.eat_sym(":") && !self.eat_sym("=") {
                            return self.err("`:` after `RequestID`");
                        }
                        if !self.is_kw(0, "default") {
                            return self.err("`default` (tags 1, 2, 3... in channel order; give other values with `tag N` on a connection)");
                        }
                        self.bump();
                        self.end_statement("`RequestID` statement")?;
                        s.request_id = Some(sp);
                    } else {
                        return self.err("`RequestID : default;` or one of `Contexts`, `Roots`, `Ports`, `Arguments`, `Weights`");
                    }
                }
                Section::Allocation => {
                    let d = self.allocation()?;
                    s.allocation.push(d);
                }
                Section::Contexts => {
                    let d = self.context_decl()?;
                    s.contexts.push(d);
                }
                Section::Roots => {
                    let d = self.root_decl()?;
                    s.roots.push(d);
                }
                Section::Ports => {
                    let d = self.port_context_decl()?;
                    s.port_contexts.push(d);
                }
                Section::Arguments => {
                    let d = self.argument_decl()?;
                    s.arguments.push(d);
                }
                Section::Weights => {
                    let d = self.weight_decl()?;
                    s.weights.push(d);
                }
                Section::Location => {
                    let d = self.location()?;
                    s.locations.push(d);
                }
                Section::ProcParams => {
                    let d = self.proc_params()?;
                    s.proc_params.push(d);
                }
            }
        }
        if s.name.is_empty() {
            return self.err("`Application NAME` to start the script");
        }
        Ok(s)
    }

    fn top_params(&mut self, s: &mut Script) -> PResult<()> {
        loop {
            let (name, sp) = self.ident("a parameter name (`N = 8;`)")?;
            self.expect_sym("=", "after the parameter name")?;
            let e = self.expr()?;
            s.params.push((name, e, sp));
            if !self.eat_sym(",") {
                break;
            }
        }
        self.end_statement("parameter definition")
    }

    fn proc_ref(&mut self, allow_range: bool) -> PResult<ProcRef> {
        let (component, span) = self.ident("a process such as `T[1]`")?;
        self.expect_sym(
            "[",
            "after the component name (processes are written `NAME[index]`)",
        )?;
        let lo = self.expr()?;
        let index = if self.is_sym("..") {
            if !allow_range {
                return self.err("`]` (a single process is needed here, not a range)");
            }
            self.bump();
            IndexSet::Range(lo, self.expr()?)
        } else {
            IndexSet::One(lo)
        };
        self.expect_sym("]", "to close the process index")?;
        Ok(ProcRef {
            component,
            index,
            span,
        })
    }

    fn proc_list(&mut self) -> PResult<Vec<ProcRef>> {
        let mut v = vec![self.proc_ref(true)?];
        while self.is_sym(",") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            v.push(self.proc_ref(true)?);
        }
        Ok(v)
    }

    fn rule(&mut self) -> PResult<Option<ForClause>> {
        if !self.is_kw(0, "for") {
            return Ok(None);
        }
        self.bump();
        let mut fc = ForClause::default();
        loop {
            let (var, sp) = self.ident("an index variable after `for`")?;
            if !self.is_kw(0, "in") {
                return self.err("`in` after the index variable");
            }
            self.bump();
            let lo = self.expr()?;
            self.expect_sym("..", "in the index range `lo..hi`")?;
            let hi = self.expr()?;
            fc.vars.push((var, lo, hi, sp));
            if self.is_sym(",")
                && matches!(self.peek_at(1), Tok::Ident(_))
                && matches!(self.peek_at(2), Tok::Ident(w) if w == "in")
            {
                self.bump();
                continue;
            }
            break;
        }
        if self.is_kw(0, "if") {
            self.bump();
            fc.cond = Some(self.expr()?);
        }
        Ok(Some(fc))
    }

    fn component_decl(&mut self) -> PResult<ComponentDecl> {
        let span = self.span();
        let procs = self.proc_list()?;
        let mut ports = Vec::new();
        if self.eat_sym("#") {
            if !self.is_kw(0, "ports") {
                return self.err("`ports` after `#`");
            }
            self.bump();
            self.expect_sym("=", "after `#ports`")?;
            while matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Sym(":")) {
                let (t, sp) = self.ident("a port type")?;
                self.bump();
                let n = self.expr()?;
                ports.push((t, n, sp));
                if !(self.is_sym(",")
                    && matches!(self.peek_at(1), Tok::Ident(_))
                    && matches!(self.peek_at(2), Tok::Sym(":")))
                {
                    break;
                }
                self.bump();
            }
        }
        let rule = self.rule()?;
        if !self.eat_sym(";") {
            // The `;` is optional, but the next thing must start a new line's
            // declaration or a section.
            if !matches!(self.peek(), Tok::Ident(_) | Tok::Eof) {
                return self.err("`#ports = TYPE:count, ...`, `for`, `;` or the next declaration");
            }
        }
        Ok(ComponentDecl {
            procs,
            ports,
            rule,
            span,
        })
    }

    fn compat_decl(&mut self) -> PResult<CompatRule> {
        let span = self.span();
        let (a, _) = self.ident("a port type")?;
        if self.eat_sym("<->") {
            let (b, _) = self.ident("a port type after `<->`")?;
            self.end_statement("compatibility declaration")?;
            return Ok(CompatRule {
                types: vec![a, b],
                class: false,
                span,
            });
        }
        let mut types = vec![a];
        while self.eat_sym(",") {
            types.push(self.ident("a port type after `,`")?.0);
        }
        self.end_statement("compatibility declaration")?;
        Ok(CompatRule {
            types,
            class: true,
            span,
        })
    }

    fn endpoint(&mut self) -> PResult<EndpointRef> {
        let span = self.span();
        let (component, _) = self.ident("a port such as `T[1].S[1]`")?;
        self.expect_sym("[", "after the component name")?;
        let index = self.expr()?;
        if self.is_sym("..") {
            return self.err("`]` (connections join single processes; use a `for` rule)");
        }
        self.expect_sym("]", "to close the process index")?;
        self.expect_sym(".", "between the process and its port (`T[1].S[1]`)")?;
        let (port_type, port_span) = self.ident("a port type after `.`")?;
        self.expect_sym("[", "after the port type")?;
        let port = self.expr()?;
        self.expect_sym("]", "to close the port index")?;
        Ok(EndpointRef {
            component,
            index,
            port_type,
            port,
            span,
            port_span,
        })
    }

    fn connection(&mut self) -> PResult<ConnectionDecl> {
        let span = self.span();
        let a = self.endpoint()?;
        self.expect_sym("<->", "between the two ports of a connection")?;
        let b = self.endpoint()?;
        let tag = if self.is_kw(0, "tag") {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        let rule = self.rule()?;
        self.end_statement("connection")?;
        Ok(ConnectionDecl {
            a,
            b,
            tag,
            rule,
            span,
        })
    }

    /// A host name: a string, or names, numbers, `.` and `-` written
    /// without spaces (`node-1.example.org`).
    fn host(&mut self) -> PResult<(String, Span)> {
        let span = self.span();
        if let Tok::Str(s) = self.peek().clone() {
            self.bump();
            return Ok((s, span));
        }
        if !matches!(self.peek(), Tok::Ident(_) | Tok::Int(_)) {
            return self.err("a host name after `at`");
        }
        let mut name = String::new();
        let mut next_col = span.col;
        while self.span().line == span.line && self.span().col == next_col {
            let t = self.peek().clone();
            match &t {
                Tok::Ident(s) if s != "for" || name.is_empty() => name.push_str(s),
                Tok::Int(n) => name.push_str(&n.to_string()),
                Tok::Sym(s @ ("." | "-")) => name.push_str(s),
                _ => break,
            }
            next_col += text_len(&t);
            self.bump();
        }
        Ok((name, span))
    }

    fn allocation(&mut self) -> PResult<AllocDecl> {
        let procs = self.proc_list()?;
        if !self.is_kw(0, "at") {
            return self.err("`at HOST` after the processes");
        }
        self.bump();
        let (host, host_span) = self.host()?;
        let rule = self.rule()?;
        self.end_statement("allocation")?;
        Ok(AllocDecl {
            procs,
            host,
            host_span,
            rule,
        })
    }

    fn group_name(&mut self) -> PResult<GroupName> {
        let (name, span) = self.ident("a group name")?;
        let index = if self.eat_sym("[") {
            let e = self.expr()?;
            self.expect_sym("]", "to close the group index")?;
            Some(e)
        } else {
            None
        };
        Ok(GroupName { name, index, span })
    }

    fn context_decl(&mut self) -> PResult<ContextDecl> {
        let span = self.span();
        let procs = vec![self.proc_ref(true)?];
        self.expect_sym(".", "between the process and its context name")?;
        let (context, _) = self.ident("a context name")?;
        self.expect_sym("=", "after the context name (`P[1].Ctx = Group;`)")?;
        let group = self.group_name()?;
        let rule = self.rule()?;
        self.end_statement("context binding")?;
        Ok(ContextDecl {
            procs,
            context,
            group,
            rule,
            span,
        })
    }

    fn root_decl(&mut self) -> PResult<RootDecl> {
        let span = self.span();
        let procs = vec![self.proc_ref(true)?];
        self.expect_sym(".", "between the process and its root name")?;
        let (root, _) = self.ident("a root name")?;
        self.expect_sym("=", "after the root name (`P[1].Root = Q[1] in Ctx;`)")?;
        let target = self.proc_ref(false)?;
        if !self.is_kw(0, "in") {
            return self.err("`in CONTEXT` after the root process");
        }
        self.bump();
        let (context, _) = self.ident("a context name after `in`")?;
        let rule = self.rule()?;
        self.end_statement("root binding")?;
        Ok(RootDecl {
            procs,
            root,
            target,
            context,
            rule,
            span,
        })
    }

    fn port_context_decl(&mut self) -> PResult<PortContextDecl> {
        let span = self.span();
        let procs = vec![self.proc_ref(true)?];
        self.expect_sym(".", "between the process and its port type")?;
        let (port_type, _) = self.ident("a port type")?;
        if !self.is_kw(0, "in") {
            return self.err("`in CONTEXT` after the port type");
        }
        self.bump();
        let (context, _) = self.ident("a context name after `in`")?;
        let rule = self.rule()?;
        self.end_statement("port binding")?;
        Ok(PortContextDecl {
            procs,
            port_type,
            context,
            rule,
            span,
        })
    }

    fn value(&mut self) -> PResult<Value> {
        if let Tok::Str(s) = self.peek().clone() {
            let sp = self.bump().span;
            return Ok(Value::Str(s, sp));
        }
        Ok(Value::Int(self.expr()?))
    }

    fn argument_decl(&mut self) -> PResult<ArgumentDecl> {
        let span = self.span();
        let procs = vec![self.proc_ref(true)?];
        self.expect_sym(".", "between the process and the argument name")?;
        let (name, _) = self.ident("an argument name")?;
        self.expect_sym("=", "after the argument name")?;
        let value = self.value()?;
        let rule = self.rule()?;
        self.end_statement("argument")?;
        Ok(ArgumentDecl {
            procs,
            name,
            value,
            rule,
            span,
        })
    }

    fn weight_decl(&mut self) -> PResult<WeightDecl> {
        let span = self.span();
        let procs = self.proc_list()?;
        self.expect_sym(":", "after the processes (`W[1..3]: 600;`)")?;
        let weight = self.expr()?;
        let rule = self.rule()?;
        self.end_statement("weight")?;
        Ok(WeightDecl {
            procs,
            weight,
            rule,
            span,
        })
    }

    fn location(&mut self) -> PResult<LocationDecl> {
        let span = self.span();
        let (component, _) = self.ident("a component name (`T: \"terminal\";`)")?;
        self.expect_sym(":", "after the component name")?;
        let path = match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                s
            }
            _ => return self.err("the executable as a string (`\"path\"`)"),
        };
        if !self.eat_sym(";") && !matches!(self.peek(), Tok::Ident(_) | Tok::Eof) {
            return self.err("`;` after the location");
        }
        Ok(LocationDecl {
            component,
            path,
            span,
        })
    }

    fn proc_params(&mut self) -> PResult<ProcParamDecl> {
        let span = self.span();
        let procs = self.proc_list()?;
        self.expect_sym(":", "after the processes (`T[1]: 17;`)")?;
        let mut values = vec![self.value()?];
        while self.eat_sym(",") {
            values.push(self.value()?);
        }
        let rule = self.rule()?;
        self.end_statement("parameter list")?;
        Ok(ProcParamDecl {
            procs,
            values,
            rule,
            span,
        })
    }

    // ---- expressions ----

    fn expr(&mut self) -> PResult<Expr> {
        if self.depth == 0 {
            self.ops = 0;
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.span(), "expression nested too deeply".into()));
        }
        let r = self.binary(0);
        self.depth -= 1;
        r
    }

    fn binary(&mut self, level: usize) -> PResult<Expr> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["==", "!=", "<", "<=", ">", ">="],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Tok::Sym(s) if LEVELS[level].contains(s) => *s,
                _ => break,
            };
            let sp = self.bump().span;
            self.count_op(sp)?;
            let rhs = self.binary(level + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), sp);
        }
        Ok(lhs)
    }

    fn count_op(&mut self, sp: Span) -> PResult<()> {
        self.ops += 1;
        if self.ops > MAX_OPS {
            Err((sp, format!("expression has more than {MAX_OPS} operators")))
        } else {
            Ok(())
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.is_sym("-") || self.is_sym("!") {
            let t = self.bump();
            self.count_op(t.span)?;
            let op = match t.tok {
                Tok::Sym(s) => s,
                _ => "-",
            };
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err((t.span, "expression nested too deeply".into()));
            }
            let e = self.unary();
            self.depth -= 1;
            return Ok(Expr::Unary(op, Box::new(e?), t.span));
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<Expr> {
        let sp = self.span();
        match self.peek().clone() {
            Tok::Int(n) => {
                self.bump();
                Ok(Expr::Int(n, sp))
            }
            Tok::Ident(name) => {
                self.bump();
                if self.is_sym("(") {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is_sym(")") {
                        args.push(self.expr()?);
                        while self.eat_sym(",") {
                            args.push(self.expr()?);
                        }
                    }
                    self.expect_sym(")", "to close the function's arguments")?;
                    Ok(Expr::Call(name, args, sp))
                } else {
                    Ok(Expr::Name(name, sp))
                }
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(")", "to close `(`")?;
                Ok(e)
            }
            _ => self.err("a number, a parameter name or `(`"),
        }
    }
}
