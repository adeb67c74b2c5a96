//! PVM's message mailbox (`pvm_putinfo`, `pvm_recvinfo`, `pvm_delinfo`,
//! `pvm_getmboxinfo` and the 3.3 `pvm_insert`/`pvm_lookup`/`pvm_delete`).
//!
//! The database lives in the first process of the job (tid
//! `ProcId::root()`, where PVM's master pvmd kept it). Other tasks send it
//! requests as system messages (tags [`tag::PUT`] .. [`tag::NAMES`]) and
//! wait for a [`tag::REPLY`]; the first process serves them whenever it
//! handles system messages (during any PVM call that waits), and its own
//! requests directly. An entry is removed when its owner leaves PVM,
//! unless it is persistent (then its owner becomes 0): the server asks
//! each owner to report its exit, and the reports arrive as messages in a
//! system context no user receive sees.
//!
//! The same tag range carries [`tag::SIGNAL`] (`pvm_sendsig`).

use crate::consts::{ctx as sysctx, err, mbox as flag, notify};
use crate::ops::Outcome;
use crate::task::{from_core, id_of, Task};
use crate::{PvmError, PvmResult};
use shim_core::{CoreError, Lock, Match, ProcId};
use std::time::Duration;

/// System message tags of the mailbox (the range 200..=299 is this
/// module's: `Task::serve_system` hands them to [`on_system`]).
pub mod tag {
    /// First tag of the range.
    pub const FIRST: i32 = 200;
    /// Store an entry: name, index, flags, message.
    pub const PUT: i32 = 200;
    /// Read an entry: name, index, flags.
    pub const GET: i32 = 201;
    /// Delete an entry: name, index, flags.
    pub const DEL: i32 = 202;
    /// List names and entries: pattern.
    pub const NAMES: i32 = 203;
    /// The server's answer to one of the above.
    pub const REPLY: i32 = 250;
    /// `pvm_sendsig`: a signal number to raise.
    pub const SIGNAL: i32 = 290;
    /// Last tag of the range.
    pub const LAST: i32 = 299;
}

/// Context of the exit reports the server asks owners for.
const EXIT_CTX: i32 = sysctx::SYSCTX_TM;
/// Tag of those reports.
const EXIT_TAG: i32 = 0x7fff_0200;
/// How long a waiting client sleeps between looks at system messages.
const SLICE: Duration = Duration::from_millis(20);

/// The tid of the process that keeps the database.
pub fn server_tid() -> i32 {
    ProcId::root().raw() as i32
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    index: i32,
    owner: i32,
    flags: i32,
    msg: Vec<u8>,
}

/// One name and its entries, by index.
#[derive(Clone, Debug, Default)]
struct Class {
    name: String,
    entries: Vec<Entry>,
}

/// A name and its entries as `pvm_getmboxinfo` lists them:
/// (index, owner, flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    /// The name.
    pub name: String,
    /// Its entries.
    pub entries: Vec<(i32, i32, i32)>,
}

/// A `pvm_recvinfo` with PvmMboxWaitForInfo waiting for its entry.
#[derive(Clone, Debug)]
struct Waiter {
    from: i32,
    name: String,
    index: i32,
    flags: i32,
}

/// The database (kept by the first process).
#[derive(Debug, Default)]
pub struct Db {
    classes: Vec<Class>,
    waiters: Vec<Waiter>,
    watched: Vec<i32>,
}

/// Whether `name` matches `pattern`: '*' stands for any run of
/// characters; an empty pattern matches every name.
pub fn glob(name: &str, pattern: &str) -> bool {
    pattern.is_empty() || wildcard::matches(pattern, name)
}

fn direct_index(flags: i32) -> i32 {
    (flags >> flag::DIRECT_INDEX_SHIFT) & (flag::MAX_DIRECT_INDEX - 1)
}

impl Db {
    fn class_mut(&mut self, name: &str) -> Option<&mut Class> {
        self.classes.iter_mut().find(|c| c.name == name)
    }

    fn drop_empty(&mut self) {
        self.classes.retain(|c| !c.entries.is_empty());
    }

