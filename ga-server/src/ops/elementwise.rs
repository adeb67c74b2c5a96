//! Element-wise and diagonal arithmetic of the GA APIs, on whole arrays
//! and patches: absolute value, adding a constant, reciprocal, the
//! element-wise product, quotient, maximum and minimum of two arrays, the
//! median of three, scaling the rows or columns of a matrix by a vector,
//! the diagonal calls (set, add, get, shift, zero), the entry-wise norms
//! and the step lengths of bound-constrained line searches.
//!
//! Every call is collective over the group the array lives on and
//! synchronises before and after, as GA does; each process works on the
//! part of the result it owns. Complex values are ordered (maximum,
//! minimum, median) by their magnitude, and their absolute value is the
//! magnitude with a zero imaginary part, as in GA 5.8. A division by zero
//! (quotient or reciprocal) is an error of the call, as in GA.

use super::elem::{decode, encode, scalar, with_num, Num, C32, C64};
use super::patch::{
    check_patch, count, full, get_rect, inquire, name, own_parts, put_rect, relabel, shape,
    PatchMap,
};
use crate::core::{self, fmt_patch, ElemType, GaError, GaResult, Handle};

/// What GA 5.8 reports as the step of a line search that no bound limits.
pub const STEP_INFINITY: f64 = 1e307;

/// `GA_Sync` over the group array `g` lives on.
fn sync(call: &'static str, g: Handle) -> GaResult<()> {
    core::sync_array(g).map_err(|e| relabel(call, e))
}

/// The arithmetic of these calls beyond [`Num`].
pub trait Arith: Num {
    /// The absolute value (a complex number's magnitude, imaginary part 0).
    fn abs_value(self) -> Self;
    /// The magnitude as a double (the ordering key of complex values).
    fn magnitude(self) -> f64;
    /// The quotient; the caller has ruled out a zero divisor.
    fn quotient(self, o: Self) -> Self;
    /// Whether `self` orders before `o` (complex values by magnitude).
    fn before(self, o: Self) -> bool;
    /// Whether the value is zero.
    fn is_zero(self) -> bool {
        self == Self::default()
    }
    /// What GA 5.8's step divisions give for an unbounded quotient
    /// (1e307, 1e37, the largest integer); None for complex types, which
    /// those divisions refuse.
    fn step_infinity() -> Option<Self>;
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn abs_value(self) -> Self { self.wrapping_abs() }
            fn magnitude(self) -> f64 { (self as f64).abs() }
            fn quotient(self, o: Self) -> Self { self.wrapping_div(o) }
            fn before(self, o: Self) -> bool { self < o }
            fn step_infinity() -> Option<Self> { Some(<$t>::MAX) }
        }
    )*};
}
macro_rules! float_arith {
    ($($t:ty = $inf:expr),*) => {$(
        impl Arith for $t {
            fn abs_value(self) -> Self { self.abs() }
            fn magnitude(self) -> f64 { (self as f64).abs() }
            fn quotient(self, o: Self) -> Self { self / o }
            fn before(self, o: Self) -> bool { self < o }
            fn step_infinity() -> Option<Self> { Some($inf) }
        }
    )*};
}
int_arith!(i32, i64);
float_arith!(f32 = 1e37, f64 = STEP_INFINITY);

macro_rules! complex_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn abs_value(self) -> Self {
                Self::from_parts(self.magnitude(), 0.0)
            }
            fn magnitude(self) -> f64 {
                let (re, im) = self.parts();
                re.hypot(im)
            }
            fn quotient(self, o: Self) -> Self {
                let (a, b) = self.parts();
                let (c, d) = o.parts();
                let den = c * c + d * d;
                Self::from_parts((a * c + b * d) / den, (b * c - a * d) / den)
            }
            fn before(self, o: Self) -> bool {
                self.magnitude() < o.magnitude()
            }
            fn step_infinity() -> Option<Self> {
                None
            }
        }
    )*};
}
complex_arith!(C32, C64);

/// Applies `f` to every element of the patch `lo..=hi` of `g`, in place
/// (collective: synchronises before and after, as GA does).
pub(super) fn map_patch<T: Num>(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    f: impl Fn(T) -> GaResult<T>,
) -> GaResult<()> {
    sync(call, g)?;
    for (rlo, rhi) in own_parts(call, g, lo, hi)? {
        let v: Vec<T> = decode(&get_rect(call, g, T::SIZE, &rlo, &rhi)?);
        let out = v.into_iter().map(&f).collect::<GaResult<Vec<T>>>()?;
        put_rect(call, g, &rlo, &rhi, &encode(&out))?;
    }
    sync(call, g)
}

