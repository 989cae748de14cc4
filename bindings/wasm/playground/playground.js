// The playground: parse a pasted turn, or stream it in chunks, entirely in the browser through the
// WebAssembly module. Statements, diagnostics and response text are listed, and the source lines
// each one covers are highlighted.
import { parse, StreamParser } from '../index.js';

const $ = (id) => document.getElementById(id);
const SAMPLE = [
  'I will look at the parser first.',
  '```READ (src/lib.rs) <1,40>',
  '```',
  'Then fix the typo in the notes:',
  '```EDIT (notes/todo.md)',
  '- ship the playground',
  '```',
  '```READ (src/a.rs',
  '```',
  'Done for now — 日本語 too.',
  '',
].join('\n');

function options() {
  const executors = $('executors').value.split(',').map((s) => s.trim()).filter(Boolean);
  return executors.length ? { executors } : undefined;
}

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

function describe(s) {
  const name = s.op ?? s.runtime;
  const target = s.target ? ` (${s.target.raw})` : '';
  const marks = s.lineMarker ? ` <${s.lineMarker.marks.join(',')}>` : '';
  return `${name}${target}${marks}`;
}

/** Lines [from, to] each item covers: a statement runs to the line before the next item. */
function spans(items, lineCount) {
  const start = (it) => (it.kind === 'statement' ? it.statement.position : it.kind === 'text' ? it.position : it.error);
  const placed = items.filter((it) => start(it).line > 0);
  return placed.map((it, i) => {
    const from = start(it).line;
    if (it.kind === 'text') return { it, from, to: from + (it.content.replace(/\n$/, '').split('\n').length - 1) };
    if (it.kind === 'error') return { it, from, to: from };
    const next = placed.slice(i + 1).find((n) => start(n).line > from && n.kind !== 'error');
    return { it, from, to: next ? start(next).line - 1 : lineCount };
  });
}

function renderSource(text, items) {
  const lines = text.split('\n');
  const cls = new Array(lines.length + 1).fill('');
  const title = new Array(lines.length + 1).fill('');
  for (const { it, from, to } of spans(items, lines.length)) {
    const c = it.kind === 'statement' ? 'stmt' : it.kind === 'text' ? 'text' : it.error.severity === 'error' ? 'diag' : 'warn';
    for (let l = from; l <= Math.min(to, lines.length); l++) {
      if (it.kind === 'error' || !cls[l]) cls[l] = c;
      if (it.kind === 'error') title[l] = it.error.message;
    }
  }
  const pre = $('source');
  pre.replaceChildren(
    ...lines.map((line, i) => {
      const span = el('span', `line ${cls[i + 1]}`, line || ' ');
      span.dataset.n = String(i + 1);
      if (title[i + 1]) span.title = title[i + 1];
      return span;
    }),
  );
}

function renderResult(text, result, phase) {
  const statements = result.items.filter((i) => i.kind === 'statement').map((i) => i.statement);
  const errors = result.items.filter((i) => i.kind === 'error').map((i) => i.error);
  $('phase').textContent = phase;
  $('statements').replaceChildren(
    ...statements.map((s) => {
      const li = el('li');
      li.append(el('span', 'op', describe(s)), ' ', el('span', 'pos', `line ${s.position.line}`));
      if (s.body) li.append(el('pre', '', typeof s.body === 'string' ? s.body : JSON.stringify(s.body)));
      return li;
    }),
  );
  const diags = errors.map((e) => {
    const li = el('li', `severity-${e.severity}`);
    li.append(`${e.severity} at ${e.line}:${e.column}: ${e.message}`);
    return li;
  });
  if (result.unparsedTail) diags.push(el('li', 'severity-error', `unparsed tail from ${result.unparsedTail.from.line}:${result.unparsedTail.from.column}: ${result.unparsedTail.reason}`));
  $('diagnostics').replaceChildren(...diags);
  $('text').textContent = result.items.filter((i) => i.kind === 'text').map((i) => i.content).join('');
  renderSource(text, result.items);
}

function runParse() {
  const text = $('turn').value;
  try {
    renderResult(text, parse(text, options()), 'final');
    $('status').textContent = 'parsed';
  } catch (e) {
    $('status').textContent = `error: ${e.message}`;
  }
}

async function runStream() {
  const text = $('turn').value;
  const bytes = new TextEncoder().encode(text);
  const size = Math.max(1, Number($('chunk').value) || 7);
  const stream = new StreamParser(options());
  $('status').textContent = 'streaming…';
  for (let i = 0; i < bytes.length; i += size) {
    stream.feed(bytes.subarray(i, i + size));
    const shown = stream.provisional.map((s) => ({ kind: 'statement', statement: s }));
    // Provisional statements are for display only; the final parse below is what a runtime runs.
    const sofar = new TextDecoder().decode(bytes.subarray(0, i + size));
    const visible = stream.visible ? [{ kind: 'text', content: stream.visible, position: { line: 0, column: 0 } }] : [];
    renderResult(sofar, { items: [...shown, ...visible] }, 'provisional (display only)');
    await new Promise((r) => setTimeout(r, 10));
  }
  renderResult(text, stream.finish(), 'final');
  $('status').textContent = 'streamed';
}

$('turn').value = SAMPLE;
$('parse').addEventListener('click', runParse);
$('stream').addEventListener('click', () => void runStream());
$('turn').addEventListener('input', runParse);
runParse();
document.body.dataset.ready = 'true';
$('status').textContent = 'ready';
