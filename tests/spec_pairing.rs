//! Fence pairing's objective and witnesses (SPEC §2 §fence-pairing), each test written from its
//! rule's sentence with its own inputs.

mod spec_util;

use spec_util::*;

/// §unclosed-mutation-yields: at an EDIT's own width, a native heading quoted inside a labeled
/// block inside the EDIT runs: read as the body's example it would be swallowed, and a reading
/// that swallows an operation is never complete. With a wider EDIT fence it is an example.
#[test]
fn unclosed_mutation_yields_a_labeled_quoted_operation_at_the_edits_width_runs() {
    let input = "```EDIT (docs/runbook.md)\nTo inspect:\n```md\n```READ (var/log/app.log) <1,50>\n```\nthen restart.\n```";
    let v = parse(input);
    assert_eq!(ops(&v), ["EDIT docs/runbook.md", "READ var/log/app.log"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("To inspect:\n```md"));
    // No operation heading is written into the file.
    assert!(!bodies(&v)[0].as_deref().unwrap().contains("```READ"));
    // The wider outer fence is how an example is written: it stays text.
    let wide = input.replacen("```EDIT", "````EDIT", 1) + "`";
    let v = parse(&wide);
    assert_eq!(ops(&v), ["EDIT docs/runbook.md"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("To inspect:\n```md\n```READ (var/log/app.log) <1,50>\n```\nthen restart."));
}

/// §unclosed-mutation-yields: `EDIT (b)` after `EDIT (a)` with no closer between: both run and
/// no heading is written into a file, closer or not after the example.
#[test]
fn unclosed_mutation_yields_an_edit_after_an_unclosed_edit_runs() {
    for tail in ["", "\n```"] {
        let v = parse(&format!("```EDIT (a.py)\nx = 1\n```EDIT (b.py)\ny = 2{tail}"));
        assert_eq!(ops(&v), ["EDIT a.py", "EDIT b.py"], "{tail:?}");
        assert_eq!(bodies(&v), [Some("x = 1".to_string()), Some("y = 2".to_string())]);
    }
}

/// §pairing-objective: a complete reading wins over every repaired one: an inner block that
/// closes keeps the message whole, where closing at the inner fence would leave a stray.
#[test]
fn pairing_objective_a_complete_reading_wins() {
    let v = parse("```SEND\nCI output:\n```\nok 14\n```\nMerging now.\n```\n\nThanks.");
    assert_eq!(ops(&v), ["SEND"]);
    assert_eq!(bodies(&v), [Some("CI output:\n```\nok 14\n```\nMerging now.".to_string())]);
    assert_eq!(text(&v), "\n\nThanks.");
}

/// §pairing-objective, §prose-code-blocks: an executor heading inside a message is code the
/// message shows; a native heading at the message's width ends it (the author's next
/// operation), and a heading narrower than its block is literal by declaration.
#[test]
fn pairing_objective_prose_code_blocks_and_literal_declarations() {
    let v = parse("```WORK\nRun:\n```sh\npytest -q\n```\nand report.\n```\n```NOTE\nsent\n```");
    assert_eq!(ops(&v), ["WORK", "NOTE"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("Run:\n```sh\npytest -q\n```\nand report."));
    let v = parse("````BARE\nAnswer in the form\n```READ (x.md)\n```\nonly.\n````");
    assert_eq!(ops(&v), ["BARE"]);
}

// ── §pairing-witness: the generated matrix ──────────────────────────────────────────────────
//
// Six operations × widths 3–5 × twelve body shapes × four tails, each cell its own named case:
// `EDIT · outer 3 · labeled quoted operation · next operation`. The oracle below is the rules'
// reading, row by row; the four `EDIT · outer 3 · labeled quoted operation` cells read the
// example as an operation (§unclosed-mutation-yields), and in the `next operation` cell the
// EDIT's written closer, now a stray top-level fence, quotes the operation after it
// (§quotation).

const OPS: [(&str, &str); 6] = [
    ("EDIT", "EDIT (docs/notes.md)"),
    ("SEND", "SEND"),
    ("WORK", "WORK"),
    ("BARE", "BARE"),
    ("NOTE", "NOTE"),
    ("KILL", "KILL (log:///4/2/7)"),
];

/// Body shapes: (name, body). Inner fences are three wide (one is four).
const SHAPES: [(&str, &str); 12] = [
    ("plain", "Deploy notes:\nstaging is green\nprod waits for sign-off"),
    ("bare output", "Ran it:\n```\n3 passed\n```\nall good"),
    ("two bare blocks", "Before:\n```\nv1\n```\nAfter:\n```\nv2\n```"),
    ("labeled block", "Fix:\n```rust\nlet x = 1;\n```\napplied"),
    ("labeled then bare", "```toml\n[deps]\n```\nBuild:\n```\nok\n```"),
    ("bare at the end", "Error:\n```\npanic at 3\n```"),
    ("bare first", "```\n$ make\n```\nfine"),
    ("tilde block", "Log:\n~~~\nboot ok\n~~~\nend"),
    ("wider bare block", "Quoted:\n````\ndeep\n````\nend"),
    ("quoted operation", "Try:\n```\n```READ (cfg.toml) <1,9>\n```\n```\nthat is it"),
    ("operation example", "Like:\n```READ (cfg.toml) <1,9>\n```\nend"),
    ("labeled quoted operation", "Try:\n```md\n```READ (cfg.toml) <1,9>\n```\nthat is it"),
];

const TAILS: [(&str, &str); 4] = [
    ("nothing", ""),
    ("next operation", "\n\n```READ (after.md)\n```"),
    ("inline next operation", "\n```FIND (src/**) /FIXME/```"),
    ("prose", "\n\nAll set."),
];

/// What the rules read in one cell: the statements (`OP target`) and the first one's body.
fn oracle(op: &str, width: usize, shape: usize, tail: usize) -> (Vec<String>, String) {
    let body = SHAPES[shape].1;
    let target = |o: &str| OPS.iter().find(|x| x.0 == o).unwrap().1.split_once(' ').map(|(_, t)| format!("{o} {}", &t[1..t.len() - 1]));
    let first = target(op).unwrap_or_else(|| op.to_string());
    let tail_ops = |quoted_next: bool| -> Vec<String> {
        match tail {
            1 if !quoted_next => vec!["READ after.md".to_string()],
            2 => vec!["FIND src/**".to_string()],
            _ => vec![],
        }
    };
    let held = |tail_ops: Vec<String>| {
        let mut o = vec![first.clone()];
        o.extend(tail_ops);
        (o, body.to_string())
    };
    // A wider outer fence holds any narrower body (§balanced-fences, §operation-fences); at
    // width 3 shapes without a heading nest and close (equal widths nest when every inner block
    // closes).
    if width > 3 || shape < 9 {
        return held(tail_ops(false));
    }
    let example = "READ cfg.toml".to_string();
    match (shape, op) {
        // A bare block wrapping an operation with its closer: the body closing at the wrapper's
        // opener and the operation running is complete (the wrapper's closer, then the text,
        // then the operation's written closer pair as a quotation); nesting would hide it.
        // KILL's headings are literal by declaration: it nests, as an operation body prefers.
        (9, "KILL") => held(tail_ops(false)),
        (9, _) => (vec![first, example].into_iter().chain(tail_ops(false)).collect(), "Try:".to_string()),
        // A heading at the body's own width: an example that hides an operation is still
        // complete for a message or a note (hidden, not repaired); KILL declares it literal.
        (10, "EDIT") => {
            // §unclosed-mutation-yields: swallowing is never complete; the EDIT's written closer
            // is then a stray top-level fence that quotes a following operation.
            (vec![first, example].into_iter().chain(tail_ops(true)).collect(), "Like:".to_string())
        }
        (10, _) => held(tail_ops(false)),
        (11, "EDIT") => (vec![first, example].into_iter().chain(tail_ops(true)).collect(), "Try:\n```md".to_string()),
        // In a labeled block no wider than itself, the heading is literal by declaration: the
        // block holds its example, whose closer closes it; the labeled block then runs to the
        // written closer.
        (11, _) => held(tail_ops(false)),
        _ => unreachable!(),
    }
}

/// §pairing-witness: the generated matrix, every cell its own named case.
#[test]
fn pairing_witness_generated_matrix() {
    let mut failures = Vec::new();
    let mut cells = 0;
    for (op, heading) in OPS {
        for width in 3..=5 {
            for (s, (shape, body)) in SHAPES.iter().enumerate() {
                for (t, (tail, tail_text)) in TAILS.iter().enumerate() {
                    cells += 1;
                    let fence = "`".repeat(width);
                    let input = format!("{fence}{heading}\n{body}\n{fence}{tail_text}");
                    let name = format!("{op} · outer {width} · {shape} · {tail}");
                    let v = parse(&input);
                    let (want_ops, want_body) = oracle(op, width, s, t);
                    let got_body = bodies(&v).first().cloned().flatten().unwrap_or_default();
                    if ops(&v) != want_ops || got_body != want_body {
                        failures.push(format!(
                            "{name}\n  input {input:?}\n  want  {want_ops:?} {want_body:?}\n  got   {:?} {got_body:?}",
                            ops(&v)
                        ));
                    }
                    // Bodies are byte-exact slices: whatever a cell reads, no byte is lost.
                    for b in bodies(&v).into_iter().flatten() {
                        assert!(input.contains(&b), "{name}: body not in the input");
                    }
                }
            }
        }
    }
    assert_eq!(cells, 864);
    assert!(failures.is_empty(), "{} of 864 cells differ:\n{}", failures.len(), failures.join("\n"));
}

/// §pairing-witness: the four `EDIT · outer 3 · labeled quoted operation` cells, spelled out: the
/// example runs, and after it the EDIT's written closer is a stray top-level fence that quotes
/// the next operation (shown, not run) and is response text otherwise.
#[test]
fn pairing_witness_edit_outer_3_labeled_quoted_operation_cells() {
    let head = "```EDIT (docs/notes.md)\nTry:\n```md\n```READ (cfg.toml) <1,9>\n```\nthat is it\n```";
    let nothing = parse(head);
    assert_eq!(ops(&nothing), ["EDIT docs/notes.md", "READ cfg.toml"]);
    assert_eq!(text(&nothing), "\nthat is it\n```");
    let next = parse(&format!("{head}\n\n```READ (after.md)\n```"));
    assert_eq!(ops(&next), ["EDIT docs/notes.md", "READ cfg.toml"]);
    assert_eq!(errors(&next), [("warning".to_string(), "`READ` inside a code block was shown, not run.".to_string())]);
    let inline = parse(&format!("{head}\n```FIND (src/**) /FIXME/```"));
    assert_eq!(ops(&inline), ["EDIT docs/notes.md", "READ cfg.toml", "FIND src/**"]);
    let prose = parse(&format!("{head}\n\nAll set."));
    assert_eq!(ops(&prose), ["EDIT docs/notes.md", "READ cfg.toml"]);
    assert_eq!(text(&prose), "\nthat is it\n```\n\nAll set.");
}
