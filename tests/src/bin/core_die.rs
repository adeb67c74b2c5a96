//! A rank that dies must not leave the others blocked: rank 1 aborts while
//! rank 0 waits in a receive for a message that never comes. The job must
//! end (non-zero) instead of hanging, and rank 0's receive, if it returns
//! before the launcher ends the job, reports the peer as gone; the harness
//! bounds the wait.

use shim_core::{join, world_ids, world_rank, Context, Match};

fn main() {
    let _m = join("die-test").expect("join");
    let ids = world_ids().unwrap();
    let ctx = Context::create("die").unwrap();
    if world_rank().unwrap() == 1 {
        eprintln!("core_die: rank 1 aborts now");
        std::process::abort();
    }
    let r = ctx.recv(Match::new(Some(ids[1]), Some(1)), None);
    println!("core_die: rank 0 receive returned {r:?}");
    std::process::exit(3);
}
