//! The run-time's start and stop on the shared core, and processor grids:
//! Cartesian arrangements (1-D to 3-D) of all compute processes, built on
//! the core's topology (`MPI_Cart_create` without reordering, so grid ranks
//! fill the grid in row-major order, the last dimension fastest).
//!
//! Creating a grid is collective: every process creates the same grids in
//! the same order, so a grid's id means the same grid everywhere.

use crate::error::{HpfError, HpfResult, HPF_ENOTINIT};
use shim_core::collective::Group;
use shim_core::topology::{self, CartGrid};
use shim_core::{Context, Membership};
use std::sync::{Arc, Mutex};

/// The core context name of the run-time.
const CONTEXT_NAME: &str = "hpf-rts";
/// Most grid dimensions this step supports.
pub const MAX_GRID_DIMS: usize = 3;

struct Runtime {
    membership: Membership,
    ctx: Context,
    next_grid: u32,
}

static RUNTIME: Mutex<Option<Runtime>> = Mutex::new(None);

fn runtime() -> std::sync::MutexGuard<'static, Option<Runtime>> {
    RUNTIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the run-time (collective over all processes; a second call does
/// nothing).
pub fn init() -> HpfResult<()> {
    let mut rt = runtime();
    if rt.is_some() {
        return Ok(());
    }
    let membership = shim_core::join("hpf-rts").map_err(|e| HpfError::core("hpf_init", e))?;
    let ctx = Context::create(CONTEXT_NAME).map_err(|e| HpfError::core("hpf_init", e))?;
    shim_core::log::tracing::debug!(target: "hpf", "HPF run-time started");
    *rt = Some(Runtime {
        membership,
        ctx,
        next_grid: 1,
    });
    Ok(())
}

/// Stops the run-time (the core finalises MPI after its last layer left).
/// Grids must be dropped before.
pub fn finalize() -> HpfResult<()> {
    crate::schedule::clear_cache();
    let rt = runtime().take();
    match rt {
        Some(r) => shim_core::leave(r.membership).map_err(|e| HpfError::core("hpf_finalize", e)),
        None => Ok(()),
    }
}

/// Number of compute processes.
pub fn nprocs() -> HpfResult<i32> {
    let rt = runtime();
    let r = rt
        .as_ref()
        .ok_or_else(|| HpfError::new(HPF_ENOTINIT, "hpf_nprocs: run-time not initialised"))?;
    r.ctx
        .comm()
        .and_then(|c| c.size())
        .map_err(|e| HpfError::core("hpf_nprocs", e))
}

/// A processor grid.
#[derive(Debug)]
pub struct ProcGrid {
    id: u32,
    cart: CartGrid,
    dims: Vec<usize>,
    /// Coordinates of every grid rank.
    coords: Vec<Vec<usize>>,
    rank: usize,
    /// Per grid dimension, the communicator of this process's line along
    /// it (made on first use).
    lines: Mutex<Vec<Option<Group>>>,
}

impl ProcGrid {
    /// A grid of all processes with sizes `dims`; zero entries are filled
    /// with a balanced factorisation (collective).
    pub fn new(dims: &[i32]) -> HpfResult<Arc<ProcGrid>> {
        const CALL: &str = "hpf_grid_create";
        if dims.is_empty() || dims.len() > MAX_GRID_DIMS {
            return Err(HpfError::bad_arg(
                CALL,
                format!(
                    "a grid has 1 to {MAX_GRID_DIMS} dimensions, not {}",
                    dims.len()
                ),
            ));
        }
        if let Some(d) = dims.iter().find(|&&d| d < 0) {
            return Err(HpfError::bad_arg(
                CALL,
                format!("grid size {d} is negative"),
            ));
        }
        let (ctx, id) = {
            let mut rt = runtime();
            let r = rt.as_mut().ok_or_else(|| {
                HpfError::new(HPF_ENOTINIT, format!("{CALL}: run-time not initialised"))
            })?;
            let id = r.next_grid;
            r.next_grid += 1;
            (r.ctx, id)
        };
        let core = |e| HpfError::core(CALL, e);
        let n = ctx.comm().and_then(|c| c.size()).map_err(core)?;
        let full = topology::dims_create(n, dims).map_err(core)?;
        let total: i64 = full.iter().map(|&d| d as i64).product();
        if total != n as i64 {
            return Err(HpfError::bad_arg(
                CALL,
                format!("a {full:?} grid has {total} places for {n} processes"),
            ));
        }
        let periods = vec![false; full.len()];
        let cart = CartGrid::create(ctx, &full, &periods, false)
            .map_err(core)?
            .ok_or_else(|| HpfError::bad_arg(CALL, "this process is not in the grid"))?;
        let mut coords = Vec::with_capacity(n as usize);
        for r in 0..n {
            coords.push(
                cart.coords(r)
                    .map_err(core)?
                    .iter()
                    .map(|&c| c as usize)
                    .collect(),
            );
        }
        let rank = cart.rank().map_err(core)? as usize;
        let g = ProcGrid {
            id,
            dims: full.iter().map(|&d| d as usize).collect(),
            cart,
            coords,
            rank,
            lines: Mutex::new((0..full.len()).map(|_| None).collect()),
        };
        for (r, c) in g.coords.iter().enumerate() {
            if g.rank_of(c) != r {
                return Err(HpfError::new(
                    crate::error::HPF_ESYSTEM,
                    format!("{CALL}: grid rank {r} is not at row-major place {c:?}"),
                ));
            }
        }
        Ok(Arc::new(g))
    }

    /// The grid's id (the same on every process).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Grid sizes.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// Number of processes.
    pub fn size(&self) -> usize {
        self.coords.len()
    }

    /// This process's grid rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Coordinates of grid rank `r`.
    pub fn coords_of(&self, r: usize) -> &[usize] {
        &self.coords[r]
    }

    /// This process's coordinates.
    pub fn my_coords(&self) -> &[usize] {
        &self.coords[self.rank]
    }

    /// Grid rank at `coords` (row-major, last dimension fastest).
    pub fn rank_of(&self, coords: &[usize]) -> usize {
        coords
            .iter()
            .zip(&self.dims)
            .fold(0, |acc, (&c, &d)| acc * d + c)
    }

    /// Collectives over the grid.
    pub fn group(&self) -> Group {
        Group::of(self.cart.comm())
    }

    /// Grid ranks of this process's line along grid dimension `gdim`
    /// (the processes whose coordinates differ from this one's only
    /// there), in coordinate order.
    pub fn line_ranks(&self, gdim: usize) -> Vec<usize> {
        let mut c = self.my_coords().to_vec();
        (0..self.dims[gdim])
            .map(|x| {
                c[gdim] = x;
                self.rank_of(&c)
            })
            .collect()
    }

    /// Runs `f` with the collectives of this process's line along grid
    /// dimension `gdim`, whose group rank is the coordinate along `gdim`.
    /// The line's communicator is made on the first call (collective over
    /// the line only) and kept with the grid.
    pub fn with_line<R>(&self, gdim: usize, f: impl FnOnce(&Group) -> R) -> HpfResult<R> {
        const CALL: &str = "hpf line communicator";
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let slot = lines
            .get_mut(gdim)
            .ok_or_else(|| HpfError::bad_arg(CALL, format!("the grid has no dimension {gdim}")))?;
        if slot.is_none() {
            let ranks: Vec<i32> = self.line_ranks(gdim).iter().map(|&r| r as i32).collect();
            *slot =
                Some(Group::create(self.cart.comm(), &ranks).map_err(|e| HpfError::core(CALL, e))?);
        }
        Ok(f(slot.as_ref().expect("line made above")))
    }
}
