//! Statement building: a region's heading slots and body become statements under the operation
//! table (§op-shapes), with the refusals of §14 and the advisories of the tolerance rules.
//!
//! Every per-operation fact comes from the operation's row; this module never names an
//! operation.
//!
//! This module reads a region's heading line into its selections (§slot-order) and hands them to
//! `operation`, which makes an executor's statement or a native operation's under its row,
//! reading the slots through `slots` and the heading's text after them through `text`. `plain`
//! builds the plain headings most turns write, without the general lexer, to the same statements.

use std::borrow::Cow;

use crate::ast::*;
use crate::diagnose::make;
use crate::heading::{self, LexStop, Lexed, Segment, Tok};
use crate::options::Entry;
use crate::pair::regions::{End, Form, OpRegion};
use crate::rules::model::{BodyKind, InlineText, LeadingMetadata, Operands, Operation, ScopeDomain, Shape, Tier};
use crate::rules::{DiagId, Rules};
use crate::scan::{Classifier, Line, Named};
use crate::small::Small;
use crate::{scope, target};

mod operation;
mod plain;
mod slots;
mod text;

use operation::{executor, operation};
use slots::{leading_metadata, malformed};

/// Everything a statement builder reads.
pub struct Ctx<'a, 'c> {
    pub input: &'a str,
    pub lines: &'c [Line],
    pub rules: &'c Rules,
    pub cls: &'c Classifier<'c>,
    pub entry: Entry,
    /// Vectors lent to each region and statement and handed back (kept per thread with the
    /// workspace): a heading's segments and tokens allocate nothing after the first parse.
    pub scratch: &'c Scratch,
    /// The heading splits the scan kept (a line not kept is split again here).
    pub heads: &'c heading::SegmentCache,
}

/// See [`Ctx::scratch`]. Each vector is taken out of its cell while in use and put back after,
/// so a nested use (none today) would get a fresh one rather than a shared one.
#[derive(Default)]
pub struct Scratch {
    lexed: std::cell::Cell<Lexed>,
    sels: std::cell::Cell<Vec<Sel>>,
    /// The columns of the long lines asked about, counted once however positions on them are
    /// asked for (a line of many statements, §one-line-turn); emptied for each context.
    columns: std::cell::RefCell<crate::scan::ColumnMemo>,
}

/// A selection's option blocks with `pattern` lifted out (§matcher-option).
type Lifted = (Option<Vec<String>>, Option<String>);

/// Takes a lent vector, empty.
fn lend<T>(cell: &std::cell::Cell<Vec<T>>) -> Vec<T> {
    let mut v = cell.take();
    v.clear();
    v
}

/// Items in emission order (the driver orders them by position), and the boundary loss.
#[derive(Default)]
pub struct Out<'a> {
    pub items: Vec<Item<'a>>,
    pub tail: Option<UnparsedTail>,
}

impl<'a, 'c> Ctx<'a, 'c> {
    /// A context over `input`, whose line table (`scan::lines_into(input)`) is `lines`.
    #[inline]
    pub fn new(
        input: &'a str,
        lines: &'c [Line],
        rules: &'c Rules,
        cls: &'c Classifier<'c>,
        entry: Entry,
        scratch: &'c Scratch,
        heads: &'c heading::SegmentCache,
    ) -> Self {
        scratch.columns.borrow_mut().clear();
        Ctx { input, lines, rules, cls, entry, scratch, heads }
    }
    /// Line `i`'s text, without its line ending. Every statement asks for its heading line, and
    /// the checked slice was an out-of-line call each time.
    #[inline]
    pub fn line_text(&self, i: u32) -> &'a str {
        let l = self.lines[i as usize];
        assert!(l.start <= l.end && l.end <= self.input.len());
        debug_assert!(self.input.is_char_boundary(l.start) && self.input.is_char_boundary(l.end));
        // SAFETY: in bounds (checked above); `lines` is the input's line table (`Ctx::new`'s
        // callers pass `scan::lines_into(input)`), whose lines start after a `\n` (or at 0) and end
        // before `\r\n`, `\n` or at the input's end: ASCII bytes or the ends, character boundaries.
        unsafe { self.input.get_unchecked(l.start..l.end) }
    }
    #[inline]
    pub fn pos(&self, line: u32, byte: usize) -> Position {
        let text = self.line_text(line);
        let column = match crate::scan::ColumnMemo::short(text, byte) {
            Some(c) => c,
            None => self.scratch.columns.borrow_mut().column(line, text, byte),
        };
        Position { line: line + 1, column }
    }
    #[cold]
    #[inline(never)]
    fn working_form(&self, named: Named) -> String {
        match named {
            Named::Op(i) => self.rules.op_working_form(i),
            Named::Exec(e) => self.rules.exec_working_form(&self.cls.registry.names[e]),
        }
    }
    fn name_of(&self, named: Named) -> &str {
        match named {
            Named::Op(i) => &self.rules.op(i).name,
            Named::Exec(e) => &self.cls.registry.names[e],
        }
    }
    #[cold]
    #[inline(never)]
    fn text(&self, id: DiagId) -> String {
        self.rules.text(id, &[])
    }
}

