//! Point-to-point messages: `exwrite`/`exread`, the asynchronous
//! `exsend`/`exreceive` with message ids, `extest`, `exchange` and the
//! strided `exvwrite`/`exvread`.
//!
//! A message travels on the layer's core context; its Express type is the
//! envelope's user tag (any `int`), never an MPI tag. Receives match in the
//! core's queue in arrival order, so messages between a pair of nodes stay
//! in order. A message longer than the receive buffer is not received: it
//! stays queued (so `extest` and a larger `exread` still find it) and the
//! receive returns `EXTOOLONG` with the message's source and type written
//! back.
//!
//! Every call first runs [`pump`]: due message handlers, then posted
//! asynchronous receives, in posting order.

use crate::error::{ExError, ExResult, EXBADID, EXBADLEN, EXTOOLONG};
use crate::handler;
use crate::layer::{directory, with, Directory, Express, DONTCARE, EXNONODE};
use crate::ptr::{OutInt, UserBuf};
use shim_core::backoff::Backoff;
use shim_core::{Context, Fitted, Match, Message};

/// What a receive got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Got {
    /// The message's length in bytes.
    pub len: usize,
    /// Its source node.
    pub src: i32,
    /// Its type.
    pub ty: i32,
    /// False when the message was longer than the buffer and stays queued.
    pub fits: bool,
}

impl Got {
    /// The byte count of a message that fit a buffer of `cap` bytes, or
    /// `EXTOOLONG` naming `call` for one that stays queued.
    pub fn checked(&self, call: &str, cap: usize) -> ExResult<usize> {
        if self.fits {
            Ok(self.len)
        } else {
            Err(too_long(call, self.len, cap, self.src, self.ty))
        }
    }
}

/// An asynchronous operation.
pub enum Pending {
    /// Finished: the byte count or the error.
    Done(ExResult<usize>),
    /// A posted receive.
    Recv(Posted),
}

/// A posted receive: where the message goes and what it asks for.
pub struct Posted {
    buf: UserBuf,
    pattern: Option<Match>,
    src: Option<OutInt>,
    ty: Option<OutInt>,
}

/// The core pattern of a receive from `src` of type `ty`; `None` when
/// `src` is [`EXNONODE`].
fn pattern(d: &Directory, call: &str, src: i32, ty: i32) -> ExResult<Option<Match>> {
    if src == EXNONODE {
        return Ok(None);
    }
    let source = if src == DONTCARE {
        None
    } else {
        d.id_of(call, "source", src)?
    };
    let tag = (ty != DONTCARE).then_some(ty);
    Ok(Some(Match::new(source, tag)))
}

fn core<T>(call: &str, r: shim_core::CoreResult<T>) -> ExResult<T> {
    r.map_err(|e| ExError::core(call, e))
}

/// Runs due handlers, then serves posted receives (nothing to do, and no
/// cost, while neither exists).
pub fn pump(call: &str) -> ExResult<()> {
    if !crate::layer::busy() {
        return Ok(());
    }
    handler::dispatch(call)?;
    with(call, |x| {
        let r = serve_posted(x, call);
        x.refresh_busy();
        r
    })
}

