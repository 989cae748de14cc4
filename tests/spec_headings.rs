//! SPEC 6.0 chapter 2, the heading side: the canonical statement form and every rule of its
//! slots (§canonical-statement). One test per tag, each written from the tag's sentence; the
//! inputs are our own.

mod spec_support;
use serde_json::json;
use spec_support::*;

/// §canonical-statement: `OP (path)? <scope>? [metadata]? <!-- aside -->?` on the opening fence
/// line, the body below, the closer on its own line; each slot lands in its own field.
#[test]
fn canonical_statement_slots_land_in_their_fields() {
    let s = clean("```EDIT (src/lib.rs) <12,14> [{\"mode\": \"strict\"}] <!-- tidy the imports -->\nuse std::io;\n```\n");
    assert_eq!(s["op"], "EDIT");
    assert_eq!(raw(&s), "src/lib.rs");
    assert_eq!(marks(&s), json!([12, 14]));
    assert_eq!(s["metadata"], json!(["{\"mode\": \"strict\"}"]));
    assert_eq!(s["aside"], "tidy the imports");
    assert_eq!(s["body"], "use std::io;");
    // The executor form: the fence name is the runtime.
    let s = clean("```sh\nls -la\n```");
    assert_eq!(s["runtime"], "sh");
    assert_eq!(s["body"], "ls -la");
}

/// §section-boundary: every statement is one backtick block whose header is one physical line;
/// a closer is shown by convention and never demanded.
#[test]
fn section_boundary_one_block_one_statement_closer_optional() {
    assert_eq!(ops("```READ (a.txt)\n```\n```READ (b.txt)\n```\n"), ["READ", "READ"]);
    // No closer at the end of the turn: still the statement, no diagnostic.
    let s = clean("```NOTE\nthe build is green");
    assert_eq!(s["body"], "the build is green");
    // The header is one line: what follows the heading line is body, never slots.
    let s = clean("```EDIT (a.md) <2>\n<3>\n```");
    assert_eq!(marks(&s), json!([2]));
    assert_eq!(s["body"], "<3>");
}

/// §heading-slot-order: an aside written before the remaining scope or JSON option block is
/// read after them, with no diagnostic; before a target or a non-JSON block it stays refused.
#[test]
fn heading_slot_order_aside_before_scope_or_block() {
    let s = clean("```READ (plan.md) <!-- the schedule --> <4,9>\n```");
    assert_eq!((s["aside"].clone(), marks(&s)), (json!("the schedule"), json!([4, 9])));
    let s = clean("```FIND (src) <!-- owners --> [{\"pattern\": \"~owner\"}]\n```");
    assert_eq!(s["aside"], "owners");
    assert_eq!(s["matcher"]["raw"], "~owner");
    assert_eq!(refusal("```READ (a.md) <!-- why --> (b.md)\n```")["source"], "parser");
    assert_eq!(refusal("```READ (a.md) <!-- why --> [not json]\n```")["severity"], "error");
}

/// §heading-slot-order: zero-width characters (U+200B–U+200D, U+2060, U+FEFF) anywhere on a
/// heading line are skipped — between the fence and the name, inside the name, between slots,
/// inside a scope — and a byte-order mark may open the turn; tokens keep their source positions.
#[test]
fn heading_slot_order_zero_width_characters_are_skipped() {
    for input in [
        "```\u{200B}READ (notes.md) <2,5>\n```",
        "```RE\u{200C}AD (notes.md) <2,5>\n```",
        "```READ\u{2060} (notes.md)\u{200D} <2,5>\n```",
        "```READ (notes.md) <2,\u{200B}5>\n```",
        "```READ (notes.md) <\u{FEFF}2,5\u{200D}>\n```",
    ] {
        let s = clean(input);
        assert_eq!((s["op"].clone(), raw(&s).to_string(), marks(&s)), (json!("READ"), "notes.md".to_string(), json!([2, 5])), "{input:?}");
        assert_eq!(s["position"], json!({"line": 1, "column": 0}), "{input:?}");
    }
    // A byte-order mark opening the turn: the fence keeps its place, one column in.
    let s = clean("\u{FEFF}```NOTE\nstart here\n```");
    assert_eq!(s["body"], "start here");
    assert_eq!(s["position"], json!({"line": 1, "column": 1}));
    // On a later line, with CRLF endings, and before an executor.
    let r = result("Plan:\r\n\u{200B}```sh\r\nmake test\r\n```\r\n");
    let s = statements_of(&r);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0]["runtime"], "sh");
    assert_eq!(s[0]["body"], "make test");
    assert_eq!(s[0]["position"], json!({"line": 2, "column": 1}));
    // A zero-width character does not make prose a heading.
    assert!(statements("\u{200B}READ the docs first").is_empty());
}

