//! The TCGMSG Fortran ABI, as gfortran calls it.
//!
//! # Conventions
//! - Symbol: the lower-case routine name plus `_` (`snd_`, `pbeginf_`).
//!   Every argument is passed by reference.
//! - Fortran `INTEGER` is 8 bytes (`INTEGER*8`, C `long`): Debian's Global
//!   Arrays and its TCGMSG are built with `-fdefault-integer-8`
//!   (`ga-config --fflags`), and TCGMSG has always defined Fortran
//!   `INTEGER` as C `long`. Compile Fortran callers with
//!   `-fdefault-integer-8` (or declare the arguments `INTEGER*8`).
//! - `DOUBLE PRECISION` is C `double`.
//! - Each `CHARACTER` argument (the operation of `dgop`/`igop`, the file
//!   name of `pfcopy`) adds a hidden length after all other arguments, a
//!   `size_t` by value (gfortran >= 8). Trailing blanks are ignored.
//! - Failures end the job exactly as from C (`Error`).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::api::{self, error_exit};
use crate::capi::{do_brdcst, do_dgop, do_igop, do_pfcopy, do_rcv, do_snd, pend_guarded, run};
use crate::layer::{TcgError, TcgResult};
use crate::ptr;
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_double, c_long, c_void};

/// Fortran `INTEGER` (8 bytes, see the module docs).
type FInt = i64;

fn arg(call: &str, what: &str, p: *const FInt) -> TcgResult<FInt> {
    ptr::get(p).ok_or_else(|| TcgError::new(format!("{call}: argument {what} is missing"), -1))
}

fn chars<'a>(call: &str, what: &str, p: *const c_char, len: usize) -> TcgResult<&'a [u8]> {
    ptr::f_chars(p, len)
        .ok_or_else(|| TcgError::new(format!("{call}: argument {what} is missing"), -1))
}

/// `PBEGINF()`: starts TCGMSG (collective). Returns nothing.
#[no_mangle]
pub extern "C" fn pbeginf_() {
    run("pbeginf", api::pbegin)
}

/// `PBGINF()`: same as `PBEGINF`. Returns nothing.
#[no_mangle]
pub extern "C" fn pbginf_() {
    run("pbginf", api::pbegin)
}

/// `PEND()`: stops TCGMSG and ends the process with status 0; never returns.
#[no_mangle]
pub extern "C" fn pend_() {
    pend_guarded("pend")
}

/// `INTEGER FUNCTION NNODES()`: returns the number of processes.
#[no_mangle]
pub extern "C" fn nnodes_() -> FInt {
    guard("nnodes", 1, api::nnodes)
}

/// `INTEGER FUNCTION NODEID()`: returns this process's node number.
#[no_mangle]
pub extern "C" fn nodeid_() -> FInt {
    guard("nodeid", 0, api::nodeid)
}

/// `SND(TYPE, BUF, LENBUF, NODE, SYNC)`: sends LENBUF bytes. Returns nothing.
#[no_mangle]
pub extern "C" fn snd_(
    ty: *const FInt,
    buf: *mut c_void,
    lenbuf: *const FInt,
    node: *const FInt,
    sync: *const FInt,
) {
    const N: &str = "snd";
    run(N, || {
        do_snd(
            N,
            arg(N, "type", ty)?,
            buf,
            arg(N, "lenbuf", lenbuf)?,
            arg(N, "node", node)?,
            arg(N, "sync", sync)?,
        )
    })
}

/// `RCV(TYPE, BUF, LENBUF, LENMES, NODESEL, NODEFROM, SYNC)`: receives a
/// message; LENMES and NODEFROM are set. Returns nothing.
#[no_mangle]
pub extern "C" fn rcv_(
    ty: *const FInt,
    buf: *mut c_void,
    lenbuf: *const FInt,
    lenmes: *mut FInt,
    nodesel: *const FInt,
    nodefrom: *mut FInt,
    sync: *const FInt,
) {
    const N: &str = "rcv";
    run(N, || {
        do_rcv(
            N,
            arg(N, "type", ty)?,
            buf,
            arg(N, "lenbuf", lenbuf)?,
            lenmes as *mut c_long,
            arg(N, "nodesel", nodesel)?,
            nodefrom as *mut c_long,
            arg(N, "sync", sync)?,
        )
    })
}

/// `INTEGER FUNCTION PROBE(TYPE, NODE)`: returns 1 if such a message is waiting, else 0.
#[no_mangle]
pub extern "C" fn probe_(ty: *const FInt, node: *const FInt) -> FInt {
    const N: &str = "probe";
    run(N, || {
        api::probe(arg(N, "type", ty)?, arg(N, "node", node)?).map(FInt::from)
    })
}

/// `WAITCOM(NODE)`: completes asynchronous operations. Returns nothing.
#[no_mangle]
pub extern "C" fn waitcom_(node: *const FInt) {
    const N: &str = "waitcom";
    run(N, || api::waitcom(arg(N, "node", node)?))
}

/// `BRDCST(TYPE, BUF, LENBUF, ORIGINATOR)`: broadcast (collective). Returns nothing.
#[no_mangle]
pub extern "C" fn brdcst_(
    ty: *const FInt,
    buf: *mut c_void,
    lenbuf: *const FInt,
    originator: *const FInt,
) {
    const N: &str = "brdcst";
    run(N, || {
        do_brdcst(
            N,
            arg(N, "type", ty)?,
            buf,
            arg(N, "lenbuf", lenbuf)?,
            arg(N, "originator", originator)?,
        )
    })
}

