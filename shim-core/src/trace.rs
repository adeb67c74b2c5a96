//! Message traces: with `MPBRIDGE_TRACE=DIR` every process writes its
//! events (sends, receives with the matched source and tag, spawns, exits,
//! group and collective calls, other library calls such as GA operations)
//! with wall-clock timestamps to its own file
//! `DIR/<id>.trace`; `mpbridge trace DIR` merges the files.
//!
//! Each line is one event: `time_us kind layer field=value...`, the
//! fields in a fixed order per kind:
//!
//! ```text
//! 1732612345123456 start core id=t40001 rank=0
//! 1732612345123900 send pvm to=t40002 tag=5 bytes=40
//! 1732612345124100 recv pvm from=t40002 tag=6 bytes=8
//! 1732612345124300 spawn pvm program=worker children=t80001,t80002
//! 1732612345124400 coll pvm op=barrier group=workers
//! 1732612345124500 call ga op=NGA_Put
//! 1732612345125000 exit pvm
//! ```
//!
//! Off (the default), [`on`] is one relaxed atomic load: layers call it
//! before building an event, so the message path pays nothing more.
//! Events are buffered and written when the buffer fills and when the
//! process leaves MPI ([`finish`]).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::procid::ProcId;

/// The variable naming the trace directory.
pub const TRACE_VAR: &str = "MPBRIDGE_TRACE";

/// Bytes buffered before they are written out.
const FLUSH_AT: usize = 64 * 1024;

static ON: AtomicBool = AtomicBool::new(false);

struct Sink {
    file: std::fs::File,
    buf: String,
}

static SINK: spin::Mutex<Option<Sink>> = spin::Mutex::new(None);

/// True when this process records events.
#[inline]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// One traced event.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A message sent to `to`.
    Send { to: ProcId, tag: i32, bytes: usize },
    /// A message received, with the source and tag it matched.
    Recv {
        from: ProcId,
        tag: i32,
        bytes: usize,
    },
    /// Processes started by this one.
    Spawn {
        program: &'a str,
        children: &'a [ProcId],
    },
    /// A group or collective call (`op`: barrier, bcast, reduce, ...).
    Collective { op: &'a str, group: &'a str },
    /// Another call of the layer's API (a GA operation: `NGA_Put`, ...).
    Call { op: &'a str },
    /// The process leaves the layer.
    Exit,
}

/// Starts recording when `MPBRIDGE_TRACE` names a directory (created when
/// missing); called once at start-up with this process's id. A directory
/// that cannot be written to is reported once and tracing stays off.
pub fn init(me: ProcId, rank: i32) {
    let Some(dir) = std::env::var_os(TRACE_VAR).filter(|d| !d.is_empty()) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let path = dir.join(format!("{me}.trace"));
    let file = std::fs::create_dir_all(&dir).and_then(|()| std::fs::File::create(&path));
    match file {
        Ok(file) => {
            *SINK.lock() = Some(Sink {
                file,
                buf: String::with_capacity(FLUSH_AT),
            });
            ON.store(true, Ordering::Relaxed);
            write_line("start", "core", format_args!("id={me} rank={rank}"));
        }
        Err(e) => eprintln!(
            "mpbridge: {TRACE_VAR}: cannot write {}: {e}; no trace",
            path.display()
        ),
    }
}

/// Records `event` of `layer` (`pvm`, `tcgmsg`, ...); nothing when off.
pub fn record(layer: &str, event: Event<'_>) {
    if !on() {
        return;
    }
    match event {
        Event::Send { to, tag, bytes } => write_message("send", layer, "to", to, tag, bytes),
        Event::Recv { from, tag, bytes } => write_message("recv", layer, "from", from, tag, bytes),
        Event::Spawn { program, children } => {
            let mut list = String::new();
            for (i, c) in children.iter().enumerate() {
                let _ = write!(list, "{}{c}", if i == 0 { "" } else { "," });
            }
            write_line(
                "spawn",
                layer,
                format_args!("program={} children={list}", no_blanks(program)),
            )
        }
        Event::Collective { op, group } => write_line(
            "coll",
            layer,
            format_args!("op={} group={}", no_blanks(op), no_blanks(group)),
        ),
        Event::Call { op } => write_line("call", layer, format_args!("op={}", no_blanks(op))),
        Event::Exit => write_line("exit", layer, format_args!("")),
    }
}

