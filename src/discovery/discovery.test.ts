import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForDiscovery } from '../testing/jobs.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

let site: DocsSite;
before(async () => {
  site = await startDocsSite();
});
after(async () => {
  await site.close();
});

describeOnEachDatabase(
  'Discovery jobs',
  (service) => {
    test('starts a full discovery that answers the start shape, then lists sitemap and crawled URLs', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: `${site.origin}/`, maxUrls: 50 } });
      assert.equal(start.status, 201, start.text);
      assert.deepEqual(Object.keys(start.body).sort(), ['createdAt', 'discoveryType', 'estimatedCompletion', 'id', 'maxUrls', 'progress', 'status', 'totalUrlsFound', 'url']);
      assert.equal(start.body.status, 'started');
      assert.equal(start.body.progress, '0');
      assert.equal(start.body.totalUrlsFound, 0);
      assert.equal(start.body.discoveryType, 'full');
      assert.equal(start.body.maxUrls, 50);
      assert.ok(Date.parse(start.body.estimatedCompletion) > Date.parse(start.body.createdAt));

      const done = await waitForDiscovery(service(), apiKey, start.body.id);
      assert.equal(done.status, 'completed', done.error);
      assert.equal(done.type, 'full');
      assert.equal(done.urlsFound, site.pagePaths.length);
      assert.ok(done.completedAt);

      const urls = await service().request('GET', `/api/v1/discovery/${start.body.id}/urls?limit=100`, { token: apiKey });
      assert.equal(urls.status, 200);
      assert.equal(urls.body.total, site.pagePaths.length);
      assert.equal(urls.body.totalPages, 1);
      const byUrl = new Map(urls.body.urls.map((u: any) => [u.url, u]));
      for (const path of site.sitemapPaths) assert.equal((byUrl.get(site.origin + path) as any)?.source, 'sitemap', path);
      assert.equal((byUrl.get(`${site.origin}/docs/hidden-gem`) as any)?.source, 'crawl');
      assert.equal((byUrl.get(`${site.origin}/docs/getting-started`) as any)?.lastModified?.slice(0, 10), '2026-10-02');
      assert.ok(!byUrl.has(`${site.origin}/private/secret`), 'robots.txt disallowed page must not be listed');
    });

    test('honours maxUrls and the sitemap-only and crawl-only types', async () => {
      const { apiKey } = await service().createAccount();
      const sitemapOnly = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: site.origin, maxUrls: 3, discoveryType: 'sitemap' } });
      const crawlOnly = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: site.origin, discoveryType: 'crawl' } });
      const a = await waitForDiscovery(service(), apiKey, sitemapOnly.body.id);
      const b = await waitForDiscovery(service(), apiKey, crawlOnly.body.id);
      assert.equal(a.status, 'completed');
      assert.equal(a.urlsFound, 3);
      assert.equal(b.status, 'completed');
      const crawled = await service().request('GET', `/api/v1/discovery/${crawlOnly.body.id}/urls`, { token: apiKey });
      assert.ok(crawled.body.urls.every((u: any) => u.source === 'crawl'));
      assert.ok(crawled.body.urls.some((u: any) => u.url === `${site.origin}/docs/hidden-gem`));

      const page2 = await service().request('GET', `/api/v1/discovery/${crawlOnly.body.id}/urls?page=2&limit=2`, { token: apiKey });
      assert.equal(page2.body.page, 2);
      assert.equal(page2.body.urls.length, 2);
      assert.equal(page2.body.totalPages, Math.ceil(b.urlsFound / 2));

      const list = await service().request('GET', '/api/v1/discovery?status=completed', { token: apiKey });
      assert.equal(list.status, 200);
      assert.equal(list.body.total, 2);
      assert.deepEqual(Object.keys(list.body.jobs[0]).sort(), ['createdAt', 'id', 'status', 'type', 'url', 'urlsFound']);
      const pending = await service().request('GET', '/api/v1/discovery?status=pending', { token: apiKey });
      assert.equal(pending.body.total, 0);
    });

    test('fails a job whose site cannot be reached, with the reason', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: 'http://127.0.0.1:1/' } });
      assert.equal(start.status, 201);
      const done = await waitForDiscovery(service(), apiKey, start.body.id);
      assert.equal(done.status, 'failed');
      assert.ok(done.error && done.error.length > 0);
      assert.ok(done.completedAt);
    });

    test('refuses invalid input with 400 and starts nothing', async () => {
      const { apiKey } = await service().createAccount();
      const bad: unknown[] = [
        {},
        { url: 'ftp://example.com' },
        { url: 'not a url' },
        { url: 'javascript:alert(1)' },
        { url: site.origin, maxUrls: 0 },
        { url: site.origin, maxUrls: 1001 },
        { url: site.origin, maxUrls: '5' },
        { url: site.origin, discoveryType: 'everything' },
      ];
      for (const body of bad) {
        const res = await service().request('POST', '/api/v1/discovery', { token: apiKey, body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.message, /^Validation error: /);
      }
      const list = await service().request('GET', '/api/v1/discovery', { token: apiKey });
      assert.equal(list.body.total, 0);
      const limit = await service().request('GET', '/api/v1/discovery?limit=101', { token: apiKey });
      assert.equal(limit.status, 400);
    });

    test("answers 404 for another account's job and its URLs", async () => {
      const owner = await service().createAccount();
      const other = await service().createAccount();
      const start = await service().request('POST', '/api/v1/discovery', { token: owner.apiKey, body: { url: site.origin, maxUrls: 2 } });
      for (const path of [`/api/v1/discovery/${start.body.id}`, `/api/v1/discovery/${start.body.id}/urls`]) {
        const res = await service().request('GET', path, { token: other.apiKey });
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { message: 'Discovery job not found' });
      }
      const list = await service().request('GET', '/api/v1/discovery', { token: other.apiKey });
      assert.equal(list.body.total, 0);
      const unauth = await service().request('GET', '/api/v1/discovery');
      assert.equal(unauth.status, 401);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
