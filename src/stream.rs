//! Streaming: [`StreamParser`] reads a model turn as its chunks arrive.
//!
//! # What it gives
//!
//! After each chunk, three views of the turn so far, each with its own promise:
//!
//! - [`StreamParser::provisional`]: the operation blocks the author has closed (or a compact
//!   heading line, or a naked block ended by its name line or the next heading), each read by
//!   the ordinary parser. **Display only**: a later chunk can drop or re-read any of them.
//! - [`StreamParser::committed`]: the first provisional statements that **no continuation can
//!   change** — `finish()`'s statements begin with them, whatever follows. Sound, and narrow.
//! - [`StreamParser::visible`]: response text that **no continuation can take back** — a prefix
//!   (white space aside) of the final parse's response text, never showing a byte the final
//!   parse reads as markup: a fence line, heading, closer, aside, body, unfenced operation line
//!   or native tool-call markup it reads as calls (§response-text).
//!
//! At the end, [`StreamParser::finish`] returns exactly [`crate::parse`] of the whole text, for
//! every way the text was split into chunks — split points inside a multi-byte character and
//! inside a marker included. Dispatch from `finish()` (or from `committed()`); show the rest.
//!
//! # Why so little is final before the end
//!
//! Where a block ends is decided for the whole input at once by §fence-pairing: whether a bare
//! fence closes a block or opens a nested one "depends on every fence after it, unboundedly"
//! (§pairing-need), and at equal cost an operation body nests before it closes (§balanced-fences,
//! §pairing-objective). So every closer written on its own line can still become the opener of
//! a nested block, and every candidate rule for an early commitment has a continuation that
//! breaks it (each is a test in `tests/stream.rs`):
//!
//! | Candidate rule | Continuation that breaks it |
//! |---|---|
//! | A block closed by its closer, the reading repair-free with nothing open | two bare fences: the closer nests, the body grows (`pairing_need_a_block_closed_with_nothing_open_is_not_final`) |
//! | A block followed by a heading that ran at the top level | a wider bare fence and a closer: the block holds the heading, which no longer runs (`pairing_need_a_later_heading_settles_nothing`) |
//! | A compact heading after a quotation closed at its first valid closer | a bare fence and a naked name: the quotation's opener turns stray and its closer quotes the heading (`quotation_a_closed_quotation_settles_nothing_after_it`) |
//! | Text after a closed block | a code block: the text becomes the block's body (`pairing_need_text_after_a_block_can_become_its_body`) |
//!
//! What survives is the part of the turn before anything opens. A block opens only at a fence
//! line within three spaces of the line start (§indented-fences) or at a naked name
//! (§naked-operation), and the one-line form closes on its own line (§fence-closer). So while
//! every line so far is prose, an unfenced operation line (never text, §unfenced-operation) or a
//! compact heading, no reading of any continuation has a block open across those lines: they
//! read as they do alone. Their compact headings are committed — provided the line holds no
//! native markup and reads the same as a turn of its own (a turn that yields an operation reads
//! no native markup, §native-tool-calls) — and their prose is visible. Native markup before any
//! committed statement may be read as calls or, if an operation follows, stay text; so it, too,
//! ends the settled part (after a committed statement it is plain text). The first line that
//! may open anything ends it for good, and the rest of the turn arrives with `finish()`.
//!
//! Measured by streaming each corpus turn whole and reading the views before `finish()`: of the
//! recorded emissions, 3 of 396 statements commit before their turn ends, and 2,806 of 11,978
//! response-text characters (white space aside) are visible before it ends — all of it in 27 of
//! the 53 turns that have text (prose before the first operation). In the reference suite,
//! which is rich in one-line turns: 154 of 3,272 statements, 1,658 of 12,475 characters.
//!
//! # How
//!
//! Two readings, each linear in the input:
//!
//! - a **line-at-a-time reading**: each complete line is classified once (the parser's own line
//!   classifier) and moves a small state machine — top level, an operation body (with one
//!   nested literal block, §balanced-fences), a naked block, a quotation, a bare fence waiting
//!   on its next line (§forgotten-tag), native markup. When an operation block closes, its span
//!   — and only its span — is parsed once with [`crate::parse_statements`] and its statements
//!   are appended to the provisional list; a compact heading that commits is also parsed as a
//!   turn of its own, once. While the top level is still settled, each line either shows (text)
//!   or is skipped (an unfenced line), and the partial last line shows up to where it could
//!   still become a fence, a name line, a bare JSON line or native markup. A chunk therefore
//!   costs time proportional to its own length (tests/stream.rs counts it).
//! - the **exact reading**, once, at [`StreamParser::finish`]: the whole-input pairing pass and
//!   the builder over the text, linear in its length.