/// `text` with blanks replaced, so a field stays one word.
fn no_blanks(text: &str) -> String {
    if text.is_empty() {
        return "-".into();
    }
    text.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// Appends `n` in decimal without the formatting machinery: sends and
/// receives are traced on the message path, where every nanosecond shows
/// (the constant divisor compiles to a multiplication).
fn push_number(buf: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend(digits[i..].iter().map(|&d| d as char));
}

/// Appends `n` in lower-case hexadecimal.
fn push_hex(buf: &mut String, n: u32) {
    let width = (32 - (n | 1).leading_zeros()).div_ceil(4);
    for k in (0..width).rev() {
        buf.push(char::from(
            b"0123456789abcdef"[((n >> (4 * k)) & 15) as usize],
        ));
    }
}

/// Appends a signed `n` in decimal.
fn push_signed(buf: &mut String, n: i64) {
    if n < 0 {
        buf.push('-');
    }
    push_number(buf, n.unsigned_abs());
}

/// One send or receive line: `TIME KIND LAYER PEER_KEY=tID tag=T bytes=N`
/// (the same text the general path writes).
fn write_message(kind: &str, layer: &str, peer_key: &str, peer: ProcId, tag: i32, bytes: usize) {
    let t = now_us();
    let mut sink = SINK.lock();
    let Some(s) = sink.as_mut() else { return };
    push_message(&mut s.buf, t, [kind, layer, peer_key], peer, tag, bytes);
    if s.buf.len() >= FLUSH_AT {
        flush(s);
    }
}

/// The text of [`write_message`]; `words` are the kind, layer and peer key.
fn push_message(b: &mut String, t: u64, words: [&str; 3], peer: ProcId, tag: i32, bytes: usize) {
    let [kind, layer, peer_key] = words;
    push_number(b, t);
    for part in [" ", kind, " ", layer, " ", peer_key, "=t"] {
        b.push_str(part);
    }
    push_hex(b, peer.raw());
    b.push_str(" tag=");
    push_signed(b, i64::from(tag));
    b.push_str(" bytes=");
    push_number(b, bytes as u64);
    b.push('\n');
}

fn write_line(kind: &str, layer: &str, fields: std::fmt::Arguments<'_>) {
    let t = now_us();
    let mut sink = SINK.lock();
    let Some(s) = sink.as_mut() else { return };
    let _ = write!(s.buf, "{t} {kind} {layer}");
    let start = s.buf.len();
    let _ = write!(s.buf, " {fields}");
    if s.buf.len() == start + 1 {
        s.buf.truncate(start);
    }
    s.buf.push('\n');
    if s.buf.len() >= FLUSH_AT {
        flush(s);
    }
}

fn flush(s: &mut Sink) {
    let _ = s.file.write_all(s.buf.as_bytes());
    s.buf.clear();
}

/// Writes out what is buffered and stops recording (the process leaves
/// MPI).
pub fn finish() {
    if !on() {
        return;
    }
    ON.store(false, Ordering::Relaxed);
    if let Some(mut s) = SINK.lock().take() {
        flush(&mut s);
        let _ = s.file.sync_data();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_lines_read_as_the_formatted_ones() {
        let cases = [
            (0u64, 0x40001u32, 0i32, 0usize),
            (1_732_612_345_123_456, 0x40002, -7, 40),
            (u64::MAX, 0xffff_ffff, i32::MIN, usize::MAX),
            (9, 0x80001, i32::MAX, 8),
        ];
        for (t, raw, tag, bytes) in cases {
            let peer = ProcId::from_raw(raw).unwrap_or_else(|| ProcId::from_raw(0x40001).unwrap());
            let mut fast = String::new();
            push_message(&mut fast, t, ["send", "pvm", "to"], peer, tag, bytes);
            assert_eq!(
                fast,
                format!("{t} send pvm to={peer} tag={tag} bytes={bytes}\n")
            );
        }
    }
}
