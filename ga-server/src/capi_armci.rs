//! The ARMCI C ABI of `armci.h` and `message.h`: start and stop, collective
//! and local memory, contiguous, strided and vector put/get/accumulate
//! (blocking and non-blocking), values, fences and barriers,
//! read-modify-write, mutexes, the topology queries and the `armci_msg_*`
//! collectives, all on the GA client (see [`crate::armci`]).
//!
//! Return codes: calls returning `int` return 0 on success (`ARMCI_Test`:
//! 0 = complete; `ARMCI_Initialized`, `ARMCI_Same_node`, `ARMCI_Uses_shm`:
//! 1 or 0). Bad input ends the job as ARMCI does, through `ARMCI_Error`
//! with a message naming the call and what was wrong: a process out of
//! range, an address outside `ARMCI_Malloc` memory, a NULL buffer with a
//! non-zero byte count, stride levels outside 0..=8, a negative count or
//! stride, an unknown accumulate or read-modify-write type, a mutex that
//! does not exist, a bad handle (NULL, or not set up by `ARMCI_INIT_HANDLE`
//! or a non-blocking call) given to `ARMCI_Wait` or `ARMCI_Test`.
//! Non-blocking transfers through a `ga-server` return with the transfer in
//! flight (the local buffer must stay untouched until it completed); those
//! on this node's shared memory, the value puts and transfers spanning
//! several owners complete before the call returns. No panic crosses into
//! C.

use crate::armci::{self, MAX_STRIDE_LEVELS};
use crate::capi_ptr as ptr;
use crate::core::{self, ElemType, GaError, GaResult};
use shim_core::ffi_guard::guard;
use std::ffi::{c_char, c_double, c_float, c_int, c_long, c_longlong, c_void};

/// ARMCI's non-blocking handle (`armci_hdl_t`).
#[repr(C)]
pub struct ArmciHdl {
    pub target: c_int,
    pub aggregate: c_int,
}

/// One entry of an I/O vector (`armci_giov_t`).
#[repr(C)]
pub struct ArmciGiov {
    pub src_ptr_array: *mut *mut c_void,
    pub dst_ptr_array: *mut *mut c_void,
    pub bytes: c_int,
    pub ptr_array_len: c_int,
}

/// Ends the job with ARMCI's error report: the message, the code.
pub(crate) fn fail(msg: &str, code: c_int) -> ! {
    core::abort(&format!("ARMCI Error: {msg}"), code)
}

/// Runs an entry point: the panic boundary, then the abort on error.
pub(crate) fn run<R>(call: &'static str, f: impl FnOnce() -> GaResult<R>) -> R {
    match guard(call, Err(GaError::new(call, "internal error")), f) {
        Ok(v) => v,
        Err(e) => fail(&e.to_string(), 1),
    }
}

/// Runs an entry point whose work yields nothing the caller needs: 0 on
/// success.
pub(crate) fn status<T>(call: &'static str, f: impl FnOnce(&'static str) -> GaResult<T>) -> c_int {
    run(call, || f(call).map(|_| 0))
}

pub(crate) fn null(call: &'static str, what: &str) -> GaError {
    GaError::new(call, format!("{what} is NULL with a non-zero byte count"))
}

pub(crate) fn len_of(call: &'static str, n: c_int) -> GaResult<usize> {
    usize::try_from(n).map_err(|_| GaError::new(call, format!("negative byte count {n}")))
}

fn src_bytes<'a>(call: &'static str, p: *const c_void, n: usize) -> GaResult<&'a [u8]> {
    ptr::bytes(p, n).ok_or_else(|| null(call, "the source"))
}

pub(crate) fn dst_bytes<'a>(
    call: &'static str,
    p: *mut c_void,
    n: usize,
) -> GaResult<&'a mut [u8]> {
    ptr::bytes_mut(p, n).ok_or_else(|| null(call, "the destination"))
}

/// The scale of an accumulate as bytes of `ty`.
fn scale_of<'a>(call: &'static str, ty: ElemType, scale: *const c_void) -> GaResult<&'a [u8]> {
    ptr::bytes(scale, ty.size()).ok_or_else(|| GaError::new(call, "scale is NULL"))
}

/// The number of stride levels, 0..=MAX_STRIDE_LEVELS.
fn stride_levels(call: &'static str, levels: c_int) -> GaResult<usize> {
    if !(0..=MAX_STRIDE_LEVELS).contains(&levels) {
        return Err(GaError::new(
            call,
            format!("stride_levels = {levels}, 0 to {MAX_STRIDE_LEVELS} allowed"),
        ));
    }
    Ok(levels as usize)
}

/// A non-blocking call's handle key (`Some`; 0 for ARMCI's implicit
/// handle), or `None` for a blocking call.
type Nb = Option<usize>;

/// What a transfer does.
#[derive(Clone, Copy)]
enum Dir {
    Put,
    Get,
    Acc(ElemType),
}

