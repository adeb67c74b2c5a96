//! `mpbridge ensemble`: check, draw and run Ensemble compositions.
//!
//! `run` chooses the loader from the script's environment. Both start one
//! MPMD `mpiexec` job in which rank i runs process i of the script; the
//! PVM loader is rank 0 (the `mpbridge-ens-loader` executable beside this
//! one), since it must be a PVM task to spawn and bind the components.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use ensemble_lang::model::{Application, Environment};
use ensemble_lang::plan::{is_local_host, mpmd_args, LaunchUnit};
use ensemble_lang::{Diagnostic, HostMap, Severity};

use crate::env_setup::{self, EnvInputs};
use crate::host;
use crate::launcher::{detect_flavour, version_text, Flavour};
use crate::libdir;
use crate::local_net::{self, LocalNet};

pub const ENSEMBLE_USAGE: &str = "\
Usage: mpbridge ensemble check SCRIPT [OPTIONS]
       mpbridge ensemble draw SCRIPT -o OUT.svg [OPTIONS]
       mpbridge ensemble run SCRIPT [OPTIONS]
       mpbridge ensemble SCRIPT [OPTIONS]          (same as run)

Check, draw or launch an Ensemble composition. 'run' checks first, then
starts every process in one mpiexec job: through the PVM loader for
'environment PVM3;', directly on MPI for 'environment MPI;'.

Options:
  -D NAME=VALUE      set a script parameter (e.g. -D N=64); repeatable
  --hostmap FILE     map the script's host names to real hosts: lines
                     'NAME HOST' or 'NAME = HOST', '* HOST' for every name
  --path DIR         look for component executables in DIR (by file name)
                     before the script's own locations; repeatable
  -o, --output FILE  (draw) the SVG to write; a name ending in .dot gets
                     the Graphviz source instead
  --mpiexec PATH     mpiexec to use (default: the one on PATH)
  --dry-run          (run) print the mpiexec command instead of running it
  --cluster          (run) on the hosts of scripts/cluster.sh: its hostfile,
                     rsh agent and networks; map the script's hosts onto
                     host1, host2, ... with --hostmap
  --spawn            (run, PVM) start only the loader and let pvm_spawn start
                     every component dynamically (MPI_Comm_spawn) instead of
                     pre-launching them in the same job; hosts are ignored
  -h, --help         show this help
";

#[derive(Debug, Default)]
struct Opts {
    script: Option<PathBuf>,
    params: BTreeMap<String, i64>,
    hostmap: Option<PathBuf>,
    paths: Vec<PathBuf>,
    output: Option<PathBuf>,
    mpiexec: Option<OsString>,
    dry_run: bool,
    spawn: bool,
    cluster: bool,
    /// Loader only: component name -> executable, as resolved by `run`.
    exes: BTreeMap<String, PathBuf>,
}

fn parse_opts(args: &[OsString]) -> Result<Opts, String> {
    let mut o = Opts::default();
    let mut it = args.iter();
    let value = |it: &mut std::slice::Iter<'_, OsString>, opt: &str| {
        it.next()
            .cloned()
            .ok_or_else(|| format!("option {opt} needs a value"))
    };
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        match s.as_ref() {
            "-D" => {
                let v = value(&mut it, "-D")?;
                set_param(&mut o, &v.to_string_lossy())?;
            }
            d if d.starts_with("-D") && d.len() > 2 => set_param(&mut o, &d[2..])?,
            "--hostmap" => o.hostmap = Some(value(&mut it, "--hostmap")?.into()),
            "--path" => o.paths.push(value(&mut it, "--path")?.into()),
            "-o" | "--output" => o.output = Some(value(&mut it, "-o")?.into()),
            "--mpiexec" => o.mpiexec = Some(value(&mut it, "--mpiexec")?),
            "--dry-run" => o.dry_run = true,
            "--spawn" => o.spawn = true,
            "--cluster" => o.cluster = true,
            "--exe" => {
                let v = value(&mut it, "--exe")?;
                let v = v.to_string_lossy();
                let (c, p) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--exe {v}: expected COMPONENT=PATH"))?;
                o.exes.insert(c.to_string(), PathBuf::from(p));
            }
            opt if opt.starts_with('-') && opt.len() > 1 => {
                return Err(format!("unknown option '{opt}'"))
            }
            _ => {
                if o.script.is_some() {
                    return Err(format!("unexpected argument '{s}' (one script at a time)"));
                }
                o.script = Some(a.into());
            }
        }
    }
    Ok(o)
}

fn set_param(o: &mut Opts, text: &str) -> Result<(), String> {
    let (n, v) = text
        .split_once('=')
        .ok_or_else(|| format!("-D {text}: expected NAME=VALUE"))?;
    let v: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("-D {text}: the value must be an integer"))?;
    if n.is_empty() {
        return Err(format!("-D {text}: the name is empty"));
    }
    o.params.insert(n.trim().to_string(), v);
    Ok(())
}

