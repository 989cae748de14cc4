//! Diagnostics (§parse-diagnostics, §error-shape): every message is a rule-file entry named by
//! id; this module only fills placeholders and positions the result.

use crate::ast::{ParseError, Position};
use crate::rules::model::{Severity, Source};
use crate::rules::{DiagId, Rules};

/// Builds a positioned diagnostic from its rule entry. Cold and out of line: most statements
/// raise none, and a call site's argument building then sits apart from the hot path.
#[cold]
#[inline(never)]
pub fn make(rules: &Rules, id: DiagId, at: Position, args: &[(&str, &str)], recovery: Option<String>) -> ParseError {
    let d = rules.diag(id);
    let severity = match d.severity {
        Severity::Error => Severity::Error,
        _ => Severity::Warning,
    };
    ParseError {
        line: at.line,
        column: at.column,
        source: d.source,
        severity,
        message: rules.text(id, args),
        recovery: if severity == Severity::Error { recovery } else { None },
        operation_omitted: d.omitted,
        attempt: None,
    }
}

/// A hard error whose source differs from its rule entry's default (the reference names the
/// stage that caught it).
#[cold]
#[inline(never)]
pub fn make_from(rules: &Rules, id: DiagId, source: Source, at: Position, args: &[(&str, &str)], recovery: Option<String>) -> ParseError {
    let mut e = make(rules, id, at, args, recovery);
    e.source = source;
    e
}
