// plurnk-parser for Node (ESM). Every function returns the contract's result object, exactly as
// `plurnk-parser --jsonl` serializes it; `parsePath` and unknown options throw.
import { createRequire } from 'node:module';

const native = createRequire(import.meta.url)('./plurnk_parser.node');

function optionsJson(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError('options must be an object');
  return JSON.stringify(options);
}

function call(entry, input, options) {
  if (typeof input !== 'string') throw new TypeError('input must be a string');
  return JSON.parse(native.call(entry, input, optionsJson(options)));
}

/** One model turn: statements, diagnostics and response text (PlurnkParser.parse). */
export const parse = (input, options) => call('parse', input, options);
/** Protocol statements only (PlurnkParser.parseStatements). */
export const parseStatements = (input, options) => call('parseStatements', input, options);
/** Executable blocks including LOOK (PlurnkParser.parseClient). */
export const parseClient = (input, options) => call('parseClient', input, options);
/** The NOTE, FIND and READ statements exposed reasoning contributes (§reasoning-operations). */
export const parseReasoning = (input, options) => call('parseReasoning', input, options);
/** For an emission with no operation: the attempt it makes, or null for prose (§operation-attempt). */
export const operationAttempt = (input, options) => call('operationAttempt', input, options);
/** One target decomposed (§path-syntax); throws on a malformed path. */
export const parsePath = (path) => call('parsePath', path, undefined);

/** Reads a turn as it arrives. */
export class StreamParser {
  #inner;
  constructor(options) {
    this.#inner = new native.StreamParser(optionsJson(options));
  }
  /** Feeds a chunk: a string, or bytes (a Buffer or Uint8Array; a character may be split). */
  feed(chunk) {
    if (typeof chunk === 'string') this.#inner.feedText(chunk);
    else if (chunk instanceof Uint8Array) this.#inner.feedBytes(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    else throw new TypeError('chunk must be a string or bytes');
    return this;
  }
  /**
   * The provisional statements so far: for display only. A later chunk can drop or re-read any
   * of them (a later fence can make a block a quoted example), so dispatch only from finish().
   */
  get provisional() {
    return JSON.parse(this.#inner.provisionalJson());
  }
  /** The response text visible so far, with anything that may still be an operation held back. */
  get visible() {
    return this.#inner.visible();
  }
  /** Ends the stream: exactly parse() of the whole text. */
  finish() {
    return JSON.parse(this.#inner.finishJson());
  }
}
