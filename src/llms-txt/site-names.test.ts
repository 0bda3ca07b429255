// The generator must be tuned for kinds of site, not for the sites it is measured on: its code
// (comments aside, which may cite a site as the example of a kind) names no project, product or
// host of the corpus (../shared/corpora/sites/manifest.json) or of the quality bench's sites.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { corpusSites } from '../testing/golden.ts';

/** The bench's and the corpus's sites by name (and SQLite's documentation, on which the generator was tuned too). */
const SITE_NAMES = [
  'postgresql', 'python', 'sphinx', 'git', 'django', 'apache', 'sqlite',
  'gettext', 'commons-lang', 'commons lang', 'lang3', 'glfw', 'glib', 'haskell', 'ghc',
  'zig', 'pinia', 'python-markdown', 'hugo-book', 'mdbook', 'syncpack', 'choosealicense', 'choose a license',
];
/** Words of the manifest's sources and notes that name no site ("Python-Markdown/markdown", "https://example.com/"). */
const GENERIC_WORDS = new Set(['markdown', 'github', 'github.com', 'example.com', 'web.archive.org']);

/** Owners, repositories and hosts of the corpus's manifest, where ../shared is present. */
function manifestNames(): string[] {
  const names: string[] = [];
  for (const site of corpusSites() ?? []) {
    const [owner, repository] = site.source.split('@')[0].split('/');
    names.push(owner, repository, ...[...site.notes.matchAll(/https?:\/\/([a-z0-9.-]+[a-z0-9])/gi)].map((match) => match[1]));
  }
  return names.map((name) => name.toLowerCase()).filter((name) => !GENERIC_WORDS.has(name));
}

/** The file's code without its comments. */
function codeOf(file: string, source: string): string {
  return ts.createPrinter({ removeComments: true }).printFile(ts.createSourceFile(file, source, ts.ScriptTarget.Latest));
}

/**
 * The names the code holds as words: a name of four letters or fewer stands alone ("git" is not in
 * "digit"), a longer one may start a word ("sphinx" is in "sphinxsidebar"); a space or hyphen in a
 * name matches a space, hyphen, underscore or nothing.
 */
function namesIn(code: string, names: readonly string[]): string[] {
  const text = code.toLowerCase();
  return [...new Set(names)].filter((name) => {
    const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[ -]/g, '[\\s_-]?');
    return new RegExp(name.length <= 4 ? `(?<![a-z])${pattern}(?![a-z])` : `(?<![a-z])${pattern}`).test(text);
  });
}

test('src/llms-txt names no site of the corpus or the quality bench', () => {
  const names = [...SITE_NAMES, ...manifestNames()];
  const folder = import.meta.dirname;
  const found: Record<string, string[]> = {};
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.startsWith('testing')) continue;
    const hits = namesIn(codeOf(file, readFileSync(join(folder, file), 'utf8')), names);
    if (hits.length > 0) found[file] = hits.sort();
  }
  assert.deepEqual(found, {}, 'names of the corpus or bench sites in src/llms-txt, by file');
});
