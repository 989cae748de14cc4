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

// The pipeline stages, named from the spec: scan (lines and their classes), pair (§fence-pairing:
// where every block ends), heading (a heading line's statements and slots), statement (statements
// under the operation table), diagnose (messages from `rules/diagnostics.yaml`). None of them is
// API; `__private` below lends what the tests, benches, fuzz targets and bindings need.
mod ast;
mod diagnose;
mod entry;
mod error;
mod ffi;
mod heading;
mod matcher;
mod native;
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

use std::sync::Arc;

pub use ast::{
    Body, Diagnostic, Head, Item, LineMarker, Mark, Matcher, ParseResult, Position, Selection, Severity, Statement, Target, TextItem,
    UnparsedTail, UrlTarget,
};
pub use entry::{operation_attempt, parse_reasoning, Attempt, AttemptKind};
pub use error::{Error, ErrorKind};
pub use rules::model::{Shape, Source};
pub use rules::Rules;
pub use stream::StreamParser;

use pair::{PKind, PLine};
use rules::DiagId;
use scan::{Class, Classifier, Info, Named, Registry};

/// The document tier a call parses (§tier-entrypoints), for [`run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Entry {
    /// One model turn, with response text and the no-operation diagnostic (§turn-shape): [`parse`].
    Parse,
    /// Zero or more protocol statements: [`parse_statements`].
    Statements,
    /// Executable blocks including the client-tier LOOK: [`parse_client`].
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

    /// These options with each diagnostic's stable id ([`Diagnostic::id`]) written into its
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
    if raw.is_empty() {
        return Ok(None);
    }
    target::parse(raw).map(Some).map_err(|_| Error::new(ErrorKind::InvalidPath, Rules::builtin().text(DiagId::InvalidUri, &[])))
}

thread_local! {
    /// Set while [`general_path_only`] runs: this thread's parses take no short-cut.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread's parses may take the short-cuts (see [`general_path_only`]).
#[inline]
pub(crate) fn shortcuts() -> bool {
    !GENERAL_ONLY.with(|g| g.get())
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
    let mut result = run_tier(input, options, entry);
    if options.diagnostic_ids {
        result.show_diagnostic_ids();
    }
    result
}

/// [`run`] without the diagnostic-id switch.
fn run_tier<'a>(input: &'a str, options: &ParseOptions, entry: Entry) -> ParseResult<'a> {
    let rules = options.rules();
    let registry = Registry::new(rules, options.executors.as_deref());
    let mut result = run_once(input, rules, &registry, entry);
    let has_statement = |r: &ParseResult| r.items.iter().any(|i| matches!(i, Item::Statement(_)));
    if !has_statement(&result) && result.unparsed_tail.is_none() {
        // §native-tool-calls: only an emission that yields no operation is read.
        let reading = native::read_then(input, rules, &registry, |text, copies| {
            let again = run_once(text, rules, &registry, entry);
            has_statement(&again).then(|| source_texts(input, text, copies, again))
        });
        match reading {
            Ok(again) => return again,
            Err(Some(receipt)) => push_receipt(input, rules, &mut result, receipt),
            Err(None) => {}
        }
    } else if entry == Entry::Parse {
        // §native-tool-call-receipt: the first native block left in outside text beside real
        // operations still draws its receipt; the emission is never rewritten.
        let base = input.as_ptr() as usize;
        // The spans are read as the items stand (no vector of them is built).
        let spans = result.items.iter().filter_map(|i| match i {
            Item::Text(TextItem { content: std::borrow::Cow::Borrowed(c), .. }) => {
                let at = (c.as_ptr() as usize).checked_sub(base)?;
                (at + c.len() <= input.len()).then_some((at, at + c.len()))
            }
            _ => None,
        });
        if let Some(receipt) = native::receipt_in(input, spans, rules, &registry) {
            push_receipt(input, rules, &mut result, receipt);
        }
    }
    if entry == Entry::Parse && result.unparsed_tail.is_none() && !has_statement(&result) {
        let at = result
            .items
            .iter()
            .find_map(|i| match i {
                Item::Error(e) if e.severity == Severity::Error => Some(Position { line: e.line, column: e.column }),
                _ => None,
            })
            .unwrap_or(Position { line: 1, column: 0 });
        result.items.push(Item::Error(diagnose::make(rules, DiagId::NoOperation, at, &[], None)));
    }
    result
}

