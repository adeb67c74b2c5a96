//! Whole-array and patch operations: zero, fill, randomize, scale, copy
//! (with transpose), add, dot products, transpose, symmetrize. Each is
//! collective over the compute ranks; each process works on the part of the
//! destination it owns, fetching the matching source data with the core's
//! get, and every operation synchronises before and after, as GA does.

use super::elem::{decode, encode, scalar, with_num, Num};
use super::patch::{check_patch, full, get_rect, inquire, own_parts, put_rect, relabel, PatchMap};
use crate::core::{self, fmt_patch, ElemType, GaError, GaResult, Handle};

/// `GA_Sync` over the group array `g` lives on (all ranks for the world).
fn sync(call: &'static str, g: Handle) -> GaResult<()> {
    core::sync_array(g).map_err(|e| relabel(call, e))
}

/// Sets every element of the patch to `val` (bytes of one element).
pub fn fill_patch(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    val: &[u8],
) -> GaResult<()> {
    let (ty, _) = check_patch(call, g, lo, hi)?;
    let es = ty.size();
    if val.len() < es {
        return Err(GaError::new(call, "the value is missing (NULL)"));
    }
    sync(call, g)?;
    for (rlo, rhi) in own_parts(call, g, lo, hi)? {
        let n = super::patch::count(&super::patch::shape(&rlo, &rhi));
        let buf: Vec<u8> = val[..es].iter().copied().cycle().take(n * es).collect();
        put_rect(call, g, &rlo, &rhi, &buf)?;
    }
    sync(call, g)
}

/// Sets every element of the patch to zero.
pub fn zero_patch(call: &'static str, g: Handle, lo: &[i64], hi: &[i64]) -> GaResult<()> {
    let (ty, _) = inquire(call, g)?;
    fill_patch(call, g, lo, hi, &vec![0u8; ty.size()])
}

/// Multiplies every element of the patch by `alpha` (one element).
pub fn scale_patch(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    let (ty, _) = check_patch(call, g, lo, hi)?;
    with_num!(ty, call, |T| {
        let a: T = scalar(call, "alpha", alpha)?;
        super::elementwise::map_patch::<T>(call, g, lo, hi, |x| Ok(x.mul(a)))
    })
}

fn same_type(call: &'static str, a: (Handle, ElemType), b: (Handle, ElemType)) -> GaResult<()> {
    if a.1 != b.1 {
        return Err(GaError::new(
            call,
            format!(
                "arrays {} ('{}') and {} ('{}') have different types",
                a.0,
                super::patch::name(a.0),
                b.0,
                super::patch::name(b.0)
            ),
        ));
    }
    Ok(())
}

/// Copies patch `alo..=ahi` of `a` into patch `blo..=bhi` of `b` (same
/// number of elements, row-major order), or its transpose when `trans`.
#[allow(clippy::too_many_arguments)]
pub fn copy_patch(
    call: &'static str,
    trans: bool,
    a: Handle,
    alo: &[i64],
    ahi: &[i64],
    b: Handle,
    blo: &[i64],
    bhi: &[i64],
) -> GaResult<()> {
    let (ta, _) = check_patch(call, a, alo, ahi)?;
    let (tb, _) = check_patch(call, b, blo, bhi)?;
    same_type(call, (a, ta), (b, tb))?;
    let map = PatchMap::new(call, (alo, ahi), (blo, bhi), trans)?;
    sync(call, b)?;
    let mut staged = Vec::new();
    for (rlo, rhi) in own_parts(call, b, blo, bhi)? {
        staged.push((map.fetch(call, a, ta.size(), &rlo, &rhi)?, rlo, rhi));
    }
    if a == b {
        // Everyone has read before anyone writes.
        sync(call, b)?;
    }
    for (buf, rlo, rhi) in staged {
        put_rect(call, b, &rlo, &rhi, &buf)?;
    }
    sync(call, b)
}

