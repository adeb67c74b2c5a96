//! The Global Arrays C ABI (`ga.h`, `ga-mpi.h`): `GA_*` and `NGA_*`, with
//! GA's C conventions: 0-based, row-major indices, `hi` inclusive, `ld`
//! with ndim−1 entries, `C_*` and `F_*` type codes, handles non-zero.
//!
//! Errors are GA's: a bad argument (invalid handle, patch out of bounds,
//! wrong type, NULL buffer) ends the job through `GA_Error` with a message
//! naming the call and the patch. Creation calls return 0 when the array
//! cannot be made. No panic crosses into C: a panic also ends the job
//! with a message naming the call.

use crate::capi_ptr::{self as ptr, CIndex, PutError};
use crate::core::{self, fmt_patch, Distribution, ElemType, GaError, GaResult, Handle};
use crate::ops;
use crate::ops::elem::{C32, C64};
use shim_core::ffi_guard::guard;
use shim_core::mpi::RawComm;
use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

/// `ga_nbhdl_t` (GA's `Integer`).
pub type NbHdl = c_long;

use crate::ptr::MAX_DIM;

/// Runs an entry point: the panic boundary, then GA's error handling
/// (message and abort of the job).
fn run<R>(call: &'static str, f: impl FnOnce() -> GaResult<R>) -> R {
    let r = guard(call, Err(GaError::new(call, "internal error")), f);
    match r {
        Ok(v) => v,
        Err(e) => core::abort(&e.to_string(), 0),
    }
}

fn err<T>(call: &'static str, msg: impl Into<String>) -> GaResult<T> {
    Err(GaError::new(call, msg))
}

fn relabel(call: &'static str) -> impl Fn(GaError) -> GaError {
    move |e| GaError::new(call, e.message)
}

// ---------------------------------------------------------------------------
// Handles made by GA_Create_handle.

/// An array described by GA_Create_handle/GA_Set_* before GA_Allocate.
#[derive(Default)]
struct Pending {
    code: Option<i32>,
    dims: Vec<i64>,
    name: String,
    chunk: Option<Vec<i64>>,
    irregular: Option<(Vec<i64>, Vec<i64>)>,
    /// Ghost widths from GA_Set_ghosts.
    width: Option<Vec<i64>>,
    /// Processor group from GA_Set_pgroup (None: the default group).
    pgroup: Option<i32>,
    /// Block sizes and process grid from GA_Set_block_cyclic*,
    /// GA_Set_tiled_proc_grid.
    cyclic: Option<(Vec<i64>, Option<Vec<i64>>)>,
}

struct Handles {
    pending: HashMap<Handle, Pending>,
    /// Handle returned by GA_Create_handle → the core's array.
    alias: HashMap<Handle, Handle>,
    /// Names returned by GA_Inquire_name (kept alive for C).
    names: HashMap<Handle, CString>,
}

static HANDLES: Mutex<Option<Handles>> = Mutex::new(None);
static ANY_ALIAS: AtomicBool = AtomicBool::new(false);
/// Handles for arrays not yet allocated: far below the core's range; every
/// process creates them in the same order, so they agree.
static NEXT_PENDING: AtomicI32 = AtomicI32::new(-2_000_000);

fn with_handles<R>(f: impl FnOnce(&mut Handles) -> R) -> R {
    let mut g = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    let h = g.get_or_insert_with(|| Handles {
        pending: HashMap::new(),
        alias: HashMap::new(),
        names: HashMap::new(),
    });
    f(h)
}

/// The core handle behind a user handle (handles from `GA_Create_handle`
/// name the array `GA_Allocate` made).
pub fn resolve_handle(g: c_int) -> Handle {
    resolve(g)
}

fn resolve(g: c_int) -> Handle {
    if ANY_ALIAS.load(Ordering::Acquire) {
        with_handles(|h| h.alias.get(&g).copied().unwrap_or(g))
    } else {
        g
    }
}

/// Type and dimensions of a live array, or an error naming the call.
fn inquire(call: &'static str, g: Handle) -> GaResult<(ElemType, Vec<i64>)> {
    core::inquire(g).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))
}

pub(crate) fn type_of(call: &'static str, code: c_int) -> GaResult<ElemType> {
    ElemType::from_code(code).ok_or_else(|| GaError::new(call, format!("unknown type code {code}")))
}

// ---------------------------------------------------------------------------
// Argument conversion.

fn ints<I: CIndex>(call: &'static str, what: &str, p: *const I, n: usize) -> GaResult<Vec<i64>> {
    ptr::ints(p, n).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
}

/// Writes index values to an out-array of the call's index type: an error
/// names the argument when it is NULL or when a value does not fit (an
/// `int` entry point asked about extents beyond `INT_MAX`).
fn put_out<I: CIndex>(call: &'static str, what: &str, p: *mut I, vals: &[i64]) -> GaResult<()> {
    match ptr::put_ints(p, vals) {
        Ok(()) => Ok(()),
        Err(PutError::Null) => err(call, format!("{what} is NULL")),
        Err(PutError::TooLarge(v)) => err(
            call,
            format!("{what} value {v} does not fit in an int (use the 64-bit variant)"),
        ),
    }
}

/// lo and hi of a patch of `g` (ndim entries each).
fn patch<I: CIndex>(
    call: &'static str,
    ndim: usize,
    lo: *const I,
    hi: *const I,
) -> GaResult<(Vec<i64>, Vec<i64>)> {
    Ok((ints(call, "lo", lo, ndim)?, ints(call, "hi", hi, ndim)?))
}

/// Bytes a user buffer spans for a patch of `lo..=hi` with leading
/// dimensions `ld` (checked against the patch).
fn span(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    ld: &mut [i64],
    esize: usize,
) -> GaResult<usize> {
    let n = lo.len().min(MAX_DIM);
    let mut sh = [0i64; MAX_DIM];
    for d in 0..n {
        sh[d] = hi[d] - lo[d] + 1;
        if sh[d] < 1 {
            return err(
                call,
                format!(
                    "patch {} of g_a '{}' has lo > hi",
                    fmt_patch(lo, hi),
                    ops::patch::name(g)
                ),
            );
        }
    }
    // ld[d-1] is the buffer's stride for stepping dimension d-1; while all
    // the dimensions before d have one index it is never used (GA's own
    // tests pass ld = 1 for a one-row patch), so it only needs checking
    // once an outer dimension spans more than one index.
    let mut outer: i64 = 1;
    for d in 1..n {
        outer = outer.saturating_mul(sh[d - 1]);
        if outer == 1 {
            ld[d - 1] = ld[d - 1].max(sh[d]);
        } else if ld[d - 1] < sh[d] {
            return err(
                call,
                format!(
                    "ld[{}]={} is smaller than the extent {} of patch {}",
                    d - 1,
                    ld[d - 1],
                    sh[d],
                    fmt_patch(lo, hi)
                ),
            );
        }
    }
    let mut elems: i64 = 1;
    let mut stride: i64 = 1;
    for d in (0..n).rev() {
        elems = elems.saturating_add((sh[d] - 1).saturating_mul(stride));
        if d > 0 {
            stride = stride.saturating_mul(ld[d - 1]);
        }
    }
    usize::try_from(elems)
        .ok()
        .and_then(|e| e.checked_mul(esize))
        .ok_or_else(|| GaError::new(call, format!("patch {} too large", fmt_patch(lo, hi))))
}

/// Everything a put/get/acc needs: core handle, element size, lo, hi, ld,
/// buffer bytes. Fixed arrays: the hot path allocates nothing.
struct Xfer {
    g: Handle,
    esize: usize,
    n: usize,
    lo: [i64; MAX_DIM],
    hi: [i64; MAX_DIM],
    ld: [i64; MAX_DIM],
    len: usize,
}

impl Xfer {
    fn lo(&self) -> &[i64] {
        &self.lo[..self.n]
    }
    fn hi(&self) -> &[i64] {
        &self.hi[..self.n]
    }
    fn ld(&self) -> &[i64] {
        &self.ld[..self.n.saturating_sub(1)]
    }
}

/// Bumped whenever an array is created or destroyed, so the per-thread
/// shape cache below never answers for a handle that changed meaning.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// (generation, handle, type, ndim) of the last array a data call used.
    static LAST_SHAPE: Cell<Option<(u64, Handle, ElemType, usize)>> = const { Cell::new(None) };
}

fn arrays_changed() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
}

/// Type and number of dimensions of `g` (cached per thread).
fn shape(call: &'static str, g: Handle) -> GaResult<(ElemType, usize)> {
    let gen = GENERATION.load(Ordering::Acquire);
    if let Some((cg, ch, t, n)) = LAST_SHAPE.with(|c| c.get()) {
        if cg == gen && ch == g {
            return Ok((t, n));
        }
    }
    let (t, dims) = inquire(call, g)?;
    LAST_SHAPE.with(|c| c.set(Some((gen, g, t, dims.len()))));
    Ok((t, dims.len()))
}

