//! Shared-memory segments: names, layout, the per-owner lock living in them,
//! and removal of segments left behind by servers that died.
//!
//! A segment's name says who made it: `mpbga-u<uid>-<pid>-<start>-<random>-<kind>`
//! with the server's user id, process id and start time (clock ticks after
//! boot, so a reused pid is told apart) and 64 random bits (so nobody can
//! guess a name and take it first). Segments are created exclusively; a
//! name somebody else holds is skipped. Start-up cleanup removes only this
//! user's segments (by name and by file owner) whose server is gone or a
//! zombie.

use crate::protocol::SEG_PREFIX;
use crate::ptr::MAX_DIM;
use std::sync::atomic::{AtomicU32, Ordering};

/// Where POSIX shared memory lives.
pub const SHM_DIR: &str = "/dev/shm";

/// Alignment of each block inside a segment.
pub const BLOCK_ALIGN: usize = 64;

/// `x` rounded up to a multiple of `a`; `None` if that does not fit.
fn round_up(x: usize, a: usize) -> Option<usize> {
    x.div_ceil(a).checked_mul(a)
}

/// Least common multiple of `a` and `b` (both positive).
fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b.max(1));
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b.max(1)
}

/// Bytes of a block `lo..=hi` (the first `n` dimensions) of `elem`-byte
/// elements; `None` if a bound is reversed or the count does not fit.
pub fn block_bytes(lo: &[i64], hi: &[i64], n: usize, elem: usize) -> Option<usize> {
    (0..n).try_fold(elem, |acc, d| {
        let extent = hi[d].checked_sub(lo[d])?.checked_add(1)?;
        acc.checked_mul(usize::try_from(extent).ok()?)
    })
}

/// A block's lo and hi (inclusive).
pub type Bounds = ([i64; MAX_DIM], [i64; MAX_DIM]);

/// One block of an array's node segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// Owning compute rank.
    pub owner: i32,
    /// Byte offset of the block.
    pub off: u64,
    /// Byte offset of the owner's accumulate lock word.
    pub lock_off: u64,
    pub lo: [i64; MAX_DIM],
    pub hi: [i64; MAX_DIM],
}

/// The layout of one array's segment on one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLayout {
    pub total: u64,
    pub dims: [i64; MAX_DIM],
    pub name: String,
    pub blocks: Vec<BlockEntry>,
}

impl NodeLayout {
    /// Lays out the blocks of `owners` (in order; with their lo/hi, `None`
    /// for ranks owning nothing): a header of lock words, one per owner on a
    /// cache line, then the blocks. The error says which size does not fit
    /// in the address space.
    pub fn build(
        dims: &[i64],
        name: &str,
        elem: usize,
        owners: &[(i32, Option<Bounds>)],
    ) -> Result<NodeLayout, String> {
        Self::build_aligned(dims, name, elem, owners, |_| true)
    }

    /// [`NodeLayout::build`] where only the blocks `i` with `align(i)` start
    /// on a [`BLOCK_ALIGN`] boundary (every block starts a whole number of
    /// elements from the segment start); the others follow the block before
    /// them directly (so blocks of one process can form one run).
    pub fn build_aligned(
        dims: &[i64],
        name: &str,
        elem: usize,
        owners: &[(i32, Option<Bounds>)],
        align: impl Fn(usize) -> bool,
    ) -> Result<NodeLayout, String> {
        let n = dims.len();
        let too_big = |what: String| {
            format!(
                "the node segment of array '{name}' is too large: {what} does not fit in {} bytes",
                isize::MAX
            )
        };
        let header = owners
            .len()
            .checked_add(1)
            .and_then(|k| k.checked_mul(64))
            .and_then(|b| round_up(b, 4096))
            .ok_or_else(|| too_big(format!("a header for {} owners", owners.len())))?;
        let mut cur = header;
        let mut blocks = Vec::new();
        for (i, (owner, b)) in owners.iter().enumerate() {
            let (lo, hi) = match b {
                Some(x) => *x,
                None => continue,
            };
            let bytes = block_bytes(&lo, &hi, n, elem).ok_or_else(|| {
                too_big(format!(
                    "the block {} of process {owner}",
                    crate::core::fmt_patch(&lo[..n], &hi[..n])
                ))
            })?;
            // Offsets stay whole elements of any size (a registered type's
            // too), so element indices from the segment start are exact.
            let step = if align(i) {
                lcm(BLOCK_ALIGN, elem)
            } else {
                elem
            };
            let off = round_up(cur, step.max(1))
                .filter(|o| *o <= isize::MAX as usize)
                .ok_or_else(|| too_big(format!("offset {cur}")))?;
            cur = off
                .checked_add(bytes)
                .filter(|c| *c <= isize::MAX as usize)
                .ok_or_else(|| too_big(format!("{off} + {bytes} bytes")))?;
            blocks.push(BlockEntry {
                owner: *owner,
                off: off as u64,
                lock_off: 64 * (i as u64 + 1),
                lo,
                hi,
            });
        }
        let total = round_up(cur.max(4096), 4096)
            .filter(|t| *t <= isize::MAX as usize)
            .ok_or_else(|| too_big(format!("{cur} bytes")))?;
        let mut d7 = [0; MAX_DIM];
        d7[..n].copy_from_slice(dims);
        Ok(NodeLayout {
            total: total as u64,
            dims: d7,
            name: name.to_string(),
            blocks,
        })
    }