/// One pass of the pipeline over `input` (no native reading, no turn-shape diagnostic).
/// The scratch vectors of one parse, kept per thread so the hot path allocates nothing; each
/// use clears what it reads, so no result depends on an earlier parse.
#[derive(Default)]
struct Workspace {
    /// Every line. Classes are not stored: a line is classified as it is read, and again on the
    /// rare later question (a diagnostic naming an unfenced or unknown tag), which is cheaper than
    /// holding a class per line of a 100 MB turn.
    lines: Vec<scan::Line>,
    /// The fence lines handed to the pairing search (§pairing-algorithm).
    plines: Vec<PLine>,
    /// Unknown tags with slots written as inline code (§interstitial-fence).
    inline_unknown: Vec<u32>,
    /// Heading splits from the scan, handed to the builder.
    heads: heading::SegmentCache,
    pair: pair::Buffers,
    regions: pair::regions::Regions,
    rb: Vec<pair::regions::Rb>,
    covered: Vec<(usize, usize)>,
    build_scratch: statement::Scratch,
    /// The operation blocks of a clean turn and its unknown tags with slots (`turn::clean`).
    clean: Vec<turn::clean::Unit>,
    clean_tags: Vec<(u32, scan::Fence)>,
}

thread_local! {
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::new(Workspace::default());
}

/// Runs `f` with this thread's workspace (a fresh one if it is already in use).
fn with_workspace<R>(f: impl FnOnce(&mut Workspace) -> R) -> R {
    WORKSPACE.with(|w| match w.try_borrow_mut() {
        Ok(mut ws) => {
            let r = f(&mut ws);
            ws.release_if_huge();
            r
        }
        Err(_) => f(&mut Workspace::default()),
    })
}

impl Workspace {
    /// Lines past which a kept workspace is given back: one huge turn must not pin its tables
    /// for the rest of a long-lived process (`--jsonl`, the bindings).
    const KEEP_LINES: usize = 1 << 16;

    fn release_if_huge(&mut self) {
        if self.lines.capacity() > Self::KEEP_LINES
            || self.plines.capacity() > Self::KEEP_LINES
            || self.heads.held() > Self::KEEP_LINES / 16
        {
            *self = Workspace::default();
        }
    }
}

