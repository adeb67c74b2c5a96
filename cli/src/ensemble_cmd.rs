//! `mpbridge ensemble`: check, draw and run Ensemble compositions.
//!
//! `run` chooses the loader from the script's environment. Both start one
//! MPMD `mpiexec` job in which rank i runs process i of the script; the
//! PVM loader is rank 0 (the `mpbridge-ens-loader` executable beside this
//! one), since it must be a PVM task to spawn and bind the components.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Args, Subcommand};

use ensemble_lang::model::{Application, Environment};
use ensemble_lang::plan::{is_local_host, mpmd_args, weighted, LaunchUnit};
use ensemble_lang::render::{render, Colour};
use ensemble_lang::{Diagnostic, HostMap, Severity};

use crate::env_setup;
use crate::host;
use crate::launcher::{detect_flavour, version_text, Flavour};
use crate::libdir;

const ENSEMBLE_AFTER_HELP: &str = "\
'run' checks first, then starts every process in one mpiexec job: through
the PVM loader for 'environment PVM3;', directly on MPI for
'environment MPI;'. 'mpbridge ensemble SCRIPT' is the same as
'mpbridge ensemble run SCRIPT'.

Exit status: 0 on success, 1 when the script has errors or the job fails,
2 for a usage error.";

/// `mpbridge ensemble`: an action, or a script to run.
#[derive(Args, Debug)]
#[command(
    about = "Check, draw or launch an Ensemble composition",
    after_long_help = ENSEMBLE_AFTER_HELP,
    args_conflicts_with_subcommands = true,
    arg_required_else_help = true,
    subcommand_value_name = "ACTION",
    override_usage = "mpbridge ensemble check SCRIPT [OPTIONS]\n       \
                      mpbridge ensemble draw SCRIPT -o OUT.svg [OPTIONS]\n       \
                      mpbridge ensemble run SCRIPT [OPTIONS]\n       \
                      mpbridge ensemble SCRIPT [OPTIONS]"
)]
pub struct EnsembleArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// Without an action: the script to run
    #[arg(value_name = "SCRIPT")]
    script: Option<PathBuf>,
    #[command(flatten)]
    opts: Opts,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Parse and check SCRIPT: syntax, channels, executables and hosts
    Check(ScriptArgs),
    /// Draw SCRIPT's process graph as SVG (or Graphviz source for a .dot name)
    Draw(ScriptArgs),
    /// Check SCRIPT, then start every process in one mpiexec job
    Run(ScriptArgs),
}

#[derive(Args, Debug)]
struct ScriptArgs {
    /// The Ensemble script
    #[arg(value_name = "SCRIPT")]
    script: PathBuf,
    #[command(flatten)]
    opts: Opts,
}

#[derive(Args, Debug, Default, Clone)]
struct Opts {
    /// Set a script parameter (e.g. -D N=64); repeatable
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, i64)>,
    /// Map the script's host names to real hosts: lines 'NAME HOST' or
    /// 'NAME = HOST', '* HOST' for every name
    #[arg(long, value_name = "FILE")]
    hostmap: Option<PathBuf>,
    /// Look for component executables in DIR (by file name) before the
    /// script's own locations; repeatable
    #[arg(long = "path", value_name = "DIR")]
    paths: Vec<PathBuf>,
    /// (draw) The SVG to write; a name ending in .dot gets the Graphviz
    /// source instead
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// mpiexec to use (default: the one on PATH)
    #[arg(long, value_name = "PATH")]
    mpiexec: Option<OsString>,
    /// (run) Place a script that has weights but no allocation on the
    /// virtual machine in FILE (written by 'mpbridge recon') by the mpC
    /// dispatcher's scheme: heaviest process first, each onto the host
    /// that finishes its work soonest
    #[arg(long, value_name = "FILE")]
    machine: Option<PathBuf>,
    /// (run) Print the mpiexec command instead of running it (and, for a
    /// placement by weight, the placement as '#' lines before it)
    #[arg(long)]
    dry_run: bool,
    /// (run, PVM) Start only the loader and let pvm_spawn start every
    /// component dynamically (MPI_Comm_spawn) instead of pre-launching them
    /// in the same job; hosts are ignored
    #[arg(long)]
    spawn: bool,
    /// (run) On the hosts of scripts/cluster.sh: its hostfile, rsh agent
    /// and networks; map the script's hosts onto host1, host2, ... with
    /// --hostmap
    #[arg(long)]
    cluster: bool,
}

