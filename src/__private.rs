//! Not API: what the crate's own tests, benchmarks, fuzz targets, CLI and bindings need of the
//! pipeline's internals. Nothing here is covered by semver; it may change in any release.

pub use crate::entry::{call_json, guarded, message, options_from_json, ENTRIES};
pub use crate::turn::{pairing_stats, reading_path, ReadingPath};

/// The line scanner's pieces the fuzz harness and the native tests drive directly.
pub mod scan {
    pub use crate::scan::{columns, lines, Line, Registry};
}
/// §native-tool-calls: the markup reader, called alone.
pub mod native {
    pub use crate::native::{read, receipt_in};
}
/// The matcher dialects, read alone.
pub mod matcher {
    pub use crate::matcher::{read, MatcherNote};
}
/// Target slots, decomposed alone.
pub mod target {
    pub use crate::target::{decode_slot, encode_slot, glob_magic_index, has_glob, parse, split_uri_group, InvalidUri};
}
/// The pairing search's bounds.
pub mod pair {
    pub use crate::pair::{Stats, HISTORY_CAP};
}
/// Rendering helpers below `render`'s API.
pub mod render {
    use crate::ast::{LineMarker, Target};
    /// A scope as written in its slot.
    pub fn scope_text(lm: &LineMarker) -> String {
        crate::canonical::scope_text(lm)
    }
    /// A target as written in its slot.
    pub fn target_text(t: &Target) -> String {
        crate::canonical::target_text(t)
    }
}
/// The rule set's compiled tables and typed diagnostic ids.
pub mod rules {
    pub use crate::rules::model::{NativeForm, Tier};
    pub use crate::rules::DiagId;
    use crate::rules::Rules;

    /// The compiled tables.
    pub fn tables(rules: &Rules) -> &crate::rules::Tables {
        &rules.tables
    }
    /// A rule set from tables (the lookups built, the references checked).
    pub fn from_tables(tables: crate::rules::Tables) -> Result<Rules, String> {
        Rules::from_tables(tables)
    }
    /// Diagnostic `id`'s text with `args` filled in.
    pub fn text(rules: &Rules, id: DiagId, args: &[(&str, &str)]) -> String {
        rules.text(id, args)
    }
}

/// Runs `f` with this thread's parses on the general path alone: no clean-turn reader, no
/// clean pairing, no plain-heading builder. Each short-cut gives what the general path gives,
/// only sooner; the properties that hold them to it (tests, the fuzz harness) compare the two.
pub fn general_path_only<R>(f: impl FnOnce() -> R) -> R {
    crate::work::general_path_only(f)
}
