//! The TCGMSG C ABI: the `tcg_*` functions of `tcgmsg.h` (arguments by
//! value), the upper-case `NAME_` functions of `sndrcv.h` that take a C
//! string (`DGOP_`, `IGOP_`, `PFCOPY_`) or C's `argc`/`argv` (`PBEGIN_`),
//! and `Error(char *, long)`. The other `NAME_` functions share their
//! definitions with the Fortran routines in [`crate::by_reference`].
//!
//! TCGMSG has no error codes: a failure prints `<node>: <message> <code>
//! (<hex>).` on standard output and standard error and ends the whole job
//! (`MPI_Abort`) with a non-zero status. No panic crosses into C: a panic
//! is reported and ends the job the same way.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::api::{self, error_exit};
use crate::layer::{TcgError, TcgResult};
use crate::ptr::{self, UserBuf};
use shim_core::ffi_guard::{guard, report_panic};
use std::any::Any;
use std::ffi::{c_char, c_double, c_int, c_long, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs entry point `name`; a failure (or panic) ends the job via `Error`.
/// Inlined into each entry point with its panic boundary, so a call that
/// succeeds passes through no frame of its own on the way to the core.
#[inline(always)]
pub(crate) fn run<R>(name: &str, f: impl FnOnce() -> TcgResult<R>) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => failed(e),
        Err(p) => panicked(name, p),
    }
}

#[cold]
#[inline(never)]
fn failed(e: TcgError) -> ! {
    error_exit(&e.msg, e.code)
}

/// A panic in entry point `name`: reported as the core's panic boundary
/// reports one, then the job ends via `Error`.
#[cold]
#[inline(never)]
fn panicked(name: &str, payload: Box<dyn Any + Send>) -> ! {
    report_panic(name, payload);
    error_exit(&format!("{name}: internal error"), -1)
}

fn arg<T: Copy>(call: &str, what: &str, p: *const T) -> TcgResult<T> {
    ptr::get(p).ok_or_else(|| TcgError::new(format!("{call}: argument {what} is NULL"), -1))
}

#[inline(always)]
fn len_arg(call: &str, len: c_long) -> TcgResult<usize> {
    usize::try_from(len).map_err(|_| negative_len(call, len))
}

#[cold]
#[inline(never)]
fn negative_len(call: &str, len: c_long) -> TcgError {
    TcgError::new(format!("{call}: negative buffer length {len}"), len)
}

#[cold]
#[inline(never)]
fn null_buf(call: &str, len: usize) -> TcgError {
    TcgError::new(
        format!("{call}: buffer is NULL but its length is {len}"),
        len as i64,
    )
}

// ---- shared implementations (by value) --------------------------------------
//
// `do_snd` and `do_rcv` are inlined into their entry points: a small
// message costs few instructions, and every frame on its way shows.

