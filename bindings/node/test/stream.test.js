// StreamParser's promises, over each backend: eight turns streamed interleaved through one
// process, each after every chunk held to the final parse of its whole text — the preview only
// grows, is a prefix (white space aside) of the final response text and so never shows markup
// the final parse reads as markup; the committed statements begin the final ones; finish() is
// parse() (SPEC §response-text, §pairing-need, §fence-closer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nativeApi from '../index.js';
import * as wasmApi from '../wasm/index.js';

const TURNS = [
  // Prose, a block, prose after it that the preview holds back, another block.
  "I'll check the config first.\n```READ (config/app.toml) <1,30>\n```\nThen I'll adjust the timeout.\n```EDIT (config/app.toml) <12>\ntimeout = 30\n```\n",
  // CRLF, an executor, accents.
  'Résumé of the run:\r\n- 3 tests passed\r\n```sh\r\ncargo test --release\r\n```\r\nAll green.\r\n',
  // Native tool-call markup, read as a call.
  'Looking it up.\n<function_calls>\n<invoke name="READ">\n<parameter name="path">docs/guide.md</parameter>\n</invoke>\n</function_calls>\n',
  // A naked KILL whose body is the answer, ended by its name.
  'KILL <!-- the answer -->\nThe fix is in `src/lib.rs`: the loop restarted per item.\nKILL\n',
  // A message showing an operation as its example: provisionally the example runs.
  "```SEND\nTo clear the notes you'd write:\n```KILL (notes.md)\n```\nbut keep them for now.\n```\n",
  // Compact headings before anything opens commit; no final newline.
  'Two quick ones.\n```WAIT```\n```READ (日本/記録.md)```\nDone — waiting now 🦀',
  // Text after a closed block that a later code block turns into its body.
  '```NOTE\nThe cache is warm.\n```\nNext I check the logs:\n```\n$ tail -n 5 app.log\n```\n',
  // A quotation the final parse shows as text, then JSON tool-call markup.
  'Output so far:\n```\nok 12 tests\n```\n<tool_call>\n{"name": "READ", "arguments": {"path": "a.md"}}\n</tool_call>\nThen decide.',
];
const SIZES = [1, 7, 64];

const squeeze = (s) => s.replace(/\s+/gu, '');
const responseText = (result) => result.items.filter((i) => i.kind === 'text').map((i) => i.content).join('');

for (const api of [nativeApi, wasmApi]) {
  test(`${api.backend}: eight turns streamed interleaved keep the preview and commitment promises`, () => {
    const streams = TURNS.map((turn, k) => {
      const final = api.parse(turn);
      return {
        turn,
        bytes: Buffer.from(turn),
        size: SIZES[k % SIZES.length],
        at: 0,
        parser: new api.StreamParser(),
        final,
        text: squeeze(responseText(final)),
        statements: final.items.filter((i) => i.kind === 'statement').map((i) => i.statement),
        preview: '',
        previews: 0,
      };
    });
    let live = streams.length;
    while (live > 0) {
      live = 0;
      for (const s of streams) {
        if (s.at >= s.bytes.length) continue;
        live++;
        s.parser.feed(s.bytes.subarray(s.at, s.at + s.size));
        s.at += s.size;
        const v = s.parser.visible;
        assert.ok(v.startsWith(s.preview), `${JSON.stringify(s.turn)}: the preview took back text: ${JSON.stringify(s.preview)} then ${JSON.stringify(v)}`);
        assert.ok(s.text.startsWith(squeeze(v)), `${JSON.stringify(s.turn)}: ${JSON.stringify(v)} is not a prefix of the final response text`);
        assert.doesNotMatch(v, /^ {0,3}(```|~~~)|<invoke|<tool_call|<!--/m, `${JSON.stringify(s.turn)}: markup in ${JSON.stringify(v)}`);
        const c = s.parser.committed;
        assert.deepEqual(c, s.statements.slice(0, c.length), `${JSON.stringify(s.turn)}: committed ${JSON.stringify(c)}`);
        s.preview = v;
        s.previews++;
      }
    }
    // What the previews ended at: the settled prose, nothing after the first line that may open.
    assert.deepEqual(
      streams.map((s) => s.preview),
      [
        "I'll check the config first.\n",
        'Résumé of the run:\r\n- 3 tests passed\r\n',
        'Looking it up.\n',
        '',
        '',
        'Two quick ones.\nDone — waiting now 🦀',
        '',
        'Output so far:\n',
      ],
    );
    assert.deepEqual(
      streams[5].parser.committed.map((x) => x.op),
      ['WAIT', 'READ'],
    );
    for (const s of streams) {
      assert.deepEqual(s.parser.finish(), s.final, JSON.stringify(s.turn));
      assert.ok(s.previews >= Math.ceil(s.bytes.length / s.size));
    }
  });
}
