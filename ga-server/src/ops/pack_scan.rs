//! Pack, unpack, the segmented scans, enumeration and element selection of
//! the GA APIs (`GA_Pack`, `GA_Unpack`, `GA_Scan_add`, `GA_Scan_copy`,
//! `GA_Patch_enum`, `NGA_Select_elem`), in the C API's index convention.
//!
//! The first five work on a range `lo..=hi` of 1-D arrays. The range is cut
//! where the blocks of the bit (mask) array end; the owner of each piece
//! does that piece's work, after one exchange of a short record per piece
//! (how many bits it has, or the sum or value it hands on), so the data
//! never travels beyond what the result needs. All are collective over the
//! group the arrays live on and synchronise before and after, as GA does.
//!
//! What GA 5.8 does, and these calls do too:
//! - a scan leaves the elements of `g_b` before the range's first set bit
//!   untouched (`GA_Scan_add`) or sets them to zero (`GA_Scan_copy`);
//! - the exclusive scan gives 0 at each set bit and, after it, the sum of
//!   the elements from the bit up to the one before;
//! - `GA_Pack` writes the selected elements to the start of `g_dest`
//!   (index 0 however far `lo` is in), and `GA_Unpack` reads them from
//!   there; both give the number of set bits;
//! - a bit is set when its element is not zero.
//!
//! `NGA_Select_elem` gives the largest or smallest element of an array of
//! any dimension and its subscript. Where several elements share that
//! value, the first in row-major order is given (GA 5.8 gives one that
//! depends on how the array is spread over the processes). Complex values
//! are ordered by their magnitude.

use super::elem::{decode, encode, scalar, with_num, Num};
use super::elementwise::Arith;
use super::patch::{for_each_index, get_rect, inquire, name, own_parts, put_rect, relabel, shape};
use crate::core::{self, ElemType, GaError, GaResult, Handle};

/// Words of a record that carry one element (16 bytes: a double complex).
const VALUE_WORDS: usize = 2;

fn sync(call: &'static str, g: Handle) -> GaResult<()> {
    core::sync_array(g).map_err(|e| relabel(call, e))
}

/// Type and length of the 1-D array `g`, with `lo..=hi` inside it.
fn vector(call: &'static str, g: Handle, what: &str, lo: i64, hi: i64) -> GaResult<ElemType> {
    let (ty, dims) = inquire(call, g)?;
    if dims.len() != 1 {
        return Err(GaError::new(
            call,
            format!(
                "{what} '{}' has {} dimensions; this call needs 1-D arrays",
                name(g),
                dims.len()
            ),
        ));
    }
    if lo < 0 || lo > hi || hi >= dims[0] {
        return Err(GaError::new(
            call,
            format!(
                "range [{lo}:{hi}] outside {what} '{}' [0:{}] (or lo > hi)",
                name(g),
                dims[0] - 1
            ),
        ));
    }
    Ok(ty)
}

/// Requires two arrays to hold one type.
fn same_type(call: &'static str, a: Handle, ta: ElemType, b: Handle, tb: ElemType) -> GaResult<()> {
    if ta == tb {
        Ok(())
    } else {
        Err(GaError::new(
            call,
            format!("arrays '{}' and '{}' differ in type", name(a), name(b)),
        ))
    }
}

/// Length of the 1-D array `g`.
fn length(call: &'static str, g: Handle) -> GaResult<i64> {
    Ok(inquire(call, g)?.1[0])
}

/// One piece of the range: its bounds and whether this process holds it.
#[derive(Clone, Copy, Debug)]
struct Piece {
    lo: i64,
    hi: i64,
    mine: bool,
}

/// The pieces of `lo..=hi` of the 1-D array `g`, in index order.
fn pieces(call: &'static str, g: Handle, lo: i64, hi: i64) -> GaResult<Vec<Piece>> {
    let mine: Vec<i64> = own_parts(call, g, &[lo], &[hi])?
        .into_iter()
        .map(|(l, _)| l[0])
        .collect();
    let mut v: Vec<Piece> = core::locate_region(g, &[lo], &[hi])
        .map_err(|e| relabel(call, e))?
        .into_iter()
        .map(|(_, l, h)| Piece {
            lo: l[0],
            hi: h[0],
            mine: mine.contains(&l[0]),
        })
        .collect();
    v.sort_by_key(|p| p.lo);
    Ok(v)
}

