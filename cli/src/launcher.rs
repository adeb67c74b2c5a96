//! `mpbridge run`: find `mpiexec`, tell which MPI it belongs to, build the
//! command line and environment, and hand over to it.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::doctor;
use crate::env_setup::{self, EnvInputs};
use crate::host;
use crate::libdir;
use crate::run_args::{self, Parsed, RunOptions};

/// Which MPI implementation an `mpiexec` belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    OpenMpi,
    /// MPICH and other Hydra-based launchers (they share option syntax).
    Mpich,
    Unknown,
}

impl Flavour {
    pub fn name(self) -> &'static str {
        match self {
            Flavour::OpenMpi => "Open MPI",
            Flavour::Mpich => "MPICH",
            Flavour::Unknown => "unknown MPI",
        }
    }
}

/// Tell the flavour from the output of `mpiexec --version`.
///
/// Open MPI prints `mpiexec (OpenRTE) 4.1.4` (older) or `mpiexec (Open MPI) 5.0.x`;
/// MPICH's Hydra prints `HYDRA build details:` followed by its settings.
pub fn detect_flavour(version_text: &str) -> Flavour {
    let text = version_text.to_ascii_lowercase();
    if text.contains("openrte") || text.contains("open mpi") || text.contains("open-mpi") {
        Flavour::OpenMpi
    } else if text.contains("hydra") || text.contains("mpich") || text.contains("intel(r) mpi") {
        Flavour::Mpich
    } else {
        Flavour::Unknown
    }
}

/// The version number in `mpiexec --version` output, when there is one.
pub fn detect_version(version_text: &str) -> Option<String> {
    let looks_like_version =
        |s: &str| s.starts_with(|c: char| c.is_ascii_digit()) && s.contains('.');
    // Hydra: an indented "Version:   4.0.2" line.
    for line in version_text.lines() {
        if let Some(rest) = line.trim().strip_prefix("Version:") {
            let v = rest.trim();
            if looks_like_version(v) {
                return Some(v.to_string());
            }
        }
    }
    // Open MPI: "mpiexec (OpenRTE) 4.1.4" on the first non-empty line.
    let first = version_text.lines().find(|l| !l.trim().is_empty())?;
    first
        .split_whitespace()
        .rev()
        .find(|w| looks_like_version(w))
        .map(str::to_string)
}

/// Run `mpiexec --version` and return what it printed (stdout and stderr).
pub fn version_text(mpiexec: &Path) -> Option<String> {
    let out = Command::new(mpiexec).arg("--version").output().ok()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Some(text)
}

/// Everything needed to start a job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchPlan {
    pub mpiexec: PathBuf,
    pub args: Vec<OsString>,
    pub env: Vec<(&'static str, OsString)>,
}

/// Inputs to [`build_plan`], gathered from the command line and the machine.
#[derive(Debug, Clone)]
pub struct PlanInputs<'a> {
    pub mpiexec: &'a Path,
    pub flavour: Flavour,
    pub np: u32,
    pub program: &'a OsStr,
    pub program_args: &'a [OsString],
    /// Data server to start next to the compute ranks, if any.
    pub ga_server: Option<&'a Path>,
    pub env: Vec<(&'static str, OsString)>,
}

/// Build the mpiexec command line.
///
/// Local Open MPI runs forward mpiexec's environment anyway; `-x` (Open MPI)
/// and `-genv` (Hydra) make sure `LD_LIBRARY_PATH` also reaches remote ranks.
pub fn build_plan(inputs: PlanInputs<'_>) -> LaunchPlan {
    let mut args: Vec<OsString> = Vec::new();
    let ld_path = inputs
        .env
        .iter()
        .find(|(k, _)| *k == "LD_LIBRARY_PATH")
        .map(|(_, v)| v.clone());
    if let Some(value) = ld_path {
        match inputs.flavour {
            Flavour::OpenMpi => {
                args.push("-x".into());
                args.push("LD_LIBRARY_PATH".into());
            }
            Flavour::Mpich => {
                args.push("-genv".into());
                args.push("LD_LIBRARY_PATH".into());
                args.push(value);
            }
            Flavour::Unknown => {}
        }
    }
    args.push("-n".into());
    args.push(inputs.np.to_string().into());
    args.push(inputs.program.to_os_string());
    args.extend(inputs.program_args.iter().cloned());
    if let Some(server) = inputs.ga_server {
        // A second application context: one data server. Placement of one
        // server per node arrives with the Global Arrays layer.
        args.push(":".into());
        args.push("-n".into());
        args.push("1".into());
        args.push(server.as_os_str().to_os_string());
    }
    LaunchPlan {
        mpiexec: inputs.mpiexec.to_path_buf(),
        args,
        env: inputs.env,
    }
}

