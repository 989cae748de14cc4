//! Compiling the family files into marker automata (§native-tool-calls).
//!
//! Every spelling a family writes comes from its `rules/native/<family>.yaml`; this module only
//! composes them (an element's opening tag is `<`, a prefix and the element's name) and builds
//! the aho-corasick automata the reader searches with. Markers match ASCII case-insensitively.

use std::borrow::Cow;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind, StartKind};

use crate::rules::model::*;
use crate::rules::Rules;

/// A set of alternative spellings of one marker. The automaton is built on first use: the rule
/// tables hold about a hundred markers and a turn rarely meets more than one family's, so
/// building them all up front was nearly the whole cost of a short CLI run.
#[derive(Debug)]
pub(crate) struct Markers {
    spellings: Vec<String>,
    ac: OnceLock<Option<AhoCorasick>>,
    /// The byte search that leads [`Self::find`], when the spellings allow one.
    lead: Option<Anchors>,
    /// Per pattern: a match counts only at a line start (after spaces and tabs), where every
    /// block the spelling opens is read only there (`{` and `[` of the JSON and list blocks).
    /// Empty when none is. Told in the search, a bracket in prose costs the scan no stop.
    line_start: Vec<bool>,
}

/// How a marker set is found without running its automaton over every byte: each spelling is
/// anchored on one byte it holds near its start (the rarest kind it has: `<` before `{`
/// before other punctuation before a letter), memchr finds the anchor bytes, and only the
/// starts they imply are tried, by their first three bytes and then the anchored automaton.
/// The openings meet every `<`, `[` and `{` of outside text and nearly none opens markup;
/// anchoring `functools[` on its `[` spares a stop at every `f` of the prose.
#[derive(Debug)]
struct Anchors {
    /// The anchor bytes (both ASCII cases of a letter), at most [`ANCHORS_MAX`].
    bytes: Vec<u8>,
    /// Per anchor byte: how far after a spelling's start it stands, largest first (so the
    /// starts tried from one hit rise).
    offsets: Vec<Vec<usize>>,
    /// Per anchor byte: the bytes that may follow it in the spellings it anchors (every byte
    /// where one ends with it): a `<` before a space or a digit, a `>` before anything but `>`,
    /// is passed at once.
    next: Vec<[u64; 4]>,
    /// The largest offset: a hit further than this past a match cannot imply an earlier one.
    reach: usize,
    /// Per byte: 1 + its index in `bytes`, or 0 where it anchors nothing.
    anchor_of: [u8; 256],
    /// Per byte: 1 + its index in `starts`, or 0 where no spelling starts with it.
    first_of: [u8; 256],
    starts: Vec<Start>,
    /// The anchors with their followers, searched in one pass ([`crate::scan::AnchorSet`]),
    /// where the CPU allows; else [`first_hit`] runs its memchr passes over the anchor bytes.
    set: Option<crate::scan::AnchorSet>,
}

/// What the spellings that start with one byte may write next.
#[derive(Debug)]
struct Start {
    /// The pattern of the one-byte spelling (the first, as leftmost-longest reports it).
    one: Option<u32>,
    /// A two-byte spelling starts so.
    two: bool,
    /// The bytes second in the longer spellings.
    second: [u64; 4],
    /// The bytes third in the spellings of three bytes or more: `</` of every closing tag is
    /// no `</think>` when a fullwidth bar follows.
    third: [u64; 4],
}

/// The most anchor bytes a marker set is searched by (one anchor set, or three per memchr pass
/// in two passes, see [`first_hit`]); the built-in openings anchor on four (`<`, `{`, `[`, `>`).
const ANCHORS_MAX: usize = 6;

/// The furthest into a spelling an anchor may stand.
const ANCHOR_REACH: usize = 16;

/// An anchor's rank: lower is rarer in outside text, so preferred.
fn anchor_rank(c: u8) -> u8 {
    match c {
        b'<' => 0,
        b'{' => 1,
        b'[' => 2,
        b'>' => 3,
        b'|' | b']' | b'}' | b'(' | b')' => 4,
        _ if c.is_ascii_punctuation() => 5,
        _ if c.is_ascii_alphanumeric() => 7,
        _ => 6,
    }
}

/// Whether only spaces and tabs stand between the start of `p`'s line and `p`. It reads back
/// over the blanks alone, not to the line start (a long line of openings stays linear).
pub(crate) fn at_line_start(b: &[u8], p: usize) -> bool {
    let mut i = p.min(b.len());
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i == 0 || b[i - 1] == b'\n'
}

fn has(set: &[u64; 4], c: u8) -> bool {
    set[c as usize / 64] & (1 << (c % 64)) != 0
}

fn put(set: &mut [u64; 4], c: u8) {
    set[c as usize / 64] |= 1 << (c % 64);
}

