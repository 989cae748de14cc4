//! Every native tool-call family of `rules/native/` under one contract (§native-tool-calls,
//! §native-tool-call-receipt), table-driven: for each family, one call and several calls read
//! as the fenced statements they stand for with no diagnostic and no wrapper left in the text;
//! a cut-off or broken emission reads as what it wrote or stays as it was; a call naming an
//! unknown tool stays as it was and draws the receipt naming the family's marker; and a
//! `StreamParser` fed the markup byte by byte never shows any of it. The inputs are written from
//! each family's chat template and model card.

use plurnk_parser::{ParseOptions, StreamParser};
use serde_json::Value;

fn parse(input: &str) -> Value {
    plurnk_parser::parse(input, &ParseOptions::default().with_executors(["sh", "node"])).to_json()
}

fn items(r: &Value, kind: &str) -> Vec<Value> {
    r["items"].as_array().unwrap().iter().filter(|i| i["kind"] == kind).cloned().collect()
}

fn statements(r: &Value) -> Vec<Value> {
    items(r, "statement")
        .into_iter()
        .map(|i| {
            let mut s = i["statement"].clone();
            s.as_object_mut().unwrap().remove("position");
            s
        })
        .collect()
}

fn text(r: &Value) -> String {
    items(r, "text").iter().map(|t| t["content"].as_str().unwrap_or("").to_string()).collect()
}