/// Body bytes of a region: the span between the heading line and the block's end, less one
/// terminating line ending (§closer-fallback, §whitespace-contract). Returns the span and its
/// first and last line indexes.
fn body_span(ctx: &Ctx<'_, '_>, r: &OpRegion) -> Option<(usize, usize, u32, u32)> {
    let n = ctx.lines.len() as u32;
    let from = r.head_line + 1;
    let end_line = match r.end {
        End::Compact => return None,
        End::Closer { line, .. } | End::Heading { line } | End::Name { line } => line,
        End::Eof => n,
    };
    if from >= end_line || from >= n {
        return None;
    }
    let start = ctx.lines[from as usize].start;
    let mut end = if end_line < n { ctx.lines[end_line as usize].start } else { ctx.input.len() };
    let b = ctx.input.as_bytes();
    if end > start && b[end - 1] == b'\n' {
        end -= 1;
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
    }
    let mut last = end_line - 1;
    // The last line index holding body bytes.
    while last > from && ctx.lines[last as usize].start > end {
        last -= 1;
    }
    Some((start, end, from, last))
}

/// Where a selection's target text comes from.
#[derive(Debug, Clone, Copy)]
enum TSrc {
    /// A `(path)` slot, inner byte range (escapes not yet decoded).
    Slot((usize, usize)),
    /// The log's `→ path` (§log-heading-notation).
    Arrow((usize, usize)),
}

#[derive(Debug, Clone, Copy, Default)]
struct ScopeTok {
    open: usize,
    inner: (usize, usize),
    closed: bool,
    /// A displayed line number glued before it (§combined-anchor-tolerance).
    lead: Option<usize>,
    /// Written without its brackets (§bare-anchor-scope); `inner` is the anchor text.
    bare: bool,
}

/// One resource selection as written: its target, scopes and option blocks (§slot-order).
#[derive(Debug, Default, Clone)]
struct Sel {
    target: Option<TSrc>,
    /// What the target's text holds, read once (§path-parentheses); `ANY` for none.
    marks: target::SlotMarks,
    /// One almost always (two are refused): inline, so a scoped heading allocates nothing.
    scopes: Small<ScopeTok, 1>,
    metas: Vec<String>,
    /// One member of an explicit URI list (§safe-uri-target-groups), replacing the slot text.
    member: Option<String>,
}

struct Heading<'l> {
    line: &'l str,
    line_no: u32,
    pre: Sel,
    sels: Vec<Sel>,
    /// Borrowed from the line when the heading's aside slot gives it (most asides).
    aside: Option<Cow<'l, str>>,
    arrows: Vec<(usize, (usize, usize))>,
    text: Option<(usize, usize)>,
}

enum Refusal {
    Error(Diagnostic),
    Tail(UnparsedTail),
}

/// Builds every statement of one region; `false` when the input's boundary was lost.
pub fn build_region<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, out: &mut Out<'a>) -> bool {
    let line_no = r.head_line;
    if line_no as usize >= ctx.lines.len() {
        return true;
    }
    let line = ctx.line_text(line_no);
    match r.form {
        Form::Fenced => match ctx.heads.get(line_no, r.fence_at, r.width) {
            Some(mut kept) => build_segments(ctx, r, &mut kept, out),
            // A line the scan did not keep is split again, a statement at a time.
            None => build_segments(ctx, r, &mut heading::Segments::new(ctx.cls, line, r.fence_at, r.width, None), out),
        },
        Form::Naked(op) => build_segments(ctx, r, &mut Some(synthetic(ctx, line, Named::Op(op))), out),
        Form::Forgotten(named) => build_segments(ctx, r, &mut Some(synthetic(ctx, line, named)), out),
    }
}

