//! The same-node path of a communicator's reductions: when every member of
//! a communicator runs on one node, [`Group`]'s reductions go through a
//! shared region (`shm::reduce`) instead of `MPI_Allreduce`. Part of the MPI
//! edge: the per-communicator state is an MPI attribute, so it is dropped
//! when MPI frees the communicator (and a communicator made later with the
//! same handle starts afresh), and the region is set up with the
//! communicator's own collectives. Reductions longer than
//! `shm::reduce::LARGEST` bytes still go through MPI, which does them as
//! fast or faster.
//!
//! The region is set up in a communicator's first reduction, which is
//! collective like every later one (every member makes the same calls on
//! the communicator in the same order): the first member
//! creates the region, the others open it through its descriptor, and all
//! agree; if any member cannot (another node, no room in `/dev/shm`, the
//! channels turned off with `MPBRIDGE_SHM=0`, too many members), every
//! member keeps using MPI on that communicator.

use crate::collective::{Elem, Group, ReduceOp};
use crate::error::CoreError;
use crate::mpi::check;
use crate::shm::reduce::{self, NodeReduce, ReduceError};
use crate::shm::{self, Desc, DESC_LEN};
use mpi_sys as sys;
use std::os::raw::{c_int, c_void};
use std::sync::{Mutex, OnceLock, TryLockError};

/// What a communicator's reductions use.
enum Path {
    /// Not chosen yet (no reduction made).
    Unset,
    /// The node region.
    Node(NodeReduce),
    /// Through MPI for good.
    Mpi,
}

/// The attribute value: one per communicator, freed by [`drop_path`].
struct Attached(Mutex<Path>);

/// The attribute key (made on first use, after MPI started).
static KEY: OnceLock<Result<c_int, CoreError>> = OnceLock::new();

/// Attribute copy callback: a duplicated communicator starts afresh.
unsafe extern "C" fn copy_none(
    _comm: sys::MPI_Comm,
    _key: c_int,
    _extra: *mut c_void,
    _value_in: *mut c_void,
    _value_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: MPI passes a valid flag pointer to its copy callback.
    unsafe { *flag = 0 };
    sys::MPI_SUCCESS as c_int
}

/// Attribute delete callback: frees the value [`path_of`] attached.
unsafe extern "C" fn drop_path(
    _comm: sys::MPI_Comm,
    _key: c_int,
    value: *mut c_void,
    _extra: *mut c_void,
) -> c_int {
    if !value.is_null() {
        // SAFETY: the value is the `Box<Attached>` leaked by `path_of`;
        // MPI calls this once per attribute, when it goes.
        let _ = std::panic::catch_unwind(|| drop(unsafe { Box::from_raw(value as *mut Attached) }));
    }
    sys::MPI_SUCCESS as c_int
}

fn key() -> Result<c_int, CoreError> {
    KEY.get_or_init(|| {
        let mut key: c_int = 0;
        // SAFETY: both callbacks have MPI's signatures; `key` is writable.
        let rc = unsafe {
            sys::MPI_Comm_create_keyval(
                Some(copy_none),
                Some(drop_path),
                &mut key,
                std::ptr::null_mut(),
            )
        };
        check(rc, "MPI_Comm_create_keyval").map(|()| key)
    })
    .clone()
}