/// §heading-slot-order: a matcher that begins with a sigil and is quoted in single backticks is
/// that matcher; quoted text without a sigil stays refused.
#[test]
fn heading_slot_order_backtick_quoted_sigil_matcher() {
    let s = clean("```READ (tests/test_io.py) `^def test_`\n```");
    assert_eq!(s["matcher"]["raw"], "^def test_");
    assert_eq!(s["matcher"]["dialect"], "regex");
    assert_eq!(refusal("```READ (tests/test_io.py) `def test_`\n```")["severity"], "error");
}

/// §slot-order: target, scope, metadata, aside; scope and metadata permute within a selection
/// without changing ownership; metadata before the first target belongs to that first
/// selection, for every operation that takes metadata, scope-first order included.
#[test]
fn slot_order_metadata_before_the_first_target() {
    let block = "[{\"k\": 1}]";
    for (heading, body) in [
        ("READ", ""),
        ("FIND", ""),
        ("EDIT", "new line\n"),
        ("KILL", ""),
        ("SEND", "hello\n"),
        ("WORK", "task\n"),
        ("BARE", "prompt\n"),
        ("FORK", "task\n"),
        ("WAIT", "why\n"),
    ] {
        for order in [format!("{block} (t.md) <3>"), format!("{block} <3> (t.md)"), format!("<3> {block} (t.md)")] {
            let input = format!("```{heading} {order}\n{body}```\n");
            let r = result(&input);
            let s = statements_of(&r);
            assert_eq!(s.len(), 1, "{input:?}: {r:#}");
            assert_eq!(raw(&s[0]), "t.md", "{input:?}");
            if heading == "WAIT" {
                // WAIT reads its block as a duration, and a non-number is ignored with a warning.
                continue;
            }
            assert_eq!(s[0]["metadata"], json!(["{\"k\": 1}"]), "{input:?}");
            if !["SEND", "WORK", "BARE", "FORK"].contains(&heading) {
                assert_eq!(marks(&s[0]), json!([3]), "{input:?}");
            }
        }
    }
    // COPY and MOVE: a leading block belongs to the source selection.
    let s = clean("```MOVE [{\"k\": 1}] (draft.md) <2,4> (final.md) <0>\n```");
    assert_eq!(s["source"]["metadata"], json!(["{\"k\": 1}"]));
    assert_eq!(s["destination"]["metadata"], json!(null));
    assert_eq!(s["source"]["lineMarker"]["marks"], json!([2, 4]));
    // The executor's block before its program.
    let s = clean("```sh [{\"cwd\": \"build\"}] (scripts/run.sh)\n```");
    assert_eq!(s["metadata"], json!(["{\"cwd\": \"build\"}"]));
    // WAIT's leading duration.
    assert_eq!(clean("```WAIT [90] (ci)\nthe pipeline\n```")["seconds"], json!(90));
}

