//! The Express C ABI (`express.h`). Every call is Express-compatible as
//! specified in `express.h`; each returns a negative error code on failure
//! (`EXBADNODE`, `EXBADLEN`, ...; the text is in `exerrmsg()`), and a panic
//! never crosses into C (it becomes `EXINTERNAL`).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::coll;
use crate::error::{
    self, ExError, ExResult, EXBADFUNC, EXBADLEN, EXBADLIST, EXINTERNAL, EXNULLBUF,
};
use crate::grid;
use crate::handler;
use crate::msg::{self, Got};
use crate::predefined;
use crate::ptr::{self, OutInt, UserBuf};
use crate::twins;
use shim_core::collective::{Elem, ReduceOp};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

pub use crate::layer::NodeEnv;

/// A C combine function: stores `a ∘ b` into `a` (one item of `size` bytes).
pub type ExCombineFn = extern "C" fn(*mut c_void, *const c_void, c_int) -> c_int;
/// A C message handler: (message, length, source node, type).
pub type ExHandlerFn = extern "C" fn(*mut c_void, c_int, c_int, c_int);

/// Runs an entry point: panic boundary, error text, code.
pub(crate) fn run(name: &str, f: impl FnOnce() -> ExResult<c_int>) -> c_int {
    guard(name, EXINTERNAL, || match f() {
        Ok(v) => v,
        Err(e) => error::record(&e),
    })
}

pub(crate) fn null(call: &str, what: &str) -> ExError {
    ExError::new(EXNULLBUF, format!("{call}: {what} is NULL"))
}

pub(crate) fn len(call: &str, what: &str, n: c_int) -> ExResult<usize> {
    usize::try_from(n)
        .map_err(|_| ExError::new(EXBADLEN, format!("{call}: {what} {n} is negative")))
}

pub(crate) fn arg(call: &str, what: &str, p: *const c_int) -> ExResult<i32> {
    ptr::get(p).ok_or_else(|| null(call, what))
}

pub(crate) fn buf_in<'a>(call: &str, p: *const c_void, n: c_int) -> ExResult<&'a [u8]> {
    let n = len(call, "length", n)?;
    ptr::bytes(p, n).ok_or_else(|| null(call, "buffer"))
}

pub(crate) fn buf_out<'a>(call: &str, p: *mut c_void, n: c_int) -> ExResult<&'a mut [u8]> {
    let n = len(call, "length", n)?;
    ptr::bytes_mut(p, n).ok_or_else(|| null(call, "buffer"))
}

pub(crate) fn list<'a>(call: &str, nnodes: c_int, p: *const c_int) -> ExResult<Option<&'a [i32]>> {
    if nnodes <= 0 || (p.is_null() && nnodes == 0) {
        return Ok(None);
    }
    ptr::ints(p, nnodes as usize).map(Some).ok_or_else(|| {
        ExError::new(
            EXBADLIST,
            format!("{call}: nodelist is NULL with nnodes {nnodes}"),
        )
    })
}

/// A message's node (`node`, named `node_name` in messages) and type,
/// read in that order.
pub(crate) fn envelope(
    call: &str,
    node_name: &str,
    node: *const c_int,
    ty: *const c_int,
) -> ExResult<twins::Envelope> {
    Ok((arg(call, node_name, node)?, arg(call, "type", ty)?))
}

/// Writes a receive's source and type back, and turns "did not fit" into
/// `EXTOOLONG`.
pub(crate) fn received(
    call: &str,
    got: Got,
    src: *mut c_int,
    ty: *mut c_int,
    cap: usize,
) -> ExResult<c_int> {
    ptr::set(src, got.src);
    ptr::set(ty, got.ty);
    Ok(got.checked(call, cap)? as c_int)
}

pub(crate) fn param() -> ExResult<NodeEnv> {
    crate::layer::param("exparam")
}