/// Builds the statements of heading segments `segs`, in line order (kept by the scan, or read
/// one at a time): each looks ahead at where the next opens (whether it is the last, and a
/// closer glued to that opener), so no table of the line's segments is needed.
fn build_segments<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, segs: &mut impl heading::SegmentSource, out: &mut Out<'a>) -> bool {
    let line_no = r.head_line;
    let body = body_span(ctx, r);
    // Where the closer glued to this statement's opener starts, read off the one before.
    let mut glued: Option<usize> = None;
    let mut k = 0usize;
    while let Some(seg) = segs.next_segment() {
        let seg = &seg;
        let upcoming = segs.upcoming();
        crate::work::add(crate::work::Stage::Build, seg.end.saturating_sub(seg.fence_at) + 1);
        let last = upcoming.is_none();
        let position = match r.form {
            Form::Fenced if k == 0 => ctx.pos(line_no, r.pos_at),
            // A closer glued to this opener (§inline-chain): the statement's position is the
            // run's first backtick, as on a body's closing line.
            Form::Fenced => ctx.pos(line_no, glued.unwrap_or(seg.fence_at)),
            Form::Naked(_) => Position { line: line_no + 1, column: 0 },
            Form::Forgotten(_) => ctx.pos(r.start_line, r.fence_at),
        };
        let seg_body = if last { body } else { None };
        // Written straight into the result: a statement's items are never copied.
        let start = out.items.len();
        match statement(ctx, r, seg, position, seg_body, &mut out.items) {
            Ok(()) => {
                // Receipts of the framing that read this statement (§naked-operation, §forgotten-tag).
                let receipt = match r.form {
                    Form::Naked(op) if ctx.rules.op(op).tier == Tier::Protocol => Some((DiagId::NakedOperation, seg.named)),
                    Form::Forgotten(named) => Some((DiagId::ForgottenTag, named)),
                    _ => None,
                };
                if let Some((id, named)) = receipt {
                    let stmt_count = out.items[start..].iter().take_while(|i| matches!(i, Item::Statement(_))).count();
                    let e = make(ctx.rules, id, position, &[("op", ctx.name_of(named))], None);
                    out.items.insert(start + stmt_count, Item::Error(e));
                }
            }
            Err(Refusal::Error(e)) => out.items.push(Item::Error(with_attempt(ctx, r, seg, k, last, e))),
            Err(Refusal::Tail(t)) => {
                out.tail = Some(t);
                return false;
            }
        }
        glued = upcoming.and_then(|n| seg.closers.iter().find(|&&(_, e)| e == n).map(|&(s, _)| s));
        k += 1;
    }
    true
}

/// The one statement of a clean turn's fenced region (§fence-pairing's clean shape): its
/// heading is `seg`, the whole line. `false` when the statement's refusal reaches past it (the
/// closer, the tier or the boundary): the general path then reads the turn.
#[inline]
pub(crate) fn clean_statement<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, seg: &Segment, out: &mut Vec<Item<'a>>) -> bool {
    let position = ctx.pos(r.head_line, r.pos_at);
    match statement(ctx, r, seg, position, body_span(ctx, r), out) {
        Ok(()) => true,
        Err(Refusal::Error(e)) => {
            out.push(Item::Error(with_attempt(ctx, r, seg, 0, true, e)));
            true
        }
        Err(_) => false,
    }
}

/// §parse-attempt: hard fact `e`, which refused the statement of segment `seg` (the `k`th of its
/// heading line, `last` when no other follows it there), carries that statement's text exactly
/// as written: from the first backtick of its header (the bare fence above a forgotten tag, the
/// name of a naked operation) to the end of its block — through its closing fence's backticks
/// when it has one; else the span less one terminating line ending (§closer-fallback); a
/// statement sharing its heading line with the next ends where that one's opener begins, and
/// one closed on its heading line ends with that line. Trailing blanks are not part of it.
#[cold]
#[inline(never)]
fn with_attempt(ctx: &Ctx<'_, '_>, r: &OpRegion, seg: &Segment, k: usize, last: bool, mut e: Diagnostic) -> Diagnostic {
    let lines = ctx.lines;
    let head = lines[r.head_line as usize];
    let start = match r.form {
        Form::Fenced if k == 0 => head.start + r.pos_at,
        Form::Fenced => head.start + seg.fence_at,
        Form::Forgotten(_) => lines[r.start_line as usize].start + r.fence_at,
        Form::Naked(_) => head.start,
    };
    let end = if !last {
        head.start + seg.end
    } else {
        match r.end {
            End::Compact => head.end,
            End::Closer { line, width } => {
                let l = lines[line as usize];
                let indent = ctx.input[l.start..l.end].bytes().take_while(|&b| b == b' ').count();
                (l.start + indent + width as usize).min(l.end)
            }
            End::Name { line } => lines[line as usize].end,
            End::Heading { .. } | End::Eof => body_span(ctx, r).map_or(head.end, |(_, end, _, _)| end),
        }
    };
    let text = ctx.input[start..end.max(start)].trim_end_matches([' ', '\t']);
    if !text.is_empty() {
        e.attempt = Some(text.to_string());
    }
    e
}

