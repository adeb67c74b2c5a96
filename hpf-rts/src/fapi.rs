//! The Fortran 77 entry points of the run-time, as a Fortran 90D style
//! node program calls them: subroutines named `HPF_*` (symbols `hpf_*_`),
//! every argument by reference, integer handles for grids and DADs, the
//! status in a last `IERR` argument (`HPF_OK` 0 or a negative `HPF_E*`
//! code, the same as the C API's). Constants are in `hpf_rts.fh`.
//!
//! Fortran conventions differ from the C API's in three places: grid
//! dimensions count from 1 (`PDIM(d)`; 0 for a collapsed dimension), local
//! indices count from 1 (the owned elements of a dimension are
//! `1..COUNT(d)`, the overlap `1-OLO(d)..0` and `COUNT(d)+1..COUNT(d)+OHI(d)`,
//! so the local array is declared `A(1-OLO(1):COUNT(1)+OHI(1), ...)`), and
//! every integer argument is a default INTEGER (4 bytes). Grid coordinates
//! count from 0, as MPI's do. The work is done by the C API's functions.
//! The entry points whose C and Fortran forms take the same arguments are
//! declared once for both in [`crate::twins`]; this file holds the ones
//! that differ.

#![allow(clippy::too_many_arguments)]

use crate::capi;
use crate::error::{HpfError, HpfResult, HPF_EBADARG, HPF_OK};
use crate::ptr;
use std::ffi::{c_char, c_int, c_longlong, c_void};

/// A default Fortran INTEGER.
pub(crate) type FInt = c_int;

/// The value of a scalar INTEGER argument.
pub(crate) fn int(call: &str, p: *const FInt, what: &str) -> HpfResult<c_int> {
    ptr::read(p, 1)
        .map(|v| v[0])
        .ok_or_else(|| capi::null(call, what))
}

/// Stores `rc` in `IERR` (if addressable).
fn status(ierr: *mut FInt, rc: c_int) {
    let _ = ptr::write(ierr, rc);
}

/// Runs a Fortran entry point: `f` returns the C API's code or fails with
/// an error recorded for `HPF_ERROR_MESSAGE`.
pub(crate) fn entry(call: &str, ierr: *mut FInt, f: impl FnOnce() -> HpfResult<c_int>) {
    let mut rc = HPF_EBADARG;
    let code = capi::run(call, || {
        rc = f()?;
        Ok(())
    });
    status(ierr, if code == 0 { rc } else { code });
}

/// `HPF_INIT(IERR)`: starts the run-time (collective).
#[no_mangle]
pub extern "C" fn hpf_init_(ierr: *mut FInt) {
    status(ierr, capi::hpf_init());
}

/// `HPF_FINALIZE(IERR)`: frees every handle and stops (collective).
#[no_mangle]
pub extern "C" fn hpf_finalize_(ierr: *mut FInt) {
    status(ierr, capi::hpf_finalize());
}

/// `HPF_NPROCS(N, IERR)`: the number of processes.
#[no_mangle]
pub extern "C" fn hpf_nprocs_(n: *mut FInt, ierr: *mut FInt) {
    status(ierr, capi::hpf_nprocs(n));
}

/// `HPF_ERROR_MESSAGE(MSG, IERR)`: the text of the last error,
/// blank-padded into the CHARACTER variable MSG.
#[no_mangle]
pub extern "C" fn hpf_error_message_(msg: *mut c_char, ierr: *mut FInt, msg_len: usize) {
    let mut buf = vec![0u8; 1024];
    let rc = capi::hpf_error_message(buf.as_mut_ptr() as *mut c_char, buf.len() as c_int);
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let text = String::from_utf8_lossy(&buf[..end]).into_owned();
    let rc = match ptr::write_fstring(msg, msg_len, &text) {
        Some(()) => rc,
        None => HPF_EBADARG,
    };
    status(ierr, rc);
}

/// `HPF_DAD_CREATE(GRID, RANK, LB, EXTENT, DIST, BLOCK, PDIM, OLO, OHI,
/// DAD, IERR)`: per dimension the lower bound, extent, distribution
/// (`HPF_COLLAPSED`, `HPF_BLOCK`, `HPF_CYCLIC`, `HPF_CYCLIC_K`), CYCLIC(k)
/// block, grid dimension (from 1) and overlap widths.
#[no_mangle]
pub extern "C" fn hpf_dad_create_(
    grid: *const FInt,
    rank: *const FInt,
    lb: *const FInt,
    extent: *const FInt,
    dist: *const FInt,
    block: *const FInt,
    pdim: *const FInt,
    olo: *const FInt,
    ohi: *const FInt,
    dad: *mut FInt,
    ierr: *mut FInt,
) {
    dad_create(
        "HPF_DAD_CREATE",
        [grid, rank],
        [lb, extent, dist, block, pdim, olo, ohi],
        None,
        dad,
        ierr,
    );
}

