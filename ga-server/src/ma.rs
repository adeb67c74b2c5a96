//! MA, GA's memory allocator, for C programs (`macdecls.h`): `MA_init`,
//! `MA_sizeof`, stack and heap blocks with handles, pointers and indices.
//! Global arrays do not live in MA (`GA_Uses_ma()` is 0); MA serves the
//! programs that allocate their own work space through it.
//!
//! An MA index is the block's address divided by the element size, so
//! `MA_get_mbase(type)` is NULL and `base + index` is the block for every
//! type.
//!
//! Space is counted as GA's MA counts it (`ma_space`): a stack and a heap
//! of the sizes `MA_init` asked for, each block with MA's own overhead, so
//! `MA_inquire_stack`, `MA_inquire_heap` and `MA_inquire_avail` give GA's
//! figures. The segment is the one the Fortran `ma_init` starts too.

use crate::capi_ptr as ptr;
use crate::ma_space::{self, Region, Space};
use shim_core::ffi_guard::guard;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_long, c_void};
use std::sync::Mutex;

/// MA's `Integer` and `Boolean` (C `long`).
pub type Integer = c_long;

const MA_TRUE: Integer = 1;
const MA_FALSE: Integer = 0;

/// Size in bytes of an MA type code (`MT_C_*` 1000..1008, `MT_F_*`
/// 1009..1015, `MT_C_LONGLONG` 1016); Fortran INTEGER and LOGICAL are 8.
pub fn type_size(code: Integer) -> Option<usize> {
    Some(match code {
        1000 | 1009 => 1,
        1001 | 1003 | 1012 => 4,
        1002 | 1004 | 1006 | 1010 | 1011 | 1013 | 1014 | 1016 => 8,
        1005 | 1007 | 1015 => 16,
        1008 => 32,
        _ => return None,
    })
}

struct Block {
    /// 16-byte aligned storage.
    data: Vec<u128>,
    code: Integer,
    nelem: Integer,
    name: String,
    on_stack: bool,
    /// Where the block sits in MA's segment.
    at: i64,
}

struct Ma {
    next: Integer,
    blocks: BTreeMap<Integer, Block>,
    stack: Vec<Integer>,
    print_errors: bool,
}

static MA: Mutex<Ma> = Mutex::new(Ma {
    next: 1,
    blocks: BTreeMap::new(),
    stack: Vec::new(),
    print_errors: true,
});

fn with_ma<R>(f: impl FnOnce(&mut Ma) -> R) -> R {
    let mut g = MA.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut g)
}

fn complain(call: &str, msg: &str) {
    let print = with_ma(|m| m.print_errors);
    if print {
        eprintln!("MA error: {call}: {msg}");
    }
}

/// The address of an MA block's data (for the Fortran API's indices).
pub fn block_address(handle: Integer) -> Option<usize> {
    with_ma(|m| m.blocks.get(&handle).map(|b| ptr::addr(b.data.as_ptr())))
}

/// Initialises MA with a stack of `stack` and a heap of `heap` elements
/// of `datatype` (negative: 512 KiB). Returns MA_TRUE, or MA_FALSE for a
/// bad type, sizes beyond memory or a second call.
#[no_mangle]
pub extern "C" fn MA_init(datatype: Integer, stack: Integer, heap: Integer) -> Integer {
    guard("MA_init", MA_FALSE, || {
        let Some(size) = type_size(datatype) else {
            complain("MA_init", &format!("invalid datatype {datatype}"));
            return MA_FALSE;
        };
        if ma_space::initialized() {
            complain("MA_init", "MA already initialized");
            return MA_FALSE;
        }
        if !ma_space::start(Space::new(size, stack, heap)) {
            complain(
                "MA_init",
                &format!("a stack of {stack} and a heap of {heap} elements do not fit in memory"),
            );
            return MA_FALSE;
        }
        MA_TRUE
    })
}

/// Returns MA_TRUE once MA_init (or the Fortran ma_init) has succeeded.
#[no_mangle]
pub extern "C" fn MA_initialized() -> Integer {
    guard("MA_initialized", MA_FALSE, || {
        ma_space::initialized() as Integer
    })
}

/// Returns how many elements of `datatype2` hold `nelem1` elements of
/// `datatype1` (rounded up), or 0 for a bad type.
#[no_mangle]
pub extern "C" fn MA_sizeof(datatype1: Integer, nelem1: Integer, datatype2: Integer) -> Integer {
    guard("MA_sizeof", 0, || {
        match (type_size(datatype1), type_size(datatype2)) {
            (Some(a), Some(b)) => match (nelem1.max(0) as usize).checked_mul(a) {
                Some(bytes) => Integer::try_from(bytes.div_ceil(b)).unwrap_or(0),
                None => {
                    complain(
                        "MA_sizeof",
                        &format!("{nelem1} elements of {a} bytes do not fit in memory"),
                    );
                    0
                }
            },
            _ => {
                complain(
                    "MA_sizeof",
                    &format!("invalid datatype {datatype1} or {datatype2}"),
                );
                0
            }
        }
    })
}

