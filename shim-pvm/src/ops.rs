//! PVM operations of an enrolled task, in PVM's terms: send, multicast and
//! the receive family, psend/precv, spawn, kill, notify and configuration.

use crate::consts::{err, notify};
use crate::msgstate::encoding_word;
use crate::pack::{Encoding, MsgBuf};
use crate::task::{family_body, from_core, id_of, sys_tag, tid_of, Task};
use crate::tev::{self, ev};
use crate::{PvmError, PvmResult};
use shim_core::log::tracing::debug;
use shim_core::{Context, CoreError, CoreResult, Match, Received};
use std::borrow::Cow;
use std::time::{Duration, Instant};

/// How long a blocked receive waits between looks at system messages
/// (kill requests and exit notices).
const SYSTEM_CHECK: Duration = Duration::from_millis(20);

/// While messages flow, the clock is read for the periodic system check
/// only on every this many calls (a clock read costs as much as the rest of
/// a small message's bookkeeping); a receive that waits looks every slice.
const SYSTEM_CHECK_CALLS: u32 = 32;

/// What the in-place receive of [`Task::receive`] did.
enum InPlace {
    /// The message came, filed under this id (the receive buffer's).
    Took(i32),
    /// A poll found nothing; the receive buffer was freed.
    Nothing,
    /// Nothing came within the first slice; the receive buffer was freed.
    Waited,
    /// Not applicable; nothing was done.
    NotTried,
    /// System messages are due for a look: nothing else was done.
    SystemDue,
}

/// How a receive waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Until a message comes (`pvm_recv`).
    Forever,
    /// Not at all (`pvm_nrecv`).
    Poll,
    /// Until a deadline (`pvm_trecv`).
    For(Duration),
}

/// What a blocking receive ended with.
pub enum Outcome<T> {
    /// The result.
    Done(T),
    /// A `pvm_kill` arrived: the task must end.
    Killed,
}

/// The caller's memory behind an in-place send buffer, read when the
/// message is sent. Supplied by the C layer's pointer module
/// (`ptr::IN_PLACE`).
#[derive(Clone, Copy)]
pub struct InPlaceMemory<'a> {
    /// `(addr, size, nitem, stride)` to a copy of the region's packed
    /// native bytes.
    pub gather: &'a dyn Fn(usize, usize, usize, usize) -> Vec<u8>,
    /// `(addr, len)` to those bytes where they lie, uncopied.
    pub view: &'a dyn Fn(usize, usize) -> &'a [u8],
}

/// The bytes a send buffer puts on the wire: the caller's memory itself
/// when the message is one contiguous in-place region (no copy; the
/// caller must leave it alone until the send returns, as PVM requires),
/// else the body with any in-place regions gathered in.
fn wire_of<'a, 'm: 'a>(buf: &'a MsgBuf, mem: InPlaceMemory<'m>) -> Cow<'a, [u8]> {
    match buf.sole_region() {
        Some((addr, len)) => Cow::Borrowed((mem.view)(addr, len)),
        None => buf.wire(mem.gather),
    }
}

fn check_tag(tag: i32) -> PvmResult<()> {
    if tag < 0 {
        Err(PvmError(err::BAD_PARAM))
    } else {
        Ok(())
    }
}

fn check_pattern(tid: i32, tag: i32) -> PvmResult<(Option<i32>, Option<i32>)> {
    if tag < -1 || (tid != -1 && !crate::consts::tid::is_task(tid)) {
        return Err(PvmError(err::BAD_PARAM));
    }
    Ok(((tid != -1).then_some(tid), (tag != -1).then_some(tag)))
}

/// Sends on the user context; a tid nobody has drops the message, as PVM does.
#[inline]
fn deliver(user: Context, tid: i32, tag: i32, word: u32, bytes: &[u8]) -> PvmResult<()> {
    let Some(id) = id_of(tid) else {
        return Ok(());
    };
    match user.send(id, tag, word, bytes) {
        Ok(()) | Err(CoreError::UnknownPeer(_)) => Ok(()),
        Err(e) => Err(from_core(e)),
    }
}

