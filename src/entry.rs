//! The entry points beyond the three document tiers: `parseReasoning`
//! (§reasoning-operations) and `operationAttempt` (§operation-attempt).
//!
//! Both walk a text the way the shared fence parser frames it, but *quotation-preserving*: a
//! code block that opens no admitted operation is opaque to its first valid closer
//! (§pairing-algorithm "Closers": inside a quotation the first valid closer closes, CommonMark's
//! rule), and nothing inside it — no heading, no naked name — escapes. Each candidate statement is
//! then handed, alone, to the ordinary statement parser ([`crate::parse_statements`]), so heading
//! shape, slots, bodies and diagnostics are exactly the program parser's.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::ast::*;
use crate::error::{Error, ErrorKind};
use crate::options::{Entry, ParseOptions};
use crate::rules::Rules;
use crate::scan::{self, Class, Classifier, Fence, Info, Line, Named, Registry};
use crate::{target, turn};

/// A fence line as the walkers see it: a fence within the indentation limit that is not inline
/// code (CommonMark: a backtick fence's info carries no backtick) and not a closer chained to an
/// opener.
fn fence_line(cls: &Classifier, text: &str) -> Option<Fence> {
    match cls.classify(text) {
        Class::Fence(f) if !f.inline && !matches!(f.info, Info::Chain(_)) => Some(f),
        _ => None,
    }
}

/// Whether a heading line's statements all close on that line (the compact form).
fn compact(cls: &Classifier, text: &str, f: &Fence) -> bool {
    crate::heading::segments(cls, text, f.indent as usize, f.width).last().map(|s| s.closed).unwrap_or(false)
}

/// `f` is a valid closer for a block opened with `ch` × `width` (§fence-closer, §closer-aside).
fn closes(f: &Fence, ch: u8, width: u32) -> bool {
    f.ch == ch && f.width >= width && matches!(f.info, Info::Bare | Info::Aside)
}

/// The line that closes a quotation opened at `open` (its first valid closer), or `None` when it
/// runs to the end of the text.
fn quotation_end(cls: &Classifier, input: &str, lines: &[Line], open: usize, ch: u8, width: u32) -> Option<usize> {
    (open + 1..lines.len()).find(|&j| fence_line(cls, &input[lines[j].start..lines[j].end]).is_some_and(|f| closes(&f, ch, width)))
}

/// The line that closes an operation block opened at `open` with `width` backticks, under
/// §balanced-fences: inside the body a labeled fence or an unclosed heading opens a literal block
/// that ends at its own first valid closer; at the body's own level the first bare backtick fence
/// at least as wide closes. `None` when the block never closes.
fn block_end(cls: &Classifier, input: &str, lines: &[Line], open: usize, width: u32) -> Option<usize> {
    let mut nested: Option<(u8, u32)> = None;
    for (j, l) in lines.iter().enumerate().skip(open + 1) {
        let text = &input[l.start..l.end];
        let Some(f) = fence_line(cls, text) else { continue };
        match nested {
            Some((ch, w)) => {
                if closes(&f, ch, w) {
                    nested = None;
                }
            }
            None => {
                if closes(&f, b'`', width) {
                    return Some(j);
                }
                match f.info {
                    Info::Label => nested = Some((f.ch, f.width)),
                    Info::Heading(_) if !compact(cls, text, &f) => nested = Some((f.ch, f.width)),
                    _ => {}
                }
            }
        }
    }
    None
}

// ── parseReasoning ───────────────────────────────────────────────────────────────────────────────

/// How one candidate statement read when parsed alone.
enum Reading<'a> {
    /// Complete and well-formed: its statements and their normalization notices.
    Admitted(Vec<Item<'a>>),
    /// Complete but refused (an error-severity diagnostic): contributes nothing.
    Malformed,
    /// The block did not close where the walk closed it (a heading inside ended it, or it ran
    /// on): the heading is unfinished and contributes nothing; its lines are walked again.
    Unfinished,
}

