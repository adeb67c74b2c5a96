//! The reduction intrinsics without DIM and MASK: SUM, PRODUCT, MAXVAL,
//! MINVAL, COUNT, ALL, ANY, DOT_PRODUCT, MAXLOC, MINLOC.
//!
//! Reduction order (documented, so real results are reproducible): each
//! process folds the elements it owns, starting from the identity, in its
//! local column-major order (first local index fastest); then the partial
//! results of all processes are gathered and every process folds them in
//! grid-rank order, starting from the identity. Every process thus gets
//! bitwise the same result, and for a given grid and DAD the result is the
//! same on every run. Processes holding a replica (a grid dimension the
//! array is not spread over, coordinate > 0) contribute the identity.
//!
//! Communication: one `MPI_Allgatherv` of one partial result per process.

use crate::dad::Dad;
use crate::element::{require_numeric, require_ordered, Element};
use crate::error::{HpfError, HpfResult};

/// Checks that `buf` is a local buffer of `dad` on this process.
pub fn check_len<T>(call: &str, dad: &Dad, buf: &[T], what: &str) -> HpfResult<()> {
    if buf.len() != dad.local_len() {
        return Err(HpfError::bad_arg(
            call,
            format!(
                "{what} holds {} elements, the DAD's local buffer has {}",
                buf.len(),
                dad.local_len()
            ),
        ));
    }
    Ok(())
}

/// Folds `f` over the owned elements (local order) if this process holds
/// the counted copy.
pub(crate) fn local_fold<A>(dad: &Dad, init: A, mut f: impl FnMut(A, &[usize], usize) -> A) -> A {
    let me = dad.grid().rank();
    let mut acc = Some(init);
    if dad.is_primary(me) {
        dad.for_each_owned(me, |g, off| {
            let a = acc.take().expect("accumulator present");
            acc = Some(f(a, g, off));
        });
    }
    acc.expect("accumulator present")
}

/// Gathers every process's `bytes` (same length) and returns them in grid
/// rank order.
pub(crate) fn gather(call: &str, dad: &Dad, bytes: &[u8]) -> HpfResult<Vec<Vec<u8>>> {
    let (all, lens) = dad
        .grid()
        .group()
        .allgatherv(bytes)
        .map_err(|e| HpfError::core(call, e))?;
    let mut out = Vec::with_capacity(lens.len());
    let mut at = 0;
    for l in lens {
        out.push(all[at..at + l].to_vec());
        at += l;
    }
    Ok(out)
}

/// Local fold with `op` from `identity`, then the rank-order fold.
fn reduce<T: Element>(
    call: &str,
    dad: &Dad,
    buf: &[T],
    identity: T,
    op: impl Fn(T, T) -> T,
) -> HpfResult<T> {
    check_len(call, dad, buf, "ARRAY")?;
    let me = dad.grid().rank();
    let mut part = identity;
    if dad.is_primary(me) {
        dad.for_each_owned_run(me, |off, len| {
            part = buf[off..off + len].iter().fold(part, |a, &x| op(a, x));
        });
    }
    let mut b = Vec::new();
    part.put(&mut b);
    Ok(gather(call, dad, &b)?
        .iter()
        .fold(identity, |a, p| op(a, T::get(p))))
}

pub(crate) fn max_of<T: Element>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

pub(crate) fn min_of<T: Element>(a: T, b: T) -> T {
    if b < a {
        b
    } else {
        a
    }
}

/// SUM(ARRAY); 0 for an empty array.
pub fn sum<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<T> {
    require_numeric::<T>("hpf_sum")?;
    reduce("hpf_sum", dad, buf, T::zero(), T::plus)
}

/// PRODUCT(ARRAY); 1 for an empty array.
pub fn product<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<T> {
    require_numeric::<T>("hpf_product")?;
    reduce("hpf_product", dad, buf, T::one(), T::times)
}

/// MAXVAL(ARRAY); `-HUGE` for an empty array.
pub fn maxval<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<T> {
    require_ordered::<T>("hpf_maxval")?;
    reduce("hpf_maxval", dad, buf, T::neg_huge(), max_of)
}

/// MINVAL(ARRAY); `HUGE` for an empty array.
pub fn minval<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<T> {
    require_ordered::<T>("hpf_minval")?;
    reduce("hpf_minval", dad, buf, T::huge(), min_of)
}

