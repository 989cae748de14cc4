//! Target and path grammar (§path-syntax): local paths with their `#channel` fragment
//! (§local-path-fragment), scheme URLs decomposed under the WHATWG URL standard (the `url`
//! crate validates and locates the components), the target-slot escapes (§path-parentheses)
//! and glob classification (§path-glob).

use std::borrow::Cow;

use crate::ast::{Target, UrlComponents, UrlTarget};
use crate::error::{Error, ErrorKind};
use crate::rules::{DiagId, Rules};

/// `parsePath` (the face's `parse_path`): one target decomposed (§path-syntax), `None` for an
/// empty path, or an [`Error`] of kind [`ErrorKind::InvalidPath`] carrying the parser's refusal.
pub(crate) fn parse_path(raw: &str) -> Result<Option<Target<'_>>, Error> {
    if raw.is_empty() {
        return Ok(None);
    }
    parse(raw).map(Some).map_err(|_| Error::new(ErrorKind::InvalidPath, Rules::builtin().text(DiagId::InvalidUri, &[])))
}

/// A target the grammar refuses (`invalid URI in path`).
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidUri;

/// Decodes the three target-slot escapes `\\`, `\(`, `\)` in one left-to-right pass; every other
/// backslash pair keeps both characters (§path-parentheses).
pub fn decode_slot(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\\') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(&n) = it.peek() {
                if n == '\\' || n == '(' || n == ')' {
                    out.push(n);
                    it.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// Encodes a target for a slot: backslashes first, then parentheses (§path-parentheses).
pub fn encode_slot(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '(' | ')') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The case-insensitive `[a-z][a-z0-9+.-]*://` prefix of a URL target; returns the scheme end.
pub fn url_prefix(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return None;
    }
    let mut i = 1;
    while i < b.len() && SCHEME_BYTE[b[i] as usize] {
        i += 1;
    }
    if b[i..].starts_with(b"://") {
        Some(i)
    } else {
        None
    }
}

/// The bytes after a scheme's first letter: `[a-z0-9+.-]`, either case.
static SCHEME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-');
        b += 1;
    }
    t
};

const SPECIAL: &[&str] = &["http", "https", "ws", "wss", "ftp", "file"];

/// Decomposes one target (already slot-decoded); a local path borrows `raw`.
pub fn parse(raw: &str) -> Result<Target<'_>, InvalidUri> {
    parse_decoded(Cow::Borrowed(raw))
}

