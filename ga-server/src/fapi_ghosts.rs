//! Ghost cells and periodic transfers in the GA Fortran API (gfortran
//! conventions, `INTEGER` of 8 bytes, 1-based column-major indices):
//! `nga_create_ghosts[_irreg]`, `ga_update_ghosts`, `nga_update_ghost_dir`,
//! `ga_has_ghosts`, `nga_access_ghosts`, `nga_access_ghost_element`, the
//! release routines, `nga_get_ghost_block` and `nga_periodic_get/put/acc`.
//!
//! A ghost cell shows the periodic image of the element it stands for,
//! corners included. `nga_update_ghost_dir(g_a, dimension, idir, cflag)`
//! takes a Fortran dimension (1 = the contiguous one). The access routines
//! give an index into the MA base array of the array's type, and
//! `nga_access_ghost_element`'s subscript counts from the first ghost cell
//! of the frame (1-based), as in GA.
//!
//! Creation routines return `.false.` (with a message on stderr) when the
//! array cannot be made; bad arguments end the job as `ga_error` does.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::{self, Periodic};
use crate::fapi::{
    create_nd, entry, fail, fail_core, flog, int, ints, ints_mut, out, Arr, NdDist, TRUE,
};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::{FInt, FLog};
use std::ffi::{c_char, c_void};

/// `logical nga_create_ghosts(type, ndim, dims, width, name, chunk, g_a)`:
/// an array whose blocks carry `width(i)` ghost cells on each side of
/// dimension i. Collective.
#[no_mangle]
pub extern "C" fn nga_create_ghosts_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    width: *const FInt,
    name: *const c_char,
    chunk: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let dist = NdDist::Chunk(chunk);
    create_nd(
        "nga_create_ghosts",
        datatype,
        ndim,
        dims,
        width,
        name,
        namelen,
        dist,
        g_a,
    )
}

/// `logical nga_create_ghosts_irreg(type, ndim, dims, width, name, map,
/// nblock, g_a)`: as `nga_create_irreg`, with ghost cells. Collective.
#[no_mangle]
pub extern "C" fn nga_create_ghosts_irreg_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    width: *const FInt,
    name: *const c_char,
    map: *const FInt,
    nblock: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let dist = NdDist::Irregular { map, nblock };
    create_nd(
        "nga_create_ghosts_irreg",
        datatype,
        ndim,
        dims,
        width,
        name,
        namelen,
        dist,
        g_a,
    )
}

/// `logical ga_has_ghosts(g_a)`.
#[no_mangle]
pub extern "C" fn ga_has_ghosts_(g_a: *const FInt) -> FLog {
    const C: &str = "ga_has_ghosts";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let w = core::ghost_widths(C, a.h).unwrap_or_else(|e| fail_core(C, e));
        flog(w.iter().any(|&x| x > 0))
    })
}

/// `subroutine ga_update_ghosts(g_a)`: fills every ghost cell, corners
/// included. Collective.
#[no_mangle]
pub extern "C" fn ga_update_ghosts_(g_a: *const FInt) {
    const C: &str = "ga_update_ghosts";
    entry(C, || {
        let a = Arr::get(C, g_a);
        core::update_ghosts(C, a.h).unwrap_or_else(|e| fail_core(C, e))
    })
}

/// `logical nga_update_ghost_dir(g_a, dimension, idir, cflag)`: fills the
/// ghost cells on side `idir` (−1 or +1) of Fortran dimension `dimension`,
/// with that side's corners when `cflag`. Collective; returns `.true.`.
#[no_mangle]
pub extern "C" fn nga_update_ghost_dir_(
    g_a: *const FInt,
    dimension: *const FInt,
    idir: *const FInt,
    cflag: *const FLog,
) -> FLog {
    const C: &str = "nga_update_ghost_dir";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let n = a.ndim() as i64;
        let d = int(C, dimension);
        if d < 1 || d > n {
            fail(C, format!("dimension {d} of a {n}-dimensional array"));
        }
        let corners = ptr::read(cflag).unwrap_or_else(|| fail(C, "cflag is missing (NULL)")) != 0;
        core::update_ghost_dir(C, a.h, (n - d) as usize, int(C, idir), corners)
            .unwrap_or_else(|e| fail_core(C, e));
        TRUE
    })
}