fn xfer<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    ld: *const I,
) -> GaResult<Xfer> {
    let g = resolve(g);
    let (ty, n) = shape(call, g)?;
    let mut x = Xfer {
        g,
        esize: ty.size(),
        n,
        lo: [0; MAX_DIM],
        hi: [0; MAX_DIM],
        ld: [0; MAX_DIM],
        len: 0,
    };
    if !ptr::ints_into(lo, &mut x.lo[..n]) {
        return err(call, "lo is NULL");
    }
    if !ptr::ints_into(hi, &mut x.hi[..n]) {
        return err(call, "hi is NULL");
    }
    // A NULL ld means a contiguous buffer shaped like the patch.
    if ld.is_null() {
        for d in 1..n {
            x.ld[d - 1] = x.hi[d] - x.lo[d] + 1;
        }
    } else {
        ptr::ints_into(ld, &mut x.ld[..n.saturating_sub(1)]);
    }
    let m = n.saturating_sub(1);
    x.len = span(call, g, &x.lo[..n], &x.hi[..n], &mut x.ld[..m], x.esize)?;
    Ok(x)
}

fn buf<'a>(call: &'static str, p: *const c_void, len: usize) -> GaResult<&'a [u8]> {
    ptr::bytes(p, len).ok_or_else(|| GaError::new(call, "the buffer is NULL"))
}

fn buf_mut<'a>(call: &'static str, p: *mut c_void, len: usize) -> GaResult<&'a mut [u8]> {
    ptr::bytes_mut(p, len).ok_or_else(|| GaError::new(call, "the buffer is NULL"))
}

fn text(p: *const c_char) -> String {
    ptr::c_str(p).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Start, stop, identity.

/// Starts GA (collective over the compute ranks); returns nothing, ends
/// the job with a message if GA cannot start (e.g. no `ga-server` rank).
#[no_mangle]
pub extern "C" fn GA_Initialize() {
    run("GA_Initialize", core::initialize)
}

/// `GA_Initialize` for programs that pass their arguments; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Initialize_args(_argc: *mut c_int, _argv: *mut *mut *mut c_char) {
    run("GA_Initialize_args", core::initialize)
}

/// `GA_Initialize` with a memory limit (not enforced); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Initialize_ltd(_limit: usize) {
    run("GA_Initialize_ltd", core::initialize)
}

/// Same as `GA_Initialize`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Initialize() {
    run("NGA_Initialize", core::initialize)
}

/// Same as `GA_Initialize_ltd` (the limit is not enforced); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Initialize_ltd(_limit: usize) {
    run("NGA_Initialize_ltd", core::initialize)
}

/// Returns 1 if GA is initialised, else 0.
#[no_mangle]
pub extern "C" fn GA_Initialized() -> c_int {
    guard("GA_Initialized", 0, || core::initialized() as c_int)
}

/// Same as `GA_Initialized`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Initialized() -> c_int {
    GA_Initialized()
}

/// Ends GA: destroys every array (collective); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Terminate() {
    run("GA_Terminate", || {
        with_handles(|h| {
            h.pending.clear();
            h.alias.clear();
            h.names.clear();
        });
        ANY_ALIAS.store(false, Ordering::Release);
        arrays_changed();
        core::terminate()
    })
}

/// Same as `GA_Terminate`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Terminate() {
    GA_Terminate()
}

/// Returns this process's rank among the compute ranks (0-based).
#[no_mangle]
pub extern "C" fn GA_Nodeid() -> c_int {
    guard("GA_Nodeid", 0, core::pgroups::app_nodeid)
}

/// Same as `GA_Nodeid`; returns the rank.
#[no_mangle]
pub extern "C" fn NGA_Nodeid() -> c_int {
    GA_Nodeid()
}

/// Returns the number of compute ranks (data servers are not counted).
#[no_mangle]
pub extern "C" fn GA_Nnodes() -> c_int {
    guard("GA_Nnodes", 1, core::pgroups::app_nnodes)
}

/// Same as `GA_Nnodes`; returns the number of compute ranks.
#[no_mangle]
pub extern "C" fn NGA_Nnodes() -> c_int {
    GA_Nnodes()
}

// ---------------------------------------------------------------------------
// Cluster layout: the nodes (hosts) the compute ranks run on.

/// Compute ranks on node `node`, in rank order; an error names the call
/// when there is no such node.
fn node_ranks(call: &'static str, node: c_int) -> GaResult<Vec<c_int>> {
    let nodes = core::compute_nodes();
    let count = nodes.iter().max().map_or(0, |m| m + 1);
    if node < 0 || node >= count {
        return err(
            call,
            format!("node={node} is not a node (0..{})", count - 1),
        );
    }
    Ok((0..nodes.len() as c_int)
        .filter(|&p| nodes[p as usize] == node)
        .collect())
}

/// Returns the number of nodes (hosts) the compute ranks run on.
#[no_mangle]
pub extern "C" fn GA_Cluster_nnodes() -> c_int {
    run("GA_Cluster_nnodes", || {
        Ok(core::compute_nodes().iter().max().map_or(1, |m| m + 1))
    })
}

/// Returns the node this process runs on (0-based, nodes numbered in the
/// order of their lowest compute rank).
#[no_mangle]
pub extern "C" fn GA_Cluster_nodeid() -> c_int {
    run("GA_Cluster_nodeid", || {
        Ok(core::compute_nodes()
            .get(core::nodeid() as usize)
            .copied()
            .unwrap_or(0))
    })
}

/// Returns the number of compute ranks on node `node`; an invalid node
/// ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Cluster_nprocs(node: c_int) -> c_int {
    const CALL: &str = "GA_Cluster_nprocs";
    run(CALL, || Ok(node_ranks(CALL, node)?.len() as c_int))
}

/// Returns the compute rank of the `loc`-th process (0-based, in rank
/// order) on node `node`; an invalid node or position ends the job
/// through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Cluster_procid(node: c_int, loc: c_int) -> c_int {
    const CALL: &str = "GA_Cluster_procid";
    run(CALL, || {
        let ranks = node_ranks(CALL, node)?;
        usize::try_from(loc)
            .ok()
            .and_then(|l| ranks.get(l).copied())
            .ok_or_else(|| {
                GaError::new(
                    CALL,
                    format!("loc={loc}: node {node} has {} processes", ranks.len()),
                )
            })
    })
}

/// Returns the node compute rank `proc` runs on; an invalid rank ends the
/// job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Cluster_proc_nodeid(proc_: c_int) -> c_int {
    const CALL: &str = "GA_Cluster_proc_nodeid";
    run(CALL, || {
        let nodes = core::compute_nodes();
        usize::try_from(proc_)
            .ok()
            .and_then(|p| nodes.get(p).copied())
            .ok_or_else(|| {
                GaError::new(
                    CALL,
                    format!(
                        "proc={proc_} is not a process (0..{})",
                        nodes.len() as i64 - 1
                    ),
                )
            })
    })
}

/// Returns the compute ranks' MPI communicator (use it instead of
/// `MPI_COMM_WORLD`, which also holds the data servers).
#[no_mangle]
pub extern "C" fn GA_MPI_Comm() -> RawComm {
    core::compute_comm().raw()
}

/// Returns the communicator of the default group: the compute ranks.
#[no_mangle]
pub extern "C" fn GA_MPI_Comm_pgroup_default() -> RawComm {
    core::compute_comm().raw()
}

/// Returns 0: arrays are not allocated from MA.
#[no_mangle]
pub extern "C" fn GA_Uses_ma() -> c_int {
    0
}

/// Same as `GA_Uses_ma`; returns 0.
#[no_mangle]
pub extern "C" fn NGA_Uses_ma() -> c_int {
    0
}

/// Returns 0: this is the C API.
#[no_mangle]
pub extern "C" fn GA_Uses_fapi() -> c_int {
    0
}

/// Returns wall-clock seconds from an arbitrary origin.
#[no_mangle]
pub extern "C" fn GA_Wtime() -> c_double {
    guard("GA_Wtime", 0.0, core::wtime)
}

/// Same as `GA_Wtime`; returns seconds.
#[no_mangle]
pub extern "C" fn NGA_Wtime() -> c_double {
    GA_Wtime()
}

/// Prints `"<rank>: message code"` and ends the whole job; never returns.
#[no_mangle]
pub extern "C" fn GA_Error(msg: *const c_char, code: c_int) {
    let m = text(msg);
    core::abort(&m, code)
}

/// Same as `GA_Error`; never returns.
#[no_mangle]
pub extern "C" fn NGA_Error(msg: *const c_char, code: c_int) {
    GA_Error(msg, code)
}

// ---------------------------------------------------------------------------
// Synchronisation and collectives.

/// Completes all operations, then a barrier of the compute ranks; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Sync() {
    run("GA_Sync", core::pgroups::app_sync)
}

/// Same as `GA_Sync`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Sync() {
    GA_Sync()
}

/// `GA_Sync` (every process takes part); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Mask_sync(_first: c_int, _last: c_int) {
    run("GA_Mask_sync", core::sync)
}

/// Same as `GA_Mask_sync`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Mask_sync(_first: c_int, _last: c_int) {
    run("NGA_Mask_sync", core::sync)
}

/// Waits until this process's operations since `GA_Init_fence` completed; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Fence() {
    run("GA_Fence", core::fence)
}

/// Same as `GA_Fence`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Fence() {
    GA_Fence()
}

/// Starts tracking operations for `GA_Fence`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Init_fence() {
    guard("GA_Init_fence", (), core::init_fence)
}

/// Same as `GA_Init_fence`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Init_fence() {
    GA_Init_fence()
}

