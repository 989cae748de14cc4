//! Adversarial input families for the pairing bounds (§fence-pairing): shared by the benchmark
//! and the tests (`#[path]`-included).

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
