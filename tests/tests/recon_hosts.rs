//! `mpbridge recon`, the topology detector: on this machine alone, and on
//! a three-host cluster made by `scripts/cluster.sh up --speeds`, whose CPU
//! quotas the measured speeds must match within 10 %. The cluster's
//! cgroup gets a high CPU weight while it runs, so unrelated load on the
//! machine does not stand in for the quotas. Skipped, with the reason
//! printed, where the machine cannot have a cluster.

use std::io::Write;
use std::process::Command;
use std::time::Duration;
use tests::cluster::{cluster_dir, script, Cluster};
use tests::mpirun::{run_with_timeout, stage, workspace_root, Run};

/// One host line of a machine file: name, speed, scalability, slots.
fn hosts(text: &str) -> Vec<(String, f64, u32, u32)> {
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                ["host", name, "speed", s, "scalability", c, "slots", k] => Some((
                    name.to_string(),
                    s.parse().ok()?,
                    c.parse().ok()?,
                    k.parse().ok()?,
                )),
                _ => None,
            }
        })
        .collect()
}

fn recon(args: &[&str], limit: Duration) -> Run {
    let mut cmd = Command::new(stage().join("bin/mpbridge"));
    cmd.arg("recon").args(args);
    run_with_timeout(cmd, limit)
}

#[test]
fn this_machine_alone() {
    let r = recon(&["--seconds", "0.5", "--no-links"], Duration::from_secs(60));
    r.assert_ok("mpbridge recon");
    let h = hosts(&r.stdout);
    let me = std::fs::read_to_string("/proc/sys/kernel/hostname").expect("hostname");
    assert_eq!(h.len(), 1, "{}", r.stdout);
    assert_eq!(h[0].0, me.trim());
    assert_eq!(h[0].1, 1.0, "the only host is the slowest: {}", r.stdout);
    assert!(
        r.stdout.contains("# host NAME speed S"),
        "undocumented file:\n{}",
        r.stdout
    );
    let bad = recon(&["--seconds", "0"], Duration::from_secs(10));
    assert_eq!(bad.code, Some(2), "{}", bad.stderr);
}

/// Gives the cluster's parent cgroup the highest CPU weight, so the
/// hosts get their quotas even when the machine is busy.
fn favour_cluster() {
    for (file, value) in [
        ("/sys/fs/cgroup/cpu/mpbridge-cluster/cpu.shares", "262144"),
        (
            "/sys/fs/cgroup/cpu,cpuacct/mpbridge-cluster/cpu.shares",
            "262144",
        ),
        ("/sys/fs/cgroup/mpbridge-cluster/cpu.weight", "10000"),
    ] {
        if std::path::Path::new(file).exists() {
            std::fs::write(file, value).unwrap_or_else(|e| panic!("{file}: {e}"));
            return;
        }
    }
    panic!("the cluster has no CPU cgroup");
}

#[test]
fn cluster_speeds_match_the_quotas() {
    let mut cmd = Command::new("bash");
    cmd.arg(script())
        .args(["up", "-n", "3", "--speeds", "1150,331,1662"]);
    let guard = Cluster;
    let r = run_with_timeout(cmd, Duration::from_secs(60));
    if r.code == Some(3) {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED recon_hosts: {}",
            r.stderr.trim()
        );
        println!("SKIPPED recon_hosts: {}", r.stderr.trim());
        std::mem::forget(guard);
        return;
    }
    r.assert_ok("cluster.sh up --speeds");
    favour_cluster();
    // The quota each host got: "<speed> <quota>/<period>".
    let quota = |h: &str| -> f64 {
        let t =
            std::fs::read_to_string(cluster_dir().join(format!("{h}.speed"))).expect("speed file");
        let q = t.split_whitespace().nth(1).expect("quota");
        let (a, b) = q.split_once('/').expect("quota/period");
        a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap()
    };
    let out = workspace_root().join("target/test-programs/recon-cluster.vpm");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let slowest = ["host1", "host2", "host3"]
        .iter()
        .map(|n| quota(n))
        .fold(f64::INFINITY, f64::min);
    // A measurement on a busy machine may miss: up to three tries, the
    // last one checked in full.
    let mut tries = 0;
    let (r, text, h) = loop {
        tries += 1;
        let r = recon(
            &["--cluster", "--seconds", "2", "-o", out.to_str().unwrap()],
            Duration::from_secs(300),
        );
        r.assert_ok("mpbridge recon --cluster");
        let text = std::fs::read_to_string(&out).expect("machine file");
        let h = hosts(&text);
        let close = h
            .iter()
            .all(|(name, speed, _, _)| (speed / (quota(name) / slowest) - 1.0).abs() <= 0.10);
        if close || tries == 3 {
            break (r, text, h);
        }
    };
    assert_eq!(h.len(), 3, "{text}");
    for (name, speed, scal, slots) in &h {
        let want = quota(name) / slowest;
        assert!(
            (speed / want - 1.0).abs() <= 0.10,
            "{name}: measured {speed}, quota says {want}\n{text}\n{}",
            r.stderr
        );
        // At most one CPU's quota each: two copies do not run faster.
        assert_eq!(*scal, 1, "{name}\n{text}\n{}", r.stderr);
        assert_eq!(*slots, 2, "{name}: slots from the hostfile");
    }
    assert!(h.iter().any(|x| x.1 == 1.0), "no host of speed 1:\n{text}");
    let links: Vec<&str> = text.lines().filter(|l| l.starts_with("link ")).collect();
    assert_eq!(links.len(), 3, "{text}");
    for l in links {
        let w: Vec<&str> = l.split_whitespace().collect();
        let lat: f64 = w[4].parse().unwrap();
        let bw: f64 = w[6].parse().unwrap();
        assert!(lat > 0.0 && lat < 0.05 && bw > 1e6, "{l}");
    }
    drop(guard);
}
