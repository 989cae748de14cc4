//! Heading reading: a heading line's statements (§inline-chain, §one-line-turn,
//! §transparent-inline-closer) and each statement's slots (§slot-order, §heading-slot-order).
//!
//! The slot lexer is modal like the grammar it follows: `(` opens a target slot, `[` a metadata
//! block, `<!--` an aside, `<` a scope; any other text after whitespace starts the heading's
//! text (the matcher or an inline body), from which trailing slots are peeled off the right
//! (§trailing-slots) by the builder.

use crate::scan::{Classifier, Named};
use crate::small::Small;

/// One statement's stretch of a heading line.
#[derive(Debug, Clone)]
pub struct Segment {
    /// Byte offset of the opening fence in the line.
    pub fence_at: usize,
    pub width: u32,
    pub named: Named,
    /// Byte range of the name.
    pub name: (usize, usize),
    /// End of the statement's stretch (next opener or line end).
    pub end: usize,
    /// Closing fences inside the stretch, read as if not written (§transparent-inline-closer).
    pub closers: Small<(usize, usize), 2>,
    /// The statement closes on its line (a closer, or the next opener, §one-line-turn).
    pub closed: bool,
}

fn skip_target(b: &[u8], mut i: usize) -> Option<usize> {
    // `(` … `)` with `\\`, `\(`, `\)` escapes and balanced inner parentheses (§path-parentheses).
    // Only those three bytes matter: the path between them is skipped 16 bytes a step.
    let mut depth = 0usize;
    i += 1;
    loop {
        let j = crate::scan::find_of(b, i, [b'\\', b'(', b')']);
        if j >= b.len() {
            return None;
        }
        i = j + 1;
        match b[j] {
            b'\\' => {
                if i < b.len() && matches!(b[i], b'\\' | b'(' | b')') {
                    i += 1;
                }
            }
            b'(' => depth += 1,
            _ => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
        }
    }
}

/// `[` … `]` with balanced brackets; double-quoted strings protect brackets
/// (§scheme-metadata-modifier).
pub fn skip_meta(b: &[u8], i: usize) -> Option<usize> {
    let found = skip_meta_uncounted(b, i);
    crate::work::add(crate::work::Stage::Heading, found.unwrap_or(b.len()).saturating_sub(i));
    found
}

