//! The Global Arrays Fortran API (`ga_*`, `nga_*`), as gfortran calls it.
//!
//! # Conventions
//! - Symbol: the lower-case routine name plus `_` (`nga_put_`). Every
//!   argument is passed by reference. Fortran `INTEGER` and `LOGICAL` are
//!   8 bytes (programs are compiled with `-fdefault-integer-8`, as for
//!   Debian's GA); a `LOGICAL` result is 1 for `.true.`, 0 for `.false.`.
//!   Each `CHARACTER` argument adds a hidden length (`size_t`, by value)
//!   after all other arguments.
//! - Indices are 1-based and arrays column-major: the first dimension is
//!   the contiguous one. The 2-D forms take `ilo, ihi, jlo, jhi` (rows,
//!   then columns) and one leading dimension `ld`; the `nga_*` forms take
//!   `lo(ndim)`, `hi(ndim)` and `ld(ndim-1)`. The core works 0-based in C
//!   order, so every index list is reversed and lowered by 1 on the way in
//!   (and back on the way out); `ld` is reversed.
//! - A 2-D form also accepts a 1-D array when `jlo = jhi = 1`.
//! - Creation routines are `LOGICAL` functions returning the handle in
//!   their last `INTEGER` argument; they return `.false.` (with a message
//!   on stderr) when the array cannot be created.
//! - Bad input (an invalid handle, a patch outside the array, a leading
//!   dimension smaller than the patch, a wrong type) ends the job the way
//!   `ga_error` does, with a message naming the routine and the patch in
//!   the caller's own (1-based, Fortran-order) terms, e.g.
//!   `nga_put: patch [1:10,3:20] outside g_a 'A' [1:10,1:10]`.
//! - `ga_access` returns an index into the MA base array of the array's
//!   type (`dbl_mb`, `int_mb`, `log_mb`, ...; see [`crate::ma_fortran`]).
//!
//! No panic crosses into Fortran: each routine runs behind
//! [`shim_core::ffi_guard::guard`], and a panic ends the job like
//! `ga_error`.

#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![allow(clippy::too_many_arguments)]

use crate::core::{self, codes, Distribution, ElemType, GaError, Handle};
use crate::fapi_ptr as ptr;
use crate::ma_fortran::{Base, FInt, FLog};
use crate::ops;
use shim_core::ffi_guard::guard;
use shim_core::Lock;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_char, c_void};
use std::fmt::Display;

pub(crate) const TRUE: FLog = 1;
pub(crate) const FALSE: FLog = 0;

/// Most dimensions an array may have.
pub const GA_MAX_DIM: usize = 7;

pub(crate) fn flog(b: bool) -> FLog {
    if b {
        TRUE
    } else {
        FALSE
    }
}

/// Ends the job as `ga_error` does, naming the routine.
pub(crate) fn fail(call: &str, msg: impl Display) -> ! {
    core::abort(&format!("{call}: {msg}"), 0)
}

/// Ends the job with an error the core reported for routine `call`.
pub(crate) fn fail_core(call: &str, e: GaError) -> ! {
    fail(call, e.message)
}

/// Runs a Fortran entry point behind the panic boundary; a panic ends the
/// job like `ga_error`.
pub(crate) fn entry<R>(call: &'static str, f: impl FnOnce() -> R) -> R {
    match guard(call, None, || Some(f())) {
        Some(r) => r,
        None => fail(call, "internal error"),
    }
}

/// An `INTEGER` input argument.
pub(crate) fn int(call: &str, p: *const FInt) -> i64 {
    ptr::read(p).unwrap_or_else(|| fail(call, "an INTEGER argument is missing (NULL)"))
}

/// An `INTEGER` array argument of `n` elements.
pub(crate) fn ints<'a>(call: &str, p: *const FInt, n: usize) -> &'a [i64] {
    ptr::slice(p, n).unwrap_or_else(|| fail(call, "an INTEGER array argument is missing (NULL)"))
}

/// An `INTEGER` output array argument of `n` elements.
pub(crate) fn ints_mut<'a>(call: &str, p: *mut FInt, n: usize) -> &'a mut [i64] {
    ptr::slice_mut(p, n)
        .unwrap_or_else(|| fail(call, "an INTEGER output array argument is missing (NULL)"))
}

/// Writes an `INTEGER` output argument.
pub(crate) fn out(call: &str, p: *mut FInt, v: i64) {
    if !ptr::write(p, v) {
        fail(call, "an INTEGER output argument is missing (NULL)");
    }
}

/// Formats a Fortran-order patch as `[lo1:hi1,lo2:hi2]`.
pub(crate) fn fpatch(lo: &[i64], hi: &[i64]) -> String {
    core::fmt_patch(lo, hi)
}

/// Fortran order, 1-based → C order, 0-based.
pub(crate) fn to_c(f: &[i64]) -> Vec<i64> {
    f.iter().rev().map(|&x| x - 1).collect()
}

/// C order, 0-based → Fortran order, 1-based.
pub(crate) fn to_f(c: &[i64]) -> Vec<i64> {
    c.iter().rev().map(|&x| x + 1).collect()
}

/// Handles made by `ga_create_handle` before `ga_allocate` gives them an
/// array, and which arrays hold Fortran `LOGICAL`s (indexed in `log_mb`).
struct Tables {
    next_pseudo: i64,
    pending: BTreeMap<i64, Pending>,
    /// The descriptions allocated handles were made from, for
    /// `ga_deallocate`.
    described: BTreeMap<i64, Pending>,
    alias: BTreeMap<i64, Handle>,
    logical: BTreeSet<Handle>,
}

/// What `ga_set_data`, `ga_set_array_name`, `ga_set_chunk` and
/// `ga_set_irreg_distr` recorded for a handle not yet allocated (C order).
#[derive(Clone, Default)]
pub(crate) struct Pending {
    data: Option<(i64, Vec<i64>)>,
    name: String,
    pub(crate) dist: Option<Distribution>,
    /// Processor group from `ga_set_pgroup` (None: the default group).
    pgroup: Option<i32>,
    /// Ghost widths from `ga_set_ghosts`, C order (None: no ghost cells).
    width: Option<Vec<i64>>,
    /// Processes holding the blocks, from `ga_set_restricted*`.
    restricted: Option<Vec<i64>>,
}

static TABLES: Lock<Tables> = Lock::new(Tables {
    next_pseudo: PSEUDO_FIRST,
    pending: BTreeMap::new(),
    described: BTreeMap::new(),
    alias: BTreeMap::new(),
    logical: BTreeSet::new(),
});

/// Handles of `ga_create_handle` count down from here, far from the
/// core's handles (array index − 1000).
const PSEUDO_FIRST: i64 = -1_000_000;

/// The core handle a Fortran handle stands for; ends the job if it names
/// no array.
pub(crate) fn resolve(call: &str, g: i64) -> Handle {
    if g <= PSEUDO_FIRST {
        let t = TABLES.lock();
        if let Some(&h) = t.alias.get(&g) {
            return h;
        }
        if t.pending.contains_key(&g) {
            drop(t);
            fail(
                call,
                format!("array handle {g} has no data yet: call ga_allocate after ga_set_data"),
            );
        }
    }
    match i32::try_from(g) {
        Ok(h) if core::valid(h) => h,
        _ => fail(call, format!("invalid array handle {g}")),
    }
}

/// The core handle and shape of a Fortran handle; ends the job if it
/// names no array. One look-up in the core for the common case.
fn lookup(call: &str, g: i64) -> (Handle, ElemType, Vec<i64>) {
    let h = if g <= PSEUDO_FIRST {
        resolve(call, g)
    } else {
        i32::try_from(g).unwrap_or_else(|_| fail(call, format!("invalid array handle {g}")))
    };
    match core::inquire(h) {
        Ok((ty, dims)) => (h, ty, dims),
        Err(_) => fail(call, format!("invalid array handle {g}")),
    }
}

/// An array named by a Fortran handle, with what the checks need.
pub(crate) struct Arr {
    pub h: Handle,
    pub ty: ElemType,
    /// Dimensions in C order.
    pub dims: Vec<i64>,
}

impl Arr {
    /// The array whose handle `p` points at; ends the job if it is invalid.
    pub fn get(call: &str, p: *const FInt) -> Arr {
        let (h, ty, dims) = lookup(call, int(call, p));
        Arr { h, ty, dims }
    }

    pub fn ndim(&self) -> usize {
        self.dims.len()
    }

    /// Element size in bytes.
    pub fn size(&self) -> usize {
        self.ty.size()
    }

    pub fn name(&self) -> String {
        core::name(self.h).unwrap_or_default()
    }

    /// The array's extent as a Fortran patch: `'A' [1:n1,1:n2]`.
    fn describe(&self) -> String {
        let ones = vec![1; self.ndim()];
        let fd: Vec<i64> = self.dims.iter().rev().copied().collect();
        format!("g_a '{}' {}", self.name(), fpatch(&ones, &fd))
    }

    /// Checks a Fortran patch against the array; returns it in C order.
    pub fn patch(&self, call: &str, lo_f: &[i64], hi_f: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let n = self.ndim();
        for d in 0..n {
            let extent = self.dims[n - 1 - d];
            if lo_f[d] > hi_f[d] {
                fail(
                    call,
                    format!(
                        "patch {} of {} is empty (lo > hi in dimension {})",
                        fpatch(lo_f, hi_f),
                        self.describe(),
                        d + 1
                    ),
                );
            }
            if lo_f[d] < 1 || hi_f[d] > extent {
                fail(
                    call,
                    format!("patch {} outside {}", fpatch(lo_f, hi_f), self.describe()),
                );
            }
        }
        (to_c(lo_f), to_c(hi_f))
    }

    /// The `nga_*` patch arguments `lo(ndim)`, `hi(ndim)`, checked.
    pub fn patch_n(&self, call: &str, lo: *const FInt, hi: *const FInt) -> (Vec<i64>, Vec<i64>) {
        let n = self.ndim();
        self.patch(call, ints(call, lo, n), ints(call, hi, n))
    }

    /// The 2-D patch arguments `ilo, ihi, jlo, jhi`, checked. A 1-D array
    /// takes `jlo = jhi = 1`.
    pub fn patch_2d(
        &self,
        call: &str,
        ilo: *const FInt,
        ihi: *const FInt,
        jlo: *const FInt,
        jhi: *const FInt,
    ) -> (Vec<i64>, Vec<i64>) {
        let (il, ih, jl, jh) = (
            int(call, ilo),
            int(call, ihi),
            int(call, jlo),
            int(call, jhi),
        );
        match self.ndim() {
            2 => self.patch(call, &[il, jl], &[ih, jh]),
            1 if jl == 1 && jh == 1 => self.patch(call, &[il], &[ih]),
            n => fail(
                call,
                format!(
                    "{} has {n} dimension(s); patch [{il}:{ih},{jl}:{jh}] is 2-D",
                    self.describe()
                ),
            ),
        }
    }

    /// Checks the caller's leading dimensions (Fortran order, ndim−1 of
    /// them) against a C-order patch; returns them in C order.
    pub fn ld(&self, call: &str, lo: &[i64], hi: &[i64], ld_f: &[i64]) -> Vec<i64> {
        let ld_c: Vec<i64> = ld_f.iter().rev().copied().collect();
        for i in 0..ld_c.len() {
            let extent = hi[i + 1] - lo[i + 1] + 1;
            if ld_c[i] < extent {
                let fd = ld_f.len() - 1 - i;
                fail(
                    call,
                    format!(
                        "ld({}) = {} is smaller than the patch {} needs ({extent}) on {}",
                        fd + 1,
                        ld_f[fd],
                        fpatch(&to_f(lo), &to_f(hi)),
                        self.describe()
                    ),
                );
            }
        }
        ld_c
    }

    /// The `nga_*` leading dimensions `ld(ndim-1)`, checked.
    pub fn ld_n(&self, call: &str, lo: &[i64], hi: &[i64], ld: *const FInt) -> Vec<i64> {
        let n = self.ndim().saturating_sub(1);
        self.ld(call, lo, hi, ints(call, ld, n))
    }

    /// The 2-D form's single leading dimension, checked.
    pub fn ld_2d(&self, call: &str, lo: &[i64], hi: &[i64], ld: *const FInt) -> Vec<i64> {
        if self.ndim() == 2 {
            self.ld(call, lo, hi, &[int(call, ld)])
        } else {
            Vec::new()
        }
    }

    /// Bytes a user buffer with leading dimensions `ld` spans for a patch.
    pub fn span(&self, lo: &[i64], hi: &[i64], ld: &[i64]) -> usize {
        let n = lo.len();
        let mut stride = 1i64;
        let mut last = 0i64;
        for d in (0..n).rev() {
            last += (hi[d] - lo[d]) * stride;
            if d > 0 {
                stride *= ld[d - 1];
            }
        }
        (last as usize + 1) * self.size()
    }

