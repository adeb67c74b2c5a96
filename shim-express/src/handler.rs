//! Message handlers (`exhandle`): a function that runs when a message of a
//! given source and type arrives.
//!
//! # When handlers run
//! Only inside Express calls, on the thread that makes them: at the start
//! of every Express call (all but `exerrmsg` and `exgridsize`, which need
//! no process state), and again on every turn of the wait of a blocking
//! receive (`exread`, `exvread`, `exchange`, `exmsgwait`), so a handler
//! runs while the process is blocked waiting for another message. A handler does not run while
//! the process computes outside Express, nor during the MPI collective
//! inside `exsync`, `exbroadcast`, `excombine` or `exconcat` (it runs at
//! their start). A message that matches a handler is taken by the handler
//! before any receive sees it. Handlers do not nest: Express calls made
//! inside a handler run no handlers. Among several handlers that match,
//! the one registered first runs; registering again for the same source
//! and type replaces the function, and a NULL function removes it.

use crate::error::{ExError, ExResult};
use crate::layer::{with, Express, DONTCARE, EXNONODE};
use shim_core::Match;
use std::cell::Cell;
use std::sync::Arc;

/// A handler function: (message bytes, source node, type).
pub type HandlerFn = Arc<dyn Fn(&mut [u8], i32, i32) + Send + Sync>;

/// One registered handler.
#[derive(Clone)]
pub struct Handler {
    src: i32,
    ty: i32,
    pattern: Match,
    func: HandlerFn,
}

thread_local! {
    static RUNNING: Cell<bool> = const { Cell::new(false) };
}

/// Registers `func` for messages from `src` of type `ty` (either may be
/// `DONTCARE`); `None` removes the handler for that source and type.
pub fn register(call: &str, func: Option<HandlerFn>, src: i32, ty: i32) -> ExResult<()> {
    with(call, |x: &mut Express| {
        if src == EXNONODE {
            return Err(ExError::new(
                crate::error::EXBADNODE,
                format!("{call}: EXNONODE sends nothing to handle"),
            ));
        }
        let source = if src == DONTCARE {
            None
        } else {
            x.id_of(call, "source", src)?
        };
        let pattern = Match::new(source, (ty != DONTCARE).then_some(ty));
        let at = x.handlers.iter().position(|h| h.src == src && h.ty == ty);
        let registered = func.is_some();
        match (func, at) {
            (Some(func), Some(i)) => x.handlers[i].func = func,
            (Some(func), None) => x.handlers.push(Handler {
                src,
                ty,
                pattern,
                func,
            }),
            (None, Some(i)) => {
                x.handlers.remove(i);
            }
            (None, None) => {}
        }
        shim_core::log::tracing::debug!(
            target: "express",
            src,
            ty,
            handlers = x.handlers.len(),
            "{call}: handler {}; calls now serve handlers first while any is registered",
            if registered { "registered" } else { "removed" }
        );
        x.refresh_busy();
        Ok(())
    })
}

/// Whether a handler of `x` takes messages from `source` with `tag`
/// (a receive that finds such a message leaves it to the handler);
/// never inside a handler, where handlers do not run.
pub fn claimed(x: &Express, source: shim_core::ProcId, tag: i32) -> bool {
    !RUNNING.with(|r| r.get()) && x.handlers.iter().any(|h| h.pattern.accepts(source, tag, 0))
}

/// Whether a handler takes messages from `source` with `tag`.
pub fn claimed_now(call: &str, source: shim_core::ProcId, tag: i32) -> ExResult<bool> {
    with(call, |x| Ok(claimed(x, source, tag)))
}

/// The patterns handlers of `x` take now (none inside a handler).
pub fn claim_patterns(x: &Express) -> Vec<Match> {
    if RUNNING.with(|r| r.get()) {
        return Vec::new();
    }
    x.handlers.iter().map(|h| h.pattern).collect()
}

/// The patterns handlers take now (none inside a handler).
pub fn claims(call: &str) -> ExResult<Vec<Match>> {
    with(call, |x| Ok(claim_patterns(x)))
}

/// Runs the handlers of every waiting message that has one (not inside a
/// handler).
pub fn dispatch(call: &str) -> ExResult<()> {
    if RUNNING.with(|r| r.get()) {
        return Ok(());
    }
    loop {
        let (ctx, handlers, held) = with(call, |x| {
            // Held messages are the oldest: they go first.
            let i = x.held.iter().position(|m| {
                x.handlers
                    .iter()
                    .any(|h| h.pattern.accepts(m.source, m.tag, m.encoding))
            });
            let held = i.and_then(|i| x.held.remove(i));
            x.refresh_busy();
            Ok((x.ctx(), x.handlers.clone(), held))
        })?;
        if handlers.is_empty() {
            return Ok(());
        }
        let taken = match held {
            Some(m) => Some(m),
            None => ctx
                .take_where(|m| {
                    handlers
                        .iter()
                        .any(|h| h.pattern.accepts(m.source, m.tag, m.encoding))
                })
                .map_err(|e| ExError::core(call, e))?,
        };
        let Some(mut m) = taken else { return Ok(()) };
        let Some(h) = handlers
            .iter()
            .find(|h| h.pattern.accepts(m.source, m.tag, m.encoding))
        else {
            return Ok(());
        };
        let src = with(call, |x| Ok(x.node_of(m.source)))?;
        RUNNING.with(|r| r.set(true));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (h.func)(&mut m.data, src, m.tag)
        }));
        RUNNING.with(|r| r.set(false));
        if let Err(p) = result {
            std::panic::resume_unwind(p);
        }
    }
}
