//! Property tests (`proptest`): the parser, the checks and the drawing
//! never panic on arbitrary input or on mutated versions of the published
//! and example scripts, every diagnostic points inside the text, and
//! layout-only changes (comments, blank space, heading case) do not change
//! the model. A failure is shrunk to a minimal input (the fewest bytes,
//! tokens or edits) and recorded by proptest for the next run; set
//! ENSEMBLE_FUZZ_CASES to run more cases.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use common::*;
use ensemble_lang::model::Application;
use ensemble_lang::HostMap;
use proptest::prelude::*;
use proptest::sample::Index;

const VOCAB: &[&str] = &[
    "Application",
    "X",
    "PCG",
    "Components",
    "Processes",
    "Connections",
    "Channels",
    "Compatibility",
    "Parallel",
    "System",
    "PARALLEL",
    "SYSTEM",
    "Sequential",
    "SEQUENTIAL",
    "COMPONENTS",
    "environment",
    "PVM3",
    "MPI",
    "annotation",
    "allocation",
    "RequestID",
    "default",
    "Contexts",
    "Roots",
    "Ports",
    "Arguments",
    "Location",
    "Parameters",
    "for",
    "in",
    "if",
    "at",
    "tag",
    "#",
    "ports",
    "T",
    "R",
    "S",
    "C",
    "P",
    "N",
    "i",
    "[",
    "]",
    "(",
    ")",
    ",",
    ";",
    ":",
    ".",
    "..",
    "<->",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    ">",
    "==",
    "&&",
    "!",
    "0",
    "1",
    "2",
    "8",
    "64",
    "-1",
    "9223372036854775807",
    "\"relay\"",
    "\"",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "min",
    "max",
    "abs",
    "é",
    "\t",
    "\r\n",
];

/// The published and example scripts, read once: (file name, text).
fn corpus() -> &'static [(String, String)] {
    static CORPUS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    CORPUS.get_or_init(read_corpus)
}

fn read_corpus() -> Vec<(String, String)> {
    let v: Vec<(String, String)> = script_paths()
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    assert!(v.len() >= 8, "published and example scripts missing");
    v
}

fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("ENSEMBLE_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(cases)
}

/// Runs the whole front end on `src`; panics if any part panics, an error
/// carries no diagnostic, or a diagnostic points outside the text.
fn exercise(src: &str, params: &BTreeMap<String, i64>) {
    let file = Path::new("fuzz.ens");
    let lines = src.split('\n').count() as u32;
    let res = ensemble_lang::parse_str(src, file, params);
    let diags = match &res {
        Ok(app) => {
            let _ = ensemble_lang::to_dot(app);
            ensemble_lang::check(app, &HostMap::local())
        }
        Err(d) => {
            assert!(!d.is_empty(), "an Err without a diagnostic");
            d.clone()
        }
    };
    for d in &diags {
        assert!(
            d.span.line >= 1 && d.span.line <= lines && d.span.col >= 1,
            "diagnostic outside the text: {d}"
        );
    }
}

/// One edit of a script's text; positions are taken relative to the text's
/// length when the edit is applied, so they shrink towards the start.
#[derive(Clone, Debug)]
enum Edit {
    /// Delete 1 to 8 characters.
    Delete(Index, usize),
    /// Insert a word of [`VOCAB`].
    Insert(Index, &'static str),
    /// Replace the first digit at or after a place by an extreme number.
    Extreme(Index, &'static str),
    /// Copy a line to another place.
    DuplicateLine(Index, Index),
    /// Swap two lines.
    SwapLines(Index, Index),
    /// Cut the text short.
    Truncate(Index),
    /// Replace a character by one of the first 0x250 code points.
    Replace(Index, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 1..=8usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<Index>(), prop::sample::select(VOCAB)).prop_map(|(at, w)| Edit::Insert(at, w)),
        (
            any::<Index>(),
            prop::sample::select(&["0", "-1", "100000000", "9223372036854775807", "3"][..])
        )
            .prop_map(|(at, n)| Edit::Extreme(at, n)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::DuplicateLine(a, b)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        any::<Index>().prop_map(Edit::Truncate),
        (
            any::<Index>(),
            (0u32..0x250).prop_map(|c| char::from_u32(c).unwrap_or('?'))
        )
            .prop_map(|(at, c)| Edit::Replace(at, c)),
    ]
}

fn apply(src: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for e in edits {
        let n = chars.len();
        // A place in 0..=n.
        let place = |i: &Index| i.index(n + 1);
        match e {
            Edit::Delete(at, len) => {
                let a = place(at);
                chars.drain(a..(a + len).min(n));
            }
            Edit::Insert(at, w) => {
                let a = place(at);
                chars.splice(a..a, w.chars());
            }
            Edit::Extreme(at, num) => {
                let a = place(at);
                if let Some(pos) = (a..n).chain(0..a).find(|&i| chars[i].is_ascii_digit()) {
                    chars.splice(pos..pos + 1, num.chars());
                }
            }
            Edit::DuplicateLine(k, at) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let line = lines[k.index(lines.len())];
                    lines.insert(at.index(lines.len() + 1), line);
                    chars = lines.join("\n").chars().collect();
                }
            }
            Edit::SwapLines(a, b) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (a.index(lines.len()), b.index(lines.len()));
                    lines.swap(a, b);
                    chars = lines.join("\n").chars().collect();
                }
            }
            Edit::Truncate(at) => chars.truncate(place(at)),
            Edit::Replace(at, c) if n > 0 => chars[at.index(n)] = *c,
            Edit::Replace(..) => {}
        }
    }
    chars.into_iter().collect()
}

