//! A table-driven parser for PLURNK, the operation language LLM agents write (SPEC 6.0).
//!
//! One model turn goes through the pipeline stages, each its own module named from the spec:
//! [`scan`] (lines and their classes), [`pair`] (§fence-pairing: where every block ends),
//! [`heading`] (a heading line's statements and slots), [`build`] (statements under the
//! operation table), [`diagnose`] (messages from `rules/diagnostics.yaml`) and [`render`]
//! (canonical text). The rules the stages apply are data: `rules/*.yaml`, compiled by
//! `build.rs` ([`rules`]).
//!
//! ```
//! let result = plurnk_parser::parse("```READ (src/a.rs) <1,40>\n```", &Default::default());
//! assert_eq!(result.statements().count(), 1);
//! ```

pub mod ast;
pub mod build;
mod clean_turn;
pub mod diagnose;
pub mod heading;
pub mod matcher;
pub mod native;
pub mod pair;
pub mod render;
pub mod rules;
pub mod scan;
pub mod scope;
pub mod small;
pub mod target;
#[doc(hidden)]
pub mod work;
// The unit tests include the fuzz harness (`work`), which names the crate by its name.
#[cfg(test)]
extern crate self as plurnk_parser;

use std::sync::Arc;

pub use ast::*;
pub use rules::Rules;

use pair::{PKind, PLine};
use rules::model::Severity;
use rules::DiagId;
use scan::{Class, Classifier, Info, Named, Registry};

/// The document tier a call parses (§tier-entrypoints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// One model turn, with response text and the no-operation diagnostic (§turn-shape).
    Parse,
    /// Zero or more protocol statements.
    Statements,
    /// Executable blocks including the client-tier LOOK.
    Client,
}

/// Options of a parse.
#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    /// Registered executors; `None` means the rule set's default (`sh`).
    pub executors: Option<Vec<String>>,
    /// A rule set other than the built-in one (see `Rules::from_dir`).
    pub rules: Option<Arc<Rules>>,
}

impl ParseOptions {
    /// The rule set these options name: the caller's, else the built-in one.
    pub(crate) fn rules(&self) -> &Rules {
        match &self.rules {
            Some(r) => r,
            None => Rules::builtin(),
        }
    }

    pub fn with_executors<I: IntoIterator<Item = S>, S: Into<String>>(executors: I) -> ParseOptions {
        ParseOptions { executors: Some(executors.into_iter().map(Into::into).collect()), rules: None }
    }
}

/// `PlurnkParser.parse`: one model turn.
pub fn parse<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Parse)
}

/// `PlurnkParser.parseStatements`: protocol statements only; outside text is ignored.
pub fn parse_statements<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Statements)
}

/// `PlurnkParser.parseClient`: executable blocks including LOOK.
pub fn parse_client<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    run(input, options, Entry::Client)
}

/// `parsePath`: one target decomposed (§path-syntax) — `None` for an empty path — or the
/// refusal's message.
pub fn parse_path(raw: &str) -> Result<Option<Target<'_>>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    target::parse(raw).map(Some).map_err(|_| Rules::builtin().text(DiagId::InvalidUri, &[]))
}

thread_local! {
    /// Set while [`general_path_only`] runs: this thread's parses take no short-cut.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with this thread's parses on the general path alone: no clean-turn reader, no
/// clean pairing, no plain-heading builder. Each short-cut gives what the general path gives,
/// only sooner; the properties that hold them to it (tests, the fuzz harness) compare the two.
#[doc(hidden)]
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

/// Whether this thread's parses may take the short-cuts (see [`general_path_only`]).
#[inline]
pub(crate) fn shortcuts() -> bool {
    !GENERAL_ONLY.with(|g| g.get())
}

/// Any entry, by tier.
pub fn run<'a>(input: &'a str, options: &ParseOptions, entry: Entry) -> ParseResult<'a> {
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
    build_scratch: build::Scratch,
    /// The operation blocks of a clean turn and its unknown tags with slots (`clean_turn`).
    clean: Vec<clean_turn::Unit>,
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

/// The way `parse` reads a turn (see [`reading_path`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadingPath {
    /// The clean-turn reader took it in one pass (§fence-pairing, `clean_turn`).
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
#[doc(hidden)]
pub fn reading_path(input: &str, options: &ParseOptions) -> ReadingPath {
    let rules = options.rules();
    let registry = Registry::new(rules, options.executors.as_deref());
    if run_once(input, rules, &registry, Entry::Parse).statements().next().is_none() && parse(input, options).statements().next().is_some()
    {
        return ReadingPath::Native;
    }
    let one_pass = with_workspace(|ws| {
        let cls = Classifier::new(rules, &registry);
        scan::lines_into(input, &mut ws.lines);
        read_clean(input, rules, &cls, Entry::Parse, ws).is_some()
    });
    if one_pass {
        ReadingPath::OnePass
    } else {
        ReadingPath::General
    }
}

/// What the pairing search held at its widest on `input` (its bounds, observed).
pub fn pairing_stats(input: &str, options: &ParseOptions) -> pair::Stats {
    let rules = options.rules();
    let registry = Registry::new(rules, options.executors.as_deref());
    let cls = Classifier::new(rules, &registry);
    let mut ws = Workspace::default();
    scan::lines_into(input, &mut ws.lines);
    scan_input(input, rules, &cls, &mut ws);
    pair::pair_with_stats(rules, &rules.facts, &ws.plines).1
}

fn run_once<'a>(input: &'a str, rules: &Rules, registry: &Registry, entry: Entry) -> ParseResult<'a> {
    with_workspace(|ws| run_in(input, rules, registry, entry, ws))
}

/// §fence-pairing: a clean turn read in one pass (built-in rule set, short-cuts on; see
/// `clean_turn`), its lines already in `ws.lines`; `None` sends it to the general path.
#[inline]
fn read_clean<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    if std::ptr::eq(rules, Rules::builtin()) && shortcuts() {
        let read = clean_turn::read(input, rules, cls, entry, ws);
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

    let ctx = build::Ctx::new(input, lines, rules, &cls, entry, build_scratch, heads);
    let mut out = build::Out::default();
    // One statement per region and about one text item between two: grown once, not doubled.
    out.items.reserve(2 * regions.ops.len() + regions.shown.len() + 1);
    covered.clear();
    covered.reserve(regions.ops.len());
    for r in &regions.ops {
        let keep_going = build::build_region(&ctx, r, &mut out);
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
fn unknown_tag<'a>(ctx: &build::Ctx<'a, '_>, line: u32, f: &scan::Fence) -> Item<'a> {
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
    let d = rules.diag(DiagId::NotAnOperation);
    result.items.push(Item::Error(ParseError {
        line: at.line,
        column: at.column,
        source: d.source,
        severity: Severity::Warning,
        message: receipt.message,
        recovery: None,
        operation_omitted: true,
        attempt: None,
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
fn coverage(ctx: &build::Ctx<'_, '_>, r: &pair::regions::OpRegion) -> (usize, usize) {
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
fn text_items<'a>(ctx: &build::Ctx<'a, '_>, covered: &mut [(usize, usize)], items: &mut Vec<Item<'a>>) {
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

// ── Entry points beyond the tiers, rendering helpers, streaming and embedding ───────────────────
pub mod entry;
pub use entry::{operation_attempt, parse_reasoning, Attempt, AttemptKind};
pub mod stream;
pub use stream::StreamParser;
pub mod ffi;

/// The README's Rust examples run as doctests (the other ecosystems' examples are run from the
/// README by `tests/readme.rs` and the bindings' tests).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
