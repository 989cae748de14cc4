//! The `elements` call shape: XML-ish tags (§native-tool-calls).
//!
//! One reader serves every element family: a section element wrapping calls
//! (`<calls>`, `<ops>`), call elements named by an attribute
//! (`<invoke name="READ">`), after `=` (`<function=READ>`) or by the element itself (`<read …/>`),
//! and argument elements keyed the same two ways. The tag reader is tolerant the way the
//! family's recovery flags allow: a name attribute whose quote never closes, a heading written
//! into the name with its slots after it, a trailing scope whose own `>` closes the tag, and
//! closing tags or a bare fence left around the content.

use std::borrow::Cow;

use serde_json::Value;

use super::compile::{boundary_byte, Elements, Lead, Markers, Names};
use super::text::*;
use super::{Arg, Call};
use crate::rules::model::{NativeElements, NativeRecovery};

/// One opening tag as read, borrowed from the text it was read in.
#[derive(Debug, Default)]
pub(crate) struct Tag<'a> {
    /// The element's name as written.
    pub element: &'a str,
    /// The value written after `=` (`<function=NAME>`).
    pub equals: Option<&'a str>,
    pub attrs: Attrs<'a>,
    /// Heading slots written inside the tag after the name.
    pub slots: &'a str,
    pub self_closing: bool,
    /// Byte after the tag (after `>`, or the end of its line when it never closes).
    pub end: usize,
    /// An attribute's quote never closes and the family has no recovery for it.
    pub broken: bool,
}

/// A tag's attributes in written order: the first few kept in place (a tag nearly always has
/// one or two), any more in a vector.
#[derive(Debug, Default)]
pub(crate) struct Attrs<'a> {
    first: [(&'a str, &'a str); 3],
    len: usize,
    more: Vec<(&'a str, &'a str)>,
}

impl<'a> Attrs<'a> {
    fn push(&mut self, kv: (&'a str, &'a str)) {
        match self.first.get_mut(self.len) {
            Some(slot) => {
                *slot = kv;
                self.len += 1;
            }
            None => self.more.push(kv),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &(&'a str, &'a str)> + '_ {
        self.first[..self.len].iter().chain(self.more.iter())
    }
}

fn boundary(s: &str, q: usize) -> bool {
    q >= s.len() || boundary_byte(s.as_bytes()[q])
}

/// The element written at `lt` (`<` or `</`, a prefix, a name from `names`): (name start, name end).
pub(crate) fn tag_name_at(s: &str, lt: usize, closing: bool, prefixes: &[String], names: &[String]) -> Option<(usize, usize)> {
    let open = if closing { "</" } else { "<" };
    if !s[lt..].starts_with(open) {
        return None;
    }
    let p = lt + open.len();
    // Most prefixes and names differ from the text at their first byte: that test stays inline.
    let lead_is = |w: &str, at: usize| match w.as_bytes().first() {
        Some(c) => s.as_bytes().get(at).map(|t| t.eq_ignore_ascii_case(c)).unwrap_or(false),
        None => true,
    };
    for pre in prefixes {
        if !lead_is(pre, p) || !starts_with_ci(s, p, pre) {
            continue;
        }
        let q = p + pre.len();
        for n in names {
            if lead_is(n, q) && starts_with_ci(s, q, n) && boundary(s, q + n.len()) {
                return Some((q, q + n.len()));
            }
        }
    }
    None
}

/// The next verified opening tag found by `m` in `s[from..to]`: (start, name start, name end).
pub(crate) fn find_open(
    s: &str,
    m: &Markers,
    from: usize,
    to: usize,
    prefixes: &[String],
    names: &[String],
) -> Option<(usize, usize, usize)> {
    let mut p = from;
    while let Some((a, _, _)) = m.find(s, p, to) {
        if let Some((ns, ne)) = tag_name_at(s, a, false, prefixes, names) {
            return Some((a, ns, ne));
        }
        p = a + 1;
    }
    None
}

/// The next verified closing tag of one of `names` in `s[from..to]`: (start, end).
pub(crate) fn find_close(s: &str, m: &Markers, from: usize, to: usize, prefixes: &[String], names: &[String]) -> Option<(usize, usize)> {
    let mut p = from;
    while let Some((a, _, _)) = m.find(s, p, to) {
        if let Some((_, ne)) = tag_name_at(s, a, true, prefixes, names) {
            let q = skip_blank(s, ne, to);
            if q < to && s.as_bytes()[q] == b'>' {
                return Some((a, q + 1));
            }
        }
        p = a + 1;
    }
    None
}

/// Every `<` of a block's text from `start`, read once, in order, as far as a search has gone:
/// where it stands and which of the family's prefixes follow it after `<` and after `</` (bit
/// sets). A tag search walks these marks instead of running one automaton per element kind
/// over the same text (a DSML call's content was crossed three times: next call, own closing
/// tag, parameters). Each mark answers what `tag_name_at` answers there; under the unit tests
/// and with debug assertions every search is run through the automaton too and must agree.
pub(crate) struct Lts<'a> {
    s: &'a str,
    prefixes: &'a [String],
    lead: &'a Lead,
    start: usize,
    limit: usize,
    marks: Vec<(usize, u32, u32)>,
    /// Every `<` in `[start, read)` is marked.
    read: usize,
    /// No name searched for holds a byte that ends a name ([`boundary_byte`]): a name then
    /// matches exactly when it is the whole word written after the prefix, and [`Self::name`]
    /// compares only the names of that word's length.
    plain: bool,
}