/// Parses the candidate `lines[from..=to]` alone and judges it. A line that is not part of any
/// statement is appended as a sentinel: when the block closed at `to`, the sentinel is outside
/// text and the two parses agree; when it did not, the sentinel lands in a body.
fn judge<'a>(input: &'a str, lines: &[Line], from: usize, to: usize, options: &ParseOptions) -> Reading<'a> {
    let span = &input[lines[from].start..lines[to].end];
    let read = turn::run(span, options, Entry::Statements);
    let probe = format!("{span}\n.");
    let probed = turn::run(&probe, options, Entry::Statements);
    if read.unparsed_tail.is_some() || probed.unparsed_tail.is_some() {
        return Reading::Malformed;
    }
    let statements = |r: &ParseResult<'_>| {
        r.items
            .iter()
            .filter(|i| matches!(i, Item::Statement(_)))
            .cloned()
            .map(|i| match i {
                Item::Statement(s) => s.into_owned(),
                _ => unreachable!(),
            })
            .collect::<Vec<_>>()
    };
    let (mine, theirs) = (statements(&read), statements(&probed));
    if mine != theirs || mine.iter().any(|s| s.position.line != 1) {
        return Reading::Unfinished;
    }
    if read.items.iter().any(|i| matches!(i, Item::Error(e) if e.severity == Severity::Error)) || mine.is_empty() {
        return Reading::Malformed;
    }
    let offset = from as u32;
    let items = read
        .items
        .into_iter()
        .map(|i| match i {
            Item::Statement(mut s) => {
                s.position.line += offset;
                Item::Statement(s)
            }
            Item::Error(mut e) => {
                e.line += offset;
                Item::Error(e)
            }
            Item::Text(mut t) => {
                t.position.line += offset;
                Item::Text(t)
            }
        })
        .collect();
    Reading::Admitted(items)
}

/// `PlurnkParser.parseReasoning` (§reasoning-operations): the operations a turn's exposed
/// provider reasoning contributes.
///
/// Admitted are complete, line-leading statements of the operations the table marks
/// `reasoning: true` (NOTE, FIND, READ), in source order, each with the builder's
/// normalization warnings (ordinary non-striking notices). Every other code block — a quotation,
/// another operation's block, an executor's — is opaque to its first valid closer: heading and
/// missing-closer recovery cannot escape it. Quoted, unfinished (no closer of its own),
/// malformed (an error-severity diagnostic) and disallowed operations contribute nothing, neither
/// statements nor notices. Blockquoted and inline examples are not headings, and reasoning is
/// never read as naked or unfenced operations (§naked-operation). The result has no text items
/// and no turn-shape diagnostic: reasoning is a forensic source, not outside text.
///
/// ```
/// use plurnk_parser::{parse_reasoning, ParseOptions};
///
/// let thinking = "I should look first.\n```READ (src/a.rs)\n```\nThen maybe ```EDIT (src/a.rs)\nx\n```";
/// let result = parse_reasoning(thinking, &ParseOptions::default());
/// let ops: Vec<_> = result.statements().filter_map(|s| s.op_name()).collect();
/// assert_eq!(ops, ["READ"]); // EDIT never runs from reasoning
/// ```
pub fn parse_reasoning<'a>(input: &'a str, options: &ParseOptions) -> ParseResult<'a> {
    let rules = options.rules();
    let registry = Registry::new(rules, options.executors.as_deref());
    let cls = Classifier::new(rules, &registry);
    let lines = scan::lines(input);
    let mut items: Vec<Item<'a>> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = &input[lines[i].start..lines[i].end];
        let Some(f) = fence_line(&cls, text) else {
            i += 1;
            continue;
        };
        match f.info {
            Info::Heading(Named::Op(op)) if rules.op(op).reasoning => {
                let end = if compact(&cls, text, &f) { Some(i) } else { block_end(&cls, input, &lines, i, f.width) };
                let Some(end) = end else {
                    // Unfinished: nothing closes it. Its lines are read again, so a complete
                    // statement a heading inside it opened still counts.
                    i += 1;
                    continue;
                };
                match judge(input, &lines, i, end, options) {
                    Reading::Admitted(mut v) => {
                        items.append(&mut v);
                        i = end + 1;
                    }
                    Reading::Malformed => i = end + 1,
                    Reading::Unfinished => i += 1,
                }
            }
            Info::Heading(_) => {
                // Another operation or an executor: never executes here, and its block is opaque.
                if compact(&cls, text, &f) {
                    i += 1;
                } else {
                    i = block_end(&cls, input, &lines, i, f.width).map(|e| e + 1).unwrap_or(lines.len());
                }
            }
            _ => i = quotation_end(&cls, input, &lines, i, f.ch, f.width).map(|e| e + 1).unwrap_or(lines.len()),
        }
    }
    ParseResult { items, unparsed_tail: None }
}

// ── operationAttempt ─────────────────────────────────────────────────────────────────────────────

/// What kind of operation attempt an emission with no operation makes (§operation-attempt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AttemptKind {
    /// A fence line naming a native operation or a known executor outside every quotation that
    /// yielded no statement (a refused heading).
    Fence,
    /// An operation heading outside any fence (§bare-heading-advisory, §unfenced-operation); a
    /// known executor's name counts only when a slot follows it.
    Heading,
    /// Native tool-call markup that §native-tool-calls did not read.
    Native,
    /// An echoed packet row (`### log://…`).
    Echo,
}

impl AttemptKind {
    /// The kind as the contract's JSON writes it (`fence`, `heading`, `native`, `echo`).
    pub fn as_str(self) -> &'static str {
        match self {
            AttemptKind::Fence => "fence",
            AttemptKind::Heading => "heading",
            AttemptKind::Native => "native",
            AttemptKind::Echo => "echo",
        }
    }
}

