//! `mpbridge run` on one machine keeps the job off the network: while a job
//! with a compute rank, a task it spawned through `pvm_spawn` and a
//! `ga-server` runs, every TCP socket its processes listen on is bound to
//! loopback. The job (`tests/programs/net_hold.c`) stays up until the test
//! creates its go file; waits poll with a deadline; the job has a hard
//! timeout.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tests::mpirun::{mpi_env, run_with_timeout, stage, workspace_root};

/// One listening socket: its address as `/proc/net/tcp*` shows it.
#[derive(Debug)]
struct Listener {
    inode: u64,
    /// Local address, hex as in the kernel table.
    addr: String,
    port: u16,
    v6: bool,
}

/// Every listening TCP socket of this network namespace.
fn listeners() -> Vec<Listener> {
    let mut out = Vec::new();
    for (file, v6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 10 || f[3] != "0A" {
                continue;
            }
            let Some((addr, port)) = f[1].split_once(':') else {
                continue;
            };
            out.push(Listener {
                inode: f[9].parse().unwrap_or(0),
                addr: addr.to_string(),
                port: u16::from_str_radix(port, 16).unwrap_or(0),
                v6,
            });
        }
    }
    out
}

/// Whether a kernel-table address is loopback: 127.0.0.0/8, ::1, or
/// 127.x mapped into IPv6. Each 32-bit word is in host (little-endian) order.
fn is_loopback(l: &Listener) -> bool {
    let a = l.addr.to_ascii_uppercase();
    if !l.v6 {
        return a.len() == 8 && a.ends_with("7F");
    }
    a == "00000000000000000000000001000000"
        || (a.len() == 32 && a.starts_with("0000000000000000FFFF0000") && a.ends_with("7F"))
}

/// `(pid, parent pid, command name)` of every process.
fn processes() -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = stat[open + 1..close].to_string();
        let ppid = stat[close + 1..]
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        out.push((pid, ppid, comm));
    }
    out
}

fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
        .unwrap_or_default()
}

/// Socket inodes a process holds.
fn socket_inodes(pid: u32) -> HashSet<u64> {
    let mut out = HashSet::new();
    let Ok(rd) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return out;
    };
    for e in rd.flatten() {
        if let Ok(target) = std::fs::read_link(e.path()) {
            let t = target.to_string_lossy().into_owned();
            if let Some(n) = t.strip_prefix("socket:[").and_then(|r| r.strip_suffix(']')) {
                if let Ok(n) = n.parse() {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// The job: `mpiexec` (whose command line names `go`) and everything it
/// started, with their command names.
fn job_processes(go: &str) -> HashMap<u32, String> {
    let all = processes();
    let roots: Vec<u32> = all
        .iter()
        .filter(|(pid, _, comm)| {
            (comm == "mpiexec" || comm == "orterun" || comm == "mpirun")
                && cmdline(*pid).contains(go)
        })
        .map(|(pid, _, _)| *pid)
        .collect();
    let mut job: HashMap<u32, String> = HashMap::new();
    for r in roots {
        job.insert(r, "mpiexec".into());
    }
    loop {
        let before = job.len();
        for (pid, ppid, comm) in &all {
            if job.contains_key(ppid) && !job.contains_key(pid) {
                job.insert(*pid, comm.clone());
            }
        }
        if job.len() == before {
            return job;
        }
    }
}

fn fresh_path(what: &str) -> PathBuf {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("target/test-programs");
    let p = dir.join(format!("{what}.{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn a_one_machine_run_listens_on_loopback_only() {
    let exe = tests::native::build("net_hold.c", &["pvm3"]);
    let mpbridge = stage().join("bin/mpbridge");
    assert!(
        mpbridge.is_file(),
        "{} is not installed",
        mpbridge.display()
    );
    let go = fresh_path("net-go");
    let go_text = go.to_string_lossy().into_owned();
    let up = PathBuf::from(format!("{go_text}.up"));
    let _ = std::fs::remove_file(&up);
    let job = {
        let (exe, go) = (exe.clone(), go.clone());
        std::thread::spawn(move || {
            let mut cmd = Command::new(&mpbridge);
            cmd.args(["run", "--ga-servers", "-n", "1"])
                .arg(&exe)
                .arg(&go);
            // Only what any shell has: mpbridge run chooses the transports.
            mpi_env(&mut cmd);
            run_with_timeout(cmd, Duration::from_secs(120))
        })
    };
    // The parent creates <go>.up once pvm_spawn returned: by then every
    // process of the job has initialised MPI.
    let deadline = Instant::now() + Duration::from_secs(90);
    while !up.exists() {
        if job.is_finished() || Instant::now() > deadline {
            let _ = std::fs::write(&go, b"go");
            let r = job.join().expect("job thread");
            panic!(
                "the job never spawned its child:\n{}\n{}",
                r.stdout, r.stderr
            );
        }
        std::thread::yield_now();
    }
    let procs = job_processes(&go_text);
    let by_inode: HashMap<u64, Listener> = listeners().into_iter().map(|l| (l.inode, l)).collect();
    let mut open = Vec::new();
    let mut listening = 0;
    for (pid, comm) in &procs {
        for inode in socket_inodes(*pid) {
            if let Some(l) = by_inode.get(&inode) {
                listening += 1;
                if !is_loopback(l) {
                    open.push(format!("{comm} (pid {pid}) on {} port {}", l.addr, l.port));
                }
            }
        }
    }
    std::fs::write(&go, b"go").expect("go file");
    let r = job.join().expect("job thread");
    let _ = std::fs::remove_file(&go);
    let _ = std::fs::remove_file(&up);
    r.assert_ok("mpbridge run --ga-servers -n 1 net_hold");
    assert!(r.stdout.contains("net_hold: spawned t"), "{}", r.stdout);
    let comms: Vec<&String> = procs.values().collect();
    let count = |name: &str| comms.iter().filter(|c| c.as_str() == name).count();
    assert_eq!(count("mpiexec"), 1, "job processes: {comms:?}");
    assert_eq!(count("net_hold"), 2, "parent and spawned child: {comms:?}");
    assert_eq!(count("ga-server"), 1, "job processes: {comms:?}");
    assert!(
        open.is_empty(),
        "listening beyond loopback ({listening} listeners in all):\n{}",
        open.join("\n")
    );
    // The sockets were found: mpiexec always listens (on loopback) for
    // its tools.
    assert!(listening > 0, "no listener found at all: {comms:?}");
}

#[test]
fn loopback_addresses_are_told_from_others() {
    let l = |addr: &str, v6: bool| Listener {
        inode: 0,
        addr: addr.into(),
        port: 1,
        v6,
    };
    assert!(is_loopback(&l("0100007F", false)));
    assert!(!is_loopback(&l("00000000", false)));
    assert!(!is_loopback(&l("020200C0", false)));
    assert!(is_loopback(&l("00000000000000000000000001000000", true)));
    assert!(!is_loopback(&l("00000000000000000000000000000000", true)));
    assert!(is_loopback(&l("0000000000000000FFFF00000100007F", true)));
}
