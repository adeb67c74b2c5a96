//! Message buffers of one task: the buffer table with the active send and
//! receive buffers, messages that arrived and got a buffer id but were not
//! received yet (after `pvm_probe`), the current context, and options.

use crate::buftable::BufTable;
use crate::consts::{err, opt};
use crate::messages::Extra;
use crate::pack::{Encoding, MsgBuf, HUGE_MIN};
use crate::{PvmError, PvmResult};
use std::collections::VecDeque;

/// Bits of the envelope's encoding word that hold the packing encoding;
/// the PVM context sits above them.
pub const ENC_BITS: u32 = 4;

/// The envelope encoding word for a message of `context` packed with `enc`.
pub fn encoding_word(context: i32, enc: Encoding) -> u32 {
    ((context as u32) << ENC_BITS) | enc.code() as u32
}

/// Splits an envelope encoding word into (context, encoding).
pub fn split_word(word: u32) -> (i32, Encoding) {
    let enc = Encoding::from_code((word & ((1 << ENC_BITS) - 1)) as i32).unwrap_or(Encoding::Raw);
    ((word >> ENC_BITS) as i32, enc)
}

/// One buffer: its contents and, for received ones, where it came from.
pub struct Buf {
    /// Packed contents.
    pub msg: MsgBuf,
    /// Message tag (0 for buffers made locally).
    pub tag: i32,
    /// Sender's tid (own tid for buffers made locally).
    pub src: i32,
    /// Context the message travelled in.
    pub ctx: i32,
    /// Header fields the other members do not hold (wait id, destination).
    pub extra: Extra,
}

/// Buffers, queue and options of a task.
pub struct MsgState {
    me: i32,
    /// Current context (`pvm_setcontext`).
    pub context: i32,
    bufs: BufTable<Buf>,
    /// Active send buffer (0 = none).
    pub sbuf: i32,
    /// Active receive buffer (0 = none).
    pub rbuf: i32,
    /// Arrived messages with buffer ids, not yet received, in arrival order.
    pub queued: VecDeque<i32>,
    options: [i32; 32],
    /// Next context id `pvm_newcontext` hands out.
    pub next_context: i32,
    /// Large storage of freed buffers, reused by new ones (no fresh memory
    /// to fault in for every large message).
    spare: Vec<Vec<u8>>,
    /// Small storage of freed buffers, reused likewise (no allocation for
    /// every small message).
    small: Vec<Vec<u8>>,
    /// Length of the message the last receive took if it had `HUGE_MIN`
    /// bytes or more, else 0: storage for the next receive gets at least
    /// this room.
    recv_hint: usize,
    /// Addresses of large storage already asked to move to huge pages (the
    /// request may fail; it is not repeated for the same storage).
    converted: VecDeque<usize>,
    /// A received buffer whose large payload is still in MPI: its id and
    /// the payload. At most one exists: it is made by a receive, and every
    /// entry point other than the unpack functions and `pvm_bufinfo` fetches
    /// it into the buffer first ([`MsgState::materialize`]).
    lazy: Option<(i32, shim_core::Lazy)>,
}

/// At most this many addresses are remembered in `converted`.
const CONVERTED_MAX: usize = 16;

/// Freed storage at least this large is kept in `spare`, smaller in `small`.
const SPARE_MIN: usize = 64 * 1024;
/// At most this many large freed buffers are kept.
const SPARE_MAX: usize = 4;
/// At most this many small freed buffers are kept.
const SMALL_MAX: usize = 4;

impl MsgState {
    /// A fresh state for task `me`.
    pub fn new(me: i32) -> MsgState {
        let mut options = [0; 32];
        options[opt::AUTO_ERR as usize] = 1;
        options[opt::ROUTE as usize] = opt::ALLOW_DIRECT;
        options[opt::FRAG_SIZE as usize] = 4096;
        options[opt::POLL_TYPE as usize] = opt::POLL_CONSTANT;
        MsgState {
            me,
            context: 0,
            bufs: BufTable::default(),
            sbuf: 0,
            rbuf: 0,
            queued: VecDeque::new(),
            options,
            next_context: 1,
            spare: Vec::new(),
            small: Vec::new(),
            recv_hint: 0,
            converted: VecDeque::new(),
            lazy: None,
        }
    }

