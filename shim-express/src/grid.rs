//! Processor grids: `exgridinit`, `exgridsize`, `exgridsplit`,
//! `exgridcoord`, `exgridnode`, `exgridshift`, `exgridnbr`.
//!
//! A grid is a Cartesian arrangement of all nodes (the host is never in a
//! grid), numbered by ids 0, 1, 2... in creation order; every node creates
//! the same grids in the same order, so an id means the same grid
//! everywhere. Nodes fill the grid in node order, the last dimension
//! fastest (row-major, as `MPI_Cart_create` without reordering).
//! Coordinates and dimension numbers count from 0, in C and Fortran alike.
//! Every node argument and result is a node number usable with
//! `exwrite`/`exread`; past a non-periodic edge the neighbour is
//! `EXNONODE`.

use crate::error::{ExError, ExResult, EXBADARG, EXBADGRID, EXBADNODE, EXNOTMEMBER};
use crate::layer::{with, Express, EXNONODE};
use crate::msg::pump;
use shim_core::collective::Group;
use shim_core::mpi::{self, Comm};
use shim_core::topology;

/// One grid.
#[derive(Debug)]
pub struct Grid {
    comm: Comm,
    dims: Vec<i32>,
    periods: Vec<bool>,
    /// Node number of each grid rank.
    nodes: Vec<i32>,
}

fn core<T>(call: &str, r: shim_core::CoreResult<T>) -> ExResult<T> {
    r.map_err(|e| ExError::core(call, e))
}

fn bad_grid(call: &str, msg: String) -> ExError {
    ExError::new(EXBADGRID, format!("{call}: {msg}"))
}

/// Fills the zero entries of `dims` with a balanced factorisation of
/// `nnodes` (`MPI_Dims_create`); non-zero entries are kept.
pub fn size(call: &str, nnodes: i32, dims: &mut [i32]) -> ExResult<()> {
    if nnodes < 1 || dims.is_empty() || dims.iter().any(|&d| d < 0) {
        return Err(bad_grid(
            call,
            format!("cannot split {nnodes} nodes over dimensions {dims:?}"),
        ));
    }
    let d = topology::dims_create(nnodes, dims).map_err(|e| bad_grid(call, e.to_string()))?;
    dims.copy_from_slice(&d);
    Ok(())
}

/// Node numbers of the grid ranks of `comm` (collective over it).
fn node_map(call: &str, comm: Comm, me: i32) -> ExResult<Vec<i32>> {
    let (all, _) = core(call, Group::of(comm).allgatherv(&me.to_le_bytes()))?;
    Ok(all
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

fn add(x: &mut Express, g: Grid) -> i32 {
    x.grids.push(g);
    x.grids.len() as i32 - 1
}

/// Creates a grid of all nodes (collective over the nodes); zero entries
/// of `dims` are chosen, and the sizes written back. Returns the grid id.
pub fn init(call: &str, dims: &mut [i32], periods: &[bool]) -> ExResult<i32> {
    pump(call)?;
    with(call, |x| {
        let Some(nodes) = x.nodes else {
            return Err(ExError::new(
                EXNOTMEMBER,
                format!("{call}: the host is not a node and is in no grid"),
            ));
        };
        size(call, x.nprocs(), dims)?;
        let total: i64 = dims.iter().map(|&d| d as i64).product();
        if total != x.nprocs() as i64 {
            return Err(bad_grid(
                call,
                format!(
                    "a {dims:?} grid has {total} places for {} nodes",
                    x.nprocs()
                ),
            ));
        }
        let comm = core(call, mpi::cart_create(nodes, dims, periods, false))?
            .ok_or_else(|| bad_grid(call, "this node is outside the grid".into()))?;
        let map = node_map(call, comm, x.me)?;
        Ok(add(
            x,
            Grid {
                comm,
                dims: dims.to_vec(),
                periods: periods.to_vec(),
                nodes: map,
            },
        ))
    })
}

fn grid<'a>(call: &str, x: &'a Express, id: i32) -> ExResult<&'a Grid> {
    usize::try_from(id)
        .ok()
        .and_then(|i| x.grids.get(i))
        .ok_or_else(|| bad_grid(call, format!("no grid has id {id}")))
}

