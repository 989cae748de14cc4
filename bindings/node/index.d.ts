export interface Options {
  /** Registered executors; the default is `sh`. */
  executors?: string[];
}
export interface Position { line: number; column: number }
export type Item =
  | { kind: 'statement'; statement: Record<string, unknown> & { position: Position } }
  | { kind: 'error'; error: { line: number; column: number; source: string; severity: 'error' | 'warning'; message: string; recovery?: string; operationOmitted?: true } }
  | { kind: 'text'; content: string; position: Position };
export interface ParseResult { items: Item[]; unparsedTail?: { from: Position; reason: string } }
export interface Attempt { kind: 'fence' | 'heading' | 'native' | 'echo'; name: string | null; line: number; column: number; text: string }

export function parse(input: string, options?: Options): ParseResult;
export function parseStatements(input: string, options?: Options): ParseResult;
export function parseClient(input: string, options?: Options): ParseResult;
export function parseReasoning(input: string, options?: Options): ParseResult;
export function operationAttempt(input: string, options?: Options): Attempt | null;
export function parsePath(path: string): Record<string, unknown> | null;

export class StreamParser {
  constructor(options?: Options);
  feed(chunk: string | Uint8Array): this;
  /** For display only: a later chunk can drop or re-read any of them; dispatch from finish(). */
  readonly provisional: Array<Record<string, unknown> & { position: Position }>;
  readonly visible: string;
  finish(): ParseResult;
}
