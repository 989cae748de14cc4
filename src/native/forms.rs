//! The marker-delimited call shapes (§native-tool-calls): a JSON call object or array, a name
//! followed by a JSON argument object, a name followed by key/value element pairs, and a plurnk
//! heading written as the call text. Each reads from a position up to a bound and returns its
//! calls and where it stopped; `None` when the text is not written in that shape.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::compile::{Form, Markers};
use super::text::*;
use super::{element, python, tags, Arg, Call};
use crate::rules::model::{NativeJson, NativeRecovery};

fn call_at(anchor: usize, name: Cow<'_, str>) -> Call<'_> {
    Call { anchor, name, slots: "", heading_ok: false, args: Vec::new(), text: None, aside: None }
}

/// Reads the form at `p` (after whitespace) up to `to`. `closed`: the block's end marker was
/// found, so the text up to `to` belongs to the call.
pub(crate) fn read<'a>(
    form: &Form,
    s: &'a str,
    p: usize,
    to: usize,
    closed: bool,
    rec: &NativeRecovery,
    closes: &Closes,
) -> Option<(Vec<Call<'a>>, usize)> {
    let p = skip_ws(s, p, to);
    if p >= to {
        return None;
    }
    match form {
        Form::Elements(el) => {
            let (calls, end, _, readable) = element::read(s, p, to, el, rec, closes)?;
            (readable && !calls.is_empty()).then_some((calls, end))
        }
        Form::Json(j) => json(j, s, p, to, rec, closes),
        Form::NameJson { prefixes, names, ids, args, args_end, index } => {
            name_json(s, p, to, prefixes, names, ids, args, args_end, index, rec, closes)
        }
        Form::ArgPairs { name_end, key_start, key_end, value_start, value_end } => {
            arg_pairs(s, p, to, name_end, key_start, key_end, value_start, value_end, rec, closes)
        }
        Form::Heading { prefixes } => heading(s, p, to, closed, prefixes),
        Form::Pythonic { list, suffixes } => python::pythonic(s, p, to, *list, suffixes, rec.truncated_body),
        Form::Braces { prefixes, quotes } => python::braces(s, p, to, prefixes, quotes, rec.truncated_body),
        Form::Tags(t) => tags::read(s, p, to, t, rec),
    }
}

fn key_is(k: &str, list: &[String], any_case: bool) -> bool {
    list.iter().any(|w| if any_case { w.eq_ignore_ascii_case(k) } else { w == k })
}

/// One JSON object as a call, or `None` when it names none.
pub(crate) fn object_call(j: &NativeJson, obj: &Map<String, Value>, anchor: usize) -> Option<Call<'static>> {
    if j.keyed {
        // `{"NAME": {args}}`: one key, the name; its value, the arguments.
        let (name, v) = obj.iter().next().filter(|_| obj.len() == 1)?;
        let mut c = call_at(anchor, Cow::Owned(name.clone()));
        c.args = arguments_of(v)?;
        return Some(c);
    }
    if j.strict {
        // Only the name key, one argument key and the markup's own keys.
        let mut args = 0;
        for k in obj.keys() {
            if key_is(k, &j.argument_keys, false) {
                args += 1;
            } else if !key_is(k, &j.name_keys, j.any_case) && !key_is(k, &j.ignored_keys, true) {
                return None;
            }
        }
        if args != 1 {
            return None;
        }
    }
    for w in &j.wrapper_keys {
        if let Some(Value::Object(inner)) = obj.get(w) {
            if let Some(c) = object_call(j, inner, anchor) {
                return Some(c);
            }
        }
    }
    let (name_key, name) = obj.iter().find_map(|(k, v)| match v {
        Value::String(n) if key_is(k, &j.name_keys, j.any_case) => Some((k.clone(), n.clone())),
        _ => None,
    })?;
    let mut c = call_at(anchor, Cow::Owned(name));
    for (k, v) in obj {
        if *k == name_key || key_is(k, &j.ignored_keys, true) || (!j.flat && key_is(k, &j.wrapper_keys, false)) {
            continue;
        }
        if !j.flat && key_is(k, &j.argument_keys, false) {
            c.args.extend(arguments_of(v)?);
            continue;
        }
        c.args.push((Cow::Owned(k.clone()), Arg::Json(v.clone())));
    }
    Some(c)
}

