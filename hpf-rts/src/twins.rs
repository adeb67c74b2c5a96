//! The entry points whose C form (`hpf_x`, arguments by value, the status
//! as return value) and Fortran 77 form (`hpf_x_`, every argument by
//! reference, the status in a last `IERR`) take the same arguments in the
//! same order. Each is declared once, through `twins!`, which makes both
//! functions from one argument list and one body; the conventions of
//! either side are in [`crate::capi`] and [`crate::fapi`].
//!
//! An argument's kind says what it is and how each side passes it:
//!
//! | kind | C | Fortran | the body sees |
//! |---|---|---|---|
//! | `handle` | `int` | `INTEGER` | the handle (`c_int`) |
//! | `dad` | `int` | `INTEGER` | the [`Dad`] of that handle |
//! | `ty` | `int` | `INTEGER` | the [`ElemKind`] of that type code |
//! | `int` | `int` | `INTEGER` | the value (`c_int`) |
//! | `dim` | `int` | `INTEGER` | the 0-based dimension of a 1-based DIM |
//! | `long` | `long long` | `INTEGER` | the value (`i64`) |
//! | `cbuf` / `mbuf` | `const void *` / `void *` | any array | the pointer |
//! | `ints` / `ints_out` | `const int *` / `int *` | INTEGER array | the pointer |
//!
//! Every function documents its return codes on the C side; the Fortran
//! twin stores the same code in `IERR`.

use crate::capi::{
    self, copy_in, cshift_in, dot_into, eoshift_in, get_dad, halo_in, kind, matmul_in, reduce_into,
    run, spread_in, transpose_in, typed,
};
use crate::capi::{apart, index_run, index_run_op, index_run_sum, local};
use crate::dad::Dad;
use crate::element::{ElemKind, Element};
use crate::error::{HpfError, HpfResult, HPF_OK};
use crate::fapi::{entry, FInt};
use crate::unstructured;
use std::ffi::{c_int, c_longlong, c_void};

/// The C parameter type of an argument kind.
macro_rules! c_param {
    (handle) => { c_int };
    (dad) => { c_int };
    (ty) => { c_int };
    (int) => { c_int };
    (dim) => { c_int };
    (long) => { c_longlong };
    (cbuf) => { *const c_void };
    (mbuf) => { *mut c_void };
    (ints) => { *const c_int };
    (ints_out) => { *mut c_int };
}

/// The Fortran parameter type of an argument kind.
macro_rules! f_param {
    (cbuf) => { *const c_void };
    (mbuf) => { *mut c_void };
    (ints) => { *const FInt };
    (ints_out) => { *mut FInt };
    ($scalar:ident) => { *const FInt };
}

/// The value a body sees of C argument `$a` of kind `$k`.
macro_rules! c_value {
    ($call:expr, $a:ident, dad) => {
        get_dad($call, $a)?
    };
    ($call:expr, $a:ident, ty) => {
        kind($call, $a)?
    };
    ($call:expr, $a:ident, dim) => {
        zero_based($call, $a)?
    };
    ($call:expr, $a:ident, long) => {
        $a as i64
    };
    ($call:expr, $a:ident, $k:ident) => {
        $a
    };
}

/// The value a body sees of Fortran argument `$a` of kind `$k`.
macro_rules! f_value {
    ($call:expr, $a:ident, cbuf) => {
        $a
    };
    ($call:expr, $a:ident, mbuf) => {
        $a
    };
    ($call:expr, $a:ident, ints) => {
        $a
    };
    ($call:expr, $a:ident, ints_out) => {
        $a
    };
    ($call:expr, $a:ident, long) => {
        crate::fapi::int($call, $a, stringify!($a))? as i64
    };
    ($call:expr, $a:ident, $k:ident) => {{
        let $a = crate::fapi::int($call, $a, stringify!($a))?;
        c_value!($call, $a, $k)
    }};
}

