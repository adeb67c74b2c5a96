//! One broken script per check, each with the line:column the message
//! must point at. The base scripts pass every check; each test changes one
//! thing.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::*;
use ensemble_lang::model::Application;
use ensemble_lang::{check, Diagnostic, HostMap, Severity};

const PVM_BASE: &str = r#"Application Broken
PCG
Components
T[1], T[2] #ports = S:1;
R[1] #ports = C:2, P:0;
Connections
T[1].S[1] <-> R[1].C[1];
T[2].S[1] <-> R[1].C[2];
Parallel System
environment PVM3;
PVM3 annotation
RequestID : default;
Sequential System
Location
T: "/bin/true";
R: "/bin/true";
"#;

const MPI_BASE: &str = r#"Application MpiBroken
PCG
Components
T[1..3] #ports = ;
S[1..2] #ports = Out:1, In:1;
Connections
S[1].Out[1] <-> S[2].In[1];
S[2].Out[1] <-> S[1].In[1];
Parallel System
environment MPI;
MPI annotation
RequestID : default;
Contexts
S[1].TerminalGroup = TG1; T[1].LocalGroup = TG1;
S[2].TerminalGroup = TG2; T[2..3].LocalGroup = TG2;
S[1..2].ServerGroup = Servers;
Roots
S[1].CalcRoot = S[1] in TerminalGroup;
S[2].CalcRoot = S[2] in TerminalGroup;
T[1].CalcRoot = S[1] in LocalGroup;
T[2..3].CalcRoot = S[2] in LocalGroup;
Ports
S[1..2].Out in ServerGroup;
S[1..2].In in ServerGroup;
Arguments
S[1..2].RingSize = 2;
Sequential System
Location
T: "/bin/true";
S: "/bin/true";
"#;

fn file() -> PathBuf {
    PathBuf::from("broken.ens")
}

/// `base` with line `n` (1-based) replaced by `text` (several lines if it
/// holds newlines; empty text deletes the line).
fn edit(base: &str, n: usize, text: &str) -> String {
    let mut lines: Vec<String> = base.lines().map(String::from).collect();
    if text.is_empty() {
        lines.remove(n - 1);
    } else {
        lines[n - 1] = text.to_string();
    }
    lines.join("\n") + "\n"
}

fn parse_errors(src: &str) -> Vec<Diagnostic> {
    match ensemble_lang::parse_str(src, &file(), &BTreeMap::new()) {
        Ok(_) => panic!("script parsed but should not:\n{src}"),
        Err(d) => d,
    }
}

fn checked(src: &str) -> (Application, Vec<Diagnostic>) {
    let app = parse_ok(src, &file());
    let d = check(&app, &HostMap::local());
    (app, d)
}

/// Asserts `diags` holds a diagnostic of `sev` at line:col whose message
/// contains `text`.
fn expect(diags: &[Diagnostic], sev: Severity, line: u32, col: u32, text: &str) {
    let found = diags.iter().any(|d| {
        d.severity == sev && d.span.line == line && d.span.col == col && d.message.contains(text)
    });
    assert!(
        found,
        "expected {sev:?} at {line}:{col} containing {text:?}, got:\n{}",
        render(diags)
    );
}

fn errors(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.is_error()).collect()
}

#[test]
fn base_scripts_pass_every_check() {
    assert!(
        checked(PVM_BASE).1.is_empty(),
        "{}",
        render(&checked(PVM_BASE).1)
    );
    assert!(
        checked(MPI_BASE).1.is_empty(),
        "{}",
        render(&checked(MPI_BASE).1)
    );
}

#[test]
fn diagnostic_display_names_file_line_column() {
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[1] <-> R[1].C[3];")).1;
    let e = errors(&d);
    assert_eq!(e.len(), 1, "{}", render(&d));
    assert_eq!(
        e[0].to_string(),
        "broken.ens:8:20: error: port index 3 outside R[1].C[1..2]"
    );
}

// ---- syntax ----

#[test]
fn syntax_error_says_what_was_expected() {
    let d = parse_errors(&edit(PVM_BASE, 7, "T[1].S[1] <- R[1].C[1];"));
    expect(&d, Severity::Error, 7, 11, "expected `<->`");
}