impl Opts {
    /// The script parameters, the last setting of a name winning.
    fn param_map(&self) -> BTreeMap<String, i64> {
        self.params.iter().cloned().collect()
    }
}

/// Value of `-D`: `NAME=VALUE` with an integer value.
fn parse_param(text: &str) -> Result<(String, i64), String> {
    let (n, v) = text
        .split_once('=')
        .ok_or_else(|| format!("-D {text}: expected NAME=VALUE"))?;
    let v: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("-D {text}: the value must be an integer"))?;
    if n.trim().is_empty() {
        return Err(format!("-D {text}: the name is empty"));
    }
    Ok((n.trim().to_string(), v))
}

/// Entry point of `mpbridge ensemble`; returns the exit status.
pub fn run(args: &EnsembleArgs) -> u8 {
    let (cmd, script, opts) = match &args.action {
        Some(Action::Check(a)) => ("check", &a.script, &a.opts),
        Some(Action::Draw(a)) => ("draw", &a.script, &a.opts),
        Some(Action::Run(a)) => ("run", &a.script, &a.opts),
        None => match &args.script {
            Some(s) => ("run", s, &args.opts),
            None => return usage_error("no script given"),
        },
    };
    match cmd {
        "check" => check_cmd(script, opts),
        "draw" => draw_cmd(script, opts),
        _ => run_cmd(script, opts),
    }
}

fn usage_error(msg: &str) -> u8 {
    eprintln!("mpbridge ensemble: {msg}");
    eprintln!("Try 'mpbridge ensemble --help'.");
    2
}

/// Prints `diags` on stderr, each with an excerpt of its file (coloured on a
/// terminal); true if one is an error.
fn print_diags(diags: &[Diagnostic]) -> bool {
    let colour = Colour::for_terminal(std::io::stderr().is_terminal());
    let mut sources: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
    let mut errors = false;
    for d in diags {
        let source = sources
            .entry(d.file.clone())
            .or_insert_with(|| std::fs::read_to_string(&d.file).ok());
        eprint!("{}", render(d, source.as_deref(), colour));
        errors |= matches!(d.severity, Severity::Error);
    }
    errors
}

fn parse(script: &Path, opts: &Opts) -> Option<Application> {
    match ensemble_lang::parse_file(script, &opts.param_map()) {
        Ok(app) => Some(app),
        Err(diags) => {
            print_diags(&diags);
            None
        }
    }
}

fn host_map(opts: &Opts) -> Option<HostMap> {
    let mut map = HostMap::local();
    if let Some(file) = &opts.hostmap {
        let text = match ensemble_lang::read_text(file, "host map") {
            Ok(t) => t,
            Err(diags) => {
                print_diags(&diags);
                return None;
            }
        };
        match HostMap::parse(&text, file) {
            Ok(m) => map.merge(&m),
            Err(diags) => {
                print_diags(&diags);
                return None;
            }
        }
    }
    Some(map)
}

/// Components found by file name in a `--path` directory get that
/// executable (before the checks, so a published script whose absolute
/// locations name another machine's files can run here).
fn apply_paths(app: &mut Application, paths: &[PathBuf]) {
    for loc in app.locations.values_mut() {
        let name = Path::new(&loc.path)
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        if name.is_empty() {
            continue;
        }
        if let Some(found) = paths
            .iter()
            .map(|d| d.join(&name))
            .find(|p| host::is_executable(p))
        {
            let found = found.canonicalize().unwrap_or(found);
            loc.path = found.to_string_lossy().into_owned();
        }
    }
}

/// Parses, applies `--path`, runs the checks and prints their messages;
/// the model and host map when there is no error.
fn checked(script: &Path, opts: &Opts) -> Option<(Application, HostMap)> {
    let mut app = parse(script, opts)?;
    apply_paths(&mut app, &opts.paths);
    let hosts = host_map(opts)?;
    let diags = ensemble_lang::check(&app, &hosts);
    if print_diags(&diags) {
        return None;
    }
    Some((app, hosts))
}

fn check_cmd(script: &Path, opts: &Opts) -> u8 {
    match checked(script, opts) {
        Some((app, _)) => {
            println!(
                "{}: {} processes, {} channels: no errors",
                script.display(),
                app.processes.len(),
                app.channels.len()
            );
            0
        }
        None => 1,
    }
}

