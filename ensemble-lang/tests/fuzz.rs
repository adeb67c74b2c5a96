//! Property tests: the parser, the checks and the drawing never panic on
//! arbitrary input or on mutated versions of the published and example
//! scripts, every diagnostic points inside the text, and layout-only
//! changes (comments, blank space, heading case) do not change the model.
//!
//! The inputs come from a fixed-seed generator, so a failure repeats; set
//! ENSEMBLE_FUZZ_CASES to run more cases.

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use common::*;
use ensemble_lang::model::Application;
use ensemble_lang::HostMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
}

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

fn corpus() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for dir in [published_dir(), examples_dir()] {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ens"))
            .collect();
        names.sort();
        for p in names {
            v.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    assert!(v.len() >= 8, "published and example scripts missing");
    v
}

fn cases(default: usize) -> usize {
    std::env::var("ENSEMBLE_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs the whole front end on `src`; panics (with the input) if any
/// part panics or a diagnostic points outside the text.
fn exercise(src: &str, params: &BTreeMap<String, i64>) {
    let file = Path::new("fuzz.ens");
    let r = catch_unwind(AssertUnwindSafe(|| {
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
    }));
    if r.is_err() {
        panic!("front end panicked on input {src:?}");
    }
}

fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let n = chars.len();
        let at = rng.below(n + 1);
        match rng.below(7) {
            0 if n > 0 => {
                let len = 1 + rng.below(8);
                let end = (at + len).min(n);
                chars.drain(at.min(n)..end);
            }
            1 => {
                let t: Vec<char> = rng.pick(VOCAB).chars().collect();
                chars.splice(at..at, t);
            }
            2 if n > 0 => {
                // Replace a digit by an extreme number.
                if let Some(pos) = (at..n).chain(0..at).find(|&i| chars[i].is_ascii_digit()) {
                    let t = ["0", "-1", "100000000", "9223372036854775807", "3"][rng.below(5)];
                    chars.splice(pos..pos + 1, t.chars());
                }
            }
            3 => {
                // Duplicate a line.
                let text: String = chars.iter().collect();
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let k = rng.below(lines.len());
                    let mut out: Vec<&str> = lines.clone();
                    out.insert(rng.below(lines.len() + 1), lines[k]);
                    chars = out.join("\n").chars().collect();
                }
            }
            4 => {
                // Swap two lines.
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let a = rng.below(lines.len());
                    let b = rng.below(lines.len());
                    lines.swap(a, b);
                    chars = lines.join("\n").chars().collect();
                }
            }
            5 => chars.truncate(at),
            _ if n > 0 => {
                let c = char::from_u32((rng.next() % 0x250) as u32).unwrap_or('?');
                chars[at.min(n - 1)] = c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..cases(20000) {
        let n = rng.below(200);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        exercise(&String::from_utf8_lossy(&bytes), &BTreeMap::new());
    }
}

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..cases(20000) {
        let mut s = String::from(if rng.below(2) == 0 {
            "Application A\n"
        } else {
            ""
        });
        for _ in 0..rng.below(120) {
            s.push_str(rng.pick(VOCAB));
            if rng.below(3) == 0 {
                s.push(' ');
            }
        }
        exercise(&s, &BTreeMap::new());
    }
}

#[test]
fn mutated_scripts_never_panic() {
    let corpus = corpus();
    let mut rng = Rng(0x5eed_0003);
    for k in 0..cases(30000) {
        let (_, src) = &corpus[k % corpus.len()];
        let m = mutate(&mut rng, src);
        let params = if rng.below(4) == 0 {
            params(&[("N", [0, 1, 2, 64, -5, i64::MAX][rng.below(6)])])
        } else {
            BTreeMap::new()
        };
        exercise(&m, &params);
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

#[test]
fn layout_changes_keep_the_model() {
    let mut rng = Rng(0x5eed_0004);
    for (name, src) in corpus() {
        let file = Path::new(&name);
        let base = ensemble_lang::parse_str(&src, file, &BTreeMap::new())
            .unwrap_or_else(|d| panic!("{name}: {}", render(&d)));
        for _ in 0..cases(40) {
            // Add comments and blank space between tokens (never inside the
            // application line, strings or comments), and change the case
            // of section headings.
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
                    if boundary && rng.below(3) == 0 {
                        out.push_str([" /* note */ ", "\n\t", "  "][rng.below(3)]);
                    } else {
                        out.push(c);
                    }
                    if in_comment && prev == '*' && c == '/' {
                        in_comment = false;
                    }
                    prev = c;
                }
                out.push('\n');
                if !in_comment && rng.below(4) == 0 {
                    out.push_str("/* between lines */\n");
                }
            }
            for (a, b) in [
                ("Parallel System", "PARALLEL SYSTEM"),
                ("Sequential System", "SEQUENTIAL COMPONENTS"),
                ("Components\n", "Processes\n"),
                ("Connections\n", "Channels\n"),
            ] {
                if rng.below(2) == 0 {
                    out = out.replace(a, b);
                }
            }
            let again = ensemble_lang::parse_str(&out, file, &BTreeMap::new())
                .unwrap_or_else(|d| panic!("{name} relaid out:\n{out}\n{}", render(&d)));
            assert_eq!(shape(&base), shape(&again), "{name} relaid out:\n{out}");
        }
    }
}