    /// Makes a buffer and returns its id (`PvmNoMem` if every id is in
    /// use).
    #[inline]
    pub fn add(&mut self, buf: Buf) -> i32 {
        self.bufs.insert(buf)
    }

    /// `pvm_mkbuf`.
    pub fn mkbuf(&mut self, enc: i32) -> PvmResult<i32> {
        let enc = Encoding::from_code(enc).ok_or(PvmError(err::BAD_PARAM))?;
        let storage = self.take_spare();
        let buf = self.local_buf(MsgBuf::with_storage(enc, storage));
        match self.add(buf) {
            id if id < 0 => Err(PvmError(id)),
            id => Ok(id),
        }
    }

    /// `pvm_freebuf`.
    pub fn freebuf(&mut self, id: i32) -> PvmResult<()> {
        let storage = self.release(id)?;
        self.recycle(storage);
        Ok(())
    }

    /// Frees buffer `id` and returns its storage.
    fn release(&mut self, id: i32) -> PvmResult<Vec<u8>> {
        if id <= 0 {
            return Err(PvmError(err::BAD_PARAM));
        }
        let Some(buf) = self.bufs.remove(id) else {
            return Err(PvmError(err::NO_SUCH_BUF));
        };
        if self.lazy.as_ref().is_some_and(|(l, _)| *l == id) {
            // Received and discarded, so the sender's transfer completes.
            self.lazy = None;
        }
        if self.sbuf == id {
            self.sbuf = 0;
        }
        if self.rbuf == id {
            self.rbuf = 0;
        }
        if !self.queued.is_empty() {
            self.queued.retain(|&q| q != id);
        }
        Ok(buf.msg.into_storage())
    }

    /// Keeps freed storage for a later buffer, if there is room; large
    /// storage is moved to huge pages where it is not yet.
    fn recycle(&mut self, mut storage: Vec<u8>) {
        let cap = storage.capacity();
        if cap >= SPARE_MIN {
            if self.spare.len() < SPARE_MAX {
                let at = storage.as_ptr() as usize;
                if cap >= HUGE_MIN && !self.converted.contains(&at) {
                    crate::ptr::prefer_huge_pages(&mut storage, true);
                    if self.converted.len() == CONVERTED_MAX {
                        self.converted.pop_front();
                    }
                    self.converted.push_back(at);
                }
                self.spare.push(storage);
            }
        } else if cap > 0 && self.small.len() < SMALL_MAX {
            self.small.push(storage);
        }
    }

    /// `pvm_initsend`: frees the send buffer and makes a new one, which
    /// reuses the old one's storage.
    #[inline]
    pub fn initsend(&mut self, enc: i32) -> PvmResult<i32> {
        let enc = Encoding::from_code(enc).ok_or(PvmError(err::BAD_PARAM))?;
        if let Some(id) = self.renew_sbuf(enc) {
            return Ok(id);
        }
        // A new id first, then the old buffer is freed: the new id differs
        // from the old one.
        let id = self.bufs.reserve();
        if id < 0 {
            return Err(PvmError(id));
        }
        let storage = match self.sbuf {
            0 => self.take_spare(),
            old => self.release(old).unwrap_or_default(),
        };
        self.bufs
            .fill(id, self.local_buf(MsgBuf::with_storage(enc, storage)));
        self.sbuf = id;
        Ok(id)
    }

