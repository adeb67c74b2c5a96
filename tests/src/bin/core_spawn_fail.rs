//! Spawning an executable that does not exist is an error for the caller,
//! not a crash or a hang, and the process can go on communicating.

use shim_core::{join, leave, spawn, world_ids, Context, Match};
use std::time::Duration;
use tests::check;

fn main() {
    let m = join("spawn-fail-test").expect("join");
    let ctx = Context::create("spawn-fail").expect("context");
    let r = spawn("/nonexistent/mpbridge-no-such-program", &[], 2);
    match &r {
        Err(e) => println!("spawn failed as expected: {e}"),
        Ok(slots) => {
            println!("spawn slots: {slots:?}");
            check!(
                slots.iter().all(|s| s.is_err()),
                "no process reported as started"
            );
        }
    }
    check!(
        r.as_ref().map_or(true, |s| s.iter().all(|x| x.is_err())),
        "missing executable is reported"
    );
    let me = world_ids().unwrap()[0];
    ctx.send(me, 1, 0, b"still alive")
        .expect("send after failed spawn");
    let got = ctx.recv(Match::new(Some(me), Some(1)), Some(Duration::from_secs(5)));
    check!(
        got.map(|g| g.data == b"still alive").unwrap_or(false),
        "messaging works after a failed spawn"
    );
    check!(leave(m).is_ok(), "leave");
    tests::check::finish("core_spawn_fail");
}