/// What to do at one place of a script when relaying it out; `Keep`
/// first, so that shrinking removes changes.
#[derive(Clone, Copy, Debug)]
enum Relayout {
    Keep,
    Comment,
    NewlineTab,
    TwoSpaces,
}

fn relayout() -> impl Strategy<Value = Relayout> {
    prop_oneof![
        2 => Just(Relayout::Keep),
        1 => Just(Relayout::Comment),
        1 => Just(Relayout::NewlineTab),
        1 => Just(Relayout::TwoSpaces),
    ]
}

/// `src` with comments and blank space added between tokens (never inside
/// the application line, strings or comments), a comment line after some
/// lines, and section headings in other spellings; `at` is consumed in
/// order, one choice per space and per line end.
fn relaid_out(src: &str, at: &[Relayout], headings: [bool; 4]) -> String {
    let mut next = at.iter().copied().cycle();
    let mut out = String::new();
    let mut in_str = false;
    let mut in_comment = false;
    let mut prev = '\0';
    for (li, line) in src.lines().enumerate() {
        for c in line.chars() {
            if c == '"' && !in_comment {
                in_str = !in_str;
            }
            if !in_str && prev == '/' && c == '*' {
                in_comment = true;
            }
            let boundary = li > 0 && !in_str && !in_comment && c == ' ';
            let choice = if boundary { next.next() } else { None };
            match choice {
                Some(Relayout::Comment) => out.push_str(" /* note */ "),
                Some(Relayout::NewlineTab) => out.push_str("\n\t"),
                Some(Relayout::TwoSpaces) => out.push_str("  "),
                _ => out.push(c),
            }
            if in_comment && prev == '*' && c == '/' {
                in_comment = false;
            }
            prev = c;
        }
        out.push('\n');
        if !in_comment && !matches!(next.next(), Some(Relayout::Keep) | None) {
            out.push_str("/* between lines */\n");
        }
    }
    for ((a, b), on) in [
        ("Parallel System", "PARALLEL SYSTEM"),
        ("Sequential System", "SEQUENTIAL COMPONENTS"),
        ("Components\n", "Processes\n"),
        ("Connections\n", "Channels\n"),
    ]
    .into_iter()
    .zip(headings)
    {
        if on {
            out = out.replace(a, b);
        }
    }
    out
}

proptest! {
    #![proptest_config(config(20000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        exercise(&String::from_utf8_lossy(&bytes), &BTreeMap::new());
    }

    #[test]
    fn token_soup_never_panics(
        named in any::<bool>(),
        words in prop::collection::vec((prop::sample::select(VOCAB), any::<bool>()), 0..120),
    ) {
        let mut s = String::from(if named { "Application A\n" } else { "" });
        for (w, space) in words {
            s.push_str(w);
            if space {
                s.push(' ');
            }
        }
        exercise(&s, &BTreeMap::new());
    }
}

proptest! {
    #![proptest_config(config(30000))]

    #[test]
    fn mutated_scripts_never_panic(
        which in any::<Index>(),
        edits in prop::collection::vec(edit(), 1..=4),
        n in prop::option::weighted(0.25, prop::sample::select(&[0, 1, 2, 64, -5, i64::MAX][..])),
    ) {
        let (_, src) = &corpus()[which.index(corpus().len())];
        let params = n.map_or_else(BTreeMap::new, |n| params(&[("N", n)]));
        exercise(&apply(src, &edits), &params);
    }
}

/// The model without source positions, to compare layouts.
fn shape(app: &Application) -> String {
    let procs: Vec<String> = app
        .processes
        .iter()
        .map(|p| format!("{} {:?} {:?}", p.label(), p.ports, p.params))
        .collect();
    let chans: Vec<String> = app
        .channels
        .iter()
        .map(|c| format!("{:?} {:?} {}", c.a, c.b, c.tag))
        .collect();
    let locs: Vec<String> = app
        .locations
        .iter()
        .map(|(k, v)| format!("{k}={}", v.path))
        .collect();
    let alloc: Vec<String> = app
        .allocation
        .iter()
        .map(|(k, v)| format!("{k}@{}", v.host))
        .collect();
    format!(
        "{}|{:?}|{procs:?}|{chans:?}|{locs:?}|{alloc:?}|{:?}",
        app.name, app.environment, app.mpi
    )
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn layout_changes_keep_the_model(
        which in any::<Index>(),
        at in prop::collection::vec(relayout(), 1..64),
        headings in any::<[bool; 4]>(),
    ) {
        let (name, src) = &corpus()[which.index(corpus().len())];
        let file = Path::new(name);
        let base = ensemble_lang::parse_str(src, file, &BTreeMap::new())
            .unwrap_or_else(|d| panic!("{name}: {}", render(&d)));
        let out = relaid_out(src, &at, headings);
        let again = ensemble_lang::parse_str(&out, file, &BTreeMap::new())
            .unwrap_or_else(|d| panic!("{name} relaid out:\n{out}\n{}", render(&d)));
        prop_assert_eq!(shape(&base), shape(&again), "{} relaid out:\n{}", name, out);
    }
}
