/**
 * Golden files: the llms.txt each corpus site and each Debian-packaged bench site gets (simple
 * method, maxUrls 200, through a generation job of the service on PGlite), with the served origin
 * written as GOLDEN_ORIGIN so that ports never show. `golden.test.ts` compares the corpus sites'
 * files, the quality bench the Debian sites'; `npm run bench -- quality --update` rewrites all of them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const PROJECT_ROOT = join(import.meta.dirname, '../..');
export const GOLDEN_DIR = join(PROJECT_ROOT, 'golden');
/** The seven built sites of `../shared/corpora/sites/`; absent from a plain clone. */
export const CORPUS_DIR = join(PROJECT_ROOT, '../shared/corpora/sites');
/** Reserved by RFC 2606: it never resolves, and the files stay valid llms.txt with absolute links. */
export const GOLDEN_ORIGIN = 'https://site.invalid';
export const GOLDEN_OPTIONS = { maxUrls: 200, generationMethod: 'simple', cacheAge: 0 } as const;
export const UPDATE_GOLDEN_FLAG = '--update';

export type GoldenGroup = 'corpus' | 'debian';

/** One site of the corpus, as `manifest.json` describes it (paths are URL paths, base path included). */
export interface CorpusSite {
  name: string;
  generator: string;
  project: string;
  /** owner/repository@commit */
  source: string;
  start: string;
  basePath: string;
  pages: number;
  keyPages: string[];
  parts: string[];
  secondary: string[];
  notes: string;
}

/** The corpus sites in manifest order, or null where `../shared` is absent. */
export function corpusSites(): CorpusSite[] | null {
  const manifest = join(CORPUS_DIR, 'manifest.json');
  if (!existsSync(manifest)) return null;
  const entries = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Omit<CorpusSite, 'name'>>;
  return Object.entries(entries).map(([name, entry]) => ({ name, ...entry }));
}

export function goldenPath(group: GoldenGroup, name: string): string {
  return join(GOLDEN_DIR, group, `${name}.txt`);
}

/** The file with the served origin (`http://127.0.0.1:PORT`) written as GOLDEN_ORIGIN. */
export function withGoldenOrigin(llmsTxt: string, origin: string): string {
  return llmsTxt.replaceAll(origin, GOLDEN_ORIGIN).replaceAll(new URL(origin).host, new URL(GOLDEN_ORIGIN).host);
}

export function writeGolden(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** null when the golden file holds exactly `actual`, byte for byte; otherwise a unified diff from it to `actual`. */
export function goldenDifference(path: string, actual: string): string | null {
  if (!existsSync(path)) return `no golden file ${path}`;
  const expected = readFileSync(path);
  if (expected.equals(Buffer.from(actual))) return null;
  const work = mkdtempSync(join(tmpdir(), 'golden-'));
  try {
    const generated = join(work, 'generated.txt');
    writeFileSync(generated, actual);
    const diff = spawnSync('diff', ['-u', '--label', `golden ${path}`, '--label', 'generated now', path, generated], { encoding: 'utf8' });
    return diff.stdout || `${path} differs (diff unavailable: ${diff.error?.message ?? diff.stderr})`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
