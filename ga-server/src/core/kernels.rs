//! Element arithmetic on byte slices: accumulate for every type.
//!
//! The loops work on blocks of [`LANES`] elements read and written with
//! `from_ne_bytes`/`to_ne_bytes` (so neither side needs to be aligned), which
//! the compiler turns into vector instructions; on x86-64 CPUs with AVX2 the
//! same loops run as a copy compiled for AVX2 (see [`ptr::run_avx2`]). The
//! arithmetic is the same in every variant (a multiply, then an add; never a
//! fused multiply-add), so results do not depend on the path taken.

use super::types::ElemType;
use crate::ptr::{self, Kernel};

/// Elements per block of the vectorised loops.
const LANES: usize = 8;

fn rd<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

/// `Err` for element types accumulate does not support.
pub fn check_acc(ty: ElemType) -> Result<(), String> {
    match ty {
        ElemType::LongDouble | ElemType::LDComplex => {
            Err(format!("accumulate is not supported on {ty:?} arrays"))
        }
        ElemType::User { code, .. } => Err(format!(
            "accumulate is not defined on arrays of registered type {code}"
        )),
        _ => Ok(()),
    }
}

/// `dst += alpha·src` element-wise; `alpha` holds one element of `ty`.
/// `Err` for types GA cannot accumulate here.
pub fn acc(ty: ElemType, dst: &mut [u8], src: &[u8], alpha: &[u8]) -> Result<(), String> {
    acc_with(ty, dst, src, alpha, true)
}

/// [`acc`], choosing whether the AVX2 copy may be used (tests compare both).
fn acc_with(
    ty: ElemType,
    dst: &mut [u8],
    src: &[u8],
    alpha: &[u8],
    simd: bool,
) -> Result<(), String> {
    check_acc(ty)?;
    let es = ty.size();
    if alpha.len() < es {
        return Err(format!("alpha holds {} bytes, {es} needed", alpha.len()));
    }
    let n = dst.len().min(src.len()) / es * es;
    let k = Acc {
        ty,
        dst: &mut dst[..n],
        src: &src[..n],
        alpha,
    };
    if simd {
        ptr::run_avx2(k);
    } else {
        k.run();
    }
    Ok(())
}

/// One accumulate call, as a [`Kernel`] so it can run as the AVX2 copy.
struct Acc<'a> {
    ty: ElemType,
    dst: &'a mut [u8],
    src: &'a [u8],
    alpha: &'a [u8],
}

/// One block of LANES elements of type $t ($n bytes each) from the
/// destination and the source chunks, as two arrays.
macro_rules! lanes {
    ($t:ty, $n:expr, $db:expr, $sb:expr) => {{
        let mut x = [<$t>::default(); LANES];
        let mut y = [<$t>::default(); LANES];
        for i in 0..LANES {
            x[i] = <$t>::from_ne_bytes(rd::<$n>(&$db[$n * i..]));
            y[i] = <$t>::from_ne_bytes(rd::<$n>(&$sb[$n * i..]));
        }
        (x, y)
    }};
}

/// `x + a·y` on blocks of `LANES` elements, then on the rest one by one.
macro_rules! axpy {
    ($name:ident, $t:ty, $op:expr) => {
        #[inline(always)]
        fn $name(dst: &mut [u8], src: &[u8], a: $t) {
            const N: usize = std::mem::size_of::<$t>();
            let f: fn($t, $t, $t) -> $t = $op;
            let mut d = dst.chunks_exact_mut(N * LANES);
            let mut s = src.chunks_exact(N * LANES);
            for (db, sb) in (&mut d).zip(&mut s) {
                let (mut x, y) = lanes!($t, N, db, sb);
                for i in 0..LANES {
                    x[i] = f(x[i], a, y[i]);
                }
                for i in 0..LANES {
                    db[N * i..N * i + N].copy_from_slice(&x[i].to_ne_bytes());
                }
            }
            let (dr, sr) = (d.into_remainder(), s.remainder());
            for (de, se) in dr.chunks_exact_mut(N).zip(sr.chunks_exact(N)) {
                let x = <$t>::from_ne_bytes(rd::<N>(de));
                let y = <$t>::from_ne_bytes(rd::<N>(se));
                de.copy_from_slice(&f(x, a, y).to_ne_bytes());
            }
        }
    };
}

axpy!(axpy_f64, f64, |x, a, y| x + a * y);
axpy!(add_f64, f64, |x, _a, y| x + y);
axpy!(axpy_f32, f32, |x, a, y| x + a * y);
axpy!(add_f32, f32, |x, _a, y| x + y);
axpy!(axpy_i32, i32, |x, a, y| x.wrapping_add(a.wrapping_mul(y)));
axpy!(axpy_i64, i64, |x, a, y| x.wrapping_add(a.wrapping_mul(y)));

