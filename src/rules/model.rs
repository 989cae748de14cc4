//! The rule-file model: one set of serde types read from `rules/*.yaml` by `build.rs`, written
//! out as `tables.json`, and read back by the library (and by `--rules DIR` at run time).
//!
//! This file is compiled twice: as `plurnk_parser::rules::model` and, through `#[path]`, inside
//! `build.rs`. It must therefore depend on nothing but `serde` and `serde_json`.

use serde::{Deserialize, Serialize};

/// `rules/operations.yaml`: the operation table and the executor facts (§op-shapes).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationsFile {
    pub fence: FenceRules,
    pub executors: ExecutorRules,
    pub operations: Vec<Operation>,
}

/// Fence facts (§operation-fences, §indented-fences).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FenceRules {
    /// The fewest backticks that open an operation or a quotation.
    pub min_width: u32,
    /// The width producers write (`PLURNK_FENCE`).
    pub taught_width: u32,
    /// The most leading spaces a fence line may carry and still be a fence.
    pub max_indent: u32,
    /// Characters that form quotation fences; only the first opens operations.
    pub chars: Vec<String>,
    /// Zero-width characters skipped on a heading line (§heading-slot-order).
    pub zero_width: Vec<String>,
}

/// Executor facts (§executor-heading, §executor-case, §executor-js-spelling).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutorRules {
    /// Registered when the host names none.
    pub default: Vec<String>,
    /// Whether a tag matches a registered name in any case.
    pub case_insensitive: bool,
    /// Spellings that name another registered executor.
    pub aliases: Vec<ExecutorAlias>,
    /// Characters of an executor or operation name (§3 lexical elements), as ranges.
    pub name_chars: String,
    /// The domain of an executor's `<scope>`.
    pub scope: ScopeDomain,
    /// What a `[metadata]` block before the target is.
    pub leading_metadata: LeadingMetadata,
    /// Diagnostic id of the executor's working form (§parse-recovery).
    pub working_form: String,
    pub tag: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutorAlias {
    pub spelling: String,
    pub names: String,
    /// `registered-target-unregistered-spelling`: applies only when `names` is registered and
    /// `spelling` is not.
    pub when: String,
    pub tag: String,
}