/// A call's arguments: an object, a string holding one (`"arguments": "{\"path\": …}"`), or null.
fn arguments_of(v: &Value) -> Option<Vec<(Cow<'static, str>, Arg<'static>)>> {
    match v {
        Value::Object(args) => Some(args.iter().map(|(k, v)| (Cow::Owned(k.clone()), Arg::Json(v.clone()))).collect()),
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(args)) => Some(args.into_iter().map(|(k, v)| (Cow::Owned(k), Arg::Json(v))).collect()),
            _ => None,
        },
        Value::Null => Some(Vec::new()),
        _ => None,
    }
}

/// One value of a JSON form at `p`: JSON, or a Python literal for a `python` form.
fn value_at(j: &NativeJson, s: &str, p: usize, to: usize, repair: bool) -> Option<(Value, usize)> {
    if !j.python {
        return json_at(s, p, to, repair);
    }
    let mut cur = python::Cursor::new(s, p, to, repair);
    let v = cur.literal(0)?;
    Some((v, cur.i))
}

/// The items of an array whose `[` the start marker wrote (`functools[`), up to its `]`.
fn opened_items(j: &NativeJson, s: &str, p: usize, to: usize, rec: &NativeRecovery) -> Option<(Vec<Call<'static>>, usize)> {
    let b = s.as_bytes();
    let mut calls = Vec::new();
    let mut q = p;
    loop {
        q = skip_ws(s, q, to);
        if q >= to {
            return (rec.truncated_body && !calls.is_empty()).then_some((calls, q));
        }
        if b[q] == b']' && !calls.is_empty() {
            return Some((calls, q + 1));
        }
        if b[q] != b'{' {
            return None;
        }
        let (v, e) = value_at(j, s, q, to, rec.truncated_body)?;
        let Value::Object(obj) = v else { return None };
        calls.push(object_call(j, &obj, q)?);
        q = skip_ws(s, e, to);
        if q < to && b[q] == b',' {
            q += 1;
        }
    }
}

fn json(j: &NativeJson, s: &str, p: usize, to: usize, rec: &NativeRecovery, closes: &Closes) -> Option<(Vec<Call<'static>>, usize)> {
    if j.opened {
        return opened_items(j, s, p, to, rec);
    }
    let first = s.as_bytes()[p];
    if first != b'{' && !(first == b'[' && j.array) {
        return None;
    }
    // Every call carries a name key, written as a quoted key unless escapes spell it: a value
    // that closes with neither (a log line's `{"path": …}`) is no call, and is not built. Nor is
    // one the parser is sure to fail on.
    if !j.keyed && !j.python {
        match closes.reading(s, p, to) {
            Reading::Closes(close) if !may_name_call(j, &s[p..close]) => return None,
            Reading::Fails => return None,
            _ => {}
        }
    }
    if first == b'[' {
        return if j.python { python_array_calls(j, s, p, to, rec.truncated_body) } else { array_calls(j, s, p, to, rec.truncated_body) };
    }
    whole_calls(j, s, p, to, rec)
}

/// The calls of the JSON value at `p`, read whole.
fn whole_calls(j: &NativeJson, s: &str, p: usize, to: usize, rec: &NativeRecovery) -> Option<(Vec<Call<'static>>, usize)> {
    let (v, end) = value_at(j, s, p, to, rec.truncated_body)?;
    match v {
        Value::Object(obj) => Some((vec![object_call(j, &obj, p)?], end)),
        Value::Array(items) => {
            let at = array_items(s, p, end);
            let mut calls = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let Value::Object(obj) = item else { return None };
                calls.push(object_call(j, obj, at.get(i).copied().unwrap_or(p))?);
            }
            (!calls.is_empty()).then_some((calls, end))
        }
        _ => None,
    }
}