/// Complex `x + a·y` with `a = ar + i·ai`: blocks of `LANES / 2` numbers.
macro_rules! caxpy {
    ($name:ident, $t:ty) => {
        #[inline(always)]
        fn $name(dst: &mut [u8], src: &[u8], ar: $t, ai: $t) {
            const N: usize = std::mem::size_of::<$t>();
            const C: usize = LANES / 2;
            let mut d = dst.chunks_exact_mut(2 * N * C);
            let mut s = src.chunks_exact(2 * N * C);
            for (db, sb) in (&mut d).zip(&mut s) {
                let (mut x, y) = lanes!($t, N, db, sb);
                for j in 0..C {
                    let (xr, xi, yr, yi) = (x[2 * j], x[2 * j + 1], y[2 * j], y[2 * j + 1]);
                    x[2 * j] = xr + ar * yr - ai * yi;
                    x[2 * j + 1] = xi + ar * yi + ai * yr;
                }
                for i in 0..LANES {
                    db[N * i..N * i + N].copy_from_slice(&x[i].to_ne_bytes());
                }
            }
            let (dr, sr) = (d.into_remainder(), s.remainder());
            for (de, se) in dr.chunks_exact_mut(2 * N).zip(sr.chunks_exact(2 * N)) {
                let xr = <$t>::from_ne_bytes(rd::<N>(de));
                let xi = <$t>::from_ne_bytes(rd::<N>(&de[N..]));
                let yr = <$t>::from_ne_bytes(rd::<N>(se));
                let yi = <$t>::from_ne_bytes(rd::<N>(&se[N..]));
                let r = xr + ar * yr - ai * yi;
                let i = xi + ar * yi + ai * yr;
                de[..N].copy_from_slice(&r.to_ne_bytes());
                de[N..].copy_from_slice(&i.to_ne_bytes());
            }
        }
    };
}

caxpy!(caxpy_f32, f32);
caxpy!(caxpy_f64, f64);

