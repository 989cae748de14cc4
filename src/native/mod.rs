//! Native tool-call markup (§native-tool-calls, §native-tool-call-receipt).
//!
//! An emission that yields no operation may be a model's own tool-call markup. The families are
//! data — one `rules/native/<family>.yaml` each, holding its markers, its call shapes and its
//! recovery flags — and the call-piece table is `rules/native/parameters.yaml`; the code here
//! knows shapes, never a family's strings:
//!
//! - [`compile`] composes every family's spellings into aho-corasick automata;
//! - the scan below walks the emission, skipping quotations (§quotation: markup inside a fenced
//!   code block is data), and reads each block a family opens with [`element`] or [`forms`];
//! - [`map`] reads each call as an operation through the call-piece table;
//! - the rewrite writes every call as a fenced statement, keeping each block's line count where
//!   its lines allow so positions name the source line, and growing an inline block to its fences.
//!
//! A call with an unknown name or parameter, or a FIND, READ, EDIT, COPY or MOVE naming no
//! target, leaves the whole emission as it was; the first block then draws the receipt.

mod compile;
mod element;
mod forms;
mod map;
mod python;
mod tags;
mod text;

use std::borrow::Cow;

use serde_json::Value;

use crate::rules::model::NativeParameters;
use crate::rules::{DiagId, Rules};
use crate::scan::Registry;
use compile::{Compiled, Opening};
use map::Taught;
use text::*;

/// What reading an emission's native markup produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NativeReading {
    /// The emission with every mapped call rewritten as a fenced PLURNK statement.
    pub rewritten: Option<String>,
    /// The receipt of the first native block (used when the emission stays as it was).
    pub receipt: Option<Receipt>,
}

/// A stretch of the rewritten emission copied verbatim from the input: `len` bytes at `out` in
/// the rewrite are the input's bytes at `src` (§response-text: text beside native markup is the
/// source's, at the source's position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceCopy {
    pub out: usize,
    pub src: usize,
    pub len: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    /// 0-based line index and byte offset in that line.
    pub line: u32,
    pub at: usize,
    /// The diagnostic it is (`native-receipt-…`).
    pub id: DiagId,
    /// The diagnostic text, fully formed.
    pub message: String,
}

/// One call as the markup wrote it. Its text is borrowed from the emission wherever the markup
/// wrote it as is (nearly always): reading a call copies nothing but what a JSON parse built.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call<'a> {
    /// Byte whose line the statement's heading takes.
    pub anchor: usize,
    /// The called name as written; with `heading_ok`, it may carry the heading's slots.
    pub name: Cow<'a, str>,
    /// Heading slots written in the tag after the name.
    pub slots: &'a str,
    pub heading_ok: bool,
    /// Arguments in written order.
    pub args: Vec<(Cow<'a, str>, Arg<'a>)>,
    /// Plain text inside the call: the body.
    pub text: Option<Cow<'a, str>>,
    /// An aside given by the markup itself (a `comment` attribute).
    pub aside: Option<Cow<'a, str>>,
}

/// An argument's value: text written in the markup, or a JSON value. `Text(t)` stands for
/// `Json(Value::String(t))` everywhere it is read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Arg<'a> {
    Text(&'a str),
    Json(Value),
}

impl<'a> Arg<'a> {
    /// The value's string, when it is one.
    pub(crate) fn str(&self) -> Option<&str> {
        match self {
            Arg::Text(t) => Some(t),
            Arg::Json(Value::String(t)) => Some(t),
            Arg::Json(_) => None,
        }
    }

    /// The value as argument text: a string as is, anything else as JSON.
    pub(crate) fn text(&self) -> Cow<'_, str> {
        match self {
            Arg::Text(t) => Cow::Borrowed(t),
            Arg::Json(v) => text_of(v),
        }
    }

    /// [`Self::text`], borrowed from the emission when it was written there.
    pub(crate) fn text_in(&self) -> Cow<'a, str> {
        match self {
            Arg::Text(t) => Cow::Borrowed(t),
            Arg::Json(v) => Cow::Owned(text_of(v).into_owned()),
        }
    }

    /// The value as JSON.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Arg::Text(t) => Value::String(t.to_string()),
            Arg::Json(v) => v.clone(),
        }
    }
}

/// One block of native markup found in the emission.
#[derive(Debug, Clone)]
struct Found<'a> {
    start: usize,
    end: usize,
    /// The block's opening markup as written.
    marker: Cow<'a, str>,
    calls: Vec<Call<'a>>,
    /// Every call was read (whether or not it maps).
    readable: bool,
    /// [`map::map`] of the leading calls, up to the first refused, as the block choice ran it
    /// (kept so the rewrite and the receipt do not map a call again).
    mapped: Vec<Result<map::Mapped<'a>, Taught>>,
}

impl<'a> Found<'a> {
    fn new(start: usize, end: usize, marker: Cow<'a, str>, calls: Vec<Call<'a>>, readable: bool) -> Found<'a> {
        Found { start, end, marker, calls, readable, mapped: Vec::new() }
    }

    /// Maps the calls in order up to the first refused one, keeping each result: whether all map.
    fn map_all(&mut self, ctx: &Ctx) -> bool {
        if self.mapped.capacity() == 0 {
            self.mapped.reserve_exact(self.calls.len());
        }
        while self.mapped.len() < self.calls.len() {
            if self.mapped.last().map(|m| m.is_err()).unwrap_or(false) {
                return false;
            }
            let m = map::map(&self.calls[self.mapped.len()], ctx.rules, ctx.registry, ctx.params, &ctx.c.keys);
            self.mapped.push(m);
        }
        self.mapped.last().map(|m| m.is_ok()).unwrap_or(true)
    }

    /// The map result of call `i`: the kept one, else computed.
    fn mapped(&self, ctx: &Ctx, i: usize) -> Cow<'_, Result<map::Mapped<'a>, Taught>> {
        match self.mapped.get(i) {
            Some(m) => Cow::Borrowed(m),
            None => Cow::Owned(map::map(&self.calls[i], ctx.rules, ctx.registry, ctx.params, &ctx.c.keys)),
        }
    }
}

struct Ctx<'a> {
    c: &'a Compiled,
    rules: &'a Rules,
    registry: &'a Registry<'a>,
    params: &'a NativeParameters,
    /// A bare JSON value already ran to the end of the input unclosed: every later one would
    /// too, so none is read again (keeps the scan linear).
    json_unclosed: std::cell::Cell<bool>,
    closes: text::Closes<'a>,
    /// The JSON value last asked whether it quotes a name key of any JSON family, by its opening
    /// byte and bound, and the answer: each JSON-only block it may open asks once (one that
    /// quotes none is refused without reading it again).
    named: std::cell::Cell<Option<(usize, usize, bool)>>,
    /// The emission read, and whether a JSON value in it may name a call (it quotes a JSON
    /// family's name key, or writes a `\u` escape), asked at its first JSON opening.
    input: &'a str,
    json_named: std::cell::Cell<Option<bool>>,
    /// Whether the emission quotes a name key, or writes a backslash
    /// ([`compile::Block::python_only`]), asked at the first such block it may open.
    python_named: std::cell::Cell<Option<bool>>,
    /// Per block kind (`bi`, bound `to`): the call starts of the last sequence it read that
    /// named nothing. A read from a later one of those starts reads a suffix of the same calls,
    /// which names nothing either, so it is not read again: lines of JSON calls naming unknown
    /// tools cost one read, not one per line (keeps the scan linear).
    unnamed_calls: std::cell::RefCell<Vec<(usize, usize, Vec<usize>)>>,
    /// The last list spread over lines looked at (bound, its `[`, what [`python::list_close`]
    /// found): a line-start `[` inside it closes where that reading matched it, or not at all, so
    /// lines of lists left open cost one pass, not one per line (keeps the scan linear).
    list_lines: std::cell::RefCell<Option<(usize, usize, python::ListClose)>>,
}