/// Every process's records, `width` words per row: each process fills the
/// rows `fill` gives for it (others stay zero), and the sum over the group
/// of `g` hands every row to every process.
fn share(
    call: &'static str,
    g: Handle,
    rows: usize,
    width: usize,
    mut fill: impl FnMut(usize) -> Option<Vec<i64>>,
) -> GaResult<Vec<Vec<i64>>> {
    let mut words = vec![0i64; rows * width];
    for r in 0..rows {
        if let Some(rec) = fill(r) {
            words[r * width..][..rec.len()].copy_from_slice(&rec);
        }
    }
    core::sum_on_array(call, g, &mut words)?;
    Ok(words.chunks(width).map(<[i64]>::to_vec).collect())
}

/// A value as record words.
fn value_words<T: Num>(v: T) -> [i64; VALUE_WORDS] {
    let mut b = [0u8; 8 * VALUE_WORDS];
    v.store(&mut b[..T::SIZE]);
    let mut w = [0i64; VALUE_WORDS];
    for (x, c) in w.iter_mut().zip(b.chunks_exact(8)) {
        *x = i64::from_ne_bytes(c.try_into().unwrap_or([0; 8]));
    }
    w
}

/// The value of record words.
fn words_value<T: Num>(w: &[i64]) -> T {
    let b: Vec<u8> = w[..VALUE_WORDS]
        .iter()
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    T::load(&b[..T::SIZE])
}

/// The bits of a piece of the bit array (an element not zero is set).
fn bits(call: &'static str, g: Handle, p: &Piece) -> GaResult<Vec<bool>> {
    let (ty, _) = inquire(call, g)?;
    let raw = get_rect(call, g, ty.size(), &[p.lo], &[p.hi])?;
    Ok(raw
        .chunks_exact(ty.size())
        .map(|e| e.iter().any(|&b| b != 0))
        .collect())
}

/// Which scan [`scan`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// `GA_Scan_add`: `g_b[i]` = the sum of `g_a` from the last set bit of
    /// `g_sbit` at or before `i` up to `i` (up to the one before `i` when
    /// `exclusive`); elements before the first set bit keep their value.
    Add { exclusive: bool },
    /// `GA_Scan_copy`: `g_b[i]` = `g_a` at the last set bit at or before
    /// `i`; zero before the first set bit. Works on every type.
    Copy,
}

/// The pieces of a scan's range, and for the pieces this process holds
/// the bytes of `g_a` and the bits of `g_sbit` there.
struct Local {
    ps: Vec<Piece>,
    data: Vec<Option<(Vec<u8>, Vec<bool>)>>,
}

/// The scan `kind` of `g_a` into `g_b` over `lo..=hi` of the 1-D arrays,
/// with the segments `g_sbit` starts (collective).
pub fn scan(
    call: &'static str,
    kind: Scan,
    g_a: Handle,
    g_b: Handle,
    g_sbit: Handle,
    lo: i64,
    hi: i64,
) -> GaResult<()> {
    let ta = vector(call, g_a, "g_a", lo, hi)?;
    let tb = vector(call, g_b, "g_b", lo, hi)?;
    vector(call, g_sbit, "g_sbit", lo, hi)?;
    same_type(call, g_a, ta, g_b, tb)?;
    sync(call, g_a)?;
    let ps = pieces(call, g_sbit, lo, hi)?;
    let mut data = Vec::with_capacity(ps.len());
    for p in &ps {
        data.push(if p.mine {
            let a = get_rect(call, g_a, ta.size(), &[p.lo], &[p.hi])?;
            Some((a, bits(call, g_sbit, p)?))
        } else {
            None
        });
    }
    let l = Local { ps, data };
    match kind {
        Scan::Add { exclusive } => {
            with_num!(ta, call, |T| add_pieces::<T>(call, g_a, g_b, &l, exclusive))
        }
        Scan::Copy => copy_pieces(call, g_a, g_b, &l, ta.size()),
    }?;
    sync(call, g_a)
}

