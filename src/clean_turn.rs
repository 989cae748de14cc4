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
//! closer, anything but a fence line or text, and any refusal that reaches past its statement
//! give `None`, and the general path reads the turn from the start. The turn is checked whole
//! before any statement is built, so that costs only the scan.
//!
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

/// One operation block of a clean turn: its heading line, fence indent and name, its closer
/// line, and where the response text resumes after it (a byte offset on the closer's line).
/// `text_before` says whether the text between the previous block and this one is more than
/// whitespace (§response-text).
#[derive(Clone, Copy)]
pub(crate) struct Unit {
    head: u32,
    indent: u32,
    named: Named,
    name_end: usize,
    closer: u32,
    resume: usize,
    text_before: bool,
}

/// The result of the clean turn `input` (its lines already in `ws.lines`), or `None` when the
/// turn is not one this reader takes. Built-in rule set only (the clean argument is about its
/// tables). The turn is checked whole first, its blocks kept in `ws.clean`, so a turn the
/// general path must read costs no statement, and the result is allocated once at its size.
pub(crate) fn read<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    let text = entry == Entry::Parse;
    let width = units(input, rules, cls, &ws.lines, text, &mut ws.clean, &mut ws.clean_tags)?;
    let Workspace { lines, build_scratch, heads, clean, clean_tags: tags, .. } = ws;
    let lines: &[scan::Line] = lines;
    let ctx = build::Ctx { input, lines, rules, cls, entry, scratch: build_scratch, heads };
    // The text after the last block, from where the text resumes.
    let last = clean.last().map_or((0, 0), |u| (u.resume, u.closer));
    let text_after = text && !input[last.0..].trim().is_empty();
    let texts = clean.iter().filter(|u| u.text_before).count() + usize::from(text_after);
    let mut items: Vec<Item<'a>> = Vec::with_capacity(clean.len() + texts + tags.len());
    let mut resume = (0usize, 0u32);
    // The unknown tags not yet named: each after the text that holds it.
    let mut tags = tags.iter().peekable();
    for u in clean.iter() {
        let h = lines[u.head as usize];
        if u.text_before {
            push_text(&ctx, &mut items, resume, h.start);
        }
        while let Some((line, f)) = tags.next_if(|t| t.0 < u.head) {
            items.push(crate::unknown_tag(&ctx, *line, f));
        }
        let at = u.indent as usize;
        let r = OpRegion { start_line: u.head, head_line: u.head, fence_at: at, pos_at: at, width, open_width: width, form: Form::Fenced, end: End::Closer { line: u.closer, width } };
        let seg = Segment { fence_at: at, width, named: u.named, name: (at + width as usize, u.name_end), end: h.end - h.start, closers: Small::new(), closed: false };
        if !build::clean_statement(&ctx, &r, &seg, &mut items) {
            return None;
        }
        resume = (u.resume, u.closer);
    }
    if text_after {
        push_text(&ctx, &mut items, last, input.len());
    }
    for (line, f) in tags {
        items.push(crate::unknown_tag(&ctx, *line, f));
    }
    // Items stand in position order as pushed. The general path orders them by position after
    // pushing the text last, so text goes after another item standing where it does.
    let key = |i: &Item| match i {
        Item::Statement(s) => (s.position, false),
        Item::Error(e) => (Position { line: e.line, column: e.column }, false),
        Item::Text(t) => (t.position, true),
    };
    if !items.windows(2).all(|w| key(&w[0]) <= key(&w[1])) {
        items.sort_by_key(key);
    }
    #[cfg(test)]
    TAKEN.with(|t| t.set(t.get() + 1));
    Some(ParseResult { items, unparsed_tail: None })
}

/// Checks that `input` is a clean turn this reader takes and puts its operation blocks in
/// `out` and its unknown tags with slots in `tags`; the turn's fence width, or `None`. `text`
/// asks whether the text between blocks is more than whitespace.
fn units(input: &str, rules: &Rules, cls: &Classifier, lines: &[scan::Line], text: bool, out: &mut Vec<Unit>, tags: &mut Vec<(u32, scan::Fence)>) -> Option<u32> {
    out.clear();
    tags.clear();
    let bytes = input.as_bytes();
    let max_cands = (rules.tables.pairing.max_candidates as usize).max(1);
    let min = rules.fence_min();
    // One fence width throughout: the first fence line's (0 before it).
    let mut width = 0u32;
    let mut count = 0usize;
    let mut open: Option<Open> = None;
    // Where the outside text resumes (a byte offset).
    let mut resume = 0usize;
    // The last line that was a fence (an orphan check looks at the line before a closer).
    let mut last_fence = usize::MAX;
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
                if count + 1 >= max_cands || scan::find_byte(b'`', &bytes[l.start + name_end..l.end]).is_some() {
                    return None;
                }
                let bodyless = match named {
                    Named::Op(k) => rules.facts[k].body_repair,
                    Named::Exec(_) => false,
                };
                Some(Open::Op { line, indent: f.indent, named, name_end, bodyless })
            }
            // A labeled fence quotes up to its closer; an unknown tag with slots is named
            // (§interstitial-fence).
            (None, Info::Label) if f.ch == b'`' && count + 1 < max_cands => {
                if f.slotted {
                    tags.push((line, f));
                }
                Some(Open::Quote)
            }
            (Some(o), Info::Bare) if f.ch == b'`' => {
                // An orphaned closer: a fence run on the line before, not itself a fence line.
                if i > 0 && before != i - 1 && scan::has_fence_run(&input[lines[i - 1].start..lines[i - 1].end], min) {
                    return None;
                }
                count += 1;
                if let Open::Op { line: head, indent, named, name_end, bodyless } = o {
                    // A bodyless operation's closer stands right under its heading.
                    if bodyless && line > head + 1 {
                        return None;
                    }
                    let start = lines[head as usize].start;
                    let text_before = text && !input[resume..start].trim().is_empty();
                    // The closer's run and the blanks after it are the block's (§response-text).
                    let b = line_text.as_bytes();
                    let mut e = f.indent as usize + width as usize;
                    while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                        e += 1;
                    }
                    resume = l.start + e;
                    out.push(Unit { head, indent, named, name_end, closer: line, resume, text_before });
                }
                None
            }
            _ => return None,
        };
    }
    (open.is_none() && count > 0).then_some(width)
}

/// Outside text from `at` (a byte offset and its line) to `end` (§response-text).
fn push_text<'a>(ctx: &build::Ctx<'a, '_>, items: &mut Vec<Item<'a>>, at: (usize, u32), end: usize) {
    let (s, line) = at;
    let start = ctx.lines[line as usize].start;
    items.push(Item::Text(TextItem { content: std::borrow::Cow::Borrowed(&ctx.input[s..end]), position: ctx.pos(line, s - start) }));
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
            ("```BUFF (a)\n```\n```READ (b)\n```\n", true),
            ("```READ (a)\n```\n\n```env (add)\n{}\n```\n", true),
            ("intro\n ```gitea (list) <!-- x -->\n{}\n```\n```sh\nls\n```\n```BUFF(x)\n```", true),
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
