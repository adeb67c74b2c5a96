//! The event files of `MPBRIDGE_TRACE=DIR`: one per process,
//! `DIR/<id>.trace`, written by shim-core's `trace` module and read by
//! `mpbridge trace`. This crate holds only the format (no MPI), so the
//! command reads traces without an MPI library.
//!
//! # Layout
//!
//! Every integer is little-endian. A file starts with a 16-byte header:
//!
//! | bytes  | field                                    |
//! |--------|------------------------------------------|
//! | 0..8   | [`MAGIC`], the ASCII bytes `MPBTRACE`    |
//! | 8..10  | [`VERSION`] (u16)                        |
//! | 10..12 | [`RECORD_LEN`], 32 (u16)                 |
//! | 12..16 | zero                                     |
//!
//! Then one record per event, in the order the process recorded them.
//! Each record starts with a 32-byte head:
//!
//! | bytes  | field                                                         |
//! |--------|---------------------------------------------------------------|
//! | 0..8   | time: nanoseconds since the Unix epoch (u64)                  |
//! | 8      | kind: 1 send, 2 receive, 3 text                               |
//! | 9      | layer of a send or receive: index into [`LAYERS`]; 0 for text |
//! | 10..12 | length of the text in bytes (text records; 0 otherwise)       |
//! | 12..16 | [`SYNC`], the ASCII bytes `MPBR`, checked on reading          |
//! | 16..20 | peer id (u32): `to` of a send, the matched `from` of a receive |
//! | 20..24 | tag (i32): of a send, the matched one of a receive            |
//! | 24..32 | message length in bytes (u64)                                 |
//!
//! Sends and receives of the layers in [`LAYERS`] are the head alone: the
//! message path copies 32 bytes and formats nothing. Every other event is a
//! text record: the head (peer, tag and length zero) followed by one line
//! of UTF-8 text, `kind layer field=value...`, padded with zero bytes to a
//! multiple of 8. The text events are
//!
//! ```text
//! start core id=t40001 rank=0
//! spawn pvm program=worker children=t80001,t80002
//! coll pvm op=barrier group=workers
//! call ga op=NGA_Put
//! exit pvm
//! ```
//!
//! and a send or receive of a layer outside [`LAYERS`] is written as text
//! too (`send mylayer to=t40002 tag=5 bytes=40`). Text longer than
//! [`MAX_TEXT`] bytes is cut at a character boundary.
//!
//! [`Record::line`] gives any record as the one-line text form
//! `time_us kind layer field=value...` (ids as `t` and hexadecimal), the
//! same for both kinds of record.
//!
//! # Damage
//!
//! The writer appends whole records, so a file whose process was killed
//! ends at a record boundary and reads up to its last write. A file cut
//! inside a record (a full disk, a write interrupted) or holding bytes that
//! are no record is reported by [`decode`] with the offset of the first
//! bad byte; the records before it are returned alongside.

use std::fmt;

/// The first bytes of every trace file.
pub const MAGIC: [u8; 8] = *b"MPBTRACE";
/// The format version this crate writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_LEN: usize = 16;
/// Bytes of a record head (a whole send or receive record).
pub const RECORD_LEN: usize = 32;
/// Bytes 12..16 of every record head.
pub const SYNC: [u8; 4] = *b"MPBR";
/// Longest text of a text record, in bytes.
pub const MAX_TEXT: usize = 4096;
/// The layers whose sends and receives have fixed-size records; the code
/// in a record is the index here.
pub const LAYERS: [&str; 7] = ["core", "pvm", "tcgmsg", "express", "ga", "hpf", "mpc"];

const KIND_SEND: u8 = 1;
const KIND_RECV: u8 = 2;
const KIND_TEXT: u8 = 3;

/// The file header.
pub fn header() -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(RECORD_LEN as u16).to_le_bytes());
    h
}

/// The code of `layer` in [`LAYERS`], if it has one.
#[inline]
pub fn layer_code(layer: &str) -> Option<u8> {
    LAYERS.iter().position(|&l| l == layer).map(|i| i as u8)
}

/// Direction of a message event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Sent to the peer.
    Send,
    /// Received from the peer (the matched source and tag).
    Recv,
}

