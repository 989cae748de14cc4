//! The heading's text after the slots (§heading-inline-body): a matcher, a body, an anchor
//! standing for the scope (§bare-anchor-scope), an option object (§bare-option-object), or
//! slots written after a pattern and peeled off it (§trailing-slots); and the option blocks with
//! their `pattern` lifted (§matcher-option).

use std::borrow::Cow;

use super::slots::{metadata_of, scope_written, target_raw};
use super::{is_json_array, is_json_object, json_lead, notation_piece, starts_with_sigil, Ctx, Heading, Lifted, Refusal, ScopeTok, Sel};
use crate::ast::{Diagnostic, Position};
use crate::diagnose::make;
use crate::pair::regions::OpRegion;
use crate::rules::model::{BodyKind, InlineText, Operation, ScopeDomain, Shape};
use crate::rules::DiagId;
use crate::{heading, scope, target};

/// How the heading's text after the slots reads (§heading-inline-body).
pub(super) enum TextUse {
    Matcher(String),
    Body(String),
    Ignored,
}

/// Each selection's option blocks, `pattern` lifted (§matcher-option), into `lifted`; left
/// empty when no selection has a block (most headings): each then reads `(None, None)`, as
/// [`lift`] gives for a selection without one.
/// The check stays inline (every statement makes it twice); the lifting is out of line.
#[inline]
pub(super) fn lift_all(
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
pub(super) fn lift_each(
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

/// §heading-inline-body: what the text after the slots is, by the operation's shape. Out of
/// line: only a heading with text after its slots asks, and inlined it doubled the size of
/// `operation::operation`, whose every other statement then paid its instruction-cache lines.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn read_text(
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
pub(super) fn bare_anchor(text: &str) -> Option<String> {
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
pub(super) fn lift(ctx: &Ctx<'_, '_>, o: &Operation, sel: &Sel, name: &str, position: Position) -> Result<Lifted, Refusal> {
    if sel.metas.is_empty() {
        Ok((None, None))
    } else if o.shape == Shape::Plain {
        Ok((metadata_of(sel), None))
    } else {
        lift_pattern(ctx, sel, name, position)
    }
}

/// Lifts `pattern` from option blocks that parse as arrays of objects (§matcher-option).
pub(super) fn lift_pattern(
    ctx: &Ctx<'_, '_>,
    sel: &Sel,
    name: &str,
    position: Position,
) -> Result<(Option<Vec<String>>, Option<String>), Refusal> {
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

/// The heading text with its transparent closers removed (§transparent-inline-closer).
pub(super) fn clean_text(line: &str, start: usize, end: usize) -> String {
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
pub(super) fn clean_text_by_char(line: &str, start: usize, end: usize) -> String {
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

/// Where an option block written at the end of `t` starts (the blank before its `[`): the last
/// ` [` whose rest is a JSON array (§trailing-slots).
fn trailing_block(t: &str) -> Option<usize> {
    let i = t.rfind(" [")?;
    (t.ends_with(']') && is_json_array(&t[i + 1..])).then_some(i)
}

/// §trailing-slots: a trailing aside, scope, option block or log note comes off the matcher's
/// right end, each once and only when the heading lacks that slot. Out of line, as
/// [`read_text`] is.
#[inline(never)]
pub(super) fn peel(
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
    // §unclosed-aside: an aside opened after a blank and never closed takes the rest of the
    // line, after a matcher too (a naked matcher never holds `<!--`, §naked-pattern); the slots
    // before it are then peeled as they would be before a closed one. A `<!--` inside a trailing
    // option block is the block's (the escape §naked-pattern teaches for such a pattern).
    if h.aside.is_none() {
        // Left open as the lexer reads one (`heading::aside_close`), so `x <!-->` reads as `<!-->`.
        let opens = |i: usize| {
            let in_block = trailing_block(text.trim_end()).is_some_and(|j| j < i);
            (i == 0 || text[..i].ends_with([' ', '\t'])) && heading::aside_close(text.as_bytes(), i + 4).is_none() && !in_block
        };
        if let Some(i) = text.rfind("<!--").filter(|&i| opens(i)) {
            h.aside = Some(Cow::Owned(text[i + 4..].trim().to_string()));
            let at = h.line.rfind("<!--").unwrap_or(0);
            notes.push(make(rules, DiagId::UnclosedAside, ctx.pos(h.line_no, at), &[], None));
            text.truncate(i);
        }
    }
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
        if !took_block {
            if let Some(i) = trailing_block(t) {
                let block = &t[i + 1..];
                if h.sels.len() > 1 {
                    // §trailing-slots: with several path slots no one selection owns the block.
                    return Err(Refusal::Error(make(
                        rules,
                        DiagId::GroupOptionsAfterPattern,
                        position,
                        &[("block", block)],
                        Some(ctx.text(DiagId::GroupScopeAfterPatternRecovery)),
                    )));
                }
                if h.sels.len() == 1 && h.sels[0].metas.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;

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
