//! The predefined combine functions of `excombine` (sum, product, maximum,
//! minimum of int, long, float and double; logical and/or of int) as plain
//! element-wise operations, and the one table of their C and Fortran
//! names from which `capi` and `fapi` make the entry points; `excombine`
//! recognises them and uses MPI's own reduction instead of calling them.

use crate::error::{EXINTERNAL, EXNULLBUF};
use crate::ptr;
use shim_core::collective::{Elem, ReduceOp};
use shim_core::ffi_guard::guard;
use std::ffi::{c_int, c_void};

/// Hands the table of Express's predefined combine functions to the
/// macro `$then`: a row each, the C name, the Fortran name, the element
/// and the operation. `capi` and `fapi` make their entry points from it.
macro_rules! predefined_table {
    ($then:ident) => {
        $then! {
            ex_isum, kxisum_, Elem::I32, ReduceOp::Sum;
            ex_iprod, kxiprd_, Elem::I32, ReduceOp::Prod;
            ex_imax, kximax_, Elem::I32, ReduceOp::Max;
            ex_imin, kximin_, Elem::I32, ReduceOp::Min;
            ex_lsum, kxlsum_, Elem::I64, ReduceOp::Sum;
            ex_lprod, kxlprd_, Elem::I64, ReduceOp::Prod;
            ex_lmax, kxlmax_, Elem::I64, ReduceOp::Max;
            ex_lmin, kxlmin_, Elem::I64, ReduceOp::Min;
            ex_fsum, kxfsum_, Elem::F32, ReduceOp::Sum;
            ex_fprod, kxfprd_, Elem::F32, ReduceOp::Prod;
            ex_fmax, kxfmax_, Elem::F32, ReduceOp::Max;
            ex_fmin, kxfmin_, Elem::F32, ReduceOp::Min;
            ex_dsum, kxdsum_, Elem::F64, ReduceOp::Sum;
            ex_dprod, kxdprd_, Elem::F64, ReduceOp::Prod;
            ex_dmax, kxdmax_, Elem::F64, ReduceOp::Max;
            ex_dmin, kxdmin_, Elem::F64, ReduceOp::Min;
            ex_land, kxland_, Elem::I32, ReduceOp::LAnd;
            ex_lor, kxlor_, Elem::I32, ReduceOp::LOr;
        }
    };
}
pub(crate) use predefined_table;

/// A predefined function called directly (entry point `name`): combines
/// one item of `n` bytes of `b` into `a`. Returns 0, or `EXNULLBUF` when
/// `a` or `b` is missing while `n` is positive.
pub(crate) fn call_directly(
    name: &str,
    (elem, op): (Elem, ReduceOp),
    a: *mut c_void,
    b: *const c_void,
    n: usize,
) -> c_int {
    guard(name, EXINTERNAL, || {
        match (ptr::bytes_mut(a, n), ptr::bytes(b, n)) {
            (Some(a), Some(b)) => {
                apply(elem, op, a, b);
                0
            }
            _ => EXNULLBUF,
        }
    })
}

macro_rules! fold {
    ($t:ty, $a:expr, $b:expr, $f:expr) => {{
        const N: usize = std::mem::size_of::<$t>();
        for (x, y) in $a.chunks_exact_mut(N).zip($b.chunks_exact(N)) {
            let l = <$t>::from_ne_bytes(x.try_into().expect("element"));
            let r = <$t>::from_ne_bytes(y.try_into().expect("element"));
            let f: fn($t, $t) -> $t = $f;
            x.copy_from_slice(&f(l, r).to_ne_bytes());
        }
    }};
}

macro_rules! by_op {
    ($t:ty, $op:expr, $a:expr, $b:expr, $zero:expr, $one:expr) => {
        match $op {
            ReduceOp::Sum => fold!($t, $a, $b, |l, r| l + r),
            ReduceOp::Prod => fold!($t, $a, $b, |l, r| l * r),
            ReduceOp::Max => fold!($t, $a, $b, |l, r| if r > l { r } else { l }),
            ReduceOp::Min => fold!($t, $a, $b, |l, r| if r < l { r } else { l }),
            ReduceOp::LAnd => fold!($t, $a, $b, |l, r| if l != $zero && r != $zero {
                $one
            } else {
                $zero
            }),
            ReduceOp::LOr => fold!($t, $a, $b, |l, r| if l != $zero || r != $zero {
                $one
            } else {
                $zero
            }),
            // Bitwise operations are the integers' (handled in `apply`);
            // no predefined function of Express asks them of floats.
            ReduceOp::BAnd | ReduceOp::BOr => {}
        }
    };
}

/// `a ← a op b`, element by element (a trailing partial element is left).
pub fn apply(elem: Elem, op: ReduceOp, a: &mut [u8], b: &[u8]) {
    match (elem, op) {
        (Elem::I32, ReduceOp::BAnd) => fold!(i32, a, b, |l, r| l & r),
        (Elem::I32, ReduceOp::BOr) => fold!(i32, a, b, |l, r| l | r),
        (Elem::I64, ReduceOp::BAnd) => fold!(i64, a, b, |l, r| l & r),
        (Elem::I64, ReduceOp::BOr) => fold!(i64, a, b, |l, r| l | r),
        _ => apply_arith(elem, op, a, b),
    }
}

fn apply_arith(elem: Elem, op: ReduceOp, a: &mut [u8], b: &[u8]) {
    match elem {
        Elem::I32 => by_op!(i32, op, a, b, 0, 1),
        Elem::I64 => by_op!(i64, op, a, b, 0, 1),
        Elem::F32 => by_op!(f32, op, a, b, 0.0, 1.0),
        Elem::F64 => by_op!(f64, op, a, b, 0.0, 1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_on_ints_and_doubles() {
        let mut a: Vec<u8> = [3i32, -4].iter().flat_map(|v| v.to_ne_bytes()).collect();
        let b: Vec<u8> = [5i32, 7].iter().flat_map(|v| v.to_ne_bytes()).collect();
        apply(Elem::I32, ReduceOp::Max, &mut a, &b);
        assert_eq!(&a[..4], &5i32.to_ne_bytes());
        assert_eq!(&a[4..], &7i32.to_ne_bytes());
        let mut d = 1.5f64.to_ne_bytes().to_vec();
        apply(Elem::F64, ReduceOp::Prod, &mut d, &4.0f64.to_ne_bytes());
        assert_eq!(d, 6.0f64.to_ne_bytes());
        let mut t = 2i32.to_ne_bytes().to_vec();
        apply(Elem::I32, ReduceOp::LAnd, &mut t, &0i32.to_ne_bytes());
        assert_eq!(t, 0i32.to_ne_bytes());
    }
}
