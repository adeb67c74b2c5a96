//! Reading an `MPBRIDGE_TRACE` event file in tests: its events as text
//! lines (`time_us kind layer field=value...`, one per event), through the
//! `trace-format` crate that `mpbridge trace` reads with.

use std::path::Path;

/// The events of the trace file at `path`, one line each; panics (the
/// test fails) when the file is missing, cut short or damaged.
pub fn lines(path: &Path) -> String {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let decoded = trace_format::decode(&data);
    if let Some(e) = decoded.error {
        panic!("{}: {e}", path.display());
    }
    decoded.records.iter().map(|r| r.line() + "\n").collect()
}
