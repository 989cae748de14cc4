//! Native tool-call markup (§native-tool-calls, §native-tool-call-receipt): one test per family
//! in `rules/native/`, written from the markup each family really emits, and one per row of the
//! call-piece table (`rules/native/parameters.yaml`). A reading is checked against the fenced
//! statement it stands for: the same statements, no diagnostic (#760), and the positions the
//! rewrite keeps.

use plurnk_parser::__private::native;
use plurnk_parser::__private::scan::Registry;
use plurnk_parser::ParseOptions;
use plurnk_parser::Rules;
use serde_json::Value;

fn parse_with(input: &str, executors: &[&str]) -> Value {
    plurnk_parser::parse(input, &ParseOptions::default().with_executors(executors.iter().copied())).to_json()
}

fn parse(input: &str) -> Value {
    parse_with(input, &["sh", "node"])
}

fn items(r: &Value, kind: &str) -> Vec<Value> {
    r["items"].as_array().unwrap().iter().filter(|i| i["kind"] == kind).cloned().collect()
}

fn statements(r: &Value) -> Vec<Value> {
    items(r, "statement").into_iter().map(|i| i["statement"].clone()).collect()
}

fn without_position(mut s: Value) -> Value {
    s.as_object_mut().unwrap().remove("position");
    s
}

fn lines(r: &Value) -> Vec<u64> {
    statements(r).iter().map(|s| s["position"]["line"].as_u64().unwrap()).collect()
}

/// `native` reads as `fenced`: the same statements, and no diagnostic mentions the reading.
#[track_caller]
fn reads_as_with(native: &str, fenced: &str, executors: &[&str]) -> Value {
    let got = parse_with(native, executors);
    let want = parse_with(fenced, executors);
    let g: Vec<Value> = statements(&got).into_iter().map(without_position).collect();
    let w: Vec<Value> = statements(&want).into_iter().map(without_position).collect();
    assert!(!w.is_empty(), "the fenced form parses: {want}");
    assert_eq!(g, w, "\nnative: {native}\nresult: {got}");
    assert!(items(&got, "error").is_empty(), "a successful reading draws no diagnostic: {got}");
    got
}

#[track_caller]
fn reads_as(native: &str, fenced: &str) -> Value {
    reads_as_with(native, fenced, &["sh", "node"])
}

/// `native` stays as it was: no statement, and the receipt (first error item) says `message`.
#[track_caller]
fn refused(native: &str, message: &str) {
    let got = parse(native);
    assert!(statements(&got).is_empty(), "left as it was: {got}");
    let errors = items(&got, "error");
    assert_eq!(errors[0]["error"]["message"], message, "{got}");
    assert_eq!(errors[0]["error"]["severity"], "warning");
    assert_eq!(errors[0]["error"]["operationOmitted"], true);
}

// ── Families ───────────────────────────────────────────────────────────────────────────────

/// §native-tool-calls, DeepSeek: the DSML section DeepSeek writes in plurnk drills (doubled
/// fullwidth bars, a space before the element name, `string` attributes).
#[test]
fn native_tool_calls_deepseek_dsml_section() {
    let got = reads_as(
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"READ\">\n<｜｜DSML｜｜ parameter name=\"path\" string=\"true\">Engine.ts</｜｜DSML｜｜ parameter>\n<｜｜DSML｜｜ parameter name=\"scope\" string=\"true\">440,470</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "```READ (Engine.ts) <440,470>\n```",
    );
    assert_eq!(lines(&got), [2], "the heading takes the invoke's line");
}

/// §native-tool-calls, DeepSeek: V3.2's own DSML (`<｜DSML｜function_calls>`, one bar, no space).
#[test]
fn native_tool_calls_deepseek_dsml_v32_markup() {
    reads_as(
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"sh\">\n<｜DSML｜parameter name=\"command\" string=\"true\">ls -la</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        "```sh\nls -la\n```",
    );
}

/// §native-tool-calls, DeepSeek: `<｜｜DSML｜｜tool_calls>` spelled without spaces.
#[test]
fn native_tool_calls_deepseek_dsml_tool_calls_without_spaces() {
    reads_as(
        "<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name=\"READ\">\n<｜｜DSML｜｜parameter name=\"path\">a.md</｜｜DSML｜｜parameter>\n</｜｜DSML｜｜invoke>\n</｜｜DSML｜｜tool_calls>",
        "```READ (a.md)\n```",
    );
}

/// §native-tool-calls, DeepSeek: the whole heading in the invoke's name, an unterminated
/// `name="sh` with the script below, and `parameter` tags around the content as debris.
#[test]
fn native_tool_calls_deepseek_dsml_heading_in_name() {
    let native = "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"NOTE\">\nChecking the converter.\n</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n<｜｜DSML｜｜ invoke name=\"FIND (docs/**) /Http404/ <!-- docs mentions --></｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n<｜｜DSML｜｜ invoke name=\"sh\ngit status --short\n</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>";
    let got = reads_as(
        native,
        "```NOTE\nChecking the converter.\n```\n\n```FIND (docs/**) /Http404/ <!-- docs mentions -->\n```\n\n```sh\ngit status --short\n```",
    );
    assert_eq!(lines(&got), [2, 6, 8]);
}

/// §native-tool-calls, DeepSeek: slots written after a closed name, a missing `</invoke>` and
/// section end, a stray closing fence, and the next section's `</parameter>` debris.
#[test]
fn native_tool_calls_deepseek_dsml_slots_after_name() {
    let got = reads_as(
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"sh\" [{\"cwd\":\".\"}] <!-- rebuild and re-run -->\ngo build . && echo ROOT_OK\n```\n\n<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"WAIT\" <!-- await the build -->\n</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "```sh [{\"cwd\":\".\"}] <!-- rebuild and re-run -->\ngo build . && echo ROOT_OK\n```\n\n```WAIT <!-- await the build -->\n```",
    );
    assert_eq!(lines(&got), [2, 7]);
}

