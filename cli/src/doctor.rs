//! `mpbridge doctor`: what the machine has, what it lacks, and the one
//! command that installs the rest (Debian package names).

use std::ffi::OsStr;
use std::path::Path;

use crate::host;
use crate::launcher;
use crate::libdir;

/// How much a component matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Without it nothing builds or runs; doctor fails.
    Required,
    /// Used by the tests, demo or benchmarks; installed by `make deps`.
    Recommended,
    /// Shown for information only, never installed by us.
    Optional,
}

/// One way of finding a component.
#[derive(Debug, Clone, Copy)]
pub enum Probe {
    /// A program on `PATH`.
    Command(&'static str),
    /// A file or directory; `*` wildcards allowed in any component.
    Path(&'static str),
}

/// One row of the report.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    pub what: &'static str,
    pub need: Need,
    /// Any probe succeeding means present.
    pub probes: &'static [Probe],
    /// Debian package to install when missing.
    pub package: &'static str,
    /// Alternatives that also satisfy the check, shown in the table.
    pub also: &'static [&'static str],
}

use Need::{Optional, Recommended, Required};
use Probe::{Command, Path as File};

/// Everything doctor looks at, in report order.
pub const CHECKS: &[Check] = &[
    Check {
        what: "MPI launcher (mpiexec)",
        need: Required,
        probes: &[Command("mpiexec")],
        package: "openmpi-bin",
        also: &[],
    },
    Check {
        what: "MPI C compiler (mpicc)",
        need: Required,
        probes: &[Command("mpicc")],
        package: "libopenmpi-dev",
        also: &[],
    },
    Check {
        what: "libclang",
        need: Required,
        probes: &[
            File("/usr/lib/llvm-*/lib/libclang.so*"),
            File("/usr/lib/llvm-*/lib/libclang-*.so*"),
            File("/usr/lib/*/libclang.so*"),
            File("/usr/lib/*/libclang-*.so*"),
            File("/usr/lib64/libclang.so*"),
        ],
        package: "libclang-dev",
        also: &[],
    },
    Check {
        what: "Fortran compiler (gfortran)",
        need: Required,
        probes: &[Command("gfortran")],
        package: "gfortran",
        also: &[],
    },
    Check {
        what: "pkg-config",
        need: Required,
        probes: &[Command("pkg-config")],
        package: "pkg-config",
        also: &[],
    },
    Check {
        what: "Graphviz (dot)",
        need: Recommended,
        probes: &[Command("dot")],
        package: "graphviz",
        also: &[],
    },
    Check {
        what: "PVM 3.4 daemon (comparison)",
        need: Recommended,
        probes: &[
            Command("pvmd"),
            File("/usr/bin/pvm"),
            File("/usr/lib/pvm3/lib/pvmd"),
        ],
        package: "pvm",
        also: &[],
    },
    Check {
        what: "PVM 3.4 headers (comparison)",
        need: Recommended,
        probes: &[
            File("/usr/include/pvm3.h"),
            File("/usr/lib/pvm3/include/pvm3.h"),
        ],
        package: "pvm-dev",
        also: &[],
    },
    Check {
        what: "PVM example programs",
        need: Recommended,
        probes: &[
            File("/usr/bin/master1"),
            File("/usr/bin/hello.pvm"),
            File("/usr/lib/pvm3/bin/LINUX64/master1"),
        ],
        package: "pvm-examples",
        also: &[],
    },
    Check {
        what: "Global Arrays (comparison)",
        need: Recommended,
        probes: &[File("/usr/include/ga.h"), File("/usr/lib/*/libga.a")],
        package: "libglobalarrays-dev",
        also: &[],
    },
    Check {
        what: "BLAS (GA dgemm)",
        need: Recommended,
        probes: &[
            File("/usr/lib/*/libopenblas.so"),
            File("/usr/lib/*/libblas.so"),
            File("/usr/lib64/libopenblas.so"),
            File("/usr/lib64/libblas.so"),
        ],
        package: "libopenblas-dev",
        also: &["libblas-dev"],
    },
    Check {
        what: "Python 3",
        need: Recommended,
        probes: &[Command("python3")],
        package: "python3",
        also: &[],
    },
    Check {
        what: "make",
        need: Recommended,
        probes: &[Command("make")],
        package: "make",
        also: &[],
    },
    Check {
        what: "MPICH (second MPI, optional)",
        need: Optional,
        probes: &[
            Command("mpiexec.hydra"),
            Command("mpichversion"),
            File("/usr/lib/*/libmpich.so*"),
        ],
        package: "mpich",
        also: &[],
    },
];

