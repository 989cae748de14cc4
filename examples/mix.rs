//! What the turns of one reading path cost the others (a measurement, not a benchmark; not in
//! CI). The recorded emissions are grouped by the path `parse` reads them by (`reading_path`).
//! Each row runs a set of those turns in interleaved rounds, corpus order, both parsers alike,
//! with every parse timed on its own, and gives each path's µs per round: first each path alone,
//! then the one-pass turns with each other path's turns added, then every turn. A path whose
//! figure grows from row to row is paying for the other turns' presence in the round, and the
//! growth beside pulldown-cmark's on the same turns says how much of the gap that is.
//!
//!   cargo build --profile bench --example mix
//!   PLURNK_SHARED=../shared target/release/examples/mix          # ROUNDS=3000 by default
//!
//! The clock costs both parsers the same (two reads per parse).
use plurnk_parser::{ParseOptions, ReadingPath};
use std::hint::black_box;
use std::time::Instant;

const PATHS: [(ReadingPath, &str); 3] = [(ReadingPath::OnePass, "one pass"), (ReadingPath::General, "general"), (ReadingPath::Native, "native markup")];

fn main() {
    let shared = std::env::var("PLURNK_SHARED").unwrap_or_else(|_| "../shared".into());
    let file = format!("{shared}/corpus/recorded-emissions.jsonl");
    let Ok(text) = std::fs::read_to_string(&file) else {
        eprintln!("mix: cannot read {file} (set PLURNK_SHARED)");
        std::process::exit(2);
    };
    let inputs: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).ok().and_then(|v| v["input"].as_str().map(str::to_string)).expect("each corpus line holds an input"))
        .collect();
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3000);
    let opts = ParseOptions::default();
    let path: Vec<ReadingPath> = inputs.iter().map(|i| plurnk_parser::reading_path(i, &opts)).collect();
    let of = |keep: &dyn Fn(ReadingPath) -> bool| -> Vec<usize> { (0..inputs.len()).filter(|&k| keep(path[k])).collect() };

    let mut rows: Vec<(String, Vec<usize>)> = Vec::new();
    for (p, name) in PATHS {
        rows.push((format!("{name} alone"), of(&|q| q == p)));
    }
    for (p, name) in &PATHS[1..] {
        rows.push((format!("one pass + {name}"), of(&|q| q == ReadingPath::OnePass || q == *p)));
    }
    rows.push(("every turn".into(), (0..inputs.len()).collect()));

    println!("µs per round of each path's turns, each parse timed inside interleaved rounds ({rounds} rounds)");
    println!("| turns run | path | count | plurnk-parser µs | pulldown-cmark µs | difference µs |");
    println!("|---|---|---:|---:|---:|---:|");
    for (label, set) in &rows {
        if set.is_empty() {
            continue;
        }
        let spent = time_each(&inputs, set, rounds, &opts);
        for (p, name) in PATHS {
            let (ours, peer, n) = set.iter().zip(&spent).filter(|(k, _)| path[**k] == p).fold((0.0, 0.0, 0), |a, (_, t)| (a.0 + t[0], a.1 + t[1], a.2 + 1));
            if n > 0 {
                println!("| {label} | {name} | {n} | {ours:.1} | {peer:.1} | {:+.1} |", ours - peer);
            }
        }
    }
}

/// µs per round spent on each turn of `set` (corpus indices, in order): this parser, then
/// pulldown-cmark into events. Fifty untimed rounds first.
fn time_each(inputs: &[String], set: &[usize], rounds: usize, opts: &ParseOptions) -> Vec<[f64; 2]> {
    let mut spent = vec![[0f64; 2]; set.len()];
    for r in 0..rounds + 50 {
        for side in 0..2 {
            for (k, &i) in set.iter().enumerate() {
                let s = inputs[i].as_str();
                let t = Instant::now();
                if side == 0 {
                    black_box(plurnk_parser::parse(black_box(s), opts));
                } else {
                    let mut n = 0usize;
                    for event in pulldown_cmark::Parser::new_ext(black_box(s), pulldown_cmark::Options::empty()) {
                        black_box(&event);
                        n += 1;
                    }
                    black_box(n);
                }
                if r >= 50 {
                    spent[k][side] += t.elapsed().as_secs_f64();
                }
            }
        }
    }
    spent.iter().map(|t| [t[0] / rounds as f64 * 1e6, t[1] / rounds as f64 * 1e6]).collect()
}
