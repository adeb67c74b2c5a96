//! `pvm3.h` and `fpvm3.h` checked against Debian's PVM 3.4.6 headers
//! (package `pvm-dev`), which serve as the reference: every name Debian
//! defines must exist in ours with the same value, every function it
//! declares must have the same type in ours, and the structures must have
//! the same layout. The headers are taken from the source tree
//! (`cbindings/include`), so no staging is needed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use tests::mpirun::{lines_where, workspace_root};

const DEBIAN_INCLUDE: &str = "/usr/include";

/// One of Debian's headers; a missing one is a failure, not a skip.
fn debian(name: &str) -> String {
    let p = Path::new(DEBIAN_INCLUDE).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "Debian's {} is needed as the reference ({e}): apt-get install pvm-dev",
            p.display()
        )
    })
}

/// Our header directory (the sources, not the staged copy).
fn ours() -> PathBuf {
    workspace_root().join("cbindings/include")
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pvm_headers")
        .join(test);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create scratch directory");
    d
}

/// What a successful command printed.
struct Output {
    stdout: String,
    stderr: String,
}

/// Runs `cmd`; panics with everything it printed unless it succeeds.
fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("{what}: cannot run {cmd:?}: {e} (apt-get install build-essential gfortran)")
    });
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{what}: {cmd:?} failed ({})\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    Output { stdout, stderr }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write scratch file");
    p
}

// ---------------------------------------------------------------------------
// A small reader for Debian's pvm3.h

/// An open conditional (`#if`, `#ifdef`, `#ifndef`) around a definition,
/// and whether the definition sits in its `#else` part.
#[derive(Clone, Debug)]
struct Cond {
    open: String,
    in_else: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum MacroKind {
    Int,
    Str,
    Empty,
    FunctionLike,
}

#[derive(Debug)]
struct Macro {
    name: String,
    kind: MacroKind,
}

/// A function declaration, as written in Debian's header.
#[derive(Debug)]
struct Proto {
    name: String,
    decl: String,
    guards: Vec<Cond>,
}

#[derive(Debug)]
struct CStruct {
    name: String,
    /// (type, field name)
    fields: Vec<(String, String)>,
}

#[derive(Debug, Default)]
struct CHeader {
    macros: Vec<Macro>,
    protos: Vec<Proto>,
    structs: Vec<CStruct>,
}

/// Replaces comments by blanks (keeping line breaks) and joins lines
/// continued with a backslash.
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                    }
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' | '\'' => {
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out.replace("\\\n", " ")
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the end of `s`.
fn trailing_ident(s: &str) -> &str {
    let s = s.trim_end();
    let start = s.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    &s[start..]
}

fn parse_c_header(src: &str) -> CHeader {
    let text = strip_comments(src);
    let mut h = CHeader::default();
    let mut stack: Vec<Cond> = Vec::new();
    let mut stmt = String::new();
    let mut stmt_guards: Vec<Cond> = Vec::new();
    let mut depth = 0;
    for line in text.lines() {
        let t = line.trim();
        if let Some(directive) = t.strip_prefix('#') {
            let directive = directive.trim_start();
            let keyword: String = directive
                .chars()
                .take_while(|c| is_ident_char(*c))
                .collect();
            let rest = directive[keyword.len()..].trim();
            match keyword.as_str() {
                "if" | "ifdef" | "ifndef" => stack.push(Cond {
                    open: format!("#{keyword} {rest}"),
                    in_else: false,
                }),
                "else" => stack.last_mut().expect("#else without #if").in_else = true,
                "endif" => {
                    stack.pop().expect("#endif without #if");
                }
                "elif" => panic!("#elif in Debian's pvm3.h: teach this reader about it"),
                "define" => {
                    let name: String = rest.chars().take_while(|c| is_ident_char(*c)).collect();
                    let after = &rest[name.len()..];
                    let kind = if after.starts_with('(') {
                        MacroKind::FunctionLike
                    } else if after.trim().is_empty() {
                        MacroKind::Empty
                    } else if after.trim().starts_with('"') {
                        MacroKind::Str
                    } else {
                        MacroKind::Int
                    };
                    if !h.macros.iter().any(|m| m.name == name) {
                        h.macros.push(Macro { name, kind });
                    }
                }
                _ => {}
            }
            continue;
        }
        // Text only a C++ compiler sees (the extern "C" braces).
        if stack
            .iter()
            .any(|c| c.open == "#ifdef __cplusplus" && !c.in_else)
        {
            continue;
        }
        for c in line.chars().chain(std::iter::once('\n')) {
            if stmt.trim().is_empty() && !c.is_whitespace() {
                stmt.clear();
                stmt_guards = stack
                    .iter()
                    .filter(|c| !c.open.contains("_PVM3_H_"))
                    .cloned()
                    .collect();
            }
            stmt.push(c);
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ';' if depth == 0 => {
                    add_statement(&mut h, stmt.trim(), &stmt_guards);
                    stmt.clear();
                }
                _ => {}
            }
        }
    }
    assert!(stmt.trim().is_empty(), "unfinished declaration: {stmt}");
    h
}

