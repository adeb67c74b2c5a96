//! How a blocked call waits: spin briefly, then yield the core, then sleep in
//! short steps, so ranks that outnumber cores do not starve each other; and
//! how a wait that one shared word announces takes its turns on a shared
//! core.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Tuning of the waiting policy.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Poll without giving up the core for this long.
    pub spin: Duration,
    /// Then yield the core between polls until this much time has passed.
    pub yield_until: Duration,
    /// Then sleep between polls, starting with this step...
    pub first_sleep: Duration,
    /// ...doubling up to this step.
    pub max_sleep: Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            spin: Duration::from_micros(20),
            yield_until: Duration::from_millis(20),
            first_sleep: Duration::from_micros(50),
            max_sleep: Duration::from_millis(1),
        }
    }
}

/// The phase a waiter is in (observable for tests and tracing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Spin,
    Yield,
    Sleep,
}

/// State of one wait.
///
/// A wait made with [`Backoff::new`] reads the clock and the process-wide
/// policy only when its first unchecked spins are used up, so a wait that
/// ends within them (a message that was already there or came at once)
/// costs neither.
#[derive(Debug)]
pub struct Backoff {
    policy: Option<Policy>,
    /// When the wait started; `None` until the clock is first read.
    start: Option<Instant>,
    sleep: Duration,
    /// Spins left before the clock is read again (reading it costs more
    /// than one poll).
    spins_unchecked: u32,
}

/// Spins between clock reads in the spin phase.
const SPINS_PER_CHECK: u32 = 64;

/// Set when this node runs more of the job's processes than it has cores:
/// then a wait starts yielding at once, without the unchecked spins.
static YIELD_AT_ONCE: AtomicBool = AtomicBool::new(false);

/// How many of the job's processes share each CPU of this node (rounded
/// up; 1 when they do not outnumber the CPUs or that is not known).
static PER_CPU: AtomicUsize = AtomicUsize::new(1);

/// How long [`take_turns`] goes on before it returns for a full step of
/// the wait (MPI's progress, control messages, the sender's liveness).
pub(crate) const TURNS_SPAN: Duration = Duration::from_micros(50);

/// Polls [`take_turns`] spins between two yields when two processes share
/// a core: about three microseconds, a few hand-overs to the process
/// beside it (in a 4-process ring on 2 cores, the time per hop measured
/// 0.79 of MPI's on average with 50 polls, 0.74 with 100, 0.71 with 150).
const SPINS_PER_TURN: u32 = 150;

/// What a wait whose message one shared word announces looks at between
/// its turns (see [`take_turns`]).
pub(crate) trait Turns {
    /// Whether the message (or anything else for the wait) has arrived.
    fn ready(&self) -> bool;
    /// Whether the sender is on this very core, so that it can only run
    /// once this process gives the core away.
    fn sender_here(&self) -> bool;
}

/// The yielding phase of a wait whose message one shared word announces
/// (a word of a ring; no MPI traffic can bring it), for up to `span`:
/// gives the core away at once, since the process beside this one on the
/// core is likely the one this process has just sent to, then polls the
/// word between yields, without the cost of a full step at each turn.
///
/// When two processes share each core, a turn spins for a moment before
/// it yields again, unless the sender is on this very core: the other
/// core's next message then finds this process running instead of
/// waiting for it to be scheduled. With more processes per core every
/// turn yields at once (a spinning waiter would hold up more of them).
/// Returns whether the word announced the message.
#[inline(never)]
pub(crate) fn take_turns(span: Duration, w: &impl Turns) -> bool {
    let start = Instant::now();
    std::thread::yield_now();
    let spin = turns_spin();
    let mut spins = 0;
    loop {
        if w.ready() {
            return true;
        }
        if spin && spins < SPINS_PER_TURN && !w.sender_here() {
            spins += 1;
            std::hint::spin_loop();
            continue;
        }
        if start.elapsed() >= span {
            return false;
        }
        spins = 0;
        std::thread::yield_now();
    }
}

/// Whether a turn of [`take_turns`] spins before it yields (two of the
/// job's processes share each CPU of this node): only then does a waiter
/// ask [`Turns::sender_here`].
#[inline]
pub(crate) fn turns_spin() -> bool {
    PER_CPU.load(Ordering::Relaxed) == 2
}

/// Makes turns spin as with two processes per CPU (for tests of the
/// channels, which note their CPU only then; harmless to other tests, as
/// a turn's spin is bounded).
#[cfg(test)]
pub(crate) fn spin_turns_in_tests() {
    PER_CPU.store(2, Ordering::Relaxed);
}

