import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let docs: DocsSite;
/** `/` forwards to /en/index.html, which links to an English page and a French one. */
let multilingual: TestSite;
before(async () => {
  docs = await startDocsSite();
  multilingual = await startSite(
    routes({
      '/': { status: 302, headers: { location: '/en/index.html' }, body: '' },
      '/en/index.html': page('Acme', ['/en/guide.html', '/fr/guide.html', '/about.html']),
      '/en/guide.html': page('Guide'),
      '/fr/guide.html': page('Guide (français)'),
      '/about.html': page('About'),
    }),
  );
});
after(async () => {
  await docs.close();
  await multilingual.close();
});

async function listedPaths(service: TestService, token: string, siteId: string): Promise<string[]> {
  const res = await service.request('GET', `/api/v1/sites/${siteId}/urls?status=scraped&limit=100`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body.urls.map((u: { url: string }) => new URL(u.url).pathname).sort();
}

async function discovered(service: TestService, token: string, body: object): Promise<{ job: any; paths: string[] }> {
  const start = await service.request('POST', '/api/v1/discovery', { token, body });
  assert.equal(start.status, 201, start.text);
  for (;;) {
    const job = await service.request('GET', `/api/v1/discovery/${start.body.id}`, { token });
    if (job.body.status === 'completed' || job.body.status === 'failed') {
      const urls = await service.request('GET', `/api/v1/discovery/${start.body.id}/urls?limit=100`, { token });
      return { job: job.body, paths: urls.body.urls.map((u: { url: string }) => new URL(u.url).pathname).sort() };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeOnEachDatabase('URL filters and scope', (service) => {
  test('generation: excludePaths drop pages, includePaths keep only theirs, and the job keeps its patterns', async () => {
    const { apiKey } = await service().createAccount();
    const options = { generationMethod: 'simple', maxUrls: 50, cacheAge: 0 };

    const excluding = await service().request('POST', '/api/v1/generate', {
      token: apiKey,
      body: { url: docs.origin, options: { ...options, excludePaths: ['/blog', 'privacy', '/api/w*'] } },
    });
    assert.equal(excluding.status, 200, excluding.text);
    const excluded = await waitForGeneration(service(), apiKey, excluding.body.jobId);
    assert.equal(excluded.status, 'completed', excluded.error);
    assert.deepEqual(excluded.options.excludePaths, ['/blog', 'privacy', '/api/w*']);
    assert.deepEqual(excluded.options.includePaths, []);
    assert.deepEqual(await listedPaths(service(), apiKey, excluded.siteId), ['/', '/api/events', '/docs/configuration', '/docs/getting-started', '/docs/hidden-gem', '/docs/troubleshooting']);

    const including = await service().request('POST', '/api/v1/generate', {
      token: apiKey,
      body: { url: docs.origin, options: { ...options, includePaths: ['/docs/**'], excludePaths: ['/docs/troubleshooting'] } },
    });
    const included = await waitForGeneration(service(), apiKey, including.body.jobId);
    assert.equal(included.status, 'completed', included.error);
    // The crawler still went through the home page, and found the page only it links to.
    assert.deepEqual(await listedPaths(service(), apiKey, included.siteId), ['/docs/configuration', '/docs/getting-started', '/docs/hidden-gem']);
    const file = await (await fetch(included.fileUrl)).text();
    assert.doesNotMatch(file, /troubleshooting|\/api\/|\/blog\//);
  });

  test('generation: bad patterns are 400 with the pattern named, and nothing is started or charged', async () => {
    const { id, apiKey } = await service().createAccount();
    const before = await ledgerOf(service(), id);
    for (const [paths, message] of [
      [{ excludePaths: ['/docs/[a'] }, 'Validation error: excludePaths[0] "/docs/[a" is not a valid glob pattern'],
      [{ includePaths: ['/docs', '/a b'] }, 'Validation error: includePaths[1] "/a b" must be a path pattern, without spaces or a fragment'],
      [{ includePaths: ['   '] }, 'Validation error: includePaths[0] is empty'],
    ] as const) {
      const res = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: docs.origin, options: { generationMethod: 'simple', ...paths } } });
      assert.deepEqual([res.status, res.body], [400, { message }]);
    }
    const tooMany = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: docs.origin, options: { excludePaths: Array.from({ length: 51 }, (_, i) => `/p${i}`) } } });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.message, /^Validation error: /);
    const sites = await service().request('GET', '/api/v1/sites', { token: apiKey });
    assert.equal(sites.body.total, 0);
    assert.deepEqual(await ledgerOf(service(), id), before);
  });

  test('discovery: the patterns are top-level fields, kept on the job, and bad ones are 400', async () => {
    const { apiKey } = await service().createAccount();
    const { job, paths } = await discovered(service(), apiKey, { url: docs.origin, maxUrls: 50, includePaths: ['/docs/', '/api'], excludePaths: ['events'] });
    assert.equal(job.status, 'completed', job.error);
    assert.deepEqual([job.includePaths, job.excludePaths], [['/docs/', '/api'], ['events']]);
    assert.deepEqual(paths, ['/api/widgets', '/docs/configuration', '/docs/getting-started', '/docs/hidden-gem', '/docs/troubleshooting']);

    const bad = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: docs.origin, excludePaths: ['/{a,b'] } });
    assert.deepEqual([bad.status, bad.body], [400, { message: 'Validation error: excludePaths[0] "/{a,b" is not a valid glob pattern' }]);
    const list = await service().request('GET', '/api/v1/discovery', { token: apiKey });
    assert.equal(list.body.total, 1);
  });

  test('scope: a start URL with a path stays in its folder, and a start page forwarding to /en/ scopes the job to /en/', async () => {
    const { apiKey } = await service().createAccount();
    // /docs/ itself is not a page: the sitemap's pages under it are what the job finds.
    const inDocs = await discovered(service(), apiKey, { url: `${docs.origin}/docs/`, maxUrls: 50 });
    assert.deepEqual(inDocs.paths, ['/docs/configuration', '/docs/getting-started', '/docs/troubleshooting']);

    const english = await discovered(service(), apiKey, { url: `${multilingual.origin}/`, maxUrls: 50, discoveryType: 'crawl' });
    assert.equal(english.job.status, 'completed', english.job.error);
    assert.deepEqual(english.paths, ['/en/guide.html', '/en/index.html']);
    const widened = await discovered(service(), apiKey, { url: `${multilingual.origin}/`, maxUrls: 50, discoveryType: 'crawl', includePaths: ['/en/', '/about.html'] });
    assert.deepEqual(widened.paths, ['/about.html', '/en/guide.html', '/en/index.html']);
  });
}, { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
