//! Canonical rendering (§statement-rendering, §slot-order): `PlurnkParser.stringify`.
//!
//! A statement renders as its fence, its heading —
//! `OP (target) <scope> [metadata] matcher <!-- aside -->`, one ASCII space between slots, COPY
//! and MOVE repeating the whole selection group per operand — its body between framing
//! newlines, and its closing fence on a line of its own, bodyless statements included. The fence
//! is the taught width (three backticks, `PLURNK_FENCE`) or one more than the longest backtick
//! run the statement carries, so the body's bytes read back unchanged (§balanced-fences).
//! Statements are separated by one blank line.
//!
//! A lifted matcher is written bare when the bare form reads back identically and draws no
//! advisory (§naked-pattern), otherwise as `[{"pattern": "…"}]` (§matcher-option). "Reads back
//! identically" is decided by reading it back: [`stringify()`] parses each candidate rendering with
//! the ordinary parser and keeps the first whose statement is the one rendered, so the rendering
//! and the grammar cannot drift apart. [`heading`] is the same heading without that check (the
//! builder uses it inside a parse, where reading back would recurse).
//!
//! ```
//! use plurnk_parser::{parse, render, ParseOptions};
//!
//! let result = parse("```READ   (src/a.rs)<1,40>    <!-- why -->\n```", &ParseOptions::default());
//! let read = result.statements().next().unwrap();
//! assert_eq!(render::stringify(read), "```READ (src/a.rs) <1,40> <!-- why -->\n```");
//! ```

use crate::ast::*;
use crate::canonical::heading_candidates;
use crate::options::{Entry, ParseOptions};
use crate::rules::model::Tier;
use crate::turn;

pub use crate::canonical::{body_text, frame, heading};

/// The tier and executors a rendered statement is read back under: the caller's executors (a
/// body's fence line names a runtime only when it is registered) plus the statement's own.
fn read_back_options(s: &Statement, options: &ParseOptions) -> (ParseOptions, Entry) {
    let rules = options.rules();
    let mut executors = options.executors.clone().unwrap_or_else(|| rules.tables.executors.always.clone());
    if let Head::Runtime(r) = &s.head {
        if !executors.iter().any(|e| e == r) {
            executors.push(r.clone());
        }
    }
    let entry = match s.op_name().and_then(|n| rules.op_index(n)).map(|i| rules.op(i).tier) {
        Some(Tier::Client) => Entry::Client,
        _ => Entry::Statements,
    };
    (ParseOptions { executors: Some(executors), rules: options.rules.clone(), diagnostic_ids: false }, entry)
}

/// Whether `text` reads back as exactly `s` (positions aside) and draws nothing worse than
/// `floor` diagnostics; returns the diagnostics it drew.
fn reads_back(text: &str, s: &Statement, options: &ParseOptions, entry: Entry) -> Option<usize> {
    let r = turn::run(text, options, entry);
    if r.unparsed_tail.is_some() {
        return None;
    }
    let mut statements = r.items.iter().filter_map(|i| match i {
        Item::Statement(t) => Some(t),
        _ => None,
    });
    let first = statements.next()?;
    if statements.next().is_some() || !same_statement(first, s) {
        return None;
    }
    Some(r.items.iter().filter(|i| matches!(i, Item::Error(_))).count())
}

/// Statement equality with positions aside: whether a statement read back from its rendering
/// is the one rendered.
///
/// ```
/// use plurnk_parser::{parse, render, ParseOptions};
///
/// let first = parse("```READ (a.md) <1,4>\n```", &ParseOptions::default());
/// let s = first.statements().next().unwrap();
/// let text = format!("Again:\n{}", render::stringify(s));
/// let again = parse(&text, &ParseOptions::default());
/// assert!(render::same_statement(s, again.statements().next().unwrap()));
/// ```
pub fn same_statement(a: &Statement, b: &Statement) -> bool {
    let mut a = a.clone();
    a.position = b.position;
    a == *b
}

/// `PlurnkParser.stringify` for one statement, read back under `options` (its rule set and
/// registered executors: a fence line in a body names a runtime only when it is registered).
pub fn stringify_with(s: &Statement, options: &ParseOptions) -> String {
    render_one(s, options, true, 0)
}