/// A send or receive record of the layer with code `layer` (see
/// [`layer_code`]).
#[inline]
pub fn message(
    dir: Direction,
    layer: u8,
    time_ns: u64,
    peer: u32,
    tag: i32,
    bytes: u64,
) -> [u8; RECORD_LEN] {
    let kind = match dir {
        Direction::Send => KIND_SEND,
        Direction::Recv => KIND_RECV,
    };
    head(time_ns, kind, layer, 0, peer, tag, bytes)
}

#[inline]
fn head(
    time_ns: u64,
    kind: u8,
    layer: u8,
    text_len: u16,
    peer: u32,
    tag: i32,
    bytes: u64,
) -> [u8; RECORD_LEN] {
    let mut r = [0u8; RECORD_LEN];
    r[0..8].copy_from_slice(&time_ns.to_le_bytes());
    r[8] = kind;
    r[9] = layer;
    r[10..12].copy_from_slice(&text_len.to_le_bytes());
    r[12..16].copy_from_slice(&SYNC);
    r[16..20].copy_from_slice(&peer.to_le_bytes());
    r[20..24].copy_from_slice(&tag.to_le_bytes());
    r[24..32].copy_from_slice(&bytes.to_le_bytes());
    r
}

/// Appends a text record of `text` (`kind layer field=value...`) to `buf`.
pub fn push_text(buf: &mut Vec<u8>, time_ns: u64, text: &str) {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let text = &text.as_bytes()[..end];
    buf.extend_from_slice(&head(time_ns, KIND_TEXT, 0, end as u16, 0, 0, 0));
    buf.extend_from_slice(text);
    buf.resize(buf.len() + padding(end), 0);
}

/// Zero bytes after a text of `len` bytes.
fn padding(len: usize) -> usize {
    (8 - len % 8) % 8
}

/// Rewrites the time of every record in `buf`, which holds whole records
/// from its start, as `f(time)` (a writer that stamps events with a cheap
/// counter and converts to nanoseconds before writing). Returns the offset
/// of the first byte that does not start a record, if any.
pub fn map_times(buf: &mut [u8], mut f: impl FnMut(u64) -> u64) -> Result<(), usize> {
    let mut at = 0;
    while at < buf.len() {
        let Some(h) = buf.get_mut(at..at + RECORD_LEN) else {
            return Err(at);
        };
        if h[12..16] != SYNC {
            return Err(at);
        }
        let mut time = [0u8; 8];
        time.copy_from_slice(&h[0..8]);
        h[0..8].copy_from_slice(&f(u64::from_le_bytes(time)).to_le_bytes());
        let text_len = usize::from(u16::from_le_bytes([h[10], h[11]]));
        at += RECORD_LEN;
        if h[8] == KIND_TEXT {
            at += text_len + padding(text_len);
        }
    }
    if at == buf.len() {
        Ok(())
    } else {
        Err(at)
    }
}

/// What one record says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A send or receive with a fixed-size record.
    Message {
        dir: Direction,
        /// One of [`LAYERS`].
        layer: &'static str,
        /// The raw id of the peer (shown as `t` and hexadecimal).
        peer: u32,
        tag: i32,
        bytes: u64,
    },
    /// A text record: `kind layer field=value...`.
    Text(String),
}

/// One event as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Nanoseconds since the Unix epoch.
    pub time_ns: u64,
    pub event: Event,
}

impl Record {
    /// Microseconds since the Unix epoch.
    pub fn time_us(&self) -> u64 {
        self.time_ns / 1000
    }

    /// The record as one text line, `time_us kind layer field=value...`.
    pub fn line(&self) -> String {
        match &self.event {
            Event::Message {
                dir,
                layer,
                peer,
                tag,
                bytes,
            } => {
                let (kind, key) = match dir {
                    Direction::Send => ("send", "to"),
                    Direction::Recv => ("recv", "from"),
                };
                format!(
                    "{} {kind} {layer} {key}=t{peer:x} tag={tag} bytes={bytes}",
                    self.time_us()
                )
            }
            Event::Text(text) => format!("{} {text}", self.time_us()),
        }
    }
}

/// Why a file could not be read to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Offset of the first byte that could not be read, from the start of
    /// the file.
    pub offset: usize,
    pub why: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {}: {}", self.offset, self.why)
    }
}

impl std::error::Error for FormatError {}

/// The records of a file's bytes, and the damage that stopped the reading
/// early if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    pub records: Vec<Record>,
    pub error: Option<FormatError>,
}