/// Replaces every element of the patch by its absolute value.
pub fn abs_value_patch(call: &'static str, g: Handle, lo: &[i64], hi: &[i64]) -> GaResult<()> {
    let (ty, _) = check_patch(call, g, lo, hi)?;
    with_num!(ty, call, |T| map_patch::<T>(call, g, lo, hi, |x| Ok(
        x.abs_value()
    )))
}

/// Adds `alpha` (one element of the array's type) to every element of
/// the patch.
pub fn add_constant_patch(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    let (ty, _) = check_patch(call, g, lo, hi)?;
    with_num!(ty, call, |T| {
        let a: T = scalar(call, "alpha", alpha)?;
        map_patch::<T>(call, g, lo, hi, |x| Ok(x.add(a)))
    })
}

/// Replaces every element of the patch by its reciprocal (integers
/// truncate); a zero element is an error.
pub fn recip_patch(call: &'static str, g: Handle, lo: &[i64], hi: &[i64]) -> GaResult<()> {
    let (ty, _) = check_patch(call, g, lo, hi)?;
    with_num!(ty, call, |T| {
        let one = T::from_parts(1.0, 0.0);
        map_patch::<T>(call, g, lo, hi, |x| {
            if x.is_zero() {
                Err(GaError::new(
                    call,
                    format!("zero value in array '{}': no reciprocal", name(g)),
                ))
            } else {
                Ok(one.quotient(x))
            }
        })
    })
}

/// The element-wise operations of two arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Multiply,
    Divide,
    Maximum,
    Minimum,
    /// GA's step division: `a/b`, but the type's step infinity for a zero
    /// divisor, and for a zero `a` the infinity when `b >= 0`, else 0.
    StepDivide,
    /// As [`Binary::StepDivide`], except that a zero `a` gives 0 when
    /// `b > 0`, else the infinity.
    StepbDivide,
}

impl Binary {
    fn apply<T: Arith>(self, call: &'static str, x: T, y: T) -> GaResult<T> {
        Ok(match self {
            Binary::Multiply => x.mul(y),
            Binary::Divide => {
                if y.is_zero() {
                    return Err(GaError::new(call, "zero divisor"));
                }
                x.quotient(y)
            }
            Binary::Maximum => {
                if x.before(y) {
                    y
                } else {
                    x
                }
            }
            Binary::Minimum => {
                if y.before(x) {
                    y
                } else {
                    x
                }
            }
            Binary::StepDivide | Binary::StepbDivide => {
                let Some(inf) = T::step_infinity() else {
                    return Err(GaError::new(call, "step division of complex values"));
                };
                let zero = T::default();
                if x.is_zero() {
                    let infinite = if self == Binary::StepDivide {
                        !y.before(zero)
                    } else {
                        !zero.before(y)
                    };
                    if infinite {
                        inf
                    } else {
                        zero
                    }
                } else if y.is_zero() {
                    inf
                } else {
                    x.quotient(y)
                }
            }
        })
    }
}

/// Requires `what` (read from each array's type and shape) to be the same
/// for all the arrays; returns it. `differ` words the error for the first
/// array and one that does not match it.
fn all_same<T: PartialEq>(
    call: &'static str,
    hs: &[Handle],
    what: impl Fn(ElemType, Vec<i64>) -> T,
    differ: impl Fn(&T, &T, Handle) -> String,
) -> GaResult<T> {
    let (t0, d0) = inquire(call, hs[0])?;
    let v0 = what(t0, d0);
    for &h in &hs[1..] {
        let (t, d) = inquire(call, h)?;
        let v = what(t, d);
        if v != v0 {
            return Err(GaError::new(call, differ(&v0, &v, h)));
        }
    }
    Ok(v0)
}

/// Requires the arrays to hold the same element type; returns it.
fn same_types(call: &'static str, hs: &[Handle]) -> GaResult<ElemType> {
    all_same(
        call,
        hs,
        |t, _| t,
        |_, _, h| {
            format!(
                "arrays '{}' and '{}' hold different types",
                name(hs[0]),
                name(h)
            )
        },
    )
}

