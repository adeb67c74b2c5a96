//! The safe Rust API of Express (`shim_express::rust_api`) on every node:
//! a ring with wildcards, a too-long message that stays queued, a sum, a
//! user combine in node order, a concatenation, a broadcast to a node
//! list, a handler and a grid. Prints "express_rust node K: P passed, F
//! failed".

use shim_express::rust_api as ex;
use shim_express::ExError;

struct Tally {
    me: i32,
    passed: u32,
    failed: u32,
}

impl Tally {
    fn check(&mut self, ok: bool, what: &str) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            eprintln!("FAILED node {}: {what}", self.me);
        }
    }
}

fn main() -> Result<(), ExError> {
    let env = ex::param()?;
    let (me, n) = (env.procnum, env.nprocs);
    let mut t = Tally {
        me,
        passed: 0,
        failed: 0,
    };
    let next = (me + 1) % n;
    let prev = (me + n - 1) % n;

    ex::write(&(me * 3).to_le_bytes(), next, 40)?;
    let mut b = [0u8; 4];
    let st = ex::read(&mut b, None, None)?;
    t.check(st.src == prev && st.ty == 40 && st.len == 4, "ring status");
    t.check(i32::from_le_bytes(b) == prev * 3, "ring data");

    ex::write(&[9u8; 32], next, 41)?;
    let mut small = [0u8; 8];
    let e = ex::read(&mut small, Some(prev), Some(41)).unwrap_err();
    t.check(e.code == shim_express::error::EXTOOLONG, "too long");
    let seen = ex::test(Some(prev), Some(41))?;
    t.check(seen.map(|s| s.len) == Some(32), "still queued");
    let (whole, st) = ex::read_vec(Some(prev), Some(41))?;
    t.check(whole == vec![9u8; 32] && st.src == prev, "read_vec");

    let mut v = [f64::from(me), 1.0];
    ex::combine_f64(&mut v, ex::Op::Sum, None)?;
    t.check(
        v == [f64::from(n * (n - 1) / 2), f64::from(n)],
        "combine_f64",
    );

    let mut digits = (me as i64).to_le_bytes().to_vec();
    ex::combine_bytes(
        &mut digits,
        8,
        |a, b| {
            let x = i64::from_le_bytes(a.try_into().expect("8")) * 10
                + i64::from_le_bytes(b.try_into().expect("8"));
            a.copy_from_slice(&x.to_le_bytes());
        },
        None,
    )?;
    let want = (1..n as i64).fold(0, |acc, k| acc * 10 + k);
    t.check(
        i64::from_le_bytes(digits[..].try_into().expect("8")) == want,
        "user combine in node order",
    );

    let all = ex::concat(&vec![me as u8; me as usize + 1], None)?;
    let expect: Vec<u8> = (0..n).flat_map(|k| vec![k as u8; k as usize + 1]).collect();
    t.check(all == expect, "concat");

    let list = [n - 1, 0];
    let list = &list[..if n > 1 { 2 } else { 1 }];
    let mut bb = if me == 0 { [5u8; 16] } else { [0u8; 16] };
    let r = ex::broadcast(&mut bb, 0, Some(list));
    if list.contains(&me) {
        t.check(r == Ok(16) && bb == [5u8; 16], "broadcast to a list");
    } else {
        t.check(
            r.map_err(|e| e.code) == Err(shim_express::error::EXNOTMEMBER),
            "broadcast outside the list",
        );
    }

    let hits = std::sync::Arc::new(std::sync::atomic::AtomicI32::new(-1));
    let h = hits.clone();
    ex::handle(None, Some(77), move |data, src, _| {
        h.store(
            src * 1000 + i32::from(data[0]),
            std::sync::atomic::Ordering::SeqCst,
        );
    })?;
    ex::write(&[7u8], next, 77)?;
    while hits.load(std::sync::atomic::Ordering::SeqCst) < 0 {
        t.check(ex::test(None, Some(77))?.is_none(), "handler first");
    }
    t.check(
        hits.load(std::sync::atomic::Ordering::SeqCst) == prev * 1000 + 7,
        "handler data",
    );
    ex::unhandle(None, Some(77))?;

    let grid = ex::Grid::new(&mut [0], &[true])?;
    t.check(grid.dims()? == vec![n], "grid dims");
    t.check(grid.shift(0, 1)? == (prev, next), "grid shift");
    t.check(grid.node(&[me])? == me, "grid node");

    ex::sync()?;
    println!(
        "express_rust node {me}: {} passed, {} failed",
        t.passed, t.failed
    );
    std::process::exit(i32::from(t.failed != 0));
}
