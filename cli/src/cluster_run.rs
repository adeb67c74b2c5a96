//! `mpbridge run --cluster`: run on the hosts of the one-machine cluster made
//! by `scripts/cluster.sh up` (hosts as namespaces). The cluster's state
//! directory holds its hostfile and the mpiexec options that start Open
//! MPI's daemons through its rsh agent and keep MPI on its bridge network.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::run_args::RunOptions;

/// Where `scripts/cluster.sh` keeps the cluster, unless
/// `MPBRIDGE_CLUSTER_DIR` says otherwise.
pub const DEFAULT_DIR: &str = "/run/mpbridge-cluster";
pub const DIR_ENV: &str = "MPBRIDGE_CLUSTER_DIR";
/// The file of mpiexec options, one argument per line.
const ARGS_FILE: &str = "mpiexec-args";

/// The cluster directory: `MPBRIDGE_CLUSTER_DIR`, else the default.
pub fn cluster_dir(var: Option<OsString>) -> PathBuf {
    var.filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from)
}

/// What a job on the cluster needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterLaunch {
    /// The cluster's hostfile (also how many nodes need a ga-server).
    pub hostfile: OsString,
    /// The other mpiexec options (rsh agent, transports, networks).
    pub mpiexec_args: Vec<OsString>,
}

/// Split the cluster's option file into the hostfile and the other options.
pub fn parse_args_file(text: &str) -> Result<ClusterLaunch, String> {
    let words: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let mut hostfile = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "--hostfile" {
            let file = words
                .get(i + 1)
                .ok_or_else(|| "--hostfile without a file".to_string())?;
            hostfile = Some(OsString::from(file));
            i += 2;
        } else {
            rest.push(OsString::from(words[i]));
            i += 1;
        }
    }
    let hostfile = hostfile.ok_or_else(|| "no --hostfile in it".to_string())?;
    Ok(ClusterLaunch {
        hostfile,
        mpiexec_args: rest,
    })
}

/// `-x NAME` for every `MPBRIDGE_*` variable set here: the cluster's hosts
/// start their daemons with a clean environment, as ssh would, so settings
/// such as `MPBRIDGE_SHM` reach the ranks only when forwarded.
pub fn forwarded_vars(names: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut keep: Vec<String> = names
        .filter_map(|n| n.into_string().ok())
        .filter(|n| n.starts_with("MPBRIDGE_") && n != DIR_ENV)
        .collect();
    keep.sort();
    keep.into_iter()
        .flat_map(|n| [OsString::from("-x"), OsString::from(n)])
        .collect()
}

/// The variable that tells PVM tasks the cluster's hosts and speeds.
pub const PVM_HOSTS_ENV: &str = "MPBRIDGE_PVM_HOSTS";

