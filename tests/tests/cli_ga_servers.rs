//! `mpbridge run --ga-servers`: the command it builds (one data server per
//! node) and a real run in which the server is not one of the compute ranks.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use tests::mpirun::{mpi_env, run_with_timeout, stage, workspace_root, Run};
use tests::native::build;

fn mpbridge() -> PathBuf {
    let exe = stage().join("bin/mpbridge");
    assert!(exe.is_file(), "{} is missing", exe.display());
    exe
}

fn run_mpbridge(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(mpbridge());
    cmd.arg("run").args(args);
    for var in ["SLURM_JOB_NUM_NODES", "SLURM_NNODES", "PBS_NODEFILE"] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    mpi_env(&mut cmd);
    run_with_timeout(cmd, Duration::from_secs(120))
}

/// The mpiexec command line printed by `--dry-run` (its last line).
fn dry_run(args: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let mut all = vec!["--dry-run"];
    all.extend_from_slice(args);
    let r = run_mpbridge(&all, env);
    r.assert_ok("mpbridge run --dry-run");
    let line = r.stdout.lines().last().unwrap_or("").to_string();
    line.split_whitespace().map(str::to_string).collect()
}

/// The words after the program: `: -n K SERVER`.
fn server_context(words: &[String], program: &str) -> Vec<String> {
    let at = words
        .iter()
        .position(|w| w == program)
        .unwrap_or_else(|| panic!("{program} not in {words:?}"));
    words[at + 1..].to_vec()
}

#[test]
fn one_node_gets_one_server_after_the_compute_ranks() {
    let words = dry_run(&["--ga-servers", "-n", "3", "/bin/true", "a", "b"], &[]);
    let n_at = words.iter().position(|w| w == "-n").expect("-n");
    assert_eq!(words[n_at + 1], "3", "{words:?}");
    assert_eq!(words[n_at + 2], "/bin/true", "{words:?}");
    let tail = server_context(&words, "/bin/true");
    assert_eq!(tail.len(), 6, "{words:?}");
    assert_eq!(&tail[..2], &["a", "b"]);
    assert_eq!(&tail[2..5], &[":", "-n", "1"]);
    assert!(tail[5].ends_with("ga-server"), "{words:?}");
    assert!(
        !words.iter().any(|w| w == "--map-by"),
        "one node keeps the default placement: {words:?}"
    );
    // The installed server, next to the installed mpbridge, when there is one.
    let installed = stage().join("bin/ga-server");
    if installed.is_file() {
        assert_eq!(PathBuf::from(&tail[5]), installed, "{words:?}");
    }
}

#[test]
fn a_hostfile_of_three_nodes_gets_three_servers() {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("target/test-programs");
    let hostfile = dir.join("cli_ga_servers.hosts");
    std::fs::write(
        &hostfile,
        "# three nodes\nn1 slots=2\nn2 slots=2\nn3 slots=2\nn1\n",
    )
    .expect("write hostfile");
    let hf = hostfile.to_string_lossy().into_owned();
    let words = dry_run(
        &["--ga-servers", "--hostfile", &hf, "-n", "4", "./app"],
        &[],
    );
    let joined = words.join(" ");
    assert!(
        joined.contains(&format!("--hostfile {hf} --map-by node -n 4 ./app : -n 3 ")),
        "{joined}"
    );
}

#[test]
fn a_slurm_allocation_of_two_nodes_gets_two_servers() {
    let words = dry_run(
        &["--ga-servers", "-n", "2", "./app"],
        &[("SLURM_JOB_NUM_NODES", "2")],
    );
    let joined = words.join(" ");
    assert!(
        joined.contains("--map-by node -n 2 ./app : -n 2 "),
        "{joined}"
    );
}

#[test]
fn an_unreadable_hostfile_is_reported() {
    let r = run_mpbridge(
        &[
            "--ga-servers",
            "--hostfile",
            "/nonexistent/hosts",
            "-n",
            "2",
            "./app",
        ],
        &[],
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--hostfile: cannot read '/nonexistent/hosts'"),
        "{}",
        r.stderr
    );
}

/// The test program, built once: tests run in parallel and must not
/// rewrite an executable another one is starting.
fn rank_count_program() -> &'static PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build("one_backend/ga_rank_count.c", &["ga", "tcgmsg"]))
}

fn ranks_without_the_server(n: u32) {
    let exe = rank_count_program();
    let exe_s = exe.to_string_lossy().into_owned();
    let n_s = n.to_string();
    let r = run_mpbridge(&["--ga-servers", "-n", &n_s, &exe_s, &n_s], &[]);
    assert!(!r.timed_out, "hung:\n{}\n{}", r.stdout, r.stderr);
    for rank in 0..n {
        let prefix = format!("ga_rank_count rank {rank} of {n} (world {}): ", n + 1);
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line:\n{}\n{}", r.stdout, r.stderr));
        assert!(line.ends_with(" 0 failed"), "{line}\n{}", r.stderr);
    }
    assert_eq!(
        r.stdout.matches("ga_rank_count rank ").count(),
        n as usize,
        "{}",
        r.stdout
    );
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
}

#[test]
fn the_server_is_not_a_compute_rank_with_two_ranks() {
    ranks_without_the_server(2);
}

#[test]
fn the_server_is_not_a_compute_rank_with_three_ranks() {
    ranks_without_the_server(3);
}
