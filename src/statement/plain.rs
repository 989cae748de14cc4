//! The plain heading: an operation's or executor's name, then at most its targets (each with an
//! optional scope right after it), a sigil-led matcher after them and an aside, nothing else
//! (§slot-order). Most headings models write are plain. They are read here in one pass and
//! built straight into a statement: the general lexer and builder hold every tolerance rule,
//! and their code is several times what one plain statement needs, so running them for it
//! refetches code the instruction cache could not keep.
//!
//! Anything else gives `None` and the general path reads it: heading text that is not a
//! matcher, a matcher the general path would peel a slot off (§trailing-slots), option blocks
//! but one after the first target (or before it, where the fence's `leading_metadata` row
//! gives it to the selection),
//! a scope before its target or a second one, a body the row does not keep, a
//! possible target group, a client-tier name, a closer on the line. The tests below hold the
//! two paths to the same output.

use super::operation::{body_text, kept_body, op_head, prompt_optional, read_matcher};
use super::slots::{dropped_scope_note, drops_scopes, invalid_uri, leading_metadata, missing_target, parse_target, read_scope_tok};
use super::*;

/// A plain heading's slots, by byte offsets into the line.
struct Slots {
    /// Each target's inner range and the scope after it.
    sels: [((usize, usize), Option<ScopeTok>); 2],
    n: usize,
    /// The inner range of one option block after the first target (§scheme-metadata-modifier),
    /// or before it where the fence's `leading_metadata` is `selection`.
    meta: Option<(usize, usize)>,
    /// The inner range of the aside.
    aside: Option<(usize, usize)>,
    /// The matcher after the targets (§heading-slot-order), its trailing blanks and aside off.
    text: Option<(usize, usize)>,
}

impl Slots {
    /// No slot read yet. A constant, not a derived `Default`: that built one target's default
    /// on the stack and copied it into the array with loads straddling its stores, a stall of
    /// a dozen cycles on every heading (`perf annotate`).
    const EMPTY: Slots = Slots { sels: [((0, 0), None), ((0, 0), None)], n: 0, meta: None, aside: None, text: None };
}

/// Reads `[from, end)` of `line` as a plain heading's slots into `s` (`Slots::EMPTY` on entry),
/// or `None`. `charge` is the log's charge separator, which the general path would peel off a
/// matcher (§log-heading-notation).
#[inline(always)]
fn lex(line: &str, from: usize, end: usize, charge: &str, lead_meta: bool, s: &mut Slots) -> Option<()> {
    let b = &line.as_bytes()[..end];
    let mut i = from;
    loop {
        while i < end && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i == end {
            return Some(());
        }
        if s.aside.is_some() {
            return None;
        }
        match b[i] {
            b'(' if s.n < 2 => {
                // No escape, nested parenthesis or `<` inside: the first `)` closes the slot
                // (§path-parentheses, §scope-slot-tolerance).
                // One 16-bytes-a-step search for the four bytes (a slot is tens of bytes, where
                // `memchr`'s dispatched calls cost more than the bytes).
                let close = crate::scan::find_of(b, i + 1, [b')', b'(', b'\\', b'<']);
                if close == end || b[close] != b')' {
                    return None;
                }
                s.sels[s.n] = ((i + 1, close), None);
                s.n += 1;
                i = close + 1;
            }
            // After the first target, or before it where the fence's `leading_metadata` gives
            // the block to the first selection (`lead_meta`: an executor's `sh [{"cwd": "."}]
            // (tool)`, §exec-executor-slot).
            b'[' if (s.n == 1 || (s.n == 0 && lead_meta)) && s.meta.is_none() => {
                let j = heading::skip_meta(b, i)?;
                s.meta = Some((i + 1, j - 1));
                i = j;
            }
            b'<' if b[i..].starts_with(b"<!--") => {
                let j = heading::aside_close(b, i + 4)?;
                s.aside = Some((i + 4, j));
                i = j + 3;
            }
            b'<' if s.n > 0 && s.sels[s.n - 1].1.is_none() => {
                let gt = i + crate::scan::find_byte(b'>', &b[i..])?;
                s.sels[s.n - 1].1 = Some(ScopeTok { open: i, inner: (i + 1, gt), closed: true, lead: None, bare: false });
                i = gt + 1;
            }
            // A matcher after a blank, behind the targets: the heading's text to the line's end
            // (§heading-slot-order), of which §trailing-slots takes a closed aside off the right
            // end; a scope, an option block or a charge would come off too, and a backtick run
            // would be dropped, so those are left to the general path.
            c if s.n > 0 && matches!(b[i - 1], b' ' | b'\t') && matches!(c, b'/' | b'^' | b'$' | b'~' | b'&') => {
                let mut t = line[i..end].trim_end();
                // A backtick run in the text is dropped from it (§transparent-inline-closer).
                if t.contains('`') {
                    return None;
                }
                if let Some(k) =
                    t.strip_suffix("-->").and_then(|_| crate::scan::rfind_str(t.as_bytes(), b"<!--")).filter(|&k| k + 7 <= t.len())
                {
                    s.aside = Some((i + k + 4, i + t.len() - 3));
                    t = t[..k].trim_end();
                }
                // An aside left open (§unclosed-aside) is the general path's to take off too.
                if t.ends_with(['>', ']'])
                    || crate::scan::find_str(t.as_bytes(), charge.as_bytes()).is_some()
                    || crate::scan::find_str(t.as_bytes(), b"<!--").is_some()
                {
                    return None;
                }
                s.text = Some((i, i + t.len()));
                return Some(());
            }
            _ => return None,
        }
    }
}

