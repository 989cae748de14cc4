//! Work counted, not timed: every path is linear in the input (the house rule), and a counter
//! at the stages' choke points proves it where a clock on a shared machine cannot. Each stage
//! adds the bytes (or steps) it examines — the line split, the line scanners, heading lexing,
//! the pairing search's readings, column counts, the native marker search, JSON parsing, tag
//! reading. `tests` under `cargo test` (the crate's own unit tests) and the fuzz targets (feature
//! `work-count`) read it; otherwise `add` is an empty inline function and nothing is counted.
//!
//! The bound the properties hold (`linear_on_every_shape`): on every rule-built shape, the work
//! at 128 KB is at most 4.4 times the work at 32 KB, and the work per byte at most
//! [`MAX_PER_BYTE`].

/// The stages counted apart (a failing property names the stage that grew).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Stage {
    /// The line split and line classification.
    Lines,
    /// The byte and string scanners over a line or a span (`scan::find_*`, `blank`).
    Scan,
    /// Column counts (`scan::columns`).
    Columns,
    /// Heading lexing (`heading`).
    Heading,
    /// The pairing search: one per reading kept per fence line.
    Pairing,
    /// Building statements: bodies and slots read.
    Build,
    /// Native markup: marker searches, quotation searches, block reads.
    Native,
    /// JSON parsed (native calls and arguments).
    Json,
    /// Native tags read.
    Tag,
}

/// The stages, by index.
pub const STAGES: [Stage; 9] =
    [Stage::Lines, Stage::Scan, Stage::Columns, Stage::Heading, Stage::Pairing, Stage::Build, Stage::Native, Stage::Json, Stage::Tag];

/// The most work a byte of input may cost, summed over the stages (the bound the properties
/// hold; see the module's doc).
pub const MAX_PER_BYTE: f64 = 64.0;

#[cfg(any(test, feature = "work-count"))]
mod on {
    use std::cell::Cell;

    thread_local! {
        pub(super) static COUNTS: [Cell<u64>; 9] = const { [const { Cell::new(0) }; 9] };
        pub(super) static RESCAN: Cell<bool> = const { Cell::new(false) };
        pub(super) static SHORTCUTS: Cell<u8> = const { Cell::new(0) };
    }
}

/// Counts `n` units of work in `stage` (nothing unless counting is compiled in).
#[inline(always)]
pub(crate) fn add(stage: Stage, n: usize) {
    #[cfg(any(test, feature = "work-count"))]
    on::COUNTS.with(|c| {
        let c = &c[stage as usize];
        c.set(c.get() + n as u64)
    });
    #[cfg(not(any(test, feature = "work-count")))]
    let _ = (stage, n);
}

/// The one-pass short-cuts a parse may take, each only below a bound (a count of fence lines or
/// readings, §fence-pairing): a turn past it is read by the general path, which costs more per
/// byte. That step is no growth, so the property compares a shape's sizes on one path.
#[derive(Debug, Clone, Copy)]
#[repr(u8)]
pub enum Shortcut {
    /// `turn::clean` read the turn.
    CleanTurn = 1,
    /// `pair::clean` paired the fences.
    CleanPairing = 2,
}

thread_local! {
    /// Set while [`general_path_only`] runs: this thread's parses take no short-cut.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread's parses may take the short-cuts (see [`general_path_only`]).
#[inline]
pub(crate) fn shortcuts() -> bool {
    !GENERAL_ONLY.with(|g| g.get())
}

/// Runs `f` with this thread's parses on the general path alone (`__private::general_path_only`).
pub(crate) fn general_path_only<R>(f: impl FnOnce() -> R) -> R {
    /// Restores the switch, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            GENERAL_ONLY.with(|g| g.set(self.0));
        }
    }
    let _restore = Restore(GENERAL_ONLY.with(|g| g.replace(true)));
    f()
}

/// Notes that this thread's parse took `shortcut` (nothing unless counting is compiled in).
#[inline(always)]
pub(crate) fn took(shortcut: Shortcut) {
    #[cfg(any(test, feature = "work-count"))]
    on::SHORTCUTS.with(|s| s.set(s.get() | shortcut as u8));
    #[cfg(not(any(test, feature = "work-count")))]
    let _ = shortcut;
}

