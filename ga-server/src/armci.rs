//! ARMCI, GA's one-sided layer, on the GA client: what `armci.h` programs
//! reach memory by.
//!
//! Each `ARMCI_Malloc` is one GA array of bytes on the world group, one row
//! per compute rank (as wide as the largest request, rounded up to 64
//! bytes), so it lives in the `ga-server`s' node segments like any GA array.
//! The addresses handed out are this process's view: a rank on the same
//! node gets the real address of its row in the mapped segment (directly
//! addressable, as with ARMCI's shared memory), a rank on another node a
//! distinct address outside the canonical x86-64 address space (using it
//! directly faults; ARMCI calls translate it), and a rank that asked for 0
//! bytes NULL. Put, get, accumulate and read-modify-write translate the
//! remote address back to (array, rank, byte offset) and run the GA
//! client's own paths: straight into the segment on this node, through the
//! owner node's server otherwise (and always with `MPBRIDGE_GA_REMOTE=1`).
//!
//! ARMCI mutexes use the upper half of the control segment's mutex words,
//! `count` per process, apart from GA's (which start at word 0).

use crate::core::pgroups;
use crate::core::{self, client, Distribution, ElemType, GaError, GaResult, Handle};
use crate::protocol::MAX_MUTEXES;
use crate::ptr::UserBuf;
use std::sync::Mutex;

/// First mutex word of ARMCI's mutexes.
const MUTEX_BASE: usize = MAX_MUTEXES / 2;
/// Mutex words ARMCI may use (all processes together).
pub const MAX_ARMCI_MUTEXES: usize = MAX_MUTEXES - MUTEX_BASE;
/// Most stride levels a strided call takes (as ARMCI).
pub const MAX_STRIDE_LEVELS: i32 = 8;
/// Where the stand-in addresses of other nodes' memory start: not a
/// canonical x86-64 address, so no real memory is ever there.
const FAR_BASE: usize = 0x4000_0000_0000_0000;

/// One `ARMCI_Malloc` or `ARMCI_Malloc_group`.
struct Alloc {
    g: Handle,
    /// Per compute rank: its memory's address as this process sees it
    /// (0: it asked for no bytes or is not in the group) and its size.
    base: Vec<usize>,
    size: Vec<usize>,
    /// Per compute rank: its row of the array (its rank in the group), or
    /// -1 if it is not in the group.
    row: Vec<i64>,
}

#[derive(Default)]
struct State {
    /// `ARMCI_Init` ran (and `ARMCI_Finalize` has not).
    active: bool,
    /// `ARMCI_Init` started GA itself (so `ARMCI_Finalize` ends it).
    started_ga: bool,
    allocs: Vec<Alloc>,
    next_far: usize,
    /// Mutexes per process (0: none).
    mutexes: i32,
    /// Addresses `ARMCI_Malloc_local` handed out and not freed yet.
    local: std::collections::HashSet<usize>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(|| State {
        next_far: FAR_BASE,
        ..State::default()
    }))
}

/// The element type of an `ARMCI_ACC_*` code (INT, LNG, FLT, DBL, CPL, DCP).
pub fn acc_type(call: &'static str, code: i32) -> GaResult<ElemType> {
    Ok(match code {
        0 => ElemType::Int,
        1 => ElemType::Long,
        2 => ElemType::Float,
        3 => ElemType::Double,
        4 => ElemType::SComplex,
        5 => ElemType::DComplex,
        _ => {
            return Err(GaError::new(
                call,
                format!("unknown accumulate type {code} (ARMCI_ACC_INT .. ARMCI_ACC_DCP are 0..5)"),
            ))
        }
    })
}

/// `ARMCI_Init`: starts the GA client unless GA runs already (collective).
pub fn init(call: &'static str) -> GaResult<()> {
    if with_state(|s| s.active) {
        return Ok(());
    }
    let started = !core::initialized();
    if started {
        core::initialize().map_err(|e| GaError::new(call, e.message))?;
    }
    with_state(|s| {
        s.active = true;
        s.started_ga = started;
    });
    Ok(())
}

