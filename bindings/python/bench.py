"""Per-call latency from Python on the benchmark turns (fixtures/bench/turn-60b.md, turn-4k.md):
``parse`` (dicts, through json.loads) and the native call alone (JSON text). Best of 7 batches.
``python bindings/python/bench.py`` with the package installed."""

import pathlib
import time

import plurnk_parser
from plurnk_parser import _native

BENCH = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "bench"


def best(f):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.05:
        f()
        n += 1
    batch = max(10, n * 4)
    times = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(batch):
            f()
        times.append((time.perf_counter() - t) / batch)
    return min(times) * 1e6


for name in ["turn-60b.md", "turn-4k.md"]:
    text = (BENCH / name).read_text(encoding="utf-8")
    print(f"python {name:12} parse() {best(lambda: plurnk_parser.parse(text)):8.2f} µs/call   "
          f"JSON text only {best(lambda: _native.call('parse', text, None)):8.2f} µs/call")
