//! Reductions with TCGMSG op strings over the compute ranks, done by
//! shim-core's collectives (`Group::allreduce_elems`).

use super::client;
use super::types::{GaError, GaResult};
use shim_core::collective::{Element, Group, ReduceOp};

/// Numbers the reductions work on.
pub trait Num: Element + PartialOrd + Default {
    /// |x|.
    fn abs(self) -> Self;
}

impl Num for f64 {
    fn abs(self) -> f64 {
        f64::abs(self)
    }
}
impl Num for f32 {
    fn abs(self) -> f32 {
        f32::abs(self)
    }
}
impl Num for i32 {
    fn abs(self) -> i32 {
        self.wrapping_abs()
    }
}
impl Num for i64 {
    fn abs(self) -> i64 {
        self.wrapping_abs()
    }
}

/// The MPI op of a TCGMSG op string (prefix match) and whether absolute
/// values are taken first.
pub fn parse(op: &str, integer: bool) -> Option<(ReduceOp, bool)> {
    let o = op.trim_end_matches('\0').trim();
    let table: &[(&str, ReduceOp, bool, bool)] = &[
        ("+", ReduceOp::Sum, false, false),
        ("*", ReduceOp::Prod, false, false),
        ("absmax", ReduceOp::Max, true, false),
        ("absmin", ReduceOp::Min, true, false),
        ("max", ReduceOp::Max, false, false),
        ("min", ReduceOp::Min, false, false),
        ("&&", ReduceOp::LAnd, false, true),
        ("land", ReduceOp::LAnd, false, true),
        ("||", ReduceOp::LOr, false, true),
        ("lor", ReduceOp::LOr, false, true),
        ("&", ReduceOp::BAnd, false, true),
        ("band", ReduceOp::BAnd, false, true),
        ("|", ReduceOp::BOr, false, true),
        ("bor", ReduceOp::BOr, false, true),
        ("or", ReduceOp::BOr, false, true),
    ];
    table
        .iter()
        .find(|(p, _, _, int_only)| o.starts_with(p) && (integer || !int_only))
        .map(|&(_, r, abs, _)| (r, abs))
}

/// In-place element-wise reduction over the compute ranks.
pub fn reduce<T: Num>(call: &'static str, x: &mut [T], op: &str, integer: bool) -> GaResult<()> {
    let (r, abs) = parse(op, integer)
        .ok_or_else(|| GaError::new(call, format!("unknown operation '{op}'")))?;
    if abs {
        for v in x.iter_mut() {
            *v = v.abs();
        }
    }
    client::with(call, |c| {
        Group::of(c.comm)
            .allreduce_elems(x, r)
            .map_err(GaError::backend(call))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_strings() {
        assert_eq!(parse("+", false), Some((ReduceOp::Sum, false)));
        assert_eq!(parse("absmax", false), Some((ReduceOp::Max, true)));
        assert_eq!(parse("maximum", false), Some((ReduceOp::Max, false)));
        assert_eq!(parse("or", true), Some((ReduceOp::BOr, false)));
        assert_eq!(parse("or", false), None);
        assert_eq!(parse("&&", true), Some((ReduceOp::LAnd, false)));
        assert_eq!(parse("xyz", true), None);
    }
}
