//! The turn and its tiers (SPEC §9 turn dispositions, §10 parser architecture, §11 whitespace
//! and interstatement text, §12 public API), each test written from its rule's sentence.

mod spec_util;

use plurnk_parser::{Entry, ParseOptions};
use spec_util::*;

const LOOK_RECOVERY: &str = "`LOOK (path) <scope>?` on the opening fence line, the matcher on the line below.";

/// §turn-shape: a LOOK (client tier only) in a model turn is one bounded refusal: the statements
/// and the response text around it stand, and with another operation authored no no-operation
/// diagnostic is added. Nothing aborts a turn.
#[test]
fn turn_shape_look_in_a_model_turn_is_one_bounded_refusal() {
    let input = "Checking the ledger first.\r\n```LOOK (ledger.csv) <1,20>\r\n```\r\nThen the reply — ça va.\r\n```SEND\r\nLedger is balanced.\r\n```\r\n```WAIT\r\n```";
    let v = parse(input);
    assert_eq!(ops(&v), ["SEND", "WAIT"]);
    let e = errors(&v);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, "error");
    assert!(!hard(&v).iter().any(|m| m == NO_OPERATION));
    let item = v["items"].as_array().unwrap().iter().find(|i| i["kind"] == "error").unwrap();
    assert_eq!(item["error"]["recovery"], LOOK_RECOVERY);
    assert_eq!((item["error"]["line"].as_u64(), item["error"]["column"].as_u64()), (Some(2), Some(0)));
    let t = text(&v);
    assert!(t.contains("Checking the ledger first.") && t.contains("Then the reply — ça va."), "{t:?}");
}

/// §tier-entrypoints: `parseStatements` accepts protocol statements; a LOOK among them is refused
/// alone and the statements after it are still read (no text items in this tier).
#[test]
fn tier_entrypoints_look_in_parse_statements_keeps_the_statements_after_it() {
    let input = "```READ (notes/a.md)\n```\n```LOOK (notes/b.md)\n^TODO\n```\n```EDIT (notes/c.md) <3>\nfixed\n```";
    let v = run(Entry::Statements, input);
    assert_eq!(ops(&v), ["READ notes/a.md", "EDIT notes/c.md"]);
    assert_eq!(hard(&v).len(), 1);
    assert!(texts(&v).is_empty());
    // The client tier reads the same LOOK as its own statement.
    let c = run(Entry::Client, input);
    assert_eq!(ops(&c), ["READ notes/a.md", "LOOK notes/b.md", "EDIT notes/c.md"]);
    assert!(hard(&c).is_empty(), "{:?}", errors(&c));
}

/// §interstitial-fence: a LOOK outside the client tier opens no statement, yet it is no unknown
/// tag: its block ends where a LOOK block ends, so what follows its closer runs.
#[test]
fn interstitial_fence_a_look_block_ends_at_its_closer_and_the_next_heading_runs() {
    let v = parse("```LOOK (src/main.rs)\n/fn main/\n```\n```NOTE\nlooked\n```\n");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(bodies(&v), [Some("looked".to_string())]);
    assert_eq!(hard(&v).len(), 1);
}

/// §turn-shape: a turn with no operation is reported by one hard diagnostic beside its response
/// text; a LOOK alone in a model turn is its refusal and that diagnostic.
#[test]
fn turn_shape_no_operation_is_one_hard_diagnostic_beside_the_text() {
    let v = parse("Nothing to do here.\nJust prose, 日本語 too.");
    assert_eq!(hard(&v), [NO_OPERATION]);
    assert_eq!(texts(&v), [("Nothing to do here.\nJust prose, 日本語 too.".to_string(), 1, 0)]);
    let look = parse("```LOOK (a.txt)\n```");
    assert_eq!(hard(&look).len(), 2);
    assert_eq!(hard(&look)[1], NO_OPERATION);
    // The statement tier adds no turn-shape diagnostic.
    assert!(hard(&run(Entry::Statements, "just words")).is_empty());
}

/// §disposition-anywhere: a disposition may sit anywhere; every operation before and after it
/// is admitted in authored order, with no diagnostic for its position.
#[test]
fn disposition_anywhere_wait_between_operations_keeps_authored_order() {
    let v = parse("```WAIT\n```\n```READ (a.txt)\n```\n```WAIT [30]\n```\n```NOTE\ndone\n```");
    assert_eq!(ops(&v), ["WAIT", "READ a.txt", "WAIT", "NOTE"]);
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
}

/// §send-mid-reservation: a turn admits any number of lifecycle declarations among its
/// operations; the parser keeps each where it was written.
#[test]
fn send_mid_reservation_many_lifecycle_declarations_are_all_admitted() {
    let v = parse("```SEND\nfirst\n```\n```WAIT\n```\n```SEND\nsecond\n```\n```WAIT\n```");
    assert_eq!(ops(&v), ["SEND", "WAIT", "SEND", "WAIT"]);
    assert!(errors(&v).is_empty());
}

/// §lifecycle-only-turn: a WAIT-, SEND-, NOTE- or KILL-only turn is valid: no turn-shape
/// diagnostic.
#[test]
fn lifecycle_only_turn_each_alone_is_a_valid_turn() {
    for input in ["```WAIT\n```", "```SEND\nall set\n```", "```NOTE\nremember the key\n```", "```KILL (sh:///build)\n```"] {
        let v = parse(input);
        assert_eq!(ops(&v).len(), 1, "{input}");
        assert!(hard(&v).is_empty(), "{input}: {:?}", errors(&v));
    }
}