/// The map from a source patch to a destination patch of the same shape
/// (dimensions of extent 1 aside), as GA requires of element-wise calls.
fn conforming(
    call: &'static str,
    src: (&[i64], &[i64]),
    dst: (&[i64], &[i64]),
) -> GaResult<PatchMap> {
    let long = |lo: &[i64], hi: &[i64]| -> Vec<i64> {
        shape(lo, hi).into_iter().filter(|&e| e > 1).collect()
    };
    if long(src.0, src.1) != long(dst.0, dst.1) {
        return Err(GaError::new(
            call,
            format!(
                "patches {} and {} have different shapes",
                fmt_patch(src.0, src.1),
                fmt_patch(dst.0, dst.1)
            ),
        ));
    }
    PatchMap::new(call, src, dst, false)
}

/// A patch argument: array, lo, hi.
pub type Patch<'a> = (Handle, &'a [i64], &'a [i64]);

/// `c = f(inputs…)` element by element over patches of one shape; every
/// process computes the part of `c`'s patch it owns.
fn combine<T: Arith>(
    call: &'static str,
    inputs: &[Patch],
    c: Patch,
    f: impl Fn(&[T]) -> GaResult<T>,
) -> GaResult<()> {
    let (gc, clo, chi) = c;
    let mut maps = Vec::new();
    for &(g, lo, hi) in inputs {
        check_patch(call, g, lo, hi)?;
        maps.push(conforming(call, (lo, hi), (clo, chi))?);
    }
    check_patch(call, gc, clo, chi)?;
    sync(call, gc)?;
    let mut staged = Vec::new();
    for (rlo, rhi) in own_parts(call, gc, clo, chi)? {
        let cols: Vec<Vec<T>> = inputs
            .iter()
            .zip(&maps)
            .map(|(&(g, _, _), m)| Ok(decode(&m.fetch(call, g, T::SIZE, &rlo, &rhi)?)))
            .collect::<GaResult<_>>()?;
        let n = count(&shape(&rlo, &rhi));
        let mut out = Vec::with_capacity(n);
        let mut args = vec![T::default(); cols.len()];
        for k in 0..n {
            for (a, col) in args.iter_mut().zip(&cols) {
                *a = col[k];
            }
            out.push(f(&args)?);
        }
        staged.push((encode(&out), rlo, rhi));
    }
    if inputs.iter().any(|&(g, _, _)| g == gc) {
        // Everyone has read before anyone writes.
        sync(call, gc)?;
    }
    for (buf, rlo, rhi) in staged {
        put_rect(call, gc, &rlo, &rhi, &buf)?;
    }
    sync(call, gc)
}

/// `c = a op b` element by element on patches of one shape.
pub fn elem_patch(call: &'static str, op: Binary, a: Patch, b: Patch, c: Patch) -> GaResult<()> {
    let ty = same_types(call, &[a.0, b.0, c.0])?;
    with_num!(ty, call, |T| combine::<T>(call, &[a, b], c, |v| op
        .apply(call, v[0], v[1])))
}

/// `m = median(a, b, c)` element by element on patches of one shape.
pub fn median_patch(call: &'static str, a: Patch, b: Patch, c: Patch, m: Patch) -> GaResult<()> {
    let ty = same_types(call, &[a.0, b.0, c.0, m.0])?;
    with_num!(ty, call, |T| combine::<T>(call, &[a, b, c], m, |v| {
        let (lo, hi) = if v[1].before(v[0]) {
            (v[1], v[0])
        } else {
            (v[0], v[1])
        };
        Ok(if v[2].before(lo) {
            lo
        } else if hi.before(v[2]) {
            hi
        } else {
            v[2]
        })
    }))
}

/// Requires arrays of one shape; returns it.
fn same_shapes(call: &'static str, hs: &[Handle]) -> GaResult<Vec<i64>> {
    all_same(
        call,
        hs,
        |_, d| d,
        |d0, d, h| {
            format!(
                "arrays '{}' {:?} and '{}' {:?} have different shapes",
                name(hs[0]),
                d0,
                name(h),
                d
            )
        },
    )
}

/// The whole-array form of a call on patches of arrays of one shape.
fn whole<R>(
    call: &'static str,
    hs: &[Handle],
    f: impl FnOnce(&[i64], &[i64]) -> GaResult<R>,
) -> GaResult<R> {
    let dims = same_shapes(call, hs)?;
    let (lo, hi) = full(&dims);
    f(&lo, &hi)
}

