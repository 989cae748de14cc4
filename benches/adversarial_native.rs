//! Time per byte of `parse` on native tool-call shapes built to be slow (§native-tool-calls,
//! §native-tool-call-receipt) at 4 MB and 32 MB, and the ratio 32 MB / 4 MB per shape; then the
//! time of one 350 KB turn of unknown-tool JSON lines, and of one of JSON lines no family takes.
//! The markers come from the built-in rule tables (`BUILTIN_TABLES_JSON`), so a family added in
//! YAML joins the shapes without an edit here. The claim is linear time: the ratio stays at or
//! under 1.5. Memory is reused between rounds at every size (`support/alloc_policy.rs` says why;
//! `PLURNK_BENCH_ALLOC=system` keeps glibc's default policy).
//!
//! `cargo bench --bench adversarial_native` (seconds per cell from `PLURNK_BENCH_SECS`, default
//! 0.5; rows from `PLURNK_BENCH_SHAPES`, a comma list, default all; sizes from
//! `PLURNK_BENCH_MB`, default `4,32`; `PLURNK_BENCH_DUMP=dir` writes the inputs instead). No
//! assertion: it prints, and marks a shape over the claim.

use std::hint::black_box;

#[path = "support/alloc_policy.rs"]
mod alloc_policy;
use std::time::Instant;

use plurnk_parser::ParseOptions;

/// Every family's block start markers and element-form tags, from the rule tables.
fn markers() -> (Vec<String>, Vec<(String, String)>) {
    let tables: serde_json::Value = serde_json::from_str(&plurnk_parser::Rules::builtin().tables_json()).expect("the tables parse");
    let mut starts = Vec::new();
    let mut elements = Vec::new();
    for family in tables["native"].as_array().into_iter().flatten() {
        for block in family["blocks"].as_array().into_iter().flatten() {
            for s in block["start"].as_array().into_iter().flatten().filter_map(|s| s.as_str()) {
                starts.push(s.to_string());
            }
            for form in block["forms"].as_array().into_iter().flatten() {
                let first = |k: &str| form[k].as_array().and_then(|a| a.first()).and_then(|v| v.as_str()).map(str::to_string);
                if let (Some(call), Some(param)) = (first("calls"), first("parameters")) {
                    let (name_attr, param_attr) =
                        (first("name_attributes").unwrap_or_default(), first("parameter_attributes").unwrap_or_default());
                    let (open, sep) = match form["shape"].as_str() {
                        Some("tags") => (first("open").unwrap_or_default(), first("tag_end").unwrap_or_default()),
                        _ => ("<".to_string(), ">".to_string()),
                    };
                    elements
                        .push((format!("{open}{call} {name_attr}=\"READ\"{sep}\n"), format!("{open}{param} {param_attr}=\"path\"{sep}")));
                }
            }
        }
    }
    starts.sort();
    starts.dedup();
    elements.sort();
    elements.dedup();
    (starts, elements)
}

const SHAPES: &[&str] = &[
    "starts-per-line",
    "starts-one-line",
    "start-then-unknown-json",
    "unknown-json-lines",
    "unnamed-json-lines",
    "python-literal-lines",
    "reasoning-spans",
    "unterminated-json-strings",
    "unterminated-parameters",
    "nested-json-arguments",
    "python-calls-unclosed",
    "python-lists-over-lines",
    "call-tags-unterminated",
];