    /// Checks a layout that came over the wire for `ndim` dimensions of
    /// `elem`-byte elements: the total fits in the address space, and every
    /// block and lock word lies inside it.
    pub fn validate(&self, ndim: usize, elem: usize) -> Result<(), String> {
        let total = usize::try_from(self.total)
            .ok()
            .filter(|t| *t <= isize::MAX as usize)
            .ok_or_else(|| {
                format!(
                    "array '{}' needs {} bytes, more than {} a process can address",
                    self.name,
                    self.total,
                    isize::MAX
                )
            })?;
        if ndim == 0 || ndim > MAX_DIM {
            return Err(format!("{ndim} dimensions for array '{}'", self.name));
        }
        for b in &self.blocks {
            let end = block_bytes(&b.lo, &b.hi, ndim, elem)
                .zip(usize::try_from(b.off).ok())
                .and_then(|(bytes, off)| off.checked_add(bytes));
            let lock_end = usize::try_from(b.lock_off)
                .ok()
                .and_then(|o| o.checked_add(4));
            let inside = end.is_some_and(|e| e <= total) && lock_end.is_some_and(|e| e <= total);
            if !inside || b.lo[..ndim].iter().any(|&l| l < 0) {
                return Err(format!(
                    "block {} of process {} of array '{}' does not fit in its {total}-byte segment",
                    crate::core::fmt_patch(&b.lo[..ndim], &b.hi[..ndim]),
                    b.owner,
                    self.name
                ));
            }
        }
        Ok(())
    }

    /// Wire form.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&(self.blocks.len() as u32).to_le_bytes());
        v.extend_from_slice(&(self.name.len() as u32).to_le_bytes());
        v.extend_from_slice(&self.total.to_le_bytes());
        for d in self.dims {
            v.extend_from_slice(&d.to_le_bytes());
        }
        v.extend_from_slice(self.name.as_bytes());
        for b in &self.blocks {
            v.extend_from_slice(&b.owner.to_le_bytes());
            v.extend_from_slice(&0u32.to_le_bytes());
            v.extend_from_slice(&b.off.to_le_bytes());
            v.extend_from_slice(&b.lock_off.to_le_bytes());
            for x in b.lo.iter().chain(b.hi.iter()) {
                v.extend_from_slice(&x.to_le_bytes());
            }
        }
        v
    }

    /// Reads the wire form; `None` if malformed.
    pub fn decode(b: &[u8]) -> Option<NodeLayout> {
        let u32_at = |o: usize| Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?));
        let u64_at = |o: usize| Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?));
        let nb = u32_at(0)? as usize;
        let nl = u32_at(4)? as usize;
        let total = u64_at(8)?;
        let mut dims = [0i64; MAX_DIM];
        for (d, x) in dims.iter_mut().enumerate() {
            *x = u64_at(16 + 8 * d)? as i64;
        }
        let mut o = 16 + 8 * MAX_DIM;
        let name = String::from_utf8_lossy(b.get(o..o + nl)?).into_owned();
        o += nl;
        let mut blocks = Vec::with_capacity(nb.min(4096));
        for _ in 0..nb {
            let owner = u32_at(o)? as i32;
            let off = u64_at(o + 8)?;
            let lock_off = u64_at(o + 16)?;
            let mut lo = [0i64; MAX_DIM];
            let mut hi = [0i64; MAX_DIM];
            for d in 0..MAX_DIM {
                lo[d] = u64_at(o + 24 + 8 * d)? as i64;
                hi[d] = u64_at(o + 24 + 8 * (MAX_DIM + d))? as i64;
            }
            o += 24 + 16 * MAX_DIM;
            blocks.push(BlockEntry {
                owner,
                off,
                lock_off,
                lo,
                hi,
            });
        }
        Some(NodeLayout {
            total,
            dims,
            name,
            blocks,
        })
    }
}