#[test]
fn missing_semicolon_after_a_connection() {
    let d = parse_errors(&edit(PVM_BASE, 7, "T[1].S[1] <-> R[1].C[1]"));
    expect(
        &d,
        Severity::Error,
        8,
        1,
        "expected `;` to end the connection",
    );
}

#[test]
fn script_without_application_line() {
    let d = parse_errors(&edit(PVM_BASE, 1, "PCG"));
    expect(&d, Severity::Error, 1, 1, "`Application NAME`");
}

#[test]
fn unclosed_comment_and_string() {
    let d = parse_errors(&edit(PVM_BASE, 5, "R[1] #ports = C:2, P:0; /* oops"));
    expect(&d, Severity::Error, 5, 25, "never closed");
    let d = parse_errors(&edit(PVM_BASE, 15, "T: \"/bin/true;"));
    expect(&d, Severity::Error, 15, 4, "string is not closed");
}

#[test]
fn bad_character() {
    let d = parse_errors(&edit(PVM_BASE, 5, "R[1] #ports = C:2, P:0 @"));
    expect(&d, Severity::Error, 5, 24, "unexpected character `@`");
}

// ---- processes and references ----

#[test]
fn unknown_component() {
    let d = parse_errors(&edit(PVM_BASE, 8, "T[2].S[1] <-> Q[1].C[2];"));
    expect(&d, Severity::Error, 8, 15, "unknown component `Q`");
}

#[test]
fn unknown_process_index() {
    let d = parse_errors(&edit(PVM_BASE, 8, "T[3].S[1] <-> R[1].C[2];"));
    expect(
        &d,
        Severity::Error,
        8,
        1,
        "no process T[3]: component T has indices 1..2",
    );
}

#[test]
fn process_declared_twice() {
    let d = parse_errors(&edit(PVM_BASE, 5, "R[1], T[2] #ports = C:2, P:0;"));
    expect(
        &d,
        Severity::Error,
        5,
        7,
        "process T[2] is declared twice (first at 4:7)",
    );
}

#[test]
fn unknown_port_type() {
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[1] <-> R[1].X[2];")).1;
    expect(
        &d,
        Severity::Error,
        8,
        20,
        "unknown port type X for R[1] (it has C:2, P:0)",
    );
}

#[test]
fn port_index_outside_declared_count() {
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[0] <-> R[1].C[2];")).1;
    expect(
        &d,
        Severity::Error,
        8,
        6,
        "port index 0 outside T[2].S[1..1]",
    );
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[1] <-> R[1].P[1];")).1;
    expect(
        &d,
        Severity::Error,
        8,
        20,
        "port index 1 outside R[1].P[1..0]",
    );
    let d = parse_errors(&edit(PVM_BASE, 8, "T[2].S[-1] <-> R[1].C[2];"));
    expect(
        &d,
        Severity::Error,
        8,
        6,
        "port index -1 outside T[2].S[1..1]",
    );
}

#[test]
fn port_used_by_two_channels() {
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[1] <-> R[1].C[1];")).1;
    expect(
        &d,
        Severity::Error,
        8,
        20,
        "port R[1].C[1] is used by two channels (also at 7:20)",
    );
    let d = checked(&edit(PVM_BASE, 8, "T[2].S[1] <-> T[2].S[1];")).1;
    expect(&d, Severity::Error, 8, 20, "joins port T[2].S[1] to itself");
}

#[test]
fn unconnected_ports_are_warnings() {
    let d = checked(&edit(PVM_BASE, 8, "")).1;
    assert!(errors(&d).is_empty(), "{}", render(&d));
    expect(
        &d,
        Severity::Warning,
        4,
        7,
        "port T[2].S[1] is not connected",
    );
    expect(
        &d,
        Severity::Warning,
        5,
        1,
        "port R[1].C[2] is not connected",
    );
    let d = checked(&edit(PVM_BASE, 5, "R[1] #ports = C:6, P:0;")).1;
    expect(
        &d,
        Severity::Warning,
        5,
        1,
        "ports R[1].C[3..6] are not connected",
    );
}

// ---- compatibility ----

