//! Errors of the core backend. Layers map them onto their own API's codes.

use crate::procid::ProcId;
use std::fmt;

/// What went wrong in a core call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// No layer has joined the backend (or the last one left).
    NotInitialized,
    /// MPI was finalised; the backend cannot start again in this process.
    Finalized,
    /// An argument is out of range; the text says which.
    InvalidArgument(String),
    /// The message did not fit the receive buffer; `len` is its full length.
    Truncated { len: usize },
    /// A timed receive expired.
    Timeout,
    /// An MPI call failed.
    Mpi {
        call: &'static str,
        code: i32,
        text: String,
    },
    /// No process has this id (or it can no longer be reached).
    UnknownPeer(ProcId),
    /// No context has this id.
    UnknownContext(u32),
    /// Ranks disagree (e.g. contexts created in different orders).
    Inconsistent(String),
    /// Starting processes failed.
    Spawn(String),
    /// A process this call waited for has ended; the text says which.
    PeerEnded(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NotInitialized => write!(f, "the mpbridge backend is not initialised"),
            CoreError::Finalized => write!(f, "MPI has been finalised in this process"),
            CoreError::InvalidArgument(s) => write!(f, "invalid argument: {s}"),
            CoreError::Truncated { len } => {
                write!(f, "message of {len} bytes does not fit the receive buffer")
            }
            CoreError::Timeout => write!(f, "receive timed out"),
            CoreError::Mpi { call, code, text } => write!(f, "{call} failed ({code}): {text}"),
            CoreError::UnknownPeer(id) => write!(f, "no process with id {id}"),
            CoreError::UnknownContext(c) => write!(f, "no context with id {c:#x}"),
            CoreError::Inconsistent(s) => write!(f, "processes disagree: {s}"),
            CoreError::Spawn(s) => write!(f, "spawn failed: {s}"),
            CoreError::PeerEnded(s) => write!(f, "a process ended: {s}"),
        }
    }
}

impl std::error::Error for CoreError {}

/// Result type of the core.
pub type CoreResult<T> = Result<T, CoreError>;