#[inline(always)]
pub(crate) fn do_snd(
    call: &str,
    ty: i64,
    buf: *const c_void,
    lenbuf: i64,
    node: i64,
    sync: i64,
) -> TcgResult<()> {
    let len = len_arg(call, lenbuf)?;
    if sync != 0 {
        // The generic form of `ptr::bytes`, so the check inlines here.
        let data = ptr::slice(buf.cast::<u8>(), len).ok_or_else(|| null_buf(call, len))?;
        api::snd(ty, data, node)
    } else {
        // SAFETY: TCGMSG's contract for asynchronous sends: the buffer stays
        // valid and unmodified until WAITCOM.
        let ub =
            unsafe { UserBuf::new(buf as *mut c_void, len) }.ok_or_else(|| null_buf(call, len))?;
        api::snd_async(ty, ub, node)
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn do_rcv(
    call: &str,
    ty: i64,
    buf: *mut c_void,
    lenbuf: i64,
    lenmes: *mut c_long,
    nodesel: i64,
    nodefrom: *mut c_long,
    sync: i64,
) -> TcgResult<()> {
    let len = len_arg(call, lenbuf)?;
    if sync != 0 {
        let dst = ptr::slice_mut(buf.cast::<u8>(), len).ok_or_else(|| null_buf(call, len))?;
        let (n, src) = api::rcv(ty, dst, nodesel)?;
        ptr::put(lenmes, n as c_long);
        ptr::put(nodefrom, src as c_long);
    } else {
        // SAFETY: TCGMSG's contract for asynchronous receives: the buffer
        // stays valid and untouched until WAITCOM.
        let ub = unsafe { UserBuf::new(buf, len) }.ok_or_else(|| null_buf(call, len))?;
        api::rcv_async(ty, ub, nodesel)?;
        // As in TCGMSG on MPI: not known until the receive completes.
        ptr::put(lenmes, -1);
        ptr::put(nodefrom, nodesel as c_long);
    }
    Ok(())
}

pub(crate) fn do_brdcst(
    call: &str,
    ty: i64,
    buf: *mut c_void,
    lenbuf: i64,
    orig: i64,
) -> TcgResult<()> {
    let len = len_arg(call, lenbuf)?;
    let b = ptr::bytes_mut(buf, len).ok_or_else(|| null_buf(call, len))?;
    api::brdcst(ty, b, orig)
}

pub(crate) fn do_dgop(call: &str, ty: i64, x: *mut c_double, n: i64, op: &[u8]) -> TcgResult<()> {
    let n = len_arg(call, n)?;
    let v = ptr::slice_mut(x, n)
        .ok_or_else(|| TcgError::new(format!("{call}: x is NULL or misaligned"), n as i64))?;
    api::dgop(ty, v, op)
}

pub(crate) fn do_igop(call: &str, ty: i64, x: *mut c_long, n: i64, op: &[u8]) -> TcgResult<()> {
    let n = len_arg(call, n)?;
    let v = ptr::slice_mut(x.cast::<i64>(), n)
        .ok_or_else(|| TcgError::new(format!("{call}: x is NULL or misaligned"), n as i64))?;
    api::igop(ty, v, op)
}

fn c_op<'a>(call: &str, op: *const c_char) -> TcgResult<&'a [u8]> {
    ptr::c_bytes(op).ok_or_else(|| TcgError::new(format!("{call}: operation string is NULL"), -1))
}

pub(crate) fn do_pfcopy(call: &str, ty: i64, node0: i64, name: &[u8]) -> TcgResult<()> {
    let name = String::from_utf8_lossy(name);
    let name = name.trim_end();
    if name.is_empty() {
        return Err(TcgError::new(format!("{call}: empty file name"), 0));
    }
    api::pfcopy(ty, node0, name)
}

fn error_text(msg: *const c_char) -> String {
    match ptr::c_bytes(msg) {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => "(no message)".to_string(),
    }
}

// ---- tcg_* (tcgmsg.h) --------------------------------------------------------

/// Starts TCGMSG (collective over the compute ranks); MPI is started unless
/// the program already did. Returns nothing; a second call ends the job
/// with "TCGMSG initialized already???".
#[no_mangle]
pub extern "C" fn tcg_pbegin(_argc: c_int, _argv: *mut *mut c_char) {
    run("tcg_pbegin", api::pbegin)
}

/// Like [`tcg_pbegin`], for callers that pass `&argc, &argv`. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_alt_pbegin(_argc: *mut c_int, _argv: *mut *mut *mut c_char) {
    run("tcg_alt_pbegin", api::pbegin)
}

/// Starts TCGMSG (the Fortran-style start from C). Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_pbeginf() {
    run("tcg_pbeginf", api::pbegin)
}

/// Same as [`tcg_pbeginf`]. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_pbginf() {
    run("tcg_pbginf", api::pbegin)
}

/// Stops TCGMSG, finalises MPI and exits the process with status 0; never returns.
#[no_mangle]
pub extern "C" fn tcg_pend() {
    pend_guarded("tcg_pend")
}

/// `PEND` behind the panic boundary (a panic still ends the process).
pub(crate) fn pend_guarded(name: &str) {
    guard(name, (), || api::pend());
    error_exit(&format!("{name}: internal error"), -1)
}

/// Returns the number of TCGMSG processes (compute ranks).
#[no_mangle]
pub extern "C" fn tcg_nnodes() -> c_long {
    guard("tcg_nnodes", 1, api::nnodes)
}

/// Returns this process's node number, 0..nnodes-1.
#[no_mangle]
pub extern "C" fn tcg_nodeid() -> c_long {
    guard("tcg_nodeid", 0, api::nodeid)
}

/// Sends `lenbuf` bytes of type `type` to `node`; `sync` 0 makes it
/// asynchronous (the buffer belongs to TCGMSG until `tcg_waitcom`).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_snd(
    ty: c_long,
    buf: *mut c_void,
    lenbuf: c_long,
    node: c_long,
    sync: c_long,
) {
    run("tcg_snd", || do_snd("tcg_snd", ty, buf, lenbuf, node, sync))
}