    /// The common case of [`initsend`](Self::initsend): the send buffer is
    /// an ordinary one (not the receive buffer, queued or lazily received),
    /// so it is emptied where it is and filed under a new id, keeping its
    /// storage and its in-place list's room. `None` if that does not apply.
    #[inline]
    fn renew_sbuf(&mut self, enc: Encoding) -> Option<i32> {
        let old = self.sbuf;
        if old <= 0 || old == self.rbuf || !self.queued.is_empty() || self.lazy.is_some() {
            return None;
        }
        let (me, ctx) = (self.me, self.context);
        let id = self.bufs.renumber(old)?;
        let buf = self.bufs.get_mut(id)?;
        buf.msg.reset(enc);
        buf.tag = 0;
        buf.src = me;
        buf.ctx = ctx;
        buf.extra = Extra::default();
        self.sbuf = id;
        Some(id)
    }

    /// A buffer made by this task in its current context.
    fn local_buf(&self, msg: MsgBuf) -> Buf {
        Buf {
            msg,
            tag: 0,
            src: self.me,
            ctx: self.context,
            extra: Extra::default(),
        }
    }

    fn check_settable(&self, id: i32) -> PvmResult<()> {
        if id < 0 {
            return Err(PvmError(err::BAD_PARAM));
        }
        if id != 0 && !self.bufs.contains(id) {
            return Err(PvmError(err::NO_SUCH_BUF));
        }
        Ok(())
    }

    /// `pvm_setsbuf`: returns the previous send buffer.
    pub fn setsbuf(&mut self, id: i32) -> PvmResult<i32> {
        self.check_settable(id)?;
        Ok(std::mem::replace(&mut self.sbuf, id))
    }

    /// `pvm_setrbuf`: returns the previous receive buffer.
    pub fn setrbuf(&mut self, id: i32) -> PvmResult<i32> {
        self.check_settable(id)?;
        if id != 0 {
            if let Some(b) = self.bufs.get_mut(id) {
                b.msg.rewind();
            }
        }
        Ok(std::mem::replace(&mut self.rbuf, id))
    }

    /// A buffer by id.
    pub fn get(&self, id: i32) -> PvmResult<&Buf> {
        if id <= 0 {
            return Err(PvmError(err::BAD_PARAM));
        }
        self.bufs.get(id).ok_or(PvmError(err::NO_SUCH_BUF))
    }

    /// A buffer by id, to change (same checks as [`MsgState::get`]).
    pub fn get_mut(&mut self, id: i32) -> PvmResult<&mut Buf> {
        if id <= 0 {
            return Err(PvmError(err::BAD_PARAM));
        }
        self.bufs.get_mut(id).ok_or(PvmError(err::NO_SUCH_BUF))
    }

    /// The active send buffer (`PvmNoBuf` if none).
    pub fn sbuf_mut(&mut self) -> PvmResult<&mut MsgBuf> {
        self.active_mut(self.sbuf)
    }

    /// The active receive buffer (`PvmNoBuf` if none).
    pub fn rbuf_mut(&mut self) -> PvmResult<&mut MsgBuf> {
        self.active_mut(self.rbuf)
    }

    /// The message of the active buffer `id` (0: none, `PvmNoBuf`).
    fn active_mut(&mut self, id: i32) -> PvmResult<&mut MsgBuf> {
        self.bufs
            .get_mut(id)
            .map(|b| &mut b.msg)
            .ok_or(PvmError(err::NO_BUF))
    }

    /// Frees the active receive buffer (what every receive does first).
    pub fn drop_rbuf(&mut self) {
        if self.rbuf != 0 {
            let old = self.rbuf;
            let _ = self.freebuf(old);
        }
    }

    /// Removes a buffer from the table and hands it over.
    pub fn take(&mut self, id: i32) -> PvmResult<Buf> {
        let buf = self.bufs.remove(id).ok_or(PvmError(err::NO_SUCH_BUF))?;
        if self.sbuf == id {
            self.sbuf = 0;
        }
        if self.rbuf == id {
            self.rbuf = 0;
        }
        self.queued.retain(|&q| q != id);
        Ok(buf)
    }

