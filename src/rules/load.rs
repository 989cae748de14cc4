//! Loading a rule directory: YAML in, schema-checked, cross-checked, compiled to [`Tables`].
//!
//! Shared by `build.rs` (which fails the build on any error) and by `plurnk-parser --rules DIR`
//! (which reports it and exits), so a person editing a rule file gets the same verdict from both.
//! Compiled twice like `model.rs`: it may use only `serde`, `serde_json`, `serde_yaml` and
//! `jsonschema`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::model::*;

/// A rule file that broke its schema or a cross-reference: which file, where in it, which rule.
#[derive(Debug)]
pub struct RuleError {
    pub file: String,
    pub path: String,
    pub rule: String,
    pub message: String,
    /// The 1-based line and column of a YAML syntax error.
    pub location: Option<(usize, usize)>,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: at {}: {} (rule: {})", self.file, if self.path.is_empty() { "/" } else { &self.path }, self.message, self.rule)
    }
}

/// The schema documents, by rule file stem.
pub struct Schemas {
    pub operations: serde_json::Value,
    pub diagnostics: serde_json::Value,
    pub tolerance: serde_json::Value,
    pub native: serde_json::Value,
    pub native_parameters: serde_json::Value,
}

impl Schemas {
    /// Reads `schema/rules/*.json` under `schema_dir`.
    #[allow(dead_code)] // build.rs reads the schemas from disk; the library embeds them
    pub fn read(schema_dir: &Path) -> Result<Schemas, RuleError> {
        let read = |name: &str| -> Result<serde_json::Value, RuleError> {
            let path = schema_dir.join(name);
            let text = fs::read_to_string(&path).map_err(|e| RuleError {
                file: path.display().to_string(),
                path: String::new(),
                rule: "readable".into(),
                message: e.to_string(),
                location: None,
            })?;
            serde_json::from_str(&text).map_err(|e| RuleError {
                file: path.display().to_string(),
                path: String::new(),
                rule: "json".into(),
                message: e.to_string(),
                location: None,
            })
        };
        Ok(Schemas {
            operations: read("operations.json")?,
            diagnostics: read("diagnostics.json")?,
            tolerance: read("tolerance.json")?,
            native: read("native.json")?,
            native_parameters: read("native-parameters.json")?,
        })
    }
}

fn read_yaml(file: &Path, label: &str) -> Result<serde_json::Value, RuleError> {
    let text = fs::read_to_string(file).map_err(|e| RuleError {
        file: label.to_string(),
        path: String::new(),
        rule: "readable".into(),
        message: e.to_string(),
        location: None,
    })?;
    serde_yaml::from_str(&text).map_err(|e| RuleError {
        file: label.to_string(),
        path: e.location().map(|l| format!("line {} column {}", l.line(), l.column())).unwrap_or_default(),
        rule: "yaml".into(),
        message: e.to_string(),
        location: e.location().map(|l| (l.line(), l.column())),
    })
}

/// Validates `value` against `schema`; the first violation names the path and the rule broken.
pub fn check(label: &str, value: &serde_json::Value, schema: &serde_json::Value) -> Result<(), RuleError> {
    let validator = jsonschema::validator_for(schema).map_err(|e| RuleError {
        file: label.to_string(),
        path: String::new(),
        rule: "schema".into(),
        message: format!("the schema itself is invalid: {e}"),
        location: None,
    })?;
    let mut errors: Vec<RuleError> = validator
        .iter_errors(value)
        .map(|e| {
            let schema_path = e.schema_path().to_string();
            let rule = schema_path.rsplit('/').next().unwrap_or("").to_string();
            RuleError {
                file: label.to_string(),
                path: e.instance_path().to_string(),
                rule: format!("{rule} ({schema_path})"),
                message: e.to_string(),
                location: None,
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.remove(0))
    }
}

fn typed<T: serde::de::DeserializeOwned>(label: &str, value: serde_json::Value) -> Result<T, RuleError> {
    serde_json::from_value(value).map_err(|e| RuleError {
        file: label.to_string(),
        path: String::new(),
        rule: "model".into(),
        message: e.to_string(),
        location: None,
    })
}

/// Every file a rule directory is made of, in a stable order (for `rerun-if-changed`).
pub fn rule_files(rules_dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![rules_dir.join("operations.yaml"), rules_dir.join("diagnostics.yaml"), rules_dir.join("tolerance.yaml")];
    let native = rules_dir.join("native");
    if let Ok(entries) = fs::read_dir(&native) {
        let mut more: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().map(|x| x == "yaml").unwrap_or(false)).collect();
        more.sort();
        files.extend(more);
    }
    files
}