/// Quote a word for a POSIX shell, only when it needs it.
pub fn shell_quote(word: &OsStr) -> String {
    let s = word.to_string_lossy();
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c));
    if plain {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The plan as shell text: one `NAME=value` line per variable, then the command.
pub fn render_plan(plan: &LaunchPlan) -> String {
    let mut out = String::new();
    for (name, value) in &plan.env {
        out.push_str(&format!("export {name}={}\n", shell_quote(value)));
    }
    out.push_str(&shell_quote(plan.mpiexec.as_os_str()));
    for arg in &plan.args {
        out.push(' ');
        out.push_str(&shell_quote(arg));
    }
    out.push('\n');
    out
}

fn mpiexec_missing(what: &str) -> u8 {
    eprintln!("mpbridge run: {what}");
    eprintln!("mpbridge run: MPI is needed to run programs; install Open MPI with:");
    eprintln!(
        "    {}",
        doctor::install_command(&["openmpi-bin", "libopenmpi-dev"], host::is_root())
    );
    eprintln!("mpbridge run: ('mpbridge doctor' checks everything else the project needs)");
    127
}

/// Entry point of `mpbridge run`; returns the exit status when it does not
/// replace itself with mpiexec.
pub fn run(args: &[OsString]) -> u8 {
    let opts = match run_args::parse(args) {
        Ok(Parsed::Help) => {
            print!("{}", run_args::RUN_USAGE);
            return 0;
        }
        Ok(Parsed::Run(opts)) => opts,
        Err(msg) => {
            eprintln!("mpbridge run: {msg}");
            eprintln!("Try 'mpbridge run --help'.");
            return 2;
        }
    };
    launch(&opts)
}

fn launch(opts: &RunOptions) -> u8 {
    let exe = libdir::current_exe();

    let ga_server = if opts.ga_servers {
        let candidate = exe.as_deref().map(|e| libdir::sibling(e, "ga-server"));
        match candidate.filter(|p| host::is_executable(p)) {
            Some(path) => Some(path),
            None => {
                eprintln!(
                    "mpbridge run: --ga-servers: ga-server is not installed yet \
                     (expected next to the mpbridge executable)"
                );
                return 2;
            }
        }
    } else {
        None
    };

    let requested = opts
        .mpiexec
        .clone()
        .unwrap_or_else(|| OsString::from("mpiexec"));
    let Some(mpiexec) = host::find_program(&requested) else {
        return mpiexec_missing(&format!("cannot find '{}'", requested.to_string_lossy()));
    };

    let flavour = version_text(&mpiexec).map_or(Flavour::Unknown, |t| detect_flavour(&t));
    if flavour == Flavour::Unknown {
        eprintln!(
            "mpbridge run: warning: cannot tell which MPI '{}' belongs to; \
             passing the environment unchanged",
            mpiexec.display()
        );
    }

    let libdir = exe
        .as_deref()
        .map(|e| libdir::library_dir(e, std::env::var_os(libdir::LIBDIR_ENV).as_deref()));
    if let Some(dir) = &libdir {
        if !dir.join(libdir::LIBRARY_FILE).is_file() {
            eprintln!(
                "mpbridge run: warning: {} not found in {} (build it with \
                 'cargo build --release', or set {})",
                libdir::LIBRARY_FILE,
                dir.display(),
                libdir::LIBDIR_ENV
            );
        }
    }

    let current_ld = std::env::var_os("LD_LIBRARY_PATH");
    let env = env_setup::launch_env(&EnvInputs {
        flavour,
        is_root: host::is_root(),
        libdir: libdir.as_deref(),
        current_ld_library_path: current_ld.as_deref(),
    });

    let plan = build_plan(PlanInputs {
        mpiexec: &mpiexec,
        flavour,
        np: opts.np,
        program: &opts.program,
        program_args: &opts.program_args,
        ga_server: ga_server.as_deref(),
        env,
    });

    if opts.dry_run {
        print!("{}", render_plan(&plan));
        return 0;
    }

    let mut command = Command::new(&plan.mpiexec);
    command.args(&plan.args);
    for (name, value) in &plan.env {
        command.env(name, value);
    }
    // Replace this process, so signals and the exit status are mpiexec's own.
    let err = command.exec();
    if err.kind() == std::io::ErrorKind::NotFound {
        return mpiexec_missing(&format!("cannot run '{}': {err}", plan.mpiexec.display()));
    }
    eprintln!(
        "mpbridge run: cannot run '{}': {err}",
        plan.mpiexec.display()
    );
    126
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN_MPI_4: &str =
        "mpiexec (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n";
    const OPEN_MPI_5: &str =
        "mpiexec (Open MPI) 5.0.3\n\nReport bugs to https://www.open-mpi.org/community/help/\n";
    const MPICH_4: &str = "HYDRA build details:\n    Version:                                 4.0.2\n    Release Date:                            Thu Apr  7 12:34:45 CDT 2022\n    CC:                              gcc\n    Configure options:                       '--disable-option-checking' '--prefix=/usr'\n    Process Manager:                         pmi\n    Launchers available:                     ssh rsh fork slurm ll lsf sge manual persist\n";

    #[test]
    fn flavour_from_version_text() {
        assert_eq!(detect_flavour(OPEN_MPI_4), Flavour::OpenMpi);
        assert_eq!(detect_flavour(OPEN_MPI_5), Flavour::OpenMpi);
        assert_eq!(detect_flavour(MPICH_4), Flavour::Mpich);
        assert_eq!(
            detect_flavour("Intel(R) MPI Library for Linux* OS, Version 2021.9"),
            Flavour::Mpich
        );
        assert_eq!(detect_flavour(""), Flavour::Unknown);
        assert_eq!(
            detect_flavour("mpiexec: some other launcher"),
            Flavour::Unknown
        );
    }

    #[test]
    fn version_from_version_text() {
        assert_eq!(detect_version(OPEN_MPI_4).as_deref(), Some("4.1.4"));
        assert_eq!(detect_version(OPEN_MPI_5).as_deref(), Some("5.0.3"));
        assert_eq!(detect_version(MPICH_4).as_deref(), Some("4.0.2"));
        assert_eq!(detect_version("no numbers here"), None);
    }

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn plan_for(flavour: Flavour, ga_server: Option<&Path>) -> LaunchPlan {
        let prog_args = os(&["-v", "in.dat"]);
        build_plan(PlanInputs {
            mpiexec: Path::new("/usr/bin/mpiexec"),
            flavour,
            np: 4,
            program: OsStr::new("./prog"),
            program_args: &prog_args,
            ga_server,
            env: vec![
                ("LD_LIBRARY_PATH", OsString::from("/opt/mpb/lib:/usr/lib")),
                ("OMPI_ALLOW_RUN_AS_ROOT", OsString::from("1")),
            ],
        })
    }

    #[test]
    fn open_mpi_command_line() {
        let plan = plan_for(Flavour::OpenMpi, None);
        assert_eq!(plan.mpiexec, PathBuf::from("/usr/bin/mpiexec"));
        assert_eq!(
            plan.args,
            os(&["-x", "LD_LIBRARY_PATH", "-n", "4", "./prog", "-v", "in.dat"])
        );
        assert_eq!(plan.env.len(), 2);
    }

    #[test]
    fn mpich_command_line() {
        let plan = plan_for(Flavour::Mpich, None);
        assert_eq!(
            plan.args,
            os(&[
                "-genv",
                "LD_LIBRARY_PATH",
                "/opt/mpb/lib:/usr/lib",
                "-n",
                "4",
                "./prog",
                "-v",
                "in.dat"
            ])
        );
    }

    #[test]
    fn unknown_flavour_relies_on_environment() {
        let plan = plan_for(Flavour::Unknown, None);
        assert_eq!(plan.args, os(&["-n", "4", "./prog", "-v", "in.dat"]));
    }

    #[test]
    fn no_library_path_no_forwarding() {
        let plan = build_plan(PlanInputs {
            mpiexec: Path::new("mpiexec"),
            flavour: Flavour::OpenMpi,
            np: 1,
            program: OsStr::new("a.out"),
            program_args: &[],
            ga_server: None,
            env: Vec::new(),
        });
        assert_eq!(plan.args, os(&["-n", "1", "a.out"]));
    }

    #[test]
    fn ga_server_is_a_second_app_context() {
        let plan = plan_for(Flavour::OpenMpi, Some(Path::new("/opt/mpb/bin/ga-server")));
        assert_eq!(
            plan.args,
            os(&[
                "-x",
                "LD_LIBRARY_PATH",
                "-n",
                "4",
                "./prog",
                "-v",
                "in.dat",
                ":",
                "-n",
                "1",
                "/opt/mpb/bin/ga-server"
            ])
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote(OsStr::new("/usr/bin/x")), "/usr/bin/x");
        assert_eq!(shell_quote(OsStr::new("")), "''");
        assert_eq!(shell_quote(OsStr::new("a b")), "'a b'");
        assert_eq!(shell_quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(shell_quote(OsStr::new("$HOME")), "'$HOME'");
    }

    #[test]
    fn rendered_plan() {
        let text = render_plan(&plan_for(Flavour::OpenMpi, None));
        assert_eq!(
            text,
            "export LD_LIBRARY_PATH=/opt/mpb/lib:/usr/lib\n\
             export OMPI_ALLOW_RUN_AS_ROOT=1\n\
             /usr/bin/mpiexec -x LD_LIBRARY_PATH -n 4 ./prog -v in.dat\n"
        );
    }
}
