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
/// heading line is split once per parse, not once to pair and again to build: a line of glued
/// compact headings (§one-line-turn) splits into a statement every few bytes, and reading it
/// twice was a step up in the work per byte wherever a bound on the kept segments was passed.
/// Each is kept packed (28 bytes and its closers', where a [`Segment`] is 120), a fraction of
/// the result item every statement becomes, so all are kept; a workspace that held many is
/// given back after its parse. A line out of order, or too long for 32-bit offsets, is not kept
/// and the builder splits it again, a statement at a time.
#[derive(Default)]
pub struct SegmentCache {
    /// `(line, fence_at, width, from, to)`, lines ascending: `packed[from..to]` split `line`
    /// from the opener at `fence_at` of `width`.
    heads: Vec<(u32, usize, u32, u32, u32)>,
    packed: Vec<Packed>,
    /// The packed segments' closers, each segment's in a run.
    closers: Vec<(u32, u32)>,
    /// The last split's last statement (what the scan asks of a split).
    last: Option<Segment>,
}

/// A kept [`Segment`], its offsets in 32 bits; the name starts after the fence run.
#[derive(Debug, Clone, Copy)]
struct Packed {
    fence_at: u32,
    width: u32,
    name_end: u32,
    end: u32,
    /// `Named::Op` or `Named::Exec` (`exec`) of this index.
    index: u32,
    /// Its closers are `closers[closers_at..closers_at + closers_n]`.
    closers_at: u32,
    closers_n: u16,
    exec: bool,
    closed: bool,
}

impl SegmentCache {
    /// The segments the cache's buffer can hold (its memory, for the workspace's release).
    pub fn held(&self) -> usize {
        self.packed.capacity()
    }

    pub fn clear(&mut self) {
        self.heads.clear();
        self.packed.clear();
        self.closers.clear();
        self.last = None;
    }

    /// Splits heading `line` (its text `text`, lines in ascending order) from the opener at
    /// `fence_at` of `width`, keeps the split unless the line is out of order (or too long to
    /// pack), and returns its last statement (the scan's question: whether the line ends closed,
    /// and the width left open), a one-element slice.
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
        let (from, closers_from) = (self.packed.len(), self.closers.len());
        let mut keep = self.heads.last().is_none_or(|h| h.0 < line) && u32::try_from(text.len()).is_ok();
        let mut split = Segments::new(cls, text, fence_at, width, first);
        let mut last = None;
        if keep {
            // A long line of glued headings is sized once for a statement every 16 bytes, not
            // doubled up from a few (each doubling copies into fresh pages).
            let guess = text.len() / 16;
            self.packed.reserve(guess);
            self.closers.reserve(guess);
            for seg in split.by_ref() {
                if !self.pack(&seg) {
                    // A field past 32 bits: the line is not kept after all.
                    keep = false;
                    self.packed.truncate(from);
                    self.closers.truncate(closers_from);
                    last = Some(seg);
                    break;
                }
            }
        }
        self.last = if keep {
            self.heads.push((line, fence_at, width, from as u32, self.packed.len() as u32));
            self.packed[from..].last().map(|p| self.unpack(p))
        } else {
            split.last().or(last)
        };
        self.last.as_slice()
    }

    /// Packs `seg` after the kept segments; `false` (nothing kept) when a field does not fit.
    fn pack(&mut self, seg: &Segment) -> bool {
        let n32 = |v: usize| u32::try_from(v).ok();
        let (index, exec) = match seg.named {
            Named::Op(i) => (i, false),
            Named::Exec(e) => (e, true),
        };
        let (Some(fence_at), Some(name_end), Some(end), Some(index), Some(closers_at), Ok(closers_n)) =
            (n32(seg.fence_at), n32(seg.name.1), n32(seg.end), n32(index), n32(self.closers.len()), u16::try_from(seg.closers.len()))
        else {
            return false;
        };
        if seg.name.0 != seg.fence_at + seg.width as usize {
            return false;
        }
        // A closer lies in the line, whose length fits (the caller checked).
        self.closers.extend(seg.closers.iter().map(|&(s, e)| (s as u32, e as u32)));
        self.packed.push(Packed { fence_at, width: seg.width, name_end, end, index, closers_at, closers_n, exec, closed: seg.closed });
        true
    }

    /// The kept split of `line` from that opener, if the scan kept one, a statement at a time.
    pub fn get(&self, line: u32, fence_at: usize, width: u32) -> Option<Kept<'_>> {
        let i = self.heads.binary_search_by_key(&line, |h| h.0).ok()?;
        let (_, f, w, from, to) = self.heads[i];
        (f == fence_at && w == width).then_some(Kept { cache: self, at: from as usize, to: to as usize })
    }

    #[inline]
    fn unpack(&self, p: &Packed) -> Segment {
        let fence_at = p.fence_at as usize;
        let mut closers = Small::new();
        let at = p.closers_at as usize;
        for &(s, e) in &self.closers[at..at + p.closers_n as usize] {
            closers.push((s as usize, e as usize));
        }
        Segment {
            fence_at,
            width: p.width,
            named: if p.exec { Named::Exec(p.index as usize) } else { Named::Op(p.index as usize) },
            name: (fence_at + p.width as usize, p.name_end as usize),
            end: p.end as usize,
            closers,
            closed: p.closed,
        }
    }
}

