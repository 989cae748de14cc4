#!/usr/bin/env bash
# Per round of `parse` over the recorded emissions, beside pulldown-cmark's over the same inputs:
# instructions, simulated L1 instruction-cache misses (32 KB, 64-byte lines, 8-way as on this
# machine, and fully associative: capacity alone, less moved by where the linker put the code)
# and mispredicted branches, by valgrind's cachegrind. Deterministic, so a change can be judged
# on a busy machine; short turns spend their parse on misses more than on instructions, which is
# where the throughput table's gap lies. One-time costs cancel: 11 rounds less 1, over 10.
#
#   bash benches/cache.sh                 # every recorded emission
#   QB_IDS=3,17,40 bash benches/cache.sh  # those corpus lines (0-based) only
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "cache.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
export PLURNK_SHARED="${PLURNK_SHARED:-../shared}"
cargo build --profile bench --example quickbench --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/examples/quickbench"
# Prints "instructions I1-misses mispredicts" for ROUNDS=$2, peer $1, I1 associativity $3.
sim() {
  QB_PEER="$1" ROUNDS="$2" valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --I1=32768,"$3",64 \
    --D1=49152,12,64 --LL=2097152,16,64 --cachegrind-out-file=/dev/null "$BIN" 2>&1 | python3 -c "
import re, sys
t = sys.stdin.read()
g = lambda k: int(re.search(k + r':\s+([\d,]+)', t).group(1).replace(',', ''))
print(g('I   refs'), g('I1  misses'), g('Mispredicts'))"
}
echo "| parser | instructions | I1 misses (8-way) | I1 misses (fully assoc.) | mispredicts |"
echo "|---|---:|---:|---:|---:|"
for peer in "" pulldown; do
  a=$(sim "$peer" 1 8); b=$(sim "$peer" 11 8); c=$(sim "$peer" 1 512); d=$(sim "$peer" 11 512)
  python3 -c "
a, b, c, d = [list(map(int, s.split())) for s in ('$a', '$b', '$c', '$d')]
r = [(y - x) / 10 for x, y in zip(a, b)]
print('| %s | %.0f | %.0f | %.0f | %.0f |' % ('${peer:-plurnk-parser}', r[0], r[1], (d[1] - c[1]) / 10, r[2]))"
done