#[test]
fn incompatible_port_types() {
    let src = edit(
        PVM_BASE,
        5,
        "R[1] #ports = C:2, P:0;\nCompatibility\nC <-> P;",
    );
    let d = checked(&src).1;
    expect(
        &d,
        Severity::Error,
        9,
        1,
        "incompatible port types: T[1].S and R[1].C",
    );
    expect(
        &d,
        Severity::Error,
        10,
        1,
        "incompatible port types: T[2].S and R[1].C",
    );
    // Declaring the relay's types and S as one class makes them compatible.
    let src = edit(
        PVM_BASE,
        5,
        "R[1] #ports = C:2, P:0;\nCompatibility\nS, C, P;",
    );
    assert!(checked(&src).1.is_empty());
    let src = edit(
        PVM_BASE,
        5,
        "R[1] #ports = C:2, P:0;\nCompatibility\nS <-> C;",
    );
    assert!(checked(&src).1.is_empty());
    // A pair declaration does not make a type compatible with itself.
    let src = edit(
        PVM_BASE,
        8,
        "T[2].S[1] <-> R[1].C[2];\nCompatibility\nS <-> C;",
    );
    let src = edit(&src, 7, "T[1].S[1] <-> T[2].S[1];");
    let d = checked(&src).1;
    expect(
        &d,
        Severity::Error,
        7,
        1,
        "incompatible port types: T[1].S and T[2].S",
    );
}

#[test]
fn compatibility_naming_an_unknown_type_warns() {
    let src = edit(
        PVM_BASE,
        5,
        "R[1] #ports = C:2, P:0;\nCompatibility\nS, C, Q;",
    );
    let d = checked(&src).1;
    expect(
        &d,
        Severity::Warning,
        7,
        1,
        "port type Q in a Compatibility declaration",
    );
}

// ---- tags ----

