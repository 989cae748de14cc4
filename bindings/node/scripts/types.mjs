// Writes index.d.ts from schema/ParseResult.json: each $defs entry becomes one exported type
// (oneOf → a union, enum/const → string literals, closed objects → interfaces with their
// required keys), followed by the API's declarations. `node scripts/types.mjs --check` fails when
// the committed index.d.ts differs from what the schema gives (test/types.test.js runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = join(here, '..', '..', 'schema', 'ParseResult.json');
const outPath = join(here, 'index.d.ts');

/** Type names for the schema's $defs (PascalCase, with names that would shadow a global renamed). */
const NAMES = { error: 'Diagnostic', tail: 'UnparsedTail', item: 'Item' };
const typeName = (def) => NAMES[def] ?? def[0].toUpperCase() + def.slice(1);

const lit = (v) => JSON.stringify(v).replaceAll('"', "'");
const doc = (text, pad) => (text ? `${pad}/** ${text.replaceAll('*/', '*\\/')} */\n` : '');

function ts(s, pad) {
  if (s === true || Object.keys(s).length === 0 || (s.description && Object.keys(s).length === 1)) return 'unknown';
  if (s.$ref) return typeName(s.$ref.split('/').pop());
  if ('const' in s) return lit(s.const);
  if (s.enum) return s.enum.map(lit).join(' | ');
  if (s.oneOf || s.anyOf) return (s.oneOf ?? s.anyOf).map((x) => ts(x, pad)).join(' | ');
  if (Array.isArray(s.type)) return s.type.map((t) => ts({ ...s, type: t }, pad)).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const inner = ts(s.items ?? {}, pad);
      return /[|&]/.test(inner) ? `Array<${inner}>` : `${inner}[]`;
    }
    case 'object':
      return object(s, pad);
    default:
      throw new Error(`schema construct not handled: ${JSON.stringify(s)}`);
  }
}

function object(s, pad) {
  const required = new Set(s.required ?? []);
  const inner = pad + '  ';
  const fields = Object.entries(s.properties ?? {}).map(
    ([k, v]) => `${doc(v.description, inner)}${inner}${k}${required.has(k) ? '' : '?'}: ${ts(v, inner)};`,
  );
  const rest = s.additionalProperties === false ? [] : [`${inner}[key: string]: unknown;`];
  return `{\n${[...fields, ...rest].join('\n')}\n${pad}}`;
}

const API = `
/** The options every entry takes. */
export interface Options {
  /** Registered executors; the default is the rule set's, \`sh\`. */
  executors?: string[];
  /** Write each diagnostic's stable id (rules/diagnostics.yaml) as \`id\`; off by default. */
  diagnosticIds?: boolean;
}

/** What an emission with no operation attempts (§operation-attempt). */
export interface Attempt {
  kind: 'fence' | 'heading' | 'native' | 'echo';
  name: string | null;
  line: number;
  column: number;
  text: string;
}

/** One model turn: statements, diagnostics and response text, in order (§turn-shape). */
export function parse(input: string, options?: Options): ParseResult;
/** Protocol statements only. */
export function parseStatements(input: string, options?: Options): ParseResult;
/** Executable blocks, LOOK included (§tier-entrypoints). */
export function parseClient(input: string, options?: Options): ParseResult;
/** The complete NOTE, FIND and READ statements of exposed reasoning (§reasoning-operations). */
export function parseReasoning(input: string, options?: Options): ParseResult;
/** For an emission with no operation: the attempt it makes, or null for prose (§operation-attempt). */
export function operationAttempt(input: string, options?: Options): Attempt | null;
/** One target decomposed (§path-syntax); throws on a malformed path. */
export function parsePath(path: string): Target;
/** Which backend this process loaded: the native addon, or the WebAssembly module. */
export const backend: 'native' | 'wasm';
/** The calls under the API, JSON text in and out (the bytes \`plurnk-parser --jsonl\` writes). */
export const raw: { call(entry: string, input: string, optionsJson?: string): string };

/** Reads a turn as it arrives. */
export class StreamParser {
  constructor(options?: Options);
  /** Feeds a chunk: a string, or bytes (a character may be split across chunks). */
  feed(chunk: string | Uint8Array): this;
  /**
   * The provisional statements so far: for display only. A later chunk can drop or re-read any
   * of them (a later fence can make a block a quoted example), so dispatch only from finish().
   */
  readonly provisional: Statement[];
  /**
   * The committed statements: the first provisional ones, which no continuation of the turn
   * changes (finish() begins with them). Only compact one-line headings with nothing opened
   * before them commit.
   */
  readonly committed: Statement[];
  /**
   * The response text visible so far: a prefix (white space aside) of finish()'s response
   * text, whatever follows, never showing markup. It stops at the first line that may open a
   * block or begin native markup; the rest arrives with finish().
   */
  readonly visible: string;
  /** Ends the stream: exactly parse() of the whole text. Dispatch these statements. */
  finish(): ParseResult;
}
`;

/** The text index.d.ts should hold for `schema`. */
export function generate(schema) {
  const out = ['// Generated by scripts/types.mjs from schema/ParseResult.json: do not edit by hand.', ''];
  out.push(doc(schema.description, '') + `export interface ParseResult ${object(schema, '')}`);
  for (const [name, def] of Object.entries(schema.$defs)) {
    const body = ts(def, '');
    const single = def.type === 'object' && !def.oneOf;
    const decl = single ? `export interface ${typeName(name)} ${body}` : `export type ${typeName(name)} = ${body};`;
    out.push('', doc(def.description, '') + decl);
  }
  return out.join('\n') + '\n' + API;
}

export function expected() {
  return generate(JSON.parse(readFileSync(schemaPath, 'utf8')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = expected();
  if (process.argv.includes('--check')) {
    if (readFileSync(outPath, 'utf8') !== text) {
      console.error('index.d.ts is out of date: run `node scripts/types.mjs`');
      process.exit(1);
    }
  } else {
    writeFileSync(outPath, text);
  }
}