    /// Stores `msg` under `name` for task `tid`. `req` -1 (what
    /// `pvm_putinfo` passes): index 0, or the direct index in `flags`;
    /// with PvmMboxMultiInstance the first free index from there. Another
    /// `req` (`pvm_insert`) must be free. An existing entry is replaced if
    /// its owner asks or it is overwritable. Returns the index or
    /// PvmDenied.
    pub fn insert(&mut self, tid: i32, name: &str, req: i32, flags: i32, msg: Vec<u8>) -> i32 {
        if self.class_mut(name).is_none() {
            self.classes.push(Class {
                name: name.to_string(),
                entries: Vec::new(),
            });
        }
        let Some(class) = self.class_mut(name) else {
            return err::SYS_ERR;
        };
        let mut index = if req == -1 { direct_index(flags) } else { req };
        if let Some(pos) = class.entries.iter().position(|e| e.index == index) {
            if flags & flag::MULTI_INSTANCE != 0 {
                if req != -1 {
                    return err::DENIED;
                }
                while class.entries.iter().any(|e| e.index == index) {
                    index += 1;
                }
            } else {
                let e = &class.entries[pos];
                if e.flags & flag::OVER_WRITABLE == 0 && e.owner != tid {
                    return err::DENIED;
                }
                class.entries.remove(pos);
            }
        }
        let at = class
            .entries
            .iter()
            .position(|e| e.index > index)
            .unwrap_or(class.entries.len());
        class.entries.insert(
            at,
            Entry {
                index,
                owner: tid,
                flags,
                msg,
            },
        );
        index
    }

    /// Deletes entry `index` of `name` for task `tid`. Returns the index,
    /// PvmNotFound, PvmDenied (not the owner, not overwritable).
    pub fn remove(&mut self, tid: i32, name: &str, index: i32) -> i32 {
        let Some(class) = self.class_mut(name) else {
            return err::NOT_FOUND;
        };
        let Some(pos) = class.entries.iter().position(|e| e.index == index) else {
            return err::NOT_FOUND;
        };
        let e = &class.entries[pos];
        if e.flags & flag::OVER_WRITABLE == 0 && e.owner != tid {
            return err::DENIED;
        }
        class.entries.remove(pos);
        self.drop_empty();
        index
    }

    /// Reads entry `index` of `name` (with PvmMboxFirstAvail the first at
    /// or above it; with PvmMboxReadAndDelete it is deleted too, if `tid`
    /// may). Returns (index, message) or PvmNotFound / PvmDenied.
    pub fn lookup(
        &mut self,
        tid: i32,
        name: &str,
        index: i32,
        flags: i32,
    ) -> Result<(i32, Vec<u8>), i32> {
        let class = self.class_mut(name).ok_or(err::NOT_FOUND)?;
        let pos = class
            .entries
            .iter()
            .position(|e| e.index >= index)
            .ok_or(err::NOT_FOUND)?;
        let e = &class.entries[pos];
        if flags & flag::FIRST_AVAIL == 0 && e.index != index {
            return Err(err::NOT_FOUND);
        }
        let found = (e.index, e.msg.clone());
        if flags & flag::READ_AND_DELETE != 0 {
            if e.flags & flag::OVER_WRITABLE == 0 && e.owner != tid {
                return Err(err::DENIED);
            }
            class.entries.remove(pos);
            self.drop_empty();
        }
        Ok(found)
    }

    /// The names matching `pattern`, in creation order, with their entries.
    pub fn names(&self, pattern: &str) -> Vec<ClassInfo> {
        self.classes
            .iter()
            .filter(|c| glob(&c.name, pattern))
            .map(|c| ClassInfo {
                name: c.name.clone(),
                entries: c
                    .entries
                    .iter()
                    .map(|e| (e.index, e.owner, e.flags))
                    .collect(),
            })
            .collect()
    }

