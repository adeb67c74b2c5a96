//! The C ABI of PVM's group library (libgpvm3): group membership, barrier,
//! broadcast, reduce, scatter and gather, and the reduce operators
//! `PvmSum`, `PvmMax`, `PvmMin`, `PvmProduct` (also under their Fortran
//! names `pvmsum_`, ...).
//!
//! As in libgpvm3, the membership calls, barrier, freeze and broadcast only
//! set `pvm_errno` on failure; reduce, scatter and gather also report the
//! error as `PvmAutoErr` says. No panic crosses into C.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::bad;
use crate::consts::{dt, err};
use crate::groups;
use crate::ptr;
use crate::state::{blocking, finish, finish_quiet};
use crate::tev::{self, ev};
use crate::{PvmError, PvmResult};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int, c_long, c_void};

/// A reduce function: `func(&datatype, x, y, &num, &info)` folds the `num`
/// items of `y` into `x` and sets `info` (< 0 on error).
pub type ReduceFn =
    unsafe extern "C" fn(*mut c_int, *mut c_void, *mut c_void, *mut c_int, *mut c_int);

/// A group call that only sets `pvm_errno` when it fails.
fn quiet(name: &str, f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    guard(name, err::SYS_ERR, || finish_quiet(f()))
}

/// A group call whose failures are reported like libpvm's.
fn reported(name: &str, f: impl FnOnce() -> PvmResult<i32>) -> c_int {
    guard(name, err::SYS_ERR, || finish(name, f()))
}

/// The group name argument: NULL or "" is PvmNullGroup.
fn group_name<'a>(group: *const c_char) -> PvmResult<&'a [u8]> {
    match ptr::c_str(group) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(PvmError(err::NULL_GROUP)),
    }
}

/// Bytes per item of a datatype the collectives accept (STR, BYTE ...
/// DCPLX, LONG); unsigned and unknown types are PvmBadParam.
fn item_size(datatype: c_int) -> PvmResult<usize> {
    match datatype {
        dt::STR..=dt::LONG => crate::pack::datatype_size(datatype).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The byte length of `count` items, checked.
fn byte_len(count: c_int, datatype: c_int) -> PvmResult<usize> {
    if count <= 0 {
        return Err(bad());
    }
    (count as usize)
        .checked_mul(item_size(datatype)?)
        .ok_or_else(bad)
}

/// A copy of `len` bytes at `addr` (memory the caller passed).
fn copy_in(addr: usize, len: usize) -> PvmResult<Vec<u8>> {
    ptr::items(addr as *const u8, len, 1)
        .map(<[u8]>::to_vec)
        .ok_or_else(bad)
}

/// Writes `bytes` (at most `len`) to `addr` (memory the caller passed).
fn copy_out(addr: usize, len: usize, bytes: &[u8]) -> PvmResult<()> {
    let out = ptr::items_mut(addr as *mut u8, len, 1).ok_or_else(bad)?;
    let n = bytes.len().min(len);
    out[..n].copy_from_slice(&bytes[..n]);
    Ok(())
}

/// Joins `group`; returns the instance number (the lowest free one), or
/// PvmNullGroup, PvmDupGroup (already a member), PvmNotInGroup (the group
/// is frozen), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_joingroup(group: *mut c_char) -> c_int {
    quiet("pvm_joingroup", || {
        let name = group_name(group)?;
        tev::group_call(ev::JOINGROUP, "joingroup", name);
        blocking(|t| groups::join(t, name))
    })
}

/// Leaves `group` (deleted with its last member). Returns PvmOk, or
/// PvmNullGroup, PvmNoGroup, PvmNotInGroup, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_lvgroup(group: *mut c_char) -> c_int {
    quiet("pvm_lvgroup", || {
        let name = group_name(group)?;
        tev::group_call(ev::LVGROUP, "lvgroup", name);
        blocking(|t| groups::leave(t, name)).map(|_| 0)
    })
}

/// The current number of members of `group`, or PvmNullGroup, PvmNoGroup,
/// PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_gsize(group: *mut c_char) -> c_int {
    quiet("pvm_gsize", || {
        let name = group_name(group)?;
        blocking(|t| groups::gsize(t, name))
    })
}

/// Group calls of one shape, `pvm_NAME(group, n)`: a group name and one
/// int, failures only setting `pvm_errno` (as libgpvm3's).
macro_rules! group_int_calls {
    ($($(#[$doc:meta])* $fname:ident($arg:ident) => $domain:ident;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $fname(group: *mut c_char, $arg: c_int) -> c_int {
            quiet(stringify!($fname), || {
                let name = group_name(group)?;
                blocking(|t| groups::$domain(t, name, $arg))
            })
        }
    )*};
}