fn add_statement(h: &mut CHeader, s: &str, guards: &[Cond]) {
    if s.starts_with("struct") && s.contains('{') {
        let open = s.find('{').unwrap();
        let close = s.rfind('}').unwrap();
        let name = s["struct".len()..open].trim().to_string();
        let fields = s[open + 1..close]
            .split(';')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| {
                let field = trailing_ident(f).to_string();
                let ty = squeeze(&f[..f.len() - field.len()]);
                (ty, field)
            })
            .collect();
        h.structs.push(CStruct { name, fields });
    } else if let Some(at) = s.find("__ProtoGlarp__") {
        h.protos.push(Proto {
            name: trailing_ident(&s[..at]).to_string(),
            decl: squeeze(s),
            guards: guards.to_vec(),
        });
    } else {
        panic!("unrecognised declaration in Debian's pvm3.h: {s}");
    }
}

/// Wraps `body` in the same conditionals as in Debian's header.
fn guarded(guards: &[Cond], body: &str) -> String {
    let mut s = String::new();
    for g in guards {
        s.push_str(&g.open);
        s.push('\n');
        if g.in_else {
            s.push_str("#else\n");
        }
    }
    s.push_str(body);
    s.push('\n');
    for _ in guards {
        s.push_str("#endif\n");
    }
    s
}

fn debian_c() -> CHeader {
    let h = parse_c_header(&debian("pvm3.h"));
    // Sanity of the reader itself.
    assert!(h.macros.len() > 100, "few macros read: {:?}", h.macros);
    assert!(h.protos.len() > 100, "few prototypes read: {:?}", h.protos);
    for name in [
        "pvm_recvf",
        "pvm_catchout",
        "PvmSum",
        "pvm_packf",
        "pvmtmpnam",
    ] {
        assert!(h.protos.iter().any(|p| p.name == name), "{name} not read");
    }
    assert_eq!(h.structs.len(), 4, "{:?}", h.structs);
    h
}

// ---------------------------------------------------------------------------
// pvm3.h

/// A program printing every macro Debian defines, the structure layouts
/// and a few macro expressions.
fn constants_program(h: &CHeader) -> String {
    let mut p = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include <pvm3.h>\n\nint main(void)\n{\n",
    );
    for m in &h.macros {
        let n = &m.name;
        let line = match m.kind {
            MacroKind::Int => format!(
                "    printf(\"%s = %lld (%s, %d bytes)\\n\", \"{n}\", (long long)({n}), \
                 (({n}) * 0 - 1 < 0) ? \"signed\" : \"unsigned\", (int)sizeof({n}));"
            ),
            MacroKind::Str => format!("    printf(\"%s = \\\"%s\\\"\\n\", \"{n}\", {n});"),
            MacroKind::Empty | MacroKind::FunctionLike => {
                format!("    printf(\"%s defined\\n\", \"{n}\");")
            }
        };
        writeln!(
            p,
            "#ifdef {n}\n{line}\n#else\n    printf(\"%s MISSING\\n\", \"{n}\");\n#endif"
        )
        .unwrap();
    }
    for e in [
        "PvmMboxDirectIndex(0)",
        "PvmMboxDirectIndex(5)",
        "PvmMboxDirectIndex(PvmMboxMaxDirectIndex - 1)",
        "PvmMboxDirectIndex(PvmMboxMaxDirectIndex)",
        "PvmMboxDirectIndexOf(PvmMboxDirectIndex(777) | PvmMboxMultiInstance)",
        "PvmMboxDirectIndexOf(PvmMboxMaxFlag - 1)",
    ] {
        let q = e.replace('"', "\\\"");
        writeln!(
            p,
            "    printf(\"%s = %lld\\n\", \"{q}\", (long long)({e}));"
        )
        .unwrap();
    }
    for s in &h.structs {
        let n = &s.name;
        writeln!(
            p,
            "    printf(\"struct %s: %d bytes\\n\", \"{n}\", (int)sizeof(struct {n}));"
        )
        .unwrap();
        for (_, f) in &s.fields {
            writeln!(
                p,
                "    printf(\"  %s at %d, %d bytes\\n\", \"{f}\", (int)offsetof(struct {n}, {f}), \
                 (int)sizeof(((struct {n} *)0)->{f}));"
            )
            .unwrap();
        }
    }
    p.push_str("    return 0;\n}\n");
    p
}

