//! Fence pairing (§fence-pairing): one pass ahead of heading reading that decides where every
//! block ends, as the least-cost reading of the whole input (§pairing-objective).
//!
//! The search runs forward over the *fence lines* only (text lines between them just mark the
//! open block as holding content). A reading's state is its block stack; readings that reach the
//! same stack are merged, keeping the cheaper one and, on a tie, the one a preference-ordered
//! search meets first (§pairing-algorithm "Candidates"). Complete and repaired readings are kept
//! apart because they are ordered differently (§pairing-objective); both orders, the counted
//! classes and what each event adds come from `rules/tolerance.yaml`.
//!
//! Bounds (stated here and checked by tests): a stack holds at most `max_depth` blocks (a fence
//! that would open deeper reads as body), and at most `max_candidates` complete and as many
//! repaired readings survive each fence line. Each fence line therefore costs
//! O(max_candidates × max_depth) and the pass is linear in the input. The history of choices is
//! committed whenever a single reading survives, so memory stays proportional to the longest
//! stretch of genuinely ambiguous fences, and is capped at `HISTORY_CAP` nodes beyond which the
//! best reading is committed early.

mod clean;

pub use clean::pair_into;
pub(crate) use clean::Block;
pub mod regions;

use crate::rules::{Rules, PAIR_EVENTS};
use crate::scan::Named;

pub use crate::rules::{OpFacts, MAX_COUNTERS};
/// Hard ceiling on `max_depth` (the stack is an inline array).
pub const DEPTH_CAP: usize = 16;
/// History nodes kept before the best reading is committed early.
pub const HISTORY_CAP: usize = 1 << 20;
/// History size at which the common prefix of the live readings is first committed.
const GC_FLOOR: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairEvent {
    SuppliedCloser = 0,
    MessageRunOn,
    NarrowCloser,
    BodyUnderBodyless,
    HiddenOperation,
    SwallowedOperation,
    LiteralExample,
    DiscardedCode,
    FenceAsText,
    StrayFence,
    QuoteRunOn,
    WithheldText,
}

const _: () = assert!(PAIR_EVENTS.len() == 12);

/// What a fence line is, for pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PKind {
    /// Backticks (or tildes) and whitespace only.
    Bare,
    /// A fence followed by one complete aside (a closer, §closer-aside).
    Aside,
    /// A fence naming nothing known.
    Label,
    /// A heading. `compact`: every statement on the line closes on it. `open_width`: the width
    /// of the line's last, unclosed opener (when not compact).
    Heading { named: Named, compact: bool, open_width: u32 },
    /// A naked operation name (§naked-operation); `plain` when no aside rides it.
    Naked { op: usize, plain: bool },
    /// A column-zero operation name with more (§unfenced-operation).
    Unfenced,
}

/// One fence line handed to the search.
#[derive(Debug, Clone, Copy)]
pub struct PLine {
    pub line: u32,
    /// Byte offset of the fence in its line.
    pub at: u32,
    pub ch: u8,
    pub width: u32,
    pub kind: PKind,
    /// A bare fence whose next line is an operation heading written without its fence
    /// (§forgotten-tag).
    pub forgotten: Option<Named>,
    /// A bare fence directly under a text line carrying a fence run (an orphaned closer).
    pub orphan: bool,
}

/// The choice made at one fence line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Content of the open block (or outside text).
    Text,
    /// At the top level: a heading opens its operation (`width` = the opener's width).
    Open,
    /// At the top level: a heading line whose statements all close on it.
    Compact,
    /// At the top level: a fence that opens no operation quotes (§quotation).
    Quote,
    /// The fence closes the top block.
    Close,
    /// A narrower same-character fence read as the outermost block's closer (one repair).
    NarrowClose,
    /// The fence opens a nested block.
    Nest,
    /// A heading ends every open block without a closer and opens (or is) its statement.
    EndByHeading,
    /// A wide heading fence read as the block's closer glued to the next opener.
    Glued,
    /// A heading held as a literal example (nested, unless compact).
    Example,
    /// A naked operation name opens its block.
    NakedOpen,
    /// The naked block's name line closes it.
    NakedClose,
    /// A bare fence opens the operation named on the next line (§forgotten-tag).
    Forgotten,
    /// A bare fence under a fence-carrying line: quotes nothing.
    Orphan,
    /// A top-level bare fence read as a stray closer: one repair, quotes nothing.
    Stray,
    /// An unfenced operation line outside every block.
    Unfenced,
}

// Frame kinds and flags, packed into a `Frame`.
const K_OP: u8 = 0;
const K_QUOTE: u8 = 1;
const K_NESTED: u8 = 2;

const F_PROSE: u8 = 1;
const F_YIELDS: u8 = 2;
const F_LITERAL: u8 = 4;
const F_NAKED: u8 = 8;
const F_BODY_REPAIR: u8 = 16;
const F_LABELED: u8 = 32;
const F_SKIP_NEXT: u8 = 64;

/// The open block holds content (a flag like the others, so a frame stays six bytes).
const F_CONTENT: u8 = 128;
/// `Frame::tag`: the kind in the low bits, and whether the fence character is a tilde.
const KIND_MASK: u8 = 3;
const T_TILDE: u8 = 4;

/// One open block. Six bytes, so a whole reading (16 frames, its costs and history) stays under
/// 128 bytes and is copied with a few vector moves rather than a `memcpy` call: the search copies
/// a reading for every successor it makes.
/// `repr(C)` fixes the field order, so `bits` reads the frame as two adjacent loads.
#[derive(Debug, Clone, Copy, Eq, Default)]
#[repr(C)]
struct Frame {
    tag: u8,
    flags: u8,
    width: u16,
    /// Width of the innermost labeled or example block holding this one (itself included);
    /// for an operation's block, the operation (a naked block closes on its own name).
    holder: u16,
}

/// Equal frames have equal fields: compared as one integer rather than field by field, with a
/// branch each (stacks are compared for every successor a fence line makes).
impl PartialEq for Frame {
    fn eq(&self, o: &Frame) -> bool {
        self.bits() == o.bits()
    }
}

impl Frame {
    fn bits(&self) -> u64 {
        u64::from(self.tag) | u64::from(self.flags) << 8 | u64::from(self.width) << 16 | u64::from(self.holder) << 32
    }
    /// `ch` is a fence character: a backtick or a tilde.
    fn new(kind: u8, ch: u8, flags: u8, width: u16, holder: u16) -> Frame {
        debug_assert!(ch == b'`' || ch == b'~');
        Frame { tag: kind | if ch == b'~' { T_TILDE } else { 0 }, flags, width, holder }
    }
    fn kind(&self) -> u8 {
        self.tag & KIND_MASK
    }
    fn ch(&self) -> u8 {
        if self.tag & T_TILDE != 0 {
            b'~'
        } else {
            b'`'
        }
    }
    fn content(&self) -> bool {
        self.flags & F_CONTENT != 0
    }
}

#[derive(Clone, Copy)]
struct Stack {
    len: u8,
    frames: [Frame; DEPTH_CAP],
}

