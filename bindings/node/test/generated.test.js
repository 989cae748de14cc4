// The committed generated files are what their scripts give: index.d.ts from
// schema/ParseResult.json, and the per-target packages, optionalDependencies and native.cjs from
// package.json's napi.targets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expected } from '../scripts/types.mjs';
import { generated } from '../scripts/targets.mjs';

test('index.d.ts is generated from the schema and up to date', () => {
  const committed = readFileSync(fileURLToPath(new URL('../index.d.ts', import.meta.url)), 'utf8');
  assert.equal(committed, expected(), 'run `node scripts/types.mjs`');
  // The items are typed from the schema, not left open.
  assert.match(committed, /export type Item = \{\n  kind: 'statement';\n  statement: Statement;/);
  assert.match(committed, /export interface UnparsedTail \{\n  from: Position;\n  reason: string;/);
  assert.doesNotMatch(committed, /[:<|]\s*any\b/);
});

test('the target packages and the loader are generated from napi.targets and up to date', () => {
  for (const [path, text] of generated()) assert.equal(readFileSync(path, 'utf8'), text, `${path}: run \`node scripts/targets.mjs\``);
  const linux = JSON.parse(readFileSync(fileURLToPath(new URL('../npm/linux-x64-musl/package.json', import.meta.url)), 'utf8'));
  assert.deepEqual([linux.os, linux.cpu, linux.libc], [['linux'], ['x64'], ['musl']]);
});