/// `HPF_DAD_CREATE_GEN(GRID, RANK, LB, EXTENT, DIST, BLOCK, PDIM, OLO, OHI,
/// SIZES, DAD, IERR)`: `HPF_DAD_CREATE` with `HPF_GEN_BLOCK` dimensions;
/// SIZES holds for each of them, in dimension order, one block size per
/// process of its grid dimension.
#[no_mangle]
pub extern "C" fn hpf_dad_create_gen_(
    grid: *const FInt,
    rank: *const FInt,
    lb: *const FInt,
    extent: *const FInt,
    dist: *const FInt,
    block: *const FInt,
    pdim: *const FInt,
    olo: *const FInt,
    ohi: *const FInt,
    sizes: *const FInt,
    dad: *mut FInt,
    ierr: *mut FInt,
) {
    dad_create(
        "HPF_DAD_CREATE_GEN",
        [grid, rank],
        [lb, extent, dist, block, pdim, olo, ohi],
        Some(sizes),
        dad,
        ierr,
    );
}

/// The two Fortran DAD constructors: reads the Fortran arrays (grid
/// dimensions from 1) and makes the DAD through the C API's common part.
fn dad_create(
    call: &str,
    scalars: [*const FInt; 2],
    arrays: [*const FInt; 7],
    sizes: Option<*const FInt>,
    dad: *mut FInt,
    ierr: *mut FInt,
) {
    let [grid, rank] = scalars;
    let [lb, extent, dist, block, pdim, olo, ohi] = arrays;
    entry(call, ierr, || {
        let g = int(call, grid, "GRID")?;
        let r = int(call, rank, "RANK")?;
        let n = usize::try_from(r)
            .ok()
            .filter(|&n| (1..=7).contains(&n))
            .ok_or_else(|| HpfError::bad_arg(call, format!("RANK {r} is not 1 to 7")))?;
        let arr =
            |p: *const FInt, what: &str| ptr::read(p, n).ok_or_else(|| capi::null(call, what));
        let lb: Vec<c_longlong> = arr(lb, "LB")?.iter().map(|&x| x as c_longlong).collect();
        let ext: Vec<c_longlong> = arr(extent, "EXTENT")?
            .iter()
            .map(|&x| x as c_longlong)
            .collect();
        let dist = arr(dist, "DIST")?;
        let block = arr(block, "BLOCK")?;
        let pd: Vec<c_int> = arr(pdim, "PDIM")?
            .iter()
            .zip(&dist)
            .map(|(&p, &d)| if d == capi::HPF_COLLAPSED { 0 } else { p - 1 })
            .collect();
        let olo = arr(olo, "OLO")?;
        let ohi = arr(ohi, "OHI")?;
        if dad.is_null() {
            return Err(capi::null(call, "DAD"));
        }
        let read = |k: usize| {
            sizes.and_then(|p| ptr::read(p, k).map(|v| v.iter().map(|&x| x as i64).collect()))
        };
        let reader: Option<capi::SizesReader> = sizes.map(|_| &read as capi::SizesReader);
        let h = capi::dad_create(
            call,
            g,
            r,
            [lb.as_ptr(), ext.as_ptr()],
            [
                dist.as_ptr(),
                block.as_ptr(),
                pd.as_ptr(),
                olo.as_ptr(),
                ohi.as_ptr(),
            ],
            reader,
        )?;
        ptr::write(dad, h as FInt).ok_or_else(|| capi::null(call, "DAD"))?;
        Ok(HPF_OK)
    });
}

