//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use ensemble_lang::model::Application;
use ensemble_lang::Diagnostic;

/// The project's own compositions: `examples/ensemble/compositions` of the
/// workspace (beside the example components they run).
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/ensemble/compositions")
}

/// The directory of the published compositions: `$ENSEMBLE_PUBLISHED_DIR`,
/// the repository's unchanged copy in `examples/ensemble/compositions/published`, or
/// `shared/ensemble` beside the checkout or any directory above it.
pub fn published_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("ENSEMBLE_PUBLISHED_DIR") {
        return PathBuf::from(d);
    }
    let in_repo = examples_dir().join("published");
    if in_repo.join("getmax-full.ens").is_file() {
        return in_repo;
    }
    let mut dir = Some(Path::new(env!("CARGO_MANIFEST_DIR")));
    while let Some(d) = dir {
        let cand = d.join("shared/ensemble");
        if cand.join("getmax-full.ens").is_file() {
            return cand;
        }
        dir = d.parent();
    }
    panic!(
        "the published compositions (shared/ensemble/getmax-*.ens) are not beside the checkout; set ENSEMBLE_PUBLISHED_DIR"
    );
}

/// Every `.ens` script of the published and the example compositions,
/// each directory's in name order.
pub fn script_paths() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in [published_dir(), examples_dir()] {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ens"))
            .collect();
        names.sort();
        v.extend(names);
    }
    v
}

/// A fresh empty directory under the system temporary directory.
pub fn scratch_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "ensemble-test-{}-{}-{}",
        tag,
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes an executable shell script `name` into `dir`.
pub fn fake_executable(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

pub fn params(kv: &[(&str, i64)]) -> BTreeMap<String, i64> {
    kv.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

pub fn parse_ok(src: &str, file: &Path) -> Application {
    match ensemble_lang::parse_str(src, file, &BTreeMap::new()) {
        Ok(a) => a,
        Err(d) => panic!("unexpected errors: {}", render(&d)),
    }
}

pub fn render(d: &[Diagnostic]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Copies a script into a scratch directory next to fake executables for
/// the given location names, and parses it from there.
pub fn staged(script: &Path, exes: &[&str], params: &BTreeMap<String, i64>) -> Application {
    let dir = scratch_dir("staged");
    for e in exes {
        fake_executable(&dir, e);
    }
    let dst = dir.join(script.file_name().unwrap());
    std::fs::copy(script, &dst).unwrap();
    match ensemble_lang::parse_file(&dst, params) {
        Ok(a) => a,
        Err(d) => panic!("{}", render(&d)),
    }
}

/// The index of process `c[i]`; panics naming it when there is none.
pub fn proc_of(app: &Application, c: &str, i: i64) -> usize {
    app.find(c, i).unwrap_or_else(|| panic!("no {c}[{i}]"))
}

/// The bindings of process `c[i]` as (port type, port, peer label, tag),
/// readable in assertions.
pub fn labelled_bindings(app: &Application, c: &str, i: i64) -> Vec<(String, u32, String, i32)> {
    app.bindings(proc_of(app, c, i))
        .into_iter()
        .map(|(t, p, peer, tag)| (t, p, app.processes[peer].label(), tag))
        .collect()
}