/// `abs_value_patch` of the whole array.
pub fn abs_value(call: &'static str, g: Handle) -> GaResult<()> {
    whole(call, &[g], |lo, hi| abs_value_patch(call, g, lo, hi))
}

/// `add_constant_patch` of the whole array.
pub fn add_constant(call: &'static str, g: Handle, alpha: &[u8]) -> GaResult<()> {
    whole(call, &[g], |lo, hi| {
        add_constant_patch(call, g, lo, hi, alpha)
    })
}

/// `recip_patch` of the whole array.
pub fn recip(call: &'static str, g: Handle) -> GaResult<()> {
    whole(call, &[g], |lo, hi| recip_patch(call, g, lo, hi))
}

/// `elem_patch` of whole arrays of one shape.
pub fn elem(call: &'static str, op: Binary, a: Handle, b: Handle, c: Handle) -> GaResult<()> {
    whole(call, &[a, b, c], |lo, hi| {
        elem_patch(call, op, (a, lo, hi), (b, lo, hi), (c, lo, hi))
    })
}

/// `median_patch` of whole arrays of one shape.
pub fn median(call: &'static str, a: Handle, b: Handle, c: Handle, m: Handle) -> GaResult<()> {
    whole(call, &[a, b, c, m], |lo, hi| {
        median_patch(call, (a, lo, hi), (b, lo, hi), (c, lo, hi), (m, lo, hi))
    })
}

// ---------------------------------------------------------------------------
// Matrices and vectors

/// Type, rows and columns of a 2-D array; an error for any other.
fn matrix(call: &'static str, g: Handle) -> GaResult<(ElemType, i64, i64)> {
    let (ty, dims) = inquire(call, g)?;
    if dims.len() != 2 {
        return Err(GaError::new(
            call,
            format!(
                "array '{}' has {} dimension(s); a 2-D array is needed",
                name(g),
                dims.len()
            ),
        ));
    }
    Ok((ty, dims[0], dims[1]))
}

/// Length of a 1-D array of type `ty`; an error for any other.
fn vector(call: &'static str, v: Handle, ty: ElemType) -> GaResult<i64> {
    let (tv, dims) = inquire(call, v)?;
    if dims.len() != 1 {
        return Err(GaError::new(
            call,
            format!(
                "array '{}' has {} dimensions; a 1-D array is needed",
                name(v),
                dims.len()
            ),
        ));
    }
    if tv != ty {
        return Err(GaError::new(
            call,
            format!(
                "the vector '{}' and the matrix hold different types",
                name(v)
            ),
        ));
    }
    Ok(dims[0])
}

/// Elements `lo..=hi` of the 1-D array `v`.
fn segment<T: Num>(call: &'static str, v: Handle, lo: i64, hi: i64) -> GaResult<Vec<T>> {
    Ok(decode(&get_rect(call, v, T::SIZE, &[lo], &[hi])?))
}

/// Multiplies row `i` of the matrix `g` by `v[i]` (`by_rows`), or column
/// `j` by `v[j]`; `v` has one element per row (column).
pub fn scale_lines(call: &'static str, g: Handle, v: Handle, by_rows: bool) -> GaResult<()> {
    let (ty, rows, cols) = matrix(call, g)?;
    let n = vector(call, v, ty)?;
    let (want, what) = if by_rows {
        (rows, "rows")
    } else {
        (cols, "columns")
    };
    if n != want {
        return Err(GaError::new(
            call,
            format!(
                "vector '{}' has {n} elements but matrix '{}' has {want} {what}",
                name(v),
                name(g)
            ),
        ));
    }
    let axis = if by_rows { 0 } else { 1 };
    with_num!(ty, call, |T| {
        sync(call, g)?;
        sync(call, v)?;
        for (rlo, rhi) in own_parts(call, g, &[0, 0], &[rows - 1, cols - 1])? {
            let s: Vec<T> = segment(call, v, rlo[axis], rhi[axis])?;
            let mut m: Vec<T> = decode(&get_rect(call, g, T::SIZE, &rlo, &rhi)?);
            let w = (rhi[1] - rlo[1] + 1) as usize;
            for (k, x) in m.iter_mut().enumerate() {
                let line = if by_rows { k / w } else { k % w };
                *x = x.mul(s[line]);
            }
            put_rect(call, g, &rlo, &rhi, &encode(&m))?;
        }
        sync(call, g)
    })
}

