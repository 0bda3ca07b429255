import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { accounts, generationJobs, mappedUrls, sites } from '../db/schema.ts';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { routes, startSite } from '../testing/test-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

let site: DocsSite;
before(async () => {
  site = await startDocsSite();
});
after(async () => {
  await site.close();
});

describeOnEachDatabase(
  'Generation',
  (service) => {
    test('generates a simple llms.txt end to end: job, site, mapped URLs, hosted file and ledger', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', {
        token: apiKey,
        body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 50, includeModificationDate: true } },
      });
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.status, 'queued');
      assert.equal(start.body.progress, 0);
      assert.equal(start.body.creditsUsed, 5);
      assert.equal(start.body.fullTextUrl, null);
      assert.equal(typeof start.body.message, 'string');

      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'completed', job.error);
      assert.equal(job.siteId, start.body.siteId);
      assert.equal(job.url, `${site.origin}/`);
      assert.deepEqual(job.options, { maxUrls: 50, showFullText: false, includeModificationDate: true, generationMethod: 'simple', includePaths: [], excludePaths: [], maxTokens: null, render: 'never', linkMarkdown: false });
      assert.equal(job.fileUrl, `${service().baseUrl}/api/v1/file/${job.siteId}`);
      assert.equal(job.fullTextUrl, null);

      const file = await fetch(job.fileUrl);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'text/plain; charset=utf-8');
      const text = await file.text();
      // Sizes of the very file served, counted again here with the same encoding.
      assert.deepEqual(job.files, { tokenEncoding: 'o200k_base', llmsTxt: { bytes: Buffer.byteLength(text), tokens: countTokens(text) }, llmsFullTxt: null });
      const doc = parseLlmsTxt(text);
      assert.ok(doc.title.length > 0);
      const links = doc.sections.flatMap((s) => s.links);
      assert.equal(links.length, site.pagePaths.length);
      for (const link of links) assert.equal((await fetch(link.url)).status, 200, link.url);
      const gettingStarted = links.find((l) => l.url === `${site.origin}/docs/getting-started`)!;
      assert.match(gettingStarted.notes ?? '', /Install the Acme CLI/);
      assert.match(text, /2026-10-02/, 'includeModificationDate shows the sitemap lastmod');
      assert.ok(doc.sections.some((s) => s.name === 'Optional' && s.links.some((l) => l.url.endsWith('/legal/privacy'))));

      const urls = await service().request('GET', `/api/v1/sites/${job.siteId}/urls?limit=100`, { token: apiKey });
      assert.equal(urls.status, 200);
      assert.equal(urls.body.total, site.pagePaths.length);
      for (const u of urls.body.urls) {
        assert.deepEqual(Object.keys(u).sort(), ['description', 'id', 'lastModified', 'siteId', 'status', 'title', 'url']);
        assert.equal(u.status, 'scraped');
      }
      const scraped = await service().request('GET', `/api/v1/sites/${job.siteId}/urls?status=failed`, { token: apiKey });
      assert.equal(scraped.body.total, 0);

      const siteRes = await service().request('GET', `/api/v1/sites/${job.siteId}`, { token: apiKey });
      assert.equal(siteRes.status, 200);
      assert.equal(siteRes.body.status, 'completed');
      assert.equal(siteRes.body.userId, accountId);
      assert.equal(siteRes.body.fileUrl, job.fileUrl);
      assert.equal(siteRes.body.fullTextUrl, null);
      assert.deepEqual(siteRes.body.lastGenerationOptions, job.options);
      assert.deepEqual(siteRes.body.files, job.files);

      // 9 pages cost 1 credit of the 5 reserved: 4 come back.
      const ledger = await ledgerOf(service(), accountId);
      assert.equal(ledger.balance, 20 - 1);
      const usage = ledger.rows.filter((r) => r.type === 'usage');
      const refunds = ledger.rows.filter((r) => r.type === 'refund');
      assert.deepEqual(usage.map((r) => [r.amount, r.siteId]), [[-5, job.siteId]]);
      assert.deepEqual(refunds.map((r) => [r.amount, r.siteId]), [[4, job.siteId]]);
      const history = await service().request('GET', '/api/v1/credits/history/api?type=usage', { token: apiKey });
      assert.equal(history.body.transactions[0].siteId, job.siteId);
    });

    test('generates full text (enhanced asked for, without a model: simple) and serves llms-full.txt', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { maxUrls: 20, showFullText: true } } });
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.creditsUsed, 2);
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'completed', job.error);
      assert.equal(job.options.generationMethod, 'simple');
      assert.equal(job.fullTextUrl, `${service().baseUrl}/api/v1/file/${job.siteId}?full=true`);
      const full = await fetch(job.fullTextUrl);
      assert.equal(full.status, 200);
      const fullText = await full.text();
      assert.match(fullText, /npm install -g acme-cli/);
      assert.match(fullText, new RegExp(`${site.origin}/docs/configuration`));
      parseLlmsTxt(await (await fetch(job.fileUrl)).text());
      // 9 pages at simple's price: 1 credit of 2.
      assert.equal((await ledgerOf(service(), accountId)).balance, 19);
    });

    test("llms-full.txt holds the text of hand-written pages that leave out their <html>, <head> and <body> tags", async () => {
      const handMade = (title: string, text: string, links = '') =>
        `<!DOCTYPE html>\n<meta charset="utf-8">\n<title>${title}</title>\n<h1>${title}</h1>\n<p>${text}</p>\n<h2>Through the year</h2>\n<p>What ${title} asks for in each season.</p>${links}`;
      const bare = await startSite(
        routes({
          '/': handMade('Garden notes', 'Notes on growing vegetables in a small garden, season by season.', '<ul><li><a href="/soil.html">Soil</a></ul>'),
          '/soil.html': handMade('Soil', 'Loam holds water and air in balance; sand drains fast and clay holds too much.'),
        }),
      );
      try {
        const { apiKey } = await service().createAccount();
        const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${bare.origin}/`, options: { maxUrls: 10, showFullText: true } } });
        assert.equal(start.status, 200, start.text);
        const job = await waitForGeneration(service(), apiKey, start.body.jobId);
        assert.equal(job.status, 'completed', job.error);
        const fullText = await (await fetch(job.fullTextUrl)).text();
        assert.match(fullText, /Notes on growing vegetables in a small garden, season by season\./);
        // Past the first paragraph (which llms-full.txt falls back to when a page reads as empty), each page's whole text.
        assert.match(fullText, /Through the year\n\nWhat Garden notes asks for in each season\./);
        assert.match(fullText, /Through the year\n\nWhat Soil asks for in each season\./);
      } finally {
        await bare.close();
      }
    });

    test('answers a repeat within cacheAge at once for 0 credits, and regenerates with cacheAge 0', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const body = { url: site.origin, options: { generationMethod: 'simple', maxUrls: 10 } };
      const first = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
      await waitForGeneration(service(), apiKey, first.body.jobId);
      const before = await ledgerOf(service(), accountId);

      const cached = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
      assert.equal(cached.status, 200);
      assert.equal(cached.body.status, 'completed');
      assert.equal(cached.body.progress, 100);
      assert.equal(cached.body.creditsUsed, 0);
      assert.equal(cached.body.jobId, first.body.jobId);
      assert.ok(cached.body.fileUrl);
      assert.equal((await ledgerOf(service(), accountId)).rows.length, before.rows.length, 'a cache hit records no transaction');

      const otherOptions = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { ...body, options: { ...body.options, maxUrls: 11 } } });
      assert.equal(otherOptions.body.status, 'queued');
      const fresh = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { ...body, options: { ...body.options, cacheAge: 0 } } });
      assert.equal(fresh.body.status, 'queued');
      assert.equal(fresh.body.creditsUsed, 1);
      await waitForGeneration(service(), apiKey, fresh.body.jobId);
      await waitForGeneration(service(), apiKey, otherOptions.body.jobId);
    });

    test('refuses invalid input with 400 and charges nothing', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const bad: unknown[] = [
        {},
        { url: 'ftp://example.com' },
        { url: 'example.com' },
        { url: site.origin, options: { maxUrls: 0 } },
        { url: site.origin, options: { maxUrls: 1001 } },
        { url: site.origin, options: { maxUrls: 2.5 } },
        { url: site.origin, options: { generationMethod: 'fancy' } },
        { url: site.origin, options: { cacheAge: -1 } },
        { url: site.origin, options: { cacheAge: 'soon' } },
        { url: site.origin, options: { showFullText: 'yes' } },
        { url: site.origin, options: 'fast' },
      ];
      for (const body of bad) {
        const res = await service().request('POST', '/api/v1/generate', { token: apiKey, body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.message, /^Validation error: /);
      }
      const ledger = await ledgerOf(service(), accountId);
      assert.equal(ledger.balance, 20);
      assert.equal((await service().db.select().from(sites).where(eq(sites.accountId, accountId))).length, 0);
    });

    test('answers 402 with the exact message when credits are short, and writes nothing', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const res = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { maxUrls: 1000 } } });
      assert.equal(res.status, 402);
      assert.deepEqual(res.body, { message: 'Insufficient credits. Required: 100, Available: 20. Please purchase more credits to continue.' });
      assert.equal((await service().db.select().from(sites).where(eq(sites.accountId, accountId))).length, 0);
      assert.equal((await service().db.select().from(generationJobs).where(eq(generationJobs.accountId, accountId))).length, 0);
      assert.equal((await ledgerOf(service(), accountId)).balance, 20);
    });

    test("guards every site, job, export and file of another account, and answers 404 for unknown ones", async () => {
      const owner = await service().createAccount();
      const other = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: owner.apiKey, body: { url: site.origin, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const job = await waitForGeneration(service(), owner.apiKey, start.body.jobId);

      const jobRes = await service().request('GET', `/api/v1/generate/${job.id}`, { token: other.apiKey });
      assert.equal(jobRes.status, 403);
      assert.deepEqual(jobRes.body, { message: 'Access denied to this job' });
      for (const path of [`/api/v1/sites/${job.siteId}`, `/api/v1/sites/${job.siteId}/urls`, `/api/v1/sites/${job.siteId}/markdown/export`]) {
        const res = await service().request('GET', path, { token: other.apiKey });
        assert.equal(res.status, 403, path);
        assert.deepEqual(res.body, { message: 'Access denied to this site' });
      }
      const del = await service().request('DELETE', `/api/v1/sites/${job.siteId}`, { token: other.apiKey });
      assert.equal(del.status, 403);
      const cancel = await service().request('DELETE', `/api/v1/generate/${job.id}`, { token: other.apiKey });
      assert.equal(cancel.status, 403);
      for (const path of ['/api/v1/sites/nope', '/api/v1/sites/nope/urls']) {
        const res = await service().request('GET', path, { token: owner.apiKey });
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { message: 'Site not found' });
      }
      const unknownJob = await service().request('GET', '/api/v1/generate/nope', { token: owner.apiKey });
      assert.deepEqual([unknownJob.status, unknownJob.body], [404, { message: 'Generation job not found' }]);
      const listed = await service().request('GET', '/api/v1/sites', { token: other.apiKey });
      assert.equal(listed.body.total, 0);
    });

    test('exports markdown for paid plans only, as JSON or a combined download; pages simple did not read are fetched then', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      const refused = await service().request('GET', `/api/v1/sites/${job.siteId}/markdown/export`, { token: apiKey });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, { message: 'Markdown export requires a paid plan' });

      const storedMarkdown = async () => (await service().db.select({ markdown: mappedUrls.markdown }).from(mappedUrls).where(eq(mappedUrls.siteId, job.siteId))).map((row) => row.markdown);
      assert.deepEqual(await storedMarkdown(), site.pagePaths.map(() => null), 'simple without full text reads no content');

      await service().db.update(accounts).set({ plan: 'starter' }).where(eq(accounts.id, accountId));
      const individual = await service().request('GET', `/api/v1/sites/${job.siteId}/markdown/export`, { token: apiKey });
      assert.equal(individual.status, 200);
      assert.equal(individual.body.success, true);
      assert.equal(individual.body.format, 'individual');
      assert.equal(individual.body.files.length, site.pagePaths.length);
      const gs = individual.body.files.find((f: any) => f.url.endsWith('/docs/getting-started'));
      assert.match(gs.markdown, /npm install -g acme-cli/);
      assert.ok((await storedMarkdown()).every((markdown) => markdown && markdown.length > 0), 'the fetched markdown is kept');

      const combined = await service().request('GET', `/api/v1/sites/${job.siteId}/markdown/export?format=combined&fresh=true`, { token: apiKey });
      assert.equal(combined.status, 200);
      assert.match(combined.headers.get('content-type') ?? '', /^text\/markdown/);
      assert.equal(combined.headers.get('content-disposition'), 'attachment; filename="127.0.0.1.md"');
      assert.match(combined.text, /Source: .*\/docs\/configuration/);
      const badFormat = await service().request('GET', `/api/v1/sites/${job.siteId}/markdown/export?format=pdf`, { token: apiKey });
      assert.equal(badFormat.status, 400);
    });

    test('serves hosted files with ETag and HEAD, 404 before the first success, and lists and deletes sites', async () => {
      const { apiKey } = await service().createAccount();
      const missing = await service().request('GET', '/api/v1/file/unknown-site');
      assert.deepEqual([missing.status, missing.body], [404, { message: 'File not found' }]);

      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      const first = await fetch(job.fileUrl);
      const etag = first.headers.get('etag');
      assert.ok(etag);
      const head = await fetch(job.fileUrl, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('etag'), etag);
      assert.equal(await head.text(), '');
      const notModified = await fetch(job.fileUrl, { headers: { 'if-none-match': etag! } });
      assert.equal(notModified.status, 304);
      const noFull = await fetch(`${job.fileUrl}?full=true`);
      assert.equal(noFull.status, 404);

      const list = await service().request('GET', '/api/v1/sites?status=completed', { token: apiKey });
      assert.equal(list.body.total, 1);
      assert.equal(list.body.sites[0].id, job.siteId);
      const removed = await service().request('DELETE', `/api/v1/sites/${job.siteId}`, { token: apiKey });
      assert.equal(removed.status, 200);
      assert.equal((await fetch(job.fileUrl)).status, 404);
      assert.equal((await service().request('GET', `/api/v1/sites/${job.siteId}`, { token: apiKey })).status, 404);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
