//! §parse-diagnostics: every diagnostic carries the stable id of its entry in
//! `rules/diagnostics.yaml` (`Diagnostic::id`). The contract's JSON has no id unless the caller
//! asks (`ParseOptions::with_diagnostic_ids`, the embeddings' `diagnosticIds`); asked, each
//! error object ends with `"id"`, and the result still validates against the closed
//! `schema/ParseResult.json`.

#[path = "support/shared.rs"]
mod support;

use std::collections::BTreeSet;

use plurnk_parser::{run, Entry, ErrorKind, Item, ParseOptions, ParseResult};
use serde_json::Value;

/// The ids `rules/diagnostics.yaml` (and any staged file) defines, read from the files as
/// written: each entry opens with `- id: <id>` or, on one line, `- {id: <id>, …}`.
fn yaml_ids() -> BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut files = vec![root.join("diagnostics.yaml")];
    if let Ok(staged) = std::fs::read_dir(root.join("staging")) {
        files.extend(staged.filter_map(|e| e.ok().map(|e| e.path())));
    }
    let mut ids = BTreeSet::new();
    for f in files {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("- id: ").or_else(|| t.strip_prefix("- {id: ")) {
                let id = rest.split([',', '}']).next().unwrap_or("").trim().trim_matches(['"', '\'']);
                ids.insert(id.to_string());
            }
        }
    }
    assert!(ids.len() > 50, "read the entries of rules/diagnostics.yaml: {ids:?}");
    ids
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(include_str!("../schema/ParseResult.json")).unwrap();
    jsonschema::validator_for(&schema).expect("ParseResult.json compiles")
}

/// The JSON with every error object's `id` taken out.
fn without_ids(mut v: Value) -> Value {
    for item in v["items"].as_array_mut().unwrap() {
        if let Some(e) = item.get_mut("error").and_then(Value::as_object_mut) {
            e.remove("id");
        }
    }
    v
}

