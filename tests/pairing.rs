//! The pairing search's bounds (§fence-pairing, §pairing-algorithm): on every adversarial
//! family the block stack stays within `max_depth` and the readings kept per fence line within
//! twice `max_candidates` (complete and repaired), whatever the input size, so the pass is
//! linear. Timing lives in `benches/adversarial.rs`; this asserts the bounds that make it so.

#[path = "../benches/adversarial_inputs.rs"]
mod adversarial;

use plurnk_parser::__private::{general_path_only, pairing_stats, reading_path, ReadingPath};
use plurnk_parser::{parse, ParseOptions, Rules};

fn bounds() -> (usize, usize) {
    let p = &plurnk_parser::__private::rules::tables(Rules::builtin()).pairing;
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
            assert!(
                stats.max_history <= plurnk_parser::__private::pair::HISTORY_CAP + 8 * 2 * max_candidates,
                "{family} at {size}: history {}",
                stats.max_history
            );
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

/// §inline-chain: the scan keeps each heading line's split for the builder only up to a bound.
/// A turn with more statements than that reads the same past it: every statement, in order,
/// with its own target, whether its line is a one-statement heading or a chain of two.
#[test]
fn inline_chain_turns_past_the_kept_splits_read_every_statement() {
    let lines = 3_000;
    let mut turn = String::new();
    let mut want = Vec::new();
    for i in 0..lines {
        if i % 2 == 0 {
            turn.push_str(&format!("````READ (a{i}.md) ````\n"));
            want.push(format!("a{i}.md"));
        } else {
            turn.push_str(&format!("````READ (b{i}.md) <1,2> ```` ````READ (c{i}.md) ````\n"));
            want.push(format!("b{i}.md"));
            want.push(format!("c{i}.md"));
        }
    }
    assert!(want.len() > 4_096, "the turn must pass the bound on kept segments");
    let result = parse(&turn, &ParseOptions::default());
    let got: Vec<String> = result
        .items
        .iter()
        .filter_map(|i| match i {
            plurnk_parser::Item::Statement(s) => match &s.target {
                Some(plurnk_parser::Target::Local { raw, .. }) => Some(raw.to_string()),
                _ => Some(String::from("?")),
            },
            _ => None,
        })
        .collect();
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
}

/// §fence-pairing, §native-tool-calls: `reading_path` (which the throughput benchmark groups
/// turns by) names the path `parse` takes: the one-pass reader for a clean turn, the general
/// path for nested or unclosed fences it declines, the native reading for tool-call markup; and
/// with the short-cuts off, every turn is general.
#[test]
fn fence_pairing_reading_path_names_the_path_parse_takes() {
    let rows: &[(&str, ReadingPath)] = &[
        ("```READ (src/a.rs) <1,40>\n```\n", ReadingPath::OnePass),
        ("Some prose.\n\n```EDIT (x.py)\nprint(1)\n```\n", ReadingPath::OnePass),
        ("just prose, no operation\n", ReadingPath::OnePass),
        // A message holding a labelled example: the one-pass reader closes the nested block.
        ("```SEND\nsee:\n```python\nx = 1\n```\nthanks\n```\n", ReadingPath::OnePass),
        // A stray closer after a closed block: the pairing search decides what it closes.
        ("````KILL (a)\n```\n```\n\nprose\n````\n", ReadingPath::General),
        // Two headings, the first never closed.
        ("```EDIT (a.py)\nx\n```EDIT (b.py)\ny\n```\n", ReadingPath::General),
        (
            "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">a.md</parameter>\n</invoke>\n</function_calls>\n",
            ReadingPath::Native,
        ),
    ];
    let options = ParseOptions::default();
    for &(turn, want) in rows {
        assert_eq!(reading_path(turn, &options), want, "{turn:?}");
        if want != ReadingPath::Native {
            assert_eq!(general_path_only(|| reading_path(turn, &options)), ReadingPath::General, "{turn:?}");
        }
    }
}
