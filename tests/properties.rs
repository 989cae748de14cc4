//! Invariants under property tests: the harnesses of `fuzz/harness.rs`, run by bolero on random
//! inputs under `cargo test` (a bounded number each), over every seed turn in `fixtures/`, and
//! over every input of the conformance corpus. The cargo-fuzz targets are the same bolero code
//! (`harness::FUZZ_TARGETS`, run below too); the README's "Fuzzing" section says how to fuzz them.
//!
//! Checked on every input: no panic; text bodies and text items are exact slices of the input;
//! positions inside the input; parse A, parse B, parse A again gives the same result; the
//! result validates against `schema/ParseResult.json`.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use bolero::check;
use plurnk_parser::{parse, Body, Entry, Item, ParseOptions};

#[path = "support/shared.rs"]
mod support;
/// Random inputs per property under `cargo test` (override with BOLERO_RANDOM_ITERATIONS).
const ITERATIONS: usize = 2_000;

#[test]
fn parse_holds_the_invariants_on_any_string() {
    check!().with_type::<String>().with_iterations(ITERATIONS).for_each(|s: &String| {
        harness::check_entry(s, Entry::Parse, &ParseOptions::default());
    });
}

#[test]
fn parse_statements_holds_the_invariants_on_any_string() {
    check!().with_type::<String>().with_iterations(ITERATIONS).for_each(|s: &String| {
        harness::check_entry(s, Entry::Statements, &ParseOptions::default());
    });
}

#[test]
fn parse_client_holds_the_invariants_on_any_string() {
    check!().with_type::<String>().with_iterations(ITERATIONS).for_each(|s: &String| {
        harness::check_entry(s, Entry::Client, &ParseOptions::default());
    });
}

#[test]
fn every_entry_holds_the_invariants_on_any_bytes_read_as_text() {
    check!().with_iterations(ITERATIONS).for_each(|bytes: &[u8]| {
        harness::check_all_entries(&String::from_utf8_lossy(bytes));
    });
}

#[test]
fn parse_path_never_panics_and_is_stable() {
    check!().with_type::<String>().with_iterations(ITERATIONS).for_each(|s: &String| harness::check_path(s));
}

#[test]
fn native_reading_never_panics_and_its_rewrite_parses() {
    check!().with_type::<String>().with_iterations(ITERATIONS).for_each(|s: &String| harness::check_native(s));
}

#[test]
fn structured_turns_hold_the_invariants() {
    check!().with_iterations(ITERATIONS).for_each(|bytes: &[u8]| harness::check_structured(bytes));
}

#[test]
fn the_stream_finishes_as_parse_for_any_chunking() {
    check!().with_iterations(ITERATIONS).for_each(|bytes: &[u8]| harness::check_stream(bytes));
}

/// The fuzz targets themselves (`harness::FUZZ_TARGETS`, the bodies of `fuzz/fuzz_targets/*.rs`), each
/// under bolero's random engine: what libFuzzer runs is what `cargo test` runs.
#[test]
fn every_fuzz_target_holds_on_random_bytes() {
    for (name, run) in harness::FUZZ_TARGETS {
        eprintln!("fuzz target {name}");
        check!().with_iterations(ITERATIONS / 4).for_each(|bytes: &[u8]| run(bytes));
    }
}