/// [`parse`] of a slot's text as [`decode_slot`] gives it: a local path keeps the borrow (or
/// the decoded string) without copying it.
pub fn parse_decoded(raw: Cow<'_, str>) -> Result<Target<'_>, InvalidUri> {
    match url_prefix(&raw) {
        Some(scheme_end) => Ok(Target::Url(match plain_url(&raw, scheme_end) {
            Some((host_end, path_end, slash)) => UrlTarget::as_written(raw, scheme_end as u32, host_end, path_end, slash),
            None => {
                let parts = whatwg_url(&raw, scheme_end)?;
                UrlTarget::rewritten(raw, parts)
            }
        })),
        None => Ok(local(raw)),
    }
}

fn local(raw: Cow<'_, str>) -> Target<'_> {
    // The first `#` ends the path, unless the spelling opens with `#` (§local-path-fragment).
    match crate::scan::find_byte(b'#', raw.as_bytes()) {
        Some(i) if i > 0 => match raw {
            Cow::Borrowed(r) => Target::Local { raw: Cow::Borrowed(&r[..i]), fragment: Some(Cow::Borrowed(&r[i + 1..])) },
            Cow::Owned(mut r) => {
                let fragment = r[i + 1..].to_string();
                r.truncate(i);
                Target::Local { raw: Cow::Owned(r), fragment: Some(Cow::Owned(fragment)) }
            }
        },
        _ => Target::Local { raw, fragment: None },
    }
}

/// Label and name lengths within DNS limits (no length check can then apply).
const MAX_LABEL: usize = 63;
const MAX_HOST: usize = 253;

/// A URL that WHATWG parsing would give back exactly as written, decomposed by hand: a
/// lowercase scheme other than `file`, no userinfo, port, query or escape, a host of plain
/// lowercase DNS labels (special schemes; the last label opens with a letter, so it is no IPv4
/// number; no `xn--` label to decode) or of unreserved and sub-delimiter characters (others, an
/// opaque host such as `skill://*`), a path of characters no percent-encode set holds (glob
/// brackets `[1-4]` included), without `.` or `..` segments, and an optional fragment of the same
/// characters. Most targets agents write (`log:///3/**`, `log:///1/[1-4]/*`,
/// `https://docs.rs/url#x`) are such; the property test in this module holds the short-cut to the
/// `url` crate's answer. Gives where the host and the path end and whether the path reads `/`
/// for an empty one ([`UrlTarget::as_written`]); `None` sends the target to [`whatwg_url`], as
/// does a target too long for 32-bit offsets.
fn plain_url(raw: &str, scheme_end: usize) -> Option<(u32, u32, bool)> {
    if u32::try_from(raw.len()).is_err() {
        return None;
    }
    let scheme = &raw[..scheme_end];
    // A spelling with an uppercase letter, and `file` (its host rules differ), go the long way.
    if scheme == "file" || scheme.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let special = SPECIAL.contains(&scheme);
    let rest = &raw[scheme_end + 3..];
    // The host ends at the first byte an opaque host cannot hold: a `/` starts the path, any
    // other such byte refuses the short-cut (a special host's bytes are a subset, so it too
    // would refuse it).
    let (host, path) = match first_not(rest.as_bytes(), &HOST_KEPT) {
        Some(i) if rest.as_bytes()[i] == b'/' => (&rest[..i], &rest[i..]),
        Some(_) => return None,
        None => (rest, ""),
    };
    if special {
        let labels_ok = host.len() <= MAX_HOST
            && host.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= MAX_LABEL
                    && !l.starts_with("xn--")
                    && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            });
        let last_is_name = host.rsplit('.').next().is_some_and(|l| l.as_bytes().first().is_some_and(u8::is_ascii_lowercase));
        if !labels_ok || !last_is_name {
            return None;
        }
    }
    // One scan finds the fragment and checks the path: `#` is not kept, so the first byte
    // that is not kept either opens the fragment or refuses the short-cut.
    let path = match first_not(path.as_bytes(), &KEPT) {
        None => path,
        Some(i) if path.as_bytes()[i] == b'#' => {
            if first_not(&path.as_bytes()[i + 1..], &KEPT).is_some() {
                return None;
            }
            &path[..i]
        }
        Some(_) => return None,
    };
    if dot_segment(path) {
        return None;
    }
    // Offsets into `raw`: the host starts after `://`, the path right after the host.
    let host_end = scheme_end + 3 + host.len();
    let path_end = host_end + path.len();
    // Special schemes serialize an empty path as `/`; others keep `""` (WHATWG).
    Some((host_end as u32, path_end as u32, path.is_empty() && special))
}

/// The index of the first byte `table` does not hold: eight table lookups ANDed per step,
/// then the step that failed is searched (a byte-at-a-time `position` costs about six
/// instructions a byte, and every URL target's host, path and fragment is scanned).
#[inline]
fn first_not(bytes: &[u8], table: &[bool; 256]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let all = table[c[0] as usize]
            & table[c[1] as usize]
            & table[c[2] as usize]
            & table[c[3] as usize]
            & table[c[4] as usize]
            & table[c[5] as usize]
            & table[c[6] as usize]
            & table[c[7] as usize];
        if !all {
            break;
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| !table[b as usize]).map(|i| at + i)
}

/// The bytes neither the path nor the fragment percent-encode set holds, as a table.
static KEPT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'/' | b'-'
                    | b'.'
                    | b'_'
                    | b'~'
                    | b'*'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'['
                    | b']'
            );
        b += 1;
    }
    t
};

/// The bytes of an opaque host (§path-syntax): the path's bytes less the port, userinfo and
/// IPv6 delimiters and the `/` that ends it.
static HOST_KEPT: [bool; 256] = {
    let mut t = KEPT;
    t[b':' as usize] = false;
    t[b'@' as usize] = false;
    t[b'[' as usize] = false;
    t[b']' as usize] = false;
    t[b'/' as usize] = false;
    t
};

/// Whether a path holds a `.` or `..` segment (WHATWG would remove it).
fn dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    let bound = |i: usize| i >= b.len() || b[i] == b'/';
    memchr::memchr_iter(b'.', b).any(|i| (i == 0 || b[i - 1] == b'/') && (bound(i + 1) || (b[i + 1] == b'.' && bound(i + 2))))
}

