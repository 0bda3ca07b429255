/**
 * Accounts share the workers: at most JOBS_PER_ACCOUNT unfinished jobs per account and kind, and
 * one account's queue of slow jobs does not hold up another account's job.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { discoveryJobs, generationJobs, sites } from '../db/schema.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { startSlowSite } from '../testing/slow-site.ts';
import type { TestSite } from '../testing/test-site.ts';

const TOO_MANY = { message: 'Too many jobs in progress: at most 3 at once' };
/** One slow page takes this long: a job on the slow site lasts at least as long. */
const SLOW_PAGE_MS = 2500;

let docs: DocsSite;
let slow: TestSite;
before(async () => {
  docs = await startDocsSite();
  slow = await startSlowSite(2, SLOW_PAGE_MS);
});
after(async () => {
  await docs.close();
  await slow.close();
});

const generation = (url: string, cacheAge = 0) => ({ url, options: { generationMethod: 'simple', maxUrls: 10, cacheAge } });

async function startGeneration(service: TestService, apiKey: string, url: string, cacheAge = 0) {
  return service.request('POST', '/api/v1/generate', { token: apiKey, body: generation(url, cacheAge) });
}

async function startDiscovery(service: TestService, apiKey: string, url: string, maxUrls = 10) {
  return service.request('POST', '/api/v1/discovery', { token: apiKey, body: { url, maxUrls, discoveryType: 'crawl' } });
}

