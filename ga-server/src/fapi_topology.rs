//! The GA Fortran API's process-grid queries: `ga_get_proc_grid`,
//! `ga_proc_topology` (2-D), `nga_proc_topology` and `ga_get_proc_index`
//! (with the `nga_` spellings), over [`crate::core::proc_grid`]. Grids
//! and coordinates come in Fortran order, 0-based, as Debian's GA 5.8
//! gives them; a process past the grid wraps around it. A bad handle or
//! process ends the job naming the routine. Also `ga_register_proclist`,
//! GA's permutation of process ids, checked and recorded as Debian's GA
//! 5.8 does: built without `PERMUTE_PIDS`, it changes no array's mapping.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core;
use crate::fapi::{entry, fail, fail_core, int, ints, ints_mut, out, Arr};
use crate::ma_fortran::FInt;

/// Process `p`'s coordinates (Fortran order) in the grid of `a`, and
/// whether that is a ScaLAPACK-style or tiled grid.
fn coords(call: &'static str, a: &Arr, p: *const FInt) -> (Vec<i64>, bool) {
    core::proc_coords(call, a.h, int(call, p)).unwrap_or_else(|e| fail_core(call, e))
}

fn proc_grid(call: &'static str, g_a: *const FInt, dims: *mut FInt) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let (grid, _) = core::proc_grid(a.h).unwrap_or_else(|e| fail_core(call, e));
        let f: Vec<i64> = grid.into_iter().rev().collect();
        ints_mut(call, dims, a.ndim()).copy_from_slice(&f);
    })
}

fn proc_index(call: &'static str, g_a: *const FInt, iproc: *const FInt, index: *mut FInt) {
    entry(call, || {
        let a = Arr::get(call, g_a);
        let (c, pgrid) = coords(call, &a, iproc);
        if !pgrid {
            fail(
                call,
                format!(
                    "g_a '{}' has no ScaLAPACK-style or tiled process grid",
                    a.name()
                ),
            );
        }
        ints_mut(call, index, a.ndim()).copy_from_slice(&c);
    })
}

/// `subroutine ga_get_proc_grid(g_a, dims)`: the process grid, one
/// entry per dimension (zeros for a block-cyclic array without a grid).
#[no_mangle]
pub extern "C" fn ga_get_proc_grid_(g_a: *const FInt, dims: *mut FInt) {
    proc_grid("ga_get_proc_grid", g_a, dims)
}

/// `subroutine nga_get_proc_grid(g_a, dims)`: as `ga_get_proc_grid`.
#[no_mangle]
pub extern "C" fn nga_get_proc_grid_(g_a: *const FInt, dims: *mut FInt) {
    proc_grid("nga_get_proc_grid", g_a, dims)
}

/// `subroutine nga_proc_topology(g_a, proc, coord)`: the place of
/// process `proc` in the grid (0-based, wrapping past the grid).
#[no_mangle]
pub extern "C" fn nga_proc_topology_(g_a: *const FInt, proc_: *const FInt, coord: *mut FInt) {
    const C: &str = "nga_proc_topology";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (c, _) = coords(C, &a, proc_);
        ints_mut(C, coord, a.ndim()).copy_from_slice(&c);
    })
}

/// `subroutine ga_proc_topology(g_a, proc, prow, pcol)`: the place of
/// process `proc` in the grid of a 1-D or 2-D array (`pcol = 0` for 1-D).
#[no_mangle]
pub extern "C" fn ga_proc_topology_(
    g_a: *const FInt,
    proc_: *const FInt,
    prow: *mut FInt,
    pcol: *mut FInt,
) {
    const C: &str = "ga_proc_topology";
    entry(C, || {
        let a = Arr::get(C, g_a);
        if a.ndim() > 2 {
            fail(
                C,
                format!(
                    "g_a '{}' has {} dimensions; use nga_proc_topology",
                    a.name(),
                    a.ndim()
                ),
            );
        }
        let (c, _) = coords(C, &a, proc_);
        out(C, prow, c[0]);
        out(C, pcol, c.get(1).copied().unwrap_or(0));
    })
}

/// `subroutine ga_get_proc_index(g_a, iproc, index)`: the place of
/// process `iproc` in a ScaLAPACK-style or tiled grid (0-based).
#[no_mangle]
pub extern "C" fn ga_get_proc_index_(g_a: *const FInt, iproc: *const FInt, index: *mut FInt) {
    proc_index("ga_get_proc_index", g_a, iproc, index)
}

/// `subroutine nga_get_proc_index(g_a, iproc, index)`: as
/// `ga_get_proc_index`.
#[no_mangle]
pub extern "C" fn nga_get_proc_index_(g_a: *const FInt, iproc: *const FInt, index: *mut FInt) {
    proc_index("nga_get_proc_index", g_a, iproc, index)
}

/// The process list last registered by `ga_register_proclist`.
static PROCLIST: std::sync::Mutex<Vec<i64>> = std::sync::Mutex::new(Vec::new());

/// `subroutine ga_register_proclist(list, np)`: registers a permutation of
/// the process ids (`list(i)` is the process taking place i-1). `np` must
/// be the number of processes and every entry one of them; otherwise the
/// job ends. As in Debian's GA 5.8 the list is only recorded: arrays keep
/// their distribution.
#[no_mangle]
pub extern "C" fn ga_register_proclist_(list: *const FInt, np: *const FInt) {
    const CALL: &str = "ga_register_proclist";
    entry(CALL, || {
        let total = i64::from(core::nnodes());
        let n = int(CALL, np);
        if n != total {
            fail(
                CALL,
                format!("invalid number of processors {n} (there are {total})"),
            );
        }
        let l = ints(CALL, list, n as usize);
        if let Some(bad) = l.iter().find(|&&p| p < 0 || p >= total) {
            fail(CALL, format!("invalid list entry {bad}"));
        }
        *PROCLIST.lock().unwrap_or_else(|e| e.into_inner()) = l.to_vec();
    })
}