impl PartialEq for Stack {
    fn eq(&self, o: &Stack) -> bool {
        self.len == o.len && self.frames[..self.len as usize] == o.frames[..o.len as usize]
    }
}

impl Stack {
    fn new() -> Stack {
        Stack { len: 0, frames: [Frame::default(); DEPTH_CAP] }
    }
    fn top(&self) -> Option<&Frame> {
        if self.len == 0 {
            None
        } else {
            Some(&self.frames[self.len as usize - 1])
        }
    }
    fn top_mut(&mut self) -> Option<&mut Frame> {
        if self.len == 0 {
            None
        } else {
            Some(&mut self.frames[self.len as usize - 1])
        }
    }
    fn push(&mut self, f: Frame) {
        self.frames[self.len as usize] = f;
        self.len += 1;
    }
    fn pop(&mut self) -> Frame {
        self.len -= 1;
        self.frames[self.len as usize]
    }
    fn bottom(&self) -> Option<&Frame> {
        if self.len == 0 {
            None
        } else {
            Some(&self.frames[0])
        }
    }
}

type Cost = [u16; MAX_COUNTERS];
type Key = [u64; MAX_COUNTERS + 2];

#[derive(Clone, Copy)]
struct Cand {
    stack: Stack,
    cost: Cost,
    hist: u32,
    runon: bool,
    /// Native headings this reading does not run (§message-run-on compares them).
    unrun: u16,
}

// A reading is copied for every successor: at 128 bytes or less the copy is inlined.
const _: () = assert!(std::mem::size_of::<Cand>() <= 128);

#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    line: u32,
    mv: Move,
    width: u32,
}

const NO_NODE: u32 = u32::MAX;

/// What the search held at its widest: checked against its bounds by the tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Complete plus repaired readings alive after a fence line (at most 2 × `max_candidates`).
    pub max_readings: usize,
    /// Deepest block stack (at most `max_depth`).
    pub max_depth: usize,
    /// Most uncommitted history nodes (at most `HISTORY_CAP` plus one line's successors).
    pub max_history: usize,
}

/// The chosen move at each fence line, in line order: `(line, move, width)`, where `width` is
/// the opener width the move uses (a glued closer's heading width, for instance).
pub type Choices = Vec<(u32, Move, u32)>;

/// The search's vectors, kept between parses so the hot path allocates nothing.
#[derive(Default)]
pub struct Buffers {
    nodes: Vec<Node>,
    /// The chosen moves after `finish`.
    pub committed: Choices,
    complete: Vec<Cand>,
    repaired: Vec<Cand>,
    next_c: Vec<Cand>,
    next_r: Vec<Cand>,
}

/// What the search reads but never changes: the rule set and its bounds. Kept apart from the
/// readings so a fence line can make successors from it while the lists are being filled,
/// with no moving of the lists out of the search and back.
struct Cfg<'r> {
    rules: &'r Rules,
    facts: &'r [OpFacts],
    max_depth: usize,
    max_cands: usize,
    min_width: u32,
}

pub struct Pairer<'r> {
    cfg: Cfg<'r>,
    nodes: Vec<Node>,
    committed: Choices,
    complete: Vec<Cand>,
    repaired: Vec<Cand>,
    prev_line: u32,
    /// The most readings and the deepest stack the search held (the bounds, observed).
    pub stats: Stats,
    /// History size that triggers the next collection.
    gc_at: usize,
    /// Scratch buffers reused across fence lines.
    next_c: Vec<Cand>,
    next_r: Vec<Cand>,
    /// Whether the settled short-cuts run, at a top-level opener and with one reading left at the
    /// end (off only where a test compares them with the full search).
    settle: bool,
}

