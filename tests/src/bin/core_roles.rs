//! Server ranks are hidden from the compute ranks' world. Launched as
//! `mpiexec -n N core_roles : -n 1 core_roles server`: the compute ranks
//! check that their world holds only them and that messages still flow in
//! a ring; the server checks the layout it sees.

use shim_core::roles::{self, Role};
use shim_core::{join, leave, world_ids, world_rank, Context, Match};
use tests::{check, check_eq};

fn main() {
    if std::env::args().nth(1).as_deref() == Some("server") {
        let layout = roles::enter_as_server().expect("server role");
        check_eq!(layout.my_role(), Role::Server, "server role");
        check_eq!(layout.servers.len(), 1, "one server in the job");
        check_eq!(
            layout.compute.len() + 1,
            layout.world_size as usize,
            "everyone else computes"
        );
        check!(
            layout.server_of_node(layout.my_node()) == Some(layout.world_rank),
            "the server serves its own node"
        );
        check!(
            roles::compute_comm().is_err(),
            "a server has no compute world"
        );
        shim_core::mpi::finalize().expect("finalize");
        tests::check::finish("core_roles server");
    }
    let m = join("roles-test").expect("join");
    let layout = roles::layout().expect("layout");
    let ids = world_ids().expect("ids");
    let rank = world_rank().expect("rank") as usize;
    let n = ids.len();
    check_eq!(
        n,
        layout.compute.len(),
        "world holds the compute ranks only"
    );
    check_eq!(
        roles::compute_comm()
            .expect("compute comm")
            .size()
            .expect("size") as usize,
        n,
        "compute communicator size"
    );
    check_eq!(
        layout.compute[rank],
        layout.world_rank,
        "compute rank maps to this world rank"
    );
    check_eq!(layout.my_role(), Role::Compute, "compute role");
    let server = layout.server_of_node(layout.my_node());
    check!(server.is_some(), "a server runs on this node");
    let ctx = Context::create("roles-ring").expect("context");
    let right = ids[(rank + 1) % n];
    let left = ids[(rank + n - 1) % n];
    ctx.send(right, 3, 0, &(rank as u64).to_le_bytes())
        .expect("send");
    let mut got = [0u8; 8];
    ctx.recv_into(Match::new(Some(left), Some(3)), &mut got, None)
        .expect("recv");
    check_eq!(
        u64::from_le_bytes(got) as usize,
        (rank + n - 1) % n,
        "ring message from the left compute rank"
    );
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(&format!("core_roles rank {rank}"));
}
