//! Same-node channels: messages between processes of one node travel
//! through shared memory instead of MPI.
//!
//! Every process owns an inbox (see [`inbox`]): a region with one incoming
//! ring per sender. A sender claims a slot in the receiver's inbox once,
//! when the two processes first meet (the static world at start-up, a
//! spawn or connect/accept link when it is made), and from then on every
//! envelope to that receiver goes through the ring, so envelopes of one
//! pair can never overtake each other. Large payloads still go through MPI
//! after their envelope, in order, as before. A receiver that stops
//! spinning sleeps on its inbox's doorbell and the sender wakes it at once.
//! A send never waits for the receiver: a record that finds the ring full
//! waits in the sender's backlog for that peer, and every later record
//! queues behind it until progress moves them into the ring (so a receiver
//! busy in a plain MPI call cannot stall its sender). A backlog to a process
//! that has died or left is dropped, and later sends to it fail; a backlog
//! of a sender killed by a signal dies with it (its receiver still takes
//! what is in the ring).
//! `MPBRIDGE_SHM=0` turns the channels off. A receive that waits between
//! yields looks at its sender's ring through a `watch`, without the
//! engine, and sees there the CPU the sender last wrote from. The `reduce`
//! module beside them reduces among the members of a communicator on one
//! node, on a region of their own.

mod inbox;
mod meet;
pub(crate) mod mem;
pub(crate) mod reduce;
mod ring;
mod watch;

use crate::idhash::IdMap;
use crate::procid::ProcId;
use inbox::{Layout, CLOSED, OFF_DOORBELL, OFF_LEFT, OFF_WAITING, OPEN, RING_CAP};
use mem::{current_cpu, Region};
use ring::{Consumer, Producer};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) use mem::{host_key, pid_alive};
pub(crate) use watch::Watch;

/// Whether the channels are wanted (`MPBRIDGE_SHM` is not `0`).
pub(crate) fn wanted() -> bool {
    std::env::var("MPBRIDGE_SHM").map_or(true, |v| v.trim() != "0")
}

/// Slots kept free for processes met later (spawned or connected).
pub(crate) const SPARE_SLOTS: usize = 64;

/// What a process tells a peer about its inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Desc {
    pub host: u64,
    pub pid: u32,
    pub fd: i32,
    pub slots: u32,
    /// Whether the process has an inbox at all.
    pub ok: bool,
}

/// Encoded size of a [`Desc`].
pub(crate) const DESC_LEN: usize = 24;

impl Desc {
    pub fn encode(&self) -> [u8; DESC_LEN] {
        let mut b = [0u8; DESC_LEN];
        b[0..8].copy_from_slice(&self.host.to_le_bytes());
        b[8..12].copy_from_slice(&self.pid.to_le_bytes());
        b[12..16].copy_from_slice(&self.fd.to_le_bytes());
        b[16..20].copy_from_slice(&self.slots.to_le_bytes());
        b[20] = self.ok as u8;
        b
    }

    pub fn decode(b: &[u8]) -> Desc {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut h = [0u8; 8];
        h.copy_from_slice(&b[0..8]);
        Desc {
            host: u64::from_le_bytes(h),
            pid: u32_at(8),
            fd: u32_at(12) as i32,
            slots: u32_at(16),
            ok: b[20] == 1,
        }
    }

    /// The description of a process without an inbox.
    pub fn none() -> Desc {
        Desc {
            host: host_key(),
            pid: std::process::id(),
            fd: -1,
            slots: 0,
            ok: false,
        }
    }
}

/// How often a sender with a backlog checks that its receiver still runs.
const BACKLOG_CHECK: Duration = Duration::from_millis(200);

/// A ring this process writes into (a slot of a peer's inbox).
struct Out {
    region: Arc<Region>,
    layout: Layout,
    slot: usize,
    prod: Producer,
    /// The receiver's process id.
    pid: u32,
    /// Records that found the ring full, oldest first, each head and body
    /// in one piece; later records queue behind them.
    backlog: VecDeque<Vec<u8>>,
    /// When the receiver was last seen running (while a backlog waits).
    seen_alive: Instant,
    /// The receiver died or left with records still for it.
    gone: bool,
}