impl Task {
    /// `pvm_send`.
    #[inline]
    pub fn send(&mut self, tid: i32, tag: i32, mem: InPlaceMemory<'_>) -> PvmResult<()> {
        check_tag(tag)?;
        if !crate::consts::tid::is_task(tid) {
            return Err(PvmError(err::BAD_PARAM));
        }
        let (user, ctx) = (self.user, self.msg.context);
        let buf = self.msg.sbuf_mut()?;
        buf.whole()?;
        let word = encoding_word(ctx, buf.encoding());
        let bytes = wire_of(buf, mem);
        tev::sent(ev::SEND, tid, tag, bytes.len());
        deliver(user, tid, tag, word, &bytes)
    }

    /// Sends a buffer that is not in the buffer table (the Rust API's).
    pub fn send_msg(&mut self, tid: i32, tag: i32, msg: &crate::pack::MsgBuf) -> PvmResult<()> {
        check_tag(tag)?;
        if !crate::consts::tid::is_task(tid) {
            return Err(PvmError(err::BAD_PARAM));
        }
        let word = encoding_word(self.msg.context, msg.encoding());
        let none = |_: usize, _: usize, _: usize, _: usize| Vec::new();
        let bytes = msg.wire(&none);
        tev::sent(ev::SEND, tid, tag, bytes.len());
        deliver(self.user, tid, tag, word, &bytes)
    }

    /// `pvm_mcast`: every listed task once, never the caller.
    pub fn mcast(&mut self, tids: &[i32], tag: i32, mem: InPlaceMemory<'_>) -> PvmResult<()> {
        check_tag(tag)?;
        if tids.iter().any(|&t| !crate::consts::tid::is_task(t)) {
            return Err(PvmError(err::BAD_PARAM));
        }
        let mut list = tids.to_vec();
        list.sort_unstable();
        list.dedup();
        let (user, ctx, me) = (self.user, self.msg.context, self.me);
        let buf = self.msg.sbuf_mut()?;
        buf.whole()?;
        let word = encoding_word(ctx, buf.encoding());
        let bytes = wire_of(buf, mem);
        for t in list.into_iter().filter(|&t| t != me) {
            tev::sent(ev::MCAST, t, tag, bytes.len());
            deliver(user, t, tag, word, &bytes)?;
        }
        Ok(())
    }

    /// `pvm_psend`: raw bytes, the active send buffer untouched.
    #[inline]
    pub fn psend(&mut self, tid: i32, tag: i32, bytes: &[u8]) -> PvmResult<()> {
        check_tag(tag)?;
        if !crate::consts::tid::is_task(tid) {
            return Err(PvmError(err::BAD_PARAM));
        }
        let word = encoding_word(self.msg.context, Encoding::Raw);
        tev::sent(ev::PSEND, tid, tag, bytes.len());
        deliver(self.user, tid, tag, word, bytes)
    }

    /// Looks at system messages if `now` is set, or on every
    /// `SYSTEM_CHECK_CALLS`-th call when the last look is older than
    /// `SYSTEM_CHECK`. Returns `true` if killed.
    fn system_check(&mut self, now: bool) -> PvmResult<bool> {
        if !now {
            if self.system_check_skips > 0 {
                self.system_check_skips -= 1;
                return Ok(false);
            }
            self.system_check_skips = SYSTEM_CHECK_CALLS - 1;
            if self.last_system_check.elapsed() < SYSTEM_CHECK {
                return Ok(false);
            }
        }
        self.last_system_check = Instant::now();
        self.serve_system()
    }

    #[inline]
    fn pattern(&self, src: Option<i32>, tag: Option<i32>) -> Option<Match> {
        let source = match src {
            Some(t) => Some(id_of(t)?),
            None => None,
        };
        let mut m = Match::new(source, tag);
        let mask = !((1u32 << crate::msgstate::ENC_BITS) - 1);
        m.encoding = (mask, (self.msg.context as u32) << crate::msgstate::ENC_BITS);
        Some(m)
    }

