//! The CLI on hostile input: the built binary, run as a user would. Unreadable input (invalid
//! UTF-8, a missing file, a directory, an unreadable file) exits 2 with exactly one clear line on
//! stderr and nothing on stdout; a clean parse exits 0; an error item or an unparsed tail exits 1;
//! `--help` works.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_plurnk-parser"))
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plurnk-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Exit 2, nothing on stdout, exactly one non-empty line on stderr naming the program.
fn assert_unreadable(out: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty(), "stdout not empty: {:?}", String::from_utf8_lossy(&out.stdout));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one stderr line, got {stderr:?}");
    assert!(stderr.ends_with('\n'), "stderr line unterminated: {stderr:?}");
    assert!(lines[0].starts_with("plurnk-parser: "), "stderr line does not name the program: {stderr:?}");
    assert!(lines[0].contains(mentions), "stderr {stderr:?} does not mention {mentions:?}");
}

const INVALID_UTF8: &[&[u8]] = &[
    b"\xff",
    b"```READ (a.md)\n```\n\xc3\x28",
    b"prose \xed\xa0\x80 surrogate",
    b"\xf8\x88\x80\x80\x80 overlong",
    b"```sh\nls\n```\n\x80",
    b"\xef\xbb\xbf\xc0\xaf",
];

#[test]
fn invalid_utf8_from_a_file_exits_2_with_one_line() {
    for (i, bytes) in INVALID_UTF8.iter().enumerate() {
        let p = scratch(&format!("invalid-{i}.md"), bytes);
        let out = bin().arg(&p).output().unwrap();
        assert_unreadable(&out, "not valid UTF-8");
    }
}

#[test]
fn invalid_utf8_on_stdin_exits_2_with_one_line() {
    for bytes in INVALID_UTF8 {
        for args in [&[][..], &["-"][..], &["--compact"][..], &["--entry", "parseClient"][..]] {
            let out = run_stdin(args, bytes);
            assert_unreadable(&out, "not valid UTF-8");
        }
    }
}

#[test]
fn a_missing_file_exits_2_with_one_line() {
    let out = bin().arg("/nonexistent/plurnk/turn.md").output().unwrap();
    assert_unreadable(&out, "/nonexistent/plurnk/turn.md");
}

#[test]
fn a_directory_exits_2_with_one_line() {
    let dir = std::env::temp_dir();
    let out = bin().arg(&dir).output().unwrap();
    assert_unreadable(&out, "cannot read");
}

#[test]
fn an_unreadable_file_exits_2_with_one_line() {
    let p = scratch("unreadable.md", b"```READ (a.md)\n```\n");
    let mut perms = std::fs::metadata(&p).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    std::fs::set_permissions(&p, perms).unwrap();
    if std::fs::read(&p).is_ok() {
        // Root reads anything; the case is not reachable here.
        eprintln!("running as a user who can read mode-000 files; skipped");
        return;
    }
    let out = bin().arg(&p).output().unwrap();
    assert_unreadable(&out, "cannot read");
}

#[test]
fn a_clean_parse_exits_0() {
    let out = run_stdin(&[], b"I'll read it.\n\n```READ (src/lib.rs) <1,40>\n```\n");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(v["items"][1]["statement"]["op"], "READ");
    // The bundled example turn too, and from a file.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example-turn.md");
    let out = bin().args(["--compact", example]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 1, "--compact prints one line");
}

#[test]
fn an_error_item_exits_1() {
    // Prose alone draws the no-operation error (§turn-shape).
    let out = run_stdin(&[], b"Just an answer, no operation.\n");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert!(v["items"].as_array().unwrap().iter().any(|i| i["kind"] == "error" && i["error"]["severity"] == "error"));
}

#[test]
fn an_unparsed_tail_exits_1() {
    // §unparsed-tail-boundary: a slot opened and never closed leaves the rest unparsed.
    let out = run_stdin(&[], b"````READ (https://example.test/a(b");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert!(v.get("unparsedTail").is_some(), "expected an unparsed tail: {v}");
}

#[test]
fn empty_input_is_not_a_crash() {
    let out = run_stdin(&[], b"");
    assert!(matches!(out.status.code(), Some(0 | 1)), "status {:?}", out.status);
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
}

#[test]
fn help_works() {
    let out = bin().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Usage"), "{text}");
    assert!(text.contains("--jsonl") && text.contains("--compact"), "{text}");
}