/// `harness::FUZZ_TARGETS`, the files in `fuzz/fuzz_targets/` and the binaries of `fuzz/Cargo.toml`
/// name the same targets, and each file runs the target of its own name.
#[test]
fn fuzz_targets_are_listed_once_everywhere() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut listed: Vec<&str> = harness::FUZZ_TARGETS.iter().map(|(n, _)| *n).collect();
    listed.sort();
    let mut files: Vec<String> = std::fs::read_dir(fuzz.join("fuzz_targets"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".rs").map(str::to_owned))
        .collect();
    files.sort();
    assert_eq!(files, listed, "fuzz/fuzz_targets/ against harness::FUZZ_TARGETS");
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).unwrap();
    for name in &listed {
        assert!(
            manifest.contains(&format!("name = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
        let src = std::fs::read_to_string(fuzz.join("fuzz_targets").join(format!("{name}.rs"))).unwrap();
        assert!(src.contains(&format!("harness::fuzz_main(\"{name}\")")), "fuzz/fuzz_targets/{name}.rs does not run target {name}");
    }
}

/// `fuzz/run-all.sh` on a machine without the fuzz toolchain names what is missing and exits 2,
/// before it builds anything: here with a `PATH` holding only the utilities the script calls
/// before its checks (no `rustup`, no `cargo`), so the nightly check is the one that answers.
#[cfg(unix)]
#[test]
fn fuzz_run_all_names_a_missing_toolchain() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = std::env::temp_dir().join(format!("plurnk-runall-{}", std::process::id()));
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["dirname", "basename", "mkdir"] {
        let found = ["/usr/bin", "/bin"].iter().map(|d| Path::new(d).join(tool)).find(|p| p.exists()).expect("coreutils");
        let _ = std::os::unix::fs::symlink(found, bin.join(tool));
    }
    // Found here: the child's `PATH` would be searched for it.
    let bash = ["/bin/bash", "/usr/bin/bash"].into_iter().find(|p| Path::new(p).exists()).expect("bash");
    let out = std::process::Command::new(bash)
        .arg(root.join("fuzz/run-all.sh"))
        .arg("parse")
        .env_clear()
        .env("PATH", &bin)
        .env("FUZZ_LOGS", tmp.join("logs"))
        .env("CARGO_TARGET_DIR", tmp.join("target"))
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_dir_all(&tmp);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains("run-all.sh: no nightly toolchain (rustup toolchain install nightly)"), "stderr: {err}");
}

// ── Every seed and corpus input ─────────────────────────────────────────────────────────────────

fn seed_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("fuzz-seeds")] {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.is_file() && p.extension().is_some_and(|x| x == "md" || x == "txt") && !p.ends_with("conformance-gaps.txt") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_seed_turn_holds_the_invariants() {
    let seeds = seed_files();
    assert!(seeds.len() >= 10, "fixtures/fuzz-seeds/ holds the seed turns: {seeds:?}");
    for p in seeds {
        let text = std::fs::read_to_string(&p).unwrap();
        harness::check_all_entries(&text);
        harness::check_native(&text);
        harness::check_structured(text.as_bytes());
        for seed in 0..4u8 {
            let mut data = vec![seed];
            data.extend_from_slice(text.as_bytes());
            harness::check_stream(&data);
        }
    }
}

#[test]
fn every_corpus_input_holds_the_invariants() {
    let Some(shared) = support::shared() else { return };
    let dir = shared.join("corpus");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut n = 0;
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        for line in std::fs::read_to_string(&p).unwrap().lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let input = case["input"].as_str().unwrap_or_default();
            let options = match case["options"]["executors"].as_array() {
                Some(list) => ParseOptions::default().with_executors(list.iter().filter_map(|v| v.as_str())),
                None => ParseOptions::default(),
            };
            match case["entry"].as_str() {
                Some("parsePath") => harness::check_path(input),
                Some("parseStatements") => harness::check_entry(input, Entry::Statements, &options),
                Some("parseClient") => harness::check_entry(input, Entry::Client, &options),
                _ => harness::check_entry(input, Entry::Parse, &options),
            }
            n += 1;
        }
    }
    assert!(n > 0, "no corpus case read from {}", dir.display());
}

// ── Hand-written properties ─────────────────────────────────────────────────────────────────────

#[test]
fn crlf_bodies_keep_their_carriage_returns() {
    let input = "```EDIT (a.txt)\r\nline one\r\nline two\r\n```\r\n";
    let r = parse(input, &ParseOptions::default());
    let body = r
        .statements()
        .find_map(|s| match &s.body {
            Body::Text(t) => Some(t.clone()),
            _ => None,
        })
        .expect("an EDIT with a body");
    assert!(body.contains("\r\n"), "body {body:?} lost its CRs");
    harness::check_result(&r, input, None);
}

