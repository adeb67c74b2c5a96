//! Ghost cells and periodic transfers in the GA C ABI: `NGA_Create_ghosts`
//! (regular and irregular, `int` and `int64_t`), `GA_Update_ghosts`,
//! `NGA_Update_ghost_dir`, `NGA_Access_ghosts`, `NGA_Access_ghost_element`,
//! `NGA_Get_ghost_block`, `NGA_NbGet_ghost_dir`, `GA_Has_ghosts`, the
//! release calls, and `NGA_Periodic_put/get/acc`.
//!
//! Conventions are GA's C ones (0-based, C order), with GA's own quirk for
//! `NGA_Update_ghost_dir`: its `dimension` counts from the *last* C
//! dimension (GA passes it on as Fortran dimension `dimension + 1`), so
//! on a 2-D array `dimension` 0 means the columns' direction. A ghost cell
//! shows the periodic image of the element it stands for, corners included.
//! `NGA_Access_ghost_element`'s subscript counts from the first ghost cell
//! of the frame (0-based), as in GA.
//!
//! Return codes: the creation calls return the new handle, or 0 (with a
//! message on stderr) when the array cannot be made; `NGA_Update_ghost_dir`
//! returns 1 (GA's TRUE) once the cells are filled; `GA_Has_ghosts` 1 or 0.
//! Bad arguments (invalid handle, NULL pointers, a negative width, a
//! direction other than ±1, a dimension out of range) end the job through
//! `GA_Error` with a message naming the call. No panic crosses into C.

use crate::capi::{
    handle_or_zero, ints, irregular, resolve_handle, run, set_pending_ghosts, twins, type_of, Buf,
    NbOut, Text,
};
use crate::capi_ptr::{self as ptr, CIndex};
use crate::core::{self, Distribution, GaError, GaResult, Handle, Periodic};
use std::ffi::{c_char, c_int, c_void};

fn handle(call: &'static str, g: c_int) -> GaResult<(Handle, core::ElemType, Vec<i64>)> {
    let h = resolve_handle(g);
    let (t, d) =
        core::inquire(h).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?;
    Ok((h, t, d))
}

fn dims_of<I: CIndex>(call: &'static str, ndim: c_int, dims: *const I) -> GaResult<Vec<i64>> {
    if !(1..=7).contains(&ndim) {
        return Err(GaError::new(call, format!("ndim {ndim} must be 1..7")));
    }
    let d = ints(call, "dims", dims, ndim as usize)?;
    if let Some(k) = d.iter().position(|&x| x < 1) {
        return Err(GaError::new(
            call,
            format!("dims[{k}]={} must be positive", d[k]),
        ));
    }
    Ok(d)
}

fn make(
    call: &'static str,
    code: c_int,
    dims: &[i64],
    width: &[i64],
    name: *const c_char,
    dist: &Distribution,
) -> GaResult<c_int> {
    let ty = type_of(call, code)?;
    let name = ptr::c_str(name).unwrap_or_default();
    if let Some(k) = width.iter().position(|&w| w < 0) {
        return Err(GaError::new(
            call,
            format!("width[{k}]={} is negative", width[k]),
        ));
    }
    let made = core::create_ghosts(call, ty, dims, width, &name, dist);
    handle_or_zero(call, &name, made)
}

/// Reads the dims and widths of a ghost-array creation, asks `dist` for the
/// distribution of those dims, and makes the array.
fn create_with<I: CIndex>(
    call: &'static str,
    ty: c_int,
    ndim: c_int,
    dims: *const I,
    width: *const I,
    name: *const c_char,
    dist: impl FnOnce(&[i64]) -> GaResult<Distribution>,
) -> c_int {
    run(call, || {
        let d = dims_of(call, ndim, dims)?;
        let w = ints(call, "width", width, d.len())?;
        let dist = dist(&d)?;
        make(call, ty, &d, &w, name, &dist)
    })
}

fn create<I: CIndex>(
    call: &'static str,
    ty: c_int,
    ndim: c_int,
    dims: *const I,
    width: *const I,
    name: *const c_char,
    chunk: *const I,
) -> c_int {
    create_with(call, ty, ndim, dims, width, name, |d| {
        Ok(match ptr::ints_opt(chunk, d.len()) {
            Some(c) if c.iter().any(|&x| x > 0) => Distribution::Chunk(c),
            _ => Distribution::Default,
        })
    })
}

