//! A peer killed mid-stream: rank 1 sends rank 0 a stream of messages
//! through the same-node channel and kills itself with SIGKILL half-way.
//! Rank 0 receives from it until a receive fails, and must be told within
//! 10 s, having received every message sent before the kill, in order.
//! Run with 2 ranks and Open MPI told to keep the job alive when a process
//! dies (`orte_enable_recovery=1`, `orte_abort_on_non_zero_status=0`).

use shim_core::{join, world_ids, world_rank, Context, CoreError, Match};
use std::time::{Duration, Instant};
use tests::{check, check_eq};

const SENT_BEFORE_KILL: u32 = 500;

fn main() {
    let _m = join("kill-test").expect("join");
    let ids = world_ids().expect("ids");
    let ctx = Context::create("kill").expect("context");
    if world_rank().expect("rank") == 1 {
        for seq in 0..SENT_BEFORE_KILL {
            ctx.send(ids[0], 1, 0, &seq.to_le_bytes()).expect("send");
        }
        // The kill command, so the test needs no unsafe code.
        std::process::Command::new("kill")
            .args(["-KILL", &std::process::id().to_string()])
            .status()
            .expect("kill");
        unreachable!("rank 1 was killed");
    }
    let start = Instant::now();
    let mut next = 0u32;
    let outcome = loop {
        match ctx.recv(Match::new(Some(ids[1]), Some(1)), None) {
            Ok(m) => {
                let seq = u32::from_le_bytes(m.data[..4].try_into().expect("seq"));
                check_eq!(seq, next, "messages before the kill arrive in order");
                next = seq + 1;
            }
            Err(e) => break e,
        }
    };
    let waited = start.elapsed();
    println!("core_kill: receive failed after {next} messages, {waited:?}: {outcome}");
    check_eq!(
        next,
        SENT_BEFORE_KILL,
        "every message sent before the kill arrived"
    );
    check!(
        matches!(outcome, CoreError::UnknownPeer(p) if p == ids[1]),
        "the error names the dead peer: {outcome:?}"
    );
    check!(
        waited < Duration::from_secs(10),
        "told within 10 s ({waited:?})"
    );
    tests::check::finish("core_kill rank 0");
}
