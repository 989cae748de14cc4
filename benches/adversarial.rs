//! Time per byte of `parse` on each adversarial family (`adversarial_inputs.rs`, shared with
//! `tests/pairing.rs`) at 10 KB, 100 KB, 1 MB and 10 MB, and the ratio 10 MB / 10 KB per family.
//! The claim is linear time: the ratio stays at or under 1.5.
//!
//! `cargo bench --bench adversarial` (seconds per cell from `PLURNK_BENCH_SECS`, default 0.5; rows
//! from `PLURNK_BENCH_FAMILIES`, a comma list, default all). No
//! assertion: it prints, and marks a family over the claim.

#[path = "adversarial_inputs.rs"]
mod adversarial;

use std::hint::black_box;
use std::time::Instant;

use plurnk_parser::ParseOptions;

const SIZES: &[(usize, &str)] = &[(10_000, "10 KB"), (100_000, "100 KB"), (1_000_000, "1 MB"), (10_000_000, "10 MB")];

/// Nanoseconds per byte of one `parse` of `input`: the best of the rounds run in `secs` (at
/// least three), so a noisy neighbour on a shared machine does not decide the figure.
fn ns_per_byte(input: &str, secs: f64) -> f64 {
    let options = ParseOptions::default();
    black_box(plurnk_parser::parse(input, &options)); // warm-up
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut rounds = 0;
    while rounds < 3 || start.elapsed().as_secs_f64() < secs {
        let t = Instant::now();
        black_box(plurnk_parser::parse(black_box(input), &options));
        best = best.min(t.elapsed().as_nanos() as f64);
        rounds += 1;
    }
    best / input.len() as f64
}

fn main() {
    let secs: f64 = std::env::var("PLURNK_BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let header: Vec<&str> = SIZES.iter().map(|(_, n)| *n).collect();
    println!("ns per byte of `parse` (best of the rounds in {secs} s per cell)");
    println!("| family | {} | 10 MB / 10 KB |", header.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(SIZES.len()));
    // `PLURNK_BENCH_FAMILIES=many-headings,deep-nesting` measures only those rows.
    let only: Option<Vec<String>> =
        std::env::var("PLURNK_BENCH_FAMILIES").ok().filter(|v| !v.is_empty()).map(|v| v.split(',').map(str::to_string).collect());
    for family in adversarial::FAMILIES.iter().filter(|f| only.as_ref().is_none_or(|o| o.iter().any(|x| x == *f))) {
        let mut cells = Vec::new();
        for &(size, _) in SIZES {
            let input = adversarial::build(family, size);
            cells.push(ns_per_byte(&input, secs));
        }
        let ratio = cells[cells.len() - 1] / cells[0];
        let row: Vec<String> = cells.iter().map(|c| format!("{c:.2}")).collect();
        let mark = if ratio <= 1.5 { "" } else { " (over 1.5)" };
        println!("| {family} | {} | {ratio:.2}{mark} |", row.join(" | "));
    }
}
