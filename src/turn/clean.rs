//! The clean turn read in one pass: scan, pairing, statements and response text together.
//!
//! Most turns models write are clean (§fence-pairing; `pair::clean` gives the argument): every
//! fence line is an operation heading or a labeled fence at the top level, then its bare closer,
//! and the pairing search's answer is known without searching. So is it for the near-clean
//! turns `pair::clean` also argues: a body holding inner blocks narrower than it (a shown code
//! block, §balanced-fences) or unfenced operation lines, bare quotations at the top level
//! (§quotation), units of mixed widths. Such a turn needs no pairing lines, no replay into
//! regions and no ordering of items afterwards: each line is classified as it is reached, each
//! statement is built when its closer is found, and the text between units is pushed in order
//! (§response-text), with the headings a quotation shows named in it. So it runs a fraction of
//! the code the general path runs, which is what decides the speed of short turns (their parse
//! is mostly instruction-cache misses when the code they touch outgrows the cache).
//!
//! A turn with no fence line at all is clean too: its text is the whole result (a prose answer,
//! or native markup, which `run` reads after, §native-tool-calls). So is a turn cut off in its
//! last operation's body, the shape a model's output limit leaves (§closer-fallback): the end of
//! the input ends that unit when no fence line follows its heading and no message unit precedes
//! it (`unclosed_last` gives the argument).
//!
//! The reader is narrower than the clean shape: a top-level heading with a backtick after its
//! name (a compact heading, a closer or a chained opener on the line, §inline-chain), a chained
//! line anywhere, inline code naming an unknown tag, an orphaned closer, a bare fence over an
//! operation's name (§forgotten-tag), an unfenced or naked operation line at the top level, and
//! any refusal that reaches past its statement give `None`, and the general path reads the turn
//! from the start. The turn is checked whole before any statement is built, so that costs only
//! the scan.
//!
//! The tests below and the fuzz harness hold the two to the same output.

use super::Workspace;
use crate::ast::{Item, ParseResult, Position, TextItem};
use crate::heading::Segment;
use crate::options::Entry;
use crate::pair::regions::{End, Form, OpRegion};
use crate::pair::{Block, HISTORY_CAP};
use crate::rules::{DiagId, Rules};
use crate::scan::{self, Class, Classifier, Info, Named};
use crate::small::Small;
use crate::statement;

/// An operation unit held open: its heading's line, fence indent, width and name, whether the
/// operation takes no body, and whether its body may hold inner blocks (it is not narrower than
/// an operation unit before it, `pair::clean`).
#[derive(Clone, Copy)]
struct OpenOp {
    line: u32,
    indent: u32,
    width: u32,
    named: Named,
    name_end: usize,
    bodyless: bool,
    inner: bool,
}

/// Where a clean turn stands: at the top level, in an operation's body, in an inner block of
/// that body, or in a quotation (`true`: one that may show fence lines, `pair::clean`).
#[derive(Clone, Copy)]
enum Open {
    Top,
    Body(OpenOp),
    Inner(OpenOp, Block),
    Quote(Block, bool),
}

/// One operation block of a clean turn: its heading line, fence indent, width and name, its
/// closer line, and where the response text resumes after it (a byte offset on the closer's
/// line). `text_before` says whether the text between the previous block and this one is more
/// than whitespace (§response-text).
#[derive(Clone, Copy)]
pub(crate) struct Unit {
    head: u32,
    indent: u32,
    width: u32,
    named: Named,
    name_end: usize,
    closer: u32,
    resume: usize,
    text_before: bool,
}

/// What `units` found: a turn this reader takes, one it takes but for its last operation unit,
/// which is open at the end of the input (`unclosed_last` decides), or neither.
#[derive(Clone, Copy)]
enum Shape {
    No,
    Clean,
    Unclosed,
}

/// `Unit::closer` of a unit that runs to the end of the input without a closer.
const AT_EOF: u32 = u32::MAX;

