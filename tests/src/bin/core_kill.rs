//! A peer killed mid-stream: rank 1 sends rank 0 a stream of `COUNT`
//! small messages through the same-node channel and kills itself with
//! SIGKILL. Rank 0 starts receiving after `DELAY_MS` milliseconds and goes
//! on until a receive fails; it must be told within 10 s, the error must
//! name the dead peer, and what it got must be the stream's first
//! messages in order. A killed sender keeps its promise for what is in
//! the receiver's ring: `RING_HOLDS` small messages (a 16 KiB ring of
//! 64-byte records, less the word after the last), so with `COUNT` up
//! to that every message must arrive, and with more at least that many.
//! Records the ring had no room for wait in the sender's own memory and
//! die with it.
//! Arguments: `COUNT DELAY_MS`. Run with 2 ranks and Open MPI told to
//! keep the job alive when a process dies (`orte_enable_recovery=1`,
//! `orte_abort_on_non_zero_status=0`).

use shim_core::{join, world_ids, world_rank, Context, CoreError, Match};
use std::time::{Duration, Instant};
use tests::{check, check_eq};

/// Small messages a receiver's ring holds for one sender, at least.
const RING_HOLDS: u32 = 255;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("COUNT DELAY_MS"))
        .collect();
    let [count, delay_ms] = args[..] else {
        panic!("usage: core_kill COUNT DELAY_MS");
    };
    let _m = join("kill-test").expect("join");
    let ids = world_ids().expect("ids");
    let ctx = Context::create("kill").expect("context");
    if world_rank().expect("rank") == 1 {
        for seq in 0..count {
            ctx.send(ids[0], 1, 0, &seq.to_le_bytes()).expect("send");
        }
        // The kill command, so the test needs no unsafe code.
        std::process::Command::new("kill")
            .args(["-KILL", &std::process::id().to_string()])
            .status()
            .expect("kill");
        unreachable!("rank 1 was killed");
    }
    std::thread::sleep(Duration::from_millis(delay_ms.into()));
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
    println!("core_kill: receive failed after {next} of {count} messages, {waited:?}: {outcome}");
    check!(
        next >= count.min(RING_HOLDS),
        "every message the ring holds arrived: {next} of {count}"
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