/// Classifies the lines of `input` (already split into `ws.lines`) into the pairing lines.
fn scan_input(input: &str, rules: &Rules, cls: &Classifier, ws: &mut Workspace) {
    let Workspace { lines, plines, inline_unknown, heads, .. } = ws;
    plines.clear();
    inline_unknown.clear();
    heads.clear();
    let lines: &[scan::Line] = lines;
    let text_of = |i: usize| &input[lines[i].start..lines[i].end];
    let class_of = |i: usize| cls.classify(text_of(i));
    // A bare fence asks for its neighbours' classes (§forgotten-tag, the orphan check); each
    // line is still classified once (a class depends on the line's text alone). The line after
    // it is classified for it and kept for its own turn; whether the line before was text is
    // read from the last line that was not, so a text line pays nothing for either.
    let mut ahead: (usize, Class) = (usize::MAX, Class::Text);
    let mut last_marked = usize::MAX;
    // The last line that is a fence line carrying a fence run that closes nothing open under it:
    // a heading whose statements all close on it, or inline code naming an unknown tag.
    let mut last_inline = usize::MAX;
    // Classify every line; only fence-ish lines reach the pairing search.
    let bytes = input.as_bytes();
    for (i, l) in lines.iter().enumerate() {
        // A line whose first byte cannot start a fence, a naked or an unfenced operation is
        // text (§response-text): it is decided on that byte, with no slice of the line.
        if l.start == l.end || !cls.may_matter(bytes[l.start]) {
            continue;
        }
        let c = if ahead.0 == i { ahead.1 } else { cls.classify_slow(text_of(i), bytes[l.start]) };
        let line = i as u32;
        match c {
            Class::Text => {}
            Class::Fence(f) => {
                let before_marked = std::mem::replace(&mut last_marked, i);
                if f.inline {
                    last_inline = i;
                    inline_unknown.push(line);
                    continue;
                }
                if let Info::Chain(named) = f.info {
                    // A closer, then the next opener on the same line (§inline-chain).
                    plines.push(PLine { line, at: f.indent, ch: f.ch, width: f.width, kind: PKind::Bare, forgotten: None, orphan: false });
                    let last = heads.split_named(cls, line, text_of(i), f.info_at, f.chain_width, Some(named)).last();
                    let compact = last.map(|s| s.closed).unwrap_or(false);
                    let open_width = last.map(|s| s.width).unwrap_or(f.chain_width);
                    if compact {
                        last_inline = i;
                    }
                    plines.push(PLine {
                        line,
                        at: u32::try_from(f.info_at).unwrap_or(u32::MAX),
                        ch: b'`',
                        width: f.chain_width,
                        kind: PKind::Heading { named, compact, open_width },
                        forgotten: None,
                        orphan: false,
                    });
                    continue;
                }
                let kind = match f.info {
                    Info::Bare => PKind::Bare,
                    Info::Aside => PKind::Aside,
                    Info::Label => PKind::Label,
                    Info::Chain(_) => unreachable!("handled above"),
                    Info::Heading(named) => {
                        let last = heads.split_named(cls, line, text_of(i), f.indent as usize, f.width, Some(named)).last();
                        let compact = last.map(|s| s.closed).unwrap_or(false);
                        let open_width = last.map(|s| s.width).unwrap_or(f.width);
                        if compact {
                            last_inline = i;
                        }
                        PKind::Heading { named, compact, open_width }
                    }
                };
                let mut forgotten = None;
                let mut orphan = false;
                if kind == PKind::Bare {
                    if i + 1 < lines.len() {
                        let next = class_of(i + 1);
                        ahead = (i + 1, next);
                        forgotten = forgotten_tag(cls, text_of(i + 1), &next);
                    }
                    // §forgotten-tag "draws nothing": a bare fence directly under a line carrying a
                    // fence run is an orphaned closer and quotes nothing: under prose with inline
                    // code, or under a heading line whose statements all close on it (`READ (x)`
                    // between fences on one line is inline code, its closer an orphan's).
                    if i > 0 && (last_inline == i - 1 || before_marked != i - 1 && scan::has_fence_run(text_of(i - 1), rules.fence_min())) {
                        orphan = true;
                    }
                }
                plines.push(PLine { line, at: f.indent, ch: f.ch, width: f.width, kind, forgotten, orphan });
            }
            Class::Naked(op) => {
                last_marked = i;
                let plain = text_of(i).trim_end() == rules.op(op).name;
                plines.push(PLine { line, at: 0, ch: b'`', width: 0, kind: PKind::Naked { op, plain }, forgotten: None, orphan: false });
            }
            Class::Unfenced(_) => {
                last_marked = i;
                plines.push(PLine { line, at: 0, ch: 0, width: 0, kind: PKind::Unfenced, forgotten: None, orphan: false });
            }
        }
    }
    // A huge turn's fence lines outlive the whole pass: give back the growth slack (large blocks
    // shrink in place), so peak memory follows the fence count, not the next power of two.
    if plines.capacity() * std::mem::size_of::<PLine>() > 1 << 22 && plines.capacity() > plines.len() + plines.len() / 8 {
        plines.shrink_to_fit();
    }
}