    /// Checks a Fortran subscript; returns it in C order.
    pub fn subscript(&self, call: &str, s_f: &[i64]) -> Vec<i64> {
        let fd: Vec<i64> = self.dims.iter().rev().copied().collect();
        if s_f.iter().zip(&fd).any(|(&s, &d)| s < 1 || s > d) {
            let list: Vec<String> = s_f.iter().map(|s| s.to_string()).collect();
            fail(
                call,
                format!("subscript ({}) outside {}", list.join(","), self.describe()),
            );
        }
        to_c(s_f)
    }

    /// A value of the array's type at `p` (`alpha`, a fill value).
    pub fn value<'a>(&self, call: &str, p: *const c_void) -> &'a [u8] {
        ptr::slice(p as *const u8, self.size())
            .unwrap_or_else(|| fail(call, "the scalar argument is missing (NULL)"))
    }

    /// The MA base array Fortran indexes this array's elements in.
    pub(crate) fn base(&self, call: &str) -> Base {
        if TABLES.lock().logical.contains(&self.h) {
            return Base::Log;
        }
        match self.ty {
            ElemType::Char => Base::Byte,
            ElemType::Long | ElemType::LongLong => Base::Int,
            ElemType::Float => Base::Real,
            ElemType::Double => Base::Dbl,
            ElemType::SComplex => Base::Scpl,
            ElemType::DComplex => Base::Dcpl,
            t => fail(
                call,
                format!(
                    "{} holds {t:?}, which no MA base array holds",
                    self.describe()
                ),
            ),
        }
    }

    /// The type code Fortran sees (`MT_F_*` where one exists).
    pub(crate) fn ftype(&self) -> i64 {
        if TABLES.lock().logical.contains(&self.h) {
            return i64::from(codes::F_LOG);
        }
        i64::from(match self.ty {
            ElemType::Char => codes::F_BYTE,
            ElemType::Long => codes::F_INT,
            ElemType::Float => codes::F_REAL,
            ElemType::Double => codes::F_DBL,
            ElemType::SComplex => codes::F_SCPL,
            ElemType::DComplex => codes::F_DCPL,
            t => t.c_code(),
        })
    }
}

// ---------------------------------------------------------------------------
// Start, stop, who am I

/// `subroutine ga_initialize()`: starts GA (collective over the compute
/// ranks). Ends the job with a message if GA cannot start (no `ga-server`).
#[no_mangle]
pub extern "C" fn ga_initialize_() {
    entry("ga_initialize", || {
        core::initialize().unwrap_or_else(|e| fail_core("ga_initialize", e))
    })
}

/// `subroutine ga_initialize_ltd(limit)`: as `ga_initialize`; the memory
/// limit (bytes per process) is accepted and not enforced.
#[no_mangle]
pub extern "C" fn ga_initialize_ltd_(limit: *const FInt) {
    entry("ga_initialize_ltd", || {
        let _ = int("ga_initialize_ltd", limit);
        core::initialize().unwrap_or_else(|e| fail_core("ga_initialize_ltd", e))
    })
}

/// `subroutine ga_terminate()`: ends GA, destroying every array
/// (collective).
#[no_mangle]
pub extern "C" fn ga_terminate_() {
    entry("ga_terminate", || {
        core::terminate().unwrap_or_else(|e| fail_core("ga_terminate", e));
        let mut t = TABLES.lock();
        t.pending.clear();
        t.alias.clear();
        t.logical.clear();
    })
}

/// `logical ga_initialized()`: whether GA is running.
#[no_mangle]
pub extern "C" fn ga_initialized_() -> FLog {
    entry("ga_initialized", || flog(core::initialized()))
}

/// `integer ga_nodeid()`: this process's rank among the compute ranks.
#[no_mangle]
pub extern "C" fn ga_nodeid_() -> FInt {
    entry("ga_nodeid", || i64::from(core::pgroups::app_nodeid()))
}

/// `integer nga_nodeid()`: as `ga_nodeid`.
#[no_mangle]
pub extern "C" fn nga_nodeid_() -> FInt {
    ga_nodeid_()
}

/// `integer ga_nnodes()`: the number of compute ranks (servers are not
/// counted).
#[no_mangle]
pub extern "C" fn ga_nnodes_() -> FInt {
    entry("ga_nnodes", || i64::from(core::pgroups::app_nnodes()))
}

/// `integer nga_nnodes()`: as `ga_nnodes`.
#[no_mangle]
pub extern "C" fn nga_nnodes_() -> FInt {
    ga_nnodes_()
}

/// `subroutine ga_error(message, code)`: prints `<rank>: message code` and
/// ends the job. Does not return.
#[no_mangle]
pub extern "C" fn ga_error_(msg: *const c_char, code: *const FInt, msglen: usize) {
    entry("ga_error", || {
        let text = ptr::fstring(msg, msglen);
        let code = ptr::read(code).unwrap_or(0);
        core::abort(&text, i32::try_from(code).unwrap_or(i32::MAX))
    })
}

/// `double precision ga_wtime()`: wall-clock seconds from an arbitrary
/// origin.
#[no_mangle]
pub extern "C" fn ga_wtime_() -> f64 {
    entry("ga_wtime", core::wtime)
}

/// `logical ga_uses_ma()`: `.false.`: arrays live in the data server's
/// shared memory, not in MA.
#[no_mangle]
pub extern "C" fn ga_uses_ma_() -> FLog {
    FALSE
}

/// `logical ga_memory_limited()`: `.true.` once `ga_set_memory_limit`
/// was called.
#[no_mangle]
pub extern "C" fn ga_memory_limited_() -> FLog {
    entry("ga_memory_limited", || {
        if ops::memory::limit().is_some() {
            TRUE
        } else {
            FALSE
        }
    })
}

/// `logical nga_memory_limited()`: as `ga_memory_limited`.
#[no_mangle]
pub extern "C" fn nga_memory_limited_() -> FLog {
    ga_memory_limited_()
}

/// `subroutine ga_set_memory_limit(limit)`: records a limit of `limit`
/// bytes of GA memory for this process (reported by `ga_memory_avail`,
/// not enforced); a negative limit ends the job.
#[no_mangle]
pub extern "C" fn ga_set_memory_limit_(limit: *const FInt) {
    const C: &str = "ga_set_memory_limit";
    entry(C, || {
        let l = int(C, limit);
        match usize::try_from(l) {
            Ok(b) => ops::memory::set_limit(b),
            Err(_) => fail(C, format!("limit={l} is negative")),
        }
    })
}

/// `subroutine nga_set_memory_limit(limit)`: as `ga_set_memory_limit`.
#[no_mangle]
pub extern "C" fn nga_set_memory_limit_(limit: *const FInt) {
    ga_set_memory_limit_(limit)
}

/// `integer ga_memory_avail()`: bytes left under the limit, or -1 when no
/// limit was set.
#[no_mangle]
pub extern "C" fn ga_memory_avail_() -> FInt {
    entry("ga_memory_avail", || {
        ops::memory::avail().map_or(-1, |b| FInt::try_from(b).unwrap_or(FInt::MAX))
    })
}

/// `integer nga_memory_avail()`: as `ga_memory_avail`.
#[no_mangle]
pub extern "C" fn nga_memory_avail_() -> FInt {
    ga_memory_avail_()
}

/// `integer ga_inquire_memory()`: bytes of global array data this process
/// holds.
#[no_mangle]
pub extern "C" fn ga_inquire_memory_() -> FInt {
    entry("ga_inquire_memory", || {
        FInt::try_from(ops::memory::in_use()).unwrap_or(FInt::MAX)
    })
}

/// `integer nga_inquire_memory()`: as `ga_inquire_memory`.
#[no_mangle]
pub extern "C" fn nga_inquire_memory_() -> FInt {
    ga_inquire_memory_()
}

/// `subroutine ga_print_stats()`: as the C `GA_Print_stats`.
#[no_mangle]
pub extern "C" fn ga_print_stats_() {
    crate::capi_ops::GA_Print_stats()
}

/// `subroutine nga_print_stats()`: as `ga_print_stats`.
#[no_mangle]
pub extern "C" fn nga_print_stats_() {
    ga_print_stats_()
}

/// `integer ga_cluster_nnodes()`: the number of nodes the compute ranks
/// run on.
#[no_mangle]
pub extern "C" fn ga_cluster_nnodes_() -> FInt {
    FInt::from(crate::capi::GA_Cluster_nnodes())
}

/// `integer ga_cluster_nodeid()`: the node this process runs on (0-based).
#[no_mangle]
pub extern "C" fn ga_cluster_nodeid_() -> FInt {
    FInt::from(crate::capi::GA_Cluster_nodeid())
}

/// A node, position or rank argument of the `ga_cluster_*` routines.
fn cluster_arg(call: &str, p: *const FInt) -> std::ffi::c_int {
    let v = int(call, p);
    std::ffi::c_int::try_from(v).unwrap_or_else(|_| fail(call, format!("{v} is out of range")))
}

/// `integer ga_cluster_nprocs(node)`: compute ranks on node `node`; an
/// invalid node ends the job.
#[no_mangle]
pub extern "C" fn ga_cluster_nprocs_(node: *const FInt) -> FInt {
    const C: &str = "ga_cluster_nprocs";
    let n = entry(C, || cluster_arg(C, node));
    FInt::from(crate::capi::GA_Cluster_nprocs(n))
}

/// `integer ga_cluster_procid(node, loc)`: the compute rank of the
/// `loc`-th process (0-based) of node `node`; invalid arguments end the
/// job.
#[no_mangle]
pub extern "C" fn ga_cluster_procid_(node: *const FInt, loc: *const FInt) -> FInt {
    const C: &str = "ga_cluster_procid";
    let (n, l) = entry(C, || (cluster_arg(C, node), cluster_arg(C, loc)));
    FInt::from(crate::capi::GA_Cluster_procid(n, l))
}

/// `integer ga_cluster_proc_nodeid(proc)`: the node compute rank `proc`
/// runs on; an invalid rank ends the job.
#[no_mangle]
pub extern "C" fn ga_cluster_proc_nodeid_(proc_: *const FInt) -> FInt {
    const C: &str = "ga_cluster_proc_nodeid";
    let p = entry(C, || cluster_arg(C, proc_));
    FInt::from(crate::capi::GA_Cluster_proc_nodeid(p))
}

/// `integer nga_cluster_nnodes()`: as `ga_cluster_nnodes`.
#[no_mangle]
pub extern "C" fn nga_cluster_nnodes_() -> FInt {
    ga_cluster_nnodes_()
}

/// `integer nga_cluster_nodeid()`: as `ga_cluster_nodeid`.
#[no_mangle]
pub extern "C" fn nga_cluster_nodeid_() -> FInt {
    ga_cluster_nodeid_()
}

/// `integer nga_cluster_nprocs(node)`: as `ga_cluster_nprocs`.
#[no_mangle]
pub extern "C" fn nga_cluster_nprocs_(node: *const FInt) -> FInt {
    ga_cluster_nprocs_(node)
}

/// `integer nga_cluster_procid(node, loc)`: as `ga_cluster_procid`.
#[no_mangle]
pub extern "C" fn nga_cluster_procid_(node: *const FInt, loc: *const FInt) -> FInt {
    ga_cluster_procid_(node, loc)
}

/// `integer nga_cluster_proc_nodeid(proc)`: as `ga_cluster_proc_nodeid`.
#[no_mangle]
pub extern "C" fn nga_cluster_proc_nodeid_(proc_: *const FInt) -> FInt {
    ga_cluster_proc_nodeid_(proc_)
}

/// `double precision drand(iseed)`, the random number helper of GA's test
/// programs (see `drand.rs`): a nonzero `iseed` restarts the sequence;
/// returns the next number in [0, 1).
#[no_mangle]
pub extern "C" fn drand_(iseed: *const FInt) -> f64 {
    entry("drand", || {
        crate::drand::next(ptr::read(iseed).unwrap_or(0))
    })
}

/// `integer ga_mpi_comm()`: the Fortran handle of the compute ranks'
/// communicator (what user MPI code must use instead of
/// `MPI_COMM_WORLD`).
#[no_mangle]
pub extern "C" fn ga_mpi_comm_() -> FInt {
    entry("ga_mpi_comm", || core::compute_comm().fortran_handle())
}

// ---------------------------------------------------------------------------
// Creation and destruction

/// How a Fortran create call distributes its array (Fortran order).
pub(crate) enum FDist<'a> {
    Chunk(&'a [i64]),
    Irregular { map: &'a [i64], nblock: &'a [i64] },
}

