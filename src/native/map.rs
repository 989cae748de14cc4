//! The call-piece table applied (§native-tool-calls): a native call becomes the heading and
//! body of the fenced operation it names, or is refused and names the taught form its receipt
//! shows (§native-tool-call-receipt). The keys live in `rules/native/parameters.yaml`.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Arg, Call};
use crate::rules::model::{NativeParameters, Operands};
use crate::rules::Rules;
use crate::scan::Registry;

/// What a call names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Named<'r> {
    Op(usize),
    /// A registered executor, by its registered name.
    Exec(&'r str),
}

/// A call read as an operation: its body is borrowed from the emission when written there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mapped<'a> {
    pub heading: String,
    pub body: Option<Cow<'a, str>>,
}

/// The form a receipt teaches for a call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Taught {
    /// The call names nothing known.
    Unknown,
    /// `READ (path)`.
    Target { op: String, target: String },
    /// `NOTE`, the note on the lines below; `sh`, the command.
    Body { name: String, noun: String },
    /// `WAIT`.
    Plain { name: String },
}

/// Keys compare in any case, with `_` and `-` ignored (compared as they stream: a call's keys
/// are matched against every listed spelling, and nothing is allocated for it).
fn norm(k: &str) -> impl Iterator<Item = char> + '_ {
    k.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase)
}

fn listed(k: &str, list: &[String]) -> bool {
    // A key meets a dozen lists of spellings and nearly every spelling differs at its first
    // kept byte: when both are ASCII they are compared first (an ASCII byte folds to ASCII in
    // either comparison, so a difference there is a difference).
    let lead = |s: &str| s.bytes().find(|c| !matches!(c, b'_' | b'-'));
    let k0 = lead(k).filter(u8::is_ascii).map(|c| c.to_ascii_lowercase());
    list.iter().any(|w| {
        if let (Some(k0), Some(w0)) = (k0, lead(w)) {
            if w0.is_ascii() && w0.to_ascii_lowercase() != k0 {
                return false;
            }
        }
        same_key(w, k)
    })
}

/// `norm(w) == norm(k)`; ASCII keys (nearly all) compare byte by byte, where lowercasing is
/// ASCII lowercasing.
fn same_key(w: &str, k: &str) -> bool {
    if !(w.is_ascii() && k.is_ascii()) {
        return norm(w).eq(norm(k));
    }
    // Indices, not filtered iterators: a key meets every listed spelling and nearly all
    // differ at the first byte.
    let (w, k) = (w.as_bytes(), k.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        while i < w.len() && matches!(w[i], b'_' | b'-') {
            i += 1;
        }
        while j < k.len() && matches!(k[j], b'_' | b'-') {
            j += 1;
        }
        match (w.get(i), k.get(j)) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(y) => {
                i += 1;
                j += 1;
            }
            _ => return false,
        }
    }
}

/// The lists `map` asks a key about, in its order.
const TARGET: u8 = 0;
const SCOPE: u8 = 1;
const SCOPE_START: u8 = 2;
const SCOPE_END: u8 = 3;
const SCOPE_OFFSET: u8 = 4;
const SCOPE_COUNT: u8 = 5;
const MATCHER: u8 = 6;
const ASIDE: u8 = 7;
const BODY: u8 = 8;

fn lists(p: &NativeParameters) -> [&[String]; 9] {
    [&p.target, &p.scope, &p.scope_start, &p.scope_end, &p.scope_offset, &p.scope_count, &p.matcher, &p.aside, &p.body]
}

/// Every spelling of the call-piece lists, by its first kept byte (ASCII, lowercased), each
/// with its list, in `map`'s order: an ASCII key meets only the spellings that may be it, not a
/// dozen lists. A spelling that is not ASCII, or keeps no byte, stands in every bucket (a
/// Kelvin sign folds to `k`).
#[derive(Debug, Default)]
pub(crate) struct Keys {
    buckets: Vec<Vec<(u8, String)>>,
}

impl Keys {
    pub(crate) fn new(p: &NativeParameters) -> Keys {
        let mut buckets = vec![Vec::new(); 128];
        for (li, list) in lists(p).into_iter().enumerate() {
            for w in list {
                let lead = w.bytes().find(|c| !matches!(c, b'_' | b'-'));
                match lead {
                    Some(c) if w.is_ascii() => buckets[c.to_ascii_lowercase() as usize].push((li as u8, w.clone())),
                    _ => {
                        for b in &mut buckets {
                            b.push((li as u8, w.clone()));
                        }
                    }
                }
            }
        }
        Keys { buckets }
    }