fn run_once<'a>(input: &'a str, rules: &Rules, registry: &Registry, entry: Entry) -> ParseResult<'a> {
    with_workspace(|ws| run_in(input, rules, registry, entry, ws))
}

/// §fence-pairing: a clean turn read in one pass (built-in rule set, short-cuts on; see
/// `turn::clean`), its lines already in `ws.lines`; `None` sends it to the general path.
#[inline]
fn read_clean<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    if std::ptr::eq(rules, Rules::builtin()) && shortcuts() {
        let read = turn::clean::read(input, rules, cls, entry, ws);
        if read.is_some() {
            work::took(work::Shortcut::CleanTurn);
        }
        read
    } else {
        None
    }
}

fn run_in<'a>(input: &'a str, rules: &Rules, registry: &Registry, entry: Entry, ws: &mut Workspace) -> ParseResult<'a> {
    let cls = Classifier::new(rules, registry);
    scan::lines_into(input, &mut ws.lines);
    if let Some(result) = read_clean(input, rules, &cls, entry, ws) {
        return result;
    }
    scan_input(input, rules, &cls, ws);
    pair::pair_into(rules, &rules.facts, &ws.plines, &mut ws.pair);
    let Workspace { lines, plines, inline_unknown, pair: pair_bufs, regions, rb, covered, build_scratch, heads, .. } = ws;
    let lines: &[scan::Line] = lines;
    let class_at = |l: u32| cls.classify(&input[lines[l as usize].start..lines[l as usize].end]);
    let text_of = |i: usize| &input[lines[i].start..lines[i].end];
    // A tag of digits alone names no language: its block is unlabeled for the shown-not-run
    // advisory (§quotation).
    let digits_label = |l: u32| {
        let t = text_of(l as usize).trim_start_matches(' ');
        let t = t.trim_start_matches(['`', '~']).trim();
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
    };
    pair::regions::replay_into(plines, &pair_bufs.committed, digits_label, regions, rb);
    let regions: &pair::regions::Regions = regions;

    let ctx = statement::Ctx::new(input, lines, rules, &cls, entry, build_scratch, heads);
    let mut out = statement::Out::default();
    // One statement per region and about one text item between two: grown once, not doubled.
    out.items.reserve(2 * regions.ops.len() + regions.shown.len() + 1);
    covered.clear();
    covered.reserve(regions.ops.len());
    for r in &regions.ops {
        let keep_going = statement::build_region(&ctx, r, &mut out);
        covered.push(coverage(&ctx, r));
        if !keep_going {
            break;
        }
    }
    for s in &regions.shown {
        let name = match s.named {
            Named::Op(i) => rules.op(i).name.clone(),
            Named::Exec(e) => registry.names[e].clone(),
        };
        out.items.push(Item::Error(diagnose::make(rules, DiagId::ShownNotRun, ctx.pos(s.line, s.at), &[("op", &name)], None)));
    }
    for &l in &regions.unfenced {
        let name = match class_at(l) {
            Class::Unfenced(Named::Op(i)) => rules.op(i).name.clone(),
            Class::Unfenced(Named::Exec(e)) => registry.names[e].clone(),
            _ => continue,
        };
        out.items.push(Item::Error(diagnose::make(rules, DiagId::UnfencedOperation, ctx.pos(l, 0), &[("op", &name)], None)));
        let ln = lines[l as usize];
        covered.push((ln.start, ln.next));
    }
    for &l in &regions.unknown_tags {
        if let Class::Fence(f) = class_at(l) {
            if f.slotted {
                out.items.push(unknown_tag(&ctx, l, &f));
            }
        }
    }
    // An unknown tag with slots written as inline code is named where it stands outside every
    // operation (§interstitial-fence).
    let mut op_spans: Vec<(usize, usize)> = Vec::new();
    if !inline_unknown.is_empty() {
        op_spans.extend(covered.iter().take(regions.ops.len()).copied());
        op_spans.sort_unstable();
        // Each end becomes the furthest end so far: "some span holds the line" is then one lookup.
        for k in 1..op_spans.len() {
            op_spans[k].1 = op_spans[k].1.max(op_spans[k - 1].1);
        }
    }
    for &l in inline_unknown.iter() {
        let ln = lines[l as usize];
        let k = op_spans.partition_point(|&(s, _)| s <= ln.start);
        let inside = k > 0 && ln.start < op_spans[k - 1].1;
        if let (false, Class::Fence(f)) = (inside, class_at(l)) {
            out.items.push(unknown_tag(&ctx, l, &f));
        }
    }
    if entry == Entry::Parse {
        text_items(&ctx, covered, &mut out.items);
    }

    let mut items = out.items;
    // Mostly in order already (statements, their notes, text between): a check, not a sort.
    // (`is_sorted_by_key` is newer than the crate's rust-version, 1.80.)
    if !items.windows(2).all(|w| item_position(&w[0]) <= item_position(&w[1])) {
        items.sort_by_key(item_position);
    }
    if let Some(t) = &out.tail {
        items.retain(|i| item_position(i) < t.from);
    }
    ParseResult { items, unparsed_tail: out.tail }
}

