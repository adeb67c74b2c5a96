//! Message semantics of the core on 2 to 4 ranks: pairwise order, wildcards,
//! contexts, timeouts, probe, large and odd-sized messages, simultaneous
//! large exchanges, truncation, self-sends and bad arguments.

use shim_core::envelope::INLINE_MAX;
use shim_core::{join, leave, world_ids, world_rank, Context, CoreError, Match, ProcId};
use std::time::{Duration, Instant};
use tests::{check, check_eq};

fn pattern(src: Option<ProcId>, tag: Option<i32>) -> Match {
    Match::new(src, tag)
}

fn fill(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn main() {
    let m = join("semantics-test").expect("join");
    let ids = world_ids().expect("ids");
    let rank = world_rank().expect("rank") as usize;
    let n = ids.len();
    assert!(n >= 2, "run with at least 2 ranks");
    let me = ids[rank];
    let a = Context::create("sem.a").expect("context a");
    let b = Context::create("sem.b").expect("context b");
    check!(
        Context::create("sem.a").expect("again") == a,
        "creating a context twice finds it"
    );
    let barrier = || a.comm().and_then(|c| c.barrier()).expect("barrier");

    // 1. Pairwise order with a wildcard receive, tags mixed.
    const PER: u32 = 200;
    if rank == 0 {
        let mut next = vec![0u32; n];
        for _ in 0..PER * (n as u32 - 1) {
            let msg = a.recv(pattern(None, None), None).expect("recv");
            let src = ids
                .iter()
                .position(|&i| i == msg.source)
                .expect("known source");
            let seq = u32::from_le_bytes(msg.data[..4].try_into().unwrap());
            check_eq!(seq, next[src], "messages from rank {src} arrive in order");
            check_eq!(msg.tag, (seq % 3) as i32, "tag kept");
            next[src] = seq + 1;
        }
    } else {
        for seq in 0..PER {
            // Alternate small and large so both paths interleave.
            let len = if seq % 50 == 0 {
                INLINE_MAX + 100
            } else {
                4 + (seq as usize % 40)
            };
            let mut data = fill(len, seq as u8);
            data[..4].copy_from_slice(&seq.to_le_bytes());
            a.send(ids[0], (seq % 3) as i32, 0, &data).expect("send");
        }
    }
    barrier();

    // 2. Receive by tag out of send order; 3. contexts never mix.
    if rank == 1 {
        a.send(ids[0], 5, 0, b"five").unwrap();
        b.send(ids[0], 7, 0, b"other context").unwrap();
        a.send(ids[0], 7, 0, b"seven").unwrap();
    } else if rank == 0 {
        let s = a.recv(pattern(Some(ids[1]), Some(7)), None).unwrap();
        check_eq!(
            s.data,
            b"seven".to_vec(),
            "tag 7 taken before the earlier tag 5"
        );
        let f = a.recv(pattern(None, None), None).unwrap();
        check_eq!(f.data, b"five".to_vec(), "then tag 5");
        let none = a.recv(pattern(None, None), Some(Duration::from_millis(100)));
        check!(
            matches!(none, Err(CoreError::Timeout)),
            "context a holds nothing of context b"
        );
        let o = b.recv(pattern(None, Some(7)), None).unwrap();
        check_eq!(o.data, b"other context".to_vec(), "context b's message");
    }
    barrier();

    // 4. Timed receive gives up on time.
    let t0 = Instant::now();
    let r = a.recv(pattern(None, Some(999)), Some(Duration::from_millis(200)));
    let took = t0.elapsed();
    check!(
        matches!(r, Err(CoreError::Timeout)),
        "nothing with tag 999: timeout"
    );
    check!(
        took >= Duration::from_millis(200) && took < Duration::from_secs(3),
        "timeout took {took:?}"
    );
    let t0 = Instant::now();
    let r = a.recv(pattern(None, Some(999)), Some(Duration::ZERO));
    check!(
        matches!(r, Err(CoreError::Timeout)) && t0.elapsed() < Duration::from_millis(500),
        "zero timeout polls once"
    );

    // 5. Probe leaves the message queued.
    if rank == 1 {
        a.send(ids[0], 11, 3, b"probe me").unwrap();
    } else if rank == 0 {
        check!(
            a.probe(pattern(None, Some(12))).unwrap().is_none(),
            "probe of absent tag"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut seen = None;
        while seen.is_none() && Instant::now() < deadline {
            seen = a.probe(pattern(None, Some(11))).unwrap();
        }
        let seen = seen.expect("probe finds the message");
        check_eq!(
            (seen.source, seen.tag, seen.encoding, seen.len),
            (ids[1], 11, 3, 8),
            "probe fields"
        );
        let again = a.probe(pattern(None, Some(11))).unwrap();
        check!(again.is_some(), "probe does not consume");
        let got = a.recv(pattern(None, Some(11)), None).unwrap();
        check_eq!(got.data, b"probe me".to_vec(), "probed message received");
        check_eq!(got.encoding, 3, "encoding travels");
    }
    barrier();

    // 6. Sizes around the inline limit and a 4 MiB message, from every rank to rank 0.
    let sizes = [
        0usize,
        1,
        INLINE_MAX - 1,
        INLINE_MAX,
        INLINE_MAX + 1,
        1 << 20,
        4 << 20,
    ];
    if rank == 0 {
        let mut buf = vec![0u8; 4 << 20];
        for (src, &sender) in ids.iter().enumerate().skip(1) {
            for (k, &len) in sizes.iter().enumerate() {
                let r = a
                    .recv_into(pattern(Some(sender), Some(100 + k as i32)), &mut buf, None)
                    .unwrap();
                check_eq!(r.len, len, "length of message {k} from rank {src}");
                check!(
                    buf[..len] == fill(len, src as u8)[..],
                    "content of {len} bytes from rank {src}"
                );
            }
        }
    } else {
        for (k, &len) in sizes.iter().enumerate() {
            a.send(ids[0], 100 + k as i32, 0, &fill(len, rank as u8))
                .unwrap();
        }
    }
    barrier();

    // 7. Both sides send a large message first, then receive: no deadlock.
    if rank < 2 {
        let peer = ids[1 - rank];
        let out = fill(3 << 20, rank as u8);
        a.send(peer, 200, 0, &out).unwrap();
        let got = a.recv(pattern(Some(peer), Some(200)), None).unwrap();
        check!(
            got.data == fill(3 << 20, 1 - rank as u8),
            "simultaneous 3 MiB exchange"
        );
        // Owned sends return at once, even for large payloads.
        a.send_owned(peer, 201, 0, fill(2 << 20, 9)).unwrap();
        let got = a.recv(pattern(Some(peer), Some(201)), None).unwrap();
        check!(got.data == fill(2 << 20, 9), "owned 2 MiB exchange");
    }
    barrier();

    // 8. Truncation keeps what fits and reports the full length.
    if rank == 1 {
        a.send(ids[0], 300, 0, &fill(100, 1)).unwrap();
        a.send(ids[0], 301, 0, &fill(INLINE_MAX * 2, 2)).unwrap();
    } else if rank == 0 {
        let mut small = [0u8; 10];
        let r = a.recv_into(pattern(None, Some(300)), &mut small, None);
        check_eq!(
            r,
            Err(CoreError::Truncated { len: 100 }),
            "truncated inline message"
        );
        check!(small[..] == fill(100, 1)[..10], "first bytes kept");
        let mut mid = vec![0u8; 1000];
        let r = a.recv_into(pattern(None, Some(301)), &mut mid, None);
        check_eq!(
            r,
            Err(CoreError::Truncated {
                len: INLINE_MAX * 2
            }),
            "truncated large message"
        );
        check!(
            mid[..] == fill(INLINE_MAX * 2, 2)[..1000],
            "first bytes of large message kept"
        );
    }
    barrier();

    // 9. Sending to oneself.
    a.send(me, 400, 0, b"to me").unwrap();
    let got = a
        .recv(pattern(Some(me), Some(400)), Some(Duration::from_secs(5)))
        .unwrap();
    check_eq!(got.data, b"to me".to_vec(), "self-send");

    // 10. Bad arguments are errors, not crashes.
    let stranger = ProcId::new(ids[0].batch(), n as u32 + 5).unwrap();
    check!(
        matches!(a.send(stranger, 1, 0, b"x"), Err(CoreError::UnknownPeer(_))),
        "unknown rank in own batch"
    );
    check!(
        matches!(Context::create(""), Err(CoreError::InvalidArgument(_))),
        "empty context name"
    );
    check!(
        matches!(
            Context::from_id(12345),
            Err(CoreError::UnknownContext(12345))
        ),
        "unknown context id"
    );
    // Ranks that create different contexts are told so, and nothing is created.
    let name = if rank == 0 { "sem.left" } else { "sem.right" };
    check!(
        matches!(Context::create(name), Err(CoreError::Inconsistent(_))),
        "mismatched context creation"
    );
    let c = Context::create("sem.after").expect("creation works again after a mismatch");
    check!(c != a, "new context");

    barrier();
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(&format!("core_semantics rank {rank}"));
}
