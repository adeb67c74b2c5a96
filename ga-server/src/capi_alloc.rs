//! The GA C ABI's calls about an array's memory rather than its data:
//! `GA_Deallocate` (free it, keep the description for another
//! `GA_Allocate`), `GA_Overlay` (place a described array in another's
//! memory), `GA_Getmem`/`GA_Freemem` and `GA_Assemble_duplicate` (memory
//! first, an array in it later) and `GA_Register_stack_memory` (the
//! program's allocator for GA's temporaries), with their `NGA_` names.
//!
//! `GA_Getmem` memory is a 1-D array with one block of `nelem` elements
//! per process of the group, held in the servers' segments like any
//! array, so `GA_Assemble_duplicate` overlays it as `GA_Overlay` does.
//!
//! Return codes: `GA_Deallocate` returns 1 when the memory was freed and 0
//! when the handle names no allocated array (as GA returns FALSE); an
//! array that `NGA_Create` (not `GA_Create_handle`) made is deallocated
//! too, as in GA 5.8: its handle is no longer valid, keeps the array's
//! description and awaits `GA_Allocate`.
//! `GA_Overlay` returns 1, or 0 when the new array does not fit in the
//! parent's memory on some process. `GA_Getmem` returns this process's
//! memory (never NULL); `GA_Assemble_duplicate` the new handle, or 0 when
//! the array does not fit in the memory. `GA_Freemem` and
//! `GA_Register_stack_memory` return nothing. Bad arguments (unknown
//! handles or types, an address `GA_Getmem` did not return, arrays on
//! other processes than the memory) end the job through `GA_Error` naming
//! the call. No panic crosses into C.

use crate::capi::{deallocate, overlay, resolve_handle, run, type_of};
use crate::core::{self, Distribution, GaError, Handle};
use std::ffi::{c_char, c_int, c_void};
use std::sync::Mutex;

/// Frees the memory of an array (made by `GA_Allocate` or by
/// `NGA_Create` and its kin), keeping its description: the handle awaits
/// `GA_Allocate` again (collective; the data are lost). Returns 1, or 0 if
/// `g` names no allocated array.
#[no_mangle]
pub extern "C" fn GA_Deallocate(g: c_int) -> c_int {
    run("GA_Deallocate", || {
        deallocate("GA_Deallocate", g).map(c_int::from)
    })
}

/// Same as `GA_Deallocate`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Deallocate(g: c_int) -> c_int {
    run("NGA_Deallocate", || {
        deallocate("NGA_Deallocate", g).map(c_int::from)
    })
}

/// The program's allocator for temporaries (`size`, an alignment hint, a
/// name) and its release function.
type ExtAlloc = extern "C" fn(usize, c_int, *mut c_char) -> *mut c_void;
type ExtFree = extern "C" fn(*mut c_void);

/// What `GA_Register_stack_memory` was given last.
static STACK_MEMORY: Mutex<Option<(Option<ExtAlloc>, Option<ExtFree>)>> = Mutex::new(None);

/// Records the program's functions for GA's temporary memory. GA leaves
/// their use to the implementation: here temporaries come from the
/// library's own allocator and the functions are kept but never called
/// (a NULL pair is accepted). Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Register_stack_memory(alloc: Option<ExtAlloc>, free: Option<ExtFree>) {
    run("GA_Register_stack_memory", || {
        let mut m = STACK_MEMORY.lock().unwrap_or_else(|e| e.into_inner());
        *m = Some((alloc, free));
        Ok(())
    })
}

/// Completes the handle `g` from `GA_Create_handle` (after `GA_Set_data`
/// and the other `GA_Set_*` calls) with its blocks in the memory of the
/// allocated array `parent` on the same processes: each process's block
/// starts where its block of `parent` starts, so the two arrays share data
/// (collective). Returns 1, or 0 when some block is larger than the
/// parent's block on its process.
#[no_mangle]
pub extern "C" fn GA_Overlay(g: c_int, parent: c_int) -> c_int {
    run("GA_Overlay", || {
        overlay("GA_Overlay", g, parent).map(c_int::from)
    })
}