impl<'a> Ctx<'a> {
    fn new(c: &'a Compiled, rules: &'a Rules, registry: &'a Registry<'a>, params: &'a NativeParameters, input: &'a str) -> Ctx<'a> {
        Ctx {
            c,
            rules,
            registry,
            params,
            json_unclosed: Default::default(),
            closes: text::Closes::new(input),
            named: Default::default(),
            input,
            json_named: Default::default(),
            python_named: Default::default(),
            unnamed_calls: Default::default(),
            list_lines: Default::default(),
        }
    }

    /// Whether block kind `bi` read from `at` up to `to` is a suffix of a sequence already
    /// known to name nothing (see [`Ctx::unnamed_calls`]).
    fn known_unnamed(&self, bi: usize, at: usize, to: usize) -> bool {
        self.unnamed_calls.borrow().iter().any(|(b, t, starts)| *b == bi && *t == to && starts.binary_search(&at).is_ok())
    }

    /// Keeps the call starts of a sequence of `bi` that named nothing, unless it lies inside the
    /// one already kept (a call nested in an argument), which stays.
    fn remember_unnamed(&self, bi: usize, to: usize, calls: &[Call]) {
        let mut kept = self.unnamed_calls.borrow_mut();
        let starts: Vec<usize> = calls.iter().map(|c| c.anchor).collect();
        if !starts.windows(2).all(|w| w[0] < w[1]) {
            return;
        }
        match kept.iter_mut().find(|(b, t, _)| *b == bi && *t == to) {
            Some((_, _, old)) if old.last().is_some_and(|&l| starts.first().is_some_and(|&f| f <= l)) => {}
            Some((_, _, old)) => *old = starts,
            None => kept.push((bi, to, starts)),
        }
    }

    /// The scanner to go on with when some of `blocks` (those an opening in `s` may open) are
    /// refused because no JSON value of `s` can name a call: the openings without them.
    fn unnamed_openings(&self, s: &str, blocks: &[usize]) -> Option<&'a (compile::Markers, Vec<Vec<usize>>)> {
        let unnamed = self.c.unnamed.as_ref()?;
        if !blocks.iter().any(|&b| self.c.blocks[b].json_call_only()) {
            return None;
        }
        let named = if std::ptr::eq(s, self.input) {
            match self.json_named.get() {
                Some(n) => n,
                None => {
                    let n = forms::may_name_anywhere(&self.c.json_names, s);
                    self.json_named.set(Some(n));
                    n
                }
            }
        } else {
            forms::may_name_anywhere(&self.c.json_names, s)
        };
        (!named).then_some(unnamed)
    }
}

impl Ctx<'_> {
    /// Whether block `bi` is refused unread: it reads Python literal dicts only, and the
    /// emission `s` quotes no name key for one to hold (nor writes a backslash to spell one).
    fn python_unnamed(&self, s: &str, bi: usize) -> bool {
        if !self.c.blocks[bi].python_only {
            return false;
        }
        let written = |s: &str| forms::may_name_python(&self.c.json_names, s);
        let named = if std::ptr::eq(s, self.input) {
            match self.python_named.get() {
                Some(n) => n,
                None => {
                    // The JSON gate's answer, when it ran, leaves only single quotes to read.
                    let n = match self.json_named.get() {
                        Some(json) => forms::may_name_python_after(&self.c.json_names, s, json),
                        None => written(s),
                    };
                    self.python_named.set(Some(n));
                    n
                }
            }
        } else {
            written(s)
        };
        !named
    }

    fn names_something(&self, call: &Call) -> bool {
        map::names(call, self.rules, self.registry, self.params).is_some()
    }
}

/// Reads native markup in `input`. Called only for an emission that yields no operation.
pub fn read(input: &str, rules: &Rules, registry: &Registry) -> NativeReading {
    compile::with(rules, |c| {
        let Some(ctx) = context(c, rules, registry, input) else { return NativeReading::default() };
        let (rewritten, first) = reading(&ctx, input);
        NativeReading { rewritten: rewritten.map(|r| r.0), receipt: first.map(|b| receipt_of(&ctx, input, &b)) }
    })
}

/// [`read`] for a caller that keeps the rewritten emission when `accept` takes it (gives
/// `Some`): the receipt is built only when it is not (no rewrite, or `accept` refused it), as
/// `run` throws it away otherwise. `Err` carries the receipt [`read`] would give. `accept` also
/// gets the stretches of the rewrite copied from the input, in order.
pub fn read_then<T>(
    input: &str,
    rules: &Rules,
    registry: &Registry,
    accept: impl FnOnce(&str, &[SourceCopy]) -> Option<T>,
) -> Result<T, Option<Receipt>> {
    compile::with(rules, |c| {
        let Some(ctx) = context(c, rules, registry, input) else { return Err(None) };
        let (rewritten, first) = reading(&ctx, input);
        if let Some(got) = rewritten.and_then(|(text, copies)| accept(&text, &copies)) {
            return Ok(got);
        }
        Err(first.map(|b| receipt_of(&ctx, input, &b)))
    })
}

/// The context [`read`] and [`read_then`] read `input` in, or `None` where no block can open:
/// the rules have no call-piece table, or the emission holds none of the openings' anchors
/// (most prose is not scanned at all).
fn context<'a>(c: &'a Compiled, rules: &'a Rules, registry: &'a Registry<'a>, input: &'a str) -> Option<Ctx<'a>> {
    let params = c.params.as_ref()?;
    (!c.openings.absent_from(input.as_bytes())).then(|| Ctx::new(c, rules, registry, params, input))
}

/// The rewritten emission (when every block reads and every call maps, and there is a call),
/// and the first block found, which draws the receipt.
fn reading<'a>(ctx: &Ctx, input: &'a str) -> (Option<(String, Vec<SourceCopy>)>, Option<Found<'a>>) {
    // A block that does not read or map leaves the emission as it was: the blocks after it
    // change nothing (the first block draws the receipt), so the scan stops there.
    let mut found = scan(ctx, input, 0, input.len(), Until::Refused);
    if found.is_empty() {
        return (None, None);
    }
    // In order, every block readable and every call mapped; the map results stay kept in each
    // block (the receipt reads them) until all are known to map.
    let all = found.iter_mut().all(|b| b.readable && b.map_all(ctx));
    let mut rewritten = None;
    // With every block read and mapped, each block's kept results are its calls', all mapped.
    if all && found.iter().any(|b| !b.mapped.is_empty()) {
        rewritten = Some(rewrite(input, &found));
    }
    (rewritten, found.into_iter().next())
}

/// The receipt of the first native block that opens inside one of `spans` (byte ranges of
/// outside text, in order), for an emission that yields operations: §native-tool-call-receipt
/// names the first remaining native-call block in outside text.
pub fn receipt_in(input: &str, spans: impl IntoIterator<Item = (usize, usize)>, rules: &Rules, registry: &Registry) -> Option<Receipt> {
    let mut spans = spans
        .into_iter()
        .map(|(from, to)| (from, to.min(input.len())))
        .filter(|&(from, to)| from < to && input.is_char_boundary(from) && input.is_char_boundary(to));
    // A turn whose operations leave no outside text asks nothing more.
    let mut first = spans.next()?;
    compile::with(rules, |c| {
        let params = c.params.as_ref()?;
        // Outside text holding none of the openings' anchor bytes opens no block: the spans
        // before the first that holds one are passed over, and a turn whose outside text holds
        // none (most prose) builds no scan at all.
        while c.openings.absent_from(&input.as_bytes()[first.0..first.1]) {
            first = spans.next()?;
        }
        let ctx = Ctx::new(c, rules, registry, params, input);
        for (from, to) in std::iter::once(first).chain(spans) {
            // Only the first block draws the receipt: the scan stops there.
            if let Some(b) = scan(&ctx, input, from, to, Until::First).first() {
                return Some(receipt_of(&ctx, input, b));
            }
        }
        None
    })
}

