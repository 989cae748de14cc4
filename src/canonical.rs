//! A statement's canonical text (§statement-rendering, §slot-order), written without reading it
//! back: its heading, its body, its frame. `render` re-exports [`heading`], [`body_text`] and
//! [`frame`] and adds the check that a rendering reads back as the statement it renders; the
//! statement builder writes the canonical heading a log address names (§log-heading-notation)
//! from here, inside a parse, where reading back would recurse.

use crate::ast::*;
use crate::rules::Rules;
use crate::target::encode_slot;

/// A target as written in its slot (§path-parentheses, §local-path-fragment): the channel of a
/// bare path is rendered back after `#`.
pub(crate) fn target_text(t: &Target) -> String {
    match t {
        Target::Local { raw, fragment } => {
            let mut s = encode_slot(raw);
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&encode_slot(f));
            }
            s
        }
        Target::Url(u) => encode_slot(u.raw()),
    }
}

/// A scope as written: `<` components joined by commas, no spaces `>` (§scope-marker-forms).
pub(crate) fn scope_text(lm: &LineMarker) -> String {
    let parts: Vec<String> = lm
        .marks
        .iter()
        .map(|m| match m {
            Mark::Int(i) => i.to_string(),
            Mark::Num(f) => number(*f),
            Mark::Anchor(a) => a.clone(),
        })
        .collect();
    format!("<{}>", parts.join(","))
}

/// A number as JSON writes it (integers without a fraction).
pub(crate) fn number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        (f as i64).to_string()
    } else {
        serde_json::Number::from_f64(f).map(|n| n.to_string()).unwrap_or_default()
    }
}

/// The matcher's text as its author wrote it.
pub(crate) fn matcher_raw(m: &Matcher) -> &str {
    match m {
        Matcher::Regex { raw, .. } | Matcher::Other { raw, .. } | Matcher::Unreadable { raw, .. } => raw,
    }
}

/// Whether a matcher may ride the heading bare at all (§naked-pattern): one line, not padded,
/// not opening like a slot (`(`, `<`, `[`, `{`), an anchor or a channel, holding no aside, no
/// backtick and no log notation, and not ending in a shape that would peel off as a trailing slot
/// (§trailing-slots). [`stringify()`](crate::render::stringify) still reads the bare form back before keeping it.
pub(crate) fn bare_matcher_ok(raw: &str) -> bool {
    let t = raw.trim();
    !t.is_empty()
        && t == raw
        && !raw.contains(['\n', '\r', '`'])
        && !raw.contains("<!--")
        && !raw.contains('\u{00B7}')
        && !raw.contains('\u{2192}')
        && !matches!(raw.as_bytes()[0], b'(' | b'<' | b'[' | b'{' | b'#' | b'@')
        && !raw.ends_with('>')
        && !raw.ends_with(']')
}

/// `[{"pattern": "…"}]` for a matcher (§matcher-option).
fn pattern_block(raw: &str) -> String {
    let block = serde_json::json!([{ "pattern": raw }]).to_string();
    format!(" {block}")
}

/// Whether one of `blocks` already carries the matcher as its `pattern` (the block stays with
/// the owner verbatim beside other keys, §matcher-option).
fn blocks_carry_pattern(blocks: &Option<Vec<String>>) -> bool {
    blocks.iter().flatten().any(|b| {
        serde_json::from_str::<serde_json::Value>(&format!("[{b}]"))
            .ok()
            .and_then(|v| v.as_array().cloned())
            .map(|outer| {
                outer.iter().flat_map(|x| x.as_array().cloned().unwrap_or_else(|| vec![x.clone()])).any(|o| o.get("pattern").is_some())
            })
            .unwrap_or(false)
    })
}