/// Broadcasts `len` bytes from compute rank `root` (collective); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Brdcst(buf: *mut c_void, len: c_int, root: c_int) {
    const CALL: &str = "GA_Brdcst";
    run(CALL, || {
        if len < 0 || root < 0 || root >= core::pgroups::app_nnodes() {
            return err(CALL, format!("len={len}, root={root}: bad length or root"));
        }
        let b = buf_mut(CALL, buf, len as usize)?;
        core::pgroups::app_brdcst(b, root).map_err(relabel(CALL))
    })
}

fn op_text(call: &'static str, op: *const c_char) -> GaResult<String> {
    ptr::c_str(op).ok_or_else(|| GaError::new(call, "op is NULL"))
}

fn typed<'a, T>(call: &'static str, x: *mut T, n: c_int) -> GaResult<&'a mut [T]> {
    if n < 0 {
        return err(call, format!("n={n} is negative"));
    }
    ptr::typed_mut(x, n as usize).ok_or_else(|| GaError::new(call, "x is NULL"))
}

/// Element-wise reduction of `n` doubles with a TCGMSG op ("+", "*",
/// "max", "min", "absmax", "absmin"), result everywhere; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Dgop(x: *mut c_double, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Dgop";
    run(CALL, || {
        core::pgroups::app_gop(CALL, typed(CALL, x, n)?, &op_text(CALL, op)?, false)
    })
}

/// Same as `GA_Dgop`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Dgop(x: *mut c_double, n: c_int, op: *const c_char) {
    GA_Dgop(x, n, op)
}

/// Element-wise reduction of `n` floats; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Fgop(x: *mut c_float, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Fgop";
    run(CALL, || {
        core::pgroups::app_gop(CALL, typed(CALL, x, n)?, &op_text(CALL, op)?, false)
    })
}

/// Element-wise reduction of `n` ints (ops also "or"); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Igop(x: *mut c_int, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Igop";
    run(CALL, || {
        core::pgroups::app_gop(CALL, typed(CALL, x, n)?, &op_text(CALL, op)?, true)
    })
}

/// Same as `GA_Igop`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Igop(x: *mut c_int, n: c_int, op: *const c_char) {
    GA_Igop(x, n, op)
}

/// Element-wise reduction of `n` longs; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Lgop(x: *mut c_long, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Lgop";
    run(CALL, || {
        core::pgroups::app_gop(CALL, typed(CALL, x, n)?, &op_text(CALL, op)?, true)
    })
}

/// Element-wise reduction of `n` long longs; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Llgop(x: *mut c_longlong, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Llgop";
    run(CALL, || {
        core::pgroups::app_gop(CALL, typed(CALL, x, n)?, &op_text(CALL, op)?, true)
    })
}

/// A complex sum over the compute ranks: the values as pairs of reals.
fn complex_sum<T: Copy>(
    call: &'static str,
    x: *mut T,
    n: c_int,
    op: *const c_char,
    parts: impl Fn(T) -> [f64; 2],
    join: impl Fn([f64; 2]) -> T,
) -> GaResult<()> {
    let x = typed(call, x, n)?;
    let o = op_text(call, op)?;
    if o != "+" {
        return err(
            call,
            format!("op \"{o}\": complex values are only summed (\"+\")"),
        );
    }
    let mut flat: Vec<f64> = x.iter().flat_map(|&v| parts(v)).collect();
    core::pgroups::app_gop(call, &mut flat, "+", false)?;
    for (v, p) in x.iter_mut().zip(flat.chunks_exact(2)) {
        *v = join([p[0], p[1]]);
    }
    Ok(())
}

/// Element-wise sum of `n` double complex values over the compute ranks,
/// result everywhere; `op` must be "+" (anything else ends the job
/// through `GA_Error`). Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Zgop(x: *mut C64, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Zgop";
    run(CALL, || {
        complex_sum(CALL, x, n, op, |v| [v.re, v.im], |[re, im]| C64 { re, im })
    })
}

/// `GA_Zgop` for single complex values (summed in double precision);
/// returns nothing.
#[no_mangle]
pub extern "C" fn GA_Cgop(x: *mut C32, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Cgop";
    run(CALL, || {
        complex_sum(
            CALL,
            x,
            n,
            op,
            |v| [v.re.into(), v.im.into()],
            |[re, im]| C32 {
                re: re as f32,
                im: im as f32,
            },
        )
    })
}

// ---------------------------------------------------------------------------
// Creating and destroying arrays.

fn check_dims<I: CIndex>(call: &'static str, ndim: c_int, dims: *const I) -> GaResult<Vec<i64>> {
    if ndim < 1 || ndim as usize > MAX_DIM {
        return err(call, format!("ndim={ndim} must be 1..{MAX_DIM}"));
    }
    let d = ints(call, "dims", dims, ndim as usize)?;
    if let Some(bad) = d.iter().position(|&x| x < 1) {
        return err(call, format!("dims[{bad}]={} must be at least 1", d[bad]));
    }
    Ok(d)
}

/// Makes the array; 0 (after a message on stderr) when the core cannot.
fn make(
    call: &'static str,
    code: i32,
    dims: &[i64],
    name: &str,
    dist: &Distribution,
) -> GaResult<Handle> {
    let ty = type_of(call, code)?;
    core::check_size(call, ty, dims, name)?;
    match core::create(call, ty, dims, name, dist) {
        Ok(g) => {
            arrays_changed();
            Ok(g)
        }
        Err(e) => {
            eprintln!("{call}: cannot create array '{name}': {}", e.message);
            Ok(0)
        }
    }
}

fn create<I: CIndex>(
    call: &'static str,
    ty: c_int,
    ndim: c_int,
    dims: *const I,
    name: *const c_char,
    chunk: *const I,
) -> c_int {
    run(call, || {
        let d = check_dims(call, ndim, dims)?;
        let dist = match ptr::ints_opt(chunk, d.len()) {
            Some(c) if c.iter().any(|&x| x > 0) => Distribution::Chunk(c),
            _ => Distribution::Default,
        };
        make(call, ty, &d, &text(name), &dist)
    })
}

/// Creates an array (collective). `chunk` NULL or entries <= 0 = GA's
/// default blocking. Returns the handle, or 0 if it cannot be created;
/// bad arguments end the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Create(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    chunk: *const c_int,
) -> c_int {
    create("NGA_Create", ty, ndim, dims, name, chunk)
}

/// `NGA_Create` with 64-bit dimensions and chunk sizes; returns the
/// handle, or 0 if the array cannot be created.
#[no_mangle]
pub extern "C" fn NGA_Create64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    name: *const c_char,
    chunk: *const i64,
) -> c_int {
    create("NGA_Create64", ty, ndim, dims, name, chunk)
}

pub(crate) fn irregular<I: CIndex>(
    call: &'static str,
    ndim: usize,
    block: *const I,
    map: *const I,
    dims: &[i64],
) -> GaResult<Distribution> {
    let b = ints(call, "block", block, ndim)?;
    for (d, (&nb, &ext)) in b.iter().zip(dims).enumerate() {
        if nb < 1 || nb > ext {
            return err(call, format!("block[{d}]={nb} must be 1..{ext}"));
        }
    }
    let total = b.iter().try_fold(0usize, |t, &x| t.checked_add(x as usize));
    let Some(total) = total else {
        return err(call, format!("block {b:?} has too many blocks"));
    };
    let m = ints(call, "map", map, total)?;
    let mut at = 0usize;
    for (d, &nb) in b.iter().enumerate() {
        let starts = &m[at..at + nb as usize];
        if starts[0] != 0
            || starts.windows(2).any(|w| w[0] >= w[1])
            || starts.iter().any(|&s| s >= dims[d])
        {
            return err(
                call,
                format!(
                    "map for dimension {d} {starts:?} must start at 0 and increase within 0..{}",
                    dims[d]
                ),
            );
        }
        at += nb as usize;
    }
    Ok(Distribution::Irregular { block: b, map: m })
}

fn create_irreg<I: CIndex>(
    call: &'static str,
    ty: c_int,
    ndim: c_int,
    dims: *const I,
    name: *const c_char,
    block: *const I,
    map: *const I,
) -> c_int {
    run(call, || {
        let d = check_dims(call, ndim, dims)?;
        let dist = irregular(call, d.len(), block, map, &d)?;
        make(call, ty, &d, &text(name), &dist)
    })
}

/// Creates an array with an irregular distribution: `block[d]` blocks
/// along dimension d, starting at the 0-based offsets in `map`
/// (collective). Returns the handle, or 0 if it cannot be created; bad
/// arguments end the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Create_irreg(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    block: *const c_int,
    map: *const c_int,
) -> c_int {
    create_irreg("NGA_Create_irreg", ty, ndim, dims, name, block, map)
}

/// `NGA_Create_irreg` with 64-bit dimensions, block counts and map;
/// returns the handle, or 0 if the array cannot be created.
#[no_mangle]
pub extern "C" fn NGA_Create_irreg64(
    ty: c_int,
    ndim: c_int,
    dims: *const i64,
    name: *const c_char,
    block: *const i64,
    map: *const i64,
) -> c_int {
    create_irreg("NGA_Create_irreg64", ty, ndim, dims, name, block, map)
}

/// Returns a new handle to describe with `GA_Set_*` and then `GA_Allocate`.
#[no_mangle]
pub extern "C" fn GA_Create_handle() -> c_int {
    run("GA_Create_handle", || {
        let g = NEXT_PENDING.fetch_sub(1, Ordering::Relaxed);
        with_handles(|h| h.pending.insert(g, Pending::default()));
        Ok(g)
    })
}