    /// Task `tid` left: its entries go, except persistent ones, which lose
    /// their owner; its waits end.
    pub fn tidy(&mut self, tid: i32) {
        if tid == 0 {
            return;
        }
        for c in &mut self.classes {
            c.entries
                .retain(|e| e.owner != tid || e.flags & flag::PERSISTENT != 0);
            for e in &mut c.entries {
                if e.owner == tid {
                    e.owner = 0;
                }
            }
        }
        self.drop_empty();
        self.waiters.retain(|w| w.from != tid);
        self.watched.retain(|&w| w != tid);
    }
}

/// The database of this process (used only in the first process).
static DB: Lock<Option<Db>> = Lock::new(None);
/// The server's reply to this process's pending request, if it came while
/// other system messages were being handled.
static REPLY: Lock<Option<Vec<u8>>> = Lock::new(None);

fn with_db<R>(f: impl FnOnce(&mut Db) -> R) -> R {
    let mut g = DB.lock();
    f(g.get_or_insert_with(Db::default))
}

// ---------------------------------------------------------------------------
// Wire format of requests and replies (little-endian words, length-prefixed
// byte strings).

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn int(mut self, v: i32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(&(b.len() as u32).to_le_bytes());
        self.0.extend_from_slice(b);
        self
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn int(&mut self) -> PvmResult<i32> {
        if self.0.len() < 4 {
            return Err(PvmError(err::BAD_MSG));
        }
        let (h, t) = self.0.split_at(4);
        self.0 = t;
        Ok(i32::from_le_bytes([h[0], h[1], h[2], h[3]]))
    }
    fn bytes(&mut self) -> PvmResult<Vec<u8>> {
        let n = self.int()? as u32 as usize;
        if self.0.len() < n {
            return Err(PvmError(err::BAD_MSG));
        }
        let (h, t) = self.0.split_at(n);
        self.0 = t;
        Ok(h.to_vec())
    }
    fn text(&mut self) -> PvmResult<String> {
        Ok(String::from_utf8_lossy(&self.bytes()?).into_owned())
    }
}

// ---------------------------------------------------------------------------
// Server side

/// Reads the exit reports of entry owners and tidies after them.
fn reap_exits(t: &mut Task) {
    let ids: Vec<i32> = t
        .msg
        .queued
        .iter()
        .copied()
        .filter(|id| {
            t.msg
                .get(*id)
                .is_ok_and(|b| b.ctx == EXIT_CTX && b.tag == EXIT_TAG)
        })
        .collect();
    for id in ids {
        let gone = t.msg.get(id).ok().and_then(|b| {
            let mut m = b.msg.clone();
            m.rewind();
            let mut v = [0i32];
            m.upk_int(&mut v, 1, 1).ok().map(|_| v[0])
        });
        t.msg.unqueue(id);
        let _ = t.msg.freebuf(id);
        if let Some(tid) = gone {
            with_db(|db| db.tidy(tid));
        }
    }
}

/// Asks task `owner` to report when it leaves (once per owner).
fn watch(t: &mut Task, owner: i32) {
    if owner == t.me || with_db(|db| db.watched.contains(&owner)) {
        return;
    }
    with_db(|db| db.watched.push(owner));
    let saved = t.msg.context;
    t.msg.context = EXIT_CTX;
    let _ = t.notify(notify::TASK_EXIT, EXIT_TAG, &[owner]);
    t.msg.context = saved;
}

fn reply_get(found: Result<(i32, Vec<u8>), i32>) -> Vec<u8> {
    match found {
        Ok((index, msg)) => Writer::default().int(index).bytes(&msg).0,
        Err(code) => Writer::default().int(code).0,
    }
}

fn send_reply(t: &mut Task, to: i32, body: &[u8]) {
    if let Some(id) = id_of(to) {
        let _ = t.sys.send(id, tag::REPLY, 0, body);
    }
}

