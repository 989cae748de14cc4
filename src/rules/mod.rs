//! The rule set the interpreter applies: the compiled tables plus the lookups built from them.
//!
//! The built-in tables are `rules/*.yaml` compiled by `build.rs` into `tables.json` and embedded
//! here; `Rules::from_dir` (feature `runtime-rules`) loads another rule directory with the same
//! schemas, so a rule edit can be tried without rebuilding.

#[cfg(feature = "runtime-rules")]
pub(crate) mod load;
pub(crate) mod model;

use std::sync::OnceLock;

#[cfg(feature = "runtime-rules")]
use crate::error::{Error, ErrorKind};
pub(crate) use model::*;

include!(concat!(env!("OUT_DIR"), "/diagnostic_ids.rs"));

/// The compiled built-in tables, as `--tables` prints them.
pub(crate) const BUILTIN_TABLES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/tables.json"));

/// A rule set ready to interpret: the operation table, the tolerance rules, the native
/// tool-call families and every diagnostic text, compiled from `rules/*.yaml`.
///
/// The parser uses [`Rules::builtin`] unless [`crate::ParseOptions::with_rules`] names another,
/// typically one [`Rules::from_dir`] loaded, to try a rule edit without rebuilding.
#[derive(Debug)]
pub struct Rules {
    pub(crate) tables: Tables,
    /// `DiagId as usize` → index into `tables.diagnostics`.
    diag_index: Vec<usize>,
    /// Each `DiagId`'s placeholder positions in its text, found once (see [`holes`]).
    diag_holes: Vec<Box<[(u32, u32)]>>,
    /// Each operation's working-form diagnostic, by operation index (found once, not by a
    /// search over every diagnostic's id per refusal).
    working_forms: Vec<usize>,
    /// The executors' working-form diagnostic, when the table names one that exists.
    exec_working_form: Option<usize>,
    /// Pairing event → counter increments, in `PairEvent` order.
    pub(crate) event_counts: Vec<[u16; MAX_COUNTERS]>,
    /// One lane per counter, all ones where the counter must be zero for a reading to be
    /// complete (a reading's counters ANDed with it are then all zero).
    pub(crate) complete_lanes: [u16; MAX_COUNTERS],
    /// The two orders of readings, one row of counter weights per key position: a reading's key
    /// holds, at each position, the sum of that group's counters (a counter a group names twice
    /// weighs two). Rows, so two keys compare position by position and stop at the first
    /// difference.
    pub(crate) complete_order: Vec<[u16; MAX_COUNTERS]>,
    pub(crate) repaired_order: Vec<[u16; MAX_COUNTERS]>,
    /// Byte predicate for name characters.
    name_char: [bool; 256],
    pub(crate) zero_width: Vec<char>,
    /// Per-operation pairing facts, in operation order.
    pub(crate) facts: Vec<OpFacts>,
    /// Operation indices sorted by name, and per first byte the range of them starting with it:
    /// every capitalised word opening a line is looked up, and most name no operation, so a
    /// miss costs one table read.
    op_by_name: Vec<usize>,
    op_first: [(u16, u16); 256],
    /// The line classifier's tables for the `always` executors, built on first use by the stage
    /// that reads them (`scan::ClassTables`): held as `Any` so this ground floor imports no stage.
    pub(crate) class_tables: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

/// Most pairing counters a rule set may declare (`rules/tolerance.yaml`; the pairing search
/// keeps a reading's counters in an array this long).
pub const MAX_COUNTERS: usize = 8;

/// Per-operation pairing facts, indexed by operation (§pairing-objective): read from the
/// operation table once, for the pairing search.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpFacts {
    /// Executor headings in the body are shown code; an unclosed body runs on (§prose-code-blocks).
    pub prose: bool,
    /// The body never swallows a native heading of its own width (§unclosed-mutation-yields).
    pub yields: bool,
    /// Headings in the body are literal by declaration.
    pub literal: bool,
    /// A body beneath the operation is a pairing repair.
    pub body_repair: bool,
}

/// Pairing events the interpreter can report; their costs are data (`rules/tolerance.yaml`).
pub const PAIR_EVENTS: &[&str] = &[
    "supplied-closer",
    "message-run-on",
    "narrow-closer",
    "body-under-bodyless",
    "hidden-operation",
    "swallowed-operation",
    "literal-example",
    "discarded-code",
    "fence-as-text",
    "stray-fence",
    "quote-run-on",
    "withheld-text",
];

