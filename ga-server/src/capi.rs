//! The Global Arrays C ABI (`ga.h`, `ga-mpi.h`): `GA_*` and `NGA_*`, with
//! GA's C conventions: 0-based, row-major indices, `hi` inclusive, `ld`
//! with ndim−1 entries, `C_*` and `F_*` type codes, handles non-zero.
//!
//! Errors are GA's: a bad argument (invalid handle, patch out of bounds,
//! wrong type, NULL buffer) ends the job through `GA_Error` with a message
//! naming the call and the patch. Creation calls return 0 when the array
//! cannot be made. No panic crosses into C: a panic also ends the job
//! with a message naming the call.

use crate::capi_ptr as ptr;
use crate::core::{self, fmt_patch, Distribution, ElemType, GaError, GaResult, Handle};
use crate::ops;
use shim_core::ffi_guard::guard;
use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

/// `ga_nbhdl_t` (GA's `Integer`).
pub type NbHdl = c_long;

/// GA's largest number of dimensions.
const MAX_DIM: usize = 7;

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

fn type_of(call: &'static str, code: c_int) -> GaResult<ElemType> {
    ElemType::from_code(code).ok_or_else(|| GaError::new(call, format!("unknown type code {code}")))
}

// ---------------------------------------------------------------------------
// Argument conversion.

fn ints(call: &'static str, what: &str, p: *const c_int, n: usize) -> GaResult<Vec<i64>> {
    ptr::ints(p, n).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
}

/// lo and hi of a patch of `g` (ndim entries each).
fn patch(
    call: &'static str,
    ndim: usize,
    lo: *const c_int,
    hi: *const c_int,
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

fn xfer(
    call: &'static str,
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    ld: *const c_int,
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
    guard("GA_Nodeid", 0, core::nodeid)
}

/// Same as `GA_Nodeid`; returns the rank.
#[no_mangle]
pub extern "C" fn NGA_Nodeid() -> c_int {
    GA_Nodeid()
}

/// Returns the number of compute ranks (data servers are not counted).
#[no_mangle]
pub extern "C" fn GA_Nnodes() -> c_int {
    guard("GA_Nnodes", 1, core::nnodes)
}

/// Same as `GA_Nnodes`; returns the number of compute ranks.
#[no_mangle]
pub extern "C" fn NGA_Nnodes() -> c_int {
    GA_Nnodes()
}

/// Returns the compute ranks' MPI communicator (use it instead of
/// `MPI_COMM_WORLD`, which also holds the data servers).
#[no_mangle]
pub extern "C" fn GA_MPI_Comm() -> mpi_sys::MPI_Comm {
    core::compute_comm_raw()
}

/// Returns the communicator of the default group: the compute ranks.
#[no_mangle]
pub extern "C" fn GA_MPI_Comm_pgroup_default() -> mpi_sys::MPI_Comm {
    core::compute_comm_raw()
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
    run("GA_Sync", core::sync)
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
        if len < 0 || root < 0 || root >= core::nnodes() {
            return err(CALL, format!("len={len}, root={root}: bad length or root"));
        }
        let b = buf_mut(CALL, buf, len as usize)?;
        core::brdcst(b, root).map_err(relabel(CALL))
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
        core::gop_f64(typed(CALL, x, n)?, &op_text(CALL, op)?).map_err(relabel(CALL))
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
        core::gop_f32(typed(CALL, x, n)?, &op_text(CALL, op)?).map_err(relabel(CALL))
    })
}

/// Element-wise reduction of `n` ints (ops also "or"); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Igop(x: *mut c_int, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Igop";
    run(CALL, || {
        core::gop_i32(typed(CALL, x, n)?, &op_text(CALL, op)?).map_err(relabel(CALL))
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
        core::gop_i64(typed(CALL, x, n)?, &op_text(CALL, op)?).map_err(relabel(CALL))
    })
}

/// Element-wise reduction of `n` long longs; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Llgop(x: *mut c_longlong, n: c_int, op: *const c_char) {
    const CALL: &str = "GA_Llgop";
    run(CALL, || {
        core::gop_i64(typed(CALL, x, n)?, &op_text(CALL, op)?).map_err(relabel(CALL))
    })
}

// ---------------------------------------------------------------------------
// Creating and destroying arrays.

