//! Requests in flight to the servers, for ARMCI's non-blocking calls: each
//! request is sent, and its reply (and a large get's data, straight into
//! the caller's buffer) received, through MPI transfers that stay in
//! flight after the call returns; tests and waits finish them. A key groups
//! the requests of one user handle (0: ARMCI's implicit handle).
//!
//! A server serves one client's requests in the order they were sent, and
//! every receive of a request in flight is posted when it starts, so its
//! reply and data match it even when a blocking request follows. A blocking
//! request to a server still finishes the ones in flight to it first (see
//! [`super::client::Link::rpc`]): an error reply would otherwise leave a
//! posted data receive behind that a later get's data could match.
//!
//! As with any MPI transfer, a large one moves on while the client calls
//! into MPI (any GA or ARMCI call, `ARMCI_Test` among them); until then the
//! server may wait in that transfer.

use super::types::{GaError, GaResult};
use crate::protocol::*;
use shim_core::mpi::{Comm, InFlight};

/// Room in a reply for an error text (or a small get's data, if larger).
const REPLY_ROOM: usize = 1024;

/// One request in flight. Transfers come before the buffers they use, so
/// a dropped request finishes (or cancels) them before its buffers go.
pub(crate) struct Pending {
    /// The user handle's key (0: implicit).
    pub key: usize,
    /// The compute rank whose memory the request touches.
    pub target: i32,
    call: &'static str,
    server: i32,
    sends: Vec<InFlight>,
    reply_rx: Option<InFlight>,
    /// A large get's data, received into the caller's buffer.
    data_rx: Option<InFlight>,
    /// A small get: the caller's buffer (address, length) the reply's
    /// inline data goes to.
    inline_to: Option<(usize, usize)>,
    /// The request header with any inline payload, and the reply buffer.
    head: Vec<u8>,
    reply: Vec<u8>,
}

/// What a request moves besides its header.
pub(crate) enum Payload {
    /// Put or accumulate data at (address, length) in the caller's memory,
    /// sent in messages of at most the given size beyond the eager limit
    /// (one message for a put, `ACC_CHUNK`s for an accumulate).
    Send(usize, usize, usize),
    /// Get data into (address, length) of the caller's memory.
    Recv(usize, usize),
}

impl Pending {
    /// Sends `req` to `server` and posts the receives of its reply and data.
    ///
    /// # Safety
    /// The caller's memory named by `payload` stays valid, and is neither
    /// written (send) nor touched (receive) until the request finished.
    pub unsafe fn start(
        call: &'static str,
        ga: Comm,
        server: i32,
        key: usize,
        target: i32,
        req: &Req,
        payload: Payload,
    ) -> GaResult<Pending> {
        let be = GaError::backend(call);
        let (inline, reply_len) = match payload {
            Payload::Send(_, len, _) if len <= EAGER => (len, REPLY_ROOM),
            Payload::Recv(_, len) if len <= EAGER => (0, len.max(REPLY_ROOM)),
            _ => (0, REPLY_ROOM),
        };
        let mut head = vec![0u8; REQ_LEN + inline];
        req.encode(&mut head);
        let mut p = Pending {
            key,
            target,
            call,
            server,
            sends: Vec::new(),
            reply_rx: None,
            data_rx: None,
            inline_to: None,
            head,
            reply: vec![0u8; REP_LEN + reply_len],
        };
        // Receives first: the reply may come as soon as the request is out.
        // SAFETY: the reply buffer is owned by `p`, whose transfers finish
        // before it is dropped (field order).
        p.reply_rx = Some(
            unsafe {
                InFlight::begin(
                    true,
                    p.reply.as_mut_ptr(),
                    p.reply.len(),
                    server,
                    TAG_REP,
                    ga,
                )
            }
            .map_err(&be)?,
        );
        match payload {
            Payload::Recv(addr, len) if len > EAGER => {
                // SAFETY: the caller's promise above.
                p.data_rx = Some(
                    unsafe { InFlight::begin(true, addr as *mut u8, len, server, TAG_RDATA, ga) }
                        .map_err(&be)?,
                );
            }
            Payload::Recv(addr, len) => p.inline_to = Some((addr, len)),
            Payload::Send(addr, len, _) if len <= EAGER => {
                // SAFETY: the caller's promise above: `len` readable bytes.
                let src = unsafe { crate::ptr::user_slice(addr as *const u8, len) };
                p.head[REQ_LEN..].copy_from_slice(src);
            }
            Payload::Send(..) => {}
        }
        // SAFETY: the header is owned by `p` (as the reply buffer above).
        let h = unsafe {
            InFlight::begin(
                false,
                p.head.as_mut_ptr(),
                p.head.len(),
                server,
                TAG_REQ,
                ga,
            )
        }
        .map_err(&be)?;
        p.sends.push(h);
        if let Payload::Send(addr, len, chunk) = payload {
            if len > EAGER {
                let mut off = 0;
                while off < len {
                    let n = chunk.min(len - off);
                    // SAFETY: the caller's promise above.
                    let s = unsafe {
                        InFlight::begin(false, (addr + off) as *mut u8, n, server, TAG_DATA, ga)
                    }
                    .map_err(&be)?;
                    p.sends.push(s);
                    off += n;
                }
            }
        }
        Ok(p)
    }