impl<'r> Pairer<'r> {
    pub fn new(rules: &'r Rules, facts: &'r [OpFacts]) -> Pairer<'r> {
        Self::with_buffers(rules, facts, Buffers::default())
    }

    /// A search reusing `bufs` (cleared here).
    #[inline]
    pub fn with_buffers(rules: &'r Rules, facts: &'r [OpFacts], mut bufs: Buffers) -> Pairer<'r> {
        let p = &rules.tables.pairing;
        let root = Cand { stack: Stack::new(), cost: [0; MAX_COUNTERS], hist: NO_NODE, runon: false, unrun: 0 };
        bufs.nodes.clear();
        bufs.committed.clear();
        bufs.complete.clear();
        bufs.complete.push(root);
        bufs.repaired.clear();
        bufs.next_c.clear();
        bufs.next_r.clear();
        Pairer {
            cfg: Cfg {
                rules,
                facts,
                max_depth: (p.max_depth as usize).clamp(2, DEPTH_CAP),
                max_cands: (p.max_candidates as usize).max(1),
                min_width: rules.fence_min(),
            },
            nodes: bufs.nodes,
            committed: bufs.committed,
            complete: bufs.complete,
            repaired: bufs.repaired,
            prev_line: u32::MAX,
            next_c: bufs.next_c,
            next_r: bufs.next_r,
            stats: Stats::default(),
            gc_at: GC_FLOOR,
            settle: true,
        }
    }

    /// Feeds one fence line. Text lines between fence lines are implied by the line numbers.
    #[inline]
    pub fn feed(&mut self, pl: &PLine) {
        // Work: one per reading moved (the lists are bounded by `max_candidates`).
        crate::work::add(crate::work::Stage::Pairing, 1 + self.complete.len() + self.repaired.len());
        if self.settle && self.feed_settled_root(pl) {
            return;
        }
        // Text lines since the last fence line: the open block holds content.
        if self.prev_line != u32::MAX && pl.line > self.prev_line + 1 {
            let more = pl.line > self.prev_line + 2;
            // List by list: a chained iterator costs a branch per step.
            for c in self.complete.iter_mut() {
                hold_text(c, more);
            }
            for c in self.repaired.iter_mut() {
                hold_text(c, more);
            }
        } else if self.prev_line == u32::MAX && pl.line > 0 {
            // Leading text at the top level: nothing is open.
        }
        self.prev_line = pl.line;

        // The lists are fields apart from the rule set: filled in place, then swapped, the old
        // lists becoming next line's scratch.
        self.next_c.clear();
        self.next_r.clear();
        let doomed_end = self.settle && self.doomed_end(pl);
        let mut sink = Successors {
            cfg: &self.cfg,
            nodes: &mut self.nodes,
            next_c: &mut self.next_c,
            next_r: &mut self.next_r,
            line: pl.line,
            is_c: true,
            doomed_end,
        };
        for cand in &self.complete {
            self.cfg.moves(cand, pl, &mut sink);
        }
        // Most lines have no repaired reading: the second pass is skipped, not run empty.
        if !self.repaired.is_empty() {
            sink.is_c = false;
            for cand in &self.repaired {
                self.cfg.moves(cand, pl, &mut sink);
            }
        }
        std::mem::swap(&mut self.complete, &mut self.next_c);
        std::mem::swap(&mut self.repaired, &mut self.next_r);
        self.prune();
        self.stats.max_readings = self.stats.max_readings.max(self.complete.len() + self.repaired.len());
        let deepest = |list: &[Cand]| list.iter().map(|c| c.stack.len).max().unwrap_or(0) as usize;
        self.stats.max_depth = self.stats.max_depth.max(deepest(&self.complete)).max(deepest(&self.repaired));
        self.stats.max_history = self.stats.max_history.max(self.nodes.len());
        self.maybe_commit();
    }

    /// The common case of a settled turn: one reading is left, its history is committed and
    /// nothing is open, so a fence line with one top-level reading (a heading opening its
    /// block, a labeled fence quoting) moves it and commits the move at once, the same choice
    /// the search would make with no list, merge or history in between. Returns false, having
    /// changed nothing, when the line has more than one reading there (a bare fence: a
    /// quotation or a stray closer) or the search is not settled.
    fn feed_settled_root(&mut self, pl: &PLine) -> bool {
        let (list, complete) = match (self.complete.len(), self.repaired.len()) {
            (1, 0) => (&self.complete, true),
            (0, 1) => (&self.repaired, false),
            _ => return false,
        };
        let cand = &list[0];
        if cand.stack.len != 0 || cand.hist != NO_NODE || !self.nodes.is_empty() {
            return false;
        }
        let mut got = Collect::default();
        self.cfg.root_moves(cand, pl, &mut got);
        let (count, Some((mut nc, mv, width))) = (got.count, got.made) else { return false };
        // A reading that paid for its move would change lists: the search decides those.
        if count != 1 || nc.cost != cand.cost || (complete && !self.cfg.is_complete(&nc.cost)) {
            return false;
        }
        nc.hist = NO_NODE;
        self.prev_line = pl.line;
        if complete {
            self.complete[0] = nc;
        } else {
            self.repaired[0] = nc;
        }
        self.committed.push((pl.line, mv, width));
        self.stats.max_readings = self.stats.max_readings.max(1);
        self.stats.max_depth = self.stats.max_depth.max(nc.stack.len as usize);
        self.stats.max_history = self.stats.max_history.max(1);
        true
    }

    /// Whether a repaired reading that ends its blocks at this heading (`Move::EndByHeading`) is
    /// sure to be dropped by `prune`: a complete reading with nothing open opens the heading's
    /// block on the same stack, and no list can outgrow `max_cands` (a heading makes at most
    /// four readings of each), so that complete reading survives to drop it, and no ranking
    /// ever weighed the repaired one. Such a reading is then not kept at all (its history node
    /// still is, so the history and its bounds stay those of the full search).
    fn doomed_end(&self, pl: &PLine) -> bool {
        matches!(pl.kind, PKind::Heading { .. })
            && 4 * (self.complete.len() + self.repaired.len()) <= self.cfg.max_cands
            && self.complete.iter().any(|c| c.stack.len == 0)
    }

    fn prune(&mut self) {
        for complete in [true, false] {
            let cap = self.cfg.max_cands;
            let list = if complete { &self.complete } else { &self.repaired };
            if list.len() <= cap {
                continue;
            }
            let mut ranked: Vec<(usize, Key)> = list.iter().enumerate().map(|(i, c)| (i, self.cfg.key(&c.cost, complete))).collect();
            ranked.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
            let mut keep: Vec<usize> = ranked.into_iter().take(cap).map(|(i, _)| i).collect();
            keep.sort();
            let list = if complete { &mut self.complete } else { &mut self.repaired };
            let kept: Vec<Cand> = keep.into_iter().map(|i| list[i]).collect();
            *list = kept;
        }
        // A repaired reading can never beat a complete one that reaches the same end; drop the
        // repaired readings whose stack a complete reading already holds.
        // Order kept: a tie goes to the reading met first on the next line too.
        if !self.repaired.is_empty() && !self.complete.is_empty() {
            let complete = &self.complete;
            self.repaired.retain(|r| !complete.iter().any(|c| c.stack == r.stack));
        }
    }

    /// Commits history when one reading survives; bounds memory otherwise.
    fn maybe_commit(&mut self) {
        let live = self.complete.len() + self.repaired.len();
        if live == 1 {
            let hist = if let Some(c) = self.complete.first() { c.hist } else { self.repaired[0].hist };
            self.commit(hist);
            if let Some(c) = self.complete.first_mut() {
                c.hist = NO_NODE;
            } else {
                self.repaired[0].hist = NO_NODE;
            }
        } else if self.nodes.len() > self.gc_at {
            // Commit what every live reading agrees on and keep only their divergent tails.
            self.collect();
            self.gc_at = (2 * self.nodes.len()).max(GC_FLOOR);
        }
        if self.nodes.len() > HISTORY_CAP {
            // Pathological ambiguity: keep the best reading and commit it.
            let best = if !self.complete.is_empty() {
                let k = |c: &Cand| self.cfg.key(&c.cost, true);
                let b = *self.complete.iter().min_by_key(|c| k(c)).unwrap();
                self.repaired.clear();
                b
            } else {
                let k = |c: &Cand| self.cfg.key(&c.cost, false);
                *self.repaired.iter().min_by_key(|c| k(c)).unwrap()
            };
            let is_c = !self.complete.is_empty();
            self.commit(best.hist);
            let mut b = best;
            b.hist = NO_NODE;
            if is_c {
                self.complete = vec![b];
            } else {
                self.repaired = vec![b];
            }
        }
    }

    /// Commits the history up to the live readings' last common choice and compacts the rest.
    /// Parents always precede children in `nodes`, so the common ancestor is found by moving the
    /// newest of the live heads to its parent until all agree.
    fn collect(&mut self) {
        let mut heads: Vec<u32> = self.complete.iter().chain(self.repaired.iter()).map(|c| c.hist).collect();
        let mut cursor = heads.clone();
        loop {
            let max = *cursor.iter().max().unwrap();
            let min = *cursor.iter().min().unwrap();
            if max == min || min == NO_NODE && max == NO_NODE {
                break;
            }
            if cursor.contains(&NO_NODE) {
                // One reading holds no uncommitted history: nothing is common but the root.
                cursor.iter_mut().for_each(|c| *c = NO_NODE);
                break;
            }
            for c in cursor.iter_mut() {
                if *c == max {
                    *c = self.nodes[max as usize].parent;
                }
            }
        }
        let lca = cursor[0];
        // The divergent tails, oldest first: one backward sweep marks every ancestor of a live
        // head above the common one (parents precede children), with no per-head walk.
        let len = self.nodes.len();
        let start = if lca == NO_NODE { 0 } else { lca as usize + 1 };
        let mut live = vec![false; len];
        for &h in &heads {
            if h != NO_NODE && h != lca {
                live[h as usize] = true;
            }
        }
        for n in (start..len).rev() {
            if live[n] {
                let p = self.nodes[n].parent;
                if p != NO_NODE && p != lca {
                    live[p as usize] = true;
                }
            }
        }
        let keep: Vec<u32> = (start..len).filter(|&n| live[n]).map(|n| n as u32).collect();
        drop(live);
        self.commit_keep(lca);
        let remap = |i: u32, keep: &[u32]| -> u32 {
            if i == lca || i == NO_NODE {
                NO_NODE
            } else {
                keep.binary_search(&i).map(|p| p as u32).unwrap_or(NO_NODE)
            }
        };
        // Compacted in place: `keep` ascends and `keep[j] >= j`, so no slot is read after it is
        // overwritten.
        for (j, &k) in keep.iter().enumerate() {
            let mut n = self.nodes[k as usize];
            n.parent = remap(n.parent, &keep);
            self.nodes[j] = n;
        }
        self.nodes.truncate(keep.len());
        for (c, h) in self.complete.iter_mut().chain(self.repaired.iter_mut()).zip(heads.iter_mut()) {
            *h = remap(c.hist, &keep);
            c.hist = *h;
        }
    }

    /// Appends the path ending at `hist` to the committed choices (nodes stay in place).
    fn commit_keep(&mut self, hist: u32) {
        // Walked newest first, appended in place, then put in order: no scratch path.
        let from = self.committed.len();
        let mut h = hist;
        while h != NO_NODE {
            let n = self.nodes[h as usize];
            self.committed.push((n.line, n.mv, n.width));
            h = n.parent;
        }
        self.committed[from..].reverse();
    }

    /// Commits the path ending at `hist` and empties the history.
    fn commit(&mut self, hist: u32) {
        self.commit_keep(hist);
        self.nodes.clear();
    }

    /// Closes every open block at the end of the input and returns the chosen moves, with what
    /// the search held at its widest.
    pub fn finish_with_stats(self) -> (Choices, Stats) {
        let (bufs, stats) = self.finish_into();
        (bufs.committed, stats)
    }

    /// Finishes the search, handing back its buffers with the chosen moves in `committed`.
    #[inline]
    pub fn finish_into(mut self) -> (Buffers, Stats) {
        let chosen = match (self.settle, self.complete.len(), self.repaired.len()) {
            // One reading left (every turn whose fences pair one way): it is the choice, whatever
            // closing it costs, with nothing to weigh it against (§message-run-on compares it
            // only with others). Its history is already committed (`maybe_commit`), so this
            // commits nothing more; only a choice among several readings needs the weighing.
            (true, 1, 0) => self.complete[0].hist,
            (true, 0, 1) => self.repaired[0].hist,
            _ => self.choose(),
        };
        // Cleared, not consumed: the lists' buffers go back to the workspace for the next parse.
        self.complete.clear();
        self.repaired.clear();
        self.commit(chosen);
        let bufs = Buffers {
            nodes: self.nodes,
            committed: self.committed,
            complete: self.complete,
            repaired: self.repaired,
            next_c: self.next_c,
            next_r: self.next_r,
        };
        (bufs, self.stats)
    }

    /// The history of the best reading once every open block is closed at the end of the input.
    fn choose(&self) -> u32 {
        let cfg = &self.cfg;
        // A closed reading: its cost, whether it runs on, the hidden headings, its history.
        type Closed = (Cost, bool, u16, u32);
        let mut best_c: Option<Closed> = None;
        let mut best_c_plain: Option<Closed> = None;
        let mut best_r: Option<Closed> = None;
        // Settled, the best repaired reading is weighed only when it can matter: when the best
        // complete reading runs on, or there is none (then a second pass meets every reading
        // in the same order, so it picks the one a single pass picks).
        let lazy = self.settle;
        for weigh_r in [!lazy, true] {
            for (is_c, list) in [(true, &self.complete), (false, &self.repaired)] {
                if !weigh_r && !is_c {
                    continue;
                }
                for cand in list {
                    let (cost, runon) = cfg.closed_at_eof(cand);
                    let closed = (cost, runon, cand.unrun, cand.hist);
                    let complete = is_c && cfg.is_complete(&cost);
                    // Keys compared position by position, stopping at the first difference.
                    let better = |b: &Option<Closed>| b.as_ref().is_none_or(|b| cfg.key_less(&cost, &b.0, complete));
                    if complete {
                        if weigh_r && lazy {
                            // Weighed in the first pass.
                        } else {
                            if better(&best_c) {
                                best_c = Some(closed);
                            }
                            if !runon && better(&best_c_plain) {
                                best_c_plain = Some(closed);
                            }
                        }
                    } else if weigh_r && better(&best_r) {
                        best_r = Some(closed);
                    }
                }
            }
            if weigh_r || best_c.is_some_and(|c| !c.1) {
                break;
            }
        }
        // §message-run-on: a run to the end never costs an operation; when the reading that
        // runs on hides more operations than the best repaired reading, the repaired one stands.
        // (A repaired reading a complete one dominated at the same state was pruned; the plain
        // complete reading stands in for it.)
        let chosen = match (best_c, best_c_plain, best_r) {
            (Some(c), plain, r) if c.1 => {
                let alt = plain.iter().map(|p| p.2).chain(r.iter().map(|r| r.2)).min();
                match alt {
                    Some(a) if c.2 > a => match (plain, r) {
                        (Some(p), _) => p,
                        (None, Some(r)) => r,
                        (None, None) => c,
                    },
                    _ => c,
                }
            }
            (Some(c), _, _) => c,
            (None, _, Some(r)) => r,
            (None, _, None) => unreachable!("the search always keeps a reading"),
        };
        chosen.3
    }
}

