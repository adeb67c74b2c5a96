//! The internal entry point the C glue of `pvm_packf`/`pvm_unpackf` calls
//! for each item of a format (not part of PVM's API).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, counts};
use crate::consts::{dt, err};
use crate::pack::Encoding;
use crate::ptr;
use crate::state::with_task;
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int, c_void};

// ---------------------------------------------------------------------------
// pvm_packf / pvm_unpackf support for the C glue

/// Direction codes of [`mpbridge_pvm_fmt_item`].
const FMT_PACK_ADDR: c_int = 0;
const FMT_PACK_VALUE: c_int = 1;
const FMT_UNPACK: c_int = 2;

fn fmt_item(dir: c_int, what: c_int, p: *mut c_void, nitem: c_int, stride: c_int) -> PvmResult<()> {
    macro_rules! go {
        ($t:ty, $pk:ident, $upk:ident) => {{
            let (n, s) = counts(nitem, stride)?;
            let p = p as *mut $t;
            with_task(|t| {
                if dir == FMT_UNPACK {
                    let out = ptr::items_mut(p, n, s).ok_or_else(bad)?;
                    return t.msg.rbuf_mut()?.$upk(out, n, s);
                }
                let data = ptr::items(p as *const $t, n, s).ok_or_else(bad)?;
                let b = t.msg.sbuf_mut()?;
                if dir == FMT_PACK_ADDR && b.encoding() == Encoding::InPlace {
                    b.pk_inplace(p as usize, std::mem::size_of::<$t>(), n, s)
                } else {
                    b.$pk(data, n, s)
                }
            })
        }};
    }
    match what {
        dt::STR => {
            if dir == FMT_UNPACK {
                if p.is_null() {
                    return Err(bad());
                }
                let s = with_task(|t| t.msg.rbuf_mut()?.upk_str())?;
                ptr::put_c_string(p as *mut c_char, &s);
                Ok(())
            } else {
                let s = ptr::c_str(p as *const c_char).ok_or_else(bad)?;
                with_task(|t| t.msg.sbuf_mut()?.pk_str(s))
            }
        }
        dt::BYTE => go!(u8, pk_byte, upk_byte),
        dt::SHORT => go!(i16, pk_short, upk_short),
        dt::USHORT => go!(u16, pk_ushort, upk_ushort),
        dt::INT => go!(i32, pk_int, upk_int),
        dt::UINT => go!(u32, pk_uint, upk_uint),
        dt::LONG => go!(i64, pk_long, upk_long),
        dt::ULONG => go!(u64, pk_ulong, upk_ulong),
        dt::FLOAT => go!(f32, pk_float, upk_float),
        dt::DOUBLE => go!(f64, pk_double, upk_double),
        dt::CPLX => go!([f32; 2], pk_cplx, upk_cplx),
        dt::DCPLX => go!([f64; 2], pk_dcplx, upk_dcplx),
        _ => Err(bad()),
    }
}

/// Internal entry of the C glue behind `pvm_packf`/`pvm_unpackf` (not part
/// of PVM's API): packs or unpacks one item of a format. `dir` 0 packs
/// from the address `p` (kept in place for a `PvmDataInPlace` buffer), 1
/// packs a copy of the value at `p`, 2 unpacks into `p`; `what` is a
/// `PVM_*` datatype (PVM_STR: a C string). Returns PvmOk or a negative
/// code, without reporting it (the caller reports once, as the call the
/// program made).
#[no_mangle]
pub extern "C" fn mpbridge_pvm_fmt_item(
    dir: c_int,
    what: c_int,
    p: *mut c_void,
    nitem: c_int,
    stride: c_int,
) -> c_int {
    guard("pvm_packf", err::SYS_ERR, || {
        if ![FMT_PACK_ADDR, FMT_PACK_VALUE, FMT_UNPACK].contains(&dir) {
            return err::BAD_PARAM;
        }
        match fmt_item(dir, what, p, nitem, stride) {
            Ok(()) => 0,
            Err(PvmError(c)) => c,
        }
    })
}
