//! The parse result: statements, diagnostics and response text, serialized exactly as the
//! contract (`schema/ParseResult.json`) and the conformance corpus show them.

use std::borrow::Cow;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::rules::model::{Shape, Source};
use crate::rules::DiagId;

/// A parser source point: 1-based line, 0-based code-point column (§parser-position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
pub struct Position {
    /// 1-based line; 0 only in the unknown sentinel `{0, 0}`.
    pub line: u32,
    /// 0-based column, in Unicode code points.
    pub column: u32,
}

/// One ordered item of a parse result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Item<'a> {
    /// A statement to run.
    Statement(Statement<'a>),
    /// A diagnostic (`"kind": "error"` in the contract, whatever its severity).
    Error(Diagnostic),
    /// Response text outside every operation (§response-text).
    Text(TextItem<'a>),
}

/// Outside text (§response-text).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TextItem<'a> {
    /// The text exactly as written: a slice of the input unless read from a native rewrite.
    pub content: Cow<'a, str>,
    /// Where it starts.
    pub position: Position,
}

/// How much a diagnostic weighs (§parse-diagnostics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Severity {
    /// Something was refused: a statement, a slot, or trust in the rest of the turn.
    Error,
    /// A notice: the parser read the text, and says how (a normalization, an advisory, a receipt).
    Warning,
}

/// A positioned diagnostic (§parse-diagnostics).
///
/// [`Diagnostic::id`] is its stable id from `rules/diagnostics.yaml`; the message is that entry's
/// text, filled in, and may be reworded between versions.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// 1-based line (§parser-position).
    pub line: u32,
    /// 0-based code-point column.
    pub column: u32,
    /// The stage the reference implementation attributes it to (informational).
    pub source: Source,
    /// Error or warning.
    pub severity: Severity,
    /// The message, from its rule entry.
    pub message: String,
    /// What the author can write instead; hard errors only (§parse-recovery).
    pub recovery: Option<String>,
    /// Unexecuted unfenced operations, unknown operation-shaped tags, unrecovered native calls
    /// (§parse-admission); serialized only when true.
    pub operation_omitted: bool,
    /// The refused statement's text exactly as written, on a hard fact that refused a statement
    /// the parser opened (§parse-attempt); serialized only when present.
    pub attempt: Option<String>,
    /// The rule entry it was made from.
    pub(crate) id: DiagId,
    /// Whether serializing writes `id` ([`crate::ParseOptions::with_diagnostic_ids`]).
    pub(crate) show_id: bool,
}

impl Diagnostic {
    /// The stable id of the diagnostic's entry in `rules/diagnostics.yaml` (for example
    /// `unknown-tag`): it names the diagnostic across versions and rewordings, where the message
    /// may change.
    ///
    /// ```
    /// use plurnk_parser::{parse, ParseOptions};
    ///
    /// let result = parse("Nothing to run here.", &ParseOptions::default());
    /// let ids: Vec<&str> = result.diagnostics().map(|d| d.id()).collect();
    /// assert_eq!(ids, ["no-operation"]);
    /// ```
    pub fn id(&self) -> &'static str {
        self.id.name()
    }

    /// Where it stands.
    pub fn position(&self) -> Position {
        Position { line: self.line, column: self.column }
    }
}

/// Where trust ends (§unparsed-tail-boundary).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct UnparsedTail {
    /// The first position not trusted; items from it on are dropped.
    pub from: Position,
    /// Which header slot remains open.
    pub reason: String,
}

/// `{items, unparsedTail?}`: what [`crate::parse`] and the other tiers return.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ParseResult<'a> {
    /// Statements, diagnostics and text, in source order.
    pub items: Vec<Item<'a>>,
    /// Present when the turn ends inside an unfinished heading (§unparsed-tail-boundary).
    pub unparsed_tail: Option<UnparsedTail>,
}

/// A target slot, decomposed (§path-syntax). A local path borrows the input unless a slot
/// escape was decoded (§path-parentheses).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Target<'a> {
    /// A local path (`src/a.rs`, `src/a.rs#channel`).
    Local {
        /// The path as written, slot escapes decoded (§path-parentheses).
        raw: Cow<'a, str>,
        /// The channel after `#`, when there is one (§local-path-fragment).
        fragment: Option<Cow<'a, str>>,
    },
    /// A `scheme://` URL, decomposed as WHATWG parses it.
    Url(UrlTarget<'a>),
}