impl<'r> Cfg<'r> {
    #[inline]
    fn add(&self, cost: &mut Cost, ev: PairEvent) {
        // Lane by lane: a counter an event names twice goes up by two.
        for (c, &inc) in cost.iter_mut().zip(&self.rules.event_counts[ev as usize]) {
            *c = c.saturating_add(inc);
        }
    }

    #[inline]
    fn is_complete(&self, cost: &Cost) -> bool {
        // Branch-free: the masked counters, as one array, compare equal to zero (a vector
        // compare, with no reduction across lanes).
        let m = &self.rules.complete_lanes;
        let masked: Cost = std::array::from_fn(|i| cost[i] & m[i]);
        masked == [0; MAX_COUNTERS]
    }

    fn key(&self, cost: &Cost, complete: bool) -> Key {
        let mut k = [0u64; MAX_COUNTERS + 2];
        // A reading that has paid nothing (every reading of a well-formed turn) keys as zero.
        if cost.iter().all(|&c| c == 0) {
            return k;
        }
        for (k, row) in k.iter_mut().zip(self.order(complete)) {
            *k = weigh(row, cost);
        }
        k
    }

    fn order(&self, complete: bool) -> &[[u16; MAX_COUNTERS]] {
        if complete {
            &self.rules.complete_order
        } else {
            &self.rules.repaired_order
        }
    }

    /// `key(a) < key(b)`, position by position: most comparisons end at the first. Each
    /// position is weighed once, over the counters' differences: `weigh(row, a) - weigh(row, b)`
    /// is that sum, exact in an `i64` (eight products below 2^32 in magnitude).
    fn key_less(&self, a: &Cost, b: &Cost, complete: bool) -> bool {
        let d: [i64; MAX_COUNTERS] = std::array::from_fn(|i| i64::from(a[i]) - i64::from(b[i]));
        for row in self.order(complete) {
            let x: i64 = row.iter().zip(&d).map(|(&w, &d)| i64::from(w) * d).sum();
            if x != 0 {
                return x < 0;
            }
        }
        false
    }

