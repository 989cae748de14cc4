//! The property harnesses and the fuzz targets, written once with bolero and shared by
//! `tests/properties.rs` (bolero's random engine under `cargo test`, on stable) and the cargo-fuzz
//! binaries in `fuzz/fuzz_targets/` (bolero's libFuzzer engine). Both include this file with
//! `#[path]`; [`FUZZ_TARGETS`] is the one list of targets both run.
//!
//! Every harness checks, for the input it is handed:
//! - no panic (and so no abort) on any `&str`;
//! - every statement body that is text, and every text item, is an exact slice of the input
//!   (bytes preserved, CRLF kept): a borrowed `Cow` must point inside the input, an owned one
//!   must occur in it by substring search (or in the native rewrite the parse read instead);
//! - every position points inside the input: line ≤ line count + 1, column ≤ the code points
//!   of that line (`{0,0}` is the unknown sentinel);
//! - the result does not depend on what was parsed before: A, then B, then A again are equal;
//! - the serialized result validates against `schema/ParseResult.json`;
//! - the short-cuts give what the general path gives (`general_path_only`).

#![allow(dead_code)]

use std::borrow::Cow;
use std::sync::OnceLock;

use plurnk_parser::__private::scan::Registry;
use plurnk_parser::{Body, Entry, Item, ParseOptions, ParseResult, Position, Rules};

// ── The fuzz targets ────────────────────────────────────────────────────────────────────────────

/// A fuzz target: its name and what it does with each input.
pub type FuzzTarget = (&'static str, fn(&[u8]));

/// Every fuzz target: its name (the binary `fuzz/fuzz_targets/<name>.rs`) and what it does with
/// each input. `tests/properties.rs` runs each one under bolero on random inputs.
pub const FUZZ_TARGETS: &[FuzzTarget] = &[
    ("parse", |data| text_entry(data, Entry::Parse)),
    ("parse_statements", |data| text_entry(data, Entry::Statements)),
    ("parse_client", |data| text_entry(data, Entry::Client)),
    ("parse_path", |data| {
        if let Ok(input) = std::str::from_utf8(data) {
            check_path(input);
        }
    }),
    ("native_read", |data| {
        if let Ok(input) = std::str::from_utf8(data) {
            check_native(input);
        }
    }),
    ("stream", check_stream),
    ("structured", check_structured),
    ("slowness", check_slowness),
];

/// An entry point on `data` when it is UTF-8 (the library takes `&str`; the CLI refuses the rest).
fn text_entry(data: &[u8], entry: Entry) {
    if let Ok(input) = std::str::from_utf8(data) {
        check_entry(input, entry, &ParseOptions::default());
    }
}

/// The target named `name`, as a function.
pub fn target(name: &str) -> fn(&[u8]) {
    FUZZ_TARGETS.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no fuzz target {name:?}")).1
}

/// The `main` of the fuzz binary `name`: the target under `bolero::check!`. Bolero's libFuzzer
/// engine reads libFuzzer's flags from `BOLERO_LIBFUZZER_ARGS` (split at spaces), not from the
/// command line, so the command line is handed over there: `cargo fuzz run`, `run-all.sh` and
/// libFuzzer's own fork-mode children all pass flags and corpus directories as usual. The engine
/// is libFuzzer only under `--cfg fuzzing_libfuzzer` (`run-all.sh` sets it; without it bolero
/// 0.13 does not build under cargo-fuzz, so no run can silently use its bounded random engine).
pub fn fuzz_main(name: &str) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        std::env::set_var("BOLERO_LIBFUZZER_ARGS", args.join(" "));
    }
    let run = target(name);
    bolero::check!().for_each(|data: &[u8]| run(data));
}

/// The contract's schema, compiled once.
fn schema() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let text = include_str!("../schema/ParseResult.json");
        let value: serde_json::Value = serde_json::from_str(text).expect("schema/ParseResult.json is JSON");
        jsonschema::validator_for(&value).expect("schema/ParseResult.json compiles")
    })
}

/// The other turns parsed between the two parses of the input under test.
const INTERLEAVED: &[&str] = &[
    "I'll read it.\n\n```READ (src/lib.rs) <1,40>\n```\n",
    "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">a.md</parameter>\n</invoke>\n</function_calls>\n",
    "````EDIT (f.rs)\nbody\r\n```\nnested\n```\n",
];

