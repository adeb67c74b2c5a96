//! The GA C ABI's process-grid queries (`ga.h`): `GA_Get_proc_grid`,
//! `NGA_Proc_topology` and `GA_Get_proc_index` (with the `NGA_`
//! spellings), over [`crate::core::proc_grid`]. As Debian's GA 5.8 does,
//! the grid and `NGA_Proc_topology` come in Fortran order (first
//! coordinate varying fastest) while `GA_Get_proc_index` gives C order;
//! every coordinate is 0-based and a process past the grid wraps around
//! it. A bad handle or process ends the job through `GA_Error`.

use crate::capi::{put_out, resolve_handle, run};
use crate::core::{self, GaError};
use std::ffi::c_int;

fn proc_grid(call: &'static str, g: c_int, dims: *mut c_int) {
    run(call, || {
        let (grid, _) =
            core::proc_grid(resolve_handle(g)).map_err(|e| GaError::new(call, e.message))?;
        let f: Vec<i64> = grid.into_iter().rev().collect();
        put_out(call, "dims", dims, &f)
    })
}

fn proc_index(call: &'static str, g: c_int, iproc: c_int, subscript: *mut c_int) {
    run(call, || {
        let (coords, pgrid) = core::proc_coords(call, resolve_handle(g), iproc.into())?;
        if !pgrid {
            return Err(GaError::new(
                call,
                "the array has no ScaLAPACK-style or tiled process grid",
            ));
        }
        let c: Vec<i64> = coords.into_iter().rev().collect();
        put_out(call, "subscript", subscript, &c)
    })
}

/// Defines a query under both of GA's spellings (`GA_`, `NGA_`), each
/// naming itself in its error messages.
macro_rules! spellings {
    ($($(#[doc = $doc:expr])+ fn $ga:ident / $nga:ident($($a:ident: $t:ty),*) = $f:ident;)*) => {$(
        $(#[doc = $doc])+
        #[no_mangle]
        pub extern "C" fn $ga($($a: $t),*) {
            $f(stringify!($ga), $($a),*)
        }

        /// Same as the `GA_` spelling; returns nothing.
        #[no_mangle]
        pub extern "C" fn $nga($($a: $t),*) {
            $f(stringify!($nga), $($a),*)
        }
    )*};
}

spellings! {
    /// Stores the process grid of `g_a` in `dims` (one entry per
    /// dimension, in Fortran order; zeros for a block-cyclic array without
    /// a grid); returns nothing.
    fn GA_Get_proc_grid / NGA_Get_proc_grid(g_a: c_int, dims: *mut c_int) = proc_grid;
    /// Stores in `subscript` the place of process `iproc` in the
    /// ScaLAPACK-style or tiled process grid of `g_a` (C order, 0-based);
    /// returns nothing. Any other array ends the job.
    fn GA_Get_proc_index / NGA_Get_proc_index(g_a: c_int, iproc: c_int, subscript: *mut c_int)
        = proc_index;
}

/// Stores in `coord` the place of process `proc_` in the process grid of
/// `g_a` (Fortran order, 0-based, wrapping past the grid); returns
/// nothing. A block-cyclic array without a grid ends the job.
#[no_mangle]
pub extern "C" fn NGA_Proc_topology(g_a: c_int, proc_: c_int, coord: *mut c_int) {
    const C: &str = "NGA_Proc_topology";
    run(C, || {
        let (coords, _) = core::proc_coords(C, resolve_handle(g_a), proc_.into())?;
        put_out(C, "coord", coord, &coords)
    })
}
