//! `plurnk-parser`: parse a model turn from a file or stdin, or serve `--jsonl` requests.

use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use plurnk_parser::__private::{call_json, message, ENTRIES};
use plurnk_parser::{Entry, ParseOptions, Rules};

mod batch;

/// Exit codes, shown by `--help`.
const EXIT_CODES: &str = "\
Exit status:
  0  a clean result (no error item, no unparsed tail); `--jsonl`, `--tables` and a closed stdout
     also end with 0
  1  the result holds an error item or an unparsed tail; `operationAttempt` found an attempt;
     `parsePath` refused the path (its message on stderr)
  2  the input or a rule directory cannot be read or is invalid, or stdout failed";

/// Parse PLURNK operations out of one model turn and print the result as JSON.
#[derive(Parser, Debug)]
#[command(name = "plurnk-parser", version, about, long_about = None, after_help = EXIT_CODES)]
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
    /// Entry point for FILE: parse, parseStatements, parseClient, parseReasoning,
    /// operationAttempt or parsePath (FILE holds the path; one final line ending is dropped).
    #[arg(long, default_value = "parse")]
    entry: String,
    /// With `--jsonl`: the longest request line accepted; a longer one is answered with a
    /// `throws` (id null) and skipped without being held in memory.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    max_request_bytes: usize,
    /// Registered executors, comma-separated; `sh` is known whatever the list names.
    #[arg(long, value_delimiter = ',')]
    executors: Option<Vec<String>>,
    /// Compact JSON instead of pretty.
    #[arg(long)]
    compact: bool,
}

fn main() -> ExitCode {
    // `plurnk-parser batch …`: a corpus on N cores (src/batch.rs).
    if std::env::args_os().nth(1).is_some_and(|a| a == "batch") {
        return batch::main(std::env::args_os().enumerate().filter(|(i, _)| *i != 1).map(|(_, a)| a));
    }
    let cli = Cli::parse();
    let rules: Option<Arc<Rules>> = match &cli.rules {
        Some(dir) => match Rules::from_dir(dir) {
            Ok(r) => Some(Arc::new(r)),
            Err(e) => {
                eprintln!("plurnk-parser: invalid rules: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    if cli.tables {
        let text = rules.as_deref().unwrap_or(Rules::builtin()).tables_json();
        let mut out = io::stdout().lock();
        return finish_write(writeln!(out, "{text}").and_then(|_| out.flush()), ExitCode::SUCCESS);
    }
    if cli.jsonl {
        return serve(rules, cli.max_request_bytes);
    }
    let entry = match cli.entry.as_str() {
        "parse" => Entry::Parse,
        "parseStatements" => Entry::Statements,
        "parseClient" => Entry::Client,
        "parseReasoning" | "operationAttempt" | "parsePath" => Entry::Parse,
        other => {
            let entries = ENTRIES.join(", ");
            eprintln!("plurnk-parser: {}", message("embed.unknown-entry", &[("entry", other), ("entries", &entries)]));
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
    let mut options = ParseOptions::default();
    options.executors = cli.executors.clone();
    options.rules = rules;
    // Written straight to stdout: a large turn's JSON is never held in memory as a whole.
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut write = |value: &dyn erased::Json, code: ExitCode| {
        let written = value.write(&mut out, cli.compact).map_err(io::Error::from).and_then(|_| writeln!(out)).and_then(|_| out.flush());
        finish_write(written, code)
    };
    match cli.entry.as_str() {
        "parseReasoning" => {
            let result = plurnk_parser::parse_reasoning(&input, &options);
            let code = if result.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS };
            write(&result, code)
        }
        "operationAttempt" => {
            // `null` for prose; exit 1 when the emission attempts an operation.
            let attempt = plurnk_parser::operation_attempt(&input, &options);
            let code = if attempt.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS };
            write(&attempt, code)
        }
        "parsePath" => {
            let path = input.strip_suffix('\n').map(|p| p.strip_suffix('\r').unwrap_or(p)).unwrap_or(&input);
            match plurnk_parser::parse_path(path) {
                Ok(target) => write(&target, ExitCode::SUCCESS),
                Err(message) => {
                    eprintln!("plurnk-parser: {message}");
                    ExitCode::from(1)
                }
            }
        }
        _ => {
            let result = plurnk_parser::run(&input, &options, entry);
            let code = if result.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS };
            write(&result, code)
        }
    }
}

/// Writing JSON of any result type through one closure.
mod erased {
    pub trait Json {
        fn write(&self, out: &mut dyn std::io::Write, compact: bool) -> serde_json::Result<()>;
    }
    impl<T: serde::Serialize> Json for T {
        fn write(&self, out: &mut dyn std::io::Write, compact: bool) -> serde_json::Result<()> {
            if compact {
                serde_json::to_writer(out, self)
            } else {
                serde_json::to_writer_pretty(out, self)
            }
        }
    }
}

/// The exit code after writing to stdout: `code` when the write succeeded; 0, quietly, when the
/// reader closed the pipe (`plurnk-parser --tables | head`); 2 with a message otherwise.
fn finish_write(written: io::Result<()>, code: ExitCode) -> ExitCode {
    match written {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plurnk-parser: cannot write to stdout: {e}");
            ExitCode::from(2)
        }
    }
}

/// The long-lived `--jsonl` helper: one request per line in, one response per line out, in
/// order. No request line stops it: a line that is not UTF-8, not a JSON request, over the size
/// limit, or that makes the parser panic gets one `{"id", "throws"}` (id `null` when it cannot
/// be read) and the loop goes on. A closed stdout ends it quietly.
fn serve(rules: Option<Arc<Rules>>, max: usize) -> ExitCode {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        let size = match read_request(&mut input, &mut line, max) {
            Ok(Some(size)) => size,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("plurnk-parser: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
        };
        let Some(response) = answer(&line, size, max, &rules) else { continue };
        let written = writeln!(out, "{response}").and_then(|_| out.flush());
        if written.is_err() {
            return finish_write(written, ExitCode::SUCCESS);
        }
    }
}

/// The response to one request line of `size` bytes (`line` holds at most `max + 1` of them), or
/// `None` for a blank line, which gets none. `--jsonl` and `batch` answer every line through it.
fn answer(line: &[u8], size: usize, max: usize, rules: &Option<Arc<Rules>>) -> Option<String> {
    if size > max {
        let (size, limit) = (size.to_string(), max.to_string());
        return Some(throws(&serde_json::Value::Null, "embed.request-too-large", &[("size", &size), ("limit", &limit)]));
    }
    Some(match std::str::from_utf8(line) {
        Ok(text) if text.trim().is_empty() => return None,
        Ok(text) => respond(text, rules),
        Err(e) => {
            // The id, if the rest of the line still reads as a request.
            let lossy = String::from_utf8_lossy(line);
            let id = serde_json::from_str::<serde_json::Value>(&lossy).ok().and_then(|v| v.get("id").cloned()).unwrap_or_default();
            throws(&id, "embed.request-not-utf8", &[("at", &e.valid_up_to().to_string())])
        }
    })
}

/// Reads one request line (without its line ending) into `line`, keeping at most `max` bytes:
/// the rest of a longer line is read and dropped. The line's whole size, or `None` at the end.
fn read_request(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Option<usize>> {
    line.clear();
    let mut size = 0usize;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(size));
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        let room = (max + 1).saturating_sub(line.len()).min(take);
        line.extend_from_slice(&buf[..room]);
        size += take;
        input.consume(take + usize::from(done));
        if done {
            if line.last() == Some(&b'\r') && size <= max {
                line.pop();
                size -= 1;
            }
            return Ok(Some(size));
        }
    }
}