/// Heading segments read in line order, one at a time, with a look at where the next opens:
/// what the builder needs of a line's split (whether a statement is the line's last, and a
/// closer glued to the next opener), with no table of the line's segments.
pub trait SegmentSource {
    /// The next statement's segment.
    fn next_segment(&mut self) -> Option<Segment>;
    /// Where the statement after the one last read opens (its fence run), if one follows.
    fn upcoming(&self) -> Option<usize>;
}

/// A kept split ([`SegmentCache::get`]), unpacked a statement at a time.
pub struct Kept<'c> {
    cache: &'c SegmentCache,
    at: usize,
    to: usize,
}

impl SegmentSource for Kept<'_> {
    #[inline]
    fn next_segment(&mut self) -> Option<Segment> {
        let p = self.cache.packed[self.at..self.to].first()?;
        self.at += 1;
        Some(self.cache.unpack(p))
    }

    #[inline]
    fn upcoming(&self) -> Option<usize> {
        self.cache.packed[self.at..self.to].first().map(|p| p.fence_at as usize)
    }
}

impl Iterator for Kept<'_> {
    type Item = Segment;
    fn next(&mut self) -> Option<Segment> {
        self.next_segment()
    }
}

impl SegmentSource for Segments<'_, '_> {
    #[inline]
    fn next_segment(&mut self) -> Option<Segment> {
        self.next()
    }

    /// After a statement that a next opener on its line ended, that opener (its tag resolved,
    /// so it is read); after the line's last, none.
    #[inline]
    fn upcoming(&self) -> Option<usize> {
        (!self.done).then_some(self.at)
    }
}

/// One statement read from outside a heading line (a naked or forgotten-tag framing).
impl SegmentSource for Option<Segment> {
    fn next_segment(&mut self) -> Option<Segment> {
        self.take()
    }

    fn upcoming(&self) -> Option<usize> {
        self.as_ref().map(|s| s.fence_at)
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
    out.extend(Segments::new(cls, line, fence_at, width, None));
}

/// The statements of a heading line one at a time (§inline-chain, §one-line-turn), in line
/// order: a line of glued compact headings is read a statement at a time, with no table of a
/// segment per statement of the line (of a megabyte's line, tens of megabytes).
pub struct Segments<'l, 'c> {
    cls: &'c Classifier<'c>,
    line: &'l str,
    /// The next opener and its width.
    at: usize,
    w: u32,
    /// What the next opener's tag resolves to, when known (the classifier's reading of the
    /// line's first, or the look at the next opener that ended the last statement): it is not
    /// resolved again.
    first: Option<Named>,
    /// The last statement was read (its stretch runs to the line's end).
    done: bool,
}

impl<'l, 'c> Segments<'l, 'c> {
    /// The statements of `line` from the opener at `fence_at` of `width`.
    pub fn new(cls: &'c Classifier<'c>, line: &'l str, fence_at: usize, width: u32, first: Option<Named>) -> Self {
        Segments { cls, line, at: fence_at, w: width, first, done: false }
    }
}

impl Iterator for Segments<'_, '_> {
    type Item = Segment;

