//! Line scanning and line classification (§pairing-algorithm: "each line is classified by the
//! lexer's line-start rules").
//!
//! Lines are found with `memchr`; each is classified by looking only at its first bytes, so prose
//! is skipped at memchr speed. No regular expression runs over the input.

use crate::rules::Rules;

/// One physical line: `[start, end)` excludes its line ending (LF or CRLF; a lone CR is content,
/// §parser-position); [`Line::next`] gives where the following line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// The line's first byte.
    pub start: usize,
    /// Its end, before the line ending.
    pub end: usize,
}

impl Line {
    /// Where the next line starts in `input` (its length after the last line): not stored, as
    /// one caller asks it and every line of a 32 MB turn would carry it (a third of the table).
    pub fn next(&self, input: &[u8]) -> usize {
        match input.get(self.end) {
            None => input.len(),
            Some(b'\r') => self.end + 2,
            Some(_) => self.end + 1,
        }
    }
}

/// Splits `input` into lines. The last line may be empty only when the input is empty.
pub fn lines(input: &str) -> Vec<Line> {
    let mut out = Vec::with_capacity(input.len() / 40 + 1);
    lines_into(input, &mut out);
    out
}

/// [`lines`] into a reused buffer (cleared first).
pub fn lines_into(input: &str, out: &mut Vec<Line>) {
    out.clear();
    crate::work::add(crate::work::Stage::Lines, input.len());
    let bytes = input.as_bytes();
    #[cfg(target_arch = "x86_64")]
    {
        // Two 32-byte compares per 64 bytes instead of four: the split of a long prose answer is
        // most of its parse (the detection is one cached load after the first call).
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            unsafe {
                if bytes.len() >= LONG_INPUT {
                    split_avx2::<true>(bytes, out)
                } else {
                    split_avx2::<false>(bytes, out)
                }
            };
            return;
        }
    }
    if bytes.len() >= LONG_INPUT {
        split_portable::<true>(bytes, out)
    } else {
        split_portable::<false>(bytes, out)
    }
}

/// The input length from which the split passes over chunks that end no line (see
/// `emit_lines`): well above a model turn's (a few kilobytes), where a long prose answer's
/// chunks are mostly inside its paragraphs.
const LONG_INPUT: usize = 32 * 1024;

/// The line split over 64-byte masks, with the mask function `$mask` (newlines, carriage
/// returns). Lines of a model turn are short (tens of bytes), where one `memchr` call per line
/// costs more than the search: 64 bytes at a time become bit masks, and each set newline bit is
/// a line end. One body for both mask functions, so the AVX2 copy and the portable one cannot
/// drift apart.
///
/// A chunk's first [`EAGER`] line ends are written whether or not it has that many (a slot past
/// the count is written over later), so the usual chunk of one or two line ends costs no
/// branch on how many it has: a loop over the bits would end at a different count every chunk,
/// a branch the predictor learns only by memorising the input, and loses whenever other code
/// has run. A CRLF is read from the carriage-return mask, not by a load and compare per line.
macro_rules! split_lines {
    ($bytes:expr, $out:expr, $long:expr, $mask:expr) => {{
        let bytes: &[u8] = $bytes;
        let out: &mut Vec<Line> = $out;
        let mut start = 0;
        // Bit 63 of the last chunk's carriage returns: a CR ending one chunk before an LF
        // starting the next.
        let mut cr_carry = 0u64;
        let mut base = 0;
        while bytes.len() - base >= 64 {
            // SAFETY: `base + 64 <= bytes.len()`.
            let (nl, cr): (u64, u64) = $mask(unsafe { chunk_at(bytes, base) });
            emit_lines::<{ $long }>(out, nl, cr << 1 | cr_carry, base, &mut start, bytes.len());
            cr_carry = cr >> 63;
            base += 64;
        }
        // The last, short chunk: most turns are a few hundred bytes, where `memchr`'s per-call
        // dispatch costs more. In a turn of 64 bytes or more it is masked as the turn's last 64
        // bytes shifted down (the bytes read before fall off; zeros come in past the end): a
        // zero-padded copy is loaded right after its stores, which stalled every parse
        // (`perf annotate`). A shorter turn is masked from the copy (a zero byte is neither).
        if base < bytes.len() {
            let (nl, cr): (u64, u64) = if bytes.len() >= 64 {
                let last = bytes.len() - 64;
                // SAFETY: `last + 64 == bytes.len()`; `last < base`, by less than 64.
                let (nl, cr): (u64, u64) = $mask(unsafe { chunk_at(bytes, last) });
                (nl >> (base - last), cr >> (base - last))
            } else {
                $mask(&chunk_padded(bytes, base))
            };
            emit_lines::<{ $long }>(out, nl, cr << 1 | cr_carry, base, &mut start, bytes.len());
        }
        if start < bytes.len() || out.is_empty() {
            out.push(Line { start, end: bytes.len() });
        }
    }};
}

/// Room for `need` more lines, the split having read `read` of `total` bytes: the lines to come
/// are guessed from those so far, so a turn of even lines grows its table once, not by doubling
/// (each doubling of a 32 MB turn's table was a fresh mapping), and is not counted in an extra
/// pass either. The table at least doubles, so a guess too small still costs linear time.
#[cold]
#[inline(never)]
fn grow(out: &mut Vec<Line>, read: usize, total: usize, need: usize) {
    // Too little read to guess from: doubling, as a vector grows.
    if read < 1 << 16 {
        out.reserve(need);
        return;
    }
    let guess = ((out.len() as u128 * (total - read) as u128) / read as u128) as usize;
    // A sixteenth over the guess, and a chunk's eager slots past the last line.
    let more = (guess + guess / 16 + 2 * EAGER).max(out.capacity()).max(need);
    out.reserve_exact(more);
}

/// How many line ends of a chunk [`emit_lines`] writes without a branch on their count: a
/// model's turn has four or fewer in 95% of its chunks (a third have none), so the loop past
/// them runs for few chunks, and each eager slot is a write whether the chunk fills it or not.
const EAGER: usize = 4;

/// Appends the lines ending in one 64-byte chunk at `base`: `nl` has a bit per newline,
/// `cr_before` a bit where the byte before is a carriage return. `start` is where the next line
/// starts, moved past the chunk's last newline.
#[inline(always)]
fn emit_lines<const LONG: bool>(out: &mut Vec<Line>, nl: u64, cr_before: u64, base: usize, start: &mut usize, total: usize) {
    // In a long input, most chunks lie inside a long line (prose) and end none: they are
    // passed over. In a turn, chunks with and without a line end mix, and the branch would
    // cost more than the writes it saves.
    if LONG && nl == 0 {
        return;
    }
    let n = nl.count_ones() as usize;
    if out.capacity() - out.len() < EAGER.max(n) {
        grow(out, base, total, EAGER.max(n));
    }
    let len = out.len();
    let mut m = nl;
    let mut s = *start;
    let p = out.as_mut_ptr();
    // Writes slot `k` from the lowest bit left in `m`. Past the last set bit `tz` is 64: the
    // slot is written and left out of the length.
    let mut put = |k: usize| {
        let tz = m.trailing_zeros() as usize;
        let at = base + tz;
        let cr = ((cr_before >> (tz & 63)) & 1) as usize;
        // SAFETY: `reserve` left room for `EAGER.max(n)` lines past `len`, and `k` is below it.
        unsafe { p.add(len + k).write(Line { start: s, end: at - cr }) };
        s = at + 1;
        m &= m.wrapping_sub(1);
    };
    for k in 0..EAGER {
        put(k);
    }
    // A chunk of many short lines: the rest one by one.
    for k in EAGER..n {
        put(k);
    }
    // SAFETY: the first `n` slots past `len` are written.
    unsafe { out.set_len(len + n) };
    // The next line starts after the chunk's last newline, if it has one.
    let last = base + 64 - nl.leading_zeros() as usize;
    *start = if nl != 0 { last } else { *start };
}

/// The 64 bytes of `bytes` from `at`, without a bounds check.
///
/// # Safety
/// `at + 64 <= bytes.len()`.
#[inline(always)]
unsafe fn chunk_at(bytes: &[u8], at: usize) -> &[u8; 64] {
    debug_assert!(at + 64 <= bytes.len());
    // SAFETY: in bounds by the caller's promise; `[u8; 64]` has the alignment of `u8`.
    unsafe { &*(bytes.as_ptr().add(at) as *const [u8; 64]) }
}

/// The split with SSE2 masks (or a byte loop off x86_64).
fn split_portable<const LONG: bool>(bytes: &[u8], out: &mut Vec<Line>) {
    split_lines!(bytes, out, LONG, |c: &[u8; 64]| (newline_mask(c), byte_mask(c, b'\r')))
}

