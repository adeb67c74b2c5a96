//! Message traces: with `MPBRIDGE_TRACE=DIR` every process writes its
//! events (sends, receives with the matched source and tag, spawns, exits,
//! group and collective calls, other library calls such as GA operations)
//! with wall-clock timestamps to its own file `DIR/<id>.trace`;
//! `mpbridge trace DIR` merges the files. The file format is the
//! `trace-format` crate's: sends and receives are fixed 32-byte binary
//! records, copied into a buffer without formatting; the rarer events
//! (start, spawn, collective, call, exit) are text records in the same
//! stream.
//!
//! Off (the default), [`on`] is one relaxed atomic load: layers call it
//! before building an event, so the message path pays nothing more.
//!
//! On, an event is stamped with the CPU's time-stamp counter when it runs
//! at a constant rate on every core (Linux's `constant_tsc` and
//! `nonstop_tsc` flags; a third of the cost of reading the clock), and the
//! stamps are turned into wall-clock nanoseconds when the buffer is
//! written, between the clock readings taken at the previous write and at
//! this one. Elsewhere events read the wall clock directly.
//!
//! Records are buffered in this process and appended to the file in whole
//! records when the buffer holds [`FLUSH_AT`] bytes, when an event comes
//! [`FLUSH_EVERY_NS`] or more after the last write, when the process leaves
//! MPI ([`finish`]) and when it exits through `exit` without leaving (an
//! `atexit` handler). What a process killed by a signal (or ended by
//! `_exit`, `MPI_Abort`) had not yet written is lost: at most the events of
//! its last second or its last [`FLUSH_AT`] bytes (8192 sends and
//! receives); the file still reads up to its last write. A write that
//! fails (a full disk) is reported once on stderr and ends the trace.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use trace_format::Direction;

use crate::procid::ProcId;

/// The variable naming the trace directory.
pub const TRACE_VAR: &str = "MPBRIDGE_TRACE";

/// Bytes buffered before they are written out.
pub const FLUSH_AT: usize = 256 * 1024;

/// An event this long (in nanoseconds) after the last write writes the
/// buffer out, so a process killed later loses at most its last second.
pub const FLUSH_EVERY_NS: u64 = 1_000_000_000;

static ON: AtomicBool = AtomicBool::new(false);

/// Whether the exit handler that writes the buffer out is registered.
static AT_EXIT: AtomicBool = AtomicBool::new(false);

/// Whether events are stamped with the time-stamp counter (see the header).
static TSC: AtomicBool = AtomicBool::new(false);

struct Sink {
    file: std::fs::File,
    path: PathBuf,
    buf: Vec<u8>,
    /// Where the records start in `buf` (after the file header, until the
    /// first write).
    start: usize,
    /// Ticks and wall-clock nanoseconds read together at the last write.
    base: (u64, u64),
    /// Ticks in [`FLUSH_EVERY_NS`], as measured between the last writes.
    every: u64,
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
            let mut buf = Vec::with_capacity(FLUSH_AT + trace_format::MAX_TEXT * 2);
            buf.extend_from_slice(&trace_format::header());
            TSC.store(steady_tsc(), Ordering::Relaxed);
            *SINK.lock() = Some(Sink {
                file,
                path,
                start: buf.len(),
                buf,
                base: clock_pair(),
                every: FLUSH_EVERY_NS,
            });
            ON.store(true, Ordering::Relaxed);
            if !AT_EXIT.swap(true, Ordering::Relaxed) {
                crate::mpi::at_exit(finish_at_exit);
            }
            write_text(&format!("start core id={me} rank={rank}"));
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
        Event::Send { to, tag, bytes } => write_message(Direction::Send, layer, to, tag, bytes),
        Event::Recv { from, tag, bytes } => write_message(Direction::Recv, layer, from, tag, bytes),
        Event::Spawn { program, children } => {
            let list: Vec<String> = children.iter().map(ProcId::to_string).collect();
            write_text(&format!(
                "spawn {layer} program={} children={}",
                no_blanks(program),
                list.join(",")
            ))
        }
        Event::Collective { op, group } => write_text(&format!(
            "coll {layer} op={} group={}",
            no_blanks(op),
            no_blanks(group)
        )),
        Event::Call { op } => write_text(&format!("call {layer} op={}", no_blanks(op))),
        Event::Exit => write_text(&format!("exit {layer}")),
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

fn now_ns() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
        d.as_secs() * 1_000_000_000 + u64::from(d.subsec_nanos())
    })
}

/// Whether this machine's time-stamp counter runs at one constant rate on
/// every core and in every power state.
fn steady_tsc() -> bool {
    cfg!(target_arch = "x86_64")
        && std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|info| {
            info.lines()
                .find(|l| l.starts_with("flags"))
                .is_some_and(|flags| {
                    let has = |w: &str| flags.split_whitespace().any(|f| f == w);
                    has("constant_tsc") && has("nonstop_tsc")
                })
        })
}

/// An event's stamp: the time-stamp counter, or wall-clock nanoseconds.
#[inline]
fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    if TSC.load(Ordering::Relaxed) {
        // SAFETY: RDTSC reads the time-stamp counter into registers; it
        // touches no memory and exists on every x86-64 CPU.
        return unsafe { std::arch::x86_64::_rdtsc() };
    }
    now_ns()
}

/// Ticks and wall-clock nanoseconds of one moment.
fn clock_pair() -> (u64, u64) {
    if !TSC.load(Ordering::Relaxed) {
        let ns = now_ns();
        return (ns, ns);
    }
    let before = ticks();
    let ns = now_ns();
    let after = ticks();
    (before + (after.saturating_sub(before)) / 2, ns)
}