fn check_dims(call: &'static str, ndim: c_int, dims: *const c_int) -> GaResult<Vec<i64>> {
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
    match core::create(ty, dims, name, dist) {
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

/// Creates an array (collective). `chunk` NULL or entries <= 0 = GA's
/// default blocking. Returns the handle, or 0 if it cannot be created.
#[no_mangle]
pub extern "C" fn NGA_Create(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    chunk: *const c_int,
) -> c_int {
    const CALL: &str = "NGA_Create";
    run(CALL, || {
        let d = check_dims(CALL, ndim, dims)?;
        let dist = match ptr::ints_opt(chunk, d.len()) {
            Some(c) if c.iter().any(|&x| x > 0) => Distribution::Chunk(c),
            _ => Distribution::Default,
        };
        make(CALL, ty, &d, &text(name), &dist)
    })
}

fn irregular(
    call: &'static str,
    ndim: usize,
    block: *const c_int,
    map: *const c_int,
    dims: &[i64],
) -> GaResult<Distribution> {
    let b = ints(call, "block", block, ndim)?;
    for (d, (&nb, &ext)) in b.iter().zip(dims).enumerate() {
        if nb < 1 || nb > ext {
            return err(call, format!("block[{d}]={nb} must be 1..{ext}"));
        }
    }
    let total: i64 = b.iter().sum();
    let m = ints(call, "map", map, total as usize)?;
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

/// Creates an array with an irregular distribution: `block[d]` blocks
/// along dimension d, starting at the 0-based offsets in `map`
/// (collective). Returns the handle, or 0 if it cannot be created.
#[no_mangle]
pub extern "C" fn NGA_Create_irreg(
    ty: c_int,
    ndim: c_int,
    dims: *const c_int,
    name: *const c_char,
    block: *const c_int,
    map: *const c_int,
) -> c_int {
    const CALL: &str = "NGA_Create_irreg";
    run(CALL, || {
        let d = check_dims(CALL, ndim, dims)?;
        let dist = irregular(CALL, d.len(), block, map, &d)?;
        make(CALL, ty, &d, &text(name), &dist)
    })
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

/// Sets the shape and type of a handle from `GA_Create_handle`; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_data(g: c_int, ndim: c_int, dims: *const c_int, ty: c_int) {
    const CALL: &str = "GA_Set_data";
    run(CALL, || {
        let d = check_dims(CALL, ndim, dims)?;
        type_of(CALL, ty)?;
        with_pending(CALL, g, |p| {
            p.dims = d;
            p.code = Some(ty);
            Ok(())
        })
    })
}

/// Same as `GA_Set_data`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_data(g: c_int, ndim: c_int, dims: *const c_int, ty: c_int) {
    GA_Set_data(g, ndim, dims, ty)
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

/// Sets minimum block sizes (after `GA_Set_data`); returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_chunk(g: c_int, chunk: *const c_int) {
    const CALL: &str = "GA_Set_chunk";
    run(CALL, || {
        with_pending(CALL, g, |p| {
            if p.dims.is_empty() {
                return err(CALL, "call GA_Set_data first");
            }
            p.chunk = ptr::ints_opt(chunk, p.dims.len());
            Ok(())
        })
    })
}

/// Same as `GA_Set_chunk`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_chunk(g: c_int, chunk: *const c_int) {
    GA_Set_chunk(g, chunk)
}

/// Sets an irregular distribution (after `GA_Set_data`): `map` of block
/// starts, `block[d]` blocks per dimension; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_irreg_distr(g: c_int, map: *const c_int, block: *const c_int) {
    const CALL: &str = "GA_Set_irreg_distr";
    run(CALL, || {
        let dims = with_pending(CALL, g, |p| Ok(p.dims.clone()))?;
        if dims.is_empty() {
            return err(CALL, "call GA_Set_data first");
        }
        let Distribution::Irregular { block, map } =
            irregular(CALL, dims.len(), block, map, &dims)?
        else {
            return err(CALL, "internal error");
        };
        with_pending(CALL, g, |p| {
            p.irregular = Some((block, map));
            Ok(())
        })
    })
}

/// Same as `GA_Set_irreg_distr`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Set_irreg_distr(g: c_int, map: *const c_int, block: *const c_int) {
    GA_Set_irreg_distr(g, map, block)
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
        let dist = match (p.irregular, p.chunk) {
            (Some((block, map)), _) => Distribution::Irregular { block, map },
            (None, Some(c)) if c.iter().any(|&x| x > 0) => Distribution::Chunk(c),
            _ => Distribution::Default,
        };
        let made = make(CALL, code, &p.dims, &p.name, &dist)?;
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