#[test]
fn results_do_not_depend_on_earlier_parses() {
    let a = "Reading.\n```READ (a.md) <1,2>\n```\n";
    let b = "```EDIT (b.md)\nnever closed\n```sh\nls\n";
    let first = serde_json::to_string(&parse(a, &ParseOptions::default())).unwrap();
    let _ = parse(b, &ParseOptions::default());
    let again = serde_json::to_string(&parse(a, &ParseOptions::default())).unwrap();
    assert_eq!(first, again);
}

#[test]
fn text_items_tile_the_outside_text() {
    // Every text item is borrowed from the input, in order, without overlap.
    let input = "Before.\n\n```READ (a.md)\n```\n\nBetween é.\n```sh\nls\n```\nAfter.";
    let r = parse(input, &ParseOptions::default());
    let mut last_end = 0usize;
    for item in &r.items {
        if let Item::Text(t) = item {
            let Cow::Borrowed(c) = &t.content else { panic!("owned text item {:?}", t.content) };
            let at = c.as_ptr() as usize - input.as_ptr() as usize;
            assert!(at >= last_end, "text items overlap or go backwards");
            last_end = at + c.len();
        }
    }
    assert!(last_end > 0);
}

// ── Reproducers of bugs the harnesses found (minimized) ─────────────────────────────────────────

/// §native-tool-calls: an inline block grows to its fences in the rewrite, yet the text after it
/// is the input's own, where it stands in the input (§response-text).
#[test]
fn native_tool_calls_inline_block_grows_to_its_fences() {
    let input = "x\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}~READ```\n";
    let r = parse(input, &ParseOptions::default());
    let statements: Vec<_> = r.statements().collect();
    assert_eq!(statements.len(), 1);
    assert_eq!((statements[0].position.line, statements[0].position.column), (2, 0));
    let texts: Vec<_> =
        r.items.iter().filter_map(|i| if let Item::Text(t) = i { Some((t.content.as_ref(), t.position.line)) } else { None }).collect();
    assert_eq!(texts, vec![("x\n", 1), ("~READ```\n", 2)]);
    harness::check_entry(input, plurnk_parser::Entry::Parse, &ParseOptions::default());
}

/// §native-tool-calls on a one-line emission of two calls: the block keeps line 1 for the first
/// statement and grows for the second (line 3), as the corpus records (ref-2597).
#[test]
fn native_tool_calls_one_line_block_grows_per_call() {
    let input = "<tool_call><function=READ><parameter=file_path>a.py</parameter></function></tool_call><tool_call><function=READ><parameter=file_path>b.py</parameter></function></tool_call>";
    let r = parse(input, &ParseOptions::default());
    let lines: Vec<u32> = r.statements().map(|s| s.position.line).collect();
    assert_eq!(lines, vec![1, 3]);
}

/// Crash found by `cargo fuzz run parse` (and parse_statements), minimized: an `invoke` opening
/// tag with no `>` followed by another opener. `native::element::call` slices `s[tag.end..next]`
/// with `next` (the following opener, at byte 8) before `tag.end` (15): "begin > end (15 > 8)"
/// at src/native/element.rs:409.
#[test]
fn native_unterminated_invoke_tags_do_not_panic() {
    for input in ["<invoke <invoke", "<function_calls>\n<invoke <invoke name=\"READ\">", "<invoke <invoke"] {
        harness::check_all_entries(input);
        harness::check_native(input);
    }
}

