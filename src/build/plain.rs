//! The plain heading: a native operation's name, then at most its targets (each with an
//! optional scope right after it) and an optional closed aside, nothing else (§slot-order).
//! Most headings models write are plain. They are read here in one pass and built straight
//! into a statement: the general lexer and builder hold every tolerance rule, and their code
//! is several times what one plain statement needs, so running them for it refetches code the
//! instruction cache could not keep.
//!
//! Anything else gives `None` and the general path reads it: heading text, option blocks, a
//! scope before its target or a second one, a dropped scope, a body the row does not keep, a
//! possible target group, a client-tier name, a closer on the line. The tests below hold the
//! two paths to the same output.

use super::*;

/// A plain heading's slots, by byte offsets into the line.
#[derive(Default)]
struct Slots {
    /// Each target's inner range and the inner range of the scope after it.
    sels: [((usize, usize), Option<ScopeTok>); 2],
    n: usize,
    /// The inner range of a closed aside.
    aside: Option<(usize, usize)>,
}

/// Reads `[from, end)` of `line` as a plain heading's slots, or `None`.
fn lex(line: &str, from: usize, end: usize) -> Option<Slots> {
    let b = &line.as_bytes()[..end];
    let mut s = Slots::default();
    let mut i = from;
    loop {
        while i < end && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i == end {
            return Some(s);
        }
        if s.aside.is_some() {
            return None;
        }
        match b[i] {
            b'(' if s.n < 2 => {
                // No escape, nested parenthesis or `<` inside: the first `)` closes the slot
                // (§path-parentheses, §scope-slot-tolerance).
                let close = i + 1 + memchr::memchr(b')', &b[i + 1..])?;
                if memchr::memchr3(b'(', b'\\', b'<', &b[i + 1..close]).is_some() {
                    return None;
                }
                s.sels[s.n] = ((i + 1, close), None);
                s.n += 1;
                i = close + 1;
            }
            b'<' if b[i..].starts_with(b"<!--") => {
                let j = heading::aside_close(b, i + 4)?;
                s.aside = Some((i + 4, j));
                i = j + 3;
            }
            b'<' if s.n > 0 && s.sels[s.n - 1].1.is_none() => {
                let gt = i + memchr::memchr(b'>', &b[i..])?;
                s.sels[s.n - 1].1 = Some(ScopeTok { open: i, inner: (i + 1, gt), closed: true, lead: None, bare: false });
                i = gt + 1;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by the tests to read every heading by the general path.
    pub(super) static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The statement of a plain fenced heading, written to `out`, or `None` for the general path.
pub(super) fn statement<'a>(ctx: &Ctx<'a, '_>, r: &OpRegion, seg: &Segment, position: Position, body: Option<(usize, usize, u32, u32)>, out: &mut Vec<Item<'a>>) -> Option<Result<(), Refusal>> {
    #[cfg(test)]
    if GENERAL_ONLY.with(|g| g.get()) {
        return None;
    }
    let Named::Op(index) = seg.named else { return None };
    if r.form != Form::Fenced || !seg.closers.is_empty() {
        return None;
    }
    let o = ctx.rules.op(index);
    if o.tier == Tier::Client {
        return None;
    }
    let line = ctx.line_text(r.head_line);
    let slots = lex(line, seg.name.1, seg.end)?;
    let n = slots.n;
    let fits = match o.operands {
        Operands::None => n == 0,
        Operands::Two => n == 2,
        // §kill-scope: a distillation without its target is refused.
        Operands::Required | Operands::Group if n == 0 => o.body != BodyKind::Distillation,
        Operands::Required | Operands::Group => n == 1,
        Operands::Optional => n <= 1,
    } && (o.shape != Shape::Transfer || n == 2);
    let scoped = slots.sels[..n].iter().any(|s| s.1.is_some());
    if !fits || (scoped && drops_scopes(o, n > 0)) {
        return None;
    }
    let raw_body = body_text(ctx, body);
    let keeps_body = !matches!(o.body, BodyKind::None | BodyKind::Distillation);
    if raw_body.is_some() && !keeps_body && o.shape != Shape::Transfer {
        return None;
    }
    let mut sels = [Sel::default(), Sel::default()];
    for (sel, &(inner, scope)) in sels.iter_mut().zip(&slots.sels[..n]) {
        sel.marks = target::SlotMarks::of(&line[inner.0..inner.1]);
        if o.operands == Operands::Group && sel.marks.may_be_group() {
            return None;
        }
        sel.target = Some(TSrc::Slot(inner));
        if let Some(st) = scope {
            sel.scopes.push(st);
        }
    }
    let h = Heading { line, line_no: r.head_line, pre: Sel::default(), sels: Vec::new(), aside: None, arrows: Vec::new(), text: None };
    let name = ctx.name_of(seg.named);
    let mut notes = Vec::new();
    let mut read = |sel: &Sel| -> Result<(Option<Target<'a>>, Option<LineMarker>), Refusal> {
        let target = read_target(ctx, &h, sel, position)?;
        let lm = read_scope(ctx, &h, sel, o.scope, name, seg.named, &mut notes).map_err(Refusal::Error)?;
        Ok((target, lm))
    };
    let aside = slots.aside.map(|(s, e)| Cow::Borrowed(line[s..e].trim()));
    let head = op_head(ctx, index, name, o.shape);
    let mut st = Statement { head, aside, target: None, metadata: None, line_marker: None, matcher: None, body: Body::Null, source: None, destination: None, seconds: None, position };
    if o.shape == Shape::Transfer {
        let mut both = [None, None];
        for (slot, sel) in both.iter_mut().zip(&sels[..n]) {
            let (target, line_marker) = match read(sel) {
                Ok(read) => read,
                Err(e) => return Some(Err(e)),
            };
            *slot = Some(Box::new(Selection { target, metadata: None, line_marker, matcher: None }));
        }
        let [source, destination] = both;
        st.source = source;
        st.destination = destination;
        if let (Some(_), Some((_, _, first, last))) = (raw_body, body) {
            notes.push(body_unused(ctx, name, false, first, last, position));
        }
    } else {
        if n == 1 {
            match read(&sels[0]) {
                Ok((target, lm)) => (st.target, st.line_marker) = (target, lm),
                Err(e) => return Some(Err(e)),
            }
        }
        if keeps_body {
            st.body = kept_body(ctx, o.body, raw_body.map(Cow::Borrowed), position, &mut notes);
        }
    }
    out.push(Item::Statement(st));
    #[cfg(test)]
    count_built();
    if !notes.is_empty() {
        out.extend(notes.into_iter().map(Item::Error));
    }
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
    use super::{BUILT, GENERAL_ONLY};
    use crate::{parse, parse_client, ParseOptions, ParseResult};

    /// `(result by this path and the general one, plain statements built)`.
    fn both<'a>(f: fn(&'a str, &ParseOptions) -> ParseResult<'a>, turn: &'a str) -> (ParseResult<'a>, ParseResult<'a>, usize) {
        let opts = ParseOptions::default();
        let before = BUILT.with(|b| b.get());
        let fast = f(turn, &opts);
        let built = BUILT.with(|b| b.get()) - before;
        GENERAL_ONLY.with(|g| g.set(true));
        let general = f(turn, &opts);
        GENERAL_ONLY.with(|g| g.set(false));
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
            ("````FIND (a) (b)\n````\n", 0),
            ("````READ (a)b\n````\n", 0),
            ("````READ (a) ```\n", 0),
        ];
        for &(turn, plain) in rows {
            let (fast, general, built) = both(parse, turn);
            assert_eq!(fast, general, "{turn:?}");
            assert_eq!(built, plain, "{turn:?}");
        }
    }

    /// §slot-order: over turns built from heading fragments (names, slots, scopes, asides, text,
    /// stray brackets and fences) and bodies, both entries give what the general path gives.
    #[test]
    fn slot_order_plain_path_agrees_with_the_general_builder() {
        const NAMES: &[&str] = &["READ", "EDIT", "FIND", "MOVE", "COPY", "SEND", "BARE", "WORK", "FORK", "KILL", "NOTE", "WAIT", "LOOK", "sh", "Read"];
        const PIECES: &[&str] = &[
            " ", "\t", "(src/a.rs)", "(a b)", "(log:///1 log:///2)", "(https://x.io/p)", "(*.rs)", "(message://a/b)", "(log:///3)", "()", "(a\\)b)",
            "(a<1>)", "(", ")", "<1,40>", "<3>", "<-2>", "<0>", "<@ab>", "<a>", "<>", "<", ">", "<!-- why -->", "<!-- open", "-->", "[x]", "[5]", "[",
            "text", "/re/", "`^a`", "`", "```", "````", "\u{200b}", "é", "→ a", "· 3", "42<@ab>",
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
