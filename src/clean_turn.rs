//! The clean turn read in one pass: scan, pairing, statements and response text together.
//!
//! Most turns models write are clean (§fence-pairing; `pair::clean` gives the argument): every
//! fence line is an operation heading or a labeled fence at the top level, then its bare closer,
//! one fence width throughout, and the pairing search's answer is known without searching. Such
//! a turn needs no pairing lines, no replay into regions and no ordering of items afterwards:
//! each line is classified as it is reached, each statement is built when its closer is found,
//! and the text between units is pushed in order (§response-text). So it runs a fraction of the
//! code the general path runs, which is what decides the speed of short turns (their parse is
//! mostly instruction-cache misses when the code they touch outgrows the cache).
//!
//! The reader is narrower than the clean shape: a heading with a backtick after its name (a
//! compact heading, a closer or a chained opener on the line, §inline-chain), an orphaned
//! closer, an unknown tag with slots, anything but a fence line or text, and any refusal that
//! reaches past its statement give `None`, and the general path reads the turn from the start.
//! The tests below and the fuzz harness hold the two to the same output.

use crate::ast::{Item, ParseResult, Position, TextItem};
use crate::build;
use crate::heading::Segment;
use crate::pair::regions::{End, Form, OpRegion};
use crate::rules::Rules;
use crate::scan::{self, Class, Classifier, Info, Named};
use crate::small::Small;
use crate::{Entry, Workspace};

/// The unit a clean turn holds open: an operation's heading (its line, fence indent, name and
/// whether the operation takes no body) or a labeled quotation.
#[derive(Clone, Copy)]
enum Open {
    Op { line: u32, indent: u32, named: Named, name_end: usize, bodyless: bool },
    Quote,
}