/// Receives a message of type `type` from `nodeselect` (-1: any) into
/// `buf`; stores its length in `*lenmes` and its sender in `*nodefrom`
/// (asynchronous: -1 and `nodeselect`). A message longer than `lenbuf`
/// ends the job with an error. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_rcv(
    ty: c_long,
    buf: *mut c_void,
    lenbuf: c_long,
    lenmes: *mut c_long,
    nodeselect: c_long,
    nodefrom: *mut c_long,
    sync: c_long,
) {
    run("tcg_rcv", || {
        do_rcv(
            "tcg_rcv", ty, buf, lenbuf, lenmes, nodeselect, nodefrom, sync,
        )
    })
}

/// Returns 1 if a message of type `type` from `node` (-1: any) is waiting, else 0.
#[no_mangle]
pub extern "C" fn tcg_probe(ty: c_long, node: c_long) -> c_long {
    run("tcg_probe", || api::probe(ty, node).map(c_long::from))
}

/// Completes the asynchronous sends and receives with `node` (-1: all).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_waitcom(node: c_long) {
    run("tcg_waitcom", || api::waitcom(node))
}

/// Broadcasts `lenbuf` bytes from `originator` to every node (collective).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_brdcst(ty: c_long, buf: *mut c_void, lenbuf: c_long, originator: c_long) {
    run("tcg_brdcst", || {
        do_brdcst("tcg_brdcst", ty, buf, lenbuf, originator)
    })
}

/// Element-wise reduction of `n` doubles over all nodes, in place;
/// `op` is "+", "*", "max", "min", "absmax", "absmin", "&&"/"land",
/// "||"/"lor" (matched by prefix). Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_dgop(ty: c_long, x: *mut c_double, n: c_long, op: *const c_char) {
    run("tcg_dgop", || {
        do_dgop("tcg_dgop", ty, x, n, c_op("tcg_dgop", op)?)
    })
}

/// Element-wise reduction of `n` longs over all nodes, in place; the
/// operations of [`tcg_dgop`] plus "or", "&"/"band", "|"/"bor". Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_igop(ty: c_long, x: *mut c_long, n: c_long, op: *const c_char) {
    run("tcg_igop", || {
        do_igop("tcg_igop", ty, x, n, c_op("tcg_igop", op)?)
    })
}

/// Barrier of all nodes. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_synch(ty: c_long) {
    run("tcg_synch", || api::synch(ty))
}

/// Returns wall-clock centiseconds since the first timer call.
#[no_mangle]
pub extern "C" fn tcg_mtime() -> c_long {
    guard("tcg_mtime", 0, api::mtime)
}

/// Returns wall-clock seconds since the first timer call (strictly increasing).
#[no_mangle]
pub extern "C" fn tcg_time() -> c_double {
    guard("tcg_time", 0.0, api::time)
}

/// Returns the bytes in `n` doubles (negative `n` ends the job).
#[no_mangle]
pub extern "C" fn tcg_mdtob(n: c_long) -> c_long {
    run("tcg_mdtob", || api::mdtob(n))
}

/// Returns the bytes in `n` longs (negative `n` ends the job).
#[no_mangle]
pub extern "C" fn tcg_mitob(n: c_long) -> c_long {
    run("tcg_mitob", || api::mitob(n))
}

/// Returns the fewest longs holding `n` doubles (negative `n` ends the job).
#[no_mangle]
pub extern "C" fn tcg_mdtoi(n: c_long) -> c_long {
    run("tcg_mdtoi", || api::mdtoi(n))
}

/// Returns the fewest doubles holding `n` longs (negative `n` ends the job).
#[no_mangle]
pub extern "C" fn tcg_mitod(n: c_long) -> c_long {
    run("tcg_mitod", || api::mitod(n))
}

/// Sends standard output and error to `log.<node>` (appending). Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_llog() {
    run("tcg_llog", api::llog)
}

/// Prints this process's message counts. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_stats() {
    run("tcg_stats", api::stats)
}

/// Turns tracing of sends and receives on (non-zero) or off. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_setdbg(value: c_long) {
    run("tcg_setdbg", || api::setdbg(value))
}

/// Prints `<node>: msg code (hex).` and ends the job; never returns.
#[no_mangle]
pub extern "C" fn tcg_error(msg: *const c_char, code: c_long) {
    error_exit(&error_text(msg), code)
}