/// Whether this node runs more of the job's processes than it has CPUs
/// for them (then waits yield from the start).
pub(crate) fn cores_shared() -> bool {
    YIELD_AT_ONCE.load(Ordering::Relaxed)
}

/// Spins a new or reset wait makes before its first clock read.
fn first_spins() -> u32 {
    if cores_shared() {
        0
    } else {
        SPINS_PER_CHECK
    }
}

impl Backoff {
    /// A new wait with the process-wide policy (read when first needed).
    pub fn new() -> Backoff {
        Backoff {
            policy: None,
            start: None,
            sleep: Duration::ZERO,
            spins_unchecked: first_spins(),
        }
    }

    /// A new wait with an explicit policy, starting now.
    pub fn with_policy(policy: Policy) -> Backoff {
        Backoff {
            policy: Some(policy),
            start: Some(Instant::now()),
            sleep: policy.first_sleep,
            spins_unchecked: SPINS_PER_CHECK,
        }
    }

    /// Starts over after progress was made (the clock restarts at the next
    /// check).
    pub fn reset(&mut self) {
        self.start = None;
        if let Some(p) = self.policy {
            self.sleep = p.first_sleep;
        }
        self.spins_unchecked = first_spins();
    }

    /// Reads the policy and starts the clock, if not done yet (a wait
    /// that takes its turns without [`pause`](Self::pause) calls this, so
    /// that it still reaches the sleeping phase).
    pub fn start(&mut self) {
        if self.policy.is_none() {
            let p = crate::lifecycle::wait_policy();
            self.policy = Some(p);
            self.sleep = p.first_sleep;
        }
        if self.start.is_none() {
            self.start = Some(Instant::now());
        }
    }

    /// Whether the wait is still spinning; cheaper than [`phase`](Self::phase)
    /// early in a wait, when no clock read is due.
    pub fn spinning(&self) -> bool {
        self.spins_unchecked > 0 || self.phase() == Phase::Spin
    }

    /// The phase the next `pause` will use (a wait whose clock has not
    /// started yet is spinning).
    pub fn phase(&self) -> Phase {
        let (Some(policy), Some(start)) = (self.policy, self.start) else {
            return Phase::Spin;
        };
        let waited = start.elapsed();
        if waited < policy.spin {
            Phase::Spin
        } else if waited < policy.yield_until {
            Phase::Yield
        } else {
            Phase::Sleep
        }
    }

    /// Waits a little, according to how long this wait has lasted.
    pub fn pause(&mut self) {
        self.pause_with(std::thread::sleep)
    }

    /// Like [`pause`](Self::pause), but a sleep step is taken by `sleep`
    /// (which may return early, e.g. when woken by a same-node sender).
    pub fn pause_with(&mut self, sleep: impl FnOnce(Duration)) {
        if self.spins_unchecked > 0 {
            self.spins_unchecked -= 1;
            std::hint::spin_loop();
            return;
        }
        self.start();
        match self.phase() {
            Phase::Spin => {
                self.spins_unchecked = SPINS_PER_CHECK;
                std::hint::spin_loop()
            }
            Phase::Yield => std::thread::yield_now(),
            Phase::Sleep => {
                sleep(self.sleep);
                let max = self.policy.map_or(self.sleep, |p| p.max_sleep);
                self.sleep = (self.sleep * 2).min(max);
            }
        }
    }
}

/// Words of the CPU masks the processes of a node exchange (1024 CPUs).
pub(crate) const CPU_MASK_WORDS: usize = 16;

/// A set of CPUs, one bit each; all zero when not known.
pub(crate) type CpuMask = [u64; CPU_MASK_WORDS];

/// The CPUs this process may run on (the `Cpus_allowed` mask of
/// `/proc/self/status`); all zero when that cannot be read or names a CPU
/// beyond the mask's range.
pub(crate) fn own_cpus() -> CpuMask {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find_map(|l| l.strip_prefix("Cpus_allowed:"))?;
            parse_cpu_mask(line.trim())
        })
        .unwrap_or([0; CPU_MASK_WORDS])
}

/// Reads a kernel CPU mask: hexadecimal 32-bit groups separated by
/// commas, the highest CPUs first.
fn parse_cpu_mask(text: &str) -> Option<CpuMask> {
    let mut mask = [0u64; CPU_MASK_WORDS];
    for (i, group) in text.rsplit(',').enumerate() {
        let bits = u32::from_str_radix(group, 16).ok()?;
        if bits == 0 {
            continue;
        }
        let word = mask.get_mut(i / 2)?;
        *word |= (bits as u64) << (32 * (i % 2));
    }
    Some(mask)
}

