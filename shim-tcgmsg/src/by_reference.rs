//! The by-reference entry points of TCGMSG, each written once for its two
//! symbols: the upper-case `NAME_` function of `sndrcv.h` (C, integers as
//! `long *`) and the Fortran routine `name_` as gfortran calls it
//! (`INTEGER` is 8 bytes, the same `long`; see [`crate::fapi`]). The two
//! share every argument, so one macro makes both. Routines with a
//! `CHARACTER` argument differ (a C string against a Fortran string with a
//! hidden length) and stay in [`crate::capi`] and [`crate::fapi`].
//!
//! As everywhere in TCGMSG, a failure ends the whole job (see
//! [`crate::capi`]); nothing here returns an error code.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::api::{self, error_exit};
use crate::capi::{do_brdcst, do_rcv, do_snd, pend_guarded, run};
use crate::layer::{TcgError, TcgResult};
use crate::ptr;
use shim_core::ffi_guard::guard;
use std::ffi::{c_double, c_long, c_void};

/// The integer `*p` of argument `what` of `call`.
fn arg(call: &str, what: &str, p: *const c_long) -> TcgResult<c_long> {
    ptr::get(p).ok_or_else(|| TcgError::new(format!("{call}: argument {what} is missing"), -1))
}

/// Defines each listed routine under both names. `|n|` binds the name of
/// the symbol being called, for messages.
macro_rules! both_names {
    ($(
        $(#[doc = $doc:literal])*
        $c:ident / $f:ident ($($p:ident : $t:ty),*) $(-> $r:ty)? = |$n:ident| $body:expr;
    )*) => {$(
        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $c($($p: $t),*) $(-> $r)? {
            let $n: &str = stringify!($c);
            $body
        }
        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $f($($p: $t),*) $(-> $r)? {
            let $n: &str = stringify!($f);
            $body
        }
    )*};
}

both_names! {
    /// `PBEGINF()`: starts TCGMSG (collective). Returns nothing.
    PBEGINF_ / pbeginf_ () = |n| run(n, api::pbegin);
    /// `PBGINF()`: the same as `PBEGINF`. Returns nothing.
    PBGINF_ / pbginf_ () = |n| run(n, api::pbegin);
    /// `PEND()`: stops TCGMSG and ends the process with status 0; never
    /// returns.
    PEND_ / pend_ () = |n| pend_guarded(n);
    /// `NNODES()`: returns the number of processes.
    NNODES_ / nnodes_ () -> c_long = |n| guard(n, 1, api::nnodes);
    /// `NODEID()`: returns this process's node number.
    NODEID_ / nodeid_ () -> c_long = |n| guard(n, 0, api::nodeid);
    /// `SND(TYPE, BUF, LENBUF, NODE, SYNC)`: sends LENBUF bytes
    /// (asynchronously when SYNC is 0). Returns nothing.
    SND_ / snd_ (
        ty: *const c_long,
        buf: *mut c_void,
        lenbuf: *const c_long,
        node: *const c_long,
        sync: *const c_long
    ) = |n| run(n, || {
        let (t, l) = (arg(n, "type", ty)?, arg(n, "lenbuf", lenbuf)?);
        let (d, s) = (arg(n, "node", node)?, arg(n, "sync", sync)?);
        do_snd(n, t, buf, l, d, s)
    });
    /// `RCV(TYPE, BUF, LENBUF, LENMES, NODESEL, NODEFROM, SYNC)`: receives
    /// a message; LENMES and NODEFROM are set. Returns nothing.
    RCV_ / rcv_ (
        ty: *const c_long,
        buf: *mut c_void,
        lenbuf: *const c_long,
        lenmes: *mut c_long,
        nodesel: *const c_long,
        nodefrom: *mut c_long,
        sync: *const c_long
    ) = |n| run(n, || {
        let (t, l) = (arg(n, "type", ty)?, arg(n, "lenbuf", lenbuf)?);
        let (sel, s) = (arg(n, "nodesel", nodesel)?, arg(n, "sync", sync)?);
        do_rcv(n, t, buf, l, lenmes, sel, nodefrom, s)
    });
    /// `PROBE(TYPE, NODE)`: returns 1 if a message of TYPE from NODE (-1:
    /// any) is waiting, else 0.
    PROBE_ / probe_ (ty: *const c_long, node: *const c_long) -> c_long = |n| run(n, || {
        api::probe(arg(n, "type", ty)?, arg(n, "node", node)?).map(c_long::from)
    });
    /// `WAITCOM(NODE)`: completes the asynchronous operations with NODE
    /// (-1: all). Returns nothing.
    WAITCOM_ / waitcom_ (node: *const c_long) = |n| run(n, || api::waitcom(arg(n, "node", node)?));
    /// `BRDCST(TYPE, BUF, LENBUF, ORIGINATOR)`: broadcast (collective).
    /// Returns nothing.
    BRDCST_ / brdcst_ (
        ty: *const c_long,
        buf: *mut c_void,
        lenbuf: *const c_long,
        originator: *const c_long
    ) = |n| run(n, || {
        let (t, l) = (arg(n, "type", ty)?, arg(n, "lenbuf", lenbuf)?);
        do_brdcst(n, t, buf, l, arg(n, "originator", originator)?)
    });
    /// `SYNCH(TYPE)`: barrier of all nodes. Returns nothing.
    SYNCH_ / synch_ (ty: *const c_long) = |n| run(n, || api::synch(arg(n, "type", ty)?));
    /// `MTIME()`: returns wall-clock centiseconds.
    MTIME_ / mtime_ () -> c_long = |n| guard(n, 0, api::mtime);
    /// `TCGTIME()`: returns wall-clock seconds.
    TCGTIME_ / tcgtime_ () -> c_double = |n| guard(n, 0.0, api::time);
    /// `MDTOB(N)`: returns the bytes in N doubles.
    MDTOB_ / mdtob_ (v: *const c_long) -> c_long = |n| run(n, || api::mdtob(arg(n, "n", v)?));
    /// `MITOB(N)`: returns the bytes in N integers.
    MITOB_ / mitob_ (v: *const c_long) -> c_long = |n| run(n, || api::mitob(arg(n, "n", v)?));
    /// `MDTOI(N)`: returns the fewest integers holding N doubles.
    MDTOI_ / mdtoi_ (v: *const c_long) -> c_long = |n| run(n, || api::mdtoi(arg(n, "n", v)?));
    /// `MITOD(N)`: returns the fewest doubles holding N integers.
    MITOD_ / mitod_ (v: *const c_long) -> c_long = |n| run(n, || api::mitod(arg(n, "n", v)?));
    /// `LLOG()`: sends this node's output to `log.<node>`. Returns nothing.
    LLOG_ / llog_ () = |n| run(n, api::llog);
    /// `STATS()`: prints message counts. Returns nothing.
    STATS_ / stats_ () = |n| run(n, api::stats);
    /// `SETDBG(ONOFF)`: tracing on or off. Returns nothing.
    SETDBG_ / setdbg_ (onoff: *const c_long) = |n| run(n, || api::setdbg(arg(n, "onoff", onoff)?));
    /// `PARERR(CODE)`: ends the job with "User detected error in FORTRAN"
    /// and CODE; never returns.
    PARERR_ / parerr_ (code: *const c_long) = |_n| {
        error_exit("User detected error in FORTRAN", ptr::get(code).unwrap_or(-1))
    };
    /// `NICEFTN(IVAL)`: changes the priority by IVAL; returns the new nice
    /// value.
    NICEFTN_ / niceftn_ (ival: *const c_long) -> c_long = |n| run(n, || {
        Ok(api::niceftn(arg(n, "ival", ival)?))
    });
    /// `DRAND48()`: returns a uniform random double in [0, 1).
    DRAND48_ / drand48_ () -> c_double = |n| guard(n, 0.0, api::drand48);
    /// `SRAND48(SEED)`: seeds `DRAND48`. Returns nothing.
    SRAND48_ / srand48_ (seed: *const c_long) = |n| run(n, || {
        api::srand48(arg(n, "seed", seed)?);
        Ok(())
    });
    /// `TCGREADY()`: returns 1 if TCGMSG is started, else 0.
    TCGREADY_ / tcgready_ () -> c_long = |n| guard(n, 0, || c_long::from(api::ready()));
}