impl Kernel for Acc<'_> {
    #[inline(always)]
    fn run(self) {
        let Acc {
            ty,
            dst,
            src,
            alpha,
        } = self;
        match ty {
            ElemType::Int => axpy_i32(dst, src, i32::from_ne_bytes(rd::<4>(alpha))),
            ElemType::Long | ElemType::LongLong => {
                axpy_i64(dst, src, i64::from_ne_bytes(rd::<8>(alpha)))
            }
            // x + 1·y is exactly x + y: with alpha 1 skip the multiply.
            ElemType::Float => {
                let a = f32::from_ne_bytes(rd::<4>(alpha));
                (if a == 1.0 { add_f32 } else { axpy_f32 })(dst, src, a)
            }
            ElemType::Double => {
                let a = f64::from_ne_bytes(rd::<8>(alpha));
                (if a == 1.0 { add_f64 } else { axpy_f64 })(dst, src, a)
            }
            ElemType::SComplex => caxpy_f32(
                dst,
                src,
                f32::from_ne_bytes(rd::<4>(alpha)),
                f32::from_ne_bytes(rd::<4>(&alpha[4..])),
            ),
            ElemType::DComplex => caxpy_f64(
                dst,
                src,
                f64::from_ne_bytes(rd::<8>(alpha)),
                f64::from_ne_bytes(rd::<8>(&alpha[8..])),
            ),
            ElemType::Char => {
                let a = alpha[0] as i8;
                for (d, s) in dst.iter_mut().zip(src.iter()) {
                    *d = (*d as i8).wrapping_add(a.wrapping_mul(*s as i8)) as u8;
                }
            }
            // Rejected by `check_acc`.
            ElemType::LongDouble | ElemType::LDComplex | ElemType::User { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acc_doubles_and_complex() {
        let mut d: Vec<u8> = [1.0f64, 2.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
        let s: Vec<u8> = [10.0f64, 20.0]
            .iter()
            .flat_map(|x| x.to_ne_bytes())
            .collect();
        acc(ElemType::Double, &mut d, &s, &2.0f64.to_ne_bytes()).unwrap();
        assert_eq!(f64::from_ne_bytes(d[8..16].try_into().unwrap()), 42.0);
        // (1+2i) += (0+1i)·(3+4i) = 1+2i + (-4+3i) = -3+5i
        let mut d: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
        let s: Vec<u8> = [3.0f32, 4.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
        let a: Vec<u8> = [0.0f32, 1.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
        acc(ElemType::SComplex, &mut d, &s, &a).unwrap();
        assert_eq!(f32::from_ne_bytes(d[0..4].try_into().unwrap()), -3.0);
        assert_eq!(f32::from_ne_bytes(d[4..8].try_into().unwrap()), 5.0);
        assert!(acc(ElemType::LongDouble, &mut [0; 16], &[0; 16], &[0; 16]).is_err());
    }

    /// A small deterministic generator of test bytes (xorshift).
    fn noise(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    /// Values that keep floating-point sums finite (random bytes would
    /// give NaNs and infinities, whose bits the comparison would also
    /// check, but which hide rounding differences).
    fn values(ty: ElemType, seed: u64, n: usize) -> Vec<u8> {
        let raw = noise(seed, n * 8);
        let f = |i: usize| {
            let b: [u8; 8] = raw[8 * i..8 * i + 8].try_into().unwrap();
            (u64::from_ne_bytes(b) % 2_000_001) as f64 / 1000.0 - 1000.0 + 1.0 / 3.0
        };
        match ty {
            ElemType::Double | ElemType::DComplex => {
                (0..n).flat_map(|i| f(i).to_ne_bytes()).collect()
            }
            ElemType::Float | ElemType::SComplex => {
                (0..n).flat_map(|i| (f(i) as f32).to_ne_bytes()).collect()
            }
            _ => raw[..n * ty.size()].to_vec(),
        }
    }

    /// The plain one-element-at-a-time definition of accumulate.
    fn reference(ty: ElemType, dst: &mut [u8], src: &[u8], alpha: &[u8]) {
        let es = ty.size();
        for (d, s) in dst.chunks_exact_mut(es).zip(src.chunks_exact(es)) {
            // `d = f(d, alpha, s)` on one real element of type $t.
            macro_rules! real {
                ($t:ty, |$x:ident, $a:ident, $y:ident| $e:expr) => {{
                    let ($x, $y, $a) = (
                        <$t>::from_ne_bytes(rd(d)),
                        <$t>::from_ne_bytes(rd(s)),
                        <$t>::from_ne_bytes(rd(alpha)),
                    );
                    d.copy_from_slice(&($e).to_ne_bytes());
                }};
            }
            // `d += alpha·s` on one complex element of parts of type $t,
            // $w bytes each.
            macro_rules! complex {
                ($t:ty, $w:literal) => {{
                    let g = |b: &[u8], i: usize| <$t>::from_ne_bytes(rd(&b[$w * i..]));
                    let (xr, xi, yr, yi, ar, ai) =
                        (g(d, 0), g(d, 1), g(s, 0), g(s, 1), g(alpha, 0), g(alpha, 1));
                    let r = xr + ar * yr - ai * yi;
                    let i = xi + ar * yi + ai * yr;
                    d[..$w].copy_from_slice(&r.to_ne_bytes());
                    d[$w..].copy_from_slice(&i.to_ne_bytes());
                }};
            }
            match ty {
                ElemType::Int => real!(i32, |x, a, y| x.wrapping_add(a.wrapping_mul(y))),
                ElemType::Long | ElemType::LongLong => {
                    real!(i64, |x, a, y| x.wrapping_add(a.wrapping_mul(y)))
                }
                ElemType::Float => real!(f32, |x, a, y| x + a * y),
                ElemType::Double => real!(f64, |x, a, y| x + a * y),
                ElemType::SComplex => complex!(f32, 4),
                ElemType::DComplex => complex!(f64, 8),
                ElemType::Char => {
                    d[0] =
                        (d[0] as i8).wrapping_add((alpha[0] as i8).wrapping_mul(s[0] as i8)) as u8
                }
                ElemType::LongDouble | ElemType::LDComplex | ElemType::User { .. } => {
                    unreachable!()
                }
            }
        }
    }

    #[test]
    fn vector_loops_equal_the_element_by_element_result() {
        let types = [
            ElemType::Int,
            ElemType::Long,
            ElemType::LongLong,
            ElemType::Float,
            ElemType::Double,
            ElemType::SComplex,
            ElemType::DComplex,
            ElemType::Char,
        ];
        for (t, &ty) in types.iter().enumerate() {
            let es = ty.size();
            let one: Vec<u8> = match ty {
                ElemType::Float | ElemType::SComplex => {
                    let mut v = 1.0f32.to_ne_bytes().to_vec();
                    v.resize(es, 0);
                    v
                }
                ElemType::Double | ElemType::DComplex => {
                    let mut v = 1.0f64.to_ne_bytes().to_vec();
                    v.resize(es, 0);
                    v
                }
                _ => {
                    let mut v = vec![0u8; es];
                    v[0] = 1;
                    v
                }
            };
            let mut alpha = values(ty, 99 + t as u64, 2);
            alpha.truncate(es);
            let alphas = [alpha, one];
            for n in [0usize, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1001] {
                for alpha in &alphas {
                    // Odd offsets make both buffers unaligned for the type.
                    for (doff, soff) in [(0, 0), (1, 3), (5, 0), (0, 7)] {
                        let base = values(ty, 7 + n as u64, 2 * n + 2);
                        let src_all = values(ty, 1234 + n as u64, 2 * n + 2);
                        let mut buf = vec![0u8; doff + n * es];
                        buf[doff..].copy_from_slice(&base[..n * es]);
                        let mut sbuf = vec![0u8; soff + n * es];
                        sbuf[soff..].copy_from_slice(&src_all[..n * es]);
                        let mut want = base[..n * es].to_vec();
                        reference(ty, &mut want, &sbuf[soff..], alpha);
                        for simd in [false, true] {
                            let mut got = buf.clone();
                            acc_with(ty, &mut got[doff..], &sbuf[soff..], alpha, simd).unwrap();
                            assert_eq!(
                                &got[doff..],
                                &want[..],
                                "{ty:?}, {n} elements, offsets {doff}/{soff}, simd {simd}"
                            );
                        }
                    }
                }
            }
        }
    }
}