    /// One pass of progress; whether the request finished. An error reply
    /// is the request's error (its data receive is cancelled).
    fn progress(&mut self) -> GaResult<bool> {
        let be = GaError::backend(self.call);
        let mut done = true;
        for s in &mut self.sends {
            done &= s.test().map_err(&be)?.is_some();
        }
        if let Some(rx) = self.reply_rx.as_mut() {
            match rx.test().map_err(&be)? {
                None => done = false,
                Some(got) => {
                    self.reply_rx = None;
                    self.take_reply(got)?;
                }
            }
        }
        if let Some(rx) = self.data_rx.as_mut() {
            done &= rx.test().map_err(&be)?.is_some();
        }
        Ok(done)
    }

    /// Checks an arrived reply of `got` bytes; a small get's data goes to
    /// the caller's buffer.
    fn take_reply(&mut self, got: usize) -> GaResult<()> {
        let e = |m: String| GaError::new(self.call, m);
        let rep = Rep::decode(&self.reply[..got])
            .ok_or_else(|| e("short reply from the ga-server".into()))?;
        let body = &self.reply[REP_LEN..got];
        if rep.status != 0 {
            self.data_rx = None;
            let n = (rep.len as usize).min(body.len());
            return Err(e(format!(
                "ga-server at rank {} refused the request: {}",
                self.server,
                String::from_utf8_lossy(&body[..n])
            )));
        }
        if let Some((addr, len)) = self.inline_to {
            if rep.len as usize != len || body.len() < len {
                return Err(e(format!("server sent {} bytes, {len} expected", rep.len)));
            }
            // SAFETY: `start`'s caller keeps these bytes valid and untouched
            // until the request finished, which is now.
            let dst = unsafe { crate::ptr::user_slice_mut(addr as *mut u8, len) };
            dst.copy_from_slice(&body[..len]);
        }
        Ok(())
    }
}

/// Every request in flight from this process.
#[derive(Default)]
pub(crate) struct InFlightSet {
    list: Vec<Pending>,
}

impl InFlightSet {
    pub fn push(&mut self, p: Pending) {
        self.list.push(p);
    }

    /// One pass of progress over the requests `which` picks; drops the
    /// finished ones. Whether none of them is left.
    pub fn test(&mut self, which: impl Fn(&Pending) -> bool) -> GaResult<bool> {
        let mut left = false;
        let mut i = 0;
        while i < self.list.len() {
            if !which(&self.list[i]) {
                i += 1;
                continue;
            }
            match self.list[i].progress() {
                Ok(true) => {
                    self.list.remove(i);
                }
                Ok(false) => {
                    left = true;
                    i += 1;
                }
                Err(e) => {
                    self.list.remove(i);
                    return Err(e);
                }
            }
        }
        Ok(!left)
    }

    /// Finishes every request `which` picks.
    pub fn wait(&mut self, which: impl Fn(&Pending) -> bool) -> GaResult<()> {
        let mut pause = shim_core::backoff::Backoff::new();
        while !self.test(&which)? {
            pause.pause();
        }
        Ok(())
    }

    /// Finishes the requests in flight to `server`.
    pub fn wait_server(&mut self, server: i32) -> GaResult<()> {
        if self.list.iter().any(|p| p.server == server) {
            self.wait(|p| p.server == server)?;
        }
        Ok(())
    }
}
