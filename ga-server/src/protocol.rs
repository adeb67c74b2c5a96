//! The wire protocol between GA clients and `ga-server`s, on a private
//! duplicate of `MPI_COMM_WORLD`.
//!
//! A request is one message with tag [`TAG_REQ`]: a [`REQ_LEN`]-byte header
//! followed by at most [`EAGER`] bytes of payload; a larger payload follows as
//! a second message with tag [`TAG_DATA`] (an accumulate's, as consecutive
//! messages of [`ACC_CHUNK`] bytes, the last one shorter, so the server can
//! add up one while the next arrives). The server answers every request
//! except `Bye` with a [`REP_LEN`]-byte reply (tag [`TAG_REP`]) followed by at
//! most `EAGER` bytes of data or an error text; larger get data follows with
//! tag [`TAG_RDATA`]. Integers are little-endian.

use crate::ptr::MAX_DIM;

pub const TAG_REQ: i32 = 7301;
pub const TAG_DATA: i32 = 7302;
pub const TAG_REP: i32 = 7303;
pub const TAG_RDATA: i32 = 7304;

/// Payloads up to this size travel inside the request or reply.
pub const EAGER: usize = 16 * 1024;
/// A large accumulate's payload travels in messages of this many bytes (a
/// multiple of every element size).
pub const ACC_CHUNK: usize = 128 * 1024;
/// Request header size.
pub const REQ_LEN: usize = 192;
/// Reply header size.
pub const REP_LEN: usize = 32;

/// Request operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    /// A compute rank leaves (no reply).
    Bye = 1,
    /// Create an array's node segment; payload: layout (see `server`);
    /// reply data: the segment's name. With `aux` > 0 the array is an
    /// overlay lying in the segment of array `aux` − 1 (no new segment,
    /// empty name).
    Create = 2,
    /// Drop an array's node segment.
    Destroy = 3,
    Put = 4,
    Get = 5,
    Acc = 6,
    /// Fetch-and-add on one element; `aux` = increment.
    ReadInc = 7,
    /// Fetch-and-add on the NXTVAL counter; `aux` = increment.
    NxtVal = 8,
    /// Store `aux` in the NXTVAL counter.
    NxtReset = 9,
    /// Try to take mutex `aux` for compute rank `owner`; value 1 if taken.
    MutexTry = 10,
    /// Release mutex `aux` held by compute rank `owner`.
    MutexUnlock = 11,
    /// Reset `aux` mutex words (create/destroy).
    MutexInit = 12,
    /// A compute rank connects; value: the server's process id; reply
    /// data: the name of the control segment.
    Hello = 13,
    /// Atomic read-modify-write on one word of an array of bytes (ARMCI
    /// memory): `ty` = int or long (wire number), the patch covers the
    /// word exactly, `alpha[0]` = 0 adds `aux`, 1 swaps in `aux`; value:
    /// the old word.
    Rmw = 14,
}

impl Op {
    /// The op of a wire byte.
    pub fn from_u8(b: u8) -> Option<Op> {
        Some(match b {
            1 => Op::Bye,
            2 => Op::Create,
            3 => Op::Destroy,
            4 => Op::Put,
            5 => Op::Get,
            6 => Op::Acc,
            7 => Op::ReadInc,
            8 => Op::NxtVal,
            9 => Op::NxtReset,
            10 => Op::MutexTry,
            11 => Op::MutexUnlock,
            12 => Op::MutexInit,
            13 => Op::Hello,
            14 => Op::Rmw,
            _ => return None,
        })
    }
}

/// A request header.
#[derive(Clone, Debug, PartialEq)]
pub struct Req {
    pub op: u8,
    pub ty: u8,
    pub ndim: u8,
    pub array: u32,
    pub owner: i32,
    pub lo: [i64; MAX_DIM],
    pub hi: [i64; MAX_DIM],
    pub alpha: [u8; 32],
    pub aux: i64,
    pub len: u64,
    /// A user element type's code and size (`ty` = its wire number 10);
    /// 0 for built-in types.
    pub user: (i32, u32),
}

impl Req {
    /// A request of `op` with everything else zero.
    pub fn new(op: Op) -> Req {
        Req {
            op: op as u8,
            ty: 0,
            ndim: 0,
            array: 0,
            owner: -1,
            lo: [0; MAX_DIM],
            hi: [0; MAX_DIM],
            alpha: [0; 32],
            aux: 0,
            len: 0,
            user: (0, 0),
        }
    }

    /// Sets the element type of the request (wire number, and a user
    /// type's code and size).
    pub fn set_type(&mut self, ty: crate::core::ElemType) {
        let (w, code, size) = ty.wire();
        self.ty = w;
        self.user = (code, size);
    }

    /// The element type the request names, if it names one.
    pub fn elem_type(&self) -> Option<crate::core::ElemType> {
        crate::core::ElemType::from_wire((self.ty, self.user.0, self.user.1))
    }

