//! The C entry points of the mailbox (`pvm_putinfo`, `pvm_recvinfo`,
//! `pvm_delinfo`, `pvm_getmboxinfo`, and PVM 3.3's `pvm_insert`,
//! `pvm_lookup`, `pvm_delete`), served by [`crate::mbox`].

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry, entry_quiet, text_arg, OwnedArray};
use crate::consts::err;
use crate::messages::{buffer_from_blob, enc_of_code, message_blob, parse_blob, ENC_XDR};
use crate::ops::Outcome;
use crate::pack::{Encoding, MsgBuf};
use crate::ptr;
use crate::state::blocking;
use crate::PvmResult;
use std::ffi::{c_char, c_int, CString};

// ---------------------------------------------------------------------------
// Mailbox

/// Codes `pvm_putinfo` and friends return without printing them.
const MBOX_QUIET: [i32; 3] = [err::DENIED, err::EXISTS, err::NOT_FOUND];

fn class_name(name: *mut c_char) -> PvmResult<String> {
    match text_arg(name) {
        Some(n) if !n.is_empty() => Ok(n),
        _ => Err(bad()),
    }
}

/// Stores message `bufid` in the mailbox under `name` (flags:
/// PvmMboxDefault, PvmMboxPersistent, PvmMboxMultiInstance,
/// PvmMboxOverWritable, PvmMboxDirectIndex(i)). Entries are deleted when
/// their owner leaves PVM unless persistent. Returns the entry's index,
/// PvmBadParam, PvmNoSuchBuf, PvmDenied (locked by another task; not
/// printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_putinfo(name: *mut c_char, bufid: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_putinfo", &MBOX_QUIET, || {
        let name = class_name(name)?;
        if bufid <= 0 {
            return Err(bad());
        }
        blocking(|t| {
            let blob = message_blob(t, bufid)?;
            crate::mbox::put(t, &name, -1, flags, blob)
        })
    })
}

/// Gets a copy of mailbox entry `name`/`index` as a new message, which
/// becomes the receive buffer (the old one is freed). Flags:
/// PvmMboxFirstAvail (the first entry at `index` or above),
/// PvmMboxReadAndDelete (delete it too), PvmMboxWaitForInfo (wait until it
/// exists). Returns the buffer id, PvmBadParam, PvmNotFound (not printed),
/// PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_recvinfo(name: *mut c_char, index: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_recvinfo", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if index < 0 {
            return Err(bad());
        }
        blocking(|t| {
            t.msg.drop_rbuf();
            let got = crate::mbox::get(t, &name, index, flags)?;
            let Outcome::Done((_, blob)) = got else {
                return Ok(Outcome::Killed);
            };
            let id = buffer_from_blob(t, &blob)?;
            t.msg.rbuf = id;
            Ok(Outcome::Done(id))
        })
    })
}

/// Deletes mailbox entry `name`/`index`. Returns the deleted index (PvmOk
/// for index 0), PvmBadParam, PvmNotFound, PvmDenied (neither printed),
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_delinfo(name: *mut c_char, index: c_int, flags: c_int) -> c_int {
    entry_quiet("pvm_delinfo", &MBOX_QUIET, || {
        let name = class_name(name)?;
        if index < 0 {
            return Err(bad());
        }
        blocking(|t| crate::mbox::delete(t, &name, index, flags))
    })
}

/// One mailbox name and its entries (`struct pvmmboxinfo`).
#[repr(C)]
pub struct PvmMboxInfo {
    mi_name: *mut c_char,
    mi_nentries: c_int,
    mi_indices: *mut c_int,
    mi_owners: *mut c_int,
    mi_flags: *mut c_int,
}

// SAFETY: the pointers refer to vectors and strings owned by the same
// table, which is only used under its lock.
unsafe impl Send for PvmMboxInfo {}

