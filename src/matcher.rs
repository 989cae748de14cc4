//! Matcher dialects (§matcher-prefix-claims): the leading characters claim a dialect, and a
//! claimed dialect that fails admission is the operation's refusal (§matcher-refusal), never a
//! parse error.

use crate::ast::Matcher;
use crate::rules::Rules;

/// Advisories a matcher reading produced (positioned by the caller).
#[derive(Debug, Clone, PartialEq)]
pub struct MatcherNote {
    pub id: crate::rules::DiagId,
    pub args: Vec<(&'static str, String)>,
}

/// Reads one matcher string.
pub fn read(rules: &Rules, raw: &str) -> (Matcher, Vec<MatcherNote>) {
    let notes = Vec::new();
    let b = raw.as_bytes();
    if b.starts_with(b"//") {
        return (Matcher::Other { dialect: "xpath", raw: raw.to_string() }, notes);
    }
    if b.first() == Some(&b'/') {
        return regex(rules, raw, notes);
    }
    if b.first() == Some(&b'^') {
        return (Matcher::Regex { raw: raw.to_string(), pattern: raw.to_string(), flags: String::new() }, notes);
    }
    let dialect = match b.first() {
        Some(b'$') => "jsonpath",
        Some(b'~') => "fts",
        Some(b'&') => "graph",
        _ => "glob",
    };
    let _ = rules;
    (Matcher::Other { dialect, raw: raw.to_string() }, notes)
}

/// Splits `/pattern/flags`: the closing slash is the first unescaped `/` outside a class.
pub fn split_regex(raw: &str) -> Option<(usize, usize)> {
    let b = raw.as_bytes();
    let mut i = 1;
    let mut class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => return Some((1, i)),
            _ => {}
        }
        i += 1;
    }
    None
}

fn regex(_rules: &Rules, raw: &str, notes: Vec<MatcherNote>) -> (Matcher, Vec<MatcherNote>) {
    match split_regex(raw) {
        Some((s, e)) => {
            let pattern = raw[s..e].to_string();
            let flags = raw[e + 1..].to_string();
            (Matcher::Regex { raw: raw.to_string(), pattern, flags }, notes)
        }
        None => (Matcher::Regex { raw: raw.to_string(), pattern: raw[1..].to_string(), flags: String::new() }, notes),
    }
}
