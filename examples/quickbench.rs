//! A profiling driver (not a benchmark: `cargo bench` prints the figures). Parses every recorded
//! emission, or the file named by `QB_FILE`, repeatedly and prints MB/s; `ROUNDS=n` fixes the
//! number of passes so `perf`/callgrind runs are comparable.
//!
//!   cargo build --profile bench --example quickbench
//!   QB_FILE=turn.md ROUNDS=200 perf record target/release/examples/quickbench
//!   ROUNDS=20 valgrind --tool=callgrind --toggle-collect='*quickbench::passes' target/release/examples/quickbench
//!
//! `QB_PEER=pulldown` runs pulldown-cmark over the same inputs instead (into events, as the
//! throughput benchmark does), so the two instruction counts can be set side by side.
fn main() {
    let inputs: Vec<String> = match std::env::var("QB_FILE") {
        Ok(path) => vec![std::fs::read_to_string(path).expect("QB_FILE is a readable UTF-8 file")],
        Err(_) => {
            let shared = std::env::var("PLURNK_SHARED").unwrap_or_else(|_| "../shared".into());
            let text = std::fs::read_to_string(format!("{shared}/corpus/recorded-emissions.jsonl")).expect("the corpus");
            let all: Vec<String> = text
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["input"].as_str().unwrap().to_string())
                .collect();
            // `QB_IDS=3,17,…` keeps those inputs (0-based corpus lines), in that order.
            match std::env::var("QB_IDS") {
                Ok(ids) => ids.split(',').map(|k| all[k.trim().parse::<usize>().expect("QB_IDS holds line numbers")].clone()).collect(),
                Err(_) => all,
            }
        }
    };
    let bytes: usize = inputs.iter().map(|s| s.len()).sum();
    let opts = plurnk_parser::ParseOptions::default();
    // One untimed pass first: the rule tables and native automata are built on first use, and a
    // profile toggled on `passes` (`valgrind --toggle-collect='*quickbench::passes'`) then counts
    // only the steady state, result drops included.
    for i in &inputs {
        std::hint::black_box(plurnk_parser::parse(i, &opts));
    }
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    let t = std::time::Instant::now();
    let n = if rounds > 0 {
        passes(&inputs, &opts, rounds);
        rounds
    } else {
        let mut n = 0;
        while t.elapsed().as_secs_f64() < 3.0 {
            passes(&inputs, &opts, 1);
            n += 1;
        }
        n
    };
    let secs = t.elapsed().as_secs_f64();
    println!("{:.1} MB/s ({} rounds, {} bytes)", (bytes * n) as f64 / secs / 1e6, n, bytes);
}

#[inline(never)]
fn passes(inputs: &[String], opts: &plurnk_parser::ParseOptions, rounds: usize) {
    let peer = std::env::var("QB_PEER").map(|p| p == "pulldown").unwrap_or(false);
    for _ in 0..rounds {
        for i in inputs {
            if peer {
                let mut n = 0usize;
                for event in pulldown_cmark::Parser::new_ext(std::hint::black_box(i), pulldown_cmark::Options::empty()) {
                    std::hint::black_box(&event);
                    n += 1;
                }
                std::hint::black_box(n);
            } else {
                std::hint::black_box(plurnk_parser::parse(i, opts));
            }
        }
    }
}
