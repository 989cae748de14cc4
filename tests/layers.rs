//! The house reads as the pipeline: every module of `src/` sits on a floor, and imports only from
//! its own floor or below; no two modules reach each other, directly or round a circle.
//!
//! The floors are written once, here ([`FLOORS`], ground up). The checker reads the code of every
//! file in `src/` — its `use crate::…` and `use super::…` lines and the `crate::x::…` and
//! `super::…` paths in its code; comments, strings and `#[cfg(test)]` items are not read (a unit
//! test may drive the whole parser) — and fails on
//! - an import from a module on a lower floor to one on a higher floor (naming the file, the line
//!   and both floors);
//! - a circle between top-level modules (on one floor, where imports may run sideways);
//! - a circle between the files of one module (its parts: `native/compile.rs` and
//!   `native/element.rs`). A part may use its parent's shared items (`super::Call`) and the parent
//!   assembles its parts, so an import between a file and its own ancestor is no circle.
//!
//! `main.rs` and `batch.rs` are the command-line binary, another crate: they reach the library by
//! its name (`plurnk_parser::…`), through the face, so they stand above it by construction.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The floors, ground up, each with its top-level modules (`lib` is the crate's face,
/// `src/lib.rs`). A module imports from its own floor or below.
const FLOORS: &[(&str, &[&str])] = &[
    // Shared by every stage, importing none: the error type, inline vectors, the work counters and
    // the short-cut switch.
    ("ground", &["error", "small", "work"]),
    // The rule tables (`rules/*.yaml` compiled): the operation table, tolerance rules, native
    // families, diagnostic texts. Imports no stage.
    ("rules", &["rules"]),
    // What a parse is asked (`options`: the tier, `ParseOptions`) and what it answers (`ast`: the
    // result types).
    ("result", &["ast", "options"]),
    // Lines and their classes.
    ("scan", &["scan"]),
    // Reading lines: where every block ends (`pair`), a heading's statements and slots
    // (`heading`), matchers, targets and scopes.
    ("slots", &["pair", "heading", "matcher", "target", "scope"]),
    // Statements: the statement builder, native tool-call markup rewritten, diagnostics made from
    // their texts, a statement's canonical text.
    ("statements", &["native", "statement", "diagnose", "canonical"]),
    // One turn: the pairing pass, the statement pass, the native second pass, response text and
    // coverage, the order of items; the one-pass clean-turn reader its fast path.
    ("turn", &["turn"]),
    // What calls a turn: rendering read back, streaming, the string entries of the CLI and the
    // bindings.
    ("callers", &["render", "stream", "entry"]),
    // The crate's face: the entries, the re-exports, the crate docs; `__private` (not API) lends
    // the tests, benches, fuzz targets and the CLI what they need of the stages.
    ("face", &["lib", "__private"]),
    // Outside the face: the C ABI (the bindings are crates of their own, above it).
    ("outside", &["ffi"]),
];

/// The command-line binary's files (another crate; see the module doc).
const BINARY: &[&str] = &["main.rs", "batch.rs"];

/// One reference from a file to a module: the file, its line, the module named (its path in the
/// crate, `[]` for the root) and the path as written.
#[derive(Debug, Clone)]
struct Edge {
    file: String,
    line: usize,
    from: Vec<String>,
    to: Vec<String>,
    written: String,
}