/// §send-body: the SEND body keeps its exact raw text and a best-effort JSON value; invalid JSON
/// leaves `json` null and the SEND stands.
#[test]
fn send_body_raw_is_exact_and_json_is_best_effort() {
    let v = parse("```SEND\n{\"status\": \"ok\", \"n\": 3}\n```\n```SEND\n{not json\n```");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items[0]["statement"]["body"]["raw"], "{\"status\": \"ok\", \"n\": 3}");
    assert_eq!(items[0]["statement"]["body"]["json"]["n"], 3);
    assert_eq!(items[1]["statement"]["body"]["raw"], "{not json");
    assert!(items[1]["statement"]["body"]["json"].is_null());
    assert!(errors(&v).is_empty());
}

/// §parser-architecture: where each block ends is decided over the whole input first: a fence
/// late in the turn changes how an earlier one reads (here it lets an EDIT hold an inner block).
#[test]
fn parser_architecture_a_later_fence_decides_an_earlier_block() {
    let short = "```EDIT (deploy.md)\nSteps:\n```\nmake release\n```\n";
    let v = parse(short);
    assert_eq!(ops(&v), ["EDIT deploy.md"]);
    assert_eq!(bodies(&v), [Some("Steps:".to_string())]);
    let long = format!("{short}then tag it.\n```\n");
    let v = parse(&long);
    assert_eq!(ops(&v), ["EDIT deploy.md"]);
    assert_eq!(bodies(&v), [Some("Steps:\n```\nmake release\n```\nthen tag it.".to_string())]);
}

/// §whitespace-contract: body framing removes only the header line ending and the one before the
/// closer; every other body character is kept (CRLF, tabs, blank lines, trailing spaces).
#[test]
fn whitespace_contract_body_bytes_are_kept() {
    let v = parse("```EDIT (Makefile)\r\n\r\nall:\r\n\tcc -o app main.c  \r\n\r\n```\r\n");
    assert_eq!(bodies(&v), [Some("\r\nall:\r\n\tcc -o app main.c  \r\n".to_string())]);
}

/// §response-text: each non-whitespace span outside operation regions is a text item holding
/// exactly the source's text at its source position; a lone or stray top-level fence line is
/// outside every operation region, so it is response text too.
#[test]
fn response_text_a_stray_fence_line_is_response_text() {
    // A stray closer after the answer's last line (it quotes nothing: no later closer).
    let v = parse("```NOTE\nhi\n```\nThanks — that's all.\n```");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(texts(&v), [("\nThanks — that's all.\n```".to_string(), 3, 3)]);
    // An orphaned closer under a line carrying a fence run, CRLF and no final newline.
    let v = parse("```NOTE\r\nx\r\n```\r\nUse ```READ (a.md)``` like so\r\n```\r\nThen more.");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(text(&v), "\r\nUse ```READ (a.md)``` like so\r\n```\r\nThen more.");
}

/// §response-text: beside native tool-call markup that was read, the text items are the source's
/// own text, at the source's positions, with no blank lines standing for the erased markup.
#[test]
fn response_text_beside_native_markup_is_the_source_text() {
    let input =
        "Let me look.\n<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\"}}\n</tool_call>\nAfter the call — 続き.";
    let v = parse(input);
    assert_eq!(ops(&v), ["READ src/lib.rs"]);
    assert_eq!(texts(&v), [("Let me look.\n".to_string(), 1, 0), ("After the call — 続き.".to_string(), 5, 0)]);
    // Markup inline with text: the text after it starts where it stands in the source.
    let inline = "Reading: <tool_call>{\"name\": \"READ\", \"arguments\": {\"path\": \"a.py\"}}</tool_call> then more\nlast line";
    let v = parse(inline);
    assert_eq!(ops(&v), ["READ a.py"]);
    let after = inline.find("</tool_call>").unwrap() + "</tool_call>".len();
    assert_eq!(texts(&v), [("Reading: ".to_string(), 1, 0), (inline[after..].to_string(), 1, after as u64)]);
}

/// §unfenced-operation: an outside line opening with an operation's name and more is named once
/// and is not response text; a name inside a sentence draws nothing.
#[test]
fn unfenced_operation_is_named_and_is_not_response_text() {
    let v = parse("READ (docs/spec.md) <1,10>\nI will READ it later.\n```NOTE\nx\n```");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(errors(&v), [("warning".to_string(), "Unfenced `READ` ignored.".to_string())]);
    assert_eq!(text(&v), "I will READ it later.\n");
}

/// §tier-entrypoints: every entry returns ordered statement and error items; only the model-turn
/// entry returns text items.
#[test]
fn tier_entrypoints_only_the_model_turn_returns_text() {
    let input = "prose before\n```READ (x.md)\n```\nprose after";
    assert_eq!(texts(&parse(input)).len(), 2);
    assert!(texts(&run(Entry::Statements, input)).is_empty());
    assert!(texts(&run(Entry::Client, input)).is_empty());
    let _ = ParseOptions::default();
}