/// Result of one check: where it was found, if anywhere.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub check: &'static Check,
    pub found: Option<String>,
}

impl Outcome {
    fn status(&self) -> &'static str {
        match (&self.found, self.check.need) {
            (Some(_), _) => "ok",
            (None, Required) => "MISSING",
            (None, Recommended) => "missing",
            (None, Optional) => "not installed",
        }
    }
}

fn probe(p: &Probe) -> Option<String> {
    match *p {
        Command(name) => host::find_program(OsStr::new(name)).map(|p| p.display().to_string()),
        File(pattern) => {
            if pattern.contains('*') {
                host::glob(pattern).first().map(|p| p.display().to_string())
            } else {
                Path::new(pattern).exists().then(|| pattern.to_string())
            }
        }
    }
}

/// Run every probe of every check.
pub fn examine() -> Vec<Outcome> {
    CHECKS
        .iter()
        .map(|check| {
            let mut found = check.probes.iter().find_map(probe);
            // Say which MPI the launcher belongs to.
            if let (Some(path), Some(Command("mpiexec"))) = (&found, check.probes.first()) {
                if let Some(text) = launcher::version_text(Path::new(path)) {
                    let flavour = launcher::detect_flavour(&text);
                    let label = match launcher::detect_version(&text) {
                        Some(v) => format!("{} {v}", flavour.name()),
                        None => flavour.name().to_string(),
                    };
                    found = Some(format!("{path} ({label})"));
                }
            }
            Outcome { check, found }
        })
        .collect()
}

/// Packages to install for the missing required and recommended components,
/// without repeats, in report order.
pub fn missing_packages(outcomes: &[Outcome]) -> Vec<&'static str> {
    let mut pkgs: Vec<&'static str> = Vec::new();
    for o in outcomes {
        if o.found.is_none() && o.check.need != Optional && !pkgs.contains(&o.check.package) {
            pkgs.push(o.check.package);
        }
    }
    pkgs
}

/// The single shell command that installs `packages` on Debian or Ubuntu.
pub fn install_command(packages: &[&str], is_root: bool) -> String {
    let sudo = if is_root { "" } else { "sudo " };
    format!(
        "{sudo}apt-get update && {sudo}apt-get install -y {}",
        packages.join(" ")
    )
}

