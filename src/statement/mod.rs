//! Statement building: a region's heading slots and body become statements under the operation
//! table (§op-shapes), with the refusals of §14 and the advisories of the tolerance rules.
//!
//! Every per-operation fact comes from the operation's row; this module never names an
//! operation.

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
use crate::{matcher, scope, target};

mod plain;

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
    /// The columns of the line last asked about, counted once however positions on it are
    /// asked for (a line of many statements, §one-line-turn).
    columns: std::cell::RefCell<crate::scan::ColumnMemo>,
}

/// See [`Ctx::scratch`]. Each vector is taken out of its cell while in use and put back after,
/// so a nested use (none today) would get a fresh one rather than a shared one.
#[derive(Default)]
pub struct Scratch {
    segs: std::cell::Cell<Vec<Segment>>,
    lexed: std::cell::Cell<Lexed>,
    sels: std::cell::Cell<Vec<Sel>>,
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
    pub fn new(
        input: &'a str,
        lines: &'c [Line],
        rules: &'c Rules,
        cls: &'c Classifier<'c>,
        entry: Entry,
        scratch: &'c Scratch,
        heads: &'c heading::SegmentCache,
    ) -> Self {
        Ctx { input, lines, rules, cls, entry, scratch, heads, columns: Default::default() }
    }
    pub fn line_text(&self, i: u32) -> &'a str {
        let l = self.lines[i as usize];
        &self.input[l.start..l.end]
    }
    pub fn pos(&self, line: u32, byte: usize) -> Position {
        let column = self.columns.borrow_mut().column(line, self.line_text(line), byte);
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
    if r.form == Form::Fenced {
        if let Some(kept) = ctx.heads.get(line_no, r.fence_at, r.width) {
            return build_segments(ctx, r, kept, out);
        }
    }
    let mut segs = ctx.scratch.segs.take();
    match r.form {
        Form::Fenced => heading::segments_into(ctx.cls, line, r.fence_at, r.width, &mut segs),
        Form::Naked(op) => {
            segs.clear();
            segs.push(synthetic(ctx, line, Named::Op(op)));
        }
        Form::Forgotten(named) => {
            segs.clear();
            segs.push(synthetic(ctx, line, named));
        }
    }
    let keep_going = build_segments(ctx, r, &segs, out);
    ctx.scratch.segs.set(segs);
    keep_going
}

fn build_segments<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, segs: &[Segment], out: &mut Out<'a>) -> bool {
    let line_no = r.head_line;
    let body = body_span(ctx, r);
    let count = segs.len();
    for (k, seg) in segs.iter().enumerate() {
        crate::work::add(crate::work::Stage::Build, seg.end.saturating_sub(seg.fence_at) + 1);
        let last = k + 1 == count;
        let position = match r.form {
            Form::Fenced if k == 0 => ctx.pos(line_no, r.pos_at),
            // A closer glued to this opener (§inline-chain): the statement's position is the
            // run's first backtick, as on a body's closing line.
            Form::Fenced => {
                let glued = segs[k - 1].closers.iter().find(|&&(_, e)| e == seg.fence_at).map(|&(s, _)| s);
                ctx.pos(line_no, glued.unwrap_or(seg.fence_at))
            }
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
    }
    true
}

/// The one statement of a clean turn's fenced region (§fence-pairing's clean shape): its
/// heading is `seg`, the whole line. `false` when the statement's refusal reaches past it (the
/// closer, the tier or the boundary): the general path then reads the turn.
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

/// The note for scope `st` on `line` (number `line_no`) that operation `o`, named `name`, drops
/// (§scope-on-scopeless, §send-wait-scope).
fn dropped_scope_note(ctx: &Ctx<'_, '_>, o: &Operation, name: &str, line: &str, line_no: u32, st: &ScopeTok) -> Diagnostic {
    let written = scope_written(line, st);
    let id = if o.scope == ScopeDomain::Ignored {
        DiagId::WaitDurationIgnored
    } else if o.operands == Operands::None {
        DiagId::ScopeDroppedNoTarget
    } else if o.scope_needs_target {
        DiagId::ScopeDroppedNoRecipient
    } else {
        DiagId::ScopeDroppedTargetOnly
    };
    make(ctx.rules, id, ctx.pos(line_no, st.open), &[("op", name), ("scope", &written), ("written", &written)], None)
}

/// What a `[metadata]` block before the first target is, for this fence.
fn leading_metadata(ctx: &Ctx<'_, '_>, op: Option<&Operation>) -> LeadingMetadata {
    match op {
        Some(o) => o.leading_metadata,
        None => ctx.rules.tables.executors.leading_metadata,
    }
}

