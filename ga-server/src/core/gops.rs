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

/// The TCGMSG op names, tried in this order as prefixes of an op string:
/// the MPI op, whether absolute values are taken first, and whether only
/// integers take it.
static OPS: [(&[u8], ReduceOp, bool, bool); 15] = [
    (b"+", ReduceOp::Sum, false, false),
    (b"*", ReduceOp::Prod, false, false),
    (b"absmax", ReduceOp::Max, true, false),
    (b"absmin", ReduceOp::Min, true, false),
    (b"max", ReduceOp::Max, false, false),
    (b"min", ReduceOp::Min, false, false),
    (b"&&", ReduceOp::LAnd, false, true),
    (b"land", ReduceOp::LAnd, false, true),
    (b"||", ReduceOp::LOr, false, true),
    (b"lor", ReduceOp::LOr, false, true),
    (b"&", ReduceOp::BAnd, false, true),
    (b"band", ReduceOp::BAnd, false, true),
    (b"|", ReduceOp::BOr, false, true),
    (b"bor", ReduceOp::BOr, false, true),
    (b"or", ReduceOp::BOr, false, true),
];

/// The MPI op of a TCGMSG op string (prefix match) and whether absolute
/// values are taken first.
pub fn parse(op: &str, integer: bool) -> Option<(ReduceOp, bool)> {
    // Only leading blanks matter to a prefix match: no name in the table
    // holds a blank or NUL, so trailing ones (Fortran padding) never
    // decide it.
    lookup(op.trim_start().as_bytes(), integer)
}

/// As [`parse`], on the bytes of a C string: an op name that starts with
/// ASCII (every name does) is matched with no UTF-8 check or conversion.
pub fn parse_bytes(op: &[u8], integer: bool) -> Option<(ReduceOp, bool)> {
    if op.first().is_some_and(|b| b.is_ascii_graphic()) {
        // The usual op: a name with nothing before it.
        return lookup(op, integer);
    }
    // The ASCII characters that `char::is_whitespace` calls blanks.
    let start = op
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'..=b'\r'))
        .unwrap_or(op.len());
    match op.get(start) {
        // A non-ASCII character may be a Unicode blank: the text decides.
        Some(b) if !b.is_ascii() => parse(&String::from_utf8_lossy(op), integer),
        _ => lookup(&op[start..], integer),
    }
}

/// The entry of [`OPS`] that `o` (no leading blanks) starts with.
fn lookup(o: &[u8], integer: bool) -> Option<(ReduceOp, bool)> {
    OPS.iter()
        .find(|(p, _, _, int_only)| o.starts_with(p) && (integer || !int_only))
        .map(|&(_, r, abs, _)| (r, abs))
}

/// [`parse_bytes`] of `op`, or GA's error for an unknown op.
#[inline]
pub fn op_of(call: &'static str, op: &[u8], integer: bool) -> GaResult<(ReduceOp, bool)> {
    parse_bytes(op, integer).ok_or_else(|| {
        GaError::new(
            call,
            format!("unknown operation '{}'", String::from_utf8_lossy(op)),
        )
    })
}

/// In-place element-wise reduction over the compute ranks.
pub fn reduce<T: Num>(call: &'static str, x: &mut [T], op: &str, integer: bool) -> GaResult<()> {
    let (r, abs) = op_of(call, op.as_bytes(), integer)?;
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
        // Leading blanks are skipped; trailing blanks and NULs (a padded
        // Fortran string) never change the match.
        assert_eq!(parse("  max  \0\0", false), Some((ReduceOp::Max, false)));
        assert_eq!(parse("+\0 ", false), Some((ReduceOp::Sum, false)));
        assert_eq!(parse(" \0 ", false), None);
        assert_eq!(parse("", false), None);
    }

    #[test]
    fn op_bytes_match_op_text() {
        let cases: [&[u8]; 12] = [
            b"+",
            b" \tmax",
            b"absmin  ",
            b"or",
            b"\x0bmin",
            b"xyz",
            b"",
            b"\0+",
            "\u{2003}max".as_bytes(),
            "\u{a0}+".as_bytes(),
            b"\xff+",
            b"+\xff",
        ];
        for op in cases {
            for integer in [false, true] {
                let text = String::from_utf8_lossy(op);
                assert_eq!(
                    parse_bytes(op, integer),
                    parse(&text, integer),
                    "{op:?} integer={integer}"
                );
            }
        }
        let e = op_of("GA_Dgop", b"avg", false).unwrap_err();
        assert_eq!(e.to_string(), "GA_Dgop: unknown operation 'avg'");
    }
}
