//! The lexer: script text to tokens with their line and column.
//!
//! Comments are `/* ... */` (as published) and `// ...` to the end of the
//! line. The rest of the line after a leading `Application` keyword is one
//! raw token (application names may contain spaces and dashes).

use crate::model::Span;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Int(i64),
    Str(String),
    /// The rest of an `Application` line.
    Raw(String),
    /// Punctuation and operators, as written (`<->`, `..`, `[`, ...).
    Sym(&'static str),
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

impl Tok {
    /// How the token reads in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(n) => format!("`{n}`"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Raw(s) => format!("`{s}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "end of file".to_string(),
        }
    }
}

/// Symbols, longest first so that `<->` wins over `<=` and `<`.
const SYMS: &[&str] = &[
    "<->", "..", "==", "!=", "<=", ">=", "&&", "||", "[", "]", "(", ")", ",", ";", ":", ".", "=",
    "<", ">", "+", "-", "*", "/", "%", "#", "!",
];

/// Splits `src` into tokens, ending with `Tok::Eof`; the error is a
/// message and where it applies.
pub fn lex(src: &str) -> Result<Vec<Token>, (Span, String)> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0usize;
    let mut line = 1u32;
    let mut col = 1u32;
    // True until a token is seen on the current line.
    let mut line_start = true;
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, c: char| {
        *i += 1;
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let span = Span { line, col };
        if c == '\n' {
            line_start = true;
            advance(&mut i, &mut line, &mut col, c);
            continue;
        }
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, c);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            advance(&mut i, &mut line, &mut col, '/');
            advance(&mut i, &mut line, &mut col, '*');
            loop {
                if i >= chars.len() {
                    return Err((span, "comment `/*` is never closed by `*/`".into()));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    advance(&mut i, &mut line, &mut col, '*');
                    advance(&mut i, &mut line, &mut col, '/');
                    break;
                }
                let ch = chars[i];
                if ch == '\n' {
                    line_start = true;
                }
                advance(&mut i, &mut line, &mut col, ch);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                let ch = chars[i];
                advance(&mut i, &mut line, &mut col, ch);
            }
            continue;
        }
        let first_on_line = line_start;
        line_start = false;
        if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                s.push(chars[i]);
                let ch = chars[i];
                advance(&mut i, &mut line, &mut col, ch);
            }
            let is_app = first_on_line && s.eq_ignore_ascii_case("application");
            out.push(Token {
                tok: Tok::Ident(s),
                span,
            });
            if is_app {
                // The name: up to the end of the line or a comment.
                while i < chars.len() && chars[i] != '\n' && chars[i].is_whitespace() {
                    let ch = chars[i];
                    advance(&mut i, &mut line, &mut col, ch);
                }
                let name_span = Span { line, col };
                let mut name = String::new();
                while i < chars.len()
                    && chars[i] != '\n'
                    && !(chars[i] == '/' && matches!(chars.get(i + 1), Some('*') | Some('/')))
                {
                    name.push(chars[i]);
                    let ch = chars[i];
                    advance(&mut i, &mut line, &mut col, ch);
                }
                let name = name.trim().trim_end_matches(';').trim_end().to_string();
                out.push(Token {
                    tok: Tok::Raw(name),
                    span: name_span,
                });
            }
            continue;
        }
        if c.is_ascii_digit() {
            let mut v: i64 = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                let d = chars[i] as i64 - '0' as i64;
                v = match v.checked_mul(10).and_then(|v| v.checked_add(d)) {
                    Some(v) => v,
                    None => return Err((span, "integer too large".into())),
                };
                let ch = chars[i];
                advance(&mut i, &mut line, &mut col, ch);
            }
            if i < chars.len() && (chars[i].is_ascii_alphabetic() || chars[i] == '_') {
                return Err((
                    Span { line, col },
                    format!("unexpected `{}` right after a number", chars[i]),
                ));
            }
            out.push(Token {
                tok: Tok::Int(v),
                span,
            });
            continue;
        }
        if c == '"' {
            advance(&mut i, &mut line, &mut col, c);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => {
                        return Err((span, "string is not closed by `\"` on its line".into()))
                    }
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, '"');
                        break;
                    }
                    Some('\\') if matches!(chars.get(i + 1), Some('"') | Some('\\')) => {
                        s.push(chars[i + 1]);
                        advance(&mut i, &mut line, &mut col, '\\');
                        let ch = chars[i];
                        advance(&mut i, &mut line, &mut col, ch);
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, &mut line, &mut col, ch);
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                span,
            });
            continue;
        }
        let rest = &chars[i..];
        let sym = SYMS.iter().find(|s| {
            let n = s.chars().count();
            rest.len() >= n && s.chars().zip(rest.iter()).all(|(a, b)| a == *b)
        });
        match sym {
            Some(s) => {
                for ch in s.chars() {
                    advance(&mut i, &mut line, &mut col, ch);
                }
                out.push(Token {
                    tok: Tok::Sym(s),
                    span,
                });
            }
            None => return Err((span, format!("unexpected character `{}`", c.escape_debug()))),
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span { line, col },
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_positions() {
        let toks =
            lex("T[1..8].S[1] <-> R[2].C[1]; /* x\n */ Application Get Maximum\nPCG").unwrap();
        assert_eq!(toks[0].tok, Tok::Ident("T".into()));
        assert_eq!(toks[3].tok, Tok::Sym(".."));
        assert_eq!(toks[3].span, Span { line: 1, col: 4 });
        assert!(toks.iter().any(|t| t.tok == Tok::Sym("<->")));
        let raw = toks.iter().find(|t| matches!(t.tok, Tok::Raw(_))).unwrap();
        assert_eq!(raw.tok, Tok::Raw("Get Maximum".into()));
        assert_eq!(raw.span, Span { line: 2, col: 17 });
        assert_eq!(toks[toks.len() - 2].span, Span { line: 3, col: 1 });
    }

    #[test]
    fn unclosed_comment_is_reported_where_it_starts() {
        let err = lex("PCG\n  /* never").unwrap_err();
        assert_eq!(err.0, Span { line: 2, col: 3 });
    }
}