/// The work of `Scan::Add` on this process's pieces.
fn add_pieces<T: Num>(
    call: &'static str,
    g_a: Handle,
    g_b: Handle,
    l: &Local,
    exclusive: bool,
) -> GaResult<()> {
    let local: Vec<Option<(Vec<T>, &Vec<bool>)>> = l
        .data
        .iter()
        .map(|d| d.as_ref().map(|(a, b)| (decode::<T>(a), b)))
        .collect();
    // Each piece hands on: whether it has a set bit, and the sum from its
    // last set bit (or its start) to its end.
    let recs = share(call, g_a, l.ps.len(), 1 + VALUE_WORDS, |i| {
        local[i].as_ref().map(|(a, b)| {
            let from = b.iter().rposition(|&s| s).unwrap_or(0);
            let sum = a[from..].iter().fold(T::default(), |s, &x| s.add(x));
            let mut r = vec![b.iter().any(|&s| s) as i64];
            r.extend(value_words(sum));
            r
        })
    })?;
    for (i, p) in l.ps.iter().enumerate() {
        let Some((a, b)) = &local[i] else { continue };
        let start = recs[..i].iter().rposition(|r| r[0] != 0);
        let mut acc: Option<T> = start.map(|s| {
            recs[s..i]
                .iter()
                .fold(T::default(), |acc, r| acc.add(words_value::<T>(&r[1..])))
        });
        let mut out = Vec::with_capacity(a.len());
        let mut first = None;
        for k in 0..a.len() {
            let (v, next) = match (b[k], acc) {
                (true, _) => (if exclusive { T::default() } else { a[k] }, a[k]),
                (false, Some(s)) => {
                    let n = s.add(a[k]);
                    (if exclusive { s } else { n }, n)
                }
                (false, None) => continue,
            };
            acc = Some(next);
            first.get_or_insert(k);
            out.push(v);
        }
        if let Some(f) = first {
            let at = p.lo + f as i64;
            put_rect(call, g_b, &[at], &[p.hi], &encode(&out))?;
        }
    }
    Ok(())
}

/// The work of `Scan::Copy` on this process's pieces (`es`-byte elements).
fn copy_pieces(call: &'static str, g_a: Handle, g_b: Handle, l: &Local, es: usize) -> GaResult<()> {
    // Each piece hands on whether it has a set bit and the element there
    // (as whole words, for any element size).
    let words = es.div_ceil(8);
    let recs = share(call, g_a, l.ps.len(), 1 + words, |i| {
        l.data[i]
            .as_ref()
            .map(|(a, b)| match b.iter().rposition(|&s| s) {
                Some(k) => {
                    let mut bytes = a[k * es..(k + 1) * es].to_vec();
                    bytes.resize(words * 8, 0);
                    let mut r = vec![1];
                    r.extend(
                        bytes
                            .chunks_exact(8)
                            .map(|c| i64::from_ne_bytes(c.try_into().unwrap_or([0; 8]))),
                    );
                    r
                }
                None => vec![0],
            })
    })?;
    for (i, p) in l.ps.iter().enumerate() {
        let Some((a, b)) = &l.data[i] else { continue };
        let mut cur: Vec<u8> = match recs[..i].iter().rposition(|r| r[0] != 0) {
            Some(s) => recs[s][1..]
                .iter()
                .flat_map(|w| w.to_ne_bytes())
                .take(es)
                .collect(),
            None => vec![0; es],
        };
        let mut out = Vec::with_capacity(a.len());
        for k in 0..b.len() {
            if b[k] {
                cur.copy_from_slice(&a[k * es..(k + 1) * es]);
            }
            out.extend_from_slice(&cur);
        }
        put_rect(call, g_b, &[p.lo], &[p.hi], &out)?;
    }
    Ok(())
}

/// Which way [`pack`] moves the selected elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `GA_Pack`: from their places in `g_src` to the start of `g_dst`.
    Pack,
    /// `GA_Unpack`: from the start of `g_src` to their places in `g_dst`.
    Unpack,
}

