//! Linear on every input, proven by counting work (`work.rs`): every rule-built shape
//! (`benches/support/shapes.rs`: each rule's trigger repeated, from the compiled tables) costs
//! at most 4.4 times the work at 128 KB that it costs at 32 KB, and at most
//! [`MAX_PER_BYTE`](super::MAX_PER_BYTE) per byte; a deliberately quadratic stage
//! (`with_rescan`) fails the same property. Each super-linear path found and fixed keeps a test
//! here naming its rule, failing (by counted work) without its fix.

use super::shapes::{self, Shape};
use super::*;
use crate::{parse, ParseOptions};

const SMALL: usize = 32 * 1024;
const LARGE: usize = 128 * 1024;

fn violation_of(small: &str, large: &str) -> Option<String> {
    let run = |input: &str| {
        std::hint::black_box(parse(input, &ParseOptions::default()));
    };
    check_growth(small, large, run, |input| crate::__private::general_path_only(|| run(input))).err()
}

fn violation(shape: &Shape) -> Option<String> {
    let run = |input: &str| {
        std::hint::black_box(parse(input, &ParseOptions::default()));
    };
    check_growth_of(|n| shape.build(n), SMALL, run, |input| crate::__private::general_path_only(|| run(input)))
        .err()
        .map(|why| format!("{}: {why}", shape.label()))
}

/// The violations among `shapes`, checked on two threads (the counters are per thread).
fn violations(shapes: &[Shape]) -> Vec<String> {
    let half = shapes.len() / 2;
    let (a, b) = shapes.split_at(half);
    let check = |part: &[Shape]| part.iter().filter_map(violation).collect::<Vec<_>>();
    std::thread::scope(|sc| {
        let other = sc.spawn(|| check(b));
        let mut found = check(a);
        found.extend(other.join().expect("the other half ran"));
        found
    })
}

fn all_shapes() -> Vec<Shape> {
    shapes::all(&shapes::tables(crate::rules::BUILTIN_TABLES_JSON))
}

/// The property over every shape the rules give (§parser-architecture: every path linear): each
/// operation's and executor's heading in every form, closers, chains, asides, slots, matchers,
/// fences of rising widths and every native family's markers, glued, on one line and on many,
/// with every line ending, alone and inside a message, a literal body and a quotation.
#[test]
fn linear_on_every_shape() {
    let found = violations(&all_shapes());
    assert!(found.is_empty(), "{} shapes cost super-linear work:\n{}", found.len(), found.join("\n"));
}

/// The property over shapes mixing up to four triggers, chosen by bolero.
#[test]
fn linear_on_mixed_shapes() {
    let all = all_shapes();
    bolero::check!().with_type::<(Vec<u16>, u8, u8)>().with_iterations(200).for_each(|(picks, sep, head)| {
        if picks.is_empty() {
            return;
        }
        let shape = shapes::mixed(&all, &picks[..picks.len().min(4)], *sep, *head);
        if let Some(why) = violation(&shape) {
            panic!("{why}");
        }
    });
}

/// The test of the test: with one stage made quadratic on purpose (a statement's column counted
/// from its line start again, `with_rescan`), the property fails — on the shapes that put many
/// statements on one line — and holds again without it.
#[test]
fn a_quadratic_stage_is_caught() {
    // A few are enough (each costs quadratic work under the rescan).
    let one_line: Vec<Shape> =
        all_shapes().into_iter().filter(|s| s.name.starts_with("heading ") && s.sep.is_empty() && s.head.is_empty()).take(6).collect();
    let caught = with_rescan(|| violations(&one_line));
    assert!(!caught.is_empty(), "the property did not catch a rescan from the line start");
    assert!(caught.iter().any(|w| w.contains("Columns")), "the rescan's stage is named: {caught:?}");
    assert!(violations(&one_line).is_empty());
}