/// One contiguous piece: `n` bytes between local `local` and remote
/// `remote` of `proc_`.
#[allow(clippy::too_many_arguments)]
fn piece(
    call: &'static str,
    dir: Dir,
    scale: &[u8],
    local: *mut c_void,
    remote: usize,
    n: usize,
    proc_: c_int,
    nb: Nb,
) -> GaResult<()> {
    if let Some(key) = nb {
        if n > 0 && local.is_null() {
            return Err(null(call, "the local buffer"));
        }
        let t = match dir {
            Dir::Put => armci::Transfer::Put,
            Dir::Get => armci::Transfer::Get,
            Dir::Acc(ty) => armci::Transfer::Acc(ty, scale),
        };
        // SAFETY: ARMCI's contract for non-blocking calls: the local buffer
        // stays valid, and is not reused, until the handle completed.
        let buf = unsafe { crate::ptr::UserBuf::new(local, n) }
            .ok_or_else(|| null(call, "the local buffer"))?;
        return armci::start(call, t, buf, remote, proc_, key);
    }
    match dir {
        Dir::Put => armci::put(call, src_bytes(call, local, n)?, remote, proc_),
        Dir::Get => armci::get(call, remote, dst_bytes(call, local, n)?, proc_),
        Dir::Acc(ty) => armci::acc(call, ty, scale, src_bytes(call, local, n)?, remote, proc_),
    }
}

fn contiguous(
    call: &'static str,
    dir: Dir,
    scale: *const c_void,
    [src, dst]: [*mut c_void; 2],
    bytes: c_int,
    proc_: c_int,
    nb: Nb,
) -> c_int {
    run(call, || {
        let n = len_of(call, bytes)?;
        let sc = match dir {
            Dir::Acc(ty) => scale_of(call, ty, scale)?,
            _ => &[],
        };
        let (local, remote) = match dir {
            Dir::Get => (dst, ptr::addr(src)),
            _ => (src, ptr::addr(dst)),
        };
        if n > 0 && remote == 0 {
            return Err(null(call, "the remote address"));
        }
        piece(call, dir, sc, local, remote, n, proc_, nb)?;
        Ok(0)
    })
}

#[allow(clippy::too_many_arguments)]
fn strided(
    call: &'static str,
    dir: Dir,
    scale: *const c_void,
    [src, dst]: [*mut c_void; 2],
    [src_stride, dst_stride]: [*const c_int; 2],
    count: *const c_int,
    levels: c_int,
    proc_: c_int,
    nb: Nb,
) -> c_int {
    run(call, || {
        let l = stride_levels(call, levels)?;
        let ints = |p: *const c_int, n: usize, what: &str| {
            ptr::ints(p, n).ok_or_else(|| GaError::new(call, format!("{what} is NULL")))
        };
        let ss = ints(src_stride, l, "src_stride_ar")?;
        let ds = ints(dst_stride, l, "dst_stride_ar")?;
        let cnt = ints(count, l + 1, "count")?;
        let sc = match dir {
            Dir::Acc(ty) => scale_of(call, ty, scale)?,
            _ => &[],
        };
        let (local, lstr, remote, rstr) = match dir {
            Dir::Get => (dst, &ds, ptr::addr(src), &ss),
            _ => (src, &ss, ptr::addr(dst), &ds),
        };
        let n = cnt[0] as usize;
        if n > 0 && (remote == 0 || local.is_null()) {
            return Err(null(call, "a buffer"));
        }
        let (s_str, d_str) = match dir {
            Dir::Get => (rstr, lstr),
            _ => (lstr, rstr),
        };
        armci::strided_pieces(call, s_str, d_str, &cnt, |so, doff| {
            let (lo, ro) = match dir {
                Dir::Get => (doff, so),
                _ => (so, doff),
            };
            let r = remote
                .checked_add(ro)
                .ok_or_else(|| GaError::new(call, "strides reach past the address space"))?;
            piece(
                call,
                dir,
                sc,
                ptr::offset_ptr(local as *mut u8, lo),
                r,
                n,
                proc_,
                nb,
            )
        })?;
        Ok(0)
    })
}

fn vector(
    call: &'static str,
    dir: Dir,
    scale: *const c_void,
    iov: *const ArmciGiov,
    len: c_int,
    proc_: c_int,
    nb: Nb,
) -> c_int {
    run(call, || {
        let k = len_of(call, len)?;
        let v = ptr::typed(iov, k).ok_or_else(|| GaError::new(call, "the I/O vector is NULL"))?;
        let sc = match dir {
            Dir::Acc(ty) => scale_of(call, ty, scale)?,
            _ => &[],
        };
        for (i, e) in v.iter().enumerate() {
            let n = len_of(call, e.bytes)?;
            let m = len_of(call, e.ptr_array_len)?;
            let list = |p: *mut *mut c_void, what: &str| {
                ptr::typed(p as *const *mut c_void, m)
                    .ok_or_else(|| GaError::new(call, format!("entry {i}: {what} is NULL")))
            };
            let srcs = list(e.src_ptr_array, "src_ptr_array")?;
            let dsts = list(e.dst_ptr_array, "dst_ptr_array")?;
            for j in 0..m {
                let (local, remote) = match dir {
                    Dir::Get => (dsts[j], ptr::addr(srcs[j])),
                    _ => (srcs[j], ptr::addr(dsts[j])),
                };
                if n > 0 && remote == 0 {
                    return Err(null(call, "a remote address"));
                }
                piece(call, dir, sc, local, remote, n, proc_, nb)?;
            }
        }
        Ok(0)
    })
}

