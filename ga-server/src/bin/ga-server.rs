//! The `ga-server` binary: one per node, launched beside the compute ranks
//! (`mpiexec -n 4 app : -n 1 ga-server`).

fn main() {
    std::process::exit(ga_server::server::run());
}