/// Same as `GA_Overlay`; returns 1 or 0.
#[no_mangle]
pub extern "C" fn NGA_Overlay(g: c_int, parent: c_int) -> c_int {
    run("NGA_Overlay", || {
        overlay("NGA_Overlay", g, parent).map(c_int::from)
    })
}

/// The memory `GA_Getmem` handed out: this process's address, the array
/// holding it.
static GETMEM: Mutex<Vec<(usize, Handle)>> = Mutex::new(Vec::new());

/// Allocates `nelem` elements of `ty` on every process of group `grp`
/// (0 or less: all processes) in memory the other processes reach
/// (collective over the group); returns this process's part, to be given
/// to `GA_Assemble_duplicate` and `GA_Freemem`. A bad type, a negative
/// count or a group this process is not in ends the job through
/// `GA_Error`.
#[no_mangle]
pub extern "C" fn GA_Getmem(ty: c_int, nelem: c_int, grp: c_int) -> *mut c_void {
    const CALL: &str = "GA_Getmem";
    run(CALL, || {
        let t = type_of(CALL, ty)?;
        if nelem < 0 {
            return Err(GaError::new(CALL, format!("nelem={nelem} is negative")));
        }
        let grp = if grp <= 0 { core::pgroups::WORLD } else { grp };
        let (members, _) = core::pgroups::group(CALL, grp)?;
        let n = i64::from(nelem.max(1));
        let np = members.len() as i64;
        let dist = Distribution::Irregular {
            block: vec![np],
            map: (0..np).map(|p| p * n).collect(),
        };
        let h =
            core::pgroups::on_group(grp, || core::create(CALL, t, &[n * np], "GA_Getmem", &dist))?;
        let Some((p, ..)) = core::access(h)? else {
            return Err(GaError::new(
                CALL,
                "internal: no block of GA_Getmem memory here",
            ));
        };
        GETMEM
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((p as usize, h));
        Ok(p.cast::<c_void>())
    })
}

/// The array behind memory `ptr` from `GA_Getmem`.
fn getmem_array(call: &'static str, ptr: *mut c_void) -> Result<Handle, GaError> {
    GETMEM
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|&&(p, _)| p == ptr as usize)
        .map(|&(_, h)| h)
        .ok_or_else(|| GaError::new(call, format!("{ptr:?} is not memory from GA_Getmem")))
}

/// Frees memory from `GA_Getmem` (collective over its group); arrays
/// assembled in it must not be used afterwards. Returns nothing.
#[no_mangle]
pub extern "C" fn GA_Freemem(ptr: *mut c_void) {
    const CALL: &str = "GA_Freemem";
    run(CALL, || {
        let h = getmem_array(CALL, ptr)?;
        core::destroy(h)?;
        GETMEM
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&(p, _)| p != ptr as usize);
        Ok(())
    })
}

/// Makes an array with the shape and distribution of `g`, named `name`,
/// of the element type `ptr`'s memory was asked for, lying in the memory
/// `ptr` from `GA_Getmem` (collective). Returns its handle, or 0 when its
/// blocks do not fit in the memory on every process.
#[no_mangle]
pub extern "C" fn GA_Assemble_duplicate(g: c_int, name: *const c_char, ptr: *mut c_void) -> c_int {
    const CALL: &str = "GA_Assemble_duplicate";
    run(CALL, || {
        let mem = getmem_array(CALL, ptr)?;
        let src = resolve_handle(g);
        let (_, dims) = core::inquire(src)
            .map_err(|_| GaError::new(CALL, format!("invalid array handle {g}")))?;
        let (ty, _) = core::inquire(mem)?;
        let dist = core::distribution_of(src)?;
        let label = crate::capi_ptr::c_str(name).unwrap_or_default();
        Ok(core::overlay(CALL, mem, (ty, &dims, &dist), &[], &label)?.unwrap_or(0))
    })
}
