//! Dynamic processes: a parent spawns two separate batches (A with two
//! processes, B with one); both A processes then exchange messages with B's
//! process directly (the link is set up on first use), and every child
//! reports its ids back. Run with `mpiexec -n 1 core_spawn`.

use shim_core::{join, leave, my_id, parent, spawn, Context, Match, ProcId};
use std::time::Duration;
use tests::{check, check_eq, procids};

const DIRECTORY: i32 = 1;
const REPORT: i32 = 2;
const PING: i32 = 10;
const PONG: i32 = 11;

fn big(seed: u32) -> Vec<u8> {
    (0..(1u32 << 20) + 3)
        .map(|i| (i.wrapping_mul(7) ^ seed) as u8)
        .collect()
}

fn any(tag: i32) -> Match {
    Match::new(None, Some(tag))
}

fn parent_main(ctx: Context) {
    let exe = std::env::current_exe().expect("own path");
    let exe = exe.to_string_lossy();
    let a = spawn(&exe, &["child".into()], 2).expect("spawn batch A");
    let b = spawn(&exe, &["child".into()], 1).expect("spawn batch B");
    let a: Vec<ProcId> = a.into_iter().map(|s| s.expect("A started")).collect();
    let b: Vec<ProcId> = b.into_iter().map(|s| s.expect("B started")).collect();
    check!(a[0].batch() != b[0].batch(), "two spawns are two batches");
    check!(
        a[0].batch() != 0 && b[0].batch() != 0,
        "spawned batches are not the static world"
    );
    println!("parent {} spawned A={:?} B={:?}", my_id().unwrap(), a, b);
    let dir = procids::to_bytes(&[a[0], a[1], b[0]]);
    for &c in a.iter().chain(&b) {
        ctx.send(c, DIRECTORY, 0, &dir).expect("send directory");
    }
    let all: Vec<ProcId> = a.iter().chain(&b).copied().collect();
    for _ in 0..all.len() {
        let r = ctx
            .recv(any(REPORT), Some(Duration::from_secs(60)))
            .expect("report");
        let ids = procids::from_bytes(&r.data[..8]);
        let ok = r.data[8];
        check!(all.contains(&r.source), "report from a child");
        check_eq!(
            ids[0],
            r.source,
            "child's own id equals the spawn result and the message source"
        );
        check_eq!(
            ids[1],
            my_id().unwrap(),
            "child's parent id is this process"
        );
        check_eq!(ok, 1, "child {} exchanged its messages", r.source);
    }
}

fn child_main(ctx: Context) {
    let me = my_id().unwrap();
    let dad = parent().unwrap().expect("a spawned process has a parent");
    let d = ctx
        .recv(Match::new(Some(dad), Some(DIRECTORY)), None)
        .expect("directory");
    let dir = procids::from_bytes(&d.data);
    let (a0, a1, b0) = (dir[0], dir[1], dir[2]);
    let mut ok = true;
    if me == b0 {
        // Serve both A processes, in whatever order they arrive.
        for _ in 0..2 {
            let m = ctx
                .recv(any(PING), Some(Duration::from_secs(60)))
                .expect("ping");
            let from_a = m.source == a0 || m.source == a1;
            let seed = m.source.raw();
            ok &= from_a && m.data == big(seed);
            ctx.send(m.source, PONG, 0, &big(seed ^ 0xff))
                .expect("pong");
        }
        // A small message after the large one keeps pairwise order.
        for _ in 0..2 {
            let m = ctx
                .recv(any(PING + 1), Some(Duration::from_secs(60)))
                .expect("order");
            ok &= m.data == b"after";
        }
    } else {
        ctx.send(b0, PING, 0, &big(me.raw())).expect("ping B");
        ctx.send(b0, PING + 1, 0, b"after").expect("ping B again");
        let m = ctx
            .recv(
                Match::new(Some(b0), Some(PONG)),
                Some(Duration::from_secs(60)),
            )
            .expect("pong");
        ok &= m.data == big(me.raw() ^ 0xff);
    }
    check!(ok, "exchange between batches");
    let mut report = procids::to_bytes(&[me, dad]);
    report.push(ok as u8);
    ctx.send(dad, REPORT, 0, &report).expect("report");
}

fn main() {
    let is_child = std::env::args().nth(1).as_deref() == Some("child");
    let m = join("spawn-test").expect("join");
    let ctx = Context::create("spawn").expect("context");
    if is_child {
        child_main(ctx);
    } else {
        parent_main(ctx);
    }
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(if is_child {
        "core_spawn child"
    } else {
        "core_spawn parent"
    });
}
