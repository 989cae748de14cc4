// Per-call latency from Node on the benchmark turns (fixtures/bench/turn-60b.md, turn-4k.md):
// the API's parse() on the native addon and on WebAssembly, and the two ways the native result
// can cross into JS: JSON text + JSON.parse (what index.js does) against napi's serde bridge
// building the objects (callObject). Best of 7 batches. `npm run build && node bench/latency.mjs`
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as nativeApi from '../index.js';
import * as wasmApi from '../wasm/index.js';

const addon = createRequire(import.meta.url)('../native.cjs');

function best(f) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 50) {
    f();
    n++;
  }
  const batch = Math.max(10, n * 4);
  let min = Infinity;
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    for (let i = 0; i < batch; i++) f();
    min = Math.min(min, (performance.now() - t) / batch);
  }
  return min * 1000;
}

for (const name of ['turn-60b.md', 'turn-4k.md']) {
  const text = readFileSync(fileURLToPath(new URL(`../../../fixtures/bench/${name}`, import.meta.url)), 'utf8');
  const rows = {
    'native parse()': () => nativeApi.parse(text),
    '  JSON text only (addon call)': () => addon.call('parse', text),
    '  napi serde objects (callObject)': () => addon.callObject('parse', text),
    'wasm parse()': () => wasmApi.parse(text),
    '  JSON text only (wasm call)': () => wasmApi.raw.call('parse', text),
  };
  for (const [label, f] of Object.entries(rows)) console.log(`node ${name.padEnd(12)} ${label.padEnd(34)} ${best(f).toFixed(2).padStart(8)} µs/call`);
}
