//! The C API of `hpf_rts.h`: processor grids and DADs behind integer
//! handles, local buffers passed as base pointers with their DAD, element
//! types as `HPF_INTEGER4`/`HPF_INTEGER8`/`HPF_REAL4`/`HPF_REAL8`.
//!
//! Every function returns `HPF_OK` (0) or a negative `HPF_E*` code and
//! keeps the message of the last error of the calling thread for
//! `hpf_error_message`. Dimension numbers (`dim`) count from 1 as Fortran's
//! DIM; grid dimensions and coordinates count from 0; global subscripts
//! keep the array's lower bounds; local indices count from 0 without the
//! overlap. A panic inside is reported and returns `HPF_EINTERNAL`.

use crate::dad::{numroc, Dad, DimSpec, Dist};
use crate::element::{ElemKind, Element};
use crate::error::*;
use crate::grid::{self, ProcGrid};
use crate::indexed::IndexSchedule;
use crate::section::{Section, Subscript};
use crate::{ptr, reduce, schedule};
use shim_core::ffi_guard::guard;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_longlong, c_void};
use std::sync::{Arc, Mutex};

/// `dist` code: not distributed.
pub const HPF_COLLAPSED: c_int = 0;
/// `dist` code: BLOCK.
pub const HPF_BLOCK: c_int = 1;
/// `dist` code: CYCLIC.
pub const HPF_CYCLIC: c_int = 2;
/// `dist` code: CYCLIC(k), k from `block[d]`.
pub const HPF_CYCLIC_K: c_int = 3;
/// `dist` code: GEN_BLOCK, sizes from the `sizes` of `hpf_dad_create_gen`.
pub const HPF_GEN_BLOCK: c_int = 4;

/// Reads the first `n` GEN_BLOCK sizes a caller passed (None: NULL or
/// unreadable).
pub(crate) type SizesReader<'a> = &'a dyn Fn(usize) -> Option<Vec<i64>>;

#[derive(Default)]
struct Handles {
    grids: HashMap<c_int, Arc<ProcGrid>>,
    dads: HashMap<c_int, Dad>,
    index: HashMap<c_int, Arc<IndexSchedule>>,
    next: c_int,
}

static HANDLES: Mutex<Option<Handles>> = Mutex::new(None);

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn handles<R>(f: impl FnOnce(&mut Handles) -> R) -> R {
    let mut h = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    f(h.get_or_insert_with(|| Handles {
        next: 1,
        ..Handles::default()
    }))
}

pub(crate) fn run(name: &str, f: impl FnOnce() -> HpfResult<()>) -> c_int {
    guard(name, HPF_EINTERNAL, || match f() {
        Ok(()) => HPF_OK,
        Err(e) => {
            LAST_ERROR.with(|l| *l.borrow_mut() = e.message.clone());
            e.code
        }
    })
}

pub(crate) fn null(call: &str, what: &str) -> HpfError {
    HpfError::bad_arg(call, format!("{what} is NULL or misaligned"))
}

fn get_grid(call: &str, h: c_int) -> HpfResult<Arc<ProcGrid>> {
    handles(|t| t.grids.get(&h).cloned())
        .ok_or_else(|| HpfError::new(HPF_EBADHANDLE, format!("{call}: no processor grid {h}")))
}

/// Keeps DAD `d` under a new handle and returns it.
fn new_dad_handle(d: Dad) -> c_int {
    handles(|t| {
        let h = t.next;
        t.next += 1;
        t.dads.insert(h, d);
        h
    })
}

pub(crate) fn get_dad(call: &str, h: c_int) -> HpfResult<Dad> {
    handles(|t| t.dads.get(&h).cloned())
        .ok_or_else(|| HpfError::new(HPF_EBADHANDLE, format!("{call}: no DAD {h}")))
}

pub(crate) fn kind(call: &str, t: c_int) -> HpfResult<ElemKind> {
    ElemKind::from_code(t).ok_or_else(|| {
        HpfError::bad_arg(
            call,
            format!(
                "element type {t} is not one of HPF_INTEGER4/8, HPF_REAL4/8, HPF_COMPLEX8/16, HPF_LOGICAL"
            ),
        )
    })
}

/// Calls `$f::<T>` for the element type `$k`.
macro_rules! typed {
    ($k:expr, $f:ident ( $($a:expr),* )) => {
        match $k {
            ElemKind::Integer4 => $f::<i32>($($a),*),
            ElemKind::Integer8 => $f::<i64>($($a),*),
            ElemKind::Real4 => $f::<f32>($($a),*),
            ElemKind::Real8 => $f::<f64>($($a),*),
            ElemKind::Complex8 => $f::<$crate::element::Complex8>($($a),*),
            ElemKind::Complex16 => $f::<$crate::element::Complex16>($($a),*),
            ElemKind::Logical => $f::<$crate::element::Logical>($($a),*),
        }
    };
}
pub(crate) use typed;

/// Starts the run-time (collective; joins the shared MPI backend).
/// Returns `HPF_OK` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_init() -> c_int {
    run("hpf_init", grid::init)
}

/// Frees every grid and DAD handle and stops the run-time (collective).
/// Returns `HPF_OK` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_finalize() -> c_int {
    run("hpf_finalize", || {
        let old = HANDLES.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(old);
        grid::finalize()
    })
}

/// Copies the message of the calling thread's last error into `buf`
/// (`len` bytes, NUL-terminated, truncated). Returns `HPF_OK` or
/// `HPF_EBADARG` for a NULL `buf` or `len` < 1.
#[no_mangle]
pub extern "C" fn hpf_error_message(buf: *mut c_char, len: c_int) -> c_int {
    guard("hpf_error_message", HPF_EINTERNAL, || {
        let msg = LAST_ERROR.with(|l| l.borrow().clone());
        match ptr::write_cstr(buf, usize::try_from(len).unwrap_or(0), &msg) {
            Some(()) => HPF_OK,
            None => HPF_EBADARG,
        }
    })
}

/// Stores the number of processes in `*n`. Returns `HPF_OK`,
/// `HPF_ENOTINIT` or `HPF_EBADARG` (NULL `n`).
#[no_mangle]
pub extern "C" fn hpf_nprocs(n: *mut c_int) -> c_int {
    run("hpf_nprocs", || {
        let v = grid::nprocs()?;
        ptr::write(n, v).ok_or_else(|| null("hpf_nprocs", "n"))
    })
}

/// Creates a grid of `ndims` dimensions with sizes `dims` (zeros filled
/// in and written back) and stores its handle in `*grid`.
pub(crate) fn grid_create(
    call: &str,
    ndims: c_int,
    dims: *mut c_int,
    grid: *mut c_int,
) -> HpfResult<()> {
    let n = usize::try_from(ndims)
        .map_err(|_| HpfError::bad_arg(call, format!("ndims {ndims} is negative")))?;
    if n == 0 || n > grid::MAX_GRID_DIMS {
        return Err(HpfError::bad_arg(
            call,
            format!("ndims {ndims} is not 1 to 3"),
        ));
    }
    let d = ptr::read(dims as *const c_int, n).ok_or_else(|| null(call, "dims"))?;
    if grid.is_null() {
        return Err(null(call, "grid"));
    }
    let g = ProcGrid::new(&d)?;
    let full: Vec<c_int> = g.dims().iter().map(|&x| x as c_int).collect();
    ptr::write_all(dims, &full).ok_or_else(|| null(call, "dims"))?;
    let h = handles(|t| {
        let h = t.next;
        t.next += 1;
        t.grids.insert(h, g);
        h
    });
    ptr::write(grid, h).ok_or_else(|| null(call, "grid"))
}

