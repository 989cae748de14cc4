//! What the chapter-by-chapter spec tests (`tests/spec_*.rs`) read a parse through: the result
//! as its contract JSON. Every reading is taken twice, with the short-cuts (the clean-turn reader,
//! the plain-heading builder) and on the general path alone, and the two must agree, so a rule
//! held by a test holds on both paths.

#![allow(dead_code)]

use plurnk_parser::__private::general_path_only;
use plurnk_parser::{parse, parse_client, parse_statements, ParseOptions, ParseResult};
use serde_json::Value;

fn both(f: impl Fn() -> Value) -> Value {
    let fast = f();
    let general = general_path_only(&f);
    assert_eq!(fast, general, "the short-cut and the general path disagree");
    fast
}

fn json(r: &ParseResult) -> Value {
    serde_json::to_value(r).expect("a parse result serializes")
}

/// `parse` of one turn (default executors: `sh`), as JSON.
pub fn result(input: &str) -> Value {
    both(|| json(&parse(input, &ParseOptions::default())))
}

/// `parse` with the host's executors.
pub fn result_with(input: &str, executors: &[&str]) -> Value {
    let options = ParseOptions::default().with_executors(executors.iter().copied());
    both(|| json(&parse(input, &options)))
}

/// `parseStatements`.
pub fn statements_result(input: &str) -> Value {
    both(|| json(&parse_statements(input, &ParseOptions::default())))
}

/// `parseClient`.
pub fn client_result(input: &str) -> Value {
    both(|| json(&parse_client(input, &ParseOptions::default())))
}

pub fn items(r: &Value) -> Vec<Value> {
    r["items"].as_array().cloned().unwrap_or_default()
}

/// The statements of a result, in order.
pub fn statements_of(r: &Value) -> Vec<Value> {
    items(r).into_iter().filter(|i| i["kind"] == "statement").map(|i| i["statement"].clone()).collect()
}

/// The statements of one turn.
pub fn statements(input: &str) -> Vec<Value> {
    statements_of(&result(input))
}

/// The one statement of a turn (and no other statement).
pub fn only(input: &str) -> Value {
    let s = statements(input);
    assert_eq!(s.len(), 1, "{input:?} gives {} statements: {s:#?}", s.len());
    s.into_iter().next().unwrap()
}

/// The one statement of a turn that draws no diagnostic at all.
pub fn clean(input: &str) -> Value {
    let r = result(input);
    assert!(diagnostics_of(&r).is_empty(), "{input:?} draws {:#?}", diagnostics_of(&r));
    let s = statements_of(&r);
    assert_eq!(s.len(), 1, "{input:?} gives {s:#?}");
    s.into_iter().next().unwrap()
}

/// The error items (hard facts and advisories) of a result.
pub fn diagnostics_of(r: &Value) -> Vec<Value> {
    items(r).into_iter().filter(|i| i["kind"] == "error").map(|i| i["error"].clone()).collect()
}

/// `severity: message` of every diagnostic of one turn, in order.
pub fn messages(input: &str) -> Vec<String> {
    messages_of(&result(input))
}

pub fn messages_of(r: &Value) -> Vec<String> {
    diagnostics_of(r).iter().map(|e| format!("{}: {}", e["severity"].as_str().unwrap(), e["message"].as_str().unwrap())).collect()
}

/// The hard facts of one turn, less the turn-shape fact a turn with no operation adds.
pub fn hard(input: &str) -> Vec<Value> {
    diagnostics_of(&result(input))
        .into_iter()
        .filter(|e| e["severity"] == "error" && e["message"] != "No valid Operation Syntax OPs detected.")
        .collect()
}

/// The one hard fact of a turn that refuses its only statement.
pub fn refusal(input: &str) -> Value {
    let r = result(input);
    assert!(statements_of(&r).is_empty(), "{input:?} still gives {:#?}", statements_of(&r));
    let h = hard(input);
    assert_eq!(h.len(), 1, "{input:?} gives {h:#?}");
    h.into_iter().next().unwrap()
}

/// Each item as `kind` (`statement OP`, `text`, `error`/`warning`), in order.
pub fn kinds(input: &str) -> Vec<String> {
    items(&result(input))
        .iter()
        .map(|i| match i["kind"].as_str().unwrap() {
            "statement" => {
                let s = &i["statement"];
                format!("statement {}", s["op"].as_str().or(s["runtime"].as_str()).unwrap())
            }
            "error" => i["error"]["severity"].as_str().unwrap().to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// The operation names (or runtimes) of a turn's statements.
pub fn ops(input: &str) -> Vec<String> {
    statements(input).iter().map(|s| s["op"].as_str().or(s["runtime"].as_str()).unwrap().to_string()).collect()
}

/// A target's `raw`.
pub fn raw(s: &Value) -> &str {
    s["target"]["raw"].as_str().unwrap_or_else(|| panic!("no target in {s:#}"))
}

/// A statement's scope marks.
pub fn marks(s: &Value) -> Value {
    s["lineMarker"]["marks"].clone()
}
