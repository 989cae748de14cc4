//! SPEC 6.0 chapter 14, parse diagnostics: the error object, admission, recovery, positions,
//! the targeted readings and refusals, the message classes and the boundary. One test per tag,
//! each from its sentence, on our own inputs.

mod spec_support;
use serde_json::json;
use spec_support::*;

/// §parse-diagnostics: a diagnostic is a JSON object whose `message` holds only the parser's
/// text; line, column, source and severity are separate fields.
#[test]
fn parse_diagnostics_fields_are_separate() {
    let e = refusal("```READ (a.md) <x>\n```");
    let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
    for k in ["line", "column", "source", "severity", "message", "recovery"] {
        assert!(keys.contains(&k), "{k} missing from {e:#}");
    }
    let msg = e["message"].as_str().unwrap();
    assert!(!msg.contains("line 1") && !msg.contains("error"), "{msg}");
    assert!(["lexer", "parser", "visitor"].contains(&e["source"].as_str().unwrap()));
}

/// §parse-admission: `operationOmitted` marks unexecuted unfenced operations and unknown
/// operation-shaped tags; a warning about a retained operation or a quoted example does not.
#[test]
fn parse_admission_operation_omitted_only_where_nothing_ran() {
    let d = diagnostics_of(&result("READ (notes.md) <1,5>\n```EDIT (a.md) <1>\nx\n```"));
    assert_eq!(d[0]["operationOmitted"], json!(true));
    let d = diagnostics_of(&result("```fetch (https://example.test)\n```"));
    assert_eq!(d[0]["operationOmitted"], json!(true));
    let d = diagnostics_of(&result("```READ (a.md)\nnot a body\n```"));
    assert_eq!(d[0].get("operationOmitted"), None);
    let d = diagnostics_of(&result("```\n```READ (a.md)\n```\n```"));
    assert!(d.iter().all(|e| e.get("operationOmitted").is_none()), "{d:#?}");
}

/// §parse-recovery: every hard diagnostic names the working form of what it refused — a heading
/// its operation's line, a scope the scope's form, a matcher its dialect's form — and an
/// advisory carries none.
#[test]
fn parse_recovery_every_hard_fact_carries_its_working_form() {
    let heading = refusal("```READ a.py\n```");
    assert_eq!(heading["recovery"], "`READ (path) <L,M>? pattern? <!-- aside -->?` on the opening fence line; READ takes no body.");
    for (input, form) in [
        (
            "```READ (a.md) <x>\n```",
            "A scope is `<L>`, `<L,M>` or `<SL,SC,EL,EC>`, each line a number or an `@abcde` anchor, such as `<12,40>` or `<@abcde,+5>`.",
        ),
        (
            "```EDIT (a.md) <1,bad>\nx\n```",
            "A scope is `<L>`, `<L,M>` or `<SL,SC,EL,EC>`, each line a number or an `@abcde` anchor, such as `<12,40>` or `<@abcde,+5>`.",
        ),
        ("```FIND (src) <first>\n```", "A FIND scope is `<N>` or `<first,last>` in result positions, such as `<1,16>`."),
        ("```SEND (worker://a) <soon>\nx\n```", "A recipient's scope is numeric, such as `<1>` or `<2,5>`, after the recipient."),
        (
            "```READ (a.md) <0,+4>\n```",
            "A scope is `<L>`, `<L,M>` or `<SL,SC,EL,EC>`, each line a number or an `@abcde` anchor, such as `<12,40>` or `<@abcde,+5>`.",
        ),
        ("```FIND (a) <1> <2>\n```", "A FIND scope is `<N>` or `<first,last>` in result positions, such as `<1,16>`."),
    ] {
        assert_eq!(refusal(input)["recovery"], form, "{input:?}");
    }
    let m = only("```READ (a.md) /[a-/\n```")["matcher"].clone();
    assert_eq!(m["recovery"], "A pattern is a regex written `/pattern/flags`, such as `/timeout/i`.");
    // A battery of refusals: each hard fact has a recovery; no advisory has one.
    for input in [
        "```READ (a) (b) /x/ <1>\n```",
        "```COPY (a)\n```",
        "```NOTE (a)\nx\n```",
        "```KILL\n```",
        "```READ (http://[x)\n```",
        "```EDIT (a) <1> @abcde\nx\n```",
        "```READ (a) [{\"pattern\": []}]\n```",
        "```READ (a<b)\n```",
        "```READ (a) <1> <2>\n```",
        "```sh (a) (b)\n```",
        "```WAIT (a) (b)\n```",
        "```READ (a) <!-- x --> (b)\n```",
        "```READ (a) (b) /x/ [{\"k\": 1}]\n```",
    ] {
        for e in diagnostics_of(&result(input)) {
            if e["message"] == "No valid Operation Syntax OPs detected." {
                continue;
            }
            assert_eq!(e["severity"] == "error", e.get("recovery").is_some(), "{input:?}: {e:#}");
        }
    }
}

