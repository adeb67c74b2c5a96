//! The safe Rust API of the Express layer. Same semantics as the C calls
//! (see `express.h`): wildcards are `None`, node lists are `Option<&[i32]>`
//! (`None`: every node), and errors are [`ExError`] with the Express code.
//!
//! ```no_run
//! use shim_express::rust_api as ex;
//! let env = ex::param().unwrap();
//! let next = (env.procnum + 1) % env.nprocs;
//! let prev = (env.procnum + env.nprocs - 1) % env.nprocs;
//! ex::write(&env.procnum.to_le_bytes(), next, 7).unwrap();
//! let mut buf = [0u8; 4];
//! let st = ex::read(&mut buf, Some(prev), Some(7)).unwrap();
//! assert_eq!(st.src, prev);
//! let mut total = [f64::from(env.procnum)];
//! ex::combine_f64(&mut total, ex::Op::Sum, None).unwrap();
//! ```

use crate::coll::{self, Combiner};
use crate::error::{ExError, ExResult, EXTOOLONG};
use crate::grid as g;
use crate::handler;
use crate::layer::{DONTCARE, EXNONODE};
use crate::msg;
use shim_core::collective::{Elem, ReduceOp};
use std::sync::Arc;

pub use crate::layer::NodeEnv;
pub use shim_core::collective::ReduceOp as Op;

/// A node with no process: sends to it and receives from it do nothing.
pub const NONODE: i32 = EXNONODE;

/// What a receive got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Bytes received.
    pub len: usize,
    /// Source node.
    pub src: i32,
    /// Message type.
    pub ty: i32,
}

impl From<msg::Got> for Status {
    fn from(got: msg::Got) -> Self {
        Status {
            len: got.len,
            src: got.src,
            ty: got.ty,
        }
    }
}

fn wild(v: Option<i32>) -> i32 {
    v.unwrap_or(DONTCARE)
}

fn status(call: &str, got: msg::Got, cap: usize) -> ExResult<Status> {
    got.checked(call, cap)?;
    Ok(got.into())
}

/// This process's node environment (starts the layer: collective).
pub fn param() -> ExResult<NodeEnv> {
    crate::layer::param("param")
}

/// Sends `data` to node `dest` with type `ty`.
pub fn write(data: &[u8], dest: i32, ty: i32) -> ExResult<usize> {
    msg::write("write", data, dest, ty)
}

/// Receives the first message from `src` of type `ty` (`None`: any) into
/// `buf`.
pub fn read(buf: &mut [u8], src: Option<i32>, ty: Option<i32>) -> ExResult<Status> {
    let cap = buf.len();
    let got = msg::read("read", buf, wild(src), wild(ty))?;
    status("read", got, cap)
}

/// Receives the first message from `src` of type `ty` whatever its
/// length.
pub fn read_vec(src: Option<i32>, ty: Option<i32>) -> ExResult<(Vec<u8>, Status)> {
    let mut buf = Vec::new();
    loop {
        let got = msg::read("read_vec", &mut buf, wild(src), wild(ty))?;
        if got.fits {
            buf.truncate(got.len);
            return Ok((buf, got.into()));
        }
        // Ask again for exactly the message just seen (it stays first).
        buf.resize(got.len, 0);
        let got2 = msg::read("read_vec", &mut buf, got.src, got.ty)?;
        if got2.fits {
            buf.truncate(got2.len);
            return Ok((buf, got2.into()));
        }
    }
}

/// The first waiting message from `src` of type `ty`, without receiving it.
pub fn test(src: Option<i32>, ty: Option<i32>) -> ExResult<Option<Status>> {
    Ok(msg::test("test", wild(src), wild(ty))?.map(Status::from))
}

/// Sends `out` to `dest` and receives into `inbuf` from `src` without
/// deadlock.
pub fn exchange(
    inbuf: &mut [u8],
    src: Option<i32>,
    srctype: Option<i32>,
    out: &[u8],
    dest: i32,
    desttype: i32,
) -> ExResult<Status> {
    let cap = inbuf.len();
    let got = msg::exchange(
        "exchange",
        inbuf,
        wild(src),
        wild(srctype),
        out,
        dest,
        desttype,
    )?;
    status("exchange", got, cap)
}

/// Barrier over all nodes.
pub fn sync() -> ExResult<()> {
    coll::sync("sync")
}

fn list(nodes: Option<&[i32]>) -> i32 {
    nodes.map(|l| l.len() as i32).unwrap_or(0)
}

/// Broadcasts `buf` from node `src` to `nodes`; returns the length.
pub fn broadcast(buf: &mut [u8], src: i32, nodes: Option<&[i32]>) -> ExResult<usize> {
    let (n, fits) = coll::broadcast("broadcast", buf, src, list(nodes), nodes)?;
    if !fits {
        return Err(ExError::new(
            EXTOOLONG,
            format!(
                "broadcast: {n} bytes broadcast, the buffer holds {}",
                buf.len()
            ),
        ));
    }
    Ok(n)
}

