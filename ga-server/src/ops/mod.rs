//! Array-wide and patch operations of the GA APIs, in Rust on top of the
//! client core, in the C API's index convention (0-based, row-major, `hi`
//! inclusive). The C API calls them directly; the Fortran API converts its
//! indices first. Every function takes the name of the user's call, so
//! its errors name the call the user made.

pub mod basic;
pub mod elem;
pub mod gemm;
pub mod patch;
pub mod print;

pub use basic::{
    add, add_patch, copy, copy_patch, ddot, dot, dot_patch, fill, fill_patch, scale, scale_patch,
    symmetrize, transpose, zero, zero_patch,
};
pub use gemm::{gemm, matmul_patch};
pub use print::{print, print_distribution, render, same_distribution, summarize};