/// Moves the elements whose bit in `g_mask` (within `lo..=hi`) is set,
/// in order: for [`Direction::Pack`] those of `g_src` to the start of
/// `g_dst`; for [`Direction::Unpack`] the elements at the start of `g_src`
/// to those places of `g_dst` (the others keep their value). Returns how
/// many.
pub fn pack(
    call: &'static str,
    dir: Direction,
    g_src: Handle,
    g_dst: Handle,
    g_mask: Handle,
    lo: i64,
    hi: i64,
) -> GaResult<i64> {
    let (ts, _) = inquire(call, g_src)?;
    let (td, _) = inquire(call, g_dst)?;
    same_type(call, g_src, ts, g_dst, td)?;
    let (packed, spread, label) = match dir {
        Direction::Pack => (g_dst, g_src, "g_src"),
        Direction::Unpack => (g_src, g_dst, "g_dest"),
    };
    vector(call, spread, label, lo, hi)?;
    vector(call, g_mask, "g_mask", lo, hi)?;
    let room = length(call, packed)?;
    if inquire(call, packed)?.1.len() != 1 {
        return Err(GaError::new(
            call,
            format!("'{}' is not a 1-D array", name(packed)),
        ));
    }
    sync(call, g_src)?;
    let ps = pieces(call, g_mask, lo, hi)?;
    let mut local = Vec::with_capacity(ps.len());
    for p in &ps {
        local.push(if p.mine {
            Some(bits(call, g_mask, p)?)
        } else {
            None
        });
    }
    let set = |b: &[bool]| b.iter().filter(|&&s| s).count() as i64;
    let recs = share(call, g_src, ps.len(), 1, |i| {
        local[i].as_ref().map(|b| vec![set(b)])
    })?;
    let total: i64 = recs.iter().map(|r| r[0]).sum();
    if total > room {
        return Err(GaError::new(
            call,
            format!(
                "{total} elements are selected but '{}' holds only {room}",
                name(packed)
            ),
        ));
    }
    let es = ts.size();
    let mut before = 0;
    for (i, p) in ps.iter().enumerate() {
        let here = recs[i][0];
        let at = before;
        before += here;
        let Some(b) = &local[i] else { continue };
        if here == 0 {
            continue;
        }
        let (plo, phi) = (vec![at], vec![at + here - 1]);
        let (slo, shi) = (vec![p.lo], vec![p.hi]);
        let chosen = b
            .iter()
            .enumerate()
            .filter(|(_, &s)| s)
            .map(|(k, _)| k * es);
        match dir {
            Direction::Pack => {
                let src = get_rect(call, g_src, es, &slo, &shi)?;
                let sel: Vec<u8> = chosen.flat_map(|o| src[o..o + es].to_vec()).collect();
                put_rect(call, g_dst, &plo, &phi, &sel)?;
            }
            Direction::Unpack => {
                let src = get_rect(call, g_src, es, &plo, &phi)?;
                let mut dst = get_rect(call, g_dst, es, &slo, &shi)?;
                for (o, v) in chosen.zip(src.chunks_exact(es)) {
                    dst[o..o + es].copy_from_slice(v);
                }
                put_rect(call, g_dst, &slo, &shi, &dst)?;
            }
        }
    }
    sync(call, g_src)?;
    Ok(total)
}

/// `g[i]` = `start + (i - lo) * inc` for `i` in `lo..=hi` of the 1-D array
/// `g` (`start` and `inc` are one element of its type each).
pub fn patch_enum(
    call: &'static str,
    g: Handle,
    lo: i64,
    hi: i64,
    start: &[u8],
    inc: &[u8],
) -> GaResult<()> {
    let ty = vector(call, g, "g_a", lo, hi)?;
    sync(call, g)?;
    with_num!(ty, call, |T| {
        let s: T = scalar(call, "start", start)?;
        let d: T = scalar(call, "inc", inc)?;
        for (l, h) in own_parts(call, g, &[lo], &[hi])? {
            let vals: Vec<T> = (l[0]..=h[0])
                .map(|i| {
                    let k = i - lo;
                    if T::INTEGER {
                        T::from_i64(s.to_i64().wrapping_add(k.wrapping_mul(d.to_i64())))
                    } else {
                        s.add(d.times_real(k as f64))
                    }
                })
                .collect();
            put_rect(call, g, &l, &h, &encode(&vals))?;
        }
        Ok(())
    })?;
    sync(call, g)
}