    /// Keeps one reading per block stack, for the reading just built at the end of `list`: it
    /// stays there unless an earlier reading holds its stack, and then the cheaper of the two is
    /// kept (equal costs key equally, and a tie keeps the reading met first). Keys are computed
    /// only here and in `prune`, where two readings are compared: a reading is copied several
    /// times per fence line, so it carries no key of its own.
    #[inline]
    fn merge_last(&self, list: &mut Vec<Cand>, complete: bool) {
        let n = list.len() - 1;
        let (head, last) = list.split_at_mut(n);
        let nc = &last[0];
        for existing in head.iter_mut() {
            if existing.stack == nc.stack {
                if nc.cost != existing.cost && self.key_less(&nc.cost, &existing.cost, complete) {
                    *existing = *nc;
                }
                list.truncate(n);
                return;
            }
        }
    }

    /// The cost of `cand` once every block still open is closed at the end of the input, and
    /// whether a message then runs on. The stack is read, not popped: no reading is copied.
    fn closed_at_eof(&self, cand: &Cand) -> (Cost, bool) {
        let mut cost = cand.cost;
        let frames = &cand.stack.frames[..cand.stack.len as usize];
        // A quotation and whatever it holds run to the end of the input (§quotation).
        if frames.first().map(|f| f.kind() == K_QUOTE).unwrap_or(false) {
            self.add(&mut cost, PairEvent::QuoteRunOn);
            return (cost, cand.runon);
        }
        let mut runon = cand.runon;
        for f in frames.iter().rev() {
            match f.kind() {
                K_OP => {
                    if f.flags & F_BODY_REPAIR != 0 && f.content() {
                        self.add(&mut cost, PairEvent::BodyUnderBodyless);
                    }
                    if f.flags & F_NAKED != 0 {
                    } else if f.flags & F_PROSE != 0 {
                        self.add(&mut cost, PairEvent::MessageRunOn);
                        runon = true;
                    } else {
                        self.add(&mut cost, PairEvent::SuppliedCloser);
                    }
                }
                K_NESTED => self.add(&mut cost, PairEvent::SuppliedCloser),
                _ => {}
            }
        }
        (cost, runon)
    }

    fn op_frame(&self, named: Named, width: u32, naked: bool) -> Frame {
        let mut flags = 0;
        let mut op = 0u16;
        if let Named::Op(i) = named {
            let f = self.facts[i];
            if f.prose {
                flags |= F_PROSE;
            }
            if f.yields {
                flags |= F_YIELDS;
            }
            if f.literal {
                flags |= F_LITERAL;
            }
            if f.body_repair {
                flags |= F_BODY_REPAIR;
            }
            op = i as u16;
        }
        if naked {
            flags |= F_NAKED;
        }
        Frame::new(K_OP, b'`', flags, width.min(u16::MAX as u32) as u16, op)
    }

    /// A heading at the top level: opens its block, or stands complete on its line. Returns the
    /// move and width; `edit` makes the reading from its parent.
    #[inline]
    fn root_heading(&self, named: Named, compact: bool, open_width: u32, mv: Move) -> (Move, u32, Frame) {
        if compact {
            (if mv == Move::Open { Move::Compact } else { mv }, 0, Frame::default())
        } else {
            (mv, open_width, self.op_frame(named, open_width, false))
        }
    }