fn framed(call: &'static str, a: &Arr) -> (*mut u8, Vec<i64>, Vec<i64>) {
    match core::access_ghosts(call, a.h).unwrap_or_else(|e| fail_core(call, e)) {
        Some(x) => x,
        None => fail(
            call,
            format!(
                "process {} owns no part of g_a '{}'",
                core::nodeid(),
                a.name()
            ),
        ),
    }
}

fn index_of(call: &'static str, a: &Arr, addr: usize) -> i64 {
    let base = a.base(call);
    base.index_of(addr).unwrap_or_else(|| {
        fail(
            call,
            format!(
                "the block of g_a '{}' is not aligned to {} elements",
                a.name(),
                base.array()
            ),
        )
    })
}

/// `subroutine nga_access_ghosts(g_a, dims, index, ld)`: `index` of the
/// first ghost cell of this process's block in the MA base array, the
/// framed extents in `dims` and leading dimensions in `ld(1:ndim-1)`.
#[no_mangle]
pub extern "C" fn nga_access_ghosts_(
    g_a: *const FInt,
    dims: *mut FInt,
    index: *mut FInt,
    ld: *mut FInt,
) {
    const C: &str = "nga_access_ghosts";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let n = a.ndim();
        let (p, ext, lds) = framed(C, &a);
        out(C, index, index_of(C, &a, p as usize));
        for (o, &x) in ints_mut(C, dims, n).iter_mut().zip(ext.iter().rev()) {
            *o = x;
        }
        for (o, &x) in ints_mut(C, ld, n - 1).iter_mut().zip(lds.iter().rev()) {
            *o = x;
        }
    })
}

/// `subroutine nga_access_ghost_element(g_a, index, subscript, ld)`:
/// `index` of the element at `subscript` of the framed block (1 = the
/// first ghost cell) and the framed leading dimensions.
#[no_mangle]
pub extern "C" fn nga_access_ghost_element_(
    g_a: *const FInt,
    index: *mut FInt,
    subscript: *const FInt,
    ld: *mut FInt,
) {
    const C: &str = "nga_access_ghost_element";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let n = a.ndim();
        let (p, ext, lds) = framed(C, &a);
        // Fortran order, 1-based → C order, 0-based.
        let s: Vec<i64> = ints(C, subscript, n).iter().rev().map(|x| x - 1).collect();
        if (0..n).any(|k| s[k] < 0 || s[k] >= ext[k]) {
            fail(C, "subscript outside this process's framed block");
        }
        let mut off = 0i64;
        let mut stride = 1i64;
        for k in (0..n).rev() {
            off += s[k] * stride;
            stride *= ext[k];
        }
        out(
            C,
            index,
            index_of(C, &a, p as usize + off as usize * a.size()),
        );
        for (o, &x) in ints_mut(C, ld, n - 1).iter_mut().zip(lds.iter().rev()) {
            *o = x;
        }
    })
}

fn release(call: &'static str, g_a: *const FInt) {
    entry(call, || {
        Arr::get(call, g_a);
    })
}

/// `subroutine nga_release_ghosts(g_a)`: nothing to write back.
#[no_mangle]
pub extern "C" fn nga_release_ghosts_(g_a: *const FInt) {
    release("nga_release_ghosts", g_a)
}

/// `subroutine nga_release_update_ghosts(g_a)`: nothing to write back.
#[no_mangle]
pub extern "C" fn nga_release_update_ghosts_(g_a: *const FInt) {
    release("nga_release_update_ghosts", g_a)
}

/// `subroutine nga_release_ghost_element(g_a, subscript)`.
#[no_mangle]
pub extern "C" fn nga_release_ghost_element_(g_a: *const FInt, _subscript: *const FInt) {
    release("nga_release_ghost_element", g_a)
}

/// `subroutine nga_release_update_ghost_element(g_a, subscript)`.
#[no_mangle]
pub extern "C" fn nga_release_update_ghost_element_(g_a: *const FInt, _subscript: *const FInt) {
    release("nga_release_update_ghost_element", g_a)
}

/// `subroutine ga_set_ghost_corner_flag(g_a, flag)`: every update carries
/// corners here, so this only checks the handle.
#[no_mangle]
pub extern "C" fn ga_set_ghost_corner_flag_(g_a: *const FInt, _flag: *const FLog) {
    release("ga_set_ghost_corner_flag", g_a)
}