/// Reads the records of a whole file.
pub fn decode(data: &[u8]) -> Decoded {
    let mut out = Decoded::default();
    let bad = |offset: usize, why: String| Some(FormatError { offset, why });
    if data.len() < HEADER_LEN {
        let why = if data.starts_with(&MAGIC[..data.len().min(MAGIC.len())]) {
            format!(
                "file cut inside its header ({} of {HEADER_LEN} bytes)",
                data.len()
            )
        } else {
            "not an mpbridge trace file (no MPBTRACE header)".to_string()
        };
        out.error = bad(data.len().min(MAGIC.len()), why);
        return out;
    }
    if data[0..8] != MAGIC {
        out.error = bad(0, "not an mpbridge trace file (no MPBTRACE header)".into());
        return out;
    }
    let version = u16::from_le_bytes([data[8], data[9]]);
    let record_len = u16::from_le_bytes([data[10], data[11]]);
    if version != VERSION || usize::from(record_len) != RECORD_LEN {
        out.error = bad(
            8,
            format!(
                "trace format version {version} with {record_len}-byte records; this reader \
                 knows version {VERSION} with {RECORD_LEN}-byte records"
            ),
        );
        return out;
    }
    let mut at = HEADER_LEN;
    while at < data.len() {
        match decode_record(data, at) {
            Ok((record, next)) => {
                out.records.push(record);
                at = next;
            }
            Err(why) => {
                out.error = bad(at, why);
                break;
            }
        }
    }
    out
}

