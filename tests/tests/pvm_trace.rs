//! Message traces of a real PVM run: Debian's `master1` spawns three
//! `slave1` tasks with `MPBRIDGE_TRACE` set; every task writes its events,
//! `mpbridge trace` merges them into trace-event JSON (checked with
//! Python's `json`) and draws the space-time diagram.
//! How a process that never leaves ends its trace file (exit, SIGKILL).
//! And decision logs: `MPBRIDGE_LOG=core=debug` shows connections set up.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tests::mpirun::{lines_where, mpi_env, mpiexec_env, run_with_timeout, stage, Run};
use tests::native::build;

const LIMIT: Duration = Duration::from_secs(90);

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mpbridge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `mpiexec -n n /usr/bin/program` with our libraries and `env` on every
/// rank (spawned tasks included).
fn run_pvm(n: u32, program: &str, env: &[(&str, &str)]) -> Run {
    let exe = Path::new("/usr/bin").join(program);
    assert!(
        exe.is_file(),
        "{} missing: apt-get install pvm-examples",
        exe.display()
    );
    let mut cmd = Command::new("mpiexec");
    cmd.args(["-x", "LD_LIBRARY_PATH", "-x", "PATH"]);
    for (k, v) in env {
        cmd.arg("-x").arg(format!("{k}={v}"));
        cmd.env(k, v);
    }
    cmd.arg("-n").arg(n.to_string()).arg(&exe);
    cmd.env("LD_LIBRARY_PATH", stage().join("lib")).env(
        "PATH",
        format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default()),
    );
    mpi_env(&mut cmd);
    run_with_timeout(cmd, LIMIT)
}

fn count_lines(dir: &Path, kind: &str) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| tests::trace_text::lines(&e.path()))
        .map(|t| {
            t.lines()
                .filter(|l| l.split_whitespace().nth(1) == Some(kind))
                .count()
        })
        .sum()
}

/// Python's check of the merged JSON: it loads, every send slice belongs
/// to exactly one flow whose start is at the sender and whose end is at
/// exactly one receive slice of the receiver. Prints the number of sends.
const CHECK_JSON: &str = r#"
import json, sys, collections
doc = json.load(open(sys.argv[1]))
ev = doc["traceEvents"]
slices = [e for e in ev if e["ph"] == "X"]
sends = [e for e in slices if e["name"].startswith("send to")]
recvs = [e for e in slices if e["name"].startswith("recv from")]
starts = collections.defaultdict(list)
ends = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "s": starts[e["id"]].append(e)
    if e["ph"] == "f": ends[e["id"]].append(e)
recv_by_flow = collections.defaultdict(list)
for r in recvs:
    if "flow" in r["args"]: recv_by_flow[r["args"]["flow"]].append(r)
seen = set()
for s in sends:
    f = s["args"].get("flow")
    assert f is not None, ("send without a receive", s)
    assert f not in seen, ("two sends in one flow", f)
    seen.add(f)
    assert len(starts[f]) == 1 and starts[f][0]["pid"] == s["pid"], ("flow start", f)
    assert len(ends[f]) == 1, ("flow end", f)
    assert len(recv_by_flow[f]) == 1, ("receives of flow", f)
    r = recv_by_flow[f][0]
    assert ends[f][0]["pid"] == r["pid"] and r["ts"] >= s["ts"] - 1000, ("flow end place", f)
assert set(starts) == seen and set(ends) == seen
print(len(sends))
"#;

