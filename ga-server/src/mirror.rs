//! Mirrored arrays: an array made on the mirror group (0,
//! `GA_Pgroup_get_mirror`) has one copy per node, held in that node's
//! `ga-server` segment and dealt over the node's compute ranks (the mirror
//! group is each node's ranks, see `core::pgroups::make_mirror`); puts,
//! gets and accumulates of a process reach its node's copy. Merging adds
//! the copies of every node element by element: `GA_Merge_mirrored`
//! leaves the sum in every copy, `NGA_Merge_distr_patch` puts the sum of
//! a patch into a patch of an ordinary (distributed) array.
//!
//! The sum travels as one reduction over every compute rank, to which
//! the first rank of each node gives its node's copy (the others give
//! zeros); that rank then writes the result into its node's copy. Both
//! calls are collective over every compute rank.

use crate::core::{self, fmt_patch, pgroups, ElemType, GaError, GaResult, Handle};
use crate::ops::elem::{decode, encode};
use crate::ops::patch::{check_patch, full, get_rect, put_rect, shape};

/// Is `g` made on the mirror group?
pub fn is_mirrored(call: &'static str, g: Handle) -> GaResult<bool> {
    core::array_group(g)
        .map(|(grp, _, _)| grp == pgroups::MIRROR)
        .map_err(|e| GaError::new(call, e.message))
}

/// Adds `bytes` (elements of `ty`) element by element over every compute
/// rank; complex values add by parts.
fn sum_everywhere(call: &'static str, ty: ElemType, bytes: &mut Vec<u8>) -> GaResult<()> {
    let w = pgroups::WORLD;
    match ty {
        ElemType::Int => {
            let mut v: Vec<i32> = decode(bytes);
            pgroups::gop(call, w, &mut v, "+", true)?;
            *bytes = encode(&v);
        }
        ElemType::Long | ElemType::LongLong => {
            let mut v: Vec<i64> = decode(bytes);
            pgroups::gop(call, w, &mut v, "+", true)?;
            *bytes = encode(&v);
        }
        ElemType::Float | ElemType::SComplex => {
            let mut v: Vec<f32> = decode(bytes);
            pgroups::gop(call, w, &mut v, "+", false)?;
            *bytes = encode(&v);
        }
        ElemType::Double | ElemType::DComplex => {
            let mut v: Vec<f64> = decode(bytes);
            pgroups::gop(call, w, &mut v, "+", false)?;
            *bytes = encode(&v);
        }
        other => {
            return Err(GaError::new(
                call,
                format!("arrays of {other:?} cannot be merged"),
            ))
        }
    }
    Ok(())
}

/// The sum over the nodes of the patch `lo..=hi` of the mirrored `g`, on
/// every compute rank; also tells whether this rank is its node's first.
fn summed_patch(
    call: &'static str,
    g: Handle,
    ty: ElemType,
    lo: &[i64],
    hi: &[i64],
) -> GaResult<(Vec<u8>, bool)> {
    core::sync_array(g).map_err(|e| GaError::new(call, e.message))?;
    let first = core::array_rank(g).map_err(|e| GaError::new(call, e.message))? == 0;
    let len = shape(lo, hi).iter().product::<i64>() as usize * ty.size();
    let mut bytes = if first {
        get_rect(call, g, ty.size(), lo, hi)?
    } else {
        vec![0u8; len]
    };
    sum_everywhere(call, ty, &mut bytes)?;
    Ok((bytes, first))
}

fn mirrored_arg(call: &'static str, g: Handle) -> GaResult<ElemType> {
    let (ty, _) =
        core::inquire(g).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))?;
    if !is_mirrored(call, g)? {
        return Err(GaError::new(
            call,
            format!(
                "array '{}' is not mirrored",
                core::name(g).unwrap_or_default()
            ),
        ));
    }
    Ok(ty)
}

/// `GA_Merge_mirrored`: every copy of the mirrored `g` becomes the sum of
/// all copies. An array that is not mirrored is left alone, as in GA.
pub fn merge(call: &'static str, g: Handle) -> GaResult<()> {
    if !is_mirrored(call, g)? {
        return Ok(());
    }
    let (ty, dims) = core::inquire(g).map_err(|e| GaError::new(call, e.message))?;
    let (lo, hi) = full(&dims);
    let (sum, first) = summed_patch(call, g, ty, &lo, &hi)?;
    if first {
        put_rect(call, g, &lo, &hi, &sum)?;
    }
    core::sync_array(g).map_err(|e| GaError::new(call, e.message))
}

/// `NGA_Merge_distr_patch`: the patch `blo..=bhi` of the ordinary array
/// `g_b` becomes the sum over all copies of the patch `alo..=ahi` of the
/// mirrored `g_a` (same type, same shape).
pub fn merge_distr_patch(
    call: &'static str,
    g_a: Handle,
    (alo, ahi): (&[i64], &[i64]),
    g_b: Handle,
    (blo, bhi): (&[i64], &[i64]),
) -> GaResult<()> {
    let ty = mirrored_arg(call, g_a)?;
    check_patch(call, g_a, alo, ahi)?;
    let (tyb, _) = check_patch(call, g_b, blo, bhi)?;
    let (grp_b, _, _) = core::array_group(g_b).map_err(|e| GaError::new(call, e.message))?;
    if grp_b != pgroups::WORLD {
        return Err(GaError::new(
            call,
            "g_b must be an ordinary array of every process (not mirrored, not on a group)",
        ));
    }
    if tyb != ty {
        return Err(GaError::new(call, "g_a and g_b must have the same type"));
    }
    if shape(alo, ahi) != shape(blo, bhi) {
        return Err(GaError::new(
            call,
            format!(
                "patches {} and {} differ in shape",
                fmt_patch(alo, ahi),
                fmt_patch(blo, bhi)
            ),
        ));
    }
    let (sum, _) = summed_patch(call, g_a, ty, alo, ahi)?;
    core::sync_array(g_b).map_err(|e| GaError::new(call, e.message))?;
    if core::array_rank(g_b).map_err(|e| GaError::new(call, e.message))? == 0 {
        put_rect(call, g_b, blo, bhi, &sum)?;
    }
    core::sync_array(g_b).map_err(|e| GaError::new(call, e.message))
}
