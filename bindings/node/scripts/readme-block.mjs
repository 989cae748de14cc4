// Prints the body of README.md's fenced block whose info string is the argument (for example
// `js node-example`), so the tests run the README's examples as written.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function block(info) {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8').split('\n');
  for (let i = 0; i < readme.length; i++) {
    const fence = readme[i].match(/^(`{3,})(.*)$/);
    if (fence && fence[2].trim() === info) {
      const end = readme.findIndex((l, j) => j > i && l.trim() === fence[1]);
      return readme.slice(i + 1, end).join('\n') + '\n';
    }
  }
  throw new Error(`README.md has no \`\`\`${info} block`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(block(process.argv.slice(2).join(' ')));