#[test]
fn explicit_tags_and_default_numbering() {
    let app = parse_ok(
        &edit(PVM_BASE, 7, "T[1].S[1] <-> R[1].C[1] tag 1;"),
        &file(),
    );
    assert_eq!(
        app.channels.iter().map(|c| c.tag).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let app = parse_ok(
        &edit(PVM_BASE, 8, "T[2].S[1] <-> R[1].C[2] tag 1;"),
        &file(),
    );
    assert_eq!(
        app.channels.iter().map(|c| c.tag).collect::<Vec<_>>(),
        vec![2, 1]
    );
    let src = edit(PVM_BASE, 7, "T[1].S[1] <-> R[1].C[1] tag 5;");
    let src = edit(&src, 8, "T[2].S[1] <-> R[1].C[2] tag 5;");
    let d = checked(&src).1;
    expect(
        &d,
        Severity::Error,
        8,
        1,
        "tag 5 is used by two channels (also at 7:1)",
    );
    let d = parse_errors(&edit(PVM_BASE, 7, "T[1].S[1] <-> R[1].C[1] tag 0;"));
    expect(
        &d,
        Severity::Error,
        7,
        29,
        "tag 0 is not a positive 32-bit integer",
    );
}

// ---- locations ----

#[test]
fn executable_missing() {
    let d = checked(&edit(
        PVM_BASE,
        15,
        "T: \"/nonexistent/no-such-terminal-program\";",
    ))
    .1;
    expect(
        &d,
        Severity::Error,
        15,
        1,
        "executable of component T is missing",
    );
    let d = checked(&edit(PVM_BASE, 15, "T: \"no-such-terminal-program\";")).1;
    expect(&d, Severity::Error, 15, 1, "neither in . nor on PATH");
}

#[test]
fn executable_found_relative_to_the_script_or_on_path() {
    let dir = scratch_dir("loc");
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let script = dir.join("app.ens");
    let src = edit(PVM_BASE, 15, "T: \"bin/terminal\";");
    let src = edit(&src, 16, "R: \"relay\";");
    std::fs::write(&script, &src).unwrap();
    let app = ensemble_lang::parse_file(&script, &BTreeMap::new()).unwrap();
    let d = check(&app, &HostMap::local());
    expect(
        &d,
        Severity::Error,
        15,
        1,
        "bin/terminal is not an executable file",
    );
    expect(&d, Severity::Error, 16, 1, "\"relay\" is neither in");
    // A file that is not executable still counts as missing.
    std::fs::write(dir.join("bin/terminal"), "data").unwrap();
    assert!(ensemble_lang::resolve_location(&app, "T").is_none());
    let t = fake_executable(&dir.join("bin"), "terminal");
    let r = fake_executable(&dir, "relay");
    assert_eq!(
        ensemble_lang::resolve_location(&app, "T"),
        Some(std::fs::canonicalize(t).unwrap())
    );
    assert_eq!(
        ensemble_lang::resolve_location(&app, "R"),
        Some(std::fs::canonicalize(r).unwrap())
    );
    assert!(check(&app, &HostMap::local()).is_empty());
    // A bare name found on PATH.
    let app = parse_ok(
        &edit(PVM_BASE, 15, "T: \"sh\";"),
        Path::new("/nonexistent-dir/x.ens"),
    );
    let sh = ensemble_lang::resolve_location(&app, "T").expect("sh on PATH");
    assert!(sh.ends_with("sh") && sh.is_absolute());
}

#[test]
fn process_with_no_location() {
    let d = checked(&edit(PVM_BASE, 16, "")).1;
    expect(&d, Severity::Error, 5, 1, "process R[1] has no location");
}

#[test]
fn location_for_unknown_component_warns_and_twice_is_an_error() {
    let d = checked(&edit(PVM_BASE, 16, "R: \"/bin/true\";\nX: \"/bin/true\";")).1;
    expect(
        &d,
        Severity::Warning,
        17,
        1,
        "location given for unknown component X",
    );
    let d = parse_errors(&edit(PVM_BASE, 16, "T: \"/bin/true\";"));
    expect(
        &d,
        Severity::Error,
        16,
        1,
        "component T has two locations (first at 15:1)",
    );
}

// ---- environment and allocation ----

#[test]
fn environment_missing_or_unknown() {
    let d = parse_errors(&edit(PVM_BASE, 10, ""));
    expect(&d, Severity::Error, 1, 13, "no `environment PVM3;`");
    let d = parse_errors(&edit(PVM_BASE, 10, "environment LINDA;"));
    expect(&d, Severity::Error, 10, 13, "unknown environment `LINDA`");
}

#[test]
fn allocation_to_unknown_host() {
    let src = edit(
        PVM_BASE,
        12,
        "RequestID : default;\nPVM3 allocation\nT[1], R[1] at orion;\nT[2] at localhost;",
    );
    let app = parse_ok(&src, &file());
    let d = check(&app, &HostMap::local());
    assert_eq!(errors(&d).len(), 1, "{}", render(&d));
    expect(
        &d,
        Severity::Error,
        14,
        15,
        "allocation to unknown host orion (of T[1], R[1])",
    );
    // A host map resolves the published name.
    let map = HostMap::parse("# published names\norion = localhost\n", Path::new("hosts")).unwrap();
    let mut all = HostMap::local();
    all.merge(&map);
    assert!(check(&app, &all).is_empty());
    let star = HostMap::parse("* localhost", Path::new("hosts")).unwrap();
    assert_eq!(star.resolve("zeus").as_deref(), Some("localhost"));
    assert!(check(&app, &star).is_empty());
}

#[test]
fn process_allocated_twice() {
    let src = edit(
        PVM_BASE,
        12,
        "RequestID : default;\nPVM3 allocation\nT[1] at localhost;\nT[1..2] at localhost;",
    );
    let d = parse_errors(&src);
    expect(
        &d,
        Severity::Error,
        15,
        1,
        "process T[1] is allocated twice (first at 14:9)",
    );
}

#[test]
fn host_map_file_errors_have_lines() {
    let e = HostMap::parse("a b\n\n  a b c\n", Path::new("hosts")).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].span.line, 3);
    assert_eq!(e[0].span.col, 3);
    let e = HostMap::parse("a = b c\n", Path::new("hosts")).unwrap_err();
    assert_eq!(e[0].span.line, 1);
    let m = HostMap::parse("a b  # comment\nc=d\ne = f\ng= h\n", Path::new("hosts")).unwrap();
    assert_eq!(m.resolve("g").as_deref(), Some("h"));
    assert_eq!(m.resolve("a").as_deref(), Some("b"));
    assert_eq!(m.resolve("c").as_deref(), Some("d"));
    assert_eq!(m.resolve("e").as_deref(), Some("f"));
    assert_eq!(m.resolve("zeus"), None);
    assert_eq!(
        HostMap::local().resolve("localhost").as_deref(),
        Some("localhost")
    );
}

