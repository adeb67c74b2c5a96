//! The Express Fortran ABI (`express.fh`), as gfortran calls it.
//!
//! # Conventions
//! - Names: Express's `KX` + four letters, lower case with a trailing `_`
//!   (`kxread_`). Every routine is an `INTEGER FUNCTION` returning what
//!   the C call returns (byte counts, ids, or a negative error code).
//! - Default `INTEGER` (4 bytes, C `int`); every argument by reference.
//! - `NODENV` of `KXPARA` is an `INTEGER` array of 4: procnum, nprocs,
//!   host, taskid.
//! - Node lists: `NNODES = ALLNODES` (0) means every node and the list
//!   argument is not read (pass any array).
//! - Grid coordinates and dimension numbers count from 0, as in C.
//! - Period and remain flags: an `INTEGER` or `LOGICAL` array, non-zero
//!   (`.TRUE.`) meaning set.
//! - User combine functions: `INTEGER FUNCTION F(A, B, SIZE)` storing
//!   `A ∘ B` into `A` (one item of `SIZE` bytes); its value is ignored.
//!   Handlers: `SUBROUTINE H(BUF, LEN, SRC, TYPE)`.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi::{self, arg, buf_in, buf_out, flags, len, ndims_arg, null, run};
use crate::coll;
use crate::error::{ExError, EXBADFUNC, EXBADLIST};
use crate::grid;
use crate::handler;
use crate::msg;
use crate::predefined;
use crate::ptr::{self, OutInt, UserBuf};
use crate::twins;
use shim_core::collective::{Elem, ReduceOp};
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// A Fortran combine function `F(A, B, SIZE)`.
pub type FCombineFn = extern "C" fn(*mut c_void, *const c_void, *const c_int);
/// A Fortran handler `H(BUF, LEN, SRC, TYPE)`.
pub type FHandlerFn = extern "C" fn(*mut c_void, *const c_int, *const c_int, *const c_int);

fn ival(call: &str, what: &str, p: *const c_int) -> Result<i32, ExError> {
    arg(call, what, p)
}

/// A strided vector's SIZE, NITEMS and STRIDE, read in that order.
fn vector(
    call: &str,
    size: *const c_int,
    nitems: *const c_int,
    stride: *const c_int,
) -> Result<msg::Strided, ExError> {
    Ok(msg::Strided {
        size: ival(call, "SIZE", size)?,
        nitems: ival(call, "NITEMS", nitems)?,
        stride: ival(call, "STRIDE", stride)?,
    })
}

/// A message's node (`node`, named `node_name` in messages) and TYPE,
/// read in that order.
fn f_envelope(
    call: &str,
    node_name: &str,
    node: *const c_int,
    ty: *const c_int,
) -> Result<twins::Envelope, ExError> {
    Ok((ival(call, node_name, node)?, ival(call, "TYPE", ty)?))
}

fn f_list<'a>(call: &str, nnodes: i32, p: *const c_int) -> Result<Option<&'a [i32]>, ExError> {
    if nnodes <= 0 {
        return Ok(None);
    }
    ptr::ints(p, nnodes as usize)
        .map(Some)
        .ok_or_else(|| ExError::new(EXBADLIST, format!("{call}: NODELIST is missing")))
}

/// `KXPARA(NODENV)`: fills NODENV(1..4) with procnum, nprocs, host,
/// taskid. Returns 0; `EXNULLBUF`, `EXSYSERR`.
#[no_mangle]
pub extern "C" fn kxpara_(env: *mut c_int) -> c_int {
    run("KXPARA", || {
        let out = ptr::ints_mut(env, 4).ok_or_else(|| null("KXPARA", "NODENV"))?;
        let e = capi::param()?;
        out.copy_from_slice(&[e.procnum, e.nprocs, e.host, e.taskid]);
        Ok(0)
    })
}