/// The statement of a plain fenced heading, written to `out`, or `None` for the general path.
/// Inlined into its one caller: its answer, returned through memory, is a refusal's size.
#[inline(always)]
pub(super) fn statement<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    seg: &Segment,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Option<Result<(), Refusal>> {
    if r.form != Form::Fenced || !seg.closers.is_empty() || !crate::work::shortcuts() {
        return None;
    }
    let line = ctx.line_text(r.head_line);
    // Read in place: the slots are a few hundred bytes, not copied out of an `Option`.
    let mut slots = Slots::EMPTY;
    // A block before the first target is the selection's where the fence's row says so.
    let op = match seg.named {
        Named::Op(index) => Some(ctx.rules.op(index)),
        Named::Exec(_) => None,
    };
    let lead_meta = leading_metadata(ctx, op) == LeadingMetadata::Selection;
    lex(line, seg.name.1, seg.end, &ctx.rules.tables.notation.charge, lead_meta, &mut slots)?;
    let built = match seg.named {
        Named::Op(index) => operation(ctx, r, index, line, &slots, position, body, out)?,
        Named::Exec(e) => executor(ctx, r, e, line, &slots, position, body, out)?,
    };
    #[cfg(test)]
    if built.is_ok() {
        count_built();
    }
    Some(built)
}

/// Selection `sel` of the heading: its target (escapes decoded, §path-syntax) and its scope read
/// under `domain` (advisories to `notes`). Inlined for the reason [`super::op_head`] is: its
/// result, written piecewise and copied out whole, stalled the load that read it back.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn selection<'a>(
    ctx: &Ctx<'_, '_>,
    line: &'a str,
    line_no: u32,
    sel: &((usize, usize), Option<ScopeTok>),
    marks: Option<target::SlotMarks>,
    domain: ScopeDomain,
    named: Named,
    position: Position,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Target<'a>, Option<LineMarker>), Refusal> {
    let &((s, e), scope) = sel;
    // The scope first: a malformed scope is the heading's one hard error before a target the
    // URL reader refuses (§error-shape).
    let lm = match &scope {
        Some(st) => Some(read_scope_tok(ctx, line, line_no, st, domain, ctx.name_of(named), named, notes).map_err(Refusal::Error)?),
        None => None,
    };
    // The slot's text, sliced once, and its marks, unless the caller read them already.
    let slot = &line[s..e];
    let marks = match marks {
        Some(m) => m,
        None => target::SlotMarks::of(slot),
    };
    let target = parse_target(ctx, target::decode_marked(slot, marks), marks, position)?;
    Ok((target, lm))
}

/// Pushes a one-selection statement (an operation or an executor) and the notes that follow
/// it; its aside and option block are the heading's slots as written.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn push_single<'a>(
    out: &mut Vec<Item<'a>>,
    line: &'a str,
    slots: &Slots,
    head: Head,
    target: Option<Target<'a>>,
    line_marker: Option<LineMarker>,
    matcher: Option<Box<Matcher>>,
    body: Body<'a>,
    position: Position,
    notes: Vec<Diagnostic>,
) {
    let aside = slots.aside.map(|(s, e)| Cow::Borrowed(line[s..e].trim()));
    let metadata = slots.meta.map(|(s, e)| vec![line[s..e].to_string()]);
    out.push(Item::Statement(Statement {
        head,
        aside,
        target,
        metadata,
        line_marker,
        matcher,
        body,
        source: None,
        destination: None,
        seconds: None,
        position,
    }));
    push_notes(out, notes);
}