/// A scheme URL's WHATWG components, read through its methods. Most URLs models write parse
/// back exactly as written (`worker:///src/a.md`): their components are then slices of `raw`,
/// kept as offsets, and the target allocates nothing. Any other URL (one WHATWG may rewrite:
/// case, percent-encoding, dot segments; or one with userinfo, a port or a query) keeps the
/// components WHATWG parsing gives, owned, in one box, so a target stays the size of a local
/// path's.
#[derive(Clone, PartialEq)]
pub struct UrlTarget<'a> {
    raw: Cow<'a, str>,
    parts: UrlParts,
}

#[derive(Debug, Clone, PartialEq)]
enum UrlParts {
    /// `raw` is `scheme://host path[#fragment]`: the scheme ends at `scheme_end`, the host at
    /// `host_end`, the path at `path_end` (a `#` and the fragment follow when that is not the
    /// end). `slash`: the path is empty under a special scheme, which WHATWG serializes as `/`.
    AsWritten { scheme_end: u32, host_end: u32, path_end: u32, slash: bool },
    /// The components as WHATWG parsing serializes them (rewritten or not).
    Rewritten(Box<UrlComponents>),
}

/// Shows the components, whichever way they are held.
impl std::fmt::Debug for UrlTarget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UrlTarget")
            .field("raw", &self.raw())
            .field("scheme", &self.scheme())
            .field("username", &self.username())
            .field("password", &self.password())
            .field("hostname", &self.hostname())
            .field("port", &self.port())
            .field("pathname", &self.pathname())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

/// The components of a URL the as-written reading does not take, as WHATWG serializes them.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct UrlComponents {
    pub scheme: String,
    pub username: Option<String>,
    pub password: Option<String>,
    pub hostname: Option<String>,
    pub port: Option<u32>,
    pub pathname: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

fn owned(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl<'a> UrlTarget<'a> {
    /// A URL that reads back as written (the offsets are [`UrlParts::AsWritten`]'s).
    pub(crate) fn as_written(raw: Cow<'a, str>, scheme_end: u32, host_end: u32, path_end: u32, slash: bool) -> Self {
        UrlTarget { raw, parts: UrlParts::AsWritten { scheme_end, host_end, path_end, slash } }
    }

    pub(crate) fn rewritten(raw: Cow<'a, str>, components: UrlComponents) -> Self {
        UrlTarget { raw, parts: UrlParts::Rewritten(Box::new(components)) }
    }

    /// The boxed components; an as-written URL has no userinfo, port or query.
    fn parsed(&self) -> Option<&UrlComponents> {
        match &self.parts {
            UrlParts::AsWritten { .. } => None,
            UrlParts::Rewritten(c) => Some(c),
        }
    }

    /// The URL as written in the slot.
    pub fn raw(&self) -> &str {
        &self.raw
    }
    /// The scheme, without `://`.
    pub fn scheme(&self) -> &str {
        match &self.parts {
            UrlParts::AsWritten { scheme_end, .. } => &self.raw[..*scheme_end as usize],
            UrlParts::Rewritten(c) => &c.scheme,
        }
    }
    /// The userinfo's user name, when there is one.
    pub fn username(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.username.as_deref())
    }
    /// The userinfo's password, when there is one.
    pub fn password(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.password.as_deref())
    }
    /// The host, when there is one.
    pub fn hostname(&self) -> Option<&str> {
        match &self.parts {
            // The host follows the scheme's `://`.
            UrlParts::AsWritten { scheme_end, host_end, .. } => {
                Some(&self.raw[*scheme_end as usize + 3..*host_end as usize]).filter(|h| !h.is_empty())
            }
            UrlParts::Rewritten(c) => c.hostname.as_deref(),
        }
    }
    /// The port, when one is written (and is not the scheme's default).
    pub fn port(&self) -> Option<u32> {
        self.parsed().and_then(|c| c.port)
    }
    /// The path.
    pub fn pathname(&self) -> &str {
        match &self.parts {
            UrlParts::AsWritten { slash: true, .. } => "/",
            UrlParts::AsWritten { host_end, path_end, .. } => &self.raw[*host_end as usize..*path_end as usize],
            UrlParts::Rewritten(c) => &c.pathname,
        }
    }
    /// The query, without `?`, when there is one.
    pub fn query(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.query.as_deref())
    }
    /// The fragment, without `#`, when there is one.
    pub fn fragment(&self) -> Option<&str> {
        match &self.parts {
            // What follows the path is `#` and the fragment.
            UrlParts::AsWritten { path_end, .. } => {
                self.raw.get(*path_end as usize + 1..).filter(|_| (*path_end as usize) < self.raw.len())
            }
            UrlParts::Rewritten(c) => c.fragment.as_deref(),
        }
    }

    /// The URL with nothing borrowed.
    pub fn into_owned(self) -> UrlTarget<'static> {
        UrlTarget { raw: owned(self.raw), parts: self.parts }
    }
}