/// One statement; `last`: nothing follows it, so a message that only reads back when it runs to
/// the end of the text may be written that way.
fn render_one(s: &Statement, options: &ParseOptions, last: bool, min_width: usize) -> String {
    let rules = options.rules();
    let taught = (rules.tables.fence.taught_width as usize).max(min_width);
    let body = body_text(s);
    let candidates = heading_candidates(s);
    let framed: Vec<String> = candidates.iter().map(|(h, as_body)| frame(h, as_body.as_deref().or(body.as_deref()), taught)).collect();
    if framed.len() > 1 {
        let (options, entry) = read_back_options(s, options);
        // The first candidate that reads back as `s` with the fewest diagnostics: a bare matcher
        // is kept only when it reads back identically and draws no advisory the block does not.
        let mut best: Option<(usize, usize)> = None;
        for (k, text) in framed.iter().enumerate() {
            if let Some(n) = reads_back(text, s, &options, entry) {
                if best.map(|(_, m)| n < m).unwrap_or(true) {
                    best = Some((k, n));
                }
                if n == 0 {
                    break;
                }
            }
        }
        if let Some((k, _)) = best {
            return framed[k].clone();
        }
    }
    if last && body.is_some() {
        // A message that runs to the end of the turn (§message-run-on) may end inside a nested
        // block it never closed; no closing fence can follow such a body and read as its closer.
        // It is written to the end of the text instead, which reads back as the same body
        // (§closer-fallback).
        let (options, entry) = read_back_options(s, options);
        if reads_back(&framed[0], s, &options, entry).is_none() {
            for (h, as_body) in &candidates {
                let mut open = frame(h, as_body.as_deref().or(body.as_deref()), taught);
                let closer = open.len() - open.trim_end_matches('`').len();
                open.truncate(open.len() - closer);
                if reads_back(&open, s, &options, entry).is_some() {
                    return open;
                }
            }
        }
    }
    framed.into_iter().next().unwrap_or_default()
}

/// `PlurnkParser.stringify` for one statement (the built-in rules, the default executors).
pub fn stringify(s: &Statement) -> String {
    stringify_with(s, &ParseOptions::default())
}

/// `PlurnkParser.stringify` of a program: each statement rendered, separated by one blank line.
/// A statement followed by another always takes its closing fence: the next heading ends a
/// message that would otherwise run on (§message-run-on). Fence pairing reads the whole text at
/// once (§fence-pairing), so the program is read back too; where its statements' different
/// widths let one block's fences pair with another's, every statement takes the widest fence.
pub fn stringify_all<'a, 's: 'a>(statements: impl IntoIterator<Item = &'a Statement<'s>>) -> String {
    stringify_all_with(statements, &ParseOptions::default())
}

/// [`stringify_all`] read back under `options`.
pub fn stringify_all_with<'a, 's: 'a>(statements: impl IntoIterator<Item = &'a Statement<'s>>, options: &ParseOptions) -> String {
    let list: Vec<&Statement> = statements.into_iter().collect();
    let program = |min: usize| {
        let mut out = String::new();
        for (k, s) in list.iter().enumerate() {
            if k > 0 {
                out.push_str("\n\n");
            }
            out.push_str(&render_one(s, options, k + 1 == list.len(), min));
        }
        out
    };
    let first = program(0);
    if list.len() < 2 || program_reads_back(&first, &list, options) {
        return first;
    }
    let widest = list
        .iter()
        .map(|s| {
            let t = render_one(s, options, false, 0);
            t.len() - t.trim_start_matches('`').len()
        })
        .max()
        .unwrap_or(0);
    let uniform = program(widest);
    if program_reads_back(&uniform, &list, options) {
        uniform
    } else {
        first
    }
}

/// Whether a rendered program reads back as `list`, in order (positions aside).
fn program_reads_back(text: &str, list: &[&Statement], options: &ParseOptions) -> bool {
    let rules = options.rules();
    let mut executors = options.executors.clone().unwrap_or_else(|| rules.tables.executors.always.clone());
    let mut entry = Entry::Statements;
    for s in list {
        let (o, e) = read_back_options(s, options);
        for x in o.executors.unwrap_or_default() {
            if !executors.contains(&x) {
                executors.push(x);
            }
        }
        if e == Entry::Client {
            entry = Entry::Client;
        }
    }
    let r = turn::run(text, &ParseOptions { executors: Some(executors), rules: options.rules.clone(), diagnostic_ids: false }, entry);
    let back: Vec<&Statement> = r
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Statement(s) => Some(s),
            _ => None,
        })
        .collect();
    back.len() == list.len() && back.iter().zip(list.iter()).all(|(a, b)| same_statement(a, b))
}
