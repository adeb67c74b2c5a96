//! The HPF library's combining scatters, `XXX_SCATTER(ARRAY, BASE, INDX1,
//! .., INDXn, MASK)`, run on a scatter schedule ([`IndexSchedule`]): each
//! element `B(s)` of ARRAY where MASK is true is combined into the cell
//! `A(V1(s), .., Vn(s))` of BASE (kept in place in `A`), so a cell named
//! more than once gets every value and a cell named by none keeps its
//! own. The values reach a cell in a fixed order (per sending grid rank in
//! rank order, this process's own part at its rank, each in the sender's
//! local order), the same on every replica of BASE, so integers are exact
//! and reals reproducible for one grid and pair of DADs. Elements where
//! MASK is false are left out, not replaced by an identity (so
//! MAXVAL_SCATTER of `-Inf` still lands).
//!
//! COPY_SCATTER stores instead of combining: HPF leaves it to the
//! processor which of the values sent to a cell it keeps; here it is the
//! last in that order (from the highest sending grid rank, the last of
//! its elements in its local order), on every replica alike.
//!
//! | op | ARRAY, BASE | cell becomes |
//! |---|---|---|
//! | SUM, PRODUCT | numeric | `cell + b`, `cell * b` |
//! | MAXVAL, MINVAL | integer or real | `max(cell, b)`, `min(cell, b)` |
//! | COUNT | LOGICAL, integer | `cell + 1` for each true `b` |
//! | ALL, ANY, PARITY | LOGICAL | `cell .AND. b`, `.OR.`, `.NEQV.` |
//! | IALL, IANY, IPARITY | integer | `IAND(cell, b)`, `IOR`, `IEOR` |
//! | COPY | any | `b` (the last value sent) |

use crate::element::{ElemKind, Element, Logical};
use crate::error::{HpfError, HpfResult};
use crate::indexed::IndexSchedule;
use crate::reduce::{check_len, max_of, min_of};

/// How a combining scatter combines the values sent to one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScatterOp {
    /// SUM_SCATTER.
    Sum,
    /// PRODUCT_SCATTER.
    Product,
    /// MAXVAL_SCATTER.
    Maxval,
    /// MINVAL_SCATTER.
    Minval,
    /// COUNT_SCATTER (a LOGICAL ARRAY into an integer BASE).
    Count,
    /// ALL_SCATTER.
    All,
    /// ANY_SCATTER.
    Any,
    /// PARITY_SCATTER.
    Parity,
    /// IALL_SCATTER.
    Iall,
    /// IANY_SCATTER.
    Iany,
    /// IPARITY_SCATTER.
    Iparity,
    /// COPY_SCATTER: the cell takes one of the values sent to it (the
    /// last in the delivery order), any type.
    Copy,
}

impl ScatterOp {
    /// The C API's code: `HPF_OP_SUM` 1, `HPF_OP_PRODUCT` 2,
    /// `HPF_OP_MAXVAL` 3, `HPF_OP_MINVAL` 4, `HPF_OP_COUNT` 5,
    /// `HPF_OP_ALL` 6, `HPF_OP_ANY` 7, `HPF_OP_PARITY` 8, `HPF_OP_IALL` 9,
    /// `HPF_OP_IANY` 10, `HPF_OP_IPARITY` 11, `HPF_OP_COPY` 12.
    pub fn from_code(c: i32) -> Option<ScatterOp> {
        use ScatterOp::*;
        [
            Sum, Product, Maxval, Minval, Count, All, Any, Parity, Iall, Iany, Iparity, Copy,
        ]
        .get(usize::try_from(c).ok()?.checked_sub(1)?)
        .copied()
    }

