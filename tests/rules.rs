//! The rule files are data under closed schemas: the loader `build.rs` uses (and `--rules DIR`
//! reuses) refuses an unknown key, naming the file, the path inside it and the rule broken.

use std::fs;
use std::path::{Path, PathBuf};

use plurnk_parser::rules::load;
use plurnk_parser::rules::Rules;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schemas() -> load::Schemas {
    load::Schemas::read(&root().join("schema").join("rules")).expect("schemas read")
}

/// A copy of `rules/` in a fresh temporary directory.
fn copy_rules(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plurnk-rules-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy_dir(&root().join("rules"), &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn builtin_rules_validate_and_match_the_embedded_tables() {
    let tables = load::load(&root().join("rules"), &schemas(), "test").expect("rules/ is valid");
    let embedded: serde_json::Value = serde_json::from_str(plurnk_parser::rules::BUILTIN_TABLES_JSON).unwrap();
    let mut fresh = serde_json::to_value(&tables).unwrap();
    fresh["generator"] = embedded["generator"].clone();
    assert_eq!(fresh, embedded, "the embedded tables are stale: rebuild");
    assert!(Rules::from_tables(tables).is_ok());
}

#[test]
fn an_unknown_top_level_key_names_the_file_and_the_key() {
    for file in ["operations.yaml", "diagnostics.yaml", "tolerance.yaml"] {
        let dir = copy_rules(&format!("top-{}", file.replace('.', "-")));
        let path = dir.join(file);
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("\ncolour: blue\n");
        fs::write(&path, text).unwrap();
        let err = load::load(&dir, &schemas(), "test").expect_err("an unknown key is refused").to_string();
        assert!(err.contains(&format!("rules/{file}")), "{err}");
        assert!(err.contains("colour"), "{err}");
        assert!(err.contains("additionalProperties"), "names the rule broken: {err}");
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn an_unknown_nested_key_names_its_path() {
    let dir = copy_rules("nested");
    let path = dir.join("operations.yaml");
    let text = fs::read_to_string(&path).unwrap().replacen("  - name: FIND\n", "  - name: FIND\n    colour: blue\n", 1);
    fs::write(&path, text).unwrap();
    let err = load::load(&dir, &schemas(), "test").unwrap_err().to_string();
    assert!(err.contains("rules/operations.yaml") && err.contains("/operations/0") && err.contains("colour"), "{err}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_dangling_diagnostic_reference_is_refused() {
    let dir = copy_rules("dangling");
    let path = dir.join("operations.yaml");
    let text = fs::read_to_string(&path).unwrap().replacen("working_form: working-form.FIND", "working_form: working-form.NOPE", 1);
    fs::write(&path, text).unwrap();
    let err = load::load(&dir, &schemas(), "test").unwrap_err().to_string();
    assert!(err.contains("working-form.NOPE"), "{err}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_reworded_diagnostic_is_a_yaml_edit() {
    // Rewording a message changes the parser's output with no Rust edit.
    let dir = copy_rules("reword");
    let path = dir.join("diagnostics.yaml");
    let text = fs::read_to_string(&path).unwrap().replace("No valid Operation Syntax OPs detected.", "Nothing to run.");
    fs::write(&path, text).unwrap();
    let rules = Rules::from_dir(&dir, None).expect("valid");
    let options = plurnk_parser::ParseOptions { executors: None, rules: Some(std::sync::Arc::new(rules)) };
    let result = plurnk_parser::parse("just prose", &options);
    let json = serde_json::to_string(&result).unwrap();
    assert!(json.contains("Nothing to run."), "{json}");
    let _ = fs::remove_dir_all(dir);
}

/// An operation's name in a result borrows the built-in rule set, which lives as long as the
/// process; a rule set the caller loaded may be dropped before the result, so its names are
/// copied (and a renamed operation comes out under its new name).
#[test]
fn operation_names_borrow_only_the_builtin_rule_set() {
    use plurnk_parser::{Head, Item};
    use std::borrow::Cow;
    let head_of = |r: &plurnk_parser::ParseResult| {
        r.items.iter().find_map(|i| match i {
            Item::Statement(s) => Some(s.head.clone()),
            _ => None,
        })
    };
    let builtin = plurnk_parser::parse("```READ (a.md)\n```\n", &plurnk_parser::ParseOptions::default());
    assert!(matches!(head_of(&builtin), Some(Head::Op { name: Cow::Borrowed("READ"), .. })), "{:?}", head_of(&builtin));

    let dir = copy_rules("owned-names");
    let path = dir.join("operations.yaml");
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("name: READ\n"), "operations.yaml names READ");
    fs::write(&path, text.replacen("name: READ\n", "name: SCAN\n", 1)).unwrap();
    let rules = std::sync::Arc::new(Rules::from_dir(&dir, None).expect("valid"));
    let _ = fs::remove_dir_all(&dir);
    let options = plurnk_parser::ParseOptions { executors: None, rules: Some(rules) };
    let result = plurnk_parser::parse("```SCAN (a.md)\n```\n", &options);
    drop(options);
    assert!(matches!(head_of(&result), Some(Head::Op { name: Cow::Owned(ref n), .. }) if n == "SCAN"), "{:?}", result.items);
}