fn draw_cmd(script: &Path, opts: &Opts) -> u8 {
    let Some(out) = &opts.output else {
        return usage_error("draw needs -o FILE");
    };
    let Some(app) = parse(script, opts) else {
        return 1;
    };
    if out.extension().is_some_and(|e| e == "dot") {
        return match std::fs::write(out, ensemble_lang::to_dot(&app)) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("mpbridge ensemble: cannot write {}: {e}", out.display());
                1
            }
        };
    }
    match ensemble_lang::draw_svg(&app, out) {
        Ok(()) => {
            println!("{}", out.display());
            0
        }
        Err(e) => {
            eprintln!("mpbridge ensemble draw: {e}");
            1
        }
    }
}

/// Executable of every process, in process order.
fn executables(app: &Application) -> Result<(Vec<PathBuf>, BTreeMap<String, PathBuf>), String> {
    let mut by_component = BTreeMap::new();
    for c in app.processes.iter().map(|p| &p.component) {
        if by_component.contains_key(c) {
            continue;
        }
        let exe = ensemble_lang::resolve_location(app, c)
            .or_else(|| locate(app, c))
            .ok_or_else(|| format!("no executable found for component {c}"))?;
        let exe = exe.canonicalize().unwrap_or(exe);
        by_component.insert(c.clone(), exe);
    }
    let per_process = app
        .processes
        .iter()
        .map(|p| by_component[&p.component].clone())
        .collect();
    Ok((per_process, by_component))
}

/// The executable of `component` as its location says: an absolute path,
/// a path relative to the script's directory, or a name on `PATH`.
fn locate(app: &Application, component: &str) -> Option<PathBuf> {
    let loc = &app.locations.get(component)?.path;
    let p = Path::new(loc);
    if p.is_absolute() {
        return host::is_executable(p).then(|| p.to_path_buf());
    }
    if loc.contains('/') {
        let dir = app.source.parent().unwrap_or_else(|| Path::new("."));
        let p = dir.join(p);
        return host::is_executable(&p).then_some(p);
    }
    host::find_program(std::ffi::OsStr::new(loc))
}

/// Real host of every process (`None`: this machine or anywhere): the
/// allocation's hosts, or with `--machine` and weights but no allocation,
/// the hosts the weights choose.
fn placements(
    app: &Application,
    hosts: &HostMap,
    opts: &Opts,
) -> Result<Vec<Option<String>>, String> {
    if let Some(file) = &opts.machine {
        if weighted::wants_placement(app) {
            let p = place_by_weight(app, file)?;
            let width = app
                .processes
                .iter()
                .map(|p| p.label().len())
                .max()
                .unwrap_or(0);
            let mut lines = format!(
                "# placed by weight on {} (estimated {:.4} s):\n",
                file.display(),
                p.time
            );
            for (i, proc_) in app.processes.iter().enumerate() {
                lines.push_str(&format!(
                    "#   {:width$}  weight {:>8}  on {}\n",
                    proc_.label(),
                    p.weights[i],
                    p.hosts[i]
                ));
            }
            if opts.dry_run {
                print!("{lines}");
            } else {
                eprint!("{lines}");
            }
            return Ok(p
                .hosts
                .into_iter()
                .map(|h| (!is_local_host(&h)).then_some(h))
                .collect());
        }
        if !app.weights.is_empty() {
            eprintln!(
                "mpbridge ensemble run: note: the script allocates its processes itself; \
                 --machine is not used"
            );
        }
    }
    allocated(app, hosts)
}

/// The placement by weight on the machine file `file`.
fn place_by_weight(app: &Application, file: &Path) -> Result<weighted::WeightedPlacement, String> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        format!(
            "cannot read the virtual machine file {}: {e}",
            file.display()
        )
    })?;
    let machine = mpc_map::Machine::parse(&text)
        .map_err(|e| format!("virtual machine file {}: {e}", file.display()))?;
    weighted::place(app, &machine)
}

/// The allocation's real host of every process.
fn allocated(app: &Application, hosts: &HostMap) -> Result<Vec<Option<String>>, String> {
    (0..app.processes.len())
        .map(|p| match app.allocation.get(&p) {
            None => Ok(None),
            Some(pl) => {
                let real = hosts.resolve(&pl.host).ok_or_else(|| {
                    format!(
                        "{}: host {} is not in the host map (use --hostmap)",
                        app.processes[p].label(),
                        pl.host
                    )
                })?;
                Ok((!is_local_host(&real)).then_some(real))
            }
        })
        .collect()
}

