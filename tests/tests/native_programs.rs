//! The installed library, headers and links as a C or Fortran user sees
//! them: exported symbols, drop-in names, and programs built with mpicc and
//! mpifort run under mpiexec.

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{mpiexec, stage, workspace_root};
use tests::native::{build, run_program};

fn tally_ok(out: &str, procs: usize, what: &str) {
    let t: Vec<&str> = out.lines().filter(|l| l.contains(" passed, ")).collect();
    assert_eq!(t.len(), procs, "{what}: one tally per process\n{out}");
    assert!(t.iter().all(|l| l.ends_with(" 0 failed")), "{what}:\n{out}");
}

/// Function names declared in an installed header: every identifier
/// directly followed by `(` on a line that is not a comment or a macro
/// (this also finds `pvm_recvf` in its function-pointer declaration).
fn header_functions(header: &str) -> Vec<String> {
    let h = std::fs::read_to_string(stage().join("include").join(header)).expect("header");
    let mut names: Vec<String> = Vec::new();
    for line in h.lines() {
        let l = line.trim_start();
        if l.starts_with('*') || l.starts_with("/*") || l.starts_with('#') || l.starts_with("//") {
            continue;
        }
        for (i, _) in l.match_indices('(') {
            let name = tests::native::trailing_identifier(&l[..i]);
            if !name.is_empty() && !name.starts_with(char::is_numeric) {
                names.push(name.to_string());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The Fortran routines of Debian's `libfpvm3.a` and of its GA build
/// `libga-openmpi.a` (TCGMSG, GA and MA for Fortran): the ABI legacy
/// Fortran programs link against; headers do not declare subroutines.
fn debian_fortran_routines() -> Vec<String> {
    let mut names = Vec::new();
    for (a, pkg) in [
        ("/usr/lib/x86_64-linux-gnu/libfpvm3.a", "pvm-dev"),
        (
            "/usr/lib/x86_64-linux-gnu/libga-openmpi.a",
            "libglobalarrays-dev",
        ),
    ] {
        assert!(
            std::path::Path::new(a).is_file(),
            "{a} missing: apt-get install {pkg}"
        );
        let out = Command::new("nm")
            .args(["--defined-only", a])
            .output()
            .expect("nm");
        names.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    let fortran =
                        |n: &str| n.ends_with('_') && !n.chars().any(|c| c.is_ascii_uppercase());
                    (f.len() == 3 && f[1] == "T" && fortran(f[2])).then(|| f[2].to_string())
                }),
        );
    }
    names
}

/// Fortran routines an installed Fortran include file declares
/// (`express.fh`: every name on an `integer` or `external` line, as the
/// lower-case symbol with a trailing underscore gfortran calls).
fn fortran_include_routines(include: &str) -> Vec<String> {
    let h = std::fs::read_to_string(stage().join("include").join(include)).expect("include file");
    let mut names = Vec::new();
    for line in h.lines() {
        let l = line.trim().to_ascii_lowercase();
        if l.starts_with('!') || line.starts_with(['C', 'c']) {
            continue;
        }
        if let Some(rest) = l.strip_prefix("external ") {
            names.extend(rest.split(',').map(|n| format!("{}_", n.trim())));
        }
    }
    names
}

/// Every installed C header.
fn c_headers() -> Vec<String> {
    let mut hs: Vec<String> = std::fs::read_dir(stage().join("include"))
        .expect("include dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".h"))
        .collect();
    hs.sort();
    hs
}

/// Functions the library exports (`nm -D`, defined text symbols).
fn exported_functions() -> Vec<String> {
    let lib = stage().join("lib/libmpbridge.so");
    tests::native::defined_symbols(&lib, true, true)
        .into_iter()
        .collect()
}

/// Exported functions no installed header declares, each for a reason:
/// `lpvmerr` and `pvmdisplaymhfinfo` are imported by Debian's PVM example
/// binaries; `pvm_gettmask`/`pvm_settmask` are libpvm3 exports declared in
/// PVM's tracing header `pvmtev.h`; `mpbridge_pvm_fmt_item` is the entry
/// the C glue of `pvm_packf` calls for each item.
const UNDECLARED_ABI: &[&str] = &[
    "lpvmerr",
    "pvmdisplaymhfinfo",
    "pvm_gettmask",
    "pvm_settmask",
    "mpbridge_pvm_fmt_item",
    // The C library's own call, replaced while the mpC run-time runs
    // (mpc-rts/src/patience.rs); its declaration is <sched.h>'s.
    "sched_yield",
];

#[test]
fn library_exports_only_declared_functions() {
    let mut declared: Vec<String> = c_headers()
        .iter()
        .flat_map(|h| header_functions(h))
        .collect();
    declared.extend(debian_fortran_routines());
    let express_f = fortran_include_routines("express.fh");
    assert!(express_f.len() >= 40, "express.fh parsed: {express_f:?}");
    declared.extend(express_f.iter().cloned());
    let hpf_f = fortran_include_routines("hpf_rts.fh");
    assert!(hpf_f.len() >= 20, "hpf_rts.fh parsed: {hpf_f:?}");
    declared.extend(hpf_f);
    let exported = exported_functions();
    let stray: Vec<&String> = exported
        .iter()
        .filter(|f| !declared.contains(f) && !UNDECLARED_ABI.contains(&f.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "exported but declared by no installed header: {stray:?}"
    );
    // Every function these headers declare is exported (of express.h its
    // `ex*` calls but the handler types, of mpc.h the MPC_ and HMPI_ calls).
    let express_c: Vec<String> = header_functions("express.h")
        .into_iter()
        .filter(|f| f.starts_with("ex") && !f.ends_with("_fn"))
        .collect();
    let mpc: Vec<String> = header_functions("mpc.h")
        .into_iter()
        .filter(|f| f.starts_with("MPC_") || f.starts_with("HMPI_"))
        .collect();
    let checked = [
        ("mpbridge.h", header_functions("mpbridge.h"), 12),
        ("express.fh", express_f, 40),
        ("express.h", express_c, 40),
        ("hpf_rts.h", header_functions("hpf_rts.h"), 25),
        ("mpc.h", mpc, 40),
    ];
    for (header, names, at_least) in checked {
        assert!(names.len() >= at_least, "{header} parsed: {names:?}");
        let missing: Vec<&String> = names.iter().filter(|f| !exported.contains(f)).collect();
        assert!(
            missing.is_empty(),
            "declared in {header} but not exported: {missing:?}"
        );
    }
    for f in [
        "exread",
        "excombine",
        "exgridinit",
        "kxread_",
        "kxcomb_",
        "pvm_mytid",
        "pvm_send",
        "pvm_recv",
        "pvm_spawn",
        "pvm_pkint",
        "pvm_upkstr",
        "lpvmerr",
    ] {
        assert!(exported.iter().any(|e| e == f), "{f} not exported");
    }
}

#[test]
fn library_exports_pvm_globals() {
    let lib = stage().join("lib/libmpbridge.so");
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&lib)
        .output()
        .expect("nm");
    let text = String::from_utf8_lossy(&out.stdout);
    for g in ["pvm_errno", "pvm_errlist", "pvm_nerr"] {
        assert!(
            text.lines().any(|l| l.ends_with(&format!(" {g}"))),
            "{g} not exported"
        );
    }
}

#[test]
fn drop_in_names_link_to_the_one_library() {
    let lib = stage().join("lib");
    for name in [
        "libpvm3.so.3",
        "libgpvm3.so.3",
        "libfpvm3.so",
        "libtcgmsg.so",
        "libga.so",
        "libexpress.so",
        "libpvm_shim.so",
    ] {
        let p = lib.join(name);
        let target = std::fs::read_link(&p).unwrap_or_else(|e| panic!("{name} is not a link: {e}"));
        assert_eq!(target, Path::new("libmpbridge.so"), "{name}");
        assert!(p.is_file(), "{name} resolves");
    }
    for pc in ["mpbridge.pc", "pvm3.pc", "tcgmsg.pc", "ga.pc", "express.pc"] {
        let text = std::fs::read_to_string(lib.join("pkgconfig").join(pc)).expect(pc);
        assert!(
            text.contains(&stage().display().to_string()),
            "{pc} names the prefix"
        );
        assert!(!text.contains('@'), "{pc} has no unreplaced placeholder");
    }
    assert!(
        stage().join("bin/mpbridge").is_file(),
        "bin/mpbridge installed"
    );
}

#[test]
fn header_compiles_as_c_and_cxx_and_twice() {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("double_include.c");
    std::fs::write(&src, "#include <mpbridge.h>\n#include <mpbridge.h>\nint main(void){return mpb_strerror(0)==0;}\n").unwrap();
    for compiler in ["cc", "c++"] {
        let st = Command::new(compiler)
            .args(["-Wall", "-Werror", "-fsyntax-only", "-x"])
            .arg(if compiler == "cc" { "c" } else { "c++" })
            .arg(format!("-I{}", stage().join("include").display()))
            .arg(&src)
            .status()
            .expect("compiler");
        assert!(st.success(), "{compiler} rejects mpbridge.h");
    }
}

#[test]
fn c_program_that_owns_mpi() {
    let exe = build("c_user_init.c", &["mpbridge"]);
    for n in [1, 3] {
        let r = mpiexec(n, &exe, &[], Duration::from_secs(60));
        r.assert_ok("c_user_init");
        tally_ok(&r.stdout, n as usize, "c_user_init");
    }
}

#[test]
fn c_program_that_leaves_mpi_to_mpbridge() {
    let r = run_program("c_self_init.c", &["mpbridge"], 4, &[], 60);
    r.assert_ok("c_self_init");
    tally_ok(&r.stdout, 4, "c_self_init");
}

#[test]
fn fortran_program_over_the_c_api() {
    let r = run_program("f_ring.f90", &["mpbridge"], 3, &[], 60);
    r.assert_ok("f_ring");
    tally_ok(&r.stdout, 3, "f_ring");
}

#[test]
fn mpbridge_run_launches_with_our_library_first() {
    let exe = build("c_self_init.c", &["mpbridge"]);
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.args(["run", "-n", "3"]).arg(&exe);
    let r = tests::mpirun::run_with_timeout(cmd, Duration::from_secs(60));
    r.assert_ok("mpbridge run");
    tally_ok(&r.stdout, 3, "c_self_init under mpbridge run");
}
