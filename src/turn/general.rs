//! The general path (§fence-pairing): every line classified into the pairing lines, the pairing
//! search, the regions replayed from its answer, a statement built per operation region, the
//! advisories of the quoted and the unfenced, the response text between the regions
//! (§response-text), and the items put in order. It reads every turn; [`super::clean`] reads the
//! clean ones sooner, to the same result.

use super::{item_position, unknown_tag, Workspace};
use crate::ast::{Item, ParseResult, TextItem};
use crate::options::Entry;
use crate::pair::{self, PKind, PLine};
use crate::rules::{DiagId, Rules};
use crate::scan::{self, Class, Classifier, Info, Named, Registry};
use crate::{diagnose, statement};

/// Classifies the lines of `input` (already split into `ws.lines`) into the pairing lines.
pub(super) fn scan_input(input: &str, rules: &Rules, cls: &Classifier, ws: &mut Workspace) {
    let Workspace { lines, plines, inline_unknown, heads, .. } = ws;
    plines.clear();
    inline_unknown.clear();
    heads.clear();
    let lines: &[scan::Line] = lines;
    let text_of = |i: usize| &input[lines[i].start..lines[i].end];
    let class_of = |i: usize| cls.classify(text_of(i));
    // A bare fence asks for its neighbours' classes (§forgotten-tag, the orphan check); each
    // line is still classified once (a class depends on the line's text alone). The line after
    // it is classified for it and kept for its own turn; whether the line before was text is
    // read from the last line that was not, so a text line pays nothing for either.
    let mut ahead: (usize, Class) = (usize::MAX, Class::Text);
    let mut last_marked = usize::MAX;
    // The last line that is a fence line carrying a fence run that closes nothing open under it:
    // a heading whose statements all close on it, or inline code naming an unknown tag.
    let mut last_inline = usize::MAX;
    // Classify every line; only fence-ish lines reach the pairing search.
    let bytes = input.as_bytes();
    for (i, l) in lines.iter().enumerate() {
        // A line whose first byte cannot start a fence, a naked or an unfenced operation is
        // text (§response-text): it is decided on that byte, with no slice of the line.
        if l.start == l.end || !cls.may_matter(bytes[l.start]) {
            continue;
        }
        let c = if ahead.0 == i { ahead.1 } else { cls.classify_slow(text_of(i), bytes[l.start]) };
        let line = i as u32;
        match c {
            Class::Text => {}
            Class::Fence(f) => {
                let before_marked = std::mem::replace(&mut last_marked, i);
                if f.inline {
                    last_inline = i;
                    inline_unknown.push(line);
                    continue;
                }
                if let Info::Chain(named) = f.info {
                    // A closer, then the next opener on the same line (§inline-chain).
                    plines.push(PLine { line, at: f.indent, ch: f.ch, width: f.width, kind: PKind::Bare, forgotten: None, orphan: false });
                    let last = heads.split_named(cls, line, text_of(i), f.info_at, f.chain_width, Some(named)).last();
                    let compact = last.map(|s| s.closed).unwrap_or(false);
                    let open_width = last.map(|s| s.width).unwrap_or(f.chain_width);
                    if compact {
                        last_inline = i;
                    }
                    plines.push(PLine {
                        line,
                        at: u32::try_from(f.info_at).unwrap_or(u32::MAX),
                        ch: b'`',
                        width: f.chain_width,
                        kind: PKind::Heading { named, compact, open_width },
                        forgotten: None,
                        orphan: false,
                    });
                    continue;
                }
                let kind = match f.info {
                    Info::Bare => PKind::Bare,
                    Info::Aside => PKind::Aside,
                    Info::Label => PKind::Label,
                    Info::Chain(_) => unreachable!("handled above"),
                    Info::Heading(named) => {
                        let last = heads.split_named(cls, line, text_of(i), f.indent as usize, f.width, Some(named)).last();
                        let compact = last.map(|s| s.closed).unwrap_or(false);
                        let open_width = last.map(|s| s.width).unwrap_or(f.width);
                        if compact {
                            last_inline = i;
                        }
                        PKind::Heading { named, compact, open_width }
                    }
                };
                let mut forgotten = None;
                let mut orphan = false;
                if kind == PKind::Bare {
                    if i + 1 < lines.len() {
                        let next = class_of(i + 1);
                        ahead = (i + 1, next);
                        forgotten = forgotten_tag(cls, text_of(i + 1), &next);
                    }
                    // §forgotten-tag "draws nothing": a bare fence directly under a line carrying a
                    // fence run is an orphaned closer and quotes nothing: under prose with inline
                    // code, or under a heading line whose statements all close on it (`READ (x)`
                    // between fences on one line is inline code, its closer an orphan's).
                    if i > 0 && (last_inline == i - 1 || before_marked != i - 1 && scan::has_fence_run(text_of(i - 1), rules.fence_min())) {
                        orphan = true;
                    }
                }
                plines.push(PLine { line, at: f.indent, ch: f.ch, width: f.width, kind, forgotten, orphan });
            }
            Class::Naked(op) => {
                last_marked = i;
                let plain = text_of(i).trim_end() == rules.op(op).name;
                plines.push(PLine { line, at: 0, ch: b'`', width: 0, kind: PKind::Naked { op, plain }, forgotten: None, orphan: false });
            }
            Class::Unfenced(_) => {
                last_marked = i;
                plines.push(PLine { line, at: 0, ch: 0, width: 0, kind: PKind::Unfenced, forgotten: None, orphan: false });
            }
        }
    }
    // A huge turn's fence lines outlive the whole pass: give back the growth slack (large blocks
    // shrink in place), so peak memory follows the fence count, not the next power of two.
    if plines.capacity() * std::mem::size_of::<PLine>() > 1 << 22 && plines.capacity() > plines.len() + plines.len() / 8 {
        plines.shrink_to_fit();
    }
}