/// §slot-order: between targets a block belongs to the preceding selection, never the
/// following one; each selection has at most one scope, and a second is refused with the
/// scope's working form as its recovery.
#[test]
fn slot_order_blocks_follow_their_selection_and_one_scope_each() {
    let s = clean("```COPY (a.md) [{\"x\": 1}] (b.md) [{\"y\": 2}]\n```");
    assert_eq!(s["source"]["metadata"], json!(["{\"x\": 1}"]));
    assert_eq!(s["destination"]["metadata"], json!(["{\"y\": 2}"]));
    let s = statements("```READ (a.md) [{\"x\": 1}] (b.md)\n```");
    assert_eq!(s[0]["metadata"], json!(["{\"x\": 1}"]));
    assert_eq!(s[1]["metadata"], json!(null));
    // Metadata blocks keep their authored order.
    assert_eq!(clean("```READ (a.md) [one] [two]\n```")["metadata"], json!(["one", "two"]));
    let e = refusal("```READ (a.md) <1,3> <8,9>\n```");
    assert!(e["message"].as_str().unwrap().contains("`<1,3>` and `<8,9>`"), "{e:#}");
    assert!(e["recovery"].as_str().unwrap().contains("One scope"), "{e:#}");
}

/// §lifecycle-slots: NOTE accepts no target, scope or metadata; WAIT keeps its optional target
/// and duration; their literal bodies begin below the header.
#[test]
fn lifecycle_slots_note_refuses_slots_wait_keeps_them() {
    assert_eq!(refusal("```NOTE (memo.md)\nx\n```")["severity"], "error");
    assert_eq!(refusal("```NOTE [{\"k\": 1}]\nx\n```")["severity"], "error");
    assert_eq!(messages("```NOTE <2>\nkept\n```"), ["warning: `NOTE` takes no target or scope; the scope `<2>` was ignored."]);
    let s = clean("```WAIT (nightly-build) [120]\nthe build takes two minutes\n```");
    assert_eq!((raw(&s), s["seconds"].clone(), s["body"].clone()), ("nightly-build", json!(120), json!("the build takes two minutes")));
}

/// §target-group: a READ or KILL heading with several `(path)` slots compiles into one
/// ordinary statement per member, in authored order, each with its own target, scope and
/// metadata; the heading's pattern is each member's default; every member keeps the heading's
/// position and aside; a heading-level error refuses all members, not sibling headings.
#[test]
fn target_group_compiles_one_statement_per_member() {
    let s = statements("```READ (a.rs) <1,5> (b.rs) [{\"pattern\": \"/fn/\"}] (c.rs) /use / <!-- imports -->\n```");
    assert_eq!(s.iter().map(|x| raw(x).to_string()).collect::<Vec<_>>(), ["a.rs", "b.rs", "c.rs"]);
    assert_eq!(marks(&s[0]), json!([1, 5]));
    assert_eq!(s[0]["matcher"]["raw"], "/use /");
    assert_eq!(s[1]["matcher"]["raw"], "/fn/");
    assert_eq!(s[2]["matcher"]["raw"], "/use /");
    for x in &s {
        assert_eq!(x["aside"], "imports");
        assert_eq!(x["position"], json!({"line": 1, "column": 0}));
    }
    assert_eq!(ops("```KILL (a.md) <1> <2> (b.md)\n```\n```READ (c.md)\n```"), ["READ"]);
    // A distilling log body lands once, with the first member.
    let s = statements("```KILL (log:///1/2/3) (log:///1/2/4)\nboth retired\n```");
    assert_eq!((s[0]["body"].clone(), s[1]["body"].clone()), (json!("both retired"), json!(null)));
    // Other operations take one slot: a second is the slot-opener diagnostic.
    assert_eq!(refusal("```FIND (src) (lib)\n```")["source"], "parser");
}

/// §safe-uri-target-groups: in READ and KILL one slot may list several explicit URIs, split
/// on top-level commas or whitespace; local names with spaces or commas are never split.
#[test]
fn safe_uri_target_groups_split_only_uri_lists() {
    let s = statements("```READ (worker:///a.md, worker:///b.md https://example.test/c) <2>\n```");
    assert_eq!(s.iter().map(|x| raw(x).to_string()).collect::<Vec<_>>(), ["worker:///a.md", "worker:///b.md", "https://example.test/c"]);
    assert!(s.iter().all(|x| marks(x) == json!([2])));
    assert_eq!(raw(&only("```READ (my notes, v2.md)\n```")), "my notes, v2.md");
    // Not on other operations: the slot stays one target.
    assert_eq!(raw(&only("```EDIT (worker:///a.md worker:///b.md)\nx\n```")), "worker:///a.md worker:///b.md");
}

