//! Turns built by repeating a rule's trigger: the linear-work property (`src/work.rs`), the
//! adversarial bench and the slowness fuzz target read the same shapes (`#[path]`-included by
//! each; kept in a subdirectory so cargo does not take it for a bench of its own).
//!
//! Every trigger is taken from the compiled tables (`--tables`, [`BUILTIN`]): each operation's
//! and executor's heading in each form, closers, chains, asides, slots of every kind, matchers
//! of every dialect, fences of rising widths, and every native family's markers — start, end,
//! call, parameter, argument, separator — written open and unclosed. A family or an operation
//! added to `rules/` is covered without a change here.

#![allow(dead_code)]

use serde_json::Value;

/// One shape: `head` once, then `units` in turn, each followed by `sep`, to the size asked for.
/// A `{i}` in a unit is the unit's index (names that differ from one unit to the next).
#[derive(Debug, Clone)]
pub struct Shape {
    pub name: String,
    pub head: String,
    pub units: Vec<String>,
    pub sep: String,
}

impl Shape {
    pub fn new(name: impl Into<String>, head: &str, units: Vec<String>, sep: &str) -> Shape {
        Shape { name: name.into(), head: head.to_string(), units, sep: sep.to_string() }
    }

    /// The turn at about `size` bytes, in whole rounds of the units (at most one round over): a
    /// turn cut within a round may end in another state than the same shape at another size
    /// (a fence open, not closed), a step in the work that is no growth.
    pub fn build(&self, size: usize) -> String {
        let mut s = String::with_capacity(size + 256);
        s.push_str(&self.head);
        let mut i = 0usize;
        while (s.len() < size || !i.is_multiple_of(self.units.len().max(1))) && !self.units.is_empty() {
            let u = &self.units[i % self.units.len()];
            if u.contains("{i}") {
                s.push_str(&u.replace("{i}", &i.to_string()));
            } else {
                s.push_str(u);
            }
            s.push_str(&self.sep);
            i += 1;
        }
        s
    }

    /// A short label: the name, the head's first line, the separator, escaped.
    pub fn label(&self) -> String {
        let head: String = self.head.lines().next().unwrap_or("").chars().take(24).collect();
        format!("{} | head {:?} | sep {:?}", self.name, head, self.sep)
    }
}

/// The separators a trigger is repeated with: glued, spaced, and every line ending (a lone CR is
/// content, §parser-position).
pub const SEPS: &[&str] = &["", "\n", " ", "\r\n", "\r", "\n\n", "\t"];

/// Contexts a trigger is repeated in: none, a message body, a literal body, a quotation.
pub const HEADS: &[&str] = &["", "```SEND\n", "```EDIT (a.md)\n", "```python\n", "```READ (a.md)```\n"];

