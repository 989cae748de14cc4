//! Diagnostics (§parse-diagnostics, §error-shape): every message is a rule-file entry named by
//! id; this module only fills placeholders and positions the result.

use crate::ast::{Diagnostic, Position, Severity};
use crate::rules::model;
use crate::rules::{DiagId, Rules};

/// Builds a positioned diagnostic from its rule entry. Cold and out of line: most statements
/// raise none, and a call site's argument building then sits apart from the hot path.
#[cold]
#[inline(never)]
pub fn make(rules: &Rules, id: DiagId, at: Position, args: &[(&str, &str)], recovery: Option<String>) -> Diagnostic {
    let d = rules.diag(id);
    let severity = match d.severity {
        model::Severity::Error => Severity::Error,
        _ => Severity::Warning,
    };
    Diagnostic {
        line: at.line,
        column: at.column,
        source: d.source,
        severity,
        message: rules.text(id, args),
        recovery: if severity == Severity::Error { recovery } else { None },
        operation_omitted: d.omitted,
        attempt: None,
        id,
        show_id: false,
    }
}
