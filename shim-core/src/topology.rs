//! Cartesian process grids over MPI's own topology functions.

use crate::api::Context;
use crate::error::{CoreError, CoreResult};
use crate::mpi::{self, Comm};

/// A balanced grid of `nnodes` over `ndims` dimensions (`MPI_Dims_create`);
/// non-zero entries of `fixed` are kept.
pub fn dims_create(nnodes: i32, fixed: &[i32]) -> CoreResult<Vec<i32>> {
    if nnodes < 1 || fixed.is_empty() || fixed.iter().any(|&d| d < 0) {
        return Err(CoreError::InvalidArgument(
            "dims_create needs nnodes >= 1 and non-negative dimensions".into(),
        ));
    }
    let fixed_prod: i64 = fixed
        .iter()
        .filter(|&&d| d > 0)
        .map(|&d| d as i64)
        .product();
    if nnodes as i64 % fixed_prod != 0 {
        return Err(CoreError::InvalidArgument(format!(
            "{nnodes} processes do not divide into the fixed dimensions {fixed:?}"
        )));
    }
    let mut d = fixed.to_vec();
    mpi::dims_create(nnodes, &mut d)?;
    Ok(d)
}

/// A Cartesian grid of processes with its own communicator.
#[derive(Debug)]
pub struct CartGrid {
    comm: Comm,
    dims: Vec<i32>,
    periods: Vec<bool>,
}

impl CartGrid {
    /// Builds a grid over the world ranks of `ctx` (collective). Processes
    /// beyond the grid's size get `None`.
    pub fn create(
        ctx: Context,
        dims: &[i32],
        periods: &[bool],
        reorder: bool,
    ) -> CoreResult<Option<CartGrid>> {
        if dims.is_empty() || dims.len() != periods.len() || dims.iter().any(|&d| d < 1) {
            return Err(CoreError::InvalidArgument(
                "a grid needs one positive size and one period flag per dimension".into(),
            ));
        }
        let base = ctx.comm()?;
        let total: i64 = dims.iter().map(|&d| d as i64).product();
        if total > base.size()? as i64 {
            return Err(CoreError::InvalidArgument(format!(
                "a {dims:?} grid needs {total} processes, the world has {}",
                base.size()?
            )));
        }
        Ok(
            mpi::cart_create(base, dims, periods, reorder)?.map(|comm| CartGrid {
                comm,
                dims: dims.to_vec(),
                periods: periods.to_vec(),
            }),
        )
    }

    /// Grid sizes.
    pub fn dims(&self) -> &[i32] {
        &self.dims
    }

    /// Periodicity per dimension.
    pub fn periods(&self) -> &[bool] {
        &self.periods
    }

    /// The grid's communicator.
    pub fn comm(&self) -> Comm {
        self.comm
    }

    /// This process's rank in the grid.
    pub fn rank(&self) -> CoreResult<i32> {
        self.comm.rank()
    }

    /// Coordinates of grid rank `rank`.
    pub fn coords(&self, rank: i32) -> CoreResult<Vec<i32>> {
        if rank < 0 || rank >= self.comm.size()? {
            return Err(CoreError::InvalidArgument(format!(
                "rank {rank} is not in the grid"
            )));
        }
        mpi::cart_coords(self.comm, rank, self.dims.len())
    }

    /// Grid rank at `coords` (wrapped in periodic dimensions).
    pub fn rank_of(&self, coords: &[i32]) -> CoreResult<i32> {
        if coords.len() != self.dims.len() {
            return Err(CoreError::InvalidArgument(
                "one coordinate per dimension".into(),
            ));
        }
        for (i, (&c, &d)) in coords.iter().zip(&self.dims).enumerate() {
            if !self.periods[i] && (c < 0 || c >= d) {
                return Err(CoreError::InvalidArgument(format!(
                    "coordinate {c} outside non-periodic dimension {i} of size {d}"
                )));
            }
        }
        mpi::cart_rank(self.comm, coords)
    }

    /// Source and destination of a shift by `disp` along `dim`; `None` past a
    /// non-periodic edge.
    pub fn shift(&self, dim: usize, disp: i32) -> CoreResult<(Option<i32>, Option<i32>)> {
        if dim >= self.dims.len() {
            return Err(CoreError::InvalidArgument(format!(
                "grid has no dimension {dim}"
            )));
        }
        mpi::cart_shift(self.comm, dim as i32, disp)
    }

    /// The sub-grid keeping the dimensions flagged in `remain` (collective).
    pub fn sub(&self, remain: &[bool]) -> CoreResult<CartGrid> {
        if remain.len() != self.dims.len() {
            return Err(CoreError::InvalidArgument("one flag per dimension".into()));
        }
        let comm = mpi::cart_sub(self.comm, remain)?;
        let keep = |v: &[i32]| -> Vec<i32> {
            v.iter()
                .zip(remain)
                .filter(|(_, &r)| r)
                .map(|(&x, _)| x)
                .collect()
        };
        let dims = keep(&self.dims);
        let periods = self
            .periods
            .iter()
            .zip(remain)
            .filter(|(_, &r)| r)
            .map(|(&p, _)| p)
            .collect();
        Ok(CartGrid {
            comm,
            dims,
            periods,
        })
    }

    /// The world rank of grid rank `rank`.
    pub fn world_rank_of(&self, rank: i32) -> CoreResult<i32> {
        Ok(self
            .comm
            .translate_to(crate::roles::compute_comm()?, &[rank])?[0])
    }
}

impl Drop for CartGrid {
    fn drop(&mut self) {
        let _ = self.comm.free();
    }
}