/// The compiled built-in tables (`plurnk-parser --tables`).
pub fn tables(json: &str) -> Value {
    serde_json::from_str(json).expect("the compiled tables are JSON")
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// The names a heading can carry: every operation, every default executor and alias spelling,
/// and a tag that names nothing.
pub fn heading_names(t: &Value) -> Vec<String> {
    let mut names: Vec<String> = t["operations"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap().to_string()).collect();
    names.extend(strs(&t["executors"]["default"]));
    for a in t["executors"]["aliases"].as_array().into_iter().flatten() {
        names.extend(a["spelling"].as_str().map(str::to_string));
    }
    names.push("python".into());
    names
}

/// The heading triggers of `name`: bare, each slot, compact, wider, naked, unfenced, unclosed.
fn heading_forms(name: &str, fence: &str) -> Vec<String> {
    let lower = name.to_lowercase();
    vec![
        format!("{fence}{name}"),
        format!("{fence}{name} (a{{i}}.md)"),
        format!("{fence}{name} (a.md) <1,2> [m] <!-- x --> /re/"),
        format!("{fence}{name} (a.md){fence}"),
        format!("{fence}{name} (a.md) <1,2>{fence}"),
        format!("{fence}`{name} (a.md)"),
        format!("{fence}{lower} (a.md)"),
        format!("{name}"),
        format!("{name} <!-- x -->"),
        format!("{name} (a.md)"),
        format!("{fence}{name} ("),
        format!("{fence}{name} <"),
        format!("{fence}{name} ["),
        format!("{fence}{name} <!--"),
        format!("{fence}{name} (a.md) <!-- x"),
        format!("   {fence}{name} (a.md)"),
        format!("\t{fence}{name}"),
        format!("x\n{fence}{fence}{name} (a.md)"),
        format!("{fence}{name} (a.md)\nbody\n{fence}"),
        format!("{fence}{name} (a.md)\n{fence}x"),
        format!("{fence}{name}\u{200b} (a.md)"),
    ]
}

/// Closers, asides and fences of rising widths, each char of the table's fence characters.
fn fence_triggers(t: &Value) -> Vec<(String, Vec<String>)> {
    let min = t["fence"]["min_width"].as_u64().unwrap_or(3) as usize;
    let mut out = Vec::new();
    for ch in strs(&t["fence"]["chars"]) {
        let f = ch.repeat(min);
        out.push((format!("closer {ch}"), vec![f.clone()]));
        out.push((format!("closer aside {ch}"), vec![format!("{f} <!-- a -->")]));
        out.push((format!("short run {ch}"), vec![ch.repeat(min - 1)]));
        out.push((format!("labeled {ch}"), vec![format!("{f}a")]));
        out.push((format!("rising widths {ch}"), (min..min + 40).map(|w| ch.repeat(w)).collect()));
        out.push((format!("falling widths {ch}"), (min..min + 40).rev().map(|w| ch.repeat(w)).collect()));
        out.push((format!("rising labeled {ch}"), (min..min + 40).map(|w| format!("{}x", ch.repeat(w))).collect()));
        out.push((format!("nesting widths {ch}"), (min..min + 20).rev().map(|w| format!("{}SEND", ch.repeat(w))).collect()));
        out.push((format!("alternating {ch}"), vec![f.clone(), format!("{f}{ch}"), format!("{f}x"), format!("{f}{ch}{ch}")]));
    }
    out.push(("aside open".into(), vec!["<!--".into()]));
    out.push(("aside closed".into(), vec!["<!-- a -->".into()]));
    out.push(("aside end".into(), vec!["-->".into()]));
    out.push(("inline code".into(), vec!["`a`".into()]));
    out.push(("zero width".into(), vec!["\u{200b}".into(), "\u{feff}```".into()]));
    out
}

/// Slots of every kind, open and unclosed, and matchers of every dialect, after a heading.
fn slot_triggers(t: &Value) -> Vec<(String, String, Vec<String>)> {
    let f = "`".repeat(t["fence"]["min_width"].as_u64().unwrap_or(3) as usize);
    let mut out = Vec::new();
    let mut slots: Vec<String> = [
        "(",
        "[",
        "<",
        ")",
        "]",
        ">",
        "(a",
        "<1,",
        "[m",
        "(a.md)",
        "<1,2>",
        "[m]",
        "<!--",
        "<!-- a -->",
        "\\(",
        "\"",
        "'",
        "``",
        "12<@abcde>",
        "@abcde",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Closers inside the heading (§transparent-inline-closer) and the log's notation.
    slots.push(f.clone());
    slots.push(format!("{f}`"));
    if let Some(a) = t["notation"]["address"].as_str() {
        slots.push(format!("{a} a"));
        slots.push(a.to_string());
    }
    if let Some(c) = t["notation"]["charge"].as_str() {
        slots.push(format!("{c} 3"));
        slots.push(c.to_string());
    }
    let matchers = ["/re/", "/a", "/a\\/", "/[a/", "^x", "//a", "$.a", "$[", "$..", "~q", "&s", "&<s", "&>", "\\|", "*", "@1"];
    for name in heading_names(t).iter().take(3).chain(["sh".to_string()].iter()) {
        for s in &slots {
            out.push((format!("slot {s} after {name}"), format!("{f}{name} "), vec![s.to_string()]));
        }
    }
    for name in heading_names(t).iter().take(3) {
        for m in matchers {
            out.push((format!("matcher {m} after {name}"), format!("{f}{name} (src) "), vec![m.to_string()]));
        }
    }
    out
}

/// Every native family's markers, open and unclosed, each by itself and as a sequence of calls.
fn native_triggers(t: &Value) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    let op = t["operations"][0]["name"].as_str().unwrap_or("READ").to_string();
    for fam in t["native"].as_array().into_iter().flatten() {
        let fname = fam["family"].as_str().unwrap_or("?");
        for (bi, b) in fam["blocks"].as_array().into_iter().flatten().enumerate() {
            let tag = format!("{fname}/{bi}");
            let starts = strs(&b["start"]);
            let ends = strs(&b["end"]);
            let cstarts = strs(&b["call_start"]);
            let cends = strs(&b["call_end"]);
            let seps = strs(&b["separators"]);
            let header_ends = strs(&b["header_end"]);
            let cprefixes = strs(&b["call_prefixes"]);
            let head = starts.first().cloned().unwrap_or_default();
            for m in starts.iter().chain(&ends).chain(&cstarts).chain(&cends).chain(&seps).chain(&header_ends).chain(&cprefixes) {
                out.push((format!("{tag} marker {m}"), String::new(), vec![m.clone()]));
                if !head.is_empty() {
                    out.push((format!("{tag} marker {m} after start"), head.clone(), vec![m.clone()]));
                }
            }
            for form in b["forms"].as_array().into_iter().flatten() {
                let mut calls: Vec<(String, String)> = Vec::new();
                match form["shape"].as_str().unwrap_or("") {
                    "elements" => {
                        let mut p_all = strs(&form["prefixes"]);
                        if p_all.is_empty() {
                            p_all.push(String::new());
                        }
                        let name_attr = strs(&form["name_attributes"]).first().cloned().unwrap_or_else(|| "name".into());
                        let par_attr = strs(&form["parameter_attributes"]).first().cloned().unwrap_or_else(|| "name".into());
                        for p in &p_all {
                            for s in strs(&form["sections"]) {
                                calls.push((format!("section {p}{s}"), format!("<{p}{s}>")));
                                calls.push((format!("section end {p}{s}"), format!("</{p}{s}>")));
                            }
                            for c in strs(&form["calls"]) {
                                calls.push((format!("call {p}{c}"), format!("<{p}{c} {name_attr}=\"{op}\">")));
                                calls.push((format!("call unterminated {p}{c}"), format!("<{p}{c} {name_attr}=\"{op}")));
                                calls.push((format!("call heading {p}{c}"), format!("<{p}{c} {name_attr}=\"{op} (a.md) <1,2>\">")));
                                calls.push((format!("call unknown {p}{c}"), format!("<{p}{c} {name_attr}=\"frobnicate\">")));
                                calls.push((format!("call bare {p}{c}"), format!("<{p}{c}>")));
                                calls.push((format!("call end {p}{c}"), format!("</{p}{c}>")));
                                calls.push((format!("call self-closing {p}{c}"), format!("<{p}{c} {name_attr}=\"{op}\" path=\"a.md\"/>")));
                                if form["name_equals"].as_bool() == Some(true) {
                                    calls.push((format!("call equals {p}{c}"), format!("<{p}{c}={op}>")));
                                    calls.push((format!("call equals open {p}{c}"), format!("<{p}{c}={op}")));
                                }
                                calls.push((
                                    format!("call json {p}{c}"),
                                    format!("<{p}{c} {name_attr}=\"{op}\">{{\"path\": \"a.md\"}}</{p}{c}>"),
                                ));
                            }
                            for par in strs(&form["parameters"]) {
                                // Parameter openers left open after one call opener: keyed,
                                // bare and with an empty key (the content's debris, each stripped).
                                for c in strs(&form["calls"]).iter().take(1) {
                                    let mut openers = vec![format!("<{p}{c} {name_attr}=\"{op}\">")];
                                    if form["name_equals"].as_bool() == Some(true) {
                                        openers.push(format!("<{p}{c}={op}>"));
                                    }
                                    for (k, opener) in openers.iter().enumerate() {
                                        let h = format!("{head}{opener}\n");
                                        for (what, unit) in [
                                            ("keyed", format!("<{p}{par} {par_attr}=\"path\">")),
                                            ("bare", format!("<{p}{par}>")),
                                            ("empty key", format!("<{p}{par} =\"path\">")),
                                        ] {
                                            out.push((format!("{tag} call #{k} then parameters {what} {p}{par}"), h.clone(), vec![unit]));
                                        }
                                    }
                                }
                                calls.push((format!("parameter {p}{par}"), format!("<{p}{par} {par_attr}=\"path\">a.md")));
                                calls
                                    .push((format!("parameter closed {p}{par}"), format!("<{p}{par} {par_attr}=\"path\">a.md</{p}{par}>")));
                                calls.push((format!("parameter unterminated {p}{par}"), format!("<{p}{par} {par_attr}=\"path")));
                                calls.push((format!("parameter end {p}{par}"), format!("</{p}{par}>")));
                                if form["parameter_equals"].as_bool() == Some(true) {
                                    calls.push((format!("parameter equals {p}{par}"), format!("<{p}{par}=path>a.md")));
                                }
                            }
                            if form["operation_elements"].as_bool() == Some(true) {
                                calls.push((format!("operation element {p}"), format!("<{p}{op} path=\"a.md\">")));
                                calls.push((format!("operation element lower {p}"), format!("<{p}{} (a.md)>", op.to_lowercase())));
                                calls.push((format!("operation element end {p}"), format!("</{p}{op}>")));
                            }
                        }
                    }
                    "json" => {
                        let nk = strs(&form["name_keys"]).first().cloned().unwrap_or_else(|| "name".into());
                        let ak = strs(&form["argument_keys"]).first().cloned();
                        let call = |name: &str| match &ak {
                            Some(ak) => format!("{{\"{nk}\": \"{name}\", \"{ak}\": {{\"path\": \"a.md\"}}}}"),
                            None => format!("{{\"{nk}\": \"{name}\", \"path\": \"a.md\"}}"),
                        };
                        calls.push(("json call".into(), call(&op)));
                        calls.push(("json unknown".into(), call("frobnicate")));
                        calls.push(("json array open".into(), format!("[{},", call(&op))));
                        calls.push(("json unknown array open".into(), format!("[{},", call("frobnicate"))));
                        calls.push(("json array item".into(), format!("{},", call("frobnicate"))));
                        calls.push(("json unclosed".into(), format!("{{\"{nk}\": \"{op}\", ")));
                        calls.push(("json open brace".into(), "{".into()));
                        calls.push(("json nested".into(), "{\"a\": ".into()));
                        calls.push(("json open string".into(), format!("{{\"{nk}\": \"")));
                        calls.push(("json open string line".into(), format!("{{\"{nk}\": \"x\", \"a\": \"a\n")));
                        calls.push(("json python".into(), format!("{{'{nk}': '{op}', 'path': 'a.md'}}")));
                        for w in strs(&form["wrapper_keys"]) {
                            calls.push((format!("json wrapper {w}"), format!("{{\"{w}\": {}}}", call(&op))));
                        }
                    }
                    "name-json" => {
                        let np = strs(&form["name_prefixes"]).first().cloned().unwrap_or_default();
                        for a in strs(&form["arguments_start"]) {
                            let ae = strs(&form["arguments_end"]).first().cloned().unwrap_or_default();
                            calls.push((format!("name-json {a}"), format!("{np}{op}{a}{{\"path\": \"a.md\"}}{ae}")));
                            calls.push((format!("name-json open {a}"), format!("{np}{op}{a}{{\"path\": ")));
                            calls.push((format!("name-json marker {a}"), a.clone()));
                        }
                        if strs(&form["arguments_start"]).is_empty() {
                            calls.push(("name-json no marker".into(), format!("{np}{op}{{\"path\": \"a.md\"}}")));
                            calls.push(("name-json no marker open".into(), format!("{np}{op}{{")));
                        }
                        let pieces = ["id_markers", "index_separators", "name_prefixes", "name_markers"].map(|k| strs(&form[k]));
                        for m in pieces.iter().flatten() {
                            calls.push((format!("name-json piece {m}"), m.clone()));
                        }
                    }
                    "arg-pairs" => {
                        let g = |k: &str| strs(&form[k]).first().cloned().unwrap_or_default();
                        let (ks, ke, vs, ve) = (g("key_start"), g("key_end"), g("value_start"), g("value_end"));
                        let ne = g("name_end");
                        calls.push(("arg-pairs named call".into(), format!("{op}{ne}{ks}path{ke}{vs}a.md{ve}")));
                        calls.push(("arg-pairs name end".into(), ne));
                        calls.push(("arg-pairs pair".into(), format!("{ks}path{ke}{vs}a.md{ve}")));
                        calls.push(("arg-pairs call".into(), format!("{op}{ks}path{ke}{vs}a.md{ve}")));
                        calls.push(("arg-pairs open value".into(), format!("{ks}path{ke}{vs}a.md")));
                        for m in [ks, ke, vs, ve] {
                            calls.push((format!("arg-pairs marker {m}"), m));
                        }
                    }
                    "braces" => {
                        let np = strs(&form["name_prefixes"]).first().cloned().unwrap_or_default();
                        let q = strs(&form["string_quotes"]).first().cloned().unwrap_or_else(|| "\"".into());
                        calls.push(("braces call".into(), format!("{np}{op}{{path:{q}a.md{q}}}")));
                        calls.push(("braces open".into(), format!("{np}{op}{{path:{q}a.md")));
                        calls.push(("braces open quote".into(), format!("{np}{op}{{path:{q}")));
                        calls.push(("braces nested".into(), format!("{np}{op}{{a:{{")));
                        calls.push(("braces quote".into(), q.clone()));
                    }
                    "tags" => {
                        let g = |k: &str| strs(&form[k]).first().cloned().unwrap_or_default();
                        let (o, c, e) = (g("open"), g("close"), g("tag_end"));
                        let (call, na, par, pa) = (g("calls"), g("name_attributes"), g("parameters"), g("parameter_attributes"));
                        calls.push(("tags call".into(), format!("{o}{call} {na}={op}{e}{o}{par} {pa}=path{e}a.md{c}{par}{e}{c}{call}{e}")));
                        calls.push(("tags open call".into(), format!("{o}{call} {na}={op}{e}")));
                        calls.push(("tags unterminated call".into(), format!("{o}{call} {na}={op}")));
                        calls.push(("tags open parameter".into(), format!("{o}{par} {pa}=path{e}a.md")));
                        for obj in strs(&form["object_elements"]) {
                            calls.push((format!("tags object {obj}"), format!("{o}{call} {na}={op}{e}{o}{obj}{e}{{\"path\": ")));
                        }
                        for m in [o, c, e] {
                            calls.push((format!("tags marker {m}"), m));
                        }
                    }
                    "pythonic" => {
                        let suffix = strs(&form["name_suffixes"]).first().cloned().unwrap_or_default();
                        let list = form["list"].as_bool() == Some(true);
                        let call = format!("{op}{suffix}(path=\"a.md\")");
                        calls.push(("pythonic call".into(), if list { format!("[{call}]") } else { call.clone() }));
                        calls.push(("pythonic list open".into(), format!("[{call}, ")));
                        calls.push(("pythonic open call".into(), format!("{op}{suffix}(path=\"a.md")));
                        calls.push(("pythonic open paren".into(), format!("{op}{suffix}(")));
                        calls.push(("pythonic nested".into(), format!("{op}{suffix}(a=[")));
                        if list {
                            // A list over lines: its `[` alone on a line, a call cut at a line's end.
                            calls.push(("pythonic list bracket".into(), "[".into()));
                            calls.push(("pythonic list over lines".into(), format!("[\n  {op}{suffix}(path=\"a.md\",\n")));
                        }
                    }
                    "heading" => {
                        for p in strs(&form["prefixes"]) {
                            calls.push((format!("heading {p}"), format!("{p}{op} (a.md)")));
                        }
                        calls.push(("heading plain".into(), format!("{op} (a.md) <1,2>")));
                    }
                    _ => {}
                }
                for (what, unit) in calls {
                    out.push((format!("{tag} {what}"), String::new(), vec![unit.clone()]));
                    if !head.is_empty() {
                        out.push((format!("{tag} {what} after start"), head.clone(), vec![unit.clone()]));
                        if let Some(cs) = cstarts.first() {
                            out.push((format!("{tag} {what} per call"), head.clone(), vec![format!("{cs}{unit}")]));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Every shape: each trigger glued, a line each and with one more separator of [`SEPS`] (one
/// line, CR/LF mixes, tabs) in no context, and in one context of [`HEADS`], the separator and
/// context chosen in turn.
pub fn all(t: &Value) -> Vec<Shape> {
    let fence = "`".repeat(t["fence"]["min_width"].as_u64().unwrap_or(3) as usize);
    let mut triggers: Vec<(String, String, Vec<String>)> = Vec::new();
    for name in heading_names(t) {
        for (k, u) in heading_forms(&name, &fence).into_iter().enumerate() {
            triggers.push((format!("heading {name} #{k}"), String::new(), vec![u]));
        }
    }
    triggers.push(("every heading".into(), String::new(), heading_names(t).iter().map(|n| format!("{fence}{n} (a.md)")).collect()));
    for (n, u) in fence_triggers(t) {
        triggers.push((n, String::new(), u));
    }
    triggers.extend(slot_triggers(t));
    triggers.extend(native_triggers(t));
    let mut out = Vec::new();
    // A marker a family leaves empty is no trigger.
    triggers.retain(|(_, _, units)| units.iter().any(|u| !u.is_empty()));
    // Each trigger glued and a line each, and in turn with one of the other separators and in
    // one of the contexts: every separator and context meets every kind of trigger, and the
    // property stays within a minute of `cargo test --release`.
    for (i, (name, head, units)) in triggers.into_iter().enumerate() {
        for sep in [SEPS[0], SEPS[1], SEPS[2 + i % (SEPS.len() - 2)]] {
            out.push(Shape::new(name.clone(), &head, units.clone(), sep));
        }
        if head.is_empty() {
            let h = HEADS[1 + i % (HEADS.len() - 1)];
            out.push(Shape::new(name.clone(), h, units.clone(), "\n"));
            out.push(Shape::new(name.clone(), h, units.clone(), ""));
        }
    }
    out
}

/// A shape cycling through several triggers (for the property's generator): `picks` index the
/// triggers of [`all`] with no context, `sep` and `head` index [`SEPS`] and [`HEADS`].
pub fn mixed(shapes: &[Shape], picks: &[u16], sep: u8, head: u8) -> Shape {
    let plain: Vec<&Shape> = shapes.iter().filter(|s| s.head.is_empty() && s.sep.is_empty()).collect();
    let mut units = Vec::new();
    let mut name = String::from("mixed:");
    for &p in picks {
        let s = plain[p as usize % plain.len()];
        units.extend(s.units.iter().cloned());
        name.push_str(&format!(" [{}]", s.name));
    }
    Shape::new(name, HEADS[head as usize % HEADS.len()], units, SEPS[sep as usize % SEPS.len()])
}
