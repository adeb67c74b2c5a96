//! `mpbridge`: start programs on MPI with the mpbridge libraries, and check
//! that the machine has what mpbridge needs.

mod cluster_run;
mod doctor;
mod ensemble_cmd;
mod env_setup;
mod host;
mod host_watch;
mod launcher;
mod libdir;
mod local_net;
mod pvm_faults;
mod recon;
mod run_args;

use std::ffi::OsString;
use std::process::ExitCode;

const USAGE: &str = "\
Usage: mpbridge <COMMAND> [ARGS...]

Legacy parallel APIs (PVM, TCGMSG, Express, Global Arrays) on one MPI.

Commands:
  run [-n N] [--ga-servers] [--hostfile FILE] [--cluster] [--mpiexec PATH] [--] PROGRAM [ARGS...]
                 start PROGRAM on N ranks through mpiexec, with the mpbridge
                 libraries first on LD_LIBRARY_PATH
  doctor         report which tools and libraries are present or missing,
                 and print the command that installs the missing ones
  ensemble check|draw|run SCRIPT
                 check, draw or launch an Ensemble composition
  help [COMMAND] show this help, or the help of COMMAND

Options:
  -h, --help     show this help
  -V, --version  show the version

Run 'mpbridge <COMMAND> --help' for the options of a command.
";

fn version_line() -> String {
    format!("mpbridge {}", env!("CARGO_PKG_VERSION"))
}

/// Run the command line (without the program name); returns the exit status.
fn dispatch(args: &[OsString]) -> u8 {
    let Some(first) = args.first() else {
        eprint!("{USAGE}");
        return 2;
    };
    let rest = &args[1..];
    match first.to_str() {
        Some("-h" | "--help") => {
            print!("{USAGE}");
            0
        }
        Some("help") => match rest.first().and_then(|a| a.to_str()) {
            None => {
                print!("{USAGE}");
                0
            }
            Some(cmd @ ("run" | "doctor" | "ensemble")) => dispatch(&[cmd.into(), "--help".into()]),
            Some(other) => unknown_command(other),
        },
        Some("-V" | "--version" | "version") => {
            println!("{}", version_line());
            0
        }
        Some("run") => launcher::run(rest),
        Some("doctor") => doctor::run(rest),
        Some("ensemble") => ensemble_cmd::run(rest),
        Some("recon") => recon::run(rest),
        _ => unknown_command(&first.to_string_lossy()),
    }
}

fn unknown_command(name: &str) -> u8 {
    eprintln!("mpbridge: unknown command '{name}'");
    eprintln!("Try 'mpbridge --help'.");
    2
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    ExitCode::from(dispatch(&args))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(args: &[&str]) -> u8 {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        dispatch(&args)
    }

    #[test]
    fn top_level_exit_codes() {
        assert_eq!(status(&[]), 2);
        assert_eq!(status(&["--help"]), 0);
        assert_eq!(status(&["help"]), 0);
        assert_eq!(status(&["help", "run"]), 0);
        assert_eq!(status(&["help", "nope"]), 2);
        assert_eq!(status(&["--version"]), 0);
        assert_eq!(status(&["-V"]), 0);
        assert_eq!(status(&["frobnicate"]), 2);
        assert_eq!(status(&["ensemble", "/nonexistent/app.ens"]), 1);
        assert_eq!(status(&["ensemble", "--help"]), 0);
        assert_eq!(status(&["run"]), 2);
        assert_eq!(status(&["run", "--help"]), 0);
        assert_eq!(status(&["doctor", "--bogus"]), 2);
    }

    #[test]
    fn version_matches_package() {
        assert_eq!(
            version_line(),
            format!("mpbridge {}", env!("CARGO_PKG_VERSION"))
        );
        assert!(USAGE.contains("mpbridge run") || USAGE.contains("run [-n N]"));
    }
}
