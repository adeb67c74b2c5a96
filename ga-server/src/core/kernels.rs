//! Element arithmetic on byte slices: accumulate for every type.

use super::types::ElemType;

fn rd<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

/// `dst += alpha·src` element-wise; `alpha` holds one element of `ty`.
/// `Err` for types GA cannot accumulate here.
pub fn acc(ty: ElemType, dst: &mut [u8], src: &[u8], alpha: &[u8]) -> Result<(), String> {
    let es = ty.size();
    if alpha.len() < es {
        return Err(format!("alpha holds {} bytes, {es} needed", alpha.len()));
    }
    macro_rules! real {
        ($t:ty, $n:expr, $op:expr) => {{
            let a = <$t>::from_ne_bytes(rd::<$n>(alpha));
            for (d, s) in dst.chunks_exact_mut($n).zip(src.chunks_exact($n)) {
                let x = <$t>::from_ne_bytes(rd::<$n>(d));
                let y = <$t>::from_ne_bytes(rd::<$n>(s));
                let f: fn($t, $t, $t) -> $t = $op;
                d.copy_from_slice(&f(x, a, y).to_ne_bytes());
            }
        }};
    }
    macro_rules! cplx {
        ($t:ty, $n:expr) => {{
            let ar = <$t>::from_ne_bytes(rd::<$n>(alpha));
            let ai = <$t>::from_ne_bytes(rd::<$n>(&alpha[$n..]));
            for (d, s) in dst.chunks_exact_mut(2 * $n).zip(src.chunks_exact(2 * $n)) {
                let xr = <$t>::from_ne_bytes(rd::<$n>(d));
                let xi = <$t>::from_ne_bytes(rd::<$n>(&d[$n..]));
                let yr = <$t>::from_ne_bytes(rd::<$n>(s));
                let yi = <$t>::from_ne_bytes(rd::<$n>(&s[$n..]));
                let r = xr + ar * yr - ai * yi;
                let i = xi + ar * yi + ai * yr;
                d[..$n].copy_from_slice(&r.to_ne_bytes());
                d[$n..].copy_from_slice(&i.to_ne_bytes());
            }
        }};
    }
    match ty {
        ElemType::Int => real!(i32, 4, |x, a, y| x.wrapping_add(a.wrapping_mul(y))),
        ElemType::Long | ElemType::LongLong => {
            real!(i64, 8, |x, a, y| x.wrapping_add(a.wrapping_mul(y)))
        }
        ElemType::Float => real!(f32, 4, |x, a, y| x + a * y),
        ElemType::Double => real!(f64, 8, |x, a, y| x + a * y),
        ElemType::SComplex => cplx!(f32, 4),
        ElemType::DComplex => cplx!(f64, 8),
        ElemType::Char => {
            let a = alpha[0] as i8;
            for (d, s) in dst.iter_mut().zip(src.iter()) {
                *d = (*d as i8).wrapping_add(a.wrapping_mul(*s as i8)) as u8;
            }
        }
        ElemType::LongDouble | ElemType::LDComplex => {
            return Err(format!("accumulate is not supported on {ty:?} arrays"))
        }
    }
    Ok(())
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
}
