//! Streaming: [`StreamParser`] reads a model turn as its chunks arrive.
//!
//! # What it gives
//!
//! After each chunk: the **provisional** statements — operation blocks the author has closed
//! (or a compact heading line, or a naked block ended by its name line or the next heading),
//! each read by the ordinary parser — and the **visible response text** so far: outside text, with
//! anything that may still turn out to be an operation held back (an unfinished fence, a heading
//! or name line still being written, an unclosed quotation, native tool-call markup). At the end,
//! [`StreamParser::finish`] returns exactly [`crate::parse`] of the whole text, for every way the
//! text was split into chunks — split points inside a multi-byte character and inside a marker
//! included (tests/stream.rs checks this as a property).
//!
//! # Provisional means provisional: display them, dispatch only from `finish()`
//!
//! A provisional statement is the reading of the turn *so far*. A later fence can change it:
//! a bare fence after it may turn the block that holds it into a quoted example (the author
//! showed it, and the final parse runs nothing), or re-pair the fences before it. So a runtime
//! shows provisional statements in a live preview and dispatches only the statements of
//! [`StreamParser::finish`], which equals [`crate::parse`] of the whole turn.
//!
//! # How
//!
//! Where a block ends is decided for the whole input at once by §fence-pairing: whether a bare
//! fence closes a block or opens a nested one "depends on every fence after it, unboundedly"
//! (§pairing-need), so no prefix of a turn is final until the turn is. (Measured on the recorded
//! emissions of the conformance corpus: before only 3 of 262 non-first headings does the pairing
//! search hold a single, repair-free reading with nothing open, the one point a prefix could be
//! cut off exactly.) The stream therefore keeps two readings:
//!
//! - a **provisional, line-at-a-time reading** for the view: each complete line is classified
//!   once (the parser's own line classifier) and moves a small state machine — top level, an
//!   operation body (with one nested literal block, §balanced-fences), a naked block, a
//!   quotation, a bare fence waiting on its next line (§forgotten-tag), native markup. When an
//!   operation block closes, its span — and only its span — is parsed once with
//!   [`crate::parse_statements`] and its statements are appended to the provisional list. A chunk
//!   therefore costs time proportional to its own length (each byte is decoded once, each line
//!   classified once, each closed span parsed once); no closed span is read again while
//!   streaming. A later fence can, rarely, re-read an earlier block (above), and the final
//!   result is authoritative.
//! - the **exact reading**, once, at [`StreamParser::finish`]: the whole-input pairing pass and
//!   the builder over the text, linear in its length (tests/stream.rs measures both costs).

use crate::ast::*;
use crate::rules::model::NativeForm;
use crate::rules::Rules;
use crate::scan::{self, Class, Classifier, Fence, Info, Named, Registry};
use crate::ParseOptions;

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
    /// A quotation: held back until its first valid closer, then shown (§response-text).
    Quote {
        start: usize,
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
    /// Native tool-call markup: never shown; read (or not) by the exact parse.
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

/// An incremental reader of one model turn. See the module documentation.
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
    visible: String,
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
            visible: String::new(),
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
        let parsed = crate::parse_statements(span, &self.options);
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
                            self.read_closed(start, end, line_no, keep, None);
                            State::Top
                        } else {
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
                    Info::Chain(_) => State::Op {
                        start,
                        start_line: line_no,
                        keep_from: self.pos(line_no, start, f.info_at),
                        width: f.chain_width,
                        prose: false,
                        nested: None,
                    },
                    Info::Bare => State::Bare { start, start_line: line_no, ch: f.ch, width: f.width },
                    Info::Label | Info::Aside => State::Quote { start, ch: f.ch, width: f.width },
                },
                (Class::Naked(op), _) => State::Naked { start, start_line: line_no, name: rules.op(op).name.clone() },
                // An unfenced operation line is not response text (§unfenced-operation).
                (Class::Unfenced(_), _) => State::Top,
                // A whole line that reads as native markup, or draws its receipt, is not shown.
                _ if self.markers.bare(text) && {
                    let r = crate::native::read(text, rules, cls.registry);
                    r.rewritten.is_some() || r.receipt.is_some()
                } =>
                {
                    State::Top
                }
                _ => {
                    let lower = text.to_ascii_lowercase();
                    match self.markers.opens(&lower) {
                        // The text before the markup on its line is text, and stays shown.
                        Some((at, ends)) => {
                            self.visible.push_str(&self.text[start..start + at]);
                            if self.markers.closes(&lower[at..], &ends) {
                                State::Top
                            } else {
                                State::Native { ends }
                            }
                        }
                        None => {
                            self.visible.push_str(&self.text[start..next]);
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
            State::Quote { start: s0, ch, width } => {
                if fence.is_some_and(|f| closes(&f, ch, width)) {
                    self.visible.push_str(&self.text[s0..next]);
                    State::Top
                } else {
                    State::Quote { start: s0, ch, width }
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
                    self.step(cls, State::Quote { start: s0, ch, width }, start, end, next)
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

    /// How much of the partial last line is surely text: nothing while it may still become a
    /// fence, a heading, a naked or unfenced name line, or while a block is open; otherwise the
    /// bytes before the first place a native marker could begin. The decision only ever grows
    /// what is shown: a completed line shows at least as much (§response-text).
    fn partial_shown(&self) -> usize {
        let p = &self.text[self.done..];
        if p.is_empty() || !matches!(self.state, State::Top) {
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

    /// The response text visible so far: outside text, holding back whatever may still turn out
    /// to be an operation (an unfinished fence, heading, name line, quotation or native markup).
    pub fn visible(&self) -> String {
        let mut v = self.visible.clone();
        v.push_str(&self.text[self.done..self.done + self.partial_shown()]);
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
        crate::parse(&self.text, &self.options).into_owned()
    }
}