/// Fills `*env` with this process's node number, the number of nodes, the
/// host's node number (`EXNOHOST` without a host) and its task id. Starts
/// the layer on the first call (collective over all processes). Returns 0,
/// `EXNULLBUF` for a NULL `env`, `EXSYSERR` if MPI cannot start.
#[no_mangle]
pub extern "C" fn exparam(env: *mut NodeEnv) -> c_int {
    run("exparam", || {
        if env.is_null() {
            return Err(null("exparam", "env"));
        }
        let e = param()?;
        let out = ptr::bytes_mut(env as *mut c_void, std::mem::size_of::<NodeEnv>())
            .ok_or_else(|| null("exparam", "env"))?;
        // The struct is four C ints in declaration order.
        for (i, v) in [e.procnum, e.nprocs, e.host, e.taskid].iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&v.to_ne_bytes());
        }
        Ok(0)
    })
}

/// Blocking receive of the first message from `*src` of type `*type`
/// (`DONTCARE` for any) into `buf` of `len` bytes; `*src` and `*type` get
/// the message's. Returns the byte count; `EXTOOLONG` (message left
/// queued, `*src`/`*type` written), `EXBADNODE`, `EXBADLEN`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exread(buf: *mut c_void, len: c_int, src: *mut c_int, ty: *mut c_int) -> c_int {
    run("exread", || {
        let from = envelope("exread", "src", src, ty)?;
        twins::read("exread", (buf, len), from, (src, ty))
    })
}

/// Blocking send of `len` bytes to node `*dest` with type `*type`
/// (returns when `buf` may be reused). Returns the bytes sent (0 to
/// `EXNONODE`); `EXBADNODE`, `EXBADLEN`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exwrite(buf: *mut c_void, len: c_int, dest: *mut c_int, ty: *mut c_int) -> c_int {
    run("exwrite", || {
        let to = envelope("exwrite", "dest", dest, ty)?;
        twins::write("exwrite", buf, len, to)
    })
}

/// Asynchronous send: copies the message and returns a message id (> 0)
/// at once. `EXBADNODE`, `EXBADLEN`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exsend(buf: *mut c_void, len: c_int, dest: *mut c_int, ty: *mut c_int) -> c_int {
    run("exsend", || {
        let to = envelope("exsend", "dest", dest, ty)?;
        twins::send("exsend", buf, len, to)
    })
}

/// Posts an asynchronous receive and returns a message id (> 0). `buf`,
/// `src` and `type` must stay valid until `exmsgwait`; the message's
/// source and type are written to them when it completes. `EXBADNODE`,
/// `EXBADLEN`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exreceive(
    buf: *mut c_void,
    len: c_int,
    src: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("exreceive", || {
        let from = envelope("exreceive", "src", src, ty)?;
        let n = self::len("exreceive", "length", len)?;
        // SAFETY: Express's contract for exreceive: the buffer and the two
        // ints stay valid until the receive completes.
        let (b, so, to) = unsafe { (UserBuf::new(buf, n), OutInt::new(src), OutInt::new(ty)) };
        twins::receive("exreceive", (b, "buffer"), from, (so, to))
    })
}

/// Length of the first waiting message from `*src` of type `*type`
/// (wildcards allowed; the actual values are written back), or `EXNOMSG`
/// (-1) when none is waiting. `EXBADNODE`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn extest(src: *mut c_int, ty: *mut c_int) -> c_int {
    run("extest", || {
        let from = envelope("extest", "src", src, ty)?;
        twins::test("extest", from, (src, ty))
    })
}

/// 1 when operation `msgid` has finished, 0 while it is pending (the id
/// stays valid until `exmsgwait`). `EXBADID` for an unknown id.
#[no_mangle]
pub extern "C" fn exmsgtest(msgid: c_int) -> c_int {
    run("exmsgtest", || {
        Ok(msg::msg_test("exmsgtest", msgid)? as c_int)
    })
}

/// Waits for operation `msgid` and releases the id. Returns its byte
/// count, or its error (`EXTOOLONG` for a receive whose message did not
/// fit; that message stays queued); `EXBADID` for an unknown id.
#[no_mangle]
pub extern "C" fn exmsgwait(msgid: c_int) -> c_int {
    run("exmsgwait", || {
        Ok(msg::msg_wait("exmsgwait", msgid)? as c_int)
    })
}

