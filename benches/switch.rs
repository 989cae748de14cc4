//! What a switch between runners costs: the throughput bench's headline runs this parser and
//! pulldown-cmark in turns of about 20 ms, and each turn starts slower than the one before it
//! ended. Here each runner's rounds over `recorded-emissions.jsonl` are timed one by one right
//! after another workload has run for about as long as a turn; the time above the runner's
//! steady round, summed over the first rounds after the switch, is what the switch cost it.
//!
//! Two controls tell what the other workload takes away: a spin loop (arithmetic only: no
//! memory, a single branch) and this parser itself, over the same turns in reverse order (the
//! same code and branches, met in another sequence). Two more rows time other work of this
//! parser after pulldown-cmark: every turn on the general path alone (`general_path_only`), and
//! `parse_statements` (no text items, no receipt scan). A second table splits the first two rows
//! by the path `parse` reads each turn by, each parse timed on its own.
//!
//! `cargo bench --bench switch` (corpus from `$PLURNK_SHARED/corpus`, default `../shared`;
//! `PLURNK_SWITCHES` switches per row, default 40). No assertion: it prints. Not in CI (timing).

use std::hint::black_box;
use std::time::Instant;

#[path = "support/corpus.rs"]
mod corpus;

use plurnk_parser::__private::ReadingPath;
use plurnk_parser::ParseOptions;

/// Rounds timed after each switch; the steady round is the mean of those from `STEADY_FROM` on.
const ROUNDS: usize = 120;
const STEADY_FROM: usize = 80;

/// The length of one runner's turn in the throughput bench's headline, in µs.
const TURN_US: f64 = 20_000.0;

/// Rounds after a switch up to which the time above steady is summed, column by column.
const MARKS: [usize; 4] = [1, 10, 40, STEADY_FROM];

/// A runner's steady round (the mean from `STEADY_FROM` on) and the time above it summed over
/// the first rounds after the switch, at each of `MARKS`; `round(r)` is round `r`'s time.
fn settle(round: impl Fn(usize) -> f64) -> (f64, [f64; 4]) {
    let steady = (STEADY_FROM..ROUNDS).map(&round).sum::<f64>() / (ROUNDS - STEADY_FROM) as f64;
    (steady, MARKS.map(|n| (0..n).map(|r| round(r) - steady).sum()))
}