/// Ends the job with "User detected error in FORTRAN" and `code`; never returns.
#[no_mangle]
pub extern "C" fn tcg_parerr(code: c_long) {
    error_exit("User detected error in FORTRAN", code)
}

/// Changes the process priority by `ival`; returns the new nice value (-1 on failure).
#[no_mangle]
pub extern "C" fn tcg_niceftn(ival: c_long) -> c_long {
    guard("tcg_niceftn", -1, || api::niceftn(ival))
}

/// Copies file `fname` of node `node0` to `fname` on every node
/// (collective). Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_pfcopy(ty: c_long, node0: c_long, fname: *const c_char) {
    run("tcg_pfcopy", || {
        let name = ptr::c_bytes(fname)
            .ok_or_else(|| TcgError::new("tcg_pfcopy: file name is NULL", -1))?;
        do_pfcopy("tcg_pfcopy", ty, node0, name)
    })
}

/// Returns a uniform random double in [0, 1).
#[no_mangle]
pub extern "C" fn tcg_drand48() -> c_double {
    guard("tcg_drand48", 0.0, api::drand48)
}

/// Seeds [`tcg_drand48`]. Returns nothing.
#[no_mangle]
pub extern "C" fn tcg_srand48(seed: c_long) {
    guard("tcg_srand48", (), || api::srand48(seed))
}

/// Returns 1 if TCGMSG is started, else 0.
#[no_mangle]
pub extern "C" fn tcg_ready() -> c_long {
    guard("tcg_ready", 0, || c_long::from(api::ready()))
}

// ---- NAME_ (sndrcv.h) with C strings or argc/argv ----------------------------

/// Same as [`tcg_pbegin`]. Returns nothing.
#[no_mangle]
pub extern "C" fn PBEGIN_(_argc: c_int, _argv: *mut *mut c_char) {
    run("PBEGIN_", api::pbegin)
}

/// Same as [`tcg_pbegin`]. Returns nothing.
#[no_mangle]
pub extern "C" fn tcgi_pbegin(_argc: c_int, _argv: *mut *mut c_char) {
    run("tcgi_pbegin", api::pbegin)
}

/// Same as [`tcg_alt_pbegin`]. Returns nothing.
#[no_mangle]
pub extern "C" fn tcgi_alt_pbegin(_argc: *mut c_int, _argv: *mut *mut *mut c_char) {
    run("tcgi_alt_pbegin", api::pbegin)
}

/// [`tcg_dgop`] by reference (`op` a C string). Returns nothing.
#[no_mangle]
pub extern "C" fn DGOP_(ty: *const c_long, x: *mut c_double, n: *const c_long, op: *const c_char) {
    const N: &str = "DGOP_";
    run(N, || {
        do_dgop(N, arg(N, "type", ty)?, x, arg(N, "n", n)?, c_op(N, op)?)
    })
}

/// [`tcg_igop`] by reference (`op` a C string). Returns nothing.
#[no_mangle]
pub extern "C" fn IGOP_(ty: *const c_long, x: *mut c_long, n: *const c_long, op: *const c_char) {
    const N: &str = "IGOP_";
    run(N, || {
        do_igop(N, arg(N, "type", ty)?, x, arg(N, "n", n)?, c_op(N, op)?)
    })
}

/// Prints `<node>: string code (hex).` and ends the job; never returns.
#[no_mangle]
pub extern "C" fn Error(string: *const c_char, code: c_long) {
    error_exit(&error_text(string), code)
}

/// [`tcg_pfcopy`] by reference (`fname` a C string). Returns nothing.
#[no_mangle]
pub extern "C" fn PFCOPY_(ty: *const c_long, node0: *const c_long, fname: *const c_char) {
    pfcopy_c("PFCOPY_", ty, node0, fname)
}

/// Same as [`PFCOPY_`]. Returns nothing.
#[no_mangle]
pub extern "C" fn PFILECOPY_(ty: *const c_long, node0: *const c_long, fname: *const c_char) {
    pfcopy_c("PFILECOPY_", ty, node0, fname)
}

fn pfcopy_c(n: &str, ty: *const c_long, node0: *const c_long, fname: *const c_char) {
    run(n, || {
        let name = ptr::c_bytes(fname)
            .ok_or_else(|| TcgError::new(format!("{n}: file name is NULL"), -1))?;
        do_pfcopy(n, arg(n, "type", ty)?, arg(n, "node0", node0)?, name)
    })
}
