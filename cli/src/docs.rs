//! `mpbridge completions` and `mpbridge man`: shell completion scripts and
//! manual pages, both generated from the command line's definition so they
//! always match it.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;

/// Shells `mpbridge completions` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
}

impl CompletionShell {
    fn generator(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
        }
    }
}

/// Options of `mpbridge completions`.
#[derive(Args, Debug)]
#[command(
    about = "Print the shell completion script for bash, zsh or fish",
    after_long_help = "Examples:\n  \
        mpbridge completions bash > ~/.local/share/bash-completion/completions/mpbridge\n  \
        mpbridge completions zsh > ~/.zfunc/_mpbridge\n  \
        mpbridge completions fish > ~/.config/fish/completions/mpbridge.fish"
)]
pub struct CompletionArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    shell: CompletionShell,
}

/// Options of `mpbridge man`.
#[derive(Args, Debug)]
#[command(
    about = "Print the manual page mpbridge(1), or write every page into a directory",
    long_about = "Print the manual page mpbridge(1) in roff to standard output, or, with \
                  -o DIR, write mpbridge.1 and one page per subcommand (mpbridge-run.1, ...) \
                  into DIR."
)]
pub struct ManArgs {
    /// Directory to write the pages into (created when missing)
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Entry point of `mpbridge completions`.
pub fn completions(args: &CompletionArgs) -> u8 {
    let mut out = std::io::stdout().lock();
    write_completions(args.shell, &mut out);
    match out.flush() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mpbridge completions: {e}");
            1
        }
    }
}

/// The completion script for `shell`.
fn write_completions(shell: CompletionShell, out: &mut dyn Write) {
    let mut cmd = crate::Cli::command();
    clap_complete::generate(shell.generator(), &mut cmd, "mpbridge", out);
}

/// Entry point of `mpbridge man`.
pub fn man(args: &ManArgs) -> u8 {
    let result = match &args.output {
        Some(dir) => write_pages(dir).map(|pages| {
            for p in pages {
                println!("{}", p.display());
            }
        }),
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(crate::Cli::command())
                .render(&mut out)
                .and_then(|()| out.flush())
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mpbridge man: {e}");
            1
        }
    }
}

/// Write mpbridge.1 and a page per visible subcommand into `dir`; returns
/// the files written.
fn write_pages(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut cmd = crate::Cli::command();
    cmd.build();
    let mut written = Vec::new();
    let top = dir.join("mpbridge.1");
    write_page(cmd.clone(), &top)?;
    written.push(top);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        if sub.get_name() == "help" {
            continue;
        }
        let name = format!("mpbridge-{}", sub.get_name());
        let file = dir.join(format!("{name}.1"));
        let page = sub
            .clone()
            .name(name)
            .bin_name(format!("mpbridge {}", sub.get_name()));
        write_page(page, &file)?;
        written.push(file);
    }
    Ok(written)
}

fn write_page(cmd: clap::Command, file: &Path) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut bytes)?;
    std::fs::write(file, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(shell: CompletionShell) -> String {
        let mut out = Vec::new();
        write_completions(shell, &mut out);
        String::from_utf8(out).expect("completion scripts are text")
    }

    #[test]
    fn completions_name_every_subcommand() {
        for shell in [
            CompletionShell::Bash,
            CompletionShell::Zsh,
            CompletionShell::Fish,
        ] {
            let text = script(shell);
            let cmd = crate::Cli::command();
            let subs: Vec<&str> = cmd
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| c.get_name())
                .collect();
            assert!(subs.len() >= 7, "{subs:?}");
            for sub in subs {
                assert!(text.contains(sub), "{shell:?} script lacks {sub}");
            }
            assert!(text.contains("ga-servers"), "{shell:?}");
        }
    }

    #[test]
    fn pages_are_written_for_the_command_and_its_subcommands() {
        let dir = std::env::temp_dir().join(format!("mpbridge-man-{}", std::process::id()));
        let pages = write_pages(&dir).unwrap();
        let names: Vec<String> = pages
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert!(names.contains(&"mpbridge.1".to_string()), "{names:?}");
        assert!(names.contains(&"mpbridge-run.1".to_string()), "{names:?}");
        let run = std::fs::read_to_string(dir.join("mpbridge-run.1")).unwrap();
        assert!(run.contains(".TH") && run.contains("ga\\-servers"), "{run}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
