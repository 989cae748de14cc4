//! Calls written as code (§native-tool-calls): Python calls with keyword arguments
//! (`[f(a=1), g(b="x")]`, `tool.call(k=v)`), Python literals (`{'name': 'READ'}`), and the
//! brace calls of Gemma (`call:NAME{key:<|"|>value<|"|>}`). Each reader moves forward only
//! and stops at a depth of [`MAX_DEPTH`], so every reading is linear in what it crosses.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::compile::Markers;
use super::{Arg, Call};

/// Nesting deeper than this is no call (a reader recursing on it would run out of stack).
const MAX_DEPTH: usize = 64;

/// A cursor over `s[..to]`. `repair`: the end of the input closes what is open (a cut-off call).
pub(crate) struct Cursor<'a> {
    s: &'a str,
    pub i: usize,
    to: usize,
    repair: bool,
    /// The reading ran into `to` (and closed what was open).
    pub cut: bool,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(s: &'a str, i: usize, to: usize, repair: bool) -> Cursor<'a> {
        Cursor { s, i, to, repair, cut: false }
    }

    fn peek(&self) -> Option<u8> {
        (self.i < self.to).then(|| self.s.as_bytes()[self.i])
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    /// The end of input inside a value: closes it when repairing.
    fn end(&mut self) -> Option<()> {
        (self.repair && self.i >= self.to).then(|| self.cut = true)
    }

    fn ident(&mut self) -> &'a str {
        let b = self.s.as_bytes();
        let st = self.i;
        while self.i < self.to && (b[self.i].is_ascii_alphanumeric() || b[self.i] == b'_' || (self.i > st && b[self.i] == b'.')) {
            self.i += 1;
        }
        if st < self.i && b[st].is_ascii_digit() {
            self.i = st;
        }
        &self.s[st..self.i]
    }

    /// The items of the list or tuple opening at the cursor, each handed to `item` with where
    /// it starts as it is read, not kept (a long list of calls never stands whole as values):
    /// `None` once `item` refuses one or the list does not read. [`Self::literal`] reads its
    /// lists so.
    pub(crate) fn items(&mut self, depth: usize, mut item: impl FnMut(Value, usize) -> Option<()>) -> Option<()> {
        let close = if self.peek()? == b'[' { b']' } else { b')' };
        self.i += 1;
        loop {
            self.ws();
            match self.peek() {
                None => return self.end(),
                Some(x) if x == close => {
                    self.i += 1;
                    return Some(());
                }
                _ => {}
            }
            let at = self.i;
            item(self.literal(depth + 1)?, at)?;
            if self.cut || !self.comma(close)? {
                return Some(());
            }
        }
    }

    /// One Python literal: a string, number, `True`/`False`/`None`, list, tuple or dict.
    pub(crate) fn literal(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        let Some(c) = self.peek() else { return self.end().map(|_| Value::Null) };
        match c {
            b'\'' | b'"' => self.string(false).map(Value::String),
            b'r' | b'R' if matches!(self.s.as_bytes().get(self.i + 1), Some(b'\'' | b'"')) => {
                self.i += 1;
                self.string(true).map(Value::String)
            }
            b'[' | b'(' => {
                let mut items = Vec::new();
                self.items(depth, |v, _| {
                    items.push(v);
                    Some(())
                })?;
                Some(Value::Array(items))
            }
            b'{' => {
                self.i += 1;
                let mut map = Map::new();
                loop {
                    self.ws();
                    match self.peek() {
                        None => return self.end().map(|_| Value::Object(map)),
                        Some(b'}') => {
                            self.i += 1;
                            return Some(Value::Object(map));
                        }
                        _ => {}
                    }
                    let key = match self.literal(depth + 1)? {
                        Value::String(k) => k,
                        Value::Number(n) => n.to_string(),
                        _ => return None,
                    };
                    self.ws();
                    if self.peek().is_none() && self.end().is_some() {
                        return Some(Value::Object(map));
                    }
                    if self.peek() != Some(b':') {
                        return None;
                    }
                    self.i += 1;
                    let v = self.literal(depth + 1)?;
                    map.insert(key, v);
                    if self.cut || !self.comma(b'}')? {
                        return Some(Value::Object(map));
                    }
                }
            }
            b'-' | b'+' | b'0'..=b'9' | b'.' => self.number(),
            _ => match self.ident() {
                "True" | "true" => Some(Value::Bool(true)),
                "False" | "false" => Some(Value::Bool(false)),
                "None" | "null" => Some(Value::Null),
                _ => None,
            },
        }
    }

    /// After an item: `,` (true, more may follow), the closing byte (false, consumed), or the
    /// end of a cut input (false).
    fn comma(&mut self, close: u8) -> Option<bool> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                Some(true)
            }
            Some(x) if x == close => {
                self.i += 1;
                Some(false)
            }
            None => self.end().map(|_| false),
            _ => None,
        }
    }

    fn number(&mut self) -> Option<Value> {
        let b = self.s.as_bytes();
        let st = self.i;
        while self.i < self.to && matches!(b[self.i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b'_') {
            self.i += 1;
        }
        let t: String = self.s[st..self.i].chars().filter(|&c| c != '_').collect();
        if let Ok(n) = t.parse::<i64>() {
            return Some(Value::Number(n.into()));
        }
        t.parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number)
    }

    /// A quoted string (`'…'`, `"…"`, tripled too) with Python's escapes unless `raw`.
    fn string(&mut self, raw: bool) -> Option<String> {
        let b = self.s.as_bytes();
        let q = b[self.i];
        let triple = self.i + 2 < self.to && b[self.i + 1] == q && b[self.i + 2] == q;
        self.i += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let rest = &b[self.i..self.to];
            let Some(k) = memchr::memchr2(q, b'\\', rest) else {
                out.push_str(&self.s[self.i..self.to]);
                self.i = self.to;
                return self.end().map(|_| out);
            };
            out.push_str(&self.s[self.i..self.i + k]);
            self.i += k;
            if b[self.i] == b'\\' {
                let Some(&e) = b.get(self.i + 1).filter(|_| self.i + 1 < self.to) else {
                    self.i = self.to;
                    return self.end().map(|_| out);
                };
                if raw {
                    out.push('\\');
                    self.i += 1;
                    continue;
                }
                self.i += 2;
                match e {
                    b'n' => out.push('\n'),
                    b't' => out.push('\t'),
                    b'r' => out.push('\r'),
                    b'0' => out.push('\0'),
                    b'\\' | b'\'' | b'"' => out.push(e as char),
                    b'\n' => {}
                    b'x' | b'u' => {
                        let n = if e == b'x' { 2 } else { 4 };
                        let hex = self.s.get(self.i..self.i + n).filter(|_| self.i + n <= self.to)?;
                        out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                        self.i += n;
                    }
                    _ => {
                        // An unknown escape keeps its backslash; the escaped character may be
                        // more than a byte.
                        out.push('\\');
                        self.i -= 1;
                    }
                }
                continue;
            }
            if !triple {
                self.i += 1;
                return Some(out);
            }
            if self.i + 2 < self.to && b[self.i + 1] == q && b[self.i + 2] == q {
                self.i += 3;
                return Some(out);
            }
            out.push(q as char);
            self.i += 1;
        }
    }
}

