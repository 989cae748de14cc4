#!/usr/bin/env bash
# Peak memory of the CLI on a 100 MB turn: the recorded emissions concatenated until the file
# reaches 100 MB, generated into /tmp at run time (never committed). The budget is three times
# the input plus 10 MB. Prints the figure and exits 1 over budget.
#
#   bash benches/memory.sh            # builds target/release/plurnk-parser first
#   SIZE_MB=20 bash benches/memory.sh # another size
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${PLURNK_SHARED:-../shared}"
SIZE_MB="${SIZE_MB:-100}"
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
BIN="$TARGET_DIR/release/plurnk-parser"
INPUT="${TMPDIR:-/tmp}/plurnk-memory-${SIZE_MB}mb.md"

command -v /usr/bin/time >/dev/null || { echo "memory.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
cargo build --release --quiet

if [ ! -s "$INPUT" ]; then
  python3 - "$SHARED/corpus/recorded-emissions.jsonl" "$INPUT" "$SIZE_MB" <<'PY'
import json, sys
src, dst, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
inputs = [json.loads(l)["input"] for l in open(src, encoding="utf-8") if l.strip()]
target = mb * 1000 * 1000
with open(dst, "w", encoding="utf-8", newline="") as out:
    n = 0
    while n < target:
        for s in inputs:
            chunk = s + "\n\n"
            out.write(chunk)
            n += len(chunk.encode("utf-8"))
            if n >= target:
                break
PY
fi

BYTES=$(stat -c %s "$INPUT")
LOG=$(mktemp)
set +e
/usr/bin/time -v "$BIN" --compact "$INPUT" > /dev/null 2> "$LOG"
STATUS=$?
set -e
PEAK_KB=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$LOG")
WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$LOG")
rm -f "$LOG"
PEAK=$((PEAK_KB * 1024))
BUDGET=$((3 * BYTES + 10 * 1024 * 1024))
awk -v b="$BYTES" -v p="$PEAK" -v g="$BUDGET" -v s="$STATUS" -v w="$WALL" 'BEGIN {
  printf "input %.1f MB; peak RSS %.1f MB = %.2f x input; budget %.1f MB (3 x input + 10 MB); exit %d; wall %s\n", b/1e6, p/1e6, p/b, g/1e6, s, w
}'
if [ "$STATUS" -ge 2 ]; then echo "memory.sh: the CLI failed (exit $STATUS)" >&2; exit 2; fi
if [ "$PEAK" -gt "$BUDGET" ]; then echo "memory.sh: OVER BUDGET" >&2; exit 1; fi
echo "within budget"
