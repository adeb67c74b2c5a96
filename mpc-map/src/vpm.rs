//! The virtual parallel machine: the hosts a job may use, each with its
//! relative speed (the slowest host is 1), its scalability (how many
//! processes run there at full speed together) and its process slots, the
//! links between hosts (latency and bandwidth), and the text file that
//! `mpbridge recon` writes and the dispatcher reads.
//!
//! File format, one item a line, `#` starts a comment:
//!
//! ```text
//! host NAME speed S scalability C slots K
//! rate R
//! link NAME1 NAME2 latency SECONDS bandwidth BYTES_PER_SECOND
//! ```
//!
//! `rate` is how many units of computation a host of speed 1 does per
//! second (default 1); with it, estimated times are in seconds. A link not
//! listed costs [`DEFAULT_LATENCY`] and [`DEFAULT_BANDWIDTH`]; two
//! processes on one host talk for free.

use std::fmt::Write as _;

/// Latency of a link between two hosts the file does not list (s).
pub const DEFAULT_LATENCY: f64 = 1e-4;
/// Bandwidth of a link between two hosts the file does not list (bytes/s).
pub const DEFAULT_BANDWIDTH: f64 = 1.25e8;

/// One host of the machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Host {
    pub name: String,
    /// Relative speed of one process alone on the host.
    pub speed: f64,
    /// How many processes run on the host without slowing each other.
    pub scalability: u32,
    /// Process slots (processes the job may place there).
    pub slots: u32,
}

/// A measured link between two hosts.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkCost {
    pub a: usize,
    pub b: usize,
    pub latency: f64,
    pub bandwidth: f64,
}

/// The hosts, their links and the unit of speed.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    pub hosts: Vec<Host>,
    pub links: Vec<LinkCost>,
    /// Units of computation per second at speed 1.
    pub rate: f64,
}

impl Machine {
    /// `n` hosts named `host1`.. of speed 1, scalability 1, one slot each.
    pub fn uniform(n: usize) -> Machine {
        Machine {
            hosts: (1..=n)
                .map(|i| Host {
                    name: format!("host{i}"),
                    speed: 1.0,
                    scalability: 1,
                    slots: 1,
                })
                .collect(),
            links: Vec::new(),
            rate: 1.0,
        }
    }

    /// The index of host `name`.
    pub fn host_index(&self, name: &str) -> Option<usize> {
        self.hosts.iter().position(|h| h.name == name)
    }