/// The general path over `input`, its lines already in `ws.lines`.
pub(super) fn read<'a>(
    input: &'a str,
    rules: &Rules,
    cls: &Classifier,
    registry: &Registry,
    entry: Entry,
    ws: &mut Workspace,
) -> ParseResult<'a> {
    scan_input(input, rules, cls, ws);
    pair::pair_into(rules, &rules.facts, &ws.plines, &mut ws.pair);
    let Workspace { lines, plines, inline_unknown, pair: pair_bufs, regions, rb, covered, build_scratch, heads, .. } = ws;
    let lines: &[scan::Line] = lines;
    let class_at = |l: u32| cls.classify(&input[lines[l as usize].start..lines[l as usize].end]);
    let text_of = |i: usize| &input[lines[i].start..lines[i].end];
    // A tag of digits alone names no language: its block is unlabeled for the shown-not-run
    // advisory (§quotation).
    let digits_label = |l: u32| {
        let t = text_of(l as usize).trim_start_matches(' ');
        let t = t.trim_start_matches(['`', '~']).trim();
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
    };
    pair::regions::replay_into(plines, &pair_bufs.committed, digits_label, regions, rb);
    let regions: &pair::regions::Regions = regions;

    let ctx = statement::Ctx::new(input, lines, rules, cls, entry, build_scratch, heads);
    let mut out = statement::Out::default();
    // One statement per region and about one text item between two: grown once, not doubled.
    out.items.reserve(2 * regions.ops.len() + regions.shown.len() + 1);
    covered.clear();
    covered.reserve(regions.ops.len());
    for r in &regions.ops {
        let keep_going = statement::build_region(&ctx, r, &mut out);
        covered.push(coverage(&ctx, r));
        if !keep_going {
            break;
        }
    }
    for s in &regions.shown {
        let name = match s.named {
            Named::Op(i) => rules.op(i).name.clone(),
            Named::Exec(e) => registry.names[e].clone(),
        };
        out.items.push(Item::Error(diagnose::make(rules, DiagId::ShownNotRun, ctx.pos(s.line, s.at), &[("op", &name)], None)));
    }
    for &l in &regions.unfenced {
        let name = match class_at(l) {
            Class::Unfenced(Named::Op(i)) => rules.op(i).name.clone(),
            Class::Unfenced(Named::Exec(e)) => registry.names[e].clone(),
            _ => continue,
        };
        out.items.push(Item::Error(diagnose::make(rules, DiagId::UnfencedOperation, ctx.pos(l, 0), &[("op", &name)], None)));
        let ln = lines[l as usize];
        covered.push((ln.start, ln.next(input.as_bytes())));
    }
    for &l in &regions.unknown_tags {
        if let Class::Fence(f) = class_at(l) {
            if f.slotted {
                out.items.push(unknown_tag(&ctx, l, &f));
            }
        }
    }
    // An unknown tag with slots written as inline code is named where it stands outside every
    // operation (§interstitial-fence).
    let mut op_spans: Vec<(usize, usize)> = Vec::new();
    if !inline_unknown.is_empty() {
        op_spans.extend(covered.iter().take(regions.ops.len()).copied());
        op_spans.sort_unstable();
        // Each end becomes the furthest end so far: "some span holds the line" is then one lookup.
        for k in 1..op_spans.len() {
            op_spans[k].1 = op_spans[k].1.max(op_spans[k - 1].1);
        }
    }
    for &l in inline_unknown.iter() {
        let ln = lines[l as usize];
        let k = op_spans.partition_point(|&(s, _)| s <= ln.start);
        let inside = k > 0 && ln.start < op_spans[k - 1].1;
        if let (false, Class::Fence(f)) = (inside, class_at(l)) {
            out.items.push(unknown_tag(&ctx, l, &f));
        }
    }
    if entry == Entry::Parse {
        text_items(&ctx, covered, &mut out.items);
    }

    let mut items = out.items;
    // Mostly in order already (statements, their notes, text between): a check, not a sort.
    // (`is_sorted_by_key` is newer than the crate's rust-version, 1.80.)
    if !items.windows(2).all(|w| item_position(&w[0]) <= item_position(&w[1])) {
        items.sort_by_key(item_position);
    }
    if let Some(t) = &out.tail {
        items.retain(|i| item_position(i) < t.from);
    }
    ParseResult { items, unparsed_tail: out.tail }
}

