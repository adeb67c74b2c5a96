//! The operating-system edge of the same-node channels: shared-memory
//! regions (created in `/dev/shm`, unlinked at once, and opened by peers
//! through `/proc/PID/fd`), typed access at byte offsets inside a region
//! and inside a ring's area of one (checked once, when the area is set),
//! futex sleeping and waking on a word of a region, process liveness, and
//! the CPU the calling thread runs on. Every `unsafe` block of the
//! channels is in this file.

use std::ffi::CString;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A mapping of a shared-memory file, unmapped on drop. Its file
/// descriptor stays open so that peers on the node can open the same file
/// through `/proc/<pid>/fd/<fd>` although it has no name any more.
#[derive(Debug)]
pub(crate) struct Region {
    base: *mut u8,
    len: usize,
    fd: i32,
}

// SAFETY: the region is plain shared memory; every access goes through
// atomics or through copies whose ordering the callers establish with
// acquire/release pairs on those atomics.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

/// Why a region could not be made or opened.
#[derive(Debug)]
pub(crate) struct RegionError(pub String);

fn os_error(what: &str) -> RegionError {
    RegionError(format!("{what}: {}", std::io::Error::last_os_error()))
}

impl Region {
    /// Creates a zero-filled region of `len` bytes whose storage is
    /// reserved up front (a full `/dev/shm` fails here, never later with
    /// SIGBUS). The file's name carries the user id and a random part and
    /// is removed before this returns.
    pub fn create(len: usize) -> Result<Region, RegionError> {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let mut last = RegionError("no name tried".into());
        for _ in 0..8 {
            let name = format!("/mpb-{uid}-{}-{:016x}", std::process::id(), random_u64());
            let c = CString::new(name.clone()).map_err(|_| RegionError("bad name".into()))?;
            // SAFETY: `c` is a valid NUL-terminated string.
            let fd = unsafe {
                libc::shm_open(
                    c.as_ptr(),
                    libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC,
                    0o600,
                )
            };
            if fd < 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EEXIST) {
                    last = RegionError(format!("{name} exists"));
                    continue;
                }
                return Err(RegionError(format!("shm_open {name}: {e}")));
            }
            // SAFETY: `c` names the file just created by this process.
            unsafe { libc::shm_unlink(c.as_ptr()) };
            // SAFETY: `fd` is the open descriptor created above.
            let rc = unsafe { libc::posix_fallocate(fd, 0, len as libc::off_t) };
            if rc != 0 {
                // SAFETY: closing the descriptor this function owns.
                unsafe { libc::close(fd) };
                return Err(RegionError(format!(
                    "cannot reserve {len} bytes in /dev/shm: {}",
                    std::io::Error::from_raw_os_error(rc)
                )));
            }
            return Region::map(fd, len);
        }
        Err(last)
    }

    /// Opens the region another process of this node created, through its
    /// descriptor `fd`; `len` must be the creator's length.
    pub fn open_peer(pid: u32, fd: i32, len: usize) -> Result<Region, RegionError> {
        let path = CString::new(format!("/proc/{pid}/fd/{fd}"))
            .map_err(|_| RegionError("bad path".into()))?;
        // SAFETY: `path` is a valid NUL-terminated string.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(os_error("open peer region"));
        }
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `fd` is open; `st` is writable storage for one stat.
        let rc = unsafe { libc::fstat(fd, st.as_mut_ptr()) };
        // SAFETY: fstat filled `st` when it returned 0.
        if rc != 0 || (unsafe { st.assume_init() }.st_size as usize) < len {
            // SAFETY: closing the descriptor opened above.
            unsafe { libc::close(fd) };
            return Err(RegionError("peer region is not the expected size".into()));
        }
        Region::map(fd, len)
    }

    fn map(fd: i32, len: usize) -> Result<Region, RegionError> {
        // SAFETY: mapping `len` bytes of an open shared-memory file of at
        // least that size; the kernel picks the address.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            let e = os_error("mmap");
            // SAFETY: closing the descriptor this function owns.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        Ok(Region {
            base: p as *mut u8,
            len,
            fd,
        })
    }

    /// The descriptor peers open through `/proc`.
    pub fn fd(&self) -> i32 {
        self.fd
    }

    /// The region's length.
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn check(&self, off: usize, n: usize, align: usize) {
        assert!(
            off.is_multiple_of(align) && n <= self.len && off <= self.len - n,
            "shared-memory access out of range"
        );
    }

    /// The 64-bit atomic at byte offset `off` (8-aligned).
    #[inline]
    pub fn u64_at(&self, off: usize) -> &AtomicU64 {
        self.check(off, 8, 8);
        // SAFETY: in range and aligned (checked); the mapping lives as long
        // as `self`, and the word is only ever accessed atomically.
        unsafe { &*(self.base.add(off) as *const AtomicU64) }
    }

    /// The 32-bit atomic at byte offset `off` (4-aligned).
    pub fn u32_at(&self, off: usize) -> &AtomicU32 {
        self.check(off, 4, 4);
        // SAFETY: as for `u64_at`.
        unsafe { &*(self.base.add(off) as *const AtomicU32) }
    }

    /// Copies `src` to byte offset `off`. The caller publishes it with a
    /// release store that the reader acquires.
    pub fn write(&self, off: usize, src: &[u8]) {
        self.check(off, src.len(), 1);
        // SAFETY: in range (checked); the destination is not read until the
        // caller's release store publishes it.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.base.add(off), src.len()) };
    }

    /// The `n` bytes at byte offset `off`, read in place. The caller
    /// acquired their publication and releases them to the writer only
    /// after the last use of the slice.
    pub fn bytes(&self, off: usize, n: usize) -> &[u8] {
        self.check(off, n, 1);
        // SAFETY: in range (checked); the writer does not touch the bytes
        // until the reader releases them, which the caller does after it
        // is done with the slice.
        unsafe { std::slice::from_raw_parts(self.base.add(off), n) }
    }

    /// Sleeps while the word at `off` holds `seen`, at most `timeout`.
    pub fn futex_wait(&self, off: usize, seen: u32, timeout: Duration) {
        let word = self.u32_at(off);
        let ts = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: a shared (not process-private) futex wait on a valid,
        // aligned word of the mapping; returns on wake, timeout, signal or
        // a changed value.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                word.as_ptr(),
                libc::FUTEX_WAIT,
                seen,
                &ts as *const libc::timespec,
            )
        };
    }

    /// The waking side of a doorbell: after the caller's release store
    /// of what it published, wakes whoever sleeps on the futex word at
    /// `bell` if the count at `waiting` says someone announced it sleeps
    /// (the sleeper raises that count, then reads the bell and checks
    /// again before it sleeps; the fence orders the publication before
    /// this read of the count).
    #[inline(always)]
    pub fn ring_bell(&self, bell: usize, waiting: usize) {
        full_fence();
        if self.u32_at(waiting).load(Ordering::Relaxed) != 0 {
            self.u32_at(bell).fetch_add(1, Ordering::Release);
            self.futex_wake(bell);
        }
    }

    /// Wakes every process sleeping on the word at `off`.
    pub fn futex_wake(&self, off: usize) {
        let word = self.u32_at(off);
        // SAFETY: a shared futex wake on a valid, aligned word.
        unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX) };
    }
}