/// Sends `outlen` bytes of `out` to `*dest` (type `*desttype`) and receives
/// into `in` from `*src` (type `*srctype`, wildcards allowed, actual values
/// written back) without deadlock. Returns the bytes received; errors as
/// `exread` and `exwrite` (checked before anything is sent).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn exchange(
    inbuf: *mut c_void,
    inlen: c_int,
    src: *mut c_int,
    srctype: *mut c_int,
    out: *mut c_void,
    outlen: c_int,
    dest: *mut c_int,
    desttype: *mut c_int,
) -> c_int {
    run("exchange", || {
        let s = arg("exchange", "src", src)?;
        let st = arg("exchange", "srctype", srctype)?;
        let d = arg("exchange", "dest", dest)?;
        let dt = arg("exchange", "desttype", desttype)?;
        let from = ((s, st), (src, srctype));
        twins::exchange("exchange", (inbuf, inlen), from, (out, outlen), (d, dt))
    })
}

fn strided(size: c_int, nitems: c_int, stride: c_int) -> msg::Strided {
    msg::Strided {
        size,
        nitems,
        stride,
    }
}

/// Sends `nitems` items of `itemsize` bytes, `stride` bytes apart, as one
/// message. Returns the bytes sent; `EXBADLEN` (negative values or a
/// stride below the item size), `EXBADNODE`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exvwrite(
    buf: *mut c_void,
    itemsize: c_int,
    nitems: c_int,
    stride: c_int,
    dest: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("exvwrite", || {
        let to = envelope("exvwrite", "dest", dest, ty)?;
        twins::vwrite("exvwrite", buf, strided(itemsize, nitems, stride), to)
    })
}

/// Receives a message of up to `nitems` items of `itemsize` bytes and
/// stores item i at byte `i * stride`. Returns the bytes received; errors
/// as `exread` and `exvwrite`.
#[no_mangle]
pub extern "C" fn exvread(
    buf: *mut c_void,
    itemsize: c_int,
    nitems: c_int,
    stride: c_int,
    src: *mut c_int,
    ty: *mut c_int,
) -> c_int {
    run("exvread", || {
        let from = envelope("exvread", "src", src, ty)?;
        let v = strided(itemsize, nitems, stride);
        twins::vread("exvread", buf, v, from, (src, ty))
    })
}

/// Barrier over all nodes. Returns 0; `EXNOTMEMBER` on the host.
#[no_mangle]
pub extern "C" fn exsync() -> c_int {
    run("exsync", || coll::sync("exsync").map(|_| 0))
}

/// Broadcasts `len` bytes of `buf` from node `src` to the nodes of
/// `nodelist` (`nnodes = ALLNODES`: all nodes). Returns the broadcast's
/// length; a receiving buffer shorter than it keeps its first `len` bytes
/// and gets `EXTOOLONG`. `EXBADNODE` (src not in the list), `EXBADLIST`,
/// `EXNOTMEMBER`, `EXBADLEN`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exbroadcast(
    buf: *mut c_void,
    len: c_int,
    src: c_int,
    nnodes: c_int,
    nodelist: *mut c_int,
    _ty: c_int,
) -> c_int {
    run("exbroadcast", || {
        let b = buf_out("exbroadcast", buf, len)?;
        let l = list("exbroadcast", nnodes, nodelist)?;
        twins::broadcast("exbroadcast", (b, "the buffer"), src, (nnodes, l))
    })
}

macro_rules! predefined_c {
    ($($name:ident, $fortran:ident, $elem:expr, $op:expr;)*) => {
        $(
            /// A predefined combine function (`excombine` uses MPI's own
            /// reduction for it); called directly, combines one item of
            /// `size` bytes element-wise into `a`. Returns 0, or
            /// `EXNULLBUF` for a NULL `a` or `b` with a positive size.
            #[no_mangle]
            pub extern "C" fn $name(a: *mut c_void, b: *const c_void, size: c_int) -> c_int {
                let n = size.max(0) as usize;
                predefined::call_directly(stringify!($name), ($elem, $op), a, b, n)
            }
        )*

        /// The predefined C function at `f`, if it is one.
        pub(crate) fn predefined_c(f: usize) -> Option<(Elem, ReduceOp)> {
            $( if f == $name as ExCombineFn as usize { return Some(($elem, $op)); } )*
            None
        }
    };
}

predefined::predefined_table!(predefined_c);