/// A JSON array of calls (`[{…}, {…}]`, §native-tool-calls) read an item at a time: each
/// item's value is built, made a call and dropped, so a long array never stands whole as a tree
/// of values (an 8 MB line of calls built one of a few hundred megabytes, and its time per byte
/// doubled with the size). It gives what reading the array whole gives, cut-off arrays included
/// (`repair` closes one cut off inside its last item, or after it, as the whole text's repair
/// does); an item is read in the array's depth, so one nested to the parser's limit fails it.
fn array_calls(j: &NativeJson, s: &str, p: usize, to: usize, repair: bool) -> Option<(Vec<Call<'static>>, usize)> {
    let b = s.as_bytes();
    let mut calls = Vec::new();
    // Past the `[`, and past each `,`: an item must follow (`[]` and a trailing comma fail).
    let mut q = skip_ws(s, p + 1, to);
    loop {
        // An item that is no object is no call, whether or not it parses (the whole reading
        // refuses such an array either way); nor is an array cut off before an item.
        if q >= to || b[q] != b'{' {
            return None;
        }
        let text = &s[q..to];
        let mut it = serde_json::Deserializer::from_str(text).into_iter::<Value>();
        let got = it.next();
        json_work(text, &got, it.byte_offset());
        let (v, e) = match got {
            Some(Ok(v)) => (v, q + it.byte_offset()),
            Some(Err(e)) if repair && e.is_eof() => {
                crate::work::add(crate::work::Stage::Json, text.len());
                (serde_json::from_str(&close_json(text)?).ok()?, to)
            }
            _ => return None,
        };
        if depth_reaches(&v, JSON_DEPTH - 1) {
            return None;
        }
        let Value::Object(obj) = v else { return None };
        calls.push(object_call(j, &obj, q)?);
        q = skip_ws(s, e, to);
        if q >= to {
            // Cut off after an item: the repair closes the array there.
            return repair.then_some((calls, to));
        }
        match b[q] {
            b']' => return Some((calls, q + 1)),
            b',' => q = skip_ws(s, q + 1, to),
            _ => return None,
        }
    }
}

/// [`array_calls`] for a family writing Python literals (JSON reads too): the list's items are
/// read one at a time as [`python::Cursor::literal`] reads them, each made a call and dropped;
/// the calls stand where the whole reading puts them (`array_items`).
fn python_array_calls(j: &NativeJson, s: &str, p: usize, to: usize, repair: bool) -> Option<(Vec<Call<'static>>, usize)> {
    let mut cur = python::Cursor::new(s, p, to, repair);
    let mut calls = Vec::new();
    cur.items(0, |v, at| {
        let Value::Object(obj) = v else { return None };
        calls.push(object_call(j, &obj, at)?);
        Some(())
    })?;
    if calls.is_empty() {
        return None;
    }
    let end = cur.i;
    for (c, at) in calls.iter_mut().zip(array_items(s, p, end).into_iter().map(Some).chain(std::iter::repeat(None))) {
        c.anchor = at.unwrap_or(p);
    }
    Some((calls, end))
}

/// The nesting serde_json reads: a value nested this deep fails (the array's own level counts).
const JSON_DEPTH: usize = 128;

/// Whether `v` nests `n` arrays and objects deep (itself counted).
fn depth_reaches(v: &Value, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    match v {
        Value::Array(a) => n == 1 || a.iter().any(|x| depth_reaches(x, n - 1)),
        Value::Object(o) => n == 1 || o.values().any(|x| depth_reaches(x, n - 1)),
        _ => false,
    }
}

/// Whether the JSON text `v` may hold an object naming a call: one of the name keys written
/// as a quoted string (in any case where the family allows), or an escape that could spell one.
fn may_name_call(j: &NativeJson, v: &str) -> bool {
    may_name(&j.name_keys, j.any_case, v)
}

