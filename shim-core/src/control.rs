//! Control messages between processes of different spawns: batch-number
//! allocation and release, and the lazy connect/accept handshake. They travel hop by hop
//! over existing links (world, parent, child), through the registry process
//! (rank 0 of batch 0), which knows how to reach every batch.
//!
//! Wire form: a kind byte, then fields in little-endian order; id lists are a
//! count followed by packed ids; strings are a length followed by UTF-8.

use crate::error::CoreError;
use crate::procid::ProcId;

/// What a control message asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A spawner asks the registry for a fresh batch number.
    AllocBatch { request: u32 },
    /// The registry's answer: a batch number, or [`NO_BATCH`] when every
    /// number is in use.
    BatchGranted { request: u32, batch: u16 },
    /// The spawner of `batch` tells the registry every process of it is gone,
    /// so the number may be granted again.
    BatchDone { batch: u16 },
    /// `from` wants a direct link to `to` and asks `to` (the lower id) to offer a port.
    Hello { from: ProcId, to: ProcId },
    /// `from` (the lower id) opened `port` for `to`.
    Offer {
        from: ProcId,
        to: ProcId,
        port: String,
    },
    /// `from` is about to connect to the port `to` offered.
    Go { from: ProcId, to: ProcId },
    /// `from` already has a link to `to`; the offered port can be closed.
    Decline { from: ProcId, to: ProcId },
    /// The registry cannot reach `to`; messages queued for it are dropped.
    Unreachable { to: ProcId },
    /// `from` disconnects the link it shares with the receiver.
    Bye { from: ProcId },
}

/// The batch number in a [`Body::BatchGranted`] that refuses the request.
pub const NO_BATCH: u16 = u16::MAX;

/// How a control message travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Up towards the registry; `trail` lists every process passed, origin first.
    ToRoot { trail: Vec<ProcId> },
    /// Along `path` (next hop first, destination last); `trail` as above.
    Along {
        path: Vec<ProcId>,
        trail: Vec<ProcId>,
    },
    /// Directly to a neighbour.
    Direct,
}