/// One selection's slots in §slot-order: target, scope, metadata blocks (authored order).
fn push_selection(out: &mut String, target: &Option<Target>, lm: &Option<LineMarker>, meta: &Option<Vec<String>>) {
    if let Some(t) = target {
        out.push_str(" (");
        out.push_str(&target_text(t));
        out.push(')');
    }
    if let Some(l) = lm {
        out.push(' ');
        out.push_str(&scope_text(l));
    }
    for b in meta.iter().flatten() {
        out.push_str(" [");
        out.push_str(b);
        out.push(']');
    }
}

/// How a matcher is written on a heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MatcherForm {
    /// Not written: absent, or carried by an owner block's `pattern`.
    None,
    Bare,
    Block,
    /// The matcher's line beneath the heading, where a bodyless retrieval reads it as the
    /// matcher (the statement must carry no body of its own).
    Body,
}

/// The forms worth trying for a matcher, preferred first.
fn matcher_forms(m: Option<&Matcher>, meta: &Option<Vec<String>>, bare_allowed: bool) -> Vec<MatcherForm> {
    match m {
        None => vec![MatcherForm::None],
        Some(m) => {
            let mut v = Vec::new();
            if blocks_carry_pattern(meta) {
                v.push(MatcherForm::None);
            }
            if bare_allowed && bare_matcher_ok(matcher_raw(m)) {
                v.push(MatcherForm::Bare);
            }
            v.push(MatcherForm::Block);
            // The preferred check above is conservative; a one-line matcher it turned down may
            // still read back bare where the block is refused (READ without a target).
            if bare_allowed && !v.contains(&MatcherForm::Bare) && !matcher_raw(m).contains(['\n', '\r']) {
                v.push(MatcherForm::Bare);
            }
            if bare_allowed && !matcher_raw(m).contains(['\n', '\r']) {
                v.push(MatcherForm::Body);
            }
            if !v.contains(&MatcherForm::None) {
                v.push(MatcherForm::None);
            }
            v
        }
    }
}

fn push_matcher(out: &mut String, m: Option<&Matcher>, form: MatcherForm) {
    if let Some(m) = m {
        match form {
            MatcherForm::None | MatcherForm::Body => {}
            MatcherForm::Bare => {
                out.push(' ');
                out.push_str(matcher_raw(m));
            }
            MatcherForm::Block => out.push_str(&pattern_block(matcher_raw(m))),
        }
    }
}

/// The heading for given matcher forms: `[main]` or `[source, destination]`.
fn heading_with(s: &Statement, forms: &[MatcherForm], notation: Option<&str>, meta_last: bool) -> String {
    let mut out = String::new();
    match &s.head {
        Head::Op { name, .. } => out.push_str(name),
        Head::Runtime(r) => out.push_str(r),
    }
    if s.source.is_some() || s.destination.is_some() {
        for (k, sel) in [&s.source, &s.destination].into_iter().enumerate() {
            if let Some(sel) = sel {
                push_selection(&mut out, &sel.target, &sel.line_marker, &sel.metadata);
                push_matcher(&mut out, sel.matcher.as_ref(), forms.get(k).copied().unwrap_or(MatcherForm::Block));
            }
        }
    } else {
        // WAIT's `[seconds]` duration is its metadata as written (§send-wait-scope).
        let meta = match (s.seconds, &s.metadata) {
            (Some(sec), None) => Some(vec![number(sec)]),
            (_, m) => m.clone(),
        };
        if meta_last {
            // Trailing slots peel off the right of a bare matcher (§trailing-slots): the form a
            // targetless heading needs, where a block before the text would lead it.
            push_selection(&mut out, &s.target, &s.line_marker, &None);
            push_matcher(&mut out, s.matcher.as_deref(), forms.first().copied().unwrap_or(MatcherForm::Block));
            push_selection(&mut out, &None, &None, &meta);
        } else {
            push_selection(&mut out, &s.target, &s.line_marker, &meta);
            push_matcher(&mut out, s.matcher.as_deref(), forms.first().copied().unwrap_or(MatcherForm::Block));
        }
    }
    if let Some(a) = &s.aside {
        match notation {
            // An aside that holds a comment delimiter cannot ride `<!-- … -->`; the log's
            // notation reads the text after its charge separator as the aside
            // (§log-heading-notation).
            Some(sep) => {
                out.push(' ');
                out.push_str(sep);
                out.push(' ');
                out.push_str(a);
            }
            None => {
                out.push_str(" <!-- ");
                out.push_str(a);
                out.push_str(" -->");
            }
        }
    }
    out
}

