//! The checks run before anything starts.

use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::hosts::HostMap;
use crate::model::Application;

/// Every check of "checks before anything starts"; errors and warnings.
pub fn check(_app: &Application, _hosts: &HostMap) -> Vec<Diagnostic> {
    Vec::new()
}

/// The executable of a component: absolute path, relative to the script's
/// directory, or found on PATH.
pub fn resolve_location(_app: &Application, _component: &str) -> Option<PathBuf> {
    None
}
