// plurnk-parser as one ES module over WebAssembly: Node, Deno, Bun and browsers. The module's
// bytes are read from beside this file (the file system under a file: URL, fetch otherwise) and
// compiled once, at import (top-level await).
//
// A panic in the parser traps the WebAssembly instance (wasm32 has no unwinding). The trap
// becomes an Error for that call, and the instance is started afresh (wasm-bindgen's
// --experimental-reset-state-function), so the next call works; a StreamParser of the lost
// instance throws from then on.
import * as glue from './pkg/plurnk_parser_wasm.js';
import { wrap } from './api.js';

const url = new URL('./pkg/plurnk_parser_wasm_bg.wasm', import.meta.url);

async function bytes() {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`plurnk-parser: cannot fetch ${url}: ${response.status}`);
  return response.arrayBuffer();
}

glue.initSync({ module: await WebAssembly.compile(await bytes()) });

/** Bumped at every restart: a stream from an earlier instance cannot be used. */
let generation = 0;

function guard(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      glue.__wbg_reset_state();
      generation += 1;
      throw new Error(`plurnk-parser: internal error (${e.message}); the WebAssembly instance was restarted`, { cause: e });
    }
    throw e;
  }
}

class GuardedStream {
  #inner;
  #generation;
  constructor(optionsJson) {
    this.#inner = guard(() => new glue.StreamParser(optionsJson));
    this.#generation = generation;
  }
  #live(f) {
    if (this.#generation !== generation) throw new Error('plurnk-parser: this stream was lost when the WebAssembly instance restarted');
    return guard(f);
  }
  feedText(chunk) {
    return this.#live(() => this.#inner.feedText(chunk));
  }
  feedBytes(chunk) {
    return this.#live(() => this.#inner.feedBytes(chunk));
  }
  provisionalJson() {
    return this.#live(() => this.#inner.provisionalJson());
  }
  committedJson() {
    return this.#live(() => this.#inner.committedJson());
  }
  visible() {
    return this.#live(() => this.#inner.visible());
  }
  finishJson() {
    return this.#live(() => this.#inner.finishJson());
  }
}

/**
 * The calls under the API, JSON text in and out (the bytes `plurnk-parser --jsonl` writes), as
 * the Node addon's: `raw.call(entry, input, optionsJson)` for callers that forward the JSON.
 */
export const raw = {
  name: 'wasm',
  call: (entry, input, optionsJson) => guard(() => glue.call(entry, input, optionsJson)),
  StreamParser: GuardedStream,
  panicForTest: () => guard(() => glue.panicForTest()),
};

export const { backend, parse, parseStatements, parseClient, parseReasoning, operationAttempt, parsePath, StreamParser } = wrap(raw);
