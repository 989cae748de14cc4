//! The regex dialect (§matcher-prefix-claims): `/pattern/flags` and `^pattern`, admitted by the
//! ECMAScript grammar (`regress`) with their failures worded as V8 words them, and the
//! tolerances of §regex-dialect-readings, §inline-flag-tolerance, §regex-trailing-text,
//! §regex-sed-range and §unclosed-regex.

use super::{split_regex, unreadable, MatcherNote};
use crate::ast::Matcher;
use crate::rules::{DiagId, Rules};

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
pub(super) fn slash_regex(rules: &Rules, raw: &str, notes: &mut Vec<MatcherNote>) -> Matcher {
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
pub(super) fn anchored(rules: &Rules, raw: &str, notes: &mut Vec<MatcherNote>) -> Matcher {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
