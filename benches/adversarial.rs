//! Time per byte of `parse` on each adversarial family (`adversarial_inputs.rs`, shared with
//! `tests/pairing.rs`) at 10 KB, 100 KB, 1 MB and 10 MB, and the ratio 10 MB / 10 KB per family.
//! The claim is linear time: the ratio stays at or under 1.5.
//!
//! A second table times the shapes of `adversarial_inputs::shapes` — rule triggers repeated that
//! were once super-linear, the worst the shape property and the slowness fuzzer met, and every
//! native family's start marker without its end — at 1 MB and 8 MB, with the ratio of their
//! time per byte (the claim: at most 1.5), then a start marker a line for 10 MB and the 350 KB
//! unknown-tool JSON turn in milliseconds. Its times are this
//! thread's CPU time (on a shared machine, the time the parse ran, not the time it waited). With
//! `--features work-count`, each shape's counted work per byte at the larger size too. Memory is
//! reused between rounds at every size (`support/alloc_policy.rs` says why;
//! `PLURNK_BENCH_ALLOC=system` keeps glibc's default policy).
//!
//! `cargo bench --bench adversarial` (seconds per cell from `PLURNK_BENCH_SECS`, default 0.5; rows
//! from `PLURNK_BENCH_FAMILIES`, a comma list of families and shapes, default all;
//! `PLURNK_BENCH_TABLES=shapes` for the second table alone). `cargo bench --bench adversarial --
//! WORD[,WORD…]` measures only the shapes whose name holds a WORD (the second table alone). No assertion:
//! it prints, and marks a row over the claim.

#[path = "adversarial_inputs.rs"]
mod adversarial;

use std::hint::black_box;

#[path = "support/alloc_policy.rs"]
mod alloc_policy;
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

#[path = "support/cputime.rs"]
mod cputime;
use cputime::thread_ns;

/// This thread's CPU nanoseconds per byte of one `parse` of `input`: the best of the rounds run
/// in `secs` (at least two).
fn cpu_ns_per_byte(input: &str, secs: f64) -> f64 {
    let options = ParseOptions::default();
    cpu_ns_per_byte_of(input, secs, |i| {
        black_box(plurnk_parser::parse(black_box(i), &options));
    })
}

/// [`cpu_ns_per_byte`] of any pass `f` over `input`.
fn cpu_ns_per_byte_of(input: &str, secs: f64, f: impl Fn(&str)) -> f64 {
    f(input); // warm-up
    let start = thread_ns();
    let mut best = f64::INFINITY;
    let mut rounds = 0;
    while rounds < 2 || (thread_ns() - start) / 1e9 < secs {
        let t = thread_ns();
        f(input);
        best = best.min(thread_ns() - t);
        rounds += 1;
    }
    best / input.len() as f64
}

/// The floor pass: counts the newlines (memchr), as the line split reads every byte.
fn newlines(input: &str) {
    black_box(memchr::memchr_iter(b'\n', black_box(input).as_bytes()).count());
}

/// Counted work per byte of `input` (with `--features work-count`).
fn work_per_byte(input: &str) -> Option<f64> {
    plurnk_parser::work::reset();
    black_box(plurnk_parser::parse(input, &ParseOptions::default()));
    plurnk_parser::work::total().map(|w| w as f64 / input.len() as f64)
}

/// The second table: the shapes at two sizes, a start marker a line at 10 MB, the 350 KB
/// unknown-tool JSON turn.
fn shapes_table(secs: f64, only: &Option<Vec<String>>) {
    println!();
    println!("this thread's CPU ns per byte of `parse` (best of the rounds in {secs} s per cell)");
    println!("| shape | 1 MB | 8 MB | ratio | work per byte |");
    println!("|---|---:|---:|---:|---:|");
    let word = filter_word();
    let wanted = |name: &str| match &word {
        Some(w) => w.split(',').any(|w| name.contains(w)),
        None => only.as_ref().is_none_or(|o| o.iter().any(|x| x == name)),
    };
    // The memory floor: a pass as fast as memory lets it, at both sizes. Eight megabytes no
    // longer sit in the L2 cache, so a shape parsed near this speed shows the same step in its
    // ratio (the work counted per byte says whether the parse is linear).
    {
        let (a, b) = ("x".repeat(79) + "\n", "x".repeat(79) + "\n");
        let (a, b) = (a.repeat((1 << 20) / 80), b.repeat((8 << 20) / 80));
        let (ta, tb) = (cpu_ns_per_byte_of(&a, secs, newlines), cpu_ns_per_byte_of(&b, secs, newlines));
        println!("| memory floor: one memchr newline pass | {ta:.2} | {tb:.2} | {:.2} | — |", tb / ta);
    }
    for shape in adversarial::shapes().iter().filter(|s| wanted(&s.name)) {
        let (small, large) = (1 << 20, 8 << 20);
        let (a, b) = (shape.build(small), shape.build(large));
        let (ta, tb) = (cpu_ns_per_byte(&a, secs), cpu_ns_per_byte(&b, secs));
        drop(a);
        let work = work_per_byte(&b).map(|w| format!("{w:.1}")).unwrap_or_else(|| "—".into());
        let ratio = tb / ta;
        let mark = if ratio <= 1.5 { "" } else { " (over 1.5)" };
        println!("| {} | {ta:.2} | {tb:.2} | {ratio:.2}{mark} | {work} |", shape.name.replace('|', "\\|"));
    }
    if word.is_some() {
        return;
    }
    let lines = adversarial::start_marker_lines().build(10_000_000);
    println!(
        "| a start marker a line, 10 MB | — | {:.2} | — | {} |",
        cpu_ns_per_byte(&lines, secs),
        work_per_byte(&lines).map(|w| format!("{w:.1}")).unwrap_or_else(|| "—".into())
    );
    drop(lines);
    let json = adversarial::Shape {
        name: String::new(),
        native: true,
        head: String::new(),
        unit: "{\"name\": \"frobnicate\", \"arguments\": {\"x\": 1}}\n".into(),
    }
    .build(350_000);
    let ms = cpu_ns_per_byte(&json, secs) * json.len() as f64 / 1e6;
    let mark = if ms < 5.0 { "" } else { " (over 5 ms)" };
    println!("| unknown-tool JSON turn, {} KB: ms per parse | — | {ms:.2}{mark} | — | — |", json.len() / 1000);
}

/// The first argument that is no flag (`cargo bench --bench adversarial -- WORD`).
fn filter_word() -> Option<String> {
    std::env::args().skip(1).find(|a| !a.starts_with('-'))
}

fn main() {
    println!("allocator: {}", alloc_policy::settle());
    let secs: f64 = std::env::var("PLURNK_BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let only: Option<Vec<String>> =
        std::env::var("PLURNK_BENCH_FAMILIES").ok().filter(|v| !v.is_empty()).map(|v| v.split(',').map(str::to_string).collect());
    if std::env::var("PLURNK_BENCH_TABLES").as_deref() == Ok("shapes") || filter_word().is_some() {
        shapes_table(secs, &only);
        return;
    }
    let header: Vec<&str> = SIZES.iter().map(|(_, n)| *n).collect();
    println!("ns per byte of `parse` (best of the rounds in {secs} s per cell)");
    println!("| family | {} | 10 MB / 10 KB |", header.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(SIZES.len()));
    // `PLURNK_BENCH_FAMILIES=many-headings,deep-nesting` measures only those rows.
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
    shapes_table(secs, &only);
}
