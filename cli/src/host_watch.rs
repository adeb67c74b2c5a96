//! Host failure on the one-machine cluster, as `mpbridge run --cluster`
//! sees it. Open MPI notices a host whose daemon died (it ends the job and
//! names the host), but not a host that only dropped off the network: the
//! job then waits on it for ever. So the launcher watches the cluster's
//! hosts itself, several times a second: a host is down when its holder
//! process is gone or its network link lost its carrier.
//!
//! Each job gets a directory in the temporary directory, which every host
//! shares (`MPBRIDGE_JOB_DIR`): there its processes keep the files that
//! show they run (shim-core's `liveness`), and the launcher keeps the
//! down-hosts file. It goes when the job ends.
//!
//! When a host goes down the launcher says so, naming the host, and adds
//! its name to the down-hosts file (`MPBRIDGE_HOSTS_DOWN`, one name a
//! line), which PVM tasks read to answer `pvm_notify(PvmHostDelete)` and
//! the `PvmTaskExit` notifies of tasks that ran there. After a grace time
//! (for a PVM program, long enough for the tasks that were told to finish;
//! none for the other layers, which have no such model) it ends the job:
//! mpiexec gets SIGTERM, then SIGKILL if it lingers on the lost host.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The variable that names the down-hosts file (read by shim-pvm).
pub const DOWN_FILE_ENV: &str = "MPBRIDGE_HOSTS_DOWN";
/// How often the hosts are looked at.
const EVERY: Duration = Duration::from_millis(250);
/// How long mpiexec has to end after SIGTERM.
const TERM_WAIT: Duration = Duration::from_secs(5);

/// How a PVM job's tasks get to finish after a host went down, unless
/// `MPBRIDGE_HOST_DOWN_GRACE` (seconds) says otherwise.
pub const PVM_GRACE: Duration = Duration::from_secs(10);

/// One host of the cluster and what shows that it is up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Host {
    pub name: String,
    /// The pid of its holder process (`HOST.pid`).
    pub holder: Option<u32>,
    /// Its link's end in this machine's namespace (`HOST.link`).
    pub link: Option<String>,
}

/// The cluster's hosts, from its directory: the hostfile's names, each
/// with its `.pid` and `.link` files.
pub fn hosts(dir: &Path, hostfile: &str) -> Vec<Host> {
    hostfile
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|h| !h.starts_with('#'))
        .map(|h| {
            let read = |ext: &str| {
                std::fs::read_to_string(dir.join(format!("{h}.{ext}")))
                    .ok()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
            };
            Host {
                name: h.to_string(),
                holder: read("pid").and_then(|p| p.parse().ok()),
                link: read("link"),
            }
        })
        .collect()
}

/// Why `host` is down, or `None` while it is up. `cmdline` reads a
/// process's command line, `carrier` a link's carrier flag (both `None`
/// when there is no such process or link).
pub fn down_reason(
    host: &Host,
    cmdline: impl Fn(u32) -> Option<Vec<u8>>,
    carrier: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    if let Some(pid) = host.holder {
        let alive = cmdline(pid).is_some_and(|c| {
            let argv0 = c.split(|&b| b == 0).next().unwrap_or(&[]);
            argv0.ends_with(format!("-{}", host.name).as_bytes())
        });
        if !alive {
            return Some("its namespaces' holder process is gone".to_string());
        }
    }
    if let Some(link) = &host.link {
        match carrier(link).as_deref().map(str::trim) {
            Some("1") => {}
            Some(_) => return Some("its network link is down".to_string()),
            None => return Some("its network link is gone".to_string()),
        }
    }
    None
}

fn real_cmdline(pid: u32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/cmdline")).ok()
}

