//! `mpbridge trace DIR`: merge the per-process event files that
//! `MPBRIDGE_TRACE=DIR` wrote (the `trace-format` crate's format) into
//! Chrome/Perfetto trace-event JSON with one flow arrow per message, or
//! draw them as a space-time diagram (one lane per task, one arrow per
//! message, spawns and exits marked) in SVG.
//!
//! A receive is paired with a send by the pair of tasks and the tag: the
//! n-th message from A to B with tag T is the n-th one B received from A
//! with tag T, since messages between two tasks with one tag arrive in
//! order.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

/// Options of `mpbridge trace`.
#[derive(Args, Debug)]
#[command(
    about = "Merge MPBRIDGE_TRACE event files into trace-event JSON, or draw a space-time diagram",
    long_about = "Merge the event files that a run with MPBRIDGE_TRACE=DIR wrote (one per \
                  process) into Chrome/Perfetto trace-event JSON, with one flow arrow from \
                  each send to its receive, and/or draw an XPVM-style space-time diagram in \
                  SVG: one lane per task, one arrow per message, spawns and exits marked. \
                  Without -o or --draw, prints a summary.",
    after_long_help = "Exit status: 0 on success, 1 when DIR holds no readable trace or a \
                       file cannot be written, 2 for a usage error."
)]
pub struct TraceArgs {
    /// The directory MPBRIDGE_TRACE named
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Write the trace-event JSON (for ui.perfetto.dev or chrome://tracing) here
    #[arg(short = 'o', long = "output", value_name = "FILE.json")]
    output: Option<PathBuf>,
    /// Draw the space-time diagram into this SVG file
    #[arg(long = "draw", value_name = "FILE.svg")]
    draw: Option<PathBuf>,
}

/// What one event line says.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Start,
    Send {
        to: String,
        tag: i64,
        bytes: u64,
    },
    Recv {
        from: String,
        tag: i64,
        bytes: u64,
    },
    Spawn {
        program: String,
        children: Vec<String>,
    },
    Coll {
        op: String,
        group: String,
    },
    /// Another library call (a GA operation).
    Call {
        op: String,
    },
    Exit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    /// Microseconds since the Unix epoch.
    t: u64,
    layer: String,
    kind: Kind,
}

/// One process's events, in the order it recorded them.
#[derive(Clone, Debug)]
struct Task {
    id: String,
    rank: Option<i64>,
    events: Vec<Record>,
}

/// A message: the send (task index, event index) and the receive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Message {
    send: (usize, usize),
    recv: (usize, usize),
}

fn field<'a>(fields: &'a BTreeMap<&str, &str>, name: &str) -> Result<&'a str, String> {
    fields
        .get(name)
        .copied()
        .ok_or_else(|| format!("missing {name}="))
}

fn number(fields: &BTreeMap<&str, &str>, name: &str) -> Result<i64, String> {
    field(fields, name)?
        .parse()
        .map_err(|_| format!("{name}= is not a number"))
}

/// Parses one line of an event file.
fn parse_line(line: &str) -> Result<Record, String> {
    let mut words = line.split_whitespace();
    let t = words
        .next()
        .and_then(|w| w.parse::<u64>().ok())
        .ok_or("no timestamp")?;
    let kind = words.next().ok_or("no event kind")?;
    let layer = words.next().ok_or("no layer")?.to_string();
    let fields: BTreeMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
    let bytes = |f: &BTreeMap<&str, &str>| number(f, "bytes").map(|b| b.max(0) as u64);
    let kind = match kind {
        "start" => Kind::Start,
        "send" => Kind::Send {
            to: field(&fields, "to")?.to_string(),
            tag: number(&fields, "tag")?,
            bytes: bytes(&fields)?,
        },
        "recv" => Kind::Recv {
            from: field(&fields, "from")?.to_string(),
            tag: number(&fields, "tag")?,
            bytes: bytes(&fields)?,
        },
        "spawn" => Kind::Spawn {
            program: field(&fields, "program")?.to_string(),
            children: field(&fields, "children")?
                .split(',')
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect(),
        },
        "coll" => Kind::Coll {
            op: field(&fields, "op")?.to_string(),
            group: field(&fields, "group")?.to_string(),
        },
        "call" => Kind::Call {
            op: field(&fields, "op")?.to_string(),
        },
        "exit" => Kind::Exit,
        other => return Err(format!("unknown event '{other}'")),
    };
    Ok(Record { t, layer, kind })
}

