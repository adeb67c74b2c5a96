//! The GA C ABI's array properties, user element types and field access
//! (`ga.h`): `GA_Set_property`/`GA_Unset_property` (and the `NGA_`
//! spellings), `NGA_Register_type`/`NGA_Deregister_type`, and
//! `NGA_Get_field`/`NGA_Put_field` with their non-blocking forms, over
//! [`crate::properties`] and [`crate::ops::fields`]. A bad argument ends
//! the job through `GA_Error` naming the call.

use crate::capi::{run, NbHdl};
use crate::capi_ptr as ptr;
use crate::core::{self, GaError, Handle};
use crate::ops::fields;
use crate::properties;
use std::ffi::{c_char, c_int, c_void};

fn resolve(g: c_int) -> Handle {
    crate::capi::resolve_handle(g)
}

fn set_property(call: &'static str, g: c_int, name: *const c_char) {
    run(call, || {
        let text = ptr::c_str(name).ok_or_else(|| GaError::new(call, "property is NULL"))?;
        properties::set(call, resolve(g), &text)
    })
}

fn unset_property(call: &'static str, g: c_int) {
    run(call, || properties::unset(call, resolve(g)))
}

fn register_type(bytes: usize) -> c_int {
    const C: &str = "NGA_Register_type";
    run(C, || properties::register_type(C, bytes))
}

/// Defines entry points whose bodies are one expression.
macro_rules! entry_points {
    ($($(#[doc = $doc:expr])+ fn $name:ident($($a:ident: $t:ty),*) $(-> $r:ty)? = $body:expr;)*) => {$(
        $(#[doc = $doc])+
        #[no_mangle]
        pub extern "C" fn $name($($a: $t),*) $(-> $r)? {
            $body
        }
    )*};
}

entry_points! {
    /// Gives `g_a` the property `"read_only"` or `"read_cache"`
    /// (collective). Returns nothing; an unknown property, a second one,
    /// or `"read_only"` on a block-cyclic or group array ends the job
    /// through `GA_Error`.
    fn GA_Set_property(g: c_int, property: *const c_char) = set_property("GA_Set_property", g, property);
    /// Same as `GA_Set_property`; returns nothing.
    fn NGA_Set_property(g: c_int, property: *const c_char) = set_property("NGA_Set_property", g, property);
    /// Removes the property of `g_a` (collective). Returns nothing; a bad
    /// handle ends the job through `GA_Error`.
    fn GA_Unset_property(g: c_int) = unset_property("GA_Unset_property", g);
    /// Same as `GA_Unset_property`; returns nothing.
    fn NGA_Unset_property(g: c_int) = unset_property("NGA_Unset_property", g);
    /// Registers an element type of `bytes` bytes; returns its type code
    /// (1017 and up). A size of 0 or a full table ends the job through
    /// `GA_Error`.
    fn NGA_Register_type(bytes: usize) -> c_int = register_type(bytes);
    /// Deregisters a type from `NGA_Register_type`; returns 0, -1 for a
    /// built-in type code, -2 for a code that is not registered.
    fn NGA_Deregister_type(ty: c_int) -> c_int = properties::deregister_type(ty);
}

/// The user's buffer of a field call.
enum Raw {
    Get(*mut c_void),
    Put(*const c_void),
}

#[allow(clippy::too_many_arguments)]
fn field_call(
    call: &'static str,
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    foff: c_int,
    fsize: c_int,
    ld: *const c_int,
    buf: Raw,
    nbh: Option<*mut NbHdl>,
) {
    run(call, || {
        let g = resolve(g);
        let n = core::inquire(g)
            .map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?
            .1
            .len();
        let need = |p: *const c_int, k: usize, what: &str| {
            ptr::ints(p, k).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
        };
        let f = fields::Field {
            lo: need(lo, n, "lo")?,
            hi: need(hi, n, "hi")?,
            foff: foff.into(),
            fsize: fsize.into(),
            ld: need(ld, n - 1, "ld")?,
        };
        let bytes = f.buffer_bytes(call, g)?;
        let null = || GaError::new(call, "buf is NULL");
        let b = match buf {
            Raw::Get(p) => fields::Buffer::Get(ptr::bytes_mut(p, bytes).ok_or_else(null)?),
            Raw::Put(p) => fields::Buffer::Put(ptr::bytes(p, bytes).ok_or_else(null)?),
        };
        fields::access(call, g, &f, b)?;
        match nbh {
            Some(h) if !ptr::put_one(h, core::next_nb() as NbHdl) => {
                Err(GaError::new(call, "nbhandle is NULL"))
            }
            _ => Ok(()),
        }
    })
}

/// Defines the field entry points: `(buf: type, direction)` and, for the
/// non-blocking forms, the handle argument.
macro_rules! field_calls {
    ($($(#[doc = $doc:expr])+ fn $name:ident($buf:ident: $bt:ty $(, $nb:ident)?) => $dir:ident;)*) => {$(
        $(#[doc = $doc])+
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $name(
            g: c_int,
            lo: *const c_int,
            hi: *const c_int,
            foff: c_int,
            fsize: c_int,
            $buf: $bt,
            ld: *const c_int,
            $($nb: *mut NbHdl,)?
        ) {
            let nbh: Option<*mut NbHdl> = None $(.or(Some($nb)))?;
            field_call(stringify!($name), g, lo, hi, foff, fsize, ld, Raw::$dir($buf), nbh)
        }
    )*};
}

field_calls! {
    /// Copies bytes `foff..foff+fsize` of each element of the patch
    /// `lo..hi` into `buf`, items of `fsize` bytes with leading dimensions
    /// `ld`. Returns nothing; a bad handle, patch, field or NULL pointer
    /// ends the job through `GA_Error`.
    fn NGA_Get_field(buf: *mut c_void) => Get;
    /// Sets bytes `foff..foff+fsize` of each element of the patch `lo..hi`
    /// from `buf` (laid out as for `NGA_Get_field`); the rest of each
    /// element is kept. Returns nothing; bad arguments end the job through
    /// `GA_Error`.
    fn NGA_Put_field(buf: *const c_void) => Put;
    /// `NGA_Get_field` that stores a handle for `NGA_NbWait` in
    /// `*nbhandle`; the data is in `buf` when it returns. Returns nothing;
    /// bad arguments end the job through `GA_Error`.
    fn NGA_Nbget_field(buf: *mut c_void, nbhandle) => Get;
    /// `NGA_Put_field` that stores a handle for `NGA_NbWait` in
    /// `*nbhandle`; `buf` may be reused when it returns. Returns nothing;
    /// bad arguments end the job through `GA_Error`.
    fn NGA_Nbput_field(buf: *const c_void, nbhandle) => Put;
}