/// The diagonal positions `k` (element `[k][k]`) inside the block
/// `lo..=hi`, as an inclusive range (empty when `first > last`).
fn diagonal_in(lo: &[i64], hi: &[i64]) -> (i64, i64) {
    (lo[0].max(lo[1]), hi[0].min(hi[1]))
}

/// How the diagonal changes.
#[derive(Clone, Copy)]
enum DiagEdit<'a> {
    /// `a[k][k] = v[k]`.
    Set(Handle),
    /// `a[k][k] += v[k]`.
    Add(Handle),
    /// `a[k][k] += c` (one element of the array's type).
    Shift(&'a [u8]),
    /// `a[k][k] = 0`.
    Zero,
}

fn edit_diagonal(call: &'static str, g: Handle, edit: DiagEdit) -> GaResult<()> {
    let (ty, rows, cols) = matrix(call, g)?;
    let n = rows.min(cols);
    if let DiagEdit::Set(v) | DiagEdit::Add(v) = edit {
        let len = vector(call, v, ty)?;
        if len < n {
            return Err(GaError::new(
                call,
                format!(
                    "the diagonal of '{}' has {n} elements, more than vector '{}' ({len})",
                    name(g),
                    name(v)
                ),
            ));
        }
    }
    with_num!(ty, call, |T| {
        let shift: T = match edit {
            DiagEdit::Shift(c) => scalar(call, "the shift", c)?,
            _ => T::default(),
        };
        sync(call, g)?;
        if let DiagEdit::Set(v) | DiagEdit::Add(v) = edit {
            sync(call, v)?;
        }
        for (rlo, rhi) in own_parts(call, g, &[0, 0], &[rows - 1, cols - 1])? {
            let (first, last) = diagonal_in(&rlo, &rhi);
            if first > last {
                continue;
            }
            let subs: Vec<Vec<i64>> = (first..=last).map(|k| vec![k, k]).collect();
            let mut cur = vec![0u8; subs.len() * T::SIZE];
            core::gather(g, &mut cur, &subs).map_err(|e| relabel(call, e))?;
            let cur: Vec<T> = decode(&cur);
            let new: Vec<T> = match edit {
                DiagEdit::Set(v) => segment(call, v, first, last)?,
                DiagEdit::Add(v) => {
                    let s: Vec<T> = segment(call, v, first, last)?;
                    cur.iter().zip(&s).map(|(x, y)| x.add(*y)).collect()
                }
                DiagEdit::Shift(_) => cur.iter().map(|x| x.add(shift)).collect(),
                DiagEdit::Zero => vec![T::default(); cur.len()],
            };
            core::scatter(g, &encode(&new), &subs).map_err(|e| relabel(call, e))?;
        }
        sync(call, g)
    })
}

/// `a[k][k] = v[k]` for every `k` of the diagonal.
pub fn set_diagonal(call: &'static str, g: Handle, v: Handle) -> GaResult<()> {
    edit_diagonal(call, g, DiagEdit::Set(v))
}

/// `a[k][k] += v[k]` for every `k` of the diagonal.
pub fn add_diagonal(call: &'static str, g: Handle, v: Handle) -> GaResult<()> {
    edit_diagonal(call, g, DiagEdit::Add(v))
}

/// `a[k][k] += c` (one element of the array's type).
pub fn shift_diagonal(call: &'static str, g: Handle, c: &[u8]) -> GaResult<()> {
    edit_diagonal(call, g, DiagEdit::Shift(c))
}

/// `a[k][k] = 0`.
pub fn zero_diagonal(call: &'static str, g: Handle) -> GaResult<()> {
    edit_diagonal(call, g, DiagEdit::Zero)
}

/// `v[k] = a[k][k]` for every `k` of the diagonal (the rest of `v` is
/// left alone).
pub fn get_diag(call: &'static str, g: Handle, v: Handle) -> GaResult<()> {
    let (ty, rows, cols) = matrix(call, g)?;
    let n = rows.min(cols);
    let len = vector(call, v, ty)?;
    if len < n {
        return Err(GaError::new(
            call,
            format!(
                "the diagonal of '{}' has {n} elements, more than vector '{}' ({len})",
                name(g),
                name(v)
            ),
        ));
    }
    sync(call, g)?;
    sync(call, v)?;
    let es = ty.size();
    for (rlo, rhi) in own_parts(call, v, &[0], &[n - 1])? {
        let subs: Vec<Vec<i64>> = (rlo[0]..=rhi[0]).map(|k| vec![k, k]).collect();
        let mut vals = vec![0u8; subs.len() * es];
        core::gather(g, &mut vals, &subs).map_err(|e| relabel(call, e))?;
        put_rect(call, v, &rlo, &rhi, &vals)?;
    }
    sync(call, v)
}