fn run_cmd(script: &Path, opts: &Opts) -> u8 {
    let Some((app, hosts)) = checked(script, opts) else {
        return 1;
    };
    let fail = |msg: String| {
        eprintln!("mpbridge ensemble run: {msg}");
        1
    };
    let (exes, by_component) = match executables(&app) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let places = match placements(&app, &hosts, opts) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let units = match app.environment {
        Environment::Mpi => match ensemble_lang::plan::mpi::plan(&app, &exes, &places) {
            Ok(u) => u,
            Err(errs) => {
                for e in errs {
                    eprintln!("{}: error: {e}", script.display());
                }
                return 1;
            }
        },
        Environment::Pvm3 => {
            let Some(me) = loader_exe() else {
                return fail(format!(
                    "cannot find {LOADER} beside the mpbridge executable or on PATH \
                     (it is installed with mpbridge)"
                ));
            };
            let mut args = Vec::new();
            let abs = script
                .canonicalize()
                .unwrap_or_else(|_| script.to_path_buf());
            args.push(abs.to_string_lossy().into_owned());
            for (k, v) in &opts.param_map() {
                args.push(format!("-D{k}={v}"));
            }
            for (c, p) in &by_component {
                args.push("--exe".into());
                args.push(format!("{c}={}", p.display()));
            }
            let loader = LaunchUnit {
                exe: me,
                args,
                host: None,
            };
            if opts.spawn {
                if places.iter().any(Option::is_some) {
                    eprintln!(
                        "mpbridge ensemble run: warning: --spawn starts every component \
                         where MPI chooses; the allocation's hosts are not used"
                    );
                }
                vec![loader]
            } else {
                ensemble_lang::plan::pvm::plan(loader, &app, &exes, &places)
            }
        }
    };
    launch(&units, opts)
}

fn launch(units: &[LaunchUnit], opts: &Opts) -> u8 {
    let requested = opts.mpiexec.clone().unwrap_or_else(|| "mpiexec".into());
    let Some(mpiexec) = host::find_program(&requested) else {
        eprintln!(
            "mpbridge ensemble run: cannot find '{}' (install Open MPI: openmpi-bin; \
             'mpbridge doctor' says what else is missing)",
            requested.to_string_lossy()
        );
        return 127;
    };
    let flavour = version_text(&mpiexec).map_or(Flavour::Unknown, |t| detect_flavour(&t));
    let exe = libdir::current_exe();
    let libdir = exe
        .as_deref()
        .map(|e| libdir::library_dir(e, std::env::var_os(libdir::LIBDIR_ENV).as_deref()));
    // One machine: no process is placed on another host and no batch
    // allocation spans several.
    let one_machine = crate::launcher::on_one_machine(units.iter().any(|u| u.host.is_some()));
    let local_net =
        crate::launcher::local_net_for("mpbridge ensemble run", one_machine, flavour, &mpiexec);
    let env = env_setup::launch_env_here(flavour, libdir.as_deref(), local_net);
    let mut args: Vec<String> = Vec::new();
    let mut cluster_hostfile: Option<PathBuf> = None;
    if opts.cluster {
        match crate::cluster_run::job_options() {
            Ok((hostfile, more)) => {
                cluster_hostfile = Some(PathBuf::from(&hostfile));
                args.push("--hostfile".into());
                args.push(hostfile.to_string_lossy().into_owned());
                args.extend(more.iter().map(|a| a.to_string_lossy().into_owned()));
            }
            Err(e) => {
                eprintln!("mpbridge ensemble run: --cluster: {e}");
                return 2;
            }
        }
    }
    // Local runs inherit the environment anyway; these also carry the
    // library path to ranks on other hosts.
    if let Some((_, v)) = env.iter().find(|(k, _)| *k == "LD_LIBRARY_PATH") {
        match flavour {
            Flavour::OpenMpi => args.extend(["-x".into(), "LD_LIBRARY_PATH".into()]),
            Flavour::Mpich => args.extend([
                "-genv".into(),
                "LD_LIBRARY_PATH".into(),
                v.to_string_lossy().into_owned(),
            ]),
            Flavour::Unknown => {}
        }
    }
    args.extend(mpmd_args(units));
    if opts.cluster {
        let mut all: Vec<OsString> = args.iter().map(OsString::from).collect();
        crate::cluster_run::export_to_every_app(&mut all);
        args = all
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
    }
    if opts.dry_run {
        let mut line = crate::launcher::shell_quote(mpiexec.as_os_str());
        for a in &args {
            line.push(' ');
            line.push_str(&crate::launcher::shell_quote(std::ffi::OsStr::new(a)));
        }
        println!("{line}");
        return 0;
    }
    let mut cmd = Command::new(&mpiexec);
    cmd.args(&args);
    for (k, v) in &env {
        cmd.env(k, v);
    }
    if opts.cluster {
        // On the cluster the launcher stays, to watch the hosts.
        let pvm = args.iter().any(|a| a.ends_with(LOADER));
        return crate::cluster_run::run_watched(
            "mpbridge ensemble run",
            cmd,
            cluster_hostfile.as_deref(),
            pvm,
            None,
        );
    }
    match cmd.status() {
        Ok(st) => match st.code() {
            Some(0) => 0,
            Some(c) => c.clamp(1, 255) as u8,
            None => 1,
        },
        Err(e) => {
            eprintln!(
                "mpbridge ensemble run: cannot run '{}': {e}",
                mpiexec.display()
            );
            126
        }
    }
}