group_int_calls! {
    /// The instance number of task `tid` in `group` (any task may ask), or
    /// PvmNullGroup, PvmBadParam (not a task id), PvmNoGroup, PvmNotInGroup,
    /// PvmSysErr.
    pvm_getinst(tid) => getinst;
    /// The tid of instance `inst` of `group`, or PvmNullGroup, PvmNoGroup,
    /// PvmNoInst (no such instance), PvmSysErr.
    pvm_gettid(inst) => gettid;
    /// Makes `group` static once every member called this and it has `size`
    /// members (-1: its size now). Returns PvmOk, or PvmNullGroup, PvmBadParam
    /// (size < 1 other than -1), PvmDupGroup (already frozen), PvmNoGroup,
    /// PvmNotInGroup, PvmSysErr.
    pvm_freezegroup(size) => freeze;
}

/// Waits until `count` members of `group` called it (-1: the group's size
/// when the first caller arrived). Returns PvmOk, or PvmNullGroup,
/// PvmBadParam (count < 1 other than -1), PvmMismatch (another count is
/// pending), PvmNoGroup (unknown, or a frozen group a member left),
/// PvmNotInGroup, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_barrier(group: *mut c_char, count: c_int) -> c_int {
    quiet("pvm_barrier", || {
        let name = group_name(group)?;
        tev::group_call(ev::BARRIER, "barrier", name);
        blocking(|t| groups::barrier(t, name, count))
    })
}

/// Sends the active send buffer to every member of `group` except the
/// caller (who need not be a member), with tag `msgtag`. Returns PvmOk, or
/// PvmNullGroup, PvmBadParam (negative tag), PvmNoGroup, PvmNoInst (the
/// caller is the only member), PvmNoBuf, PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_bcast(group: *mut c_char, msgtag: c_int) -> c_int {
    quiet("pvm_bcast", || {
        let name = group_name(group)?;
        tev::group_call(ev::BCAST, "bcast", name);
        blocking(|t| groups::bcast(t, name, msgtag, ptr::IN_PLACE)).map(|_| 0)
    })
}

/// Folds `x` and `y` with a reduce function, `y` copied to aligned
/// scratch memory first.
fn apply(func: ReduceFn, datatype: c_int, x: usize, count: c_int, y: &[u8]) -> PvmResult<()> {
    // Eight-byte words: aligned for every PVM datatype.
    let mut scratch: Vec<u64> = y
        .chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_ne_bytes(w)
        })
        .collect();
    let (mut d, mut n, mut info) = (datatype, count, 0);
    // SAFETY: `func` is the caller's reduce function, called as PVM's
    // contract says: `x` is the caller's data array (checked non-NULL,
    // `count` items of `datatype`), `y` holds as many bytes of the same type
    // in our own aligned buffer, and the three int pointers are locals.
    unsafe {
        func(
            &mut d,
            x as *mut c_void,
            scratch.as_mut_ptr() as *mut c_void,
            &mut n,
            &mut info,
        )
    };
    if info < 0 {
        Err(PvmError(info))
    } else {
        Ok(())
    }
}

/// Reduces `count` items of `datatype` in `data` over `group` with `func`
/// (PvmSum, PvmMax, PvmMin, PvmProduct or the caller's own); the result
/// lands in the `data` of instance `rootinst` only (other members' data is
/// left as it was). Only the root waits. Returns PvmOk, or PvmBadParam
/// (NULL func or data, count < 1, negative tag, unsupported datatype, or
/// `func` refused the datatype), PvmNullGroup, PvmNoGroup, PvmNoInst (the
/// caller or the root is not a member), PvmMismatch (members passed
/// different counts), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_reduce(
    func: Option<ReduceFn>,
    data: *mut c_void,
    count: c_int,
    datatype: c_int,
    msgtag: c_int,
    group: *mut c_char,
    rootinst: c_int,
) -> c_int {
    reported("pvm_reduce", || {
        let func = func.ok_or_else(bad)?;
        if data.is_null() {
            return Err(bad());
        }
        let len = byte_len(count, datatype)?;
        let name = group_name(group)?;
        tev::group_call(ev::REDUCE, "reduce", name);
        let addr = data as usize;
        copy_in(addr, len)?;
        let mine = || copy_in(addr, len).unwrap_or_default();
        let mut combine = |y: &[u8]| apply(func, datatype, addr, count, y);
        blocking(|t| groups::reduce(t, name, msgtag, rootinst, len, &mine, &mut combine)).map(|_| 0)
    })
}