fn synthetic(ctx: &Ctx<'_, '_>, line: &str, named: Named) -> Segment {
    let end = ctx.cls.name_end(line.as_bytes(), 0);
    Segment { fence_at: 0, width: 0, named, name: (0, end), end: line.len(), closers: crate::small::Small::new(), closed: false }
}

fn statement<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    seg: &Segment,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), Refusal> {
    // Most headings are plain: read and built without the general lexer and builder.
    if let Some(built) = plain::statement(ctx, r, seg, position, body, out) {
        return built;
    }
    let mut lexed = ctx.scratch.lexed.take();
    heading::lex_into(ctx.line_text(r.head_line), seg.name.1, seg, &ctx.rules.zero_width, &ctx.rules.tables.notation, &mut lexed);
    let result = statement_lexed(ctx, r, seg, &lexed, position, body, out);
    ctx.scratch.lexed.set(lexed);
    result
}

fn statement_lexed<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    seg: &Segment,
    lexed: &Lexed,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), Refusal> {
    let rules = ctx.rules;
    let line_no = r.head_line;
    let line = ctx.line_text(line_no);
    let notation = &rules.tables.notation;
    let named = seg.named;
    let op: Option<&Operation> = match named {
        Named::Op(i) => Some(rules.op(i)),
        Named::Exec(_) => None,
    };
    let name = ctx.name_of(named);
    let wf = || Some(ctx.working_form(named));
    let client = ctx.entry == Entry::Client;
    let takes_body = op.map(|o| o.body != BodyKind::None).unwrap_or(true);
    let expected_end = || -> String {
        let id = match (takes_body, client) {
            (true, false) => DiagId::ExpectedHeadingEndBody,
            (true, true) => DiagId::ExpectedHeadingEndBodyClient,
            (false, false) => DiagId::ExpectedHeadingEnd,
            (false, true) => DiagId::ExpectedHeadingEndClient,
        };
        ctx.text(id)
    };
    let unexpected_error = |found: String, expected: String, at: usize| -> Diagnostic {
        make(rules, DiagId::UnexpectedToken, ctx.pos(line_no, at), &[("found", &found), ("expected", &expected)], wf())
    };
    let unexpected = |found: String, expected: String, at: usize| -> Refusal { Refusal::Error(unexpected_error(found, expected, at)) };
    let aside_text = |open: usize, inner: (usize, usize), closed: bool| &line[open..if closed { inner.1 + 3 } else { inner.1 }];

    // The client tier's heading in a protocol tier (§tier-entrypoints) is one bounded refusal:
    // its block is refused and every statement and text around it stands (§turn-shape).
    if op.is_some_and(|o| o.tier == Tier::Client) && !client {
        return Err(client_heading(ctx, line_no, seg.fence_at, named));
    }

    // Boundary loss and glued characters (§unparsed-tail-boundary, §error-shape).
    if let Some(stop) = &lexed.stop {
        return Err(lex_stop(ctx, line_no, seg, lexed, stop, op, named, position));
    }

    // Sort the tokens into selections (§slot-order).
    let operands = op.map(|o| o.operands).unwrap_or(Operands::Optional);
    let max_targets = match operands {
        Operands::None => 0,
        Operands::Optional | Operands::Required => 1,
        Operands::Two => 2,
        Operands::Group => usize::MAX,
    };
    let leading = leading_metadata(ctx, op);
    let mut h = Heading { line, line_no, pre: Sel::default(), sels: lend(&ctx.scratch.sels), aside: None, arrows: Vec::new(), text: None };
    let mut aside_tok: Option<(usize, (usize, usize), bool)> = None;
    let mut dots: Vec<(usize, (usize, usize))> = Vec::new();
    let mut leading_blocks = false;
    let mut notes_early: Vec<Diagnostic> = Vec::new();
    for tok in &lexed.toks {
        match *tok {
            Tok::Target { open, inner } | Tok::Arrow { at: open, path: inner } => {
                let arrow = matches!(tok, Tok::Arrow { .. });
                if !arrow && (aside_tok.is_some() || max_targets == 0 || (leading_blocks && leading == LeadingMetadata::Alone)) {
                    return Err(unexpected(ctx.text(DiagId::TokenPathOpen), expected_end(), open));
                }
                if h.sels.len() >= max_targets {
                    if op.is_none() {
                        return Err(Refusal::Error(make(rules, DiagId::ExecutorOnePath, position, &[("executor", name)], wf())));
                    }
                    return Err(unexpected(ctx.text(DiagId::TokenPathOpen), expected_end(), open));
                }
                if arrow {
                    h.arrows.push((open, inner));
                }
                // §scope-slot-tolerance: a `<…>` right before the slot's closing paren is the
                // scope; a `<` anywhere else in the slot is refused.
                let mut inner = inner;
                let mut slot_scope = None;
                let mut marks = target::SlotMarks::of(&line[inner.0..inner.1]);
                if !arrow && marks.has_lt() {
                    if let Some((st, note)) = scope_in_slot(ctx, line_no, inner, named)? {
                        notes_early.push(note);
                        inner = (inner.0, st.open);
                        marks = target::SlotMarks::of(&line[inner.0..inner.1]);
                        slot_scope = Some(st);
                    }
                }
                let mut sel = Sel { target: Some(if arrow { TSrc::Arrow(inner) } else { TSrc::Slot(inner) }), marks, ..Sel::default() };
                if let Some(st) = slot_scope {
                    sel.scopes.push(st);
                }
                if h.sels.is_empty() {
                    sel.scopes.append(&mut h.pre.scopes);
                    sel.metas.append(&mut h.pre.metas);
                }
                h.sels.push(sel);
            }
            Tok::Meta { open, inner } => {
                let block = &line[inner.0..inner.1];
                if aside_tok.is_some() && !is_json_array(&line[open..inner.1 + 1]) {
                    return Err(unexpected(ctx.text(DiagId::TokenMetadataOpen), expected_end(), open));
                }
                if h.sels.is_empty() {
                    if leading == LeadingMetadata::Refused || op.map(|o| !o.metadata).unwrap_or(false) {
                        return Err(Refusal::Error(make(
                            rules,
                            DiagId::UnrecognizedCharInOp,
                            ctx.pos(line_no, open),
                            &[("char", "["), ("op", name)],
                            wf(),
                        )));
                    }
                    leading_blocks = true;
                    h.pre.metas.push(block.to_string());
                } else {
                    h.sels.last_mut().unwrap().metas.push(block.to_string());
                }
            }
            Tok::Scope { open, inner, closed, lead } => {
                let st = ScopeTok { open, inner, closed, lead, bare: false };
                if h.sels.is_empty() {
                    if !h.pre.scopes.is_empty() {
                        // A malformed scope (the lexer's) is reported before the slot order's
                        // refusal of a second one (§error-shape).
                        let domain = op.map_or(rules.tables.executors.scope, |o| o.scope);
                        if !matches!(domain, ScopeDomain::None | ScopeDomain::Ignored) {
                            for s in h.pre.scopes.iter().chain([&st]) {
                                if let Some(e) = malformed(ctx, line, line_no, s, domain, name, named) {
                                    return Err(Refusal::Error(e));
                                }
                            }
                        }
                        return Err(unexpected(ctx.text(DiagId::TokenScope), expected_end(), open));
                    }
                    h.pre.scopes.push(st);
                } else {
                    h.sels.last_mut().unwrap().scopes.push(st);
                }
            }
            Tok::Aside { open, inner, closed } => {
                if aside_tok.is_some() {
                    return Err(unexpected(
                        rules.text(DiagId::TokenAside, &[("aside", aside_text(open, inner, closed))]),
                        expected_end(),
                        open,
                    ));
                }
                if operands == Operands::Two && h.sels.len() < 2 {
                    return Err(unexpected(
                        rules.text(DiagId::TokenAside, &[("aside", aside_text(open, inner, closed))]),
                        ctx.text(DiagId::ExpectedPathOpen),
                        open,
                    ));
                }
                aside_tok = Some((open, inner, closed));
            }
            Tok::Dot { at, text } => dots.push((at, text)),
            Tok::Text { start } => {
                // §heading-slot-order: a sigil matcher quoted in single backticks is that
                // matcher; any other backtick-quoted text is refused.
                let start = if line.as_bytes()[start] == b'`' {
                    match quoted_matcher(&line[start..seg.end]) {
                        Some(e) => {
                            h.text = Some((start + 1, start + e));
                            continue;
                        }
                        None => {
                            return Err(Refusal::Error(make(
                                rules,
                                DiagId::UnrecognizedChar,
                                ctx.pos(line_no, start),
                                &[("char", "`")],
                                wf(),
                            )))
                        }
                    }
                } else {
                    start
                };
                if operands == Operands::Two && h.sels.len() < 2 {
                    return Err(unexpected(ctx.text(DiagId::TokenHeadingEol), ctx.text(DiagId::ExpectedPathOpen), start));
                }
                h.text = Some((start, seg.end));
            }
        }
    }
    if operands == Operands::Two && h.sels.len() < 2 {
        if let Some(st) = h.pre.scopes.first() {
            return Err(unexpected(ctx.text(DiagId::TokenScope), ctx.text(DiagId::ExpectedPathOpen), st.open));
        }
        let (found, at) = match seg.closers.first() {
            None => (DiagId::TokenHeadingEol, line.len()),
            Some(c) => (DiagId::TokenCloser, c.0),
        };
        return Err(unexpected(ctx.text(found), ctx.text(DiagId::ExpectedPathOpen), at));
    }
    if h.sels.is_empty() && (!h.pre.scopes.is_empty() || !h.pre.metas.is_empty()) {
        h.sels.push(std::mem::take(&mut h.pre));
    }

    let mut notes: Vec<Diagnostic> = notes_early;
    if let Some((open, inner, closed)) = aside_tok {
        if !closed {
            notes.push(make(rules, DiagId::UnclosedAside, ctx.pos(line_no, open), &[], None));
        }
        h.aside = Some(Cow::Borrowed(line[inner.0..inner.1].trim()));
    }
    // The log's charge separator on the heading (§log-heading-notation).
    for (at, (ts, te)) in dots {
        let text = &line[ts..te];
        notation_piece(ctx, text, ctx.pos(line_no, at), &mut h.aside, &mut notes);
    }

    // The statements go straight to `out`; a refusal takes back any already written.
    let start = out.len();
    let built = match (op, named) {
        (Some(o), Named::Op(index)) => operation(ctx, r, o, index, name, &mut h, position, body, &mut notes, out),
        _ => executor(ctx, named, name, &mut h, position, body, &mut notes).map(|s| out.push(Item::Statement(s))),
    };
    if let Err(refusal) = built {
        out.truncate(start);
        return Err(refusal);
    }
    // §log-heading-notation: the arrow is named once, with the heading that runs.
    let first = match out.get(start) {
        Some(Item::Statement(s)) => Some(s),
        _ => None,
    };
    if let (Some(&(at, (ps, pe))), Some(first)) = (h.arrows.first(), first) {
        let canonical = crate::canonical::heading(first);
        notes.insert(
            0,
            make(
                rules,
                DiagId::LogAddress,
                ctx.pos(line_no, at),
                &[("arrow", &notation.address), ("path", &line[ps..pe]), ("canonical", &canonical)],
                None,
            ),
        );
    }
    if notes.capacity() != 0 {
        out.extend(notes.into_iter().map(Item::Error));
    } else {
        // Nothing noted, nothing allocated (most statements): no call to the drop glue.
        std::mem::forget(notes);
    }
    h.sels.clear();
    ctx.scratch.sels.set(h.sels);
    Ok(())
}

