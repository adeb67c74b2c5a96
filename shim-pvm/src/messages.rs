//! Messages as data: the header of a buffer as `struct pvmminfo` lists it
//! (with the fields the buffer table does not keep: wait id, destination),
//! the `pvmminfo.enc` codes, and a whole message (header and body) as the
//! bytes that `pvm_pkmesg` and the mailbox store.

use crate::consts::err;
use crate::msgstate::Buf;
use crate::pack::{Encoding, MsgBuf};
use crate::ptr;
use crate::task::Task;
use crate::{PvmError, PvmResult};

/// Data signature PVM 3.4.6 reports for LINUX64 (`hi_dsig`,
/// `pvm_archcode("LINUX64")`, `pvmminfo.enc` of a raw message).
pub const LINUX64_DSIG: i32 = 0x0040_8c41;
/// `pvmminfo.enc` of an XDR (`PvmDataDefault`) message.
pub const ENC_XDR: i32 = 0x1000_0000;
/// `pvmminfo.enc` of a `PvmDataInPlace` message.
pub const ENC_INPLACE: i32 = 0x2000_0000;

// ---------------------------------------------------------------------------
// Message headers (pvm_getminfo / pvm_setminfo)

/// Header fields a buffer carries beyond its tag, source and context: the
/// wait id and a destination set with `pvm_setminfo` (or carried by a
/// message unpacked with `pvm_upkmesg` or read from the mailbox).
#[derive(Clone, Copy, Debug, Default)]
pub struct Extra {
    pub(crate) wid: i32,
    pub(crate) dst: Option<i32>,
}

/// `pvmminfo.enc` for an encoding.
pub fn enc_code(e: Encoding) -> i32 {
    match e {
        Encoding::Default => ENC_XDR,
        Encoding::InPlace => ENC_INPLACE,
        Encoding::Raw => LINUX64_DSIG,
    }
}

/// The encoding of a `pvmminfo.enc` value (anything else than XDR or in
/// place is a native data signature: raw).
pub fn enc_of_code(code: i32) -> Encoding {
    match code {
        ENC_XDR => Encoding::Default,
        ENC_INPLACE => Encoding::InPlace,
        _ => Encoding::Raw,
    }
}

/// The header of a buffer as `struct pvmminfo` lists it:
/// `[len, ctx, tag, wid, enc, crc, src, dst]`.
pub fn minfo(t: &Task, id: i32) -> PvmResult<[i32; 8]> {
    let b = t.msg.get(id)?;
    let x = b.extra;
    // Buffers made here (the send buffer, `pvm_mkbuf`) have no receiver;
    // arrived messages were addressed to this task.
    let local = id == t.msg.sbuf
        || (b.src == t.me && b.tag == 0 && id != t.msg.rbuf && !t.msg.queued.contains(&id));
    let dst = if local { 0 } else { t.me };
    Ok([
        b.msg.byte_len() as i32,
        b.ctx,
        b.tag,
        x.wid,
        enc_code(b.msg.encoding()),
        0,
        b.src,
        x.dst.unwrap_or(dst),
    ])
}

/// The header and the bytes of buffer `id` (in-place data read now).
pub(crate) fn header_and_body(t: &Task, id: i32) -> PvmResult<([i32; 8], Vec<u8>, Encoding)> {
    let mut h = minfo(t, id)?;
    let b = t.msg.get(id)?;
    b.msg.whole()?;
    let body = b.msg.wire(&ptr::read_strided).into_owned();
    h[0] = body.len() as i32;
    Ok((h, body, b.msg.encoding()))
}

/// A message as the mailbox stores it: header words, then the body.
pub(crate) fn message_blob(t: &Task, id: i32) -> PvmResult<Vec<u8>> {
    let (h, body, _) = header_and_body(t, id)?;
    let mut v = Vec::with_capacity(32 + body.len());
    for w in h {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v.extend_from_slice(&body);
    Ok(v)
}

/// The header and body of a stored message.
pub(crate) fn parse_blob(blob: &[u8]) -> PvmResult<([i32; 8], &[u8])> {
    if blob.len() < 32 {
        return Err(PvmError(err::BAD_MSG));
    }
    let mut h = [0i32; 8];
    for (i, w) in h.iter_mut().enumerate() {
        let mut b = [0u8; 4];
        b.copy_from_slice(&blob[i * 4..i * 4 + 4]);
        *w = i32::from_le_bytes(b);
    }
    Ok((h, &blob[32..]))
}

/// A stored message as a new buffer of this task.
pub(crate) fn buffer_from_blob(t: &mut Task, blob: &[u8]) -> PvmResult<i32> {
    let (h, body) = parse_blob(blob)?;
    Ok(add_message(t, h, body.to_vec()))
}

/// A message with header `h` (as `struct pvmminfo` lists it) and `body` as
/// a new buffer of this task; returns its id.
pub(crate) fn add_message(t: &mut Task, h: [i32; 8], body: Vec<u8>) -> i32 {
    t.msg.add(Buf {
        msg: MsgBuf::received(enc_of_code(h[4]), body),
        tag: h[2],
        src: h[6],
        ctx: h[1],
        extra: Extra {
            wid: h[3],
            dst: Some(h[7]),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip() {
        for e in [Encoding::Default, Encoding::Raw, Encoding::InPlace] {
            assert_eq!(enc_of_code(enc_code(e)), e);
        }
        assert_eq!(enc_code(Encoding::Default), 0x1000_0000);
    }

    #[test]
    fn blob_header() {
        let mut v = Vec::new();
        for w in [4, 1, 2, 3, ENC_XDR, 0, 7, 8] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&[0, 0, 0, 5]);
        let (h, body) = parse_blob(&v).expect("parse");
        assert_eq!(h, [4, 1, 2, 3, ENC_XDR, 0, 7, 8]);
        assert_eq!(body, &[0, 0, 0, 5]);
        assert!(parse_blob(&v[..10]).is_err());
    }
}