/// Sends `count` items of `datatype` from the root's `data` at offset
/// `i*count` to member `i`'s `result` (the root's own part included).
/// Returns PvmOk, or PvmBadParam (NULL result, NULL data on the root,
/// count < 1, negative tag, unsupported datatype), PvmNullGroup,
/// PvmNoGroup, PvmNoInst (the caller or the root is not a member, or the
/// instances have gaps), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_scatter(
    result: *mut c_void,
    data: *mut c_void,
    count: c_int,
    datatype: c_int,
    msgtag: c_int,
    group: *mut c_char,
    rootinst: c_int,
) -> c_int {
    reported("pvm_scatter", || {
        if result.is_null() {
            return Err(bad());
        }
        let len = byte_len(count, datatype)?;
        let name = group_name(group)?;
        tev::group_call(ev::SCATTER, "scatter", name);
        let (out, src) = (result as usize, data as usize);
        copy_out(out, len, &[])?;
        let part = |i: usize| {
            if src == 0 {
                return Err(bad());
            }
            let at = i.checked_mul(len).and_then(|o| src.checked_add(o));
            copy_in(at.ok_or_else(bad)?, len)
        };
        let mut keep = |b: &[u8]| {
            let _ = copy_out(out, len, b);
        };
        blocking(|t| groups::scatter(t, name, msgtag, rootinst, &part, &mut keep)).map(|_| 0)
    })
}

/// Sends `count` items of `datatype` from every member's `data` to the
/// root, which stores member `i`'s items in its `result` at offset
/// `i*count`. Only the root waits. Returns PvmOk, or PvmBadParam (NULL
/// data, NULL result on the root, count < 1, negative tag, unsupported
/// datatype), PvmNullGroup, PvmNoGroup, PvmNoInst (the caller or the root
/// is not a member, or the instances have gaps), PvmSysErr.
#[no_mangle]
pub extern "C" fn pvm_gather(
    result: *mut c_void,
    data: *mut c_void,
    count: c_int,
    datatype: c_int,
    msgtag: c_int,
    group: *mut c_char,
    rootinst: c_int,
) -> c_int {
    reported("pvm_gather", || {
        if data.is_null() {
            return Err(bad());
        }
        let len = byte_len(count, datatype)?;
        let name = group_name(group)?;
        tev::group_call(ev::GATHER, "gather", name);
        let (out, src) = (result as usize, data as usize);
        copy_in(src, len)?;
        let mine = || copy_in(src, len).unwrap_or_default();
        let mut place = |i: usize, b: &[u8]| {
            if out == 0 {
                return Err(bad());
            }
            let at = i.checked_mul(len).and_then(|o| out.checked_add(o));
            copy_out(at.ok_or_else(bad)?, len, b)
        };
        blocking(|t| groups::gather(t, name, msgtag, rootinst, &mine, &mut place)).map(|_| 0)
    })
}

// ---------------------------------------------------------------------------
// Reduce operators.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Sum,
    Product,
    Max,
    Min,
}

/// `x[i] = f(x[i], y[i])` for `n` items of `T`. Returns PvmOk, or
/// PvmBadParam for NULL arrays.
fn fold<T: Copy>(x: *mut c_void, y: *mut c_void, n: usize, f: impl Fn(T, T) -> T) -> i32 {
    // `y` is copied first, so `x` and `y` may even be the same array.
    let Some(ys) = ptr::items(y as *const T, n, 1).map(<[T]>::to_vec) else {
        return err::BAD_PARAM;
    };
    let Some(xs) = ptr::items_mut(x as *mut T, n, 1) else {
        return err::BAD_PARAM;
    };
    for (a, b) in xs.iter_mut().zip(ys) {
        *a = f(*a, b);
    }
    err::OK
}

/// Bigger (Max) or smaller (Min), as C's `a > b ? a : b` compares.
fn pick<T: PartialOrd>(op: Op, a: T, b: T) -> T {
    let keep_a = match op {
        Op::Max => a > b,
        _ => a < b,
    };
    if keep_a {
        a
    } else {
        b
    }
}