impl<'a> Lts<'a> {
    /// `None` past 32 prefixes (the bit sets' width): the searches then run the automata.
    /// `lead` is `Lead::new(prefixes)`.
    /// `plain`: no name the searches ask for holds a [`boundary_byte`].
    pub(crate) fn new(s: &'a str, start: usize, limit: usize, prefixes: &'a [String], lead: &'a Lead, plain: bool) -> Option<Lts<'a>> {
        (prefixes.len() <= 32 && limit <= s.len()).then(|| Lts {
            s,
            prefixes,
            lead,
            start,
            limit,
            marks: Vec::with_capacity(16),
            read: start,
            plain,
        })
    }

    /// The prefixes written at `p`: only those whose first byte is there are compared.
    fn prefixes_at(&self, p: usize) -> u32 {
        let mut bits = self.lead.empty;
        let Some(&c) = self.s.as_bytes().get(p) else { return bits };
        let mut cand = self.lead.by_byte[c as usize];
        while cand != 0 {
            // Longest first: a prefix written there stands with every shorter one it begins with.
            let i = cand.trailing_zeros();
            cand &= cand - 1;
            if starts_with_ci(self.s, p, &self.prefixes[i as usize]) {
                let implied = self.lead.implied.get(i as usize).copied().unwrap_or(0);
                let excluded = self.lead.excluded.get(i as usize).copied().unwrap_or(0);
                bits |= 1 << i | implied;
                cand &= !(implied | excluded);
            }
        }
        bits
    }

    /// [`Self::prefixes_at`] testing every prefix (kept to check it).
    #[cfg(test)]
    fn prefixes_at_plain(&self, p: usize) -> u32 {
        let mut bits = 0;
        for (i, pre) in self.prefixes.iter().enumerate() {
            if starts_with_ci(self.s, p, pre) {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// The prefixes written after the `<` at `at`, where the marks begin (`at` is `start` and
    /// nothing is marked yet): the mark is made now and kept for the searches. `None` when
    /// there is no such `<`.
    fn open_bits_at_start(&mut self, at: usize) -> Option<u32> {
        if at != self.start || self.read != at || at >= self.limit || self.s.as_bytes()[at] != b'<' {
            return None;
        }
        self.grow();
        Some(self.marks.first().filter(|m| m.0 == at).map(|m| m.1).unwrap_or(0))
    }

    /// Marks the next `<`: whether one was left before `limit`.
    fn grow(&mut self) -> bool {
        let b = self.s.as_bytes();
        if self.read >= self.limit {
            return false;
        }
        let Some(i) = memchr::memchr(b'<', &b[self.read..self.limit]) else {
            self.read = self.limit;
            return false;
        };
        let a = self.read + i;
        crate::work::add(crate::work::Stage::Tag, i + 1);
        let open = self.prefixes_at(a + 1);
        let close = if b.get(a + 1) == Some(&b'/') { self.prefixes_at(a + 2) } else { 0 };
        if open | close != 0 {
            self.marks.push((a, open, close));
        }
        self.read = a + 1;
        true
    }

    /// `tag_name_at(s, a, closing, prefixes, names)` given the prefixes written there.
    fn name(&self, a: usize, closing: bool, bits: u32, set: &Names) -> Option<(usize, usize)> {
        let p = a + if closing { 2 } else { 1 };
        let b = self.s.as_bytes();
        let names: &[String] = &set.list;
        // A word longer than every name is none of them: its end is not looked for past that;
        // nor is a word whose first byte starts no name (both ASCII cases; an empty name may
        // stand before any byte).
        let (mut longest, firsts) = (0, &set.firsts);
        if self.plain {
            longest = set.longest?;
        }
        let mut rest = bits;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let Some(pre) = self.prefixes.get(i) else { break };
            let q = p + pre.len();
            if self.plain {
                if let Some(&c) = b.get(q) {
                    let c = c.to_ascii_lowercase();
                    if firsts[c as usize / 64] & (1 << (c % 64)) == 0 {
                        continue;
                    }
                }
                let cap = b.len().min(q + longest + 1);
                let mut w = q;
                while w < cap && !boundary_byte(b[w]) {
                    w += 1;
                }
                if w == cap && cap < b.len() {
                    continue;
                }
                for n in names {
                    if n.len() == w - q && starts_with_ci(self.s, q, n) {
                        return Some((q, w));
                    }
                }
                continue;
            }
            // Most names differ from the text at their first byte: that test stays inline.
            let first = self.s.as_bytes().get(q).map(u8::to_ascii_lowercase);
            for n in names {
                let lead = n.as_bytes().first().map(u8::to_ascii_lowercase);
                if lead.map(|c| Some(c) == first).unwrap_or(true) && starts_with_ci(self.s, q, n) && boundary(self.s, q + n.len()) {
                    return Some((q, q + n.len()));
                }
            }
        }
        None
    }

    /// The marks at or after `from` and before `to`, read as far as asked: each is handed to
    /// `f` until it answers.
    fn walk<R>(&mut self, from: usize, to: usize, mut f: impl FnMut(&Self, (usize, u32, u32)) -> Option<R>) -> Option<R> {
        let mut k = self.marks.partition_point(|m| m.0 < from);
        loop {
            while k >= self.marks.len() {
                if !self.grow() {
                    return None;
                }
            }
            let m = self.marks[k];
            if m.0 >= to {
                return None;
            }
            // Marks read just now may still stand before `from`.
            if m.0 >= from {
                if let Some(r) = f(self, m) {
                    return Some(r);
                }
            }
            k += 1;
        }
    }

    /// `find_open(s, m, from, to, prefixes, names)`: a mark naming one of `names` whose
    /// spelling ends by `to` (else the automaton says whether a shorter one does).
    pub(crate) fn open(&mut self, m: &Markers, from: usize, to: usize, names: &Names) -> Option<(usize, usize, usize)> {
        let got = if from < self.start || to > self.limit {
            find_open(self.s, m, from, to, self.prefixes, &names.list)
        } else {
            self.walk(from, to, |lts, (a, bits, _)| {
                let (ns, ne) = lts.name(a, false, bits, names)?;
                (ne <= to || m.at(lts.s, a, to).is_some()).then_some((a, ns, ne))
            })
        };
        if cfg!(any(test, debug_assertions)) {
            let plain = crate::work::unmetered(|| find_open(self.s, m, from, to, self.prefixes, &names.list));
            assert_eq!(got, plain, "a marked opening tag differs from the search");
        }
        got
    }

    /// `find_close(s, m, from, to, prefixes, names)`: a closing tag's `>` ends before `to`, so
    /// its spelling does too.
    pub(crate) fn close(&mut self, m: &Markers, from: usize, to: usize, names: &Names) -> Option<(usize, usize)> {
        let got = if from < self.start || to > self.limit {
            find_close(self.s, m, from, to, self.prefixes, &names.list)
        } else {
            self.walk(from, to, |lts, (a, _, bits)| {
                let (_, ne) = lts.name(a, true, bits, names)?;
                let q = skip_blank(lts.s, ne, to);
                (q < to && lts.s.as_bytes()[q] == b'>').then_some((a, q + 1))
            })
        };
        if cfg!(any(test, debug_assertions)) {
            let plain = crate::work::unmetered(|| find_close(self.s, m, from, to, self.prefixes, &names.list));
            assert_eq!(got, plain, "a marked closing tag differs from the search");
        }
        got
    }
}

/// A search through the marks when there are any, else through the automaton.
fn open_in(
    lts: &mut Option<Lts>,
    s: &str,
    m: &Markers,
    from: usize,
    to: usize,
    prefixes: &[String],
    names: &Names,
) -> Option<(usize, usize, usize)> {
    match lts {
        Some(l) => l.open(m, from, to, names),
        None => find_open(s, m, from, to, prefixes, &names.list),
    }
}

fn close_in(
    lts: &mut Option<Lts>,
    s: &str,
    m: &Markers,
    from: usize,
    to: usize,
    prefixes: &[String],
    names: &Names,
) -> Option<(usize, usize)> {
    match lts {
        Some(l) => l.close(m, from, to, names),
        None => find_close(s, m, from, to, prefixes, &names.list),
    }
}

/// `find_open(s, m, from, to, …)` given `known`, the verified opening an earlier search over
/// `[start, to)` with `start <= from` found at or after `from`: every position with a match is
/// tried in order, so the later search finds the same tag (and `None` stays `None`). Under the
/// unit tests and with debug assertions (the fuzz targets) the search runs anyway and must agree.
fn find_open_after(
    known: Option<(usize, usize, usize)>,
    s: &str,
    m: &Markers,
    from: usize,
    to: usize,
    prefixes: &[String],
    names: &[String],
) -> Option<(usize, usize, usize)> {
    if cfg!(any(test, debug_assertions)) {
        let plain = crate::work::unmetered(|| find_open(s, m, from, to, prefixes, names));
        assert_eq!(known, plain, "a kept opening tag differs from the search");
    }
    known
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.')
}

/// Where the slots written inside a tag end: (slots end, tag end). A `>` ends the tag; a
/// closing tag right after a slot means the slot's own bracket closed it; so does the line's end.
fn scan_slots(s: &str, from: usize, le: usize) -> (usize, usize, bool) {
    let got = scan_slots_uncounted(s, from, le);
    crate::work::add(crate::work::Stage::Tag, got.1.saturating_sub(from) + 1);
    got
}

fn scan_slots_uncounted(s: &str, from: usize, le: usize) -> (usize, usize, bool) {
    let b = s.as_bytes();
    let mut j = from;
    while j < le {
        match b[j] {
            b'>' => return (j, j + 1, false),
            b'/' if j + 1 < le && b[j + 1] == b'>' => return (j, j + 2, true),
            b'<' => {
                if s[j..le].starts_with("<!--") {
                    j = match s[j + 4..le].find("-->") {
                        Some(k) => j + 4 + k + 3,
                        None => le,
                    };
                } else if j + 1 < le && b[j + 1] == b'/' {
                    return (j, j, false);
                } else {
                    j = match crate::scan::find_byte(b'>', &b[j + 1..le]) {
                        Some(k) => j + 1 + k + 1,
                        None => le,
                    };
                }
            }
            b'(' => {
                let mut depth = 0usize;
                while j < le {
                    match b[j] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            // Metadata written in the tag, read as a heading reads it (§scheme-metadata-modifier).
            b'[' => j = crate::heading::skip_meta(&b[..le], j).unwrap_or(le),
            b'"' => {
                j = match crate::scan::find_byte(b'"', &b[j + 1..le]) {
                    Some(k) => j + 1 + k + 1,
                    None => le,
                };
            }
            b'/' if j == from || matches!(b[j - 1], b' ' | b'\t') => {
                // A regex matcher `/…/flags`.
                let mut k = j + 1;
                while k < le && b[k] != b'/' {
                    if b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
                j = (k + 1).min(le);
            }
            _ => j += 1,
        }
    }
    (le, le, false)
}

/// Removes closing tags left at the end of an unterminated value.
fn strip_trailing_closers(mut v: &str) -> &str {
    loop {
        let t = v.trim_end();
        if t.ends_with('>') {
            if let Some(open) = rfind_closer(t) {
                if closing_tag_at(t, open, t.len()) == Some(t.len()) {
                    v = &t[..open];
                    continue;
                }
            }
        }
        return t;
    }
}

/// Reads the tag whose element name ends at `name_end`.
///
/// The tag ends with its line at the latest, but the line's end is found only when a reading
/// runs to it: a line of many tags (a turn on one line) is crossed once, not once a tag.
pub(crate) fn read_tag<'a>(
    s: &'a str,
    name_start: usize,
    name_end: usize,
    equals: bool,
    rec: &NativeRecovery,
    ends: &Closes,
    limit: usize,
) -> Tag<'a> {
    let tag = read_tag_uncounted(s, name_start, name_end, equals, rec, ends, limit);
    crate::work::add(crate::work::Stage::Tag, tag.end.saturating_sub(name_start) + 1);
    tag
}

fn read_tag_uncounted<'a>(
    s: &'a str,
    name_start: usize,
    name_end: usize,
    equals: bool,
    rec: &NativeRecovery,
    ends: &Closes,
    limit: usize,
) -> Tag<'a> {
    let b = &s.as_bytes()[..limit.max(name_end).min(s.len())];
    // Whether `i` is the end of the tag's line (as `line_end` places it).
    let at_end = |i: usize| i >= b.len() || b[i] == b'\n' || (b[i] == b'\r' && (i + 1 == b.len() || b[i + 1] == b'\n'));
    let mut tag = Tag { element: &s[name_start..name_end], end: name_end, ..Tag::default() };
    let mut i = name_end;
    if equals && !at_end(i) && b[i] == b'=' {
        i += 1;
        let st = i;
        let value_ends = |i: usize| {
            at_end(i)
                || matches!(b[i], b' ' | b'\t' | b'>' | b'<' | b'(' | b'[' | b'"')
                || (b[i] == b'/' && !at_end(i + 1) && b[i + 1] == b'>')
        };
        while !value_ends(i) {
            i += 1;
        }
        tag.equals = Some(&s[st..i]);
    }
    loop {
        while !at_end(i) && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if at_end(i) {
            tag.end = i;
            return tag;
        }
        if b[i] == b'>' {
            tag.end = i + 1;
            return tag;
        }
        if b[i] == b'/' && !at_end(i + 1) && b[i + 1] == b'>' {
            tag.self_closing = true;
            tag.end = i + 2;
            return tag;
        }
        // An attribute `key="value"`.
        let mut k = i;
        while k < b.len() && ident_byte(b[k]) {
            k += 1;
        }
        if k > i && k + 1 < b.len() && b[k] == b'=' && (b[k + 1] == b'"' || b[k + 1] == b'\'') {
            let quote = b[k + 1];
            let vs = k + 2;
            let mut q = vs;
            let mut close = None;
            // The quotes are found by memchr: a value (a whole heading) runs dozens of bytes.
            // A line break first ends the value unclosed.
            while let Some(k) = memchr::memchr2(quote, b'\n', &b[q..]) {
                if b[q + k] == b'\n' {
                    break;
                }
                let after = q + k + 1;
                if at_end(after) || matches!(b[after], b' ' | b'\t' | b'>' | b'/') {
                    close = Some(q + k);
                    break;
                }
                q = after;
            }
            match close {
                Some(q) => {
                    tag.attrs.push((&s[i..k], &s[vs..q]));
                    i = q + 1;
                }
                None => {
                    let le = ends.line_end(s, vs).min(b.len());
                    // `name="sh` with no closing quote: the rest of the line, less the
                    // closing tags left on it.
                    if !rec.unterminated_name {
                        tag.broken = true;
                    }
                    let v = strip_trailing_closers(&s[vs..le]);
                    tag.attrs.push((&s[i..k], v));
                    tag.end = le;
                    return tag;
                }
            }
            continue;
        }
        // Heading slots written after the name.
        let (se, te, closing) = scan_slots(s, i, ends.line_end(s, i).min(b.len()));
        tag.slots = s[i..se].trim();
        tag.self_closing = closing;
        tag.end = te;
        return tag;
    }
}

fn eq_any(word: &str, list: &[String]) -> bool {
    list.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The block an `elements` form opens at `at` (a section or one call), read up to `limit`:
/// its calls, its end, and its opening tag as written. `None` when no element of the form
/// opens there.
pub(crate) fn read<'a>(
    s: &'a str,
    at: usize,
    limit: usize,
    el: &Elements,
    rec: &NativeRecovery,
    ends: &Closes,
) -> Option<(Vec<Call<'a>>, usize, &'a str, bool)> {
    let prefixes = &el.inner_prefixes;
    let mut lts = Lts::new(s, at, limit, prefixes, &el.inner_lead, el.plain_names);
    // The element at `at`, read through its mark (the first the searches make) when there is one.
    let bits = lts.as_mut().and_then(|l| l.open_bits_at_start(at));
    let name_at = |lts: &Option<Lts>, names: &Names| match (lts, bits) {
        (Some(l), Some(bits)) => l.name(at, false, bits, names),
        _ => tag_name_at(s, at, false, prefixes, &names.list),
    };
    if cfg!(any(test, debug_assertions)) {
        for names in [&el.sections, &el.calls] {
            assert_eq!(name_at(&lts, names), tag_name_at(s, at, false, prefixes, &names.list), "a marked opening element differs");
        }
    }
    if let Some((ns, ne)) = name_at(&lts, &el.sections) {
        let tag = read_tag(s, ns, ne, false, rec, ends, limit);
        let marker = s[at..tag.end].trim_end();
        let cs = tag.end;
        let bound = open_in(&mut lts, s, &el.open_section, cs, limit, prefixes, &el.sections).map(|t| t.0).unwrap_or(limit);
        let close = close_in(&mut lts, s, &el.close_section, cs, bound, prefixes, &el.sections);
        let (ce, closed) = match close {
            Some((a, e)) => (a, Some(e)),
            None => (bound, None),
        };
        let mut readable = closed.is_some() || rec.missing_end;
        let mut calls = Vec::new();
        let mut last = cs;
        let mut open = open_in(&mut lts, s, &el.open_call, cs, ce, prefixes, &el.calls);
        while let Some((c0, ns, ne)) = open {
            match call(s, c0, (ns, ne), None, ce, el, rec, &mut lts, ends) {
                Some((c, end, next)) => {
                    calls.push(c);
                    last = end;
                    let p = end.max(c0 + 1);
                    open = match next {
                        Some(known) => find_open_after(known, s, &el.open_call, p, ce, prefixes, &el.calls.list),
                        None => open_in(&mut lts, s, &el.open_call, p, ce, prefixes, &el.calls),
                    };
                }
                None => {
                    readable = false;
                    break;
                }
            }
        }
        if calls.is_empty() {
            readable = false;
        }
        let end = closed.unwrap_or(if calls.is_empty() { cs } else { last });
        return Some((calls, end, marker, readable));
    }
    let (ns, ne) = name_at(&lts, &el.calls)?;
    let tag = read_tag(s, ns, ne, el.def.name_equals, rec, ends, limit);
    let marker = s[at..tag.end].trim_end();
    let bound = open_in(&mut lts, s, &el.open_any, at + 1, limit, prefixes, &el.any).map(|t| t.0).unwrap_or(limit);
    let tag_end = tag.end;
    match call(s, at, (ns, ne), Some(tag), bound, el, rec, &mut lts, ends) {
        Some((c, end, _)) => Some((vec![c], end, marker, true)),
        None => Some((Vec::new(), tag_end, marker, false)),
    }
}

/// `part`, a slice of `raw`, as text of the emission `s`: borrowed when `raw` is a slice of
/// `s` (`in_s`), else copied.
fn kept<'a>(s: &'a str, in_s: bool, part: &str) -> Cow<'a, str> {
    if in_s {
        let off = part.as_ptr() as usize - s.as_ptr() as usize;
        Cow::Borrowed(&s[off..off + part.len()])
    } else {
        Cow::Owned(part.to_string())
    }
}