#[test]
fn a_traced_master_slave_run_merges_into_json_and_a_diagram() {
    let dir = scratch("trace");
    let d = dir.display().to_string();
    let r = run_pvm(1, "master1", &[("MPBRIDGE_TRACE", &d)]);
    r.assert_ok("master1 with MPBRIDGE_TRACE");
    r.assert_stdout_has("SUCCESSFUL");

    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the trace directory was made")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 4, "one file per task: {files:?}");
    let sends = count_lines(&dir, "send");
    assert!(
        sends >= 6,
        "master and slaves exchange messages: {sends} sends"
    );
    assert_eq!(count_lines(&dir, "spawn"), 1, "master1's pvm_spawn");
    assert_eq!(count_lines(&dir, "exit"), 4, "every task's pvm_exit");

    let json = dir.join("app.json");
    let svg = dir.join("app.svg");
    let mut merge = Command::new(stage().join("bin/mpbridge"));
    merge
        .arg("trace")
        .arg(&dir)
        .arg("-o")
        .arg(&json)
        .arg("--draw")
        .arg(&svg);
    let summary = tests::mpirun::stdout_of(&mut merge, "mpbridge trace");
    assert!(
        summary.contains("4 tasks,")
            && summary.contains(&format!("{sends} messages matched, 0 sends without")),
        "{summary}"
    );

    let mut check = Command::new("python3");
    check.arg("-c").arg(CHECK_JSON).arg(&json);
    let checked = tests::mpirun::stdout_of(&mut check, "python's check of the JSON");
    assert_eq!(checked.trim(), sends.to_string());

    let drawing = std::fs::read_to_string(&svg).expect("the SVG was written");
    assert_eq!(
        drawing.matches("class=\"lane\"").count(),
        4,
        "one lane per task"
    );
    assert_eq!(
        drawing.matches("class=\"message\"").count(),
        sends,
        "one arrow per message"
    );
    assert_eq!(drawing.matches("class=\"spawn\"").count(), 1);
    assert_eq!(drawing.matches("class=\"exit\"").count(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_the_variable_nothing_is_written() {
    let dir = scratch("untraced");
    let r = run_pvm(4, "spmd", &[]);
    r.assert_stdout_has("token ring done");
    assert!(!dir.exists());
    assert!(!r.stderr.contains("[rank "), "no log lines: {}", r.stderr);
}

#[test]
fn core_debug_logs_show_connections_being_set_up() {
    // master1 spawns its slaves: each gets an MPI link to the master,
    // whether or not the same-node channels are on.
    let r = run_pvm(1, "master1", &[("MPBRIDGE_LOG", "core=debug")]);
    r.assert_stdout_has("SUCCESSFUL");
    let set_up = lines_where(&r.stderr, |l| l.contains("connection set up"));
    assert!(!set_up.is_empty(), "no connection log:\n{}", r.stderr);
    assert!(
        r.stderr.contains("[rank 0 t40001]") && r.stderr.contains("[rank 2 t80003]"),
        "the master and the slaves log with their ids:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains("spawning"), "{}", r.stderr);
    // Every log line names its process first, then its target.
    for l in r.stderr.lines().filter(|l| l.contains(" core: ")) {
        assert!(l.starts_with("[rank "), "{l}");
    }
}

#[test]
fn pvm_debug_logs_show_spawn_decisions_and_clean_up() {
    // master1 spawns its slaves: the master logs where they start, each
    // slave that it was spawned, and every task that it leaves PVM; the
    // core's lines stay filtered out.
    let r = run_pvm(1, "master1", &[("MPBRIDGE_LOG", "pvm=debug")]);
    r.assert_stdout_has("SUCCESSFUL");
    let pvm: Vec<&str> = r.stderr.lines().filter(|l| l.contains(" pvm: ")).collect();
    let master_starts = pvm
        .iter()
        .filter(|l| l.starts_with("[rank 0 t40001]") && l.contains("pvm_spawn: starting new tasks"))
        .count();
    assert!(
        master_starts >= 1,
        "no spawn decision logged:\n{}",
        r.stderr
    );
    let spawned = pvm
        .iter()
        .filter(|l| l.contains("enrolled: spawned by pvm_spawn") && l.contains("parent=t40001"))
        .count();
    let leaving = pvm.iter().filter(|l| l.contains("leaving PVM")).count();
    assert!(spawned >= 1, "the slaves log their spawn:\n{}", r.stderr);
    assert_eq!(
        leaving,
        spawned + 1,
        "every task logs leaving:\n{}",
        r.stderr
    );
    r.assert_stderr_lacks(" core: ", "core lines are filtered out");
}

#[test]
fn per_layer_levels_filter_the_log() {
    let r = run_pvm(2, "spmd", &[("MPBRIDGE_LOG", "core=info,pvm=debug")]);
    r.assert_stdout_has("token ring done");
    r.assert_stderr_lacks("connection set up", "core debug lines are filtered out");
}

#[test]
fn settmask_selects_the_events_a_task_records() {
    let exe = build("pvm_tmask.c", &["pvm3"]);
    let dir = scratch("tmask");
    let d = dir.display().to_string();
    let r = mpiexec_env(2, &exe, &[], &[("MPBRIDGE_TRACE", &d)], LIMIT);
    r.assert_ok("pvm_tmask");
    assert_eq!(r.stdout.matches("PASS").count(), 2, "{}", r.stdout);
    let sender = tests::trace_text::lines(&dir.join("t40001.trace"));
    let sends: Vec<&str> = sender.lines().filter(|l| l.contains(" send ")).collect();
    assert_eq!(
        sends.len(),
        1,
        "only the send before the mask was cleared:\n{sender}"
    );
    assert!(sends[0].contains("tag=1"), "{sender}");
    let receiver = tests::trace_text::lines(&dir.join("t40002.trace"));
    assert_eq!(
        receiver.lines().filter(|l| l.contains(" recv ")).count(),
        2,
        "{receiver}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The events of `c_trace_ends MODE` (kinds and tags of its one file).
fn trace_of_an_ending(mode: &str) -> Vec<String> {
    let exe = build("c_trace_ends.c", &["mpbridge"]);
    let dir = scratch(&format!("trace-ends-{mode}"));
    let d = dir.display().to_string();
    let r = mpiexec_env(1, &exe, &[mode], &[("MPBRIDGE_TRACE", &d)], LIMIT);
    assert!(!r.timed_out, "{mode}: hung:\n{}", r.stderr);
    assert!(
        r.stdout.contains("ready to end"),
        "{mode}:\n{}\n{}",
        r.stdout,
        r.stderr
    );
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let events = tests::trace_text::lines(&files[0])
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let tag = w.iter().find(|f| f.starts_with("tag="));
            format!("{} {}", w[1], tag.copied().unwrap_or(""))
                .trim()
                .to_string()
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    events
}

#[test]
fn a_process_that_exits_without_leaving_writes_every_event() {
    assert_eq!(
        trace_of_an_ending("exit"),
        [
            "start",
            "send tag=1",
            "recv tag=1",
            "send tag=2",
            "recv tag=2",
            "send tag=3",
            "recv tag=3"
        ]
    );
}

#[test]
fn a_killed_process_leaves_its_events_up_to_the_last_write() {
    assert_eq!(
        trace_of_an_ending("kill"),
        ["start", "send tag=1", "recv tag=1", "send tag=2"]
    );
}