/// The cluster's hosts for PVM's `pvm_config`, `name:speed,...` in
/// hostfile order: `hostfile` is the hostfile's text, `speed_of` gives the
/// first word of a host's `HOST.speed` file (hosts made without
/// `--speeds` have none, and get PVM's default, 1000).
pub fn pvm_hosts(hostfile: &str, speed_of: impl Fn(&str) -> Option<String>) -> String {
    hostfile
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|h| !h.starts_with('#'))
        .map(|h| {
            let speed = speed_of(h)
                .and_then(|s| s.split_whitespace().next()?.parse::<u32>().ok())
                .filter(|&s| s > 0)
                .unwrap_or(1000);
            format!("{h}:{speed}")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Read the running cluster's launch settings from `dir`.
pub fn load(dir: &Path) -> Result<ClusterLaunch, String> {
    let file = dir.join(ARGS_FILE);
    let text = std::fs::read_to_string(&file).map_err(|e| {
        format!(
            "no cluster is up ({}: {e}); start one with 'scripts/cluster.sh up'",
            file.display()
        )
    })?;
    let launch = parse_args_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    if !Path::new(&launch.hostfile).is_file() {
        return Err(format!(
            "the cluster's hostfile {} is gone; start the cluster again with \
             'scripts/cluster.sh up'",
            Path::new(&launch.hostfile).display()
        ));
    }
    Ok(launch)
}

/// The running cluster's hostfile, and the other mpiexec options a job on
/// it needs: its rsh agent and networks, the forwarded `MPBRIDGE_*`
/// variables, and the hosts PVM's machine is made of.
pub fn job_options() -> Result<(OsString, Vec<OsString>), String> {
    let dir = cluster_dir(std::env::var_os(DIR_ENV));
    let launch = load(&dir)?;
    let mut args = launch.mpiexec_args;
    args.extend(forwarded_vars(std::env::vars_os().map(|(k, _)| k)));
    if std::env::var_os(PVM_HOSTS_ENV).is_none() {
        let text = std::fs::read_to_string(Path::new(&launch.hostfile)).unwrap_or_default();
        let hosts = pvm_hosts(&text, |h| {
            std::fs::read_to_string(dir.join(format!("{h}.speed"))).ok()
        });
        args.push("-x".into());
        args.push(format!("{PVM_HOSTS_ENV}={hosts}").into());
    }
    Ok((launch.hostfile, args))
}

/// For `--cluster`: the options with the cluster's hostfile in place and the
/// mpiexec options to put first. Without `--cluster`, the options unchanged.
pub fn prepare(opts: &RunOptions) -> Result<(RunOptions, Vec<OsString>), String> {
    if !opts.cluster {
        return Ok((opts.clone(), Vec::new()));
    }
    if opts.hostfile.is_some() {
        return Err("--cluster brings its own hostfile; drop --hostfile".to_string());
    }
    let (hostfile, args) = job_options()?;
    let mut opts = opts.clone();
    opts.hostfile = Some(hostfile);
    Ok((opts, args))
}

/// Open MPI 4.1 gives `-x` variables only to the first program of an
/// MPMD line, so the `-x` options before the first `-n` are repeated
/// after every `:` (the `ga-server` context gets `MPBRIDGE_*` too).
pub fn export_to_every_app(args: &mut Vec<OsString>) {
    let globals_end = args.iter().position(|a| a == "-n").unwrap_or(0);
    let mut exports: Vec<OsString> = Vec::new();
    let mut i = 0;
    while i + 1 < globals_end {
        if args[i] == "-x" {
            exports.push(args[i].clone());
            exports.push(args[i + 1].clone());
            i += 2;
        } else {
            i += 1;
        }
    }
    if exports.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(args.len() + exports.len());
    for a in args.drain(..) {
        let colon = a == ":";
        out.push(a);
        if colon {
            out.extend(exports.iter().cloned());
        }
    }
    *args = out;
}

/// Runs a `--cluster` job's mpiexec under the launcher's host watch (see
/// `host_watch`): the job learns of hosts that go down through the
/// down-hosts file, and ends when one does (a PVM program after a grace
/// time). `who` starts the messages; `hostfile` names the hosts watched;
/// `statuses`, for a PVM job in Open MPI's recovery mode, the directory
/// where its first `ranks` processes leave their exit statuses (see
/// `pvm_faults`), from which the job's status is taken. Returns the
/// launcher's exit status.
pub fn run_watched(
    who: &str,
    command: std::process::Command,
    hostfile: Option<&Path>,
    pvm: bool,
    statuses: Option<(&Path, u32)>,
) -> u8 {
    use crate::host_watch;
    let dir = cluster_dir(std::env::var_os(DIR_ENV));
    let hostfile = hostfile
        .and_then(|f| std::fs::read_to_string(f).ok())
        .unwrap_or_default();
    let hosts = host_watch::hosts(&dir, &hostfile);
    let job_dir = match host_watch::make_job_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{who}: cannot make the job directory ({e}); hosts are not watched");
            return run_unwatched(who, command);
        }
    };
    // The options go first (mpiexec's options end at the program) and
    // after every `:` of an MPMD line.
    let args = host_watch::with_job_args(&job_dir, command.get_args().map(|a| a.to_os_string()));
    let mut watched = std::process::Command::new(command.get_program());
    watched.args(args);
    for (k, v) in command.get_envs() {
        match v {
            Some(v) => watched.env(k, v),
            None => watched.env_remove(k),
        };
    }
    let grace = host_watch::grace(
        pvm,
        std::env::var("MPBRIDGE_HOST_DOWN_GRACE").ok().as_deref(),
    );
    let (code, host_lost) = host_watch::run_watched(who, watched, hosts, &job_dir, grace);
    match statuses {
        Some((dir, ranks)) if !host_lost => {
            let ended = crate::pvm_faults::read_statuses(dir, ranks);
            let (code, lines) = crate::pvm_faults::job_status(i32::from(code), &ended);
            for l in lines {
                eprintln!("{who}: {l}");
            }
            code
        }
        _ => code,
    }
}

