//! Command line of `mpbridge run`: the options, their help, and the
//! mpiexec-style single-dash spellings (`-np 4`, `-hostfile F`) that users
//! of mpiexec type out of habit.

use std::ffi::OsString;

use clap::Args;

const RUN_AFTER_HELP: &str = "\
With --ga-servers on several nodes (from --hostfile, --host, or the batch
allocation: SLURM_JOB_NUM_NODES, PBS_NODEFILE) ranks are placed round-robin
over the nodes (Open MPI --map-by node, MPICH -ppn 1) so that the servers,
one per node, land on distinct nodes. Each node then needs a free slot for
its server.

On one machine (no --hostfile, --host or batch allocation) Open MPI is told
to keep the job off the network: MPI over shared memory only, and mpiexec's
own listeners on loopback (see the README). Setting OMPI_MCA_pml,
OMPI_MCA_btl, UCX_TLS or the *_if_include/_exclude variables yourself
leaves the choice to you.

Environment:
  MPBRIDGE_LIBDIR    library directory to use instead of the one found
                     next to the mpbridge executable
  ga-server is looked for next to the mpbridge executable, then on PATH.

Exit status is mpiexec's; 127 when mpiexec cannot be found, 2 for a usage
error.";

/// Options of `mpbridge run`, as the launcher uses them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    pub np: u32,
    pub ga_servers: bool,
    /// `--hostfile FILE`, passed on to mpiexec.
    pub hostfile: Option<OsString>,
    /// `--host LIST`, passed on to mpiexec.
    pub hosts: Option<OsString>,
    /// `--cluster`: the hosts of the one-machine cluster.
    pub cluster: bool,
    pub mpiexec: Option<OsString>,
    pub dry_run: bool,
    pub program: OsString,
    pub program_args: Vec<OsString>,
}

/// The command line of `mpbridge run`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
#[command(
    about = "Start PROGRAM on N ranks through mpiexec, with the mpbridge libraries first on LD_LIBRARY_PATH",
    long_about = "Start PROGRAM on N ranks with mpiexec, with the mpbridge libraries first \
                  on LD_LIBRARY_PATH for every rank.\n\n\
                  Options end at the program: everything after it goes to the program. \
                  mpiexec's spellings -np N, -hostfile FILE, -machinefile FILE, -host LIST \
                  and -hosts LIST are accepted too.",
    after_long_help = RUN_AFTER_HELP
)]
pub struct RunArgs {
    /// Number of compute ranks
    #[arg(
        short = 'n',
        long = "np",
        visible_alias = "n",
        value_name = "N",
        default_value_t = 1,
        value_parser = parse_count
    )]
    np: u32,

    /// Also start the Global Arrays data server (ga-server), one per node,
    /// beside the compute ranks; it is not one of the N ranks
    #[arg(long, alias = "ga-server")]
    ga_servers: bool,

    /// Hosts to run on (passed to mpiexec; also tells how many nodes need a
    /// ga-server)
    #[arg(long, visible_alias = "machinefile", value_name = "FILE")]
    hostfile: Option<OsString>,

    /// Comma-separated hosts, passed to mpiexec the same way
    #[arg(
        long = "host",
        short = 'H',
        visible_alias = "hosts",
        value_name = "LIST"
    )]
    hosts: Option<OsString>,

    /// Run on the hosts of the one-machine cluster that 'scripts/cluster.sh
    /// up' made (its hostfile and rsh agent; MPBRIDGE_* variables are
    /// forwarded to the ranks)
    #[arg(long)]
    cluster: bool,

    /// Use this mpiexec instead of the one on PATH
    #[arg(long, value_name = "PATH")]
    mpiexec: Option<OsString>,

    /// Print the environment and command, do not run them
    #[arg(long)]
    dry_run: bool,

    /// The program to start on every rank, and its arguments (given to it
    /// unchanged)
    #[arg(
        value_name = "PROGRAM",
        required = true,
        num_args = 1..,
        trailing_var_arg = true
    )]
    command: Vec<OsString>,
}

impl RunArgs {
    /// The options in the launcher's terms.
    pub fn options(&self) -> RunOptions {
        let (program, program_args) = self
            .command
            .split_first()
            .expect("clap requires the program");
        RunOptions {
            np: self.np,
            ga_servers: self.ga_servers,
            hostfile: self.hostfile.clone(),
            hosts: self.hosts.clone(),
            cluster: self.cluster,
            mpiexec: self.mpiexec.clone(),
            dry_run: self.dry_run,
            program: program.clone(),
            program_args: program_args.to_vec(),
        }
    }
}

fn parse_count(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "the number of ranks must be a whole number of at least 1, not '{text}'"
        )),
    }
}

/// Options of `run` that take a value in the next argument, in the
/// spellings the scan in [`mpiexec_spellings`] must step over.
const VALUE_OPTIONS: [&str; 9] = [
    "-n",
    "--np",
    "--n",
    "--mpiexec",
    "--hostfile",
    "--machinefile",
    "--host",
    "--hosts",
    "-H",
];