/// Whether `v` holds one of `keys` as a quoted string (in any ASCII case with `any_case`), or
/// an escape that could spell one.
pub(crate) fn may_name(keys: &[String], any_case: bool, v: &str) -> bool {
    names_in(keys, any_case, v.as_bytes(), Escapes::Any, b'"')
}

/// Whether any JSON value in the emission `s` may name a call, for keys matched in any case:
/// [`may_name`] over all of `s`, less its rule that every escape may spell a key. A key holding
/// no byte an escape other than `\u` writes (a quote, a backslash, a slash, a control byte) can
/// be spelled only by `\u` escapes or as written; so only a `\u` in the emission, or a key
/// quoted as written, may name a call (code full of `\n` and regex escapes names none).
pub(crate) fn may_name_anywhere(keys: &[String], s: &str) -> bool {
    let escaped = |k: &String| k.bytes().any(|c| matches!(c, b'"' | b'\\' | b'/') || c < 0x20);
    let escapes = if keys.iter().any(escaped) { Escapes::Any } else { Escapes::U };
    names_in(keys, true, s.as_bytes(), escapes, b'"')
}

/// Whether the emission `s` may hold a Python literal dict naming a call by one of `keys`
/// (matched in any case): a key is a string literal, so it stands between two quotes of one
/// kind (`'name'`, `"name"`, `r'name'`), unless an escape spells it, and any backslash may.
pub(crate) fn may_name_python(keys: &[String], s: &str) -> bool {
    names_in(keys, true, s.as_bytes(), Escapes::Any, b'"') || may_name_python_single(keys, s)
}

/// [`may_name_python`] for an emission that [`may_name_anywhere`] answered for: where it names
/// a key (a quoted key in double quotes, or a `\u` escape) this does too; where it does not, no
/// key stands in double quotes and only single quotes and backslashes are left to look at.
pub(crate) fn may_name_python_after(keys: &[String], s: &str, json_named: bool) -> bool {
    json_named || may_name_python_single(keys, s)
}

/// A key between single quotes, or any backslash.
fn may_name_python_single(keys: &[String], s: &str) -> bool {
    names_in(keys, true, s.as_bytes(), Escapes::Any, b'\'')
}

/// Which escapes may spell a key: any, or only `\u` (a `\\u` counts too: the test stays a
/// superset).
#[derive(Clone, Copy, PartialEq)]
enum Escapes {
    Any,
    U,
}

/// Whether `b` holds one of `keys` between two quotes (in any ASCII case with `any_case`), or
/// an escape that may spell one.
///
/// Asked of every JSON value in outside text, and of a whole emission at its first one
/// (`Ctx::unnamed_openings`): the quotes and backslashes are found 64 bytes at a time as bit
/// masks, and a key of length `L` can stand only between two quotes `L + 1` apart, so only such
/// pairs are compared (JSON text holds a quote every few bytes).
fn names_in(keys: &[String], any_case: bool, b: &[u8], escapes: Escapes, quote: u8) -> bool {
    let quoted_at = |q: usize, k: &[u8]| {
        let rest = &b[q + 1..];
        rest.len() > k.len()
            && rest[k.len()] == quote
            && if any_case { rest[..k.len()].eq_ignore_ascii_case(k) } else { &rest[..k.len()] == k }
    };
    let chunk = |at: usize| crate::scan::chunk_padded(b, at);
    let mut next = crate::scan::byte_mask(&chunk(0), quote);
    let mut base = 0;
    while base < b.len() {
        let c = chunk(base);
        let quotes = next;
        next = if base + 64 < b.len() { crate::scan::byte_mask(&chunk(base + 64), quote) } else { 0 };
        let mut slashes = crate::scan::byte_mask(&c, b'\\');
        if slashes != 0 && escapes == Escapes::Any {
            return true;
        }
        while slashes != 0 {
            if b.get(base + slashes.trailing_zeros() as usize + 1) == Some(&b'u') {
                return true;
            }
            slashes &= slashes - 1;
        }
        if quotes != 0 {
            for k in keys.iter().map(String::as_bytes) {
                // Bit `i`: a quote at `base + i` and another right after a key's length (in this
                // chunk or the next); a key too long for the mask is compared at every quote.
                let d = k.len() + 1;
                let mut pairs = if d < 64 { quotes & (quotes >> d | next << (64 - d)) } else { quotes };
                while pairs != 0 {
                    if quoted_at(base + pairs.trailing_zeros() as usize, k) {
                        return true;
                    }
                    pairs &= pairs - 1;
                }
            }
        }
        base += 64;
    }
    false
}

