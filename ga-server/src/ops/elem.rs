//! Element arithmetic for the array operations: one trait over the numeric
//! element types, with conversions from and to the native bytes the core
//! moves.

use crate::core::{ElemType, GaError, GaResult};

/// A single-precision complex number (two floats, as C lays it out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct C32 {
    pub re: f32,
    pub im: f32,
}

/// A double-precision complex number (two doubles, as C lays it out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct C64 {
    pub re: f64,
    pub im: f64,
}

/// An element type the arithmetic operations support.
pub trait Num: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    /// Size in bytes.
    const SIZE: usize;
    /// Reads one value from its native bytes (`b.len() == SIZE`).
    fn load(b: &[u8]) -> Self;
    /// Writes one value's native bytes (`b.len() == SIZE`).
    fn store(self, b: &mut [u8]);
    /// Sum.
    fn add(self, o: Self) -> Self;
    /// Product.
    fn mul(self, o: Self) -> Self;
    /// The value times a real number (integers round toward zero).
    fn times_real(self, r: f64) -> Self;
    /// Real and imaginary parts as doubles (for reductions and printing).
    fn parts(self) -> (f64, f64);
    /// The value of real and imaginary parts (the inverse of `parts`).
    fn from_parts(re: f64, im: f64) -> Self;
    /// Whether the type is an integer type (sums are reduced exactly).
    const INTEGER: bool = false;
    /// The value as an integer (exact for the integer types).
    fn to_i64(self) -> i64 {
        self.parts().0 as i64
    }
    /// The value of an integer (exact for the integer types).
    fn from_i64(v: i64) -> Self {
        Self::from_parts(v as f64, 0.0)
    }
}

macro_rules! real_num {
    ($t:ty, $n:expr, $int:expr) => {
        impl Num for $t {
            const SIZE: usize = $n;
            const INTEGER: bool = $int;
            fn load(b: &[u8]) -> Self {
                let mut a = [0u8; $n];
                a.copy_from_slice(&b[..$n]);
                <$t>::from_ne_bytes(a)
            }
            fn store(self, b: &mut [u8]) {
                b[..$n].copy_from_slice(&self.to_ne_bytes());
            }
            fn add(self, o: Self) -> Self {
                // Integer arrays wrap as C arithmetic does.
                self.wrapping_add_(o)
            }
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul_(o)
            }
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn times_real(self, r: f64) -> Self {
                (self as f64 * r) as $t
            }
            fn parts(self) -> (f64, f64) {
                (self as f64, 0.0)
            }
            fn from_parts(re: f64, _im: f64) -> Self {
                re as $t
            }
        }
    };
}

/// Wrapping arithmetic for integers, plain arithmetic for floats, so the
/// macro above has one spelling for both.
trait Wrap: Sized {
    fn wrapping_add_(self, o: Self) -> Self;
    fn wrapping_mul_(self, o: Self) -> Self;
}

macro_rules! wrap_int {
    ($($t:ty),*) => {$(
        impl Wrap for $t {
            fn wrapping_add_(self, o: Self) -> Self { self.wrapping_add(o) }
            fn wrapping_mul_(self, o: Self) -> Self { self.wrapping_mul(o) }
        }
    )*};
}
macro_rules! wrap_float {
    ($($t:ty),*) => {$(
        impl Wrap for $t {
            fn wrapping_add_(self, o: Self) -> Self { self + o }
            fn wrapping_mul_(self, o: Self) -> Self { self * o }
        }
    )*};
}
wrap_int!(i32, i64);
wrap_float!(f32, f64);

real_num!(i32, 4, true);
real_num!(i64, 8, true);
real_num!(f32, 4, false);
real_num!(f64, 8, false);

