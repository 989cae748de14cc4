//! Byte-level helpers the native readers share. Every cut falls on an ASCII byte or a marker
//! match, so every slice stays on a character boundary.

use serde_json::Value;

/// The end of the line holding `p` (before its `\r\n` or `\n`).
pub(crate) fn line_end(s: &str, p: usize) -> usize {
    let b = s.as_bytes();
    let mut e = match memchr::memchr(b'\n', &b[p.min(b.len())..]) {
        Some(i) => p + i,
        None => b.len(),
    };
    if e > p && b[e - 1] == b'\r' {
        e -= 1;
    }
    e
}

/// The start of the line holding `p`.
pub(crate) fn line_start(s: &str, p: usize) -> usize {
    match memchr::memrchr(b'\n', &s.as_bytes()[..p.min(s.len())]) {
        Some(i) => i + 1,
        None => 0,
    }
}

/// Whether only spaces and tabs stand between the start of `p`'s line and `p`. It reads back
/// over the blanks alone, not to the line start (a long line of openings stays linear).
pub(crate) fn at_line_start(s: &str, p: usize) -> bool {
    let b = s.as_bytes();
    let mut i = p.min(b.len());
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i == 0 || b[i - 1] == b'\n'
}

/// Past spaces, tabs and line breaks, up to `to`.
pub(crate) fn skip_ws(s: &str, mut p: usize, to: usize) -> usize {
    let b = s.as_bytes();
    while p < to && matches!(b[p], b' ' | b'\t' | b'\r' | b'\n') {
        p += 1;
    }
    p
}

/// Past spaces and tabs, up to `to`.
pub(crate) fn skip_blank(s: &str, mut p: usize, to: usize) -> usize {
    let b = s.as_bytes();
    while p < to && matches!(b[p], b' ' | b'\t') {
        p += 1;
    }
    p
}

/// Whether `word` is written at `p`, in any ASCII case. A byte loop that stops at the first
/// difference: most tests fail at once (a prefix or name against the bytes after a `<`), where
/// the slice comparison's chunked reading cost a few dozen instructions whatever the outcome.
/// Eight bytes at a time while they are equal as written (a DSML prefix runs 17 bytes).
pub(crate) fn starts_with_ci(s: &str, p: usize, word: &str) -> bool {
    let b = s.as_bytes();
    let w = word.as_bytes();
    if p + w.len() > b.len() {
        return false;
    }
    let t = &b[p..p + w.len()];
    let mut i = 0;
    while i + 8 <= w.len() {
        let x = u64::from_ne_bytes(t[i..i + 8].try_into().unwrap());
        let y = u64::from_ne_bytes(w[i..i + 8].try_into().unwrap());
        if x != y {
            break;
        }
        i += 8;
    }
    t[i..].iter().zip(&w[i..]).all(|(x, y)| x == y || x.eq_ignore_ascii_case(y))
}

/// A closing tag `</…>` written at `p` (at most 64 bytes, on one line): its end.
pub(crate) fn closing_tag_at(s: &str, p: usize, to: usize) -> Option<usize> {
    let b = s.as_bytes();
    if p + 2 > to || b[p] != b'<' || b[p + 1] != b'/' {
        return None;
    }
    let stop = to.min(p + 66);
    let mut i = p + 2;
    while i < stop {
        match b[i] {
            b'>' => return Some(i + 1),
            b'<' | b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

/// Whether the trimmed line is a bare fence: three or more backticks or tildes alone.
pub(crate) fn is_bare_fence(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.bytes().all(|c| c == b'`') || t.bytes().all(|c| c == b'~'))
}

/// Drops the debris around a call's plain content: closing tags left over (`</parameter>`,
/// `</>`), openers with no key, and a bare fence closing it.
pub(crate) fn strip_debris<'a>(mut t: &'a str, closers: bool, fence: bool, keyless_opener: &dyn Fn(&str) -> Option<usize>) -> &'a str {
    loop {
        let before = t.len();
        t = trim_ws(t);
        if closers {
            if let Some(e) = closing_tag_at(t, 0, t.len()) {
                t = &t[e..];
            }
            if t.ends_with('>') {
                if let Some(open) = rfind_closer(t) {
                    if closing_tag_at(t, open, t.len()) == Some(t.len()) {
                        t = &t[..open];
                    }
                }
            }
            if let Some(e) = keyless_opener(t) {
                t = &t[e..];
            }
        }
        if fence {
            let last = match memchr::memrchr(b'\n', t.as_bytes()) {
                Some(i) => i + 1,
                None => 0,
            };
            if last > 0 && is_bare_fence(&t[last..]) {
                t = &t[..last];
            }
        }
        if t.len() == before {
            return t;
        }
    }
}

