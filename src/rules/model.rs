//! The rule-file model: one set of serde types read from `rules/*.yaml` by `build.rs`, written
//! out as `tables.json`, and read back by the library (and by `--rules DIR` at run time).
//!
//! This file is compiled twice: as `plurnk_parser::rules::model` and, through `#[path]`, inside
//! `build.rs`. It must therefore depend on nothing but `serde` and `serde_json`.

use serde::{Deserialize, Serialize};

/// `rules/operations.yaml`: the operation table and the executor facts (§op-shapes).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(not(feature = "runtime-rules"), allow(dead_code))] // a rule file as written: only the loader reads one
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
    /// Known in every parse; the host's names add to these (§fence-heading-in-body).
    pub always: Vec<String>,
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
    /// A `worker://name` target names the worker the operation spawns, not a prompt resource:
    /// the prompt body stays required beside it (§op-shapes, §empty-section).
    #[serde(default)]
    pub worker_target: bool,
    /// Diagnostic id of the working form carried by a refusal (§parse-recovery).
    pub working_form: String,
    /// Spec tags this row implements.
    pub tags: Vec<String>,
}

/// Which entry points admit an operation (§tier-entrypoints).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// Every tier.
    Protocol,
    /// `parseClient` only (LOOK).
    Client,
}

/// Which fields a native operation's statement carries, in the contract's order (§op-shapes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
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
#[cfg_attr(not(feature = "runtime-rules"), allow(dead_code))] // a rule file as written: only the loader reads one
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

/// The stage a diagnostic is attributed to, as the reference implementation names it
/// (informational: scorers ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Source {
    /// Reading a heading's characters.
    Lexer,
    /// Reading a heading's slots.
    Parser,
    /// Checking a statement against its operation.
    Visitor,
}

/// `rules/tolerance.yaml`: each tolerance rule and the pairing objective.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(not(feature = "runtime-rules"), allow(dead_code))] // a rule file as written: only the loader reads one
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
/// The interpreter (`src/native/`) knows shapes; every string a family writes lives here.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeFamily {
    /// The family's name; its file is `rules/native/<family>.yaml`.
    pub family: String,
    /// Spec tag.
    pub tag: String,
    /// Where the markup comes from.
    pub about: String,
    /// Models and templates known to write it (informational).
    #[serde(default)]
    pub models: Vec<String>,
    /// The blocks the markup comes in, tried in order where two open at one place.
    pub blocks: Vec<NativeBlock>,
    /// Reasoning spans the family writes in its output (`<think>` … `</think>`): a call quoted
    /// inside one is not a call (§native-tool-call-receipt).
    #[serde(default)]
    pub reasoning: Vec<NativeSpan>,
}

/// A span between two markers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeSpan {
    pub start: Vec<String>,
    pub end: Vec<String>,
}

/// One block of native markup: what opens and closes it, how its calls are written, and what
/// a broken block still yields.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeBlock {
    /// What the block is, in a few words.
    pub name: String,
    /// Section start markers, as written (ASCII case-insensitive). Empty: the block opens with
    /// its form's own markup (an element's tag, or a JSON object at a line start).
    #[serde(default)]
    pub start: Vec<String>,
    /// Section end markers.
    #[serde(default)]
    pub end: Vec<String>,
    /// Opens only at the start of a line (after horizontal whitespace).
    #[serde(default)]
    pub line_start: bool,
    /// Per-call start markers inside the section; empty: the content is read as calls directly.
    #[serde(default)]
    pub call_start: Vec<String>,
    /// Per-call end markers.
    #[serde(default)]
    pub call_end: Vec<String>,
    /// Written at the start of each call and dropped (`function<｜tool_sep｜>`).
    #[serde(default)]
    pub call_prefixes: Vec<String>,
    /// After the start marker, a header on the same line runs up to one of these and is dropped
    /// (`NAME<|content_invoke_tool_json|>`); with none found the marker opens no block.
    #[serde(default)]
    pub header_end: Vec<String>,
    /// The start marker alone is not markup: the block opens only where a call written in one
    /// of its forms follows (a marker that is also a word or a common tag, `<response>`).
    #[serde(default)]
    pub calls_required: bool,
    /// Markers between calls (`;`, `,`).
    #[serde(default)]
    pub separators: Vec<String>,
    /// The block is native markup only when a call in it names an operation or a known
    /// executor (a bare JSON object is otherwise just JSON).
    #[serde(default)]
    pub by_name: bool,
    /// How one call is written, tried in order.
    pub forms: Vec<NativeForm>,
    /// What a broken block still yields.
    pub recovery: NativeRecovery,
}