fn acc_dir(call: &'static str, datatype: c_int) -> Dir {
    run(call, || armci::acc_type(call, datatype).map(Dir::Acc))
}

/// The mark in a handle's `aggregate` word of a handle that
/// `ARMCI_INIT_HANDLE`, the aggregate calls or a non-blocking call set up
/// (bit 0 is the aggregate flag); a handle without it is not one.
const HANDLE_MARK: c_int = 0x4e42_0000;

/// Whether the handle at `hdl` carries the mark.
fn marked(h: &ArmciHdl) -> bool {
    h.aggregate & !1 == HANDLE_MARK
}

/// Sets up handle `hdl` (NULL: the implicit handle) for an operation on
/// `proc_`; returns its key.
fn arm(hdl: *mut ArmciHdl, proc_: c_int) -> usize {
    match ptr::typed_mut(hdl, 1) {
        Some(h) => {
            let agg = if marked(&h[0]) { h[0].aggregate & 1 } else { 0 };
            h[0].target = proc_;
            h[0].aggregate = HANDLE_MARK | agg;
            ptr::addr(hdl as *mut c_void)
        }
        None => 0,
    }
}

/// The key of a handle passed to `ARMCI_Wait` or `ARMCI_Test`: a bad
/// handle (NULL, or never set up) is an error.
fn key_of(call: &'static str, hdl: *mut ArmciHdl) -> GaResult<usize> {
    match ptr::typed_mut(hdl, 1) {
        Some(h) if marked(&h[0]) => Ok(ptr::addr(hdl as *mut c_void)),
        Some(h) => Err(GaError::new(
            call,
            format!(
                "bad handle (target {}, aggregate {:#x}): not set up by ARMCI_INIT_HANDLE or a non-blocking call",
                h[0].target, h[0].aggregate
            ),
        )),
        None => Err(GaError::new(call, "bad handle: NULL")),
    }
}

/// Generates a blocking ARMCI entry point and its non-blocking twin, which
/// takes a trailing `hdl` (NULL: the implicit handle), sets it up for
/// process `$proc` and starts the same transfer, leaving it in flight
/// where it goes through a server. `call` names the entry point in error
/// reports; `nb` is the handle key (`None` in the blocking form). Both
/// return 0.
macro_rules! blocking_and_nb {
    ($(
        $(#[$doc:meta])*
        fn $name:ident / $nb:ident($($arg:ident: $ty:ty),* $(,)?) at $proc:ident
            = |$call:ident, $key:ident| $body:expr;
    )*) => {$(
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $name($($arg: $ty),*) -> c_int {
            let $call: &'static str = stringify!($name);
            let $key: Nb = None;
            $body
        }

        #[doc = concat!("Non-blocking `", stringify!($name), "` (`hdl` may be NULL): ")]
        #[doc = "returns 0 with the transfer in flight; the local buffer must not be"]
        #[doc = "reused before `ARMCI_Wait`, `ARMCI_Test` (0), `ARMCI_WaitProc` or"]
        #[doc = "`ARMCI_WaitAll` completed it."]
        #[no_mangle]
        pub extern "C" fn $nb($($arg: $ty,)* hdl: *mut ArmciHdl) -> c_int {
            let $call: &'static str = stringify!($nb);
            let $key: Nb = Some(arm(hdl, $proc));
            $body
        }
    )*};
}

// ---------------------------------------------------------------------------
// Start and stop.

/// Starts ARMCI (and the GA client if GA is not running; collective);
/// returns 0. A job without a `ga-server` ends through `ARMCI_Error`.
#[no_mangle]
pub extern "C" fn ARMCI_Init() -> c_int {
    status("ARMCI_Init", armci::init)
}

/// `ARMCI_Init`; the arguments are not needed (MPI is started if nobody
/// did). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Init_args(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let _ = (argc, argv);
    status("ARMCI_Init_args", armci::init)
}

/// `ARMCI_Init` for a program that asked MPI for thread level
/// `requested`: every ARMCI call here may come from any one thread at a
/// time (calls from several threads at once are serialised by the GA
/// client). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Init_thread(requested: c_int) -> c_int {
    let _ = requested;
    status("ARMCI_Init_thread", armci::init)
}

/// Returns 1 if ARMCI is initialised, else 0.
#[no_mangle]
pub extern "C" fn ARMCI_Initialized() -> c_int {
    guard("ARMCI_Initialized", 0, || armci::initialized() as c_int)
}

/// Frees what ARMCI_Malloc left and ends GA if ARMCI_Init started it
/// (collective); returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Finalize() -> c_int {
    status("ARMCI_Finalize", armci::finalize)
}

/// Nothing to tidy beyond what ARMCI_Finalize does; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Cleanup() {}

/// Prints `ARMCI Error: msg code` and ends the job with `code` (1 if 0);
/// never returns.
#[no_mangle]
pub extern "C" fn ARMCI_Error(msg: *const c_char, code: c_int) {
    let m = ptr::c_str(msg).unwrap_or_default();
    fail(&m, code)
}

/// `armci_msg_abort`: ends the job with `code`; never returns.
#[no_mangle]
pub extern "C" fn armci_msg_abort(code: c_int) {
    fail("armci_msg_abort", code)
}