impl<'a> Target<'a> {
    /// The target with nothing borrowed (to outlive the input).
    pub fn into_owned(self) -> Target<'static> {
        match self {
            Target::Local { raw, fragment } => Target::Local { raw: owned(raw), fragment: fragment.map(owned) },
            Target::Url(u) => Target::Url(u.into_owned()),
        }
    }
    /// The target as written (decoded).
    pub fn raw(&self) -> &str {
        match self {
            Target::Local { raw, .. } => raw,
            Target::Url(u) => u.raw(),
        }
    }
    /// A URL's scheme; `None` for a local path.
    pub fn scheme(&self) -> Option<&str> {
        match self {
            Target::Local { .. } => None,
            Target::Url(u) => Some(u.scheme()),
        }
    }
}

/// One scope component (§scope-marker-forms).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Mark {
    /// A line number or count.
    Int(i64),
    /// A number that is not an integer (a duration, for example).
    Num(f64),
    /// A text anchor.
    Anchor(String),
}

/// A `<scope>` slot read (§scope-marker-forms): its components in order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LineMarker {
    /// The components, in the order written.
    pub marks: Vec<Mark>,
}

/// A matcher (§matcher-prefix-claims).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Matcher {
    /// `/pattern/flags` (ECMAScript syntax).
    Regex {
        /// As written.
        raw: String,
        /// Between the slashes.
        pattern: String,
        /// After the last slash.
        flags: String,
    },
    /// Another dialect its prefix claims (`$` JSONPath, `//` XPath, …).
    Other {
        /// The dialect's name, as the contract writes it.
        dialect: &'static str,
        /// As written.
        raw: String,
    },
    /// A matcher its dialect refuses: why, and what to write instead.
    Unreadable {
        /// As written.
        raw: String,
        /// Why it cannot be read.
        message: String,
        /// What the author can write instead.
        recovery: String,
    },
}

/// One resource selection (COPY/MOVE operands).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Selection<'a> {
    /// The `(target)` slot.
    pub target: Option<Target<'a>>,
    /// The `[metadata]` slot's entries.
    pub metadata: Option<Vec<String>>,
    /// The `<scope>` slot.
    pub line_marker: Option<LineMarker>,
    /// The matcher.
    pub matcher: Option<Matcher>,
}

impl Selection<'_> {
    /// The selection with nothing borrowed.
    pub fn into_owned(self) -> Selection<'static> {
        Selection {
            target: self.target.map(Target::into_owned),
            metadata: self.metadata,
            line_marker: self.line_marker,
            matcher: self.matcher,
        }
    }
}

/// A statement body, by the operation's body kind.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Body<'a> {
    /// No body.
    Null,
    /// Text, exactly as written between the fences.
    Text(Cow<'a, str>),
    /// A message body: the text, and its JSON value when it is JSON.
    Message {
        /// Exactly as written.
        raw: Cow<'a, str>,
        /// The parsed value, when the text is JSON.
        json: Option<serde_json::Value>,
    },
    /// Boxed, as [`Statement::matcher`] is.
    Matcher(Box<Matcher>),
}

/// What the fence names: a native operation or a registered executor.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Head {
    /// A native operation. `name` borrows the built-in rule set, and is a copy for a rule set
    /// the caller supplied.
    Op {
        /// The operation's name (`READ`).
        name: Cow<'static, str>,
        /// Which fields the statement serializes.
        shape: Shape,
    },
    /// A registered executor (`sh`, `python3`): the statement's body is its program.
    Runtime(String),
}

