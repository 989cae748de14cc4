//! `schema/tables.json` describes exactly what `plurnk-parser --tables` prints: the output
//! validates against it, and the schema is closed (every object schema lists its keys and admits
//! no other), so a reader written from the schema in another runtime reads every field.

use std::process::Command;

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/tables.json")).expect("schema/tables.json");
    serde_json::from_str(&text).expect("schema/tables.json is JSON")
}

fn errors(schema: &serde_json::Value, instance: &serde_json::Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("schema/tables.json compiles");
    validator.iter_errors(instance).map(|e| format!("at {}: {}", e.instance_path(), e)).collect()
}

#[test]
fn tables_output_validates_against_the_schema() {
    let out = Command::new(env!("CARGO_BIN_EXE_plurnk-parser")).arg("--tables").output().expect("run plurnk-parser --tables");
    assert!(out.status.success());
    let tables: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--tables prints JSON");
    let errs = errors(&schema(), &tables);
    assert!(errs.is_empty(), "--tables output breaks schema/tables.json:\n{}", errs.join("\n"));
    // The library's embedded copy is the same document.
    let embedded: serde_json::Value = serde_json::from_str(&plurnk_parser::Rules::builtin().tables_json()).unwrap();
    assert_eq!(embedded, tables);
}

#[test]
fn the_schema_is_closed() {
    fn walk(v: &serde_json::Value, path: &str, open: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if m.get("type").and_then(|t| t.as_str()) == Some("object") {
                    if m.get("additionalProperties") != Some(&serde_json::Value::Bool(false)) {
                        open.push(format!("{path}: additionalProperties is not false"));
                    }
                    let props: Vec<&String> =
                        m.get("properties").and_then(|p| p.as_object()).map(|p| p.keys().collect()).unwrap_or_default();
                    let required: Vec<&str> = m
                        .get("required")
                        .and_then(|r| r.as_array())
                        .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
                        .unwrap_or_default();
                    for p in props {
                        if !required.contains(&p.as_str()) {
                            open.push(format!("{path}: `{p}` is not required (every key is always written)"));
                        }
                    }
                }
                for (k, x) in m {
                    walk(x, &format!("{path}/{k}"), open);
                }
            }
            serde_json::Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, &format!("{path}/{i}"), open);
                }
            }
            _ => {}
        }
    }
    let mut open = Vec::new();
    walk(&schema(), "", &mut open);
    assert!(open.is_empty(), "{}", open.join("\n"));
}

#[test]
fn the_schema_refuses_what_a_reader_would_not_know() {
    let tables: serde_json::Value = serde_json::from_str(&plurnk_parser::Rules::builtin().tables_json()).unwrap();
    let s = schema();
    let mut extra = tables.clone();
    extra["operations"][0]["colour"] = serde_json::json!("red");
    assert!(!errors(&s, &extra).is_empty(), "an unknown key validates");
    let mut missing = tables.clone();
    missing["fence"].as_object_mut().unwrap().remove("taught_width");
    assert!(!errors(&s, &missing).is_empty(), "a missing key validates");
    let mut wrong = tables;
    wrong["operations"][0]["tier"] = serde_json::json!("server");
    assert!(!errors(&s, &wrong).is_empty(), "an unknown enum value validates");
}
