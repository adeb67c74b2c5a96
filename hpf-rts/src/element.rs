//! The element types a distributed array may hold (INTEGER*4, INTEGER*8,
//! REAL*4, REAL*8) and the arithmetic the intrinsics need of them.
//!
//! Integer arithmetic wraps on overflow (Fortran leaves overflow undefined;
//! wrapping keeps every process's result the same instead of aborting).

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
}

impl ElemKind {
    /// The kind of C type code `code`.
    pub fn from_code(code: i32) -> Option<ElemKind> {
        match code {
            1 => Some(ElemKind::Integer4),
            2 => Some(ElemKind::Integer8),
            3 => Some(ElemKind::Real4),
            4 => Some(ElemKind::Real8),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemKind::Integer4 | ElemKind::Real4 => 4,
            ElemKind::Integer8 | ElemKind::Real8 => 8,
        }
    }
}

/// An element type of a distributed array.
pub trait Element: Copy + Default + PartialOrd + Debug + Send + Sync + 'static {
    /// The type's code.
    const KIND: ElemKind;
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
    /// Appends the native-order bytes of `self`.
    fn put(self, out: &mut Vec<u8>);
    /// Reads one element from the first bytes of `b`.
    fn get(b: &[u8]) -> Self;
    /// The native-order bytes of `s` (no copy).
    fn as_bytes(s: &[Self]) -> &[u8];
    /// The bytes of `s`, writable (no copy).
    fn as_bytes_mut(s: &mut [Self]) -> &mut [u8];
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
        }
    };
}

integer!(i32, ElemKind::Integer4);
integer!(i64, ElemKind::Integer8);
real!(f32, ElemKind::Real4);
real!(f64, ElemKind::Real8);
