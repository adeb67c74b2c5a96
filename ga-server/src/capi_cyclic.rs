//! Block-cyclic arrays in the GA C ABI: `GA_Set_block_cyclic`,
//! `GA_Set_block_cyclic_proc_grid`, `GA_Set_tiled_proc_grid` and
//! `GA_Set_tiled_irreg_proc_grid` (with their `NGA_` names and `int64_t`
//! forms) on a handle from
//! `GA_Create_handle`, and the calls that read such arrays block by block:
//! `NGA_Access_block`, `NGA_Access_block_grid`, `NGA_Access_block_segment`
//! with their release calls, `GA_Get_block_info`, `GA_Total_blocks` and
//! `NGA_Locate_num_blocks`.
//!
//! As in GA, `NGA_Distribution`, `NGA_Locate` and `NGA_Locate_region` of
//! a block-cyclic array speak of blocks (numbered in C order over the
//! block grid), not processes. Every block is stored as its own tile in
//! C order, and a process's tiles lie end to end in block order, which is
//! what GA's tiled layout and its simple block-cyclic layout are. For
//! `GA_Set_block_cyclic_proc_grid` GA keeps a process's blocks as one
//! ScaLAPACK-style local matrix; here they are tiles as well, so
//! `NGA_Access_block_grid` gives the tile's own leading dimension and
//! `NGA_Access_block_segment` the tiles end to end. A program that
//! addresses accessed data through the `ld` it is given sees the same
//! values either way.
//!
//! Return codes: `GA_Total_blocks` returns the number of blocks (−1 for an
//! array that is not block-cyclic, as GA); `NGA_Locate_num_blocks` the
//! number of blocks (for other arrays: owners) the patch meets. The other
//! calls return nothing. Bad arguments (invalid handle, a handle not
//! awaiting `GA_Allocate`, non-positive block sizes, a process grid that
//! does not hold the group's processes, a block this process does not
//! hold, NULL pointers) end the job through `GA_Error` with a message
//! naming the call. No panic crosses into C.

use crate::capi::{
    ints, resolve_handle, run, set_pending_cyclic, set_pending_tiled_irreg, twins, Buf,
};
use crate::capi_ptr::{self as ptr, CIndex, PutError};
use crate::core::{self, GaError, GaResult, Handle};
use shim_core::ffi_guard::guard;
use std::ffi::{c_int, c_void};

fn put_out<I: CIndex>(call: &'static str, what: &str, p: *mut I, vals: &[i64]) -> GaResult<()> {
    match ptr::put_ints(p, vals) {
        Ok(()) => Ok(()),
        Err(PutError::Null) => Err(GaError::new(call, format!("{what} is NULL"))),
        Err(PutError::TooLarge(v)) => Err(GaError::new(
            call,
            format!("{what} value {v} does not fit in an int (use the 64-bit variant)"),
        )),
    }
}

fn handle(call: &'static str, g: c_int) -> GaResult<(Handle, core::ElemType, Vec<i64>)> {
    let h = resolve_handle(g);
    let (t, d) =
        core::inquire(h).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?;
    Ok((h, t, d))
}

// ---------------------------------------------------------------------------
// Describing a block-cyclic array before GA_Allocate.

fn set_cyclic<I: CIndex>(call: &'static str, g: c_int, block: *const I, grid: Option<*const I>) {
    run(call, || {
        set_pending_cyclic(call, g, |n| {
            let b = ints(call, "block", block, n)?;
            let pg = match grid {
                Some(p) => Some(ints(call, "proc_grid", p, n)?),
                None => None,
            };
            Ok((b, pg))
        })
    })
}

twins! {
    /// Makes the array of handle `g` (after `GA_Set_data`) block-cyclic with
    /// blocks of `dims[d]` elements, block k (C order) on process k mod
    /// nprocs; returns nothing.
    fn GA_Set_block_cyclic / GA_Set_block_cyclic64 (g: c_int, dims: Ix) = set_cyclic[][None];
}

twins! {
    /// Same as `GA_Set_block_cyclic`; returns nothing.
    fn NGA_Set_block_cyclic / NGA_Set_block_cyclic64 (g: c_int, dims: Ix) = set_cyclic[][None];
}

/// Makes the array of handle `g` block-cyclic over the process grid
/// `proc_grid` (C order; its product must be the number of processes):
/// block (b0, b1, ...) goes to the process at (b0 mod grid0, ...);
/// returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_block_cyclic_proc_grid(
    g: c_int,
    block: *const c_int,
    proc_grid: *const c_int,
) {
    set_cyclic("GA_Set_block_cyclic_proc_grid", g, block, Some(proc_grid))
}

/// Same as `GA_Set_block_cyclic_proc_grid`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_block_cyclic_proc_grid(
    g: c_int,
    block: *const c_int,
    proc_grid: *const c_int,
) {
    set_cyclic("NGA_Set_block_cyclic_proc_grid", g, block, Some(proc_grid))
}

