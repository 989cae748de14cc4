//! `plurnk-parser --jsonl` as a long-lived helper: one request per line in, one response per
//! line out, flushed per line. The test holds the pipes open and writes each request only after
//! reading the response to the one before, as a host runtime does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn requests_are_answered_one_line_at_a_time() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plurnk-parser"))
        .arg("--jsonl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start plurnk-parser --jsonl");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |request: serde_json::Value, blank_first: bool| -> serde_json::Value {
        if blank_first {
            writeln!(stdin).unwrap();
        }
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        // Blocks until the helper answers this request: it must flush per line.
        stdout.read_line(&mut line).expect("a response line");
        assert!(line.ends_with('\n'), "one response per line: {line:?}");
        serde_json::from_str(&line).expect("the response is JSON")
    };
    let turn = "```READ (src/a.rs) <1,40>\n```";
    let cases = [
        (serde_json::json!({"id": 1, "entry": "parse", "input": turn, "options": {}}), "result"),
        (
            serde_json::json!({"id": "two", "entry": "parseStatements", "input": "```python3 (r.py)\nx\n```", "options": {"executors": ["python3"]}}),
            "result",
        ),
        (serde_json::json!({"id": 3, "entry": "parseClient", "input": "```LOOK (known://x)\n```"}), "result"),
        (serde_json::json!({"id": 4, "entry": "parseReasoning", "input": "```NOTE\nthinking\n```"}), "result"),
        (serde_json::json!({"id": 5, "entry": "operationAttempt", "input": "Done.\nREAD (a.md)"}), "result"),
        (serde_json::json!({"id": 6, "entry": "parsePath", "input": "worker:///a.md#x"}), "result"),
        (serde_json::json!({"id": 7, "entry": "parsePath", "input": "http://[::1"}), "throws"),
        (serde_json::json!({"id": 8, "entry": "nope", "input": "x"}), "throws"),
    ];
    for (request, key) in cases {
        let response = ask(request.clone(), false);
        assert_eq!(response["id"], request["id"], "responses come back in order, one per request");
        assert!(response.get(key).is_some(), "{request} answered {response}");
        if key == "result" {
            let entry = request["entry"].as_str().unwrap();
            let want: serde_json::Value = serde_json::from_str(
                &plurnk_parser::__private::call_json(entry, request["input"].as_str().unwrap(), &options_of(&request)).unwrap(),
            )
            .unwrap();
            assert_eq!(response["result"], want, "{entry}");
        }
    }
    // A blank line is skipped, a malformed one answered, and the helper keeps serving.
    let bad = ask(serde_json::json!("not a request object"), true);
    assert!(bad.get("throws").is_some());
    let again = ask(serde_json::json!({"id": 9, "entry": "parse", "input": turn}), false);
    assert_eq!(again["id"], 9);
    drop(stdin);
    assert!(child.wait().unwrap().success(), "the helper exits cleanly at end of input");
}

fn options_of(request: &serde_json::Value) -> plurnk_parser::ParseOptions {
    let executors = request["options"]["executors"].as_array().map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect());
    let mut options = plurnk_parser::ParseOptions::default();
    options.executors = executors;
    options
}

/// §parse-diagnostics: `options.diagnosticIds` adds each diagnostic's stable id to its error
/// object; without it the answer is the contract's, with no id.
#[test]
fn jsonl_diagnostic_ids_only_when_asked() {
    let requests = [
        serde_json::json!({"id": 1, "entry": "parse", "input": "```FROB (x)\n```", "options": {"diagnosticIds": true}}),
        serde_json::json!({"id": 2, "entry": "parse", "input": "```FROB (x)\n```", "options": {}}),
    ];
    let mut child =
        Command::new(env!("CARGO_BIN_EXE_plurnk-parser")).arg("--jsonl").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for r in &requests {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["result"]["items"].as_array().unwrap().iter().filter_map(|i| i["error"]["id"].as_str().map(String::from)).collect()
    };
    assert!(ids(&lines[0]).contains(&"not-an-operation".to_string()), "{}", lines[0]);
    assert!(ids(&lines[1]).is_empty(), "{}", lines[1]);
    assert_eq!(lines[0]["result"]["items"].as_array().unwrap().len(), lines[1]["result"]["items"].as_array().unwrap().len());
}
