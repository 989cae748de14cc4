//! Fences and their pairing (SPEC §2 canonical statement form, §3 lexical elements, §8 literal
//! programs), each test written from its rule's sentence with its own inputs.

mod spec_util;

use std::io::Write;
use std::process::{Command, Stdio};

use plurnk_parser::{Entry, ParseOptions};
use serde_json::Value;
use spec_util::*;

fn with_executors(list: &[&str]) -> ParseOptions {
    ParseOptions::default().with_executors(list.iter().copied())
}

fn cli(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plurnk-parser"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

/// §fence-heading-in-body: known executors are `sh` plus what the host names, so a host list
/// without `sh`, even an empty one, never makes ```` ```sh ```` unknown: in the library, in
/// `--jsonl` and on the command line.
#[test]
fn fence_heading_in_body_sh_is_known_whatever_the_host_names() {
    let input = "Listing the build dir.\n```sh\nls -la target/ | wc -l\n```\n";
    for list in [&[][..], &["python3"], &["deno", "Node"]] {
        let v = run_with(Entry::Parse, input, with_executors(list));
        assert_eq!(ops(&v), ["sh"], "{list:?}");
        assert_eq!(bodies(&v), [Some("ls -la target/ | wc -l".to_string())]);
    }
    // A host's own executor is known beside `sh`; a name nobody registered is still prose.
    let v = run_with(Entry::Parse, "```python3\nprint(1)\n```\n```ruby\nputs 1\n```\n```sh\ntrue\n```", with_executors(&["python3"]));
    assert_eq!(ops(&v), ["python3", "sh"]);
    // --jsonl, with an empty list.
    let req = serde_json::json!({"id": "x", "entry": "parse", "input": input, "options": {"executors": []}});
    let out: Value = serde_json::from_str(cli(&["--jsonl"], &format!("{req}\n")).trim()).unwrap();
    assert_eq!(ops(&out["result"]), ["sh"]);
    // The command line, with a list that leaves `sh` out.
    let out: Value = serde_json::from_str(&cli(&["--executors", "python3", "--compact"], input)).unwrap();
    assert_eq!(ops(&out), ["sh"]);
}

/// §section-boundary: every statement is one backtick block whose header is one physical line;
/// a closer is shown by convention and never demanded.
#[test]
fn section_boundary_one_block_per_statement_closer_never_demanded() {
    let v = parse("```NOTE\nfirst thought\n```\n```NOTE <!-- second -->\nno closer after this");
    assert_eq!(ops(&v), ["NOTE", "NOTE"]);
    assert_eq!(bodies(&v), [Some("first thought".to_string()), Some("no closer after this".to_string())]);
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
}

/// §fence-closer: a block opened with N backticks closes at a line of at least N backticks and
/// horizontal whitespace only, within three spaces; a shorter fence is body.
#[test]
fn fence_closer_at_least_n_backticks_alone_within_three_spaces() {
    let v = parse("````EDIT (CHANGELOG.md)\n## 1.2\n```\n   ````` \t\n```NOTE\nafter\n```");
    assert_eq!(ops(&v), ["EDIT CHANGELOG.md", "NOTE"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("## 1.2\n```"));
    // Four spaces: not a closer; the block runs on to the next heading.
    let v = parse("```EDIT (x.txt)\nline\n    ```\n```NOTE\nn\n```");
    assert_eq!(bodies(&v)[0].as_deref(), Some("line\n    ```"));
}

/// §balanced-fences: a nested block ends at its first valid closer, as a CommonMark code block
/// does: a tilde fence inside a labeled block is that block's content, so the message's own
/// wider closer closes the message and is never written into it.
#[test]
fn balanced_fences_a_nested_block_ends_at_its_first_valid_closer() {
    let input = "````SEND\nAdd this to the README:\n```md\n~~~\n~~~\n````\n```NOTE\nasked for the README change\n```\n";
    let v = parse(input);
    assert_eq!(ops(&v), ["SEND", "NOTE"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("Add this to the README:\n```md\n~~~\n~~~"));
    // §8: the inner shell example is EDIT content, not an execution.
    let v = parse("````EDIT (README.md) <1,-1>\nRun the tests:\n\n```sh\ncargo test\n```\n````");
    assert_eq!(ops(&v), ["EDIT README.md"]);
    assert_eq!(bodies(&v)[0].as_deref(), Some("Run the tests:\n\n```sh\ncargo test\n```"));
}

/// §pairing-algorithm "Closers": inside a quotation the first valid closer closes: a wider
/// labeled fence there is the quotation's content and opens nothing, so an excerpt cut short
/// ends at its closer and the operation after it runs.
#[test]
fn pairing_algorithm_a_quotation_ends_at_its_first_valid_closer() {
    let input = "Here is the excerpt:\n```markdown\n## Install\n````bash\npip install tool\n```\n```READ (README.md)\n```\n";
    let v = parse(input);
    assert_eq!(ops(&v), ["READ README.md"]);
    assert_eq!(text(&v), "Here is the excerpt:\n```markdown\n## Install\n````bash\npip install tool\n```\n");
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
}

/// §operation-fences: three or more backticks naming an operation open it, and no width draws a
/// receipt.
#[test]
fn operation_fences_any_width_from_three_opens_without_a_receipt() {
    let v = parse("```NOTE\na\n```\n`````NOTE\nb\n`````\n``NOTE\nc\n``");
    assert_eq!(ops(&v), ["NOTE", "NOTE"]);
    assert!(errors(&v).is_empty());
    assert!(text(&v).contains("``NOTE"));
}

/// §closer-fallback: a block that ends at a heading or at the end of the input has no closer of
/// its own; its body is the whole span less one terminating line ending, with no diagnostic.
#[test]
fn closer_fallback_a_block_ending_at_a_heading_keeps_its_span() {
    let v = parse("```EDIT (a.txt)\nalpha\n\n```EDIT (b.txt)\nbeta\r\n");
    assert_eq!(bodies(&v), [Some("alpha\n".to_string()), Some("beta".to_string())]);
    assert!(errors(&v).is_empty());
}

/// §fence-boundary, §indented-fences: a fence line indented four spaces or by a tab is body in a
/// block and prose outside one; within three spaces it opens.
#[test]
fn indented_fences_four_spaces_or_a_tab_are_literal() {
    let v = parse("    ```NOTE\n    x\n    ```\n\t```NOTE\n   ```NOTE\ny\n   ```");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(bodies(&v), [Some("y".to_string())]);
    assert_eq!(layout(&v)[0], "T1:0");
}

/// §inline-chain: prose after a closer on a heading line ends the chain: a later opener on that
/// line does not open (the heading's own text reads as it would without the closer).
#[test]
fn inline_chain_prose_after_a_closer_ends_the_chain() {
    let v = parse("```READ (src/cache.rs)``` and then ```READ (src/store.rs)```\n");
    assert_eq!(ops(&v), ["READ src/cache.rs"]);
    // A slot or a sigil matcher after the closer is the heading's own: the chain goes on.
    let v = parse("```FIND (logs/**) <1,5>``` ```READ (b.md)```\n```READ (c.md)``` /panic/ ```READ (d.md)```");
    assert_eq!(ops(&v), ["FIND logs/**", "READ b.md", "READ c.md", "READ d.md"]);
}

/// §inline-chain, §transparent-inline-closer: a closer glued to the next opener, six backticks
/// in a row, closes the first statement and opens the next.
#[test]
fn inline_chain_a_closer_glued_to_the_next_opener_closes_and_opens() {
    let v = parse("```READ (a.md)``````READ (b.md) <2,9>```");
    assert_eq!(ops(&v), ["READ a.md", "READ b.md"]);
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
    assert_eq!(layout(&v), ["S1:0", "S1:14"]);
    // Four-wide pairs glue the same way.
    let v = parse("````NOTE```````` ````WAIT````\r\n");
    assert_eq!(ops(&v), ["NOTE", "WAIT"]);
}

/// §transparent-inline-closer: a closer mid-heading followed by more of that heading is read as
/// if it were not written.
#[test]
fn transparent_inline_closer_slots_after_the_closer_are_the_headings() {
    let v = parse("```READ (notes/plan.md)``` <3,7> <!-- the plan -->");
    let s = &v["items"][0]["statement"];
    assert_eq!(s["lineMarker"]["marks"], serde_json::json!([3, 7]));
    assert_eq!(s["aside"], "the plan");
}

/// §forgotten-tag "draws nothing": a bare fence directly under a line carrying a fence run is an
/// orphaned closer and quotes nothing, whether the line is prose with inline code or a heading
/// that closes on its own line.
#[test]
fn forgotten_tag_a_bare_fence_under_a_fence_run_is_an_orphan() {
    let v = parse("```READ (config.yml)```\n```\n```EDIT (config.yml) <2>\nport: 8080\n```\n");
    assert_eq!(ops(&v), ["READ config.yml", "EDIT config.yml"]);
    assert!(errors(&v).is_empty(), "{:?}", errors(&v));
    let v = parse("Try ```READ (x)``` first.\n```\n```NOTE\nnoted\n```");
    assert_eq!(ops(&v), ["NOTE"]);
}

/// §forgotten-tag: at the top level a bare fence whose next line is an operation heading opens
/// it, with one receipt saying it ran.
#[test]
fn forgotten_tag_the_line_under_a_bare_fence_is_the_operation() {
    let v = parse("```\nREAD (docs/guide.md) <1,30>\n```");
    assert_eq!(ops(&v), ["READ docs/guide.md"]);
    assert_eq!(errors(&v).len(), 1);
    assert!(errors(&v)[0].1.starts_with("`READ` ran"));
}

/// §quotation: a fence that opens no operation quotes to its matching closer; an operation in an
/// unlabeled block draws one warning that it was shown, not run; in a labeled one, nothing.
#[test]
fn quotation_an_operation_in_a_code_block_is_shown_not_run() {
    let v = parse("```\n```KILL (sh:///server)\n```\n\n~~~json\n```NOTE\n~~~\n```NOTE\nreal\n```");
    assert_eq!(ops(&v), ["NOTE"]);
    assert_eq!(errors(&v), [("warning".to_string(), "`KILL` inside a code block was shown, not run.".to_string())]);
}

/// §interstitial-fence: only a native operation or a known executor opens a block; an unknown
/// tag with an invocation slot is named, and its block quotes.
#[test]
fn interstitial_fence_an_unknown_tag_quotes_and_is_named() {
    let v = parse("```gitea (list_issues)\n```NOTE\nnot run\n```\n");
    assert!(ops(&v).is_empty());
    assert!(errors(&v).iter().any(|e| e.1 == "`gitea` is not an operation or a known executor here."));
}

/// §closer-aside: a closing fence followed by one aside and nothing else is the closer; the
/// aside is outside text. Any other text after it keeps the line in the body.
#[test]
fn closer_aside_is_the_closer_and_its_aside_outside_text() {
    let v = parse("```EDIT (app.py)\nx = 1\n``` <!-- set x -->\n```NOTE\nafter\n```");
    assert_eq!(bodies(&v), [Some("x = 1".to_string()), Some("after".to_string())]);
    assert!(text(&v).contains("<!-- set x -->"));
}

/// §executor-case: an executor tag in any case opens it, and the statement carries the
/// registered spelling.
#[test]
fn executor_case_a_tag_in_any_case_names_the_registered_spelling() {
    let v = run_with(Entry::Parse, "```SH\necho hi\n```\n```PyThOn3\n1\n```", with_executors(&["python3"]));
    assert_eq!(ops(&v), ["sh", "python3"]);
}

/// §executor-js-spelling: when `node` is registered and `js` is not, `js` names `node`; absent
/// `node`, `js` is prose; a registered `js` keeps its own identity.
#[test]
fn executor_js_spelling_names_node_only_when_node_is_registered() {
    let input = "```js\nconsole.log(1)\n```";
    assert_eq!(ops(&run_with(Entry::Parse, input, with_executors(&["node"]))), ["node"]);
    assert!(ops(&run_with(Entry::Parse, input, with_executors(&["python3"]))).is_empty());
    assert_eq!(ops(&run_with(Entry::Parse, input, with_executors(&["node", "js"]))), ["js"]);
}