/// Whether `ARMCI_Init` ran and `ARMCI_Finalize` has not.
pub fn initialized() -> bool {
    with_state(|s| s.active)
}

/// `ARMCI_Finalize`: frees what `ARMCI_Malloc` left and ends GA if
/// `ARMCI_Init` started it (collective).
pub fn finalize(call: &'static str) -> GaResult<()> {
    if with_state(|s| s.active) {
        wait(call, |_, _| true)?;
    }
    let (active, started, gs) = with_state(|s| {
        let gs: Vec<Handle> = s.allocs.drain(..).map(|a| a.g).collect();
        let r = (s.active, s.started_ga, gs);
        s.active = false;
        s.started_ga = false;
        s.mutexes = 0;
        r
    });
    if !active {
        return Ok(());
    }
    if core::initialized() {
        for g in gs {
            core::destroy(g).map_err(|e| GaError::new(call, e.message))?;
        }
        if started {
            core::terminate().map_err(|e| GaError::new(call, e.message))?;
        }
    }
    Ok(())
}

fn ready(call: &'static str) -> GaResult<()> {
    if core::initialized() {
        Ok(())
    } else {
        Err(GaError::new(
            call,
            "ARMCI is not initialised (call ARMCI_Init or GA_Initialize first)",
        ))
    }
}

/// `ARMCI_Malloc` (collective): every compute rank asks for `size` bytes
/// (sizes may differ); returns each rank's address as this process sees it.
pub fn malloc(call: &'static str, size: i64) -> GaResult<Vec<usize>> {
    malloc_on(call, size, pgroups::WORLD)
}

/// `ARMCI_Malloc_group` (collective over GA processor group `grp`): every
/// member asks for `size` bytes; returns each compute rank's address as
/// this process sees it (0 for ranks outside the group).
pub fn malloc_on(call: &'static str, size: i64, grp: i32) -> GaResult<Vec<usize>> {
    ready(call)?;
    if size < 0 {
        return Err(GaError::new(call, format!("negative size {size}")));
    }
    let np = core::nnodes() as usize;
    let (members, comm) = pgroups::group(call, grp)?;
    let me = pgroups::group_nodeid(call, grp)? as usize;
    let gn = members.len();
    let mut sizes = vec![0i64; gn];
    sizes[me] = size;
    pgroups::gop(call, grp, &mut sizes, "+", true)?;
    let widest = sizes.iter().copied().max().unwrap_or(0).max(1);
    let row = (widest + 63) / 64 * 64;
    let abs = members.clone();
    let place = client::Placement {
        pgroup: grp,
        holders: members.clone(),
        members,
        comm,
    };
    let mut map: Vec<i64> = (0..gn as i64).collect();
    map.push(0);
    let dist = Distribution::Irregular {
        block: vec![gn as i64, 1],
        map,
    };
    let g = client::with(call, |c| {
        c.create(
            call,
            ElemType::Char,
            &[gn as i64, row],
            "ARMCI_Malloc",
            &dist,
            &place,
        )
    })?;
    let rows: Vec<Option<usize>> = client::with(call, |c| {
        let a = c.array(call, g)?;
        let mine = c.node_of[c.me as usize];
        Ok((0..gn)
            .map(|k| {
                let owner = a.grid.owner(&[k as i64, 0]) as usize;
                (owner == k && c.node_of[abs[k] as usize] == mine)
                    .then(|| crate::ptr::address(&a.seg, a.off[k]) as usize)
            })
            .collect())
    })?;
    let mut base = vec![0usize; np];
    let mut bytes = vec![0usize; np];
    let mut rank_row = vec![-1i64; np];
    with_state(|s| {
        for k in 0..gn {
            let p = abs[k] as usize;
            rank_row[p] = k as i64;
            bytes[p] = sizes[k] as usize;
            base[p] = if sizes[k] == 0 {
                0
            } else if let Some(a) = rows[k] {
                a
            } else {
                let a = s.next_far;
                s.next_far += (sizes[k] as usize).div_ceil(4096) * 4096 + 4096;
                a
            };
        }
        s.allocs.push(Alloc {
            g,
            base: base.clone(),
            size: bytes,
            row: rank_row,
        })
    });
    Ok(base)
}

