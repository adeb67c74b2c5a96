//! `mpbridge`: start programs on MPI with the mpbridge libraries, and check
//! that the machine has what mpbridge needs. This file holds the command
//! line (one `Command` variant per subcommand) and its dispatch.
//!
//! Adding a subcommand takes one variant in [`Command`] and one line in
//! [`execute`]: a variant holding the subcommand's own `clap::Args` struct
//! (`Name(name::NameArgs)`, dispatched as `name::run(&a)`), or, for a module
//! that reads its arguments itself, `Name(RawArgs)` dispatched as
//! `name::run(&a.args)`.

mod cluster_run;
mod docs;
mod doctor;
mod ensemble_cmd;
mod env_setup;
mod host;
mod host_watch;
mod launcher;
mod libdir;
mod local_net;
mod os;
mod pvm_faults;
mod recon;
mod run_args;
mod trace_cmd;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Legacy parallel APIs (PVM, TCGMSG, Express, Global Arrays) on one MPI.
#[derive(Parser, Debug)]
#[command(
    name = "mpbridge",
    version,
    about = "Legacy parallel APIs (PVM, TCGMSG, Express, Global Arrays) on one MPI",
    long_about = "Legacy parallel APIs (PVM, TCGMSG, Express, Global Arrays, HPF) on one MPI.\n\n\
                  'mpbridge run' starts programs built against the mpbridge libraries, \
                  'mpbridge doctor' checks the machine, 'mpbridge ensemble' checks, draws \
                  and launches Ensemble compositions, 'mpbridge trace' merges and draws the \
                  message traces of a run with MPBRIDGE_TRACE=DIR.\n\n\
                  Environment of programs started with mpbridge:\n  \
                  MPBRIDGE_LOG=SPEC   decision logs on stderr, e.g. 'core=debug,pvm=info'\n  \
                  MPBRIDGE_TRACE=DIR  each process writes its message events to DIR",
    after_help = "Run 'mpbridge <COMMAND> --help' for the options of a command.",
    arg_required_else_help = true,
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands of `mpbridge`.
// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    Run(run_args::RunArgs),
    /// Report which tools and libraries are present or missing, and print
    /// the command that installs the missing ones
    #[command(
        long_about = "Check which tools and libraries mpbridge needs are present, and print \
                      the command that installs the missing ones (Debian package names).",
        after_help = "Exit status: 0 when every required component is present, 1 otherwise."
    )]
    Doctor,
    Ensemble(ensemble_cmd::EnsembleArgs),
    Trace(trace_cmd::TraceArgs),
    /// Measure each host's speed, how many processes it runs without
    /// slowing, and the links between hosts; write a virtual machine file
    /// (`mpbridge recon --help` for the options)
    Recon(RawArgs),
    Completions(docs::CompletionArgs),
    Man(docs::ManArgs),
    /// Print the version
    #[command(hide = true)]
    Version,
}

/// Arguments handed unparsed to a subcommand that reads them itself
/// (including its own `--help`).
#[derive(Args, Debug)]
#[command(disable_help_flag = true)]
pub struct RawArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<OsString>,
}

fn version_line() -> String {
    format!("mpbridge {}", env!("CARGO_PKG_VERSION"))
}

/// Run one parsed command; returns the exit status.
fn execute(command: Command) -> u8 {
    match command {
        Command::Run(a) => launcher::run(&a.options()),
        Command::Doctor => doctor::run(),
        Command::Ensemble(a) => ensemble_cmd::run(&a),
        Command::Trace(a) => trace_cmd::run(&a),
        Command::Recon(a) => recon::run(&a.args),
        Command::Completions(a) => docs::completions(&a),
        Command::Man(a) => docs::man(&a),
        Command::Version => {
            println!("{}", version_line());
            0
        }
    }
}

/// Run the command line (without the program name); returns the exit status.
fn dispatch(args: &[OsString]) -> u8 {
    let mut argv = vec![OsString::from("mpbridge")];
    match args.split_first() {
        // mpiexec's single-dash spellings, before clap reads them.
        Some((first, rest)) if first == "run" => {
            argv.push(first.clone());
            argv.extend(run_args::mpiexec_spellings(rest));
        }
        _ => argv.extend(args.iter().cloned()),
    }
    match Cli::try_parse_from(argv) {
        Ok(cli) => execute(cli.command),
        Err(e) => {
            // Help and version go to stdout with status 0, usage errors to
            // stderr with status 2.
            let _ = e.print();
            u8::try_from(e.exit_code()).unwrap_or(2)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    ExitCode::from(dispatch(&args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

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
        assert_eq!(status(&["version"]), 0);
        assert_eq!(status(&["frobnicate"]), 2);
        assert_eq!(status(&["ensemble"]), 2);
        assert_eq!(status(&["ensemble", "/nonexistent/app.ens"]), 1);
        assert_eq!(status(&["ensemble", "--help"]), 0);
        assert_eq!(status(&["ensemble", "check", "--help"]), 0);
        assert_eq!(status(&["run"]), 2);
        assert_eq!(status(&["run", "--help"]), 0);
        assert_eq!(status(&["run", "-np", "0", "p"]), 2);
        assert_eq!(status(&["doctor", "--bogus"]), 2);
        assert_eq!(status(&["doctor", "--help"]), 0);
        assert_eq!(status(&["completions", "tcsh"]), 2);
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_subcommand_has_help() {
        let cmd = Cli::command();
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            assert!(
                sub.get_about().is_some(),
                "'mpbridge {}' has no help line",
                sub.get_name()
            );
        }
    }

    #[test]
    fn version_matches_package() {
        assert_eq!(
            version_line(),
            format!("mpbridge {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(
            Cli::command().get_version(),
            Some(env!("CARGO_PKG_VERSION"))
        );
    }
}