    /// The first list (in `map`'s order) that lists `k`; `None` for a key that is not ASCII or
    /// keeps no byte (the lists are then asked one by one).
    fn class(&self, k: &str) -> Option<Option<u8>> {
        if !k.is_ascii() {
            return None;
        }
        let k0 = k.bytes().find(|c| !matches!(c, b'_' | b'-'))?;
        let bucket = self.buckets.get(k0.to_ascii_lowercase() as usize)?;
        Some(bucket.iter().find(|(_, w)| same_key(w, k)).map(|(li, _)| *li))
    }
}

/// The name a call is written with: what it names, and the slots written after it in the name.
fn named<'c, 'r>(call: &'c Call, rules: &Rules, registry: &'r Registry, params: &NativeParameters) -> Option<(Named<'r>, &'c str)> {
    let raw = call.name.trim();
    let b = raw.as_bytes();
    let mut e = 0;
    while e < b.len() && rules.is_name_byte(b[e]) {
        e += 1;
    }
    if e == 0 {
        return None;
    }
    let word = &raw[..e];
    let rest = raw[e..].trim();
    if !rest.is_empty() && !call.heading_ok {
        return None;
    }
    let named = if let Some(i) = rules.tables.operations.iter().position(|o| o.name.eq_ignore_ascii_case(word)) {
        Named::Op(i)
    } else if let Some(i) = registry.lookup(word) {
        Named::Exec(&registry.names[i])
    } else {
        let alias = params.executor_aliases.iter().find(|a| a.spelling.eq_ignore_ascii_case(word))?;
        Named::Exec(&registry.names[registry.lookup(&alias.names)?])
    };
    Some((named, rest))
}

/// What a call names, if anything ([`resolve`] without its slots).
pub(crate) fn names<'r>(call: &Call, rules: &Rules, registry: &'r Registry, params: &NativeParameters) -> Option<Named<'r>> {
    named(call, rules, registry, params).map(|(n, _)| n)
}

/// The name a call is written with: (what it names, the slots written after it).
pub(crate) fn resolve<'c, 'r>(
    call: &'c Call,
    rules: &Rules,
    registry: &'r Registry,
    params: &NativeParameters,
) -> Option<(Named<'r>, Cow<'c, str>)> {
    let (named, rest) = named(call, rules, registry, params)?;
    let own = call.slots.trim();
    let slots = if own.is_empty() {
        Cow::Borrowed(rest)
    } else if rest.is_empty() {
        Cow::Borrowed(own)
    } else {
        Cow::Owned(format!("{rest} {own}"))
    };
    Some((named, slots))
}

/// A line number written as a JSON number or a string.
fn line_number_of(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn line_number(v: &Arg) -> Option<i64> {
    match v {
        Arg::Text(s) => s.trim().parse().ok(),
        Arg::Json(v) => line_number_of(v),
    }
}

/// A scope as written: `440,470`, `<100,-1>`, `[500,530]`, `{"start": 1, "end": 5}`, `7`.
fn scope_text<'v>(v: &'v Arg, params: &NativeParameters) -> Option<Cow<'v, str>> {
    match v {
        Arg::Text(s) => scope_str(s),
        Arg::Json(Value::String(s)) => scope_str(s),
        Arg::Json(j) => scope_json(j, params).map(Cow::Owned),
    }
}

fn scope_str(s: &str) -> Option<Cow<'_, str>> {
    let t = s.trim();
    let t = t
        .strip_prefix('<')
        .and_then(|x| x.strip_suffix('>'))
        .or_else(|| t.strip_prefix('[').and_then(|x| x.strip_suffix(']')))
        .unwrap_or(t)
        .trim();
    if t.is_empty() || t.contains(['\n', '<', '>']) {
        return None;
    }
    // `3, 9` is `3,9` (a trimmed scope with no comma is itself).
    if !t.contains(',') {
        return Some(Cow::Borrowed(t));
    }
    Some(Cow::Owned(scope_joined(t)))
}

fn scope_joined(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for (i, part) in t.split(',').enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(part.trim());
    }
    out
}