/// The PVM loader's executable.
const LOADER: &str = "mpbridge-ens-loader";

/// The PVM loader: beside this executable (installed layout and cargo's
/// target directory), else on `PATH`.
fn loader_exe() -> Option<PathBuf> {
    if let Some(beside) = libdir::current_exe().map(|me| me.with_file_name(LOADER)) {
        if beside.is_file() {
            return Some(beside);
        }
    }
    host::find_program(std::ffi::OsStr::new(LOADER))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        ens: EnsembleArgs,
    }

    fn parse(v: &[&str]) -> Result<EnsembleArgs, clap::Error> {
        Wrapper::try_parse_from(std::iter::once("ensemble").chain(v.iter().copied())).map(|w| w.ens)
    }

    fn err(v: &[&str]) -> String {
        parse(v).unwrap_err().to_string()
    }

    #[test]
    fn options_parse() {
        let a = parse(&[
            "draw",
            "a.ens",
            "-D",
            "N=64",
            "-DM=3",
            "--hostmap",
            "h",
            "--path",
            "/x",
            "-o",
            "a.svg",
        ])
        .unwrap();
        let Some(Action::Draw(d)) = a.action else {
            panic!("not draw: {a:?}")
        };
        let o = d.opts;
        assert_eq!(d.script, Path::new("a.ens"));
        assert_eq!(o.param_map().get("N"), Some(&64));
        assert_eq!(o.param_map().get("M"), Some(&3));
        assert_eq!(o.hostmap.as_deref(), Some(Path::new("h")));
        assert_eq!(o.paths, vec![PathBuf::from("/x")]);
        assert_eq!(o.output.as_deref(), Some(Path::new("a.svg")));
    }

    #[test]
    fn a_bare_script_is_run() {
        let a = parse(&["app.ens", "--dry-run", "-D", "N=2"]).unwrap();
        assert!(a.action.is_none());
        assert_eq!(a.script.as_deref(), Some(Path::new("app.ens")));
        assert!(a.opts.dry_run);
        assert_eq!(a.opts.param_map().get("N"), Some(&2));
    }

    #[test]
    fn bad_options_are_reported() {
        assert!(err(&["check", "a", "-D", "N"]).contains("NAME=VALUE"));
        assert!(err(&["check", "a", "-D", "N=x"]).contains("integer"));
        assert!(err(&["check", "a", "--bogus"]).contains("--bogus"));
        assert!(err(&["check", "a", "b"]).contains("'b'"));
        assert!(err(&["check", "a", "--hostmap"]).contains("--hostmap"));
        assert_eq!(parse(&["check"]).unwrap_err().exit_code(), 2);
    }

    #[test]
    fn exit_codes_without_running_anything() {
        let check = parse(&["check", "/nonexistent/app.ens"]).unwrap();
        assert_eq!(run(&check), 1);
        let draw = parse(&["draw", "x.ens"]).unwrap();
        assert_eq!(run(&draw), 2);
    }
}