/// Code points of each physical line (LF or CRLF ends a line; a lone CR is content).
fn line_widths(input: &str) -> Vec<u32> {
    plurnk_parser::__private::scan::lines(input).iter().map(|l| plurnk_parser::__private::scan::columns(&input[l.start..l.end])).collect()
}

fn check_position(what: &str, p: Position, widths: &[u32], input: &str) {
    if p.line == 0 {
        assert_eq!(p.column, 0, "{what}: line 0 with column {} (only {{0,0}} is the sentinel) in {input:?}", p.column);
        return;
    }
    let n = widths.len() as u32;
    assert!(p.line <= n + 1, "{what}: line {} past the input's {n} lines in {input:?}", p.line);
    let width = widths.get(p.line as usize - 1).copied().unwrap_or(0);
    assert!(p.column <= width, "{what}: column {} past line {} of {width} code points in {input:?}", p.column, p.line);
}

/// Whether `part` is a slice of `whole` by address.
fn inside(part: &str, whole: &str) -> bool {
    let (s, w) = (part.as_ptr() as usize, whole.as_ptr() as usize);
    s >= w && s + part.len() <= w + whole.len()
}

#[allow(clippy::ptr_arg)] // whether the text is borrowed is what is checked
fn check_slice(what: &str, text: &Cow<'_, str>, input: &str, rewritten: Option<&str>) {
    if text.is_empty() {
        return; // An empty body loses no byte, wherever its pointer points.
    }
    match text {
        Cow::Borrowed(b) => assert!(inside(b, input), "{what}: borrowed text {b:?} is not a slice of the input {input:?}"),
        Cow::Owned(o) => {
            let found = input.contains(o.as_str()) || rewritten.is_some_and(|r| r.contains(o.as_str()));
            assert!(found, "{what}: text {o:?} is in neither the input {input:?} nor its native rewrite {rewritten:?}");
        }
    }
}

/// Whether `s` drew the §heading-inline-body warning: its body's first line is the heading
/// text, read as the spec says (transparent closers dropped, trailing blanks trimmed), and
/// only the lines below the heading are a slice of the input.
fn inline_body(result: &ParseResult<'_>, s: &plurnk_parser::Statement<'_>) -> bool {
    let name = s.head.name();
    let message =
        plurnk_parser::__private::rules::text(Rules::builtin(), plurnk_parser::__private::rules::DiagId::InlineBody, &[("op", name)]);
    result
        .items
        .iter()
        .any(|i| matches!(i, Item::Error(e) if e.line == s.position.line && e.column == s.position.column && e.message == message))
}

/// An inline body: the heading text (every backtick dropped) occurs in the input with its
/// backticks dropped, and the body lines after it are an exact slice.
fn check_inline_body(text: &str, input: &str, rewritten: Option<&str>) {
    let (first, rest) = match text.split_once('\n') {
        Some((f, r)) => (f, Some(r)),
        None => (text, None),
    };
    let unticked = |t: &str| t.replace('`', "");
    let in_source = |src: &str| unticked(src).contains(&unticked(first)) && rest.is_none_or(|r| src.contains(r));
    assert!(
        in_source(input) || rewritten.is_some_and(in_source),
        "inline body {text:?}: its heading text or its body lines are not in the input {input:?}"
    );
}

/// §native-tool-calls: a turn whose statements come from its native rewrite reports positions and
/// text of the rewrite. A block keeps its line count only "where its lines allow"; an inline block
/// grows to its fences, so `x\n{"name": "READ", …}~READ```` gives the text item `"\n~READ```\n"`
/// at line 3 of a two-line input. Such results are checked against the input or the rewrite.
pub const NATIVE_REWRITE_LENIENT: bool = true;

/// The structural invariants of one result.
pub fn check_result(result: &ParseResult<'_>, input: &str, rewritten: Option<&str>) {
    check_result_with(result, input, if NATIVE_REWRITE_LENIENT { rewritten } else { None });
}

/// The invariants with no leniency: everything is checked against the input alone.
pub fn check_result_strict(result: &ParseResult<'_>, input: &str) {
    check_result_with(result, input, None);
}

