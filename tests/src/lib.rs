//! The test harness: runs programs under `mpiexec` with a hard timeout,
//! builds C and Fortran programs against the installed headers and
//! libraries, and gives the multi-rank test programs a way to report checks.

pub mod check;
pub mod cluster;
pub mod ga_compare;
pub mod mpirun;
pub mod native;
pub mod procids;
pub mod tally;
pub mod trace_text;