impl Anchors {
    fn new(spellings: &[String]) -> Option<Anchors> {
        if spellings.is_empty() {
            return None;
        }
        let mut bytes: Vec<u8> = Vec::new();
        let mut offsets: Vec<Vec<usize>> = Vec::new();
        let mut next: Vec<[u64; 4]> = Vec::new();
        let mut firsts = [0u64; 4];
        let mut anchor_of = [0u8; 256];
        let mut first_of = [0u8; 256];
        for sp in spellings {
            let sb = sp.as_bytes();
            // The first byte always anchors; a later one only if it is ASCII (a byte inside a
            // multi-byte character could be met inside another character too, harmlessly, but
            // it would be a dense byte of non-Latin prose).
            let (j, c) = sb
                .iter()
                .take(ANCHOR_REACH)
                .enumerate()
                .filter(|&(j, &c)| j == 0 || c.is_ascii_punctuation())
                .min_by_key(|&(j, &c)| (anchor_rank(c), j))
                .map(|(j, &c)| (j, c))?;
            for c in [c, c.to_ascii_lowercase(), c.to_ascii_uppercase()] {
                let k = match bytes.iter().position(|&x| x == c) {
                    Some(k) => k,
                    None => {
                        bytes.push(c);
                        offsets.push(Vec::new());
                        next.push([0; 4]);
                        bytes.len() - 1
                    }
                };
                if !offsets[k].contains(&j) {
                    offsets[k].push(j);
                }
                match sb.get(j + 1) {
                    None => next[k] = [u64::MAX; 4],
                    Some(&d) => {
                        for d in [d, d.to_ascii_lowercase(), d.to_ascii_uppercase()] {
                            put(&mut next[k], d);
                        }
                    }
                }
            }
            for c in [sb[0], sb[0].to_ascii_lowercase(), sb[0].to_ascii_uppercase()] {
                put(&mut firsts, c);
            }
        }
        if bytes.len() > ANCHORS_MAX {
            return None;
        }
        for o in &mut offsets {
            o.sort_unstable_by(|a, b| b.cmp(a));
        }
        let reach = offsets.iter().flatten().copied().max().unwrap_or(0);
        for (k, &c) in bytes.iter().enumerate() {
            anchor_of[c as usize] = k as u8 + 1;
        }
        let mut list: Vec<Start> = Vec::new();
        for c in (0..=255u8).filter(|&c| has(&firsts, c)) {
            let starts = |sp: &&String| sp.as_bytes()[0].eq_ignore_ascii_case(&c);
            let mut start = Start { one: None, two: false, second: [0; 4], third: [0; 4] };
            for (i, sp) in spellings.iter().enumerate().filter(|(_, sp)| starts(sp)) {
                let sb = sp.as_bytes();
                if sb.len() == 1 {
                    start.one = start.one.or(Some(i as u32));
                }
                start.two |= sb.len() == 2;
                for (k, set) in [(1, &mut start.second), (2, &mut start.third)] {
                    if let Some(&d) = sb.get(k) {
                        for d in [d, d.to_ascii_lowercase(), d.to_ascii_uppercase()] {
                            put(set, d);
                        }
                    }
                }
            }
            list.push(start);
            first_of[c as usize] = list.len() as u8;
        }
        let pairs: Vec<(u8, [u64; 4])> = bytes.iter().copied().zip(next.iter().copied()).collect();
        let set = crate::scan::AnchorSet::new(&pairs);
        Some(Anchors { bytes, offsets, next, reach, anchor_of, first_of, starts: list, set })
    }
}

/// Where each memchr pass of an anchor search last stopped, kept across the searches of one
/// scan (same text, same end): a pass whose bytes are absent reads to the end once, not once
/// per search (a search per line of JSON read every line after it again: quadratic).
#[derive(Debug, Default)]
pub(crate) struct Hits {
    /// Per pass: `(from, reached, hit)`, valid for a later search from a position at or after
    /// `from`: `hit` is the first hit at or after `from` when found, else none stands in
    /// `from..reached`.
    passes: [Option<(usize, usize, Option<usize>)>; 2],
}

/// How far the passes of [`first_hit`] read before each looks at the next stretch: both read
/// the same stretch while it is in the first cache levels, and a scan that stops at its first
/// block (an unknown tool) reads no pass to the end of a long turn. A few cycles per stretch.
#[cfg(not(test))]
const STRETCH: usize = 32 * 1024;
/// Short in the crate's own tests, so their few-byte texts cross stretches.
#[cfg(test)]
const STRETCH: usize = 3;

/// The first position in `b[p..to]` holding an anchor byte: by the anchor set's one pass (an
/// anchor its next byte may follow), or by one memchr pass per three bytes, the passes taking
/// the text a stretch at a time; each pass resumed from `hits` where it is still valid (so each
/// reads the text once across the searches of a scan).
#[inline]
fn first_hit(lead: &Anchors, b: &[u8], p: usize, to: usize, hits: &mut Hits) -> Option<usize> {
    if let Some(set) = &lead.set {
        // One pass stops at its own first hit: no stretch to coordinate.
        return pass(b, p, to, &mut hits.passes[0], |from, upto| set.find(b, from, upto));
    }
    let (one, two) = lead.bytes.split_at(lead.bytes.len().min(3));
    if two.is_empty() {
        return pass(b, p, to, &mut hits.passes[0], |from, upto| memchr_of(one, &b[from..upto]).map(|i| from + i));
    }
    // A short text is one stretch. In a long one the first stretch starts where a pass has
    // something left to read (the passes' memos cover what earlier searches read), so a search
    // costs no step per stretch read before.
    let mut upto = to;
    if to - p > STRETCH {
        upto = (resume(&hits.passes[0], p).min(resume(&hits.passes[1], p)) + STRETCH).min(to);
    }
    loop {
        // Each pass reads to its own hit or the stretch's end, so on a short text each runs
        // once in a scan, whatever the other meets.
        let hit = match (
            pass(b, p, upto, &mut hits.passes[0], |from, upto| memchr_of(one, &b[from..upto]).map(|i| from + i)),
            pass(b, p, upto, &mut hits.passes[1], |from, upto| memchr_of(two, &b[from..upto]).map(|i| from + i)),
        ) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        if hit.is_some() || upto == to {
            return hit;
        }
        upto = (upto + STRETCH).min(to);
    }
}

/// The first of one to three bytes in `h`, by memchr.
#[inline(always)]
fn memchr_of(g: &[u8], h: &[u8]) -> Option<usize> {
    match *g {
        [a] => memchr::memchr(a, h),
        [a, b] => memchr::memchr2(a, b, h),
        [a, b, c] => memchr::memchr3(a, b, c, h),
        _ => unreachable!("one to three bytes"),
    }
}