/// Stores the array's type as its C code (as GA does: an array made with
/// `F_INT` reports `C_LONG`, `F_DBL` reports `C_DBL`), its number of
/// dimensions and its dimensions; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Inquire(g: c_int, ty: *mut c_int, ndim: *mut c_int, dims: *mut c_int) {
    const CALL: &str = "NGA_Inquire";
    run(CALL, || {
        let h = resolve(g);
        let (t, d) = inquire(CALL, h)?;
        ptr::put_one(ty, t.c_code());
        ptr::put_one(ndim, d.len() as c_int);
        if !dims.is_null() {
            ptr::put_ints(dims, &d);
        }
        Ok(())
    })
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

/// Stores the block `iproc` owns in lo/hi (lo = -1, hi = -2 in every
/// dimension when it owns nothing); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Distribution(g: c_int, iproc: c_int, lo: *mut c_int, hi: *mut c_int) {
    const CALL: &str = "NGA_Distribution";
    run(CALL, || {
        let h = resolve(g);
        let (_, d) = inquire(CALL, h)?;
        if iproc < 0 || iproc >= core::nnodes() {
            return err(
                CALL,
                format!("iproc={iproc} is not a process (0..{})", core::nnodes() - 1),
            );
        }
        let (l, u) = core::distribution(h, iproc)
            .map_err(relabel(CALL))?
            .unwrap_or((vec![-1; d.len()], vec![-2; d.len()]));
        if !ptr::put_ints(lo, &l) || !ptr::put_ints(hi, &u) {
            return err(CALL, "lo or hi is NULL");
        }
        Ok(())
    })
}

/// Returns the process owning element `subs`, or -1 if it is outside the array.
#[no_mangle]
pub extern "C" fn NGA_Locate(g: c_int, subs: *const c_int) -> c_int {
    const CALL: &str = "NGA_Locate";
    run(CALL, || {
        let h = resolve(g);
        let (_, d) = inquire(CALL, h)?;
        let s = ints(CALL, "subscript", subs, d.len())?;
        if s.iter().zip(&d).any(|(x, e)| *x < 0 || x >= e) {
            return Ok(-1);
        }
        core::locate(h, &s).map_err(relabel(CALL))
    })
}

/// Stores the owners of the patch lo..hi: in `map` 2·ndim ints per owner
/// (lo then hi of its part), in `procs` the owners; returns their number.
#[no_mangle]
pub extern "C" fn NGA_Locate_region(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    map: *mut c_int,
    procs: *mut c_int,
) -> c_int {
    const CALL: &str = "NGA_Locate_region";
    run(CALL, || {
        let h = resolve(g);
        let (_, d) = inquire(CALL, h)?;
        let (l, u) = patch(CALL, d.len(), lo, hi)?;
        ops::patch::check_patch(CALL, h, &l, &u)?;
        let regions = core::locate_region(h, &l, &u).map_err(relabel(CALL))?;
        let mut m = Vec::with_capacity(regions.len() * 2 * d.len());
        let mut p = Vec::with_capacity(regions.len());
        for (owner, rlo, rhi) in &regions {
            m.extend_from_slice(rlo);
            m.extend_from_slice(rhi);
            p.push(*owner as i64);
        }
        if !ptr::put_ints(map, &m) || !ptr::put_ints(procs, &p) {
            return err(CALL, "map or procs is NULL");
        }
        Ok(regions.len() as c_int)
    })
}

/// Returns the number of processes owning part of the patch lo..hi.
#[no_mangle]
pub extern "C" fn NGA_Locate_nnodes(g: c_int, lo: *const c_int, hi: *const c_int) -> c_int {
    const CALL: &str = "NGA_Locate_nnodes";
    run(CALL, || {
        let h = resolve(g);
        let (_, d) = inquire(CALL, h)?;
        let (l, u) = patch(CALL, d.len(), lo, hi)?;
        ops::patch::check_patch(CALL, h, &l, &u)?;
        Ok(core::locate_region(h, &l, &u).map_err(relabel(CALL))?.len() as c_int)
    })
}

// ---------------------------------------------------------------------------
// One-sided data movement.

/// Copies the user's buffer into the patch lo..hi (one-sided; the buffer
/// may be reused on return); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Put(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
) {
    const CALL: &str = "NGA_Put";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        core::put(x.g, x.lo(), x.hi(), buf_of(CALL, buf, x.len)?, x.ld()).map_err(relabel(CALL))
    })
}

