// The playground in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
// the page loads the WebAssembly module, parses a pasted turn and streams it, and the rendered
// statements, diagnostics, response text and highlighted source are checked; a screenshot is
// written to playground/screenshot.png. Also runs the README's browser example as written.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { block } from '../../node/scripts/readme-block.mjs';

const TURN = [
  'Checking the config loader.',
  '```READ (src/config.rs) <10,60>',
  '```',
  '```EDIT (docs/ÜBER.md)',
  '# Über',
  '```',
  '```READ (src/broken.rs) <1,x>',
  '```',
  'That is all for this turn.',
  '',
].join('\n');

let server, browser, page, base;

before(async () => {
  const readme = `<!doctype html><html><body>${block('html browser-example')}</body></html>`;
  server = await serve(0, { '/readme-example.html': readme });
  base = `http://127.0.0.1:${server.address().port}`;
  // A fresh, empty profile each run; no network beyond 127.0.0.1.
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'plurnk-chromium-')), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 760 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (e) => console.error('page error:', e.message));
});

after(async () => {
  await browser?.close();
  server?.close();
});

const texts = (sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent));

test('the playground parses a pasted turn in the browser', async () => {
  await page.goto(`${base}/playground/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.fill('#turn', TURN);
  await page.click('#parse');
  const statements = await texts('#statements li .op');
  assert.deepEqual(statements, ['READ (src/config.rs) <10,60>', 'EDIT (docs/ÜBER.md)']);
  const diags = await texts('#diagnostics li');
  assert.ok(diags.some((d) => d.startsWith('error at 7:')), diags.join('\n'));
  // The refused READ's block is no response text; what follows its closer is.
  assert.equal(await page.textContent('#text'), 'Checking the config loader.\n\nThat is all for this turn.\n');
  // The source panel highlights the lines each item covers.
  const cls = await page.$$eval('#source .line', (els) => els.map((e) => e.className.replace('line', '').trim()));
  assert.deepEqual(cls.slice(0, 9), ['text', 'stmt', 'stmt', 'stmt', 'stmt', 'stmt', 'diag', 'text', 'text']);
});

test('the playground streams a turn: provisional while it arrives, the final parse at the end', async () => {
  await page.fill('#chunk', '9');
  await page.click('#stream');
  await page.waitForSelector('#phase:text("provisional (display only)")', { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById('status').textContent === 'streamed', null, { timeout: 60000 });
  assert.equal(await page.textContent('#phase'), 'final');
  assert.deepEqual(await texts('#statements li .op'), ['READ (src/config.rs) <10,60>', 'EDIT (docs/ÜBER.md)']);
  await page.click('#parse');
  const shot = fileURLToPath(new URL('./screenshot.png', import.meta.url));
  const png = await page.screenshot({ path: shot });
  // A PNG of the whole viewport (IHDR width and height), with content, not a blank page.
  assert.equal(png.toString('latin1', 1, 4), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1400, 760]);
  assert.ok(png.length > 20000, `screenshot of ${png.length} bytes`);
  assert.deepEqual(readFileSync(shot), png);
});

test("the README's browser example runs as written", async () => {
  await page.goto(`${base}/readme-example.html`);
  // The module's own source is body text until it runs and replaces it; wait for rendered text
  // (innerText leaves the script element out), or the check races the module's load.
  await page.waitForFunction(() => document.body.innerText.trim() !== '', null, { timeout: 30000 });
  assert.equal((await page.innerText('body')).trim(), 'text statement');
});