/// [`may_name`] byte by byte, as it read before the quote masks (kept to check them).
#[cfg(test)]
pub(crate) fn may_name_by_bytes(keys: &[String], any_case: bool, v: &str) -> bool {
    let b = v.as_bytes();
    if b.contains(&b'\\') {
        return true;
    }
    b.iter().enumerate().any(|(q, &c)| {
        if c != b'"' {
            return false;
        }
        let rest = &b[q + 1..];
        keys.iter().any(|k| {
            let k = k.as_bytes();
            rest.len() > k.len()
                && rest[k.len()] == b'"'
                && if any_case { rest[..k.len()].eq_ignore_ascii_case(k) } else { &rest[..k.len()] == k }
        })
    })
}

#[allow(clippy::too_many_arguments)]
fn name_json<'a>(
    s: &'a str,
    p: usize,
    to: usize,
    prefixes: &Markers,
    names: &Markers,
    ids: &Markers,
    args: &Markers,
    args_end: &Markers,
    index: &[String],
    rec: &NativeRecovery,
    closes: &Closes,
) -> Option<(Vec<Call<'a>>, usize)> {
    let mut q = p;
    if let Some(e) = prefixes.at(s, q, to) {
        q = e;
    }
    // With no arguments marker, the arguments are the first JSON object after the name (on the
    // name's line or the next: `NAME{…}`, `>>>NAME\n{…}`).
    let (a, ae) = if args.is_empty() {
        let b = s.as_bytes();
        // On the name's line or the next, searched within the call's bound only.
        let lim = match memchr::memchr(b'\n', &b[q..to]) {
            Some(i) => memchr::memchr(b'\n', &b[q + i + 1..to]).map(|j| q + i + 1 + j).unwrap_or(to),
            None => to,
        };
        let a = q + memchr::memchr(b'{', &b[q..lim])?;
        (a, a)
    } else {
        let (a, ae, _) = closes.find(args, s, q, to)?;
        (a, ae)
    };
    // An id written before the name (`ID<|tool_call:name|>NAME`).
    let mut from = q;
    while let Some((_, e, _)) = names.find(s, from, a) {
        from = e;
        q = e;
    }
    let mut name_end = a;
    if let Some((i, _, _)) = ids.find(s, q, a) {
        name_end = i;
    }
    let mut name = s[q..name_end].trim();
    for sep in index {
        if let Some(i) = name.rfind(sep.as_str()) {
            let tail = &name[i + sep.len()..];
            if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
                name = name[..i].trim_end();
                break;
            }
        }
    }
    if name.is_empty() || name.contains(['<', '{']) || name.contains(char::is_whitespace) {
        return None;
    }
    let mut c = call_at(p, Cow::Borrowed(name));
    let v0 = skip_ws(s, ae, to);
    let mut end = v0;
    if v0 < to {
        let (v, e) = json_at(s, v0, to, rec.truncated_body)?;
        match v {
            Value::Object(m) => c.args.extend(m.into_iter().map(|(k, v)| (Cow::Owned(k), Arg::Json(v)))),
            _ => return None,
        }
        end = e;
        let after = skip_ws(s, e, to);
        if let Some(x) = args_end.at(s, after, to) {
            end = x;
        }
    }
    Some((vec![c], end))
}