/// Same as `GA_Create_handle`; returns the new handle.
#[no_mangle]
pub extern "C" fn NGA_Create_handle() -> c_int {
    GA_Create_handle()
}

fn with_pending<R>(
    call: &'static str,
    g: c_int,
    f: impl FnOnce(&mut Pending) -> GaResult<R>,
) -> GaResult<R> {
    with_handles(|h| match h.pending.get_mut(&g) {
        Some(p) => f(p),
        None => err(
            call,
            format!("handle {g} is not a handle from GA_Create_handle awaiting GA_Allocate"),
        ),
    })
}

/// `GA_Set_pgroup` on a handle awaiting `GA_Allocate`: the array will be
/// made on group `grp`, of which this process must be a member.
pub(crate) fn set_pending_pgroup(call: &'static str, g: c_int, grp: c_int) -> GaResult<()> {
    core::pgroups::group_nnodes(call, grp)?;
    core::pgroups::group_nodeid(call, grp)?;
    with_pending(call, g, |p| {
        p.pgroup = Some(grp);
        Ok(())
    })
}

/// GA_Set_ghosts on a handle awaiting GA_Allocate: `width` of the
/// array's number of dimensions (read by `read`), each 0..=dims[d].
pub(crate) fn set_pending_ghosts(
    call: &'static str,
    g: c_int,
    read: impl FnOnce(usize) -> GaResult<Vec<i64>>,
) -> GaResult<()> {
    with_pending(call, g, |p| {
        if p.dims.is_empty() {
            return err(call, "call GA_Set_data first");
        }
        let w = read(p.dims.len())?;
        if let Some(d) = (0..w.len()).find(|&d| w[d] < 0 || w[d] > p.dims[d]) {
            return err(
                call,
                format!("width[{d}]={} must be 0..{}", w[d], p.dims[d]),
            );
        }
        p.width = Some(w);
        Ok(())
    })
}

/// A block-cyclic distribution on a handle awaiting GA_Allocate: `read`
/// gets the array's number of dimensions and gives the block sizes and
/// the process grid, if any.
pub(crate) fn set_pending_cyclic(
    call: &'static str,
    g: c_int,
    read: impl FnOnce(usize) -> GaResult<(Vec<i64>, Option<Vec<i64>>)>,
) -> GaResult<()> {
    with_pending(call, g, |p| {
        if p.dims.is_empty() {
            return err(call, "call GA_Set_data first");
        }
        let (block, grid) = read(p.dims.len())?;
        if let Some(d) = block.iter().position(|&b| b < 1) {
            return err(
                call,
                format!("block size {} in dimension {d} must be positive", block[d]),
            );
        }
        if let Some(d) = grid.as_ref().and_then(|g| g.iter().position(|&x| x < 1)) {
            return err(call, format!("process grid entry {d} must be positive"));
        }
        p.cyclic = Some((block, grid));
        Ok(())
    })
}

fn set_data<I: CIndex>(call: &'static str, g: c_int, ndim: c_int, dims: *const I, ty: c_int) {
    run(call, || {
        let d = check_dims(call, ndim, dims)?;
        type_of(call, ty)?;
        with_pending(call, g, |p| {
            p.dims = d;
            p.code = Some(ty);
            Ok(())
        })
    })
}

/// Sets the shape and type of a handle from `GA_Create_handle`; returns
/// nothing; a bad argument ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Set_data(g: c_int, ndim: c_int, dims: *const c_int, ty: c_int) {
    set_data("GA_Set_data", g, ndim, dims, ty)
}

/// Same as `GA_Set_data`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_data(g: c_int, ndim: c_int, dims: *const c_int, ty: c_int) {
    set_data("NGA_Set_data", g, ndim, dims, ty)
}

/// `GA_Set_data` with 64-bit dimensions; returns nothing, and fails as `GA_Set_data` does.
#[no_mangle]
pub extern "C" fn GA_Set_data64(g: c_int, ndim: c_int, dims: *const i64, ty: c_int) {
    set_data("GA_Set_data64", g, ndim, dims, ty)
}

/// Same as `GA_Set_data64`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_data64(g: c_int, ndim: c_int, dims: *const i64, ty: c_int) {
    set_data("NGA_Set_data64", g, ndim, dims, ty)
}

/// Names an array not yet allocated; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_array_name(g: c_int, name: *const c_char) {
    const CALL: &str = "GA_Set_array_name";
    run(CALL, || {
        let n = text(name);
        with_pending(CALL, g, |p| {
            p.name = n;
            Ok(())
        })
    })
}

/// Same as `GA_Set_array_name`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_array_name(g: c_int, name: *const c_char) {
    GA_Set_array_name(g, name)
}

fn set_chunk<I: CIndex>(call: &'static str, g: c_int, chunk: *const I) {
    run(call, || {
        with_pending(call, g, |p| {
            if p.dims.is_empty() {
                return err(call, "call GA_Set_data first");
            }
            p.chunk = ptr::ints_opt(chunk, p.dims.len());
            Ok(())
        })
    })
}

/// Sets minimum block sizes (after `GA_Set_data`); returns nothing; a
/// handle not awaiting `GA_Allocate` ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Set_chunk(g: c_int, chunk: *const c_int) {
    set_chunk("GA_Set_chunk", g, chunk)
}

/// Same as `GA_Set_chunk`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_chunk(g: c_int, chunk: *const c_int) {
    set_chunk("NGA_Set_chunk", g, chunk)
}

/// `GA_Set_chunk` with 64-bit block sizes; returns nothing, and fails as `GA_Set_chunk` does.
#[no_mangle]
pub extern "C" fn GA_Set_chunk64(g: c_int, chunk: *const i64) {
    set_chunk("GA_Set_chunk64", g, chunk)
}

fn set_irreg_distr<I: CIndex>(call: &'static str, g: c_int, map: *const I, block: *const I) {
    run(call, || {
        let dims = with_pending(call, g, |p| Ok(p.dims.clone()))?;
        if dims.is_empty() {
            return err(call, "call GA_Set_data first");
        }
        let Distribution::Irregular { block, map } =
            irregular(call, dims.len(), block, map, &dims)?
        else {
            return err(call, "internal error");
        };
        with_pending(call, g, |p| {
            p.irregular = Some((block, map));
            Ok(())
        })
    })
}

/// Sets an irregular distribution (after `GA_Set_data`): `map` of block
/// starts, `block[d]` blocks per dimension; returns nothing; a bad map
/// ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Set_irreg_distr(g: c_int, map: *const c_int, block: *const c_int) {
    set_irreg_distr("GA_Set_irreg_distr", g, map, block)
}

/// Same as `GA_Set_irreg_distr`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_irreg_distr(g: c_int, map: *const c_int, block: *const c_int) {
    set_irreg_distr("NGA_Set_irreg_distr", g, map, block)
}

/// `GA_Set_irreg_distr` with a 64-bit map and block counts; returns nothing, and fails as `GA_Set_irreg_distr` does.
#[no_mangle]
pub extern "C" fn GA_Set_irreg_distr64(g: c_int, map: *const i64, block: *const i64) {
    set_irreg_distr("GA_Set_irreg_distr64", g, map, block)
}

/// Same as `GA_Set_irreg_distr64`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_irreg_distr64(g: c_int, map: *const i64, block: *const i64) {
    set_irreg_distr("NGA_Set_irreg_distr64", g, map, block)
}

/// Allocates a described array (collective). Returns 1 on success, 0 if
/// the array cannot be created.
#[no_mangle]
pub extern "C" fn GA_Allocate(g: c_int) -> c_int {
    const CALL: &str = "GA_Allocate";
    run(CALL, || {
        let p = with_handles(|h| h.pending.remove(&g))
            .ok_or_else(|| GaError::new(CALL, format!("handle {g} is not awaiting GA_Allocate")))?;
        let Some(code) = p.code else {
            return err(
                CALL,
                format!("handle {g}: call GA_Set_data before GA_Allocate"),
            );
        };
        let dist = match (p.cyclic, p.irregular, p.chunk) {
            (Some((block, grid)), _, _) => Distribution::BlockCyclic { block, grid },
            (None, Some((block, map)), _) => Distribution::Irregular { block, map },
            (None, None, Some(c)) if c.iter().any(|&x| x > 0) => Distribution::Chunk(c),
            _ => Distribution::Default,
        };
        let grp = p.pgroup.unwrap_or_else(core::pgroups::default_group);
        let made = core::pgroups::on_group(grp, || match &p.width {
            Some(w) => {
                let ty = type_of(CALL, code)?;
                core::check_size(CALL, ty, &p.dims, &p.name)?;
                Ok(
                    match core::create_ghosts(CALL, ty, &p.dims, w, &p.name, &dist) {
                        Ok(h) => {
                            arrays_changed();
                            h
                        }
                        Err(e) => {
                            eprintln!("{CALL}: cannot create array '{}': {}", p.name, e.message);
                            0
                        }
                    },
                )
            }
            None => make(CALL, code, &p.dims, &p.name, &dist),
        })?;
        if made == 0 {
            return Ok(0);
        }
        with_handles(|h| h.alias.insert(g, made));
        ANY_ALIAS.store(true, Ordering::Release);
        Ok(1)
    })
}

/// Same as `GA_Allocate`; returns 1 on success, 0 on failure.
#[no_mangle]
pub extern "C" fn NGA_Allocate(g: c_int) -> c_int {
    GA_Allocate(g)
}

