//! SPEC 6.0 chapter 6, bulk pattern matching (§matcher-prefix-claims): dialects by prefix, the
//! heading boundary, scopes in path slots, extra slots, refusals and the regex habits read.
//! One test per tag, on our own inputs.

mod spec_support;
use serde_json::json;
use spec_support::*;

fn matcher(input: &str) -> serde_json::Value {
    only(input)["matcher"].clone()
}

/// §matcher-prefix-claims: the leading characters claim the dialect: `//` XPath before `/`
/// regex, `^` anchored regex, `$` JSONPath, `~` full text, `&` graph, anything else glob or
/// literal (`@(...)` an extglob, `@text` literal).
#[test]
fn matcher_prefix_claims_dialect_by_prefix() {
    for (m, dialect) in [
        ("//dependency/version", "xpath"),
        ("/err(or)?/i", "regex"),
        ("^impl\\b", "regex"),
        ("$.items[0].name", "jsonpath"),
        ("~error budget", "fts"),
        ("&>dispatch", "graph"),
        ("*.toml", "glob"),
        ("@(x|y).md", "glob"),
        ("@patch", "glob"),
        ("TODO", "glob"),
    ] {
        assert_eq!(matcher(&format!("```READ (f) {m}\n```"))["dialect"], dialect, "{m}");
    }
    let m = matcher("```FIND (src) /a\\/b/g\n```");
    assert_eq!((m["pattern"].clone(), m["flags"].clone()), (json!("a\\/b"), json!("g")));
    // A claimed dialect that fails never falls back to glob.
    assert_eq!(matcher("```FIND (src) &\n```")["dialect"], "unreadable");
}

/// §heading-boundary-recovery: one malformed heading costs one diagnostic; the next heading
/// and the turn's disposition stand on their own.
#[test]
fn heading_boundary_recovery_one_heading_one_diagnostic() {
    let input = "```READ (a.md) <x>\n```\n```EDIT (b.md) <2>\nnew\n```\n```WAIT\n```";
    assert_eq!(ops(input), ["EDIT", "WAIT"]);
    assert_eq!(hard(input).len(), 1);
}

/// §scope-slot-tolerance: a line scope right before a slot's closing paren is the scope, on
/// every path slot, with one advisory at the `<` after its statement naming the
/// `(path) <scope>` form used; a `<` anywhere else stays the lexer's refusal.
#[test]
fn scope_slot_tolerance_scope_inside_the_path_slot() {
    let r = result("```COPY (worker:///src.md<2,3>) (worker:///slice.md<1,-1>)\n```");
    let s = &statements_of(&r)[0];
    assert_eq!(s["source"]["target"]["raw"], "worker:///src.md");
    assert_eq!(
        (s["source"]["lineMarker"]["marks"].clone(), s["destination"]["lineMarker"]["marks"].clone()),
        (json!([2, 3]), json!([1, -1]))
    );
    let d = diagnostics_of(&r);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0]["message"], "The scope inside the target slot was read as `(worker:///src.md) <2,3>`.");
    assert_eq!(d[1]["message"], "The scope inside the target slot was read as `(worker:///slice.md) <1,-1>`.");
    assert_eq!((d[0]["column"].clone(), d[0]["severity"].clone()), (json!(25), json!("warning")));
    let r = result("```READ (notes.md <4,+6>)\n```");
    assert_eq!(marks(&statements_of(&r)[0]), json!([4, 10]));
    assert!(
        messages_of(&r).contains(&"warning: The scope inside the target slot was read as `(notes.md) <4,+6>`.".to_string()),
        "{:?}",
        messages_of(&r)
    );
    assert_eq!(refusal("```READ (a<1>b.md)\n```")["source"], "lexer");
}

