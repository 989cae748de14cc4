// A static server for the playground, on 127.0.0.1: serves bindings/wasm (the module, its glue
// and playground/), also under /node_modules/plurnk-parser/wasm/ as an installed package lays it
// out. `node serve.mjs [PORT]` prints the playground's address.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.png': 'image/png', '.json': 'application/json' };
const ALIAS = '/node_modules/plurnk-parser/wasm/';

/** Starts the server; `pages` maps extra paths to page text (tests add pages with it). */
export function serve(port = 0, pages = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/plain' });
      return res.end(pages[path]);
    }
    const rel = path.startsWith(ALIAS) ? path.slice(ALIAS.length) : path.slice(1);
    const file = normalize(join(root, rel || 'playground/index.html'));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || file.includes(`${sep}target${sep}`)) {
      res.writeHead(403);
      return res.end();
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8080));
  console.log(`playground: http://127.0.0.1:${server.address().port}/playground/index.html`);
}
