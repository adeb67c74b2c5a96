//! `mpbridge run`: find `mpiexec`, tell which MPI it belongs to, build the
//! command line and environment, and hand over to it (for a PVM job, which
//! survives dying tasks, run it and report how its ranks ended instead:
//! `pvm_faults`).

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cluster_run;
use crate::doctor;
use crate::env_setup;
use crate::host;
use crate::libdir;
use crate::local_net::{self, LocalNet};
use crate::pvm_faults;
use crate::run_args::RunOptions;

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
    /// `--hostfile`, passed on in the launcher's own spelling.
    pub hostfile: Option<&'a OsStr>,
    /// `--host` list, passed on in the launcher's own spelling.
    pub hosts: Option<&'a OsStr>,
    /// How many nodes the job spans (1 when nothing says otherwise); with a
    /// data server, one server runs on each.
    pub nodes: usize,
    pub env: Vec<(&'static str, OsString)>,
}

/// Host names in a hostfile, each once, in order of first appearance.
///
/// Understands Open MPI's `host slots=N max_slots=M` lines and Hydra's
/// `host:N` lines; `#` starts a comment.
pub fn hostfile_hosts(text: &str) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let Some(word) = line.split_whitespace().next() else {
            continue;
        };
        let host = word.split(':').next().unwrap_or(word);
        if !host.is_empty() && !hosts.iter().any(|h| h == host) {
            hosts.push(host.to_string());
        }
    }
    hosts
}

/// Host names in a `--host` list (`a,b:2,a`), each once, in order.
pub fn host_list(list: &str) -> Vec<String> {
    hostfile_hosts(&list.replace(',', "\n"))
}