fn skip_meta_uncounted(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
        } else if c == b'"' {
            in_str = true;
        } else if c == b'[' {
            depth += 1;
        } else if c == b']' {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

/// The first run of at least `w` backticks from `from`.
fn closer_run(b: &[u8], from: usize, w: u32) -> Option<(usize, usize)> {
    let mut i = from;
    while let Some(off) = crate::scan::find_byte(b'`', &b[i..]) {
        let s = i + off;
        let mut e = s;
        while e < b.len() && b[e] == b'`' {
            e += 1;
        }
        if (e - s) as u32 >= w {
            return Some((s, e));
        }
        i = e;
    }
    None
}

/// Where the aside opened before `from` closes: the first `-->` starting at or after `from`.
/// Found by its `>` (a one-byte `memchr`): a searcher built per call for a three-byte pattern
/// costs more than the short lines it runs over.
pub(crate) fn aside_close(b: &[u8], from: usize) -> Option<usize> {
    let from = from.min(b.len());
    let found = memchr::memchr_iter(b'>', &b[from..]).map(|o| from + o).find(|&gt| gt >= from + 2 && &b[gt - 2..gt] == b"--");
    crate::work::add(crate::work::Stage::Heading, found.map_or(b.len(), |gt| gt + 1) - from);
    found.map(|gt| gt - 2)
}

/// The segments the scan read for each heading line (§inline-chain), kept for the builder so a
/// heading line is split once per parse, not once to pair and again to build. Bounded: past
/// [`SegmentCache::CAP`] segments the rest are not kept and the builder splits those lines
/// again, so a turn of a million headings holds no more than this. The bound lies past the
/// headings of a few hundred kilobytes (a line of glued compact headings, §one-line-turn, splits
/// into a statement every few bytes), so the work per byte of a turn that size does not step up
/// where the bound is passed; a workspace that held more is given back after its parse.
#[derive(Default)]
pub struct SegmentCache {
    /// `(line, fence_at, width, from, to)`, lines ascending: `segs[from..to]` split `line` from
    /// the opener at `fence_at` of `width`.
    heads: Vec<(u32, usize, u32, u32, u32)>,
    segs: Vec<Segment>,
    /// `segs[..kept]` are the kept splits; past it lies the last split, if it was not kept.
    kept: usize,
}

impl SegmentCache {
    pub const CAP: usize = 1 << 16;

    /// The segments the cache's buffer can hold (its memory, for the workspace's release).
    pub fn held(&self) -> usize {
        self.segs.capacity()
    }

    pub fn clear(&mut self) {
        self.heads.clear();
        self.segs.clear();
        self.kept = 0;
    }

    /// Splits heading `line` (its text `text`, lines in ascending order) from the opener at
    /// `fence_at` of `width`, straight into the cache, and keeps the split unless it would pass
    /// the bound or the line is out of order. The split is returned either way; one that was not
    /// kept is dropped by the next call. Splitting in place, not into a buffer copied over, spares
    /// a clone per segment of every heading.
    #[cfg(test)]
    pub fn split(&mut self, cls: &Classifier, line: u32, text: &str, fence_at: usize, width: u32) -> &[Segment] {
        self.split_named(cls, line, text, fence_at, width, None)
    }

    /// [`SegmentCache::split`] of a line whose first opener's tag the classifier already
    /// resolved to `first` (its `Info::Heading` or `Info::Chain`): the tag is not looked up twice.
    pub fn split_named(
        &mut self,
        cls: &Classifier,
        line: u32,
        text: &str,
        fence_at: usize,
        width: u32,
        first: Option<Named>,
    ) -> &[Segment] {
        self.segs.truncate(self.kept);
        let from = self.segs.len();
        segments_append(cls, text, fence_at, width, first, &mut self.segs);
        if self.segs.len() <= Self::CAP && self.heads.last().is_none_or(|h| h.0 < line) {
            self.heads.push((line, fence_at, width, from as u32, self.segs.len() as u32));
            self.kept = self.segs.len();
        }
        &self.segs[from..]
    }

    /// The kept split of `line` from that opener, if the scan kept one.
    pub fn get(&self, line: u32, fence_at: usize, width: u32) -> Option<&[Segment]> {
        let i = self.heads.binary_search_by_key(&line, |h| h.0).ok()?;
        let (_, f, w, from, to) = self.heads[i];
        (f == fence_at && w == width).then(|| &self.segs[from as usize..to as usize])
    }
}

/// Splits a heading line into its statements. `fence_at`/`width` name the first opener.
pub fn segments(cls: &Classifier, line: &str, fence_at: usize, width: u32) -> Vec<Segment> {
    let mut out = Vec::new();
    segments_into(cls, line, fence_at, width, &mut out);
    out
}

/// [`segments`] into a reused buffer (cleared first).
pub fn segments_into(cls: &Classifier, line: &str, fence_at: usize, width: u32, out: &mut Vec<Segment>) {
    out.clear();
    segments_append(cls, line, fence_at, width, None, out);
}

/// [`segments`] pushed after what `out` holds. `first`, when given, is what the first opener's
/// tag resolves to (the classifier's reading of the line), so it is not resolved again.
fn segments_append(cls: &Classifier, line: &str, fence_at: usize, width: u32, mut first: Option<Named>, out: &mut Vec<Segment>) {
    let b = line.as_bytes();
    let min = cls.rules.fence_min();
    let mut at = fence_at;
    let mut w = width;
    loop {
        let name_start = at + w as usize;
        let name_end = cls.name_end(b, name_start);
        let named = match first.take().or_else(|| cls.resolve(&line[name_start..name_end])) {
            Some(n) => n,
            None => break,
        };
        let mut seg =
            Segment { fence_at: at, width: w, named, name: (name_start, name_end), end: b.len(), closers: Small::new(), closed: false };
        // No backtick after the name (most headings): no closer and no next opener can stand on
        // the line, so the stretch runs to its end unclosed; the slots need no walk.
        if crate::scan::find_byte(b'`', &b[name_end..]).is_none() {
            out.push(seg);
            break;
        }
        let mut i = name_end;
        let mut next: Option<(usize, u32)> = None;
        // After a closer on the line, the first text that is not a slot decides the chain
        // (§inline-chain): a sigil-led matcher is the heading's own (§transparent-inline-closer);
        // prose ends the chain, and no later opener on the line opens.
        let mut after_closer = false;
        let mut prose = false;
        while i < b.len() {
            match b[i] {
                b'(' | b'[' => {
                    let close = if b[i] == b'(' { skip_target(b, i) } else { skip_meta(b, i) };
                    match close {
                        Some(j) => i = j,
                        None => {
                            // An open slot: a closing fence later on the line still closes the
                            // statement (the slot's refusal is the builder's).
                            if let Some((s, e)) = closer_run(b, i + 1, w) {
                                seg.closers.push((s, e));
                                seg.closed = true;
                            }
                            i = b.len();
                        }
                    }
                }
                b'<' if b[i..].starts_with(b"<!--") => match aside_close(b, i + 4) {
                    Some(j) => i = j + 3,
                    None => i = b.len(),
                },
                b'`' => {
                    let s = i;
                    while i < b.len() && b[i] == b'`' {
                        i += 1;
                    }
                    let run = (i - s) as u32;
                    let ne = cls.name_end(b, i);
                    if !prose && run >= min && ne > i && cls.resolve(&line[i..ne]).is_some() {
                        if run >= w + min {
                            // A closer glued to the next opener, the runs written as one: the
                            // first `w` backticks close, the rest open (§inline-chain).
                            seg.closers.push((s, s + w as usize));
                            next = Some((s + w as usize, run - w));
                        } else {
                            // The next opener on the line (§inline-chain, §one-line-turn).
                            next = Some((s, run));
                        }
                        break;
                    }
                    if run >= w {
                        seg.closers.push((s, i));
                        seg.closed = true;
                        after_closer = true;
                    }
                }
                b' ' | b'\t' if after_closer => i += 1,
                // Prose of the heading: straight to the next byte that can open a slot, an aside
                // or a fence run.
                c => {
                    // A scope is a slot; the first other text after a closer decides.
                    if after_closer && c != b'<' {
                        after_closer = false;
                        prose |= !starts_matcher(c);
                    }
                    i = crate::scan::find_of(b, i + 1, [b'(', b'[', b'<', b'`']);
                }
            }
        }
        match next {
            Some((s, run)) => {
                seg.end = s;
                seg.closed = true;
                out.push(seg);
                at = s;
                w = run;
            }
            None => {
                out.push(seg);
                break;
            }
        }
    }
}

/// Whether heading text opening with `c` claims a matcher dialect or the bare option object
/// (§matcher-prefix-claims, §bare-option-object): slot-shaped text, not prose (§inline-chain).
pub(crate) fn starts_matcher(c: u8) -> bool {
    matches!(c, b'/' | b'^' | b'$' | b'~' | b'&' | b'{')
}

/// A lexed slot or stretch of a heading, by byte offsets into the line.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// `(inner)`; `open` is the `(`.
    Target { open: usize, inner: (usize, usize) },
    /// `[inner]`.
    Meta { open: usize, inner: (usize, usize) },
    /// `<inner>`; `closed` false when the line ends first; `lead` is where a displayed line
    /// number glued before it starts (`42<@abcde>`, §combined-anchor-tolerance).
    Scope { open: usize, inner: (usize, usize), closed: bool, lead: Option<usize> },
    /// `→ path`: the log's address notation (§log-heading-notation).
    Arrow { at: usize, path: (usize, usize) },
    /// `· text`: the log's token-charge separator and what follows it (§log-heading-notation).
    Dot { at: usize, text: (usize, usize) },
    /// `<!-- inner -->`; `closed` false when the line ends first (§unclosed-aside).
    Aside { open: usize, inner: (usize, usize), closed: bool },
    /// The heading's text from `start` to the end of the stretch.
    Text { start: usize },
}