// ---- parameters and rules ----

#[test]
fn unknown_name_in_an_expression() {
    let d = parse_errors(&edit(PVM_BASE, 4, "T[1..N] #ports = S:1;"));
    expect(&d, Severity::Error, 4, 6, "unknown name `N`");
}

#[test]
fn command_line_parameter_not_declared() {
    let src = edit(PVM_BASE, 4, "T[1], T[2] #ports = S:1;");
    let e = ensemble_lang::parse_str(&src, &file(), &params(&[("M", 3)])).unwrap_err();
    expect(
        &e,
        Severity::Error,
        1,
        13,
        "parameter M is given on the command line",
    );
}

#[test]
fn arithmetic_errors() {
    let d = parse_errors(&edit(PVM_BASE, 7, "T[1].S[1] <-> R[1].C[1 / 0];"));
    expect(&d, Severity::Error, 7, 24, "`/` by zero");
    let d = parse_errors(&edit(
        PVM_BASE,
        7,
        "T[1].S[1] <-> R[1].C[9223372036854775807 + 1];",
    ));
    expect(&d, Severity::Error, 7, 42, "overflow");
}

#[test]
fn huge_expansions_are_refused() {
    let d = parse_errors(&edit(PVM_BASE, 4, "T[1..100000000000] #ports = S:1;"));
    expect(&d, Severity::Error, 4, 3, "more than");
    let d = parse_errors(&edit(
        PVM_BASE,
        5,
        "R[1] #ports = C:2, P:0 for i in 1..100000000000;",
    ));
    expect(&d, Severity::Error, 5, 28, "more than");
}

// ---- MPI ----

#[test]
fn mpi_sections_need_the_mpi_environment() {
    let d = parse_errors(&edit(
        PVM_BASE,
        12,
        "RequestID : default;\nContexts\nT[1].G = X;",
    ));
    expect(&d, Severity::Error, 14, 1, "need `environment MPI;`");
}

#[test]
fn mpi_root_not_in_its_contexts_group() {
    let d = checked(&edit(MPI_BASE, 20, "T[1].CalcRoot = S[2] in LocalGroup;")).1;
    expect(
        &d,
        Severity::Error,
        20,
        1,
        "root CalcRoot of T[1] is S[2], which is not in group TG1 (context LocalGroup)",
    );
}

#[test]
fn mpi_root_in_an_unbound_context() {
    let d = checked(&edit(MPI_BASE, 20, "T[1].CalcRoot = S[1] in Other;")).1;
    expect(
        &d,
        Severity::Error,
        20,
        1,
        "context Other, which is not bound for it",
    );
}

#[test]
fn mpi_port_type_without_a_context() {
    let d = checked(&edit(MPI_BASE, 24, "")).1;
    expect(
        &d,
        Severity::Error,
        7,
        22,
        "port type In of S[2] has no context",
    );
    expect(
        &d,
        Severity::Error,
        8,
        22,
        "port type In of S[1] has no context",
    );
}

#[test]
fn mpi_port_context_not_bound() {
    let d = checked(&edit(MPI_BASE, 23, "S[1..2].Out in Nowhere;")).1;
    expect(
        &d,
        Severity::Error,
        23,
        1,
        "port type Out of S[1] is put in context Nowhere",
    );
}

#[test]
fn mpi_port_type_the_process_lacks() {
    let d = checked(&edit(
        MPI_BASE,
        24,
        "S[1..2].In in ServerGroup; T[1].Out in LocalGroup;",
    ))
    .1;
    expect(&d, Severity::Error, 24, 28, "T[1] has no port type Out");
}

