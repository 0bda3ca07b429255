import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestSite } from '../testing/test-site.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { startSlowSite } from '../testing/slow-site.ts';

let docs: DocsSite;
let slow: TestSite;
before(async () => {
  docs = await startDocsSite();
  slow = await startSlowSite(12, 150);
});
after(async () => {
  await docs.close();
  await slow.close();
});

const PHASES = ['discovering', 'fetching', 'describing', 'writing'];

async function start(service: TestService, apiKey: string, url: string, options: object = {}) {
  const res = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', maxUrls: 20, cacheAge: 0, ...options } } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describeOnEachDatabase(
  'A job says what it is doing, what it cost, and why it failed',
  (service) => {
    test('a running job shows its phase and counts; a finished one its pages and credits, no phase', async () => {
      const { apiKey } = await service().createAccount();
      const { jobId } = await start(service(), apiKey, slow.origin);
      const seen: string[] = [];
      for (;;) {
        const { body: job } = await service().request('GET', `/api/v1/generate/${jobId}`, { token: apiKey });
        if (job.status === 'completed' || job.status === 'failed') break;
        if (job.status === 'pending') assert.deepEqual([job.phase, job.pagesDone, job.pagesTotal, job.creditsUsed], [null, null, null, 2]);
        if (job.status === 'processing' && job.phase !== null) {
          assert.ok(PHASES.includes(job.phase), job.phase);
          if (job.phase === 'writing') assert.deepEqual([job.pagesDone, job.pagesTotal], [null, null]);
          else assert.ok(Number.isInteger(job.pagesDone) && job.pagesDone >= 0 && job.pagesDone <= job.pagesTotal, JSON.stringify(job));
          if (job.phase === 'discovering') assert.equal(job.pagesTotal, 20);
          if (seen.at(-1) !== job.phase) seen.push(job.phase);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      // A site without a sitemap is fetched while its links are followed: discovering, then the generator's phases, in order.
      assert.equal(seen[0], 'discovering');
      assert.deepEqual(seen, [...seen].sort((a, b) => PHASES.indexOf(a) - PHASES.indexOf(b)));
      const job = await waitForGeneration(service(), apiKey, jobId);
      assert.equal(job.status, 'completed', job.error);
      // The home page and its 12 links: 13 pages, 2 credits kept of 2.
      assert.deepEqual([job.phase, job.pagesDone, job.pagesTotal, job.pagesGenerated, job.pagesLeftOut, job.creditsUsed], [null, null, null, 13, null, 2]);
    });

    test('a failed job carries its reason and costs nothing; its site shows the failure, a completed one none', async () => {
      const { apiKey } = await service().createAccount();
      const url = 'http://127.0.0.1:1/';
      const failed = await waitForGeneration(service(), apiKey, (await start(service(), apiKey, url)).jobId);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error, `Could not fetch ${url}: Connection refused by 127.0.0.1:1`);
      assert.deepEqual([failed.phase, failed.pagesGenerated, failed.creditsUsed], [null, null, 0]);

      const site = await service().request('GET', `/api/v1/sites/${failed.siteId}`, { token: apiKey });
      assert.equal(site.body.status, 'failed');
      assert.deepEqual(site.body.lastFailure, { jobId: failed.id, message: failed.error, at: failed.completedAt });
      const listed = await service().request('GET', '/api/v1/sites', { token: apiKey });
      assert.deepEqual(listed.body.sites.find((s: { id: string }) => s.id === failed.siteId).lastFailure, site.body.lastFailure);

      const healthy = await waitForGeneration(service(), apiKey, (await start(service(), apiKey, docs.origin)).jobId);
      assert.equal(healthy.status, 'completed', healthy.error);
      const other = await service().request('GET', `/api/v1/sites/${healthy.siteId}`, { token: apiKey });
      assert.equal(other.body.lastFailure, null);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
