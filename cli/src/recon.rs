//! `mpbridge recon`: the topology detector. On every host of a hostfile,
//! of the one-machine cluster (`--cluster`), or on this machine alone, it
//! runs the same benchmark kernel once alone and then as several copies
//! together (speed, and scalability: how many processes run there at full
//! speed), times a TCP ping-pong between every pair of hosts (latency and
//! bandwidth), and writes the virtual parallel machine file the mpC-style
//! run-time reads (`MPBRIDGE_VPM`): documented text, speeds normalised so
//! the slowest host is 1.

mod probe;

use crate::cluster_run;
use crate::host;
use mpc_map::vpm::{Host, LinkCost};
use mpc_map::Machine;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const USAGE: &str = "\
Usage: mpbridge recon [--cluster | --hostfile FILE] [OPTIONS]

Measure the hosts for mapping and write a virtual parallel machine file:
the speed of one process alone on each host (the slowest host is 1), how
many processes run there together at full speed, and latency and
bandwidth between hosts. Without --cluster or --hostfile, this machine.

Options:
  --cluster          the hosts of the one-machine cluster (scripts/cluster.sh up)
  --hostfile FILE    the hosts of an Open MPI hostfile (started through mpiexec)
  -o, --output FILE  write the file there (default: standard output)
  --seconds S        seconds the kernel runs alone on each host (default 3)
  --copies K         copies run together on each host (default: the host's
                     slots, at least 2)
  --no-links         do not measure the links
  --mpiexec PATH     use this mpiexec instead of the one on PATH
  -h, --help         show this help

Use the file with MPBRIDGE_VPM=FILE for programs on mpc.h.
";

#[derive(Debug, Default)]
struct Options {
    cluster: bool,
    hostfile: Option<OsString>,
    output: Option<PathBuf>,
    seconds: f64,
    copies: Option<u32>,
    links: bool,
    mpiexec: Option<OsString>,
}

/// Hard limit of one probe job.
const JOB_LIMIT: Duration = Duration::from_secs(120);

/// The entry of `mpbridge recon`; returns the exit status.
pub fn run(args: &[OsString]) -> u8 {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // The probes, started on the hosts by the measuring side.
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["--kernel", s] => {
            let secs = s.parse::<f64>().unwrap_or(1.0).clamp(0.01, 600.0);
            println!("{}", probe::kernel_line(secs));
            return 0;
        }
        ["--serve", port] => {
            return report(
                port.parse()
                    .map_err(|_| "bad port".into())
                    .and_then(probe::serve),
            )
        }
        ["--ping", host, port] => {
            let r = port
                .parse()
                .map_err(|_| "bad port".to_string())
                .and_then(|p| probe::ping(host, p))
                .map(|line| println!("{line}"));
            return report(r);
        }
        _ => {}
    }
    let opts = match parse(&words) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("mpbridge recon: {e}\nTry 'mpbridge recon --help'.");
            return 2;
        }
    };
    match measure(&opts) {
        Ok(m) => write(&opts, &m),
        Err(e) => {
            eprintln!("mpbridge recon: {e}");
            1
        }
    }
}

fn report(r: Result<(), String>) -> u8 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mpbridge recon probe: {e}");
            1
        }
    }
}

fn parse(words: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        seconds: 3.0,
        links: true,
        ..Options::default()
    };
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or(format!("{what} needs a value"));
        match w.as_str() {
            "-h" | "--help" => return Ok(None),
            "--cluster" => o.cluster = true,
            "--hostfile" => o.hostfile = Some(value("--hostfile")?.into()),
            "-o" | "--output" => o.output = Some(value("--output")?.into()),
            "--seconds" => {
                let v = value("--seconds")?;
                o.seconds = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.1..=600.0).contains(s))
                    .ok_or(format!("--seconds wants 0.1 to 600, not '{v}'"))?;
            }
            "--copies" => {
                let v = value("--copies")?;
                o.copies = Some(
                    v.parse::<u32>()
                        .ok()
                        .filter(|k| (2..=256).contains(k))
                        .ok_or(format!("--copies wants 2 to 256, not '{v}'"))?,
                );
            }
            "--no-links" => o.links = false,
            "--mpiexec" => o.mpiexec = Some(value("--mpiexec")?.into()),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    if o.cluster && o.hostfile.is_some() {
        return Err("--cluster brings its own hostfile; drop --hostfile".into());
    }
    Ok(Some(o))
}