// ---------------------------------------------------------------------------
// Reductions

/// The largest of each process's `local` over the group `g` lives on
/// (each process adds its value into its own slot of a sum).
fn max_over(call: &'static str, g: Handle, local: f64) -> GaResult<f64> {
    let me = core::array_rank(g).map_err(|e| relabel(call, e))? as usize;
    let np = core::array_nprocs(g).map_err(|e| relabel(call, e))? as usize;
    let mut slots = vec![0f64; np];
    slots[me] = local;
    core::sum_on_array(call, g, &mut slots).map_err(|e| relabel(call, e))?;
    Ok(slots.into_iter().fold(f64::NEG_INFINITY, f64::max))
}

/// The smallest of each process's `local` over the group `g` lives on.
fn min_over(call: &'static str, g: Handle, local: f64) -> GaResult<f64> {
    Ok(-max_over(call, g, -local)?)
}

/// Sum of the magnitudes of this process's elements of `g`, and the
/// largest of them (0 when it owns none).
fn local_magnitudes(call: &'static str, g: Handle) -> GaResult<(f64, f64)> {
    let (ty, dims) = inquire(call, g)?;
    let (lo, hi) = full(&dims);
    with_num!(ty, call, |T| {
        let (mut sum, mut max) = (0f64, 0f64);
        for (rlo, rhi) in own_parts(call, g, &lo, &hi)? {
            for x in decode::<T>(&get_rect(call, g, T::SIZE, &rlo, &rhi)?) {
                let m = x.magnitude();
                sum += m;
                max = max.max(m);
            }
        }
        Ok((sum, max))
    })
}

/// The sum of the magnitudes of all elements (GA 5.8's `GA_Norm1`, for
/// vectors and matrices alike).
pub fn norm1(call: &'static str, g: Handle) -> GaResult<f64> {
    sync(call, g)?;
    let (sum, _) = local_magnitudes(call, g)?;
    let mut x = [sum];
    core::sum_on_array(call, g, &mut x).map_err(|e| relabel(call, e))?;
    Ok(x[0])
}

/// The largest magnitude of an element (GA 5.8's `GA_Norm_infinity`).
pub fn norm_infinity(call: &'static str, g: Handle) -> GaResult<f64> {
    sync(call, g)?;
    let (_, max) = local_magnitudes(call, g)?;
    max_over(call, g, max)
}

/// Real values of a patch's elements for the step calls (real types only).
fn reals<T: Arith>(v: Vec<T>) -> Vec<f64> {
    v.into_iter().map(|x| x.parts().0).collect()
}

/// Requires a real element type for the step calls.
fn real_type(call: &'static str, ty: ElemType) -> GaResult<()> {
    match ty {
        ElemType::Int
        | ElemType::Long
        | ElemType::LongLong
        | ElemType::Float
        | ElemType::Double => Ok(()),
        other => Err(super::elem::unsupported(call, other)),
    }
}

/// The values of `inputs` (patches of one shape as the first) over the
/// parts of the first patch this process owns, as doubles, column by
/// column.
fn local_columns(call: &'static str, inputs: &[Patch]) -> GaResult<Vec<Vec<f64>>> {
    let (g0, lo0, hi0) = inputs[0];
    let ty = same_types(call, &inputs.iter().map(|p| p.0).collect::<Vec<Handle>>())?;
    real_type(call, ty)?;
    let mut maps = Vec::new();
    for &(g, lo, hi) in inputs {
        check_patch(call, g, lo, hi)?;
        maps.push(conforming(call, (lo, hi), (lo0, hi0))?);
    }
    let mut cols = vec![Vec::new(); inputs.len()];
    for (rlo, rhi) in own_parts(call, g0, lo0, hi0)? {
        for (k, (&(g, _, _), m)) in inputs.iter().zip(&maps).enumerate() {
            let raw = m.fetch(call, g, ty.size(), &rlo, &rhi)?;
            let vals: Vec<f64> =
                with_num!(ty, call, |T| Ok::<_, GaError>(reals::<T>(decode(&raw))))?;
            cols[k].extend(vals);
        }
    }
    Ok(cols)
}

