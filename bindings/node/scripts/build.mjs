// Builds what the package carries: the native addon for this host (cargo), copied next to
// index.js as plurnk-parser.<target>.node, and the WebAssembly fallback (bindings/wasm), copied
// into wasm/. `npm test` runs it first; `npm pack` runs it as prepack, so the tarball carries both
// prebuilt and `npm install` of it needs no Rust toolchain.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTriple } from './targets.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasmDir = join(here, '..', 'wasm');
const target = process.env.CARGO_TARGET_DIR ?? join(here, 'target');
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: target } });

// The native addon for the host.
run('cargo', ['build', '--release', '--manifest-path', join(here, 'Cargo.toml')]);
const host = execFileSync('rustc', ['-vV'], { encoding: 'utf8' }).match(/^host: (\S+)$/m)[1];
const names = { linux: 'libplurnk_parser_node.so', darwin: 'libplurnk_parser_node.dylib', win32: 'plurnk_parser_node.dll' };
const built = join(target, 'release', names[process.platform] ?? names.linux);
if (!existsSync(built)) throw new Error(`cargo did not produce ${built}`);
copyFileSync(built, join(here, `plurnk-parser.${parseTriple(host).name}.node`));

// The WebAssembly fallback.
execFileSync(process.execPath, [join(wasmDir, 'scripts', 'build.mjs')], { stdio: 'inherit' });
mkdirSync(join(here, 'wasm', 'pkg'), { recursive: true });
for (const f of ['index.js', 'api.js', 'pkg/plurnk_parser_wasm.js', 'pkg/plurnk_parser_wasm_bg.wasm']) {
  copyFileSync(join(wasmDir, f), join(here, 'wasm', f));
}