/// Stores this process's rank and coordinates on grid `grid` (NULL
/// pointers skipped).
pub(crate) fn grid_info(
    call: &str,
    grid: c_int,
    rank: *mut c_int,
    coords: *mut c_int,
) -> HpfResult<()> {
    let g = get_grid(call, grid)?;
    if !rank.is_null() {
        ptr::write(rank, g.rank() as c_int).ok_or_else(|| null(call, "rank"))?;
    }
    if !coords.is_null() {
        let c: Vec<c_int> = g.my_coords().iter().map(|&x| x as c_int).collect();
        ptr::write_all(coords, &c).ok_or_else(|| null(call, "coords"))?;
    }
    Ok(())
}

/// Releases DAD handle `dad`.
pub(crate) fn dad_free(call: &str, dad: c_int) -> HpfResult<()> {
    handles(|t| t.dads.remove(&dad))
        .map(|_| ())
        .ok_or_else(|| HpfError::new(HPF_EBADHANDLE, format!("{call}: no DAD {dad}")))
}

/// The index arrays of a gather or scatter through index arrays: `n`
/// arrays (one per dimension of the indexed array), each a local buffer of
/// `vd` of element type `vtype` (`HPF_INTEGER4` or `HPF_INTEGER8`), the
/// k-th starting `k * ldv` elements after `v`.
pub(crate) fn index_arrays(
    call: &str,
    n: usize,
    vd: &Dad,
    v: *const c_void,
    ldv: i64,
    vtype: ElemKind,
) -> HpfResult<Vec<Vec<i64>>> {
    let len = vd.local_len();
    let ld = usize::try_from(ldv)
        .ok()
        .filter(|&l| l >= len || n == 1)
        .ok_or_else(|| {
            HpfError::bad_arg(
                call,
                format!("ldv {ldv} is less than the local size {len} of V's DAD"),
            )
        })?;
    let total = if n == 0 || len == 0 {
        0
    } else {
        (n - 1) * ld + len
    };
    let all: Vec<i64> = match vtype {
        ElemKind::Integer4 => ptr::slice::<i32>(v, total)
            .ok_or_else(|| null(call, "v"))?
            .iter()
            .map(|&x| i64::from(x))
            .collect(),
        ElemKind::Integer8 => ptr::slice::<i64>(v, total)
            .ok_or_else(|| null(call, "v"))?
            .to_vec(),
        other => {
            return Err(HpfError::bad_arg(
                call,
                format!("index arrays must be HPF_INTEGER4 or HPF_INTEGER8, not {other:?}"),
            ))
        }
    };
    Ok((0..n)
        .map(|k| {
            if len == 0 {
                Vec::new()
            } else {
                all[k * ld..k * ld + len].to_vec()
            }
        })
        .collect())
}

/// Plans `other = a(V)` (`gather`) or `a(V) = other`: the index arrays
/// as [`index_arrays`] reads them, all on DAD `vd`.
pub(crate) fn index_plan(
    call: &str,
    gather: bool,
    a: &Dad,
    ind: (&Dad, *const c_void, i64, ElemKind),
    other: &Dad,
) -> HpfResult<IndexSchedule> {
    let (vd, v, ldv, vtype) = ind;
    // The local sizes differ between processes, so `ldv` may suit some and
    // not others: agree before the planning exchanges start.
    let read = index_arrays(call, a.rank(), vd, v, ldv, vtype);
    let all = crate::indexed::all_ok(call, a, read.is_ok())?;
    let subs = match read {
        Err(e) => return Err(e),
        Ok(_) if !all => {
            return Err(HpfError::bad_arg(
                call,
                "the index arrays (v, ldv or vtype) are invalid on another process",
            ))
        }
        Ok(s) => s,
    };
    let vs: Vec<(&Dad, &[i64])> = subs.iter().map(|x| (vd, &x[..])).collect();
    IndexSchedule::named(call, gather, a, &vs, other)
}

/// Runs index schedule `s` from `src` into `dst` (separate memory).
pub(crate) fn index_run<T: Element>(
    call: &str,
    s: &IndexSchedule,
    src: *const c_void,
    dst: *mut c_void,
) -> HpfResult<()> {
    let (sd, dd) = s.dads();
    apart::<T, _>(call, sd, src, dd, dst, |x, y| s.execute(x, y))
}

/// Runs scatter schedule `s` adding `src` (B) into `dst` (A).
pub(crate) fn index_run_sum<T: Element>(
    call: &str,
    s: &IndexSchedule,
    src: *const c_void,
    dst: *mut c_void,
) -> HpfResult<()> {
    let (sd, dd) = s.dads();
    apart::<T, _>(call, sd, src, dd, dst, |x, y| s.execute_sum(x, y))
}

/// The combining scatter of C code `op` (`HPF_OP_SUM` .. `HPF_OP_IPARITY`,
/// `HPF_OP_COPY`).
pub(crate) fn scatter_op(call: &str, op: c_int) -> HpfResult<crate::combining::ScatterOp> {
    crate::combining::ScatterOp::from_code(op).ok_or_else(|| {
        HpfError::bad_arg(
            call,
            format!(
                "op {op} is not a combining scatter (HPF_OP_SUM .. HPF_OP_IPARITY, HPF_OP_COPY)"
            ),
        )
    })
}

/// Runs scatter schedule `s` combining `src` (B; a LOGICAL array of ints
/// for COUNT) into `dst` (A of type `T`) by `op`, where `mask` (ints with
/// B's DAD; NULL: all true) is true.
pub(crate) fn index_run_op<T: Element>(
    call: &str,
    s: &IndexSchedule,
    op: crate::combining::ScatterOp,
    src: *const c_void,
    mask: *const c_int,
    dst: *mut c_void,
) -> HpfResult<()> {
    let (sd, dd) = s.dads();
    let m = mask_of(call, sd, mask)?;
    if op != crate::combining::ScatterOp::Count {
        return apart::<T, _>(call, sd, src, dd, dst, |x, y| s.combine(call, op, x, m, y));
    }
    let src_bytes = sd.local_len() * std::mem::size_of::<i32>();
    let dst_bytes = dd.local_len() * std::mem::size_of::<T>();
    if ptr::ranges_overlap::<u8>(src, src_bytes, dst, dst_bytes) {
        return Err(HpfError::bad_arg(call, "source and result share memory"));
    }
    let b = local::<crate::element::Logical>(call, "source", sd, src)?;
    s.count_named(call, b, m, local_mut::<T>(call, "destination", dd, dst)?)
}

/// Keeps index schedule `s` under a new handle.
pub(crate) fn index_store(s: IndexSchedule) -> c_int {
    handles(|t| {
        let h = t.next;
        t.next += 1;
        t.index.insert(h, Arc::new(s));
        h
    })
}