/// The split with AVX2 masks.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn split_avx2<const LONG: bool>(bytes: &[u8], out: &mut Vec<Line>) {
    split_lines!(bytes, out, LONG, |c: &[u8; 64]| {
        use std::arch::x86_64::{__m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8};
        // SAFETY: AVX2 is enabled on this function; each load reads 32 of the 64 bytes.
        unsafe {
            let (a, b) = (_mm256_loadu_si256(c.as_ptr() as *const __m256i), _mm256_loadu_si256(c.as_ptr().add(32) as *const __m256i));
            let (nl, cr) = (_mm256_set1_epi8(b'\n' as i8), _mm256_set1_epi8(b'\r' as i8));
            let bits = |v| _mm256_movemask_epi8(v) as u32 as u64;
            (
                bits(_mm256_cmpeq_epi8(a, nl)) | bits(_mm256_cmpeq_epi8(b, nl)) << 32,
                bits(_mm256_cmpeq_epi8(a, cr)) | bits(_mm256_cmpeq_epi8(b, cr)) << 32,
            )
        }
    })
}

/// Line `n` (0-based) of `input`, found without building the line table.
pub fn line_at(input: &str, n: usize) -> Option<Line> {
    let bytes = input.as_bytes();
    let start = if n == 0 { 0 } else { memchr::memchr_iter(b'\n', bytes).nth(n - 1)? + 1 };
    crate::work::add(crate::work::Stage::Scan, start);
    if start > bytes.len() || (start == bytes.len() && n > 0) {
        return None;
    }
    let nl = memchr::memchr(b'\n', &bytes[start..]).map(|k| start + k);
    Some(match nl {
        Some(nl) => Line { start, end: if nl > start && bytes[nl - 1] == b'\r' { nl - 1 } else { nl } },
        None => Line { start, end: bytes.len() },
    })
}

/// Bit `k` set where `chunk[k]` is a newline.
#[inline]
fn newline_mask(chunk: &[u8; 64]) -> u64 {
    byte_mask(chunk, b'\n')
}

/// Bit `k` set where `chunk[k]` is `byte`.
#[inline]
pub fn byte_mask(chunk: &[u8; 64], byte: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of the x86_64 baseline; each load reads 16 of the 64 bytes.
        unsafe {
            let nl = _mm_set1_epi8(byte as i8);
            let mut mask = 0u64;
            for k in 0..4 {
                let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k) as *const __m128i);
                mask |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) as u16 as u64) << (16 * k);
            }
            mask
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut mask = 0u64;
        for (k, &b) in chunk.iter().enumerate() {
            mask |= u64::from(b == byte) << k;
        }
        mask
    }
}

/// The 64 bytes of `bytes` from `at`, zero-padded past its end (a zero byte matches no byte
/// a mask is asked for here).
#[inline]
pub fn chunk_padded(bytes: &[u8], at: usize) -> [u8; 64] {
    if let Some(c) = bytes.get(at..at + 64) {
        return c.try_into().expect("64 bytes");
    }
    let mut pad = [0u8; 64];
    let n = bytes.len().saturating_sub(at).min(64);
    pad[..n].copy_from_slice(&bytes[at..at + n]);
    pad
}

/// The first `needle` in `hay`, for haystacks that are one heading, slot or tag: below 32 bytes a
/// plain loop, inlined at the call, beats `memchr`'s dispatched call (an indirect jump and its
/// setup cost more than the bytes); longer haystacks still go to `memchr`.
#[inline]
pub fn find_byte(needle: u8, hay: &[u8]) -> Option<usize> {
    let found = if hay.len() < 32 { hay.iter().position(|&b| b == needle) } else { memchr::memchr(needle, hay) };
    crate::work::add(crate::work::Stage::Scan, found.map_or(hay.len(), |k| k + 1));
    found
}

/// The first occurrence of `needle` in `hay` (as `str::find`), for the short haystacks of a heading:
/// its first byte by [`find_byte`], then a compare (a `str` pattern search builds a two-way
/// searcher per call, which costs more than a heading's bytes).
#[inline]
pub fn find_str(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else { return Some(0) };
    let mut at = 0;
    while let Some(k) = find_byte(first, &hay[at..]) {
        let i = at + k;
        if hay[i + 1..].starts_with(rest) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The last occurrence of `needle` in `hay` (as `str::rfind`; see [`find_str`]).
#[inline]
pub fn rfind_str(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let last = hay.len().checked_sub(needle.len())?;
    let found = (0..=last).rev().find(|&i| hay[i..].starts_with(needle));
    crate::work::add(crate::work::Stage::Scan, hay.len() - found.unwrap_or(0));
    found
}

/// The first byte at or after `from` in `hay` that is one of `set`, or `hay.len()`: the search a
/// heading's reading runs between its slot delimiters (§heading-slot-order). Heading lines are
/// tens of bytes, where `memchr3`'s dispatched call costs more than the bytes and a byte loop
/// pays a compare per needle per byte: 16 bytes are tested per step, and a short tail is tested
/// as the line's last 16 bytes (overlapping, the bytes before `from` masked off), so no byte past
/// the slice is read.
#[inline(always)]
pub fn find_of<const N: usize>(hay: &[u8], from: usize, set: [u8; N]) -> usize {
    let at = find_of_uncounted(hay, from, set);
    crate::work::add(crate::work::Stage::Scan, at.saturating_sub(from) + 1);
    at
}

#[inline(always)]
fn find_of_uncounted<const N: usize>(hay: &[u8], from: usize, set: [u8; N]) -> usize {
    let len = hay.len();
    let mut i = from;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128,
        };
        // Bit `k` set where `hay[at + k]` is in `set`.
        let mask = |at: usize| -> u32 {
            debug_assert!(at + 16 <= len);
            // SAFETY: SSE2 is part of the x86_64 baseline; `at + 16 <= hay.len()` at every call.
            unsafe {
                let v = _mm_loadu_si128(hay.as_ptr().add(at) as *const __m128i);
                let mut m = _mm_setzero_si128();
                for &c in &set {
                    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
                }
                _mm_movemask_epi8(m) as u32
            }
        };
        while i + 16 <= len {
            let m = mask(i);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i >= len {
            return len;
        }
        if len >= 16 {
            let base = len - 16;
            let m = mask(base) >> (i - base);
            return if m != 0 { i + m.trailing_zeros() as usize } else { len };
        }
    }
    while i < len && !set.contains(&hay[i]) {
        i += 1;
    }
    i.min(len)
}

/// Up to eight anchor bytes, each with the bytes that may follow it, searched 32 positions a
/// step by their nibbles (AVX2 `vpshufb`, as Teddy does): the native openings' anchors (`<`,
/// `{`, `[`, `>`) are found in one pass over a turn, and an anchor whose next byte cannot go on
/// with it (`>` before anything but `>`, `<` before a space or a digit) is passed over in the
/// step, not at a stop per byte (memchr takes three bytes a pass, and each stop cost two calls).
///
/// Each anchor owns a bit: `lo[b & 15] & hi[b >> 4]` holds exactly the anchors `b` is, and the
/// follower tables, built the same way from the nibbles of every follower, hold a superset of
/// the anchors `b` may follow. A position is a candidate where the two meet; the caller still
/// tests the follower exactly. `None` without AVX2 (the caller keeps its memchr passes).
#[derive(Debug, Clone)]
pub struct AnchorSet {
    lo: [u8; 16],
    hi: [u8; 16],
    next_lo: [u8; 16],
    next_hi: [u8; 16],
    /// The anchors any byte (or the end of the text) may follow.
    ends: u8,
}

impl AnchorSet {
    /// `anchors`: each byte with its followers as a 256-bit set (all ones: anything, the end
    /// included).
    pub fn new(anchors: &[(u8, [u64; 4])]) -> Option<AnchorSet> {
        if anchors.is_empty() || anchors.len() > 8 || !avx2() {
            return None;
        }
        let mut set = AnchorSet { lo: [0; 16], hi: [0; 16], next_lo: [0; 16], next_hi: [0; 16], ends: 0 };
        for (i, &(c, next)) in anchors.iter().enumerate() {
            let bit = 1u8 << i;
            set.lo[(c & 15) as usize] |= bit;
            set.hi[(c >> 4) as usize] |= bit;
            if next == [u64::MAX; 4] {
                set.ends |= bit;
            }
            for d in (0..=255u8).filter(|&d| next[d as usize / 64] & (1 << (d % 64)) != 0) {
                set.next_lo[(d & 15) as usize] |= bit;
                set.next_hi[(d >> 4) as usize] |= bit;
            }
        }
        Some(set)
    }

    /// Whether position `k` of `b` is a candidate.
    #[inline(always)]
    fn at(&self, b: &[u8], k: usize) -> bool {
        let c = b[k];
        let first = self.lo[(c & 15) as usize] & self.hi[(c >> 4) as usize];
        let follow = match b.get(k + 1) {
            Some(&d) => self.next_lo[(d & 15) as usize] & self.next_hi[(d >> 4) as usize],
            None => self.ends,
        };
        first & follow != 0
    }

    /// The first candidate position in `from..to`: an anchor byte whose next byte (read past
    /// `to` where the text goes on) may follow it. Told by the bytes at and after a position
    /// alone, so a memo of one search holds for a later one from further on.
    #[inline]
    pub fn find(&self, b: &[u8], from: usize, to: usize) -> Option<usize> {
        let to = to.min(b.len());
        if from >= to {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `AnchorSet` is built only where the CPU has AVX2 (`AnchorSet::new`).
        return unsafe { find_anchor_avx2(self, b, from, to) };
        #[cfg(not(target_arch = "x86_64"))]
        (from..to).find(|&k| self.at(b, k))
    }
}

#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2() -> bool {
    false
}

/// [`AnchorSet::find`] 32 positions a step (each step reads 33 bytes: the positions and the
/// byte after the last). The last positions are one step read past `to` where the text goes on
/// (bits past `to` masked off), or a step ending a byte before the text's end (overlapping, the
/// bits before the position masked off) and the last byte by itself; a text under 33 bytes is
/// read position by position.
///
/// # Safety
/// The CPU must support AVX2; `from < to <= b.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_anchor_avx2(set: &AnchorSet, b: &[u8], from: usize, to: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm_loadu_si128,
    };
    // SAFETY: AVX2 is enabled on this function; every load reads 32 bytes inside `b`.
    unsafe {
        let table = |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr() as *const __m128i));
        let (lo, hi, next_lo, next_hi) = (table(&set.lo), table(&set.hi), table(&set.next_lo), table(&set.next_hi));
        let nibble = _mm256_set1_epi8(0x0f);
        let classes = |v: __m256i, lo: __m256i, hi: __m256i| {
            _mm256_and_si256(
                _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
                _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
            )
        };
        // Bit `k` set where position `at + k` is a candidate (reads `b[at..at + 33]`).
        let mask = |at: usize| -> u32 {
            debug_assert!(at + 33 <= b.len());
            let v = _mm256_loadu_si256(b.as_ptr().add(at) as *const __m256i);
            let n = _mm256_loadu_si256(b.as_ptr().add(at + 1) as *const __m256i);
            let both = _mm256_and_si256(classes(v, lo, hi), classes(n, next_lo, next_hi));
            !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(both, _mm256_setzero_si256())) as u32)
        };
        let mut i = from;
        while i + 32 <= to && i + 33 <= b.len() {
            let m = mask(i);
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 32;
        }
        if i >= to {
            return None;
        }
        let keep = |m: u32, n: usize| if n >= 32 { m } else { m & ((1u32 << n) - 1) };
        let m = if i + 33 <= b.len() {
            keep(mask(i), to - i)
        } else if b.len() >= 33 {
            // The step ending before the last byte, from at or before `i`.
            let base = b.len() - 33;
            keep(mask(base).checked_shr((i - base) as u32).unwrap_or(0), to - i)
        } else {
            return (i..to).find(|&k| set.at(b, k));
        };
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        // Only the text's last byte is left unread by the steps.
        (to == b.len() && set.at(b, to - 1)).then_some(to - 1)
    }
}