/// Serves one request of task `from`. `None`: a wait for an entry that is
/// not there yet (a remote waiter is answered when the entry comes).
fn serve(
    t: &mut Task,
    from: i32,
    req: i32,
    body: &[u8],
    local: bool,
) -> PvmResult<Option<Vec<u8>>> {
    reap_exits(t);
    let mut r = Reader(body);
    match req {
        tag::PUT => {
            let name = r.text()?;
            let index = r.int()?;
            let flags = r.int()?;
            let msg = r.bytes()?;
            let code = with_db(|db| db.insert(from, &name, index, flags, msg));
            if code >= 0 {
                watch(t, from);
                wake_waiters(t, &name);
            }
            Ok(Some(Writer::default().int(code).0))
        }
        tag::GET => {
            let name = r.text()?;
            let index = r.int()?;
            let flags = r.int()?;
            let found = with_db(|db| db.lookup(from, &name, index, flags));
            if found == Err(err::NOT_FOUND) && flags & flag::WAIT_FOR_INFO != 0 {
                if !local {
                    with_db(|db| {
                        db.waiters.push(Waiter {
                            from,
                            name,
                            index,
                            flags,
                        })
                    });
                    watch(t, from);
                }
                return Ok(None);
            }
            Ok(Some(reply_get(found)))
        }
        tag::DEL => {
            let name = r.text()?;
            let index = r.int()?;
            let _flags = r.int()?;
            let code = with_db(|db| db.remove(from, &name, index));
            Ok(Some(Writer::default().int(code).0))
        }
        tag::NAMES => {
            let pattern = r.text()?;
            let list = with_db(|db| db.names(&pattern));
            let mut w = Writer::default().int(0).int(list.len() as i32);
            for c in list {
                w = w.bytes(c.name.as_bytes()).int(c.entries.len() as i32);
                for (i, o, f) in c.entries {
                    w = w.int(i).int(o).int(f);
                }
            }
            Ok(Some(w.0))
        }
        _ => Err(PvmError(err::BAD_MSG)),
    }
}

/// Answers the remote waits an entry of `name` may satisfy.
fn wake_waiters(t: &mut Task, name: &str) {
    let waiting: Vec<Waiter> = with_db(|db| {
        let (hit, keep): (Vec<Waiter>, Vec<Waiter>) =
            db.waiters.drain(..).partition(|w| w.name == name);
        db.waiters = keep;
        hit
    });
    for w in waiting {
        let found = with_db(|db| db.lookup(w.from, &w.name, w.index, w.flags));
        if found == Err(err::NOT_FOUND) {
            with_db(|db| db.waiters.push(w));
        } else {
            send_reply(t, w.from, &reply_get(found));
        }
    }
}

