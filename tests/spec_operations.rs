//! SPEC 6.0 chapter 4, per-operation semantics (§op-shapes): what each operation's statement
//! carries, one test per tag, each from the tag's sentence, on our own inputs. Where a rule is
//! the runtime's (a 416, an existence check, a park), the test holds the parser's half: the
//! statement reaches the runtime intact.

mod spec_support;
use plurnk_parser::{parse_reasoning, ParseOptions};
use serde_json::json;
use spec_support::*;

/// §op-shapes: each operation's operands, scope and body as the table gives them.
#[test]
fn op_shapes_each_operation_reads_its_row() {
    // FIND: required target or glob, optional result range, no body.
    let s = clean("```FIND (src/**/*.go) <1,50>\n```");
    assert_eq!((raw(&s), marks(&s), s["body"].clone()), ("src/**/*.go", json!([1, 50]), json!(null)));
    // EDIT: literal body.
    assert_eq!(clean("```EDIT (a.txt) <2>\n  indented\ttab\n```")["body"], "  indented\ttab");
    // COPY and MOVE: two selections, no top-level target or body.
    let s = clean("```COPY (src.md) <1,3> (dst.md) <-1>\n```");
    assert_eq!((s.get("target"), s.get("body")), (None, None));
    assert_eq!((s["source"]["target"]["raw"].clone(), s["destination"]["lineMarker"]["marks"].clone()), (json!("src.md"), json!([-1])));
    // SEND: optional recipient, message body.
    assert_eq!(clean("```SEND\nall done\n```")["body"], json!({"raw": "all done", "json": null}));
    assert_eq!(clean("```SEND (worker://a)\n{\"ok\": true}\n```")["body"]["json"], json!({"ok": true}));
    // Required targets: a FIND, READ or EDIT written without one reaches the runtime's
    // missing-target refusal (a 400, §naked-operation, §log-heading-notation) with `target: null`;
    // KILL is refused by the parser (§kill-scope).
    for op in ["FIND", "READ", "EDIT"] {
        assert_eq!(only(&format!("```{op}\n```"))["target"], json!(null), "{op}");
    }
    assert_eq!(refusal("```KILL\n```")["severity"], "error");
    // Optional targets: WORK, FORK, BARE, SEND, WAIT run without one.
    assert_eq!(
        ops("```WORK\nt\n```\n```FORK\nt\n```\n```BARE\nt\n```\n```SEND\nt\n```\n```WAIT\n```"),
        ["WORK", "FORK", "BARE", "SEND", "WAIT"]
    );
}

/// §retrieval-annotation (map row), §matcher-body-redirect: an authored body under READ or FIND
/// is neither its selection nor its matcher; the statement keeps no body.
#[test]
fn retrieval_annotation_body_is_not_selection() {
    let r = result("```READ (report.md) <1,20>\nlooking for the totals\n```");
    let s = &statements_of(&r)[0];
    assert_eq!((s["body"].clone(), s["matcher"].clone(), marks(s)), (json!(null), json!(null), json!([1, 20])));
}

/// §note-value: NOTE keeps its literal body, byte for byte, with no target, scope or metadata.
#[test]
fn note_value_keeps_the_literal_body() {
    let body = "  Findings:\r\n\t- the cache is cold\r\n```not a fence of ours``\r\n\r\ntrailing  ";
    let s = clean(&format!("```NOTE\r\n{body}\r\n```"));
    assert_eq!(s["body"], body);
    assert_eq!((s["target"].clone(), s["lineMarker"].clone(), s["metadata"].clone()), (json!(null), json!(null), json!(null)));
}

/// §reasoning-operations: complete, line-leading NOTE, FIND and READ statements of exposed
/// reasoning are admitted; other operations, unfinished ones and ones inside code blocks are not.
#[test]
fn reasoning_operations_admit_only_complete_note_find_read() {
    let reasoning = "I should check.\n```READ (a.md) <1,9>\n```\n```EDIT (a.md) <1>\nx\n```\n```NOTE\nplan: read first\n```\n~~~\n```FIND (src) /x/\n```\n~~~\n```FIND (lib) ^pub\n";
    let r = serde_json::to_value(parse_reasoning(reasoning, &ParseOptions::default())).unwrap();
    let ops: Vec<_> =
        r["items"].as_array().unwrap().iter().filter(|i| i["kind"] == "statement").map(|i| i["statement"]["op"].clone()).collect();
    assert_eq!(ops, [json!("READ"), json!("NOTE")]);
}