/// Creates an array like `g` (type, shape, distribution), named `name`
/// (collective). Returns the new handle, or 0 if it cannot be created.
#[no_mangle]
pub extern "C" fn GA_Duplicate(g: c_int, name: *const c_char) -> c_int {
    const CALL: &str = "GA_Duplicate";
    run(CALL, || {
        let src = resolve(g);
        inquire(CALL, src)?;
        match core::duplicate(src, &text(name)) {
            Ok(h) => {
                arrays_changed();
                Ok(h)
            }
            Err(e) => {
                eprintln!("{CALL}: cannot duplicate array {g}: {}", e.message);
                Ok(0)
            }
        }
    })
}

/// Same as `GA_Duplicate`; returns the new handle or 0.
#[no_mangle]
pub extern "C" fn NGA_Duplicate(g: c_int, name: *const c_char) -> c_int {
    GA_Duplicate(g, name)
}

/// Destroys an array (collective); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Destroy(g: c_int) {
    const CALL: &str = "GA_Destroy";
    run(CALL, || {
        let h = resolve(g);
        inquire(CALL, h)?;
        core::destroy(h).map_err(relabel(CALL))?;
        arrays_changed();
        with_handles(|t| {
            t.alias.remove(&g);
            t.names.remove(&h);
        });
        Ok(())
    })
}

/// Same as `GA_Destroy`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Destroy(g: c_int) {
    GA_Destroy(g)
}

/// Returns 1 if `g` is a live array, else 0.
#[no_mangle]
pub extern "C" fn GA_Valid_handle(g: c_int) -> c_int {
    guard("GA_Valid_handle", 0, || core::valid(resolve(g)) as c_int)
}

/// Same as `GA_Valid_handle`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Valid_handle(g: c_int) -> c_int {
    GA_Valid_handle(g)
}

/// Returns 1 if `g` is a live array, else 0 (as `GA_Valid_handle`).
#[no_mangle]
pub extern "C" fn GA_Verify_handle(g: c_int) -> c_int {
    guard("GA_Verify_handle", 0, || core::valid(resolve(g)) as c_int)
}

/// Same as `GA_Verify_handle`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Verify_handle(g: c_int) -> c_int {
    guard("NGA_Verify_handle", 0, || core::valid(resolve(g)) as c_int)
}

/// Returns nothing if `g` is a live array; otherwise ends the job through
/// `GA_Error` with `string` (the caller's context) in the message.
#[no_mangle]
pub extern "C" fn GA_Check_handle(g: c_int, string: *const c_char) {
    const CALL: &str = "GA_Check_handle";
    run(CALL, || {
        if core::valid(resolve(g)) {
            Ok(())
        } else {
            err(CALL, format!("{}: invalid array handle {g}", text(string)))
        }
    })
}

fn nblock(call: &'static str, g: c_int, nb: *mut c_int) {
    run(call, || {
        let h = resolve(g);
        inquire(call, h)?;
        let (blocks, _) = core::block_grid(h).map_err(relabel(call))?;
        put_out(call, "nblock", nb, &blocks)
    })
}

/// Stores in `nblock[d]` the number of blocks the distribution cuts
/// dimension d into (C order, ndim entries); returns nothing. An invalid
/// handle or a NULL `nblock` ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Nblock(g: c_int, nb: *mut c_int) {
    nblock("GA_Nblock", g, nb)
}

/// Same as `GA_Nblock`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Nblock(g: c_int, nb: *mut c_int) {
    nblock("NGA_Nblock", g, nb)
}

/// Returns the array's name (owned by the library, valid until the array
/// is destroyed).
#[no_mangle]
pub extern "C" fn GA_Inquire_name(g: c_int) -> *const c_char {
    const CALL: &str = "GA_Inquire_name";
    run(CALL, || {
        let h = resolve(g);
        let name =
            core::name(h).map_err(|_| GaError::new(CALL, format!("invalid array handle {g}")))?;
        let c = CString::new(name.replace('\0', "")).unwrap_or_default();
        Ok(with_handles(|t| t.names.entry(h).or_insert(c).as_ptr()))
    })
}

/// Same as `GA_Inquire_name`; returns the name.
#[no_mangle]
pub extern "C" fn NGA_Inquire_name(g: c_int) -> *const c_char {
    GA_Inquire_name(g)
}

fn inquire_out<I: CIndex>(
    call: &'static str,
    g: c_int,
    ty: *mut c_int,
    ndim: *mut c_int,
    dims: *mut I,
) {
    run(call, || {
        let h = resolve(g);
        let (t, d) = inquire(call, h)?;
        if !dims.is_null() {
            put_out(call, "dims", dims, &d)?;
        }
        ptr::put_one(ty, t.c_code());
        ptr::put_one(ndim, d.len() as c_int);
        Ok(())
    })
}

/// Stores the array's type as its C code (as GA does: an array made with
/// `F_INT` reports `C_LONG`, `F_DBL` reports `C_DBL`), its number of
/// dimensions and its dimensions; returns nothing. An invalid handle, or
/// a dimension beyond `INT_MAX`, ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Inquire(g: c_int, ty: *mut c_int, ndim: *mut c_int, dims: *mut c_int) {
    inquire_out("NGA_Inquire", g, ty, ndim, dims)
}

/// `NGA_Inquire` with 64-bit dimensions; returns nothing, and fails as `NGA_Inquire` does.
#[no_mangle]
pub extern "C" fn NGA_Inquire64(g: c_int, ty: *mut c_int, ndim: *mut c_int, dims: *mut i64) {
    inquire_out("NGA_Inquire64", g, ty, ndim, dims)
}

/// Returns the number of dimensions of `g`.
#[no_mangle]
pub extern "C" fn GA_Ndim(g: c_int) -> c_int {
    const CALL: &str = "GA_Ndim";
    run(CALL, || Ok(inquire(CALL, resolve(g))?.1.len() as c_int))
}

/// Same as `GA_Ndim`; returns the number of dimensions.
#[no_mangle]
pub extern "C" fn NGA_Ndim(g: c_int) -> c_int {
    GA_Ndim(g)
}

/// Returns the number of dimensions of `g` (as `GA_Ndim`); an invalid
/// handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Get_dimension(g: c_int) -> c_int {
    const CALL: &str = "GA_Get_dimension";
    run(CALL, || Ok(inquire(CALL, resolve(g))?.1.len() as c_int))
}

/// Same as `GA_Get_dimension`.
#[no_mangle]
pub extern "C" fn NGA_Get_dimension(g: c_int) -> c_int {
    GA_Get_dimension(g)
}

/// Returns 0: no array here is mirrored (mirrored arrays are not made). An
/// invalid handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Is_mirrored(g: c_int) -> c_int {
    const CALL: &str = "GA_Is_mirrored";
    run(CALL, || inquire(CALL, resolve(g)).map(|_| 0))
}

/// Same as `GA_Is_mirrored`.
#[no_mangle]
pub extern "C" fn NGA_Is_mirrored(g: c_int) -> c_int {
    GA_Is_mirrored(g)
}

/// Returns 0: no array here has a ScaLAPACK-style processor grid. An
/// invalid handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Uses_proc_grid(g: c_int) -> c_int {
    const CALL: &str = "GA_Uses_proc_grid";
    run(CALL, || inquire(CALL, resolve(g)).map(|_| 0))
}

/// Same as `GA_Uses_proc_grid`.
#[no_mangle]
pub extern "C" fn NGA_Uses_proc_grid(g: c_int) -> c_int {
    GA_Uses_proc_grid(g)
}

/// GA's debug flag (0 at first); it changes nothing here but is kept for
/// `GA_Get_debug`.
static DEBUG: AtomicI32 = AtomicI32::new(0);

/// Sets the debug flag; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_debug(flag: c_int) {
    DEBUG.store(flag, Ordering::Relaxed);
}

/// Same as `GA_Set_debug`.
#[no_mangle]
pub extern "C" fn NGA_Set_debug(flag: c_int) {
    GA_Set_debug(flag)
}

/// Returns the debug flag `GA_Set_debug` set (0 at first).
#[no_mangle]
pub extern "C" fn GA_Get_debug() -> c_int {
    DEBUG.load(Ordering::Relaxed)
}

/// Same as `GA_Get_debug`.
#[no_mangle]
pub extern "C" fn NGA_Get_debug() -> c_int {
    GA_Get_debug()
}

/// Returns 0 if the two arrays have the same shape and distribution, 1 if not.
#[no_mangle]
pub extern "C" fn GA_Compare_distr(a: c_int, b: c_int) -> c_int {
    const CALL: &str = "GA_Compare_distr";
    run(CALL, || {
        Ok(!ops::same_distribution(CALL, resolve(a), resolve(b))? as c_int)
    })
}

/// Same as `GA_Compare_distr`; returns 0 (same) or 1.
#[no_mangle]
pub extern "C" fn NGA_Compare_distr(a: c_int, b: c_int) -> c_int {
    GA_Compare_distr(a, b)
}

// ---------------------------------------------------------------------------
// Distribution queries.

