// Builds the native addon with cargo and copies it next to index.js as plurnk_parser.node.
// Needs only the Rust toolchain (see README.md); no network once the crates are fetched.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = process.env.CARGO_TARGET_DIR ?? join(here, 'target');
execFileSync('cargo', ['build', '--release', '--manifest-path', join(here, 'Cargo.toml')], {
  stdio: 'inherit',
  env: { ...process.env, CARGO_TARGET_DIR: target },
});
const names = { linux: 'libplurnk_parser_node.so', darwin: 'libplurnk_parser_node.dylib', win32: 'plurnk_parser_node.dll' };
const built = join(target, 'release', names[process.platform] ?? names.linux);
if (!existsSync(built)) {
  throw new Error(`cargo did not produce ${built}`);
}
copyFileSync(built, join(here, 'plurnk_parser.node'));
