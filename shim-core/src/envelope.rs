//! The envelope every layer's messages carry, and its wire form.
//!
//! A message travels as one MPI message on a fixed MPI tag ([`TAG_ENVELOPE`])
//! holding the header and, when small, the payload right after it. A large
//! payload follows as a second MPI message on [`TAG_PAYLOAD`] from the same
//! sender, sent and received straight from and into user memory. User tags
//! live only in the header and are never used as MPI tags.
//!
//! A record of a same-node ring (see `shm`) carries a compact form of the
//! header instead ([`RING_HEAD_LEN`] bytes): the ring already says who
//! sent it and how long the record is, so only context, tag, encoding and
//! where the payload is remain. A small payload then shares one cache line
//! with the ring's record word and this header.

use crate::error::CoreError;
use crate::procid::ProcId;

/// MPI tag of header messages.
pub const TAG_ENVELOPE: i32 = 1;
/// MPI tag of separately sent payloads.
pub const TAG_PAYLOAD: i32 = 2;
/// Size of the encoded header.
pub const HEADER_LEN: usize = 32;
/// Payloads up to this size travel inside the header message. Header plus
/// payload stay within 4 KiB, the smallest eager limit of common MPI
/// shared-memory transports; above it a combined message would switch to the
/// slower rendezvous protocol where the payload alone would not.
pub const INLINE_MAX: usize = 4096 - HEADER_LEN;

const MAGIC: u16 = 0x4d42; // "MB"

/// Size of the compact header of a same-node ring record whose payload
/// follows inside the record.
pub const RING_HEAD_LEN: usize = 16;

/// How the payload travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// The payload follows the header in the same MPI message.
    Inline,
    /// The payload is the next `TAG_PAYLOAD` message from the same sender.
    Separate,
}

/// The header of one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Context id (see `context`).
    pub context: u32,
    /// Sender's process id.
    pub source: ProcId,
    /// User tag (any value; layers restrict it).
    pub tag: i32,
    /// Encoding chosen by the layer (PVM: XDR, raw, in-place...).
    pub encoding: u32,
    /// Payload length in bytes.
    pub len: u64,
    /// Where the payload is.
    pub body: Body,
}

impl Header {
    /// Writes the header into the first `HEADER_LEN` bytes of `out`.
    pub fn write(&self, out: &mut [u8]) {
        out[0..2].copy_from_slice(&MAGIC.to_le_bytes());
        out[2] = match self.body {
            Body::Inline => 0,
            Body::Separate => 1,
        };
        out[3] = 0;
        out[4..8].copy_from_slice(&self.context.to_le_bytes());
        out[8..12].copy_from_slice(&self.source.raw().to_le_bytes());
        out[12..16].copy_from_slice(&self.tag.to_le_bytes());
        out[16..20].copy_from_slice(&self.encoding.to_le_bytes());
        out[20..28].copy_from_slice(&self.len.to_le_bytes());
        out[28..32].copy_from_slice(&[0; 4]);
    }

