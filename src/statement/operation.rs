//! The statements a heading makes: an executor's (§exec-executor-slot) and a native operation's
//! under its row of the operation table (§op-shapes) — its selections, its body kind, the body
//! as written beneath the heading or joined from the heading's text (§heading-inline-body).

use std::borrow::Cow;

use super::slots::{
    dropped_scope_note, drops_scopes, invalid_uri, malformed_scope, metadata_of, missing_target, read_scope, read_target, target_raw,
    two_scopes,
};
use super::text::{clean_text, lift_all, peel, read_text, TextUse};
use super::{json_value, starts_with_sigil, Ctx, Heading, Lifted, Refusal, Sel, TSrc};
use crate::ast::{Body, Diagnostic, Head, Item, Matcher, Position, Selection, Statement, Target};
use crate::diagnose::make;
use crate::pair::regions::{Form, OpRegion};
use crate::rules::model::{BodyKind, InlineText, Operands, Operation, Shape};
use crate::rules::DiagId;
use crate::scan::Named;
use crate::{matcher, target};

pub(super) fn executor<'a>(
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

/// The statements of native operation `index` (`o`, named `name`). Out of line: inlined into
/// its one caller, the general builder's code grew by its size, each statement's lines farther
/// apart.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn operation<'a>(
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

    // The heading's text after the slots (§heading-inline-body, §trailing-slots).
    let mut text_use: Option<TextUse> = None;
    if let Some((start, end)) = h.text {
        let mut text = clean_text(line, start, end);
        if matches!(o.inline_text, InlineText::Matcher | InlineText::SigilMatcherElseBody) {
            peel(ctx, o, h, &mut text, position, notes, &mut lifted)?;
        }
        text.truncate(text.trim_end().len());
        if !text.is_empty() {
            // A block peeled off the text's end (§trailing-slots) may carry the `pattern`: the
            // text is then beside it, as in the canonical order (§heading-inline-body).
            let all_patterned = !lifted.is_empty() && lifted.iter().all(|(_, p)| p.is_some());
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
        let ignored = raw_body.is_some() && !matches!(text_use, Some(TextUse::Ignored));
        return transfer(ctx, o, index, name, h, position, &lifted, ignored, head, notes, out);
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
    let picks = if o.operands == Operands::Group { group_picks(h) } else { Vec::new() };
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
                let optional = || prompt_optional(o, target.as_ref());
                body_val = kept_body(ctx, o.body, join_body(inline_body.as_deref(), raw_body), optional, position, notes);
            }
        }
        let matcher = if o.shape == Shape::Selection { m.map(|raw| Box::new(read_matcher(ctx, raw, position, notes))) } else { None };
        let mut meta = meta.clone();
        if o.duration_metadata {
            // §send-wait-scope: `[seconds]` bounds the park; the smallest valid scalar wins.
            seconds = duration(rules, name, meta.take(), seconds, position, notes);
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

/// §transfer-resource-selections: a transfer's one statement, its selections as source and
/// destination. Out of line: few headings are transfers, and the rest need not carry its code.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn transfer<'a>(
    ctx: &Ctx<'a, '_>,
    o: &Operation,
    index: usize,
    name: &str,
    h: &mut Heading<'a>,
    position: Position,
    lifted: &[Lifted],
    body_ignored: bool,
    head: Head,
    notes: &mut Vec<Diagnostic>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), Refusal> {
    let named = Named::Op(index);
    let mut sels = Vec::new();
    for (k, sel) in h.sels.iter().enumerate() {
        let target = read_target(ctx, h, sel, position)?;
        let lm = read_scope(ctx, h, sel, o.scope, name, named, notes).map_err(Refusal::Error)?;
        let (meta, pat) = lifted.get(k).cloned().unwrap_or_default();
        let matcher = pat.map(|m| read_matcher(ctx, m, position, notes));
        sels.push(Selection { target, metadata: meta, line_marker: lm, matcher });
    }
    // One advisory, whether the text stood on the heading line, beneath it, or both.
    if body_ignored {
        notes.push(make(ctx.rules, DiagId::BodyIgnored, position, &[("op", name)], None));
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
    Ok(())
}

/// §target-group: the statements of a group operation's heading, each a selection's index
/// and, for a slot that proves a group, one member; empty when no slot does (the statements
/// are then the selections in order). Out of line: only group operations ask.
#[inline(never)]
fn group_picks(h: &Heading<'_>) -> Vec<(Option<usize>, Option<String>)> {
    let mut picks: Vec<(Option<usize>, Option<String>)> = Vec::new();
    for (k, sel) in h.sels.iter().enumerate() {
        let members = match sel.target {
            Some(TSrc::Slot(inner)) if sel.marks.may_be_group() => target::split_uri_group(&target::decode_slot(&h.line[inner.0..inner.1])),
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
    picks
}

/// §send-wait-scope: the park's bound after option blocks `meta`, from `seconds` so far — the
/// smallest valid scalar; each block that is none is noted. Out of line: only a row with
/// duration metadata asks.
#[inline(never)]
fn duration(
    rules: &crate::rules::Rules,
    name: &str,
    meta: Option<Vec<String>>,
    mut seconds: Option<f64>,
    position: Position,
    notes: &mut Vec<Diagnostic>,
) -> Option<f64> {
    for block in meta.unwrap_or_default() {
        match block.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => seconds = Some(seconds.map_or(v, |s: f64| s.min(v))),
            _ => notes.push(make(rules, DiagId::WaitDurationIgnored, position, &[("op", name), ("written", &format!("[{block}]"))], None)),
        }
    }
    seconds
}

/// Whether a prompt body may be absent: beside a prompt resource, which supplies the prompt
/// (§op-shapes, §bare-statement); the `worker://name` a row spawns (a name, no path) is no
/// resource.
#[inline]
pub(super) fn prompt_optional(o: &Operation, target: Option<&Target>) -> bool {
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
/// required and `null` where a prompt resource makes it optional (§empty-section): `optional`
/// is asked only then.
pub(super) fn kept_body<'a>(
    ctx: &Ctx<'a, '_>,
    kind: BodyKind,
    text: Option<Cow<'a, str>>,
    optional: impl FnOnce() -> bool,
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
        (BodyKind::Prompt, None) if !optional() => Body::Text(Cow::Borrowed("")),
        _ => Body::Null,
    }
}

/// The head of native operation `index`: its name borrows the built-in rule set; a caller's
/// rule set may be dropped first. Inlined: returned through memory, the head was written field
/// by field and read back at once in wider loads, a store-forwarding stall on every statement.
#[inline(always)]
pub(super) fn op_head(ctx: &Ctx<'_, '_>, index: usize, name: &str, shape: Shape) -> Head {
    let name = match ctx.rules.as_builtin() {
        Some(b) => Cow::Borrowed(b.op(index).name.as_str()),
        None => Cow::Owned(name.to_string()),
    };
    Head::Op { name, shape }
}

/// Reads a matcher and positions its advisories after the statement (§matcher-prefix-claims).
pub(super) fn read_matcher(ctx: &Ctx<'_, '_>, raw: String, position: Position, notes: &mut Vec<Diagnostic>) -> Matcher {
    let (m, found) = matcher::read_owned(ctx.rules, raw);
    for n in found {
        let args: Vec<(&str, &str)> = n.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        if !notes.iter().any(|e| e.message == ctx.rules.text(n.id, &args)) {
            notes.push(make(ctx.rules, n.id, position, &args, None));
        }
    }
    m
}

#[cold]
#[inline(never)]
pub(super) fn body_unused(ctx: &Ctx<'_, '_>, name: &str, kill: bool, first: u32, last: u32, position: Position) -> Diagnostic {
    let rules = ctx.rules;
    let subject = rules.text(if kill { DiagId::BodyUnusedSubjectKill } else { DiagId::BodyUnusedSubject }, &[("op", name)]);
    let lines = if first == last {
        rules.text(DiagId::BodyUnusedOneLine, &[("first", &(first + 1).to_string())])
    } else {
        rules.text(DiagId::BodyUnusedLineRange, &[("first", &(first + 1).to_string()), ("last", &(last + 1).to_string())])
    };
    make(rules, DiagId::BodyUnusedLines, position, &[("subject", &subject), ("lines", &lines)], None)
}

pub(super) fn join_body<'a>(inline: Option<&str>, body: Option<&'a str>) -> Option<Cow<'a, str>> {
    match (inline, body) {
        (Some(i), Some(b)) => Some(Cow::Owned(format!("{i}\n{b}"))),
        (Some(i), None) => Some(Cow::Owned(i.to_string())),
        (None, Some(b)) => Some(Cow::Borrowed(b)),
        (None, None) => None,
    }
}

pub(super) fn is_comment_only(b: &str) -> bool {
    let t = b.trim();
    t.starts_with("<!--") && t.ends_with("-->") && t.len() >= 7 && !t[4..t.len() - 3].contains("-->")
}

/// §naked-operation: a trailing bare fence nothing in the body pairs with is the closer.
pub(super) fn naked_body(b: Option<&str>, min: usize) -> Option<&str> {
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

/// The body text, as the operation's body kind holds it.
#[inline(always)]
pub(super) fn body_text<'a>(ctx: &Ctx<'a, '_>, body: Option<(usize, usize, u32, u32)>) -> Option<&'a str> {
    body.map(|(s, e, _, _)| &ctx.input[s..e]).filter(|t| !t.is_empty())
}