use crate::ast::*;
use crate::options::{Entry, ParseOptions};
use crate::rules::model::NativeForm;
use crate::rules::Rules;
use crate::scan::{self, Class, Classifier, Fence, Info, Named, Registry};
use crate::turn;

/// Where the provisional reading stands at the start of the next line.
#[derive(Debug, Clone)]
enum State {
    Top,
    /// An operation block opened on `start_line`; statements before `keep_from` on that line
    /// belong to the block before it (a closer chained to this opener, §inline-chain).
    Op {
        start: usize,
        start_line: u32,
        keep_from: Position,
        width: u32,
        prose: bool,
        nested: Option<(u8, u32)>,
    },
    /// A naked operation block (§naked-operation): ends at its name line or the next heading.
    Naked {
        start: usize,
        start_line: u32,
        name: String,
    },
    /// A quotation, to its first valid closer (§quotation).
    Quote {
        ch: u8,
        width: u32,
    },
    /// A top-level bare fence whose next line decides it: a forgotten tag opens an operation,
    /// anything else makes it a quotation (§forgotten-tag).
    Bare {
        start: usize,
        start_line: u32,
        ch: u8,
        width: u32,
    },
    /// Native tool-call markup: read (or not) by the exact parse.
    Native {
        ends: Vec<usize>,
    },
}

/// Native markup markers, lowercased: `(start, ends)` pairs compiled from the rule tables.
#[derive(Debug, Clone, Default)]
struct Markers {
    starts: Vec<(String, Vec<usize>)>,
    ends: Vec<String>,
    /// Bytes a start marker can begin with (ASCII-lowercased).
    first: Vec<bool>,
    /// A family reads a bare JSON value or Python list at a line start (no start marker).
    bare_lines: bool,
}

impl Markers {
    fn new(rules: &Rules) -> Markers {
        let mut m = Markers { first: vec![false; 256], ..Markers::default() };
        let add = |starts: Vec<String>, ends: Vec<String>, m: &mut Markers| {
            let ids: Vec<usize> = ends
                .into_iter()
                .map(|e| {
                    let e = e.to_ascii_lowercase();
                    match m.ends.iter().position(|x| *x == e) {
                        Some(i) => i,
                        None => {
                            m.ends.push(e);
                            m.ends.len() - 1
                        }
                    }
                })
                .collect();
            for s in starts {
                if !s.is_empty() {
                    m.starts.push((s.to_ascii_lowercase(), ids.clone()));
                }
            }
        };
        for fam in &rules.tables.native {
            for b in &fam.blocks {
                if b.start.is_empty() && matches!(b.forms.first(), Some(NativeForm::Json(_) | NativeForm::Pythonic(_))) {
                    m.bare_lines = true;
                }
                if !b.start.is_empty() {
                    add(b.start.clone(), b.end.clone(), &mut m);
                }
                // A block with no start that its `tags` form's call opens (§native-tool-calls).
                if let (true, Some(NativeForm::Tags(t))) = (b.start.is_empty(), b.forms.first()) {
                    let tags = |marks: &[String]| marks.iter().flat_map(|o| t.calls.iter().map(move |c| format!("{o}{c}"))).collect();
                    add(tags(&t.open), tags(&t.close), &mut m);
                }
                for f in &b.forms {
                    if let NativeForm::Elements(el) = f {
                        for p in &el.prefixes {
                            for name in el.sections.iter().chain(el.calls.iter()) {
                                add(vec![format!("<{p}{name}")], vec![format!("</{p}{name}"), "/>".to_string()], &mut m);
                            }
                        }
                    }
                }
            }
        }
        for (s, _) in &m.starts {
            let b = s.as_bytes()[0];
            m.first[b as usize] = true;
            m.first[b.to_ascii_uppercase() as usize] = true;
        }
        m
    }