/// One row: the timed runner's name, the other workload's, the other workload (one round of
/// it), the timed runner (one round).
type Row<'a> = (&'a str, &'a str, &'a dyn Fn(), &'a dyn Fn());

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let inputs = corpus::corpus_inputs();
    let switches: usize = std::env::var("PLURNK_SWITCHES").ok().and_then(|s| s.parse().ok()).unwrap_or(40).max(1);
    let opts = ParseOptions::default();

    let ours = |i: &str| {
        black_box(plurnk_parser::parse(black_box(i), &opts));
    };
    let peer = |i: &str| {
        for event in pulldown_cmark::Parser::new_ext(black_box(i), pulldown_cmark::Options::empty()) {
            black_box(&event);
        }
    };
    let forward = |f: &dyn Fn(&str)| inputs.iter().for_each(|i| f(i));
    let reverse = |f: &dyn Fn(&str)| inputs.iter().rev().for_each(|i| f(i));
    // As long as a round of this parser, with no memory traffic and one branch.
    let spin = |secs: f64| {
        let t = Instant::now();
        let mut x = 1u64;
        while t.elapsed().as_secs_f64() < secs {
            for k in 0..1000u64 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(k);
            }
        }
        black_box(x);
    };
    // Warm-up: the rule tables and automata are built on first use.
    forward(&ours);
    forward(&peer);
    let t = Instant::now();
    forward(&ours);
    let round = t.elapsed().as_secs_f64();

    println!("each runner's rounds timed one by one after {ROUNDS} rounds of another workload, {switches} switches a row");
    let [m1, m10, m40, m80] = MARKS;
    println!("| timed | run before it | steady round (µs) | above steady after the switch: {m1} round | {m10} rounds | {m40} rounds | {m80} rounds | of a 20 ms turn |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let general = |i: &str| {
        plurnk_parser::__private::general_path_only(|| black_box(plurnk_parser::parse(black_box(i), &opts)));
    };
    let statements = |i: &str| {
        black_box(plurnk_parser::parse_statements(black_box(i), &opts));
    };
    let rows: [Row; 6] = [
        ("plurnk-parser", "pulldown-cmark", &|| forward(&peer), &|| forward(&ours)),
        ("pulldown-cmark", "plurnk-parser", &|| forward(&ours), &|| forward(&peer)),
        ("plurnk-parser", "a spin loop", &|| spin(round), &|| forward(&ours)),
        ("plurnk-parser", "itself, turns in reverse order", &|| reverse(&ours), &|| forward(&ours)),
        ("plurnk-parser, general path only", "pulldown-cmark", &|| forward(&peer), &|| forward(&general)),
        ("plurnk-parser `parse_statements`", "pulldown-cmark", &|| forward(&peer), &|| forward(&statements)),
    ];
    for (timed, before, run_before, run_timed) in rows {
        let mut sum = [0f64; ROUNDS];
        for _ in 0..switches {
            for _ in 0..ROUNDS {
                run_before();
            }
            for s in sum.iter_mut() {
                let t = Instant::now();
                run_timed();
                *s += t.elapsed().as_secs_f64();
            }
        }
        let us = |s: f64| s / switches as f64 * 1e6;
        let (steady, above) = settle(|r| sum[r]);
        let [a1, a10, a40, a80] = above.map(us);
        println!("| {timed} | {before} | {:.1} | {a1:.0} | {a10:.0} | {a40:.0} | {a80:.0} | {:.1}% |", us(steady), a80 / TURN_US * 100.0);
    }

    // The first two rows again, each parse timed on its own and summed by reading path.
    let paths: Vec<ReadingPath> = inputs.iter().map(|i| plurnk_parser::__private::reading_path(i, &opts)).collect();
    let groups = [ReadingPath::OnePass, ReadingPath::General, ReadingPath::Native];
    println!();
    println!("the first two rows by the path `parse` reads each turn by, each parse timed on its own");
    println!("| path | turns | bytes | plurnk-parser: steady (µs) | above steady, {STEADY_FROM} rounds | pulldown-cmark: steady (µs) | above steady, {STEADY_FROM} rounds |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let by_path = |timed: &dyn Fn(&str), before: &dyn Fn(&str)| {
        // `sum[round][turn]`: seconds, over every switch.
        let mut sum = vec![vec![0f64; inputs.len()]; ROUNDS];
        for _ in 0..switches {
            for _ in 0..ROUNDS {
                forward(before);
            }
            for round in sum.iter_mut() {
                for (s, i) in round.iter_mut().zip(&inputs) {
                    let t = Instant::now();
                    timed(i);
                    *s += t.elapsed().as_secs_f64();
                }
            }
        }
        groups.map(|g| {
            let (mut steady, mut above) = (0.0, 0.0);
            for k in (0..inputs.len()).filter(|&k| paths[k] == g) {
                let (s, a) = settle(|r| sum[r][k]);
                steady += s;
                above += a[MARKS.len() - 1];
            }
            (steady / switches as f64 * 1e6, above / switches as f64 * 1e6)
        })
    };
    let mine = by_path(&ours, &peer);
    let theirs = by_path(&peer, &ours);
    for (k, g) in groups.iter().enumerate() {
        let (n, bytes) = paths.iter().zip(&inputs).filter(|(p, _)| *p == g).fold((0, 0), |(n, b), (_, i)| (n + 1, b + i.len()));
        println!("| {g:?} | {n} | {bytes} | {:.1} | {:.0} | {:.1} | {:.0} |", mine[k].0, mine[k].1, theirs[k].0, theirs[k].1);
    }
}