/// Pushes the notes that follow a statement.
fn push_notes(out: &mut Vec<Item<'_>>, notes: Vec<Diagnostic>) {
    if !notes.is_empty() {
        out.extend(notes.into_iter().map(Item::Error));
    }
}

/// A native operation's plain statement (§op-shapes), or `None`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn operation<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    index: usize,
    line: &'a str,
    slots: &Slots,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Option<Result<(), Refusal>> {
    let o = ctx.rules.op(index);
    if o.tier == Tier::Client {
        return None;
    }
    let n = slots.n;
    // §kill-scope (6.0): a distillation without its target is refused, whatever its body.
    if n == 0 && matches!(o.operands, Operands::Required | Operands::Group) && o.body == BodyKind::Distillation {
        return Some(Err(missing_target(ctx, index, position)));
    }
    let fits = match o.operands {
        Operands::None => n == 0,
        Operands::Two => n == 2,
        Operands::Required | Operands::Group if n == 0 => true,
        Operands::Required | Operands::Group => n == 1,
        Operands::Optional => n <= 1,
    } && (o.shape != Shape::Transfer || n == 2);
    if !fits {
        return None;
    }
    // A scope on an operation that takes none is dropped with a note (§scope-on-scopeless).
    let dropped = slots.sels[..n].iter().any(|s| s.1.is_some()) && drops_scopes(o, n > 0);
    // A matcher stands only on a selection that reads one (§heading-inline-body); an option
    // block is taken as written only where no `pattern` is lifted from it and no duration read
    // (§matcher-option, §send-wait-scope).
    if slots.text.is_some()
        && (o.shape != Shape::Selection || !matches!(o.inline_text, InlineText::Matcher | InlineText::SigilMatcherElseBody))
    {
        return None;
    }
    if slots.meta.is_some() && (o.shape != Shape::Plain || o.duration_metadata) {
        return None;
    }
    let raw_body = body_text(ctx, body);
    let keeps_body = !matches!(o.body, BodyKind::None | BodyKind::Distillation);
    if raw_body.is_some() && !keeps_body && o.shape != Shape::Transfer {
        return None;
    }
    // The first slot's marks, read once: for the group check here and for its target.
    let mut marks = None;
    if o.operands == Operands::Group && n == 1 {
        let (s, e) = slots.sels[0].0;
        let m = target::SlotMarks::of(&line[s..e]);
        if m.may_be_group() {
            return None;
        }
        marks = Some(m);
    }
    if o.shape == Shape::Transfer {
        if dropped {
            return None;
        }
        return Some(transfer(ctx, r, index, line, slots, position, body, out));
    }
    let named = Named::Op(index);
    let mut notes = Vec::new();
    let mut sel = slots.sels[0];
    if dropped {
        if let Some(st) = sel.1.take() {
            notes.push(dropped_scope_note(ctx, o, &o.name, line, r.head_line, &st));
        }
    }
    let (target, line_marker) = match n {
        1 => match selection(ctx, line, r.head_line, &sel, marks, o.scope, named, position, &mut notes) {
            Ok((target, lm)) => (Some(target), lm),
            Err(e) => return Some(Err(e)),
        },
        _ => (None, None),
    };
    let body = if keeps_body {
        kept_body(ctx, o.body, raw_body.map(Cow::Borrowed), || prompt_optional(o, target.as_ref()), position, &mut notes)
    } else {
        Body::Null
    };
    let matcher = slots.text.map(|(s, e)| Box::new(read_matcher(ctx, line[s..e].to_string(), position, &mut notes)));
    let head = op_head(ctx, index, &o.name, o.shape);
    push_single(out, line, slots, head, target, line_marker, matcher, body, position, notes);
    Some(Ok(()))
}

