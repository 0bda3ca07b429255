/**
 * The queue itself, on both databases: a sent job reaches an idle worker through its notification
 * (not the next poll), accounts take turns, and a database pg-boss 10 worked on is handed over to
 * pg-boss 12 once.
 */
import assert from 'node:assert/strict';
import { sql } from '../db/orm.ts';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../testing/databases.ts';
import { JobQueue, QUEUE_SCHEMA, type QueuedJob } from './queue.ts';

const rowsOf = (result: any): any[] => result.rows ?? result;
const failOnError = (error: Error) => {
  throw error;
};

for (const kind of testDatabaseKinds()) {
  describe(`The job queue [${kind}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(kind);
    });
    after(async () => {
      await database.drop();
    });

    test('an idle worker takes a sent job at once, long before its next poll', async () => {
      const queue = new JobQueue(database.handle, { pollingIntervalSeconds: 30, expireInSeconds: 60, jobsPerAccount: 3 }, failOnError);
      await queue.start();
      try {
        const taken: Array<{ job: QueuedJob; at: number }> = [];
        await queue.work('discovery', 1, async (job) => void taken.push({ job, at: performance.now() }));
        // The worker's first fetch finds nothing; from then on only a notification wakes it inside 30 s.
        await new Promise((r) => setTimeout(r, 500));
        const sentAt = performance.now();
        await database.handle.db.transaction((tx) => queue.enqueue(tx, 'discovery', { jobId: 'job-1' }, { accountId: 'account-1', ahead: 0 }));
        for (let i = 0; i < 100 && taken.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(taken.map((t) => t.job), [{ jobId: 'job-1' }]);
        assert.ok(taken[0].at - sentAt < 1000, `picked up after ${Math.round(taken[0].at - sentAt)} ms`);
      } finally {
        await queue.stop();
      }
    });

    test("a lone worker takes another account's first job before the second and third of an account that queued three", async () => {
      const queue = new JobQueue(database.handle, { pollingIntervalSeconds: 0.5, expireInSeconds: 60, jobsPerAccount: 3 }, failOnError);
      await queue.start();
      try {
        const taken: string[] = [];
        let release!: () => void;
        const firstRuns = new Promise<void>((resolve) => (release = resolve));
        await queue.work('generation', 1, async (job) => {
          taken.push(job.jobId);
          if (job.jobId === 'busy-1') await firstRuns;
        });
        const send = (jobId: string, accountId: string, ahead: number) =>
          database.handle.db.transaction((tx) => queue.enqueue(tx, 'generation', { jobId }, { accountId, ahead }));
        await send('busy-1', 'busy', 0);
        for (let i = 0; i < 100 && taken.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        await send('busy-2', 'busy', 1);
        await send('busy-3', 'busy', 2);
        await send('other-1', 'other', 0);
        release();
        for (let i = 0; i < 250 && taken.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(taken, ['busy-1', 'other-1', 'busy-2', 'busy-3']);
      } finally {
        await queue.stop();
      }
    });

    test('a job sent in a transaction that rolls back never exists', async () => {
      const queue = new JobQueue(database.handle, { pollingIntervalSeconds: 0.5, expireInSeconds: 60, jobsPerAccount: 3 }, failOnError);
      await queue.start();
      try {
        await assert.rejects(
          database.handle.db.transaction(async (tx) => {
            await queue.enqueue(tx, 'generation', { jobId: 'rolled-back' }, { accountId: 'account-1', ahead: 0 });
            throw new Error('rollback');
          }),
          /rollback/,
        );
        const found = rowsOf(await database.handle.db.execute(sql.raw(`SELECT 1 FROM ${QUEUE_SCHEMA}.job WHERE data->>'jobId' = 'rolled-back'`)));
        assert.equal(found.length, 0);
      } finally {
        await queue.stop();
      }
    });

    test("pg-boss 10's schema: the pending jobs are sent again on the new queue, and the old schema dropped", async () => {
      const { db } = database.handle;
      await db.execute(sql`INSERT INTO accounts (id, email, first_name) VALUES ('account-old-queue', 'old-queue@example.com', 'Old')`);
      // The shape pg-boss 10 leaves: schema `pgboss` with its version table at schema version 24.
      for (const statement of ['CREATE SCHEMA pgboss', 'CREATE TABLE pgboss.version (version int)', 'INSERT INTO pgboss.version VALUES (24)']) {
        await db.execute(sql.raw(statement));
      }
      const pending = rowsOf(await db.execute(sql`
        INSERT INTO discovery_jobs (id, account_id, url, type, max_urls, status)
        VALUES ('discovery-waiting', 'account-old-queue', 'https://example.com/', 'crawl', 10, 'pending'),
               ('discovery-done', 'account-old-queue', 'https://example.org/', 'crawl', 10, 'completed')
        RETURNING id, status`));

      const queue = new JobQueue(database.handle, { pollingIntervalSeconds: 0.5, expireInSeconds: 60, jobsPerAccount: 3 }, failOnError);
      await queue.start();
      await queue.stop();
      // A second start (another process, or a restart) finds nothing left to hand over.
      const again = new JobQueue(database.handle, { pollingIntervalSeconds: 0.5, expireInSeconds: 60, jobsPerAccount: 3 }, failOnError);
      await again.start();
      await again.stop();

      const schemas = rowsOf(await db.execute(sql`SELECT nspname FROM pg_namespace WHERE nspname IN ('pgboss', ${QUEUE_SCHEMA}) ORDER BY 1`));
      assert.deepEqual(schemas.map((r) => r.nspname), [QUEUE_SCHEMA]);
      const sent = rowsOf(await db.execute(sql.raw(`SELECT name, data->>'jobId' AS "jobId" FROM ${QUEUE_SCHEMA}.job WHERE data->>'jobId' IN (${pending.map((p) => `'${p.id}'`).join(', ')})`)));
      assert.deepEqual(sent, [{ name: 'discovery', jobId: pending.find((p) => p.status === 'pending').id }]);
    });
  });
}
