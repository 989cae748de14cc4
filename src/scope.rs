//! Scope markers (§scope-slot): numeric and anchored components, the tolerated spellings
//! (§scope-marker-forms, §anchor-digits), and the two-component range recovery
//! (§scope-range-recovery).

use crate::ast::{LineMarker, Mark};
use crate::rules::model::ScopeDomain;
use crate::small::Small;

/// The largest integer a JSON consumer holds exactly (2^53 − 1).
pub const MAX_SAFE: i64 = 9_007_199_254_740_991;

/// A normalization the reading applied, named in an advisory.
#[derive(Debug, Clone, PartialEq)]
pub enum ScopeNote {
    /// `@210` read as line 210 (§anchor-digits).
    AnchorDigits(String),
    /// `<395,12>` read as `<395,406>` (§scope-range-recovery): (written, canonical).
    Recovered(String, String),
}

/// Why a scope was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ScopeError {
    /// Content the operation's domain does not admit (§invalid-scope-diagnostic).
    Invalid,
    /// An anchor paired with the same five characters unmarked: the marked form.
    AnchorUnmarked(String),
    /// A `+offset` form that cannot be read (no base, a non-integer, a negative start).
    BadOffset,
    /// `start,+offset` with a start below one.
    OffsetStart,
    /// Arithmetic beyond safe integers.
    Unsafe,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Comp<'a> {
    Num(&'a str),
    Anchor(&'a str),
    Offset(&'a str),
}

impl Default for Comp<'_> {
    fn default() -> Self {
        Comp::Num("")
    }
}

/// A scope's components: one or two almost always, kept inline.
type Comps<'a> = Small<Comp<'a>, 4>;

fn is_base62(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// Splits `inner` into components: commas with at most one following space, or a dash between
/// two numbers (§scope-marker-forms).
fn components(inner: &str) -> Option<Comps<'_>> {
    let b = inner.as_bytes();
    let mut i = 0;
    let mut out = Comps::new();
    loop {
        let start = i;
        if i < b.len() && b[i] == b'@' {
            i += 1;
            while i < b.len() && is_base62(b[i]) {
                i += 1;
            }
            // An anchor may carry a relative offset (`@abcde+1`, §anchor-offset).
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            out.push(Comp::Anchor(&inner[start..i]));
        } else if i < b.len() && b[i] == b'+' {
            i += 1;
            let d = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i == d {
                return None;
            }
            out.push(Comp::Offset(&inner[start..i]));
        } else {
            if i < b.len() && b[i] == b'-' {
                i += 1;
            }
            let d = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == d {
                return None;
            }
            if i < b.len() && b[i] == b'.' {
                i += 1;
                let f = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i == f {
                    return None;
                }
            }
            out.push(Comp::Num(&inner[start..i]));
        }
        if i == b.len() {
            return Some(out);
        }
        match b[i] {
            b',' => {
                i += 1;
                if i < b.len() && b[i] == b' ' {
                    i += 1;
                }
            }
            // A dash between numbers, the second possibly negative (`<0--5>`).
            b'-' if matches!(out.as_slice().last(), Some(Comp::Num(_)))
                && i + 1 < b.len()
                && (b[i + 1].is_ascii_digit() || (b[i + 1] == b'-' && i + 2 < b.len() && b[i + 2].is_ascii_digit())) =>
            {
                i += 1
            }
            _ => return None,
        }
    }
}

fn num_mark(s: &str) -> Mark {
    if s.contains('.') {
        Mark::Num(s.parse::<f64>().unwrap_or(f64::NAN))
    } else {
        match s.parse::<i64>() {
            Ok(v) => Mark::Int(v),
            Err(_) => Mark::Num(s.parse::<f64>().unwrap_or(f64::NAN)),
        }
    }
}

fn as_int(m: &Mark) -> Option<i64> {
    match m {
        Mark::Int(v) => Some(*v),
        _ => None,
    }
}

fn canonical(marks: &[Mark]) -> String {
    let parts: Vec<String> = marks
        .iter()
        .map(|m| match m {
            Mark::Int(v) => v.to_string(),
            Mark::Num(f) => f.to_string(),
            Mark::Anchor(a) => a.clone(),
        })
        .collect();
    format!("<{}>", parts.join(","))
}

/// Reads the inner text of a `<…>` scope for `domain`. `written` gives the scope as authored
/// (asked for only when a note quotes it),
/// brackets included, for the advisory text.
pub fn read(inner: &str, domain: ScopeDomain, written: &dyn Fn() -> String) -> Result<(LineMarker, Vec<ScopeNote>), ScopeError> {
    // The scopes agents write most (`<1,-1>`, `<40,80>`, `<12>`) are whole numbers that need no
    // note: read at once; anything else, and a pair the range recovery rewrites, takes the
    // general reading below (the test holds the two to the same answers).
    if let Some((a, b)) = plain_ints(inner) {
        let recovers = matches!(domain, ScopeDomain::ResultPositions | ScopeDomain::TextCoordinates);
        match b {
            None => return Ok((LineMarker { marks: vec![Mark::Int(a)] }, Vec::new())),
            Some(b) if !(recovers && a >= 1 && b >= 1 && b < a) => {
                return Ok((LineMarker { marks: vec![Mark::Int(a), Mark::Int(b)] }, Vec::new()))
            }
            Some(_) => {}
        }
    }
    read_general(inner, domain, written)
}

/// Whether `inner` is one or two whole numbers (`N` or `N,M`), which every domain that reads a
/// scope admits: a check that needs no reading (and allocates nothing).
pub fn is_plain(inner: &str) -> bool {
    plain_ints(inner).is_some()
}

/// `N` or `N,M` (one space allowed after the comma), each an optional `-` and one to fifteen
/// digits (no overflow, and far inside safe integers): the two numbers.
#[inline]
fn plain_ints(inner: &str) -> Option<(i64, Option<i64>)> {
    fn int(b: &[u8], i: &mut usize) -> Option<i64> {
        let neg = b.get(*i) == Some(&b'-');
        *i += usize::from(neg);
        let d = *i;
        let mut v: i64 = 0;
        while let Some(&c) = b.get(*i) {
            if !c.is_ascii_digit() || *i - d == 15 {
                break;
            }
            v = v * 10 + i64::from(c - b'0');
            *i += 1;
        }
        (*i > d).then_some(if neg { -v } else { v })
    }
    let b = inner.as_bytes();
    let mut i = 0;
    let a = int(b, &mut i)?;
    if i == b.len() {
        return Some((a, None));
    }
    if b[i] != b',' {
        return None;
    }
    i += 1;
    if b.get(i) == Some(&b' ') {
        i += 1;
    }
    let c = int(b, &mut i)?;
    (i == b.len()).then_some((a, Some(c)))
}

/// [`read`] without its whole-number short-cut.
fn read_general(inner: &str, domain: ScopeDomain, written: &dyn Fn() -> String) -> Result<(LineMarker, Vec<ScopeNote>), ScopeError> {
    let comps = match components(inner) {
        Some(c) if !c.is_empty() => c,
        _ => {
            return Err(unmarked_anchor(inner, domain).unwrap_or(ScopeError::Invalid));
        }
    };
    let anchors_ok = domain == ScopeDomain::TextCoordinates;
    let has_offset = comps.iter().any(|c| matches!(c, Comp::Offset(_)));
    let mut notes = Vec::new();
    let mut marks = Vec::with_capacity(comps.len());
    // §text-line-anchor-syntax: an anchor stands only where a line does; in a three- or
    // four-component region the second and fourth components are columns, and stay numeric.
    let column = |k: usize| comps.len() >= 3 && (k == 1 || k == 3);
    for (k, c) in comps.iter().enumerate() {
        match c {
            Comp::Num(s) => marks.push(num_mark(s)),
            Comp::Anchor(_) if column(k) => return Err(ScopeError::Invalid),
            Comp::Anchor(a) => {
                let body = &a[1..];
                let digits = body.bytes().all(|b| b.is_ascii_digit());
                if anchors_ok && digits && (1..=4).contains(&body.len()) {
                    // §anchor-digits: `@` and one to four digits is that line number.
                    notes.push(ScopeNote::AnchorDigits(body.to_string()));
                    marks.push(Mark::Int(body.parse().unwrap()));
                    continue;
                }
                let hash = body.split(['+', '-']).next().unwrap_or("");
                if !anchors_ok || hash.len() != 5 || !hash.bytes().all(is_base62) {
                    return Err(ScopeError::Invalid);
                }
                marks.push(Mark::Anchor(a.to_string()));
            }
            Comp::Offset(_) => marks.push(Mark::Int(0)),
        }
    }
    let recovers = matches!(domain, ScopeDomain::ResultPositions | ScopeDomain::TextCoordinates);
    if has_offset {
        // Only `start,+offset` (§scope-range-recovery) or `@anchor,+offset` (§anchor-offset).
        if !recovers || comps.len() != 2 || !matches!(comps[1], Comp::Offset(_)) {
            return Err(ScopeError::BadOffset);
        }
        let off_s = match &comps[1] {
            Comp::Offset(s) => &s[1..],
            _ => unreachable!(),
        };
        if off_s.contains('.') {
            return Err(ScopeError::BadOffset);
        }
        match &comps[0] {
            Comp::Anchor(a) => {
                if !a[1..].bytes().all(is_base62) {
                    return Err(ScopeError::BadOffset);
                }
                marks[1] = Mark::Anchor(format!("{a}+{off_s}"));
                return Ok((LineMarker { marks }, notes));
            }
            Comp::Num(s) => {
                if s.contains('.') || s.starts_with('-') {
                    return Err(ScopeError::BadOffset);
                }
                let start: i64 = match s.parse() {
                    Ok(v) => v,
                    Err(_) => return Err(ScopeError::Unsafe),
                };
                let off: i64 = match off_s.parse() {
                    Ok(v) => v,
                    Err(_) => return Err(ScopeError::Unsafe),
                };
                if start < 1 {
                    return Err(ScopeError::OffsetStart);
                }
                if start > MAX_SAFE || off > MAX_SAFE || start + off > MAX_SAFE {
                    return Err(ScopeError::Unsafe);
                }
                marks = vec![Mark::Int(start), Mark::Int(start + off)];
                notes.push(ScopeNote::Recovered(written(), canonical(&marks)));
                return Ok((LineMarker { marks }, notes));
            }
            Comp::Offset(_) => return Err(ScopeError::BadOffset),
        }
    }
    if recovers && marks.len() == 2 && comps.iter().all(|c| matches!(c, Comp::Num(_))) {
        if let (Some(start), Some(count)) = (as_int(&marks[0]), as_int(&marks[1])) {
            if start >= 1 && count >= 1 && count < start {
                if start > MAX_SAFE || start + count - 1 > MAX_SAFE {
                    return Err(ScopeError::Unsafe);
                }
                let fixed = vec![Mark::Int(start), Mark::Int(start + count - 1)];
                notes.push(ScopeNote::Recovered(written(), canonical(&fixed)));
                return Ok((LineMarker { marks: fixed }, notes));
            }
        }
    }
    // Spacing the grammar tolerates still earns no note unless the scope was rewritten.
    Ok((LineMarker { marks }, notes))
}

/// `<@abcde,fghij>`: the second position is the same shape unmarked (§invalid-scope-diagnostic).
fn unmarked_anchor(inner: &str, domain: ScopeDomain) -> Option<ScopeError> {
    if domain != ScopeDomain::TextCoordinates || !inner.contains('@') {
        return None;
    }
    let parts: Vec<&str> = inner.split(',').map(|p| p.trim_start_matches(' ')).collect();
    if parts.len() < 2 {
        return None;
    }
    let mut fixed = Vec::new();
    let mut changed = false;
    for p in &parts {
        let anchor_like = |s: &str| s.len() == 5 && s.bytes().all(is_base62);
        if let Some(rest) = p.strip_prefix('@') {
            if !anchor_like(rest) {
                return None;
            }
            fixed.push(p.to_string());
        } else if anchor_like(p) && !p.bytes().all(|b| b.is_ascii_digit()) {
            fixed.push(format!("@{p}"));
            changed = true;
        } else {
            return None;
        }
    }
    if changed {
        Some(ScopeError::AnchorUnmarked(format!("<{}>", fixed.join(","))))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScopeDomain::*;

    fn marks(inner: &str, d: ScopeDomain) -> Vec<Mark> {
        read(inner, d, &|| format!("<{inner}>")).unwrap().0.marks
    }

    #[test]
    fn scope_range_recovery() {
        assert_eq!(marks("395,12", TextCoordinates), vec![Mark::Int(395), Mark::Int(406)]);
        assert_eq!(marks("395, 12", ResultPositions), vec![Mark::Int(395), Mark::Int(406)]);
        assert_eq!(marks("395-12", TextCoordinates), vec![Mark::Int(395), Mark::Int(406)]);
        assert_eq!(marks("395,+12", TextCoordinates), vec![Mark::Int(395), Mark::Int(407)]);
        assert_eq!(marks("2,5", TextCoordinates), vec![Mark::Int(2), Mark::Int(5)]);
        assert_eq!(marks("5,0", TextCoordinates), vec![Mark::Int(5), Mark::Int(0)]);
        assert_eq!(marks("-3,-1", TextCoordinates), vec![Mark::Int(-3), Mark::Int(-1)]);
        // §scope-marker-forms: a dash separator before a negative component
        assert_eq!(marks("-3--1", TextCoordinates), vec![Mark::Int(-3), Mark::Int(-1)]);
        assert_eq!(marks("0--5", TextCoordinates), vec![Mark::Int(0), Mark::Int(-5)]);
        assert_eq!(marks("5.5,2", TextCoordinates), vec![Mark::Num(5.5), Mark::Int(2)]);
        assert_eq!(read("0,+2", TextCoordinates, &|| "<0,+2>".to_string()).unwrap_err(), ScopeError::OffsetStart);
        assert_eq!(read("+2", TextCoordinates, &|| "<+2>".to_string()).unwrap_err(), ScopeError::BadOffset);
        assert_eq!(read("9007199254740991,2", TextCoordinates, &|| "".to_string()).unwrap_err(), ScopeError::Unsafe);
    }

    /// §scope-marker-forms: the whole-number short-cut answers as the general reading does,
    /// over every text of up to six bytes from the bytes a scope's numbers are made of, and over
    /// the digit counts around its fifteen-digit bound, in every domain.
    #[test]
    fn scope_marker_forms_short_cut_agrees_with_the_general_reading() {
        let alphabet = b"019-, .+@";
        let mut texts: Vec<String> = Vec::new();
        let mut cur = vec![String::new()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for t in &cur {
                for &c in alphabet {
                    let mut u = t.clone();
                    u.push(c as char);
                    next.push(u);
                }
            }
            texts.extend(next.iter().cloned());
            cur = next;
        }
        for n in [14, 15, 16, 18, 19, 20] {
            let big = "9".repeat(n);
            texts.extend([big.clone(), format!("-{big}"), format!("1,{big}"), format!("{big},1"), format!("{big}, -{big}")]);
        }
        let mut taken = 0;
        for t in &texts {
            for d in [ResultPositions, TextCoordinates, Minutes, OwnerDefined, Ignored, ScopeDomain::None] {
                let w = || format!("<{t}>");
                let general = read_general(t, d, &w);
                assert_eq!(read(t, d, &w), general, "<{t}> in {d:?}");
                taken += usize::from(plain_ints(t).is_some());
            }
        }
        assert!(taken > 10_000, "the short-cut was taken too rarely ({taken})");
    }

    #[test]
    fn anchors_and_anchor_digits() {
        assert_eq!(marks("@abcde,@fghij", TextCoordinates), vec![Mark::Anchor("@abcde".into()), Mark::Anchor("@fghij".into())]);
        assert_eq!(marks("@wtxRn,+1", TextCoordinates), vec![Mark::Anchor("@wtxRn".into()), Mark::Anchor("@wtxRn+1".into())]);
        assert_eq!(marks("@210", TextCoordinates), vec![Mark::Int(210)]);
        assert_eq!(read("@aZ09b", ResultPositions, &|| "".to_string()).unwrap_err(), ScopeError::Invalid);
        assert_eq!(read("@aZ09", TextCoordinates, &|| "".to_string()).unwrap_err(), ScopeError::Invalid);
        assert_eq!(
            read("@abcde,fghij", TextCoordinates, &|| "".to_string()).unwrap_err(),
            ScopeError::AnchorUnmarked("<@abcde,@fghij>".into())
        );
    }
}