#[inline(never)]
fn receipt_of(ctx: &Ctx, input: &str, b: &Found) -> Receipt {
    // The first call refused, else the first call.
    let refused = (0..b.calls.len()).map(|i| (i, b.mapped(ctx, i))).find(|(_, m)| m.is_err());
    let taught = refused
        .or_else(|| (!b.calls.is_empty()).then(|| (0, b.mapped(ctx, 0))))
        .map(|(i, m)| map::taught_after(&b.calls[i], &m, ctx.rules, ctx.registry, ctx.params))
        .unwrap_or(Taught::Unknown);
    let marker = &*b.marker;
    let (id, message) = match &taught {
        Taught::Unknown => (DiagId::NativeReceiptUnknown, ctx.rules.text(DiagId::NativeReceiptUnknown, &[("marker", marker)])),
        Taught::Target { op, target } => {
            let form = format!("{op} ({target})");
            (DiagId::NativeReceiptWithTarget, ctx.rules.text(DiagId::NativeReceiptWithTarget, &[("marker", marker), ("form", &form)]))
        }
        Taught::Body { name, noun } => {
            let noun = ctx.rules.text_by_name(noun, &[]);
            (
                DiagId::NativeReceiptWithBody,
                ctx.rules.text(DiagId::NativeReceiptWithBody, &[("marker", marker), ("name", name), ("noun", &noun)]),
            )
        }
        Taught::Plain { name } => {
            (DiagId::NativeReceiptPlain, ctx.rules.text(DiagId::NativeReceiptPlain, &[("marker", marker), ("name", name)]))
        }
    };
    let ls = line_start(input, b.start);
    let line = input.as_bytes()[..ls].iter().filter(|&&c| c == b'\n').count() as u32;
    Receipt { line, at: b.start - ls, id, message }
}

/// A quotation fence opening at line start `ls` (line end `le`): its character and width.
fn fence_open(s: &str, ls: usize, le: usize) -> Option<(u8, usize)> {
    let b = s.as_bytes();
    let mut i = ls;
    while i < le && i - ls < 4 && b[i] == b' ' {
        i += 1;
    }
    if i - ls > 3 || i >= le || !(b[i] == b'`' || b[i] == b'~') {
        return None;
    }
    let ch = b[i];
    let mut w = 0;
    while i + w < le && b[i + w] == ch {
        w += 1;
    }
    if w < 3 || (ch == b'`' && s[i + w..le].contains('`')) {
        return None;
    }
    Some((ch, w))
}

fn fence_closes(s: &str, ls: usize, le: usize, ch: u8, w: usize) -> bool {
    let t = &s[ls..le];
    let indent = t.len() - t.trim_start_matches(' ').len();
    let run = t[indent..].bytes().take_while(|&c| c == ch).count();
    indent <= 3 && run >= w && t[indent + run..].trim().is_empty()
}

/// The next quotation opening on a line starting at or after `pos`: (start, end). Only a line
/// holding a backtick or tilde can open or close one, so the search jumps between those bytes
/// by memchr instead of walking every line.
#[cfg(test)]
fn next_quotation(s: &str, pos: usize, to: usize) -> Option<(usize, usize)> {
    next_quotation_kept(s, pos, to, &mut Unclosed::default())
}

/// What the close searches of one scan learnt, per fence character (backtick, tilde). A
/// search for an opening at `from`, `w` wide, that finds no closing line up to the scan's
/// bound shows that no later opening as wide or wider closes either: the widest such fact is
/// kept (`open`). One that finds the line at `at` closing it (its run `run` wide, ending at
/// `end`) shows that a later opening before `at`, from `w` to `run` wide, closes there too: one
/// such fact is kept per width. So a run of openings that one line closes, or none (fence lines
/// that blocks of markup end inside), is crossed once per width, not once per opening.
#[derive(Default)]
struct Unclosed([Fences; 2]);

#[derive(Default)]
struct Fences {
    /// (from, narrowest width) with no closing line after `from`.
    open: Option<(usize, usize)>,
    closing: Vec<Closing>,
}

#[derive(Clone, Copy)]
struct Closing {
    from: usize,
    w: usize,
    at: usize,
    end: usize,
    run: usize,
}

impl Unclosed {
    fn slot(ch: u8) -> usize {
        usize::from(ch == b'~')
    }
}

/// The next quotation as `next_quotation` finds it, with what earlier searches up to the same
/// `to` learnt.
#[cfg(test)]
fn next_quotation_kept(s: &str, pos: usize, to: usize, unclosed: &mut Unclosed) -> Option<(usize, usize)> {
    next_quotation_upto(s, pos, to, to, unclosed).ok()
}

/// The next quotation opening on a line that starts at or after `pos` and at or before `upto`
/// (its closing searched up to `to`), with what earlier searches up to the same `to` learnt;
/// else where the next search may start (a line start past `upto`, or `to`): no quotation opens
/// on a line starting between `pos` and there. A scan asks only about the lines up to its next
/// block, so a scan that stops at its first block reads no further for fences.
fn next_quotation_upto(s: &str, pos: usize, upto: usize, to: usize, unclosed: &mut Unclosed) -> Result<(usize, usize), usize> {
    let (found, read_to) = next_quotation_uncounted(s, pos, upto, to, unclosed);
    crate::work::add(crate::work::Stage::Native, read_to.saturating_sub(pos) + 1);
    found
}

/// The search and how far it read.
fn next_quotation_uncounted(
    s: &str,
    pos: usize,
    upto: usize,
    to: usize,
    unclosed: &mut Unclosed,
) -> (Result<(usize, usize), usize>, usize) {
    let b = s.as_bytes();
    let mut ls = if pos == 0 || b[pos - 1] == b'\n' {
        pos
    } else {
        match next_line(s, pos) {
            Some(l) => l,
            None => return (Err(to), to),
        }
    };
    // A fence stands at most three spaces into its line.
    let bound = upto.saturating_add(4).min(to);
    while ls < to && ls <= upto {
        // None in `ls..bound`: no line starting up to `upto` holds a fence (a line starting past it
        // may, with its fence past `bound`).
        let Some(i) = memchr::memchr2(b'`', b'~', &b[ls..bound]) else { return (Err((upto + 1).min(to)), bound) };
        let i = ls + i;
        if let Some(l) = fence_line_start(b, ls, i) {
            if l > upto {
                return (Err(l), i);
            }
            let le = line_end(s, l).min(to);
            if let Some((ch, w)) = fence_open(s, l, le) {
                let known = &mut unclosed.0[Unclosed::slot(ch)];
                if known.open.is_some_and(|(from, narrowest)| from <= l && narrowest <= w) {
                    return (Ok((l, to)), le);
                }
                if let Some(k) = known.closing.iter().find(|k| k.from <= l && l < k.at && k.w <= w && w <= k.run) {
                    return (Ok((l, k.end)), le);
                }
                let mut from = next_line(s, l);
                while let Some(f) = from.filter(|&f| f < to) {
                    let Some(j) = memchr::memchr(ch, &b[f..to]) else { break };
                    let j = f + j;
                    if let Some(l2) = fence_line_start(b, f, j) {
                        let e2 = line_end(s, l2).min(to);
                        if fence_closes(s, l2, e2, ch, w) {
                            let run = b[j..e2].iter().take_while(|&&c| c == ch).count();
                            let fact = Closing { from: l, w, at: l2, end: e2, run };
                            match known.closing.iter_mut().find(|k| k.w == w) {
                                Some(k) => *k = fact,
                                None => known.closing.push(fact),
                            }
                            return (Ok((l, e2)), e2);
                        }
                    }
                    from = next_line(s, j);
                }
                known.open = Some((l, w));
                return (Ok((l, to)), to);
            }
        }
        match next_line(s, i) {
            Some(l) => ls = l,
            None => return (Err(to), to),
        }
    }
    (Err(ls.min(to)), ls.min(to))
}

/// The start of the line holding `i` when only at most three spaces stand before it there (a
/// fence's place); `from` is a line start at or before `i`.
fn fence_line_start(b: &[u8], from: usize, i: usize) -> Option<usize> {
    let mut k = i;
    while k > from && i - k < 4 && b[k - 1] == b' ' {
        k -= 1;
    }
    (i - k <= 3 && (k == from || b[k - 1] == b'\n')).then_some(k)
}

/// [`next_quotation`] walking every line, as it read before the byte search (kept to check it).
#[cfg(test)]
fn next_quotation_by_lines(s: &str, pos: usize, to: usize) -> Option<(usize, usize)> {
    let mut ls = if pos == 0 || s.as_bytes()[pos - 1] == b'\n' { pos } else { next_line(s, pos)? };
    while ls < to {
        let le = line_end(s, ls).min(to);
        if let Some((ch, w)) = fence_open(s, ls, le) {
            let mut l = next_line(s, ls);
            while let Some(l2) = l.filter(|&l2| l2 < to) {
                let e2 = line_end(s, l2).min(to);
                if fence_closes(s, l2, e2, ch, w) {
                    return Some((ls, e2));
                }
                l = next_line(s, l2);
            }
            return Some((ls, to));
        }
        ls = next_line(s, ls)?;
    }
    None
}