/// Checks a type code, dimensions and distribution and converts them to
/// the core's terms.
pub(crate) fn creation_args(
    call: &str,
    code: i64,
    dims_f: &[i64],
    dist: FDist,
) -> (ElemType, Vec<i64>, Distribution) {
    let ty = i32::try_from(code)
        .ok()
        .and_then(crate::properties::elem_type)
        .unwrap_or_else(|| fail(call, format!("unknown type {code}")));
    let n = dims_f.len();
    if n == 0 || n > GA_MAX_DIM {
        fail(call, format!("ndim = {n} is outside 1..{GA_MAX_DIM}"));
    }
    if let Some(d) = dims_f.iter().position(|&x| x < 1) {
        fail(
            call,
            format!("dims({}) = {} is not positive", d + 1, dims_f[d]),
        );
    }
    let dist = match dist {
        FDist::Chunk(chunk) => {
            if chunk.iter().all(|&c| c <= 0) {
                Distribution::Default
            } else {
                Distribution::Chunk(chunk.iter().rev().copied().collect())
            }
        }
        FDist::Irregular { map, nblock } => {
            let mut segs: Vec<Vec<i64>> = Vec::with_capacity(n);
            let mut at = 0usize;
            for d in 0..n {
                let nb = nblock[d];
                if nb < 1 || nb > dims_f[d] {
                    fail(
                        call,
                        format!(
                            "nblock({}) = {nb} is outside 1..{} (dims({}))",
                            d + 1,
                            dims_f[d],
                            d + 1
                        ),
                    );
                }
                let seg = &map[at..at + nb as usize];
                if seg[0] != 1 {
                    fail(
                        call,
                        format!(
                            "map of dimension {}: first block starts at {}, not 1",
                            d + 1,
                            seg[0]
                        ),
                    );
                }
                for w in seg.windows(2) {
                    if w[1] <= w[0] {
                        fail(
                            call,
                            format!(
                                "map of dimension {}: block starts {} then {} are not increasing",
                                d + 1,
                                w[0],
                                w[1]
                            ),
                        );
                    }
                }
                if let Some(&last) = seg.last() {
                    if last > dims_f[d] {
                        fail(
                            call,
                            format!(
                                "map of dimension {}: block start {last} beyond dims({}) = {}",
                                d + 1,
                                d + 1,
                                dims_f[d]
                            ),
                        );
                    }
                }
                segs.push(seg.iter().map(|&x| x - 1).collect());
                at += nb as usize;
            }
            Distribution::Irregular {
                block: nblock.iter().rev().copied().collect(),
                map: segs.into_iter().rev().flatten().collect(),
            }
        }
    };
    (ty, dims_f.iter().rev().copied().collect(), dist)
}

/// Creates an array; writes its handle to `g_a`. `.false.` with a
/// message if the core cannot create it.
fn create_common(
    call: &'static str,
    code: i64,
    dims_f: &[i64],
    name: String,
    dist: FDist,
    g_a: *mut FInt,
) -> FLog {
    create_framed(call, code, dims_f, name, dist, g_a, &[])
}

/// The distribution arguments of an `nga_create*` call, as passed.
pub(crate) enum NdDist {
    /// `chunk(ndim)`: minimum block sizes.
    Chunk(*const FInt),
    /// `map` of block starts and `nblock(ndim)` blocks per dimension.
    Irregular {
        map: *const FInt,
        nblock: *const FInt,
    },
}

/// The `nga_create*` family: reads `ndim` dimensions, the ghost `width`
/// (NULL: no ghost cells), the name and the distribution, then creates
/// the array and writes its handle to `g_a`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn create_nd(
    call: &'static str,
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    width: *const FInt,
    name: *const c_char,
    namelen: usize,
    dist: NdDist,
    g_a: *mut FInt,
) -> FLog {
    entry(call, || {
        let n = ndim_arg(call, ndim);
        let dims = ints(call, dims, n);
        let width = if width.is_null() {
            &[][..]
        } else {
            ints(call, width, n)
        };
        let name = ptr::fstring(name, namelen);
        let code = int(call, datatype);
        match dist {
            NdDist::Chunk(c) => {
                let chunk = ints(call, c, n);
                create_framed(call, code, dims, name, FDist::Chunk(chunk), g_a, width)
            }
            NdDist::Irregular { map, nblock } => {
                let nblock = ints(call, nblock, n);
                let map = ints(call, map, map_len(call, nblock));
                let dist = FDist::Irregular { map, nblock };
                create_framed(call, code, dims, name, dist, g_a, width)
            }
        }
    })
}

/// [`create_common`] with `width_f` ghost cells per side (Fortran order;
/// empty: none).
pub(crate) fn create_framed(
    call: &'static str,
    code: i64,
    dims_f: &[i64],
    name: String,
    dist: FDist,
    g_a: *mut FInt,
    width_f: &[i64],
) -> FLog {
    let (ty, dims, dist) = creation_args(call, code, dims_f, dist);
    if let Err(e) = core::check_size(call, ty, &dims, &name) {
        fail_core(call, e);
    }
    let width: Vec<i64> = width_f.iter().rev().copied().collect();
    let made = if width.is_empty() {
        core::create(call, ty, &dims, &name, &dist)
    } else {
        core::create_ghosts(call, ty, &dims, &width, &name, &dist)
    };
    match made {
        Ok(h) => {
            if code == i64::from(codes::F_LOG) {
                TABLES.lock().logical.insert(h);
            }
            out(call, g_a, i64::from(h));
            TRUE
        }
        Err(e) => {
            eprintln!("{call}: cannot create '{name}': {}", e.message);
            FALSE
        }
    }
}

/// Total of an `nblock` list, checked, for sizing a `map` argument.
pub(crate) fn map_len(call: &str, nblock: &[i64]) -> usize {
    nblock.iter().fold(0usize, |acc, &b| {
        if b < 1 {
            fail(call, format!("nblock entry {b} is not positive"));
        }
        acc + b as usize
    })
}

/// A checked `ndim` argument.
pub(crate) fn ndim_arg(call: &str, p: *const FInt) -> usize {
    let n = int(call, p);
    if n < 1 || n > GA_MAX_DIM as i64 {
        fail(call, format!("ndim = {n} is outside 1..{GA_MAX_DIM}"));
    }
    n as usize
}

/// `logical ga_create(type, dim1, dim2, name, chunk1, chunk2, g_a)`: a
/// `dim1` × `dim2` array; blocks of at least `chunk1` × `chunk2` (≤ 0:
/// GA's default). Collective.
#[no_mangle]
pub extern "C" fn ga_create_(
    datatype: *const FInt,
    dim1: *const FInt,
    dim2: *const FInt,
    name: *const c_char,
    chunk1: *const FInt,
    chunk2: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    const C: &str = "ga_create";
    entry(C, || {
        let dims = [int(C, dim1), int(C, dim2)];
        let chunk = [int(C, chunk1), int(C, chunk2)];
        let name = ptr::fstring(name, namelen);
        create_common(C, int(C, datatype), &dims, name, FDist::Chunk(&chunk), g_a)
    })
}

/// `logical nga_create(type, ndim, dims, name, chunk, g_a)`: an
/// `ndim`-dimensional array; `chunk(i)` ≤ 0 leaves dimension i to GA.
/// Collective.
#[no_mangle]
pub extern "C" fn nga_create_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    name: *const c_char,
    chunk: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let dist = NdDist::Chunk(chunk);
    let none = std::ptr::null();
    create_nd(
        "nga_create",
        datatype,
        ndim,
        dims,
        none,
        name,
        namelen,
        dist,
        g_a,
    )
}

/// `logical ga_create_irreg(type, dim1, dim2, name, map1, nblock1, map2,
/// nblock2, g_a)`: a 2-D array whose row blocks start at `map1(1..nblock1)`
/// and column blocks at `map2(1..nblock2)` (1-based; block (i,j) goes to
/// process (i-1) + nblock1·(j-1)). Collective.
#[no_mangle]
pub extern "C" fn ga_create_irreg_(
    datatype: *const FInt,
    dim1: *const FInt,
    dim2: *const FInt,
    name: *const c_char,
    map1: *const FInt,
    nblock1: *const FInt,
    map2: *const FInt,
    nblock2: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    const C: &str = "ga_create_irreg";
    entry(C, || {
        let dims = [int(C, dim1), int(C, dim2)];
        let nblock = [int(C, nblock1), int(C, nblock2)];
        map_len(C, &nblock);
        let mut map = ints(C, map1, nblock[0] as usize).to_vec();
        map.extend_from_slice(ints(C, map2, nblock[1] as usize));
        let name = ptr::fstring(name, namelen);
        let dist = FDist::Irregular {
            map: &map,
            nblock: &nblock,
        };
        create_common(C, int(C, datatype), &dims, name, dist, g_a)
    })
}

/// `logical nga_create_irreg(type, ndim, dims, name, map, nblock, g_a)`:
/// `nblock(i)` blocks along dimension i, starting at the 1-based offsets
/// in `map` (those of dimension 1 first). Collective.
#[no_mangle]
pub extern "C" fn nga_create_irreg_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    name: *const c_char,
    map: *const FInt,
    nblock: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let dist = NdDist::Irregular { map, nblock };
    let none = std::ptr::null();
    create_nd(
        "nga_create_irreg",
        datatype,
        ndim,
        dims,
        none,
        name,
        namelen,
        dist,
        g_a,
    )
}

fn duplicate_common(
    call: &str,
    g_a: *const FInt,
    g_b: *mut FInt,
    name: *const c_char,
    namelen: usize,
) -> FLog {
    let a = Arr::get(call, g_a);
    let name = ptr::fstring(name, namelen);
    match core::duplicate(a.h, &name) {
        Ok(h) => {
            let mut t = TABLES.lock();
            if t.logical.contains(&a.h) {
                t.logical.insert(h);
            }
            drop(t);
            out(call, g_b, i64::from(h));
            TRUE
        }
        Err(e) => {
            eprintln!("{call}: cannot create '{name}': {}", e.message);
            FALSE
        }
    }
}

/// `logical ga_duplicate(g_a, g_b, name)`: a new array `g_b` shaped and
/// distributed like `g_a` (contents not copied). Collective.
#[no_mangle]
pub extern "C" fn ga_duplicate_(
    g_a: *const FInt,
    g_b: *mut FInt,
    name: *const c_char,
    namelen: usize,
) -> FLog {
    entry("ga_duplicate", || {
        duplicate_common("ga_duplicate", g_a, g_b, name, namelen)
    })
}

/// `logical nga_duplicate(g_a, g_b, name)`: as `ga_duplicate`.
#[no_mangle]
pub extern "C" fn nga_duplicate_(
    g_a: *const FInt,
    g_b: *mut FInt,
    name: *const c_char,
    namelen: usize,
) -> FLog {
    entry("nga_duplicate", || {
        duplicate_common("nga_duplicate", g_a, g_b, name, namelen)
    })
}

fn destroy_common(call: &str, g_a: *const FInt) -> FLog {
    let g = int(call, g_a);
    if TABLES.lock().pending.remove(&g).is_some() {
        return TRUE;
    }
    let h = resolve(call, g);
    core::destroy(h).unwrap_or_else(|e| fail_core(call, e));
    let mut t = TABLES.lock();
    t.alias.remove(&g);
    t.described.remove(&g);
    t.logical.remove(&h);
    TRUE
}

/// `logical ga_destroy(g_a)`: frees the array (collective); `.true.`.
#[no_mangle]
pub extern "C" fn ga_destroy_(g_a: *const FInt) -> FLog {
    entry("ga_destroy", || destroy_common("ga_destroy", g_a))
}

/// `logical nga_destroy(g_a)`: as `ga_destroy`.
#[no_mangle]
pub extern "C" fn nga_destroy_(g_a: *const FInt) -> FLog {
    entry("nga_destroy", || destroy_common("nga_destroy", g_a))
}

/// `integer ga_create_handle()`: a handle to describe with `ga_set_data`
/// (and optionally `ga_set_array_name`, `ga_set_chunk`,
/// `ga_set_irreg_distr`) before `ga_allocate`.
#[no_mangle]
pub extern "C" fn ga_create_handle_() -> FInt {
    entry("ga_create_handle", || {
        let mut t = TABLES.lock();
        let g = t.next_pseudo;
        t.next_pseudo -= 1;
        t.pending.insert(g, Pending::default());
        g
    })
}

/// `integer nga_create_handle()`: as `ga_create_handle`.
#[no_mangle]
pub extern "C" fn nga_create_handle_() -> FInt {
    ga_create_handle_()
}