/// `HPF_DAD_ALIGN(TDAD, RANK, LB, EXTENT, TDIM, STRIDE, OFFSET, OLO, OHI,
/// DAD, IERR)`: the DAD of an array aligned to template DAD TDAD, per
/// dimension A(I) WITH T(STRIDE*I + OFFSET) at template dimension TDIM
/// (from 1; 0: not aligned, collapsed), as `hpf_dad_align`.
#[no_mangle]
pub extern "C" fn hpf_dad_align_(
    tdad: *const FInt,
    rank: *const FInt,
    lb: *const FInt,
    extent: *const FInt,
    tdim: *const FInt,
    stride: *const FInt,
    offset: *const FInt,
    olo: *const FInt,
    ohi: *const FInt,
    dad: *mut FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_DAD_ALIGN";
    entry(CALL, ierr, || {
        let t = int(CALL, tdad, "TDAD")?;
        let r = int(CALL, rank, "RANK")?;
        let n = usize::try_from(r)
            .ok()
            .filter(|&n| (1..=7).contains(&n))
            .ok_or_else(|| HpfError::bad_arg(CALL, format!("RANK {r} is not 1 to 7")))?;
        let ints =
            |p: *const FInt, what: &str| ptr::read(p, n).ok_or_else(|| capi::null(CALL, what));
        let wide = |p: *const FInt, what: &str| -> HpfResult<Vec<c_longlong>> {
            Ok(ints(p, what)?.iter().map(|&x| x as c_longlong).collect())
        };
        let (lb, ext) = (wide(lb, "LB")?, wide(extent, "EXTENT")?);
        let (st, of) = (wide(stride, "STRIDE")?, wide(offset, "OFFSET")?);
        let td = ints(tdim, "TDIM")?;
        let (lo, hi) = (ints(olo, "OLO")?, ints(ohi, "OHI")?);
        let mut h: c_int = -1;
        let rc = capi::hpf_dad_align(
            t,
            r,
            lb.as_ptr(),
            ext.as_ptr(),
            td.as_ptr(),
            st.as_ptr(),
            of.as_ptr(),
            lo.as_ptr(),
            hi.as_ptr(),
            &mut h,
        );
        if rc == HPF_OK {
            ptr::write(dad, h).ok_or_else(|| capi::null(CALL, "DAD"))?;
        }
        Ok(rc)
    });
}

/// `HPF_DAD_TEMPLATE_AT(TDAD, NFIX, FTDIM, FPOS, SDAD, IERR)`: the
/// section of template TDAD at template dimension FTDIM(K) (from 1) =
/// FPOS(K) for K = 1 .. NFIX, as `hpf_dad_template_at`; `ALIGN A(I) WITH
/// T(I, 3)` is `HPF_DAD_ALIGN` of A onto that section.
#[no_mangle]
pub extern "C" fn hpf_dad_template_at_(
    tdad: *const FInt,
    nfix: *const FInt,
    ftdim: *const FInt,
    fpos: *const FInt,
    sdad: *mut FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_DAD_TEMPLATE_AT";
    entry(CALL, ierr, || {
        let t = int(CALL, tdad, "TDAD")?;
        let nf = int(CALL, nfix, "NFIX")?;
        let n = usize::try_from(nf).unwrap_or(0);
        let td = ptr::read(ftdim, n).ok_or_else(|| capi::null(CALL, "FTDIM"))?;
        let pos: Vec<c_longlong> = ptr::read(fpos, n)
            .ok_or_else(|| capi::null(CALL, "FPOS"))?
            .iter()
            .map(|&x| x as c_longlong)
            .collect();
        let mut h: c_int = -1;
        let rc = capi::hpf_dad_template_at(t, nf, td.as_ptr(), pos.as_ptr(), &mut h);
        if rc == HPF_OK {
            ptr::write(sdad, h).ok_or_else(|| capi::null(CALL, "SDAD"))?;
        }
        Ok(rc)
    });
}

/// `HPF_DAD_LOCAL_SHAPE(DAD, COUNT, ALLOC, IERR)`: per dimension the
/// owned elements here and the allocated extent (OLO + COUNT + OHI).
#[no_mangle]
pub extern "C" fn hpf_dad_local_shape_(
    dad: *const FInt,
    count: *mut FInt,
    alloc: *mut FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_DAD_LOCAL_SHAPE";
    entry(CALL, ierr, || {
        let d = capi::get_dad(CALL, int(CALL, dad, "DAD")?)?;
        let me = d.grid().rank();
        let conv = |v: Vec<usize>, what: &str| -> HpfResult<Vec<FInt>> {
            v.iter()
                .map(|&x| {
                    FInt::try_from(x).map_err(|_| {
                        HpfError::bad_arg(CALL, format!("{what} {x} exceeds a default INTEGER"))
                    })
                })
                .collect()
        };
        ptr::write_all(count, &conv(d.counts_of(me), "COUNT")?)
            .ok_or_else(|| capi::null(CALL, "COUNT"))?;
        ptr::write_all(alloc, &conv(d.alloc_of(me), "ALLOC")?)
            .ok_or_else(|| capi::null(CALL, "ALLOC"))?;
        Ok(0)
    });
}

