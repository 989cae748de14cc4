#!/usr/bin/env bash
# Code footprint of one parse: the distinct 64-byte instruction-cache lines `parse` executes on
# one turn, counted by callgrind (--dump-instr), beside pulldown-cmark's on the same turn. A
# parse that touches more lines than the L1 instruction cache holds (32 KB, 512 lines, 8-way:
# no set may need more than 8) refetches its code on every turn, however few instructions it
# runs: the per-function list says where the lines go.
#
# `--corpus` counts instead the lines one round over every recorded emission runs (or the corpus
# lines `QB_IDS` names): the code the throughput table's inputs share the cache with. A turn
# taking a path the turn before did not refetches whatever that path evicted.
#
#   bash benches/footprint.sh fixtures/example-turn.md     # any turn; prints the top functions
#   bash benches/footprint.sh --corpus                     # one round of the recorded emissions
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "footprint.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
TURN="${1:?usage: footprint.sh TURN.md | --corpus}"
if [ "$TURN" = --corpus ]; then
  export PLURNK_SHARED="${PLURNK_SHARED:-../shared}"
  INPUT=(env)
else
  [ -r "$TURN" ] || { echo "footprint.sh: cannot read $TURN" >&2; exit 2; }
  INPUT=(env QB_FILE="$TURN")
fi
cargo build --profile bench --example quickbench --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/examples/quickbench"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
for peer in "" pulldown; do
  # Three passes, the first untimed (quickbench warms up): every line the steady state runs.
  "${INPUT[@]}" QB_PEER="$peer" ROUNDS=3 valgrind --tool=callgrind --dump-instr=yes --compress-strings=no \
    --compress-pos=no --callgrind-out-file="$OUT/${peer:-plurnk}.cg" --toggle-collect='*quickbench::passes' "$BIN" >/dev/null 2>&1
done
python3 - "$OUT/plurnk.cg" "$OUT/pulldown.cg" <<'PY'
import collections, re, sys

def lines_of(path):
    """Distinct 64-byte lines executed, overall and per function (call-cost lines skipped)."""
    lines, by_fn, fn, after_call = set(), collections.defaultdict(set), None, False
    for l in open(path):
        if l.startswith('fn='):
            fn = l[3:].strip()
        elif l.startswith('calls='):
            after_call = True
        else:
            m = re.match(r'^(0x[0-9a-f]+)\s', l)
            if m:
                if after_call:
                    after_call = False
                    continue
                line = int(m.group(1), 16) >> 6
                lines.add(line)
                by_fn[fn].add(line)
    return lines, by_fn

for name, path in (('plurnk-parser parse', sys.argv[1]), ('pulldown-cmark (events)', sys.argv[2])):
    lines, by_fn = lines_of(path)
    sets = collections.Counter(l % 64 for l in lines)
    print(f'{name}: {len(lines)} lines ({len(lines) * 64} bytes); busiest set {max(sets.values(), default=0)} lines, '
          f'{sum(1 for v in sets.values() if v > 8)} of 64 sets over 8')
    if name.startswith('plurnk'):
        for fn, ls in sorted(by_fn.items(), key=lambda kv: -len(kv[1]))[:15]:
            print(f'  {len(ls):4d}  {fn[:100]}')
PY