/// `t` less the spaces, tabs and line breaks around it (bytes: each is ASCII).
pub(crate) fn trim_ws(t: &str) -> &str {
    let b = t.as_bytes();
    let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map(|i| i + 1).unwrap_or(start);
    &t[start..end.max(start)]
}

/// `t.rfind("</")`, by searching back for `<` (a substring search set up for two bytes cost
/// more than the text it crossed).
pub(crate) fn rfind_closer(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let mut end = b.len();
    while let Some(i) = memchr::memrchr(b'<', &b[..end]) {
        if b.get(i + 1) == Some(&b'/') {
            return Some(i);
        }
        end = i;
    }
    None
}

/// Drops blank lines before the text and whitespace after it; the text itself stays exact.
pub(crate) fn trim_lines(t: &str) -> &str {
    let t = t.trim_end();
    let mut start = 0;
    for (i, c) in t.char_indices() {
        match c {
            '\n' => start = i + 1,
            ' ' | '\t' | '\r' => {}
            _ => break,
        }
    }
    &t[start..]
}

/// One line break removed from each end of an argument's value (`<parameter=k>\nv\n</parameter>`).
pub(crate) fn trim_value(v: &str) -> &str {
    let v = v.strip_prefix("\r\n").or_else(|| v.strip_prefix('\n')).unwrap_or(v);
    v.strip_suffix("\r\n").or_else(|| v.strip_suffix('\n')).unwrap_or(v)
}

/// Where the JSON value opening at `p` (a `{` or `[`) closes: the byte after the bracket that
/// brings the depth back to zero outside strings, or `None` when `s[p..to]` ends first. A JSON
/// parser reading the same text stops at that bracket at the latest (it completes the value or
/// fails on the way), so a value that closes here never ends in EOF.
pub(crate) fn json_close(s: &str, p: usize, to: usize) -> Option<usize> {
    let b = &s.as_bytes()[..to];
    let mut depth = 0usize;
    let mut i = p;
    while i < to {
        match b[i] {
            b'"' => {
                // A string is crossed by searching for its quote or an escape, not byte by byte.
                i += 1;
                loop {
                    let k = memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
                    if b[i + k] == b'"' {
                        i += k + 1;
                        break;
                    }
                    // An escape and the byte it escapes.
                    i += k + 2;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// [`json_close`] over one input with its last answer kept: every block a bare bracket may
/// open asks where the same value closes, twice (the form, then the EOF check).
pub(crate) struct Closes<'a> {
    input: &'a str,
    last: std::cell::Cell<Option<(usize, usize, Option<usize>)>>,
}

impl<'a> Closes<'a> {
    pub(crate) fn new(input: &'a str) -> Closes<'a> {
        Closes { input, last: Default::default() }
    }

    /// `json_close(s, p, to)`; kept only when `s` is the input itself.
    pub(crate) fn get(&self, s: &str, p: usize, to: usize) -> Option<usize> {
        if !std::ptr::eq(s, self.input) {
            return json_close(s, p, to);
        }
        match self.last.get() {
            Some((lp, lt, close)) if lp == p && lt == to => close,
            _ => {
                let close = json_close(s, p, to);
                self.last.set(Some((p, to, close)));
                close
            }
        }
    }
}

/// A JSON value written at `p` (after whitespace), read up to `to`: the value and its end. With
/// `repair`, a value the input cut off (an unclosed string, object or array) is closed.
pub(crate) fn json_at(s: &str, p: usize, to: usize, repair: bool) -> Option<(Value, usize)> {
    let p = skip_ws(s, p, to);
    if p >= to {
        return None;
    }
    let text = &s[p..to];
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match it.next() {
        Some(Ok(v)) => Some((v, p + it.byte_offset())),
        Some(Err(e)) if repair && e.is_eof() => {
            let fixed = close_json(text)?;
            let v: Value = serde_json::from_str(&fixed).ok()?;
            Some((v, to))
        }
        _ => None,
    }
}

/// Closes what a cut-off JSON text left open.
fn close_json(text: &str) -> Option<String> {
    let mut stack = Vec::new();
    let mut in_str = false;
    let mut esc = false;
    for c in text.bytes() {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' => stack.push(b'}'),
            b'[' => stack.push(b']'),
            // The pop is the step itself, so it stays out of a match guard.
            #[allow(clippy::collapsible_match)]
            b'}' | b']' => {
                if stack.pop() != Some(c) {
                    return None;
                }
            }
            _ => {}
        }
    }
    let mut out = text.trim_end().to_string();
    if esc {
        out.pop();
    }
    if in_str {
        out.push('"');
    }
    while let Some(c) = stack.pop() {
        out.push(c as char);
    }
    Some(out)
}

/// Offsets of the top-level items of the JSON array written at `p` (`[` at `p`).
pub(crate) fn array_items(s: &str, p: usize, to: usize) -> Vec<usize> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_str = false;
    let mut esc = false;
    let mut want = false;
    let mut i = p;
    while i < to {
        let c = b[i];
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if want && !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            out.push(i);
            want = false;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth == 1 {
                    want = true;
                }
            }
            b']' | b'}' => {
                if depth <= 1 {
                    return out;
                }
                depth -= 1;
            }
            b',' if depth == 1 => want = true,
            _ => {}
        }
        i += 1;
    }
    out
}