fn buf_of<'a>(call: &'static str, p: *const c_void, len: usize) -> GaResult<&'a [u8]> {
    buf(call, p, len)
}

/// Copies the patch lo..hi into the user's buffer; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Get(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *mut c_void,
    ld: *const c_int,
) {
    const CALL: &str = "NGA_Get";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        core::get(x.g, x.lo(), x.hi(), buf_mut(CALL, buf, x.len)?, x.ld()).map_err(relabel(CALL))
    })
}

/// Atomically adds `alpha`·buffer to the patch lo..hi (`alpha` of the
/// array's type); returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Acc(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    alpha: *const c_void,
) {
    const CALL: &str = "NGA_Acc";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        let a = ptr::bytes(alpha, x.esize).ok_or_else(|| GaError::new(CALL, "alpha is NULL"))?;
        core::acc(x.g, x.lo(), x.hi(), buf_of(CALL, buf, x.len)?, x.ld(), a).map_err(relabel(CALL))
    })
}

/// Atomically adds `inc` to the integer element `subs`; returns its old value.
#[no_mangle]
pub extern "C" fn NGA_Read_inc(g: c_int, subs: *const c_int, inc: c_long) -> c_long {
    const CALL: &str = "NGA_Read_inc";
    run(CALL, || {
        let h = resolve(g);
        let (_, n) = shape(CALL, h)?;
        let mut s = [0i64; MAX_DIM];
        if !ptr::ints_into(subs, &mut s[..n]) {
            return err(CALL, "subscript is NULL");
        }
        // The core checks the subscript and the type.
        Ok(core::read_inc(h, &s[..n], inc).map_err(relabel(CALL))? as c_long)
    })
}

/// The arguments of a scatter/gather: handle, element size, subscripts.
fn elements(
    call: &'static str,
    g: c_int,
    n: c_int,
    subs: impl FnOnce(usize, usize) -> Option<Vec<Vec<i64>>>,
) -> GaResult<(Handle, usize, Vec<Vec<i64>>)> {
    let h = resolve(g);
    let (t, d) = inquire(call, h)?;
    if n < 0 {
        return err(call, format!("n={n} is negative"));
    }
    let s =
        subs(n as usize, d.len()).ok_or_else(|| GaError::new(call, "a subscript array is NULL"))?;
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

/// Stores `v[i]` at element `subs[i]` for i < n; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scatter(g: c_int, v: *const c_void, subs: *const *const c_int, n: c_int) {
    const CALL: &str = "NGA_Scatter";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_array(subs, n, nd))?;
        core::scatter(h, buf(CALL, v, s.len() * es)?, &s).map_err(relabel(CALL))
    })
}

/// `NGA_Scatter` with the subscripts stored one after another; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scatter_flat(g: c_int, v: *const c_void, subs: *const c_int, n: c_int) {
    const CALL: &str = "NGA_Scatter_flat";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_flat(subs, n, nd))?;
        core::scatter(h, buf(CALL, v, s.len() * es)?, &s).map_err(relabel(CALL))
    })
}

/// Loads element `subs[i]` into `v[i]` for i < n; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Gather(g: c_int, v: *mut c_void, subs: *const *const c_int, n: c_int) {
    const CALL: &str = "NGA_Gather";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_array(subs, n, nd))?;
        core::gather(h, buf_mut(CALL, v, s.len() * es)?, &s).map_err(relabel(CALL))
    })
}

/// `NGA_Gather` with the subscripts stored one after another; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Gather_flat(g: c_int, v: *mut c_void, subs: *const c_int, n: c_int) {
    const CALL: &str = "NGA_Gather_flat";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_flat(subs, n, nd))?;
        core::gather(h, buf_mut(CALL, v, s.len() * es)?, &s).map_err(relabel(CALL))
    })
}

/// Atomically adds `alpha`·`v[i]` to element `subs[i]`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Scatter_acc(
    g: c_int,
    v: *const c_void,
    subs: *const *const c_int,
    n: c_int,
    alpha: *const c_void,
) {
    const CALL: &str = "NGA_Scatter_acc";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_array(subs, n, nd))?;
        let a = ptr::bytes(alpha, es).ok_or_else(|| GaError::new(CALL, "alpha is NULL"))?;
        core::scatter_acc(h, buf(CALL, v, s.len() * es)?, &s, a).map_err(relabel(CALL))
    })
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
    const CALL: &str = "NGA_Scatter_acc_flat";
    run(CALL, || {
        let (h, es, s) = elements(CALL, g, n, |n, nd| ptr::subs_flat(subs, n, nd))?;
        let a = ptr::bytes(alpha, es).ok_or_else(|| GaError::new(CALL, "alpha is NULL"))?;
        core::scatter_acc(h, buf(CALL, v, s.len() * es)?, &s, a).map_err(relabel(CALL))
    })
}