/// The report as text.
pub fn render(outcomes: &[Outcome], is_root: bool) -> String {
    let header = ["component", "status", "package", "found"];
    let rows: Vec<[String; 4]> = outcomes
        .iter()
        .map(|o| {
            let mut package = o.check.package.to_string();
            for alt in o.check.also {
                package.push_str(" | ");
                package.push_str(alt);
            }
            [
                o.check.what.to_string(),
                o.status().to_string(),
                package,
                o.found.clone().unwrap_or_else(|| "-".to_string()),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 4]| -> String {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                s.push_str(cell);
            } else {
                s.push_str(&format!("{cell:<width$}  ", width = widths[i]));
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };

    let mut out = line(header);
    out.push_str(&line(
        widths.map(|w| "-".repeat(w)).each_ref().map(String::as_str),
    ));
    for row in &rows {
        out.push_str(&line(row.each_ref().map(String::as_str)));
    }
    out.push('\n');

    let missing = missing_packages(outcomes);
    if missing.is_empty() {
        out.push_str("Nothing to install.\n");
    } else {
        out.push_str("To install what is missing:\n    ");
        out.push_str(&install_command(&missing, is_root));
        out.push('\n');
    }
    if !required_present(outcomes) {
        out.push_str(
            "Required components are missing: mpbridge cannot build or run programs yet.\n",
        );
    }
    out
}

/// True when every required component was found.
pub fn required_present(outcomes: &[Outcome]) -> bool {
    outcomes
        .iter()
        .all(|o| o.check.need != Required || o.found.is_some())
}

/// Entry point of `mpbridge doctor`; 0 when every required component is
/// present, 1 otherwise.
pub fn run() -> u8 {
    let outcomes = examine();
    let root = host::is_root();
    print!("{}", render(&outcomes, root));

    match libdir::this_library_dir() {
        Some(dir) => {
            let lib = dir.join(libdir::LIBRARY_FILE);
            if lib.is_file() {
                println!("mpbridge libraries: {}", lib.display());
            } else {
                println!(
                    "mpbridge libraries: {} not built yet in {} (run 'make stage' or 'cargo build --release')",
                    libdir::LIBRARY_FILE,
                    dir.display()
                );
            }
        }
        None => println!("mpbridge libraries: cannot locate the mpbridge executable"),
    }

    if required_present(&outcomes) {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes_with(missing: &[&str]) -> Vec<Outcome> {
        CHECKS
            .iter()
            .map(|check| Outcome {
                check,
                found: (!missing.contains(&check.package)).then(|| "/somewhere".to_string()),
            })
            .collect()
    }

    #[test]
    fn install_command_as_root_and_user() {
        assert_eq!(
            install_command(&["gfortran", "graphviz"], true),
            "apt-get update && apt-get install -y gfortran graphviz"
        );
        assert_eq!(
            install_command(&["gfortran"], false),
            "sudo apt-get update && sudo apt-get install -y gfortran"
        );
    }

    #[test]
    fn nothing_missing() {
        let o = outcomes_with(&[]);
        assert!(missing_packages(&o).is_empty());
        assert!(required_present(&o));
        let text = render(&o, true);
        assert!(text.contains("Nothing to install."));
        assert!(!text.contains("apt-get"));
    }

    #[test]
    fn optional_mpich_is_never_installed() {
        let o = outcomes_with(&["mpich"]);
        assert!(missing_packages(&o).is_empty());
        assert!(required_present(&o));
        assert!(render(&o, true).contains("not installed"));
    }

    #[test]
    fn missing_required_and_recommended_in_report_order() {
        let o = outcomes_with(&["libopenblas-dev", "gfortran", "libclang-dev", "mpich"]);
        assert_eq!(
            missing_packages(&o),
            vec!["libclang-dev", "gfortran", "libopenblas-dev"]
        );
        assert!(!required_present(&o));
        let text = render(&o, false);
        assert!(text.contains(
            "sudo apt-get update && sudo apt-get install -y libclang-dev gfortran libopenblas-dev"
        ));
        assert!(text.contains("MISSING"));
        assert!(text.contains("libopenblas-dev | libblas-dev"));
    }

    #[test]
    fn missing_recommended_only_still_passes() {
        let o = outcomes_with(&["graphviz", "pvm-examples"]);
        assert!(required_present(&o));
        assert_eq!(missing_packages(&o), vec!["graphviz", "pvm-examples"]);
    }

    #[test]
    fn every_check_has_a_probe_and_package() {
        for c in CHECKS {
            assert!(!c.probes.is_empty(), "{} has no probe", c.what);
            assert!(!c.package.is_empty(), "{} has no package", c.what);
        }
        let required: Vec<_> = CHECKS
            .iter()
            .filter(|c| c.need == Required)
            .map(|c| c.package)
            .collect();
        assert_eq!(
            required,
            vec![
                "openmpi-bin",
                "libopenmpi-dev",
                "libclang-dev",
                "gfortran",
                "pkg-config"
            ]
        );
    }

    #[test]
    fn table_columns_line_up() {
        let text = render(&outcomes_with(&["graphviz"]), true);
        let lines: Vec<&str> = text.lines().take(CHECKS.len() + 2).collect();
        let col = lines[0].find("status").unwrap();
        for l in &lines[2..] {
            assert!(l.len() > col, "short line: {l}");
            let before = &l[..col];
            assert!(before.ends_with("  "), "misaligned: {l}");
        }
    }
}