    /// Storage for a new buffer: a freed one's if any (large first), else
    /// empty.
    pub fn take_spare(&mut self) -> Vec<u8> {
        self.spare
            .pop()
            .or_else(|| self.small.pop())
            .unwrap_or_default()
    }

    /// Files an arrived message under a new buffer id, queued.
    pub fn enqueue(&mut self, src: i32, tag: i32, word: u32, data: Vec<u8>) -> i32 {
        let id = self.adopt(src, tag, word, data);
        self.queued.push_back(id);
        id
    }

    /// Storage for a receive: freed storage, replaced by new storage laid
    /// out for huge pages when it is smaller than the last large message.
    pub fn take_recv_storage(&mut self) -> Vec<u8> {
        let storage = self.take_spare();
        if storage.capacity() >= self.recv_hint {
            return storage;
        }
        crate::ptr::huge_storage(self.recv_hint)
    }

    /// The storage of the receive buffer, taken out for a receive that
    /// files its message under the receive buffer's id
    /// ([`refill_rbuf`](Self::refill_rbuf)). `None` (nothing taken) unless
    /// the receive buffer is an ordinary one: not the send buffer, nothing
    /// queued, no payload left in MPI, and room for the last large message.
    #[inline]
    pub fn rbuf_storage(&mut self) -> Option<Vec<u8>> {
        let id = self.rbuf;
        if id <= 0 || id == self.sbuf || !self.queued.is_empty() || self.lazy.is_some() {
            return None;
        }
        let hint = self.recv_hint;
        let body = self.bufs.get_mut(id)?.msg.fill_storage();
        if body.capacity() < hint {
            return None;
        }
        Some(std::mem::take(body))
    }

    /// Files a received message (with its payload still in MPI, if given)
    /// in the receive buffer whose storage [`rbuf_storage`](Self::rbuf_storage)
    /// took, under the same id: the id that freeing the receive buffer and
    /// filing the message as a new one would give. Returns the id.
    #[inline]
    pub fn refill_rbuf(
        &mut self,
        src: i32,
        tag: i32,
        word: u32,
        data: Vec<u8>,
        payload: Option<shim_core::Lazy>,
    ) -> i32 {
        let id = self.rbuf;
        self.recv_hint = if data.len() >= HUGE_MIN {
            data.len()
        } else {
            0
        };
        let (ctx, enc) = split_word(word);
        if let Some(b) = self.bufs.get_mut(id) {
            b.msg.refill(enc, data);
            b.tag = tag;
            b.src = src;
            b.ctx = ctx;
            b.extra = Extra::default();
        }
        if let Some(p) = payload {
            self.lazy = Some((id, p));
        }
        id
    }

    /// Files an arrived message under a new buffer id, not queued (for a
    /// receive that takes it at once).
    pub fn adopt(&mut self, src: i32, tag: i32, word: u32, data: Vec<u8>) -> i32 {
        self.recv_hint = if data.len() >= HUGE_MIN {
            data.len()
        } else {
            0
        };
        let (ctx, enc) = split_word(word);
        self.add(Buf {
            msg: MsgBuf::received(enc, data),
            tag,
            src,
            ctx,
            extra: Extra::default(),
        })
    }

    /// The first queued message matching (src, tag) in the current context.
    pub fn find_queued(&self, src: Option<i32>, tag: Option<i32>) -> Option<i32> {
        if self.queued.is_empty() {
            return None;
        }
        self.queued.iter().copied().find(|id| {
            self.bufs.get(*id).is_some_and(|b| {
                b.ctx == self.context
                    && src.is_none_or(|s| s == b.src)
                    && tag.is_none_or(|t| t == b.tag)
            })
        })
    }

    /// Removes `id` from the queue (it becomes an ordinary buffer).
    pub fn unqueue(&mut self, id: i32) {
        if !self.queued.is_empty() {
            self.queued.retain(|&q| q != id);
        }
    }