/// §exec-executor-slot: the fence name selects the executor; the statement carries `runtime`
/// and no operation keyword, then its target; the path names a program or tool and is never
/// split; reserved operation names win; metadata stays with the executor.
#[test]
fn exec_executor_slot_runtime_and_unsplit_program() {
    let r = result_with("```python3 (tools/report (v2).py) [{\"cwd\": \"out\"}]\n--verbose\n```", &["python3", "READ"]);
    let s = &statements_of(&r)[0];
    assert_eq!((s["runtime"].clone(), s.get("op")), (json!("python3"), None));
    assert_eq!(raw(s), "tools/report (v2).py");
    assert_eq!(s["metadata"], json!(["{\"cwd\": \"out\"}"]));
    assert_eq!(s["body"], "--verbose");
    // A list of URIs in an executor's slot is one program path.
    assert_eq!(raw(&statements_of(&result_with("```gitea (issue_list, pr_list)\n{}\n```", &["gitea"]))[0]), "issue_list, pr_list");
    // `READ` registered as an executor is still the operation.
    assert_eq!(statements_of(&r).len(), 1);
    assert_eq!(statements_of(&result_with("```READ (a.md)\n```", &["READ"]))[0]["op"], "READ");
}

/// §turn-disposition: WAIT's body does not schedule, its target is a label, its duration is
/// `seconds`, apart from text coordinates; a turn admits any number of WAITs.
#[test]
fn turn_disposition_wait_label_seconds_and_body() {
    let s = statements("```WAIT (tests) [300]\nthe suite takes five minutes\n```\n```WAIT\n```");
    assert_eq!(s.len(), 2);
    assert_eq!((raw(&s[0]), s[0]["seconds"].clone(), s[0]["lineMarker"].clone()), ("tests", json!(300), json!(null)));
    assert_eq!(s[0]["body"], "the suite takes five minutes");
    assert_eq!(s[1].get("seconds"), None);
}

/// §send-wait-scope: `[seconds]` is a non-negative finite scalar; repeated slots take the
/// smallest valid one; zero is kept without a diagnostic; invalid duration metadata and a text
/// scope are ignored with a terse warning.
#[test]
fn send_wait_scope_duration_metadata() {
    assert_eq!(clean("```WAIT [0]\n```")["seconds"], json!(0));
    assert_eq!(clean("```WAIT [2.5]\n```")["seconds"], json!(2.5));
    let r = result("```WAIT [60] [15] [soon] [-1]\nbuild\n```");
    assert_eq!(statements_of(&r)[0]["seconds"], json!(15));
    assert_eq!(messages_of(&r), ["warning: Ignored WAIT duration [soon].", "warning: Ignored WAIT duration [-1]."]);
    let r = result("```WAIT <45>\n```");
    assert_eq!((statements_of(&r)[0].get("seconds"), messages_of(&r)), (None, vec!["warning: Ignored WAIT duration <45>.".to_string()]));
}

/// §send-directed-scope: a recipient SEND carries its numeric scope after its target and
/// metadata; a targetless message takes none; the scope never changes the body.
#[test]
fn send_directed_scope_goes_to_the_recipient() {
    let s = clean("```SEND (mcp://tracker/issues) [{\"label\": \"bug\"}] <7>\nThe parser drops a byte.\n```");
    assert_eq!((marks(&s), s["metadata"].clone()), (json!([7]), json!(["{\"label\": \"bug\"}"])));
    assert_eq!(s["body"]["raw"], "The parser drops a byte.");
    // An anchor is no owner-defined numeric scope.
    assert_eq!(refusal("```SEND (worker://a) <@abcde>\nx\n```")["source"], "lexer");
}