/// A scope written as a JSON number, array or object.
#[cold]
#[inline(never)]
fn scope_json(v: &Value, params: &NativeParameters) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::Array(items) if !items.is_empty() && items.len() <= 2 => {
            let nums: Option<Vec<i64>> = items.iter().map(line_number_of).collect();
            Some(nums?.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(","))
        }
        Value::Object(m) => {
            let get = |keys: &[String]| m.iter().find(|(k, _)| listed(k, keys)).map(|(_, v)| v);
            let start = line_number_of(get(&params.scope_start)?)?;
            let end = match get(&params.scope_end) {
                Some(v) => line_number_of(v)?.to_string(),
                None => params.open_end.clone(),
            };
            if m.len() > 2 {
                return None;
            }
            Some(format!("{start},{end}"))
        }
        _ => None,
    }
}

/// A scope given in pieces (start, end, offset, count), or `None` when they do not make one.
#[cold]
#[inline(never)]
fn scope_of_pieces(pieces: (Option<i64>, Option<i64>, Option<i64>, Option<i64>), params: &NativeParameters) -> Option<String> {
    match pieces {
        (Some(a), Some(b), None, None) => Some(format!("{a},{b}")),
        (Some(a), None, None, None) => Some(format!("{a},{}", params.open_end)),
        (None, Some(b), None, None) => Some(format!("1,{b}")),
        (None, None, Some(a), Some(n)) => Some(format!("{a},{}", a + n - 1)),
        (None, None, Some(a), None) => Some(format!("{a},{}", params.open_end)),
        _ => None,
    }
}