twins! {
    /// Creates an array whose blocks carry `width[d]` ghost cells on each side
    /// of dimension d (collective); `chunk` as for `NGA_Create`. Returns the
    /// handle, or 0 when the array cannot be made.
    fn NGA_Create_ghosts / NGA_Create_ghosts64
        (ty: c_int, ndim: c_int, dims: Ix, width: Ix, name: Text, chunk: Ix) -> c_int = create;
}

#[allow(clippy::too_many_arguments)]
fn create_irreg<I: CIndex>(
    call: &'static str,
    ty: c_int,
    ndim: c_int,
    dims: *const I,
    width: *const I,
    name: *const c_char,
    block: *const I,
    map: *const I,
) -> c_int {
    create_with(call, ty, ndim, dims, width, name, |d| {
        irregular(call, d.len(), block, map, d)
    })
}

twins! {
    /// Creates an array with ghost cells on an irregular distribution
    /// (`nblock`, `map` as for `NGA_Create_irreg`). Returns the handle or 0.
    fn NGA_Create_ghosts_irreg / NGA_Create_ghosts_irreg64
        (ty: c_int, ndim: c_int, dims: Ix, width: Ix, name: Text, nblock: Ix, map: Ix) -> c_int
        = create_irreg;
}

/// 1 if `g` has ghost cells in some dimension, else 0.
#[no_mangle]
pub extern "C" fn GA_Has_ghosts(g: c_int) -> c_int {
    const CALL: &str = "GA_Has_ghosts";
    run(CALL, || {
        let (h, _, _) = handle(CALL, g)?;
        Ok(core::ghost_widths(CALL, h)?.iter().any(|&w| w > 0) as c_int)
    })
}

/// As `GA_Has_ghosts`.
#[no_mangle]
pub extern "C" fn NGA_Has_ghosts(g: c_int) -> c_int {
    GA_Has_ghosts(g)
}

fn update(call: &'static str, g: c_int) {
    run(call, || {
        let (h, _, _) = handle(call, g)?;
        core::update_ghosts(call, h)
    })
}

/// Fills every ghost cell, corners included, with the periodic image of
/// the element it stands for (collective). Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Update_ghosts(g: c_int) {
    update("GA_Update_ghosts", g)
}

/// As `GA_Update_ghosts`.
#[no_mangle]
pub extern "C" fn NGA_Update_ghosts(g: c_int) {
    update("NGA_Update_ghosts", g)
}

/// Fills the ghost cells on side `idir` (−1 or +1) of dimension
/// `dimension` (counted from the last C dimension, as GA does), with that
/// side's corners when `flag` is non-zero (collective). Returns 1.
#[no_mangle]
pub extern "C" fn NGA_Update_ghost_dir(
    g: c_int,
    dimension: c_int,
    idir: c_int,
    flag: c_int,
) -> c_int {
    const CALL: &str = "NGA_Update_ghost_dir";
    run(CALL, || {
        let (h, _, d) = handle(CALL, g)?;
        let n = d.len() as c_int;
        if !(0..n).contains(&dimension) {
            return Err(GaError::new(
                CALL,
                format!("dimension {dimension} of a {n}-dimensional array"),
            ));
        }
        let axis = (n - 1 - dimension) as usize;
        core::update_ghost_dir(CALL, h, axis, idir as i64, flag != 0)?;
        Ok(1)
    })
}

fn access_ghosts<I: CIndex>(
    call: &'static str,
    g: c_int,
    dims: *mut I,
    p: *mut c_void,
    ld: *mut I,
) {
    run(call, || {
        let (h, _, d) = handle(call, g)?;
        let Some((base, ext, lds)) = core::access_ghosts(call, h)? else {
            return Err(GaError::new(
                call,
                format!("process {} owns no part of array {g}", core::nodeid()),
            ));
        };
        put_ints(call, "dims", dims, &ext)?;
        if d.len() > 1 {
            put_ints(call, "ld", ld, &lds)?;
        }
        if !ptr::put_ptr(p, base as *mut c_void) {
            return Err(GaError::new(call, "ptr is NULL"));
        }
        Ok(())
    })
}

pub(crate) fn put_ints<I: CIndex>(
    call: &'static str,
    what: &str,
    p: *mut I,
    v: &[i64],
) -> GaResult<()> {
    ptr::put_ints(p, v).map_err(|e| match e {
        ptr::PutError::Null => GaError::new(call, format!("{what} is NULL")),
        ptr::PutError::TooLarge(x) => GaError::new(
            call,
            format!("{what} value {x} does not fit in an int (use the 64-bit variant)"),
        ),
    })
}