// ---------------------------------------------------------------------------
// Memory.

/// Collective: every process asks for `size` bytes; `ptrs[p]` receives
/// process p's address (NULL where p asked for 0 bytes). Memory of a
/// process on this node is directly addressable. Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Malloc(ptrs: *mut *mut c_void, size: c_long) -> c_int {
    const CALL: &str = "ARMCI_Malloc";
    run(CALL, || {
        if ptrs.is_null() {
            return Err(GaError::new(CALL, "ptrs is NULL"));
        }
        let v = armci::malloc(CALL, size)?;
        ptr::put_addrs(ptrs, &v);
        Ok(0)
    })
}

/// Collective: frees the ARMCI_Malloc memory whose address on this process
/// is `p` (NULL on a process that asked for 0 bytes). Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Free(p: *mut c_void) -> c_int {
    status("ARMCI_Free", |call| armci::free(call, ptr::addr(p)))
}

/// `ARMCI_Malloc` on a memory device: ARMCI leaves the device names to
/// the implementation, and here all ARMCI memory lives in the
/// `ga-server`s' shared-memory segments, so `device` is not consulted.
/// Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Malloc_memdev(
    ptrs: *mut *mut c_void,
    size: c_long,
    device: *const c_char,
) -> c_int {
    let _ = device;
    ARMCI_Malloc(ptrs, size)
}

/// Frees memory from `ARMCI_Malloc_memdev` (as `ARMCI_Free`); returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Free_memdev(p: *mut c_void) -> c_int {
    status("ARMCI_Free_memdev", |call| armci::free(call, ptr::addr(p)))
}

/// `size` bytes of private memory; NULL when there is none.
#[no_mangle]
pub extern "C" fn ARMCI_Malloc_local(size: c_long) -> *mut c_void {
    const CALL: &str = "ARMCI_Malloc_local";
    run(CALL, || armci::malloc_local(CALL, size)) as *mut c_void
}

/// Frees memory from ARMCI_Malloc_local; returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Free_local(p: *mut c_void) -> c_int {
    status("ARMCI_Free_local", |call| {
        armci::free_local(call, ptr::addr(p))
    })
}

/// Copies `size` bytes between two local buffers; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Copy(src: *mut c_void, dst: *mut c_void, size: c_int) {
    const CALL: &str = "ARMCI_Copy";
    run(CALL, || {
        let n = len_of(CALL, size)?;
        let s = src_bytes(CALL, src, n)?.to_vec();
        dst_bytes(CALL, dst, n)?.copy_from_slice(&s);
        Ok(())
    })
}

/// Nothing to do (memory is always coherent here); returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Access_begin(p: *mut c_void) {
    let _ = p;
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// Nothing to do (memory is always coherent here); returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Access_end(p: *mut c_void) {
    let _ = p;
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

// ---------------------------------------------------------------------------
// Contiguous transfers.

blocking_and_nb! {
    /// Copies `bytes` bytes from local `src` to `dst` of process `proc_`;
    /// returns 0.
    fn ARMCI_Put / ARMCI_NbPut(src: *mut c_void, dst: *mut c_void, bytes: c_int, proc_: c_int)
        at proc_
        = |call, nb| contiguous(call, Dir::Put, std::ptr::null(), [src, dst], bytes, proc_, nb);
    /// Copies `bytes` bytes from `src` of process `proc_` to local `dst`;
    /// returns 0.
    fn ARMCI_Get / ARMCI_NbGet(src: *mut c_void, dst: *mut c_void, bytes: c_int, proc_: c_int)
        at proc_
        = |call, nb| contiguous(call, Dir::Get, std::ptr::null(), [src, dst], bytes, proc_, nb);
    /// Atomically adds `scale·src` to `dst` of process `proc_`, as elements
    /// of `datatype` (ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL, _DCP); returns 0.
    fn ARMCI_Acc / ARMCI_NbAcc(datatype: c_int, scale: *mut c_void, src: *mut c_void,
        dst: *mut c_void, bytes: c_int, proc_: c_int) at proc_
        = |call, nb| contiguous(call, acc_dir(call, datatype), scale, [src, dst], bytes, proc_, nb);
}

/// ARMCI_Put, then stores `value` in the int `flag` of process `proc_`;
/// returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Put_flag(
    src: *mut c_void,
    dst: *mut c_void,
    bytes: c_int,
    flag: *mut c_int,
    value: c_int,
    proc_: c_int,
) -> c_int {
    ARMCI_Put(src, dst, bytes, proc_);
    ARMCI_PutValueInt(value, flag as *mut c_void, proc_)
}

// ---------------------------------------------------------------------------
// Strided transfers: count[0] bytes per piece, count[1..=levels] pieces
// per level, strides in bytes.