/// §interstitial-fence: an unknown tag with slots, fence `f` on `line`, is named where it
/// stands (the block it opens quotes; the tag runs nothing).
fn unknown_tag<'a>(ctx: &statement::Ctx<'a, '_>, line: u32, f: &scan::Fence) -> Item<'a> {
    let t = ctx.line_text(line);
    let end = ctx.cls.name_end(t.as_bytes(), f.info_at);
    Item::Error(diagnose::make(ctx.rules, DiagId::NotAnOperation, ctx.pos(line, f.indent as usize), &[("name", &t[f.info_at..end])], None))
}

/// A result read from a native rewrite (`text`, whose `copies` are the input's bytes) as a result
/// of `input`: statements and diagnostics detached from the rewrite, and each text item the
/// input's own text it was copied from, at its position in the input (§response-text): the
/// lines the rewrite wrote in place of the markup are no response text.
fn source_texts<'a>(input: &'a str, text: &str, copies: &[native::SourceCopy], result: ParseResult<'_>) -> ParseResult<'a> {
    let base = text.as_ptr() as usize;
    // Positions are counted forward from the last one asked for (items come in order), the
    // column too: the text items of one long line (§one-line-turn) cross it once, not once each.
    // (byte, line, column)
    let mut cursor = (0usize, 1u32, 0u32);
    let mut position_of = |at: usize| {
        if at < cursor.0 {
            cursor = (0, 1, 0);
        }
        let step = &input.as_bytes()[cursor.0..at];
        work::add(work::Stage::Columns, step.len());
        cursor.2 = match memchr::memrchr(b'\n', step) {
            Some(i) => {
                cursor.1 += memchr::memchr_iter(b'\n', step).count() as u32;
                scan::columns(&input[cursor.0 + i + 1..at])
            }
            None => cursor.2 + scan::columns(&input[cursor.0..at]),
        };
        cursor.0 = at;
        Position { line: cursor.1, column: cursor.2 }
    };
    let mut items = Vec::with_capacity(result.items.len());
    for item in result.items {
        let t = match item {
            Item::Text(t) => t,
            Item::Statement(s) => {
                items.push(Item::Statement(s.into_owned()));
                continue;
            }
            Item::Error(e) => {
                items.push(Item::Error(e));
                continue;
            }
        };
        let from = (t.content.as_ptr() as usize).wrapping_sub(base);
        let to = from + t.content.len();
        if from > text.len() || to > text.len() {
            continue;
        }
        for c in copies.iter().filter(|c| c.out < to && from < c.out + c.len) {
            let s = c.src + (from.max(c.out) - c.out);
            let e = c.src + (to.min(c.out + c.len) - c.out);
            let content = &input[s..e];
            if !scan::blank(content) {
                items.push(Item::Text(TextItem { content: std::borrow::Cow::Borrowed(content), position: position_of(s) }));
            }
        }
    }
    ParseResult { items, unparsed_tail: result.unparsed_tail }
}