/// Complex Max/Min: `y` replaces `x` when its modulus is bigger (smaller).
fn pick_modulus<F: Copy + PartialOrd + std::ops::Mul<Output = F> + std::ops::Add<Output = F>>(
    op: Op,
    a: [F; 2],
    b: [F; 2],
) -> [F; 2] {
    let (ma, mb) = (a[0] * a[0] + a[1] * a[1], b[0] * b[0] + b[1] * b[1]);
    let take_b = match op {
        Op::Max => mb > ma,
        _ => mb < ma,
    };
    if take_b {
        b
    } else {
        a
    }
}

fn cplx_mul<
    F: Copy + std::ops::Mul<Output = F> + std::ops::Add<Output = F> + std::ops::Sub<Output = F>,
>(
    a: [F; 2],
    b: [F; 2],
) -> [F; 2] {
    [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]]
}

macro_rules! int_op {
    ($op:expr, $x:expr, $y:expr, $n:expr, $t:ty) => {
        match $op {
            Op::Sum => fold::<$t>($x, $y, $n, |a, b| a.wrapping_add(b)),
            Op::Product => fold::<$t>($x, $y, $n, |a, b| a.wrapping_mul(b)),
            m => fold::<$t>($x, $y, $n, move |a, b| pick(m, a, b)),
        }
    };
}

macro_rules! float_op {
    ($op:expr, $x:expr, $y:expr, $n:expr, $t:ty) => {
        match $op {
            Op::Sum => fold::<$t>($x, $y, $n, |a, b| a + b),
            Op::Product => fold::<$t>($x, $y, $n, |a, b| a * b),
            m => fold::<$t>($x, $y, $n, move |a, b| pick(m, a, b)),
        }
    };
}

macro_rules! cplx_op {
    ($op:expr, $x:expr, $y:expr, $n:expr, $t:ty) => {
        match $op {
            Op::Sum => fold::<[$t; 2]>($x, $y, $n, |a, b| [a[0] + b[0], a[1] + b[1]]),
            Op::Product => fold::<[$t; 2]>($x, $y, $n, cplx_mul),
            m => fold::<[$t; 2]>($x, $y, $n, move |a, b| pick_modulus(m, a, b)),
        }
    };
}

/// One reduce operator over `*num` items of `*datatype`; the PVM code for
/// `*info`.
fn operate(op: Op, datatype: *mut c_int, x: *mut c_void, y: *mut c_void, num: *mut c_int) -> i32 {
    let (Some(&[d]), Some(&[n])) = (ptr::items(datatype, 1, 1), ptr::items(num, 1, 1)) else {
        return err::BAD_PARAM;
    };
    let n = usize::try_from(n).unwrap_or(0);
    let arith = matches!(op, Op::Sum | Op::Product);
    match d {
        dt::BYTE if !arith => int_op!(op, x, y, n, c_char),
        dt::SHORT => int_op!(op, x, y, n, i16),
        dt::INT => int_op!(op, x, y, n, i32),
        dt::LONG => int_op!(op, x, y, n, c_long),
        dt::FLOAT => float_op!(op, x, y, n, f32),
        dt::DOUBLE => float_op!(op, x, y, n, f64),
        dt::CPLX => cplx_op!(op, x, y, n, f32),
        dt::DCPLX => cplx_op!(op, x, y, n, f64),
        // BYTE for Sum/Product, STR, the unsigned types, unknown codes.
        _ => err::BAD_PARAM,
    }
}

