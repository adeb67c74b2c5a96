//! Errors of the mpC-style run-time: a code (what the C API returns) and a
//! message naming the call.

use shim_core::CoreError;

/// Success.
pub const MPC_OK: i32 = 0;
/// `MPC_Offer`: the program is over, no more work will come.
pub const MPC_DONE: i32 = 1;
/// `MPC_Offer_once` / `HMPI_Group_create` on a free process: a network was
/// made without this process.
pub const MPC_NOT_HIRED: i32 = 2;
/// An argument is out of range or inconsistent (the message says which).
pub const MPC_ERR_ARG: i32 = -1;
/// The run-time is not started (`MPC_Init` was not called) or has ended.
pub const MPC_ERR_NOTINIT: i32 = -2;
/// No network has this handle, or the caller is not a member of it.
pub const MPC_ERR_HANDLE: i32 = -3;
/// The message-passing backend failed.
pub const MPC_ERR_SYSTEM: i32 = -4;
/// The dispatcher cannot map the network (it needs more processes than
/// the job has).
pub const MPC_ERR_MAP: i32 = -5;
/// The call is for another role (the dispatcher's process, or the host).
pub const MPC_ERR_ROLE: i32 = -6;
/// An internal error was caught at the C boundary.
pub const MPC_ERR_INTERNAL: i32 = -7;

/// One error of the run-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MpcError {
    /// One of the `MPC_ERR_*` codes.
    pub code: i32,
    /// What was wrong, naming the call.
    pub message: String,
}

impl MpcError {
    /// An error with `code` and `message`.
    pub fn new(code: i32, message: impl Into<String>) -> MpcError {
        MpcError {
            code,
            message: message.into(),
        }
    }

    /// A bad argument of `call`.
    pub fn arg(call: &str, what: impl std::fmt::Display) -> MpcError {
        MpcError::new(MPC_ERR_ARG, format!("{call}: {what}"))
    }

    /// A backend failure inside `call`.
    pub fn core(call: &str, e: CoreError) -> MpcError {
        let code = match e {
            CoreError::NotInitialized => MPC_ERR_NOTINIT,
            CoreError::InvalidArgument(_) => MPC_ERR_ARG,
            _ => MPC_ERR_SYSTEM,
        };
        MpcError::new(code, format!("{call}: {e}"))
    }
}

/// Result type of the run-time.
pub type MpcResult<T> = Result<T, MpcError>;