static BUILTIN: OnceLock<Rules> = OnceLock::new();

impl Rules {
    /// This rule set as `'static` when it is the built-in one: names in a result can then borrow
    /// it. Never loads the built-in set.
    pub(crate) fn as_builtin(&self) -> Option<&'static Rules> {
        BUILTIN.get().filter(|b| std::ptr::eq(*b, self))
    }

    /// The built-in rule set compiled from this crate's `rules/`.
    ///
    /// ```
    /// let tables: serde_json::Value = serde_json::from_str(&plurnk_parser::Rules::builtin().tables_json()).unwrap();
    /// assert_eq!(tables["format"], "plurnk-parser-tables");
    /// ```
    pub fn builtin() -> &'static Rules {
        BUILTIN.get_or_init(|| {
            let tables: Tables = serde_json::from_str(BUILTIN_TABLES_JSON).expect("embedded tables parse");
            Rules::from_tables(tables).expect("embedded tables are complete")
        })
    }

    /// Loads and validates a rule directory at run time, with the checks `build.rs` applies to
    /// the built-in one (feature `runtime-rules`): each file against its closed schema, then
    /// the references between files. An [`Error`] names the file, where in it, and the rule
    /// broken; its kind is [`ErrorKind::Io`] for a file that cannot be read and
    /// [`ErrorKind::InvalidRules`] otherwise.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use plurnk_parser::{parse, ParseOptions, Rules};
    ///
    /// let rules = Rules::from_dir("my-rules/").unwrap_or_else(|e| panic!("{e}"));
    /// let options = ParseOptions::default().with_rules(Arc::new(rules));
    /// let result = parse("```READ (a.md)\n```", &options);
    /// ```
    #[cfg(feature = "runtime-rules")]
    pub fn from_dir(dir: impl AsRef<std::path::Path>) -> Result<Rules, Error> {
        let dir = dir.as_ref();
        // The loader names files as the build sees them (`rules/…`); here they are named under
        // the directory the caller gave.
        let named = |file: &str| match file.strip_prefix("rules/") {
            Some(rest) => dir.join(rest).display().to_string(),
            None => file.to_string(),
        };
        let schemas = embedded_schemas();
        let tables = load::load(dir, &schemas, concat!("plurnk-parser ", env!("CARGO_PKG_VERSION"), " (runtime)")).map_err(|mut e| {
            e.file = named(&e.file);
            let kind = if e.rule == "readable" { ErrorKind::Io } else { ErrorKind::InvalidRules };
            // A schema violation names its rule as `keyword (schema path)` and its place as a
            // JSON pointer, empty for the document's root; a YAML error's place is its location.
            let pointer = (e.location.is_none() && (!e.path.is_empty() || e.rule.ends_with(')'))).then(|| e.path.clone());
            Error::new(kind, e.to_string()).in_file(e.file.clone().into(), pointer, e.location)
        })?;
        Rules::from_tables(tables).map_err(|e| match e.split_once(": ") {
            Some((file, rest)) if file.starts_with("rules/") => {
                Error::new(ErrorKind::InvalidRules, format!("{}: {rest}", named(file))).in_file(named(file).into(), None, None)
            }
            _ => Error::new(ErrorKind::InvalidRules, e),
        })
    }

    /// The compiled tables as JSON (what `plurnk-parser --tables` prints, validated against
    /// `schema/tables.json`): everything the rule set knows about the language, for another
    /// runtime to read.
    pub fn tables_json(&self) -> std::borrow::Cow<'static, str> {
        if self.as_builtin().is_some() {
            std::borrow::Cow::Borrowed(BUILTIN_TABLES_JSON)
        } else {
            std::borrow::Cow::Owned(serde_json::to_string_pretty(&self.tables).unwrap_or_default())
        }
    }

    /// Builds the lookups; fails when the tables lack something the interpreter names.
    pub(crate) fn from_tables(tables: Tables) -> Result<Rules, String> {
        let mut diag_index = Vec::with_capacity(DiagId::ALL.len());
        for name in DiagId::ALL {
            match tables.diagnostics.iter().position(|d| d.id == *name) {
                Some(i) => diag_index.push(i),
                None => return Err(format!("rules/diagnostics.yaml: lacks `{name}`, which the parser emits")),
            }
        }
        let diag_holes = diag_index.iter().map(|&i| holes(&tables.diagnostics[i].text)).collect();
        let mut working_forms = Vec::with_capacity(tables.operations.len());
        for op in &tables.operations {
            match tables.diagnostics.iter().position(|d| d.id == op.working_form) {
                Some(i) => working_forms.push(i),
                None => return Err(format!("rules/operations.yaml: `{}` names missing working form `{}`", op.name, op.working_form)),
            }
        }
        let exec_working_form = tables.diagnostics.iter().position(|d| d.id == tables.executors.working_form);
        let counter = |name: &str| -> Result<usize, String> {
            tables
                .pairing
                .counters
                .iter()
                .position(|c| c == name)
                .ok_or_else(|| format!("rules/tolerance.yaml: counter `{name}` is not declared"))
        };
        if tables.pairing.counters.len() > MAX_COUNTERS {
            return Err(format!("rules/tolerance.yaml: at most {} pairing counters", MAX_COUNTERS));
        }
        let mut event_counts = Vec::new();
        for ev in PAIR_EVENTS {
            let row = tables
                .pairing
                .events
                .iter()
                .find(|e| e.event == *ev)
                .ok_or_else(|| format!("rules/tolerance.yaml: /pairing/events lacks `{ev}`"))?;
            let mut inc = [0u16; MAX_COUNTERS];
            for c in &row.counts {
                let i = counter(c)?;
                inc[i] = inc[i].saturating_add(1);
            }
            event_counts.push(inc);
        }
        let mut complete_mask = 0u32;
        for c in &tables.pairing.complete_when_zero {
            complete_mask |= 1 << counter(c)?;
        }
        let order = |o: &Vec<Vec<String>>| -> Result<Vec<[u16; MAX_COUNTERS]>, String> {
            let mut rows = Vec::new();
            for group in o.iter().take(MAX_COUNTERS + 2) {
                let mut row = [0u16; MAX_COUNTERS];
                for c in group {
                    let w = &mut row[counter(c)?];
                    *w = w.saturating_add(1);
                }
                rows.push(row);
            }
            Ok(rows)
        };
        let complete_lanes = std::array::from_fn(|c| if complete_mask & (1 << c) != 0 { u16::MAX } else { 0 });
        let complete_order = order(&tables.pairing.complete_order)?;
        let repaired_order = order(&tables.pairing.repaired_order)?;
        let mut name_char = [false; 256];
        let spec: Vec<char> = tables.executors.name_chars.chars().collect();
        let mut i = 0;
        while i < spec.len() {
            if i + 2 < spec.len() && spec[i + 1] == '-' {
                for c in spec[i]..=spec[i + 2] {
                    if (c as u32) < 256 {
                        name_char[c as usize] = true;
                    }
                }
                i += 3;
            } else {
                if (spec[i] as u32) < 256 {
                    name_char[spec[i] as usize] = true;
                }
                i += 1;
            }
        }
        let zero_width = tables.fence.zero_width.iter().filter_map(|s| s.chars().next()).collect();
        let facts = tables
            .operations
            .iter()
            .map(|o| OpFacts {
                prose: o.prose_body,
                yields: o.yields_to_native,
                literal: o.literal_headings,
                body_repair: o.body_is_repair,
            })
            .collect();
        let mut op_by_name: Vec<usize> = (0..tables.operations.len()).collect();
        op_by_name.sort_by(|&a, &b| tables.operations[a].name.cmp(&tables.operations[b].name));
        let mut op_first = [(0u16, 0u16); 256];
        for (k, &i) in op_by_name.iter().enumerate() {
            if let Some(&b) = tables.operations[i].name.as_bytes().first() {
                let slot = &mut op_first[b as usize];
                if slot.1 == 0 {
                    slot.0 = k as u16;
                }
                slot.1 += 1;
            }
        }
        Ok(Rules {
            tables,
            diag_index,
            diag_holes,
            working_forms,
            exec_working_form,
            event_counts,
            complete_lanes,
            complete_order,
            repaired_order,
            name_char,
            zero_width,
            facts,
            op_by_name,
            op_first,
            class_tables: Default::default(),
        })
    }

    pub(crate) fn diag(&self, id: DiagId) -> &Diagnostic {
        &self.tables.diagnostics[self.diag_index[id as usize]]
    }

    /// The diagnostic's text with its placeholders filled.
    pub(crate) fn text(&self, id: DiagId, args: &[(&str, &str)]) -> String {
        fill_holes(&self.diag(id).text, &self.diag_holes[id as usize], args)
    }

    /// A diagnostic's text by its id string (working forms named from the operation table).
    pub(crate) fn text_by_name(&self, id: &str, args: &[(&str, &str)]) -> String {
        match self.tables.diagnostics.iter().find(|d| d.id == id) {
            Some(d) => fill(&d.text, args),
            None => String::new(),
        }
    }

    /// Operation `index`'s working form (what [`Rules::text_by_name`] gives for its
    /// `working_form` id).
    pub(crate) fn op_working_form(&self, index: usize) -> String {
        fill(&self.tables.diagnostics[self.working_forms[index]].text, &[])
    }

    /// The executors' working form for `executor` (what [`Rules::text_by_name`] gives).
    pub(crate) fn exec_working_form(&self, executor: &str) -> String {
        match self.exec_working_form {
            Some(i) => fill(&self.tables.diagnostics[i].text, &[("executor", executor)]),
            None => String::new(),
        }
    }

    #[inline]
    pub(crate) fn is_name_byte(&self, b: u8) -> bool {
        self.name_char[b as usize]
    }

    /// The length of the zero-width character (§heading-slot-order) starting at byte `at` of
    /// `text` (a `str`'s bytes), or 0.
    pub(crate) fn zero_width_at(&self, text: &[u8], at: usize) -> usize {
        // Every zero-width character is three bytes opening with one of these.
        if at >= text.len() || !matches!(text[at], 0xE2 | 0xEF) {
            return 0;
        }
        let end = (at + 4).min(text.len());
        let s = match std::str::from_utf8(&text[at..end]) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&text[at..at + e.valid_up_to()]).unwrap_or(""),
        };
        match s.chars().next() {
            Some(c) if self.zero_width.contains(&c) => c.len_utf8(),
            _ => 0,
        }
    }

    /// The operation named exactly `name`. Names are a few bytes: compared inline, length first,
    /// rather than through a `memcmp` call per candidate sharing the first byte.
    #[inline]
    pub(crate) fn op_index(&self, name: &str) -> Option<usize> {
        let (start, n) = self.op_first[*name.as_bytes().first()? as usize];
        let ops = &self.tables.operations;
        let want = name.as_bytes();
        self.op_by_name[start as usize..(start + n) as usize].iter().copied().find(|&i| {
            let have = ops[i].name.as_bytes();
            have.len() == want.len() && have.iter().zip(want).all(|(a, b)| a == b)
        })
    }

    pub(crate) fn op(&self, index: usize) -> &Operation {
        &self.tables.operations[index]
    }

    /// Whether `t` opens with a run of one fence character at least the minimum width long
    /// (the characters and the width are `rules/operations.yaml`'s `fence`).
    #[cfg(test)]
    pub(crate) fn starts_fence_run(&self, t: &str) -> bool {
        let min = self.fence_min() as usize;
        let b = t.as_bytes();
        b.len() >= min && self.tables.fence.chars.iter().filter_map(|c| c.bytes().next()).any(|ch| b[..min].iter().all(|&x| x == ch))
    }

    pub(crate) fn fence_min(&self) -> u32 {
        self.tables.fence.min_width
    }
}

