//! The GA Fortran API's array properties, user element types and field
//! access: `ga_set_property`/`ga_unset_property` (and the `nga_`
//! spellings), `nga_register_type`/`nga_deregister_type`, and
//! `nga_get_field`/`nga_put_field` with their non-blocking forms, over
//! [`crate::properties`] and [`crate::ops::fields`]. Patches and leading
//! dimensions are Fortran's (1-based, column-major), turned into the
//! core's C order as in [`crate::fapi`]; `foff` and `fsize` count bytes. A
//! bad argument ends the job as `ga_error` does, naming the routine.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::{self, GaError};
use crate::fapi::{entry, fail, fail_core, int, ints, out, Arr};
use crate::fapi_elementwise::routines;
use crate::fapi_ptr as ptr;
use crate::ma_fortran::FInt;
use crate::ops::fields;
use crate::properties;
use std::ffi::{c_char, c_void};

fn done<R>(call: &str, r: Result<R, GaError>) -> R {
    r.unwrap_or_else(|e| fail_core(call, e))
}

routines!(
    "`subroutine ga_set_property(g_a, property)`: `'read_only'` or `'read_cache'` (collective)."
    [ga_set_property_, nga_set_property_] (g_a: *const FInt, property: *const c_char, len: usize)
    |c| done(c, properties::set(c, Arr::get(c, g_a).h, &ptr::fstring(property, len)))
);

routines!(
    "`subroutine ga_unset_property(g_a)`: removes the array's property (collective)."
    [ga_unset_property_, nga_unset_property_] (g_a: *const FInt)
    |c| done(c, properties::unset(c, Arr::get(c, g_a).h))
);

/// `integer function nga_register_type(bytes)`: the code of a new element
/// type of `bytes` bytes (1017 and up).
#[no_mangle]
pub extern "C" fn nga_register_type_(bytes: *const FInt) -> FInt {
    const C: &str = "nga_register_type";
    entry(C, || {
        let b = int(C, bytes);
        if b < 0 {
            fail(C, format!("{b} bytes is not a size"));
        }
        i64::from(done(C, properties::register_type(C, b as usize)))
    })
}

/// `integer function nga_deregister_type(type)`: 0, -1 for a built-in
/// type, -2 for a type not registered.
#[no_mangle]
pub extern "C" fn nga_deregister_type_(ty: *const FInt) -> FInt {
    const C: &str = "nga_deregister_type";
    entry(C, || {
        let t = int(C, ty);
        i64::from(properties::deregister_type(i32::try_from(t).unwrap_or(-1)))
    })
}

/// Moves a field between a patch and `buf` (collective only in that the
/// program orders it); with `nbhandle`, stores a handle for `nga_nbwait`.
#[allow(clippy::too_many_arguments)]
fn field_call(
    c: &'static str,
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    foff: *const FInt,
    fsize: *const FInt,
    ld: *const FInt,
    buf: Raw,
    nbhandle: Option<*mut FInt>,
) {
    let a = Arr::get(c, g_a);
    let (l, h) = a.patch_n(c, lo, hi);
    let ld = a.ld(c, &l, &h, ints(c, ld, a.ndim() - 1));
    let f = fields::Field {
        lo: l,
        hi: h,
        foff: int(c, foff),
        fsize: int(c, fsize),
        ld,
    };
    let bytes = done(c, f.buffer_bytes(c, a.h));
    let b = match buf {
        Raw::Get(p) => ptr::slice_mut(p as *mut u8, bytes).map(fields::Buffer::Get),
        Raw::Put(p) => ptr::slice(p as *const u8, bytes).map(fields::Buffer::Put),
    }
    .unwrap_or_else(|| fail(c, "buf is missing (NULL)"));
    done(c, fields::access(c, a.h, &f, b));
    if let Some(h) = nbhandle {
        out(c, h, core::next_nb());
    }
}

/// An `INTEGER` argument.
type P = *const FInt;

/// The user's buffer of a field routine.
enum Raw {
    Get(*mut c_void),
    Put(*const c_void),
}

/// Defines the field routines: `(buf: type, direction)` and, for the
/// non-blocking forms, the handle argument.
macro_rules! field_routines {
    ($($doc:literal fn $name:ident($buf:ident: $bt:ty $(, $nb:ident)?) => $dir:ident;)*) => {$(
        #[doc = $doc]
        #[no_mangle]
        pub extern "C" fn $name(g_a: P, lo: P, hi: P, foff: P, fsize: P, $buf: $bt, ld: P $(, $nb: *mut FInt)?) {
            let c: &'static str = stringify!($name).trim_end_matches('_');
            let nb: Option<*mut FInt> = None $(.or(Some($nb)))?;
            entry(c, || field_call(c, g_a, lo, hi, foff, fsize, ld, Raw::$dir($buf), nb))
        }
    )*};
}

field_routines! {
    "`subroutine nga_get_field(g_a, lo, hi, foff, fsize, buf, ld)`: bytes \
     `foff..foff+fsize-1` of each element of the patch into `buf`."
    fn nga_get_field_(buf: *mut c_void) => Get;
    "`subroutine nga_put_field(g_a, lo, hi, foff, fsize, buf, ld)`: sets that field of each \
     element of the patch from `buf`."
    fn nga_put_field_(buf: *const c_void) => Put;
    "`subroutine nga_nbget_field(g_a, lo, hi, foff, fsize, buf, ld, nbhandle)`: \
     `nga_get_field`, complete on return, with a handle for `nga_nbwait`."
    fn nga_nbget_field_(buf: *mut c_void, nbhandle) => Get;
    "`subroutine nga_nbput_field(g_a, lo, hi, foff, fsize, buf, ld, nbhandle)`: \
     `nga_put_field`, complete on return, with a handle for `nga_nbwait`."
    fn nga_nbput_field_(buf: *const c_void, nbhandle) => Put;
}