fn distribution<I: CIndex>(call: &'static str, g: c_int, iproc: c_int, lo: *mut I, hi: *mut I) {
    run(call, || {
        let h = resolve(g);
        let (_, d) = inquire(call, h)?;
        // For a block-cyclic array iproc numbers a block, as in GA.
        let np = match core::cyclic_kind(h).map_err(relabel(call))? {
            (true, _) => {
                let (nb, _) = core::block_info(call, h)?;
                nb.iter().product::<i64>() as c_int
            }
            _ => core::array_nprocs(h).map_err(relabel(call))?,
        };
        if iproc < 0 || iproc >= np {
            return err(
                call,
                format!(
                    "iproc={iproc} is not a process of the array's group (0..{})",
                    np - 1
                ),
            );
        }
        let (l, u) = core::distribution(h, iproc)
            .map_err(relabel(call))?
            .unwrap_or((vec![-1; d.len()], vec![-2; d.len()]));
        put_out(call, "lo", lo, &l)?;
        put_out(call, "hi", hi, &u)
    })
}

/// Stores the block `iproc` owns in lo/hi (lo = -1, hi = -2 in every
/// dimension when it owns nothing); returns nothing. A bad handle or
/// process ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Distribution(g: c_int, iproc: c_int, lo: *mut c_int, hi: *mut c_int) {
    distribution("NGA_Distribution", g, iproc, lo, hi)
}

/// `NGA_Distribution` with 64-bit lo/hi; returns nothing, and fails as `NGA_Distribution` does.
#[no_mangle]
pub extern "C" fn NGA_Distribution64(g: c_int, iproc: c_int, lo: *mut i64, hi: *mut i64) {
    distribution("NGA_Distribution64", g, iproc, lo, hi)
}

fn locate<I: CIndex>(call: &'static str, g: c_int, subs: *const I) -> c_int {
    run(call, || {
        let h = resolve(g);
        let (_, d) = inquire(call, h)?;
        let s = ints(call, "subscript", subs, d.len())?;
        if s.iter().zip(&d).any(|(x, e)| *x < 0 || x >= e) {
            return Ok(-1);
        }
        core::locate(h, &s).map_err(relabel(call))
    })
}

/// Returns the process owning element `subs`, or -1 if it is outside the
/// array; an invalid handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Locate(g: c_int, subs: *const c_int) -> c_int {
    locate("NGA_Locate", g, subs)
}

/// `NGA_Locate` with a 64-bit subscript; returns the owner or -1, and fails as `NGA_Locate` does.
#[no_mangle]
pub extern "C" fn NGA_Locate64(g: c_int, subs: *const i64) -> c_int {
    locate("NGA_Locate64", g, subs)
}

fn locate_region<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    map: *mut I,
    procs: *mut c_int,
) -> c_int {
    run(call, || {
        let h = resolve(g);
        let (_, d) = inquire(call, h)?;
        let (l, u) = patch(call, d.len(), lo, hi)?;
        ops::patch::check_patch(call, h, &l, &u)?;
        let regions = core::locate_region(h, &l, &u).map_err(relabel(call))?;
        let mut m = Vec::with_capacity(regions.len() * 2 * d.len());
        let mut p = Vec::with_capacity(regions.len());
        for (owner, rlo, rhi) in &regions {
            m.extend_from_slice(rlo);
            m.extend_from_slice(rhi);
            p.push(*owner as i64);
        }
        put_out(call, "map", map, &m)?;
        put_out(call, "procs", procs, &p)?;
        Ok(regions.len() as c_int)
    })
}

/// Stores the owners of the patch lo..hi: in `map` 2·ndim ints per owner
/// (lo then hi of its part), in `procs` the owners; returns their number.
/// A patch outside the array ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Locate_region(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    map: *mut c_int,
    procs: *mut c_int,
) -> c_int {
    locate_region("NGA_Locate_region", g, lo, hi, map, procs)
}

/// `NGA_Locate_region` with 64-bit lo, hi and map (`procs` stays int);
/// returns the number of owners.
#[no_mangle]
pub extern "C" fn NGA_Locate_region64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    map: *mut i64,
    procs: *mut c_int,
) -> c_int {
    locate_region("NGA_Locate_region64", g, lo, hi, map, procs)
}

fn locate_nnodes<I: CIndex>(call: &'static str, g: c_int, lo: *const I, hi: *const I) -> c_int {
    run(call, || {
        let h = resolve(g);
        let (_, d) = inquire(call, h)?;
        let (l, u) = patch(call, d.len(), lo, hi)?;
        ops::patch::check_patch(call, h, &l, &u)?;
        Ok(core::locate_region(h, &l, &u).map_err(relabel(call))?.len() as c_int)
    })
}

/// Returns the number of processes owning part of the patch lo..hi; a
/// patch outside the array ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Locate_nnodes(g: c_int, lo: *const c_int, hi: *const c_int) -> c_int {
    locate_nnodes("NGA_Locate_nnodes", g, lo, hi)
}

/// `NGA_Locate_nnodes` with a 64-bit patch; returns the number of owners, and fails as `NGA_Locate_nnodes` does.
#[no_mangle]
pub extern "C" fn NGA_Locate_nnodes64(g: c_int, lo: *const i64, hi: *const i64) -> c_int {
    locate_nnodes("NGA_Locate_nnodes64", g, lo, hi)
}

// ---------------------------------------------------------------------------
// One-sided data movement.

fn put<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *const c_void,
    ld: *const I,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        core::put(x.g, x.lo(), x.hi(), buf_of(call, buf, x.len)?, x.ld()).map_err(relabel(call))
    })
}

/// Copies the user's buffer into the patch lo..hi (one-sided; the buffer
/// may be reused on return); returns nothing. A bad handle, patch, ld or
/// buffer ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Put(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
) {
    put("NGA_Put", g, lo, hi, buf, ld)
}

/// `NGA_Put` with a 64-bit patch and ld; returns nothing, and fails as `NGA_Put` does.
#[no_mangle]
pub extern "C" fn NGA_Put64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *const c_void,
    ld: *const i64,
) {
    put("NGA_Put64", g, lo, hi, buf, ld)
}

fn buf_of<'a>(call: &'static str, p: *const c_void, len: usize) -> GaResult<&'a [u8]> {
    buf(call, p, len)
}

fn get<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *mut c_void,
    ld: *const I,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        core::get(x.g, x.lo(), x.hi(), buf_mut(call, buf, x.len)?, x.ld()).map_err(relabel(call))
    })
}

/// Copies the patch lo..hi into the user's buffer; returns nothing. A bad
/// handle, patch, ld or buffer ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Get(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *mut c_void,
    ld: *const c_int,
) {
    get("NGA_Get", g, lo, hi, buf, ld)
}

/// `NGA_Get` with a 64-bit patch and ld; returns nothing, and fails as `NGA_Get` does.
#[no_mangle]
pub extern "C" fn NGA_Get64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *mut c_void,
    ld: *const i64,
) {
    get("NGA_Get64", g, lo, hi, buf, ld)
}

fn acc<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *const c_void,
    ld: *const I,
    alpha: *const c_void,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        let a = ptr::bytes(alpha, x.esize).ok_or_else(|| GaError::new(call, "alpha is NULL"))?;
        core::acc(x.g, x.lo(), x.hi(), buf_of(call, buf, x.len)?, x.ld(), a).map_err(relabel(call))
    })
}

/// Atomically adds `alpha`·buffer to the patch lo..hi (`alpha` of the
/// array's type); returns nothing. Bad arguments end the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Acc(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    alpha: *const c_void,
) {
    acc("NGA_Acc", g, lo, hi, buf, ld, alpha)
}

/// `NGA_Acc` with a 64-bit patch and ld; returns nothing, and fails as `NGA_Acc` does.
#[no_mangle]
pub extern "C" fn NGA_Acc64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *const c_void,
    ld: *const i64,
    alpha: *const c_void,
) {
    acc("NGA_Acc64", g, lo, hi, buf, ld, alpha)
}

fn read_inc<I: CIndex>(call: &'static str, g: c_int, subs: *const I, inc: c_long) -> c_long {
    run(call, || {
        let h = resolve(g);
        let (_, n) = shape(call, h)?;
        let mut s = [0i64; MAX_DIM];
        if !ptr::ints_into(subs, &mut s[..n]) {
            return err(call, "subscript is NULL");
        }
        // The core checks the subscript and the type.
        Ok(core::read_inc(h, &s[..n], inc).map_err(relabel(call))? as c_long)
    })
}

/// Atomically adds `inc` to the integer element `subs`; returns its old
/// value. A bad subscript or a non-integer array ends the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Read_inc(g: c_int, subs: *const c_int, inc: c_long) -> c_long {
    read_inc("NGA_Read_inc", g, subs, inc)
}

/// `NGA_Read_inc` with a 64-bit subscript; returns the old value, and fails as `NGA_Read_inc` does.
#[no_mangle]
pub extern "C" fn NGA_Read_inc64(g: c_int, subs: *const i64, inc: c_long) -> c_long {
    read_inc("NGA_Read_inc64", g, subs, inc)
}

/// The arguments of a scatter/gather: handle, element size, subscripts.
fn elements(
    call: &'static str,
    g: c_int,
    n: i64,
    subs: impl FnOnce(usize, usize) -> Option<Vec<Vec<i64>>>,
) -> GaResult<(Handle, usize, Vec<Vec<i64>>)> {
    let h = resolve(g);
    let (t, d) = inquire(call, h)?;
    let Ok(count) = usize::try_from(n) else {
        return err(call, format!("n={n} is negative"));
    };
    let s = subs(count, d.len()).ok_or_else(|| GaError::new(call, "a subscript array is NULL"))?;
    for sub in &s {
        if sub.iter().zip(&d).any(|(x, e)| *x < 0 || x >= e) {
            let zeros = vec![0; d.len()];
            let top: Vec<i64> = d.iter().map(|e| e - 1).collect();
            return err(
                call,
                format!(
                    "subscript {} outside g_a '{}' {}",
                    fmt_patch(sub, sub),
                    ops::patch::name(h),
                    fmt_patch(&zeros, &top)
                ),
            );
        }
    }
    Ok((h, t.size(), s))
}