fn check_result_with(result: &ParseResult<'_>, input: &str, rewritten: Option<&str>) {
    let widths = match rewritten {
        // Each line as wide as the wider of the input's and the rewrite's.
        Some(r) => {
            let (a, b) = (line_widths(input), line_widths(r));
            (0..a.len().max(b.len()))
                .map(|i| a.get(i).copied().unwrap_or(0).max(b.get(i).copied().unwrap_or(0)).max(if i < b.len() { u32::MAX / 2 } else { 0 }))
                .collect()
        }
        None => line_widths(input),
    };
    for item in &result.items {
        match item {
            Item::Statement(s) => {
                check_position("statement", s.position, &widths, input);
                let inline = inline_body(result, s);
                match &s.body {
                    Body::Text(t) if inline => check_inline_body(t, input, rewritten),
                    Body::Text(t) => check_slice("statement body", t, input, rewritten),
                    Body::Message { raw, .. } if inline => check_inline_body(raw, input, rewritten),
                    Body::Message { raw, .. } => check_slice("message body", raw, input, rewritten),
                    _ => {} // no body, a matcher
                }
            }
            Item::Error(e) => {
                check_position("error", Position { line: e.line, column: e.column }, &widths, input);
                assert!(!e.message.is_empty(), "empty message in {input:?}");
            }
            Item::Text(t) => {
                check_position("text", t.position, &widths, input);
                check_slice("text item", &t.content, input, rewritten);
            }
            // `Item` is non_exhaustive outside the crate only; the crate's own unit tests include
            // this harness too, where the arm is unreachable.
            #[allow(unreachable_patterns)]
            _ => unreachable!("an item kind the harness does not know"),
        }
    }
    if let Some(t) = &result.unparsed_tail {
        check_position("unparsed tail", t.from, &widths, input);
    }
    let json = result.to_json();
    let v = schema();
    if !v.is_valid(&json) {
        let errors: Vec<String> = v.iter_errors(&json).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        panic!("result does not validate against schema/ParseResult.json: {errors:?}\ninput {input:?}\nresult {json}");
    }
}

/// The native rewrite the parse may have read instead of the input (§native-tool-calls).
fn native_rewrite(input: &str, options: &ParseOptions) -> Option<String> {
    let rules = Rules::builtin();
    let registry = Registry::new(rules, options.executors.as_deref());
    plurnk_parser::__private::native::read(input, rules, &registry).rewritten
}

/// `parse`, `parseStatements` or `parseClient` on one input, with every invariant.
pub fn check_entry(input: &str, entry: Entry, options: &ParseOptions) {
    let first = plurnk_parser::run(input, options, entry);
    // The short-cuts (the clean-turn reader, clean pairing, plain headings) give exactly what
    // the general path gives.
    let general = plurnk_parser::__private::general_path_only(|| plurnk_parser::run(input, options, entry));
    assert_eq!(first, general, "the short-cuts and the general path differ on {input:?} ({entry:?})");
    drop(general);
    let rewritten = native_rewrite(input, options);
    check_result(&first, input, rewritten.as_deref());
    let first_json = serde_json::to_string(&first).expect("serializes");
    drop(first);
    for other in INTERLEAVED {
        let _ = std::hint::black_box(plurnk_parser::run(other, options, entry));
    }
    let again = serde_json::to_string(&plurnk_parser::run(input, options, entry)).expect("serializes");
    assert_eq!(first_json, again, "parsing other turns in between changed the result of {input:?}");
}

/// The three document entries on one input.
pub fn check_all_entries(input: &str) {
    let options = ParseOptions::default();
    for entry in [Entry::Parse, Entry::Statements, Entry::Client] {
        check_entry(input, entry, &options);
    }
}

/// `parsePath`: never panics, serializes, and answers the same twice.
pub fn check_path(raw: &str) {
    let first = plurnk_parser::parse_path(raw);
    if let Ok(Some(t)) = &first {
        let _ = serde_json::to_string(t).expect("targets serialize");
    }
    if let Err(e) = &first {
        assert!(!e.to_string().is_empty(), "empty refusal for {raw:?}");
    }
    let _ = plurnk_parser::parse_path("https://example.com/a?b#c");
    assert_eq!(first, plurnk_parser::parse_path(raw), "parsePath({raw:?}) changed between calls");
}