/// One statement of the shared AST.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Statement<'a> {
    /// The operation or executor the fence names.
    pub head: Head,
    /// The `<!-- aside -->`; borrows the heading line unless read from rewritten text.
    pub aside: Option<Cow<'a, str>>,
    /// The `(target)` slot.
    pub target: Option<Target<'a>>,
    /// The `[metadata]` slot's entries.
    pub metadata: Option<Vec<String>>,
    /// The `<scope>` slot.
    pub line_marker: Option<LineMarker>,
    /// Boxed: few statements carry one, and every statement is moved whole into the result.
    pub matcher: Option<Box<Matcher>>,
    /// The body, by the operation's body kind.
    pub body: Body<'a>,
    /// COPY and MOVE only: boxed, so every other statement stays small.
    pub source: Option<Box<Selection<'a>>>,
    /// COPY and MOVE only.
    pub destination: Option<Box<Selection<'a>>>,
    /// WAIT's `[seconds]` duration (§send-wait-scope); serialized only when present.
    pub seconds: Option<f64>,
    /// Where the statement's fence stands.
    pub position: Position,
}

impl Head {
    /// The operation's or the executor's name, as the statement names it.
    pub fn name(&self) -> &str {
        match self {
            Head::Op { name, .. } => name,
            Head::Runtime(r) => r,
        }
    }
}

impl<'a> Statement<'a> {
    /// The native operation's name; `None` for an executor's statement.
    pub fn op_name(&self) -> Option<&str> {
        match &self.head {
            Head::Op { name, .. } => Some(name.as_ref()),
            Head::Runtime(_) => None,
        }
    }
    /// The statement with nothing borrowed (to outlive the input).
    pub fn into_owned(self) -> Statement<'static> {
        Statement {
            head: self.head,
            aside: self.aside.map(owned),
            target: self.target.map(Target::into_owned),
            metadata: self.metadata,
            line_marker: self.line_marker,
            matcher: self.matcher,
            body: match self.body {
                Body::Null => Body::Null,
                Body::Text(t) => Body::Text(owned(t)),
                Body::Message { raw, json } => Body::Message { raw: owned(raw), json },
                Body::Matcher(m) => Body::Matcher(m),
            },
            source: self.source.map(|s| Box::new(s.into_owned())),
            destination: self.destination.map(|s| Box::new(s.into_owned())),
            seconds: self.seconds,
            position: self.position,
        }
    }
}

// ── Serialization: field names, nulls and order exactly as the contract shows them ──────────────

fn num_value(f: f64) -> serde_json::Value {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        serde_json::Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null)
    }
}

impl Serialize for Mark {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Mark::Int(i) => s.serialize_i64(*i),
            Mark::Num(f) => num_value(*f).serialize(s),
            Mark::Anchor(a) => s.serialize_str(a),
        }
    }
}

impl Serialize for LineMarker {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("marks", &self.marks)?;
        m.end()
    }
}

impl Serialize for Target<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Target::Local { raw, fragment } => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("kind", "local")?;
                m.serialize_entry("raw", raw)?;
                if let Some(f) = fragment {
                    m.serialize_entry("fragment", f)?;
                }
                m.end()
            }
            Target::Url(u) => {
                let mut m = s.serialize_map(Some(10))?;
                m.serialize_entry("kind", "url")?;
                m.serialize_entry("raw", &u.raw())?;
                m.serialize_entry("scheme", &u.scheme())?;
                m.serialize_entry("username", &u.username())?;
                m.serialize_entry("password", &u.password())?;
                m.serialize_entry("hostname", &u.hostname())?;
                m.serialize_entry("port", &u.port())?;
                m.serialize_entry("pathname", &u.pathname())?;
                m.serialize_entry("query", &u.query())?;
                m.serialize_entry("fragment", &u.fragment())?;
                m.end()
            }
        }
    }
}

impl Serialize for Matcher {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self {
            Matcher::Regex { raw, pattern, flags } => {
                m.serialize_entry("dialect", "regex")?;
                m.serialize_entry("raw", raw)?;
                m.serialize_entry("pattern", pattern)?;
                m.serialize_entry("flags", flags)?;
            }
            Matcher::Other { dialect, raw } => {
                m.serialize_entry("dialect", dialect)?;
                m.serialize_entry("raw", raw)?;
            }
            Matcher::Unreadable { raw, message, recovery } => {
                m.serialize_entry("dialect", "unreadable")?;
                m.serialize_entry("raw", raw)?;
                m.serialize_entry("message", message)?;
                m.serialize_entry("recovery", recovery)?;
            }
        }
        m.end()
    }
}

impl Serialize for Selection<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("target", &self.target)?;
        m.serialize_entry("metadata", &self.metadata)?;
        m.serialize_entry("lineMarker", &self.line_marker)?;
        m.serialize_entry("matcher", &self.matcher)?;
        m.end()
    }
}