impl Out {
    /// Tells the receiver that records arrived: notes in the slot the CPU
    /// they were written from, when waiters spin between their turns (a
    /// waiter on that CPU then knows spinning would keep this process off
    /// it), and wakes the receiver if it announced that it sleeps.
    #[inline(always)]
    fn delivered(&self) {
        if let Some(cpu) = crate::backoff::turns_spin().then(current_cpu).flatten() {
            let from = self.region.u32_at(Layout::sent_from(self.slot));
            if from.load(Ordering::Relaxed) != cpu {
                from.store(cpu, Ordering::Relaxed);
            }
        }
        self.region.ring_bell(OFF_DOORBELL, OFF_WAITING);
    }

    /// Moves backlog records into the ring while they fit; returns how
    /// many moved. A receiver found dead or gone (looked at when nothing
    /// moved for [`BACKLOG_CHECK`] before `now`) loses its backlog.
    fn flush(&mut self, now: Instant) -> usize {
        let mut moved = 0;
        while let Some(rec) = self.backlog.front() {
            if !self.prod.try_push(&[], rec) {
                break;
            }
            self.backlog.pop_front();
            moved += 1;
        }
        if moved > 0 {
            self.delivered();
            self.seen_alive = now;
        } else if !self.backlog.is_empty() && now.duration_since(self.seen_alive) > BACKLOG_CHECK {
            if self.region.u32_at(OFF_LEFT).load(Ordering::Acquire) != 0 || !pid_alive(self.pid) {
                tracing::debug!(target: "core", records = self.backlog.len(), pid = self.pid,
                    "backlog dropped: the receiver ended");
                self.backlog.clear();
                self.gone = true;
            } else {
                self.seen_alive = now;
            }
        }
        moved
    }
}

/// A ring of this process's inbox that a peer writes into.
struct In {
    peer: ProcId,
    cons: Consumer,
}

/// One record found in the inbox: its sender, the slot it is in, and its
/// body's offset and length in the inbox region.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    pub peer: ProcId,
    pub slot: usize,
    pub off: usize,
    pub len: usize,
}

/// Outcome of a send attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Push {
    Sent,
    /// The ring is full: the record waits in this process's backlog and
    /// goes in, in order, as the receiver makes room.
    Queued,
    /// No ring leads to that peer.
    NoRing,
    /// The peer ended while records for it waited.
    Gone,
}

/// The channels of one process.
pub(crate) struct Channels {
    inbox: Arc<Region>,
    layout: Layout,
    ins: Vec<Option<In>>,
    /// Inbound slot of each peer that writes to this process.
    by_peer: IdMap<ProcId, usize>,
    /// The rings this process writes, by position; a ring given up
    /// leaves a hole that the next one fills.
    outs: Vec<Option<Out>>,
    /// Position in `outs` of the ring to each peer.
    out_of: IdMap<ProcId, usize>,
    host: u64,
    /// Where the next scan of the inbox starts (fairness among senders).
    next_scan: usize,
    /// The peer and slot `next_from` looked at last.
    last_from: Option<(ProcId, usize)>,
    /// The peer a send or `has` last found a ring to, and its position in
    /// `outs` (a sender mostly sends to one peer after another, and every
    /// burst of a wait asks for the same one); cleared when rings change.
    last_out: std::cell::Cell<Option<(ProcId, usize)>>,
    /// Number of rings with a backlog.
    backlogged: usize,
    /// This process's id (asking the system for it is a system call).
    pid: u32,
}

impl Channels {
    /// Creates this process's inbox with room for `peers` static senders
    /// plus [`SPARE_SLOTS`].
    pub fn create(peers: usize) -> Result<Channels, String> {
        let layout = Layout {
            slots: peers + SPARE_SLOTS,
            cap: RING_CAP,
        };
        let region = Region::create(layout.len()).map_err(|e| e.0)?;
        layout.init(&region);
        Ok(Channels {
            inbox: Arc::new(region),
            layout,
            ins: (0..layout.slots).map(|_| None).collect(),
            by_peer: IdMap::default(),
            outs: Vec::new(),
            out_of: IdMap::default(),
            host: host_key(),
            next_scan: 0,
            last_from: None,
            last_out: std::cell::Cell::new(None),
            backlogged: 0,
            pid: std::process::id(),
        })
    }

