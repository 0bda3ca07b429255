/**
 * Test databases. Every integration suite runs once on PGlite and once on PostgreSQL, each run in
 * a database of its own that it creates and drops. TEST_DATABASES=pglite (or postgres) narrows
 * the set on purpose; an unreachable PostgreSQL fails the run instead of skipping it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '../db/database.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKinds(): DatabaseKind[] {
  const raw = process.env.TEST_DATABASES ?? 'pglite,postgres';
  const kinds = raw.split(',').map((k) => k.trim()).filter(Boolean);
  for (const kind of kinds) if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`TEST_DATABASES: unknown database "${kind}"`);
  return kinds as DatabaseKind[];
}

/** The server the PostgreSQL runs use; the machine's own by default. */
export const adminPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() });
    return { handle, drop: () => handle.close() };
  }
  return createPostgresDatabase();
}

/**
 * Creating and migrating a PGlite database takes seconds; loading a dump of one takes a fraction.
 * The dump is cached in the OS temp folder, keyed by the migrations, so a schema change makes a new one.
 */
async function pgliteTemplate(): Promise<Blob> {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  const path = join(tmpdir(), `llmstxt-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(path)) {
    const handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
    const dump = Buffer.from(await (await handle.dump!()).arrayBuffer());
    await handle.close();
    // Written aside and renamed, so a parallel test file never reads half a template.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, dump);
    renameSync(partial, path);
  }
  return new Blob([readFileSync(path)]);
}

/** An empty database on the PostgreSQL server (no schema at all), with its URL; the caller drops it. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `llmstxt_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A fresh, migrated database on the PostgreSQL server, with its URL; the caller drops it. */
export async function createPostgresDatabase(): Promise<TestDatabase & { url: string }> {
  const empty = await createEmptyPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: empty.url, dataDir: '' });
  return {
    handle,
    url: empty.url,
    drop: async () => {
      await handle.close();
      await empty.drop();
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminPostgresUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