/// `KXREAD(BUF, LEN, SRC, TYPE)`: as `exread`.
#[no_mangle]
pub extern "C" fn kxread_(
    buf: *mut c_void,
    n: *const c_int,
    src: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("KXREAD", || {
        let n = ival("KXREAD", "LEN", n)?;
        let from = f_envelope("KXREAD", "SRC", src, ty)?;
        twins::read("KXREAD", (buf, n), from, (src, ty))
    })
}

/// `KXWRIT(BUF, LEN, DEST, TYPE)`: as `exwrite`.
#[no_mangle]
pub extern "C" fn kxwrit_(
    buf: *const c_void,
    n: *const c_int,
    dest: *const c_int,
    ty: *const c_int,
) -> c_int {
    run("KXWRIT", || {
        let n = ival("KXWRIT", "LEN", n)?;
        let to = f_envelope("KXWRIT", "DEST", dest, ty)?;
        twins::write("KXWRIT", buf, n, to)
    })
}

/// `KXSEND(BUF, LEN, DEST, TYPE)`: as `exsend` (returns a message id).
#[no_mangle]
pub extern "C" fn kxsend_(
    buf: *const c_void,
    n: *const c_int,
    dest: *const c_int,
    ty: *const c_int,
) -> c_int {
    run("KXSEND", || {
        let n = ival("KXSEND", "LEN", n)?;
        let to = f_envelope("KXSEND", "DEST", dest, ty)?;
        twins::send("KXSEND", buf, n, to)
    })
}

/// `KXRECV(BUF, LEN, SRC, TYPE)`: as `exreceive` (returns a message id;
/// BUF, SRC and TYPE are written when it completes).
#[no_mangle]
pub extern "C" fn kxrecv_(
    buf: *mut c_void,
    n: *const c_int,
    src: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("KXRECV", || {
        let n = len("KXRECV", "LEN", ival("KXRECV", "LEN", n)?)?;
        let from = f_envelope("KXRECV", "SRC", src, ty)?;
        // SAFETY: Express's contract for KXRECV: BUF, SRC and TYPE stay
        // valid until the receive completes.
        let (b, so, to) = unsafe { (UserBuf::new(buf, n), OutInt::new(src), OutInt::new(ty)) };
        twins::receive("KXRECV", (b, "BUF"), from, (so, to))
    })
}

/// `KXTEST(SRC, TYPE)`: as `extest`.
#[no_mangle]
pub extern "C" fn kxtest_(src: *mut c_int, ty: *mut c_int) -> c_int {
    run("KXTEST", || {
        let from = f_envelope("KXTEST", "SRC", src, ty)?;
        twins::test("KXTEST", from, (src, ty))
    })
}

/// `KXMTST(ID)`: as `exmsgtest`.
#[no_mangle]
pub extern "C" fn kxmtst_(id: *const c_int) -> c_int {
    run("KXMTST", || {
        let id = ival("KXMTST", "ID", id)?;
        Ok(msg::msg_test("KXMTST", id)? as c_int)
    })
}

/// `KXWAIT(ID)`: as `exmsgwait`.
#[no_mangle]
pub extern "C" fn kxwait_(id: *const c_int) -> c_int {
    run("KXWAIT", || {
        let id = ival("KXWAIT", "ID", id)?;
        Ok(msg::msg_wait("KXWAIT", id)? as c_int)
    })
}

/// `KXCHAN(IN, INLEN, SRC, SRCTYP, OUT, OUTLEN, DEST, DSTTYP)`: as `exchange`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn kxchan_(
    inbuf: *mut c_void,
    inlen: *const c_int,
    src: *mut c_int,
    srctype: *mut c_int,
    out: *const c_void,
    outlen: *const c_int,
    dest: *const c_int,
    desttype: *const c_int,
) -> c_int {
    run("KXCHAN", || {
        let il = ival("KXCHAN", "INLEN", inlen)?;
        let ol = ival("KXCHAN", "OUTLEN", outlen)?;
        let s = ival("KXCHAN", "SRC", src)?;
        let st = ival("KXCHAN", "SRCTYP", srctype)?;
        let d = ival("KXCHAN", "DEST", dest)?;
        let dt = ival("KXCHAN", "DSTTYP", desttype)?;
        let from = ((s, st), (src, srctype));
        twins::exchange("KXCHAN", (inbuf, il), from, (out, ol), (d, dt))
    })
}

