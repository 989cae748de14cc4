//! The rule files are data under closed schemas: the loader `build.rs` uses (and
//! `Rules::from_dir`, `--rules DIR`, reuses) refuses an unknown key, naming the file, the path
//! inside it and the rule broken, in a typed error.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use plurnk_parser::{ErrorKind, ParseOptions, Rules};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
    let loaded = Rules::from_dir(root().join("rules")).expect("rules/ is valid");
    let embedded: serde_json::Value = serde_json::from_str(&Rules::builtin().tables_json()).unwrap();
    let mut fresh: serde_json::Value = serde_json::from_str(&loaded.tables_json()).unwrap();
    fresh["generator"] = embedded["generator"].clone();
    assert_eq!(fresh, embedded, "the embedded tables are stale: rebuild");
}

#[test]
fn an_unknown_top_level_key_names_the_file_and_the_key() {
    for file in ["operations.yaml", "diagnostics.yaml", "tolerance.yaml"] {
        let dir = copy_rules(&format!("top-{}", file.replace('.', "-")));
        let path = dir.join(file);
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("\ncolour: blue\n");
        fs::write(&path, text).unwrap();
        let e = Rules::from_dir(&dir).expect_err("an unknown key is refused");
        assert_eq!(e.kind(), ErrorKind::InvalidRules);
        assert_eq!(e.file(), Some(path.as_path()));
        assert_eq!(e.pointer(), Some(""), "the whole document: {e}");
        let err = e.to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
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
    let e = Rules::from_dir(&dir).unwrap_err();
    assert_eq!((e.kind(), e.pointer()), (ErrorKind::InvalidRules, Some("/operations/0")), "{e}");
    let err = e.to_string();
    assert!(err.contains(&path.display().to_string()) && err.contains("/operations/0") && err.contains("colour"), "{err}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_dangling_diagnostic_reference_is_refused() {
    let dir = copy_rules("dangling");
    let path = dir.join("operations.yaml");
    let text = fs::read_to_string(&path).unwrap().replacen("working_form: working-form.FIND", "working_form: working-form.NOPE", 1);
    fs::write(&path, text).unwrap();
    let e = Rules::from_dir(&dir).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRules);
    assert!(e.pointer().is_some_and(|p| p.ends_with("/working_form")), "{e}");
    assert!(e.to_string().contains("working-form.NOPE"), "{e}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_reworded_diagnostic_is_a_yaml_edit() {
    // Rewording a message changes the parser's output with no Rust edit.
    let dir = copy_rules("reword");
    let path = dir.join("diagnostics.yaml");
    let text = fs::read_to_string(&path).unwrap().replace("No valid Operation Syntax OPs detected.", "Nothing to run.");
    fs::write(&path, text).unwrap();
    let rules = Rules::from_dir(&dir).expect("valid");
    let options = ParseOptions::default().with_rules(Arc::new(rules));
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
    let rules = Arc::new(Rules::from_dir(&dir).expect("valid"));
    let _ = fs::remove_dir_all(&dir);
    let options = ParseOptions::default().with_rules(rules);
    let result = plurnk_parser::parse("```SCAN (a.md)\n```\n", &options);
    drop(options);
    assert!(matches!(head_of(&result), Some(Head::Op { name: Cow::Owned(ref n), .. }) if n == "SCAN"), "{:?}", result.items);
}

/// A rule file that is not YAML is an `InvalidRules` error naming the line and column.
#[test]
fn a_yaml_syntax_error_names_its_line_and_column() {
    let dir = copy_rules("yaml-syntax");
    let path = dir.join("tolerance.yaml");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\nrules: [unclosed\n")).unwrap();
    let e = Rules::from_dir(&dir).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRules, "{e}");
    assert_eq!(e.file(), Some(path.as_path()));
    let (line, _) = e.line_column().unwrap_or_else(|| panic!("a line and column: {e}"));
    assert!(line > text.lines().count(), "the error is at the end of the file: {e}");
    assert_eq!(e.pointer(), None);
    let _ = fs::remove_dir_all(dir);
}

/// A directory without the rule files is an `Io` error naming the file it could not read.
#[test]
fn a_missing_rule_file_is_an_io_error() {
    let dir = copy_rules("missing");
    fs::remove_file(dir.join("operations.yaml")).unwrap();
    let e = Rules::from_dir(&dir).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io, "{e}");
    assert_eq!(e.file(), Some(dir.join("operations.yaml").as_path()));
    let _ = fs::remove_dir_all(dir);
}

/// §parse-diagnostics: a diagnostic's id is its rule entry's, not its wording: reworded in a
/// rule directory, the message changes and the id stays.
#[test]
fn parse_diagnostics_ids_are_stable_across_rewording() {
    let input = "```FROB (a.md)\nx\n```\nand then nothing else.";
    let builtin = plurnk_parser::parse(input, &ParseOptions::default());
    let before: Vec<(&str, String)> = builtin.diagnostics().map(|d| (d.id(), d.message.clone())).collect();
    assert!(before.iter().any(|(id, _)| *id == "not-an-operation"), "{before:?}");

    let dir = copy_rules("reword-id");
    let path = dir.join("diagnostics.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let mut reworded = String::new();
    let mut in_entry = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("- id: ") {
            in_entry = line.trim_end().ends_with("- id: not-an-operation");
        }
        if in_entry && line.trim_start().starts_with("text: ") {
            let indent = &line[..line.len() - line.trim_start().len()];
            reworded.push_str(&format!("{indent}text: \"Not a tag the parser runs: {{name}}.\"\n"));
            continue;
        }
        reworded.push_str(line);
    }
    assert_ne!(reworded, text, "the entry's text was found");
    fs::write(&path, reworded).unwrap();
    let rules = Arc::new(Rules::from_dir(&dir).expect("valid"));
    let _ = fs::remove_dir_all(&dir);
    let again = plurnk_parser::parse(input, &ParseOptions::default().with_rules(rules).with_diagnostic_ids(true));
    let after: Vec<(&str, String)> = again.diagnostics().map(|d| (d.id(), d.message.clone())).collect();
    assert_eq!(before.len(), after.len());
    for ((id0, m0), (id1, m1)) in before.iter().zip(&after) {
        assert_eq!(id0, id1, "{m0:?} / {m1:?}");
        if *id0 == "not-an-operation" {
            assert_eq!(m1, "Not a tag the parser runs: FROB.");
            assert_ne!(m0, m1);
        } else {
            assert_eq!(m0, m1);
        }
    }
    let json = serde_json::to_value(&again).unwrap();
    let ids: Vec<&str> = json["items"].as_array().unwrap().iter().filter_map(|i| i["error"]["id"].as_str()).collect();
    assert_eq!(ids, after.iter().map(|(id, _)| *id).collect::<Vec<_>>());
}
