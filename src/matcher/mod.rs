//! Matcher dialects (§matcher-prefix-claims): the leading characters claim a dialect, and a
//! claimed dialect that fails admission is the operation's refusal (§matcher-refusal), never a
//! parse error.
//!
//! | Prefix | Dialect | Admission here |
//! |---|---|---|
//! | `//` | XPath 1.0 | [`xpath`]: the XPath 1.0 grammar, failures worded as `xpath.parse()` words them |
//! | `/` | regex | ECMAScript syntax (`regress`), failures worded as V8's `RegExp` words them, with the tolerances of §regex-dialect-readings, §inline-flag-tolerance, §regex-trailing-text, §regex-sed-range and §unclosed-regex |
//! | `^` | regex | the whole text is the pattern (§naked-pattern) |
//! | `$` | JSONPath | RFC 9535 (`serde_json_path`), failures worded as `json-p3` words them ([`jsonpath`]) |
//! | `~` | full text | one line, validated at execution |
//! | `&` | graph | `&symbol`, `&<symbol`, `&>symbol` |
//! | other | glob | one line |
//!
//! Every text lives in `rules/staging/matchers.yaml`; this module names them by id.

use crate::ast::Matcher;
use crate::rules::{DiagId, Rules};

/// Advisories a matcher reading produced (positioned by the caller).
#[derive(Debug, Clone, PartialEq)]
pub struct MatcherNote {
    /// The advisory's diagnostic.
    pub id: DiagId,
    /// Its placeholders' values.
    pub args: Vec<(&'static str, String)>,
}

impl MatcherNote {
    fn new(id: DiagId, args: &[(&'static str, &str)]) -> MatcherNote {
        MatcherNote { id, args: args.iter().map(|(k, v)| (*k, v.to_string())).collect() }
    }
}

/// Reads one matcher string. An unreadable matcher carries no advisories: the refusal is the
/// one fact about it (§error-shape).
pub fn read(rules: &Rules, raw: &str) -> (Matcher, Vec<MatcherNote>) {
    read_owned(rules, raw.to_string())
}

/// [`read`] of a string the caller owns: the matcher keeps it as its `raw` rather than a copy.
pub fn read_owned(rules: &Rules, raw: String) -> (Matcher, Vec<MatcherNote>) {
    let mut notes = Vec::new();
    // Every reading leaves `raw` empty (no allocation); the written text moves in here.
    let mut m = classify(rules, &raw, &mut notes);
    match &mut m {
        Matcher::Regex { raw: r, .. } | Matcher::Other { raw: r, .. } => *r = raw,
        Matcher::Unreadable { raw: r, .. } => {
            *r = raw;
            notes.clear();
        }
    }
    (m, notes)
}

fn classify(rules: &Rules, raw: &str, notes: &mut Vec<MatcherNote>) -> Matcher {
    // §pattern-body-single-line: refused before dialect classification.
    if raw.contains('\n') {
        let count = raw.split('\n').count().to_string();
        return unreadable(rules, rules.text(DiagId::MatcherMultiline, &[("count", &count)]), DiagId::MatcherMultilineRecovery);
    }
    let b = raw.as_bytes();
    // XPath is classified before regex because its prefix is two slashes.
    if b.starts_with(b"//") {
        return match xpath::check(raw) {
            Ok(()) => other("xpath"),
            Err(e) => {
                let error = match e {
                    xpath::Error::Char(c) => rules.text(DiagId::MatcherXpathUnexpectedChar, &[("char", &c.to_string())]),
                    xpath::Error::Literal(l) => rules.text(DiagId::MatcherXpathUnterminatedLiteral, &[("literal", &l)]),
                    xpath::Error::Parse => rules.text(DiagId::MatcherXpathParseError, &[]),
                };
                unreadable(rules, rules.text(DiagId::MatcherXpathNative, &[("error", &error)]), DiagId::MatcherXpathRecovery)
            }
        };
    }
    match b.first() {
        Some(b'/') => slash_regex(rules, raw, notes),
        Some(b'^') => anchored(rules, raw, notes),
        Some(b'$') => match jsonpath::check(raw) {
            Ok(()) => other("jsonpath"),
            Err(e) => {
                let message = match e.id {
                    Some(id) => rules.text(id, &[("token", e.token.as_deref().unwrap_or(""))]),
                    None => e.engine.unwrap_or_default(),
                };
                let error =
                    rules.text(DiagId::MatcherJsonpathLocated, &[("message", &message), ("query", raw), ("index", &e.index.to_string())]);
                unreadable(rules, rules.text(DiagId::MatcherJsonpathNative, &[("error", &error)]), DiagId::MatcherJsonpathRecovery)
            }
        },
        Some(b'~') => other("fts"),
        Some(b'&') => {
            if graph_shape(raw) {
                other("graph")
            } else {
                unreadable(rules, rules.text(DiagId::MatcherGraph, &[]), DiagId::MatcherGraphRecovery)
            }
        }
        _ => other("glob"),
    }
}

fn other(dialect: &'static str) -> Matcher {
    Matcher::Other { dialect, raw: String::new() }
}

#[cold]
fn unreadable(rules: &Rules, message: String, recovery: DiagId) -> Matcher {
    Matcher::Unreadable { raw: String::new(), message, recovery: rules.text(recovery, &[]) }
}

/// `&symbol`, `&<symbol` or `&>symbol`: a direction and one non-whitespace symbol.
fn graph_shape(raw: &str) -> bool {
    let rest = &raw[1..];
    let symbol = rest.strip_prefix('<').or_else(|| rest.strip_prefix('>')).unwrap_or(rest);
    !symbol.is_empty() && !symbol.chars().any(char::is_whitespace)
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

pub mod jsonpath;
mod regex;
pub mod xpath;

use regex::{anchored, slash_regex};

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> &'static Rules {
        Rules::builtin()
    }

    fn m(raw: &str) -> Matcher {
        read(rules(), raw).0
    }

    #[test]
    fn xpath_grammar() {
        for ok in [
            "//item",
            "//user[@role='admin']",
            "//a/b[1]/@c",
            "//a[position() > 1 and @x != 'y']",
            "//*",
            "//ns:a",
            "//a | //b",
            "//text()",
            "//a[. = 3 * 2]",
            "//descendant::a",
        ] {
            assert_eq!(xpath::check(ok), Ok(()), "{ok}");
        }
        assert_eq!(xpath::check("//[bad"), Err(xpath::Error::Parse));
        assert_eq!(xpath::check("// TODO: add"), Err(xpath::Error::Char(':')));
        assert_eq!(xpath::check("// foo {bar}"), Err(xpath::Error::Char('{')));
        assert_eq!(xpath::check("//"), Err(xpath::Error::Parse));
        assert_eq!(xpath::check("//a[@b='x]"), Err(xpath::Error::Literal("'x]".into())));
        assert_eq!(xpath::check("//bogus::a"), Err(xpath::Error::Parse));
    }

    #[test]
    fn jsonpath_scan_positions() {
        let f = |q: &str| jsonpath::check(q).err().map(|e| (e.id, e.token, e.index));
        assert_eq!(f("$.a[?@.b > 1]"), None);
        assert_eq!(f("$["), Some((Some(DiagId::MatcherJsonpathUnclosedBracket), None, 2)));
        assert_eq!(f("$HOME"), Some((Some(DiagId::MatcherJsonpathExpectedSegment), Some("'H'".into()), 1)));
        assert_eq!(f("$.["), Some((Some(DiagId::MatcherJsonpathShorthand), Some("'['".into()), 2)));
    }

    /// §matcher-prefix-claims: a query ending inside a `\u` escape of an open string literal is
    /// refused as an unclosed literal, never handed to the engine, which panics on it (the fuzz
    /// crash was `$['(tes55559\\\u`); a complete escape still reaches the engine.
    #[test]
    fn jsonpath_partial_unicode_escape_at_the_end() {
        use DiagId::{MatcherJsonpathUnclosedBracket as Bracket, MatcherJsonpathUnclosedString as String};
        // The query, and the failure the scan names (at the end of the query).
        let cases =
            [(r"$['\u", String), (r"$['\uD", String), (r#"$["\u"#, String), (r"$['\uD800\uD", String), (r"$['(tes55559\\\u", String)];
        for (q, id) in cases.into_iter().chain([(r"$['\u12", String), (r#"$[?@.a=="\u"#, Bracket), (r"$[?@['\u", Bracket)]) {
            let f = jsonpath::check(q).expect_err(q);
            assert_eq!((f.id, f.index), (Some(id), q.chars().count()), "{q}");
        }
        assert_eq!(jsonpath::check(r"$['\u00e9']"), Ok(()));
        assert!(jsonpath::check(r"$['\u12']").is_err());
    }

    /// No query made of JSONPath's pieces makes `check` panic (the engine's parser is not ours).
    /// The first byte picks how the query opens and ends, so most queries reach a selection's
    /// literals and many end in an escape.
    #[test]
    fn jsonpath_check_never_panics() {
        const OPENINGS: &[&str] = &["$", "$[", "$['", "$[\"", "$[?@[", "$[?@.a==\"", "$.a[?match(@, '", "$..["];
        const ENDINGS: &[&str] = &["", "\\u", "\\uD", "'", "]", "\\"];
        const PIECES: &[&str] = &[
            "[", "]", "'", "\"", "\\", "u", "0", "D", "8", "C", "d", ".", "?", "@", "=", "(", ")", ",", "*", ":", "1", "a", " ", "\\u",
            "\\uD800", "$", "!", "<", "-", "length", "match",
        ];
        // How many queries end in a `\u` escape inside a literal: the generator must make them.
        let mut open_escapes = 0;
        bolero::check!().with_type::<Vec<u8>>().with_iterations(100_000).with_max_len(10).for_each(|bytes: &Vec<u8>| {
            let Some((&first, rest)) = bytes.split_first() else { return };
            let mut q = String::from(OPENINGS[first as usize % OPENINGS.len()]);
            rest.iter().for_each(|b| q.push_str(PIECES[*b as usize % PIECES.len()]));
            q.push_str(ENDINGS[first as usize / OPENINGS.len() % ENDINGS.len()]);
            open_escapes += usize::from(q.ends_with("\\u") && q.contains(['\'', '"']));
            let _ = jsonpath::check(&q);
        });
        assert!(open_escapes > 100, "the generator made too few open escapes ({open_escapes})");
    }

    #[test]
    fn nesting_is_bounded() {
        // Within the bound the engines run on a test thread's stack; past it, a refusal.
        let within = format!("$[?{}@.a{}]", "(".repeat(jsonpath::MAX_DEPTH - 1), ")".repeat(jsonpath::MAX_DEPTH - 1));
        assert_eq!(jsonpath::check(&within), Ok(()));
        let past = format!("$[?{}@.a{}]", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(jsonpath::check(&past).err().and_then(|f| f.id), Some(DiagId::MatcherJsonpathNesting));
        let within = format!("//a{}1{}", "[a".repeat(100), "]".repeat(100));
        assert_eq!(xpath::check(&within), Ok(()));
        let past = format!("//a{}1{}", "[a".repeat(20000), "]".repeat(20000));
        assert_eq!(xpath::check(&past), Err(xpath::Error::Parse));
    }

    #[test]
    fn dialects_by_prefix() {
        assert!(matches!(m("~a b"), Matcher::Other { dialect: "fts", .. }));
        assert!(matches!(m("@patch"), Matcher::Other { dialect: "glob", .. }));
        assert!(matches!(m("&<x"), Matcher::Other { dialect: "graph", .. }));
        assert!(matches!(m("&"), Matcher::Unreadable { .. }));
    }
}
