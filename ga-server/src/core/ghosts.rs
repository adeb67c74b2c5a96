//! Ghost cells and periodic transfers.
//!
//! An array made with ghost widths `w` keeps each block inside a frame of
//! `w[d]` cells on both sides of dimension d, in the same shared segment
//! (see `Array::width`), so a pointer from `NGA_Access_ghosts` reaches the
//! block and its frame in one piece. A ghost cell holds the periodic image
//! of the element it stands for: the cell at global index `x` (which may
//! lie below 0 or at or beyond the extent) shows element `x mod dims`.
//! Updating fetches, for each side and corner of the frame, that region's
//! periodic image through the ordinary get path (so same-node owners are
//! read in place and others through their server).
//!
//! Periodic transfers (`NGA_Periodic_get/put/acc`) take a patch whose
//! bounds may lie outside the array and split it into the pieces that
//! wrap around, each an ordinary transfer on the matching part of the
//! user's buffer.

use super::client::{self, Client};
use super::types::{GaError, GaResult, Handle};
use super::{Distribution, ElemType};
use crate::ptr::{self, MAX_DIM};

/// A periodic transfer's direction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Periodic {
    Put,
    Get,
    Acc,
}

/// Creates an array with `width[d]` ghost cells on each side of every
/// block along dimension d (collective).
pub fn create_ghosts(
    call: &'static str,
    ty: ElemType,
    dims: &[i64],
    width: &[i64],
    name: &str,
    dist: &Distribution,
) -> GaResult<Handle> {
    if width.len() < dims.len() {
        return Err(GaError::new(
            call,
            format!("width needs {} entries", dims.len()),
        ));
    }
    let place = super::placement(call)?;
    client::with(call, |c| {
        c.create_on(call, ty, dims, name, dist, width, &place, None)
    })
}

/// The ghost widths of `g` (all 0 for an array without ghost cells).
pub fn ghost_widths(call: &'static str, g: Handle) -> GaResult<Vec<i64>> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        Ok(a.width[..a.grid.ndim()].to_vec())
    })
}

/// A framed block: address of its first ghost cell, framed extents and
/// leading dimensions.
pub type FramedBlock = (*mut u8, Vec<i64>, Vec<i64>);

/// This process's framed block (`None` if it owns nothing).
pub fn access_ghosts(call: &'static str, g: Handle) -> GaResult<Option<FramedBlock>> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let n = a.grid.ndim();
        let me = a.hproc as usize;
        Ok(a.grid.own_block(me as i64).map(|(lo, hi)| {
            let ext: Vec<i64> = (0..n).map(|d| hi[d] - lo[d] + 1 + 2 * a.width[d]).collect();
            (
                ptr::address(&a.seg, a.off[me]),
                ext.clone(),
                ext[1..].to_vec(),
            )
        }))
    })
}

/// Fills every ghost cell of this process's block, corners included
/// (collective: all ranks call it; synchronises before and after).
pub fn update_ghosts(call: &'static str, g: Handle) -> GaResult<()> {
    client::with(call, |c| {
        barrier(call, c, g)?;
        let n = c.array(call, g)?.grid.ndim();
        let total = 3usize.pow(n as u32);
        for code in 0..total {
            let mask = mask_of(code, n);
            if mask[..n].iter().all(|&m| m == 0) {
                continue;
            }
            c.fill_frame(call, g, &mask[..n])?;
        }
        barrier(call, c, g)
    })
}

/// Fills the part of this process's ghost frame that `mask` names (per
/// dimension in C order: −1 the low side, 0 the block's own range, +1 the
/// high side) from the owners, as `NGA_NbGet_ghost_dir` does; not
/// collective and no synchronisation (the caller fences). An all-zero mask
/// fills nothing.
pub fn get_ghost_dir(call: &'static str, g: Handle, mask: &[i64]) -> GaResult<()> {
    client::with(call, |c| {
        let n = c.array(call, g)?.grid.ndim();
        if mask.len() != n {
            return Err(GaError::new(
                call,
                format!(
                    "mask has {} entries for a {n}-dimensional array",
                    mask.len()
                ),
            ));
        }
        if let Some(d) = mask.iter().position(|m| !(-1..=1).contains(m)) {
            return Err(GaError::new(
                call,
                format!("mask[{d}] = {} must be -1, 0 or 1", mask[d]),
            ));
        }
        if mask.iter().all(|&m| m == 0) {
            return Ok(());
        }
        let m: Vec<i8> = mask.iter().map(|&x| x as i8).collect();
        c.fill_frame(call, g, &m)
    })
}

