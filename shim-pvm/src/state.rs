//! The process's PVM task behind one lock, enrolled on first use, and the
//! error reporting every entry point shares (`pvm_errno`, `PvmAutoErr`).

use crate::consts::{err, opt};
use crate::errors::{report_line, Reporter};
use crate::ops::Outcome;
use crate::task::Task;
use crate::{PvmError, PvmResult};
use shim_core::Lock;

enum Phase {
    /// No PVM call yet.
    Fresh,
    /// Enrolled.
    Enrolled(Box<Task>),
    /// After `pvm_exit` (MPI cannot start twice in one process).
    Exited,
}

static PVM: Lock<Phase> = Lock::new(Phase::Fresh);

/// Runs `f` on this process's task, enrolling it first if needed. A
/// received payload still in MPI is fetched into its buffer first, so `f`
/// sees every buffer whole.
#[inline(always)]
pub fn with_task<R>(f: impl FnOnce(&mut Task) -> PvmResult<R>) -> PvmResult<R> {
    with_task_lazy(|t| {
        if t.msg.lazy_pending() {
            t.msg.materialize()?;
        }
        f(t)
    })
}

/// Like [`with_task`], leaving a received payload in MPI: for the entry
/// points that handle one themselves (unpacking, `pvm_bufinfo`).
#[inline(always)]
pub fn with_task_lazy<R>(f: impl FnOnce(&mut Task) -> PvmResult<R>) -> PvmResult<R> {
    let mut g = PVM.lock();
    if matches!(*g, Phase::Fresh) {
        *g = Phase::Enrolled(enrolled()?);
    }
    match &mut *g {
        Phase::Enrolled(t) => f(t),
        _ => Err(PvmError(err::SYS_ERR)),
    }
}

/// This process's task, enrolled now (the first PVM call).
#[cold]
#[inline(never)]
fn enrolled() -> PvmResult<Box<Task>> {
    Task::enroll().map(Box::new)
}

/// Runs a blocking operation; a task killed while waiting leaves PVM and
/// the process ends (status 0), as a PVM task killed by its daemon would.
#[inline(always)]
pub fn blocking<R>(f: impl FnOnce(&mut Task) -> PvmResult<Outcome<R>>) -> PvmResult<R> {
    match with_task(f)? {
        Outcome::Done(r) => Ok(r),
        Outcome::Killed => {
            leave();
            std::process::exit(0)
        }
    }
}

/// Leaves PVM for a process that ends without `pvm_exit` (it returns from
/// `main` or calls `exit`), as PVM's daemon would see it go: watchers get
/// their exit notices, groups are left, and a lazily received payload is
/// still received so its sender's `pvm_send` completes. Run before MPI is
/// finalised. Inside a PVM call, which holds the task, this does nothing.
pub fn leave_at_exit() {
    let Some(mut g) = PVM.try_lock() else {
        return;
    };
    if let Phase::Enrolled(t) = &mut *g {
        t.msg.discard_lazy();
        t.leave();
        *g = Phase::Exited;
    }
}

/// `pvm_exit`: leaves PVM; the process goes on.
pub fn leave() -> bool {
    let mut g = PVM.lock();
    match std::mem::replace(&mut *g, Phase::Exited) {
        Phase::Enrolled(mut t) => {
            t.msg.discard_lazy();
            t.leave();
            true
        }
        Phase::Fresh => {
            *g = Phase::Fresh;
            false
        }
        Phase::Exited => false,
    }
}

/// The tid to name in error messages, without enrolling.
fn reporter() -> Reporter {
    match &*PVM.lock() {
        Phase::Enrolled(t) => Reporter::Task(t.me),
        _ => Reporter::Pid(std::process::id()),
    }
}

fn auto_err() -> i32 {
    match &*PVM.lock() {
        Phase::Enrolled(t) => t.msg.getopt(opt::AUTO_ERR).unwrap_or(1),
        _ => 1,
    }
}

/// Turns a result into PVM's return value; a failure sets `pvm_errno` and,
/// as `PvmAutoErr` says, is printed (1), printed then exits (2) or aborts (3).
#[inline]
pub fn finish(func: &str, r: PvmResult<i32>) -> i32 {
    match r {
        Ok(v) => v,
        Err(e) => failed(func, e),
    }
}

/// The error path of [`finish`], kept out of line.
#[cold]
#[inline(never)]
fn failed(func: &str, PvmError(code): PvmError) -> i32 {
    crate::ptr::set_errno(code);
    let mode = auto_err();
    if mode != 0 {
        eprintln!("{}", report_line(reporter(), func, code));
    }
    match mode {
        2 => {
            leave();
            std::process::exit(code.unsigned_abs() as i32)
        }
        3 => std::process::abort(),
        _ => code,
    }
}

/// Like [`finish`] but never prints (for calls PVM keeps quiet about, such
/// as `pvm_parent` without a parent).
pub fn finish_quiet(r: PvmResult<i32>) -> i32 {
    match r {
        Ok(v) => v,
        Err(PvmError(code)) => {
            crate::ptr::set_errno(code);
            code
        }
    }
}
