//! Reductions among the processes of one node through one shared region,
//! without MPI: every member copies its contribution into its own slot,
//! publishes the round number beside it, waits for every other member's
//! slot of the same round and folds all slots in member order. Every
//! member folds the same values in the same order, so all get the same
//! bits, also for floating-point sums.
//!
//! Each member has two slots and rounds alternate between them. A member
//! overwrites its slot of round `r` only in round `r + 2`, and it gets
//! there only after it saw every other member's round `r + 1`, which each
//! published after it had finished reading round `r`: so a slot is never
//! overwritten while someone still reads it, and nothing but the round
//! numbers is shared. The round number sits in the slot's first cache
//! line, before the data, so a small contribution is one line to fetch.
//! Only buffers of up to [`LARGEST`] bytes come here: each byte of a
//! contribution crosses between cores twice (written into the slot, read
//! by each other member), and above that size MPI's pipelined single-copy
//! transfers do better (measured with 2 members: 0.5-0.8 of
//! `MPI_Allreduce`'s time up to 32 KiB, equal at 64 KiB, 1.6-1.9 from
//! 128 KiB up, when this path still went through larger buffers piece by
//! piece). Reading the other members' buffers directly with
//! `process_vm_readv` instead (each member folding its share of the
//! elements, then reading the others' shares of the result) measured
//! 1.01-1.07 of `MPI_Allreduce` from 64 KiB to 1 MiB: no gain, so longer
//! buffers stay with MPI.
//!
//! A waiting member spins, then yields, then sleeps on the region's bell
//! (a futex word), which a publishing member rings when anyone sleeps.
//! A member whose process has ended is noticed within [`LIVENESS_CHECK`]
//! and the wait fails instead of hanging.

