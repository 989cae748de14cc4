//! The pairing search's bounds (§fence-pairing, §pairing-algorithm): on every adversarial
//! family the block stack stays within `max_depth` and the readings kept per fence line within
//! twice `max_candidates` (complete and repaired), whatever the input size, so the pass is
//! linear. Timing lives in `benches/adversarial.rs`; this asserts the bounds that make it so.

#[path = "../benches/adversarial_inputs.rs"]
mod adversarial;

use plurnk_parser::{pairing_stats, parse, ParseOptions, Rules};

fn bounds() -> (usize, usize) {
    let p = &Rules::builtin().tables.pairing;
    (p.max_depth as usize, p.max_candidates as usize)
}

#[test]
fn fence_pairing_bounds_hold_on_adversarial_families() {
    let (max_depth, max_candidates) = bounds();
    let options = ParseOptions::default();
    for family in adversarial::FAMILIES {
        for size in [1_000, 20_000, 100_000] {
            let input = adversarial::build(family, size);
            let stats = pairing_stats(&input, &options);
            assert!(stats.max_depth <= max_depth, "{family} at {size}: depth {} > {max_depth}", stats.max_depth);
            assert!(stats.max_readings <= 2 * max_candidates, "{family} at {size}: {} readings", stats.max_readings);
            assert!(stats.max_history <= plurnk_parser::pair::HISTORY_CAP + 8 * 2 * max_candidates, "{family} at {size}: history {}", stats.max_history);
            // And the parse completes with a result.
            let _ = parse(&input, &options);
        }
    }
}

#[test]
fn fence_pairing_depth_bound_reads_deeper_fences_as_body() {
    // Nesting 10,000 deep inside a message: the stack stops at max_depth and the message still
    // holds every byte.
    let (max_depth, _) = bounds();
    let mut input = String::from("```SEND\n");
    for _ in 0..10_000 {
        input.push_str("```a\n");
    }
    for _ in 0..10_000 {
        input.push_str("```\n");
    }
    let stats = pairing_stats(&input, &ParseOptions::default());
    assert_eq!(stats.max_depth, max_depth);
    let r = parse(&input, &ParseOptions::default());
    assert_eq!(r.statements().count(), 1);
}

#[test]
fn fence_pairing_commits_history_when_one_reading_survives() {
    // 100,000 headings back to back: the live readings agree on everything but their last few
    // choices, so the uncommitted history stays bounded however long the input.
    let input = "```READ (a.md) <1,2>\n```\n".repeat(100_000);
    let stats = pairing_stats(&input, &ParseOptions::default());
    assert!(stats.max_history < 2 * 4096 + 64, "history {}", stats.max_history);
    assert_eq!(parse(&input, &ParseOptions::default()).statements().count(), 100_000);
}
