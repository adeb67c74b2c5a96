//! The type-specific spellings of the GA Fortran API: GA 5.8's library
//! gives most array operations one name per Fortran type besides the
//! generic one (`i` integer, `s` real, `d` double precision, `c` complex,
//! `z` double complex):
//! - `ga_Xscal`, `ga_Xscale`, `nga_Xscale`, `ga_Xscal_patch`,
//!   `nga_Xscale_patch`, `ga_Xadd_patch`, `nga_Xadd_patch`: the generic
//!   routine after checking that every array holds type X;
//! - `ga_Xadd`, `nga_Xadd`, `ga_Xfill_patch`, `nga_Xfill_patch`: the generic
//!   routine (GA checks nothing there; the generic routine checks what it
//!   always does);
//! - `ga_Xdot`, `nga_Xdot`, `ga_Xdot_patch`, `nga_Xdot_patch`: the dot
//!   product as a value of type X (`complex` and `double complex` results
//!   come back as gfortran returns them, in registers);
//! - `ga_sgemm`, `ga_cgemm`, `ga_zgemm`: `ga_dgemm` for the other types;
//! - `ga_gop`, `ga_cgop`, `ga_zgop` and their `ga_pgroup_` forms: the
//!   reductions by type code and of complex values (which are summed, the
//!   only operation GA defines for them).
//!
//! Where GA 5.8's own type check is wrong (its `ga_iscal`, `ga_iscale` and
//! `ga_iscal_patch` reject every array, integer ones included) these accept
//! what the name says: 8-byte integer arrays.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]
// `typed!` writes the subroutines' result as `-> ()`.
#![allow(clippy::unused_unit)]

use crate::capi::sum_complex;
use crate::core::{self, codes, pgroups, ElemType};
use crate::fapi::{entry, fail, fail_core, ga_dgop_, ga_igop_, ga_sgop_, int, Arr};
use crate::fapi_ops::*;
use crate::fapi_pgroups::{ga_pgroup_dgop_, ga_pgroup_igop_, ga_pgroup_sgop_};
use crate::fapi_ptr as ptr;
use crate::fapi_queries::synonym;
use crate::ma_fortran::FInt;
use crate::ops;
use crate::ops::elem::{Num, C32, C64};
use std::ffi::{c_char, c_void};

/// The Fortran type a typed spelling names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `integer` (8 bytes in this build).
    Int,
    /// `real`.
    Real,
    /// `double precision`.
    Dbl,
    /// `complex`.
    Scpl,
    /// `double complex`.
    Dcpl,
}

impl Kind {
    fn accepts(self, t: ElemType) -> bool {
        match self {
            Kind::Int => matches!(t, ElemType::Long | ElemType::LongLong),
            Kind::Real => t == ElemType::Float,
            Kind::Dbl => t == ElemType::Double,
            Kind::Scpl => t == ElemType::SComplex,
            Kind::Dcpl => t == ElemType::DComplex,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Int => "integer",
            Kind::Real => "real",
            Kind::Dbl => "double precision",
            Kind::Scpl => "complex",
            Kind::Dcpl => "double complex",
        }
    }

    /// Ends the job unless every array holds this type.
    pub(crate) fn require(self, call: &str, arrays: &[&Arr]) {
        for a in arrays {
            if !self.accepts(a.ty) {
                fail(
                    call,
                    format!(
                        "array '{}' holds {}, not {}",
                        a.name(),
                        ops::elem::type_name(a.ty),
                        self.name()
                    ),
                );
            }
        }
    }

    /// The first value of a result's bytes.
    pub(crate) fn result<T: Num>(self, call: &str, bytes: &[u8]) -> T {
        match bytes.get(..T::SIZE) {
            Some(b) => T::load(b),
            None => fail(call, format!("no {} result", self.name())),
        }
    }
}

/// Ends the job unless the arrays the handles name all hold `kind`'s type,
/// then runs `f` (the generic routine).
fn checked<R>(call: &'static str, kind: Kind, handles: &[*const FInt], f: impl FnOnce() -> R) -> R {
    entry(call, || {
        let arrays: Vec<Arr> = handles.iter().map(|&g| Arr::get(call, g)).collect();
        let refs: Vec<&Arr> = arrays.iter().collect();
        kind.require(call, &refs);
    });
    f()
}

