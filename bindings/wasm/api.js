// The JavaScript face of plurnk-parser over one backend: the Node addon or the WebAssembly module.
// Both backends take the same calls (`call(entry, input, optionsJson)` and a `StreamParser` with
// feedText, feedBytes, provisionalJson, committedJson, visible, finishJson) and return the contract's JSON text,
// the bytes `plurnk-parser --jsonl` writes; this layer checks the arguments and parses the JSON.

function optionsJson(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError('options must be an object');
  return JSON.stringify(options);
}

/** The API over `backend`; `backend.name` is 'native' or 'wasm'. */
export function wrap(backend) {
  const call = (entry, input, options) => {
    if (typeof input !== 'string') throw new TypeError('input must be a string');
    return JSON.parse(backend.call(entry, input, optionsJson(options)));
  };

  class StreamParser {
    #inner;
    constructor(options) {
      this.#inner = new backend.StreamParser(optionsJson(options));
    }
    /** Feeds a chunk: a string, or bytes (a Uint8Array or Buffer; a character may be split). */
    feed(chunk) {
      if (typeof chunk === 'string') this.#inner.feedText(chunk);
      else if (chunk instanceof Uint8Array) this.#inner.feedBytes(chunk);
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
    /**
     * The committed statements: the first provisional ones, which no continuation of the turn
     * changes (finish() begins with them). Only compact one-line headings with nothing opened
     * before them commit.
     */
    get committed() {
      return JSON.parse(this.#inner.committedJson());
    }
    /**
     * The response text visible so far: a prefix (white space aside) of finish()'s response
     * text, whatever follows, never showing markup. It stops at the first line that may open a
     * block or begin native markup; the rest arrives with finish().
     */
    get visible() {
      return this.#inner.visible();
    }
    /** Ends the stream: exactly parse() of the whole text. Dispatch these statements. */
    finish() {
      return JSON.parse(this.#inner.finishJson());
    }
  }

  return {
    backend: backend.name,
    parse: (input, options) => call('parse', input, options),
    parseStatements: (input, options) => call('parseStatements', input, options),
    parseClient: (input, options) => call('parseClient', input, options),
    parseReasoning: (input, options) => call('parseReasoning', input, options),
    operationAttempt: (input, options) => call('operationAttempt', input, options),
    parsePath: (path) => call('parsePath', path, undefined),
    StreamParser,
  };
}