    /// What peers need to write to this process.
    pub fn desc(&self) -> Desc {
        Desc {
            host: self.host,
            pid: self.pid,
            fd: self.inbox.fd(),
            slots: self.layout.slots as u32,
            ok: true,
        }
    }

    /// Whether `d` describes a process of this node with an inbox.
    pub fn reachable(&self, d: &Desc) -> bool {
        d.ok && d.host == self.host && d.pid != self.pid
    }

    /// Claims a ring in `peer`'s inbox. `me` is this process's id.
    pub fn connect(&mut self, me: ProcId, peer: ProcId, d: &Desc) -> Result<(), String> {
        let layout = Layout {
            slots: d.slots as usize,
            cap: RING_CAP,
        };
        let region = Region::open_peer(d.pid, d.fd, layout.len()).map_err(|e| e.0)?;
        if !layout.matches(&region) {
            return Err(format!("process {} has no inbox at fd {}", d.pid, d.fd));
        }
        let slot = layout
            .claim(&region, me.raw())
            .ok_or_else(|| format!("the inbox of {peer} has no free slot"))?;
        let region = Arc::new(region);
        let out = Out {
            prod: Producer::new(&region, layout.ring(slot)),
            region,
            layout,
            slot,
            pid: d.pid,
            backlog: VecDeque::new(),
            seen_alive: Instant::now(),
            gone: false,
        };
        self.last_out.set(None);
        let at = match self.out_of.get(&peer) {
            Some(&at) => at,
            None => {
                let at = match self.outs.iter().position(Option::is_none) {
                    Some(hole) => hole,
                    None => {
                        self.outs.push(None);
                        self.outs.len() - 1
                    }
                };
                self.out_of.insert(peer, at);
                at
            }
        };
        if let Some(old) = self.outs[at].replace(out) {
            if !old.backlog.is_empty() {
                self.backlogged -= 1;
            }
        }
        Ok(())
    }

    /// Gives up the ring to `peer` (it drains what is there; a backlog
    /// not yet in the ring is dropped).
    pub fn disconnect(&mut self, peer: ProcId) {
        let out = self
            .out_of
            .remove(&peer)
            .and_then(|at| self.outs[at].take());
        if let Some(o) = out {
            self.last_out.set(None);
            if !o.backlog.is_empty() {
                self.backlogged -= 1;
            }
            o.layout.close(&o.region, o.slot);
        }
    }

    /// Position in `outs` of the ring to `peer`, remembered for the next
    /// call.
    #[inline(always)]
    fn out_at(&self, peer: ProcId) -> Option<usize> {
        match self.last_out.get() {
            Some((p, at)) if p == peer => Some(at),
            _ => {
                let at = *self.out_of.get(&peer)?;
                self.last_out.set(Some((peer, at)));
                Some(at)
            }
        }
    }

    /// The ring to `peer`.
    #[inline(always)]
    fn out_mut(&mut self, peer: ProcId) -> Option<&mut Out> {
        let at = self.out_at(peer)?;
        self.outs.get_mut(at)?.as_mut()
    }

    /// Whether envelopes to `peer` go through a ring.
    pub fn has(&self, peer: ProcId) -> bool {
        self.out_at(peer).is_some()
    }

    /// Number of peers reached through rings.
    pub fn peers(&self) -> usize {
        self.out_of.len()
    }

    /// The largest record body a ring takes.
    pub fn max_body(&self) -> usize {
        self.layout.ring(0).max_body()
    }

    /// Writes one record (`head` then `body`) to `peer` and wakes it if
    /// it sleeps; a record that finds the ring full (or a backlog ahead of
    /// it) is queued. Inlined: it is most of a small send.
    #[inline(always)]
    pub fn push<const H: usize>(&mut self, peer: ProcId, head: &[u8; H], body: &[u8]) -> Push {
        let Some(o) = self.out_mut(peer) else {
            return Push::NoRing;
        };
        if o.backlog.is_empty() && o.prod.try_push(head, body) {
            o.delivered();
            return Push::Sent;
        }
        self.queue(peer, head, body)
    }

