//! Statement building: a region's heading slots and body become statements under the operation
//! table (§op-shapes), with the refusals of §14 and the advisories of the tolerance rules.
//!
//! Every per-operation fact comes from the operation's row; this module never names an
//! operation.

use std::borrow::Cow;

use crate::ast::*;
use crate::diagnose::make;
use crate::heading::{self, LexStop, Lexed, Segment, Tok};
use crate::pair::regions::{End, Form, OpRegion};
use crate::rules::model::{BodyKind, InlineText, Operands, Operation, ScopeDomain, Shape, Source, Tier};
use crate::rules::{DiagId, Rules};
use crate::scan::{columns, Classifier, Line, Named};
use crate::{matcher, scope, target, Entry};

/// Everything a statement builder reads.
pub struct Ctx<'a, 'c> {
    pub input: &'a str,
    pub lines: &'c [Line],
    pub rules: &'c Rules,
    pub cls: &'c Classifier<'c>,
    pub entry: Entry,
}

/// Items in emission order (the driver orders them by position), and the boundary loss.
#[derive(Default)]
pub struct Out<'a> {
    pub items: Vec<Item<'a>>,
    pub tail: Option<UnparsedTail>,
}

impl<'a, 'c> Ctx<'a, 'c> {
    pub fn line_text(&self, i: u32) -> &'a str {
        let l = self.lines[i as usize];
        &self.input[l.start..l.end]
    }
    pub fn pos(&self, line: u32, byte: usize) -> Position {
        let t = self.line_text(line);
        Position { line: line + 1, column: columns(&t[..byte.min(t.len())]) }
    }
    fn working_form(&self, named: Named) -> String {
        match named {
            Named::Op(i) => self.rules.text_by_name(&self.rules.op(i).working_form, &[]),
            Named::Exec(e) => {
                let name = &self.cls.registry.names[e];
                self.rules.text_by_name(&self.rules.tables.executors.working_form, &[("executor", name)])
            }
        }
    }
    fn name_of(&self, named: Named) -> &str {
        match named {
            Named::Op(i) => &self.rules.op(i).name,
            Named::Exec(e) => &self.cls.registry.names[e],
        }
    }
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

/// The tokens of a statement, sorted into selections.
#[derive(Debug, Default, Clone)]
struct Sel {
    target: Option<(usize, (usize, usize))>,
    scopes: Vec<(usize, (usize, usize), bool)>,
    metas: Vec<(usize, (usize, usize))>,
    /// A bare option object read as this selection's block (§bare-option-object).
    object: Option<String>,
    /// One member of an explicit URI list (§safe-uri-target-groups), replacing the slot text.
    member: Option<String>,
}

struct Heading<'l> {
    line: &'l str,
    line_no: u32,
    pre: Sel,
    sels: Vec<Sel>,
    aside: Option<(usize, (usize, usize), bool)>,
    text: Option<(usize, usize)>,
}

enum Refusal {
    Error(ParseError),
    Tail(UnparsedTail),
}

/// Builds every statement of one region.
pub fn build_region<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, out: &mut Out<'a>) -> bool {
    let line_no = r.head_line;
    if line_no as usize >= ctx.lines.len() {
        return true;
    }
    let line = ctx.line_text(line_no);
    let segs: Vec<Segment> = match r.form {
        Form::Fenced => heading::segments(ctx.cls, line, r.fence_at, r.width),
        Form::Naked(op) => vec![synthetic(ctx, line, Named::Op(op))],
        Form::Forgotten(named) => vec![synthetic(ctx, line, named)],
    };
    if segs.is_empty() {
        return true;
    }
    let body = body_span(ctx, r);
    let count = segs.len();
    for (k, seg) in segs.iter().enumerate() {
        let last = k + 1 == count;
        let position = match r.form {
            Form::Fenced => ctx.pos(line_no, seg.fence_at),
            Form::Naked(_) => Position { line: line_no + 1, column: 0 },
            Form::Forgotten(_) => ctx.pos(r.start_line, r.fence_at),
        };
        let seg_body = if last { body } else { None };
        match statement(ctx, r, seg, position, seg_body, out) {
            Ok(()) => {}
            Err(Refusal::Error(e)) => out.items.push(Item::Error(e)),
            Err(Refusal::Tail(t)) => {
                out.tail = Some(t);
                return false;
            }
        }
    }
    true
}

