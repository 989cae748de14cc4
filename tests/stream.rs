//! `StreamParser`: the final result equals `parse` of the whole text for every chunking, and a
//! chunk costs time proportional to the chunk.
//!
//! Property (bolero): a turn built from fence, heading, body, markup and multi-byte fragments is
//! split at random byte offsets — inside multi-byte characters and inside markers included — and
//! fed chunk by chunk; `finish()` must equal `parse(whole)`, and the provisional statements and
//! visible text must only ever grow. `a_broken_stream_is_caught` shows the property has teeth:
//! the same check run on deliberately broken chunk handling (each chunk decoded alone; the last
//! partial line dropped) finds counterexamples.

use bolero::check;
use plurnk_parser::{parse, ParseOptions, StreamParser};

#[path = "support/shared.rs"]
mod support;
const ITERATIONS: usize = 2_000;

const FRAGMENTS: &[&str] = &[
    "```",
    "````",
    "~~~",
    "\n",
    "\n",
    "\r\n",
    " ",
    "READ (a.md) <1,2>",
    "NOTE",
    "SEND",
    "EDIT (b.md) <1>",
    "WAIT",
    "sh",
    "KILL The answer",
    "FIND (src/**) /x/",
    "<!-- why -->",
    "body",
    "é",
    "日本語",
    "🦀",
    "`",
    "x```y",
    "<function_calls>",
    "<invoke name=\"READ\">",
    "<parameter name=\"path\">a.md</parameter>",
    "</invoke>",
    "</function_calls>",
    "```python",
    "text here",
    "> quote",
    "    ```READ (q.md)",
    "\u{FEFF}",
];

fn build(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| FRAGMENTS[b as usize % FRAGMENTS.len()]).collect()
}

/// Feeds `text` split at `cuts` (byte offsets, any order, possibly inside characters) and checks
/// the stream against `parse`.
fn chunked(text: &str, cuts: &[u16], feed: &dyn Fn(&mut StreamParser, &[u8])) -> Result<(), String> {
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts.iter().map(|&c| c as usize % (bytes.len() + 1)).collect();
    points.push(0);
    points.push(bytes.len());
    points.sort_unstable();
    points.dedup();
    let options = ParseOptions::default();
    let mut stream = StreamParser::new(options.clone());
    let mut provisional = 0;
    let mut visible = String::new();
    for w in points.windows(2) {
        feed(&mut stream, &bytes[w[0]..w[1]]);
        if stream.provisional().len() < provisional {
            return Err("provisional statements shrank".into());
        }
        provisional = stream.provisional().len();
        let v = stream.visible();
        if !v.starts_with(&visible) {
            return Err(format!("visible text was taken back: {visible:?} then {v:?}"));
        }
        visible = v;
    }
    let got = stream.finish();
    let want = parse(text, &options);
    if got != want {
        return Err(format!(
            "chunks at {points:?} of {text:?}:\nstream {}\nparse  {}",
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap()
        ));
    }
    Ok(())
}

fn good_feed(s: &mut StreamParser, chunk: &[u8]) {
    s.feed(chunk);
}

#[test]
fn the_final_result_is_parse_for_every_chunking() {
    check!().with_type::<(Vec<u8>, Vec<u16>)>().with_iterations(ITERATIONS).for_each(|(frags, cuts): &(Vec<u8>, Vec<u16>)| {
        let text = build(frags);
        if let Err(e) = chunked(&text, cuts, &good_feed) {
            panic!("{e}");
        }
    });
}

#[test]
fn any_string_any_chunking() {
    check!().with_type::<(String, Vec<u16>)>().with_iterations(ITERATIONS).for_each(|(text, cuts): &(String, Vec<u16>)| {
        if let Err(e) = chunked(text, cuts, &good_feed) {
            panic!("{e}");
        }
    });
}

