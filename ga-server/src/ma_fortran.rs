//! MA, the memory allocator of Global Arrays, as Fortran programs use it:
//! `ma_init`, `ma_sizeof`, stack blocks (`ma_push_get`, `ma_pop_stack`),
//! heap blocks (`ma_alloc_get`, `ma_free_heap`) and the MA base arrays.
//!
//! # Base arrays
//! `mafdecls.fh` declares one `COMMON` block per Fortran type:
//! `/mbc_byte/ byte_mb`, `/mbc_int/ int_mb`, `/mbc_log/ log_mb`,
//! `/mbc_real/ real_mb`, `/mbc_dbl/ dbl_mb`, `/mbc_scpl/ scpl_mb`,
//! `/mbc_dcpl/ dcpl_mb` (gfortran symbols `mbc_dbl_`, ...). A block MA
//! hands out, or a process's own block of a global array (`ga_access`), is
//! named by its index into the base array of its type:
//! `index = (address - address of dbl_mb(1)) / 8 + 1`, so the program
//! reads it as `dbl_mb(index)`. The library defines every base array
//! (64-byte aligned); when the program defines the common block itself
//! (gfortran does wherever it is declared), the program's copy is the one
//! every object uses, and the indices are computed from its address, found
//! at run time.
//!
//! # Types and sizes
//! Fortran `INTEGER` and `LOGICAL` are 8 bytes (`-fdefault-integer-8`).
//! `MT_F_BYTE`/`MT_C_CHAR` 1 byte (`byte_mb`), `MT_F_INT`/`MT_C_LONGINT`/
//! `MT_C_LONGLONG` 8 (`int_mb`), `MT_F_LOG` 8 (`log_mb`), `MT_F_REAL`/
//! `MT_C_FLOAT` 4 (`real_mb`), `MT_F_DBL`/`MT_C_DBL` 8 (`dbl_mb`),
//! `MT_F_SCPL`/`MT_C_SCPL` 8 (`scpl_mb`), `MT_F_DCPL`/`MT_C_DCPL` 16
//! (`dcpl_mb`). `MT_C_INT` (4 bytes), `MT_C_LDBL` and `MT_C_LDCPL` have no
//! Fortran base array: MA refuses them here.
//!
//! # Space
//! `ma_init(type, stack, heap)` sets the stack and heap sizes in elements
//! of `type` (negative: 512 KiB each). Space is counted as GA's MA counts
//! it, in the one segment the C `MA_init` starts too (`ma_space`), so
//! `ma_inquire_stack`, `ma_inquire_heap` and `ma_inquire_avail` give GA's
//! figures. Before `ma_init` (or `MA_init`) every allocation fails, as in
//! MA. A failing call prints what was wrong (`ma_push_get: ...`) to stderr
//! and returns `.false.`.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::codes;
use crate::fapi_ptr as ptr;
use crate::ma_space::{self, Region, Space};
use shim_core::ffi_guard::guard;
use shim_core::Lock;
use std::collections::BTreeMap;
use std::ffi::{c_char, CStr};
use std::sync::OnceLock;

/// Fortran `INTEGER` (8 bytes).
pub type FInt = i64;
/// Fortran `LOGICAL` (8 bytes): 1 is `.true.`, 0 `.false.`.
pub type FLog = i64;

const TRUE: FLog = 1;
const FALSE: FLog = 0;

fn flog(b: bool) -> FLog {
    if b {
        TRUE
    } else {
        FALSE
    }
}

/// Storage of one MA base array: what the library defines when the program
/// does not define the common block itself.
#[repr(C, align(64))]
pub struct MaBaseArray([u8; 64]);

macro_rules! base_arrays {
    ($($sym:ident),*) => {$(
        /// An MA base array (a Fortran common block of `mafdecls.fh`).
        #[no_mangle]
        #[allow(non_upper_case_globals)]
        pub static mut $sym: MaBaseArray = MaBaseArray([0; 64]);
    )*};
}
base_arrays!(mbc_byte_, mbc_int_, mbc_log_, mbc_real_, mbc_dbl_, mbc_scpl_, mbc_dcpl_);

