//! §reasoning-operations (`parseReasoning`) and §operation-attempt (`operationAttempt`).

use plurnk_parser::Severity;
use plurnk_parser::{operation_attempt, parse_reasoning, AttemptKind, Item, ParseOptions};

fn ops(input: &str) -> Vec<(String, u32)> {
    parse_reasoning(input, &ParseOptions::default())
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Statement(s) => Some((s.op_name().unwrap().to_string(), s.position.line)),
            _ => None,
        })
        .collect()
}

#[test]
fn complete_line_leading_note_find_and_read_are_admitted() {
    let r = "Let me think.\n```NOTE\nthe lock order is wrong\n```\n```FIND (src/**) /lock/\n```\nand\n```READ (src/db.rs) <1,40>```\n";
    assert_eq!(ops(r), [("NOTE".into(), 2), ("FIND".into(), 5), ("READ".into(), 8)]);
    let r = parse_reasoning("```NOTE\nthe lock order is wrong\n```", &ParseOptions::default());
    let Item::Statement(s) = &r.items[0] else { panic!() };
    assert_eq!(serde_json::to_value(s).unwrap()["body"], "the lock order is wrong", "the body as the program parser reads it");
}

#[test]
fn other_operations_never_execute_and_their_blocks_are_opaque() {
    let r = "```EDIT (a.md) <1>\n```NOTE\ninside the edit\n```\n```\n```SEND\nhi\n```\n```sh\nls\n```\n```NOTE\nafter\n```";
    assert_eq!(ops(r), [("NOTE".into(), 12)]);
}

#[test]
fn quoted_examples_are_not_headings() {
    assert!(ops("````markdown\n```NOTE\nan example\n```\n````").is_empty(), "a wider quotation holds an example");
    assert!(ops("~~~\n```NOTE\nan example\n```\n~~~").is_empty(), "a tilde quotation is opaque");
    assert!(ops("> ```NOTE\n> quoted\n> ```").is_empty(), "blockquoted");
    assert!(ops("Write `` ```NOTE x``` `` to note.").is_empty(), "inline");
    assert!(ops("    ```NOTE\n    offset\n    ```").is_empty(), "indented code");
}

#[test]
fn an_unclosed_quotation_hides_everything_after_it() {
    // Heading recovery cannot escape a quotation (the program parser may end it at a heading).
    assert!(ops("```text\nan unfinished example\n```NOTE\nnot a note\n```").is_empty());
}

#[test]
fn unfinished_and_malformed_operations_contribute_nothing() {
    assert!(ops("```NOTE\nstill thinking").is_empty(), "unfinished");
    assert!(ops("NOTE\nnaked").is_empty(), "reasoning is never read as a naked operation");
    assert!(ops("READ (a.md)").is_empty(), "nor as an unfenced one");
    let r = parse_reasoning("```NOTE (a.md)\nx\n```\n```NOTE\nok\n```", &ParseOptions::default());
    assert_eq!(r.items.len(), 1, "a refused heading contributes neither statement nor diagnostic: {r:?}");
    // A heading inside an unfinished block: the block is dropped, the complete one counts.
    assert_eq!(ops("```NOTE\nhalf a thought\n```READ (b.md)\n```"), [("READ".into(), 3)]);
}

#[test]
fn normalization_warnings_of_admitted_operations_surface() {
    let r = parse_reasoning("text\n```NOTE <1,2>\nx\n```", &ParseOptions::default());
    assert_eq!(r.items.len(), 2);
    let Item::Error(e) = &r.items[1] else { panic!("{r:?}") };
    assert_eq!(e.severity, Severity::Warning);
    assert_eq!(e.line, 2, "positions are the reasoning's own");
    assert!(r.unparsed_tail.is_none());
}

fn attempt(input: &str) -> Option<(AttemptKind, Option<String>, u32)> {
    operation_attempt(input, &ParseOptions::default()).map(|a| (a.kind, a.name, a.position.line))
}

#[test]
fn prose_is_no_attempt() {
    assert_eq!(attempt("The answer is 42."), None);
    assert_eq!(attempt("Here:\n```python\nprint(42)\n```"), None, "a code block is prose");
    assert_eq!(attempt("```text\nREAD (a.md)\n```"), None, "inside a code block");
    assert_eq!(attempt("I will READ the file next."), None, "a name inside a sentence");
    assert_eq!(attempt("```NOTE\nx\n```"), None, "an emission with an operation makes no attempt");
}

#[test]
fn attempts_are_named() {
    assert_eq!(attempt("Done.\nREAD (a.md)"), Some((AttemptKind::Heading, Some("READ".into()), 2)));
    assert_eq!(attempt("sh (build.sh)"), Some((AttemptKind::Heading, Some("sh".into()), 1)), "an executor with a slot");
    assert_eq!(attempt("sh is a shell"), None, "an executor's name without a slot is prose");
    assert_eq!(attempt("```READ (a.md\n```"), Some((AttemptKind::Fence, Some("READ".into()), 1)), "a refused fenced heading");
    assert_eq!(attempt("### log:///1/2/3/EDIT\nThe file was edited."), Some((AttemptKind::Echo, None, 1)));
    let native = "<function_calls>\n<invoke name=\"FOO\">\n<parameter name=\"x\">1</parameter>\n</invoke>\n</function_calls>";
    assert_eq!(attempt(native).map(|a| a.0), Some(AttemptKind::Native));
}