/// The routine's name as GA's messages give it (no trailing `_`).
fn called(symbol: &'static str) -> &'static str {
    symbol.trim_end_matches('_')
}

/// Defines each `$name: $kind` with the parameters `$params`, returning
/// nothing (`unit`) or a value of `$kind`'s type (`value`); its body is
/// `$body` with `$call` bound to the routine's name and `$k` to its
/// [`Kind`].
macro_rules! typed {
    ($params:tt $ret:ident |$call:ident, $k:ident| $body:expr; $($name:ident: $kind:ident),* $(,)?) => {$(
        typed!(@one $name $kind $params $ret |$call, $k| $body);
    )*};
    (@one $name:ident $kind:ident ($($a:ident: $t:ty),*) $ret:ident |$call:ident, $k:ident| $body:expr) => {
        #[doc = concat!("`", stringify!($name), "`: for arrays of `Kind::", stringify!($kind),
            "` (see the module documentation).")]
        #[no_mangle]
        pub extern "C" fn $name($($a: $t),*) -> typed!(@ret $ret $kind) {
            let ($call, $k) = (called(stringify!($name)), Kind::$kind);
            $body
        }
    };
    (@ret unit $kind:ident) => { () };
    (@ret value Int) => { FInt };
    (@ret value Real) => { f32 };
    (@ret value Dbl) => { f64 };
    (@ret value Scpl) => { C32 };
    (@ret value Dcpl) => { C64 };
}

typed! {
    (g_a: *const FInt, alpha: *const c_void) unit |c, k| checked(c, k, &[g_a], || ga_scale_(g_a, alpha));
    ga_iscal_: Int, ga_sscal_: Real, ga_dscal_: Dbl, ga_cscal_: Scpl, ga_zscal_: Dcpl,
    ga_iscale_: Int, ga_sscale_: Real, ga_dscale_: Dbl, ga_cscale_: Scpl, ga_zscale_: Dcpl,
    nga_iscale_: Int, nga_sscale_: Real, nga_dscale_: Dbl, nga_cscale_: Scpl, nga_zscale_: Dcpl,
}

typed! {
    (g_a: *const FInt, ilo: *const FInt, ihi: *const FInt, jlo: *const FInt, jhi: *const FInt,
     alpha: *const c_void) unit
        |c, k| checked(c, k, &[g_a], || ga_scale_patch_(g_a, ilo, ihi, jlo, jhi, alpha));
    ga_iscal_patch_: Int, ga_sscal_patch_: Real, ga_dscal_patch_: Dbl, ga_cscal_patch_: Scpl,
    ga_zscal_patch_: Dcpl,
}

typed! {
    (g_a: *const FInt, lo: *const FInt, hi: *const FInt, alpha: *const c_void) unit
        |c, k| checked(c, k, &[g_a], || nga_scale_patch_(g_a, lo, hi, alpha));
    nga_iscale_patch_: Int, nga_sscale_patch_: Real, nga_dscale_patch_: Dbl,
    nga_cscale_patch_: Scpl, nga_zscale_patch_: Dcpl,
}

typed! {
    (alpha: *const c_void, g_a: *const FInt, ailo: *const FInt, aihi: *const FInt,
     ajlo: *const FInt, ajhi: *const FInt, beta: *const c_void, g_b: *const FInt,
     bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt, bjhi: *const FInt,
     g_c: *const FInt, cilo: *const FInt, cihi: *const FInt, cjlo: *const FInt,
     cjhi: *const FInt) unit
        |c, k| checked(c, k, &[g_a, g_b, g_c], || ga_add_patch_(alpha, g_a, ailo, aihi, ajlo,
            ajhi, beta, g_b, bilo, bihi, bjlo, bjhi, g_c, cilo, cihi, cjlo, cjhi));
    ga_iadd_patch_: Int, ga_sadd_patch_: Real, ga_dadd_patch_: Dbl, ga_cadd_patch_: Scpl,
    ga_zadd_patch_: Dcpl,
}