/// Code points in `s` (a column count, §parser-position).
#[inline]
pub fn columns(s: &str) -> u32 {
    crate::work::add(crate::work::Stage::Columns, s.len());
    columns_of(s.as_bytes())
}

/// Code points in `b`, any byte range: a byte that is no continuation byte starts one, so the
/// counts of two adjacent ranges add up even where a character straddles them.
/// Eight bytes a step: a continuation byte is `10xxxxxx`, its bit 7 set and bit 6 clear.
#[inline]
fn columns_of(b: &[u8]) -> u32 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut steps = b.chunks_exact(8);
    let mut continuation = 0u64;
    for step in &mut steps {
        let w = u64::from_le_bytes(step.try_into().expect("eight bytes"));
        // Bit 7 of each byte that continues a character, summed across the bytes.
        let c = (w & !(w << 1) & HIGH) >> 7;
        continuation += c.wrapping_mul(0x0101_0101_0101_0101) >> 56;
    }
    let rest = steps.remainder().iter().filter(|&&x| x & 0xC0 == 0x80).count() as u64;
    (b.len() as u64 - continuation - rest) as u32
}

/// The columns of bytes of a turn's lines asked for in any order (§parser-position): a turn on
/// one line (§one-line-turn) asks for a position per statement, and counting each from the line
/// start cost the line's length per statement. A short line is counted from its start; a long
/// one keeps checkpoints every [`Self::STEP`] bytes, counted once, as far into it as asked, and
/// the last two bytes asked: a position a little after one is counted from it, any other from the
/// nearest checkpoint. So an answer costs at most `NEAR` bytes beyond the checkpoints' one pass
/// over each long line, whatever the order of the questions and however they alternate between
/// lines; two cursors serve the questions that alternate between two places of one line (each
/// statement's start, and the line's end where a statement left open is reported).
/// One long line's checkpoints and its last two bytes asked, with their columns.
type LineMarks = (Vec<u32>, [(usize, u32); 2]);

#[derive(Debug, Default)]
pub struct ColumnMemo {
    /// The long line asked about last and its marks: questions come a line at a time, so most
    /// are answered without the map. `marks[k]` is the column at byte `(k + 1) * STEP`; the
    /// cursors are the last two bytes asked with their columns, the latest first.
    last: Option<(u32, LineMarks)>,
    /// The other long lines asked about, made on the first question about a second one (most
    /// parses ask about none: a map made per parse cost them its making and its drop).
    long: Option<std::collections::HashMap<u32, LineMarks>>,
}

impl ColumnMemo {
    pub const STEP: usize = 16;
    /// How far past a cursor a byte is counted from it rather than from a checkpoint: the
    /// statements of a line of glued headings are a few tens of bytes apart, and each start is
    /// counted from the one before, not from a checkpoint the line's count was extended to.
    const NEAR: usize = 4 * Self::STEP;

    /// Forgets every line (a memo kept for the next input); a long line's marks are given back.
    #[inline]
    pub fn clear(&mut self) {
        if self.last.is_some() || self.long.is_some() {
            *self = ColumnMemo::default();
        }
    }

    /// The column of byte `byte` (at most `text.len()`) of line `line`, whose text is `text`.
    #[inline]
    pub fn column(&mut self, line: u32, text: &str, byte: usize) -> u32 {
        match Self::short(text, byte) {
            Some(c) => c,
            None => self.column_long(line, text, byte),
        }
    }

    /// The column of a byte near the start of its line, counted from the line start (no memo
    /// needed), or `None` past that: the question most statements ask.
    #[inline]
    pub fn short(text: &str, byte: usize) -> Option<u32> {
        let byte = byte.min(text.len());
        // A short prefix, or the test of the test (`work::with_rescan`): from the line start.
        (byte <= 2 * Self::STEP || crate::work::rescan()).then(|| columns(&text[..byte]))
    }

    /// [`ColumnMemo::column`] past a short prefix.
    #[inline(never)]
    fn column_long(&mut self, line: u32, text: &str, byte: usize) -> u32 {
        let b = text.as_bytes();
        let byte = byte.min(b.len());
        if self.last.as_ref().is_some_and(|l| l.0 != line) {
            // Another line: the one held goes to the map, and this one comes out of it.
            let (held, marks) = self.last.take().expect("held");
            let map = self.long.get_or_insert_with(Default::default);
            map.insert(held, marks);
            self.last = map.remove(&line).map(|m| (line, m));
        }
        let (_, (marks, cursors)) = self.last.get_or_insert_with(|| (line, Default::default()));
        let near = cursors.iter().filter(|c| c.0 <= byte && byte - c.0 <= Self::NEAR).max_by_key(|c| c.0).copied();
        let column = match near {
            Some((at, col)) => {
                crate::work::add(crate::work::Stage::Columns, byte - at);
                col + columns_of(&b[at..byte])
            }
            None => {
                let k = byte / Self::STEP;
                while marks.len() < k {
                    let j = marks.len();
                    let before = if j == 0 { 0 } else { marks[j - 1] };
                    crate::work::add(crate::work::Stage::Columns, Self::STEP);
                    marks.push(before + columns_of(&b[j * Self::STEP..(j + 1) * Self::STEP]));
                }
                crate::work::add(crate::work::Stage::Columns, byte - k * Self::STEP);
                marks[k - 1] + columns_of(&b[k * Self::STEP..byte])
            }
        };
        // The cursor answered from moves on; else the older one gives way.
        let moved = match near {
            Some(n) if cursors[1] == n && cursors[0] != n => 1,
            _ => usize::from(near.is_none()),
        };
        cursors[moved] = (byte, column);
        cursors.swap(0, moved);
        column
    }
}

/// Per byte, for [`blank`]: 0 for ASCII white space, 1 for any other ASCII byte, 2 for a byte
/// of a longer character (which may be Unicode white space).
const BLANK_KIND: [u8; 256] = {
    let mut t = [1u8; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = 2;
        b += 1;
    }
    let ws = [b'\t', b'\n', 0x0b, 0x0c, b'\r', b' '];
    let mut k = 0;
    while k < ws.len() {
        t[ws[k] as usize] = 0;
        k += 1;
    }
    t
};

/// Whether `s` is white space alone (what `s.trim().is_empty()` says), read eight bytes to a
/// step: the text between two operations is mostly a line end or prose, and one step tells
/// either apart. `trim` ran a loop from each end whose exit no predictor learns (a branch
/// simulator counted one and a half mispredicts per call).
pub fn blank(s: &str) -> bool {
    let b = s.as_bytes();
    let mut seen = 0u8;
    let mut steps = b.chunks_exact(8);
    for (k, step) in (&mut steps).enumerate() {
        for &c in step {
            seen |= BLANK_KIND[c as usize];
        }
        if seen & 1 != 0 {
            crate::work::add(crate::work::Stage::Scan, 8 * (k + 1));
            return false;
        }
    }
    crate::work::add(crate::work::Stage::Scan, b.len());
    for &c in steps.remainder() {
        seen |= BLANK_KIND[c as usize];
    }
    match seen {
        0 => true,
        s if s & 1 != 0 => false,
        // Longer characters and no other ASCII: Unicode decides.
        _ => s.trim().is_empty(),
    }
}