    /// Every reading of `pl` from `cand`, in preference order, handed to `out` as it is made:
    /// each as the edit that makes it from `cand`, so the sink builds it where it keeps it.
    fn moves(&self, cand: &Cand, pl: &PLine, out: &mut impl Sink) {
        let depth_ok = (cand.stack.len as usize) < self.max_depth;
        let top = cand.stack.top().copied();
        let Some(top) = top else {
            return self.root_moves(cand, pl, out);
        };
        if top.flags & F_SKIP_NEXT != 0 {
            // The heading line of a forgotten-tag opener (§forgotten-tag).
            out.emit(cand, Move::Text, 0, |c| c.stack.top_mut().unwrap().flags &= !F_SKIP_NEXT);
            return;
        }
        let text = |c: &mut Cand, cost_ev: Option<PairEvent>| {
            c.stack.top_mut().unwrap().flags |= F_CONTENT;
            if let Some(ev) = cost_ev {
                self.add(&mut c.cost, ev);
            }
        };
        if cand.stack.bottom().unwrap().kind() == K_QUOTE {
            // A quotation: its first valid closer closes, and every other line is its content,
            // a code block's tag included (§quotation, §pairing-algorithm "Closers"); a heading
            // is literal by declaration.
            let closes = pl.ch == top.ch() && pl.width >= top.width as u32 && pl.kind == PKind::Bare;
            let empty_ok = top.kind() == K_QUOTE || top.content() || top.flags & F_LABELED != 0;
            if closes && empty_ok {
                out.emit(cand, Move::Close, 0, |c| {
                    c.stack.pop();
                });
                return;
            }
            // A heading wider than the labeled quotation or example holding it is a nested
            // example; anything else is the quotation's content. An unlabeled quotation holds no
            // examples: a heading there is its content.
            let wider = pl.width > top.width as u32 && (top.kind() != K_QUOTE || top.flags & F_LABELED != 0);
            match pl.kind {
                PKind::Heading { compact: false, open_width, .. } if wider && depth_ok => {
                    out.emit(cand, Move::Example, open_width, |c| {
                        c.stack.top_mut().unwrap().flags |= F_CONTENT;
                        let w = open_width.min(u16::MAX as u32) as u16;
                        c.stack.push(Frame::new(K_NESTED, b'`', F_LABELED, w, w));
                    });
                }
                _ => out.emit(cand, Move::Text, 0, |c| text(c, None)),
            }
            return;
        }
        let op = *cand.stack.bottom().unwrap();
        let naked = op.flags & F_NAKED != 0;

        match pl.kind {
            PKind::Unfenced => out.emit(cand, Move::Text, 0, |c| text(c, None)),
            PKind::Naked { op: which, plain } => {
                if top.kind() == K_OP && naked && plain && which == op.holder as usize && cand.stack.len == 1 {
                    out.emit(cand, Move::NakedClose, 0, |c| {
                        c.stack.pop();
                    });
                } else {
                    out.emit(cand, Move::Text, 0, |c| text(c, None));
                }
            }
            PKind::Bare | PKind::Aside => {
                if naked {
                    // A naked block expects no closer; its fences are body (§naked-operation).
                    out.emit(cand, Move::Text, 0, |c| text(c, None));
                    return;
                }
                let same = pl.ch == top.ch();
                let wide = pl.width >= top.width as u32;
                let bare = pl.kind == PKind::Bare;
                if top.kind() == K_OP {
                    if same && wide {
                        // Nesting before closing in an operation body (§pairing-objective).
                        if bare && depth_ok {
                            out.emit(cand, Move::Nest, pl.width, |c| self.nest(c, pl, false));
                        }
                        out.emit(cand, Move::Close, 0, |c| self.close_op(c));
                        if !bare {
                            out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::FenceAsText)));
                        }
                    } else {
                        if depth_ok {
                            out.emit(cand, Move::Nest, pl.width, |c| self.nest(c, pl, !bare));
                        }
                        if same && bare {
                            out.emit(cand, Move::NarrowClose, 0, |c| {
                                self.close_op(c);
                                self.add(&mut c.cost, PairEvent::NarrowCloser);
                            });
                        }
                        out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::FenceAsText)));
                    }
                } else {
                    // A nested block: its first valid closer closes, and any other fence is its
                    // content, as in a CommonMark code block (§balanced-fences, §pairing-algorithm
                    // "Closers"). Only an empty block opened by a bare fence cannot close yet (it
                    // must hold a line): an equal or wider bare fence there nests or is text.
                    let can_close = same && wide && bare && (top.content() || top.flags & F_LABELED != 0);
                    if can_close {
                        out.emit(cand, Move::Close, 0, |c| {
                            c.stack.pop();
                        });
                    } else {
                        if same && wide && bare && depth_ok {
                            out.emit(cand, Move::Nest, pl.width, |c| self.nest(c, pl, false));
                        }
                        out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::FenceAsText)));
                    }
                }
            }
            PKind::Label => {
                if naked {
                    out.emit(cand, Move::Text, 0, |c| text(c, None));
                    return;
                }
                if top.kind() == K_NESTED {
                    // A code block's tag inside a nested block is its content (the block ends at
                    // its first valid closer, §balanced-fences): code the body declared, read as
                    // text.
                    out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::DiscardedCode)));
                    return;
                }
                if depth_ok {
                    out.emit(cand, Move::Nest, pl.width, |c| self.nest(c, pl, true));
                }
                out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::DiscardedCode)));
            }
            PKind::Heading { named, compact, open_width } => {
                let is_exec = matches!(named, Named::Exec(_));
                let prose_exec = op.flags & F_PROSE != 0 && is_exec;
                let literal = self.literal(&cand.stack, &op, pl.width, is_exec);
                // §unclosed-mutation-yields: at an EDIT's own width (or wider) a native heading
                // read as the body's text or example is swallowed, whatever block holds it there
                // (a labeled one included): only a wider EDIT fence declares it an example.
                let swallows = op.flags & F_YIELDS != 0 && !is_exec && pl.width >= op.width as u32;
                // 1. A wide fence glued to the next opener: the block's closer, then the heading.
                if top.kind() == K_OP && !naked && pl.ch == b'`' && pl.width >= top.width as u32 + self.min_width {
                    let rest = pl.width - top.width as u32;
                    let ow = if compact {
                        0
                    } else if open_width == pl.width {
                        rest
                    } else {
                        open_width
                    };
                    let (mv, w, frame) = self.root_heading(named, compact, ow, Move::Glued);
                    out.emit(cand, mv, w, |c| {
                        let f = c.stack.pop();
                        if f.flags & F_BODY_REPAIR != 0 && f.content() {
                            self.add(&mut c.cost, PairEvent::BodyUnderBodyless);
                        }
                        if !compact {
                            c.stack.push(frame);
                        }
                    });
                }
                // 2. The heading ends the open blocks and runs (a supplied closer before a
                // literal example at a heading, §pairing-objective).
                let may_end = !(prose_exec || naked && op.flags & F_LITERAL != 0);
                if may_end {
                    // The cost is known before the reading is built: a doomed one is not built.
                    let cost = self.end_cost(cand);
                    let w = if compact { 0 } else { open_width };
                    if out.doomed_end(&cost) {
                        out.skip(cand, Move::EndByHeading, w);
                    } else {
                        let (mv, w, frame) = self.root_heading(named, compact, open_width, Move::EndByHeading);
                        out.emit(cand, mv, w, |c| {
                            c.stack.len = 0;
                            c.cost = cost;
                            if !compact {
                                c.stack.push(frame);
                            }
                        });
                    }
                }
                // 3. The heading is a literal example the block holds.
                if depth_ok || compact {
                    let ev = if swallows {
                        PairEvent::SwallowedOperation
                    } else if literal {
                        PairEvent::LiteralExample
                    } else {
                        PairEvent::HiddenOperation
                    };
                    out.emit(cand, Move::Example, open_width, |c| {
                        c.stack.top_mut().unwrap().flags |= F_CONTENT;
                        self.add(&mut c.cost, ev);
                        c.unrun += u16::from(!is_exec);
                        if !compact {
                            let holder = pl.width.min(u16::MAX as u32) as u16;
                            c.stack.push(Frame::new(K_NESTED, b'`', F_LABELED, open_width.min(u16::MAX as u32) as u16, holder));
                        }
                    });
                }
                // 4. An executor heading a message shows may be read as text (discarded code);
                // a heading its enclosure declared literal may be read as the body's text.
                if prose_exec {
                    out.emit(cand, Move::Text, 0, |c| text(c, Some(PairEvent::DiscardedCode)));
                } else if !compact && self.enclosed(&cand.stack, &op, pl.width) {
                    let ev = if swallows { PairEvent::SwallowedOperation } else { PairEvent::WithheldText };
                    out.emit(cand, Move::Text, 0, |c| {
                        text(c, Some(ev));
                        c.unrun += u16::from(!is_exec);
                    });
                }
            }
        }
    }

    /// Literal by declaration (§pairing-objective): narrower than its block, no wider than the
    /// labeled block or example holding it, inside a KILL, or an executor a message shows.
    #[inline]
    fn literal(&self, stack: &Stack, op: &Frame, width: u32, is_exec: bool) -> bool {
        if width < op.width as u32 || op.flags & F_LITERAL != 0 || (op.flags & F_PROSE != 0 && is_exec) {
            return true;
        }
        let top = stack.top().unwrap();
        top.kind() == K_NESTED && top.holder > 0 && width <= top.holder as u32
    }

    /// A heading its enclosure wrote as an example: narrower than the operation's block, or no
    /// wider than the labeled block or example holding it.
    #[inline]
    fn enclosed(&self, stack: &Stack, op: &Frame, width: u32) -> bool {
        let top = stack.top().unwrap();
        width < op.width as u32 || (top.kind() == K_NESTED && top.holder > 0 && width <= top.holder as u32)
    }

    /// The cost of `cand` once a heading ends every block it holds open (`Move::EndByHeading`):
    /// a supplied closer for each, but a naked block's, and a body under a bodyless operation.
    #[inline]
    fn end_cost(&self, cand: &Cand) -> Cost {
        let mut cost = cand.cost;
        for f in &cand.stack.frames[..cand.stack.len as usize] {
            if f.kind() == K_OP {
                if f.flags & F_BODY_REPAIR != 0 && f.content() {
                    self.add(&mut cost, PairEvent::BodyUnderBodyless);
                }
                if f.flags & F_NAKED == 0 {
                    self.add(&mut cost, PairEvent::SuppliedCloser);
                }
            } else {
                self.add(&mut cost, PairEvent::SuppliedCloser);
            }
        }
        cost
    }

    /// The operation's block closes (a body under a bodyless operation is a repair).
    fn close_op(&self, c: &mut Cand) {
        let f = c.stack.pop();
        if f.flags & F_BODY_REPAIR != 0 && f.content() {
            self.add(&mut c.cost, PairEvent::BodyUnderBodyless);
        }
    }

    /// The fence opens a nested block (`Move::Nest`, at the fence's width).
    fn nest(&self, c: &mut Cand, pl: &PLine, labeled: bool) {
        let parent = *c.stack.top().unwrap();
        c.stack.top_mut().unwrap().flags |= F_CONTENT;
        let holder = if labeled {
            pl.width.min(u16::MAX as u32) as u16
        } else if parent.kind() == K_NESTED {
            parent.holder
        } else {
            0
        };
        c.stack.push(Frame::new(K_NESTED, pl.ch, if labeled { F_LABELED } else { 0 }, pl.width.min(u16::MAX as u32) as u16, holder));
    }

    fn root_moves(&self, cand: &Cand, pl: &PLine, out: &mut impl Sink) {
        match pl.kind {
            PKind::Heading { named, compact, open_width } => {
                let (mv, w, frame) = self.root_heading(named, compact, open_width, Move::Open);
                out.emit(cand, mv, w, |c| {
                    if !compact {
                        c.stack.push(frame);
                    }
                });
            }
            PKind::Bare => {
                if let Some(named) = pl.forgotten {
                    let mut f = self.op_frame(named, pl.width, false);
                    f.flags |= F_SKIP_NEXT;
                    out.emit(cand, Move::Forgotten, pl.width, |c| c.stack.push(f));
                } else if pl.orphan {
                    out.emit(cand, Move::Orphan, 0, |_| {});
                } else {
                    out.emit(cand, Move::Quote, pl.width, |c| c.stack.push(Frame::new(K_QUOTE, pl.ch, 0, pl.width as u16, 0)));
                    // Or a stray closer, at one repair (§pairing-objective).
                    out.emit(cand, Move::Stray, 0, |c| self.add(&mut c.cost, PairEvent::StrayFence));
                }
            }
            PKind::Aside | PKind::Label => {
                out.emit(cand, Move::Quote, pl.width, |c| c.stack.push(Frame::new(K_QUOTE, pl.ch, F_LABELED, pl.width as u16, 0)));
            }
            PKind::Naked { op, .. } => {
                let f = self.op_frame(Named::Op(op), self.rules.tables.fence.taught_width, true);
                out.emit(cand, Move::NakedOpen, 0, |c| c.stack.push(f));
            }
            PKind::Unfenced => out.emit(cand, Move::Unfenced, 0, |_| {}),
        }
    }
}