    fn next(&mut self) -> Option<Segment> {
        if self.done {
            return None;
        }
        let (cls, line) = (self.cls, self.line);
        let b = line.as_bytes();
        let min = cls.rules.fence_min();
        let (at, w) = (self.at, self.w);
        let name_start = at + w as usize;
        let name_end = cls.name_end(b, name_start);
        let Some(named) = self.first.take().or_else(|| cls.resolve(&line[name_start..name_end])) else {
            self.done = true;
            return None;
        };
        let mut seg =
            Segment { fence_at: at, width: w, named, name: (name_start, name_end), end: b.len(), closers: Small::new(), closed: false };
        // No backtick after the name (most headings): no closer and no next opener can stand on
        // the line, so the stretch runs to its end unclosed; the slots need no walk.
        if crate::scan::find_byte(b'`', &b[name_end..]).is_none() {
            self.done = true;
            return Some(seg);
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
                    // The next opener's tag, resolved once: the next statement is handed it.
                    let opener = if !prose && run >= min && ne > i { cls.resolve(&line[i..ne]) } else { None };
                    if let Some(tag) = opener {
                        self.first = Some(tag);
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
                (self.at, self.w) = (s, run);
            }
            None => self.done = true,
        }
        Some(seg)
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
    /// opener, nothing for another opener or a line out of order; the scan gets the split's last
    /// statement.
    #[test]
    fn inline_chain_splits_are_kept_once() {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let cls = Classifier::new(rules, &reg);
        let line = "````READ (a) <1,30> ```` ````READ (b) ````";
        let other = "  ```READ (c)";
        let split = segments(&cls, line, 0, 4);
        let spans = |v: &[Segment]| v.iter().map(|s| (s.fence_at, s.width, s.end, s.closed)).collect::<Vec<_>>();
        let mut cache = SegmentCache::default();
        // The scan is handed the split's last statement, kept or not.
        assert_eq!(spans(cache.split(&cls, 3, line, 0, 4)), spans(&split[1..]));
        assert_eq!(spans(cache.split(&cls, 2, line, 0, 4)), spans(&split[1..])); // out of order: not kept
        assert_eq!(spans(cache.split(&cls, 5, other, 2, 3)), spans(&segments(&cls, other, 2, 3)));
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
            let got: Option<Vec<Segment>> = cache.get(line_no, at, w).map(|g| g.collect());
            assert_eq!(got.as_ref().map(|g| g.len()), want, "line {line_no} at {at} width {w}");
            if let Some(g) = got {
                let text = if line_no == 5 { other } else { line };
                // Field for field, closers included.
                assert_eq!(format!("{g:?}"), format!("{:?}", segments(&cls, text, at, w)));
            }
        }
        cache.clear();
        assert!(cache.get(3, 0, 4).is_none());
    }

    /// §one-line-turn: a line of many glued compact headings is kept whole, however many
    /// statements it splits into (the builder never reads it a second time), and each kept
    /// statement reads back as split, its closers past the inline two included.
    #[test]
    fn one_line_turn_splits_are_kept_whole() {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let cls = Classifier::new(rules, &reg);
        let unit = "```READ (src/a.rs) <1,2>```";
        let line = unit.repeat(70_000);
        let mut cache = SegmentCache::default();
        let last = cache.split(&cls, 0, &line, 0, 3).to_vec();
        let kept: Vec<Segment> = cache.get(0, 0, 3).expect("kept").collect();
        assert_eq!(kept.len(), 70_000);
        assert_eq!(format!("{:?}", kept.last()), format!("{:?}", last.last()));
        let plain = segments(&cls, &line, 0, 3);
        assert!(kept.iter().zip(&plain).all(|(a, b)| format!("{a:?}") == format!("{b:?}")));
        // Three closers in one stretch (§transparent-inline-closer) spill past the inline two.
        let many = "```READ (a) ``` ``` ``` <1,2>";
        cache.clear();
        cache.split(&cls, 0, many, 0, 3);
        let back: Vec<Segment> = cache.get(0, 0, 3).expect("kept").collect();
        assert_eq!(format!("{back:?}"), format!("{:?}", segments(&cls, many, 0, 3)));
        assert!(back[0].closers.len() >= 3, "{back:?}");
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
            let plain = segments(&cls, line, at, w);
            let last = cache.split_named(&cls, n as u32, line, at, w, Some(named)).to_vec();
            assert_eq!(format!("{last:?}"), format!("{:?}", plain.last().into_iter().collect::<Vec<_>>()), "{line:?}");
            let kept: Vec<Segment> = cache.get(n as u32, at, w).expect("kept").collect();
            assert_eq!(format!("{kept:?}"), format!("{plain:?}"), "{line:?}");
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