fn next_line(s: &str, p: usize) -> Option<usize> {
    memchr::memchr(b'\n', &s.as_bytes()[p..]).map(|i| p + i + 1)
}

/// Where a scan stops.
#[derive(Clone, Copy, PartialEq)]
enum Until {
    /// At the first block.
    First,
    /// After the first block that does not read, or whose calls do not all map.
    Refused,
    /// At the end of its text.
    #[cfg(test)]
    All,
}

/// How far past the scan's position a quotation search looks when the next block is nearer: a
/// short text is searched once, a long one a stretch at a time (so a scan that stops at its
/// first block does not read the rest).
#[cfg(not(test))]
const QUOTE_AHEAD: usize = 32 * 1024;
#[cfg(test)]
const QUOTE_AHEAD: usize = 2;

/// The native blocks in `s[from..to]`, in order, outside quotations and reasoning spans, up to
/// where `until` stops.
fn scan<'a>(ctx: &Ctx, s: &'a str, from: usize, to: usize, until: Until) -> Vec<Found<'a>> {
    let mut out = Vec::new();
    let mut pos = from;
    // The next quotation, looked up again only once the scan passes its start, and only a
    // stretch ahead (`clear`: no quotation opens on a line starting before it).
    let mut quote: Option<(usize, usize)> = None;
    let mut clear = pos;
    let mut unclosed = Unclosed::default();
    let mut think = Spans::default();
    let (mut openings, mut opens) = (&ctx.c.openings, &ctx.c.opens);
    // The openings' memchr passes, carried from one search to the next (see `Hits`).
    let mut hits = compile::Hits::default();
    while pos < to {
        let Some((m0, _, pat)) = openings.find_with(s, pos, to, &mut hits) else { break };
        // Where no JSON value can name a call, the JSON openings open nothing: the scan goes on
        // from here without them (JSON in prose and code costs no quotation search, no read).
        if std::ptr::eq(openings, &ctx.c.openings) {
            if let Some((fewer, their)) = ctx.unnamed_openings(s, &opens[pat]) {
                (openings, opens) = (fewer, their);
                hits = compile::Hits::default();
                continue;
            }
        }
        if quote.is_some_and(|q| q.0 < pos) {
            quote = None;
        }
        if quote.is_none() && clear <= m0 {
            // Up to the block, or a stretch ahead: a short text is searched once.
            let upto = m0.max(pos.saturating_add(QUOTE_AHEAD)).min(to);
            match next_quotation_upto(s, pos.max(clear), upto, to, &mut unclosed) {
                Ok(q) => quote = Some(q),
                Err(resume) => clear = resume,
            }
        }
        if let Some((q0, q1)) = quote {
            if q0 <= m0 {
                pos = (q1 + 1).min(to).max(pos + 1);
                continue;
            }
        }
        // A block inside a reasoning span is quoted thought: the scan goes on after the span.
        match open_block(ctx, s, m0, to, &opens[pat]).map(|b| (think.covering(ctx, s, from, to, m0), b)) {
            Some((Some(t1), _)) => pos = t1.max(pos + 1),
            Some((None, mut b)) => {
                pos = b.end.max(m0 + 1);
                let stop = match until {
                    Until::First => true,
                    Until::Refused => !(b.readable && b.map_all(ctx)),
                    #[cfg(test)]
                    Until::All => false,
                };
                out.push(b);
                if stop {
                    break;
                }
            }
            None => pos = m0 + s[m0..].chars().next().map(char::len_utf8).unwrap_or(1),
        }
        while pos < to && !s.is_char_boundary(pos) {
            pos += 1;
        }
    }
    out
}

/// The reasoning spans of one scan, found in order as far as its blocks ask: the first
/// reasoning marker decides whether a span the template opened before the emission began runs
/// from the scan's start (a closing written before any opening), then each span runs from an
/// opening to its closing (or the scan's end). One pass over the markers in all, and none for
/// a scan that finds no block.
#[derive(Default)]
struct Spans {
    /// The span last found, once the search started: `None` when no span is left.
    span: Option<Option<(usize, usize)>>,
    hits: compile::Hits,
}

impl Spans {
    /// The end of the reasoning span holding byte `m0`, when one does; asked at rising `m0`.
    fn covering(&mut self, ctx: &Ctx, s: &str, from: usize, to: usize, m0: usize) -> Option<usize> {
        let r = ctx.c.reasoning.as_ref()?;
        if self.span.is_none() {
            let first = r.markers.find_with(s, from, to, &mut self.hits);
            self.span = Some(match first {
                Some((_, e, pat)) if pat >= r.opens => Some((from, e)),
                Some((a, e, pat)) => Some((a, Self::close(r, s, pat, e, to))),
                None => None,
            });
        }
        loop {
            let (t0, t1) = self.span.flatten()?;
            if m0 < t0 {
                return None;
            }
            if m0 < t1 {
                return Some(t1);
            }
            self.span = Some(self.next(r, s, t1, to));
        }
    }

    /// The next span opening at or after `p` (closings met before it close nothing).
    fn next(&mut self, r: &compile::Reasoning, s: &str, mut p: usize, to: usize) -> Option<(usize, usize)> {
        loop {
            let (a, e, pat) = r.markers.find_with(s, p, to, &mut self.hits)?;
            if pat < r.opens {
                return Some((a, Self::close(r, s, pat, e, to)));
            }
            p = e;
        }
    }

    fn close(r: &compile::Reasoning, s: &str, pat: usize, e: usize, to: usize) -> usize {
        r.closes[pat].find(s, e, to).map(|m| m.1).unwrap_or(to)
    }
}

/// The block one of `blocks` opens at `at`: the first whose calls all map, else the first read
/// (with calls, when one is).
fn open_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, blocks: &[usize]) -> Option<Found<'a>> {
    let mut first: Option<Found<'a>> = None;
    for &bi in blocks {
        let b = &ctx.c.blocks[bi];
        if b.line_start && !compile::at_line_start(s.as_bytes(), at) {
            continue;
        }
        if b.by_name && ctx.known_unnamed(bi, at, to) {
            continue;
        }
        let Some(mut found) = read_block(ctx, s, at, to, bi) else { continue };
        if b.by_name && !found.calls.iter().any(|c| ctx.names_something(c)) {
            ctx.remember_unnamed(bi, to, &found.calls);
            continue;
        }
        if b.recovery.stray_closers {
            // Closing tags left over after the block are markup noise.
            let mut e = found.end;
            loop {
                let q = skip_ws(s, e, to);
                match closing_tag_at(s, q, to) {
                    Some(x) => e = x,
                    None => break,
                }
            }
            if e > found.end {
                found.end = e;
            }
        }
        if found.readable && !found.calls.is_empty() && found.map_all(ctx) {
            return Some(found);
        }
        // The receipt names the first block read with calls: a block of another family that
        // shares the marker and read none says less.
        if first.as_ref().map(|f| f.calls.is_empty() && !found.calls.is_empty()).unwrap_or(true) {
            first = Some(found);
        }
    }
    first
}

fn read_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    let b = &ctx.c.blocks[bi];
    match b.opening {
        Opening::Element => {
            let compile::Form::Elements(el) = b.forms.first()? else { return None };
            let (calls, end, marker, readable) = element::read(s, at, to, el, &b.recovery, &ctx.closes)?;
            Some(Found::new(at, end, Cow::Borrowed(marker), calls, readable))
        }
        Opening::Json => json_block(ctx, s, at, to, bi),
        Opening::Marker => marker_block(ctx, s, at, to, bi),
        Opening::List => list_block(ctx, s, at, to, bi),
        Opening::Tags => tags_block(ctx, s, at, to, bi),
    }
}

/// A block its first call opens (a `tags` form written without its section): the calls one
/// after another, then the block's end marker where one follows them (a section the template
/// opened). A call opening that does not read is a block of no call, which draws the receipt.
#[inline(never)]
fn tags_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    let b = &ctx.c.blocks[bi];
    let compile::Form::Tags(t) = b.forms.first()? else { return None };
    let opened = t.open_call.at(s, at, to)?;
    let marker = Cow::Borrowed(&s[at..opened]);
    let Some((calls, mut end)) = tags::read(s, at, to, t, &b.recovery) else {
        return Some(Found::new(at, opened, marker, Vec::new(), false));
    };
    if let Some(e) = b.end.at(s, skip_ws(s, end, to), to) {
        end = e;
    }
    Some(Found::new(at, end, marker, calls, true))
}

