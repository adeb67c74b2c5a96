//! Strided patch transfers (`NGA_Strided_put/get/acc`): every `skip[d]`-th
//! element of the patch `lo..=hi`, starting at `lo`, packed densely in the
//! user's buffer (whose leading dimensions `ld` count selected elements).
//!
//! Same-node owners are served straight in the mapped segment with the
//! block strides multiplied by the skips. Other nodes' owners (and all of
//! them with `MPBRIDGE_GA_REMOTE=1`) go through the ordinary patch
//! requests: a get fetches the owner's part of the patch once and picks the
//! selected elements out; a put or accumulate sends each run of selected
//! elements that lie next to each other in the array (a row when the last
//! skip is 1, else one element), so elements between them are never
//! touched.

use super::client::{self, Client};
use super::kernels;
use super::types::{fmt_patch, GaError, GaResult, Handle};
use crate::ptr::{self, MAX_DIM};
use crate::shm;

/// What a strided transfer does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strided {
    Put,
    Get,
    Acc,
}

/// One owner's share of a strided patch: first and last selected indices
/// and the number of selected elements per dimension.
struct Part {
    owner: usize,
    lo: [i64; MAX_DIM],
    hi: [i64; MAX_DIM],
    count: [usize; MAX_DIM],
}

/// The checked shape of a strided transfer.
struct Shape {
    n: usize,
    /// Selected elements per dimension.
    count: [usize; MAX_DIM],
    /// Last selected index per dimension.
    top: [i64; MAX_DIM],
    /// Strides of the user's buffer, in elements.
    ustr: [usize; MAX_DIM],
}

fn shape(
    call: &'static str,
    c: &Client,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    skip: &[i64],
    ld: &[i64],
) -> GaResult<(Shape, usize)> {
    let a = c.array(call, g)?;
    let n = a.grid.ndim();
    if lo.len() < n || hi.len() < n || skip.len() < n {
        return Err(GaError::new(
            call,
            format!("lo, hi and skip need {n} entries for g_a '{}'", a.name),
        ));
    }
    a.grid.check_patch(call, &a.name, lo, hi)?;
    let mut s = Shape {
        n,
        count: [0; MAX_DIM],
        top: [0; MAX_DIM],
        ustr: [0; MAX_DIM],
    };
    for d in 0..n {
        if skip[d] < 1 {
            return Err(GaError::new(
                call,
                format!(
                    "invalid skip {} in dimension {d} (must be at least 1)",
                    skip[d]
                ),
            ));
        }
        let k = (hi[d] - lo[d]) / skip[d];
        s.count[d] = k as usize + 1;
        s.top[d] = lo[d] + k * skip[d];
    }
    if ld.len() + 1 < n {
        return Err(GaError::new(
            call,
            format!("ld needs {} entries, got {}", n - 1, ld.len()),
        ));
    }
    // ld[d] only matters once an outer dimension selects more than one
    // element (as for the plain transfers, a one-row buffer may pass 1).
    s.ustr[n - 1] = 1;
    let mut outer = 1usize;
    let mut eff = [0i64; MAX_DIM];
    for d in 0..n.saturating_sub(1) {
        outer = outer.saturating_mul(s.count[d]);
        eff[d] = ld[d];
        if outer == 1 {
            eff[d] = eff[d].max(s.count[d + 1] as i64);
        } else if ld[d] < s.count[d + 1] as i64 {
            return Err(GaError::new(
                call,
                format!(
                    "ld[{d}]={} is smaller than the {} elements selected in dimension {} of patch {}",
                    ld[d],
                    s.count[d + 1],
                    d + 1,
                    fmt_patch(&lo[..n], &hi[..n])
                ),
            ));
        }
    }
    for d in (0..n - 1).rev() {
        s.ustr[d] = s.ustr[d + 1]
            .checked_mul(eff[d] as usize)
            .ok_or_else(|| GaError::new(call, "ld describes a buffer larger than memory"))?;
    }
    let bytes = ptr::extent(0, &s.ustr[..n], &s.count[..n], a.elem);
    if bytes == usize::MAX {
        return Err(GaError::new(
            call,
            "the strided patch is larger than memory",
        ));
    }
    Ok((s, bytes))
}