fn serve_posted(x: &mut Express, call: &str) -> ExResult<()> {
    let ctx = x.ctx();
    let ids: Vec<i32> = x
        .pending
        .iter()
        .filter(|(_, p)| matches!(p, Pending::Recv(_)))
        .map(|(&id, _)| id)
        .collect();
    for id in ids {
        let Some(Pending::Recv(p)) = x.pending.get(&id) else {
            continue;
        };
        let Some(pat) = p.pattern else {
            x.pending.insert(id, Pending::Done(Ok(0)));
            continue;
        };
        let claims = handler::claim_patterns(x);
        if let Some(i) = held_first(x, &pat, &claims) {
            let (len, source, tag) = {
                let m = &x.held[i];
                (m.data.len(), m.source, m.tag)
            };
            let src = x.node_of(source);
            let Some(Pending::Recv(mut p)) = x.pending.remove(&id) else {
                continue;
            };
            if let Some(o) = p.src {
                o.set(src);
            }
            if let Some(o) = p.ty {
                o.set(tag);
            }
            if len > p.buf.len() {
                let e = too_long("exreceive", len, p.buf.len(), src, tag);
                x.pending.insert(id, Pending::Done(Err(e)));
                continue;
            }
            if let Some(m) = x.held.remove(i) {
                p.buf.as_mut_slice()[..len].copy_from_slice(&m.data);
            }
            x.pending.insert(id, Pending::Done(Ok(len)));
            continue;
        }
        let Some(r) = core(call, ctx.probe(pat))? else {
            continue;
        };
        if handler::claimed(x, r.source, r.tag) {
            // Its handler takes it at the next dispatch.
            continue;
        }
        let src = x.node_of(r.source);
        let Some(Pending::Recv(mut p)) = x.pending.remove(&id) else {
            continue;
        };
        if let Some(o) = p.src {
            o.set(src);
        }
        if let Some(o) = p.ty {
            o.set(r.tag);
        }
        if r.len > p.buf.len() {
            let e = too_long("exreceive", r.len, p.buf.len(), src, r.tag);
            x.pending.insert(id, Pending::Done(Err(e)));
            continue;
        }
        let m = take(ctx, call, pat)?;
        p.buf.as_mut_slice()[..m.data.len()].copy_from_slice(&m.data);
        x.pending.insert(id, Pending::Done(Ok(m.data.len())));
    }
    Ok(())
}

/// The first held message matching `pat` that no handler takes.
fn held_first(x: &Express, pat: &Match, claims: &[Match]) -> Option<usize> {
    x.held.iter().position(|m| {
        pat.accepts(m.source, m.tag, m.encoding)
            && !claims
                .iter()
                .any(|c| c.accepts(m.source, m.tag, m.encoding))
    })
}

/// Receives the first held message matching `pat` into `buf` if it fits
/// (else leaves it held); `None` if no held message matches.
fn take_held(x: &mut Express, pat: &Match, claims: &[Match], buf: &mut [u8]) -> Option<Got> {
    let i = held_first(x, pat, claims)?;
    let (len, source, tag) = {
        let m = &x.held[i];
        (m.data.len(), m.source, m.tag)
    };
    let src = x.node_of(source);
    let fits = len <= buf.len();
    if fits {
        if let Some(m) = x.held.remove(i) {
            buf[..len].copy_from_slice(&m.data);
        }
        x.refresh_busy();
    }
    Some(Got {
        len,
        src,
        ty: tag,
        fits,
    })
}

fn too_long(call: &str, len: usize, cap: usize, src: i32, ty: i32) -> ExError {
    ExError::new(
        EXTOOLONG,
        format!(
            "{call}: the message of type {ty} from node {src} has {len} bytes, \
             the buffer {cap}; it stays queued"
        ),
    )
}

/// Takes the first queued message matching `pat` (one that a probe just
/// found: arrivals only append to the queue).
fn take(ctx: Context, call: &str, pat: Match) -> ExResult<Message> {
    core(
        call,
        ctx.take_where(|m| pat.accepts(m.source, m.tag, m.encoding)),
    )?
    .ok_or_else(|| {
        ExError::new(
            crate::error::EXSYSERR,
            format!("{call}: a probed message vanished"),
        )
    })
}

/// Sends `data` to node `dest` with type `ty`; returns the bytes sent (0
/// to [`EXNONODE`]). Returns once `data` may be reused.
pub fn write(call: &str, data: &[u8], dest: i32, ty: i32) -> ExResult<usize> {
    pump(call)?;
    let dir = directory(call)?;
    let Some(id) = dir.id_of(call, "destination", dest)? else {
        return Ok(0);
    };
    core(call, dir.ctx.send(id, ty, 0, data))?;
    Ok(data.len())
}