/// §scope-on-scopeless: a scope on WORK, FORK, BARE, NOTE, or a SEND without a recipient, in any
/// position, is dropped and named; the operation runs; a recipient SEND keeps its scope.
#[test]
fn scope_on_scopeless_is_dropped_and_named() {
    let r = result("```WORK (worker://scout) <1,-1>\nmap the repo\n```");
    assert_eq!(statements_of(&r)[0]["lineMarker"], json!(null));
    assert_eq!(messages_of(&r), ["warning: `WORK` takes a target only; the scope `<1,-1>` was ignored."]);
    assert_eq!(
        messages("```FORK <3> (worker://twin)\ncontinue\n```"),
        ["warning: `FORK` takes a target only; the scope `<3>` was ignored."]
    );
    assert_eq!(messages("```SEND <2>\nhi\n```"), ["warning: `SEND` without a recipient takes no scope; the scope `<2>` was ignored."]);
    assert_eq!(marks(&clean("```SEND (worker://lead) <2>\ndone\n```")), json!([2]));
    // An aside is never a scope.
    assert_eq!(clean("```BARE <!-- quick -->\nsummarize\n```")["aside"], "quick");
}

/// §heading-inline-body: text after the slots on the heading line is read by the operation's
/// shape and named; taken as the body it is the first body line, with one warning.
#[test]
fn heading_inline_body_is_the_first_body_line_and_named() {
    let r = result("```EDIT (notes.md) <4> the new fourth line\nand a fifth\n```");
    assert_eq!(statements_of(&r)[0]["body"], "the new fourth line\nand a fifth");
    assert_eq!(messages_of(&r), ["warning: `EDIT` body text was on the OP line and was taken as the body; body content goes immediately beneath the opening fence line."]);
    assert_eq!(only("```NOTE remember the flag\n```")["body"], "remember the flag");
    // A sigil on EDIT is a matcher; on FIND, READ and KILL any text is the matcher.
    assert_eq!(only("```EDIT (a.md) /colour/g\ncolor\n```")["matcher"]["raw"], "/colour/g");
    assert_eq!(clean("```FIND (docs) deprecated\n```")["matcher"]["raw"], "deprecated");
    // A sigil claims a matcher only where the operation has one.
    assert_eq!(only("```SEND (worker://a) /not a matcher/\n```")["body"]["raw"], "/not a matcher/");
}

/// §bare-option-object: `{…}` after the slots of SEND, BARE, WORK and FORK (the last three after
/// their target) is the option block, with its receipt; on FIND, READ and KILL it is the
/// matcher; an executor always reads it as input.
#[test]
fn bare_option_object_is_the_block_where_the_house_array_owns_it() {
    let r = result("```SEND (worker://reviewer) {\"priority\": \"high\"}\nplease review\n```");
    assert_eq!(statements_of(&r)[0]["metadata"], json!(["{\"priority\": \"high\"}"]));
    assert_eq!(messages_of(&r), ["warning: `SEND` took a bare option object; the taught form is `[{…}]`."]);
    assert_eq!(only("```WORK (worker://w) {\"env\": {}}\ngo\n```")["metadata"], json!(["{\"env\": {}}"]));
    // BARE without its target: the object is body text.
    assert_eq!(only("```BARE {\"a\": 1}\n```")["body"], "{\"a\": 1}");
    // A heading that already carries a block: inline body.
    assert_eq!(only("```SEND [{\"a\": 1}] {\"b\": 2}\n```")["body"]["raw"], "{\"b\": 2}");
    let r = result("```READ (data.json) {\"id\": 7}\n```");
    assert_eq!(statements_of(&r)[0]["matcher"]["raw"], "{\"id\": 7}");
    assert_eq!(messages_of(&r), ["warning: `{…}` was read as the matcher."]);
    let s = result_with("```node {\"x\": 1}\n```", &["node"]);
    assert_eq!(statements_of(&s)[0]["body"], "{\"x\": 1}");
    assert_eq!(statements_of(&s)[0]["metadata"], json!(null));
}