/// A send or receive: one fixed-size record copied into the buffer (a
/// layer without a record code gets a text record).
#[inline]
fn write_message(dir: Direction, layer: &str, peer: ProcId, tag: i32, bytes: usize) {
    let Some(code) = trace_format::layer_code(layer) else {
        let (kind, key) = match dir {
            Direction::Send => ("send", "to"),
            Direction::Recv => ("recv", "from"),
        };
        let layer = no_blanks(layer);
        return write_text(&format!(
            "{kind} {layer} {key}={peer} tag={tag} bytes={bytes}"
        ));
    };
    let t = ticks();
    let record = trace_format::message(dir, code, t, peer.raw(), tag, bytes as u64);
    let mut sink = SINK.lock();
    let Some(s) = sink.as_mut() else { return };
    s.buf.extend_from_slice(&record);
    if s.buf.len() >= FLUSH_AT || t.wrapping_sub(s.base.0) >= s.every {
        flush(&mut sink);
    }
}

/// A text record: `kind layer field=value...`.
fn write_text(text: &str) {
    let t = ticks();
    let mut sink = SINK.lock();
    let Some(s) = sink.as_mut() else { return };
    trace_format::push_text(&mut s.buf, t, text);
    if s.buf.len() >= FLUSH_AT || t.wrapping_sub(s.base.0) >= s.every {
        flush(&mut sink);
    }
}

/// Appends the buffer to the file, its stamps turned into wall-clock
/// nanoseconds first. A failed write ends the trace, said once on stderr.
fn flush(sink: &mut Option<Sink>) {
    let Some(s) = sink.as_mut() else { return };
    let now = clock_pair();
    let (base_ticks, base_ns) = s.base;
    let ticks = now.0.saturating_sub(base_ticks);
    let ns = now.1.saturating_sub(base_ns);
    let scale = |d: u64, num: u64, den: u64| {
        (u128::from(d) * u128::from(num) / u128::from(den.max(1))) as u64
    };
    let mapped = trace_format::map_times(&mut s.buf[s.start..], |t| {
        base_ns + scale(t.saturating_sub(base_ticks), ns, ticks)
    });
    debug_assert_eq!(mapped, Ok(()));
    if ticks > 0 && ns > 0 {
        s.every = scale(FLUSH_EVERY_NS, ticks, ns).max(1);
    }
    s.base = now;
    s.start = 0;
    let written = s.file.write_all(&s.buf);
    s.buf.clear();
    if let Err(e) = written {
        eprintln!(
            "mpbridge: {TRACE_VAR}: writing {} failed: {e}; the trace ends here",
            s.path.display()
        );
        ON.store(false, Ordering::Relaxed);
        *sink = None;
    }
}

/// Writes out what is buffered and stops recording (the process leaves
/// MPI).
pub fn finish() {
    if !on() {
        return;
    }
    ON.store(false, Ordering::Relaxed);
    let mut sink = SINK.lock();
    flush(&mut sink);
    if let Some(s) = sink.take() {
        let _ = s.file.sync_data();
    }
}

/// The exit handler: a process that exits without leaving MPI still
/// writes its buffered events.
extern "C" fn finish_at_exit() {
    let _ = std::panic::catch_unwind(finish);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(raw: u32) -> ProcId {
        ProcId::from_raw(raw).expect("a valid id")
    }

    #[test]
    fn events_read_back_as_the_lines_they_stand_for() {
        let dir = std::env::temp_dir().join(format!("shim-core-trace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::env::set_var(TRACE_VAR, &dir);
        let started = now_ns();
        init(id(0x40001), 0);
        record(
            "pvm",
            Event::Send {
                to: id(0x40002),
                tag: -7,
                bytes: 40,
            },
        );
        record(
            "core",
            Event::Recv {
                from: id(0x80001),
                tag: 3,
                bytes: 8,
            },
        );
        record(
            "my layer",
            Event::Send {
                to: id(0x40002),
                tag: 1,
                bytes: 2,
            },
        );
        let children = [id(0x80001), id(0x80002)];
        record(
            "pvm",
            Event::Spawn {
                program: "a worker",
                children: &children,
            },
        );
        record(
            "pvm",
            Event::Collective {
                op: "barrier",
                group: "",
            },
        );
        record("ga", Event::Call { op: "NGA_Put" });
        record("pvm", Event::Exit);
        finish();
        let ended = now_ns();
        assert!(!on());
        record("pvm", Event::Exit);
        let bytes = std::fs::read(dir.join("t40001.trace")).unwrap();
        let d = trace_format::decode(&bytes);
        assert_eq!(d.error, None);
        let lines: Vec<String> = d
            .records
            .iter()
            .map(|r| r.line().split_once(' ').unwrap().1.to_string())
            .collect();
        assert_eq!(
            lines,
            [
                "start core id=t40001 rank=0",
                "send pvm to=t40002 tag=-7 bytes=40",
                "recv core from=t80001 tag=3 bytes=8",
                "send my_layer to=t40002 tag=1 bytes=2",
                "spawn pvm program=a_worker children=t80001,t80002",
                "coll pvm op=barrier group=-",
                "call ga op=NGA_Put",
                "exit pvm",
            ]
        );
        let times: Vec<u64> = d.records.iter().map(|r| r.time_ns).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
        assert!(
            times[0] >= started && times[times.len() - 1] <= ended,
            "wall-clock times within the test's: {started} <= {times:?} <= {ended}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
