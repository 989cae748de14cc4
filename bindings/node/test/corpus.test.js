// Both backends give byte for byte the CLI's JSON on the whole conformance corpus: each case's
// `{"id","result"}` line from `plurnk-parser --jsonl` equals the one built from raw.call's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { raw as nativeRaw } from '../index.js';
import { raw as wasmRaw } from '../wasm/index.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const shared = process.env.PLURNK_SHARED ?? join(repo, '..', 'shared');
const cli = process.env.PLURNK_CLI ?? join(repo, 'target', 'release', 'plurnk-parser');

function corpus() {
  const dir = join(shared, 'corpus');
  const cases = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim()) cases.push(JSON.parse(line));
    }
  }
  return cases;
}

test('native and WebAssembly give the CLI --jsonl bytes on every corpus case', () => {
  assert.ok(existsSync(cli), `build the CLI first (cargo build --release): ${cli}`);
  const cases = corpus();
  assert.ok(cases.length > 1000, `corpus has ${cases.length} cases`);
  const requests = cases.map((c) => JSON.stringify({ id: c.id, entry: c.entry ?? 'parse', input: c.input, options: c.options ?? {} })).join('\n') + '\n';
  const lines = execFileSync(cli, ['--jsonl'], { input: requests, encoding: 'utf8', maxBuffer: 1 << 30 }).trimEnd().split('\n');
  assert.equal(lines.length, cases.length);
  for (const [name, raw] of [['native', nativeRaw], ['wasm', wasmRaw]]) {
    let same = 0;
    cases.forEach((c, i) => {
      // The CLI reads `executors` alone from a request's options.
      const options = c.options?.executors ? JSON.stringify({ executors: c.options.executors }) : undefined;
      let ours;
      try {
        ours = `{"id":${JSON.stringify(c.id)},"result":${raw.call(c.entry ?? 'parse', c.input, options)}}`;
      } catch (e) {
        ours = JSON.stringify({ id: c.id, throws: e.message });
      }
      assert.equal(ours, lines[i], `${name}: ${c.id}`);
      same += 1;
    });
    assert.equal(same, cases.length);
  }
});