/// `native::read`: never panics; the receipt names a char boundary inside its line; the rewrite,
/// when there is one, parses under every invariant (against itself).
pub fn check_native(input: &str) {
    let rules = Rules::builtin();
    let registry = Registry::new(rules, None);
    let reading = plurnk_parser::__private::native::read(input, rules, &registry);
    if let Some(r) = &reading.receipt {
        let lines = plurnk_parser::__private::scan::lines(input);
        let l = lines.get(r.line as usize).unwrap_or_else(|| panic!("receipt line {} past {} lines in {input:?}", r.line, lines.len()));
        let text = &input[l.start..l.end];
        assert!(r.at <= text.len() && text.is_char_boundary(r.at), "receipt at byte {} of line {:?} in {input:?}", r.at, text);
        assert!(!r.message.is_empty());
    }
    if let Some(rewritten) = &reading.rewritten {
        // The rewrite is an ordinary turn: parsed, it holds every invariant (and, when its own
        // fences yield nothing, may itself be read as native markup, §native-tool-calls).
        check_entry(rewritten, Entry::Parse, &ParseOptions::default());
    }
    assert_eq!(reading, plurnk_parser::__private::native::read(input, rules, &registry), "native::read changed between calls on {input:?}");
}

// ── Structure-aware turns ───────────────────────────────────────────────────────────────────────

/// Reads choices from the fuzzer's bytes; zeros once they run out.
pub struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data, at: 0 }
    }
    pub fn done(&self) -> bool {
        self.at >= self.data.len()
    }
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    pub fn pick<'t>(&mut self, table: &[&'t str]) -> &'t str {
        table[self.byte() as usize % table.len()]
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    /// Up to `max` raw bytes of the input, read as (lossy) text.
    pub fn raw(&mut self, max: usize) -> String {
        let n = self.below(max + 1);
        let end = (self.at + n).min(self.data.len());
        let s = String::from_utf8_lossy(&self.data[self.at.min(end)..end]).into_owned();
        self.at = end;
        s
    }
}

const TAGS: &[&str] = &[
    "READ", "FIND", "EDIT", "COPY", "MOVE", "SEND", "BARE", "WORK", "FORK", "KILL", "NOTE", "WAIT", "LOOK", "read", "Edit", "sh", "SH",
    "bash", "js", "node", "python", "json", "rust", "", "BUFF", "READS", "1",
];
const TARGETS: &[&str] = &[
    "(src/a.rs)",
    "(a.md)",
    "()",
    "(~/x y.txt)",
    "(https://u:p@example.com:8080/p?q=1#f)",
    "(worker://w)",
    "(file:///etc/hosts)",
    "(src/**/*.rs)",
    "(a.md#frag)",
    "(a.md) (b.md)",
    "(src/a.rs",
    "((a))",
    "(é/漢.txt)",
    "(C:\\win\\path)",
    "(mailto:x@y)",
    "(:)",
    "(a.md)->(b.md)",
    "(a) to (b)",
];
const SLOTS: &[&str] = &[
    "<1,40>",
    "<1>",
    "<-1>",
    "<^fn main>",
    "<1.5,2>",
    "<a,b>",
    "<1,",
    "<>",
    "[ro]",
    "[a,b]",
    "[30]",
    "[",
    "[]",
    "/fn \\w+/g",
    "/unclosed",
    "/(/",
    "$..name",
    "$[",
    "^pattern",
    "`code`",
    "<!-- aside -->",
    "<!--",
    "-->",
    "needle",
    "\"quoted\"",
    "{\"k\":1}",
    "->",
    "to",
    "```",
    "````",
    "`",
    "<1,40> [x] /y/",
];
const BODIES: &[&str] = &[
    "body",
    "  indented line",
    "\tTab\tline",
    "",
    " ",
    "let x = 1;",
    "```",
    "```python",
    "````",
    "~~~",
    "```sh",
    "```READ (a.md)",
    "# heading",
    "- item",
    "> quote",
    "é漢🎉 unicode",
    "\u{feff}bom",
    "a\rb",
    "\\",
    "${x}",
    "<!-- aside -->",
    "{\"to\": \"user\", \"text\": \"hi\"}",
    "null",
    "READ",
    "EDIT (x)",
    "sh echo hi",
];
const PROSE: &[&str] = &[
    "I'll read the file first.",
    "Here is the plan:",
    "Done.",
    "Let me check `READ` usage.",
    "Use ```READ``` to read.",
    "1. step one",
    "**bold** _it_",
    "The fence ``` is inline.",
    "READ",
    "READ (a.md)",
    "sh ls",
    "  ```",
    "Example:",
    "    ```READ (x)",
    "",
    "    code block",
];
const NATIVE: &[&str] = &[
    "<function_calls>",
    "</function_calls>",
    "<invoke name=\"READ\">",
    "<invoke name=\"sh\">",
    "</invoke>",
    "<parameter name=\"path\">a.md</parameter>",
    "<parameter name=\"command\">ls</parameter>",
    "<parameter name=\"path\">",
    "</parameter>",
    "<invoke name=\"FIND\">",
    "<tool_call>",
    "</tool_call>",
    "{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}",
    "{\"name\": \"EDIT\", \"arguments\": {\"path\": \"a\", \"content\": \"x\\ny\"}}",
    "{\"name\": \"nope\"}",
    "[TOOL_CALLS]",
    "[TOOL_CALLS]READ[ARGS]{\"path\": \"a.md\"}",
    "<|python_tag|>",
    "<|eom_id|>",
    "<|tool▁calls▁begin|>",
    "<|tool▁call▁begin|>function<|tool▁sep|>READ",
    "<|tool▁call▁end|>",
    "<|tool▁calls▁end|>",
    "<｜tool▁calls▁begin｜>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>functions.READ:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<minimax:tool_call>",
    "</minimax:tool_call>",
    "<arg_key>path</arg_key>",
    "<arg_value>a.md</arg_value>",
    "<｜DSML｜function_calls>",
    "<op verb=\"READ\" path=\"a.md\"/>",
    "<READ path=\"a.md\"/>",
    "```json",
    "functions.READ:0",
];
const ENDINGS: &[&str] = &["\n", "\n", "\n", "\r\n", "", "\r", "\n\n"];

