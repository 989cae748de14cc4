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

// ── The regex dialect ──────────────────────────────────────────────────────────────────────────

/// Why a pattern failed to compile: a V8 reason text, or the engine's own words.
#[derive(Debug, Clone, PartialEq)]
enum Reason {
    V8(DiagId),
    Engine(String),
}

impl Reason {
    fn text(&self, rules: &Rules) -> String {
        match self {
            Reason::V8(id) => rules.text(*id, &[]),
            Reason::Engine(t) => t.clone(),
        }
    }
}

/// `/pattern/flags` and its tolerances.
fn slash_regex(rules: &Rules, raw: &str, notes: &mut Vec<MatcherNote>) -> Matcher {
    let t = raw.trim_end();
    if t == "/" {
        // §unclosed-regex: a bare `/` has no pattern to read.
        return unreadable(rules, rules.text(DiagId::MatcherBareSlash, &[]), DiagId::MatcherBareSlashRecovery);
    }
    let Some((start, end)) = split_regex(t) else {
        // §unclosed-regex: the whole rest is the pattern, with no flags.
        let read = readings(&t[1..], "");
        return match compile(&read.pattern, &read.flags) {
            Ok(()) => {
                notes.push(MatcherNote::new(DiagId::MatcherUnclosedRegex, &[("raw", t)]));
                notes.extend(read.notes);
                Matcher::Regex { raw: String::new(), pattern: read.pattern, flags: read.flags }
            }
            Err(reason) => native(rules, raw, &read.pattern, &read.flags, &reason),
        };
    };
    let source = &t[start..end];
    let rest = &t[end + 1..];

    // §regex-sed-range: `/a/,/b/`, `/a/,+N` (a comma right after the closing slash and its flags).
    let after_flags = rest.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    if after_flags.trim_start().starts_with(',') {
        return unreadable(rules, rules.text(DiagId::MatcherSedRange, &[]), DiagId::MatcherRegexRecovery);
    }

    // The flags run to the first horizontal whitespace; what follows is trailing text.
    let (mut flags, mut trailing) = match rest.find([' ', '\t']) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    // §regex-dialect-readings: `-flags` after the closing slash are the flags.
    let mut dash = None;
    if flags.is_empty() && dash_flags(trailing) {
        dash = Some(trailing);
        flags = &trailing[1..];
        trailing = "";
    } else if trailing.is_empty() && dash_flags(flags) {
        dash = Some(flags);
        flags = &flags[1..];
    }
    if !valid_flags(flags) {
        let error = rules.text(DiagId::MatcherV8Flags, &[("flags", flags)]);
        return unreadable(rules, rules.text(DiagId::MatcherRegexFlags, &[("error", &error), ("raw", raw)]), DiagId::MatcherRegexRecovery);
    }

    let mut read = readings(source, flags);
    if let Err(reason) = compile(&read.pattern, &read.flags) {
        // §regex-dialect-readings: a glob-shaped pattern that fails on a leading or doubled
        // `*` or `?` is that glob over each line.
        match glob_reading(&read.pattern) {
            Some(regex) if reason == Reason::V8(DiagId::MatcherV8NothingToRepeat) && compile(&regex, &read.flags).is_ok() => {
                let shown = format!("/{regex}/{}", read.flags);
                read.notes.push(MatcherNote::new(DiagId::MatcherGlobRegex, &[("raw", t), ("glob", &read.pattern), ("regex", &shown)]));
                read.pattern = regex;
            }
            _ => return native(rules, raw, &read.pattern, &read.flags, &reason),
        }
    }
    // §regex-trailing-text: a valid prefix followed by whitespace and more text.
    if !trailing.is_empty() {
        return unreadable(rules, rules.text(DiagId::MatcherTrailingText, &[]), DiagId::MatcherTrailingTextRecovery);
    }
    if let Some(written) = dash {
        notes.push(MatcherNote::new(DiagId::MatcherDashFlags, &[("written", written), ("flags", flags)]));
    }
    notes.extend(read.notes);
    Matcher::Regex { raw: String::new(), pattern: read.pattern, flags: read.flags }
}

/// `^pattern`: the whole text is the pattern, with no flags but lifted inline ones (§naked-pattern).
fn anchored(rules: &Rules, raw: &str, notes: &mut Vec<MatcherNote>) -> Matcher {
    let read = readings(raw, "");
    match compile(&read.pattern, &read.flags) {
        Ok(()) => {
            notes.extend(read.notes);
            Matcher::Regex { raw: String::new(), pattern: read.pattern, flags: read.flags }
        }
        Err(reason) => {
            let error =
                rules.text(DiagId::MatcherV8Source, &[("pattern", &read.pattern), ("flags", &read.flags), ("reason", &reason.text(rules))]);
            unreadable(
                rules,
                rules.text(DiagId::MatcherAnchoredNative, &[("error", &error), ("raw", raw)]),
                DiagId::MatcherAnchoredRecovery,
            )
        }
    }
}