/// The call shapes the interpreter knows.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "kebab-case")]
pub enum NativeForm {
    /// XML-ish elements: `<invoke name="X"><parameter name="k">v</parameter></invoke>`,
    /// `<function=X><parameter=k>v</parameter></function>`, `<op op="X" k="v"/>`.
    Elements(NativeElements),
    /// A JSON object (or array of them) naming the call and carrying its arguments.
    Json(NativeJson),
    /// A name, then a JSON object of arguments (`functions.X:0<|…|>{…}`, `X[ARGS]{…}`).
    NameJson(NativeNameJson),
    /// A name, then key/value element pairs (`X<key>k</key><value>v</value>`).
    ArgPairs(NativeArgPairs),
    /// A plurnk heading written as the call text, its body on the lines below.
    Heading(NativeHeading),
    /// Python calls with keyword arguments, alone or in a `[…]` list (`[f(a=1), g(b="x")]`).
    Pythonic(NativePythonic),
    /// A name, then `{key:value,…}` with strings between quote markers (`call:NAME{k:<|"|>v<|"|>}`).
    Braces(NativeBraces),
    /// Elements whose tag delimiters are markers (`<|open|>call tool="X"<|sep|>`).
    Tags(NativeTags),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativePythonic {
    /// A `[…]` list of calls is read (a lone call is read too).
    #[serde(default)]
    pub list: bool,
    /// Written after the name and dropped (`.call`).
    #[serde(default)]
    pub name_suffixes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeBraces {
    /// Written before the name (`call:`).
    pub name_prefixes: Vec<String>,
    /// Markers around a string value (`<|"|>`, `<escape>`).
    pub string_quotes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeTags {
    /// Written before an opening tag's name (`<`, `<|open|>`).
    pub open: Vec<String>,
    /// Written before a closing tag's name (`</`, `<|close|>`).
    pub close: Vec<String>,
    /// Ends a tag (`>`, `<|sep|>`).
    pub tag_end: Vec<String>,
    /// Elements that are one call.
    pub calls: Vec<String>,
    /// Attributes carrying the called name.
    pub name_attributes: Vec<String>,
    /// Elements that are one argument; empty: every element inside a call is an argument named
    /// by its element name (`<path>a.md</path>`).
    #[serde(default)]
    pub parameters: Vec<String>,
    /// Attributes carrying an argument's key.
    #[serde(default)]
    pub parameter_attributes: Vec<String>,
    /// An attribute giving an argument's type: a value of any type but `text_types` is JSON.
    #[serde(default)]
    pub type_attributes: Vec<String>,
    #[serde(default)]
    pub text_types: Vec<String>,
    /// Elements whose content is the call's whole argument object, as JSON (Kimi K3's
    /// `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`).
    #[serde(default)]
    pub object_elements: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeElements {
    /// Written between `<` (or `</`) and an element name; `""` is no prefix.
    pub prefixes: Vec<String>,
    /// Inside a block, an element written with no prefix is the same element.
    #[serde(default)]
    pub bare_inside: bool,
    /// Elements wrapping several calls.
    #[serde(default)]
    pub sections: Vec<String>,
    /// Elements that are one call.
    #[serde(default)]
    pub calls: Vec<String>,
    /// An element named by a plurnk operation, in any case, is that call.
    #[serde(default)]
    pub operation_elements: bool,
    /// Attributes carrying the called name.
    #[serde(default)]
    pub name_attributes: Vec<String>,
    /// The name is written after `=` (`<function=NAME>`).
    #[serde(default)]
    pub name_equals: bool,
    /// Names standing for "the operation named elsewhere": by a name attribute, or by the
    /// content (a JSON call under `content_name_keys`, or a plurnk heading).
    #[serde(default)]
    pub generic_names: Vec<String>,
    /// Keys naming the operation in a JSON call that is a generic call's content (any case).
    #[serde(default)]
    pub content_name_keys: Vec<String>,
    /// Elements that are one argument.
    #[serde(default)]
    pub parameters: Vec<String>,
    /// Attributes carrying an argument's key.
    #[serde(default)]
    pub parameter_attributes: Vec<String>,
    /// The key is written after `=` (`<parameter=KEY>`).
    #[serde(default)]
    pub parameter_equals: bool,
    /// Attributes holding the aside (`comment`).
    #[serde(default)]
    pub aside_attributes: Vec<String>,
    /// The markup's own attributes, never arguments (`string="true"`).
    #[serde(default)]
    pub ignored_attributes: Vec<String>,
    /// The name may carry the whole heading: its first word names the call, the rest are slots.
    #[serde(default)]
    pub heading_in_name: bool,
    /// Content with no argument elements that is one complete JSON object supplies the arguments.
    #[serde(default)]
    pub json_content: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeJson {
    /// Keys naming the call.
    pub name_keys: Vec<String>,
    /// Keys holding the arguments object (or a string holding one).
    #[serde(default)]
    pub argument_keys: Vec<String>,
    /// The keys beside the name are the arguments.
    #[serde(default)]
    pub flat: bool,
    /// Name keys and names match in any case.
    #[serde(default)]
    pub any_case: bool,
    /// A JSON array of calls is read too.
    #[serde(default)]
    pub array: bool,
    /// Keys whose object is the call (`{"function": {…}}`).
    #[serde(default)]
    pub wrapper_keys: Vec<String>,
    /// The markup's own keys, never arguments (`id`, `type`).
    #[serde(default)]
    pub ignored_keys: Vec<String>,
    /// The object's one key is the name and its value the arguments (`{"READ": {…}}`).
    #[serde(default)]
    pub keyed: bool,
    /// A call holds only its name key, one argument key and ignored keys (so a bare object is a
    /// call by its shape, whatever it names).
    #[serde(default)]
    pub strict: bool,
    /// Written as Python literals (`{'name': 'READ', 'arguments': {'x': True}}`); JSON reads too.
    #[serde(default)]
    pub python: bool,
    /// The block's start marker opened the array (`functools[`): its items follow, up to `]`.
    #[serde(default)]
    pub opened: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeNameJson {
    /// Written before the name (`functions.`).
    #[serde(default)]
    pub name_prefixes: Vec<String>,
    /// Introduce a call index after the name (`:0`).
    #[serde(default)]
    pub index_separators: Vec<String>,
    /// Markers after the name that carry a call id (`[CALL_ID]`).
    #[serde(default)]
    pub id_markers: Vec<String>,
    /// The name follows the last of these written before the arguments; what stands before
    /// it is the call's id (`ID<|tool_call:name|>NAME`).
    #[serde(default)]
    pub name_markers: Vec<String>,
    /// Open the arguments; none: the arguments are the first JSON object after the name.
    #[serde(default)]
    pub arguments_start: Vec<String>,
    /// Close the arguments.
    #[serde(default)]
    pub arguments_end: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeArgPairs {
    /// End the name (`<tool_sep>`); none: the name runs to the first key.
    #[serde(default)]
    pub name_end: Vec<String>,
    pub key_start: Vec<String>,
    pub key_end: Vec<String>,
    pub value_start: Vec<String>,
    pub value_end: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeHeading {
    /// Written before the heading and dropped (`=`).
    #[serde(default)]
    pub prefixes: Vec<String>,
}

/// What a broken block still yields, as flags.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeRecovery {
    /// An end marker that never comes: a section ends after its last call, a call at the next
    /// call, section or the end of the input.
    pub missing_end: bool,
    /// Input that stops inside a call (an unclosed JSON string or object) keeps what it wrote.
    pub truncated_body: bool,
    /// `name="sh` with no closing quote: the name is the rest of its line, the lines below the
    /// call's content.
    #[serde(default)]
    pub unterminated_name: bool,
    /// Closing tags left over after a call or around its content (`</parameter>`, `</>`) are noise.
    #[serde(default)]
    pub stray_closers: bool,
    /// A bare fence closing a call's content is noise.
    #[serde(default)]
    pub stray_fence: bool,
    /// Keys of a copied facts line (`{"lines":6}`) under the heading, read as noise.
    #[serde(default)]
    pub facts_keys: Vec<String>,
}

/// `rules/native/parameters.yaml`: the call-piece table (§native-tool-calls). Keys compare in
/// any case, with `_` and `-` ignored.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeParameters {
    pub tag: String,
    /// The target.
    pub target: Vec<String>,
    /// The scope, as written or as a `[a,b]` array or `{start,end}` object.
    pub scope: Vec<String>,
    /// A scope's first line, written apart.
    pub scope_start: Vec<String>,
    /// A scope's last line, written apart.
    pub scope_end: Vec<String>,
    /// A first line, with `scope_count`.
    pub scope_offset: Vec<String>,
    /// A count of lines after `scope_offset`.
    pub scope_count: Vec<String>,
    /// The scope end written when only its first line is given.
    pub open_end: String,
    /// A matcher option.
    pub matcher: Vec<String>,
    /// The option key a matcher is written under.
    pub matcher_option: String,
    /// The aside.
    pub aside: Vec<String>,
    /// The body (an executor's program).
    pub body: Vec<String>,
    /// Operations that must name a target to be read.
    pub target_required: Vec<String>,
    /// Spellings of an executor that name a registered one when they are not registered
    /// themselves (`bash` names `sh`).
    pub executor_aliases: Vec<NativeExecutorAlias>,
    /// An executor's unknown parameter is one of its options.
    pub executor_options: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeExecutorAlias {
    pub spelling: String,
    pub names: String,
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