    /// [`push`](Self::push) of a record that found the ring full or a
    /// backlog ahead of it: it joins the backlog (unless the receiver is
    /// gone), which then moves as far as there is room.
    #[inline(never)]
    fn queue<const H: usize>(&mut self, peer: ProcId, head: &[u8; H], body: &[u8]) -> Push {
        let Some(at) = self.out_at(peer) else {
            return Push::NoRing;
        };
        let Some(o) = self.outs[at].as_mut() else {
            return Push::NoRing;
        };
        if o.backlog.is_empty() {
            if o.gone {
                return Push::Gone;
            }
            self.backlogged += 1;
            o.seen_alive = Instant::now();
        }
        let mut rec = Vec::with_capacity(H + body.len());
        rec.extend_from_slice(head);
        rec.extend_from_slice(body);
        o.backlog.push_back(rec);
        o.flush(Instant::now());
        if o.backlog.is_empty() {
            self.backlogged -= 1;
        }
        Push::Queued
    }

    /// Whether a record for `peer` waits in a backlog.
    pub fn backlog_for(&self, peer: ProcId) -> bool {
        let o = self.out_at(peer).and_then(|at| self.outs[at].as_ref());
        o.is_some_and(|o| !o.backlog.is_empty())
    }

    /// Whether some record waits in a backlog.
    #[inline]
    pub fn backlogged(&self) -> bool {
        self.backlogged > 0
    }

    /// Moves backlog records into their rings as far as they fit; returns
    /// how many moved.
    pub fn flush(&mut self) -> usize {
        self.flush_at(Instant::now())
    }

    /// [`flush`](Self::flush) at time `now` (when receivers are checked).
    fn flush_at(&mut self, now: Instant) -> usize {
        let mut moved = 0;
        let outs = self.outs.iter_mut().flatten();
        for o in outs.filter(|o| !o.backlog.is_empty()) {
            moved += o.flush(now);
            if o.backlog.is_empty() {
                self.backlogged -= 1;
            }
        }
        moved
    }

    /// Tells senders that this process reads no more: their backlogs for
    /// it are dropped instead of waiting (process exit).
    pub fn leave(&self) {
        self.inbox.u32_at(OFF_LEFT).store(1, Ordering::Release);
    }

    /// Notices newly opened and closed slots; recycles drained closed ones.
    pub fn maintain(&mut self) {
        self.refresh();
    }

    fn refresh(&mut self) {
        let high = self.layout.high(&self.inbox);
        for slot in 0..high {
            let (st, owner) = self.layout.slot(&self.inbox, slot);
            match (&self.ins[slot], st) {
                (None, OPEN) | (None, CLOSED) => {
                    if let Some(peer) = ProcId::from_raw(owner) {
                        self.ins[slot] = Some(In {
                            peer,
                            cons: Consumer::new(&self.inbox, self.layout.ring(slot)),
                        });
                        self.by_peer.insert(peer, slot);
                        self.last_from = None;
                    }
                }
                (Some(i), CLOSED) if !i.cons.ready() => {
                    let peer = i.peer;
                    self.ins[slot] = None;
                    self.last_from = None;
                    if self.by_peer.get(&peer) == Some(&slot) {
                        self.by_peer.remove(&peer);
                    }
                    self.layout.recycle(&self.inbox, slot);
                }
                _ => {}
            }
        }
    }

    /// The next record of any sender, scanning fairly; `None` when nothing
    /// is waiting.
    pub fn next(&mut self) -> Option<Record> {
        let mut refreshed = false;
        let n = self.layout.high(&self.inbox);
        for k in 0..n {
            let slot = (self.next_scan + k) % n;
            if self.ins[slot].is_none() && !refreshed {
                let st = self.layout.slot(&self.inbox, slot).0;
                if st == OPEN || st == CLOSED {
                    self.refresh();
                    refreshed = true;
                }
            }
            if let Some(i) = self.ins[slot].as_mut() {
                if let Some((off, len)) = i.cons.peek() {
                    self.next_scan = slot + 1;
                    return Some(Record {
                        peer: i.peer,
                        slot,
                        off,
                        len,
                    });
                }
            }
        }
        None
    }