    /// Reads a header; fails on a malformed one (never trusted blindly).
    #[inline]
    pub fn read(inp: &[u8]) -> Result<Header, CoreError> {
        let bad = |what: &str| CoreError::InvalidArgument(format!("malformed envelope: {what}"));
        // One length check up front; the fields are then fixed-size loads.
        let Some(head) = inp.first_chunk::<HEADER_LEN>() else {
            return Err(bad("short header"));
        };
        let u32_at = |i: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&head[i..i + 4]);
            u32::from_le_bytes(w)
        };
        if u16::from_le_bytes([head[0], head[1]]) != MAGIC {
            return Err(bad("bad magic"));
        }
        let body = match head[2] {
            0 => Body::Inline,
            1 => Body::Separate,
            _ => return Err(bad("bad body kind")),
        };
        let source = ProcId::from_raw(u32_at(8)).ok_or_else(|| bad("bad source id"))?;
        let mut len = [0u8; 8];
        len.copy_from_slice(&head[20..28]);
        let len = u64::from_le_bytes(len);
        if body == Body::Inline && len as usize != inp.len() - HEADER_LEN {
            return Err(bad("inline length mismatch"));
        }
        Ok(Header {
            context: u32_at(4),
            source,
            tag: u32_at(12) as i32,
            encoding: u32_at(16),
            len,
            body,
        })
    }

    /// The compact ring header of a message whose payload follows it in
    /// the same record.
    #[inline]
    pub fn ring_inline(context: u32, tag: i32, encoding: u32) -> [u8; RING_HEAD_LEN] {
        let mut out = [0u8; RING_HEAD_LEN];
        out[0..4].copy_from_slice(&context.to_le_bytes());
        out[4..8].copy_from_slice(&tag.to_le_bytes());
        out[8..12].copy_from_slice(&encoding.to_le_bytes());
        out
    }

    /// The compact ring header of a message whose `len`-byte payload
    /// follows through MPI, and the record's body: the payload length.
    pub fn ring_separate(
        context: u32,
        tag: i32,
        encoding: u32,
        len: usize,
    ) -> ([u8; RING_HEAD_LEN], [u8; 8]) {
        let mut head = Header::ring_inline(context, tag, encoding);
        head[12] = 1;
        (head, (len as u64).to_le_bytes())
    }

    /// Reads the compact header of a ring record `rec` that `source`'s
    /// ring held; returns it with the inline payload (empty when the
    /// payload follows through MPI). Fails on a malformed record.
    #[inline]
    pub fn read_ring(source: ProcId, rec: &[u8]) -> Result<(Header, &[u8]), CoreError> {
        let bad = |what: &str| CoreError::InvalidArgument(format!("malformed ring record: {what}"));
        let Some((head, rest)) = rec.split_first_chunk::<RING_HEAD_LEN>() else {
            return Err(bad("short header"));
        };
        let u32_at =
            |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let (body, len, payload) = match u32_at(12) {
            0 => (Body::Inline, rest.len() as u64, rest),
            1 => match rest.first_chunk::<8>() {
                Some(len) if rest.len() == 8 => (Body::Separate, u64::from_le_bytes(*len), &[][..]),
                _ => return Err(bad("bad payload length")),
            },
            _ => return Err(bad("bad body kind")),
        };
        Ok((
            Header {
                context: u32_at(0),
                source,
                tag: u32_at(4) as i32,
                encoding: u32_at(8),
                len,
                body,
            },
            payload,
        ))
    }

    /// A header message for a small payload, payload included.
    pub fn with_inline(&self, payload: &[u8]) -> Vec<u8> {
        let mut v = vec![0u8; HEADER_LEN + payload.len()];
        self.write(&mut v);
        v[HEADER_LEN..].copy_from_slice(payload);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(body: Body, len: u64) -> Header {
        Header {
            context: 0xdead_beef,
            source: ProcId::new(3, 9).unwrap(),
            tag: -7,
            encoding: 2,
            len,
            body,
        }
    }

    #[test]
    fn round_trip_inline_and_separate() {
        let hi = h(Body::Inline, 3);
        let bytes = hi.with_inline(b"abc");
        assert_eq!(Header::read(&bytes).unwrap(), hi);
        assert_eq!(&bytes[HEADER_LEN..], b"abc");
        let hs = h(Body::Separate, 1 << 33);
        let mut b = [0u8; HEADER_LEN];
        hs.write(&mut b);
        assert_eq!(Header::read(&b).unwrap(), hs);
    }

    #[test]
    fn ring_records_round_trip() {
        let src = ProcId::new(2, 5).unwrap();
        let mut rec = Header::ring_inline(7, -3, 4).to_vec();
        rec.extend_from_slice(b"hello");
        let (h, payload) = Header::read_ring(src, &rec).unwrap();
        assert_eq!(
            (h.context, h.source, h.tag, h.encoding, h.len, h.body),
            (7, src, -3, 4, 5, Body::Inline)
        );
        assert_eq!(payload, b"hello");
        let (head, len) = Header::ring_separate(7, 9, 1, 1 << 33);
        let rec = [&head[..], &len[..]].concat();
        let (h, payload) = Header::read_ring(src, &rec).unwrap();
        assert_eq!((h.tag, h.len, h.body), (9, 1 << 33, Body::Separate));
        assert!(payload.is_empty());
        assert!(Header::read_ring(src, &rec[..20]).is_err(), "cut length");
        assert!(Header::read_ring(src, &[0u8; 8]).is_err(), "short header");
        let mut rec = Header::ring_inline(7, 9, 1);
        rec[12] = 2;
        assert!(Header::read_ring(src, &rec).is_err(), "unknown body kind");
    }

    #[test]
    fn rejects_garbage() {
        assert!(Header::read(&[0u8; 4]).is_err());
        assert!(Header::read(&[0u8; HEADER_LEN]).is_err());
        let mut b = h(Body::Inline, 3).with_inline(b"abc");
        b.pop();
        assert!(Header::read(&b).is_err(), "length mismatch must be caught");
        let mut b = h(Body::Inline, 0).with_inline(b"");
        b[2] = 9;
        assert!(Header::read(&b).is_err());
    }
}