/// `KXVWRI(BUF, SIZE, NITEMS, STRIDE, DEST, TYPE)`: as `exvwrite`
/// (SIZE and STRIDE in bytes).
#[no_mangle]
pub extern "C" fn kxvwri_(
    buf: *const c_void,
    size: *const c_int,
    nitems: *const c_int,
    stride: *const c_int,
    dest: *const c_int,
    ty: *const c_int,
) -> c_int {
    run("KXVWRI", || {
        let v = vector("KXVWRI", size, nitems, stride)?;
        let to = f_envelope("KXVWRI", "DEST", dest, ty)?;
        twins::vwrite("KXVWRI", buf, v, to)
    })
}

/// `KXVREA(BUF, SIZE, NITEMS, STRIDE, SRC, TYPE)`: as `exvread`.
#[no_mangle]
pub extern "C" fn kxvrea_(
    buf: *mut c_void,
    size: *const c_int,
    nitems: *const c_int,
    stride: *const c_int,
    src: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("KXVREA", || {
        let v = vector("KXVREA", size, nitems, stride)?;
        let from = f_envelope("KXVREA", "SRC", src, ty)?;
        twins::vread("KXVREA", buf, v, from, (src, ty))
    })
}

/// `KXSYNC()`: as `exsync`.
#[no_mangle]
pub extern "C" fn kxsync_() -> c_int {
    run("KXSYNC", || coll::sync("KXSYNC").map(|_| 0))
}

/// `KXBROD(BUF, LEN, SRC, NNODES, NODELIST, TYPE)`: as `exbroadcast`.
#[no_mangle]
pub extern "C" fn kxbrod_(
    buf: *mut c_void,
    n: *const c_int,
    src: *const c_int,
    nnodes: *const c_int,
    nodelist: *const c_int,
    _ty: *const c_int,
) -> c_int {
    run("KXBROD", || {
        let n = ival("KXBROD", "LEN", n)?;
        let s = ival("KXBROD", "SRC", src)?;
        let nn = ival("KXBROD", "NNODES", nnodes)?;
        let b = buf_out("KXBROD", buf, n)?;
        let l = f_list("KXBROD", nn, nodelist)?;
        twins::broadcast("KXBROD", (b, "BUF"), s, (nn, l))
    })
}

macro_rules! predefined_f {
    ($($c:ident, $name:ident, $elem:expr, $op:expr;)*) => {
        $(
            /// A predefined Fortran combine function (see `express.fh`);
            /// called directly, combines one item of SIZE bytes into A.
            /// Returns 0, or `EXNULLBUF` for a missing A or B.
            #[no_mangle]
            pub extern "C" fn $name(a: *mut c_void, b: *const c_void, size: *const c_int) -> c_int {
                let n = ptr::get(size).unwrap_or(0).max(0) as usize;
                predefined::call_directly(stringify!($name), ($elem, $op), a, b, n)
            }
        )*

        fn predefined_f(f: usize) -> Option<(Elem, ReduceOp)> {
            $( if f == $name as extern "C" fn(*mut c_void, *const c_void, *const c_int) -> c_int as usize { return Some(($elem, $op)); } )*
            None
        }
    };
}

predefined::predefined_table!(predefined_f);