blocking_and_nb! {
    /// Strided put from local `src` to `dst` of `proc_`; returns 0.
    fn ARMCI_PutS / ARMCI_NbPutS(src: *mut c_void, src_stride: *const c_int, dst: *mut c_void,
        dst_stride: *const c_int, count: *const c_int, levels: c_int, proc_: c_int) at proc_
        = |call, nb| strided(call, Dir::Put, std::ptr::null(),
            [src, dst], [src_stride, dst_stride], count, levels, proc_, nb);
    /// Strided get from `src` of `proc_` to local `dst`; returns 0.
    fn ARMCI_GetS / ARMCI_NbGetS(src: *mut c_void, src_stride: *const c_int, dst: *mut c_void,
        dst_stride: *const c_int, count: *const c_int, levels: c_int, proc_: c_int) at proc_
        = |call, nb| strided(call, Dir::Get, std::ptr::null(),
            [src, dst], [src_stride, dst_stride], count, levels, proc_, nb);
    /// Strided atomic accumulate into `dst` of `proc_`; returns 0.
    fn ARMCI_AccS / ARMCI_NbAccS(datatype: c_int, scale: *mut c_void, src: *mut c_void,
        src_stride: *const c_int, dst: *mut c_void, dst_stride: *const c_int,
        count: *const c_int, levels: c_int, proc_: c_int) at proc_
        = |call, nb| strided(call, acc_dir(call, datatype), scale,
            [src, dst], [src_stride, dst_stride], count, levels, proc_, nb);
}

/// ARMCI_PutS, then stores `value` in the int `flag` of `proc_`; returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_PutS_flag(
    src: *mut c_void,
    src_stride: *const c_int,
    dst: *mut c_void,
    dst_stride: *const c_int,
    count: *const c_int,
    levels: c_int,
    flag: *mut c_int,
    value: c_int,
    proc_: c_int,
) -> c_int {
    ARMCI_PutS(src, src_stride, dst, dst_stride, count, levels, proc_);
    ARMCI_PutValueInt(value, flag as *mut c_void, proc_)
}

/// Copies between local strided memory at `p` and the contiguous buffer
/// `buf` (`to_strided`: buf to p).
fn local_strided(
    call: &'static str,
    p: *mut c_void,
    levels: c_int,
    stride: *const c_int,
    count: *const c_int,
    buf: *mut c_char,
    to_strided: bool,
) {
    run(call, || {
        let l = stride_levels(call, levels)?;
        let st = ptr::ints(stride, l).ok_or_else(|| GaError::new(call, "stride_arr is NULL"))?;
        let cnt = ptr::ints(count, l + 1).ok_or_else(|| GaError::new(call, "count is NULL"))?;
        let n = cnt[0].max(0) as usize;
        let mut packed = 0usize;
        let dense = vec![0i64; l];
        armci::strided_pieces(call, &st, &dense, &cnt, |so, _| {
            let at = ptr::offset_ptr(p as *mut u8, so);
            let b = ptr::offset_ptr(buf as *mut u8, packed);
            packed += n;
            if to_strided {
                let s = src_bytes(call, b, n)?.to_vec();
                dst_bytes(call, at, n)?.copy_from_slice(&s);
            } else {
                let s = src_bytes(call, at, n)?.to_vec();
                dst_bytes(call, b, n)?.copy_from_slice(&s);
            }
            Ok(())
        })
    })
}

/// Writes local strided memory at `p` (count[0] bytes per piece) into the
/// contiguous `buf`, as ARMCI does; returns nothing.
#[no_mangle]
pub extern "C" fn armci_write_strided(
    p: *mut c_void,
    levels: c_int,
    stride: *mut c_int,
    count: *mut c_int,
    buf: *mut c_char,
) {
    local_strided("armci_write_strided", p, levels, stride, count, buf, false)
}

/// Reads the contiguous `buf` into local strided memory at `p`, as ARMCI
/// does; returns nothing.
#[no_mangle]
pub extern "C" fn armci_read_strided(
    p: *mut c_void,
    levels: c_int,
    stride: *mut c_int,
    count: *mut c_int,
    buf: *mut c_char,
) {
    local_strided("armci_read_strided", p, levels, stride, count, buf, true)
}

// ---------------------------------------------------------------------------
// I/O vectors.

blocking_and_nb! {
    /// Puts every segment of every entry of `iov` to `proc_`; returns 0.
    fn ARMCI_PutV / ARMCI_NbPutV(iov: *mut ArmciGiov, len: c_int, proc_: c_int) at proc_
        = |call, nb| vector(call, Dir::Put, std::ptr::null(), iov, len, proc_, nb);
    /// Gets every segment of every entry of `iov` from `proc_`; returns 0.
    fn ARMCI_GetV / ARMCI_NbGetV(iov: *mut ArmciGiov, len: c_int, proc_: c_int) at proc_
        = |call, nb| vector(call, Dir::Get, std::ptr::null(), iov, len, proc_, nb);
    /// Accumulates every segment of every entry of `iov` into `proc_`;
    /// returns 0.
    fn ARMCI_AccV / ARMCI_NbAccV(datatype: c_int, scale: *mut c_void, iov: *mut ArmciGiov,
        len: c_int, proc_: c_int) at proc_
        = |call, nb| vector(call, acc_dir(call, datatype), scale, iov, len, proc_, nb);
}

// ---------------------------------------------------------------------------
// Non-blocking completion. A handle's key is its address (NULL: the
// implicit handle); every transfer started with it belongs to it.

/// Sets up a handle (not aggregate); returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_INIT_HANDLE(hdl: *mut ArmciHdl) {
    if let Some(h) = ptr::typed_mut(hdl, 1) {
        h[0].target = -1;
        h[0].aggregate = HANDLE_MARK;
    }
}

