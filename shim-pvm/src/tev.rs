//! PVM trace events: the task's trace masks (`pvm_settmask`,
//! `pvm_gettmask`, with PVM's event numbers and mask layout) and the
//! events they select, written to the `MPBRIDGE_TRACE` file through
//! `shim_core::trace`.
//!
//! A mask is `MASK_LEN` bytes: event `k` is bit `k % 4` of byte `k / 4`,
//! every byte based on `'@'`, the last byte 0. A fresh mask selects every
//! event when the process traces (`MPBRIDGE_TRACE` set) and none
//! otherwise; `pvm_settmask(PvmTaskSelf, ...)` narrows or widens it.

use shim_core::procid::ProcId;
use shim_core::trace::{self, Event};
use shim_core::Lock;

/// Bytes of a trace mask, its terminating 0 included.
pub const MASK_LEN: usize = 36;

/// PVM's event numbers of the calls that are traced.
pub mod ev {
    pub const BARRIER: usize = 1;
    pub const BCAST: usize = 2;
    pub const EXIT: usize = 7;
    pub const JOINGROUP: usize = 19;
    pub const LVGROUP: usize = 22;
    pub const MCAST: usize = 23;
    pub const NRECV: usize = 28;
    pub const RECV: usize = 45;
    pub const SEND: usize = 47;
    pub const SPAWN: usize = 52;
    pub const TRECV: usize = 57;
    pub const PRECV: usize = 84;
    pub const PSEND: usize = 85;
    pub const REDUCE: usize = 86;
    pub const GATHER: usize = 90;
    pub const SCATTER: usize = 91;
    /// The highest event number PVM defines.
    pub const MAX: usize = 108;
}

/// Masks of the task itself and of its future children.
static MASKS: Lock<Option<[[u8; MASK_LEN]; 2]>> = Lock::new(None);

/// A mask with no event selected.
pub fn cleared() -> [u8; MASK_LEN] {
    let mut m = [b'@'; MASK_LEN];
    m[MASK_LEN - 1] = 0;
    m
}

/// A mask with every event selected.
fn full() -> [u8; MASK_LEN] {
    let mut m = cleared();
    for k in 0..=ev::MAX {
        m[k / 4] |= 1 << (k % 4);
    }
    m
}

fn fresh() -> [u8; MASK_LEN] {
    if trace::on() {
        full()
    } else {
        cleared()
    }
}

/// The mask of `slot` (0: the task, 1: its children).
pub fn get(slot: usize) -> [u8; MASK_LEN] {
    MASKS.lock().get_or_insert_with(|| [fresh(); 2])[slot]
}

/// Replaces the mask of `slot` (0: the task, 1: its children).
pub fn set(slot: usize, mask: &[u8]) {
    let mut g = MASKS.lock();
    let masks = g.get_or_insert_with(|| [fresh(); 2]);
    masks[slot].copy_from_slice(&mask[..MASK_LEN]);
}

/// True when `mask` selects event `k`.
pub fn selects(mask: &[u8; MASK_LEN], k: usize) -> bool {
    k <= ev::MAX && mask[k / 4] & (1 << (k % 4)) != 0
}

/// True when the process traces and the task's mask selects `k`.
#[inline]
pub fn wants(k: usize) -> bool {
    trace::on() && selects(&get(0), k)
}

fn id(tid: i32) -> Option<ProcId> {
    ProcId::from_raw(tid as u32)
}

/// A message sent to `tid` by the call with event number `k`.
#[inline]
pub fn sent(k: usize, tid: i32, tag: i32, bytes: usize) {
    message(k, tid, |to| Event::Send { to, tag, bytes });
}

/// A message from `tid` received by the call with event number `k`.
#[inline]
pub fn received(k: usize, tid: i32, tag: i32, bytes: usize) {
    message(k, tid, |from| Event::Recv { from, tag, bytes });
}

/// Records the message event `event` makes of the peer `tid`, when the
/// task's mask selects `k` and `tid` is a task id.
#[inline]
fn message(k: usize, tid: i32, event: impl FnOnce(ProcId) -> Event<'static>) {
    if !wants(k) {
        return;
    }
    if let Some(peer) = id(tid) {
        trace::record("pvm", event(peer));
    }
}

/// Tasks started by `pvm_spawn`.
pub fn spawned(program: &str, tids: &[i32]) {
    if !wants(ev::SPAWN) {
        return;
    }
    let children: Vec<ProcId> = tids.iter().filter_map(|&t| id(t)).collect();
    trace::record(
        "pvm",
        Event::Spawn {
            program,
            children: &children,
        },
    );
}

/// A group call (`op`) on `group`, with event number `k`.
pub fn group_call(k: usize, op: &str, group: &[u8]) {
    if wants(k) {
        let group = String::from_utf8_lossy(group);
        trace::record("pvm", Event::Collective { op, group: &group });
    }
}

/// `pvm_exit`.
pub fn exited() {
    if wants(ev::EXIT) {
        trace::record("pvm", Event::Exit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_bits_follow_pvm_layout() {
        let mut m = cleared();
        assert!(!selects(&m, ev::SEND));
        m[ev::SEND / 4] |= 1 << (ev::SEND % 4);
        assert!(selects(&m, ev::SEND));
        assert!(!selects(&m, ev::RECV));
        assert_eq!(m[ev::SEND / 4], b'@' | 8);
        assert_eq!(m[MASK_LEN - 1], 0);
        let f = full();
        assert!((0..=ev::MAX).all(|k| selects(&f, k)));
        assert!(!selects(&f, ev::MAX + 1));
    }
}