/// `GA_Set_block_cyclic_proc_grid` with 64-bit arguments; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_block_cyclic_proc_grid64(
    g: c_int,
    block: *const i64,
    proc_grid: *const i64,
) {
    set_cyclic("GA_Set_block_cyclic_proc_grid64", g, block, Some(proc_grid))
}

/// Same as `GA_Set_block_cyclic_proc_grid64`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_block_cyclic_proc_grid64(
    g: c_int,
    block: *const i64,
    proc_grid: *const i64,
) {
    set_cyclic(
        "NGA_Set_block_cyclic_proc_grid64",
        g,
        block,
        Some(proc_grid),
    )
}

/// The tiled form of `GA_Set_block_cyclic_proc_grid` (same owners, each
/// block stored as a tile); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_tiled_proc_grid(g: c_int, block: *const c_int, proc_grid: *const c_int) {
    set_cyclic("GA_Set_tiled_proc_grid", g, block, Some(proc_grid))
}

/// Same as `GA_Set_tiled_proc_grid`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_tiled_proc_grid(g: c_int, block: *const c_int, proc_grid: *const c_int) {
    set_cyclic("NGA_Set_tiled_proc_grid", g, block, Some(proc_grid))
}

/// `GA_Set_tiled_proc_grid` with 64-bit arguments; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_tiled_proc_grid64(g: c_int, block: *const i64, proc_grid: *const i64) {
    set_cyclic("GA_Set_tiled_proc_grid64", g, block, Some(proc_grid))
}

/// Same as `GA_Set_tiled_proc_grid64`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_tiled_proc_grid64(g: c_int, block: *const i64, proc_grid: *const i64) {
    set_cyclic("NGA_Set_tiled_proc_grid64", g, block, Some(proc_grid))
}

// ---------------------------------------------------------------------------
// Inquiries.

fn block_info(call: &'static str, g: c_int, nb: *mut c_int, bd: *mut c_int) {
    run(call, || {
        let (h, _, _) = handle(call, g)?;
        let (counts, sizes) = core::block_info(call, h)?;
        put_out(call, "num_blocks", nb, &counts)?;
        put_out(call, "block_dims", bd, &sizes)
    })
}

/// Stores the number of blocks along each dimension and the block sizes
/// of a block-cyclic array; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Get_block_info(g: c_int, num_blocks: *mut c_int, block_dims: *mut c_int) {
    block_info("GA_Get_block_info", g, num_blocks, block_dims)
}

/// Same as `GA_Get_block_info`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Get_block_info(g: c_int, num_blocks: *mut c_int, block_dims: *mut c_int) {
    block_info("NGA_Get_block_info", g, num_blocks, block_dims)
}

fn total_blocks(call: &'static str, g: c_int) -> c_int {
    run(call, || {
        let (h, _, _) = handle(call, g)?;
        let (cyclic, _) = core::cyclic_kind(h)?;
        if !cyclic {
            return Ok(-1);
        }
        let (counts, _) = core::block_info(call, h)?;
        Ok(counts.iter().product::<i64>() as c_int)
    })
}

/// Returns the number of blocks of a block-cyclic array, −1 for other
/// arrays.
#[no_mangle]
pub extern "C" fn GA_Total_blocks(g: c_int) -> c_int {
    total_blocks("GA_Total_blocks", g)
}

/// Same as `GA_Total_blocks`.
#[no_mangle]
pub extern "C" fn NGA_Total_blocks(g: c_int) -> c_int {
    total_blocks("NGA_Total_blocks", g)
}

fn locate_num_blocks<I: CIndex>(call: &'static str, g: c_int, lo: *const I, hi: *const I) -> c_int {
    run(call, || {
        let (h, _, d) = handle(call, g)?;
        let l = ints(call, "lo", lo, d.len())?;
        let u = ints(call, "hi", hi, d.len())?;
        Ok(core::locate_region(h, &l, &u)?.len() as c_int)
    })
}

/// Returns the number of blocks the patch lo..hi meets.
#[no_mangle]
pub extern "C" fn NGA_Locate_num_blocks(g: c_int, lo: *const c_int, hi: *const c_int) -> c_int {
    locate_num_blocks("NGA_Locate_num_blocks", g, lo, hi)
}

// ---------------------------------------------------------------------------
// Access block by block.

fn give_block<I: CIndex>(
    call: &'static str,
    h: Handle,
    b: i64,
    p: *mut c_void,
    ld: *mut I,
) -> GaResult<()> {
    let (base, _, _, bld) = core::access_block(call, h, b)?;
    if !bld.is_empty() {
        put_out(call, "ld", ld, &bld)?;
    }
    if !ptr::put_ptr(p, base as *mut c_void) {
        return Err(GaError::new(call, "ptr is NULL"));
    }
    Ok(())
}

fn access_block<I: CIndex>(call: &'static str, g: c_int, idx: i64, p: *mut c_void, ld: *mut I) {
    run(call, || {
        let (h, _, _) = handle(call, g)?;
        give_block(call, h, idx, p, ld)
    })
}

