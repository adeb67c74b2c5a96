//! Processor groups in the GA Fortran API (gfortran conventions, `INTEGER`
//! of 8 bytes): `ga_pgroup_*` and `nga_pgroup_*`, `ga_get_pgroup`,
//! `ga_get_pgroup_size` and `ga_mpi_comm_pgroup`. Process ids are 0-based,
//! as everywhere in GA; handles and semantics as in the C API (see
//! `core::pgroups`). Bad arguments end the job as `ga_error` does.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::{self, pgroups};
use crate::fapi::{entry, fail, fail_core, flog, int, ints, out, Arr};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::{FInt, FLog};
use std::ffi::{c_char, c_void};

fn grp(call: &'static str, p: *const FInt) -> i32 {
    let g = int(call, p);
    i32::try_from(g).unwrap_or_else(|_| fail(call, format!("group handle {g} out of range")))
}

fn ok<T>(call: &'static str, r: core::GaResult<T>) -> T {
    r.unwrap_or_else(|e| fail_core(call, e))
}

macro_rules! both {
    ($ga:ident, $nga:ident, ($($a:ident: $t:ty),*) -> $r:ty, $body:expr) => {
        #[doc = concat!("`", stringify!($ga), "`; see the module header.")]
        #[allow(clippy::unused_unit)]
        #[no_mangle]
        pub extern "C" fn $ga($($a: $t),*) -> $r {
            $body
        }
        #[doc = concat!("As `", stringify!($ga), "`.")]
        #[allow(clippy::unused_unit)]
        #[no_mangle]
        pub extern "C" fn $nga($($a: $t),*) -> $r {
            $ga($($a),*)
        }
    };
}

both!(ga_pgroup_create_, nga_pgroup_create_, (list: *const FInt, count: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_create";
    entry(C, || {
        let n = int(C, count);
        if n < 1 {
            fail(C, format!("count {n} must be at least 1"));
        }
        i64::from(ok(C, pgroups::create(C, ints(C, list, n as usize))))
    })
});

both!(ga_pgroup_split_, nga_pgroup_split_, (g: *const FInt, num: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_split";
    entry(C, || i64::from(ok(C, pgroups::split_even(C, grp(C, g), int(C, num)))))
});

both!(ga_pgroup_split_irreg_, nga_pgroup_split_irreg_, (g: *const FInt, color: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_split_irreg";
    entry(C, || i64::from(ok(C, pgroups::split_color(C, grp(C, g), int(C, color)))))
});

both!(ga_pgroup_self_, nga_pgroup_self_, () -> FInt, {
    entry("ga_pgroup_self", || i64::from(pgroups::self_group()))
});

both!(ga_pgroup_duplicate_, nga_pgroup_duplicate_, (g: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_duplicate";
    entry(C, || i64::from(ok(C, pgroups::duplicate(C, grp(C, g)))))
});

both!(ga_pgroup_destroy_, nga_pgroup_destroy_, (g: *const FInt) -> FLog, {
    const C: &str = "ga_pgroup_destroy";
    entry(C, || {
        ok(C, pgroups::destroy(C, grp(C, g)));
        flog(true)
    })
});

both!(ga_pgroup_set_default_, nga_pgroup_set_default_, (g: *const FInt) -> (), {
    const C: &str = "ga_pgroup_set_default";
    entry(C, || ok(C, pgroups::set_default(C, grp(C, g))))
});

both!(ga_pgroup_get_default_, nga_pgroup_get_default_, () -> FInt, {
    entry("ga_pgroup_get_default", || i64::from(pgroups::default_group()))
});

both!(ga_pgroup_get_world_, nga_pgroup_get_world_, () -> FInt, {
    i64::from(pgroups::WORLD)
});

both!(ga_pgroup_get_mirror_, nga_pgroup_get_mirror_, () -> FInt, {
    i64::from(pgroups::MIRROR)
});

both!(ga_pgroup_nodeid_, nga_pgroup_nodeid_, (g: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_nodeid";
    entry(C, || i64::from(ok(C, pgroups::group_nodeid(C, grp(C, g)))))
});

both!(ga_pgroup_nnodes_, nga_pgroup_nnodes_, (g: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_nnodes";
    entry(C, || i64::from(ok(C, pgroups::group_nnodes(C, grp(C, g)))))
});

both!(ga_pgroup_absolute_id_, nga_pgroup_absolute_id_, (g: *const FInt, pid: *const FInt) -> FInt, {
    const C: &str = "ga_pgroup_absolute_id";
    entry(C, || i64::from(ok(C, pgroups::absolute_id(C, grp(C, g), int(C, pid)))))
});