/// Adds a native receipt (§native-tool-call-receipt) as a warning item.
fn push_receipt(input: &str, rules: &Rules, result: &mut ParseResult<'_>, receipt: native::Receipt) {
    let l = scan::line_at(input, receipt.line as usize).unwrap_or(scan::Line { start: 0, end: 0, next: 0 });
    let t = &input[l.start..l.end];
    let at = Position { line: receipt.line + 1, column: scan::columns(&t[..receipt.at.min(t.len())]) };
    let d = rules.diag(receipt.id);
    result.items.push(Item::Error(Diagnostic {
        line: at.line,
        column: at.column,
        source: d.source,
        severity: Severity::Warning,
        message: receipt.message,
        recovery: None,
        operation_omitted: true,
        attempt: None,
        id: receipt.id,
        show_id: false,
    }));
    result.items.sort_by_key(item_position);
}

fn item_position(i: &Item) -> Position {
    match i {
        Item::Statement(s) => s.position,
        Item::Error(e) => Position { line: e.line, column: e.column },
        Item::Text(t) => t.position,
    }
}

/// §forgotten-tag: the line under a bare fence is an operation heading written without its
/// fence — a native name alone or with a slot, or an executor's name with its operand.
fn forgotten_tag(cls: &Classifier, next: &str, class: &Class) -> Option<Named> {
    match *class {
        Class::Naked(op) => Some(Named::Op(op)),
        Class::Unfenced(named) => {
            let b = next.as_bytes();
            let end = cls.name_end(b, 0);
            let rest = next[end..].trim_start_matches([' ', '\t']);
            let slot = rest.starts_with('(') || rest.starts_with('<') || rest.starts_with('[');
            match named {
                Named::Op(_) if slot => Some(named),
                Named::Exec(_) if rest.starts_with('(') => Some(named),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The byte span an operation region takes out of the response text.
fn coverage(ctx: &statement::Ctx<'_, '_>, r: &pair::regions::OpRegion) -> (usize, usize) {
    use pair::regions::End;
    let lines = ctx.lines;
    let start = lines[r.start_line as usize].start;
    let end = match r.end {
        End::Eof => ctx.input.len(),
        End::Heading { line } => lines[line as usize].start,
        End::Name { line } => lines[line as usize].end,
        End::Closer { line, width } => {
            let ln = lines[line as usize];
            let t = &ctx.input[ln.start..ln.end];
            let indent = t.len() - t.trim_start_matches(' ').len();
            let mut e = indent + width as usize;
            let b = t.as_bytes();
            while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                e += 1;
            }
            ln.start + e
        }
        End::Compact => {
            let ln = lines[r.head_line as usize];
            let t = &ctx.input[ln.start..ln.end];
            let b = t.as_bytes();
            // After the line's last closer when only whitespace follows it.
            let mut e = t.trim_end().len();
            let mut k = e;
            while k > 0 && b[k - 1] == b'`' {
                k -= 1;
            }
            if k < e {
                let mut j = e;
                while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                e = j;
            } else {
                e = t.len();
            }
            ln.start + e
        }
    };
    (start, end.max(start))
}

/// §response-text: each non-whitespace span outside operation regions, exactly as written.
fn text_items<'a>(ctx: &statement::Ctx<'a, '_>, covered: &mut [(usize, usize)], items: &mut Vec<Item<'a>>) {
    covered.sort();
    let mut at = 0;
    let push = |s: usize, e: usize, items: &mut Vec<Item<'a>>| {
        if e > s {
            let content = &ctx.input[s..e];
            if !scan::blank(content) {
                let line = match ctx.lines.binary_search_by(|l| l.start.cmp(&s)) {
                    Ok(i) => i,
                    Err(i) => i - 1,
                } as u32;
                let col = s - ctx.lines[line as usize].start;
                items.push(Item::Text(TextItem { content: std::borrow::Cow::Borrowed(content), position: ctx.pos(line, col) }));
            }
        }
    };
    for &(s, e) in covered.iter() {
        if s > at {
            push(at, s, items);
        }
        at = at.max(e);
    }
    push(at, ctx.input.len(), items);
}

/// Not API: what the crate's own tests, benchmarks, fuzz targets, CLI and bindings need of the
/// pipeline's internals. Nothing here is covered by semver; it may change in any release.
#[doc(hidden)]
pub mod __private {
    use super::*;

    pub use crate::entry::{call_json, guarded, message, options_from_json, ENTRIES};

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
        use crate::{LineMarker, Target};
        /// A scope as written in its slot.
        pub fn scope_text(lm: &LineMarker) -> String {
            crate::render::scope_text(lm)
        }
        /// A target as written in its slot.
        pub fn target_text(t: &Target) -> String {
            crate::render::target_text(t)
        }
    }
    /// The rule set's compiled tables and typed diagnostic ids.
    pub mod rules {
        pub use crate::rules::model::{NativeForm, Tier};
        pub use crate::rules::DiagId;
        use crate::Rules;

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
        /// Restores the switch, also when `f` panics.
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                GENERAL_ONLY.with(|g| g.set(self.0));
            }
        }
        let _restore = Restore(GENERAL_ONLY.with(|g| g.replace(true)));
        f()
    }

    /// The way `parse` reads a turn (see [`reading_path`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ReadingPath {
        /// The clean-turn reader took it in one pass (§fence-pairing, `turn::clean`).
        OnePass,
        /// The general path: pairing search, region replay, text cover.
        General,
        /// Its operations are native tool-call markup, rewritten and read again (§native-tool-calls).
        Native,
    }

    /// Which path `parse` reads `input` by. For the benchmarks, which time each path's turns alone
    /// and mixed: turns taking different paths share the instruction cache, so a path's speed
    /// depends on which others ran before it. It parses the turn up to three times over, so it is
    /// a measuring aid, not something to call per turn.
    pub fn reading_path(input: &str, options: &ParseOptions) -> ReadingPath {
        let rules = options.rules();
        let registry = Registry::new(rules, options.executors.as_deref());
        if run_once(input, rules, &registry, Entry::Parse).statements().next().is_none()
            && parse(input, options).statements().next().is_some()
        {
            return ReadingPath::Native;
        }
        let one_pass = with_workspace(|ws| {
            let cls = Classifier::new(rules, &registry);
            crate::scan::lines_into(input, &mut ws.lines);
            read_clean(input, rules, &cls, Entry::Parse, ws).is_some()
        });
        if one_pass {
            ReadingPath::OnePass
        } else {
            ReadingPath::General
        }
    }

    /// What the pairing search held at its widest on `input` (its bounds, observed).
    pub fn pairing_stats(input: &str, options: &ParseOptions) -> crate::pair::Stats {
        let rules = options.rules();
        let registry = Registry::new(rules, options.executors.as_deref());
        let cls = Classifier::new(rules, &registry);
        let mut ws = Workspace::default();
        crate::scan::lines_into(input, &mut ws.lines);
        scan_input(input, rules, &cls, &mut ws);
        crate::pair::pair_with_stats(rules, &rules.facts, &ws.plines).1
    }
}

// The unit tests compare the short-cuts with the general path.
#[cfg(test)]
use __private::general_path_only;

/// The README's Rust examples run as doctests (the other ecosystems' examples are run from the
/// README by `tests/readme.rs` and the bindings' tests).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
