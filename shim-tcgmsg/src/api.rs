//! The safe Rust API of the layer; the C and Fortran entry points call it.
//! Every function returns a [`TcgResult`]: TCGMSG itself reports failures
//! by printing a message with the node number and ending the job
//! ([`error_exit`]), which the C and Fortran entry points do with an error.

use crate::layer::{Nodes, Tcg, TcgError, TcgResult};
use crate::os;
use crate::ptr::UserBuf;
use crate::world;
use shim_core::collective::{Group, ReduceOp as Op};
use shim_core::log::tracing::{debug, warn};
use shim_core::mpi::{self, Comm, Root};
use shim_core::Lock;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// The layer's state behind its lock; `None` before `PBEGIN` and after
/// `PEND`.
static STATE: Lock<Option<Tcg>> = Lock::new(None);
/// What `PBEGIN` fixed, shared without a lock (see [`Nodes`]).
static NODES: OnceLock<Nodes> = OnceLock::new();
/// Whether `PBEGIN` ran in this process (a second one is an error).
static BEGUN: AtomicBool = AtomicBool::new(false);
/// This process's node number for error messages (−1 before `PBEGIN`).
static NODE: AtomicI64 = AtomicI64::new(-1);
/// Functions run by `PEND` before the layer stops (e.g. the data servers'
/// shutdown).
static PEND_HOOKS: Lock<Vec<fn()>> = Lock::new(Vec::new());

#[cold]
#[inline(never)]
fn not_started(call: &str) -> TcgError {
    TcgError::new(
        format!("{call}: TCGMSG is not started (call PBEGIN_/tcg_pbegin, or PBEGINF from Fortran, first)"),
        -1,
    )
}

/// The started layer's fixed part, without taking its lock.
#[inline(always)]
fn nodes(call: &str) -> TcgResult<&'static Nodes> {
    match NODES.get() {
        Some(n) if n.live() => Ok(n),
        _ => Err(not_started(call)),
    }
}

/// Runs `f` on the started layer's locked state.
fn with<R>(call: &str, f: impl FnOnce(&mut Tcg) -> TcgResult<R>) -> TcgResult<R> {
    let mut g = STATE.lock();
    match g.as_mut() {
        Some(t) => f(t),
        None => Err(not_started(call)),
    }
}

/// `PBEGIN`: starts TCGMSG on the compute ranks (collective). Starts MPI
/// unless someone already did. A second call is an error, as in TCGMSG.
pub fn pbegin() -> TcgResult<()> {
    if BEGUN.swap(true, Ordering::SeqCst) {
        return Err(TcgError::new("TCGMSG initialized already???", -1));
    }
    let core = |e: shim_core::CoreError| {
        debug!(target: "tcgmsg", error = %e, "PBEGIN: the backend failed");
        TcgError::new(format!("PBEGIN: {e}"), -1)
    };
    let mpi_by_program = mpi::is_initialized();
    let membership = shim_core::join("tcgmsg").map_err(core)?;
    let n = Nodes::start()?;
    debug!(
        target: "tcgmsg",
        node = n.me,
        nodes = n.nodes,
        mpi_by_program,
        "PBEGIN: TCGMSG started"
    );
    NODE.store(i64::from(n.me), Ordering::SeqCst);
    n.comm.barrier().map_err(core)?;
    let mut state = STATE.lock();
    let n = NODES.get_or_init(move || n);
    *state = Some(Tcg::new(n, membership));
    Ok(())
}

/// Registers `f` to run at the start of `PEND` (before the layer stops).
pub fn on_pend(f: fn()) {
    PEND_HOOKS.lock().push(f);
}

/// `PEND`: completes outstanding asynchronous sends, stops the layer and
/// every other one, finalises MPI, and ends the process with status 0.
pub fn pend() -> ! {
    let hooks: Vec<fn()> = PEND_HOOKS.lock().clone();
    debug!(
        target: "tcgmsg",
        hooks = hooks.len(),
        "PEND: leaving TCGMSG, finishing every layer and MPI, exit status 0"
    );
    for h in hooks {
        h();
    }
    let t = STATE.lock().take();
    if let Some(t) = t {
        if let Some(m) = t.stop() {
            let _ = shim_core::leave(m);
        }
    }
    // The process ends here: every other layer finishes too (GA never
    // leaves on its own), with the work registered for that moment (data
    // server clients saying goodbye), and the MPI this library started is
    // finalised.
    shim_core::lifecycle::finish_process();
    if mpi::is_initialized() && !mpi::is_finalized() {
        // MPI started by the program: PEND finalises it, as TCGMSG does.
        let _ = mpi::finalize();
    }
    let _ = std::io::stdout().flush();
    std::process::exit(0)
}