/// Fills the ghost cells on one side (`dir` −1 or +1) of dimension `dim`
/// (C order, 0-based), with the corners of that side when `corners`
/// (collective; synchronises before and after).
pub fn update_ghost_dir(
    call: &'static str,
    g: Handle,
    dim: usize,
    dir: i64,
    corners: bool,
) -> GaResult<()> {
    client::with(call, |c| {
        let n = c.array(call, g)?.grid.ndim();
        if dim >= n {
            return Err(GaError::new(
                call,
                format!("dimension {dim} of a {n}-dimensional array"),
            ));
        }
        if dir != 1 && dir != -1 {
            return Err(GaError::new(
                call,
                format!("direction {dir} (must be -1 or 1)"),
            ));
        }
        barrier(call, c, g)?;
        let total = if corners { 3usize.pow(n as u32) } else { 1 };
        for code in 0..total {
            let mut mask = if corners {
                mask_of(code, n)
            } else {
                [0i8; MAX_DIM]
            };
            if corners && mask[dim] != 0 {
                continue;
            }
            mask[dim] = dir as i8;
            c.fill_frame(call, g, &mask[..n])?;
        }
        barrier(call, c, g)
    })
}

/// Copies the patch `lo..=hi` (bounds may lie in this process's ghost
/// frame, or anywhere: then the periodic image is fetched) into `buf`.
pub fn get_ghost_block(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    buf: &mut [u8],
    ld: &[i64],
) -> GaResult<()> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let n = a.grid.ndim();
        let me = a.hproc as usize;
        let ustr = user_strides(call, lo, hi, ld, n)?;
        if let Some((blo, bhi)) = a.grid.own_block(me as i64) {
            let inside = (0..n).all(|d| {
                lo[d] >= blo[d] - a.width[d] && hi[d] <= bhi[d] + a.width[d] && lo[d] <= hi[d]
            });
            if inside {
                let mut off = a.off[me] / a.elem;
                let mut count = [0usize; MAX_DIM];
                for d in 0..n {
                    off += (lo[d] - a.blo[me][d]) as usize * a.bstr[me][d];
                    count[d] = (hi[d] - lo[d] + 1) as usize;
                }
                return ptr::copy_out(
                    &a.seg,
                    off,
                    &a.bstr[me][..n],
                    buf,
                    0,
                    &ustr[..n],
                    &count[..n],
                    a.elem,
                )
                .map_err(|m| GaError::new(call, m));
            }
        }
        c.periodic(call, Periodic::Get, g, lo, hi, &[], Some(buf), ld, &[])
    })
}

/// A periodic put, get or accumulate of the patch `lo..=hi`, whose bounds
/// may lie outside the array: each index stands for itself modulo the
/// extent.
#[allow(clippy::too_many_arguments)]
pub fn periodic(
    call: &'static str,
    kind: Periodic,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    src: &[u8],
    dst: Option<&mut [u8]>,
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    client::with(call, |c| {
        c.periodic(call, kind, g, lo, hi, src, dst, ld, alpha)
    })
}

/// Bytes a user buffer with leading dimensions `ld` spans for `lo..=hi`.
pub fn periodic_len(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    ld: &[i64],
) -> GaResult<usize> {
    client::with(call, |c| {
        let a = c.array(call, g)?;
        let n = a.grid.ndim();
        let s = user_strides(call, lo, hi, ld, n)?;
        let mut count = [0usize; MAX_DIM];
        for d in 0..n {
            count[d] = (hi[d] - lo[d] + 1) as usize;
        }
        let b = ptr::extent(0, &s[..n], &count[..n], a.elem);
        if b == usize::MAX {
            return Err(GaError::new(call, "the patch is larger than memory"));
        }
        Ok(b)
    })
}

