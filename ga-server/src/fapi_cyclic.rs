//! Block-cyclic arrays in the GA Fortran API (gfortran conventions,
//! `INTEGER` of 8 bytes, 1-based column-major indices):
//! `ga_set_block_cyclic`, `ga_set_block_cyclic_proc_grid`,
//! `ga_set_tiled_proc_grid`, `ga_set_tiled_irreg_proc_grid` (and their
//! `nga_` names) on a handle from
//! `ga_create_handle`, `ga_get_block_info`, `ga_total_blocks`,
//! `nga_access_block`, `nga_access_block_grid`, `nga_access_block_segment`
//! and their release routines.
//!
//! Block sizes, process grids and block-grid subscripts are in Fortran
//! order (the first dimension is the contiguous one); block numbers (the
//! `iproc` of `nga_distribution` on such an array, `idx` of
//! `nga_access_block`) count from 0 with the first dimension fastest, as
//! in GA. The access routines give an index into the MA base array of the
//! array's type. Blocks are kept as tiles (see the C API's notes).
//!
//! `ga_total_blocks` returns the number of blocks (−1 when the array is
//! not block-cyclic). Bad arguments end the job as `ga_error` does.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::{self, codes, Distribution};
use crate::fapi::{
    creation_args, entry, fail, fail_core, int, ints, ints_mut, map_len, out, pending_dims,
    with_pending, Arr, FDist,
};
use crate::ma_fortran::FInt;

fn reversed(v: &[i64]) -> Vec<i64> {
    v.iter().rev().copied().collect()
}

fn set_cyclic(call: &'static str, g_a: *const FInt, block: *const FInt, grid: Option<*const FInt>) {
    entry(call, || {
        let dims = pending_dims(call, g_a);
        let n = dims.len();
        let b = reversed(ints(call, block, n));
        if let Some(d) = b.iter().position(|&x| x < 1) {
            fail(call, format!("block size {} must be positive", b[d]));
        }
        let pg = grid.map(|p| reversed(ints(call, p, n)));
        if pg.as_ref().is_some_and(|g| g.iter().any(|&x| x < 1)) {
            fail(call, "process grid entries must be positive");
        }
        let dist = Distribution::BlockCyclic { block: b, grid: pg };
        with_pending(call, g_a, |p| p.dist = Some(dist))
    })
}

/// `subroutine ga_set_block_cyclic(g_a, dims)`: blocks of `dims(i)`
/// elements, block k on process mod(k, nprocs).
#[no_mangle]
pub extern "C" fn ga_set_block_cyclic_(g_a: *const FInt, dims: *const FInt) {
    set_cyclic("ga_set_block_cyclic", g_a, dims, None)
}

/// `subroutine nga_set_block_cyclic(g_a, dims)`: as `ga_set_block_cyclic`.
#[no_mangle]
pub extern "C" fn nga_set_block_cyclic_(g_a: *const FInt, dims: *const FInt) {
    set_cyclic("nga_set_block_cyclic", g_a, dims, None)
}

/// `subroutine ga_set_block_cyclic_proc_grid(g_a, block, proc_grid)`:
/// blocks dealt over a process grid (its product is the number of
/// processes).
#[no_mangle]
pub extern "C" fn ga_set_block_cyclic_proc_grid_(
    g_a: *const FInt,
    block: *const FInt,
    proc_grid: *const FInt,
) {
    set_cyclic("ga_set_block_cyclic_proc_grid", g_a, block, Some(proc_grid))
}

/// `subroutine nga_set_block_cyclic_proc_grid(g_a, block, proc_grid)`.
#[no_mangle]
pub extern "C" fn nga_set_block_cyclic_proc_grid_(
    g_a: *const FInt,
    block: *const FInt,
    proc_grid: *const FInt,
) {
    set_cyclic(
        "nga_set_block_cyclic_proc_grid",
        g_a,
        block,
        Some(proc_grid),
    )
}

/// `subroutine ga_set_tiled_proc_grid(g_a, block, proc_grid)`: the tiled
/// form of `ga_set_block_cyclic_proc_grid`.
#[no_mangle]
pub extern "C" fn ga_set_tiled_proc_grid_(
    g_a: *const FInt,
    block: *const FInt,
    proc_grid: *const FInt,
) {
    set_cyclic("ga_set_tiled_proc_grid", g_a, block, Some(proc_grid))
}

/// `subroutine nga_set_tiled_proc_grid(g_a, block, proc_grid)`.
#[no_mangle]
pub extern "C" fn nga_set_tiled_proc_grid_(
    g_a: *const FInt,
    block: *const FInt,
    proc_grid: *const FInt,
) {
    set_cyclic("nga_set_tiled_proc_grid", g_a, block, Some(proc_grid))
}