/// Text lines before a fence line: the open block holds content, unless the one line is the
/// heading line a forgotten-tag opener skips (§forgotten-tag); `more` when there are several.
#[inline]
fn hold_text(c: &mut Cand, more: bool) {
    if let Some(top) = c.stack.top_mut() {
        if top.flags & F_SKIP_NEXT != 0 {
            top.flags &= !F_SKIP_NEXT;
            if more {
                top.flags |= F_CONTENT;
            }
        } else {
            top.flags |= F_CONTENT;
        }
    }
}

/// One key position of a reading: its counters weighed by the position's row. At most eight
/// products of two `u16`s, so a `u64` holds the sum under any rule set.
#[inline]
fn weigh(row: &[u16; MAX_COUNTERS], cost: &Cost) -> u64 {
    row.iter().zip(cost).map(|(&w, &c)| u64::from(w) * u64::from(c)).sum()
}

/// Where `moves` hands its readings: each as its parent, the move, its width, and the edit that
/// makes it from the parent. A reading is a large value: the sink builds it once, in place.
trait Sink {
    fn emit(&mut self, cand: &Cand, mv: Move, width: u32, edit: impl FnOnce(&mut Cand));
    /// Whether a `Move::EndByHeading` reading of this cost is dropped as made
    /// (`Pairer::doomed_end`): then it is only recorded, never built.
    fn doomed_end(&self, _cost: &Cost) -> bool {
        false
    }
    /// A reading made and dropped at once: only its history node is kept.
    fn skip(&mut self, _cand: &Cand, _mv: Move, _width: u32) {}
}

/// The successors of one fence line, merged into the next lists as they are made.
struct Successors<'a, 'r> {
    cfg: &'a Cfg<'r>,
    nodes: &'a mut Vec<Node>,
    next_c: &'a mut Vec<Cand>,
    next_r: &'a mut Vec<Cand>,
    line: u32,
    /// The parent list is the complete one (a repaired reading's successors are never
    /// weighed for completeness).
    is_c: bool,
    /// A repaired `Move::EndByHeading` reading is dropped as made (`Pairer::doomed_end`).
    doomed_end: bool,
}

impl Sink for Successors<'_, '_> {
    /// The edit is made here, on a copy, and the rest is one shared out-of-line step: a fence
    /// line's two dozen move sites then share one copy of the list and merge code instead of
    /// inlining it at each (the search's code would otherwise outgrow the instruction cache).
    #[inline(always)]
    fn emit(&mut self, cand: &Cand, mv: Move, width: u32, edit: impl FnOnce(&mut Cand)) {
        let mut nc = *cand;
        edit(&mut nc);
        self.keep(cand.hist, mv, width, &nc);
    }

    #[inline(always)]
    fn doomed_end(&self, cost: &Cost) -> bool {
        self.doomed_end && !(self.is_c && self.cfg.is_complete(cost))
    }

    #[inline(always)]
    fn skip(&mut self, cand: &Cand, mv: Move, width: u32) {
        self.nodes.push(Node { parent: cand.hist, line: self.line, mv, width });
    }
}

impl Successors<'_, '_> {
    /// Records the move (its history node under `parent`) and keeps the reading `made` in the
    /// list its cost belongs to, merged with the readings before it.
    #[inline(never)]
    fn keep(&mut self, parent: u32, mv: Move, width: u32, made: &Cand) {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { parent, line: self.line, mv, width });
        // A repaired parent makes only repaired readings; a complete one's may pay a repair.
        let complete = self.is_c && self.cfg.is_complete(&made.cost);
        let list = if complete { &mut *self.next_c } else { &mut *self.next_r };
        list.push(Cand { hist: id, ..*made });
        self.cfg.merge_last(list, complete);
    }
}

/// The readings of one fence line at the top of a settled search, collected: how many, and the
/// last one made.
#[derive(Default)]
struct Collect {
    count: usize,
    made: Option<(Cand, Move, u32)>,
}

impl Sink for Collect {
    fn emit(&mut self, cand: &Cand, mv: Move, width: u32, edit: impl FnOnce(&mut Cand)) {
        let mut c = *cand;
        edit(&mut c);
        self.count += 1;
        self.made = Some((c, mv, width));
    }
}

/// Runs the search over `plines` (in line order).
#[cfg(test)]
pub fn pair(rules: &Rules, facts: &[OpFacts], plines: &[PLine]) -> Choices {
    pair_with_stats(rules, facts, plines).0
}