/// Whether operation `o` drops every scope written on its heading (§scope-on-scopeless,
/// §send-wait-scope).
fn drops_scopes(o: &Operation, has_target: bool) -> bool {
    o.scope == ScopeDomain::None || (o.scope_needs_target && !has_target) || o.scope == ScopeDomain::Ignored
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
    if let Some(o) = op {
        if o.tier == Tier::Client && !client {
            let e = make(
                rules,
                DiagId::UnexpectedToken,
                ctx.pos(line_no, seg.fence_at),
                &[("found", &ctx.text(DiagId::TokenClientHeader)), ("expected", &ctx.text(DiagId::ExpectedFenceHeader))],
                wf(),
            );
            return Err(Refusal::Error(e));
        }
    }

    // Boundary loss and glued characters (§unparsed-tail-boundary, §error-shape).
    if let Some(stop) = &lexed.stop {
        match stop {
            LexStop::Bad { at } => {
                let ch = line[*at..].chars().next().unwrap_or(' ').to_string();
                return Err(Refusal::Error(make(rules, DiagId::UnrecognizedChar, ctx.pos(line_no, *at), &[("char", &ch)], wf())));
            }
            LexStop::OpenTarget { open } | LexStop::OpenMeta { open } => {
                let is_target = matches!(stop, LexStop::OpenTarget { .. });
                let before_target = !lexed.toks.iter().any(|t| matches!(t, Tok::Target { .. } | Tok::Arrow { .. }));
                if !is_target && before_target && leading_metadata(ctx, op) == LeadingMetadata::Refused {
                    return Err(Refusal::Error(make(
                        rules,
                        DiagId::UnrecognizedCharInOp,
                        ctx.pos(line_no, *open),
                        &[("char", "["), ("op", name)],
                        wf(),
                    )));
                }
                // A closing fence inside the open slot bounds it (§unparsed-tail-boundary).
                if let Some(&(cs, _)) = seg.closers.iter().find(|(cs, _)| *cs > *open) {
                    let expected = ctx.text(if is_target { DiagId::ExpectedTargetRest } else { DiagId::ExpectedMetadataRest });
                    return Err(unexpected(ctx.text(DiagId::TokenCloser), expected, cs));
                }
                // Otherwise the slot runs off its line: where the statement ends is unknown,
                // even when the next line is a fence (that fence may be slot text the author
                // meant to continue), so nothing from the heading on is read.
                let id = if is_target { DiagId::TailTarget } else { DiagId::TailMetadata };
                let reason = rules.text(id, &[("op", name), ("line", &(line_no + 1).to_string())]);
                return Err(Refusal::Tail(UnparsedTail { from: position, reason }));
            }
        }
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
                    let t = &line[inner.0..inner.1];
                    if let Some(lt) = crate::scan::find_byte(b'<', t.as_bytes()) {
                        let gt_last = t.ends_with('>') && !t[lt + 1..t.len() - 1].contains('<');
                        if gt_last {
                            let s = inner.0 + lt;
                            slot_scope = Some(ScopeTok { open: s, inner: (s + 1, inner.1 - 1), closed: true, lead: None, bare: false });
                            // The advisory shows the `(path) <scope>` form that was read.
                            let form = format!("({}) {}", line[inner.0..s].trim_end(), &line[s..inner.1]);
                            notes_early.push(make(rules, DiagId::ScopeInTarget, ctx.pos(line_no, s), &[("form", &form)], None));
                            inner = (inner.0, s);
                            marks = target::SlotMarks::of(&line[inner.0..inner.1]);
                        } else {
                            return Err(Refusal::Error(make(
                                rules,
                                DiagId::UnrecognizedCharInTarget,
                                ctx.pos(line_no, inner.0 + lt),
                                &[("char", "<")],
                                wf(),
                            )));
                        }
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

/// The body text, as the operation's body kind holds it.
fn body_text<'a>(ctx: &Ctx<'a, '_>, body: Option<(usize, usize, u32, u32)>) -> Option<&'a str> {
    body.map(|(s, e, _, _)| &ctx.input[s..e]).filter(|t| !t.is_empty())
}

/// A selection's target text: borrowed from the heading unless an escape was decoded.
#[inline]
fn target_raw<'a>(h: &Heading<'a>, sel: &Sel) -> Option<Cow<'a, str>> {
    if let Some(m) = &sel.member {
        return Some(Cow::Owned(m.clone()));
    }
    match sel.target? {
        TSrc::Slot(inner) => Some(target::decode_marked(&h.line[inner.0..inner.1], sel.marks)),
        TSrc::Arrow(inner) => Some(Cow::Borrowed(&h.line[inner.0..inner.1])),
    }
}

fn read_target<'a>(ctx: &Ctx<'_, '_>, h: &Heading<'a>, sel: &Sel, position: Position) -> Result<Option<Target<'a>>, Refusal> {
    match target_raw(h, sel) {
        // A group member is not the slot's text: its marks do not hold.
        Some(raw) => {
            let marks = if sel.member.is_some() { target::SlotMarks::ANY } else { sel.marks };
            parse_target(ctx, raw, marks, position).map(Some)
        }
        None => Ok(None),
    }
}

/// A target's text (escapes decoded) decomposed under what its slot `marks` hold (§path-syntax).
#[inline]
fn parse_target<'a>(ctx: &Ctx<'_, '_>, raw: Cow<'a, str>, marks: target::SlotMarks, position: Position) -> Result<Target<'a>, Refusal> {
    target::parse_marked(raw, marks).map_err(|_| invalid_uri(ctx, position))
}

/// Reads one selection's scope under `domain`; pushes advisories; `Err` carries the refusal.
/// The check stays inline (most selections have no scope); the reading is out of line.
#[inline]
fn read_scope(
    ctx: &Ctx<'_, '_>,
    h: &Heading,
    sel: &Sel,
    domain: ScopeDomain,
    opname: &str,
    named: Named,
    notes: &mut Vec<Diagnostic>,
) -> Result<Option<LineMarker>, Diagnostic> {
    match sel.scopes.first() {
        None => Ok(None),
        Some(st) => read_scope_tok(ctx, h.line, h.line_no, st, domain, opname, named, notes).map(Some),
    }
}

/// Reads the scope `st` of heading `line` (line `line_no`) under `domain`; pushes advisories.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn read_scope_tok(
    ctx: &Ctx<'_, '_>,
    line: &str,
    line_no: u32,
    st: &ScopeTok,
    domain: ScopeDomain,
    opname: &str,
    named: Named,
    notes: &mut Vec<Diagnostic>,
) -> Result<LineMarker, Diagnostic> {
    let rules = ctx.rules;
    let written = || scope_written(line, st);
    // Where the scope stands, for a note or a refusal only (a column count is not free).
    let at = || ctx.pos(line_no, st.open);
    match scope::read(&scope_inner(ctx, line, st), domain, &written) {
        Ok((lm, scope_notes)) => {
            if let Some(lead) = st.lead {
                let shown = &line[lead..if st.closed { st.inner.1 + 1 } else { st.inner.1 }];
                let anchor = &line[st.inner.0..st.inner.1];
                notes.push(make(rules, DiagId::CombinedAnchor, at(), &[("written", shown), ("anchor", anchor)], None));
            }
            for n in scope_notes {
                match n {
                    scope::ScopeNote::AnchorDigits(d) => notes.push(make(rules, DiagId::AnchorDigits, at(), &[("digits", &d)], None)),
                    scope::ScopeNote::Recovered(w, c) => {
                        notes.push(make(rules, DiagId::ScopeRecovered, at(), &[("written", &w), ("canonical", &c)], None))
                    }
                }
            }
            Ok(lm)
        }
        Err(e) => Err(scope_error(ctx, e, at(), &written(), domain, opname, named)),
    }
}

/// A scope's inner text with the zero-width characters of its heading line skipped
/// (§heading-slot-order); borrowed unless it held one.
fn scope_inner<'l>(ctx: &Ctx<'_, '_>, line: &'l str, st: &ScopeTok) -> Cow<'l, str> {
    let inner = &line[st.inner.0..st.inner.1];
    if inner.is_ascii() {
        Cow::Borrowed(inner)
    } else {
        Cow::Owned(inner.chars().filter(|c| !ctx.rules.zero_width.contains(c)).collect())
    }
}