/// The engine's refusal of a `/pattern/flags` whose pattern does not compile.
#[cold]
fn native(rules: &Rules, raw: &str, pattern: &str, flags: &str, reason: &Reason) -> Matcher {
    let error = rules.text(DiagId::MatcherV8Source, &[("pattern", pattern), ("flags", flags), ("reason", &reason.text(rules))]);
    unreadable(rules, rules.text(DiagId::MatcherRegexNative, &[("error", &error), ("raw", raw)]), DiagId::MatcherRegexRecovery)
}

/// A pattern as read: inline flags lifted, `\|` read as alternation.
struct Reading {
    pattern: String,
    flags: String,
    notes: Vec<MatcherNote>,
}

fn readings(source: &str, flags: &str) -> Reading {
    let mut notes = Vec::new();
    let mut flags = flags.to_string();
    // §inline-flag-tolerance: a leading `(?i)`, `(?m)`, `(?s)` or combination (after an anchoring
    // `^`) lifts into the flags; `(?i:…)` is valid ECMAScript and stays.
    let (anchor, body) = match source.strip_prefix('^') {
        Some(b) => ("^", b),
        None => ("", source),
    };
    let mut pattern = source.to_string();
    if let Some(inner) = body.strip_prefix("(?") {
        let letters = inner.bytes().take_while(|c| matches!(c, b'i' | b'm' | b's')).count();
        if letters > 0 && inner.as_bytes().get(letters) == Some(&b')') {
            let lifted = &inner[..letters];
            for c in lifted.chars() {
                if !flags.contains(c) {
                    flags.push(c);
                }
            }
            notes.push(MatcherNote::new(DiagId::MatcherInlineFlags, &[("group", &body[..letters + 3]), ("flags", lifted)]));
            pattern = format!("{anchor}{}", &inner[letters + 1..]);
        }
    }
    // §regex-dialect-readings: `\|` is alternation, `|` (a literal pipe is `[|]`).
    if let Some(p) = pipe_alternation(&pattern) {
        pattern = p;
        notes.push(MatcherNote::new(DiagId::MatcherPipeAlternation, &[]));
    }
    Reading { pattern, flags, notes }
}

