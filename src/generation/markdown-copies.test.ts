import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { routes, startSite, type TestSite } from '../testing/test-site.ts';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><nav><a href="/">Home</a> <a href="/guide/setup.html">Setup</a> <a href="/guide/usage.html">Usage</a> <a href="/guide/trap.html">Trap</a></nav><main><h1>${title}</h1>${body}</main></body></html>`;
const markdown = (body: string) => ({ headers: { 'content-type': 'text/markdown; charset=utf-8' }, body });

/** A site that publishes markdown: announced on its home page, at `.html.md` and at `.md` on others, and a catch-all that answers HTML. */
let withCopies: TestSite;
/** A site without any. */
let withoutCopies: DocsSite;
before(async () => {
  withCopies = await startSite(
    routes({
      '/': page('Tidewater', '<p>Tidewater forecasts tides for small harbours from public gauge data.</p>', '<link rel="alternate" type="text/markdown" href="/llms-home.md">'),
      '/llms-home.md': markdown('---\ntitle: Tidewater\nlayout: home\n---\n# Tidewater\n\nThe markdown home: forecasts for harbours, written by the site itself.\n'),
      '/guide/setup.html': page('Setup', '<p>Setting up Tidewater takes a gauge id and a harbour name.</p>'),
      '/guide/setup.html.md': markdown('+++\ndraft = false\n+++\n# Setup\n\nThe markdown setup page: `tidewater init --gauge 8452660`.\n'),
      '/guide/usage.html': page('Usage', '<p>Use Tidewater from the command line or its web page.</p>'),
      '/guide/usage.md': markdown('# Usage\n\nThe markdown usage page: `tidewater forecast --days 3`.\n'),
      '/guide/trap.html': page('Trap', '<p>This page has no markdown copy; the server answers every unknown path with its app page.</p>'),
      '/guide/trap.html.md': { headers: { 'content-type': 'text/plain' }, body: '<!doctype html><html><body>app</body></html>' },
      '/guide/trap.md': '<!doctype html><html><body>app</body></html>',
    }),
  );
  withoutCopies = await startDocsSite();
});
after(async () => {
  await withCopies.close();
  await withoutCopies.close();
});

async function generate(service: TestService, apiKey: string, url: string, options: Record<string, unknown>) {
  const start = await service.request('POST', '/api/v1/generate', {
    token: apiKey,
    body: { url, options: { generationMethod: 'simple', maxUrls: 20, cacheAge: 0, ...options } },
  });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  return job;
}

const linksOf = (text: string) => parseLlmsTxt(text).sections.flatMap((section) => section.links);

describeOnEachDatabase(
  "The site's own markdown",
  (service) => {
    test("llms-full.txt holds the site's own markdown, without front matter, where the site publishes it", async () => {
      const { apiKey } = await service().createAccount();
      const job = await generate(service(), apiKey, `${withCopies.origin}/`, { showFullText: true });
      const full = await (await fetch(job.fullTextUrl)).text();
      assert.match(full, /The markdown home: forecasts for harbours/);
      assert.match(full, /The markdown setup page: `tidewater init --gauge 8452660`/);
      assert.match(full, /The markdown usage page/);
      assert.doesNotMatch(full, /layout: home|draft = false/);
      // The catch-all's HTML is not taken for markdown: the page's own text stands.
      assert.match(full, /This page has no markdown copy/);
      assert.doesNotMatch(full, /<!doctype/i);
      // Without linkMarkdown, llms.txt links the pages themselves.
      const links = linksOf(await (await fetch(job.fileUrl)).text());
      assert.ok(links.every((link) => !link.url.endsWith('.md')), JSON.stringify(links));
    });

    test("linkMarkdown links each page to the site's own copy where there is one, else to the hosted copy", async () => {
      const { apiKey } = await service().createAccount();
      const job = await generate(service(), apiKey, `${withCopies.origin}/`, { linkMarkdown: true });
      assert.equal(job.options.linkMarkdown, true);
      const targets = linksOf(await (await fetch(job.fileUrl)).text()).map((link) => link.url).sort();
      const expected = [`${job.fileUrl}/pages/guide/trap.html.md`, `${withCopies.origin}/guide/setup.html.md`, `${withCopies.origin}/guide/usage.md`, `${withCopies.origin}/llms-home.md`];
      assert.deepEqual(targets, expected.sort());
      const hosted = await fetch(`${job.fileUrl}/pages/guide/trap.html.md`);
      assert.equal(hosted.status, 200);
      assert.match(await hosted.text(), /This page has no markdown copy/);
    });

    test('on a site without markdown copies, linkMarkdown links to hosted copies that answer markdown with an ETag, and probing stops after a few pages', async () => {
      const { apiKey } = await service().createAccount();
      const probesBefore = withoutCopies.hits.filter((hit) => hit.endsWith('.md')).length;
      const job = await generate(service(), apiKey, `${withoutCopies.origin}/`, { linkMarkdown: true });
      const links = linksOf(await (await fetch(job.fileUrl)).text());
      assert.equal(links.length, withoutCopies.pagePaths.length);
      const probes = withoutCopies.hits.filter((hit) => hit.endsWith('.md')).length - probesBefore;
      assert.ok(probes <= 3 * 2, `${probes} .md probes for ${links.length} pages`);
      for (const link of links) {
        assert.ok(link.url.startsWith(`${job.fileUrl}/pages/`), link.url);
        const copy = await fetch(link.url);
        assert.equal(copy.status, 200, link.url);
        assert.equal(copy.headers.get('content-type'), 'text/markdown; charset=utf-8');
        const etag = copy.headers.get('etag')!;
        assert.match(etag, /^"[\w-]+"$/);
        assert.ok((await copy.text()).trim().length > 0, link.url);
        const again = await fetch(link.url, { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
      }
      const home = await fetch(`${job.fileUrl}/pages/index.md`);
      assert.equal(home.status, 200);
      const missing = await fetch(`${job.fileUrl}/pages/no/such/page.md`);
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { message: 'File not found' });
    });

    test('hosted copies are not kept by a job that needs no markdown', async () => {
      const { apiKey } = await service().createAccount();
      const job = await generate(service(), apiKey, `${withoutCopies.origin}/`, { maxUrls: 5 });
      assert.equal((await fetch(`${job.fileUrl}/pages/index.md`)).status, 404);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
