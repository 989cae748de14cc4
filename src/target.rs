//! Target and path grammar (§path-syntax): local paths with their `#channel` fragment
//! (§local-path-fragment), scheme URLs decomposed under the WHATWG URL standard (the `url`
//! crate validates and locates the components), the target-slot escapes (§path-parentheses)
//! and glob classification (§path-glob).

use crate::ast::{Target, UrlTarget};

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
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'+' | b'.' | b'-')) {
        i += 1;
    }
    if b[i..].starts_with(b"://") {
        Some(i)
    } else {
        None
    }
}

const SPECIAL: &[&str] = &["http", "https", "ws", "wss", "ftp", "file"];

/// Decomposes one target (already slot-decoded).
pub fn parse(raw: &str) -> Result<Target, InvalidUri> {
    match url_prefix(raw) {
        Some(scheme_end) => parse_url(raw, scheme_end).map(Target::Url),
        None => Ok(local(raw)),
    }
}

fn local(raw: &str) -> Target {
    // The first `#` ends the path, unless the spelling opens with `#` (§local-path-fragment).
    match raw.find('#') {
        Some(i) if i > 0 => Target::Local { raw: raw[..i].to_string(), fragment: Some(raw[i + 1..].to_string()) },
        _ => Target::Local { raw: raw.to_string(), fragment: None },
    }
}

fn parse_url(raw: &str, scheme_end: usize) -> Result<UrlTarget, InvalidUri> {
    let parsed = url::Url::parse(raw).map_err(|_| InvalidUri)?;
    let scheme = raw[..scheme_end].to_ascii_lowercase();
    let special = SPECIAL.contains(&scheme.as_str());
    let rest = &raw[scheme_end + 3..];
    // Components are located on the authored text so their spelling survives (§path-query).
    let (before_frag, fragment) = match rest.find('#') {
        Some(i) => (&rest[..i], Some(rest[i + 1..].to_string())),
        None => (rest, None),
    };
    let (before_query, query) = match before_frag.find('?') {
        Some(i) => (&before_frag[..i], Some(before_frag[i + 1..].to_string())),
        None => (before_frag, None),
    };
    let auth_end = before_query.find('/').unwrap_or(before_query.len());
    let path = &before_query[auth_end..];
    let username = match parsed.username() {
        "" => None,
        u => Some(u.to_string()),
    };
    let password = parsed.password().map(|p| p.to_string());
    let hostname = match parsed.host_str() {
        Some("") | None => None,
        Some(h) => Some(h.to_string()),
    };
    let port = parsed.port().map(|p| p as u32);
    let pathname = if path.is_empty() && special { "/".to_string() } else { path.to_string() };
    Ok(UrlTarget { raw: raw.to_string(), scheme, username, password, hostname, port, pathname, query, fragment })
}

/// §safe-uri-target-groups: several explicit `scheme://` URIs in one slot, separated by
/// top-level commas or whitespace (braces protect their contents). `None` unless every member
/// parses as a URI and there are at least two.
pub fn split_uri_group(raw: &str) -> Option<Vec<String>> {
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
            ',' | ' ' | '\t' if depth <= 0 => {
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

/// Whether a path carries glob syntax: `*`, `?`, a character class, braces, an extglob or an
/// escape (§path-glob).
pub fn has_glob(path: &str) -> bool {
    glob_magic_index(path).is_some()
}

/// The first glob metacharacter's byte index (§path-glob).
pub fn glob_magic_index(path: &str) -> Option<usize> {
    let b = path.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'*' | b'?' | b'[' | b'{' | b'\\' => return Some(i),
            b'@' | b'!' | b'+' if b.get(i + 1) == Some(&b'(') => return Some(i),
            _ => {}
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
        assert_eq!(parse("data/users.html#readable").unwrap(), Target::Local { raw: "data/users.html".into(), fragment: Some("readable".into()) });
        assert_eq!(parse("#stdout").unwrap(), Target::Local { raw: "#stdout".into(), fragment: None });
    }

    #[test]
    fn url_components() {
        let Target::Url(u) = parse("https://user:pw@example.com:8080/api?q=1#frag").unwrap() else { panic!() };
        assert_eq!((u.username.as_deref(), u.password.as_deref(), u.hostname.as_deref(), u.port), (Some("user"), Some("pw"), Some("example.com"), Some(8080)));
        assert_eq!((u.pathname.as_str(), u.query.as_deref(), u.fragment.as_deref()), ("/api", Some("q=1"), Some("frag")));
        let Target::Url(u) = parse("worker:///a").unwrap() else { panic!() };
        assert_eq!((u.hostname, u.pathname.as_str()), (None, "/a"));
        assert!(parse("http://[bad").is_err());
    }

    #[test]
    fn path_glob() {
        assert!(has_glob("src/**/*.ts"));
        assert!(has_glob("a/@(x|y)"));
        assert!(!has_glob("src/a.ts"));
    }
}