/// Returns 0: blocks carry no overhead counted in elements.
#[no_mangle]
pub extern "C" fn MA_sizeof_overhead(_datatype: Integer) -> Integer {
    0
}

fn allocate(
    call: &str,
    code: Integer,
    nelem: Integer,
    name: *const c_char,
    on_stack: bool,
) -> Option<Integer> {
    let Some(size) = type_size(code) else {
        complain(call, &format!("invalid datatype {code}"));
        return None;
    };
    if nelem < 0 {
        complain(call, &format!("invalid number of elements {nelem}"));
        return None;
    }
    let label = ptr::c_str(name).unwrap_or_default();
    let Some(bytes) = (nelem as usize)
        .checked_mul(size)
        .filter(|b| *b <= isize::MAX as usize)
    else {
        complain(
            call,
            &format!("'{label}': {nelem} elements of {size} bytes do not fit in memory"),
        );
        return None;
    };
    let region = Region::of(on_stack);
    let at = ma_space::with_segment(|s| match s.as_mut() {
        None => Err("MA not yet initialized (call MA_init first)".to_string()),
        Some(s) => s
            .reserve(region, nelem, size)
            .map_err(|need| format!("'{label}': not enough space to allocate {need} bytes")),
    });
    let r = at.and_then(|at| {
        with_ma(|m| {
            let h = m.next;
            m.next += 1;
            let words = bytes.div_ceil(16).max(1);
            m.blocks.insert(
                h,
                Block {
                    data: vec![0u128; words],
                    code,
                    nelem,
                    name: label.clone(),
                    on_stack,
                    at,
                },
            );
            if on_stack {
                m.stack.push(h);
            }
            Ok(h)
        })
    });
    match r {
        Ok(h) => Some(h),
        Err(msg) => {
            complain(call, &msg);
            None
        }
    }
}

fn index_of(handle: Integer) -> Option<Integer> {
    with_ma(|m| {
        let b = m.blocks.get(&handle)?;
        let size = type_size(b.code)?;
        Some((ptr::addr(b.data.as_ptr()) / size) as Integer)
    })
}

/// The four allocation entry points: allocates on the stack or the heap,
/// stores the handle (and the index when asked); MA_TRUE or MA_FALSE.
fn allocate_entry(
    call: &'static str,
    stack: bool,
    datatype: Integer,
    nelem: Integer,
    name: *const c_char,
    memhandle: *mut Integer,
    index: Option<*mut Integer>,
) -> Integer {
    guard(call, MA_FALSE, || {
        if memhandle.is_null() || index.is_some_and(|i| i.is_null()) {
            complain(call, "memhandle or index is a null pointer");
            return MA_FALSE;
        }
        match allocate(call, datatype, nelem, name, stack) {
            Some(h) => {
                ptr::put_one(memhandle, h);
                if let Some(i) = index {
                    ptr::put_one(i, index_of(h).unwrap_or(0));
                }
                MA_TRUE
            }
            None => MA_FALSE,
        }
    })
}

/// Pushes a block of `nelem` elements on the stack; stores its handle.
/// Returns MA_TRUE, or MA_FALSE (with a message) when it cannot.
#[no_mangle]
pub extern "C" fn MA_push_stack(
    datatype: Integer,
    nelem: Integer,
    name: *const c_char,
    memhandle: *mut Integer,
) -> Integer {
    allocate_entry(
        "MA_push_stack",
        true,
        datatype,
        nelem,
        name,
        memhandle,
        None,
    )
}

/// `MA_push_stack`, also storing the block's index; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_push_get(
    datatype: Integer,
    nelem: Integer,
    name: *const c_char,
    memhandle: *mut Integer,
    index: *mut Integer,
) -> Integer {
    allocate_entry(
        "MA_push_get",
        true,
        datatype,
        nelem,
        name,
        memhandle,
        Some(index),
    )
}

/// Allocates a heap block; stores its handle. Returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_allocate_heap(
    datatype: Integer,
    nelem: Integer,
    name: *const c_char,
    memhandle: *mut Integer,
) -> Integer {
    allocate_entry(
        "MA_allocate_heap",
        false,
        datatype,
        nelem,
        name,
        memhandle,
        None,
    )
}

