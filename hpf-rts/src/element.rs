//! The element types a distributed array may hold (INTEGER*4, INTEGER*8,
//! REAL*4, REAL*8, COMPLEX*8, COMPLEX*16, LOGICAL) and the arithmetic the
//! intrinsics need of them.
//!
//! Integer arithmetic wraps on overflow (Fortran leaves overflow undefined;
//! wrapping keeps every process's result the same instead of aborting).
//! Complex numbers are a pair (real, imaginary) of REAL*4 or REAL*8, laid
//! out as Fortran and C99 `_Complex` lay them out. LOGICAL is a default
//! INTEGER, non-zero true (`.TRUE.` is stored as 1); its "sum" is .OR. and
//! its "product" .AND., which makes DOT_PRODUCT `ANY(A .AND. B)` and MATMUL
//! the logical matrix product, as Fortran defines them. Types without an
//! order (complex, logical) are refused by MAXVAL, MINVAL, MAXLOC and
//! MINLOC; LOGICAL is refused by SUM and PRODUCT.

use std::fmt::Debug;

/// Type codes, as the C API numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemKind {
    /// INTEGER*4 (`HPF_INTEGER4` = 1).
    Integer4 = 1,
    /// INTEGER*8 (`HPF_INTEGER8` = 2).
    Integer8 = 2,
    /// REAL*4 (`HPF_REAL4` = 3).
    Real4 = 3,
    /// REAL*8 (`HPF_REAL8` = 4).
    Real8 = 4,
    /// COMPLEX*8 (`HPF_COMPLEX8` = 5).
    Complex8 = 5,
    /// COMPLEX*16 (`HPF_COMPLEX16` = 6).
    Complex16 = 6,
    /// LOGICAL (`HPF_LOGICAL` = 7), a default INTEGER.
    Logical = 7,
}

impl ElemKind {
    /// The kind of C type code `code`.
    pub fn from_code(code: i32) -> Option<ElemKind> {
        match code {
            1 => Some(ElemKind::Integer4),
            2 => Some(ElemKind::Integer8),
            3 => Some(ElemKind::Real4),
            4 => Some(ElemKind::Real8),
            5 => Some(ElemKind::Complex8),
            6 => Some(ElemKind::Complex16),
            7 => Some(ElemKind::Logical),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemKind::Integer4 | ElemKind::Real4 | ElemKind::Logical => 4,
            ElemKind::Integer8 | ElemKind::Real8 | ElemKind::Complex8 => 8,
            ElemKind::Complex16 => 16,
        }
    }

    /// The Fortran name of the type (for messages).
    pub fn name(self) -> &'static str {
        match self {
            ElemKind::Integer4 => "INTEGER*4",
            ElemKind::Integer8 => "INTEGER*8",
            ElemKind::Real4 => "REAL*4",
            ElemKind::Real8 => "REAL*8",
            ElemKind::Complex8 => "COMPLEX*8",
            ElemKind::Complex16 => "COMPLEX*16",
            ElemKind::Logical => "LOGICAL",
        }
    }
}

/// COMPLEX*8: single-precision real and imaginary parts.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Complex8 {
    /// Real part.
    pub re: f32,
    /// Imaginary part.
    pub im: f32,
}

/// COMPLEX*16: double-precision real and imaginary parts.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Complex16 {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

/// LOGICAL: a default INTEGER, non-zero true.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd)]
pub struct Logical(pub i32);

impl Logical {
    /// `.TRUE.` (1) or `.FALSE.` (0).
    pub fn of(b: bool) -> Logical {
        Logical(i32::from(b))
    }

    /// The truth value.
    pub fn is_true(self) -> bool {
        self.0 != 0
    }
}

