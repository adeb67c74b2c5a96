//! Command line of `mpbridge run`.

use std::ffi::OsString;

pub const RUN_USAGE: &str = "\
Usage: mpbridge run [OPTIONS] [--] PROGRAM [ARGS...]

Start PROGRAM on N ranks with mpiexec, with the mpbridge libraries first on
LD_LIBRARY_PATH for every rank.

Options:
  -n, -np N          number of compute ranks (default 1)
  --ga-servers       also start the Global Arrays data server (ga-server),
                     one per node, beside the compute ranks; it is not one
                     of the N ranks
  --hostfile FILE    hosts to run on (passed to mpiexec; also tells how
                     many nodes need a ga-server)
  --host LIST        comma-separated hosts, the same way
  --cluster          run on the hosts of the one-machine cluster that
                     'scripts/cluster.sh up' made (its hostfile and rsh
                     agent; MPBRIDGE_* variables are forwarded to the ranks)
  --mpiexec PATH     use this mpiexec instead of the one on PATH
  --dry-run          print the environment and command, do not run them
  -h, --help         show this help

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

Exit status is mpiexec's; 127 when mpiexec cannot be found.
";

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Help,
    Run(RunOptions),
}

fn parse_count(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "the number of ranks must be a whole number of at least 1, not '{text}'"
        )),
    }
}

/// Parse the arguments that follow `run`.
pub fn parse(args: &[OsString]) -> Result<Parsed, String> {
    let mut np = 1;
    let mut ga_servers = false;
    let mut hostfile = None;
    let mut hosts = None;
    let mut cluster = false;
    let mut mpiexec = None;
    let mut dry_run = false;
    let mut i = 0;

    while i < args.len() {
        let Some(arg) = args[i].to_str() else {
            // Not UTF-8: cannot be one of our options, so it is the program.
            break;
        };
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        // Fetch the value of an option given either as `--opt=VALUE` or as
        // `--opt VALUE`.
        let mut value_of = |name: &str, inline: Option<&str>| -> Result<OsString, String> {
            if let Some(v) = inline {
                return Ok(OsString::from(v));
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("option '{name}' needs a value"))
        };
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") || n == "-n" || n == "-np" => (n, Some(v)),
            _ => (arg, None),
        };
        match name {
            "-h" | "--help" => return Ok(Parsed::Help),
            "-n" | "-np" | "--np" | "--n" => {
                let v = value_of(name, inline)?;
                np = parse_count(&v.to_string_lossy())?;
            }
            "--ga-servers" | "--ga-server" if inline.is_none() => ga_servers = true,
            "--mpiexec" => mpiexec = Some(value_of(name, inline)?),
            "--hostfile" | "-hostfile" | "--machinefile" | "-machinefile" => {
                hostfile = Some(value_of(name, inline)?);
            }
            "--host" | "-host" | "--hosts" | "-hosts" | "-H" => {
                hosts = Some(value_of(name, inline)?);
            }
            "--dry-run" if inline.is_none() => dry_run = true,
            "--cluster" if inline.is_none() => cluster = true,
            _ => {
                // `-n4` style.
                if let Some(count) = arg
                    .strip_prefix("-n")
                    .filter(|c| c.starts_with(|ch: char| ch.is_ascii_digit()))
                {
                    np = parse_count(count)?;
                } else {
                    return Err(format!("unknown option '{arg}'"));
                }
            }
        }
        i += 1;
    }

    let Some(program) = args.get(i).cloned() else {
        return Err("no program given".to_string());
    };
    Ok(Parsed::Run(RunOptions {
        np,
        ga_servers,
        hostfile,
        hosts,
        cluster,
        mpiexec,
        dry_run,
        program,
        program_args: args[i + 1..].to_vec(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn run(args: &[&str]) -> RunOptions {
        match parse(&os(args)).unwrap() {
            Parsed::Run(r) => r,
            Parsed::Help => panic!("unexpected help"),
        }
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
    }

    #[test]
    fn program_args_are_left_alone() {
        let r = run(&["-n", "2", "prog", "-n", "9", "--ga-servers"]);
        assert_eq!(r.np, 2);
        assert!(!r.ga_servers);
        assert_eq!(r.program_args, os(&["-n", "9", "--ga-servers"]));
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
        assert!(parse(&os(&["--hostfile"])).is_err());
    }

    #[test]
    fn errors() {
        assert!(parse(&os(&[])).is_err());
        assert!(parse(&os(&["-n", "4"])).is_err());
        assert!(parse(&os(&["-n"])).is_err());
        assert!(parse(&os(&["-n", "0", "p"])).is_err());
        assert!(parse(&os(&["-n", "two", "p"])).is_err());
        assert!(parse(&os(&["--frobnicate", "p"])).is_err());
        assert!(parse(&os(&["--dry-run=yes", "p"])).is_err());
    }

    #[test]
    fn help() {
        assert_eq!(parse(&os(&["--help"])).unwrap(), Parsed::Help);
        assert_eq!(parse(&os(&["-n", "2", "-h", "p"])).unwrap(), Parsed::Help);
    }

    #[test]
    fn cluster_is_a_flag_before_the_program() {
        let r = run(&["--cluster", "-n", "3", "prog", "--cluster"]);
        assert!(r.cluster);
        assert_eq!(r.np, 3);
        assert_eq!(r.program_args, os(&["--cluster"]));
        assert!(!run(&["prog"]).cluster);
    }
}