/// §tier-entrypoints: the client tier's heading in a protocol tier, refused.
#[cold]
#[inline(never)]
fn client_heading(ctx: &Ctx<'_, '_>, line_no: u32, fence_at: usize, named: Named) -> Refusal {
    let e = make(
        ctx.rules,
        DiagId::UnexpectedToken,
        ctx.pos(line_no, fence_at),
        &[("found", &ctx.text(DiagId::TokenClientHeader)), ("expected", &ctx.text(DiagId::ExpectedFenceHeader))],
        Some(ctx.working_form(named)),
    );
    Refusal::Error(e)
}

/// §unparsed-tail-boundary, §error-shape: the refusal of a heading whose lexer stopped early
/// (a glued character, a slot left open). Out of line: a statement that gets here is refused,
/// and the statements that read on need not carry its code.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn lex_stop(
    ctx: &Ctx<'_, '_>,
    line_no: u32,
    seg: &Segment,
    lexed: &Lexed,
    stop: &LexStop,
    op: Option<&Operation>,
    named: Named,
    position: Position,
) -> Refusal {
    let rules = ctx.rules;
    let line = ctx.line_text(line_no);
    let name = ctx.name_of(named);
    let wf = || Some(ctx.working_form(named));
    match stop {
        LexStop::Bad { at } => {
            let ch = line[*at..].chars().next().unwrap_or(' ').to_string();
            Refusal::Error(make(rules, DiagId::UnrecognizedChar, ctx.pos(line_no, *at), &[("char", &ch)], wf()))
        }
        LexStop::OpenTarget { open } | LexStop::OpenMeta { open } => {
            let is_target = matches!(stop, LexStop::OpenTarget { .. });
            let before_target = !lexed.toks.iter().any(|t| matches!(t, Tok::Target { .. } | Tok::Arrow { .. }));
            if !is_target && before_target && leading_metadata(ctx, op) == LeadingMetadata::Refused {
                return Refusal::Error(make(
                    rules,
                    DiagId::UnrecognizedCharInOp,
                    ctx.pos(line_no, *open),
                    &[("char", "["), ("op", name)],
                    wf(),
                ));
            }
            // A closing fence inside the open slot bounds it (§unparsed-tail-boundary).
            if let Some(&(cs, _)) = seg.closers.iter().find(|(cs, _)| *cs > *open) {
                let expected = ctx.text(if is_target { DiagId::ExpectedTargetRest } else { DiagId::ExpectedMetadataRest });
                let found = ctx.text(DiagId::TokenCloser);
                return Refusal::Error(make(
                    rules,
                    DiagId::UnexpectedToken,
                    ctx.pos(line_no, cs),
                    &[("found", &found), ("expected", &expected)],
                    wf(),
                ));
            }
            // Otherwise the slot runs off its line: where the statement ends is unknown,
            // even when the next line is a fence (that fence may be slot text the author
            // meant to continue), so nothing from the heading on is read.
            let id = if is_target { DiagId::TailTarget } else { DiagId::TailMetadata };
            let reason = rules.text(id, &[("op", name), ("line", &(line_no + 1).to_string())]);
            Refusal::Tail(UnparsedTail { from: position, reason })
        }
    }
}