/// `ARMCI_Free` (collective): `addr` is this process's own address from
/// `ARMCI_Malloc` (NULL on a rank that asked for 0 bytes).
pub fn free(call: &'static str, addr: usize) -> GaResult<()> {
    free_on(call, addr, pgroups::WORLD)
}

/// `ARMCI_Free_group` (collective over group `grp`): as `free` for memory
/// from `ARMCI_Malloc_group` on that group.
pub fn free_on(call: &'static str, addr: usize, grp: i32) -> GaResult<()> {
    ready(call)?;
    wait(call, |_, _| true)?;
    let me = core::nodeid() as usize;
    let mine: Option<Handle> = with_state(|s| {
        if addr == 0 {
            return Ok(None);
        }
        s.allocs
            .iter()
            .find(|a| a.base[me] == addr)
            .map(|a| Some(a.g))
            .ok_or_else(|| {
                GaError::new(
                    call,
                    format!("{addr:#x} is not the start of memory from ARMCI_Malloc"),
                )
            })
    })?;
    // Every member names the same block (the others pass NULL).
    let mut m = [mine.map_or(i64::MIN, i64::from)];
    pgroups::gop(call, grp, &mut m, "max", true)?;
    if m[0] == i64::MIN {
        return Err(GaError::new(
            call,
            "every process passed NULL: nothing to free",
        ));
    }
    if mine.is_some_and(|g| i64::from(g) != m[0]) {
        return Err(GaError::new(
            call,
            "the processes name different ARMCI_Malloc blocks",
        ));
    }
    let g = m[0] as Handle;
    with_state(|s| s.allocs.retain(|a| a.g != g));
    core::destroy(g).map_err(|e| GaError::new(call, e.message))
}

/// Where `len` bytes at `addr` of process `proc_` lie: array and byte
/// offset in its row.
fn locate(call: &'static str, proc_: i32, addr: usize, len: usize) -> GaResult<(Handle, i64, i64)> {
    check_proc(call, proc_)?;
    let p = proc_ as usize;
    with_state(|s| {
        s.allocs
            .iter()
            .find(|a| {
                a.base[p] != 0
                    && addr >= a.base[p]
                    && addr
                        .checked_add(len)
                        .is_some_and(|end| end <= a.base[p] + a.size[p])
            })
            .map(|a| (a.g, (addr - a.base[p]) as i64, a.row[p]))
            .ok_or_else(|| {
                GaError::new(
                    call,
                    format!(
                        "{len} bytes at {addr:#x} are not inside memory that process {proc_} got from ARMCI_Malloc"
                    ),
                )
            })
    })
}

/// The patch of `len` bytes at `off` in row `row`.
fn patch(row: i64, off: i64, len: usize) -> ([i64; 2], [i64; 2]) {
    ([row, off], [row, off + len as i64 - 1])
}

/// Copies `src` to `dst` of process `proc_`.
pub fn put(call: &'static str, src: &[u8], dst: usize, proc_: i32) -> GaResult<()> {
    let (g, off, row) = locate(call, proc_, dst, src.len())?;
    if src.is_empty() {
        return Ok(());
    }
    let (lo, hi) = patch(row, off, src.len());
    client::with(call, |c| c.put(g, &lo, &hi, src, &[src.len() as i64], call))
}

/// Copies `dst.len()` bytes at `src` of process `proc_` into `dst`.
pub fn get(call: &'static str, src: usize, dst: &mut [u8], proc_: i32) -> GaResult<()> {
    let (g, off, row) = locate(call, proc_, src, dst.len())?;
    if dst.is_empty() {
        return Ok(());
    }
    let (lo, hi) = patch(row, off, dst.len());
    let n = dst.len() as i64;
    client::with(call, |c| c.get(g, &lo, &hi, dst, &[n], call))
}