/// §error-shape: a malformed scope is a lexer failure, so the first one on the heading is its
/// one hard error, before a second scope (a parser failure) or a target the URL reader refuses
/// (a visitor failure); its recovery is the scope's working form (§parse-recovery).
fn malformed_scope(ctx: &Ctx<'_, '_>, h: &Heading, domain: ScopeDomain, opname: &str, named: Named) -> Result<(), Refusal> {
    let mut first: Option<Diagnostic> = None;
    let mut at = usize::MAX;
    for st in h.sels.iter().flat_map(|s| s.scopes.iter()) {
        if st.bare || st.open > at {
            continue;
        }
        if let Some(e) = malformed(ctx, h.line, h.line_no, st, domain, opname, named) {
            (first, at) = (Some(e), st.open);
        }
    }
    first.map_or(Ok(()), |e| Err(Refusal::Error(e)))
}

/// The refusal of scope `st` when its content is malformed for `domain` (a lexer failure).
#[allow(clippy::too_many_arguments)]
fn malformed(
    ctx: &Ctx<'_, '_>,
    line: &str,
    line_no: u32,
    st: &ScopeTok,
    domain: ScopeDomain,
    opname: &str,
    named: Named,
) -> Option<Diagnostic> {
    let inner = scope_inner(ctx, line, st);
    if scope::is_plain(&inner) {
        return None;
    }
    let read = scope::read(&inner, domain, &String::new);
    if matches!(read, Err(scope::ScopeError::Invalid | scope::ScopeError::AnchorUnmarked(_))) {
        read_scope_tok(ctx, line, line_no, st, domain, opname, named, &mut Vec::new()).err()
    } else {
        None
    }
}

/// A scope as written, brackets included (§invalid-scope-diagnostic: at most 64 code points).
fn scope_written(line: &str, st: &ScopeTok) -> String {
    if st.bare {
        return format!("<{}>", &line[st.inner.0..st.inner.1]);
    }
    let s = if st.closed { &line[st.open..st.inner.1 + 1] } else { &line[st.open..st.inner.1] };
    let s = s.trim_end();
    if s.chars().count() > 64 {
        let mut t: String = s.chars().take(64).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

fn scope_error(
    ctx: &Ctx<'_, '_>,
    e: scope::ScopeError,
    at: Position,
    written: &str,
    domain: ScopeDomain,
    opname: &str,
    named: Named,
) -> Diagnostic {
    let rules = ctx.rules;
    let _ = named;
    // §parse-recovery: a refused scope carries the scope's working form, not the heading's.
    let wf = Some(scope_form(ctx, domain));
    match e {
        scope::ScopeError::Invalid | scope::ScopeError::AnchorUnmarked(_) => {
            let constraint = match (&e, domain) {
                (scope::ScopeError::AnchorUnmarked(m), _) => rules.text(DiagId::InvalidScopeAnchorMarks, &[("marked", m)]),
                (_, ScopeDomain::ResultPositions) => ctx.text(DiagId::InvalidScopeResultPositions),
                (_, ScopeDomain::Minutes) => ctx.text(DiagId::InvalidScopeMinutes),
                (_, ScopeDomain::OwnerDefined) => ctx.text(DiagId::InvalidScopeOwnerDefined),
                _ => ctx.text(DiagId::InvalidScopeTextCoordinates),
            };
            make(rules, DiagId::InvalidScope, at, &[("op", opname), ("scope", written), ("constraint", &constraint)], wf)
        }
        scope::ScopeError::BadOffset => {
            make(rules, DiagId::InvalidOffsetScope, at, &[("scope", written)], Some(ctx.text(DiagId::InvalidOffsetScopeRecovery)))
        }
        scope::ScopeError::OffsetStart => make(rules, DiagId::OffsetScopeStart, at, &[("scope", written)], wf),
        scope::ScopeError::Unsafe => make(rules, DiagId::ScopeUnsafe, at, &[("scope", written)], wf),
    }
}

fn metadata_of(sel: &Sel) -> Option<Vec<String>> {
    if sel.metas.is_empty() {
        None
    } else {
        Some(sel.metas.clone())
    }
}

/// The working form of a scope in `domain` (§parse-recovery).
#[cold]
fn scope_form(ctx: &Ctx<'_, '_>, domain: ScopeDomain) -> String {
    ctx.text(match domain {
        ScopeDomain::ResultPositions => DiagId::ScopeFormResultPositions,
        ScopeDomain::Minutes => DiagId::ScopeFormMinutes,
        ScopeDomain::OwnerDefined => DiagId::ScopeFormOwnerDefined,
        _ => DiagId::ScopeFormTextCoordinates,
    })
}

/// §slot-order: a selection takes one scope; a second is refused with the scope's working form.
fn two_scopes(ctx: &Ctx<'_, '_>, h: &Heading, position: Position, domain: ScopeDomain) -> Result<(), Refusal> {
    for sel in &h.sels {
        if sel.scopes.len() > 1 {
            let w = |i: usize| scope_written(h.line, &sel.scopes[i]);
            let recovery =
                if domain == ScopeDomain::TextCoordinates { ctx.text(DiagId::TwoScopesRecovery) } else { scope_form(ctx, domain) };
            return Err(Refusal::Error(make(
                ctx.rules,
                DiagId::TwoScopes,
                position,
                &[("first", &w(0)), ("second", &w(1))],
                Some(recovery),
            )));
        }
    }
    Ok(())
}

fn executor<'a>(
    ctx: &Ctx<'a, '_>,
    named: Named,
    name: &str,
    h: &mut Heading<'a>,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    notes: &mut Vec<Diagnostic>,
) -> Result<Statement<'a>, Refusal> {
    let rules = ctx.rules;
    let wf = || Some(ctx.working_form(named));
    let sel = h.sels.first().cloned().unwrap_or_default();
    malformed_scope(ctx, h, rules.tables.executors.scope, name, named)?;
    if sel.scopes.len() > 1 {
        return Err(Refusal::Error(make(rules, DiagId::ExecutorOneScope, position, &[("executor", name)], wf())));
    }
    // The path names a program or tool and is never split (§exec-executor-slot).
    let target = match target_raw(h, &sel) {
        Some(raw) if target::url_prefix(&raw).is_some() => Some(target::parse_decoded(raw).map_err(|_| invalid_uri(ctx, position))?),
        Some(raw) => Some(Target::Local { raw, fragment: None }),
        None => None,
    };
    let lm = read_scope(ctx, h, &sel, rules.tables.executors.scope, name, named, notes).map_err(Refusal::Error)?;
    // The body borrows the input unless heading text joins it (§heading-inline-body).
    let mut body_s: Option<Cow<'a, str>> = body.map(|(s, e, _, _)| Cow::Borrowed(&ctx.input[s..e])).filter(|t| !t.is_empty());
    if let Some((start, end)) = h.text {
        // §bare-option-object (6.0): an executor always reads heading text as its input.
        let t = clean_text(h.line, start, end).trim_end().to_string();
        if !t.is_empty() {
            notes.push(make(rules, DiagId::InlineBody, position, &[("op", name)], None));
            body_s = Some(Cow::Owned(match body_s {
                Some(b) => format!("{t}\n{b}"),
                None => t,
            }));
        }
    }
    Ok(Statement {
        head: Head::Runtime(name.to_string()),
        aside: h.aside.take(),
        target,
        metadata: metadata_of(&sel),
        line_marker: lm,
        matcher: None,
        body: match body_s {
            Some(b) => Body::Text(b),
            None => Body::Null,
        },
        source: None,
        destination: None,
        seconds: None,
        position,
    })
}