/// The largest `s >= 0` with `a + s·b >= 0` element-wise (`a` must be
/// non-negative); [`STEP_INFINITY`] when no element of `b` is negative.
pub fn step_max_patch(call: &'static str, a: Patch, b: Patch) -> GaResult<f64> {
    sync(call, a.0)?;
    let cols = local_columns(call, &[a, b])?;
    let mut step = STEP_INFINITY;
    for (x, d) in cols[0].iter().zip(&cols[1]) {
        if *x < 0.0 {
            return Err(GaError::new(
                call,
                format!("array '{}' has a negative element", name(a.0)),
            ));
        }
        if *d < 0.0 {
            step = step.min(-x / d);
        }
    }
    min_over(call, a.0, step)
}

/// `step_max_patch` of whole arrays of one shape.
pub fn step_max(call: &'static str, a: Handle, b: Handle) -> GaResult<f64> {
    whole(call, &[a, b], |lo, hi| {
        step_max_patch(call, (a, lo, hi), (b, lo, hi))
    })
}

/// For the line `x + s·v` inside the box `lower <= x <= upper`: the
/// smallest and the largest step at which an element meets its bound, as
/// `(boundmin, wolfemin, boundmax)`; an `x` outside its bounds is an
/// error, as in GA 5.8. As in GA 5.8 too, an element with
/// `v = 0` meets it at [`STEP_INFINITY`] (so `boundmax` is that value
/// when there is one), and `wolfemin` is `boundmin`.
pub fn step_bound_info_patch(
    call: &'static str,
    x: Patch,
    v: Patch,
    lower: Patch,
    upper: Patch,
) -> GaResult<(f64, f64, f64)> {
    sync(call, x.0)?;
    let cols = local_columns(call, &[x, v, lower, upper])?;
    let (mut smin, mut smax) = (STEP_INFINITY, -STEP_INFINITY);
    for k in 0..cols[0].len() {
        let (xk, vk, lk, uk) = (cols[0][k], cols[1][k], cols[2][k], cols[3][k]);
        if xk < lk || xk > uk {
            return Err(GaError::new(
                call,
                format!(
                    "an element of '{}' ({xk}) lies outside its bounds [{lk}, {uk}]",
                    name(x.0)
                ),
            ));
        }
        let s = if vk > 0.0 {
            (uk - xk) / vk
        } else if vk < 0.0 {
            (lk - xk) / vk
        } else {
            STEP_INFINITY
        };
        smin = smin.min(s);
        smax = smax.max(s);
    }
    let lo = min_over(call, x.0, smin)?;
    let hi = max_over(call, x.0, smax)?;
    let hi = if hi == -STEP_INFINITY {
        STEP_INFINITY
    } else {
        hi
    };
    Ok((lo, lo, hi))
}

/// `step_bound_info_patch` of whole arrays of one shape.
pub fn step_bound_info(
    call: &'static str,
    x: Handle,
    v: Handle,
    lower: Handle,
    upper: Handle,
) -> GaResult<(f64, f64, f64)> {
    whole(call, &[x, v, lower, upper], |lo, hi| {
        step_bound_info_patch(
            call,
            (x, lo, hi),
            (v, lo, hi),
            (lower, lo, hi),
            (upper, lo, hi),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_arithmetic_orders_by_magnitude() {
        let a = C64 { re: 3.0, im: -4.0 };
        let b = C64 { re: 0.0, im: 1.0 };
        assert_eq!(a.abs_value(), C64 { re: 5.0, im: 0.0 });
        assert!(b.before(a));
        assert_eq!(Binary::Maximum.apply("t", a, b).unwrap(), a);
        assert_eq!(Binary::Minimum.apply("t", a, b).unwrap(), b);
        assert_eq!(
            Binary::Divide.apply("t", a, b).unwrap(),
            C64 { re: -4.0, im: -3.0 }
        );
    }

    #[test]
    fn integer_division_truncates_and_zero_is_an_error() {
        assert_eq!(Binary::Divide.apply("t", -7i32, 3).unwrap(), -2);
        assert!(Binary::Divide.apply("t", 1i64, 0).is_err());
        assert_eq!(i32::MIN.abs_value(), i32::MIN);
    }

    #[test]
    fn diagonal_of_a_block() {
        assert_eq!(diagonal_in(&[2, 0], &[5, 3]), (2, 3));
        let (f, l) = diagonal_in(&[0, 4], &[2, 6]);
        assert!(f > l);
    }
}
