//! The clean turn (§fence-pairing): every fence line an operation heading at the top level and
//! then its closer, `H B H B … H B`, one fence width throughout. Most recorded turns are this, and
//! the search's answer for them is known without searching: each heading opens, each closer
//! closes. The lines are held while the turn stays clean; at the first line that breaks the
//! shape they are replayed into the full search, which then goes on as if nothing was held.
//!
//! Why the answer is the search's (built-in rule set; `Pairer::clean_ok` checks it is that one):
//! the reading R0 (`Open`, `Close`, …) pays nothing and ends with nothing open. Any other
//! complete reading that pays nothing in the complete order (`hidden`, `discarded`, `supplied`,
//! `other_text`) must at some closer B_i nest instead of close (the only other move an operation
//! body offers a bare closer of its width). From then on the nested block N never closes for
//! free: the next heading, at the same width, cannot glue (it is not `min_width` wider) and is
//! not enclosed (not narrower, N holds no labeled width), so it ends N at a supplied closer (a
//! repair), is text at a cost, or is an example (hidden or swallowed, or literal at no complete
//! cost) that the next closer closes, leaving N open again. At the end of the input N costs a
//! supplied closer, a repair. So R0 is the only complete reading of zero key, and it does not run
//! on: the search returns it. It is never merged away (nothing costs less) and never pruned:
//! each zero-key reading but R0 nested at a distinct closer, so there are at most `pairs + 1`
//! of them, and `pairs < max_candidates` keeps them all (and the history far below its cap).
//! A body under a bodyless operation would make R0 pay: such a heading must meet its closer on
//! the next line. `pairing_algorithm_clean_turn_agrees_with_the_full_search` compares the two.

use super::{Move, PKind, PLine, Pairer};
use crate::scan::Named;

/// The clean turn so far.
#[derive(Clone, Copy, Default)]
pub(super) struct Clean {
    /// The turn is clean so far and the lines are held, not searched.
    pub(super) live: bool,
    /// The fence width every line of the turn has.
    width: u32,
    /// Opener–closer pairs held.
    pairs: usize,
    /// The heading awaiting its closer: its line and whether its operation takes no body.
    open: Option<(u32, bool)>,
}

impl Clean {
    pub(super) fn new(live: bool) -> Clean {
        Clean { live, ..Clean::default() }
    }

    /// The turn held so far is clean and complete: `finish_clean` would commit it.
    pub(super) fn ready(&self) -> bool {
        self.open.is_none() && self.pairs > 0
    }
}

impl Pairer<'_> {
    /// Holds `pl` if the turn stays clean with it; returns false, having changed nothing, if not.
    #[inline]
    pub(super) fn hold_clean(&mut self, pl: &PLine) -> bool {
        let c = &mut self.clean;
        match (c.open, pl.kind) {
            (None, PKind::Heading { named, compact: false, open_width }) => {
                if pl.width != open_width || (c.pairs > 0 && pl.width != c.width) || c.pairs + 1 >= self.cfg.max_cands {
                    return false;
                }
                c.width = pl.width;
                let bodyless = match named {
                    Named::Op(i) => self.cfg.facts[i].body_repair,
                    Named::Exec(_) => false,
                };
                c.open = Some((pl.line, bodyless));
            }
            (Some((line, bodyless)), PKind::Bare) => {
                if pl.ch != b'`' || pl.width != c.width || pl.forgotten.is_some() || pl.orphan || (bodyless && pl.line > line + 1) {
                    return false;
                }
                c.open = None;
                c.pairs += 1;
            }
            _ => return false,
        }
        self.held.push(*pl);
        true
    }

    /// The turn is not clean after all: the held lines go through the full search.
    #[cold]
    #[inline(never)]
    pub(super) fn leave_clean(&mut self) {
        self.clean.live = false;
        let held = std::mem::take(&mut self.held);
        for pl in &held {
            self.feed_search(pl);
        }
        self.held = held;
        self.held.clear();
    }

    /// At the end of the input: a clean turn commits its choices (each heading opens, each closer
    /// closes); returns false when the turn ended inside a block or held nothing.
    pub(super) fn finish_clean(&mut self) -> bool {
        if !self.clean.ready() {
            return false;
        }
        for pl in &self.held {
            let choice = match pl.kind {
                PKind::Heading { open_width, .. } => (pl.line, Move::Open, open_width),
                _ => (pl.line, Move::Close, 0),
            };
            self.committed.push(choice);
        }
        self.held.clear();
        self.clean.live = false;
        true
    }
}