struct BodyRef<'b, 'a>(&'b Body<'a>);

impl Serialize for BodyRef<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Body::Null => s.serialize_none(),
            Body::Text(t) => s.serialize_str(t),
            Body::Message { raw, json } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("raw", raw)?;
                m.serialize_entry("json", json)?;
                m.end()
            }
            Body::Matcher(mt) => mt.serialize(s),
        }
    }
}

impl Serialize for Statement<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        let shape = match &self.head {
            Head::Op { name, shape } => {
                m.serialize_entry("op", name)?;
                Some(*shape)
            }
            Head::Runtime(r) => {
                m.serialize_entry("runtime", r)?;
                None
            }
        };
        m.serialize_entry("aside", &self.aside)?;
        match shape {
            Some(Shape::Transfer) => {
                m.serialize_entry("source", &self.source)?;
                m.serialize_entry("destination", &self.destination)?;
            }
            _ => {
                m.serialize_entry("target", &self.target)?;
                m.serialize_entry("metadata", &self.metadata)?;
                m.serialize_entry("lineMarker", &self.line_marker)?;
                if shape == Some(Shape::Selection) {
                    m.serialize_entry("matcher", &self.matcher)?;
                }
                m.serialize_entry("body", &BodyRef(&self.body))?;
                if let Some(sec) = self.seconds {
                    m.serialize_entry("seconds", &num_value(sec))?;
                }
            }
        }
        m.serialize_entry("position", &self.position)?;
        m.end()
    }
}

impl Serialize for Diagnostic {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("line", &self.line)?;
        m.serialize_entry("column", &self.column)?;
        m.serialize_entry("source", &self.source)?;
        m.serialize_entry("severity", &self.severity)?;
        m.serialize_entry("message", &self.message)?;
        if let Some(r) = &self.recovery {
            m.serialize_entry("recovery", r)?;
        }
        if self.operation_omitted {
            m.serialize_entry("operationOmitted", &true)?;
        }
        if let Some(a) = &self.attempt {
            m.serialize_entry("attempt", a)?;
        }
        if self.show_id {
            m.serialize_entry("id", self.id.name())?;
        }
        m.end()
    }
}

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self {
            Item::Statement(st) => {
                m.serialize_entry("kind", "statement")?;
                m.serialize_entry("statement", st)?;
            }
            Item::Error(e) => {
                m.serialize_entry("kind", "error")?;
                m.serialize_entry("error", e)?;
            }
            Item::Text(t) => {
                m.serialize_entry("kind", "text")?;
                m.serialize_entry("content", &t.content)?;
                m.serialize_entry("position", &t.position)?;
            }
        }
        m.end()
    }
}

impl Serialize for ParseResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("items", &self.items)?;
        if let Some(t) = &self.unparsed_tail {
            m.serialize_entry("unparsedTail", t)?;
        }
        m.end()
    }
}

impl ParseResult<'_> {
    /// The result with every borrowed string copied, independent of the input.
    pub fn into_owned(self) -> ParseResult<'static> {
        ParseResult {
            items: self
                .items
                .into_iter()
                .map(|i| match i {
                    Item::Statement(s) => Item::Statement(s.into_owned()),
                    Item::Error(e) => Item::Error(e),
                    Item::Text(t) => Item::Text(TextItem { content: owned(t.content), position: t.position }),
                })
                .collect(),
            unparsed_tail: self.unparsed_tail,
        }
    }

    /// Whether an error item or an unparsed tail is present (the CLI's exit 1).
    pub fn has_errors(&self) -> bool {
        self.unparsed_tail.is_some() || self.diagnostics().any(|d| d.severity == Severity::Error)
    }

    /// Marks every diagnostic to serialize its id ([`crate::ParseOptions::diagnostic_ids`]).
    pub(crate) fn show_diagnostic_ids(&mut self) {
        for i in &mut self.items {
            if let Item::Error(d) = i {
                d.show_id = true;
            }
        }
    }

    /// The statements, in order.
    pub fn statements(&self) -> impl Iterator<Item = &Statement<'_>> {
        self.items.iter().filter_map(|i| match i {
            Item::Statement(s) => Some(s),
            _ => None,
        })
    }

    /// The diagnostics, in order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter_map(|i| match i {
            Item::Error(d) => Some(d),
            _ => None,
        })
    }

    /// The result as the contract's JSON value (`serde_json::to_string` gives the same text).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("parse results serialize")
    }
}
