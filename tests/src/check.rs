//! Checks inside multi-rank test programs: each failed check prints where it
//! failed; the program ends with `N passed, N failed` and a non-zero status
//! when anything failed.

use std::sync::atomic::{AtomicUsize, Ordering};

static PASSED: AtomicUsize = AtomicUsize::new(0);
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// Records one check.
pub fn record(ok: bool, what: &str, file: &str, line: u32) {
    if ok {
        PASSED.fetch_add(1, Ordering::Relaxed);
    } else {
        FAILED.fetch_add(1, Ordering::Relaxed);
        eprintln!("FAILED {file}:{line}: {what}");
    }
}

/// Prints the tally for `who` and exits with 1 if anything failed.
pub fn finish(who: &str) -> ! {
    let p = PASSED.load(Ordering::Relaxed);
    let f = FAILED.load(Ordering::Relaxed);
    println!("{who}: {p} passed, {f} failed");
    std::process::exit(if f == 0 { 0 } else { 1 })
}

/// Checks a condition; the message says what was expected.
#[macro_export]
macro_rules! check {
    ($cond:expr, $($msg:tt)+) => {
        $crate::check::record($cond, &format!($($msg)+), file!(), line!())
    };
}

/// Checks two values for equality.
#[macro_export]
macro_rules! check_eq {
    ($a:expr, $b:expr, $($msg:tt)+) => {{
        let (a, b) = (&$a, &$b);
        $crate::check::record(a == b, &format!("{}: {:?} != {:?}", format!($($msg)+), a, b), file!(), line!())
    }};
}
