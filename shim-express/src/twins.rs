//! What the C entry ([`crate::capi`]) and the Fortran entry
//! ([`crate::fapi`]) of one Express call share once each has read its
//! scalar arguments (by value in C, by reference in Fortran, each in its
//! own order and with its own messages): the buffers, the call into
//! `msg`, `coll`, `grid` or `handler`, and what is written back. `call`
//! names the entry in error messages (`exread`, `KXREAD`); where C and
//! Fortran name an argument differently, the entry passes the name.

use crate::capi::{buf_in, buf_out, null, received};
use crate::coll::{self, Combiner};
use crate::error::{ExError, ExResult, EXBADARG, EXBADLEN, EXNOMSG, EXTOOLONG};
use crate::grid;
use crate::handler;
use crate::msg::{self, Strided};
use crate::ptr::{self, OutInt, UserBuf};
use shim_core::collective::{Elem, ReduceOp};
use std::ffi::{c_int, c_void};

/// A message's source (or destination) and type, as read.
pub(crate) type Envelope = (i32, i32);

/// Where a receive writes the message's source and type.
pub(crate) type EnvelopeOut = (*mut c_int, *mut c_int);

/// The bytes a strided vector spans; `EXBADLEN` naming `call` when its
/// values are out of range.
fn extent(call: &str, v: Strided) -> ExResult<usize> {
    v.extent()
        .ok_or_else(|| ExError::new(EXBADLEN, format!("{call}: {v} out of range")))
}

/// `exread`: the first message matching `(s, t)` into `n` bytes of `buf`.
pub(crate) fn read(
    call: &str,
    (buf, n): (*mut c_void, c_int),
    (s, t): Envelope,
    (src, ty): EnvelopeOut,
) -> ExResult<c_int> {
    let b = buf_out(call, buf, n)?;
    let cap = b.len();
    let got = msg::read(call, b, s, t)?;
    received(call, got, src, ty, cap)
}

/// `exwrite`: `n` bytes of `buf` to `(d, t)`; returns the bytes sent.
pub(crate) fn write(call: &str, buf: *const c_void, n: c_int, (d, t): Envelope) -> ExResult<c_int> {
    let b = buf_in(call, buf, n)?;
    Ok(msg::write(call, b, d, t)? as c_int)
}

/// `exsend`: as [`write`], asynchronous; returns the message id.
pub(crate) fn send(call: &str, buf: *const c_void, n: c_int, (d, t): Envelope) -> ExResult<c_int> {
    let b = buf_in(call, buf, n)?;
    msg::send_async(call, b, d, t)
}

/// `exreceive`: posts a receive into `buf` (`None`: NULL, named
/// `buf_name`) from `(s, t)`, its source and type written to `so` and `to`
/// when it completes; returns the message id. The entry made `buf`, `so`
/// and `to` from the caller's pointers, which Express keeps valid until
/// the receive completes.
pub(crate) fn receive(
    call: &str,
    (buf, buf_name): (Option<UserBuf>, &str),
    (s, t): Envelope,
    (so, to): (Option<OutInt>, Option<OutInt>),
) -> ExResult<c_int> {
    let b = buf.ok_or_else(|| null(call, buf_name))?;
    msg::recv_async(call, b, s, t, so, to)
}

/// `extest`: the length of the first waiting message matching `(s, t)`
/// (its source and type written back), or `EXNOMSG`.
pub(crate) fn test(call: &str, (s, t): Envelope, (src, ty): EnvelopeOut) -> ExResult<c_int> {
    match msg::test(call, s, t)? {
        Some(g) => {
            ptr::set(src, g.src);
            ptr::set(ty, g.ty);
            Ok(g.len as c_int)
        }
        None => Ok(EXNOMSG),
    }
}

/// `exchange`: sends `out` to `to` and receives into `inbuf` from `from`
/// (the actual source and type written to `from_out`).
pub(crate) fn exchange(
    call: &str,
    (inbuf, inlen): (*mut c_void, c_int),
    (from, from_out): (Envelope, EnvelopeOut),
    (out, outlen): (*const c_void, c_int),
    to: Envelope,
) -> ExResult<c_int> {
    let o = buf_in(call, out, outlen)?;
    let i = buf_out(call, inbuf, inlen)?;
    let cap = i.len();
    let got = msg::exchange(call, i, from.0, from.1, o, to.0, to.1)?;
    received(call, got, from_out.0, from_out.1, cap)
}

/// `exvwrite`: the items of vector `v` at `buf` as one message to `to`.
pub(crate) fn vwrite(call: &str, buf: *const c_void, v: Strided, to: Envelope) -> ExResult<c_int> {
    let r = ptr::bytes(buf, extent(call, v)?).ok_or_else(|| null(call, "buffer"))?;
    Ok(msg::vwrite(call, r, v, to.0, to.1)? as c_int)
}