#[test]
fn byte_at_a_time_over_the_corpus() {
    let Some(text) = support::corpus_file("recorded-emissions.jsonl") else { return };
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let input = v["input"].as_str().unwrap();
        let mut options = ParseOptions::default();
        options.executors = v["options"]["executors"].as_array().map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect());
        let mut stream = StreamParser::new(options.clone());
        // Irregular chunk sizes, one byte up to 97, so splits land everywhere.
        let bytes = input.as_bytes();
        let (mut at, mut k) = (0, 0usize);
        while at < bytes.len() {
            let n = (1 + k * 31 % 97).min(bytes.len() - at);
            stream.feed(&bytes[at..at + n]);
            at += n;
            k += 1;
        }
        assert_eq!(stream.finish(), parse(input, &options), "{}", v["id"]);
    }
}

/// Provisional statements arrive as their blocks close; the preview stops at the first block,
/// since text after it can still become its body (§pairing-need); `finish()` has it all.
#[test]
fn provisional_statements_arrive_and_the_preview_stops_at_the_first_block() {
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str("I will read the file.\n```READ (a.md) <1,");
    assert_eq!(s.visible(), "I will read the file.\n");
    assert!(s.provisional().is_empty());
    s.feed_str("40>\n```\nThen a note");
    assert_eq!(s.provisional().len(), 1);
    assert_eq!(s.provisional()[0].op_name(), Some("READ"));
    assert_eq!(s.provisional()[0].position.line, 2);
    assert_eq!(s.visible(), "I will read the file.\n", "text after a block is held back");
    s.feed_str(":\n```NOTE\nhalf");
    assert_eq!(s.provisional().len(), 1, "an unfinished block is not read yet");
    s.feed_str(" done\n```\n");
    assert_eq!(s.provisional().len(), 2);
    assert!(s.committed().is_empty(), "a block with a closer line is never committed");
    let end = s.finish();
    assert_eq!(end, parse(s.text(), &ParseOptions::default()));
    assert!(response_text(&end).contains("Then a note:"), "the final parse gives the held-back text");
}

