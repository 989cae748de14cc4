// plurnk-parser for Node (ESM). Loads the native addon for this host (native.cjs: the prebuilt
// file in the package, else the per-target package), and falls back to the WebAssembly build of
// the same crate (wasm/) on any host where no addon loads, or when PLURNK_PARSER_WASM=1. Every
// function returns the contract's result object, exactly as `plurnk-parser --jsonl` serializes
// it; `backend` says which one runs.
import { createRequire } from 'node:module';
import { wrap } from './wasm/api.js';

function native() {
  if (process.env.PLURNK_PARSER_WASM === '1') return null;
  try {
    const addon = createRequire(import.meta.url)('./native.cjs');
    return { name: 'native', call: addon.call, StreamParser: addon.StreamParser, panicForTest: addon.panicForTest };
  } catch (e) {
    if (process.env.PLURNK_PARSER_NATIVE === '1') throw e;
    return null;
  }
}

const addon = native();
const api = addon ? wrap(addon) : await import('./wasm/index.js');

/** JSON-text calls under the API (the bytes `plurnk-parser --jsonl` writes): `raw.call(entry, input, optionsJson)`. */
export const raw = addon ?? api.raw;
export const { backend, parse, parseStatements, parseClient, parseReasoning, operationAttempt, parsePath, StreamParser } = api;