#[test]
fn c_constants_and_layouts_match_debian() {
    let h = debian_c();
    let dir = scratch("c_constants");
    let src = write(&dir, "constants.c", &constants_program(&h));
    for defines in [&[][..], &["-DNOTMPNAM"][..]] {
        let mut results = Vec::new();
        for (who, include) in [("debian", None), ("ours", Some(ours()))] {
            let exe = dir.join(format!("constants-{who}"));
            let mut cc = Command::new("cc");
            if let Some(inc) = &include {
                cc.arg("-I").arg(inc);
            }
            cc.args(defines).arg(&src).arg("-o").arg(&exe);
            run(
                &mut cc,
                &format!("compile constants.c against {who}'s pvm3.h"),
            );
            results.push(run(
                &mut Command::new(&exe),
                &format!("run constants-{who}"),
            ));
        }
        let (deb, our) = (&results[0], &results[1]);
        assert!(
            !deb.stdout.contains("MISSING"),
            "reader error:\n{}",
            deb.stdout
        );
        let missing = lines_where(&our.stdout, |l| l.contains("MISSING"));
        assert!(missing.is_empty(), "pvm3.h lacks {missing:?} ({defines:?})");
        for (d, o) in deb.stdout.lines().zip(our.stdout.lines()) {
            assert_eq!(o, d, "pvm3.h differs from Debian's ({defines:?})");
        }
        assert_eq!(our.stdout, deb.stdout, "{defines:?}");
        assert_eq!(our.stderr, deb.stderr, "{defines:?}");
    }
}

/// A C/C++ file that includes our header and redeclares every function
/// with Debian's exact declaration: any difference in type is a
/// conflicting redeclaration. In C it also checks the type of every
/// structure field.
fn redeclarations(h: &CHeader) -> String {
    let mut p = String::from(
        "#include <pvm3.h>\n\n#undef __ProtoGlarp__\n#define __ProtoGlarp__(x) x\n\n\
         #ifdef __cplusplus\nextern \"C\" {\n#endif\n",
    );
    for f in &h.protos {
        p.push_str(&guarded(&f.guards, &f.decl));
    }
    p.push_str("#ifdef __cplusplus\n}\n#endif\n\n#ifndef __cplusplus\n");
    for s in &h.structs {
        for (ty, f) in &s.fields {
            writeln!(
                p,
                "_Static_assert(__builtin_types_compatible_p(__typeof__(((struct {n} *)0)->{f}), \
                 {ty}), \"struct {n}: {f} is not {ty}\");",
                n = s.name
            )
            .unwrap();
        }
    }
    p.push_str("#endif\n\nint main(void) { return 0; }\n");
    p
}

/// Checks that `src` compiles cleanly (`-Wall -Werror`) against our
/// `pvm3.h` as C and as C++, plain and with `NOTMPNAM` and `PVM33COMPAT`;
/// `what` names the check.
fn compiles_as_c_and_cxx(src: &Path, what: &str) {
    for defines in [&[][..], &["-DNOTMPNAM", "-DPVM33COMPAT"][..]] {
        for (compiler, lang) in [("cc", "c"), ("c++", "c++")] {
            let mut cmd = Command::new(compiler);
            cmd.arg("-x")
                .arg(lang)
                .args(["-fsyntax-only", "-Wall", "-Werror", "-I"])
                .arg(ours())
                .args(defines)
                .arg(src);
            run(&mut cmd, &format!("{what} ({lang} {defines:?})"));
        }
    }
}

