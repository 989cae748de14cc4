//! The `tags` call shape (§native-tool-calls): elements whose delimiters are markers rather
//! than `<`, `</` and `>` — Kimi K3's `<|open|>call tool="X"<|sep|>…<|close|>call<|sep|>`,
//! MiniMax M3's `]<]minimax[>[<invoke name="X">` with one element per argument named by its
//! key. Every search runs forward inside the call being read, so a reading is linear.

use std::borrow::Cow;

use serde_json::Value;

use super::compile::Tags;
use super::text::*;
use super::{Arg, Call};
use crate::rules::model::NativeRecovery;

/// A tag's attributes `k="v"` (or `k='v'`) in `t`, in written order.
fn attributes(t: &str) -> Vec<(&str, &str)> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let k0 = i;
        while i < b.len() && !matches!(b[i], b'=' | b' ' | b'\t' | b'\n') {
            i += 1;
        }
        let key = &t[k0..i];
        if i >= b.len() || b[i] != b'=' || key.is_empty() {
            i += 1;
            continue;
        }
        i += 1;
        let Some(&q) = b.get(i).filter(|&&q| q == b'"' || q == b'\'') else { continue };
        let v0 = i + 1;
        let v1 = memchr::memchr(q, &b[v0..]).map(|k| v0 + k).unwrap_or(b.len());
        out.push((key, &t[v0..v1]));
        i = v1 + 1;
    }
    out
}

fn attr<'t>(attrs: &[(&'t str, &'t str)], names: &[String]) -> Option<&'t str> {
    attrs.iter().find(|(k, _)| names.iter().any(|n| n.eq_ignore_ascii_case(k))).map(|(_, v)| *v)
}

/// Whether `close`, then `name`, then a tag end stand at `p`: their end.
fn closing_at(s: &str, p: usize, to: usize, t: &Tags, name: &str) -> Option<usize> {
    let e = t.close.at(s, p, to)?;
    if !starts_with_ci(s, e, name) {
        return None;
    }
    t.tag_end.at(s, e + name.len(), to)
}

/// The next closing of element `name` in `s[from..to]`: (start, end). Each step moves on to the
/// next close marker, so the search crosses the span once.
fn find_closing(s: &str, from: usize, to: usize, t: &Tags, name: &str) -> Option<(usize, usize)> {
    let mut p = from;
    while let Some((a, _, _)) = t.close.find(s, p, to) {
        if let Some(e) = closing_at(s, a, to, t, name) {
            return Some((a, e));
        }
        p = a + 1;
    }
    None
}

/// An opening tag read: the element name, its attributes and where the tag ends.
type OpenTag<'a> = (&'a str, Vec<(&'a str, &'a str)>, usize);

/// An opening tag at `p` (after its open marker `e`): the element name, its attributes and
/// where the tag ends. Its end is looked for before the next open marker only: a tag left
/// unterminated, then another, is not read to the end of the input once per tag.
fn open_tag<'a>(s: &'a str, e: usize, to: usize, t: &Tags) -> Option<OpenTag<'a>> {
    let next = t.open.find(s, e, to).map(|m| m.0).unwrap_or(to);
    let (a, z, _) = t.tag_end.find(s, e, next)?;
    let inner = &s[e..a];
    if inner.contains('\n') && inner.trim_end().contains('\n') {
        return None;
    }
    let ne = inner.find([' ', '\t']).unwrap_or(inner.len());
    let name = &inner[..ne];
    if name.is_empty() {
        return None;
    }
    Some((name, attributes(&inner[ne..]), z))
}

/// Call elements written one after another from `p`: the calls and where the last ended.
pub(crate) fn read<'a>(s: &'a str, p: usize, to: usize, t: &Tags, rec: &NativeRecovery) -> Option<(Vec<Call<'a>>, usize)> {
    let mut calls = Vec::new();
    let mut q = p;
    loop {
        let at = skip_ws(s, q, to);
        if at >= to || t.open_call.at(s, at, to).is_none() {
            break;
        }
        let e = t.open.at(s, at, to)?;
        let (elem, attrs, body) = open_tag(s, e, to, t)?;
        let name = attr(&attrs, &t.def.name_attributes)?;
        // Calls do not nest: the closing is looked for before the next call only, so a run of
        // calls none of which closes is crossed once.
        let next = t.open_call.find(s, body, to).map(|m| m.0).unwrap_or(to);
        let (content_end, end) = match find_closing(s, body, next, t, elem) {
            Some(x) => x,
            None if rec.missing_end => (next, next),
            None => return None,
        };
        let mut c = Call { anchor: at, name: Cow::Borrowed(name), slots: "", heading_ok: false, args: Vec::new(), text: None, aside: None };
        arguments(s, body, content_end, t, &mut c)?;
        calls.push(c);
        q = end;
    }
    (!calls.is_empty()).then_some((calls, q))
}

/// The argument elements of a call's content `s[p..to]`; text outside them is no argument.
fn arguments<'a>(s: &'a str, p: usize, to: usize, t: &Tags, c: &mut Call<'a>) -> Option<()> {
    let mut q = p;
    loop {
        let at = skip_ws(s, q, to);
        if at >= to {
            return Some(());
        }
        let e = t.open.at(s, at, to)?;
        let (elem, attrs, v0) = open_tag(s, e, to, t)?;
        if t.def.object_elements.iter().any(|n| n.eq_ignore_ascii_case(elem)) {
            q = object(s, v0, to, t, elem, c)?;
            continue;
        }
        let key = if t.def.parameters.is_empty() {
            elem
        } else if t.def.parameters.iter().any(|n| n.eq_ignore_ascii_case(elem)) {
            attr(&attrs, &t.def.parameter_attributes)?
        } else {
            return None;
        };
        let (v1, end) = find_closing(s, v0, to, t, elem).unwrap_or((to, to));
        let raw = trim_value(&s[v0..v1]);
        let typed = attr(&attrs, &t.def.type_attributes);
        let arg = match typed {
            Some(ty) if !t.def.text_types.iter().any(|x| x.eq_ignore_ascii_case(ty)) => match serde_json::from_str::<Value>(raw.trim()) {
                Ok(v) => Arg::Json(v),
                Err(_) => Arg::Text(raw),
            },
            _ => Arg::Text(raw),
        };
        c.args.push((Cow::Borrowed(key), arg));
        q = end;
    }
}

/// An element holding the call's whole argument object as JSON, its content from `v0`: each of
/// its keys an argument. Cut off before its closing, the object is closed where the input ends.
fn object<'a>(s: &'a str, v0: usize, to: usize, t: &Tags, elem: &str, c: &mut Call<'a>) -> Option<usize> {
    let (v1, end, closed) = match find_closing(s, v0, to, t, elem) {
        Some((a, e)) => (a, e, true),
        None => (to, to, false),
    };
    let (v, e) = json_at(s, v0, v1, !closed)?;
    let Value::Object(obj) = v else { return None };
    if !s[e..v1].trim().is_empty() {
        return None;
    }
    c.args.extend(obj.into_iter().map(|(k, v)| (Cow::Owned(k), Arg::Json(v))));
    Some(end)
}
