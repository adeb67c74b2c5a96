//! Collectives over all nodes or a node list: `exsync`, `exbroadcast`,
//! `excombine`, `exconcat`.
//!
//! A node list is a set: its order does not matter and the participants
//! are taken in increasing node number ("node order"). Each distinct list
//! gets a communicator of its own, made by its members only
//! (`MPI_Comm_create_group`) the first time it is used and cached after
//! that; `nnodes = ALLNODES` uses the communicator of all nodes. A node
//! that calls with a list it is not in gets `EXNOTMEMBER` at once, and so
//! does the host (it is not a node). Arguments are checked before any
//! communication; a call whose arguments are wrong on only some nodes
//! leaves the others waiting, as an MPI collective would. The `type`
//! argument is accepted for compatibility: collectives never match
//! point-to-point messages, whatever their type.

use crate::error::{ExError, ExResult, EXBADFUNC, EXBADLEN, EXBADNODE, EXTOOLONG};
use crate::layer::with;
use crate::msg::pump;
use shim_core::collective::{Elem, ReduceOp};

fn core<T>(call: &str, r: shim_core::CoreResult<T>) -> ExResult<T> {
    r.map_err(|e| ExError::core(call, e))
}

/// Barrier over all nodes.
pub fn sync(call: &str) -> ExResult<()> {
    pump(call)?;
    with(call, |x| {
        let m = x.members(call, 0, None)?;
        let g = x.group(call, &m)?;
        core(call, g.barrier())
    })
}

/// Broadcasts from node `src` to the nodes of the list. `buf` holds the
/// data on `src`; elsewhere it receives it. Returns the broadcast's length;
/// a receiving buffer shorter than it keeps the first `buf.len()` bytes and
/// the call reports [`crate::error::EXTOOLONG`] through `fits == false`.
pub fn broadcast(
    call: &str,
    buf: &mut [u8],
    src: i32,
    nnodes: i32,
    list: Option<&[i32]>,
) -> ExResult<(usize, bool)> {
    pump(call)?;
    with(call, |x| {
        let m = x.members(call, nnodes, list)?;
        let Some(root) = m.rank_of(src, x.nprocs()) else {
            return Err(ExError::new(
                EXBADNODE,
                format!("{call}: source node {src} is not in the node list"),
            ));
        };
        let g = x.group(call, &m)?;
        let n = core(call, g.bcast_sized(buf, root))?;
        Ok((n, n <= buf.len()))
    })
}

/// How `excombine` combines two items.
pub enum Combiner<'a> {
    /// A predefined function: an MPI reduction of the item's elements.
    Predefined(Elem, ReduceOp),
    /// A user function `f(a, b)`: stores `a ∘ b` into `a`.
    User(&'a mut dyn FnMut(&mut [u8], &[u8])),
}

/// Combines `nitems` items of `size` bytes in `buf` over the nodes of the
/// list; every participant gets the result in `buf`.
///
/// With a user function the result of each item is the left fold in node
/// order, `((x0 ∘ x1) ∘ x2) ∘ … ∘ x(n-1)`, computed identically on every
/// participant (so it is the same bit for bit everywhere, whether or not
/// the function is commutative or associative).
pub fn combine(
    call: &str,
    buf: &mut [u8],
    size: i32,
    nitems: i32,
    f: Combiner<'_>,
    nnodes: i32,
    list: Option<&[i32]>,
) -> ExResult<()> {
    if size < 0 || nitems < 0 || (size == 0 && nitems > 0) {
        return Err(ExError::new(
            EXBADLEN,
            format!("{call}: item size {size} and count {nitems} must be positive"),
        ));
    }
    let size = size as usize;
    if let Combiner::Predefined(e, _) = &f {
        if !size.is_multiple_of(e.size()) {
            return Err(ExError::new(
                EXBADFUNC,
                format!(
                    "{call}: a predefined function on {e:?} needs an item size that is a \
                     multiple of {}, not {size}",
                    e.size()
                ),
            ));
        }
    }
    pump(call)?;
    match f {
        Combiner::Predefined(e, op) => with(call, |x| {
            let m = x.members(call, nnodes, list)?;
            let g = x.group(call, &m)?;
            core(call, g.allreduce(buf, e, op))
        }),
        Combiner::User(func) => {
            let (all, lens) = with(call, |x| {
                let m = x.members(call, nnodes, list)?;
                let g = x.group(call, &m)?;
                core(call, g.allgatherv(buf))
            })?;
            if let Some(k) = lens.iter().position(|&l| l != buf.len()) {
                return Err(ExError::new(
                    EXBADLEN,
                    format!(
                        "{call}: participant {k} of the list combines {} bytes, this node {}",
                        lens[k],
                        buf.len()
                    ),
                ));
            }
            // The fold runs in `buf`, starting from the first participant's items.
            buf.copy_from_slice(&all[..buf.len()]);
            for part in all.chunks(buf.len().max(1)).skip(1) {
                for (a, b) in buf.chunks_mut(size).zip(part.chunks(size)) {
                    func(a, b);
                }
            }
            Ok(())
        }
    }
}

/// Concatenates every participant's `input` in node order onto every
/// participant.
pub fn concat(call: &str, input: &[u8], nnodes: i32, list: Option<&[i32]>) -> ExResult<Vec<u8>> {
    pump(call)?;
    with(call, |x| {
        let m = x.members(call, nnodes, list)?;
        let g = x.group(call, &m)?;
        Ok(core(call, g.allgatherv(input))?.0)
    })
}

/// [`concat`] straight into `out`, as `exconcat` delivers it: returns the
/// concatenation's length; when it exceeds `out`, the first `out.len()`
/// bytes are stored and the call fails with `EXTOOLONG`.
pub fn concat_into(
    call: &str,
    input: &[u8],
    out: &mut [u8],
    nnodes: i32,
    list: Option<&[i32]>,
) -> ExResult<usize> {
    pump(call)?;
    let total = with(call, |x| {
        let m = x.members(call, nnodes, list)?;
        let g = x.group(call, &m)?;
        Ok(core(call, g.allgatherv_into(input, out))?.0)
    })?;
    if total > out.len() {
        return Err(ExError::new(
            EXTOOLONG,
            format!(
                "{call}: {total} bytes gathered, the output holds {}; the first {} were stored",
                out.len(),
                out.len()
            ),
        ));
    }
    Ok(total)
}
