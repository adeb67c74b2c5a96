//! Helpers for tests on a real cluster on this machine (hosts made by
//! `scripts/cluster.sh up`): bringing one up and taking it down (also when
//! a check fails), the mpiexec options that reach its hosts, and a watch
//! that tells on which host each process of a job ran.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::mpirun::{mpi_env, run_with_timeout, workspace_root, Run};

/// Hard limit of every job run here.
pub const LIMIT: Duration = Duration::from_secs(60);
pub const HOSTS: usize = 3;

pub fn script() -> PathBuf {
    workspace_root().join("scripts/cluster.sh")
}

/// The cluster's state directory, as the script and `mpbridge run` see it.
pub fn cluster_dir() -> PathBuf {
    std::env::var_os("MPBRIDGE_CLUSTER_DIR")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/run/mpbridge-cluster"), PathBuf::from)
}

/// Takes the cluster down when dropped, so a failed check or a panic
/// still removes every host.
pub struct Cluster;

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut cmd = Command::new("bash");
        cmd.arg(script()).arg("down");
        let r = run_with_timeout(cmd, Duration::from_secs(60));
        if r.code != Some(0) {
            // Not a panic: this may run while a panic unwinds.
            let _ = writeln!(
                std::io::stderr(),
                "cluster down failed: {:?}\n{}{}",
                r.code,
                r.stdout,
                r.stderr
            );
        }
    }
}

/// Brings up `n` hosts (`extra`: more options of `cluster.sh up`, such as
/// `--speeds`); `None` (with the reason printed, naming `test`) where the
/// machine does not allow it.
pub fn cluster_up(test: &str, n: usize, extra: &[&str]) -> Option<Cluster> {
    let mut cmd = Command::new("bash");
    cmd.arg(script())
        .args(["up", "-n", &n.to_string()])
        .args(extra);
    // The guard exists before `up` runs, so a half-made cluster goes too.
    let guard = Cluster;
    let r = run_with_timeout(cmd, Duration::from_secs(60));
    if r.code == Some(3) {
        let reason = r.stderr.trim();
        // Written past the test harness's capture, so a skip is never silent.
        let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
        println!("SKIPPED {test}: {reason}");
        std::mem::forget(guard);
        return None;
    }
    r.assert_ok("cluster.sh up");
    Some(guard)
}

/// The options every mpiexec on the cluster needs (hostfile, rsh agent,
/// TCP over the bridge), as `cluster.sh up` wrote them.
pub fn cluster_args() -> Vec<String> {
    let file = cluster_dir().join("mpiexec-args");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    text.lines().map(str::to_string).collect()
}

/// `mpiexec` across the hosts, ranks placed round-robin over them.
/// `extra` options follow the cluster's and override them.
pub fn mpiexec_across(
    n: u32,
    prog: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    extra: &[&str],
) -> Run {
    let mut cmd = Command::new("mpiexec");
    cmd.args(cluster_args())
        .args(extra)
        .args(["--map-by", "node"]);
    for (k, v) in env {
        cmd.arg("-x").arg(format!("{k}={v}"));
    }
    cmd.arg("-n").arg(n.to_string()).arg(prog).args(args);
    mpi_env(&mut cmd);
    run_with_timeout(cmd, LIMIT)
}

/// What was seen of one process of the cluster while a job ran.
#[derive(Debug, Default, Clone)]
pub struct Seen {
    /// The host it ran on (`MPBRIDGE_CLUSTER_HOST`, set by the rsh agent).
    pub host: String,
    /// Pids of other processes whose same-node inbox (`/dev/shm/mpb-0-PID-...`)
    /// it mapped: the peers it talked to through shared memory.
    pub inboxes_of: BTreeSet<u32>,
}

/// Watches the processes named `comm` on the cluster's hosts until
/// stopped, every 20 ms, so a test can tell where they ran and which
/// shared-memory channels they opened.
pub struct Watch {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<BTreeMap<u32, Seen>>,
}

impl Watch {
    pub fn start(comm: &'static str) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut seen: BTreeMap<u32, Seen> = BTreeMap::new();
            while !flag.load(Ordering::Relaxed) {
                for pid in processes_named(comm) {
                    let Some(host) = cluster_host_of(pid) else {
                        continue;
                    };
                    let entry = seen.entry(pid).or_default();
                    entry.host = host;
                    let maps =
                        std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
                    for name in maps.split_whitespace() {
                        if let Some(owner) = name
                            .strip_prefix("/dev/shm/mpb-0-")
                            .and_then(|r| r.split('-').next())
                            .and_then(|p| p.parse::<u32>().ok())
                        {
                            if owner != pid {
                                entry.inboxes_of.insert(owner);
                            }
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            seen
        });
        Watch { stop, thread }
    }

    pub fn finish(self) -> BTreeMap<u32, Seen> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("watch thread")
    }
}

pub fn processes_named(comm: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim_end() == comm)
        })
        .collect()
}

/// The cluster host a process was started on, from its environment.
pub fn cluster_host_of(pid: u32) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    env.split(|b| *b == 0).find_map(|kv| {
        let kv = std::str::from_utf8(kv).ok()?;
        kv.strip_prefix("MPBRIDGE_CLUSTER_HOST=")
            .map(str::to_string)
    })
}

pub fn this_hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .to_string()
}