    /// Where the first native marker on a line starts and the end markers it opens.
    fn opens(&self, lower: &str) -> Option<(usize, Vec<usize>)> {
        self.starts.iter().filter_map(|(s, e)| lower.find(s.as_str()).map(|at| (at, e.clone()))).min_by_key(|(at, _)| *at)
    }

    /// A line (or the start of one) that may be a bare call: a `{` or `[` first.
    fn bare(&self, line: &str) -> bool {
        self.bare_lines && line.trim_start_matches([' ', '\t']).starts_with(['{', '['])
    }

    fn closes(&self, lower: &str, ends: &[usize]) -> bool {
        ends.iter().any(|&e| lower.contains(self.ends[e].as_str()))
    }
}

/// An incremental reader of one model turn: provisional statements (display only) and the
/// visible response text after each chunk, and at [`StreamParser::finish`] exactly what
/// [`crate::parse`] gives for the whole turn.
///
/// ```
/// use plurnk_parser::{parse, ParseOptions, StreamParser};
///
/// let mut stream = StreamParser::new(ParseOptions::default());
/// for chunk in ["I will read it.\n```RE", "AD (src/a.rs) <1,40>\n```\n"] {
///     stream.feed_str(chunk); // or `feed(&[u8])`: a character may be split across chunks
///     let _show: String = stream.visible(); // never holds a fence still being written
/// }
/// let whole = parse("I will read it.\n```READ (src/a.rs) <1,40>\n```\n", &ParseOptions::default());
/// assert_eq!(stream.finish(), whole.into_owned());
/// ```
pub struct StreamParser {
    options: ParseOptions,
    markers: Markers,
    /// The decoded text so far.
    text: String,
    /// The bytes of a character split across chunks.
    pending: Vec<u8>,
    /// Where the first line not yet read starts, and its index.
    done: usize,
    line_no: u32,
    state: State,
    provisional: Vec<Statement<'static>>,
    /// How many of `provisional` (its first ones) are committed: no continuation changes them.
    committed: usize,
    /// No line yet that can open a block or begin native markup: every line so far is settled
    /// (text, an unfenced line, or a compact heading), so the preview shows text and compact
    /// headings commit. Cleared for good at the first line that opens anything.
    open: bool,
    visible: String,
    /// Where `visible` comes from: byte ranges of `text`, in order, adjacent ones merged.
    shown: Vec<(usize, usize)>,
    /// Where, in the partial line (from `done`), a native marker may begin: the partial line is
    /// shown only before it. Maintained over appended bytes only.
    partial_marker: Option<usize>,
    partial_scanned: usize,
    finished: bool,
    /// Bytes examined so far (decoded, classified, scanned for markers, parsed when a block
    /// closes): the measure `tests/stream.rs` holds to the length fed.
    examined: u64,
}

impl StreamParser {
    /// A stream parsed under `options`.
    pub fn new(options: ParseOptions) -> StreamParser {
        let markers = Markers::new(options.rules());
        StreamParser {
            options,
            markers,
            text: String::new(),
            pending: Vec::new(),
            done: 0,
            line_no: 0,
            state: State::Top,
            provisional: Vec::new(),
            committed: 0,
            open: true,
            visible: String::new(),
            shown: Vec::new(),
            partial_marker: None,
            partial_scanned: 0,
            finished: false,
            examined: 0,
        }
    }