/// A block a `[` at a line start opens (Python calls or literals): read only when the list is
/// all its lines hold, so a bracket in prose (`[a link](x)`) is no call.
#[inline(never)]
fn list_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    if ctx.python_unnamed(s, bi) {
        return None;
    }
    // Read within its line first: a line-start `[` per line costs its line, however many lines
    // run unclosed.
    let le = ctx.closes.line_end(s, at).min(to);
    match sequence_in(ctx, s, at, le, bi, false, None) {
        Some((calls, end, _)) => {
            s[end.min(le)..le].trim().is_empty().then(|| Found::new(at, end, json_marker(s, at, &ctx.closes), calls, true))
        }
        None => lines_block(ctx, s, at, le, to, bi),
    }
}

/// A list spread over lines (`[f(a=1),` then ` g(b="x")]`, §native-tool-calls): when its first
/// line opens a list of calls, it is read up to where its `[` closes and must end its line
/// there. A line-start `[` inside the last such list looked at closes where that look matched
/// it (or, unmatched, opens no list over lines): no list is looked for twice.
#[inline(never)]
fn lines_block<'a>(ctx: &Ctx, s: &'a str, at: usize, le: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    let known = match &*ctx.list_lines.borrow() {
        Some((bound, from, l)) if *bound == to && *from == at => Some(l.got),
        Some((bound, from, l)) if *bound == to && *from < at && at < l.got.unwrap_or_else(|e| e) => {
            let k = l.inner.binary_search_by_key(&at, |x| x.0).ok()?;
            Some(Some(l.inner[k].1).filter(|&c| c > 0).ok_or(at))
        }
        _ => None,
    };
    let close = match known {
        Some(got) => got,
        None => {
            if !opens_list(ctx, s, at, le, bi) {
                return None;
            }
            let l = python::list_close(s, at, to);
            let got = l.got;
            *ctx.list_lines.borrow_mut() = Some((to, at, l));
            got
        }
    };
    let close = close.ok().filter(|&c| c > le)?;
    let (calls, end, _) = sequence_in(ctx, s, at, close, bi, false, None)?;
    if end != close || !s[close..line_end(s, close).min(to)].trim().is_empty() {
        return None;
    }
    Some(Found::new(at, close, json_marker(s, at, &ctx.closes), calls, true))
}

/// Whether the line from the `[` at `at` to `le` opens a list of the block's calls: nothing
/// follows the bracket, or a form reads it as calls cut off at the line's end.
fn opens_list(ctx: &Ctx, s: &str, at: usize, le: usize, bi: usize) -> bool {
    if skip_blank(s, at + 1, le) >= le {
        return true;
    }
    let b = &ctx.c.blocks[bi];
    let cut = crate::rules::model::NativeRecovery { truncated_body: true, ..b.recovery.clone() };
    b.forms.iter().any(|f| forms::read(f, s, at, le, false, &cut, &ctx.closes).is_some())
}

/// A block a JSON value opens (out of line: the element path stays compact).
#[inline(never)]
fn json_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    if ctx.json_unclosed.get() || ctx.python_unnamed(s, bi) {
        return None;
    }
    // Every block a `{` may open reads the same value first: one that names no call in any
    // JSON family (no family's name key quoted, in any case) is read once, not once a family.
    if ctx.c.blocks[bi].json_only {
        let known = ctx.named.get().filter(|k| (k.0, k.1) == (at, to)).map(|k| k.2);
        if known == Some(false) {
            return None;
        }
        match ctx.closes.reading(s, at, to) {
            text::Reading::Closes(close) if known.is_none() => {
                let named = forms::may_name(&ctx.c.json_names, true, &s[at..close]);
                ctx.named.set(Some((at, to, named)));
                if !named {
                    return None;
                }
            }
            // Every form reads JSON, which the parser fails on here: no call, and no EOF.
            text::Reading::Fails => return None,
            _ => {}
        }
    }
    let mut mapped = Vec::new();
    let Some((calls, end, _)) = sequence_in(ctx, s, at, to, bi, false, Some(&mut mapped)) else {
        // Only a value that runs to `to` unclosed can end in EOF: one that closes first, or
        // that the parser fails on first, is not read again.
        if ctx.closes.reading(s, at, to) == text::Reading::Unclosed {
            let mut it = serde_json::Deserializer::from_str(&s[at..to]).into_iter::<Value>();
            let got = it.next();
            text::json_work(&s[at..to], &got, it.byte_offset());
            if matches!(got, Some(Err(e)) if e.is_eof()) {
                ctx.json_unclosed.set(true);
            }
        }
        return None;
    };
    let mut found = Found::new(at, end, json_marker(s, at, &ctx.closes), calls, true);
    found.mapped = mapped;
    Some(found)
}

/// A block its start marker opens (out of line: the element path stays compact).
#[inline(never)]
fn marker_block<'a>(ctx: &Ctx, s: &'a str, at: usize, to: usize, bi: usize) -> Option<Found<'a>> {
    let b = &ctx.c.blocks[bi];
    let mut cs = b.start.at(s, at, to)?;
    let marker = Cow::Borrowed(&s[at..cs]);
    let next_same = b.start.find(s, cs, to).map(|m| m.0).unwrap_or(to);
    if !b.header_end.is_empty() {
        // A header on the marker's line, up to its end marker (`NAME<|content_invoke_tool_json|>`),
        // looked for before the next start only (a line of starts is crossed once).
        let (_, e, _) = b.header_end.find(s, cs, next_same)?;
        if memchr::memchr(b'\n', &s.as_bytes()[cs..e]).is_some() {
            return None;
        }
        cs = e;
    }
    let (ce, closed) = match b.end.find(s, cs, next_same) {
        Some((a, e, _)) => (a, Some(e)),
        None => (next_same, None),
    };
    if closed.is_none() && !b.recovery.missing_end {
        return Some(Found::new(at, cs, marker, Vec::new(), false));
    }
    let mut calls = Vec::new();
    let mut readable = true;
    let mut consumed = cs;
    if !b.call_start.is_empty() {
        let mut p = cs;
        while let Some((c0, c1, _)) = b.call_start.find(s, p, ce) {
            let next_call = b.call_start.find(s, c1, ce).map(|m| m.0).unwrap_or(ce);
            let (body_end, call_end) = match b.call_end.find(s, c1, next_call) {
                Some((a, e, _)) => (a, e),
                None if b.recovery.missing_end => (next_call, next_call),
                None => {
                    readable = false;
                    break;
                }
            };
            let c1 = skip_ws(s, c1, body_end);
            let c1 = b.call_prefixes.at(s, c1, body_end).unwrap_or(c1);
            match b.forms.iter().find_map(|f| forms::read(f, s, c1, body_end, true, &b.recovery, &ctx.closes)) {
                Some((mut got, _)) if got.len() == 1 => {
                    got[0].anchor = c0;
                    calls.append(&mut got);
                }
                _ => readable = false,
            }
            consumed = call_end;
            p = call_end.max(c1);
        }
        if calls.is_empty() {
            readable = false;
        }
    } else {
        match sequence_in(ctx, s, cs, ce, bi, closed.is_some(), None) {
            Some((mut got, end, all)) => {
                if let Some(c) = got.first_mut() {
                    c.anchor = at;
                }
                calls = got;
                consumed = end;
                readable = all || closed.is_none();
            }
            None => readable = false,
        }
    }
    if b.calls_required && calls.is_empty() {
        return None;
    }
    let end = match closed {
        Some(e) => e,
        None if calls.is_empty() => cs,
        None => consumed,
    };
    Some(Found::new(at, end, marker, calls, readable))
}

/// A JSON block's marker: its first line, cut after 60 characters.
#[inline(never)]
fn json_marker<'a>(s: &'a str, at: usize, closes: &text::Closes) -> Cow<'a, str> {
    let le = closes.line_end(s, at);
    let first_line = s[at..le.max(at)].trim_end();
    match first_line.char_indices().nth(60) {
        Some((i, _)) => Cow::Owned(format!("{}…", &first_line[..i])),
        None => Cow::Borrowed(first_line),
    }
}