fn periodic(
    call: &'static str,
    kind: Periodic,
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    alpha: *const c_void,
    ghost_block: bool,
) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let n = a.ndim();
        let lo: Vec<i64> = ints(call, lo, n).iter().rev().map(|x| x - 1).collect();
        let hi: Vec<i64> = ints(call, hi, n).iter().rev().map(|x| x - 1).collect();
        let ld: Vec<i64> = ints(call, ld, n - 1).iter().rev().copied().collect();
        let len =
            core::periodic_len(call, a.h, &lo, &hi, &ld).unwrap_or_else(|e| fail_core(call, e));
        let r = match kind {
            Periodic::Get => {
                let b = ptr::slice_mut(buf as *mut u8, len)
                    .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
                if ghost_block {
                    core::get_ghost_block(call, a.h, &lo, &hi, b, &ld)
                } else {
                    core::periodic(call, kind, a.h, &lo, &hi, &[], Some(b), &ld, &[])
                }
            }
            Periodic::Put => {
                let b = ptr::slice(buf as *const u8, len)
                    .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
                core::periodic(call, kind, a.h, &lo, &hi, b, None, &ld, &[])
            }
            Periodic::Acc => {
                let b = ptr::slice(buf as *const u8, len)
                    .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
                core::periodic(
                    call,
                    kind,
                    a.h,
                    &lo,
                    &hi,
                    b,
                    None,
                    &ld,
                    a.value(call, alpha),
                )
            }
        };
        r.unwrap_or_else(|e| fail_core(call, e))
    })
}

/// Defines a Fortran subroutine of the periodic family `(g_a, lo, hi,
/// buf, ld)`; `alpha` marks the accumulate, which takes a scale factor
/// after `ld`.
macro_rules! periodic_call {
    ($doc:literal, $name:ident, $call:literal, $kind:expr, $ghost:expr) => {
        #[doc = $doc]
        #[no_mangle]
        pub extern "C" fn $name(
            g_a: *const FInt,
            lo: *const FInt,
            hi: *const FInt,
            buf: *mut c_void,
            ld: *const FInt,
        ) {
            let none = std::ptr::null();
            periodic($call, $kind, g_a, lo, hi, buf, ld, none, $ghost)
        }
    };
    ($doc:literal, $name:ident, $call:literal, $kind:expr, $ghost:expr, alpha) => {
        #[doc = $doc]
        #[no_mangle]
        pub extern "C" fn $name(
            g_a: *const FInt,
            lo: *const FInt,
            hi: *const FInt,
            buf: *mut c_void,
            ld: *const FInt,
            alpha: *const c_void,
        ) {
            periodic($call, $kind, g_a, lo, hi, buf, ld, alpha, $ghost)
        }
    };
}

periodic_call!(
    "`subroutine nga_periodic_get(g_a, lo, hi, buf, ld)`: `lo`/`hi` may lie \
     outside the array; each index counts modulo the extent.",
    nga_periodic_get_,
    "nga_periodic_get",
    Periodic::Get,
    false
);

periodic_call!(
    "`subroutine nga_periodic_put(g_a, lo, hi, buf, ld)`.",
    nga_periodic_put_,
    "nga_periodic_put",
    Periodic::Put,
    false
);

periodic_call!(
    "`subroutine nga_periodic_acc(g_a, lo, hi, buf, ld, alpha)`.",
    nga_periodic_acc_,
    "nga_periodic_acc",
    Periodic::Acc,
    false,
    alpha
);

periodic_call!(
    "`subroutine nga_get_ghost_block(g_a, lo, hi, buf, ld)`: from this \
     process's block and frame when the patch lies inside them, else as \
     `nga_periodic_get`.",
    nga_get_ghost_block_,
    "nga_get_ghost_block",
    Periodic::Get,
    true
);

/// `logical nga_has_ghosts(g_a)`: as `ga_has_ghosts`.
#[no_mangle]
pub extern "C" fn nga_has_ghosts_(g_a: *const FInt) -> FLog {
    ga_has_ghosts_(g_a)
}

/// `subroutine nga_update_ghosts(g_a)`: as `ga_update_ghosts`.
#[no_mangle]
pub extern "C" fn nga_update_ghosts_(g_a: *const FInt) {
    ga_update_ghosts_(g_a)
}

/// `subroutine nga_update_ghosts_nb(g_a, nbhandle)`: as
/// `ga_update_ghosts`, complete on return; `nbhandle` is set so that
/// `nga_nbwait` returns at once.
#[no_mangle]
pub extern "C" fn nga_update_ghosts_nb_(g_a: *const FInt, nbhandle: *mut FInt) {
    ga_update_ghosts_(g_a);
    entry("nga_update_ghosts_nb", || {
        out("nga_update_ghosts_nb", nbhandle, 0)
    })
}