/// Staged diagnostic files (`rules/staging/*.yaml`), sorted.
pub fn staging_files(rules_dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match fs::read_dir(rules_dir.join("staging")) {
        Ok(entries) => {
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().map(|x| x == "yaml").unwrap_or(false)).collect()
        }
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

/// Loads, validates and cross-checks a rule directory into the compiled [`Tables`].
pub fn load(rules_dir: &Path, schemas: &Schemas, generator: &str) -> Result<Tables, RuleError> {
    let label = |name: &str| format!("rules/{name}");
    let ops_v = read_yaml(&rules_dir.join("operations.yaml"), &label("operations.yaml"))?;
    check(&label("operations.yaml"), &ops_v, &schemas.operations)?;
    let ops: OperationsFile = typed(&label("operations.yaml"), ops_v)?;

    let diag_v = read_yaml(&rules_dir.join("diagnostics.yaml"), &label("diagnostics.yaml"))?;
    check(&label("diagnostics.yaml"), &diag_v, &schemas.diagnostics)?;
    let mut diags: DiagnosticsFile = typed(&label("diagnostics.yaml"), diag_v)?;
    // Work in progress may stage more entries in `rules/staging/*.yaml` (same schema); they are
    // merged into diagnostics.yaml before a change lands.
    for file in staging_files(rules_dir) {
        let lab = format!("rules/staging/{}", file.file_name().unwrap().to_string_lossy());
        let v = read_yaml(&file, &lab)?;
        check(&lab, &v, &schemas.diagnostics)?;
        let more: DiagnosticsFile = typed(&lab, v)?;
        diags.diagnostics.extend(more.diagnostics);
    }

    let tol_v = read_yaml(&rules_dir.join("tolerance.yaml"), &label("tolerance.yaml"))?;
    check(&label("tolerance.yaml"), &tol_v, &schemas.tolerance)?;
    let tol: ToleranceFile = typed(&label("tolerance.yaml"), tol_v)?;

    let mut native = Vec::new();
    let mut native_parameters = None;
    let native_dir = rules_dir.join("native");
    for file in rule_files(rules_dir).into_iter().skip(3) {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let lab = format!("rules/native/{name}");
        let value = read_yaml(&file, &lab)?;
        if name == "parameters.yaml" {
            check(&lab, &value, &schemas.native_parameters)?;
            native_parameters = Some(typed(&lab, value)?);
        } else {
            check(&lab, &value, &schemas.native)?;
            let family: NativeFamily = typed(&lab, value)?;
            let stem = name.trim_end_matches(".yaml");
            if family.family != stem {
                return Err(RuleError {
                    file: lab,
                    path: "/family".into(),
                    rule: "family names its file".into(),
                    message: format!("family `{}` lives in `{}.yaml`", family.family, family.family),
                    location: None,
                });
            }
            native.push(family);
        }
    }
    let _ = native_dir;

    let tables = Tables {
        format: "plurnk-parser-tables".into(),
        format_version: 2,
        generator: generator.into(),
        spec: "6.0.0".into(),
        fence: ops.fence,
        executors: ops.executors,
        operations: ops.operations,
        diagnostics: diags.diagnostics,
        pairing: tol.pairing,
        notation: tol.notation,
        tolerance: tol.rules,
        native,
        native_parameters,
    };
    cross_check(&tables)?;
    Ok(tables)
}

/// References between files: every id named exists, names are unique, counters are declared.
pub fn cross_check(t: &Tables) -> Result<(), RuleError> {
    let err = |file: &str, path: String, rule: &str, message: String| RuleError {
        file: format!("rules/{file}"),
        path,
        rule: rule.into(),
        message,
        location: None,
    };
    let mut ids = BTreeSet::new();
    for (i, d) in t.diagnostics.iter().enumerate() {
        if !ids.insert(d.id.as_str()) {
            return Err(err("diagnostics.yaml", format!("/diagnostics/{i}/id"), "unique id", format!("`{}` is defined twice", d.id)));
        }
    }
    let known = |id: &str| ids.contains(id);
    let mut names = BTreeSet::new();
    for (i, op) in t.operations.iter().enumerate() {
        if !names.insert(op.name.as_str()) {
            return Err(err("operations.yaml", format!("/operations/{i}/name"), "unique name", format!("`{}` is defined twice", op.name)));
        }
        if !known(&op.working_form) {
            return Err(err(
                "operations.yaml",
                format!("/operations/{i}/working_form"),
                "names a diagnostic",
                format!("no diagnostic `{}`", op.working_form),
            ));
        }
    }
    if !known(&t.executors.working_form) {
        return Err(err(
            "operations.yaml",
            "/executors/working_form".into(),
            "names a diagnostic",
            format!("no diagnostic `{}`", t.executors.working_form),
        ));
    }
    for (i, rule) in t.tolerance.iter().enumerate() {
        for (j, id) in rule.diagnostics.iter().enumerate() {
            if !known(id) {
                return Err(err(
                    "tolerance.yaml",
                    format!("/rules/{i}/diagnostics/{j}"),
                    "names a diagnostic",
                    format!("no diagnostic `{id}`"),
                ));
            }
        }
    }
    let counters: BTreeSet<&str> = t.pairing.counters.iter().map(|s| s.as_str()).collect();
    let check_counter = |c: &String, path: String| -> Result<(), RuleError> {
        if counters.contains(c.as_str()) {
            Ok(())
        } else {
            Err(err("tolerance.yaml", path, "declared counter", format!("`{c}` is not in /pairing/counters")))
        }
    };
    for (i, c) in t.pairing.complete_when_zero.iter().enumerate() {
        check_counter(c, format!("/pairing/complete_when_zero/{i}"))?;
    }
    for (i, group) in t.pairing.complete_order.iter().enumerate() {
        for (j, c) in group.iter().enumerate() {
            check_counter(c, format!("/pairing/complete_order/{i}/{j}"))?;
        }
    }
    for (i, group) in t.pairing.repaired_order.iter().enumerate() {
        for (j, c) in group.iter().enumerate() {
            check_counter(c, format!("/pairing/repaired_order/{i}/{j}"))?;
        }
    }
    let mut events = BTreeSet::new();
    for (i, e) in t.pairing.events.iter().enumerate() {
        if !events.insert(e.event.as_str()) {
            return Err(err(
                "tolerance.yaml",
                format!("/pairing/events/{i}/event"),
                "unique event",
                format!("`{}` is defined twice", e.event),
            ));
        }
        for (j, c) in e.counts.iter().enumerate() {
            check_counter(c, format!("/pairing/events/{i}/counts/{j}"))?;
        }
    }
    Ok(())
}