/// Calls written one after another in `s[p..to]`, separated by the block's separators: the
/// calls, where the last ended, and whether everything up to `to` was read. With `mapped`, each
/// call is mapped as it is read, its result kept there (the block's [`Found::mapped`], so
/// none is mapped twice), and the reading stops after the first call that does not map: the
/// block is refused whatever follows in it, and the emission stays as written
/// (§native-tool-call-receipt), so a turn of many unknown-tool lines reads one.
fn sequence_in<'a>(
    ctx: &Ctx,
    s: &'a str,
    p: usize,
    to: usize,
    bi: usize,
    closed: bool,
    mut mapped: Option<&mut Vec<Result<map::Mapped<'a>, Taught>>>,
) -> Option<(Vec<Call<'a>>, usize, bool)> {
    let b = &ctx.c.blocks[bi];
    let mut calls = Vec::new();
    let mut q = p;
    let mut end = p;
    loop {
        let at = skip_ws(s, q, to);
        if at >= to {
            return (!calls.is_empty()).then_some((calls, end, true));
        }
        if !calls.is_empty() {
            if let Some(e) = b.separators.at(s, at, to) {
                q = e;
                continue;
            }
            if b.recovery.stray_closers {
                if let Some(e) = closing_tag_at(s, at, to) {
                    q = e;
                    end = e;
                    continue;
                }
            }
        }
        match b.forms.iter().find_map(|f| forms::read(f, s, at, to, closed, &b.recovery, &ctx.closes)) {
            Some((mut got, e)) => {
                let mut stop = false;
                if let Some(mapped) = mapped.as_deref_mut() {
                    for c in &got {
                        let m = map::map(c, ctx.rules, ctx.registry, ctx.params, &ctx.c.keys);
                        stop = m.is_err();
                        mapped.push(m);
                        if stop {
                            break;
                        }
                    }
                }
                calls.append(&mut got);
                end = e;
                q = e.max(at + 1);
                if stop {
                    return Some((calls, end, false));
                }
            }
            None => return (!calls.is_empty()).then_some((calls, end, false)),
        }
    }
}

/// The 0-based line of a byte, counted from the byte last asked about: the rewrite asks in
/// order, so it crosses the emission once and only up to its last block (no table of line
/// starts is built).
struct LineAt<'s> {
    b: &'s [u8],
    pos: usize,
    line: usize,
}

impl LineAt<'_> {
    /// The number of line breaks before byte `p`.
    fn of(&mut self, p: usize) -> usize {
        let p = p.min(self.b.len());
        if p >= self.pos {
            self.line += count_nl(&self.b[self.pos..p]);
        } else {
            self.line -= count_nl(&self.b[p..self.pos]);
        }
        self.pos = p;
        self.line
    }
}

/// The line breaks in `b`.
fn count_nl(b: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', b).count()
}

fn push_ticks(out: &mut String, width: usize) {
    for _ in 0..width {
        out.push('`');
    }
}

#[cold]
#[inline(never)]
fn push_one_line(out: &mut String, t: &str) {
    out.push_str(&t.replace(['\r', '\n'], " "));
}