/// What a pass's memo tells a search from `p`: its kept hit (`Ok`), or where to read on from
/// and the start to keep in the memo (`Err((from, start))`: none stands in `from..start`).
#[inline(always)]
fn kept(memo: &Option<(usize, usize, Option<usize>)>, p: usize) -> Result<usize, (usize, usize)> {
    match *memo {
        Some((f, _, Some(h))) if f <= p && h >= p => Ok(h),
        // Read on from `reached`, unless a stretch before `p` went unread.
        Some((f, reached, None)) if f <= p && reached >= p => Err((f, reached)),
        _ => Err((p, p)),
    }
}

/// Where a pass searching from `p` has to read from: past its kept hit, at the end of what it
/// read without one, or at `p`.
#[inline(always)]
fn resume(memo: &Option<(usize, usize, Option<usize>)>, p: usize) -> usize {
    kept(memo, p).map_or_else(|(_, start)| start, |h| h + 1)
}

/// One pass of [`first_hit`]: the first hit in `b[p..upto]` by `search` (over a range), read
/// on from where the memo shows none.
#[inline(always)]
fn pass(
    b: &[u8],
    p: usize,
    upto: usize,
    memo: &mut Option<(usize, usize, Option<usize>)>,
    search: impl Fn(usize, usize) -> Option<usize>,
) -> Option<usize> {
    let (from, start) = match kept(memo, p) {
        Ok(h) => return (h < upto).then_some(h),
        Err(read) => read,
    };
    if start >= upto {
        return None;
    }
    debug_assert!(upto <= b.len());
    let hit = search(start, upto);
    crate::work::add(crate::work::Stage::Native, hit.map_or(upto, |h| h + 1) - start);
    *memo = Some((from, hit.unwrap_or(upto), hit));
    hit
}

impl Markers {
    /// A marker searched anchored (`at`, and each start the anchor search implies) or not
    /// (`find`). Every marker is a contiguous NFA: it builds in a fraction of a DFA's time, and
    /// the search over outside text is led by the anchor search either way (on a megabyte of
    /// tag-dense HTML the DFA saved 1% of the parse; its build cost 4 M instructions, half a
    /// short CLI run).
    pub(crate) fn new<S: AsRef<str>>(spellings: &[S]) -> Markers {
        let spellings: Vec<String> = spellings.iter().map(|s| s.as_ref()).filter(|s| !s.is_empty()).map(str::to_string).collect();
        let lead = Anchors::new(&spellings);
        Markers { spellings, ac: OnceLock::new(), lead, line_start: Vec::new() }
    }

    /// The same spellings, pattern `i` matching only at a line start where `line_start[i]`.
    pub(crate) fn at_line_starts(mut self, line_start: Vec<bool>) -> Markers {
        self.line_start = if line_start.iter().any(|&l| l) { line_start } else { Vec::new() };
        self
    }

    /// The same spellings with the anchor bytes searched by memchr passes, not the anchor set.
    #[cfg(test)]
    fn with_memchr_passes(&self) -> Markers {
        let mut m = Markers::new(&self.spellings).at_line_starts(self.line_start.clone());
        if let Some(lead) = &mut m.lead {
            lead.set = None;
        }
        m
    }

    /// Whether a match of pattern `pat` at `at` counts.
    fn counts(&self, s: &str, at: usize, pat: usize) -> bool {
        !self.line_start.get(pat).copied().unwrap_or(false) || at_line_start(s.as_bytes(), at)
    }

