//! One table row per tolerance rule of SPEC §2 (and the heading tolerances of §14), named by its
//! spec tag. Each row is an input and the reading the rule gives it; without the rule the
//! reading differs, so each row fails when its rule is removed.

use plurnk_parser::{parse, parse_statements, Body, Item, ParseOptions, ParseResult, Statement};

/// A compact reading: `OP(target)<scope>{body}` per statement, `!message` per diagnostic,
/// `"text"` per response text item.
fn read(r: &ParseResult) -> Vec<String> {
    r.items
        .iter()
        .map(|i| match i {
            Item::Statement(s) => stmt(s),
            Item::Error(e) => format!("!{}", e.message),
            Item::Text(t) => format!("{:?}", t.content),
            i => unreachable!("{i:?}"),
        })
        .collect()
}

fn stmt(s: &Statement) -> String {
    let mut out = match s.op_name() {
        Some(op) => op.to_string(),
        None => match &s.head {
            plurnk_parser::Head::Runtime(r) => r.clone(),
            _ => unreachable!(),
        },
    };
    if let Some(t) = &s.target {
        out.push_str(&format!("({})", t.raw()));
    }
    if let Some(src) = &s.source {
        out.push_str(&format!("({})", src.target.as_ref().map(|t| t.raw()).unwrap_or("")));
    }
    if let Some(dst) = &s.destination {
        out.push_str(&format!("({})", dst.target.as_ref().map(|t| t.raw()).unwrap_or("")));
    }
    if let Some(lm) = &s.line_marker {
        out.push_str(&plurnk_parser::__private::render::scope_text(lm));
    }
    if let Some(m) = &s.matcher {
        out.push_str(&format!(" m={}", serde_json::to_value(m).unwrap()["raw"].as_str().unwrap()));
    }
    if let Some(a) = &s.aside {
        out.push_str(&format!(" aside={a:?}"));
    }
    match &s.body {
        Body::Null => {}
        Body::Text(t) => out.push_str(&format!(" {{{t:?}}}")),
        Body::Message { raw, .. } => out.push_str(&format!(" {{{raw:?}}}")),
        Body::Matcher(_) => out.push_str(" {matcher}"),
        b => unreachable!("{b:?}"),
    }
    out
}

fn turn(input: &str) -> Vec<String> {
    read(&parse(input, &ParseOptions::default()))
}

fn stmts(input: &str) -> Vec<String> {
    read(&parse_statements(input, &ParseOptions::default()))
}

fn only_statements(input: &str) -> Vec<String> {
    stmts(input).into_iter().filter(|s| !s.starts_with('!')).collect()
}