    /// The library function's name.
    pub fn name(self) -> &'static str {
        match self {
            ScatterOp::Sum => "SUM_SCATTER",
            ScatterOp::Product => "PRODUCT_SCATTER",
            ScatterOp::Maxval => "MAXVAL_SCATTER",
            ScatterOp::Minval => "MINVAL_SCATTER",
            ScatterOp::Count => "COUNT_SCATTER",
            ScatterOp::All => "ALL_SCATTER",
            ScatterOp::Any => "ANY_SCATTER",
            ScatterOp::Parity => "PARITY_SCATTER",
            ScatterOp::Iall => "IALL_SCATTER",
            ScatterOp::Iany => "IANY_SCATTER",
            ScatterOp::Iparity => "IPARITY_SCATTER",
            ScatterOp::Copy => "COPY_SCATTER",
        }
    }

    /// The combining function for elements of type `T` (BASE's type), or
    /// `HPF_EBADARG` naming the type the operation does not take.
    fn combiner<T: Element>(self, call: &str) -> HpfResult<fn(T, T) -> T> {
        let integer = matches!(T::KIND, ElemKind::Integer4 | ElemKind::Integer8);
        let takes = match self {
            ScatterOp::Sum | ScatterOp::Product => T::NUMERIC,
            ScatterOp::Maxval | ScatterOp::Minval => T::NUMERIC && T::ORDERED,
            ScatterOp::All | ScatterOp::Any | ScatterOp::Parity => T::KIND == ElemKind::Logical,
            ScatterOp::Count | ScatterOp::Iall | ScatterOp::Iany | ScatterOp::Iparity => integer,
            ScatterOp::Copy => true,
        };
        if !takes {
            return Err(HpfError::bad_arg(
                call,
                format!("{} does not take {}", self.name(), T::KIND.name()),
            ));
        }
        let f: fn(T, T) -> T = match self {
            ScatterOp::Sum | ScatterOp::Count => |c, b| c.plus(b),
            ScatterOp::Product => |c, b| c.times(b),
            ScatterOp::Maxval => max_of,
            ScatterOp::Minval => min_of,
            ScatterOp::All => |c, b| logical(truth(c) && truth(b)),
            ScatterOp::Any => |c, b| logical(truth(c) || truth(b)),
            ScatterOp::Parity => |c, b| logical(truth(c) != truth(b)),
            ScatterOp::Iall => |c, b| bitwise(c, b, |x, y| x & y),
            ScatterOp::Iany => |c, b| bitwise(c, b, |x, y| x | y),
            ScatterOp::Iparity => |c, b| bitwise(c, b, |x, y| x ^ y),
            ScatterOp::Copy => |_, b| b,
        };
        Ok(f)
    }
}

/// Whether a value (a LOGICAL) is true: any bit set.
fn truth<T: Element>(x: T) -> bool {
    T::as_bytes(std::slice::from_ref(&x))
        .iter()
        .any(|&b| b != 0)
}

/// The LOGICAL `b` as a `T` (which is [`Logical`]).
fn logical<T: Element>(b: bool) -> T {
    T::get(&Logical::of(b).0.to_ne_bytes())
}

/// `f` applied byte by byte to the native bytes of two integers, which is
/// `f` applied bit by bit.
fn bitwise<T: Element>(x: T, y: T, f: fn(u8, u8) -> u8) -> T {
    let mut out = [0u8; 16];
    let xs = T::as_bytes(std::slice::from_ref(&x));
    let ys = T::as_bytes(std::slice::from_ref(&y));
    for ((o, &a), &b) in out.iter_mut().zip(xs).zip(ys) {
        *o = f(a, b);
    }
    T::get(&out)
}

impl IndexSchedule {
    /// Runs this scatter schedule combining: for every `s` where `mask`
    /// (a LOGICAL array with B's DAD, non-zero true; None: all true) is
    /// true, `A(V1(s), ..) = op(A(V1(s), ..), B(s))`. `src` is B's local
    /// buffer, `dst` A's. [`ScatterOp::Count`] takes its LOGICAL ARRAY
    /// through [`execute_count`](Self::execute_count). Returns
    /// `HPF_EBADARG` for a type `op` does not take, a gather schedule or a
    /// buffer of the wrong length. Collective.
    pub fn execute_op<T: Element>(
        &self,
        op: ScatterOp,
        src: &[T],
        mask: Option<&[i32]>,
        dst: &mut [T],
    ) -> HpfResult<()> {
        if op == ScatterOp::Count {
            return Err(HpfError::bad_arg(
                "hpf_combine_scatter",
                "COUNT_SCATTER takes a LOGICAL ARRAY (execute_count)",
            ));
        }
        self.combine("hpf_combine_scatter", op, src, mask, dst)
    }