/// Which base array a block is indexed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Byte,
    Int,
    Log,
    Real,
    Dbl,
    Scpl,
    Dcpl,
}

impl Base {
    const ALL: [Base; 7] = [
        Base::Byte,
        Base::Int,
        Base::Log,
        Base::Real,
        Base::Dbl,
        Base::Scpl,
        Base::Dcpl,
    ];

    /// The base array of an MA type code; `None` for a type without one.
    pub fn of_type(code: i64) -> Option<Base> {
        let code = i32::try_from(code).ok()?;
        Some(match code {
            codes::F_BYTE | codes::C_CHAR => Base::Byte,
            codes::F_INT | codes::C_LONG | codes::C_LONGLONG => Base::Int,
            codes::F_LOG => Base::Log,
            codes::F_REAL | codes::C_FLOAT => Base::Real,
            codes::F_DBL | codes::C_DBL => Base::Dbl,
            codes::F_SCPL | codes::C_SCPL => Base::Scpl,
            codes::F_DCPL | codes::C_DCPL => Base::Dcpl,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Base::Byte => 1,
            Base::Real => 4,
            Base::Int | Base::Log | Base::Dbl | Base::Scpl => 8,
            Base::Dcpl => 16,
        }
    }

    /// The Fortran array name (for messages).
    pub fn array(self) -> &'static str {
        match self {
            Base::Byte => "byte_mb",
            Base::Int => "int_mb",
            Base::Log => "log_mb",
            Base::Real => "real_mb",
            Base::Dbl => "dbl_mb",
            Base::Scpl => "scpl_mb",
            Base::Dcpl => "dcpl_mb",
        }
    }

    fn symbol(self) -> &'static CStr {
        match self {
            Base::Byte => c"mbc_byte_",
            Base::Int => c"mbc_int_",
            Base::Log => c"mbc_log_",
            Base::Real => c"mbc_real_",
            Base::Dbl => c"mbc_dbl_",
            Base::Scpl => c"mbc_scpl_",
            Base::Dcpl => c"mbc_dcpl_",
        }
    }

    fn slot(self) -> usize {
        Base::ALL.iter().position(|&b| b == self).unwrap_or(0)
    }

    /// The address of element 1 of the base array the program uses.
    pub fn address(self) -> usize {
        static ADDR: [OnceLock<usize>; 7] = [const { OnceLock::new() }; 7];
        *ADDR[self.slot()].get_or_init(|| ptr::global_address(self.symbol()))
    }

    /// The 1-based index of `addr` in this base array; `None` when the
    /// address is not a whole number of elements away from element 1.
    pub fn index_of(self, addr: usize) -> Option<i64> {
        let diff = addr as i128 - self.address() as i128;
        let size = self.size() as i128;
        if diff % size != 0 {
            return None;
        }
        i64::try_from(diff / size + 1).ok()
    }
}

/// One block MA handed out.
struct Block {
    /// Start of the allocation (what is freed).
    raw: usize,
    /// Bytes allocated.
    bytes: usize,
    /// Bytes of data (elements × size).
    counted: usize,
    /// Where the block sits in MA's segment.
    at: i64,
    on_stack: bool,
    name: String,
    base: Base,
    index: i64,
}

struct Ma {
    blocks: BTreeMap<i64, Block>,
    /// Handles of stack blocks, bottom first.
    stack: Vec<i64>,
    next_handle: i64,
}

static MA: Lock<Ma> = Lock::new(Ma {
    blocks: BTreeMap::new(),
    stack: Vec::new(),
    next_handle: 1,
});

/// Alignment of every block MA allocates.
const ALIGN: usize = 64;

/// Whether `ma_trace` asked for a line per allocation and release.
static TRACE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The alignment `ma_set_numalign` asked for (log2 of bytes; 0 at start).
static NUMALIGN: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

/// Prints a trace line (`MA: ...`) when `ma_trace` turned tracing on.
fn trace(line: impl FnOnce() -> String) {
    if TRACE.load(std::sync::atomic::Ordering::Relaxed) {
        println!("MA: {}", line());
    }
}