/// The result of the clean turn `input` (its lines already in `ws.lines`), or `None` when the
/// turn is not one this reader takes. Built-in rule set only (the clean argument is about its
/// tables). The turn is checked whole first, its blocks kept in `ws.clean`, so a turn the
/// general path must read costs no statement, and the result is allocated once at its size.
/// Out of line, as it was before it moved under `turn`: inlined into the dispatch of
/// `turn::run_in` (its one caller since the move), a pass over the recorded emissions ran 0.25%
/// more instructions (callgrind).
#[inline(never)]
pub(crate) fn read<'a>(input: &'a str, rules: &Rules, cls: &Classifier, entry: Entry, ws: &mut Workspace) -> Option<ParseResult<'a>> {
    let text = entry == Entry::Parse;
    match units(input, rules, cls, &ws.lines, text, &mut ws.clean, &mut ws.clean_tags) {
        Shape::Clean => {}
        Shape::Unclosed if unclosed_last(input, rules, cls, text, ws) => {}
        _ => return None,
    }
    let Workspace { lines, build_scratch, heads, clean, clean_tags: notes, .. } = ws;
    let lines: &[scan::Line] = lines;
    let ctx = statement::Ctx::new(input, lines, rules, cls, entry, build_scratch, heads);
    // The text after the last block, from where the text resumes.
    let last = clean.last().map_or((0, 0), |u| (u.resume, u.closer));
    let text_after = text && !scan::blank(&input[last.0..]);
    let texts = clean.iter().filter(|u| u.text_before).count() + usize::from(text_after);
    // A turn with no block has no statement: room for the no-operation diagnostic the turn
    // adds (growing the vector for it was a reallocation per prose turn).
    let spare = usize::from(clean.is_empty());
    let mut items: Vec<Item<'a>> = Vec::with_capacity(clean.len() + texts + notes.len() + spare);
    let mut resume = (0usize, 0u32);
    // The lines named in the text (unknown tags, shown headings) not yet pushed: each after the
    // text that holds it.
    let mut notes = notes.iter().peekable();
    for u in clean.iter() {
        let h = lines[u.head as usize];
        if u.text_before {
            push_text(&ctx, &mut items, resume, h.start);
        }
        while let Some((line, f)) = notes.next_if(|t| t.0 < u.head) {
            items.push(note(&ctx, *line, f));
        }
        let (at, width) = (u.indent as usize, u.width);
        let end = if u.closer == AT_EOF { End::Eof } else { End::Closer { line: u.closer, width } };
        let r =
            OpRegion { start_line: u.head, head_line: u.head, fence_at: at, pos_at: at, width, open_width: width, form: Form::Fenced, end };
        let seg = Segment {
            fence_at: at,
            width,
            named: u.named,
            name: (at + width as usize, u.name_end),
            end: h.end - h.start,
            closers: Small::new(),
            closed: false,
        };
        if !statement::clean_statement(&ctx, &r, &seg, &mut items) {
            return None;
        }
        resume = (u.resume, u.closer);
    }
    if text_after {
        push_text(&ctx, &mut items, last, input.len());
    }
    for (line, f) in notes {
        items.push(note(&ctx, *line, f));
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

/// The diagnostic a line in the outside text draws: a heading an unlabeled quotation shows was
/// not run (§quotation), an unknown tag with slots is named (§interstitial-fence).
fn note<'a>(ctx: &statement::Ctx<'a, '_>, line: u32, f: &scan::Fence) -> Item<'a> {
    match f.info {
        Info::Heading(named) => {
            let name = match named {
                Named::Op(i) => &ctx.rules.op(i).name,
                Named::Exec(e) => &ctx.cls.registry.names[e],
            };
            Item::Error(crate::diagnose::make(ctx.rules, DiagId::ShownNotRun, ctx.pos(line, f.indent as usize), &[("op", name)], None))
        }
        _ => super::unknown_tag(ctx, line, f),
    }
}

/// Checks that `input` is a clean turn this reader takes (`pair::clean`'s near-clean turn, less
/// what the module doc names) and puts its operation blocks in `out` and the lines its text
/// names (unknown tags with slots, shown headings) in `notes`. `text` asks whether the text
/// between blocks is more than whitespace.
fn units(
    input: &str,
    rules: &Rules,
    cls: &Classifier,
    lines: &[scan::Line],
    text: bool,
    out: &mut Vec<Unit>,
    notes: &mut Vec<(u32, scan::Fence)>,
) -> Shape {
    out.clear();
    notes.clear();
    let bytes = input.as_bytes();
    let max_cands = (rules.tables.pairing.max_candidates as usize).max(1);
    let min = rules.fence_min();
    // Units closed; operation units closed, and how many were narrower than one before them;
    // the widest and narrowest operation unit so far; the lines the search would be handed.
    let (mut count, mut ops, mut narrow) = (0usize, 0usize, 0u32);
    let (mut widest, mut narrowest) = (0u32, u32::MAX);
    let mut fence_lines = 0usize;
    let mut open = Open::Top;
    // Where the outside text resumes (a byte offset).
    let mut resume = 0usize;
    // The last line that was a fence or an operation's name (an orphan check looks at the line
    // before a bare fence).
    let mut last_fence = usize::MAX;
    for (i, l) in lines.iter().enumerate() {
        if l.start == l.end || !cls.may_matter(bytes[l.start]) {
            continue;
        }
        let line_text = &input[l.start..l.end];
        let f = match cls.classify_slow(line_text, bytes[l.start]) {
            Class::Text => continue,
            Class::Fence(f) if !f.inline && !matches!(f.info, Info::Chain(_)) => f,
            // An unfenced or naked operation line in a block is its text; at the top level it
            // is the general path's (a diagnostic, an opener).
            Class::Naked(_) | Class::Unfenced(_) if !matches!(open, Open::Top) => {
                last_fence = i;
                fence_lines += 1;
                continue;
            }
            // Inline code naming an unknown tag, a chained line: the general path's
            // diagnostics and pairing moves.
            _ => return Shape::No,
        };
        fence_lines += 1;
        let before = std::mem::replace(&mut last_fence, i);
        let line = i as u32;
        let block = Block { line, ch: f.ch, width: f.width, labeled: f.info != Info::Bare };
        // An orphaned closer: a fence run on the line before, not itself a fence line.
        let orphan = || i > 0 && before != i - 1 && scan::has_fence_run(&input[lines[i - 1].start..lines[i - 1].end], min);
        open = match open {
            Open::Top => match f.info {
                Info::Heading(named) => {
                    let name_end = f.name_end;
                    // A backtick after the name may close the heading on its line or open the next.
                    if scan::find_byte(b'`', &bytes[l.start + name_end..l.end]).is_some() {
                        return Shape::No;
                    }
                    let bodyless = match named {
                        Named::Op(k) => rules.facts[k].body_repair,
                        Named::Exec(_) => false,
                    };
                    let narrower = f.width < widest;
                    narrow += u32::from(narrower);
                    Open::Body(OpenOp { line, indent: f.indent, width: f.width, named, name_end, bodyless, inner: !narrower })
                }
                // A labeled fence quotes up to its closer; an unknown tag with slots is named
                // (§interstitial-fence).
                Info::Label if f.ch == b'`' => {
                    if f.slotted {
                        notes.push((line, f));
                    }
                    Open::Quote(block, false)
                }
                // A bare fence quotes, unless it is an orphaned closer or a forgotten tag's fence
                // (an operation's name on the next line); after an operation unit it is narrower
                // than every one.
                Info::Bare => {
                    if orphan() || (ops > 0 && f.ch == b'`' && f.width >= narrowest) {
                        return Shape::No;
                    }
                    if let Some(next) = lines.get(i + 1) {
                        if matches!(cls.classify(&input[next.start..next.end]), Class::Naked(_) | Class::Unfenced(_)) {
                            return Shape::No;
                        }
                    }
                    Open::Quote(block, ops == 0)
                }
                _ => return Shape::No,
            },
            Open::Body(op) => match f.info {
                Info::Bare if f.ch == b'`' && f.width == op.width => {
                    // A bodyless operation's closer stands right under its heading.
                    if orphan() || (op.bodyless && line > op.line + 1) {
                        return Shape::No;
                    }
                    count += 1;
                    ops += 1;
                    widest = widest.max(op.width);
                    narrowest = narrowest.min(op.width);
                    let start = lines[op.line as usize].start;
                    let text_before = text && !scan::blank(&input[resume..start]);
                    // The closer's run and the blanks after it are the block's (§response-text).
                    let b = line_text.as_bytes();
                    let mut e = f.indent as usize + op.width as usize;
                    while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                        e += 1;
                    }
                    resume = l.start + e;
                    out.push(Unit {
                        head: op.line,
                        indent: op.indent,
                        width: op.width,
                        named: op.named,
                        name_end: op.name_end,
                        closer: line,
                        resume,
                        text_before,
                    });
                    Open::Top
                }
                // An inner block (§balanced-fences): narrower than the body, of tildes, or labeled.
                Info::Bare | Info::Label if op.inner && !op.bodyless && (block.labeled || f.ch != b'`' || f.width < op.width) => {
                    Open::Inner(op, block)
                }
                _ => return Shape::No,
            },
            // Its first valid closer closes it, after a line when the opener is bare.
            Open::Inner(op, b) if b.closed_by(f.info == Info::Bare, f.ch, f.width) && (b.labeled || line > b.line + 1) => Open::Body(op),
            Open::Inner(..) => return Shape::No,
            Open::Quote(b, shows) => {
                if b.closed_by(f.info == Info::Bare, f.ch, f.width) {
                    // A bare quotation after an operation unit holds a line, and its closer is
                    // narrower than every operation unit too.
                    if !shows && !b.labeled && (line == b.line + 1 || (f.ch == b'`' && f.width >= narrowest)) {
                        return Shape::No;
                    }
                    count += 1;
                    Open::Top
                } else if shows {
                    // A heading an unlabeled quotation shows is named (§quotation).
                    if let Info::Heading(_) = f.info {
                        notes.push((line, f));
                    }
                    open
                } else {
                    return Shape::No;
                }
            }
        };
    }
    // An operation unit left open at the end counts as a unit (`unclosed_last`).
    let unclosed = matches!(open, Open::Body(_));
    let fits = narrow < 8 && ((ops + usize::from(unclosed)) << narrow) < max_cands && fence_lines <= HISTORY_CAP / (8 * max_cands);
    match open {
        // A turn of text alone (no fence line) is taken too: its result is that text.
        Open::Top if fits && (count > 0 || fence_lines == 0) => Shape::Clean,
        Open::Body(_) if fits => Shape::Unclosed,
        _ => Shape::No,
    }
}