/// COPY and MOVE: two selections, each its target and scope (§op-shapes); a body is unused.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn transfer<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    index: usize,
    line: &'a str,
    slots: &Slots,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), Refusal> {
    let o = ctx.rules.op(index);
    let mut notes = Vec::new();
    let mut both = [None, None];
    // A malformed destination scope outranks a refused source target (§error-shape).
    if let Some(st) = &slots.sels[1].1 {
        if !scope::is_plain(&line[st.inner.0..st.inner.1]) {
            for st in slots.sels.iter().filter_map(|s| s.1.as_ref()) {
                read_scope_tok(ctx, line, r.head_line, st, o.scope, &o.name, Named::Op(index), &mut Vec::new()).map_err(Refusal::Error)?;
            }
        }
    }
    for (slot, sel) in both.iter_mut().zip(&slots.sels) {
        let (target, line_marker) = selection(ctx, line, r.head_line, sel, None, o.scope, Named::Op(index), position, &mut notes)?;
        *slot = Some(Box::new(Selection { target: Some(target), metadata: None, line_marker, matcher: None }));
    }
    if body_text(ctx, body).is_some() {
        notes.push(make(ctx.rules, DiagId::BodyIgnored, position, &[("op", &o.name)], None));
    }
    let [source, destination] = both;
    let aside = slots.aside.map(|(s, e)| Cow::Borrowed(line[s..e].trim()));
    out.push(Item::Statement(Statement {
        head: op_head(ctx, index, &o.name, o.shape),
        aside,
        target: None,
        metadata: None,
        line_marker: None,
        matcher: None,
        body: Body::Null,
        source,
        destination,
        seconds: None,
        position,
    }));
    push_notes(out, notes);
    Ok(())
}

/// An executor's plain statement: its program path (never split, §exec-executor-slot), its
/// scope and its body as written. Out of line: most statements name an operation.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn executor<'a>(
    ctx: &Ctx<'a, '_>,
    r: &OpRegion,
    exec: usize,
    line: &'a str,
    slots: &Slots,
    position: Position,
    body: Option<(usize, usize, u32, u32)>,
    out: &mut Vec<Item<'a>>,
) -> Option<Result<(), Refusal>> {
    if slots.n > 1 || slots.text.is_some() {
        return None;
    }
    let name = &ctx.cls.registry.names[exec];
    let mut notes = Vec::new();
    let (mut target, mut line_marker) = (None, None);
    if slots.n == 1 {
        let ((s, e), scope) = slots.sels[0];
        // The scope first (§error-shape).
        if let Some(sc) = &scope {
            match read_scope_tok(ctx, line, r.head_line, sc, ctx.rules.tables.executors.scope, name, Named::Exec(exec), &mut notes) {
                Ok(lm) => line_marker = Some(lm),
                Err(err) => return Some(Err(Refusal::Error(err))),
            }
        }
        let raw = target::decode_marked(&line[s..e], target::SlotMarks::of(&line[s..e]));
        target = Some(if target::url_prefix(&raw).is_some() {
            match target::parse_decoded(raw) {
                Ok(t) => t,
                Err(_) => return Some(Err(invalid_uri(ctx, position))),
            }
        } else {
            Target::Local { raw, fragment: None }
        });
    }
    let body = match body_text(ctx, body) {
        Some(b) => Body::Text(Cow::Borrowed(b)),
        None => Body::Null,
    };
    push_single(out, line, slots, Head::Runtime(name.clone()), target, line_marker, None, body, position, notes);
    Some(Ok(()))
}

