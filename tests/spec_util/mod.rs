//! Helpers for the spec tests (`tests/spec_*.rs`): a parse as the contract's JSON, and short
//! summaries of its items to compare against a rule's reading.
#![allow(dead_code)]

use plurnk_parser::{Entry, ParseOptions};
use serde_json::Value;

/// The result of `entry` on `input` as the contract's JSON, with the default executors.
pub fn run(entry: Entry, input: &str) -> Value {
    run_with(entry, input, ParseOptions::default())
}

pub fn run_with(entry: Entry, input: &str, options: ParseOptions) -> Value {
    let v = serde_json::to_value(plurnk_parser::run(input, &options, entry)).unwrap();
    // The general path must agree with the short-cuts on every input a spec test reads.
    let general = plurnk_parser::__private::general_path_only(|| serde_json::to_value(plurnk_parser::run(input, &options, entry)).unwrap());
    assert_eq!(v, general, "the general path reads {input:?} differently");
    v
}

pub fn parse(input: &str) -> Value {
    run(Entry::Parse, input)
}

fn items(v: &Value) -> Vec<Value> {
    v["items"].as_array().cloned().unwrap_or_default()
}

/// `OP target` (or the runtime's name) per statement, in order.
pub fn ops(v: &Value) -> Vec<String> {
    items(v)
        .iter()
        .filter(|i| i["kind"] == "statement")
        .map(|i| {
            let s = &i["statement"];
            let name = s["op"].as_str().or_else(|| s["runtime"].as_str()).unwrap_or("?").to_string();
            match s["target"]["raw"].as_str() {
                Some(t) => format!("{name} {t}"),
                None => name,
            }
        })
        .collect()
}

/// Each statement's body (a message's `raw`), `None` for a null body.
pub fn bodies(v: &Value) -> Vec<Option<String>> {
    items(v)
        .iter()
        .filter(|i| i["kind"] == "statement")
        .map(|i| {
            let b = &i["statement"]["body"];
            b.as_str().or_else(|| b["raw"].as_str()).map(str::to_string)
        })
        .collect()
}

/// The text items: content, line, column.
pub fn texts(v: &Value) -> Vec<(String, u64, u64)> {
    items(v)
        .iter()
        .filter(|i| i["kind"] == "text")
        .map(|i| {
            (i["content"].as_str().unwrap().to_string(), i["position"]["line"].as_u64().unwrap(), i["position"]["column"].as_u64().unwrap())
        })
        .collect()
}

/// The text items' contents concatenated.
pub fn text(v: &Value) -> String {
    texts(v).into_iter().map(|t| t.0).collect()
}

/// The diagnostics: severity, message.
pub fn errors(v: &Value) -> Vec<(String, String)> {
    items(v)
        .iter()
        .filter(|i| i["kind"] == "error")
        .map(|i| (i["error"]["severity"].as_str().unwrap().to_string(), i["error"]["message"].as_str().unwrap().to_string()))
        .collect()
}

/// The messages of the hard diagnostics.
pub fn hard(v: &Value) -> Vec<String> {
    errors(v).into_iter().filter(|e| e.0 == "error").map(|e| e.1).collect()
}

/// Every item's kind and position, in order (`S`, `E`, `T` and `line:column`).
pub fn layout(v: &Value) -> Vec<String> {
    items(v)
        .iter()
        .map(|i| {
            let (k, p) = match i["kind"].as_str().unwrap() {
                "statement" => ("S", &i["statement"]["position"]),
                "text" => ("T", &i["position"]),
                _ => ("E", &i["error"]),
            };
            format!("{k}{}:{}", p["line"], p["column"])
        })
        .collect()
}

pub const NO_OPERATION: &str = "No valid Operation Syntax OPs detected.";