/// One native operation (§op-shapes).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    pub name: String,
    /// `protocol` operations parse in every tier; `client` ones only in `parseClient`.
    pub tier: Tier,
    /// Which result object the statement serializes as.
    pub shape: Shape,
    pub operands: Operands,
    pub scope: ScopeDomain,
    /// A scope is admitted only beside a target (a recipient SEND, §send-directed-scope).
    #[serde(default)]
    pub scope_needs_target: bool,
    /// Whether `[metadata]` is admitted.
    pub metadata: bool,
    /// What a `[metadata]` block before the first target is (§slot-order).
    pub leading_metadata: LeadingMetadata,
    pub body: BodyKind,
    /// What text after the slots on the heading line is (§heading-inline-body).
    pub inline_text: InlineText,
    /// A body beneath an operation that reads none is a pairing repair (§pairing-objective).
    #[serde(default)]
    pub body_is_repair: bool,
    /// Executor headings in the body are code the text shows (§prose-code-blocks), and an
    /// unclosed body runs to the end of the turn (§message-run-on).
    #[serde(default)]
    pub prose_body: bool,
    /// The body never swallows a native heading of its own width (§unclosed-mutation-yields).
    #[serde(default)]
    pub yields_to_native: bool,
    /// Headings inside the body are literal by declaration (§pairing-objective).
    #[serde(default)]
    pub literal_headings: bool,
    /// Lifecycle declaration (§lifecycle-only-turn).
    #[serde(default)]
    pub lifecycle: bool,
    /// Admitted from exposed reasoning (§reasoning-operations).
    #[serde(default)]
    pub reasoning: bool,
    /// Read as a duration in `[seconds]` metadata (§send-wait-scope).
    #[serde(default)]
    pub duration_metadata: bool,
    /// Diagnostic id of the working form carried by a refusal (§parse-recovery).
    pub working_form: String,
    /// Spec tags this row implements.
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    Protocol,
    Client,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// `op aside target metadata lineMarker matcher body position`
    Selection,
    /// `op aside source destination position`
    Transfer,
    /// `op aside target metadata lineMarker body position`
    Plain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operands {
    None,
    Optional,
    Required,
    /// COPY and MOVE: source and destination (§transfer-resource-selections).
    Two,
    /// READ and KILL: one statement per `(path)` (§target-group).
    Group,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeDomain {
    /// FIND: result positions, numeric only.
    ResultPositions,
    /// READ EDIT COPY MOVE KILL LOOK: numbers or `@anchor`s.
    TextCoordinates,
    /// Executors: minutes.
    Minutes,
    /// A recipient SEND: the owner decides.
    OwnerDefined,
    /// Read and dropped with an advisory (WAIT, §send-wait-scope).
    Ignored,
    /// Takes none; a scope is dropped and named (§scope-on-scopeless).
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeadingMetadata {
    /// A lexer refusal: `unrecognized character '[' in the OP header`.
    Refused,
    /// Admitted only on a heading with no target; a target after it is refused.
    Alone,
    /// Belongs to the first selection, whether or not a target follows.
    Selection,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyKind {
    /// No body; text beneath draws the advisory (§matcher-body-redirect).
    None,
    /// Literal text, `null` when empty (EDIT NOTE WAIT).
    Literal,
    /// A prompt: literal text, `""` when empty (BARE WORK FORK).
    Prompt,
    /// `{raw, json}` (§send-body).
    Message,
    /// Kept on a `log:///` target only (§kill-scope).
    Distillation,
    /// The client-tier matcher body (LOOK).
    Matcher,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InlineText {
    /// The matcher (§naked-pattern).
    Matcher,
    /// A sigil-led matcher, otherwise the body (EDIT).
    SigilMatcherElseBody,
    /// Ignored with an advisory (COPY MOVE).
    Ignored,
    /// One JSON object is the option block, otherwise the body (§bare-option-object).
    OptionObjectElseBody,
    /// The body.
    Body,
    /// Refused: the heading carries nothing but its name.
    Refused,
}

/// `rules/diagnostics.yaml`: every message the parser can emit.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagnosticsFile {
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diagnostic {
    /// Stable key; the code names diagnostics only by id.
    pub id: String,
    pub severity: Severity,
    pub class: DiagClass,
    /// The stage the reference attributes it to (informational; scorers ignore it).
    pub source: Source,
    /// Spec tag.
    pub tag: String,
    /// Message text with `{name}` placeholders.
    pub text: String,
    /// Sets `operationOmitted` (§parse-admission).
    #[serde(default)]
    pub omitted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    Error,
    Warning,
    /// Not an item: the text of a working form, an unparsed tail reason, or a matcher message.
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagClass {
    Hard,
    Advisory,
    Receipt,
    Boundary,
    WorkingForm,
    Matcher,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Lexer,
    Parser,
    Visitor,
}

/// `rules/tolerance.yaml`: each tolerance rule and the pairing objective.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToleranceFile {
    pub pairing: Pairing,
    pub notation: Notation,
    pub rules: Vec<Tolerance>,
}

/// The log's heading notation (§log-heading-notation).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notation {
    /// Precedes an address written without parentheses.
    pub address: String,
    /// Separates a heading from its token charge.
    pub charge: String,
    /// Words that may follow a token charge's number.
    pub charge_units: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    pub tag: String,
    pub rule: String,
    /// Diagnostic ids this rule emits, if any.
    #[serde(default)]
    pub diagnostics: Vec<String>,
}

/// The least-cost objective of §pairing-objective, as data.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    /// Deepest block stack a reading may hold; deeper fences read as body.
    pub max_depth: u32,
    /// Readings kept per fence line; beyond it the costliest are dropped.
    pub max_candidates: u32,
    /// The counted classes.
    pub counters: Vec<String>,
    /// A reading is complete while these counters are zero.
    pub complete_when_zero: Vec<String>,
    /// Lexicographic order of complete readings: each entry sums its counters.
    pub complete_order: Vec<Vec<String>>,
    /// Lexicographic order of repaired readings.
    pub repaired_order: Vec<Vec<String>>,
    /// What each pairing event adds.
    pub events: Vec<PairingEvent>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingEvent {
    pub event: String,
    pub counts: Vec<String>,
    pub tag: String,
}

/// One native tool-call family file, `rules/native/<family>.yaml` (§native-tool-calls).
/// The interpreter knows shapes; the strings live here.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeFamily {
    pub family: String,
    pub tag: String,
    /// Free-form description of where the markup comes from.
    pub about: String,
    /// Marker text shown in the receipt (`<tool_call>`).
    pub receipt_marker: String,
    pub blocks: Vec<serde_json::Value>,
}

/// `rules/native/parameters.yaml`: the call-piece table (§native-tool-calls).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeParameters {
    pub target: Vec<String>,
    pub scope: Vec<String>,
    pub matcher: Vec<String>,
    pub aside: Vec<String>,
    pub body: Vec<String>,
    #[serde(default)]
    pub extra: serde_json::Value,
}

/// The compiled table set: what `tables.json` holds and `--tables` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// `plurnk-parser-tables`.
    pub format: String,
    /// Bumped when the table shape changes.
    pub format_version: u32,
    /// Crate version that compiled the tables.
    pub generator: String,
    /// SPEC version the rules implement.
    pub spec: String,
    pub fence: FenceRules,
    pub executors: ExecutorRules,
    pub operations: Vec<Operation>,
    pub diagnostics: Vec<Diagnostic>,
    pub pairing: Pairing,
    pub notation: Notation,
    pub tolerance: Vec<Tolerance>,
    pub native: Vec<NativeFamily>,
    pub native_parameters: Option<NativeParameters>,
}