/// Bytes the user's buffer must hold for a strided transfer.
pub fn strided_len(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    skip: &[i64],
    ld: &[i64],
) -> GaResult<usize> {
    client::with(call, |c| {
        shape(call, c, g, lo, hi, skip, ld).map(|(_, b)| b)
    })
}

/// Runs a strided put, get or accumulate. `src` is the user's buffer for a
/// put or an accumulate, `dst` for a get; `alpha` is the accumulate's scale.
#[allow(clippy::too_many_arguments)]
pub fn strided(
    call: &'static str,
    kind: Strided,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    skip: &[i64],
    src: &[u8],
    dst: Option<&mut [u8]>,
    ld: &[i64],
    alpha: &[u8],
) -> GaResult<()> {
    client::with(call, |c| {
        c.strided(call, kind, g, lo, hi, skip, src, dst, ld, alpha)
    })
}

/// Per dimension: the first index at or after `plo` and the last at or
/// before `phi` that the skip selects, counting from `lo`; `None` when the
/// owner's part selects nothing.
fn align(
    n: usize,
    lo: &[i64],
    skip: &[i64],
    plo: &[i64; MAX_DIM],
    phi: &[i64; MAX_DIM],
) -> Option<Part> {
    let mut p = Part {
        owner: 0,
        lo: [0; MAX_DIM],
        hi: [0; MAX_DIM],
        count: [0; MAX_DIM],
    };
    for d in 0..n {
        let first = lo[d] + (plo[d] - lo[d] + skip[d] - 1) / skip[d] * skip[d];
        let last = lo[d] + (phi[d] - lo[d]) / skip[d] * skip[d];
        if first > last {
            return None;
        }
        p.lo[d] = first;
        p.hi[d] = last;
        p.count[d] = ((last - first) / skip[d]) as usize + 1;
    }
    Some(p)
}

/// A row copier: array offset, buffer offset, counts, array strides,
/// buffer strides.
type RowFn<'a> = dyn FnMut(usize, usize, &[usize], &[usize], &[usize]) -> Result<(), String> + 'a;

/// Strides and counts for the row walker, which copies rows of contiguous
/// elements: when the last skip is not 1 each row is a single element, so a
/// unit trailing dimension is added (or, with every dimension already used,
/// the first one is walked here and the rest handed on).
fn walk(
    count: &[usize],
    astr: &[usize],
    ustr: &[usize],
    last_contiguous: bool,
    f: &mut RowFn,
) -> Result<(), String> {
    let n = count.len();
    if last_contiguous {
        return f(0, 0, count, astr, ustr);
    }
    if n < MAX_DIM {
        let mut c = [1usize; MAX_DIM];
        let mut a = [1usize; MAX_DIM];
        let mut u = [1usize; MAX_DIM];
        c[..n].copy_from_slice(count);
        a[..n].copy_from_slice(astr);
        u[..n].copy_from_slice(ustr);
        return f(0, 0, &c[..=n], &a[..=n], &u[..=n]);
    }
    for i in 0..count[0] {
        walk(
            &count[1..],
            &astr[1..],
            &ustr[1..],
            false,
            &mut |ao, uo, c, a, u| f(ao + i * astr[0], uo + i * ustr[0], c, a, u),
        )?;
    }
    Ok(())
}

