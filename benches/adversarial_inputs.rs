//! Adversarial input families for the pairing bounds (§fence-pairing): shared by the benchmark
//! and the tests (`#[path]`-included). And the shapes of the benchmark's second table.

#![allow(dead_code)]

/// The families the linear-time claim is measured on.
pub const FAMILIES: &[&str] = &["unclosed-fences", "alternating-widths", "deep-nesting", "one-long-line", "many-headings"];

/// Builds `family` at about `size` bytes.
pub fn build(family: &str, size: usize) -> String {
    let mut s = String::with_capacity(size + 64);
    match family {
        // Thousands of unclosed fences: code blocks opened inside a message and never closed,
        // and EDITs that never close, each a choice for the search.
        "unclosed-fences" => {
            s.push_str("```SEND\n");
            let mut i = 0;
            while s.len() < size {
                match i % 3 {
                    0 => s.push_str("```python\nprint(1)\n"),
                    1 => s.push_str("````EDIT (f.py)\nbody\n"),
                    _ => s.push_str("```\nquoted\n"),
                }
                i += 1;
            }
        }
        // Bare fences alternating widths: every line may close, nest or be text.
        "alternating-widths" => {
            s.push_str("````WORK (worker://w)\n");
            let widths = [3, 4, 5, 4, 3, 6];
            let mut i = 0;
            while s.len() < size {
                s.push_str(&"`".repeat(widths[i % widths.len()]));
                s.push_str("\nline\n");
                i += 1;
            }
        }
        // Labeled fences nested as deep as the input allows (10,000 deep at 100 KB).
        "deep-nesting" => {
            s.push_str("```SEND\n");
            let unit = "```a\n";
            let depth = (size.saturating_sub(16)) / (unit.len() + 4);
            for _ in 0..depth {
                s.push_str(unit);
            }
            for _ in 0..depth {
                s.push_str("```\n");
            }
            s.push_str("```\n");
        }
        // One line: a heading whose matcher is the whole input.
        "one-long-line" => {
            s.push_str("```FIND (src/**) ");
            while s.len() < size {
                s.push_str("needle or haystack ");
            }
            s.push_str("```");
        }
        // Headings back to back.
        "many-headings" => {
            let mut i = 0usize;
            while s.len() < size {
                s.push_str(&format!("```READ (src/f{}.rs) <1,40>\n```\n", i % 1000));
                i += 1;
            }
        }
        other => panic!("unknown family {other}"),
    }
    s
}

/// A shape of the second table: `head` once, then `unit` repeated to the size asked for.
/// `native`: the shape is native markup (§native-tool-calls).
pub struct Shape {
    pub name: String,
    pub native: bool,
    pub head: String,
    pub unit: String,
}

impl Shape {
    fn new(name: impl Into<String>, native: bool, head: &str, unit: &str) -> Shape {
        Shape { name: name.into(), native, head: head.to_string(), unit: unit.to_string() }
    }

    /// The shape at about `size` bytes (whole units).
    pub fn build(&self, size: usize) -> String {
        let mut s = String::with_capacity(size + self.unit.len() + self.head.len());
        s.push_str(&self.head);
        while s.len() < size {
            s.push_str(&self.unit);
        }
        s
    }
}