fn complain(call: &str, msg: &str) -> FLog {
    eprintln!("{call}: {msg}");
    FALSE
}

/// Runs a Fortran entry point behind the panic boundary.
fn entry<R: Copy>(call: &'static str, on_panic: R, f: impl FnOnce() -> R) -> R {
    guard(call, on_panic, f)
}

fn read_int(p: *const FInt) -> Option<FInt> {
    ptr::read(p)
}

/// Allocates `nelem` elements of `type` on the stack or the heap; returns
/// the handle and the index, or the reason it failed.
fn allocate(code: i64, nelem: i64, name: String, on_stack: bool) -> Result<(i64, i64), String> {
    let base = Base::of_type(code).ok_or_else(|| format!("invalid MA type {code}"))?;
    if nelem < 0 {
        return Err(format!(
            "invalid number of elements {nelem} for block '{name}'"
        ));
    }
    let counted = usize::try_from(nelem)
        .ok()
        .and_then(|n| n.checked_mul(base.size()))
        .ok_or_else(|| format!("block '{name}' of {nelem} elements is too large"))?;
    let verb = if on_stack { "pushing" } else { "allocating" };
    trace(|| format!("{verb} '{name}' ({nelem})"));
    let mut ma = MA.lock();
    let region = Region::of(on_stack);
    let at = ma_space::with_segment(|s| match s.as_mut() {
        None => Err("MA is not initialized (call ma_init first)".to_string()),
        Some(s) => s.reserve(region, nelem, base.size()).map_err(|need| {
            format!(
                "not enough {} space for block '{name}': {need} bytes wanted",
                if on_stack { "stack" } else { "heap" }
            )
        }),
    })?;
    let unreserve = |at: i64| {
        ma_space::with_segment(|s| {
            if let Some(s) = s.as_mut() {
                if on_stack {
                    s.pop_to(at);
                } else {
                    s.free_heap(at);
                }
            }
        })
    };
    // One element more than asked for, so the block can start a whole
    // number of elements from the base array's element 1.
    let bytes = counted + base.size();
    let raw = ptr::alloc_zeroed(bytes, ALIGN) as usize;
    if raw == 0 {
        unreserve(at);
        return Err(format!("out of memory for block '{name}' ({bytes} bytes)"));
    }
    let size = base.size();
    let shift = (base.address() as isize - raw as isize).rem_euclid(size as isize) as usize;
    let Some(index) = base.index_of(raw + shift) else {
        unreserve(at);
        ptr::free(raw as *mut u8, bytes, ALIGN);
        return Err(format!(
            "block '{name}' cannot be indexed in {}",
            base.array()
        ));
    };
    let handle = ma.next_handle;
    ma.next_handle += 1;
    if on_stack {
        ma.stack.push(handle);
    }
    ma.blocks.insert(
        handle,
        Block {
            raw,
            bytes,
            counted,
            at,
            on_stack,
            name,
            base,
            index,
        },
    );
    Ok((handle, index))
}

/// Frees block `handle`; `traced` prints the trace line GA's MA prints
/// for a pop or a free (a chop prints none).
fn release(ma: &mut Ma, handle: i64, traced: bool) {
    if let Some(b) = ma.blocks.remove(&handle) {
        if traced {
            let verb = if b.on_stack { "popping" } else { "freeing" };
            trace(|| format!("{verb} '{}'", b.name));
        }
        ma_space::with_segment(|s| {
            if let Some(s) = s.as_mut() {
                if b.on_stack {
                    s.pop_to(b.at);
                } else {
                    s.free_heap(b.at);
                }
            }
        });
        if b.on_stack {
            ma.stack.retain(|&h| h != handle);
        }
        ptr::free(b.raw as *mut u8, b.bytes, ALIGN);
    }
}