fn run_unwatched(who: &str, mut command: std::process::Command) -> u8 {
    match command.status() {
        Ok(s) => s.code().map(|c| c as u8).unwrap_or(1),
        Err(e) => {
            eprintln!("{who}: cannot run mpiexec: {e}");
            126
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hostfile_is_taken_out_of_the_options() {
        let text = "--hostfile\n/run/c/hostfile\n--mca\nplm_rsh_agent\n/run/c/rsh-agent\n";
        let l = parse_args_file(text).unwrap();
        assert_eq!(l.hostfile, OsString::from("/run/c/hostfile"));
        assert_eq!(
            l.mpiexec_args,
            vec![
                OsString::from("--mca"),
                OsString::from("plm_rsh_agent"),
                OsString::from("/run/c/rsh-agent")
            ]
        );
    }

    #[test]
    fn a_file_without_a_hostfile_is_an_error() {
        assert!(parse_args_file("--mca\nx\ny\n").is_err());
        assert!(parse_args_file("--hostfile\n").is_err());
    }

    #[test]
    fn only_mpbridge_settings_are_forwarded() {
        let names = [
            "PATH",
            "MPBRIDGE_SHM",
            "MPBRIDGE_CLUSTER_DIR",
            "MPBRIDGE_GA_REMOTE",
        ]
        .into_iter()
        .map(OsString::from);
        let got: Vec<String> = forwarded_vars(names)
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect();
        assert_eq!(got, ["-x", "MPBRIDGE_GA_REMOTE", "-x", "MPBRIDGE_SHM"]);
    }

    #[test]
    fn pvm_hosts_come_from_the_hostfile_with_their_speeds() {
        let hostfile = "host1 slots=2\nhost2 slots=2\n\nhost3 slots=2\n";
        let speeds = |h: &str| match h {
            "host1" => Some("1150 86956/100000\n".to_string()),
            "host2" => Some("331 28785/100000\n".to_string()),
            _ => None,
        };
        assert_eq!(
            pvm_hosts(hostfile, speeds),
            "host1:1150,host2:331,host3:1000"
        );
    }

    #[test]
    fn exports_reach_every_program_of_the_line() {
        let line = |s: &str| -> Vec<OsString> { s.split(' ').map(OsString::from).collect() };
        let mut args = line("--mca a b -x MPBRIDGE_X -x L -n 3 prog -x arg : -n 3 ga-server");
        export_to_every_app(&mut args);
        assert_eq!(
            args,
            line(
                "--mca a b -x MPBRIDGE_X -x L -n 3 prog -x arg \
                 : -x MPBRIDGE_X -x L -n 3 ga-server"
            )
        );
    }

    #[test]
    fn the_directory_comes_from_the_environment() {
        assert_eq!(cluster_dir(None), PathBuf::from(DEFAULT_DIR));
        assert_eq!(cluster_dir(Some("".into())), PathBuf::from(DEFAULT_DIR));
        assert_eq!(cluster_dir(Some("/tmp/c".into())), PathBuf::from("/tmp/c"));
    }

    #[test]
    fn a_missing_cluster_says_how_to_start_one() {
        let e = load(Path::new("/nonexistent/mpbridge-cluster")).unwrap_err();
        assert!(
            e.contains("no cluster is up") && e.contains("cluster.sh up"),
            "{e}"
        );
    }
}