/// Like [`write`], handing the bytes over (returns at once).
pub fn write_owned(call: &str, data: Vec<u8>, dest: i32, ty: i32) -> ExResult<usize> {
    pump(call)?;
    let dir = directory(call)?;
    let Some(id) = dir.id_of(call, "destination", dest)? else {
        return Ok(0);
    };
    let n = data.len();
    core(call, dir.ctx.send_owned(id, ty, 0, data))?;
    Ok(n)
}

/// Receives the first message from `src` of type `ty` (either may be
/// [`DONTCARE`]) into `buf`, waiting for it. From [`EXNONODE`] it returns
/// at once with length 0. A first matching message longer than `buf` is
/// left queued (`fits == false`).
pub fn read(call: &str, buf: &mut [u8], src: i32, ty: i32) -> ExResult<Got> {
    let dir = directory(call)?;
    let (ctx, pat) = (dir.ctx, pattern(dir, call, src, ty)?);
    let Some(pat) = pat else {
        pump(call)?;
        return Ok(Got {
            len: 0,
            src,
            ty,
            fits: true,
        });
    };
    let cap = buf.len();
    let mut backoff = Backoff::new();
    loop {
        let busy = crate::layer::busy();
        let claims = if busy {
            pump(call)?;
            let (claims, held) = with(call, |x| {
                let claims = handler::claim_patterns(x);
                let held = take_held(x, &pat, &claims, buf);
                Ok((claims, held))
            })?;
            if let Some(g) = held {
                return Ok(g);
            }
            claims
        } else {
            // Nothing else can take a message while this receive waits:
            // wait in the core, and receive a separately sent payload
            // straight into `buf`.
            return wait_direct(call, ctx, pat, buf);
        };
        // Take the first matching message not left to a handler, if it
        // fits; remember it if it does not.
        let mut first: Option<(shim_core::ProcId, i32, usize)> = None;
        let taken = core(
            call,
            ctx.take_where(|m| {
                if first.is_some()
                    || !pat.accepts(m.source, m.tag, m.encoding)
                    || claims
                        .iter()
                        .any(|c| c.accepts(m.source, m.tag, m.encoding))
                {
                    return false;
                }
                first = Some((m.source, m.tag, m.data.len()));
                m.data.len() <= cap
            }),
        )?;
        if let Some(m) = taken {
            buf[..m.data.len()].copy_from_slice(&m.data);
            let src = with(call, |x| Ok(x.node_of(m.source)))?;
            return Ok(Got {
                len: m.data.len(),
                src,
                ty: m.tag,
                fits: true,
            });
        }
        if let Some((source, tag, len)) = first {
            let src = with(call, |x| Ok(x.node_of(source)))?;
            return Ok(Got {
                len,
                src,
                ty: tag,
                fits: false,
            });
        }
        backoff.pause();
    }
}

/// A blocking receive with no handler, posted receive or held message
/// about: the core waits and puts a payload that fits straight into `buf`
/// (the path of the core's own blocking receive); a message that does not
/// fit comes whole and is held for a later receive.
fn wait_direct(call: &str, ctx: Context, pat: Match, buf: &mut [u8]) -> ExResult<Got> {
    match core(call, ctx.recv_fit(pat, buf))? {
        Fitted::Into(r) => Ok(Got {
            len: r.len,
            src: directory(call)?.node_of(r.source),
            ty: r.tag,
            fits: true,
        }),
        Fitted::Whole(m) => {
            let got = Got {
                len: m.data.len(),
                src: directory(call)?.node_of(m.source),
                ty: m.tag,
                fits: false,
            };
            with(call, |x| {
                x.held.push_back(m);
                x.refresh_busy();
                Ok(())
            })?;
            Ok(got)
        }
    }
}