/// What a fence line's tag names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A native operation, by table index.
    Op(usize),
    /// A registered executor, by index into the registry.
    Exec(usize),
}

/// The executors a parse knows: the host's names plus the rule set's `always` (`sh`,
/// §fence-heading-in-body), matched under §executor-case and §executor-js-spelling.
#[derive(Debug, Clone)]
pub struct Registry<'o> {
    /// The host's names in its order, then each `always` name the host did not name. Borrowed
    /// when that is one list as it stands (the host named none, or named every `always` name).
    pub names: std::borrow::Cow<'o, [String]>,
    case_insensitive: bool,
    /// The rule set's alternative spellings, resolved at lookup: one is read only for a tag that
    /// names no executor, so building the table per parse would cost every parse for the few
    /// tags that miss.
    aliases: &'o [crate::rules::model::ExecutorAlias],
}

impl<'o> Registry<'o> {
    /// The executors a parse under `rules` knows when the host names `executors`.
    #[inline]
    pub fn new(rules: &'o Rules, executors: Option<&'o [String]>) -> Registry<'o> {
        let names = match executors {
            None => std::borrow::Cow::Borrowed(rules.tables.executors.always.as_slice()),
            Some(list) => Self::with_always(rules, list),
        };
        Registry { names, case_insensitive: rules.tables.executors.case_insensitive, aliases: &rules.tables.executors.aliases }
    }

    /// The host's `list`, then each `always` name it left out: a host list that leaves one out
    /// does not make it unknown. Out of line: most parses name no executors.
    #[inline(never)]
    fn with_always(rules: &'o Rules, list: &'o [String]) -> std::borrow::Cow<'o, [String]> {
        let always = &rules.tables.executors.always;
        let case_insensitive = rules.tables.executors.case_insensitive;
        let eq = |a: &str, b: &str| if case_insensitive { a.eq_ignore_ascii_case(b) } else { a == b };
        if always.iter().any(|a| !list.iter().any(|n| eq(n, a))) {
            let mut all = list.to_vec();
            all.extend(always.iter().filter(|a| !list.iter().any(|n| eq(n, a))).cloned());
            std::borrow::Cow::Owned(all)
        } else {
            std::borrow::Cow::Borrowed(list)
        }
    }

    /// Whether these are the rule set's `always` names alone (the shared classifier tables).
    #[inline]
    fn is_always(&self, rules: &Rules) -> bool {
        matches!(&self.names, std::borrow::Cow::Borrowed(n) if std::ptr::eq(*n, rules.tables.executors.always.as_slice()))
    }

    fn eq(&self, a: &str, b: &str) -> bool {
        if self.case_insensitive {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }

    /// The executor `tag` names: a registered name, else an alias spelling whose target is
    /// registered (registered-target-unregistered-spelling, the only `when` the schema admits:
    /// the spelling itself is unregistered, or `tag`, equal to it, would have matched a name).
    pub fn lookup(&self, tag: &str) -> Option<usize> {
        if let Some(i) = self.names.iter().position(|n| self.eq(n, tag)) {
            return Some(i);
        }
        self.aliases.iter().filter(|a| self.eq(&a.spelling, tag)).find_map(|a| self.names.iter().position(|x| self.eq(x, &a.names)))
    }
}

/// A fence line's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Info {
    /// Nothing but horizontal whitespace after the run.
    Bare,
    /// Only one complete `<!-- aside -->` after the run (§closer-aside).
    Aside,
    /// Anything else that names nothing known (a code block's tag, prose).
    Label,
    /// A backtick fence naming a native operation or a known executor (§operation-fences).
    Heading(Named),
    /// A bare closer followed on its line by the next opener (§inline-chain): `info_at` is the
    /// opener's fence, `chain_width` its width.
    Chain(Named),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    pub ch: u8,
    pub width: u32,
    /// Byte offset of the run in its line: its leading spaces (at most `max_indent`), after
    /// any zero-width characters opening a heading line (§heading-slot-order).
    pub indent: u32,
    pub info: Info,
    /// Byte offset (in the line) where the tag or info starts.
    pub info_at: usize,
    /// Where the name run from `info_at` ends ([`Classifier::name_end`]; `info_at` when none,
    /// and for `Info::Chain`): a heading's name, read once.
    pub name_end: usize,
    /// The tag is followed by an invocation slot (`(`), for §interstitial-fence.
    pub slotted: bool,
    /// The chained opener's width (`Info::Chain`).
    pub chain_width: u32,
    /// An unknown tag with slots on one line with its own closer (`````BUFF (p)`````): inline
    /// code that quotes nothing but is still named (§interstitial-fence).
    pub inline: bool,
}

/// One line's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Text,
    Fence(Fence),
    /// A column-zero native name with at most one complete aside (§naked-operation).
    Naked(usize),
    /// A column-zero operation name followed by anything else (§unfenced-operation).
    Unfenced(Named),
}

pub struct Classifier<'r> {
    pub rules: &'r Rules,
    pub registry: &'r Registry<'r>,
    /// Built once per rule set for its default executors (most parses), else per parse (boxed:
    /// the classifier is a few words, not a kilobyte of tables copied with it).
    tables: Tables<'r>,
}

/// The classifier's first-byte tables.
#[derive(Debug, Clone)]
pub struct ClassTables {
    /// What a line may be by its first byte ([`First`]): text (most lines of a turn stop here),
    /// a fence (an indent or a fence character), an operation's or executor's name, or a
    /// heading behind zero-width characters. One load and one branch per line.
    first: [First; 256],
    /// The one-byte fence characters: the bytes a fence run can be made of.
    fence_char: [bool; 256],
    /// For a line's first byte, the bytes that may follow it in an operation's or executor's
    /// name (a bit set in `name_second`, slot 0 empty): a line whose first two bytes begin no
    /// name is text without its first word being read, as most prose lines starting with an
    /// operation's first letter are. A word's end differs from line to line, so reading it is a
    /// branch the predictor cannot learn but by memorising the text.
    name_slot: [u16; 256],
    name_second: Vec<[u64; 4]>,
}

/// What a line may be, by its first byte (the classifier's first test). One bit each, tested
/// as bits (see [`Classifier::classify_slow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum First {
    /// Text, whatever follows.
    Text = 0,
    /// An indent or a fence character: a fence line, or text.
    Fence = 1,
    /// The first letter of an operation's or executor's name (§unfenced-operation).
    Name = 2,
    /// The lead byte of a zero-width character, which may stand before a heading's fence
    /// (§heading-slot-order).
    ZeroWidth = 4,
}

impl ClassTables {
    /// Whether a name of the rule set or the registry may start with `b0` then `b1`.
    #[inline]
    fn may_start_name(&self, b0: u8, b1: u8) -> bool {
        let set = &self.name_second[self.name_slot[b0 as usize] as usize];
        set[(b1 >> 6) as usize] >> (b1 & 63) & 1 != 0
    }
}

impl<'r> Classifier<'r> {
    pub fn new(rules: &'r Rules, registry: &'r Registry<'r>) -> Classifier<'r> {
        let shared = registry
            .is_always(rules)
            .then(|| rules.class_tables.get_or_init(|| Box::new(ClassTables::new(rules, registry))).downcast_ref::<ClassTables>());
        let tables = if let Some(Some(t)) = shared { Tables::Shared(t) } else { Tables::Own(Box::new(ClassTables::new(rules, registry))) };
        Classifier { rules, registry, tables }
    }
}

/// A classifier's tables: the rule set's, or its own for a caller's executor list.
enum Tables<'r> {
    Shared(&'r ClassTables),
    Own(Box<ClassTables>),
}

impl std::ops::Deref for Tables<'_> {
    type Target = ClassTables;
    fn deref(&self) -> &ClassTables {
        match self {
            Tables::Shared(t) => t,
            Tables::Own(t) => t,
        }
    }
}