/// `c = alpha·a + beta·b` on patches of the same number of elements.
#[allow(clippy::too_many_arguments)]
pub fn add_patch(
    call: &'static str,
    alpha: &[u8],
    a: Handle,
    alo: &[i64],
    ahi: &[i64],
    beta: &[u8],
    b: Handle,
    blo: &[i64],
    bhi: &[i64],
    c: Handle,
    clo: &[i64],
    chi: &[i64],
) -> GaResult<()> {
    let (ta, _) = check_patch(call, a, alo, ahi)?;
    let (tb, _) = check_patch(call, b, blo, bhi)?;
    let (tc, _) = check_patch(call, c, clo, chi)?;
    same_type(call, (a, ta), (b, tb))?;
    same_type(call, (a, ta), (c, tc))?;
    let ma = PatchMap::new(call, (alo, ahi), (clo, chi), false)?;
    let mb = PatchMap::new(call, (blo, bhi), (clo, chi), false)?;
    with_num!(tc, call, |T| {
        let al: T = scalar(call, "alpha", alpha)?;
        let be: T = scalar(call, "beta", beta)?;
        sync(call, c)?;
        let mut staged = None;
        for (rlo, rhi) in own_parts(call, c, clo, chi)? {
            let va: Vec<T> = decode(&ma.fetch(call, a, T::SIZE, &rlo, &rhi)?);
            let vb: Vec<T> = decode(&mb.fetch(call, b, T::SIZE, &rlo, &rhi)?);
            let out: Vec<T> = va
                .iter()
                .zip(&vb)
                .map(|(x, y)| al.mul(*x).add(be.mul(*y)))
                .collect();
            staged = Some((encode(&out), rlo, rhi));
        }
        if c == a || c == b {
            sync(call, c)?;
        }
        if let Some((buf, rlo, rhi)) = staged {
            put_rect(call, c, &rlo, &rhi, &buf)?;
        }
        sync(call, c)
    })
}

/// Sum of typed partial sums over the group array `g` lives on.
fn reduce<T: Num>(call: &'static str, g: Handle, local: T) -> GaResult<T> {
    if T::INTEGER {
        let mut x = [local.to_i64()];
        core::sum_on_array(call, g, &mut x).map_err(|e| relabel(call, e))?;
        Ok(T::from_i64(x[0]))
    } else {
        let (re, im) = local.parts();
        let mut x = [re, im];
        core::sum_on_array(call, g, &mut x).map_err(|e| relabel(call, e))?;
        Ok(T::from_parts(x[0], x[1]))
    }
}

/// Element-wise dot product of two patches (each optionally transposed);
/// returns the bytes of one value of the arrays' type. Collective.
#[allow(clippy::too_many_arguments)]
pub fn dot_patch(
    call: &'static str,
    a: Handle,
    ta: bool,
    alo: &[i64],
    ahi: &[i64],
    b: Handle,
    tb: bool,
    blo: &[i64],
    bhi: &[i64],
) -> GaResult<Vec<u8>> {
    let (tya, _) = check_patch(call, a, alo, ahi)?;
    let (tyb, _) = check_patch(call, b, blo, bhi)?;
    same_type(call, (a, tya), (b, tyb))?;
    let map = PatchMap::new(call, (blo, bhi), (alo, ahi), ta != tb)?;
    with_num!(tya, call, |T| {
        sync(call, a)?;
        let mut sum = T::default();
        for (rlo, rhi) in own_parts(call, a, alo, ahi)? {
            let va: Vec<T> = decode(&get_rect(call, a, T::SIZE, &rlo, &rhi)?);
            let vb: Vec<T> = decode(&map.fetch(call, b, T::SIZE, &rlo, &rhi)?);
            for (x, y) in va.iter().zip(&vb) {
                sum = sum.add(x.mul(*y));
            }
        }
        let total = reduce(call, a, sum)?;
        Ok(encode(&[total]))
    })
}

/// Checks that two arrays have the same shape (and returns it).
fn same_shape(call: &'static str, a: Handle, b: Handle) -> GaResult<Vec<i64>> {
    let (_, da) = inquire(call, a)?;
    let (_, db) = inquire(call, b)?;
    if da != db {
        return Err(GaError::new(
            call,
            format!(
                "arrays '{}' {:?} and '{}' {:?} have different shapes",
                super::patch::name(a),
                da,
                super::patch::name(b),
                db
            ),
        ));
    }
    Ok(da)
}