/// How lexing a heading stopped short.
#[derive(Debug, Clone, PartialEq)]
pub enum LexStop {
    /// A `(` never closed on its line.
    OpenTarget { open: usize },
    /// A `[` never closed on its line.
    OpenMeta { open: usize },
    /// A character that can start no slot, glued to the one before (`(a)b`, `<0>:`).
    Bad { at: usize },
}

/// The slots of one statement's stretch, in order.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    pub toks: Vec<Tok>,
    pub stop: Option<LexStop>,
}

/// Lexes `[from, seg.end)` of `line` into a reused buffer (cleared first), skipping the segment's
/// closers and zero-width characters.
pub fn lex_into(line: &str, from: usize, seg: &Segment, zero_width: &[char], notation: &crate::rules::model::Notation, out: &mut Lexed) {
    out.toks.clear();
    out.stop = None;
    let b = line.as_bytes();
    let end = seg.end;
    crate::work::add(crate::work::Stage::Heading, end.saturating_sub(from));
    let mut i = from;
    // Whether the previous token ended a slot (so a glued character is refused).
    let mut glued = true;
    // The closers lie in line order and `i` only grows: the first one not ended before `i` is
    // the only one `i` can be in, so a stretch of many closers is crossed once, not once a byte.
    let closers = seg.closers.as_slice();
    let mut ci = 0;
    let mut in_closer = |i: usize| {
        while ci < closers.len() && closers[ci].1 <= i {
            ci += 1;
        }
        closers.get(ci).filter(|(s, _)| *s <= i).map(|(_, e)| *e)
    };
    while i < end {
        if let Some(e) = in_closer(i) {
            i = e;
            glued = false;
            continue;
        }
        let c = b[i];
        if c == b' ' || c == b'\t' {
            i += 1;
            glued = false;
            continue;
        }
        if c >= 0x80 {
            let ch = line[i..].chars().next().unwrap();
            if zero_width.contains(&ch) {
                i += ch.len_utf8();
                continue;
            }
        }
        match c {
            b'(' => match skip_target(&b[..end], i) {
                Some(j) => {
                    out.toks.push(Tok::Target { open: i, inner: (i + 1, j - 1) });
                    i = j;
                    glued = true;
                }
                None => {
                    out.stop = Some(LexStop::OpenTarget { open: i });
                    return;
                }
            },
            b'[' => match skip_meta(&b[..end], i) {
                Some(j) => {
                    out.toks.push(Tok::Meta { open: i, inner: (i + 1, j - 1) });
                    i = j;
                    glued = true;
                }
                None => {
                    out.stop = Some(LexStop::OpenMeta { open: i });
                    return;
                }
            },
            b'<' if b[i..end].starts_with(b"<!--") => match aside_close(&b[..end], i + 4) {
                Some(j) => {
                    out.toks.push(Tok::Aside { open: i, inner: (i + 4, j), closed: true });
                    i = j + 3;
                    glued = true;
                }
                None => {
                    let mut e = end;
                    // The closers of the stretch are not aside text.
                    for (s, _) in &seg.closers {
                        if *s > i && *s < e {
                            e = *s;
                        }
                    }
                    out.toks.push(Tok::Aside { open: i, inner: (i + 4, e), closed: false });
                    i = end;
                }
            },
            b'<' => {
                let (tok, next) = scope_tok(b, i, end, seg, None);
                out.toks.push(tok);
                i = next;
                glued = true;
            }
            _ if line[i..end].starts_with(notation.address.as_str()) => {
                // The log's address: the path runs to the next space, `<` or `[`.
                let mut j = i + notation.address.len();
                while j < end && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                let s0 = j;
                let stop = next_closer(closers, s0, end);
                while j < stop && !matches!(b[j], b' ' | b'\t' | b'<' | b'[') {
                    j += 1;
                }
                if j == s0 {
                    out.toks.push(Tok::Text { start: i });
                    return;
                }
                out.toks.push(Tok::Arrow { at: i, path: (s0, j) });
                i = j;
                glued = true;
            }
            _ if line[i..end].starts_with(notation.charge.as_str()) => {
                // The log's charge separator and its text: runs to the next slot opener.
                let s0 = i + notation.charge.len();
                let mut j = s0;
                let stop = next_closer(closers, s0, end);
                while j < stop && !matches!(b[j], b'<' | b'[') {
                    j += 1;
                }
                let mut ts = s0;
                while ts < j && (b[ts] == b' ' || b[ts] == b'\t') {
                    ts += 1;
                }
                let mut te = j;
                while te > ts && (b[te - 1] == b' ' || b[te - 1] == b'\t') {
                    te -= 1;
                }
                out.toks.push(Tok::Dot { at: i, text: (ts, te) });
                i = j;
                glued = false;
            }
            b'0'..=b'9'
                if {
                    let mut j = i;
                    while j < end && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    b[j..end].starts_with(b"<@")
                } =>
            {
                let mut j = i;
                while b[j].is_ascii_digit() {
                    j += 1;
                }
                let (tok, next) = scope_tok(b, j, end, seg, Some(i));
                out.toks.push(tok);
                i = next;
                glued = true;
            }
            _ => {
                if glued && i > from {
                    out.stop = Some(LexStop::Bad { at: i });
                    return;
                }
                out.toks.push(Tok::Text { start: i });
                return;
            }
        }
    }
}