/// §parser-position: a statement's position is the first backtick of its header; columns are
/// 0-based code points; LF and CRLF end lines, a lone CR is one column; a diagnostic points at
/// the offending place.
#[test]
fn parser_position_points_in_code_points() {
    let r = result("Ünïcödé 😀 prose\r\n  ```READ (ß.md) <x>\r\n```");
    let e = &hard("Ünïcödé 😀 prose\r\n  ```READ (ß.md) <x>\r\n```")[0];
    assert_eq!((e["line"].clone(), e["column"].clone()), (json!(2), json!(17)));
    assert!(statements_of(&r).is_empty());
    // Code points, not bytes or UTF-16 units: two emoji are two columns.
    let s = statements("```NOTE 😀😀``` ```READ (b.md)```");
    assert_eq!(s[1]["position"], json!({"line": 1, "column": 14}));
    // A lone CR is a column, not a line ending.
    let e = &hard("x\ry\n```READ (a) <bad>\n```")[0];
    assert_eq!((e["line"].clone(), e["column"].clone()), (json!(2), json!(12)));
    let s = statements("```NOTE a\rb``` ```READ (c)```");
    assert_eq!(s[1]["position"], json!({"line": 1, "column": 15}));
    let s = statements("```READ (a)\n```\n\n   ```NOTE\nx\n```");
    assert_eq!(s[1]["position"], json!({"line": 4, "column": 3}));
    let s = statements("```READ (one)``` ```READ (two)```");
    assert_eq!((s[0]["position"].clone(), s[1]["position"].clone()), (json!({"line": 1, "column": 0}), json!({"line": 1, "column": 17})));
}

/// §inline-flag-tolerance: a leading `(?i)`, `(?m)`, `(?s)` group lifts into the flags with one
/// advisory; `(?i:…)` passes through; `^(?i)` lifts too.
#[test]
fn inline_flag_tolerance_lifts_leading_groups() {
    let r = result("```FIND (src) /(?ims)^todo:/\n```");
    let m = &statements_of(&r)[0]["matcher"];
    assert_eq!((m["pattern"].clone(), m["flags"].clone()), (json!("^todo:"), json!("ims")));
    assert_eq!(messages_of(&r).len(), 1);
    let m = only("```READ (a) ^(?i)note:\n```")["matcher"].clone();
    assert_eq!((m["pattern"].clone(), m["flags"].clone()), (json!("^note:"), json!("i")));
    let m = clean("```READ (a) /(?i:x)y/\n```")["matcher"].clone();
    assert_eq!(m["pattern"], "(?i:x)y");
}

/// §regex-trailing-text: a valid `/pattern/flags` and trailing text is one trailing-content
/// refusal of the matcher, with or without flags.
#[test]
fn regex_trailing_text_is_the_matchers_refusal() {
    for input in ["```READ (a) /fail/ in tests\n```", "```READ (a) /fail/i in tests\n```"] {
        let m = only(input)["matcher"].clone();
        assert_eq!(
            (m["dialect"].clone(), m["message"].clone()),
            (json!("unreadable"), json!("Regex matcher has trailing text after `/pattern/flags`."))
        );
    }
}

/// §regex-sed-range: `/a/,/b/` and `/a/,+N` are refused as a range, with the regex working form.
#[test]
fn regex_sed_range_is_named() {
    for input in ["```READ (a) /begin/,/end/\n```", "```READ (a) /begin/,+3\n```"] {
        let m = only(input)["matcher"].clone();
        assert_eq!(m["message"], "Regex matcher contains a range suffix after its closing `/`.", "{input:?}");
        assert_eq!(m["recovery"], "A pattern is a regex written `/pattern/flags`, such as `/timeout/i`.");
    }
}

/// §unclosed-regex: `/pattern` without a closing slash is the whole pattern with no flags and
/// one advisory; a bare `/` is refused; a second slash makes `/pattern/flags`.
#[test]
fn unclosed_regex_reads_the_whole_pattern() {
    let r = result("```FIND (src) /fn main\n```");
    let m = &statements_of(&r)[0]["matcher"];
    assert_eq!((m["pattern"].clone(), m["flags"].clone()), (json!("fn main"), json!("")));
    assert_eq!(messages_of(&r), ["warning: `/fn main` has no closing `/`; it was read as the whole pattern with no flags. A regex closes with `/` and takes its flags after it."]);
    assert_eq!(only("```FIND (src) /\n```")["matcher"]["dialect"], "unreadable");
    assert_eq!(only("```FIND (src) /a/q\n```")["matcher"]["dialect"], "unreadable");
}