/// What a cut-off or broken emission gives.
enum Broken {
    /// It reads as this fenced text.
    Reads(&'static str),
    /// It stays as it was, with the receipt naming this marker.
    Refused(&'static str),
}

struct Family {
    file: &'static str,
    one: (&'static str, &'static str),
    several: (&'static str, &'static str),
    broken: (&'static str, Broken),
    /// A call naming an unknown tool, and the marker its receipt names.
    unknown: (&'static str, &'static str),
    /// A piece of the markup the stream must never show.
    probe: &'static str,
}

const READ: &str = "```READ (src/lib.rs) <1,40>\n```";
const READ_SH: &str = "```READ (notes/todo.md)\n```\n\n```sh\ncargo test --quiet\n```";

const FAMILIES: &[Family] = &[
    Family {
        file: "tool-call",
        one: ("<tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}\n</tool_call>", READ),
        several: (
            "<tool_call>\n<function=READ>\n<parameter=path>\nnotes/todo.md\n</parameter>\n</function>\n</tool_call>\n<tool_call>sh<arg_key>command</arg_key><arg_value>cargo test --quiet</arg_value></tool_call>",
            READ_SH,
        ),
        broken: ("<tool_call>\n{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>", "<tool_call>"),
        probe: "<tool_",
    },
    Family {
        file: "hermes-variants",
        one: ("<function_call>{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": [1, 40]}}</function_call>", READ),
        several: (
            "<tools>\n[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]\n</tools>",
            READ_SH,
        ),
        broken: ("<json>{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40", Broken::Reads(READ)),
        unknown: ("<response>{\"name\": \"search_web\", \"arguments\": {\"q\": \"rust\"}}</response>", "<response>"),
        probe: "{\"name",
    },
    Family {
        file: "mistral",
        one: ("[TOOL_CALLS]READ{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}", READ),
        several: (
            "[TOOL_CALLS]READ[ARGS]{\"path\": \"notes/todo.md\"}[TOOL_CALLS]sh[ARGS]{\"command\": \"cargo test --quiet\"}",
            READ_SH,
        ),
        broken: ("[TOOL_CALLS][{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"", Broken::Reads(READ)),
        unknown: ("[TOOL_CALLS]get_stock{\"ticker\": \"ACME\"}", "[TOOL_CALLS]"),
        probe: "[TOOL",
    },
    Family {
        file: "llama",
        one: ("<|python_tag|>{\"name\": \"READ\", \"parameters\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}<|eom_id|>", READ),
        several: (
            "<|python_tag|>{\"name\": \"READ\", \"parameters\": {\"path\": \"notes/todo.md\"}}; {\"name\": \"sh\", \"parameters\": {\"command\": \"cargo test --quiet\"}}<|eom_id|>",
            READ_SH,
        ),
        broken: ("<|python_tag|>sh.call(command=\"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|python_tag|>brave_search.call(query=\"rust release notes\")", "<|python_tag|>"),
        probe: "<|python",
    },
    Family {
        file: "functionary-v3-2",
        one: (">>>READ\n{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}", READ),
        several: (">>>READ\n{\"path\": \"notes/todo.md\"}>>>sh\n{\"command\": \"cargo test --quiet\"}", READ_SH),
        broken: (">>>sh\n{\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: (">>>get_time\n{\"zone\": \"UTC\"}", ">>>"),
        probe: ">>>",
    },
    Family {
        file: "pythonic",
        one: ("[READ(path=\"src/lib.rs\", range=\"1,40\")]", READ),
        several: ("<|python_start|>[READ(path='notes/todo.md'), sh(command='cargo test --quiet')]<|python_end|>", READ_SH),
        broken: ("<|python_start|>[READ(path=\"src/lib.rs\", range=\"1,40", Broken::Reads(READ)),
        unknown: ("[get_weather(city=\"Lagos\", unit=\"celsius\")]", "[get_weather(city=\"Lagos\", unit=\"celsius\")]"),
        probe: "[READ",
    },
    Family {
        file: "olmo3",
        one: ("<function_calls>\nREAD(path=\"src/lib.rs\", range=\"1,40\")\n</function_calls>", READ),
        several: ("<function_calls>\nREAD(path=\"notes/todo.md\")\nsh(command=\"cargo test --quiet\")\n</function_calls>", READ_SH),
        broken: ("<function_calls>\nREAD(path=\"src/lib.rs\", range=\"1,40\"", Broken::Reads(READ)),
        unknown: ("<function_calls>\nlookup_order(order_id=42)\n</function_calls>", "<function_calls>"),
        probe: "<function_c",
    },
    Family {
        file: "lfm2",
        one: ("<|tool_call_start|>[READ(path=\"src/lib.rs\", range=\"1,40\")]<|tool_call_end|>", READ),
        several: (
            "<|tool_call_start|>[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]<|tool_call_end|>",
            READ_SH,
        ),
        broken: ("<|tool_call_start|>[READ(path=\"src/lib.rs\", 40)]<|tool_call_end|>", Broken::Refused("<|tool_call_start|>")),
        unknown: ("<|tool_call_start|>[get_candidate_status(candidate_id=\"12345\")]<|tool_call_end|>", "<|tool_call_start|>"),
        probe: "<|tool_call",
    },
    Family {
        file: "kimi-k2",
        one: (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}<|tool_call_end|><|tool_calls_section_end|>",
            READ,
        ),
        several: (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"notes/todo.md\"}<|tool_call_end|><|tool_call_begin|>functions.sh:1<|tool_call_argument_begin|>{\"command\": \"cargo test --quiet\"}<|tool_call_end|><|tool_calls_section_end|>",
            READ_SH,
        ),
        broken: ("<|tool_calls_section_begin|><|tool_call_begin|>functions.READ:0<|tool_call_argument_begin|>{\"path\": \"src/lib.rs\", \"range\": \"1,40", Broken::Reads(READ)),
        unknown: ("<|tool_calls_section_begin|><|tool_call_begin|>functions.fetch_url:0<|tool_call_argument_begin|>{\"url\": \"x\"}<|tool_call_end|><|tool_calls_section_end|>", "<|tool_calls_section_begin|>"),
        probe: "<|tool_calls",
    },
    Family {
        file: "kimi-k3",
        one: (
            "<|open|>tools<|sep|><|open|>call tool=\"READ\" index=\"1\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>src/lib.rs<|close|>argument<|sep|><|open|>argument key=\"range\" type=\"array\"<|sep|>[1, 40]<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>",
            READ,
        ),
        several: (
            "<|open|>tools<|sep|>\n<|open|>call tool=\"READ\" index=\"1\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>notes/todo.md<|close|>argument<|sep|><|close|>call<|sep|>\n<|open|>call tool=\"sh\" index=\"2\"<|sep|><|open|>argument key=\"command\" type=\"string\"<|sep|>cargo test --quiet<|close|>argument<|sep|><|close|>call<|sep|>\n<|close|>tools<|sep|>",
            READ_SH,
        ),
        broken: (
            "<|open|>tools<|sep|><|open|>call tool=\"sh\" index=\"1\"<|sep|><|open|>argument key=\"command\" type=\"string\"<|sep|>cargo test --quiet",
            Broken::Reads("```sh\ncargo test --quiet\n```"),
        ),
        unknown: ("<|open|>tools<|sep|><|open|>call tool=\"translate\" index=\"1\"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>", "<|open|>tools<|sep|>"),
        probe: "<|open|>t",
    },
    Family {
        file: "deepseek-v3",
        one: (
            "<｜tool▁calls｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>READ\n```json\n{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            READ,
        ),
        several: (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>READ<｜tool▁sep｜>{\"path\": \"notes/todo.md\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>sh<｜tool▁sep｜>{\"command\": \"cargo test --quiet\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            READ_SH,
        ),
        broken: ("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>sh<｜tool▁sep｜>{\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_news<｜tool▁sep｜>{\"topic\": \"ai\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "<｜tool▁calls▁begin｜>"),
        probe: "<｜tool",
    },
    Family {
        file: "deepseek-dsml",
        one: (
            "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"READ\">\n<｜DSML｜parameter name=\"path\" string=\"true\">src/lib.rs</｜DSML｜parameter>\n<｜DSML｜parameter name=\"range\" string=\"true\">1,40</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
            READ,
        ),
        several: (
            "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"READ\">\n<｜DSML｜parameter name=\"path\">notes/todo.md</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"sh\">\n<｜DSML｜parameter name=\"command\">cargo test --quiet</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
            READ_SH,
        ),
        broken: ("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"sh\">\n<｜DSML｜parameter name=\"command\">cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"book_flight\">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", "<｜DSML｜function_calls>"),
        probe: "<｜DSML",
    },
    Family {
        file: "minimax",
        one: (
            "<minimax:tool_call>\n<invoke name=\"READ\">\n<parameter name=\"path\">src/lib.rs</parameter>\n<parameter name=\"range\">1,40</parameter>\n</invoke>\n</minimax:tool_call>",
            READ,
        ),
        several: (
            "<minimax:tool_call>\n<invoke name=\"READ\">\n<parameter name=\"path\">notes/todo.md</parameter>\n</invoke>\n<invoke name=\"sh\">\n<parameter name=\"command\">cargo test --quiet</parameter>\n</invoke>\n</minimax:tool_call>",
            READ_SH,
        ),
        broken: ("<minimax:tool_call>\n<invoke name=\"sh\">\n<parameter name=\"command\">cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Lima</parameter>\n</invoke>\n</minimax:tool_call>", "<minimax:tool_call>"),
        probe: "<minimax",
    },
    Family {
        file: "minimax-m1",
        one: ("<tool_calls>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}\n</tool_calls>", READ),
        several: (
            "<tool_calls>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}\n{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}\n</tool_calls>",
            READ_SH,
        ),
        broken: ("<tool_calls>\n{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<tool_calls>\n{\"name\": \"search\", \"arguments\": {\"query_list\": [\"x\"]}}\n</tool_calls>", "<tool_calls>"),
        probe: "<tool_",
    },
    Family {
        file: "minimax-m3",
        one: (
            "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"READ\">]<]minimax[>[<path>src/lib.rs]<]minimax[>[</path>]<]minimax[>[<range>1,40]<]minimax[>[</range>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
            READ,
        ),
        several: (
            "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"READ\">]<]minimax[>[<path>notes/todo.md]<]minimax[>[</path>]<]minimax[>[</invoke>\n]<]minimax[>[<invoke name=\"sh\">]<]minimax[>[<command>cargo test --quiet]<]minimax[>[</command>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
            READ_SH,
        ),
        broken: ("]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"sh\">]<]minimax[>[<command>cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"send_mail\">]<]minimax[>[<to>a@b.c]<]minimax[>[</to>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>", "]<]minimax[>[<tool_call>"),
        probe: "]<]minimax",
    },
    Family {
        file: "gpt-oss",
        one: ("<|channel|>commentary to=functions.READ <|constrain|>json<|message|>{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}<|call|>", READ),
        several: (
            "<|start|>assistant<|channel|>commentary to=functions.READ json<|message|>{\"path\": \"notes/todo.md\"}<|call|>\n<|start|>assistant to=functions.sh<|channel|>commentary <|constrain|>json<|message|>{\"command\": \"cargo test --quiet\"}<|call|>",
            READ_SH,
        ),
        broken: ("<|channel|>commentary to=functions.sh <|constrain|>json<|message|>{\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{\"location\": \"Tokyo\"}<|call|>", "<|channel|>commentary to="),
        probe: "<|channel",
    },
    Family {
        file: "step3",
        one: (
            "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"READ\">\n<steptml:parameter name=\"path\">src/lib.rs</steptml:parameter>\n<steptml:parameter name=\"range\">1,40</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>",
            READ,
        ),
        several: (
            "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"READ\"><steptml:parameter name=\"path\">notes/todo.md</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"sh\"><steptml:parameter name=\"command\">cargo test --quiet</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
            READ_SH,
        ),
        broken: ("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"sh\"><steptml:parameter name=\"command\">cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter name=\"city\">Rome</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>", "<｜tool_calls_begin｜>"),
        probe: "<｜tool",
    },
    Family {
        file: "cohere",
        one: ("<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"READ\", \"parameters\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}\n]<|END_ACTION|>", READ),
        several: (
            "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"READ\", \"parameters\": {\"path\": \"notes/todo.md\"}}, {\"tool_call_id\": \"1\", \"tool_name\": \"sh\", \"parameters\": {\"command\": \"cargo test --quiet\"}}]<|END_ACTION|>",
            READ_SH,
        ),
        broken: ("<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"sh\", \"parameters\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"internet_search\", \"parameters\": {\"query\": \"x\"}}]<|END_ACTION|>", "<|START_ACTION|>"),
        probe: "<|START",
    },
    Family {
        file: "granite",
        one: ("<|tool_call|>[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": [1, 40]}}]", READ),
        several: (
            "<tool_call>[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]",
            READ_SH,
        ),
        broken: ("<|tool_call|>[{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|tool_call|>[{\"name\": \"get_stock_price\", \"arguments\": {\"ticker\": \"IBM\"}}]", "<|tool_call|>"),
        probe: "<|tool_call",
    },
    Family {
        file: "granite-20b-fc",
        one: ("<function_call> {\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}", READ),
        several: (
            "<function_call> {\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}} <function_call> {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}",
            READ_SH,
        ),
        broken: ("<function_call> {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<function_call> {\"name\": \"get_current_weather\", \"arguments\": {\"location\": \"Boston\"}}", "<function_call>"),
        probe: "<function_c",
    },
    Family {
        file: "seed-oss",
        one: (
            "<seed:tool_call>\n<function=READ>\n<parameter=path>src/lib.rs</parameter>\n<parameter=range>1,40</parameter>\n</function>\n</seed:tool_call>",
            READ,
        ),
        several: (
            "<seed:tool_call>\n<function=READ>\n<parameter=path>notes/todo.md</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=sh>\n<parameter=command>cargo test --quiet</parameter>\n</function>\n</seed:tool_call>",
            READ_SH,
        ),
        broken: ("<seed:tool_call>\n<function=sh>\n<parameter=command>cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<seed:tool_call>\n<function=get_weather>\n<parameter=city>Kyiv</parameter>\n</function>\n</seed:tool_call>", "<seed:tool_call>"),
        probe: "<seed:tool",
    },
    Family {
        file: "internlm2",
        one: ("<|action_start|><|plugin|>\n{\"name\": \"READ\", \"parameters\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}<|action_end|>", READ),
        several: (
            "<|action_start|><|plugin|>{\"name\": \"READ\", \"parameters\": {\"path\": \"notes/todo.md\"}}<|action_end|>\n<|action_start|><|plugin|>{\"name\": \"sh\", \"parameters\": {\"command\": \"cargo test --quiet\"}}<|action_end|>",
            READ_SH,
        ),
        broken: ("<|action_start|><|plugin|>{\"name\": \"sh\", \"parameters\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|action_start|><|plugin|>{\"name\": \"ArxivSearch.get_arxiv_article_information\", \"parameters\": {\"query\": \"x\"}}<|action_end|>", "<|action_start|><|plugin|>"),
        probe: "<|action",
    },
    Family {
        file: "jamba",
        one: ("<tool_calls>[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}]</tool_calls>", READ),
        several: (
            "<tool_calls>[\n{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}},\n{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}\n]</tool_calls>",
            READ_SH,
        ),
        broken: ("<tool_calls>[{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<tool_calls>[{\"name\": \"convert_currency\", \"arguments\": {\"from\": \"EUR\"}}]</tool_calls>", "<tool_calls>"),
        probe: "<tool_",
    },
    Family {
        file: "hunyuan-a13b",
        one: ("<tool_calls>\n[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": [1, 40]}}]\n</tool_calls>", READ),
        several: (
            "<tool_calls>[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]</tool_calls>",
            READ_SH,
        ),
        broken: ("<tool_calls>[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": [1, 40]", Broken::Reads(READ)),
        unknown: ("<tool_calls>[{\"name\": \"query_order\", \"arguments\": {\"id\": 7}}]</tool_calls>", "<tool_calls>"),
        probe: "<tool_",
    },
    Family {
        file: "hunyuan-v3",
        one: (
            "<tool_calls><tool_call>READ<tool_sep><arg_key>path</arg_key><arg_value>src/lib.rs</arg_value><arg_key>range</arg_key><arg_value>1,40</arg_value></tool_call></tool_calls>",
            READ,
        ),
        several: (
            "<tool_calls>\n<tool_call>READ<tool_sep>\n<arg_key>path</arg_key>\n<arg_value>notes/todo.md</arg_value>\n</tool_call>\n<tool_call>sh<tool_sep>\n<arg_key>command</arg_key>\n<arg_value>cargo test --quiet</arg_value>\n</tool_call>\n</tool_calls>",
            READ_SH,
        ),
        broken: ("<tool_calls><tool_call>sh<tool_sep><arg_key>command</arg_key><arg_value>cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Quito</arg_value></tool_call></tool_calls>", "<tool_calls>"),
        probe: "<tool_",
    },
    Family {
        file: "longcat",
        one: ("<longcat_tool_call>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}\n</longcat_tool_call>", READ),
        several: (
            "<longcat_tool_call>{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}</longcat_tool_call>\n<longcat_tool_call>{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}</longcat_tool_call>",
            READ_SH,
        ),
        broken: ("<longcat_tool_call>{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<longcat_tool_call>{\"name\": \"find_hotel\", \"arguments\": {\"city\": \"Nice\"}}</longcat_tool_call>", "<longcat_tool_call>"),
        probe: "<longcat",
    },
    Family {
        file: "gigachat3",
        one: ("<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}", READ),
        several: (
            "<|function_call|>{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}\n<|function_call|>{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}",
            READ_SH,
        ),
        broken: ("function call<|role_sep|>\n{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|function_call|>{\"name\": \"weather_forecast\", \"arguments\": {\"city\": \"Kazan\"}}", "<|function_call|>"),
        probe: "function call",
    },
    Family {
        file: "apertus",
        one: ("<|tools_prefix|>[{\"READ\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}]<|tools_suffix|>", READ),
        several: ("<|tools_prefix|>[{\"READ\": {\"path\": \"notes/todo.md\"}}, {\"sh\": {\"command\": \"cargo test --quiet\"}}]<|tools_suffix|>", READ_SH),
        broken: ("<|tools_prefix|>[{\"READ\": {\"path\": \"src/lib.rs\"}, \"sh\": {}}]<|tools_suffix|>", Broken::Refused("<|tools_prefix|>")),
        unknown: ("<|tools_prefix|>[{\"get_weather\": {\"city\": \"Bern\"}}]<|tools_suffix|>", "<|tools_prefix|>"),
        probe: "<|tools",
    },
    Family {
        file: "functiongemma",
        one: ("<start_function_call>call:READ{path:<escape>src/lib.rs<escape>,range:<escape>1,40<escape>}<end_function_call>", READ),
        several: (
            "<start_function_call>call:READ{path:<escape>notes/todo.md<escape>}<end_function_call><start_function_call>call:sh{command:<escape>cargo test --quiet<escape>}<end_function_call>",
            READ_SH,
        ),
        broken: ("<start_function_call>call:sh{command:<escape>cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<start_function_call>call:set_alarm{hour:7,label:<escape>gym<escape>}<end_function_call>", "<start_function_call>"),
        probe: "<start_f",
    },
    Family {
        file: "gemma4",
        one: ("<|tool_call>call:READ{path:<|\"|>src/lib.rs<|\"|>,range:[1,40]}<tool_call|>", READ),
        several: (
            "<|tool_call>call:READ{path:<|\"|>notes/todo.md<|\"|>}<tool_call|><|tool_call>call:sh{command:<|\"|>cargo test --quiet<|\"|>}<tool_call|>",
            READ_SH,
        ),
        broken: ("<|tool_call>call:sh{command:<|\"|>cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|tool_call>call:get_weather{location:<|\"|>Accra<|\"|>,days:3}<tool_call|>", "<|tool_call>"),
        probe: "<|tool_call",
    },
    Family {
        file: "minicpm5",
        one: ("<function name=\"READ\"><param name=\"path\">src/lib.rs</param><param name=\"range\">1,40</param></function>", READ),
        several: (
            "<function name=\"READ\"><param name=\"path\">notes/todo.md</param></function>\n<function name=\"sh\"><param name=\"command\">cargo test --quiet</param></function>",
            READ_SH,
        ),
        broken: ("<function name=\"sh\"><param name=\"command\">cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<function name=\"get_weather\"><param name=\"city\">北京</param></function>", "<function name=\"get_weather\">"),
        probe: "<function",
    },
    Family {
        file: "inkling",
        one: (
            "<|message_model|>READ<|content_invoke_tool_json|>{\"name\": \"READ\", \"args\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}<|end_message|>",
            READ,
        ),
        several: (
            "<|message_model|>READ<|content_invoke_tool_json|>{\"name\": \"READ\", \"args\": {\"path\": \"notes/todo.md\"}}<|end_message|><|message_model|>sh<|content_invoke_tool_json|>{\"name\": \"sh\", \"args\": {\"command\": \"cargo test --quiet\"}}<|end_message|>",
            READ_SH,
        ),
        broken: ("<|message_model|>sh<|content_invoke_tool_json|>{\"name\": \"sh\", \"args\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|message_model|>lookup<|content_invoke_tool_json|>{\"name\": \"lookup\", \"args\": {\"term\": \"x\"}}<|end_message|>", "<|message_model|>"),
        probe: "<|message",
    },
    Family {
        file: "sarashina",
        one: ("<|tool_calls|>[{'name': 'READ', 'arguments': {'path': 'src/lib.rs', 'range': [1, 40]}}]", READ),
        several: ("[{'name': 'READ', 'arguments': {'path': 'notes/todo.md'}}, {'name': 'sh', 'arguments': {'command': 'cargo test --quiet'}}]", READ_SH),
        broken: ("<|tool_calls|>[{'name': 'sh', 'arguments': {'command': 'cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|tool_calls|>[{'name': 'get_train_times', 'arguments': {'from': 'Tokyo', 'express': True}}]", "<|tool_calls|>"),
        probe: "'name'",
    },
    Family {
        file: "nemotron-v2",
        one: ("<TOOLCALL>[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}]</TOOLCALL>", READ),
        several: (
            "<TOOLCALL>[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]</TOOLCALL>",
            READ_SH,
        ),
        broken: ("<TOOLCALL>[{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<TOOLCALL>[{\"name\": \"calculate_tip\", \"arguments\": {\"bill\": 40}}]</TOOLCALL>", "<TOOLCALL>"),
        probe: "<TOOL",
    },
    Family {
        file: "solar-open",
        one: (
            "<|tool_calls|><|tool_call:begin|>call_a1<|tool_call:name|>READ<|tool_call:args|>{\"path\": \"src/lib.rs\", \"range\": \"1,40\"}<|tool_call:end|>",
            READ,
        ),
        several: (
            "<|tool_calls|><|tool_call:begin|>c1<|tool_call:name|>READ<|tool_call:args|>{\"path\": \"notes/todo.md\"}<|tool_call:end|><|tool_call:begin|>c2<|tool_call:name|>sh<|tool_call:args|>{\"command\": \"cargo test --quiet\"}<|tool_call:end|>",
            READ_SH,
        ),
        broken: ("<|tool_calls|><|tool_call:begin|>c1<|tool_call:name|>sh<|tool_call:args|>{\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<|tool_calls|><|tool_call:begin|>c1<|tool_call:name|>get_weather<|tool_call:args|>{\"city\": \"Seoul\"}<|tool_call:end|>", "<|tool_calls|>"),
        probe: "<|tool_call",
    },
    Family {
        file: "json",
        one: ("{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}", READ),
        several: (
            "[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]",
            READ_SH,
        ),
        broken: ("{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\"}, \"colour\": \"red\"}", Broken::Refused("")),
        unknown: ("{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"),
        probe: "{\"name",
    },
    Family {
        file: "xlam",
        one: ("[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": [1, 40]}}]", READ),
        several: (
            "[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]",
            READ_SH,
        ),
        broken: ("[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\"", Broken::Refused("")),
        unknown: ("[{\"name\": \"get_rate\", \"arguments\": {\"base\": \"USD\"}}]", "[{\"name\": \"get_rate\", \"arguments\": {\"base\": \"USD\"}}]"),
        probe: "[{\"name",
    },
    Family {
        file: "phi4-mini",
        one: ("functools[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}]", READ),
        several: (
            "functools[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}}, {\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]",
            READ_SH,
        ),
        broken: ("functools[{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("functools[{\"name\": \"get_flight_status\", \"arguments\": {\"flight\": \"BA1\"}}]", "functools["),
        probe: "functools",
    },
    Family {
        file: "firefunction-v2",
        one: (" functools[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}}]", READ),
        several: (
            " functools[{\"name\": \"READ\", \"arguments\": {\"path\": \"notes/todo.md\"}},{\"name\": \"sh\", \"arguments\": {\"command\": \"cargo test --quiet\"}}]",
            READ_SH,
        ),
        broken: (" functools[{\"name\": \"READ\", \"arguments\": {\"path\": \"src/lib.rs\", \"range\": \"1,40\"}", Broken::Reads(READ)),
        unknown: (" functools[{\"name\": \"get_stock_price\", \"arguments\": {\"symbol\": \"AAPL\"}}]", "functools["),
        probe: "functools",
    },
    Family {
        file: "anthropic",
        one: (
            "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">src/lib.rs</parameter>\n<parameter name=\"range\">1,40</parameter>\n</invoke>\n</function_calls>",
            READ,
        ),
        several: (
            "<function_calls>\n<invoke name=\"READ\">\n<parameter name=\"path\">notes/todo.md</parameter>\n</invoke>\n<invoke name=\"sh\">\n<parameter name=\"command\">cargo test --quiet</parameter>\n</invoke>\n</function_calls>",
            READ_SH,
        ),
        broken: ("<function_calls>\n<invoke name=\"sh\">\n<parameter name=\"command\">cargo test --quiet", Broken::Reads("```sh\ncargo test --quiet\n```")),
        unknown: ("<function_calls>\n<invoke name=\"web_fetch\">\n<parameter name=\"url\">x</parameter>\n</invoke>\n</function_calls>", "<function_calls>"),
        probe: "<function_c",
    },
    Family {
        file: "qwen",
        one: ("{\"op\": \"READ\", \"path\": \"src/lib.rs\", \"range\": \"1,40\"}", READ),
        several: ("<ops>\n<read path=\"notes/todo.md\"/>\n<op op=\"sh\">cargo test --quiet</op>\n</ops>", READ_SH),
        broken: ("<function=OP>\nREAD (src/lib.rs) <1,40>", Broken::Reads(READ)),
        unknown: ("<op op=\"deploy\" target=\"prod\"/>", "<op op=\"deploy\" target=\"prod\"/>"),
        probe: "<op",
    },
];

/// §native-tool-calls: every family file has its row (and every row a family file).
#[test]
fn native_tool_calls_every_family_file_has_a_row() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/native");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".yaml").map(str::to_string))
        .filter(|f| f != "parameters")
        .collect();
    files.sort();
    let mut rows: Vec<String> = FAMILIES.iter().map(|f| f.file.to_string()).collect();
    rows.sort();
    assert_eq!(files, rows);
}

#[track_caller]
fn reads_as(family: &str, native: &str, fenced: &str) {
    let got = parse(native);
    let want = parse(fenced);
    assert!(!statements(&want).is_empty(), "{family}: the fenced form parses");
    assert_eq!(statements(&got), statements(&want), "{family}: {native}\n{got}");
    assert!(items(&got, "error").is_empty(), "{family}: a reading draws no diagnostic: {got}");
    // No wrapper markup is left in the response text.
    let left = text(&got);
    assert!(left.trim().is_empty(), "{family}: text left: {left:?}");
}

#[track_caller]
fn refused(family: &str, native: &str, marker: &str) {
    let got = parse(native);
    assert!(statements(&got).is_empty(), "{family}: left as it was: {got}");
    assert_eq!(text(&got), native, "{family}: the text keeps its source");
    let errors = items(&got, "error");
    let first = errors[0]["error"]["message"].as_str().unwrap();
    if marker.is_empty() {
        return;
    }
    assert!(first.starts_with(&format!("`{marker}` is tool-call markup")), "{family}: {first}");
    assert_eq!(errors[0]["error"]["severity"], "warning");
}

/// §native-tool-calls: one call of each family reads as its fenced statement.
#[test]
fn native_tool_calls_each_family_reads_one_call() {
    for f in FAMILIES {
        reads_as(f.file, f.one.0, f.one.1);
    }
}

/// §native-tool-calls: several calls of each family read in order.
#[test]
fn native_tool_calls_each_family_reads_several_calls() {
    for f in FAMILIES {
        reads_as(f.file, f.several.0, f.several.1);
    }
}

/// §native-tool-calls: a cut-off call keeps what it wrote; a broken one leaves the emission as it was.
#[test]
fn native_tool_calls_each_family_cut_off_or_broken() {
    for f in FAMILIES {
        match &f.broken.1 {
            Broken::Reads(fenced) => reads_as(f.file, f.broken.0, fenced),
            Broken::Refused(marker) => refused(f.file, f.broken.0, marker),
        }
    }
}

/// §native-tool-call-receipt: a call naming an unknown tool leaves the whole emission as it was
/// and draws the receipt naming the family's marker.
#[test]
fn native_tool_call_receipt_each_family_unknown_tool() {
    for f in FAMILIES {
        refused(f.file, f.unknown.0, f.unknown.1);
    }
}

/// §native-tool-calls: text around a reading keeps its exact source text, and a call quoted in
/// reasoning is no call.
#[test]
fn native_tool_calls_each_family_keeps_text_and_skips_reasoning() {
    for f in FAMILIES {
        let input = format!("Checking first.\n{}\nDone here.", f.one.0);
        let got = parse(&input);
        assert_eq!(statements(&got), statements(&parse(f.one.1)), "{}", f.file);
        let t = text(&got);
        assert!(t.starts_with("Checking first.\n") && t.ends_with("Done here."), "{}: {t:?}", f.file);
        for (open, close) in [("<think>", "</think>"), ("<seed:think>", "</seed:think>")] {
            let quoted = format!("{open}\nI could write {}\n{close}\nNo call needed.", f.one.0);
            assert!(statements(&parse(&quoted)).is_empty(), "{}: read inside {open}", f.file);
        }
    }
}

/// §native-tool-calls: a `StreamParser` fed a family's markup a byte at a time never shows it,
/// and finishes with the parse of the whole.
#[test]
fn native_tool_calls_stream_never_shows_a_family_markup() {
    for f in FAMILIES {
        let input = format!("Let me look.\n{}\n", f.several.0);
        let mut sp = StreamParser::new(ParseOptions::default().with_executors(["sh", "node"]));
        let mut buf = [0u8; 4];
        for c in input.chars() {
            sp.feed(c.encode_utf8(&mut buf).as_bytes());
            let v = sp.visible();
            assert!(!v.contains(f.probe), "{}: shown {v:?}", f.file);
        }
        let done = sp.finish().to_json();
        assert_eq!(done, parse(&input), "{}", f.file);
    }
}