/// The data area and the shared `head` counter of one ring inside a
/// region, checked to lie in it once, when made: every access masks its
/// offset into the area, so none needs a check of its own on the path of
/// each message. Keeps the region mapped.
#[derive(Clone, Debug)]
pub(crate) struct RingMem {
    /// Held so that the mapping outlives the pointers below.
    _region: Arc<Region>,
    data: *mut u8,
    /// The area's size minus one (the size is a power of two).
    mask: usize,
    head: *const AtomicU64,
}

// SAFETY: as for `Region`: plain shared memory reached only through
// atomics and through copies that the callers order with them.
unsafe impl Send for RingMem {}
// SAFETY: as above.
unsafe impl Sync for RingMem {}

impl RingMem {
    /// The `cap` bytes at byte offset `data` of `region` (`cap` a power of
    /// two, `data` 8-aligned) and the counter at `head` (8-aligned).
    pub fn new(region: &Arc<Region>, head: usize, data: usize, cap: usize) -> RingMem {
        assert!(
            cap.is_power_of_two() && cap >= 8,
            "a ring's area is not a power of two of at least 8 bytes"
        );
        region.check(head, 8, 8);
        region.check(data, cap, 8);
        RingMem {
            _region: Arc::clone(region),
            // SAFETY: both offsets lie in the mapping (checked above).
            data: unsafe { region.base.add(data) },
            mask: cap - 1,
            // SAFETY: as above; the word is only ever accessed atomically.
            head: unsafe { region.base.add(head) } as *const AtomicU64,
        }
    }