/// Hosts and slots of an Open MPI hostfile (`host slots=N`; 1 slot when
/// not given).
fn hostfile_slots(text: &str) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let mut w = line.split_whitespace();
        let Some(name) = w.next() else { continue };
        let slots = w
            .find_map(|kv| kv.strip_prefix("slots="))
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        match out.iter_mut().find(|(h, _)| h == name) {
            Some(e) => e.1 += slots,
            None => out.push((name.to_string(), slots)),
        }
    }
    out
}

/// How the probes are started: directly here, or by mpiexec on a host.
enum Launch {
    Local,
    Mpiexec { exe: PathBuf, base: Vec<OsString> },
}

impl Launch {
    fn command(&self, parts: &[(String, u32, Vec<String>)]) -> Command {
        match self {
            Launch::Local => unreachable!("local probes are started one by one"),
            Launch::Mpiexec { exe, base } => {
                let mut c = Command::new(exe);
                c.args(base).args(["--bind-to", "none"]);
                for (i, (host, n, args)) in parts.iter().enumerate() {
                    if i > 0 {
                        c.arg(":");
                    }
                    c.arg("--host").arg(format!("{host}:{n}"));
                    c.arg("-n")
                        .arg(n.to_string())
                        .arg(self_exe())
                        .arg("recon")
                        .args(args);
                }
                if host::is_root() {
                    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
                        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
                }
                c
            }
        }
    }
}

fn self_exe() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mpbridge"))
}