/// An element type of a distributed array.
pub trait Element: Copy + Default + PartialOrd + Debug + Send + Sync + 'static {
    /// The type's code.
    const KIND: ElemKind;
    /// Whether values are ordered (MAXVAL, MINVAL, MAXLOC, MINLOC take
    /// the type); the `PartialOrd` of an unordered type is never used.
    const ORDERED: bool = true;
    /// Whether the type is numeric (SUM and PRODUCT take it).
    const NUMERIC: bool = true;
    /// Additive identity (SUM of an empty array).
    fn zero() -> Self;
    /// Multiplicative identity (PRODUCT of an empty array).
    fn one() -> Self;
    /// `-HUGE(x)`: MAXVAL of an empty array.
    fn neg_huge() -> Self;
    /// `HUGE(x)`: MINVAL of an empty array.
    fn huge() -> Self;
    /// `self + other`.
    fn plus(self, other: Self) -> Self;
    /// `self * other`.
    fn times(self, other: Self) -> Self;
    /// The complex conjugate (the value itself for other types);
    /// DOT_PRODUCT conjugates its first argument.
    fn conj(self) -> Self {
        self
    }
    /// Appends the native-order bytes of `self`.
    fn put(self, out: &mut Vec<u8>);
    /// Reads one element from the first bytes of `b`.
    fn get(b: &[u8]) -> Self;
    /// The native-order bytes of `s` (no copy).
    fn as_bytes(s: &[Self]) -> &[u8];
    /// The bytes of `s`, writable (no copy).
    fn as_bytes_mut(s: &mut [Self]) -> &mut [u8];
}

/// The byte methods of [`Element`] for a primitive number type `$t`, in
/// its native byte order.
macro_rules! native_bytes {
    ($t:ty) => {
        fn put(self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.to_ne_bytes());
        }
        fn get(b: &[u8]) -> Self {
            let mut a = [0u8; std::mem::size_of::<$t>()];
            a.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
            <$t>::from_ne_bytes(a)
        }
        fn as_bytes(s: &[Self]) -> &[u8] {
            crate::ptr::bytes(s)
        }
        fn as_bytes_mut(s: &mut [Self]) -> &mut [u8] {
            crate::ptr::bytes_mut(s)
        }
    };
}

