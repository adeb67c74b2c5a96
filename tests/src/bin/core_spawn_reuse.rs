//! Spawn numbers (batches) come back once their processes are gone, so a
//! job may spawn without limit. Run with `mpiexec -n 2`: rank 0 keeps the
//! registry; rank 1 asks it, over MPI, for 5000 numbers one after another
//! (more than the 4094 a task id can hold), then takes every number until
//! the registry refuses at once, then starts real processes with only two
//! numbers free: processes that exit give their number back for the next
//! spawn, and while both live a third spawn fails at once.

use shim_core::api::{is_linked, poll, release_batch, reserve_batch};
use shim_core::procid::MAX_BATCH;
use shim_core::{join, leave, my_id, parent, spawn, world_rank, Context, Match, ProcId};
use std::time::{Duration, Instant};
use tests::{check, check_eq};

const DONE: i32 = 1;
const GO_AWAY: i32 = 2;
const CYCLES: usize = 5000;

/// Waits until this process has no link left to `id` (it disconnected).
fn wait_gone(id: ProcId) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while is_linked(id).unwrap_or(false) {
        if Instant::now() > deadline {
            return false;
        }
        let _ = poll();
        std::thread::yield_now();
    }
    true
}

fn spawn_one(exe: &str, how: &str) -> Result<ProcId, String> {
    match spawn(exe, &["child".into(), how.into()], 1) {
        Ok(mut slots) => slots.remove(0),
        Err(e) => Err(e.to_string()),
    }
}

fn spawner(ctx: Context) {
    // 1. Numbers are reused: 5000 reservations, each given back.
    let mut seen = vec![0u32; MAX_BATCH as usize + 1];
    let start = Instant::now();
    for i in 0..CYCLES {
        match reserve_batch() {
            Ok(b) => {
                check!(
                    (1..=MAX_BATCH).contains(&b),
                    "number {b} in range (cycle {i})"
                );
                seen[b as usize] += 1;
                check!(release_batch(b).is_ok(), "release {b}");
            }
            Err(e) => {
                check!(false, "reservation {i} of {CYCLES} refused: {e}");
                break;
            }
        }
    }
    let used: u32 = seen.iter().sum();
    check_eq!(used as usize, CYCLES, "every reservation granted");
    check!(seen.iter().any(|&n| n > 1), "some number was granted twice");
    println!(
        "reuse: {CYCLES} reservations in {:.2} s",
        start.elapsed().as_secs_f64()
    );

    // 2. With every number taken the registry refuses at once.
    let mut held = Vec::new();
    while let Ok(b) = reserve_batch() {
        held.push(b);
        if held.len() > MAX_BATCH as usize {
            break;
        }
    }
    check_eq!(held.len(), MAX_BATCH as usize, "every number can be taken");
    let t = Instant::now();
    let refused = reserve_batch();
    check!(refused.is_err(), "a reservation with none free is refused");
    check!(
        t.elapsed() < Duration::from_secs(5),
        "refused at once, not after a timeout ({:?})",
        t.elapsed()
    );

    // 3. Real spawns with two numbers free.
    let free: Vec<u16> = held.split_off(held.len() - 2);
    for &b in &free {
        check!(release_batch(b).is_ok(), "release {b}");
    }
    let exe = std::env::current_exe().expect("own path");
    let exe = exe.to_string_lossy();
    for i in 0..5 {
        match spawn_one(&exe, "exit") {
            Ok(id) => {
                check!(
                    free.contains(&id.batch()),
                    "spawn {i} got a free number ({id:?})"
                );
                check!(wait_gone(id), "child {id} of spawn {i} disconnected");
            }
            Err(e) => check!(false, "spawn {i} with a number free failed: {e}"),
        }
    }
    let stay: Vec<ProcId> = (0..2)
        .filter_map(|i| match spawn_one(&exe, "stay") {
            Ok(id) => Some(id),
            Err(e) => {
                check!(false, "spawn of staying child {i} failed: {e}");
                None
            }
        })
        .collect();
    check_eq!(stay.len(), 2, "two children hold the two numbers");
    let t = Instant::now();
    let third = spawn_one(&exe, "exit");
    check!(
        third.is_err(),
        "a spawn with every number in use fails: {third:?}"
    );
    check!(
        t.elapsed() < Duration::from_secs(5),
        "it fails at once ({:?})",
        t.elapsed()
    );
    for &id in &stay {
        check!(ctx.send(id, GO_AWAY, 0, b"").is_ok(), "tell {id} to exit");
        check!(wait_gone(id), "{id} disconnected");
    }
    match spawn_one(&exe, "exit") {
        Ok(id) => check!(wait_gone(id), "last child disconnected"),
        Err(e) => check!(false, "spawn after the children left failed: {e}"),
    }
    for b in held {
        let _ = release_batch(b);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let is_child = args.next().as_deref() == Some("child");
    let how = args.next().unwrap_or_default();
    let m = join("spawn-reuse-test").expect("join");
    let ctx = Context::create("spawn-reuse").expect("context");
    let who = if is_child {
        let dad = parent().unwrap().expect("a spawned process has a parent");
        if how == "stay" {
            let got = ctx.recv(Match::new(Some(dad), Some(GO_AWAY)), None);
            check!(got.is_ok(), "told to exit");
        }
        format!("core_spawn_reuse child {}", my_id().unwrap())
    } else if world_rank().unwrap() == 1 {
        spawner(ctx);
        let root = shim_core::world_ids().unwrap()[0];
        check!(ctx.send(root, DONE, 0, b"").is_ok(), "tell the registry");
        "core_spawn_reuse spawner".to_string()
    } else {
        // The registry answers while this rank waits.
        let got = ctx.recv(Match::new(None, Some(DONE)), None);
        check!(got.is_ok(), "spawner finished");
        "core_spawn_reuse registry".to_string()
    };
    check!(leave(m).is_ok(), "leave");
    tests::check::finish(&who);
}
