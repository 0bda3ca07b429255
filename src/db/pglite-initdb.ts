/**
 * Creates a new PGlite data folder in a process of its own, as PostgreSQL's own `initdb` is a
 * program of its own: initialising a cluster grows the WebAssembly heap far beyond what a reopened
 * folder needs, and a WebAssembly heap never shrinks, so done in the service it would stay the
 * service's footprint for as long as it runs.
 * Run as a script: `node src/db/pglite-initdb.ts <folder>`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const script = fileURLToPath(import.meta.url);

/** Initialises `dataDir` unless it already holds a database. */
export function ensurePgliteDataDir(dataDir: string): void {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const result = spawnSync(process.execPath, ['--liftoff-only', script, dataDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`could not create the embedded database in ${dataDir}: ${result.stderr || result.error?.message || `exit ${result.status}`}`);
}

if (process.argv[1] === script) {
  const client = await PGlite.create(process.argv[2]);
  await client.close();
}