/// Runs `f` on the pending description of handle `g_a`; ends the job if
/// the handle is not one from `ga_create_handle` awaiting `ga_allocate`.
pub(crate) fn with_pending(call: &str, g_a: *const FInt, f: impl FnOnce(&mut Pending)) {
    let g = int(call, g_a);
    let mut t = TABLES.lock();
    match t.pending.get_mut(&g) {
        Some(p) => f(p),
        None => {
            drop(t);
            fail(
                call,
                format!("{g} is not a handle from ga_create_handle awaiting ga_allocate"),
            )
        }
    }
}

fn set_data_common(
    call: &str,
    g_a: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    datatype: *const FInt,
) {
    let n = ndim_arg(call, ndim);
    let dims = ints(call, dims, n).to_vec();
    let code = int(call, datatype);
    // Checked now, so the mistake is reported where it is made.
    creation_args(call, code, &dims, FDist::Chunk(&[]));
    with_pending(call, g_a, |p| p.data = Some((code, dims)));
}

/// `subroutine ga_set_data(g_a, ndim, dims, type)`: the shape and type of
/// a handle from `ga_create_handle`.
#[no_mangle]
pub extern "C" fn ga_set_data_(
    g_a: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    datatype: *const FInt,
) {
    entry("ga_set_data", || {
        set_data_common("ga_set_data", g_a, ndim, dims, datatype)
    })
}

/// `subroutine nga_set_data(g_a, ndim, dims, type)`: as `ga_set_data`.
#[no_mangle]
pub extern "C" fn nga_set_data_(
    g_a: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    datatype: *const FInt,
) {
    entry("nga_set_data", || {
        set_data_common("nga_set_data", g_a, ndim, dims, datatype)
    })
}

/// `subroutine ga_set_array_name(g_a, name)`: the name of a handle from
/// `ga_create_handle`.
#[no_mangle]
pub extern "C" fn ga_set_array_name_(g_a: *const FInt, name: *const c_char, namelen: usize) {
    entry("ga_set_array_name", || {
        let name = ptr::fstring(name, namelen);
        with_pending("ga_set_array_name", g_a, |p| p.name = name)
    })
}

/// `subroutine nga_set_array_name(g_a, name)`: as `ga_set_array_name`.
#[no_mangle]
pub extern "C" fn nga_set_array_name_(g_a: *const FInt, name: *const c_char, namelen: usize) {
    ga_set_array_name_(g_a, name, namelen)
}

/// The recorded dimensions (Fortran order) of a pending handle.
pub(crate) fn pending_dims(call: &str, g_a: *const FInt) -> Vec<i64> {
    let mut dims = None;
    with_pending(call, g_a, |p| dims = p.data.as_ref().map(|d| d.1.clone()));
    dims.unwrap_or_else(|| fail(call, "call ga_set_data first"))
}

/// `subroutine ga_set_chunk(g_a, chunk)`: minimum block sizes (≤ 0: GA's
/// choice) for a handle from `ga_create_handle`, after `ga_set_data`.
#[no_mangle]
pub extern "C" fn ga_set_chunk_(g_a: *const FInt, chunk: *const FInt) {
    const C: &str = "ga_set_chunk";
    entry(C, || {
        let dims = pending_dims(C, g_a);
        let chunk = ints(C, chunk, dims.len());
        let dist = if chunk.iter().all(|&c| c <= 0) {
            Distribution::Default
        } else {
            Distribution::Chunk(chunk.iter().rev().copied().collect())
        };
        with_pending(C, g_a, |p| p.dist = Some(dist))
    })
}

/// `subroutine nga_set_chunk(g_a, chunk)`: as `ga_set_chunk`.
#[no_mangle]
pub extern "C" fn nga_set_chunk_(g_a: *const FInt, chunk: *const FInt) {
    ga_set_chunk_(g_a, chunk)
}

/// `subroutine ga_set_irreg_distr(g_a, map, nblock)`: an irregular
/// distribution (as in `nga_create_irreg`) for a handle from
/// `ga_create_handle`, after `ga_set_data`.
#[no_mangle]
pub extern "C" fn ga_set_irreg_distr_(g_a: *const FInt, map: *const FInt, nblock: *const FInt) {
    const C: &str = "ga_set_irreg_distr";
    entry(C, || {
        let dims = pending_dims(C, g_a);
        let nblock = ints(C, nblock, dims.len());
        let map = ints(C, map, map_len(C, nblock));
        let code = i64::from(codes::F_DBL);
        let (_, _, dist) = creation_args(C, code, &dims, FDist::Irregular { map, nblock });
        with_pending(C, g_a, |p| p.dist = Some(dist))
    })
}

/// `subroutine nga_set_irreg_distr(g_a, map, nblock)`: as
/// `ga_set_irreg_distr`.
#[no_mangle]
pub extern "C" fn nga_set_irreg_distr_(g_a: *const FInt, map: *const FInt, nblock: *const FInt) {
    ga_set_irreg_distr_(g_a, map, nblock)
}

fn allocate_common(call: &'static str, g_a: *const FInt) -> FLog {
    let g = int(call, g_a);
    let Some(p) = TABLES.lock().pending.remove(&g) else {
        fail(
            call,
            format!("{g} is not a handle from ga_create_handle awaiting ga_allocate"),
        );
    };
    let Some((code, dims_f)) = p.data.clone() else {
        fail(
            call,
            format!("handle {g}: call ga_set_data before ga_allocate"),
        );
    };
    let (ty, dims, _) = creation_args(call, code, &dims_f, FDist::Chunk(&[]));
    let dist = p.dist.clone().unwrap_or(Distribution::Default);
    if let Err(e) = core::check_size(call, ty, &dims, &p.name) {
        fail_core(call, e);
    }
    let grp = p.pgroup.unwrap_or_else(core::pgroups::default_group);
    let made = core::pgroups::on_group(grp, || {
        core::pgroups::on_restricted(p.restricted.clone(), || match &p.width {
            Some(w) => core::create_ghosts(call, ty, &dims, w, &p.name, &dist),
            None => core::create(call, ty, &dims, &p.name, &dist),
        })
    });
    match made {
        Ok(h) => {
            settle(g, h, code, p);
            TRUE
        }
        Err(e) => {
            eprintln!("{call}: cannot create '{}': {}", p.name, e.message);
            FALSE
        }
    }
}

fn deallocate_common(call: &'static str, g_a: *const FInt) -> FLog {
    let g = int(call, g_a);
    let h = {
        let t = TABLES.lock();
        match t.alias.get(&g) {
            Some(&h) => h,
            None if t.pending.contains_key(&g) => return FALSE,
            None => match i32::try_from(g) {
                Ok(h) if core::valid(h) => h,
                _ => return FALSE,
            },
        }
    };
    let known = TABLES.lock().described.get(&g).cloned();
    // An array of nga_create and its kin is described as it is.
    let description = known.unwrap_or_else(|| {
        let d = core::describe(call, h).unwrap_or_else(|e| fail_core(call, e));
        let (ty, dims, name) = d.shape;
        let code = Arr {
            h,
            ty,
            dims: Vec::new(),
        }
        .ftype();
        Pending {
            data: Some((code, dims.iter().rev().copied().collect())),
            name,
            dist: Some(d.dist),
            pgroup: Some(d.pgroup),
            width: d.width.iter().any(|&w| w > 0).then_some(d.width),
            restricted: d.restricted,
        }
    });
    if i64::from(h) == g {
        // The core's handle stays this array's, as in GA, for the next
        // ga_allocate.
        core::destroy_keeping_handle(call, h).unwrap_or_else(|e| fail_core(call, e));
    } else {
        core::destroy(h).unwrap_or_else(|e| fail_core(call, e));
    }
    let mut t = TABLES.lock();
    t.alias.remove(&g);
    t.described.remove(&g);
    t.logical.remove(&h);
    t.pending.insert(g, description);
    TRUE
}

/// Records the array `h` just made for the Fortran handle `g` (of type
/// `code`, described by `p`): `g` itself names it when a deallocated
/// array kept that handle, else `g` (of `ga_create_handle`) is an alias.
fn settle(g: i64, h: Handle, code: i64, p: Pending) {
    let h = match i32::try_from(g) {
        Ok(kept) => core::take_handle(h, kept),
        Err(_) => h,
    };
    let mut t = TABLES.lock();
    if i64::from(h) != g {
        t.alias.insert(g, h);
    }
    if code == i64::from(codes::F_LOG) {
        t.logical.insert(h);
    }
    t.described.insert(g, p);
}

/// `logical ga_deallocate(g_a)`: frees the memory of an array made by
/// `ga_allocate` or by `nga_create` and its kin (collective; the data are
/// lost); the handle keeps its description and awaits `ga_allocate`
/// again, as in GA 5.8. `.true.`, or `.false.` when `g_a` names no
/// allocated array.
#[no_mangle]
pub extern "C" fn ga_deallocate_(g_a: *const FInt) -> FLog {
    entry("ga_deallocate", || deallocate_common("ga_deallocate", g_a))
}

/// `logical nga_deallocate(g_a)`: as `ga_deallocate`.
#[no_mangle]
pub extern "C" fn nga_deallocate_(g_a: *const FInt) -> FLog {
    entry("nga_deallocate", || {
        deallocate_common("nga_deallocate", g_a)
    })
}

fn overlay_common(call: &'static str, g_a: *const FInt, g_p: *const FInt) -> FLog {
    let g = int(call, g_a);
    let Some(p) = TABLES.lock().pending.get(&g).cloned() else {
        fail(
            call,
            format!("{g} is not a handle from ga_create_handle awaiting ga_allocate"),
        );
    };
    let Some((code, dims_f)) = p.data.clone() else {
        fail(call, format!("handle {g}: call ga_set_data first"));
    };
    let parent = Arr::get(call, g_p);
    let (ty, dims, _) = creation_args(call, code, &dims_f, FDist::Chunk(&[]));
    let dist = p.dist.clone().unwrap_or(Distribution::Default);
    let width = p.width.clone().unwrap_or_default();
    let made = core::pgroups::on_restricted(p.restricted.clone(), || {
        core::overlay(call, parent.h, (ty, &dims, &dist), &width, &p.name)
    })
    .unwrap_or_else(|e| fail_core(call, e));
    let Some(h) = made else {
        return FALSE;
    };
    TABLES.lock().pending.remove(&g);
    settle(g, h, code, p);
    TRUE
}

/// `logical ga_overlay(g_a, g_p)`: completes the handle `g_a` from
/// `ga_create_handle` (after `ga_set_data` and the other `ga_set_*`
/// calls) with its blocks in the memory of the allocated array `g_p`:
/// each process's block starts where its block of `g_p` starts, so the
/// two share data (collective). `.true.`, or `.false.` (and `g_a` still
/// awaits allocation) when some block is larger than `g_p`'s block on its
/// process.
#[no_mangle]
pub extern "C" fn ga_overlay_(g_a: *const FInt, g_p: *const FInt) -> FLog {
    entry("ga_overlay", || overlay_common("ga_overlay", g_a, g_p))
}

/// `logical nga_overlay(g_a, g_p)`: as `ga_overlay`.
#[no_mangle]
pub extern "C" fn nga_overlay_(g_a: *const FInt, g_p: *const FInt) -> FLog {
    entry("nga_overlay", || overlay_common("nga_overlay", g_a, g_p))
}

/// `subroutine ga_set_ghosts(g_a, width)`: the array of a handle from
/// `ga_create_handle` (after `ga_set_data`) gets `width(i)` ghost cells on
/// each side of dimension i; a width outside 0..dims(i) ends the job.
#[no_mangle]
pub extern "C" fn ga_set_ghosts_(g_a: *const FInt, width: *const FInt) {
    const C: &str = "ga_set_ghosts";
    entry(C, || {
        let g = int(C, g_a);
        let dims = TABLES
            .lock()
            .pending
            .get(&g)
            .map(|p| p.data.as_ref().map(|(_, d)| d.clone()));
        let dims = match dims {
            None => fail(
                C,
                format!("{g} is not a handle from ga_create_handle awaiting ga_allocate"),
            ),
            Some(None) => fail(C, format!("handle {g}: call ga_set_data first")),
            Some(Some(d)) => d,
        };
        let w = ints(C, width, dims.len());
        if let Some(i) = (0..w.len()).find(|&i| w[i] < 0 || w[i] > dims[i]) {
            fail(
                C,
                format!("width({})={} must be 0..{}", i + 1, w[i], dims[i]),
            );
        }
        let c_order: Vec<i64> = w.iter().rev().copied().collect();
        with_pending(C, g_a, |p| p.width = Some(c_order));
    })
}

/// `subroutine nga_set_ghosts(g_a, width)`: as `ga_set_ghosts`.
#[no_mangle]
pub extern "C" fn nga_set_ghosts_(g_a: *const FInt, width: *const FInt) {
    ga_set_ghosts_(g_a, width)
}

