//! The spec-tag ratchet: every rule the 6.0 text defines in the chapters this parser implements
//! (2–12 and 14 of `../shared/spec/SPEC.md`, or `$PLURNK_SHARED/spec/SPEC.md`) is held by a test
//! that names its tag, or is listed in `fixtures/spec-tags-untested.txt` with the reason no parser
//! test can hold it (a runtime's duty, a package's API). A tag is defined where a paragraph, a
//! list item or a heading begins with `§name`; a test names it by its fn name (the tag with `-`
//! written `_`, then the end of the name or `_`) or by `§name` in its doc comment. The list only
//! shrinks: a listed tag that a test now names fails the ratchet, as does one the text no longer
//! defines, one listed without a reason, or a list of more than `MAX_UNTESTED` tags.
//!
//! The spec is read in place, never copied into the repository (without it the test is skipped,
//! and fails under `CI`: `tests/support/shared.rs`).

#[path = "support/shared.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Most tags the untested list may hold.
const MAX_UNTESTED: usize = 15;

/// The chapter a `## ` heading starts (`## §canonical-statement 2. …`, `## 3. …`, `## 1.1 …`).
fn chapter_of(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("## ")?;
    let rest = match rest.strip_prefix('§') {
        Some(r) => r.split_once(' ')?.1,
        None => rest,
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = rest[digits.len()..].chars().next();
    if digits.is_empty() || !matches!(after, Some('.') | Some(' ')) {
        return None;
    }
    digits.parse().ok()
}

fn tag_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}

/// The tag a line defines: `§name` opening a paragraph, a list item or a heading.
fn defined_on(line: &str) -> Option<String> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let t = t.trim_start_matches('#').trim_start();
    let name: String = t.strip_prefix('§')?.chars().take_while(|&c| tag_char(c)).collect();
    let name = name.trim_end_matches('-').to_string();
    (!name.is_empty()).then_some(name)
}

/// Every tag chapters 2–12 and 14 define, with its chapter.
fn defined_tags(spec: &str) -> BTreeMap<String, u32> {
    let mut chapter = 0;
    let mut tags = BTreeMap::new();
    for line in spec.lines() {
        if let Some(c) = chapter_of(line) {
            chapter = c;
        }
        if !((2..=12).contains(&chapter) || chapter == 14) {
            continue;
        }
        if let Some(tag) = defined_on(line) {
            tags.entry(tag).or_insert(chapter);
        }
    }
    tags
}

/// The `§tags` a text mentions.
fn mentioned(text: &str, into: &mut BTreeSet<String>) {
    for (i, _) in text.match_indices('§') {
        let name: String = text[i + '§'.len_utf8()..].chars().take_while(|&c| tag_char(c)).collect();
        let name = name.trim_end_matches('-');
        if !name.is_empty() {
            into.insert(name.to_string());
        }
    }
}

/// The tests of one file: each `#[test]` fn's name and the `§tags` of its doc comment.
fn tests_in(source: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    let mut doc = String::new();
    let mut is_test = false;
    for line in source.lines() {
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix("///") {
            doc.push_str(d);
            doc.push('\n');
            continue;
        }
        if t.starts_with("#[") {
            is_test |= t.starts_with("#[test]");
            continue;
        }
        let f = t.strip_prefix("pub ").unwrap_or(t);
        let f = f.strip_prefix("async ").unwrap_or(f);
        if let Some(rest) = f.strip_prefix("fn ") {
            if is_test {
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let mut tags = BTreeSet::new();
                mentioned(&doc, &mut tags);
                out.push((name, tags));
            }
        }
        doc.clear();
        is_test = false;
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Whether a test fn's name names `tag`: the tag, `-` written `_`, then the end or `_`.
fn name_names(name: &str, tag: &str) -> bool {
    let want = tag.replace('-', "_");
    name == want || name.strip_prefix(&want).is_some_and(|r| r.starts_with('_'))
}

/// The untested list: `tag  # reason` per line.
fn untested() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("spec-tags-untested.txt");
    let text = std::fs::read_to_string(path).expect("fixtures/spec-tags-untested.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (tag, reason) = l.split_once('#').unwrap_or((l, ""));
            (tag.trim().trim_start_matches('§').to_string(), reason.trim().to_string())
        })
        .collect()
}

