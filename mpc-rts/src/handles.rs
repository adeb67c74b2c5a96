//! The C API's network handles: positive integers naming the region
//! descriptors this process holds (0 is "no network"), shared by the
//! `MPC_*` and `HMPI_*` calls, and the message of the last error.

use crate::error::{MpcError, MpcResult, MPC_ERR_HANDLE, MPC_ERR_INTERNAL, MPC_OK};
use crate::net::Net;
use crate::ptr::HeldComm;
use shim_core::ffi_guard::guard;
use shim_core::mpi::Comm;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::Mutex;

/// A held network and the communicator handle given out for it.
pub struct Held {
    pub net: Net,
    /// Kept here so `HMPI_Get_comm` can return a pointer that stays valid
    /// until the network is freed.
    pub comm: HeldComm,
}

struct Table {
    nets: HashMap<c_int, Held>,
    next: c_int,
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn table<R>(f: impl FnOnce(&mut Table) -> R) -> R {
    let mut t = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    f(t.get_or_insert_with(|| Table {
        nets: HashMap::new(),
        next: 1,
    }))
}

/// Keeps `net`; returns its handle.
pub fn insert(net: Net) -> c_int {
    let comm = HeldComm::new(net.comm().unwrap_or_else(Comm::null).raw());
    table(|t| {
        let h = t.next;
        t.next = t.next.checked_add(1).unwrap_or(1);
        t.nets.insert(h, Held { net, comm });
        h
    })
}

/// Runs `f` on the network `h`.
pub fn with<R>(call: &str, h: c_int, f: impl FnOnce(&Held) -> MpcResult<R>) -> MpcResult<R> {
    table(|t| match t.nets.get(&h) {
        Some(held) => f(held),
        None => Err(MpcError::new(
            MPC_ERR_HANDLE,
            format!("{call}: no network {h}"),
        )),
    })
}

/// Takes network `h` out of the table.
pub fn remove(call: &str, h: c_int) -> MpcResult<Net> {
    table(|t| t.nets.remove(&h))
        .map(|held| held.net)
        .ok_or_else(|| MpcError::new(MPC_ERR_HANDLE, format!("{call}: no network {h}")))
}

/// Whether this process is a member of any network it holds.
pub fn member_of_any() -> bool {
    table(|t| t.nets.values().any(|h| h.net.is_member()))
}

/// Drops every handle (at `MPC_Finalize`).
pub fn clear() {
    let old = TABLE.lock().unwrap_or_else(|e| e.into_inner()).take();
    drop(old);
}

/// Runs an exported call: `Ok(v)` gives `v`; an error is kept for
/// `MPC_Error_message` and gives its code; a panic gives
/// `MPC_ERR_INTERNAL`.
pub fn run(name: &str, f: impl FnOnce() -> MpcResult<c_int>) -> c_int {
    guard(name, MPC_ERR_INTERNAL, || match f() {
        Ok(v) => v,
        Err(e) => {
            set_error(&e);
            e.code
        }
    })
}

/// Like [`run`] for calls that succeed with `MPC_OK`.
pub fn run_ok(name: &str, f: impl FnOnce() -> MpcResult<()>) -> c_int {
    run(name, || f().map(|()| MPC_OK))
}

/// Keeps `e`'s message as the calling thread's last error.
pub fn set_error(e: &MpcError) {
    LAST_ERROR.with(|l| *l.borrow_mut() = e.message.clone());
}

/// The calling thread's last error message.
pub fn last_error() -> String {
    LAST_ERROR.with(|l| l.borrow().clone())
}