/// Combines `nitems` items of `size` bytes in `buf` over the nodes of the
/// list with `func`; the result is in `buf` on every participant. A user
/// function is applied as the left fold in node order (see `express.h`).
/// Returns 0; `EXBADFUNC` (NULL, or a predefined function whose element
/// does not divide `size`), `EXBADLEN`, `EXNULLBUF`, `EXBADLIST`,
/// `EXNOTMEMBER`.
#[no_mangle]
pub extern "C" fn excombine(
    buf: *mut c_void,
    func: Option<ExCombineFn>,
    size: c_int,
    nitems: c_int,
    nnodes: c_int,
    nodelist: *mut c_int,
    _ty: c_int,
) -> c_int {
    run("excombine", || {
        let call = "excombine";
        let Some(func) = func else {
            return Err(ExError::new(EXBADFUNC, "excombine: func is NULL"));
        };
        let total = twins::combined_bytes(size, nitems, || {
            format!("excombine: item size {size}, count {nitems} out of range")
        })?;
        let b = ptr::bytes_mut(buf, total).ok_or_else(|| null(call, "buffer"))?;
        let l = list(call, nnodes, nodelist)?;
        let user = |a: &mut [u8], b: &[u8]| {
            func(
                a.as_mut_ptr() as *mut c_void,
                b.as_ptr() as *const c_void,
                a.len() as c_int,
            );
        };
        twins::combine(
            call,
            (b, size, nitems),
            (nnodes, l),
            predefined_c(func as usize),
            user,
        )
    })
}

/// Concatenates every participant's `inlen` bytes of `in`, in node order,
/// into `out` on every participant. Returns the total length; when it
/// exceeds `outlen`, the first `outlen` bytes are stored and `EXTOOLONG`
/// returned. `EXBADLEN`, `EXNULLBUF`, `EXBADLIST`, `EXNOTMEMBER`.
#[no_mangle]
pub extern "C" fn exconcat(
    inbuf: *mut c_void,
    inlen: c_int,
    out: *mut c_void,
    outlen: c_int,
    nnodes: c_int,
    nodelist: *mut c_int,
    _ty: c_int,
) -> c_int {
    run("exconcat", || {
        let i = buf_in("exconcat", inbuf, inlen)?;
        let o = buf_out("exconcat", out, outlen)?;
        let l = list("exconcat", nnodes, nodelist)?;
        Ok(coll::concat_into("exconcat", i, o, nnodes, l)? as c_int)
    })
}

/// Registers `func` to run for each message from `src` of type `type`
/// (either may be `DONTCARE`); a NULL `func` removes the handler. See
/// `express.h` for when handlers run. Returns 0; `EXBADNODE`.
#[no_mangle]
pub extern "C" fn exhandle(func: Option<ExHandlerFn>, src: c_int, ty: c_int) -> c_int {
    run("exhandle", || {
        let f = func.map(|f| {
            Arc::new(move |data: &mut [u8], s: i32, t: i32| {
                f(data.as_mut_ptr() as *mut c_void, data.len() as c_int, s, t)
            }) as handler::HandlerFn
        });
        twins::handle("exhandle", f, (src, ty))
    })
}

pub(crate) fn flags(call: &str, p: *const c_int, n: usize) -> ExResult<Vec<bool>> {
    Ok(ptr::ints(p, n)
        .ok_or_else(|| null(call, "flags"))?
        .iter()
        .map(|&v| v != 0)
        .collect())
}

/// Creates a grid of all nodes with `ndim` dimensions (collective over the
/// nodes). Zero entries of `dims` are chosen and every size written back;
/// `periods` (may be NULL: none) flags the periodic dimensions. Returns the
/// grid id (>= 0); `EXBADGRID` (the sizes do not multiply to the number of
/// nodes), `EXNULLBUF`, `EXNOTMEMBER` on the host.
#[no_mangle]
pub extern "C" fn exgridinit(ndim: c_int, dims: *mut c_int, periods: *const c_int) -> c_int {
    run("exgridinit", || {
        let n = ndims_arg("exgridinit", ndim)?;
        let d = ptr::ints_mut(dims, n).ok_or_else(|| null("exgridinit", "dims"))?;
        let p = if periods.is_null() {
            vec![false; n]
        } else {
            flags("exgridinit", periods, n)?
        };
        grid::init("exgridinit", d, &p)
    })
}