/// Builds `shape` at about `size` bytes.
fn build(shape: &str, size: usize, starts: &[String], elements: &[(String, String)]) -> String {
    let mut s = String::with_capacity(size + 256);
    let mut i = 0usize;
    match shape {
        // Every family's start marker, each on its own line with a little text, none closed.
        "starts-per-line" => {
            while s.len() < size {
                s.push_str(&starts[i % starts.len()]);
                s.push_str(" x\n");
                i += 1;
            }
        }
        // The same on one line.
        "starts-one-line" => {
            while s.len() < size {
                s.push_str(&starts[i % starts.len()]);
                s.push(' ');
                i += 1;
            }
        }
        // Each start marker followed by a JSON call naming an unknown tool, never ended.
        "start-then-unknown-json" => {
            while s.len() < size {
                s.push_str(&starts[i % starts.len()]);
                s.push_str(&format!("{{\"name\": \"tool_{}\", \"arguments\": {{\"a\": {i}}}}}\n", i % 97));
                i += 1;
            }
        }
        // Lines of bare JSON calls naming unknown tools, under every name key.
        "unknown-json-lines" => {
            let keys = ["name", "op", "action", "tool_name", "function"];
            while s.len() < size {
                s.push_str(&format!("{{\"{}\": \"tool_{}\", \"arguments\": {{\"a\": {i}}}}}\n", keys[i % keys.len()], i % 97));
                i += 1;
            }
        }
        // Lines of bare JSON that no family takes for a block, so the scan reads every one: keys
        // only a by-name family reads (naming no tool it knows), and a name key beside a key the
        // strict families refuse.
        "unnamed-json-lines" => {
            while s.len() < size {
                let line = match i % 4 {
                    0 => format!("{{\"op\": \"tool_{}\", \"path\": \"f{i}.md\"}}\n", i % 97),
                    1 => format!("{{\"action\": \"tool_{}\", \"arguments\": {{\"a\": {i}}}}}\n", i % 97),
                    2 => format!("{{\"tool_name\": \"tool_{}\", \"parameters\": {{\"a\": {i}}}}}\n", i % 97),
                    _ => format!("{{\"name\": \"tool_{}\", \"arguments\": {{\"a\": {i}}}, \"note\": {i}}}\n", i % 97),
                };
                s.push_str(&line);
                i += 1;
            }
        }
        // Lines of Python literal lists quoting no name key (a list block per line, never read).
        "python-literal-lines" => {
            while s.len() < size {
                s.push_str(&format!("[{{'path': 'f{i}.md', 'lines': {i}, 'ok': True}}]\n"));
                i += 1;
            }
        }
        // Calls inside reasoning spans, stray closings between them, and calls after each span
        // naming unknown tools (every block asks where the spans lie).
        "reasoning-spans" => {
            while s.len() < size {
                s.push_str(&format!(
                    "<think>\n<tool_call>\n{{\"name\": \"READ\", \"arguments\": {{\"path\": \"f{i}.md\"}}}}\n</tool_call>\n</think>\n</think>\n<tool_call>\n{{\"name\": \"tool_{}\", \"arguments\": {{}}}}\n</tool_call>\n",
                    i % 97
                ));
                i += 1;
            }
        }
        // Lines of JSON calls whose arguments string never ends.
        "unterminated-json-strings" => {
            while s.len() < size {
                s.push_str("{\"name\": \"x\", \"arguments\": \"a\n");
            }
        }
        // An opened call of every element family, then its parameter opened again and again.
        "unterminated-parameters" => {
            let per = size / elements.len().max(1);
            for (call, param) in elements {
                let stop = s.len() + per;
                s.push_str(call);
                while s.len() < stop {
                    s.push_str(param);
                    s.push('\n');
                }
            }
        }
        // One call whose arguments nest objects and arrays as deep as the input allows.
        "nested-json-arguments" => {
            s.push_str("<tool_call>\n{\"name\": \"READ\", \"arguments\": ");
            while s.len() < size {
                s.push_str(if i.is_multiple_of(2) { "{\"a\": " } else { "[" });
                i += 1;
            }
        }
        // Python-style call lists opened and never closed.
        "python-calls-unclosed" => {
            while s.len() < size {
                s.push_str(&format!("[READ(path=\"f{}.md\", note='it''s ", i % 100));
                i += 1;
            }
        }
        // Python call lists over lines, never closed: a `[` alone, then calls cut at each
        // line's end, each line opening a list again (each looks for its `]` to the end).
        "python-lists-over-lines" => {
            while s.len() < size {
                s.push_str(if i.is_multiple_of(3) { "[\n" } else { "[READ(path=\"f.md\", note='it\\'s',\n" });
                i += 1;
            }
        }
        // The call element of every `elements` and `tags` form, its tag never ended (a `tags`
        // call opens with no section around it).
        "call-tags-unterminated" => {
            while s.len() < size {
                let (call, _) = &elements[i % elements.len()];
                s.push_str(call.trim_end_matches('\n').trim_end_matches(|c: char| c != '"'));
                s.push('\n');
                i += 1;
            }
        }
        other => panic!("unknown shape {other}"),
    }
    s
}

