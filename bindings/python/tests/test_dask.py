"""examples/python/dask_corpus.py on a small corpus of shards, with Dask's local scheduler."""

import json
import pathlib
import subprocess
import sys

import pytest

import plurnk_parser as pp

pytest.importorskip("dask.bag", reason="pip install dask (the .ci/run venv has it)")

EXAMPLE = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python" / "dask_corpus.py"

TURNS = [
    "Looking first.\n```READ (src/main.rs) <1,20>\n```\n",
    "Plain prose, no operation.",
    "```EDIT (docs/ünï.md)\r\n# Title\r\n```\r\n",
    "```python3 (t.py)\nprint(1)\n```",
    "\tindented ```READ (x)```",
]


def test_dask_example_parses_every_shard_in_order(tmp_path):
    shards, out = tmp_path / "shards", tmp_path / "out"
    shards.mkdir()
    requests = []
    for s in range(3):
        lines = []
        for i, turn in enumerate(TURNS):
            req = {"id": f"s{s}-{i}", "entry": "parse", "input": turn * (s + 1), "options": {"executors": ["sh", "python3"]} if i == 3 else {}}
            lines.append(json.dumps(req))
            requests.append(req)
        (shards / f"shard-{s}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(EXAMPLE), str(shards), str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert f"answered {len(requests)} requests" in run.stderr
    parts = sorted(out.glob("part-*.jsonl"), key=lambda p: int(p.stem.split("-")[1]))
    assert len(parts) == 3
    got = [json.loads(line) for p in parts for line in p.read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in got] == [r["id"] for r in requests]
    for g, r in zip(got, requests):
        assert g["result"] == pp.parse(r["input"], executors=(r["options"] or {}).get("executors")), r["id"]