/// The pattern with every unescaped `\|` outside a class read as `|`, when there is one.
fn pipe_alternation(p: &str) -> Option<String> {
    // A byte search first: most patterns have no backslash at all.
    if !p.as_bytes().contains(&b'\\') || !p.contains("\\|") {
        return None;
    }
    let mut out = String::with_capacity(p.len());
    let mut class = false;
    let mut found = false;
    let mut it = p.chars();
    while let Some(c) = it.next() {
        match c {
            '\\' => match it.next() {
                Some('|') if !class => {
                    out.push('|');
                    found = true;
                }
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            },
            '[' => {
                class = true;
                out.push(c);
            }
            ']' => {
                class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    found.then_some(out)
}

/// `-flags` spelled after the closing slash: a dash and letters.
fn dash_flags(s: &str) -> bool {
    s.len() > 1 && s.starts_with('-') && s[1..].bytes().all(|c| c.is_ascii_alphabetic())
}

/// ECMAScript flags: `dgimsuvy`, each at most once, never `u` with `v`.
fn valid_flags(flags: &str) -> bool {
    let mut seen = 0u32;
    for c in flags.bytes() {
        let Some(bit) = b"dgimsuvy".iter().position(|&f| f == c) else { return false };
        if seen & (1 << bit) != 0 {
            return false;
        }
        seen |= 1 << bit;
    }
    !(flags.contains('u') && flags.contains('v'))
}

/// Compiles `pattern` under `flags` (already valid) as ECMAScript does.
fn compile(pattern: &str, flags: &str) -> Result<(), Reason> {
    if plain_literal(pattern) || simple_regex(pattern) {
        return Ok(());
    }
    let mut f = regress::Flags::from(flags);
    f.no_opt = true;
    // Only validity is asked, and case-insensitivity never changes what parses (ECMAScript's
    // early errors do not depend on `i`); without it the engine skips case-folding every
    // character into a set, the most expensive step of building the program.
    f.icase = false;
    // `v` is a Unicode mode too.
    f.unicode |= f.unicode_sets;
    // Parsing is where every syntax error is found; building the matching program afterwards
    // (`Regex::with_flags` does both) cannot fail, so only the parser runs. `backends` is the
    // crate's entry for running that parser on its own (hidden from its docs; Cargo.lock pins
    // the version, and a change of its signature fails the build, not a parse).
    match regress::backends::try_parse(pattern.chars().map(u32::from), f) {
        Ok(_) => Ok(()),
        Err(e) => Err(v8_reason(&e.text, pattern, f.unicode)),
    }
}

/// A pattern holding no ECMAScript syntax character (`^$\\.*+?()[]{}|`): every character is a
/// literal atom in every mode and under every flag (the `u`/`v` restrictions apply to escapes and
/// classes only), so it parses without asking the engine. Most matchers agents write are words
/// (`/tavily/i`); the engine's parser costs thousands of instructions each.
fn plain_literal(pattern: &str) -> bool {
    !pattern.bytes().any(|b| matches!(b, b'^' | b'$' | b'\\' | b'.' | b'*' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'|'))
}

/// A pattern built only from literals, `.`, `\\b \\B \\d \\D \\w \\W \\s \\S`, classes of ASCII letters,
/// digits and `_` (`[Rr]`, `[^_0]`; no ranges), `^`, `$`, `|`, and a `*`, `+` or `?`
/// (optionally lazy) after an atom: valid in every mode and under every flag, so it parses without
/// the engine (`/\\bTAVILY\\b/i`, `/BARE|bare/`). Anything else, a valid pattern or not, is the
/// engine's to judge; the property test holds this reading to the engine's answer.
fn simple_regex(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    // The last token can take a quantifier; a quantifier may take one lazy `?`.
    let mut atom = false;
    let mut lazy_ok = false;
    while i < b.len() {
        let c = b[i];
        i += 1;
        let (next_atom, next_lazy) = match c {
            b'\\' => {
                let e = b.get(i).copied();
                i += 1;
                match e {
                    Some(b'b' | b'B') => (false, false),
                    Some(b'd' | b'D' | b'w' | b'W' | b's' | b'S') => (true, false),
                    _ => return false,
                }
            }
            b'[' => {
                if b.get(i) == Some(&b'^') {
                    i += 1;
                }
                let from = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if i == from || b.get(i) != Some(&b']') {
                    return false;
                }
                i += 1;
                (true, false)
            }
            b'*' | b'+' | b'?' => {
                if atom {
                    (false, true)
                } else if c == b'?' && lazy_ok {
                    (false, false)
                } else {
                    return false;
                }
            }
            b'^' | b'$' | b'|' => (false, false),
            b'.' => (true, false),
            b'(' | b')' | b']' | b'{' | b'}' => return false,
            _ => (true, false),
        };
        atom = next_atom;
        lazy_ok = next_lazy;
    }
    true
}

/// Names an engine failure the way V8 does.
fn v8_reason(text: &str, pattern: &str, unicode: bool) -> Reason {
    use DiagId::*;
    let id = match text {
        "Unbalanced parenthesis" => {
            if unmatched_close(pattern) {
                MatcherV8UnmatchedParen
            } else {
                MatcherV8UnterminatedGroup
            }
        }
        "Incomplete escape" | "Unterminated escape" | "Incomplete class set escape" => MatcherV8EscapeAtEnd,
        "Invalid braced quantifier" | "Quantifier not allowed here" => MatcherV8NothingToRepeat,
        "Invalid atom character" => {
            if unicode && lone_bracket(pattern) {
                MatcherV8LoneQuantifierBrackets
            } else {
                MatcherV8NothingToRepeat
            }
        }
        "Invalid quantifier" => {
            if unicode && !quantifier_order(pattern) {
                MatcherV8IncompleteQuantifier
            } else {
                MatcherV8QuantifierOrder
            }
        }
        "Invalid group modifier" => MatcherV8InvalidGroup,
        "Invalid token at named capture group identifier" => MatcherV8InvalidCaptureName,
        "Duplicate capture group name" => MatcherV8DuplicateCaptureName,
        "Invalid named backreference syntax" => MatcherV8InvalidNamedReference,
        "Unbalanced bracket" | "Unbalanced class set bracket" | "Incomplete class set character" => MatcherV8UnterminatedClass,
        "Range values reversed, start char code is greater than end char code." | "Invalid class set range" => MatcherV8ClassRangeOrder,
        "Invalid character range" => MatcherV8InvalidClass,
        "Invalid character escape" | "Invalid class set escape: expected {" | "Unbalanced class set string disjunction" => {
            MatcherV8InvalidEscape
        }
        "Invalid unicode escape" => MatcherV8InvalidUnicodeEscape,
        "Invalid property escape" => MatcherV8InvalidClassProperty,
        "Invalid character at property escape start" | "Invalid property name" => MatcherV8InvalidProperty,
        "Unexpected character in class set intersection" | "Unexpected character in class set subtraction" | "Empty class set operand" => {
            MatcherV8InvalidSetOperation
        }
        "Invalid class set character" => MatcherV8InvalidClassChar,
        "Capture group count limit exceeded" => MatcherV8TooManyCaptures,
        "Loop count limit exceeded" => MatcherV8TooLarge,
        "Regular expression is too deeply nested" => MatcherV8Stack,
        t if t.starts_with("Backreference to invalid named capture group") => MatcherV8InvalidNamedCapture,
        t if t.starts_with("Unexpected char") => MatcherV8UnmatchedParen,
        _ => return Reason::Engine(text.to_string()),
    };
    Reason::V8(id)
}

/// Walks a pattern outside escapes and classes, calling `f` with each byte index and byte.
fn walk_syntax(pattern: &str, mut f: impl FnMut(usize, u8) -> bool) {
    let b = pattern.as_bytes();
    let mut i = 0;
    let mut class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' if !class => class = true,
            b']' if class => class = false,
            c if !class && !f(i, c) => return,
            _ => {}
        }
        i += 1;
    }
}

/// Whether a `)` closes more groups than were opened before it.
fn unmatched_close(pattern: &str) -> bool {
    let mut depth = 0i32;
    let mut found = false;
    walk_syntax(pattern, |_, c| {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    found = true;
                    return false;
                }
            }
            _ => {}
        }
        true
    });
    found
}