    /// The automaton, built the first time it is asked for (leftmost-longest, ASCII
    /// case-insensitive; the automaton kind changes only the cost, never a match).
    fn get(&self) -> Option<&AhoCorasick> {
        self.ac
            .get_or_init(|| {
                if self.spellings.is_empty() {
                    return None;
                }
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::LeftmostLongest)
                    .start_kind(StartKind::Both)
                    .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                    .build(&self.spellings)
                    .ok()
            })
            .as_ref()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.get().is_none()
    }

    /// The first occurrence in `s[from..to]`: (start, end, pattern).
    pub(crate) fn find(&self, s: &str, from: usize, to: usize) -> Option<(usize, usize, usize)> {
        if self.lead.as_ref().is_some_and(|l| l.set.is_none() && l.bytes.len() > 3) && self.line_start.is_empty() {
            // Two passes without a memo of the last search would read a pass with no hit to
            // the end every time: the automaton's own search stops at the first match.
            let ac = self.get()?;
            return if from >= to || to > s.len() { None } else { Self::find_in(ac, s, from, to) };
        }
        self.find_with(s, from, to, &mut Hits::default())
    }

    /// [`Self::find`] for a scan that searches the same text to the same end again and again,
    /// each time from further on: `hits` carries the memchr passes over from one search to the
    /// next, so each pass reads the text once in all.
    pub(crate) fn find_with(&self, s: &str, from: usize, to: usize, hits: &mut Hits) -> Option<(usize, usize, usize)> {
        let ac = self.get()?;
        if from >= to || to > s.len() {
            return None;
        }
        let Some(lead) = &self.lead else {
            let mut p = from;
            loop {
                let m = Self::find_in(ac, s, p, to)?;
                if self.counts(s, m.0, m.2) {
                    return Some(m);
                }
                p = m.0 + 1;
                if p >= to {
                    return None;
                }
            }
        };
        let b = s.as_bytes();
        let mut best: Option<(usize, usize, usize)> = None;
        let (mut p, mut limit) = (from, to);
        while p < limit {
            let Some(at) = first_hit(lead, b, p, limit, hits) else { break };
            p = at + 1;
            let k = lead.anchor_of[b[at] as usize] as usize - 1;
            // The byte after the anchor rules out most stops at once.
            let next = &lead.next[k];
            if next[0] != u64::MAX && !(p < to && has(next, b[p])) {
                continue;
            }
            for &j in &lead.offsets[k] {
                if j > at - from || best.is_some_and(|m| at - j >= m.0) {
                    continue;
                }
                crate::work::add(crate::work::Stage::Native, 1);
                if let Some(m) = self.try_at(lead, ac, s, at - j, to).filter(|m| self.counts(s, m.0, m.2)) {
                    // Past its start plus the reach, no hit implies an earlier start.
                    limit = (m.0 + lead.reach + 1).min(to);
                    best = Some(m);
                    break;
                }
            }
        }
        best
    }

    /// Whether `s` holds none of the anchor bytes that lead the search: then no spelling stands
    /// in it (none its next byte may follow) and [`Self::find_with`] over it finds nothing (the
    /// anchor set's pass, or one memchr pass per three bytes, stopping at the first hit).
    /// `false` where no anchor search leads.
    pub(crate) fn absent_from(&self, s: &[u8]) -> bool {
        let Some(lead) = &self.lead else { return false };
        if let Some(set) = &lead.set {
            return set.find(s, 0, s.len()).is_none();
        }
        !lead.bytes.chunks(3).any(|g| memchr_of(g, s).is_some())
    }

    /// A match starting at `st`: told by its first three bytes where they allow no spelling
    /// or only the one-byte one, else read by the anchored automaton, which reads only the
    /// spellings that start there.
    fn try_at(&self, lead: &Anchors, ac: &AhoCorasick, s: &str, st: usize, to: usize) -> Option<(usize, usize, usize)> {
        let b = s.as_bytes();
        let start = lead.starts.get((lead.first_of[b[st] as usize] as usize).checked_sub(1)?)?;
        // Where no longer spelling goes on, the one-byte spelling is the match (or none is).
        let one = || start.one.map(|p| (st, st + 1, p as usize));
        if !(st + 1 < to && has(&start.second, b[st + 1])) {
            return one();
        }
        let third = st + 2 < to && has(&start.third, b[st + 2]);
        if !start.two && !third {
            return one();
        }
        ac.find(Input::new(s).range(st..to).anchored(Anchored::Yes)).map(|m| (m.start(), m.end(), m.pattern().as_usize()))
    }

    /// Work: the bytes to the match's end, or to `to`.
    fn find_in(ac: &AhoCorasick, s: &str, from: usize, to: usize) -> Option<(usize, usize, usize)> {
        let found = ac.find(Input::new(s).range(from..to)).map(|m| (m.start(), m.end(), m.pattern().as_usize()));
        crate::work::add(crate::work::Stage::Native, found.map_or(to, |m| m.1).saturating_sub(from) + 1);
        found
    }

    /// A spelling written exactly at `at`: its end.
    pub(crate) fn at(&self, s: &str, at: usize, to: usize) -> Option<usize> {
        let ac = self.get()?;
        if at >= to || to > s.len() {
            return None;
        }
        ac.find(Input::new(s).range(at..to).anchored(Anchored::Yes)).map(|m| m.end())
    }
}

/// Which prefixes of a list (bit `i` for prefix `i`, at most 32) may start at a byte, by the
/// byte in both ASCII cases: a tag reader tests only those, not every prefix at every `<`
/// (a DSML block lists nine and meets a `<` every few bytes).
#[derive(Debug)]
pub(crate) struct Lead {
    /// Non-empty prefixes whose first byte this is.
    pub by_byte: [u32; 256],
    /// The empty prefix, which stands everywhere.
    pub empty: u32,
    /// Per prefix: the later (so not longer) non-empty prefixes it begins with, in any ASCII
    /// case: where it is written they are too, untested.
    pub implied: Vec<u32>,
    /// Per prefix: the prefixes differing from it at a byte both have (in any ASCII case):
    /// where it is written they are not, untested (`｜｜DSML｜｜` rules out `｜DSML｜`).
    pub excluded: Vec<u32>,
}

impl Lead {
    pub(crate) fn new(prefixes: &[String]) -> Lead {
        let mut lead = Lead { by_byte: [0; 256], empty: 0, implied: Vec::new(), excluded: Vec::new() };
        for (i, pre) in prefixes.iter().enumerate().take(32) {
            match pre.as_bytes().first() {
                Some(&c) => {
                    for c in [c, c.to_ascii_lowercase(), c.to_ascii_uppercase()] {
                        lead.by_byte[c as usize] |= 1 << i;
                    }
                }
                None => lead.empty |= 1 << i,
            }
            let mut implied = 0u32;
            for (j, shorter) in prefixes.iter().enumerate().take(32).skip(i + 1) {
                let w = shorter.as_bytes();
                if !w.is_empty() && w.len() <= pre.len() && pre.as_bytes()[..w.len()].eq_ignore_ascii_case(w) {
                    implied |= 1 << j;
                }
            }
            lead.implied.push(implied);
            let mut excluded = 0u32;
            for (j, other) in prefixes.iter().enumerate().take(32) {
                let (a, b) = (pre.as_bytes(), other.as_bytes());
                if a.iter().zip(b).any(|(x, y)| !x.eq_ignore_ascii_case(y)) {
                    excluded |= 1 << j;
                }
            }
            lead.excluded.push(excluded);
        }
        lead
    }
}

/// A list of element names, with what a tag search asks of the whole list worked out once: the
/// longest name's length and the first bytes the names start with (both ASCII cases).
#[derive(Debug)]
pub(crate) struct Names<'n> {
    pub list: Cow<'n, [String]>,
    /// `None` when the list is empty.
    pub longest: Option<usize>,
    /// Bit per byte: a name starts with it (every bit when a name is empty).
    pub firsts: [u64; 4],
}

impl<'n> Names<'n> {
    pub(crate) fn new(list: Vec<String>) -> Names<'static> {
        let (longest, firsts) = Names::shape(&list);
        Names { list: Cow::Owned(list), longest, firsts }
    }

    pub(crate) fn borrowed(list: &'n [String]) -> Names<'n> {
        let (longest, firsts) = Names::shape(list);
        Names { list: Cow::Borrowed(list), longest, firsts }
    }

    fn shape(list: &[String]) -> (Option<usize>, [u64; 4]) {
        let mut firsts = [0u64; 4];
        for n in list {
            match n.as_bytes().first() {
                Some(&f) => {
                    let f = f.to_ascii_lowercase();
                    firsts[f as usize / 64] |= 1 << (f % 64);
                }
                None => firsts = [u64::MAX; 4],
            }
        }
        (list.iter().map(String::len).max(), firsts)
    }
}