/// The record at `at` and the offset of the next one.
fn decode_record(data: &[u8], at: usize) -> Result<(Record, usize), String> {
    let rest = &data[at..];
    let Some(h) = rest.get(..RECORD_LEN) else {
        return Err(format!(
            "file cut inside a record ({} of {RECORD_LEN} bytes)",
            rest.len()
        ));
    };
    if h[12..16] != SYNC {
        return Err("not a record (no MPBR mark at bytes 12..16)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let mut time = [0u8; 8];
    time.copy_from_slice(&h[0..8]);
    let time_ns = u64::from_le_bytes(time);
    let mut len = [0u8; 8];
    len.copy_from_slice(&h[24..32]);
    let bytes = u64::from_le_bytes(len);
    let text_len = usize::from(u16::from_le_bytes([h[10], h[11]]));
    let (kind, layer) = (h[8], h[9]);
    let event = match kind {
        KIND_SEND | KIND_RECV => {
            if text_len != 0 {
                return Err(format!("a message record with {text_len} bytes of text"));
            }
            let Some(&layer) = LAYERS.get(usize::from(layer)) else {
                return Err(format!("unknown layer code {layer}"));
            };
            Event::Message {
                dir: if kind == KIND_SEND {
                    Direction::Send
                } else {
                    Direction::Recv
                },
                layer,
                peer: u32_at(16),
                tag: u32_at(20) as i32,
                bytes,
            }
        }
        KIND_TEXT => {
            let total = text_len + padding(text_len);
            let Some(text) = rest.get(RECORD_LEN..RECORD_LEN + total) else {
                return Err(format!(
                    "file cut inside a text record ({} of {} bytes)",
                    rest.len(),
                    RECORD_LEN + total
                ));
            };
            let text = std::str::from_utf8(&text[..text_len])
                .map_err(|_| "a text record that is not UTF-8".to_string())?;
            if text.contains('\n') {
                return Err("a text record with a line break".into());
            }
            return Ok((
                Record {
                    time_ns,
                    event: Event::Text(text.to_string()),
                },
                at + RECORD_LEN + total,
            ));
        }
        other => return Err(format!("unknown record kind {other}")),
    };
    Ok((Record { time_ns, event }, at + RECORD_LEN))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(records: &[&[u8]]) -> Vec<u8> {
        let mut f = header().to_vec();
        for r in records {
            f.extend_from_slice(r);
        }
        f
    }

    fn sample() -> Vec<u8> {
        let mut text = Vec::new();
        push_text(&mut text, 1_000_000, "start core id=t40001 rank=0");
        let send = message(Direction::Send, 1, 2_500_000, 0x40002, -7, 40);
        let recv = message(Direction::Recv, 0, 3_000_999, 0x80001, i32::MAX, u64::MAX);
        file(&[&text, &send, &recv])
    }

    #[test]
    fn records_read_back_as_their_lines() {
        let d = decode(&sample());
        assert_eq!(d.error, None);
        let lines: Vec<String> = d.records.iter().map(Record::line).collect();
        assert_eq!(
            lines,
            [
                "1000 start core id=t40001 rank=0",
                "2500 send pvm to=t40002 tag=-7 bytes=40",
                &format!(
                    "3000 recv core from=t80001 tag={} bytes={}",
                    i32::MAX,
                    u64::MAX
                ),
            ]
        );
    }

    #[test]
    fn times_are_rewritten_in_place() {
        let mut f = sample();
        assert_eq!(map_times(&mut f[HEADER_LEN..], |t| t * 2), Ok(()));
        let times: Vec<u64> = decode(&f).records.iter().map(|r| r.time_ns).collect();
        assert_eq!(times, [2_000_000, 5_000_000, 6_001_998]);
        let n = f.len();
        assert_eq!(map_times(&mut f[HEADER_LEN..n - 1], |t| t), Err(96));
    }

    #[test]
    fn every_layer_has_a_code_and_others_none() {
        for (i, l) in LAYERS.iter().enumerate() {
            assert_eq!(layer_code(l), Some(i as u8));
        }
        assert_eq!(layer_code("mylayer"), None);
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        let long = "call ga op=".to_string() + &"é".repeat(MAX_TEXT);
        let mut buf = Vec::new();
        push_text(&mut buf, 5, &long);
        assert_eq!(buf.len() % 8, 0);
        let d = decode(&file(&[&buf]));
        assert_eq!(d.error, None);
        let Event::Text(t) = &d.records[0].event else {
            panic!("not text: {:?}", d.records[0]);
        };
        assert!(t.len() <= MAX_TEXT && t.len() > MAX_TEXT - 4);
        assert!(long.starts_with(t.as_str()));
    }

    #[test]
    fn a_file_cut_anywhere_keeps_the_records_before_the_cut() {
        let whole = sample();
        // Record boundaries: header, text record (32 + 32 bytes), two heads.
        let boundaries = [16, 80, 112, 144];
        for cut in 0..whole.len() {
            let d = decode(&whole[..cut]);
            let complete = boundaries.iter().filter(|&&b| b <= cut).count();
            if boundaries.contains(&cut) {
                assert_eq!(d.error, None, "cut at {cut}");
            } else {
                let e = d.error.expect("a cut inside a record is reported");
                let start = boundaries.iter().rev().find(|&&b| b <= cut).copied();
                assert_eq!(e.offset, start.unwrap_or(cut.min(8)), "cut at {cut}: {e}");
                assert!(e.why.contains("cut inside"), "cut at {cut}: {e}");
            }
            assert_eq!(d.records.len(), complete.saturating_sub(1), "cut at {cut}");
        }
    }

    #[test]
    fn damaged_bytes_are_reported_with_their_offset() {
        let mut f = sample();
        f[80 + 12] = b'X'; // the mark of the send record
        let d = decode(&f);
        assert_eq!(d.records.len(), 1);
        let e = d.error.unwrap();
        assert_eq!(e.offset, 80);
        assert!(e.to_string().starts_with("offset 80: not a record"), "{e}");

        let mut f = sample();
        f[80 + 9] = 200; // layer code of the send
        assert!(decode(&f).error.unwrap().why.contains("layer code 200"));

        let mut f = sample();
        f[80 + 8] = 9; // kind
        assert!(decode(&f).error.unwrap().why.contains("kind 9"));

        let mut f = sample();
        f[16 + 32] = 0xff; // first text byte
        assert!(decode(&f).error.unwrap().why.contains("UTF-8"));

        assert!(decode(b"1732 send pvm to=t1 tag=1 bytes=1\n")
            .error
            .unwrap()
            .why
            .contains("not an mpbridge trace"));

        let mut f = sample();
        f[8] = 2; // version
        let e = decode(&f).error.unwrap();
        assert_eq!(e.offset, 8);
        assert!(e.why.contains("version 2"), "{e}");
    }

    #[test]
    fn random_damage_never_panics() {
        // A fixed pseudo-random walk over byte flips and cuts.
        let whole = sample();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut f = whole.clone();
            let at = (x as usize) % f.len();
            f[at] = (x >> 32) as u8;
            let cut = ((x >> 16) as usize) % (f.len() + 1);
            let d = decode(&f[..cut]);
            if let Some(e) = d.error {
                assert!(e.offset <= cut);
            }
        }
    }
}
