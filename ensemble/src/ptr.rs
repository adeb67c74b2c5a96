//! The crate's pointer conversions for its C ABI: reading C strings and
//! argument vectors, rewriting `argc`/`argv`, and publishing the C view of
//! a PVM interface. Every `unsafe` of the crate is here (MPI and PVM are
//! reached through shim-core's and the PVM layer's safe APIs); callers pass
//! pointers straight from C.

use std::ffi::{c_char, c_int};

/// A C string as UTF-8 text, or `None` for NULL or invalid UTF-8.
pub use shim_core::cstr::text as c_str;

/// The strings of `names[0..n]` (NULL entries fail).
pub fn c_str_array<'a>(names: *const *const c_char, n: c_int) -> Option<Vec<&'a str>> {
    if n < 0 || (n > 0 && names.is_null()) {
        return None;
    }
    (0..n as usize)
        .map(|i| {
            // SAFETY: C passes an array of at least `n` string pointers.
            let p = unsafe { *names.add(i) };
            c_str(p)
        })
        .collect()
}

/// The arguments of `main`: `(*argc, *argv)` as owned strings.
pub fn read_args(argc: *mut c_int, argv: *mut *mut *mut c_char) -> Option<Vec<String>> {
    if argc.is_null() || argv.is_null() {
        return None;
    }
    // SAFETY: the caller passes `&argc` and `&argv` of `main`.
    let (n, v) = unsafe { (*argc, *argv) };
    if n < 0 || (n > 0 && v.is_null()) {
        return None;
    }
    (0..n as usize)
        .map(|i| {
            // SAFETY: argv has argc entries.
            let p = unsafe { *v.add(i) };
            c_str(p).map(str::to_string)
        })
        .collect()
}

/// Removes the entries `from..=to` of `main`'s `argv` in place (later
/// entries move down, the terminating NULL follows) and lowers `*argc`.
pub fn remove_args(argc: *mut c_int, argv: *mut *mut *mut c_char, from: usize, to: usize) {
    // SAFETY: same pointers `read_args` accepted; argv[argc] is the NULL
    // entry C guarantees, and only entries up to it are moved.
    unsafe {
        let n = *argc as usize;
        let v = *argv;
        let gone = to + 1 - from;
        for i in from..=(n - gone) {
            *v.add(i) = *v.add(i + gone);
        }
        *argc = (n - gone) as c_int;
    }
}

/// Stores `p` into a C global pointer variable.
pub fn publish<T>(global: *mut *mut T, p: *mut T) {
    // SAFETY: `global` is the address of one of this crate's exported
    // statics; C reads it only between calls into the runtime.
    unsafe { global.write(p) }
}