#[test]
fn fence_closer_needs_at_least_the_opening_width() {
    // §fence-closer: a shorter fence inside the body is body.
    assert_eq!(only_statements("````SEND\na\n```\nb\n````"), vec![r#"SEND {"a\n```\nb"}"#]);
}

#[test]
fn closer_fallback_keeps_the_whole_span_less_one_line_ending() {
    // §closer-fallback: no closer, the body runs to the end less one line ending.
    assert_eq!(only_statements("```EDIT (a.md)\none\n\n"), vec![r#"EDIT(a.md) {"one\n"}"#]);
    // A narrower same-character fence may close an outermost block (one repair).
    assert_eq!(only_statements("````EDIT (a.md)\nline one\n```\nprose\n````READ (b.md)"), vec![r#"EDIT(a.md) {"line one"}"#, "READ(b.md)"]);
}

#[test]
fn balanced_fences_nest_before_closing() {
    // §balanced-fences: equal widths nest when every inner block closes.
    assert_eq!(only_statements("```SEND\nRan:\n```\ntraceback\n```\nDone.\n```"), vec![r#"SEND {"Ran:\n```\ntraceback\n```\nDone."}"#]);
}

#[test]
fn fence_boundary_labeled_block_in_body_is_literal() {
    // §fence-boundary: a labeled fence in a body opens a literal block; its closer is not the body's.
    assert_eq!(only_statements("````SEND\n```python\nx = 1\n```\nok\n````"), vec![r#"SEND {"```python\nx = 1\n```\nok"}"#]);
}

#[test]
fn unclosed_mutation_yields_to_the_next_native_heading() {
    // §unclosed-mutation-yields: the EDIT's closer is supplied before a heading of its width.
    assert_eq!(only_statements("```EDIT (a.py)\nx\n```EDIT (b.py)\ny\n```"), vec![r#"EDIT(a.py) {"x"}"#, r#"EDIT(b.py) {"y"}"#]);
}

#[test]
fn prose_code_blocks_never_end_a_message() {
    // §prose-code-blocks: an executor heading inside a WORK body is the task's code.
    assert_eq!(
        only_statements("```WORK (worker://w)\nRun:\n```sh\nnpm test\n```\nReport back.\n```"),
        vec![r#"WORK(worker://w) {"Run:\n```sh\nnpm test\n```\nReport back."}"#]
    );
}

#[test]
fn message_run_on_takes_the_end_of_the_turn() {
    // §message-run-on: an unclosed SEND keeps what follows its last inner block.
    assert_eq!(only_statements("```SEND\nCode:\n```\nx\n```\nTail text"), vec![r#"SEND {"Code:\n```\nx\n```\nTail text"}"#]);
}

#[test]
fn operation_fences_accept_three_or_more_backticks() {
    // §operation-fences: any width opens; the body is the same.
    for w in 3..8 {
        let f = "`".repeat(w);
        assert_eq!(only_statements(&format!("{f}NOTE\nkeep\n{f}")), vec![r#"NOTE {"keep"}"#], "width {w}");
    }
}

#[test]
fn naked_operation_opens_without_a_fence() {
    // §naked-operation: a column-zero name with an optional aside opens, with a receipt.
    assert_eq!(
        turn("NOTE <!-- why -->\nRemember this.\n"),
        vec![r#"NOTE aside="why" {"Remember this."}"#, "!`NOTE` opened with no fence; the taught form is three backticks."]
    );
    // A trailing bare fence nothing pairs with is the closer, not body.
    assert_eq!(only_statements("SEND\nThe answer.\n```"), vec![r#"SEND {"The answer."}"#]);
}

/// §naked-operation, §operation-fences: the closer the author wrote anyway is a bare fence of the
/// table's width (`fence.min_width`), not of a width written in the code: under a table that
/// asks for four backticks, three are body and four are the closer.
#[test]
fn naked_operation_trailing_closer_width_comes_from_the_table() {
    use plurnk_parser::__private::rules;
    let mut tables = rules::tables(plurnk_parser::Rules::builtin()).clone();
    tables.fence.min_width = 4;
    let wide = ParseOptions::default().with_rules(std::sync::Arc::new(rules::from_tables(tables).unwrap()));
    let read_with = |input: &str, o: &ParseOptions| -> Vec<String> {
        read(&parse_statements(input, o)).into_iter().filter(|s| !s.starts_with('!')).collect()
    };
    let three = "SEND\nThe answer.\n```";
    let four = "SEND\nThe answer.\n````";
    assert_eq!(read_with(three, &ParseOptions::default()), vec![r#"SEND {"The answer."}"#]);
    assert_eq!(read_with(three, &wide), vec![r#"SEND {"The answer.\n```"}"#]);
    assert_eq!(read_with(four, &wide), vec![r#"SEND {"The answer."}"#]);
}

/// §target-group, §safe-uri-target-groups: a group compiles to one statement per member, each
/// with the heading's operation; a member that is refused refuses the whole heading, so no
/// statement of an earlier member is left behind.
#[test]
fn target_group_members_share_the_head_and_fall_together() {
    assert_eq!(only_statements("```READ (a.md) (b.md)\n```"), vec!["READ(a.md)", "READ(b.md)"]);
    assert_eq!(turn("```READ (a.md) (http://exa mple.com/x)\n```")[0], "!invalid URI in path");
    assert!(stmts("```READ (a.md) (http://exa mple.com/x)\n```").iter().all(|s| s.starts_with('!')));
}

#[test]
fn forgotten_tag_on_the_line_under_a_bare_fence_runs() {
    // §forgotten-tag
    assert_eq!(
        turn("````\nKILL (worker:///notes.md)\n````"),
        vec![
            "KILL(worker:///notes.md)",
            "!`KILL` ran, though its fence was malformed: the opening fence, OP, parameters, and aside share one line."
        ]
    );
}

#[test]
fn interstitial_fence_unknown_tags_quote() {
    // §interstitial-fence, §quotation: a fence naming nothing known opens no operation.
    let r = turn("```python (x)\nprint(1)\n```");
    assert_eq!(r[0], "!`python` is not an operation or a known executor here.");
    assert!(r.iter().all(|s| !s.starts_with("sh") && !s.starts_with("READ")));
}

#[test]
fn quotation_shows_operations_without_running_them() {
    // §quotation: an operation fenced inside an unlabeled code block draws one warning.
    assert_eq!(
        turn("Shown:\n```\n```KILL (worker:///keep.md)\n```"),
        vec![
            "\"Shown:\\n```\\n```KILL (worker:///keep.md)\\n```\"",
            "!`KILL` inside a code block was shown, not run.",
            "!No valid Operation Syntax OPs detected."
        ]
    );
    // A labeled block is an example by declaration and draws nothing.
    assert_eq!(turn("```text\n```READ (a)\n```\n```").len(), 2);
}

#[test]
fn indented_fences_are_literal() {
    // §indented-fences: four spaces or a tab make a fence line literal.
    assert_eq!(only_statements("    ```READ (a.md)\n    ```"), Vec::<String>::new());
    assert_eq!(only_statements("\t```READ (a.md)\n\t```"), Vec::<String>::new());
    assert_eq!(only_statements("   ```READ (a.md)\n   ```"), vec!["READ(a.md)"]);
}

#[test]
fn inline_chain_reads_every_opener_on_the_line() {
    // §inline-chain
    assert_eq!(only_statements("````READ (a) <1,3> ```` ````READ (b) ````"), vec!["READ(a)<1,3>", "READ(b)"]);
}

#[test]
fn transparent_inline_closer_keeps_the_heading_reading() {
    // §transparent-inline-closer: slots after a closer mid-heading are the heading's own.
    assert_eq!(only_statements("```READ (a.md)``` <1,2>"), vec!["READ(a.md)<1,2>"]);
}

#[test]
fn one_line_turn_ends_each_heading_at_the_next_opener() {
    // §one-line-turn
    assert_eq!(only_statements("```EDIT (a.rs) <60,66> ```EDIT (b.rs) <31,38>"), vec!["EDIT(a.rs)<60,66>", "EDIT(b.rs)<31,38>"]);
}

#[test]
fn closer_aside_is_outside_text() {
    // §closer-aside
    assert_eq!(turn("````EDIT (a.md) <3>\nnew line\n```` <!-- why -->"), vec![r#"EDIT(a.md)<3> {"new line"}"#, "\"<!-- why -->\""]);
}

#[test]
fn heading_slot_order_reads_near_misses() {
    // §heading-slot-order: an aside before the scope is read after it; zero-width characters
    // are skipped; a sigil matcher in single backticks is that matcher.
    assert_eq!(only_statements("```READ (a.md) <!-- why --> <1,-1>\n```"), vec![r#"READ(a.md)<1,-1> aside="why""#]);
    assert_eq!(only_statements("```READ\u{200B} (a.md)\n```"), vec!["READ(a.md)"]);
    assert_eq!(only_statements("```FIND (t.py) `^def test_`\n```"), vec!["FIND(t.py) m=^def test_"]);
}

#[test]
fn unclosed_aside_takes_the_rest_of_the_line() {
    // §unclosed-aside
    assert_eq!(
        stmts("```READ (a.md) <!-- half\n```"),
        vec![r#"READ(a.md) aside="half""#, "!The aside was not closed with `-->`; it was read to the end of the line."]
    );
}

#[test]
fn executor_case_and_js_spelling() {
    // §executor-case: the registered spelling; §executor-js-spelling: `js` names `node`.
    let node = ParseOptions::default().with_executors(["sh", "node"]);
    assert_eq!(read(&parse_statements("```SH\nls\n```", &node)), vec![r#"sh {"ls"}"#]);
    assert_eq!(read(&parse_statements("```js\n1\n```", &node)), vec![r#"node {"1"}"#]);
    let both = ParseOptions::default().with_executors(["node", "js"]);
    assert_eq!(read(&parse_statements("```js\n1\n```", &both)), vec![r#"js {"1"}"#]);
}

#[test]
fn heading_inline_body_is_named() {
    // §heading-inline-body
    assert_eq!(
        stmts("```WORK then more\n```"),
        vec![
            r#"WORK {"then more"}"#,
            "!`WORK` body text was on the OP line and was taken as the body; body content goes immediately beneath the opening fence line."
        ]
    );
}

#[test]
fn scope_on_scopeless_is_dropped_and_named() {
    // §scope-on-scopeless
    assert_eq!(
        stmts("```WORK <1,-1>\ntask\n```"),
        vec![r#"WORK {"task"}"#, "!`WORK` takes a target only; the scope `<1,-1>` was ignored."]
    );
    // Every dropped scope is named once, and none is left to count as a second scope
    // (§two-scopes applies to scopes the operation reads).
    assert_eq!(
        stmts("```WORK (worker://a) <1,2> <3,4>\ntask\n```"),
        vec![
            r#"WORK(worker://a) {"task"}"#,
            "!`WORK` takes a target only; the scope `<1,2>` was ignored.",
            "!`WORK` takes a target only; the scope `<3,4>` was ignored."
        ]
    );
}

#[test]
fn lifecycle_slots_note_takes_no_target() {
    // §lifecycle-slots
    let r = stmts("```NOTE (notes.md)\nx\n```");
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("!unexpected `(`"), "{r:?}");
}

#[test]
fn unfenced_operation_is_named_and_ignored() {
    // §unfenced-operation, §response-text: the line is not response text.
    assert_eq!(turn("Prelude.\nREAD (notes.md)\n```WAIT\n```"), vec!["\"Prelude.\\n\"", "!Unfenced `READ` ignored.", "WAIT"]);
}

#[test]
fn response_text_keeps_outside_text_exactly() {
    // §response-text
    assert_eq!(turn("a\r\n```NOTE\nn\n```\r\nb"), vec!["\"a\\r\\n\"", r#"NOTE {"n"}"#, "\"\\r\\nb\""]);
}

#[test]
fn empty_section_normalizes_bodies_to_null() {
    // §empty-section
    assert_eq!(only_statements("```NOTE```"), vec!["NOTE"]);
    assert_eq!(only_statements("```NOTE\n```"), vec!["NOTE"]);
}

#[test]
fn whitespace_contract_keeps_body_bytes() {
    // §whitespace-contract: CRLF, indentation and trailing blank lines survive.
    assert_eq!(only_statements("```EDIT (a)\r\n  x\r\n\r\n```"), vec![r#"EDIT(a) {"  x\r\n"}"#]);
}

#[test]
fn unparsed_tail_boundary_a_slot_left_open_before_the_closer_loses_the_boundary() {
    // §unparsed-tail-boundary (6.0): a slot still open at the end of its heading line loses the
    // statement's boundary even when the next line is a fence; nothing from the heading on is an
    // item, the fence included (it was the reference's error at the closer, the fence text).
    let r = parse("```sh <1,2> [x\n```", &ParseOptions::default());
    assert!(read(&r).is_empty(), "{:?}", read(&r));
    assert_eq!(r.unparsed_tail.map(|t| (t.from.line, t.from.column)), Some((1, 0)));
}

// ── The corpus's `delta` rows: where 6.0 overrides the reference ─────────────────────────────────

#[test]
fn kill_scope_kill_requires_a_target() {
    // §kill-scope (6.0): "KILL requires a target". A bare KILL is refused with its working form,
    // not read as a final answer; a targeted KILL keeps its scope.
    let r = parse("```KILL\nThe answer is 4.\n```", &ParseOptions::default());
    assert_eq!(r.statements().count(), 0);
    let hard: Vec<_> = r.items.iter().filter_map(|i| if let Item::Error(e) = i { Some(e) } else { None }).collect();
    assert!(hard[0].message.contains("KILL requires one"), "{:?}", hard[0].message);
    assert!(hard[0].recovery.as_deref().is_some_and(|w| w.starts_with("`KILL (path)")), "{:?}", hard[0].recovery);
    assert_eq!(only_statements("```KILL (worker://a) <2,5>\n```"), vec!["KILL(worker://a)<2,5>".to_string()]);
}

#[test]
fn send_wait_scope_wait_takes_seconds_and_ignores_its_scope() {
    // §send-wait-scope (6.0): WAIT's duration is `[seconds]` metadata; a scope is ignored, named.
    let r = parse("```WAIT [60] (worker://child)\n```", &ParseOptions::default());
    let s = r.statements().next().expect("a WAIT");
    assert_eq!(s.seconds, Some(60.0));
    assert!(s.line_marker.is_none());
    assert_eq!(turn("```WAIT <1> <!-- reassess -->\nCheck the running tests again.\n```")[1], "!Ignored WAIT duration <1>.");
}

#[test]
fn closer_after_an_unfenced_line_is_not_an_orphan() {
    // §unfenced-operation, §pairing-algorithm: an unfenced operation line is not text, so a bare
    // fence after it is no orphaned closer of an example the line wrote: it opens a quotation.
    let got = turn("READ (a.md) ```\n```\nquoted\n```\nafter\n");
    assert_eq!(got, vec!["!Unfenced `READ` ignored.", "\"```\\nquoted\\n```\\nafter\\n\"", "!No valid Operation Syntax OPs detected."]);
}
