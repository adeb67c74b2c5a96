//! Patch geometry for the array operations: shapes, intersections, and the
//! correspondence between a source patch and a destination patch (same
//! order of elements, or transposed), with the fetch of the source data
//! that corresponds to a part of the destination.

use crate::core::{self, fmt_patch, ElemType, GaError, GaResult, Handle};

/// Extent of each dimension of the patch `lo..=hi`.
pub fn shape(lo: &[i64], hi: &[i64]) -> Vec<i64> {
    lo.iter().zip(hi).map(|(l, h)| h - l + 1).collect()
}

/// Number of elements of a shape.
pub fn count(shape: &[i64]) -> usize {
    shape.iter().map(|&e| e.max(0) as usize).product()
}

/// Leading dimensions of a contiguous buffer holding a patch of `shape`.
pub fn ld_of(shape: &[i64]) -> Vec<i64> {
    shape.iter().skip(1).copied().collect()
}

/// The common part of two patches, if any.
pub fn intersect(
    alo: &[i64],
    ahi: &[i64],
    blo: &[i64],
    bhi: &[i64],
) -> Option<(Vec<i64>, Vec<i64>)> {
    let lo: Vec<i64> = alo.iter().zip(blo).map(|(a, b)| *a.max(b)).collect();
    let hi: Vec<i64> = ahi.iter().zip(bhi).map(|(a, b)| *a.min(b)).collect();
    if lo.iter().zip(&hi).all(|(l, h)| l <= h) {
        Some((lo, hi))
    } else {
        None
    }
}

/// Calls `f` with every multi-index of `shape` in row-major order.
pub fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64])) {
    if shape.iter().any(|&e| e <= 0) {
        return;
    }
    let mut idx = vec![0i64; shape.len()];
    loop {
        f(&idx);
        let mut d = shape.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// Type and dimensions of `g`, or an error of `call` naming the handle.
pub fn inquire(call: &'static str, g: Handle) -> GaResult<(ElemType, Vec<i64>)> {
    core::inquire(g).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))
}

/// The name of `g` for messages.
pub fn name(g: Handle) -> String {
    core::name(g).unwrap_or_else(|_| format!("{g}"))
}

/// Checks that `lo..=hi` is a patch of `g`; returns its type and dims.
pub fn check_patch(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
) -> GaResult<(ElemType, Vec<i64>)> {
    let (ty, dims) = inquire(call, g)?;
    let zeros = vec![0i64; dims.len()];
    let top: Vec<i64> = dims.iter().map(|d| d - 1).collect();
    if lo.len() != dims.len() || hi.len() != dims.len() {
        return Err(GaError::new(
            call,
            format!(
                "patch {} has {} dimensions but g_a '{}' has {}",
                fmt_patch(lo, hi),
                lo.len(),
                name(g),
                dims.len()
            ),
        ));
    }
    let inside = lo
        .iter()
        .zip(hi)
        .zip(&dims)
        .all(|((l, h), d)| 0 <= *l && l <= h && h < d);
    if !inside {
        return Err(GaError::new(
            call,
            format!(
                "patch {} outside g_a '{}' {} (or lo > hi)",
                fmt_patch(lo, hi),
                name(g),
                fmt_patch(&zeros, &top)
            ),
        ));
    }
    Ok((ty, dims))
}

/// The whole of an array of `dims` as a patch.
pub fn full(dims: &[i64]) -> (Vec<i64>, Vec<i64>) {
    (vec![0; dims.len()], dims.iter().map(|d| d - 1).collect())
}

/// This process's parts of the patch `lo..=hi` of `g` (one per block it
/// holds that meets the patch); its errors already name `call`.
pub use crate::core::own_parts;

/// An error of a core call reported as an error of `call`.
pub fn relabel(call: &'static str, e: GaError) -> GaError {
    GaError::new(call, e.message)
}

/// `core::get` of a whole rectangle into a fresh contiguous buffer.
pub fn get_rect(
    call: &'static str,
    g: Handle,
    esize: usize,
    lo: &[i64],
    hi: &[i64],
) -> GaResult<Vec<u8>> {
    let sh = shape(lo, hi);
    let mut buf = vec![0u8; count(&sh) * esize];
    core::get(g, lo, hi, &mut buf, &ld_of(&sh)).map_err(|e| relabel(call, e))?;
    Ok(buf)
}