/// Builds one model turn from fences, headings, slots, bodies, prose and native markup fragments,
/// every choice read from `data`.
pub fn build_turn(data: &[u8]) -> String {
    let mut c = Choices::new(data);
    let mut s = String::new();
    // A quarter of the turns keep every fence three backticks wide and unindented, so clean
    // turns (§fence-pairing) come up often enough to hold their reader to the general path.
    let one_width = c.below(4) == 0;
    let mut rounds = 0;
    while !c.done() && rounds < 256 {
        rounds += 1;
        match c.below(9) {
            // A heading: fence, tag, slots, optional inline closer.
            0 | 1 => {
                let indent = c.below(6) / 4 * c.below(5);
                let (ch, width) = (if c.below(8) == 0 { "~" } else { "`" }, 1 + c.below(6));
                let (indent, ch, width) = if one_width { (0, "`", 3) } else { (indent, ch, width) };
                s.push_str(&" ".repeat(indent));
                s.push_str(&ch.repeat(width));
                s.push_str(c.pick(TAGS));
                for _ in 0..c.below(4) {
                    s.push_str(if c.below(3) == 0 { "" } else { " " });
                    if c.below(2) == 0 {
                        s.push_str(c.pick(TARGETS))
                    } else {
                        s.push_str(c.pick(SLOTS))
                    }
                }
                if c.below(5) == 0 {
                    s.push_str(&"`".repeat(3 + c.below(3)));
                }
                s.push_str(c.pick(ENDINGS));
            }
            // Body lines.
            2 | 3 => {
                for _ in 0..1 + c.below(4) {
                    s.push_str(c.pick(BODIES));
                    s.push_str(c.pick(ENDINGS));
                }
            }
            // A closer, maybe with an aside, trailing blanks or a chained opener.
            4 => {
                let indent = c.below(4);
                let (ch, width) = (if c.below(8) == 0 { "~" } else { "`" }, 3 + c.below(4));
                let (indent, ch, width) = if one_width { (0, "`", 3) } else { (indent, ch, width) };
                s.push_str(&" ".repeat(indent));
                s.push_str(&ch.repeat(width));
                match c.below(5) {
                    0 => s.push_str(" <!-- done -->"),
                    1 => {
                        s.push_str(&"`".repeat(3 + c.below(2)));
                        s.push_str(c.pick(TAGS));
                        s.push(' ');
                        s.push_str(c.pick(TARGETS));
                    }
                    2 => s.push_str(c.pick(&[" ", "  ", "\t", " \t "])),
                    _ => {}
                }
                s.push_str(c.pick(ENDINGS));
            }
            5 => {
                s.push_str(c.pick(PROSE));
                s.push_str(c.pick(ENDINGS));
            }
            6 | 7 => {
                for _ in 0..1 + c.below(3) {
                    s.push_str(c.pick(NATIVE));
                    if c.below(2) == 0 {
                        s.push_str(c.pick(ENDINGS));
                    }
                }
            }
            _ => s.push_str(&c.raw(24)),
        }
    }
    s
}

/// Executor sets the structured target draws from.
const EXECUTORS: &[&[&str]] = &[&["sh"], &["sh", "python", "node"], &[], &["SH", "js"], &["bash", "READ"]];

