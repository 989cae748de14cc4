//! JSONPath admission: `serde_json_path` decides (RFC 9535); a refusal is worded as `json-p3`
//! words it, by a scan of the query's segments that finds the first lexical failure and its
//! index. A grammar failure the scan does not see keeps the engine's own words.

use crate::rules::DiagId;

#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The `json-p3` wording, when the scan named the failure.
    pub id: Option<DiagId>,
    /// The offending character, quoted as `json-p3` quotes it.
    pub token: Option<String>,
    /// The 0-based character index of the failure.
    pub index: usize,
    /// The engine's own words, when the scan did not name the failure.
    pub engine: Option<String>,
}

/// The deepest nesting of brackets and parentheses handed to the engine, whose parser
/// recurses on each.
pub const MAX_DEPTH: usize = 64;

pub fn check(q: &str) -> Result<(), Failure> {
    if let Some(f) = before_engine(q) {
        return Err(f);
    }
    match serde_json_path::JsonPath::parse(q) {
        Ok(_) => Ok(()),
        Err(e) => Err(scan(q).unwrap_or(Failure {
            id: None,
            token: None,
            index: e.position().saturating_sub(1),
            engine: Some(e.message().to_string()),
        })),
    }
}

/// The failures found before the engine is handed the query: bracket and parenthesis
/// nesting (outside string literals) beyond [`MAX_DEPTH`], and a query that ends in a string
/// literal's `\u` escape with fewer than four hex digits. On that one `serde_json_path` 0.7
/// panics (an internal assertion that its parser never streams; fuzzing found it) instead of
/// failing, so it gets the failure the engine's would have become: the scan's, or an
/// unclosed string literal.
fn before_engine(q: &str) -> Option<Failure> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    // The character index after the open literal's last `\u`.
    let mut hex_from: Option<usize> = None;
    let mut n = 0;
    for (i, c) in q.chars().enumerate() {
        n = i + 1;
        match quote {
            Some(qc) => {
                if escaped {
                    escaped = false;
                    if c == 'u' {
                        hex_from = Some(i + 1);
                    }
                } else if c == '\\' {
                    escaped = true;
                } else if c == qc {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    hex_from = None;
                }
                '[' | '(' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Some(Failure { id: Some(DiagId::MatcherJsonpathNesting), token: None, index: i, engine: None });
                    }
                }
                ']' | ')' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    let partial = quote.is_some() && hex_from.is_some_and(|h| n - h < 4);
    partial.then(|| scan(q).unwrap_or(Failure { id: Some(DiagId::MatcherJsonpathUnclosedString), token: None, index: n, engine: None }))
}

/// A character as Python's `repr` shows it, the quoting `json-p3` uses.
fn quote(c: Option<char>) -> String {
    match c {
        None => "''".to_string(),
        Some('\'') => "\"'\"".to_string(),
        Some('\\') => "'\\\\'".to_string(),
        Some(c) => format!("'{c}'"),
    }
}

fn fail(id: DiagId, token: Option<Option<char>>, index: usize) -> Option<Failure> {
    Some(Failure { id: Some(id), token: token.map(quote), index, engine: None })
}

fn name_first(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c as u32 >= 0x80
}

fn blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// The first lexical failure of `q` (which opens with `$`), if any.
pub fn scan(q: &str) -> Option<Failure> {
    let c: Vec<char> = q.chars().collect();
    let n = c.len();
    let at = |i: usize| c.get(i).copied();
    let mut i = 1;
    loop {
        let start = i;
        while at(i).is_some_and(blank) {
            i += 1;
        }
        let Some(ch) = at(i) else {
            return if i > start { fail(DiagId::MatcherJsonpathTrailingWhitespace, None, start) } else { None };
        };
        match ch {
            '.' if at(i + 1) == Some('.') => {
                i += 2;
                match at(i) {
                    None => return fail(DiagId::MatcherJsonpathBaldDescendant, None, i),
                    Some('*') => i += 1,
                    Some('[') => match bracket_scan(&c, i + 1) {
                        Ok(next) => i = next,
                        Err(f) => return Some(f),
                    },
                    Some(f) if name_first(f) => i = name(&c, i),
                    other => return fail(DiagId::MatcherJsonpathDescendantToken, Some(other), i),
                }
            }
            '.' => {
                i += 1;
                match at(i) {
                    Some(w) if blank(w) => return fail(DiagId::MatcherJsonpathDotWhitespace, None, i),
                    Some('*') => i += 1,
                    Some(f) if name_first(f) => i = name(&c, i),
                    other => return fail(DiagId::MatcherJsonpathShorthand, Some(other), i),
                }
            }
            '[' => match bracket_scan(&c, i + 1) {
                Ok(next) => i = next,
                Err(f) => return Some(f),
            },
            other => return fail(DiagId::MatcherJsonpathExpectedSegment, Some(Some(other)), i),
        }
        if i > n {
            return None;
        }
    }
}

fn name(c: &[char], mut i: usize) -> usize {
    while i < c.len() && (name_first(c[i]) || c[i].is_ascii_digit()) {
        i += 1;
    }
    i
}

/// A bracketed selection from just after its `[`: the index after its `]`, or its failure.
fn bracket_scan(c: &[char], mut i: usize) -> Result<usize, Failure> {
    let n = c.len();
    let unclosed = |_: usize| Failure { id: Some(DiagId::MatcherJsonpathUnclosedBracket), token: None, index: n, engine: None };
    loop {
        while i < n && blank(c[i]) {
            i += 1;
        }
        let Some(&ch) = c.get(i) else { return Err(unclosed(i)) };
        match ch {
            ']' => return Ok(i + 1),
            '*' | ',' | ':' => i += 1,
            '\'' | '"' => {
                i += 1;
                loop {
                    match c.get(i) {
                        None => {
                            return Err(Failure { id: Some(DiagId::MatcherJsonpathUnclosedString), token: None, index: n, engine: None })
                        }
                        Some('\\') => i += 2,
                        Some(&q) if q == ch => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
            }
            '?' => {
                // A filter: its expression runs to the `]` that closes this selection.
                i += 1;
                let mut depth = 0i32;
                loop {
                    match c.get(i) {
                        None => return Err(unclosed(i)),
                        Some('\'' | '"') => {
                            let q = c[i];
                            i += 1;
                            while i < n && c[i] != q {
                                if c[i] == '\\' {
                                    i += 1;
                                }
                                i += 1;
                            }
                            i += 1;
                        }
                        Some('[' | '(') => {
                            depth += 1;
                            i += 1;
                        }
                        Some(')') => {
                            depth -= 1;
                            i += 1;
                        }
                        Some(']') if depth > 0 => {
                            depth -= 1;
                            i += 1;
                        }
                        Some(']') => return Ok(i + 1),
                        _ => i += 1,
                    }
                }
            }
            '-' | '0'..='9' => {
                i += 1;
                while i < n && c[i].is_ascii_digit() {
                    i += 1;
                }
            }
            other => {
                return Err(Failure {
                    id: Some(DiagId::MatcherJsonpathBracketToken),
                    token: Some(quote(Some(other))),
                    index: i,
                    engine: None,
                })
            }
        }
    }
}
