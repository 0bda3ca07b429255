/**
 * The page worker (page-worker.ts and what it imports) as JavaScript files bundled when a service
 * starts, for its page threads: a job that extracts pages starts two threads (see page-pool.ts),
 * and each loaded some 40 of our TypeScript modules, linkedom's 133 files and the rest one by one,
 * about 0.15 s of CPU per thread on every such job; the bundle loads in a tenth of that
 * (docs/decisions/page-reading.md). Bundled from the sources at each start, never from an earlier
 * build, so the threads run the code the service runs. Without the bundler (an install without dev
 * dependencies) the threads load the modules as before.
 *
 * Run as a script (`node page-worker-bundle.ts <folder> <entry>`), it writes the bundle: the service
 * starts it as a child process, so that the bundler's native code never loads into the service.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export interface PageWorkerBundle {
  /** the bundle's entry, for the page pool's threads (see createPagePool) */
  file: URL;
  /** deletes the bundle's folder, once the threads are closed */
  remove(): void;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = 'page-worker.mjs';
const FOLDER_PREFIX = 'llmstxt-page-worker-';
/**
 * A running service touches its bundle's folder this often, and a start deletes the folders left
 * untouched for a day: those of services killed without stopping (a crash, SIGKILL), whatever
 * process or container they ran in.
 */
const TOUCH_EVERY_MS = 3_600_000;
const STALE_AFTER_MS = 24 * 3_600_000;
/** Bundling takes about half a second; a bundler hung that long is a fault, and the threads load the modules. */
const BUNDLE_TIMEOUT_MS = 60_000;

/**
 * Bundles the page worker (`entry`, relative to the repository) into a new folder under the
 * system's temporary folder; rejects, leaving no folder, when the bundler fails.
 */
export async function bundlePageWorker(entry = 'src/generation/page-worker.ts'): Promise<PageWorkerBundle> {
  removeStaleBundles();
  const folder = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
  const touching = setInterval(() => touch(folder), TOUCH_EVERY_MS).unref();
  const remove = () => {
    clearInterval(touching);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), folder, entry], { timeout: BUNDLE_TIMEOUT_MS });
    if (!existsSync(join(folder, ENTRY))) throw new Error(`the bundler wrote no ${ENTRY}`);
  } catch (error) {
    remove();
    throw error;
  }
  return { file: pathToFileURL(join(folder, ENTRY)), remove };
}

function touch(folder: string): void {
  const now = new Date();
  try {
    utimesSync(folder, now, now);
  } catch {
    // Deleted under the service (a cleaner of the temporary folder): nothing to keep fresh.
  }
}

/** Deletes the bundles' folders untouched for STALE_AFTER_MS; another user's, or one already gone, is left. */
function removeStaleBundles(now = Date.now()): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const folder = join(tmpdir(), name);
    try {
      if (now - statSync(folder).mtimeMs > STALE_AFTER_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // not ours to delete, or deleted meanwhile
    }
  }
}

async function writeBundle(folder: string, entry: string): Promise<void> {
  // A dev dependency (the bundler Vite is built on): an install without dev dependencies has none,
  // and the caller falls back to the modules.
  const { build } = await import('rolldown');
  await build({
    cwd: ROOT,
    input: { 'page-worker': entry },
    platform: 'node',
    output: { dir: folder, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    logLevel: 'warn',
  });
}

if (import.meta.main) await writeBundle(process.argv[2], process.argv[3]);
