"""The Python API: every entry, options, StreamParser, errors, panics and the GIL."""

import json
import threading
import time

import pytest

import plurnk_parser as pp

TURN = "I will read it.\n```READ (src/a.rs) <1,40>\n```\n"


def test_parse_returns_plain_dicts():
    r = pp.parse(TURN)
    assert type(r) is dict and type(r["items"]) is list
    assert r["items"][0] == {"kind": "text", "content": "I will read it.\n", "position": {"line": 1, "column": 0}}
    s = r["items"][1]["statement"]
    assert (s["op"], s["target"], s["lineMarker"], s["position"]) == (
        "READ",
        {"kind": "local", "raw": "src/a.rs"},
        {"marks": [1, 40]},
        {"line": 2, "column": 0},
    )


def test_executors_register_a_runtime():
    src = "```python3 (tools/r.py)\r\nprint('é')\r\n```"
    assert pp.parse_statements(src)["items"][0]["kind"] == "error"
    s = pp.parse_statements(src, executors=["python3"])["items"][0]["statement"]
    assert s["runtime"] == "python3"


def test_every_entry():
    assert pp.parse_client("```LOOK (known://x)\n```")["items"][0]["statement"]["op"] == "LOOK"
    ops = [i["statement"]["op"] for i in pp.parse_reasoning("```NOTE\nthinking\n```\n```EDIT (a.md)\nx\n```\n```READ (b.md)\n```\n")["items"]]
    assert ops == ["NOTE", "READ"]
    assert pp.operation_attempt("Done.\nREAD (a.md)") == {"kind": "heading", "name": "READ", "line": 2, "column": 0, "text": "READ (a.md)"}
    assert pp.operation_attempt("The answer is 42.") is None
    assert pp.parse_path("worker:///a.md#readable")["fragment"] == "readable"
    assert pp.call("parseClient", "```LOOK (known://x)\n```") == pp.parse_client("```LOOK (known://x)\n```")


def test_diagnostic_ids_only_when_asked():
    """§parse-diagnostics: the contract's JSON has no `id`; the option adds the stable one."""
    prose = "Nothing to do here, ça va.\r\n"
    plain = pp.parse(prose)["items"][-1]["error"]
    assert "id" not in plain
    tagged = pp.parse(prose, diagnostic_ids=True)["items"][-1]["error"]
    assert tagged["id"] == "no-operation" and tagged["message"] == plain["message"]
    assert pp.call("parse", prose, diagnostic_ids=True) == pp.parse(prose, diagnostic_ids=True)
    s = pp.StreamParser(diagnostic_ids=True)
    s.feed(prose)
    assert s.finish()["items"][-1]["error"]["id"] == "no-operation"
    assert "id" not in pp.StreamParser().feed(prose).finish()["items"][-1]["error"]
    with pytest.raises(TypeError):
        pp.parse(prose, ["sh"], True)


def test_errors_raise():
    with pytest.raises(ValueError):
        pp.parse_path("http://[::1")
    with pytest.raises(ValueError, match="unknown"):
        pp.call("nope", "x")
    with pytest.raises(TypeError):
        pp.parse(1)
    with pytest.raises(TypeError):
        pp.parse("x", executors="sh")


def test_stream_provisional_committed_visible_and_finish():
    text = "Reading.\n```READ (a.md) <1,2>\n```\nThen 日本語 🦀.\n```NOTE\nfound it\n```\n"
    data = text.encode()
    s = pp.StreamParser()
    seen = []
    for i in range(0, len(data), 5):
        s.feed(data[i : i + 5])
        seen.append(len(s.provisional))
    assert [x["op"] for x in s.provisional] == ["READ", "NOTE"]
    assert seen.index(1) < seen.index(2)
    # The preview stops at the first block: text after one can still become its body.
    assert s.visible == "Reading.\n"
    assert s.committed == []
    assert s.finish() == pp.parse(text)
    with pytest.raises(ValueError, match="finished"):
        s.feed("more")


def test_stream_a_compact_heading_before_anything_opens_commits():
    s = pp.StreamParser().feed("Deux vérifications.\n```WAIT```\n```READ (a.md)\n```\nafter\n")
    assert [x["op"] for x in s.committed] == ["WAIT"]
    assert [x["op"] for x in s.provisional] == ["WAIT", "READ"]
    assert s.visible == "Deux vérifications.\n"
    assert s.finish()["items"][1]["statement"] == s.committed[0]


def test_stream_every_split_gives_parse():
    text = "a\r\n```EDIT (x.md) <1>\n```js\nlet é = 1;\n```\n```\n<function_calls>\n"
    data = text.encode()
    want = pp.parse(text)
    for cut in range(len(data) + 1):
        s = pp.StreamParser()
        s.feed(data[:cut]).feed(data[cut:])
        assert s.finish() == want, cut


def test_a_panic_is_an_exception_for_that_call_only():
    """Issue 46: a panic never takes the interpreter down."""
    with pytest.raises(pp.ParserPanic):
        pp._native._panic_for_test()
    assert issubclass(pp.ParserPanic, RuntimeError)
    assert pp.parse(TURN)["items"][1]["statement"]["op"] == "READ"


def test_parse_releases_the_gil():
    """Another thread runs Python code while a long parse is in progress.

    With the GIL held for the whole call, the main thread could run only before the parse begins
    or after it returns; it must instead make progress inside the middle of the parse's span.
    The span timed is the native call alone (parse and JSON rendering, both without the GIL):
    ``pp.parse`` then loads that JSON with ``json.loads``, which holds the GIL as any Python code
    does, and on a slower machine that load can fill the middle of the whole call's span.
    """
    big = ("Some prose about the change.\n```EDIT (src/x.rs)\nlet a = 1;\n```\n" * 60000)
    window = {}

    def work():
        window["start"] = time.perf_counter()
        out = pp._native.call("parse", big, None, False)
        window["end"] = time.perf_counter()
        window["out"] = out

    ticks = []
    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    start, end = window["start"], window["end"]
    margin = (end - start) * 0.25
    inside = [t for t in ticks if start + margin < t < end - margin]
    assert end - start > 0.05, "the parse was too short to tell"
    assert inside, f"no main-thread progress in the middle of a {end - start:.3f}s parse"
    assert json.loads(window["out"]) == pp.parse(big)