/// `text` with its comments, string and character literals blanked (newlines kept, so lines and
/// columns stay where they were).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            // A raw string: `r"…"`, `r#"…"#`, `br"…"` (the `r` not ending an identifier).
            b'r' if (i == 0 || !ident(b[i - 1]) || (b[i - 1] == b'b' && (i < 2 || !ident(b[i - 2]))))
                && matches!(b.get(i + 1), Some(b'"' | b'#')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                let body = i + 2 + hashes;
                let end = b[body..].windows(close.len()).position(|w| w == close.as_slice()).map_or(b.len(), |k| body + k + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let end = (j + 1).min(b.len());
                blank(&mut out, i, end);
                i = end;
            }
            // A character literal (`'x'`, `'\n'`, `'"'`), not a lifetime (`'a`).
            b'\'' => {
                if b.get(i + 1) == Some(&b'\\') {
                    let end = b[i + 2..].iter().position(|&c| c == b'\'').map_or(b.len(), |k| i + 2 + k + 1);
                    blank(&mut out, i, end);
                    i = end;
                    continue;
                }
                let width = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                if width > 0 && b.get(i + 1 + width) == Some(&b'\'') {
                    blank(&mut out, i, i + 2 + width);
                    i += 2 + width;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written over whole characters")
}

/// The end of the item starting at `from` (after its attributes): its `;` or its closing brace.
fn item_end(b: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            b';' if depth == 0 => return j + 1,
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// Skips the attributes (`#[…]`) and whitespace from `at`.
fn skip_attributes(b: &[u8], mut at: usize) -> usize {
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if b[at..].starts_with(b"#[") {
            let mut depth = 0usize;
            while at < b.len() {
                match b[at] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            at += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        } else {
            return at;
        }
    }
}

/// `code` with its `#[cfg(test)]` items blanked, and the files those items bring in as
/// `mod name;` (relative to `src/`), which are test code whole.
fn without_tests(code: &str, raw: &str, file: &str) -> (String, Vec<String>) {
    let mut out = code.as_bytes().to_vec();
    let b = code.as_bytes();
    let mut test_files = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("#[cfg(test)]") {
        let at = from + k;
        let item = skip_attributes(b, at);
        let end = item_end(b, item);
        // `#[cfg(test)] #[path = "…"] mod name;`: the file it names is test code.
        let words: Vec<&str> = code[item..end].split_whitespace().collect();
        if let ["mod", name] | ["pub", "mod", name] = words.as_slice() {
            let name = name.trim_end_matches(';');
            let dir = Path::new(file).parent().unwrap_or(Path::new(""));
            let attrs = &raw[at..item];
            let path = attrs.split("#[path = \"").nth(1).and_then(|p| p.split('"').next());
            let stem = file.trim_end_matches(".rs");
            let child = match path {
                Some(p) => dir.join(p).to_string_lossy().into_owned(),
                None if file == "lib.rs" || file.ends_with("mod.rs") => dir.join(format!("{name}.rs")).to_string_lossy().into_owned(),
                None => format!("{stem}/{name}.rs"),
            };
            test_files.push(child);
        }
        for c in &mut out[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end.max(at + 1);
    }
    (String::from_utf8(out).expect("ASCII written over ASCII"), test_files)
}

/// The module a file is, from its path under `src/` (`[]` for `lib.rs`).
fn module_of(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" {
        return Vec::new();
    }
    stem.split('/').map(str::to_string).collect()
}

/// The paths of a use tree or a path in code starting at `at` (just after `crate` or `super`,
/// at its `::`), each as its segments, with the byte offset where the tree ends.
fn paths_at(b: &[u8], mut at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut segs = prefix;
    loop {
        let mut j = at;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if !b[j..].starts_with(b"::") {
            out.push(segs);
            return j;
        }
        j += 2;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b'{' {
            // A group: each comma-separated tree is a path of its own.
            j += 1;
            loop {
                while j < b.len() && (b[j].is_ascii_whitespace() || b[j] == b',') {
                    j += 1;
                }
                if j >= b.len() || b[j] == b'}' {
                    return j + 1;
                }
                let s = j;
                while j < b.len() && (ident(b[j]) || b[j] == b'*') {
                    j += 1;
                }
                if s == j {
                    j += 1;
                    continue;
                }
                let name = String::from_utf8_lossy(&b[s..j]).into_owned();
                let mut sub = segs.clone();
                if name != "self" && name != "*" {
                    sub.push(name);
                }
                j = paths_at(b, j, sub, out);
                // `x as y`: the alias is no path.
                while j < b.len() && b[j] != b',' && b[j] != b'}' {
                    j += 1;
                }
            }
        }
        let s = j;
        while j < b.len() && ident(b[j]) {
            j += 1;
        }
        if s == j {
            // `crate::x::*` or `::<T>`: the path ends here.
            out.push(segs);
            return j + usize::from(b.get(j) == Some(&b'*'));
        }
        segs.push(String::from_utf8_lossy(&b[s..j]).into_owned());
        at = j;
    }
}

/// Every reference `file` (its code only) makes to another file's module.
fn edges_of(file: &str, code: &str, modules: &BTreeSet<Vec<String>>) -> Vec<Edge> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let here = module_of(file);
    let mut edges = Vec::new();
    // Inline modules open at this point (`mod name {`), with the brace depth each opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        let starts_word = ident(c) && (i == 0 || !(ident(b[i - 1]) || b[i - 1] == b'$'));
        if !starts_word {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && ident(b[j]) {
            j += 1;
        }
        let word = &code[i..j];
        if word == "mod" {
            let mut k = j;
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            let s = k;
            while k < b.len() && ident(b[k]) {
                k += 1;
            }
            let name = code[s..k].to_string();
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            if k < b.len() && b[k] == b'{' {
                inline.push((name, depth));
            }
            i = j;
            continue;
        }
        if (word == "crate" || word == "super") && b[j..].starts_with(b"::") {
            let mut found = Vec::new();
            let end = paths_at(b, j, vec![word.to_string()], &mut found);
            let written = code[i..end].split_whitespace().collect::<Vec<_>>().join(" ");
            let mut current = here.clone();
            current.extend(inline.iter().map(|(n, _)| n.clone()));
            for path in found {
                let mut abs = if path[0] == "crate" { Vec::new() } else { current.clone() };
                let mut rest = &path[..];
                if rest[0] == "crate" {
                    rest = &rest[1..];
                }
                let mut above_root = false;
                while rest.first().is_some_and(|s| s == "super") {
                    above_root |= abs.pop().is_none();
                    rest = &rest[1..];
                }
                if above_root {
                    continue;
                }
                abs.extend(rest.iter().cloned());
                let to = (0..=abs.len()).rev().map(|n| abs[..n].to_vec()).find(|m| modules.contains(m)).unwrap_or_default();
                if to != here {
                    edges.push(Edge { file: file.to_string(), line, from: here.clone(), to, written: written.clone() });
                }
            }
            // Lines inside the path (a use tree over several lines) are counted on.
            line += code[i..end].matches('\n').count();
            i = end;
            continue;
        }
        i = j;
    }
    edges
}

/// The floor of a module (by its top-level name; `lib` for the root).
fn floor_of(module: &[String]) -> Option<usize> {
    let top = module.first().map_or("lib", String::as_str);
    FLOORS.iter().position(|(_, mods)| mods.contains(&top))
}

fn name_of(module: &[String]) -> String {
    if module.is_empty() {
        "lib".to_string()
    } else {
        module.join("::")
    }
}

/// The strongly connected groups of more than one node in `graph` (Tarjan's algorithm).
fn circles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on: BTreeSet<N>,
        found: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(n: &N, graph: &BTreeMap<N, BTreeSet<N>>, s: &mut State<N>) {
        let k = s.index.len();
        s.index.insert(n.clone(), k);
        s.low.insert(n.clone(), k);
        s.stack.push(n.clone());
        s.on.insert(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            if !s.index.contains_key(m) {
                visit(m, graph, s);
                let low = s.low[n].min(s.low[m]);
                s.low.insert(n.clone(), low);
            } else if s.on.contains(m) {
                let low = s.low[n].min(s.index[m]);
                s.low.insert(n.clone(), low);
            }
        }
        if s.low[n] == s.index[n] {
            let mut group = Vec::new();
            while let Some(m) = s.stack.pop() {
                s.on.remove(&m);
                let done = &m == n;
                group.push(m);
                if done {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut s = State { index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), found: Vec::new() };
    for n in graph.keys() {
        if !s.index.contains_key(n) {
            visit(n, graph, &mut s);
        }
    }
    s.found
}

/// One way round `group` (a circle of `graph`): from its first node back to it, each step an
/// edge of `graph` inside the group (the shortest such way, found breadth first).
fn round_in<N: Ord + Clone>(group: &[N], graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<N> {
    let start = &group[0];
    let mut came_from: BTreeMap<N, N> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    while let Some(n) = queue.pop_front() {
        for m in graph.get(&n).into_iter().flatten().filter(|m| group.contains(m)) {
            if m == start {
                // Back from `n` to the start, then reversed: start → … → n → start.
                let mut round = vec![start.clone(), n.clone()];
                let mut at = n.clone();
                while &at != start {
                    at = came_from[&at].clone();
                    round.push(at.clone());
                }
                round.reverse();
                return round;
            }
            if !came_from.contains_key(m) && m != start {
                came_from.insert(m.clone(), n.clone());
                queue.push_back(m.clone());
            }
        }
    }
    vec![start.clone()]
}

/// Whether `a` is `b` or one of its ancestors.
fn is_ancestor(a: &[String], b: &[String]) -> bool {
    b.starts_with(a)
}

/// Every breach of the floors in `files` (paths under `src/` with their text); empty when the
/// house holds.
fn check(files: &[(String, String)]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut test_files = BTreeSet::new();
    let mut codes = Vec::new();
    for (file, raw) in files {
        if BINARY.contains(&file.as_str()) {
            continue;
        }
        let (code, tests) = without_tests(&code_only(raw), raw, file);
        test_files.extend(tests);
        codes.push((file.clone(), code));
    }
    codes.retain(|(f, _)| !test_files.contains(f));
    let modules: BTreeSet<Vec<String>> = codes.iter().map(|(f, _)| module_of(f)).collect();
    for m in &modules {
        if floor_of(m).is_none() {
            errors.push(format!("src/: module `{}` is on no floor: add it to FLOORS in tests/layers.rs", name_of(m)));
        }
    }
    let edges: Vec<Edge> = codes.iter().flat_map(|(f, code)| edges_of(f, code, &modules)).collect();
    // Upward imports.
    for e in &edges {
        if let (Some(a), Some(b)) = (floor_of(&e.from), floor_of(&e.to)) {
            if b > a {
                errors.push(format!(
                    "src/{}:{}: `{}` on floor {} ({}) imports `{}` from `{}` on floor {} ({}), a higher floor",
                    e.file,
                    e.line,
                    name_of(&e.from),
                    a,
                    FLOORS[a].0,
                    e.written,
                    name_of(&e.to),
                    b,
                    FLOORS[b].0
                ));
            }
        }
    }
    // Circles between top-level modules, and between the parts of one module.
    let top = |m: &[String]| m.first().cloned().unwrap_or_else(|| "lib".to_string());
    let mut tops: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut parts: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for e in &edges {
        let (a, b) = (top(&e.from), top(&e.to));
        if a != b {
            tops.entry(a).or_default().insert(b);
        } else if !is_ancestor(&e.from, &e.to) && !is_ancestor(&e.to, &e.from) {
            parts.entry(e.from.clone()).or_default().insert(e.to.clone());
        }
    }
    // One way round each circle, each step shown by the first import that takes it.
    let step = |from: &dyn Fn(&Edge) -> bool, to: &dyn Fn(&Edge) -> bool| -> String {
        edges.iter().find(|e| from(e) && to(e)).map_or(String::new(), |e| format!("src/{}:{} `{}`", e.file, e.line, e.written))
    };
    for group in circles(&tops) {
        let round = round_in(&group, &tops);
        let steps: Vec<String> = round.windows(2).map(|w| step(&|e: &Edge| top(&e.from) == w[0], &|e: &Edge| top(&e.to) == w[1])).collect();
        errors.push(format!("circle between modules {}: {} ({})", group.join(", "), round.join(" → "), steps.join("; ")));
    }
    for group in circles(&parts) {
        let round = round_in(&group, &parts);
        let steps: Vec<String> = round.windows(2).map(|w| step(&|e: &Edge| e.from == w[0], &|e: &Edge| e.to == w[1])).collect();
        let names: Vec<String> = group.iter().map(|m| name_of(m)).collect();
        let path: Vec<String> = round.iter().map(|m| name_of(m)).collect();
        errors.push(format!("circle between the parts {}: {} ({})", names.join(", "), path.join(" → "), steps.join("; ")));
    }
    errors
}

/// Every `.rs` file under `dir`, as its path under `root` and its text.
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src/").to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).expect("a UTF-8 source file")));
        }
    }
}

#[test]
fn every_import_runs_down_the_floors_and_none_round_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&root, &root, &mut files);
    files.sort();
    assert!(files.len() > 20, "src/ was read ({} files)", files.len());
    let errors = check(&files);
    let floors: Vec<String> = FLOORS.iter().enumerate().map(|(k, (name, mods))| format!("{k} {name}: {}", mods.join(", "))).collect();
    assert!(errors.is_empty(), "the floors, ground up:\n  {}\nbreached:\n  {}", floors.join("\n  "), errors.join("\n  "));
}