    /// COUNT_SCATTER: for every `s` where `mask` and the LOGICAL `src(s)`
    /// are true, `A(V1(s), ..) += 1`; `dst` is A's local buffer, of an
    /// integer type. Returns as [`execute_op`](Self::execute_op).
    /// Collective.
    pub fn execute_count<T: Element>(
        &self,
        src: &[Logical],
        mask: Option<&[i32]>,
        dst: &mut [T],
    ) -> HpfResult<()> {
        self.count_named("hpf_combine_scatter", src, mask, dst)
    }

    /// COUNT_SCATTER with errors naming `call`.
    pub(crate) fn count_named<T: Element>(
        &self,
        call: &str,
        src: &[Logical],
        mask: Option<&[i32]>,
        dst: &mut [T],
    ) -> HpfResult<()> {
        ScatterOp::Count.combiner::<T>(call)?;
        let ones: Vec<T> = src
            .iter()
            .map(|b| if b.is_true() { T::one() } else { T::zero() })
            .collect();
        self.combine(call, ScatterOp::Count, &ones, mask, dst)
    }

    /// The combining run behind every op, errors naming `call`.
    pub(crate) fn combine<T: Element>(
        &self,
        call: &str,
        op: ScatterOp,
        src: &[T],
        mask: Option<&[i32]>,
        dst: &mut [T],
    ) -> HpfResult<()> {
        let (b_dad, a_dad, plan) = self.scatter_parts(call)?;
        let f = op.combiner::<T>(call)?;
        check_len(call, b_dad, src, "source")?;
        if let Some(m) = mask {
            check_len(call, b_dad, m, "MASK")?;
        }
        check_len(call, a_dad, dst, "destination")?;
        plan.execute_combine(a_dad, src, mask, dst, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_name_the_operations_in_order() {
        assert_eq!(ScatterOp::from_code(1), Some(ScatterOp::Sum));
        assert_eq!(ScatterOp::from_code(5), Some(ScatterOp::Count));
        assert_eq!(ScatterOp::from_code(11), Some(ScatterOp::Iparity));
        assert_eq!(ScatterOp::from_code(0), None);
        assert_eq!(ScatterOp::from_code(12), Some(ScatterOp::Copy));
        assert_eq!(ScatterOp::from_code(13), None);
        assert_eq!(ScatterOp::from_code(-1), None);
    }

    #[test]
    fn combiners_follow_the_fortran_operations() {
        let f = ScatterOp::Iall.combiner::<i64>("t").expect("iall");
        assert_eq!(f(0b1100, 0b1010), 0b1000);
        let f = ScatterOp::Iany.combiner::<i32>("t").expect("iany");
        assert_eq!(f(-8, 3), -5);
        let f = ScatterOp::Iparity.combiner::<i32>("t").expect("iparity");
        assert_eq!(f(6, 3), 5);
        let t = Logical(7);
        let (no, yes) = (Logical(0), Logical(1));
        let f = ScatterOp::All.combiner::<Logical>("t").expect("all");
        assert_eq!((f(t, yes), f(t, no)), (yes, no));
        let f = ScatterOp::Any.combiner::<Logical>("t").expect("any");
        assert_eq!((f(no, no), f(no, t)), (no, yes));
        let f = ScatterOp::Parity.combiner::<Logical>("t").expect("parity");
        assert_eq!((f(t, t), f(no, t)), (no, yes));
        let f = ScatterOp::Maxval.combiner::<f64>("t").expect("max");
        assert_eq!(f(1.0, f64::NEG_INFINITY), 1.0);
        assert!(ScatterOp::Iall.combiner::<f64>("t").is_err());
        assert!(ScatterOp::All.combiner::<i32>("t").is_err());
        assert!(ScatterOp::Maxval.combiner::<crate::Complex16>("t").is_err());
        assert!(ScatterOp::Sum.combiner::<Logical>("t").is_err());
        assert!(ScatterOp::Count.combiner::<f32>("t").is_err());
        let f = ScatterOp::Copy
            .combiner::<crate::Complex16>("t")
            .expect("copy");
        let z = crate::Complex16 { re: 1.0, im: -2.0 };
        assert_eq!(f(crate::Complex16 { re: 0.0, im: 0.0 }, z), z);
    }
}