impl Num for C32 {
    const SIZE: usize = 8;
    fn load(b: &[u8]) -> Self {
        C32 {
            re: f32::load(&b[0..4]),
            im: f32::load(&b[4..8]),
        }
    }
    fn store(self, b: &mut [u8]) {
        self.re.store(&mut b[0..4]);
        self.im.store(&mut b[4..8]);
    }
    fn add(self, o: Self) -> Self {
        C32 {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
    fn mul(self, o: Self) -> Self {
        C32 {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
    fn times_real(self, r: f64) -> Self {
        C32 {
            re: (self.re as f64 * r) as f32,
            im: (self.im as f64 * r) as f32,
        }
    }
    fn parts(self) -> (f64, f64) {
        (self.re as f64, self.im as f64)
    }
    fn from_parts(re: f64, im: f64) -> Self {
        C32 {
            re: re as f32,
            im: im as f32,
        }
    }
}

impl Num for C64 {
    const SIZE: usize = 16;
    fn load(b: &[u8]) -> Self {
        C64 {
            re: f64::load(&b[0..8]),
            im: f64::load(&b[8..16]),
        }
    }
    fn store(self, b: &mut [u8]) {
        self.re.store(&mut b[0..8]);
        self.im.store(&mut b[8..16]);
    }
    fn add(self, o: Self) -> Self {
        C64 {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
    fn mul(self, o: Self) -> Self {
        C64 {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
    fn times_real(self, r: f64) -> Self {
        C64 {
            re: self.re * r,
            im: self.im * r,
        }
    }
    fn parts(self) -> (f64, f64) {
        (self.re, self.im)
    }
    fn from_parts(re: f64, im: f64) -> Self {
        C64 { re, im }
    }
}

/// Values of the native bytes `b` (whole elements only).
pub fn decode<T: Num>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::load).collect()
}

/// Native bytes of `v`.
pub fn encode<T: Num>(v: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; v.len() * T::SIZE];
    for (x, b) in v.iter().zip(out.chunks_exact_mut(T::SIZE)) {
        x.store(b);
    }
    out
}

/// One value of the scalar argument `b` (GA passes scalars as `void *` of
/// the array's type).
pub fn scalar<T: Num>(call: &'static str, what: &str, b: &[u8]) -> GaResult<T> {
    if b.len() < T::SIZE {
        return Err(GaError::new(call, format!("{what} is missing (NULL)")));
    }
    Ok(T::load(b))
}

/// The name GA gives a type in its messages and `GA_Print_distribution`.
pub fn type_name(t: ElemType) -> &'static str {
    match t {
        ElemType::Char => "char",
        ElemType::Int => "integer",
        ElemType::Long => "long",
        ElemType::LongLong => "long long",
        ElemType::Float => "float",
        ElemType::Double => "double",
        ElemType::LongDouble => "long double",
        ElemType::SComplex => "float (single) complex",
        ElemType::DComplex => "double complex",
        ElemType::LDComplex => "long double complex",
        ElemType::User { .. } => "registered (NGA_Register_type)",
    }
}

/// The error for an operation on a type it does not support.
pub fn unsupported(call: &'static str, t: ElemType) -> GaError {
    GaError::new(
        call,
        format!("not defined for arrays of type {}", type_name(t)),
    )
}

/// Runs `$body` with `$t` bound to the Rust type of element type `$ty`;
/// an error for the types without arithmetic (char, long double).
macro_rules! with_num {
    ($ty:expr, $call:expr, |$t:ident| $body:expr) => {{
        use $crate::core::ElemType as Et;
        match $ty {
            Et::Int => {
                type $t = i32;
                $body
            }
            Et::Long | Et::LongLong => {
                type $t = i64;
                $body
            }
            Et::Float => {
                type $t = f32;
                $body
            }
            Et::Double => {
                type $t = f64;
                $body
            }
            Et::SComplex => {
                type $t = $crate::ops::elem::C32;
                $body
            }
            Et::DComplex => {
                type $t = $crate::ops::elem::C64;
                $body
            }
            other => Err($crate::ops::elem::unsupported($call, other)),
        }
    }};
}
pub(crate) use with_num;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_arithmetic() {
        let v = vec![1.5f64, -2.0, 3.25];
        assert_eq!(decode::<f64>(&encode(&v)), v);
        let z = C64 { re: 1.0, im: 2.0 };
        assert_eq!(z.mul(z), C64 { re: -3.0, im: 4.0 });
        assert_eq!(decode::<C64>(&encode(&[z])), vec![z]);
        assert_eq!(i32::MAX.add(1), i32::MIN);
        assert_eq!(7i64.times_real(0.5), 3);
    }
}