// ---------------------------------------------------------------------------
// Non-blocking operations.

fn store_nb(call: &'static str, nbh: *mut NbHdl, id: i64) -> GaResult<()> {
    if !ptr::put_one(nbh, id as NbHdl) {
        return err(call, "nbhandle is NULL");
    }
    Ok(())
}

/// Starts a put; the buffer may be reused at once. Stores the operation's
/// handle in `*nbh`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_NbPut(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *const c_void,
    ld: *const c_int,
    nbh: *mut NbHdl,
) {
    const CALL: &str = "NGA_NbPut";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        let id = core::nb_put(x.g, x.lo(), x.hi(), buf_of(CALL, buf, x.len)?, x.ld())
            .map_err(relabel(CALL))?;
        store_nb(CALL, nbh, id)
    })
}

/// Starts a get into the buffer (valid until NGA_NbWait); stores the
/// operation's handle in `*nbh`; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_NbGet(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    buf: *mut c_void,
    ld: *const c_int,
    nbh: *mut NbHdl,
) {
    const CALL: &str = "NGA_NbGet";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        let id =
            ptr::nb_get_into(x.g, x.lo(), x.hi(), buf, x.len, x.ld()).map_err(relabel(CALL))?;
        store_nb(CALL, nbh, id)
    })
}

/// Starts an accumulate; the buffer may be reused at once. Stores the
/// operation's handle in `*nbh`; returns nothing.
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
    const CALL: &str = "NGA_NbAcc";
    run(CALL, || {
        let x = xfer(CALL, g, lo, hi, ld)?;
        let a = ptr::bytes(alpha, x.esize).ok_or_else(|| GaError::new(CALL, "alpha is NULL"))?;
        let id = core::nb_acc(x.g, x.lo(), x.hi(), buf_of(CALL, buf, x.len)?, x.ld(), a)
            .map_err(relabel(CALL))?;
        store_nb(CALL, nbh, id)
    })
}

/// Waits for a non-blocking operation to complete locally; returns nothing.
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

/// Stores in `*(void **)ptr` the address of element lo of this process's
/// block and in `ld` the block's leading dimensions; lo..hi must lie in
/// the block. Returns nothing; end with NGA_Release or NGA_Release_update.
#[no_mangle]
pub extern "C" fn NGA_Access(
    g: c_int,
    lo: *const c_int,
    hi: *const c_int,
    p: *mut c_void,
    ld: *mut c_int,
) {
    const CALL: &str = "NGA_Access";
    run(CALL, || {
        let h = resolve(g);
        let (t, d) = inquire(CALL, h)?;
        let (l, u) = patch(CALL, d.len(), lo, hi)?;
        ops::patch::check_patch(CALL, h, &l, &u)?;
        let Some((base, blo, bhi, bld)) = core::access(h).map_err(relabel(CALL))? else {
            return err(
                CALL,
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
                CALL,
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
        if !ptr::put_ptr(p, ptr::offset_ptr(base, off as usize * t.size())) {
            return err(CALL, "ptr is NULL");
        }
        if d.len() > 1 && !ptr::put_ints(ld, &bld) {
            return err(CALL, "ld is NULL");
        }
        Ok(())
    })
}

/// Ends an access that did not change the data; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Release(g: c_int, _lo: *const c_int, _hi: *const c_int) {
    guard("NGA_Release", (), || core::release(resolve(g)))
}

/// Ends an access that changed the data; returns nothing.
#[no_mangle]
pub extern "C" fn NGA_Release_update(g: c_int, _lo: *const c_int, _hi: *const c_int) {
    guard("NGA_Release_update", (), || {
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

/// Accepted and ignored; returns nothing.
#[no_mangle]
pub extern "C" fn GA_Set_memory_limit(_limit: usize) {}

/// Returns 0: GA's memory is not limited.
#[no_mangle]
pub extern "C" fn GA_Memory_limited() -> c_int {
    0
}

/// Returns `(size_t)-1`: no limit, so no measure of what is left.
#[no_mangle]
pub extern "C" fn GA_Memory_avail() -> usize {
    usize::MAX
}
