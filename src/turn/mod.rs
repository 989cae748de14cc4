//! One turn (§turn-shape): the pairing pass, the statement pass, the native second pass, the
//! response text and what the operations cover of it, and the order of the items.
//!
//! A turn is read by one of two paths over the same workspace and the same statement builder:
//! [`clean`], the one-pass reader of a clean turn (its fast path), and [`general`], the pairing
//! search, the region replay and the text cover, which reads every turn. A turn whose reading
//! yields no operation is read once more from its native tool-call markup, rewritten
//! (§native-tool-calls); a turn that still has none draws the turn-shape diagnostic.

use crate::ast::{Diagnostic, Item, ParseResult, Position, Severity, TextItem};
use crate::options::{Entry, ParseOptions};
use crate::pair::PLine;
use crate::rules::{DiagId, Rules};
use crate::scan::{self, Classifier, Registry};
use crate::{diagnose, heading, native, pair, statement, work};

mod clean;
mod general;

/// The result of one call (§tier-entrypoints): the turn read at `entry`'s tier, with each
/// diagnostic's stable id shown when the options ask for it. The face's `run`.
pub(crate) fn run<'a>(input: &'a str, options: &ParseOptions, entry: Entry) -> ParseResult<'a> {
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

/// The scratch vectors of one parse, kept per thread so the hot path allocates nothing; each
/// use clears what it reads, so no result depends on an earlier parse.
#[derive(Default)]
pub(crate) struct Workspace {
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
    /// The operation blocks of a clean turn and its unknown tags with slots ([`clean`]).
    clean: Vec<clean::Unit>,
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

/// One pass of the pipeline over `input` (no native reading, no turn-shape diagnostic).
fn run_once<'a>(input: &'a str, rules: &Rules, registry: &Registry, entry: Entry) -> ParseResult<'a> {
    with_workspace(|ws| run_in(input, rules, registry, entry, ws))
}

/// §fence-pairing: a clean turn read in one pass (built-in rule set, short-cuts on; see
/// [`clean`]), its lines already in `ws.lines`; `None` sends it to the general path.
#[inline]
fn read_clean<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    if std::ptr::eq(rules, Rules::builtin()) && work::shortcuts() {
        let read = clean::read(input, rules, cls, entry, ws);
        if read.is_some() {
            work::took(work::Shortcut::CleanTurn);
        }
        read
    } else {
        None
    }
}

/// One pass over `input` in workspace `ws`: the one-pass reader when it takes the turn, else the
/// general path.
fn run_in<'a>(input: &'a str, rules: &Rules, registry: &Registry, entry: Entry, ws: &mut Workspace) -> ParseResult<'a> {
    let cls = Classifier::new(rules, registry);
    scan::lines_into(input, &mut ws.lines);
    if let Some(result) = read_clean(input, rules, &cls, entry, ws) {
        return result;
    }
    general::read(input, rules, &cls, registry, entry, ws)
}

/// §interstitial-fence: an unknown tag with slots, fence `f` on `line`, is named where it
/// stands (the block it opens quotes; the tag runs nothing).
pub(super) fn unknown_tag<'a>(ctx: &statement::Ctx<'a, '_>, line: u32, f: &scan::Fence) -> Item<'a> {
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
    let l = scan::line_at(input, receipt.line as usize).unwrap_or(scan::Line { start: 0, end: 0 });
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

pub(super) fn item_position(i: &Item) -> Position {
    match i {
        Item::Statement(s) => s.position,
        Item::Error(e) => Position { line: e.line, column: e.column },
        Item::Text(t) => t.position,
    }
}

/// The way `parse` reads a turn (see [`reading_path`]).
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
        && run(input, options, Entry::Parse).statements().next().is_some()
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
    general::scan_input(input, rules, &cls, &mut ws);
    crate::pair::pair_with_stats(rules, &rules.facts, &ws.plines).1
}