both!(ga_pgroup_sync_, nga_pgroup_sync_, (g: *const FInt) -> (), {
    const C: &str = "ga_pgroup_sync";
    entry(C, || ok(C, pgroups::sync(C, grp(C, g))))
});

/// `subroutine ga_pgroup_brdcst(p_grp, type, buf, lenbuf, originator)`:
/// `lenbuf` bytes from group rank `originator` to the group.
#[no_mangle]
pub extern "C" fn ga_pgroup_brdcst_(
    g: *const FInt,
    _msgtype: *const FInt,
    buf: *mut c_void,
    lenbuf: *const FInt,
    originator: *const FInt,
) {
    const C: &str = "ga_pgroup_brdcst";
    entry(C, || {
        let n = int(C, lenbuf);
        if n < 0 {
            fail(C, format!("length {n} is negative"));
        }
        let b = ptr::slice_mut(buf as *mut u8, n as usize)
            .unwrap_or_else(|| fail(C, "the buffer is missing (NULL)"));
        ok(C, pgroups::brdcst(C, grp(C, g), b, int(C, originator)))
    })
}

fn gop<T: core::GopNum>(
    call: &'static str,
    g: *const FInt,
    x: *mut T,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
    integer: bool,
) {
    let n = int(call, n);
    if n < 0 {
        fail(call, format!("n = {n} is negative"));
    }
    let op = ptr::fstring(op, oplen);
    let xs = ptr::slice_mut(x, n as usize).unwrap_or_else(|| fail(call, "x is missing (NULL)"));
    ok(call, pgroups::gop(call, grp(call, g), xs, &op, integer))
}

/// `subroutine ga_pgroup_dgop(p_grp, type, x, n, op)`: element-wise
/// reduction of the double precision `x(1:n)` over the group.
#[no_mangle]
pub extern "C" fn ga_pgroup_dgop_(
    g: *const FInt,
    _msgtype: *const FInt,
    x: *mut f64,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    entry("ga_pgroup_dgop", || {
        gop("ga_pgroup_dgop", g, x, n, op, oplen, false)
    })
}

/// `subroutine ga_pgroup_sgop(p_grp, type, x, n, op)`: as
/// `ga_pgroup_dgop` for `real`.
#[no_mangle]
pub extern "C" fn ga_pgroup_sgop_(
    g: *const FInt,
    _msgtype: *const FInt,
    x: *mut f32,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    entry("ga_pgroup_sgop", || {
        gop("ga_pgroup_sgop", g, x, n, op, oplen, false)
    })
}

/// `subroutine ga_pgroup_igop(p_grp, type, x, n, op)`: as
/// `ga_pgroup_dgop` for (8-byte) `integer`.
#[no_mangle]
pub extern "C" fn ga_pgroup_igop_(
    g: *const FInt,
    _msgtype: *const FInt,
    x: *mut FInt,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    entry("ga_pgroup_igop", || {
        gop("ga_pgroup_igop", g, x, n, op, oplen, true)
    })
}

/// `integer ga_get_pgroup(g_a)`: the processor group the array lives on
/// (−1: the world).
#[no_mangle]
pub extern "C" fn ga_get_pgroup_(g_a: *const FInt) -> FInt {
    const C: &str = "ga_get_pgroup";
    entry(C, || {
        let a = Arr::get(C, g_a);
        i64::from(ok(C, core::array_group(a.h)).0)
    })
}

/// `integer ga_get_pgroup_size(p_grp)`.
#[no_mangle]
pub extern "C" fn ga_get_pgroup_size_(g: *const FInt) -> FInt {
    const C: &str = "ga_get_pgroup_size";
    entry(C, || i64::from(ok(C, pgroups::group_nnodes(C, grp(C, g)))))
}

/// `subroutine ga_mpi_comm_pgroup(comm, p_grp)`: the Fortran handle of
/// the group's MPI communicator, in `comm` (as Debian's `ga-mpi.fh`
/// describes it; this process must be in the group).
#[no_mangle]
pub extern "C" fn ga_mpi_comm_pgroup_(comm: *mut FInt, g: *const FInt) {
    const C: &str = "ga_mpi_comm_pgroup";
    entry(C, || {
        let c = ok(C, pgroups::fortran_comm(C, grp(C, g)));
        out(C, comm, c)
    })
}

/// `subroutine ga_mpi_comm_pgroup_default(comm)`: as `ga_mpi_comm_pgroup`
/// for the default group.
#[no_mangle]
pub extern "C" fn ga_mpi_comm_pgroup_default_(comm: *mut FInt) {
    const C: &str = "ga_mpi_comm_pgroup_default";
    entry(C, || {
        let c = ok(C, pgroups::fortran_comm(C, pgroups::default_group()));
        out(C, comm, c)
    })
}
