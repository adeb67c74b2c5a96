//! Compiles the small C file holding MPI's macro constants with the MPI
//! compiler wrapper, so the values always match the MPI we link against.

fn main() {
    println!("cargo:rerun-if-changed=csrc/mpi_constants.c");
    println!("cargo:rerun-if-env-changed=MPICC");
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".to_string());
    cc::Build::new()
        .compiler(mpicc)
        .file("csrc/mpi_constants.c")
        .compile("mpbridge_mpi_constants");
}