/// Lists the mailbox names matching `pattern` ('*' matches any run of
/// characters; NULL or "" matches every name) with their entries' indices,
/// owners (0 once a persistent entry's owner left) and flags. Stores the
/// count in `*nclasses` and a library-owned array (valid until the next
/// call) in `*classes`. Returns PvmOk, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_getmboxinfo(
    pattern: *mut c_char,
    nclasses: *mut c_int,
    classes: *mut *mut PvmMboxInfo,
) -> c_int {
    type Columns = Vec<[Vec<c_int>; 3]>;
    static TABLE: OwnedArray<PvmMboxInfo, (Vec<CString>, Columns)> = OwnedArray::new();
    entry("pvm_getmboxinfo", || {
        let pattern = text_arg(pattern).unwrap_or_default();
        let list = blocking(|t| crate::mbox::names(t, &pattern))?;
        let names: Vec<CString> = list
            .iter()
            .map(|c| CString::new(c.name.as_str()).unwrap_or_default())
            .collect();
        let mut cols: Vec<[Vec<c_int>; 3]> = list
            .iter()
            .map(|c| {
                [
                    c.entries.iter().map(|e| e.0).collect(),
                    c.entries.iter().map(|e| e.1).collect(),
                    c.entries.iter().map(|e| e.2).collect(),
                ]
            })
            .collect();
        let infos = names
            .iter()
            .zip(cols.iter_mut())
            .map(|(n, [ix, ow, fl])| PvmMboxInfo {
                mi_name: n.as_ptr() as *mut c_char,
                mi_nentries: ix.len() as c_int,
                mi_indices: ix.as_mut_ptr(),
                mi_owners: ow.as_mut_ptr(),
                mi_flags: fl.as_mut_ptr(),
            })
            .collect();
        TABLE.publish((names, cols), infos, nclasses, classes);
        Ok(0)
    })
}

/// PVM 3.3: stores the int `data` under `name` at index `req` (-1: the
/// first free index). Returns the index, PvmBadParam, PvmDupEntry
/// (= PvmDenied: the index is taken; not printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_insert(name: *mut c_char, req: c_int, data: c_int) -> c_int {
    entry_quiet("pvm_insert", &[err::DENIED], || {
        let name = class_name(name)?;
        if req < -1 {
            return Err(bad());
        }
        let mut m = MsgBuf::new(Encoding::Default);
        m.pk_int(&[data], 1, 1)?;
        let body = m.wire(&ptr::read_strided);
        blocking(|t| {
            let mut blob = Vec::with_capacity(36);
            let h = [body.len() as i32, 0, 0, 0, ENC_XDR, 0, t.me, 0];
            for w in h {
                blob.extend_from_slice(&w.to_le_bytes());
            }
            blob.extend_from_slice(&body);
            let flags = crate::consts::mbox::MULTI_INSTANCE | crate::consts::mbox::PERSISTENT;
            crate::mbox::put(t, &name, req, flags, blob)
        })
    })
}

/// PVM 3.3: the int stored under `name` at index `req` (-1: the first
/// entry) into `*datap`. Returns the index, PvmBadParam, PvmNoEntry
/// (= PvmNotFound; not printed), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_lookup(name: *mut c_char, req: c_int, datap: *mut c_int) -> c_int {
    entry_quiet("pvm_lookup", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if req < -1 {
            return Err(bad());
        }
        let (index, flags) = if req == -1 {
            (0, crate::consts::mbox::FIRST_AVAIL)
        } else {
            (req, 0)
        };
        let (found, blob) = blocking(|t| crate::mbox::get(t, &name, index, flags))?;
        let (h, body) = parse_blob(&blob)?;
        let mut m = MsgBuf::received(enc_of_code(h[4]), body.to_vec());
        let mut v = [0i32];
        m.upk_int(&mut v, 1, 1)?;
        ptr::put(datap, v[0]);
        Ok(found)
    })
}

/// PVM 3.3: deletes the entry of `name` at index `req`. Returns the index,
/// PvmBadParam, PvmNoEntry (not printed), PvmDenied, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_delete(name: *mut c_char, req: c_int) -> c_int {
    entry_quiet("pvm_delete", &[err::NOT_FOUND], || {
        let name = class_name(name)?;
        if req < 0 {
            return Err(bad());
        }
        blocking(|t| crate::mbox::delete(t, &name, req, 0))
    })
}