/// The index schedule of handle `h`.
pub(crate) fn index_get(call: &str, h: c_int) -> HpfResult<Arc<IndexSchedule>> {
    handles(|t| t.index.get(&h).cloned())
        .ok_or_else(|| HpfError::new(HPF_EBADHANDLE, format!("{call}: no index schedule {h}")))
}

/// Releases index schedule handle `h`.
pub(crate) fn index_free(call: &str, h: c_int) -> HpfResult<()> {
    handles(|t| t.index.remove(&h))
        .map(|_| ())
        .ok_or_else(|| HpfError::new(HPF_EBADHANDLE, format!("{call}: no index schedule {h}")))
}

/// `n` flags (non-zero true) from `p`; all false for NULL.
pub(crate) fn flags(call: &str, what: &str, n: usize, p: *const c_int) -> HpfResult<Vec<bool>> {
    if p.is_null() {
        return Ok(vec![false; n]);
    }
    Ok(ptr::read(p, n)
        .ok_or_else(|| null(call, what))?
        .iter()
        .map(|&x| x != 0)
        .collect())
}

/// Releases grid handle `grid` (DADs made on it stay usable). Returns
/// `HPF_OK` or `HPF_EBADHANDLE`.
#[no_mangle]
pub extern "C" fn hpf_grid_free(grid: c_int) -> c_int {
    run("hpf_grid_free", || {
        handles(|t| t.grids.remove(&grid))
            .map(|_| ())
            .ok_or_else(|| {
                HpfError::new(
                    HPF_EBADHANDLE,
                    format!("hpf_grid_free: no processor grid {grid}"),
                )
            })
    })
}

/// Creates a DAD on `grid` for a rank-`rank` array: per dimension `d` the
/// lower bound `lb[d]`, extent `extent[d]` (>= 0), distribution `dist[d]`
/// (`HPF_COLLAPSED`, `HPF_BLOCK`, `HPF_CYCLIC`, `HPF_CYCLIC_K` with k in
/// `block[d]`; `block` may be NULL otherwise; `HPF_GEN_BLOCK` needs
/// `hpf_dad_create_gen`), grid dimension `pdim[d]` (ignored when
/// collapsed), overlap widths `olo[d]`/`ohi[d]` (NULL for none; BLOCK,
/// GEN_BLOCK and collapsed only). Returns `HPF_OK`, `HPF_EBADHANDLE` or
/// `HPF_EBADARG` (the message names the dimension and field).
#[no_mangle]
pub extern "C" fn hpf_dad_create(
    grid: c_int,
    rank: c_int,
    lb: *const c_longlong,
    extent: *const c_longlong,
    dist: *const c_int,
    block: *const c_int,
    pdim: *const c_int,
    olo: *const c_int,
    ohi: *const c_int,
    dad: *mut c_int,
) -> c_int {
    const CALL: &str = "hpf_dad_create";
    run(CALL, || {
        if dad.is_null() {
            return Err(null(CALL, "dad"));
        }
        let h = dad_create(
            CALL,
            grid,
            rank,
            [lb, extent],
            [dist, block, pdim, olo, ohi],
            None,
        )?;
        ptr::write(dad, h).ok_or_else(|| null(CALL, "dad"))
    })
}

/// `hpf_dad_create` with general block distributions: the same arguments
/// plus `sizes`, which holds for each `HPF_GEN_BLOCK` dimension, in
/// dimension order, one block size per process of its grid dimension (in
/// coordinate order, each >= 0, adding up to the extent). `sizes` may be
/// NULL when no dimension is `HPF_GEN_BLOCK`. Returns `HPF_OK`,
/// `HPF_EBADHANDLE` or `HPF_EBADARG` (wrong number or sum of sizes, a
/// negative size, or any error of `hpf_dad_create`).
#[no_mangle]
pub extern "C" fn hpf_dad_create_gen(
    grid: c_int,
    rank: c_int,
    lb: *const c_longlong,
    extent: *const c_longlong,
    dist: *const c_int,
    block: *const c_int,
    pdim: *const c_int,
    olo: *const c_int,
    ohi: *const c_int,
    sizes: *const c_longlong,
    dad: *mut c_int,
) -> c_int {
    const CALL: &str = "hpf_dad_create_gen";
    run(CALL, || {
        if dad.is_null() {
            return Err(null(CALL, "dad"));
        }
        let read = |n: usize| ptr::read(sizes, n).map(|v| v.into_iter().collect::<Vec<i64>>());
        let h = dad_create(
            CALL,
            grid,
            rank,
            [lb, extent],
            [dist, block, pdim, olo, ohi],
            Some(&read),
        )?;
        ptr::write(dad, h).ok_or_else(|| null(CALL, "dad"))
    })
}

/// Creates the DAD of a rank-`rank` array aligned to the template DAD
/// `template` (HPF's `ALIGN A(i, ..) WITH T(..)`): per dimension `d` the
/// lower bound `lb[d]`, extent `extent[d]`, the template dimension
/// `tdim[d]` (1-based; 0: not aligned, the dimension is collapsed), and
/// `A(i)` WITH `T(stride[d]*i + offset[d])` there; overlap widths
/// `olo[d]`/`ohi[d]` (NULL for none). Template dimensions no array
/// dimension is aligned with replicate the array (for a template section
/// of `hpf_dad_template_at`, the array lives where the section does). Any template
/// distribution and any stride (negative: down the template; 0: the
/// whole dimension on one template cell). Returns `HPF_OK`,
/// `HPF_EBADHANDLE` or `HPF_EBADARG` (a template dimension out of range
/// or used twice, a template cell outside the template, an overlap area
/// where a process owns more than one run, NULL arrays).
#[no_mangle]
pub extern "C" fn hpf_dad_align(
    template: c_int,
    rank: c_int,
    lb: *const c_longlong,
    extent: *const c_longlong,
    tdim: *const c_int,
    stride: *const c_longlong,
    offset: *const c_longlong,
    olo: *const c_int,
    ohi: *const c_int,
    dad: *mut c_int,
) -> c_int {
    const CALL: &str = "hpf_dad_align";
    run(CALL, || {
        let t = get_dad(CALL, template)?;
        let r = usize::try_from(rank)
            .ok()
            .filter(|&r| (1..=7).contains(&r))
            .ok_or_else(|| HpfError::bad_arg(CALL, format!("rank {rank} is not 1 to 7")))?;
        let lb = ptr::read(lb, r).ok_or_else(|| null(CALL, "lb"))?;
        let extent = ptr::read(extent, r).ok_or_else(|| null(CALL, "extent"))?;
        let tdim = ptr::read(tdim, r).ok_or_else(|| null(CALL, "tdim"))?;
        let stride = ptr::read(stride, r).ok_or_else(|| null(CALL, "stride"))?;
        let offset = ptr::read(offset, r).ok_or_else(|| null(CALL, "offset"))?;
        let opt = |p: *const c_int, what: &str| -> HpfResult<Vec<c_int>> {
            if p.is_null() {
                Ok(vec![0; r])
            } else {
                ptr::read(p, r).ok_or_else(|| null(CALL, what))
            }
        };
        let (olo, ohi) = (opt(olo, "olo")?, opt(ohi, "ohi")?);
        if dad.is_null() {
            return Err(null(CALL, "dad"));
        }
        let mut dims = Vec::with_capacity(r);
        for d in 0..r {
            let bad =
                |what: String| HpfError::bad_arg(CALL, format!("dimension {}: {what}", d + 1));
            let ext = usize::try_from(extent[d])
                .map_err(|_| bad(format!("extent {} is negative", extent[d])))?;
            let width = |w: c_int, what: &str| {
                usize::try_from(w).map_err(|_| bad(format!("{what} {w} is negative")))
            };
            let with = match tdim[d] {
                0 => None,
                k if k > 0 => Some((k as usize - 1, stride[d], offset[d])),
                k => return Err(bad(format!("template dimension {k} is negative"))),
            };
            dims.push(crate::align::AlignedDim {
                lb: lb[d],
                extent: ext,
                with,
                olo: width(olo[d], "olo")?,
                ohi: width(ohi[d], "ohi")?,
            });
        }
        let a = crate::align::aligned_dad(&t, &dims)?;
        let h = new_dad_handle(a);
        ptr::write(dad, h).ok_or_else(|| null(CALL, "dad"))
    })
}