/// `TCGREADY`: whether TCGMSG is started.
pub fn ready() -> bool {
    nodes("TCGREADY").is_ok()
}

/// The exit status a TCGMSG error code gives the job (never 0).
pub fn exit_status(code: i64) -> i32 {
    match (code & 0xff) as i32 {
        0 => 1,
        c => c,
    }
}

/// `Error`: prints `<node>: <msg> <code> (<hex code>).` on standard output
/// and standard error, then ends the whole job.
pub fn error_exit(msg: &str, code: i64) -> ! {
    let node = NODE.load(Ordering::SeqCst);
    let line = format!("{node}: {msg} {code} ({code:#x}).");
    warn!(
        target: "tcgmsg",
        code,
        status = exit_status(code),
        "Error: {msg}; ending the whole job"
    );
    os::flush_c_stdio();
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    eprintln!("{line}");
    let status = exit_status(code);
    if mpi::is_initialized() && !mpi::is_finalized() {
        mpi::abort(Comm::world(), status)
    }
    std::process::exit(status)
}

/// `NNODES`: number of TCGMSG processes (compute ranks).
pub fn nnodes() -> i64 {
    if let Ok(n) = nodes("NNODES") {
        return i64::from(n.nodes);
    }
    world::position().1
}

/// `NODEID`: this process's node number, 0..`NNODES`−1.
pub fn nodeid() -> i64 {
    if let Ok(n) = nodes("NODEID") {
        return i64::from(n.me);
    }
    world::position().0
}

/// The layer's communicator (a duplicate of the compute ranks'), for
/// layers built on TCGMSG.
pub fn comm() -> TcgResult<Comm> {
    nodes("tcgmsg").map(|n| n.comm)
}

/// Synchronous `SND` of `data` to `node`: no lock of the layer's is taken
/// unless the message is for this node and an asynchronous receive is
/// pending.
#[inline]
pub fn snd(ty: i64, data: &[u8], node: i64) -> TcgResult<()> {
    send(ty, data, node, false)
}

/// Asynchronous `SND`: `buf` must stay untouched until `WAITCOM`.
pub fn snd_async(ty: i64, buf: UserBuf, node: i64) -> TcgResult<()> {
    send(ty, buf.as_slice(), node, true)
}

#[inline(always)]
fn send(ty: i64, data: &[u8], node: i64, owned: bool) -> TcgResult<()> {
    let n = nodes("SND")?;
    let dest = n.node("SND", "destination node", node)?;
    n.snd(ty, data, dest, owned)?;
    if dest == n.me && n.pending() {
        with("SND", Tcg::serve_pending)?;
    }
    Ok(())
}

/// Synchronous `RCV`: `nodesel` −1 takes the next sender. Returns
/// (length, sender). No lock of the layer's is taken while no
/// asynchronous receive is pending.
#[inline]
pub fn rcv(ty: i64, buf: &mut [u8], nodesel: i64) -> TcgResult<(usize, i64)> {
    let n = nodes("RCV")?;
    let sel = n.selector("RCV", nodesel)?;
    let (len, src) = if n.pending() {
        with("RCV", |t| t.rcv(ty, buf, sel))?
    } else {
        n.rcv(ty, buf, sel)?
    };
    Ok((len, i64::from(src)))
}

/// Asynchronous `RCV` into `buf`, completed by `WAITCOM`.
pub fn rcv_async(ty: i64, buf: UserBuf, nodesel: i64) -> TcgResult<()> {
    with("RCV", |t| {
        let sel = t.n.selector("RCV", nodesel)?;
        t.rcv_async(ty, buf, sel)
    })
}

/// `PROBE`: whether a message of `ty` from `node` (−1 any) is waiting.
pub fn probe(ty: i64, node: i64) -> TcgResult<bool> {
    with("PROBE", |t| {
        let sel = t.n.selector("PROBE", node)?;
        t.probe(ty, sel)
    })
}

/// `WAITCOM`: completes asynchronous operations with `node` (−1 all).
pub fn waitcom(node: i64) -> TcgResult<()> {
    with("WAITCOM", |t| {
        let sel = t.n.selector("WAITCOM", node)?;
        t.waitcom(sel)
    })
}

