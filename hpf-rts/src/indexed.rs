//! Gather and scatter through index arrays (vector-valued subscripts):
//! `R = A(V)` and `A(V) = B` for a rank-1 `A` and an integer array `V` of
//! subscripts of `A` (any shape, any DAD on `A`'s grid); for a rank-n `A`
//! a tuple of n index arrays `V1 .. Vn` of one shape, one per dimension of
//! `A`, as the HPF library's `*_SCATTER` take them: `R(s) = A(V1(s), ..,
//! Vn(s))` and `A(V1(s), .., Vn(s)) = B(s)` for every position `s`.
//!
//! The subscripts are distributed data, so planning needs messages (the
//! inspector): each `V` is first remapped onto the DAD of `R` (gather) or
//! `B` (scatter), so each process knows the subscripts of the cells it holds;
//! it then works out the owner of each `A(V(k))` with the ownership
//! functions and tells each owner which elements the pair moves: an
//! all-to-all of the counts (one per pair, so never empty), then the
//! offsets in the owner's buffer point-to-point between the pairs that
//! have any. Both sides then hold the same lists in the same order, so
//! the resulting [`Schedule`] is executed any number of times (the
//! executor) with point-to-point messages only, as every other schedule.
//! Each replica line of the grid (processes that agree on the grid
//! dimensions an array is not spread over) is served by its own line.
//! A scatter schedule also runs combining (`SUM_SCATTER` and the other
//! combining scatters of [`crate::combining`]), where a cell named more
//! than once gets every value.

use crate::dad::Dad;
use crate::element::Element;
use crate::error::{HpfError, HpfResult};
use crate::schedule::{self, Schedule};

/// Which way an index schedule moves elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// `R = A(V)`: this process pulls its cells of `R` from `A`'s owners.
    Gather,
    /// `A(V) = B`: this process pushes its cells of `B` to `A`'s owners.
    Scatter,
}

/// The subscripts `v` (local buffer of `v_dad`) on the DAD `on` (same
/// shape and grid).
fn subscripts_on(call: &str, v_dad: &Dad, v: &[i64], on: &Dad) -> HpfResult<Vec<i64>> {
    crate::reduce::check_len(call, v_dad, v, "V")?;
    if v_dad.shape() != on.shape() || v_dad.grid().id() != on.grid().id() {
        return Err(HpfError::new(
            crate::error::HPF_EMISMATCH,
            format!(
                "{call}: V has shape {:?}, the other operand {:?} (on the same grid)",
                v_dad.shape(),
                on.shape()
            ),
        ));
    }
    if v_dad == on {
        return Ok(v.to_vec());
    }
    let mut out = vec![0i64; on.local_len()];
    schedule::remap(v_dad, on)?.execute(on, v, &mut out)?;
    Ok(out)
}

/// Whether every process reports `ok` (an agreement, so that a bad
/// subscript on one process stops all of them before any exchange).
pub(crate) fn all_ok(call: &str, dad: &Dad, ok: bool) -> HpfResult<bool> {
    let (all, _) = dad
        .grid()
        .group()
        .allgatherv(&[u8::from(ok)])
        .map_err(|e| HpfError::core(call, e))?;
    Ok(all.iter().all(|&b| b == 1))
}