/// The sub-grid of grid `id` keeping the dimensions flagged in `remain`
/// (collective over the grid); returns its id. Each node gets the
/// sub-grid it is in.
pub fn split(call: &str, id: i32, remain: &[bool]) -> ExResult<i32> {
    pump(call)?;
    with(call, |x| {
        let g = grid(call, x, id)?;
        if remain.len() != g.dims.len() {
            return Err(ExError::new(
                EXBADARG,
                format!(
                    "{call}: {} flags for {} dimensions",
                    remain.len(),
                    g.dims.len()
                ),
            ));
        }
        let comm = core(call, mpi::cart_sub(g.comm, remain))?;
        let keep = |i: usize| remain[i];
        let dims: Vec<i32> = (0..g.dims.len())
            .filter(|&i| keep(i))
            .map(|i| g.dims[i])
            .collect();
        let periods: Vec<bool> = (0..g.dims.len())
            .filter(|&i| keep(i))
            .map(|i| g.periods[i])
            .collect();
        let map = node_map(call, comm, x.me)?;
        Ok(add(
            x,
            Grid {
                comm,
                dims,
                periods,
                nodes: map,
            },
        ))
    })
}

/// Number of dimensions and sizes of grid `id`.
pub fn shape(call: &str, id: i32) -> ExResult<Vec<i32>> {
    pump(call)?;
    with(call, |x| Ok(grid(call, x, id)?.dims.clone()))
}

/// Coordinates of `node` in grid `id`.
pub fn coord(call: &str, id: i32, node: i32) -> ExResult<Vec<i32>> {
    pump(call)?;
    with(call, |x| {
        let g = grid(call, x, id)?;
        let Some(r) = g.nodes.iter().position(|&n| n == node) else {
            return Err(ExError::new(
                EXBADNODE,
                format!("{call}: node {node} is not in grid {id}"),
            ));
        };
        core(call, mpi::cart_coords(g.comm, r as i32, g.dims.len()))
    })
}

/// The node at `coords` of grid `id` (wrapped in periodic dimensions).
pub fn node(call: &str, id: i32, coords: &[i32]) -> ExResult<i32> {
    pump(call)?;
    with(call, |x| {
        let g = grid(call, x, id)?;
        for (i, &c) in coords.iter().enumerate() {
            if !g.periods[i] && (c < 0 || c >= g.dims[i]) {
                return Err(ExError::new(
                    EXBADARG,
                    format!(
                        "{call}: coordinate {c} is outside dimension {i} of size {}",
                        g.dims[i]
                    ),
                ));
            }
        }
        let r = core(call, mpi::cart_rank(g.comm, coords))?;
        Ok(g.nodes[r as usize])
    })
}

/// Source and destination nodes of a shift by `disp` along `dim`
/// (`EXNONODE` past a non-periodic edge).
pub fn shift(call: &str, id: i32, dim: i32, disp: i32) -> ExResult<(i32, i32)> {
    pump(call)?;
    with(call, |x| {
        let g = grid(call, x, id)?;
        if dim < 0 || dim as usize >= g.dims.len() {
            return Err(ExError::new(
                EXBADARG,
                format!("{call}: grid {id} has no dimension {dim}"),
            ));
        }
        let (s, d) = core(call, mpi::cart_shift(g.comm, dim, disp))?;
        let f = |r: Option<i32>| r.map(|r| g.nodes[r as usize]).unwrap_or(EXNONODE);
        Ok((f(s), f(d)))
    })
}

/// Number of dimensions of grid `id`.
pub fn ndims(call: &str, id: i32) -> ExResult<usize> {
    pump(call)?;
    with(call, |x| Ok(grid(call, x, id)?.dims.len()))
}