/// The element vocabulary of one `elements` form, composed into tag automata.
#[derive(Debug)]
pub(crate) struct Elements {
    pub def: NativeElements,
    /// Prefixes an opening or closing tag may carry inside a block, longest first.
    pub inner_prefixes: Vec<String>,
    /// Which of `inner_prefixes` may stand at a byte, by that byte (see [`Lead`]).
    pub inner_lead: Lead,
    pub sections: Names<'static>,
    /// Call element names, with the operation names when elements may be named by one.
    pub calls: Names<'static>,
    /// The sections, then the calls: every element `open_any` opens.
    pub any: Names<'static>,
    /// Argument element names.
    pub parameters: Names<'static>,
    pub open_section: Markers,
    pub close_section: Markers,
    pub open_call: Markers,
    pub close_call: Markers,
    pub open_param: Markers,
    pub close_param: Markers,
    /// Every opening tag of the family (section or call), for a missing end's limit.
    pub open_any: Markers,
    /// No section, call or parameter name holds a byte that ends a name (see `element::Lts`).
    pub plain_names: bool,
}

#[derive(Debug)]
// One per native family, built once per rule set and only read after: boxing the large variant
// would buy no memory worth an indirection on every read.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Form {
    Elements(Elements),
    Json(NativeJson),
    NameJson { prefixes: Markers, names: Markers, ids: Markers, args: Markers, args_end: Markers, index: Vec<String> },
    ArgPairs { name_end: Markers, key_start: Markers, key_end: Markers, value_start: Markers, value_end: Markers },
    Heading { prefixes: Markers },
    Pythonic { list: bool, suffixes: Vec<String> },
    Braces { prefixes: Markers, quotes: Markers },
    Tags(Tags),
}

/// A `tags` form's markers (see [`super::tags`]).
#[derive(Debug)]
pub(crate) struct Tags {
    pub def: NativeTags,
    pub open: Markers,
    pub close: Markers,
    pub tag_end: Markers,
    /// Every opening of a call element: an open marker, then a call name.
    pub open_call: Markers,
}

/// How a block is opened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Opening {
    /// By its `start` markers.
    Marker,
    /// By the opening tag of its first form (an `elements` form).
    Element,
    /// By a JSON value at a line start (a `json` form).
    Json,
    /// By a `[` at a line start (a `pythonic` list form).
    List,
    /// By the opening of a call element of its first form (a `tags` form).
    Tags,
}

#[derive(Debug)]
pub(crate) struct Block {
    pub opening: Opening,
    pub start: Markers,
    pub end: Markers,
    pub call_start: Markers,
    pub call_end: Markers,
    pub separators: Markers,
    pub call_prefixes: Markers,
    pub header_end: Markers,
    pub calls_required: bool,
    pub line_start: bool,
    pub by_name: bool,
    pub forms: Vec<Form>,
    pub recovery: NativeRecovery,
    /// Every form is a JSON call: a value naming none of [`Compiled::json_names`] is no call.
    pub json_only: bool,
    /// Every form is a call written as a Python literal dict by its name key (JSON reads too),
    /// a string literal: an emission that quotes none of [`Compiled::json_names`] in either kind
    /// of quote, in any case, and writes no backslash (an escape could spell one) holds no such
    /// call, and the block is refused unread ([`super::forms::may_name_python`]).
    pub python_only: bool,
}

impl Block {
    /// Opened by a JSON value and read only as JSON calls: refused wherever no value of the
    /// emission can name a call (the spellings [`Compiled::unnamed`] drops open only these).
    pub(crate) fn json_call_only(&self) -> bool {
        self.opening == Opening::Json && self.json_only
    }
}

/// Every family compiled: one automaton over every opening spelling.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub blocks: Vec<Block>,
    pub openings: Markers,
    /// Opening pattern → the blocks it may open, in family order.
    pub opens: Vec<Vec<usize>>,
    pub params: Option<NativeParameters>,
    /// The call-piece lists by first byte (see [`super::map::Keys`]).
    pub keys: super::map::Keys,
    /// Every JSON form's name keys, matched in any case: a value that quotes none of them
    /// names a call in no JSON family, so the blocks a `{` may open are refused together.
    pub json_names: Vec<String>,
    /// The openings less each spelling that opens JSON-only blocks alone, with the blocks each
    /// kept spelling opens: the scanner of an emission that quotes no name key anywhere (nor
    /// writes a `\u` escape, [`super::forms::may_name_anywhere`]), where every such block is
    /// refused, so the scan passes over its `{` and `[` without stopping. `None` when no
    /// spelling drops, or when a block a JSON value opens is not JSON-only (its reading could
    /// hang on what a dropped block's reading leaves, `json_unclosed`).
    pub unnamed: Option<(Markers, Vec<Vec<usize>>)>,
    /// Every family's reasoning spans (see [`Reasoning`]).
    pub reasoning: Option<Reasoning>,
}

/// The reasoning markers of every family, searched as one set: a scan meets its spans in
/// order, in one pass, and only once it has a block to place (a turn with no native block
/// pays no reasoning search).
#[derive(Debug)]
pub(crate) struct Reasoning {
    /// Every opening, then every closing.
    pub markers: Markers,
    /// How many of `markers` open a span: a pattern at or past this closes one.
    pub opens: usize,
    /// Per opening pattern, the closings of its span.
    pub closes: Vec<Markers>,
}

static BUILTIN: OnceLock<Compiled> = OnceLock::new();

