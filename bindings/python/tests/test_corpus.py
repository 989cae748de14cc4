"""`parse` and every other entry equal the CLI's JSON on the whole conformance corpus."""

import json
import os
import pathlib
import subprocess

import pytest

import plurnk_parser as pp

REPO = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("PLURNK_SHARED", REPO.parent / "shared"))
CLI = pathlib.Path(os.environ.get("PLURNK_CLI", REPO / "target" / "release" / "plurnk-parser"))


def test_every_corpus_case_equals_the_cli():
    assert CLI.exists(), f"build the CLI first (cargo build --release): {CLI}"
    cases = []
    for f in sorted((SHARED / "corpus").glob("*.jsonl")):
        cases += [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(cases) > 1000
    requests = "".join(
        json.dumps({"id": c["id"], "entry": c.get("entry", "parse"), "input": c["input"], "options": c.get("options") or {}}) + "\n"
        for c in cases
    )
    out = subprocess.run([str(CLI), "--jsonl"], input=requests.encode(), capture_output=True, check=True).stdout
    lines = out.decode().splitlines()
    assert len(lines) == len(cases)
    for c, line in zip(cases, lines):
        want = json.loads(line)
        executors = (c.get("options") or {}).get("executors")
        if "throws" in want:
            with pytest.raises(ValueError) as e:
                pp.call(c.get("entry", "parse"), c["input"], executors)
            assert str(e.value) == want["throws"], c["id"]
        else:
            assert pp.call(c.get("entry", "parse"), c["input"], executors) == want["result"], c["id"]
            if c.get("entry", "parse") == "parse":
                assert pp.parse(c["input"], executors=executors) == want["result"], c["id"]