/// The section of template DAD `template` at fixed positions (HPF's
/// `ALIGN A(i) WITH T(i, 3)` is `A` aligned with the section `T(:, 3)`):
/// for `k` in `0..nfixed`, template dimension `fixed_tdim[k]` (from 1) at
/// subscript `fixed_pos[k]` is dropped, and the section (the other
/// dimensions, in order) is held only by the processes whose grid
/// coordinate owns those positions. Arrays aligned to it with
/// `hpf_dad_align` live on those processes only; the others hold
/// nothing (local size 0). Returns `HPF_OK`, `HPF_EBADHANDLE` or
/// `HPF_EBADARG` (`nfixed` below 1, a dimension out of range or named
/// twice, a position outside the template, no dimension left, NULL
/// arrays).
#[no_mangle]
pub extern "C" fn hpf_dad_template_at(
    template: c_int,
    nfixed: c_int,
    fixed_tdim: *const c_int,
    fixed_pos: *const c_longlong,
    section: *mut c_int,
) -> c_int {
    const CALL: &str = "hpf_dad_template_at";
    run(CALL, || {
        if nfixed < 1 {
            return Err(HpfError::bad_arg(
                CALL,
                format!("nfixed {nfixed} is below 1"),
            ));
        }
        let t = get_dad(CALL, template)?;
        let nf = nfixed as usize;
        let ftd = ptr::read(fixed_tdim, nf).ok_or_else(|| null(CALL, "fixed_tdim"))?;
        let fpos = ptr::read(fixed_pos, nf).ok_or_else(|| null(CALL, "fixed_pos"))?;
        let at = ftd
            .iter()
            .zip(&fpos)
            .map(|(&k, &pos)| match usize::try_from(k) {
                Ok(k) if k >= 1 => Ok((k - 1, pos)),
                _ => Err(HpfError::bad_arg(
                    CALL,
                    format!("template dimension {k} (they count from 1)"),
                )),
            })
            .collect::<HpfResult<Vec<(usize, i64)>>>()?;
        let d = crate::align::template_at(&t, &at)?;
        let h = new_dad_handle(d);
        ptr::write(section, h).ok_or_else(|| null(CALL, "section"))
    })
}

/// The common part of the DAD constructors: reads the per-dimension
/// arrays (`bounds` = lb, extent; `ints` = dist, block, pdim, olo, ohi;
/// block, olo and ohi may be NULL), the GEN_BLOCK sizes through `sizes`
/// (None: the call takes none), makes the DAD and returns its handle.
pub(crate) fn dad_create(
    call: &str,
    grid: c_int,
    rank: c_int,
    bounds: [*const c_longlong; 2],
    ints: [*const c_int; 5],
    sizes: Option<SizesReader>,
) -> HpfResult<c_int> {
    let [lb, extent] = bounds;
    let [dist, block, pdim, olo, ohi] = ints;
    let g = get_grid(call, grid)?;
    let r = usize::try_from(rank)
        .ok()
        .filter(|&r| (1..=7).contains(&r))
        .ok_or_else(|| HpfError::bad_arg(call, format!("rank {rank} is not 1 to 7")))?;
    let lb = ptr::read(lb, r).ok_or_else(|| null(call, "lb"))?;
    let extent = ptr::read(extent, r).ok_or_else(|| null(call, "extent"))?;
    let dist = ptr::read(dist, r).ok_or_else(|| null(call, "dist"))?;
    let pdim = ptr::read(pdim, r).ok_or_else(|| null(call, "pdim"))?;
    let opt = |p: *const c_int, what: &str| -> HpfResult<Vec<c_int>> {
        if p.is_null() {
            Ok(vec![0; r])
        } else {
            ptr::read(p, r).ok_or_else(|| null(call, what))
        }
    };
    let block = opt(block, "block")?;
    let olo = opt(olo, "olo")?;
    let ohi = opt(ohi, "ohi")?;
    // GEN_BLOCK sizes: one per process of each GEN_BLOCK dimension's grid
    // dimension, in dimension order.
    let mut wanted = 0usize;
    for d in 0..r {
        if dist[d] == HPF_GEN_BLOCK {
            let pd = usize::try_from(pdim[d])
                .ok()
                .filter(|&p| p < g.dims().len());
            let pd = pd.ok_or_else(|| {
                HpfError::bad_arg(
                    call,
                    format!(
                        "dimension {}: grid dimension {} is not 0 to {}",
                        d + 1,
                        pdim[d],
                        g.dims().len() - 1
                    ),
                )
            })?;
            wanted += g.dims()[pd];
        }
    }
    let all_sizes: Vec<i64> = match (wanted, sizes) {
        (0, _) => Vec::new(),
        (_, None) => {
            return Err(HpfError::bad_arg(
                call,
                "HPF_GEN_BLOCK needs its block sizes: use hpf_dad_create_gen",
            ))
        }
        (n, Some(read)) => read(n).ok_or_else(|| null(call, "sizes"))?,
    };
    let mut next_size = 0usize;
    let mut specs = Vec::with_capacity(r);
    for d in 0..r {
        let bad = |what: String| HpfError::bad_arg(call, format!("dimension {}: {what}", d + 1));
        let ext = usize::try_from(extent[d])
            .map_err(|_| bad(format!("extent {} is negative", extent[d])))?;
        let dst = match dist[d] {
            HPF_COLLAPSED => Dist::Collapsed,
            HPF_BLOCK => Dist::Block,
            HPF_CYCLIC => Dist::Cyclic,
            HPF_CYCLIC_K => Dist::BlockCyclic(
                usize::try_from(block[d])
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| {
                        bad(format!("block {} of CYCLIC(k) is not positive", block[d]))
                    })?,
            ),
            HPF_GEN_BLOCK => {
                // pdim was checked while counting the sizes.
                let p = g.dims()[pdim[d] as usize];
                let mine = &all_sizes[next_size..next_size + p];
                next_size += p;
                let sz = mine
                    .iter()
                    .map(|&x| {
                        usize::try_from(x)
                            .map_err(|_| bad(format!("GEN_BLOCK size {x} is negative")))
                    })
                    .collect::<HpfResult<Vec<usize>>>()?;
                Dist::gen_block(&sz)
            }
            x => return Err(bad(format!("distribution {x} is unknown"))),
        };
        let pd = if dst == Dist::Collapsed {
            0
        } else {
            usize::try_from(pdim[d])
                .map_err(|_| bad(format!("grid dimension {} is negative", pdim[d])))?
        };
        let lo = usize::try_from(olo[d]).map_err(|_| bad(format!("olo {} is negative", olo[d])))?;
        let hi = usize::try_from(ohi[d]).map_err(|_| bad(format!("ohi {} is negative", ohi[d])))?;
        specs.push(DimSpec::new(lb[d], ext, dst, pd).with_overlap(lo, hi));
    }
    let dd = Dad::new(&g, &specs).map_err(|e| HpfError {
        message: e.message.replacen("hpf_dad_create", call, 1),
        ..e
    })?;
    Ok(new_dad_handle(dd))
}

