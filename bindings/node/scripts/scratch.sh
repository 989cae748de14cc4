#!/usr/bin/env bash
# The release flow, checked: `npm pack` (prepack builds the linux-x64-gnu addon and the
# WebAssembly module into the tarball), then the tarball installed into a scratch project with no
# cargo or rustc on PATH, where the README's Node example runs as written: on the native addon,
# and on WebAssembly with PLURNK_PARSER_WASM=1.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- npm pack"
(cd "$here" && npm pack --silent --pack-destination "$work" >/dev/null)
tgz=$(ls "$work"/plurnk-parser-*.tgz)
ls -l "$tgz"
listing=$(tar tzf "$tgz")
for f in package/index.js package/index.d.ts package/native.cjs package/plurnk-parser.linux-x64-gnu.node \
  package/wasm/index.js package/wasm/api.js package/wasm/pkg/plurnk_parser_wasm.js package/wasm/pkg/plurnk_parser_wasm_bg.wasm; do
  grep -qx "$f" <<<"$listing" || { echo "the tarball lacks $f"; exit 1; }
done

# PATH without any Rust toolchain.
nocargo=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e 'rustup' | paste -sd: -)
if PATH=$nocargo command -v cargo >/dev/null || PATH=$nocargo command -v rustc >/dev/null; then
  echo "cargo is still on the scratch PATH"; exit 1
fi

echo "-- install into a scratch project (no cargo on PATH)"
mkdir "$work/app"
cd "$work/app"
printf '{"name":"scratch","private":true,"type":"module"}\n' > package.json
PATH=$nocargo npm install --no-audit --no-fund --omit=optional "$tgz" >/dev/null
node "$here/scripts/readme-block.mjs" js node-example > example.mjs

native=$(PATH=$nocargo node example.mjs)
echo "native: $native"
[ "$native" = "native text statement" ]
wasm=$(PATH=$nocargo PLURNK_PARSER_WASM=1 node example.mjs)
echo "wasm:   $wasm"
[ "$wasm" = "wasm text statement" ]

echo "-- index.d.ts type-checks a use of the result (tsc --strict)"
PATH=$nocargo npm install --no-audit --no-fund typescript@5 >/dev/null
cat > check.ts <<'TS'
import { parse, StreamParser, type Item, type ParseResult } from 'plurnk-parser';
const r: ParseResult = parse('```READ (a.md)\n```', { executors: ['sh'] });
const lines: number[] = r.items.map((i: Item) =>
  i.kind === 'statement' ? i.statement.position.line : i.kind === 'error' ? i.error.line : i.position.line);
const tail: number | undefined = r.unparsedTail?.from.line;
const s = new StreamParser().feed(new Uint8Array([65]));
const shown: number = s.provisional.length + s.visible.length + s.finish().items.length;
// @ts-expect-error an item's kind is one of three, not any string
const wrong: Item = { kind: 'other' };
console.log(lines, tail, shown, wrong);
TS
PATH=$nocargo npx tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 check.ts
echo "scratch install: 3 passed, 0 failed"
