//! A table-driven parser for PLURNK, the operation language LLM agents write (SPEC 6.0).
//!
//! A model's turn is raw text: prose, Markdown, backtick-fenced operations such as
//! ```` ```READ (src/a.rs) <1,40> ````, often malformed. [`parse`] turns one turn into ordered
//! [`Item`]s — [`Statement`]s to run, [`Diagnostic`]s and response text — exactly as the contract
//! (`schema/ParseResult.json`) serializes them, runs no example the author only showed, and loses
//! no body byte.
//!
//! ```
//! use plurnk_parser::{parse, Item, ParseOptions};
//!
//! let turn = "I will read it.\n```READ (src/a.rs) <1,40>\n```\n";
//! let result = parse(turn, &ParseOptions::default());
//! for item in &result.items {
//!     match item {
//!         Item::Statement(s) => assert_eq!(s.op_name(), Some("READ")),
//!         Item::Text(t) => assert_eq!(t.content, "I will read it.\n"),
//!         Item::Error(d) => panic!("{}: {}", d.id(), d.message),
//!         _ => {} // the item kinds may grow
//!     }
//! }
//! // The contract's JSON, byte for byte what `plurnk-parser --jsonl` answers.
//! let json = serde_json::to_string(&result).unwrap();
//! assert!(json.starts_with(r#"{"items":[{"kind":"text""#));
//! ```
//!
//! # Entry points
//!
//! | Entry (§tier-entrypoints) | Function |
//! |---|---|
//! | one model turn, with response text (§turn-shape) | [`parse`] |
//! | protocol statements only | [`parse_statements`] |
//! | the client tier, with LOOK | [`parse_client`] |
//! | any of those three, chosen at run time | [`run`] with an [`Entry`] |
//! | the operations in provider reasoning (§reasoning-operations) | [`parse_reasoning`] |
//! | the attempt of an emission with no operation (§operation-attempt) | [`operation_attempt`] |
//! | one target decomposed (§path-syntax) | [`parse_path`] |
//! | a turn as it streams | [`StreamParser`] |
//! | a statement's canonical text (§statement-rendering) | [`render::stringify`] |
//!
//! # Options
//!
//! [`ParseOptions`] names the registered executors (`sh` is known in every parse), another rule
//! set ([`Rules::from_dir`], feature `runtime-rules`) and whether serialized diagnostics carry
//! their stable id ([`ParseOptions::with_diagnostic_ids`]).
//!
//! # Results borrow the turn
//!
//! Bodies, outside text and most targets are `Cow::Borrowed` slices of the input;
//! [`ParseResult::into_owned`] and [`Statement::into_owned`] detach them.
//!
//! # Diagnostics
//!
//! Every [`Diagnostic`] carries its stable id from `rules/diagnostics.yaml`
//! ([`Diagnostic::id`]): match on the id, never on the message, whose wording may change.
//!
//! # Errors
//!
//! The calls that can fail — [`parse_path`] on a malformed target, [`Rules::from_dir`] on an
//! invalid rule directory — return an [`Error`] whose [`kind`](Error::kind) says which, with the
//! place in the rule file where there is one.
//!
//! # Features
//!
//! - `runtime-rules`: [`Rules::from_dir`], loading and validating a rule directory at run time.
//! - `cli` (default): the `plurnk-parser` command-line tool (implies `runtime-rules`). A library
//!   user may depend with `default-features = false`.
//!
//! # Stability
//!
//! The result types that may grow are `#[non_exhaustive]`: match them with a wildcard arm, and
//! build [`ParseOptions`] from `Default` with its `with_…` methods.
#![warn(missing_docs)]

// The pipeline's stages, none of them API but `render`, ground up (the floors are written in
// `tests/layers.rs`, which fails on an import running up): `rules` → `ast`, `options` → `scan` →
// `pair`, `heading`, `matcher`, `target`, `scope` → `statement`, `native`, `diagnose`, `canonical`
// → `turn` → `render`, `stream`, `entry` → this face → `ffi`. `__private` lends the rest.
#[doc(hidden)]
pub mod __private;
mod ast;
mod canonical;
mod diagnose;
mod entry;
mod error;
mod ffi;
mod heading;
mod matcher;
mod native;
mod options;
mod pair;
pub mod render;
mod rules;
mod scan;
mod scope;
mod small;
mod statement;
mod stream;
mod target;
mod turn;
#[doc(hidden)]
pub mod work;
// The unit tests include the fuzz harness (`work`), which names the crate by its name.
#[cfg(test)]
extern crate self as plurnk_parser;