impl ClassTables {
    fn new(rules: &Rules, registry: &Registry<'_>) -> ClassTables {
        let mut ops_upper_first = [false; 256];
        for op in &rules.tables.operations {
            ops_upper_first[op.name.as_bytes()[0] as usize] = true;
        }
        let mut exec_first = [false; 256];
        let mut mark = |b: u8| {
            exec_first[b.to_ascii_lowercase() as usize] = true;
            exec_first[b.to_ascii_uppercase() as usize] = true;
        };
        for n in registry.names.iter() {
            if let Some(&b) = n.as_bytes().first() {
                mark(b);
            }
        }
        for a in &rules.tables.executors.aliases {
            if let Some(&b) = a.spelling.as_bytes().first() {
                mark(b);
            }
        }
        let mut fence_first = [false; 256];
        let mut fence_char = [false; 256];
        for c in &rules.tables.fence.chars {
            if let Some(&b) = c.as_bytes().first() {
                fence_first[b as usize] = true;
                if c.len() == 1 {
                    fence_char[b as usize] = true;
                }
            }
        }
        // An indent may precede a fence (§indented-fences), and so may a zero-width character
        // (§heading-slot-order; each opens with 0xE2 or 0xEF): see `first` below.
        let mut name_slot = [0u16; 256];
        let mut name_second = vec![[0u64; 4]];
        let mut pair = |b0: u8, b1: u8| {
            if name_slot[b0 as usize] == 0 {
                name_slot[b0 as usize] = name_second.len() as u16;
                name_second.push([0; 4]);
            }
            name_second[name_slot[b0 as usize] as usize][(b1 >> 6) as usize] |= 1 << (b1 & 63);
        };
        // A one-byte name may be followed by any byte that ends it.
        let mut name = |n: &[u8], cases: bool| {
            let variants = |b: u8| if cases { [b.to_ascii_lowercase(), b.to_ascii_uppercase()] } else { [b, b] };
            for b0 in variants(n[0]) {
                match n.get(1) {
                    Some(&b1) => variants(b1).into_iter().for_each(|b1| pair(b0, b1)),
                    None => (0..=255u8).filter(|&b| !rules.is_name_byte(b)).for_each(|b1| pair(b0, b1)),
                }
            }
        };
        for op in &rules.tables.operations {
            name(op.name.as_bytes(), false);
        }
        let cases = rules.tables.executors.case_insensitive;
        for n in registry.names.iter().map(String::as_str).chain(rules.tables.executors.aliases.iter().map(|a| a.spelling.as_str())) {
            if !n.is_empty() {
                name(n.as_bytes(), cases);
            }
        }
        // The fence test wins over a name, and a zero-width character's lead byte over both.
        let mut first = [First::Text; 256];
        for b in 0..256 {
            first[b] = if matches!(b, 0xE2 | 0xEF) {
                First::ZeroWidth
            } else if b == b' ' as usize || fence_first[b] {
                First::Fence
            } else if ops_upper_first[b] || exec_first[b] {
                First::Name
            } else {
                First::Text
            };
        }
        ClassTables { first, fence_char, name_slot, name_second }
    }
}

impl<'r> Classifier<'r> {
    /// The name run starting at `at`. Inlined: a name is a few bytes, fewer than a call costs.
    #[inline(always)]
    pub fn name_end(&self, text: &[u8], at: usize) -> usize {
        let mut j = at;
        while j < text.len() && self.rules.is_name_byte(text[j]) {
            j += 1;
        }
        if j < text.len() && matches!(text[j], 0xE2 | 0xEF) {
            return self.name_end_zero_width(text, at, j);
        }
        j
    }

    /// §heading-slot-order: zero-width characters before or inside a name are skipped, so the
    /// run holds them; [`Classifier::resolve`] reads the name without them. A run of them with
    /// no name byte is no name.
    #[cold]
    #[inline(never)]
    fn name_end_zero_width(&self, text: &[u8], at: usize, mut j: usize) -> usize {
        let mut named = j > at;
        loop {
            let zw = self.rules.zero_width_at(text, j);
            if zw > 0 {
                j += zw;
            } else if j < text.len() && self.rules.is_name_byte(text[j]) {
                j += 1;
                named = true;
            } else {
                break;
            }
        }
        if named {
            j
        } else {
            at
        }
    }

    /// Resolves a tag: reserved operation names win (§exec-executor-slot).
    pub fn resolve(&self, tag: &str) -> Option<Named> {
        if tag.is_empty() {
            return None;
        }
        if let Some(i) = self.rules.op_index(tag) {
            return Some(Named::Op(i));
        }
        match self.registry.lookup(tag) {
            Some(e) => Some(Named::Exec(e)),
            // Only a name run holding a zero-width character is not ASCII.
            None if !tag.is_ascii() => self.resolve_zero_width(tag),
            None => None,
        }
    }

    /// A tag read without its zero-width characters (§heading-slot-order).
    #[cold]
    #[inline(never)]
    fn resolve_zero_width(&self, tag: &str) -> Option<Named> {
        let clean: String = tag.chars().filter(|c| !self.rules.zero_width.contains(c)).collect();
        if clean.len() == tag.len() || !clean.is_ascii() {
            return None;
        }
        self.resolve(&clean)
    }

    /// Whether a line starting with `first` can be anything but text: the one test a prose
    /// line pays, before its text is even sliced.
    #[inline(always)]
    pub fn may_matter(&self, first: u8) -> bool {
        self.tables.first[first as usize] != First::Text
    }

    /// Classifies the line `text` (without its line ending).
    #[inline]
    pub fn classify(&self, text: &str) -> Class {
        match text.as_bytes().first() {
            Some(&c) if self.may_matter(c) => self.classify_slow(text, c),
            _ => Class::Text,
        }
    }

    /// [`Classifier::classify`] of a line whose first byte, `first`, may matter.
    pub(crate) fn classify_slow(&self, text: &str, first: u8) -> Class {
        crate::work::add(crate::work::Stage::Lines, text.len());
        // Bit tests in the order lines meet them: LLVM made a four-way match (or a chain of
        // equality tests) a jump table, an indirect branch per line that mispredicted where
        // the kinds alternate.
        let kind = self.tables.first[first as usize] as u8;
        if kind & First::Fence as u8 != 0 {
            if let Some(f) = self.fence(text) {
                return Class::Fence(f);
            }
            return Class::Text;
        }
        if kind & First::Name as u8 != 0 {
            return self.column_zero_name(text);
        }
        if kind & First::ZeroWidth as u8 != 0 {
            return self.classify_zero_width(text);
        }
        Class::Text
    }

    /// §heading-slot-order: zero-width characters before a heading's fence (a byte-order mark
    /// opening the turn, say) are skipped; the fence keeps its place in the line. Only a heading
    /// is read through them: any other line opening with one stays what it was, text.
    #[cold]
    #[inline(never)]
    fn classify_zero_width(&self, text: &str) -> Class {
        let b = text.as_bytes();
        let mut k = 0;
        loop {
            let n = self.rules.zero_width_at(b, k);
            if n == 0 {
                break;
            }
            k += n;
        }
        if k == 0 {
            return Class::Text;
        }
        match self.fence(&text[k..]) {
            Some(mut f) if matches!(f.info, Info::Heading(_) | Info::Chain(_)) => {
                f.indent += k as u32;
                f.info_at += k;
                f.name_end += k;
                Class::Fence(f)
            }
            _ => Class::Text,
        }
    }

    /// The fence a line opens with, if any. Inlined into the classifier's one caller on the hot
    /// path: most lines that reach it are a heading or a closer, and a call costs a tenth of one.
    #[inline(always)]
    fn fence(&self, text: &str) -> Option<Fence> {
        let b = text.as_bytes();
        let mut indent = 0;
        while indent < b.len() && b[indent] == b' ' {
            indent += 1;
        }
        if indent as u32 > self.rules.tables.fence.max_indent || indent >= b.len() {
            return None;
        }
        let ch = b[indent];
        if !self.tables.fence_char[ch as usize] {
            return None;
        }
        // `b[indent]` is `ch`: the run is counted from the byte after it.
        let mut j = indent + 1;
        // Where eight bytes remain (a heading and its slots), the run's end is read from a word:
        // a byte loop's exit comes at a different byte from line to line.
        if let Some(w) = b.get(j..j + 8) {
            let x = u64::from_le_bytes(w.try_into().expect("eight bytes")) ^ (u64::from(ch) * 0x0101_0101_0101_0101);
            j += x.trailing_zeros() as usize / 8;
        }
        while j < b.len() && b[j] == ch {
            j += 1;
        }
        let width = (j - indent) as u32;
        if width < self.rules.fence_min() {
            return None;
        }
        let mut f = Fence {
            ch,
            width,
            indent: indent as u32,
            info: Info::Label,
            info_at: j,
            name_end: j,
            slotted: false,
            chain_width: 0,
            inline: false,
        };
        // A bare run ending its line (most closers): nothing to trim.
        if j == b.len() {
            f.info = Info::Bare;
            return Some(f);
        }
        let rest = &text[j..];
        // Only info that starts with whitespace or `<` can be empty or an aside; any other info
        // starts with its tag, so the trim is skipped.
        if matches!(b[j], b' ' | b'\t' | b'<') {
            let trimmed = rest.trim_matches(|c| c == ' ' || c == '\t');
            if trimmed.is_empty() {
                f.info = Info::Bare;
                return Some(f);
            }
            if trimmed.starts_with("<!--")
                && trimmed.ends_with("-->")
                && trimmed.len() >= 7
                && !trimmed[4..trimmed.len() - 3].contains("-->")
            {
                f.info = Info::Aside;
                return Some(f);
            }
        }
        let end = self.name_end(b, j);
        f.name_end = end;
        // A heading opens at any indent within the limit (§indented-fences).
        if ch == b'`' && end > j {
            debug_assert!(text.is_char_boundary(j) && text.is_char_boundary(end) && j <= end && end <= b.len());
            // SAFETY: `j <= end <= text.len()` (`name_end` reads forward from `j` within the
            // text); `j` follows the fence run's ASCII bytes and `end` ends a name run, whose
            // bytes are ASCII name bytes or whole zero-width characters: both are character
            // boundaries. (A checked slice here was an out-of-line call per heading line.)
            let tag = unsafe { text.get_unchecked(j..end) };
            if let Some(named) = self.resolve(tag) {
                f.info = Info::Heading(named);
                return Some(f);
            }
        }
        let mut k = end;
        while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
            k += 1;
        }
        f.slotted = end > j && k < b.len() && b[k] == b'(';
        // A backtick opener whose info carries a backtick is inline code (CommonMark §4.5) —
        // unless it is a closer chained to the next opener (§inline-chain).
        if ch == b'`' && find_byte(b'`', rest.as_bytes()).is_some() {
            let mut s0 = j;
            while s0 < b.len() && (b[s0] == b' ' || b[s0] == b'\t') {
                s0 += 1;
            }
            let mut e0 = s0;
            while e0 < b.len() && b[e0] == b'`' {
                e0 += 1;
            }
            if s0 > j && (e0 - s0) as u32 >= self.rules.fence_min() {
                let ne = self.name_end(b, e0);
                if let Some(named) = (ne > e0).then(|| self.resolve(&text[e0..ne])).flatten() {
                    f.info = Info::Chain(named);
                    f.info_at = s0;
                    f.name_end = s0;
                    f.chain_width = (e0 - s0) as u32;
                    return Some(f);
                }
            }
            if f.slotted {
                f.inline = true;
                return Some(f);
            }
            return None;
        }
        Some(f)
    }

    /// A column-zero line beginning with an operation or executor name.
    fn column_zero_name(&self, text: &str) -> Class {
        let b = text.as_bytes();
        if b.len() >= 2 && !self.tables.may_start_name(b[0], b[1]) {
            return Class::Text;
        }
        let end = self.name_end(b, 0);
        if end == 0 {
            return Class::Text;
        }
        let tag = &text[..end];
        let op = self.rules.op_index(tag);
        let rest = &text[end..];
        if let Some(i) = op {
            let t = rest.trim_matches(|c| c == ' ' || c == '\t');
            if t.is_empty() {
                return Class::Naked(i);
            }
            if t.starts_with("<!--") && t.ends_with("-->") && t.len() >= 7 {
                let inner = &t[4..t.len() - 3];
                if !inner.contains("-->") && !inner.contains("<!--") {
                    return Class::Naked(i);
                }
            }
            return Class::Unfenced(Named::Op(i));
        }
        // An executor's name followed by an operand slot (§unfenced-operation).
        if let Some(e) = self.registry.lookup(tag) {
            let t = rest.trim_start_matches([' ', '\t']);
            if t.starts_with('(') {
                return Class::Unfenced(Named::Exec(e));
            }
        }
        Class::Text
    }
}

