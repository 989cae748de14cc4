//! Matchers (SPEC §6 and the matcher rows of §14) and targets (SPEC §5), one table per rule.
//!
//! Each test is named for the spec tag it pins. A matcher row renders the reading compactly —
//! `regex /pattern/flags`, `xpath`, `unreadable: message || recovery` — followed by the texts
//! of its advisories, so a table reads like the rule it checks.

use plurnk_parser::__private::matcher::{self, MatcherNote};
use plurnk_parser::__private::target::{self, InvalidUri};
use plurnk_parser::Rules;
use plurnk_parser::{Matcher, Target};

fn rules() -> &'static Rules {
    Rules::builtin()
}

fn note_text(n: &MatcherNote) -> String {
    let args: Vec<(&str, &str)> = n.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    plurnk_parser::__private::rules::text(rules(), n.id, &args)
}

/// `matcher::read` rendered as one line per fact.
fn reading(raw: &str) -> Vec<String> {
    let (m, notes) = matcher::read(rules(), raw);
    let mut out = vec![match m {
        Matcher::Regex { pattern, flags, .. } => format!("regex /{pattern}/{flags}"),
        Matcher::Other { dialect, .. } => dialect.to_string(),
        Matcher::Unreadable { message, recovery, .. } => format!("unreadable: {message} || {recovery}"),
        m => unreachable!("{m:?}"),
    }];
    out.extend(notes.iter().map(note_text));
    out
}

fn check(table: &[(&str, &[&str])]) {
    for (raw, want) in table {
        assert_eq!(reading(raw), *want, "matcher {raw:?}");
    }
}

fn raw_of(raw: &str) -> String {
    match matcher::read(rules(), raw).0 {
        Matcher::Regex { raw, .. } | Matcher::Other { raw, .. } | Matcher::Unreadable { raw, .. } => raw,
        m => unreachable!("{m:?}"),
    }
}

const REGEX_FORM: &str = "A pattern is a regex written `/pattern/flags`, such as `/timeout/i`.";

#[test]
fn matcher_prefix_claims_by_leading_characters() {
    check(&[
        ("//item", &["xpath"]),
        ("//user[@role='admin']", &["xpath"]),
        ("/needle/i", &["regex /needle/i"]),
        ("^Decision:.*", &["regex /^Decision:.*/"]),
        ("$.items[?(@.price>500)]", &["jsonpath"]),
        ("~distributed consensus", &["fts"]),
        ("~find anything about: !@#$%^ malformed (but valid as query)", &["fts"]),
        ("&createCoder", &["graph"]),
        ("&<createCoder", &["graph"]),
        ("&>createCoder", &["graph"]),
        ("*.md", &["glob"]),
        ("@patch", &["glob"]),
        ("@(createCoder|deleteCoder)", &["glob"]),
        ("TODO", &["glob"]),
    ]);
    // The AST keeps the authored text beside the reading.
    for raw in ["/a\\/b/i", "/collector/ -i", "^(?i)note:.*", "//item", "&x"] {
        assert_eq!(raw_of(raw), raw);
    }
}