/// Handles a system message of this module's range (tags 200..=299):
/// requests (in the first process), the reply to this process's request,
/// and signals sent with `pvm_sendsig`.
pub fn on_system(task: &mut Task, from: i32, tag: i32, body: &[u8]) -> PvmResult<()> {
    match tag {
        tag::REPLY => *REPLY.lock() = Some(body.to_vec()),
        tag::SIGNAL if body.len() == 4 => {
            crate::signals::deliver_signal(i32::from_le_bytes([body[0], body[1], body[2], body[3]]))
        }
        tag::PUT | tag::GET | tag::DEL | tag::NAMES => {
            let answer = if task.me == server_tid() {
                serve(task, from, tag, body, false)
                    .unwrap_or_else(|e| Some(Writer::default().int(e.0).0))
            } else {
                Some(Writer::default().int(err::SYS_ERR).0)
            };
            if let Some(a) = answer {
                send_reply(task, from, &a);
            }
        }
        _ => {}
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Client side

/// Sends a request to the server and waits for its reply, handling system
/// messages meanwhile (a kill ends the wait).
fn request(t: &mut Task, req: i32, body: Vec<u8>) -> PvmResult<Outcome<Vec<u8>>> {
    let server = server_tid();
    if t.me == server {
        loop {
            if let Some(a) = serve(t, t.me, req, &body, true)? {
                return Ok(Outcome::Done(a));
            }
            if t.serve_system()? {
                return Ok(Outcome::Killed);
            }
            std::thread::sleep(SLICE / 4);
        }
    }
    let sid = id_of(server).ok_or(PvmError(err::SYS_ERR))?;
    REPLY.lock().take();
    t.sys.send(sid, req, 0, &body).map_err(from_core)?;
    loop {
        if let Some(a) = REPLY.lock().take() {
            return Ok(Outcome::Done(a));
        }
        if t.serve_system()? {
            return Ok(Outcome::Killed);
        }
        if let Some(a) = REPLY.lock().take() {
            return Ok(Outcome::Done(a));
        }
        match t
            .sys
            .recv(Match::new(Some(sid), Some(tag::REPLY)), Some(SLICE))
        {
            Ok(m) => return Ok(Outcome::Done(m.data)),
            Err(CoreError::Timeout) => {}
            Err(e) => return Err(from_core(e)),
        }
    }
}

/// A reply's leading code: the value, or the error it names.
fn code_of(r: &mut Reader<'_>) -> PvmResult<i32> {
    let c = r.int()?;
    if c < 0 {
        Err(PvmError(c))
    } else {
        Ok(c)
    }
}

fn map_done<A, B>(o: Outcome<A>, f: impl FnOnce(A) -> PvmResult<B>) -> PvmResult<Outcome<B>> {
    match o {
        Outcome::Done(a) => f(a).map(Outcome::Done),
        Outcome::Killed => Ok(Outcome::Killed),
    }
}

/// Stores message `msg` (see `messages::message_blob`) under `name`.
/// Returns the index, or PvmDenied.
pub fn put(
    t: &mut Task,
    name: &str,
    index: i32,
    flags: i32,
    msg: Vec<u8>,
) -> PvmResult<Outcome<i32>> {
    let body = Writer::default()
        .bytes(name.as_bytes())
        .int(index)
        .int(flags)
        .bytes(&msg)
        .0;
    map_done(request(t, tag::PUT, body)?, |a| code_of(&mut Reader(&a)))
}

/// Reads an entry: (its index, the stored message).
pub fn get(t: &mut Task, name: &str, index: i32, flags: i32) -> PvmResult<Outcome<(i32, Vec<u8>)>> {
    let body = Writer::default()
        .bytes(name.as_bytes())
        .int(index)
        .int(flags)
        .0;
    map_done(request(t, tag::GET, body)?, |a| {
        let mut r = Reader(&a);
        let index = code_of(&mut r)?;
        Ok((index, r.bytes()?))
    })
}

/// Deletes an entry; returns its index.
pub fn delete(t: &mut Task, name: &str, index: i32, flags: i32) -> PvmResult<Outcome<i32>> {
    let body = Writer::default()
        .bytes(name.as_bytes())
        .int(index)
        .int(flags)
        .0;
    map_done(request(t, tag::DEL, body)?, |a| code_of(&mut Reader(&a)))
}

/// The names matching `pattern` with their entries.
pub fn names(t: &mut Task, pattern: &str) -> PvmResult<Outcome<Vec<ClassInfo>>> {
    let body = Writer::default().bytes(pattern.as_bytes()).0;
    map_done(request(t, tag::NAMES, body)?, |a| {
        let mut r = Reader(&a);
        code_of(&mut r)?;
        let n = r.int()?;
        let mut out = Vec::new();
        for _ in 0..n.max(0) {
            let name = r.text()?;
            let k = r.int()?;
            let mut entries = Vec::new();
            for _ in 0..k.max(0) {
                entries.push((r.int()?, r.int()?, r.int()?));
            }
            out.push(ClassInfo { name, entries });
        }
        Ok(out)
    })
}

/// Asks task `tid` to raise signal `signum` at its next PVM call.
pub fn send_signal(t: &mut Task, tid: i32, signum: i32) -> PvmResult<()> {
    let Some(id) = id_of(tid) else {
        return Ok(());
    };
    match t.sys.send(id, tag::SIGNAL, 0, &signum.to_le_bytes()) {
        Ok(()) | Err(CoreError::UnknownPeer(_)) => Ok(()),
        Err(e) => Err(from_core(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: i32 = 0x40001;
    const B: i32 = 0x40002;

    /// The matching itself is the `wildcard` crate's (tested there); PVM
    /// adds that an empty pattern matches every name.
    #[test]
    fn globbing() {
        assert!(glob("abc", ""));
        assert!(glob("aXbXc", "a*b*c"));
        assert!(!glob("abc", "b*"));
    }

    #[test]
    fn default_put_is_locked_to_its_owner() {
        let mut db = Db::default();
        assert_eq!(db.insert(A, "s", -1, 0, vec![1]), 0);
        assert_eq!(db.insert(A, "s", -1, 0, vec![2]), 0);
        assert_eq!(db.insert(B, "s", -1, 0, vec![3]), err::DENIED);
        assert_eq!(db.lookup(B, "s", 0, 0), Ok((0, vec![2])));
        assert_eq!(db.remove(B, "s", 0), err::DENIED);
        assert_eq!(db.remove(A, "s", 0), 0);
        assert_eq!(db.lookup(A, "s", 0, 0), Err(err::NOT_FOUND));
        assert!(db.names("*").is_empty());
    }

    #[test]
    fn multi_instance_and_first_avail() {
        let mut db = Db::default();
        let m = flag::MULTI_INSTANCE;
        assert_eq!(db.insert(A, "s", -1, 0, vec![0]), 0);
        assert_eq!(db.insert(A, "s", -1, m, vec![1]), 1);
        assert_eq!(db.insert(B, "s", -1, m, vec![2]), 2);
        assert_eq!(db.remove(A, "s", 1), 1);
        assert_eq!(db.insert(B, "s", -1, m, vec![3]), 1);
        assert_eq!(db.lookup(A, "s", 3, flag::FIRST_AVAIL), Err(err::NOT_FOUND));
        assert_eq!(db.lookup(A, "s", 2, flag::FIRST_AVAIL), Ok((2, vec![2])));
        assert_eq!(db.lookup(A, "s", 2, 0), Ok((2, vec![2])));
        // 3.3 insert at a taken index.
        assert_eq!(db.insert(A, "d", 5, m | flag::PERSISTENT, vec![]), 5);
        assert_eq!(
            db.insert(A, "d", 5, m | flag::PERSISTENT, vec![]),
            err::DENIED
        );
    }

    #[test]
    fn read_and_delete_and_overwritable() {
        let mut db = Db::default();
        db.insert(A, "s", -1, flag::OVER_WRITABLE, vec![1]);
        assert_eq!(db.insert(B, "s", -1, 0, vec![2]), 0);
        assert_eq!(
            db.lookup(A, "s", 0, flag::READ_AND_DELETE),
            Err(err::DENIED)
        );
        assert_eq!(
            db.lookup(B, "s", 0, flag::READ_AND_DELETE),
            Ok((0, vec![2]))
        );
        assert_eq!(db.lookup(B, "s", 0, 0), Err(err::NOT_FOUND));
        // Direct index re-insert.
        let di = 3 << flag::DIRECT_INDEX_SHIFT;
        assert_eq!(db.insert(A, "x", -1, di | flag::OVER_WRITABLE, vec![]), 3);
        assert_eq!(db.insert(B, "x", -1, di, vec![9]), 3);
        assert_eq!(db.lookup(A, "x", 3, 0), Ok((3, vec![9])));
    }

    #[test]
    fn owners_leaving() {
        let mut db = Db::default();
        db.insert(A, "keep", -1, flag::PERSISTENT, vec![]);
        db.insert(A, "go", -1, 0, vec![]);
        db.insert(B, "go", -1, flag::MULTI_INSTANCE, vec![]);
        db.tidy(A);
        let names = db.names("");
        assert_eq!(names.len(), 2);
        assert_eq!(names[0].name, "keep");
        assert_eq!(names[0].entries, vec![(0, 0, flag::PERSISTENT)]);
        assert_eq!(names[1].entries, vec![(1, B, flag::MULTI_INSTANCE)]);
    }

    #[test]
    fn wire_round_trip() {
        let w = Writer::default().bytes(b"name").int(-1).int(7).0;
        let mut r = Reader(&w);
        assert_eq!(r.text().unwrap(), "name");
        assert_eq!(r.int().unwrap(), -1);
        assert_eq!(r.int().unwrap(), 7);
        assert!(r.int().is_err());
    }
}