/// How the heading's text after the slots reads (§heading-inline-body).
enum TextUse {
    Matcher(String),
    Body(String),
    Ignored,
}

/// The statements of native operation `index` (`o`, named `name`).
#[allow(clippy::too_many_arguments)]
fn operation<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    o: &Operation,
    index: usize,
    name: &str,
    h: &mut Heading<'a>,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    notes: &mut Vec<Diagnostic>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), Refusal> {
    let named = Named::Op(index);
    let rules = ctx.rules;
    let wf = || Some(ctx.working_form(named));
    let line = h.line;
    let has_target = h.sels.iter().any(|s| s.target.is_some());

    // Scopes on operations that take none (§scope-on-scopeless, §send-wait-scope).
    let scope_dropped = drops_scopes(o, has_target);
    if scope_dropped {
        for sel in h.sels.iter_mut() {
            for &st in std::mem::take(&mut sel.scopes).iter() {
                notes.push(dropped_scope_note(ctx, o, name, line, h.line_no, &st));
            }
        }
    }
    malformed_scope(ctx, h, o.scope, name, named)?;
    two_scopes(ctx, h, position, o.scope)?;

    // Each selection's option blocks, with `pattern` lifted (§matcher-option).
    let mut lifted: Vec<Lifted> = Vec::new();
    lift_all(ctx, o, h, name, position, &mut lifted)?;
    let all_patterned = !lifted.is_empty() && lifted.iter().all(|(_, p)| p.is_some());

    // The heading's text after the slots (§heading-inline-body, §trailing-slots).
    let mut text_use: Option<TextUse> = None;
    if let Some((start, end)) = h.text {
        let mut text = clean_text(line, start, end);
        if matches!(o.inline_text, InlineText::Matcher | InlineText::SigilMatcherElseBody) {
            peel(ctx, o, h, &mut text, position, notes, &mut lifted)?;
        }
        text.truncate(text.trim_end().len());
        if !text.is_empty() {
            text_use = Some(read_text(ctx, r, o, name, h, text, start, position, has_target, all_patterned, notes)?);
        }
        // The text may have added a block (a peeled or bare option object): read them again.
        lift_all(ctx, o, h, name, position, &mut lifted)?;
    }

    let shape = o.shape;
    let head = op_head(ctx, index, name, shape);
    let raw_body = body_text(ctx, body);
    let raw_body = match r.form {
        Form::Naked(_) => naked_body(raw_body, ctx.rules.fence_min() as usize),
        _ => raw_body,
    };

    if shape == Shape::Transfer {
        let mut sels = Vec::new();
        for (k, sel) in h.sels.iter().enumerate() {
            let target = read_target(ctx, h, sel, position)?;
            let lm = read_scope(ctx, h, sel, o.scope, name, named, notes).map_err(Refusal::Error)?;
            let (meta, pat) = lifted.get(k).cloned().unwrap_or_default();
            let matcher = pat.map(|m| read_matcher(ctx, m, position, notes));
            sels.push(Selection { target, metadata: meta, line_marker: lm, matcher });
        }
        // §transfer-resource-selections: one advisory, whether the text stood on the heading
        // line, beneath it, or both.
        if raw_body.is_some() && !matches!(text_use, Some(TextUse::Ignored)) {
            notes.push(make(rules, DiagId::BodyIgnored, position, &[("op", name)], None));
        }
        let mut it = sels.into_iter();
        out.push(Item::Statement(Statement {
            head,
            aside: h.aside.take(),
            target: None,
            metadata: None,
            line_marker: None,
            matcher: None,
            body: Body::Null,
            source: it.next().map(Box::new),
            destination: it.next().map(Box::new),
            seconds: None,
            position,
        }));
        return Ok(());
    }

    let (mut text_matcher, inline_body) = match text_use {
        Some(TextUse::Matcher(m)) => (Some(m), None),
        Some(TextUse::Body(b)) => (None, Some(b)),
        Some(TextUse::Ignored) | None => (None, None),
    };

    if matches!(o.operands, Operands::Required | Operands::Group) && !has_target {
        if o.body == BodyKind::Distillation {
            // §kill-scope (6.0): KILL requires a target.
            return Err(missing_target(ctx, index, position));
        }
        // §bare-target: a word stands where the target goes.
        let word = text_matcher.as_deref().or(inline_body.as_deref());
        if let Some(w) = word {
            if !starts_with_sigil(w) {
                let word = w.split_whitespace().next().unwrap_or("").to_string();
                return Err(Refusal::Error(make(rules, DiagId::BareTarget, position, &[("op", name), ("word", &word)], wf())));
            }
        }
    }

    // One statement per selection, named by its index among the heading's (`None`: a heading
    // with none), so no selection is copied; a target group compiles to ordinary statements,
    // one per member (§target-group).
    // `picks` is filled only once a slot proves a group: without one (most headings) the
    // statements are the selections in order, or one without a selection.
    let mut picks: Vec<(Option<usize>, Option<String>)> = Vec::new();
    if o.operands == Operands::Group {
        for (k, sel) in h.sels.iter().enumerate() {
            let members = match sel.target {
                Some(TSrc::Slot(inner)) if sel.marks.may_be_group() => {
                    target::split_uri_group(&target::decode_slot(&line[inner.0..inner.1]))
                }
                _ => None,
            };
            match members {
                Some(list) => {
                    if picks.is_empty() {
                        picks.extend((0..k).map(|j| (Some(j), None)));
                    }
                    picks.extend(list.into_iter().map(|m| (Some(k), Some(m))));
                }
                None if !picks.is_empty() => picks.push((Some(k), None)),
                None => {}
            }
        }
    }
    let no_lift: Lifted = (None, None);
    // The selection of a heading with none.
    let no_sel = Sel { marks: target::SlotMarks::ANY, ..Sel::default() };
    let mut aside = h.aside.take();
    // One head for every statement of a group; the last takes it.
    let mut head = Some(head);
    let count = if picks.is_empty() { h.sels.len().max(1) } else { picks.len() };
    let mut seconds: Option<f64> = None;
    for k in 0..count {
        let (at, member) = match picks.get(k) {
            Some((at, member)) => (*at, member.as_ref()),
            None if h.sels.is_empty() => (None, None),
            None => (Some(k), None),
        };
        let each;
        let sel: &Sel = match (at, member) {
            (Some(i), None) => &h.sels[i],
            (Some(i), Some(m)) => {
                each = Sel { member: Some(m.clone()), ..h.sels[i].clone() };
                &each
            }
            (None, _) => &no_sel,
        };
        let (meta, pat) = match at {
            Some(i) => lifted.get(i).unwrap_or(&no_lift),
            None => &no_lift,
        };
        let mut target = read_target(ctx, h, sel, position)?;
        let lm = if scope_dropped { None } else { read_scope(ctx, h, sel, o.scope, name, named, notes).map_err(Refusal::Error)? };
        // The last statement takes the heading's matcher; earlier ones (a group's) copy it.
        let mut m = match pat {
            Some(p) => Some(p.clone()),
            None if k + 1 == count => text_matcher.take(),
            None => text_matcher.clone(),
        };
        // §naked-pattern: `#name` alone after a target that names no channel is its channel.
        if pat.is_none() && o.inline_text == InlineText::Matcher {
            // Without a `pattern`, `m` is the heading's matcher.
            if let (Some(t), Some(tok)) = (&target, m.as_deref().and_then(target::channel_token)) {
                if let Some(with) = target::with_channel(t, tok) {
                    target = Some(with);
                    m = None;
                }
            }
        }
        let mut body_val = Body::Null;
        let is_log = target.as_ref().and_then(|t| t.scheme()) == Some("log");
        match o.body {
            BodyKind::None | BodyKind::Distillation => {
                let keeps = o.body == BodyKind::Distillation && is_log;
                if k == 0 {
                    let text = join_body(inline_body.as_deref(), raw_body);
                    if let Some(b) = text {
                        if keeps {
                            body_val = Body::Text(b);
                        } else if m.is_none() && o.inline_text == InlineText::Matcher && !b.contains('\n') && starts_with_sigil(b.trim()) {
                            // One sigil line beneath the heading is the bare form a line low.
                            m = Some(b.trim().to_string());
                        } else if o.body == BodyKind::None && is_comment_only(&b) && aside.is_none() {
                            let t = b.trim();
                            aside = Some(Cow::Owned(t[4..t.len() - 3].trim().to_string()));
                            notes.push(make(rules, DiagId::MisplacedAside, position, &[("op", name)], None));
                        } else if let Some((_, _, first, last)) = body {
                            notes.push(body_unused(ctx, name, o.body == BodyKind::Distillation, first, last, position));
                        }
                    }
                }
            }
            BodyKind::Literal | BodyKind::Prompt | BodyKind::Message | BodyKind::Matcher => {
                let optional = prompt_optional(o, target.as_ref());
                body_val = kept_body(ctx, o.body, join_body(inline_body.as_deref(), raw_body), optional, position, notes);
            }
        }
        let matcher = if o.shape == Shape::Selection { m.map(|raw| Box::new(read_matcher(ctx, raw, position, notes))) } else { None };
        let mut meta = meta.clone();
        if o.duration_metadata {
            // §send-wait-scope: `[seconds]` bounds the park; the smallest valid scalar wins.
            for block in meta.take().unwrap_or_default() {
                match block.trim().parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => seconds = Some(seconds.map_or(v, |s: f64| s.min(v))),
                    _ => notes.push(make(
                        rules,
                        DiagId::WaitDurationIgnored,
                        position,
                        &[("op", name), ("written", &format!("[{block}]"))],
                        None,
                    )),
                }
            }
        }
        let last = k + 1 == count;
        out.push(Item::Statement(Statement {
            head: if last { head.take().expect("the head outlives the loop") } else { head.clone().expect("the head outlives the loop") },
            aside: if last { aside.take() } else { aside.clone() },
            target,
            metadata: meta,
            line_marker: lm,
            matcher,
            body: body_val,
            source: None,
            destination: None,
            seconds,
            position,
        }));
    }
    Ok(())
}