fn set_aggregate(hdl: *mut ArmciHdl, on: bool) {
    if let Some(h) = ptr::typed_mut(hdl, 1) {
        h[0].aggregate = HANDLE_MARK | on as c_int;
    }
}

/// Marks a handle as aggregate (every transfer started with it completes
/// with it, as for any handle); returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_SET_AGGREGATE_HANDLE(hdl: *mut ArmciHdl) {
    set_aggregate(hdl, true)
}

/// Clears a handle's aggregate mark; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_UNSET_AGGREGATE_HANDLE(hdl: *mut ArmciHdl) {
    set_aggregate(hdl, false)
}

/// Waits until every transfer started with handle `hdl` completed; returns
/// 0 (a handle with none in flight is complete). A bad handle (NULL, or
/// never set up by `ARMCI_INIT_HANDLE` or a non-blocking call) ends the job
/// through `ARMCI_Error`.
#[no_mangle]
pub extern "C" fn ARMCI_Wait(hdl: *mut ArmciHdl) -> c_int {
    status("ARMCI_Wait", |call| {
        let key = key_of(call, hdl)?;
        armci::wait(call, |k, _| k == key)
    })
}

/// Advances the transfers of handle `hdl` without waiting; returns 0 when
/// all completed, 1 while some are in flight. A bad handle ends the job
/// as in `ARMCI_Wait`.
#[no_mangle]
pub extern "C" fn ARMCI_Test(hdl: *mut ArmciHdl) -> c_int {
    const CALL: &str = "ARMCI_Test";
    run(CALL, || {
        let key = key_of(CALL, hdl)?;
        Ok(if armci::test(CALL, key)? { 0 } else { 1 })
    })
}

/// Waits for every non-blocking transfer to `proc_` (whatever its
/// handle); returns 0. A process out of range ends the job.
#[no_mangle]
pub extern "C" fn ARMCI_WaitProc(proc_: c_int) -> c_int {
    status("ARMCI_WaitProc", |call| {
        armci::check_proc(call, proc_)?;
        armci::wait(call, |_, p| p == proc_)
    })
}

/// Waits for every non-blocking transfer of this process; returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_WaitAll() -> c_int {
    status("ARMCI_WaitAll", |call| armci::wait(call, |_, _| true))
}

// ---------------------------------------------------------------------------
// Values.

fn put_value(call: &'static str, v: &[u8], dst: *mut c_void, proc_: c_int) -> c_int {
    status(call, |call| armci::put(call, v, ptr::addr(dst), proc_))
}

fn get_value<const N: usize>(call: &'static str, src: *mut c_void, proc_: c_int) -> [u8; N] {
    run(call, || {
        let mut b = [0u8; N];
        armci::get(call, ptr::addr(src), &mut b, proc_)?;
        Ok(b)
    })
}

/// Generates, for each C type, the entry point that stores one value of it
/// at `dst` of `proc_` (returns 0), its non-blocking twin, and the one that
/// returns the value at `src` of `proc_`.
macro_rules! value_calls {
    ($($t:ty, $what:literal: $put:ident / $nbput:ident, $get:ident;)*) => {$(
        blocking_and_nb! {
            #[doc = concat!("Stores ", $what, " at `dst` of `proc_`; returns 0.")]
            fn $put / $nbput(src: $t, dst: *mut c_void, proc_: c_int) at proc_
                = |call, _nb| put_value(call, &src.to_ne_bytes(), dst, proc_);
        }

        #[doc = concat!("The value (", $what, ") at `src` of `proc_`.")]
        #[no_mangle]
        pub extern "C" fn $get(src: *mut c_void, proc_: c_int) -> $t {
            <$t>::from_ne_bytes(get_value(stringify!($get), src, proc_))
        }
    )*};
}

value_calls! {
    c_int, "an int": ARMCI_PutValueInt / ARMCI_NbPutValueInt, ARMCI_GetValueInt;
    c_long, "a long": ARMCI_PutValueLong / ARMCI_NbPutValueLong, ARMCI_GetValueLong;
    c_float, "a float": ARMCI_PutValueFloat / ARMCI_NbPutValueFloat, ARMCI_GetValueFloat;
    c_double, "a double": ARMCI_PutValueDouble / ARMCI_NbPutValueDouble, ARMCI_GetValueDouble;
}

// ---------------------------------------------------------------------------
// Completion and synchronisation.

/// Waits until this process's operations to `proc_` are complete there
/// (blocking ones are when their calls return; non-blocking ones are
/// finished here); returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Fence(proc_: c_int) {
    const CALL: &str = "ARMCI_Fence";
    run(CALL, || {
        armci::check_proc(CALL, proc_)?;
        armci::wait(CALL, |_, p| p == proc_)
    })
}

/// ARMCI_Fence to every process; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_AllFence() {
    const CALL: &str = "ARMCI_AllFence";
    run(CALL, || {
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        armci::wait(CALL, |_, _| true)
    })
}

/// Completes every operation, then a barrier of all processes; returns
/// nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Barrier() {
    run("ARMCI_Barrier", || armci::barrier("ARMCI_Barrier"))
}

