//! What a parse is asked: the document tier ([`Entry`]) and the options ([`ParseOptions`]). The
//! face re-exports both; every stage that reads them imports them from here, below the turn.

use std::sync::Arc;

use crate::rules::Rules;

/// The document tier a call parses (§tier-entrypoints), for [`run`](crate::run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Entry {
    /// One model turn, with response text and the no-operation diagnostic (§turn-shape): [`parse`](crate::parse).
    Parse,
    /// Zero or more protocol statements: [`parse_statements`](crate::parse_statements).
    Statements,
    /// Executable blocks including the client-tier LOOK: [`parse_client`](crate::parse_client).
    Client,
}

/// Options of a parse: `ParseOptions::default()` and its `with_…` methods.
///
/// ```
/// use plurnk_parser::{parse, ParseOptions};
///
/// let options = ParseOptions::default().with_executors(["sh", "python3"]).with_diagnostic_ids(true);
/// let result = parse("```python3\nprint(1)\n```\nand prose", &options);
/// assert_eq!(result.statements().count(), 1);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Registered executors; `None` means the rule set's default (`sh`). `sh` is known in every
    /// parse, whatever the list names (§fence-heading-in-body).
    pub executors: Option<Vec<String>>,
    /// A rule set other than the built-in one (see [`Rules::from_dir`]).
    pub rules: Option<Arc<Rules>>,
    /// Whether serialized diagnostics carry their stable id as `"id"` (off by default: the
    /// contract's JSON has no such key). See [`ParseOptions::with_diagnostic_ids`].
    pub diagnostic_ids: bool,
}

impl ParseOptions {
    /// The rule set these options name: the caller's, else the built-in one.
    pub(crate) fn rules(&self) -> &Rules {
        match &self.rules {
            Some(r) => r,
            None => Rules::builtin(),
        }
    }

    /// These options with `executors` registered (§fence-heading-in-body; `sh` is known
    /// whatever the list names).
    pub fn with_executors<I: IntoIterator<Item = S>, S: Into<String>>(mut self, executors: I) -> ParseOptions {
        self.executors = Some(executors.into_iter().map(Into::into).collect());
        self
    }

    /// These options with another rule set (see [`Rules::from_dir`]).
    pub fn with_rules(mut self, rules: Arc<Rules>) -> ParseOptions {
        self.rules = Some(rules);
        self
    }

    /// These options with each diagnostic's stable id ([`Diagnostic::id`](crate::Diagnostic::id)) written into its
    /// JSON as `"id"`, after the contract's keys. Off by default, so the JSON stays the
    /// contract's; `schema/ParseResult.json` allows the key for callers who turn this on. The
    /// Rust value carries the id either way.
    ///
    /// ```
    /// use plurnk_parser::{parse, ParseOptions};
    ///
    /// let plain = parse("No operation.", &ParseOptions::default());
    /// assert!(!serde_json::to_string(&plain).unwrap().contains(r#""id""#));
    /// let with_ids = parse("No operation.", &ParseOptions::default().with_diagnostic_ids(true));
    /// assert!(serde_json::to_string(&with_ids).unwrap().contains(r#""id":"no-operation""#));
    /// ```
    pub fn with_diagnostic_ids(mut self, on: bool) -> ParseOptions {
        self.diagnostic_ids = on;
        self
    }
}