/// Whether the first quantifier fault of a Unicode-mode pattern is a lone `{`, `}` or `]`
/// rather than a quantifier with nothing to repeat.
fn lone_bracket(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    let mut atom = false;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                atom = !matches!(b.get(i + 1), Some(b'b' | b'B'));
                i += 2;
                continue;
            }
            b'[' => {
                i += 1;
                while i < b.len() && b[i] != b']' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                atom = true;
            }
            b'(' => {
                // Skip a group prefix: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`.
                if b.get(i + 1) == Some(&b'?') {
                    i += 2;
                    if b.get(i) == Some(&b'<') && !matches!(b.get(i + 1), Some(b'=' | b'!')) {
                        while i < b.len() && b[i] != b'>' {
                            i += 1;
                        }
                    } else if b.get(i) == Some(&b'<') {
                        i += 1;
                    }
                }
                atom = false;
            }
            b'|' | b'^' | b'$' => atom = false,
            b')' => atom = true,
            b'*' | b'+' | b'?' => {
                if !atom {
                    return false;
                }
                if b.get(i + 1) == Some(&b'?') {
                    i += 1;
                }
                atom = false;
            }
            b'{' => match braced_quantifier(&pattern[i..]) {
                Some(len) if atom => {
                    i += len;
                    if b.get(i) == Some(&b'?') {
                        i += 1;
                    }
                    atom = false;
                    continue;
                }
                Some(_) => return false,
                None => return true,
            },
            b'}' | b']' => return true,
            _ => atom = true,
        }
        i += 1;
    }
    false
}

/// The length of a braced quantifier `{n}`, `{n,}` or `{n,m}` at the start of `s`.
fn braced_quantifier(s: &str) -> Option<usize> {
    let close = s.find('}')?;
    let inner = &s[1..close];
    let (lo, hi) = inner.split_once(',').unwrap_or((inner, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    (digits(lo) && (hi.is_empty() || digits(hi))).then_some(close + 1)
}

/// Whether a braced quantifier with its numbers out of order is present.
fn quantifier_order(pattern: &str) -> bool {
    let mut found = false;
    walk_syntax(pattern, |i, c| {
        if c == b'{' && braced_quantifier(&pattern[i..]).is_some() {
            let inner = &pattern[i + 1..i + pattern[i..].find('}').unwrap_or(0)];
            if let Some((lo, hi)) = inner.split_once(',') {
                if let (Ok(lo), Ok(hi)) = (lo.parse::<u64>(), hi.parse::<u64>()) {
                    if lo > hi {
                        found = true;
                        return false;
                    }
                }
            }
        }
        true
    });
    found
}

/// The glob reading of a pattern (§regex-dialect-readings): `None` unless the pattern holds a
/// `*` or `?` and is otherwise glob-shaped — literal text, with `[…]` classes (`[!…]` negated).
fn glob_reading(p: &str) -> Option<String> {
    if !p.contains(['*', '?']) {
        return None;
    }
    let mut out = String::with_capacity(p.len() + 8);
    let mut it = p.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '*' => {
                while it.peek() == Some(&'*') {
                    it.next();
                }
                out.push_str(".*");
            }
            '?' => out.push('.'),
            '.' => out.push_str("\\."),
            '[' => {
                out.push('[');
                if it.peek() == Some(&'!') {
                    it.next();
                    out.push('^');
                }
                let mut closed = false;
                for n in it.by_ref() {
                    if matches!(n, '\\' | '[') {
                        return None;
                    }
                    out.push(n);
                    if n == ']' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return None;
                }
            }
            '\\' | '(' | ')' | ']' | '{' | '}' | '|' | '^' | '$' | '+' => return None,
            _ => out.push(c),
        }
    }
    Some(out)
}

// ── XPath 1.0 ──────────────────────────────────────────────────────────────────────────────────