/// The number of CPUs in `mask`.
pub(crate) fn count_cpus(mask: &CpuMask) -> usize {
    mask.iter().map(|w| w.count_ones() as usize).sum()
}

/// Tells the policy how many processes of the job run on this node and
/// how many CPUs they may use together (`None` when not known; then this
/// process's own share counts): when they outnumber the CPUs, a blocked
/// call yields its core at once instead of spinning first (a spinning
/// waiter would keep the process it waits for off the core). Processes
/// bound one to a core each see a single CPU of their own, yet do not
/// share it, so the CPUs of the node's processes together are what
/// counts, within this process's CPU quota. An explicitly set policy is
/// left alone.
pub(crate) fn node_processes(n: usize, node_cpus: Option<usize>) {
    let own = std::thread::available_parallelism().map_or(1, |c| c.get());
    // Below the affinity mask, the process runs under a CPU quota that
    // holds for the whole node's share as well.
    let quota = Some(own).filter(|&q| q < count_cpus(&own_cpus()));
    let cores = match (node_cpus, quota) {
        (Some(c), Some(q)) => c.min(q),
        (Some(c), None) => c,
        (None, _) => own,
    };
    if n > cores.max(1) {
        PER_CPU.store(n.div_ceil(cores.max(1)), Ordering::Relaxed);
    }
    if n > cores.max(1) && !crate::lifecycle::wait_policy_set() {
        crate::lifecycle::set_wait_policy(Policy {
            spin: Duration::ZERO,
            ..Policy::default()
        });
        YIELD_AT_ONCE.store(true, Ordering::Relaxed);
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn cpu_masks_are_read_as_the_kernel_writes_them() {
        let m = parse_cpu_mask("3").unwrap();
        assert_eq!((m[0], count_cpus(&m)), (3, 2));
        // Highest group first: CPUs 32 and 0.
        let m = parse_cpu_mask("00000001,00000001").unwrap();
        assert_eq!((m[0], count_cpus(&m)), ((1 << 32) | 1, 2));
        // The third group holds CPUs 64 to 95.
        let m = parse_cpu_mask("80000000,00000000,00000000").unwrap();
        assert_eq!((m[0], m[1], count_cpus(&m)), (0, 1 << 31, 1));
        assert!(parse_cpu_mask("zz").is_none());
        // A CPU beyond the mask's range makes it unknown.
        let too_far = format!("1{}", ",00000000".repeat(2 * CPU_MASK_WORDS));
        assert!(parse_cpu_mask(&too_far).is_none());
        assert!(count_cpus(&own_cpus()) >= 1, "this process runs somewhere");
    }

    /// A word that a test sets, seen through [`Turns`].
    struct Flag(Arc<AtomicBool>);

    impl Turns for Flag {
        fn ready(&self) -> bool {
            self.0.load(Ordering::Acquire)
        }
        fn sender_here(&self) -> bool {
            false
        }
    }

    #[test]
    fn turns_end_when_the_word_is_set_or_the_span_is_over() {
        let set = Arc::new(AtomicBool::new(false));
        let t = Instant::now();
        assert!(!take_turns(
            Duration::from_millis(5),
            &Flag(Arc::clone(&set))
        ));
        assert!(
            t.elapsed() >= Duration::from_millis(5),
            "the span is waited out"
        );
        let setter = {
            let set = Arc::clone(&set);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(2));
                set.store(true, Ordering::Release);
            })
        };
        assert!(take_turns(Duration::from_secs(5), &Flag(Arc::clone(&set))));
        setter.join().expect("setter");
    }

    #[test]
    fn phases_advance_and_reset() {
        let p = Policy {
            spin: Duration::from_millis(5),
            yield_until: Duration::from_millis(15),
            first_sleep: Duration::from_micros(100),
            max_sleep: Duration::from_micros(400),
        };
        let mut b = Backoff::with_policy(p);
        assert_eq!(b.phase(), Phase::Spin);
        std::thread::sleep(Duration::from_millis(6));
        assert_eq!(b.phase(), Phase::Yield);
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(b.phase(), Phase::Sleep);
        for _ in 0..SPINS_PER_CHECK + 5 {
            b.pause();
        }
        assert_eq!(b.sleep, Duration::from_micros(400), "sleep step is capped");
        b.reset();
        assert_eq!(b.phase(), Phase::Spin);
        assert_eq!(b.sleep, Duration::from_micros(100));
    }
}