/// Entry point of `mpbridge ensemble`.
pub fn run(args: &[OsString]) -> u8 {
    let Some(first) = args.first().map(|a| a.to_string_lossy().into_owned()) else {
        eprint!("{ENSEMBLE_USAGE}");
        return 2;
    };
    let (cmd, rest) = match first.as_str() {
        "-h" | "--help" | "help" => {
            print!("{ENSEMBLE_USAGE}");
            return 0;
        }
        "check" | "draw" | "run" => (first.as_str(), &args[1..]),
        _ => ("run", args),
    };
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        print!("{ENSEMBLE_USAGE}");
        return 0;
    }
    let opts = match parse_opts(rest) {
        Ok(o) => o,
        Err(msg) => return usage_error(&msg),
    };
    let Some(script) = opts.script.clone() else {
        return usage_error("no script given");
    };
    match cmd {
        "check" => check_cmd(&script, &opts),
        "draw" => draw_cmd(&script, &opts),
        _ => run_cmd(&script, &opts),
    }
}

fn usage_error(msg: &str) -> u8 {
    eprintln!("mpbridge ensemble: {msg}");
    eprintln!("Try 'mpbridge ensemble --help'.");
    2
}

fn print_diags(diags: &[Diagnostic]) -> bool {
    let mut errors = false;
    for d in diags {
        eprintln!("{d}");
        errors |= matches!(d.severity, Severity::Error);
    }
    errors
}

fn parse(script: &Path, opts: &Opts) -> Option<Application> {
    match ensemble_lang::parse_file(script, &opts.params) {
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

/// Real host of every process (`None`: this machine or anywhere).
fn placements(app: &Application, hosts: &HostMap) -> Result<Vec<Option<String>>, String> {
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
    let places = match placements(&app, &hosts) {
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
            for (k, v) in &opts.params {
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
    let one_machine = units.iter().all(|u| u.host.is_none())
        && crate::launcher::allocation_nodes(
            |name| std::env::var(name).ok(),
            |path| std::fs::read_to_string(path).ok(),
        )
        .is_none();
    let local_net = local_net::choose(
        one_machine,
        flavour == Flavour::OpenMpi,
        |v| std::env::var_os(v).is_some(),
        || local_net::open_mpi_has_ucx(&mpiexec),
    );
    if local_net == Some(LocalNet::LoopbackTraffic) {
        eprintln!(
            "mpbridge ensemble run: warning: {}",
            local_net::NO_UCX_WARNING
        );
    }
    let current_ld = std::env::var_os("LD_LIBRARY_PATH");
    let current_preload = std::env::var_os("LD_PRELOAD");
    let preload = libdir
        .as_deref()
        .map(|d| d.join(local_net::PRELOAD_FILE))
        .filter(|p| p.is_file());
    let env = env_setup::launch_env(&EnvInputs {
        flavour,
        is_root: host::is_root(),
        libdir: libdir.as_deref(),
        current_ld_library_path: current_ld.as_deref(),
        local_net,
        loopback_preload: preload.as_deref(),
        current_ld_preload: current_preload.as_deref(),
    });
    let mut args: Vec<String> = Vec::new();
    if opts.cluster {
        match crate::cluster_run::job_options() {
            Ok((hostfile, more)) => {
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

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn options_parse() {
        let o = parse_opts(&os(&[
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
        ]))
        .unwrap();
        assert_eq!(o.script.as_deref(), Some(Path::new("a.ens")));
        assert_eq!(o.params.get("N"), Some(&64));
        assert_eq!(o.params.get("M"), Some(&3));
        assert_eq!(o.hostmap.as_deref(), Some(Path::new("h")));
        assert_eq!(o.paths, vec![PathBuf::from("/x")]);
        assert_eq!(o.output.as_deref(), Some(Path::new("a.svg")));
    }

    #[test]
    fn bad_options_are_reported() {
        assert!(parse_opts(&os(&["-D", "N"]))
            .unwrap_err()
            .contains("NAME=VALUE"));
        assert!(parse_opts(&os(&["-D", "N=x"]))
            .unwrap_err()
            .contains("integer"));
        assert!(parse_opts(&os(&["--bogus"]))
            .unwrap_err()
            .contains("unknown option"));
        assert!(parse_opts(&os(&["a", "b"]))
            .unwrap_err()
            .contains("one script"));
        assert!(parse_opts(&os(&["--hostmap"]))
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn exit_codes_without_running_anything() {
        assert_eq!(run(&[]), 2);
        assert_eq!(run(&os(&["--help"])), 0);
        assert_eq!(run(&os(&["check"])), 2);
        assert_eq!(run(&os(&["check", "/nonexistent/app.ens"])), 1);
        assert_eq!(run(&os(&["draw", "x.ens"])), 2);
    }
}
