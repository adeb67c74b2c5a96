//! GA's binning of integers in the Fortran API (`ga_bin_index`,
//! `ga_bin_sorter`, `ga_create_bin_range` and their `nga_` spellings):
//! a 1-D integer array `g_bin` holds bins one after another, bin `b`
//! (from 1) taking `g_cnt(b)` elements from the 0-based offset
//! `g_off(b)`. All are collective; a bad argument ends the job naming the
//! routine.
//!
//! `ga_bin_index(g_bin, g_cnt, g_off, values, subs, n, sortit)` puts each
//! process's `n` values into the bins `subs` names (sorted, from 1): in a
//! bin, lower ranks' values come first (GA orders them by its message
//! tree, so only the sorted result is GA's own); `sortit` then sorts
//! every bin. `ga_bin_sorter` sorts every bin, ascending.
//! `ga_create_bin_range` makes `g_range`, a 2 x nproc integer array whose
//! column p+1 holds the bin that starts where process p's part of
//! `g_bin` starts and the bin that ends where it ends (0 where none
//! does).

#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::core::{self, codes};
use crate::fapi::{entry, fail, flog, int, ints, Arr};
use crate::ma_fortran::{FInt, FLog};
use std::ffi::c_void;

/// The 1-D integer array `p`, checked; its length.
fn int_vector(call: &str, p: *const FInt) -> i64 {
    let a = Arr::get(call, p);
    if a.ndim() != 1 || a.ftype() != i64::from(codes::F_INT) {
        fail(call, format!("'{}' is not a 1-D integer array", a.name()));
    }
    a.dims[0]
}

/// Elements `lo..=hi` (from 1) of the 1-D `g`, read or (`put`) written.
fn span(call: &str, g: *const FInt, lo: i64, hi: i64, buf: &mut [i64], put: bool) {
    if hi >= lo {
        crate::fapi::patch_2d_io(
            call,
            g,
            [lo, hi, 1, 1],
            buf.as_mut_ptr() as *mut c_void,
            hi - lo + 1,
            put,
        );
    }
}

/// Every bin's (offset, count), from `g_off` and `g_cnt`.
fn bins(call: &str, g_cnt: *const FInt, g_off: *const FInt) -> Vec<(i64, i64)> {
    let nbin = int_vector(call, g_off);
    if int_vector(call, g_cnt) != nbin {
        fail(call, "g_cnt and g_off differ in length");
    }
    let (mut off, mut cnt) = (vec![0; nbin as usize], vec![0; nbin as usize]);
    span(call, g_off, 1, nbin, &mut off, false);
    span(call, g_cnt, 1, nbin, &mut cnt, false);
    off.into_iter().zip(cnt).collect()
}

/// Sorts every bin, each process taking every nproc-th one.
fn sort_bins(call: &str, g_bin: *const FInt, g_cnt: *const FInt, g_off: *const FInt) {
    let total = int_vector(call, g_bin);
    let all = bins(call, g_cnt, g_off);
    let (me, np) = (core::nodeid() as usize, core::nnodes() as usize);
    crate::fapi::ga_sync_();
    for &(off, cnt) in all.iter().skip(me).step_by(np) {
        if cnt < 1 {
            continue;
        }
        if off < 0 || off + cnt > total {
            fail(
                call,
                format!("bin at {off} of {cnt} elements is outside g_bin"),
            );
        }
        let mut v = vec![0; cnt as usize];
        span(call, g_bin, off + 1, off + cnt, &mut v, false);
        v.sort_unstable();
        span(call, g_bin, off + 1, off + cnt, &mut v, true);
    }
    crate::fapi::ga_sync_();
}