/// One call element at `at`, its content read up to `bound`: the call, its end, and — when its
/// content's search settled it — the next call element opening in `[end, bound)`.
/// `name` is the call element's name as `tag_name_at` reads it at `at`, and `tag` its tag when
/// the caller already read it (the same `read_tag`).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn call<'a>(
    s: &'a str,
    at: usize,
    name: (usize, usize),
    tag: Option<Tag<'a>>,
    bound: usize,
    el: &Elements,
    rec: &NativeRecovery,
    lts: &mut Option<Lts>,
    ends: &Closes,
) -> Option<(Call<'a>, usize, Option<Option<(usize, usize, usize)>>)> {
    let def = &el.def;
    let prefixes = &el.inner_prefixes;
    if cfg!(any(test, debug_assertions)) {
        assert_eq!(tag_name_at(s, at, false, prefixes, &el.calls.list), Some(name), "a call's name read twice differs");
    }
    let tag = tag.unwrap_or_else(|| read_tag(s, name.0, name.1, def.name_equals, rec, ends, bound));
    if tag.broken {
        return None;
    }
    let element_is_op = def.operation_elements && !eq_any(tag.element, &def.calls);
    let generic = |n: &str| eq_any(n.split_whitespace().next().unwrap_or(""), &def.generic_names);
    let mut name: Option<Cow<'a, str>> =
        if element_is_op { Some(Cow::Borrowed(tag.element)) } else { tag.equals.filter(|e| !e.is_empty()).map(Cow::Borrowed) };
    if name.as_deref().map(generic).unwrap_or(true) {
        let attr = |want_specific: bool| {
            def.name_attributes.iter().find_map(|key| {
                tag.attrs.iter().find(|(k, v)| k.eq_ignore_ascii_case(key) && (!want_specific || !generic(v))).map(|(_, v)| *v)
            })
        };
        if let Some(v) = attr(true) {
            name = Some(Cow::Borrowed(v));
        } else if name.is_none() {
            name = attr(false).map(Cow::Borrowed);
        }
    }
    // The content: up to the element's own closing tag, or (a missing end) the next call.
    let mut next_call = None;
    let (cs, ce, end) = if tag.self_closing {
        (tag.end, tag.end, tag.end)
    } else {
        // A tag read past `bound` (an unclosed attribute swallowing the next open) still ends
        // where its own text ends: the content never starts after it finishes.
        let found = open_in(lts, s, &el.open_call, tag.end, bound, prefixes, &el.calls);
        let next = found.map(|t| t.0).unwrap_or(bound).max(tag.end);
        // The element's own name: the listed call name it was read as (the same bytes in any
        // ASCII case, so every closing tag matches it as it matches the name as written).
        let spelled;
        let own = match el.calls.list.iter().find(|n| n.eq_ignore_ascii_case(tag.element)) {
            Some(n) => Names::borrowed(std::slice::from_ref(n)),
            None => {
                spelled = [tag.element.to_string()];
                Names::borrowed(&spelled)
            }
        };
        let (cs, ce, end) = match close_in(lts, s, &el.close_call, tag.end, next, prefixes, &own) {
            Some((a, e)) => (tag.end, a, e),
            None if rec.missing_end || rec.truncated_body => (tag.end, next, next),
            None => return None,
        };
        // The caller's next search starts at `end.max(at + 1)`, within `[tag.end, next]`.
        if found.map(|t| t.0 >= end).unwrap_or(true) {
            next_call = Some(found);
        }
        (cs, ce, end)
    };
    let mut c = Call {
        anchor: at,
        name: Cow::Borrowed(""),
        slots: tag.slots,
        heading_ok: def.heading_in_name,
        args: Vec::new(),
        text: None,
        aside: None,
    };
    for &(k, v) in tag.attrs.iter() {
        if eq_any(k, &def.name_attributes) || eq_any(k, &def.ignored_attributes) {
            continue;
        }
        if eq_any(k, &def.aside_attributes) {
            c.aside = Some(Cow::Borrowed(v));
        } else {
            c.args.push((Cow::Borrowed(k), Arg::Text(v)));
        }
    }
    // Argument elements.
    let mut loose = String::new();
    let mut keyed = false;
    let mut open = open_in(lts, s, &el.open_param, cs, ce, prefixes, &el.parameters);
    while let Some((ps, pns, pne)) = open {
        let ptag = read_tag(s, pns, pne, def.parameter_equals, rec, ends, ce);
        let found = open_in(lts, s, &el.open_param, ptag.end.max(ps + 1), ce, prefixes, &el.parameters);
        let next = found.map(|t| t.0).unwrap_or(ce);
        let (ve, after) = match close_in(lts, s, &el.close_param, ptag.end, next, prefixes, &el.parameters) {
            Some((a, e)) => (a, e),
            None => (next, next),
        };
        let value = if ptag.end <= ve { trim_value(&s[ptag.end..ve]) } else { "" };
        let key = ptag.equals.filter(|k| !k.is_empty()).or_else(|| {
            def.parameter_attributes.iter().find_map(|a| ptag.attrs.iter().find(|(k, _)| k.eq_ignore_ascii_case(a)).map(|(_, v)| *v))
        });
        match key {
            Some(k) => {
                keyed = true;
                c.args.push((Cow::Borrowed(k), Arg::Text(value)));
            }
            None => loose.push_str(value),
        }
        // The next search would start at `after.max(ps + 1)`, within `[ptag.end, next]`.
        let p = after.max(ps + 1);
        open = if p >= ptag.end.max(ps + 1) && found.map(|t| t.0 >= p).unwrap_or(true) {
            find_open_after(found, s, &el.open_param, p, ce, prefixes, &el.parameters.list)
        } else {
            open_in(lts, s, &el.open_param, p, ce, prefixes, &el.parameters)
        };
    }
    if !keyed {
        let in_s = loose.is_empty();
        let (src, from, to) = if in_s { (s, cs, ce) } else { (loose.as_str(), 0, loose.len()) };
        // An opener with no key at `a`: its tag read in the input itself where the content is
        // the input's, so the glued openers of one line find that line's end once (`Closes`).
        let keyless = |t: &str, a: usize, e: usize| -> Option<usize> {
            let (pns, pne) = tag_name_at(&t[a..e], 0, false, prefixes, &el.parameters.list)?;
            let pt = read_tag(t, a + pns, a + pne, def.parameter_equals, rec, ends, e);
            let has_key = pt.equals.map(|e| !e.is_empty()).unwrap_or(false)
                || def.parameter_attributes.iter().any(|a| pt.attrs.iter().any(|(k, _)| k.eq_ignore_ascii_case(a)));
            (!has_key).then_some(pt.end)
        };
        let (mut a, mut e) = strip_debris(src, from, to, rec.stray_closers, rec.stray_fence, &keyless);
        // A copied facts line under the heading (a JSON object: it opens with its brace).
        if !rec.facts_keys.is_empty() {
            let first_end = src[a..e].find('\n').map(|i| a + i).unwrap_or(e);
            let line = src[a..first_end].trim();
            if line.starts_with('{') && facts_line(line, &rec.facts_keys) {
                (a, e) = strip_debris(src, first_end, e, rec.stray_closers, rec.stray_fence, &keyless);
            }
        }
        let text = &src[a..e];
        let text = trim_lines(text);
        let json_read = def.json_content && text.starts_with('{') && json_content(text, def, &mut name, &mut c.args);
        if !json_read && !text.is_empty() {
            let is_generic = !def.generic_names.is_empty() && name.as_deref().map(generic).unwrap_or(false);
            if is_generic {
                // A plurnk heading written as the content: its first line is the heading.
                let (head, rest) = match text.find('\n') {
                    Some(i) => (&text[..i], trim_lines(&text[i + 1..])),
                    None => (text, ""),
                };
                name = Some(kept(s, in_s, head.trim()));
                c.heading_ok = true;
                if !rest.is_empty() {
                    c.text = Some(kept(s, in_s, rest));
                }
            } else {
                c.text = Some(kept(s, in_s, text));
            }
        }
    }
    c.name = name.unwrap_or_default();
    Some((c, end, next_call))
}