/// Nanoseconds per byte of one `parse` of `input`: the best of the rounds run in `secs` (at
/// least two), so a noisy neighbour on a shared machine does not decide the figure.
fn ns_per_byte(input: &str, secs: f64) -> f64 {
    let options = ParseOptions::default();
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut rounds = 0;
    while rounds < 2 || start.elapsed().as_secs_f64() < secs {
        let t = Instant::now();
        black_box(plurnk_parser::parse(black_box(input), &options));
        best = best.min(t.elapsed().as_nanos() as f64);
        rounds += 1;
    }
    best / input.len() as f64
}

fn main() {
    println!("allocator: {}", alloc_policy::settle());
    let secs: f64 = std::env::var("PLURNK_BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let sizes: Vec<usize> = std::env::var("PLURNK_BENCH_MB")
        .ok()
        .map(|v| v.split(',').filter_map(|m| m.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![4, 32]);
    let only: Option<Vec<String>> = std::env::var("PLURNK_BENCH_SHAPES").ok().map(|v| v.split(',').map(str::to_string).collect());
    let (starts, elements) = markers();
    // `PLURNK_BENCH_DUMP=dir` writes each shape's input at each size there (to profile one with
    // `examples/quickbench`'s `QB_FILE`) and measures nothing.
    if let Ok(dir) = std::env::var("PLURNK_BENCH_DUMP") {
        for shape in SHAPES.iter().filter(|s| only.as_ref().is_none_or(|o| o.iter().any(|x| x == *s))) {
            for &mb in &sizes {
                let path = format!("{dir}/{shape}-{mb}.md");
                std::fs::write(&path, build(shape, mb << 20, &starts, &elements)).expect("the dump directory is writable");
                println!("{path}");
            }
        }
        return;
    }
    println!("{} start markers and {} element forms from the rule tables", starts.len(), elements.len());
    println!("ns per byte of `parse` (best of the rounds in {secs} s per cell)");
    let header: Vec<String> = sizes.iter().map(|m| format!("{m} MB")).collect();
    println!("| shape | {} | last / first |", header.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(sizes.len()));
    for shape in SHAPES.iter().filter(|s| only.as_ref().is_none_or(|o| o.iter().any(|x| x == *s))) {
        let cells: Vec<f64> = sizes.iter().map(|&mb| ns_per_byte(&build(shape, mb << 20, &starts, &elements), secs)).collect();
        let ratio = cells.last().unwrap_or(&0.0) / cells.first().unwrap_or(&1.0);
        let mark = if ratio > 1.5 { " (over 1.5)" } else { "" };
        let shown: Vec<String> = cells.iter().map(|c| format!("{c:.2}")).collect();
        println!("| {shape} | {} | {ratio:.2}{mark} |", shown.join(" | "));
    }
    println!();
    for (shape, what) in [("unknown-json-lines", "unknown-tool JSON lines"), ("unnamed-json-lines", "JSON lines no family takes")] {
        let turn = build(shape, 350 << 10, &starts, &elements);
        let ms = ns_per_byte(&turn, secs) * turn.len() as f64 / 1e6;
        println!("one 350 KB turn of {what} ({} bytes): {ms:.2} ms per parse", turn.len());
    }
}