/// COUNT(MASK) with the mask given as `pred` of each element.
pub fn count<T: Element>(dad: &Dad, buf: &[T], pred: impl Fn(T) -> bool) -> HpfResult<i64> {
    const CALL: &str = "hpf_count";
    check_len(CALL, dad, buf, "MASK")?;
    let part: i64 = local_fold(dad, 0i64, |a, _, off| a + i64::from(pred(buf[off])));
    Ok(gather(CALL, dad, &part.to_ne_bytes())?
        .iter()
        .map(|p| i64::get(p))
        .sum())
}

/// ALL(MASK); true for an empty array.
pub fn all<T: Element>(dad: &Dad, buf: &[T], pred: impl Fn(T) -> bool) -> HpfResult<bool> {
    Ok(count(dad, buf, |x| !pred(x))? == 0)
}

/// ANY(MASK); false for an empty array.
pub fn any<T: Element>(dad: &Dad, buf: &[T], pred: impl Fn(T) -> bool) -> HpfResult<bool> {
    Ok(count(dad, buf, pred)? > 0)
}

/// DOT_PRODUCT(A, B) of two rank-1 arrays with the same DAD (aligned).
pub fn dot_product<T: Element>(dad: &Dad, a: &[T], b: &[T]) -> HpfResult<T> {
    const CALL: &str = "hpf_dot_product";
    if dad.rank() != 1 {
        return Err(HpfError::bad_arg(
            CALL,
            format!("DOT_PRODUCT needs rank-1 arrays, not rank {}", dad.rank()),
        ));
    }
    check_len(CALL, dad, a, "VECTOR_A")?;
    check_len(CALL, dad, b, "VECTOR_B")?;
    let part = local_fold(dad, T::zero(), |s, _, off| {
        s.plus(a[off].conj().times(b[off]))
    });
    let mut bytes = Vec::new();
    part.put(&mut bytes);
    Ok(gather(CALL, dad, &bytes)?
        .iter()
        .fold(T::zero(), |s, p| s.plus(T::get(p))))
}

/// MAXLOC (`max`) or MINLOC over the elements whose local offset passes
/// `keep`.
pub(crate) fn locate_where<T: Element>(
    call: &str,
    dad: &Dad,
    buf: &[T],
    max: bool,
    keep: impl Fn(usize) -> bool,
) -> HpfResult<Vec<i64>> {
    if max {
        locate(call, dad, buf, |x, v| x > v, keep)
    } else {
        locate(call, dad, buf, |x, v| x < v, keep)
    }
}

/// MAXLOC/MINLOC: `better(x, best)` says whether `x` beats the best so far
/// strictly; ties go to the lowest column-major position; only elements
/// whose offset passes `keep` count.
fn locate<T: Element>(
    call: &str,
    dad: &Dad,
    buf: &[T],
    better: impl Fn(T, T) -> bool,
    keep: impl Fn(usize) -> bool,
) -> HpfResult<Vec<i64>> {
    require_ordered::<T>(call)?;
    check_len(call, dad, buf, "ARRAY")?;
    let best: Option<(T, usize)> = local_fold(dad, None, |b, g, off| {
        if !keep(off) {
            return b;
        }
        let x = buf[off];
        let pos = dad.linear(g);
        match b {
            None => Some((x, pos)),
            Some((v, p)) if better(x, v) || (x == v && pos < p) => Some((x, pos)),
            keep => keep,
        }
    });
    let mut bytes = Vec::new();
    if let Some((v, p)) = best {
        v.put(&mut bytes);
        bytes.extend_from_slice(&(p as u64).to_ne_bytes());
    }
    let size = T::KIND.size();
    let mut winner: Option<(T, usize)> = None;
    for part in gather(call, dad, &bytes)? {
        if part.is_empty() {
            continue;
        }
        let x = T::get(&part);
        let pos = read_u64(&part[size..]) as usize;
        winner = match winner {
            None => Some((x, pos)),
            Some((v, p)) if better(x, v) || (x == v && pos < p) => Some((x, pos)),
            keep => keep,
        };
    }
    let mut out = vec![0i64; dad.rank()];
    if let Some((_, mut pos)) = winner {
        for (k, d) in dad.dims().iter().enumerate() {
            out[k] = (pos % d.spec.extent) as i64 + 1;
            pos /= d.spec.extent;
        }
    }
    Ok(out)
}

fn read_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_ne_bytes(a)
}

/// MAXLOC(ARRAY): 1-based positions of the first maximum in array element
/// order (positions, not subscripts); all zeros for an empty array.
pub fn maxloc<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<Vec<i64>> {
    locate("hpf_maxloc", dad, buf, |x, v| x > v, |_| true)
}

/// MINLOC(ARRAY): as [`maxloc`] for the first minimum.
pub fn minloc<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<Vec<i64>> {
    locate("hpf_minloc", dad, buf, |x, v| x < v, |_| true)
}