/// §operation-aside: the final header modifier may be one single-line HTML comment; its
/// delimiters and surrounding whitespace are removed; comments inside a body stay literal.
#[test]
fn operation_aside_is_trimmed_and_bodies_keep_comments() {
    let s = clean("```EDIT (index.html) <3> <!--   swap the banner\t -->\n<!-- banner -->\n<div>new</div>\n```");
    assert_eq!(s["aside"], "swap the banner");
    assert_eq!(s["body"], "<!-- banner -->\n<div>new</div>");
    assert_eq!(clean("```READ (a.md)\n```")["aside"], json!(null));
    // Unicode in the aside, kept.
    assert_eq!(clean("```NOTE <!-- Überblick — 概要 -->\nx\n```")["aside"], "Überblick — 概要");
}

/// §scheme-metadata-modifier: the block's exact inner text is stored; balanced brackets and
/// double-quoted brackets stay inside; executor and SEND fences admit it without a target; a
/// second block is the owner's, not a parser diagnostic; brackets in `(path)` are path text.
#[test]
fn scheme_metadata_modifier_keeps_the_exact_inner_text() {
    let s = clean("```READ (https://api.example/v1) [{\"q\": \"a]b\", \"n\": [1, [2]]}]\n```");
    assert_eq!(s["metadata"], json!(["{\"q\": \"a]b\", \"n\": [1, [2]]}"]));
    assert_eq!(clean("```SEND [{\"done\": true}]\nshipped\n```")["metadata"], json!(["{\"done\": true}"]));
    assert_eq!(clean("```sh [{\"timeout\": 30}]\nsleep 1\n```")["metadata"], json!(["{\"timeout\": 30}"]));
    assert_eq!(clean("```READ (data/[ab]*.csv) [x] [y]\n```")["metadata"], json!(["x", "y"]));
    assert_eq!(raw(&clean("```READ (data/[ab]*.csv)\n```")), "data/[ab]*.csv");
}

/// §scheme-metadata-modifier, §unparsed-tail-boundary: an unfinished `[metadata` block loses
/// the statement's boundary, even when the next line is a fence: nothing at or after the
/// heading is an item, the closer included.
#[test]
fn scheme_metadata_modifier_unfinished_block_loses_the_boundary() {
    let r = result("Looking.\n```READ (a.md) [{\"k\": 1\n```\nmore prose\n```READ (b.md)\n```");
    assert_eq!(r["unparsedTail"]["from"], json!({"line": 2, "column": 0}));
    assert_eq!(kinds("Looking.\n```READ (a.md) [{\"k\": 1\n```\nmore prose\n```READ (b.md)\n```"), ["text"]);
    assert_eq!(items(&r)[0]["content"], "Looking.\n");
}

/// §matcher-option: `[{"pattern": "…"}]` is the matcher; a block with only `pattern` leaves
/// `metadata: null`; beside other keys the block stays verbatim; a non-string pattern is the
/// language's own positioned diagnostic.
#[test]
fn matcher_option_lifts_pattern_from_the_block() {
    let s = clean("```FIND (src) [{\"pattern\": \"/todo|fixme/i\"}]\n```");
    assert_eq!((s["matcher"]["dialect"].clone(), s["metadata"].clone()), (json!("regex"), json!(null)));
    let s = clean("```READ (log.txt) [{\"pattern\": \"~timeout\", \"tail\": 50}]\n```");
    assert_eq!(s["matcher"]["raw"], "~timeout");
    assert_eq!(s["metadata"], json!(["{\"pattern\": \"~timeout\", \"tail\": 50}"]));
    assert_eq!(refusal("```READ (a.md) [{\"pattern\": 5}]\n```")["message"], "READ \"pattern\" must be a string matcher.");
}