/// Bytes of `count` values of `esize` bytes, or an error naming the call.
fn values_len(call: &'static str, count: usize, esize: usize) -> GaResult<usize> {
    count
        .checked_mul(esize)
        .ok_or_else(|| GaError::new(call, format!("{count} values are too many")))
}

/// Where scatter/gather subscripts come from: `n` pointers to ndim
/// indices each, or ndim·n indices one after another.
#[derive(Clone, Copy)]
enum Subs<I> {
    Array(*const *const I),
    Flat(*const I),
}

impl<I: CIndex> Subs<I> {
    fn read(self, n: usize, ndim: usize) -> Option<Vec<Vec<i64>>> {
        match self {
            Subs::Array(p) => ptr::subs_array(p, n, ndim),
            Subs::Flat(p) => ptr::subs_flat(p, n, ndim),
        }
    }
}

fn scatter<I: CIndex>(call: &'static str, g: c_int, v: *const c_void, subs: Subs<I>, n: i64) {
    run(call, || {
        let (h, es, s) = elements(call, g, n, |n, nd| subs.read(n, nd))?;
        core::scatter(h, buf(call, v, values_len(call, s.len(), es)?)?, &s).map_err(relabel(call))
    })
}

fn gather<I: CIndex>(call: &'static str, g: c_int, v: *mut c_void, subs: Subs<I>, n: i64) {
    run(call, || {
        let (h, es, s) = elements(call, g, n, |n, nd| subs.read(n, nd))?;
        core::gather(h, buf_mut(call, v, values_len(call, s.len(), es)?)?, &s)
            .map_err(relabel(call))
    })
}

fn scatter_acc<I: CIndex>(
    call: &'static str,
    g: c_int,
    v: *const c_void,
    subs: Subs<I>,
    n: i64,
    alpha: *const c_void,
) {
    run(call, || {
        let (h, es, s) = elements(call, g, n, |n, nd| subs.read(n, nd))?;
        let a = ptr::bytes(alpha, es).ok_or_else(|| GaError::new(call, "alpha is NULL"))?;
        core::scatter_acc(h, buf(call, v, values_len(call, s.len(), es)?)?, &s, a)
            .map_err(relabel(call))
    })
}

/// Stores `v[i]` at element `subs[i]` for i < n; returns nothing. A
/// subscript outside the array ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Scatter(g: c_int, v: *const c_void, subs: *const *const c_int, n: c_int) {
    scatter("NGA_Scatter", g, v, Subs::Array(subs), n.into())
}

/// `NGA_Scatter` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Scatter` does.
#[no_mangle]
pub extern "C" fn NGA_Scatter64(g: c_int, v: *const c_void, subs: *const *const i64, n: i64) {
    scatter("NGA_Scatter64", g, v, Subs::Array(subs), n)
}

/// `NGA_Scatter` with the subscripts stored one after another; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scatter_flat(g: c_int, v: *const c_void, subs: *const c_int, n: c_int) {
    scatter("NGA_Scatter_flat", g, v, Subs::Flat(subs), n.into())
}

/// `NGA_Scatter_flat` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Scatter_flat` does.
#[no_mangle]
pub extern "C" fn NGA_Scatter_flat64(g: c_int, v: *const c_void, subs: *const i64, n: i64) {
    scatter("NGA_Scatter_flat64", g, v, Subs::Flat(subs), n)
}

/// Loads element `subs[i]` into `v[i]` for i < n; returns nothing. A
/// subscript outside the array ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Gather(g: c_int, v: *mut c_void, subs: *const *const c_int, n: c_int) {
    gather("NGA_Gather", g, v, Subs::Array(subs), n.into())
}

/// `NGA_Gather` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Gather` does.
#[no_mangle]
pub extern "C" fn NGA_Gather64(g: c_int, v: *mut c_void, subs: *const *const i64, n: i64) {
    gather("NGA_Gather64", g, v, Subs::Array(subs), n)
}

/// `NGA_Gather` with the subscripts stored one after another; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Gather_flat(g: c_int, v: *mut c_void, subs: *const c_int, n: c_int) {
    gather("NGA_Gather_flat", g, v, Subs::Flat(subs), n.into())
}

/// `NGA_Gather_flat` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Gather_flat` does.
#[no_mangle]
pub extern "C" fn NGA_Gather_flat64(g: c_int, v: *mut c_void, subs: *const i64, n: i64) {
    gather("NGA_Gather_flat64", g, v, Subs::Flat(subs), n)
}

/// Atomically adds `alpha`·`v[i]` to element `subs[i]`; returns nothing.
/// Bad arguments end the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Scatter_acc(
    g: c_int,
    v: *const c_void,
    subs: *const *const c_int,
    n: c_int,
    alpha: *const c_void,
) {
    scatter_acc("NGA_Scatter_acc", g, v, Subs::Array(subs), n.into(), alpha)
}

/// `NGA_Scatter_acc` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Scatter_acc` does.
#[no_mangle]
pub extern "C" fn NGA_Scatter_acc64(
    g: c_int,
    v: *const c_void,
    subs: *const *const i64,
    n: i64,
    alpha: *const c_void,
) {
    scatter_acc("NGA_Scatter_acc64", g, v, Subs::Array(subs), n, alpha)
}

/// `NGA_Scatter_acc` with flat subscripts; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scatter_acc_flat(
    g: c_int,
    v: *const c_void,
    subs: *const c_int,
    n: c_int,
    alpha: *const c_void,
) {
    scatter_acc(
        "NGA_Scatter_acc_flat",
        g,
        v,
        Subs::Flat(subs),
        n.into(),
        alpha,
    )
}

/// `NGA_Scatter_acc_flat` with 64-bit subscripts and count; returns nothing, and fails as `NGA_Scatter_acc_flat` does.
#[no_mangle]
pub extern "C" fn NGA_Scatter_acc_flat64(
    g: c_int,
    v: *const c_void,
    subs: *const i64,
    n: i64,
    alpha: *const c_void,
) {
    scatter_acc("NGA_Scatter_acc_flat64", g, v, Subs::Flat(subs), n, alpha)
}

// ---------------------------------------------------------------------------
// Non-blocking operations.

fn store_nb(call: &'static str, nbh: *mut NbHdl, id: i64) -> GaResult<()> {
    if !ptr::put_one(nbh, id as NbHdl) {
        return err(call, "nbhandle is NULL");
    }
    Ok(())
}

fn nb_put<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *const c_void,
    ld: *const I,
    nbh: *mut NbHdl,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        let id = core::nb_put(x.g, x.lo(), x.hi(), buf_of(call, buf, x.len)?, x.ld())
            .map_err(relabel(call))?;
        store_nb(call, nbh, id)
    })
}

/// Starts a put; the buffer may be reused at once. Stores the operation's
/// handle in `*nbh`; returns nothing. Bad arguments end the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_NbPut(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    nbh: *mut NbHdl,
) {
    nb_put("NGA_NbPut", g, lo, hi, buf, ld, nbh)
}

/// `NGA_NbPut` with a 64-bit patch and ld; returns nothing, and fails as `NGA_NbPut` does.
#[no_mangle]
pub extern "C" fn NGA_NbPut64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *const c_void,
    ld: *const i64,
    nbh: *mut NbHdl,
) {
    nb_put("NGA_NbPut64", g, lo, hi, buf, ld, nbh)
}

fn nb_get<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *mut c_void,
    ld: *const I,
    nbh: *mut NbHdl,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        let id =
            ptr::nb_get_into(x.g, x.lo(), x.hi(), buf, x.len, x.ld()).map_err(relabel(call))?;
        store_nb(call, nbh, id)
    })
}

/// Starts a get into the buffer (valid until NGA_NbWait); stores the
/// operation's handle in `*nbh`; returns nothing. Bad arguments end the
/// job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_NbGet(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *mut c_void,
    ld: *const c_int,
    nbh: *mut NbHdl,
) {
    nb_get("NGA_NbGet", g, lo, hi, buf, ld, nbh)
}

/// `NGA_NbGet` with a 64-bit patch and ld; returns nothing, and fails as `NGA_NbGet` does.
#[no_mangle]
pub extern "C" fn NGA_NbGet64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *mut c_void,
    ld: *const i64,
    nbh: *mut NbHdl,
) {
    nb_get("NGA_NbGet64", g, lo, hi, buf, ld, nbh)
}

#[allow(clippy::too_many_arguments)]
fn nb_acc<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    buf: *const c_void,
    ld: *const I,
    alpha: *const c_void,
    nbh: *mut NbHdl,
) {
    run(call, || {
        let x = xfer(call, g, lo, hi, ld)?;
        let a = ptr::bytes(alpha, x.esize).ok_or_else(|| GaError::new(call, "alpha is NULL"))?;
        let id = core::nb_acc(x.g, x.lo(), x.hi(), buf_of(call, buf, x.len)?, x.ld(), a)
            .map_err(relabel(call))?;
        store_nb(call, nbh, id)
    })
}