/// The text trimmed, its line breaks spaces (nearly every value is one line already: it is
/// borrowed, not rebuilt).
fn one_line(s: Cow<'_, str>) -> Cow<'_, str> {
    let multi = |t: &str| memchr::memchr2(b'\r', b'\n', t.as_bytes()).is_some();
    match s {
        Cow::Borrowed(b) => {
            let t = b.trim();
            if multi(t) {
                Cow::Owned(joined(t))
            } else {
                Cow::Borrowed(t)
            }
        }
        Cow::Owned(o) => {
            let t = o.trim();
            Cow::Owned(if multi(t) { joined(t) } else { t.to_string() })
        }
    }
}

#[cold]
#[inline(never)]
fn joined(t: &str) -> String {
    t.replace(['\r', '\n'], " ")
}

/// The first `(…)` written in slots.
fn slot_target(slots: &str) -> Option<&str> {
    let open = slots.find('(')?;
    let close = slots[open..].find(')')? + open;
    // `()` names no target.
    Some(&slots[open + 1..close]).filter(|t| !t.trim().is_empty())
}

/// The taught form for a call naming `named`, with the target it wrote if any.
#[inline(never)]
pub(crate) fn taught(named: Option<&Named>, target: Option<&str>, rules: &Rules) -> Taught {
    match named {
        None => Taught::Unknown,
        Some(Named::Exec(name)) => Taught::Body { name: name.to_string(), noun: "native-receipt.noun.executor".into() },
        Some(Named::Op(i)) => {
            let op = rules.op(*i);
            if matches!(op.operands, Operands::Required | Operands::Group | Operands::Two) {
                return Taught::Target { op: op.name.clone(), target: target.unwrap_or("path").to_string() };
            }
            let noun = format!("native-receipt.noun.{}", op.name);
            if rules.tables.diagnostics.iter().any(|d| d.id == noun) {
                Taught::Body { name: op.name.clone(), noun }
            } else {
                Taught::Plain { name: op.name.clone() }
            }
        }
    }
}

/// Options written after the heading's other slots.
#[cold]
#[inline(never)]
fn push_options(heading: &mut String, options: Map<String, Value>) {
    heading.push_str(" [");
    heading.push_str(&Value::Object(options).to_string());
    heading.push(']');
}

/// Reads a call as the heading and body of an operation; a refusal names the taught form.
pub(crate) fn map<'a>(
    call: &Call<'a>,
    rules: &Rules,
    registry: &Registry,
    params: &NativeParameters,
    keys: &Keys,
) -> Result<Mapped<'a>, Taught> {
    let Some((named, slots)) = resolve(call, rules, registry, params) else { return Err(Taught::Unknown) };
    let exec = matches!(named, Named::Exec(_));
    let mut target: Option<Cow<str>> = None;
    let mut scope: Option<Cow<str>> = None;
    let (mut start, mut end, mut offset, mut count) = (None, None, None, None);
    let mut options: Option<Map<String, Value>> = None;
    let mut aside: Option<Cow<str>> = call.aside.as_deref().map(Cow::Borrowed);
    let mut body: Option<Cow<'a, str>> = None;
    let mut ok = true;
    for (key, value) in &call.args {
        if matches!(value, Arg::Json(Value::Null)) {
            continue;
        }
        // The first list naming the key, found once (`listed` on each list, in order, for a key
        // the buckets do not take).
        let class = if keys.buckets.is_empty() { None } else { keys.class(key) };
        let is = |li: u8, list: &[String]| match class {
            Some(c) => c == Some(li),
            None => listed(key, list),
        };
        if is(TARGET, &params.target) {
            ok &= target.is_none();
            target = Some(one_line(value.text()));
        } else if is(SCOPE, &params.scope) {
            ok &= scope.is_none();
            match scope_text(value, params) {
                Some(t) => scope = Some(t),
                None => ok = false,
            }
        } else if is(SCOPE_START, &params.scope_start) {
            start = line_number(value);
            ok &= start.is_some();
        } else if is(SCOPE_END, &params.scope_end) {
            end = line_number(value);
            ok &= end.is_some();
        } else if is(SCOPE_OFFSET, &params.scope_offset) {
            offset = line_number(value);
            ok &= offset.is_some();
        } else if is(SCOPE_COUNT, &params.scope_count) {
            count = line_number(value).filter(|n| *n > 0);
            ok &= count.is_some();
        } else if is(MATCHER, &params.matcher) {
            options.get_or_insert_with(Map::new).insert(params.matcher_option.clone(), Value::String(value.text().into_owned()));
        } else if is(ASIDE, &params.aside) {
            aside = Some(one_line(value.text()));
        } else if is(BODY, &params.body) && (value.str().is_some() || !exec) {
            ok &= body.is_none();
            body = Some(value.text_in());
        } else if exec && params.executor_options {
            options.get_or_insert_with(Map::new).insert(key.to_string(), value.to_value());
        } else {
            ok = false;
        }
    }
    // An empty `path` names no target either (§native-tool-calls: the emission stays as it was).
    let target_shown = target.as_deref().filter(|t| !t.trim().is_empty()).or_else(|| slot_target(&slots));
    let refuse = |target: Option<&str>| Err(taught(Some(&named), target, rules));
    if !ok {
        return refuse(target_shown);
    }
    // Scope pieces written apart.
    if start.is_some() || end.is_some() || offset.is_some() || count.is_some() {
        if scope.is_some() {
            return refuse(target_shown);
        }
        match scope_of_pieces((start, end, offset, count), params) {
            Some(t) => scope = Some(Cow::Owned(t)),
            None => return refuse(target_shown),
        }
    }
    let name: &str = match &named {
        Named::Op(i) => &rules.op(*i).name,
        Named::Exec(n) => n,
    };
    if !exec && params.target_required.iter().any(|o| o == name) && target_shown.is_none() {
        return refuse(None);
    }
    // Slots written after the name come before a scope given apart (a heading-in-name's
    // target), and after a target given apart (a heading-in-name's scope or aside).
    let aside = aside.filter(|a| !a.is_empty());
    let len = name.len()
        + target.as_ref().map_or(0, |t| t.len() + 3)
        + slots.len()
        + 1
        + scope.as_ref().map_or(0, |t| t.len() + 3)
        + aside.as_ref().map_or(0, |t| t.len() + 9);
    let mut heading = String::with_capacity(len);
    heading.push_str(name);
    if let Some(t) = &target {
        let t = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')).unwrap_or(t);
        heading.push_str(" (");
        heading.push_str(t);
        heading.push(')');
    }
    if !slots.is_empty() {
        heading.push(' ');
        heading.push_str(&one_line(Cow::Borrowed(&slots)));
    }
    if let Some(sc) = &scope {
        heading.push_str(" <");
        heading.push_str(sc);
        heading.push('>');
    }
    if let Some(options) = options.filter(|o| !o.is_empty()) {
        push_options(&mut heading, options);
    }
    if let Some(a) = aside {
        heading.push_str(" <!-- ");
        heading.push_str(&a);
        heading.push_str(" -->");
    }
    let body = body.or_else(|| call.text.clone()).filter(|b| !b.is_empty());
    Ok(Mapped { heading, body })
}