/// The structure-aware harness: a turn built from `data`, parsed under every entry and executor set.
pub fn check_structured(data: &[u8]) {
    let turn = build_turn(data);
    let pick = data.first().copied().unwrap_or(0) as usize;
    let execs = EXECUTORS[pick % EXECUTORS.len()];
    let options = if pick.is_multiple_of(EXECUTORS.len()) {
        ParseOptions::default()
    } else {
        ParseOptions::default().with_executors(execs.iter().copied())
    };
    for entry in [Entry::Parse, Entry::Statements, Entry::Client] {
        check_entry(&turn, entry, &options);
    }
    check_native(&turn);
}

// ── The streaming parser ────────────────────────────────────────────────────────────────────────

/// `plurnk_parser::StreamParser` fed `data[1..]` in chunks of 1 to 16 bytes chosen by a
/// generator seeded with `data[0]` (split points inside characters included): after every chunk
/// the text so far is a prefix of the whole decoded text, and `finish` equals `parse` of the
/// whole, under every invariant.
pub fn check_stream(data: &[u8]) {
    let (seed, bytes) = match data.split_first() {
        Some((s, rest)) => (*s as u32, rest),
        None => (0, data),
    };
    let whole = String::from_utf8_lossy(bytes);
    let mut stream = plurnk_parser::StreamParser::new(ParseOptions::default());
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut at = 0;
    while at < bytes.len() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (1 + (state % 16) as usize).min(bytes.len() - at);
        stream.feed(&bytes[at..at + n]);
        at += n;
        assert!(whole.starts_with(stream.text()), "stream text {:?} is not a prefix of {whole:?}", stream.text());
        let _ = stream.visible();
        let _ = stream.provisional().len();
    }
    let result = stream.finish();
    let expected = plurnk_parser::parse(&whole, &ParseOptions::default());
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        serde_json::to_string(&expected).unwrap(),
        "StreamParser::finish differs from parse on {whole:?} (seed {seed})"
    );
    check_result(&expected, &whole, native_rewrite(&whole, &ParseOptions::default()).as_deref());
}

// ── Slowness ────────────────────────────────────────────────────────────────────────────────────

/// The sizes the slowness target compares: the same shape at 32 KB and at 128 KB.
pub const SLOWNESS_SIZES: (usize, usize) = (32 * 1024, 128 * 1024);

/// The turn the slowness target builds from a seed: `head` once, then `unit` repeated to `size`.
pub fn slowness_turn(head: &str, unit: &str, size: usize) -> String {
    let mut s = String::with_capacity(size + unit.len() + head.len());
    s.push_str(head);
    while s.len() < size && !unit.is_empty() {
        s.push_str(unit);
    }
    s
}

/// The seed's head and unit: its first byte places the cut in the rest (read as UTF-8, lossily,
/// at most 4 KB, so a unit repeats at least eight times into 32 KB).
pub fn slowness_seed(data: &[u8]) -> Option<(String, String)> {
    let (&cut, rest) = data.split_first()?;
    let text = String::from_utf8_lossy(&rest[..rest.len().min(4096)]).into_owned();
    let mut k = cut as usize * text.len() / 256;
    while !text.is_char_boundary(k) {
        k -= 1;
    }
    let (head, unit) = text.split_at(k);
    (!unit.is_empty()).then(|| (head.to_string(), unit.to_string()))
}

/// Fuzzing for slowness (§parser-architecture: every path linear in the input): the input is a
/// seed, a head and a unit; the unit repeated after the head to 32 KB and to 128 KB must cost
/// `parse` work (counted, feature `work-count`) growing at most 4.4 times, and at most
/// `work::MAX_PER_BYTE` per byte (a one-off step, where the parse reads the turn otherwise past
/// some size, is told from growth at 64 KB: `work::check_growth_of`). Without the counter (the stable property run) it checks that
/// both parse.
pub fn check_slowness(data: &[u8]) {
    let Some((head, unit)) = slowness_seed(data) else { return };
    let options = ParseOptions::default();
    let run = |input: &str| {
        std::hint::black_box(plurnk_parser::parse(input, &options));
    };
    let build = |size: usize| slowness_turn(&head, &unit, size);
    let general = |input: &str| plurnk_parser::__private::general_path_only(|| run(input));
    if let Err(why) = plurnk_parser::work::check_growth_of(build, SLOWNESS_SIZES.0, run, general) {
        panic!("slowness: head {head:?} then {unit:?} repeated: {why}");
    }
}