/// The result of the clean turn `input` (its lines already in `ws.lines`), or `None` when the
/// turn is not one this reader takes. Built-in rule set only (the clean argument is about its
/// tables).
pub(crate) fn read<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    let Workspace { lines, build_scratch, heads, .. } = ws;
    let lines: &[scan::Line] = lines;
    let bytes = input.as_bytes();
    let max_cands = (rules.tables.pairing.max_candidates as usize).max(1);
    let min = rules.fence_min();
    let ctx = build::Ctx { input, lines, rules, cls, entry, scratch: build_scratch, heads };
    let mut items: Vec<Item<'a>> = Vec::with_capacity(8);
    // One fence width throughout: the first fence line's (0 before it).
    let mut width = 0u32;
    let mut units = 0usize;
    let mut open: Option<Open> = None;
    // Where the outside text resumes: a byte offset and its line.
    let mut text_at = (0usize, 0u32);
    // The last line that was a fence (an orphan check looks at the line before a closer).
    let mut last_fence = usize::MAX;
    let text = entry == Entry::Parse;
    for (i, l) in lines.iter().enumerate() {
        if l.start == l.end || !cls.may_matter(bytes[l.start]) {
            continue;
        }
        let line_text = &input[l.start..l.end];
        let f = match cls.classify_slow(line_text, bytes[l.start]) {
            Class::Text => continue,
            Class::Fence(f) if !f.inline => f,
            // Inline code naming an unknown tag, a naked or an unfenced operation: the general
            // path's diagnostics and pairing moves.
            _ => return None,
        };
        let before = std::mem::replace(&mut last_fence, i);
        if width == 0 {
            width = f.width;
        } else if f.width != width {
            return None;
        }
        let line = i as u32;
        open = match (open, f.info) {
            (None, Info::Heading(named)) => {
                let name_end = cls.name_end(line_text.as_bytes(), f.info_at);
                // A backtick after the name may close the heading on its line or open the next.
                if units + 1 >= max_cands || scan::find_byte(b'`', &bytes[l.start + name_end..l.end]).is_some() {
                    return None;
                }
                let bodyless = match named {
                    Named::Op(k) => rules.facts[k].body_repair,
                    Named::Exec(_) => false,
                };
                if text {
                    push_text(&ctx, &mut items, text_at, l.start);
                }
                Some(Open::Op { line, indent: f.indent, named, name_end, bodyless })
            }
            // A labeled fence quotes up to its closer; an unknown tag with slots is named.
            (None, Info::Label) if f.ch == b'`' && !f.slotted && units + 1 < max_cands => Some(Open::Quote),
            (Some(o), Info::Bare) if f.ch == b'`' => {
                // An orphaned closer: a fence run on the line before, not itself a fence line.
                if i > 0 && before != i - 1 && scan::has_fence_run(&input[lines[i - 1].start..lines[i - 1].end], min) {
                    return None;
                }
                units += 1;
                if let Open::Op { line: head, indent, named, name_end, bodyless } = o {
                    // A bodyless operation's closer stands right under its heading.
                    if bodyless && line > head + 1 {
                        return None;
                    }
                    let at = indent as usize;
                    let r = OpRegion { start_line: head, head_line: head, fence_at: at, pos_at: at, width, open_width: width, form: Form::Fenced, end: End::Closer { line, width } };
                    let h = lines[head as usize];
                    let seg = Segment { fence_at: at, width, named, name: (at + width as usize, name_end), end: h.end - h.start, closers: Small::new(), closed: false };
                    if !build::clean_statement(&ctx, &r, &seg, &mut items) {
                        return None;
                    }
                    // The closer's run and the blanks after it are the block's (§response-text).
                    let b = line_text.as_bytes();
                    let mut e = f.indent as usize + width as usize;
                    while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                        e += 1;
                    }
                    text_at = (l.start + e, line);
                }
                None
            }
            _ => return None,
        };
    }
    if open.is_some() || units == 0 {
        return None;
    }
    if text {
        push_text(&ctx, &mut items, text_at, input.len());
    }
    // Items stand in position order as pushed; a note placed otherwise is the general path's.
    let pos = |i: &Item| match i {
        Item::Statement(s) => s.position,
        Item::Error(e) => Position { line: e.line, column: e.column },
        Item::Text(t) => t.position,
    };
    if !items.windows(2).all(|w| pos(&w[0]) <= pos(&w[1])) {
        return None;
    }
    #[cfg(test)]
    TAKEN.with(|t| t.set(t.get() + 1));
    Some(ParseResult { items, unparsed_tail: None })
}

/// Outside text from `at` (a byte offset and its line) to `end`, when it holds more than
/// whitespace (§response-text).
fn push_text<'a>(ctx: &build::Ctx<'a, '_>, items: &mut Vec<Item<'a>>, at: (usize, u32), end: usize) {
    let (s, line) = at;
    let content = &ctx.input[s..end.max(s)];
    if !content.trim().is_empty() {
        let start = ctx.lines[line as usize].start;
        items.push(Item::Text(TextItem { content: std::borrow::Cow::Borrowed(content), position: ctx.pos(line, s - start) }));
    }
}