/// A call's content read as a JSON object of arguments (a generic call's name among them):
/// whether it is one. Out of line: most content is text.
#[inline(never)]
fn json_content<'a>(text: &str, def: &NativeElements, name: &mut Option<Cow<'a, str>>, args: &mut Vec<(Cow<'a, str>, Arg<'a>)>) -> bool {
    let generic = |n: &str| eq_any(n.split_whitespace().next().unwrap_or(""), &def.generic_names);
    let Some((Value::Object(m), e)) = json_at(text, 0, text.len(), false) else { return false };
    if !text[e..].trim().is_empty() {
        return false;
    }
    let is_generic = name.as_deref().map(generic).unwrap_or(true) && !def.generic_names.is_empty();
    for (k, v) in m {
        if is_generic && eq_any(&k, &def.content_name_keys) && v.is_string() && name.as_deref().map(generic).unwrap_or(true) {
            if let Value::String(t) = v {
                *name = Some(Cow::Owned(t));
            }
        } else {
            args.push((Cow::Owned(k), Arg::Json(v)));
        }
    }
    true
}

/// Whether `line` is a JSON object of facts keys alone (a copied facts line).
#[inline(never)]
fn facts_line(line: &str, keys: &[String]) -> bool {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(m)) => !m.is_empty() && m.keys().all(|k| eq_any(k, keys)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tag_name_at` as it read before the inline first-byte tests (kept to check them).
    fn tag_name_at_plain(s: &str, lt: usize, closing: bool, prefixes: &[String], names: &[String]) -> Option<(usize, usize)> {
        let open = if closing { "</" } else { "<" };
        if !s[lt..].starts_with(open) {
            return None;
        }
        let p = lt + open.len();
        for pre in prefixes {
            if !starts_with_ci(s, p, pre) {
                continue;
            }
            let q = p + pre.len();
            for n in names {
                if starts_with_ci(s, q, n) && boundary(s, q + n.len()) {
                    return Some((q, q + n.len()));
                }
            }
        }
        None
    }

    /// §native-tool-calls: an element's name read with the first-byte short-cuts (`tag_name_at`,
    /// and the marks' `Lts::name`) is the name the plain comparison reads, at every `<`, for
    /// prefixes and names in any case, the empty prefix included.
    #[test]
    fn native_tool_calls_first_byte_tests_agree_with_the_plain_comparison() {
        const PIECES: &[&str] = &[
            "<",
            "</",
            "<｜DSML｜",
            "</｜dsml｜",
            "<|DSML|",
            "｜DSML｜ ",
            " ",
            ">",
            "invoke",
            "<dX",
            "</DX",
            "INVOKE",
            "<inv",
            "calls",
            "Calls_x",
            "<parameter",
            "<p",
            "é",
            "\n",
            "=",
        ];
        let prefixes: Vec<String> = ["｜DSML｜ ", "｜DSML｜", "|dsml|", "dx", ""].iter().map(|s| s.to_string()).collect();
        let lead = Lead::new(&prefixes);
        let lists: Vec<Vec<String>> =
            vec![vec!["calls".into(), "invoke".into()], vec!["parameter".into()], vec!["INVOKE".into(), "p".into()]];
        let mut hits = 0;
        let mut check = |s: &str| {
            let mut lts = Lts::new(s, 0, s.len(), &prefixes, &lead, true).unwrap();
            while lts.grow() {}
            let mut general = Lts::new(s, 0, s.len(), &prefixes, &lead, false).unwrap();
            while general.grow() {}
            for p in 0..=s.len() {
                assert_eq!(lts.prefixes_at(p), lts.prefixes_at_plain(p), "prefixes: {s:?} {p}");
            }
            for a in memchr::memchr_iter(b'<', s.as_bytes()) {
                for names in &lists {
                    for closing in [false, true] {
                        let want = tag_name_at_plain(s, a, closing, &prefixes, names);
                        hits += want.is_some() as usize;
                        assert_eq!(tag_name_at(s, a, closing, &prefixes, names), want, "{s:?} {a} {closing}");
                        let bits = lts.marks.iter().find(|m| m.0 == a).map(|m| if closing { m.2 } else { m.1 }).unwrap_or(0);
                        let set = Names::borrowed(names);
                        assert_eq!(lts.name(a, closing, bits, &set), want, "marks: {s:?} {a} {closing}");
                        assert_eq!(general.name(a, closing, bits, &set), want, "marks, any names: {s:?} {a} {closing}");
                    }
                }
            }
        };
        check("<｜DSML｜ invoke name=\"x\"></｜dsml｜INVOKE ><calls><p>");
        bolero::check!().with_type::<Vec<u8>>().with_iterations(3_000).with_max_len(10).for_each(|bytes: &Vec<u8>| {
            let s: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            check(&s);
        });
        assert!(hits > 50, "the inputs name elements ({hits})");
    }
}