/// §response-text, §unfenced-operation, §native-tool-calls: before anything opens, the preview
/// shows each settled line — not a name still being written, not an unfenced operation line —
/// and stops where native markup begins, keeping the text before it on its line.
#[test]
fn response_text_the_preview_shows_settled_lines_only() {
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str("Vérifions le build.\r\nRE");
    assert_eq!(s.visible(), "Vérifions le build.\r\n", "a name being written is held back");
    s.feed_str("ADING the log now.\r\n");
    assert_eq!(s.visible(), "Vérifions le build.\r\nREADING the log now.\r\n");
    s.feed_str("READ (build.log) is what I'd run.\r\n");
    assert_eq!(s.visible(), "Vérifions le build.\r\nREADING the log now.\r\n", "an unfenced line is not text");
    s.feed_str("Calling: <function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">build.log</parameter>\n");
    s.feed_str("</invoke>\n</function_calls>\nand more");
    assert_eq!(s.visible(), "Vérifions le build.\r\nREADING the log now.\r\nCalling: ");
    let end = s.finish();
    assert_eq!(end.statements().map(|st| st.op_name()).collect::<Vec<_>>(), [Some("READ")]);
    assert!(squeeze(&response_text(&end)).starts_with(&squeeze(&s.visible())));
}

/// §fence-closer, §native-tool-calls: a compact heading with nothing opened before it commits,
/// and once one has, the turn yields an operation, so native markup after it is text and shown.
#[test]
fn fence_closer_a_compact_heading_with_nothing_open_before_it_commits() {
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str("Two things.\n```WAIT```");
    assert!(s.committed().is_empty(), "a line is read once it ends");
    s.feed_str("\n```READ (notes/日本.md) <1,9>```\nThen <tool_call>{\"name\": \"READ\"}</tool_call>\n");
    let ops: Vec<_> = s.committed().iter().map(|st| st.op_name().unwrap()).collect();
    assert_eq!(ops, ["WAIT", "READ"]);
    assert_eq!(s.visible(), "Two things.\nThen <tool_call>{\"name\": \"READ\"}</tool_call>\n");
    // A suffix that re-pairs everything it can: the committed statements still begin the turn.
    s.feed_str("```NOTE\nx\n```\n```\n```\n````\nKILL\n");
    let end = s.finish();
    let fin: Vec<_> = end.statements().cloned().collect();
    assert_eq!(fin[..2], *s.committed());
    assert!(squeeze(&response_text(&end)).starts_with(&squeeze(&s.visible())));
}

/// §pairing-need, §balanced-fences — the first candidate rule, "a block closed by its closer
/// with nothing left open is final", is unsound: the prefix reads complete (no repair, nothing
/// open), yet a suffix of two bare fences turns its closer into a nested opener, and the body
/// grows. (Nesting before closing in an operation body, at equal cost.)
#[test]
fn pairing_need_a_block_closed_with_nothing_open_is_not_final() {
    let prefix = "```NOTE\r\nThe cache is warm.\r\n```\r\n";
    let alone = parse(prefix, &ParseOptions::default());
    let body = |r: &plurnk_parser::ParseResult<'_>| serde_json::to_value(r.statements().next().unwrap()).unwrap()["body"].clone();
    assert_eq!(body(&alone), "The cache is warm.");
    let whole = format!("{prefix}Next: the logs.\r\n```\r\n```\r\n");
    assert_eq!(body(&parse(&whole, &ParseOptions::default())), "The cache is warm.\r\n```\r\nNext: the logs.\r\n```");
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str(prefix);
    assert_eq!(s.provisional().len(), 1);
    assert!(s.committed().is_empty());
}

/// §pairing-need — the second candidate, "a block is final once a later heading runs at the top
/// level", is unsound too: after `NOTE`, text and a closed `READ`, a wider bare fence and a
/// closer make the NOTE's closer a nested opener that holds the text and the READ; the READ no
/// longer runs and the text is body. So the preview never shows text after a block.
#[test]
fn pairing_need_a_later_heading_settles_nothing() {
    let prefix = "```NOTE\nThe cache is warm.\n```\nNext I check the logs.\n```READ (logs/app.log)\n```\n";
    let alone = parse(prefix, &ParseOptions::default());
    assert_eq!(alone.statements().map(|st| st.op_name()).collect::<Vec<_>>(), [Some("NOTE"), Some("READ")]);
    assert!(response_text(&alone).contains("Next I check the logs."));
    let whole = format!("{prefix}````\n```\n");
    let fin = parse(&whole, &ParseOptions::default());
    assert_eq!(fin.statements().map(|st| st.op_name()).collect::<Vec<_>>(), [Some("NOTE")]);
    assert!(!response_text(&fin).contains("Next I check the logs."));
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str(prefix);
    assert_eq!(s.visible(), "");
    assert!(s.committed().is_empty());
}

/// §quotation, §pairing-objective — the third candidate, "a quotation closes at its first valid
/// closer, so a compact heading after it is final", is unsound: a bare fence and a naked name
/// after it make the quotation's opener a stray and its closer the opener of a quotation that
/// holds the WAIT (literal by declaration costs a complete reading nothing; the naked NOTE needs
/// no closer, where the first reading supplies one).
#[test]
fn quotation_a_closed_quotation_settles_nothing_after_it() {
    let prefix = "```\n$ make\nok\n```\n```WAIT```\n";
    assert_eq!(parse(prefix, &ParseOptions::default()).statements().map(|st| st.op_name()).collect::<Vec<_>>(), [Some("WAIT")]);
    let whole = format!("{prefix}```\nNOTE\n");
    let fin = parse(&whole, &ParseOptions::default());
    assert_eq!(fin.statements().map(|st| st.op_name()).collect::<Vec<_>>(), [Some("NOTE")]);
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str(prefix);
    assert_eq!(s.provisional().len(), 1, "provisionally, the WAIT runs");
    assert!(s.committed().is_empty());
}

/// §pairing-need, §response-text: text after a closed block that the final parse of the prefix
/// gives as text becomes the block's body once a code block follows it — the reason the preview
/// holds back everything after the first block.
#[test]
fn pairing_need_text_after_a_block_can_become_its_body() {
    let prefix = "```EDIT (src/main.rs)\nfn main() {}\n```\nHere is the test:\n";
    assert!(response_text(&parse(prefix, &ParseOptions::default())).contains("Here is the test:"));
    let whole = format!("{prefix}```\n#[test] fn t() {{}}\n```\n");
    let fin = parse(&whole, &ParseOptions::default());
    assert_eq!(response_text(&fin), "");
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str(prefix);
    assert_eq!(s.visible(), "");
}

#[test]
fn a_split_character_decodes_once() {
    let text = "```NOTE\n日本語 🦀\n```\n";
    let mut s = StreamParser::new(ParseOptions::default());
    for b in text.as_bytes() {
        s.feed(std::slice::from_ref(b));
    }
    assert_eq!(s.provisional().len(), 1);
    assert_eq!(s.finish(), parse(text, &ParseOptions::default()));
}

/// Feeding costs work proportional to the chunk, counted (not timed): the bytes the stream
/// examines stay within a fixed multiple of the bytes fed, and a chunk late in a long turn costs
/// no more than one early in it, whether chunks are 1, 64 or 4096 bytes.
#[test]
fn a_chunk_costs_work_proportional_to_the_chunk() {
    let unit = "Some prose about the change.\n```READ (src/lib.rs) <1,40>\n```\n```NOTE\nA finding, with `code` and é.\n```\n";
    let text: String = unit.repeat(2000); // ~200 KB, 4,000 statements
    let bytes = text.as_bytes();
    for chunk in [1usize, 64, 4096] {
        let mut s = StreamParser::new(ParseOptions::default());
        let mut per_chunk = Vec::new();
        for piece in bytes.chunks(chunk) {
            let before = s.bytes_examined();
            s.feed(piece);
            per_chunk.push(s.bytes_examined() - before);
        }
        assert_eq!(s.provisional().len(), 4000);
        let total = s.bytes_examined();
        assert!(total <= 5 * bytes.len() as u64, "chunk {chunk}: {total} bytes examined for {} fed", bytes.len());
        let tenth = per_chunk.len() / 10;
        if tenth > 0 {
            let sum = |v: &[u64]| v.iter().sum::<u64>();
            let (early, late) = (sum(&per_chunk[tenth..2 * tenth]), sum(&per_chunk[8 * tenth..9 * tenth]));
            assert!(
                late <= early + early / 2 + 4 * unit.len() as u64,
                "chunk {chunk}: late chunks examine {late} bytes against {early} early"
            );
        }
    }
}

/// Deterministic inputs for the test of the test.
fn generated(n: usize) -> Vec<(String, Vec<u16>)> {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..n)
        .map(|_| {
            let len = 3 + (next() % 20) as usize;
            let frags: Vec<u8> = (0..len).map(|_| (next() >> 20) as u8).collect();
            let cuts: Vec<u16> = (0..1 + next() % 8).map(|_| (next() >> 30) as u16).collect();
            (build(&frags), cuts)
        })
        .collect()
}