    /// (bytes, tag, source) of a buffer (`pvm_bufinfo`); a payload still
    /// in MPI counts with its length.
    pub fn info(&self, id: i32) -> PvmResult<(i32, i32, i32)> {
        let b = self.get(id)?;
        let pending = match &self.lazy {
            Some((l, p)) if *l == id => p.len(),
            _ => 0,
        };
        Ok(((b.msg.byte_len() + pending) as i32, b.tag, b.src))
    }

    /// Files a received message whose payload is still in MPI under a new
    /// buffer id, not queued; a buffer left that way before is fetched first.
    pub fn adopt_lazy(
        &mut self,
        src: i32,
        tag: i32,
        word: u32,
        data: Vec<u8>,
        payload: shim_core::Lazy,
    ) -> PvmResult<i32> {
        self.materialize()?;
        let id = self.adopt(src, tag, word, data);
        self.lazy = Some((id, payload));
        Ok(id)
    }

    /// Whether a received buffer's payload is still in MPI.
    #[inline]
    pub fn lazy_pending(&self) -> bool {
        self.lazy.is_some()
    }

    /// Fetches a payload left in MPI into its buffer.
    pub fn materialize(&mut self) -> PvmResult<()> {
        let Some((id, payload)) = self.lazy.take() else {
            return Ok(());
        };
        let Some(b) = self.bufs.get_mut(id) else {
            return Ok(());
        };
        let len = payload.len();
        let body = b.msg.fill_storage();
        if body.capacity() < len && len >= HUGE_MIN {
            *body = crate::ptr::huge_storage(len);
        }
        body.clear();
        payload
            .recv_append(body)
            .map_err(|_| PvmError(err::SYS_ERR))?;
        if len >= HUGE_MIN {
            self.recv_hint = len;
        }
        Ok(())
    }

    /// The first unpack of the receive buffer, when its payload is still in
    /// MPI and the unpack takes the whole body as one plain copy into `out`
    /// (`byte_items`: the items are bytes, which XDR stores natively too):
    /// receives the payload straight into `out` and returns `true`.
    /// Otherwise returns `false` and changes nothing.
    pub fn unpack_lazy(&mut self, out: &mut [u8], byte_items: bool) -> PvmResult<bool> {
        let rbuf = self.rbuf;
        let fits = match &self.lazy {
            Some((id, p)) => *id == rbuf && p.len() == out.len(),
            None => false,
        };
        if !fits {
            return Ok(false);
        }
        let Some(b) = self.bufs.get_mut(rbuf) else {
            return Ok(false);
        };
        let plain = match b.msg.encoding() {
            Encoding::Default => byte_items && out.len().is_multiple_of(4),
            Encoding::Raw | Encoding::InPlace => true,
        };
        if !plain || !b.msg.untouched_empty() {
            return Ok(false);
        }
        let Some((_, payload)) = self.lazy.take() else {
            return Ok(false);
        };
        payload.recv_into(out).map_err(|_| PvmError(err::SYS_ERR))?;
        b.msg.set_spent(out.len());
        Ok(true)
    }

    /// Drops a payload left in MPI (received and discarded).
    pub fn discard_lazy(&mut self) {
        self.lazy = None;
    }

    /// A task-exit notice arrived for a `pvm_notify` of this task: queue the
    /// message PVM's daemon would have sent (body: the exited tid).
    pub fn notify_arrived(&mut self, tag: i32, ctx: i32, exited: i32) {
        let src = crate::task::Task::daemon_tid(exited);
        self.notify_ints(tag, ctx, src, &[exited]);
    }

    /// Queues a notice whose body is `ints` (packed as PVM ints), from
    /// `src`, as if received.
    pub fn notify_ints(&mut self, tag: i32, ctx: i32, src: i32, ints: &[i32]) {
        let mut msg = MsgBuf::new(Encoding::Default);
        let _ = msg.pk_int(ints, ints.len(), 1);
        let wire = msg.wire(&|_, _, _, _| Vec::new()).into_owned();
        let id = self.add(Buf {
            msg: MsgBuf::received(Encoding::Default, wire),
            tag,
            src,
            ctx,
            extra: Extra::default(),
        });
        self.queued.push_back(id);
    }