/// Checks one input under `entry`: every diagnostic's id is defined in the rule file, the JSON
/// carries it (last) exactly when asked, and nothing else in the JSON changes. Returns the ids.
fn check(
    input: &str,
    entry: Entry,
    executors: Option<Vec<String>>,
    ids: &BTreeSet<String>,
    schema: &jsonschema::Validator,
) -> Vec<&'static str> {
    let mut plain = ParseOptions::default();
    plain.executors = executors;
    let with = plain.clone().with_diagnostic_ids(true);
    let a: ParseResult = run(input, &plain, entry);
    let b: ParseResult = run(input, &with, entry);
    let found: Vec<&'static str> = b.diagnostics().map(|d| d.id()).collect();
    assert_eq!(a.diagnostics().map(|d| d.id()).collect::<Vec<_>>(), found, "the option changes no reading: {input:?}");
    for id in &found {
        assert!(ids.contains(*id), "`{id}` is not in rules/diagnostics.yaml (input {input:?})");
    }
    let (ja, jb) = (serde_json::to_value(&a).unwrap(), serde_json::to_value(&b).unwrap());
    assert!(!serde_json::to_string(&a).unwrap().contains(r#""id":"#), "no id by default: {input:?}");
    assert_eq!(without_ids(jb.clone()), ja, "the ids are the only difference: {input:?}");
    let in_json: Vec<&str> = jb["items"].as_array().unwrap().iter().filter_map(|i| i["error"]["id"].as_str()).collect();
    assert_eq!(in_json, found, "{input:?}");
    // As serialized, each error object ends with its id, after the contract's keys.
    let text = serde_json::to_string(&b).unwrap();
    assert_eq!(text.matches(r#""id":"#).count(), found.len(), "{text}");
    for id in &found {
        assert!(text.contains(&format!(r#","id":"{id}"}}"#)), "`{id}` closes its error object: {text}");
    }
    assert!(schema.is_valid(&jb), "a result with ids validates against schema/ParseResult.json: {jb}");
    found
}

/// §parse-diagnostics: our own turns, drawing refusals, advisories, receipts and the turn-shape
/// diagnostic (CRLF, tabs, Unicode, no final newline), each diagnostic named by a defined id.
#[test]
fn parse_diagnostics_each_carries_a_defined_id() {
    let (ids, schema) = (yaml_ids(), validator());
    let turns = [
        "Rien à faire ici.",
        "```FROB (carte.md)\r\ncorps\r\n```\r\n",
        "READ (src/main.rs)\n",
        "```READ (a.md) <1,\n```",
        "```READ (ünïcödé.md) [[\n```",
        "\t```EDIT\n\tx\n\t```",
        "<invoke name=\"read_file\"><parameter name=\"path\">a.md</parameter></invoke>",
        "```NOTE\nunclosed note with no closer",
        "```LOOK (b.md)\n```",
        "```READ (a.md) /unclosed[/\n```",
    ];
    let mut all = BTreeSet::new();
    for t in turns {
        for entry in [Entry::Parse, Entry::Statements, Entry::Client] {
            all.extend(check(t, entry, None, &ids, &schema));
        }
    }
    assert!(all.contains("no-operation") && all.contains("not-an-operation"), "{all:?}");
    assert!(all.len() >= 5, "the turns draw several kinds of diagnostic: {all:?}");
}

/// §parse-diagnostics over the conformance corpus: every diagnostic any case produces has an id
/// that `rules/diagnostics.yaml` defines.
#[test]
fn parse_diagnostics_every_corpus_diagnostic_has_a_defined_id() {
    let Some(shared) = support::shared() else { return };
    let (ids, schema) = (yaml_ids(), validator());
    let mut seen = BTreeSet::new();
    let mut diagnostics = 0usize;
    for file in ["recorded-emissions.jsonl", "reference-tests.jsonl"] {
        let text = std::fs::read_to_string(shared.join("corpus").join(file)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).unwrap();
            let entry = match case["entry"].as_str().unwrap_or("parse") {
                "parse" => Entry::Parse,
                "parseStatements" => Entry::Statements,
                "parseClient" => Entry::Client,
                _ => continue,
            };
            let executors = case["options"]["executors"].as_array().map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect());
            let found = check(case["input"].as_str().unwrap(), entry, executors, &ids, &schema);
            diagnostics += found.len();
            seen.extend(found);
        }
    }
    assert!(diagnostics > 1000 && seen.len() > 20, "{diagnostics} diagnostics of {} kinds", seen.len());
}

/// The items keep their ids when detached from the input.
#[test]
fn parse_diagnostics_ids_survive_into_owned() {
    let input = String::from("```FROB (x)\n```");
    let owned = plurnk_parser::parse(&input, &ParseOptions::default().with_diagnostic_ids(true)).into_owned();
    drop(input);
    let ids: Vec<&str> = owned.items.iter().filter_map(|i| if let Item::Error(d) = i { Some(d.id()) } else { None }).collect();
    assert!(ids.contains(&"not-an-operation"), "{ids:?}");
    assert!(serde_json::to_string(&owned).unwrap().contains(r#""id":"not-an-operation""#));
}

/// The embeddings' options object (`--jsonl`'s `options`, the C ABI, Node, WebAssembly) takes
/// `diagnosticIds`; any other type is an invalid-options error.
#[test]
fn parse_diagnostics_the_embedding_option_names_the_ids() {
    use plurnk_parser::__private::{call_json, options_from_json};
    let (_, on) = options_from_json(Some(&serde_json::json!({"diagnosticIds": true}))).unwrap();
    assert!(on.diagnostic_ids);
    let json = call_json("parse", "prose only", &on).unwrap();
    assert!(json.contains(r#""id":"no-operation""#), "{json}");
    let (_, off) = options_from_json(Some(&serde_json::json!({"executors": ["sh"]}))).unwrap();
    assert!(!call_json("parse", "prose only", &off).unwrap().contains(r#""id""#));
    let e = options_from_json(Some(&serde_json::json!({"diagnosticIds": "yes"}))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidOptions);
    assert!(e.to_string().contains("diagnosticIds"), "{e}");
    let e = options_from_json(Some(&serde_json::json!({"colour": 1}))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidOptions);
}