/// Runs `f` with the compiled families of `rules` (cached for the built-in rules).
pub(crate) fn with<R>(rules: &Rules, f: impl FnOnce(&Compiled) -> R) -> R {
    if std::ptr::eq(rules, Rules::builtin()) {
        f(BUILTIN.get_or_init(|| compile(rules)))
    } else {
        f(&compile(rules))
    }
}

fn longest_first(mut v: Vec<String>) -> Vec<String> {
    v.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    v.dedup();
    v
}

fn tags(open: &str, prefixes: &[String], names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for p in prefixes {
        for n in names {
            out.push(format!("{open}{p}{n}"));
        }
    }
    out
}

/// A byte that ends an element's name (`element` reads a name to one; the names holding none
/// are plain, `Elements::plain_names`).
#[inline]
pub(crate) fn boundary_byte(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'>' | b'/' | b'=' | b'(')
}

fn elements(def: &NativeElements, rules: &Rules) -> Elements {
    let mut inner = def.prefixes.clone();
    if def.bare_inside {
        inner.push(String::new());
    }
    let inner_prefixes = longest_first(inner);
    let mut calls = def.calls.clone();
    if def.operation_elements {
        calls.extend(rules.tables.operations.iter().map(|o| o.name.clone()));
    }
    let calls = longest_first(calls);
    let sections = longest_first(def.sections.clone());
    let mut any: Vec<String> = sections.clone();
    any.extend(calls.iter().cloned());
    Elements {
        open_section: Markers::new(&tags("<", &inner_prefixes, &sections)),
        close_section: Markers::new(&tags("</", &inner_prefixes, &sections)),
        open_call: Markers::new(&tags("<", &inner_prefixes, &calls)),
        close_call: Markers::new(&tags("</", &inner_prefixes, &calls)),
        open_param: Markers::new(&tags("<", &inner_prefixes, &def.parameters)),
        close_param: Markers::new(&tags("</", &inner_prefixes, &def.parameters)),
        open_any: Markers::new(&tags("<", &inner_prefixes, &any)),
        plain_names: any.iter().chain(&def.parameters).all(|n| !n.bytes().any(boundary_byte)),
        def: def.clone(),
        inner_lead: Lead::new(&inner_prefixes),
        inner_prefixes,
        sections: Names::new(sections),
        calls: Names::new(calls),
        any: Names::new(any),
        parameters: Names::new(def.parameters.clone()),
    }
}

fn form(f: &NativeForm, rules: &Rules) -> Form {
    match f {
        NativeForm::Elements(e) => Form::Elements(elements(e, rules)),
        NativeForm::Json(j) => Form::Json(j.clone()),
        NativeForm::NameJson(n) => Form::NameJson {
            prefixes: Markers::new(&n.name_prefixes),
            names: Markers::new(&n.name_markers),
            ids: Markers::new(&n.id_markers),
            args: Markers::new(&n.arguments_start),
            args_end: Markers::new(&n.arguments_end),
            index: n.index_separators.clone(),
        },
        NativeForm::ArgPairs(a) => Form::ArgPairs {
            name_end: Markers::new(&a.name_end),
            key_start: Markers::new(&a.key_start),
            key_end: Markers::new(&a.key_end),
            value_start: Markers::new(&a.value_start),
            value_end: Markers::new(&a.value_end),
        },
        NativeForm::Heading(h) => Form::Heading { prefixes: Markers::new(&h.prefixes) },
        NativeForm::Pythonic(p) => Form::Pythonic { list: p.list, suffixes: p.name_suffixes.clone() },
        NativeForm::Braces(b) => Form::Braces { prefixes: Markers::new(&b.name_prefixes), quotes: Markers::new(&b.string_quotes) },
        NativeForm::Tags(t) => {
            let mut calls = Vec::new();
            for o in &t.open {
                for c in &t.calls {
                    calls.push(format!("{o}{c}"));
                }
            }
            Form::Tags(Tags {
                open: Markers::new(&t.open),
                close: Markers::new(&t.close),
                tag_end: Markers::new(&t.tag_end),
                open_call: Markers::new(&calls),
                def: t.clone(),
            })
        }
    }
}