#[allow(clippy::too_many_arguments)]
fn arg_pairs<'a>(
    s: &'a str,
    p: usize,
    to: usize,
    name_end: &Markers,
    key_start: &Markers,
    key_end: &Markers,
    value_start: &Markers,
    value_end: &Markers,
    rec: &NativeRecovery,
    closes: &Closes,
) -> Option<(Vec<Call<'a>>, usize)> {
    let (k0, _, _) = closes.find(key_start, s, p, to)?;
    let mut name = s[p..k0].trim();
    if let Some((a, _, _)) = name_end.find(s, p, k0) {
        name = s[p..a].trim();
    }
    if name.is_empty() || name.contains(['<', '\n', '{']) {
        return None;
    }
    let mut c = call_at(p, Cow::Borrowed(name));
    let mut q = k0;
    let mut end = k0;
    loop {
        let at = skip_ws(s, q, to);
        let Some(ks) = key_start.at(s, at, to) else { break };
        let (ke, ka, _) = closes.find(key_end, s, ks, to)?;
        let key = s[ks..ke].trim();
        let v = skip_ws(s, ka, to);
        let vs = value_start.at(s, v, to)?;
        let next_key = closes.find(key_start, s, vs, to).map(|m| m.0).unwrap_or(to);
        let (ve, va) = match value_end.find(s, vs, next_key) {
            Some((a, e, _)) => (a, e),
            None if rec.missing_end => (next_key, next_key),
            None => return None,
        };
        c.args.push((Cow::Borrowed(key), Arg::Text(trim_value(&s[vs..ve]))));
        end = va;
        q = va;
    }
    if c.args.is_empty() {
        return None;
    }
    Some((vec![c], end))
}