macro_rules! integer {
    ($t:ty, $kind:expr) => {
        impl Element for $t {
            const KIND: ElemKind = $kind;
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            fn neg_huge() -> Self {
                -<$t>::MAX
            }
            fn huge() -> Self {
                <$t>::MAX
            }
            fn plus(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn times(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            native_bytes!($t);
        }
    };
}

macro_rules! real {
    ($t:ty, $kind:expr) => {
        impl Element for $t {
            const KIND: ElemKind = $kind;
            fn zero() -> Self {
                0.0
            }
            fn one() -> Self {
                1.0
            }
            fn neg_huge() -> Self {
                -<$t>::MAX
            }
            fn huge() -> Self {
                <$t>::MAX
            }
            fn plus(self, other: Self) -> Self {
                self + other
            }
            fn times(self, other: Self) -> Self {
                self * other
            }
            native_bytes!($t);
        }
    };
}

integer!(i32, ElemKind::Integer4);
integer!(i64, ElemKind::Integer8);
real!(f32, ElemKind::Real4);
real!(f64, ElemKind::Real8);

macro_rules! complex {
    ($t:ty, $r:ty, $kind:expr) => {
        impl Element for $t {
            const KIND: ElemKind = $kind;
            const ORDERED: bool = false;
            fn zero() -> Self {
                <$t>::default()
            }
            fn one() -> Self {
                Self { re: 1.0, im: 0.0 }
            }
            // Never used: complex numbers have no order.
            fn neg_huge() -> Self {
                Self {
                    re: -<$r>::MAX,
                    im: 0.0,
                }
            }
            fn huge() -> Self {
                Self {
                    re: <$r>::MAX,
                    im: 0.0,
                }
            }
            fn plus(self, o: Self) -> Self {
                Self {
                    re: self.re + o.re,
                    im: self.im + o.im,
                }
            }
            fn times(self, o: Self) -> Self {
                Self {
                    re: self.re * o.re - self.im * o.im,
                    im: self.re * o.im + self.im * o.re,
                }
            }
            fn conj(self) -> Self {
                Self {
                    re: self.re,
                    im: -self.im,
                }
            }
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.re.to_ne_bytes());
                out.extend_from_slice(&self.im.to_ne_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let h = std::mem::size_of::<$r>();
                Self {
                    re: <$r>::get(&b[..h]),
                    im: <$r>::get(&b[h..2 * h]),
                }
            }
            fn as_bytes(s: &[Self]) -> &[u8] {
                crate::ptr::bytes(s)
            }
            fn as_bytes_mut(s: &mut [Self]) -> &mut [u8] {
                crate::ptr::bytes_mut(s)
            }
        }
    };
}

complex!(Complex8, f32, ElemKind::Complex8);
complex!(Complex16, f64, ElemKind::Complex16);

impl Element for Logical {
    const KIND: ElemKind = ElemKind::Logical;
    const ORDERED: bool = false;
    const NUMERIC: bool = false;
    fn zero() -> Self {
        Logical(0)
    }
    fn one() -> Self {
        Logical(1)
    }
    // Never used: LOGICAL has no order.
    fn neg_huge() -> Self {
        Logical(0)
    }
    fn huge() -> Self {
        Logical(1)
    }
    /// .OR.
    fn plus(self, o: Self) -> Self {
        Logical::of(self.is_true() || o.is_true())
    }
    /// .AND.
    fn times(self, o: Self) -> Self {
        Logical::of(self.is_true() && o.is_true())
    }
    fn put(self, out: &mut Vec<u8>) {
        self.0.put(out)
    }
    fn get(b: &[u8]) -> Self {
        Logical(i32::get(b))
    }
    fn as_bytes(s: &[Self]) -> &[u8] {
        crate::ptr::bytes(s)
    }
    fn as_bytes_mut(s: &mut [Self]) -> &mut [u8] {
        crate::ptr::bytes_mut(s)
    }
}

/// Refuses an intrinsic that needs an order (MAXVAL, MINVAL, MAXLOC,
/// MINLOC) on a type without one.
pub(crate) fn require_ordered<T: Element>(call: &str) -> crate::error::HpfResult<()> {
    require::<T>(call, T::ORDERED, "values have no order")
}

/// Refuses SUM or PRODUCT on a non-numeric type.
pub(crate) fn require_numeric<T: Element>(call: &str) -> crate::error::HpfResult<()> {
    require::<T>(call, T::NUMERIC, "is not a numeric type")
}

/// `HPF_EBADARG` for `call` unless `holds`, the message the type's name
/// followed by `lacks`.
fn require<T: Element>(call: &str, holds: bool, lacks: &str) -> crate::error::HpfResult<()> {
    if holds {
        Ok(())
    } else {
        Err(crate::error::HpfError::bad_arg(
            call,
            format!("{} {lacks}", T::KIND.name()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_arithmetic_follows_the_definitions() {
        let a = Complex16 { re: 1.5, im: -2.0 };
        let b = Complex16 { re: -0.5, im: 3.0 };
        assert_eq!(a.times(b), Complex16 { re: 5.25, im: 5.5 });
        assert_eq!(a.plus(b), Complex16 { re: 1.0, im: 1.0 });
        assert_eq!(a.conj(), Complex16 { re: 1.5, im: 2.0 });
        assert_eq!(Complex16::one().times(a), a);
        let mut bytes = Vec::new();
        a.put(&mut bytes);
        assert_eq!(bytes.len(), ElemKind::Complex16.size());
        assert_eq!(Complex16::get(&bytes), a);
        let c = Complex8 { re: 2.0, im: 1.0 };
        assert_eq!(c.conj().times(c), Complex8 { re: 5.0, im: 0.0 });
        assert_eq!(Complex8::as_bytes(&[c]).len(), ElemKind::Complex8.size());
    }

    #[test]
    fn logical_sum_is_or_and_product_is_and() {
        let (t, f) = (Logical(7), Logical(0));
        assert_eq!(t.plus(f), Logical(1));
        assert_eq!(f.plus(f), Logical(0));
        assert_eq!(t.times(f), Logical(0));
        assert_eq!(t.times(Logical(-1)), Logical(1));
        const { assert!(!Logical::NUMERIC && !Logical::ORDERED && !Complex8::ORDERED) };
        assert!(require_numeric::<Logical>("x").is_err());
        assert!(require_ordered::<Complex16>("x").is_err());
        assert!(require_ordered::<f64>("x").is_ok());
    }
}
