//! What a `ga-server` removes when SIGTERM, SIGINT or SIGHUP ends it: a
//! fixed table of the shared-memory names it created and still owns, and the
//! signal handler that unlinks them. The table is plain atomics so the
//! handler reads it without locks or allocation (only async-signal-safe
//! calls). A SIGKILL cannot be caught: the next server's start-up removes
//! what such a server left (`shm::remove_stale`).

use crate::shm::SHM_DIR;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// Longest name the table holds (without the leading slash).
const NAME_MAX: usize = 120;
/// How many names the table holds; a name past that is still unlinked by
/// the clients once mapped, only not on a signal.
const SLOTS: usize = 1024;
/// A slot's length while its name is being written or erased.
const BUSY: usize = usize::MAX;

struct Slot {
    /// 0: free; `BUSY`: being changed; else the name's length.
    len: AtomicUsize,
    name: [AtomicU8; NAME_MAX],
}

impl Slot {
    const fn new() -> Slot {
        Slot {
            len: AtomicUsize::new(0),
            name: [const { AtomicU8::new(0) }; NAME_MAX],
        }
    }
}

static TABLE: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];

/// Records a segment this process created (`/name` or `name`), so a fatal
/// signal unlinks it. Returns false if the name is too long or the table is
/// full.
pub fn register(name: &str) -> bool {
    let b = name.trim_start_matches('/').as_bytes();
    if b.is_empty() || b.len() > NAME_MAX {
        return false;
    }
    for slot in &TABLE {
        if slot
            .len
            .compare_exchange(0, BUSY, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            for (dst, &src) in slot.name.iter().zip(b) {
                dst.store(src, Ordering::Relaxed);
            }
            slot.len.store(b.len(), Ordering::Release);
            return true;
        }
    }
    false
}

/// Forgets a segment (it was unlinked or handed over).
pub fn unregister(name: &str) {
    let b = name.trim_start_matches('/').as_bytes();
    for slot in &TABLE {
        let len = slot.len.load(Ordering::Acquire);
        if len == b.len()
            && slot.name[..len]
                .iter()
                .zip(b)
                .all(|(x, &y)| x.load(Ordering::Relaxed) == y)
            && slot
                .len
                .compare_exchange(len, 0, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            return;
        }
    }
}

/// Unlinks every recorded name (from the signal handler or on exit).
fn unlink_all() {
    let dir = SHM_DIR.as_bytes();
    let mut path = [0u8; 16 + NAME_MAX + 2];
    path[..dir.len()].copy_from_slice(dir);
    path[dir.len()] = b'/';
    let start = dir.len() + 1;
    for slot in &TABLE {
        let len = slot.len.load(Ordering::Acquire);
        if len == 0 || len > NAME_MAX {
            continue;
        }
        for (i, c) in slot.name[..len].iter().enumerate() {
            path[start + i] = c.load(Ordering::Relaxed);
        }
        path[start + len] = 0;
        crate::sys::unlink_in_handler(&path[..start + len + 1]);
    }
}

extern "C" fn on_signal(sig: c_int) {
    unlink_all();
    crate::sys::reraise(sig);
}

/// Installs the handler for SIGTERM, SIGINT and SIGHUP.
pub fn install() {
    crate::sys::on_fatal_signals(on_signal);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_names_are_unlinked_and_forgotten_ones_kept() {
        let pid = std::process::id();
        let kept = format!("mpbga-test-{pid}-kept");
        let gone = format!("mpbga-test-{pid}-gone");
        for n in [&kept, &gone] {
            std::fs::write(format!("{SHM_DIR}/{n}"), b"x").unwrap();
        }
        assert!(register(&format!("/{gone}")));
        assert!(register(&kept));
        unregister(&kept);
        unlink_all();
        assert!(!std::path::Path::new(&format!("{SHM_DIR}/{gone}")).exists());
        assert!(std::path::Path::new(&format!("{SHM_DIR}/{kept}")).exists());
        std::fs::remove_file(format!("{SHM_DIR}/{kept}")).unwrap();
        unregister(&gone);
        assert!(!register(&"x".repeat(NAME_MAX + 1)));
    }
}
