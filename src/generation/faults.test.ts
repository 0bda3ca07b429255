import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addCredits } from '../credits/ledger.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import { startSlowSite } from '../testing/slow-site.ts';
import { routes, startSite, type TestSite } from '../testing/test-site.ts';

let docs: DocsSite;
let slow: TestSite;
before(async () => {
  docs = await startDocsSite();
  slow = await startSlowSite(8, 400);
});
after(async () => {
  await docs.close();
  await slow.close();
});

describeOnEachDatabase(
  'Generation under concurrency and faults',
  (service) => {
    test('runs exactly 30 of 100 simultaneous starts when the credits cover 30, never going below zero', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      await service().db.transaction((tx) => addCredits(tx, 'purchase', { accountId, amount: 10, description: 'Top-up for the test' }));
      const body = { url: docs.origin, options: { generationMethod: 'simple', maxUrls: 10, cacheAge: 0 } };
      const answers = await Promise.all(Array.from({ length: 100 }, () => service().request('POST', '/api/v1/generate', { token: apiKey, body })));
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 30);
      assert.equal(statuses.filter((s) => s === 402).length, 70);
      for (const refused of answers.filter((a) => a.status === 402)) {
        assert.match(refused.body.message, /^Insufficient credits\. Required: 1, Available: 0\./);
      }
      const started = answers.filter((a) => a.status === 200);
      assert.equal(new Set(started.map((a) => a.body.jobId)).size, 30);
      const ledger = await ledgerOf(service(), accountId);
      assert.ok(ledger.balance >= 0);
      assert.equal(ledger.rows.filter((r) => r.type === 'usage').length, 30);
      for (const a of started) await waitForGeneration(service(), apiKey, a.body.jobId, 120_000);
      assert.equal((await ledgerOf(service(), accountId)).balance, 0);
    });

    test('cancels a job while it runs and refunds its reservation exactly once', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: slow.origin, options: { generationMethod: 'simple', maxUrls: 30 } } });
      assert.equal(start.status, 200);
      for (let i = 0; i < 100; i++) {
        const job = await service().request('GET', `/api/v1/generate/${start.body.jobId}`, { token: apiKey });
        if (job.body.status === 'processing') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const cancel = await service().request('DELETE', `/api/v1/generate/${start.body.jobId}`, { token: apiKey });
      assert.equal(cancel.status, 200, cancel.text);
      assert.equal(cancel.body.job.status, 'failed');
      assert.equal(cancel.body.job.error, 'Canceled');
      const again = await service().request('DELETE', `/api/v1/generate/${start.body.jobId}`, { token: apiKey });
      assert.deepEqual([again.status, again.body], [409, { message: 'This generation job has already finished' }]);

      // The worker notices, stops, and never completes the canceled job afterwards.
      await new Promise((r) => setTimeout(r, 1500));
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'failed');
      assert.equal(job.error, 'Canceled');
      const ledger = await ledgerOf(service(), accountId);
      assert.equal(ledger.balance, 20);
      assert.deepEqual(ledger.rows.filter((r) => r.type === 'refund').map((r) => r.amount), [3]);
      const siteRes = await service().request('GET', `/api/v1/sites/${job.siteId}`, { token: apiKey });
      assert.equal(siteRes.body.status, 'failed');
    });

    test('generates a site whose pages hold NUL characters, which PostgreSQL text cannot store, without them', async () => {
      const nul = '\u0000';
      const guide = `<html><head><title>Guide${nul} one</title><meta name="description" content="How to${nul} install the tool on every system."></head>
        <body><main><h1>Guide${nul} one</h1><p>This guide${nul} explains how to configure the tool, step by step.</p></main></body></html>`;
      const home = `<html><head><title>Tool docs</title></head><body><main><h1>Tool docs</h1><p>The tool's documentation, for users and developers alike.</p>
        <ul><li><a href="/guide">Guide one</a></li></ul></main></body></html>`;
      const hostile = await startSite(routes({ '/': home, '/guide': guide }));
      try {
        const { apiKey } = await service().createAccount();
        const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${hostile.origin}/`, options: { maxUrls: 10, showFullText: true } } });
        const job = await waitForGeneration(service(), apiKey, start.body.jobId);
        assert.equal(job.status, 'completed', job.error);
        const llmsTxt = await (await fetch(job.fileUrl)).text();
        assert.match(llmsTxt, /\[Guide one\]\(http:\/\/[^)]+\/guide\): How to install the tool on every system\./);
        const fullText = await (await fetch(job.fullTextUrl)).text();
        assert.match(fullText, /This guide explains how to configure the tool/);
        assert.ok(!llmsTxt.includes(nul) && !fullText.includes(nul));
      } finally {
        await hostile.close();
      }
    });

    test('fails a job whose site cannot be reached and refunds everything', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: 'http://127.0.0.1:1/', options: { maxUrls: 30 } } });
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'failed');
      assert.ok(job.error.length > 0);
      assert.equal((await ledgerOf(service(), accountId)).balance, 20);
      assert.equal((await service().request('GET', `/api/v1/file/${job.siteId}`)).status, 404);
    });
  },
  // Credits, not the cap on unfinished jobs, are what these tests run out of.
  { env: { CRAWL_ALLOW_PRIVATE: 'true', JOBS_PER_ACCOUNT: '1000' } },
);

describeOnEachDatabase('The address guard at the start of a job (CRAWL_ALLOW_PRIVATE unset)', (service) => {
  const refused = {
    status: 400,
    body: { message: 'Validation error: url points to a private or reserved address. A self-hosted service can allow these with CRAWL_ALLOW_PRIVATE=true' },
  };

  test('refuses a generation or discovery of a private, loopback or link-local address, or of a host resolving to one, charging and creating nothing', async () => {
    const { id: accountId, apiKey } = await service().createAccount();
    const hitsBefore = docs.hits.length;
    for (const url of [docs.origin, 'http://10.20.30.40/', 'http://169.254.169.254/latest/', 'http://[::1]/', `http://localhost:${docs.port}/`]) {
      for (const [path, body] of [['/api/v1/generate', { url, options: { maxUrls: 10 } }], ['/api/v1/discovery', { url, maxUrls: 10 }]] as const) {
        const res = await service().request('POST', path, { token: apiKey, body });
        assert.deepEqual({ status: res.status, body: res.body }, refused, `${path} ${url}`);
      }
    }
    assert.equal(docs.hits.length, hitsBefore, 'the site must not have been contacted');
    const { balance, rows } = await ledgerOf(service(), accountId);
    assert.deepEqual([balance, rows.length], [20, 1], 'the sign-up grant only');
    assert.deepEqual((await service().request('GET', '/api/v1/sites', { token: apiKey })).body.sites, []);
    assert.equal((await service().request('GET', '/api/v1/discovery', { token: apiKey })).body.total, 0);
  });
});
