//! A token ring with the safe Rust API: every task adds its position and
//! passes a typed message on; the first task checks the sum.
//! Run with `mpiexec -n 4 pvm_ring`.

use shim_pvm::rust_api::{Message, Pvm};

fn main() {
    let pvm = Pvm::enroll().expect("enrol");
    let family = pvm.siblings().expect("siblings");
    let me = family
        .iter()
        .position(|&t| t == pvm.mytid())
        .expect("in the family");
    let n = family.len();
    let (next, prev) = (family[(me + 1) % n], family[(me + n - 1) % n]);
    let mut token = Message::new();
    if me == 0 {
        token.pack(&[0i64]).unwrap().pack_str("ring").unwrap();
        pvm.send(next, 1, &token).expect("send");
        let mut back = pvm.recv(Some(prev), Some(1)).expect("recv");
        let sum = back.unpack::<i64>(1).unwrap()[0];
        let word = back.unpack_str().unwrap();
        let expect: i64 = (0..n as i64).sum();
        println!("pvm_ring: {n} tasks, sum {sum} (expected {expect}), word {word:?}");
        let ok = sum == expect && word == "ring";
        println!("pvm_ring: {} passed, {} failed", ok as i32, !ok as i32);
        pvm.exit();
        std::process::exit(if ok { 0 } else { 1 });
    }
    let mut got = pvm.recv(Some(prev), Some(1)).expect("recv");
    let sum = got.unpack::<i64>(1).unwrap()[0] + me as i64;
    let word = got.unpack_str().unwrap();
    token.pack(&[sum]).unwrap().pack_str(&word).unwrap();
    pvm.send(next, 1, &token).expect("send");
    pvm.exit();
}