typed! {
    (alpha: *const c_void, g_a: *const FInt, alo: *const FInt, ahi: *const FInt,
     beta: *const c_void, g_b: *const FInt, blo: *const FInt, bhi: *const FInt,
     g_c: *const FInt, clo: *const FInt, chi: *const FInt) unit
        |c, k| checked(c, k, &[g_a, g_b, g_c],
            || nga_add_patch_(alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi));
    nga_iadd_patch_: Int, nga_sadd_patch_: Real, nga_dadd_patch_: Dbl, nga_cadd_patch_: Scpl,
    nga_zadd_patch_: Dcpl,
}

typed! {
    (alpha: *const c_void, g_a: *const FInt, beta: *const c_void, g_b: *const FInt,
     g_c: *const FInt) unit |c, k| checked(c, k, &[], || ga_add_(alpha, g_a, beta, g_b, g_c));
    ga_iadd_: Int, ga_sadd_: Real, ga_dadd_: Dbl, ga_cadd_: Scpl, ga_zadd_: Dcpl,
    nga_iadd_: Int, nga_sadd_: Real, nga_dadd_: Dbl, nga_cadd_: Scpl, nga_zadd_: Dcpl,
}

typed! {
    (g_a: *const FInt, ilo: *const FInt, ihi: *const FInt, jlo: *const FInt, jhi: *const FInt,
     val: *const c_void) unit
        |c, k| checked(c, k, &[], || ga_fill_patch_(g_a, ilo, ihi, jlo, jhi, val));
    ga_ifill_patch_: Int, ga_sfill_patch_: Real, ga_dfill_patch_: Dbl, ga_cfill_patch_: Scpl,
    ga_zfill_patch_: Dcpl,
}

typed! {
    (g_a: *const FInt, lo: *const FInt, hi: *const FInt, val: *const c_void) unit
        |c, k| checked(c, k, &[], || nga_fill_patch_(g_a, lo, hi, val));
    nga_ifill_patch_: Int, nga_sfill_patch_: Real, nga_dfill_patch_: Dbl,
    nga_cfill_patch_: Scpl, nga_zfill_patch_: Dcpl,
}

// ---------------------------------------------------------------------------
// Dot products by type.

/// Σ g_a·g_b over two arrays of `kind`'s type of one shape.
fn dot_value<T: Num>(call: &'static str, kind: Kind, g_a: *const FInt, g_b: *const FInt) -> T {
    entry(call, || {
        let (a, b) = (Arr::get(call, g_a), Arr::get(call, g_b));
        kind.require(call, &[&a, &b]);
        same_shape(call, &a, &b);
        let v = ops::dot(call, a.h, b.h).unwrap_or_else(|e| fail_core(call, e));
        kind.result(call, &v)
    })
}

/// A patch in C order.
type Patch = (Vec<i64>, Vec<i64>);

/// The dot product of two patches (`patches` reads and checks them) of
/// arrays of `kind`'s type, each with its transpose flag.
fn dot_patches<T: Num>(
    call: &'static str,
    kind: Kind,
    (g_a, ta, lta): (*const FInt, *const c_char, usize),
    (g_b, tb, ltb): (*const FInt, *const c_char, usize),
    patches: impl FnOnce(&Arr, &Arr) -> (Patch, Patch),
) -> T {
    entry(call, || {
        let (a, b) = (Arr::get(call, g_a), Arr::get(call, g_b));
        let (ta, tb) = (trans_arg(call, ta, lta), trans_arg(call, tb, ltb));
        let (pa, pb) = patches(&a, &b);
        dot_patch_common(call, kind, &a, ta, pa, &b, tb, pb)
    })
}

typed! {
    (g_a: *const FInt, g_b: *const FInt) value |c, k| dot_value(c, k, g_a, g_b);
    ga_idot_: Int, ga_sdot_: Real, ga_cdot_: Scpl, ga_zdot_: Dcpl,
    nga_idot_: Int, nga_sdot_: Real, nga_cdot_: Scpl, nga_zdot_: Dcpl,
}