/// `subroutine ga_set_restricted(g_a, list, nproc)`: the array of a handle
/// from `ga_create_handle` keeps its data on the `nproc` processes of
/// `list` only (the i-th holds the i-th block); `nproc` < 1 ends the job.
#[no_mangle]
pub extern "C" fn ga_set_restricted_(g_a: *const FInt, list: *const FInt, nproc: *const FInt) {
    const C: &str = "ga_set_restricted";
    entry(C, || {
        let n = int(C, nproc);
        if n < 1 {
            fail(C, format!("nproc {n} must be positive"));
        }
        let l = ints(C, list, n as usize).to_vec();
        with_pending(C, g_a, |p| p.restricted = Some(l));
    })
}

/// `subroutine ga_set_restricted_range(g_a, lo_proc, hi_proc)`: as
/// `ga_set_restricted` with processes `lo_proc..hi_proc`; an empty range
/// ends the job.
#[no_mangle]
pub extern "C" fn ga_set_restricted_range_(
    g_a: *const FInt,
    lo_proc: *const FInt,
    hi_proc: *const FInt,
) {
    const C: &str = "ga_set_restricted_range";
    entry(C, || {
        let (lo, hi) = (int(C, lo_proc), int(C, hi_proc));
        if lo < 0 || hi < lo {
            fail(C, format!("range {lo}..{hi} is empty"));
        }
        with_pending(C, g_a, |p| p.restricted = Some((lo..=hi).collect()));
    })
}

/// `subroutine ga_set_pgroup(g_a, p_handle)`: the array of a handle from
/// `ga_create_handle` will be made on processor group `p_handle` (this
/// process must be a member).
#[no_mangle]
pub extern "C" fn ga_set_pgroup_(g_a: *const FInt, p_handle: *const FInt) {
    const C: &str = "ga_set_pgroup";
    entry(C, || {
        let h = int(C, p_handle);
        let grp =
            i32::try_from(h).unwrap_or_else(|_| fail(C, format!("group handle {h} out of range")));
        if let Err(e) = core::pgroups::group_nodeid(C, grp) {
            fail_core(C, e);
        }
        with_pending(C, g_a, |p| p.pgroup = Some(grp));
    })
}

/// `subroutine nga_set_pgroup(g_a, p_handle)`: as `ga_set_pgroup`.
#[no_mangle]
pub extern "C" fn nga_set_pgroup_(g_a: *const FInt, p_handle: *const FInt) {
    ga_set_pgroup_(g_a, p_handle)
}

/// `logical nga_create_config(type, ndim, dims, name, chunk, p_handle,
/// g_a)`: `nga_create` on processor group `p_handle` (collective over its
/// members).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn nga_create_config_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    name: *const c_char,
    chunk: *const FInt,
    p_handle: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let grp = group_arg("nga_create_config", p_handle);
    core::pgroups::on_group(grp, || {
        nga_create_(datatype, ndim, dims, name, chunk, g_a, namelen)
    })
}

/// `logical nga_create_irreg_config(type, ndim, dims, name, map, nblock,
/// p_handle, g_a)`: `nga_create_irreg` on processor group `p_handle`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn nga_create_irreg_config_(
    datatype: *const FInt,
    ndim: *const FInt,
    dims: *const FInt,
    name: *const c_char,
    map: *const FInt,
    nblock: *const FInt,
    p_handle: *const FInt,
    g_a: *mut FInt,
    namelen: usize,
) -> FLog {
    let grp = group_arg("nga_create_irreg_config", p_handle);
    core::pgroups::on_group(grp, || {
        nga_create_irreg_(datatype, ndim, dims, name, map, nblock, g_a, namelen)
    })
}

/// A processor group handle argument (ends the job when it does not fit).
pub(crate) fn group_arg(call: &'static str, p: *const FInt) -> i32 {
    entry(call, || {
        let h = int(call, p);
        i32::try_from(h).unwrap_or_else(|_| fail(call, format!("group handle {h} out of range")))
    })
}

/// `logical ga_allocate(g_a)`: creates the array described on a handle
/// from `ga_create_handle` (collective); `.false.` with a message if it
/// cannot be created.
#[no_mangle]
pub extern "C" fn ga_allocate_(g_a: *const FInt) -> FLog {
    entry("ga_allocate", || allocate_common("ga_allocate", g_a))
}

/// `logical nga_allocate(g_a)`: as `ga_allocate`.
#[no_mangle]
pub extern "C" fn nga_allocate_(g_a: *const FInt) -> FLog {
    entry("nga_allocate", || allocate_common("nga_allocate", g_a))
}

// ---------------------------------------------------------------------------
// Inquiry

/// `logical ga_valid_handle(g_a)`: whether `g_a` names an array.
#[no_mangle]
pub extern "C" fn ga_valid_handle_(g_a: *const FInt) -> FLog {
    entry("ga_valid_handle", || {
        let Some(g) = ptr::read(g_a) else {
            return FALSE;
        };
        if g <= PSEUDO_FIRST {
            let h = TABLES.lock().alias.get(&g).copied();
            return flog(h.is_some_and(core::valid));
        }
        flog(i32::try_from(g).is_ok_and(core::valid))
    })
}

/// `subroutine ga_inquire(g_a, type, dim1, dim2)`: type code and the two
/// dimensions of a 2-D array (`dim2` = 1 for a 1-D array).
#[no_mangle]
pub extern "C" fn ga_inquire_(
    g_a: *const FInt,
    datatype: *mut FInt,
    dim1: *mut FInt,
    dim2: *mut FInt,
) {
    const C: &str = "ga_inquire";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let fd: Vec<i64> = a.dims.iter().rev().copied().collect();
        out(C, datatype, a.ftype());
        out(C, dim1, fd[0]);
        out(C, dim2, fd.get(1).copied().unwrap_or(1));
    })
}

/// `subroutine nga_inquire(g_a, type, ndim, dims)`: type code, number of
/// dimensions and dimensions.
#[no_mangle]
pub extern "C" fn nga_inquire_(
    g_a: *const FInt,
    datatype: *mut FInt,
    ndim: *mut FInt,
    dims: *mut FInt,
) {
    const C: &str = "nga_inquire";
    entry(C, || {
        let a = Arr::get(C, g_a);
        out(C, datatype, a.ftype());
        out(C, ndim, a.ndim() as i64);
        let d = ints_mut(C, dims, a.ndim());
        for (o, &x) in d.iter_mut().zip(a.dims.iter().rev()) {
            *o = x;
        }
    })
}

/// `subroutine ga_inquire_name(g_a, name)`: the array's name, blank-padded.
#[no_mangle]
pub extern "C" fn ga_inquire_name_(g_a: *const FInt, name: *mut c_char, namelen: usize) {
    entry("ga_inquire_name", || {
        let a = Arr::get("ga_inquire_name", g_a);
        ptr::put_fstring(name, namelen, &a.name());
    })
}

/// `integer ga_ndim(g_a)`: the number of dimensions.
#[no_mangle]
pub extern "C" fn ga_ndim_(g_a: *const FInt) -> FInt {
    entry("ga_ndim", || Arr::get("ga_ndim", g_a).ndim() as i64)
}

/// `integer nga_ndim(g_a)`: as `ga_ndim`.
#[no_mangle]
pub extern "C" fn nga_ndim_(g_a: *const FInt) -> FInt {
    entry("nga_ndim", || Arr::get("nga_ndim", g_a).ndim() as i64)
}

/// A checked process number.
fn proc_arg(call: &str, p: *const FInt) -> i32 {
    let n = int(call, p);
    let np = i64::from(core::nnodes());
    if n < 0 || n >= np {
        fail(call, format!("process {n} is outside 0..{}", np - 1));
    }
    n as i32
}

/// Process `iproc`'s block in Fortran terms; lo = 0, hi = −1 in every
/// dimension when it owns nothing. `iproc` counts in the array's group.
/// For a block-cyclic array `iproc` numbers a block, as in GA.
fn fdistribution(call: &str, a: &Arr, iproc: i64) -> (Vec<i64>, Vec<i64>) {
    let (np, what) = match core::cyclic_kind(a.h).unwrap_or_else(|e| fail_core(call, e)) {
        (true, _) => {
            let (nb, _) =
                core::block_info("nga_distribution", a.h).unwrap_or_else(|e| fail_core(call, e));
            (nb.iter().product::<i64>(), "block")
        }
        _ => (
            i64::from(core::array_nprocs(a.h).unwrap_or_else(|e| fail_core(call, e))),
            "process",
        ),
    };
    if iproc < 0 || iproc >= np {
        fail(call, format!("{what} {iproc} is outside 0..{}", np - 1));
    }
    let iproc = iproc as i32;
    match core::distribution(a.h, iproc).unwrap_or_else(|e| fail_core(call, e)) {
        Some((lo, hi)) => (to_f(&lo), to_f(&hi)),
        None => (vec![0; a.ndim()], vec![-1; a.ndim()]),
    }
}

/// `subroutine ga_distribution(g_a, iproc, ilo, ihi, jlo, jhi)`: the block
/// process `iproc` owns (`ilo = 0, ihi = -1`, ... if none). For a 1-D
/// array `jlo = jhi = 1`.
#[no_mangle]
pub extern "C" fn ga_distribution_(
    g_a: *const FInt,
    iproc: *const FInt,
    ilo: *mut FInt,
    ihi: *mut FInt,
    jlo: *mut FInt,
    jhi: *mut FInt,
) {
    const C: &str = "ga_distribution";
    entry(C, || {
        let a = Arr::get(C, g_a);
        if a.ndim() > 2 {
            fail(
                C,
                format!(
                    "g_a '{}' has {} dimensions; use nga_distribution",
                    a.name(),
                    a.ndim()
                ),
            );
        }
        let (lo, hi) = fdistribution(C, &a, int(C, iproc));
        out(C, ilo, lo[0]);
        out(C, ihi, hi[0]);
        let owns = hi[0] >= lo[0];
        out(
            C,
            jlo,
            lo.get(1).copied().unwrap_or(if owns { 1 } else { 0 }),
        );
        out(
            C,
            jhi,
            hi.get(1).copied().unwrap_or(if owns { 1 } else { -1 }),
        );
    })
}

/// `subroutine nga_distribution(g_a, iproc, lo, hi)`: the block process
/// `iproc` owns (lo = 0, hi = −1 if none).
#[no_mangle]
pub extern "C" fn nga_distribution_(
    g_a: *const FInt,
    iproc: *const FInt,
    lo: *mut FInt,
    hi: *mut FInt,
) {
    const C: &str = "nga_distribution";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (l, h) = fdistribution(C, &a, int(C, iproc));
        ints_mut(C, lo, a.ndim()).copy_from_slice(&l);
        ints_mut(C, hi, a.ndim()).copy_from_slice(&h);
    })
}

/// Owner of a Fortran subscript, or `None` when it is outside the array.
fn locate_common(call: &str, a: &Arr, s_f: &[i64]) -> Option<i32> {
    let fd: Vec<i64> = a.dims.iter().rev().copied().collect();
    if s_f.iter().zip(&fd).any(|(&s, &d)| s < 1 || s > d) {
        return None;
    }
    Some(core::locate(a.h, &to_c(s_f)).unwrap_or_else(|e| fail_core(call, e)))
}

/// `logical ga_locate(g_a, i, j, owner)`: the process owning element
/// (i,j); `.false.` if it is outside the array.
#[no_mangle]
pub extern "C" fn ga_locate_(
    g_a: *const FInt,
    i: *const FInt,
    j: *const FInt,
    owner: *mut FInt,
) -> FLog {
    const C: &str = "ga_locate";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let s = match a.ndim() {
            1 => vec![int(C, i)],
            _ => vec![int(C, i), int(C, j)],
        };
        if a.ndim() == 1 && int(C, j) != 1 {
            return FALSE;
        }
        match locate_common(C, &a, &s) {
            Some(p) => {
                out(C, owner, i64::from(p));
                TRUE
            }
            None => FALSE,
        }
    })
}

/// `logical nga_locate(g_a, subscript, owner)`: the process owning an
/// element; `.false.` if it is outside the array.
#[no_mangle]
pub extern "C" fn nga_locate_(g_a: *const FInt, subs: *const FInt, owner: *mut FInt) -> FLog {
    const C: &str = "nga_locate";
    entry(C, || {
        let a = Arr::get(C, g_a);
        match locate_common(C, &a, ints(C, subs, a.ndim())) {
            Some(p) => {
                out(C, owner, i64::from(p));
                TRUE
            }
            None => FALSE,
        }
    })
}