impl Client {
    #[allow(clippy::too_many_arguments)]
    fn strided(
        &mut self,
        call: &'static str,
        kind: Strided,
        g: Handle,
        lo: &[i64],
        hi: &[i64],
        skip: &[i64],
        src: &[u8],
        mut dst: Option<&mut [u8]>,
        ld: &[i64],
        alpha: &[u8],
    ) -> GaResult<()> {
        let (s, bytes) = shape(call, self, g, lo, hi, skip, ld)?;
        let n = s.n;
        let have = dst.as_ref().map_or(src.len(), |d| d.len());
        if have < bytes {
            return Err(GaError::new(
                call,
                format!(
                    "buffer of {have} bytes is too small for the strided patch ({bytes} bytes)"
                ),
            ));
        }
        let i = self.index(call, g)?;
        let (elem, ty, holders) = {
            let a = self.arrays[i]
                .as_ref()
                .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
            (a.elem, a.ty, a.holders.clone())
        };
        if kind == Strided::Acc {
            kernels::check_acc(ty).map_err(|m| GaError::new(call, m))?;
            if alpha.len() < elem {
                return Err(GaError::new(
                    call,
                    format!("alpha holds {} bytes, {elem} needed", alpha.len()),
                ));
            }
        }
        let mut parts = Vec::new();
        {
            let a = self.arrays[i]
                .as_ref()
                .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
            a.grid
                .parts(lo, &s.top[..n], |owner, plo, phi| -> GaResult<()> {
                    if let Some(mut p) = align(n, lo, skip, plo, phi) {
                        p.owner = owner as usize;
                        parts.push(p);
                    }
                    Ok(())
                })?;
        }
        let me = self.me as u32;
        let contiguous_rows = skip[n - 1] == 1;
        for p in &parts {
            let count = &p.count[..n];
            let mut uoff = 0usize;
            for d in 0..n {
                uoff += ((p.lo[d] - lo[d]) / skip[d]) as usize * s.ustr[d];
            }
            let local = !self.remote && self.node_of[holders[p.owner] as usize] == self.my_node;
            if local {
                let a = self.arrays[i]
                    .as_ref()
                    .ok_or_else(|| GaError::new(call, "invalid array handle"))?;
                let o = p.owner;
                let mut astr = [0usize; MAX_DIM];
                let mut boff = a.off[o] / elem;
                for d in 0..n {
                    astr[d] = a.bstr[o][d] * skip[d] as usize;
                    boff += (p.lo[d] - a.blo[o][d]) as usize * a.bstr[o][d];
                }
                let e = |m: String| GaError::new(call, m);
                match kind {
                    Strided::Put => walk(
                        count,
                        &astr[..n],
                        &s.ustr[..n],
                        contiguous_rows,
                        &mut |ao, uo, c, st, us| {
                            ptr::copy_in(&a.seg, boff + ao, st, src, uoff + uo, us, c, elem)
                        },
                    )
                    .map_err(e)?,
                    Strided::Get => {
                        let out = dst.as_deref_mut().unwrap_or(&mut []);
                        walk(
                            count,
                            &astr[..n],
                            &s.ustr[..n],
                            contiguous_rows,
                            &mut |ao, uo, c, st, us| {
                                ptr::copy_out(&a.seg, boff + ao, st, out, uoff + uo, us, c, elem)
                            },
                        )
                        .map_err(e)?
                    }
                    Strided::Acc => {
                        let w = ptr::atomic_u32(&a.seg, a.lock_off[o]).map_err(e)?;
                        let mut bad = None;
                        shm::lock(w, me);
                        let r = walk(
                            count,
                            &astr[..n],
                            &s.ustr[..n],
                            contiguous_rows,
                            &mut |ao, uo, c, st, us| {
                                ptr::update_rows(
                                    &a.seg,
                                    boff + ao,
                                    st,
                                    src,
                                    uoff + uo,
                                    us,
                                    c,
                                    elem,
                                    |d, x| {
                                        if let Err(m) = kernels::acc(ty, d, x, alpha) {
                                            bad = Some(m);
                                        }
                                    },
                                )
                            },
                        );
                        shm::unlock(w);
                        r.map_err(e)?;
                        if let Some(m) = bad {
                            return Err(GaError::new(call, m));
                        }
                    }
                }
                continue;
            }
            match kind {
                Strided::Get => {
                    // The owner's part of the patch in one request, then the
                    // selected elements picked out of it.
                    let mut ext = [0usize; MAX_DIM];
                    for d in 0..n {
                        ext[d] = (p.hi[d] - p.lo[d]) as usize + 1;
                    }
                    let total: usize = ext[..n].iter().product();
                    let mut tmp = vec![0u8; total * elem];
                    let tld: Vec<i64> = ext[1..n].iter().map(|&x| x as i64).collect();
                    self.get(g, &p.lo[..n], &p.hi[..n], &mut tmp, &tld, call)?;
                    let mut tstr = [0usize; MAX_DIM];
                    tstr[n - 1] = 1;
                    for d in (0..n - 1).rev() {
                        tstr[d] = tstr[d + 1] * ext[d + 1];
                    }
                    let out = dst.as_deref_mut().unwrap_or(&mut []);
                    let mut idx = [0usize; MAX_DIM];
                    loop {
                        let (mut t, mut u) = (0usize, uoff);
                        for d in 0..n {
                            t += idx[d] * skip[d] as usize * tstr[d];
                            u += idx[d] * s.ustr[d];
                        }
                        out[u * elem..(u + 1) * elem]
                            .copy_from_slice(&tmp[t * elem..(t + 1) * elem]);
                        if !next(&mut idx, count) {
                            break;
                        }
                    }
                }
                Strided::Put | Strided::Acc => {
                    // Runs of selected elements adjacent in the array: rows
                    // when the last skip is 1, else single elements.
                    let run = if contiguous_rows { count[n - 1] } else { 1 };
                    let mut outer = [1usize; MAX_DIM];
                    outer[..n].copy_from_slice(count);
                    outer[n - 1] = count[n - 1] / run;
                    let mut rld = [1i64; MAX_DIM];
                    if n > 1 {
                        rld[n - 2] = run as i64;
                    }
                    let mut idx = [0usize; MAX_DIM];
                    loop {
                        let mut rlo = [0i64; MAX_DIM];
                        let mut u = uoff;
                        for d in 0..n {
                            let k = if d == n - 1 { idx[d] * run } else { idx[d] };
                            rlo[d] = p.lo[d] + k as i64 * skip[d];
                            u += k * s.ustr[d];
                        }
                        let mut rhi = rlo;
                        rhi[n - 1] = rlo[n - 1] + run as i64 - 1;
                        let piece = &src[u * elem..(u + run) * elem];
                        let rl = &rld[..n - 1];
                        if kind == Strided::Put {
                            self.put(g, &rlo[..n], &rhi[..n], piece, rl, call)?;
                        } else {
                            self.acc(g, &rlo[..n], &rhi[..n], piece, rl, alpha, call)?;
                        }
                        if !next(&mut idx, &outer[..n]) {
                            break;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Steps a row-major multi-index through `count`; false after the last.
fn next(idx: &mut [usize; MAX_DIM], count: &[usize]) -> bool {
    for d in (0..count.len()).rev() {
        idx[d] += 1;
        if idx[d] < count[d] {
            return true;
        }
        idx[d] = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_picks_the_selected_indices_of_an_owner_part() {
        let mut plo = [0i64; MAX_DIM];
        let mut phi = [0i64; MAX_DIM];
        // Patch starts at 1 with skip 3: 1, 4, 7, 10, ...; owner holds 5..=11.
        plo[0] = 5;
        phi[0] = 11;
        let p = align(1, &[1], &[3], &plo, &phi).expect("selects 7 and 10");
        assert_eq!((p.lo[0], p.hi[0], p.count[0]), (7, 10, 2));
        // Owner holds 5..=6: nothing selected.
        phi[0] = 6;
        assert!(align(1, &[1], &[3], &plo, &phi).is_none());
    }

    #[test]
    fn walk_adds_a_unit_dimension_for_element_rows() {
        let mut seen = Vec::new();
        walk(&[2, 3], &[20, 2], &[3, 1], false, &mut |a, u, c, st, us| {
            seen.push((a, u, c.to_vec(), st.to_vec(), us.to_vec()));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![(0, 0, vec![2, 3, 1], vec![20, 2, 1], vec![3, 1, 1])]
        );
    }

    #[test]
    fn walk_peels_the_first_dimension_when_all_seven_are_used() {
        let count = [2, 1, 1, 1, 1, 1, 3];
        let astr = [700, 100, 50, 20, 10, 5, 2];
        let ustr = [3, 3, 3, 3, 3, 3, 1];
        let mut seen = Vec::new();
        walk(&count, &astr, &ustr, false, &mut |a, u, c, st, us| {
            seen.push((a, u, c.to_vec(), st.to_vec(), us.to_vec()));
            Ok(())
        })
        .unwrap();
        let rest_c = vec![1, 1, 1, 1, 1, 3, 1];
        let rest_a = vec![100, 50, 20, 10, 5, 2, 1];
        let rest_u = vec![3, 3, 3, 3, 3, 1, 1];
        assert_eq!(
            seen,
            vec![
                (0, 0, rest_c.clone(), rest_a.clone(), rest_u.clone()),
                (700, 3, rest_c, rest_a, rest_u)
            ]
        );
    }

    #[test]
    fn next_steps_row_major() {
        let mut idx = [0usize; MAX_DIM];
        let mut n = 1;
        while next(&mut idx, &[2, 3]) {
            n += 1;
        }
        assert_eq!(n, 6);
    }
}
