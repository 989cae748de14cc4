//! The parse result: statements, diagnostics and response text, serialized exactly as the
//! contract (`schema/ParseResult.json`) and the conformance corpus show them.

use std::borrow::Cow;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::rules::model::{Severity, Shape, Source};

/// A parser source point: 1-based line, 0-based code-point column (§parser-position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Default)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// One ordered item of a parse result.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<'a> {
    Statement(Statement<'a>),
    Error(ParseError),
    Text(TextItem<'a>),
}

/// Outside text (§response-text).
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem<'a> {
    pub content: Cow<'a, str>,
    pub position: Position,
}

/// A positioned diagnostic (§parse-diagnostics).
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub source: Source,
    pub severity: Severity,
    pub message: String,
    pub recovery: Option<String>,
    /// Unexecuted unfenced operations, unknown operation-shaped tags, unrecovered native calls
    /// (§parse-admission); serialized only when true.
    pub operation_omitted: bool,
    /// The refused statement's text exactly as written, on a hard fact that refused a statement
    /// the parser opened (§parse-attempt); serialized only when present.
    pub attempt: Option<String>,
}

/// Where trust ends (§unparsed-tail-boundary).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnparsedTail {
    pub from: Position,
    pub reason: String,
}

/// `{items, unparsedTail?}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParseResult<'a> {
    pub items: Vec<Item<'a>>,
    pub unparsed_tail: Option<UnparsedTail>,
}

/// A target slot, decomposed (§path-syntax). A local path borrows the input unless a slot
/// escape was decoded (§path-parentheses).
#[derive(Debug, Clone, PartialEq)]
pub enum Target<'a> {
    Local { raw: Cow<'a, str>, fragment: Option<Cow<'a, str>> },
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
    pub fn scheme(&self) -> &str {
        match &self.parts {
            UrlParts::AsWritten { scheme_end, .. } => &self.raw[..*scheme_end as usize],
            UrlParts::Rewritten(c) => &c.scheme,
        }
    }
    pub fn username(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.username.as_deref())
    }
    pub fn password(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.password.as_deref())
    }
    pub fn hostname(&self) -> Option<&str> {
        match &self.parts {
            // The host follows the scheme's `://`.
            UrlParts::AsWritten { scheme_end, host_end, .. } => {
                Some(&self.raw[*scheme_end as usize + 3..*host_end as usize]).filter(|h| !h.is_empty())
            }
            UrlParts::Rewritten(c) => c.hostname.as_deref(),
        }
    }
    pub fn port(&self) -> Option<u32> {
        self.parsed().and_then(|c| c.port)
    }
    pub fn pathname(&self) -> &str {
        match &self.parts {
            UrlParts::AsWritten { slash: true, .. } => "/",
            UrlParts::AsWritten { host_end, path_end, .. } => &self.raw[*host_end as usize..*path_end as usize],
            UrlParts::Rewritten(c) => &c.pathname,
        }
    }
    pub fn query(&self) -> Option<&str> {
        self.parsed().and_then(|c| c.query.as_deref())
    }
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
    pub fn raw(&self) -> &str {
        match self {
            Target::Local { raw, .. } => raw,
            Target::Url(u) => u.raw(),
        }
    }
    pub fn scheme(&self) -> Option<&str> {
        match self {
            Target::Local { .. } => None,
            Target::Url(u) => Some(u.scheme()),
        }
    }
}

/// One scope component (§scope-marker-forms).
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    Int(i64),
    Num(f64),
    Anchor(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct LineMarker {
    pub marks: Vec<Mark>,
}

/// A matcher (§matcher-prefix-claims).
#[derive(Debug, Clone, PartialEq)]
pub enum Matcher {
    Regex { raw: String, pattern: String, flags: String },
    Other { dialect: &'static str, raw: String },
    Unreadable { raw: String, message: String, recovery: String },
}

/// One resource selection (COPY/MOVE operands).
#[derive(Debug, Clone, PartialEq)]
pub struct Selection<'a> {
    pub target: Option<Target<'a>>,
    pub metadata: Option<Vec<String>>,
    pub line_marker: Option<LineMarker>,
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
pub enum Body<'a> {
    Null,
    Text(Cow<'a, str>),
    Message {
        raw: Cow<'a, str>,
        json: Option<serde_json::Value>,
    },
    /// Boxed, as [`Statement::matcher`] is.
    Matcher(Box<Matcher>),
}

/// What the fence names: a native operation or a registered executor.
#[derive(Debug, Clone, PartialEq)]
pub enum Head {
    /// `name` borrows the built-in rule set, and is a copy for a rule set the caller supplied.
    Op {
        name: Cow<'static, str>,
        shape: Shape,
    },
    Runtime(String),
}

/// One statement of the shared AST.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement<'a> {
    pub head: Head,
    /// Borrows the heading line unless the aside was read from rewritten text.
    pub aside: Option<Cow<'a, str>>,
    pub target: Option<Target<'a>>,
    pub metadata: Option<Vec<String>>,
    pub line_marker: Option<LineMarker>,
    /// Boxed: few statements carry one, and every statement is moved whole into the result.
    pub matcher: Option<Box<Matcher>>,
    pub body: Body<'a>,
    /// COPY and MOVE only: boxed, so every other statement stays small.
    pub source: Option<Box<Selection<'a>>>,
    pub destination: Option<Box<Selection<'a>>>,
    /// WAIT's `[seconds]` duration (§send-wait-scope); serialized only when present.
    pub seconds: Option<f64>,
    pub position: Position,
}

impl<'a> Statement<'a> {
    pub fn op_name(&self) -> Option<&str> {
        match &self.head {
            Head::Op { name, .. } => Some(name.as_ref()),
            Head::Runtime(_) => None,
        }
    }
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

impl Serialize for ParseError {
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
        self.unparsed_tail.is_some() || self.items.iter().any(|i| matches!(i, Item::Error(e) if e.severity == Severity::Error))
    }

    pub fn statements(&self) -> impl Iterator<Item = &Statement<'_>> {
        self.items.iter().filter_map(|i| match i {
            Item::Statement(s) => Some(s),
            _ => None,
        })
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("parse results serialize")
    }
}