    /// `pvm_getopt`.
    pub fn getopt(&self, what: i32) -> PvmResult<i32> {
        usize::try_from(what)
            .ok()
            .filter(|&w| (1..=opt::NO_RESET as usize).contains(&w))
            .map(|w| self.options[w])
            .ok_or(PvmError(err::BAD_PARAM))
    }

    /// `pvm_setopt`: returns the previous value.
    pub fn setopt(&mut self, what: i32, value: i32) -> PvmResult<i32> {
        let old = self.getopt(what)?;
        self.options[what as usize] = value;
        Ok(old)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consts::enc;

    #[test]
    fn initsend_gives_a_fresh_empty_buffer_and_frees_the_old_one() {
        let mut s = MsgState::new(0x40001);
        let a = s.initsend(enc::RAW).unwrap();
        s.sbuf_mut().unwrap().pk_byte(b"abcdefgh", 8, 1).unwrap();
        assert_eq!(s.info(a).unwrap().0, 8);
        let b = s.initsend(enc::DEFAULT).unwrap();
        assert_ne!(a, b);
        assert_eq!(s.sbuf, b);
        assert_eq!(s.get(a).err(), Some(PvmError(err::NO_SUCH_BUF)));
        assert_eq!(s.info(b).unwrap(), (0, 0, 0x40001));
        assert_eq!(s.sbuf_mut().unwrap().encoding(), Encoding::Default);
    }

    #[test]
    fn a_receive_into_the_receive_buffer_gives_the_id_freeing_and_filing_would() {
        let word = encoding_word(0, Encoding::Raw);
        // The general path: free the receive buffer, file the message anew.
        let mut general = MsgState::new(0x40001);
        general.initsend(enc::RAW).unwrap();
        general.rbuf = general.adopt(0x40002, 5, word, b"first".to_vec());
        general.drop_rbuf();
        let want = general.adopt(0x40003, 6, word, b"second!".to_vec());
        // In place: the receive buffer's storage, refilled under its id.
        let mut s = MsgState::new(0x40001);
        s.initsend(enc::RAW).unwrap();
        s.rbuf = s.adopt(0x40002, 5, word, b"first".to_vec());
        let mut data = s.rbuf_storage().expect("an ordinary receive buffer");
        data.clear();
        data.extend_from_slice(b"second!");
        let got = s.refill_rbuf(0x40003, 6, word, data, None);
        assert_eq!(got, want);
        assert_eq!(s.rbuf, got);
        assert_eq!(s.info(got).unwrap(), (7, 6, 0x40003));
        let mut out = [0u8; 7];
        s.rbuf_mut().unwrap().upk_byte(&mut out, 7, 1).unwrap();
        assert_eq!(&out, b"second!");
    }

    #[test]
    fn the_receive_buffer_is_not_refilled_when_it_is_the_send_buffer_or_messages_wait() {
        let word = encoding_word(0, Encoding::Raw);
        let mut s = MsgState::new(0x40001);
        let a = s.initsend(enc::RAW).unwrap();
        s.setrbuf(a).unwrap();
        assert!(s.rbuf_storage().is_none());
        s.rbuf = s.adopt(0x40002, 5, word, b"first".to_vec());
        s.enqueue(0x40002, 7, word, b"later".to_vec());
        assert!(s.rbuf_storage().is_none());
        assert_eq!(s.info(s.rbuf).unwrap(), (5, 5, 0x40002));
    }

    #[test]
    fn initsend_of_a_send_buffer_that_is_also_the_receive_buffer_clears_both() {
        let mut s = MsgState::new(0x40001);
        let a = s.initsend(enc::RAW).unwrap();
        s.setrbuf(a).unwrap();
        let b = s.initsend(enc::RAW).unwrap();
        assert_eq!(s.rbuf, 0);
        assert_eq!(s.sbuf, b);
        assert!(s.get(a).is_err());
    }
}
