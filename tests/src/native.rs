//! Building the project's C and Fortran test programs against the installed
//! headers and libraries.

use crate::mpirun::{mpiexec, output_ok, stage, workspace_root, Run};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// gfortran flags that build FORTRAN 77 code the way the compilers of its
/// day did: locals static and zeroed (old programs assume both), and
/// calls whose argument types differ between call sites accepted.
pub const F77_STYLE: &[&str] = &[
    "-fno-automatic",
    "-finit-local-zero",
    "-fallow-argument-mismatch",
    "-w",
];

/// gfortran flag for an 8-byte default `INTEGER`, as Debian builds Global
/// Arrays and its TCGMSG.
pub const INTEGER_8: &[&str] = &["-fdefault-integer-8"];

/// The C identifier `text` ends with (before trailing blanks; empty when
/// it ends with none): the name in front of a declaration's `(`.
pub fn trailing_identifier(text: &str) -> &str {
    let t = text.trim_end();
    let start = t
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
        .last()
        .map_or(t.len(), |(i, _)| i);
    &t[start..]
}

/// `tests/programs/<source>`, the folder `out` (below the workspace root,
/// made if missing) its executable goes to, and the source's file stem.
pub fn program_paths(source: &str, out: &str) -> (PathBuf, PathBuf, String) {
    let src = workspace_root().join("tests/programs").join(source);
    let dir = workspace_root().join(out);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {out}: {e}"));
    let stem = src
        .file_stem()
        .expect("file name")
        .to_string_lossy()
        .into_owned();
    (src, dir, stem)
}

/// Compiles `tests/programs/<source>` with `mpicc` (C) or `mpifort`
/// (Fortran) against the installed tree; returns the executable's path.
pub fn build(source: &str, extra_libs: &[&str]) -> PathBuf {
    build_with(source, extra_libs, &[])
}

/// Adds `-o out`, the installed `lib/` as link and run path, and `-l<lib>`
/// for each of `libs` to a compiler command.
pub fn link_to_stage<'a>(cmd: &'a mut Command, out: &Path, libs: &[&str]) -> &'a mut Command {
    let lib = stage().join("lib");
    cmd.arg("-o")
        .arg(out)
        .arg(format!("-L{}", lib.display()))
        .arg(format!("-Wl,-rpath,{}", lib.display()));
    for l in libs {
        cmd.arg(format!("-l{l}"));
    }
    cmd
}

/// Builds `tests/programs/<source>` as [`build`] does and runs it on `np`
/// ranks under `mpiexec` with `args` and a hard timeout of `secs` seconds.
pub fn run_program(source: &str, libs: &[&str], np: u32, args: &[&str], secs: u64) -> Run {
    mpiexec(np, &build(source, libs), args, Duration::from_secs(secs))
}

/// [`build`] with extra compiler flags (e.g. [`F77_STYLE`]).
pub fn build_with(source: &str, extra_libs: &[&str], flags: &[&str]) -> PathBuf {
    let stage = stage();
    let (src, out_dir, stem) = program_paths(source, "target/test-programs");
    let exe = out_dir.join(&stem);
    // Tests run in parallel and may build the same program while another
    // runs it: compile to a name of this call's own, then rename it into
    // place (a running program keeps its old file).
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = out_dir.join(format!(".{stem}.{}.{n}", std::process::id()));
    let fortran = source.ends_with(".f") || source.ends_with(".f90") || source.ends_with(".F");
    let mut cmd = Command::new(if fortran { "mpifort" } else { "mpicc" });
    if !fortran {
        cmd.args(["-Wall", "-Wextra", "-Werror", "-std=c11"]);
    }
    cmd.arg("-O1")
        .args(flags)
        .arg(format!("-I{}", stage.join("include").display()))
        .arg(&src);
    link_to_stage(&mut cmd, &tmp, extra_libs);
    output_ok(&mut cmd, &format!("compiling {source}"));
    std::fs::rename(&tmp, &exe)
        .unwrap_or_else(|e| panic!("cannot move {} into place: {e}", tmp.display()));
    exe
}

/// The symbols `file` (a library or an archive) defines, by `nm
/// --defined-only` (`-D`: its dynamic table): every one, or with
/// `functions_only` just the text symbols.
pub fn defined_symbols(file: &Path, dynamic: bool, functions_only: bool) -> BTreeSet<String> {
    let mut cmd = Command::new("nm");
    if dynamic {
        cmd.arg("-D");
    }
    let out = cmd
        .arg("--defined-only")
        .arg(file)
        .output()
        .expect("cannot run nm");
    assert!(out.status.success(), "nm {} failed", file.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && (!functions_only || f[1] == "T")).then(|| f[2].to_string())
        })
        .collect()
}