/// The owners of a Fortran patch and their parts (Fortran terms); `None`
/// when the patch is not inside the array.
pub(crate) fn region_common(
    call: &str,
    a: &Arr,
    lo_f: &[i64],
    hi_f: &[i64],
) -> Option<Vec<core::Region>> {
    let fd: Vec<i64> = a.dims.iter().rev().copied().collect();
    for d in 0..a.ndim() {
        if lo_f[d] < 1 || hi_f[d] > fd[d] || lo_f[d] > hi_f[d] {
            return None;
        }
    }
    let regions =
        core::locate_region(a.h, &to_c(lo_f), &to_c(hi_f)).unwrap_or_else(|e| fail_core(call, e));
    Some(
        regions
            .into_iter()
            .map(|(p, lo, hi)| (p, to_f(&lo), to_f(&hi)))
            .collect(),
    )
}

/// `logical ga_locate_region(g_a, ilo, ihi, jlo, jhi, map, np)`: the `np`
/// processes owning parts of the patch; `map(1:5, k)` = ilo, ihi, jlo,
/// jhi, process of part k. `.false.` if the patch is not inside the array.
#[no_mangle]
pub extern "C" fn ga_locate_region_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    map: *mut FInt,
    np: *mut FInt,
) -> FLog {
    const C: &str = "ga_locate_region";
    entry(C, || {
        let a = Arr::get(C, g_a);
        if a.ndim() != 2 {
            fail(
                C,
                format!("g_a '{}' is not 2-D; use nga_locate_region", a.name()),
            );
        }
        let lo = [int(C, ilo), int(C, jlo)];
        let hi = [int(C, ihi), int(C, jhi)];
        let Some(regions) = region_common(C, &a, &lo, &hi) else {
            out(C, np, 0);
            return FALSE;
        };
        let m = ints_mut(C, map, 5 * regions.len());
        for (k, (p, l, h)) in regions.iter().enumerate() {
            m[5 * k..5 * k + 5].copy_from_slice(&[l[0], h[0], l[1], h[1], i64::from(*p)]);
        }
        out(C, np, regions.len() as i64);
        TRUE
    })
}

/// `logical nga_locate_region(g_a, lo, hi, map, proclist, np)`: the `np`
/// processes owning parts of the patch; `map(1:ndim, k)` and
/// `map(ndim+1:2*ndim, k)` are part k's lo and hi, `proclist(k)` its
/// process. `.false.` if the patch is not inside the array.
#[no_mangle]
pub extern "C" fn nga_locate_region_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    map: *mut FInt,
    proclist: *mut FInt,
    np: *mut FInt,
) -> FLog {
    const C: &str = "nga_locate_region";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let n = a.ndim();
        let Some(regions) = region_common(C, &a, ints(C, lo, n), ints(C, hi, n)) else {
            out(C, np, 0);
            return FALSE;
        };
        let m = ints_mut(C, map, 2 * n * regions.len());
        let procs = ints_mut(C, proclist, regions.len());
        for (k, (p, l, h)) in regions.iter().enumerate() {
            m[2 * n * k..2 * n * k + n].copy_from_slice(l);
            m[2 * n * k + n..2 * n * (k + 1)].copy_from_slice(h);
            procs[k] = i64::from(*p);
        }
        out(C, np, regions.len() as i64);
        TRUE
    })
}

/// `logical ga_compare_distr(g_a, g_b)`: `.true.` when both arrays have
/// the same shape and every process owns the same block of each.
#[no_mangle]
pub extern "C" fn ga_compare_distr_(g_a: *const FInt, g_b: *const FInt) -> FLog {
    const C: &str = "ga_compare_distr";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let b = Arr::get(C, g_b);
        if a.dims != b.dims {
            return FALSE;
        }
        let np = core::array_nprocs(a.h).unwrap_or_else(|e| fail_core(C, e));
        let same_group =
            core::array_group(a.h).ok().map(|x| x.0) == core::array_group(b.h).ok().map(|x| x.0);
        flog(
            same_group
                && (0..np).all(|p| {
                    core::distribution(a.h, p).unwrap_or_else(|e| fail_core(C, e))
                        == core::distribution(b.h, p).unwrap_or_else(|e| fail_core(C, e))
                }),
        )
    })
}

// ---------------------------------------------------------------------------
// Put, get, accumulate

/// Which one-sided transfer.
#[derive(Clone, Copy)]
enum Xfer {
    Put,
    Get,
    Acc(*const c_void),
}

fn transfer(call: &str, a: &Arr, lo: &[i64], hi: &[i64], ld: &[i64], buf: *mut c_void, op: Xfer) {
    let n = a.span(lo, hi, ld);
    match op {
        Xfer::Put => {
            let b = ptr::slice(buf as *const u8, n)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            core::put(a.h, lo, hi, b, ld)
        }
        Xfer::Get => {
            let b = ptr::slice_mut(buf as *mut u8, n)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            core::get(a.h, lo, hi, b, ld)
        }
        Xfer::Acc(alpha) => {
            let b = ptr::slice(buf as *const u8, n)
                .unwrap_or_else(|| fail(call, "the buffer is missing (NULL)"));
            core::acc(a.h, lo, hi, b, ld, a.value(call, alpha))
        }
    }
    .unwrap_or_else(|e| fail_core(call, e))
}

/// Copies the 2-D patch `[f[0]:f[1], f[2]:f[3]]` (Fortran terms) of
/// `g_a` into `buf` (leading dimension `ld`) or, with `put`, from it, as
/// `ga_get` and `ga_put` do; a bad argument ends the job naming `call`.
pub(crate) fn patch_2d_io(
    call: &str,
    g_a: *const FInt,
    f: [i64; 4],
    buf: *mut c_void,
    ld: i64,
    put: bool,
) {
    let op = if put { Xfer::Put } else { Xfer::Get };
    transfer_2d(call, g_a, &f[0], &f[1], &f[2], &f[3], buf, &ld, op)
}

fn transfer_2d(
    call: &str,
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    op: Xfer,
) {
    let a = Arr::get(call, g_a);
    let (lo, hi) = a.patch_2d(call, ilo, ihi, jlo, jhi);
    let ld = a.ld_2d(call, &lo, &hi, ld);
    transfer(call, &a, &lo, &hi, &ld, buf, op)
}

fn transfer_n(
    call: &str,
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    op: Xfer,
) {
    let a = Arr::get(call, g_a);
    let (lo, hi) = a.patch_n(call, lo, hi);
    let ld = a.ld_n(call, &lo, &hi, ld);
    transfer(call, &a, &lo, &hi, &ld, buf, op)
}

/// `subroutine ga_put(g_a, ilo, ihi, jlo, jhi, buf, ld)`: copies
/// `buf(1:ihi-ilo+1, 1:jhi-jlo+1)` (leading dimension `ld`) into the patch.
#[no_mangle]
pub extern "C" fn ga_put_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
) {
    entry("ga_put", || {
        transfer_2d(
            "ga_put",
            g_a,
            ilo,
            ihi,
            jlo,
            jhi,
            buf as *mut c_void,
            ld,
            Xfer::Put,
        )
    })
}

/// `subroutine ga_get(g_a, ilo, ihi, jlo, jhi, buf, ld)`: copies the patch
/// into `buf` (leading dimension `ld`).
#[no_mangle]
pub extern "C" fn ga_get_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
) {
    entry("ga_get", || {
        transfer_2d("ga_get", g_a, ilo, ihi, jlo, jhi, buf, ld, Xfer::Get)
    })
}

/// `subroutine ga_acc(g_a, ilo, ihi, jlo, jhi, buf, ld, alpha)`: patch +=
/// alpha·buf, atomically (`alpha` of the array's type).
#[no_mangle]
pub extern "C" fn ga_acc_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    alpha: *const c_void,
) {
    entry("ga_acc", || {
        let op = Xfer::Acc(alpha);
        transfer_2d(
            "ga_acc",
            g_a,
            ilo,
            ihi,
            jlo,
            jhi,
            buf as *mut c_void,
            ld,
            op,
        )
    })
}

/// `subroutine nga_put(g_a, lo, hi, buf, ld)`: copies `buf` (leading
/// dimensions `ld(1:ndim-1)`) into the patch `lo:hi`.
#[no_mangle]
pub extern "C" fn nga_put_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
) {
    entry("nga_put", || {
        transfer_n("nga_put", g_a, lo, hi, buf as *mut c_void, ld, Xfer::Put)
    })
}

/// `subroutine nga_get(g_a, lo, hi, buf, ld)`: copies the patch `lo:hi`
/// into `buf` (leading dimensions `ld(1:ndim-1)`).
#[no_mangle]
pub extern "C" fn nga_get_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
) {
    entry("nga_get", || {
        transfer_n("nga_get", g_a, lo, hi, buf, ld, Xfer::Get)
    })
}

/// `subroutine nga_acc(g_a, lo, hi, buf, ld, alpha)`: patch += alpha·buf,
/// atomically.
#[no_mangle]
pub extern "C" fn nga_acc_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    alpha: *const c_void,
) {
    entry("nga_acc", || {
        transfer_n(
            "nga_acc",
            g_a,
            lo,
            hi,
            buf as *mut c_void,
            ld,
            Xfer::Acc(alpha),
        )
    })
}

// ---------------------------------------------------------------------------
// Non-blocking transfers

fn nb_start(
    call: &str,
    a: &Arr,
    lo: &[i64],
    hi: &[i64],
    ld: &[i64],
    buf: *mut c_void,
    op: Xfer,
    handle: *mut FInt,
) {
    let n = a.span(lo, hi, ld);
    let h = match op {
        Xfer::Put => {
            let b = ptr::slice(buf as *const u8, n).unwrap_or_else(|| missing(call));
            core::nb_put(a.h, lo, hi, b, ld)
        }
        Xfer::Get => {
            if buf.is_null() {
                missing(call);
            }
            ptr::nb_get(a.h, lo, hi, buf as *mut u8, n, ld)
        }
        Xfer::Acc(alpha) => {
            let b = ptr::slice(buf as *const u8, n).unwrap_or_else(|| missing(call));
            core::nb_acc(a.h, lo, hi, b, ld, a.value(call, alpha))
        }
    }
    .unwrap_or_else(|e| fail_core(call, e));
    out(call, handle, h);
}

fn nb_n(
    call: &str,
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    op: Xfer,
    handle: *mut FInt,
) {
    let a = Arr::get(call, g_a);
    let (lo, hi) = a.patch_n(call, lo, hi);
    let ld = a.ld_n(call, &lo, &hi, ld);
    nb_start(call, &a, &lo, &hi, &ld, buf, op, handle)
}

fn nb_2d(
    call: &str,
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    op: Xfer,
    handle: *mut FInt,
) {
    let a = Arr::get(call, g_a);
    let (lo, hi) = a.patch_2d(call, ilo, ihi, jlo, jhi);
    let ld = a.ld_2d(call, &lo, &hi, ld);
    nb_start(call, &a, &lo, &hi, &ld, buf, op, handle)
}

/// `subroutine nga_nbput(g_a, lo, hi, buf, ld, nbhandle)`: starts a put;
/// `buf` may be reused on return; complete with `nga_nbwait(nbhandle)`.
#[no_mangle]
pub extern "C" fn nga_nbput_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    nbhandle: *mut FInt,
) {
    entry("nga_nbput", || {
        nb_n(
            "nga_nbput",
            g_a,
            lo,
            hi,
            buf as *mut c_void,
            ld,
            Xfer::Put,
            nbhandle,
        )
    })
}

/// `subroutine nga_nbget(g_a, lo, hi, buf, ld, nbhandle)`: starts a get;
/// `buf` holds the data after `nga_nbwait(nbhandle)`.
#[no_mangle]
pub extern "C" fn nga_nbget_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    nbhandle: *mut FInt,
) {
    entry("nga_nbget", || {
        nb_n("nga_nbget", g_a, lo, hi, buf, ld, Xfer::Get, nbhandle)
    })
}

/// `subroutine nga_nbacc(g_a, lo, hi, buf, ld, alpha, nbhandle)`: starts
/// an atomic accumulate.
#[no_mangle]
pub extern "C" fn nga_nbacc_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    alpha: *const c_void,
    nbhandle: *mut FInt,
) {
    entry("nga_nbacc", || {
        let op = Xfer::Acc(alpha);
        nb_n(
            "nga_nbacc",
            g_a,
            lo,
            hi,
            buf as *mut c_void,
            ld,
            op,
            nbhandle,
        )
    })
}

/// `subroutine ga_nbput(g_a, ilo, ihi, jlo, jhi, buf, ld, nbhandle)`: the
/// 2-D form of `nga_nbput`.
#[no_mangle]
pub extern "C" fn ga_nbput_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    nbhandle: *mut FInt,
) {
    entry("ga_nbput", || {
        let b = buf as *mut c_void;
        nb_2d(
            "ga_nbput",
            g_a,
            ilo,
            ihi,
            jlo,
            jhi,
            b,
            ld,
            Xfer::Put,
            nbhandle,
        )
    })
}

