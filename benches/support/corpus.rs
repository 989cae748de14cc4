//! The recorded emissions' inputs, for the benches (`#[path]`-included by each; kept in a
//! subdirectory so cargo does not take it for a bench of its own).

use std::path::PathBuf;

/// Every input of `$PLURNK_SHARED/corpus/recorded-emissions.jsonl` (default: `../shared` beside
/// the crate), in corpus order.
pub fn corpus_inputs() -> Vec<String> {
    let shared =
        std::env::var("PLURNK_SHARED").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = shared.join("corpus/recorded-emissions.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e} (set PLURNK_SHARED)", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("corpus line is JSON");
            v["input"].as_str().expect("corpus case has an input").to_string()
        })
        .collect()
}