/// `logical ma_init(type, stack, heap)`: sets the stack and heap sizes in
/// elements of `type` (negative: 512 KiB). Returns `.false.` (with a
/// message) for an invalid type, sizes beyond memory or when MA is
/// already initialized.
#[no_mangle]
pub extern "C" fn ma_init_(datatype: *const FInt, stack: *const FInt, heap: *const FInt) -> FLog {
    entry("ma_init", FALSE, || {
        let (Some(t), Some(s), Some(h)) = (read_int(datatype), read_int(stack), read_int(heap))
        else {
            return complain("ma_init", "missing argument");
        };
        let Some(base) = Base::of_type(t) else {
            return complain("ma_init", &format!("invalid MA type {t}"));
        };
        if ma_space::initialized() {
            return complain("ma_init", "MA is already initialized");
        }
        if !ma_space::start(Space::new(base.size(), s, h)) {
            return complain(
                "ma_init",
                &format!("a stack of {s} and a heap of {h} elements do not fit in memory"),
            );
        }
        TRUE
    })
}

/// `logical ma_initialized()`: whether `ma_init` succeeded.
#[no_mangle]
pub extern "C" fn ma_initialized_() -> FLog {
    entry("ma_initialized", FALSE, || flog(ma_space::initialized()))
}

/// `integer ma_sizeof(type1, n, type2)`: how many elements of `type2` hold
/// `n` elements of `type1` (rounded up); 0 with a message for a bad type.
#[no_mangle]
pub extern "C" fn ma_sizeof_(type1: *const FInt, n: *const FInt, type2: *const FInt) -> FInt {
    entry("ma_sizeof", 0, || {
        let (Some(t1), Some(n), Some(t2)) = (read_int(type1), read_int(n), read_int(type2)) else {
            complain("ma_sizeof", "missing argument");
            return 0;
        };
        match (Base::of_type(t1), Base::of_type(t2)) {
            (Some(a), Some(b)) => {
                let bytes = n.saturating_mul(a.size() as i64);
                let per = b.size() as i64;
                bytes.div_euclid(per) + i64::from(bytes.rem_euclid(per) != 0)
            }
            _ => {
                complain("ma_sizeof", &format!("invalid MA type {t1} or {t2}"));
                0
            }
        }
    })
}