/// §empty-section: the compact bodyless form and an empty multiline block normalize optional
/// bodies to null — BARE, WORK and FORK beside a prompt resource included.
#[test]
fn empty_section_optional_bodies_are_null() {
    assert_eq!(clean("```NOTE```")["body"], json!(null));
    assert_eq!(clean("```EDIT (a.md) <3>\n```")["body"], json!(null));
    assert_eq!(clean("```sh (scripts/ci.sh)\n```")["body"], json!(null));
    for input in [
        "```BARE (prompts/summary.md)\n```",
        "```BARE (worker:///country-question.md) <!-- from the file -->\n```",
        "```WORK (plans/next.md)\n```",
        "```FORK (https://example.test/brief.txt)```",
        "```BARE (p.md) [{\"model\": \"small\"}]\n\n```",
    ] {
        assert_eq!(clean(input)["body"], json!(null), "{input:?}");
    }
    // Without a prompt resource the prompt is required: absent, it is empty text.
    assert_eq!(clean("```BARE\n```")["body"], "");
    assert_eq!(clean("```WORK (worker://scout)\n```")["body"], "");
}

/// §anchor-digits: in a text scope, `@` and one to four digits is that line number, with one
/// advisory naming the anchor form; five characters are always an anchor.
#[test]
fn anchor_digits_are_a_line_number() {
    let r = result("```READ (a.md) <@42,@1200>\n```");
    assert_eq!(marks(&statements_of(&r)[0]), json!([42, 1200]));
    assert_eq!(messages_of(&r).len(), 2);
    assert!(messages_of(&r)[0].starts_with("warning: `@42` was read as line 42"), "{:?}", messages_of(&r));
    assert_eq!(marks(&clean("```READ (a.md) <@12345>\n```")), json!(["@12345"]));
}

/// §unclosed-aside: an aside that opens with `<!--` and never closes takes the rest of the line,
/// with one advisory; a closed aside followed by more text is unchanged.
#[test]
fn unclosed_aside_takes_the_rest_of_the_line() {
    let r = result("```NOTE <!-- half a thought\nbody\n```");
    assert_eq!(statements_of(&r)[0]["aside"], "half a thought");
    assert_eq!(statements_of(&r)[0]["body"], "body");
    assert_eq!(messages_of(&r), ["warning: The aside was not closed with `-->`; it was read to the end of the line."]);
}

/// §unclosed-aside, §trailing-slots, §naked-pattern: an aside left open after a naked matcher is
/// the aside too (a naked matcher never holds `<!--`), and the scope between them still comes off
/// the matcher's right end; a `<!--` glued inside a pattern opens no aside.
#[test]
fn unclosed_aside_after_a_matcher_takes_the_rest_of_the_line() {
    let r = result("```FIND (src/**) ~retry backoff <1,10> <!-- where it retries\r\n```\r\n");
    let s = &statements_of(&r)[0];
    assert_eq!(s["aside"], "where it retries");
    assert_eq!(s["matcher"]["raw"], "~retry backoff");
    assert_eq!(marks(s), json!([1, 10]));
    let m = messages_of(&r);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m[0].starts_with("warning: `<1,10>` after the pattern was read as the scope"), "{m:?}");
    assert_eq!(m[1], "warning: The aside was not closed with `-->`; it was read to the end of the line.");
    // A glob matcher, no final newline, a Unicode aside.
    let s = statements_of(&result("```READ (docs/*.md) chapter* <!-- Überblick"))[0].clone();
    assert_eq!((s["aside"].as_str(), s["matcher"]["raw"].as_str()), (Some("Überblick"), Some("chapter*")));
    // Glued inside a regex: the pattern's own bytes.
    let s = clean("```FIND (src/**) /a<!--b/\n```");
    assert_eq!((s["aside"].clone(), s["matcher"]["pattern"].as_str()), (json!(null), Some("a<!--b")));
    // Left open as the heading's own aside slot reads one: `<!-->` opens and never closes.
    let (alone, after) = (result("```READ (a.rs) <!-->\n```"), result("```READ (a.rs) x <!-->\n```"));
    assert_eq!(
        (statements_of(&after)[0]["aside"].clone(), messages_of(&after)),
        (statements_of(&alone)[0]["aside"].clone(), messages_of(&alone))
    );
    // Inside a trailing option block: the block's `pattern`, the escape §naked-pattern teaches.
    let s = statements_of(&result("```READ (a.rs) x [{\"pattern\": \"a <!-- b\"}]\n```"))[0].clone();
    assert_eq!((s["aside"].clone(), s["matcher"]["raw"].as_str()), (json!(null), Some("a <!-- b")));
}