/// The slowness fuzz target (`fuzz/harness.rs`, counting here as the fuzz build does) holds on
/// a seed of glued compact headings and fails on it with the quadratic stage switched on.
#[test]
fn the_slowness_target_catches_a_quadratic_stage() {
    let seed = b"\0```READ (src/a.rs) <1,2>```";
    super::harness::check_slowness(seed);
    let caught = with_rescan(|| std::panic::catch_unwind(|| super::harness::check_slowness(seed)));
    let why = caught.expect_err("the slowness target did not catch a rescan from the line start");
    let why = why.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(why.contains("Columns"), "{why}");
}

/// The fuzz seeds, each repeated to 32 KB and 128 KB (what the slowness fuzz target does with
/// every input it is handed).
#[test]
fn linear_on_the_fuzz_seeds_repeated() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz-seeds");
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let Ok(seed) = std::fs::read_to_string(e.path()) else { continue };
        let shape = Shape::new(e.file_name().to_string_lossy(), "", vec![seed], "");
        found.extend(violation(&shape));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// ── Super-linear paths found by the shapes, each fixed; the tests fail by counted work without
// the fix ─────────────────────────────────────────────────────────────────────────────────────

fn repeated(head: &str, unit: &str, size: usize) -> String {
    let mut s = String::from(head);
    while s.len() < size {
        s.push_str(unit);
    }
    s
}

fn assert_linear(head: &str, unit: &str) {
    // The plain two-size check (no step allowed): these shapes parse alike at every size.
    if let Some(why) = violation_of(&repeated(head, unit, SMALL), &repeated(head, unit, LARGE)) {
        panic!("{head:?} then {unit:?} repeated: {why}");
    }
}

/// §one-line-turn: a whole turn of glued transfer headings on one line asks for positions out
/// of line order (a statement's, then an earlier one's); each is counted from a checkpoint of
/// the line, not from its start (`scan::ColumnMemo`).
#[test]
fn one_line_turn_positions_asked_in_any_order_cost_linear_work() {
    assert_linear("", "```COPY");
    assert_linear("Moving them:\n", "```MOVE (src/é.rs)```");
}

/// §transparent-inline-closer: closers written inside one heading are skipped by a cursor that
/// only moves forward, not by asking every closer at every byte of the heading.
#[test]
fn transparent_inline_closer_many_closers_cost_linear_work() {
    assert_linear("```READ (a.md) ", "``` ");
    assert_linear("```FIND (src) → b ", "``` ");
}

/// §inline-chain: the heading splits the scan keeps for the builder are kept past a few hundred
/// kilobytes of glued headings, so the builder does not split the line a second time where a
/// turn grows past the bound.
#[test]
fn inline_chain_splits_are_kept_for_turns_of_this_size() {
    assert_linear("", "```EDIT (a.md) <1,2>```");
    assert_linear("", "```FIND (a.md)```\n");
}

/// The shapes issue 49 named (§inline-chain, §one-line-turn, §native-tool-calls): a line of
/// compact headings, an open invoke followed by parameters, lines of bare JSON calls naming an
/// unknown tool, and lines of JSON calls whose string never closes on its line.
#[test]
fn the_issue_shapes_cost_linear_work() {
    assert_linear("", "```READ (a.md)```");
    assert_linear("<invoke name=\"READ\">", "<parameter name=\"path\">");
    assert_linear("", "{\"name\": \"frobnicate\", \"arguments\": {\"x\": 1}}\n");
    assert_linear("", "{\"name\": \"x\", \"arguments\": \"a\n");
}

/// §native-tool-calls: the openings' anchor search runs one memchr pass per three anchor bytes;
/// a pass whose bytes are absent from the rest of the input read to its end on every search
/// (a `{` a line, no `<` left) until the passes read windows of doubling width.
#[test]
fn native_tool_calls_anchor_search_reads_to_its_hit_not_to_the_end() {
    assert_linear("", "{\"name\": \"x\", \"arguments\": \"a\n");
    assert_linear("", "{\"name\": \"frobnicate\"}\r\n");
}

