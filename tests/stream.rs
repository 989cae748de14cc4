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
        let options = ParseOptions {
            executors: v["options"]["executors"].as_array().map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect()),
            rules: None,
        };
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

#[test]
fn provisional_statements_and_visible_text_arrive_while_streaming() {
    let mut s = StreamParser::new(ParseOptions::default());
    s.feed_str("I will read the file.\n```READ (a.md) <1,");
    assert_eq!(s.visible(), "I will read the file.\n");
    assert!(s.provisional().is_empty());
    s.feed_str("40>\n```\nThen a note");
    assert_eq!(s.provisional().len(), 1);
    assert_eq!(s.provisional()[0].op_name(), Some("READ"));
    assert_eq!(s.provisional()[0].position.line, 2);
    assert_eq!(s.visible(), "I will read the file.\nThen a note");
    s.feed_str(":\n```NOTE\nhalf");
    assert_eq!(s.provisional().len(), 1, "an unfinished block is not read yet");
    s.feed_str(" done\n```\n");
    assert_eq!(s.provisional().len(), 2);
    s.feed_str("RE");
    assert_eq!(s.visible(), "I will read the file.\nThen a note:\n", "a name being written is held back");
    s.feed_str("ADING on.\n<function_calls>\n<invoke name=\"READ\">");
    assert_eq!(s.visible(), "I will read the file.\nThen a note:\nREADING on.\n", "native markup is held back");
    let end = s.finish();
    assert_eq!(end, parse(s.text(), &ParseOptions::default()));
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
    let options = ParseOptions::with_executors(["sh", "python3"]);
    let result = parse("I will read it.\n```READ (src/a.rs) <1,40>\n```\n", &options);
    let json = serde_json::to_string(&result).unwrap();
    let mut stream = StreamParser::new(options.clone());
    for chunk in ["I will read it.\n```RE", "AD (src/a.rs) <1,40>\n```\n"] {
        stream.feed_str(chunk);
        let preview: String = stream.visible();
        assert!(!preview.contains("```"), "no raw markup in a preview: {preview:?}");
        let _done = stream.provisional();
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