#[test]
fn a_broken_stream_is_caught() {
    let inputs = generated(2000);
    let caught = |name: &str, feed: &dyn Fn(&mut StreamParser, &[u8])| {
        let n = inputs.iter().filter(|(t, c)| chunked(t, c, feed).is_err()).count();
        assert!(n > 0, "the chunk-invariance property did not catch `{name}`");
    };
    // Each chunk decoded on its own: a character split across chunks turns into U+FFFDs.
    caught("chunks decoded alone", &|s, chunk| s.feed_str(&String::from_utf8_lossy(chunk)));
    // A chunk's trailing carriage return lost: a CRLF split across chunks becomes LF.
    caught("trailing CR dropped", &|s, chunk| {
        let c = if chunk.ends_with(b"\r") { &chunk[..chunk.len() - 1] } else { chunk };
        s.feed(c)
    });
}

/// The README's library example, as written there.
#[test]
fn the_readme_example_holds() {
    use plurnk_parser::{parse, ParseOptions, StreamParser};
    let options = ParseOptions::default().with_executors(["sh", "python3"]);
    let result = parse("I will read it.\n```READ (src/a.rs) <1,40>\n```\n", &options);
    let json = serde_json::to_string(&result).unwrap();
    let mut stream = StreamParser::new(options.clone());
    for chunk in ["I will read it.\n```RE", "AD (src/a.rs) <1,40>\n```\n"] {
        stream.feed_str(chunk);
        let preview: String = stream.visible();
        assert!(!preview.contains("```"), "no raw markup in a preview: {preview:?}");
        let _done = stream.provisional();
        assert!(stream.committed().is_empty(), "a block with a closer line never commits");
    }
    assert_eq!(serde_json::to_string(&stream.finish()).unwrap(), json);
}