/// Whether `text` carries a run of three or more backticks anywhere (an orphaned closer's
/// witness, §forgotten-tag). The line is most often the last line of a body before its closer:
/// a backtick is looked for 16 bytes to a step ([`find_of`]), where `memchr`'s dispatched call
/// on a line of tens of bytes cost more than the bytes.
pub fn has_fence_run(text: &str, min: u32) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    loop {
        let s = find_of(b, i, [b'`']);
        if s == b.len() {
            return false;
        }
        let mut j = s;
        while j < b.len() && b[j] == b'`' {
            j += 1;
        }
        if (j - s) as u32 >= min {
            return true;
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(line: &str) -> Class {
        let rules = Rules::builtin();
        let reg = Registry::new(rules, None);
        let c = Classifier::new(rules, &reg);
        c.classify(line)
    }

    /// §forgotten-tag: the orphan witness finds a run of `min` backticks wherever it stands
    /// against the 16-byte steps, and no shorter run, as a byte-by-byte count says.
    #[test]
    fn forgotten_tag_fence_run_found_across_steps() {
        let by_bytes = |s: &str, min: u32| {
            let mut run = 0;
            s.bytes().any(|b| {
                run = if b == b'`' { run + 1 } else { 0 };
                run >= min
            })
        };
        for len in 0..40 {
            for at in 0..=len {
                for w in 1..5 {
                    let mut s = "x".repeat(len);
                    s.insert_str(at, &"`".repeat(w));
                    let with_short = format!("`{s}");
                    for t in [&s, &with_short, &s.replace('x', "é")] {
                        for min in [3, 4] {
                            assert_eq!(has_fence_run(t, min), by_bytes(t, min), "{t:?} {min}");
                        }
                    }
                }
            }
        }
    }

    /// §response-text: `blank` says what `trim().is_empty()` says, at every length around a
    /// step and with Unicode white space, other characters and ASCII text in every place.
    #[test]
    fn response_text_blank_is_trim_is_empty() {
        let pieces = ["", " ", "\n", "\r\n", "\t", "\u{0b}", "\u{0c}", "\u{a0}", "\u{3000}", "\u{2028}", "é", "x", "\u{1c}", "\u{85}"];
        let mut cases: Vec<String> = Vec::new();
        for n in 0..20 {
            for p in pieces {
                for at in [0, n / 2, n] {
                    let mut s = " ".repeat(n);
                    s.insert_str(at, p);
                    cases.push(s.clone());
                    cases.push(s.replace(' ', "\n"));
                }
            }
        }
        for s in &cases {
            assert_eq!(blank(s), s.trim().is_empty(), "{s:?}");
        }
        assert!(blank("  \n\t\r\n  \u{3000}"));
        assert!(!blank("\n\n  x"));
        assert!(!blank("\u{a0}\u{a0}é"));
    }

    /// The heading's substring searches answer as `str::find` and `str::rfind` do.
    #[test]
    fn find_str_and_rfind_str_agree_with_str() {
        let hays = [
            "",
            "a",
            "<!--",
            "x <!-- a --> <!-- b -->",
            "\u{b7}\u{b7}",
            "a \u{b7} 9",
            "--><!--",
            "<!-<!--",
            "ab".repeat(40).as_str().to_owned().leak(),
        ];
        let needles = ["", "<!--", "-->", "\u{b7}", "a", "abab", "zz"];
        for h in hays {
            for n in needles {
                assert_eq!(find_str(h.as_bytes(), n.as_bytes()), h.find(n), "{h:?} {n:?}");
                assert_eq!(rfind_str(h.as_bytes(), n.as_bytes()), h.rfind(n), "{h:?} {n:?}");
            }
        }
    }

    /// The line table, one `\n` at a time: what every split must agree with.
    fn naive_lines(input: &str) -> Vec<Line> {
        let b = input.as_bytes();
        let mut v = Vec::new();
        let mut start = 0;
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' {
                let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
                v.push(Line { start, end });
                start = i + 1;
            }
        }
        if start < b.len() || v.is_empty() {
            v.push(Line { start, end: b.len() });
        }
        v
    }

    /// §response-text: the short-haystack search finds what `memchr` finds, on both sides of its
    /// 32-byte switch, with the byte absent, first, last and repeated.
    /// §operation-fences, §indented-fences, §closer-aside, §inline-chain: what a fence line's info
    /// reads as, one row per shape (the whole class, so a moved check that changes any field shows).
    #[test]
    fn operation_fences_info_classes_by_shape() {
        let rows: &[(&str, &str)] = &[
            ("```READ (a.rs)", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Heading(Op(READ)), info_at: 3, name_end: 7, slotted: false, chain_width: 0, inline: false })"),
            ("   ```READ (a.rs)", "Fence(Fence { ch: 96, width: 3, indent: 3, info: Heading(Op(READ)), info_at: 6, name_end: 10, slotted: false, chain_width: 0, inline: false })"),
            ("    ```READ (a.rs)", "Text"),
            ("``` READ (a.rs)", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```\tREAD", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```<!-- x -->", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Aside, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```<!-- x --> y", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Bare, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```   ", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Bare, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("~~~READ (a)", "Fence(Fence { ch: 126, width: 3, indent: 0, info: Label, info_at: 3, name_end: 7, slotted: true, chain_width: 0, inline: false })"),
            ("~~~", "Fence(Fence { ch: 126, width: 3, indent: 0, info: Bare, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("```python", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 9, slotted: false, chain_width: 0, inline: false })"),
            ("```sh", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Heading(Exec(0)), info_at: 3, name_end: 5, slotted: false, chain_width: 0, inline: false })"),
            ("```SH (x)", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Heading(Exec(0)), info_at: 3, name_end: 5, slotted: false, chain_width: 0, inline: false })"),
            ("```js", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 5, slotted: false, chain_width: 0, inline: false })"),
            ("```READX", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 8, slotted: false, chain_width: 0, inline: false })"),
            ("```READ", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Heading(Op(READ)), info_at: 3, name_end: 7, slotted: false, chain_width: 0, inline: false })"),
            ("``` ```READ (b)", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Chain(Op(READ)), info_at: 4, name_end: 4, slotted: false, chain_width: 3, inline: false })"),
            ("```x`y", "Text"),
            ("```FOO (a) `b`", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 6, slotted: true, chain_width: 0, inline: true })"),
            ("````READ (a) <1,2>", "Fence(Fence { ch: 96, width: 4, indent: 0, info: Heading(Op(READ)), info_at: 4, name_end: 8, slotted: false, chain_width: 0, inline: false })"),
            ("```<READ>", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 3, slotted: false, chain_width: 0, inline: false })"),
            ("``READ", "Text"),
            ("```-READ", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 8, slotted: false, chain_width: 0, inline: false })"),
            ("```.sh", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Label, info_at: 3, name_end: 6, slotted: false, chain_width: 0, inline: false })"),
            ("  ~~~~ ", "Fence(Fence { ch: 126, width: 4, indent: 2, info: Bare, info_at: 6, name_end: 6, slotted: false, chain_width: 0, inline: false })"),
            ("```READ`x`", "Fence(Fence { ch: 96, width: 3, indent: 0, info: Heading(Op(READ)), info_at: 3, name_end: 7, slotted: false, chain_width: 0, inline: false })"),
        ];
        let ops = &Rules::builtin().tables.operations;
        for (line, want) in rows {
            // Operations by name, not by their place in the table.
            let mut got = format!("{:?}", classify(line));
            for (i, op) in ops.iter().enumerate() {
                got = got.replace(&format!("Op({i})"), &format!("Op({})", op.name));
            }
            assert_eq!(got, *want, "class of {line:?}");
        }
    }

    /// §parser-position: a column counts code points; the eight-bytes-a-step count agrees with
    /// `chars()` on every range of a line mixing one- to four-byte characters (ranges that cut a
    /// character count the characters that start in them).
    #[test]
    fn parser_position_columns_count_code_points_eight_bytes_a_step() {
        let line = "a→é🦀 Zürich — 東京\tx".repeat(3);
        let b = line.as_bytes();
        for from in 0..b.len() {
            for to in from..=b.len() {
                let want = b[from..to].iter().filter(|&&x| x & 0xC0 != 0x80).count() as u32;
                assert_eq!(columns_of(&b[from..to]), want, "{from}..{to}");
                if line.is_char_boundary(from) && line.is_char_boundary(to) {
                    assert_eq!(columns(&line[from..to]), line[from..to].chars().count() as u32);
                }
            }
        }
    }

    #[test]
    fn response_text_find_byte_agrees_with_memchr() {
        for len in 0..80usize {
            for at in (0..len).chain([usize::MAX]) {
                let mut hay: Vec<u8> = (0..len).map(|k| b'a' + (k % 7) as u8).collect();
                if at != usize::MAX {
                    hay[at] = b'#';
                    if at + 3 < len {
                        hay[at + 3] = b'#';
                    }
                }
                assert_eq!(find_byte(b'#', &hay), memchr::memchr(b'#', &hay), "len {len}, at {at}");
                assert_eq!(find_byte(b'#', &hay), (at != usize::MAX).then_some(at), "len {len}, at {at}");
            }
        }
    }

    /// §executor-js-spelling: an alias resolved at lookup names what the table built up front
    /// named (a spelling counts only while its target is registered and it is not), for every
    /// tag, under registered lists that do and do not hold the target or the spelling itself.
    #[test]
    fn executor_js_spelling_lookup_agrees_with_an_eager_alias_table() {
        let rules = Rules::builtin();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
        let lists = [s(&["sh"]), s(&["sh", "node"]), s(&["NODE"]), s(&["node", "js"]), s(&["JS", "node"]), s(&[]), s(&["python", "Node"])];
        let tags = ["js", "JS", "Js", "node", "NODE", "sh", "j", "jsx", "python", "", "nodejs"];
        let mut aliased = 0;
        for list in &lists {
            let reg = Registry::new(rules, Some(list));
            let ci = rules.tables.executors.case_insensitive;
            let eq = |a: &str, b: &str| if ci { a.eq_ignore_ascii_case(b) } else { a == b };
            // The host's names, then each `always` name it left out (§fence-heading-in-body).
            let mut names = list.clone();
            names.extend(rules.tables.executors.always.iter().filter(|a| !list.iter().any(|x| eq(x, a))).cloned());
            let find = |n: &str| names.iter().position(|x| eq(x, n));
            let eager: Vec<(&str, usize)> = rules
                .tables
                .executors
                .aliases
                .iter()
                .filter_map(|a| find(&a.names).filter(|_| find(&a.spelling).is_none()).map(|t| (a.spelling.as_str(), t)))
                .collect();
            for tag in tags {
                let want = find(tag).or_else(|| eager.iter().find(|(sp, _)| eq(sp, tag)).map(|(_, i)| *i));
                if want.is_some() && find(tag).is_none() {
                    aliased += 1;
                }
                assert_eq!(reg.lookup(tag), want, "{tag:?} among {names:?}");
            }
        }
        assert!(aliased >= 6, "the table reaches the alias path ({aliased})");
    }

    /// §native-tool-calls: the nibble search of the openings' anchors finds what a byte loop
    /// finds (an anchor byte whose next byte, or the text's end, may follow it, by nibbles),
    /// and passes over no anchor its follower may follow, for anchor sets
    /// up to eight (high bytes, bytes sharing a nibble, followers of every kind), from every
    /// start to every end, across 32-byte steps and in every kind of tail.
    #[test]
    fn native_tool_calls_anchor_set_agrees_with_a_byte_loop() {
        fn set_of(bytes: &[u8]) -> [u64; 4] {
            let mut s = [0u64; 4];
            for &d in bytes {
                s[d as usize / 64] |= 1 << (d % 64);
            }
            s
        }
        let any = [u64::MAX; 4];
        let sets: Vec<Vec<(u8, [u64; 4])>> = vec![
            vec![(b'<', any)],
            vec![(b'<', set_of(b"tfT|\xef/")), (b'[', any), (b'>', set_of(b">")), (b'{', any)],
            vec![(b'<', set_of(b"<")), (b'\xbc', set_of(b"\x3c\x2c")), (b'|', set_of(b"|x"))],
            vec![
                (b'a', set_of(b"b")),
                (b'b', any),
                (b'\xef', set_of(b"\xbc")),
                (b'A', set_of(b"B")),
                (b'B', any),
                (0, any),
                (b'\x10', set_of(b"\x01")),
                (b'\x01', set_of(b"\x10")),
            ],
        ];
        let alphabet = b"<[>{a\xef\xbcx|,\x10\x01 Qbt";
        // The model: an anchor byte whose next byte has a low nibble and a high nibble that
        // some follower of that anchor has (a superset of the followers, never fewer).
        let naive = |set: &[(u8, [u64; 4])], hay: &[u8], k: usize| {
            set.iter().any(|&(c, next)| {
                let has = |d: u8| next[d as usize / 64] & (1 << (d % 64)) != 0;
                hay[k] == c
                    && match hay.get(k + 1) {
                        Some(&d) => (0..=255u8).any(|x| has(x) && x & 15 == d & 15) && (0..=255u8).any(|x| has(x) && x >> 4 == d >> 4),
                        None => next == [u64::MAX; 4],
                    }
            })
        };
        bolero::check!().with_type::<Vec<u8>>().with_iterations(2_000).with_max_len(100).for_each(|bytes: &Vec<u8>| {
            let hay: Vec<u8> = bytes.iter().map(|&b| alphabet[b as usize % alphabet.len()]).collect();
            for set in &sets {
                let s = AnchorSet::new(set).expect("eight anchors or fewer");
                for from in 0..=hay.len() {
                    for to in [hay.len(), from + 1, from + 31, from + 32, from + 33, hay.len().saturating_sub(1)] {
                        let to = to.min(hay.len());
                        let want = (from..to).find(|&k| naive(set, &hay, k));
                        assert_eq!(s.find(&hay, from, to), want, "{set:?} {hay:?} {from}..{to}");
                    }
                }
            }
        });
        assert!(AnchorSet::new(&[(b'a', any); 9]).is_none(), "nine anchors do not fit the table's eight bits");
    }

    /// §heading-slot-order: the 16-bytes-a-step search of a heading's delimiters finds what a
    /// byte loop finds, from every start, for haystacks shorter than one step, across step edges
    /// and in the overlapped tail.
    #[test]
    fn heading_slot_order_find_of_agrees_with_a_byte_loop() {
        fn naive(hay: &[u8], from: usize, set: &[u8]) -> usize {
            (from..hay.len()).find(|&k| set.contains(&hay[k])).unwrap_or(hay.len())
        }
        // Bytes drawn mostly from the needles, so hits land at every offset.
        let alphabet = b"([<`\\)a ";
        bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(70).for_each(|bytes: &Vec<u8>| {
            let hay: Vec<u8> = bytes.iter().map(|&b| if b < 0x80 { alphabet[(b % 8) as usize] } else { b'x' }).collect();
            for from in 0..=hay.len() + 1 {
                assert_eq!(find_of(&hay, from, [b'(', b'[', b'<', b'`']).min(hay.len()), naive(&hay, from, b"([<`"), "{hay:?} from {from}");
                assert_eq!(find_of(&hay, from, [b'\\', b'(', b')']).min(hay.len()), naive(&hay, from, b"\\()"), "{hay:?} from {from}");
            }
        });
        // One needle at every offset of every length, the rest of the haystack plain.
        for len in 0..70usize {
            for at in 0..len {
                let mut hay = vec![b'a'; len];
                hay[at] = b'`';
                for from in 0..=len {
                    assert_eq!(find_of(&hay, from, [b'(', b'[', b'<', b'`']), naive(&hay, from, b"([<`"), "len {len} at {at} from {from}");
                }
            }
        }
    }

    /// §parser-position: both mask functions (AVX2 where the CPU has it, SSE2 or bytes
    /// elsewhere) give the one-byte-at-a-time table, with newlines and CRs on every side of the
    /// 32- and 64-byte chunk edges and in the tail past the last whole chunk.
    #[test]
    fn line_split_agrees_with_a_byte_loop_across_chunk_edges() {
        let mut cases: Vec<String> = vec![String::new(), "\n".into(), "\r\n".into(), "a".into(), "\r".into()];
        for len in [31usize, 32, 33, 63, 64, 65, 95, 96, 127, 128, 129, 200] {
            for at in [0usize, 1, 30, 31, 32, 33, 62, 63, 64, 65, 127, 128] {
                if at >= len {
                    continue;
                }
                for end in ["\n", "\r\n", "\r"] {
                    let mut s = "x".repeat(len);
                    s.replace_range(at..at + 1, end);
                    if at + 1 < len {
                        s.replace_range(at + 1..at + 2, "\n");
                    }
                    cases.push(s);
                }
            }
            cases.push("\n".repeat(len));
            cases.push("\r\n".repeat(len));
            cases.push("ab\n".repeat(len));
            cases.push(format!("{}\n{}", "é".repeat(len), "x".repeat(len)));
        }
        for c in &cases {
            let want = naive_lines(c);
            let mut got = Vec::new();
            split_portable::<false>(c.as_bytes(), &mut got);
            assert_eq!(got, want, "portable split of {c:?}");
            let mut got = Vec::new();
            split_portable::<true>(c.as_bytes(), &mut got);
            assert_eq!(got, want, "portable split (long input) of {c:?}");
            assert_eq!(lines(c), want, "lines() of {c:?}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut got = Vec::new();
                // SAFETY: the CPU has AVX2.
                unsafe { split_avx2::<false>(c.as_bytes(), &mut got) };
                assert_eq!(got, want, "AVX2 split of {c:?}");
                let mut got = Vec::new();
                // SAFETY: the CPU has AVX2.
                unsafe { split_avx2::<true>(c.as_bytes(), &mut got) };
                assert_eq!(got, want, "AVX2 split (long input) of {c:?}");
            }
        }
    }

    /// §parser-position: a long turn's line table is sized from the lines read so far, so it
    /// ends near its need (neither doubled past it nor counted in an extra pass), for lines of
    /// any length, and still holds every line.
    #[test]
    fn parser_position_long_turn_line_table_grows_near_its_need() {
        for line in ["x\n", "{\"name\": \"frobnicate\"}\r\n", &"prose ".repeat(40)] {
            let input = format!("{line}\n").repeat((3 << 20) / (line.len() + 1));
            let mut out = Vec::new();
            lines_into(&input, &mut out);
            assert_eq!(out, naive_lines(&input));
            assert!(out.capacity() <= out.len() + out.len() / 8 + 64, "{} lines in a table of {}", out.len(), out.capacity());
        }
    }

    #[test]
    fn lines_keep_crlf_out_of_content() {
        let input = "a\r\nb\nc";
        let v = lines(input);
        assert_eq!(v.len(), 3);
        assert_eq!((v[0].start, v[0].end, v[0].next(input.as_bytes())), (0, 1, 3));
        assert_eq!((v[1].next(input.as_bytes()), v[2].next(input.as_bytes())), (5, 6));
        assert_eq!((v[2].start, v[2].end), (5, 6));
        assert_eq!(lines("").len(), 1);
        assert_eq!(lines("a\n").len(), 1);
    }

    #[test]
    fn line_at_agrees_with_the_table() {
        for text in ["", "a", "a\n", "a\r\nb\n\nc", "\n\n", "x\ny\r\n"] {
            let table = lines(text);
            for (n, l) in table.iter().enumerate() {
                assert_eq!(line_at(text, n), Some(*l), "{text:?} line {n}");
            }
            assert_eq!(line_at(text, table.len()), None, "{text:?} past the end");
        }
    }

    #[test]
    fn lines_agree_with_a_plain_split_across_64_byte_blocks() {
        // Line ends at, before and after every block boundary, CRLF split across one, and a tail.
        let mut text = String::new();
        for n in 0..200 {
            text.push_str(&"x".repeat(n % 70));
            text.push_str(if n % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str("tail");
        for cut in [0, 1, 63, 64, 65, 127, 128, text.len()] {
            let t = &text[..cut.min(text.len())];
            let got: Vec<&str> = lines(t).iter().map(|l| &t[l.start..l.end]).collect();
            // A CR ends a line only before a LF; a lone CR is content.
            let parts: Vec<&str> = t.split('\n').collect();
            let n = parts.len();
            let mut want: Vec<&str> =
                parts.iter().enumerate().map(|(k, l)| if k + 1 < n { l.strip_suffix('\r').unwrap_or(l) } else { l }).collect();
            if want.len() > 1 && want.last() == Some(&"") {
                want.pop();
            }
            assert_eq!(got, want, "cut at {cut}");
        }
    }

    /// §operation-fences: a fence's width is its whole run, however long the run and whatever
    /// (or nothing) follows it on the line.
    #[test]
    fn operation_fences_width_is_the_whole_run() {
        for ch in ['`', '~'] {
            for width in 3..20 {
                for indent in ["", "  "] {
                    for rest in ["", "READ (a.md)", " x", "sh", "aaaaaaaaaaaaaaaa"] {
                        let line = format!("{indent}{}{rest}", ch.to_string().repeat(width));
                        match classify(&line) {
                            Class::Fence(f) => assert_eq!(f.width as usize, width, "{line:?}"),
                            other => assert!(ch == '`' && !rest.is_empty(), "{line:?} read as {other:?}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn fence_classes() {
        assert!(matches!(classify("```"), Class::Fence(Fence { info: Info::Bare, width: 3, .. })));
        assert!(matches!(classify("````READ (a)"), Class::Fence(Fence { info: Info::Heading(Named::Op(_)), width: 4, .. })));
        assert!(matches!(classify("```sh"), Class::Fence(Fence { info: Info::Heading(Named::Exec(0)), .. })));
        assert!(matches!(classify("```SH"), Class::Fence(Fence { info: Info::Heading(Named::Exec(0)), .. })));
        assert!(matches!(classify("```python"), Class::Fence(Fence { info: Info::Label, .. })));
        assert!(matches!(classify("``` <!-- x -->"), Class::Fence(Fence { info: Info::Aside, .. })));
        assert_eq!(classify("    ```READ (a)"), Class::Text, "§indented-fences");
        assert_eq!(classify("\t```"), Class::Text, "§indented-fences");
        assert_eq!(classify("``"), Class::Text);
        assert_eq!(classify("```foo```"), Class::Text, "inline code");
    }

    /// §unfenced-operation: the two-byte test a column-zero line passes before its first word
    /// is read turns away no line whose word names an operation or executor, for the built-in
    /// registry, a case-sensitive one and one with a one-byte name.
    #[test]
    fn unfenced_operation_first_two_bytes_turn_away_no_name() {
        let rules = Rules::builtin();
        let lists: Vec<Option<Vec<String>>> = vec![None, Some(vec!["node".into(), "R".into(), "py3".into()])];
        for list in &lists {
            let reg = Registry::new(rules, list.as_deref());
            let c = Classifier::new(rules, &reg);
            let mut names: Vec<String> = rules.tables.operations.iter().map(|o| o.name.clone()).collect();
            names.extend(reg.names.iter().cloned());
            names.extend(rules.tables.executors.aliases.iter().map(|a| a.spelling.clone()));
            let mut passed = 0;
            for b0 in 0..=255u8 {
                for b1 in 0..=255u8 {
                    let line = [b0, b1, b' ', b'('];
                    let Ok(text) = std::str::from_utf8(&line) else { continue };
                    let end = c.name_end(line.as_slice(), 0);
                    let names_one = end > 0 && c.resolve(&text[..end]).is_some();
                    if names_one {
                        assert!(c.tables.may_start_name(b0, b1), "{text:?} names an operation or executor but is turned away");
                        passed += 1;
                    }
                }
            }
            // Every name of two bytes or one is among them, in each case the registry allows.
            assert!(passed >= names.iter().filter(|n| n.len() <= 2).count(), "{list:?}: {passed}");
            for n in names.iter().filter(|n| c.resolve(n).is_some()) {
                let line = format!("{n} (x)");
                assert_ne!(c.classify(&line), Class::Text, "{line:?}");
            }
        }
        assert_eq!(classify("Let me READ it"), Class::Text);
        assert_eq!(classify("READING (x)"), Class::Text);
        assert!(matches!(classify("SH (x)"), Class::Unfenced(Named::Exec(_))));
    }

    #[test]
    fn column_zero_names() {
        assert!(matches!(classify("KILL"), Class::Naked(_)));
        assert!(matches!(classify("KILL <!-- a -->  "), Class::Naked(_)));
        assert!(matches!(classify("KILL The answer"), Class::Unfenced(_)));
        assert!(matches!(classify("sh(build.sh)"), Class::Unfenced(Named::Exec(_))));
        assert_eq!(classify("sh <!-- example -->"), Class::Text);
        assert_eq!(classify("KILLING"), Class::Text);
        assert_eq!(classify(" KILL"), Class::Text);
    }
}