/// Sets every element to zero.
pub fn zero(call: &'static str, g: Handle) -> GaResult<()> {
    let (_, dims) = inquire(call, g)?;
    let (lo, hi) = full(&dims);
    zero_patch(call, g, &lo, &hi)
}

/// Sets every element to `val`.
pub fn fill(call: &'static str, g: Handle, val: &[u8]) -> GaResult<()> {
    let (_, dims) = inquire(call, g)?;
    let (lo, hi) = full(&dims);
    fill_patch(call, g, &lo, &hi, val)
}

/// Largest value of the C library's `rand()` (glibc).
const RAND_MAX: i32 = i32::MAX;

/// One element of `GA_Randomize` from the draw `r`: `value · r / RAND_MAX`
/// computed in the array's type as GA's C code computes it (the `int`
/// product wraps as the C one does on this machine). Types GA does not
/// randomize (complex, char, long double) are refused.
fn random_element(call: &'static str, ty: ElemType, val: &[u8], r: i32) -> GaResult<Vec<u8>> {
    let bytes = |n: usize| -> [u8; 8] {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&val[..n]);
        b
    };
    Ok(match ty {
        ElemType::Int => {
            let v = i32::from_le_bytes(bytes(4)[..4].try_into().unwrap_or([0; 4]));
            (v.wrapping_mul(r) / RAND_MAX).to_le_bytes().to_vec()
        }
        ElemType::Long | ElemType::LongLong => {
            let v = i64::from_le_bytes(bytes(8));
            (v.wrapping_mul(i64::from(r)) / i64::from(RAND_MAX))
                .to_le_bytes()
                .to_vec()
        }
        ElemType::Float => {
            let v = f32::from_le_bytes(bytes(4)[..4].try_into().unwrap_or([0; 4]));
            (v * r as f32 / RAND_MAX as f32).to_le_bytes().to_vec()
        }
        ElemType::Double => {
            let v = f64::from_le_bytes(bytes(8));
            (v * f64::from(r) / f64::from(RAND_MAX))
                .to_le_bytes()
                .to_vec()
        }
        other => {
            return Err(GaError::new(
                call,
                format!("arrays of {other:?} cannot be randomized (GA takes int, long, long long, float and double)"),
            ))
        }
    })
}