/// §pairing-need, §balanced-fences: a provisional statement is not a promise. A message that
/// shows an operation as its example reads, while it streams, as if the example's closer ended
/// the message and the example ran; the final fence makes the whole a complete nested reading in
/// which the example is body and nothing but the SEND runs. The docs of `provisional()` warn of
/// exactly this; this test holds the warning true (if the stream ever stopped offering the KILL
/// early, the test would say the warning needs rewording, not that a runtime may dispatch early).
#[test]
fn pairing_need_a_provisional_statement_the_final_parse_drops() {
    let turn = "```SEND\nTo clear the notes you would write:\n```KILL (notes.md)\n```\nbut please keep them for now.\n```\n";
    let mut s = StreamParser::new(ParseOptions::default());
    let mut offered_kill = false;
    for ch in turn.as_bytes().chunks(7) {
        s.feed(ch);
        offered_kill |= s.provisional().iter().any(|st| st.op_name() == Some("KILL"));
    }
    assert!(offered_kill, "mid-stream, the shown KILL is among the provisional statements");
    let ops: Vec<_> = s.finish().statements().map(|st| st.op_name().unwrap_or("?").to_string()).collect();
    assert_eq!(ops, ["SEND"], "the final parse runs the SEND only: the KILL was an example in its body");
    assert!(parse(turn, &ParseOptions::default()).statements().all(|st| st.op_name() != Some("KILL")));
}

/// The final parse's response text (§response-text): its text items, in order, joined.
fn response_text(result: &plurnk_parser::ParseResult<'_>) -> String {
    result.items.iter().filter_map(|i| if let plurnk_parser::Item::Text(t) = i { Some(&*t.content) } else { None }).collect()
}

/// `s` without its white space: the preview joins lines as they came, while the final parse
/// drops white-space-only spans and starts a text item at the line ending after a closer, so
/// the two are compared character for character, white space aside.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The byte ranges of `input` that the final parse gives as response text, or `None` when some
/// text item is not a slice of it (a native rewrite makes its own text).
fn text_ranges(input: &str, result: &plurnk_parser::ParseResult<'_>) -> Option<Vec<(usize, usize)>> {
    let base = input.as_ptr() as usize;
    let mut out = Vec::new();
    for item in &result.items {
        if let plurnk_parser::Item::Text(t) = item {
            let std::borrow::Cow::Borrowed(s) = &t.content else { return None };
            let at = (s.as_ptr() as usize).checked_sub(base)?;
            (at + s.len() <= input.len()).then_some(())?;
            out.push((at, at + s.len()));
        }
    }
    Some(out)
}

/// Markup, for the preview: every byte the final parse does not give as response text — fence
/// lines, headings, closers, asides, bodies, unfenced operation lines and the native tool-call
/// markup it reads as calls. `preview` (fed so far as `fed`) must show none of it: it must be a
/// prefix, white space aside, of the final response text of `whole`; and where the final text
/// items are slices of `whole`, every byte `spans` shows (white space aside) lies in one.
fn preview_is_text(
    preview: &str,
    spans: &[std::ops::Range<usize>],
    whole: &str,
    fin: &plurnk_parser::ParseResult<'_>,
) -> Result<(), String> {
    let (shown, text) = (squeeze(preview), squeeze(&response_text(fin)));
    if !text.starts_with(&shown) {
        return Err(format!("the preview {preview:?} is not a prefix of the final response text {:?}", response_text(fin)));
    }
    let Some(ranges) = text_ranges(whole, fin) else { return Ok(()) };
    for r in spans {
        for (i, c) in whole[r.clone()].char_indices() {
            let at = r.start + i;
            if !c.is_whitespace() && !ranges.iter().any(|&(a, b)| a <= at && at < b) {
                let line = whole[..at].matches('\n').count() + 1;
                return Err(format!("the preview shows markup at byte {at} (line {line}): {:?}", &whole[r.clone()]));
            }
        }
    }
    Ok(())
}

