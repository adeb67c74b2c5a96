//! The installed `mpbridge` comes with its manual pages and shell
//! completions, generated from its own command line: the pages describe
//! every subcommand and bash completes subcommand names and options.

use std::path::Path;
use std::process::Command;
use tests::mpirun::stage;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} is not installed: {e}", path.display()))
}

#[test]
fn manual_pages_are_installed_for_the_command_and_each_subcommand() {
    let man1 = stage().join("share/man/man1");
    let top = read(&man1.join("mpbridge.1"));
    assert!(top.contains(".TH mpbridge 1"), "{top}");
    for sub in [
        "run",
        "doctor",
        "ensemble",
        "trace",
        "recon",
        "completions",
        "man",
    ] {
        assert!(top.contains(sub), "mpbridge.1 does not mention {sub}");
        let page = read(&man1.join(format!("mpbridge-{sub}.1")));
        assert!(page.contains(".SH NAME"), "mpbridge-{sub}.1:\n{page}");
    }
    let run = read(&man1.join("mpbridge-run.1"));
    assert!(
        run.contains("ga\\-servers") && run.contains("hostfile"),
        "{run}"
    );
}

#[test]
fn man_prints_the_page_on_stdout() {
    let out = Command::new(stage().join("bin/mpbridge"))
        .arg("man")
        .output()
        .expect("run mpbridge man");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(".ie") || text.contains(".TH mpbridge 1"),
        "{text}"
    );
}

/// What bash's completion of `words` (the cursor on the last one) offers.
fn bash_complete(words: &[&str]) -> Vec<String> {
    let script = stage().join("share/bash-completion/completions/mpbridge");
    let line = words.join(" ");
    let program = format!(
        "source '{}'\n\
         COMP_WORDS=({line})\n\
         COMP_CWORD={}\n\
         COMP_LINE='{line}'\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         _mpbridge mpbridge '{}' '{}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let mut bash = Command::new("bash");
    bash.args(["--norc", "-c", &program]);
    tests::mpirun::stdout_of(&mut bash, "bash completion")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_subcommands_and_options() {
    let subs = bash_complete(&["mpbridge", "e"]);
    assert_eq!(subs, ["ensemble"], "{subs:?}");
    let opts = bash_complete(&["mpbridge", "run", "--ga"]);
    assert!(opts.contains(&"--ga-servers".to_string()), "{opts:?}");
    let actions = bash_complete(&["mpbridge", "ensemble", "ch"]);
    assert!(actions.contains(&"check".to_string()), "{actions:?}");
}

#[test]
fn zsh_and_fish_scripts_are_installed() {
    let zsh = read(&stage().join("share/zsh/site-functions/_mpbridge"));
    assert!(zsh.starts_with("#compdef mpbridge"), "{zsh}");
    assert!(zsh.contains("--ga-servers"));
    let fish = read(&stage().join("share/fish/vendor_completions.d/mpbridge.fish"));
    assert!(fish.contains("complete -c mpbridge"), "{fish}");
    assert!(fish.contains("ga-servers"));
}
