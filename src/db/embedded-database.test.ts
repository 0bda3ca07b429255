/**
 * The embedded database in a folder, as `npm start` opens it: a new folder is initialised by a
 * process of its own (its memory goes with it), and the service opens it with small buffers.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from './orm.ts';
import { openDatabase, rowsOf } from './database.ts';

describe('The embedded database in a folder', () => {
  const work = mkdtempSync(join(tmpdir(), 'embedded-db-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('a new folder is created, migrated, and reopened with what was written', async () => {
    const dataDir = join(work, 'data');
    const first = await openDatabase({ databaseUrl: null, dataDir });
    try {
      assert.ok(existsSync(join(dataDir, 'PG_VERSION')));
      await first.db.execute(sql`INSERT INTO accounts (id, email, first_name) VALUES ('a1', 'kept@example.com', 'Kept')`);
      assert.deepEqual(rowsOf(await first.db.execute(sql`SHOW shared_buffers`)), [{ shared_buffers: '16MB' }]);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ databaseUrl: null, dataDir });
    try {
      assert.deepEqual(rowsOf(await again.db.execute(sql`SELECT email FROM accounts`)), [{ email: 'kept@example.com' }]);
    } finally {
      await again.close();
    }
  });

  test('a folder that cannot be created says so', async () => {
    const blocked = join(work, 'a-file');
    writeFileSync(blocked, 'not a folder');
    await assert.rejects(openDatabase({ databaseUrl: null, dataDir: join(blocked, 'data') }), /EEXIST|ENOTDIR|not a directory|could not create/);
  });
});
