//! `plurnk-parser`: parse a model turn from a file or stdin, or serve `--jsonl` requests.

use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use plurnk_parser::{rules::Rules, Entry, ParseOptions};

/// Parse PLURNK operations out of one model turn and print the result as JSON.
///
/// Exit status: 0 for a clean parse, 1 when an error item or an unparsed tail is present,
/// 2 when the input cannot be read or a rule directory is invalid.
#[derive(Parser, Debug)]
#[command(name = "plurnk-parser", version, about, long_about = None)]
struct Cli {
    /// The turn to parse; `-` or nothing reads stdin.
    file: Option<PathBuf>,
    /// Serve requests: one `{"id","entry","input","options"}` per stdin line, one
    /// `{"id","result"}` or `{"id","throws"}` per stdout line, flushed per line.
    #[arg(long)]
    jsonl: bool,
    /// Print the compiled rule tables (`tables.json`) and exit.
    #[arg(long)]
    tables: bool,
    /// Load and validate the rule files in DIR instead of the built-in rules.
    #[arg(long, value_name = "DIR")]
    rules: Option<PathBuf>,
    /// Entry point for FILE: parse, parseStatements, parseClient, parseReasoning or
    /// operationAttempt.
    #[arg(long, default_value = "parse")]
    entry: String,
    /// Registered executors, comma-separated (default: the rule set's, `sh`).
    #[arg(long, value_delimiter = ',')]
    executors: Option<Vec<String>>,
    /// Compact JSON instead of pretty.
    #[arg(long)]
    compact: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let rules: Option<Arc<Rules>> = match &cli.rules {
        Some(dir) => match Rules::from_dir(dir, None) {
            Ok(r) => Some(Arc::new(r)),
            Err(e) => {
                eprintln!("plurnk-parser: invalid rules: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    if cli.tables {
        let text = match &rules {
            Some(r) => serde_json::to_string_pretty(&r.tables).unwrap(),
            None => plurnk_parser::rules::BUILTIN_TABLES_JSON.to_string(),
        };
        println!("{text}");
        return ExitCode::SUCCESS;
    }
    if cli.jsonl {
        return serve(rules);
    }
    let entry = match cli.entry.as_str() {
        "parse" => Entry::Parse,
        "parseStatements" => Entry::Statements,
        "parseClient" => Entry::Client,
        "parseReasoning" | "operationAttempt" => Entry::Parse,
        other => {
            eprintln!("plurnk-parser: unknown entry `{other}` (parse, parseStatements, parseClient, parseReasoning, operationAttempt)");
            return ExitCode::from(2);
        }
    };
    let bytes = match &cli.file {
        Some(p) if p.as_os_str() != "-" => match std::fs::read(p) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("plurnk-parser: cannot read {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        _ => {
            let mut b = Vec::new();
            if let Err(e) = io::stdin().read_to_end(&mut b) {
                eprintln!("plurnk-parser: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
            b
        }
    };
    let input = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let name = cli.file.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "stdin".into());
            eprintln!("plurnk-parser: {name} is not valid UTF-8 (invalid byte at offset {at})");
            return ExitCode::from(2);
        }
    };
    let options = ParseOptions { executors: cli.executors.clone(), rules };
    let result = match cli.entry.as_str() {
        "parseReasoning" => plurnk_parser::parse_reasoning(&input, &options),
        "operationAttempt" => {
            // `null` for prose; exit 1 when the emission attempts an operation.
            let attempt = plurnk_parser::operation_attempt(&input, &options);
            let json = if cli.compact { serde_json::to_string(&attempt) } else { serde_json::to_string_pretty(&attempt) }.unwrap();
            let _ = writeln!(io::stdout().lock(), "{json}");
            return if attempt.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS };
        }
        _ => plurnk_parser::run(&input, &options, entry),
    };
    // Written straight to stdout: a large turn's JSON is never held in memory as a whole.
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = if cli.compact { serde_json::to_writer(&mut out, &result) } else { serde_json::to_writer_pretty(&mut out, &result) };
    if written.is_err() || writeln!(out).and_then(|_| out.flush()).is_err() {
        eprintln!("plurnk-parser: cannot write the result to stdout");
        return ExitCode::from(2);
    }
    if result.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The long-lived `--jsonl` helper: one request per line in, one response per line out.
fn serve(rules: Option<Arc<Rules>>) -> ExitCode {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("plurnk-parser: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let response = respond(&line, &rules);
        let _ = writeln!(out, "{response}");
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}

fn respond(line: &str, rules: &Option<Arc<Rules>>) -> String {
    let req: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return serde_json::json!({"id": null, "throws": format!("invalid request: {e}")}).to_string(),
    };
    let id = req.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let input = match req.get("input").and_then(|v| v.as_str()) {
        Some(s) => s,
        None => return serde_json::json!({"id": id, "throws": "request has no string `input`"}).to_string(),
    };
    let executors = req
        .get("options")
        .and_then(|o| o.get("executors"))
        .and_then(|e| e.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect());
    let options = ParseOptions { executors, rules: rules.clone() };
    let entry = req.get("entry").and_then(|v| v.as_str()).unwrap_or("parse");
    // Serialized straight from the result so field order is the contract's; every entry point
    // (parse, parseStatements, parseClient, parseReasoning, operationAttempt, parsePath).
    match plurnk_parser::entry::call_json(entry, input, &options) {
        Ok(json) => format!("{{\"id\":{},\"result\":{}}}", id, json),
        Err(message) => serde_json::json!({"id": id, "throws": message}).to_string(),
    }
}