/// §forgotten-tag: the line under a bare fence is an operation heading written without its
/// fence — a native name alone or with a slot, or an executor's name with its operand.
fn forgotten_tag(cls: &Classifier, next: &str, class: &Class) -> Option<Named> {
    match *class {
        Class::Naked(op) => Some(Named::Op(op)),
        Class::Unfenced(named) => {
            let b = next.as_bytes();
            let end = cls.name_end(b, 0);
            let rest = next[end..].trim_start_matches([' ', '\t']);
            let slot = rest.starts_with('(') || rest.starts_with('<') || rest.starts_with('[');
            match named {
                Named::Op(_) if slot => Some(named),
                Named::Exec(_) if rest.starts_with('(') => Some(named),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The byte span an operation region takes out of the response text.
fn coverage(ctx: &statement::Ctx<'_, '_>, r: &pair::regions::OpRegion) -> (usize, usize) {
    use pair::regions::End;
    let lines = ctx.lines;
    let start = lines[r.start_line as usize].start;
    let end = match r.end {
        End::Eof => ctx.input.len(),
        End::Heading { line } => lines[line as usize].start,
        End::Name { line } => lines[line as usize].end,
        End::Closer { line, width } => {
            let ln = lines[line as usize];
            let t = &ctx.input[ln.start..ln.end];
            let indent = t.len() - t.trim_start_matches(' ').len();
            let mut e = indent + width as usize;
            let b = t.as_bytes();
            while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                e += 1;
            }
            ln.start + e
        }
        End::Compact => {
            let ln = lines[r.head_line as usize];
            let t = &ctx.input[ln.start..ln.end];
            let b = t.as_bytes();
            // After the line's last closer when only whitespace follows it.
            let mut e = t.trim_end().len();
            let mut k = e;
            while k > 0 && b[k - 1] == b'`' {
                k -= 1;
            }
            if k < e {
                let mut j = e;
                while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                e = j;
            } else {
                e = t.len();
            }
            ln.start + e
        }
    };
    (start, end.max(start))
}

/// §response-text: each non-whitespace span outside operation regions, exactly as written.
fn text_items<'a>(ctx: &statement::Ctx<'a, '_>, covered: &mut [(usize, usize)], items: &mut Vec<Item<'a>>) {
    covered.sort();
    let mut at = 0;
    let push = |s: usize, e: usize, items: &mut Vec<Item<'a>>| {
        if e > s {
            let content = &ctx.input[s..e];
            if !scan::blank(content) {
                let line = match ctx.lines.binary_search_by(|l| l.start.cmp(&s)) {
                    Ok(i) => i,
                    Err(i) => i - 1,
                } as u32;
                let col = s - ctx.lines[line as usize].start;
                items.push(Item::Text(TextItem { content: std::borrow::Cow::Borrowed(content), position: ctx.pos(line, col) }));
            }
        }
    };
    for &(s, e) in covered.iter() {
        if s > at {
            push(at, s, items);
        }
        at = at.max(e);
    }
    push(at, ctx.input.len(), items);
}