/// Whether a prompt body may be absent: beside a prompt resource, which supplies the prompt
/// (§op-shapes, §bare-statement); the `worker://name` a row spawns (a name, no path) is no
/// resource.
#[inline]
fn prompt_optional(o: &Operation, target: Option<&Target>) -> bool {
    match target {
        None => false,
        Some(Target::Url(u)) if o.worker_target && u.scheme().eq_ignore_ascii_case("worker") => {
            let names_worker = u.hostname().is_some_and(|h| !h.is_empty()) && matches!(u.pathname(), "" | "/");
            !names_worker
        }
        Some(_) => true,
    }
}

/// The body of an operation whose row keeps it (a literal, a prompt, a message or a matcher
/// body, §op-shapes), from its text if any. An absent prompt is `""` where the prompt is
/// required and `null` where a prompt resource makes it optional (§empty-section).
fn kept_body<'a>(
    ctx: &Ctx<'a, '_>,
    kind: BodyKind,
    text: Option<Cow<'a, str>>,
    optional: bool,
    position: Position,
    notes: &mut Vec<Diagnostic>,
) -> Body<'a> {
    match (kind, text) {
        (BodyKind::Message, Some(t)) => {
            let json = json_value(&t);
            Body::Message { raw: t, json }
        }
        (BodyKind::Matcher, Some(t)) => Body::Matcher(Box::new(read_matcher(ctx, t.into_owned(), position, notes))),
        (BodyKind::Literal | BodyKind::Prompt, Some(t)) => Body::Text(t),
        (BodyKind::Prompt, None) if !optional => Body::Text(Cow::Borrowed("")),
        _ => Body::Null,
    }
}

