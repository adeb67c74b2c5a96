//! Reductions with TCGMSG op strings over the compute ranks.

use super::client;
use super::types::{GaError, GaResult};
use crate::sys::{ReduceOp, Reducible};

/// Numbers the reductions work on.
pub trait Num: Reducible + PartialOrd + Default {
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
        ("&&", ReduceOp::Land, false, true),
        ("land", ReduceOp::Land, false, true),
        ("||", ReduceOp::Lor, false, true),
        ("lor", ReduceOp::Lor, false, true),
        ("&", ReduceOp::Band, false, true),
        ("band", ReduceOp::Band, false, true),
        ("|", ReduceOp::Bor, false, true),
        ("bor", ReduceOp::Bor, false, true),
        ("or", ReduceOp::Bor, false, true),
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
        for chunk in x.chunks_mut(65536) {
            c.comm
                .allreduce(chunk, r)
                .map_err(|e| GaError::new(call, e))?;
        }
        Ok(())
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
        assert_eq!(parse("or", true), Some((ReduceOp::Bor, false)));
        assert_eq!(parse("or", false), None);
        assert_eq!(parse("&&", true), Some((ReduceOp::Land, false)));
        assert_eq!(parse("xyz", true), None);
    }
}