/// `integer ma_sizeof_overhead(type)`: elements of `type` MA may add to a
/// block (1: blocks are padded to start on an element boundary).
#[no_mangle]
pub extern "C" fn ma_sizeof_overhead_(datatype: *const FInt) -> FInt {
    entry("ma_sizeof_overhead", 0, || {
        match read_int(datatype).and_then(Base::of_type) {
            Some(_) => 1,
            None => {
                complain("ma_sizeof_overhead", "invalid MA type");
                0
            }
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn alloc_entry(
    call: &'static str,
    datatype: *const FInt,
    nelem: *const FInt,
    name: *const c_char,
    memhandle: *mut FInt,
    index: *mut FInt,
    namelen: usize,
    on_stack: bool,
) -> FLog {
    entry(call, FALSE, || {
        let (Some(t), Some(n)) = (read_int(datatype), read_int(nelem)) else {
            return complain(call, "missing argument");
        };
        let name = ptr::fstring(name, namelen);
        match allocate(t, n, name, on_stack) {
            Ok((h, i)) => {
                ptr::write(memhandle, h);
                if !index.is_null() {
                    ptr::write(index, i);
                }
                TRUE
            }
            Err(msg) => complain(call, &msg),
        }
    })
}

/// `logical ma_push_get(type, nelem, name, memhandle, index)`: a stack
/// block of `nelem` elements; its handle and its index in the base array
/// of `type`. `.false.` (with a message) if it cannot be had.
#[no_mangle]
pub extern "C" fn ma_push_get_(
    datatype: *const FInt,
    nelem: *const FInt,
    name: *const c_char,
    memhandle: *mut FInt,
    index: *mut FInt,
    namelen: usize,
) -> FLog {
    alloc_entry(
        "ma_push_get",
        datatype,
        nelem,
        name,
        memhandle,
        index,
        namelen,
        true,
    )
}

/// `logical ma_push_stack(type, nelem, name, memhandle)`: as `ma_push_get`
/// without the index.
#[no_mangle]
pub extern "C" fn ma_push_stack_(
    datatype: *const FInt,
    nelem: *const FInt,
    name: *const c_char,
    memhandle: *mut FInt,
    namelen: usize,
) -> FLog {
    alloc_entry(
        "ma_push_stack",
        datatype,
        nelem,
        name,
        memhandle,
        std::ptr::null_mut(),
        namelen,
        true,
    )
}

/// `logical ma_alloc_get(type, nelem, name, memhandle, index)`: a heap
/// block; its handle and index. `.false.` (with a message) on failure.
#[no_mangle]
pub extern "C" fn ma_alloc_get_(
    datatype: *const FInt,
    nelem: *const FInt,
    name: *const c_char,
    memhandle: *mut FInt,
    index: *mut FInt,
    namelen: usize,
) -> FLog {
    alloc_entry(
        "ma_alloc_get",
        datatype,
        nelem,
        name,
        memhandle,
        index,
        namelen,
        false,
    )
}

/// `logical ma_allocate_heap(type, nelem, name, memhandle)`: as
/// `ma_alloc_get` without the index.
#[no_mangle]
pub extern "C" fn ma_allocate_heap_(
    datatype: *const FInt,
    nelem: *const FInt,
    name: *const c_char,
    memhandle: *mut FInt,
    namelen: usize,
) -> FLog {
    alloc_entry(
        "ma_allocate_heap",
        datatype,
        nelem,
        name,
        memhandle,
        std::ptr::null_mut(),
        namelen,
        false,
    )
}

/// `logical ma_pop_stack(memhandle)`: frees the top stack block, which
/// must be `memhandle`; `.false.` (with a message) otherwise.
#[no_mangle]
pub extern "C" fn ma_pop_stack_(memhandle: *const FInt) -> FLog {
    entry("ma_pop_stack", FALSE, || {
        let Some(h) = read_int(memhandle) else {
            return complain("ma_pop_stack", "missing argument");
        };
        let mut ma = MA.lock();
        match ma.stack.last() {
            Some(&top) if top == h => {
                release(&mut ma, h, true);
                TRUE
            }
            Some(&top) => {
                let top_name = ma.blocks.get(&top).map_or("", |b| b.name.as_str());
                let msg = format!(
                    "handle {h} is not the top of the stack (the top is {top}, '{top_name}')"
                );
                complain("ma_pop_stack", &msg)
            }
            None => complain("ma_pop_stack", &format!("the stack is empty (handle {h})")),
        }
    })
}

/// `logical ma_chop_stack(memhandle)`: frees stack block `memhandle` and
/// every block above it; `.false.` (with a message) for a bad handle.
#[no_mangle]
pub extern "C" fn ma_chop_stack_(memhandle: *const FInt) -> FLog {
    entry("ma_chop_stack", FALSE, || {
        let Some(h) = read_int(memhandle) else {
            return complain("ma_chop_stack", "missing argument");
        };
        let mut ma = MA.lock();
        let Some(pos) = ma.stack.iter().position(|&x| x == h) else {
            return complain("ma_chop_stack", &format!("{h} is not a stack block handle"));
        };
        let above: Vec<i64> = ma.stack[pos..].to_vec();
        for x in above.into_iter().rev() {
            release(&mut ma, x, false);
        }
        TRUE
    })
}

/// `logical ma_free_heap(memhandle)`: frees a heap block; `.false.` (with
/// a message) for a handle that is not one.
#[no_mangle]
pub extern "C" fn ma_free_heap_(memhandle: *const FInt) -> FLog {
    entry("ma_free_heap", FALSE, || {
        let Some(h) = read_int(memhandle) else {
            return complain("ma_free_heap", "missing argument");
        };
        let mut ma = MA.lock();
        match ma.blocks.get(&h) {
            Some(b) if !b.on_stack => {
                release(&mut ma, h, true);
                TRUE
            }
            Some(_) => complain("ma_free_heap", &format!("{h} is a stack block handle")),
            None => complain("ma_free_heap", &format!("{h} is not a heap block handle")),
        }
    })
}

/// `logical ma_get_index(memhandle, index)`: the base-array index of a
/// block; `.false.` (with a message) for an unknown handle.
#[no_mangle]
pub extern "C" fn ma_get_index_(memhandle: *const FInt, index: *mut FInt) -> FLog {
    entry("ma_get_index", FALSE, || {
        let Some(h) = read_int(memhandle) else {
            return complain("ma_get_index", "missing argument");
        };
        match MA.lock().blocks.get(&h) {
            Some(b) => flog(ptr::write(index, b.index)),
            None => complain("ma_get_index", &format!("{h} is not a block handle")),
        }
    })
}

fn inquire(call: &str, datatype: *const FInt, ask: fn(&Space, usize) -> i64) -> FInt {
    let Some(base) = read_int(datatype).and_then(Base::of_type) else {
        complain(call, "invalid MA type");
        return 0;
    };
    ma_space::with_segment(|s| s.as_ref().map_or(0, |s| ask(s, base.size())))
}

/// `integer ma_inquire_avail(type)`: elements of `type` one block can take
/// from the space between heap and stack.
#[no_mangle]
pub extern "C" fn ma_inquire_avail_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_avail", 0, || {
        inquire("ma_inquire_avail", datatype, Space::avail)
    })
}

/// `integer ma_inquire_heap(type)`: elements of `type` one heap block can
/// take.
#[no_mangle]
pub extern "C" fn ma_inquire_heap_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_heap", 0, || {
        inquire("ma_inquire_heap", datatype, Space::heap)
    })
}