#[cfg(test)]
thread_local! {
    /// Turns this reader took since the thread began (to show the tests reach it).
    static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::TAKEN;
    use crate::{general_path_only, parse, parse_client, parse_statements, ParseOptions, ParseResult};

    /// `(result by the short-cuts, by the general path, whether this reader took the turn)`.
    fn both<'a>(f: fn(&'a str, &ParseOptions) -> ParseResult<'a>, turn: &'a str) -> (ParseResult<'a>, ParseResult<'a>, bool) {
        let opts = ParseOptions::default();
        let before = TAKEN.with(|t| t.get());
        let fast = f(turn, &opts);
        let taken = TAKEN.with(|t| t.get()) > before;
        let general = general_path_only(|| f(turn, &opts));
        (fast, general, taken)
    }

    /// §fence-pairing, §response-text: clean turns (and their near misses, which the general
    /// path reads) give what the general path gives, text items included; the last column says
    /// which turns this reader took.
    #[test]
    fn fence_pairing_clean_turns_read_in_one_pass_as_the_general_path_reads_them() {
        let rows: &[(&str, bool)] = &[
            ("I will read it.\n\n```READ (src/a.rs) <1,40>\n```\n\nThen edit.\n", true),
            ("```READ (a)\n```", true),
            ("````EDIT (x.py)\nprint(1)\r\n````\r\nafter\r\n", true),
            ("  ```READ (a)\n  ```  \t\ntext", true),
            ("```sh\nls\n```\n```python\nprint()\n```\n```KILL (log:///1)\n```\n", true),
            ("text only, then ```READ (a)\n```\n", false),
            ("é ```\n```FIND (*) /x/\n```\nñ", true),
            ("```READ (a) <0,x>\n```\n", true),
            ("```MOVE (a) (b)\nstray\n```\n", false),
            ("```WAIT\n```\n", true),
            ("```python\nx\n```\n", true),
            ("```READ (a)\n", false),
            ("```READ (a)\n````\n", false),
            ("```READ (a)```\n", false),
            ("```READ (a)\n``` ```READ (b)\n```\n", false),
            ("```READ (a)\n```\n```\n", false),
            ("```KILL\nbody\n```\n", true),
            ("```WAIT\n\n```\n", true),
            ("```BUFF (a)\n```\n```READ (b)\n```\n", false),
            ("READ (a)\n```READ (b)\n```\n", false),
            ("```READ (a)\n~~~\n```\n", false),
            ("```READ (a)\n```x\n```\n", false),
            ("```\nREAD (a)\n```\n", false),
            ("```READ (a)\n```\nREAD (b)\n", false),
            ("```READ (a)\n``` x\n```\n", false),
            ("x ```\n```READ (a)\n```\n", true),
            ("```READ (a)\nx ```\n```\n", false),
        ];
        for &(turn, taken) in rows {
            for f in [parse, parse_statements, parse_client] {
                let (fast, general, took) = both(f, turn);
                assert_eq!(fast, general, "{turn:?}");
                assert_eq!(took, taken, "{turn:?}");
            }
        }
    }

    /// §fence-pairing: over turns built from fences, headings, labels, text and bodies, every
    /// entry gives what the general path gives, and the reader takes many of them.
    #[test]
    fn fence_pairing_clean_turn_reader_agrees_with_the_general_path() {
        const LINES: &[&str] = &[
            "```READ (src/a.rs) <1,40>", "```EDIT (x.py)", "```FIND (*) /x/i <!-- why -->", "```sh", "```KILL (log:///2)", "```WAIT", "```MOVE (a) (b)",
            "```SEND (message://a)", "```NOTE", "```python", "```BUFF (p)", "```", "```", "```", "````", "  ```", "```  ", "~~~", "``` x", "```READ (a)```",
            "text", "", "  ", "é", "READ (a)", "KILL", "x ```", "{\"a\": 1}", "<!-- c -->", "```READ (a) <x>", "```READ (a)\r", "\t", "- item",
        ];
        bolero::check!().with_type::<Vec<u8>>().with_iterations(40_000).with_max_len(24).for_each(|bytes: &Vec<u8>| {
            let mut turn = String::new();
            for &b in bytes {
                turn.push_str(LINES[b as usize % LINES.len()]);
                turn.push(if b >= 128 { ' ' } else { '\n' });
            }
            for f in [parse, parse_statements, parse_client] {
                let (fast, general, _) = both(f, &turn);
                assert_eq!(fast, general, "{turn:?}");
            }
        });
        let before = TAKEN.with(|t| t.get());
        for turn in ["```READ (a)\n```\n", "a\n```sh\nls\n```\nb\n", "```python\nx\n```\n```WAIT\n```\n"] {
            let _ = parse(turn, &ParseOptions::default());
        }
        assert_eq!(TAKEN.with(|t| t.get()) - before, 3);
    }
}