/// One control message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctl {
    /// How it travels.
    pub route: Route,
    /// What it says.
    pub body: Body,
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn id(&mut self, v: ProcId) {
        self.u32(v.raw());
    }
    fn ids(&mut self, v: &[ProcId]) {
        self.u32(v.len() as u32);
        v.iter().for_each(|&i| self.id(i));
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a>(&'a [u8]);

fn malformed(what: &str) -> CoreError {
    CoreError::InvalidArgument(format!("malformed control message: {what}"))
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], CoreError> {
        if self.0.len() < n {
            return Err(malformed("truncated"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, CoreError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, CoreError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, CoreError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn id(&mut self) -> Result<ProcId, CoreError> {
        ProcId::from_raw(self.u32()?).ok_or_else(|| malformed("bad id"))
    }
    fn ids(&mut self) -> Result<Vec<ProcId>, CoreError> {
        let n = self.u32()? as usize;
        if n > self.0.len() / 4 {
            return Err(malformed("id list too long"));
        }
        (0..n).map(|_| self.id()).collect()
    }
    fn str(&mut self) -> Result<String, CoreError> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| malformed("bad string"))
    }
}

impl Ctl {
    /// Encodes the message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(64));
        match &self.route {
            Route::ToRoot { trail } => {
                w.u8(0);
                w.ids(trail);
            }
            Route::Along { path, trail } => {
                w.u8(1);
                w.ids(path);
                w.ids(trail);
            }
            Route::Direct => w.u8(2),
        }
        match &self.body {
            Body::AllocBatch { request } => {
                w.u8(0);
                w.u32(*request);
            }
            Body::BatchGranted { request, batch } => {
                w.u8(1);
                w.u32(*request);
                w.u16(*batch);
            }
            Body::Hello { from, to } => {
                w.u8(2);
                w.id(*from);
                w.id(*to);
            }
            Body::Offer { from, to, port } => {
                w.u8(3);
                w.id(*from);
                w.id(*to);
                w.str(port);
            }
            Body::Go { from, to } => {
                w.u8(4);
                w.id(*from);
                w.id(*to);
            }
            Body::Decline { from, to } => {
                w.u8(5);
                w.id(*from);
                w.id(*to);
            }
            Body::Unreachable { to } => {
                w.u8(6);
                w.id(*to);
            }
            Body::Bye { from } => {
                w.u8(7);
                w.id(*from);
            }
            Body::BatchDone { batch } => {
                w.u8(8);
                w.u16(*batch);
            }
        }
        w.0
    }

    /// Decodes a message; malformed input is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Ctl, CoreError> {
        let mut r = Reader(bytes);
        let route = match r.u8()? {
            0 => Route::ToRoot { trail: r.ids()? },
            1 => Route::Along {
                path: r.ids()?,
                trail: r.ids()?,
            },
            2 => Route::Direct,
            _ => return Err(malformed("bad route kind")),
        };
        let body = match r.u8()? {
            0 => Body::AllocBatch { request: r.u32()? },
            1 => Body::BatchGranted {
                request: r.u32()?,
                batch: r.u16()?,
            },
            2 => Body::Hello {
                from: r.id()?,
                to: r.id()?,
            },
            3 => Body::Offer {
                from: r.id()?,
                to: r.id()?,
                port: r.str()?,
            },
            4 => Body::Go {
                from: r.id()?,
                to: r.id()?,
            },
            5 => Body::Decline {
                from: r.id()?,
                to: r.id()?,
            },
            6 => Body::Unreachable { to: r.id()? },
            7 => Body::Bye { from: r.id()? },
            8 => Body::BatchDone { batch: r.u16()? },
            _ => return Err(malformed("bad body kind")),
        };
        if !r.0.is_empty() {
            return Err(malformed("trailing bytes"));
        }
        Ok(Ctl { route, body })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(b: u16, r: u32) -> ProcId {
        ProcId::new(b, r).unwrap()
    }

    #[test]
    fn every_message_round_trips() {
        let bodies = vec![
            Body::AllocBatch { request: 7 },
            Body::BatchGranted {
                request: 7,
                batch: 3,
            },
            Body::Hello {
                from: id(1, 0),
                to: id(2, 1),
            },
            Body::Offer {
                from: id(1, 0),
                to: id(2, 1),
                port: "tcp://x:1;y".into(),
            },
            Body::Go {
                from: id(2, 1),
                to: id(1, 0),
            },
            Body::Decline {
                from: id(2, 1),
                to: id(1, 0),
            },
            Body::Unreachable { to: id(9, 9) },
            Body::Bye { from: id(0, 3) },
            Body::BatchDone { batch: 4094 },
            Body::BatchGranted {
                request: 9,
                batch: NO_BATCH,
            },
        ];
        let routes = vec![
            Route::ToRoot {
                trail: vec![id(1, 0), id(0, 2)],
            },
            Route::Along {
                path: vec![id(0, 1), id(2, 0)],
                trail: vec![id(0, 0)],
            },
            Route::Direct,
        ];
        for b in &bodies {
            for r in &routes {
                let c = Ctl {
                    route: r.clone(),
                    body: b.clone(),
                };
                assert_eq!(Ctl::decode(&c.encode()).unwrap(), c);
            }
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let good = Ctl {
            route: Route::Along {
                path: vec![id(0, 1)],
                trail: vec![],
            },
            body: Body::Offer {
                from: id(1, 0),
                to: id(2, 1),
                port: "p".into(),
            },
        }
        .encode();
        for cut in 0..good.len() {
            assert!(Ctl::decode(&good[..cut]).is_err(), "prefix {cut}");
        }
        let mut long = good.clone();
        long.push(0);
        assert!(Ctl::decode(&long).is_err());
        assert!(Ctl::decode(&[1, 0xff, 0xff, 0xff, 0x7f]).is_err());
        // a pseudo-random sweep of byte strings never panics
        let mut x: u32 = 12345;
        for _ in 0..2000 {
            let n = (x % 40) as usize;
            let v: Vec<u8> = (0..n)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (x >> 16) as u8
                })
                .collect();
            let _ = Ctl::decode(&v);
        }
    }
}