/// §naked-pattern: after the path and any scope or block, the rest of a FIND, READ or KILL
/// heading is the matcher, exactly what the `pattern` option produces; `#name` alone is the
/// channel; on EDIT only a sigil lifts; `^` claims regex without slashes.
#[test]
fn naked_pattern_is_the_option_block_pattern() {
    let bare = clean("```FIND (src/parser.ts) /\\bparse\\w+\\b/\n```");
    let option = clean("```FIND (src/parser.ts) [{\"pattern\": \"/\\\\bparse\\\\w+\\\\b/\"}]\n```");
    assert_eq!(bare, option);
    assert_eq!(clean("```KILL (log:///**) ~stale\n```")["matcher"]["dialect"], "fts");
    assert_eq!(clean("```READ (page.html) #main\n```")["target"]["fragment"], "main");
    assert_eq!(clean("```READ (page.html#a) #b\n```")["matcher"]["raw"], "#b");
    assert_eq!(only("```EDIT (a.md) plain words\n```")["body"], "plain words");
    assert_eq!(clean("```READ (notes.md) ^Decision:.*\n```")["matcher"]["pattern"], "^Decision:.*");
    // The aside stays the aside.
    assert_eq!(clean("```READ (a.md) TODO <!-- open items -->\n```")["aside"], "open items");
}

/// §trailing-slots: an aside, a scope and an option block after the matcher peel off the right
/// in any order, each once, with an advisory naming the canonical order; with several path
/// slots a trailing scope or option block refuses the heading and never becomes matcher text.
#[test]
fn trailing_slots_peel_off_the_right() {
    let a = statements("```READ (a.rs) /fn resolve_/ <1,-1> <!-- entities -->\n```");
    let b = statements("```READ (a.rs) <1,-1> /fn resolve_/ <!-- entities -->\n```");
    assert_eq!(a, b);
    let r = result("```FIND (src) ~retry [{\"limit\": 5}] <1,10>\n```");
    let s = &statements_of(&r)[0];
    assert_eq!(
        (s["matcher"]["raw"].clone(), s["metadata"].clone(), marks(s)),
        (json!("~retry"), json!(["{\"limit\": 5}"]), json!([1, 10]))
    );
    assert_eq!(messages_of(&r).len(), 2);
    for input in [
        "```READ (a.rs) (b.rs) /use/ <1,9>\n```",
        "```READ (a.rs) (b.rs) /use/ [{\"k\": 1}]\n```",
        "```KILL (a.md) (b.md) ~x [{\"pattern\": \"~y\"}]\n```",
    ] {
        let e = refusal(input);
        assert!(e["message"].as_str().unwrap().contains("follows the shared pattern of a target group"), "{input:?}: {e:#}");
    }
}

/// §trailing-slots, §heading-inline-body, §matcher-body-redirect: an option block peeled off the
/// matcher's right end that carries `pattern` leaves the text beside it, read as in the canonical
/// order — unused and named on READ and FIND, the distillation's first line on a log KILL, the
/// body on EDIT — never dropped without a word.
#[test]
fn trailing_slots_a_peeled_pattern_block_leaves_the_text_beside_it() {
    for op in ["READ", "FIND"] {
        let peeled = result(&format!("```{op} (src/app.py)\t/def main/ [{{\"pattern\": \"~entry\"}}]\r\n```"));
        let canonical = result(&format!("```{op} (src/app.py) [{{\"pattern\": \"~entry\"}}] /def main/\r\n```"));
        assert_eq!(statements_of(&peeled), statements_of(&canonical), "{op}");
        let m = messages_of(&peeled);
        assert_eq!(m.len(), 2, "{op}: {m:?}");
        assert_eq!(m[1], format!("warning: {op} takes no body; the text after its heading on line 1 was not used."));
    }
    let kill = statements_of(&result("```KILL (log:///7/2) ~stale [{\"pattern\": \"~cache\"}]\n```"))[0].clone();
    assert_eq!((kill["matcher"]["raw"].as_str(), kill["body"].as_str()), (Some("~cache"), Some("~stale")));
    let edit = statements_of(&result("```EDIT (notes.md) /TODO/ [{\"pattern\": \"/FIXME/\"}]\n```"))[0].clone();
    assert_eq!((edit["matcher"]["raw"].as_str(), edit["body"].as_str()), (Some("/FIXME/"), Some("/TODO/")));
}