/// §kill-scope: KILL takes a numeric or anchored scope and a matcher; it requires a target; a
/// `log:///` target keeps its body, any other has `body: null` and draws the advisory.
#[test]
fn kill_scope_target_scope_matcher_and_body() {
    let s = clean("```KILL (log:///**/READ) <17,-1>\nread the config; nothing else needed\n```");
    assert_eq!((marks(&s), s["body"].clone()), (json!([17, -1]), json!("read the config; nothing else needed")));
    assert_eq!(marks(&clean("```KILL (worker:///notes.md) <@aB3dE,@0Aa9Z>\n```")), json!(["@aB3dE", "@0Aa9Z"]));
    assert_eq!(clean("```KILL (log:///**) [{\"pattern\": \"~stale\"}]\n```")["matcher"]["dialect"], "fts");
    let r = result("```KILL (sh:///job/42)\nno longer needed\n```");
    assert_eq!(statements_of(&r)[0]["body"], json!(null));
    assert_eq!(messages_of(&r), ["warning: This KILL takes no body; line 2 was not used."]);
    assert_eq!(refusal("```KILL\nwhat\n```")["message"], "`KILL` has no target; KILL requires one.");
}

/// §bracket-metadata-slot: a bracket block is metadata before or after the target; its
/// position changes neither the executor nor the block.
#[test]
fn bracket_metadata_slot_before_or_after_the_target() {
    let after = statements_of(&result_with("```deno (main.ts) [{\"allow\": \"net\"}]\n```", &["deno"]));
    let before = statements_of(&result_with("```deno [{\"allow\": \"net\"}] (main.ts)\n```", &["deno"]));
    assert_eq!(after, before);
    let a = clean("```READ (x.md) [m]\n```");
    let b = clean("```READ [m] (x.md)\n```");
    assert_eq!(a, b);
}

/// §text-scope-semantics: one, two and four integers are carried as written, `-1` and decimal
/// or three-integer regions included, for the runtime to normalize or refuse (416).
#[test]
fn text_scope_semantics_coordinates_reach_the_runtime() {
    for (scope, want) in [
        ("<7>", json!([7])),
        ("<3,9>", json!([3, 9])),
        ("<2,5,4,1>", json!([2, 5, 4, 1])),
        ("<1,1,-1,1>", json!([1, 1, -1, 1])),
        ("<3,-1,3,-1>", json!([3, -1, 3, -1])),
        ("<3,1,7>", json!([3, 1, 7])),
        ("<1.5,2>", json!([1.5, 2])),
    ] {
        assert_eq!(marks(&clean(&format!("```EDIT (f.txt) {scope}\nx\n```"))), want, "{scope}");
    }
}

/// §bare-statement: BARE's optional path names a prompt resource, its body the inline prompt;
/// the target's scheme owns metadata; no scope.
#[test]
fn bare_statement_prompt_resource_and_body() {
    let s = clean("```BARE (prompts/review.md) [{\"temperature\": 0}]\nFocus on error handling.\n```");
    assert_eq!(
        (raw(&s), s["metadata"].clone(), s["body"].clone()),
        ("prompts/review.md", json!(["{\"temperature\": 0}"]), json!("Focus on error handling."))
    );
    assert_eq!(s["lineMarker"], json!(null));
    assert_eq!(clean("```BARE\nWhat is 2+2?\n```")["body"], "What is 2+2?");
}

/// §read-find-normalization: an authored READ is never rewritten into a FIND: a glob stays a
/// READ with its glob, and a matcher keeps the operation.
#[test]
fn read_find_normalization_read_stays_read() {
    let s = clean("```READ (src/**/*.rs) <1,40>\n```");
    assert_eq!((s["op"].clone(), raw(&s)), (json!("READ"), "src/**/*.rs"));
    assert_eq!(clean("```READ (src/main.rs) /fn main/\n```")["op"], "READ");
}

/// §local-path-fragment: a bare path takes `#channel` like a URL; the first `#` ends the path;
/// a spelling that opens with `#` stays whole; `(page) #channel` is the channel.
#[test]
fn local_path_fragment_channels() {
    let t = |input: &str| clean(input)["target"].clone();
    assert_eq!(t("```READ (data/users.html#readable)\n```"), json!({"kind": "local", "raw": "data/users.html", "fragment": "readable"}));
    assert_eq!(t("```READ (a.html#x#y)\n```"), json!({"kind": "local", "raw": "a.html", "fragment": "x#y"}));
    assert_eq!(t("```READ (#notes)\n```"), json!({"kind": "local", "raw": "#notes"}));
    assert_eq!(t("```READ (page.html) #readable\n```"), json!({"kind": "local", "raw": "page.html", "fragment": "readable"}));
    assert_eq!(t("```READ (plain.txt)\n```"), json!({"kind": "local", "raw": "plain.txt"}));
}