    /// Seconds to send `bytes` from host `a` to host `b`.
    pub fn transfer_time(&self, a: usize, b: usize, bytes: f64) -> f64 {
        if a == b {
            return 0.0;
        }
        let l = self
            .links
            .iter()
            .find(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a));
        let (lat, bw) = l.map_or((DEFAULT_LATENCY, DEFAULT_BANDWIDTH), |l| {
            (l.latency, l.bandwidth)
        });
        lat + bytes / bw
    }

    /// Scales the speeds so the slowest host is 1 (and `rate` with them, so
    /// absolute speeds stay the same).
    pub fn normalise(&mut self) {
        let min = self
            .hosts
            .iter()
            .map(|h| h.speed)
            .fold(f64::INFINITY, f64::min);
        if min.is_finite() && min > 0.0 {
            for h in &mut self.hosts {
                h.speed /= min;
            }
            self.rate *= min;
        }
    }

    /// Reads a machine file's text.
    pub fn parse(text: &str) -> Result<Machine, String> {
        let mut m = Machine {
            hosts: Vec::new(),
            links: Vec::new(),
            rate: 1.0,
        };
        let mut pending = Vec::new();
        for (no, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", no + 1);
            let w: Vec<&str> = line.split_whitespace().collect();
            match w[0] {
                "host" => m.hosts.push(parse_host(&w).map_err(at)?),
                "rate" => {
                    m.rate = match w.as_slice() {
                        [_, r] => positive(r, "rate").map_err(at)?,
                        _ => return Err(at("expected 'rate R'".into())),
                    }
                }
                "link" => pending.push((no + 1, w.iter().map(|s| s.to_string()).collect())),
                other => {
                    return Err(at(format!(
                        "unknown item '{other}' (expected host, rate or link)"
                    )))
                }
            }
        }
        for (no, w) in pending {
            let w: Vec<String> = w;
            let at = |e: String| format!("line {no}: {e}");
            let [_, a, b, l, lat, bwk, bw] = w.as_slice() else {
                return Err(at(
                    "expected 'link NAME1 NAME2 latency SECONDS bandwidth BYTES_PER_SECOND'".into(),
                ));
            };
            if l != "latency" || bwk != "bandwidth" {
                return Err(at("expected 'latency' and 'bandwidth'".into()));
            }
            let find = |n: &str| {
                m.host_index(n)
                    .ok_or_else(|| at(format!("link names unknown host '{n}'")))
            };
            let (a, b) = (find(a)?, find(b)?);
            let latency = lat
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| at(format!("latency '{lat}' is not a number >= 0")))?;
            let bandwidth = positive(bw, "bandwidth").map_err(at)?;
            m.links.push(LinkCost {
                a,
                b,
                latency,
                bandwidth,
            });
        }
        if m.hosts.is_empty() {
            return Err("the machine has no host".into());
        }
        for (i, h) in m.hosts.iter().enumerate() {
            if m.hosts[..i].iter().any(|o| o.name == h.name) {
                return Err(format!("host '{}' is listed twice", h.name));
            }
        }
        Ok(m)
    }

    /// The machine as file text, with a header saying what each item means.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# mpbridge virtual parallel machine");
        for c in comment.lines() {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(
            s,
            "# host NAME speed S scalability C slots K\n\
             #   S: speed of one process alone, the slowest host is 1\n\
             #   C: processes that run there together at full speed\n\
             #   K: process slots\n\
             # rate R: units of the benchmark kernel per second at speed 1\n\
             # link A B latency SECONDS bandwidth BYTES_PER_SECOND"
        );
        for h in &self.hosts {
            let _ = writeln!(
                s,
                "host {} speed {:.4} scalability {} slots {}",
                h.name, h.speed, h.scalability, h.slots
            );
        }
        let _ = writeln!(s, "rate {:.6e}", self.rate);
        for l in &self.links {
            let _ = writeln!(
                s,
                "link {} {} latency {:.3e} bandwidth {:.4e}",
                self.hosts[l.a].name, self.hosts[l.b].name, l.latency, l.bandwidth
            );
        }
        s
    }
}

fn positive(v: &str, what: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("{what} '{v}' is not a number > 0"))
}

fn parse_host(w: &[&str]) -> Result<Host, String> {
    let Some(name) = w.get(1) else {
        return Err("host without a name".into());
    };
    let mut h = Host {
        name: name.to_string(),
        speed: 1.0,
        scalability: 1,
        slots: 1,
    };
    let mut rest = w[2..].chunks(2);
    for kv in rest.by_ref() {
        let [k, v] = kv else {
            return Err(format!("'{}' has no value", kv[0]));
        };
        let count = |v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("{k} '{v}' is not a whole number >= 1"))
        };
        match *k {
            "speed" => h.speed = positive(v, "speed")?,
            "scalability" => h.scalability = count(v)?,
            "slots" => h.slots = count(v)?,
            _ => return Err(format!("unknown host field '{k}'")),
        }
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_normalises() {
        let mut m = Machine::parse(
            "host a speed 2 scalability 2 slots 3\nhost b speed 4 # fast\nrate 10\n\
             link a b latency 1e-5 bandwidth 1e9\n",
        )
        .unwrap();
        m.normalise();
        assert_eq!(m.hosts[0].speed, 1.0);
        assert_eq!(m.hosts[1].speed, 2.0);
        assert_eq!(m.rate, 20.0);
        let back = Machine::parse(&m.to_text("test")).unwrap();
        assert_eq!(back.hosts, m.hosts);
        assert_eq!(back.links.len(), 1);
        assert!((m.transfer_time(0, 1, 1e9) - 1.00001).abs() < 1e-9);
        assert_eq!(m.transfer_time(1, 1, 1e9), 0.0);
    }

    #[test]
    fn errors_name_the_line() {
        let e = Machine::parse("host a\nhost b speed fast\n").unwrap_err();
        assert!(e.starts_with("line 2:") && e.contains("speed"), "{e}");
        let e = Machine::parse("host a\nlink a c latency 0 bandwidth 1\n").unwrap_err();
        assert!(e.contains("unknown host 'c'"), "{e}");
        assert!(Machine::parse("# nothing\n").is_err());
        assert!(Machine::parse("host a\nhost a\n")
            .unwrap_err()
            .contains("twice"));
    }
}