fn mpi_err(call: &str) -> impl Fn(shim_core::CoreError) -> TcgError + '_ {
    move |e| TcgError::new(format!("{call}: {e}"), -1)
}

/// `BRDCST`: every node gets `originator`'s `buf` (collective).
pub fn brdcst(_ty: i64, buf: &mut [u8], originator: i64) -> TcgResult<()> {
    let n = nodes("BRDCST")?;
    let (comm, root) = (n.comm, n.node("BRDCST", "originator", originator)?);
    for chunk in buf.chunks_mut(1 << 30) {
        comm.bcast(chunk, Root::Rank(root))
            .map_err(mpi_err("BRDCST"))?;
    }
    Ok(())
}

/// `SYNCH`: barrier of all nodes.
pub fn synch(_ty: i64) -> TcgResult<()> {
    let comm = nodes("SYNCH")?.comm;
    comm.barrier().map_err(mpi_err("SYNCH"))
}

/// A `DGOP`/`IGOP` operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GopOp {
    /// Take absolute values first (`absmax`, `absmin`).
    pub abs: bool,
    pub op: Op,
}

/// Parses a `DGOP`/`IGOP` operation as TCGMSG does: by prefix, so
/// `"maximum"` is `"max"` and trailing blanks (Fortran) do not matter.
pub fn parse_op(op: &[u8]) -> Option<GopOp> {
    let table: [(&[u8], bool, Op); 14] = [
        (b"+", false, Op::Sum),
        (b"*", false, Op::Prod),
        (b"absmax", true, Op::Max),
        (b"absmin", true, Op::Min),
        (b"max", false, Op::Max),
        (b"min", false, Op::Min),
        (b"or", false, Op::BOr),
        (b"&&", false, Op::LAnd),
        (b"land", false, Op::LAnd),
        (b"||", false, Op::LOr),
        (b"lor", false, Op::LOr),
        (b"&", false, Op::BAnd),
        (b"band", false, Op::BAnd),
        (b"|", false, Op::BOr),
    ];
    if op.starts_with(b"bor") {
        return Some(GopOp {
            abs: false,
            op: Op::BOr,
        });
    }
    table
        .iter()
        .find(|(p, _, _)| op.starts_with(p))
        .map(|&(_, abs, op)| GopOp { abs, op })
}

fn op_text(op: &[u8]) -> String {
    String::from_utf8_lossy(op).trim_end().to_string()
}

/// The communicator and the parsed operation of a `call` (`DGOP` or `IGOP`)
/// over `n` values; an unknown operation is an error.
fn gop_start(call: &str, op: &[u8], n: usize) -> TcgResult<(Comm, GopOp)> {
    let comm = nodes(call)?.comm;
    let g = parse_op(op).ok_or_else(|| {
        TcgError::new(
            format!("{call}: unknown operation '{}'", op_text(op)),
            n as i64,
        )
    })?;
    Ok((comm, g))
}

/// `DGOP`: element-wise reduction of doubles, result on every node.
/// Logical `&&`/`||` treat non-zero as true and give 1.0 or 0.0; the
/// bitwise operations are not defined for doubles.
pub fn dgop(_ty: i64, x: &mut [f64], op: &[u8]) -> TcgResult<()> {
    let (comm, g) = gop_start("DGOP", op, x.len())?;
    let mpi_op = match g.op {
        Op::BAnd | Op::BOr => {
            return Err(TcgError::new(
                format!(
                    "DGOP: bitwise operation '{}' is not defined for doubles (use IGOP)",
                    op_text(op)
                ),
                x.len() as i64,
            ))
        }
        Op::LAnd | Op::LOr => {
            for v in x.iter_mut() {
                *v = if *v != 0.0 { 1.0 } else { 0.0 };
            }
            if g.op == Op::LAnd {
                Op::Min
            } else {
                Op::Max
            }
        }
        o => o,
    };
    if g.abs {
        for v in x.iter_mut() {
            *v = v.abs();
        }
    }
    Group::of(comm)
        .allreduce_f64(x, mpi_op)
        .map_err(mpi_err("DGOP"))
}

