//! Ordering stress: every process sends every other one a stream of
//! messages of random sizes on both sides of each size threshold (inline in
//! a ring record, just over the inline limit, over a ring's record limit,
//! large), with tags that depend on the sequence number, while receiving
//! with random patterns (any source and tag, a named source, a named source
//! and tag). Each received message must be, among the ones not received yet
//! from its sender, the first that the pattern accepts, and its bytes must
//! be intact (a checksum over content derived from sender and sequence).
//!
//! `mpiexec -n N core_order [PER_PAIR]` runs it on the static world;
//! `mpiexec -n 1 core_order PER_PAIR spawn K` has the first process spawn K
//! children and run it among all K + 1 (links made by spawn, and between
//! the children's own world).

use shim_core::envelope::INLINE_MAX;
use shim_core::{join, leave, my_id, parent, spawn, world_ids, Context, Match, ProcId};
use std::collections::HashMap;
use std::time::Duration;
use tests::{check, check_eq, procids};

const DIRECTORY: i32 = -7;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut r =
        Rng(a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.rotate_left(21) ^ c.rotate_left(42) | 1);
    r.next()
}

/// The tag of message `seq` from `src` to `dst` (0..4).
fn tag_of(src: ProcId, dst: ProcId, seq: u32) -> i32 {
    (mix(src.raw() as u64, dst.raw() as u64, seq as u64) % 4) as i32
}

/// The size of message `seq` from `src` to `dst`.
fn size_of(src: ProcId, dst: ProcId, seq: u32) -> usize {
    let r = mix(dst.raw() as u64, src.raw() as u64, seq as u64 + 1_000_000);
    let jitter = (r >> 8) as usize;
    match r % 8 {
        0..=2 => 16 + jitter % 64,
        3 => 64 + jitter % 4000,
        4 => INLINE_MAX - 40 + jitter % 80,
        5 => 8100 + jitter % 200,
        6 => 16 * 1024 + jitter % 50_000,
        _ => 200 * 1024 + jitter % 4096,
    }
}

/// The bytes of message `seq` from `src`: the sequence number, then
/// content derived from both, then a checksum of everything before it.
fn body(src: ProcId, seq: u32, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len);
    v.extend_from_slice(&seq.to_le_bytes());
    let mut r = Rng(mix(src.raw() as u64, seq as u64, 7) | 1);
    while v.len() + 8 < len {
        v.push(r.next() as u8);
    }
    let sum = checksum(&v);
    v.extend_from_slice(&sum.to_le_bytes()[..len - v.len()]);
    v
}

fn checksum(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
        (h ^ *x as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn run(ctx: Context, done: Context, me: ProcId, peers: &[ProcId], per_pair: u32) {
    let mut rng = Rng(mix(me.raw() as u64, 1, 2) | 1);
    // Sends first, interleaving destinations at random; a blocked large
    // send serves arrivals meanwhile, so all ranks sending at once is safe.
    let mut next_out: Vec<u32> = vec![0; peers.len()];
    let mut left: Vec<usize> = (0..peers.len()).collect();
    while !left.is_empty() {
        let k = rng.below(left.len() as u64) as usize;
        let p = left[k];
        let dst = peers[p];
        let seq = next_out[p];
        let data = body(me, seq, size_of(me, dst, seq));
        ctx.send(dst, tag_of(me, dst, seq), 0, &data).expect("send");
        next_out[p] += 1;
        if next_out[p] == per_pair {
            left.swap_remove(k);
        }
    }
    // Receives with random patterns.
    let mut got: HashMap<ProcId, Vec<bool>> = peers
        .iter()
        .map(|p| (*p, vec![false; per_pair as usize]))
        .collect();
    let mut remaining = per_pair as usize * peers.len();
    let mut bad = 0;
    while remaining > 0 {
        let open: Vec<ProcId> = peers
            .iter()
            .copied()
            .filter(|p| got[p].iter().any(|g| !g))
            .collect();
        let src = open[rng.below(open.len() as u64) as usize];
        let first = got[&src].iter().position(|g| !g).expect("one left") as u32;
        let pattern = match rng.below(3) {
            0 => Match::new(None, None),
            1 => Match::new(Some(src), None),
            // A tag that is certainly still pending from `src`.
            _ => Match::new(Some(src), Some(tag_of(src, me, first))),
        };
        let m = ctx
            .recv(pattern, Some(Duration::from_secs(60)))
            .expect("receive");
        let seq = u32::from_le_bytes(m.data[..4].try_into().expect("seq"));
        let from = m.source;
        let Some(flags) = got.get_mut(&from) else {
            check!(false, "message from an unknown process {from}");
            bad += 1;
            continue;
        };
        // The earliest pending message of `from` that the pattern accepts.
        let expect = (0..per_pair)
            .find(|&s| !flags[s as usize] && pattern.tag.is_none_or(|t| t == tag_of(from, me, s)));
        if Some(seq) != expect {
            bad += 1;
        }
        check_eq!(Some(seq), expect, "order from {from} under {pattern:?}");
        check_eq!(m.tag, tag_of(from, me, seq), "tag of {from}#{seq}");
        let len = size_of(from, me, seq);
        check!(
            m.data.len() == len && m.data == body(from, seq, len),
            "content of {from}#{seq} ({} bytes, {len} sent)",
            m.data.len()
        );
        if (seq as usize) < flags.len() && !flags[seq as usize] {
            flags[seq as usize] = true;
            remaining -= 1;
        } else {
            bad += 1;
            if bad > 20 {
                break;
            }
        }
    }
    check_eq!(remaining, 0, "every message arrived");
    // Nobody leaves before everyone received (a leaving process closes its
    // rings); this goes on a context of its own, out of the patterns' way.
    for &p in peers {
        done.send(p, 0, 0, b"done").expect("done");
    }
    for _ in peers {
        done.recv(Match::new(None, None), Some(Duration::from_secs(60)))
            .expect("done from a peer");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let per_pair: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let m = join("order-test").expect("join");
    let ctx = Context::create("order").expect("context");
    let done = Context::create("order.done").expect("context");
    let me = my_id().expect("id");
    let name = if args.get(2).map(String::as_str) == Some("spawn") {
        // The parent spawns K children and tells them who takes part.
        let k: i32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(3);
        let exe = std::env::current_exe().expect("own path");
        let kids: Vec<ProcId> = spawn(
            &exe.to_string_lossy(),
            &[per_pair.to_string(), "child".into()],
            k,
        )
        .expect("spawn")
        .into_iter()
        .map(|s| s.expect("child started"))
        .collect();
        let mut all = vec![me];
        all.extend(&kids);
        for &c in &kids {
            ctx.send(c, DIRECTORY, 0, &procids::to_bytes(&all))
                .expect("directory");
        }
        run(ctx, done, me, &kids, per_pair);
        "core_order parent"
    } else if args.get(2).map(String::as_str) == Some("child") {
        let up = parent().expect("parent").expect("spawned");
        let dir = ctx
            .recv(
                Match::new(Some(up), Some(DIRECTORY)),
                Some(Duration::from_secs(60)),
            )
            .expect("directory");
        let peers: Vec<ProcId> = procids::from_bytes(&dir.data)
            .into_iter()
            .filter(|p| *p != me)
            .collect();
        run(ctx, done, me, &peers, per_pair);
        "core_order child"
    } else {
        let peers: Vec<ProcId> = world_ids()
            .expect("ids")
            .into_iter()
            .filter(|p| *p != me)
            .collect();
        run(ctx, done, me, &peers, per_pair);
        "core_order"
    };
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(&format!("{name} {me}"));
}