/// `{"id", "throws"}` with the message `id` of `rules/diagnostics.yaml`.
fn throws(id: &serde_json::Value, message: &str, args: &[(&str, &str)]) -> String {
    serde_json::json!({"id": id, "throws": plurnk_parser::__private::message(message, args)}).to_string()
}

fn respond(line: &str, rules: &Option<Arc<Rules>>) -> String {
    let req: serde_json::Value = match serde_json::from_str(line) {
        Ok(v @ serde_json::Value::Object(_)) => v,
        Ok(_) => return throws(&serde_json::Value::Null, "embed.request-not-json", &[("error", "not an object")]),
        Err(e) => return throws(&serde_json::Value::Null, "embed.request-not-json", &[("error", &e.to_string())]),
    };
    let id = req.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let input = match req.get("input").and_then(|v| v.as_str()) {
        Some(s) => s,
        None => return throws(&id, "embed.request-no-input", &[]),
    };
    let request_options = req.get("options");
    let mut options = ParseOptions::default();
    options.executors = request_options
        .and_then(|o| o.get("executors"))
        .and_then(|e| e.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect());
    options.rules = rules.clone();
    // `diagnosticIds: true` adds each diagnostic's stable id to its JSON (ParseOptions::with_diagnostic_ids).
    options.diagnostic_ids = request_options.and_then(|o| o.get("diagnosticIds")).and_then(|v| v.as_bool()).unwrap_or(false);
    let entry = req.get("entry").and_then(|v| v.as_str()).unwrap_or("parse");
    // Serialized straight from the result so field order is the contract's; every entry point
    // (parse, parseStatements, parseClient, parseReasoning, operationAttempt, parsePath); a
    // panic is caught there and answered as this request's `throws`.
    match call_json(entry, input, &options) {
        Ok(json) => format!("{{\"id\":{},\"result\":{}}}", id, json),
        Err(message) => serde_json::json!({"id": id, "throws": message}).to_string(),
    }
}