pub(crate) fn ndims_arg(call: &str, ndim: c_int) -> ExResult<usize> {
    if !(1..=16).contains(&ndim) {
        return Err(ExError::new(
            crate::error::EXBADGRID,
            format!("{call}: ndim {ndim} is not 1..16"),
        ));
    }
    Ok(ndim as usize)
}

/// Fills the zero entries of `dims[0..ndim]` with a balanced factorisation
/// of `nnodes` (non-zero entries are kept). Returns 0; `EXBADGRID`,
/// `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exgridsize(nnodes: c_int, ndim: c_int, dims: *mut c_int) -> c_int {
    run("exgridsize", || {
        let n = ndims_arg("exgridsize", ndim)?;
        let d = ptr::ints_mut(dims, n).ok_or_else(|| null("exgridsize", "dims"))?;
        grid::size("exgridsize", nnodes, d).map(|_| 0)
    })
}

/// The sub-grid of `grid` keeping the dimensions whose `remain` flag is
/// non-zero (collective over the grid). Returns the new grid's id;
/// `EXBADGRID`, `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exgridsplit(grid: c_int, remain: *const c_int) -> c_int {
    run("exgridsplit", || {
        let n = grid::ndims("exgridsplit", grid)?;
        let r = flags("exgridsplit", remain, n)?;
        grid::split("exgridsplit", grid, &r)
    })
}

/// Number of dimensions of `grid`; its sizes go to `dims` (may be NULL).
/// `EXBADGRID`.
#[no_mangle]
pub extern "C" fn exgriddims(grid: c_int, dims: *mut c_int) -> c_int {
    run("exgriddims", || {
        let s = grid::shape("exgriddims", grid)?;
        if let Some(d) = ptr::ints_mut(dims, s.len()) {
            d.copy_from_slice(&s);
        }
        Ok(s.len() as c_int)
    })
}

/// Writes the grid coordinates of `node` to `coords`. Returns 0;
/// `EXBADGRID`, `EXBADNODE` (not in the grid), `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exgridcoord(grid: c_int, node: c_int, coords: *mut c_int) -> c_int {
    run("exgridcoord", || {
        twins::grid_coord("exgridcoord", grid, node, (coords, "coords"))
    })
}

/// The node at `coords` of `grid`. `EXBADGRID`, `EXBADARG` (outside a
/// non-periodic dimension), `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exgridnode(grid: c_int, coords: *const c_int) -> c_int {
    run("exgridnode", || {
        twins::grid_node("exgridnode", grid, (coords, "coords"))
    })
}

/// For a shift by `disp` along dimension `dim` of `grid`: `*src` gets the
/// node this one receives from, `*dest` the node it sends to (`EXNONODE`
/// past a non-periodic edge). Returns 0; `EXBADGRID`, `EXBADARG`,
/// `EXNULLBUF`.
#[no_mangle]
pub extern "C" fn exgridshift(
    grid: c_int,
    dim: c_int,
    disp: c_int,
    src: *mut c_int,
    dest: *mut c_int,
) -> c_int {
    run("exgridshift", || {
        let at = (grid, dim, disp);
        twins::grid_shift("exgridshift", at, (src, dest), "src or dest")
    })
}

/// The neighbour of this node along dimension `dim` of `grid` in direction
/// `dir` (+1 or -1), or `EXNONODE`. `EXBADGRID`, `EXBADARG`.
#[no_mangle]
pub extern "C" fn exgridnbr(grid: c_int, dim: c_int, dir: c_int) -> c_int {
    run("exgridnbr", || {
        twins::grid_neighbour("exgridnbr", grid, dim, (dir, "direction"))
    })
}

/// The text of this thread's last Express error ("" if none); valid until
/// the next Express call of the thread.
#[no_mangle]
pub extern "C" fn exerrmsg() -> *const c_char {
    thread_local! {
        static TEXT: std::cell::RefCell<std::ffi::CString> = std::cell::RefCell::new(std::ffi::CString::default());
    }
    guard("exerrmsg", std::ptr::null(), || {
        let s = std::ffi::CString::new(error::last().replace('\0', " ")).unwrap_or_default();
        TEXT.with(|t| {
            *t.borrow_mut() = s;
            t.borrow().as_ptr()
        })
    })
}