/// This thread's work per stage since the last [`reset`], or `None` when counting is not
/// compiled in (feature `work-count`).
#[doc(hidden)]
pub fn counts() -> Option<[u64; 9]> {
    #[cfg(any(test, feature = "work-count"))]
    return Some(on::COUNTS.with(|c| std::array::from_fn(|i| c[i].get())));
    #[cfg(not(any(test, feature = "work-count")))]
    None
}

/// This thread's work since the last [`reset`], over every stage.
#[doc(hidden)]
pub fn total() -> Option<u64> {
    counts().map(|c| c.iter().sum())
}

/// Sets this thread's counts to zero.
#[doc(hidden)]
pub fn reset() {
    #[cfg(any(test, feature = "work-count"))]
    {
        on::COUNTS.with(|c| c.iter().for_each(|c| c.set(0)));
        on::SHORTCUTS.with(|s| s.set(0));
    }
}

/// The short-cuts this thread's parses took since the last [`reset`] (bits of [`Shortcut`]).
#[doc(hidden)]
pub fn shortcuts_taken() -> u8 {
    #[cfg(any(test, feature = "work-count"))]
    return on::SHORTCUTS.with(|s| s.get());
    #[cfg(not(any(test, feature = "work-count")))]
    0
}

/// Growth allowed from a turn to the same shape at four times its bytes: the work per byte may
/// grow by a tenth (4.4 times the work for 4 times the bytes).
pub const MAX_GROWTH: f64 = 1.1;

/// The linear-work property on one shape at two sizes: `run` (a parse) on `small` and on
/// `large`, the same shape at about four times the bytes, must cost work growing at most
/// [`MAX_GROWTH`] per byte and at most [`MAX_PER_BYTE`] per byte of `large`. When the two sizes
/// took different short-cuts ([`Shortcut`]: the larger is past a bound), the growth is that of
/// `general`, the same parse with every short-cut off, at both sizes. `Err` says by how much and
/// which stages grew. `Ok` when counting is not compiled in (nothing to compare).
#[doc(hidden)]
pub fn check_growth(small: &str, large: &str, run: impl Fn(&str), general: impl Fn(&str)) -> Result<(), String> {
    let work = |input: &str, run: &dyn Fn(&str)| {
        reset();
        run(input);
        counts().map(|c| (c, shortcuts_taken()))
    };
    let (Some((wa, pa)), Some((wb, pb))) = (work(small, &run), work(large, &run)) else { return Ok(()) };
    let (na, nb) = (small.len().max(1) as f64, large.len().max(1) as f64);
    let per_byte = |w: &[u64; 9], n: f64| w.iter().sum::<u64>() as f64 / n;
    let (ga, gb) = match pa == pb {
        true => (wa, wb),
        false => match (work(small, &general), work(large, &general)) {
            (Some((ga, _)), Some((gb, _))) => (ga, gb),
            _ => (wa, wb),
        },
    };
    let growth = per_byte(&gb, nb) / per_byte(&ga, na).max(f64::MIN_POSITIVE);
    if growth <= MAX_GROWTH && per_byte(&wb, nb) <= MAX_PER_BYTE {
        return Ok(());
    }
    let mut why = format!("work grew {growth:.2}x per byte, {:.1} per byte at {} bytes;", per_byte(&wb, nb), large.len());
    for (k, stage) in STAGES.iter().enumerate() {
        let g = (gb[k] as f64 / nb) / (ga[k].max(1) as f64 / na);
        if wb[k] > 0 && (g > MAX_GROWTH || wb[k] as f64 / nb > MAX_PER_BYTE / 4.0) {
            why.push_str(&format!(" {stage:?} {g:.2}x {:.1}/B", wb[k] as f64 / nb));
        }
    }
    Err(why)
}