/// `subroutine ga_nbget(g_a, ilo, ihi, jlo, jhi, buf, ld, nbhandle)`: the
/// 2-D form of `nga_nbget`.
#[no_mangle]
pub extern "C" fn ga_nbget_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *mut c_void,
    ld: *const FInt,
    nbhandle: *mut FInt,
) {
    entry("ga_nbget", || {
        nb_2d(
            "ga_nbget",
            g_a,
            ilo,
            ihi,
            jlo,
            jhi,
            buf,
            ld,
            Xfer::Get,
            nbhandle,
        )
    })
}

/// `subroutine ga_nbacc(g_a, ilo, ihi, jlo, jhi, buf, ld, alpha,
/// nbhandle)`: the 2-D form of `nga_nbacc`.
#[no_mangle]
pub extern "C" fn ga_nbacc_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    alpha: *const c_void,
    nbhandle: *mut FInt,
) {
    entry("ga_nbacc", || {
        let (b, op) = (buf as *mut c_void, Xfer::Acc(alpha));
        nb_2d("ga_nbacc", g_a, ilo, ihi, jlo, jhi, b, ld, op, nbhandle)
    })
}

/// `subroutine nga_nbwait(nbhandle)`: waits until the transfer is done
/// locally (its buffer may be reused or read).
#[no_mangle]
pub extern "C" fn nga_nbwait_(nbhandle: *const FInt) {
    entry("nga_nbwait", || {
        core::nb_wait(int("nga_nbwait", nbhandle)).unwrap_or_else(|e| fail_core("nga_nbwait", e))
    })
}

/// `subroutine nga_nbput_notify(g_a, lo, hi, buf, ld, g_b, ecoords, bufn,
/// nbhandle)`: puts the patch `lo:hi` of `g_a` from `buf`, then the one
/// element `ecoords` of `g_b` from `bufn`, so that a process that sees
/// the element changed finds the patch in place. `nga_nbwait_notify`
/// completes it. When the element lies in the patch of the same array,
/// `bufn` must be that element's place in `buf` (as GA requires); another
/// place ends the job.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn nga_nbput_notify_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    buf: *const c_void,
    ld: *const FInt,
    g_b: *const FInt,
    ecoords: *const FInt,
    bufn: *const c_void,
    nbhandle: *mut FInt,
) {
    const CALL: &str = "nga_nbput_notify";
    entry(CALL, || {
        let (a, b) = (Arr::get(CALL, g_a), Arr::get(CALL, g_b));
        let n = a.ndim();
        let (flo, fhi) = (ints(CALL, lo, n), ints(CALL, hi, n));
        let fe = ints(CALL, ecoords, b.ndim());
        let inside = a.h == b.h && (0..n).all(|i| flo[i] <= fe[i] && fe[i] <= fhi[i]);
        if inside {
            let fld = ints(CALL, ld, n.saturating_sub(1));
            let mut off = 0i64;
            let mut stride = 1i64;
            for i in 0..n {
                off += (fe[i] - flo[i]) * stride;
                stride *= fld.get(i).copied().unwrap_or(1);
            }
            let want = (buf as usize as i64).wrapping_add(off * a.size() as i64);
            if bufn as usize as i64 != want {
                fail(
                    CALL,
                    format!(
                        "the notify element {} lies in the patch {}, but bufn is not its place in buf",
                        fpatch(fe, fe),
                        fpatch(flo, fhi)
                    ),
                );
            }
        }
        transfer_n(CALL, g_a, lo, hi, buf as *mut c_void, ld, Xfer::Put);
        let ones = vec![1; b.ndim().saturating_sub(1)];
        nb_n(
            CALL,
            g_b,
            ecoords,
            ecoords,
            bufn as *mut c_void,
            ones.as_ptr(),
            Xfer::Put,
            nbhandle,
        )
    })
}

/// `subroutine nga_nbwait_notify(nbhandle)`: completes an
/// `nga_nbput_notify` (the patch and the notify element are in place).
#[no_mangle]
pub extern "C" fn nga_nbwait_notify_(nbhandle: *const FInt) {
    entry("nga_nbwait_notify", || {
        core::nb_wait(int("nga_nbwait_notify", nbhandle))
            .unwrap_or_else(|e| fail_core("nga_nbwait_notify", e))
    })
}

/// `subroutine ga_nbwait(nbhandle)`: as `nga_nbwait`.
#[no_mangle]
pub extern "C" fn ga_nbwait_(nbhandle: *const FInt) {
    nga_nbwait_(nbhandle)
}

/// `integer nga_nbtest(nbhandle)`: 1 once the transfer is done, 0 while it
/// is pending (as GA 5.8 and `NGA_NbTest` in C).
#[no_mangle]
pub extern "C" fn nga_nbtest_(nbhandle: *const FInt) -> FInt {
    entry("nga_nbtest", || {
        let h = int("nga_nbtest", nbhandle);
        i64::from(core::nb_test(h).unwrap_or_else(|e| fail_core("nga_nbtest", e)))
    })
}

/// `integer ga_nbtest(nbhandle)`: as `nga_nbtest`.
#[no_mangle]
pub extern "C" fn ga_nbtest_(nbhandle: *const FInt) -> FInt {
    nga_nbtest_(nbhandle)
}

// ---------------------------------------------------------------------------
// Read-increment, scatter, gather

fn read_inc_common(call: &str, a: &Arr, s_f: &[i64], inc: *const FInt) -> FInt {
    if !a.ty.is_integer_counter() {
        fail(
            call,
            format!("g_a '{}' holds {:?}, not integers", a.name(), a.ty),
        );
    }
    let subs = a.subscript(call, s_f);
    core::read_inc(a.h, &subs, int(call, inc)).unwrap_or_else(|e| fail_core(call, e))
}

/// `integer ga_read_inc(g_a, i, j, inc)`: atomically adds `inc` to element
/// (i,j) of an integer array and returns its old value.
#[no_mangle]
pub extern "C" fn ga_read_inc_(
    g_a: *const FInt,
    i: *const FInt,
    j: *const FInt,
    inc: *const FInt,
) -> FInt {
    const C: &str = "ga_read_inc";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let s = if a.ndim() == 1 && int(C, j) == 1 {
            vec![int(C, i)]
        } else {
            vec![int(C, i), int(C, j)]
        };
        if s.len() != a.ndim() {
            fail(C, format!("g_a '{}' has {} dimensions", a.name(), a.ndim()));
        }
        read_inc_common(C, &a, &s, inc)
    })
}

/// `integer nga_read_inc(g_a, subscript, inc)`: atomically adds `inc` to an
/// element of an integer array and returns its old value.
#[no_mangle]
pub extern "C" fn nga_read_inc_(g_a: *const FInt, subs: *const FInt, inc: *const FInt) -> FInt {
    const C: &str = "nga_read_inc";
    entry(C, || {
        let a = Arr::get(C, g_a);
        read_inc_common(C, &a, ints(C, subs, a.ndim()), inc)
    })
}

/// Which element-wise transfer.
#[derive(Clone, Copy)]
enum Elems {
    Scatter,
    Gather,
    ScatterAcc(*const c_void),
}

fn elements(call: &str, a: &Arr, v: *mut c_void, subs: &[Vec<i64>], op: Elems) {
    let n = subs.len() * a.size();
    match op {
        Elems::Scatter => {
            let b = ptr::slice(v as *const u8, n).unwrap_or_else(|| missing(call));
            core::scatter(a.h, b, subs)
        }
        Elems::Gather => {
            let b = ptr::slice_mut(v as *mut u8, n).unwrap_or_else(|| missing(call));
            core::gather(a.h, b, subs)
        }
        Elems::ScatterAcc(alpha) => {
            let b = ptr::slice(v as *const u8, n).unwrap_or_else(|| missing(call));
            core::scatter_acc(a.h, b, subs, a.value(call, alpha))
        }
    }
    .unwrap_or_else(|e| fail_core(call, e))
}

/// Ends the job: a buffer argument is NULL.
fn missing(call: &str) -> ! {
    fail(call, "the buffer is missing (NULL)")
}

/// Element count argument, checked.
fn count(call: &str, p: *const FInt) -> usize {
    let n = int(call, p);
    if n < 0 {
        fail(call, format!("number of elements {n} is negative"));
    }
    n as usize
}

fn elements_2d(
    call: &str,
    g_a: *const FInt,
    v: *mut c_void,
    i: *const FInt,
    j: *const FInt,
    nv: *const FInt,
    op: Elems,
) {
    let a = Arr::get(call, g_a);
    if a.ndim() != 2 {
        fail(
            call,
            format!("g_a '{}' is not 2-D; use the nga_ form", a.name()),
        );
    }
    let n = count(call, nv);
    let (is, js) = (ints(call, i, n), ints(call, j, n));
    let subs: Vec<Vec<i64>> = (0..n).map(|k| a.subscript(call, &[is[k], js[k]])).collect();
    elements(call, &a, v, &subs, op)
}

fn elements_n(
    call: &str,
    g_a: *const FInt,
    v: *mut c_void,
    subsarray: *const FInt,
    nv: *const FInt,
    op: Elems,
) {
    let a = Arr::get(call, g_a);
    let (n, d) = (count(call, nv), a.ndim());
    let all = ints(call, subsarray, n * d);
    let subs: Vec<Vec<i64>> = all.chunks(d).map(|s| a.subscript(call, s)).collect();
    elements(call, &a, v, &subs, op)
}

/// `subroutine ga_scatter(g_a, v, i, j, nv)`: element (i(k), j(k)) =
/// v(k), k = 1..nv.
#[no_mangle]
pub extern "C" fn ga_scatter_(
    g_a: *const FInt,
    v: *const c_void,
    i: *const FInt,
    j: *const FInt,
    nv: *const FInt,
) {
    entry("ga_scatter", || {
        elements_2d(
            "ga_scatter",
            g_a,
            v as *mut c_void,
            i,
            j,
            nv,
            Elems::Scatter,
        )
    })
}

/// `subroutine ga_gather(g_a, v, i, j, nv)`: v(k) = element (i(k), j(k)).
#[no_mangle]
pub extern "C" fn ga_gather_(
    g_a: *const FInt,
    v: *mut c_void,
    i: *const FInt,
    j: *const FInt,
    nv: *const FInt,
) {
    entry("ga_gather", || {
        elements_2d("ga_gather", g_a, v, i, j, nv, Elems::Gather)
    })
}

/// `subroutine ga_scatter_acc(g_a, v, i, j, nv, alpha)`: element (i(k),
/// j(k)) += alpha·v(k), atomically.
#[no_mangle]
pub extern "C" fn ga_scatter_acc_(
    g_a: *const FInt,
    v: *const c_void,
    i: *const FInt,
    j: *const FInt,
    nv: *const FInt,
    alpha: *const c_void,
) {
    entry("ga_scatter_acc", || {
        let op = Elems::ScatterAcc(alpha);
        elements_2d("ga_scatter_acc", g_a, v as *mut c_void, i, j, nv, op)
    })
}

/// `subroutine nga_scatter(g_a, v, subsarray, n)`: the element at
/// `subsarray(1:ndim, k)` = v(k), k = 1..n.
#[no_mangle]
pub extern "C" fn nga_scatter_(
    g_a: *const FInt,
    v: *const c_void,
    subsarray: *const FInt,
    n: *const FInt,
) {
    entry("nga_scatter", || {
        elements_n(
            "nga_scatter",
            g_a,
            v as *mut c_void,
            subsarray,
            n,
            Elems::Scatter,
        )
    })
}

/// `subroutine nga_gather(g_a, v, subsarray, n)`: v(k) = the element at
/// `subsarray(1:ndim, k)`.
#[no_mangle]
pub extern "C" fn nga_gather_(
    g_a: *const FInt,
    v: *mut c_void,
    subsarray: *const FInt,
    n: *const FInt,
) {
    entry("nga_gather", || {
        elements_n("nga_gather", g_a, v, subsarray, n, Elems::Gather)
    })
}

/// `subroutine nga_scatter_acc(g_a, v, subsarray, n, alpha)`: the element
/// at `subsarray(1:ndim, k)` += alpha·v(k), atomically.
#[no_mangle]
pub extern "C" fn nga_scatter_acc_(
    g_a: *const FInt,
    v: *const c_void,
    subsarray: *const FInt,
    n: *const FInt,
    alpha: *const c_void,
) {
    entry("nga_scatter_acc", || {
        let op = Elems::ScatterAcc(alpha);
        elements_n("nga_scatter_acc", g_a, v as *mut c_void, subsarray, n, op)
    })
}

// ---------------------------------------------------------------------------
// Direct access to the local block