/// An XPath 1.0 validator: the lexical structure and the expression grammar of XPath 1.0
/// (W3C REC-xpath-19991116 §3, with the §3.7 disambiguation rules). The whole string is lexed
/// first, so an unexpected character is reported before any grammar failure.
pub mod xpath {
    #[derive(Debug, Clone, PartialEq)]
    pub enum Error {
        /// A character no token begins with.
        Char(char),
        /// A literal with no closing quote (the text from its quote on).
        Literal(String),
        /// Tokens outside the grammar.
        Parse,
    }

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Tok {
        LParen,
        RParen,
        LBracket,
        RBracket,
        Dot,
        DotDot,
        At,
        Comma,
        ColonColon,
        Slash,
        SlashSlash,
        Pipe,
        Plus,
        Minus,
        Eq,
        Neq,
        Lt,
        Le,
        Gt,
        Ge,
        /// `*` as a name test.
        Star,
        Multiply,
        Or,
        And,
        Mod,
        Div,
        Literal,
        Number,
        Variable,
        NameTest,
        /// `node`, `text`, `comment`.
        NodeType,
        ProcessingInstruction,
        FunctionName,
        AxisName,
        /// A name the disambiguation rules admit nowhere (an unknown axis, a name where an
        /// operator goes).
        Bad,
    }

    const AXES: &[&str] = &[
        "ancestor",
        "ancestor-or-self",
        "attribute",
        "child",
        "descendant",
        "descendant-or-self",
        "following",
        "following-sibling",
        "namespace",
        "parent",
        "preceding",
        "preceding-sibling",
        "self",
    ];

    fn name_start(c: char) -> bool {
        c == '_' || c.is_alphabetic()
    }

    fn name_char(c: char) -> bool {
        name_start(c)
            || c.is_numeric()
            || matches!(c, '.' | '-' | '\u{B7}')
            || ('\u{300}'..='\u{36F}').contains(&c)
            || c == '\u{203F}'
            || c == '\u{2040}'
    }

    fn is_operator(t: Tok) -> bool {
        use Tok::*;
        matches!(t, Or | And | Mod | Div | Multiply | Slash | SlashSlash | Pipe | Plus | Minus | Eq | Neq | Lt | Le | Gt | Ge)
    }

    /// §3.7: after a token that is not `@ :: ( [ ,` or an operator, `*` multiplies and a name
    /// is an operator name.
    fn operator_position(prev: Option<Tok>) -> bool {
        match prev {
            None => false,
            Some(t) => !(matches!(t, Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma) || is_operator(t)),
        }
    }

    fn lex(s: &str) -> Result<Vec<Tok>, Error> {
        let c: Vec<char> = s.chars().collect();
        let n = c.len();
        let at = |i: usize| c.get(i).copied();
        let mut toks: Vec<Tok> = Vec::new();
        let mut i = 0;
        while i < n {
            let ch = c[i];
            if matches!(ch, ' ' | '\t' | '\r' | '\n') {
                i += 1;
                continue;
            }
            let prev = toks.last().copied();
            let (tok, len) = match ch {
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                '[' => (Tok::LBracket, 1),
                ']' => (Tok::RBracket, 1),
                '@' => (Tok::At, 1),
                ',' => (Tok::Comma, 1),
                '|' => (Tok::Pipe, 1),
                '+' => (Tok::Plus, 1),
                '-' => (Tok::Minus, 1),
                '=' => (Tok::Eq, 1),
                '/' if at(i + 1) == Some('/') => (Tok::SlashSlash, 2),
                '/' => (Tok::Slash, 1),
                '!' if at(i + 1) == Some('=') => (Tok::Neq, 2),
                '<' if at(i + 1) == Some('=') => (Tok::Le, 2),
                '<' => (Tok::Lt, 1),
                '>' if at(i + 1) == Some('=') => (Tok::Ge, 2),
                '>' => (Tok::Gt, 1),
                ':' if at(i + 1) == Some(':') => (Tok::ColonColon, 2),
                '.' if at(i + 1) == Some('.') => (Tok::DotDot, 2),
                '.' if at(i + 1).is_some_and(|d| d.is_ascii_digit()) => {
                    let mut j = i + 1;
                    while at(j).is_some_and(|d| d.is_ascii_digit()) {
                        j += 1;
                    }
                    (Tok::Number, j - i)
                }
                '.' => (Tok::Dot, 1),
                '"' | '\'' => match c[i + 1..].iter().position(|&q| q == ch) {
                    Some(k) => (Tok::Literal, k + 2),
                    None => return Err(Error::Literal(c[i..].iter().collect())),
                },
                d if d.is_ascii_digit() => {
                    let mut j = i;
                    while at(j).is_some_and(|d| d.is_ascii_digit()) {
                        j += 1;
                    }
                    if at(j) == Some('.') {
                        j += 1;
                        while at(j).is_some_and(|d| d.is_ascii_digit()) {
                            j += 1;
                        }
                    }
                    (Tok::Number, j - i)
                }
                '*' => (if operator_position(prev) { Tok::Multiply } else { Tok::Star }, 1),
                '$' => {
                    if !at(i + 1).is_some_and(name_start) {
                        return Err(Error::Char('$'));
                    }
                    let (len, _, _) = qname(&c, i + 1);
                    (Tok::Variable, len + 1)
                }
                s if name_start(s) => {
                    let (len, prefixed, wildcard) = qname(&c, i);
                    let name: String = c[i..i + len].iter().collect();
                    let tok = if operator_position(prev) {
                        match name.as_str() {
                            "or" => Tok::Or,
                            "and" => Tok::And,
                            "mod" => Tok::Mod,
                            "div" => Tok::Div,
                            _ => Tok::Bad,
                        }
                    } else {
                        let mut j = i + len;
                        while at(j).is_some_and(|w| matches!(w, ' ' | '\t' | '\r' | '\n')) {
                            j += 1;
                        }
                        if wildcard {
                            Tok::NameTest
                        } else if at(j) == Some('(') {
                            match name.as_str() {
                                "node" | "text" | "comment" => Tok::NodeType,
                                "processing-instruction" => Tok::ProcessingInstruction,
                                _ => Tok::FunctionName,
                            }
                        } else if at(j) == Some(':') && at(j + 1) == Some(':') {
                            if !prefixed && AXES.contains(&name.as_str()) {
                                Tok::AxisName
                            } else {
                                Tok::Bad
                            }
                        } else {
                            Tok::NameTest
                        }
                    };
                    (tok, len)
                }
                other => return Err(Error::Char(other)),
            };
            toks.push(tok);
            i += len;
        }
        Ok(toks)
    }