#[cfg(test)]
thread_local! {
    /// Plain statements built since the thread began (to show the tests reach this path).
    static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(super) fn count_built() {
    BUILT.with(|b| b.set(b.get() + 1));
}

#[cfg(test)]
mod tests {
    use super::BUILT;
    use crate::{parse, parse_client, ParseOptions, ParseResult};

    /// `(result by this path and the general one, plain statements built)`.
    fn both<'a>(f: fn(&'a str, &ParseOptions) -> ParseResult<'a>, turn: &'a str) -> (ParseResult<'a>, ParseResult<'a>, usize) {
        let opts = ParseOptions::default();
        let before = BUILT.with(|b| b.get());
        let fast = f(turn, &opts);
        let built = BUILT.with(|b| b.get()) - before;
        let general = crate::__private::general_path_only(|| f(turn, &opts));
        (fast, general, built)
    }

    /// §slot-order: the plain headings (and their near misses, which the general path reads)
    /// give what the general builder gives; the count of plain statements shows which rows
    /// took this path.
    #[test]
    fn slot_order_plain_headings_build_as_the_general_path_does() {
        let rows: &[(&str, usize)] = &[
            ("````READ (src/a.rs) <1,40>\n````\n", 1),
            ("````READ (src/a.rs) <1,40> <!-- why -->\n````\n", 1),
            ("````READ (src/a.rs)<3>\n````\n", 1),
            ("```READ (https://example.com/a?b=c#d)\n```\n", 1),
            ("````EDIT (x.py)\nprint(1)\r\nprint(2)\n````\n", 1),
            ("````MOVE (a.md) (drafts/a.md) <!-- tidy -->\n````\n", 1),
            ("````COPY (a.md) <2,3> (b.md)\n````\n", 1),
            ("````MOVE (a.md) (b.md)\nstray body\n````\n", 1),
            ("````SEND (message://a/b)\n{\"ok\": true}\n````\n", 1),
            ("````KILL (log:///3)\n````\n", 1),
            ("````FIND (*)\n````\n````READ (notes.md)\n````\n", 2),
            // §heading-slot-order: a sigil matcher after the targets, a closed aside peeled off
            // its right end (§trailing-slots).
            ("````FIND (src) /foo/i\n````\n", 1),
            ("````FIND (src) /[Rr]ecovery [Ss]ite/ <!-- why -->\n````\n", 1),
            ("````READ (a.md) <1,4>\t^def \n````\n", 1),
            ("````EDIT (x.py) /a/\nbody\n````\n", 1),
            ("````KILL (log:///3) $.a\n````\n", 1),
            ("````FIND (src) /a-->/ <!-- b -->\n````\n", 1),
            // Executors (§exec-executor-slot): the path is never split.
            ("````sh\nls -la\n````\n", 1),
            ("````sh (./run.sh) <!-- go -->\necho\n````\n", 1),
            ("````sh (https://x.io/p?q)\n````\n", 1),
            ("````SH (a.sh) <1,2>\n````\n", 1),
            // One option block after the target, taken as written (§scheme-metadata-modifier).
            ("````SEND (worker://a) [{\"eof\": true}] <!-- end -->\ndone\n````\n", 1),
            ("````WORK (worker://b) []\nrun\n````\n", 1),
            ("````sh (run.sh) [x, \"]\"]\necho\n````\n", 1),
            // §exec-executor-slot: before the target, an executor's block is the selection's
            // (`leading_metadata: selection`); WAIT's row says so too, and its duration block
            // is the general path's.
            ("````sh []\nhostname\n````\n", 1),
            ("````WAIT [30]\n````\n", 0),
            ("````sh [{\"cwd\": \".\"}] (tool) <1,2>\nls\n````\n", 1),
            ("````sh [a] (t) [b]\nls\n````\n", 0),
            ("````sh [a] [b]\nls\n````\n", 0),
            ("````sh [a] <1,2>\nls\n````\n", 0),
            ("````READ [x] (a)\n````\n", 0),
            // Near misses: each needs a rule of the general path.
            ("````READ (src/a.rs) <1,40> trailing text\n````\n", 0),
            ("````READ <1,40> (src/a.rs)\n````\n", 0),
            ("````READ (a\\)b)\n````\n", 0),
            ("````READ (a<1>)\n````\n", 0),
            ("````READ (a) [x]\n````\n", 0),
            ("````READ (a) <!-- open\n````\n", 0),
            ("````READ (a) <1> <2>\n````\n", 0),
            ("````MOVE (a.md)\n````\n", 0),
            ("````KILL\n````\n", 0),
            // §kill-scope: refused here as there, body or not.
            ("````KILL <!-- done -->\nall done\n````\n````KILL (log:///1)\n````\n", 1),
            ("````FIND (a) (b)\n````\n", 0),
            ("````READ (a)b\n````\n", 0),
            ("````READ (a) ```\n", 0),
            ("````FIND (src) /a/ <3>\n````\n", 0),
            ("````FIND (src) /a/ [{\"x\":1}]\n````\n", 0),
            ("````FIND (src) /a/ \u{b7} 900\n````\n", 0),
            ("````FIND (src)/a/\n````\n", 0),
            ("````FIND (src) /a/ <!-->\n````\n", 0),
            ("````FIND /a/ (src)\n````\n", 0),
            ("````MOVE (a) (b) /x/\n````\n", 0),
            ("````SEND (message://a) /x/\n````\n", 0),
            ("````sh (a) (b)\n````\n", 0),
            ("````sh ls -la\n````\n", 0),
            ("````WAIT (worker://a) [30]\n````\n", 0),
            ("````FIND (src) [{\"pattern\": \"x\"}]\n````\n", 0),
            ("````SEND (a) [x] [y]\n````\n", 0),
            ("````SEND (a) [x\n````\n", 0),
            ("````SEND (a) <!-- x --> [y]\n````\n", 0),
        ];
        for &(turn, plain) in rows {
            let (fast, general, built) = both(parse, turn);
            assert_eq!(fast, general, "{turn:?}");
            assert_eq!(built, plain, "{turn:?}");
        }
    }

    /// §slot-order: over turns built from heading fragments (names, slots, scopes, asides, text,
    /// stray brackets and fences) and bodies, both entries give what the general path gives.
    /// §scope-on-scopeless, §send-wait-scope: a scope on an operation that takes none is
    /// dropped here with the general builder's note (a refused target drops the note too, as
    /// there); the count shows the plain path built them.
    #[test]
    fn scope_on_scopeless_plain_headings_drop_the_scope_as_the_general_path_does() {
        let rows: &[(&str, usize)] = &[
            ("````WORK (worker://deprecation-implementer) <1,-1>\nrun\n````\n", 1),
            ("````BARE (worker:///q.md) <2> <!-- ask -->\nq\n````\n", 1),
            ("````BARE (%zz) <2>\nq\n````\n", 1),
            ("````WORK (http://[x) <1,-1>\nrun\n````\n", 0),
            // Scopes these operations keep: nothing dropped.
            ("````SEND (message://a/b) <1,-1>\nhi\n````\n", 1),
            ("````COPY (a.md) (b.md) <2>\n````\n", 1),
        ];
        // The note stands where the dropped scope was written.
        let at = rows[0].0.find('<').unwrap() as u32;
        let dropped =
            |r: &ParseResult| r.items.iter().filter(|i| matches!(i, crate::ast::Item::Error(e) if e.line == 1 && e.column == at)).count();
        for &(turn, plain) in rows {
            let (fast, general, built) = both(parse, turn);
            assert_eq!(fast, general, "{turn:?}");
            assert_eq!(built, plain, "{turn:?}");
        }
        assert_eq!(dropped(&parse(rows[0].0, &ParseOptions::default())), 1, "the WORK scope draws its note");
    }

    #[test]
    fn slot_order_plain_path_agrees_with_the_general_builder() {
        const NAMES: &[&str] =
            &["READ", "EDIT", "FIND", "MOVE", "COPY", "SEND", "BARE", "WORK", "FORK", "KILL", "NOTE", "WAIT", "LOOK", "sh", "Read"];
        const PIECES: &[&str] = &[
            " ",
            "\t",
            "(src/a.rs)",
            "(a b)",
            "(log:///1 log:///2)",
            "(https://x.io/p)",
            "(*.rs)",
            "(message://a/b)",
            "(log:///3)",
            "()",
            "(a\\)b)",
            "(a<1>)",
            "(",
            ")",
            "<1,40>",
            "<3>",
            "<-2>",
            "<0>",
            "<@ab>",
            "<a>",
            "<>",
            "<",
            ">",
            "<!-- why -->",
            "<!-- open",
            "-->",
            "[x]",
            "[5]",
            "[",
            "text",
            "/re/",
            "`^a`",
            "`",
            "```",
            "````",
            "\u{200b}",
            "é",
            "→ a",
            "· 3",
            "42<@ab>",
            " /a b/i",
            " ^x",
            " $.a",
            " ~f",
            " &b",
            "[{\"eof\": true}]",
            "[]",
            " [30]",
            "[\"]\"]",
            "[{\"pattern\": \"p\"}]",
            " /x/ <3>",
            " /x/ [y]",
            "/x/]",
            "-->",
            "<!-->",
            " {\"a\":1}",
            " #chan",
            "\u{3000}",
            "<!-- a ``` b -->",
            " /q/ <!-- ``` -->",
        ];
        const BODIES: &[&str] = &["", "body\n", "{\"a\":1}\n", "/x/\n", "<!-- c -->\n", "a\r\nb\n", "````\n"];
        bolero::check!().with_type::<Vec<u8>>().with_iterations(40_000).with_max_len(24).for_each(|bytes: &Vec<u8>| {
            let mut turn = String::new();
            let mut it = bytes.iter().map(|b| *b as usize);
            while let Some(b) = it.next() {
                turn.push_str(if b % 5 == 0 { "```" } else { "````" });
                turn.push_str(NAMES[it.next().unwrap_or(0) % NAMES.len()]);
                for p in it.by_ref().take(b % 6) {
                    turn.push_str(PIECES[p % PIECES.len()]);
                }
                turn.push('\n');
                turn.push_str(BODIES[it.next().unwrap_or(0) % BODIES.len()]);
                turn.push_str("````\n");
            }
            for f in [parse, parse_client] {
                let (fast, general, _) = both(f, &turn);
                assert_eq!(fast, general, "{turn:?}");
            }
        });
    }
}