    /// Feeds the next chunk of UTF-8 bytes; a character may be split across chunks. Invalid
    /// bytes decode as U+FFFD, exactly as a lossy decoding of the whole would.
    pub fn feed(&mut self, chunk: &[u8]) {
        assert!(!self.finished, "StreamParser::feed after finish");
        self.examined += chunk.len() as u64;
        let mut bytes: &[u8] = chunk;
        let joined;
        if !self.pending.is_empty() {
            let mut v = std::mem::take(&mut self.pending);
            v.extend_from_slice(chunk);
            joined = v;
            bytes = &joined;
        }
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => {
                    self.text.push_str(s);
                    break;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    self.text.push_str(std::str::from_utf8(&bytes[..good]).expect("valid prefix"));
                    match e.error_len() {
                        Some(n) => {
                            self.text.push('\u{FFFD}');
                            bytes = &bytes[good + n..];
                        }
                        None => {
                            self.pending = bytes[good..].to_vec();
                            break;
                        }
                    }
                }
            }
        }
        self.advance();
    }

    /// Feeds the next chunk of text.
    pub fn feed_str(&mut self, chunk: &str) {
        self.feed(chunk.as_bytes());
    }

    /// Reads every line completed since the last chunk.
    fn advance(&mut self) {
        let options = self.options.clone();
        let rules = options.rules();
        let registry = Registry::new(rules, options.executors.as_deref());
        let cls = Classifier::new(rules, &registry);
        while let Some(off) = memchr::memchr(b'\n', &self.text.as_bytes()[self.done..]) {
            let start = self.done;
            let nl = start + off;
            let end = if nl > start && self.text.as_bytes()[nl - 1] == b'\r' { nl - 1 } else { nl };
            self.done = nl + 1;
            self.examined += (nl + 1 - start) as u64;
            self.line(&cls, start, end, nl + 1);
            self.line_no += 1;
            self.partial_marker = None;
            self.partial_scanned = self.done;
        }
        if self.partial_marker.is_none() {
            let from = self.partial_scanned.max(self.done);
            let first = &self.markers.first;
            if let Some(k) = self.text.as_bytes()[from..].iter().position(|&b| first[b as usize]) {
                self.partial_marker = Some(from + k);
            }
        }
        self.examined += (self.text.len() - self.partial_scanned.min(self.text.len())) as u64;
        self.partial_scanned = self.text.len();
    }

    /// Bytes examined so far: each byte fed is decoded once, classified once with its line,
    /// scanned once for a native marker while its line is partial, and parsed once more when the
    /// block holding it closes. A measure of work (not time) that stays within a small multiple
    /// of the bytes fed, however the text is chunked.
    pub fn bytes_examined(&self) -> u64 {
        self.examined
    }

    fn pos(&self, line: u32, start: usize, byte: usize) -> Position {
        Position { line: line + 1, column: scan::columns(&self.text[start..start + byte]) }
    }

    /// Parses the closed span `[from, to)` starting on line `first_line` alone and appends its
    /// statements positioned in `[keep_from, keep_before)`.
    fn read_closed(&mut self, from: usize, to: usize, first_line: u32, keep_from: Position, keep_before: Option<Position>) {
        let span = &self.text[from..to];
        self.examined += span.len() as u64;
        let parsed = turn::run(span, &self.options, Entry::Statements);
        for item in parsed.items {
            if let Item::Statement(mut s) = item {
                s.position.line += first_line;
                if s.position >= keep_from && keep_before.map(|b| s.position < b).unwrap_or(true) {
                    self.provisional.push(s.into_owned());
                }
            }
        }
    }

    /// One complete line `[start, end)`; the next line starts at `next`.
    fn line(&mut self, cls: &Classifier, start: usize, end: usize, next: usize) {
        let state = std::mem::replace(&mut self.state, State::Top);
        self.state = self.step(cls, state, start, end, next);
    }

    fn step(&mut self, cls: &Classifier, state: State, start: usize, end: usize, next: usize) -> State {
        let line_no = self.line_no;
        let rules = cls.rules;
        let text = &self.text[start..end];
        let class = cls.classify(text);
        let fence: Option<Fence> = match class {
            Class::Fence(f) if !f.inline => Some(f),
            _ => None,
        };
        let compact = |f: &Fence| crate::heading::segments(cls, text, f.indent as usize, f.width).last().map(|s| s.closed).unwrap_or(false);
        let closes = |f: &Fence, ch: u8, w: u32| f.ch == ch && f.width >= w && matches!(f.info, Info::Bare | Info::Aside);
        match state {
            State::Top => match (class, fence) {
                (_, Some(f)) => match f.info {
                    Info::Heading(named) => {
                        if compact(&f) {
                            let keep = self.pos(line_no, start, f.indent as usize);
                            let before = self.provisional.len();
                            // A line holding native markup may read as its calls where no
                            // operation is yielded, so it commits nothing.
                            let marked = self.open && self.markers.opens(&text.to_ascii_lowercase()).is_some();
                            self.read_closed(start, end, line_no, keep, None);
                            // §fence-closer: the one-line form closes on its own line, so with
                            // nothing opened before it, no later fence can pair with it.
                            if self.open {
                                if !marked && self.reads_alone(start, end, line_no, before) {
                                    self.committed = self.provisional.len();
                                } else {
                                    self.open = false;
                                }
                            }
                            State::Top
                        } else {
                            self.open = false;
                            let prose = matches!(named, Named::Op(i) if rules.op(i).prose_body);
                            State::Op {
                                start,
                                start_line: line_no,
                                keep_from: self.pos(line_no, start, f.indent as usize),
                                width: f.width,
                                prose,
                                nested: None,
                            }
                        }
                    }
                    Info::Chain(_) => {
                        self.open = false;
                        State::Op {
                            start,
                            start_line: line_no,
                            keep_from: self.pos(line_no, start, f.info_at),
                            width: f.chain_width,
                            prose: false,
                            nested: None,
                        }
                    }
                    Info::Bare => {
                        self.open = false;
                        State::Bare { start, start_line: line_no, ch: f.ch, width: f.width }
                    }
                    Info::Label | Info::Aside => {
                        self.open = false;
                        State::Quote { ch: f.ch, width: f.width }
                    }
                },
                (Class::Naked(op), _) => {
                    self.open = false;
                    State::Naked { start, start_line: line_no, name: rules.op(op).name.clone() }
                }
                // An unfenced operation line is not response text (§unfenced-operation); native
                // markup that begins on it runs on past it.
                (Class::Unfenced(_), _) => {
                    if self.committed == 0 && self.markers.opens(&text.to_ascii_lowercase()).is_some() {
                        self.open = false;
                    }
                    State::Top
                }
                // Inline code that names something (§interstitial-fence): a fence line all the
                // same, so the preview stops short of it.
                (Class::Fence(_), None) => {
                    self.open = false;
                    State::Top
                }
                // Once a statement is committed the turn yields an operation, and its native
                // markup is never read (§native-tool-calls): it is text.
                _ if self.committed > 0 => {
                    self.show(start, next);
                    State::Top
                }
                // A bare JSON value or Python list may be a call, alone or with the lines after it.
                _ if self.markers.bare(text) => {
                    self.open = false;
                    State::Top
                }
                _ => {
                    let lower = text.to_ascii_lowercase();
                    match self.markers.opens(&lower) {
                        // The text before the markup on its line stays text, unless the
                        // rewrite would leave it a line of its own that reads as more than text
                        // (a fence, a name).
                        Some((at, ends)) => {
                            if matches!(cls.classify(&text[..at]), Class::Text) && !self.markers.bare(&text[..at]) {
                                self.show(start, start + at);
                            }
                            self.open = false;
                            if self.markers.closes(&lower[at..], &ends) {
                                State::Top
                            } else {
                                State::Native { ends }
                            }
                        }
                        None => {
                            self.show(start, next);
                            State::Top
                        }
                    }
                }
            },
            State::Op { start: s0, start_line, keep_from, width, prose, nested: Some((ch, w)) } => {
                let nested = if fence.is_some_and(|f| closes(&f, ch, w)) { None } else { Some((ch, w)) };
                State::Op { start: s0, start_line, keep_from, width, prose, nested }
            }
            State::Op { start: s0, start_line, keep_from, width, prose, nested: None } => {
                let Some(f) = fence else { return State::Op { start: s0, start_line, keep_from, width, prose, nested: None } };
                if closes(&f, b'`', width) {
                    self.read_closed(s0, end, start_line, keep_from, None);
                    return State::Top;
                }
                match f.info {
                    Info::Chain(_) if f.width >= width => {
                        let opener = self.pos(line_no, start, f.info_at);
                        self.read_closed(s0, end, start_line, keep_from, Some(opener));
                        State::Op { start, start_line: line_no, keep_from: opener, width: f.chain_width, prose: false, nested: None }
                    }
                    Info::Heading(named) if f.width >= width && !(prose && matches!(named, Named::Exec(_))) => {
                        // A heading at the block's width ends it unclosed (§fence-heading-in-body).
                        self.read_closed(s0, start.saturating_sub(1).max(s0), start_line, keep_from, None);
                        self.step(cls, State::Top, start, end, next)
                    }
                    Info::Heading(_) | Info::Label if !compact(&f) => {
                        State::Op { start: s0, start_line, keep_from, width, prose, nested: Some((f.ch, f.width)) }
                    }
                    _ => State::Op { start: s0, start_line, keep_from, width, prose, nested: None },
                }
            }
            State::Naked { start: s0, start_line, name } => {
                if text.trim_end() == name {
                    self.read_closed(s0, end, start_line, Position { line: start_line + 1, column: 0 }, None);
                    return State::Top;
                }
                if matches!(fence, Some(Fence { info: Info::Heading(_), .. })) {
                    self.read_closed(s0, start.saturating_sub(1).max(s0), start_line, Position { line: start_line + 1, column: 0 }, None);
                    return self.step(cls, State::Top, start, end, next);
                }
                State::Naked { start: s0, start_line, name }
            }
            State::Quote { ch, width } => {
                if fence.is_some_and(|f| closes(&f, ch, width)) {
                    State::Top
                } else {
                    State::Quote { ch, width }
                }
            }
            State::Bare { start: s0, start_line, ch, width } => {
                let forgotten = match class {
                    Class::Naked(_) => true,
                    Class::Unfenced(Named::Op(_)) => {
                        let rest = text[cls.name_end(text.as_bytes(), 0)..].trim_start_matches([' ', '\t']);
                        rest.starts_with(['(', '<', '['])
                    }
                    Class::Unfenced(Named::Exec(_)) => true,
                    _ => false,
                };
                if forgotten && ch == b'`' {
                    State::Op {
                        start: s0,
                        start_line,
                        keep_from: Position { line: start_line + 1, column: 0 },
                        width,
                        prose: false,
                        nested: None,
                    }
                } else {
                    self.step(cls, State::Quote { ch, width }, start, end, next)
                }
            }
            State::Native { ends } => {
                if self.markers.closes(&text.to_ascii_lowercase(), &ends) {
                    State::Top
                } else {
                    State::Native { ends }
                }
            }
        }
    }

    /// Whether the compact line `[start, end)` read as a turn of its own gives the statements
    /// just read from it (from `before` on), and some: how the final parse reads it when nothing
    /// opened before it — a turn that yields an operation reads no native markup
    /// (§native-tool-calls), and the statement tier alone would.
    fn reads_alone(&mut self, start: usize, end: usize, line_no: u32, before: usize) -> bool {
        self.examined += (end - start) as u64;
        let alone = turn::run(&self.text[start..end], &self.options, Entry::Parse);
        let read = &self.provisional[before..];
        !read.is_empty()
            && alone.unparsed_tail.is_none()
            && alone.statements().count() == read.len()
            && alone.statements().zip(read).all(|(a, b)| {
                let mut a = a.clone().into_owned();
                a.position.line += line_no;
                a == *b
            })
    }

    /// Shows `text[a..b]` as response text, while the preview is open.
    fn show(&mut self, a: usize, b: usize) {
        if a >= b || !self.open {
            return;
        }
        self.visible.push_str(&self.text[a..b]);
        match self.shown.last_mut() {
            Some(last) if last.1 == a => last.1 = b,
            _ => self.shown.push((a, b)),
        }
    }

    /// How much of the partial last line is surely text: nothing once the settled part of the
    /// turn has ended, nor while the line may still become a fence, a heading, a naked or
    /// unfenced name line or a bare JSON line; otherwise the bytes before the first place a
    /// native marker could begin. The decision only ever grows
    /// what is shown: a completed line shows at least as much (§response-text).
    fn partial_shown(&self) -> usize {
        let p = &self.text[self.done..];
        if p.is_empty() || !self.open || !matches!(self.state, State::Top) {
            return 0;
        }
        let rules = self.options.rules();
        // Zero-width characters may open a heading line (§heading-slot-order): read past them.
        let mut z = 0;
        while let n @ 1.. = rules.zero_width_at(p.as_bytes(), z) {
            z += n;
        }
        let q = &p[z..];
        let t = q.trim_start_matches(' ');
        if q.len() - t.len() <= 3 && (t.is_empty() || t.starts_with(['`', '~'])) {
            return 0;
        }
        // A bare JSON value or Python list may be a call until its line ends.
        if self.markers.bare(p) {
            return 0;
        }
        // A column-zero name still being written, or written whole (a naked or unfenced line).
        let registry = Registry::new(rules, self.options.executors.as_deref());
        let b = p.as_bytes();
        let mut n = 0;
        while n < b.len() && rules.is_name_byte(b[n]) {
            n += 1;
        }
        if n > 0 {
            let word = &p[..n];
            let whole = n < b.len();
            let op_match = rules.tables.operations.iter().any(|o| if whole { o.name == word } else { o.name.starts_with(word) });
            let exec_match = registry.names.iter().chain(rules.tables.executors.aliases.iter().map(|a| &a.spelling)).any(|e| {
                let (e, w) = (e.to_ascii_lowercase(), word.to_ascii_lowercase());
                if whole {
                    e == w
                } else {
                    e.starts_with(&w)
                }
            });
            if op_match || exec_match {
                return 0;
            }
        }
        self.partial_marker.map(|m| m - self.done).unwrap_or(p.len())
    }

    /// The provisional statements so far, in source order: for display only. A later chunk can
    /// drop or re-read any of them (§pairing-need: a bare fence's role depends on every fence
    /// after it), so dispatch only the statements of [`StreamParser::finish`].
    pub fn provisional(&self) -> &[Statement<'static>] {
        &self.provisional
    }

    /// The committed statements: the first provisional ones that no continuation of the turn
    /// can change, so the statements of [`StreamParser::finish`] begin with them, whatever
    /// follows. Only compact one-line headings with no fence line, naked name or native markup
    /// before them commit (see the module documentation for why nothing else can): on the
    /// recorded emissions, 3 statements of 396 commit before their turn ends.
    pub fn committed(&self) -> &[Statement<'static>] {
        &self.provisional[..self.committed]
    }

    /// The response text visible so far: a prefix (white space aside) of the response text of
    /// the final parse, whatever follows. It grows only while every line so far is settled —
    /// prose, an unfenced operation line (never text), a compact heading — and stops for good
    /// at the first line that may open a block or begin native markup, since a later fence can
    /// make any text after it a body (§pairing-need). The rest arrives with
    /// [`StreamParser::finish`].
    pub fn visible(&self) -> String {
        let mut v = self.visible.clone();
        v.push_str(&self.text[self.done..self.done + self.partial_shown()]);
        v
    }

    /// Where [`StreamParser::visible`] comes from: byte ranges of the text fed so far (decoded),
    /// in order. For tests that hold the preview to the final parse.
    #[doc(hidden)]
    pub fn visible_spans(&self) -> Vec<std::ops::Range<usize>> {
        let mut v: Vec<std::ops::Range<usize>> = self.shown.iter().map(|&(a, b)| a..b).collect();
        let p = self.partial_shown();
        if p > 0 {
            match v.last_mut() {
                Some(last) if last.end == self.done => last.end += p,
                _ => v.push(self.done..self.done + p),
            }
        }
        v
    }

    /// The text received so far (decoded).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Ends the stream: the exact parse of the whole text, as [`crate::parse`] gives it.
    pub fn finish(&mut self) -> ParseResult<'static> {
        if !self.pending.is_empty() {
            // An incomplete character at the very end decodes as one U+FFFD, as a lossy
            // decoding of the whole does.
            self.pending.clear();
            self.text.push('\u{FFFD}');
        }
        self.finished = true;
        turn::run(&self.text, &self.options, Entry::Parse).into_owned()
    }
}