/// [`check_growth`] on a shape built at any size by `build`, from `small` bytes to four times
/// that, with growth told from a step and from a transient. A turn whose parse takes another
/// reading past some size (the pairing objective weighs a fixed head against the repeated
/// units, and the weight turns) costs more per byte from there on, once; one whose reading
/// settles over its first hundreds of kilobytes costs a little more per byte at each size, less
/// each time. Super-linear work costs more per byte at each doubling, by a rising step (work
/// `n²` adds twice as much per byte from twice `small` to four times it as from `small` to
/// twice it). So growth past [`MAX_GROWTH`] fails when the work per byte rises on both halves
/// of the way, on the second by at least 1.5 times the first, and again from four to eight
/// times `small` by at least 1.5 times that.
#[doc(hidden)]
pub fn check_growth_of(build: impl Fn(usize) -> String, small: usize, run: impl Fn(&str), general: impl Fn(&str)) -> Result<(), String> {
    let (a, c) = (build(small), build(4 * small));
    let why = match check_growth(&a, &c, &run, &general) {
        Ok(()) => return Ok(()),
        Err(why) => why,
    };
    // Past the bound per byte is no step.
    reset();
    run(&c);
    if total().is_some_and(|w| w as f64 / c.len().max(1) as f64 > MAX_PER_BYTE) {
        return Err(why);
    }
    let b = build(2 * small);
    let (Some((pa, pb)), Some((pb2, pc))) = (per_bytes(&a, &b, &run, &general), per_bytes(&b, &c, &run, &general)) else {
        return Err(why);
    };
    // The two halves on one path each: `pb` and `pb2` differ only where short-cuts do.
    let (d1, d2) = (pb - pa, pc - pb2);
    if !(d1 > 0.0 && d2 >= 1.5 * d1) {
        return Ok(());
    }
    // A rise that looks like growth is confirmed at eight times `small`: a step or a reading
    // that settles between two and four times `small` rises less from there.
    let d = build(8 * small);
    let Some((pc2, pd)) = per_bytes(&c, &d, &run, &general) else { return Err(why) };
    match pd - pc2 >= 1.5 * d2 {
        true => Err(format!("{why} (per byte {pa:.2}, {pb:.2}, {pc:.2}, {pd:.2} at 1, 2, 4 and 8 times {small} bytes)")),
        false => Ok(()),
    }
}

/// Work per byte of `small` and `large` on one path (as [`check_growth`] compares them).
fn per_bytes(small: &str, large: &str, run: &dyn Fn(&str), general: &dyn Fn(&str)) -> Option<(f64, f64)> {
    let work = |input: &str, run: &dyn Fn(&str)| {
        reset();
        run(input);
        counts().map(|c| (c.iter().sum::<u64>() as f64 / input.len().max(1) as f64, shortcuts_taken()))
    };
    let ((wa, pa), (wb, pb)) = (work(small, run)?, work(large, run)?);
    if pa == pb {
        return Some((wa, wb));
    }
    Some((work(small, general)?.0, work(large, general)?.0))
}

/// Runs `f` with its work not counted: the checks that re-run a search the plain way under the
/// unit tests and debug assertions (to hold a kept answer to it) are not the parser's work.
#[inline(always)]
pub(crate) fn unmetered<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(test, feature = "work-count"))]
    {
        let before = counts();
        let r = f();
        if let Some(c) = before {
            on::COUNTS.with(|now| now.iter().zip(c).for_each(|(n, c)| n.set(c)));
        }
        r
    }
    #[cfg(not(any(test, feature = "work-count")))]
    f()
}

/// The test of the test: runs `f` with one stage made quadratic on purpose — a statement's
/// column is counted from its line start again (as before `statement::Ctx::pos` kept its last
/// position), so a line of many statements costs its length once per statement. The linear
/// property must fail under it. Does nothing unless counting is compiled in.
#[doc(hidden)]
pub fn with_rescan<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(test, feature = "work-count"))]
    {
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                on::RESCAN.with(|r| r.set(self.0));
            }
        }
        let _restore = Restore(on::RESCAN.with(|r| r.replace(true)));
        f()
    }
    #[cfg(not(any(test, feature = "work-count")))]
    f()
}

/// Whether [`with_rescan`] is on (a constant `false` unless counting is compiled in).
#[inline(always)]
pub(crate) fn rescan() -> bool {
    #[cfg(any(test, feature = "work-count"))]
    return on::RESCAN.with(|r| r.get());
    #[cfg(not(any(test, feature = "work-count")))]
    false
}

#[cfg(test)]
#[path = "../benches/support/shapes.rs"]
mod shapes;

/// The fuzz targets' harness, for the slowness target's own test of the test.
#[cfg(test)]
#[path = "../fuzz/harness.rs"]
mod harness;

#[cfg(test)]
#[path = "work_tests.rs"]
mod tests;