/// Whether the turn `units` found open at its end (`Shape::Unclosed`, its closed units in
/// `ws.clean`) is taken, its last operation unit ended by the end of the input (§closer-fallback,
/// §message-run-on): that unit is then pushed to `ws.clean`. The unit's heading is the turn's
/// last line that is not text, a bodyless operation's heading the last line, and no message unit
/// stands before it. Out of line: few turns end open.
///
/// `pair::clean`'s argument, with U last and unclosed. No fence line follows U's heading, so
/// every reading ends with a block open. R0, the clean reading, holds U's alone: one supplied
/// closer, or a run-on when U is a message (R0 is then complete). Any other reading either nests
/// a block N_i at an operation closer and holds it to the end (no zero-cost move closes it), so
/// pays N_i's supplied closer beside its operation's; or pays before the end a repair, discarded
/// code or fence text (closing N_i takes one of these), or an example or a withheld heading, and
/// at the end a closer or a run-on as R0 does. Either costs more than R0 in the repaired order.
/// A complete reading holds only message blocks open at the end; with no message unit before U,
/// only U's can be one, and a reading that opens U after paying discarded code or fence text
/// keys above R0 in the complete order too (a run-on turned down for hiding an operation falls
/// back to R0, which hides none). A body under a bodyless operation would be a repair R0 pays as
/// well. `units` counts U in its bounds.
#[inline(never)]
fn unclosed_last(input: &str, rules: &Rules, cls: &Classifier, text: bool, ws: &mut Workspace) -> bool {
    let lines: &[scan::Line] = &ws.lines;
    // The last line that is not text: `units` ended in the body its heading opens when it is one.
    let Some((head, class)) = lines.iter().enumerate().rev().find_map(|(i, l)| match cls.classify(&input[l.start..l.end]) {
        Class::Text => None,
        c => Some((i, c)),
    }) else {
        return false;
    };
    let Class::Fence(f @ scan::Fence { info: Info::Heading(named), .. }) = class else { return false };
    let message = |n: Named| matches!(n, Named::Op(k) if rules.facts[k].prose);
    let bodyless = matches!(named, Named::Op(k) if rules.facts[k].body_repair);
    if (bodyless && head + 1 != lines.len()) || ws.clean.iter().any(|u| message(u.named)) {
        return false;
    }
    let l = lines[head];
    let name_end = f.name_end;
    let resume = ws.clean.last().map_or(0, |u| u.resume);
    let text_before = text && !scan::blank(&input[resume..l.start]);
    ws.clean.push(Unit {
        head: head as u32,
        indent: f.indent,
        width: f.width,
        named,
        name_end,
        closer: AT_EOF,
        resume: input.len(),
        text_before,
    });
    true
}