twins! {
    /// Stores in `*(void **)ptr` the address of the first ghost cell of this
    /// process's block, in `dims` the framed extents and in `ld` the framed
    /// leading dimensions. Returns nothing; a process owning no block ends the
    /// job through `GA_Error`.
    fn NGA_Access_ghosts / NGA_Access_ghosts64 (g: c_int, dims: IxOut, p: Buf, ld: IxOut)
        = access_ghosts;
}

fn access_element<I: CIndex>(
    call: &'static str,
    g: c_int,
    p: *mut c_void,
    sub: *const I,
    ld: *mut I,
) {
    run(call, || {
        let (h, t, d) = handle(call, g)?;
        let n = d.len();
        let s = ints(call, "subscript", sub, n)?;
        let Some((base, ext, lds)) = core::access_ghosts(call, h)? else {
            return Err(GaError::new(
                call,
                format!("process {} owns no part of array {g}", core::nodeid()),
            ));
        };
        if (0..n).any(|k| s[k] < 0 || s[k] >= ext[k]) {
            return Err(GaError::new(
                call,
                format!("subscript {s:?} outside this process's framed block of extents {ext:?}"),
            ));
        }
        let mut off = 0i64;
        let mut stride = 1i64;
        for k in (0..n).rev() {
            off += s[k] * stride;
            stride *= ext[k];
        }
        if n > 1 {
            put_ints(call, "ld", ld, &lds)?;
        }
        if !ptr::put_ptr(p, ptr::offset_ptr(base, off as usize * t.size())) {
            return Err(GaError::new(call, "ptr is NULL"));
        }
        Ok(())
    })
}

twins! {
    /// Stores in `*(void **)ptr` the address of the element at `subscript`
    /// of this process's framed block (0 = the first ghost cell) and in `ld`
    /// the framed leading dimensions. Returns nothing.
    fn NGA_Access_ghost_element / NGA_Access_ghost_element64
        (g: c_int, p: Buf, sub: Ix, ld: IxOut) = access_element;
}

fn release(call: &'static str, g: c_int) {
    run(call, || handle(call, g).map(|_| ()))
}

/// Ends an access of the ghost frame (the data is shared memory: nothing
/// to write back). Returns nothing; an invalid handle ends the job.
#[no_mangle]
pub extern "C" fn NGA_Release_ghosts(g: c_int) {
    release("NGA_Release_ghosts", g)
}

/// As `NGA_Release_ghosts`.
#[no_mangle]
pub extern "C" fn NGA_Release_update_ghosts(g: c_int) {
    release("NGA_Release_update_ghosts", g)
}

/// `release` for the element calls, whose subscript is not needed.
fn release_element<I>(call: &'static str, g: c_int, _index: *const I) {
    release(call, g)
}

twins! {
    /// As `NGA_Release_ghosts`, for one element.
    fn NGA_Release_ghost_element / NGA_Release_ghost_element64 (g: c_int, index: Ix)
        = release_element;
}

twins! {
    /// As `NGA_Release_ghosts`, for one element.
    fn NGA_Release_update_ghost_element / NGA_Release_update_ghost_element64
        (g: c_int, index: Ix) = release_element;
}

/// GA uses the corner flag only to choose an internal update method; every
/// update here carries corners. Checks the handle; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_ghost_corner_flag(g: c_int, _flag: c_int) {
    release("GA_Set_ghost_corner_flag", g)
}

/// The periodic family and `NGA_Get_ghost_block` (`ghost_block`: served
/// from this process's frame when the patch lies inside it).
#[allow(clippy::too_many_arguments)]
fn periodic<I: CIndex>(
    call: &'static str,
    kind: Periodic,
    ghost_block: bool,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *mut c_void,
    ld: *const I,
    alpha: *const c_void,
) {
    run(call, || {
        let (h, t, d) = handle(call, g)?;
        let n = d.len();
        let lo = ints(call, "lo", lo, n)?;
        let hi = ints(call, "hi", hi, n)?;
        let ld = if ld.is_null() {
            (1..n).map(|k| hi[k] - lo[k] + 1).collect()
        } else {
            ints(call, "ld", ld, n - 1)?
        };
        let len = core::periodic_len(call, h, &lo, &hi, &ld)?;
        let null = || GaError::new(call, "the buffer is NULL");
        match kind {
            Periodic::Get => {
                let b = ptr::bytes_mut(buf, len).ok_or_else(null)?;
                if ghost_block {
                    core::get_ghost_block(call, h, &lo, &hi, b, &ld)
                } else {
                    core::periodic(call, kind, h, &lo, &hi, &[], Some(b), &ld, &[])
                }
            }
            Periodic::Put => {
                let b = ptr::bytes(buf, len).ok_or_else(null)?;
                core::periodic(call, kind, h, &lo, &hi, b, None, &ld, &[])
            }
            Periodic::Acc => {
                let b = ptr::bytes(buf, len).ok_or_else(null)?;
                let a = ptr::bytes(alpha, t.size())
                    .ok_or_else(|| GaError::new(call, "alpha is NULL"))?;
                core::periodic(call, kind, h, &lo, &hi, b, None, &ld, a)
            }
        }
    })
}

