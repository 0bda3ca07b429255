import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|tsx|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('drizzle-orm', () => {
  it('is imported for its values only through db/orm.ts (its CommonJS build)', () => {
    const direct = ['src', 'scripts', 'bench']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .filter((file) => !file.endsWith(join('src', 'db', 'orm.ts')))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(drizzle-orm[^']*)'/gms)].map((match) => `${relative(root, file)}: ${match[1]}`),
      );
    assert.deepEqual(direct, []);
  });
});