    /// Writes the header into the first `REQ_LEN` bytes of `out`.
    pub fn encode(&self, out: &mut [u8]) {
        out[..REQ_LEN].fill(0);
        out[0] = self.op;
        out[1] = self.ty;
        out[2] = self.ndim;
        out[4..8].copy_from_slice(&self.array.to_le_bytes());
        out[8..12].copy_from_slice(&self.owner.to_le_bytes());
        for d in 0..MAX_DIM {
            out[16 + 8 * d..24 + 8 * d].copy_from_slice(&self.lo[d].to_le_bytes());
            out[72 + 8 * d..80 + 8 * d].copy_from_slice(&self.hi[d].to_le_bytes());
        }
        out[128..160].copy_from_slice(&self.alpha);
        out[160..168].copy_from_slice(&self.aux.to_le_bytes());
        out[168..176].copy_from_slice(&self.len.to_le_bytes());
        out[176..180].copy_from_slice(&self.user.0.to_le_bytes());
        out[180..184].copy_from_slice(&self.user.1.to_le_bytes());
    }

    /// Reads a header; `None` if the message is too short.
    pub fn decode(b: &[u8]) -> Option<Req> {
        if b.len() < REQ_LEN {
            return None;
        }
        let i64_at = |o: usize| i64::from_le_bytes(b[o..o + 8].try_into().unwrap_or_default());
        let mut lo = [0; MAX_DIM];
        let mut hi = [0; MAX_DIM];
        for d in 0..MAX_DIM {
            lo[d] = i64_at(16 + 8 * d);
            hi[d] = i64_at(72 + 8 * d);
        }
        let mut alpha = [0u8; 32];
        alpha.copy_from_slice(&b[128..160]);
        Some(Req {
            op: b[0],
            ty: b[1],
            ndim: b[2],
            array: u32::from_le_bytes(b[4..8].try_into().unwrap_or_default()),
            owner: i32::from_le_bytes(b[8..12].try_into().unwrap_or_default()),
            lo,
            hi,
            alpha,
            aux: i64_at(160),
            len: i64_at(168) as u64,
            user: (
                i32::from_le_bytes(b[176..180].try_into().unwrap_or_default()),
                u32::from_le_bytes(b[180..184].try_into().unwrap_or_default()),
            ),
        })
    }
}

/// A reply header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rep {
    /// 0: done; otherwise the text after the header says what was wrong.
    pub status: i32,
    /// Result value (read-increment, NXTVAL, mutex try).
    pub value: i64,
    /// Bytes after the header (inline data or error text), or of the data
    /// message that follows.
    pub len: u64,
}

impl Rep {
    /// Writes the header into the first `REP_LEN` bytes of `out`.
    pub fn encode(&self, out: &mut [u8]) {
        out[..REP_LEN].fill(0);
        out[0..4].copy_from_slice(&self.status.to_le_bytes());
        out[8..16].copy_from_slice(&self.value.to_le_bytes());
        out[16..24].copy_from_slice(&self.len.to_le_bytes());
    }

    /// Reads a header; `None` if the message is too short.
    pub fn decode(b: &[u8]) -> Option<Rep> {
        if b.len() < REP_LEN {
            return None;
        }
        Some(Rep {
            status: i32::from_le_bytes(b[0..4].try_into().unwrap_or_default()),
            value: i64::from_le_bytes(b[8..16].try_into().unwrap_or_default()),
            len: u64::from_le_bytes(b[16..24].try_into().unwrap_or_default()),
        })
    }
}

/// Prefix of every segment name in `/dev/shm` (without the slash).
pub const SEG_PREFIX: &str = "mpbga-";

/// Control segment layout: NXTVAL counter at this byte offset...
pub const CTL_NXTVAL: usize = 64;
/// ...mutex words (u32, 0 = free, else owner + 1) from here...
pub const CTL_MUTEX: usize = 4096;
/// ...this many of them.
pub const MAX_MUTEXES: usize = 16384;
/// Control segment size.
pub const CTL_LEN: usize = CTL_MUTEX + 4 * MAX_MUTEXES;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip() {
        let mut r = Req::new(Op::Acc);
        r.ty = 5;
        r.ndim = 3;
        r.array = 77;
        r.owner = 3;
        r.lo[2] = -4;
        r.hi[6] = 1 << 40;
        r.alpha[31] = 9;
        r.aux = -12;
        r.len = 1 << 33;
        r.user = (1017, 24);
        let mut b = [0u8; REQ_LEN];
        r.encode(&mut b);
        assert_eq!(Req::decode(&b), Some(r));
        assert_eq!(Req::decode(&b[..10]), None);
        let p = Rep {
            status: 1,
            value: -5,
            len: 99,
        };
        let mut b = [0u8; REP_LEN];
        p.encode(&mut b);
        assert_eq!(Rep::decode(&b), Some(p));
        assert_eq!(Op::from_u8(Op::MutexInit as u8), Some(Op::MutexInit));
        assert_eq!(Op::from_u8(Op::Rmw as u8), Some(Op::Rmw));
        assert_eq!(Op::from_u8(0), None);
    }
}
