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
    crate::work::add(crate::work::Stage::Native, e.saturating_sub(p) + 1);
    if e > p && b[e - 1] == b'\r' {
        e -= 1;
    }
    e
}

/// `line_end(s, p).min(to)`, reading no further than `to`: a call's bound ends its search, so
/// the calls of a line are not each read to the line's end.
pub(crate) fn line_end_to(s: &str, p: usize, to: usize) -> usize {
    let b = s.as_bytes();
    // One byte past `to`: a `\r\n` straddling it ends the line before the `\r`.
    let stop = to.saturating_add(1).min(b.len());
    let p = p.min(stop);
    match memchr::memchr(b'\n', &b[p..stop]) {
        Some(_) => line_end(s, p).min(to),
        None if stop == b.len() => line_end(s, p).min(to),
        None => {
            crate::work::add(crate::work::Stage::Native, stop - p + 1);
            to
        }
    }
}

/// The start of the line holding `p`.
pub(crate) fn line_start(s: &str, p: usize) -> usize {
    let start = match memchr::memrchr(b'\n', &s.as_bytes()[..p.min(s.len())]) {
        Some(i) => i + 1,
        None => 0,
    };
    crate::work::add(crate::work::Stage::Native, p.saturating_sub(start) + 1);
    start
}

/// Past spaces, tabs and line breaks, up to `to`.
pub(crate) fn skip_ws(s: &str, mut p: usize, to: usize) -> usize {
    let b = s.as_bytes();
    let from = p;
    while p < to && matches!(b[p], b' ' | b'\t' | b'\r' | b'\n') {
        p += 1;
    }
    crate::work::add(crate::work::Stage::Native, p - from + 1);
    p
}

