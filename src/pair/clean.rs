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

#[cfg(test)]
mod tests {
    use super::super::tests::{random_turns, sequence};
    use super::super::{PKind, PLine, Pairer};
    use crate::rules::Rules;
    use crate::scan::Named;

    /// Turns close to the clean shape (`clean`): headings of every kind of operation and of an
    /// executor, each followed by a bare closer, mostly at one width, with text or none between
    /// them; now and then a width, the closer's character, a compact heading, a missing or an
    /// extra fence breaks the shape, and some turns run past `max_candidates` pairs.
    fn near_clean_turns(rules: &Rules, seed: u64, count: usize) -> Vec<Vec<PLine>> {
        let ops = rules.facts.len();
        let mut draw = sequence(seed);
        let mut next = |n: u64| draw(n) as u32;
        let mut turns = Vec::new();
        for _ in 0..count {
            let width = [3, 4, 4, 5][next(4) as usize];
            let pairs = if next(8) == 0 { 10 + next(12) } else { 1 + next(5) };
            let mut line = next(3);
            let mut plines = Vec::new();
            for _ in 0..pairs {
                let named = if next(6) == 0 { Named::Exec(0) } else { Named::Op(next(ops as u64) as usize) };
                let odd = |n: &mut dyn FnMut(u64) -> u32| n(40) == 0;
                let hw = if odd(&mut next) { width + 1 } else if odd(&mut next) { width - 1 } else { width };
                let ow = if odd(&mut next) { hw + 3 } else { hw };
                let compact = odd(&mut next);
                plines.push(PLine { line, at: 0, ch: b'`', width: hw, kind: PKind::Heading { named, compact, open_width: ow }, forgotten: None, orphan: false });
                line += 1 + next(3);
                if odd(&mut next) {
                    continue;
                }
                let bw = if odd(&mut next) { width + 1 } else if odd(&mut next) { width - 1 } else { width };
                let ch = if odd(&mut next) { b'~' } else { b'`' };
                let forgotten = odd(&mut next).then_some(named);
                let orphan = odd(&mut next);
                plines.push(PLine { line, at: 0, ch, width: bw, kind: PKind::Bare, forgotten, orphan });
                line += 1 + next(3);
                if odd(&mut next) {
                    plines.push(PLine { line, at: 0, ch: b'`', width, kind: PKind::Bare, forgotten: None, orphan: false });
                    line += 1 + next(2);
                }
            }
            turns.push(plines);
        }
        turns
    }

    /// The clean short-cut (`clean`) makes the choices the full search makes, over near-clean
    /// turns and over `random_turns` (§pairing-algorithm), and is taken often enough to matter.
    #[test]
    fn pairing_algorithm_clean_turn_agrees_with_the_full_search() {
        let rules = Rules::builtin();
        let mut turns = near_clean_turns(rules, 0x2545_f491_4f6c_dd1d, 6_000);
        turns.extend(random_turns(rules, 0x5851_f42d_4c95_7f2d, 2_000));
        turns.push(Vec::new());
        let mut taken = 0;
        for plines in turns {
            let run = |clean: bool| {
                let mut p = Pairer::new(rules, &rules.facts);
                p.clean.live = clean;
                for pl in &plines {
                    p.feed(pl);
                }
                let took = p.clean.live && p.clean.ready();
                (p.finish(), took)
            };
            let (fast, took) = run(true);
            let (full, _) = run(false);
            assert_eq!(fast, full, "{plines:?}");
            taken += usize::from(took);
        }
        assert!(taken > 1_500, "the turns were clean too rarely ({taken})");
    }
}