/// One Python call with keyword arguments at `p`: `name(k=v, …)`, `name.call(k=v)`.
fn call<'a>(cur: &mut Cursor<'a>, suffixes: &[String]) -> Option<Call<'a>> {
    cur.ws();
    let anchor = cur.i;
    let mut name = cur.ident();
    if name.is_empty() {
        return None;
    }
    for suf in suffixes {
        if let Some(n) = name.strip_suffix(suf.as_str()) {
            name = n;
            break;
        }
    }
    cur.ws();
    if cur.peek() != Some(b'(') {
        return None;
    }
    cur.i += 1;
    let mut c = Call { anchor, name: Cow::Borrowed(name), slots: "", heading_ok: false, args: Vec::new(), text: None, aside: None };
    loop {
        cur.ws();
        match cur.peek() {
            Some(b')') => {
                cur.i += 1;
                return Some(c);
            }
            None => return cur.end().map(|_| c),
            _ => {}
        }
        let key = cur.ident();
        cur.ws();
        // A positional argument names no parameter: not this shape.
        if key.is_empty() || cur.peek() != Some(b'=') {
            return None;
        }
        cur.i += 1;
        let v = cur.literal(1)?;
        c.args.push((Cow::Borrowed(key), Arg::Json(v)));
        if cur.cut || !cur.comma(b')')? {
            return Some(c);
        }
    }
}

/// Python calls at `p`: a `[…]` list of them (with `list`), or one call.
pub(crate) fn pythonic<'a>(
    s: &'a str,
    p: usize,
    to: usize,
    list: bool,
    suffixes: &[String],
    repair: bool,
) -> Option<(Vec<Call<'a>>, usize)> {
    let mut cur = Cursor::new(s, p, to, repair);
    if !(list && cur.peek() == Some(b'[')) {
        let c = call(&mut cur, suffixes)?;
        return Some((vec![c], cur.i));
    }
    cur.i += 1;
    let mut calls = Vec::new();
    loop {
        cur.ws();
        match cur.peek() {
            Some(b']') if !calls.is_empty() => {
                cur.i += 1;
                return Some((calls, cur.i));
            }
            None if !calls.is_empty() => return cur.end().map(|_| (calls, cur.i)),
            _ => {}
        }
        calls.push(call(&mut cur, suffixes)?);
        if cur.cut || !cur.comma(b']')? {
            return Some((calls, cur.i));
        }
    }
}