/// Every heading worth trying for `s`, preferred first, each with the matcher it writes as the
/// body instead (the [`MatcherForm::Body`] form).
pub(crate) fn heading_candidates(s: &Statement) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let charge = &Rules::builtin().tables.notation.charge;
    let plain: &[Option<&str>] = &[None];
    let both: [Option<&str>; 2] = [None, Some(charge.as_str())];
    let asides: &[Option<&str>] = match &s.aside {
        Some(a) if a.contains("-->") || a.contains("<!--") => &both,
        _ => plain,
    };
    if s.source.is_some() || s.destination.is_some() {
        // Text after the slots on a transfer heading is ignored (§transfer-resource-selections):
        // an operand's matcher only ever rides an option block.
        let f = |sel: &Option<Box<Selection>>| {
            sel.as_deref().map(|x| matcher_forms(x.matcher.as_ref(), &x.metadata, false)).unwrap_or_else(|| vec![MatcherForm::None])
        };
        for a in f(&s.source) {
            for b in f(&s.destination) {
                for n in asides {
                    out.push((heading_with(s, &[a, b], *n, false), None));
                }
            }
        }
    } else {
        for a in matcher_forms(s.matcher.as_deref(), &s.metadata, true) {
            if a == MatcherForm::Body && !matches!(s.body, Body::Null) {
                continue;
            }
            let body = (a == MatcherForm::Body).then(|| s.matcher.as_ref().map(|m| matcher_raw(m).to_string())).flatten();
            for n in asides {
                out.push((heading_with(s, &[a], *n, false), body.clone()));
            }
        }
    }
    if s.source.is_none() && s.destination.is_none() && s.matcher.is_some() && s.metadata.is_some() {
        for n in asides {
            out.push((heading_with(s, &[MatcherForm::Bare], *n, true), None));
        }
    }
    out.dedup();
    out
}

/// The canonical heading line of a statement, without its fence and without reading it back.
pub fn heading(s: &Statement) -> String {
    heading_candidates(s).into_iter().next().map(|(h, _)| h).unwrap_or_default()
}

/// The body text a statement carries, as written beneath its heading.
pub fn body_text(s: &Statement) -> Option<String> {
    match &s.body {
        Body::Null => None,
        Body::Text(t) => Some(t.to_string()),
        Body::Message { raw, .. } => Some(raw.to_string()),
        Body::Matcher(m) => Some(matcher_raw(m).to_string()),
    }
}

/// The longest run of backticks anywhere in `text`.
fn longest_run(text: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for b in text.bytes() {
        if b == b'`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// One statement framed: the fence, `heading`, the body between framing newlines, and the
/// closing fence on its own line. The fence is `taught_width` backticks or one more than the
/// longest backtick run in the heading or body (§statement-rendering). A body ending in a
/// carriage return takes a CRLF framing line ending, so that carriage return stays body.
pub fn frame(heading: &str, body: Option<&str>, taught_width: usize) -> String {
    let runs = longest_run(heading).max(body.map(longest_run).unwrap_or(0));
    let fence = "`".repeat(taught_width.max(runs + 1));
    let mut out = String::with_capacity(heading.len() + body.map_or(0, str::len) + 2 * fence.len() + 4);
    out.push_str(&fence);
    out.push_str(heading);
    out.push('\n');
    if let Some(b) = body {
        out.push_str(b);
        out.push_str(if b.ends_with('\r') { "\r\n" } else { "\n" });
    }
    out.push_str(&fence);
    out
}