/// §log-heading-notation: the log's `→ path` is the target, `· N` a dropped charge, `· words`
/// the aside (or stray beside a real one), each named once.
#[test]
fn log_heading_notation_is_read_as_its_slot() {
    let r = result("```READ → worker:///out.md <3,9>\n```");
    assert_eq!(raw(&statements_of(&r)[0]), "worker:///out.md");
    assert_eq!(messages_of(&r), ["warning: `→ worker:///out.md` is how the log shows an address; it was read as the target. Write the target in parentheses: `READ (worker:///out.md) <3,9>`."]);
    let r = result("```READ (a.py) <1,50> · 320 tokens\n```");
    assert_eq!(marks(&statements_of(&r)[0]), json!([1, 50]));
    assert_eq!(
        messages_of(&r),
        ["warning: `· 320 tokens` is the token charge the log shows on a heading; it is not part of an operation and was ignored."]
    );
    let r = result("```FIND (x) /re/ · check the signs\n```");
    assert_eq!(statements_of(&r)[0]["aside"], "check the signs");
}

/// §bare-target: a FIND, READ or EDIT heading with no target whose text opens with a word is
/// one hard diagnostic naming the word, with the operation's working form.
#[test]
fn bare_target_names_the_word() {
    let e = refusal("```READ config.yaml <1,4>\n```");
    assert_eq!(e["message"], "`READ` has no target: `config.yaml` stands where the target goes.");
    assert!(e["recovery"].as_str().unwrap().starts_with("`READ (path)"));
    assert_eq!(refusal("```EDIT notes.md\nx\n```")["message"], "`EDIT` has no target: `notes.md` stands where the target goes.");
}

/// §bare-anchor-scope: on EDIT, `@abcde` or `@abcde,@fghij` alone where the scope goes is the
/// scope, with one advisory; on READ and KILL it stays a literal matcher.
#[test]
fn bare_anchor_scope_on_edit_only() {
    let r = result("```EDIT (a.md) @Qw3rT,@Yu1oP\nreplacement\n```");
    assert_eq!(marks(&statements_of(&r)[0]), json!(["@Qw3rT", "@Yu1oP"]));
    assert_eq!(
        messages_of(&r),
        ["warning: `@Qw3rT,@Yu1oP` was read as the scope `<@Qw3rT,@Yu1oP>`; a scope is written in angle brackets."]
    );
    assert_eq!(clean("```READ (a.md) @Qw3rT\n```")["matcher"]["raw"], "@Qw3rT");
}

/// §matcher-body-redirect: FIND, READ and non-log KILL keep the statement and name the unused
/// text: its lines (an en dash between two), or the text after the heading on its line; KILL
/// says `This KILL`; one sigil line beneath the heading still lifts.
#[test]
fn matcher_body_redirect_names_what_was_not_used() {
    assert_eq!(messages("```READ (a.md)\nfirst\nsecond\nthird\n```"), ["warning: READ takes no body; lines 2–4 were not used."]);
    assert_eq!(messages("```FIND (src)\nonly one\n```"), ["warning: FIND takes no body; line 2 was not used."]);
    assert_eq!(messages("```KILL (notes.md)\nstop\n```"), ["warning: This KILL takes no body; line 2 was not used."]);
    assert_eq!(
        messages("```READ (a.md) [{\"pattern\": \"/x/\"}] more words\n```"),
        ["warning: READ takes no body; the text after its heading on line 1 was not used."]
    );
    assert_eq!(clean("```READ (a.md)\n/TODO/i\n```")["matcher"]["raw"], "/TODO/i");
}

/// §combined-anchor-tolerance: `L<@hash>` is the anchor scope; the number is dropped with one
/// advisory; on either COPY operand too.
#[test]
fn combined_anchor_tolerance_drops_the_number() {
    let r = result("```READ (a.md) 42<@abcde>\n```");
    assert_eq!(marks(&statements_of(&r)[0]), json!(["@abcde"]));
    assert_eq!(
        messages_of(&r),
        ["warning: `42<@abcde>` was read as the scope `<@abcde>`; a scope takes the anchor without its displayed line number."]
    );
    let s = only("```COPY (a.md) 7<@abcde> (b.md) 9<@fghij>\n```");
    assert_eq!(s["destination"]["lineMarker"]["marks"], json!(["@fghij"]));
}

