//! The C entry points of message headers (`pvm_getminfo`, `pvm_setminfo`,
//! `pvm_getmwid`, `pvm_setmwid`) and of messages inside messages
//! (`pvm_pkmesg`, `pvm_pkmesgbody`, `pvm_upkmesg`), over [`crate::messages`].

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry};
use crate::consts::err;
use crate::messages::{add_message, header_and_body, minfo, Extra};
use crate::pack::{Encoding, MsgBuf};
use crate::ptr;
use crate::state::with_task;
use crate::{PvmError, PvmResult};
use std::ffi::{c_int, c_void};

/// Copies `pvmminfo` fields from a caller's struct (8 ints).
fn read_minfo(info: *const c_void) -> PvmResult<[i32; 8]> {
    let s = ptr::items(info as *const c_int, 8, 1).ok_or_else(bad)?;
    let mut a = [0; 8];
    a.copy_from_slice(s);
    Ok(a)
}

/// Header information of a message (`struct pvmminfo`: len ctx tag wid enc
/// crc src dst); `enc` is 0x10000000 for XDR, 0x20000000 for in place and
/// the data signature for raw. Works on queued (probed) messages, received
/// ones and send buffers. Returns PvmOk, PvmBadParam (bufid <= 0 or NULL
/// info), PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_getminfo(bufid: c_int, info: *mut c_void) -> c_int {
    entry("pvm_getminfo", || {
        if bufid <= 0 {
            return Err(bad());
        }
        let h = with_task(|t| minfo(t, bufid))?;
        let out = ptr::items_mut(info as *mut c_int, 8, 1).ok_or_else(bad)?;
        out.copy_from_slice(&h);
        Ok(0)
    })
}

/// Sets the ctx, tag, wid, src and dst of a message's header (len, enc and
/// crc are kept); `pvm_getminfo` reports them, `pvm_bufinfo` reports the
/// new tag and source, and a queued (probed) message is then matched by
/// the receive calls with its new source, tag and context. The wait id
/// does not travel with a sent message under MPI. Returns PvmOk,
/// PvmBadParam, PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setminfo(bufid: c_int, info: *mut c_void) -> c_int {
    entry("pvm_setminfo", || {
        if bufid <= 0 {
            return Err(bad());
        }
        let h = read_minfo(info)?;
        with_task(|t| {
            let b = t.msg.get_mut(bufid)?;
            b.ctx = h[1];
            b.tag = h[2];
            b.src = h[6];
            b.extra = Extra {
                wid: h[3],
                dst: Some(h[7]),
            };
            Ok(0)
        })
    })
}

/// The wait id of a message (PVM 3.3). Returns it, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_getmwid(bufid: c_int) -> c_int {
    entry("pvm_getmwid", || {
        if bufid <= 0 {
            return Err(bad());
        }
        with_task(|t| minfo(t, bufid).map(|h| h[3]))
    })
}

/// Sets the wait id of a message (PVM 3.3). Returns PvmOk, PvmBadParam,
/// PvmNoSuchBuf.
#[no_mangle]
pub extern "C" fn pvm_setmwid(bufid: c_int, waitid: c_int) -> c_int {
    entry("pvm_setmwid", || {
        if bufid <= 0 {
            return Err(bad());
        }
        with_task(|t| {
            t.msg.get_mut(bufid)?.extra.wid = waitid;
            Ok(0)
        })
    })
}

/// Runs entry point `call`: checks message `bufid` (not the active send
/// buffer itself) and hands its header, body and encoding to `pack` with
/// the active send buffer. Returns PvmOk or the error.
fn pack_message(
    call: &str,
    bufid: i32,
    pack: impl FnOnce(&mut MsgBuf, [i32; 8], Vec<u8>, Encoding) -> PvmResult<()>,
) -> c_int {
    entry(call, || {
        with_task(|t| {
            if bufid <= 0 {
                return Err(bad());
            }
            let (h, body, enc) = header_and_body(t, bufid)?;
            if t.msg.sbuf == 0 {
                return Err(PvmError(err::NO_BUF));
            }
            if t.msg.sbuf == bufid {
                return Err(bad());
            }
            pack(t.msg.sbuf_mut()?, h, body, enc)?;
            Ok(0)
        })
    })
}

/// Packs message `bufid` (header and body) into the active send buffer;
/// `pvm_upkmesg` gets it back whole. Returns PvmOk, PvmBadParam (bufid <= 0
/// or the send buffer itself), PvmNoSuchBuf, PvmNoBuf.
#[no_mangle]
pub extern "C" fn pvm_pkmesg(bufid: c_int) -> c_int {
    pack_message("pvm_pkmesg", bufid, |out, h, body, _| {
        out.pk_int(&h, 8, 1)?;
        out.pk_byte(&body, body.len(), 1)
    })
}

/// Appends the body of message `bufid` to the active send buffer (the two
/// encodings must agree: XDR with XDR, raw or in place with raw or in
/// place). Returns PvmOk, PvmBadParam, PvmNoSuchBuf, PvmNoBuf,
/// PvmMismatch.
#[no_mangle]
pub extern "C" fn pvm_pkmesgbody(bufid: c_int) -> c_int {
    pack_message("pvm_pkmesgbody", bufid, |out, _, body, enc| {
        let xdr = |e: Encoding| e == Encoding::Default;
        if xdr(enc) != xdr(out.encoding()) {
            return Err(PvmError(err::MISMATCH));
        }
        out.pk_byte(&body, body.len(), 1)
    })
}

/// Unpacks a message packed with `pvm_pkmesg` from the active receive
/// buffer into a new buffer with the original header. Returns the new
/// buffer id, PvmNoBuf, PvmNoData, PvmBadMsg.
#[no_mangle]
pub extern "C" fn pvm_upkmesg() -> c_int {
    entry("pvm_upkmesg", || {
        with_task(|t| {
            let rb = t.msg.rbuf_mut()?;
            let mut h = [0i32; 8];
            rb.upk_int(&mut h, 8, 1)?;
            let len = usize::try_from(h[0]).map_err(|_| PvmError(err::BAD_MSG))?;
            let mut body = vec![0u8; len];
            rb.upk_byte(&mut body, len, 1)?;
            Ok(add_message(t, h, body))
        })
    })
}
