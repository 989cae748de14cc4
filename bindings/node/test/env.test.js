// PLURNK_PARSER_WASM=1 makes index.js load the WebAssembly module even where the addon loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const index = fileURLToPath(new URL('../index.js', import.meta.url));
const probe = `const m = await import(${JSON.stringify(index)}); console.log(m.backend, m.parse('\`\`\`READ (a.md)\\n\`\`\`').items[0].statement.op);`;
const run = (env) => execFileSync(process.execPath, ['--input-type=module', '-e', probe], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();

test('PLURNK_PARSER_WASM=1 forces the WebAssembly backend', () => {
  assert.equal(run({ PLURNK_PARSER_WASM: '1' }), 'wasm READ');
  assert.equal(run({ PLURNK_PARSER_WASM: '' }), 'native READ');
});
