#!/usr/bin/env bash
# Instructions per byte of `parse` over the recorded emissions, counted by valgrind's callgrind:
# unlike wall-clock MB/s it does not move when the machine is busy, so a change to the hot path
# can be judged while a fuzzer runs. One-time costs (reading the corpus, compiling the rule
# tables) cancel out: the figure is the difference between 21 rounds and 1, divided by 20.
#
#   bash benches/instructions.sh   (prints pulldown-cmark's count over the same inputs too)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
SHARED="${PLURNK_SHARED:-../shared}"
cargo build --profile bench --example quickbench --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/examples/quickbench"
count() {
  QB_PEER="${2:-}" ROUNDS="$1" PLURNK_SHARED="$SHARED" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" 2>&1 \
    | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
bytes=$(PLURNK_SHARED="$SHARED" ROUNDS=1 "$BIN" | sed -nE 's/.*rounds, ([0-9]+) bytes.*/\1/p')
one=$(count 1)
many=$(count 21)
# The peer the throughput benchmark compares against, over the same inputs (into events).
peer_one=$(count 1 pulldown)
peer_many=$(count 21 pulldown)
python3 -c "
ours = ($many - $one) / 20 / $bytes
peer = ($peer_many - $peer_one) / 20 / $bytes
print(f'recorded emissions: {$bytes} bytes; {ours:.1f} instructions per byte of parse')
print(f'pulldown-cmark (events), same inputs: {peer:.1f} instructions per byte; parse/pulldown = {ours / peer:.2f}')"