/// §scope-slot-tolerance: a `<…>` right before the slot's closing paren (`inner`) is the
/// scope, with its advisory; a `<` anywhere else in the slot is refused. Out of line: few
/// slots hold a `<`.
#[cold]
#[inline(never)]
fn scope_in_slot(ctx: &Ctx<'_, '_>, line_no: u32, inner: (usize, usize), named: Named) -> Result<Option<(ScopeTok, Diagnostic)>, Refusal> {
    let line = ctx.line_text(line_no);
    let t = &line[inner.0..inner.1];
    let Some(lt) = crate::scan::find_byte(b'<', t.as_bytes()) else { return Ok(None) };
    let gt_last = t.ends_with('>') && !t[lt + 1..t.len() - 1].contains('<');
    if !gt_last {
        let at = ctx.pos(line_no, inner.0 + lt);
        return Err(Refusal::Error(make(ctx.rules, DiagId::UnrecognizedCharInTarget, at, &[("char", "<")], Some(ctx.working_form(named)))));
    }
    let s = inner.0 + lt;
    let st = ScopeTok { open: s, inner: (s + 1, inner.1 - 1), closed: true, lead: None, bare: false };
    // The advisory shows the `(path) <scope>` form that was read.
    let form = format!("({}) {}", line[inner.0..s].trim_end(), &line[s..inner.1]);
    Ok(Some((st, make(ctx.rules, DiagId::ScopeInTarget, ctx.pos(line_no, s), &[("form", &form)], None))))
}