    /// The slot `peer` writes to, remembered between calls: a wait asks
    /// for the same peer poll after poll.
    #[inline]
    fn slot_of(&mut self, peer: ProcId) -> Option<usize> {
        match self.last_from {
            Some((p, slot)) if p == peer => Some(slot),
            _ => {
                let slot = *self.by_peer.get(&peer)?;
                self.last_from = Some((peer, slot));
                Some(slot)
            }
        }
    }

    /// Whether `peer`'s ring holds a record (or a skip), without taking
    /// it: one load and a compare, for the tight loop of a wait.
    #[inline(always)]
    pub fn ready_from(&mut self, peer: ProcId) -> bool {
        let Some(slot) = self.slot_of(peer) else {
            return false;
        };
        match &self.ins[slot] {
            Some(i) => i.cons.ready(),
            None => false,
        }
    }

    /// A watch on `peer`'s ring, to see its next record arrive without
    /// the engine, and on the CPU `peer` last wrote to it from.
    pub(crate) fn watch_from(&mut self, peer: ProcId) -> Option<Watch> {
        let slot = self.slot_of(peer)?;
        let ring = self.ins[slot].as_ref()?.cons.watch();
        Some(Watch::new(
            ring,
            Arc::clone(&self.inbox),
            Layout::sent_from(slot),
        ))
    }

    /// The next record from `peer` alone (inlined: it is the first step
    /// of every receive from a named sender).
    #[inline(always)]
    pub fn next_from(&mut self, peer: ProcId) -> Option<Record> {
        let slot = self.slot_of(peer)?;
        let i = self.ins[slot].as_mut()?;
        let (off, len) = i.cons.peek()?;
        Some(Record {
            peer: i.peer,
            slot,
            off,
            len,
        })
    }

    /// This process's inbox region (to read a record where it lies).
    pub fn inbox(&self) -> Arc<Region> {
        Arc::clone(&self.inbox)
    }

    /// The bytes of a record's body, where they lie (valid until `pop`).
    #[inline]
    pub fn bytes(&self, off: usize, len: usize) -> &[u8] {
        self.inbox.bytes(off, len)
    }

    /// Releases a record returned by [`next`](Self::next). A closed slot
    /// drained this way is recycled by the next [`maintain`](Self::maintain)
    /// (a release reads nothing but the ring's own counter).
    #[inline(always)]
    pub fn pop(&mut self, rec: Record) {
        if let Some(i) = self.ins[rec.slot].as_mut() {
            i.cons.pop(rec.len);
        }
    }

    /// Whether any record is waiting (or a slot changed state).
    fn anything(&self) -> bool {
        let high = self.layout.high(&self.inbox);
        (0..high).any(|slot| match &self.ins[slot] {
            Some(i) => i.cons.ready(),
            None => self.layout.slot(&self.inbox, slot).0 != inbox::FREE,
        })
    }

    /// Announces that a thread of this process is about to sleep; returns
    /// the doorbell value to sleep on, or `None` when something already
    /// arrived (then nothing was announced).
    pub fn prepare_sleep(&self) -> Option<Sleeper> {
        self.inbox
            .u32_at(OFF_WAITING)
            .fetch_add(1, Ordering::SeqCst);
        mem::full_fence();
        let seen = self.inbox.u32_at(OFF_DOORBELL).load(Ordering::SeqCst);
        if self.anything() {
            self.inbox
                .u32_at(OFF_WAITING)
                .fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Sleeper {
            inbox: Arc::clone(&self.inbox),
            seen,
        })
    }

    /// Ends every ring this process writes (process exit).
    pub fn close_all(&mut self) {
        let peers: Vec<ProcId> = self.out_of.keys().copied().collect();
        for p in peers {
            self.disconnect(p);
        }
    }
}