/// §native-tool-calls, DeepSeek: a complete JSON object inside a bare invoke supplies its
/// arguments; a copied facts line under the heading and a `comment` attribute.
#[test]
fn native_tool_calls_deepseek_dsml_json_content_and_facts_line() {
    reads_as(
        "<｜｜DSML｜｜ invoke name=\"NOTE\">\n{\n\"content\": \"STATE: fix applied.\"\n}\n</｜｜DSML｜｜ invoke>",
        "```NOTE\nSTATE: fix applied.\n```",
    );
    reads_as(
        "<｜｜DSML｜｜ invoke name=\"NOTE\" comment=\"state\">\n{\"lines\":6}\nThe fix holds.\n</｜｜DSML｜｜ invoke>",
        "```NOTE <!-- state -->\nThe fix holds.\n```",
    );
}

/// §native-tool-calls, DeepSeek V3 and R1: `tool▁calls▁begin` tokens, `function<｜tool▁sep｜>NAME`
/// and a ```json fenced argument object.
#[test]
fn native_tool_calls_deepseek_v3_tokens() {
    reads_as(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>READ\n```json\n{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "```READ (src/lib.rs) <1,40>\n```",
    );
}

/// §native-tool-calls, DeepSeek V3.1: `NAME<｜tool▁sep｜>{…}` with no type and no fence.
#[test]
fn native_tool_calls_deepseek_v31_tokens() {
    reads_as(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>sh<｜tool▁sep｜>{\"command\": \"cargo test\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>WAIT<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "```sh\ncargo test\n```\n```WAIT\n```",
    );
}

/// §native-tool-calls, Anthropic-style: a `<function_calls>` block of `invoke` elements.
#[test]
fn native_tool_calls_anthropic_function_calls() {
    let got = reads_as(
        "<function_calls>\n<invoke name=\"NOTE\">\n<parameter name=\"body\">Root cause found.</parameter>\n</invoke>\n<invoke name=\"sh\">\n<parameter name=\"command\">git status --short</parameter>\n</invoke>\n</function_calls>",
        "```NOTE\nRoot cause found.\n```\n\n```sh\ngit status --short\n```",
    );
    assert_eq!(lines(&got), [2, 5]);
}

/// §native-tool-calls, Anthropic-style: bare `invoke` elements use the same slots.
#[test]
fn native_tool_calls_anthropic_bare_invoke() {
    reads_as("<invoke name=\"READ\">\n<parameter name=\"file_path\">a.md</parameter>\n</invoke>", "```READ (a.md)\n```");
}

/// §native-tool-calls: MiniMax-M2's `<minimax:tool_call>` section of `invoke` elements.
#[test]
fn native_tool_calls_minimax() {
    reads_as(
        "<minimax:tool_call>\n<invoke name=\"FIND\">\n<parameter name=\"path\">src/**</parameter>\n<parameter name=\"pattern\">fn main</parameter>\n</invoke>\n</minimax:tool_call>",
        "```FIND (src/**) [{\"pattern\":\"fn main\"}]\n```",
    );
}

/// §native-tool-calls, the `<tool_call>` family: Qwen3-Coder and MiMo write `<function=NAME>`
/// with `<parameter=key>` children, each value on its own lines.
#[test]
fn native_tool_calls_tool_call_qwen3_coder() {
    reads_as(
        "<tool_call>\n<function=READ>\n<parameter=path>\nsrc/lib.rs\n</parameter>\n<parameter=range>\n10,20\n</parameter>\n</function>\n</tool_call>",
        "```READ (src/lib.rs) <10,20>\n```",
    );
    let got = reads_as(
        "<tool_call><function=READ><parameter=file_path>/a/resolvers.py</parameter></function></tool_call><tool_call><function=READ><parameter=file_path>/a/exception.py</parameter></function></tool_call>",
        "```READ (/a/resolvers.py)\n```\n```READ (/a/exception.py)\n```",
    );
    assert_eq!(lines(&got), [1, 3], "an inline block grows to its fences");
}

/// §native-tool-calls, the `<tool_call>` family: Hermes and kin write a JSON object with `name`
/// and `arguments`.
#[test]
fn native_tool_calls_tool_call_hermes_json() {
    let got = reads_as(
        "Let me look.\n<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}\n</tool_call>\nThen decide.",
        "```READ (a.md)\n```",
    );
    assert_eq!(lines(&got), [2]);
    let text: Vec<String> = items(&got, "text").iter().map(|t| t["content"].as_str().unwrap().to_string()).collect();
    // §response-text: the text beside the markup is the source's own, at its source position.
    assert_eq!(text, ["Let me look.\n", "Then decide."], "outside text is the source's");
}

/// §native-tool-calls, the `<tool_call>` family: GLM-4.5 writes the name, then one
/// `<arg_key>`/`<arg_value>` pair per line.
#[test]
fn native_tool_calls_tool_call_glm45_arg_pairs() {
    reads_as(
        "<tool_call>FIND\n<arg_key>path</arg_key>\n<arg_value>django/urls/*.py</arg_value>\n<arg_key>pattern</arg_key>\n<arg_value>def resolve</arg_value>\n</tool_call>",
        "```FIND (django/urls/*.py) [{\"pattern\":\"def resolve\"}]\n```",
    );
}

/// §native-tool-calls, the `<tool_call>` family: GLM-4.6 and 4.7 write the pairs with no newlines.
#[test]
fn native_tool_calls_tool_call_glm47_arg_pairs() {
    reads_as(
        "<tool_call>READ<arg_key>path</arg_key><arg_value>a.md</arg_value><arg_key>lines</arg_key><arg_value>[3, 9]</arg_value></tool_call>",
        "```READ (a.md) <3,9>\n```",
    );
}

/// §native-tool-calls, Llama: a bare `<function=NAME>` element around a JSON argument object.
#[test]
fn native_tool_calls_llama_function_element() {
    reads_as("<function=READ>{\"path\": \"a.md\", \"lines\": \"1,5\"}</function>", "```READ (a.md) <1,5>\n```");
}

/// §native-tool-calls, Llama: a `<|python_tag|>` JSON object with `parameters`, `;` between calls.
#[test]
fn native_tool_calls_llama_python_tag() {
    reads_as(
        "<|python_tag|>{\"name\": \"READ\", \"parameters\": {\"path\": \"django/views/debug.py\", \"range\": \"455,523\"}}<|eom_id|>",
        "```READ (django/views/debug.py) <455,523>\n```",
    );
    reads_as(
        "<|python_tag|>{\"name\": \"READ\", \"parameters\": {\"path\": \"a.md\"}}; {\"name\": \"READ\", \"arguments\": {\"path\": \"b.md\"}}<|eot_id|>",
        "```READ (a.md)\n```\n```READ (b.md)\n```",
    );
}

/// §native-tool-calls, Mistral: a `[TOOL_CALLS]` JSON array.
#[test]
fn native_tool_calls_mistral_array() {
    let got = reads_as(
        "[TOOL_CALLS][{\"name\": \"READ\", \"arguments\": {\"path\": \"django/views/debug.py\"}}, {\"name\": \"WAIT\", \"arguments\": {}}]",
        "```READ (django/views/debug.py)\n```\n```WAIT\n```",
    );
    assert_eq!(lines(&got), [1, 3]);
}

/// §native-tool-calls, Mistral: the v11 `[TOOL_CALLS]NAME[ARGS]{…}` form, and v13's `[CALL_ID]`.
#[test]
fn native_tool_calls_mistral_v11_args() {
    reads_as(
        "[TOOL_CALLS]READ[ARGS]{\"path\": \"a.md\"}[TOOL_CALLS]sh[CALL_ID]a1b2c3d4e[ARGS]{\"command\": \"ls\"}",
        "```READ (a.md)\n```\n```sh\nls\n```",
    );
}

/// §native-tool-calls, Kimi: a tool-calls section (both spellings) of `functions.NAME:IDX` calls.
#[test]
fn native_tool_calls_kimi_k2_sections() {
    reads_as(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"django/views/debug.py\"}<|tool_call_end|><|tool_call_begin|>functions.sh:1<|tool_call_argument_begin|>{\"command\": \"python3 /tmp/repro.py\"}<|tool_call_end|><|tool_calls_section_end|>",
        "```READ (django/views/debug.py)\n```\n```sh\npython3 /tmp/repro.py\n```",
    );
    reads_as(
        "<|tool_call_section_begin|>\n<|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"a.md\"}<|tool_call_end|>\n<|tool_call_section_end|>",
        "```READ (a.md)\n```",
    );
}

/// §native-tool-calls, Kimi: a call written without its section.
#[test]
fn native_tool_calls_kimi_k2_bare_call() {
    reads_as("<|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{\"command\": \"ls\"}<|tool_call_end|>", "```sh\nls\n```");
}

/// §native-tool-calls, Qwen's own shapes: a flat JSON call whose operation is the value of an
/// `op`, `action` or `cmd` key in any case.
#[test]
fn native_tool_calls_qwen_flat_json() {
    reads_as("{\"op\": \"READ\", \"path\": \"a.md\", \"range\": \"1,9\"}", "```READ (a.md) <1,9>\n```");
    reads_as("{\"Action\": \"note\", \"text\": \"Done reading.\"}", "```NOTE\nDone reading.\n```");
}

/// §native-tool-calls, Qwen's own shapes: an XML element named by the operation.
#[test]
fn native_tool_calls_qwen_operation_elements() {
    reads_as("<NOTE>The parser reads it.</NOTE>", "```NOTE\nThe parser reads it.\n```");
    reads_as("<READ (src/a.rs) <1,3></READ>", "```READ (src/a.rs) <1,3>\n```");
    reads_as("<read path=\"src/a.rs\"/>", "```READ (src/a.rs)\n```");
}

/// §native-tool-calls, Qwen's own shapes: a generic `op` element or function.
#[test]
fn native_tool_calls_qwen_generic_op() {
    reads_as("<op op=\"READ\" path=\"a.md\"/>", "```READ (a.md)\n```");
    reads_as("<ops>\n<op verb=\"READ\" path=\"a.md\"/>\n<op verb=\"WAIT\"/>\n</ops>", "```READ (a.md)\n```\n```WAIT\n```");
    reads_as("<op=READ (a.md) <2,4>></op>", "```READ (a.md) <2,4>\n```");
    reads_as("<function=OP name=\"READ\" path=\"a.md\"></function>", "```READ (a.md)\n```");
    reads_as("<function=OP>{\"op\": \"READ\", \"path\": \"a.md\"}</function>", "```READ (a.md)\n```");
    reads_as("<function=OP>READ (a.md) <1,2></function>", "```READ (a.md) <1,2>\n```");
}

/// §native-tool-calls, Qwen's own shapes: a plurnk heading written as the call's text.
#[test]
fn native_tool_calls_qwen_heading_as_call_text() {
    reads_as("<tool_call>READ (a.py) <60,120>\n</tool_call>", "```READ (a.py) <60,120>\n```");
    reads_as("<tool_call>=READ (a.py)</tool_call>", "```READ (a.py)\n```");
    reads_as(
        "<tool_call><function=NOTE><resolve Http404 in to_python></function></tool_call><tool_call><function=READ (django/urls/resolvers.py) <1,-1></function></tool_call>",
        "```NOTE\n<resolve Http404 in to_python>\n```\n```READ (django/urls/resolvers.py) <1,-1>\n```",
    );
}

// ── The call-piece table ───────────────────────────────────────────────────────────────────

fn hermes(name: &str, args: &str) -> String {
    format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": {args}}}\n</tool_call>")
}

/// §native-tool-calls, call piece `path`/`target`/`file_path`/`file`/`resource`/`uri`: the target.
#[test]
fn native_tool_calls_piece_target() {
    for key in ["path", "target", "file_path", "file", "resource", "uri", "filePath"] {
        reads_as(&hermes("READ", &format!("{{\"{key}\": \"worker:///notes.md\"}}")), "```READ (worker:///notes.md)\n```");
    }
}

/// §native-tool-calls, call piece `scope`/`range`/`lines`, a JSON array or a `{start, end}` object.
#[test]
fn native_tool_calls_piece_scope() {
    for (args, scope) in [
        ("\"scope\": \"1,20\"", "<1,20>"),
        ("\"range\": \"<100,-1>\"", "<100,-1>"),
        ("\"lines\": [500, 530]", "<500,530>"),
        ("\"scope\": {\"start\": 3, \"end\": 7}", "<3,7>"),
    ] {
        reads_as(&hermes("READ", &format!("{{\"path\": \"a.md\", {args}}}")), &format!("```READ (a.md) {scope}\n```"));
    }
}

/// §native-tool-calls, call piece `start`/`end` written apart.
#[test]
fn native_tool_calls_piece_start_end() {
    reads_as(
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"READ\">\n<｜｜DSML｜｜ parameter name=\"path\" string=\"true\">ops://daeb2d14/1/25</｜｜DSML｜｜ parameter>\n<｜｜DSML｜｜ parameter name=\"start\" string=\"false\">1</｜｜DSML｜｜ parameter>\n<｜｜DSML｜｜ parameter name=\"end\" string=\"false\">-1</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "```READ (ops://daeb2d14/1/25) <1,-1>\n```",
    );
}

/// §native-tool-calls, call piece `offset`/`limit`: a first line and a count.
#[test]
fn native_tool_calls_piece_offset_limit() {
    reads_as(
        &hermes("READ", "{\"file_path\": \"django/views/debug.py\", \"offset\": 455, \"limit\": 20}"),
        "```READ (django/views/debug.py) <455,474>\n```",
    );
}

/// §native-tool-calls, call piece: plurnk slots written after the name are kept, and a trailing
/// scope's own bracket may close the tag.
#[test]
fn native_tool_calls_piece_slots_after_name() {
    reads_as("<function=READ (src/a.rs) <1,-1></function>", "```READ (src/a.rs) <1,-1>\n```");
    reads_as("<invoke name=\"READ (src/a.rs)\">\n<parameter name=\"scope\">5,9</parameter>\n</invoke>", "```READ (src/a.rs) <5,9>\n```");
}

/// §native-tool-calls, call piece `pattern`/`regex`/`query`: a matcher option.
#[test]
fn native_tool_calls_piece_matcher() {
    for key in ["pattern", "regex", "query"] {
        reads_as(
            &hermes("FIND", &format!("{{\"path\": \"src/**\", \"{key}\": \"fn main\"}}")),
            "```FIND (src/**) [{\"pattern\":\"fn main\"}]\n```",
        );
    }
}

/// §native-tool-calls, call piece `aside`, `reason`, `description`: the aside.
#[test]
fn native_tool_calls_piece_aside() {
    for key in ["aside", "reason", "description"] {
        reads_as(&hermes("READ", &format!("{{\"path\": \"a.md\", \"{key}\": \"the spec\"}}")), "```READ (a.md) <!-- the spec -->\n```");
    }
}

/// §native-tool-calls, call piece `body`/`content`/`command`/`text`/`input` or plain text inside
/// the call: the body, an executor's program.
#[test]
fn native_tool_calls_piece_body() {
    for key in ["body", "content", "text", "input"] {
        reads_as(&hermes("NOTE", &format!("{{\"{key}\": \"Root cause found.\"}}")), "```NOTE\nRoot cause found.\n```");
    }
    reads_as(&hermes("sh", "{\"command\": \"ls -la\"}"), "```sh\nls -la\n```");
    reads_as(&hermes("node", "{\"input\": \"console.log(1)\"}"), "```node\nconsole.log(1)\n```");
    reads_as("<invoke name=\"NOTE\">\nPlain text is the body.\n</invoke>", "```NOTE\nPlain text is the body.\n```");
}

/// §native-tool-calls, call piece: an executor's unknown parameter is one of its options, and
/// `bash` names `sh` when `sh` is the registered shell.
#[test]
fn native_tool_calls_piece_executor_options() {
    reads_as(
        "<invoke name=\"sh\">\n<parameter name=\"command\">cargo build</parameter>\n<parameter name=\"maxTokens\">2500</parameter>\n</invoke>",
        "```sh [{\"maxTokens\":\"2500\"}]\ncargo build\n```",
    );
    reads_as(&hermes("bash", "{\"command\": \"ls\", \"description\": \"list\"}"), "```sh <!-- list -->\nls\n```");
    // A registered `bash` is itself.
    reads_as_with(&hermes("bash", "{\"command\": \"ls\"}"), "```bash\nls\n```", &["sh", "bash"]);
}

/// §native-tool-calls, call piece: closing tags left over from another family after a call are
/// markup noise.
#[test]
fn native_tool_calls_piece_stray_closers() {
    reads_as(
        "<｜｜DSML｜｜ invoke name=\"READ\">\n<｜｜DSML｜｜ parameter name=\"path\">a.md</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>\n</parameter>\n</>",
        "```READ (a.md)\n```",
    );
    reads_as(
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"WAIT\">\n<parameter name=\"path\">worker://codename-lookup</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "```WAIT (worker://codename-lookup)\n```",
    );
}

// ── The reading's rules and the receipt ────────────────────────────────────────────────────

/// §native-tool-call-receipt: an unknown name leaves the emission as it was.
#[test]
fn native_tool_call_receipt_unknown_name() {
    refused(
        "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}}\n</tool_call>",
        "`<tool_call>` is tool-call markup and was not executed. Use three backticks and the operation with its target, such as `READ (path)`, on the opening line.",
    );
    refused(
        "<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"36\">\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
        "`<｜｜DSML｜｜ calls>` is tool-call markup and was not executed. Use three backticks and the operation with its target, such as `READ (path)`, on the opening line.",
    );
}

/// §native-tool-call-receipt: an unknown parameter of an operation leaves the emission as it was,
/// and one unmappable call keeps every call of the emission unread.
#[test]
fn native_tool_call_receipt_unknown_parameter() {
    refused(
        "[TOOL_CALLS][{\"name\": \"READ\", \"arguments\": {\"encoding\": \"utf8\"}}]",
        "`[TOOL_CALLS]` is tool-call markup and was not executed. Use three backticks and `READ (path)` on the opening line.",
    );
    refused(
        &hermes("READ", "{\"path\": \"a.md\", \"limit\": 5}"),
        "`<tool_call>` is tool-call markup and was not executed. Use three backticks and `READ (a.md)` on the opening line.",
    );
    refused(
        "<tool_call>{\"name\": \"NOTE\", \"arguments\": {\"text\": \"x\"}}</tool_call>\n<tool_call>{\"name\": \"READ\", \"arguments\": {\"height\": 3}}</tool_call>",
        "`<tool_call>` is tool-call markup and was not executed. Use three backticks and `NOTE` on the opening line, the note on the lines below it, and three backticks to close.",
    );
}

/// §native-tool-call-receipt: a FIND, READ, EDIT, COPY or MOVE naming no target.
#[test]
fn native_tool_call_receipt_missing_target() {
    refused(
        "<tool_call><function=EDIT><parameter=old_string>a</parameter><parameter=new_string>b</parameter></function></tool_call>",
        "`<tool_call>` is tool-call markup and was not executed. Use three backticks and `EDIT (path)` on the opening line.",
    );
    refused(
        "<invoke name=\"sh\">\n<parameter name=\"command\">ls</parameter>\n</invoke>\n<invoke name=\"FIND\">\n<parameter name=\"pattern\">x</parameter>\n</invoke>",
        // The first block is named, with its own fenced form.
        "`<invoke name=\"sh\">` is tool-call markup and was not executed. Use three backticks and `sh` on the opening line, the command on the lines below it, and three backticks to close.",
    );
}

/// §native-tool-calls, §quotation: markup inside a fenced code block is data.
#[test]
fn native_tool_calls_quotation_is_data() {
    let got = parse("````\n<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}\n</tool_call>\n````");
    assert!(statements(&got).is_empty());
    let errors = items(&got, "error");
    assert_eq!(errors.len(), 1, "only the no-operation diagnostic: {got}");
    // Markup after a quotation is still read.
    reads_as("```json\n{\"name\": \"x\"}\n```\n<tool_call>{\"name\": \"WAIT\", \"arguments\": {}}</tool_call>", "```WAIT\n```");
}

/// §native-tool-calls: an emission that already yields an operation is never rewritten.
#[test]
fn native_tool_calls_operation_present_is_not_rewritten() {
    let got =
        parse("````READ (a.md)\n````\n\n<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"READ\" path=\"b.md\" />\n</｜｜DSML｜｜ calls>");
    let ops: Vec<Value> = statements(&got).iter().map(|s| s["target"]["raw"].clone()).collect();
    assert_eq!(ops, ["a.md"]);
}

/// §native-tool-call-receipt: the first native block in outside text beside real operations is
/// named (the parser passes its outside-text spans to `native::receipt_in`).
#[test]
fn native_tool_call_receipt_beside_operations() {
    let rules = Rules::builtin();
    let names = ["sh".to_string()];
    let registry = Registry::new(rules, Some(&names));
    let input = "````READ (a.md)\n````\n\n<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"READ\" path=\"b.md\" />\n</｜｜DSML｜｜ calls>";
    let from = input.find("\n\n").unwrap();
    let r = native::receipt_in(input, [(from, input.len())], rules, &registry).expect("a receipt");
    assert_eq!((r.line, r.at), (3, 0));
    assert_eq!(
        r.message,
        "`<｜｜DSML｜｜ calls>` is tool-call markup and was not executed. Use three backticks and `READ (b.md)` on the opening line."
    );
    let input = "<tool_call>READ (worker://country-question.md) <1,-1>\n<tool_call>\n```BARE\nWhat is the capital of Germany?\n```";
    let r = native::receipt_in(input, [(0, input.find("```").unwrap())], rules, &registry).expect("a receipt");
    assert_eq!(
        r.message,
        "`<tool_call>` is tool-call markup and was not executed. Use three backticks and `READ (worker://country-question.md)` on the opening line."
    );
    // Outside the spans (an operation's body), markup is not an attempted call.
    assert!(native::receipt_in(input, [(0usize, 0usize); 0], rules, &registry).is_none());
}

/// §native-tool-call-receipt: a bare JSON call in outside text draws the receipt under every
/// name key a JSON family of `rules/native/` reads, after JSON values that name no call (a tool
/// result quoted in prose, which every JSON family refuses together, reading it once).
#[test]
fn native_tool_call_receipt_json_call_after_nameless_values_under_every_name_key() {
    use plurnk_parser::__private::rules::NativeForm;
    let rules = Rules::builtin();
    let registry = Registry::new(rules, None);
    let mut keys: Vec<&str> = Vec::new();
    for fam in &plurnk_parser::__private::rules::tables(rules).native {
        for b in fam.blocks.iter().filter(|b| b.start.is_empty()) {
            for f in &b.forms {
                if let NativeForm::Json(j) = f {
                    keys.extend(j.name_keys.iter().map(String::as_str));
                }
            }
        }
    }
    assert!(keys.len() >= 4, "the JSON families' name keys: {keys:?}");
    let nameless = "Result: {\"path\": \"a.md\", \"logTokens\": 41}\n{\"range\": \"1 lines\", \"names\": [\"x\"]}\n";
    for key in keys {
        let input = format!("```READ (a.md)\n```\n\n{nameless}{{\"{key}\": \"READ\", \"path\": \"b.md\"}}\nthen more prose\n");
        let from = input.find("\n\n").unwrap();
        let r = native::receipt_in(&input, [(from, input.len())], rules, &registry).unwrap_or_else(|| panic!("a receipt under {key:?}"));
        assert_eq!((r.line, r.at), (5, 0), "{key}");
        // The same values with no call after them draw none.
        let input = format!("```READ (a.md)\n```\n\n{nameless}then more prose\n");
        let from = input.find("\n\n").unwrap();
        assert!(native::receipt_in(&input, [(from, input.len())], rules, &registry).is_none(), "{key}");
    }
}

/// §native-tool-calls: a block keeps its line count, so text after it keeps its line.
#[test]
fn native_tool_calls_block_keeps_line_count() {
    let input = "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">a.md</parameter>\n<parameter name=\"lines\">1,5</parameter>\n</invoke>\n</function_calls>\nAfter the call.";
    let got = reads_as(input, "```READ (a.md) <1,5>\n```");
    assert_eq!(lines(&got), [2]);
    let rules = Rules::builtin();
    let registry = Registry::new(rules, None);
    let text = native::read(input, rules, &registry).rewritten.expect("read");
    assert_eq!(text.lines().position(|l| l == "After the call."), Some(6), "{text}");
}

/// §native-tool-calls: a call cut off by the end of the input keeps what it wrote
/// (`truncated_body`); a section whose end never comes ends after its last call (`missing_end`).
#[test]
fn native_tool_calls_recovery_flags() {
    reads_as("<tool_call>\n{\"name\": \"sh\", \"arguments\": {\"command\": \"ls -la", "```sh\nls -la\n```");
    reads_as("<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">a.md</parameter>\n</invoke>", "```READ (a.md)\n```");
}

/// §native-tool-calls: plain prose and JSON that names no call are not markup.
#[test]
fn native_tool_calls_prose_is_not_markup() {
    let got = parse("{\"op\": \"replace\", \"path\": \"/a\", \"value\": 1}\nThat is a JSON Patch.");
    assert_eq!(items(&got, "error").len(), 1, "only the no-operation diagnostic: {got}");
    let got = parse("Use an <option> element, or <invoked> text.");
    assert_eq!(items(&got, "error").len(), 1, "{got}");
}

/// §native-tool-calls: a COPY (or FIND, READ, EDIT, MOVE) whose target slot is written empty —
/// `<COPY()`, or `"path": ""` — names no target, so the emission stays as it was (found by
/// `cargo fuzz run native_read`: the element swallowed the rest of the turn as a COPY body).
#[test]
fn native_tool_calls_an_empty_target_names_no_target() {
    for input in ["<COPY()\n```\n```sh", "<READ()>\n", "{\"name\": \"READ\", \"arguments\": {\"path\": \"\"}}"] {
        let got = parse(input);
        assert!(statements(&got).iter().all(|s| s["op"] != "COPY" && s["op"] != "READ"), "read as an operation: {got}");
    }
}

/// §native-tool-calls, bare JSON: a value that closes with no quoted name key is passed over
/// without being built (a log line's `{"path": …}`), and the call after it is still read; a name
/// key spelled with an escape, or in a nested value, is still found; arrays of such values too.
#[test]
fn native_tool_calls_bare_json_prefilter_keeps_every_call() {
    reads_as(
        "{\"path\": \"a.md\", \"range\": \"1 lines\"}\n[1, {\"x\": \"}\"}]\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}",
        "```READ (a.md)\n```",
    );
    // `\u006d` is `m`: the key is `name`.
    reads_as("{\"na\\u006de\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}", "```READ (a.md)\n```");
}

/// §native-tool-calls, bare JSON: a value left open runs to the end of the input, so no later
/// value is read (the reading stays linear); one closed inside a string does not count as open.
#[test]
fn native_tool_calls_bare_json_open_value_ends_the_reading() {
    // The array opened on the first line holds the call object and never closes.
    let open = parse("{\"path\": [\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}");
    assert!(statements(&open).is_empty(), "{open}");
    // A value that fails before the end (here at `{`, where `,` or `]` belongs) is not open.
    reads_as("{\"path\": [1, 2\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}", "```READ (a.md)\n```");
    reads_as("{\"path\": \"[{\"}\n{\"name\": \"READ\", \"arguments\": {\"path\": \"a.md\"}}", "```READ (a.md)\n```");
}

// ── Kimi K3 calls without their channel ────────────────────────────────────────────────────

fn text_of(r: &Value) -> String {
    items(r, "text").iter().map(|t| t["content"].as_str().unwrap_or("").to_string()).collect()
}

/// One K3 call, its arguments each an `argument` element (a `string` one raw, any other JSON).
fn k3_call(tool: &str, args: &[(&str, &str, &str)]) -> String {
    let mut c = format!("<|open|>call tool=\"{tool}\" index=\"1\"<|sep|>");
    for (k, ty, v) in args {
        c.push_str(&format!("<|open|>argument key=\"{k}\" type=\"{ty}\"<|sep|>{v}<|close|>argument<|sep|>"));
    }
    c.push_str("<|close|>call<|sep|>");
    c
}

/// §native-tool-calls, Kimi K3: a call written bare, with no `tools` channel opened before it,
/// reads as its statement and leaves no markup in the text.
#[test]
fn native_tool_calls_kimi_k3_bare_call() {
    let call = k3_call("READ", &[("path", "string", "docs/café.md"), ("range", "array", "[3, 18]")]);
    let got = reads_as(&call, "```READ (docs/café.md) <3,18>\n```");
    assert_eq!(text_of(&got), "");
    // With prose around it, CRLF line ends and no final newline.
    let got = reads_as(&format!("Checking the menu first.\r\n{call}"), "```READ (docs/café.md) <3,18>\n```");
    assert_eq!(text_of(&got), "Checking the menu first.\r\n");
    assert_eq!(lines(&got), [2]);
}

/// §native-tool-calls, Kimi K3: several bare calls read in order; the channel's closing after
/// them (the chat template wrote its opening) is markup, not text.
#[test]
fn native_tool_calls_kimi_k3_bare_calls_in_order() {
    let input = format!(
        "{}\n{}\n<|close|>tools<|sep|>",
        k3_call("READ", &[("path", "string", "inventory/stock.csv")]),
        k3_call("sh", &[("command", "string", "wc -l inventory/stock.csv\n\tsort -u inventory/stock.csv")])
    );
    let got = reads_as(&input, "```READ (inventory/stock.csv)\n```\n```sh\nwc -l inventory/stock.csv\n\tsort -u inventory/stock.csv\n```");
    assert_eq!(text_of(&got).trim(), "", "{got}");
}

/// §native-tool-calls, Kimi K3: a call's arguments may be one JSON object in a `json` element,
/// in the channel or bare; cut off inside it, the object keeps what it wrote.
#[test]
fn native_tool_calls_kimi_k3_json_argument_object() {
    let json = |args: &str| {
        format!("<|open|>call tool=\"READ\" index=\"1\"<|sep|><|open|>json type=\"object\"<|sep|>{args}<|close|>json<|sep|><|close|>call<|sep|>")
    };
    reads_as(&json("{\"path\": \"ledger/2024.tsv\", \"range\": [1, 12]}"), "```READ (ledger/2024.tsv) <1,12>\n```");
    reads_as(
        &format!("<|open|>tools<|sep|>{}<|close|>tools<|sep|>", json("{\"path\": \"ledger/2024.tsv\"}")),
        "```READ (ledger/2024.tsv)\n```",
    );
    reads_as(
        "<|open|>call tool=\"sh\" index=\"1\"<|sep|><|open|>json type=\"object\"<|sep|>{\"command\": \"du -sh /var/log",
        "```sh\ndu -sh /var/log\n```",
    );
}

/// §native-tool-calls, Kimi K3: a bare call cut off inside an argument reads as what it wrote.
#[test]
fn native_tool_calls_kimi_k3_bare_call_cut_off() {
    reads_as(
        "Let me count.\n<|open|>call tool=\"sh\" index=\"1\"<|sep|><|open|>argument key=\"command\" type=\"string\"<|sep|>grep -c ERROR app.log",
        "```sh\ngrep -c ERROR app.log\n```",
    );
}

/// §native-tool-call-receipt, Kimi K3: a bare call naming an unknown tool, one naming no tool,
/// and one whose `json` element holds no object leave the emission as it was, and the receipt
/// names the call's opening.
#[test]
fn native_tool_call_receipt_kimi_k3_bare_call() {
    let receipt = "`<|open|>call` is tool-call markup and was not executed. Use three backticks and the operation with its target, such as `READ (path)`, on the opening line.";
    let unknown = k3_call("get_exchange_rate", &[("currency", "string", "NOK")]);
    refused(&unknown, receipt);
    assert_eq!(text_of(&parse(&unknown)), unknown);
    refused("<|open|>call index=\"1\"<|sep|><|close|>call<|sep|>", receipt);
    refused("<|open|>call tool=\"READ\" index=\"1\"<|sep|><|open|>json type=\"object\"<|sep|>[\"a.md\"]<|close|>json<|sep|><|close|>call<|sep|>", receipt);
}

/// §native-tool-calls, Kimi K3: a bare call quoted in reasoning (K3's `think` channel, a
/// `<think>` span) or in a fenced code block is no call; an emission that already yields an
/// operation is not rewritten.
#[test]
fn native_tool_calls_kimi_k3_bare_call_quoted_is_no_call() {
    let call = k3_call("sh", &[("command", "string", "rm -rf build/")]);
    for quoted in [
        format!("<|open|>think<|sep|>I could run {call} but will not.<|close|>think<|sep|>Nothing to run."),
        format!("<think>\nMaybe {call}\n</think>\nNothing to run."),
        format!("An example:\n```\n{call}\n```\n"),
    ] {
        let got = parse(&quoted);
        assert!(statements(&got).is_empty(), "{got}");
        assert!(items(&got, "error").iter().all(|e| e["error"]["severity"] == "error"), "no receipt: {got}");
    }
    let got = parse(&format!("```READ (notes.md)\n```\n{call}"));
    let ops: Vec<Value> = statements(&got).iter().map(|s| s["target"]["raw"].clone()).collect();
    assert_eq!(ops, ["notes.md"]);
}

/// §native-tool-calls, §response-text: a `StreamParser` fed bare K3 calls a character at a time
/// never shows any of their markup, and finishes with the parse of the whole.
#[test]
fn native_tool_calls_kimi_k3_bare_call_stream_never_shows_it() {
    let input =
        format!("Reading both.\n{}{}\n", k3_call("READ", &[("path", "string", "a.md")]), k3_call("READ", &[("path", "string", "b.md")]));
    let options = ParseOptions::default().with_executors(["sh"]);
    let mut sp = plurnk_parser::StreamParser::new(options.clone());
    for c in input.chars() {
        sp.feed_str(c.encode_utf8(&mut [0u8; 4]));
        let v = sp.visible();
        assert!(!v.contains("<|") && !v.contains("call tool"), "shown {v:?}");
    }
    assert_eq!(sp.finish().to_json(), plurnk_parser::parse(&input, &options).to_json());
}

// ── Python call lists over lines ───────────────────────────────────────────────────────────

/// §native-tool-calls, pythonic: a bare list of calls may run over several lines — indented,
/// with trailing commas, and Python literals (strings in either quote with escapes, triple
/// quotes, `True`/`False`/`None`, nested lists and dicts).
#[test]
fn native_tool_calls_pythonic_bare_list_over_lines() {
    reads_as(
        "[READ(path=\"garden/beds.md\"),\n    sh(command='ls -la garden/'),\n]",
        "```READ (garden/beds.md)\n```\n```sh\nls -la garden/\n```",
    );
    reads_as("[\n\tsh(\n\t\tcommand=\"echo \\\"it's\\\" 'ok'\\n\",\n\t),\n]", "```sh\necho \"it's\" 'ok'\n\n```");
    let got = reads_as_with(
        "Two steps.\r\n[\r\n  READ(path='src/ünï.rs', range=[4, 9]),\r\n  node(input=\"\"\"const x = {a: 1};\nconsole.log(x)\"\"\", flags={\"strict\": True, \"trace\": None, \"tags\": [\"a\", False]}),\r\n]\r\nDone.",
        "```READ (src/ünï.rs) <4,9>\n```\n```node [{\"flags\":{\"strict\":true,\"tags\":[\"a\",false],\"trace\":null}}]\nconst x = {a: 1};\nconsole.log(x)\n```",
        &["sh", "node"],
    );
    assert_eq!(text_of(&got), "Two steps.\r\nDone.", "{got}");
    assert_eq!(lines(&got)[0], 3, "the heading keeps the call's line");
}

/// §native-tool-calls, pythonic: the same lists over lines inside their markers — Llama 4's
/// `<|python_start|>`, LFM2's `<|tool_call_start|>`, OLMo 3's `<function_calls>`.
#[test]
fn native_tool_calls_pythonic_marked_lists_over_lines() {
    let list = "[\n    READ(path=\"recipes/soup.md\"),\n    sh(command=\"grep -n 'salt' recipes/soup.md\",),\n]";
    let fenced = "```READ (recipes/soup.md)\n```\n```sh\ngrep -n 'salt' recipes/soup.md\n```";
    for (open, close) in [
        ("<|python_start|>", "<|python_end|>"),
        ("<|tool_call_start|>", "<|tool_call_end|>"),
        ("<function_calls>\n", "\n</function_calls>"),
    ] {
        let got = reads_as(&format!("{open}{list}{close}"), fenced);
        assert_eq!(text_of(&got).trim(), "", "{open}: {got}");
    }
    // OLMo 3's calls one after another, one spread over lines.
    reads_as(
        "<function_calls>\nREAD(\n    path=\"recipes/soup.md\",\n)\nsh(command=\"ls\")\n</function_calls>",
        "```READ (recipes/soup.md)\n```\n```sh\nls\n```",
    );
}

/// §native-tool-calls, pythonic: a bare list over lines is read only whole — closed, and alone
/// on the lines it holds; a `[` in prose, an unclosed list and a list quoted in reasoning are no
/// call, and a list left open does not hide a later one.
#[test]
fn native_tool_calls_pythonic_bare_list_over_lines_only_whole() {
    for text in [
        "[READ(path=\"a.md\"),\n sh(command=\"ls\")] and then more",
        "[READ(path=\"a.md\"),\n sh(command=\"ls\")",
        "[Don't forget: READ(path=\"a.md\"),\n sh(command=\"ls\")]",
        "<think>\n[READ(path=\"a.md\"),\n sh(command=\"ls\")]\n</think>\nNo call.",
    ] {
        assert!(statements(&parse(text)).is_empty(), "{text:?}");
    }
    reads_as("[READ(path=\"old.md\"),\n\n[READ(path=\"a.md\"),\n READ(path=\"b.md\")]", "```READ (a.md)\n```\n```READ (b.md)\n```");
    reads_as("[TODO: tidy up\n[READ(path=\"a.md\"),\n READ(path=\"b.md\")]", "```READ (a.md)\n```\n```READ (b.md)\n```");
}

/// §native-tool-call-receipt, pythonic: a list over lines calling an unknown tool leaves the
/// emission as it was; the receipt names its first line.
#[test]
fn native_tool_call_receipt_pythonic_bare_list_over_lines() {
    let input = "[\n  lookup_order(order_id=1042,\n               expand=['items', \"notes\"]),\n]";
    refused(
        input,
        "`[` is tool-call markup and was not executed. Use three backticks and the operation with its target, such as `READ (path)`, on the opening line.",
    );
    assert_eq!(text_of(&parse(input)), input);
}

/// §native-tool-calls, Sarashina: its bare Python-literal list of call dicts may run over lines
/// as well.
#[test]
fn native_tool_calls_sarashina_bare_list_over_lines() {
    reads_as(
        "[\n    {'name': 'READ', 'arguments': {'path': 'atlas/fjords.md', 'range': [2, 30]}},\n    {'name': 'sh', 'arguments': {'command': \"ls 'atlas'\"}},\n]",
        "```READ (atlas/fjords.md) <2,30>\n```\n```sh\nls 'atlas'\n```",
    );
}

/// §native-tool-calls: a call quoted in any reasoning span is no call — a later span as much as
/// the first (a span that closed before does not end the search for the next), and one closed
/// before any opens (the template opened it); a call after every span still reads, at its line.
#[test]
fn native_tool_calls_every_reasoning_span_quotes_no_call() {
    let call = "<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}\n</tool_call>";
    for (open, close) in [("<think>", "</think>"), ("<seed:think>", "</seed:think>")] {
        let later = format!("{open}Plan first.{close}\nStill unsure.\n{open}\nMaybe:\n{call}\n{close}\nNo call yet.");
        assert!(statements(&parse(&later)).is_empty(), "read inside the second {open}: {later}");
        let crlf = later.replace('\n', "\r\n");
        assert!(statements(&parse(&crlf)).is_empty(), "read inside the second {open} (CRLF)");
        let templated = format!("The template opened it.\n{call}\n{close}\nAnswer follows.");
        assert!(statements(&parse(&templated)).is_empty(), "read before a closing {close}");
        let after = format!("{later}\n{call}\n");
        let got = reads_as(&after, "```READ (notes/todo.md)\n```");
        assert_eq!(lines(&got), [10], "the statement keeps the call's line");
    }
}

/// §native-tool-calls, Python literal lists: a list names a call only through a name key written
/// as a string, in either quote, or through an escape spelling one; a list quoting none is no
/// call.
#[test]
fn native_tool_calls_python_literal_list_names_through_a_quoted_key() {
    let want = "```READ (notes/todo.md)\n```";
    reads_as("[{'name': 'READ', 'arguments': {'path': 'notes/todo.md'}}]", want);
    reads_as("[{\"name\": 'READ', 'arguments': {'path': 'notes/todo.md'}}]", want);
    reads_as("[{'n\\x61me': 'READ', 'arguments': {'path': 'notes/todo.md'}}]", want);
    for line in ["[{'path': 'notes/todo.md', 'lines': 3}]", "[{'names': 'READ'}]", "[{'nom': 'READ', 'arguments': {}}]"] {
        let got = parse(line);
        assert!(statements(&got).is_empty(), "{line}: {got}");
    }
}