typed! {
    (g_a: *const FInt, ta: *const c_char, ailo: *const FInt, aihi: *const FInt,
     ajlo: *const FInt, ajhi: *const FInt, g_b: *const FInt, tb: *const c_char,
     bilo: *const FInt, bihi: *const FInt, bjlo: *const FInt, bjhi: *const FInt,
     lta: usize, ltb: usize) value
        |c, k| dot_patches(c, k, (g_a, ta, lta), (g_b, tb, ltb), |a, b| {
            (p2(c, a, ailo, aihi, ajlo, ajhi), p2(c, b, bilo, bihi, bjlo, bjhi))
        });
    ga_idot_patch_: Int, ga_sdot_patch_: Real, ga_cdot_patch_: Scpl, ga_zdot_patch_: Dcpl,
}

typed! {
    (g_a: *const FInt, ta: *const c_char, alo: *const FInt, ahi: *const FInt,
     g_b: *const FInt, tb: *const c_char, blo: *const FInt, bhi: *const FInt,
     lta: usize, ltb: usize) value
        |c, k| dot_patches(c, k, (g_a, ta, lta), (g_b, tb, ltb), |a, b| {
            (a.patch_n(c, alo, ahi), b.patch_n(c, blo, bhi))
        });
    nga_idot_patch_: Int, nga_sdot_patch_: Real, nga_cdot_patch_: Scpl, nga_zdot_patch_: Dcpl,
}

// ---------------------------------------------------------------------------
// Matrix products by type.

typed! {
    (transa: *const c_char, transb: *const c_char, m: *const FInt, n: *const FInt,
     k: *const FInt, alpha: *const c_void, g_a: *const FInt, g_b: *const FInt,
     beta: *const c_void, g_c: *const FInt, lta: usize, ltb: usize) unit
        |c, kind| {
            let args = GemmArgs {
                trans: (transa, lta, transb, ltb),
                mnk: (m, n, k),
                scalars: (alpha, beta),
                arrays: (g_a, g_b, g_c),
            };
            entry(c, || gemm_common(c, kind, args))
        };
    ga_sgemm_: Real, ga_cgemm_: Scpl, ga_zgemm_: Dcpl,
}

// ---------------------------------------------------------------------------
// Reductions by type code and of complex values.

/// Sums the `n` complex values (of `kind`, complex or double complex) at
/// `x` over the group `grp` names (None: the default group); `op` must be
/// `'+'`.
fn complex_gop(
    call: &'static str,
    kind: Kind,
    grp: Option<*const FInt>,
    x: *mut c_void,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    entry(call, || {
        let grp = grp.map(|g| crate::fapi::group_arg(call, g));
        let n = int(call, n);
        let count =
            usize::try_from(n).unwrap_or_else(|_| fail(call, format!("n = {n} is negative")));
        let op = ptr::fstring(op, oplen);
        let sum = |f: &mut [f64]| match grp {
            Some(g) => pgroups::gop(call, g, f, "+", false),
            None => core::pgroups::app_gop(call, f, "+", false),
        };
        let r = if kind == Kind::Scpl {
            sum_complex(call, values::<C32>(call, x, count), &op, sum)
        } else {
            sum_complex(call, values::<C64>(call, x, count), &op, sum)
        };
        r.unwrap_or_else(|e| fail_core(call, e))
    })
}

/// The `n` values of type `T` at `x`.
fn values<'a, T>(call: &str, x: *mut c_void, n: usize) -> &'a mut [T] {
    ptr::slice_mut(x.cast::<T>(), n).unwrap_or_else(|| fail(call, "x is missing (NULL)"))
}

typed! {
    (_msgtype: *const FInt, x: *mut c_void, n: *const FInt, op: *const c_char, oplen: usize) unit
        |c, k| complex_gop(c, k, None, x, n, op, oplen);
    ga_cgop_: Scpl, nga_cgop_: Scpl, ga_zgop_: Dcpl, nga_zgop_: Dcpl,
}

typed! {
    (g: *const FInt, _msgtype: *const FInt, x: *mut c_void, n: *const FInt, op: *const c_char,
     oplen: usize) unit |c, k| complex_gop(c, k, Some(g), x, n, op, oplen);
    ga_pgroup_cgop_: Scpl, nga_pgroup_cgop_: Scpl, ga_pgroup_zgop_: Dcpl, nga_pgroup_zgop_: Dcpl,
}