/// A barrier of the group `g` lives on, with memory fences around it.
fn barrier(call: &'static str, c: &Client, g: Handle) -> GaResult<()> {
    let comm = c.array(call, g)?.gcomm;
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    comm.barrier().map_err(GaError::backend(call))?;
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// The side/corner `code` (base 3, one digit per dimension) as −1/0/+1.
fn mask_of(code: usize, n: usize) -> [i8; MAX_DIM] {
    let mut m = [0i8; MAX_DIM];
    let mut c = code;
    for d in 0..n {
        m[d] = (c % 3) as i8 - 1;
        c /= 3;
    }
    m
}

/// Strides (elements) of a user buffer for `lo..=hi` with leading
/// dimensions `ld`, checked.
fn user_strides(
    call: &'static str,
    lo: &[i64],
    hi: &[i64],
    ld: &[i64],
    n: usize,
) -> GaResult<[usize; MAX_DIM]> {
    if lo.len() < n || hi.len() < n || ld.len() + 1 < n {
        return Err(GaError::new(
            call,
            format!("lo, hi and ld need {n}, {n} and {} entries", n - 1),
        ));
    }
    let mut s = [0usize; MAX_DIM];
    s[n - 1] = 1;
    for d in 0..n {
        if hi[d] < lo[d] {
            return Err(GaError::new(
                call,
                format!("patch {} has lo > hi", super::fmt_patch(&lo[..n], &hi[..n])),
            ));
        }
    }
    for d in (0..n - 1).rev() {
        let ext = hi[d + 1] - lo[d + 1] + 1;
        let l = if ld[d] < ext && (0..=d).all(|k| hi[k] == lo[k]) {
            ext
        } else {
            ld[d]
        };
        if l < ext {
            return Err(GaError::new(
                call,
                format!(
                    "ld[{d}] = {} is smaller than the patch's extent {ext} in dimension {}",
                    ld[d],
                    d + 1
                ),
            ));
        }
        s[d] = s[d + 1]
            .checked_mul(l as usize)
            .ok_or_else(|| GaError::new(call, "ld describes a buffer larger than memory"))?;
    }
    Ok(s)
}

/// Per dimension, the pieces `lo..=hi` wraps into: (offset of the piece in
/// the patch, first array index, last array index).
fn wrap(lo: i64, hi: i64, extent: i64) -> Vec<(i64, i64, i64)> {
    let mut v = Vec::new();
    let mut x = lo;
    while x <= hi {
        let m = x.rem_euclid(extent);
        let len = (hi - x + 1).min(extent - m);
        v.push((x - lo, m, m + len - 1));
        x += len;
    }
    v
}

/// Calls `f(lo, hi, offset)` for every combination of the per-dimension
/// wrapped pieces: the array indices of the piece and its offset in the
/// unwrapped patch.
fn each_piece(
    pieces: &[Vec<(i64, i64, i64)>],
    mut f: impl FnMut(&[i64], &[i64], &[i64]) -> GaResult<()>,
) -> GaResult<()> {
    let n = pieces.len();
    let mut idx = [0usize; MAX_DIM];
    loop {
        let mut plo = [0i64; MAX_DIM];
        let mut phi = [0i64; MAX_DIM];
        let mut off = [0i64; MAX_DIM];
        for d in 0..n {
            let (o, l, h) = pieces[d][idx[d]];
            plo[d] = l;
            phi[d] = h;
            off[d] = o;
        }
        f(&plo[..n], &phi[..n], &off[..n])?;
        let mut d = n;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < pieces[d].len() {
                break;
            }
            idx[d] = 0;
        }
    }
}

impl Client {
    /// Fills the part of this process's ghost frame that `mask` names
    /// (per dimension: −1 the low side, 0 the block's own range, +1 the
    /// high side) with its periodic image.
    fn fill_frame(&mut self, call: &'static str, g: Handle, mask: &[i8]) -> GaResult<()> {
        let i = self.index(call, g)?;
        let me = self.arrays[i].as_ref().map_or(0, |a| a.hproc as usize);
        let (n, elem, w, blo, bhi) = {
            let a = self.arrays[i]
                .as_ref()
                .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
            let Some((blo, bhi)) = a.grid.own_block(me as i64) else {
                return Ok(());
            };
            (a.grid.ndim(), a.elem, a.width, blo, bhi)
        };
        let mut lo = [0i64; MAX_DIM];
        let mut hi = [0i64; MAX_DIM];
        for d in 0..n {
            match mask[d] {
                -1 => {
                    lo[d] = blo[d] - w[d];
                    hi[d] = blo[d] - 1;
                }
                1 => {
                    lo[d] = bhi[d] + 1;
                    hi[d] = bhi[d] + w[d];
                }
                _ => {
                    lo[d] = blo[d];
                    hi[d] = bhi[d];
                }
            }
            if hi[d] < lo[d] {
                return Ok(());
            }
        }
        if self.fill_frame_in_place(call, i, &lo[..n], &hi[..n])? {
            return Ok(());
        }
        let mut count = [0usize; MAX_DIM];
        for d in 0..n {
            count[d] = (hi[d] - lo[d] + 1) as usize;
        }
        let total: usize = count[..n].iter().product();
        let mut tmp = vec![0u8; total * elem];
        let tld: Vec<i64> = count[1..n].iter().map(|&x| x as i64).collect();
        self.periodic(
            call,
            Periodic::Get,
            g,
            &lo[..n],
            &hi[..n],
            &[],
            Some(&mut tmp),
            &tld,
            &[],
        )?;
        let a = self.arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
        let mut off = a.off[me] / elem;
        for d in 0..n {
            off += (lo[d] - a.blo[me][d]) as usize * a.bstr[me][d];
        }
        let tstr = super::dist::strides_of(&count[..n]);
        ptr::copy_in(
            &a.seg,
            off,
            &a.bstr[me][..n],
            &tmp,
            0,
            &tstr[..n],
            &count[..n],
            elem,
        )
        .map_err(|m| GaError::new(call, m))
    }