/// Runs `c` to its end within [`JOB_LIMIT`]; returns its standard output.
fn output_of(mut c: Command) -> Result<String, String> {
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let what = format!("{c:?}");
    let mut child = c.spawn().map_err(|e| format!("cannot start {what}: {e}"))?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > JOB_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{what} did not end within {} s",
                JOB_LIMIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Kernel rates reported in `text`, for `host`.
fn rates(text: &str) -> Vec<(String, f64)> {
    text.lines().filter_map(probe::parse_kernel_line).collect()
}

/// Runs `k` kernels together on `host`; returns their rates.
fn run_kernels(launch: &Launch, host: &str, k: u32, secs: f64) -> Result<Vec<f64>, String> {
    let arg = vec!["--kernel".to_string(), format!("{secs}")];
    let text = match launch {
        Launch::Local => {
            let kids: Vec<_> = (0..k)
                .map(|_| {
                    Command::new(self_exe())
                        .arg("recon")
                        .args(&arg)
                        .stdout(Stdio::piped())
                        .spawn()
                        .map_err(|e| format!("cannot start the kernel: {e}"))
                })
                .collect::<Result<_, _>>()?;
            let mut all = String::new();
            for kid in kids {
                let out = kid.wait_with_output().map_err(|e| e.to_string())?;
                all.push_str(&String::from_utf8_lossy(&out.stdout));
            }
            all
        }
        l => output_of(l.command(&[(host.to_string(), k, arg)]))?,
    };
    let got: Vec<f64> = rates(&text).into_iter().map(|(_, r)| r).collect();
    if got.len() != k as usize {
        return Err(format!(
            "{host}: {k} kernels ran, {} reported:\n{text}",
            got.len()
        ));
    }
    Ok(got)
}

fn measure(o: &Options) -> Result<Machine, String> {
    let (launch, hosts) = if o.cluster || o.hostfile.is_some() {
        let mut base = Vec::new();
        let hostfile = if o.cluster {
            let l = cluster_run::load(&cluster_run::cluster_dir(std::env::var_os(
                cluster_run::DIR_ENV,
            )))?;
            base.extend(l.mpiexec_args);
            l.hostfile
        } else {
            o.hostfile.clone().expect("checked")
        };
        let text = std::fs::read_to_string(&hostfile)
            .map_err(|e| format!("{}: {e}", hostfile.to_string_lossy()))?;
        let hosts = hostfile_slots(&text);
        if hosts.is_empty() {
            return Err(format!("{} names no host", hostfile.to_string_lossy()));
        }
        base.splice(0..0, [OsString::from("--hostfile"), hostfile]);
        let requested = o.mpiexec.clone().unwrap_or_else(|| "mpiexec".into());
        let exe = host::find_program(OsStr::new(&requested)).ok_or(format!(
            "no {} found; install openmpi-bin",
            requested.to_string_lossy()
        ))?;
        (Launch::Mpiexec { exe, base }, hosts)
    } else {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        (Launch::Local, vec![(probe::host_name(), cpus)])
    };
    let mut m = Machine {
        hosts: Vec::new(),
        links: Vec::new(),
        rate: 1.0,
    };
    let pairs = if o.links && matches!(launch, Launch::Mpiexec { .. }) {
        hosts.len() * hosts.len().saturating_sub(1) / 2
    } else {
        0
    };
    // On a terminal a bar counts the measurements; elsewhere it draws
    // nothing and the lines below are printed as they are.
    let bar = indicatif::ProgressBar::new((2 * hosts.len() + pairs) as u64).with_style(
        indicatif::ProgressStyle::with_template("recon [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let say = |line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    for (name, slots) in &hosts {
        bar.set_message(format!("{name}: the kernel alone"));
        let alone = run_kernels(&launch, name, 1, o.seconds)?[0];
        bar.inc(1);
        let k = o.copies.unwrap_or((*slots).max(2));
        bar.set_message(format!("{name}: {k} copies of the kernel"));
        let together: f64 = run_kernels(&launch, name, k, (o.seconds * 0.7).max(0.1))?
            .iter()
            .sum();
        bar.inc(1);
        let scalability = ((together / alone).round() as u32).clamp(1, k);
        say(format!(
            "recon: {name}: {alone:.4e} alone, {together:.4e} with {k} copies: scalability {scalability}"
        ));
        m.hosts.push(Host {
            name: name.clone(),
            speed: alone,
            scalability,
            slots: *slots,
        });
    }
    if pairs > 0 {
        let port0 = 42_000 + (std::process::id() % 8_000) as u16;
        for a in 0..hosts.len() {
            for b in a + 1..hosts.len() {
                let port = port0 + (a * hosts.len() + b) as u16;
                let (ha, hb) = (&hosts[a].0, &hosts[b].0);
                bar.set_message(format!("link {ha} - {hb}"));
                let c = launch.command(&[
                    (ha.clone(), 1, vec!["--serve".into(), port.to_string()]),
                    (
                        hb.clone(),
                        1,
                        vec!["--ping".into(), ha.clone(), port.to_string()],
                    ),
                ]);
                let text = output_of(c)?;
                let (latency, bandwidth) = text
                    .lines()
                    .find_map(probe::parse_link_line)
                    .ok_or(format!("{ha}-{hb}: no link measurement in:\n{text}"))?;
                bar.inc(1);
                say(format!(
                    "recon: {ha} - {hb}: latency {latency:.3e} s, bandwidth {bandwidth:.3e} B/s"
                ));
                m.links.push(LinkCost {
                    a,
                    b,
                    latency,
                    bandwidth,
                });
            }
        }
    }
    bar.finish_and_clear();
    m.normalise();
    Ok(m)
}

fn write(o: &Options, m: &Machine) -> u8 {
    let comment = format!(
        "written by 'mpbridge recon': kernel {} s alone and as several copies per host; \
         links by TCP ping-pong",
        o.seconds
    );
    let text = m.to_text(&comment);
    match &o.output {
        None => {
            print!("{text}");
            0
        }
        Some(p) => match std::fs::write(p, text) {
            Ok(()) => {
                eprintln!("recon: wrote {}", p.display());
                0
            }
            Err(e) => {
                eprintln!("mpbridge recon: {}: {e}", p.display());
                1
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_are_checked() {
        assert!(parse(&words("--help")).unwrap().is_none());
        let o = parse(&words("--cluster -o m.vpm --seconds 2 --copies 3"))
            .unwrap()
            .unwrap();
        assert!(o.cluster && o.copies == Some(3) && o.seconds == 2.0);
        assert!(parse(&words("--cluster --hostfile h")).is_err());
        assert!(parse(&words("--seconds 0")).is_err());
        assert!(parse(&words("--copies 1")).is_err());
        assert!(parse(&words("--frob")).is_err());
    }

    #[test]
    fn hostfile_slots_add_up() {
        let h = hostfile_slots("a slots=2\n# x\nb\na slots=1 max_slots=4\n");
        assert_eq!(h, vec![("a".to_string(), 3), ("b".to_string(), 1)]);
    }
}
