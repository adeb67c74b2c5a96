//! A peer killed mid-stream: rank 1 sends rank 0 a stream of `COUNT`
//! small messages through the same-node channel and kills itself with
//! SIGKILL. Rank 0 receives at once (`now`) or only once rank 1 is gone
//! (`late`), and goes on until a receive fails; it must be told within
//! 10 s, the error must name the dead peer, and what it got must be the
//! stream's first messages in order. A killed sender keeps its promise
//! for what is in the receiver's ring: `RING_HOLDS` small messages (a
//! 16 KiB ring of 64-byte records, less the word after the last), so
//! with `COUNT` up to that every message must arrive, and with more at
//! least that many. Records the ring had no room for wait in the
//! sender's own memory and die with it.
//! Arguments: `COUNT now|late`. Run with 2 ranks and Open MPI told to
//! keep the job alive when a process dies (`orte_enable_recovery=1`,
//! `orte_abort_on_non_zero_status=0`).

use shim_core::api::peer_gone;
use shim_core::{join, world_ids, world_rank, Context, CoreError, Match};
use std::time::{Duration, Instant};
use tests::{check, check_eq};

/// Small messages a receiver's ring holds for one sender, at least.
const RING_HOLDS: u32 = 255;

fn main() {
    const USAGE: &str = "usage: core_kill COUNT now|late";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [count, when] = &args[..] else {
        panic!("{USAGE}");
    };
    let count: u32 = count.parse().expect(USAGE);
    let late = match when.as_str() {
        "now" => false,
        "late" => true,
        _ => panic!("{USAGE}"),
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
    if late {
        // Every record is where the kill left it: in the ring, or lost
        // with the sender's backlog.
        let until = Instant::now() + Duration::from_secs(10);
        let gone = loop {
            if peer_gone(ids[1]).expect("peer_gone") {
                break true;
            }
            if Instant::now() >= until {
                break false;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        check!(gone, "rank 1 ended within 10 s");
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