/// `` `^def test_` ``: a sigil matcher quoted in single backticks, alone or before an aside;
/// the index of its closing backtick.
fn quoted_matcher(t: &str) -> Option<usize> {
    let inner = t.strip_prefix('`')?;
    let close = inner.find('`')? + 1;
    let rest = t[close + 1..].trim_start();
    let sigil = starts_with_sigil(&t[1..close]);
    (sigil && close > 1 && (rest.is_empty() || rest.starts_with("<!--"))).then_some(close)
}

/// One `· text` piece of the log's notation: a dropped charge, a note read as the aside, or a
/// note dropped beside a real aside.
fn notation_piece(ctx: &Ctx<'_, '_>, text: &str, at: Position, aside: &mut Option<Cow<'_, str>>, notes: &mut Vec<Diagnostic>) {
    let rules = ctx.rules;
    let n = &rules.tables.notation;
    let dot = n.charge.as_str();
    if text.is_empty() {
        notes.push(make(rules, DiagId::LogSeparator, at, &[("dot", dot)], None));
        return;
    }
    let number_end = text.bytes().take_while(|b| b.is_ascii_digit() || *b == b',').count();
    let rest = text[number_end..].trim();
    let charge = number_end > 0 && (rest.is_empty() || n.charge_units.iter().any(|u| u == rest));
    if charge {
        notes.push(make(rules, DiagId::LogCharge, at, &[("dot", dot), ("charge", text)], None));
    } else if let Some(a) = aside.as_deref() {
        notes.push(make(rules, DiagId::LogNoteIgnored, at, &[("dot", dot), ("note", text), ("aside", a)], None));
    } else {
        notes.push(make(rules, DiagId::LogAside, at, &[("dot", dot), ("note", text)], None));
        *aside = Some(Cow::Owned(text.to_string()));
    }
}