/// The first closer starting at or after `at` (closers in line order), else `end`: a run of
/// text stops there (found by a binary search, not by asking every closer at every byte).
fn next_closer(closers: &[(usize, usize)], at: usize, end: usize) -> usize {
    closers.get(closers.partition_point(|c| c.0 < at)).map_or(end, |c| c.0.min(end))
}

/// A `<…>` scope starting at `i`: to its `>`, or to the stretch's end (before any closer).
fn scope_tok(b: &[u8], i: usize, end: usize, seg: &Segment, lead: Option<usize>) -> (Tok, usize) {
    match crate::scan::find_byte(b'>', &b[i..end]) {
        Some(o) => (Tok::Scope { open: i, inner: (i + 1, i + o), closed: true, lead }, i + o + 1),
        None => {
            let mut e = end;
            for (s, _) in &seg.closers {
                if *s > i && *s < e {
                    e = *s;
                }
            }
            (Tok::Scope { open: i, inner: (i + 1, e), closed: false, lead }, end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::scan::Registry;

    fn segs(line: &str) -> Vec<(usize, u32, bool)> {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let cls = Classifier::new(rules, &reg);
        let w = line.bytes().take_while(|&b| b == b'`').count() as u32;
        segments(&cls, line, 0, w).iter().map(|s| (s.fence_at, s.width, s.closed)).collect()
    }

    /// §closer-aside: an aside ends at the first `-->` after its opener, as a substring search
    /// would find it.
    #[test]
    fn closer_aside_ends_at_the_first_close() {
        let table = ["-->", "->", "", ">", "-->-->", "a -- > b --> c", "--->", "-", "x>-->", "<!-- a -->", "é-->", "--"];
        for t in table {
            for from in 0..=t.len() {
                let want = memchr::memmem::find(&t.as_bytes()[from..], b"-->").map(|o| from + o);
                assert_eq!(aside_close(t.as_bytes(), from), want, "{t:?} from {from}");
            }
        }
    }

    /// §inline-chain: the builder gets back exactly the split the scan kept for that line and
    /// opener, nothing for another opener or a line out of order, and nothing past the bound.
    #[test]
    fn inline_chain_splits_are_kept_once_and_bounded() {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let cls = Classifier::new(rules, &reg);
        let line = "````READ (a) <1,30> ```` ````READ (b) ````";
        let other = "  ```READ (c)";
        let split = segments(&cls, line, 0, 4);
        let spans = |v: &[Segment]| v.iter().map(|s| (s.fence_at, s.width, s.end, s.closed)).collect::<Vec<_>>();
        let mut cache = SegmentCache::default();
        // The split handed back is the split itself, kept or not.
        assert_eq!(spans(cache.split(&cls, 3, line, 0, 4)), spans(&split));
        assert_eq!(spans(cache.split(&cls, 2, line, 0, 4)), spans(&split)); // out of order: not kept
        assert_eq!(cache.split(&cls, 5, other, 2, 3).len(), 1);
        let table: [((u32, usize, u32), Option<usize>); 7] = [
            ((3, 0, 4), Some(2)),
            ((3, 0, 3), None),
            ((3, 1, 4), None),
            ((2, 0, 4), None),
            ((4, 0, 4), None),
            ((5, 2, 3), Some(1)),
            ((6, 2, 3), None),
        ];
        for ((line_no, at, w), want) in table {
            let got = cache.get(line_no, at, w);
            assert_eq!(got.map(|g| g.len()), want, "line {line_no} at {at} width {w}");
            if let Some(g) = got {
                let text = if line_no == 5 { other } else { line };
                assert_eq!(spans(g), spans(&segments(&cls, text, at, w)));
            }
        }
        // Full: a line whose split would pass the bound is not kept, and what it left is dropped
        // by the next split, so the cache never holds more than the bound and one line's split.
        cache.clear();
        assert!(cache.get(3, 0, 4).is_none());
        cache.split(&cls, 0, other, 2, 3); // one odd split: the bound is then reached a segment short
        let mut n = 1u32;
        while cache.segs.len() + split.len() <= SegmentCache::CAP {
            cache.split(&cls, n, line, 0, 4);
            n += 1;
        }
        assert!(cache.get(n - 1, 0, 4).is_some());
        assert_eq!(cache.split(&cls, n, line, 0, 4).len(), 2);
        assert!(cache.get(n, 0, 4).is_none() && cache.kept <= SegmentCache::CAP);
        assert_eq!(cache.split(&cls, n + 1, other, 2, 3).len(), 1);
        assert!(cache.get(n + 1, 2, 3).is_some(), "a split that fits after one that did not is kept");
        assert!(cache.get(n - 1, 0, 4).is_some() && cache.segs.len() <= SegmentCache::CAP);
    }

    /// §inline-chain: a split handed the classifier's reading of the first tag is the split that
    /// resolves the tag itself, field for field, for headings and chained openers alike.
    #[test]
    fn split_with_the_classified_tag_agrees_with_the_plain_split() {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let cls = Classifier::new(rules, &reg);
        let lines = [
            "```READ (a.rs)",
            "  ```EDIT (a.rs) <60,66> ```EDIT (b.rs) <31,38>",
            "````READ (a) <1,30> ```` ````READ (b) ````",
            "``` ```READ (x)",
            "```   ````EDIT (y) [m] <!-- a --> ````",
            "```READ (a.md)``` <1,2>",
            "```sh (x)",
            "```SH echo",
            "```READ",
            "```READ (a```b)",
            "```READ (a) <1,2> ```EDIT (b) <3,4>",
        ];
        let mut cache = SegmentCache::default();
        let mut checked = 0;
        for (n, line) in lines.iter().enumerate() {
            let crate::scan::Class::Fence(f) = cls.classify(line) else { panic!("{line:?} is no fence") };
            let (at, w, named) = match f.info {
                crate::scan::Info::Heading(named) => (f.indent as usize, f.width, named),
                crate::scan::Info::Chain(named) => (f.info_at, f.chain_width, named),
                other => panic!("{line:?} reads {other:?}"),
            };
            let plain = format!("{:?}", segments(&cls, line, at, w));
            assert_eq!(format!("{:?}", cache.split_named(&cls, n as u32, line, at, w, Some(named))), plain, "{line:?}");
            assert_eq!(format!("{:?}", cache.get(n as u32, at, w).expect("kept")), plain, "{line:?}");
            checked += 1;
        }
        assert_eq!(checked, lines.len());
    }

    #[test]
    fn inline_chain_and_one_line_turn() {
        // §inline-chain
        assert_eq!(segs("````READ (a) <1,30> ```` ````READ (b) ````"), vec![(0, 4, true), (25, 4, true)]);
        // §one-line-turn
        assert_eq!(segs("```EDIT (a.rs) <60,66> ```EDIT (b.rs) <31,38>"), vec![(0, 3, true), (23, 3, false)]);
        // §transparent-inline-closer: the closer does not end the reading
        assert_eq!(segs("```READ (a.md)``` <1,2>"), vec![(0, 3, true)]);
        // a narrower run is heading text, not a closer
        assert_eq!(segs("````READ (a) ```"), vec![(0, 4, false)]);
        // backticks inside slots are not closers
        assert_eq!(segs("```READ (a```b)"), vec![(0, 3, false)]);
    }
}
