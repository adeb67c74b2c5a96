//! The GA client core: everything the GA C, Fortran and Rust APIs share.
//!
//! Index convention: 0-based, C order (dimension 0 slowest, the last one
//! contiguous), `hi` inclusive, `ld` = ndim−1 leading dimensions in elements
//! of the user's buffer (`ld[i]` is the extent of dimension i+1 of the
//! buffer). Byte slices are sized by the caller.

mod types;

pub use types::{codes, fmt_patch, Distribution, ElemType, GaError, GaResult, Handle};

/// One owner's part of a patch: compute rank, lo, hi.
pub type Region = (i32, Vec<i64>, Vec<i64>);

/// A process's own block: pointer into the shared segment, lo, hi, ld.
pub type LocalBlock = (*mut u8, Vec<i64>, Vec<i64>, Vec<i64>);

fn not_yet(call: &'static str) -> GaError {
    GaError::new(call, "not yet available")
}

/// Starts GA (idempotent; collective over the compute ranks).
pub fn initialize() -> GaResult<()> {
    Err(not_yet("GA_Initialize"))
}

/// Ends GA: destroys every array and tells the servers (collective).
pub fn terminate() -> GaResult<()> {
    Err(not_yet("GA_Terminate"))
}

/// Whether GA is initialised.
pub fn initialized() -> bool {
    false
}

/// This process's rank among the compute ranks.
pub fn nodeid() -> i32 {
    0
}

/// Number of compute ranks.
pub fn nnodes() -> i32 {
    1
}

/// The compute ranks' communicator (for `GA_MPI_Comm`).
pub fn compute_comm_raw() -> mpi_sys::MPI_Comm {
    shim_core::mpi::Comm::world().raw()
}

/// `GA_Error`: prints `"<rank>: msg code"` and aborts the job.
pub fn abort(msg: &str, code: i32) -> ! {
    eprintln!("{}: {} {}", nodeid(), msg, code);
    shim_core::mpi::abort(
        shim_core::mpi::Comm::world(),
        if code == 0 { 1 } else { code },
    )
}

/// Creates an array (collective).
pub fn create(ty: ElemType, dims: &[i64], name: &str, dist: &Distribution) -> GaResult<Handle> {
    let _ = (ty, dims, name, dist);
    Err(not_yet("NGA_Create"))
}

/// Creates an array with the type, shape and distribution of `g` (collective).
pub fn duplicate(g: Handle, name: &str) -> GaResult<Handle> {
    let _ = (g, name);
    Err(not_yet("GA_Duplicate"))
}

/// Destroys an array (collective).
pub fn destroy(g: Handle) -> GaResult<()> {
    let _ = g;
    Err(not_yet("GA_Destroy"))
}

/// Whether `g` names a live array.
pub fn valid(g: Handle) -> bool {
    let _ = g;
    false
}

/// Type and dimensions of `g`.
pub fn inquire(g: Handle) -> GaResult<(ElemType, Vec<i64>)> {
    let _ = g;
    Err(not_yet("NGA_Inquire"))
}

/// Name of `g`.
pub fn name(g: Handle) -> GaResult<String> {
    let _ = g;
    Err(not_yet("GA_Inquire_name"))
}

/// The block compute rank `proc_` owns (lo, hi), `None` if it owns nothing.
pub fn distribution(g: Handle, proc_: i32) -> GaResult<Option<(Vec<i64>, Vec<i64>)>> {
    let _ = (g, proc_);
    Err(not_yet("NGA_Distribution"))
}

/// The compute rank owning element `subs`.
pub fn locate(g: Handle, subs: &[i64]) -> GaResult<i32> {
    let _ = (g, subs);
    Err(not_yet("NGA_Locate"))
}

/// The owners of the patch `lo..=hi` with the part each owns.
pub fn locate_region(g: Handle, lo: &[i64], hi: &[i64]) -> GaResult<Vec<Region>> {
    let _ = (g, lo, hi);
    Err(not_yet("NGA_Locate_region"))
}

/// Blocks per dimension and the concatenated block starts of `g`.
pub fn block_grid(g: Handle) -> GaResult<(Vec<i64>, Vec<i64>)> {
    let _ = g;
    Err(not_yet("GA_Get_block_info"))
}

/// Copies `buf` into the patch `lo..=hi`.
pub fn put(g: Handle, lo: &[i64], hi: &[i64], buf: &[u8], ld: &[i64]) -> GaResult<()> {
    let _ = (g, lo, hi, buf, ld);
    Err(not_yet("NGA_Put"))
}

/// Copies the patch `lo..=hi` into `buf`.
pub fn get(g: Handle, lo: &[i64], hi: &[i64], buf: &mut [u8], ld: &[i64]) -> GaResult<()> {
    let _ = (g, lo, hi, buf, ld);
    Err(not_yet("NGA_Get"))
}

/// Atomically adds `alpha·buf` to the patch `lo..=hi`.
pub fn acc(
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: &[u8],
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    let _ = (g, lo, hi, buf, ld, alpha);
    Err(not_yet("NGA_Acc"))
}