/// Synthetic sources for the tests of the checker.
fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

/// The test of the test: an upward import fails, naming the file, the line and both floors;
/// the same path in a comment, a string or a `#[cfg(test)]` module does not.
#[test]
fn the_checker_fails_on_an_upward_import() {
    let tree = files(&[
        ("lib.rs", "mod scan;\nmod turn;\npub use turn::run;\n"),
        (
            "scan.rs",
            "//! Calls `crate::turn::run` (a comment).\nuse crate::rules::Rules;\n\
             fn lines() {\n    let s = \"crate::turn::run\";\n    crate::turn::run(s);\n}\n\
             #[cfg(test)]\nmod tests {\n    use crate::turn::run;\n}\n",
        ),
        ("turn.rs", "use crate::scan::lines;\npub fn run() {}\n"),
        ("rules/mod.rs", "use crate::error::Error;\n"),
        ("error.rs", ""),
    ]);
    let errors = check(&tree);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        errors[0],
        "src/scan.rs:5: `scan` on floor 3 (scan) imports `crate::turn::run` from `turn` on floor 6 (turn), a higher floor"
    );
    // scan ↔ turn is also a circle.
    assert_eq!(
        errors[1],
        "circle between modules scan, turn: scan → turn → scan (src/scan.rs:5 `crate::turn::run`; src/turn.rs:1 `crate::scan::lines`)"
    );
    // Without the upward call the tree holds.
    let holds: Vec<(String, String)> = tree.iter().map(|(f, t)| (f.clone(), t.replace("    crate::turn::run(s);\n", ""))).collect();
    assert_eq!(check(&holds), Vec::<String>::new());
}