/// Plans the move between `a` (the indexed array) and `other` (R or B,
/// with one subscript array per dimension of `a` in `subs`, each on
/// `other`'s DAD).
fn plan(call: &str, way: Way, a: &Dad, other: &Dad, subs: &[Vec<i64>]) -> HpfResult<Schedule> {
    let grid = a.grid();
    let (me, n) = (grid.rank(), grid.size());
    let bounds: Vec<(i64, i64)> = a
        .dims()
        .iter()
        .map(|d| (d.spec.lb, d.spec.extent as i64))
        .collect();
    // Per peer: (my offset, the peer's offset) pairs, in my local order.
    let mut pairs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut bad: Option<String> = None;
    let mut g = vec![0i64; bounds.len()];
    let mut i = vec![0usize; bounds.len()];
    other.for_each_owned(me, |_, off| {
        if bad.is_some() {
            return;
        }
        for (k, &(lb, ext)) in bounds.iter().enumerate() {
            g[k] = subs[k][off];
            if g[k] < lb || g[k] - lb >= ext {
                let which = if bounds.len() == 1 {
                    "V".to_string()
                } else {
                    format!("V{}", k + 1)
                };
                bad = Some(format!(
                    "subscript {} in {which} is outside A's bounds {lb}:{} (dimension {})",
                    g[k],
                    lb + ext - 1,
                    k + 1
                ));
                return;
            }
            i[k] = (g[k] - lb) as usize;
        }
        match way {
            Way::Gather => {
                // One source: A's owner in this process's line.
                if let Ok((s, aoff)) = a.owner_of(&g) {
                    pairs[s].push((off, aoff));
                }
            }
            Way::Scatter => {
                // Every replica of A(g) that this process's B serves.
                for (q, to_q) in pairs.iter_mut().enumerate() {
                    if other.serves(me, q) {
                        if let Some(aoff) = a.offset_on(q, &i) {
                            to_q.push((off, aoff));
                        }
                    }
                }
            }
        }
    });
    if !all_ok(call, a, bad.is_none())? {
        return Err(HpfError::bad_arg(
            call,
            bad.unwrap_or_else(|| "a subscript in V on another process is out of bounds".into()),
        ));
    }
    // Tell each peer how many elements and which of its offsets.
    let group = grid.group();
    let core = |e| HpfError::core(call, e);
    let counts: Vec<u8> = pairs
        .iter()
        .flat_map(|p| (p.len() as u64).to_ne_bytes())
        .collect();
    let got = group
        .alltoallv(&counts, &vec![8; n], &vec![8; n])
        .map_err(core)?;
    let theirs: Vec<usize> = got
        .chunks_exact(8)
        .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes")) as usize)
        .collect();
    let offs: Vec<u8> = pairs
        .iter()
        .flat_map(|p| p.iter().flat_map(|&(_, o)| (o as u64).to_ne_bytes()))
        .collect();
    let send_bytes: Vec<usize> = pairs.iter().map(|p| p.len() * 8).collect();
    let recv_bytes: Vec<usize> = theirs.iter().map(|&c| c * 8).collect();
    // Point-to-point between the pairs that move something (an all-to-all
    // here could be handed an empty send buffer, whose dangling address
    // Open MPI may take for MPI_IN_PLACE).
    let got = group
        .exchange_sparse(&offs, &send_bytes, &recv_bytes)
        .map_err(core)?;
    let peer_offs: Vec<usize> = got
        .chunks_exact(8)
        .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes")) as usize)
        .collect();
    let mine: Vec<usize> = pairs.iter().flatten().map(|&(o, _)| o).collect();
    let my_counts: Vec<usize> = pairs.iter().map(|p| p.len()).collect();
    Ok(match way {
        // I receive into my offsets of R; the peers send what I asked.
        Way::Gather => Schedule::from_lists(peer_offs, theirs, mine, my_counts, me),
        // I send my offsets of B; the peers receive into what I named.
        Way::Scatter => Schedule::from_lists(mine, my_counts, peer_offs, theirs, me),
    })
}

/// Checks that `vs` holds one index array per dimension of `a` and
/// returns their subscripts on `on` (R's or B's DAD).
fn tuple_on(call: &str, a: &Dad, vs: &[(&Dad, &[i64])], on: &Dad) -> HpfResult<Vec<Vec<i64>>> {
    if vs.len() != a.rank() {
        return Err(HpfError::bad_arg(
            call,
            format!(
                "{} index arrays for a rank-{} array (one per dimension)",
                vs.len(),
                a.rank()
            ),
        ));
    }
    same_grid(call, a, on)?;
    vs.iter()
        .map(|&(vd, v)| subscripts_on(call, vd, v, on))
        .collect()
}

/// An index schedule: planned once by [`IndexSchedule::gather`] or
/// [`IndexSchedule::scatter`] (collective, with messages), then executed
/// any number of times.
#[derive(Debug)]
pub struct IndexSchedule {
    way: Way,
    a: Dad,
    other: Dad,
    plan: Schedule,
}

impl IndexSchedule {
    /// Plans `R = A(V)`: `a_dad` rank 1; `v` (subscripts of A, with A's
    /// lower bound) the local buffer of `v_dad`; `r_dad` of V's shape.
    /// Collective over the grid.
    pub fn gather(a_dad: &Dad, v_dad: &Dad, v: &[i64], r_dad: &Dad) -> HpfResult<IndexSchedule> {
        IndexSchedule::gather_tuple(a_dad, &[(v_dad, v)], r_dad)
    }

    /// Plans `R(s) = A(V1(s), .., Vn(s))` for a rank-n `a_dad`: `vs` holds
    /// n index arrays (DAD and local buffer each; one shape, any DADs),
    /// the k-th giving subscripts of A's dimension k with its lower bound;
    /// `r_dad` has the index arrays' shape. Collective over the grid.
    pub fn gather_tuple(
        a_dad: &Dad,
        vs: &[(&Dad, &[i64])],
        r_dad: &Dad,
    ) -> HpfResult<IndexSchedule> {
        IndexSchedule::named("hpf_gather_plan", true, a_dad, vs, r_dad)
    }