/// `HPF_DAD_LOCAL_TO_GLOBAL(DAD, DIM, LOCAL, GLOBAL, IERR)`: the global
/// subscript of owned local index LOCAL (from 1) of dimension DIM.
#[no_mangle]
pub extern "C" fn hpf_dad_local_to_global_(
    dad: *const FInt,
    dim: *const FInt,
    local: *const FInt,
    global: *mut FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_DAD_LOCAL_TO_GLOBAL";
    entry(CALL, ierr, || {
        let d = capi::get_dad(CALL, int(CALL, dad, "DAD")?)?;
        let k = int(CALL, dim, "DIM")?;
        let l = int(CALL, local, "LOCAL")?;
        let k = usize::try_from(k - 1)
            .map_err(|_| HpfError::bad_arg(CALL, format!("DIM {k} is not positive")))?;
        let l = usize::try_from(l - 1)
            .map_err(|_| HpfError::bad_arg(CALL, format!("LOCAL {l} is not positive")))?;
        let g = d.local_to_global(k, l)?;
        let g = FInt::try_from(g)
            .map_err(|_| HpfError::bad_arg(CALL, format!("subscript {g} exceeds an INTEGER")))?;
        ptr::write(global, g).ok_or_else(|| capi::null(CALL, "GLOBAL"))?;
        Ok(0)
    });
}

/// `HPF_COPY_SECTION(SDAD, SRC, SLO, SHI, SSTR, DDAD, DST, DLO, DHI,
/// DSTR, TYPE, IERR)`: DST(DLO:DHI:DSTR) = SRC(SLO:SHI:SSTR), one INTEGER
/// triplet per dimension of each array; a stride of 0 is the scalar
/// subscript LO(d). SRC and DST may be the same array.
#[no_mangle]
pub extern "C" fn hpf_copy_section_(
    sdad: *const FInt,
    src: *const c_void,
    slo: *const FInt,
    shi: *const FInt,
    sstr: *const FInt,
    ddad: *const FInt,
    dst: *mut c_void,
    dlo: *const FInt,
    dhi: *const FInt,
    dstr: *const FInt,
    r#type: *const FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_COPY_SECTION";
    entry(CALL, ierr, || {
        let s = int(CALL, sdad, "SDAD")?;
        let d = int(CALL, ddad, "DDAD")?;
        let t = int(CALL, r#type, "TYPE")?;
        let sr = capi::get_dad(CALL, s)?.rank();
        let dr = capi::get_dad(CALL, d)?.rank();
        let wide = |p: *const FInt, n: usize, what: &str| -> HpfResult<Vec<c_longlong>> {
            ptr::read(p, n)
                .map(|v| v.iter().map(|&x| x as c_longlong).collect())
                .ok_or_else(|| capi::null(CALL, what))
        };
        let (a, b, c) = (
            wide(slo, sr, "SLO")?,
            wide(shi, sr, "SHI")?,
            wide(sstr, sr, "SSTR")?,
        );
        let (x, y, z) = (
            wide(dlo, dr, "DLO")?,
            wide(dhi, dr, "DHI")?,
            wide(dstr, dr, "DSTR")?,
        );
        Ok(capi::hpf_copy_section(
            s,
            src,
            a.as_ptr(),
            b.as_ptr(),
            c.as_ptr(),
            d,
            dst,
            x.as_ptr(),
            y.as_ptr(),
            z.as_ptr(),
            t,
        ))
    });
}

/// `HPF_COUNT(DAD, MASK, RESULT, IERR)`: RESULT = COUNT(MASK) for a
/// LOGICAL array MASK, RESULT a default INTEGER.
#[no_mangle]
pub extern "C" fn hpf_count_(
    dad: *const FInt,
    mask: *const FInt,
    result: *mut FInt,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_COUNT";
    entry(CALL, ierr, || {
        let d = capi::get_dad(CALL, int(CALL, dad, "DAD")?)?;
        let n = capi::logical(CALL, &d, mask)?;
        let n = FInt::try_from(n)
            .map_err(|_| HpfError::bad_arg(CALL, format!("COUNT {n} exceeds an INTEGER")))?;
        ptr::write(result, n).ok_or_else(|| capi::null(CALL, "RESULT"))?;
        Ok(HPF_OK)
    });
}

/// `HPF_REDUCE_DIM(OP, DAD, TYPE, A, DIM, RDAD, RES, IERR)`: RES =
/// op(A, DIM) with `HPF_OP_SUM` .. `HPF_OP_ANY` (as `hpf_reduce_dim`,
/// without MASK).
#[no_mangle]
pub extern "C" fn hpf_reduce_dim_(
    op: *const FInt,
    dad: *const FInt,
    r#type: *const FInt,
    a: *const c_void,
    dim: *const FInt,
    rdad: *const FInt,
    res: *mut c_void,
    ierr: *mut FInt,
) {
    const CALL: &str = "HPF_REDUCE_DIM";
    entry(CALL, ierr, || {
        let o = int(CALL, op, "OP")?;
        let d = int(CALL, dad, "DAD")?;
        let t = int(CALL, r#type, "TYPE")?;
        let k = int(CALL, dim, "DIM")?;
        let r = int(CALL, rdad, "RDAD")?;
        Ok(capi::hpf_reduce_dim(
            o,
            d,
            t,
            a,
            std::ptr::null(),
            k,
            r,
            res,
        ))
    });
}