/// Atomically adds `scale·src` (elements of `ty`) to `dst` of `proc_`.
pub fn acc(
    call: &'static str,
    ty: ElemType,
    scale: &[u8],
    src: &[u8],
    dst: usize,
    proc_: i32,
) -> GaResult<()> {
    let (g, off, row) = locate(call, proc_, dst, src.len())?;
    if src.is_empty() {
        return Ok(());
    }
    whole_elements(call, ty, src.len())?;
    let (lo, hi) = patch(row, off, src.len());
    client::with(call, |c| c.acc_as(g, &lo, &hi, src, scale, ty, call))
}

/// What a non-blocking transfer does.
pub enum Transfer<'a> {
    Put,
    Get,
    /// Accumulate, adding as the type, scaled by the bytes of one element.
    Acc(ElemType, &'a [u8]),
}

/// Starts a non-blocking transfer between this process's memory `local`
/// (lent until the handle completes) and `remote` of `proc_`, for the
/// handle with key `key` (0: the implicit handle). Through a server it
/// stays in flight until [`wait`] or [`test`] finishes it; on this node's
/// shared memory it completes here.
pub fn start(
    call: &'static str,
    t: Transfer,
    local: UserBuf,
    remote: usize,
    proc_: i32,
    key: usize,
) -> GaResult<()> {
    let len = local.len();
    let (g, off, row) = locate(call, proc_, remote, len)?;
    if len == 0 {
        return Ok(());
    }
    let (kind, alpha, ty) = match t {
        Transfer::Put => (client::Kind::Put, &[][..], None),
        Transfer::Get => (client::Kind::Get, &[][..], None),
        Transfer::Acc(ty, scale) => {
            whole_elements(call, ty, len)?;
            (client::Kind::Acc, scale, Some(ty))
        }
    };
    let (lo, hi) = patch(row, off, len);
    client::with(call, |c| {
        c.start_patch(call, (kind, alpha, ty), (g, &lo, &hi), local, (key, proc_))
    })
}

/// Finishes the non-blocking transfers `which(key, target process)` picks.
pub fn wait(call: &'static str, which: impl Fn(usize, i32) -> bool) -> GaResult<()> {
    if !core::initialized() {
        return Ok(());
    }
    client::with(call, |c| c.link.inflight.wait(|p| which(p.key, p.target)))
}

/// Advances the non-blocking transfers of the handle with key `key`;
/// whether none is left in flight.
pub fn test(call: &'static str, key: usize) -> GaResult<bool> {
    if !core::initialized() {
        return Ok(true);
    }
    client::with(call, |c| c.link.inflight.test(|p| p.key == key))
}

/// Fails unless `len` bytes are whole elements of `ty`.
fn whole_elements(call: &'static str, ty: ElemType, len: usize) -> GaResult<()> {
    if len.is_multiple_of(ty.size()) {
        return Ok(());
    }
    Err(GaError::new(
        call,
        format!(
            "{len} bytes are not whole elements of {ty:?} ({} bytes each)",
            ty.size()
        ),
    ))
}

/// Fetch-and-add (or with `swap`, exchange) on the `Int` or `Long` word at
/// `addr` of `proc_`; returns the old value.
pub fn rmw(
    call: &'static str,
    ty: ElemType,
    swap: bool,
    addr: usize,
    proc_: i32,
    value: i64,
) -> GaResult<i64> {
    let (g, off, row) = locate(call, proc_, addr, ty.size())?;
    client::with(call, |c| c.rmw_bytes(call, g, &[row, off], ty, swap, value))
}

/// Completes every operation, then a barrier of the compute ranks.
pub fn barrier(call: &'static str) -> GaResult<()> {
    ready(call)?;
    core::sync().map_err(|e| GaError::new(call, e.message))
}