/// Element-wise `op` over `data` on `nodes`; every participant gets it.
pub fn combine_f64(data: &mut [f64], op: Op, nodes: Option<&[i32]>) -> ExResult<()> {
    combine_elems(data, op, nodes)
}

/// Element-wise `op` over `data` on `nodes`; every participant gets it.
pub fn combine_i32(data: &mut [i32], op: ReduceOp, nodes: Option<&[i32]>) -> ExResult<()> {
    combine_elems(data, op, nodes)
}

/// A value a combine carries: its element type and its bytes.
trait Wire: Copy {
    const ELEM: Elem;
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! wire {
    ($t:ty, $elem:expr) => {
        impl Wire for $t {
            const ELEM: Elem = $elem;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_ne_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                <$t>::from_ne_bytes(bytes.try_into().expect("one element's bytes"))
            }
        }
    };
}

wire!(f64, Elem::F64);
wire!(i32, Elem::I32);

/// The combine of `data`, sent as bytes and read back in place.
fn combine_elems<T: Wire>(data: &mut [T], op: ReduceOp, nodes: Option<&[i32]>) -> ExResult<()> {
    let mut b = Vec::with_capacity(data.len() * T::SIZE);
    for v in data.iter() {
        v.put(&mut b);
    }
    let how = Combiner::Predefined(T::ELEM, op);
    let (size, n) = (T::SIZE as i32, data.len() as i32);
    coll::combine("combine", &mut b, size, n, how, list(nodes), nodes)?;
    for (v, c) in data.iter_mut().zip(b.chunks_exact(T::SIZE)) {
        *v = T::get(c);
    }
    Ok(())
}

/// Combines items of `size` bytes in `buf` with `f(a, b)` (storing
/// `a ∘ b` into `a`), folded left in node order on every participant.
pub fn combine_bytes(
    buf: &mut [u8],
    size: usize,
    mut f: impl FnMut(&mut [u8], &[u8]),
    nodes: Option<&[i32]>,
) -> ExResult<()> {
    if size == 0 || !buf.len().is_multiple_of(size) {
        return Err(ExError::new(
            crate::error::EXBADLEN,
            format!(
                "combine: {} bytes are not whole items of {size} bytes",
                buf.len()
            ),
        ));
    }
    let n = buf.len() / size;
    coll::combine(
        "combine",
        buf,
        size as i32,
        n as i32,
        Combiner::User(&mut f),
        list(nodes),
        nodes,
    )
}

/// Every participant's `data`, concatenated in node order.
pub fn concat(data: &[u8], nodes: Option<&[i32]>) -> ExResult<Vec<u8>> {
    coll::concat("concat", data, list(nodes), nodes)
}

/// Runs `f(message, source, type)` for every message from `src` of type
/// `ty` (`None`: any); see the `handler` module for when it runs.
pub fn handle(
    src: Option<i32>,
    ty: Option<i32>,
    f: impl Fn(&mut [u8], i32, i32) + Send + Sync + 'static,
) -> ExResult<()> {
    handler::register("handle", Some(Arc::new(f)), wild(src), wild(ty))?;
    msg::pump("handle")
}

/// Removes the handler of `src` and `ty`.
pub fn unhandle(src: Option<i32>, ty: Option<i32>) -> ExResult<()> {
    handler::register("unhandle", None, wild(src), wild(ty))
}

/// A processor grid of all nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid(pub i32);

impl Grid {
    /// Creates a grid (collective); zero sizes are chosen.
    pub fn new(dims: &mut [i32], periods: &[bool]) -> ExResult<Grid> {
        g::init("Grid::new", dims, periods).map(Grid)
    }

    /// Sizes of the dimensions.
    pub fn dims(self) -> ExResult<Vec<i32>> {
        g::shape("Grid::dims", self.0)
    }

    /// Coordinates of `node`.
    pub fn coords(self, node: i32) -> ExResult<Vec<i32>> {
        g::coord("Grid::coords", self.0, node)
    }

    /// The node at `coords`.
    pub fn node(self, coords: &[i32]) -> ExResult<i32> {
        g::node("Grid::node", self.0, coords)
    }

    /// (source, destination) of a shift by `disp` along `dim`.
    pub fn shift(self, dim: i32, disp: i32) -> ExResult<(i32, i32)> {
        g::shift("Grid::shift", self.0, dim, disp)
    }

    /// The sub-grid keeping the flagged dimensions (collective).
    pub fn split(self, remain: &[bool]) -> ExResult<Grid> {
        g::split("Grid::split", self.0, remain).map(Grid)
    }
}