fn real_carrier(link: &str) -> Option<String> {
    // Reading `carrier` of a link that is down fails (EINVAL) on some
    // kernels: that is a link without carrier, not a missing one.
    let dir = Path::new("/sys/class/net").join(link);
    if !dir.is_dir() {
        return None;
    }
    Some(std::fs::read_to_string(dir.join("carrier")).unwrap_or_else(|_| "0".into()))
}

/// The variable that names the job's shared directory (read by
/// shim-core's `liveness`: each process keeps a locked file there, so the
/// death of a process on another host is seen).
pub const JOB_DIR_ENV: &str = "MPBRIDGE_JOB_DIR";

/// A fresh directory for one job (in the temporary directory, which every
/// host of the cluster shares), with an empty down-hosts file in it.
pub fn make_job_dir() -> std::io::Result<PathBuf> {
    for n in 0..100u32 {
        let d = std::env::temp_dir().join(format!("mpbridge-job-{}-{n}", std::process::id()));
        match std::fs::create_dir(&d) {
            Ok(()) => {
                std::fs::write(down_file(&d), "")?;
                return Ok(d);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free name for the job directory"))
}

/// The down-hosts file of job directory `dir`.
pub fn down_file(dir: &Path) -> PathBuf {
    dir.join("hosts-down")
}

/// The `-x` options that tell the job where its directory and its
/// down-hosts file are.
pub fn job_args(dir: &Path) -> Vec<OsString> {
    let mut down = OsString::from(DOWN_FILE_ENV);
    down.push("=");
    down.push(down_file(dir));
    let mut job = OsString::from(JOB_DIR_ENV);
    job.push("=");
    job.push(dir);
    vec![OsString::from("-x"), down, OsString::from("-x"), job]
}

/// Puts the job's `-x` options (see [`job_args`]) in front of mpiexec's
/// `args` and after every `:` of an MPMD line, so every program of the
/// job gets them.
pub fn with_job_args(dir: &Path, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mine = job_args(dir);
    let mut out = mine.clone();
    for a in args {
        let colon = a == ":";
        out.push(a);
        if colon {
            out.extend(mine.iter().cloned());
        }
    }
    out
}

/// The grace time after a host went down: `MPBRIDGE_HOST_DOWN_GRACE`
/// seconds if set, else [`PVM_GRACE`] for a PVM program and none for others.
pub fn grace(pvm: bool, setting: Option<&str>) -> Duration {
    match setting.and_then(|s| s.trim().parse::<f64>().ok()) {
        Some(s) if s >= 0.0 && s.is_finite() => Duration::from_secs_f64(s),
        _ if pvm => PVM_GRACE,
        _ => Duration::ZERO,
    }
}

/// Runs `command` (mpiexec) to its end while watching `hosts`; `who`
/// starts its messages, `job_dir` is the job's directory (see
/// [`make_job_dir`]), removed at the end. Returns mpiexec's exit status,
/// or 1 when a host went down and the job was ended (the message names
/// the host); and whether that happened.
pub fn run_watched(
    who: &str,
    mut command: Command,
    hosts: Vec<Host>,
    job_dir: &Path,
    grace: Duration,
) -> (u8, bool) {
    let down_file = &down_file(job_dir);
    crate::os::end_with_launcher(&mut command);
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{who}: cannot run mpiexec: {e}");
            let _ = std::fs::remove_dir_all(job_dir);
            let code = if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
            return (code, false);
        }
    };
    let mut down: Vec<String> = Vec::new();
    let mut end_at: Option<Instant> = None;
    let mut termed_at: Option<Instant> = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        for h in &hosts {
            if down.contains(&h.name) {
                continue;
            }
            if let Some(why) = down_reason(h, real_cmdline, real_carrier) {
                eprintln!("{who}: host {} is down ({why})", h.name);
                down.push(h.name.clone());
                let text: String = down.iter().map(|d| format!("{d}\n")).collect();
                let _ = std::fs::write(down_file, text);
                end_at.get_or_insert(Instant::now() + grace);
            }
        }
        let now = Instant::now();
        if termed_at.is_none() && end_at.is_some_and(|t| now >= t) {
            eprintln!(
                "{who}: ending the job: host {} is down",
                down.join(", host ")
            );
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            termed_at = Some(now);
        }
        if termed_at.is_some_and(|t| now >= t + TERM_WAIT) {
            let _ = child.kill();
        }
        std::thread::sleep(EVERY);
    };
    let _ = std::fs::remove_dir_all(job_dir);
    if !down.is_empty() && termed_at.is_some() {
        return (1, true);
    }
    let code = match status {
        Some(s) => s.code().map(|c| c as u8).unwrap_or_else(|| {
            128 + std::os::unix::process::ExitStatusExt::signal(&s).unwrap_or(0) as u8
        }),
        None => 1,
    };
    (code, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str) -> Host {
        Host {
            name: name.into(),
            holder: Some(42),
            link: Some("mpbv2".into()),
        }
    }

    #[test]
    fn hosts_come_from_the_hostfile_and_their_files() {
        let dir = std::env::temp_dir().join(format!("mpb-host-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("host1.pid"), "123\n").unwrap();
        std::fs::write(dir.join("host1.link"), "mpbv1\n").unwrap();
        let got = hosts(&dir, "host1 slots=2\nhost2 slots=2\n");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            got,
            [
                Host {
                    name: "host1".into(),
                    holder: Some(123),
                    link: Some("mpbv1".into())
                },
                Host {
                    name: "host2".into(),
                    holder: None,
                    link: None
                }
            ]
        );
    }

    #[test]
    fn a_host_is_down_without_its_holder_or_its_carrier() {
        let h = host("host2");
        let holder = |_: u32| Some(b"mpbridge-cluster-holder-host2\0".to_vec());
        let up = |_: &str| Some("1\n".to_string());
        assert_eq!(down_reason(&h, holder, up), None);
        let why = down_reason(&h, |_| None, up).unwrap();
        assert!(why.contains("holder"), "{why}");
        // A pid reused by another process is not the holder.
        let other = |_: u32| Some(b"sleep\0infinity\0".to_vec());
        assert!(down_reason(&h, other, up).is_some());
        let why = down_reason(&h, holder, |_| Some("0\n".into())).unwrap();
        assert!(why.contains("link is down"), "{why}");
        let why = down_reason(&h, holder, |_| None).unwrap();
        assert!(why.contains("gone"), "{why}");
    }

    #[test]
    fn grace_depends_on_the_program_and_the_setting() {
        assert_eq!(grace(true, None), PVM_GRACE);
        assert_eq!(grace(false, None), Duration::ZERO);
        assert_eq!(grace(false, Some("2.5")), Duration::from_millis(2500));
        assert_eq!(grace(true, Some("x")), PVM_GRACE);
        assert_eq!(grace(true, Some("-1")), PVM_GRACE);
    }

    #[test]
    fn every_program_of_the_job_is_told_where_its_files_are() {
        let dir = Path::new("/tmp/j");
        let args = with_job_args(
            dir,
            ["-n", "1", "a", ":", "-n", "2", "b"].map(OsString::from),
        );
        let x = [
            "-x",
            "MPBRIDGE_HOSTS_DOWN=/tmp/j/hosts-down",
            "-x",
            "MPBRIDGE_JOB_DIR=/tmp/j",
        ];
        let want: Vec<OsString> = x
            .iter()
            .chain(&["-n", "1", "a", ":"])
            .chain(&x)
            .chain(&["-n", "2", "b"])
            .map(OsString::from)
            .collect();
        assert_eq!(args, want);
    }

    #[test]
    fn a_job_directory_starts_with_an_empty_down_file() {
        let d = make_job_dir().unwrap();
        let text = std::fs::read_to_string(down_file(&d));
        let _ = std::fs::remove_dir_all(&d);
        assert_eq!(text.unwrap(), "");
    }
}