/// `integer ma_inquire_stack(type)`: elements of `type` one stack block
/// can take.
#[no_mangle]
pub extern "C" fn ma_inquire_stack_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_stack", 0, || {
        inquire("ma_inquire_stack", datatype, Space::stack)
    })
}

/// `integer ma_inquire_heap_check_stack(type)`: as `ma_inquire_heap`,
/// also keeping out of a stack that grew past the partition.
#[no_mangle]
pub extern "C" fn ma_inquire_heap_check_stack_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_heap_check_stack", 0, || {
        inquire(
            "ma_inquire_heap_check_stack",
            datatype,
            Space::heap_check_stack,
        )
    })
}

/// `integer ma_inquire_heap_no_partition(type)`: elements of `type` one
/// heap block can take, the partition ignored (up to the stack).
#[no_mangle]
pub extern "C" fn ma_inquire_heap_no_partition_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_heap_no_partition", 0, || {
        inquire(
            "ma_inquire_heap_no_partition",
            datatype,
            Space::heap_no_partition,
        )
    })
}

/// `integer ma_inquire_stack_check_heap(type)`: as `ma_inquire_stack`,
/// also keeping out of a heap that grew past the partition.
#[no_mangle]
pub extern "C" fn ma_inquire_stack_check_heap_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_stack_check_heap", 0, || {
        inquire(
            "ma_inquire_stack_check_heap",
            datatype,
            Space::stack_check_heap,
        )
    })
}

/// `integer ma_inquire_stack_no_partition(type)`: elements of `type` one
/// stack block can take, the partition ignored (`ma_inquire_avail`).
#[no_mangle]
pub extern "C" fn ma_inquire_stack_no_partition_(datatype: *const FInt) -> FInt {
    entry("ma_inquire_stack_no_partition", 0, || {
        inquire("ma_inquire_stack_no_partition", datatype, Space::avail)
    })
}

/// `logical ma_free_heap_piece(memhandle, nelem)`: gives back the last
/// `nelem` elements of a heap block (all of them frees the block); the
/// handle and index stay valid for the rest. `.false.` (with a message)
/// for a handle that is not a heap block or a negative `nelem`.
#[no_mangle]
pub extern "C" fn ma_free_heap_piece_(memhandle: *const FInt, nelem: *const FInt) -> FLog {
    const CALL: &str = "ma_free_heap_piece";
    entry(CALL, FALSE, || {
        let (Some(h), Some(n)) = (read_int(memhandle), read_int(nelem)) else {
            return complain(CALL, "missing argument");
        };
        let mut ma = MA.lock();
        let Some(b) = ma.blocks.get(&h).filter(|b| !b.on_stack) else {
            return complain(CALL, &format!("{h} is not a heap block handle"));
        };
        let (size, at, name) = (b.base.size(), b.at, b.name.clone());
        let have = (b.counted / size) as i64;
        if n < 0 {
            return complain(CALL, &format!("block '{name}', invalid nelem: {n}"));
        }
        if n >= have {
            release(&mut ma, h, true);
            return TRUE;
        }
        trace(|| format!("freeing {n} elements of '{name}'"));
        let keep = have - n;
        if let Some(b) = ma.blocks.get_mut(&h) {
            b.counted = keep as usize * size;
        }
        ma_space::with_segment(|s| {
            if let Some(s) = s.as_mut() {
                s.shrink_heap(at, keep, size);
            }
        });
        TRUE
    })
}