/// Which element `NGA_Select_elem` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    Max,
    Min,
}

impl Select {
    /// The operator's text as GA takes it (`"max"`, `"min"`).
    pub fn parse(call: &'static str, op: &str) -> GaResult<Select> {
        match op.trim().to_ascii_lowercase().as_str() {
            "max" => Ok(Select::Max),
            "min" => Ok(Select::Min),
            _ => Err(GaError::new(
                call,
                format!("operator '{op}' is not \"max\" or \"min\""),
            )),
        }
    }

    /// Whether `x` is a better pick than `best`.
    fn better<T: Arith>(self, x: T, best: T) -> bool {
        match self {
            Select::Max => best.before(x),
            Select::Min => x.before(best),
        }
    }

    /// Whether `x` at subscript `at` replaces the pick so far: a better
    /// value, or an equal one earlier in row-major order.
    fn wins<T: Arith>(self, x: T, at: &[i64], pick: &Option<(T, Vec<i64>)>) -> bool {
        match pick {
            None => true,
            Some((b, bat)) => self.better(x, *b) || (!self.better(*b, x) && at < bat.as_slice()),
        }
    }
}

/// The largest or smallest element of `g` (native bytes of its type) and
/// its subscript; the first in row-major order among equals.
pub fn select_elem(call: &'static str, g: Handle, op: Select) -> GaResult<(Vec<u8>, Vec<i64>)> {
    let (ty, dims) = inquire(call, g)?;
    let n = dims.len();
    let (_, grank, nprocs) = core::array_group(g).map_err(|e| relabel(call, e))?;
    let (lo, hi): (Vec<i64>, Vec<i64>) = (vec![0; n], dims.iter().map(|d| d - 1).collect());
    sync(call, g)?;
    with_num!(ty, call, |T| {
        let mut best: Option<(T, Vec<i64>)> = None;
        for (l, h) in own_parts(call, g, &lo, &hi)? {
            let sh = shape(&l, &h);
            let vals = decode::<T>(&get_rect(call, g, T::SIZE, &l, &h)?);
            let mut k = 0;
            for_each_index(&sh, |ix| {
                let x = vals[k];
                k += 1;
                let at: Vec<i64> = ix.iter().zip(&l).map(|(i, o)| i + o).collect();
                if op.wins(x, &at, &best) {
                    best = Some((x, at));
                }
            });
        }
        let recs = share(call, g, nprocs as usize, 1 + VALUE_WORDS + n, |r| {
            (r == grank as usize).then(|| match &best {
                Some((v, at)) => {
                    let mut w = vec![1];
                    w.extend(value_words(*v));
                    w.extend(at);
                    w
                }
                None => vec![0],
            })
        })?;
        let mut pick: Option<(T, Vec<i64>)> = None;
        for r in recs.iter().filter(|r| r[0] != 0) {
            let v: T = words_value(&r[1..]);
            let at = r[1 + VALUE_WORDS..].to_vec();
            if op.wins(v, &at, &pick) {
                pick = Some((v, at));
            }
        }
        let (v, at) = pick.ok_or_else(|| GaError::new(call, "the array has no elements"))?;
        sync(call, g)?;
        Ok((encode(&[v]), at))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::elem::C64;

    #[test]
    fn values_survive_the_record_words() {
        let z = C64 { re: 1.5, im: -2.25 };
        assert_eq!(words_value::<C64>(&value_words(z)), z);
        assert_eq!(words_value::<i32>(&value_words(-7i32)), -7);
        assert_eq!(words_value::<f32>(&value_words(0.5f32)), 0.5);
    }

    #[test]
    fn operators_and_ties_pick_as_documented() {
        assert_eq!(Select::parse("t", "MAX").unwrap(), Select::Max);
        assert_eq!(Select::parse("t", " min").unwrap(), Select::Min);
        assert!(Select::parse("t", "avg").is_err());
        let pick = Some((5i64, vec![1, 2]));
        assert!(Select::Max.wins(5i64, &[0, 3], &pick));
        assert!(!Select::Max.wins(5i64, &[1, 3], &pick));
        assert!(Select::Min.wins(4i64, &[9, 9], &pick));
        assert!(!Select::Min.wins(6i64, &[0, 0], &pick));
    }
}