    /// Plans `A(V) = B`: `a_dad` rank 1; `v` the local buffer of `v_dad`;
    /// `b_dad` of V's shape. Only the cells of A that V names change;
    /// with a subscript repeated in V, which of its values lands is
    /// unspecified (Fortran does not allow it). Collective over the grid.
    pub fn scatter(b_dad: &Dad, v_dad: &Dad, v: &[i64], a_dad: &Dad) -> HpfResult<IndexSchedule> {
        IndexSchedule::scatter_tuple(b_dad, &[(v_dad, v)], a_dad)
    }

    /// Plans `A(V1(s), .., Vn(s)) = B(s)` for a rank-n `a_dad` (index
    /// arrays as in [`gather_tuple`](Self::gather_tuple), `b_dad` of their
    /// shape); as [`scatter`](Self::scatter) for repeated subscript tuples.
    /// Collective over the grid.
    pub fn scatter_tuple(
        b_dad: &Dad,
        vs: &[(&Dad, &[i64])],
        a_dad: &Dad,
    ) -> HpfResult<IndexSchedule> {
        IndexSchedule::named("hpf_scatter_plan", false, a_dad, vs, b_dad)
    }

    /// Plans a gather (`gather`: `other` is R) or a scatter (`other` is
    /// B), with errors naming `call`.
    pub(crate) fn named(
        call: &str,
        gather: bool,
        a: &Dad,
        vs: &[(&Dad, &[i64])],
        other: &Dad,
    ) -> HpfResult<IndexSchedule> {
        let way = if gather { Way::Gather } else { Way::Scatter };
        let subs = tuple_on(call, a, vs, other)?;
        let plan = plan(call, way, a, other, &subs)?;
        Ok(IndexSchedule {
            way,
            a: a.clone(),
            other: other.clone(),
            plan,
        })
    }

    /// Executes the schedule: for a gather `src` is A's local buffer and
    /// `dst` R's; for a scatter `src` is B's and `dst` A's. Collective.
    pub fn execute<T: Element>(&self, src: &[T], dst: &mut [T]) -> HpfResult<()> {
        const CALL: &str = "hpf_index_execute";
        let (sd, dd) = match self.way {
            Way::Gather => (&self.a, &self.other),
            Way::Scatter => (&self.other, &self.a),
        };
        crate::reduce::check_len(CALL, sd, src, "source")?;
        crate::reduce::check_len(CALL, dd, dst, "destination")?;
        self.plan.execute(dd, src, dst)
    }

    /// Executes a scatter schedule adding instead of storing: `A(V1(s),
    /// ..) += B(s)` for every `s`, so a cell named more than once gets the
    /// sum of all its values, as the HPF library's `SUM_SCATTER(B, A, V1,
    /// ..)` returns it. `src` is B's local buffer, `dst` A's. For a cell
    /// the values are added to its old value in a fixed order (see
    /// [`Schedule::execute_combine`]): integers exactly, reals
    /// reproducibly for one grid and pair of DADs. Numeric types only; a
    /// gather schedule is refused. Collective.
    pub fn execute_sum<T: Element>(&self, src: &[T], dst: &mut [T]) -> HpfResult<()> {
        let op = crate::combining::ScatterOp::Sum;
        self.combine("hpf_sum_scatter", op, src, None, dst)
    }

    /// A scatter schedule's B DAD, A DAD and plan; `HPF_EBADARG` naming
    /// `call` for a gather schedule.
    pub(crate) fn scatter_parts(&self, call: &str) -> HpfResult<(&Dad, &Dad, &Schedule)> {
        if self.way != Way::Scatter {
            return Err(HpfError::bad_arg(
                call,
                "the index schedule is a gather, not a scatter",
            ));
        }
        Ok((&self.other, &self.a, &self.plan))
    }

    /// The DADs of the source and the destination of [`execute`](Self::execute).
    pub fn dads(&self) -> (&Dad, &Dad) {
        match self.way {
            Way::Gather => (&self.a, &self.other),
            Way::Scatter => (&self.other, &self.a),
        }
    }
}

fn same_grid(call: &str, a: &Dad, b: &Dad) -> HpfResult<()> {
    if a.grid().id() != b.grid().id() {
        return Err(HpfError::new(
            crate::error::HPF_EMISMATCH,
            format!("{call}: the arrays lie on different grids"),
        ));
    }
    Ok(())
}