/// A JSON value as argument text: a string as is, anything else as JSON.
pub(crate) fn text_of(v: &Value) -> std::borrow::Cow<'_, str> {
    match v {
        Value::String(s) => std::borrow::Cow::Borrowed(s),
        other => std::borrow::Cow::Owned(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-by-byte reading `json_close` replaced.
    fn json_close_bytewise(s: &str, p: usize, to: usize) -> Option<usize> {
        let b = &s.as_bytes()[..to];
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        for (i, &c) in b.iter().enumerate().skip(p) {
            if in_str {
                match c {
                    _ if esc => esc = false,
                    b'\\' => esc = true,
                    b'"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// §native-tool-calls: the debris strip's backward search for `</` finds what
    /// `str::rfind` finds.
    #[test]
    fn native_tool_calls_closer_search_agrees_with_the_str_search() {
        const PIECES: &[&str] = &["<", "/", "</", ">", " ", "\t", "\r", "\n", "x", "é", "｜", "\u{3000}"];
        let check = |s: &str| {
            assert_eq!(rfind_closer(s), s.rfind("</"), "{s:?}");
        };
        bolero::check!().with_type::<Vec<u8>>().with_iterations(3_000).with_max_len(12).for_each(|bytes: &Vec<u8>| {
            let s: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            check(&s);
        });
    }

    /// §native-tool-calls: crossing strings by search finds the bracket the byte-by-byte reading
    /// finds, for every start and bound, and the kept answer is the answer.
    #[test]
    fn native_tool_calls_json_close_agrees_with_the_bytewise_reading() {
        const PIECES: &[&str] = &["{", "}", "[", "]", "\"", "\\", "a", " ", ":", ",", "é", "\\\"", "\n"];
        let check = |s: &str| {
            let closes = Closes::new(s);
            for p in (0..s.len()).filter(|&p| s.is_char_boundary(p)) {
                for to in (p..=s.len()).filter(|&t| s.is_char_boundary(t)) {
                    let want = json_close_bytewise(s, p, to);
                    assert_eq!(json_close(s, p, to), want, "{s:?} {p} {to}");
                    assert_eq!(closes.get(s, p, to), want, "{s:?} {p} {to}");
                    assert_eq!(closes.get(s, p, to), want, "{s:?} {p} {to} (kept)");
                }
            }
        };
        for s in ["{\"a\\\"}\": [1, \"]\"]}", "{\"x\\", "[{\"k\":\"v\"}]tail", "{\"é\\é\": 1}"] {
            check(s);
        }
        bolero::check!().with_type::<Vec<u8>>().with_iterations(5_000).with_max_len(14).for_each(|bytes: &Vec<u8>| {
            let s: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            check(&s);
        });
    }
}