fn whatwg_url(raw: &str, scheme_end: usize) -> Result<UrlComponents, InvalidUri> {
    // WHATWG `URL` validates and serializes every component. Braces are glob syntax in a path
    // (`log:///1/*/{NEXT,READ}`), which WHATWG would percent-encode as `%7B`/`%7D` and so make
    // indistinguishable from an authored `%7B`: they cross the parser as tokens that no raw text
    // contains and come back as written.
    let special = SPECIAL.iter().any(|s| s.eq_ignore_ascii_case(&raw[..scheme_end]));
    let after = scheme_end + 3;
    let authority_end =
        raw[after..].find(|c: char| c == '/' || c == '?' || c == '#' || (special && c == '\\')).map_or(raw.len(), |i| after + i);
    let braced = raw[authority_end..].bytes().any(|b| b == b'{' || b == b'}');
    // Most targets carry no brace: they go to the URL parser as written, with nothing to restore.
    let tokens = braced.then(|| brace_tokens(raw));
    let substituted;
    let input: &str = match &tokens {
        None => raw,
        Some((open, close)) => {
            let mut t = String::with_capacity(raw.len() + 16);
            t.push_str(&raw[..authority_end]);
            for c in raw[authority_end..].chars() {
                match c {
                    '{' => t.push_str(open),
                    '}' => t.push_str(close),
                    _ => t.push(c),
                }
            }
            substituted = t;
            &substituted
        }
    };
    let parsed = url::Url::parse(input).map_err(|_| InvalidUri)?;
    let restore = |s: &str| -> String {
        match &tokens {
            None => s.to_string(),
            Some((open, close)) => s.replace(open.as_str(), "{").replace(close.as_str(), "}"),
        }
    };
    let username = match parsed.username() {
        "" => None,
        u => Some(u.to_string()),
    };
    let hostname = match parsed.host_str() {
        Some("") | None => None,
        Some(h) => Some(h.to_string()),
    };
    Ok(UrlComponents {
        scheme: parsed.scheme().to_string(),
        username,
        password: parsed.password().map(str::to_string),
        hostname,
        port: parsed.port().map(u32::from),
        // Special schemes serialize an empty path as `/`; others keep `""` (WHATWG).
        pathname: restore(parsed.path()),
        query: parsed.query().map(restore),
        fragment: parsed.fragment().map(restore),
    })
}

/// Two stand-ins for `{` and `}` that `raw` does not contain and WHATWG passes through unchanged
/// in a path, query or fragment (`%` before a non-hex digit stays as written).
fn brace_tokens(raw: &str) -> (String, String) {
    let mut k = 0u32;
    loop {
        let open = format!("%Z{k}oZ");
        let close = format!("%Z{k}cZ");
        if !raw.contains(&open) && !raw.contains(&close) {
            return (open, close);
        }
        k += 1;
    }
}

/// §naked-pattern ("Not a matcher"): heading text that is `#` and one channel token and nothing
/// else — `(page.html) #readable` — is the target's channel; returns the token.
pub fn channel_token(text: &str) -> Option<&str> {
    let token = text.trim().strip_prefix('#')?;
    let ok = !token.is_empty() && token.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
    ok.then_some(token)
}

/// The target with `channel` as its fragment, exactly as if written on the path
/// (§local-path-fragment): a URL's `raw` gains `#channel`, a local path's `raw` stays the path
/// alone. `None` when the target already names a channel (the token then stays the pattern).
pub fn with_channel<'a>(target: &Target<'a>, channel: &str) -> Option<Target<'a>> {
    match target {
        Target::Local { raw, fragment: None } => Some(Target::Local { raw: raw.clone(), fragment: Some(Cow::Owned(channel.to_string())) }),
        Target::Url(u) if u.fragment().is_none() => parse(&format!("{}#{channel}", u.raw())).ok().map(Target::into_owned),
        _ => None,
    }
}

/// What a slot's raw bytes hold, read once with one table lookup a byte, so that the later
/// checks on the slot (the escape decoding, the `<` scope, the URI group, the scheme, the `#`
/// channel) each ask a bit instead of scanning the slot again. A bit that is clear means the
/// byte is absent; decoding only removes backslashes, so the marks stay true of the decoded text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotMarks(u8);

/// [`SlotMarks::ANY`]: a selection whose slot was never read claims nothing is absent.
impl Default for SlotMarks {
    fn default() -> Self {
        SlotMarks::ANY
    }
}