/// §native-tool-calls, §one-line-turn: glued call tags on one line each ask where the line
/// ends; the answer is kept for the line, not found again per tag.
#[test]
fn native_tool_calls_glued_tags_find_their_line_end_once() {
    assert_linear("", "<function=READ>");
    assert_linear("", "<read (a.md)>");
    assert_linear("Reading:", "<function=READ> ");
}

/// §native-tool-calls: an attribute whose quote never closes runs to its line's end, but no
/// further than its call's bound: the calls of a section, one after another on one line, are
/// not each read to the line's end. Nor is a heading call's line.
#[test]
fn native_tool_calls_unterminated_attributes_stop_at_their_call() {
    assert_linear("<｜tool_calls_begin｜>", "<｜tool_call_begin｜><steptml:invoke name=\"READ\"");
    assert_linear("<tool_calls>", "<tool_call><arg_key>");
    assert_linear("<tool_calls>", "<tool_call></arg_value>");
}

/// §native-tool-calls, §quotation: a block of markup that ends inside a fence line's info
/// string (`<tool_call>` … then ```` ```<tool_call> ````) makes the scan look for the next
/// quotation from within it, once per block; each search found the same closing line (or
/// none) again by reading to it. Found by the slowness fuzz target.
#[test]
fn native_tool_calls_blocks_ending_in_fence_lines_search_each_close_once() {
    assert_linear("", "<tool_call>\n{\n```");
    assert_linear("", "<tool_call>\n{\n```x\n");
    assert_linear("~~~\n", "<tool_call>\n{\n~~~~");
    // Openings of two widths in turn: the wider never closes, the narrower closes at once (a
    // fact kept per width, and the unclosed one apart).
    assert_linear("<tool_call>x", "````<tool_call>\n```\n<tool_call>\n");
    assert_linear("", "<tool_call>\n~~~~x\n~~~\n<tool_call>\n~~~~~y\n");
}

/// The property tells growth from a step (§parser-architecture): a shape whose parse reads
/// the turn otherwise past some size costs more per byte from there on, once, and passes; the
/// quadratic stage of the test of the test grows at every doubling and fails.
#[test]
fn a_step_in_the_reading_is_no_growth() {
    let run = |input: &str| {
        std::hint::black_box(parse(input, &ParseOptions::default()));
    };
    let general = |input: &str| crate::__private::general_path_only(|| run(input));
    // Work per byte that steps up by 8 once past 48 KB: linear, but more than 1.1 times the
    // work per byte at 128 KB than at 32 KB.
    let stepped = |input: &str| {
        run(input);
        if input.len() > 48 * 1024 {
            add(Stage::Build, input.len() * 8);
        }
    };
    let build = |n: usize| repeated("", "```READ (a.md)```", n);
    assert!(check_growth(&build(SMALL), &build(LARGE), stepped, stepped).is_err(), "the step is seen at two sizes");
    assert!(check_growth_of(build, SMALL, stepped, stepped).is_ok(), "a step is no growth");
    let quadratic = with_rescan(|| check_growth_of(|n| repeated("", "```READ (a.md)```", n), SMALL, run, general));
    assert!(quadratic.is_err(), "a quadratic stage is growth");
}

/// §native-tool-calls: the brackets matched for JSON values are kept per bound — a block's
/// calls read to its next start, the JSON openings to the end of the input, in turn — so an
/// array left open at each block (`<tools>` then `[{…},` repeated) is not matched again from
/// its opening to the end once per block. Found by the mixed-shape property.
#[test]
fn native_tool_calls_open_arrays_between_blocks_are_matched_once() {
    assert_linear("", "<tools>\n\n[{\"name\": \"frobnicate\", \"path\": \"a.md\"},\n\n");
    assert_linear("", "<tool_call>\n[{\"name\": \"x\"},\n");
}