/// §executor-case: a fence tag matching a registered executor in any case opens it, and the
/// statement carries the registered spelling.
#[test]
fn executor_case_carries_the_registered_spelling() {
    assert_eq!(statements_of(&result("```SH\necho hi\n```"))[0]["runtime"], "sh");
    assert_eq!(statements_of(&result_with("```PyThOn3 (tool.py)\n```", &["python3"]))[0]["runtime"], "python3");
    // Unregistered, it is prose.
    assert!(statements("```Ruby\nputs 1\n```").is_empty());
}

/// §executor-js-spelling: `js` names `node` when `node` is registered and `js` is not; a
/// registered `js` keeps its identity; without `node` it grants nothing.
#[test]
fn executor_js_spelling_names_node() {
    assert_eq!(statements_of(&result_with("```js\nconsole.log(1)\n```", &["node"]))[0]["runtime"], "node");
    assert_eq!(statements_of(&result_with("```JS\n1\n```", &["node", "js"]))[0]["runtime"], "js");
    assert!(statements_of(&result_with("```js\n1\n```", &["python3"])).is_empty());
}

/// §closer-aside: a closing fence followed on its line by one aside and nothing else is the
/// closer, and the aside is outside text; followed by anything else it is body.
#[test]
fn closer_aside_is_outside_text() {
    let r = result("```EDIT (a.md) <1>\nfirst\n``` <!-- done -->\n");
    assert_eq!(statements_of(&r)[0]["body"], "first");
    assert!(items(&r).iter().any(|i| i["kind"] == "text" && i["content"].as_str().unwrap().contains("<!-- done -->")));
}

/// §statement-rendering: `stringify` renders the canonical form (closer on its own line, three
/// backticks or more than any run in the body) and a target group as one statement per member.
#[test]
fn statement_rendering_round_trips() {
    use plurnk_parser::{parse, render, ParseOptions};
    let input = "```READ (a.md) <1,2> (b.md) /x/\n```";
    let r = parse(input, &ParseOptions::default());
    let text = render::stringify_all(r.statements());
    assert_eq!(text, "```READ (a.md) <1,2> /x/\n```\n\n```READ (b.md) /x/\n```");
    let input = "```EDIT (doc.md) <1>\n````\nnested\n````\n```````";
    let r = parse(input, &ParseOptions::default());
    let s = r.statements().next().unwrap();
    let text = render::stringify(s);
    assert!(text.starts_with("`````EDIT (doc.md) <1>\n"), "{text}");
    let again = parse(&text, &ParseOptions::default());
    assert!(render::same_statement(s, again.statements().next().unwrap()));
    // A channel renders back on the path (§local-path-fragment); a matcher beside owner metadata
    // is kept; a lifted matcher that reads back bare is written bare, one that cannot is written
    // in its block (§matcher-option).
    let one = |input: &str| {
        let r = parse(input, &ParseOptions::default());
        let text = render::stringify(r.statements().next().unwrap());
        text
    };
    assert_eq!(one("```READ (a.html#main) [{\"k\": 1}] /y/\n```"), "```READ (a.html#main) [{\"k\": 1}] /y/\n```");
    assert_eq!(one("```FIND (src) [{\"pattern\": \"/x/i\"}]\n```"), "```FIND (src) /x/i\n```");
    assert_eq!(one("```FIND (src) [{\"pattern\": \"<b>\"}]\n```"), "```FIND (src) [{\"pattern\":\"<b>\"}]\n```");
}