// ---------------------------------------------------------------------------
// Read-modify-write and mutexes.

/// ARMCI_FETCH_AND_ADD (0), ARMCI_FETCH_AND_ADD_LONG (1): adds `value` to
/// the int (long) at `prem` of `proc_` and stores the old value at `ploc`;
/// ARMCI_SWAP (2), ARMCI_SWAP_LONG (3): exchanges the int (long) at `ploc`
/// with the one at `prem`. Returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Rmw(
    op: c_int,
    ploc: *mut c_void,
    prem: *mut c_void,
    value: c_int,
    proc_: c_int,
) -> c_int {
    const CALL: &str = "ARMCI_Rmw";
    run(CALL, || {
        let (ty, swap) = match op {
            0 => (ElemType::Int, false),
            1 => (ElemType::Long, false),
            2 => (ElemType::Int, true),
            3 => (ElemType::Long, true),
            _ => {
                return Err(GaError::new(
                    CALL,
                    format!(
                        "unknown operation {op} (ARMCI_FETCH_AND_ADD .. ARMCI_SWAP_LONG are 0..3)"
                    ),
                ))
            }
        };
        let loc = dst_bytes(CALL, ploc, ty.size())?;
        let v = if !swap {
            value as i64
        } else if ty == ElemType::Int {
            c_int::from_ne_bytes(loc[..4].try_into().unwrap_or_default()) as i64
        } else {
            c_long::from_ne_bytes(loc[..8].try_into().unwrap_or_default())
        };
        let old = armci::rmw(CALL, ty, swap, ptr::addr(prem), proc_, v)?;
        if ty == ElemType::Int {
            loc.copy_from_slice(&(old as c_int).to_ne_bytes());
        } else {
            loc.copy_from_slice(&(old as c_long).to_ne_bytes());
        }
        Ok(0)
    })
}

/// Collective: `count` mutexes on every process; returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Create_mutexes(count: c_int) -> c_int {
    status("ARMCI_Create_mutexes", |call| {
        armci::create_mutexes(call, count)
    })
}

/// Collective: destroys the mutexes; returns 0.
#[no_mangle]
pub extern "C" fn ARMCI_Destroy_mutexes() -> c_int {
    status("ARMCI_Destroy_mutexes", armci::destroy_mutexes)
}

/// Waits for and takes mutex `mutex` of process `proc_`; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Lock(mutex: c_int, proc_: c_int) {
    run("ARMCI_Lock", || armci::lock("ARMCI_Lock", mutex, proc_))
}

/// Releases mutex `mutex` of process `proc_`, which this process holds;
/// returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Unlock(mutex: c_int, proc_: c_int) {
    run("ARMCI_Unlock", || {
        armci::unlock("ARMCI_Unlock", mutex, proc_)
    })
}

// ---------------------------------------------------------------------------
// Topology: a domain is a node.

/// 1 if process `proc_` shares this process's node, else 0.
#[no_mangle]
pub extern "C" fn ARMCI_Same_node(proc_: c_int) -> c_int {
    guard("ARMCI_Same_node", 0, || armci::same_node(proc_) as c_int)
}

/// 1: memory of processes on this node is shared memory.
#[no_mangle]
pub extern "C" fn ARMCI_Uses_shm() -> c_int {
    1
}

/// No limit to set; returns nothing.
#[no_mangle]
pub extern "C" fn ARMCI_Set_shm_limit(limit: std::ffi::c_ulong) {
    let _ = limit;
}

fn nodes() -> Vec<i32> {
    core::compute_nodes()
}

/// Number of processes on node `id` (0 for a node that does not exist).
#[no_mangle]
pub extern "C" fn armci_domain_nprocs(domain: c_int, id: c_int) -> c_int {
    let _ = domain;
    guard("armci_domain_nprocs", 0, || {
        nodes().iter().filter(|&&n| n == id).count() as c_int
    })
}

/// Node of process `proc_` (-1 for a process that does not exist).
#[no_mangle]
pub extern "C" fn armci_domain_id(domain: c_int, proc_: c_int) -> c_int {
    let _ = domain;
    guard("armci_domain_id", -1, || {
        let v = nodes();
        usize::try_from(proc_)
            .ok()
            .and_then(|p| v.get(p).copied())
            .unwrap_or(-1)
    })
}

/// The process that is the `loc`-th (from 0) on node `id`; -1 if none.
#[no_mangle]
pub extern "C" fn armci_domain_glob_proc_id(domain: c_int, id: c_int, loc: c_int) -> c_int {
    let _ = domain;
    guard("armci_domain_glob_proc_id", -1, || {
        nodes()
            .iter()
            .enumerate()
            .filter(|(_, &n)| n == id)
            .nth(usize::try_from(loc).unwrap_or(usize::MAX))
            .map(|(p, _)| p as c_int)
            .unwrap_or(-1)
    })
}

/// This process's node.
#[no_mangle]
pub extern "C" fn armci_domain_my_id(domain: c_int) -> c_int {
    let _ = domain;
    guard("armci_domain_my_id", 0, || {
        nodes().get(core::nodeid() as usize).copied().unwrap_or(0)
    })
}