/// The reduction of the Fortran type `code` names.
enum GopType {
    Int,
    Real,
    Dbl,
    Scpl,
    Dcpl,
}

fn gop_type(call: &str, code: *const FInt) -> GopType {
    let c = int(call, code);
    match i32::try_from(c).unwrap_or(-1) {
        codes::F_INT | codes::F_LOG => GopType::Int,
        codes::F_REAL => GopType::Real,
        codes::F_DBL => GopType::Dbl,
        codes::F_SCPL => GopType::Scpl,
        codes::F_DCPL => GopType::Dcpl,
        _ => fail(
            call,
            format!("type {c} is not MT_F_INT, MT_F_REAL, MT_F_DBL, MT_F_SCPL or MT_F_DCPL"),
        ),
    }
}

/// The reduction `ga_igop`, `ga_sgop`, `ga_dgop`, `ga_cgop` or `ga_zgop`
/// (with `grp`, its `ga_pgroup_` form) does for the `MT_F_*` type `code`.
fn gop_by_type(
    call: &'static str,
    grp: Option<*const FInt>,
    code: *const FInt,
    x: *mut c_void,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    match (entry(call, || gop_type(call, code)), grp) {
        (GopType::Int, None) => ga_igop_(code, x.cast(), n, op, oplen),
        (GopType::Real, None) => ga_sgop_(code, x.cast(), n, op, oplen),
        (GopType::Dbl, None) => ga_dgop_(code, x.cast(), n, op, oplen),
        (GopType::Scpl, None) => ga_cgop_(code, x, n, op, oplen),
        (GopType::Dcpl, None) => ga_zgop_(code, x, n, op, oplen),
        (GopType::Int, Some(g)) => ga_pgroup_igop_(g, code, x.cast(), n, op, oplen),
        (GopType::Real, Some(g)) => ga_pgroup_sgop_(g, code, x.cast(), n, op, oplen),
        (GopType::Dbl, Some(g)) => ga_pgroup_dgop_(g, code, x.cast(), n, op, oplen),
        (GopType::Scpl, Some(g)) => ga_pgroup_cgop_(g, code, x, n, op, oplen),
        (GopType::Dcpl, Some(g)) => ga_pgroup_zgop_(g, code, x, n, op, oplen),
    }
}

/// `subroutine ga_gop(type, x, n, op)`: the reduction of `x(1:n)` over all
/// processes that `ga_igop`, `ga_sgop`, `ga_dgop`, `ga_cgop` or `ga_zgop`
/// does for the `MT_F_*` type `type`.
#[no_mangle]
pub extern "C" fn ga_gop_(
    code: *const FInt,
    x: *mut c_void,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    gop_by_type("ga_gop", None, code, x, n, op, oplen)
}

/// `subroutine ga_pgroup_gop(p_grp, type, x, n, op)`: `ga_gop` over a
/// processor group.
#[no_mangle]
pub extern "C" fn ga_pgroup_gop_(
    g: *const FInt,
    code: *const FInt,
    x: *mut c_void,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    gop_by_type("ga_pgroup_gop", Some(g), code, x, n, op, oplen)
}

synonym! {
    nga_gop_ => ga_gop_(code: *const FInt, x: *mut c_void, n: *const FInt, op: *const c_char,
        oplen: usize);
    nga_pgroup_gop_ => ga_pgroup_gop_(g: *const FInt, code: *const FInt, x: *mut c_void,
        n: *const FInt, op: *const c_char, oplen: usize);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_accepts_only_its_types() {
        assert!(Kind::Int.accepts(ElemType::Long));
        assert!(!Kind::Int.accepts(ElemType::Double));
        assert!(Kind::Dcpl.accepts(ElemType::DComplex));
        assert!(!Kind::Scpl.accepts(ElemType::DComplex));
        assert!(Kind::Real.accepts(ElemType::Float));
    }

    #[test]
    fn names_lose_the_trailing_underscore() {
        assert_eq!(called("ga_zdot_patch_"), "ga_zdot_patch");
    }
}