/// Stores in `*n` how many elements this process's local buffer for `dad`
/// holds, overlap included (the size to allocate). Returns `HPF_OK`,
/// `HPF_EBADHANDLE` or `HPF_EBADARG` (NULL `n`).
#[no_mangle]
pub extern "C" fn hpf_dad_local_size(dad: c_int, n: *mut c_longlong) -> c_int {
    const CALL: &str = "hpf_dad_local_size";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        ptr::write(n, d.local_len() as c_longlong).ok_or_else(|| null(CALL, "n"))
    })
}

/// Per dimension of `dad` on this process: owned elements `count[d]`,
/// allocated extent `alloc[d]` (= olo + count + ohi) and memory stride
/// `stride[d]` in elements (column-major; the owned element with local
/// index l_d sits at sum((olo_d + l_d) * stride[d])). Any array may be
/// NULL. Returns `HPF_OK` or `HPF_EBADHANDLE`.
#[no_mangle]
pub extern "C" fn hpf_dad_local_shape(
    dad: c_int,
    count: *mut c_longlong,
    alloc: *mut c_longlong,
    stride: *mut c_longlong,
) -> c_int {
    const CALL: &str = "hpf_dad_local_shape";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let me = d.grid().rank();
        let conv =
            |v: Vec<usize>| -> Vec<c_longlong> { v.iter().map(|&x| x as c_longlong).collect() };
        for (p, v, what) in [
            (count, d.counts_of(me), "count"),
            (alloc, d.alloc_of(me), "alloc"),
            (stride, d.strides_of(me), "stride"),
        ] {
            if !p.is_null() {
                ptr::write_all(p, &conv(v)).ok_or_else(|| null(CALL, what))?;
            }
        }
        Ok(())
    })
}

/// Stores in `*global` the global subscript of local index `local`
/// (0-based, overlap not counted) of dimension `dim` (1-based) on this
/// process. Returns `HPF_OK`, `HPF_EBADHANDLE` or `HPF_EBADARG`.
#[no_mangle]
pub extern "C" fn hpf_dad_local_to_global(
    dad: c_int,
    dim: c_int,
    local: c_longlong,
    global: *mut c_longlong,
) -> c_int {
    const CALL: &str = "hpf_dad_local_to_global";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let k = usize::try_from(dim - 1)
            .map_err(|_| HpfError::bad_arg(CALL, format!("dim {dim} is not positive")))?;
        let l = usize::try_from(local)
            .map_err(|_| HpfError::bad_arg(CALL, format!("local index {local} is negative")))?;
        let g = d.local_to_global(k, l)?;
        ptr::write(global, g).ok_or_else(|| null(CALL, "global"))
    })
}

/// For the element at global subscripts `gidx[rank]`: the grid rank that
/// owns it (the replica in this process's line when the array is
/// replicated) in `*owner`, and its offset in the owner's local buffer in
/// `*offset`. Returns `HPF_OK`, `HPF_EBADHANDLE` or `HPF_EBADARG`
/// (subscript out of bounds).
#[no_mangle]
pub extern "C" fn hpf_dad_owner(
    dad: c_int,
    gidx: *const c_longlong,
    owner: *mut c_int,
    offset: *mut c_longlong,
) -> c_int {
    const CALL: &str = "hpf_dad_owner";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let g = ptr::read(gidx, d.rank()).ok_or_else(|| null(CALL, "gidx"))?;
        let (r, off) = d.owner_of(&g)?;
        ptr::write(owner, r as c_int).ok_or_else(|| null(CALL, "owner"))?;
        ptr::write(offset, off as c_longlong).ok_or_else(|| null(CALL, "offset"))
    })
}

/// ScaLAPACK's NUMROC: elements of `n` in blocks of `nb` dealt over
/// `nprocs` processes from `isrcproc` that process `iproc` holds. Returns
/// the count, or -1 for a negative `n`, `nb` < 1, `nprocs` < 1 or a process
/// number outside 0..nprocs-1.
#[no_mangle]
pub extern "C" fn hpf_numroc(
    n: c_longlong,
    nb: c_longlong,
    iproc: c_int,
    isrcproc: c_int,
    nprocs: c_int,
) -> c_longlong {
    guard("hpf_numroc", -1, || {
        if n < 0
            || nb < 1
            || nprocs < 1
            || !(0..nprocs).contains(&iproc)
            || !(0..nprocs).contains(&isrcproc)
        {
            return -1;
        }
        numroc(
            n as usize,
            nb as usize,
            iproc as usize,
            isrcproc as usize,
            nprocs as usize,
        ) as c_longlong
    })
}

pub(crate) fn local<'a, T>(
    call: &str,
    what: &str,
    d: &Dad,
    p: *const c_void,
) -> HpfResult<&'a [T]> {
    ptr::slice::<T>(p, d.local_len()).ok_or_else(|| null(call, what))
}

pub(crate) fn local_mut<'a, T>(
    call: &str,
    what: &str,
    d: &Dad,
    p: *mut c_void,
) -> HpfResult<&'a mut [T]> {
    ptr::slice_mut::<T>(p, d.local_len()).ok_or_else(|| null(call, what))
}

type Reduction<T> = fn(&Dad, &[T]) -> HpfResult<T>;

pub(crate) fn reduce_into<T: Element>(
    call: &str,
    which: usize,
    d: &Dad,
    a: *const c_void,
    result: *mut c_void,
) -> HpfResult<()> {
    let fs: [Reduction<T>; 4] = [reduce::sum, reduce::product, reduce::maxval, reduce::minval];
    let v = fs[which](d, local::<T>(call, "array", d, a)?)?;
    ptr::write(result as *mut T, v).ok_or_else(|| null(call, "result"))
}

pub(crate) fn logical(call: &str, d: &Dad, mask: *const c_int) -> HpfResult<i64> {
    let m = local::<i32>(call, "mask", d, mask as *const c_void)?;
    reduce::count(d, m, |x| x != 0)
}

/// `*result = COUNT(mask)`; the mask is a LOGICAL array stored as C ints
/// (non-zero true) with DAD `dad`. Collective. Returns `HPF_OK`,
/// `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_count(dad: c_int, mask: *const c_int, result: *mut c_longlong) -> c_int {
    run("hpf_count", || {
        let n = logical("hpf_count", &get_dad("hpf_count", dad)?, mask)?;
        ptr::write(result, n).ok_or_else(|| null("hpf_count", "result"))
    })
}