/// The test of the test: a circle on one floor, and one between the parts of a module, fail; a
/// part's use of its parent's items is no circle.
#[test]
fn the_checker_fails_on_a_circle() {
    let tree = files(&[
        ("lib.rs", "mod pair;\nmod heading;\nmod native;\n"),
        ("pair/mod.rs", "mod clean;\nuse crate::heading::{self, Segment};\npub struct Block;\n"),
        ("pair/clean.rs", "use super::Block;\n"),
        ("heading.rs", "pub struct Segment;\nfn f() -> crate::pair::Block { todo!() }\n"),
        ("native/mod.rs", "mod compile;\nmod element;\npub struct Call;\nuse compile::Markers;\n"),
        ("native/compile.rs", "pub struct Markers;\nfn g() { super::element::boundary(); }\n"),
        ("native/element.rs", "use super::compile::{Markers, Names};\nuse super::Call;\npub fn boundary() {}\n"),
    ]);
    let errors = check(&tree);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        errors[0],
        "circle between modules heading, pair: heading → pair → heading \
         (src/heading.rs:2 `crate::pair::Block`; src/pair/mod.rs:2 `crate::heading::{self, Segment}`)"
    );
    assert_eq!(
        errors[1],
        "circle between the parts native::compile, native::element: native::compile → native::element → native::compile \
         (src/native/compile.rs:2 `super::element::boundary`; src/native/element.rs:1 `super::compile::{Markers, Names}`)"
    );
    // Without the part's reach into its sibling, only the circle between modules is left.
    let fixed: Vec<(String, String)> =
        tree.iter().map(|(f, t)| (f.clone(), t.replace("fn g() { super::element::boundary(); }\n", ""))).collect();
    assert_eq!(check(&fixed), errors[..1].to_vec());
}

/// A module on no floor is named; the binary's files and a test file brought in by
/// `#[cfg(test)] #[path = "…"] mod` are not read.
#[test]
fn the_checker_names_a_module_on_no_floor() {
    let tree = files(&[
        ("lib.rs", "mod work;\nmod extra;\n"),
        ("work.rs", "#[cfg(test)]\n#[path = \"work_tests.rs\"]\nmod tests;\n"),
        ("work_tests.rs", "use crate::turn::run;\n"),
        ("extra.rs", ""),
        ("main.rs", "use crate::batch::run;\n"),
    ]);
    assert_eq!(check(&tree), vec!["src/: module `extra` is on no floor: add it to FLOORS in tests/layers.rs".to_string()]);
}