/// The head of native operation `index`: its name borrows the built-in rule set; a caller's
/// rule set may be dropped first. Inlined: returned through memory, the head was written field
/// by field and read back at once in wider loads, a store-forwarding stall on every statement.
#[inline(always)]
fn op_head(ctx: &Ctx<'_, '_>, index: usize, name: &str, shape: Shape) -> Head {
    let name = match ctx.rules.as_builtin() {
        Some(b) => Cow::Borrowed(b.op(index).name.as_str()),
        None => Cow::Owned(name.to_string()),
    };
    Head::Op { name, shape }
}

/// Each selection's option blocks, `pattern` lifted (§matcher-option), into `lifted`; left
/// empty when no selection has a block (most headings): each then reads `(None, None)`, as
/// [`lift`] gives for a selection without one.
/// The check stays inline (every statement makes it twice); the lifting is out of line.
#[inline]
fn lift_all(
    ctx: &Ctx<'_, '_>,
    o: &Operation,
    h: &Heading,
    name: &str,
    position: Position,
    lifted: &mut Vec<Lifted>,
) -> Result<(), Refusal> {
    lifted.clear();
    if h.sels.iter().all(|s| s.metas.is_empty()) {
        return Ok(());
    }
    lift_each(ctx, o, h, name, position, lifted)
}

#[inline(never)]
fn lift_each(
    ctx: &Ctx<'_, '_>,
    o: &Operation,
    h: &Heading,
    name: &str,
    position: Position,
    lifted: &mut Vec<Lifted>,
) -> Result<(), Refusal> {
    for sel in &h.sels {
        lifted.push(lift(ctx, o, sel, name, position)?);
    }
    Ok(())
}

/// §heading-inline-body: what the text after the slots is, by the operation's shape.
#[allow(clippy::too_many_arguments)]
fn read_text(
    ctx: &Ctx<'_, '_>,
    _r: &OpRegion,
    o: &Operation,
    name: &str,
    h: &mut Heading,
    text: String,
    start: usize,
    position: Position,
    has_target: bool,
    all_patterned: bool,
    notes: &mut Vec<Diagnostic>,
) -> Result<TextUse, Refusal> {
    let rules = ctx.rules;
    let inline_body = |notes: &mut Vec<Diagnostic>, t: String| {
        notes.push(make(rules, DiagId::InlineBody, position, &[("op", name)], None));
        TextUse::Body(t)
    };
    Ok(match o.inline_text {
        InlineText::Matcher => {
            if all_patterned {
                // Beside an option block's `pattern`: a log distillation's first line, else unused.
                let log = h
                    .sels
                    .first()
                    .and_then(|s| target_raw(h, s))
                    .map(|t| target::url_prefix(&t).map(|e| t[..e].eq_ignore_ascii_case("log")).unwrap_or(false))
                    .unwrap_or(false);
                if o.body == BodyKind::Distillation && log {
                    inline_body(notes, text)
                } else {
                    let subject = rules.text(
                        if o.body == BodyKind::Distillation { DiagId::BodyUnusedSubjectKill } else { DiagId::BodyUnusedSubject },
                        &[("op", name)],
                    );
                    notes.push(make(
                        rules,
                        DiagId::BodyUnusedHeading,
                        position,
                        &[("subject", &subject), ("line", &(h.line_no + 1).to_string())],
                        None,
                    ));
                    TextUse::Ignored
                }
            } else if !has_target && o.body == BodyKind::Distillation {
                inline_body(notes, text)
            } else {
                if is_json_object(&text) {
                    notes.push(make(rules, DiagId::JsonMatcher, position, &[], None));
                }
                TextUse::Matcher(text)
            }
        }
        InlineText::SigilMatcherElseBody => {
            if let Some(scope) = bare_anchor(&text) {
                // §bare-anchor-scope: an anchor standing where the scope goes.
                let at = ctx.pos(h.line_no, start);
                if h.sels.first().map(|s| !s.scopes.is_empty()).unwrap_or(false) {
                    let first = scope_written(h.line, &h.sels[0].scopes[0]);
                    return Err(Refusal::Error(make(
                        rules,
                        DiagId::TwoScopes,
                        position,
                        &[("first", &first), ("second", &format!("<{scope}>"))],
                        Some(ctx.text(DiagId::TwoScopesRecovery)),
                    )));
                }
                notes.push(make(rules, DiagId::BareAnchorScope, at, &[("written", &scope)], None));
                if let Some(sel) = h.sels.first_mut() {
                    // A synthetic scope token over the anchor's text in the line.
                    let s = start + h.line[start..].find(&scope).unwrap_or(0);
                    sel.scopes.push(ScopeTok { open: s, inner: (s, s + scope.len()), closed: false, lead: None, bare: true });
                }
                TextUse::Ignored
            } else if starts_with_sigil(&text) && !all_patterned {
                TextUse::Matcher(text)
            } else {
                inline_body(notes, text)
            }
        }
        InlineText::Ignored => {
            // §transfer-resource-selections: text after the slots is ignored, and named.
            notes.push(make(rules, DiagId::BodyIgnored, position, &[("op", name)], None));
            TextUse::Ignored
        }
        InlineText::OptionObjectElseBody => {
            let is_obj = is_json_object(&text);
            let needs_target = o.body == BodyKind::Prompt;
            let admits = h.sels.iter().all(|s| s.metas.is_empty()) && (!needs_target || has_target);
            if is_obj && admits {
                // §bare-option-object: read as `[{…}]`, named by its own receipt.
                if h.sels.is_empty() {
                    h.sels.push(Sel::default());
                }
                h.sels[0].metas.push(text);
                notes.push(make(rules, DiagId::BareOptionObject, position, &[("op", name)], None));
                TextUse::Ignored
            } else {
                inline_body(notes, text)
            }
        }
        InlineText::Body | InlineText::Refused => inline_body(notes, text),
    })
}