/// Number of nodes of the batch allocation this runs in, when a batch
/// system says so: Slurm's `SLURM_JOB_NUM_NODES` (or `SLURM_NNODES`), or the
/// distinct hosts of PBS/Torque's `PBS_NODEFILE`.
pub fn allocation_nodes(
    var: impl Fn(&str) -> Option<String>,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<usize> {
    for name in ["SLURM_JOB_NUM_NODES", "SLURM_NNODES"] {
        if let Some(n) = var(name).and_then(|v| v.trim().parse::<usize>().ok()) {
            if n >= 1 {
                return Some(n);
            }
        }
    }
    let nodefile = var("PBS_NODEFILE")?;
    let n = hostfile_hosts(&read(Path::new(&nodefile))?).len();
    (n >= 1).then_some(n)
}

/// Whether a job runs on one machine: the user placed no process elsewhere
/// (`placed_elsewhere` false) and no batch allocation spans several nodes.
pub fn on_one_machine(placed_elsewhere: bool) -> bool {
    !placed_elsewhere
        && allocation_nodes(
            |name| std::env::var(name).ok(),
            |path| std::fs::read_to_string(path).ok(),
        )
        .is_none()
}

/// How a job keeps off the network ([`local_net::choose`]). Warns, as
/// `command`, when only MPI's traffic, not its listeners, can be kept on
/// loopback.
pub fn local_net_for(
    command: &str,
    one_machine: bool,
    flavour: Flavour,
    mpiexec: &Path,
) -> Option<LocalNet> {
    let local_net = local_net::choose(
        one_machine,
        flavour == Flavour::OpenMpi,
        |v| std::env::var_os(v).is_some(),
        || local_net::open_mpi_has_ucx(mpiexec),
    );
    if local_net == Some(LocalNet::LoopbackTraffic) {
        eprintln!("{command}: warning: {}", local_net::NO_UCX_WARNING);
    }
    local_net
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
    let (hostfile_opt, host_opt) = match inputs.flavour {
        Flavour::OpenMpi => ("--hostfile", "--host"),
        Flavour::Mpich => ("-f", "-hosts"),
        // Both families accept these single-dash spellings.
        Flavour::Unknown => ("-hostfile", "-host"),
    };
    if let Some(file) = inputs.hostfile {
        args.push(hostfile_opt.into());
        args.push(file.to_os_string());
    }
    if let Some(list) = inputs.hosts {
        args.push(host_opt.into());
        args.push(list.to_os_string());
    }
    let servers = inputs.nodes.max(1);
    if inputs.ga_server.is_some() && servers > 1 {
        // Round-robin placement over the nodes: any `servers` consecutive
        // ranks then sit on distinct nodes, so the servers' application
        // context gets one per node. (Open MPI 4 applies --map-by to every
        // context, so a per-context ppr:1:node is not available.)
        match inputs.flavour {
            Flavour::OpenMpi => args.extend(["--map-by".into(), "node".into()]),
            Flavour::Mpich => args.extend(["-ppn".into(), "1".into()]),
            Flavour::Unknown => {}
        }
    }
    args.push("-n".into());
    args.push(inputs.np.to_string().into());
    args.push(inputs.program.to_os_string());
    args.extend(inputs.program_args.iter().cloned());
    if let Some(server) = inputs.ga_server {
        // A second application context: the data servers, one per node.
        args.push(":".into());
        args.push("-n".into());
        args.push(servers.to_string().into());
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

const GA_SERVER: &str = "ga-server";

/// The data server: next to the `mpbridge` executable, else on PATH.
fn find_ga_server(exe: Option<&Path>) -> Option<PathBuf> {
    exe.map(|e| libdir::sibling(e, GA_SERVER))
        .filter(|p| host::is_executable(p))
        .or_else(|| host::find_program(OsStr::new(GA_SERVER)))
}

/// How many nodes the job spans: the hosts named on the command line, else
/// the batch allocation, else one.
fn job_nodes(opts: &RunOptions) -> Result<usize, String> {
    if let Some(list) = &opts.hosts {
        let n = host_list(&list.to_string_lossy()).len();
        return if n == 0 {
            Err("--host: the host list is empty".to_string())
        } else {
            Ok(n)
        };
    }
    if let Some(file) = &opts.hostfile {
        let path = Path::new(file);
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--hostfile: cannot read '{}': {e}", path.display()))?;
        let n = hostfile_hosts(&text).len();
        return if n == 0 {
            Err(format!("--hostfile: '{}' names no host", path.display()))
        } else {
            Ok(n)
        };
    }
    Ok(allocation_nodes(
        |name| std::env::var(name).ok(),
        |path| std::fs::read_to_string(path).ok(),
    )
    .unwrap_or(1))
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
/// Entry point of `mpbridge run`; returns the exit status.
pub fn run(opts: &RunOptions) -> u8 {
    launch(opts)
}

fn launch(opts: &RunOptions) -> u8 {
    let (opts, mut cluster_args) = match cluster_run::prepare(opts) {
        Ok(prepared) => prepared,
        Err(msg) => {
            eprintln!("mpbridge run: --cluster: {msg}");
            return 2;
        }
    };
    let opts = &opts;
    let exe = libdir::current_exe();

    let nodes = if opts.ga_servers {
        match job_nodes(opts) {
            Ok(n) => n,
            Err(msg) => {
                eprintln!("mpbridge run: {msg}");
                return 2;
            }
        }
    } else {
        1
    };

    let ga_server = if opts.ga_servers {
        match find_ga_server(exe.as_deref()) {
            Some(path) => Some(path),
            None if opts.dry_run => {
                eprintln!(
                    "mpbridge run: warning: ga-server not found next to the mpbridge \
                     executable nor on PATH"
                );
                Some(PathBuf::from(GA_SERVER))
            }
            None => {
                eprintln!(
                    "mpbridge run: --ga-servers: cannot find ga-server next to the mpbridge \
                     executable nor on PATH (install it with 'make install', or add its \
                     directory to PATH)"
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
    if opts.cluster && flavour != Flavour::OpenMpi {
        eprintln!(
            "mpbridge run: --cluster needs Open MPI's mpiexec (it starts the hosts' daemons \
             through its rsh agent); '{}' is {}",
            mpiexec.display(),
            flavour.name()
        );
        return 2;
    }
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

    // One machine: nothing says the job spans hosts.
    let one_machine = on_one_machine(opts.hostfile.is_some() || opts.hosts.is_some());
    let local_net = local_net_for("mpbridge run", one_machine, flavour, &mpiexec);
    let mut env = env_setup::launch_env_here(flavour, libdir.as_deref(), local_net);
    // A PVM program on one machine or on the cluster (whose hosts share
    // the temporary directory) survives the death of a task.
    let pvm_job = flavour == Flavour::OpenMpi
        && (one_machine || opts.cluster)
        && host::find_program(&opts.program).is_some_and(|p| pvm_faults::is_pvm_program(&p));
    let status_dir = if pvm_job {
        match pvm_faults::make_status_dir() {
            Ok(dir) => {
                env.extend(pvm_faults::env(&dir));
                if opts.cluster {
                    // The ranks on other hosts get it too.
                    let mut x = OsString::from(pvm_faults::STATUS_DIR_ENV);
                    x.push("=");
                    x.push(&dir);
                    cluster_args.extend([OsString::from("-x"), x]);
                }
                Some(dir)
            }
            Err(e) => {
                eprintln!(
                    "mpbridge run: warning: no directory for exit statuses ({e}); \
                     a dying PVM task ends the whole job"
                );
                None
            }
        }
    } else {
        None
    };

    let mut plan = build_plan(PlanInputs {
        mpiexec: &mpiexec,
        flavour,
        np: opts.np,
        program: &opts.program,
        program_args: &opts.program_args,
        ga_server: ga_server.as_deref(),
        hostfile: opts.hostfile.as_deref(),
        hosts: opts.hosts.as_deref(),
        nodes,
        env,
    });
    if ga_server.is_some() && nodes > 1 && flavour == Flavour::Unknown {
        eprintln!(
            "mpbridge run: warning: {nodes} nodes but an unknown MPI: cannot ask it to place \
             one ga-server per node; starting {nodes} servers wherever it puts them"
        );
    }

    plan.args.splice(0..0, cluster_args);
    if opts.cluster {
        cluster_run::export_to_every_app(&mut plan.args);
    }

    if opts.dry_run {
        print!("{}", render_plan(&plan));
        if let Some(dir) = status_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        return 0;
    }

    let mut command = Command::new(&plan.mpiexec);
    command.args(&plan.args);
    for (name, value) in &plan.env {
        command.env(name, value);
    }
    if opts.cluster {
        // On the cluster the launcher stays, to watch the hosts.
        let pvm = host::find_program(&opts.program).is_some_and(|p| pvm_faults::is_pvm_program(&p));
        let code = cluster_run::run_watched(
            "mpbridge run",
            command,
            opts.hostfile.as_deref().map(std::path::Path::new),
            pvm,
            status_dir.as_deref().map(|d| (d, opts.np)),
        );
        if let Some(dir) = status_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        return code;
    }
    if let Some(dir) = status_dir {
        return run_pvm_job(command, &dir, opts.np);
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

/// Runs a PVM job's `mpiexec` to its end and gives the job's status from
/// the statuses its ranks left in `dir` (see `pvm_faults`).
fn run_pvm_job(mut command: Command, dir: &Path, ranks: u32) -> u8 {
    crate::os::end_with_launcher(&mut command);
    let result = command.status();
    let ended = pvm_faults::read_statuses(dir, ranks);
    let _ = std::fs::remove_dir_all(dir);
    let status = match result {
        Ok(s) => s.code().unwrap_or_else(|| {
            128 + std::os::unix::process::ExitStatusExt::signal(&s).unwrap_or(0)
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return mpiexec_missing(&format!("cannot run mpiexec: {e}"));
        }
        Err(e) => {
            eprintln!("mpbridge run: cannot run mpiexec: {e}");
            return 126;
        }
    };
    let (code, lines) = pvm_faults::job_status(status, &ended);
    for l in lines {
        eprintln!("mpbridge run: {l}");
    }
    code
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
            hostfile: None,
            hosts: None,
            nodes: 1,
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
            hostfile: None,
            hosts: None,
            nodes: 1,
            env: Vec::new(),
        });
        assert_eq!(plan.args, os(&["-n", "1", "a.out"]));
    }

    fn multi_node_plan(flavour: Flavour, ga: bool) -> LaunchPlan {
        build_plan(PlanInputs {
            mpiexec: Path::new("mpiexec"),
            flavour,
            np: 6,
            program: OsStr::new("./app"),
            program_args: &[],
            ga_server: ga.then_some(Path::new("/p/bin/ga-server")),
            hostfile: Some(OsStr::new("hosts.txt")),
            hosts: None,
            nodes: 3,
            env: Vec::new(),
        })
    }

    #[test]
    fn one_server_per_node() {
        let placements: [(Flavour, &[&str]); 2] = [
            (
                Flavour::OpenMpi,
                &["--hostfile", "hosts.txt", "--map-by", "node"],
            ),
            (Flavour::Mpich, &["-f", "hosts.txt", "-ppn", "1"]),
        ];
        for (flavour, placement) in placements {
            let mut want = os(placement);
            want.extend(os(&[
                "-n",
                "6",
                "./app",
                ":",
                "-n",
                "3",
                "/p/bin/ga-server",
            ]));
            assert_eq!(multi_node_plan(flavour, true).args, want, "{flavour:?}");
        }
    }

    #[test]
    fn several_nodes_without_servers_keep_default_placement() {
        assert_eq!(
            multi_node_plan(Flavour::OpenMpi, false).args,
            os(&["--hostfile", "hosts.txt", "-n", "6", "./app"])
        );
    }

    #[test]
    fn host_list_is_passed_on() {
        let plan = build_plan(PlanInputs {
            mpiexec: Path::new("mpiexec"),
            flavour: Flavour::Mpich,
            np: 2,
            program: OsStr::new("a.out"),
            program_args: &[],
            ga_server: Some(Path::new("ga-server")),
            hostfile: None,
            hosts: Some(OsStr::new("n1,n2")),
            nodes: 2,
            env: Vec::new(),
        });
        assert_eq!(
            plan.args,
            os(&[
                "-hosts",
                "n1,n2",
                "-ppn",
                "1",
                "-n",
                "2",
                "a.out",
                ":",
                "-n",
                "2",
                "ga-server"
            ])
        );
    }

    #[test]
    fn hosts_in_hostfiles_and_lists() {
        let open_mpi = "# cluster\nnode1 slots=4\nnode2 slots=4 max_slots=8\n\nnode1 slots=2\n";
        assert_eq!(hostfile_hosts(open_mpi), vec!["node1", "node2"]);
        let hydra = "n01:2\nn02:2  # second\nn03\n";
        assert_eq!(hostfile_hosts(hydra), vec!["n01", "n02", "n03"]);
        assert!(hostfile_hosts("# nothing\n\n").is_empty());
        assert_eq!(host_list("a,b:2,a,,c"), vec!["a", "b", "c"]);
    }

    #[test]
    fn nodes_of_a_batch_allocation() {
        let no_file = |_: &Path| None;
        let slurm = |k: &str| (k == "SLURM_JOB_NUM_NODES").then(|| "4".to_string());
        assert_eq!(allocation_nodes(slurm, no_file), Some(4));
        let old_slurm = |k: &str| (k == "SLURM_NNODES").then(|| "2".to_string());
        assert_eq!(allocation_nodes(old_slurm, no_file), Some(2));
        let pbs = |k: &str| (k == "PBS_NODEFILE").then(|| "/pbs/nodes".to_string());
        let nodefile =
            |p: &Path| (p == Path::new("/pbs/nodes")).then(|| "a\na\nb\nb\n".to_string());
        assert_eq!(allocation_nodes(pbs, nodefile), Some(2));
        assert_eq!(allocation_nodes(|_: &str| None, no_file), None);
        let bad = |k: &str| (k == "SLURM_JOB_NUM_NODES").then(|| "lots".to_string());
        assert_eq!(allocation_nodes(bad, no_file), None);
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
