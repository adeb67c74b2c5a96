//! Running programs under `mpiexec` with a hard timeout, so a hang fails the
//! test quickly instead of blocking the suite.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a finished run printed.
#[derive(Debug)]
pub struct Run {
    /// Exit code (`None` if killed by a signal or by the timeout).
    pub code: Option<i32>,
    /// Whether the run was killed because it exceeded its timeout.
    pub timed_out: bool,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time.
    pub elapsed: Duration,
}

impl Run {
    /// Panics with everything the run printed unless it exited with 0.
    pub fn assert_ok(&self, what: &str) -> &Self {
        assert!(
            self.code == Some(0) && !self.timed_out,
            "{}",
            self.report(what)
        );
        self
    }

    /// Everything the run printed, headed by `what`, its exit and whether
    /// it timed out: the message of a failed check.
    pub fn report(&self, what: &str) -> String {
        format!(
            "{what}: exit {:?}, timed out {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.timed_out, self.stdout, self.stderr
        )
    }

    /// Panics with everything the run printed unless its standard output
    /// contains `text`.
    pub fn assert_stdout_has(&self, text: &str) -> &Self {
        assert!(
            self.stdout.contains(text),
            "{}",
            self.report(&format!("no {text:?} on stdout"))
        );
        self
    }

    /// The first line of standard output that starts with `prefix`; panics
    /// with everything the run printed, headed by `what`, when none does.
    pub fn stdout_line(&self, prefix: &str, what: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{}", self.report(&format!("{what}: no {prefix:?} line"))))
    }

    /// Panics with the standard error unless it contains `text`.
    pub fn assert_stderr_has(&self, text: &str) -> &Self {
        assert!(
            self.stderr.contains(text),
            "no {text:?} in:\n{}",
            self.stderr
        );
        self
    }

    /// Panics with `why` and everything the run printed if its standard
    /// output contains `text`.
    pub fn assert_stdout_lacks(&self, text: &str, why: &str) -> &Self {
        assert!(!self.stdout.contains(text), "{}", self.report(why));
        self
    }

    /// Panics with `why` and the standard error if it contains `text`.
    pub fn assert_stderr_lacks(&self, text: &str, why: &str) -> &Self {
        assert!(!self.stderr.contains(text), "{why}:\n{}", self.stderr);
        self
    }

    /// The standard-error lines that process `rank` logged for `target`
    /// (`MPBRIDGE_LOG` starts each with `[rank N t...]` and names the
    /// target as ` target: `).
    pub fn log_lines(&self, rank: u32, target: &str) -> Vec<&str> {
        let who = format!("[rank {rank} t");
        let target = format!(" {target}: ");
        lines_where(&self.stderr, |l| l.starts_with(&who) && l.contains(&target))
    }
}

/// Whether one of `lines` holds every one of `parts`.
pub fn one_line_has(lines: &[&str], parts: &[&str]) -> bool {
    lines.iter().any(|l| parts.iter().all(|p| l.contains(p)))
}

/// The environment every run gets: Open MPI as root and with more ranks
/// than cores.
pub fn mpi_env(cmd: &mut Command) {
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
}

/// One MPI job at a time per test binary: jobs running side by side on a
/// small machine would distort each other's timing and oversubscribe it.
static ONE_JOB: Mutex<()> = Mutex::new(());

/// The output a reader thread collected. After a timeout a process that
/// left the killed group (an MPI rank its launcher started) may still hold
/// the pipe open: then the test does not wait for it.
fn collected(rx: &std::sync::mpsc::Receiver<String>, timed_out: bool) -> String {
    if timed_out {
        rx.recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| {
            "<output not collected: a leftover process holds the pipe open>".to_string()
        })
    } else {
        rx.recv().unwrap_or_default()
    }
}

/// Runs `cmd` to completion or kills its whole process group after `timeout`.
pub fn run_with_timeout(mut cmd: Command, timeout: Duration) -> Run {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let pgid = child.id();
    // Read output on threads so a chatty program cannot block on a full pipe.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let (out_tx, out_rx) = std::sync::mpsc::channel();
    let (err_tx, err_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        let _ = out_tx.send(s);
    });
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        let _ = err_tx.send(s);
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break Some(st);
        }
        if start.elapsed() > timeout {
            timed_out = true;
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(format!("-{pgid}"))
                .status();
            let _ = child.kill();
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: if timed_out {
            None
        } else {
            status.and_then(|s| s.code())
        },
        timed_out,
        stdout: collected(&out_rx, timed_out),
        stderr: collected(&err_rx, timed_out),
        elapsed: start.elapsed(),
    }
}