/// The events of one trace file's bytes (`path` names it in errors).
fn read_task(path: &Path, data: &[u8]) -> Result<Task, String> {
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut task = Task {
        id,
        rank: None,
        events: Vec::new(),
    };
    let decoded = trace_format::decode(data);
    if let Some(e) = decoded.error {
        return Err(format!(
            "{}: {e} (the file is cut short or damaged; {} events before it are readable)",
            path.display(),
            decoded.records.len()
        ));
    }
    for (n, r) in decoded.records.iter().enumerate() {
        // Every record, a message's too, reads back as the line it prints as.
        let line = r.line();
        let record = parse_line(&line)
            .map_err(|why| format!("{}: event {}: {why}", path.display(), n + 1))?;
        if record.kind == Kind::Start {
            task.rank = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("rank="))
                .and_then(|v| v.parse().ok());
        }
        task.events.push(record);
    }
    Ok(task)
}

/// Reads every `*.trace` file of `dir`, ordered by task id.
fn read_dir(dir: &Path) -> Result<Vec<Task>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut tasks = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !matches!(path.extension(), Some(e) if e == "trace") {
            continue;
        }
        let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        tasks.push(read_task(&path, &data)?);
    }
    if tasks.is_empty() {
        return Err(format!("{}: no .trace files", dir.display()));
    }
    tasks.sort_by_key(|t| {
        (
            u32::from_str_radix(t.id.trim_start_matches('t'), 16).ok(),
            t.id.clone(),
        )
    });
    Ok(tasks)
}

/// Pairs every receive with its send; returns the messages and the number
/// of sends left without a receive.
fn match_messages(tasks: &[Task]) -> (Vec<Message>, usize) {
    let index: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    // (sender, receiver, tag) -> sends not yet received, in order.
    let mut sends: HashMap<(usize, usize, i64), VecDeque<(usize, usize)>> = HashMap::new();
    for (ti, t) in tasks.iter().enumerate() {
        for (ei, e) in t.events.iter().enumerate() {
            if let Kind::Send { to, tag, .. } = &e.kind {
                if let Some(&to) = index.get(to.as_str()) {
                    sends.entry((ti, to, *tag)).or_default().push_back((ti, ei));
                }
            }
        }
    }
    let mut messages = Vec::new();
    for (ti, t) in tasks.iter().enumerate() {
        for (ei, e) in t.events.iter().enumerate() {
            if let Kind::Recv { from, tag, .. } = &e.kind {
                let Some(&from) = index.get(from.as_str()) else {
                    continue;
                };
                if let Some(send) = sends
                    .get_mut(&(from, ti, *tag))
                    .and_then(VecDeque::pop_front)
                {
                    messages.push(Message {
                        send,
                        recv: (ti, ei),
                    });
                }
            }
        }
    }
    messages.sort_by_key(|m| (tasks[m.send.0].events[m.send.1].t, m.send));
    let unmatched = sends.values().map(VecDeque::len).sum();
    (messages, unmatched)
}

fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn task_label(t: &Task) -> String {
    match t.rank {
        Some(r) => format!("{} (rank {r})", t.id),
        None => t.id.clone(),
    }
}