/// Declares a C entry point and its Fortran twin from one argument list
/// and one body (which returns `HpfResult<()>`).
macro_rules! twins {
    ($(
        $(#[$cdoc:meta])*
        c $cname:ident;
        $(#[$fdoc:meta])*
        fortran $fname:ident $fcall:literal;
        ($($a:ident: $k:ident),* $(,)?) $body:block
    )*) => {$(
        $(#[$cdoc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $cname($($a: c_param!($k)),*) -> c_int {
            const CALL: &str = stringify!($cname);
            run(CALL, || {
                $(let $a = c_value!(CALL, $a, $k);)*
                $body
            })
        }

        $(#[$fdoc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $fname($($a: f_param!($k),)* ierr: *mut FInt) {
            const CALL: &str = $fcall;
            entry(CALL, ierr, || {
                $(let $a = f_value!(CALL, $a, $k);)*
                $body.map(|()| HPF_OK)
            });
        }
    )*};
}

/// The 0-based dimension of a 1-based DIM argument.
fn zero_based(call: &str, dim: c_int) -> HpfResult<usize> {
    usize::try_from(dim - 1)
        .map_err(|_| HpfError::bad_arg(call, format!("DIM {dim} is not positive")))
}

fn reshape_in<T: Element>(
    sd: &Dad,
    src: *const c_void,
    dd: &Dad,
    dst: *mut c_void,
) -> HpfResult<()> {
    apart::<T, _>("hpf_reshape", sd, src, dd, dst, |s, d| {
        unstructured::reshape_into(sd, s, dd, d)
    })
}

/// PACK (`unpack` false: `src` is ARRAY, `dst` the packed vector) or
/// UNPACK (`src` is VECTOR, `dst` holds FIELD) with the LOGICAL `mask`.
fn masked_in<T: Element>(
    unpack: bool,
    sd: &Dad,
    src: *const c_void,
    md: &Dad,
    mask: *const c_int,
    dd: &Dad,
    dst: *mut c_void,
) -> HpfResult<()> {
    let call = if unpack { "hpf_unpack" } else { "hpf_pack" };
    let m = local::<i32>(call, "mask", md, mask as *const c_void)?;
    apart::<T, _>(call, sd, src, dd, dst, |s, d| {
        if unpack {
            unstructured::unpack_into(sd, s, md, m, dd, d)
        } else {
            unstructured::pack_into(sd, s, md, m, dd, d).map(|_| ())
        }
    })
}

/// Runs the reduction `which` (0 SUM, 1 PRODUCT, 2 MAXVAL, 3 MINVAL).
fn reduction(
    call: &str,
    which: usize,
    d: &Dad,
    k: ElemKind,
    a: *const c_void,
    result: *mut c_void,
) -> HpfResult<()> {
    typed!(k, reduce_into(call, which, d, a, result))
}

twins! {
    /// Creates a processor grid of all processes (collective): `dims[ndims]`
    /// sizes, zero entries filled with a balanced factorisation and written
    /// back; the handle goes to `*grid`. Returns `HPF_OK`, `HPF_ENOTINIT`,
    /// `HPF_EBADARG` (1 <= ndims <= 3, product must equal the process count).
    c hpf_grid_create;
    /// `HPF_GRID_CREATE(NDIMS, DIMS, GRID, IERR)`: a grid of all processes;
    /// zero entries of DIMS are filled in (collective).
    fortran hpf_grid_create_ "HPF_GRID_CREATE";
    (ndims: int, dims: ints_out, grid: ints_out) {
        capi::grid_create(CALL, ndims, dims, grid)
    }

    /// Stores this process's grid rank in `*rank` and its coordinates in
    /// `coords[ndims]` (either may be NULL). Returns `HPF_OK` or
    /// `HPF_EBADHANDLE`.
    c hpf_grid_info;
    /// `HPF_GRID_INFO(GRID, RANK, COORDS, IERR)`: this process's grid rank
    /// and its coordinates (from 0).
    fortran hpf_grid_info_ "HPF_GRID_INFO";
    (grid: handle, rank: ints_out, coords: ints_out) {
        capi::grid_info(CALL, grid, rank, coords)
    }

    /// Releases DAD handle `dad`. Returns `HPF_OK` or `HPF_EBADHANDLE`.
    c hpf_dad_free;
    /// `HPF_DAD_FREE(DAD, IERR)`.
    fortran hpf_dad_free_ "HPF_DAD_FREE";
    (dad: handle) {
        capi::dad_free(CALL, dad)
    }

    /// `*result = SUM(a)` over the array with DAD `dad` and element type
    /// `type` (collective; 0 for an empty array; the reduction order is
    /// documented in hpf-rts/README.md). Returns `HPF_OK`, `HPF_EBADHANDLE`,
    /// `HPF_EBADARG` (type, NULL pointers) or `HPF_ESYSTEM`.
    c hpf_sum;
    /// `HPF_SUM(DAD, TYPE, A, RESULT, IERR)`: RESULT = SUM(A) (collective).
    fortran hpf_sum_ "HPF_SUM";
    (dad: dad, ty: ty, a: cbuf, result: mbuf) {
        reduction(CALL, 0, &dad, ty, a, result)
    }

    /// `*result = PRODUCT(a)` (1 for an empty array); as `hpf_sum`.
    c hpf_product;
    /// `HPF_PRODUCT(DAD, TYPE, A, RESULT, IERR)`: RESULT = PRODUCT(A).
    fortran hpf_product_ "HPF_PRODUCT";
    (dad: dad, ty: ty, a: cbuf, result: mbuf) {
        reduction(CALL, 1, &dad, ty, a, result)
    }

    /// `*result = MAXVAL(a)` (-HUGE for an empty array); as `hpf_sum`.
    c hpf_maxval;
    /// `HPF_MAXVAL(DAD, TYPE, A, RESULT, IERR)`: RESULT = MAXVAL(A).
    fortran hpf_maxval_ "HPF_MAXVAL";
    (dad: dad, ty: ty, a: cbuf, result: mbuf) {
        reduction(CALL, 2, &dad, ty, a, result)
    }

    /// `*result = MINVAL(a)` (HUGE for an empty array); as `hpf_sum`.
    c hpf_minval;
    /// `HPF_MINVAL(DAD, TYPE, A, RESULT, IERR)`: RESULT = MINVAL(A).
    fortran hpf_minval_ "HPF_MINVAL";
    (dad: dad, ty: ty, a: cbuf, result: mbuf) {
        reduction(CALL, 3, &dad, ty, a, result)
    }

    /// Fills the whole overlap area of `a` (DAD `dad`) from the owners of the
    /// cells, corners included; `periodic[rank]` (non-zero: wrap around; NULL:
    /// none periodic). Cells past a non-periodic end stay unchanged. The
    /// schedule is planned on the first call and reused. Collective. Returns
    /// `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_shift_overlap;
    /// `HPF_SHIFT_OVERLAP(DAD, TYPE, A, PERIODIC, IERR)`: fills the overlap
    /// area of A; PERIODIC(d) non-zero wraps dimension d.
    fortran hpf_shift_overlap_ "HPF_SHIFT_OVERLAP";
    (dad: dad, ty: ty, a: mbuf, periodic: ints) {
        let per = capi::flags(CALL, "periodic", dad.rank(), periodic)?;
        typed!(ty, halo_in(&dad, a, &per))
    }

    /// `dst = src` between arrays of the same shape on the same grid with any
    /// two DADs (remap, e.g. BLOCK to CYCLIC(k)); only owned cells of `dst`
    /// are written. The schedule is planned once per pair of DADs. Collective.
    /// Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EMISMATCH` (shape or grid),
    /// `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_copy;
    /// `HPF_COPY(SDAD, SRC, DDAD, DST, TYPE, IERR)`: DST = SRC between two
    /// DADs of the same shape (remap).
    fortran hpf_copy_ "HPF_COPY";
    (src_dad: dad, src: cbuf, dst_dad: dad, dst: mbuf, ty: ty) {
        typed!(ty, copy_in(&src_dad, src, &dst_dad, dst))
    }

    /// `dst = CSHIFT(src, shift, dim)` (dim 1-based) for two arrays with DAD
    /// `dad` in separate memory: `dst(i) = src(lb + mod(i - lb + shift, n))`
    /// along `dim`. Only owned cells of `dst` are written. Collective. Returns
    /// `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_cshift;
    /// `HPF_CSHIFT(DAD, TYPE, SRC, DST, SHIFT, DIM, IERR)`: DST =
    /// CSHIFT(SRC, SHIFT, DIM).
    fortran hpf_cshift_ "HPF_CSHIFT";
    (dad: dad, ty: ty, src: cbuf, dst: mbuf, shift: long, dim: dim) {
        typed!(ty, cshift_in(&dad, src, dst, shift, dim))
    }

    /// `dst = EOSHIFT(src, shift, boundary, dim)` (dim 1-based) for two arrays
    /// with DAD `dad` in separate memory: along `dim`, `dst(i) = src(i +
    /// shift)` where that lies in the array, else `*boundary` (one element of
    /// `type`; NULL: zero, Fortran's default). Collective. Returns `HPF_OK`,
    /// `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_eoshift;
    /// `HPF_EOSHIFT(DAD, TYPE, SRC, DST, SHIFT, BOUNDARY, DIM, IERR)`: DST =
    /// EOSHIFT(SRC, SHIFT, BOUNDARY, DIM), BOUNDARY a scalar of TYPE.
    fortran hpf_eoshift_ "HPF_EOSHIFT";
    (dad: dad, ty: ty, src: cbuf, dst: mbuf, shift: long, boundary: cbuf, dim: dim) {
        typed!(ty, eoshift_in(&dad, src, dst, shift, boundary, dim))
    }

    /// `dst = TRANSPOSE(src)` for a rank-2 `src` (DAD `src_dad`) and `dst`
    /// (DAD `dst_dad`, the reversed shape, same grid, any distribution). Only
    /// owned cells of `dst` are written; the schedule is planned once per pair
    /// of DADs. Collective. Returns `HPF_OK`, `HPF_EBADHANDLE`,
    /// `HPF_EMISMATCH`, `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_transpose;
    /// `HPF_TRANSPOSE(SDAD, SRC, DDAD, DST, TYPE, IERR)`: DST =
    /// TRANSPOSE(SRC).
    fortran hpf_transpose_ "HPF_TRANSPOSE";
    (src_dad: dad, src: cbuf, dst_dad: dad, dst: mbuf, ty: ty) {
        typed!(ty, transpose_in(&src_dad, src, &dst_dad, dst))
    }

    /// `dst = SPREAD(src, dim, ncopies)` (dim 1-based): `dst` (DAD `dst_dad`)
    /// has one dimension more than `src`, of extent `ncopies` at `dim`, and
    /// holds a copy of `src` at each index of it. Collective. Returns
    /// `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EMISMATCH`, `HPF_EBADARG` or
    /// `HPF_ESYSTEM`.
    c hpf_spread;
    /// `HPF_SPREAD(SDAD, SRC, DIM, DDAD, DST, TYPE, IERR)`: DST =
    /// SPREAD(SRC, DIM, NCOPIES), NCOPIES being DST's extent at DIM.
    fortran hpf_spread_ "HPF_SPREAD";
    (src_dad: dad, src: cbuf, dim: dim, dst_dad: dad, dst: mbuf, ty: ty) {
        typed!(ty, spread_in(&src_dad, src, dim, &dst_dad, dst))
    }

    /// `c = MATMUL(a, b)` for rank-2 arrays on one grid (A m×k, B k×n, C m×n,
    /// any distributions; SUMMA with local products on the system BLAS). Only
    /// owned cells of `c` are written. Collective. Returns `HPF_OK`,
    /// `HPF_EBADHANDLE`, `HPF_EMISMATCH` (shapes, grids), `HPF_EBADARG` (rank,
    /// type, NULL or shared memory) or `HPF_ESYSTEM`.
    c hpf_matmul;
    /// `HPF_MATMUL(ADAD, A, BDAD, B, CDAD, C, TYPE, IERR)`: C = MATMUL(A, B)
    /// for rank-2 arrays.
    fortran hpf_matmul_ "HPF_MATMUL";
    (a_dad: dad, a: cbuf, b_dad: dad, b: cbuf, c_dad: dad, c: mbuf, ty: ty) {
        typed!(ty, matmul_in(&a_dad, a, &b_dad, b, &c_dad, c))
    }

    /// `dst = RESHAPE(src, SHAPE(dst))`: the first size(dst) elements of
    /// `src` in array element order fill `dst` in array element order (any
    /// two DADs on one grid; `src` has at least as many elements, as
    /// Fortran's RESHAPE without PAD requires). The schedule is planned once
    /// per pair of DADs. Collective. Returns `HPF_OK`, `HPF_EBADHANDLE`,
    /// `HPF_EMISMATCH` (too few elements, grids), `HPF_EBADARG` or
    /// `HPF_ESYSTEM`.
    c hpf_reshape;
    /// `HPF_RESHAPE(SDAD, SRC, DDAD, DST, TYPE, IERR)`: DST =
    /// RESHAPE(SRC, SHAPE(DST)).
    fortran hpf_reshape_ "HPF_RESHAPE";
    (src_dad: dad, src: cbuf, dst_dad: dad, dst: mbuf, ty: ty) {
        typed!(ty, reshape_in(&src_dad, src, &dst_dad, dst))
    }

    /// `r(1:COUNT(mask)) = PACK(a, mask)`: the elements of `a` where the
    /// LOGICAL array `mask` (C ints, non-zero true; DAD `mask_dad` of `a`'s
    /// shape, any distribution) is true, in array element order, into the
    /// rank-1 `r`. `r` needs at least COUNT(mask) elements; the ones past it
    /// keep their values, so `r` filled with VECTOR beforehand gives
    /// `PACK(a, mask, VECTOR)`. Every process gets the whole mask first (one
    /// allgather); the plan is made per call. Collective. Returns `HPF_OK`,
    /// `HPF_EBADHANDLE`, `HPF_EMISMATCH` (shapes, `r` too short, grids),
    /// `HPF_EBADARG` (rank of `r`, NULL or shared memory) or `HPF_ESYSTEM`.
    c hpf_pack;
    /// `HPF_PACK(ADAD, A, MDAD, MASK, RDAD, R, TYPE, IERR)`: R(1:COUNT(MASK))
    /// = PACK(A, MASK); the rest of R is left alone (VECTOR).
    fortran hpf_pack_ "HPF_PACK";
    (a_dad: dad, a: cbuf, mask_dad: dad, mask: ints, r_dad: dad, r: mbuf, ty: ty) {
        typed!(ty, masked_in(false, &a_dad, a, &mask_dad, mask, &r_dad, r))
    }

    /// `r = UNPACK(v, mask, FIELD)` with `r` holding FIELD beforehand: `r`
    /// (DAD `r_dad`) has the shape of `mask` (DAD `mask_dad`) and where the
    /// mask is true takes the next element of the rank-1 `v` in array
    /// element order; elsewhere it keeps its value. `v` needs at least
    /// COUNT(mask) elements. Collective. Returns `HPF_OK`, `HPF_EBADHANDLE`,
    /// `HPF_EMISMATCH` (shapes, `v` too short, grids), `HPF_EBADARG` or
    /// `HPF_ESYSTEM`.
    c hpf_unpack;
    /// `HPF_UNPACK(VDAD, V, MDAD, MASK, RDAD, R, TYPE, IERR)`: R =
    /// UNPACK(V, MASK, R).
    fortran hpf_unpack_ "HPF_UNPACK";
    (v_dad: dad, v: cbuf, mask_dad: dad, mask: ints, r_dad: dad, r: mbuf, ty: ty) {
        typed!(ty, masked_in(true, &v_dad, v, &mask_dad, mask, &r_dad, r))
    }

    /// `r = a(V)` (gather through index arrays): for a rank-n `a` (DAD
    /// `a_dad`), `v` holds n index arrays of one shape, each a local buffer
    /// of `v_dad` with elements of `vtype` (`HPF_INTEGER4` or
    /// `HPF_INTEGER8`), the k-th starting `k * ldv` elements after `v`
    /// (`ldv` at least the local size of `v_dad`; unused when n is 1); the
    /// k-th holds subscripts of dimension k of `a` (its lower bound kept),
    /// so `r(s) = a(V1(s), .., Vn(s))`. `r` (DAD `r_dad`, the index arrays'
    /// shape, any distribution on the grid) is written at every owned cell.
    /// Plans an index schedule (with messages), runs it once and drops it;
    /// `hpf_gather_plan` keeps it. Collective. Returns `HPF_OK`,
    /// `HPF_EBADHANDLE`, `HPF_EMISMATCH` (shapes, grids), `HPF_EBADARG` (a
    /// subscript outside `a` on any process, `ldv`, `vtype`, NULL or shared
    /// memory) or `HPF_ESYSTEM`.
    c hpf_gather;
    /// `HPF_GATHER(ADAD, A, VDAD, V, LDV, VTYPE, RDAD, R, TYPE, IERR)`: R
    /// = A(V1, .., Vn), V(LDV, n) holding one index array per dimension of
    /// A (VTYPE `HPF_INTEGER4` for INTEGER).
    fortran hpf_gather_ "HPF_GATHER";
    (a_dad: dad, a: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, r_dad: dad, r: mbuf, ty: ty) {
        let s = capi::index_plan(CALL, true, &a_dad, (&v_dad, v, ldv, vtype), &r_dad)?;
        typed!(ty, index_run(CALL, &s, a, r))
    }

    /// `a(V) = b` (scatter through index arrays): `b` (DAD `b_dad`) has the
    /// index arrays' shape, `v`, `ldv`, `vtype` as in `hpf_gather`;
    /// `a(V1(s), .., Vn(s)) = b(s)` for every `s`, every replica of `a`
    /// updated; the cells of `a` no subscript names keep their values. When
    /// a subscript (tuple) is repeated, the cell gets one of the values
    /// sent to it, which one is not specified (Fortran forbids repeated
    /// subscripts on the left). Collective. Returns as `hpf_gather`.
    c hpf_scatter;
    /// `HPF_SCATTER(BDAD, B, VDAD, V, LDV, VTYPE, ADAD, A, TYPE, IERR)`:
    /// A(V1, .., Vn) = B.
    fortran hpf_scatter_ "HPF_SCATTER";
    (b_dad: dad, b: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, a: mbuf, ty: ty) {
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        typed!(ty, index_run(CALL, &s, b, a))
    }

    /// `a(V) += b`, the HPF library's `SUM_SCATTER(b, a, V1, .., Vn)` into
    /// `a`: arguments as `hpf_scatter`; each `b(s)` is added to
    /// `a(V1(s), .., Vn(s))`, so a cell named more than once gets the sum
    /// of all its values (added to its old value in a fixed order: per
    /// sending grid rank in rank order, each sender's in its local order;
    /// integers exact);
    /// cells no subscript names keep their values. Numeric types only.
    /// Collective. Returns as `hpf_gather` (`HPF_EBADARG` for
    /// `HPF_LOGICAL`).
    c hpf_sum_scatter;
    /// `HPF_SUM_SCATTER(BDAD, B, VDAD, V, LDV, VTYPE, ADAD, A, TYPE,
    /// IERR)`: A(V1(S), .., Vn(S)) = A(V1(S), .., Vn(S)) + B(S) for every
    /// S, repeated subscripts adding up.
    fortran hpf_sum_scatter_ "HPF_SUM_SCATTER";
    (b_dad: dad, b: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, a: mbuf, ty: ty) {
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        typed!(ty, index_run_sum(CALL, &s, b, a))
    }

    /// Runs scatter schedule `sched` (from `hpf_scatter_plan`) adding:
    /// `dst(V(s)) += src(s)` as `hpf_sum_scatter` does. Returns as
    /// `hpf_index_execute`; `HPF_EBADARG` for a gather schedule or
    /// `HPF_LOGICAL`.
    c hpf_index_execute_sum;
    /// `HPF_INDEX_EXECUTE_SUM(SCHED, SRC, DST, TYPE, IERR)`.
    fortran hpf_index_execute_sum_ "HPF_INDEX_EXECUTE_SUM";
    (sched: handle, src: cbuf, dst: mbuf, ty: ty) {
        let s = capi::index_get(CALL, sched)?;
        typed!(ty, index_run_sum(CALL, &s, src, dst))
    }

    /// The HPF library's combining scatter `op` (`HPF_OP_SUM`,
    /// `HPF_OP_PRODUCT`, `HPF_OP_MAXVAL`, `HPF_OP_MINVAL`, `HPF_OP_COUNT`,
    /// `HPF_OP_ALL`, `HPF_OP_ANY`, `HPF_OP_PARITY`, `HPF_OP_IALL`,
    /// `HPF_OP_IANY`, `HPF_OP_IPARITY`, `HPF_OP_COPY`) of `b` into `a`
    /// through the index arrays, arguments as `hpf_scatter`: every `b(s)`
    /// is combined into `a(V1(s), .., Vn(s))` (sum, product, max, min, +1
    /// per true `b(s)`, .AND., .OR., .NEQV., IAND, IOR, IEOR; COPY
    /// stores), so a cell named more than once gets every value, in a
    /// fixed order (COPY: keeps the last, from the highest sending grid
    /// rank). `type` is `a`'s type; `b`
    /// has it too except for COUNT (`b` LOGICAL ints, `a` INTEGER4 or 8).
    /// Collective. Returns as `hpf_gather`; `HPF_EBADARG` for an unknown
    /// op or a type the op does not take (SUM/PRODUCT numeric,
    /// MAXVAL/MINVAL integer or real, ALL/ANY/PARITY `HPF_LOGICAL`,
    /// COUNT/IALL/IANY/IPARITY integer, COPY any).
    c hpf_combine_scatter;
    /// `HPF_COMBINE_SCATTER(OP, BDAD, B, VDAD, V, LDV, VTYPE, ADAD, A,
    /// TYPE, IERR)`: A(V1(S), .., Vn(S)) = OP(A(V1(S), .., Vn(S)), B(S)).
    fortran hpf_combine_scatter_ "HPF_COMBINE_SCATTER";
    (op: int, b_dad: dad, b: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, a: mbuf, ty: ty) {
        let op = capi::scatter_op(CALL, op)?;
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        typed!(ty, index_run_op(CALL, &s, op, b, std::ptr::null(), a))
    }

    /// `hpf_combine_scatter` with HPF's MASK: only the `b(s)` where the
    /// LOGICAL array `mask` (ints with `b`'s DAD, non-zero true; NULL: all
    /// true) is true take part. Returns as `hpf_combine_scatter`.
    c hpf_combine_scatter_mask;
    /// `HPF_COMBINE_SCATTER_MASK(OP, BDAD, B, VDAD, V, LDV, VTYPE, ADAD,
    /// A, TYPE, MASK, IERR)`, MASK a LOGICAL array laid out as B.
    fortran hpf_combine_scatter_mask_ "HPF_COMBINE_SCATTER_MASK";
    (op: int, b_dad: dad, b: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, a: mbuf, ty: ty, mask: ints) {
        let op = capi::scatter_op(CALL, op)?;
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        typed!(ty, index_run_op(CALL, &s, op, b, mask, a))
    }

    /// The HPF library's `COPY_SCATTER(b, a, V1, .., Vn, MASK)`:
    /// `hpf_combine_scatter_mask` with `HPF_OP_COPY`. Each `b(s)` where
    /// `mask` (ints laid out as `b`, non-zero true; NULL: all true) is
    /// true is stored into `a(V1(s), .., Vn(s))`; a cell named more than
    /// once keeps one of its values (the last in the delivery order: from
    /// the highest sending grid rank, the last of its elements in its
    /// local order), the same on every replica of `a`; cells named by no
    /// true element keep theirs. Any type. Collective. Returns as
    /// `hpf_combine_scatter`.
    c hpf_copy_scatter;
    /// `HPF_COPY_SCATTER(BDAD, B, VDAD, V, LDV, VTYPE, ADAD, A, TYPE,
    /// MASK, IERR)`, MASK a LOGICAL array laid out as B.
    fortran hpf_copy_scatter_ "HPF_COPY_SCATTER";
    (b_dad: dad, b: cbuf, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, a: mbuf, ty: ty, mask: ints) {
        let op = crate::combining::ScatterOp::Copy;
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        typed!(ty, index_run_op(CALL, &s, op, b, mask, a))
    }

    /// Runs scatter schedule `sched` combining by `op`, as
    /// `hpf_combine_scatter` does (`src` is b, `dst` a). Returns as
    /// `hpf_index_execute`; `HPF_EBADARG` for a gather schedule, an
    /// unknown op or a type the op does not take.
    c hpf_index_execute_combine;
    /// `HPF_INDEX_EXECUTE_COMBINE(SCHED, OP, SRC, DST, TYPE, IERR)`.
    fortran hpf_index_execute_combine_ "HPF_INDEX_EXECUTE_COMBINE";
    (sched: handle, op: int, src: cbuf, dst: mbuf, ty: ty) {
        let op = capi::scatter_op(CALL, op)?;
        let s = capi::index_get(CALL, sched)?;
        typed!(ty, index_run_op(CALL, &s, op, src, std::ptr::null(), dst))
    }

    /// `hpf_index_execute_combine` with a MASK laid out as `src` (NULL:
    /// all true). Returns as `hpf_index_execute_combine`.
    c hpf_index_execute_combine_mask;
    /// `HPF_INDEX_EXECUTE_COMBINE_MASK(SCHED, OP, SRC, DST, TYPE, MASK,
    /// IERR)`.
    fortran hpf_index_execute_combine_mask_ "HPF_INDEX_EXECUTE_COMBINE_MASK";
    (sched: handle, op: int, src: cbuf, dst: mbuf, ty: ty, mask: ints) {
        let op = capi::scatter_op(CALL, op)?;
        let s = capi::index_get(CALL, sched)?;
        typed!(ty, index_run_op(CALL, &s, op, src, mask, dst))
    }

    /// Plans `r = a(V)` as `hpf_gather` does without moving data and stores
    /// the handle of the index schedule in `*sched`; `hpf_index_execute`
    /// runs it any number of times on new values of `a`. Collective.
    /// Returns as `hpf_gather`.
    c hpf_gather_plan;
    /// `HPF_GATHER_PLAN(ADAD, VDAD, V, LDV, VTYPE, RDAD, SCHED, IERR)`.
    fortran hpf_gather_plan_ "HPF_GATHER_PLAN";
    (a_dad: dad, v_dad: dad, v: cbuf, ldv: long, vtype: ty, r_dad: dad, sched: ints_out) {
        if sched.is_null() {
            return Err(capi::null(CALL, "sched"));
        }
        let s = capi::index_plan(CALL, true, &a_dad, (&v_dad, v, ldv, vtype), &r_dad)?;
        crate::ptr::write(sched, capi::index_store(s)).ok_or_else(|| capi::null(CALL, "sched"))
    }

    /// Plans `a(V) = b` as `hpf_scatter` does and stores the handle of the
    /// index schedule in `*sched`. Collective. Returns as `hpf_gather`.
    c hpf_scatter_plan;
    /// `HPF_SCATTER_PLAN(BDAD, VDAD, V, LDV, VTYPE, ADAD, SCHED, IERR)`.
    fortran hpf_scatter_plan_ "HPF_SCATTER_PLAN";
    (b_dad: dad, v_dad: dad, v: cbuf, ldv: long, vtype: ty, a_dad: dad, sched: ints_out) {
        if sched.is_null() {
            return Err(capi::null(CALL, "sched"));
        }
        let s = capi::index_plan(CALL, false, &a_dad, (&v_dad, v, ldv, vtype), &b_dad)?;
        crate::ptr::write(sched, capi::index_store(s)).ok_or_else(|| capi::null(CALL, "sched"))
    }

    /// Runs index schedule `sched`: a gather reads `src` (the indexed
    /// array) and writes `dst` (the result), a scatter reads `src` (the
    /// values) and writes `dst` (the indexed array); the local buffers of
    /// the DADs it was planned with, in separate memory. Collective.
    /// Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` (type, NULL or
    /// shared memory) or `HPF_ESYSTEM`.
    c hpf_index_execute;
    /// `HPF_INDEX_EXECUTE(SCHED, SRC, DST, TYPE, IERR)`.
    fortran hpf_index_execute_ "HPF_INDEX_EXECUTE";
    (sched: handle, src: cbuf, dst: mbuf, ty: ty) {
        let s = capi::index_get(CALL, sched)?;
        typed!(ty, index_run(CALL, &s, src, dst))
    }

    /// Releases index schedule `sched`. Returns `HPF_OK` or
    /// `HPF_EBADHANDLE`.
    c hpf_index_free;
    /// `HPF_INDEX_FREE(SCHED, IERR)`.
    fortran hpf_index_free_ "HPF_INDEX_FREE";
    (sched: handle) {
        capi::index_free(CALL, sched)
    }

    /// `*result = ALL(mask)` as 1 or 0 (1 for an empty mask) for a LOGICAL
    /// array stored as ints (non-zero true) with DAD `dad`. Collective.
    /// Returns `HPF_OK`, `HPF_EBADHANDLE`, `HPF_EBADARG` or `HPF_ESYSTEM`.
    c hpf_all;
    /// `HPF_ALL(DAD, MASK, RESULT, IERR)`: RESULT = ALL(MASK), MASK and
    /// RESULT LOGICAL.
    fortran hpf_all_ "HPF_ALL";
    (dad: dad, mask: ints, result: ints_out) {
        let m = local::<i32>(CALL, "mask", &dad, mask as *const c_void)?;
        let v = crate::reduce::all(&dad, m, |x| x != 0)?;
        crate::ptr::write(result, c_int::from(v)).ok_or_else(|| capi::null(CALL, "result"))
    }

    /// `*result = ANY(mask)` as 1 or 0 (0 for an empty mask); as `hpf_all`.
    c hpf_any;
    /// `HPF_ANY(DAD, MASK, RESULT, IERR)`: RESULT = ANY(MASK), MASK and
    /// RESULT LOGICAL.
    fortran hpf_any_ "HPF_ANY";
    (dad: dad, mask: ints, result: ints_out) {
        let n = capi::logical(CALL, &dad, mask)?;
        crate::ptr::write(result, c_int::from(n > 0)).ok_or_else(|| capi::null(CALL, "result"))
    }

    /// `*result = DOT_PRODUCT(a, b)` of two rank-1 arrays that share DAD
    /// `dad`: `SUM(a * b)`, `SUM(CONJG(a) * b)` for complex types, `ANY(a
    /// .AND. b)` for `HPF_LOGICAL` (collective). Returns `HPF_OK`,
    /// `HPF_EBADHANDLE`, `HPF_EBADARG` (rank, type, NULL pointers) or
    /// `HPF_ESYSTEM`.
    c hpf_dot_product;
    /// `HPF_DOT_PRODUCT(DAD, TYPE, A, B, RESULT, IERR)`: RESULT =
    /// DOT_PRODUCT(A, B), RESULT of TYPE.
    fortran hpf_dot_product_ "HPF_DOT_PRODUCT";
    (dad: dad, ty: ty, a: cbuf, b: cbuf, result: mbuf) {
        typed!(ty, dot_into(CALL, &dad, a, b, result))
    }
}