/// `core::put` of a contiguous buffer into a whole rectangle.
pub fn put_rect(call: &'static str, g: Handle, lo: &[i64], hi: &[i64], buf: &[u8]) -> GaResult<()> {
    let sh = shape(lo, hi);
    core::put(g, lo, hi, buf, &ld_of(&sh)).map_err(|e| relabel(call, e))
}

/// Dimensions of a patch with more than one element, in order.
fn long_dims(lo: &[i64], hi: &[i64]) -> Vec<usize> {
    (0..lo.len()).filter(|&d| hi[d] > lo[d]).collect()
}

/// How the elements of a source patch correspond to those of a
/// destination patch of the same size: in row-major order of both, or
/// (transposed) with the order of the dimensions reversed.
pub struct PatchMap {
    src_lo: Vec<i64>,
    src_hi: Vec<i64>,
    dst_lo: Vec<i64>,
    dst_hi: Vec<i64>,
    trans: bool,
    /// For each long source dimension, the destination dimension it
    /// follows, when the two patches have matching shapes.
    pairs: Option<Vec<(usize, usize)>>,
}

impl PatchMap {
    /// The map between two patches; an error of `call` when their sizes
    /// differ, or when a transposed map is asked of patches whose shapes
    /// are not each other's reverse.
    pub fn new(
        call: &'static str,
        src: (&[i64], &[i64]),
        dst: (&[i64], &[i64]),
        trans: bool,
    ) -> GaResult<PatchMap> {
        let (slo, shi) = src;
        let (dlo, dhi) = dst;
        let ssh = shape(slo, shi);
        let dsh = shape(dlo, dhi);
        if count(&ssh) != count(&dsh) {
            return Err(GaError::new(
                call,
                format!(
                    "patches {} and {} have different numbers of elements",
                    fmt_patch(slo, shi),
                    fmt_patch(dlo, dhi)
                ),
            ));
        }
        let sl = long_dims(slo, shi);
        let mut dl = long_dims(dlo, dhi);
        if trans {
            dl.reverse();
        }
        let pairs = if sl.len() == dl.len() && sl.iter().zip(&dl).all(|(&s, &d)| ssh[s] == dsh[d]) {
            Some(sl.into_iter().zip(dl).collect())
        } else {
            None
        };
        if trans && pairs.is_none() {
            return Err(GaError::new(
                call,
                format!(
                    "patch {} is not the transpose of patch {}",
                    fmt_patch(slo, shi),
                    fmt_patch(dlo, dhi)
                ),
            ));
        }
        Ok(PatchMap {
            src_lo: slo.to_vec(),
            src_hi: shi.to_vec(),
            dst_lo: dlo.to_vec(),
            dst_hi: dhi.to_vec(),
            trans,
            pairs,
        })
    }

    /// The source subscript of destination subscript `d`.
    fn source_of(&self, d: &[i64]) -> Vec<i64> {
        match &self.pairs {
            Some(pairs) => {
                let mut s = self.src_lo.clone();
                for &(sd, dd) in pairs {
                    s[sd] = self.src_lo[sd] + (d[dd] - self.dst_lo[dd]);
                }
                s
            }
            None => {
                // Same row-major position in both patches.
                let dsh = shape(&self.dst_lo, &self.dst_hi);
                let mut lin: i64 = 0;
                for k in 0..d.len() {
                    lin = lin * dsh[k] + (d[k] - self.dst_lo[k]);
                }
                let ssh = shape(&self.src_lo, &self.src_hi);
                let mut s = vec![0i64; ssh.len()];
                for k in (0..ssh.len()).rev() {
                    s[k] = self.src_lo[k] + lin % ssh[k];
                    lin /= ssh[k];
                }
                s
            }
        }
    }