/// §invalid-scope-diagnostic: the offending scope (cut at 64 code points) and the operation's
/// constraint; an anchor paired with its unmarked twin states the anchor rule.
#[test]
fn invalid_scope_diagnostic_names_scope_and_constraint() {
    assert_eq!(refusal("```READ (a) <x>\n```")["message"], "invalid READ scope \"<x>\"; use numeric coordinates or `@hash` line anchors");
    assert_eq!(refusal("```FIND (a) <x>\n```")["message"], "invalid FIND scope \"<x>\"; use numeric result positions, e.g. `<1,16>`");
    let long = "9".repeat(40) + &"z".repeat(40);
    let m = refusal(&format!("```READ (a) <{long}>\n```"))["message"].as_str().unwrap().to_string();
    let quoted = m.split('"').nth(1).unwrap();
    assert!(quoted.trim_end_matches('…').chars().count() <= 64, "{m}");
    assert_eq!(
        refusal("```READ (a) <@abcde,fghij>\n```")["message"],
        "invalid READ scope \"<@abcde,fghij>\"; every line anchor carries its `@`: `<@abcde,@fghij>`"
    );
}

/// §misplaced-aside-advisory: a READ or FIND body that is only an HTML comment is the aside when
/// the heading has none, with one advisory; any other body takes the body-redirect path.
#[test]
fn misplaced_aside_advisory_body_comment_is_the_aside() {
    let r = result("```FIND (src) /todo/\n<!-- the cleanup list -->\n```");
    assert_eq!(statements_of(&r)[0]["aside"], "the cleanup list");
    assert_eq!(messages_of(&r), ["warning: The FIND body contained only an HTML comment; it was applied as the operation aside."]);
}

/// §error-shape: one hard error per malformed statement — the first lexer or parser failure in
/// its range wins over a later visitor failure (a malformed scope before a bad URI or a second
/// scope); a rejected statement carries no advisories; independent statements keep one each.
#[test]
fn error_shape_first_syntax_failure_wins() {
    for input in [
        "```READ (http://[::1) <oops>\n```",
        "```READ (a.md) <oops> <2>\n```",
        "```READ (a.md) <1> <oops>\n```",
        "```READ <1> <oops> (a.md)\n```",
        "```COPY (http://[::1) (b.md) <oops>\n```",
        "```sh (https://[x) <oops>\n```",
    ] {
        let e = refusal(input);
        assert!(e["message"].as_str().unwrap().contains("scope \"<oops>\""), "{input:?}: {e:#}");
        assert_eq!(e["source"], "lexer");
    }
    // A refused statement carries no advisory of its own.
    assert_eq!(kinds("```READ (a.md <1,2>) <x>\n```"), ["error", "error"]);
    assert_eq!(hard("```READ (a) <x>\n```\n```READ (b) <y>\n```").len(), 2);
}

/// §parse-attempt: a hard fact that refused a statement carries the statement's text exactly as
/// written, from its first backtick through its closing fence (or the span it ran to).
#[test]
fn parse_attempt_is_the_refused_statement_as_written() {
    let e = refusal("Intro.\r\n```EDIT (a.md) <bad>\r\nnew text\r\n```  \r\nOutro.");
    assert_eq!(e["attempt"], "```EDIT (a.md) <bad>\r\nnew text\r\n```");
    let e = &hard("```READ (a) <x>```READ (b)```")[0];
    assert_eq!(e["attempt"], "```READ (a) <x>");
    let e = refusal("```KILL\n");
    assert_eq!(e["attempt"], "```KILL");
    // Advisories and the turn-shape fact carry none.
    for d in diagnostics_of(&result("```READ (a.md)\nx\n```\nREAD (b)")) {
        assert_eq!(d.get("attempt"), None, "{d:#}");
    }
}

/// §unparsed-tail-boundary: an unfinished `(target` loses the boundary, even when the next line
/// is a fence: `unparsedTail` from the heading, no item at or after it, the closer included.
#[test]
fn unparsed_tail_boundary_unfinished_target_even_before_a_fence() {
    let input = "I will read two files.\n```READ (src/a.rs\n```\n```READ (src/b.rs)\n```\n";
    let r = result(input);
    assert_eq!(
        r["unparsedTail"],
        json!({"from": {"line": 2, "column": 0}, "reason": "target slot of `READ` opened at line 2 but never closed - add `)`"})
    );
    assert_eq!(kinds(input), ["text"]);
    let r = result("```WAIT (worker://slow\n```");
    assert_eq!((items(&r).len(), r["unparsedTail"]["from"].clone()), (0, json!({"line": 1, "column": 0})));
    // A block without a closer is no boundary loss.
    assert_eq!(result("```READ (a.md)").get("unparsedTail"), None);
}