fn set_tiled_irreg(
    call: &'static str,
    g_a: *const FInt,
    map: *const FInt,
    nblock: *const FInt,
    grid: *const FInt,
) {
    entry(call, || {
        let dims = pending_dims(call, g_a);
        let n = dims.len();
        let nb = ints(call, nblock, n);
        let map = ints(call, map, map_len(call, nb));
        let code = i64::from(codes::F_DBL);
        let irregular = FDist::Irregular { map, nblock: nb };
        let Distribution::Irregular { block, map } = creation_args(call, code, &dims, irregular).2
        else {
            fail(call, "the map does not describe tiles");
        };
        let grid = reversed(ints(call, grid, n));
        if grid.iter().any(|&x| x < 1) {
            fail(call, "process grid entries must be positive");
        }
        let dist = Distribution::TiledIrregular { block, map, grid };
        with_pending(call, g_a, |p| p.dist = Some(dist))
    })
}

/// `subroutine ga_set_tiled_irreg_proc_grid(g_a, map, nblock, proc_grid)`:
/// tiles of irregular sizes, `nblock(i)` along dimension i starting at the
/// 1-based offsets in `map` (as for `nga_create_irreg`), tile (t1, t2, ...)
/// on the process at (mod(t1, proc_grid(1)), ...) of the process grid.
#[no_mangle]
pub extern "C" fn ga_set_tiled_irreg_proc_grid_(
    g_a: *const FInt,
    map: *const FInt,
    nblock: *const FInt,
    proc_grid: *const FInt,
) {
    set_tiled_irreg("ga_set_tiled_irreg_proc_grid", g_a, map, nblock, proc_grid)
}

/// `subroutine nga_set_tiled_irreg_proc_grid(g_a, map, nblock, proc_grid)`.
#[no_mangle]
pub extern "C" fn nga_set_tiled_irreg_proc_grid_(
    g_a: *const FInt,
    map: *const FInt,
    nblock: *const FInt,
    proc_grid: *const FInt,
) {
    set_tiled_irreg("nga_set_tiled_irreg_proc_grid", g_a, map, nblock, proc_grid)
}

fn block_info(call: &'static str, g_a: *const FInt, nb: *mut FInt, bd: *mut FInt) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let (counts, sizes) = core::block_info(call, a.h).unwrap_or_else(|e| fail_core(call, e));
        let n = a.ndim();
        ints_mut(call, nb, n).copy_from_slice(&reversed(&counts));
        ints_mut(call, bd, n).copy_from_slice(&reversed(&sizes));
    })
}

/// `subroutine ga_get_block_info(g_a, num_blocks, block_dims)`: blocks
/// along each dimension and the block sizes.
#[no_mangle]
pub extern "C" fn ga_get_block_info_(
    g_a: *const FInt,
    num_blocks: *mut FInt,
    block_dims: *mut FInt,
) {
    block_info("ga_get_block_info", g_a, num_blocks, block_dims)
}

/// `subroutine nga_get_block_info(g_a, num_blocks, block_dims)`.
#[no_mangle]
pub extern "C" fn nga_get_block_info_(
    g_a: *const FInt,
    num_blocks: *mut FInt,
    block_dims: *mut FInt,
) {
    block_info("nga_get_block_info", g_a, num_blocks, block_dims)
}

fn total_blocks(call: &'static str, g_a: *const FInt) -> FInt {
    entry(call, || {
        let a = Arr::get(call, g_a);
        match core::cyclic_kind(a.h).unwrap_or_else(|e| fail_core(call, e)) {
            (true, _) => {
                let (nb, _) = core::block_info(call, a.h).unwrap_or_else(|e| fail_core(call, e));
                nb.iter().product::<i64>()
            }
            _ => -1,
        }
    })
}

/// `integer function ga_total_blocks(g_a)`: the number of blocks, −1 when
/// the array is not block-cyclic.
#[no_mangle]
pub extern "C" fn ga_total_blocks_(g_a: *const FInt) -> FInt {
    total_blocks("ga_total_blocks", g_a)
}

/// `integer function nga_total_blocks(g_a)`: as `ga_total_blocks`.
#[no_mangle]
pub extern "C" fn nga_total_blocks_(g_a: *const FInt) -> FInt {
    total_blocks("nga_total_blocks", g_a)
}

