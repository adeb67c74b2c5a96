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

/// Implements [`Element`] for `$t`: its kind, its zero and one, its
/// addition and multiplication (wrapping for integers), and its largest
/// value (the negated largest for the identity of MAXVAL).
macro_rules! element {
    ($t:ty, $kind:expr, $zero:expr, $one:expr, $plus:expr, $times:expr) => {
        impl Element for $t {
            const KIND: ElemKind = $kind;
            fn zero() -> Self {
                $zero
            }
            fn one() -> Self {
                $one
            }
            fn neg_huge() -> Self {
                -<$t>::MAX
            }
            fn huge() -> Self {
                <$t>::MAX
            }
            fn plus(self, other: Self) -> Self {
                ($plus)(self, other)
            }
            fn times(self, other: Self) -> Self {
                ($times)(self, other)
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

element!(
    i32,
    ElemKind::Integer4,
    0,
    1,
    i32::wrapping_add,
    i32::wrapping_mul
);
element!(
    i64,
    ElemKind::Integer8,
    0,
    1,
    i64::wrapping_add,
    i64::wrapping_mul
);
element!(
    f32,
    ElemKind::Real4,
    0.0,
    1.0,
    std::ops::Add::add,
    std::ops::Mul::mul
);
element!(
    f64,
    ElemKind::Real8,
    0.0,
    1.0,
    std::ops::Add::add,
    std::ops::Mul::mul
);