    /// The shared `head` counter.
    #[inline(always)]
    pub fn head(&self) -> &AtomicU64 {
        // SAFETY: in the mapping and aligned (checked in `new`); the
        // mapping lives as long as `self._region`.
        unsafe { &*self.head }
    }

    /// The 64-bit word at byte offset `off` of the area, taken modulo the
    /// area's size and rounded down to a multiple of 8 (ring positions
    /// always are).
    #[inline(always)]
    pub fn word(&self, off: usize) -> &AtomicU64 {
        let off = off & self.mask & !7;
        // SAFETY: `off + 8` lies in the area, which lies in the mapping
        // (checked in `new`), and is 8-aligned as the area is; the word is
        // only ever accessed atomically.
        unsafe { &*(self.data.add(off) as *const AtomicU64) }
    }

    /// Whether `n` bytes at byte offset `off` lie in the area.
    #[inline(always)]
    fn holds(&self, off: usize, n: usize) -> bool {
        off <= self.mask && n <= self.mask + 1 - off
    }

    /// Copies `a` (of a fixed size, copied inline) then `b` to byte offset
    /// `off` of the area (one range check). The caller publishes them with
    /// a release store that the reader acquires.
    #[inline(always)]
    pub fn write_two<const A: usize>(&self, off: usize, a: &[u8; A], b: &[u8]) {
        // No overflow: `a` and `b` both lie in memory.
        assert!(self.holds(off, A + b.len()), "ring access out of range");
        // SAFETY: both ranges lie in the checked one; nobody else touches
        // these bytes until the caller's release store publishes them, and
        // the slice ends with this call.
        unsafe {
            let dst = self.data.add(off);
            std::ptr::copy_nonoverlapping(a.as_ptr(), dst, A);
            copy(std::slice::from_raw_parts_mut(dst.add(A), b.len()), b);
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: unmapping the mapping this value owns and closing its
        // descriptor; no reference into it outlives `self`.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.len);
            libc::close(self.fd);
        }
    }
}

/// The number of the CPU the calling thread runs on, plus one (so that 0
/// can mean "not known"); `None` when the system cannot tell.
#[inline]
pub(crate) fn current_cpu() -> Option<u32> {
    // SAFETY: sched_getcpu takes no arguments and touches no memory of
    // ours (the C library reads it from the thread's rseq area).
    let cpu = unsafe { libc::sched_getcpu() };
    u32::try_from(cpu).ok().map(|c| c + 1)
}

/// Longest piece [`copy`] hands to `memcpy` at once.
const COPY_PIECE: usize = 2048;

/// Copies `src` into `dst` (of the same length). Up to 32 bytes (a small
/// message) the copy is made here, in two overlapping loads and stores,
/// without the call into `memcpy`. From a little above
/// 2 KiB on, glibc's `memcpy` switches to the string-move instruction,
/// which some x86 cores (AMD Zen 4 among them) run up to 25 times slower
/// when the destination lies 1 to 63 bytes above the source modulo 4 KiB;
/// a ring record and a user buffer meet such offsets now and then. Such a
/// copy goes in pieces of at most 2 KiB, for which `memcpy` uses vector
/// moves that have no such case; any other copy is one `memcpy`.
#[inline(always)]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    if src.len() <= 32 {
        copy_short(dst, src);
        return;
    }
    let gap = (dst.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize) % 4096;
    if src.len() <= COPY_PIECE || !(1..64).contains(&gap) {
        dst.copy_from_slice(src);
    } else {
        copy_pieces(dst, src);
    }
}

