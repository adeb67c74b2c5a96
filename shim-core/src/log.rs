//! Logs of the backend's and the layers' decisions (spawns, connection
//! set-up, the same-node or MPI path, fallbacks, failed server requests,
//! clean-up), written to stderr when `MPBRIDGE_LOG` asks for them.
//!
//! `MPBRIDGE_LOG` takes `tracing` target directives: `debug` for every
//! target, or `core=debug,pvm=info` per layer. The targets are `core`,
//! `pvm`, `tcgmsg`, `ga`, `express`, `hpf`, `ensemble` and `mpc`. Every line starts
//! with the process's rank in its MPI world and its id (`[rank 0 t40001]`),
//! or the rank alone for an Ensemble MPI component, which never joins the
//! core (`[rank 3]`).
//!
//! Unset (the default), no subscriber is installed and each log statement
//! costs one relaxed atomic load; none sits on the message path. Layers
//! log through the re-exported [`tracing`] with their own target, e.g.
//! `shim_core::log::tracing::debug!(target: "pvm", "...")`.

use std::fmt;

pub use tracing;

use tracing::{Event, Subscriber};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::format::{self, FormatEvent, FormatFields};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use crate::procid::ProcId;

/// The variable that turns logs on.
pub const LOG_VAR: &str = "MPBRIDGE_LOG";

/// Installs the stderr logger once per process when `MPBRIDGE_LOG` is set;
/// `me` and `rank` start every line. A program that installed its own
/// global `tracing` subscriber keeps it.
pub fn init(me: ProcId, rank: i32) {
    install(format!("[rank {rank} {me}]"));
}

/// Like [`init`] for a process that never joins the core (an Ensemble MPI
/// component): its lines start with its rank alone, `[rank 3]`.
pub fn init_without_id(rank: i32) {
    install(format!("[rank {rank}]"));
}

fn install(who: String) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Some(spec) = std::env::var(LOG_VAR).ok().filter(|s| !s.trim().is_empty()) else {
            return;
        };
        let targets = match parse_spec(&spec) {
            Ok(t) => t,
            Err(why) => {
                eprintln!("mpbridge: {LOG_VAR}='{spec}' not understood ({why}); logs stay off");
                return;
            }
        };
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .event_format(Who {
                who,
                inner: format::Format::default().with_ansi(false),
            })
            .with_filter(targets);
        let subscriber = tracing_subscriber::registry().with(layer);
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
}

/// The filter `spec` describes (`debug`, `core=debug,pvm=info`).
pub fn parse_spec(spec: &str) -> Result<Targets, String> {
    spec.trim().parse::<Targets>().map_err(|e| e.to_string())
}

/// The event format with the process named first.
struct Who<F> {
    who: String,
    inner: F,
}

impl<S, N, F> FormatEvent<S, N> for Who<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: format::Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write!(writer, "{} ", self.who)?;
        self.inner.format_event(ctx, writer, event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;

    #[test]
    fn per_layer_levels_are_understood() {
        let t = parse_spec("pvm=debug,core=info").unwrap();
        assert!(t.would_enable("pvm", &Level::DEBUG));
        assert!(t.would_enable("core", &Level::INFO));
        assert!(!t.would_enable("core", &Level::DEBUG));
        assert!(!t.would_enable("ga", &Level::ERROR));
        let all = parse_spec("debug").unwrap();
        assert!(all.would_enable("tcgmsg", &Level::DEBUG));
        assert!(!all.would_enable("tcgmsg", &Level::TRACE));
    }

    #[test]
    fn nonsense_is_refused() {
        assert!(parse_spec("core=loud").is_err());
    }
}