/// Atomically adds `inc` to element `subs`; returns its old value.
pub fn read_inc(g: Handle, subs: &[i64], inc: i64) -> GaResult<i64> {
    let _ = (g, subs, inc);
    Err(not_yet("NGA_Read_inc"))
}

/// Stores `vals[i]` at element `subs[i]`.
pub fn scatter(g: Handle, vals: &[u8], subs: &[Vec<i64>]) -> GaResult<()> {
    let _ = (g, vals, subs);
    Err(not_yet("NGA_Scatter"))
}

/// Loads element `subs[i]` into `vals[i]`.
pub fn gather(g: Handle, vals: &mut [u8], subs: &[Vec<i64>]) -> GaResult<()> {
    let _ = (g, vals, subs);
    Err(not_yet("NGA_Gather"))
}

/// Atomically adds `alpha·vals[i]` to element `subs[i]`.
pub fn scatter_acc(g: Handle, vals: &[u8], subs: &[Vec<i64>], alpha: &[u8]) -> GaResult<()> {
    let _ = (g, vals, subs, alpha);
    Err(not_yet("NGA_Scatter_acc"))
}

/// A non-blocking operation's handle (the C `ga_nbhdl_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NbHandle(pub i64);

/// Non-blocking put; `buf` may be reused as soon as this returns.
pub fn nb_put(g: Handle, lo: &[i64], hi: &[i64], buf: &[u8], ld: &[i64]) -> GaResult<i64> {
    let _ = (g, lo, hi, buf, ld);
    Err(not_yet("NGA_NbPut"))
}

/// Non-blocking get into `len` bytes at `buf`.
///
/// # Safety
/// `buf` must be valid for writes of `len` bytes until [`nb_wait`] returns
/// or [`nb_test`] returns `true` for the handle.
pub unsafe fn nb_get(
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: *mut u8,
    len: usize,
    ld: &[i64],
) -> GaResult<i64> {
    let _ = (g, lo, hi, buf, len, ld);
    Err(not_yet("NGA_NbGet"))
}

/// Non-blocking accumulate; `buf` may be reused as soon as this returns.
pub fn nb_acc(
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: &[u8],
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<i64> {
    let _ = (g, lo, hi, buf, ld, alpha);
    Err(not_yet("NGA_NbAcc"))
}

/// Waits for a non-blocking operation (local completion).
pub fn nb_wait(h: i64) -> GaResult<()> {
    let _ = h;
    Err(not_yet("NGA_NbWait"))
}

/// Whether a non-blocking operation completed.
pub fn nb_test(h: i64) -> GaResult<bool> {
    let _ = h;
    Err(not_yet("NGA_NbTest"))
}

/// This process's own block of `g`: pointer into the shared segment, its
/// lo/hi and leading dimensions (elements); `None` if it owns nothing.
pub fn access(g: Handle) -> GaResult<Option<LocalBlock>> {
    let _ = g;
    Err(not_yet("NGA_Access"))
}

/// Ends an access without changes.
pub fn release(g: Handle) {
    let _ = g;
}

/// Ends an access after changing the block.
pub fn release_update(g: Handle) {
    let _ = g;
}

/// Completes every operation, then a barrier of the compute ranks.
pub fn sync() -> GaResult<()> {
    Err(not_yet("GA_Sync"))
}

/// Waits until this process's operations since `init_fence` completed remotely.
pub fn fence() -> GaResult<()> {
    Err(not_yet("GA_Fence"))
}

/// Starts tracking operations for [`fence`].
pub fn init_fence() {}

/// Creates `n` mutexes (collective).
pub fn create_mutexes(n: i32) -> GaResult<()> {
    let _ = n;
    Err(not_yet("GA_Create_mutexes"))
}

/// Destroys the mutexes (collective).
pub fn destroy_mutexes() -> GaResult<()> {
    Err(not_yet("GA_Destroy_mutexes"))
}

/// Locks mutex `m`.
pub fn lock(m: i32) -> GaResult<()> {
    let _ = m;
    Err(not_yet("GA_Lock"))
}

/// Unlocks mutex `m`.
pub fn unlock(m: i32) -> GaResult<()> {
    let _ = m;
    Err(not_yet("GA_Unlock"))
}

/// Broadcasts `buf` from compute rank `root` (collective).
pub fn brdcst(buf: &mut [u8], root: i32) -> GaResult<()> {
    let _ = (buf, root);
    Err(not_yet("GA_Brdcst"))
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_f64(x: &mut [f64], op: &str) -> GaResult<()> {
    let _ = (x, op);
    Err(not_yet("GA_Dgop"))
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_f32(x: &mut [f32], op: &str) -> GaResult<()> {
    let _ = (x, op);
    Err(not_yet("GA_Fgop"))
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_i32(x: &mut [i32], op: &str) -> GaResult<()> {
    let _ = (x, op);
    Err(not_yet("GA_Igop"))
}

/// Element-wise reduction with a TCGMSG op string (collective).
pub fn gop_i64(x: &mut [i64], op: &str) -> GaResult<()> {
    let _ = (x, op);
    Err(not_yet("GA_Lgop"))
}

/// Wall-clock seconds.
pub fn wtime() -> f64 {
    shim_core::mpi::wtime()
}