    /// Finds the first message matching (tid, tag) in the current context,
    /// waiting as `wait` says, and returns its buffer id (`None`: nothing
    /// came). A message that was queued stays queued; one that arrives now
    /// is not queued (the caller takes it).
    pub fn find(&mut self, tid: i32, tag: i32, wait: Wait) -> PvmResult<Outcome<Option<i32>>> {
        self.find_with(tid, tag, wait, false, false)
    }

    /// [`find`](Self::find); with `lazy`, a large payload delivered straight
    /// to this receive is left in MPI (the caller makes the buffer its
    /// receive buffer). `waited`: the receive waited a slice already, so
    /// system messages are looked at first.
    fn find_with(
        &mut self,
        tid: i32,
        tag: i32,
        wait: Wait,
        lazy: bool,
        mut waited: bool,
    ) -> PvmResult<Outcome<Option<i32>>> {
        let (src, tag) = check_pattern(tid, tag)?;
        if let Some(id) = self.msg.find_queued(src, tag) {
            return Ok(Outcome::Done(Some(id)));
        }
        let Some(pattern) = self.pattern(src, tag) else {
            // A tid nobody has never sends anything.
            return match wait {
                Wait::Forever => self.idle_forever(),
                Wait::Poll => Ok(Outcome::Done(None)),
                Wait::For(d) => {
                    std::thread::sleep(d);
                    Ok(Outcome::Done(None))
                }
            };
        };
        let deadline = match wait {
            Wait::For(d) => Some(Instant::now() + d),
            _ => None,
        };
        loop {
            // While messages flow, system messages are looked at every
            // SYSTEM_CHECK; a receive that has to wait looks every slice.
            if self.system_check(waited)? {
                return Ok(Outcome::Killed);
            }
            // System messages may have queued a match (an exit notice).
            if let Some(id) = self.msg.find_queued(src, tag) {
                return Ok(Outcome::Done(Some(id)));
            }
            waited = true;
            let slice = match (wait, deadline) {
                (Wait::Poll, _) => Duration::ZERO,
                (_, Some(d)) => d
                    .saturating_duration_since(Instant::now())
                    .min(SYSTEM_CHECK),
                _ => SYSTEM_CHECK,
            };
            let storage = self.msg.take_recv_storage();
            let lazy_min = if lazy { self.lazy_min } else { usize::MAX };
            match self.user.recv_lazy(pattern, Some(slice), storage, lazy_min) {
                Ok((m, None)) => {
                    let id = self.msg.adopt(tid_of(m.source), m.tag, m.encoding, m.data);
                    return Ok(Outcome::Done(Some(id)));
                }
                Ok((m, Some(payload))) => {
                    let (src, tag) = (tid_of(m.source), m.tag);
                    let id = self.msg.adopt_lazy(src, tag, m.encoding, m.data, payload)?;
                    return Ok(Outcome::Done(Some(id)));
                }
                // The named sender ended and everything it sent is in:
                // as in PVM, the receive waits on (only a notice or a
                // message of another sender can match).
                Err(CoreError::UnknownPeer(_)) if wait != Wait::Poll => {
                    std::thread::sleep(slice);
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Ok(Outcome::Done(None));
                    }
                }
                Err(CoreError::Timeout) | Err(CoreError::UnknownPeer(_)) => {
                    let expired = match (wait, deadline) {
                        (Wait::Poll, _) => true,
                        (_, Some(d)) => Instant::now() >= d,
                        _ => false,
                    };
                    if expired {
                        return Ok(Outcome::Done(None));
                    }
                }
                Err(e) => return Err(from_core(e)),
            }
        }
    }

    fn idle_forever(&mut self) -> PvmResult<Outcome<Option<i32>>> {
        loop {
            if self.serve_system()? {
                return Ok(Outcome::Killed);
            }
            std::thread::sleep(SYSTEM_CHECK);
        }
    }

    /// `pvm_recv`/`pvm_nrecv`/`pvm_trecv`: frees the receive buffer, then
    /// makes the matching message the new one. Returns its id, or 0.
    pub fn receive(&mut self, tid: i32, tag: i32, wait: Wait) -> PvmResult<Outcome<i32>> {
        let (src, pattern_tag) = check_pattern(tid, tag)?;
        let waited = match self.receive_in_place(src, pattern_tag, wait)? {
            InPlace::Took(id) => return self.took(id, wait),
            InPlace::Nothing => return Ok(Outcome::Done(0)),
            InPlace::Waited => true,
            InPlace::NotTried => {
                self.msg.drop_rbuf();
                false
            }
            InPlace::SystemDue => {
                self.msg.drop_rbuf();
                true
            }
        };
        match self.find_with(tid, tag, wait, true, waited)? {
            Outcome::Killed => Ok(Outcome::Killed),
            Outcome::Done(None) => Ok(Outcome::Done(0)),
            Outcome::Done(Some(id)) => {
                self.msg.unqueue(id);
                self.msg.rbuf = id;
                self.took(id, wait)
            }
        }
    }

    /// The common case of [`receive`](Self::receive), in fewer steps: the
    /// receive buffer is an ordinary one, nothing is queued, no system look
    /// is due and the wait has no deadline. The message is received into
    /// the receive buffer's storage and filed under its id, which is what
    /// freeing the buffer and filing the message gives (the id freed last
    /// is the next one handed out). When nothing comes within the first
    /// slice, the receive buffer is freed as usual and the caller waits on
    /// (`Waited`) or, for a poll, returns 0 (`Nothing`). The periodic look
    /// at system messages is kept: when it is due, the caller takes the
    /// general path, looking first (`SystemDue`).
    fn receive_in_place(
        &mut self,
        src: Option<i32>,
        tag: Option<i32>,
        wait: Wait,
    ) -> PvmResult<InPlace> {
        let slice = match wait {
            Wait::Forever => SYSTEM_CHECK,
            Wait::Poll => Duration::ZERO,
            Wait::For(_) => return Ok(InPlace::NotTried),
        };
        if self.system_check_skips == 0 {
            // What `system_check` does on this call: a look at the clock,
            // and at system messages if the last look is old.
            if self.last_system_check.elapsed() >= SYSTEM_CHECK {
                self.system_check_skips = SYSTEM_CHECK_CALLS - 1;
                return Ok(InPlace::SystemDue);
            }
            // This call's own count is taken below (or by the general path).
            self.system_check_skips = SYSTEM_CHECK_CALLS;
        }
        let Some(pattern) = self.pattern(src, tag) else {
            return Ok(InPlace::NotTried);
        };
        let Some(storage) = self.msg.rbuf_storage() else {
            return Ok(InPlace::NotTried);
        };
        self.system_check_skips -= 1;
        match self
            .user
            .recv_lazy(pattern, Some(slice), storage, self.lazy_min)
        {
            Ok((m, payload)) => {
                let id = self
                    .msg
                    .refill_rbuf(tid_of(m.source), m.tag, m.encoding, m.data, payload);
                Ok(InPlace::Took(id))
            }
            Err(e @ (CoreError::Timeout | CoreError::UnknownPeer(_))) => {
                self.msg.drop_rbuf();
                if wait == Wait::Poll {
                    return Ok(InPlace::Nothing);
                }
                // The named sender ended and everything it sent is in: the
                // receive waits on, as in PVM.
                if matches!(e, CoreError::UnknownPeer(_)) {
                    std::thread::sleep(slice);
                }
                Ok(InPlace::Waited)
            }
            Err(e) => {
                self.msg.drop_rbuf();
                Err(from_core(e))
            }
        }
    }

    /// The end of a receive that made `id` the receive buffer: the trace
    /// event, if traced.
    #[inline(always)]
    fn took(&mut self, id: i32, wait: Wait) -> PvmResult<Outcome<i32>> {
        let k = match wait {
            Wait::Forever => ev::RECV,
            Wait::Poll => ev::NRECV,
            Wait::For(_) => ev::TRECV,
        };
        if tev::wants(k) {
            let b = self.msg.get(id)?;
            tev::received(k, b.src, b.tag, b.msg.byte_len());
        }
        Ok(Outcome::Done(id))
    }

    /// Moves every message that has arrived (any context) into the task's
    /// queue, in arrival order.
    pub fn pull_arrivals(&mut self) -> PvmResult<()> {
        while let Some(m) = self.user.take_where(|_| true).map_err(from_core)? {
            self.msg
                .enqueue(tid_of(m.source), m.tag, m.encoding, m.data);
        }
        Ok(())
    }

    /// `pvm_probe`: the matching message's buffer id (it stays queued), or 0.
    /// Everything that arrived is queued first, so the probed message keeps
    /// its place among earlier ones from the same sender.
    pub fn probe(&mut self, tid: i32, tag: i32) -> PvmResult<Outcome<i32>> {
        let (src, tag) = check_pattern(tid, tag)?;
        if self.system_check(false)? {
            return Ok(Outcome::Killed);
        }
        self.pull_arrivals()?;
        Ok(Outcome::Done(self.msg.find_queued(src, tag).unwrap_or(0)))
    }

    /// `pvm_precv`: copies the message's bytes into `out` (truncating) and
    /// returns (source, tag, full length in bytes); buffers untouched. A
    /// message not yet queued is received straight into `out`.
    ///
    /// The common case takes few steps: nothing queued, the tid known and
    /// no look at system messages due; the first receive of the core then
    /// finds the message or waits its first slice. Anything else, and a
    /// receive that waits on, takes the general path out of line.
    #[inline]
    pub fn precv(
        &mut self,
        tid: i32,
        tag: i32,
        out: &mut [u8],
    ) -> PvmResult<Outcome<(i32, i32, usize)>> {
        let (src, tag) = check_pattern(tid, tag)?;
        if !self.msg.queued.is_empty() || self.system_check_skips == 0 {
            return self.precv_general(src, tag, out, false);
        }
        let Some(pattern) = self.pattern(src, tag) else {
            return self.precv_general(src, tag, out, false);
        };
        // What `system_check(false)` does with skips left: counts this call.
        self.system_check_skips -= 1;
        let got = self
            .user
            .recv_into_truncating(pattern, out, Some(SYSTEM_CHECK));
        match precv_outcome(got)? {
            Some(done) => Ok(Outcome::Done(done)),
            None => self.precv_general(src, tag, out, true),
        }
    }

    /// [`precv`](Self::precv) in every case: a queued match first, else
    /// receives in slices with looks at system messages between them
    /// (`waited`: a slice has passed already, so the first look is made).
    #[cold]
    #[inline(never)]
    fn precv_general(
        &mut self,
        src: Option<i32>,
        tag: Option<i32>,
        out: &mut [u8],
        mut waited: bool,
    ) -> PvmResult<Outcome<(i32, i32, usize)>> {
        if let Some(id) = self.msg.find_queued(src, tag) {
            let read = |_: usize, _: usize, _: usize, _: usize| Vec::new();
            let b = self.msg.get(id)?;
            let (from, t) = (b.src, b.tag);
            let bytes = b.msg.wire(&read);
            let n = bytes.len().min(out.len());
            out[..n].copy_from_slice(&bytes[..n]);
            let full = bytes.len();
            tev::received(ev::PRECV, from, t, full);
            self.msg.unqueue(id);
            let _ = self.msg.freebuf(id);
            return Ok(Outcome::Done((from, t, full)));
        }
        let Some(pattern) = self.pattern(src, tag) else {
            return match self.idle_forever()? {
                Outcome::Killed => Ok(Outcome::Killed),
                Outcome::Done(_) => Err(PvmError(err::SYS_ERR)),
            };
        };
        loop {
            if self.system_check(waited)? {
                return Ok(Outcome::Killed);
            }
            waited = true;
            let got = self
                .user
                .recv_into_truncating(pattern, out, Some(SYSTEM_CHECK));
            if let Some(done) = precv_outcome(got)? {
                return Ok(Outcome::Done(done));
            }
        }
    }

    /// Where a spawn with `flag` and `place` may go: `Ok(None)` anywhere,
    /// `Ok(Some(host))` on that host of the job, `Err(PvmNoHost)` for a
    /// host the job does not run on or an architecture it does not have.
    /// As in PVM, `place` counts only with `PvmTaskHost` (a host name, `"."`
    /// for this task's host, an optional `":dir"` suffix ignored) or
    /// `PvmTaskArch` (an architecture name); `PVMTASK` is OR-ed into `flag`.
    pub fn spawn_place(&self, flag: i32, place: Option<&str>) -> PvmResult<Option<String>> {
        let env_flag = std::env::var("PVMTASK")
            .ok()
            .and_then(|v| v.trim().parse::<i32>().ok())
            .unwrap_or(0);
        let flag = flag | env_flag;
        let place = place.map(str::trim).filter(|p| !p.is_empty());
        let Some(place) = place else {
            return Ok(None);
        };
        if flag & crate::consts::spawn::TASK_HOST != 0 {
            let name = place.split(':').next().unwrap_or(place);
            if name == "." {
                return Ok(Some(shim_core::mpi::processor_name()));
            }
            return match self.hosts().into_iter().find(|h| h == name) {
                Some(h) => Ok(Some(h)),
                None => Err(PvmError(err::NO_HOST)),
            };
        }
        if flag & crate::consts::spawn::TASK_ARCH != 0 && place != crate::consts::spawn::ARCH {
            return Err(PvmError(err::NO_HOST));
        }
        Ok(None)
    }

    /// `pvm_spawn`: claims idle pre-launched ranks running `task` (on
    /// `host`, if given), then starts the rest with the backend's spawn
    /// there. One slot per requested task: a tid or a negative PVM error.
    pub fn spawn(
        &mut self,
        task: &str,
        args: &[String],
        ntask: i32,
        host: Option<&str>,
    ) -> PvmResult<Vec<i32>> {
        if ntask < 1 || task.is_empty() {
            return Err(PvmError(err::BAD_PARAM));
        }
        let want = crate::task::base_name(task);
        let mut claimed: Vec<i32> = Vec::new();
        let pool = std::mem::take(&mut self.pool);
        for t in pool {
            let rank = self.world_tids.iter().position(|&w| w == t);
            let runs_it = rank.is_some_and(|r| {
                self.world[r].program == want && host.is_none_or(|h| self.world[r].host == h)
            });
            if runs_it && (claimed.len() as i32) < ntask {
                claimed.push(t);
            } else {
                self.pool.push(t);
            }
        }
        let mut slots: Vec<i32> = claimed.clone();
        let rest = ntask - claimed.len() as i32;
        if !claimed.is_empty() {
            debug!(target: "pvm", task, ?claimed, "pvm_spawn: claiming pre-launched tasks");
        }
        let mut started: Vec<i32> = Vec::new();
        if rest > 0 {
            match shim_core::spawn::find_executable(task).or_else(|| pvm_path_lookup(task)) {
                None => {
                    debug!(
                        target: "pvm",
                        task,
                        count = rest,
                        "pvm_spawn: no such executable on PATH or in PVM's bin directories; PvmNoFile"
                    );
                    slots.extend(std::iter::repeat_n(err::NO_FILE, rest as usize))
                }
                Some(path) => {
                    // A named host takes them all; otherwise they are dealt
                    // out over the machine's hosts, one backend spawn per host.
                    let placements = match host {
                        Some(h) => vec![(Some(h.to_string()), rest)],
                        None => self.machine.spread(rest),
                    };
                    for (on, count) in placements {
                        debug!(
                            target: "pvm",
                            path = %path.display(),
                            count,
                            host = %on.as_deref().unwrap_or("any"),
                            "pvm_spawn: starting new tasks"
                        );
                        let got = self.spawn_on(&path.to_string_lossy(), task, args, count, on)?;
                        for s in got {
                            if s > 0 {
                                started.push(s);
                            }
                            slots.push(s);
                        }
                    }
                }
            }
        }
        let family: Vec<i32> = slots.iter().copied().filter(|&t| t > 0).collect();
        tev::spawned(task, &family);
        // A tid of an ended task can come back with a reused spawn number.
        for t in &family {
            self.ended.remove(t);
        }
        let body = family_body(self.me, self.msg.context, &family);
        // A started program that is not a PVM task (it never joins MPI)
        // cannot be reached: it gets no list.
        let tell =
            |sys: Context, t: i32, tag: i32| match id_of(t).map(|id| sys.send(id, tag, 0, &body)) {
                Some(Err(CoreError::UnknownPeer(_))) | None | Some(Ok(())) => Ok(()),
                Some(Err(e)) => Err(from_core(e)),
            };
        for &t in &claimed {
            tell(self.sys, t, sys_tag::CLAIM)?;
        }
        for &t in &started {
            tell(self.sys, t, sys_tag::SIBLINGS)?;
        }
        // Successes first, failures after them, as PVM reports them.
        slots.sort_by_key(|&t| t < 0);
        Ok(slots)
    }

    /// Starts `count` copies of the program at `path` with the backend's
    /// spawn (on host `on`, if given), in this task's current context; one
    /// slot per copy: a tid or PvmNoFile. MPI refusing to start them at all
    /// (no free slots, say) is a per-task failure for PVM: every slot is
    /// PvmOutOfRes.
    fn spawn_on(
        &mut self,
        path: &str,
        task: &str,
        args: &[String],
        count: i32,
        on: Option<String>,
    ) -> PvmResult<Vec<i32>> {
        let options = shim_core::spawn::SpawnOptions {
            host: on.clone(),
            note: self.msg.context as u32,
        };
        let got = match shim_core::spawn_with(path, args, count, &options) {
            Ok(got) => got,
            Err(CoreError::InvalidArgument(_)) => return Err(PvmError(err::BAD_PARAM)),
            Err(e) => {
                debug!(target: "pvm", task, count, error = %e, "pvm_spawn: the backend started none; PvmOutOfRes");
                eprintln!("mpbridge: pvm_spawn of {task}: {e}");
                return Ok(vec![err::OUT_OF_RES; count as usize]);
            }
        };
        let mut slots = Vec::with_capacity(got.len());
        for s in got {
            match s {
                Ok(id) => {
                    let tid = tid_of(id);
                    if let Some(h) = &on {
                        self.machine.place(tid, h);
                    }
                    slots.push(tid);
                }
                Err(_) => slots.push(err::NO_FILE),
            }
        }
        Ok(slots)
    }

    /// `pvm_kill`: asks the task to end.
    pub fn kill(&mut self, tid: i32) -> PvmResult<()> {
        if !crate::consts::tid::is_task(tid) {
            return Err(PvmError(err::BAD_PARAM));
        }
        let id = id_of(tid).ok_or(PvmError(err::NO_TASK))?;
        match self.sys.send(id, sys_tag::KILL, 0, &[]) {
            Ok(()) => {
                debug!(target: "pvm", tid = %format_args!("t{tid:x}"), "pvm_kill: asked the task to end");
                Ok(())
            }
            Err(CoreError::UnknownPeer(_)) => {
                debug!(target: "pvm", tid = %format_args!("t{tid:x}"), "pvm_kill: no such task; PvmNoTask");
                Err(PvmError(err::NO_TASK))
            }
            Err(e) => Err(from_core(e)),
        }
    }

    /// `pvm_notify` for task exits: the watched tasks tell this one when
    /// they exit; unknown tasks count as already gone.
    pub fn notify(&mut self, what: i32, tag: i32, tids: &[i32]) -> PvmResult<()> {
        self.notify_counted(what, tag, tids.len() as i32, tids)
    }

    /// `pvm_notify` with the caller's count (`PvmHostAdd` takes a count
    /// of notices instead of tids).
    pub fn notify_counted(
        &mut self,
        what: i32,
        tag: i32,
        count: i32,
        tids: &[i32],
    ) -> PvmResult<()> {
        check_notify(what, tag, count, tids)?;
        if what & !notify::CANCEL == notify::HOST_DELETE {
            self.watch_hosts(what & notify::CANCEL != 0, tag, tids);
            return Ok(());
        }
        if what & !notify::CANCEL == notify::HOST_ADD {
            self.watch_host_adds(what & notify::CANCEL != 0, tag, count);
            return Ok(());
        }
        if what & !notify::CANCEL != notify::TASK_EXIT {
            // Routes never change under MPI: nothing to report.
            return Ok(());
        }
        let ctx = self.msg.context;
        let body = [tag.to_le_bytes(), ctx.to_le_bytes()].concat();
        for &t in tids {
            let watch = crate::task::Watch { tid: t, tag, ctx };
            if what & notify::CANCEL != 0 {
                // A cancelled notice is delivered at once, and only once.
                self.watching.retain(|w| *w != watch);
                self.msg.notify_arrived(tag, ctx, t);
                continue;
            }
            let asked = t != self.me
                && !self.is_gone(t)
                && id_of(t)
                    .is_some_and(|id| self.sys.send(id, sys_tag::NOTIFY_ME, 0, &body).is_ok());
            if asked {
                self.watching.push(watch);
            } else {
                // No such task, or gone already: the notice comes now.
                self.msg.notify_arrived(tag, ctx, t);
            }
        }
        Ok(())
    }
}