/// The first byte after JSON's insignificant whitespace (space, tab, LF, CR): serde_json reads
/// no further before refusing a text whose value cannot start there, so the probes below ask it
/// only about texts that can be what they look for (most heading text is a word or a regex).
fn json_lead(s: &str) -> Option<u8> {
    s.bytes().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Whether the text is one JSON value (as `serde_json::from_str` reads it), and that value.
fn json_value(s: &str) -> Option<serde_json::Value> {
    if !matches!(json_lead(s), Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')) {
        return None;
    }
    serde_json::from_str::<serde_json::Value>(s).ok()
}

/// Whether the text is one JSON object.
fn is_json_object(s: &str) -> bool {
    json_lead(s) == Some(b'{') && serde_json::from_str::<serde_json::Value>(s).map(|v| v.is_object()).unwrap_or(false)
}

/// Whether the text is one JSON array of objects.
fn is_json_array(block: &str) -> bool {
    json_lead(block) == Some(b'[')
        && matches!(serde_json::from_str::<serde_json::Value>(block), Ok(serde_json::Value::Array(a)) if a.iter().all(|v| v.is_object()))
}

fn starts_with_sigil(t: &str) -> bool {
    matches!(t.as_bytes().first(), Some(b'/' | b'^' | b'$' | b'~' | b'&'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON probes (§bare-option-object, §matcher-option, a message body's `json`) ask
    /// serde_json only about texts whose first significant byte can open what they look for:
    /// over texts built from JSON pieces and the bytes around them, each answers as serde_json
    /// alone does.
    #[test]
    fn json_probes_answer_as_serde_does() {
        const PIECES: &[&str] = &[
            "{", "}", "[", "]", "\"", "a", ":", ",", "1", "-", "true", "null", "false", " ", "\t", "\n", "\r", "\u{a0}", "\u{feff}", "/",
            "e", ".",
        ];
        let serde = |s: &str| serde_json::from_str::<serde_json::Value>(s).ok();
        bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(12).for_each(|bytes: &Vec<u8>| {
            let text: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            let full = serde(&text);
            assert_eq!(json_value(&text), full, "{text:?}");
            assert_eq!(is_json_object(&text), full.as_ref().is_some_and(|v| v.is_object()), "{text:?}");
            let array = matches!(&full, Some(serde_json::Value::Array(a)) if a.iter().all(|v| v.is_object()));
            assert_eq!(is_json_array(&text), array, "{text:?}");
            // A lone option block lifts only when `[block]` reads as an array of objects.
            let wrapped = matches!(serde(&format!("[{text}]")), Some(serde_json::Value::Array(a)) if !a.is_empty() && a.iter().all(|v| v.is_object()));
            assert!(!wrapped || json_lead(&text) == Some(b'{'), "{text:?}");
        });
    }
}