/// The index (in the array's MA base array) of element `lo` of this
/// process's block, and the block's leading dimensions (C order).
fn access_common(call: &str, a: &Arr, lo: &[i64], hi: &[i64]) -> (i64, Vec<i64>) {
    let Some((p, olo, ohi, old)) = core::access(a.h).unwrap_or_else(|e| fail_core(call, e)) else {
        fail(
            call,
            format!(
                "process {} owns no part of g_a '{}'",
                core::nodeid(),
                a.name()
            ),
        );
    };
    let n = a.ndim();
    if (0..n).any(|d| lo[d] < olo[d] || hi[d] > ohi[d]) {
        fail(
            call,
            format!(
                "patch {} is not inside this process's block {} of g_a '{}'",
                fpatch(&to_f(lo), &to_f(hi)),
                fpatch(&to_f(&olo), &to_f(&ohi)),
                a.name()
            ),
        );
    }
    // Leading dimensions of the block (C order, ndim-1 of them).
    let lds: Vec<i64> = if old.len() + 1 >= n {
        old[old.len() + 1 - n..].to_vec()
    } else {
        (1..n).map(|d| ohi[d] - olo[d] + 1).collect()
    };
    let mut offset = 0i64;
    let mut stride = 1i64;
    for d in (0..n).rev() {
        offset += (lo[d] - olo[d]) * stride;
        if d > 0 {
            stride *= lds[d - 1];
        }
    }
    let base = a.base(call);
    let addr = p as usize + offset as usize * a.size();
    let index = base.index_of(addr).unwrap_or_else(|| {
        fail(
            call,
            format!(
                "the block of g_a '{}' is not aligned to {} elements",
                a.name(),
                base.array()
            ),
        )
    });
    (index, lds)
}

/// `subroutine ga_access(g_a, ilo, ihi, jlo, jhi, index, ld)`: `index` of
/// element (ilo, jlo) of this process's block in the MA base array of the
/// array's type (`dbl_mb(index)` for a double precision array) and the
/// block's leading dimension. The patch must lie inside the block.
#[no_mangle]
pub extern "C" fn ga_access_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    index: *mut FInt,
    ld: *mut FInt,
) {
    const C: &str = "ga_access";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_2d(C, ilo, ihi, jlo, jhi);
        let (i, lds) = access_common(C, &a, &lo, &hi);
        out(C, index, i);
        out(C, ld, lds.first().copied().unwrap_or(hi[0] - lo[0] + 1));
    })
}

/// `subroutine nga_access(g_a, lo, hi, index, ld)`: as `ga_access` for any
/// number of dimensions; `ld(1:ndim-1)`.
#[no_mangle]
pub extern "C" fn nga_access_(
    g_a: *const FInt,
    lo: *const FInt,
    hi: *const FInt,
    index: *mut FInt,
    ld: *mut FInt,
) {
    const C: &str = "nga_access";
    entry(C, || {
        let a = Arr::get(C, g_a);
        let (lo, hi) = a.patch_n(C, lo, hi);
        let (i, lds) = access_common(C, &a, &lo, &hi);
        out(C, index, i);
        let l = ints_mut(C, ld, a.ndim() - 1);
        for (o, &x) in l.iter_mut().zip(lds.iter().rev()) {
            *o = x;
        }
    })
}

fn release_2d(
    call: &str,
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
    update: bool,
) {
    let a = Arr::get(call, g_a);
    a.patch_2d(call, ilo, ihi, jlo, jhi);
    if update {
        core::release_update(a.h)
    } else {
        core::release(a.h)
    }
}

fn release_n(call: &str, g_a: *const FInt, lo: *const FInt, hi: *const FInt, update: bool) {
    let a = Arr::get(call, g_a);
    a.patch_n(call, lo, hi);
    if update {
        core::release_update(a.h)
    } else {
        core::release(a.h)
    }
}

/// `subroutine ga_release(g_a, ilo, ihi, jlo, jhi)`: ends a `ga_access`
/// that only read the block.
#[no_mangle]
pub extern "C" fn ga_release_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
) {
    entry("ga_release", || {
        release_2d("ga_release", g_a, ilo, ihi, jlo, jhi, false)
    })
}

/// `subroutine ga_release_update(g_a, ilo, ihi, jlo, jhi)`: ends a
/// `ga_access` that changed the block.
#[no_mangle]
pub extern "C" fn ga_release_update_(
    g_a: *const FInt,
    ilo: *const FInt,
    ihi: *const FInt,
    jlo: *const FInt,
    jhi: *const FInt,
) {
    entry("ga_release_update", || {
        release_2d("ga_release_update", g_a, ilo, ihi, jlo, jhi, true)
    })
}

/// `subroutine nga_release(g_a, lo, hi)`: ends an `nga_access` that only
/// read the block.
#[no_mangle]
pub extern "C" fn nga_release_(g_a: *const FInt, lo: *const FInt, hi: *const FInt) {
    entry("nga_release", || {
        release_n("nga_release", g_a, lo, hi, false)
    })
}

/// `subroutine nga_release_update(g_a, lo, hi)`: ends an `nga_access` that
/// changed the block.
#[no_mangle]
pub extern "C" fn nga_release_update_(g_a: *const FInt, lo: *const FInt, hi: *const FInt) {
    entry("nga_release_update", || {
        release_n("nga_release_update", g_a, lo, hi, true)
    })
}

// ---------------------------------------------------------------------------
// Synchronisation, mutexes, collectives

/// `subroutine ga_sync()`: completes every outstanding operation and waits
/// for all compute ranks (collective).
#[no_mangle]
pub extern "C" fn ga_sync_() {
    entry("ga_sync", || {
        core::pgroups::app_sync().unwrap_or_else(|e| fail_core("ga_sync", e))
    })
}

/// `subroutine ga_fence()`: waits until this process's puts and
/// accumulates since `ga_init_fence` are complete at their targets.
#[no_mangle]
pub extern "C" fn ga_fence_() {
    entry("ga_fence", || {
        core::fence().unwrap_or_else(|e| fail_core("ga_fence", e))
    })
}

/// `subroutine ga_init_fence()`: starts tracking operations for `ga_fence`.
#[no_mangle]
pub extern "C" fn ga_init_fence_() {
    entry("ga_init_fence", core::init_fence)
}

/// `logical ga_create_mutexes(number)`: creates mutexes 0..number-1
/// (collective); `.false.` with a message if they cannot be created.
#[no_mangle]
pub extern "C" fn ga_create_mutexes_(number: *const FInt) -> FLog {
    const C: &str = "ga_create_mutexes";
    entry(C, || {
        let n = int(C, number);
        let Ok(n32) = i32::try_from(n) else {
            eprintln!("{C}: {n} mutexes is too many");
            return FALSE;
        };
        match core::create_mutexes(n32) {
            Ok(()) => TRUE,
            Err(e) => {
                eprintln!("{C}: {}", e.message);
                FALSE
            }
        }
    })
}

/// `logical ga_destroy_mutexes()`: destroys the mutexes (collective);
/// `.false.` with a message if there are none.
#[no_mangle]
pub extern "C" fn ga_destroy_mutexes_() -> FLog {
    entry("ga_destroy_mutexes", || match core::destroy_mutexes() {
        Ok(()) => TRUE,
        Err(e) => {
            eprintln!("ga_destroy_mutexes: {}", e.message);
            FALSE
        }
    })
}

fn mutex_arg(call: &str, p: *const FInt) -> i32 {
    let m = int(call, p);
    i32::try_from(m).unwrap_or_else(|_| fail(call, format!("no mutex {m}")))
}

/// `subroutine ga_lock(mutex)`: acquires mutex `mutex` (waits for it).
#[no_mangle]
pub extern "C" fn ga_lock_(mutex: *const FInt) {
    entry("ga_lock", || {
        core::lock(mutex_arg("ga_lock", mutex)).unwrap_or_else(|e| fail_core("ga_lock", e))
    })
}

/// `subroutine ga_unlock(mutex)`: releases mutex `mutex`.
#[no_mangle]
pub extern "C" fn ga_unlock_(mutex: *const FInt) {
    entry("ga_unlock", || {
        core::unlock(mutex_arg("ga_unlock", mutex)).unwrap_or_else(|e| fail_core("ga_unlock", e))
    })
}

/// `subroutine ga_brdcst(type, buf, lenbuf, originator)`: copies `lenbuf`
/// bytes of `buf` from process `originator` to every process
/// (collective; `type` is TCGMSG's message type, unused).
#[no_mangle]
pub extern "C" fn ga_brdcst_(
    _msgtype: *const FInt,
    buf: *mut c_void,
    lenbuf: *const FInt,
    originator: *const FInt,
) {
    const C: &str = "ga_brdcst";
    entry(C, || {
        let n = count(C, lenbuf);
        let root = proc_arg(C, originator);
        let b = ptr::slice_mut(buf as *mut u8, n)
            .unwrap_or_else(|| fail(C, "the buffer is missing (NULL)"));
        core::pgroups::app_brdcst(b, root).unwrap_or_else(|e| fail_core(C, e))
    })
}

/// `subroutine ga_dgop(type, x, n, op)`: element-wise reduction of the
/// double precision `x(1:n)` over all processes, result everywhere; `op`
/// is `'+'`, `'*'`, `'max'`, `'min'`, `'absmax'`, `'absmin'`.
#[no_mangle]
pub extern "C" fn ga_dgop_(
    _msgtype: *const FInt,
    x: *mut f64,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    const C: &str = "ga_dgop";
    entry(C, || {
        let n = count(C, n);
        let op = ptr::fstring(op, oplen);
        let xs = ptr::slice_mut(x, n).unwrap_or_else(|| fail(C, "x is missing (NULL)"));
        core::pgroups::app_gop(C, xs, &op, false).unwrap_or_else(|e| fail_core(C, e))
    })
}

/// `subroutine ga_sgop(type, x, n, op)`: as `ga_dgop` for `real`.
#[no_mangle]
pub extern "C" fn ga_sgop_(
    _msgtype: *const FInt,
    x: *mut f32,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    const C: &str = "ga_sgop";
    entry(C, || {
        let n = count(C, n);
        let op = ptr::fstring(op, oplen);
        let xs = ptr::slice_mut(x, n).unwrap_or_else(|| fail(C, "x is missing (NULL)"));
        core::pgroups::app_gop(C, xs, &op, false).unwrap_or_else(|e| fail_core(C, e))
    })
}

/// `subroutine ga_igop(type, x, n, op)`: as `ga_dgop` for (8-byte)
/// `integer`; `op` may also be `'or'`.
#[no_mangle]
pub extern "C" fn ga_igop_(
    _msgtype: *const FInt,
    x: *mut FInt,
    n: *const FInt,
    op: *const c_char,
    oplen: usize,
) {
    const C: &str = "ga_igop";
    entry(C, || {
        let n = count(C, n);
        let op = ptr::fstring(op, oplen);
        let xs = ptr::slice_mut(x, n).unwrap_or_else(|| fail(C, "x is missing (NULL)"));
        core::pgroups::app_gop(C, xs, &op, true).unwrap_or_else(|e| fail_core(C, e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_to_c_order() {
        assert_eq!(to_c(&[1, 5, 7]), vec![6, 4, 0]);
        assert_eq!(to_f(&[6, 4, 0]), vec![1, 5, 7]);
    }

    #[test]
    fn irregular_map_is_reversed_per_dimension() {
        let (_, dims, dist) = creation_args(
            "t",
            i64::from(codes::F_DBL),
            &[10, 6],
            FDist::Irregular {
                map: &[1, 4, 8, 1, 3],
                nblock: &[3, 2],
            },
        );
        assert_eq!(dims, vec![6, 10]);
        assert_eq!(
            dist,
            Distribution::Irregular {
                block: vec![2, 3],
                map: vec![0, 2, 0, 3, 7]
            }
        );
    }

    #[test]
    fn chunks_are_reversed_and_default_when_all_free() {
        let code = i64::from(codes::F_INT);
        let (ty, _, d) = creation_args("t", code, &[4, 9], FDist::Chunk(&[0, -1]));
        assert_eq!(ty.size(), 8);
        assert_eq!(d, Distribution::Default);
        let (_, _, d) = creation_args("t", code, &[4, 9], FDist::Chunk(&[2, 0]));
        assert_eq!(d, Distribution::Chunk(vec![0, 2]));
    }

    #[test]
    fn span_covers_strided_patch() {
        let a = Arr {
            h: 0,
            ty: ElemType::Double,
            dims: vec![10, 10],
        };
        // C patch rows 2..4, cols 1..3 in a buffer of C row length 5:
        // last element at 2*5 + 2 = 12 → 13 elements.
        assert_eq!(a.span(&[2, 1], &[4, 3], &[5]), 13 * 8);
        assert_eq!(a.span(&[3], &[3], &[]), 8);
    }
}