pub(crate) fn compile(rules: &Rules) -> Compiled {
    let mut blocks = Vec::new();
    // Opening spelling (lowercased) → blocks, in family then block order.
    let mut spellings: Vec<(String, Vec<usize>)> = Vec::new();
    let add = |spelling: String, block: usize, spellings: &mut Vec<(String, Vec<usize>)>| {
        let key = spelling.to_ascii_lowercase();
        match spellings.iter_mut().find(|(s, _)| *s == key) {
            Some((_, v)) => {
                if !v.contains(&block) {
                    v.push(block)
                }
            }
            None => spellings.push((key, vec![block])),
        }
    };
    let mut json_names: Vec<String> = Vec::new();
    for fam in &rules.tables.native {
        for b in &fam.blocks {
            let forms: Vec<Form> = b.forms.iter().map(|f| form(f, rules)).collect();
            let index = blocks.len();
            let opening = if !b.start.is_empty() {
                for s in &b.start {
                    add(s.clone(), index, &mut spellings);
                }
                Opening::Marker
            } else {
                match forms.first() {
                    Some(Form::Elements(e)) => {
                        let listed = longest_first(e.def.prefixes.clone());
                        let mut names = e.sections.list.to_vec();
                        names.extend(e.calls.list.iter().cloned());
                        for s in tags("<", &listed, &names) {
                            add(s, index, &mut spellings);
                        }
                        Opening::Element
                    }
                    Some(Form::Json(j)) if j.python => {
                        add("[".into(), index, &mut spellings);
                        Opening::List
                    }
                    Some(Form::Json(j)) => {
                        add("{".into(), index, &mut spellings);
                        if j.array {
                            add("[".into(), index, &mut spellings);
                        }
                        Opening::Json
                    }
                    Some(Form::Pythonic { list: true, .. }) => {
                        add("[".into(), index, &mut spellings);
                        Opening::List
                    }
                    Some(Form::Tags(t)) => {
                        for o in &t.def.open {
                            for c in &t.def.calls {
                                add(format!("{o}{c}"), index, &mut spellings);
                            }
                        }
                        Opening::Tags
                    }
                    // A block with no start marker opens only with its form's own markup; the
                    // schema cannot say which forms have some, so another never opens.
                    _ => Opening::Marker,
                }
            };
            let json_only = !forms.is_empty() && forms.iter().all(|f| matches!(f, Form::Json(j) if !j.keyed && !j.python));
            let python_only = !forms.is_empty() && forms.iter().all(|f| matches!(f, Form::Json(j) if !j.keyed && j.python));
            for f in &forms {
                if let Form::Json(j) = f {
                    json_names.extend(j.name_keys.iter().cloned());
                }
            }
            blocks.push(Block {
                json_only,
                python_only,
                opening,
                start: Markers::new(&b.start),
                end: Markers::new(&b.end),
                call_start: Markers::new(&b.call_start),
                call_end: Markers::new(&b.call_end),
                separators: Markers::new(&b.separators),
                call_prefixes: Markers::new(&b.call_prefixes),
                header_end: Markers::new(&b.header_end),
                calls_required: b.calls_required,
                line_start: b.line_start,
                by_name: b.by_name,
                forms,
                recovery: b.recovery.clone(),
            });
        }
    }
    // The scan reports the longest spelling at a place: where a longer one is written, every
    // shorter one it begins with is written too (`<function_calls>` holds `<function_calls`),
    // so the longer opens their blocks as well, in family order.
    let shorter: Vec<Vec<usize>> = spellings
        .iter()
        .map(|(long, _)| {
            let mut more: Vec<usize> = spellings
                .iter()
                .filter(|(short, _)| short.len() < long.len() && long.starts_with(short.as_str()))
                .flat_map(|(_, v)| v.iter().copied())
                .collect();
            more.sort_unstable();
            more
        })
        .collect();
    for ((_, v), more) in spellings.iter_mut().zip(shorter) {
        for b in more {
            if !v.contains(&b) {
                v.push(b);
            }
        }
        v.sort_unstable();
    }
    let pats: Vec<&str> = spellings.iter().map(|(s, _)| s.as_str()).collect();
    // A spelling whose every block opens only at a line start matches only there.
    let line_start = |v: &[usize]| v.iter().all(|&b| blocks[b].line_start);
    let openings = Markers::new(&pats).at_line_starts(spellings.iter().map(|(_, v)| line_start(v)).collect());
    let kept: Vec<&(String, Vec<usize>)> = spellings.iter().filter(|(_, v)| !v.iter().all(|&b| blocks[b].json_call_only())).collect();
    let json_blocks_json_only = blocks.iter().filter(|b| b.opening == Opening::Json).all(|b| b.json_only);
    let unnamed = (json_blocks_json_only && kept.len() < spellings.len()).then(|| {
        let pats: Vec<&str> = kept.iter().map(|(s, _)| s.as_str()).collect();
        // A kept spelling opens only its other blocks there: the JSON-only ones are refused.
        let their: Vec<Vec<usize>> =
            kept.iter().map(|(_, v)| v.iter().copied().filter(|&b| !blocks[b].json_call_only()).collect()).collect();
        let flags = their.iter().map(|v| line_start(v)).collect();
        (Markers::new(&pats).at_line_starts(flags), their)
    });
    let opens = spellings.into_iter().map(|(_, v)| v).collect();
    let keys = rules.tables.native_parameters.as_ref().map(super::map::Keys::new).unwrap_or_default();
    json_names.sort_by_key(|k| k.to_ascii_lowercase());
    json_names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    let (mut opens_r, mut closes_r, mut all_ends): (Vec<String>, Vec<Vec<String>>, Vec<String>) = Default::default();
    for span in rules.tables.native.iter().flat_map(|f| &f.reasoning) {
        for o in &span.start {
            opens_r.push(o.clone());
            closes_r.push(span.end.clone());
        }
        all_ends.extend(span.end.iter().cloned());
    }
    let reasoning = (!opens_r.is_empty()).then(|| {
        let opens = opens_r.len();
        opens_r.extend(all_ends);
        Reasoning { markers: Markers::new(&opens_r), opens, closes: closes_r.iter().map(|e| Markers::new(e)).collect() }
    });
    Compiled { blocks, openings, opens, params: rules.tables.native_parameters.clone(), keys, json_names, unnamed, reasoning }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(m: &Markers) -> bool {
        m.ac.get().is_some()
    }

    /// §native-tool-call-receipt: outside text holding none of the openings' anchor bytes is
    /// not scanned; that is sound only if no opening can be found in it, and text holding an
    /// opening is never passed over.
    #[test]
    fn native_tool_call_receipt_anchorless_text_holds_no_opening() {
        let c = compile(Rules::builtin());
        let o = &c.openings;
        for s in ["Plain prose, no markup at all.\n", "Ça coûte 3 € — voilà.\r\n\tfin", "", "a) b) c) \"quoted\" 'x' `code`"] {
            assert!(o.absent_from(s.as_bytes()), "{s:?}");
            assert_eq!(o.find(s, 0, s.len()), None, "{s:?}");
        }
        // `x < y`: a `<` before a space begins no spelling, so the anchor set passes it over too
        // (the memchr passes, off AVX2, stop at every anchor byte).
        if o.lead.as_ref().is_some_and(|l| l.set.is_some()) {
            assert!(o.absent_from(b"x < y, 2 > 1"));
        }
        for s in ["before <tool_call>{\"name\": \"x\"}</tool_call>", "[{\"name\": \"read\", \"arguments\": {}}]", "x <t"] {
            assert!(!o.absent_from(s.as_bytes()), "{s:?}");
        }
    }

    /// Start-up: compiling the families builds no automaton; a turn with no native markup
    /// builds the opening scanner alone, and a family's markers are built when its markup is met.
    #[test]
    fn native_tool_calls_markers_are_built_on_first_use() {
        let c = compile(Rules::builtin());
        let every_block_marker =
            |c: &Compiled| c.blocks.iter().flat_map(|b| [&b.start, &b.end, &b.call_start, &b.call_end, &b.separators]).any(built);
        assert!(!built(&c.openings) && !every_block_marker(&c));
        let prose = "Plain prose, no markup at all.\n";
        assert_eq!(c.openings.find(prose, 0, prose.len()), None);
        assert!(built(&c.openings) && !every_block_marker(&c));
        // A marker answers the same whether it was built before or by this call.
        let m = Markers::new(&["</INVOKE>", "</tool_call>"]);
        assert_eq!(m.find("x </invoke> y", 0, 13), Some((2, 11, 0)));
        assert_eq!(m.at("x </Tool_Call>", 2, 14), Some(14));
        assert!(Markers::new::<&str>(&[]).is_empty() && Markers::new(&[""]).is_empty());
    }

    /// The first-byte search agrees with the automaton alone, for the opening scanner and for
    /// marker sets anchored on one to six bytes (past the first: `functools[` on its `[`,
    /// `]<]x` on its `<`, `x|y<` found after the `|` inside it), one-byte spellings alone or
    /// leading longer ones, in any case, a set with too many anchors for memchr, and spellings
    /// that match only at a line start (§native-tool-calls: the JSON and list blocks' brackets).
    #[test]
    fn native_tool_calls_anchor_search_agrees_with_the_automaton() {
        let c = compile(Rules::builtin());
        let sets = [
            Markers::new(&["{", "{x", "[TOOL_CALLS]"]),
            Markers::new(&["a", "B", "<c"]),
            Markers::new(&["<|", "x"]),
            Markers::new(&["é", "[", "{"]),
            Markers::new(&["<a", "<b", "[", "{", "x"]),
            Markers::new(&["a", "A", "ab"]),
            Markers::new(&["q", "Q"]),
            Markers::new(&["<Ab", "<|x", "[T"]),
            Markers::new(&["<", "<a", "{"]),
            Markers::new(&["functools[", "[", ">>>", "]<]x", "fx"]),
            Markers::new(&["ab<", "b<", "<"]),
            Markers::new(&["|", "x|y<"]),
            Markers::new(&["a", "b", "c", "d", "e", "f", "g"]),
            Markers::new(&["{", "[", "[TOOL_CALLS]", "<a"]).at_line_starts(vec![true, true, false, false]),
            Markers::new(&["{", "[t", "a", "b", "c", "d", "e"]).at_line_starts(vec![true, true, false, false, true, false, false]),
        ];
        assert!(c.openings.lead.is_some(), "the openings take the anchor search");
        assert!(c.openings.line_start.iter().filter(|&&l| l).count() >= 2, "the openings' `{{` and `[` match at line starts only");
        let mut all: Vec<&Markers> = sets.iter().collect();
        all.push(&c.openings);
        // The same sets searched by memchr passes, as on a CPU without AVX2.
        let passes: Vec<Markers> = all.iter().map(|m| m.with_memchr_passes()).collect();
        all.extend(&passes);
        const PIECES: &[&str] = &[
            "<",
            "[",
            "{",
            "x",
            "X",
            "a",
            "A",
            "b",
            "<A",
            "<aB",
            "[t",
            "<INVOKE",
            "<Tool_Call>",
            "<|X",
            " ",
            "\n",
            "é",
            "[TOOL_CALLS]",
            "{x",
            "<c",
            "<|",
            "<invoke",
            "<function_calls",
            "<｜DSML｜",
            "<tool_call>",
            "<!--",
            "functools[",
            "f",
            ">>>",
            "]<]x",
            "fx",
            "ab<",
            "x|y<",
            "|",
            "c",
            "g",
            "\t",
        ];
        // The leftmost start where the anchored automaton matches, its longest match there, in
        // a place the pattern may match.
        let first = |m: &Markers, s: &str, from: usize, to: usize| {
            let ac = m.get().unwrap();
            (from..to).find_map(|st| {
                let got = ac.find(Input::new(s).range(st..to).anchored(Anchored::Yes))?;
                let l = m.line_start.get(got.pattern().as_usize()).copied().unwrap_or(false);
                (!l || s[..st].trim_end_matches([' ', '\t']).is_empty() || s[..st].trim_end_matches([' ', '\t']).ends_with('\n'))
                    .then(|| (got.start(), got.end(), got.pattern().as_usize()))
            })
        };
        let check = |s: &str| {
            for m in &all {
                // One memo per end, carried over searches from rising starts, as a scan does.
                let mut carried = Hits::default();
                for from in (0..=s.len()).filter(|&p| s.is_char_boundary(p)) {
                    for to in [s.len(), (from + 3).min(s.len())] {
                        let want = if from >= to { None } else { first(m, s, from, to) };
                        assert_eq!(m.find(s, from, to), want, "{s:?} {from}..{to} {:?}", m.spellings);
                        assert_eq!(m.find_with(s, from, to, &mut Hits::default()), want, "fresh {s:?} {from}..{to} {:?}", m.spellings);
                    }
                    let want = if from >= s.len() { None } else { first(m, s, from, s.len()) };
                    assert_eq!(m.find_with(s, from, s.len(), &mut carried), want, "carried {s:?} {from} {:?}", m.spellings);
                }
            }
        };
        bolero::check!().with_type::<Vec<u8>>().with_iterations(3_000).with_max_len(10).for_each(|bytes: &Vec<u8>| {
            let s: String = bytes.iter().map(|b| PIECES[*b as usize % PIECES.len()]).collect();
            check(&s);
        });
    }
}