/// Checks `proc_` and orders this process's earlier memory accesses
/// before later ones: with the non-blocking transfers to `proc_` finished
/// (see [`wait`]), all a fence has to do, since every other operation is
/// complete at its target when its call returns.
pub fn check_proc(call: &'static str, proc_: i32) -> GaResult<()> {
    ready(call)?;
    let np = core::nnodes();
    if proc_ < 0 || proc_ >= np {
        return Err(GaError::new(
            call,
            format!("process {proc_} out of range 0..{np}"),
        ));
    }
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// `ARMCI_Create_mutexes` (collective): `count` mutexes on every process.
pub fn create_mutexes(call: &'static str, count: i32) -> GaResult<()> {
    ready(call)?;
    let np = core::nnodes() as usize;
    if count < 0 || count as usize * np > MAX_ARMCI_MUTEXES {
        return Err(GaError::new(
            call,
            format!(
                "{count} mutexes per process requested: 0 to {} allowed on {np} processes",
                MAX_ARMCI_MUTEXES / np.max(1)
            ),
        ));
    }
    if with_state(|s| s.mutexes) > 0 {
        return Err(GaError::new(
            call,
            "ARMCI mutexes exist already (ARMCI_Destroy_mutexes first)",
        ));
    }
    core::sync().map_err(|e| GaError::new(call, e.message))?;
    with_state(|s| s.mutexes = count);
    Ok(())
}

/// `ARMCI_Destroy_mutexes` (collective).
pub fn destroy_mutexes(call: &'static str) -> GaResult<()> {
    ready(call)?;
    if with_state(|s| s.mutexes) == 0 {
        return Err(GaError::new(call, "no ARMCI mutexes exist"));
    }
    core::sync().map_err(|e| GaError::new(call, e.message))?;
    with_state(|s| s.mutexes = 0);
    Ok(())
}

/// The control segment's word of mutex `m` of process `proc_`.
fn mutex_word(call: &'static str, m: i32, proc_: i32) -> GaResult<i64> {
    ready(call)?;
    let count = with_state(|s| s.mutexes);
    let np = core::nnodes();
    if proc_ < 0 || proc_ >= np {
        return Err(GaError::new(
            call,
            format!("process {proc_} out of range 0..{np}"),
        ));
    }
    if m < 0 || m >= count {
        return Err(GaError::new(
            call,
            format!("mutex {m} does not exist ({count} per process created)"),
        ));
    }
    Ok((MUTEX_BASE + (proc_ * count + m) as usize) as i64)
}

/// `ARMCI_Lock`: waits until mutex `m` of process `proc_` is this
/// process's.
pub fn lock(call: &'static str, m: i32, proc_: i32) -> GaResult<()> {
    let w = mutex_word(call, m, proc_)?;
    let mut wait = shim_core::backoff::Backoff::new();
    loop {
        let got = client::with(call, |c| c.mutex_op(call, crate::protocol::Op::MutexTry, w))?;
        if got == 1 {
            return Ok(());
        }
        wait.pause();
    }
}

/// `ARMCI_Unlock`.
pub fn unlock(call: &'static str, m: i32, proc_: i32) -> GaResult<()> {
    let w = mutex_word(call, m, proc_)?;
    client::with(call, |c| {
        c.mutex_op(call, crate::protocol::Op::MutexUnlock, w)
            .map(|_| ())
    })
}

/// `ARMCI_Malloc_local`: `size` bytes of private memory (0 when there is
/// no memory for them).
pub fn malloc_local(call: &'static str, size: i64) -> GaResult<usize> {
    if size < 0 {
        return Err(GaError::new(call, format!("negative size {size}")));
    }
    let a = crate::sys::c_malloc(size as usize);
    if a != 0 {
        with_state(|s| s.local.insert(a));
    }
    Ok(a)
}

/// `ARMCI_Free_local` of an address from `ARMCI_Malloc_local`.
pub fn free_local(call: &'static str, addr: usize) -> GaResult<()> {
    if !with_state(|s| s.local.remove(&addr)) {
        return Err(GaError::new(
            call,
            format!("{addr:#x} is not memory from ARMCI_Malloc_local (or was freed already)"),
        ));
    }
    crate::sys::c_free(addr);
    Ok(())
}

/// Whether compute rank `proc_` shares this process's node.
pub fn same_node(proc_: i32) -> bool {
    let nodes = core::compute_nodes();
    let me = core::nodeid() as usize;
    proc_ >= 0 && (proc_ as usize) < nodes.len() && nodes[proc_ as usize] == nodes[me]
}

/// Takes a strided transfer apart into contiguous pieces: `count[0]` bytes
/// each, at every combination of the higher indices. Calls `f(src_off,
/// dst_off)` per piece (byte offsets from the two bases).
pub fn strided_pieces(
    call: &'static str,
    src_stride: &[i64],
    dst_stride: &[i64],
    count: &[i64],
    mut f: impl FnMut(usize, usize) -> GaResult<()>,
) -> GaResult<()> {
    let levels = count.len() - 1;
    if let Some(i) = count.iter().position(|&c| c < 0) {
        return Err(GaError::new(
            call,
            format!("count[{i}] = {} is negative", count[i]),
        ));
    }
    for l in 0..levels {
        if src_stride[l] < 0 || dst_stride[l] < 0 {
            return Err(GaError::new(call, format!("stride level {l} is negative")));
        }
    }
    if count.contains(&0) {
        return Ok(());
    }
    let mut idx = vec![0i64; levels];
    loop {
        let (mut s, mut d) = (0i64, 0i64);
        for l in 0..levels {
            s += idx[l] * src_stride[l];
            d += idx[l] * dst_stride[l];
        }
        f(s as usize, d as usize)?;
        let mut l = 0;
        loop {
            if l == levels {
                return Ok(());
            }
            idx[l] += 1;
            if idx[l] < count[l + 1] {
                break;
            }
            idx[l] = 0;
            l += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(ss: &[i64], ds: &[i64], count: &[i64]) -> GaResult<Vec<(usize, usize)>> {
        let mut v = Vec::new();
        strided_pieces("test", ss, ds, count, |s, d| {
            v.push((s, d));
            Ok(())
        })?;
        Ok(v)
    }

    #[test]
    fn strided_transfers_walk_the_lowest_level_first() {
        // 2 rows of 3 planes: source rows 40 bytes apart, planes 200;
        // destination rows 64, planes 1000.
        let v = pieces(&[40, 200], &[64, 1000], &[16, 2, 3]).unwrap();
        assert_eq!(
            v,
            vec![
                (0, 0),
                (40, 64),
                (200, 1000),
                (240, 1064),
                (400, 2000),
                (440, 2064)
            ]
        );
        assert_eq!(pieces(&[], &[], &[24]).unwrap(), vec![(0, 0)]);
    }

    #[test]
    fn empty_and_negative_strided_transfers() {
        assert!(pieces(&[8], &[8], &[8, 0]).unwrap().is_empty());
        assert!(pieces(&[8], &[8], &[0, 5]).unwrap().is_empty());
        let e = pieces(&[8], &[8], &[8, -1]).unwrap_err();
        assert!(e.message.contains("count[1] = -1"), "{e}");
        let e = pieces(&[-8], &[8], &[8, 2]).unwrap_err();
        assert!(e.message.contains("negative"), "{e}");
    }

    #[test]
    fn accumulate_codes_are_armci_s() {
        assert_eq!(acc_type("t", 0).unwrap(), ElemType::Int);
        assert_eq!(acc_type("t", 1).unwrap(), ElemType::Long);
        assert_eq!(acc_type("t", 3).unwrap(), ElemType::Double);
        assert_eq!(acc_type("t", 5).unwrap(), ElemType::DComplex);
        assert!(acc_type("t", 6).is_err());
        assert!(acc_type("t", -1).is_err());
    }
}