/// Index of block `b` in the MA base array and its Fortran leading
/// dimensions.
fn block_index(call: &'static str, a: &Arr, b: i64) -> (i64, Vec<i64>) {
    let (p, _, _, ld) = core::access_block(call, a.h, b).unwrap_or_else(|e| fail_core(call, e));
    let base = a.base(call);
    let index = base.index_of(p as usize).unwrap_or_else(|| {
        fail(
            call,
            format!(
                "block {b} of g_a '{}' is not aligned to {} elements",
                a.name(),
                base.array()
            ),
        )
    });
    (index, reversed(&ld))
}

/// `subroutine nga_access_block(g_a, idx, index, ld)`: block `idx` (held
/// by this process) as an index into the MA base array, with its leading
/// dimensions `ld(1:ndim-1)`.
#[no_mangle]
pub extern "C" fn nga_access_block_(
    g_a: *const FInt,
    idx: *const FInt,
    index: *mut FInt,
    ld: *mut FInt,
) {
    const C: &str = "nga_access_block";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (i, lds) = block_index(C, &a, int(C, idx));
        out(C, index, i);
        if !lds.is_empty() {
            ints_mut(C, ld, lds.len()).copy_from_slice(&lds);
        }
    })
}

/// `subroutine nga_access_block_grid(g_a, subscript, index, ld)`: the
/// block at block-grid subscript `subscript` (0-based, Fortran order) of
/// an array with a process grid.
#[no_mangle]
pub extern "C" fn nga_access_block_grid_(
    g_a: *const FInt,
    subscript: *const FInt,
    index: *mut FInt,
    ld: *mut FInt,
) {
    const C: &str = "nga_access_block_grid";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let coords = reversed(ints(C, subscript, a.ndim()));
        let b = core::block_at(C, a.h, &coords).unwrap_or_else(|e| fail_core(C, e));
        let (i, lds) = block_index(C, &a, b);
        out(C, index, i);
        if !lds.is_empty() {
            ints_mut(C, ld, lds.len()).copy_from_slice(&lds);
        }
    })
}

/// `subroutine nga_access_block_segment(g_a, proc, index, len)`: this
/// process's tiles, end to end, as an index into the MA base array and a
/// number of elements (`proc` must be this process).
#[no_mangle]
pub extern "C" fn nga_access_block_segment_(
    g_a: *const FInt,
    proc_: *const FInt,
    index: *mut FInt,
    len: *mut FInt,
) {
    const C: &str = "nga_access_block_segment";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (p, n) = core::access_block_segment(C, a.h, int(C, proc_) as i32)
            .unwrap_or_else(|e| fail_core(C, e));
        let i = if n == 0 {
            0
        } else {
            a.base(C).index_of(p as usize).unwrap_or_else(|| {
                fail(
                    C,
                    format!("the segment of g_a '{}' is not aligned", a.name()),
                )
            })
        };
        out(C, index, i);
        out(C, len, n as i64);
    })
}

/// `subroutine nga_release_block(g_a, idx)`: ends an access without
/// changes (data is accessed in place).
#[no_mangle]
pub extern "C" fn nga_release_block_(g_a: *const FInt, idx: *const FInt) {
    entry("nga_release_block", || {
        let _ = (g_a, idx);
    })
}

/// `subroutine nga_release_update_block(g_a, idx)`.
#[no_mangle]
pub extern "C" fn nga_release_update_block_(g_a: *const FInt, idx: *const FInt) {
    entry("nga_release_update_block", || {
        let _ = (g_a, idx);
    })
}

/// `subroutine nga_release_block_grid(g_a, subscript)`.
#[no_mangle]
pub extern "C" fn nga_release_block_grid_(g_a: *const FInt, subscript: *const FInt) {
    entry("nga_release_block_grid", || {
        let _ = (g_a, subscript);
    })
}

/// `subroutine nga_release_update_block_grid(g_a, subscript)`.
#[no_mangle]
pub extern "C" fn nga_release_update_block_grid_(g_a: *const FInt, subscript: *const FInt) {
    entry("nga_release_update_block_grid", || {
        let _ = (g_a, subscript);
    })
}

/// `subroutine nga_release_block_segment(g_a, proc)`.
#[no_mangle]
pub extern "C" fn nga_release_block_segment_(g_a: *const FInt, proc_: *const FInt) {
    entry("nga_release_block_segment", || {
        let _ = (g_a, proc_);
    })
}

/// `subroutine nga_release_update_block_segment(g_a, proc)`.
#[no_mangle]
pub extern "C" fn nga_release_update_block_segment_(g_a: *const FInt, proc_: *const FInt) {
    entry("nga_release_update_block_segment", || {
        let _ = (g_a, proc_);
    })
}