#[test]
fn c_prototypes_match_debian() {
    let h = debian_c();
    let dir = scratch("c_prototypes");
    let src = write(&dir, "redeclare.c", &redeclarations(&h));
    compiles_as_c_and_cxx(&src, "Debian's prototypes against our pvm3.h");
}

#[test]
fn every_debian_function_is_declared() {
    let h = debian_c();
    let dir = scratch("c_functions");
    let mut p = String::from(
        "#include <pvm3.h>\n#include <pvm3.h>\n\ntypedef void (*any_fn)(void);\n\n\
         static any_fn table[] = {\n",
    );
    for f in &h.protos {
        p.push_str(&guarded(&f.guards, &format!("    (any_fn){},", f.name)));
    }
    p.push_str("    0\n};\n\nint main(void)\n{\n    int n = 0;\n    while (table[n])\n        n++;\n    return n == 0;\n}\n");
    let src = write(&dir, "functions.c", &p);
    compiles_as_c_and_cxx(&src, "take the address of every function");
}

/// Our header alone, under old and new language standards, with the
/// declarations it adds to Debian's (error state, va_list packing, the
/// utilities Debian's examples call).
#[test]
fn header_stands_alone_under_strict_standards() {
    let dir = scratch("c_standalone");
    let src = write(
        &dir,
        "alone.c",
        "#include <pvm3.h>\n\n\
         int main(void)\n{\n\
         \x20   int *err = &pvm_errno;\n\
         \x20   char **list = pvm_errlist;\n\
         \x20   int *nerr = &pvm_nerr;\n\
         \x20   int (*vp)(const char *, va_list) = pvm_vpackf;\n\
         \x20   int (*vu)(const char *, va_list) = pvm_vunpackf;\n\
         \x20   int (*sl)(int) = pvmsleep;\n\
         \x20   int (*gc)(struct timeval *) = pvmgetclock;\n\
         \x20   int (*co)(FILE *) = pvm_catchout;\n\
         \x20   struct pvmminfo mi;\n\
         \x20   mi.len = PvmMboxDirectIndexOf(PvmMboxDirectIndex(3));\n\
         \x20   return (err && list && nerr && vp && vu && sl && gc && co && mi.len == 3) ? 0 : 1;\n\
         }\n",
    );
    let c = ["-std=c89", "-std=c99", "-std=c11", "-std=gnu17"];
    let cxx = ["-std=c++98", "-std=c++11", "-std=c++17"];
    for (compiler, lang, stds) in [("cc", "c", &c[..]), ("c++", "c++", &cxx[..])] {
        for std in stds {
            let mut cmd = Command::new(compiler);
            cmd.arg("-x").arg(lang).arg(std).args([
                "-pedantic",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsyntax-only",
            ]);
            if lang == "c" {
                cmd.arg("-Wstrict-prototypes");
            }
            cmd.arg("-I").arg(ours()).arg(&src);
            run(&mut cmd, &format!("our pvm3.h alone ({lang} {std})"));
        }
    }
}

// ---------------------------------------------------------------------------
// fpvm3.h

/// The integer parameters of a Fortran include file (names upper-cased,
/// in order of appearance) and the names it declares `integer`.
struct FortranConsts {
    params: Vec<(String, i64)>,
    integers: BTreeSet<String>,
}

fn parse_fortran(src: &str) -> FortranConsts {
    let mut params = Vec::new();
    let mut integers = BTreeSet::new();
    for line in src.lines() {
        if line.starts_with(['c', 'C', '*', '!']) {
            continue;
        }
        let stmt = line.split('!').next().unwrap_or("").trim();
        let lower = stmt.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("parameter") {
            let inner = rest
                .trim()
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or_else(|| panic!("unexpected parameter statement: {stmt}"));
            for assignment in inner.split(',') {
                let (name, value) = assignment
                    .split_once('=')
                    .unwrap_or_else(|| panic!("unexpected parameter statement: {stmt}"));
                let value: i64 = value
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("not an integer value: {stmt}"));
                params.push((name.trim().to_ascii_uppercase(), value));
            }
        } else if let Some(rest) = lower.strip_prefix("integer") {
            for name in rest.split(',') {
                integers.insert(name.trim().to_ascii_uppercase());
            }
        }
    }
    FortranConsts { params, integers }
}

