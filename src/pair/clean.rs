//! The clean turn (§fence-pairing): every fence line an operation heading at the top level and
//! then its closer, `H B H B … H B`, one fence width throughout. Most recorded turns are this, and
//! the search's answer for them is known without searching: each heading opens, each closer
//! closes. `pair_into` checks the whole turn first and runs the full search only when a line
//! breaks the shape.
//!
//! Why the answer is the search's (built-in rule set; `pair_into` checks it is that one):
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
//! the next line.
//!
//! Two more units keep the turn clean, one width throughout still. A labeled fence `L` at the top
//! level with its bare closer (`L B`, the corpus's ```` ```sh ````): R0 quotes it and the closer
//! closes the quotation, each its only move there, so R0 stays the only reading the pair makes
//! from R0. A compact heading `C` between pairs: R0 reads it as `Compact`, its only move at the
//! top level. Neither lets a nested reading close N for free: inside N, `L` nests a labeled block
//! that `B` closes (N open again) or is discarded code, a cost; `C` is an example that pushes
//! nothing (N open still), or ends N at a supplied closer, a repair (it cannot glue: N's top is
//! not an operation's block). So the count of zero-key readings is unchanged and `units`, which
//! counts every unit, still bounds it. `pairing_algorithm_clean_turn_agrees_with_the_full_search`
//! compares the two.

use super::{Buffers, Choices, Move, OpFacts, PKind, PLine, Pairer};
use crate::rules::Rules;
use crate::scan::Named;

/// Pairs a whole turn (`plines`, in line order) into `bufs.committed`: at once when the turn is
/// clean (built-in rule set only, where the argument above holds), else by the full search.
/// A clean turn builds no search at all: no readings, no history, no buffers moved.
pub fn pair_into(rules: &Rules, facts: &[OpFacts], plines: &[PLine], bufs: &mut Buffers) {
    bufs.committed.clear();
    let max_cands = (rules.tables.pairing.max_candidates as usize).max(1);
    if std::ptr::eq(rules, Rules::builtin()) && crate::shortcuts() && pair_clean(facts, max_cands, plines, &mut bufs.committed) {
        return;
    }
    search_into(rules, facts, plines, bufs);
}

/// The full search over `plines`, its buffers reused (out of line: most turns are clean).
#[inline(never)]
fn search_into(rules: &Rules, facts: &[OpFacts], plines: &[PLine], bufs: &mut Buffers) {
    let mut p = Pairer::with_buffers(rules, facts, std::mem::take(bufs));
    for pl in plines {
        p.feed(pl);
    }
    *bufs = p.finish_into().0;
}

/// The clean turn's choices, pushed to `out` (each heading opens, each labeled fence quotes,
/// each closer closes, each compact heading is compact); returns false, `out` then holding a
/// partial answer to discard, when the turn is not clean or holds no unit.
pub(super) fn pair_clean(facts: &[OpFacts], max_cands: usize, plines: &[PLine], out: &mut Choices) -> bool {
    // One fence width throughout (the first line's).
    let width = match plines.first() {
        Some(pl) => pl.width,
        None => return false,
    };
    // Units held (opener–closer pairs and compact headings), and the opener awaiting its
    // closer: its line and whether it is a heading whose operation takes no body.
    let mut units = 0usize;
    let mut open: Option<(u32, bool)> = None;
    for pl in plines {
        if pl.width != width {
            return false;
        }
        let choice = match (open, pl.kind) {
            (None, PKind::Heading { named, compact, open_width }) => {
                if units + 1 >= max_cands {
                    return false;
                }
                if compact {
                    units += 1;
                    (pl.line, Move::Compact, 0)
                } else {
                    if pl.width != open_width {
                        return false;
                    }
                    let bodyless = match named {
                        Named::Op(i) => facts[i].body_repair,
                        Named::Exec(_) => false,
                    };
                    open = Some((pl.line, bodyless));
                    (pl.line, Move::Open, open_width)
                }
            }
            (None, PKind::Label) => {
                if pl.ch != b'`' || units + 1 >= max_cands {
                    return false;
                }
                open = Some((pl.line, false));
                (pl.line, Move::Quote, pl.width)
            }
            (Some((line, bodyless)), PKind::Bare) => {
                if pl.ch != b'`' || pl.forgotten.is_some() || pl.orphan || (bodyless && pl.line > line + 1) {
                    return false;
                }
                open = None;
                units += 1;
                (pl.line, Move::Close, 0)
            }
            _ => return false,
        };
        out.push(choice);
    }
    open.is_none() && units > 0
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_turns, sequence};
    use super::super::{pair, Buffers, PKind, PLine};
    use super::{pair_clean, pair_into};
    use crate::rules::Rules;
    use crate::scan::Named;

    /// Turns close to the clean shape (`clean`): headings of every kind of operation and of an
    /// executor and labeled fences, each followed by a bare closer, and compact headings alone,
    /// mostly at one width, with text or none between them; now and then a width, the closer's
    /// character, a compact heading, a missing or an extra fence breaks the shape, and some turns
    /// run past `max_candidates` pairs.
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
                // A labeled fence, or a compact heading standing alone, now and then.
                let (kind, ch, alone) = match next(10) {
                    0 | 1 => (PKind::Label, if odd(&mut next) { b'~' } else { b'`' }, false),
                    2 => (PKind::Heading { named, compact: true, open_width: 0 }, b'`', !odd(&mut next)),
                    _ => (PKind::Heading { named, compact: odd(&mut next), open_width: ow }, b'`', false),
                };
                plines.push(PLine { line, at: 0, ch, width: hw, kind, forgotten: None, orphan: false });
                line += 1 + next(3);
                if alone || odd(&mut next) {
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
        let (mut taken, mut labeled, mut compact) = (0, 0, 0);
        let max_cands = rules.tables.pairing.max_candidates as usize;
        let mut bufs = Buffers::default();
        for plines in turns {
            let full = pair(rules, &rules.facts, &plines);
            let mut fast = Vec::new();
            let took = pair_clean(&rules.facts, max_cands, &plines, &mut fast);
            if took {
                assert_eq!(fast, full, "{plines:?}");
            }
            pair_into(rules, &rules.facts, &plines, &mut bufs);
            assert_eq!(bufs.committed, full, "{plines:?}");
            taken += usize::from(took);
            labeled += usize::from(took && plines.iter().any(|pl| pl.kind == PKind::Label));
            compact += usize::from(took && plines.iter().any(|pl| matches!(pl.kind, PKind::Heading { compact: true, .. })));
        }
        assert!(taken > 1_500, "the turns were clean too rarely ({taken})");
        assert!(labeled > 300 && compact > 300, "labeled ({labeled}) or compact ({compact}) units were clean too rarely");
    }
}