pub(crate) fn dot_into<T: Element>(
    call: &str,
    d: &Dad,
    a: *const c_void,
    b: *const c_void,
    result: *mut c_void,
) -> HpfResult<()> {
    let v = reduce::dot_product(
        d,
        local::<T>(call, "a", d, a)?,
        local::<T>(call, "b", d, b)?,
    )?;
    ptr::write(result as *mut T, v).ok_or_else(|| null(call, "result"))
}

fn loc_into<T: Element>(
    call: &str,
    max: bool,
    d: &Dad,
    a: *const c_void,
    pos: *mut c_longlong,
) -> HpfResult<()> {
    let buf = local::<T>(call, "array", d, a)?;
    let p = if max {
        reduce::maxloc(d, buf)?
    } else {
        reduce::minloc(d, buf)?
    };
    ptr::write_all(pos, &p).ok_or_else(|| null(call, "pos"))
}

/// `pos[rank] = MAXLOC(a)`: 1-based positions (not subscripts) of the
/// first maximum in array element order; zeros for an empty array.
/// Collective. Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or
/// `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_maxloc(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    pos: *mut c_longlong,
) -> c_int {
    run("hpf_maxloc", || {
        let d = get_dad("hpf_maxloc", dad)?;
        let k = kind("hpf_maxloc", r#type)?;
        typed!(k, loc_into("hpf_maxloc", true, &d, a, pos))
    })
}

/// `pos[rank] = MINLOC(a)`; as `hpf_maxloc` for the first minimum.
#[no_mangle]
pub extern "C" fn hpf_minloc(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    pos: *mut c_longlong,
) -> c_int {
    run("hpf_minloc", || {
        let d = get_dad("hpf_minloc", dad)?;
        let k = kind("hpf_minloc", r#type)?;
        typed!(k, loc_into("hpf_minloc", false, &d, a, pos))
    })
}

/// The local buffers of a source (`sd`, `src`) and a destination (`dd`,
/// `dst`) in separate memory, for `f`.
pub(crate) fn apart<T: Element, R>(
    call: &str,
    sd: &Dad,
    src: *const c_void,
    dd: &Dad,
    dst: *mut c_void,
    f: impl FnOnce(&[T], &mut [T]) -> HpfResult<R>,
) -> HpfResult<R> {
    if ptr::ranges_overlap::<T>(src, sd.local_len(), dst, dd.local_len()) {
        return Err(HpfError::bad_arg(call, "source and result share memory"));
    }
    f(
        local::<T>(call, "source", sd, src)?,
        local_mut::<T>(call, "destination", dd, dst)?,
    )
}

pub(crate) fn halo_in<T: Element>(d: &Dad, a: *mut c_void, periodic: &[bool]) -> HpfResult<()> {
    const CALL: &str = "hpf_shift_overlap";
    let buf = local_mut::<T>(CALL, "array", d, a)?;
    let wlo: Vec<usize> = d.dims().iter().map(|m| m.spec.olo).collect();
    let whi: Vec<usize> = d.dims().iter().map(|m| m.spec.ohi).collect();
    schedule::halo(d, &wlo, &whi, periodic)?.execute_in_place(d, buf)
}

pub(crate) fn cshift_in<T: Element>(
    d: &Dad,
    src: *const c_void,
    dst: *mut c_void,
    shift: i64,
    dim: usize,
) -> HpfResult<()> {
    apart::<T, _>("hpf_cshift", d, src, d, dst, |s, r| {
        schedule::cshift(d, dim, shift)?.execute(d, s, r)
    })
}

pub(crate) fn copy_in<T: Element>(
    sd: &Dad,
    src: *const c_void,
    dd: &Dad,
    dst: *mut c_void,
) -> HpfResult<()> {
    apart::<T, _>("hpf_copy", sd, src, dd, dst, |s, r| {
        schedule::remap(sd, dd)?.execute(dd, s, r)
    })
}

/// The section of an array with DAD `d` that the C arrays `lo`, `hi`,
/// `stride` (one entry per dimension) describe; stride 0 is the scalar
/// subscript `lo[k]`.
pub(crate) fn section_of(
    call: &str,
    which: &str,
    d: &Dad,
    lo: &[c_longlong],
    hi: &[c_longlong],
    stride: &[c_longlong],
) -> HpfResult<Section> {
    if lo.len() != d.rank() || hi.len() != d.rank() || stride.len() != d.rank() {
        return Err(HpfError::bad_arg(
            call,
            format!("{which}: one lo, hi and stride per dimension"),
        ));
    }
    Ok(Section(
        (0..d.rank())
            .map(|k| match stride[k] {
                0 => Subscript::Scalar(lo[k]),
                st => Subscript::triplet(lo[k], hi[k], st),
            })
            .collect(),
    ))
}

fn section_in<T: Element>(
    sd: &Dad,
    src: *const c_void,
    ssec: &Section,
    dd: &Dad,
    dst: *mut c_void,
    dsec: &Section,
) -> HpfResult<()> {
    const CALL: &str = "hpf_copy_section";
    let plan = crate::section::copy_plan(sd, ssec, dd, dsec)?;
    if ptr::ranges_overlap::<T>(src, sd.local_len(), dst, dd.local_len()) {
        // Fortran evaluates the right-hand side before assigning.
        let s = local::<T>(CALL, "src", sd, src)?.to_vec();
        let r = local_mut::<T>(CALL, "dst", dd, dst)?;
        return plan.execute(dd, &s, r);
    }
    let s = local::<T>(CALL, "src", sd, src)?;
    let r = local_mut::<T>(CALL, "dst", dd, dst)?;
    plan.execute(dd, s, r)
}

/// The section copy `dst(dsec) = src(ssec)` between arrays on the same
/// grid with any two DADs. Each section has, per dimension of its array,
/// `lo[d]`, `hi[d]` and `stride[d]` (global subscripts; a triplet
/// `lo:hi:stride` with Fortran's element count, any non-zero stride; a
/// stride of 0 is the scalar subscript `lo[d]`, which drops the dimension
/// from the section's shape). The sections' shapes must be equal. Only
/// the owned cells of `dst`'s section are written; `src` and `dst` may be
/// the same buffer (the source is read before anything is written). The
/// schedule is planned once per pair of DADs and sections. Collective.
/// Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EMISMATCH` (shapes, grids),
/// `HPF_EBADARG` (subscripts outside the bounds, NULL pointers, type) or
/// `HPF_ESYSTEM`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn hpf_copy_section(
    src_dad: c_int,
    src: *const c_void,
    src_lo: *const c_longlong,
    src_hi: *const c_longlong,
    src_stride: *const c_longlong,
    dst_dad: c_int,
    dst: *mut c_void,
    dst_lo: *const c_longlong,
    dst_hi: *const c_longlong,
    dst_stride: *const c_longlong,
    r#type: c_int,
) -> c_int {
    const CALL: &str = "hpf_copy_section";
    run(CALL, || {
        let sd = get_dad(CALL, src_dad)?;
        let dd = get_dad(CALL, dst_dad)?;
        let k = kind(CALL, r#type)?;
        let arr = |p: *const c_longlong, n: usize, what: &str| {
            ptr::read(p, n).ok_or_else(|| null(CALL, what))
        };
        let (sr, dr) = (sd.rank(), dd.rank());
        let ssec = section_of(
            CALL,
            "source",
            &sd,
            &arr(src_lo, sr, "src_lo")?,
            &arr(src_hi, sr, "src_hi")?,
            &arr(src_stride, sr, "src_stride")?,
        )?;
        let dsec = section_of(
            CALL,
            "destination",
            &dd,
            &arr(dst_lo, dr, "dst_lo")?,
            &arr(dst_hi, dr, "dst_hi")?,
            &arr(dst_stride, dr, "dst_stride")?,
        )?;
        typed!(k, section_in(&sd, src, &ssec, &dd, dst, &dsec))
    })
}

/// One MATMUL of element type `T` on C buffers.
pub(crate) fn matmul_in<T: crate::matmul::Gemm>(
    ad: &Dad,
    a: *const c_void,
    bd: &Dad,
    b: *const c_void,
    cd: &Dad,
    c: *mut c_void,
) -> HpfResult<()> {
    const CALL: &str = "hpf_matmul";
    let n = cd.local_len();
    if ptr::ranges_overlap::<T>(a, ad.local_len(), c, n)
        || ptr::ranges_overlap::<T>(b, bd.local_len(), c, n)
    {
        return Err(HpfError::bad_arg(
            CALL,
            "an operand shares memory with the result",
        ));
    }
    let a = local::<T>(CALL, "a", ad, a)?;
    let b = local::<T>(CALL, "b", bd, b)?;
    let c = local_mut::<T>(CALL, "c", cd, c)?;
    crate::matmul::matmul(ad, a, bd, b, cd, c)
}

/// Writes into `desc[9]` the ScaLAPACK descriptor of the rank-2 DAD `dad`
/// for BLACS context `ictxt` (made with `Cblacs_gridinit(&ictxt, "Row", P,
/// Q)` over the same processes as the DAD's P×Q grid). Array dimension 1
/// must lie on grid dimension 0, dimension 2 on grid dimension 1 (BLOCK,
/// CYCLIC or CYCLIC(k); collapsed only over a grid dimension of size 1),
/// without overlap; the local buffer is then the local array PBLAS and
/// ScaLAPACK routines take. Returns `HPF_OK`, `HPF_EBADHANDLE` or
/// `HPF_EBADARG` (the message says which condition fails).
#[no_mangle]
pub extern "C" fn hpf_dad_scalapack_desc(dad: c_int, ictxt: c_int, desc: *mut c_int) -> c_int {
    const CALL: &str = "hpf_dad_scalapack_desc";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let v = d.scalapack_desc(ictxt)?;
        ptr::write_all(desc, &v).ok_or_else(|| null(CALL, "desc"))
    })
}