#[test]
fn spec_tags_every_rule_is_held_by_a_test_naming_it() {
    let Some(shared) = support::shared() else { return };
    let spec_path = shared.join("spec").join("SPEC.md");
    let spec = std::fs::read_to_string(&spec_path)
        .unwrap_or_else(|_| panic!("the spec is missing at {} (set PLURNK_SHARED)", spec_path.display()));
    let defined = defined_tags(&spec);
    assert!(defined.len() > 50, "too few tags read from {}: {}", spec_path.display(), defined.len());

    let mut files = Vec::new();
    rust_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests"), &mut files);
    let mut tests = Vec::new();
    for f in &files {
        tests.extend(tests_in(&std::fs::read_to_string(f).unwrap()));
    }
    let tested = |tag: &str| tests.iter().any(|(name, tags)| name_names(name, tag) || tags.contains(tag));

    let listed = untested();
    let mut problems = Vec::new();
    if listed.len() > MAX_UNTESTED {
        problems.push(format!("fixtures/spec-tags-untested.txt lists {} tags; at most {MAX_UNTESTED}", listed.len()));
    }
    let listed_tags: BTreeSet<&str> = listed.iter().map(|(t, _)| t.as_str()).collect();
    for (tag, reason) in &listed {
        if !defined.contains_key(tag) {
            problems.push(format!("listed §{tag} is not a tag chapters 2–12 or 14 define"));
        } else if tested(tag) {
            problems.push(format!("listed §{tag} is named by a test now: remove it from the list (it only shrinks)"));
        }
        if reason.is_empty() {
            problems.push(format!("listed §{tag} has no reason"));
        }
    }
    let mut missing: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
    for (tag, chapter) in &defined {
        if !tested(tag) && !listed_tags.contains(tag.as_str()) {
            missing.entry(*chapter).or_default().push(tag);
        }
    }
    for (chapter, tags) in &missing {
        let tags: Vec<String> = tags.iter().map(|t| format!("§{t}")).collect();
        problems.push(format!("chapter {chapter}: no test names {}", tags.join(" ")));
    }
    println!("{} tags defined in chapters 2–12 and 14; {} listed untested", defined.len(), listed.len());
    assert!(problems.is_empty(), "spec-tag ratchet:\n{}", problems.join("\n"));
}

/// The reader itself (§canonical-statement's own tag shapes): a heading, a paragraph and a list
/// item define; a mention in running text or a map row does not; chapter 13 is out of scope.
#[test]
fn spec_tags_reader_finds_definitions_only() {
    let spec = "## §canonical-statement 2. Canonical\n| {§map-row} | x |\n§fence-closer A block.\nText naming §other.\n  - §list-item one\n### §sub-heading Sub\n## 13. Wire\n§runtime-only x\n## 14. Diagnostics\n- §diag-tag y\n";
    let got: Vec<(String, u32)> = defined_tags(spec).into_iter().collect();
    let want: Vec<(String, u32)> =
        [("canonical-statement", 2), ("diag-tag", 14), ("fence-closer", 2), ("list-item", 2), ("sub-heading", 2)]
            .iter()
            .map(|(t, c)| (t.to_string(), *c))
            .collect();
    assert_eq!(got, want);
    let tests = tests_in("/// Holds §fence-closer.\n#[test]\nfn x() {}\n#[test]\nfn fence_closer_y() {}\nfn helper() {}\n");
    assert_eq!(tests.len(), 2);
    assert!(tests[0].1.contains("fence-closer"));
    assert!(name_names(&tests[1].0, "fence-closer") && !name_names("fence_closers", "fence-closer"));
}
