//! Array-wide and patch operations of the GA APIs, in Rust on top of the
//! client core, in the C API's index convention (0-based, row-major, `hi`
//! inclusive). Every function is collective and takes the name of the
//! user's call, so its errors name the call the user made.
//!
//! The C API calls them directly. The Fortran API converts first: each
//! lo/hi reversed and minus 1; for `ga_dgemm(ta,tb,m,n,k,A,B,C)` it calls
//! [`gemm`] with `(tb,ta,n,m,k,B,A,C)` (a column-major product is the
//! row-major product of the transposes); [`print`] already shows arrays in
//! Fortran order, as GA does for both languages. Scalars (alpha, beta,
//! fill values) are the native bytes of one element of the array's type.

pub mod basic;
pub mod elem;
pub mod elementwise;
pub mod fields;
pub mod gemm;
pub mod memory;
pub mod pack_scan;
pub mod patch;
pub mod print;

pub use basic::{
    add, add_patch, copy, copy_patch, ddot, dot, dot_patch, fill, fill_patch, randomize, scale,
    scale_patch, symmetrize, transpose, zero, zero_patch,
};
pub use gemm::{gemm, matmul_patch};
pub use print::{
    print, print_distribution, print_patch, print_to, render, same_distribution, summarize,
};
