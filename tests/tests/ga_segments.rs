//! The `ga-server`'s shared-memory segments in `/dev/shm`: a server ended
//! by a signal during array creation leaves nothing behind (SIGTERM at once,
//! SIGKILL by the next job's start-up), and another user's files there,
//! even with names like ours, neither stop a job nor get removed by it.
//! Each job runs `tests/programs/ga/ga_hold.c` on 2 compute ranks beside one
//! `ga-server`, with a hard timeout; waits poll with a deadline.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tests::mpirun::{ga_server, mpiexec_beside_server, stage, workspace_root, Run};

const SHM: &str = "/dev/shm";

/// The tests here watch `/dev/shm` for their job's segment: one at a time.
static ONE_TEST: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_test() -> std::sync::MutexGuard<'static, ()> {
    ONE_TEST.lock().unwrap_or_else(|e| e.into_inner())
}

fn ga_hold() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| tests::native::build("ga/ga_hold.c", &["ga"]))
        .clone()
}

/// `mpiexec -n 2 ga_hold GO : -n 1 ga-server`.
fn run_hold(go: &Path) -> Run {
    let go = go.to_str().expect("UTF-8 path");
    mpiexec_beside_server(
        &ga_server(),
        2,
        &ga_hold(),
        &[go],
        &[],
        Duration::from_secs(120),
    )
}

/// A file path of this test's own that does not exist yet.
fn fresh_path(what: &str) -> PathBuf {
    let dir = workspace_root().join("target/test-programs");
    std::fs::create_dir_all(&dir).expect("target/test-programs");
    let p = dir.join(format!("{what}.{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn my_uid() -> u32 {
    std::fs::metadata("/proc/self").expect("/proc/self").uid()
}

fn shm_names() -> HashSet<String> {
    std::fs::read_dir(SHM)
        .expect("/dev/shm")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Polls until `f` holds; panics with `what` after `limit`.
fn wait_for<T>(what: &str, limit: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::yield_now();
    }
}

/// Starts a held job on a thread, waits until its server made the array's
/// segment, and returns the segment's name, the server's pid, the go file
/// and the job's thread.
fn start_held_job(tag: &str) -> (String, i32, PathBuf, std::thread::JoinHandle<Run>) {
    let exe = ga_hold();
    assert!(exe.is_file());
    let go = fresh_path(tag);
    let before = shm_names();
    let prefix = format!("mpbga-u{}-", my_uid());
    let server = std::fs::canonicalize(stage().join("bin/ga-server")).expect("ga-server");
    let job = {
        let go = go.clone();
        std::thread::spawn(move || run_hold(&go))
    };
    let (seg, pid) = wait_for(
        "the held job's array segment",
        Duration::from_secs(60),
        || {
            shm_names().into_iter().find_map(|n| {
                if before.contains(&n) || !n.starts_with(&prefix) || !n.contains("-a") {
                    return None;
                }
                let pid: i32 = n[prefix.len()..].split('-').next()?.parse().ok()?;
                let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
                (exe == server).then_some((n, pid))
            })
        },
    );
    (seg, pid, go, job)
}

#[test]
fn a_server_killed_during_array_creation_leaves_no_segment_for_the_next_job() {
    let _one = one_test();
    let (seg, pid, go, job) = start_held_job("hold-kill");
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let r = job.join().expect("job thread");
    assert!(
        !r.timed_out,
        "the job hung after its server died\n{}",
        r.stderr
    );
    assert_ne!(r.code, Some(0), "the job went on without its server");
    // SIGKILL cannot be caught: the segment is still there until a server
    // starts (another job's server on this machine may come first).
    let left = Path::new(SHM).join(&seg).exists();
    std::fs::write(&go, b"go").expect("go file");
    let next = run_hold(&go);
    let _ = std::fs::remove_file(&go);
    next.assert_ok("the next job");
    assert!(next.stdout.contains("ga_hold: made"), "{}", next.stdout);
    assert!(
        !Path::new(SHM).join(&seg).exists(),
        "{seg} of the killed server survived the next job"
    );
    assert!(
        !left || next.stderr.contains(&seg),
        "the next server did not say it removed {seg}:\n{}",
        next.stderr
    );
}

#[test]
fn a_server_terminated_during_array_creation_removes_its_segment() {
    let _one = one_test();
    for sig in ["TERM", "HUP"] {
        let (seg, pid, go, job) = start_held_job(&format!("hold-{sig}"));
        let sent = Command::new("kill")
            .args([&format!("-{sig}"), &pid.to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
        wait_for(
            &format!("{seg} to go after SIG{sig}"),
            Duration::from_secs(30),
            || (!Path::new(SHM).join(&seg).exists()).then_some(()),
        );
        let r = job.join().expect("job thread");
        let _ = std::fs::remove_file(&go);
        assert!(!r.timed_out, "SIG{sig}: the job hung\n{}", r.stderr);
        assert_ne!(
            r.code,
            Some(0),
            "SIG{sig}: the job went on without its server"
        );
    }
}

/// Creates `/dev/shm/name` with `body`, owned by `uid`.
fn plant(name: &str, body: &[u8], uid: u32) -> PathBuf {
    let p = Path::new(SHM).join(name);
    std::fs::write(&p, body).expect("plant a file in /dev/shm");
    std::os::unix::fs::chown(&p, Some(uid), Some(uid)).expect("chown");
    p
}

#[test]
fn other_users_files_neither_stop_a_job_nor_are_removed() {
    let _one = one_test();
    let me = my_uid();
    assert_eq!(
        me, 0,
        "this test plants files owned by another user (nobody) and needs root"
    );
    let nobody = 65534;
    // Names of our form from a process that is not running any more: this
    // test's own pid with another start time stands for a reused pid.
    let dead = std::process::id();
    let tag = format!("{:016x}", u64::from(dead) * 0x9e37_79b9);
    let theirs_our_name = format!("mpbga-u{me}-{dead}-1-{tag}-ctl");
    let theirs = format!("mpbga-u{nobody}-{dead}-1-{tag}-a1");
    let old_form = format!("mpbga-{dead}-a1");
    let stale_mine = format!("mpbga-u{me}-{dead}-1-{tag}-a2");
    let planted = [
        plant(&theirs_our_name, b"not yours", nobody),
        plant(&theirs, b"not yours either", nobody),
        plant(&old_form, b"not ours", nobody),
    ];
    let stale = plant(&stale_mine, b"left by a dead server", me);
    let go = fresh_path("hold-others");
    std::fs::write(&go, b"go").expect("go file");
    let r = run_hold(&go);
    let _ = std::fs::remove_file(&go);
    let survived: Vec<bool> = planted.iter().map(|p| p.exists()).collect();
    let bodies: Vec<Vec<u8>> = planted
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_default())
        .collect();
    let stale_left = stale.exists();
    for p in planted.iter().chain([&stale]) {
        let _ = std::fs::remove_file(p);
    }
    r.assert_ok("a job beside other users' files");
    assert!(r.stdout.contains("ga_hold: made"), "{}", r.stdout);
    assert_eq!(survived, [true; 3], "another user's file was removed");
    assert_eq!(
        bodies,
        [
            b"not yours".to_vec(),
            b"not yours either".to_vec(),
            b"not ours".to_vec()
        ]
    );
    assert!(!stale_left, "this user's stale segment was kept");
}