macro_rules! operator {
    ($(#[$doc:meta])* $name:ident, $fortran:ident, $op:expr) => {
        $(#[$doc])*
        #[no_mangle]
        #[allow(non_snake_case)]
        pub extern "C" fn $name(
            datatype: *mut c_int,
            x: *mut c_void,
            y: *mut c_void,
            num: *mut c_int,
            info: *mut c_int,
        ) {
            guard(stringify!($name), (), || {
                ptr::put(info, operate($op, datatype, x, y, num))
            })
        }

        #[doc = concat!("Fortran name of [`", stringify!($name), "`] (`external ", stringify!($name), "`), same arguments.")]
        #[no_mangle]
        pub extern "C" fn $fortran(
            datatype: *mut c_int,
            x: *mut c_void,
            y: *mut c_void,
            num: *mut c_int,
            info: *mut c_int,
        ) {
            $name(datatype, x, y, num, info)
        }
    };
}

operator!(
    /// `x[i] += y[i]` for `*num` items of `*datatype` (SHORT, INT, LONG,
    /// FLOAT, DOUBLE, CPLX, DCPLX; integers wrap). `*info`: PvmOk, or
    /// PvmBadParam (BYTE, STR, unsigned or unknown types).
    PvmSum,
    pvmsum_,
    Op::Sum
);
operator!(
    /// `x[i] *= y[i]` for `*num` items of `*datatype` (SHORT, INT, LONG,
    /// FLOAT, DOUBLE, CPLX, DCPLX as complex products; integers wrap).
    /// `*info`: PvmOk, or PvmBadParam (BYTE, STR, unsigned or unknown
    /// types).
    PvmProduct,
    pvmproduct_,
    Op::Product
);
operator!(
    /// `x[i] = max(x[i], y[i])` for `*num` items of `*datatype` (BYTE,
    /// SHORT, INT, LONG, FLOAT, DOUBLE; CPLX and DCPLX by modulus).
    /// `*info`: PvmOk, or PvmBadParam (STR, unsigned or unknown types).
    PvmMax,
    pvmmax_,
    Op::Max
);
operator!(
    /// `x[i] = min(x[i], y[i])` for `*num` items of `*datatype` (BYTE,
    /// SHORT, INT, LONG, FLOAT, DOUBLE; CPLX and DCPLX by modulus).
    /// `*info`: PvmOk, or PvmBadParam (STR, unsigned or unknown types).
    PvmMin,
    pvmmin_,
    Op::Min
);

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T: Copy>(
        f: extern "C" fn(*mut c_int, *mut c_void, *mut c_void, *mut c_int, *mut c_int),
        d: c_int,
        x: &mut [T],
        y: &mut [T],
    ) -> c_int {
        let (mut d, mut n, mut info) = (d, x.len() as c_int, 1);
        f(
            &mut d,
            x.as_mut_ptr() as *mut c_void,
            y.as_mut_ptr() as *mut c_void,
            &mut n,
            &mut info,
        );
        info
    }

    #[test]
    fn sums_and_products() {
        let (mut x, mut y) = ([1i32, 2, 3], [10i32, 20, 30]);
        assert_eq!(run(PvmSum, dt::INT, &mut x, &mut y), 0);
        assert_eq!(x, [11, 22, 33]);
        let (mut x, mut y) = ([1.5f64, 2.0], [2.0f64, -1.0]);
        assert_eq!(run(PvmProduct, dt::DOUBLE, &mut x, &mut y), 0);
        assert_eq!(x, [3.0, -2.0]);
        let (mut x, mut y) = ([[1.0f32, 2.0]], [[3.0f32, 4.0]]);
        assert_eq!(run(PvmProduct, dt::CPLX, &mut x, &mut y), 0);
        assert_eq!(x, [[-5.0, 10.0]]);
        let (mut x, mut y) = ([1i64 << 40], [1i64 << 40]);
        assert_eq!(run(pvmsum_, dt::LONG, &mut x, &mut y), 0);
        assert_eq!(x, [1i64 << 41]);
    }

    #[test]
    fn max_min_and_complex_modulus() {
        let (mut x, mut y) = ([1i16, 9, -3], [5i16, 2, -4]);
        assert_eq!(run(PvmMax, dt::SHORT, &mut x, &mut y), 0);
        assert_eq!(x, [5, 9, -3]);
        let (mut x, mut y) = ([3i8, -7], [-2i8, 4]);
        assert_eq!(run(PvmMin, dt::BYTE, &mut x, &mut y), 0);
        assert_eq!(x, [-2, -7]);
        let (mut x, mut y) = ([[3.0f64, 4.0], [0.0, 1.0]], [[-6.0f64, 0.0], [0.5, 0.5]]);
        assert_eq!(run(PvmMax, dt::DCPLX, &mut x, &mut y), 0);
        assert_eq!(x, [[-6.0, 0.0], [0.0, 1.0]]);
        assert_eq!(run(PvmMin, dt::DCPLX, &mut x, &mut y), 0);
        assert_eq!(x, [[-6.0, 0.0], [0.5, 0.5]]);
    }

    #[test]
    fn refused_types() {
        let (mut x, mut y) = ([1u8], [2u8]);
        assert_eq!(run(PvmSum, dt::BYTE, &mut x, &mut y), err::BAD_PARAM);
        assert_eq!(run(PvmProduct, dt::BYTE, &mut x, &mut y), err::BAD_PARAM);
        assert_eq!(run(PvmMax, dt::STR, &mut x, &mut y), err::BAD_PARAM);
        let (mut x, mut y) = ([1u32], [2u32]);
        assert_eq!(run(PvmMax, dt::UINT, &mut x, &mut y), err::BAD_PARAM);
        assert_eq!(run(PvmSum, 99, &mut x, &mut y), err::BAD_PARAM);
        assert_eq!(x, [1]);
    }
}