/// `DGOP(TYPE, X, N, OP)`: reduction of doubles in place. Returns nothing.
#[no_mangle]
pub extern "C" fn dgop_(
    ty: *const FInt,
    x: *mut c_double,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    const N: &str = "dgop";
    run(N, || {
        do_dgop(
            N,
            arg(N, "type", ty)?,
            x,
            arg(N, "n", n)?,
            chars(N, "op", op, oplen)?,
        )
    })
}

/// `IGOP(TYPE, X, N, OP)`: reduction of integers in place. Returns nothing.
#[no_mangle]
pub extern "C" fn igop_(
    ty: *const FInt,
    x: *mut FInt,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    const N: &str = "igop";
    run(N, || {
        do_igop(
            N,
            arg(N, "type", ty)?,
            x as *mut c_long,
            arg(N, "n", n)?,
            chars(N, "op", op, oplen)?,
        )
    })
}

/// `SYNCH(TYPE)`: barrier. Returns nothing.
#[no_mangle]
pub extern "C" fn synch_(ty: *const FInt) {
    const N: &str = "synch";
    run(N, || api::synch(arg(N, "type", ty)?))
}

/// `INTEGER FUNCTION MTIME()`: returns centiseconds.
#[no_mangle]
pub extern "C" fn mtime_() -> FInt {
    guard("mtime", 0, api::mtime)
}

/// `DOUBLE PRECISION FUNCTION TCGTIME()`: returns seconds.
#[no_mangle]
pub extern "C" fn tcgtime_() -> c_double {
    guard("tcgtime", 0.0, api::time)
}

/// `INTEGER FUNCTION MDTOB(N)`: returns bytes in N doubles.
#[no_mangle]
pub extern "C" fn mdtob_(n: *const FInt) -> FInt {
    run("mdtob", || api::mdtob(arg("mdtob", "n", n)?))
}

/// `INTEGER FUNCTION MITOB(N)`: returns bytes in N integers.
#[no_mangle]
pub extern "C" fn mitob_(n: *const FInt) -> FInt {
    run("mitob", || api::mitob(arg("mitob", "n", n)?))
}

/// `INTEGER FUNCTION MDTOI(N)`: returns integers holding N doubles.
#[no_mangle]
pub extern "C" fn mdtoi_(n: *const FInt) -> FInt {
    run("mdtoi", || api::mdtoi(arg("mdtoi", "n", n)?))
}

/// `INTEGER FUNCTION MITOD(N)`: returns doubles holding N integers.
#[no_mangle]
pub extern "C" fn mitod_(n: *const FInt) -> FInt {
    run("mitod", || api::mitod(arg("mitod", "n", n)?))
}

/// `LLOG()`: output to `log.<node>`. Returns nothing.
#[no_mangle]
pub extern "C" fn llog_() {
    run("llog", api::llog)
}

/// `STATS()`: prints message counts. Returns nothing.
#[no_mangle]
pub extern "C" fn stats_() {
    run("stats", api::stats)
}

/// `SETDBG(ONOFF)`: tracing on or off. Returns nothing.
#[no_mangle]
pub extern "C" fn setdbg_(onoff: *const FInt) {
    run("setdbg", || api::setdbg(arg("setdbg", "onoff", onoff)?))
}

/// `PARERR(CODE)`: ends the job with "User detected error in FORTRAN"; never returns.
#[no_mangle]
pub extern "C" fn parerr_(code: *const FInt) {
    error_exit(
        "User detected error in FORTRAN",
        ptr::get(code).unwrap_or(-1),
    )
}

/// `INTEGER FUNCTION NICEFTN(IVAL)`: returns the new nice value.
#[no_mangle]
pub extern "C" fn niceftn_(ival: *const FInt) -> FInt {
    run("niceftn", || {
        Ok(api::niceftn(arg("niceftn", "ival", ival)?))
    })
}

/// `PFCOPY(TYPE, NODE0, FNAME)`: copies a file to every node (collective).
/// Returns nothing.
#[no_mangle]
pub extern "C" fn pfcopy_(ty: *const FInt, node0: *const FInt, fname: *const c_char, len: usize) {
    const N: &str = "pfcopy";
    run(N, || {
        do_pfcopy(
            N,
            arg(N, "type", ty)?,
            arg(N, "node0", node0)?,
            chars(N, "fname", fname, len)?,
        )
    })
}

/// `DOUBLE PRECISION FUNCTION DRAND48()`: returns a random number in [0, 1).
#[no_mangle]
pub extern "C" fn drand48_() -> c_double {
    guard("drand48", 0.0, api::drand48)
}

/// `SRAND48(SEED)`: seeds DRAND48. Returns nothing.
#[no_mangle]
pub extern "C" fn srand48_(seed: *const FInt) {
    run("srand48", || {
        api::srand48(arg("srand48", "seed", seed)?);
        Ok(())
    })
}

/// `INTEGER FUNCTION TCGREADY()`: returns 1 if TCGMSG is started, else 0.
#[no_mangle]
pub extern "C" fn tcgready_() -> FInt {
    guard("tcgready", 0, || FInt::from(api::ready()))
}