/// [`pair`], with the search's observed bounds.
pub fn pair_with_stats(rules: &Rules, facts: &[OpFacts], plines: &[PLine]) -> (Choices, Stats) {
    let mut p = Pairer::new(rules, facts);
    for pl in plines {
        p.feed(pl);
    }
    p.finish_with_stats()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed linear congruential sequence: `draw(n)` is the next number below `n`, the same
    /// on every run.
    pub(super) fn sequence(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        }
    }

    /// A key position is exact at the extremes: every weight and every counter at its largest
    /// (a rule set may name a counter many times, and counters saturate at `u16::MAX`).
    #[test]
    fn pairing_objective_key_positions_never_overflow() {
        let max = u64::from(u16::MAX);
        assert_eq!(weigh(&[u16::MAX; MAX_COUNTERS], &[u16::MAX; MAX_COUNTERS]), MAX_COUNTERS as u64 * max * max);
        assert_eq!(weigh(&[1, 0, 2, 0, 0, 0, 0, 3], &[5, 9, 7, 9, 9, 9, 9, 1]), 5 + 14 + 3);
    }

    /// §pairing-objective: comparing two readings position by position, stopping at the first
    /// difference, orders them as their whole keys do, for both orders, on the built-in rule set
    /// and on one whose group names a counter twice.
    #[test]
    fn pairing_objective_key_comparison_stops_early_and_agrees_with_whole_keys() {
        let builtin = Rules::builtin();
        let mut tables = builtin.tables.clone();
        tables.pairing.complete_order[0].push(tables.pairing.counters[0].clone());
        tables.pairing.repaired_order[0] = vec![tables.pairing.counters[1].clone(), tables.pairing.counters[1].clone()];
        let edited = Rules::from_tables(tables).unwrap();
        // Costs from a fixed linear congruential sequence: small counts, so keys often tie.
        let mut draw = sequence(0x2545_f491_4f6c_dd1d);
        let mut next = || draw(3) as u16;
        for rules in [builtin, &edited] {
            let p = Pairer::new(rules, &rules.facts);
            let n = rules.tables.pairing.counters.len();
            let mut differ = 0;
            for _ in 0..5_000 {
                let mut a: Cost = [0; MAX_COUNTERS];
                let mut b: Cost = [0; MAX_COUNTERS];
                for i in 0..n {
                    a[i] = next();
                    b[i] = next();
                }
                for complete in [true, false] {
                    let whole = p.cfg.key(&a, complete) < p.cfg.key(&b, complete);
                    assert_eq!(p.cfg.key_less(&a, &b, complete), whole, "{a:?} {b:?} complete={complete}");
                    differ += usize::from(whole);
                }
            }
            assert!(differ > 1_000, "the sequence exercised too few strict orders ({differ})");
        }
    }

    /// Random fence-line sequences of every kind (headings of prose, yielding, literal and
    /// body-repair operations and of executors, compact and wide ones, bare, aside, labeled,
    /// naked, unfenced, forgotten-tag and orphan fences, both fence characters), with and without
    /// text lines between them, the same on every run.
    pub(super) fn random_turns(rules: &Rules, seed: u64, count: usize) -> Vec<Vec<PLine>> {
        let ops = rules.facts.len();
        let pick = |f: fn(&OpFacts) -> bool| (0..ops).find(|&i| f(&rules.facts[i])).expect("an operation with the fact");
        let named = [
            Named::Op(pick(|f| f.prose)),
            Named::Op(pick(|f| f.yields)),
            Named::Op(pick(|f| f.literal)),
            Named::Op(pick(|f| f.body_repair)),
            Named::Op(pick(|f| !f.prose && !f.yields && !f.literal && !f.body_repair)),
            Named::Exec(0),
        ];
        let mut draw = sequence(seed);
        let mut next = |n: u64| draw(n) as u32;
        let mut turns = Vec::new();
        for _ in 0..count {
            let mut line = 0u32;
            let mut plines = Vec::new();
            for _ in 0..1 + next(14) {
                line += 1 + next(3);
                let width = [3, 3, 3, 4, 5, 6][next(6) as usize];
                let ch = if next(8) == 0 { b'~' } else { b'`' };
                let who = named[next(named.len() as u64) as usize];
                let kind = match next(9) {
                    0 | 1 => PKind::Heading { named: who, compact: false, open_width: width },
                    2 => PKind::Heading { named: who, compact: true, open_width: width },
                    3 | 4 => PKind::Bare,
                    5 => PKind::Aside,
                    6 => PKind::Label,
                    7 => match who {
                        Named::Op(op) => PKind::Naked { op, plain: next(2) == 0 },
                        Named::Exec(_) => PKind::Unfenced,
                    },
                    _ => PKind::Unfenced,
                };
                let bare = kind == PKind::Bare;
                let forgotten = (bare && next(6) == 0).then_some(who);
                let orphan = bare && forgotten.is_none() && next(6) == 0;
                plines.push(PLine { line, at: 0, ch, width, kind, forgotten, orphan });
            }
            turns.push(plines);
        }
        turns
    }

    /// The settled short-cuts (a top-level opener, one reading left at the end) and the dropping
    /// of doomed heading ends (`Pairer::doomed_end`) make the choices, and hold the bounds, the
    /// full search makes and holds, over `random_turns` (§pairing-algorithm), under the built-in
    /// bounds and under a tight `max_candidates`, where lists are pruned.
    #[test]
    fn pairing_algorithm_settled_short_cut_agrees_with_the_full_search() {
        let builtin = Rules::builtin();
        let mut tables = builtin.tables.clone();
        tables.pairing.max_candidates = 8;
        let tight = Rules::from_tables(tables).unwrap();
        for rules in [builtin, &tight] {
            let (mut short_cuts, mut single_ends, mut doomed) = (0, 0, 0);
            let mut turns = random_turns(rules, 0x9e37_79b9_7f4a_7c15, 3_000);
            turns.push(Vec::new());
            for plines in turns {
                let run = |settle: bool| {
                    let mut p = Pairer::new(rules, &rules.facts);
                    p.settle = settle;
                    let (mut taken, mut ends) = (0, 0);
                    for pl in &plines {
                        let settled = p.complete.iter().chain(&p.repaired).map(|c| c.stack.len).collect::<Vec<_>>() == [0];
                        taken += usize::from(settle && settled && pl.kind != PKind::Bare);
                        let open = p.complete.iter().chain(&p.repaired).any(|c| c.stack.len > 0);
                        ends += usize::from(settle && open && p.doomed_end(pl));
                        p.feed(pl);
                    }
                    let single = p.complete.len() + p.repaired.len() == 1;
                    let (choices, stats) = p.finish_with_stats();
                    (choices, stats, taken, single, ends)
                };
                let (fast, fast_stats, taken, single, ends) = run(true);
                let (full, full_stats, _, _, _) = run(false);
                assert_eq!(fast, full, "{plines:?}");
                assert_eq!(fast_stats, full_stats, "{plines:?}");
                short_cuts += taken;
                single_ends += usize::from(single);
                doomed += ends;
            }
            assert!(short_cuts > 3_000, "the sequences took the short-cut too rarely ({short_cuts})");
            assert!(single_ends > 300, "the sequences ended with one reading too rarely ({single_ends})");
            assert!(doomed > 150, "the sequences met doomed heading ends too rarely ({doomed})");
        }
    }
}
