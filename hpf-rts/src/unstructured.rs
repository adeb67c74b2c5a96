//! The unstructured intrinsics of the 90D run-time: RESHAPE, PACK and
//! UNPACK on distributed arrays. All three move elements by their position
//! in array element order (column-major linear position), so one planner
//! serves them: destination element `p` takes source element `map(p)`.
//!
//! * RESHAPE: `map(p) = p`; the schedule depends on the DADs only and is
//!   cached like the others.
//! * PACK and UNPACK: `map` follows the MASK's true elements, so every
//!   process first gets the whole MASK (one `MPI_Allgatherv` of the
//!   LOGICAL array) and plans for this call only.
//!
//! Planning visits every destination element once per process:
//! O(elements) work, against O(P * sum of extents) for the structured
//! schedules.

use crate::dad::Dad;
use crate::darray::gather_global;
use crate::element::Element;
use crate::error::{HpfError, HpfResult};
use crate::reduce::check_len;
use crate::schedule::{self, PlanKey, Schedule};
use std::sync::Arc;

/// The schedule of `dst(p) = src(map(p))` over column-major linear
/// positions `p` of `dst` (`None`: `dst(p)` is left alone).
fn linear_plan(src: &Dad, dst: &Dad, map: impl Fn(usize) -> Option<usize>) -> Schedule {
    let sshape = src.shape();
    schedule::plan_lists(dst.grid(), false, |s, q| {
        if !src.serves(s, q) {
            return None;
        }
        let mut terms = Vec::new();
        let mut g = vec![0usize; sshape.len()];
        dst.for_each_owned(q, |gd, doff| {
            let Some(mut sp) = map(dst.linear(gd)) else {
                return;
            };
            for (k, &n) in sshape.iter().enumerate() {
                g[k] = sp % n;
                sp /= n;
            }
            if let Some(soff) = src.offset_on(s, &g) {
                terms.push((soff, doff, true));
            }
        });
        Some((0, 0, vec![terms]))
    })
}

/// The same grid for both arrays, or an error naming `call`.
fn same_grid(call: &str, a: &Dad, b: &Dad) -> HpfResult<()> {
    if a.grid().id() != b.grid().id() {
        return Err(HpfError::mismatch(
            call,
            "the arrays are on different processor grids",
        ));
    }
    Ok(())
}

/// `dst = RESHAPE(src, SHAPE(dst))`: the first `size(dst)` elements of
/// `src` in array element order fill `dst` in array element order. `src`
/// must have at least as many elements (Fortran's rule without PAD).
/// Collective.
pub fn reshape_into<T: Element>(sd: &Dad, src: &[T], dd: &Dad, dst: &mut [T]) -> HpfResult<()> {
    const CALL: &str = "hpf_reshape";
    same_grid(CALL, sd, dd)?;
    check_len(CALL, sd, src, "SOURCE")?;
    check_len(CALL, dd, dst, "the result")?;
    if dd.global_len() > sd.global_len() {
        return Err(HpfError::mismatch(
            CALL,
            format!(
                "the result has {} elements, SOURCE only {} (no PAD)",
                dd.global_len(),
                sd.global_len()
            ),
        ));
    }
    reshape_plan(sd, dd)?.execute(dd, src, dst)
}

/// The whole MASK (non-zero true) with DAD `md`, checked against the
/// shape `shape`.
fn whole_mask(call: &str, md: &Dad, mask: &[i32], shape: &[usize]) -> HpfResult<Vec<bool>> {
    check_len(call, md, mask, "MASK")?;
    if md.shape() != shape {
        return Err(HpfError::mismatch(
            call,
            format!("MASK has shape {:?}, the array {:?}", md.shape(), shape),
        ));
    }
    Ok(gather_global(md, mask)?.iter().map(|&m| m != 0).collect())
}

/// Refuses (for `call`) an operand `what` with DAD `d` unless it has
/// rank 1.
fn rank_one(call: &str, d: &Dad, what: &str) -> HpfResult<()> {
    if d.rank() != 1 {
        return Err(HpfError::bad_arg(
            call,
            format!("{what} has rank 1, not {}", d.rank()),
        ));
    }
    Ok(())
}

/// `dst(1:COUNT(mask)) = PACK(src, mask)`: the elements of `src` where
/// MASK (DAD `md`, `src`'s shape, any distribution) is true, in array
/// element order, into the rank-1 `dst`. `dst` needs at least COUNT(MASK)
/// elements; the ones past it keep their values, so a `dst` filled with
/// VECTOR beforehand gives `PACK(src, mask, VECTOR)`. Returns COUNT(MASK).
/// Collective.
pub fn pack_into<T: Element>(
    sd: &Dad,
    src: &[T],
    md: &Dad,
    mask: &[i32],
    dd: &Dad,
    dst: &mut [T],
) -> HpfResult<usize> {
    const CALL: &str = "hpf_pack";
    same_grid(CALL, sd, dd)?;
    same_grid(CALL, sd, md)?;
    check_len(CALL, sd, src, "ARRAY")?;
    check_len(CALL, dd, dst, "the result")?;
    rank_one(CALL, dd, "the result of PACK")?;
    let m = whole_mask(CALL, md, mask, &sd.shape())?;
    let trues: Vec<usize> = (0..m.len()).filter(|&p| m[p]).collect();
    if dd.global_len() < trues.len() {
        return Err(HpfError::mismatch(
            CALL,
            format!(
                "the result has {} elements, MASK is true {} times",
                dd.global_len(),
                trues.len()
            ),
        ));
    }
    linear_plan(sd, dd, |p| trues.get(p).copied()).execute(dd, src, dst)?;
    Ok(trues.len())
}

/// `dst = UNPACK(vector, mask, FIELD)` with `dst` already holding FIELD:
/// `dst` has MASK's shape (DAD `dd`, any distribution; MASK has DAD `md`)
/// and where MASK is true takes the next element of the rank-1 `vector`
/// in array element order; elsewhere it is left alone. VECTOR needs at
/// least COUNT(MASK) elements. Collective.
pub fn unpack_into<T: Element>(
    vd: &Dad,
    vector: &[T],
    md: &Dad,
    mask: &[i32],
    dd: &Dad,
    dst: &mut [T],
) -> HpfResult<()> {
    const CALL: &str = "hpf_unpack";
    same_grid(CALL, vd, dd)?;
    same_grid(CALL, md, dd)?;
    check_len(CALL, vd, vector, "VECTOR")?;
    check_len(CALL, dd, dst, "the result")?;
    rank_one(CALL, vd, "VECTOR of UNPACK")?;
    let m = whole_mask(CALL, md, mask, &dd.shape())?;
    let mut next = 0usize;
    let order: Vec<Option<usize>> = m
        .iter()
        .map(|&t| {
            t.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect();
    if vd.global_len() < next {
        return Err(HpfError::mismatch(
            CALL,
            format!(
                "VECTOR has {} elements, MASK is true {next} times",
                vd.global_len()
            ),
        ));
    }
    linear_plan(vd, dd, |p| order[p]).execute(dd, vector, dst)
}

/// The RESHAPE schedule from DAD `sd` to DAD `dd` (planned once, cached).
pub fn reshape_plan(sd: &Dad, dd: &Dad) -> HpfResult<Arc<Schedule>> {
    same_grid("hpf_reshape", sd, dd)?;
    let key = PlanKey::Reshape {
        grid: sd.grid().id(),
        src: sd.layout(),
        dst: dd.layout(),
    };
    Ok(schedule::cached(key, || linear_plan(sd, dd, Some)))
}
