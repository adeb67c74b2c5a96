//! The C entry points of the custom matcher (`pvm_recvf`) and of message
//! handlers (`pvm_addmhf`, `pvm_delmhf`, `pvmdisplaymhfinfo`), over
//! [`crate::handlers`].

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::capi_entry::{bad, entry, text_arg};
use crate::consts::err;
use crate::handlers::{
    default_matcher, is_default, Handler, HandlerFn, Matcher, HANDLERS, HAVE_HANDLERS, MATCHER,
    MATCHER_ON,
};
use crate::PvmError;
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_int};
use std::sync::atomic::Ordering;

/// Installs `new` as the matching function of `pvm_recv`, `pvm_nrecv`,
/// `pvm_trecv` and `pvm_probe` (NULL, or the function this call returned
/// earlier for the default, restores PVM's matching). The matcher gets
/// `(bufid, tid, tag)` for each queued message in arrival order (`tid` and
/// `tag` as the receive call was given them) and returns < 0 (the call
/// fails with that code), 0 (skip), 1 (take it now) or > 1 (a rank: the
/// highest is taken after all were seen). Returns the previous matcher: a
/// pointer to the default one when none was installed.
#[no_mangle]
pub extern "C" fn pvm_recvf(new: Option<Matcher>) -> Option<Matcher> {
    guard("pvm_recvf", None, || {
        let new = new.filter(|f| !is_default(*f));
        let mut g = MATCHER.lock();
        let old = std::mem::replace(&mut *g, new);
        MATCHER_ON.store(g.is_some(), Ordering::Release);
        Some(old.unwrap_or(default_matcher))
    })
}

/// Installs `func` as the handler of arriving messages whose source, tag
/// and context match (`src`, `tag`, `ctx` may be -1 = any). The handler is
/// called with the message's buffer id as the receive buffer, during a
/// later PVM call (receive calls included), and the message does not reach
/// the receive calls. Returns the handler id (>= 0), PvmExists (an
/// installed handler overlaps, wildcards included), PvmBadParam (NULL).
#[no_mangle]
pub extern "C" fn pvm_addmhf(src: c_int, tag: c_int, ctx: c_int, func: Option<HandlerFn>) -> c_int {
    entry("pvm_addmhf", || {
        let f = func.ok_or_else(bad)?;
        let mut hs = HANDLERS.lock();
        let overlaps = |a: i32, b: i32| a == -1 || b == -1 || a == b;
        if hs
            .iter()
            .flatten()
            .any(|h| overlaps(h.src, src) && overlaps(h.tag, tag) && overlaps(h.ctx, ctx))
        {
            return Err(PvmError(err::EXISTS));
        }
        let h = Handler { src, tag, ctx, f };
        let id = match hs.iter().position(Option::is_none) {
            Some(i) => {
                hs[i] = Some(h);
                i
            }
            None => {
                hs.push(Some(h));
                hs.len() - 1
            }
        };
        HAVE_HANDLERS.store(true, Ordering::Release);
        Ok(id as c_int)
    })
}

/// Removes handler `mhid`. Returns PvmOk, PvmBadParam (negative),
/// PvmNotFound.
#[no_mangle]
pub extern "C" fn pvm_delmhf(mhid: c_int) -> c_int {
    entry("pvm_delmhf", || {
        let i = usize::try_from(mhid).map_err(|_| bad())?;
        let mut hs = HANDLERS.lock();
        match hs.get_mut(i) {
            Some(slot @ Some(_)) => {
                *slot = None;
                let any = hs.iter().any(Option::is_some);
                HAVE_HANDLERS.store(any, Ordering::Release);
                Ok(0)
            }
            _ => Err(PvmError(err::NOT_FOUND)),
        }
    })
}

/// Prints the installed message handlers to stdout, headed by `who`,
/// `msg` and `tid` (libpvm's debugging aid). Returns 0.
#[no_mangle]
pub extern "C" fn pvmdisplaymhfinfo(who: *const c_char, msg: *const c_char, tid: c_int) -> c_int {
    guard("pvmdisplaymhfinfo", 0, || {
        let who = text_arg(who).unwrap_or_default();
        let msg = text_arg(msg).unwrap_or_default();
        let hs = HANDLERS.lock();
        let mut out = format!("{who} [t{tid:x}]: {msg}\n");
        let n = hs.iter().flatten().count();
        out.push_str(&format!("  {n} message handler(s)\n"));
        for (i, h) in hs.iter().enumerate() {
            if let Some(h) = h {
                out.push_str(&format!(
                    "  mhid {i}: src {} tag {} ctx {}\n",
                    show_tid(h.src),
                    h.tag,
                    h.ctx
                ));
            }
        }
        print!("{out}");
        0
    })
}

fn show_tid(t: i32) -> String {
    if t == -1 {
        "-1".into()
    } else {
        format!("t{t:x}")
    }
}