/// The shapes built from the rules' own triggers that were super-linear once (each fixed, each
/// held linear by `src/work_tests.rs` by counted work), the worst the shape property and the
/// slowness fuzzer met, and (issue 44) every native family's start marker repeated without its
/// end, one line and one a line, taken from the compiled tables so a family added later is
/// measured too.
pub fn shapes() -> Vec<Shape> {
    let mut out = vec![
        // §one-line-turn, §inline-chain: a line of compact headings.
        Shape::new("compact-heading-line", false, "", "```READ (src/a.rs) <1,2>```"),
        Shape::new("compact-read-line", false, "", "```READ (a.md)```"),
        // §one-line-turn: glued transfers, whose positions are asked out of order.
        Shape::new("glued-transfer-line", false, "", "```COPY (a.md) (b.md)```"),
        // §transparent-inline-closer: one heading holding a closer every few bytes.
        Shape::new("closers-in-one-heading", false, "```READ (a.md) ", "``` "),
        // §fence-pairing: bare closers, one a line (past the one-pass reader's bound).
        Shape::new("bare-fence-lines", false, "", "```\n"),
        // §native-tool-calls: an open invoke, then parameters on its line.
        Shape::new("open-invoke-parameters", true, "<invoke name=\"READ\">", "<parameter name=\"path\">a.md"),
        Shape::new("unterminated-parameters", true, "<function_calls>\n<invoke name=\"READ\">\n", "<parameter name=\"pa\n"),
        Shape::new("unknown-tool-json-lines", true, "", "{\"name\": \"frobnicate\", \"arguments\": {\"x\": 1}}\n"),
        Shape::new("json-array-line", true, "[", "{\"name\": \"frobnicate\", \"arguments\": {\"x\": 1}},"),
        // Found by the shapes: parameters in a wrapper whose forms look for another marker.
        Shape::new("tool-call-parameter-lines", true, "<tool_call>\n", "<parameter=path>a.md</parameter>\n"),
        // Found by the shapes: a value nested a level a line, read to the parser's limit from
        // every line once.
        Shape::new("nested-json-lines", true, "<tool_call>\n", "{\"a\": \n"),
        Shape::new("deeply-nested-json-arguments", true, "<tool_call>{\"name\": \"READ\", \"arguments\": ", "{\"a\": "),
        Shape::new("open-json-strings", true, "", "{\"name\": \"\n"),
        // Issue 49: a JSON call a line whose string never closes on its line (the anchor
        // search read to the end of the input once a line).
        Shape::new("unterminated-json-string-lines", true, "", "{\"name\": \"x\", \"arguments\": \"a\n"),
        // Found by the shapes: glued call tags on one line, each finding the line's end.
        Shape::new("glued-function-equals-tags", true, "", "<function=READ>"),
        Shape::new("glued-operation-element-tags", true, "", "<read (a.md)>"),
        // Found by the shapes: unterminated attributes, a call each, on one line.
        Shape::new("unterminated-invoke-per-call", true, "<｜tool_calls_begin｜>", "<｜tool_call_begin｜><steptml:invoke name=\"READ\""),
        Shape::new("arg-key-per-call", true, "<tool_calls>", "<tool_call><arg_key>"),
        // Found by the slowness fuzz target: blocks ending inside fence lines' info strings,
        // and openings of two widths in turn, the wider never closed (§quotation).
        Shape::new("fence-line-block-ends", true, "", "<tool_call>\n{\n```"),
        Shape::new("alternating-fence-widths", true, "<tool_call>x", "````<tool_call>\n```\n<tool_call>\n"),
    ];
    let t: serde_json::Value = serde_json::from_str(&plurnk_parser::Rules::builtin().tables_json()).expect("tables");
    for fam in t["native"].as_array().into_iter().flatten() {
        let family = fam["family"].as_str().unwrap_or("?");
        for b in fam["blocks"].as_array().into_iter().flatten() {
            // A block with no start marker opens with its form's opening tag.
            let start = b["start"][0].as_str().map(str::to_string).or_else(|| {
                let f = &b["forms"][0];
                let prefix = f["prefixes"].as_array().and_then(|p| p.last()).and_then(|p| p.as_str()).unwrap_or("");
                let name = f["sections"][0].as_str().or_else(|| f["calls"][0].as_str())?;
                Some(format!("<{prefix}{name}>"))
            });
            let Some(start) = start else { continue };
            if out.iter().any(|s| s.unit == start) {
                continue;
            }
            out.push(Shape::new(format!("start {family}: {start}"), true, "", &start));
            out.push(Shape::new(format!("start a line {family}: {start}"), true, "", &format!("{start}\n")));
        }
    }
    out
}

/// Every native family's start marker, one a line, in turn (issue 44: a start marker per line
/// for 10 MB).
pub fn start_marker_lines() -> Shape {
    let units: Vec<String> = shapes().into_iter().filter(|s| s.name.starts_with("start a line")).map(|s| s.unit).collect();
    Shape::new("a start marker a line", true, "", &units.concat())
}