    /// Fills the frame cells `lo..=hi` (global indices, possibly outside
    /// the array) straight from the owners' blocks when every owner is on
    /// this node and served in place; false (nothing done) otherwise.
    fn fill_frame_in_place(
        &self,
        call: &'static str,
        i: usize,
        lo: &[i64],
        hi: &[i64],
    ) -> GaResult<bool> {
        if self.remote {
            return Ok(false);
        }
        let a = self.arrays[i]
            .as_ref()
            .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
        let me = a.hproc as usize;
        let n = lo.len();
        let pieces: Vec<Vec<(i64, i64, i64)>> =
            (0..n).map(|d| wrap(lo[d], hi[d], a.grid.dims[d])).collect();
        // First check that every owner is on this node.
        let mut all_here = true;
        each_piece(&pieces, |plo, phi, _| {
            a.grid.parts(plo, phi, |owner, _, _| -> GaResult<()> {
                all_here &= self.node_of[a.compute_rank(owner)] == self.my_node;
                Ok(())
            })
        })?;
        if !all_here {
            return Ok(false);
        }
        let elem = a.elem;
        each_piece(&pieces, |plo, phi, poff| {
            a.grid.parts(plo, phi, |owner, olo, ohi| -> GaResult<()> {
                let o = owner as usize;
                let mut count = [0usize; MAX_DIM];
                let mut src = a.off[o] / elem;
                let mut dst = a.off[me] / elem;
                for d in 0..n {
                    count[d] = (ohi[d] - olo[d] + 1) as usize;
                    src += (olo[d] - a.blo[o][d]) as usize * a.bstr[o][d];
                    let frame = lo[d] + poff[d] + (olo[d] - plo[d]);
                    dst += (frame - a.blo[me][d]) as usize * a.bstr[me][d];
                }
                ptr::copy_between(
                    &a.seg,
                    src,
                    &a.bstr[o][..n],
                    dst,
                    &a.bstr[me][..n],
                    &count[..n],
                    elem,
                )
                .map_err(|m| GaError::new(call, m))
            })
        })?;
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn periodic(
        &mut self,
        call: &'static str,
        kind: Periodic,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        src: &[u8],
        mut dst: Option<&mut [u8]>,
        ld: &[i64],
        alpha: &[u8],
    ) -> GaResult<()> {
        let (n, dims) = {
            let a = self.array(call, g)?;
            (a.grid.ndim(), a.grid.dims.clone())
        };
        let ustr = user_strides(call, lo, hi, ld, n)?;
        let pieces: Vec<Vec<(i64, i64, i64)>> =
            (0..n).map(|d| wrap(lo[d], hi[d], dims[d])).collect();
        let lds: Vec<i64> = (1..n).map(|d| (ustr[d - 1] / ustr[d]) as i64).collect();
        let esz = self.array(call, g)?.elem;
        each_piece(&pieces, |plo, phi, poff| {
            let at = (0..n).map(|d| poff[d] as usize * ustr[d]).sum::<usize>() * esz;
            let short = || GaError::new(call, "the buffer is too small");
            match kind {
                Periodic::Get => {
                    let d = dst.as_deref_mut().unwrap_or(&mut []);
                    let d = d.get_mut(at..).ok_or_else(short)?;
                    self.get(g, plo, phi, d, &lds, call)
                }
                Periodic::Put => {
                    let s = src.get(at..).ok_or_else(short)?;
                    self.put(g, plo, phi, s, &lds, call)
                }
                Periodic::Acc => {
                    let s = src.get(at..).ok_or_else(short)?;
                    self.acc(g, plo, phi, s, &lds, alpha, call)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_splits_a_range_at_the_array_edges() {
        assert_eq!(wrap(-2, 3, 10), vec![(0, 8, 9), (2, 0, 3)]);
        assert_eq!(wrap(8, 12, 10), vec![(0, 8, 9), (2, 0, 2)]);
        assert_eq!(wrap(2, 4, 10), vec![(0, 2, 4)]);
        // Longer than the array: it wraps more than once.
        assert_eq!(
            wrap(-1, 10, 5),
            vec![(0, 4, 4), (1, 0, 4), (6, 0, 4), (11, 0, 0)]
        );
    }

    #[test]
    fn masks_cover_every_side_and_corner() {
        let all: Vec<[i8; MAX_DIM]> = (0..9).map(|c| mask_of(c, 2)).collect();
        assert_eq!(&all[0][..2], &[-1, -1]);
        assert_eq!(&all[4][..2], &[0, 0]);
        assert_eq!(&all[8][..2], &[1, 1]);
    }
}