/// The length, source and type of the first waiting message from `src` of
/// type `ty`, if any (the message stays queued).
pub fn test(call: &str, src: i32, ty: i32) -> ExResult<Option<Got>> {
    let dir = directory(call)?;
    let (ctx, pat) = (dir.ctx, pattern(dir, call, src, ty)?);
    let Some(pat) = pat else {
        pump(call)?;
        return Ok(None);
    };
    let r = loop {
        pump(call)?;
        let held = with(call, |x| {
            let claims = handler::claim_patterns(x);
            Ok(held_first(x, &pat, &claims).map(|i| {
                let m = &x.held[i];
                Got {
                    len: m.data.len(),
                    src: x.node_of(m.source),
                    ty: m.tag,
                    fits: true,
                }
            }))
        })?;
        if held.is_some() {
            return Ok(held);
        }
        match core(call, ctx.probe(pat))? {
            None => return Ok(None),
            Some(r) if handler::claimed_now(call, r.source, r.tag)? => continue,
            Some(r) => break r,
        }
    };
    let src = with(call, |x| Ok(x.node_of(r.source)))?;
    Ok(Some(Got {
        len: r.len,
        src,
        ty: r.tag,
        fits: true,
    }))
}

fn new_id(x: &mut Express, p: Pending) -> i32 {
    let id = x.next_id;
    x.next_id = if x.next_id == i32::MAX {
        1
    } else {
        x.next_id + 1
    };
    x.pending.insert(id, p);
    id
}

/// Sends a copy of `data` and returns a message id at once; the id
/// completes at once.
pub fn send_async(call: &str, data: &[u8], dest: i32, ty: i32) -> ExResult<i32> {
    let n = write_owned(call, data.to_vec(), dest, ty)?;
    with(call, |x| Ok(new_id(x, Pending::Done(Ok(n)))))
}

/// Posts a receive into `buf`; `src`/`ty` outputs are written when it
/// completes (at an `exmsgtest`/`exmsgwait` or any other Express call).
pub fn recv_async(
    call: &str,
    buf: UserBuf,
    src: i32,
    ty: i32,
    src_out: Option<OutInt>,
    ty_out: Option<OutInt>,
) -> ExResult<i32> {
    let id = with(call, |x| {
        let pat = pattern(x.dir(), call, src, ty)?;
        let id = new_id(
            x,
            Pending::Recv(Posted {
                buf,
                pattern: pat,
                src: src_out,
                ty: ty_out,
            }),
        );
        x.refresh_busy();
        Ok(id)
    })?;
    pump(call)?;
    Ok(id)
}

fn unknown(call: &str, id: i32) -> ExError {
    ExError::new(EXBADID, format!("{call}: no pending operation has id {id}"))
}

/// Whether operation `id` has finished (it stays known until
/// [`msg_wait`]).
pub fn msg_test(call: &str, id: i32) -> ExResult<bool> {
    pump(call)?;
    with(call, |x| match x.pending.get(&id) {
        Some(Pending::Done(_)) => Ok(true),
        Some(Pending::Recv(_)) => Ok(false),
        None => Err(unknown(call, id)),
    })
}

/// Waits for operation `id` and forgets it: its byte count or error.
pub fn msg_wait(call: &str, id: i32) -> ExResult<usize> {
    with(call, |x| {
        x.pending
            .contains_key(&id)
            .then_some(())
            .ok_or_else(|| unknown(call, id))
    })?;
    let mut backoff = Backoff::new();
    loop {
        pump(call)?;
        let done = with(call, |x| {
            if let Some(Pending::Done(_)) = x.pending.get(&id) {
                if let Some(Pending::Done(r)) = x.pending.remove(&id) {
                    return Ok(Some(r));
                }
            }
            Ok(None)
        })?;
        if let Some(r) = done {
            return r;
        }
        backoff.pause();
    }
}