/// The reduction path of `g`'s communicator, attached on first use.
fn path_of(g: &Group) -> Result<&Attached, CoreError> {
    let key = key()?;
    let comm = g.comm().raw();
    let mut value: *mut c_void = std::ptr::null_mut();
    let mut found: c_int = 0;
    // SAFETY: a valid communicator and key; `value` receives a pointer.
    let rc = unsafe {
        sys::MPI_Comm_get_attr(
            comm,
            key,
            &mut value as *mut *mut c_void as *mut c_void,
            &mut found,
        )
    };
    check(rc, "MPI_Comm_get_attr")?;
    if found == 0 || value.is_null() {
        value = Box::into_raw(Box::new(Attached(Mutex::new(Path::Unset)))) as *mut c_void;
        // SAFETY: a valid communicator and key; MPI keeps the pointer
        // until `drop_path` frees it.
        let rc = unsafe { sys::MPI_Comm_set_attr(comm, key, value) };
        if let Err(e) = check(rc, "MPI_Comm_set_attr") {
            // SAFETY: not attached, so still ours alone.
            drop(unsafe { Box::from_raw(value as *mut Attached) });
            return Err(e);
        }
    }
    // SAFETY: the attribute lives until the communicator is freed, which
    // cannot happen while `g` (borrowed for the result) uses it.
    Ok(unsafe { &*(value as *const Attached) })
}

/// Reduces `buf` over `g` through the node region when the communicator
/// has one (setting it up when due); `Ok(false)` leaves the reduction to
/// MPI.
pub(crate) fn allreduce(
    g: &Group,
    buf: &mut [u8],
    elem: Elem,
    op: ReduceOp,
) -> Result<bool, CoreError> {
    if !reduce::handles(buf.len(), elem, op) {
        return Ok(false);
    }
    let attached = path_of(g)?;
    // Another thread reducing on the same communicator at the same time
    // breaks MPI's rules; that one is left to MPI rather than blocked here.
    let mut path = match attached.0.try_lock() {
        Ok(p) => p,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => return Ok(false),
    };
    if let Path::Unset = *path {
        *path = match set_up(g)? {
            Some(r) => Path::Node(r),
            None => Path::Mpi,
        };
    }
    match &*path {
        Path::Node(r) => r
            .allreduce(buf, elem, op)
            .map(|()| true)
            .map_err(|e| match e {
                ReduceError::MemberEnded { member, pid } => CoreError::PeerEnded(format!(
                    "member {member} (process {pid}) of a same-node reduction"
                )),
            }),
        _ => Ok(false),
    }
}

/// Makes the node region of `g`'s communicator, or `None` when any member
/// cannot use one (all members get the same answer).
fn set_up(g: &Group) -> Result<Option<NodeReduce>, CoreError> {
    let mut inter: c_int = 0;
    // SAFETY: a valid communicator and a writable flag.
    check(
        unsafe { sys::MPI_Comm_test_inter(g.comm().raw(), &mut inter) },
        "MPI_Comm_test_inter",
    )?;
    if inter != 0 {
        // The two groups of an inter-communicator reduce each other's
        // contributions: MPI's business.
        return Ok(None);
    }
    let size = g.size()? as usize;
    let me = g.rank()? as usize;
    let wanted = shm::wanted() && (2..=reduce::MAX_MEMBERS).contains(&size);
    let mut region = None;
    let mut desc = Desc::none();
    if me == 0 && wanted {
        match NodeReduce::create(size) {
            Ok(r) => {
                desc.fd = r.fd();
                desc.slots = size as u32;
                desc.ok = true;
                region = Some(r);
            }
            Err(e) => tracing::warn!(target: "core", error = %e.0,
                "a same-node reduction region could not be made; reductions go through MPI"),
        }
    }
    let mut wire = desc.encode();
    g.bcast(&mut wire, 0)?;
    let root = Desc::decode(&wire[..DESC_LEN]);
    if me != 0 && wanted && root.ok && root.host == shm::host_key() {
        region = NodeReduce::open(root.pid, root.fd, size).ok();
    }
    let (pids, _) = g.allgatherv(&std::process::id().to_le_bytes())?;
    if !g.all_agree(region.is_some())? {
        tracing::debug!(target: "core", members = size,
            "reductions on a communicator go through MPI (its members do not all share a node, \
             or the channels are off)");
        return Ok(None);
    }
    let pids = pids
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    tracing::debug!(target: "core", members = size,
        "reductions on a communicator whose members share this node go through a shared region");
    Ok(region.map(|r| NodeReduce::new(r, me, pids)))
}