/// `IGOP`: element-wise reduction of C `long`s (Fortran `INTEGER`);
/// logical `&&`/`||` give 0 or 1.
pub fn igop(_ty: i64, x: &mut [i64], op: &[u8]) -> TcgResult<()> {
    let (comm, g) = gop_start("IGOP", op, x.len())?;
    if g.abs {
        for v in x.iter_mut() {
            *v = v.wrapping_abs();
        }
    }
    if matches!(g.op, Op::LAnd | Op::LOr) {
        // Results are 0 or 1 on any number of nodes (MPI leaves a
        // one-process reduction's input unchanged).
        for v in x.iter_mut() {
            *v = i64::from(*v != 0);
        }
    }
    Group::of(comm)
        .allreduce_i64(x, g.op)
        .map_err(mpi_err("IGOP"))
}

/// `TCGTIME`: seconds since the first call, strictly increasing.
pub fn time() -> f64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    static LAST: Lock<f64> = Lock::new(-1.0);
    let origin = *ORIGIN.get_or_init(Instant::now);
    let now = origin.elapsed().as_secs_f64();
    let mut last = LAST.lock();
    let t = if now <= *last { *last + 1e-9 } else { now };
    *last = t;
    t
}

/// `MTIME`: centiseconds since the first call.
pub fn mtime() -> i64 {
    (time() * 100.0) as i64
}

/// `n` elements of 8 bytes in bytes, for the size helpers.
fn sizes(call: &str, n: i64) -> TcgResult<i64> {
    if n < 0 {
        return Err(TcgError::new(format!("{call}: negative argument"), n));
    }
    n.checked_mul(8)
        .ok_or_else(|| TcgError::new(format!("{call}: argument too large"), n))
}

/// `MDTOB`: bytes in `n` doubles.
pub fn mdtob(n: i64) -> TcgResult<i64> {
    sizes("MDTOB_", n)
}

/// `MITOB`: bytes in `n` integers (C `long`).
pub fn mitob(n: i64) -> TcgResult<i64> {
    sizes("MITOB_", n)
}

/// `MDTOI`: fewest integers holding `n` doubles.
pub fn mdtoi(n: i64) -> TcgResult<i64> {
    Ok(sizes("MDTOI_", n)? / 8)
}

/// `MITOD`: fewest doubles holding `n` integers.
pub fn mitod(n: i64) -> TcgResult<i64> {
    Ok(sizes("MITOD_", n)? / 8)
}

/// `LLOG`: sends this process's standard output and error to
/// `log.<node>` (three digits, appending).
pub fn llog() -> TcgResult<()> {
    let path = format!("log.{:03}", nodeid());
    debug!(target: "tcgmsg", path, "LLOG: standard output and error go to the node's log file");
    os::redirect_stdio(&path).map_err(|e| TcgError::new(format!("LLOG: {e}"), -1))
}

/// `STATS`: prints this process's message counts.
pub fn stats() -> TcgResult<()> {
    let n = nodes("STATS")?;
    let (me, s) = (n.me, n.stats());
    println!(
        "{me}: TCGMSG statistics: sent {} messages ({} bytes), received {} messages ({} bytes)",
        s.sent, s.sent_bytes, s.received, s.received_bytes
    );
    let _ = std::io::stdout().flush();
    Ok(())
}

/// `SETDBG`: traces sends and receives on standard error when non-zero.
pub fn setdbg(on: i64) -> TcgResult<()> {
    let n = nodes("SETDBG")?;
    n.set_debug(on != 0);
    debug!(target: "tcgmsg", on = on != 0, "SETDBG: message lines on stderr");
    Ok(())
}

/// `NICEFTN`: changes the process priority; returns the new nice value.
pub fn niceftn(inc: i64) -> i64 {
    os::nice(inc)
}

/// The drand48 generator's state (48 bits).
static RAND: Lock<u64> = Lock::new(0x1234_abcd_330e);

/// `DRAND48`: a uniform double in [0, 1) (the 48-bit drand48 sequence).
pub fn drand48() -> f64 {
    let mut x = RAND.lock();
    *x = (x.wrapping_mul(0x5_deec_e66d).wrapping_add(0xb)) & ((1u64 << 48) - 1);
    *x as f64 / (1u64 << 48) as f64
}

/// `SRAND48`: seeds [`drand48`] with the low 32 bits of `seed`.
pub fn srand48(seed: i64) {
    *RAND.lock() = ((seed as u64 & 0xffff_ffff) << 16) | 0x330e;
}