/// Rewrite mpiexec's single-dash long options (`-np`, `-hostfile`,
/// `-machinefile`, `-host`, `-hosts`) in the arguments after `run` to the
/// double-dash form, up to the program: the program's own arguments are
/// left as they are.
pub fn mpiexec_spellings(args: &[OsString]) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let Some(arg) = args[i].to_str() else { break };
        if arg == "--" || !arg.starts_with('-') || arg == "-" {
            break;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg, None),
        };
        let name = match name {
            "-np" | "-hostfile" | "-machinefile" | "-host" | "-hosts" => format!("-{name}"),
            other => other.to_string(),
        };
        match inline {
            Some(v) => out.push(OsString::from(format!("{name}={v}"))),
            None => out.push(OsString::from(&name)),
        }
        if inline.is_none() && VALUE_OPTIONS.contains(&name.as_str()) {
            if let Some(value) = args.get(i + 1) {
                out.push(value.clone());
                i += 1;
            }
        }
        i += 1;
    }
    out.extend(args[i..].iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        run: RunArgs,
    }

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn parse(args: &[&str]) -> Result<RunOptions, clap::Error> {
        let mut argv = os(&["run"]);
        argv.extend(mpiexec_spellings(&os(args)));
        Wrapper::try_parse_from(argv).map(|w| w.run.options())
    }

    fn run(args: &[&str]) -> RunOptions {
        parse(args).unwrap()
    }

    #[test]
    fn defaults_to_one_rank() {
        let r = run(&["/bin/hostname"]);
        assert_eq!(r.np, 1);
        assert!(!r.ga_servers && !r.dry_run);
        assert_eq!(r.mpiexec, None);
        assert_eq!(r.program, OsString::from("/bin/hostname"));
        assert!(r.program_args.is_empty());
    }

    #[test]
    fn rank_count_spellings() {
        assert_eq!(run(&["-n", "3", "p"]).np, 3);
        assert_eq!(run(&["-np", "5", "p"]).np, 5);
        assert_eq!(run(&["--np=6", "p"]).np, 6);
        assert_eq!(run(&["-n=7", "p"]).np, 7);
        assert_eq!(run(&["-n8", "p"]).np, 8);
        assert_eq!(run(&["-np=2", "p"]).np, 2);
    }

    #[test]
    fn program_args_are_left_alone() {
        let r = run(&["-n", "2", "prog", "-n", "9", "--ga-servers", "-np"]);
        assert_eq!(r.np, 2);
        assert!(!r.ga_servers);
        assert_eq!(r.program_args, os(&["-n", "9", "--ga-servers", "-np"]));
    }

    #[test]
    fn double_dash_ends_options() {
        let r = run(&[
            "--ga-servers",
            "--mpiexec",
            "/opt/mpi/bin/mpiexec",
            "--",
            "-weird",
            "x",
        ]);
        assert!(r.ga_servers);
        assert_eq!(r.mpiexec, Some(OsString::from("/opt/mpi/bin/mpiexec")));
        assert_eq!(r.program, OsString::from("-weird"));
        assert_eq!(r.program_args, os(&["x"]));
    }

    #[test]
    fn mpiexec_inline_value_and_dry_run() {
        let r = run(&["--dry-run", "--mpiexec=/x/mpiexec", "prog"]);
        assert!(r.dry_run);
        assert_eq!(r.mpiexec, Some(OsString::from("/x/mpiexec")));
    }

    #[test]
    fn hostfile_and_hosts() {
        let r = run(&["--hostfile", "hf", "--host=a,b", "-n", "2", "p"]);
        assert_eq!(r.hostfile, Some(OsString::from("hf")));
        assert_eq!(r.hosts, Some(OsString::from("a,b")));
        let r = run(&["-machinefile", "m", "-H", "x", "p"]);
        assert_eq!(r.hostfile, Some(OsString::from("m")));
        assert_eq!(r.hosts, Some(OsString::from("x")));
        let r = run(&["-hostfile", "h2", "-hosts", "y,z", "p"]);
        assert_eq!(r.hostfile, Some(OsString::from("h2")));
        assert_eq!(r.hosts, Some(OsString::from("y,z")));
        assert!(parse(&["--hostfile"]).is_err());
    }

    #[test]
    fn errors() {
        assert!(parse(&[]).is_err());
        assert!(parse(&["-n", "4"]).is_err());
        assert!(parse(&["-n"]).is_err());
        assert!(parse(&["-n", "0", "p"]).is_err());
        assert!(parse(&["-n", "two", "p"]).is_err());
        assert!(parse(&["--frobnicate", "p"]).is_err());
        assert!(parse(&["--dry-run=yes", "p"]).is_err());
    }

    #[test]
    fn help_is_a_display_not_a_failure() {
        let e = parse(&["--help"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
        assert_eq!(e.exit_code(), 0);
        let e = parse(&["-n", "2", "-h", "p"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
    }

    #[test]
    fn cluster_is_a_flag_before_the_program() {
        let r = run(&["--cluster", "-n", "3", "prog", "--cluster"]);
        assert!(r.cluster);
        assert_eq!(r.np, 3);
        assert_eq!(r.program_args, os(&["--cluster"]));
        assert!(!run(&["prog"]).cluster);
    }

    #[test]
    fn rewriting_stops_at_the_program() {
        let out = mpiexec_spellings(&os(&["-np", "2", "prog", "-np", "3"]));
        assert_eq!(out, os(&["--np", "2", "prog", "-np", "3"]));
    }
}