/// A thread about to sleep on its inbox's doorbell (see
/// [`Channels::prepare_sleep`]); sleep outside the engine's lock.
pub(crate) struct Sleeper {
    inbox: Arc<Region>,
    seen: u32,
}

impl Sleeper {
    /// Sleeps until a sender rings or `timeout` passes.
    pub fn sleep(self, timeout: Duration) {
        self.inbox.futex_wait(OFF_DOORBELL, self.seen, timeout);
    }
}

impl Drop for Sleeper {
    fn drop(&mut self) {
        self.inbox
            .u32_at(OFF_WAITING)
            .fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process's channels with one ring into its own inbox.
    fn looped() -> (Channels, ProcId) {
        let mut ch = Channels::create(1).expect("inbox");
        let me = ProcId::new(0, 1).expect("id");
        let d = ch.desc();
        ch.connect(me, me, &d).expect("ring to itself");
        (ch, me)
    }

    fn take(ch: &mut Channels) -> Option<Vec<u8>> {
        let rec = ch.next()?;
        let body = ch.bytes(rec.off, rec.len).to_vec();
        ch.pop(rec);
        Some(body)
    }

    #[test]
    fn a_full_ring_queues_records_and_keeps_their_order() {
        let (mut ch, me) = looped();
        let body = |k: u32| -> Vec<u8> { (0..1000u32).map(|i| (k * 7 + i) as u8).collect() };
        let mut outcomes = Vec::new();
        for k in 0..100u32 {
            outcomes.push(ch.push(me, &k.to_le_bytes(), &body(k)));
        }
        assert_eq!(outcomes[0], Push::Sent);
        assert_eq!(
            outcomes[99],
            Push::Queued,
            "the ring holds less than 100 KB"
        );
        assert!(ch.backlogged());
        let mut got = 0u32;
        while got < 100 {
            match take(&mut ch) {
                Some(rec) => {
                    assert_eq!(rec[..4], got.to_le_bytes(), "records in send order");
                    assert_eq!(rec[4..], body(got)[..]);
                    got += 1;
                }
                None => assert!(ch.flush() > 0, "the backlog moves once there is room"),
            }
        }
        assert!(!ch.backlogged());
        assert_eq!(ch.push(me, &[1u8], b"after"), Push::Sent);
    }

    #[test]
    fn a_backlog_for_a_receiver_that_left_is_dropped() {
        let (mut ch, me) = looped();
        while ch.push(me, &[0u8; 8], &[5u8; 1000]) == Push::Sent {}
        assert!(ch.backlogged());
        ch.leave();
        let later = Instant::now() + BACKLOG_CHECK + Duration::from_millis(50);
        assert_eq!(ch.flush_at(later), 0);
        assert!(!ch.backlogged(), "nothing waits for a receiver that left");
        assert_eq!(ch.push(me, &[0u8; 8], &[5u8; 1000]), Push::Gone);
    }

    #[test]
    fn a_watch_sees_the_next_record_and_the_cpu_its_sender_wrote_from() {
        use crate::backoff::Turns;
        crate::backoff::spin_turns_in_tests();
        let (mut ch, me) = looped();
        // The sender is this very process, so the slot names the CPU it
        // runs on (tried a few times: the thread may move between CPUs
        // between its write and the look).
        let here = (0..100u8).any(|n| {
            assert_eq!(ch.push(me, &[n], b"record"), Push::Sent);
            assert!(take(&mut ch).is_some());
            ch.watch_from(me).is_some_and(|w| w.sender_here())
        });
        assert!(here, "the sender is found on this process's CPU");
        let w = ch.watch_from(me).expect("a ring from itself");
        assert!(!w.ready(), "the taken records do not count");
        let slot = ch.slot_of(me).expect("the ring's slot");
        ch.inbox
            .u32_at(Layout::sent_from(slot))
            .store(0, Ordering::Relaxed);
        assert!(!w.sender_here(), "a CPU not known is not this one");
        assert_eq!(ch.push(me, &[2u8], b"second"), Push::Sent);
        assert!(w.ready());
    }
}
