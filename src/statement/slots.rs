//! A selection's slots (§slot-order): its target read from the slot or the log's arrow
//! (§path-syntax), its scope read under the operation's domain with the advisories and refusals
//! of §14 (§scope-on-scopeless, §invalid-scope-diagnostic, §error-shape), its option blocks.

use std::borrow::Cow;

use super::{Ctx, Heading, Refusal, ScopeTok, Sel, TSrc};
use crate::ast::{Diagnostic, LineMarker, Position, Target};
use crate::diagnose::make;
use crate::rules::model::{LeadingMetadata, Operands, Operation, ScopeDomain};
use crate::rules::DiagId;
use crate::scan::Named;
use crate::{scope, target};

/// The note for scope `st` on `line` (number `line_no`) that operation `o`, named `name`, drops
/// (§scope-on-scopeless, §send-wait-scope).
pub(super) fn dropped_scope_note(ctx: &Ctx<'_, '_>, o: &Operation, name: &str, line: &str, line_no: u32, st: &ScopeTok) -> Diagnostic {
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
pub(super) fn leading_metadata(ctx: &Ctx<'_, '_>, op: Option<&Operation>) -> LeadingMetadata {
    match op {
        Some(o) => o.leading_metadata,
        None => ctx.rules.tables.executors.leading_metadata,
    }
}

/// Whether operation `o` drops every scope written on its heading (§scope-on-scopeless,
/// §send-wait-scope).
pub(super) fn drops_scopes(o: &Operation, has_target: bool) -> bool {
    o.scope == ScopeDomain::None || (o.scope_needs_target && !has_target) || o.scope == ScopeDomain::Ignored
}

/// A selection's target text: borrowed from the heading unless an escape was decoded.
#[inline]
pub(super) fn target_raw<'a>(h: &Heading<'a>, sel: &Sel) -> Option<Cow<'a, str>> {
    if let Some(m) = &sel.member {
        return Some(Cow::Owned(m.clone()));
    }
    match sel.target? {
        TSrc::Slot(inner) => Some(target::decode_marked(&h.line[inner.0..inner.1], sel.marks)),
        TSrc::Arrow(inner) => Some(Cow::Borrowed(&h.line[inner.0..inner.1])),
    }
}

pub(super) fn read_target<'a>(ctx: &Ctx<'_, '_>, h: &Heading<'a>, sel: &Sel, position: Position) -> Result<Option<Target<'a>>, Refusal> {
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
pub(super) fn parse_target<'a>(
    ctx: &Ctx<'_, '_>,
    raw: Cow<'a, str>,
    marks: target::SlotMarks,
    position: Position,
) -> Result<Target<'a>, Refusal> {
    target::parse_marked(raw, marks).map_err(|_| invalid_uri(ctx, position))
}

/// Reads one selection's scope under `domain`; pushes advisories; `Err` carries the refusal.
/// The check stays inline (most selections have no scope); the reading is out of line.
#[inline]
pub(super) fn read_scope(
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
pub(super) fn read_scope_tok(
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
pub(super) fn scope_inner<'l>(ctx: &Ctx<'_, '_>, line: &'l str, st: &ScopeTok) -> Cow<'l, str> {
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
pub(super) fn malformed_scope(ctx: &Ctx<'_, '_>, h: &Heading, domain: ScopeDomain, opname: &str, named: Named) -> Result<(), Refusal> {
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
pub(super) fn malformed(
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
pub(super) fn scope_written(line: &str, st: &ScopeTok) -> String {
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

pub(super) fn scope_error(
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

pub(super) fn metadata_of(sel: &Sel) -> Option<Vec<String>> {
    if sel.metas.is_empty() {
        None
    } else {
        Some(sel.metas.clone())
    }
}

/// The working form of a scope in `domain` (§parse-recovery).
#[cold]
pub(super) fn scope_form(ctx: &Ctx<'_, '_>, domain: ScopeDomain) -> String {
    ctx.text(match domain {
        ScopeDomain::ResultPositions => DiagId::ScopeFormResultPositions,
        ScopeDomain::Minutes => DiagId::ScopeFormMinutes,
        ScopeDomain::OwnerDefined => DiagId::ScopeFormOwnerDefined,
        _ => DiagId::ScopeFormTextCoordinates,
    })
}

/// §slot-order: a selection takes one scope; a second is refused with the scope's working form.
pub(super) fn two_scopes(ctx: &Ctx<'_, '_>, h: &Heading, position: Position, domain: ScopeDomain) -> Result<(), Refusal> {
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

/// §kill-scope (6.0): operation `index`, a distillation, was written without its target.
#[cold]
#[inline(never)]
pub(super) fn missing_target(ctx: &Ctx<'_, '_>, index: usize, position: Position) -> Refusal {
    let named = Named::Op(index);
    Refusal::Error(make(ctx.rules, DiagId::MissingTarget, position, &[("op", ctx.name_of(named))], Some(ctx.working_form(named))))
}

#[cold]
#[inline(never)]
pub(super) fn invalid_uri(ctx: &Ctx<'_, '_>, position: Position) -> Refusal {
    Refusal::Error(make(ctx.rules, DiagId::InvalidUri, position, &[], Some(ctx.text(DiagId::InvalidUriRecovery))))
}