/// What one receive slice of `pvm_precv` gave: (source, tag, full
/// length) of a message (its trace event recorded), or `None` to wait on
/// (nothing came, or the named sender ended: PVM waits on, after a pause).
#[inline]
fn precv_outcome(got: CoreResult<Received>) -> PvmResult<Option<(i32, i32, usize)>> {
    match got {
        Ok(r) => {
            let src = tid_of(r.source);
            tev::received(ev::PRECV, src, r.tag, r.len);
            Ok(Some((src, r.tag, r.len)))
        }
        Err(CoreError::Timeout) => Ok(None),
        Err(CoreError::UnknownPeer(_)) => {
            std::thread::sleep(SYSTEM_CHECK);
            Ok(None)
        }
        Err(e) => Err(from_core(e)),
    }
}

/// `pvm_notify`'s argument rules, as PVM checks them: a negative tag is
/// refused; `PvmTaskExit` and `PvmRouteDelete` need at least one tid and
/// every tid must name a task; `PvmHostDelete` needs at least one host;
/// `PvmHostAdd` and `PvmRouteAdd` take any count (-1 = every event, 0 =
/// stop); any other event is refused. `count` is the caller's count,
/// `tids` the entries it supplied (empty when the count is not positive).
pub fn check_notify(what: i32, tag: i32, count: i32, tids: &[i32]) -> PvmResult<()> {
    if tag < 0 {
        return Err(PvmError(err::BAD_PARAM));
    }
    match what & !notify::CANCEL {
        notify::TASK_EXIT | notify::ROUTE_DELETE => {
            if count < 1 || tids.iter().any(|&t| !crate::consts::tid::is_task(t)) {
                return Err(PvmError(err::BAD_PARAM));
            }
            Ok(())
        }
        notify::HOST_DELETE if count < 1 => Err(PvmError(err::BAD_PARAM)),
        notify::HOST_DELETE | notify::HOST_ADD | notify::ROUTE_ADD => Ok(()),
        _ => Err(PvmError(err::BAD_PARAM)),
    }
}

/// PVM's own search path for spawned programs: `$HOME/pvm3/bin/$PVM_ARCH`.
fn pvm_path_lookup(task: &str) -> Option<std::path::PathBuf> {
    if task.contains('/') {
        return None;
    }
    let home = std::env::var_os("HOME")?;
    let arch = std::env::var("PVM_ARCH").unwrap_or_else(|_| "LINUX64".into());
    let p = std::path::Path::new(&home)
        .join("pvm3/bin")
        .join(arch)
        .join(task);
    shim_core::spawn::find_executable(&p.to_string_lossy())
}