/// What [`list_close`] found.
#[derive(Debug, Clone)]
pub(crate) struct ListClose {
    /// The byte after the list's `]`, or where the reading stopped without it.
    pub got: Result<usize, usize>,
    /// Every `[` met at a line start outside strings, in order, with the byte after its `]`
    /// (`0` when it did not close before the reading ended): a reading from it meets the same
    /// tokens, so it closes there too.
    pub inner: Vec<(usize, usize)>,
}

/// Where the list whose `[` stands at `p` closes, its text read as Python tokens up to `to`, in
/// one forward pass: the byte after its `]`, or where the reading stopped — a closer that
/// matches no opener, a line break in a one-line string (Python has none), nesting past
/// [`MAX_DEPTH`], or `to`. Strings are crossed whole: a bracket in one is text. A list spread
/// over lines is read up to here, so its reading never runs past its own `]`.
pub(crate) fn list_close(s: &str, p: usize, to: usize) -> ListClose {
    let b = s.as_bytes();
    // The closers awaited, each with its line-start entry in `inner` (if it is one).
    let mut open: Vec<(u8, Option<usize>)> = Vec::new();
    let mut inner: Vec<(usize, usize)> = Vec::new();
    let mut line_start = false;
    let mut i = p;
    let got = loop {
        if i >= to {
            break Err(to);
        }
        let c = b[i];
        match c {
            b'[' | b'(' | b'{' => {
                if open.len() >= MAX_DEPTH {
                    break Err(i);
                }
                let entry = (c == b'[' && line_start).then(|| {
                    inner.push((i, 0));
                    inner.len() - 1
                });
                open.push((
                    match c {
                        b'[' => b']',
                        b'(' => b')',
                        _ => b'}',
                    },
                    entry,
                ));
                i += 1;
            }
            b']' | b')' | b'}' => {
                let Some((_, entry)) = open.pop().filter(|o| o.0 == c) else { break Err(i) };
                i += 1;
                if let Some(k) = entry {
                    inner[k].1 = i;
                }
                if open.is_empty() {
                    break Ok(i);
                }
            }
            b'\'' | b'"' => match string_end(b, i, to, c) {
                Ok(e) => i = e,
                Err(e) => break Err(e),
            },
            _ => i += 1,
        }
        line_start = match c {
            b'\n' => true,
            b' ' | b'\t' => line_start,
            _ => false,
        };
    };
    crate::work::add(crate::work::Stage::Native, got.unwrap_or_else(|e| e) - p + 1);
    ListClose { got, inner }
}

/// The end of the string whose quote `q` stands at `i` (tripled too), as [`Cursor::string`]
/// reads it: `Err` at a line break in a one-line string, or at `to`.
fn string_end(b: &[u8], i: usize, to: usize, q: u8) -> Result<usize, usize> {
    let triple = i + 2 < to && b[i + 1] == q && b[i + 2] == q;
    let mut j = i + if triple { 3 } else { 1 };
    loop {
        let rest = &b[j.min(to)..to];
        let hit = if triple { memchr::memchr2(q, b'\\', rest) } else { memchr::memchr3(q, b'\\', b'\n', rest) };
        let Some(k) = hit else { return Err(to) };
        j += k;
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return Err(j),
            _ if !triple => return Ok(j + 1),
            _ if j + 2 < to && b[j + 1] == q && b[j + 2] == q => return Ok(j + 3),
            _ => j += 1,
        }
        if j >= to {
            return Err(to);
        }
    }
}

/// A brace call at `p`: an optional prefix, a name, then `{key:value,…}` where a string value
/// stands between two quote markers and any other is a number, `true`, `false`, `null`, a
/// nested `{…}` or a `[…]` list.
pub(crate) fn braces<'a>(
    s: &'a str,
    p: usize,
    to: usize,
    prefixes: &Markers,
    quotes: &Markers,
    repair: bool,
) -> Option<(Vec<Call<'a>>, usize)> {
    let mut cur = Cursor::new(s, p, to, repair);
    if let Some(e) = prefixes.at(s, p, to) {
        cur.i = e;
    }
    let b = s.as_bytes();
    let st = cur.i;
    while cur.i < to && (b[cur.i].is_ascii_alphanumeric() || matches!(b[cur.i], b'_' | b'.' | b'-')) {
        cur.i += 1;
    }
    let name = &s[st..cur.i];
    if name.is_empty() || cur.peek() != Some(b'{') {
        return None;
    }
    let Value::Object(m) = brace_value(&mut cur, quotes, 0)? else { return None };
    let mut c = Call { anchor: p, name: Cow::Borrowed(name), slots: "", heading_ok: false, args: Vec::new(), text: None, aside: None };
    c.args.extend(m.into_iter().map(|(k, v)| (Cow::Owned(k), Arg::Json(v))));
    Some((vec![c], cur.i))
}

