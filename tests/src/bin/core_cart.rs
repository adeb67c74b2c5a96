//! Cartesian grid helpers on 4 ranks: balanced dimensions, coordinates and
//! ranks, shifts on periodic and non-periodic dimensions, sub-grids, and a
//! halo exchange between grid neighbours over a context.

use shim_core::topology::{dims_create, CartGrid};
use shim_core::{join, leave, world_ids, Context, CoreError, Match};
use tests::{check, check_eq};

fn main() {
    let m = join("cart-test").expect("join");
    let ids = world_ids().unwrap();
    let n = ids.len() as i32;
    assert_eq!(n, 4, "run with 4 ranks");
    let ctx = Context::create("cart").unwrap();
    check_eq!(
        dims_create(4, &[0, 0]).unwrap(),
        vec![2, 2],
        "4 ranks make a 2x2 grid"
    );
    check_eq!(
        dims_create(12, &[0, 3]).unwrap(),
        vec![4, 3],
        "fixed dimension kept"
    );
    check!(
        matches!(dims_create(5, &[2, 0]), Err(CoreError::InvalidArgument(_))),
        "5 does not divide by 2"
    );
    check!(
        matches!(dims_create(0, &[0]), Err(CoreError::InvalidArgument(_))),
        "zero processes"
    );
    check!(
        matches!(
            CartGrid::create(ctx, &[3, 3], &[true, true], false),
            Err(CoreError::InvalidArgument(_))
        ),
        "grid larger than the world"
    );
    check!(
        matches!(
            CartGrid::create(ctx, &[2, 2], &[true], false),
            Err(CoreError::InvalidArgument(_))
        ),
        "one period flag per dimension"
    );

    let g = CartGrid::create(ctx, &[2, 2], &[true, false], false)
        .unwrap()
        .expect("in the grid");
    let me = g.rank().unwrap();
    let c = g.coords(me).unwrap();
    check_eq!(g.rank_of(&c).unwrap(), me, "rank of own coordinates");
    check_eq!(c, vec![me / 2, me % 2], "row-major coordinates");
    for r in 0..n {
        let rc = g.coords(r).unwrap();
        check_eq!(g.rank_of(&rc).unwrap(), r, "coords/rank round trip for {r}");
    }
    check!(
        matches!(g.coords(9), Err(CoreError::InvalidArgument(_))),
        "coords of a rank outside the grid"
    );
    check!(
        matches!(g.rank_of(&[0, 5]), Err(CoreError::InvalidArgument(_))),
        "outside a non-periodic dimension"
    );
    check_eq!(g.rank_of(&[-1, 0]).unwrap(), 2, "periodic dimension wraps");
    let (src0, dst0) = g.shift(0, 1).unwrap();
    check!(
        src0.is_some() && dst0.is_some(),
        "periodic dimension always has neighbours"
    );
    let (src1, dst1) = g.shift(1, 1).unwrap();
    check_eq!(
        (src1.is_none(), dst1.is_none()),
        (c[1] == 0, c[1] == 1),
        "edges of the non-periodic dimension"
    );
    check!(
        matches!(g.shift(2, 1), Err(CoreError::InvalidArgument(_))),
        "no third dimension"
    );

    // Halo exchange along dimension 0 by process id.
    let up = ids[g.world_rank_of(dst0.unwrap()).unwrap() as usize];
    let down = ids[g.world_rank_of(src0.unwrap()).unwrap() as usize];
    ctx.send(up, 5, 0, &me.to_le_bytes()).unwrap();
    let got = ctx.recv(Match::new(Some(down), Some(5)), None).unwrap();
    check_eq!(
        i32::from_le_bytes(got.data[..4].try_into().unwrap()),
        src0.unwrap(),
        "halo from the lower neighbour"
    );

    let row = g.sub(&[false, true]).unwrap();
    check_eq!(row.dims().to_vec(), vec![2], "row sub-grid");
    check_eq!(
        row.periods().to_vec(),
        vec![false],
        "row keeps its period flag"
    );
    check_eq!(
        row.rank().unwrap(),
        c[1],
        "rank in the row is the column coordinate"
    );
    drop(row);
    drop(g);
    check!(leave(m).is_ok(), "leave");
    tests::check::finish("core_cart");
}