pub(crate) fn transpose_in<T: Element>(
    sd: &Dad,
    src: *const c_void,
    dd: &Dad,
    dst: *mut c_void,
) -> HpfResult<()> {
    apart::<T, _>("hpf_transpose", sd, src, dd, dst, |s, r| {
        schedule::transpose(sd, dd)?.execute(dd, s, r)
    })
}

pub(crate) fn spread_in<T: Element>(
    sd: &Dad,
    src: *const c_void,
    dim: usize,
    dd: &Dad,
    dst: *mut c_void,
) -> HpfResult<()> {
    apart::<T, _>("hpf_spread", sd, src, dd, dst, |s, r| {
        schedule::spread(sd, dd, dim)?.execute(dd, s, r)
    })
}

pub(crate) fn eoshift_in<T: Element>(
    d: &Dad,
    src: *const c_void,
    dst: *mut c_void,
    shift: i64,
    boundary: *const c_void,
    dim: usize,
) -> HpfResult<()> {
    const CALL: &str = "hpf_eoshift";
    let bnd = if boundary.is_null() {
        T::zero()
    } else {
        ptr::read(boundary as *const T, 1).ok_or_else(|| null(CALL, "boundary"))?[0]
    };
    apart::<T, _>(CALL, d, src, d, dst, |s, r| {
        crate::darray::eoshift_into(d, s, r, shift, bnd, dim)
    })
}

fn mask_of<'a>(call: &str, d: &Dad, mask: *const c_int) -> HpfResult<Option<&'a [i32]>> {
    if mask.is_null() {
        Ok(None)
    } else {
        local::<i32>(call, "mask", d, mask as *const c_void).map(Some)
    }
}

fn num_op(call: &str, op: c_int) -> HpfResult<crate::reduce_dim::NumOp> {
    crate::reduce_dim::NumOp::from_code(op).ok_or_else(|| {
        HpfError::bad_arg(
            call,
            format!("op {op} is not HPF_OP_SUM, HPF_OP_PRODUCT, HPF_OP_MAXVAL or HPF_OP_MINVAL"),
        )
    })
}

fn masked_into<T: Element>(
    op: crate::reduce_dim::NumOp,
    d: &Dad,
    a: *const c_void,
    mask: *const c_int,
    result: *mut c_void,
) -> HpfResult<()> {
    const CALL: &str = "hpf_reduce_mask";
    let m = mask_of(CALL, d, mask)?;
    let v = crate::reduce_dim::reduce_masked(op, d, local::<T>(CALL, "a", d, a)?, m)?;
    ptr::write(result as *mut T, v).ok_or_else(|| null(CALL, "result"))
}

/// `*result = op(a, MASK=mask)` over the whole array: `op` is
/// `HPF_OP_SUM`, `HPF_OP_PRODUCT`, `HPF_OP_MAXVAL` or `HPF_OP_MINVAL`;
/// `mask` a LOGICAL array stored as ints with the same DAD (NULL: all
/// true); masked-out elements count as the identity. Collective. Returns
/// `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_reduce_mask(
    op: c_int,
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    result: *mut c_void,
) -> c_int {
    const CALL: &str = "hpf_reduce_mask";
    run(CALL, || {
        let o = num_op(CALL, op)?;
        let d = get_dad(CALL, dad)?;
        let k = kind(CALL, r#type)?;
        typed!(k, masked_into(o, &d, a, mask, result))
    })
}

fn dim_into<T: Element>(
    op: crate::reduce_dim::NumOp,
    d: &Dad,
    a: *const c_void,
    mask: *const c_int,
    dim: usize,
    rd: &Dad,
    res: *mut c_void,
) -> HpfResult<()> {
    const CALL: &str = "hpf_reduce_dim";
    let m = mask_of(CALL, d, mask)?;
    let src = local::<T>(CALL, "a", d, a)?;
    if ptr::ranges_overlap::<T>(a, d.local_len(), res, rd.local_len()) {
        return Err(HpfError::bad_arg(
            CALL,
            "the array and the result share memory",
        ));
    }
    let out = local_mut::<T>(CALL, "result", rd, res)?;
    crate::reduce_dim::reduce_dim(op, d, src, m, dim, rd, out)
}

/// `res = op(a, DIM=dim, MASK=mask)` (dim 1-based) into an array with DAD
/// `res_dad` (the shape of `a` without DIM, same grid; `hpf_reduced_dad`
/// gives the natural one). `op` is `HPF_OP_SUM` .. `HPF_OP_MINVAL` with
/// `a` of `type` and `mask` as in `hpf_reduce_mask`, or `HPF_OP_COUNT`,
/// `HPF_OP_ALL`, `HPF_OP_ANY` with `a` a LOGICAL array of ints, `type`
/// `HPF_LOGICAL` (or `HPF_INTEGER4`), `mask` NULL and an int result
/// (counts, or 1/0).
/// Collective. Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EMISMATCH`
/// (result shape or grid), `HPF_EBADARG` (op, DIM, type) or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_reduce_dim(
    op: c_int,
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    dim: c_int,
    res_dad: c_int,
    res: *mut c_void,
) -> c_int {
    const CALL: &str = "hpf_reduce_dim";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let rd = get_dad(CALL, res_dad)?;
        let k = kind(CALL, r#type)?;
        let dm = usize::try_from(dim - 1)
            .map_err(|_| HpfError::bad_arg(CALL, format!("DIM {dim} is not positive")))?;
        if let Some(lop) = crate::reduce_dim::LogicalOp::from_code(op) {
            let ints = matches!(k, ElemKind::Integer4 | ElemKind::Logical);
            if !ints || !mask.is_null() {
                return Err(HpfError::bad_arg(
                    CALL,
                    "COUNT, ALL and ANY take a LOGICAL array of ints (HPF_LOGICAL or HPF_INTEGER4) and no mask",
                ));
            }
            let m = local::<i32>(CALL, "a", &d, a)?;
            if ptr::ranges_overlap::<i32>(a, d.local_len(), res, rd.local_len()) {
                return Err(HpfError::bad_arg(
                    CALL,
                    "the array and the result share memory",
                ));
            }
            let out = local_mut::<i32>(CALL, "result", &rd, res)?;
            return crate::reduce_dim::logical_dim(lop, &d, m, dm, &rd, out);
        }
        let o = num_op(CALL, op)?;
        typed!(k, dim_into(o, &d, a, mask, dm, &rd, res))
    })
}

