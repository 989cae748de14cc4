//! Where the spec and the corpus lie for the tests that read them: `../shared` beside the
//! repository, or `$PLURNK_SHARED`. They are the public `@plurnk/plurnk-contracts` SPEC 6.0 and
//! the conformance corpus of the reference parser, read in place and never copied here.
//!
//! Without them a test that needs them is skipped, with one notice per test binary; with `CI`
//! set in the environment it fails instead, so CI never skips them.

use std::path::PathBuf;

/// The directory holding `spec/` and `corpus/`, or `None` (after the notice) when it is absent.
#[allow(dead_code)] // each test binary uses a part of this file
pub fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("PLURNK_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("shared"),
    };
    if dir.join("corpus").is_dir() && dir.join("spec").is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("the spec and corpus are missing at {} (set PLURNK_SHARED); CI never skips them", dir.display());
    }
    static NOTICE: std::sync::Once = std::sync::Once::new();
    // Written to the stream itself, not through `eprintln!`, which the test harness captures.
    NOTICE.call_once(|| {
        use std::io::Write;
        let note = format!("note: no spec and corpus at {} (set PLURNK_SHARED); the tests that read them are skipped\n", dir.display());
        let _ = std::io::stderr().write_all(note.as_bytes());
    });
    None
}

/// `shared()/corpus/<name>` read whole, or `None` when the shared directory is absent.
#[allow(dead_code)]
pub fn corpus_file(name: &str) -> Option<String> {
    let path = shared()?.join("corpus").join(name);
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())))
}