/// The trace-event JSON: a process per task, a slice per event, and a
/// flow (start at the send, end at the receive) per message.
fn to_json(tasks: &[Task], messages: &[Message]) -> String {
    let t0 = tasks
        .iter()
        .flat_map(|t| t.events.iter().map(|e| e.t))
        .min()
        .unwrap_or(0);
    // The message (flow id) each paired send and receive belongs to.
    let mut flow_of: HashMap<(usize, usize), usize> = HashMap::new();
    for (id, m) in messages.iter().enumerate() {
        flow_of.insert(m.send, id);
        flow_of.insert(m.recv, id);
    }
    let mut ev: Vec<String> = Vec::new();
    for (pid, t) in tasks.iter().enumerate() {
        ev.push(format!(
            "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":{}}}}}",
            json_str(&task_label(t))
        ));
        for (ei, e) in t.events.iter().enumerate() {
            let ts = e.t - t0;
            let (name, mut args) = match &e.kind {
                Kind::Start => ("start".to_string(), String::new()),
                Kind::Send { to, tag, bytes } => (
                    format!("send to {to}"),
                    format!("\"to\":{},\"tag\":{tag},\"bytes\":{bytes}", json_str(to)),
                ),
                Kind::Recv { from, tag, bytes } => (
                    format!("recv from {from}"),
                    format!(
                        "\"from\":{},\"tag\":{tag},\"bytes\":{bytes}",
                        json_str(from)
                    ),
                ),
                Kind::Spawn { program, children } => (
                    format!("spawn {program}"),
                    format!(
                        "\"program\":{},\"children\":[{}]",
                        json_str(program),
                        children
                            .iter()
                            .map(|c| json_str(c))
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                ),
                Kind::Coll { op, group } => (
                    format!("{op} {group}"),
                    format!("\"op\":{},\"group\":{}", json_str(op), json_str(group)),
                ),
                Kind::Call { op } => (op.clone(), format!("\"op\":{}", json_str(op))),
                Kind::Exit => ("exit".to_string(), String::new()),
            };
            if let Some(id) = flow_of.get(&(pid, ei)) {
                let _ = write!(args, ",\"flow\":{id}");
            }
            ev.push(format!(
                "{{\"name\":{},\"cat\":{},\"ph\":\"X\",\"pid\":{pid},\"tid\":0,\"ts\":{ts},\"dur\":1,\"args\":{{{args}}}}}",
                json_str(&name),
                json_str(&e.layer)
            ));
        }
    }
    for (id, m) in messages.iter().enumerate() {
        let s = &tasks[m.send.0].events[m.send.1];
        let r = &tasks[m.recv.0].events[m.recv.1];
        let tag = match &s.kind {
            Kind::Send { tag, .. } => *tag,
            _ => 0,
        };
        let name = json_str(&format!("tag {tag}"));
        ev.push(format!(
            "{{\"name\":{name},\"cat\":\"message\",\"ph\":\"s\",\"id\":{id},\"pid\":{},\"tid\":0,\"ts\":{}}}",
            m.send.0,
            s.t - t0
        ));
        ev.push(format!(
            "{{\"name\":{name},\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":{id},\"pid\":{},\"tid\":0,\"ts\":{}}}",
            m.recv.0,
            r.t - t0
        ));
    }
    format!(
        "{{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n{}\n]}}\n",
        ev.join(",\n")
    )
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The space-time diagram: time runs left to right, a lane per task.
fn to_svg(tasks: &[Task], messages: &[Message]) -> String {
    const LEFT: f64 = 170.0;
    const WIDTH: f64 = 900.0;
    const LANE: f64 = 50.0;
    const TOP: f64 = 40.0;
    let times = tasks.iter().flat_map(|t| t.events.iter().map(|e| e.t));
    let t0 = times.clone().min().unwrap_or(0);
    let t1 = times.max().unwrap_or(0).max(t0 + 1);
    let x = |t: u64| LEFT + (t - t0) as f64 * WIDTH / (t1 - t0) as f64;
    let y = |lane: usize| TOP + LANE * lane as f64;
    let height = TOP + LANE * tasks.len() as f64 + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">",
        LEFT + WIDTH + 40.0
    );
    s.push_str(
        "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f5fa8\"/></marker></defs>\n",
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"20\">time: {:.3} ms from the first event</text>",
        (t1 - t0) as f64 / 1000.0
    );
    for (i, t) in tasks.iter().enumerate() {
        let first = t.events.first().map_or(t0, |e| e.t);
        let last = t.events.last().map_or(t1, |e| e.t);
        let _ = writeln!(
            s,
            "<g class=\"lane\" data-task=\"{}\"><text x=\"8\" y=\"{:.1}\">{}</text><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#444\" stroke-width=\"2\"/></g>",
            xml(&t.id),
            y(i) + 4.0,
            xml(&task_label(t)),
            x(first),
            y(i),
            x(last),
            y(i)
        );
        for e in &t.events {
            match &e.kind {
                Kind::Spawn { program, children } => {
                    let _ = writeln!(
                        s,
                        "<circle class=\"spawn\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"#2a9d3a\"><title>spawn {} -&gt; {}</title></circle>",
                        x(e.t),
                        y(i),
                        xml(program),
                        xml(&children.join(", "))
                    );
                }
                Kind::Exit => {
                    let _ = writeln!(
                        s,
                        "<rect class=\"exit\" x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" fill=\"#c0392b\"><title>exit</title></rect>",
                        x(e.t) - 4.0,
                        y(i) - 4.0
                    );
                }
                Kind::Coll { op, group } => {
                    let _ = writeln!(
                        s,
                        "<path class=\"coll\" d=\"M{:.1},{:.1} l5,5 l-5,5 l-5,-5 z\" fill=\"#8e44ad\"><title>{} {}</title></path>",
                        x(e.t),
                        y(i) - 5.0,
                        xml(op),
                        xml(group)
                    );
                }
                _ => {}
            }
        }
    }
    for m in messages {
        let se = &tasks[m.send.0].events[m.send.1];
        let re = &tasks[m.recv.0].events[m.recv.1];
        let (tag, bytes) = match &se.kind {
            Kind::Send { tag, bytes, .. } => (*tag, *bytes),
            _ => (0, 0),
        };
        let _ = writeln!(
            s,
            "<line class=\"message\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#1f5fa8\" marker-end=\"url(#head)\"><title>{} -&gt; {}, tag {tag}, {bytes} bytes</title></line>",
            x(se.t),
            y(m.send.0),
            x(re.t),
            y(m.recv.0),
            xml(&tasks[m.send.0].id),
            xml(&tasks[m.recv.0].id)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Entry point of `mpbridge trace`.
pub fn run(args: &TraceArgs) -> u8 {
    let tasks = match read_dir(&args.dir) {
        Ok(t) => t,
        Err(why) => {
            eprintln!("mpbridge trace: {why}");
            return 1;
        }
    };
    let (messages, unmatched) = match_messages(&tasks);
    let mut status = 0;
    let mut write = |path: &Path, text: String| {
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("mpbridge trace: {}: {e}", path.display());
            status = 1;
        }
    };
    if let Some(out) = &args.output {
        write(out, to_json(&tasks, &messages));
    }
    if let Some(svg) = &args.draw {
        write(svg, to_svg(&tasks, &messages));
    }
    let events: usize = tasks.iter().map(|t| t.events.len()).sum();
    println!(
        "{} tasks, {events} events, {} messages matched, {unmatched} sends without a receive",
        tasks.len(),
        messages.len()
    );
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, lines: &[&str]) -> Task {
        Task {
            id: id.to_string(),
            rank: None,
            events: lines.iter().map(|l| parse_line(l).unwrap()).collect(),
        }
    }

    #[test]
    fn lines_parse() {
        let r = parse_line("12 send pvm to=t40002 tag=5 bytes=40").unwrap();
        assert_eq!(r.t, 12);
        assert_eq!(
            r.kind,
            Kind::Send {
                to: "t40002".into(),
                tag: 5,
                bytes: 40
            }
        );
        let r = parse_line("13 spawn pvm program=w children=t80001,t80002").unwrap();
        assert_eq!(
            r.kind,
            Kind::Spawn {
                program: "w".into(),
                children: vec!["t80001".into(), "t80002".into()]
            }
        );
        assert!(parse_line("x send pvm").is_err());
        assert!(parse_line("1 send pvm to=t1 tag=x bytes=1").is_err());
        assert!(parse_line("1 teleport pvm").is_err());
    }

    #[test]
    fn binary_files_read_as_their_events_and_damage_names_file_and_offset() {
        use trace_format::{header, message, push_text, Direction};
        let mut data = header().to_vec();
        push_text(&mut data, 1_000_000, "start core id=t40001 rank=3");
        data.extend_from_slice(&message(Direction::Send, 1, 2_000_000, 0x40002, 5, 40));
        data.extend_from_slice(&message(Direction::Recv, 0, 3_000_000, 0x40002, 6, 8));
        let path = Path::new("run/t40001.trace");
        let task = read_task(path, &data).unwrap();
        assert_eq!(task.id, "t40001");
        assert_eq!(task.rank, Some(3));
        assert_eq!(
            task.events[1..],
            [
                Record {
                    t: 2000,
                    layer: "pvm".into(),
                    kind: Kind::Send {
                        to: "t40002".into(),
                        tag: 5,
                        bytes: 40
                    }
                },
                Record {
                    t: 3000,
                    layer: "core".into(),
                    kind: Kind::Recv {
                        from: "t40002".into(),
                        tag: 6,
                        bytes: 8
                    }
                }
            ]
        );
        let cut = read_task(path, &data[..data.len() - 5]).unwrap_err();
        assert!(
            cut.starts_with("run/t40001.trace: offset 112: file cut inside a record"),
            "{cut}"
        );
        let mut bad = data.clone();
        push_text(&mut bad, 4_000_000, "teleport pvm");
        let e = read_task(path, &bad).unwrap_err();
        assert_eq!(e, "run/t40001.trace: event 4: unknown event 'teleport'");
        let old_text = b"1732 send pvm to=t40002 tag=5 bytes=40\n";
        let e = read_task(path, old_text).unwrap_err();
        assert!(e.contains("offset 0: not an mpbridge trace file"), "{e}");
    }

    #[test]
    fn receives_pair_with_sends_in_order_per_pair_and_tag() {
        let a = task(
            "t40001",
            &[
                "1 send pvm to=t40002 tag=1 bytes=4",
                "2 send pvm to=t40002 tag=2 bytes=4",
                "3 send pvm to=t40002 tag=1 bytes=8",
                "4 send pvm to=t40002 tag=9 bytes=8",
            ],
        );
        let b = task(
            "t40002",
            &[
                "5 recv pvm from=t40001 tag=2 bytes=4",
                "6 recv pvm from=t40001 tag=1 bytes=4",
                "7 recv pvm from=t40001 tag=1 bytes=8",
            ],
        );
        let tasks = vec![a, b];
        let (m, unmatched) = match_messages(&tasks);
        assert_eq!(unmatched, 1);
        assert_eq!(
            m,
            vec![
                Message {
                    send: (0, 0),
                    recv: (1, 1)
                },
                Message {
                    send: (0, 1),
                    recv: (1, 0)
                },
                Message {
                    send: (0, 2),
                    recv: (1, 2)
                },
            ]
        );
        let json = to_json(&tasks, &m);
        assert_eq!(json.matches("\"ph\":\"s\"").count(), 3);
        assert_eq!(json.matches("\"ph\":\"f\"").count(), 3);
        let svg = to_svg(&tasks, &m);
        assert_eq!(svg.matches("class=\"lane\"").count(), 2);
        assert_eq!(svg.matches("class=\"message\"").count(), 3);
    }
}