pub use ast::{
    Body, Diagnostic, Head, Item, LineMarker, Mark, Matcher, ParseResult, Position, Selection, Severity, Statement, Target, TextItem,
    UnparsedTail, UrlTarget,
};
pub use entry::{operation_attempt, parse_reasoning, Attempt, AttemptKind};
pub use error::{Error, ErrorKind};
pub use options::{Entry, ParseOptions};
pub use rules::model::{Shape, Source};
pub use rules::Rules;
pub use stream::StreamParser;

/// `PlurnkParser.parse`: one model turn (§turn-shape): its statements, diagnostics and response
/// text in source order. A turn with no operation draws the `no-operation` diagnostic.
///
/// ```
/// use plurnk_parser::{parse, Body, ParseOptions};
///
/// let result = parse("Here is the change:\n```EDIT (notes.md)\nhello\n```\n", &ParseOptions::default());
/// let edit = result.statements().next().unwrap();
/// assert_eq!(edit.op_name(), Some("EDIT"));
/// assert_eq!(edit.target.as_ref().map(|t| t.raw()), Some("notes.md"));
/// assert!(matches!(&edit.body, Body::Text(t) if t == "hello"));
/// assert!(!result.has_errors());
/// ```
pub fn parse<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Parse)
}

/// `PlurnkParser.parseStatements`: protocol statements only; outside text is ignored.
///
/// ```
/// use plurnk_parser::{parse_statements, ParseOptions};
///
/// let result = parse_statements("```READ (a.md)\n```\n```LOOK (b.md)\n```", &ParseOptions::default());
/// let ops: Vec<_> = result.statements().filter_map(|s| s.op_name()).collect();
/// assert_eq!(ops, ["READ"]); // LOOK is client-tier: refused here
/// assert!(result.has_errors());
/// ```
pub fn parse_statements<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Statements)
}

/// `PlurnkParser.parseClient`: executable blocks including the client-tier LOOK.
///
/// ```
/// use plurnk_parser::{parse_client, ParseOptions};
///
/// let result = parse_client("```LOOK (b.md)\n```", &ParseOptions::default());
/// assert_eq!(result.statements().next().and_then(|s| s.op_name()), Some("LOOK"));
/// ```
pub fn parse_client<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Client)
}

/// `parsePath`: one target decomposed (§path-syntax) — `None` for an empty path — or an
/// [`Error`] of kind [`ErrorKind::InvalidPath`] whose message is the parser's refusal.
///
/// ```
/// use plurnk_parser::{parse_path, ErrorKind, Target};
///
/// let url = parse_path("https://example.com/a?q=1").unwrap().unwrap();
/// assert_eq!((url.scheme(), url.raw()), (Some("https"), "https://example.com/a?q=1"));
/// assert!(matches!(parse_path("src/a.rs#tests"), Ok(Some(Target::Local { .. }))));
/// assert_eq!(parse_path("").unwrap(), None);
/// assert_eq!(parse_path("http://exa mple.com").unwrap_err().kind(), ErrorKind::InvalidPath);
/// ```
pub fn parse_path(raw: &str) -> Result<Option<Target<'_>>, Error> {
    target::parse_path(raw)
}

/// Any of the three document tiers, chosen by `entry`: [`parse`], [`parse_statements`] or
/// [`parse_client`].
///
/// ```
/// use plurnk_parser::{run, Entry, ParseOptions};
///
/// let turn = "```READ (a.md)\n```";
/// for entry in [Entry::Parse, Entry::Statements, Entry::Client] {
///     assert_eq!(run(turn, &ParseOptions::default(), entry).statements().count(), 1);
/// }
/// ```
pub fn run<'a>(input: &'a str, options: &ParseOptions, entry: Entry) -> ParseResult<'a> {
    turn::run(input, options, entry)
}

/// The README's Rust examples run as doctests (the other ecosystems' examples are run from the
/// README by `tests/readme.rs` and the bindings' tests).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