/// `MA_allocate_heap`, also storing the index; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_alloc_get(
    datatype: Integer,
    nelem: Integer,
    name: *const c_char,
    memhandle: *mut Integer,
    index: *mut Integer,
) -> Integer {
    allocate_entry(
        "MA_alloc_get",
        false,
        datatype,
        nelem,
        name,
        memhandle,
        Some(index),
    )
}

fn free(call: &str, handle: Integer, stack: bool) -> Integer {
    let r = with_ma(|m| {
        match m.blocks.get(&handle) {
            Some(b) if b.on_stack == stack => {}
            Some(_) => return Err("the block is not on the stack/heap this call frees"),
            None => return Err("invalid memory handle"),
        }
        if stack && m.stack.last() != Some(&handle) {
            return Err("the block is not on top of the stack");
        }
        if stack {
            m.stack.pop();
        }
        if let Some(b) = m.blocks.remove(&handle) {
            ma_space::with_segment(|s| {
                if let Some(s) = s.as_mut() {
                    if stack {
                        s.pop_to(b.at);
                    } else {
                        s.free_heap(b.at);
                    }
                }
            });
        }
        Ok(())
    });
    match r {
        Ok(()) => MA_TRUE,
        Err(msg) => {
            complain(call, &format!("handle {handle}: {msg}"));
            MA_FALSE
        }
    }
}

/// Pops the top stack block `memhandle`; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_pop_stack(memhandle: Integer) -> Integer {
    guard("MA_pop_stack", MA_FALSE, || {
        free("MA_pop_stack", memhandle, true)
    })
}

/// Pops stack blocks down to and including `memhandle`; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_chop_stack(memhandle: Integer) -> Integer {
    guard("MA_chop_stack", MA_FALSE, || {
        let present = with_ma(|m| m.stack.contains(&memhandle));
        if !present {
            complain(
                "MA_chop_stack",
                &format!("handle {memhandle} is not on the stack"),
            );
            return MA_FALSE;
        }
        loop {
            let top = with_ma(|m| m.stack.last().copied());
            let Some(t) = top else { return MA_FALSE };
            if free("MA_chop_stack", t, true) == MA_FALSE {
                return MA_FALSE;
            }
            if t == memhandle {
                return MA_TRUE;
            }
        }
    })
}

/// Frees a heap block; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_free_heap(memhandle: Integer) -> Integer {
    guard("MA_free_heap", MA_FALSE, || {
        free("MA_free_heap", memhandle, false)
    })
}

/// Stores the block's address in `*(void **)pointer`; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_get_pointer(memhandle: Integer, pointer: *mut c_void) -> Integer {
    guard("MA_get_pointer", MA_FALSE, || {
        match block_address(memhandle) {
            Some(a) => ptr::put_ptr(pointer, a as *mut c_void) as Integer,
            None => {
                complain(
                    "MA_get_pointer",
                    &format!("invalid memory handle {memhandle}"),
                );
                MA_FALSE
            }
        }
    })
}

/// Stores the block's index; returns MA_TRUE or MA_FALSE.
#[no_mangle]
pub extern "C" fn MA_get_index(memhandle: Integer, index: *mut Integer) -> Integer {
    guard("MA_get_index", MA_FALSE, || match index_of(memhandle) {
        Some(i) => ptr::put_one(index, i) as Integer,
        None => {
            complain(
                "MA_get_index",
                &format!("invalid memory handle {memhandle}"),
            );
            MA_FALSE
        }
    })
}

/// Returns NULL: indices are addresses divided by the element size.
#[no_mangle]
pub extern "C" fn MA_get_mbase(_datatype: Integer) -> *mut c_char {
    std::ptr::null_mut()
}

/// One of the three inquiries: 0 (with a message) before MA_init or for a
/// bad type.
fn inquire(call: &'static str, datatype: Integer, ask: fn(&Space, usize) -> i64) -> Integer {
    guard(call, 0, || {
        let Some(size) = type_size(datatype) else {
            complain(call, &format!("invalid datatype {datatype}"));
            return 0;
        };
        match ma_space::with_segment(|s| s.as_ref().map(|s| ask(s, size))) {
            Some(n) => n,
            None => {
                complain(call, "MA not yet initialized");
                0
            }
        }
    })
}

/// Returns how many elements of `datatype` one block can take from the
/// space between heap and stack (ignoring the partition).
#[no_mangle]
pub extern "C" fn MA_inquire_avail(datatype: Integer) -> Integer {
    inquire("MA_inquire_avail", datatype, Space::avail)
}

/// Returns how many elements of `datatype` one heap block can take.
#[no_mangle]
pub extern "C" fn MA_inquire_heap(datatype: Integer) -> Integer {
    inquire("MA_inquire_heap", datatype, Space::heap)
}