    /// The length of the QName (or `NCName:*`) at `i`; whether it is prefixed; whether it is
    /// the `NCName:*` wildcard.
    fn qname(c: &[char], i: usize) -> (usize, bool, bool) {
        let mut j = i + 1;
        while j < c.len() && name_char(c[j]) {
            j += 1;
        }
        if j + 1 < c.len() && c[j] == ':' {
            if c[j + 1] == '*' {
                return (j + 2 - i, true, true);
            }
            if name_start(c[j + 1]) {
                let mut k = j + 2;
                while k < c.len() && name_char(c[k]) {
                    k += 1;
                }
                return (k - i, true, false);
            }
        }
        (j - i, false, false)
    }

    /// The deepest nesting of predicates, parentheses and arguments read.
    const MAX_DEPTH: u32 = 128;

    struct Parser {
        toks: Vec<Tok>,
        at: usize,
        depth: u32,
    }

    type R = Result<(), Error>;

    impl Parser {
        fn peek(&self) -> Option<Tok> {
            self.toks.get(self.at).copied()
        }
        fn eat(&mut self, t: Tok) -> bool {
            if self.peek() == Some(t) {
                self.at += 1;
                true
            } else {
                false
            }
        }
        fn expect(&mut self, t: Tok) -> R {
            if self.eat(t) {
                Ok(())
            } else {
                Err(Error::Parse)
            }
        }
        fn eat_any(&mut self, ts: &[Tok]) -> bool {
            match self.peek() {
                Some(t) if ts.contains(&t) => {
                    self.at += 1;
                    true
                }
                _ => false,
            }
        }
        fn binary(&mut self, ops: &[Tok], next: fn(&mut Parser) -> R) -> R {
            next(self)?;
            while self.eat_any(ops) {
                next(self)?;
            }
            Ok(())
        }
        fn expr(&mut self) -> R {
            // Nesting is bounded so a hostile selector cannot exhaust the stack.
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(Error::Parse);
            }
            let r = self.binary(&[Tok::Or], Parser::and);
            self.depth -= 1;
            r
        }
        fn and(&mut self) -> R {
            self.binary(&[Tok::And], Parser::equality)
        }
        fn equality(&mut self) -> R {
            self.binary(&[Tok::Eq, Tok::Neq], Parser::relational)
        }
        fn relational(&mut self) -> R {
            self.binary(&[Tok::Lt, Tok::Le, Tok::Gt, Tok::Ge], Parser::additive)
        }
        fn additive(&mut self) -> R {
            self.binary(&[Tok::Plus, Tok::Minus], Parser::multiplicative)
        }
        fn multiplicative(&mut self) -> R {
            self.binary(&[Tok::Multiply, Tok::Div, Tok::Mod], Parser::unary)
        }
        fn unary(&mut self) -> R {
            while self.eat(Tok::Minus) {}
            self.binary(&[Tok::Pipe], Parser::path)
        }
        fn starts_step(t: Option<Tok>) -> bool {
            matches!(
                t,
                Some(
                    Tok::Dot
                        | Tok::DotDot
                        | Tok::At
                        | Tok::AxisName
                        | Tok::Star
                        | Tok::NameTest
                        | Tok::NodeType
                        | Tok::ProcessingInstruction
                )
            )
        }
        fn path(&mut self) -> R {
            match self.peek() {
                Some(Tok::Slash) => {
                    self.at += 1;
                    if Self::starts_step(self.peek()) {
                        self.relative()?;
                    }
                    Ok(())
                }
                Some(Tok::SlashSlash) => {
                    self.at += 1;
                    self.relative()
                }
                t if Self::starts_step(t) => self.relative(),
                _ => {
                    self.primary()?;
                    while self.peek() == Some(Tok::LBracket) {
                        self.predicate()?;
                    }
                    if self.eat_any(&[Tok::Slash, Tok::SlashSlash]) {
                        self.relative()?;
                    }
                    Ok(())
                }
            }
        }
        fn relative(&mut self) -> R {
            self.step()?;
            while self.eat_any(&[Tok::Slash, Tok::SlashSlash]) {
                self.step()?;
            }
            Ok(())
        }
        fn step(&mut self) -> R {
            if self.eat_any(&[Tok::Dot, Tok::DotDot]) {
                return Ok(());
            }
            if self.eat(Tok::AxisName) {
                self.expect(Tok::ColonColon)?;
            } else {
                self.eat(Tok::At);
            }
            match self.peek() {
                Some(Tok::Star | Tok::NameTest) => self.at += 1,
                Some(Tok::NodeType) => {
                    self.at += 1;
                    self.expect(Tok::LParen)?;
                    self.expect(Tok::RParen)?;
                }
                Some(Tok::ProcessingInstruction) => {
                    self.at += 1;
                    self.expect(Tok::LParen)?;
                    self.eat(Tok::Literal);
                    self.expect(Tok::RParen)?;
                }
                _ => return Err(Error::Parse),
            }
            while self.peek() == Some(Tok::LBracket) {
                self.predicate()?;
            }
            Ok(())
        }
        fn predicate(&mut self) -> R {
            self.expect(Tok::LBracket)?;
            self.expr()?;
            self.expect(Tok::RBracket)
        }
        fn primary(&mut self) -> R {
            match self.peek() {
                Some(Tok::Variable | Tok::Literal | Tok::Number) => {
                    self.at += 1;
                    Ok(())
                }
                Some(Tok::LParen) => {
                    self.at += 1;
                    self.expr()?;
                    self.expect(Tok::RParen)
                }
                Some(Tok::FunctionName) => {
                    self.at += 1;
                    self.expect(Tok::LParen)?;
                    if self.eat(Tok::RParen) {
                        return Ok(());
                    }
                    self.expr()?;
                    while self.eat(Tok::Comma) {
                        self.expr()?;
                    }
                    self.expect(Tok::RParen)
                }
                _ => Err(Error::Parse),
            }
        }
    }

    /// Validates one XPath 1.0 expression.
    pub fn check(s: &str) -> Result<(), Error> {
        let toks = lex(s)?;
        let mut p = Parser { toks, at: 0, depth: 0 };
        p.expr()?;
        if p.at == p.toks.len() {
            Ok(())
        } else {
            Err(Error::Parse)
        }
    }
}