/// `@abcde` or `@abcde,@fghij` alone: an EDIT's scope without its brackets (§bare-anchor-scope).
fn bare_anchor(text: &str) -> Option<String> {
    let t = text.trim();
    let anchor = |s: &str| s.len() == 6 && s.starts_with('@') && s[1..].bytes().all(|b| b.is_ascii_alphanumeric());
    let ok = match t.split_once(',') {
        Some((a, b)) => anchor(a) && anchor(b.trim_start()),
        None => anchor(t),
    };
    if ok {
        Some(t.to_string())
    } else {
        None
    }
}

/// A selection's option blocks as the statement carries them, `pattern` lifted unless the
/// operation's shape is plain; a selection without blocks (most) copies and parses nothing.
fn lift(ctx: &Ctx<'_, '_>, o: &Operation, sel: &Sel, name: &str, position: Position) -> Result<Lifted, Refusal> {
    if sel.metas.is_empty() {
        Ok((None, None))
    } else if o.shape == Shape::Plain {
        Ok((metadata_of(sel), None))
    } else {
        lift_pattern(ctx, sel, name, position)
    }
}

/// Lifts `pattern` from option blocks that parse as arrays of objects (§matcher-option).
fn lift_pattern(ctx: &Ctx<'_, '_>, sel: &Sel, name: &str, position: Position) -> Result<(Option<Vec<String>>, Option<String>), Refusal> {
    let Some(blocks) = metadata_of(sel) else { return Ok((None, None)) };
    if blocks.len() != 1 {
        // The language lifts only from one block; several reach the owner untouched.
        return Ok((Some(blocks), None));
    }
    let mut lifted = None;
    let mut keep = Vec::new();
    for b in blocks {
        // Only a block opening with `{` can read as `[{…}, …]`; any other is kept as written.
        if json_lead(&b) != Some(b'{') {
            keep.push(b);
            continue;
        }
        let arr = format!("[{b}]");
        match serde_json::from_str::<serde_json::Value>(&arr) {
            Ok(serde_json::Value::Array(items)) if items.iter().all(|v| v.is_object()) && lifted.is_none() => {
                let mut has_pattern = false;
                let mut other = false;
                for it in &items {
                    for (k, v) in it.as_object().unwrap() {
                        if k == "pattern" {
                            has_pattern = true;
                            match v {
                                serde_json::Value::String(s) => lifted = Some(s.clone()),
                                _ => {
                                    return Err(Refusal::Error(make(
                                        ctx.rules,
                                        DiagId::PatternNotString,
                                        position,
                                        &[("op", name)],
                                        Some(ctx.text(DiagId::PatternNotStringRecovery)),
                                    )))
                                }
                            }
                        } else {
                            other = true;
                        }
                    }
                }
                if !has_pattern || other {
                    keep.push(b.clone());
                }
            }
            _ => keep.push(b.clone()),
        }
    }
    Ok((if keep.is_empty() { None } else { Some(keep) }, lifted))
}

/// Reads a matcher and positions its advisories after the statement (§matcher-prefix-claims).
fn read_matcher(ctx: &Ctx<'_, '_>, raw: String, position: Position, notes: &mut Vec<Diagnostic>) -> Matcher {
    let (m, found) = matcher::read_owned(ctx.rules, raw);
    for n in found {
        let args: Vec<(&str, &str)> = n.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        if !notes.iter().any(|e| e.message == ctx.rules.text(n.id, &args)) {
            notes.push(make(ctx.rules, n.id, position, &args, None));
        }
    }
    m
}

/// §kill-scope (6.0): operation `index`, a distillation, was written without its target.
#[cold]
#[inline(never)]
fn missing_target(ctx: &Ctx<'_, '_>, index: usize, position: Position) -> Refusal {
    let named = Named::Op(index);
    Refusal::Error(make(ctx.rules, DiagId::MissingTarget, position, &[("op", ctx.name_of(named))], Some(ctx.working_form(named))))
}

#[cold]
#[inline(never)]
fn invalid_uri(ctx: &Ctx<'_, '_>, position: Position) -> Refusal {
    Refusal::Error(make(ctx.rules, DiagId::InvalidUri, position, &[], Some(ctx.text(DiagId::InvalidUriRecovery))))
}

#[cold]
#[inline(never)]
fn body_unused(ctx: &Ctx<'_, '_>, name: &str, kill: bool, first: u32, last: u32, position: Position) -> Diagnostic {
    let rules = ctx.rules;
    let subject = rules.text(if kill { DiagId::BodyUnusedSubjectKill } else { DiagId::BodyUnusedSubject }, &[("op", name)]);
    let lines = if first == last {
        rules.text(DiagId::BodyUnusedOneLine, &[("first", &(first + 1).to_string())])
    } else {
        rules.text(DiagId::BodyUnusedLineRange, &[("first", &(first + 1).to_string()), ("last", &(last + 1).to_string())])
    };
    make(rules, DiagId::BodyUnusedLines, position, &[("subject", &subject), ("lines", &lines)], None)
}

fn join_body<'a>(inline: Option<&str>, body: Option<&'a str>) -> Option<Cow<'a, str>> {
    match (inline, body) {
        (Some(i), Some(b)) => Some(Cow::Owned(format!("{i}\n{b}"))),
        (Some(i), None) => Some(Cow::Owned(i.to_string())),
        (None, Some(b)) => Some(Cow::Borrowed(b)),
        (None, None) => None,
    }
}

fn is_comment_only(b: &str) -> bool {
    let t = b.trim();
    t.starts_with("<!--") && t.ends_with("-->") && t.len() >= 7 && !t[4..t.len() - 3].contains("-->")
}

fn starts_with_sigil(t: &str) -> bool {
    matches!(t.as_bytes().first(), Some(b'/' | b'^' | b'$' | b'~' | b'&'))
}

/// The heading text with its transparent closers removed (§transparent-inline-closer).
fn clean_text(line: &str, start: usize, end: usize) -> String {
    let b = line.as_bytes();
    let mut s = String::with_capacity(end - start);
    let mut i = start;
    // The text between backtick runs is copied whole, not a character at a time.
    while let Some(o) = crate::scan::find_byte(b'`', &b[i..end]) {
        let run = i + o;
        s.push_str(&line[i..run]);
        let j = run + b[run..end].iter().take_while(|&&c| c == b'`').count();
        if j - run < 3 {
            s.push_str(&line[run..j]);
        }
        i = j;
    }
    s.push_str(&line[i..end]);
    s
}

