/**
 * Migrations that move data, run from the schema before them with rows in it, on each database.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createEmptyPostgresDatabase, testDatabaseKinds } from '../testing/databases.ts';
import { migrationsFolder } from './database.ts';
import { drizzlePg, drizzlePglite, migratePg, migratePglite } from './orm.ts';

/** The migrations folder as it was before `tag`: the same files, the journal cut before it. */
function migrationsBefore(tag: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  assert.ok(cut > 0, `migration ${tag} exists`);
  for (const entry of journal.entries.slice(cut)) unlinkSync(join(folder, `${entry.tag}.sql`));
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

interface RawDatabase {
  query(text: string, values?: unknown[]): Promise<Array<Record<string, unknown>>>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openRaw(kind: string): Promise<RawDatabase> {
  if (kind === 'pglite') {
    const client = await PGlite.create('memory://');
    const db = drizzlePglite(client);
    return {
      query: async (text, values) => (await client.query<Record<string, unknown>>(text, values as unknown[])).rows,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const empty = await createEmptyPostgresDatabase();
  const pool = new pg.Pool({ connectionString: empty.url, max: 1 });
  const db = drizzlePg(pool);
  return {
    query: async (text, values) => (await pool.query(text, values)).rows,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await empty.drop();
    },
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`[${kind}] migration 0011_file_parts`, () => {
    test('cuts each stored file into parts of 131,072 characters, in order, and keeps its sizes', async () => {
      const before = migrationsBefore('0011_file_parts');
      const db = await openRaw(kind);
      try {
        await db.migrate(before.folder);
        await db.query(`INSERT INTO accounts (id, email, first_name) VALUES ('a1', 'a@example.com', 'A')`);
        await db.query(`INSERT INTO sites (id, account_id, url, status) VALUES ('s1', 'a1', 'https://example.com/', 'completed')`);
        // Emoji are two UTF-16 units and one character to PostgreSQL: the parts count characters.
        const full = `# Example\n\n${'Prose 🎉 and more prose. '.repeat(12_000)}`;
        await db.query(`INSERT INTO site_files (site_id, kind, content, etag, bytes, tokens) VALUES ('s1', 'llms', '', '"e"', 0, 0), ('s1', 'full', $1, '"f"', $2, 7)`, [full, Buffer.byteLength(full)]);

        await db.migrate(migrationsFolder);

        const parts = await db.query(`SELECT kind, part, content FROM site_file_parts WHERE site_id = 's1' ORDER BY kind, part`);
        const fullParts = parts.filter((row) => row.kind === 'full');
        const characters = [...full].length;
        assert.equal(fullParts.length, Math.ceil(characters / 131_072));
        assert.deepEqual(fullParts.map((row) => row.part), fullParts.map((_, index) => index));
        assert.equal(fullParts.map((row) => row.content).join(''), full);
        assert.ok(fullParts.slice(0, -1).every((row) => [...(row.content as string)].length === 131_072));
        assert.deepEqual(parts.filter((row) => row.kind === 'llms').map((row) => [row.part, row.content]), [[0, '']]);
        const files = await db.query(`SELECT kind, etag, bytes, tokens FROM site_files ORDER BY kind`);
        assert.deepEqual(files, [
          { kind: 'full', etag: '"f"', bytes: Buffer.byteLength(full), tokens: 7 },
          { kind: 'llms', etag: '"e"', bytes: 0, tokens: 0 },
        ]);
      } finally {
        await db.close();
        before.remove();
      }
    });
  });

  describe(`[${kind}] migration 0015_uncompressed_text`, () => {
    test('page markdown and file parts written after it are stored as written; rows written before keep their compression', async () => {
      const before = migrationsBefore('0015_uncompressed_text');
      const db = await openRaw(kind);
      const text = `# Page\n\n${'Prose that compresses well. '.repeat(5_000)}`;
      const write = async (id: string) => {
        await db.query(`INSERT INTO sites (id, account_id, url, status) VALUES ($1, 'a1', $2, 'completed')`, [id, `https://${id}.example.com/`]);
        await db.query(`INSERT INTO site_files (site_id, kind, etag, bytes, tokens) VALUES ($1, 'full', '"f"', 1, 1)`, [id]);
        await db.query(`INSERT INTO site_file_parts (site_id, kind, part, content) VALUES ($1, 'full', 0, $2)`, [id, text]);
        await db.query(`INSERT INTO mapped_urls (id, site_id, url, title, description, status, markdown) VALUES ($1, $1, 'https://example.com/a', 'A', '', 'scraped', $2)`, [id, text]);
      };
      const compression = async (id: string) => {
        const [part] = await db.query(`SELECT pg_column_compression(content) AS method, content FROM site_file_parts WHERE site_id = $1`, [id]);
        const [page] = await db.query(`SELECT pg_column_compression(markdown) AS method, markdown FROM mapped_urls WHERE site_id = $1`, [id]);
        assert.equal(part.content, text);
        assert.equal(page.markdown, text);
        return [part.method, page.method];
      };
      try {
        await db.migrate(before.folder);
        await db.query(`INSERT INTO accounts (id, email, first_name) VALUES ('a1', 'a@example.com', 'A')`);
        await write('old');

        await db.migrate(migrationsFolder);
        await write('new');

        assert.deepEqual(await compression('old'), ['pglz', 'pglz']);
        assert.deepEqual(await compression('new'), [null, null]);
      } finally {
        await db.close();
        before.remove();
      }
    });
  });
}