/// `logical ma_init_memhandle_iterator(ithandle)`: GA's MA does not
/// implement the scan of allocated blocks; as there, a message and
/// `.false.`.
#[no_mangle]
pub extern "C" fn ma_init_memhandle_iterator_(_ithandle: *mut FInt) -> FLog {
    complain("ma_init_memhandle_iterator", "not yet implemented")
}

/// `logical ma_get_next_memhandle(ithandle, memhandle)`: as
/// `ma_init_memhandle_iterator`, a message and `.false.` (GA's MA does
/// not implement the scan).
#[no_mangle]
pub extern "C" fn ma_get_next_memhandle_(_ithandle: *mut FInt, _memhandle: *mut FInt) -> FLog {
    complain("ma_get_next_memhandle", "not yet implemented")
}

/// `logical ma_set_numalign(n)`: records the alignment asked for (0 to
/// 30); `.false.` (with a message) outside that range. Blocks here start
/// on 64-byte boundaries in their own allocations whatever it is.
#[no_mangle]
pub extern "C" fn ma_set_numalign_(numalign: *const FInt) -> FLog {
    entry("ma_set_numalign", FALSE, || match read_int(numalign) {
        Some(n) if (0..=30).contains(&n) => {
            NUMALIGN.store(n, std::sync::atomic::Ordering::Relaxed);
            TRUE
        }
        Some(n) => complain("ma_set_numalign", &format!("invalid alignment: {n}")),
        None => complain("ma_set_numalign", "missing argument"),
    })
}

/// `logical ma_get_numalign(n)`: the alignment `ma_set_numalign` last
/// recorded (0 at start); always `.true.`.
#[no_mangle]
pub extern "C" fn ma_get_numalign_(numalign: *mut FInt) -> FLog {
    entry("ma_get_numalign", FALSE, || {
        flog(ptr::write(
            numalign,
            NUMALIGN.load(std::sync::atomic::Ordering::Relaxed),
        ))
    })
}

/// `subroutine ma_trace(value)`: a nonzero value prints a line for every
/// block pushed, popped, allocated or freed (`MA: pushing 'name' (n)`),
/// as GA's MA does; zero stops it.
#[no_mangle]
pub extern "C" fn ma_trace_(value: *const FInt) {
    entry("ma_trace", (), || {
        let on = read_int(value).unwrap_or(0) != 0;
        TRACE.store(on, std::sync::atomic::Ordering::Relaxed);
    })
}

/// `integer ma_set_sizes()`: GA's hook that tells MA where the Fortran
/// base arrays are, before `ma_init`. Here they are found on first use,
/// so it only looks them up: 1 before MA is initialized; after, 0 with a
/// message, as GA's MA answers.
#[no_mangle]
pub extern "C" fn ma_set_sizes_() -> FInt {
    entry("ma_set_sizes", 0, || {
        if ma_space::initialized() {
            complain("ma_set_sizes", "MA already initialized");
            return 0;
        }
        for b in Base::ALL {
            b.address();
        }
        1
    })
}

/// `logical ma_set_auto_verify(value)`: accepted; returns `.false.` (the
/// previous setting: blocks are not verified).
#[no_mangle]
pub extern "C" fn ma_set_auto_verify_(_value: *const FLog) -> FLog {
    FALSE
}

/// `logical ma_set_error_print(value)`: accepted; returns `.true.` (the
/// previous setting: errors are always printed).
#[no_mangle]
pub extern "C" fn ma_set_error_print_(_value: *const FLog) -> FLog {
    TRUE
}