/// Streams `input` in chunks of `size` bytes and checks, after every chunk (§response-text):
/// `visible()` extends the one before and is the text of the ranges `visible_spans()` names; it
/// is a prefix of the final response text and shows no markup ([`preview_is_text`]); the
/// committed statements only grow and begin the final statements; and `finish()` is `parse`.
fn preview_holds(input: &str, options: &ParseOptions, size: usize) -> Result<(), String> {
    let fin = parse(input, options);
    let statements: Vec<_> = fin.statements().cloned().collect();
    let mut stream = StreamParser::new(options.clone());
    let mut seen = String::new();
    let mut committed = 0;
    for chunk in input.as_bytes().chunks(size.max(1)) {
        stream.feed(chunk);
        let v = stream.visible();
        if !v.starts_with(&seen) {
            return Err(format!("visible() took back text: {seen:?} then {v:?}"));
        }
        let spans = stream.visible_spans();
        let joined: String = spans.iter().map(|r| &stream.text()[r.clone()]).collect();
        if joined != v {
            return Err(format!("visible_spans() {spans:?} do not spell visible() {v:?}"));
        }
        preview_is_text(&v, &spans, input, &fin)?;
        let c = stream.committed();
        if c.len() < committed || c.len() > statements.len() || c != &statements[..c.len()] {
            return Err(format!("committed {:?} does not begin the final statements {statements:?}", c));
        }
        committed = c.len();
        seen = v;
    }
    if stream.finish() != fin {
        return Err("finish() is not parse()".into());
    }
    Ok(())
}

