//! The panic boundary every exported C or Fortran function goes through: a
//! panic is reported on stderr with the function's name and turned into the
//! function's error value; it never unwinds into C.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`; on panic prints `mpbridge: internal error in NAME: ...` and
/// returns `on_panic`.
#[inline]
pub fn guard<R>(name: &str, on_panic: R, f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            report_panic(name, p);
            on_panic
        }
    }
}

/// Prints `mpbridge: internal error in NAME: ...` for a panic caught in
/// entry point `name` (for layers whose entry points catch panics inline
/// and turn them into their own error values).
#[cold]
#[inline(never)]
pub fn report_panic(name: &str, payload: Box<dyn Any + Send>) {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    eprintln!("mpbridge: internal error in {name}: {msg}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_becomes_value() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = guard("t", -6, || -> i32 { panic!("boom") });
        std::panic::set_hook(prev);
        assert_eq!(r, -6);
        assert_eq!(guard("t", -6, || 3), 3);
    }
}
