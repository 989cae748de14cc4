//! Canonical rendering (§statement-rendering, §slot-order): `OP (target) <scope> [metadata]
//! matcher <!-- aside -->`, one ASCII space between slots, three backticks or more than any run
//! in the body, every closing fence on its own line.

use crate::ast::*;
use crate::target::encode_slot;

/// A target as written in its slot (§path-parentheses, §local-path-fragment).
pub fn target_text(t: &Target) -> String {
    match t {
        Target::Local { raw, fragment } => {
            let mut s = encode_slot(raw);
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&encode_slot(f));
            }
            s
        }
        Target::Url(u) => encode_slot(&u.raw),
    }
}

/// A scope as written: components joined by commas, no spaces (§scope-marker-forms).
pub fn scope_text(lm: &LineMarker) -> String {
    let parts: Vec<String> = lm
        .marks
        .iter()
        .map(|m| match m {
            Mark::Int(i) => i.to_string(),
            Mark::Num(f) => {
                let v = serde_json::Number::from_f64(*f).map(|n| n.to_string()).unwrap_or_else(|| f.to_string());
                v
            }
            Mark::Anchor(a) => a.clone(),
        })
        .collect();
    format!("<{}>", parts.join(","))
}

fn matcher_raw(m: &Matcher) -> &str {
    match m {
        Matcher::Regex { raw, .. } | Matcher::Other { raw, .. } | Matcher::Unreadable { raw, .. } => raw,
    }
}

/// Whether a matcher can ride the heading bare and read back as itself (§naked-pattern): not
/// opening with `(`, `<`, `[` or a backtick, holding no `<!--`, one line, and not ending in a
/// shape that would peel off as a slot.
pub fn bare_matcher_ok(raw: &str) -> bool {
    let t = raw.trim();
    !t.is_empty()
        && t == raw
        && !raw.contains('\n')
        && !raw.contains("<!--")
        && !raw.contains('·')
        && !matches!(raw.as_bytes()[0], b'(' | b'<' | b'[' | b'`' | b'{' | b'#' | b'@')
        && !raw.ends_with('>')
        && !raw.ends_with(']')
        && !raw.contains("```")
}

fn push_matcher(out: &mut String, m: &Matcher, metadata: &Option<Vec<String>>) {
    let raw = matcher_raw(m);
    if metadata.is_none() && bare_matcher_ok(raw) {
        out.push(' ');
        out.push_str(raw);
    } else {
        out.push_str(" [");
        out.push_str(&serde_json::json!([{ "pattern": raw }]).to_string()[1..]);
        out.pop();
        out.push(']');
    }
}

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
    if let Some(blocks) = meta {
        for b in blocks {
            out.push_str(" [");
            out.push_str(b);
            out.push(']');
        }
    }
}

/// The heading line of a statement, without its fence.
pub fn heading(s: &Statement) -> String {
    let mut out = String::new();
    match &s.head {
        Head::Op { name, .. } => out.push_str(name),
        Head::Runtime(r) => out.push_str(r),
    }
    if s.source.is_some() || s.destination.is_some() {
        for sel in [&s.source, &s.destination].into_iter().flatten() {
            push_selection(&mut out, &sel.target, &sel.line_marker, &sel.metadata);
            if let Some(m) = &sel.matcher {
                // A transfer operand's matcher always takes the option escape (§naked-pattern).
                out.push_str(" [");
                out.push_str(&serde_json::json!([{ "pattern": matcher_raw(m) }]).to_string()[1..]);
                out.pop();
                out.push(']');
            }
        }
    } else {
        let meta = match (s.seconds, &s.metadata) {
            (Some(sec), None) => Some(vec![crate::render::number(sec)]),
            (_, m) => m.clone(),
        };
        push_selection(&mut out, &s.target, &s.line_marker, &meta);
        if let Some(m) = &s.matcher {
            push_matcher(&mut out, m, &s.metadata);
        }
    }
    if let Some(a) = &s.aside {
        out.push_str(" <!-- ");
        out.push_str(a);
        out.push_str(" -->");
    }
    out
}

/// A number as JSON writes it (integers without a fraction).
pub fn number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        (f as i64).to_string()
    } else {
        serde_json::Number::from_f64(f).map(|n| n.to_string()).unwrap_or_default()
    }
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

/// The longest backtick run at the start of any line of `body`.
fn longest_run(body: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for b in body.bytes() {
        if b == b'`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// `PlurnkParser.stringify` for one statement: its fence, heading, body and closing fence.
pub fn stringify(s: &Statement, taught_width: usize) -> String {
    let body = body_text(s);
    let width = body.as_deref().map(|b| (longest_run(b) + 1).max(taught_width)).unwrap_or(taught_width);
    let fence = "`".repeat(width);
    let mut out = String::new();
    out.push_str(&fence);
    out.push_str(&heading(s));
    out.push('\n');
    if let Some(b) = body {
        out.push_str(&b);
        out.push('\n');
    }
    out.push_str(&fence);
    out
}

/// `stringify` of a program: statements separated by one blank line.
pub fn stringify_all<'a>(statements: impl IntoIterator<Item = &'a Statement<'a>>, taught_width: usize) -> String {
    statements.into_iter().map(|s| stringify(s, taught_width)).collect::<Vec<_>>().join("\n\n")
}
