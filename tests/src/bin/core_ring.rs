//! A token travels around all ranks of the world; every rank adds its rank
//! number. Rank 0 checks the sum and prints the time per hop.
//! Usage: core_ring [ROUNDS]

use shim_core::{join, leave, world_ids, world_rank, Context, Match};
use tests::{check, check_eq};

fn main() {
    let rounds: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let m = join("ring-test").expect("join");
    let ids = world_ids().expect("ids");
    let rank = world_rank().expect("rank") as usize;
    let n = ids.len();
    let ctx = Context::create("ring").expect("context");
    let right = ids[(rank + 1) % n];
    let left = ids[(rank + n - 1) % n];
    let from_left = Match::new(Some(left), Some(7));
    let mut token = [0u8; 8];
    // One warm-up round, then the timed rounds.
    let total = rounds + 1;
    let mut start = std::time::Instant::now();
    for round in 0..total {
        if round == 1 {
            start = std::time::Instant::now();
        }
        if rank == 0 {
            ctx.send(right, 7, 0, &token).expect("send");
            let r = ctx.recv_into(from_left, &mut token, None).expect("recv");
            check_eq!(r.source, left, "token comes from the left neighbour");
        } else {
            ctx.recv_into(from_left, &mut token, None).expect("recv");
            let v = u64::from_le_bytes(token) + rank as u64;
            token = v.to_le_bytes();
            ctx.send(right, 7, 0, &token).expect("send");
        }
    }
    let elapsed = start.elapsed();
    if rank == 0 {
        let per_round: u64 = (0..n as u64).sum();
        check_eq!(
            u64::from_le_bytes(token),
            per_round * total,
            "token sum after {total} rounds"
        );
        let hops = (rounds * n as u64) as f64;
        let hop_us = elapsed.as_secs_f64() * 1e6 / hops;
        println!("ring: ranks={n} rounds={rounds} hop_us={hop_us:.3}");
    }
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(&format!("core_ring rank {rank}"));
}