/// §response-text, streamed: over every `parse` case of the corpus (recorded emissions and the
/// reference suite), at 1-, 7- and 64-byte chunks, the preview only grows, is a prefix of the
/// final response text and shows no markup, and the committed statements begin the final ones.
#[test]
fn response_text_the_preview_is_a_prefix_of_the_final_text_over_the_corpus() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in ["recorded-emissions.jsonl", "reference-tests.jsonl"] {
        let Some(text) = support::corpus_file(file) else { return };
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["entry"] != "parse" {
                continue;
            }
            let input = v["input"].as_str().unwrap();
            let mut options = ParseOptions::default();
            options.executors = v["options"]["executors"].as_array().map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect());
            for size in [1, 7, 64] {
                checked += 1;
                if let Err(e) = preview_holds(input, &options, size) {
                    failures.push(format!("{} at {size}-byte chunks: {e}", v["id"]));
                }
            }
        }
    }
    assert!(checked > 7000, "{checked} streams");
    assert!(
        failures.is_empty(),
        "{} of {checked} streams:\n{}",
        failures.len(),
        failures.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The same over generated turns (fences, headings, bodies, markup) at random chunk sizes.
#[test]
fn response_text_the_preview_is_a_prefix_of_the_final_text_on_generated_turns() {
    check!().with_type::<(Vec<u8>, u8)>().with_iterations(ITERATIONS).for_each(|(frags, size): &(Vec<u8>, u8)| {
        let text = build(frags);
        if let Err(e) = preview_holds(&text, &ParseOptions::default(), *size as usize % 17 + 1) {
            panic!("{text:?}: {e}");
        }
    });
}

/// Compact headings (§fence-closer's one-line form), so that generated prefixes commit.
const COMPACT: &[&str] = &[
    "```WAIT```\n",
    "```READ (a.md) <1,2>```\n",
    "```NOTE done```\n",
    "```KILL (old.md)```\n",
    "   ```WAIT```\r\n",
    "````FIND (src/**) /x/````\n",
    "```sh ls```\n",
    "```WAIT``` then\n",
    "\t```READ (b.md)```\n",
    "Some prose.\n",
];

/// What a continuation may bring to undo a reading: bare fences and closers of several widths,
/// naked and fenced headings, native markup of several families, a reasoning closer.
const SUFFIXES: &[&str] = &[
    "\n",
    "```\n",
    "````\n",
    "~~~\n",
    "```\n```\n",
    "````\n```\n",
    "NOTE\n",
    "KILL\n",
    "SEND <!-- reply -->\n",
    "```KILL (notes.md)\n",
    "```WAIT```\n",
    "``` ```READ (b.md)\n",
    "```sh\n",
    "```text\n",
    "    ```\n",
    "```<!-- end -->\n",
    "prose\n",
    "READ (c.md)\n",
    "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">a.md</parameter>\n</invoke>\n</function_calls>\n",
    "</function_calls>\n",
    "<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}\n</tool_call>\n",
    "{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}\n",
    "[READ(path=\"a.md\")]\n",
    "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"READ\">\n<｜DSML｜parameter name=\"path\">a.md</｜DSML｜parameter>\n",
    "</think>\n",
];

type Committed = fn(&StreamParser) -> Vec<plurnk_parser::Statement<'static>>;

/// Streams the turn `frags` builds (compact headings among its fragments) cut at `cuts`, then
/// checks what was offered after each chunk against `parse(prefix + suffix)`: the statements
/// `committed` names must begin its statements, and `visible()` must be a prefix of its
/// response text showing no markup ([`preview_is_text`]).
/// Returns how many statements were committed at the end of the prefix.
fn continuation_holds(frags: &[u8], cuts: &[u16], tail: &[u8], committed: Committed) -> Result<usize, String> {
    let n = FRAGMENTS.len() + COMPACT.len();
    let prefix: String =
        frags.iter().map(|&b| b as usize % n).map(|i| FRAGMENTS.get(i).copied().unwrap_or_else(|| COMPACT[i - FRAGMENTS.len()])).collect();
    let suffix: String = tail.iter().map(|&b| SUFFIXES[b as usize % SUFFIXES.len()]).collect();
    let whole = format!("{prefix}{suffix}");
    let fin = parse(&whole, &ParseOptions::default());
    let statements: Vec<_> = fin.statements().cloned().collect();
    let bytes = prefix.as_bytes();
    let mut points: Vec<usize> = cuts.iter().map(|&c| c as usize % (bytes.len() + 1)).collect();
    points.extend([0, bytes.len()]);
    points.sort_unstable();
    points.dedup();
    let mut s = StreamParser::new(ParseOptions::default());
    for w in points.windows(2) {
        s.feed(&bytes[w[0]..w[1]]);
        let c = committed(&s);
        if c.len() > statements.len() || c[..] != statements[..c.len()] {
            return Err(format!("{whole:?}: committed {c:?} after {:?}", s.text()));
        }
        preview_is_text(&s.visible(), &s.visible_spans(), &whole, &fin).map_err(|e| format!("{whole:?} after {:?}: {e}", s.text()))?;
    }
    Ok(committed(&s).len())
}

/// §fence-closer, §pairing-need, §response-text — the stream cannot be misused: for a random
/// turn cut into random chunks and then any continuation of it (bare fences, closers, naked
/// headings, native markup), everything `committed()` held after a chunk begins the statements
/// of `parse(prefix + suffix)`, and every `visible()` is a prefix, white space aside, of its
/// response text, showing no markup.
#[test]
fn fence_closer_committed_and_visible_hold_for_every_continuation() {
    check!().with_type::<(Vec<u8>, Vec<u16>, Vec<u8>)>().with_iterations(ITERATIONS).for_each(
        |(frags, cuts, tail): &(Vec<u8>, Vec<u16>, Vec<u8>)| {
            if let Err(e) = continuation_holds(frags, cuts, tail, |s| s.committed().to_vec()) {
                panic!("{e}");
            }
        },
    );
}

/// The property above has teeth: offered as committed, the provisional statements (every
/// block as it closes) are caught being changed by a continuation (§pairing-need); and the
/// generated turns do commit statements, so the property is not held vacuously.
#[test]
fn pairing_need_provisional_statements_fail_the_continuation_property() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut caught, mut committing) = (0, 0);
    for _ in 0..2000 {
        let frags: Vec<u8> = (0..3 + next() % 12).map(|_| (next() >> 24) as u8).collect();
        let cuts: Vec<u16> = (0..1 + next() % 4).map(|_| (next() >> 40) as u16).collect();
        let tail: Vec<u8> = (0..1 + next() % 4).map(|_| (next() >> 16) as u8).collect();
        committing += (continuation_holds(&frags, &cuts, &tail, |s| s.committed().to_vec()).unwrap() > 0) as usize;
        caught += continuation_holds(&frags, &cuts, &tail, |s| s.provisional().to_vec()).is_err() as usize;
    }
    assert!(caught > 0, "no continuation changed a provisional statement");
    assert!(committing > 100, "only {committing} generated turns committed a statement: the property would test little");
}
