//! Replays the chosen reading into regions: operation blocks with their ends, and the outside
//! lines the reading set apart (unfenced operation lines, shown headings). An orphaned or stray
//! closer quotes nothing and is set apart from nothing: it is response text (§response-text).

use super::{Move, PKind, PLine};
use crate::scan::Named;

/// How an operation block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Every statement closes on the heading line.
    Compact,
    /// At its closing fence on `line`; `width` backticks of it (a glued closer takes only the
    /// block's own width, the rest opens the next statement).
    Closer { line: u32, width: u32 },
    /// At the next heading on `line`, without a closer (§closer-fallback).
    Heading { line: u32 },
    /// At the naked operation's own name on `line` (§naked-operation).
    Name { line: u32 },
    /// At the end of the input (§closer-fallback, §message-run-on).
    Eof,
}

/// How an operation block was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Fenced,
    /// A column-zero name without a fence (§naked-operation).
    Naked(usize),
    /// A bare fence with the heading on the next line (§forgotten-tag).
    Forgotten(Named),
}

#[derive(Debug, Clone, Copy)]
pub struct OpRegion {
    /// First line of the block (the opening fence).
    pub start_line: u32,
    /// The line holding the heading text.
    pub head_line: u32,
    /// Byte offset of the statement's fence in the heading line.
    pub fence_at: usize,
    /// Byte offset the first statement's position names: the fence, or the line's first
    /// backtick when a closer is glued before it.
    pub pos_at: usize,
    /// Width of the first statement's fence.
    pub width: u32,
    /// Width of the line's last, unclosed opener (the block's own width).
    pub open_width: u32,
    pub form: Form,
    pub end: End,
}

/// A heading an unlabeled quotation shows (§quotation "shown, not run").
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    pub line: u32,
    pub at: usize,
    pub named: Named,
}

#[derive(Debug, Default)]
pub struct Regions {
    pub ops: Vec<OpRegion>,
    pub shown: Vec<Shown>,
    /// Unfenced operation lines outside every block (§unfenced-operation).
    pub unfenced: Vec<u32>,
    /// Quotations opened by an unknown tag with invocation slots (§interstitial-fence).
    pub unknown_tags: Vec<u32>,
}

/// A block the replay holds open.
pub enum Rb {
    Op(usize),
    Quote { unlabeled: bool },
    Nested { labeled: bool },
}

/// Replays the chosen moves over the fence lines into reused buffers (cleared first).
#[inline]
pub fn replay_into(
    plines: &[PLine],
    choices: &[(u32, Move, u32)],
    unlabeled_label: impl Fn(u32) -> bool,
    r: &mut Regions,
    stack: &mut Vec<Rb>,
) {
    r.ops.clear();
    r.shown.clear();
    r.unfenced.clear();
    r.unknown_tags.clear();
    stack.clear();
    debug_assert_eq!(plines.len(), choices.len());
    let open_region = |r: &mut Regions, pl: &PLine, fence_at: usize, width: u32, open_width: u32, form: Form, compact: bool| -> usize {
        r.ops.push(OpRegion {
            start_line: pl.line,
            head_line: if matches!(form, Form::Forgotten(_)) { pl.line + 1 } else { pl.line },
            fence_at,
            pos_at: fence_at,
            width,
            open_width,
            form,
            end: if compact { End::Compact } else { End::Eof },
        });
        r.ops.len() - 1
    };
    for (pl, &(_, mv, mw)) in plines.iter().zip(choices) {
        let indent = pl.at as usize;
        let compact = matches!(pl.kind, PKind::Heading { compact: true, .. });
        match mv {
            Move::Text | Move::Example => {
                // An operation inside an unlabeled code block was shown, not run (§quotation).
                if let (Some(Rb::Quote { unlabeled: true }), PKind::Heading { named, .. }) = (stack.first(), pl.kind) {
                    if stack[1..].iter().all(|b| matches!(b, Rb::Nested { labeled: false })) {
                        r.shown.push(Shown { line: pl.line, at: indent, named });
                    }
                }
                if mv == Move::Example && !compact {
                    stack.push(Rb::Nested { labeled: true });
                }
            }
            Move::Open | Move::Compact => {
                let i = open_region(r, pl, indent, pl.width, mw, Form::Fenced, compact);
                if !compact {
                    stack.push(Rb::Op(i));
                }
            }
            Move::Quote => {
                if pl.kind == PKind::Label && unlabeled_label(pl.line) {
                    stack.push(Rb::Quote { unlabeled: true });
                } else {
                    stack.push(Rb::Quote { unlabeled: pl.kind == PKind::Bare });
                }
            }
            Move::Close | Move::NarrowClose => {
                if let Some(Rb::Op(i)) = stack.pop() {
                    r.ops[i].end = End::Closer { line: pl.line, width: pl.width };
                }
            }
            Move::Nest => stack.push(Rb::Nested { labeled: pl.kind != PKind::Bare }),
            Move::EndByHeading => {
                while let Some(b) = stack.pop() {
                    if let Rb::Op(i) = b {
                        r.ops[i].end = End::Heading { line: pl.line };
                    }
                }
                let i = open_region(r, pl, indent, pl.width, mw, Form::Fenced, compact);
                if !compact {
                    stack.push(Rb::Op(i));
                }
            }
            Move::Glued => {
                let mut own = 0;
                if let Some(Rb::Op(i)) = stack.pop() {
                    own = r.ops[i].open_width;
                    r.ops[i].end = End::Closer { line: pl.line, width: own };
                }
                let i = open_region(r, pl, indent + own as usize, pl.width - own, mw, Form::Fenced, compact);
                r.ops[i].pos_at = indent;
                if !compact {
                    stack.push(Rb::Op(i));
                }
            }
            Move::NakedOpen => {
                if let PKind::Naked { op, .. } = pl.kind {
                    let i = open_region(r, pl, 0, 0, 0, Form::Naked(op), false);
                    stack.push(Rb::Op(i));
                }
            }
            Move::NakedClose => {
                if let Some(Rb::Op(i)) = stack.pop() {
                    r.ops[i].end = End::Name { line: pl.line };
                }
            }
            Move::Forgotten => {
                let named = pl.forgotten.unwrap_or(Named::Op(0));
                let i = open_region(r, pl, indent, pl.width, pl.width, Form::Forgotten(named), false);
                stack.push(Rb::Op(i));
            }
            // Outside every operation region: response text (§response-text).
            Move::Orphan | Move::Stray => {}
            Move::Unfenced => r.unfenced.push(pl.line),
        }
        if mv == Move::Quote && pl.kind == PKind::Label {
            r.unknown_tags.push(pl.line);
        }
    }
}