/// `mpiexec -n N prog args...` with a hard timeout.
pub fn mpiexec(n: u32, prog: &Path, args: &[&str], timeout: Duration) -> Run {
    mpiexec_env(n, prog, args, &[], timeout)
}

/// Environment variables for every rank of a job: `(NAME, value)` pairs.
pub type Env<'a> = [(&'a str, &'a str)];

/// [`mpiexec`] with environment variables `NAME=value` set on every rank.
pub fn mpiexec_env(n: u32, prog: &Path, args: &[&str], env: &Env<'_>, timeout: Duration) -> Run {
    run_with_timeout(mpiexec_command(n, prog, args, env), timeout)
}

/// `mpiexec -x NAME=value... -n N prog args...`, ready to run or extend.
fn mpiexec_command(n: u32, prog: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new("mpiexec");
    for (k, v) in env {
        cmd.arg("-x").arg(format!("{k}={v}"));
    }
    cmd.arg("-n").arg(n.to_string()).arg(prog).args(args);
    mpi_env(&mut cmd);
    cmd
}

/// One process of `prog` under `mpiexec` reading `input` on its standard
/// input, with `path_first` at the head of `PATH` (where PVM looks for the
/// programs it spawns) and `exports` set; both reach every rank, spawned
/// ones too. Hard timeout.
pub fn mpiexec_one_reading(
    prog: &Path,
    input: &str,
    path_first: &Path,
    exports: &[(&str, &Path)],
    timeout: Duration,
) -> Run {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("create target/test-programs");
    let stem = prog.file_name().expect("program name").to_string_lossy();
    let file = dir.join(format!("{stem}.input"));
    std::fs::write(&file, input).expect("write the program's input");
    let path = std::env::var("PATH").unwrap_or_default();
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "PATH"])
        .env("PATH", format!("{}:{path}", path_first.display()));
    for (name, value) in exports {
        cmd.arg("-x").arg(name).env(name, value);
    }
    cmd.args(["-n", "1"])
        .arg(prog)
        .stdin(std::fs::File::open(&file).expect("open the program's input"));
    mpi_env(&mut cmd);
    run_with_timeout(cmd, timeout)
}

/// The installed GA data server (`bin/ga-server` of [`stage`]).
pub fn ga_server() -> PathBuf {
    let server = stage().join("bin/ga-server");
    assert!(server.is_file(), "{} is not installed", server.display());
    server
}

/// `mpiexec -n N prog args... : -n 1 server`: `n` compute ranks beside one
/// data server, with `NAME=value` on every rank and a hard timeout.
pub fn mpiexec_beside_server(
    server: &Path,
    n: u32,
    prog: &Path,
    args: &[&str],
    env: &Env<'_>,
    timeout: Duration,
) -> Run {
    let mut cmd = mpiexec_command(n, prog, args, env);
    cmd.args([":", "-n", "1"]).arg(server);
    run_with_timeout(cmd, timeout)
}

/// Runs `cmd` to its end and returns what it printed; panics naming
/// `what`, with its output, when it cannot start or fails.
pub fn output_ok(cmd: &mut Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `cmd` to its end and returns its standard output; panics as
/// [`output_ok`] does.
pub fn stdout_of(cmd: &mut Command, what: &str) -> String {
    String::from_utf8_lossy(&output_ok(cmd, what).stdout).into_owned()
}

/// The lines of `text` that `keep` accepts, in order.
pub fn lines_where(text: &str, keep: impl Fn(&str) -> bool) -> Vec<&str> {
    text.lines().filter(|l| keep(l)).collect()
}

/// The cargo example `name` of this workspace, built beside the running
/// test binary (`target/<profile>/examples/<name>`); panics if it is not.
pub fn cargo_example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary");
    let profile_dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let example = profile_dir.join("examples").join(name);
    assert!(
        example.is_file(),
        "{} not built (cargo build --release --examples)",
        example.display()
    );
    example
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The installed tree the tests use: `$MPBRIDGE_STAGE`, else
/// `target/stage` (made by `make stage`, which `make test` runs first).
pub fn stage() -> PathBuf {
    let p = std::env::var_os("MPBRIDGE_STAGE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/stage"));
    assert!(
        p.join("lib/libmpbridge.so").is_file(),
        "no installed tree at {} (run `make test`, or `make stage` before `cargo test`)",
        p.display()
    );
    p
}
