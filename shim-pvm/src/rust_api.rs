//! A safe Rust API over the PVM layer: enrol, find the family, build typed
//! messages, send and receive them, spawn, kill, ask for exit notices,
//! and leave.
//!
//! ```no_run
//! use shim_pvm::rust_api::{Message, Pvm};
//! let pvm = Pvm::enroll().unwrap();
//! let mut m = Message::new();
//! m.pack(&[1i32, 2, 3]).unwrap().pack_str("hello").unwrap();
//! pvm.send(pvm.mytid(), 5, &m).unwrap();
//! let mut r = pvm.recv(None, Some(5)).unwrap();
//! assert_eq!(r.unpack::<i32>(3).unwrap(), vec![1, 2, 3]);
//! assert_eq!(r.unpack_str().unwrap(), "hello");
//! pvm.exit();
//! ```

use crate::consts::err;
use crate::ops::Wait;
/// The message buffer under [`Message`] and its encodings, for code that
/// packs and unpacks raw buffers itself.
pub use crate::pack::{Encoding, MsgBuf};
use crate::state::{blocking, leave, with_task};
use crate::{PvmError, PvmResult};
use std::time::Duration;

/// A PVM task id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tid(pub i32);

impl std::fmt::Display for Tid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "t{:x}", self.0)
    }
}

/// Types that can be packed into and unpacked from a message.
pub trait Packable: Copy + Default {
    /// Appends `data` to `buf`.
    fn pack_into(buf: &mut MsgBuf, data: &[Self]) -> PvmResult<()>;
    /// Reads `out.len()` items from `buf`.
    fn unpack_from(buf: &mut MsgBuf, out: &mut [Self]) -> PvmResult<()>;
}

macro_rules! packable {
    ($t:ty, $pk:ident, $upk:ident) => {
        impl Packable for $t {
            fn pack_into(buf: &mut MsgBuf, data: &[Self]) -> PvmResult<()> {
                buf.$pk(data, data.len(), 1)
            }
            fn unpack_from(buf: &mut MsgBuf, out: &mut [Self]) -> PvmResult<()> {
                let n = out.len();
                buf.$upk(out, n, 1)
            }
        }
    };
}

packable!(u8, pk_byte, upk_byte);
packable!(i16, pk_short, upk_short);
packable!(u16, pk_ushort, upk_ushort);
packable!(i32, pk_int, upk_int);
packable!(u32, pk_uint, upk_uint);
packable!(i64, pk_long, upk_long);
packable!(u64, pk_ulong, upk_ulong);
packable!(f32, pk_float, upk_float);
packable!(f64, pk_double, upk_double);
packable!([f32; 2], pk_cplx, upk_cplx);
packable!([f64; 2], pk_dcplx, upk_dcplx);

/// A message being built (PVM's send buffer, owned by the caller).
pub struct Message {
    buf: MsgBuf,
}

impl Message {
    /// An empty message in PVM's portable encoding (XDR).
    pub fn new() -> Message {
        Message::with_encoding(Encoding::Default)
    }

    /// An empty message packed natively (`PvmDataRaw`).
    pub fn raw() -> Message {
        Message::with_encoding(Encoding::Raw)
    }

    fn with_encoding(enc: Encoding) -> Message {
        Message {
            buf: MsgBuf::new(enc),
        }
    }

    /// Appends values.
    pub fn pack<T: Packable>(&mut self, data: &[T]) -> PvmResult<&mut Message> {
        T::pack_into(&mut self.buf, data)?;
        Ok(self)
    }

    /// Appends a string.
    pub fn pack_str(&mut self, s: &str) -> PvmResult<&mut Message> {
        if s.as_bytes().contains(&0) {
            return Err(PvmError(err::BAD_PARAM));
        }
        self.buf.pk_str(s.as_bytes())?;
        Ok(self)
    }

    /// Encoded length in bytes (what `pvm_bufinfo` reports).
    pub fn len(&self) -> usize {
        self.buf.byte_len()
    }

    /// Whether nothing was packed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Message {
    fn default() -> Self {
        Message::new()
    }
}

/// A received message.
pub struct Received {
    /// Sender.
    pub source: Tid,
    /// Message tag.
    pub tag: i32,
    buf: MsgBuf,
}

impl Received {
    /// Reads `n` values (in the order they were packed).
    pub fn unpack<T: Packable>(&mut self, n: usize) -> PvmResult<Vec<T>> {
        let mut out = vec![T::default(); n];
        T::unpack_from(&mut self.buf, &mut out)?;
        Ok(out)
    }

    /// Reads a string.
    pub fn unpack_str(&mut self) -> PvmResult<String> {
        let b = self.buf.upk_str()?;
        String::from_utf8(b).map_err(|_| PvmError(err::BAD_MSG))
    }

    /// Encoded length in bytes.
    pub fn len(&self) -> usize {
        self.buf.byte_len()
    }