#[test]
fn fortran_parameters_match_debian() {
    let deb = parse_fortran(&debian("fpvm3.h"));
    assert!(
        deb.params.len() > 100,
        "few parameters read: {:?}",
        deb.params
    );
    let text = std::fs::read_to_string(ours().join("fpvm3.h")).expect("our fpvm3.h");
    let our = parse_fortran(&text);

    let deb_map: BTreeMap<&str, i64> = deb.params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let our_map: BTreeMap<&str, i64> = our.params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    assert_eq!(
        our_map.len(),
        our.params.len(),
        "a parameter is defined twice"
    );
    let missing: Vec<&&str> = deb_map
        .keys()
        .filter(|n| !our_map.contains_key(*n))
        .collect();
    assert!(missing.is_empty(), "fpvm3.h lacks {missing:?}");
    // An extra name could clash with a variable of an existing program.
    let extra: Vec<&&str> = our_map
        .keys()
        .filter(|n| !deb_map.contains_key(*n))
        .collect();
    assert!(
        extra.is_empty(),
        "fpvm3.h defines names Debian's does not: {extra:?}"
    );
    for (name, value) in &deb_map {
        assert_eq!(our_map[name], *value, "fpvm3.h: {name}");
    }
    assert_eq!(our_map["PVMNOENTRY"], -32);
    assert_eq!(our_map["PVMDUPENTRY"], -33);
    let deb_integers: BTreeSet<&str> = deb.integers.iter().map(String::as_str).collect();
    let our_integers: BTreeSet<&str> = our.integers.iter().map(String::as_str).collect();
    assert_eq!(our_integers, deb_integers, "names declared integer");

    // Usable as fixed form and as free form.
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        assert!(line.len() <= 72, "fpvm3.h:{n} is longer than 72 columns");
        assert!(!line.contains('\t'), "fpvm3.h:{n} has a tab");
        assert!(!line.trim_end().ends_with('&'), "fpvm3.h:{n} continues");
        if !line.trim().is_empty() && !line.starts_with('!') {
            assert!(
                line.starts_with("      ") && !line.starts_with("       "),
                "fpvm3.h:{n}: statements start in column 7: {line:?}"
            );
        }
    }
}

#[test]
fn fortran_programs_build_with_our_fpvm3() {
    let deb = parse_fortran(&debian("fpvm3.h"));
    let dir = scratch("fortran");
    let mut expected = String::new();
    let mut prints = Vec::new();
    for (name, value) in &deb.params {
        writeln!(expected, "{name} {value}").unwrap();
        prints.push(format!("print '(A,1X,I0)', '{name}', {name}"));
    }
    let mut fixed =
        String::from("      program pvmconsts\n      implicit none\n      include 'fpvm3.h'\n");
    let mut free = String::from("program pvmconsts\n  implicit none\n  include 'fpvm3.h'\n");
    for p in &prints {
        let line = format!("      {p}");
        assert!(line.len() <= 72, "generated line too long: {line}");
        writeln!(fixed, "{line}").unwrap();
        writeln!(free, "  {p}").unwrap();
    }
    fixed.push_str("      end\n");
    free.push_str("end program pvmconsts\n");
    let fixed_src = write(&dir, "consts.f", &fixed);
    let free_src = write(&dir, "consts.f90", &free);

    let builds: [(&str, &Path, PathBuf, &[&str]); 3] = [
        (
            "debian-fixed",
            &fixed_src,
            PathBuf::from(DEBIAN_INCLUDE),
            &["-ffixed-form"],
        ),
        (
            "ours-fixed",
            &fixed_src,
            ours(),
            &["-ffixed-form", "-Wall", "-Werror"],
        ),
        (
            "ours-free",
            &free_src,
            ours(),
            &["-ffree-form", "-std=f2008", "-Wall", "-Werror"],
        ),
    ];
    for (who, src, include, flags) in builds {
        let exe = dir.join(who);
        let mut fc = Command::new("gfortran");
        fc.args(flags)
            .arg("-I")
            .arg(&include)
            .arg(src)
            .arg("-o")
            .arg(&exe);
        run(&mut fc, &format!("gfortran {who}"));
        let out = run(&mut Command::new(&exe), &format!("run {who}"));
        assert_eq!(out.stdout, expected, "{who}");
    }
}