/// §native-tool-calls: a bare Python list may run over lines to its `]`; where it is left open
/// (a `[` and a call cut at each line's end, or lines of `[`), the reading looks for its close
/// once and reads every line-start `[` inside within its line, not each again to the end.
#[test]
fn native_tool_calls_python_lists_over_lines_look_for_their_close_once() {
    assert_linear("", "[READ(path=\"a.md\"),\n");
    assert_linear("", "[\n");
    assert_linear("Listing:\n", "[\n  sh(command='ls -la', env={'A': [1,\n");
    assert_linear("", "[sh(command=\"\"\"echo\n");
}

/// §native-tool-calls: Kimi K3 calls written without their channel, each left open or cut off,
/// are read once each, up to the next call.
#[test]
fn native_tool_calls_bare_tags_calls_are_read_once() {
    assert_linear("", "<|open|>call tool=\"READ\" index=\"1\"<|sep|>\n");
    assert_linear("", "<|open|>call tool=\"sh\"<|sep|><|open|>argument key=\"command\" type=\"string\"<|sep|>ls\n");
    assert_linear("", "<|open|>call tool=\"READ\"<|sep|><|open|>json type=\"object\"<|sep|>{\"path\": \"a.md\",\n");
    assert_linear("", "<|open|>call tool=\"frobnicate\"<|sep|><|close|>call<|sep|>");
}

/// §native-tool-calls: a call opener followed by parameter openers that never close, none with
/// a key (`<parameter>`, `<parameter ="path">`), leaves the call's whole content as debris; each
/// opener stripped from its front asked again for the content's last `</` and last line break
/// from its end (and, glued on one line, for the line's end). The answers are kept while the
/// content's ends move inwards. Found by the shapes of a call's parameters left open.
#[test]
fn native_tool_calls_keyless_parameter_openers_are_stripped_in_one_pass() {
    assert_linear("<function name=\"READ\">\n", "<parameter name=\"path\">\n");
    assert_linear("<function =\"READ\">\n", "<parameter =\"path\">\n");
    assert_linear("<tool_call>\n<function =\"READ\">", "<parameter>");
    assert_linear("<function =\"READ\">\n", "<parameter =\"path\">");
    assert_linear("<tool_call>\n<function=READ>\n", "<parameter=path>\n");
    // The slowness fuzz target's seed of the shape: a call opener, then the opener repeated.
    let seed = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz-seeds/21-native-open-parameters.md"));
    super::harness::check_slowness(&seed.expect("the seed is in fixtures/fuzz-seeds"));
}

/// §native-tool-call-receipt, §native-tool-calls: a call naming a tool no table knows refuses
/// its whole block, whatever follows in it, so a run of JSON lines each calling an unknown tool
/// parses the JSON of its first call only, not of every line (a 350 KB turn of them read every
/// line into a JSON value and took milliseconds).
#[test]
fn native_tool_call_receipt_unknown_tool_lines_parse_one_call() {
    let line = "{\"name\": \"frobnicate\", \"arguments\": {\"x\": 1, \"y\": [true, null]}}\n";
    let json_of = |turn: &str| {
        reset();
        std::hint::black_box(parse(turn, &ParseOptions::default()));
        counts().expect("counting is compiled into tests")[Stage::Json as usize]
    };
    let (few, many) = (json_of(&line.repeat(20)), json_of(&line.repeat(2_000)));
    assert!(few > 0 && many == few, "JSON read: {few} bytes of 20 lines, {many} of 2,000");
    let turn = line.repeat(2_000);
    let result = parse(&turn, &ParseOptions::default());
    // The emission stays as written, every byte of it text, and draws the receipt.
    let text: String = result.items.iter().filter_map(|i| if let crate::Item::Text(t) = i { Some(&*t.content) } else { None }).collect();
    assert_eq!(text, turn);
    assert!(result.items.iter().any(|i| matches!(i, crate::Item::Error(d) if d.operation_omitted)), "{result:?}");
}
