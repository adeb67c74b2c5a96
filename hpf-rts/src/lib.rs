//! hpf-rts: the HPF / Fortran 90D style distributed-array run-time on the
//! shared core.
//!
//! - [`grid`]: start and stop, processor grids (1-D to 3-D) on the core's
//!   Cartesian topology.
//! - [`dad`]: the distributed array descriptor and the ownership functions
//!   (collapsed, BLOCK, CYCLIC, CYCLIC(k), GEN_BLOCK, overlap areas, NUMROC).
//! - [`pattern`]: owner patterns, the distribution an alignment leaves when
//!   no regular one describes it.
//! - [`align`]: alignment of array dimensions to template dimensions
//!   (`ALIGN A(i) WITH T(stride*i + offset)`).
//! - [`element`]: element types (INTEGER*4/8, REAL*4/8, COMPLEX*8/16,
//!   LOGICAL).
//! - [`reduce`]: the reduction intrinsics and their documented order.
//! - [`reduce_dim`]: the reductions with DIM and MASK.
//! - [`schedule`]: communication schedules (remap, CSHIFT, overlap
//!   update), planned once and cached.
//! - [`section`]: array sections (`lo:hi:stride` and scalar subscripts)
//!   as views, and the section copy between any two DADs.
//! - [`unstructured`]: RESHAPE, PACK and UNPACK.
//! - [`indexed`]: gather and scatter through index arrays, on schedules
//!   planned once (with messages) and executed many times.
//! - [`combining`]: the HPF library's combining scatters (SUM_, PRODUCT_,
//!   MAXVAL_, .. IPARITY_SCATTER) with MASK, on scatter schedules.
//! - [`matmul`]: MATMUL by SUMMA with local products on the system BLAS.
//! - [`darray`]: `DArray<T>`, a distributed array owning its local buffer.
//! - [`capi`]: the C API of `hpf_rts.h`.
//! - [`twins`]: the entry points whose C and Fortran forms take the same
//!   arguments, each declared once for both.
//! - [`fapi`]: the Fortran 77 entry points (`hpf_rts.fh`).

pub mod align;
pub mod blas;
pub mod capi;
pub mod combining;
pub mod dad;
pub mod darray;
pub mod element;
pub mod error;
pub mod fapi;
pub mod grid;
pub mod indexed;
pub mod matmul;
pub mod pattern;
mod ptr;
pub mod reduce;
pub mod reduce_dim;
pub mod schedule;
pub mod section;
pub mod twins;
pub mod unstructured;

pub use align::Align;
pub use combining::ScatterOp;
pub use dad::{numroc, Dad, DimSpec, Dist};
pub use darray::DArray;
pub use element::{Complex16, Complex8, ElemKind, Element, Logical};
pub use error::{HpfError, HpfResult};
pub use grid::{finalize, init, nprocs, ProcGrid};
pub use indexed::IndexSchedule;
pub use matmul::Gemm;
pub use section::{Section, Subscript};
