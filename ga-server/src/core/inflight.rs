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
use crate::ptr::{recv_user, send_user, OwnedTransfer, UserBuf};
use shim_core::mpi::{Comm, InFlight};

/// Room in a reply for an error text (or a small get's data, if larger).
const REPLY_ROOM: usize = 1024;

/// One request in flight. A dropped request finishes (or cancels) its
/// transfers; each owned buffer goes only after its transfer
/// ([`OwnedTransfer`]), and the caller's buffers stay lent until then.
pub(crate) struct Pending {
    /// The user handle's key (0: implicit).
    pub key: usize,
    /// The compute rank whose memory the request touches.
    pub target: i32,
    call: &'static str,
    server: i32,
    /// The request header with any inline payload.
    head_tx: OwnedTransfer,
    /// A large put's or accumulate's data, from the caller's buffer.
    data_tx: Vec<InFlight>,
    /// The reply, until it arrived.
    reply_rx: Option<OwnedTransfer>,
    /// A large get's data, received into the caller's buffer.
    data_rx: Option<InFlight>,
    /// A small get: the caller's buffer the reply's inline data goes to.
    inline_to: Option<UserBuf>,
}

/// What a request moves besides its header.
pub(crate) enum Payload {
    /// Put or accumulate data from the caller's memory, sent in messages
    /// of at most the given size beyond the eager limit (one message for a
    /// put, `ACC_CHUNK`s for an accumulate).
    Send(UserBuf, usize),
    /// Get data into the caller's memory.
    Recv(UserBuf),
}

impl Pending {
    /// Sends `req` to `server` and posts the receives of its reply and data.
    pub fn start(
        call: &'static str,
        ga: Comm,
        server: i32,
        (key, target): (usize, i32),
        req: &Req,
        payload: Payload,
    ) -> GaResult<Pending> {
        let be = GaError::backend(call);
        let (inline, reply_len) = match &payload {
            Payload::Send(b, _) if b.len() <= EAGER => (b.len(), REPLY_ROOM),
            Payload::Recv(b) if b.len() <= EAGER => (0, b.len().max(REPLY_ROOM)),
            _ => (0, REPLY_ROOM),
        };
        let mut head = vec![0u8; REQ_LEN + inline];
        req.encode(&mut head);
        // Receives first: the reply may come as soon as the request is out.
        let reply = vec![0u8; REP_LEN + reply_len];
        let reply_rx = OwnedTransfer::recv(reply, (server, TAG_REP, ga)).map_err(&be)?;
        let (mut data_rx, mut inline_to, mut data_out) = (None, None, None);
        match payload {
            Payload::Recv(b) if b.len() > EAGER => {
                data_rx = Some(recv_user(b, (server, TAG_RDATA, ga)).map_err(&be)?);
            }
            Payload::Recv(b) => inline_to = Some(b),
            Payload::Send(b, _) if b.len() <= EAGER => {
                head[REQ_LEN..].copy_from_slice(b.as_slice());
            }
            Payload::Send(b, chunk) => data_out = Some((b, chunk)),
        }
        let head_tx = OwnedTransfer::send(head, (server, TAG_REQ, ga)).map_err(&be)?;
        let mut p = Pending {
            key,
            target,
            call,
            server,
            head_tx,
            data_tx: Vec::new(),
            reply_rx: Some(reply_rx),
            data_rx,
            inline_to,
        };
        if let Some((b, chunk)) = data_out {
            send_user(b, chunk, (server, TAG_DATA, ga), &mut p.data_tx).map_err(&be)?;
        }
        Ok(p)
    }

    /// One pass of progress; whether the request finished. An error reply
    /// is the request's error (its data receive is cancelled).
    fn progress(&mut self) -> GaResult<bool> {
        let be = GaError::backend(self.call);
        let mut done = self.head_tx.test().map_err(&be)?.is_some();
        for s in &mut self.data_tx {
            done &= s.test().map_err(&be)?.is_some();
        }
        if let Some(rx) = self.reply_rx.as_mut() {
            match rx.test().map_err(&be)? {
                None => done = false,
                Some(got) => {
                    if let Some(rx) = self.reply_rx.take() {
                        self.take_reply(&rx.into_buf()[..got])?;
                    }
                }
            }
        }
        if let Some(rx) = self.data_rx.as_mut() {
            done &= rx.test().map_err(&be)?.is_some();
        }
        Ok(done)
    }

    /// Checks an arrived reply; a small get's data goes to the caller's
    /// buffer.
    fn take_reply(&mut self, reply: &[u8]) -> GaResult<()> {
        let e = |m: String| GaError::new(self.call, m);
        let rep = Rep::decode(reply).ok_or_else(|| e("short reply from the ga-server".into()))?;
        let body = &reply[REP_LEN..];
        if rep.status != 0 {
            self.data_rx = None;
            let n = (rep.len as usize).min(body.len());
            return Err(e(format!(
                "ga-server at rank {} refused the request: {}",
                self.server,
                String::from_utf8_lossy(&body[..n])
            )));
        }
        if let Some(dst) = self.inline_to.as_mut() {
            let len = dst.len();
            if rep.len as usize != len || body.len() < len {
                return Err(e(format!("server sent {} bytes, {len} expected", rep.len)));
            }
            dst.as_mut_slice().copy_from_slice(&body[..len]);
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