impl SlotMarks {
    const BACKSLASH: u8 = 1;
    const LT: u8 = 2;
    const HASH: u8 = 4;
    const COLON: u8 = 8;
    const GROUPISH: u8 = 16;
    /// Marks that claim every byte: each check then takes its general path.
    pub const ANY: SlotMarks = SlotMarks(0xff);

    pub fn of(slot: &str) -> SlotMarks {
        // Eight lookups ORed per step: every slot of every heading is read here.
        let mut chunks = slot.as_bytes().chunks_exact(8);
        let mut m = 0;
        for c in &mut chunks {
            m |= MARKS[c[0] as usize]
                | MARKS[c[1] as usize]
                | MARKS[c[2] as usize]
                | MARKS[c[3] as usize]
                | MARKS[c[4] as usize]
                | MARKS[c[5] as usize]
                | MARKS[c[6] as usize]
                | MARKS[c[7] as usize];
        }
        SlotMarks(chunks.remainder().iter().fold(m, |m, &b| m | MARKS[b as usize]))
    }
    pub fn has_lt(self) -> bool {
        self.0 & Self::LT != 0
    }
    /// [`may_be_group`] of the slot.
    pub fn may_be_group(self) -> bool {
        self.0 & Self::GROUPISH != 0
    }
}

/// The bits [`SlotMarks::of`] sets for each byte.
static MARKS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut m = 0;
        if c == b'\\' {
            m |= SlotMarks::BACKSLASH;
        }
        if c == b'<' {
            m |= SlotMarks::LT;
        }
        if c == b'#' {
            m |= SlotMarks::HASH;
        }
        if c == b':' {
            m |= SlotMarks::COLON;
        }
        if GROUPISH[b] {
            m |= SlotMarks::GROUPISH;
        }
        t[b] = m;
        b += 1;
    }
    t
};

/// [`decode_slot`] of a slot whose [`SlotMarks`] are `marks`: no escape to decode without a
/// backslash.
pub fn decode_marked(s: &str, marks: SlotMarks) -> Cow<'_, str> {
    if marks.0 & SlotMarks::BACKSLASH == 0 {
        Cow::Borrowed(s)
    } else {
        decode_slot(s)
    }
}

/// [`parse_decoded`] of a slot's decoded text whose raw [`SlotMarks`] are `marks`: without a
/// `:` it holds no `scheme://`, and without a `#` a local path has no channel, so a plain path
/// such as `src/a.rs` is taken as it is.
pub fn parse_marked(raw: Cow<'_, str>, marks: SlotMarks) -> Result<Target<'_>, InvalidUri> {
    if marks.0 & (SlotMarks::COLON | SlotMarks::HASH) == 0 {
        Ok(Target::Local { raw, fragment: None })
    } else if marks.0 & SlotMarks::COLON == 0 {
        Ok(local(raw))
    } else {
        parse_decoded(raw)
    }
}

/// Whether a slot's raw text (escapes not decoded) could hold a URI group: false when it has no
/// backslash, comma, whitespace or byte beyond ASCII, so that [`split_uri_group`] of its decoded
/// text is `None`. One byte scan instead of decoding and scanning again. (The parser asks
/// [`SlotMarks::may_be_group`], which holds the same answer; the tests compare the two.)
#[cfg(test)]
pub fn may_be_group(slot: &str) -> bool {
    slot.bytes().any(|b| GROUPISH[b as usize])
}

/// The bytes [`may_be_group`] looks for, as a table.
static GROUPISH: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = b >= 0x80 || b as u8 == b'\\' || ascii_separator(b as u8);
        b += 1;
    }
    t
};