/// Stores in `*(void **)ptr` the address of block `idx` (held by this
/// process) and in `ld` its leading dimensions; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Access_block(g: c_int, idx: c_int, p: *mut c_void, ld: *mut c_int) {
    access_block("NGA_Access_block", g, idx as i64, p, ld)
}

/// `NGA_Access_block` with a 64-bit index and ld; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Access_block64(g: c_int, idx: i64, p: *mut c_void, ld: *mut i64) {
    access_block("NGA_Access_block64", g, idx, p, ld)
}

fn access_block_grid<I: CIndex>(
    call: &'static str,
    g: c_int,
    index: *const I,
    p: *mut c_void,
    ld: *mut I,
) {
    run(call, || {
        let (h, _, d) = handle(call, g)?;
        let coords = ints(call, "index", index, d.len())?;
        let b = core::block_at(call, h, &coords)?;
        give_block(call, h, b, p, ld)
    })
}

twins! {
    /// Stores in `*(void **)ptr` the address of the block at block-grid
    /// coordinates `index` (held by this process) of an array with a process
    /// grid, and in `ld` its leading dimensions; returns nothing.
    fn NGA_Access_block_grid / NGA_Access_block_grid64
        (g: c_int, index: Ix, p: Buf, ld: IxOut)
        = access_block_grid;
}

fn access_segment<I: CIndex>(
    call: &'static str,
    g: c_int,
    proc_: c_int,
    p: *mut c_void,
    len: *mut I,
) {
    run(call, || {
        let (h, _, _) = handle(call, g)?;
        let (base, n) = core::access_block_segment(call, h, proc_)?;
        put_out(call, "len", len, &[n as i64])?;
        if !ptr::put_ptr(p, base as *mut c_void) {
            return Err(GaError::new(call, "ptr is NULL"));
        }
        Ok(())
    })
}

twins! {
    /// Stores in `*(void **)ptr` the address of this process's tiles (end to
    /// end, in block order) and in `*len` their number of elements; `proc`
    /// must be this process. Returns nothing.
    fn NGA_Access_block_segment / NGA_Access_block_segment64
        (g: c_int, proc_: c_int, p: Buf, len: IxOut)
        = access_segment;
}

/// Ends an access of block `idx` without changes; returns nothing (data
/// is accessed in place, so there is nothing to write back).
#[no_mangle]
pub extern "C" fn NGA_Release_block(g: c_int, idx: c_int) {
    guard("NGA_Release_block", (), || {
        let _ = (g, idx);
    })
}

/// Ends an access of block `idx` that changed it; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_update_block(g: c_int, idx: c_int) {
    guard("NGA_Release_update_block", (), || {
        let _ = (g, idx);
    })
}

/// Ends an access by block-grid coordinates without changes; returns
/// nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_block_grid(g: c_int, index: *const c_int) {
    guard("NGA_Release_block_grid", (), || {
        let _ = (g, index);
    })
}

/// Ends an access by block-grid coordinates that changed the block;
/// returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_update_block_grid(g: c_int, index: *const c_int) {
    guard("NGA_Release_update_block_grid", (), || {
        let _ = (g, index);
    })
}

/// Ends an access of a process's segment without changes; returns
/// nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_block_segment(g: c_int, proc_: c_int) {
    guard("NGA_Release_block_segment", (), || {
        let _ = (g, proc_);
    })
}

/// Ends an access of a process's segment that changed it; returns
/// nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_update_block_segment(g: c_int, proc_: c_int) {
    guard("NGA_Release_update_block_segment", (), || {
        let _ = (g, proc_);
    })
}

fn set_tiled_irreg<I: CIndex>(
    call: &'static str,
    g: c_int,
    mapc: *const I,
    nblocks: *const I,
    proc_grid: *const I,
) {
    run(call, || {
        set_pending_tiled_irreg(call, g, mapc, nblocks, proc_grid)
    })
}

twins! {
    /// Makes the array of handle `g` (after `GA_Set_data`) tiled with tiles
    /// of irregular sizes: `nblocks[d]` tiles along dimension d starting at
    /// the 0-based offsets in `mapc` (dimension 0's first, as for
    /// `NGA_Create_irreg`), tile (t0, t1, ...) on the process at
    /// (t0 mod proc_grid[0], ...) of the process grid (C order; its product
    /// must be the number of processes, checked by `GA_Allocate`). Returns
    /// nothing; a bad map or grid ends the job through `GA_Error`.
    fn GA_Set_tiled_irreg_proc_grid / GA_Set_tiled_irreg_proc_grid64
        (g: c_int, mapc: Ix, nblocks: Ix, proc_grid: Ix) = set_tiled_irreg;
}

twins! {
    /// Same as `GA_Set_tiled_irreg_proc_grid`; returns nothing.
    fn NGA_Set_tiled_irreg_proc_grid / NGA_Set_tiled_irreg_proc_grid64
        (g: c_int, mapc: Ix, nblocks: Ix, proc_grid: Ix) = set_tiled_irreg;
}