/// `logical ma_set_hard_fail(value)`: accepted; returns `.false.` (the
/// previous setting: failures return `.false.`).
#[no_mangle]
pub extern "C" fn ma_set_hard_fail_(_value: *const FLog) -> FLog {
    FALSE
}

/// `logical ma_verify_allocator_stuff()`: returns `.true.` (blocks carry
/// no guard words to check).
#[no_mangle]
pub extern "C" fn ma_verify_allocator_stuff_() -> FLog {
    TRUE
}

/// `subroutine ma_summarize_allocated_blocks()`: prints every live block
/// (handle, name, stack or heap, bytes, base array and index) to stdout.
#[no_mangle]
pub extern "C" fn ma_summarize_allocated_blocks_() {
    entry("ma_summarize_allocated_blocks", (), || {
        let ma = MA.lock();
        let mut hs: Vec<&i64> = ma.blocks.keys().collect();
        hs.sort();
        println!("MA: {} allocated block(s)", hs.len());
        for h in hs {
            let b = &ma.blocks[h];
            println!(
                "  handle {h} '{}' {} {} bytes at {}({})",
                b.name,
                if b.on_stack { "stack" } else { "heap" },
                b.counted,
                b.base.array(),
                b.index
            );
        }
    })
}

/// `subroutine ma_print_stats(verbose)`: prints the stack and heap use.
#[no_mangle]
pub extern "C" fn ma_print_stats_(_verbose: *const FLog) {
    entry("ma_print_stats", (), || {
        let ma = MA.lock();
        let used = |stack: bool| -> usize {
            ma.blocks
                .values()
                .filter(|b| b.on_stack == stack)
                .map(|b| b.counted)
                .sum()
        };
        println!(
            "MA: stack {} bytes used, heap {} bytes used, {} block(s)",
            used(true),
            used(false),
            ma.blocks.len()
        );
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizeof_rounds_up() {
        let (d, i, b, c) = (
            codes::F_DBL as i64,
            codes::F_INT as i64,
            codes::F_BYTE as i64,
            codes::F_DCPL as i64,
        );
        assert_eq!(ma_sizeof_(&d, &3, &b), 24);
        assert_eq!(ma_sizeof_(&b, &9, &d), 2);
        assert_eq!(ma_sizeof_(&c, &1, &i), 2);
        assert_eq!(ma_sizeof_(&i, &0, &d), 0);
    }

    #[test]
    fn blocks_are_indexed_and_stack_ordered() {
        let _one = ma_space::test_segment();
        let d = codes::F_DBL as i64;
        assert_eq!(ma_init_(&d, &1000, &1000), TRUE);
        let (mut h1, mut i1, mut h2, mut i2) = (0, 0, 0, 0);
        let name = b"a";
        assert_eq!(
            ma_push_get_(&d, &10, name.as_ptr() as _, &mut h1, &mut i1, 1),
            TRUE
        );
        assert_eq!(
            ma_push_get_(&d, &10, name.as_ptr() as _, &mut h2, &mut i2, 1),
            TRUE
        );
        // Two live blocks of 10 elements never overlap.
        assert!((i2 - i1).abs() >= 10, "blocks at {i1} and {i2} overlap");
        let mut again = 0;
        assert_eq!(ma_get_index_(&h2, &mut again), TRUE);
        assert_eq!(again, i2);
        // Not the top: refused, nothing freed.
        assert_eq!(ma_pop_stack_(&h1), FALSE);
        assert_eq!(ma_pop_stack_(&h2), TRUE);
        assert_eq!(ma_pop_stack_(&h1), TRUE);
        // The stack may grow into the free heap space, not beyond it.
        let mut h3 = 0;
        assert_eq!(
            ma_push_stack_(&d, &2100, name.as_ptr() as _, &mut h3, 1),
            FALSE
        );
        let mut i4 = 0;
        assert_eq!(
            ma_alloc_get_(&d, &1000, name.as_ptr() as _, &mut h3, &mut i4, 1),
            TRUE
        );
        assert_eq!(ma_free_heap_(&h3), TRUE);
        assert_eq!(ma_free_heap_(&h3), FALSE);
    }
}