/// `KXCOMB(BUF, FUNC, SIZE, NITEMS, NNODES, NODELIST, TYPE)`: as
/// `excombine`; FUNC is a predefined `KX...` function or a user
/// `INTEGER FUNCTION F(A, B, SIZE)`.
#[no_mangle]
pub extern "C" fn kxcomb_(
    buf: *mut c_void,
    func: Option<FCombineFn>,
    size: *const c_int,
    nitems: *const c_int,
    nnodes: *const c_int,
    nodelist: *const c_int,
    _ty: *const c_int,
) -> c_int {
    run("KXCOMB", || {
        let call = "KXCOMB";
        let Some(func) = func else {
            return Err(ExError::new(EXBADFUNC, "KXCOMB: FUNC is missing"));
        };
        let sz = ival(call, "SIZE", size)?;
        let n = ival(call, "NITEMS", nitems)?;
        let nn = ival(call, "NNODES", nnodes)?;
        let total = twins::combined_bytes(sz, n, || {
            format!("KXCOMB: SIZE {sz}, NITEMS {n} out of range")
        })?;
        let b = ptr::bytes_mut(buf, total).ok_or_else(|| null(call, "BUF"))?;
        let l = f_list(call, nn, nodelist)?;
        let addr = func as usize;
        let predefined = predefined_f(addr).or_else(|| capi::predefined_c(addr));
        let user = |a: &mut [u8], b: &[u8]| {
            let s = a.len() as c_int;
            func(
                a.as_mut_ptr() as *mut c_void,
                b.as_ptr() as *const c_void,
                &s,
            );
        };
        twins::combine(call, (b, sz, n), (nn, l), predefined, user)
    })
}

/// `KXCONC(IN, INLEN, OUT, OUTLEN, NNODES, NODELIST, TYPE)`: as `exconcat`.
#[no_mangle]
pub extern "C" fn kxconc_(
    inbuf: *const c_void,
    inlen: *const c_int,
    out: *mut c_void,
    outlen: *const c_int,
    nnodes: *const c_int,
    nodelist: *const c_int,
    _ty: *const c_int,
) -> c_int {
    run("KXCONC", || {
        let il = ival("KXCONC", "INLEN", inlen)?;
        let ol = ival("KXCONC", "OUTLEN", outlen)?;
        let nn = ival("KXCONC", "NNODES", nnodes)?;
        let i = buf_in("KXCONC", inbuf, il)?;
        let o = buf_out("KXCONC", out, ol)?;
        let l = f_list("KXCONC", nn, nodelist)?;
        Ok(coll::concat_into("KXCONC", i, o, nn, l)? as c_int)
    })
}

/// `KXHAND(FUNC, SRC, TYPE)`: as `exhandle`; FUNC is a
/// `SUBROUTINE H(BUF, LEN, SRC, TYPE)`.
#[no_mangle]
pub extern "C" fn kxhand_(func: Option<FHandlerFn>, src: *const c_int, ty: *const c_int) -> c_int {
    run("KXHAND", || {
        let s = ival("KXHAND", "SRC", src)?;
        let t = ival("KXHAND", "TYPE", ty)?;
        let f = func.map(|f| {
            Arc::new(move |data: &mut [u8], s: i32, t: i32| {
                let n = data.len() as c_int;
                f(data.as_mut_ptr() as *mut c_void, &n, &s, &t)
            }) as handler::HandlerFn
        });
        twins::handle("KXHAND", f, (s, t))
    })
}

/// `KXGINI(NDIM, DIMS, PERIOD)`: as `exgridinit` (PERIOD is required).
#[no_mangle]
pub extern "C" fn kxgini_(ndim: *const c_int, dims: *mut c_int, periods: *const c_int) -> c_int {
    run("KXGINI", || {
        let n = ndims_arg("KXGINI", ival("KXGINI", "NDIM", ndim)?)?;
        let d = ptr::ints_mut(dims, n).ok_or_else(|| null("KXGINI", "DIMS"))?;
        let p = flags("KXGINI", periods, n)?;
        grid::init("KXGINI", d, &p)
    })
}