/// Creates in `*res_dad` the natural DAD of a reduction of arrays with DAD
/// `dad` along `dim` (1-based): the other dimensions as distributed in
/// `dad`, no overlap (replicated along DIM's grid dimension). Returns
/// `HPF_OK`, `HPF_EBADHANDLE` or `HPF_EBADARG` (DIM out of range, rank-1
/// array).
#[no_mangle]
pub extern "C" fn hpf_reduced_dad(dad: c_int, dim: c_int, res_dad: *mut c_int) -> c_int {
    const CALL: &str = "hpf_reduced_dad";
    run(CALL, || {
        let d = get_dad(CALL, dad)?;
        let dm = usize::try_from(dim - 1)
            .ok()
            .filter(|&x| x < d.rank())
            .ok_or_else(|| {
                HpfError::bad_arg(CALL, format!("DIM {dim} of a rank-{} array", d.rank()))
            })?;
        if res_dad.is_null() {
            return Err(null(CALL, "res_dad"));
        }
        let nd = crate::reduce_dim::reduced_dad(&d, dm)?;
        let h = new_dad_handle(nd);
        ptr::write(res_dad, h).ok_or_else(|| null(CALL, "res_dad"))
    })
}

fn loc_mask_into<T: Element>(
    max: bool,
    d: &Dad,
    a: *const c_void,
    mask: *const c_int,
    pos: *mut c_longlong,
) -> HpfResult<()> {
    let call = if max {
        "hpf_maxloc_mask"
    } else {
        "hpf_minloc_mask"
    };
    let m = mask_of(call, d, mask)?;
    let p = crate::reduce_dim::locate_masked(max, d, local::<T>(call, "a", d, a)?, m)?;
    ptr::write_all(pos, &p).ok_or_else(|| null(call, "pos"))
}

fn loc_mask(
    max: bool,
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    pos: *mut c_longlong,
) -> c_int {
    let call = if max {
        "hpf_maxloc_mask"
    } else {
        "hpf_minloc_mask"
    };
    run(call, || {
        let d = get_dad(call, dad)?;
        let k = kind(call, r#type)?;
        typed!(k, loc_mask_into(max, &d, a, mask, pos))
    })
}

/// `pos[rank] = MAXLOC(a, MASK=mask)`: 1-based positions of the first
/// maximum among the elements where the LOGICAL int array `mask` (same
/// DAD; NULL: all true) is true; zeros if there is none. Collective.
/// Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_maxloc_mask(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    pos: *mut c_longlong,
) -> c_int {
    loc_mask(true, dad, r#type, a, mask, pos)
}

/// `pos[rank] = MINLOC(a, MASK=mask)`; as `hpf_maxloc_mask`.
#[no_mangle]
pub extern "C" fn hpf_minloc_mask(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    pos: *mut c_longlong,
) -> c_int {
    loc_mask(false, dad, r#type, a, mask, pos)
}

#[allow(clippy::too_many_arguments)]
fn loc_dim_into<T: Element>(
    max: bool,
    d: &Dad,
    a: *const c_void,
    mask: *const c_int,
    dim: usize,
    rd: &Dad,
    res: *mut c_longlong,
) -> HpfResult<()> {
    let call = if max {
        "hpf_maxloc_dim"
    } else {
        "hpf_minloc_dim"
    };
    let m = mask_of(call, d, mask)?;
    let src = local::<T>(call, "a", d, a)?;
    let out = local_mut::<i64>(call, "result", rd, res as *mut c_void)?;
    crate::reduce_dim::locate_dim(max, d, src, m, dim, rd, out)
}

#[allow(clippy::too_many_arguments)]
fn loc_dim(
    max: bool,
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    dim: c_int,
    res_dad: c_int,
    res: *mut c_longlong,
) -> c_int {
    let call = if max {
        "hpf_maxloc_dim"
    } else {
        "hpf_minloc_dim"
    };
    run(call, || {
        let d = get_dad(call, dad)?;
        let rd = get_dad(call, res_dad)?;
        let k = kind(call, r#type)?;
        let dm = usize::try_from(dim - 1)
            .map_err(|_| HpfError::bad_arg(call, format!("DIM {dim} is not positive")))?;
        typed!(k, loc_dim_into(max, &d, a, mask, dm, &rd, res))
    })
}

/// `res = MAXLOC(a, DIM=dim, MASK=mask)` (dim 1-based) into a `long long`
/// array with DAD `res_dad` (the shape of `a` without DIM): per line along
/// DIM the 1-based position of its first maximum among the elements where
/// `mask` (NULL: all true) holds, 0 if none. Collective. Returns `HPF_OK`,
/// `HPF_EBADHANDLE`, `HPF_EMISMATCH`, `HPF_EBADARG` or `HPF_ESYSTEM`.
#[no_mangle]
pub extern "C" fn hpf_maxloc_dim(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    dim: c_int,
    res_dad: c_int,
    res: *mut c_longlong,
) -> c_int {
    loc_dim(true, dad, r#type, a, mask, dim, res_dad, res)
}

/// `res = MINLOC(a, DIM=dim, MASK=mask)`; as `hpf_maxloc_dim`.
#[no_mangle]
pub extern "C" fn hpf_minloc_dim(
    dad: c_int,
    r#type: c_int,
    a: *const c_void,
    mask: *const c_int,
    dim: c_int,
    res_dad: c_int,
    res: *mut c_longlong,
) -> c_int {
    loc_dim(false, dad, r#type, a, mask, dim, res_dad, res)
}