/// §read-exact-target: READ has no body; a scope selects a region of the exact target;
/// `<1,-1>` is kept as written; metadata and a fragment ride the target.
#[test]
fn read_exact_target_scope_and_no_body() {
    let s = clean("```READ (worker:///a.html#readable) [{\"raw\": true}] <1,-1>\n```");
    assert_eq!((s["target"]["fragment"].clone(), marks(&s), s["body"].clone()), (json!("readable"), json!([1, -1]), json!(null)));
}

/// §unscoped-edit-create-only: an unscoped EDIT is admitted (creation); the existence check is
/// the runtime's, so the parser neither refuses it nor invents a scope.
#[test]
fn unscoped_edit_create_only_is_admitted_unscoped() {
    let s = clean("```EDIT (docs/new-page.md)\n# New page\n```");
    assert_eq!((s["lineMarker"].clone(), s["body"].clone()), (json!(null), json!("# New page")));
}

/// §empty-mutation-scope: `<0>`, `<1>`, `<-1>` and `<1,-1>` on EDIT reach the runtime as written.
#[test]
fn empty_mutation_scope_anchors_are_kept() {
    for (scope, want) in [("<0>", json!([0])), ("<1>", json!([1])), ("<-1>", json!([-1])), ("<1,-1>", json!([1, -1]))] {
        assert_eq!(marks(&clean(&format!("```EDIT (empty.txt) {scope}\nfirst value\n```"))), want);
    }
    // An empty body deletes: no body, not an empty string.
    assert_eq!(clean("```EDIT (a.txt) <4,6>\n```")["body"], json!(null));
}

/// §transfer-resource-selections: COPY and MOVE take two singular selections, source then
/// destination, each with its own target, scope, matcher and metadata; text on the heading
/// line or beneath it is ignored, the operation runs, and one advisory says so.
#[test]
fn transfer_resource_selections_each_binds_its_own() {
    let s = clean("```MOVE (old/a.md) <2,9> [{\"pattern\": \"^## \"}] (new/a.md) [{\"mode\": \"append\"}] <-1>\n```");
    assert_eq!(
        s["source"],
        json!({"target": {"kind": "local", "raw": "old/a.md"}, "metadata": null, "lineMarker": {"marks": [2, 9]}, "matcher": {"dialect": "regex", "raw": "^## ", "pattern": "^## ", "flags": ""}})
    );
    assert_eq!(s["destination"]["metadata"], json!(["{\"mode\": \"append\"}"]));
    assert_eq!(s["destination"]["lineMarker"]["marks"], json!([-1]));
    for input in [
        "```MOVE (a.md) (b.md)\nstray words\nand more\n```",
        "```MOVE (a.md) (b.md) stray words\n```",
        "```MOVE (a.md) (b.md) stray\nmore\n```",
    ] {
        let r = result(input);
        assert_eq!(statements_of(&r).len(), 1, "{input:?}");
        assert_eq!(messages_of(&r), ["warning: MOVE takes no body; the body was ignored."], "{input:?}");
    }
    assert_eq!(messages("```COPY (a) (b)\nx\n```"), ["warning: COPY takes no body; the body was ignored."]);
    // One operand is not enough.
    assert_eq!(refusal("```COPY (a.md)\n```")["severity"], "error");
}

/// §find-result-unit: a glob or folder target and an exact target take the same numeric
/// result positions; anchors are no result position.
#[test]
fn find_result_unit_positions_are_numeric() {
    assert_eq!(marks(&clean("```FIND (src/) <11,20>\n```")), json!([11, 20]));
    assert_eq!(marks(&clean("```FIND (src/lib.rs) <1,5> /unsafe/\n```")), json!([1, 5]));
    assert_eq!(refusal("```FIND (src) <@abcde>\n```")["source"], "lexer");
}

/// §copy-move-observation: both admitted selections, with their independent scopes, reach the
/// log projection: the statement keeps each as written.
#[test]
fn copy_move_observation_keeps_both_selections() {
    let s = clean("```COPY (a.md) <1,2> (b.md) <3,4>\n```");
    assert_eq!(s["source"]["lineMarker"]["marks"], json!([1, 2]));
    assert_eq!(s["destination"]["lineMarker"]["marks"], json!([3, 4]));
}