    /// The source values for the destination rectangle `lo..=hi` (inside
    /// the destination patch), as contiguous bytes in the rectangle's
    /// row-major order.
    pub fn fetch(
        &self,
        call: &'static str,
        g_src: Handle,
        esize: usize,
        lo: &[i64],
        hi: &[i64],
    ) -> GaResult<Vec<u8>> {
        let Some(pairs) = &self.pairs else {
            // Reshaped patches: element by element.
            let mut subs = Vec::new();
            for_each_index(&shape(lo, hi), |i| {
                let d: Vec<i64> = i.iter().zip(lo).map(|(a, b)| a + b).collect();
                subs.push(self.source_of(&d));
            });
            let mut vals = vec![0u8; subs.len() * esize];
            core::gather(g_src, &mut vals, &subs).map_err(|e| relabel(call, e))?;
            return Ok(vals);
        };
        let slo = self.source_of(lo);
        let shi = self.source_of(hi);
        let raw = get_rect(call, g_src, esize, &slo, &shi)?;
        if !self.trans || pairs.len() < 2 {
            // Long dimensions correspond in order: the row-major orders agree.
            return Ok(raw);
        }
        // Reverse the order of the long dimensions.
        let src_ext: Vec<i64> = pairs.iter().map(|&(s, _)| shi[s] - slo[s] + 1).collect();
        Ok(reverse_axes(&raw, &src_ext, esize))
    }
}

/// The row-major data of `buf` (shape `ext`) with its axes in reverse
/// order: `out[i0..in] = buf[in..i0]`.
pub fn reverse_axes(buf: &[u8], ext: &[i64], esize: usize) -> Vec<u8> {
    let n = ext.len();
    let mut stride = vec![1usize; n];
    for k in (0..n.saturating_sub(1)).rev() {
        stride[k] = stride[k + 1] * ext[k + 1] as usize;
    }
    let out_ext: Vec<i64> = ext.iter().rev().copied().collect();
    let mut out = Vec::with_capacity(buf.len());
    for_each_index(&out_ext, |i| {
        // Output index i is input index reversed.
        let off: usize = i
            .iter()
            .enumerate()
            .map(|(k, &v)| v as usize * stride[n - 1 - k])
            .sum();
        out.extend_from_slice(&buf[off * esize..(off + 1) * esize]);
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(shape(&[1, 2], &[3, 2]), vec![3, 1]);
        assert_eq!(
            intersect(&[0, 0], &[4, 4], &[3, 2], &[9, 3]),
            Some((vec![3, 2], vec![4, 3]))
        );
        assert_eq!(intersect(&[0], &[4], &[5], &[9]), None);
        let mut seen = Vec::new();
        for_each_index(&[2, 3], |i| seen.push(i.to_vec()));
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[1], vec![0, 1]);
        assert_eq!(seen[3], vec![1, 0]);
    }

    #[test]
    fn reversing_axes_transposes() {
        // 2x3 matrix 0..6 -> its 3x2 transpose.
        let buf: Vec<u8> = (0..6).collect();
        assert_eq!(reverse_axes(&buf, &[2, 3], 1), vec![0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn maps_match_shapes() {
        let m = PatchMap::new("t", (&[0, 0], &[1, 2]), (&[5, 5], &[7, 6]), true).unwrap();
        assert_eq!(m.source_of(&[5, 5]), vec![0, 0]);
        assert_eq!(m.source_of(&[6, 5]), vec![0, 1]);
        assert_eq!(m.source_of(&[5, 6]), vec![1, 0]);
        assert!(PatchMap::new("t", (&[0, 0], &[1, 2]), (&[0, 0], &[1, 2]), true).is_err());
        // Reshape 2x3 -> 3x2 in row-major order.
        let r = PatchMap::new("t", (&[0, 0], &[1, 2]), (&[0, 0], &[2, 1]), false).unwrap();
        assert_eq!(r.source_of(&[1, 1]), vec![1, 0]);
        // Unit dimensions are ignored.
        let u = PatchMap::new("t", (&[0, 3, 0], &[0, 3, 4]), (&[2, 0], &[2, 4]), false).unwrap();
        assert_eq!(u.source_of(&[2, 4]), vec![0, 3, 4]);
    }
}