/// Past spaces and tabs, up to `to`.
pub(crate) fn skip_blank(s: &str, mut p: usize, to: usize) -> usize {
    let b = s.as_bytes();
    let from = p;
    while p < to && matches!(b[p], b' ' | b'\t') {
        p += 1;
    }
    crate::work::add(crate::work::Stage::Native, p.saturating_sub(from) + 1);
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

/// Drops the debris around a call's plain content `t[a..e]`: closing tags left over
/// (`</parameter>`, `</>`), openers with no key, and a bare fence closing it. The range it keeps.
///
/// Linear however much debris there is: the content's two ends only move inwards, so the last
/// `</` and the last line break found are kept and asked again only when the end passes them
/// (content of a thousand keyless openers, each stripped in turn, is not searched back from
/// its end once per opener). `keyless_opener(t, a, e)` tells where an opener with no key at
/// `a` ends.
pub(crate) fn strip_debris(
    t: &str,
    mut a: usize,
    mut e: usize,
    closers: bool,
    fence: bool,
    keyless_opener: &dyn Fn(&str, usize, usize) -> Option<usize>,
) -> (usize, usize) {
    let mut closer = LastFound::default();
    let mut newline = LastFound::default();
    loop {
        let before = e - a;
        let trimmed = trim_ws(&t[a..e]);
        a = trimmed.as_ptr() as usize - t.as_ptr() as usize;
        e = a + trimmed.len();
        if closers {
            // The content nearly always starts with other text than a tag.
            let tag_first = |a: usize| t.as_bytes().get(a) == Some(&b'<');
            if tag_first(a) {
                if let Some(end) = closing_tag_at(t, a, e) {
                    a = end;
                }
            }
            if t[a..e].ends_with('>') {
                if let Some(open) = closer.last(t, a, e, rfind_closer) {
                    if closing_tag_at(t, open, e) == Some(e) {
                        e = open;
                    }
                }
            }
            if tag_first(a) {
                if let Some(end) = keyless_opener(t, a, e) {
                    a = end;
                }
            }
        }
        if fence {
            let nl = newline.last(t, a, e, |w| {
                let found = memchr::memrchr(b'\n', w.as_bytes());
                crate::work::add(crate::work::Stage::Native, w.len() - found.unwrap_or(0));
                found
            });
            if let Some(nl) = nl {
                if is_bare_fence(&t[nl + 1..e]) {
                    e = nl + 1;
                }
            }
        }
        if e - a == before {
            return (a, e);
        }
    }
}

/// The last match of a backward search in a range whose ends only move inwards: what was found
/// answers while it stays inside, and nothing found stays nothing.
#[derive(Default)]
struct LastFound {
    /// (the end searched from, the match's start).
    kept: Option<(usize, Option<usize>)>,
}

impl LastFound {
    /// The last match of `search` in `t[a..e]` (its start), searching again only below a kept
    /// match the end has passed. A match needs its two bytes inside (`</`; a line break's one).
    fn last(&mut self, t: &str, a: usize, e: usize, search: impl Fn(&str) -> Option<usize>) -> Option<usize> {
        let to = match self.kept {
            Some((_, None)) => return None,
            Some((_, Some(m))) if m + 2 <= e => return (m >= a).then_some(m),
            // The end passed the kept match: nothing lies between the two.
            Some((_, Some(m))) => e.min(m + 1),
            None => e,
        };
        let found = if a < to { search(&t[a..to]).map(|i| a + i) } else { None };
        self.kept = Some((e, found));
        found
    }
}

/// `t` less the spaces, tabs and line breaks around it (bytes: each is ASCII).
pub(crate) fn trim_ws(t: &str) -> &str {
    let b = t.as_bytes();
    let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map(|i| i + 1).unwrap_or(start);
    crate::work::add(crate::work::Stage::Native, start + (b.len() - end.max(start)) + 1);
    &t[start..end.max(start)]
}

/// `t.rfind("</")`, by searching back for `<` (a substring search set up for two bytes cost
/// more than the text it crossed).
pub(crate) fn rfind_closer(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let mut end = b.len();
    while let Some(i) = memchr::memrchr(b'<', &b[..end]) {
        if b.get(i + 1) == Some(&b'/') {
            crate::work::add(crate::work::Stage::Native, b.len() - i);
            return Some(i);
        }
        end = i;
    }
    crate::work::add(crate::work::Stage::Native, b.len());
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
/// brings the depth back to zero outside strings, or `None` when `s[p..to]` ends first or a
/// string holds a line break (JSON writes one as `\n`: a parser fails there, so no value open
/// across it ever reads). A JSON parser reading the same text stops at that bracket at the
/// latest (it completes the value or fails on the way), so a value that closes here never ends
/// in EOF.
pub(crate) fn json_close(s: &str, p: usize, to: usize) -> Option<usize> {
    let close = json_close_uncounted(s, p, to);
    crate::work::add(crate::work::Stage::Json, close.unwrap_or(to).saturating_sub(p));
    close
}

fn json_close_uncounted(s: &str, p: usize, to: usize) -> Option<usize> {
    let b = &s.as_bytes()[..to];
    let mut depth = 0usize;
    let mut i = p;
    while i < to {
        match b[i] {
            b'"' => {
                // A string is crossed by searching for its quote or an escape, not byte by byte.
                i += 1;
                loop {
                    let k = memchr::memchr3(b'"', b'\\', b'\n', b.get(i..)?)?;
                    match b[i + k] {
                        b'"' => {
                            i += k + 1;
                            break;
                        }
                        b'\n' => return None,
                        // An escape and the byte it escapes.
                        _ => i += k + 2,
                    }
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

/// One marker set's last search: (its address, the bound, the position searched from, the match).
type LastFind = (usize, usize, usize, Option<(usize, usize, usize)>);

/// [`json_close`] over one input, every bracket matched once: every block a bare bracket may
/// open asks where its value closes (the form, then the EOF check), and the calls of a block
/// ask it again at each line a call starts on, inside values a reading from an earlier line
/// already crossed ([`Brackets`]). And the marker searches of the call forms, kept per marker
/// set ([`Closes::find`]).
pub(crate) struct Closes<'a> {
    input: &'a str,
    /// Per bound, the two last asked (the blocks of one opening read to their next start, the
    /// JSON openings to the end of the input, in turn): one kept per bound, so neither restarts
    /// the other's reading.
    brackets: std::cell::RefCell<[Brackets; 2]>,
    /// Per marker set (by address): the bound, the position searched from, and what was found.
    next: std::cell::RefCell<Vec<LastFind>>,
    /// The line last asked for its end: (first byte asked, the newline or input end after it,
    /// whether a `\r` stands before that newline).
    line: std::cell::Cell<Option<(usize, usize, bool)>>,
    /// The value [`Closes::reading`] told last: (its bracket, the bound, the answer).
    last_reading: std::cell::Cell<Option<(usize, usize, Reading)>>,
}

impl<'a> Closes<'a> {
    pub(crate) fn new(input: &'a str) -> Closes<'a> {
        Closes { input, brackets: Default::default(), next: Default::default(), line: Default::default(), last_reading: Default::default() }
    }

    /// `line_end(s, p)`, kept for the line last asked about when `s` is the input: the tags of
    /// a line read left to right (a turn of glued tags on one line) each ask where their line
    /// ends, and the answer is found once per line, not once a tag.
    pub(crate) fn line_end(&self, s: &str, p: usize) -> usize {
        if !std::ptr::eq(s, self.input) {
            return line_end(s, p);
        }
        if let Some((from, nl, cr)) = self.line.get() {
            // No newline lies in `from..nl`: any `p` there ends where `from`'s line does.
            if from <= p && p <= nl {
                crate::work::add(crate::work::Stage::Native, 1);
                return if cr && p < nl { nl - 1 } else { nl };
            }
        }
        let end = line_end(s, p);
        // `line_end` stops before a `\r` that the line break follows.
        let cr = s.as_bytes().get(end) == Some(&b'\r');
        self.line.set(Some((p, end + cr as usize, cr)));
        end
    }

    /// `m.find(s, p, to)`, its last answer kept per marker set when `s` is the input. The calls
    /// of a block are read one after another from positions that only grow, each form looking
    /// for its marker up to the same bound: a search from `p` that found its first match at `k`
    /// answers every search from `p..=k` (no match starts between), and one that found none
    /// answers every search from after `p`. So a form whose marker is never written (a block of
    /// calls in another form) crosses the block once, not once a call.
    pub(crate) fn find(&self, m: &super::compile::Markers, s: &str, p: usize, to: usize) -> Option<(usize, usize, usize)> {
        if !std::ptr::eq(s, self.input) {
            return m.find(s, p, to);
        }
        let key = m as *const super::compile::Markers as usize;
        let mut next = self.next.borrow_mut();
        let slot = match next.iter().position(|e| e.0 == key) {
            Some(i) => i,
            None => {
                next.push((key, usize::MAX, 0, None));
                next.len() - 1
            }
        };
        let (_, bound, from, found) = next[slot];
        if bound == to && from <= p && found.is_none_or(|f| p <= f.0) {
            return found;
        }
        let found = m.find(s, p, to);
        next[slot] = (key, to, p, found);
        found
    }

    /// The brackets read up to `to`, the latest first: the other is given up for a new bound.
    fn for_bound(br: &mut [Brackets; 2], to: usize) -> &mut Brackets {
        if br[0].to != to {
            br.swap(0, 1);
        }
        &mut br[0]
    }

    /// `json_close(s, p, to)`; read from the matched brackets when `s` is the input itself and
    /// a bracket opens at `p` (the readers ask [`Closes::reading`]; the test holds both to it).
    #[cfg(test)]
    pub(crate) fn get(&self, s: &str, p: usize, to: usize) -> Option<usize> {
        if !std::ptr::eq(s, self.input) || !matches!(s.as_bytes().get(p), Some(b'{' | b'[')) || to > s.len() {
            return json_close(s, p, to);
        }
        let mut br = self.brackets.borrow_mut();
        Self::for_bound(&mut br, to).close(s.as_bytes(), p, to)
    }

    /// What a JSON parser makes of the value opening at `p` (a `{` or `[`) up to `to`, told
    /// from the matched brackets without running it: a value that closes ([`json_close`]), one
    /// that runs to `to`, or one a parser fails on for sure — a line break in one of its
    /// strings, or nesting past [`PARSER_DEPTH`]. The calls of a block ask at each line, and a
    /// value nested a level a line would be read again to the parser's limit from every line.
    pub(crate) fn reading(&self, s: &str, p: usize, to: usize) -> Reading {
        if !std::ptr::eq(s, self.input) || !matches!(s.as_bytes().get(p), Some(b'{' | b'[')) || to > s.len() {
            return match json_close(s, p, to) {
                Some(end) => Reading::Closes(end),
                None => Reading::Unclosed,
            };
        }
        // Every block a bracket opens asks about the same value, one after another.
        if let Some((at, bound, got)) = self.last_reading.get() {
            if (at, bound) == (p, to) {
                crate::work::add(crate::work::Stage::Json, 1);
                return got;
            }
        }
        let mut br = self.brackets.borrow_mut();
        let br = Self::for_bound(&mut br, to);
        let (close, k) = br.matched(s.as_bytes(), p, to);
        let got = br.reading(k, close);
        self.last_reading.set(Some((p, to, got)));
        got
    }
}

/// How deep a JSON value may nest for `serde_json` (its recursion limit): a value nested this
/// many levels fails to parse.
pub(crate) const PARSER_DEPTH: usize = 128;

/// See [`Closes::reading`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The value closes at this byte (after its last bracket).
    Closes(usize),
    /// The value runs to the bound unclosed (a parser ends in EOF, or fails on the way).
    Unclosed,
    /// A parser fails on the value, whatever else it holds.
    Fails,
}

/// The brackets of the text from `start` matched as far as `at` (up to the bound `to`), read
/// once: a bracket outside strings there closes where `json_close` from it closes, since a
/// reading from it meets the same strings and brackets. A line break in a string ends every
/// value open across it (`json_close`'s `None`), and the reading goes on from the next byte
/// outside strings, as a reading started there does. A bracket this reading saw inside a string
/// is asked about by a reading from it (`start` moves there).
#[derive(Default)]
pub(crate) struct Brackets {
    to: usize,
    start: usize,
    at: usize,
    /// Each bracket opened outside strings, in text order: its position, the byte after its
    /// close ([`Brackets::OPEN`] while open, [`Brackets::NEVER`] when a string's line break
    /// ended it), its depth (brackets open around it), and the deepest depth opened inside it
    /// by a bracket closed since (passed up as each closes).
    opens: Vec<(usize, usize, u32, u32)>,
    /// Indices into `opens` of the brackets still open.
    stack: Vec<usize>,
}

impl Brackets {
    const OPEN: usize = 0;
    const NEVER: usize = usize::MAX;

    #[cfg(test)]
    fn close(&mut self, b: &[u8], p: usize, to: usize) -> Option<usize> {
        self.matched(b, p, to).0
    }

    /// [`Brackets::close`], and the index of `p` among the brackets read (none when `p` opens
    /// none). The reading first passes `p` (no bracket there is known before), then looks `p` up
    /// once and reads on until its bracket closes: one search a question, not one a step.
    fn matched(&mut self, b: &[u8], p: usize, to: usize) -> (Option<usize>, Option<usize>) {
        if self.to != to || p < self.start {
            self.restart(p, to);
        }
        let mut again = true;
        let k = loop {
            while self.at <= p {
                if self.at >= self.to {
                    return (None, None);
                }
                self.step(b);
            }
            match self.opens.binary_search_by_key(&p, |o| o.0) {
                Ok(k) => break k,
                // Inside a string of this reading: read again from `p` (once: from `p` itself,
                // a byte that opens no bracket opens none).
                Err(_) if again => {
                    again = false;
                    self.restart(p, to);
                }
                Err(_) => return (None, None),
            }
        };
        while self.opens[k].1 == Self::OPEN && self.at < self.to {
            self.step(b);
        }
        match self.opens[k].1 {
            Self::OPEN | Self::NEVER => (None, Some(k)),
            end => (Some(end), Some(k)),
        }
    }

    /// What a parser makes of the bracket at `p` (index `k` among the brackets read, when it
    /// opens one), whose close `close` was just asked.
    fn reading(&self, k: Option<usize>, close: Option<usize>) -> Reading {
        let Some(k) = k else {
            return close.map_or(Reading::Unclosed, Reading::Closes);
        };
        let (_, end, depth, deep) = self.opens[k];
        // Levels nested from `p`, `p` itself the first; for a bracket still open, those of the
        // brackets open above it count too (at most the parser's depth of them are read).
        let levels = |deep: u32| (deep - depth) as usize + 1;
        match end {
            Self::NEVER => Reading::Fails,
            Self::OPEN => {
                let above = &self.stack[(depth as usize + 1).min(self.stack.len())..];
                let deepest = above.iter().take(PARSER_DEPTH).map(|&j| self.opens[j].3).fold(deep, u32::max);
                if above.len() >= PARSER_DEPTH || levels(deepest) >= PARSER_DEPTH {
                    Reading::Fails
                } else {
                    Reading::Unclosed
                }
            }
            end if levels(deep) >= PARSER_DEPTH => {
                let _ = end;
                Reading::Fails
            }
            end => Reading::Closes(end),
        }
    }

    fn restart(&mut self, start: usize, to: usize) {
        (self.to, self.start, self.at) = (to, start, start);
        self.opens.clear();
        self.stack.clear();
    }

    /// Reads on from `at` to the next bracket or past the next string.
    fn step(&mut self, b: &[u8]) {
        let i = self.at;
        let next = match b[i] {
            b'"' => {
                let mut j = i + 1;
                loop {
                    match memchr::memchr3(b'"', b'\\', b'\n', b.get(j..self.to).unwrap_or(&[])) {
                        Some(k) if b[j + k] == b'"' => break j + k + 1,
                        Some(k) if b[j + k] == b'\n' => {
                            for k in self.stack.drain(..) {
                                self.opens[k].1 = Self::NEVER;
                            }
                            break j + k + 1;
                        }
                        Some(k) => j += k + 2,
                        None => break self.to,
                    }
                    if j >= self.to {
                        break self.to;
                    }
                }
            }
            b'{' | b'[' => {
                let depth = self.stack.len() as u32;
                self.stack.push(self.opens.len());
                self.opens.push((i, Self::OPEN, depth, depth));
                i + 1
            }
            b'}' | b']' => {
                if let Some(k) = self.stack.pop() {
                    self.opens[k].1 = i + 1;
                    if let Some(&up) = self.stack.last() {
                        self.opens[up].3 = self.opens[up].3.max(self.opens[k].3);
                    }
                }
                i + 1
            }
            _ => i + 1,
        };
        crate::work::add(crate::work::Stage::Json, next - i);
        self.at = next.min(self.to);
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
    let got = it.next();
    json_work(text, &got, it.byte_offset());
    match got {
        Some(Ok(v)) => Some((v, p + it.byte_offset())),
        Some(Err(e)) if repair && e.is_eof() => {
            crate::work::add(crate::work::Stage::Json, text.len());
            let fixed = close_json(text)?;
            let v: Value = serde_json::from_str(&fixed).ok()?;
            Some((v, to))
        }
        _ => None,
    }
}

/// Counts the bytes a JSON parser read of `text`: to the value's end, or to where it failed
/// (found from the error's line and column only when work is counted).
pub(crate) fn json_work<T>(text: &str, got: &Option<Result<T, serde_json::Error>>, offset: usize) {
    if crate::work::counts().is_none() {
        return;
    }
    let read = match got {
        Some(Ok(_)) => offset,
        Some(Err(e)) if e.line() > 0 => {
            let line_start =
                if e.line() == 1 { 0 } else { memchr::memchr_iter(b'\n', text.as_bytes()).nth(e.line() - 2).map_or(text.len(), |i| i + 1) };
            (line_start + e.column()).min(text.len())
        }
        _ => text.len(),
    };
    crate::work::add(crate::work::Stage::Json, read);
}

/// Closes what a cut-off JSON text left open.
pub(crate) fn close_json(text: &str) -> Option<String> {
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
    let (out, end) = array_items_to(s, p, to);
    crate::work::add(crate::work::Stage::Json, end.saturating_sub(p));
    out
}

/// [`array_items`], and where the reading stopped.
fn array_items_to(s: &str, p: usize, to: usize) -> (Vec<usize>, usize) {
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
                    return (out, i + 1);
                }
                depth -= 1;
            }
            b',' if depth == 1 => want = true,
            _ => {}
        }
        i += 1;
    }
    (out, i)
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
                    b'\n' => return None,
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

    /// §native-tool-calls: a value nested `PARSER_DEPTH` levels is one `serde_json` fails on,
    /// and one level less it reads ([`Closes::reading`] tells the first without the parser).
    #[test]
    fn native_tool_calls_parser_depth_is_serde_json_s() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(serde_json::from_str::<Value>(&nested(PARSER_DEPTH - 1)).is_ok());
        assert!(serde_json::from_str::<Value>(&nested(PARSER_DEPTH)).is_err());
        let (ok, deep) = (nested(PARSER_DEPTH - 1), nested(PARSER_DEPTH));
        assert_eq!(Closes::new(&ok).reading(&ok, 0, ok.len()), Reading::Closes(ok.len()));
        assert_eq!(Closes::new(&deep).reading(&deep, 0, deep.len()), Reading::Fails);
        let open = "[".repeat(PARSER_DEPTH - 1);
        assert_eq!(Closes::new(&open).reading(&open, 0, open.len()), Reading::Unclosed);
        let open = "[".repeat(PARSER_DEPTH);
        assert_eq!(Closes::new(&open).reading(&open, 0, open.len()), Reading::Fails);
        let broken = "{\"a\": \"x\ny\"}";
        assert_eq!(Closes::new(broken).reading(broken, 0, broken.len()), Reading::Fails);
        assert!(serde_json::from_str::<Value>(broken).is_err());
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
    /// finds, for every start and bound, and the matched brackets answer as it does, asked in
    /// any order or in text order (a line break in a string ends every value open across it).
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
            // One bound, the starts in order (a block's calls): read from the brackets matched.
            let closes = Closes::new(s);
            for p in (0..s.len()).filter(|&p| s.is_char_boundary(p)) {
                assert_eq!(closes.get(s, p, s.len()), json_close_bytewise(s, p, s.len()), "{s:?} {p} (in order)");
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
