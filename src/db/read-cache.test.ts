/**
 * The balance and a job's status are answered from memory: they must still show a client its own
 * writes at once, and any other change within a second, whoever made it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq, sql } from './orm.ts';
import { accounts, generationJobs } from './schema.ts';
import { ReadCache } from './read-cache.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

/** Reads `path` until `accept` says yes, for at most a second; answers how long it took. */
async function withinASecond(service: TestService, token: string, path: string, accept: (body: any) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { body } = await service.request('GET', path, { token });
    if (accept(body)) return Date.now() - started;
    assert.ok(Date.now() - started < 1000, `${path} still answered ${JSON.stringify(body)} a second after the change`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ReadCache', () => {
  test('remembers what it loaded, and loads again once the key is forgotten', async () => {
    const cache = new ReadCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    assert.deepEqual([await cache.read('a', load), await cache.read('a', load)], [1, 1]);
    cache.forget('a');
    assert.equal(await cache.read('a', load), 2);
    assert.equal(await cache.read('missing', async () => undefined), undefined);
  });

  test('readers that miss at once share one load; a reader after a forget loads again', async () => {
    const cache = new ReadCache<string>();
    const finishes: Array<(value: string) => void> = [];
    const load = () => new Promise<string>((resolve) => finishes.push(resolve));
    const together = [cache.read('job', load), cache.read('job', load), cache.read('job', load)];
    assert.equal(finishes.length, 1);
    cache.forget('job');
    const after = cache.read('job', load);
    assert.equal(finishes.length, 2);
    finishes[0]('before the change');
    finishes[1]('after the change');
    assert.deepEqual(await Promise.all(together), ['before the change', 'before the change', 'before the change']);
    assert.equal(await after, 'after the change');
    assert.equal(await cache.read('job', load), 'after the change', 'the later load is remembered');
    assert.equal(finishes.length, 2);
  });

  test('a failed load fails its readers, and the next reader loads again', async () => {
    const cache = new ReadCache<string>();
    const failing = () => Promise.reject(new Error('connection lost'));
    await Promise.all([cache.read('a', failing), cache.read('a', failing)].map((read) => assert.rejects(read, /connection lost/)));
    assert.equal(await cache.read('a', async () => 'loaded'), 'loaded');
  });

  test('a read under way when something is forgotten is answered but not remembered: it may predate the change', async () => {
    const cache = new ReadCache<string>();
    let finish!: (value: string) => void;
    const reading = cache.read('a', () => new Promise((resolve) => (finish = resolve)));
    cache.forget('b');
    finish('read before the change');
    assert.equal(await reading, 'read before the change');
    assert.equal(await cache.read('a', async () => 'read after it'), 'read after it');
  });
});

describeOnEachDatabase(
  'Reads answered from memory',
  (service) => {
    test('the database tells this process when its transaction committed, before the caller goes on; not after a rollback', async () => {
      const { db, afterCommit } = service().deps.database;
      const heard: string[] = [];
      const stop = afterCommit(() => heard.push('commit'));
      try {
        await db.transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          heard.push('work');
        });
        heard.push('caller');
        await assert.rejects(db.transaction(async () => Promise.reject(new Error('rolled back'))));
        assert.deepEqual(heard, ['work', 'commit', 'caller']);
      } finally {
        stop();
      }
    });

    test("a client reads its own writes at once: the charge of a start, a cancel's status and refund", async () => {
      const { apiKey } = await service().createAccount();
      const balance = async () => (await service().request('GET', '/api/v1/credits/balance/api', { token: apiKey })).body;
      assert.equal((await balance()).balance, 20);
      assert.equal((await balance()).balance, 20, 'remembered');

      const started = await service().request('POST', '/api/v1/generate', {
        token: apiKey,
        body: { url: 'https://example.com/', options: { maxUrls: 30, generationMethod: 'simple' } },
      });
      assert.equal(started.status, 200, started.text);
      const charged = await balance();
      assert.deepEqual([charged.balance, charged.totalUsed, charged.recentTransactions[0].amount], [17, 3, -3]);

      const jobPath = `/api/v1/generate/${started.body.jobId}`;
      assert.equal((await service().request('GET', jobPath, { token: apiKey })).body.status, 'pending');
      assert.equal((await service().request('DELETE', jobPath, { token: apiKey })).status, 200);
      assert.equal((await service().request('GET', jobPath, { token: apiKey })).body.status, 'failed');
      assert.equal((await balance()).balance, 20);
    });

    test('a change made outside the service (any statement, any process) is seen within a second', async () => {
      const { id, apiKey } = await service().createAccount();
      await service().request('GET', '/api/v1/credits/balance/api', { token: apiKey });
      await service().db.update(accounts).set({ creditBalance: 7 }).where(eq(accounts.id, id));
      await withinASecond(service(), apiKey, '/api/v1/credits/balance/api', (body) => body.balance === 7);

      const started = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: 'https://example.com/a', options: { maxUrls: 10 } } });
      const jobPath = `/api/v1/generate/${started.body.jobId}`;
      assert.equal((await service().request('GET', jobPath, { token: apiKey })).body.progress, 0);
      await service().db.update(generationJobs).set({ progress: 42 }).where(eq(generationJobs.id, started.body.jobId));
      await withinASecond(service(), apiKey, jobPath, (body) => body.progress === 42);

      // Another account's job stays refused, however it was remembered.
      const other = await service().createAccount();
      assert.equal((await service().request('GET', jobPath, { token: other.apiKey })).status, 403);
    });
  },
  // No workers: the jobs stay pending, so only the test changes them.
  { workers: false },
);