async function waitForDiscovery(service: TestService, apiKey: string, id: string, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const res = await service.request('GET', `/api/v1/discovery/${id}`, { token: apiKey });
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    assert.ok(Date.now() - started < timeoutMs, `discovery still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a refused start must leave as it was: balance and ledger, jobs of both kinds, sites. */
async function accountState(service: TestService, accountId: string) {
  const db = service.db;
  return {
    ledger: await ledgerOf(service, accountId),
    generations: await db.select().from(generationJobs).where(eq(generationJobs.accountId, accountId)).orderBy(generationJobs.id),
    discoveries: await db.select().from(discoveryJobs).where(eq(discoveryJobs.accountId, accountId)).orderBy(discoveryJobs.id),
    sites: await db.select().from(sites).where(eq(sites.accountId, accountId)).orderBy(sites.id),
  };
}

describeOnEachDatabase(
  'The cap on unfinished jobs per account (no workers: every job stays pending)',
  (service) => {
    test('a 4th generation or discovery while 3 are unfinished answers 429 and changes nothing', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      for (const path of ['/a', '/b', '/c']) assert.equal((await startGeneration(service(), apiKey, docs.origin + path)).status, 200);
      for (const path of ['/a', '/b', '/c']) assert.equal((await startDiscovery(service(), apiKey, docs.origin + path)).status, 201);
      const before = await accountState(service(), accountId);
      assert.equal(before.ledger.balance, 20 - 3);

      // A new site, and a site the account already has (whose row a start would touch).
      for (const path of ['/d', '/a']) {
        const refused = await startGeneration(service(), apiKey, docs.origin + path);
        assert.deepEqual([refused.status, refused.body], [429, TOO_MANY]);
        const refusedDiscovery = await startDiscovery(service(), apiKey, docs.origin + path);
        assert.deepEqual([refusedDiscovery.status, refusedDiscovery.body], [429, TOO_MANY]);
      }
      assert.deepEqual(await accountState(service(), accountId), before);

      // Another account is not affected.
      const other = await service().createAccount();
      assert.equal((await startGeneration(service(), other.apiKey, `${docs.origin}/a`)).status, 200);
    });

    test('concurrent starts of one account never pass the cap', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const generations = await Promise.all(Array.from({ length: 10 }, (_, i) => startGeneration(service(), apiKey, `${docs.origin}/page-${i}`)));
      assert.deepEqual(generations.map((g) => g.status).sort(), [200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
      const discoveries = await Promise.all(Array.from({ length: 10 }, () => startDiscovery(service(), apiKey, docs.origin)));
      assert.deepEqual(discoveries.map((d) => d.status).sort(), [201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
      const state = await accountState(service(), accountId);
      assert.deepEqual([state.generations.length, state.discoveries.length, state.sites.length, state.ledger.balance], [3, 3, 3, 20 - 3]);
    });

    test('a canceled generation frees its place', async () => {
      const { apiKey } = await service().createAccount();
      const started = [];
      for (const path of ['/a', '/b', '/c']) started.push((await startGeneration(service(), apiKey, docs.origin + path)).body.jobId);
      assert.equal((await startGeneration(service(), apiKey, `${docs.origin}/d`)).status, 429);
      assert.equal((await service().request('DELETE', `/api/v1/generate/${started[0]}`, { token: apiKey })).status, 200);
      assert.equal((await startGeneration(service(), apiKey, `${docs.origin}/d`)).status, 200);
    });
  },
  { workers: false, env: { CRAWL_ALLOW_PRIVATE: 'true', JOBS_PER_ACCOUNT: '3' } },
);

describeOnEachDatabase(
  'The cap on unfinished jobs per account, with workers',
  (service) => {
    test('finished jobs free their place, and a cache hit is answered even at the cap', async () => {
      const { apiKey } = await service().createAccount();
      for (let i = 0; i < 3; i++) {
        const start = await startDiscovery(service(), apiKey, docs.origin);
        assert.equal((await waitForDiscovery(service(), apiKey, start.body.id)).status, 'completed');
      }
      const cached = await startGeneration(service(), apiKey, docs.origin);
      assert.equal((await waitForGeneration(service(), apiKey, cached.body.jobId)).status, 'completed');

      const slowJobs = [];
      for (let i = 0; i < 3; i++) {
        const start = await startGeneration(service(), apiKey, `${slow.origin}/?n=${i}`);
        assert.equal(start.status, 200, start.text);
        slowJobs.push(start.body.jobId);
      }
      const again = await startGeneration(service(), apiKey, docs.origin, 3_600_000);
      assert.deepEqual([again.status, again.body.status, again.body.creditsUsed, again.body.jobId], [200, 'completed', 0, cached.body.jobId]);
      assert.deepEqual((await startGeneration(service(), apiKey, `${slow.origin}/?n=3`)).body, TOO_MANY);
      for (const jobId of slowJobs) await service().request('DELETE', `/api/v1/generate/${jobId}`, { token: apiKey });
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', JOBS_PER_ACCOUNT: '3' } },
);

describeOnEachDatabase(
  'Fair pickup across accounts',
  (service) => {
    test("one account's queue of slow discoveries does not hold up another account's quick one", async () => {
      const quick = await service().createAccount();
      const timeQuickDiscovery = async () => {
        const started = performance.now();
        const start = await startDiscovery(service(), quick.apiKey, docs.origin, 5);
        assert.equal((await waitForDiscovery(service(), quick.apiKey, start.body.id)).status, 'completed');
        return performance.now() - started;
      };
      await timeQuickDiscovery(); // the service's first job warms it up
      const alone = await timeQuickDiscovery();

      const busy = await service().createAccount();
      const slowIds = [];
      for (let i = 0; i < 3; i++) slowIds.push((await startDiscovery(service(), busy.apiKey, `${slow.origin}/?n=${i}`, 1)).body.id);
      const behindSlowOnes = await timeQuickDiscovery();

      // Held up, it would wait for a slow job: at least a slow page's time. A quick job of a few
      // tens of ms may take several times that on a busy machine without waiting for anyone.
      assert.ok(
        behindSlowOnes < Math.max(alone * 5, SLOW_PAGE_MS / 2),
        `the quick discovery took ${Math.round(behindSlowOnes)} ms behind the slow ones, ${Math.round(alone)} ms alone`,
      );
      // The slow ones were really under way (and still are): the quick one did not merely run first.
      const slowStatuses = await Promise.all(slowIds.map(async (id) => (await service().request('GET', `/api/v1/discovery/${id}`, { token: busy.apiKey })).body.status));
      assert.ok(slowStatuses.every((status) => status === 'pending' || status === 'processing'), slowStatuses.join());
      for (const id of slowIds) await waitForDiscovery(service(), busy.apiKey, id);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', WORKER_CONCURRENCY: '2' } },
);
