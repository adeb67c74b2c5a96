//! Errors of the HPF run-time: a code (the value the C API returns) and a
//! message naming the call and the argument at fault.

use shim_core::CoreError;
use std::fmt;

/// Success.
pub const HPF_OK: i32 = 0;
/// An argument is out of range or inconsistent (the message says which).
pub const HPF_EBADARG: i32 = -1;
/// The run-time is not initialised (`hpf_init` was not called).
pub const HPF_ENOTINIT: i32 = -2;
/// No processor grid or DAD has this handle.
pub const HPF_EBADHANDLE: i32 = -3;
/// Two arrays are not conformable or not aligned for the operation.
pub const HPF_EMISMATCH: i32 = -4;
/// The message-passing backend failed.
pub const HPF_ESYSTEM: i32 = -5;
/// An internal error was caught at the C boundary.
pub const HPF_EINTERNAL: i32 = -6;

/// One error of the run-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HpfError {
    /// One of the `HPF_E*` codes.
    pub code: i32,
    /// What was wrong, naming the call.
    pub message: String,
}

impl HpfError {
    /// An error with `code` and `message`.
    pub fn new(code: i32, message: impl Into<String>) -> HpfError {
        HpfError {
            code,
            message: message.into(),
        }
    }

    /// A bad argument of `call`.
    pub fn bad_arg(call: &str, what: impl fmt::Display) -> HpfError {
        HpfError::new(HPF_EBADARG, format!("{call}: {what}"))
    }

    /// Arrays of `call` that do not match.
    pub fn mismatch(call: &str, what: impl fmt::Display) -> HpfError {
        HpfError::new(HPF_EMISMATCH, format!("{call}: {what}"))
    }

    /// A backend failure inside `call`.
    pub fn core(call: &str, e: CoreError) -> HpfError {
        let code = match e {
            CoreError::NotInitialized => HPF_ENOTINIT,
            CoreError::InvalidArgument(_) => HPF_EBADARG,
            _ => HPF_ESYSTEM,
        };
        HpfError::new(code, format!("{call}: {e}"))
    }
}

impl fmt::Display for HpfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

impl std::error::Error for HpfError {}

/// Result type of the run-time.
pub type HpfResult<T> = Result<T, HpfError>;
