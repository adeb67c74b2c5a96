//! The TCGMSG Fortran ABI, as gfortran calls it: the routines with a
//! `CHARACTER` argument (`dgop_`, `igop_`, `pfcopy_`). The others have the
//! same arguments as the upper-case C functions of `sndrcv.h` and share
//! their definitions in [`crate::by_reference`].
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

use crate::capi::{do_dgop, do_igop, do_pfcopy, run};
use crate::layer::{TcgError, TcgResult};
use crate::ptr;
use std::ffi::{c_char, c_double};

/// Fortran `INTEGER` (8 bytes, see the module docs).
type FInt = i64;

fn arg(call: &str, what: &str, p: *const FInt) -> TcgResult<FInt> {
    ptr::get(p).ok_or_else(|| TcgError::new(format!("{call}: argument {what} is missing"), -1))
}

fn chars<'a>(call: &str, what: &str, p: *const c_char, len: usize) -> TcgResult<&'a [u8]> {
    ptr::f_chars(p, len)
        .ok_or_else(|| TcgError::new(format!("{call}: argument {what} is missing"), -1))
}

/// Defines the Fortran entry `$name(TYPE, X, N, OP)` of a reduction in
/// place over `$elem` values, handing its arguments to `$body`.
macro_rules! fortran_gop {
    ($(#[$doc:meta])* $name:ident, $call:literal, $elem:ty, $body:path) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name(
            ty: *const FInt,
            x: *mut $elem,
            n: *const FInt,
            op: *const c_char,
            oplen: usize,
        ) {
            const N: &str = $call;
            run(N, || {
                $body(
                    N,
                    arg(N, "type", ty)?,
                    x.cast(),
                    arg(N, "n", n)?,
                    chars(N, "op", op, oplen)?,
                )
            })
        }
    };
}

fortran_gop!(
    /// `DGOP(TYPE, X, N, OP)`: reduction of doubles in place. Returns nothing.
    dgop_,
    "dgop",
    c_double,
    do_dgop
);
fortran_gop!(
    /// `IGOP(TYPE, X, N, OP)`: reduction of integers in place. Returns nothing.
    igop_,
    "igop",
    FInt,
    do_igop
);

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
