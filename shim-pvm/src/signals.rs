//! Signals between tasks: a signal another task sent with `pvm_sendsig`
//! arrives as a system message and is raised in this process.

use crate::ptr;

/// Raises a signal another task sent with `pvm_sendsig`.
pub(crate) fn deliver_signal(signum: i32) {
    if (1..65).contains(&signum) {
        ptr::raise_signal(signum);
    }
}