/// The emission with each block replaced by its calls' fenced statements. A statement's heading
/// takes its call's line when the lines before it allow; text after a block keeps its line.
fn rewrite(input: &str, found: &[Found]) -> (String, Vec<SourceCopy>) {
    // Line breaks are found and counted by memchr.
    let mut lines = LineAt { b: input.as_bytes(), pos: 0, line: 0 };
    let mut out = String::with_capacity(input.len() + 64);
    let mut copies = Vec::with_capacity(found.len() + 1);
    let mut cur = 0usize;
    let mut src = 0usize;
    for b in found {
        let pre = &input[src..b.start];
        copies.push(SourceCopy { out: out.len(), src, len: pre.len() });
        out.push_str(pre);
        cur += count_nl(pre.as_bytes());
        let tail_start = out.rfind('\n').map(|i| i + 1).unwrap_or(0);
        if out[tail_start..].trim().is_empty() {
            out.truncate(tail_start);
            if let Some(c) = copies.last_mut() {
                c.len = c.len.min(out.len().saturating_sub(c.out));
            }
        } else {
            out.push('\n');
            cur += 1;
        }
        for (call, st) in b.calls.iter().zip(b.mapped.iter().filter_map(|m| m.as_ref().ok())) {
            let want = lines.of(call.anchor);
            while cur < want {
                out.push('\n');
                cur += 1;
            }
            let body = st.body.as_deref().unwrap_or("");
            let mut width = 4;
            for line in body.lines() {
                let run = line.trim_start().bytes().take_while(|&c| c == b'`').count();
                width = width.max(run + 1);
            }
            push_ticks(&mut out, width);
            // Nearly every heading is one line: it is copied, not rebuilt.
            if memchr::memchr2(b'\r', b'\n', st.heading.as_bytes()).is_some() {
                push_one_line(&mut out, &st.heading);
            } else {
                out.push_str(&st.heading);
            }
            out.push('\n');
            cur += 1;
            if !body.is_empty() {
                out.push_str(body);
                out.push('\n');
                cur += count_nl(body.as_bytes()) + 1;
            }
            push_ticks(&mut out, width);
            out.push('\n');
            cur += 1;
        }
        let end = b.end.min(input.len());
        let last = lines.of(end);
        // Whether only blanks follow the block on its line, read up to the first other byte (a
        // line of many inline blocks is not crossed to its end once a block).
        let ib = input.as_bytes();
        let le = end + input[end..].find(|c: char| c == '\n' || !c.is_whitespace()).unwrap_or(input.len() - end);
        if le >= ib.len() || ib[le] == b'\n' {
            while cur <= last {
                out.push('\n');
                cur += 1;
            }
            src = if le < input.len() { le + 1 } else { input.len() };
        } else {
            while cur < last {
                out.push('\n');
                cur += 1;
            }
            src = end;
        }
    }
    copies.push(SourceCopy { out: out.len(), src, len: input.len() - src });
    out.push_str(&input[src..]);
    (out, copies)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Native emissions of several families, read, refused and mixed with prose and JSON.
    pub(super) const SAMPLES: &[&str] = &[
        "hello world\n",
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"READ\">\n<｜｜DSML｜｜ parameter name=\"path\" string=\"true\">Engine.ts</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"sh\">\n<｜DSML｜parameter name=\"command\" string=\"true\">ls -la</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"FROB\">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        "Intro [a link](x) and {braces}.\n{\"path\":\"worker:///a.md\",\"logTokens\":4}\n[{\"op\":\"READ\",\"path\":\"a.md\"}]\n{\"name\": \"sh\", \"arguments\": {\"command\": \"ls\"}}\n",
        "<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}\n</tool_call>\n<tool_call>{\"name\": \"nope\"}</tool_call>",
        "<function_calls>\n<invoke name=\"WAIT\">\n</invoke>\n<invoke name=\"READ\">\n<parameter name=\"path\">b.md</parameter>\n</invoke>\n</function_calls>\n",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"a.md\"}<|tool_call_end|><|tool_calls_section_end|>",
        "[TOOL_CALLS][{\"name\": \"READ\", \"arguments\": {\"path\": \"a\"}}, {\"name\": \"ZAP\", \"arguments\": {}}]",
        "<|python_tag|>{\"name\": \"sh\", \"parameters\": {\"command\": \"ls\"}}<|eom_id|>",
        "```\n<tool_call>{\"name\": \"READ\"}</tool_call>\n```\n<ops><read path=\"a.md\"/><op verb=\"FIND\" path=\"src\"/></ops>\n",
        "<function_calls>\n<invoke name=\"EDIT\">\n<parameter name=\"path\">a.md</parameter>\n<parameter name=\"old\">x</parameter>\n<parameter name=\"new\">y\n</invoke>\n<invoke name=\"sh\"><parameter name=\"command\">ls</parameter><parameter>-la</parameter></invoke><invoke name=\"WAIT\"/>\n</function_calls>",
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"READ\">\n<｜DSML｜parameter name=\"path\">a</｜DSML｜parameter>\n<｜DSML｜parameter name=\"scope\">1,2\n<｜DSML｜invoke name=\"sh\">\n<｜DSML｜parameter name=\"command\">ls</｜DSML｜parameter>\n",
        "{\"unclosed\": [1, 2,\n<invoke name=\"READ\"><parameter name=\"path\">c</parameter></invoke>",
    ];

    /// §quotation: the byte search for quotation fences finds what walking every line finds,
    /// from every start and up to every bound, for fences of both kinds, indented or not.
    #[test]
    fn quotation_fence_search_agrees_with_the_line_walk() {
        const PIECES: &[&str] = &["```", "~~~", "`", "~", "````", " ", "   ", "    ", "\n", "\r\n", "x", "\t", "é", "```x`", "<tool_call>"];
        let check = |s: &str| {
            for pos in (0..=s.len()).filter(|&p| s.is_char_boundary(p)) {
                for to in (pos..=s.len()).filter(|&p| s.is_char_boundary(p)) {
                    assert_eq!(next_quotation(s, pos, to), next_quotation_by_lines(s, pos, to), "{s:?} {pos}..{to}");
                }
            }
            // A scan's searches from rising starts up to one bound, what each learnt kept.
            for to in (0..=s.len()).filter(|&p| s.is_char_boundary(p)) {
                let mut kept = Unclosed::default();
                for pos in (0..=to).filter(|&p| s.is_char_boundary(p)) {
                    let got = next_quotation_kept(s, pos, to, &mut kept);
                    assert_eq!(got, next_quotation_by_lines(s, pos, to), "{s:?} {pos}..{to} (kept)");
                }
            }
        };
        for s in SAMPLES {
            check(s);
            check_upto(s);
        }
        bolero::check!().with_type::<Vec<u8>>().with_iterations(3_000).with_max_len(12).for_each(|bytes: &Vec<u8>| {
            let s: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            check(&s);
            check_upto(&s);
        });
    }

    /// A search bounded to the lines starting up to `upto` finds the quotation the line walk
    /// finds when it opens there, else names a resume point no quotation opens before; carried
    /// as a scan carries it (`clear`), it agrees with the walk at every start.
    fn check_upto(s: &str) {
        let bounds = || (0..=s.len()).filter(|&p| s.is_char_boundary(p));
        for to in bounds() {
            for upto in bounds().filter(|&u| u <= to) {
                for pos in bounds().filter(|&p| p <= upto) {
                    let walk = next_quotation_by_lines(s, pos, to);
                    match next_quotation_upto(s, pos, upto, to, &mut Unclosed::default()) {
                        Ok(q) => assert_eq!(Some(q), walk, "{s:?} {pos}..={upto} ({to})"),
                        Err(r) => {
                            assert!(r > upto.min(to.saturating_sub(1)) || r == to, "{s:?} {pos}..={upto} ({to}): resume {r}");
                            assert!(walk.is_none_or(|q| q.0 >= r), "{s:?} {pos}..={upto} ({to}): resume {r} past {walk:?}");
                        }
                    }
                }
            }
            // Rising starts and bounds with one memo and one resume point, as `scan` asks.
            for step in 1..4 {
                let (mut kept, mut clear) = (Unclosed::default(), 0);
                for pos in bounds().filter(|&p| p <= to) {
                    let upto = (pos + step).min(to);
                    let walk = next_quotation_by_lines(s, pos, to).filter(|q| q.0 <= upto);
                    let got = if clear > upto {
                        None
                    } else {
                        match next_quotation_upto(s, pos.max(clear), upto, to, &mut kept) {
                            Ok(q) => Some(q),
                            Err(r) => {
                                clear = r;
                                None
                            }
                        }
                    };
                    assert_eq!(got, walk, "{s:?} {pos}..={upto} ({to}), carried");
                }
            }
        }
    }

    /// The JSON gate's memo in a context ([`Ctx::unnamed_openings`]).
    fn json_gate<'x>(ctx: &'x Ctx) -> &'x std::cell::Cell<Option<bool>> {
        &ctx.json_named
    }

    /// The Python-literal gate's memo in a context ([`Ctx::python_unnamed`]).
    fn python_gate<'x>(ctx: &'x Ctx) -> &'x std::cell::Cell<Option<bool>> {
        &ctx.python_named
    }

    /// Scans each sample with a gate (`gate` picks its memo) as it runs, and with the gate told
    /// the emission may name a call, so every value is read as before: both find the same blocks
    /// and draw the same receipt, which `receipt_in` draws too. Gives how many samples the gate
    /// closed, how many of those still held a block (markup after the passed values), and how
    /// many it left open that held one.
    fn gate_agrees(extra: &[&str], gate: for<'x> fn(&'x Ctx) -> &'x std::cell::Cell<Option<bool>>) -> (usize, usize, usize) {
        let rules = Rules::builtin();
        let registry = Registry::new(rules, None);
        compile::with(rules, |c| {
            let params = c.params.as_ref().unwrap();
            let (mut closed, mut closed_found, mut open_found) = (0, 0, 0);
            for s in SAMPLES.iter().chain(extra) {
                let fast = Ctx::new(c, rules, &registry, params, s);
                let each = Ctx::new(c, rules, &registry, params, s);
                gate(&each).set(Some(true));
                let spans = |b: Vec<Found>| b.iter().map(|b| (b.start, b.end, b.calls.len())).collect::<Vec<_>>();
                let got = spans(scan(&fast, s, 0, s.len(), Until::All));
                assert_eq!(got, spans(scan(&each, s, 0, s.len(), Until::All)), "{s}");
                let first = |ctx: &Ctx| scan(ctx, s, 0, s.len(), Until::First).first().map(|b| receipt_of(ctx, s, b));
                assert_eq!(first(&fast), first(&each), "{s}");
                assert_eq!(receipt_in(s, [(0, s.len())], rules, &registry), first(&each), "{s}");
                let shut = gate(&fast).get() == Some(false);
                closed += usize::from(shut);
                closed_found += usize::from(shut && !got.is_empty());
                open_found += usize::from(!shut && !got.is_empty());
            }
            (closed, closed_found, open_found)
        })
    }

    /// §native-tool-calls: a line-start list or dict read only as Python literal calls opens no
    /// block when the emission quotes no JSON family's name key in any case (nor writes a
    /// backslash to spell one), so facts lines and data in prose are not read as literals; the
    /// scan finds every block the scan that reads each of them finds, and the same receipt.
    #[test]
    fn native_tool_calls_python_literals_naming_nothing_are_refused_unread() {
        let extra: &[&str] = &[
            "{\"path\":\"worker:///a.md\",\"lines\":3}\n[{'x': True, 'y': None}]\n<tool_call>READ (a.md)</tool_call>",
            "[{'path': 'dir]/a.md'}, {'q': (1, 2)}]\r\n{'k': 'ü'}\r\n",
            "[{'name': 'READ', 'arguments': {'path': 'a.md'}}]",
            "[{'Name': 'READ', 'Arguments': {'path': 'a.md'}}]",
            "[{'n\\x61me': 'READ', 'arguments': {'path': 'a.md'}}]",
            "\t[{'tool': 'sh'}]\n[{\"name\": \"frobnicate\", \"arguments\": {}}]",
            "Rename the file: its name is [{'path': 'a.md'}] now, r'name unquoted",
            "[{r'name': 'READ', 'arguments': {'path': 'a.md'}}]\n[{'''name''': 'FIND'}]",
        ];
        compile::with(Rules::builtin(), |c| {
            assert!(c.blocks.iter().any(|b| b.python_only), "a built-in family reads Python literal calls alone")
        });
        let (passed, _, found) = gate_agrees(extra, python_gate);
        assert!(passed >= 2 && found >= 1, "literals passed unread ({passed}), and read where a key is quoted ({found})");
    }

    /// §native-tool-calls: JSON in prose and code opens no block when the emission quotes no
    /// JSON family's name key, so the scan passes its `{` and `[` by; it finds every block the
    /// scan that reads each value finds, markup after such JSON included, and the same receipt.
    #[test]
    fn native_tool_calls_scan_past_json_naming_nothing_finds_what_reading_each_value_finds() {
        let extra: &[&str] = &[
            "Logged {\"path\":\"worker:///a.md\",\"logTokens\":4} then\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"READ\">\n<｜DSML｜parameter name=\"path\">a</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
            "[1, 2] and {\"a\": [3]}\n<function_calls>\n<invoke name=\"WAIT\">\n</invoke>\n</function_calls>\n[TOOL_CALLS]",
            "```json\n{\"query\": \"x\"}\n```\n<tool_call>READ (a.md)</tool_call>",
            "{\"unclosed\": [1, 2,\n<invoke name=\"READ\"><parameter name=\"path\">c</parameter></invoke>",
            "{\"eof\": true} and [\"a\",\"b\"] with {\"Name\": \"sh\"}",
            "{\"cmd\": \"ls\"} {\"ACTION\": \"READ\"}",
            "{\"path\": \"a\\\\b\"} {\"x\": 1}\n<tool_call>READ (a.md)</tool_call>",
            "{\"n\\u0061me\": \"READ\", \"arguments\": {\"path\": \"a\"}}",
            "grep -E \"a\\|b\" and {\"op\\u0020\": 1} then [{\"na\\/me\": \"READ\"}]",
        ];
        compile::with(Rules::builtin(), |c| {
            assert!(c.unnamed.is_some(), "the built-in families drop the JSON openings from the unnamed scanner")
        });
        let (passed, found, _) = gate_agrees(extra, json_gate);
        assert!(passed >= 4 && found >= 3, "the samples pass JSON by ({passed}), and find markup after it ({found})");
    }

    /// §native-tool-calls: a JSON value may name a call only where a name key stands quoted as
    /// written or a `\u` escape may spell one; other escapes spell no key, unless a key holds a
    /// byte they write. Over JSON-like text, any object key a JSON reading finds equal to a name
    /// key (in any case) is seen.
    #[test]
    fn native_tool_calls_json_names_a_call_only_through_quoted_keys_or_unicode_escapes() {
        let keys = |ks: &[&str]| ks.iter().map(|k| k.to_string()).collect::<Vec<String>>();
        let rows: &[(&[&str], &str, bool)] = &[
            (&["name"], r#"{"path": "a\\b", "x": "\n"} grep -E "a\|b""#, false),
            (&["name"], r#"{"NAME": "READ"}"#, true),
            (&["name"], r#"{"n\u0061me": "READ"}"#, true),
            (&["name"], r#"{"name : 1} {"nam" "e"}"#, false),
            (&["name"], "no json at all", false),
            (&["tool/name"], r#"{"tool\/name": "READ"}"#, true),
            (&["tool/name"], r#"{"x": "a\\b"}"#, true),
            (&["op", "cmd"], r#"{"Cmd": "ls"}"#, true),
        ];
        for (ks, s, named) in rows {
            assert_eq!(forms::may_name_anywhere(&keys(ks), s), *named, "{s}");
        }
        let names = keys(&["name", "op", "tool/name"]);
        fn has_key(v: &Value, names: &[String]) -> bool {
            match v {
                Value::Object(m) => m.iter().any(|(k, v)| names.iter().any(|n| n.eq_ignore_ascii_case(k)) || has_key(v, names)),
                Value::Array(a) => a.iter().any(|v| has_key(v, names)),
                _ => false,
            }
        }
        // Objects whose keys are built of pieces of keys, escapes among them.
        const PIECES: &[&str] = &[
            "name", "NaMe", "op", "n", "ame", "na", "me", "\\u0061", "\\u006E", "\\u006e", "\\n", "\\\\", "\\/", "tool", "/", "x", "O", "p",
        ];
        let mut named = 0;
        bolero::check!().with_type::<Vec<u8>>().with_iterations(30_000).with_max_len(12).for_each(|bytes: &Vec<u8>| {
            let keys: Vec<String> = bytes.chunks(3).map(|c| c.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect()).collect();
            let fields: Vec<String> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| if i % 2 == 0 { format!("\"{k}\": 1") } else { format!("\"x\": [{{\"{k}\": \"v\"}}]") })
                .collect();
            let s = format!("{{{}}}", fields.join(", "));
            let v: Value = serde_json::from_str(&s).expect("the pieces write JSON");
            // With a key an escape other than `\u` may spell, and with keys none may.
            for keys in [&names[..], &names[..2]] {
                if has_key(&v, keys) {
                    named += 1;
                    assert!(forms::may_name_anywhere(keys, &s), "{s} {keys:?}");
                }
            }
        });
        assert!(named > 20, "the pieces make named objects ({named})");
    }

    /// §native-tool-calls: the name-key search over quote masks answers what the byte loop
    /// answers, for values across 64-byte chunks, keys in any case, escapes, and keys too long
    /// for a mask.
    #[test]
    fn native_tool_calls_name_key_search_agrees_with_the_byte_loop() {
        let keys: Vec<String> = ["name", "op", "action", "cmd", &"k".repeat(70)].iter().map(|k| k.to_string()).collect();
        const PIECES: &[&str] = &[
            "\"",
            "name",
            "NaMe",
            "op",
            "cmd",
            "action",
            "x",
            " ",
            ": ",
            "{",
            "}",
            "\\",
            "é",
            "kkkkkkkkkk",
            "\"\"",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "'",
        ];
        bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(160).for_each(|bytes: &Vec<u8>| {
            let v: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            for (n, any_case) in [(4, true), (4, false), (5, true), (1, false)] {
                assert_eq!(
                    forms::may_name(&keys[..n], any_case, &v),
                    forms::may_name_by_bytes(&keys[..n], any_case, &v),
                    "{v:?} {n} {any_case}"
                );
            }
            // The Python gate after the JSON gate's answer reads only single quotes, and
            // answers what it answers alone.
            for n in [4, 5] {
                let json = forms::may_name_anywhere(&keys[..n], &v);
                assert_eq!(forms::may_name_python_after(&keys[..n], &v, json), forms::may_name_python(&keys[..n], &v), "{v:?} {n}");
            }
        });
    }

    /// §native-tool-call-receipt: `read_then` hands `accept` the rewrite `read` gives, and when
    /// `accept` refuses it (or there is none) gives `read`'s receipt.
    #[test]
    fn native_tool_calls_read_then_agrees_with_read() {
        let rules = Rules::builtin();
        let registry = Registry::new(rules, None);
        let mut rewritten = 0;
        for s in SAMPLES {
            let r = read(s, rules, &registry);
            rewritten += r.rewritten.is_some() as usize;
            let mut seen = None;
            let refused: Result<(), _> = read_then(s, rules, &registry, |t, copies| {
                // Each copy is the input's bytes, in order.
                for c in copies {
                    assert_eq!(&t[c.out..c.out + c.len], &s[c.src..c.src + c.len], "{s}");
                }
                seen = Some(t.to_string());
                None
            });
            assert_eq!(seen, r.rewritten, "{s}");
            assert_eq!(refused, Err(r.receipt.clone()), "{s}");
            let taken = read_then(s, rules, &registry, |t, _| Some(t.to_string()));
            match &r.rewritten {
                Some(t) => assert_eq!(taken.as_ref(), Ok(t), "{s}"),
                None => assert_eq!(taken, Err(r.receipt), "{s}"),
            }
        }
        assert!(rewritten > 2, "the samples rewrite ({rewritten})");
    }

    /// The kept map results are what mapping each call again gives, and a receipt drawn from
    /// them is the receipt drawn with none kept.
    #[test]
    fn native_tool_calls_kept_map_results_agree_with_mapping_again() {
        let rules = Rules::builtin();
        let registry = Registry::new(rules, None);
        compile::with(rules, |c| {
            let params = c.params.as_ref().unwrap();
            let mut kept = 0;
            for s in SAMPLES {
                let ctx = Ctx::new(c, rules, &registry, params, s);
                let all = scan(&ctx, s, 0, s.len(), Until::All);
                assert_eq!(
                    scan(&ctx, s, 0, s.len(), Until::First).first().map(|b| (b.start, b.end)),
                    all.first().map(|b| (b.start, b.end)),
                    "{s}"
                );
                for b in all {
                    for (call, m) in b.calls.iter().zip(&b.mapped) {
                        assert_eq!(*m, map::map(call, rules, &registry, params, &c.keys), "{s}");
                        kept += 1;
                    }
                    let mut bare = b.clone();
                    bare.mapped.clear();
                    assert_eq!(receipt_of(&ctx, s, &b), receipt_of(&ctx, s, &bare), "{s}");
                }
            }
            assert!(kept > 5, "the samples keep map results ({kept})");
        });
    }
}