/// `PFCOPY`: copies the file `name` of `node0` to `name` on every other
/// node (collective; each node may give its own name).
pub fn pfcopy(_ty: i64, node0: i64, name: &str) -> TcgResult<()> {
    const CHUNK: usize = 32768;
    let n = nodes("PFCOPY")?;
    let (comm, root, me) = (n.comm, n.node("PFCOPY", "node0", node0)?, n.me);
    let fail = |what: String| TcgError::new(format!("PFCOPY: {what}"), node0);
    debug!(
        target: "tcgmsg",
        node0 = root,
        name,
        "PFCOPY: {}",
        if me == root { "sending the file" } else { "receiving the file" }
    );
    let mut buf = vec![0u8; CHUNK];
    if me == root {
        let mut f = std::fs::File::open(name)
            .map_err(|e| fail(format!("node {me} cannot open '{name}': {e}")))?;
        loop {
            let n = read_full(&mut f, &mut buf)
                .map_err(|e| fail(format!("node {me} cannot read '{name}': {e}")))?;
            let mut len = (n as u64).to_le_bytes();
            comm.bcast(&mut len, Root::Rank(root))
                .map_err(mpi_err("PFCOPY"))?;
            if n == 0 {
                break;
            }
            comm.bcast(&mut buf[..n], Root::Rank(root))
                .map_err(mpi_err("PFCOPY"))?;
        }
    } else {
        let mut f = std::fs::File::create(name)
            .map_err(|e| fail(format!("node {me} cannot create '{name}': {e}")))?;
        loop {
            let mut len = [0u8; 8];
            comm.bcast(&mut len, Root::Rank(root))
                .map_err(mpi_err("PFCOPY"))?;
            let n = u64::from_le_bytes(len) as usize;
            if n == 0 {
                break;
            }
            if n > CHUNK {
                return Err(fail(format!("bad chunk length {n}")));
            }
            comm.bcast(&mut buf[..n], Root::Rank(root))
                .map_err(mpi_err("PFCOPY"))?;
            f.write_all(&buf[..n])
                .map_err(|e| fail(format!("node {me} cannot write '{name}': {e}")))?;
        }
        f.flush()
            .map_err(|e| fail(format!("node {me} cannot write '{name}': {e}")))?;
    }
    Ok(())
}

fn read_full(f: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_strings_match_by_prefix() {
        let p = |s: &str| parse_op(s.as_bytes()).map(|g| (g.abs, g.op));
        assert_eq!(p("+"), Some((false, Op::Sum)));
        assert_eq!(p("*"), Some((false, Op::Prod)));
        assert_eq!(p("max"), Some((false, Op::Max)));
        assert_eq!(p("maximum"), Some((false, Op::Max)));
        assert_eq!(p("min   "), Some((false, Op::Min)));
        assert_eq!(p("absmax"), Some((true, Op::Max)));
        assert_eq!(p("absmin"), Some((true, Op::Min)));
        assert_eq!(p("or"), Some((false, Op::BOr)));
        assert_eq!(p("&&"), Some((false, Op::LAnd)));
        assert_eq!(p("land"), Some((false, Op::LAnd)));
        assert_eq!(p("||"), Some((false, Op::LOr)));
        assert_eq!(p("lor"), Some((false, Op::LOr)));
        assert_eq!(p("&"), Some((false, Op::BAnd)));
        assert_eq!(p("band"), Some((false, Op::BAnd)));
        assert_eq!(p("|"), Some((false, Op::BOr)));
        assert_eq!(p("bor"), Some((false, Op::BOr)));
        assert_eq!(p("abs"), None);
        assert_eq!(p("sum"), None);
        assert_eq!(p(""), None);
    }

    #[test]
    fn sizes_and_errors() {
        assert_eq!(mdtob(3), Ok(24));
        assert_eq!(mitob(5), Ok(40));
        assert_eq!(mdtoi(7), Ok(7));
        assert_eq!(mitod(9), Ok(9));
        assert!(mdtob(-1).is_err());
        assert_eq!(exit_status(0), 1);
        assert_eq!(exit_status(256), 1);
        assert_eq!(exit_status(3), 3);
        assert_eq!(exit_status(-1), 255);
    }

    #[test]
    fn drand48_follows_the_posix_sequence() {
        srand48(0);
        let a = drand48();
        srand48(0);
        assert_eq!(drand48(), a);
        assert!((0.0..1.0).contains(&a));
        // First value of the 48-bit sequence from seed 0: x1 = a*0x330e + c.
        let x1 = (0x5_deec_e66du64 * 0x330e + 0xb) & ((1 << 48) - 1);
        assert_eq!(a, x1 as f64 / (1u64 << 48) as f64);
        let t1 = time();
        let t2 = time();
        assert!(t2 > t1);
    }
}
