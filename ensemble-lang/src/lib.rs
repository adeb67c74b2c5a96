//! The Ensemble language: process communication graph scripts that
//! compose components with open ports, read, checked, drawn and planned
//! without MPI (this crate links no MPI library; the loaders and component
//! runtimes are in the `ensemble` runtime crate).
//!
//! [`parse_str`] / [`parse_file`] read a script (the published syntax plus
//! parameters, ranges, rules and the MPI annotation) into the explicit
//! [`model::Application`]; [`check`] runs every check before anything
//! starts; [`to_dot`] / [`draw_svg`] draw the process communication graph;
//! [`plan`] turns a checked application into the `mpiexec` line that starts
//! it, and [`envargs`] is the command-line form of an MPI process's
//! envelope that the plan writes and the runtime reads. [`parse_syntax`]
//! gives the syntax tree before expansion, and [`print`] writes a tree or
//! a model back as script text. The grammar is in the crate's README.

pub mod ast;
pub mod check;
pub mod diag;
pub mod draw;
pub mod envargs;
pub mod expand;
pub mod hosts;
pub mod lexer;
pub mod model;
pub mod parser;
pub mod plan;
pub mod print;
#[cfg(feature = "render")]
pub mod render;

use std::collections::BTreeMap;
use std::path::Path;

pub use check::{check, resolve_location};
pub use diag::{Diagnostic, Severity};
pub use draw::{draw_svg, to_dot};
pub use hosts::HostMap;
pub use model::Application;

/// Parses and expands a script held in `src`; `file` names it in messages
/// and relative locations start in its directory. `params` overrides the
/// script's `Parameters` defaults (`-D N=64`).
pub fn parse_str(
    src: &str,
    file: &Path,
    params: &BTreeMap<String, i64>,
) -> Result<Application, Vec<Diagnostic>> {
    let script = parse_syntax(src, file)?;
    expand::expand(&script, file, params)
}

/// Reads the script held in `src` into its syntax tree, without
/// expanding it (rules, ranges and parameters as written); `file` names
/// it in messages. [`print::script`] writes the tree back as text.
pub fn parse_syntax(src: &str, file: &Path) -> Result<ast::Script, Vec<Diagnostic>> {
    let syntax = |(span, msg): (model::Span, String)| vec![Diagnostic::error(file, span, msg)];
    let tokens = lexer::lex(src).map_err(syntax)?;
    parser::parse(&tokens).map_err(syntax)
}

/// Reads and parses the script at `path` (see [`parse_str`]).
pub fn parse_file(
    path: &Path,
    params: &BTreeMap<String, i64>,
) -> Result<Application, Vec<Diagnostic>> {
    let src = read_text(path, "script")?;
    parse_str(&src, path, params)
}

/// Reads the text file at `path` (a `what`: script, host map). A file that
/// is not UTF-8 is refused with the line and column of its first bad byte.
pub fn read_text(path: &Path, what: &str) -> Result<String, Vec<Diagnostic>> {
    let bytes = std::fs::read(path).map_err(|e| {
        vec![Diagnostic::error(
            path,
            model::Span { line: 1, col: 1 },
            format!("cannot read the {what}: {e}"),
        )]
    })?;
    utf8_text(bytes, path, what).map_err(|d| vec![d])
}

/// `bytes` as text, or an error at the line:column (in characters, as
/// the lexer counts) of the first byte that is not UTF-8.
pub fn utf8_text(bytes: Vec<u8>, file: &Path, what: &str) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // Everything before `at` is valid UTF-8.
        let good = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let line = good.matches('\n').count() as u32 + 1;
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        let col = good[line_start..].chars().count() as u32 + 1;
        let how = match e.utf8_error().error_len() {
            Some(_) => "is not UTF-8",
            None => "starts a UTF-8 character that the file cuts off",
        };
        Diagnostic::error(
            file,
            model::Span { line, col },
            format!(
                "byte 0x{:02X} {how}: the {what} must be UTF-8 text",
                bytes[at]
            ),
        )
    })
}

/// Reads one command-line parameter definition `NAME=VALUE` (as given to
/// `-D`), e.g. `N=64`.
pub fn parse_define(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("parameter `{text}`: expected NAME=VALUE, e.g. N=64"))?;
    let name = name.trim();
    let ok_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok_name {
        return Err(format!(
            "parameter `{text}`: `{name}` is not a parameter name"
        ));
    }
    let v = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("parameter `{text}`: `{}` is not an integer", value.trim()))?;
    Ok((name.to_string(), v))
}
