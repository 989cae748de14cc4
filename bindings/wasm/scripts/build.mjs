// Builds the WebAssembly module: cargo for wasm32-unknown-unknown, then wasm-bindgen's ES module
// glue into pkg/. Needs the target (`rustup target add wasm32-unknown-unknown`) and the CLI of
// the same version as the crate's wasm-bindgen (`cargo install wasm-bindgen-cli --version =0.2.130`).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = process.env.CARGO_TARGET_DIR ?? join(here, 'target');
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: target } });

run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--manifest-path', join(here, 'Cargo.toml')]);
const wasm = join(target, 'wasm32-unknown-unknown', 'release', 'plurnk_parser_wasm.wasm');
if (!existsSync(wasm)) throw new Error(`cargo did not produce ${wasm}`);
run('wasm-bindgen', ['--target', 'web', '--experimental-reset-state-function', '--out-dir', join(here, 'pkg'), '--out-name', 'plurnk_parser_wasm', wasm]);