/// Takes a lock word living in shared memory for `me` (spin, then yield).
pub fn lock(w: &AtomicU32, me: u32) {
    let mut spins = 0u32;
    loop {
        if w.load(Ordering::Relaxed) == 0
            && w.compare_exchange_weak(0, me + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            return;
        }
        spins += 1;
        if spins < 200 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Releases a lock word taken with [`lock`].
pub fn unlock(w: &AtomicU32) {
    w.store(0, Ordering::Release);
}

/// Who made a segment: the server's user, process id and start time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub uid: u32,
    pub pid: i32,
    /// Start time of the process, clock ticks after boot (`/proc/PID/stat`).
    pub start: u64,
}

/// State and start time of process `pid` from `/proc/PID/stat`.
fn proc_stat(pid: i32) -> Option<(char, u64)> {
    if pid <= 0 {
        return None;
    }
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold anything: fields
    // resume after the last ')'. Field 3 is the state, field 22 the start.
    let rest = &text[text.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let start = f.nth(18)?.parse().ok()?;
    Some((state, start))
}

impl Owner {
    /// This process.
    pub fn me() -> Option<Owner> {
        let pid = crate::sys::getpid();
        let (_, start) = proc_stat(pid)?;
        Some(Owner {
            uid: crate::sys::geteuid(),
            pid,
            start,
        })
    }

    /// Whether the owner still runs: the pid exists, is no zombie, and
    /// started when the owner did (else the pid was reused).
    pub fn alive(&self) -> bool {
        match proc_stat(self.pid) {
            Some((state, start)) => start == self.start && state != 'Z' && state != 'X',
            None => false,
        }
    }

    /// A fresh name (with a leading slash) for a segment of `kind` (`ctl`,
    /// `a<serial>`): a new random part on every call.
    pub fn segment_name(&self, kind: &str) -> String {
        format!(
            "/{SEG_PREFIX}u{}-{}-{}-{:016x}-{kind}",
            self.uid,
            self.pid,
            self.start,
            random_u64()
        )
    }

    /// The owner and kind of a segment name (without the slash); `None`
    /// for a name of another form.
    pub fn parse(name: &str) -> Option<(Owner, &str)> {
        let rest = name.strip_prefix(SEG_PREFIX)?.strip_prefix('u')?;
        let mut f = rest.splitn(5, '-');
        let uid = f.next()?.parse().ok()?;
        let pid = f.next()?.parse().ok()?;
        let start = f.next()?.parse().ok()?;
        let random = f.next()?;
        let kind = f.next()?;
        if random.len() != 16 || !random.bytes().all(|b| b.is_ascii_hexdigit()) || kind.is_empty() {
            return None;
        }
        Some((Owner { uid, pid, start }, kind))
    }
}

/// 64 random bits from the kernel (time and pid mixed if that fails).
fn random_u64() -> u64 {
    use std::io::Read;
    let mut b = [0u8; 8];
    let ok = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if ok.is_ok() {
        return u64::from_le_bytes(b);
    }
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    (t ^ (u64::from(std::process::id()) << 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Creates a segment of `len` bytes under the first name `next_name` gives
/// that nobody holds (up to 16 names); returns the name and the mapping.
pub fn create_fresh(
    mut next_name: impl FnMut() -> String,
    len: usize,
) -> Result<(String, crate::sys::Mapping), crate::sys::CreateError> {
    let mut last = None;
    for _ in 0..16 {
        let name = next_name();
        match crate::sys::shm_create(&name, len) {
            Ok(m) => return Ok((name, m)),
            Err(crate::sys::CreateError::Exists(e)) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(crate::sys::CreateError::Other(format!(
        "no free segment name after 16 tries (last: {})",
        last.unwrap_or_default()
    )))
}

/// Removes this user's segments whose server is gone (exited, a zombie, or
/// its pid reused); returns their names. Another user's files, files not
/// owned by this user whatever their name, and names of another form are
/// left alone, also when running as root.
pub fn remove_stale() -> Vec<String> {
    use std::os::unix::fs::MetadataExt;
    let mut gone = Vec::new();
    let Some(me) = Owner::me() else {
        // Without /proc no owner can be checked: remove nothing.
        return gone;
    };
    let Ok(rd) = std::fs::read_dir(SHM_DIR) else {
        return gone;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((owner, _)) = Owner::parse(&name) else {
            continue;
        };
        if owner.uid != me.uid || owner == me || owner.alive() {
            continue;
        }
        let mine = std::fs::symlink_metadata(e.path())
            .is_ok_and(|m| m.file_type().is_file() && m.uid() == me.uid);
        if mine && crate::sys::shm_unlink(&format!("/{name}")) {
            gone.push(name);
        }
    }
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_any_element_size_start_on_whole_elements() {
        let lo = [0; MAX_DIM];
        let mut hi = [0; MAX_DIM];
        hi[0] = 4;
        let mut lo2 = lo;
        lo2[0] = 5;
        let mut hi2 = hi;
        hi2[0] = 6;
        let owners = [(0, Some((lo, hi))), (1, Some((lo2, hi2)))];
        for elem in [1, 8, 12, 20, 24] {
            let l = NodeLayout::build(&[7], "u", elem, &owners).unwrap();
            for b in &l.blocks {
                assert_eq!(b.off as usize % elem, 0, "{elem}-byte elements");
                assert_eq!(b.off as usize % BLOCK_ALIGN, 0, "{elem}-byte elements");
            }
        }
        assert_eq!(lcm(64, 12), 192);
        assert_eq!(lcm(64, 8), 64);
    }

    #[test]
    fn layout_round_trip_and_alignment() {
        let lo = [0; MAX_DIM];
        let mut hi = [0; MAX_DIM];
        hi[0] = 4;
        hi[1] = 2;
        let mut lo2 = lo;
        lo2[0] = 5;
        let mut hi2 = hi;
        hi2[0] = 9;
        let l = NodeLayout::build(
            &[10, 3],
            "A",
            8,
            &[(0, Some((lo, hi))), (1, None), (2, Some((lo2, hi2)))],
        )
        .unwrap();
        assert_eq!(l.validate(2, 8), Ok(()));
        assert_eq!(l.blocks.len(), 2);
        assert_eq!(l.blocks[0].off % 64, 0);
        assert!(l.blocks[1].off >= l.blocks[0].off + 15 * 8);
        assert_eq!(l.blocks[1].lock_off, 64 * 3);
        assert_eq!(l.total % 4096, 0);
        assert_eq!(NodeLayout::decode(&l.encode()), Some(l));
    }

    #[test]
    fn names_say_who_made_them_and_differ_each_time() {
        let me = Owner::me().expect("/proc");
        assert!(me.alive());
        let a = me.segment_name("a7");
        let b = me.segment_name("a7");
        assert_ne!(a, b);
        assert_eq!(Owner::parse(&a[1..]), Some((me, "a7")));
        assert_eq!(Owner::parse("mpbga-123-ctl"), None);
        assert_eq!(Owner::parse("mpbga-u0-1-2-xyz-ctl"), None);
    }

    #[test]
    fn zombies_and_reused_pids_are_not_alive() {
        let me = Owner::me().expect("/proc");
        let reused = Owner {
            start: me.start + 1,
            ..me
        };
        assert!(!reused.alive());
        // A child that exited and was not waited for is a zombie.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while proc_stat(pid).map(|s| s.0) != Some('Z') {
            assert!(std::time::Instant::now() < deadline, "child never exited");
            std::thread::yield_now();
        }
        let (_, start) = proc_stat(pid).unwrap();
        let zombie = Owner {
            uid: me.uid,
            pid,
            start,
        };
        assert!(!zombie.alive());
        child.wait().unwrap();
        assert!(!zombie.alive());
    }

    #[test]
    fn a_name_somebody_holds_is_skipped_not_opened() {
        use std::os::unix::fs::MetadataExt;
        let me = Owner::me().expect("/proc");
        let taken = me.segment_name("ctl");
        let path = format!("{SHM_DIR}{taken}");
        std::fs::write(&path, b"somebody else's").unwrap();
        let mut names = vec![me.segment_name("ctl"), taken.clone()];
        let (name, m) = create_fresh(|| names.pop().unwrap(), 4096).unwrap();
        assert_ne!(name, taken);
        assert_eq!(m.len(), 4096);
        assert_eq!(std::fs::read(&path).unwrap(), b"somebody else's");
        assert_eq!(
            std::fs::metadata(format!("{SHM_DIR}{name}"))
                .unwrap()
                .mode()
                & 0o777,
            0o600
        );
        for p in [path, format!("{SHM_DIR}{name}")] {
            std::fs::remove_file(p).unwrap();
        }
    }

    #[test]
    fn sizes_beyond_the_address_space_are_refused() {
        let lo = [0; MAX_DIM];
        let mut hi = [0; MAX_DIM];
        hi[0] = (1 << 31) - 1;
        hi[1] = (1 << 31) - 1;
        let e =
            NodeLayout::build(&[1 << 31, 1 << 31], "big", 8, &[(0, Some((lo, hi)))]).unwrap_err();
        assert!(
            e.contains("'big'") && e.contains("[0:2147483647,0:2147483647]"),
            "{e}"
        );
        // A layout from the wire whose block lies past its total.
        let mut small = [0; MAX_DIM];
        small[0] = 9;
        let mut l = NodeLayout::build(&[10], "A", 8, &[(0, Some((lo, small)))]).unwrap();
        l.blocks[0].hi[0] = 1 << 40;
        assert!(l.validate(1, 8).is_err());
        l.total = u64::MAX;
        assert!(l
            .validate(1, 8)
            .unwrap_err()
            .contains("18446744073709551615"));
    }
}