fn heading<'a>(s: &'a str, p: usize, to: usize, closed: bool, prefixes: &Markers) -> Option<(Vec<Call<'a>>, usize)> {
    let mut q = p;
    if let Some(e) = prefixes.at(s, q, to) {
        q = skip_blank(s, e, to);
    }
    let le = line_end_to(s, q, to);
    let head = s[q..le].trim();
    if head.is_empty() {
        return None;
    }
    let mut c = call_at(p, Cow::Borrowed(head));
    c.heading_ok = true;
    if !closed {
        return Some((vec![c], le));
    }
    if le < to {
        let body = trim_lines(&s[le..to]);
        if !body.is_empty() {
            c.text = Some(Cow::Borrowed(body));
        }
    }
    Some((vec![c], to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(array: bool, keyed: bool, repair: bool) -> (NativeJson, NativeRecovery) {
        python_family(array, keyed, repair, false)
    }

    fn python_family(array: bool, keyed: bool, repair: bool, python: bool) -> (NativeJson, NativeRecovery) {
        let j = serde_json::from_value(serde_json::json!({
            "name_keys": ["name"], "argument_keys": ["arguments"], "array": array, "keyed": keyed, "python": python
        }))
        .expect("a JSON family");
        let rec = serde_json::from_value(serde_json::json!({"missing_end": false, "truncated_body": repair})).expect("flags");
        (j, rec)
    }

    fn nested(levels: usize) -> String {
        format!("{{\"name\": \"FIND\", \"arguments\": {{\"q\": {}1{}}}}}", "[".repeat(levels), "]".repeat(levels))
    }

    /// A `{"NAME": {args}}` call nested as deep as [`nested`]'s.
    fn nested_keyed(levels: usize) -> String {
        format!("{{\"FIND\": {{\"q\": {}1{}}}}}", "[".repeat(levels), "]".repeat(levels))
    }

    /// §native-tool-calls: an array of calls read an item at a time gives what the whole
    /// reading gives, on every array shape the whole reading tells apart: spacing of every JSON
    /// kind, an item that is no object or names no call, a trailing comma, an empty array, an
    /// array cut off anywhere (repaired whole), text after the `]`, and items nested to either
    /// side of the parser's depth limit.
    #[test]
    fn native_tool_calls_json_array_read_by_items_agrees_with_the_whole_value() {
        let call = |n: &str| format!("{{\"name\": \"{n}\", \"arguments\": {{\"path\": \"ü/a b.md\"}}}}");
        let (a, b) = (call("READ"), call("frobnicate"));
        let mut inputs = vec![
            format!("[{a}]"),
            format!("[ {a} , {b} ]"),
            format!("[\r\n\t{a},\n{b}\r\n]"),
            format!("[{a},{b}] trailing prose"),
            format!("[{a},]"),
            format!("[{a}, 7]"),
            format!("[{a}, \"x\"]"),
            format!("[{a}, {{\"path\": \"a.md\"}}]"),
            format!("[{a}, x]"),
            format!("[{a} {b}]"),
            "[]".to_string(),
            "[ ]".to_string(),
            format!("[{a}, {}]", nested(125)),
            format!("[{a}, {}]", nested(126)),
            format!("[{a}, {}]", nested(127)),
            format!("[{}]", nested_keyed(124)),
            format!("[{}]", nested_keyed(125)),
            format!("[{}, {}]", nested_keyed(1), nested_keyed(125)),
            format!("[{}]", nested_keyed(126)),
            "[{\"READ\": {\"path\": \"a.md\"}}, {\"x\": {}}]".to_string(),
        ];
        let whole = format!("[{a}, {b}, {a}]");
        for cut in 1..whole.len() {
            if whole.is_char_boundary(cut) {
                inputs.push(whole[..cut].to_string());
            }
        }
        for (array, keyed, repair) in [(true, false, true), (true, false, false), (false, false, true), (true, true, true)] {
            let (j, rec) = family(array, keyed, repair);
            for input in &inputs {
                let closes = Closes::new(input);
                let by_items = json(&j, input, 0, input.len(), &rec, &closes);
                let by_whole = if input.starts_with('[') && !array { None } else { whole_calls(&j, input, 0, input.len(), &rec) };
                assert_eq!(by_items, by_whole, "{input:?} (array: {array}, keyed: {keyed}, repair: {repair})");
            }
        }
    }

    /// §native-tool-calls: a list of calls written as Python literals, read an item at a time,
    /// gives what the whole literal's reading gives, each call anchored where it did: quotes of
    /// both kinds holding brackets, a trailing comma, Python's constants, an item that is no
    /// dict, and the list cut off anywhere.
    #[test]
    fn native_tool_calls_python_list_read_by_items_agrees_with_the_whole_value() {
        let a = "{'name': 'READ', 'arguments': {'path': 'dir]/a,b.md', \"x\": True}}";
        let b = "{\"name\": \"frobnicate\", \"arguments\": {'k': None, 'q': '}{'}}";
        let mut inputs = vec![
            format!("[{a}]"),
            format!("[ {a} , {b} ]"),
            format!("[{a},\r\n{b},]"),
            format!("[{a}, {b}] then prose"),
            format!("[{a}, 7]"),
            format!("[{a}, {{'path': 'a.md'}}]"),
            format!("[{a} {b}]"),
            "[]".to_string(),
        ];
        let whole = format!("[{a}, {b}, {a}]");
        for cut in 1..whole.len() {
            if whole.is_char_boundary(cut) {
                inputs.push(whole[..cut].to_string());
            }
        }
        for repair in [true, false] {
            let (j, rec) = python_family(true, false, repair, true);
            for input in &inputs {
                let closes = Closes::new(input);
                let by_items = json(&j, input, 0, input.len(), &rec, &closes);
                assert_eq!(by_items, whole_calls(&j, input, 0, input.len(), &rec), "{input:?} (repair: {repair})");
            }
        }
    }

    /// §native-tool-calls: a long array of calls is read an item at a time (no tree of the whole
    /// array is built), each call anchored at its item.
    #[test]
    fn native_tool_calls_json_array_is_read_by_items() {
        let (j, _) = family(true, false, false);
        let input = format!("[{}]", vec!["{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}"; 500].join(", "));
        let got = array_calls(&j, &input, 0, input.len(), false).expect("calls");
        assert_eq!((got.0.len(), got.1), (500, input.len()));
        assert_eq!(got.0[1].anchor, input.find("}}, {").expect("a second item") + 4);
    }
}
