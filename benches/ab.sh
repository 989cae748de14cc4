#!/usr/bin/env bash
# A/B of the throughput bench's headline, the interleaved table's ratio to pulldown-cmark, for
# two revisions. Each is built once (`bench` profile), then the two binaries run in alternating
# pairs, the order flipped every pair so a drifting machine favours neither. One run's ratio
# moves by about ±0.03 between runs of the same binary on the reference machine, so a change
# worth 0.01 shows only over many pairs: the summary gives each side's mean and the mean, least
# and greatest of the per-pair differences.
#
#   bash benches/ab.sh main .            # main against the working tree (uncommitted changes too)
#   N=8 SECS=2 bash benches/ab.sh 9e00d65 HEAD
#
# A revision is anything `git rev-parse` takes, or `.` for the working tree. Only the first
# table is read: each run is stopped once it is printed. Not in CI (timing).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: benches/ab.sh REV_A REV_B   (a revision, or . for the working tree)" >&2; exit 2; }
N="${N:-6}"
SECS="${SECS:-2}"
SHARED="$(cd "${PLURNK_SHARED:-../shared}" 2>/dev/null && pwd)" || { echo "ab.sh: no corpus at ${PLURNK_SHARED:-../shared}" >&2; exit 2; }
ROOT="$(pwd)"
TARGET="$(mkdir -p "${CARGO_TARGET_DIR:-target}/ab" && cd "${CARGO_TARGET_DIR:-target}/ab" && pwd)"
WORK="$(mktemp -d)"
cleanup() {
  for d in "$WORK"/tree-*; do
    [ -d "$d" ] && git -C "$ROOT" worktree remove --force "$d" >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Builds the throughput bench of revision $1 and copies it to $WORK/bench-$2.
build() {
  local rev="$1" side="$2" dir
  if [ "$rev" = . ]; then
    dir="$ROOT"
  else
    git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "ab.sh: unknown revision $rev" >&2; exit 2; }
    dir="$WORK/tree-$side"
    git worktree add --detach --quiet "$dir" "$rev"
  fi
  local exe
  exe="$(cd "$dir" && CARGO_TARGET_DIR="$TARGET" cargo bench --bench throughput --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "throughput" and m.get("executable"):
        print(m["executable"])')"
  [ -x "$exe" ] || { echo "ab.sh: building the bench at $rev failed" >&2; exit 1; }
  cp "$exe" "$WORK/bench-$side"
  echo "$side: $rev ($( [ "$rev" = . ] && echo "working tree" || git rev-parse --short "$rev"))"
}

# Runs one side until its first table is printed; prints "ours peer ratio".
run() {
  local out="$WORK/out" pid i
  : > "$out"
  PLURNK_SHARED="$SHARED" PLURNK_BENCH_SECS="$SECS" "$WORK/bench-$1" --bench > "$out" 2>/dev/null &
  pid=$!
  for i in $(seq 1 600); do
    grep -q '^| memchr newline pass' "$out" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  awk -F'|' '/^\| plurnk-parser `parse`/ {o=$3} /^\| pulldown-cmark \(events\)/ {p=$3}
    END {if (o == "" || p == "") exit 1; printf "%.1f %.1f %.4f\n", o, p, o / p}' "$out" ||
    { echo "ab.sh: the bench printed no table ($1)" >&2; exit 1; }
}

build "$1" A
build "$2" B
echo "pair | A MB/s | A ratio | B MB/s | B ratio | B - A"
for k in $(seq 1 "$N"); do
  if [ $((k % 2)) -eq 1 ]; then a="$(run A)"; b="$(run B)"; else b="$(run B)"; a="$(run A)"; fi
  read -r ao _ ar <<< "$a"
  read -r bo _ br <<< "$b"
  echo "$k $ao $ar $bo $br" >> "$WORK/pairs"
  awk -v k="$k" -v ao="$ao" -v ar="$ar" -v bo="$bo" -v br="$br" 'BEGIN {printf "%d | %.1f | %.4f | %.1f | %.4f | %+.4f\n", k, ao, ar, bo, br, br - ar}'
done
awk '{sa += $3; sb += $5; d = $5 - $3; sd += d; if (NR == 1 || d < lo) lo = d; if (NR == 1 || d > hi) hi = d}
  END {printf "mean ratio: A %.4f, B %.4f; B - A: mean %+.4f, least %+.4f, greatest %+.4f (%d pairs)\n", sa / NR, sb / NR, sd / NR, lo, hi, NR}' "$WORK/pairs"