    /// Whether the message has no body.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// This process as a PVM task. Dropping it does not leave PVM; call
/// [`Pvm::exit`] (as a C program calls `pvm_exit`).
pub struct Pvm {
    me: Tid,
}

impl Pvm {
    /// Enrols this process (the first call starts MPI if nobody did).
    pub fn enroll() -> PvmResult<Pvm> {
        with_task(|t| Ok(Pvm { me: Tid(t.me) }))
    }

    /// Own task id.
    pub fn mytid(&self) -> Tid {
        self.me
    }

    /// The spawning task, if any.
    pub fn parent(&self) -> Option<Tid> {
        with_task(|t| Ok(t.parent.map(Tid))).ok().flatten()
    }

    /// Tasks started together with this one (itself included).
    pub fn siblings(&self) -> PvmResult<Vec<Tid>> {
        with_task(|t| Ok(t.siblings()?.into_iter().map(Tid).collect()))
    }

    /// Starts `n` copies of `program` with `args`; the ids of those started.
    pub fn spawn(&self, program: &str, args: &[&str], n: i32) -> PvmResult<Vec<Tid>> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let slots = with_task(|t| t.spawn(program, &args, n, None))?;
        let started: Vec<Tid> = slots.iter().filter(|&&s| s > 0).map(|&s| Tid(s)).collect();
        match (started.is_empty(), slots.first()) {
            (true, Some(&code)) if code < 0 => Err(PvmError(code)),
            _ => Ok(started),
        }
    }

    /// Sends `msg` to `to` with `tag` (>= 0).
    pub fn send(&self, to: Tid, tag: i32, msg: &Message) -> PvmResult<()> {
        with_task(|t| t.send_msg(to.0, tag, &msg.buf))
    }

    /// Sends `msg` to every task in `to` once, except this one.
    pub fn mcast(&self, to: &[Tid], tag: i32, msg: &Message) -> PvmResult<()> {
        let mut list: Vec<Tid> = to.iter().copied().filter(|&t| t != self.me).collect();
        list.sort();
        list.dedup();
        list.into_iter().try_for_each(|t| self.send(t, tag, msg))
    }

    fn take(&self, wait: Wait, from: Option<Tid>, tag: Option<i32>) -> PvmResult<Option<Received>> {
        let (tid, tag) = (from.map_or(-1, |t| t.0), tag.unwrap_or(-1));
        let id = blocking(|t| t.find(tid, tag, wait))?;
        let Some(id) = id else { return Ok(None) };
        let b = with_task(|t| t.msg.take(id))?;
        Ok(Some(Received {
            source: Tid(b.src),
            tag: b.tag,
            buf: b.msg,
        }))
    }

    /// Waits for a message (`None` = any sender / any tag).
    pub fn recv(&self, from: Option<Tid>, tag: Option<i32>) -> PvmResult<Received> {
        self.take(Wait::Forever, from, tag)?
            .ok_or(PvmError(err::SYS_ERR))
    }

    /// A message if one is there.
    pub fn try_recv(&self, from: Option<Tid>, tag: Option<i32>) -> PvmResult<Option<Received>> {
        self.take(Wait::Poll, from, tag)
    }

    /// Waits up to `timeout` for a message.
    pub fn recv_timeout(
        &self,
        from: Option<Tid>,
        tag: Option<i32>,
        timeout: Duration,
    ) -> PvmResult<Option<Received>> {
        self.take(Wait::For(timeout), from, tag)
    }

    /// Leaves PVM.
    pub fn exit(self) {
        leave();
    }
}

// ---- What a PVM job's controller needs (e.g. Ensemble's loader) -----------

/// The text of a PVM error (what `pvm_perror` prints for its code).
pub fn error_text(e: PvmError) -> &'static str {
    crate::errors::error_text(e.0)
}

/// The C name of a PVM error (`"PvmBadParam"` for -2), `None` for a value
/// that is not a PVM code.
pub fn error_name(e: PvmError) -> Option<&'static str> {
    crate::errors::error_name(e.0)
}

impl Pvm {
    /// Ends task `tid` (`pvm_kill`).
    pub fn kill(&self, tid: Tid) -> PvmResult<()> {
        with_task(|t| t.kill(tid.0))
    }

    /// Asks for a message with `tag` (holding the task id) when any of
    /// `tids` exits (`pvm_notify(PvmTaskExit, ...)`).
    pub fn notify_exit(&self, tids: &[Tid], tag: i32) -> PvmResult<()> {
        let tids: Vec<i32> = tids.iter().map(|t| t.0).collect();
        with_task(|t| t.notify(crate::consts::notify::TASK_EXIT, tag, &tids))
    }

    /// Leaves PVM as `pvm_exit` does for a C program: the process is no
    /// longer part of the parallel job, so its exit status (whatever it
    /// is) does not make the launcher end the tasks still running.
    pub fn leave_job(self) {
        if leave() {
            crate::ptr::detach_exit_status();
        }
    }
}
