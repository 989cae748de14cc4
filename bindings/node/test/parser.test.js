// The API's behaviour, run once over each backend: the native addon (index.js on this host) and
// the WebAssembly module (wasm/index.js, what every other host and PLURNK_PARSER_WASM=1 load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nativeApi from '../index.js';
import * as wasmApi from '../wasm/index.js';

for (const api of [nativeApi, wasmApi]) {
const { parse, parseStatements, parseClient, parseReasoning, operationAttempt, parsePath, StreamParser } = api;
const test_ = test;
{
const test = (name, f) => test_(`${api.backend}: ${name}`, f);

const turn = 'I will read it.\n```READ (src/a.rs) <1,40>\n```\n';

test('parse returns the result object', () => {
  const r = parse(turn);
  assert.deepEqual(r.items[0], { kind: 'text', content: 'I will read it.\n', position: { line: 1, column: 0 } });
  const s = r.items[1].statement;
  assert.equal(s.op, 'READ');
  assert.deepEqual(s.target, { kind: 'local', raw: 'src/a.rs' });
  assert.deepEqual(s.lineMarker, { marks: [1, 40] });
  assert.deepEqual(s.position, { line: 2, column: 0 });
});

test('a turn with no operation carries the hard diagnostic', () => {
  const r = parse('Just prose.');
  assert.equal(r.items.at(-1).error.message, 'No valid Operation Syntax OPs detected.');
});

test('options name the executors', () => {
  const src = '```python3 (tools/r.py)\nprint(1)\n```';
  assert.equal(parseStatements(src).items[0].kind, 'error');
  const r = parseStatements(src, { executors: ['python3'] });
  assert.equal(r.items[0].statement.runtime, 'python3');
  assert.equal(r.items[0].statement.body, 'print(1)');
});

test('parseClient reads LOOK', () => {
  assert.equal(parseClient('```LOOK (known://x)\n```').items[0].statement.op, 'LOOK');
});

test('parseReasoning admits complete NOTE, FIND and READ only', () => {
  const r = parseReasoning('```NOTE\nthinking\n```\n```EDIT (a.md)\nx\n```\n```READ (b.md)\n```\n```NOTE\nunfinished');
  assert.deepEqual(r.items.map((i) => i.statement.op), ['NOTE', 'READ']);
});

test('operationAttempt names an attempt, null for prose', () => {
  assert.deepEqual(operationAttempt('Done.\nREAD (a.md)'), { kind: 'heading', name: 'READ', line: 2, column: 0, text: 'READ (a.md)' });
  assert.equal(operationAttempt('The answer is 42.\n```python\nprint(42)\n```'), null);
});

test('parsePath decomposes and throws on a malformed path', () => {
  assert.equal(parsePath('worker:///a.md#readable').fragment, 'readable');
  assert.throws(() => parsePath('http://[::1'));
});

test('bad options throw', () => {
  assert.throws(() => parse('x', { colour: 'red' }), /unknown option/);
  assert.throws(() => parse(1));
});

test('StreamParser: provisional statements, committed ones and visible text while streaming, parse() at the end', () => {
  const text = 'Reading.\n```READ (a.md) <1,2>\n```\nThen 日本語 🦀.\n```NOTE\nfound it\n```\n';
  const bytes = Buffer.from(text);
  const s = new StreamParser();
  const seen = [];
  for (let i = 0; i < bytes.length; i += 5) {
    s.feed(bytes.subarray(i, i + 5));
    seen.push(s.provisional.length);
  }
  assert.deepEqual(s.provisional.map((x) => x.op), ['READ', 'NOTE']);
  assert.ok(seen.indexOf(1) < seen.indexOf(2));
  // The preview stops at the first block: text after one can still become its body.
  assert.equal(s.visible, 'Reading.\n');
  assert.deepEqual(s.committed, []);
  assert.deepEqual(s.finish(), parse(text));
  assert.throws(() => s.feed('more'), /finished/);
});

test('StreamParser: every split gives parse()', () => {
  const text = 'a\r\n```EDIT (x.md) <1>\n```js\nlet é = 1;\n```\n```\n<function_calls>\n';
  const bytes = Buffer.from(text);
  const want = parse(text);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const s = new StreamParser();
    s.feed(bytes.subarray(0, cut)).feed(bytes.subarray(cut));
    assert.deepEqual(s.finish(), want, `split at ${cut}`);
  }
});

test('a Uint8Array chunk (not a Buffer) feeds the stream', () => {
  const s = new StreamParser();
  s.feed(new TextEncoder().encode('```READ (a.md)\n```\n'));
  assert.equal(s.finish().items[0].statement.op, 'READ');
});

test('a panic in the parser is an exception for that call; the next call works (issue 46)', () => {
  assert.throws(() => api.raw.panicForTest(), /internal error/);
  assert.equal(parse('```READ (a.md)\n```').items[0].statement.op, 'READ');
  const s = new StreamParser();
  s.feed('```NOTE\nx\n```\n');
  assert.equal(s.finish().items[0].statement.op, 'NOTE');
});
}
}

test('index.js loads the native addon on this host', () => {
  assert.equal(nativeApi.backend, 'native');
  assert.equal(wasmApi.backend, 'wasm');
});