/// [`clean_text`] as it read before runs were copied whole: one character at a time.
#[cfg(test)]
fn clean_text_by_char(line: &str, start: usize, end: usize) -> String {
    let b = line.as_bytes();
    let mut s = String::new();
    let mut i = start;
    while i < end {
        if b[i] == b'`' {
            let j = i + b[i..end].iter().take_while(|&&c| c == b'`').count();
            if j - i < 3 {
                s.push_str(&line[i..j]);
            }
            i = j;
            continue;
        }
        let ch = line[i..].chars().next().unwrap();
        s.push(ch);
        i += ch.len_utf8();
    }
    s
}

/// §trailing-slots: a trailing aside, scope, option block or log note comes off the matcher's
/// right end, each once and only when the heading lacks that slot.
fn peel(
    ctx: &Ctx<'_, '_>,
    o: &Operation,
    h: &mut Heading,
    text: &mut String,
    position: Position,
    notes: &mut Vec<Diagnostic>,
    lifted: &mut Vec<(Option<Vec<String>>, Option<String>)>,
) -> Result<(), Refusal> {
    let rules = ctx.rules;
    let charge = rules.tables.notation.charge.as_str();
    let mut took_scope = false;
    let mut took_block = false;
    loop {
        let t = text.trim_end();
        if h.aside.is_none() && t.ends_with("-->") {
            // `<!-->` opens and closes in the same characters: no aside.
            if let Some((i, inner)) = t.rfind("<!--").and_then(|i| Some((i, t[i + 4..].strip_suffix("-->")?))) {
                h.aside = Some(Cow::Owned(inner.trim().to_string()));
                *text = t[..i].to_string();
                continue;
            }
        }
        if !took_scope && t.ends_with('>') {
            if let Some(i) = t.rfind('<') {
                let inner = &t[i + 1..t.len() - 1];
                let written = &t[i..];
                if (i == 0 || t.as_bytes()[i - 1] == b' ')
                    && scope::read(inner, o.scope, &|| written.to_string()).is_ok()
                    && o.scope != ScopeDomain::None
                {
                    if h.sels.len() > 1 {
                        return Err(Refusal::Error(make(
                            rules,
                            DiagId::GroupScopeAfterPattern,
                            position,
                            &[("scope", written)],
                            Some(ctx.text(DiagId::GroupScopeAfterPatternRecovery)),
                        )));
                    }
                    if h.sels.first().map(|s| s.scopes.is_empty()).unwrap_or(false) {
                        notes.push(make(rules, DiagId::ScopeAfterPattern, position, &[("scope", written)], None));
                        // The peeled scope is read from its own text.
                        let line_at =
                            h.text.map(|(s, _)| s).unwrap_or(0) + h.line[h.text.map(|(s, _)| s).unwrap_or(0)..].rfind(written).unwrap_or(0);
                        h.sels[0].scopes.push(ScopeTok {
                            open: line_at,
                            inner: (line_at + 1, line_at + written.len() - 1),
                            closed: true,
                            lead: None,
                            bare: false,
                        });
                        *text = t[..i].to_string();
                        took_scope = true;
                        continue;
                    }
                }
            }
        }
        if !took_block && t.ends_with(']') {
            if let Some(i) = t.rfind(" [") {
                let block = &t[i + 1..];
                if h.sels.len() > 1 && is_json_array(block) {
                    // §trailing-slots: with several path slots no one selection owns the block.
                    return Err(Refusal::Error(make(
                        rules,
                        DiagId::GroupOptionsAfterPattern,
                        position,
                        &[("block", block)],
                        Some(ctx.text(DiagId::GroupScopeAfterPatternRecovery)),
                    )));
                }
                if is_json_array(block) && h.sels.len() == 1 && h.sels[0].metas.is_empty() {
                    notes.push(make(rules, DiagId::OptionsAfterPattern, position, &[("block", block)], None));
                    let inner = block[1..block.len() - 1].to_string();
                    h.sels[0].metas.push(inner);
                    let l = lift_pattern(ctx, &h.sels[0], &o.name, position)?;
                    // `lifted` is empty when no selection had a block before this one.
                    match lifted.first_mut() {
                        Some(first) => *first = l,
                        None => lifted.push(l),
                    }
                    *text = t[..i].to_string();
                    took_block = true;
                    continue;
                }
            }
        }
        if let Some(i) = t.rfind(charge) {
            let before = &t[..i];
            if !before.is_empty() && (before.ends_with(' ') || before.ends_with('\t')) {
                let piece = t[i + charge.len()..].trim().to_string();
                *text = before.to_string();
                notation_piece(ctx, &piece, position, &mut h.aside, notes);
                continue;
            }
        }
        break;
    }
    Ok(())
}

/// §naked-operation: a trailing bare fence nothing in the body pairs with is the closer.
fn naked_body(b: Option<&str>, min: usize) -> Option<&str> {
    let b = b?;
    let lines: Vec<&str> = b.split('\n').collect();
    let fence = |l: &str| {
        let t = l.trim_end_matches('\r').trim();
        t.len() >= min && t.bytes().all(|c| c == b'`')
    };
    let count = lines.iter().filter(|l| l.trim_start().bytes().take_while(|&c| c == b'`').count() >= min).count();
    if let Some(last) = lines.last() {
        if fence(last) && count % 2 == 1 {
            let cut = b.len() - last.len();
            let mut s = &b[..cut];
            if s.ends_with('\n') {
                s = &s[..s.len() - 1];
            }
            if s.ends_with('\r') {
                s = &s[..s.len() - 1];
            }
            return if s.is_empty() { None } else { Some(s) };
        }
    }
    Some(b)
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

    /// §transparent-inline-closer: copying the runs between backticks whole keeps exactly the
    /// characters the one-at-a-time reading keeps, over every sub-range of the line.
    #[test]
    fn transparent_closers_leave_the_same_text() {
        const ALPHABET: &[&str] = &["a", " ", "`", "``", "```", "é", "/", "\u{1F600}", "<!--", "-->"];
        bolero::check!().with_type::<Vec<u8>>().with_iterations(5_000).with_max_len(24).for_each(|bytes: &Vec<u8>| {
            let line: String = bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()]).collect();
            let cuts: Vec<usize> = (0..=line.len()).filter(|&i| line.is_char_boundary(i)).collect();
            for (k, &start) in cuts.iter().enumerate() {
                for &end in &cuts[k..] {
                    assert_eq!(clean_text(&line, start, end), clean_text_by_char(&line, start, end), "{line:?} {start}..{end}");
                }
            }
        });
    }
}