/// A URI group's separators among ASCII bytes: a comma, or what `char::is_whitespace` is there.
const fn ascii_separator(b: u8) -> bool {
    matches!(b, b',' | b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// §safe-uri-target-groups: several explicit `scheme://` URIs in one slot, separated by
/// top-level commas or whitespace (braces protect their contents). `None` unless every member
/// parses as a URI and there are at least two.
pub fn split_uri_group(raw: &str) -> Option<Vec<String>> {
    // One member at most without a separator: the usual single target costs one scan, a byte
    // scan when the slot is ASCII (`char::is_whitespace` there is these six bytes).
    let separated = if raw.is_ascii() { raw.bytes().any(ascii_separator) } else { raw.chars().any(|c| c == ',' || c.is_whitespace()) };
    if !separated {
        return None;
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in raw.chars() {
        match c {
            '{' => {
                depth += 1;
                cur.push(c);
            }
            '}' => {
                depth -= 1;
                cur.push(c);
            }
            c if depth <= 0 && (c == ',' || c.is_whitespace()) => {
                if !cur.is_empty() {
                    parts.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    if parts.len() < 2 || !parts.iter().all(|p| url_prefix(p).is_some() && parse(p).is_ok()) {
        return None;
    }
    Some(parts)
}

/// Whether a path carries glob syntax: `*`, `?`, a character class, a brace expansion, an
/// extglob or an escape (§path-glob).
pub fn has_glob(path: &str) -> bool {
    glob_magic_index(path).is_some()
}

/// The first glob metacharacter's byte index (§path-glob): `*` and `?` always; `[` when a `]`
/// closes the class; `{` when a `}` closes a list (`,`) or a range (`..`); `@(`, `!(`, `+(` when
/// a `)` closes the extglob; `\` when it escapes a character. Used only to choose a conservative
/// literal prefix, so a construct that does not close is literal text.
pub fn glob_magic_index(path: &str) -> Option<usize> {
    let b = path.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let rest = &path[i + 1..];
        let magic = match c {
            b'*' | b'?' => true,
            b'[' => rest.get(1..).is_some_and(|r| r.contains(']')),
            b'{' => rest.find('}').is_some_and(|e| rest[..e].contains(',') || rest[..e].contains("..")),
            b'@' | b'!' | b'+' => b.get(i + 1) == Some(&b'(') && rest.contains(')'),
            b'\\' => i + 1 < b.len(),
            _ => false,
        };
        if magic {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_parentheses_round_trip() {
        for s in ["a(b)c", "x\\y", "plain", "\\(", "a)\\"] {
            assert_eq!(decode_slot(&encode_slot(s)), s);
        }
        assert_eq!(decode_slot("a\\*b"), "a\\*b");
    }

    #[test]
    fn local_path_fragment() {
        assert_eq!(
            parse("data/users.html#readable").unwrap(),
            Target::Local { raw: "data/users.html".into(), fragment: Some("readable".into()) }
        );
        assert_eq!(parse("#stdout").unwrap(), Target::Local { raw: "#stdout".into(), fragment: None });
    }

    #[test]
    fn url_components() {
        let Target::Url(u) = parse("https://user:pw@example.com:8080/api?q=1#frag").unwrap() else { panic!() };
        assert_eq!((u.username(), u.password(), u.hostname(), u.port()), (Some("user"), Some("pw"), Some("example.com"), Some(8080)));
        assert_eq!((u.pathname(), u.query(), u.fragment()), ("/api", Some("q=1"), Some("frag")));
        let Target::Url(u) = parse("worker:///a").unwrap() else { panic!() };
        assert_eq!((u.hostname(), u.pathname()), (None, "/a"));
        // Held as offsets or boxed, a URL debug-prints its components.
        for (raw, shown) in [
            ("worker://db/a#f", r#"hostname: Some("db"), port: None, pathname: "/a", query: None, fragment: Some("f")"#),
            ("HTTPS://A.b:81/x?q", r#"hostname: Some("a.b"), port: Some(81), pathname: "/x", query: Some("q"), fragment: None"#),
        ] {
            assert!(format!("{:?}", parse(raw).unwrap()).contains(shown), "{raw}");
        }
        assert!(parse("http://[bad").is_err());
    }

    /// Every component of `u`, through its methods.
    type Components = (String, Option<String>, Option<String>, Option<String>, Option<u32>, String, Option<String>, Option<String>);
    fn components(u: &UrlTarget) -> Components {
        let o = |c: Option<&str>| c.map(str::to_string);
        (
            u.scheme().to_string(),
            o(u.username()),
            o(u.password()),
            o(u.hostname()),
            u.port(),
            u.pathname().to_string(),
            o(u.query()),
            o(u.fragment()),
        )
    }

    /// §path-syntax: the hand decomposition of plain URLs gives exactly what WHATWG parsing
    /// gives, on every target it takes.
    #[test]
    fn path_syntax_plain_urls_match_whatwg() {
        const SCHEMES: &[&str] = &["http", "https", "HTTP", "ws", "wss", "ftp", "file", "log", "worker", "message", "Log", "a+b.c-d"];
        const PIECES: &[&str] = &[
            "a",
            "Z",
            "z",
            "0",
            "9",
            "-",
            ".",
            "_",
            "~",
            "/",
            ":",
            "@",
            "%",
            "%2e",
            "?",
            "#",
            "*",
            "{",
            "}",
            "\\",
            " ",
            "!",
            "'",
            "(",
            "|",
            "^",
            "xn--",
            "..",
            "0x",
            "1.2.3.4",
            "example",
            "com",
            "localhost",
            "\u{e9}",
            "//",
            "/./",
            "/../",
            "=",
            "+",
            "[",
            "]",
            "\"",
            "<",
            ">",
            "`",
            "$",
            "&",
            ")",
            ",",
            ";",
        ];
        let mut plain = 0;
        let mut check = |raw: &str| {
            let end = url_prefix(raw).expect("a scheme prefix");
            if let Some((host_end, path_end, slash)) = plain_url(raw, end) {
                plain += 1;
                let fast = UrlTarget::as_written(Cow::Borrowed(raw), end as u32, host_end, path_end, slash);
                // Every component it gives is the input's own text (an empty special path reads `/`).
                let inside = |c: &str| raw.as_bytes().as_ptr_range().contains(&c.as_ptr()) || c.is_empty() || c == "/";
                assert!([fast.scheme(), fast.pathname()].into_iter().chain(fast.hostname()).chain(fast.fragment()).all(inside), "{raw}");
                let slow = whatwg_url(raw, end).map(|c| UrlTarget::rewritten(Cow::Borrowed(raw), c)).map(|u| components(&u));
                assert_eq!(Ok(components(&fast)), slow, "{raw}");
            }
        };
        for raw in [
            "https://example.com",
            "https://docs.rs/url/latest",
            "log:///3/**",
            "worker:///_plurnk/**",
            "message://77cec3c3/*",
            "ws://a-b.c9/x:y@z",
            "foo://HOST/Path",
            "log:///a#b c",
            "log:///a\"b",
            "log:///a#b`c",
        ] {
            check(raw);
        }
        // Shapes agents write that the short-cut must take: an opaque glob host, glob brackets
        // in a path, a fragment.
        for raw in [
            "skill://*/SKILL.md",
            "log:///1/[1-4]/*/FIND",
            "log:///1/2/[19-32]/*",
            "https://en.wikipedia.org/wiki/A_b#readable",
            "log:///1#",
            "https://a.b/#x/y",
        ] {
            assert!(plain_url(raw, url_prefix(raw).unwrap()).is_some(), "{raw}");
            check(raw);
        }
        bolero::check!().with_type::<Vec<u8>>().with_iterations(50_000).with_max_len(12).for_each(|bytes: &Vec<u8>| {
            let Some((&first, rest)) = bytes.split_first() else { return };
            let mut raw = format!("{}://", SCHEMES[first as usize % SCHEMES.len()]);
            rest.iter().for_each(|b| raw.push_str(PIECES[*b as usize % PIECES.len()]));
            check(&raw);
        });
        assert!(plain > 1000, "the generator made too few plain URLs ({plain})");
    }

    #[test]
    fn path_glob() {
        assert!(has_glob("src/**/*.ts"));
        assert!(has_glob("a/@(x|y)"));
        assert!(!has_glob("src/a.ts"));
        assert_eq!(glob_magic_index("log/[1-4]/x"), Some(4));
        assert_eq!(glob_magic_index("a/{NEXT,READ}"), Some(2));
        assert_eq!(glob_magic_index("config/a{b}.txt"), None);
        assert_eq!(glob_magic_index("notes[draft"), None);
        assert_eq!(glob_magic_index("a\\*b"), Some(1));
    }

    #[test]
    fn path_syntax_braces_keep_their_spelling() {
        let Target::Url(u) = parse("https://host/{path}?x=/{a,b}#/{c,d}").unwrap() else { panic!() };
        assert_eq!((u.pathname(), u.query(), u.fragment()), ("/{path}", Some("x=/{a,b}"), Some("/{c,d}")));
        let Target::Url(u) = parse("log:///1/%7BPLAN,READ%7D").unwrap() else { panic!() };
        assert_eq!(u.pathname(), "/1/%7BPLAN,READ%7D");
        let Target::Url(u) = parse("worker:///a local.md").unwrap() else { panic!() };
        assert_eq!(u.pathname(), "/a%20local.md");
    }

    /// §safe-uri-target-groups: a slot the one-scan check clears holds no group when decoded.
    #[test]
    fn safe_uri_groups_need_what_the_check_looks_for() {
        const ALPHABET: &[&str] =
            &["a", "log:///1", "https://x.io/", ",", " ", "\\", "(", ")", "{", "}", "\u{a0}", "\u{2003}", "é", "\t", "\u{b}"];
        bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(8).for_each(|bytes: &Vec<u8>| {
            let slot: String = bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()]).collect();
            if !may_be_group(&slot) {
                assert_eq!(split_uri_group(&decode_slot(&slot)), None, "{slot:?}");
            }
        });
        assert!(may_be_group("log:///1 log:///2") && may_be_group("a\u{a0}b") && !may_be_group("log:///1/**"));
    }

    /// §path-parentheses, §local-path-fragment, §safe-uri-target-groups: the checks that ask
    /// the slot's marks answer as the scans they replace.
    #[test]
    fn path_syntax_slot_marks_agree_with_the_scans() {
        const ALPHABET: &[&str] = &[
            "a",
            "src/a.rs",
            "log:///1",
            "https://x.io/",
            ",",
            " ",
            "\\",
            "(",
            ")",
            "{",
            "}",
            "#",
            "#x",
            ":",
            "://",
            "<",
            ">",
            "\u{a0}",
            "é",
            "\t",
            "*",
            "%",
            "[",
        ];
        let check = |slot: &str| {
            let marks = SlotMarks::of(slot);
            assert_eq!(marks.may_be_group(), may_be_group(slot), "{slot:?}");
            assert_eq!(marks.has_lt(), slot.contains('<'), "{slot:?}");
            assert_eq!(decode_marked(slot, marks), decode_slot(slot), "{slot:?}");
            assert_eq!(parse_marked(decode_marked(slot, marks), marks), parse_decoded(decode_slot(slot)), "{slot:?}");
            // Marks that claim every byte take the general paths.
            assert_eq!(parse_marked(decode_marked(slot, SlotMarks::ANY), SlotMarks::ANY), parse_decoded(decode_slot(slot)), "{slot:?}");
        };
        // Every slot of up to three pieces, then longer ones at random.
        let n = ALPHABET.len();
        for i in 0..n * n * n {
            check(&[i % n, i / n % n, i / (n * n)].map(|k| ALPHABET[k]).concat());
        }
        bolero::check!().with_type::<Vec<u8>>().with_iterations(30_000).with_max_len(8).for_each(|bytes: &Vec<u8>| {
            let slot: String = bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()]).collect();
            check(&slot);
        });
    }

    #[test]
    fn naked_pattern_channel_token() {
        assert_eq!(channel_token("#readable"), Some("readable"));
        assert_eq!(channel_token("#two words"), None);
        assert_eq!(channel_token("#TODO*"), None);
        let t = with_channel(&parse("page.html").unwrap(), "readable").unwrap();
        assert_eq!(t, Target::Local { raw: "page.html".into(), fragment: Some("readable".into()) });
        let Some(Target::Url(u)) = with_channel(&parse("worker:///a.html").unwrap(), "readable") else { panic!() };
        assert_eq!((u.raw(), u.fragment()), ("worker:///a.html#readable", Some("readable")));
        assert_eq!(with_channel(&parse("a.html#x").unwrap(), "readable"), None);
    }

    /// §path-syntax: the eight-at-a-time scans answer as the byte-at-a-time ones, at every
    /// length and position of the first byte the table refuses (or none).
    #[test]
    fn path_syntax_chunked_scans_agree_with_byte_scans() {
        bolero::check!().with_type::<Vec<u8>>().with_iterations(50_000).with_max_len(40).for_each(|bytes: &Vec<u8>| {
            // Mostly kept bytes, so a refused one falls anywhere in a long run.
            let b: Vec<u8> = bytes.iter().map(|&x| if x % 5 == 0 { x } else { b'a' + x % 26 }).collect();
            for table in [&KEPT, &HOST_KEPT] {
                assert_eq!(first_not(&b, table), b.iter().position(|&c| !table[c as usize]), "{b:?}");
            }
            if let Ok(s) = std::str::from_utf8(&b) {
                assert_eq!(SlotMarks::of(s), SlotMarks(b.iter().fold(0, |m, &c| m | MARKS[c as usize])), "{s:?}");
            }
        });
    }
}
