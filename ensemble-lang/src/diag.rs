//! Diagnostics: a message tied to a place in a script.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::model::Span;

/// How serious a diagnostic is: errors stop a launch, warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about a script, with the file, line and column it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    pub span: Span,
    pub severity: Severity,
    pub message: String,
    /// Other places the message concerns (the first use of a port that is
    /// used twice, ...), each with what it is.
    pub related: Vec<Related>,
}

/// A second place a diagnostic points at, in the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub label: String,
}

impl Diagnostic {
    /// An error at `span` of `file`.
    pub fn error(file: &Path, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_path_buf(),
            span,
            severity: Severity::Error,
            message: message.into(),
            related: Vec::new(),
        }
    }

    /// A warning at `span` of `file`.
    pub fn warning(file: &Path, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_path_buf(),
            span,
            severity: Severity::Warning,
            message: message.into(),
            related: Vec::new(),
        }
    }

    /// The same diagnostic also pointing at `span` of its file, described
    /// by `label`.
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            span,
            label: label.into(),
        });
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file.display(),
            self.span.line,
            self.span.col,
            sev,
            self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// True if any of `diags` is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