fn synthetic(ctx: &Ctx<'_, '_>, line: &str, named: Named) -> Segment {
    let end = ctx.cls.name_end(line.as_bytes(), 0);
    Segment { fence_at: 0, width: 0, named, name: (0, end), end: line.len(), closers: Vec::new(), closed: false }
}

fn statement<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, seg: &Segment, position: Position, body: Option<(usize, usize, u32, u32)>, out: &mut Out<'a>) -> Result<(), Refusal> {
    let rules = ctx.rules;
    let line_no = r.head_line;
    let line = ctx.line_text(line_no);
    let lexed: Lexed = heading::lex(line, seg.name.1, seg, &rules.zero_width);
    let named = seg.named;
    let op: Option<&Operation> = match named {
        Named::Op(i) => Some(rules.op(i)),
        Named::Exec(_) => None,
    };
    let name = ctx.name_of(named).to_string();
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
    let unexpected = |found: String, expected: String, at: usize| -> Refusal {
        Refusal::Error(make(rules, DiagId::UnexpectedToken, ctx.pos(line_no, at), &[("found", &found), ("expected", &expected)], wf()))
    };

    // The client-tier heading in a protocol tier (§tier-entrypoints).
    if let Some(o) = op {
        if o.tier == Tier::Client && !client {
            return Err(unexpected(ctx.text(DiagId::TokenClientHeader), ctx.text(DiagId::ExpectedFenceHeader), seg.fence_at));
        }
    }

    // Boundary loss and glued characters (§unparsed-tail-boundary, §error-shape).
    if let Some(stop) = &lexed.stop {
        match stop {
            LexStop::Bad { at } => {
                let ch = line[*at..].chars().next().unwrap_or(' ').to_string();
                return Err(Refusal::Error(make(rules, DiagId::UnrecognizedChar, ctx.pos(line_no, *at), &[("char", &ch)], wf())));
            }
            LexStop::OpenTarget { .. } | LexStop::OpenMeta { .. } => {
                let is_target = matches!(stop, LexStop::OpenTarget { .. });
                let next = line_no + 1;
                let next_is_fence = (next as usize) < ctx.lines.len() && {
                    let t = ctx.line_text(next);
                    let t = t.trim_start_matches(' ');
                    t.starts_with("```") || t.starts_with("~~~")
                };
                if next_is_fence && seg.end == line.len() {
                    let expected = ctx.text(if is_target { DiagId::ExpectedTargetRest } else { DiagId::ExpectedMetadataRest });
                    return Err(unexpected(ctx.text(DiagId::TokenCloser), expected, line.len()));
                }
                let id = if is_target { DiagId::TailTarget } else { DiagId::TailMetadata };
                let start = ctx.pos(r.start_line, if matches!(r.form, Form::Fenced) { seg.fence_at } else { r.fence_at });
                let start = if matches!(r.form, Form::Fenced) { ctx.pos(line_no, seg.fence_at) } else { start };
                let reason = rules.text(id, &[("op", &name), ("line", &(line_no + 1).to_string())]);
                return Err(Refusal::Tail(UnparsedTail { from: Position { line: start.line, column: start.column }, reason }));
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
    let meta_without_target = op.map(|o| o.operands == Operands::Optional && o.metadata && o.body != BodyKind::Prompt && o.scope != ScopeDomain::TextCoordinates).unwrap_or(true);
    let mut h = Heading { line, line_no, pre: Sel::default(), sels: Vec::new(), aside: None, text: None };
    let mut pre_meta_then_target_refused = false;
    for tok in &lexed.toks {
        match tok {
            Tok::Target { open, inner } => {
                if h.aside.is_some() || max_targets == 0 || pre_meta_then_target_refused {
                    return Err(unexpected(ctx.text(DiagId::TokenPathOpen), expected_end(), *open));
                }
                if h.sels.len() >= max_targets {
                    if op.is_none() {
                        return Err(Refusal::Error(make(rules, DiagId::ExecutorOnePath, position, &[("executor", &name)], wf())));
                    }
                    return Err(unexpected(ctx.text(DiagId::TokenPathOpen), expected_end(), *open));
                }
                let mut sel = Sel { target: Some((*open, *inner)), ..Sel::default() };
                if h.sels.is_empty() {
                    sel.scopes.append(&mut h.pre.scopes);
                    if op.is_some() {
                        sel.metas.append(&mut h.pre.metas);
                    }
                }
                h.sels.push(sel);
            }
            Tok::Meta { open, inner } => {
                if h.aside.is_some() && !is_json_array(&line[inner.0 - 1..inner.1 + 1]) {
                    return Err(unexpected(ctx.text(DiagId::TokenMetadataOpen), expected_end(), *open));
                }
                if h.sels.is_empty() {
                    if !meta_without_target || op.map(|o| !o.metadata).unwrap_or(false) {
                        return Err(Refusal::Error(make(rules, DiagId::UnrecognizedCharInOp, ctx.pos(line_no, *open), &[("char", "["), ("op", &name)], wf())));
                    }
                    if op.is_some() && max_targets > 0 {
                        pre_meta_then_target_refused = true;
                    }
                    h.pre.metas.push((*open, *inner));
                } else {
                    h.sels.last_mut().unwrap().metas.push((*open, *inner));
                }
            }
            Tok::Scope { open, inner, closed } => {
                if h.sels.is_empty() {
                    if !h.pre.scopes.is_empty() {
                        return Err(unexpected(ctx.text(DiagId::TokenScope), expected_end(), *open));
                    }
                    h.pre.scopes.push((*open, *inner, *closed));
                } else {
                    h.sels.last_mut().unwrap().scopes.push((*open, *inner, *closed));
                }
            }
            Tok::Aside { open, inner, closed } => {
                if h.aside.is_some() {
                    let a = &line[*open..if *closed { inner.1 + 3 } else { inner.1 }];
                    return Err(unexpected(rules.text(DiagId::TokenAside, &[("aside", a)]), expected_end(), *open));
                }
                if operands == Operands::Two && h.sels.len() < 2 {
                    let a = &line[*open..if *closed { inner.1 + 3 } else { inner.1 }];
                    return Err(unexpected(rules.text(DiagId::TokenAside, &[("aside", a)]), ctx.text(DiagId::ExpectedPathOpen), *open));
                }
                h.aside = Some((*open, *inner, *closed));
            }
            Tok::Text { start } => {
                if operands == Operands::Two && h.sels.len() < 2 {
                    // COPY and MOVE still need their destination.
                    return Err(unexpected(ctx.text(DiagId::TokenHeadingEol), ctx.text(DiagId::ExpectedPathOpen), *start));
                }
                h.text = Some((*start, seg.end));
            }
        }
    }
    if operands == Operands::Two && h.sels.len() < 2 {
        let (found, at) = if seg.closers.is_empty() {
            (DiagId::TokenHeadingEol, line.len())
        } else {
            (DiagId::TokenCloser, seg.closers[0].0)
        };
        if !h.pre.scopes.is_empty() && h.sels.is_empty() {
            return Err(unexpected(ctx.text(DiagId::TokenScope), ctx.text(DiagId::ExpectedPathOpen), h.pre.scopes[0].0));
        }
        return Err(unexpected(ctx.text(found), ctx.text(DiagId::ExpectedPathOpen), at));
    }
    if h.sels.is_empty() && (!h.pre.scopes.is_empty() || !h.pre.metas.is_empty()) {
        h.sels.push(Sel { target: None, scopes: std::mem::take(&mut h.pre.scopes), metas: std::mem::take(&mut h.pre.metas), object: None, member: None });
    }

    let mut notes: Vec<ParseError> = Vec::new();
    let aside = h.aside.map(|(open, inner, closed)| {
        if !closed {
            notes.push(make(rules, DiagId::UnclosedAside, ctx.pos(line_no, open), &[], None));
        }
        line[inner.0..inner.1].trim().to_string()
    });

    match op {
        None => executor(ctx, r, seg, named, &name, h, aside, position, body, notes, out),
        Some(o) => operation(ctx, r, o, named, &name, h, aside, position, body, notes, out),
    }
}

fn is_json_array(block: &str) -> bool {
    matches!(serde_json::from_str::<serde_json::Value>(block), Ok(serde_json::Value::Array(a)) if a.iter().all(|v| v.is_object()))
}

/// The body text, as the operation's body kind holds it.
fn body_text<'a>(ctx: &Ctx<'a, '_>, body: Option<(usize, usize, u32, u32)>) -> Option<&'a str> {
    body.map(|(s, e, _, _)| &ctx.input[s..e]).filter(|t| !t.is_empty())
}

fn read_target(sel: &Sel, line: &str, inner: (usize, usize)) -> Result<Target, ()> {
    match &sel.member {
        Some(m) => target::parse(m).map_err(|_| ()),
        None => target::parse(&target::decode_slot(&line[inner.0..inner.1])).map_err(|_| ()),
    }
}

/// Reads one selection's scopes under `domain`; pushes advisories; `Err` carries the refusal.
fn read_scopes(ctx: &Ctx<'_, '_>, h: &Heading, sel: &Sel, domain: ScopeDomain, opname: &str, named: Named, notes: &mut Vec<ParseError>) -> Result<Option<LineMarker>, ParseError> {
    let rules = ctx.rules;
    let Some(&(open, inner, closed)) = sel.scopes.first() else { return Ok(None) };
    let written = scope_written(h.line, open, inner, closed);
    let at = ctx.pos(h.line_no, open);
    match scope::read(&h.line[inner.0..inner.1], domain, &written) {
        Ok((lm, scope_notes)) => {
            for n in scope_notes {
                match n {
                    scope::ScopeNote::AnchorDigits(d) => notes.push(make(rules, DiagId::AnchorDigits, at, &[("digits", &d)], None)),
                    scope::ScopeNote::Recovered(w, c) => notes.push(make(rules, DiagId::ScopeRecovered, at, &[("written", &w), ("canonical", &c)], None)),
                }
            }
            Ok(Some(lm))
        }
        Err(e) => Err(scope_error(ctx, e, at, &written, domain, opname, named)),
    }
}

fn scope_written(line: &str, open: usize, inner: (usize, usize), closed: bool) -> String {
    let s = if closed { &line[open..inner.1 + 1] } else { &line[open..inner.1] };
    let s = s.trim_end();
    // §invalid-scope-diagnostic: at most 64 code points.
    if s.chars().count() > 64 {
        let mut t: String = s.chars().take(64).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

fn scope_error(ctx: &Ctx<'_, '_>, e: scope::ScopeError, at: Position, written: &str, domain: ScopeDomain, opname: &str, named: Named) -> ParseError {
    let rules = ctx.rules;
    let wf = Some(ctx.working_form(named));
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
        scope::ScopeError::BadOffset => make(rules, DiagId::InvalidOffsetScope, at, &[("scope", written)], Some(ctx.text(DiagId::InvalidOffsetScopeRecovery))),
        scope::ScopeError::OffsetStart => make(rules, DiagId::OffsetScopeStart, at, &[("scope", written)], None),
        scope::ScopeError::Unsafe => make(rules, DiagId::ScopeUnsafe, at, &[("scope", written)], None),
    }
}


#[allow(clippy::too_many_arguments)]
fn executor<'a>(ctx: &Ctx<'a, '_>, _r: &OpRegion, _seg: &Segment, named: Named, name: &str, h: Heading, aside: Option<String>, position: Position, body: Option<(usize, usize, u32, u32)>, mut notes: Vec<ParseError>, out: &mut Out<'a>) -> Result<(), Refusal> {
    let rules = ctx.rules;
    let wf = || Some(ctx.working_form(named));
    let mut sel = h.sels.first().cloned().unwrap_or_default();
    if h.sels.is_empty() {
        sel.metas = h.pre.metas.clone();
    }
    if sel.scopes.len() > 1 {
        return Err(Refusal::Error(make(rules, DiagId::ExecutorOneScope, position, &[("executor", name)], wf())));
    }
    let target = match sel.target {
        Some((_, inner)) => Some(Target::Local { raw: target::decode_slot(&h.line[inner.0..inner.1]).into_owned(), fragment: None }),
        None => None,
    };
    let target = match target {
        Some(Target::Local { raw, .. }) if target::url_prefix(&raw).is_some() => match target::parse(&raw) {
            Ok(t) => Some(t),
            Err(_) => return Err(Refusal::Error(make(rules, DiagId::InvalidUri, position, &[], Some(ctx.text(DiagId::InvalidUriRecovery))))),
        },
        t => t,
    };
    let lm = read_scopes(ctx, &h, &sel, rules.tables.executors.scope, name, named, &mut notes).map_err(Refusal::Error)?;
    let mut body_s: Option<Cow<'a, str>> = body_text(ctx, body).map(Cow::Borrowed);
    if let Some((start, end)) = h.text {
        // §bare-option-object: an executor always reads heading text as its input.
        let t = h.line[start..end].trim_end();
        let t = strip_closers(t);
        notes.push(make(rules, DiagId::InlineBody, position, &[("op", name)], None));
        body_s = Some(match body_s {
            Some(b) => Cow::Owned(format!("{t}\n{b}")),
            None => Cow::Owned(t.to_string()),
        });
    }
    let st = Statement {
        head: Head::Runtime(name.to_string()),
        aside,
        target,
        metadata: metadata_of(&h, &sel),
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
    };
    out.items.push(Item::Statement(st));
    out.items.extend(notes.into_iter().map(Item::Error));
    Ok(())
}

fn strip_closers(t: &str) -> &str {
    t.trim_end_matches('`').trim_end()
}

#[allow(clippy::too_many_arguments)]
fn operation<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, o: &Operation, named: Named, name: &str, mut h: Heading, mut aside: Option<String>, position: Position, body: Option<(usize, usize, u32, u32)>, mut notes: Vec<ParseError>, out: &mut Out<'a>) -> Result<(), Refusal> {
    let rules = ctx.rules;
    let wf = || Some(ctx.working_form(named));
    let line = h.line;

    // Scopes on operations that take none (§scope-on-scopeless, §send-wait-scope).
    let has_target = h.sels.iter().any(|s| s.target.is_some());
    let scope_dropped = o.scope == ScopeDomain::None || (o.scope_needs_target && !has_target) || o.scope == ScopeDomain::Ignored;
    if scope_dropped {
        for sel in h.sels.iter_mut() {
            for (open, inner, closed) in sel.scopes.drain(..) {
                let written = scope_written(line, open, inner, closed);
                let at = ctx.pos(h.line_no, open);
                let id = if o.scope == ScopeDomain::Ignored {
                    DiagId::WaitDurationIgnored
                } else if o.operands == Operands::None {
                    DiagId::ScopeDroppedNoTarget
                } else if o.scope_needs_target {
                    DiagId::ScopeDroppedNoRecipient
                } else {
                    DiagId::ScopeDroppedTargetOnly
                };
                notes.push(make(rules, id, at, &[("op", name), ("scope", &written), ("written", &written)], None));
            }
        }
    }
    for sel in &h.sels {
        if sel.scopes.len() > 1 {
            let w = |i: usize| {
                let (open, inner, closed) = sel.scopes[i];
                scope_written(line, open, inner, closed)
            };
            return Err(Refusal::Error(make(rules, DiagId::TwoScopes, position, &[("first", &w(0)), ("second", &w(1))], Some(ctx.text(DiagId::TwoScopesRecovery)))));
        }
    }

    // Heading text after the slots (§heading-inline-body).
    let mut matcher_raw: Option<String> = None;
    let mut inline_body: Option<String> = None;
    if let Some((start, end)) = h.text {
        let mut text = clean_text(line, start, end, &h);
        // Trailing slots peel off the right (§trailing-slots).
        if o.inline_text == InlineText::Matcher || o.inline_text == InlineText::SigilMatcherElseBody {
            peel(ctx, &mut h, &mut text, &mut aside, &mut notes, position, o)?;
        }
        let text = text.trim_end().to_string();
        match o.inline_text {
            InlineText::Matcher => {
                if !text.is_empty() {
                    if serde_json::from_str::<serde_json::Value>(&text).map(|v| v.is_object()).unwrap_or(false) {
                        notes.push(make(rules, DiagId::JsonMatcher, position, &[], None));
                    }
                    matcher_raw = Some(text);
                }
            }
            InlineText::SigilMatcherElseBody => {
                if starts_with_sigil(&text) {
                    matcher_raw = Some(text);
                } else if !text.is_empty() {
                    inline_body = Some(text);
                }
            }
            InlineText::Ignored => {
                let subject = rules.text(DiagId::BodyUnusedSubject, &[("op", name)]);
                notes.push(make(rules, DiagId::BodyUnusedHeading, position, &[("subject", &subject), ("line", &(h.line_no + 1).to_string())], None));
            }
            InlineText::OptionObjectElseBody => {
                let is_obj = serde_json::from_str::<serde_json::Value>(&text).map(|v| v.is_object()).unwrap_or(false);
                let needs_target = o.body == BodyKind::Prompt;
                let admits = h.sels.iter().all(|s| s.metas.is_empty()) && h.pre.metas.is_empty() && (!needs_target || has_target);
                if is_obj && admits {
                    let at = start;
                    let _ = at;
                    if h.sels.is_empty() {
                        h.sels.push(Sel::default());
                    }
                    h.sels[0].object = Some(text.clone());
                    notes.push(make(rules, DiagId::BareOptionObject, position, &[("op", name)], None));
                } else if !text.is_empty() {
                    inline_body = Some(text);
                }
            }
            InlineText::Body | InlineText::Refused => {
                if !text.is_empty() {
                    inline_body = Some(text);
                }
            }
        }
        if inline_body.is_some() {
            notes.push(make(rules, DiagId::InlineBody, position, &[("op", name)], None));
        }
    }

    let shape = o.shape;
    let head = Head::Op { name: name.to_string(), shape };
    let raw_body = body_text(ctx, body);
    let raw_body = match r.form {
        Form::Naked(_) => naked_body(raw_body),
        _ => raw_body,
    };

    if shape == Shape::Transfer {
        let mut sels = Vec::new();
        for sel in &h.sels {
            let target = match sel.target {
                Some((_, inner)) => Some(read_target(sel, line, inner).map_err(|_| invalid_uri(ctx, position))?),
                None => None,
            };
            let lm = read_scopes(ctx, &h, sel, o.scope, name, named, &mut notes).map_err(Refusal::Error)?;
            let (meta, lifted) = lift_pattern(ctx, &h, sel, name, position)?;
            let matcher = lifted.map(|m| read_matcher(ctx, &m, position, &mut notes));
            sels.push(Selection { target, metadata: meta, line_marker: lm, matcher });
        }
        if let Some((_, _, first, last)) = body {
            if raw_body.is_some() {
                notes.push(body_unused(ctx, name, false, first, last, position));
            }
        }
        let mut it = sels.into_iter();
        let st = Statement {
            head,
            aside,
            target: None,
            metadata: None,
            line_marker: None,
            matcher: None,
            body: Body::Null,
            source: it.next(),
            destination: it.next(),
            seconds: None,
            position,
        };
        out.items.push(Item::Statement(st));
        out.items.extend(notes.into_iter().map(Item::Error));
        return Ok(());
    }

    if o.operands == Operands::Required || o.operands == Operands::Group {
        // §bare-target: a word where the target goes.
        if !has_target && matches!(o.inline_text, InlineText::Matcher | InlineText::SigilMatcherElseBody) && o.body != BodyKind::Distillation {
            let word = matcher_raw.as_deref().or(inline_body.as_deref());
            if let Some(w) = word {
                if !starts_with_sigil(w) {
                    let word = w.split_whitespace().next().unwrap_or("").to_string();
                    return Err(Refusal::Error(make(rules, DiagId::BareTarget, position, &[("op", name), ("word", &word)], wf())));
                }
            }
        }
        if !has_target && o.body == BodyKind::Distillation {
            // §kill-scope (6.0): KILL requires a target.
            return Err(Refusal::Error(make(rules, DiagId::MissingTarget, position, &[("op", name)], wf())));
        }
    }

    // Statements: one per selection (a target group compiles to ordinary statements).
    let mut sels: Vec<Sel> = Vec::with_capacity(h.sels.len());
    for sel in &h.sels {
        // §safe-uri-target-groups: an explicit URI list in one slot is a target group.
        let members = match (o.operands, sel.target) {
            (Operands::Group, Some((_, inner))) => target::split_uri_group(&target::decode_slot(&line[inner.0..inner.1])),
            _ => None,
        };
        match members {
            Some(list) => {
                for m in list {
                    let mut each = sel.clone();
                    each.member = Some(m);
                    sels.push(each);
                }
            }
            None => sels.push(sel.clone()),
        }
    }
    if sels.is_empty() {
        sels.push(Sel::default());
    }
    let mut built = Vec::new();
    let group_matcher = matcher_raw.clone();
    for (k, sel) in sels.iter().enumerate() {
        let target = match sel.target {
            Some((_, inner)) => Some(read_target(sel, line, inner).map_err(|_| invalid_uri(ctx, position))?),
            None => None,
        };
        let lm = if scope_dropped { None } else { read_scopes(ctx, &h, sel, o.scope, name, named, &mut notes).map_err(Refusal::Error)? };
        let (meta, lifted) = if o.shape == Shape::Selection { lift_pattern(ctx, &h, sel, name, position)? } else { (metadata_of(&h, sel), None) };
        let mut m = lifted.or_else(|| group_matcher.clone());
        let mut body_val = Body::Null;
        let is_log = target.as_ref().and_then(|t| t.scheme()) == Some("log");
        match o.body {
            BodyKind::None | BodyKind::Distillation => {
                let keeps = o.body == BodyKind::Distillation && is_log;
                if k == 0 {
                    if let Some(b) = raw_body {
                        if keeps {
                            body_val = Body::Text(Cow::Borrowed(b));
                        } else if m.is_none() && o.inline_text == InlineText::Matcher && !b.contains('\n') && starts_with_sigil(b.trim()) {
                            // One sigil line beneath the heading is the bare form a line low.
                            m = Some(b.trim().to_string());
                        } else if o.body == BodyKind::None && is_comment_only(b) && aside.is_none() {
                            aside = Some(b.trim()[4..b.trim().len() - 3].trim().to_string());
                            notes.push(make(rules, DiagId::MisplacedAside, position, &[("op", name)], None));
                        } else if let Some((_, _, first, last)) = body {
                            notes.push(body_unused(ctx, name, o.body == BodyKind::Distillation, first, last, position));
                        }
                    }
                }
            }
            BodyKind::Literal | BodyKind::Prompt => {
                let text = join_body(inline_body.as_deref(), raw_body);
                body_val = match text {
                    Some(t) => Body::Text(t),
                    None if o.body == BodyKind::Prompt => Body::Text(Cow::Borrowed("")),
                    None => Body::Null,
                };
            }
            BodyKind::Message => {
                if let Some(t) = join_body(inline_body.as_deref(), raw_body) {
                    let json = serde_json::from_str::<serde_json::Value>(&t).ok();
                    body_val = Body::Message { raw: t, json };
                }
            }
            BodyKind::Matcher => {
                if let Some(t) = join_body(inline_body.as_deref(), raw_body) {
                    body_val = Body::Matcher(read_matcher(ctx, &t, position, &mut notes));
                }
            }
        }
        let matcher = if o.shape == Shape::Selection { m.map(|raw| read_matcher(ctx, &raw, position, &mut notes)) } else { None };
        let seconds = None;
        let meta = if o.duration_metadata { None } else { meta };
        built.push(Statement {
            head: head.clone(),
            aside: aside.clone(),
            target,
            metadata: meta,
            line_marker: lm,
            matcher,
            body: body_val,
            source: None,
            destination: None,
            seconds,
            position,
        });
    }
    for st in built {
        out.items.push(Item::Statement(st));
    }
    out.items.extend(notes.into_iter().map(Item::Error));
    Ok(())
}

fn metadata_of(h: &Heading, sel: &Sel) -> Option<Vec<String>> {
    let mut v = Vec::new();
    for (_, inner) in &sel.metas {
        v.push(h.line[inner.0..inner.1].to_string());
    }
    if let Some(o) = &sel.object {
        v.push(o.clone());
    }
    if v.is_empty() {
        None
    } else {
        Some(v)
    }
}


/// Lifts `pattern` from one option block that parses as an array of objects (§matcher-option).
fn lift_pattern(ctx: &Ctx<'_, '_>, h: &Heading, sel: &Sel, name: &str, position: Position) -> Result<(Option<Vec<String>>, Option<String>), Refusal> {
    let meta = metadata_of(h, sel);
    let Some(blocks) = &meta else { return Ok((None, None)) };
    let mut lifted = None;
    let mut keep = Vec::new();
    for b in blocks {
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
fn read_matcher(ctx: &Ctx<'_, '_>, raw: &str, position: Position, notes: &mut Vec<ParseError>) -> Matcher {
    let (m, found) = matcher::read(ctx.rules, raw);
    for n in found {
        let args: Vec<(&str, &str)> = n.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        if !notes.iter().any(|e| e.message == ctx.rules.text(n.id, &args)) {
            notes.push(make(ctx.rules, n.id, position, &args, None));
        }
    }
    m
}

fn invalid_uri(ctx: &Ctx<'_, '_>, position: Position) -> Refusal {
    Refusal::Error(make(ctx.rules, DiagId::InvalidUri, position, &[], Some(ctx.text(DiagId::InvalidUriRecovery))))
}

fn body_unused(ctx: &Ctx<'_, '_>, name: &str, kill: bool, first: u32, last: u32, position: Position) -> ParseError {
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

/// The heading text with its transparent closers removed.
fn clean_text(line: &str, start: usize, end: usize, _h: &Heading) -> String {
    let mut s = String::new();
    let b = line.as_bytes();
    let mut i = start;
    while i < end {
        if b[i] == b'`' {
            let j = i + b[i..end].iter().take_while(|&&c| c == b'`').count();
            if j - i >= 3 {
                i = j;
                continue;
            }
            s.push_str(&line[i..j]);
            i = j;
            continue;
        }
        let ch = line[i..].chars().next().unwrap();
        s.push(ch);
        i += ch.len_utf8();
    }
    s
}

/// §trailing-slots: a trailing aside, scope or option block comes off the matcher's right end.
fn peel(ctx: &Ctx<'_, '_>, h: &mut Heading, text: &mut String, aside: &mut Option<String>, notes: &mut Vec<ParseError>, position: Position, o: &Operation) -> Result<(), Refusal> {
    let _ = (ctx, notes, position, o);
    loop {
        let t = text.trim_end();
        if aside.is_none() && t.ends_with("-->") {
            if let Some(i) = t.rfind("<!--") {
                *aside = Some(t[i + 4..t.len() - 3].trim().to_string());
                *text = t[..i].to_string();
                continue;
            }
        }
        let _ = h;
        break;
    }
    Ok(())
}

fn naked_body(b: Option<&str>) -> Option<&str> {
    let b = b?;
    // §naked-operation: a trailing bare fence nothing in the body pairs with is the closer.
    let lines: Vec<&str> = b.split('\n').collect();
    let fence = |l: &str| {
        let t = l.trim_end_matches('\r').trim();
        t.len() >= 3 && t.bytes().all(|c| c == b'`')
    };
    let count = lines.iter().filter(|l| {
        let t = l.trim_start();
        t.starts_with("```")
    }).count();
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

#[allow(dead_code)]
fn source_unused(_: Source) {}
