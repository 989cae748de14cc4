//! `plurnk-parser batch`: its output is byte for byte `--jsonl`'s for the same requests, in input
//! order, whatever the number of jobs; piped, it draws no progress bar and reports throughput.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "support/shared.rs"]
mod support;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_plurnk-parser"))
}

/// Every corpus case as a request line (the corpus lines carry `expected` too; requests do not);
/// `None` without the shared corpus.
fn corpus_requests() -> Option<String> {
    let mut out = String::new();
    let mut files: Vec<_> = std::fs::read_dir(support::shared()?.join("corpus")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files.iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        for line in std::fs::read_to_string(f).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let req = serde_json::json!({"id": case["id"], "entry": case["entry"], "input": case["input"], "options": case["options"]});
            out.push_str(&req.to_string());
            out.push('\n');
        }
    }
    Some(out)
}

fn jsonl(requests: &str) -> Vec<u8> {
    let mut child = bin().arg("--jsonl").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = requests.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success());
    out.stdout
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plurnk-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn batch_output_equals_jsonl_on_the_corpus_in_input_order() {
    // Repeated with blank lines and CRLF endings between, so blocks hold many lines and the
    // order across blocks and threads is exercised.
    let Some(one) = corpus_requests() else { return };
    let mut requests = String::new();
    for i in 0..4 {
        requests.push_str(&one);
        requests.push_str(if i % 2 == 0 { "\n" } else { "\r\n" });
    }
    let want = jsonl(&requests);
    assert_eq!(want.iter().filter(|&&b| b == b'\n').count(), 4 * one.lines().count());
    let input = temp("requests.jsonl");
    std::fs::write(&input, &requests).unwrap();
    for jobs in ["1", "2", "3"] {
        let out_path = temp(&format!("out-{jobs}.jsonl"));
        let run = bin().args(["batch"]).arg(&input).arg(&out_path).args(["--jobs", jobs]).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        assert!(std::fs::read(&out_path).unwrap() == want, "batch --jobs {jobs} differs from --jsonl");
        let err = String::from_utf8(run.stderr).unwrap();
        assert!(err.contains(&format!("{} requests", 4 * one.lines().count())) && err.contains("MB/s"), "{err}");
        // Piped stderr: no bar, no cursor movement.
        assert!(!err.contains('\r') && !err.contains('\u{1b}'), "{err:?}");
    }
    // Standard input and output.
    let mut child =
        bin().args(["batch", "-", "--jobs", "2"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = requests.clone();
    let feeder = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.stdout == want);
}

/// A line that is not UTF-8, or longer than `--max-request-bytes`, gets `--jsonl`'s answer in its
/// place, and the run goes on.
#[test]
fn batch_answers_unreadable_and_oversized_lines_as_jsonl_does() {
    let mut requests = b"{\"id\":1,\"input\":\"```READ (a.md)\\n```\"}\n{\"id\":2,\"input\":\"caf\xe9\"}\n".to_vec();
    requests.extend_from_slice(format!("{{\"id\":3,\"input\":\"{}\"}}\n\n{{\"id\":4,\"input\":\"x\"}}\n", "y".repeat(300)).as_bytes());
    let input = temp("unreadable.jsonl");
    std::fs::write(&input, &requests).unwrap();
    let mut child = bin().args(["--jsonl", "--max-request-bytes", "200"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(&requests).unwrap();
    let want = child.wait_with_output().unwrap().stdout;
    let run = bin().args(["batch"]).arg(&input).args(["--jobs", "2", "--max-request-bytes", "200"]).output().unwrap();
    assert!(run.status.success());
    assert_eq!(String::from_utf8(run.stdout).unwrap(), String::from_utf8(want).unwrap());
}

#[test]
fn batch_answers_a_bad_line_in_place() {
    let requests =
        "{\"id\":1,\"entry\":\"parse\",\"input\":\"```READ (a.md)\\n```\"}\nnot json\n{\"id\":3,\"entry\":\"nope\",\"input\":\"x\"}\n";
    let input = temp("bad.jsonl");
    std::fs::write(&input, requests).unwrap();
    let run = bin().args(["batch"]).arg(&input).args(["--jobs", "2"]).output().unwrap();
    assert!(run.status.success());
    assert_eq!(run.stdout, jsonl(requests));
    let lines: Vec<&str> = std::str::from_utf8(&run.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].contains("\"throws\"") && lines[2].contains("\"id\":3"));
}