/// Copies `src` (of `W` to `2 * W` bytes) into `dst` (as long) as two
/// `W`-byte words, which overlap when it is shorter than `2 * W`.
#[inline(always)]
fn copy_two<const W: usize>(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let (Some(a), Some(b)) = (src.first_chunk::<W>(), src.last_chunk::<W>()) else {
        return;
    };
    let (a, b) = (*a, *b);
    if let Some(d) = dst[..n].first_chunk_mut::<W>() {
        *d = a;
    }
    if let Some(d) = dst[..n].last_chunk_mut::<W>() {
        *d = b;
    }
}

/// [`copy`] of at most 32 bytes.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "copy between slices of unequal length"
    );
    match src.len() {
        16.. => copy_two::<16>(dst, src),
        8.. => copy_two::<8>(dst, src),
        4.. => copy_two::<4>(dst, src),
        _ => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
        }
    }
}

#[inline(never)]
fn copy_pieces(dst: &mut [u8], src: &[u8]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "copy between slices of unequal length"
    );
    for (d, s) in dst.chunks_mut(COPY_PIECE).zip(src.chunks(COPY_PIECE)) {
        d.copy_from_slice(s);
    }
}

/// Whether process `pid` of this node still runs (a zombie does not).
pub(crate) fn pid_alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid as libc::pid_t, 0) };
    if rc != 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EPERM) {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(s) => !s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

/// 64 random bits from the kernel (a clock-based value if that fails).
fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    // SAFETY: `b` is writable for 8 bytes.
    let n = unsafe { libc::getrandom(b.as_mut_ptr() as *mut libc::c_void, 8, 0) };
    if n == 8 {
        return u64::from_le_bytes(b);
    }
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ (std::process::id() as u64).rotate_left(32)
}

/// Orders a store before a later load (the two sides of a sleep/wake
/// handshake each need it).
pub(crate) fn full_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a locked OR of zero into the word at the top of this
    // thread's stack changes nothing; a locked instruction orders every
    // earlier store before every later load on x86, like `mfence`, and
    // costs less on current cores. Without `nomem` the compiler treats it
    // as touching memory, so it moves no access across it either.
    unsafe {
        std::arch::asm!("lock or dword ptr [rsp], 0", options(nostack))
    };
    #[cfg(not(target_arch = "x86_64"))]
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// What identifies this node: the host name and the kernel's boot id
/// (read once per process).
pub(crate) fn host_key() -> u64 {
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *KEY.get_or_init(read_host_key)
}

fn read_host_key() -> u64 {
    let mut name = [0u8; 256];
    // SAFETY: `name` is writable for its length; gethostname NUL-terminates
    // within it when the name fits.
    unsafe { libc::gethostname(name.as_mut_ptr() as *mut libc::c_char, name.len() - 1) };
    let boot = std::fs::read("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.iter().take_while(|b| **b != 0).chain(boot.iter()) {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn copies_in_pieces_keep_every_byte() {
        let src: Vec<u8> = (0..9000).map(|i| (i * 7 % 251) as u8).collect();
        let mut dst = vec![0u8; 9000 + 4096];
        let base = (dst.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize) % 4096;
        // Destinations 8 and 40 bytes above the source modulo 4 KiB are
        // copied in pieces, the others at once.
        for n in [
            0, 1, 3, 4, 5, 8, 13, 16, 17, 31, 32, 33, 2047, 2048, 2049, 4096, 5000,
        ] {
            for gap in [0, 8, 40, 64, 200] {
                let shift = (gap + 4096 - base) % 4096;
                let d = &mut dst[shift..shift + n];
                d.fill(0);
                super::copy(d, &src[..n]);
                assert_eq!(d, &src[..n], "{n} bytes, {gap} bytes above");
            }
        }
    }
}