/// Number of nodes.
#[no_mangle]
pub extern "C" fn armci_domain_count(domain: c_int) -> c_int {
    let _ = domain;
    guard("armci_domain_count", 1, || {
        nodes().iter().copied().max().map_or(1, |m| m + 1)
    })
}

/// 1 if process `proc_` shares this process's node, else 0.
#[no_mangle]
pub extern "C" fn armci_domain_same_id(domain: c_int, proc_: c_int) -> c_int {
    let _ = domain;
    ARMCI_Same_node(proc_)
}

// ---------------------------------------------------------------------------
// armci_msg_*: messages among the compute ranks.

/// This process's rank among the compute ranks.
#[no_mangle]
pub extern "C" fn armci_msg_me() -> c_int {
    guard("armci_msg_me", 0, core::nodeid)
}

/// Number of compute ranks.
#[no_mangle]
pub extern "C" fn armci_msg_nproc() -> c_int {
    guard("armci_msg_nproc", 1, core::nnodes)
}

/// Ends MPI for this process, as GA's own ARMCI does for programs that
/// call it after `GA_Terminate`: every layer still joined leaves and MPI is
/// finalised, also when the program started it. Returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_finalize() {
    guard("armci_msg_finalize", (), || {
        shim_core::lifecycle::finish_process();
        if shim_core::mpi::is_initialized() && !shim_core::mpi::is_finalized() {
            let _ = shim_core::mpi::finalize();
        }
    })
}

/// Wall-clock seconds.
#[no_mangle]
pub extern "C" fn armci_timer() -> c_double {
    core::wtime()
}

/// A barrier of the compute ranks (collective); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_barrier() {
    run("armci_msg_barrier", || armci::barrier("armci_msg_barrier"))
}

fn bcast(call: &'static str, buf: *mut c_void, len: c_int, root: c_int) {
    run(call, || {
        let n = len_of(call, len)?;
        let b = dst_bytes(call, buf, n)?;
        core::brdcst(b, root).map_err(|e| GaError::new(call, e.message))
    })
}

/// Broadcasts `len` bytes from `root` (collective); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_bcast(buf: *mut c_void, len: c_int, root: c_int) {
    bcast("armci_msg_bcast", buf, len, root)
}

/// Broadcasts `len` bytes from `root` (collective); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_brdcst(buf: *mut c_void, len: c_int, root: c_int) {
    bcast("armci_msg_brdcst", buf, len, root)
}

/// armci_msg_bcast over all compute ranks (every scope is all of them
/// here); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_bcast_scope(scope: c_int, buf: *mut c_void, len: c_int, root: c_int) {
    let _ = scope;
    bcast("armci_msg_bcast_scope", buf, len, root)
}

fn gop<T: core::GopNum>(
    call: &'static str,
    x: *mut T,
    n: c_int,
    op: *const c_char,
    f: fn(&mut [T], &str) -> GaResult<()>,
) {
    run(call, || {
        let k = len_of(call, n)?;
        let v = ptr::typed_mut(x, k).ok_or_else(|| null(call, "the data"))?;
        let o = ptr::c_str(op).ok_or_else(|| GaError::new(call, "op is NULL"))?;
        f(v, &o).map_err(|e| GaError::new(call, e.message))
    })
}

/// Generates the element-wise reductions (collective; `op` is "+", "*",
/// "max", "min", "absmax", "absmin", ...) of `n` elements of a C type,
/// each through the core's reduction for that width; they return nothing.
macro_rules! gop_calls {
    ($($name:ident($t:ty) = $f:path, $doc:literal;)*) => {$(
        #[doc = $doc]
        #[no_mangle]
        pub extern "C" fn $name(x: *mut $t, n: c_int, op: *const c_char) {
            gop(stringify!($name), x, n, op, $f)
        }
    )*};
}

gop_calls! {
    armci_msg_igop(c_int) = core::gop_i32, "Element-wise reduction of `n` ints with `op`.";
    armci_msg_lgop(c_long) = core::gop_i64, "As armci_msg_igop, on longs.";
    armci_msg_llgop(c_longlong) = core::gop_i64, "As armci_msg_igop, on long longs.";
    armci_msg_fgop(c_float) = core::gop_f32, "As armci_msg_igop, on floats.";
    armci_msg_dgop(c_double) = core::gop_f64, "As armci_msg_igop, on doubles.";
}

/// A reduction over all compute ranks (every scope is all of them here) of
/// `n` elements of `type` (ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG,
/// ARMCI_FLOAT, ARMCI_DOUBLE: 0..4); returns nothing.
#[no_mangle]
pub extern "C" fn armci_msg_gop_scope(
    scope: c_int,
    x: *mut c_void,
    n: c_int,
    op: *const c_char,
    ty: c_int,
) {
    let _ = scope;
    match ty {
        0 => armci_msg_igop(x as *mut c_int, n, op),
        1 => armci_msg_lgop(x as *mut c_long, n, op),
        2 => armci_msg_llgop(x as *mut c_longlong, n, op),
        3 => armci_msg_fgop(x as *mut c_float, n, op),
        4 => armci_msg_dgop(x as *mut c_double, n, op),
        _ => fail(
            &format!("armci_msg_gop_scope: unknown type {ty} (ARMCI_INT .. ARMCI_DOUBLE are 0..4)"),
            1,
        ),
    }
}