#[test]
fn mpi_channel_ends_in_different_groups() {
    let d = checked(&edit(
        MPI_BASE,
        16,
        "S[1].ServerGroup = Servers; S[2].ServerGroup = Others;",
    ))
    .1;
    expect(&d, Severity::Error, 7, 1, "both ends must be in one group");
    expect(&d, Severity::Error, 8, 1, "both ends must be in one group");
}

#[test]
fn mpi_context_or_argument_bound_twice() {
    let d = checked(&edit(
        MPI_BASE,
        16,
        "S[1..2].ServerGroup = Servers; S[1].ServerGroup = Servers;",
    ))
    .1;
    expect(
        &d,
        Severity::Error,
        16,
        32,
        "context ServerGroup of S[1] is bound twice",
    );
    let d = checked(&edit(
        MPI_BASE,
        26,
        "S[1..2].RingSize = 2; S[2].RingSize = 3;",
    ))
    .1;
    expect(
        &d,
        Severity::Error,
        26,
        23,
        "argument RingSize of S[2] is given twice",
    );
}

#[test]
fn mpi_root_process_must_exist() {
    let d = parse_errors(&edit(MPI_BASE, 20, "T[1].CalcRoot = S[7] in LocalGroup;"));
    expect(&d, Severity::Error, 20, 17, "no process S[7]");
}

#[test]
fn hostile_expressions_are_refused_not_crashed() {
    let long = format!("T[1].S[1] <-> R[1].C[1{}];", "+0".repeat(100_000));
    let d = parse_errors(&edit(PVM_BASE, 7, &long));
    expect(&d, Severity::Error, 7, 535, "more than 256 operators");
    let deep = format!(
        "T[1].S[1] <-> R[1].C[{}1{}];",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let d = parse_errors(&edit(PVM_BASE, 7, &deep));
    expect(&d, Severity::Error, 7, 86, "nested too deeply");
    let neg = format!("T[1].S[1] <-> R[1].C[{}1];", "-".repeat(100_000));
    let d = parse_errors(&edit(PVM_BASE, 7, &neg));
    expect(&d, Severity::Error, 7, 85, "nested too deeply");
}

// ---- file contents ----

/// Writes `bytes` as a script of its own and parses it from the file.
fn file_errors(tag: &str, bytes: &[u8]) -> Vec<Diagnostic> {
    let path = scratch_dir(tag).join("broken.ens");
    std::fs::write(&path, bytes).expect("write the script");
    match ensemble_lang::parse_file(&path, &BTreeMap::new()) {
        Ok(_) => panic!("script parsed but should not"),
        Err(d) => d,
    }
}

#[test]
fn bytes_that_are_not_utf8_are_placed_by_line_and_column() {
    // Latin-1 "é" (0xE9) in a comment on line 7, after multi-byte UTF-8
    // characters that count as one column each.
    let src = edit(
        PVM_BASE,
        7,
        "T[1].S[1] <-> R[1].C[1]; /* ü→ caf\u{FFFD}e */",
    );
    let mut bytes = src.into_bytes();
    let at = bytes
        .windows(3)
        .position(|w| w == "\u{FFFD}".as_bytes())
        .expect("marker");
    bytes.splice(at..at + 3, [0xE9]);
    let d = file_errors("latin1", &bytes);
    assert_eq!(d.len(), 1, "{}", render(&d));
    assert!(
        d[0].to_string().ends_with(
            "broken.ens:7:35: error: byte 0xE9 is not UTF-8: the script must be UTF-8 text"
        ),
        "{}",
        render(&d)
    );
    // A lone continuation byte on line 1, column 1.
    let d = file_errors("continuation", b"\x80Application X\n");
    expect(&d, Severity::Error, 1, 1, "byte 0x80 is not UTF-8");
    // A character cut off by the end of the file.
    let mut cut = PVM_BASE.as_bytes().to_vec();
    cut.extend_from_slice(&[0xE2, 0x82]);
    let lines = PVM_BASE.lines().count() as u32;
    let d = file_errors("cut", &cut);
    expect(
        &d,
        Severity::Error,
        lines + 1,
        1,
        "byte 0xE2 starts a UTF-8 character that the file cuts off",
    );
}