/// The `{name}` placeholders [`fill`] would consider in `template`, as (open brace, close
/// brace) byte offsets: where they are does not depend on the arguments, so a rule set finds
/// them once per diagnostic rather than per message.
fn holes(template: &str) -> Box<[(u32, u32)]> {
    let bytes = template.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'{', &bytes[i..]) {
        let open = i + off;
        let mut j = open + 1;
        while j < bytes.len() && (bytes[j].is_ascii_lowercase() || bytes[j].is_ascii_digit() || bytes[j] == b'_') {
            j += 1;
        }
        if j < bytes.len() && bytes[j] == b'}' && j > open + 1 {
            found.push((open as u32, j as u32));
            i = j + 1;
        } else {
            i = open + 1;
        }
    }
    found.into_boxed_slice()
}

/// [`fill`] over placeholders already found by [`holes`].
fn fill_holes(template: &str, holes: &[(u32, u32)], args: &[(&str, &str)]) -> String {
    if holes.is_empty() {
        return template.to_string();
    }
    let mut out = String::with_capacity(template.len() + 16);
    let mut last = 0;
    for &(open, close) in holes {
        let (open, close) = (open as usize, close as usize);
        let name = &template[open + 1..close];
        if let Some((_, value)) = args.iter().find(|(k, _)| *k == name) {
            out.push_str(&template[last..open]);
            out.push_str(value);
            last = close + 1;
        }
    }
    out.push_str(&template[last..]);
    out
}

