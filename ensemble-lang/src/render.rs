//! Diagnostics drawn for a reader: the `file:line:column: error: message`
//! line that editors and scripts parse, then the script's lines with a
//! caret under the place and the related places marked too (drawn by
//! `codespan-reporting`). Built with the `render` feature.

use std::io::Write as _;
use std::ops::Range;

use codespan_reporting::diagnostic::{self as cs, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{Buffer, Color, ColorSpec, WriteColor};
use codespan_reporting::term::{self, Config};

use crate::diag::{Diagnostic, Severity};
use crate::model::Span;

/// Whether the text carries ANSI colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Never,
    Always,
}

impl Colour {
    /// Colour when `is_terminal` and the user has not set NO_COLOR.
    pub fn for_terminal(is_terminal: bool) -> Colour {
        if is_terminal
            && std::env::var_os("NO_COLOR")
                .filter(|v| !v.is_empty())
                .is_none()
        {
            Colour::Always
        } else {
            Colour::Never
        }
    }
}

/// `d` as text ending in a newline: its one-line form, then, when `source`
/// (the text of `d.file`) holds the place, an excerpt with the place and
/// its related places marked.
pub fn render(d: &Diagnostic, source: Option<&str>, colour: Colour) -> String {
    let mut buf = buffer(colour);
    // Writing into memory cannot fail.
    let _ = write_headline(&mut buf, d);
    let mut text = String::from_utf8_lossy(buf.as_slice()).into_owned();
    if let Some(excerpt) = source.and_then(|src| excerpt(d, src, colour)) {
        text.push_str(&excerpt);
    }
    text
}

fn buffer(colour: Colour) -> Buffer {
    match colour {
        Colour::Never => Buffer::no_color(),
        Colour::Always => Buffer::ansi(),
    }
}

/// The `file:line:column: severity: message` line.
fn write_headline(out: &mut Buffer, d: &Diagnostic) -> std::io::Result<()> {
    let (word, colour) = match d.severity {
        Severity::Error => ("error", Color::Red),
        Severity::Warning => ("warning", Color::Yellow),
    };
    out.set_color(ColorSpec::new().set_bold(true))?;
    write!(out, "{}:{}:{}:", d.file.display(), d.span.line, d.span.col)?;
    out.set_color(ColorSpec::new().set_bold(true).set_fg(Some(colour)))?;
    write!(out, " {word}:")?;
    out.set_color(ColorSpec::new().set_bold(true))?;
    writeln!(out, " {}", d.message)?;
    out.reset()
}

/// The lines of the script around `d`'s places, drawn by codespan; `None`
/// when the primary place is not in `src`.
fn excerpt(d: &Diagnostic, src: &str, colour: Colour) -> Option<String> {
    let primary = byte_range(src, d.span)?;
    let mut here = Label::primary((), primary);
    if !d.related.is_empty() {
        here = here.with_message("and again here");
    }
    let mut labels = vec![here];
    for r in &d.related {
        if let Some(range) = byte_range(src, r.span) {
            labels.push(Label::secondary((), range).with_message(r.label.clone()));
        }
    }
    let diagnostic = match d.severity {
        Severity::Error => cs::Diagnostic::error(),
        Severity::Warning => cs::Diagnostic::warning(),
    }
    .with_labels(labels);
    let file = SimpleFile::new(d.file.display().to_string(), src);
    let mut buf = buffer(colour);
    term::emit(&mut buf, &Config::default(), &file, &diagnostic).ok()?;
    let text = String::from_utf8_lossy(buf.as_slice()).into_owned();
    // codespan starts with its own `error` header line: the headline above
    // already said it, in the form editors read.
    let (_, rest) = text.split_once('\n')?;
    Some(rest.to_string())
}

/// The bytes of the token at `span` (1-based line and column in
/// characters): a quoted string up to its closing quote, else up to the
/// next blank or separator; at least one character.
fn byte_range(src: &str, span: Span) -> Option<Range<usize>> {
    if span.line == 0 || span.col == 0 {
        return None;
    }
    let line_start = if span.line == 1 {
        0
    } else {
        src.match_indices('\n')
            .nth(span.line as usize - 2)
            .map(|(i, _)| i + 1)?
    };
    let line = src[line_start..].split('\n').next().unwrap_or("");
    let mut chars = line.char_indices().skip(span.col as usize - 1);
    let (start, first) = match chars.next() {
        Some(c) => c,
        // The end of the line (a missing `;`, the end of the file).
        None => {
            let at = line_start + line.len();
            return (span.col as usize == line.chars().count() + 1).then_some(at..at);
        }
    };
    let mut end = start + first.len_utf8();
    if first == '"' {
        for (i, c) in chars {
            end = i + c.len_utf8();
            if c == '"' {
                break;
            }
        }
    } else if !is_separator(first) {
        for (i, c) in chars {
            if is_separator(c) {
                break;
            }
            end = i + c.len_utf8();
        }
    }
    Some(line_start + start..line_start + end)
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ';' | ',' | '=' | '<' | '>' | '(' | ')' | '"')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const SRC: &str = "alpha beta;\n  T[1].S[1] <-> R[1].C[1];\nx = \"/bin/true\";\n";

    fn at(line: u32, col: u32) -> Option<&'static str> {
        byte_range(SRC, Span { line, col }).map(|r| &SRC[r])
    }

    #[test]
    fn the_marked_token_ends_at_a_separator() {
        assert_eq!(at(1, 1), Some("alpha"));
        assert_eq!(at(1, 7), Some("beta"));
        assert_eq!(at(1, 11), Some(";"));
        assert_eq!(at(2, 3), Some("T[1].S[1]"));
        assert_eq!(at(2, 17), Some("R[1].C[1]"));
        assert_eq!(at(3, 5), Some("\"/bin/true\""));
        assert_eq!(at(1, 12), Some(""));
        assert_eq!(at(1, 40), None);
        assert_eq!(at(9, 1), None);
        assert_eq!(at(0, 0), None);
    }

    #[test]
    fn plain_text_starts_with_the_editor_line_and_has_no_escapes() {
        let d = Diagnostic::error(Path::new("a.ens"), Span { line: 2, col: 17 }, "bad")
            .with_related(Span { line: 2, col: 3 }, "first here");
        let text = render(&d, Some(SRC), Colour::Never);
        assert!(text.starts_with("a.ens:2:17: error: bad\n"), "{text}");
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("^^^^^^^^^"), "{text}");
        assert!(text.contains("first here"), "{text}");
        let coloured = render(&d, Some(SRC), Colour::Always);
        assert!(coloured.contains('\x1b'), "{coloured}");
    }

    #[test]
    fn without_the_source_only_the_line_is_left() {
        let d = Diagnostic::warning(Path::new("b.ens"), Span { line: 1, col: 1 }, "w");
        assert_eq!(render(&d, None, Colour::Never), "b.ens:1:1: warning: w\n");
        let beyond = Diagnostic::warning(Path::new("b.ens"), Span { line: 5, col: 1 }, "w");
        assert_eq!(
            render(&beyond, Some("one line\n"), Colour::Never),
            "b.ens:5:1: warning: w\n"
        );
    }
}