fn brace_value(cur: &mut Cursor, quotes: &Markers, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    cur.ws();
    let s = cur.s;
    if let Some(e) = quotes.at(s, cur.i, cur.to) {
        return match quotes.find(s, e, cur.to) {
            Some((a, z, _)) => {
                cur.i = z;
                Some(Value::String(s[e..a].to_string()))
            }
            None => {
                cur.i = cur.to;
                cur.end().map(|_| Value::String(s[e..cur.to].to_string()))
            }
        };
    }
    let open = cur.peek();
    if let Some(o @ (b'{' | b'[')) = open {
        let close = if o == b'{' { b'}' } else { b']' };
        cur.i += 1;
        let (mut map, mut items) = (Map::new(), Vec::new());
        loop {
            cur.ws();
            match cur.peek() {
                None => {
                    cur.end()?;
                    break;
                }
                Some(x) if x == close => {
                    cur.i += 1;
                    break;
                }
                _ => {}
            }
            if o == b'{' {
                let kst = cur.i;
                let b = s.as_bytes();
                while cur.i < cur.to && !matches!(b[cur.i], b':' | b',' | b'}' | b'\n') {
                    cur.i += 1;
                }
                if cur.peek() != Some(b':') {
                    return None;
                }
                let key = s[kst..cur.i].trim().trim_matches(['"', '\'']).to_string();
                cur.i += 1;
                let v = brace_value(cur, quotes, depth + 1)?;
                map.insert(key, v);
            } else {
                items.push(brace_value(cur, quotes, depth + 1)?);
            }
            if cur.cut || !cur.comma(close)? {
                break;
            }
        }
        return Some(if o == b'{' { Value::Object(map) } else { Value::Array(items) });
    }
    // A bare token: up to the next `,`, `}` or `]`.
    let b = s.as_bytes();
    let st = cur.i;
    while cur.i < cur.to && !matches!(b[cur.i], b',' | b'}' | b']') {
        cur.i += 1;
    }
    let t = s[st..cur.i].trim();
    if cur.i >= cur.to {
        cur.end()?;
    }
    Some(match t {
        "true" | "True" => Value::Bool(true),
        "false" | "False" => Value::Bool(false),
        "null" | "None" => Value::Null,
        _ => match serde_json::from_str::<Number>(t) {
            Ok(n) => Value::Number(n),
            Err(_) => Value::String(t.to_string()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Option<Value> {
        Cursor::new(s, 0, s.len(), false).literal(0)
    }

    /// §native-tool-calls: Python literals read as the JSON values they stand for.
    #[test]
    fn native_tool_calls_python_literals_read_as_json() {
        assert_eq!(lit("{'a': [1, 2.5, True, None], \"b\": ('x',)}"), Some(serde_json::json!({"a": [1, 2.5, true, null], "b": ["x"]})));
        assert_eq!(lit(r"'it\'s\n'"), Some(Value::String("it's\n".into())));
        assert_eq!(lit("'''a'b'''"), Some(Value::String("a'b".into())));
        assert_eq!(lit("r'a\\d'"), Some(Value::String("a\\d".into())));
        assert_eq!(lit("{'a': 1"), None, "unclosed without repair");
        let s = "{'a': 'cut";
        assert_eq!(Cursor::new(s, 0, s.len(), true).literal(0), Some(serde_json::json!({"a": "cut"})));
        assert_eq!(lit(&"[".repeat(200)), None, "too deep");
        assert_eq!(lit("open(x)"), None);
    }

    /// §native-tool-calls: a list's close is found across lines and strings; a line-start `[`
    /// inside it is recorded with its own close; a line break in a one-line string, a closer
    /// that matches nothing and the bound stop the reading.
    #[test]
    fn native_tool_calls_list_close_reads_python_tokens() {
        let s = "[a(x=\"]\", y='''\n]'''),\n [b(z=[1])],\n]\ntail";
        let l = list_close(s, 0, s.len());
        assert_eq!(l.got, Ok(s.find("\ntail").unwrap()));
        let inner = s.find("\n [").unwrap() + 2;
        assert_eq!(l.inner, [(inner, s[inner..].find(']').unwrap() + inner + 3)]);
        assert_eq!(list_close("[a(x='it\nb", 0, 10).got, Err(8), "a line break in a one-line string");
        assert_eq!(list_close("[a(x=1]", 0, 7).got, Err(6), "`]` closes no `(`");
        assert_eq!(list_close("[\n[\n", 0, 4).got, Err(4));
        assert_eq!(list_close("[\n[\n", 0, 4).inner, [(2, 0)], "unclosed when the reading ended");
    }
}
