//! Per-call latency of `parse` and of `parse` + JSON text (what the `--jsonl` helper and every
//! binding return) on the benchmark turns `fixtures/bench/turn-60b.md` and `turn-4k.md`: the Rust
//! row beside the bindings' (`bindings/node/bench/latency.mjs`, `bindings/python/bench.py`).
//! Best of 7 batches of about 0.2 s each, so a busy machine shows in the spread, not the figure.
//! `cargo run --release --example latency`

use std::time::Instant;

use plurnk_parser::{parse, ParseOptions};

fn best(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed().as_secs_f64() < 0.05 {
        f();
        n += 1;
    }
    let batch = (n * 4).max(10);
    (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.elapsed().as_secs_f64() / batch as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let options = ParseOptions::default();
    for name in ["turn-60b.md", "turn-4k.md"] {
        let text = std::fs::read_to_string(format!("{}/fixtures/bench/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let p = best(|| {
            std::hint::black_box(parse(std::hint::black_box(&text), &options));
        });
        let j = best(|| {
            std::hint::black_box(serde_json::to_string(&parse(std::hint::black_box(&text), &options)).unwrap());
        });
        println!("rust {name:12} parse {:7.2} µs/call   parse + JSON text {:7.2} µs/call", p * 1e6, j * 1e6);
    }
}