/// `GA_Randomize`: every process sets its own elements to `value · r /
/// RAND_MAX` with successive draws `r` from `draw` (the C library's
/// `rand()`), in the order of its local memory as GA walks it: its blocks
/// in order, each in C order, a ghost frame included (the frame's draws
/// are used up, its cells are left alone). Collective.
pub fn randomize(
    call: &'static str,
    g: Handle,
    val: &[u8],
    mut draw: impl FnMut() -> i32,
) -> GaResult<()> {
    let (ty, dims) = inquire(call, g)?;
    let es = ty.size();
    if val.len() < es {
        return Err(GaError::new(call, "the value is missing (NULL)"));
    }
    random_element(call, ty, val, 0)?;
    let width = core::ghost_widths(call, g).map_err(|e| relabel(call, e))?;
    sync(call, g)?;
    let (lo, hi) = full(&dims);
    for (rlo, rhi) in own_parts(call, g, &lo, &hi)? {
        let inner = super::patch::shape(&rlo, &rhi);
        let framed: Vec<i64> = inner.iter().zip(&width).map(|(e, w)| e + 2 * w).collect();
        let mut buf = Vec::with_capacity(super::patch::count(&inner) * es);
        let mut failed = None;
        super::patch::for_each_index(&framed, |idx| {
            let r = draw();
            let inside = (0..idx.len()).all(|d| idx[d] >= width[d] && idx[d] < width[d] + inner[d]);
            if inside && failed.is_none() {
                match random_element(call, ty, val, r) {
                    Ok(b) => buf.extend_from_slice(&b),
                    Err(e) => failed = Some(e),
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        put_rect(call, g, &rlo, &rhi, &buf)?;
    }
    sync(call, g)
}

/// Multiplies every element by `alpha`.
pub fn scale(call: &'static str, g: Handle, alpha: &[u8]) -> GaResult<()> {
    let (_, dims) = inquire(call, g)?;
    let (lo, hi) = full(&dims);
    scale_patch(call, g, &lo, &hi, alpha)
}

/// Copies array `a` into array `b` (same type and shape).
pub fn copy(call: &'static str, a: Handle, b: Handle) -> GaResult<()> {
    let dims = same_shape(call, a, b)?;
    let (lo, hi) = full(&dims);
    if a == b {
        return sync(call, b);
    }
    copy_patch(call, false, a, &lo, &hi, b, &lo, &hi)
}

/// `c = alpha·a + beta·b` on whole arrays of one shape.
pub fn add(
    call: &'static str,
    alpha: &[u8],
    a: Handle,
    beta: &[u8],
    b: Handle,
    c: Handle,
) -> GaResult<()> {
    let dims = same_shape(call, a, b)?;
    same_shape(call, a, c)?;
    let (lo, hi) = full(&dims);
    add_patch(call, alpha, a, &lo, &hi, beta, b, &lo, &hi, c, &lo, &hi)
}

/// Element-wise dot product of two whole arrays of one shape.
pub fn dot(call: &'static str, a: Handle, b: Handle) -> GaResult<Vec<u8>> {
    let dims = same_shape(call, a, b)?;
    let (lo, hi) = full(&dims);
    dot_patch(call, a, false, &lo, &hi, b, false, &lo, &hi)
}

/// `dot` of two double arrays as a double.
pub fn ddot(call: &'static str, a: Handle, b: Handle) -> GaResult<f64> {
    let (ty, _) = inquire(call, a)?;
    if ty != ElemType::Double {
        return Err(super::elem::unsupported(call, ty));
    }
    Ok(f64::load(&dot(call, a, b)?))
}

/// `b = aᵀ` for 2-D arrays (`b`'s shape is `a`'s reversed).
pub fn transpose(call: &'static str, a: Handle, b: Handle) -> GaResult<()> {
    let (_, da) = inquire(call, a)?;
    let (_, db) = inquire(call, b)?;
    if da.len() != 2 || db.len() != 2 || da[0] != db[1] || da[1] != db[0] {
        return Err(GaError::new(
            call,
            format!("cannot transpose a {da:?} array into a {db:?} array (2-D arrays with reversed shapes needed)"),
        ));
    }
    if a == b {
        return Err(GaError::new(
            call,
            "the source and destination must be different arrays",
        ));
    }
    let (alo, ahi) = full(&da);
    let (blo, bhi) = full(&db);
    copy_patch(call, true, a, &alo, &ahi, b, &blo, &bhi)
}

/// `a = (a + aᵀ)/2` for a square 2-D array.
pub fn symmetrize(call: &'static str, g: Handle) -> GaResult<()> {
    let (ty, dims) = inquire(call, g)?;
    if dims.len() != 2 || dims[0] != dims[1] {
        let (lo, hi) = full(&dims);
        return Err(GaError::new(
            call,
            format!(
                "array '{}' {} is not square 2-D",
                super::patch::name(g),
                fmt_patch(&lo, &hi)
            ),
        ));
    }
    let (lo, hi) = full(&dims);
    let map = PatchMap::new(call, (&lo, &hi), (&lo, &hi), true)?;
    with_num!(ty, call, |T| {
        sync(call, g)?;
        let mut staged = None;
        for (rlo, rhi) in own_parts(call, g, &lo, &hi)? {
            let v: Vec<T> = decode(&get_rect(call, g, T::SIZE, &rlo, &rhi)?);
            let w: Vec<T> = decode(&map.fetch(call, g, T::SIZE, &rlo, &rhi)?);
            let out: Vec<T> = v
                .iter()
                .zip(&w)
                .map(|(x, y)| x.add(*y).times_real(0.5))
                .collect();
            staged = Some((encode(&out), rlo, rhi));
        }
        sync(call, g)?;
        if let Some((buf, rlo, rhi)) = staged {
            put_rect(call, g, &rlo, &rhi, &buf)?;
        }
        sync(call, g)
    })
}