/// §extra-path-slot: a slot beyond the admitted operands is a parser error at its opening
/// paren with the expected alternatives; a bodyless operation's alternatives name no body; the
/// statement is dropped and its siblings run.
#[test]
fn extra_path_slot_is_refused_at_its_paren() {
    let input = "```MOVE (a.md) (b.md) (c.md)\n```\n```NOTE\nsibling\n```";
    let e = &hard(input)[0];
    assert_eq!((e["source"].clone(), e["column"].clone()), (json!("parser"), json!(22)));
    assert_eq!(
        e["message"],
        "unexpected `(` (`(path)` slot opener); expected operation fence header, operation-heading line ending, or closing fence"
    );
    assert_eq!(ops(input), ["NOTE"]);
    assert!(refusal("```EDIT (a.md) (b.md)\nx\n```")["message"].as_str().unwrap().ends_with("or body content"));
    assert_eq!(refusal("```WAIT (a) (b)\n```")["column"], json!(12));
}

/// §matcher-refusal: an unreadable matcher refuses its operation, not the turn: the statement
/// is admitted with `dialect: "unreadable"`, the authored text, the message and the dialect's
/// working form; its siblings run; it renders back as written.
#[test]
fn matcher_refusal_is_the_operations_own() {
    let input = "```FIND (src) /(open/\n```\n```READ (b.md)\n```";
    let s = statements(input);
    assert_eq!(s.len(), 2);
    let m = &s[0]["matcher"];
    assert_eq!((m["dialect"].clone(), m["raw"].clone()), (json!("unreadable"), json!("/(open/")));
    assert!(m["message"].as_str().unwrap().contains("Unterminated group"));
    assert_eq!(m["recovery"], "A pattern is a regex written `/pattern/flags`, such as `/timeout/i`.");
    assert!(hard(input).is_empty());
    use plurnk_parser::{parse, render, ParseOptions};
    let r = parse("```FIND (src) /(open/\n```", &ParseOptions::default());
    assert_eq!(render::stringify(r.statements().next().unwrap()), "```FIND (src) /(open/\n```");
}

/// §regex-dialect-readings: `\|` is alternation, `-flags` are the flags, a glob-shaped regex
/// that fails to compile is that glob over each line; one advisory each; `raw` keeps the
/// authored text; a regex that compiles is never rewritten.
#[test]
fn regex_dialect_readings_three_habits() {
    let r = result("```READ (a.log) /warn\\|error/\n```");
    assert_eq!((statements_of(&r)[0]["matcher"]["pattern"].clone(), messages_of(&r).len()), (json!("warn|error"), 1));
    let m = matcher("```READ (a.log) /panic/-im\n```");
    assert_eq!((m["raw"].clone(), m["pattern"].clone(), m["flags"].clone()), (json!("/panic/-im"), json!("panic"), json!("im")));
    let m = matcher("```READ (a.log) /*retry*/\n```");
    assert_eq!((m["raw"].clone(), m["pattern"].clone()), (json!("/*retry*/"), json!(".*retry.*")));
    assert_eq!(matcher("```READ (a.log) /*/\n```")["pattern"], ".*");
    // Compiles as written: untouched, no advisory.
    assert_eq!(clean("```READ (a.log) /a+b?/\n```")["matcher"]["pattern"], "a+b?");
}

/// §pattern-body-single-line: every matcher is one line; a multiline LOOK matcher body is
/// refused before classification; other bodies stay multiline.
#[test]
fn pattern_body_single_line() {
    let r = client_result("```LOOK (a.md)\nfirst\nsecond\n```");
    let b = &statements_of(&r)[0]["body"];
    assert_eq!((b["dialect"].clone(), b["message"].clone()), (json!("unreadable"), json!("Matcher has 2 lines; expected 1.")));
    let r = client_result("```LOOK (a.md)\n/ok/\n```");
    assert_eq!(statements_of(&r)[0]["body"]["dialect"], "regex");
    assert_eq!(clean("```EDIT (a.md) /x/\nline 1\nline 2\n```")["body"], "line 1\nline 2");
}