/// The attempt `operationAttempt` names: its kind, the operation or executor it names where it
/// names one, where it starts, and its line as written.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Attempt {
    /// What kind of attempt.
    pub kind: AttemptKind,
    /// The operation or executor it names, where it names one.
    pub name: Option<String>,
    /// Where it starts.
    pub position: Position,
    /// Its line, as written.
    pub text: String,
}

impl Serialize for Attempt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("kind", self.kind.as_str())?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("line", &self.position.line)?;
        m.serialize_entry("column", &self.position.column)?;
        m.serialize_entry("text", &self.text)?;
        m.end()
    }
}

/// Schemes whose rows a packet shows under a Markdown heading (`### log:///L/T/S/OP → path`,
/// §log-heading-notation); a model echoing one is attempting an operation's result.
const PACKET_ROW_SCHEMES: &[&str] = &["log"];

fn packet_row(text: &str) -> bool {
    let hashes = text.len() - text.trim_start_matches('#').len();
    if !(1..=6).contains(&hashes) {
        return false;
    }
    let rest = &text[hashes..];
    if !rest.starts_with([' ', '\t']) {
        return false;
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    PACKET_ROW_SCHEMES
        .iter()
        .any(|s| rest.len() > s.len() + 3 && rest[..s.len()].eq_ignore_ascii_case(s) && rest[s.len()..].starts_with("://"))
}

/// `PlurnkParser.operationAttempt(input, executors)` (§operation-attempt): for an emission with
/// no operation, the first operation attempt it makes, or `None` when it is prose — which a host
/// may take as the model's answer. An emission that yields an operation makes no attempt
/// (`None`).
///
/// An attempt is a fence line naming an operation or a known executor outside every quotation, an
/// operation heading outside any fence (an executor's name only with a slot after it), native
/// tool-call markup left unread, or an echoed packet row. Anything else — code blocks of any
/// width, and everything inside them — is prose.
///
/// ```
/// use plurnk_parser::{operation_attempt, AttemptKind, ParseOptions};
///
/// let options = ParseOptions::default();
/// assert_eq!(operation_attempt("The answer is 42.", &options), None);
/// let attempt = operation_attempt("READ (src/a.rs)", &options).unwrap(); // no fence
/// assert_eq!((attempt.kind, attempt.name.as_deref()), (AttemptKind::Heading, Some("READ")));
/// ```
pub fn operation_attempt(input: &str, options: &ParseOptions) -> Option<Attempt> {
    let parsed = turn::run(input, options, Entry::Parse);
    if parsed.items.iter().any(|i| matches!(i, Item::Statement(_))) {
        return None;
    }
    let rules = options.rules();
    let registry = Registry::new(rules, options.executors.as_deref());
    let cls = Classifier::new(rules, &registry);
    let lines = scan::lines(input);
    let name_of = |named: Named| match named {
        Named::Op(i) => rules.op(i).name.clone(),
        Named::Exec(e) => registry.names[e].clone(),
    };
    let at = |line: usize, byte: usize| {
        let t = &input[lines[line].start..lines[line].end];
        Position { line: line as u32 + 1, column: scan::columns(&t[..byte.min(t.len())]) }
    };
    let mut found: Option<Attempt> = None;
    let mut i = 0;
    while i < lines.len() {
        let text = &input[lines[i].start..lines[i].end];
        let attempt = |kind, name, byte| Attempt { kind, name, position: at(i, byte), text: text.to_string() };
        match cls.classify(text) {
            Class::Fence(f) if !f.inline && !matches!(f.info, Info::Chain(_)) => match f.info {
                Info::Heading(named) => {
                    found = Some(attempt(AttemptKind::Fence, Some(name_of(named)), f.indent as usize));
                    break;
                }
                _ => {
                    i = quotation_end(&cls, input, &lines, i, f.ch, f.width).map(|e| e + 1).unwrap_or(lines.len());
                    continue;
                }
            },
            Class::Naked(op) => {
                found = Some(attempt(AttemptKind::Heading, Some(rules.op(op).name.clone()), 0));
                break;
            }
            Class::Unfenced(named) => {
                found = Some(attempt(AttemptKind::Heading, Some(name_of(named)), 0));
                break;
            }
            _ if packet_row(text) => {
                found = Some(attempt(AttemptKind::Echo, None, 0));
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let native = crate::native::read(input, rules, &registry).receipt.map(|r| {
        let l = (r.line as usize).min(lines.len() - 1);
        Attempt { kind: AttemptKind::Native, name: None, position: at(l, r.at), text: input[lines[l].start..lines[l].end].to_string() }
    });
    match (found, native) {
        (Some(a), Some(n)) => Some(if n.position < a.position { n } else { a }),
        (a, n) => a.or(n),
    }
}

// ── One dispatch for every embedding ─────────────────────────────────────────────────────────────

/// A message of `rules/diagnostics.yaml` (the embedding section), filled.
pub fn message(id: &str, args: &[(&str, &str)]) -> String {
    Rules::builtin().text_by_name(id, args)
}

/// The entry points by their contract names, as the `--jsonl` helper, the C ABI and the Node
/// binding name them.
pub const ENTRIES: &[&str] = &["parse", "parseStatements", "parseClient", "parseReasoning", "operationAttempt", "parsePath"];

/// Calls the entry named `entry` on `input` and serializes its result as JSON; `Err` carries the
/// message of a call that throws (a malformed path for `parsePath`, an unknown entry).
///
/// A panic inside the parser (a bug) is caught and becomes that call's `Err`: every embedding
/// (`--jsonl`, the C ABI, the bindings) calls through here, and a host must outlive one bad
/// input.
pub fn call_json(entry: &str, input: &str, options: &ParseOptions) -> Result<String, String> {
    guarded(|| call_json_unguarded(entry, input, options))
}

/// Runs one embedding call; a panic becomes its `Err` (see [`call_json`]).
pub fn guarded<T>(call: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_or_else(|payload| Err(panic_message(payload.as_ref())))
}

/// The `throws` text of a call that panicked: what the panic said, if it said it as text.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let detail = payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str)).unwrap_or("");
    message("embed.panic", &[("detail", detail)])
}

fn call_json_unguarded(entry: &str, input: &str, options: &ParseOptions) -> Result<String, String> {
    let json = match entry {
        "parse" => serde_json::to_string(&turn::run(input, options, Entry::Parse)),
        "parseStatements" => serde_json::to_string(&turn::run(input, options, Entry::Statements)),
        "parseClient" => serde_json::to_string(&turn::run(input, options, Entry::Client)),
        "parseReasoning" => serde_json::to_string(&parse_reasoning(input, options)),
        "operationAttempt" => serde_json::to_string(&operation_attempt(input, options)),
        "parsePath" => match target::parse_path(input) {
            Ok(t) => serde_json::to_string(&t),
            Err(e) => return Err(e.to_string()),
        },
        other => return Err(message("embed.unknown-entry", &[("entry", other), ("entries", &ENTRIES.join(", "))])),
    };
    json.map_err(|e| e.to_string())
}

/// Reads `{"entry"?, "executors"?, "diagnosticIds"?}` (the options object every embedding
/// passes) into an entry name and parse options; `None`, `null` or `{}` is `parse` with the
/// default executors. A malformed object is an [`ErrorKind::InvalidOptions`] error.
pub fn options_from_json(value: Option<&serde_json::Value>) -> Result<(String, ParseOptions), Error> {
    let invalid = |id: &str, args: &[(&str, &str)]| Error::new(ErrorKind::InvalidOptions, message(id, args));
    let mut entry = "parse".to_string();
    let mut options = ParseOptions::default();
    let Some(v) = value.filter(|v| !v.is_null()) else { return Ok((entry, options)) };
    let Some(m) = v.as_object() else { return Err(invalid("embed.options-not-object", &[])) };
    let strings = || invalid("embed.option-type", &[("option", "executors"), ("expected", "an array of strings")]);
    for (k, x) in m {
        match k.as_str() {
            "entry" => {
                entry =
                    x.as_str().ok_or_else(|| invalid("embed.option-type", &[("option", "entry"), ("expected", "a string")]))?.to_string()
            }
            "diagnosticIds" => {
                options.diagnostic_ids =
                    x.as_bool().ok_or_else(|| invalid("embed.option-type", &[("option", "diagnosticIds"), ("expected", "a boolean")]))?
            }
            "executors" if x.is_null() => {}
            "executors" => {
                let list = x.as_array().ok_or_else(strings)?;
                let names: Option<Vec<String>> = list.iter().map(|n| n.as_str().map(String::from)).collect();
                options.executors = Some(names.ok_or_else(strings)?);
            }
            other => return Err(invalid("embed.unknown-option", &[("option", other)])),
        }
    }
    Ok((entry, options))
}

#[cfg(test)]
mod tests {
    /// §tier-entrypoints: a panic inside a call is that call's `throws`, with what it said; the
    /// next call runs as if nothing happened.
    #[test]
    fn tier_entrypoints_a_panicking_call_throws_and_the_next_one_runs() {
        let r: Result<(), String> = super::guarded(|| panic!("boom at byte 7"));
        let m = r.unwrap_err();
        assert!(m.contains("a bug") && m.ends_with("boom at byte 7"), "{m}");
        let ok = super::call_json("parse", "```READ (a.md)\n```", &Default::default()).unwrap();
        assert!(ok.contains("\"op\":\"READ\""), "{ok}");
    }
}