/// The form a receipt teaches for `call`, given its [`map`] result (the scan keeps it): the
/// taught form of a call whether or not it maps (for the receipt of a block left as written).
#[inline(never)]
pub(crate) fn taught_after(
    call: &Call,
    mapped: &Result<Mapped, Taught>,
    rules: &Rules,
    registry: &Registry,
    params: &NativeParameters,
) -> Taught {
    match mapped {
        Err(t) => t.clone(),
        Ok(_) => {
            let resolved = resolve(call, rules, registry, params);
            let named = resolved.as_ref().map(|r| &r.0);
            let target = call
                .args
                .iter()
                .find(|(k, _)| listed(k, &params.target))
                .map(|(_, v)| one_line(v.text()))
                .or_else(|| resolved.as_ref().and_then(|r| slot_target(&r.1)).map(Cow::Borrowed));
            taught(named, target.as_deref(), rules)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{listed, lists, Keys};
    use crate::rules::Rules;

    /// §native-tool-calls: the buckets name the first list (in `map`'s order) listing a key, as
    /// asking `listed` list by list does, for keys in any case, with separators, not ASCII, and
    /// spellings that are not ASCII or listed twice.
    #[test]
    fn native_tool_calls_key_buckets_agree_with_the_lists() {
        let builtin = Rules::builtin().tables.native_parameters.clone().unwrap();
        let mut odd = builtin.clone();
        odd.target.push("\u{212A}ind".into());
        odd.body.push("_-".into());
        odd.aside.push("Path".into());
        odd.scope.push("ße".into());
        const PIECES: &[&str] = &[
            "path", "PATH", "_", "-", "file", "k", "K", "\u{212A}", "ind", "scope", "start", "_line", "s", "command", "body", "x", "é",
            "ß", "SS", "e", "Path", "content", "limit",
        ];
        for params in [&builtin, &odd] {
            let keys = Keys::new(params);
            let check = |k: &str| {
                let by_lists = lists(params).iter().position(|l| listed(k, l)).map(|i| i as u8);
                match keys.class(k) {
                    Some(c) => assert_eq!(c, by_lists, "{k:?}"),
                    None => assert!(!k.is_ascii() || k.bytes().all(|c| c == b'_' || c == b'-'), "{k:?}"),
                }
            };
            for l in lists(params) {
                for w in l {
                    check(w);
                    check(&w.to_uppercase());
                }
            }
            bolero::check!().with_type::<Vec<u8>>().with_iterations(3_000).with_max_len(4).for_each(|bytes: &Vec<u8>| {
                let k: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
                check(&k);
            });
        }
    }

    /// §native-tool-calls: a call's parameter key matches a listed spelling in any case, with
    /// `_` and `-` ignored, and nothing else matches (a prefix, an extension, another word).
    #[test]
    fn keys_match_listed_spellings_in_any_case_without_separators() {
        let list = vec!["file_path".to_string(), "path".to_string()];
        for hit in ["file_path", "filePath", "FILE-PATH", "filepath", "f_i-l_e_path", "PATH", "Path"] {
            assert!(listed(hit, &list), "{hit}");
        }
        for miss in ["file", "file_paths", "pat", "", "_", "paths", "filepathx", "pa th"] {
            assert!(!listed(miss, &list), "{miss}");
        }
        // Case folding that changes length still compares whole keys.
        assert!(listed("STRASSE", &["strasse".to_string()]));
        assert!(!listed("STRASS", &["strasse".to_string()]));
        assert!(!listed("path", &[]));
    }

    /// §native-tool-calls: the ASCII comparison agrees with the Unicode one on every pair, ASCII
    /// or not (a Kelvin sign lowercases to `k`; `İ` to `i` and a combining dot).
    #[test]
    fn native_tool_calls_ascii_keys_compare_as_unicode_folding_does() {
        let keys = [
            "path",
            "PATH",
            "p_a-t_h",
            "pat",
            "paths",
            "",
            "_-",
            "K",
            "\u{212A}",
            "k",
            "İ",
            "i\u{307}",
            "i",
            "ß",
            "SS",
            "file_Path",
            "FİLE",
        ];
        for w in keys {
            for k in keys {
                assert_eq!(super::same_key(w, k), super::norm(w).eq(super::norm(k)), "{w:?} vs {k:?}");
                // The first-byte test `listed` runs before comparing agrees too.
                assert_eq!(listed(k, &[w.to_string()]), super::norm(w).eq(super::norm(k)), "listed: {w:?} vs {k:?}");
            }
        }
    }
}