/// `subroutine nga_nbget_ghost_dir(g_a, mask, nbhandle)`: fills the part
/// of this process's ghost frame in the direction of `mask` (per dimension
/// −1, 0 or +1, Fortran order) from the owners of the cells; done before
/// this returns, so `nbhandle` is set for `nga_nbwait` to return at once.
/// Not collective.
#[no_mangle]
pub extern "C" fn nga_nbget_ghost_dir_(g_a: *const FInt, mask: *const FInt, nbhandle: *mut FInt) {
    const C: &str = "nga_nbget_ghost_dir";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let m: Vec<i64> = ints(C, mask, a.ndim()).iter().rev().copied().collect();
        core::get_ghost_dir(C, a.h, &m).unwrap_or_else(|e| fail_core(C, e));
        out(C, nbhandle, 0)
    })
}

/// GA's numbered update methods (`ga_update1_ghosts` .. `ga_update7_ghosts`,
/// `ga_update44_ghosts`, `ga_update55_ghosts` and their `nga_` names)
/// choose among its internal algorithms; here each fills every ghost cell,
/// corners included, as `ga_update_ghosts` does. The logical ones return
/// `.true.`.
macro_rules! update_method {
    ($($name:ident),*) => {
        $(
            #[doc = concat!("`", stringify!($name), "`: see `update_method!`.")]
            #[no_mangle]
            pub extern "C" fn $name(g_a: *const FInt) -> FLog {
                ga_update_ghosts_(g_a);
                TRUE
            }
        )*
    };
}

update_method!(
    ga_update1_ghosts_,
    ga_update2_ghosts_,
    ga_update3_ghosts_,
    ga_update4_ghosts_,
    ga_update44_ghosts_,
    ga_update5_ghosts_,
    ga_update55_ghosts_,
    ga_update6_ghosts_,
    ga_update7_ghosts_,
    nga_update1_ghosts_,
    nga_update2_ghosts_,
    nga_update3_ghosts_,
    nga_update4_ghosts_,
    nga_update44_ghosts_,
    nga_update5_ghosts_,
    nga_update55_ghosts_,
    nga_update6_ghosts_,
    nga_update7_ghosts_
);

/// `subroutine ga_ghost_barrier()`: a barrier of the compute ranks.
#[no_mangle]
pub extern "C" fn ga_ghost_barrier_() {
    const C: &str = "ga_ghost_barrier";
    entry(C, || core::sync().unwrap_or_else(|e| fail_core(C, e)))
}

/// `subroutine nga_ghost_barrier()`: as `ga_ghost_barrier`.
#[no_mangle]
pub extern "C" fn nga_ghost_barrier_() {
    ga_ghost_barrier_()
}

/// `subroutine nga_set_ghost_corner_flag(g_a, flag)`: as
/// `ga_set_ghost_corner_flag`.
#[no_mangle]
pub extern "C" fn nga_set_ghost_corner_flag_(g_a: *const FInt, flag: *const FLog) {
    ga_set_ghost_corner_flag_(g_a, flag)
}

/// `logical nga_create_ghosts_irreg_config(type, ndim, dims, width, name,
/// map, nblock, p_handle, g_a)`: `nga_create_ghosts_irreg` on processor
/// group `p_handle` (collective over its members).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn nga_create_ghosts_irreg_config_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    width: *const FInt,
    name: *const c_char,
    map: *const FInt,
    nblock: *const FInt,
    p_handle: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let grp = crate::fapi::group_arg("nga_create_ghosts_irreg_config", p_handle);
    crate::core::pgroups::on_group(grp, || {
        nga_create_ghosts_irreg_(datatype, ndim, dims, width, name, map, nblock, g_a, namelen)
    })
}

/// `logical nga_create_ghosts_config(type, ndim, dims, width, name, chunk,
/// p_handle, g_a)`: `nga_create_ghosts` on processor group `p_handle`
/// (collective over its members).
#[no_mangle]
pub extern "C" fn nga_create_ghosts_config_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    width: *const FInt,
    name: *const c_char,
    chunk: *const FInt,
    p_handle: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let grp = crate::fapi::group_arg("nga_create_ghosts_config", p_handle);
    crate::core::pgroups::on_group(grp, || {
        nga_create_ghosts_(datatype, ndim, dims, width, name, chunk, g_a, namelen)
    })
}