use super::mem::{pid_alive, Region, RegionError};
use crate::backoff::{Backoff, Phase};
use crate::collective::{Elem, ReduceOp};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Most members a node reduction serves (each member reads every slot, so
/// beyond this a tree through MPI does better).
pub(crate) const MAX_MEMBERS: usize = 64;

/// The longest buffer reduced here (the data bytes of one slot).
pub(crate) const LARGEST: usize = 32 * 1024;

/// Offset of the bell (a futex word).
const OFF_BELL: usize = 0;
/// Offset of the count of sleeping members (its own cache line).
const OFF_SLEEPERS: usize = 64;
/// Offset of the first slot.
const OFF_SLOTS: usize = 128;
/// Bytes from one slot to the next: the round word, the piece, padding to
/// whole cache lines.
const SLOT_STRIDE: usize = (8 + LARGEST).div_ceil(64) * 64;
/// Offset of the data after a slot's round word.
const DATA: usize = 8;

/// How often a long wait checks that the members it waits for still run.
const LIVENESS_CHECK: Duration = Duration::from_millis(500);
/// Longest single sleep on the bell.
const LONGEST_SLEEP: Duration = Duration::from_millis(100);

/// Why a node reduction failed.
#[derive(Debug)]
pub(crate) enum ReduceError {
    /// A member's process ended while this one waited for it.
    MemberEnded { member: usize, pid: u32 },
}

/// This process's view of one node reduction region.
#[derive(Debug)]
pub(crate) struct NodeReduce {
    region: Region,
    members: usize,
    me: usize,
    /// Process id of each member, by member index.
    pids: Vec<u32>,
    /// The last round this member took part in.
    round: AtomicU64,
}

/// Bytes of the region for `members` members.
pub(crate) fn region_len(members: usize) -> usize {
    OFF_SLOTS + members * 2 * SLOT_STRIDE
}

/// Whether a reduction of `bytes` bytes with `op` on `elem` is done here
/// (the others go through MPI, which also reports the combinations it
/// refuses).
pub(crate) fn handles(bytes: usize, elem: Elem, op: ReduceOp) -> bool {
    if bytes > LARGEST {
        return false;
    }
    let integer = matches!(elem, Elem::I32 | Elem::I64);
    match op {
        ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min => true,
        ReduceOp::LAnd | ReduceOp::LOr | ReduceOp::BAnd | ReduceOp::BOr => integer,
    }
}

impl NodeReduce {
    /// Creates the region for `members` members (by the member that hands
    /// its descriptor to the others).
    pub fn create(members: usize) -> Result<Region, RegionError> {
        Region::create(region_len(members))
    }

    /// Opens the region member `owner_pid` created, through its `fd`.
    pub fn open(owner_pid: u32, fd: i32, members: usize) -> Result<Region, RegionError> {
        Region::open_peer(owner_pid, fd, region_len(members))
    }

    /// This process's view as member `me` of `pids.len()` members.
    pub fn new(region: Region, me: usize, pids: Vec<u32>) -> NodeReduce {
        debug_assert!(me < pids.len() && region.len() >= region_len(pids.len()));
        NodeReduce {
            region,
            members: pids.len(),
            me,
            pids,
            round: AtomicU64::new(0),
        }
    }

    fn slot(&self, member: usize, round: u64) -> usize {
        OFF_SLOTS + (member * 2 + (round & 1) as usize) * SLOT_STRIDE
    }

    /// Reduces `buf` (elements of `elem`, native byte order) with `op`
    /// over the members; every member gets the result in `buf`. All
    /// members must call it with the same length, element and operation,
    /// and [`handles`] must accept them.
    pub fn allreduce(&self, buf: &mut [u8], elem: Elem, op: ReduceOp) -> Result<(), ReduceError> {
        debug_assert!(handles(buf.len(), elem, op) && buf.len().is_multiple_of(elem.size()));
        let round = self.round.load(Ordering::Relaxed) + 1;
        self.round.store(round, Ordering::Relaxed);
        let mine = self.slot(self.me, round);
        self.region.write(mine + DATA, buf);
        self.region.u64_at(mine).store(round, Ordering::Release);
        self.ring_bell();
        for j in 0..self.members {
            if j != self.me {
                self.wait_for(j, round)?;
            }
        }
        let n = buf.len();
        buf.copy_from_slice(self.region.bytes(self.slot(0, round) + DATA, n));
        for j in 1..self.members {
            let theirs = self.region.bytes(self.slot(j, round) + DATA, n);
            fold(buf, theirs, elem, op);
        }
        Ok(())
    }

    /// Wakes the members sleeping on the bell, if any.
    fn ring_bell(&self) {
        self.region.ring_bell(OFF_BELL, OFF_SLEEPERS);
    }

    /// Waits until member `j` has published `round`.
    fn wait_for(&self, j: usize, round: u64) -> Result<(), ReduceError> {
        let word = self.region.u64_at(self.slot(j, round));
        if word.load(Ordering::Acquire) >= round {
            return Ok(());
        }
        let mut backoff = Backoff::new();
        let mut checked = Instant::now();
        while word.load(Ordering::Acquire) < round {
            if backoff.phase() != Phase::Sleep {
                backoff.pause();
                continue;
            }
            self.sleep_until(word, round);
            if checked.elapsed() >= LIVENESS_CHECK {
                if word.load(Ordering::Acquire) < round && !pid_alive(self.pids[j]) {
                    return Err(ReduceError::MemberEnded {
                        member: j,
                        pid: self.pids[j],
                    });
                }
                checked = Instant::now();
            }
        }
        Ok(())
    }

    /// Sleeps on the bell unless `word` reaches `round` first.
    fn sleep_until(&self, word: &AtomicU64, round: u64) {
        let sleepers = self.region.u32_at(OFF_SLEEPERS);
        sleepers.fetch_add(1, Ordering::SeqCst);
        let bell = self.region.u32_at(OFF_BELL).load(Ordering::Acquire);
        if word.load(Ordering::Acquire) < round {
            self.region.futex_wait(OFF_BELL, bell, LONGEST_SLEEP);
        }
        sleepers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Combines `acc` with `other` element by element: `acc = acc op other`.
fn fold(acc: &mut [u8], other: &[u8], elem: Elem, op: ReduceOp) {
    match elem {
        Elem::I32 => fold_as(acc, other, op, i32::from_ne_bytes, i32::to_ne_bytes),
        Elem::I64 => fold_as(acc, other, op, i64::from_ne_bytes, i64::to_ne_bytes),
        Elem::F32 => fold_as(acc, other, op, f32::from_ne_bytes, f32::to_ne_bytes),
        Elem::F64 => fold_as(acc, other, op, f64::from_ne_bytes, f64::to_ne_bytes),
    }
}

/// A number a reduction combines.
trait Combine: Copy + PartialOrd {
    fn combine(self, other: Self, op: ReduceOp) -> Self;
}

macro_rules! combine_integer {
    ($t:ty) => {
        impl Combine for $t {
            #[inline(always)]
            fn combine(self, o: Self, op: ReduceOp) -> Self {
                match op {
                    ReduceOp::Sum => self.wrapping_add(o),
                    ReduceOp::Prod => self.wrapping_mul(o),
                    ReduceOp::Max => self.max(o),
                    ReduceOp::Min => self.min(o),
                    ReduceOp::LAnd => (self != 0 && o != 0) as $t,
                    ReduceOp::LOr => (self != 0 || o != 0) as $t,
                    ReduceOp::BAnd => self & o,
                    ReduceOp::BOr => self | o,
                }
            }
        }
    };
}
combine_integer!(i32);
combine_integer!(i64);

macro_rules! combine_float {
    ($t:ty) => {
        impl Combine for $t {
            #[inline(always)]
            fn combine(self, o: Self, op: ReduceOp) -> Self {
                match op {
                    ReduceOp::Sum => self + o,
                    ReduceOp::Prod => self * o,
                    // As C's `a > b ? a : b`, which MPI libraries use.
                    ReduceOp::Max => {
                        if self > o {
                            self
                        } else {
                            o
                        }
                    }
                    ReduceOp::Min => {
                        if self < o {
                            self
                        } else {
                            o
                        }
                    }
                    // Refused by `handles`; kept total for safety.
                    _ => self,
                }
            }
        }
    };
}
combine_float!(f32);
combine_float!(f64);

/// `acc = acc op other` over elements of `N` bytes. The operation is
/// chosen once, outside the loop, so each loop is a plain element-wise one
/// the compiler can vectorise.
#[inline(always)]
fn fold_as<T: Combine, const N: usize>(
    acc: &mut [u8],
    other: &[u8],
    op: ReduceOp,
    load: fn([u8; N]) -> T,
    store: fn(T) -> [u8; N],
) {
    macro_rules! with_op {
        ($($op:ident),*) => {
            match op {
                $(ReduceOp::$op => each(acc, other, load, store, |a, b| a.combine(b, ReduceOp::$op)),)*
            }
        };
    }
    with_op!(Sum, Prod, Max, Min, LAnd, LOr, BAnd, BOr)
}

#[inline(always)]
fn each<T, const N: usize>(
    acc: &mut [u8],
    other: &[u8],
    load: fn([u8; N]) -> T,
    store: fn(T) -> [u8; N],
    f: impl Fn(T, T) -> T,
) {
    let get = |b: &[u8]| load(b.try_into().expect("a whole element"));
    for (a, o) in acc.chunks_exact_mut(N).zip(other.chunks_exact(N)) {
        a.copy_from_slice(&store(f(get(a), get(o))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops_follow_mpi() {
        assert_eq!(3i32.combine(-5, ReduceOp::Sum), -2);
        assert_eq!(i64::MAX.combine(1, ReduceOp::Sum), i64::MIN);
        assert_eq!(4i64.combine(0, ReduceOp::LOr), 1);
        assert_eq!(4i64.combine(0, ReduceOp::LAnd), 0);
        assert_eq!(6i32.combine(3, ReduceOp::BAnd), 2);
        assert_eq!(6i32.combine(3, ReduceOp::Max), 6);
    }

    #[test]
    fn float_max_keeps_the_first_when_not_greater() {
        assert_eq!(1.5f64.combine(-2.0, ReduceOp::Max), 1.5);
        assert!(f64::NAN.combine(1.0, ReduceOp::Max) == 1.0);
        assert_eq!(2.0f32.combine(3.0, ReduceOp::Min), 2.0);
        assert!(!handles(8, Elem::F64, ReduceOp::BOr));
        assert!(handles(8, Elem::I64, ReduceOp::BOr));
        assert!(!handles(LARGEST + 8, Elem::I64, ReduceOp::Sum));
    }

    #[test]
    fn a_wait_for_a_member_that_ended_fails_within_seconds() {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("run true");
        let gone = child.id();
        child.wait().expect("wait for true");
        let region = NodeReduce::create(2).expect("region");
        let r = NodeReduce::new(region, 0, vec![std::process::id(), gone]);
        let t = Instant::now();
        let mut x = 7i64.to_ne_bytes();
        match r.allreduce(&mut x, Elem::I64, ReduceOp::Sum) {
            Err(ReduceError::MemberEnded { member, pid }) => {
                assert_eq!((member, pid), (1, gone));
            }
            other => panic!("expected the ended member to be reported, got {other:?}"),
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "took {:?}",
            t.elapsed()
        );
    }

    #[test]
    fn two_members_in_threads_get_the_same_sums_over_many_rounds() {
        let region = NodeReduce::create(2).expect("region");
        let other = NodeReduce::open(std::process::id(), region.fd(), 2).expect("open");
        let pid = std::process::id();
        let a = NodeReduce::new(region, 0, vec![pid, pid]);
        let b = NodeReduce::new(other, 1, vec![pid, pid]);
        let run = |r: NodeReduce, me: f64| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                for len in [1usize, 3, 2048, LARGEST / 8, 7, 0, 1000] {
                    let mut x: Vec<f64> = (0..len).map(|i| me + i as f64).collect();
                    let mut bytes: Vec<u8> = x.iter().flat_map(|v| v.to_ne_bytes()).collect();
                    r.allreduce(&mut bytes, Elem::F64, ReduceOp::Sum)
                        .expect("reduce");
                    for (v, b) in x.iter_mut().zip(bytes.chunks_exact(8)) {
                        *v = f64::from_ne_bytes(b.try_into().unwrap());
                    }
                    out.push(x);
                }
                out
            })
        };
        let ta = run(a, 1.0);
        let tb = run(b, 10.0);
        let (ra, rb) = (ta.join().unwrap(), tb.join().unwrap());
        assert_eq!(ra, rb, "both members get the same result");
        for x in &ra {
            for (i, v) in x.iter().enumerate() {
                assert_eq!(*v, 11.0 + 2.0 * i as f64);
            }
        }
    }
}