// ── JSONPath (RFC 9535) ────────────────────────────────────────────────────────────────────────

/// JSONPath admission: `serde_json_path` decides (RFC 9535); a refusal is worded as `json-p3`
/// words it, by a scan of the query's segments that finds the first lexical failure and its
/// index. A grammar failure the scan does not see keeps the engine's own words.
pub mod jsonpath {
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
                                return Err(Failure {
                                    id: Some(DiagId::MatcherJsonpathUnclosedString),
                                    token: None,
                                    index: n,
                                    engine: None,
                                })
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
}

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
    fn flags_follow_ecmascript() {
        for ok in ["", "i", "gimsuy", "dv", "gi"] {
            assert!(valid_flags(ok), "{ok}");
        }
        for bad in ["z", "ii", "uv", "{5,40}", "i:", "_/"] {
            assert!(!valid_flags(bad), "{bad}");
        }
    }

    /// Patterns drawn from `alphabet` (at most `max_len` characters) that `short_cut` accepts must
    /// parse in the engine under every flag set; `accepted` counts them. (A unit function:
    /// `bolero::check!` may return from its caller.)
    fn short_cut_holds_to_the_engine(alphabet: &[char], max_len: usize, short_cut: fn(&str) -> bool, accepted: &mut usize) {
        const FLAGS: &[&str] = &["", "i", "u", "v", "s", "m", "g", "y", "d", "iu", "iv", "gimsuy"];
        let engine = |p: &str, f: &str| {
            let mut flags = regress::Flags::from(f);
            flags.unicode |= flags.unicode_sets;
            regress::backends::try_parse(p.chars().map(u32::from), flags).is_ok()
        };
        bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(max_len).for_each(|bytes: &Vec<u8>| {
            let p: String = bytes.iter().map(|b| alphabet[*b as usize % alphabet.len()]).collect();
            if short_cut(&p) {
                *accepted += 1;
                for f in FLAGS {
                    assert!(engine(&p, f), "the short-cut accepts /{p}/{f}, the engine refuses it");
                }
            }
        });
    }

    /// §regex-dialect-readings: the literal short-cut accepts only what the engine accepts.
    #[test]
    fn regex_dialect_plain_literals_parse_under_every_flag() {
        // Every ASCII character that is not regex syntax, a few beyond ASCII, and the syntax
        // characters themselves (so the generator also makes patterns the short-cut refuses).
        const ALPHABET: &[char] = &[
            'a',
            'Z',
            '0',
            '9',
            ' ',
            '_',
            '-',
            ',',
            ':',
            ';',
            '=',
            '!',
            '<',
            '>',
            '@',
            '#',
            '%',
            '&',
            '~',
            '"',
            '\'',
            '`',
            '/',
            '\t',
            '\u{e9}',
            '\u{17F}',
            '\u{212A}',
            '\u{1F600}',
            '\u{FEFF}',
            '^',
            '$',
            '\\',
            '.',
            '*',
            '+',
            '?',
            '(',
            ')',
            '[',
            ']',
            '{',
            '}',
            '|',
        ];
        assert!(plain_literal("tavily") && plain_literal("") && plain_literal("a-b <c> 'd'"));
        assert!(!plain_literal("a.b") && !plain_literal("a}") && !plain_literal("x|y"));
        let mut literals = 0;
        short_cut_holds_to_the_engine(ALPHABET, 16, plain_literal, &mut literals);
        assert!(literals > 0, "the generator made no literal pattern");
    }

    /// §regex-dialect-readings: the simple-pattern short-cut accepts only what the engine
    /// accepts, under every flag.
    #[test]
    fn regex_dialect_simple_patterns_parse_under_every_flag() {
        // Syntax characters weighted up (the escapes' letters too), so the generator makes many
        // patterns on either side of the short-cut's edge.
        const ALPHABET: &[char] = &[
            'a',
            'Z',
            '0',
            '_',
            ' ',
            '-',
            ',',
            '/',
            '\u{e9}',
            '\u{1F600}',
            '\\',
            '\\',
            '\\',
            'b',
            'B',
            'd',
            'w',
            's',
            'S',
            'k',
            'u',
            'n',
            '.',
            '*',
            '+',
            '?',
            '?',
            '^',
            '$',
            '|',
            '|',
            '[',
            '[',
            ']',
            ']',
            '(',
            ')',
            '{',
            '}',
        ];
        for ok in ["\\bTAVILY\\b", "BARE|bare", "[Rr]ecovery [Ss]ite", "a.*?b", "^\\d+$", "|", "a||b", "[^a]x"] {
            assert!(simple_regex(ok), "{ok}");
        }
        for deferred in ["*a", "a**", "\\b*", "^*", "a|*", "[]", "[a-z]", "(a)", "a{2}", "\\", "\\k", "[a", "a]", "a???"] {
            assert!(!simple_regex(deferred), "{deferred}");
        }
        let mut simple = 0;
        short_cut_holds_to_the_engine(ALPHABET, 12, simple_regex, &mut simple);
        assert!(simple > 1_000, "the generator made too few simple patterns ({simple})");
    }

    #[test]
    fn v8_reasons_name_the_failure() {
        use DiagId::*;
        let r = |p: &str, f: &str| compile(p, f).err();
        assert_eq!(r("(", ""), Some(Reason::V8(MatcherV8UnterminatedGroup)));
        assert_eq!(r("a)", ""), Some(Reason::V8(MatcherV8UnmatchedParen)));
        assert_eq!(r("*a", ""), Some(Reason::V8(MatcherV8NothingToRepeat)));
        assert_eq!(r("[a", ""), Some(Reason::V8(MatcherV8UnterminatedClass)));
        assert_eq!(r("[z-a]", ""), Some(Reason::V8(MatcherV8ClassRangeOrder)));
        assert_eq!(r("a{3,1}", ""), Some(Reason::V8(MatcherV8QuantifierOrder)));
        assert_eq!(r("a{", "u"), Some(Reason::V8(MatcherV8IncompleteQuantifier)));
        assert_eq!(r("a*}", "u"), Some(Reason::V8(MatcherV8LoneQuantifierBrackets)));
        assert_eq!(r("a|*", "u"), Some(Reason::V8(MatcherV8NothingToRepeat)));
        assert_eq!(r("(?x)", ""), Some(Reason::V8(MatcherV8InvalidGroup)));
        assert_eq!(r("\\", ""), Some(Reason::V8(MatcherV8EscapeAtEnd)));
        assert_eq!(r("a{", ""), None);
        assert_eq!(r("\\{$", ""), None);
    }

    #[test]
    fn readings_lift_and_rewrite() {
        let r = readings("^(?ms)a\\|b[\\|]", "i");
        assert_eq!((r.pattern.as_str(), r.flags.as_str()), ("^a|b[\\|]", "ims"));
        assert_eq!(r.notes.iter().map(|n| n.id).collect::<Vec<_>>(), [DiagId::MatcherInlineFlags, DiagId::MatcherPipeAlternation]);
        assert_eq!(glob_reading("*a.b?"), Some(".*a\\.b.".into()));
        assert_eq!(glob_reading("*[!x]"), Some(".*[^x]".into()));
        assert_eq!(glob_reading("*(a)"), None);
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
