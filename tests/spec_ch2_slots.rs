//! Heading slots of SPEC §2 (asides, metadata, option objects, matchers, anchors) and statement
//! rendering, each test written from its rule's sentence with its own inputs.

mod spec_util;

use plurnk_parser::{parse as parse_result, render, ParseOptions};
use serde_json::json;
use spec_util::*;

fn statement(input: &str) -> serde_json::Value {
    let v = parse(input);
    v["items"].as_array().unwrap().iter().find(|i| i["kind"] == "statement").unwrap_or_else(|| panic!("no statement in {v}"))["statement"]
        .clone()
}

/// §anchor-digits: in a text scope, `@` and one to four digits cannot be a hash: it is that line
/// number, with one warning naming the five-character anchor form; five characters after `@`
/// are always an anchor.
#[test]
fn anchor_digits_short_digit_anchors_are_line_numbers() {
    let v = parse("```EDIT (src/app.ts) <@42>\nconst x = 2;\n```");
    assert_eq!(v["items"][0]["statement"]["lineMarker"]["marks"], json!([42]));
    let e = errors(&v);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, "warning");
    assert!(e[0].1.contains("`@abcde`"), "{e:?}");
    let s = statement("```READ (src/app.ts) <@12345>\n```");
    assert_eq!(s["lineMarker"]["marks"], json!(["@12345"]));
}

/// §operation-aside: the final header modifier may be one single-line HTML comment; its
/// delimiters and surrounding whitespace are removed into `aside`.
#[test]
fn operation_aside_delimiters_and_whitespace_are_removed() {
    let s = statement("```NOTE <!--   remember: rotate keys 🔑   -->\nrotate on Monday\n```");
    assert_eq!(s["aside"], "remember: rotate keys 🔑");
    assert_eq!(s["body"], "rotate on Monday");
    // Comments inside a body stay literal.
    let s = statement("```EDIT (index.html)\n<!-- header -->\n<h1>Hi</h1>\n```");
    assert_eq!(s["body"], "<!-- header -->\n<h1>Hi</h1>");
    assert!(s["aside"].is_null());
}

/// §scheme-metadata-modifier: a target may carry one single-line `[metadata]` block whose exact
/// inner text is stored: balanced brackets are kept and double-quoted strings protect theirs;
/// executor and SEND fences admit it without a target.
#[test]
fn scheme_metadata_modifier_keeps_the_exact_inner_text() {
    let s = statement("```READ (data/report.csv) [{\"sep\": \"]\"}, [1, [2]]]\n```");
    assert_eq!(s["metadata"], json!(["{\"sep\": \"]\"}, [1, [2]]"]));
    let s = statement("```sh [{\"cwd\": \"build\"}]\nmake -j4\n```");
    assert_eq!(s["metadata"], json!(["{\"cwd\": \"build\"}"]));
    let s = statement("```SEND [{\"final\": true}]\nShipped.\n```");
    assert_eq!(s["metadata"], json!(["{\"final\": true}"]));
}

/// §matcher-option: `[{"pattern": …}]` carries the matcher, lifted into `matcher`; a block with
/// only `pattern` leaves `metadata` null, beside other keys the block stays verbatim.
#[test]
fn matcher_option_pattern_is_lifted_into_the_matcher() {
    let s = statement("```FIND (src/**) [{\"pattern\": \"/todo|fixme/i\"}]\n```");
    assert_eq!(s["matcher"]["dialect"], "regex");
    assert_eq!(s["matcher"]["flags"], "i");
    assert!(s["metadata"].is_null());
    let s = statement("```READ (notes.md) [{\"pattern\": \"^## \", \"max\": 3}]\n```");
    assert_eq!(s["matcher"]["raw"], "^## ");
    assert_eq!(s["metadata"], json!(["{\"pattern\": \"^## \", \"max\": 3}"]));
}

/// §bare-option-object: on SEND, BARE, WORK and FORK an unbracketed `{…}` is the option block
/// with one receipt; on FIND, READ and KILL it is the matcher with one advisory; an executor
/// heading reads it as input.
#[test]
fn bare_option_object_reads_by_the_heading() {
    let v = parse("```SEND {\"final\": true}\nDone — merged.\n```");
    assert_eq!(v["items"][0]["statement"]["metadata"], json!(["{\"final\": true}"]));
    assert_eq!(errors(&v), [("warning".to_string(), "`SEND` took a bare option object; the taught form is `[{…}]`.".to_string())]);
    let v = parse("```FIND (config/**) {\"debug\": true}\n```");
    assert_eq!(v["items"][0]["statement"]["matcher"]["raw"], "{\"debug\": true}");
    assert_eq!(errors(&v), [("warning".to_string(), "`{…}` was read as the matcher.".to_string())]);
    let v = parse("```sh {\"env\": 1}\n```");
    assert_eq!(bodies(&v), [Some("{\"env\": 1}".to_string())]);
}

/// §slot-order: producers write target, scope, metadata, then aside; a scope and metadata
/// written the other way round read the same; between COPY operands a block belongs to the
/// preceding selection.
#[test]
fn slot_order_permutations_within_a_selection_read_the_same() {
    let a = statement("```READ (lib/util.py) <10,20> [{\"enc\": \"utf8\"}] <!-- helpers -->\n```");
    let b = statement("```READ (lib/util.py) [{\"enc\": \"utf8\"}] <10,20> <!-- helpers -->\n```");
    let strip = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("position");
        v
    };
    assert_eq!(strip(a), strip(b));
    let s = statement("```COPY (a.txt) [{\"mode\": 1}] (b.txt)\n```");
    assert_eq!(s["source"]["metadata"], json!(["{\"mode\": 1}"]));
    assert!(s["destination"]["metadata"].is_null());
}

/// §statement-rendering: `stringify` writes the native name, slots in producer order, three
/// backticks or more than any run in the body, and the closer on its own line; it reads back as
/// the same statement.
#[test]
fn statement_rendering_reads_back_and_outfences_the_body() {
    let input = "````EDIT (README.md) <2,4> <!-- usage -->\nRun:\n```sh\nmake\n```\n````";
    let r = parse_result(input, &ParseOptions::default());
    let s = r.statements().next().unwrap();
    let text = render::stringify(s);
    assert!(text.starts_with("````EDIT (README.md) <2,4> <!-- usage -->\n"), "{text}");
    assert!(text.ends_with("\n````"), "{text}");
    let back = parse_result(&text, &ParseOptions::default());
    let again = back.statements().next().unwrap();
    assert_eq!(render::stringify(again), text);
    // A bodyless statement still closes on its own line, three wide.
    let r = parse_result("```READ (a.md)```", &ParseOptions::default());
    assert_eq!(render::stringify(r.statements().next().unwrap()), "```READ (a.md)\n```");
}