/// Crash found by `cargo fuzz run parse`, minimized: `<!-->` closing a FIND matcher line. The
/// trailing-aside peel (§trailing-slots) sliced `t[i + 4..t.len() - 3]` with the `<!--` and the
/// `-->` overlapping: "begin > end (19 > 17)" at src/build.rs.
#[test]
fn trailing_slots_an_overlapping_empty_aside_does_not_panic() {
    for input in ["```FIND (src/**/*.rs) /fn parse_\\w+/ <!-->\n```\n", "```FIND (a) /x/ <!-->", "```READ (a) x <!--->\n```"] {
        harness::check_all_entries(input);
    }
}

/// Allocation discipline: a body the heading adds nothing to is a slice of the input itself
/// (`Cow::Borrowed`), for operations and executors alike, so a large EDIT is never copied.
#[test]
fn bodies_borrow_from_the_input() {
    let input = "```EDIT (a.txt)\nline one\nline two\n```\n\n```sh\nls -la\n```\n\n```SEND (worker:///w)\n{\"k\": 1}\n```\n";
    let r = parse(input, &ParseOptions::default());
    let range = input.as_ptr() as usize..input.as_ptr() as usize + input.len();
    let mut n = 0;
    for s in r.statements() {
        let text = match &s.body {
            Body::Text(Cow::Borrowed(t)) | Body::Message { raw: Cow::Borrowed(t), .. } => *t,
            other => panic!("{:?}: body not borrowed: {other:?}", s.op_name()),
        };
        assert!(range.contains(&(text.as_ptr() as usize)), "{text:?} is not inside the input");
        n += 1;
    }
    assert_eq!(n, 3);
}

/// §exec-executor-slot: the line classifier's tables are kept per rule set for the default
/// executors only; a parse with its own executors never sees them, and the default parse after
/// it is unchanged (no state carries from one parse to the next).
#[test]
fn executor_tables_follow_each_parse_registry() {
    let runs = |input: &str, o: &ParseOptions| -> Vec<String> {
        parse(input, o)
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Statement(s) => Some(s.head.name().to_string()),
                _ => None,
            })
            .collect()
    };
    // §unfenced-operation: a column-zero executor name with a slot is named only when it is
    // registered, which the classifier's first-byte tables decide before any lookup.
    let unfenced = |input: &str, o: &ParseOptions| -> bool {
        parse(input, o).items.iter().any(|i| matches!(i, Item::Error(e) if e.message.contains("Unfenced `zsh`")))
    };
    let sh = "```sh\necho hi\n```";
    let zsh = "```zsh\necho hi\n```";
    let bare = "Text.\nzsh (build.sh)\n";
    let own = ParseOptions::default().with_executors(["zsh"]);
    for _ in 0..2 {
        assert_eq!(runs(sh, &ParseOptions::default()), vec!["sh"]);
        assert!(runs(zsh, &ParseOptions::default()).is_empty());
        assert!(!unfenced(bare, &ParseOptions::default()));
        assert_eq!(runs(zsh, &own), vec!["zsh"]);
        // `sh` is known whatever the host names (§fence-heading-in-body).
        assert_eq!(runs(sh, &own), vec!["sh"]);
        assert!(unfenced(bare, &own));
    }
}

/// §inline-chain, §fence-pairing: a long turn builds every heading in order, with a
/// two-statement line after five thousand others (the builder's lent vectors and the pairing
/// search's reused buffers carry nothing from one heading to the next).
#[test]
fn a_long_turn_builds_every_heading_in_order() {
    let mut turn = String::new();
    for k in 0..5000 {
        turn.push_str(&format!("```READ (f{k}.md)\n```\n"));
    }
    turn.push_str("```READ (x.md)``` ```READ (y.md)```\n");
    let r = parse(&turn, &ParseOptions::default());
    let targets: Vec<String> = r
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Statement(s) => s.target.as_ref().map(|t| t.raw().to_string()),
            _ => None,
        })
        .collect();
    let mut want: Vec<String> = (0..5000).map(|k| format!("f{k}.md")).collect();
    want.push("x.md".into());
    want.push("y.md".into());
    assert_eq!(targets, want);
}
