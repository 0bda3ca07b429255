import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { generationJobs, sites } from '../db/schema.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let site: DocsSite;
before(async () => {
  site = await startDocsSite();
});
after(async () => {
  await site.close();
});

const WITHOUT_AI = "as simple, at simple's price: enhanced needs an AI provider, and none is configured (set LLM_PROVIDER)";
const REFUND_RULE = (pages: number) =>
  `The credits are reserved at the start; when the job ends it keeps a credit per ${pages} pages listed and the rest come back (all of them if it fails)`;

/** Everything an estimate must leave alone: the account's ledger, sites and jobs. */
async function footprint(service: TestService, accountId: string) {
  const [ledger, siteRows, jobRows] = await Promise.all([
    ledgerOf(service, accountId),
    service.db.select().from(sites).where(eq(sites.accountId, accountId)),
    service.db.select().from(generationJobs).where(eq(generationJobs.accountId, accountId)),
  ]);
  return { ledger, sites: siteRows.length, jobs: jobRows.length };
}

describeOnEachDatabase(
  'POST /generate/estimate',
  (service) => {
    test('answers what the start then reserves, for simple, and charges and creates nothing', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const body = { url: site.origin, options: { generationMethod: 'simple', maxUrls: 35 } };
      const before = await footprint(service(), accountId);
      const estimate = await service().request('POST', '/api/v1/generate/estimate', { token: apiKey, body });
      assert.equal(estimate.status, 200, estimate.text);
      assert.deepEqual(estimate.body, { credits: 4, generationMethod: 'simple', maxUrls: 35, pagesPerCredit: 10, refundRule: REFUND_RULE(10), renderingCredits: 0, fromCache: false, message: null });
      assert.deepEqual(await footprint(service(), accountId), before);

      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.creditsUsed, estimate.body.credits);
      const usage = (await ledgerOf(service(), accountId)).rows.filter((row) => row.type === 'usage');
      assert.deepEqual(usage.map((row) => row.amount), [-estimate.body.credits]);
      await waitForGeneration(service(), apiKey, start.body.jobId);

      // The same body again within cacheAge: the start would answer from cache, for nothing.
      const again = await service().request('POST', '/api/v1/generate/estimate', { token: apiKey, body });
      assert.deepEqual([again.body.credits, again.body.fromCache], [0, true]);
      assert.equal((await service().request('POST', '/api/v1/generate', { token: apiKey, body })).body.creditsUsed, 0);
    });

    test('enhanced without an AI provider: estimated, charged and recorded as simple, and said so in one sentence', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const body = { url: site.origin, options: { generationMethod: 'enhanced', maxUrls: 20 } };
      const estimate = await service().request('POST', '/api/v1/generate/estimate', { token: apiKey, body });
      assert.deepEqual(estimate.body, { credits: 2, generationMethod: 'simple', maxUrls: 20, pagesPerCredit: 10, refundRule: REFUND_RULE(10), renderingCredits: 0, fromCache: false, message: `Runs ${WITHOUT_AI}` });

      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.creditsUsed, estimate.body.credits);
      assert.equal(start.body.message, `Generation started ${WITHOUT_AI}`);
      assert.deepEqual((await ledgerOf(service(), accountId)).rows.filter((row) => row.type === 'usage').map((row) => row.amount), [-2]);
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'completed', job.error);
      assert.equal(job.options.generationMethod, 'simple');
      assert.equal(job.message, `Generated from ${site.pagePaths.length} pages ${WITHOUT_AI}`);
      // 9 pages at simple's price: 1 credit kept of 2.
      assert.equal(job.creditsUsed, 1);
      assert.equal((await ledgerOf(service(), accountId)).balance, 20 - 1);
    });

    test('a bad body answers the very 400 of POST /generate, and changes nothing', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const before = await footprint(service(), accountId);
      const bad: unknown[] = [
        {},
        { url: 'ftp://example.com' },
        { url: 'example.com' },
        { url: site.origin, options: { maxUrls: 0 } },
        { url: site.origin, options: { generationMethod: 'fancy' } },
        { url: site.origin, options: { cacheAge: 'soon' } },
        { url: site.origin, options: { maxTokens: 5000 } },
        { url: site.origin, options: { unknown: true } },
        { url: site.origin, options: 'fast' },
      ];
      for (const body of bad) {
        const estimate = await service().request('POST', '/api/v1/generate/estimate', { token: apiKey, body });
        const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
        assert.equal(start.status, 400, `${JSON.stringify(body)}: ${start.text}`);
        assert.deepEqual([estimate.status, estimate.body], [start.status, start.body], JSON.stringify(body));
      }
      assert.deepEqual(await footprint(service(), accountId), before);
      const anonymous = await service().request('POST', '/api/v1/generate/estimate', { body: { url: site.origin } });
      assert.deepEqual([anonymous.status, anonymous.body], [401, { message: 'Unauthorized' }]);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