#[test]
fn matcher_refusal_names_the_engine_failure() {
    check(&[
        (
            "/(unclosed/",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid regular expression: /(unclosed/: Unterminated group: `/(unclosed/` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
        (
            "/(/i",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid regular expression: /(/i: Unterminated group: `/(/i` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
        (
            "/(?x)loose/",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid regular expression: /(?x)loose/: Invalid group: `/(?x)loose/` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
        (
            "/Enum/{5,40}",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid flags supplied to RegExp constructor '{5,40}' - use only ECMAScript flags after the closing `/`: `/Enum/{5,40}` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
        (
            "/x/ii",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid flags supplied to RegExp constructor 'ii' - use only ECMAScript flags after the closing `/`: `/x/ii` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
        (
            "//[bad",
            &["unreadable: pattern leads with `//` but is not a valid xpath selector - XPath parse error || Write an XPath 1.0 selector after `//`, such as `//dependencies/*`."],
        ),
        (
            "// TODO: add error handling",
            &["unreadable: pattern leads with `//` but is not a valid xpath selector - Unexpected character : || Write an XPath 1.0 selector after `//`, such as `//dependencies/*`."],
        ),
        (
            "// foo {bar}",
            &["unreadable: pattern leads with `//` but is not a valid xpath selector - Unexpected character { || Write an XPath 1.0 selector after `//`, such as `//dependencies/*`."],
        ),
        (
            "$[",
            &["unreadable: pattern leads with `$` but is not a valid jsonpath - unclosed bracketed selection ('$[':2) || Write an RFC 9535 JSONPath after `$`, such as `$.items[?(@.price>500)]`."],
        ),
        (
            "$.users[",
            &["unreadable: pattern leads with `$` but is not a valid jsonpath - unclosed bracketed selection ('$.users[':8) || Write an RFC 9535 JSONPath after `$`, such as `$.items[?(@.price>500)]`."],
        ),
        (
            "$[(",
            &["unreadable: pattern leads with `$` but is not a valid jsonpath - unexpected token '(' in bracketed selection ('$[(':2) || Write an RFC 9535 JSONPath after `$`, such as `$.items[?(@.price>500)]`."],
        ),
        (
            "$HOME",
            &["unreadable: pattern leads with `$` but is not a valid jsonpath - expected '.', '..' or a bracketed selection, found 'H' ('$HOME':1) || Write an RFC 9535 JSONPath after `$`, such as `$.items[?(@.price>500)]`."],
        ),
        (
            "$.[",
            &["unreadable: pattern leads with `$` but is not a valid jsonpath - unexpected shorthand selector '[' ('$.[':2) || Write an RFC 9535 JSONPath after `$`, such as `$.items[?(@.price>500)]`."],
        ),
        (
            "&",
            &["unreadable: Malformed graph matcher; expected `&symbol`, `&<symbol`, or `&>symbol`. || Write `&symbol` for a symbol, `&<symbol` for what calls it, or `&>symbol` for what it calls."],
        ),
        (
            "&two symbols",
            &["unreadable: Malformed graph matcher; expected `&symbol`, `&<symbol`, or `&>symbol`. || Write `&symbol` for a symbol, `&<symbol` for what calls it, or `&>symbol` for what it calls."],
        ),
    ]);
}

#[test]
fn matcher_refusal_words_v8_reasons() {
    let reason = |raw: &str| match matcher::read(rules(), raw).0 {
        Matcher::Unreadable { message, .. } => message.split(": ").nth(2).unwrap_or("").to_string(),
        other => panic!("{raw:?} was read: {other:?}"),
    };
    for (raw, want) in [
        ("/a)/", "Unmatched ')'"),
        ("/+x/", "Nothing to repeat"),
        ("/x{2}{3}/", "Nothing to repeat"),
        ("/[a/", "Unterminated character class"),
        ("/[z-a]/", "Range out of order in character class"),
        ("/a{3,1}/", "numbers out of order in {} quantifier"),
        ("/a{/u", "Incomplete quantifier"),
        ("/]/u", "Lone quantifier brackets"),
        ("/\\x/u", "Invalid escape"),
        ("/\\p{Foo}/u", "Invalid property name"),
        ("/(?<1a>x)/", "Invalid capture group name"),
        ("/(?<a>x)(?<a>y)/", "Duplicate capture group name"),
        ("/\\k<a>/u", "Invalid named capture referenced"),
    ] {
        assert_eq!(reason(raw), want, "{raw:?}");
    }
    // What ECMAScript's web-compatibility grammar admits compiles.
    for ok in ["/a{,5}/", "/\\8/", "/(a)\\2/", "/]/", "/\\cA/", "/(?<=a)b/", "/(?i:note):.*/", "/[\\p{L}--\\p{N}]/v", "/\\u{1F600}/u"] {
        assert!(matches!(matcher::read(rules(), ok).0, Matcher::Regex { .. }), "{ok:?}");
    }
}

#[test]
fn regex_dialect_readings_pipe_alternation() {
    check(&[
        (
            "/render\\|_html_output\\|get_context/",
            &["regex /render|_html_output|get_context/", "`\\|` was read as alternation, `|`; a literal pipe is `[|]`."],
        ),
        // A pipe in a class, or after an escaped backslash, is not the habit.
        ("/a[\\|]b/", &["regex /a[\\|]b/"]),
        ("/a\\\\|b/", &["regex /a\\\\|b/"]),
        ("/a[|]b/", &["regex /a[|]b/"]),
    ]);
}

#[test]
fn regex_dialect_readings_dash_flags() {
    check(&[
        ("/collector/ -i", &["regex /collector/i", "`-i` after the pattern was read as the flags `i`; flags go right after the closing `/`."]),
        ("/collector/-im", &["regex /collector/im", "`-im` after the pattern was read as the flags `im`; flags go right after the closing `/`."]),
        // A dash and a number is trailing text, not flags.
        ("/def copy/ -1", &["unreadable: Regex matcher has trailing text after `/pattern/flags`. || Write only `/pattern/flags` in the matcher; flags are optional."]),
    ]);
}

#[test]
fn regex_dialect_readings_glob_shaped() {
    check(&[
        ("/*kernel_pca*/", &["regex /.*kernel_pca.*/", "`/*kernel_pca*/` was read as the glob `*kernel_pca*` over each line, the regex `/.*kernel_pca.*/`; a pattern is a regex, and `*` repeats what precedes it."]),
        ("/*/", &["regex /.*/", "`/*/` was read as the glob `*` over each line, the regex `/.*/`; a pattern is a regex, and `*` repeats what precedes it."]),
        ("/**/", &["regex /.*/", "`/**/` was read as the glob `**` over each line, the regex `/.*/`; a pattern is a regex, and `*` repeats what precedes it."]),
        ("/*.py/", &["regex /.*\\.py/", "`/*.py/` was read as the glob `*.py` over each line, the regex `/.*\\.py/`; a pattern is a regex, and `*` repeats what precedes it."]),
        ("/?x/", &["regex /.x/", "`/?x/` was read as the glob `?x` over each line, the regex `/.x/`; a pattern is a regex, and `*` repeats what precedes it."]),
        // A regex that compiles is never rewritten.
        ("/a*b|c/i", &["regex /a*b|c/i"]),
        ("/x*?/", &["regex /x*?/"]),
    ]);
    // Not glob-shaped: the native failure stands.
    assert!(reading("/*foo(/")[0].contains("Nothing to repeat"));
}

#[test]
fn inline_flag_tolerance_lifts_a_leading_group() {
    check(&[
        (
            "/(?i)shutdown|reactor|code/",
            &[
                "regex /shutdown|reactor|code/i",
                "`(?i)` was read as the `i` flag; an ECMAScript regex takes its flags after the closing `/`.",
            ],
        ),
        (
            "/(?ms)^begin.*end$/i",
            &["regex /^begin.*end$/ims", "`(?ms)` was read as the `ms` flag; an ECMAScript regex takes its flags after the closing `/`."],
        ),
        (
            "^(?i)note:.*",
            &["regex /^note:.*/i", "`(?i)` was read as the `i` flag; an ECMAScript regex takes its flags after the closing `/`."],
        ),
        // Scoped modifiers are ECMAScript and pass through untouched.
        ("/(?i:note):.*/", &["regex /(?i:note):.*/"]),
    ]);
    // Only a leading group lifts.
    assert!(reading("/foo(?i)bar/")[0].contains("Invalid group"));
}

#[test]
fn regex_trailing_text_is_one_refusal() {
    let refused = "unreadable: Regex matcher has trailing text after `/pattern/flags`. || Write only `/pattern/flags` in the matcher; flags are optional.";
    check(&[
        ("/require|ABS_MODULE_PATH|module_load/ trailing", &[refused]),
        ("/def copy/i inspect the method", &[refused]),
        ("/def copy/ i", &[refused]),
        ("/a/i extra", &[refused]),
        ("/fn x/ <3,4>", &[refused]),
    ]);
    // An invalid prefix keeps its native failure.
    assert!(reading("/(/ trailing")[0].contains("Unterminated group"));
}

#[test]
fn regex_sed_range_is_named_as_one() {
    let range = format!("unreadable: Regex matcher contains a range suffix after its closing `/`. || {REGEX_FORM}");
    for raw in ["/^def start/,/^def end/", "/start/, /end/", "/start/,+45", "/start/,", "/x/ ,/y/", "/x/i,/y/"] {
        assert_eq!(reading(raw), std::slice::from_ref(&range), "{raw:?}");
    }
}

#[test]
fn unclosed_regex_reads_the_whole_pattern() {
    check(&[
        (
            "/get_script_prefix|SCRIPT_NAME",
            &["regex /get_script_prefix|SCRIPT_NAME/", "`/get_script_prefix|SCRIPT_NAME` has no closing `/`; it was read as the whole pattern with no flags. A regex closes with `/` and takes its flags after it."],
        ),
        // A bare `/` has no pattern to read.
        ("/", &["unreadable: `/` opens a regex matcher but no pattern follows it; write `/pattern/flags`, flags optional. || Write `/pattern/flags`, flags optional, such as `/timeout/i`."]),
        // A second unescaped `/` closes it: invalid flags keep their native failure.
        (
            "/hello/i:",
            &["unreadable: pattern leads with `/` but is not a valid `/pattern/flags` regex - Invalid flags supplied to RegExp constructor 'i:' - use only ECMAScript flags after the closing `/`: `/hello/i:` || A pattern is a regex written `/pattern/flags`, such as `/timeout/i`."],
        ),
    ]);
}

#[test]
fn pattern_body_single_line() {
    check(&[
        (
            "first line\nsecond line",
            &["unreadable: Matcher has 2 lines; expected 1. || Write the pattern on one line, on the opening fence line after the path."],
        ),
        (
            "body mentions\n\n### LOOK2 (nested)",
            &["unreadable: Matcher has 3 lines; expected 1. || Write the pattern on one line, on the opening fence line after the path."],
        ),
        // Refused before dialect classification.
        (
            "/a/\n/b/",
            &["unreadable: Matcher has 2 lines; expected 1. || Write the pattern on one line, on the opening fence line after the path."],
        ),
    ]);
}

// ── Targets (§5) ────────────────────────────────────────────────────────────────────────────────

fn url(raw: &str) -> [Option<String>; 7] {
    match target::parse(raw) {
        Ok(Target::Url(u)) => {
            let o = |c: Option<&str>| c.map(str::to_string);
            [
                Some(u.scheme().to_string()),
                o(u.username()),
                o(u.password()),
                o(u.hostname()),
                u.port().map(|p| p.to_string()),
                Some(u.pathname().to_string()),
                o(u.query()),
            ]
        }
        other => panic!("{raw:?}: {other:?}"),
    }
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn path_syntax_whatwg_decomposition() {
    let n = None;
    let table: &[(&str, [Option<String>; 7])] = &[
        (
            "https://user:pw@example.com:8080/api?q=1#frag",
            [s("https"), s("user"), s("pw"), s("example.com"), s("8080"), s("/api"), s("q=1")],
        ),
        ("HTTPS://Example.COM:443/a", [s("https"), n.clone(), n.clone(), s("example.com"), n.clone(), s("/a"), n.clone()]),
        ("worker://Alice/x", [s("worker"), n.clone(), n.clone(), s("Alice"), n.clone(), s("/x"), n.clone()]),
        ("worker:///philosophy/meaning", [s("worker"), n.clone(), n.clone(), n.clone(), n.clone(), s("/philosophy/meaning"), n.clone()]),
        // Special schemes serialize an empty path as `/`; others keep `""`.
        ("https://host?x=/{a,b}", [s("https"), n.clone(), n.clone(), s("host"), n.clone(), s("/"), s("x=/{a,b}")]),
        ("worker://host?x=1", [s("worker"), n.clone(), n.clone(), s("host"), n.clone(), s(""), s("x=1")]),
        // WHATWG encodes what a path cannot hold; braces keep their glob spelling.
        ("log:///1/*/*/* BARE", [s("log"), n.clone(), n.clone(), n.clone(), n.clone(), s("/1/*/*/*%20BARE"), n.clone()]),
        ("https://example.test/a<0>:", [s("https"), n.clone(), n.clone(), s("example.test"), n.clone(), s("/a%3C0%3E:"), n.clone()]),
        ("log:///1/[1-7]/*/{PLAN,READ}", [s("log"), n.clone(), n.clone(), n.clone(), n.clone(), s("/1/[1-7]/*/{PLAN,READ}"), n.clone()]),
        ("log:///1/%7BPLAN,READ%7D", [s("log"), n.clone(), n.clone(), n.clone(), n.clone(), s("/1/%7BPLAN,READ%7D"), n.clone()]),
        ("https://host/{path}?x=/{a,b}#/{c,d}", [s("https"), n.clone(), n.clone(), s("host"), n.clone(), s("/{path}"), s("x=/{a,b}")]),
    ];
    for (raw, want) in table {
        assert_eq!(&url(raw), want, "{raw:?}");
    }
    for bad in ["http://[bad", "https://uri-user:uri-password@[bad", "https://%", "https://h:99999/"] {
        assert_eq!(target::parse(bad), Err(InvalidUri), "{bad:?}");
    }
}

#[test]
fn path_query_keeps_absent_and_empty_apart() {
    let q = |raw: &str| match target::parse(raw) {
        Ok(Target::Url(u)) => (u.query().map(str::to_string), u.fragment().map(str::to_string)),
        other => panic!("{other:?}"),
    };
    assert_eq!(q("https://example.com/"), (None, None));
    assert_eq!(q("https://example.com/?"), (s(""), None));
    assert_eq!(q("https://example.com/?q=1&lang=en&q=2"), (s("q=1&lang=en&q=2"), None));
    assert_eq!(q("https://example.test/x?literal=)&encoded=%29#preview("), (s("literal=)&encoded=%29"), s("preview(")));
    assert_eq!(q("https://host/path#fragment?text"), (None, s("fragment?text")));
}

#[test]
fn local_path_fragment() {
    let table: &[(&str, &str, Option<&str>)] = &[
        ("data/users.html#readable", "data/users.html", Some("readable")),
        ("config/foo.xml", "config/foo.xml", None),
        ("**/*.json", "**/*.json", None),
        // A spelling that opens with `#` names no path and stays whole.
        ("#stdout", "#stdout", None),
        ("#draft.*#i", "#draft.*#i", None),
        ("#issue\\#42#", "#issue\\#42#", None),
    ];
    for (raw, path, fragment) in table {
        assert_eq!(target::parse(raw), Ok(Target::Local { raw: (*path).into(), fragment: fragment.map(Into::into) }), "{raw:?}");
    }
}

/// §path-parentheses: a statement's local target borrows the turn; only a slot whose escapes
/// were decoded holds its own copy (and its `#channel` part with it).
#[test]
fn path_parentheses_local_targets_borrow_unless_decoded() {
    use std::borrow::Cow;
    let opts = plurnk_parser::ParseOptions::default();
    let table: &[(&str, &str, Option<&str>, bool)] = &[
        ("```READ (src/a.rs)\n```\n", "src/a.rs", None, true),
        ("```READ (page.html#readable)\n```\n", "page.html", Some("readable"), true),
        ("```READ (notes \\(draft\\).md)\n```\n", "notes (draft).md", None, false),
        ("```READ (a\\(1\\).html#top)\n```\n", "a(1).html", Some("top"), false),
    ];
    for (turn, path, channel, borrowed) in table {
        let result = plurnk_parser::parse(turn, &opts);
        let target = result.items.iter().find_map(|i| match i {
            plurnk_parser::Item::Statement(s) => s.target.as_ref(),
            _ => None,
        });
        let Some(Target::Local { raw, fragment }) = target else { panic!("{turn:?}: no local target in {:?}", result.items) };
        assert_eq!((raw.as_ref(), fragment.as_deref()), (*path, *channel), "{turn:?}");
        assert_eq!(matches!(raw, Cow::Borrowed(_)), *borrowed, "{turn:?}: raw {raw:?}");
        assert_eq!(fragment.as_ref().map(|f| matches!(f, Cow::Borrowed(_))), channel.map(|_| *borrowed), "{turn:?}: fragment");
    }
}

#[test]
fn safe_uri_target_groups() {
    let table: &[(&str, Option<&[&str]>)] = &[
        ("log:///1/2/3/READ, log:///1/3/2/FIND", Some(&["log:///1/2/3/READ", "log:///1/3/2/FIND"])),
        ("worker:///a worker:///b", Some(&["worker:///a", "worker:///b"])),
        ("log:///1/1/1/READ,log:///1/1/2/READ", Some(&["log:///1/1/1/READ", "log:///1/1/2/READ"])),
        (
            "log:///1/1/1/READ, worker:///notes.md https://example.com",
            Some(&["log:///1/1/1/READ", "worker:///notes.md", "https://example.com"]),
        ),
        // Any whitespace separates, as `char::is_whitespace` reads it: tab, vertical tab, form
        // feed, and outside ASCII (an em space).
        ("worker:///a\tworker:///b", Some(&["worker:///a", "worker:///b"])),
        ("worker:///a\u{0B}worker:///b", Some(&["worker:///a", "worker:///b"])),
        ("worker:///a\u{0C}worker:///b", Some(&["worker:///a", "worker:///b"])),
        ("worker:///a\u{2003}worker:///b", Some(&["worker:///a", "worker:///b"])),
        ("worker:///é\u{0B}worker:///b", Some(&["worker:///é", "worker:///b"])),
        // Every member must be a URI; braces protect their contents; local names never split.
        ("https://example.com/a,b", None),
        ("worker:///a local.md", None),
        ("worker:///valid https://%", None),
        ("log:///1/1/*/{NEXT,READ}", None),
        ("notes and plans.md", None),
        ("alpha,beta.md", None),
    ];
    for (raw, want) in table {
        let got = target::split_uri_group(raw);
        assert_eq!(got.as_deref().map(|v| v.iter().map(String::as_str).collect::<Vec<_>>()), want.map(|w| w.to_vec()), "{raw:?}");
    }
}

#[test]
fn path_parentheses_round_trip() {
    for raw in ["a(b)c", "x\\y", "\\(", "a)\\", "https://en.wikipedia.org/wiki/Igor_Smirnov_(politician)"] {
        assert_eq!(target::decode_slot(&target::encode_slot(raw)), raw);
    }
    // Unknown pairs keep both characters for glob interpretation.
    assert_eq!(target::decode_slot("a\\*b\\(c\\)"), "a\\*b(c)");
}

/// §regex-dialect-readings: a `/…/` matcher is validated, never run, and validation leaves out
/// the `i` flag (case-folding every character is the engine's most expensive step). That is
/// sound only if `i` never changes what parses; this property holds the engine to it, over
/// patterns built from the characters regex syntax is made of.
#[test]
fn regex_dialect_case_insensitivity_never_changes_validity() {
    // With the two characters whose case folds leave ASCII: long s (U+017F) and Kelvin (U+212A).
    const ALPHABET: &[char] = &[
        '(', ')', '[', ']', '{', '}', '<', '>', '?', '*', '+', '.', '^', '$', '|', '\\', '/', '-', ',', ':', '=', '!', '0', '1', '2', '9',
        'a', 'A', 'b', 'B', 'k', 'K', 's', 'S', 'w', 'W', 'd', 'D', 'p', 'P', 'u', 'U', 'x', 'X', 'c', 'n', '_', ' ', '\u{17F}',
        '\u{212A}',
    ];
    let valid = |p: &str, flags: &str| regress::Regex::with_flags(p, flags).is_ok();
    let table = [
        "[a-z]",
        "[z-a]",
        "(?i:abc)",
        "(?-i:a)",
        "\\u{1F600}",
        "[^\\W]",
        "\\p{Lu}",
        "k\u{212A}",
        "(?<n>a)\\k<n>",
        "[\\d-z]",
        "a{2,1}",
        "\\c",
    ];
    for p in table {
        for (plain, folded) in [("", "i"), ("u", "iu"), ("v", "iv"), ("s", "is"), ("m", "im")] {
            assert_eq!(valid(p, plain), valid(p, folded), "/{p}/{folded} and /{p}/{plain} disagree");
        }
    }
    bolero::check!().with_type::<Vec<u8>>().with_iterations(20_000).with_max_len(24).for_each(|bytes: &Vec<u8>| {
        let p: String = bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()]).collect();
        for (plain, folded) in [("", "i"), ("u", "iu"), ("v", "iv")] {
            assert_eq!(valid(&p, plain), valid(&p, folded), "/{p}/{folded} and /{p}/{plain} disagree");
        }
    });
}
