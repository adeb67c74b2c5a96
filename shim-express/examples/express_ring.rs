//! A ring, a sum and a grid with the safe Express API. Run with
//! `mpiexec -n 4 target/release/examples/express_ring`.

use shim_express::rust_api as ex;

fn main() -> Result<(), shim_express::ExError> {
    let env = ex::param()?;
    let (me, n) = (env.procnum, env.nprocs);
    let next = (me + 1) % n;
    let prev = (me + n - 1) % n;
    let mut got = [0u8; 4];
    let st = ex::exchange(&mut got, Some(prev), Some(1), &me.to_le_bytes(), next, 1)?;
    assert_eq!((st.src, i32::from_le_bytes(got)), (prev, prev));
    let mut total = [f64::from(me)];
    ex::combine_f64(&mut total, ex::Op::Sum, None)?;
    let all = ex::concat(&[me as u8], None)?;
    let grid = ex::Grid::new(&mut [0, 0], &[false, false])?;
    println!(
        "node {me} of {n}: ring from {prev}, sum {}, concat {all:?}, grid {:?} at {:?}",
        total[0],
        grid.dims()?,
        grid.coords(me)?
    );
    ex::sync()
}