/// `exvread`: a message from `from` into the items of vector `v` at `buf`.
pub(crate) fn vread(
    call: &str,
    buf: *mut c_void,
    v: Strided,
    from: Envelope,
    (src, ty): EnvelopeOut,
) -> ExResult<c_int> {
    let r = ptr::bytes_mut(buf, extent(call, v)?).ok_or_else(|| null(call, "buffer"))?;
    let got = msg::vread(call, r, v, from.0, from.1)?;
    let cap = v.size.max(0) as usize * v.nitems.max(0) as usize;
    received(call, got, src, ty, cap)
}

/// `exbroadcast` once the buffer `b` (named `buf_name` in the message
/// when the broadcast is longer) and the node list are read.
pub(crate) fn broadcast(
    call: &str,
    (b, buf_name): (&mut [u8], &str),
    root: i32,
    (nnodes, list): (i32, Option<&[i32]>),
) -> ExResult<c_int> {
    let held = b.len();
    let (n, fits) = coll::broadcast(call, b, root, nnodes, list)?;
    if !fits {
        return Err(ExError::new(
            EXTOOLONG,
            format!(
                "{call}: {n} bytes broadcast, {buf_name} holds {held}; the first {held} were kept"
            ),
        ));
    }
    Ok(n as c_int)
}

/// The bytes of `nitems` items of `size` bytes, or `EXBADLEN` with
/// `what` (the entry's words for the two) when out of range.
pub(crate) fn combined_bytes(size: i32, nitems: i32, what: impl Fn() -> String) -> ExResult<usize> {
    let total = (size.max(0) as i64) * (nitems.max(0) as i64);
    if size < 0 || nitems < 0 || total > i32::MAX as i64 {
        return Err(ExError::new(EXBADLEN, what()));
    }
    Ok(total as usize)
}

/// `excombine` once the buffer and node list are read: MPI's own
/// reduction for a `predefined` function, else `user` as a left fold.
pub(crate) fn combine(
    call: &str,
    (b, size, nitems): (&mut [u8], i32, i32),
    (nnodes, list): (i32, Option<&[i32]>),
    predefined: Option<(Elem, ReduceOp)>,
    mut user: impl FnMut(&mut [u8], &[u8]),
) -> ExResult<c_int> {
    let how = match predefined {
        Some((e, op)) => Combiner::Predefined(e, op),
        None => Combiner::User(&mut user),
    };
    coll::combine(call, b, size, nitems, how, nnodes, list).map(|_| 0)
}

/// `exhandle` once the handler `f` is made: registers it for `(s, t)`
/// and runs it on what is already waiting.
pub(crate) fn handle(
    call: &str,
    f: Option<handler::HandlerFn>,
    (s, t): Envelope,
) -> ExResult<c_int> {
    handler::register(call, f, s, t)?;
    msg::pump(call)?;
    Ok(0)
}

/// `exgridcoord`: the coordinates of `node` in grid `g` into `coords`
/// (named `coords_name` when NULL).
pub(crate) fn grid_coord(
    call: &str,
    g: i32,
    node: i32,
    (coords, coords_name): (*mut c_int, &str),
) -> ExResult<c_int> {
    let c = grid::coord(call, g, node)?;
    let out = ptr::ints_mut(coords, c.len()).ok_or_else(|| null(call, coords_name))?;
    out.copy_from_slice(&c);
    Ok(0)
}

/// `exgridnode`: the node at `coords` (named `coords_name` when NULL).
pub(crate) fn grid_node(
    call: &str,
    g: i32,
    (coords, coords_name): (*const c_int, &str),
) -> ExResult<c_int> {
    let n = grid::ndims(call, g)?;
    let c = ptr::ints(coords, n).ok_or_else(|| null(call, coords_name))?;
    grid::node(call, g, c)
}

/// `exgridshift`: the nodes a shift by `disp` along `dim` receives from
/// and sends to, into `src` and `dest` (named `names` when NULL).
pub(crate) fn grid_shift(
    call: &str,
    (g, dim, disp): (i32, i32, i32),
    (src, dest): (*mut c_int, *mut c_int),
    names: &str,
) -> ExResult<c_int> {
    if src.is_null() || dest.is_null() {
        return Err(null(call, names));
    }
    let (s, d) = grid::shift(call, g, dim, disp)?;
    ptr::set(src, s);
    ptr::set(dest, d);
    Ok(0)
}

/// `exgridnbr`: the neighbour along `dim` in direction `dir` (named
/// `dir_name` when it is not +1 or -1).
pub(crate) fn grid_neighbour(
    call: &str,
    g: i32,
    dim: i32,
    (dir, dir_name): (i32, &str),
) -> ExResult<c_int> {
    if dir != 1 && dir != -1 {
        return Err(ExError::new(
            EXBADARG,
            format!("{call}: {dir_name} {dir} is not +1 or -1"),
        ));
    }
    Ok(grid::shift(call, g, dim, dir)?.1)
}
