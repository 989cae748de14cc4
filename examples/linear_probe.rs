//! Times `parse` on every rule-built shape (`benches/support/shapes.rs`) at two sizes and prints
//! the shapes whose time grows faster than their size: a search aid for super-linear paths that
//! the work counter does not see yet (time, unlike counted work, sees every loop).
//!
//! `cargo run --release --example linear_probe [SMALL_KB [FACTOR [FILTER]]]` (default 32 4).
//! With `--features work-count` each row also gives the counted work's growth.

#[path = "../benches/support/shapes.rs"]
mod shapes;

use plurnk_parser::ParseOptions;

#[path = "../benches/support/cputime.rs"]
mod cputime;
use cputime::thread_ns;

/// The best of `rounds` parses of `input` (all on the general path with `PROBE_GENERAL` set, so
/// a turn past a short-cut's bound compares with one below it).
fn best_ns(input: &str, rounds: usize) -> f64 {
    let options = ParseOptions::default();
    let general = std::env::var_os("PROBE_GENERAL").is_some();
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = thread_ns();
        if general {
            plurnk_parser::__private::general_path_only(|| {
                std::hint::black_box(plurnk_parser::parse(std::hint::black_box(input), &options))
            });
        } else {
            std::hint::black_box(plurnk_parser::parse(std::hint::black_box(input), &options));
        }
        best = best.min(thread_ns() - t);
    }
    best
}

fn work(input: &str) -> Option<u64> {
    plurnk_parser::work::reset();
    std::hint::black_box(plurnk_parser::parse(input, &ParseOptions::default()));
    plurnk_parser::work::total()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let small: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(32) * 1024;
    let factor: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let filter = args.get(2).cloned().unwrap_or_default();
    let t = shapes::tables(&plurnk_parser::Rules::builtin().tables_json());
    // `PROBE_UNIT=… [PROBE_HEAD=…]` probes that one shape (escapes `\n`, `\r`, `\t` read).
    let unescape = |v: String| v.replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t");
    let all = match std::env::var("PROBE_UNIT") {
        Ok(unit) => vec![shapes::Shape::new("probe", &unescape(std::env::var("PROBE_HEAD").unwrap_or_default()), vec![unescape(unit)], "")],
        Err(_) => shapes::all(&t),
    };
    eprintln!("{} shapes", all.len());
    let mut rows = Vec::new();
    for s in all.iter().filter(|s| s.label().contains(&filter)) {
        let a = s.build(small);
        let b = s.build(small * factor);
        // `PROBE_DUMP=FILE` writes the larger turn of the first shape matched and stops (for a
        // profiler run of the CLI on it).
        if let Ok(path) = std::env::var("PROBE_DUMP") {
            std::fs::write(&path, &b).unwrap();
            eprintln!("wrote {} ({} bytes)", s.label(), b.len());
            return;
        }
        let size_ratio = b.len() as f64 / a.len() as f64;
        let ta = best_ns(&a, 5);
        let tb = best_ns(&b, if ta * 4.0 > 2e7 { 1 } else { 3 });
        let growth = tb / ta / size_ratio;
        let run = |input: &str| {
            std::hint::black_box(plurnk_parser::parse(input, &ParseOptions::default()));
        };
        let wg = plurnk_parser::work::check_growth(&a, &b, run, |i| plurnk_parser::__private::general_path_only(|| run(i))).err();
        let per_byte = work(&b).map(|w| w as f64 / b.len() as f64);
        if growth > 1.6 || wg.is_some() {
            eprintln!("{growth:6.2} {:8.2} ns/B {per_byte:?}/B {}  {}", tb / b.len() as f64, wg.clone().unwrap_or_default(), s.label());
        }
        rows.push((growth, s.label(), tb / b.len() as f64, wg, per_byte));
    }
    rows.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap());
    for (g, label, nspb, wg, per_byte) in rows.iter().take(60) {
        println!("{g:6.2} {nspb:8.2} ns/B {per_byte:?}/B {}  {label}", wg.clone().unwrap_or_default());
    }
}