/// Outside text from `at` (a byte offset and its line) to `end` (§response-text).
fn push_text<'a>(ctx: &statement::Ctx<'a, '_>, items: &mut Vec<Item<'a>>, at: (usize, u32), end: usize) {
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
    use crate::__private::general_path_only;
    use crate::{parse, parse_client, parse_statements, ParseOptions, ParseResult};

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
            // No fence line at all: the turn is its text (prose, or native markup `run` reads after).
            ("", true),
            ("Just prose, with `READ (a)` in a sentence.\n\n- a list\n", true),
            ("<tool_call>{\"name\": \"READ\", \"arguments\": {\"path\": \"a\"}}</tool_call>", true),
            ("READ (a)\n", false),
            ("prose\nKILL\n", false),
            ("é ```\n```FIND (*) /x/\n```\nñ", true),
            ("```READ (a) <0,x>\n```\n", true),
            ("```MOVE (a) (b)\nstray\n```\n", false),
            ("```WAIT\n```\n", true),
            ("```python\nx\n```\n", true),
            // A last unit running to the end of the input unclosed (§closer-fallback,
            // §message-run-on): its heading the last fence line, a bodyless one the last line.
            ("```READ (a)\n", true),
            ("I'll read it.\n\n````READ (worker:///v.md) <1,-1>", true),
            ("```READ (a)\n```\nthen\n```EDIT (b.py)\nprint(1)\r\n\n", true),
            ("````WORK (worker://w)\nfind the bug\nREAD (a)\n", false),
            ("```SEND (message://a)\nthe answer\n", true),
            ("```sh\nls -la", true),
            ("```MOVE (a) (b)\n", true),
            ("```MOVE (a) (b)\nstray\n", false),
            ("```MOVE (a) (b)\n\n", false),
            ("```EDIT (a)\n```python\nx\n```\n", false),
            ("```READ (a)\n```\n```\nquoted\n", false),
            // After a message unit the search may read the message running on over the rest.
            ("```SEND (message://a)\nhi\n```\n```READ (b)\n", false),
            ("`````WORK (w://w)\nx\n`````\n``````BUFF (p)\n``````\n`````sh\nls\n", false),
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
            // Near-clean turns (`pair::clean`): an inner block narrower than its body, of tildes or
            // labeled (§balanced-fences), operation names in a body, mixed widths.
            ("````EDIT (a.sh)\nx\n````\n\n````KILL\nprinted:\n\n```\nDEMO\n```\n````\n", true),
            ("```KILL\nsee:\n```python\nprint()\n```\n```\n", true),
            ("```EDIT (a)\n~~~\nx\n~~~~\n```\n", true),
            ("````NOTE (a)\n```\nx\n`````\ny\n````\n", true),
            ("````WORK (worker://db)\nREAD (src/config.json) $.db\n````\n", true),
            ("```NOTE\nREAD\n```js (x)\nKILL\n```\n```\n", true),
            ("````NOTE\nx\n````\n\n```KILL (notes.md)\n```\n\n````KILL\n```\nKILL (notes.md)\n```\n````\n", true),
            ("````KILL\n```\n```\n````\n", false),
            ("```sh\nx\n```\ny\n```\nz\n```\n", false),
            ("`````READ (a)\n`````\n````READ (b)\n```\nx\n```\n````\n", false),
            ("```READ (a)\n```\n```KILL\n```\nx\n```\n```\n", false),
            ("```READ (a)\n``` x\ny\n``` z\n```\n```\n", false),
            // Bare quotations (§quotation): first, showing headings (shown, not run), or after an
            // operation unit, narrower than it and holding text.
            ("```\n````READ (a) <1,-1>\n````\n\n````BARE <!-- ask -->\nq\n````\n", true),
            ("```\n````READ (a)\n````\n\n```\n````BARE\nParis.\n````\n", true),
            ("```\n```sh\nls\n```\n", true),
            ("~~~\n  ```NOTE\n```FIND (x)```\n~~~\n```WAIT\n```\n", true),
            ("````READ (a)\n````\n```\nout\n```\n", true),
            ("````READ (a)\n````\n~~~~~\nout\n~~~~~\n", true),
            ("```READ (a)\n```\n```\nout\n```\n", false),
            ("````READ (a)\n````\n```\n```sh\n```\n", false),
            ("````READ (a)\n````\n```\n```\n", false),
            ("````READ (a)\n````\n```\nx\n````\n", false),
            ("x ```\n```\ny\n```\n", false),
            ("```\nKILL\n```\n```READ (a)\n```\n", false),
            ("```\n```READ (a) ```READ (b)\n```\n", true),
            ("```\nx\n``` ```READ (a)\n```\n", false),
            ("```1\n```READ (a)\n```\n", false),
        ];
        for &(turn, taken) in rows {
            for f in [parse, parse_statements, parse_client] {
                let (fast, general, took) = both(f, turn);
                assert_eq!(fast, general, "{turn:?}");
                assert_eq!(took, taken, "{turn:?}");
            }
        }
    }

    /// Near-clean turns as text (`pair::clean`'s second part) and their near misses: operation
    /// units of mixed widths whose bodies hold inner blocks and operation names, labeled units,
    /// bare quotations before and after operation units showing headings or holding text, prose
    /// between, a last unit left unclosed; with what each turn holds (inner block, quotation after
    /// an operation unit, shown heading, narrow unit, unclosed last unit), the same on every run.
    fn near_clean_text(seed: u64, count: usize) -> Vec<(String, [bool; 5])> {
        let mut state = seed;
        let mut n = move |k: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % k
        };
        const HEADS: &[&str] = &[
            "READ (src/a.rs) <1,40>",
            "KILL",
            "KILL (log:///1)",
            "EDIT (x.py)",
            "NOTE",
            "sh",
            "WORK (worker://w)",
            "SEND (message://a)",
            "MOVE (a) (b)",
            "WAIT",
            "FIND (*) /x/",
            "BUFF (p)",
            "python",
        ];
        const TEXT: &[&str] = &["x", "", "print(1)", "READ (b)", "KILL", "  indented", "é ```", "<!-- c -->", "```READ (a)```"];
        let fence = |ch: char, w: usize| ch.to_string().repeat(w);
        let mut turns = Vec::new();
        for _ in 0..count {
            let mut t = String::new();
            let mut has = [false; 5];
            let base = [3, 4, 4, 5][n(4)];
            let (mut ops, mut widest) = (0, 0);
            for _ in 0..1 + n(4) {
                if n(3) == 0 {
                    t.push_str(["Then:\n", "\n", "I will read it.\n\n", "- a\n- b\n"][n(4)]);
                }
                match n(10) {
                    // A bare quotation, first or after an operation unit.
                    0 | 1 => {
                        let (ch, w) = if n(5) == 0 { ('~', 3) } else { ('`', [3, 3, 4][n(3)]) };
                        t.push_str(&format!("{}\n", fence(ch, w)));
                        for _ in 0..n(3) {
                            match n(4) {
                                0 => {
                                    t.push_str(&format!("{}{}\n", fence('`', 3 + n(2)), HEADS[n(HEADS.len())]));
                                    has[2] |= ops == 0;
                                }
                                _ => t.push_str(&format!("{}\n", TEXT[n(TEXT.len())])),
                            }
                        }
                        has[1] |= ops > 0;
                        t.push_str(&format!("{}\n", fence(ch, w + n(2))));
                    }
                    // A labeled unit.
                    2 => t.push_str(&format!("```{}\n{}\n```\n", ["python", "json", "text", "1"][n(4)], TEXT[n(TEXT.len())])),
                    // An operation unit.
                    _ => {
                        let w = match n(8) {
                            0 => base - 1,
                            1 => base + 1,
                            _ => base,
                        }
                        .max(3);
                        has[3] |= w < widest;
                        widest = widest.max(w);
                        ops += 1;
                        t.push_str(&format!("{}{}\n", fence('`', w), HEADS[n(HEADS.len())]));
                        for _ in 0..n(4) {
                            match n(3) {
                                0 => t.push_str(&format!("{}\n", TEXT[n(TEXT.len())])),
                                1 => {
                                    t.push_str(&format!("{}\n", ["READ (src/config.json) $.db", "KILL", "NOTE <!-- n -->", "sh (x)"][n(4)]))
                                }
                                _ => {
                                    let (open, ch, v) = match n(6) {
                                        0 | 1 => (String::new(), '`', 3 + n(w - 2)),
                                        2 => ("python".to_string(), '`', 3 + n(3)),
                                        3 => (String::new(), '~', 3 + n(3)),
                                        4 => (" x".to_string(), '`', w),
                                        _ => (String::new(), '`', w),
                                    };
                                    t.push_str(&format!("{}{open}\n", fence(ch, v)));
                                    for _ in 0..n(3) {
                                        t.push_str(&format!("{}\n", TEXT[n(TEXT.len())]));
                                    }
                                    t.push_str(&format!("{}\n", fence(ch, v + [0, 0, 0, 1, 3][n(5)])));
                                    has[0] = true;
                                }
                            }
                        }
                        if n(30) != 0 {
                            t.push_str(&format!("{}{}\n", fence('`', if n(30) == 0 { w + 1 } else { w }), ["", "  ", " <!-- a -->"][n(3)]));
                        }
                    }
                }
            }
            // A last operation unit the turn ends in, unclosed (§closer-fallback), its body text
            // lines or none.
            if n(4) == 0 {
                t.push_str(&format!("{}{}\n", fence('`', base), HEADS[n(HEADS.len())]));
                for _ in 0..n(3) {
                    t.push_str(&format!("{}\n", TEXT[n(TEXT.len())]));
                }
                has[4] = true;
            }
            if n(2) == 0 {
                t.push_str("Done.");
            }
            turns.push((t, has));
        }
        turns
    }

    /// §balanced-fences, §quotation: over near-clean turns and their near misses, every entry
    /// gives what the general path gives, and the reader takes each shape often.
    #[test]
    fn balanced_fences_near_clean_turn_reader_agrees_with_the_general_path() {
        let (mut turns, mut seen) = (0, [0usize; 5]);
        for (turn, has) in near_clean_text(0x2545_f491_4f6c_dd1d, 30_000) {
            let mut took = false;
            for f in [parse, parse_statements, parse_client] {
                let (fast, general, taken) = both(f, &turn);
                assert_eq!(fast, general, "{turn:?}");
                took |= taken;
            }
            turns += usize::from(took);
            for (s, h) in seen.iter_mut().zip(has) {
                *s += usize::from(took && h);
            }
        }
        assert!(turns > 5_000 && seen.iter().all(|&s| s > 150), "near-clean turns were read too rarely: {turns}, {seen:?} (inner block, quotation after an operation, shown heading, narrow unit, unclosed last unit)");
    }

    /// §fence-pairing: over turns built from fences, headings, labels, text and bodies, every
    /// entry gives what the general path gives, and the reader takes many of them.
    #[test]
    fn fence_pairing_clean_turn_reader_agrees_with_the_general_path() {
        const LINES: &[&str] = &[
            "```READ (src/a.rs) <1,40>",
            "```EDIT (x.py)",
            "```FIND (*) /x/i <!-- why -->",
            "```sh",
            "```KILL (log:///2)",
            "```WAIT",
            "```MOVE (a) (b)",
            "```SEND (message://a)",
            "```NOTE",
            "```python",
            "```BUFF (p)",
            "```",
            "```",
            "```",
            "````",
            "  ```",
            "```  ",
            "~~~",
            "``` x",
            "```READ (a)```",
            "text",
            "",
            "  ",
            "é",
            "READ (a)",
            "KILL",
            "x ```",
            "{\"a\": 1}",
            "<!-- c -->",
            "```READ (a) <x>",
            "```READ (a)\r",
            "\t",
            "- item",
            "````KILL",
            "````READ (a)",
            "````WORK (worker://w)",
            "`````EDIT (b)",
            "````",
            "`````",
            "~~~~",
            "```1",
            "````sh",
            "``` <!-- a -->",
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
        let taken = [
            "```READ (a)\n```\n",
            "a\n```sh\nls\n```\nb\n",
            "```python\nx\n```\n```WAIT\n```\n",
            "````KILL\n```\nx\n```\n````\n",
            "```\n```READ (a)\n```\n````NOTE\nREAD (a)\n````\n```\nx\n```\n",
        ];
        for turn in taken {
            let _ = parse(turn, &ParseOptions::default());
        }
        assert_eq!(TAKEN.with(|t| t.get()) - before, taken.len());
    }
}
