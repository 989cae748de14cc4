#!/usr/bin/env bash
# Builds every fuzz target once, then runs them one after another with a single worker each
# (libFuzzer's fork mode, one job, crashes recorded and fuzzing continued), for FUZZ_SECS seconds
# (default 1800) or 10 million executions, whichever comes first, seeded from fixtures/.
# Logs and one summary line per target go to $FUZZ_LOGS (default /tmp/plurnk-fuzz).
#   bash fuzz/run-all.sh                          # every target
#   FUZZ_SECS=600 bash fuzz/run-all.sh parse structured
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECS="${FUZZ_SECS:-1800}"
LOGS="${FUZZ_LOGS:-/tmp/plurnk-fuzz}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/fuzz/target}"
# Made absolute: the targets run from the log directory.
TARGET_DIR="$(cd "$(dirname "$TARGET_DIR")" && pwd)/$(basename "$TARGET_DIR")"
mkdir -p "$LOGS"
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(parse parse_statements parse_client parse_path native_read stream structured slowness)
cd "$ROOT"
# The targets are bolero targets: this cfg makes libFuzzer their engine (fuzz/harness.rs).
export RUSTFLAGS="--cfg fuzzing_libfuzzer${RUSTFLAGS:+ $RUSTFLAGS}"
# Either may be missing on a new machine: say which, rather than leave it to cargo's error.
rustup run nightly rustc --version >/dev/null 2>&1 || { echo "run-all.sh: no nightly toolchain (rustup toolchain install nightly)" >&2; exit 2; }
cargo +nightly fuzz --version >/dev/null 2>&1 || { echo "run-all.sh: the cargo-fuzz subcommand is missing (cargo install cargo-fuzz)" >&2; exit 2; }
cargo +nightly fuzz build --fuzz-dir "$ROOT/fuzz" --target-dir "$TARGET_DIR" -s none -a || exit 2
BIN="$TARGET_DIR/x86_64-unknown-linux-gnu/release"
cd "$LOGS"   # libFuzzer writes its job logs into the working directory
for t in "${TARGETS[@]}"; do
  corpus="$ROOT/fuzz/corpus/$t"
  artifacts="$ROOT/fuzz/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  start=$(date +%s)
  "$BIN/$t" "$corpus" "$ROOT/fixtures/fuzz-seeds" "$ROOT/fixtures" \
    -fork=1 -ignore_crashes=1 -runs=10000000 -max_total_time="$SECS" -max_len=16384 -timeout=20 \
    -rss_limit_mb=4096 -artifact_prefix="$artifacts/" > "$LOGS/$t.out" 2>&1
  status=$?
  last=$(grep -E '^#[0-9]+: cov' "$LOGS/$t.out" | tail -1)
  execs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/')
  crashes=$(echo "$last" | sed -E 's#.*oom/timeout/crash: ([0-9/]+).*#\1#')
  echo "$t status=$status secs=$(( $(date +%s) - start )) execs=${execs:-?} corpus=$(ls "$corpus" | wc -l) oom/timeout/crash=${crashes:-?} artifacts=$(ls "$artifacts" | wc -l)" | tee -a "$LOGS/summary.txt"
done
