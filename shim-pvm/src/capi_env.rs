//! The C entry points of PVM's environment: `pvm_export`/`pvm_unexport`
//! (the `PVM_EXPORT` list), `pvmgetrsh`, `pvmgettmp`, `pvmtmpnam` and the
//! `pvmdebmask` global.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry, text_arg};
use crate::ptr;
use shim_core::ffi_guard::guard;
use shim_core::Lock;
use std::ffi::{c_char, c_int, CString};
use std::sync::atomic::Ordering;

// ---------------------------------------------------------------------------
// PVM_EXPORT

const EXPORT_VAR: &str = "PVM_EXPORT";

/// `list` with `name` appended unless present (colon-separated).
pub fn export_list_add(list: &str, name: &str) -> String {
    if name.is_empty() || list.split(':').any(|n| n == name) {
        return list.to_string();
    }
    if list.is_empty() {
        name.to_string()
    } else {
        format!("{list}:{name}")
    }
}

/// `list` without `name` (colon-separated).
pub fn export_list_remove(list: &str, name: &str) -> String {
    if name.is_empty() {
        return list.to_string();
    }
    list.split(':')
        .filter(|n| !n.is_empty() && *n != name)
        .collect::<Vec<_>>()
        .join(":")
}

/// Adds `name` to the colon-separated list in the environment variable
/// `PVM_EXPORT` (the variables spawned tasks inherit), unless it is there.
/// Returns PvmOk (PvmBadParam for NULL).
#[no_mangle]
pub extern "C" fn pvm_export(name: *mut c_char) -> c_int {
    entry("pvm_export", || {
        let name = text_arg(name).ok_or_else(bad)?;
        let cur = std::env::var(EXPORT_VAR).ok();
        let new = export_list_add(cur.as_deref().unwrap_or(""), &name);
        if cur.as_deref() != Some(new.as_str()) {
            std::env::set_var(EXPORT_VAR, new);
        }
        Ok(0)
    })
}

/// Removes `name` from `PVM_EXPORT` (not an error if absent). Returns
/// PvmOk (PvmBadParam for NULL).
#[no_mangle]
pub extern "C" fn pvm_unexport(name: *mut c_char) -> c_int {
    entry("pvm_unexport", || {
        let name = text_arg(name).ok_or_else(bad)?;
        if let Ok(cur) = std::env::var(EXPORT_VAR) {
            let new = export_list_remove(&cur, &name);
            if new != cur {
                std::env::set_var(EXPORT_VAR, new);
            }
        }
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Utilities

fn static_text(
    cell: &'static std::sync::OnceLock<CString>,
    make: impl FnOnce() -> String,
) -> *mut c_char {
    cell.get_or_init(|| CString::new(make()).unwrap_or_default())
        .as_ptr() as *mut c_char
}

/// The remote shell PVM would start slave pvmds with: `$PVM_RSH`, else
/// "/usr/bin/ssh" (unused under MPI). Static string.
#[no_mangle]
pub extern "C" fn pvmgetrsh() -> *mut c_char {
    static RSH: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    static_text(&RSH, || {
        std::env::var("PVM_RSH").unwrap_or_else(|_| "/usr/bin/ssh".into())
    })
}

/// The directory for PVM's temporary files: `$PVM_TMP`, else `$TMPDIR`,
/// else "/tmp". Static string.
#[no_mangle]
pub extern "C" fn pvmgettmp() -> *mut c_char {
    static TMP: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    static_text(&TMP, || {
        std::env::var("PVM_TMP")
            .or_else(|_| std::env::var("TMPDIR"))
            .unwrap_or_else(|_| "/tmp".into())
    })
}

/// A fresh temporary file name (in `pvmgettmp()`), written to `buf` (which
/// must hold `PVMTMPNAMLEN` bytes) or, for NULL, to a static buffer.
/// Returns the buffer.
#[no_mangle]
pub extern "C" fn pvmtmpnam(buf: *mut c_char) -> *mut c_char {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    static OWN: Lock<[u8; 128]> = Lock::new([0; 128]);
    guard("pvmtmpnam", std::ptr::null_mut(), || {
        let dir = ptr::c_str(pvmgettmp())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .unwrap_or_else(|| "/tmp".into());
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut name = format!("{dir}/pvmtmp{}.{n}", std::process::id()).into_bytes();
        name.truncate(127);
        if buf.is_null() {
            let mut g = OWN.lock();
            g[..name.len()].copy_from_slice(&name);
            g[name.len()] = 0;
            g.as_mut_ptr() as *mut c_char
        } else {
            ptr::put_c_string(buf, &name);
            buf
        }
    })
}

/// libpvm's debugging mask (C global `pvmdebmask`; some programs set it).
/// Nothing reads it here.
#[no_mangle]
pub static mut pvmdebmask: c_int = 0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_lists() {
        assert_eq!(export_list_add("", "A"), "A");
        assert_eq!(export_list_add("A", "B"), "A:B");
        assert_eq!(export_list_add("A:B", "A"), "A:B");
        assert_eq!(export_list_add("A:B", ""), "A:B");
        assert_eq!(export_list_remove("A:B", "A"), "B");
        assert_eq!(export_list_remove("A:B:C", "B"), "A:C");
        assert_eq!(export_list_remove("B", "B"), "");
        assert_eq!(export_list_remove("A:B", "Z"), "A:B");
    }
}