/// Returns how many elements of `datatype` one stack block can take.
#[no_mangle]
pub extern "C" fn MA_inquire_stack(datatype: Integer) -> Integer {
    inquire("MA_inquire_stack", datatype, Space::stack)
}

/// Sets whether MA prints its errors; returns the previous setting.
#[no_mangle]
pub extern "C" fn MA_set_error_print(value: Integer) -> Integer {
    guard("MA_set_error_print", MA_TRUE, || {
        with_ma(|m| std::mem::replace(&mut m.print_errors, value != 0) as Integer)
    })
}

/// Accepted; returns MA_FALSE (the previous setting: no automatic checks).
#[no_mangle]
pub extern "C" fn MA_set_auto_verify(_value: Integer) -> Integer {
    MA_FALSE
}

/// Accepted; returns MA_FALSE (the previous setting).
#[no_mangle]
pub extern "C" fn MA_set_hard_fail(_value: Integer) -> Integer {
    MA_FALSE
}

/// Returns MA_TRUE: blocks are bounds-safe Rust allocations.
#[no_mangle]
pub extern "C" fn MA_verify_allocator_stuff() -> Integer {
    MA_TRUE
}

/// Prints the allocated blocks on stdout; returns nothing.
#[no_mangle]
pub extern "C" fn MA_summarize_allocated_blocks() {
    guard("MA_summarize_allocated_blocks", (), || {
        let text = with_ma(|m| {
            let mut s = String::from("MA_summarize_allocated_blocks: starting scan ...\n");
            let mut bytes = 0usize;
            for (h, b) in &m.blocks {
                s.push_str(&format!(
                    "  {} block '{}', handle {h}, {} elements of type {}\n",
                    if b.on_stack { "stack" } else { "heap" },
                    b.name,
                    b.nelem,
                    b.code
                ));
                bytes += b.nelem as usize * type_size(b.code).unwrap_or(1);
            }
            s.push_str(&format!(
                "MA usage: {} blocks, {bytes} bytes\n",
                m.blocks.len()
            ));
            s
        });
        ptr::flush_c_stdio();
        print!("{text}");
    })
}

/// Prints MA's usage on stdout; returns nothing.
#[no_mangle]
pub extern "C" fn MA_print_stats(_printroutines: Integer) {
    MA_summarize_allocated_blocks()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(MA_sizeof(1004, 3, 1001), 6);
        assert_eq!(MA_sizeof(1000, 5, 1013), 1);
        assert_eq!(MA_sizeof(1010, 1, 1000), 8);
        assert_eq!(MA_sizeof(5, 1, 1000), 0);
        assert_eq!(MA_sizeof(1013, (1 << 60) + 1, 1000), 0);
    }

    #[test]
    fn stack_and_heap() {
        let _one = ma_space::test_segment();
        assert_eq!(MA_init(1004, 100, 100), MA_TRUE);
        let (stack0, heap0, avail0) = (
            MA_inquire_stack(1004),
            MA_inquire_heap(1004),
            MA_inquire_avail(1004),
        );
        assert_eq!((stack0, heap0), (101, 101));
        let mut h = 0;
        let mut i = 0;
        assert_eq!(
            MA_push_get(1004, 50, std::ptr::null(), &mut h, &mut i),
            MA_TRUE
        );
        let mut h2 = 0;
        assert_eq!(
            MA_allocate_heap(1001, 10, std::ptr::null(), &mut h2),
            MA_TRUE
        );
        // The stack block takes its 50 elements and 12 of overhead; the
        // heap keeps its own space until the stack crosses the partition.
        assert_eq!(MA_inquire_stack(1004), stack0 - 62);
        assert!(MA_inquire_heap(1004) < heap0);
        assert!(MA_inquire_avail(1004) < avail0 - 55);
        let prev = MA_set_error_print(0);
        assert_eq!(prev, MA_TRUE);
        let mut h3 = 0;
        assert_eq!(
            MA_push_stack(1004, 1000, std::ptr::null(), &mut h3),
            MA_FALSE
        );
        // 2^60 + 1 sixteen-byte elements: the byte count wraps 64 bits to
        // 16 bytes, which would fit the limit.
        assert_eq!(
            MA_allocate_heap(1013, (1 << 60) + 1, std::ptr::null(), &mut h3),
            MA_FALSE
        );
        assert_eq!(MA_free_heap(h), MA_FALSE);
        assert_eq!(MA_pop_stack(h), MA_TRUE);
        assert_eq!(MA_free_heap(h2), MA_TRUE);
        assert_eq!(MA_inquire_avail(1004), avail0);
        assert_eq!(MA_inquire_stack(1004), stack0);
        assert_eq!(MA_inquire_heap(1004), heap0);
    }
}