/// Starts an accumulate; the buffer may be reused at once. Stores the
/// operation's handle in `*nbh`; returns nothing. Bad arguments end the
/// job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_NbAcc(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    alpha: *const c_void,
    nbh: *mut NbHdl,
) {
    nb_acc("NGA_NbAcc", g, lo, hi, buf, ld, alpha, nbh)
}

/// `NGA_NbAcc` with a 64-bit patch and ld; returns nothing, and fails as `NGA_NbAcc` does.
#[no_mangle]
pub extern "C" fn NGA_NbAcc64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    buf: *const c_void,
    ld: *const i64,
    alpha: *const c_void,
    nbh: *mut NbHdl,
) {
    nb_acc("NGA_NbAcc64", g, lo, hi, buf, ld, alpha, nbh)
}

/// Waits for a non-blocking operation to complete locally; returns
/// nothing; a NULL or unknown handle ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_NbWait(nbh: *mut NbHdl) {
    const CALL: &str = "NGA_NbWait";
    run(CALL, || {
        let id = ptr::read_one(nbh).ok_or_else(|| GaError::new(CALL, "nbhandle is NULL"))?;
        core::nb_wait(id).map_err(relabel(CALL))
    })
}

/// Returns 1 once the non-blocking operation has completed, 0 while it is
/// still pending (as GA 5.8 does; older GA releases had it the other way).
#[no_mangle]
pub extern "C" fn NGA_NbTest(nbh: *mut NbHdl) -> c_int {
    const CALL: &str = "NGA_NbTest";
    run(CALL, || {
        let id = ptr::read_one(nbh).ok_or_else(|| GaError::new(CALL, "nbhandle is NULL"))?;
        let done = core::nb_test(id).map_err(relabel(CALL))?;
        Ok(c_int::from(done))
    })
}

// ---------------------------------------------------------------------------
// Direct access to the local block.

fn access<I: CIndex>(
    call: &'static str,
    g: c_int,
    lo: *const I,
    hi: *const I,
    p: *mut c_void,
    ld: *mut I,
) {
    run(call, || {
        let h = resolve(g);
        let (t, d) = inquire(call, h)?;
        let (l, u) = patch(call, d.len(), lo, hi)?;
        ops::patch::check_patch(call, h, &l, &u)?;
        let Some((base, blo, bhi, bld)) = core::access(h).map_err(relabel(call))? else {
            return err(
                call,
                format!(
                    "process {} owns no part of g_a '{}'",
                    core::nodeid(),
                    ops::patch::name(h)
                ),
            );
        };
        let inside = (0..d.len()).all(|k| blo[k] <= l[k] && u[k] <= bhi[k]);
        if !inside {
            core::release(h);
            return err(
                call,
                format!(
                    "patch {} is not inside this process's block {} of g_a '{}'",
                    fmt_patch(&l, &u),
                    fmt_patch(&blo, &bhi),
                    ops::patch::name(h)
                ),
            );
        }
        let mut off: i64 = 0;
        let mut stride: i64 = 1;
        for k in (0..d.len()).rev() {
            off += (l[k] - blo[k]) * stride;
            if k > 0 {
                stride *= bld[k - 1];
            }
        }
        if d.len() > 1 {
            if let Err(e) = put_out(call, "ld", ld, &bld) {
                core::release(h);
                return Err(e);
            }
        }
        if !ptr::put_ptr(p, ptr::offset_ptr(base, off as usize * t.size())) {
            core::release(h);
            return err(call, "ptr is NULL");
        }
        Ok(())
    })
}

/// Stores in `*(void **)ptr` the address of element lo of this process's
/// block and in `ld` the block's leading dimensions; lo..hi must lie in
/// the block. Returns nothing; end with NGA_Release or NGA_Release_update.
/// A patch outside this process's block ends the job through `GA_Error`.
#[no_mangle]
pub extern "C" fn NGA_Access(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    p: *mut c_void,
    ld: *mut c_int,
) {
    access("NGA_Access", g, lo, hi, p, ld)
}

/// `NGA_Access` with a 64-bit patch and ld; returns nothing, and fails as `NGA_Access` does.
#[no_mangle]
pub extern "C" fn NGA_Access64(
    g: c_int,
    lo: *const i64,
    hi: *const i64,
    p: *mut c_void,
    ld: *mut i64,
) {
    access("NGA_Access64", g, lo, hi, p, ld)
}

/// Ends an access that did not change the data; returns nothing (never
/// fails).
#[no_mangle]
pub extern "C" fn NGA_Release(g: c_int, _lo: *const c_int, _hi: *const c_int) {
    guard("NGA_Release", (), || core::release(resolve(g)))
}

/// `NGA_Release` with a 64-bit patch; returns nothing (never fails).
#[no_mangle]
pub extern "C" fn NGA_Release64(g: c_int, _lo: *const i64, _hi: *const i64) {
    guard("NGA_Release64", (), || core::release(resolve(g)))
}

/// Ends an access that changed the data; returns nothing (never fails).
#[no_mangle]
pub extern "C" fn NGA_Release_update(g: c_int, _lo: *const c_int, _hi: *const c_int) {
    guard("NGA_Release_update", (), || {
        core::release_update(resolve(g))
    })
}

/// `NGA_Release_update` with a 64-bit patch; returns nothing (never fails).
#[no_mangle]
pub extern "C" fn NGA_Release_update64(g: c_int, _lo: *const i64, _hi: *const i64) {
    guard("NGA_Release_update64", (), || {
        core::release_update(resolve(g))
    })
}

// ---------------------------------------------------------------------------
// Mutexes.

/// Creates `n` mutexes numbered 0..n-1 (collective); returns 1 on success.
#[no_mangle]
pub extern "C" fn GA_Create_mutexes(n: c_int) -> c_int {
    const CALL: &str = "GA_Create_mutexes";
    run(CALL, || {
        if n < 0 {
            return err(CALL, format!("number={n} is negative"));
        }
        core::create_mutexes(n).map_err(relabel(CALL))?;
        Ok(1)
    })
}

/// Same as `GA_Create_mutexes`; returns 1 on success.
#[no_mangle]
pub extern "C" fn NGA_Create_mutexes(n: c_int) -> c_int {
    GA_Create_mutexes(n)
}

/// Destroys the mutexes (collective); returns 1 on success.
#[no_mangle]
pub extern "C" fn GA_Destroy_mutexes() -> c_int {
    const CALL: &str = "GA_Destroy_mutexes";
    run(CALL, || {
        core::destroy_mutexes().map_err(relabel(CALL))?;
        Ok(1)
    })
}

/// Same as `GA_Destroy_mutexes`; returns 1 on success.
#[no_mangle]
pub extern "C" fn NGA_Destroy_mutexes() -> c_int {
    GA_Destroy_mutexes()
}

/// Takes mutex `m` (waits for it); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Lock(m: c_int) {
    const CALL: &str = "GA_Lock";
    run(CALL, || core::lock(m).map_err(relabel(CALL)))
}

/// Same as `GA_Lock`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Lock(m: c_int) {
    GA_Lock(m)
}

/// Releases mutex `m`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Unlock(m: c_int) {
    const CALL: &str = "GA_Unlock";
    run(CALL, || core::unlock(m).map_err(relabel(CALL)))
}

/// Same as `GA_Unlock`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Unlock(m: c_int) {
    GA_Unlock(m)
}

// ---------------------------------------------------------------------------
// Memory queries (arrays live in the data servers' shared memory).

/// Records a limit of `limit` bytes of GA memory for this process (see
/// `GA_Memory_avail`); returns nothing. The limit is reported, not
/// enforced: arrays live in the data servers' shared memory.
#[no_mangle]
pub extern "C" fn GA_Set_memory_limit(limit: usize) {
    guard("GA_Set_memory_limit", (), || ops::memory::set_limit(limit))
}

/// Same as `GA_Set_memory_limit`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_memory_limit(limit: usize) {
    GA_Set_memory_limit(limit)
}

/// Returns 1 once `GA_Set_memory_limit` was called, else 0.
#[no_mangle]
pub extern "C" fn GA_Memory_limited() -> c_int {
    guard("GA_Memory_limited", 0, || {
        ops::memory::limit().is_some() as c_int
    })
}

/// Same as `GA_Memory_limited`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Memory_limited() -> c_int {
    GA_Memory_limited()
}

/// Returns the bytes left under the limit (the limit less
/// `GA_Inquire_memory`), or `(size_t)-1` when no limit was set.
#[no_mangle]
pub extern "C" fn GA_Memory_avail() -> usize {
    guard("GA_Memory_avail", usize::MAX, || {
        ops::memory::avail().unwrap_or(usize::MAX)
    })
}

/// Returns the bytes of global array data this process holds (its blocks
/// of every live array).
#[no_mangle]
pub extern "C" fn GA_Inquire_memory() -> usize {
    guard("GA_Inquire_memory", 0, ops::memory::in_use)
}

/// Same as `GA_Inquire_memory`; returns bytes.
#[no_mangle]
pub extern "C" fn NGA_Inquire_memory() -> usize {
    GA_Inquire_memory()
}

/// Same as `GA_Memory_avail`; returns bytes or `(size_t)-1`.
#[no_mangle]
pub extern "C" fn NGA_Memory_avail() -> usize {
    GA_Memory_avail()
}