/// Fills `{name}` placeholders (lowercase letters, digits, `_`); every other brace is text.
pub(crate) fn fill(template: &str, args: &[(&str, &str)]) -> String {
    fill_holes(template, &holes(template), args)
}

/// The rule-file schemas this build embeds, for `--rules DIR` without `--schemas`.
#[cfg(feature = "runtime-rules")]
pub(crate) fn embedded_schemas() -> load::Schemas {
    let parse = |s: &str| serde_json::from_str(s).expect("embedded schema parses");
    load::Schemas {
        operations: parse(include_str!("../../schema/rules/operations.json")),
        diagnostics: parse(include_str!("../../schema/rules/diagnostics.json")),
        tolerance: parse(include_str!("../../schema/rules/tolerance.json")),
        native: parse(include_str!("../../schema/rules/native.json")),
        native_parameters: parse(include_str!("../../schema/rules/native-parameters.json")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pre-split short-cut ([`holes`] + [`fill_holes`]) against [`fill`], the general path:
    /// every built-in diagnostic with each of its placeholders given, none given, and one
    /// missing, plus odd brace shapes.
    #[test]
    fn fill_holes_are_found_once_per_diagnostic() {
        let r = Rules::builtin();
        for (id, name) in DiagId::ALL.iter().enumerate() {
            let d = r.tables.diagnostics.iter().find(|d| d.id == *name).unwrap();
            assert_eq!(&*r.diag_holes[id], &*holes(&d.text), "{name}");
        }
    }

    /// The indexed working forms against the search by id they replace.
    #[test]
    fn working_forms_answer_as_the_search_by_id() {
        let r = Rules::builtin();
        for (i, op) in r.tables.operations.iter().enumerate() {
            assert_eq!(r.op_working_form(i), r.text_by_name(&op.working_form, &[]), "{}", op.name);
        }
        for e in ["sh", "python", "x"] {
            assert_eq!(r.exec_working_form(e), r.text_by_name(&r.tables.executors.working_form, &[("executor", e)]));
        }
    }

    #[test]
    fn fill_replaces_only_placeholders() {
        assert_eq!(fill("`{op}` took `[{…}]`", &[("op", "SEND")]), "`SEND` took `[{…}]`");
        assert_eq!(fill("{\"cwd\": \"…\"} {executor}", &[("executor", "sh")]), "{\"cwd\": \"…\"} sh");
        assert_eq!(fill("{missing} stays", &[]), "{missing} stays");
        // Odd brace shapes: only `{` + name + `}` is a placeholder, and a value is not re-read.
        for (t, want) in [
            ("", ""),
            ("{", "{"),
            ("}", "}"),
            ("{}", "{}"),
            ("{op", "{op"),
            ("{{op}}", "{SEND}"),
            ("a{op}b{x_1}{OP}{op}", "aSENDb1{OP}SEND"),
            ("{é}{op}", "{é}SEND"),
            ("{op}{", "SEND{"),
            ("{name}{op}", "{op}SEND"),
        ] {
            assert_eq!(fill(t, &[("op", "SEND"), ("x_1", "1"), ("name", "{op}")]), want, "{t:?}");
        }
    }

    #[test]
    fn builtin_rules_load() {
        let r = Rules::builtin();
        assert!(r.op_index("READ").is_some());
        // The text itself lives only in rules/diagnostics.yaml (tests/rules.rs checks it there).
        assert!(!r.text(DiagId::NoOperation, &[]).is_empty());
    }

    /// §parser-position: the line after an open slot is a closer when it opens with a fence run
    /// of the table's characters.
    #[test]
    fn parser_position_fence_runs_come_from_the_table() {
        let r = Rules::builtin();
        for t in ["```", "~~~~ x", "````python"] {
            assert!(r.starts_fence_run(t), "{t:?}");
        }
        for t in ["``", "~~", "`~`", "", "'''", "text ```"] {
            assert!(!r.starts_fence_run(t), "{t:?}");
        }
    }

    /// §pairing-objective: each pairing event adds one to every counter it names, as often as
    /// it names it, and nothing to the others; a table naming too many counters is refused.
    #[test]
    fn pairing_objective_event_counts_are_lane_increments() {
        let builtin = Rules::builtin();
        let counters = &builtin.tables.pairing.counters;
        let lane = |name: &str| counters.iter().position(|c| c == name).unwrap();
        for (ev, row) in PAIR_EVENTS.iter().zip(&builtin.event_counts) {
            let listed = &builtin.tables.pairing.events.iter().find(|e| e.event == *ev).unwrap().counts;
            for (i, c) in counters.iter().enumerate() {
                assert_eq!(row[i] as usize, listed.iter().filter(|l| *l == c).count(), "{ev} / {c}");
            }
            assert!(row[counters.len()..].iter().all(|&n| n == 0), "{ev}: an undeclared lane");
        }
        // A counter named twice counts twice.
        let mut tables = builtin.tables.clone();
        let row = tables.pairing.events.iter_mut().find(|e| e.event == "narrow-closer").unwrap();
        row.counts = vec!["repairs".into(), "repairs".into(), "hidden".into()];
        let edited = Rules::from_tables(tables).unwrap();
        let k = PAIR_EVENTS.iter().position(|e| *e == "narrow-closer").unwrap();
        assert_eq!((edited.event_counts[k][lane("repairs")], edited.event_counts[k][lane("hidden")]), (2, 1));
        // More counters than a cost holds.
        let mut tables = builtin.tables.clone();
        tables.pairing.counters.extend((0..MAX_COUNTERS).map(|i| format!("extra{i}")));
        tables.pairing.events[0].counts.push(tables.pairing.counters.last().unwrap().clone());
        assert!(Rules::from_tables(tables).unwrap_err().contains("at most"));
    }

    /// §pairing-objective: each position of a reading's key is the sum of its group's counters,
    /// so a group's row weighs each counter as often as the group names it.
    #[test]
    fn pairing_objective_order_rows_weigh_each_named_counter() {
        let builtin = Rules::builtin();
        let counters = &builtin.tables.pairing.counters;
        let lane = |name: &str| counters.iter().position(|c| c == name).unwrap();
        for (rows, groups) in [
            (&builtin.complete_order, &builtin.tables.pairing.complete_order),
            (&builtin.repaired_order, &builtin.tables.pairing.repaired_order),
        ] {
            assert_eq!(rows.len(), groups.len());
            for (row, group) in rows.iter().zip(groups) {
                for (i, c) in counters.iter().enumerate() {
                    assert_eq!(row[i] as usize, group.iter().filter(|g| *g == c).count(), "{group:?} / {c}");
                }
            }
        }
        // A counter a group names twice weighs two.
        let mut tables = builtin.tables.clone();
        tables.pairing.repaired_order[0] = vec!["repairs".into(), "repairs".into(), "hidden".into()];
        let edited = Rules::from_tables(tables).unwrap();
        assert_eq!((edited.repaired_order[0][lane("repairs")], edited.repaired_order[0][lane("hidden")]), (2, 1));
    }

    /// The name index finds every operation at its own row and nothing else: prefixes,
    /// extensions, other cases and words sharing a first letter miss.
    #[test]
    fn op_index_finds_exactly_the_table_names() {
        let r = Rules::builtin();
        for (i, op) in r.tables.operations.iter().enumerate() {
            let name = op.name.as_str();
            assert_eq!(r.op_index(name), Some(i), "{name}");
            assert_eq!(r.op_index(&name[..name.len() - 1]), None, "prefix of {name}");
            assert_eq!(r.op_index(&format!("{name}S")), None, "extension of {name}");
            assert_eq!(r.op_index(&name.to_ascii_lowercase()), None, "lowercase {name}");
        }
        for miss in ["", "The", "R", "Z", "é", "READ ", "READ\0", "READ\0\0\0\0"] {
            assert_eq!(r.op_index(miss), None, "{miss:?}");
        }
    }

    /// A rule file may name an operation longer than the built-in four letters: two sharing
    /// their first eight bytes, and their prefixes and extensions, miss each other.
    #[test]
    fn op_index_tells_long_names_apart() {
        let mut tables = Rules::builtin().tables.clone();
        tables.operations[0].name = "READTHELINES".into();
        tables.operations[1].name = "READTHELINEZ".into();
        let r = Rules::from_tables(tables).expect("renamed tables build");
        assert_eq!(r.op_index("READTHELINES"), Some(0));
        assert_eq!(r.op_index("READTHELINEZ"), Some(1));
        for miss in ["READTHEL", "READTHELINE", "READTHELINEQ", "READTHELINESS"] {
            assert_eq!(r.op_index(miss), None, "{miss:?}");
        }
    }
}