/// `KXGSIZ(NNODES, NDIM, DIMS)`: as `exgridsize`.
#[no_mangle]
pub extern "C" fn kxgsiz_(nnodes: *const c_int, ndim: *const c_int, dims: *mut c_int) -> c_int {
    run("KXGSIZ", || {
        let nn = ival("KXGSIZ", "NNODES", nnodes)?;
        let n = ndims_arg("KXGSIZ", ival("KXGSIZ", "NDIM", ndim)?)?;
        let d = ptr::ints_mut(dims, n).ok_or_else(|| null("KXGSIZ", "DIMS"))?;
        grid::size("KXGSIZ", nn, d).map(|_| 0)
    })
}

/// `KXGSPL(GRID, REMAIN)`: as `exgridsplit`.
#[no_mangle]
pub extern "C" fn kxgspl_(grid: *const c_int, remain: *const c_int) -> c_int {
    run("KXGSPL", || {
        let g = ival("KXGSPL", "GRID", grid)?;
        let n = grid::ndims("KXGSPL", g)?;
        let r = flags("KXGSPL", remain, n)?;
        grid::split("KXGSPL", g, &r)
    })
}

/// `KXGDIM(GRID, DIMS)`: as `exgriddims`.
#[no_mangle]
pub extern "C" fn kxgdim_(grid: *const c_int, dims: *mut c_int) -> c_int {
    run("KXGDIM", || {
        let g = ival("KXGDIM", "GRID", grid)?;
        let s = grid::shape("KXGDIM", g)?;
        let d = ptr::ints_mut(dims, s.len()).ok_or_else(|| null("KXGDIM", "DIMS"))?;
        d.copy_from_slice(&s);
        Ok(s.len() as c_int)
    })
}

/// `KXGCRD(GRID, NODE, COORDS)`: as `exgridcoord`.
#[no_mangle]
pub extern "C" fn kxgcrd_(grid: *const c_int, node: *const c_int, coords: *mut c_int) -> c_int {
    run("KXGCRD", || {
        let g = ival("KXGCRD", "GRID", grid)?;
        let nd = ival("KXGCRD", "NODE", node)?;
        twins::grid_coord("KXGCRD", g, nd, (coords, "COORDS"))
    })
}

/// `KXGNOD(GRID, COORDS)`: as `exgridnode`.
#[no_mangle]
pub extern "C" fn kxgnod_(grid: *const c_int, coords: *const c_int) -> c_int {
    run("KXGNOD", || {
        let g = ival("KXGNOD", "GRID", grid)?;
        twins::grid_node("KXGNOD", g, (coords, "COORDS"))
    })
}

/// `KXGSHF(GRID, DIM, DISP, SRC, DEST)`: as `exgridshift`.
#[no_mangle]
pub extern "C" fn kxgshf_(
    grid: *const c_int,
    dim: *const c_int,
    disp: *const c_int,
    src: *mut c_int,
    dest: *mut c_int,
) -> c_int {
    run("KXGSHF", || {
        let g = ival("KXGSHF", "GRID", grid)?;
        let dm = ival("KXGSHF", "DIM", dim)?;
        let dp = ival("KXGSHF", "DISP", disp)?;
        twins::grid_shift("KXGSHF", (g, dm, dp), (src, dest), "SRC or DEST")
    })
}

/// `KXGNBR(GRID, DIM, DIR)`: as `exgridnbr`.
#[no_mangle]
pub extern "C" fn kxgnbr_(grid: *const c_int, dim: *const c_int, dir: *const c_int) -> c_int {
    run("KXGNBR", || {
        let g = ival("KXGNBR", "GRID", grid)?;
        let dm = ival("KXGNBR", "DIM", dim)?;
        let dr = ival("KXGNBR", "DIR", dir)?;
        twins::grid_neighbour("KXGNBR", g, dm, (dr, "DIR"))
    })
}