#[test]
fn jsonl_survives_garbage_lines() {
    let input = b"not json\n{\"id\":1}\n{\"id\":2,\"entry\":\"nope\",\"input\":\"x\"}\n{\"id\":3,\"entry\":\"parse\",\"input\":\"```READ (a.md)\\n```\"}\n";
    let out = run_stdin(&["--jsonl"], input);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4, "one response per request");
    assert!(lines[0].get("throws").is_some() && lines[1].get("throws").is_some() && lines[2].get("throws").is_some());
    assert_eq!(lines[3]["id"], 3);
    assert!(lines[3].get("result").is_some());
}

/// Copies `rules/` into a fresh temporary directory.
fn rules_copy(name: &str) -> PathBuf {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                copy(&p, &to.join(e.file_name()));
            } else {
                std::fs::copy(&p, to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("plurnk-cli-rules-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), &dir);
    dir
}

/// The README's "Adding a native tool-call family" walkthrough, as written there: its family
/// file (the first ```yaml block of the section) and its turn (the first ```text block).
fn walkthrough() -> (String, String) {
    let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let at = readme.find("## Adding a native tool-call family").expect("the walkthrough section");
    let section = &readme[at..];
    let block = |fence: &str| -> String {
        let start = section.find(fence).unwrap_or_else(|| panic!("a {fence} block")) + fence.len();
        let body = &section[start..];
        let end = body.find("```").unwrap();
        // The YAML is indented under its list item: the block's own indentation goes.
        let body = &body[body.find('\n').unwrap() + 1..end];
        let indent = body.lines().next().map(|l| l.len() - l.trim_start().len()).unwrap_or(0);
        body.lines().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect::<Vec<_>>().join("\n")
    };
    (block("```yaml"), block("```text") + "\n")
}

/// §native-tool-calls: a family added as one YAML file in a rules directory given with `--rules`
/// is read at once, with no Rust change and no rebuild; the built-in rules do not read it. The
/// family and turn are the README walkthrough's, run as written.
#[test]
fn native_tool_calls_a_family_added_as_yaml_is_read_with_rules_dir() {
    let (family, turn) = walkthrough();
    assert!(family.starts_with("family: acme\n"), "{family}");
    let dir = rules_copy("acme");
    std::fs::write(dir.join("native/acme.yaml"), &family).unwrap();
    let with = run_stdin(&["--rules", dir.to_str().unwrap(), "-"], turn.as_bytes());
    assert_eq!(with.status.code(), Some(0), "{}", String::from_utf8_lossy(&with.stderr));
    let v: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    let statements: Vec<&serde_json::Value> = v["items"].as_array().unwrap().iter().filter(|i| i["kind"] == "statement").collect();
    assert_eq!(statements.len(), 1, "{v}");
    let s = &statements[0]["statement"];
    assert_eq!((s["op"].as_str(), s["target"]["raw"].as_str()), (Some("READ"), Some("src/a.rs")), "{v}");
    assert_eq!(s["lineMarker"]["marks"], serde_json::json!([1, 40]), "{v}");
    assert_eq!(s["position"]["line"], 2, "{v}");
    assert!(v["items"].as_array().unwrap().iter().all(|i| i["kind"] != "error"), "no diagnostic for a reading: {v}");

    let without = run_stdin(&["-"], turn.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&without.stdout).unwrap();
    assert!(v["items"].as_array().unwrap().iter().all(|i| i["kind"] != "statement"), "built-in rules read it: {v}");
}

/// A rule directory that breaks its schema is refused with exit 2 and one line naming the file,
/// the path inside it and the rule broken.
#[test]
fn a_broken_rules_dir_names_file_path_and_rule() {
    let (family, turn) = walkthrough();
    let dir = rules_copy("broken");
    std::fs::write(dir.join("native/acme.yaml"), family.replace("        array: true\n", "        array: true\n        colour: red\n"))
        .unwrap();
    let out = run_stdin(&["--rules", dir.to_str().unwrap(), "-"], turn.as_bytes());
    assert_unreadable(&out, "acme.yaml");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/blocks/0/forms/0") && err.contains("colour") && err.contains("additionalProperties"), "{err}");
}

/// The long-lived helper answers every line, in order, whatever the line holds, and is still
/// alive after the last one: valid requests, a line that is not UTF-8 (its id read from what is
/// left, else null), one that is not JSON, one over `--max-request-bytes` (dropped unread), each
/// interleaved with valid ones.
#[test]
fn jsonl_answers_every_line_in_order_and_stays_alive() {
    use std::io::{BufRead, BufReader};
    let mut child = bin()
        .args(["--jsonl", "--max-request-bytes", "4096"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let big = format!("{{\"id\":\"big\",\"input\":\"{}\"}}", "x".repeat(10_000));
    let lines: Vec<Vec<u8>> = vec![
        br#"{"id":1,"input":"```READ (a.md)\n```"}"#.to_vec(),
        b"{\"id\":2,\"input\":\"caf\xe9\"}".to_vec(),
        br#"{"id":3,"input":"```NOTE\nx\n```"}"#.to_vec(),
        b"{\"id\":4,\"input\":".to_vec(),
        br#"{"id":5,"entry":"parsePath","input":"src/b.rs"}"#.to_vec(),
        big.into_bytes(),
        b"\xff\xfe\xfd".to_vec(),
        br#"{"id":8,"input":"```FIND (src/**) TODO\n```"}"#.to_vec(),
    ];
    let mut answers = Vec::new();
    for line in &lines {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut got = String::new();
        stdout.read_line(&mut got).expect("an answer to every line");
        answers.push(serde_json::from_str::<serde_json::Value>(&got).expect("the answer is JSON"));
    }
    let ids: Vec<&serde_json::Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(
        ids,
        [
            &1.into(),
            &2.into(),
            &3.into(),
            &serde_json::Value::Null,
            &5.into(),
            &serde_json::Value::Null,
            &serde_json::Value::Null,
            &8.into()
        ]
    );
    let throws = |i: usize| answers[i]["throws"].as_str().unwrap_or_else(|| panic!("line {i} throws: {}", answers[i])).to_string();
    assert!(throws(1).contains("not valid UTF-8"), "{}", throws(1));
    assert!(throws(3).contains("not a JSON object"), "{}", throws(3));
    assert!(throws(5).contains("over the limit of 4096 bytes"), "{}", throws(5));
    assert!(throws(6).contains("not valid UTF-8"), "{}", throws(6));
    for i in [0, 2, 4, 7] {
        assert!(answers[i].get("result").is_some(), "line {i}: {}", answers[i]);
    }
    // Still alive: one more request is answered; then a closed stdin ends it with 0.
    stdin.write_all(b"{\"id\":9,\"input\":\"```WAIT\\n```\"}\n").unwrap();
    stdin.flush().unwrap();
    let mut got = String::new();
    stdout.read_line(&mut got).unwrap();
    assert!(got.starts_with("{\"id\":9,\"result\""), "{got}");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `plurnk-parser --tables | head`: a reader that closes early ends the program quietly, exit 0.
/// The tables are larger than a pipe holds, so the program is still writing when the reader
/// goes.
#[test]
fn tables_into_a_reader_that_closes_early_exits_0_quietly() {
    use std::io::Read;
    let mut child = bin().arg("--tables").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every entry the README lists works with `--entry`, `parsePath` included (the file holds the
/// path; a refused path exits 1 with its message).
#[test]
fn every_listed_entry_works_from_the_command_line() {
    for entry in ["parse", "parseStatements", "parseClient", "parseReasoning", "operationAttempt", "parsePath"] {
        let out = run_stdin(&["--entry", entry, "--compact", "-"], b"src/a.rs\n");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{entry}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{entry}: {e}"));
        if entry == "parsePath" {
            assert_eq!(v, serde_json::json!({"kind": "local", "raw": "src/a.rs"}));
        }
    }
    let out = run_stdin(&["--entry", "parsePath", "-"], b"https://exa mple.com/\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("plurnk-parser: "));
}

/// `--help` names the exit codes; `--rules DIR` errors name the directory given, not `rules/`.
#[test]
fn help_names_exit_codes_and_rules_errors_name_the_directory() {
    let out = bin().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Exit status") && text.contains("  2  "), "{text}");
    let dir = std::env::temp_dir().join(format!("plurnk-no-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let turn = scratch("turn-for-rules.md", b"x");
    let out = bin().args(["--rules", dir.to_str().unwrap(), turn.to_str().unwrap()]).output().unwrap();
    assert_unreadable(&out, &dir.join("operations.yaml").display().to_string());
}