/// Sends `out` to `dest` (type `desttype`) and receives into `inbuf` from
/// `src` (type `srctype`) without deadlock, whatever the other side does
/// first: the outgoing bytes are handed over before the receive waits.
pub fn exchange(
    call: &str,
    inbuf: &mut [u8],
    src: i32,
    srctype: i32,
    out: &[u8],
    dest: i32,
    desttype: i32,
) -> ExResult<Got> {
    // Check both sides before anything travels.
    with(call, |x| {
        pattern(x.dir(), call, src, srctype)?;
        x.id_of(call, "destination", dest)
    })?;
    write_owned(call, out.to_vec(), dest, desttype)?;
    read(call, inbuf, src, srctype)
}

/// A strided vector as the caller gives it: `nitems` items of `size`
/// bytes, `stride` bytes apart (not yet checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    pub size: i32,
    pub nitems: i32,
    pub stride: i32,
}

/// As messages name it: `item size S, count N, stride T`.
impl std::fmt::Display for Strided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Strided {
            size,
            nitems,
            stride,
        } = self;
        write!(f, "item size {size}, count {nitems}, stride {stride}")
    }
}

impl Strided {
    /// The bytes the items span; `None` for negative or overflowing
    /// values or a stride below the size.
    pub fn extent(self) -> Option<usize> {
        let Strided {
            size,
            nitems,
            stride,
        } = self;
        if size < 0 || nitems < 0 || stride < size {
            return None;
        }
        if nitems == 0 {
            return Some(0);
        }
        let e = (nitems as i64 - 1) * stride as i64 + size as i64;
        usize::try_from(e).ok()
    }
}

fn bad_vector(call: &str, v: Strided) -> ExError {
    ExError::new(
        EXBADLEN,
        format!("{call}: {v}: sizes and counts must be >= 0 and the stride >= the item size"),
    )
}

/// The item size and stride as byte counts, once `region_len` is checked
/// to be exactly the span of `nitems` items of `size` bytes `stride` apart.
fn vector_shape(call: &str, region_len: usize, v: Strided) -> ExResult<(usize, usize)> {
    if v.extent() != Some(region_len) {
        return Err(bad_vector(call, v));
    }
    Ok((v.size as usize, v.stride as usize))
}

/// Sends `nitems` items of `size` bytes taken `stride` bytes apart from
/// `region` as one message; returns the bytes sent.
pub fn vwrite(call: &str, region: &[u8], v: Strided, dest: i32, ty: i32) -> ExResult<usize> {
    let (size, stride) = vector_shape(call, region.len(), v)?;
    let nitems = v.nitems as usize;
    let mut data = Vec::with_capacity(size * nitems);
    for i in 0..nitems {
        data.extend_from_slice(&region[i * stride..i * stride + size]);
    }
    write(call, &data, dest, ty)
}

/// Receives a message of up to `nitems` items of `size` bytes and stores
/// item `i` at byte `i * stride` of `region`; a message that is not a
/// whole number of items fills its last item partly.
pub fn vread(call: &str, region: &mut [u8], v: Strided, src: i32, ty: i32) -> ExResult<Got> {
    let (size, stride) = vector_shape(call, region.len(), v)?;
    let mut tmp = vec![0u8; size * v.nitems as usize];
    let got = read(call, &mut tmp, src, ty)?;
    if got.fits {
        for (i, chunk) in tmp[..got.len].chunks(size.max(1)).enumerate() {
            region[i * stride..i * stride + chunk.len()].copy_from_slice(chunk);
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::Strided;

    fn strided_extent(size: i32, nitems: i32, stride: i32) -> Option<usize> {
        Strided {
            size,
            nitems,
            stride,
        }
        .extent()
    }

    #[test]
    fn strided_extents() {
        assert_eq!(strided_extent(4, 5, 16), Some(68));
        assert_eq!(strided_extent(4, 0, 16), Some(0));
        assert_eq!(strided_extent(8, 1, 8), Some(8));
        assert_eq!(strided_extent(4, 2, 2), None, "stride below item size");
        assert_eq!(strided_extent(-1, 2, 8), None);
        assert_eq!(strided_extent(4, -2, 8), None);
    }
}