/// Defines a routine under its `ga_` and `nga_` names.
macro_rules! both {
    ($(#[$doc:meta])* [$ga:ident, $nga:ident] ($($a:ident: $t:ty),*) $(-> $r:ty)? $body:block) => {
        $(#[$doc])*
        #[no_mangle]
        pub extern "C" fn $ga($($a: $t),*) $(-> $r)? $body
        #[doc = concat!("As `", stringify!($ga), "`.")]
        #[no_mangle]
        pub extern "C" fn $nga($($a: $t),*) $(-> $r)? {
            $ga($($a),*)
        }
    };
}

both!(
    /// `subroutine ga_bin_sorter(g_bin, g_cnt, g_off)`: sorts every bin.
    [ga_bin_sorter_, nga_bin_sorter_]
    (g_bin: *const FInt, g_cnt: *const FInt, g_off: *const FInt) {
        entry("ga_bin_sorter", || sort_bins("ga_bin_sorter", g_bin, g_cnt, g_off))
    }
);

both!(
    /// `subroutine ga_bin_index(g_bin, g_cnt, g_off, values, subs, n,
    /// sortit)`: puts `values(i)` into bin `subs(i)`; see the module
    /// header.
    [ga_bin_index_, nga_bin_index_]
    (
        g_bin: *const FInt,
        g_cnt: *const FInt,
        g_off: *const FInt,
        values: *const FInt,
        subs: *const FInt,
        n: *const FInt,
        sortit: *const FInt
    ) {
        const C: &str = "ga_bin_index";
        entry(C, || {
            let total = int_vector(C, g_bin);
            let all = bins(C, g_cnt, g_off);
            let n = int(C, n).max(0) as usize;
            let (vals, subs) = (ints(C, values, n), ints(C, subs, n));
            let mut mine = vec![0i64; all.len()];
            for &s in subs {
                if s < 1 || s as usize > all.len() {
                    fail(C, format!("wrong bin {s}"));
                }
                mine[s as usize - 1] += 1;
            }
            // Where each bin's part of this process starts: after the
            // lower ranks' parts (every rank's counts, summed over all).
            let (me, np, nb) = (core::nodeid() as usize, core::nnodes() as usize, all.len());
            let mut counts = vec![0i64; np * nb];
            counts[me * nb..(me + 1) * nb].copy_from_slice(&mine);
            crate::fapi::ga_igop_(&0, counts.as_mut_ptr(), &((np * nb) as i64), c"+".as_ptr(), 1);
            let before: Vec<i64> = (0..nb).map(|b| (0..me).map(|p| counts[p * nb + b]).sum()).collect();
            let mut i = 0;
            while i < n {
                let b = subs[i] as usize - 1;
                let k = mine[b] as usize;
                let lo = all[b].0 + before[b] + 1;
                let hi = lo + k as i64 - 1;
                if lo < 1 || hi > total {
                    fail(C, format!("bin {} runs past the end of g_bin", b + 1));
                }
                let mut v: Vec<i64> = vals[i..(i + k).min(n)].to_vec();
                span(C, g_bin, lo, hi, &mut v, true);
                i += k;
            }
            if int(C, sortit) != 0 {
                sort_bins(C, g_bin, g_cnt, g_off);
            } else {
                crate::fapi::ga_sync_();
            }
        })
    }
);

both!(
    /// `logical ga_create_bin_range(g_bin, g_cnt, g_off, g_range)`: makes
    /// `g_range` (see the module header); `.true.`.
    [ga_create_bin_range_, nga_create_bin_range_]
    (g_bin: *const FInt, g_cnt: *const FInt, g_off: *const FInt, g_range: *mut FInt) -> FLog {
        const C: &str = "ga_create_bin_range";
        entry(C, || {
            int_vector(C, g_bin);
            let all = bins(C, g_cnt, g_off);
            let np = i64::from(core::nnodes());
            let dims = [2, np];
            let chunk = [2, 1];
            let h = crate::fapi::nga_create_(&i64::from(codes::F_INT), &2, dims.as_ptr(), c"bin_proc".as_ptr(), chunk.as_ptr(), g_range, 8);
            if h == 0 {
                return flog(false);
            }
            let me = i64::from(core::nodeid());
            let (mut lo, mut hi) = (0, 0);
            crate::fapi::nga_distribution_(g_bin, &me, &mut lo, &mut hi);
            if lo > 0 {
                let first = all.iter().position(|&(o, c)| c > 0 && o + 1 == lo);
                let last = all.iter().position(|&(o, c)| c > 0 && o + c == hi);
                let mut col = [first.map_or(0, |b| b as i64 + 1), last.map_or(0, |b| b as i64 + 1)];
                let range = crate::fapi::int(C, g_range);
                crate::fapi::patch_2d_io(C, &range, [1, 2, me + 1, me + 1], col.as_mut_ptr() as *mut c_void, 2, true);
            }
            crate::fapi::ga_sync_();
            flog(true)
        })
    }
);
