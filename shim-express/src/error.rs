//! Express error codes and the text of the last error.
//!
//! Every Express call returns a negative code on failure (see `express.h`
//! for the list); the text saying which call and argument was wrong is kept
//! per thread and returned by `exerrmsg`.

use shim_core::CoreError;
use std::cell::RefCell;
use std::fmt;

/// `extest`: no matching message is waiting (also the value of `DONTCARE`).
pub const EXNOMSG: i32 = -1;
/// A node number is not a node (nor the host, nor `EXNONODE` where allowed).
pub const EXBADNODE: i32 = -2;
/// A length, item size, item count or stride is negative or out of range.
pub const EXBADLEN: i32 = -3;
/// A NULL buffer or pointer where the call needs memory.
pub const EXNULLBUF: i32 = -4;
/// A message or result is longer than the buffer given for it.
pub const EXTOOLONG: i32 = -5;
/// The caller is not in the node list of a collective (or is the host).
pub const EXNOTMEMBER: i32 = -6;
/// A node list is malformed: negative count, NULL list with a positive
/// count, a node out of range or named twice.
pub const EXBADLIST: i32 = -7;
/// No grid has this id, or a grid's shape does not fit the nodes.
pub const EXBADGRID: i32 = -8;
/// No pending operation has this message id.
pub const EXBADID: i32 = -9;
/// A NULL function, or a predefined function whose element size does
/// not divide the item size.
pub const EXBADFUNC: i32 = -10;
/// Another argument is out of range (dimension, coordinate, direction).
pub const EXBADARG: i32 = -11;
/// The MPI backend failed; the text says how.
pub const EXSYSERR: i32 = -12;
/// An internal error (a bug) was caught at the API boundary.
pub const EXINTERNAL: i32 = -13;

/// What went wrong in an Express call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExError {
    /// One of the codes above.
    pub code: i32,
    /// Which call, which argument, why.
    pub msg: String,
}

impl ExError {
    /// An error with `code` and text `msg`.
    pub fn new(code: i32, msg: impl Into<String>) -> ExError {
        ExError {
            code,
            msg: msg.into(),
        }
    }

    /// A backend failure during `call`.
    pub fn core(call: &str, e: CoreError) -> ExError {
        ExError::new(EXSYSERR, format!("{call}: {e}"))
    }
}

impl fmt::Display for ExError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.msg, self.code)
    }
}

impl std::error::Error for ExError {}

/// Result of the Express layer.
pub type ExResult<T> = Result<T, ExError>;

thread_local! {
    static LAST: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Records `e` as this thread's last error and returns its code.
pub fn record(e: &ExError) -> i32 {
    shim_core::log::tracing::debug!(target: "express", code = e.code, "call failed: {}", e.msg);
    LAST.with(|l| *l.borrow_mut() = e.msg.clone());
    e.code
}

/// This thread's last error text ("" if none).
pub fn last() -> String {
    LAST.with(|l| l.borrow().clone())
}