twins! {
    /// Copies `lo..=hi` into `buf`; the bounds may lie outside the array and
    /// wrap around (each index counts modulo the extent). Returns nothing.
    fn NGA_Periodic_get / NGA_Periodic_get64 (g: c_int, lo: Ix, hi: Ix, buf: Buf, ld: Ix)
        = periodic[Periodic::Get, false][std::ptr::null()];
}

twins! {
    /// Copies `buf` into `lo..=hi`, wrapping around as `NGA_Periodic_get`
    /// does. Returns nothing.
    fn NGA_Periodic_put / NGA_Periodic_put64 (g: c_int, lo: Ix, hi: Ix, buf: Buf, ld: Ix)
        = periodic[Periodic::Put, false][std::ptr::null()];
}

twins! {
    /// Adds `alpha·buf` to `lo..=hi` (atomically per piece), wrapping around
    /// as `NGA_Periodic_get` does. Returns nothing.
    fn NGA_Periodic_acc / NGA_Periodic_acc64
        (g: c_int, lo: Ix, hi: Ix, buf: Buf, ld: Ix, alpha: Buf) = periodic[Periodic::Acc, false][];
}

twins! {
    /// Copies `lo..=hi` into `buf`: from this process's block and ghost frame
    /// when the patch lies inside them, else as `NGA_Periodic_get`. Returns
    /// nothing.
    fn NGA_Get_ghost_block / NGA_Get_ghost_block64 (g: c_int, lo: Ix, hi: Ix, buf: Buf, ld: Ix)
        = periodic[Periodic::Get, true][std::ptr::null()];
}

fn set_ghosts<I: CIndex>(call: &'static str, g: c_int, width: *const I) {
    run(call, || {
        set_pending_ghosts(call, g, |n| ints(call, "width", width, n))
    })
}

twins! {
    /// Gives a handle from `GA_Create_handle` (after `GA_Set_data`) `width[d]`
    /// ghost cells on each side of dimension d; returns nothing. A handle not
    /// awaiting `GA_Allocate` or a width outside 0..dims[d] ends the job.
    fn GA_Set_ghosts / GA_Set_ghosts64 (g: c_int, width: Ix) = set_ghosts;
}

twins! {
    /// As `GA_Set_ghosts`.
    fn NGA_Set_ghosts / NGA_Set_ghosts64 (g: c_int, width: Ix) = set_ghosts;
}

fn nbget_ghost_dir<I: CIndex>(
    call: &'static str,
    g: c_int,
    mask: *const I,
    nbhandle: *mut crate::capi::NbHdl,
) {
    run(call, || {
        let (h, _, d) = handle(call, g)?;
        let m = ints(call, "mask", mask, d.len())?;
        core::get_ghost_dir(call, h, &m)?;
        if !ptr::put_one(nbhandle, 0) {
            return Err(GaError::new(call, "nbhandle is NULL"));
        }
        Ok(())
    })
}

twins! {
    /// Fills the part of this process's ghost frame in the direction of
    /// `mask` (per dimension −1, 0 or +1, C order) from the owners of the
    /// cells; done before this returns, so `*nbhandle` is set for
    /// `NGA_NbWait` to return at once. Not collective. Returns nothing; a
    /// mask entry outside −1..1 ends the job through `GA_Error`.
    fn NGA_NbGet_ghost_dir / NGA_NbGet_ghost_dir64 (g: c_int, mask: Ix, nbhandle: NbOut)
        = nbget_ghost_dir;
}

/// Fills every ghost cell as `GA_Update_ghosts` does, which completes
/// before this returns; `*nbhandle` is set so that `NGA_NbWait` returns at
/// once. Returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Update_ghosts_nb(g: c_int, nbhandle: *mut crate::capi::NbHdl) {
    const CALL: &str = "NGA_Update_ghosts_nb";
    run(CALL, || {
        let (h, _, _) = handle(CALL, g)?;
        core::update_ghosts(CALL, h)?;
        if !ptr::put_one(nbhandle, 0) {
            return Err(GaError::new(CALL, "nbhandle is NULL"));
        }
        Ok(())
    })
}
